"""Show a derivation (a list of (description, sympy expression)) as numbered math steps."""

import sympy as sp

__all__ = ["steps_markdown", "latex"]


def latex(expr):
    r"""LaTeX of a sympy expression in the book's symbols: a symbol named ``delta'`` prints as δ′.

    sympy prints a symbol's name verbatim when it is not a Greek letter followed by
    subscripts, so ``Symbol("delta'")`` would show as the word ``delta'``; here a trailing
    prime is split off, the base printed as sympy prints it, and the prime put back.

    Examples
    --------
    >>> latex(sp.log(1 / sp.Symbol("delta'")))
    "\\log{\\left(\\frac{1}{\\delta'} \\right)}"
    """
    names = {}
    for sym in sp.sympify(expr).free_symbols:
        base = sym.name.rstrip("'")
        if base != sym.name and base:
            names[sym] = sp.latex(sp.Symbol(base)) + "'" * (len(sym.name) - len(base))
    return sp.latex(expr, symbol_names=names)


def steps_markdown(steps):
    """A Markdown object: one numbered line of prose and one display equation per step."""
    from IPython.display import Markdown

    parts = []
    for i, (text, expr) in enumerate(steps, 1):
        parts.append(f"**Step {i}.** {text}\n\n$$\n{latex(expr)}\n$$\n")
    return Markdown("\n".join(parts))
