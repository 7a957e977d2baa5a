"""Show a derivation (a list of (description, sympy expression)) as numbered math steps."""

import sympy as sp

__all__ = ["steps_markdown", "latex"]


#: sympy names printed in the book's notation (sympy's ``\epsilon`` is the lunate ϵ; the book writes ε)
BOOK_NAMES = {"epsilon": r"\varepsilon", "L_delta": r"\log(1/\delta)"}


def latex(expr):
    r"""LaTeX of a sympy expression in the book's symbols: ``delta'`` prints as δ′, ``epsilon`` as ε.

    sympy prints a symbol's name verbatim when it is not a Greek letter followed by
    subscripts, so ``Symbol("delta'")`` would show as the word ``delta'``; here a trailing
    prime is split off, the base printed as sympy prints it, and the prime put back. Names in
    :data:`BOOK_NAMES` (and their subscripted forms, ``epsilon_0``) print as the book writes them.

    Examples
    --------
    >>> latex(sp.log(1 / sp.Symbol("delta'")))
    "\\log{\\left(\\frac{1}{\\delta'} \\right)}"
    >>> latex(sp.Symbol("epsilon_0") ** 2)
    '\\varepsilon_{0}^{2}'
    """
    names = {}
    for sym in sp.sympify(expr).free_symbols:
        base = sym.name.rstrip("'")
        primes = "'" * (len(sym.name) - len(base))
        head, _, sub = base.partition("_")
        if base in BOOK_NAMES:
            names[sym] = BOOK_NAMES[base] + primes
        elif head in BOOK_NAMES and sub:
            names[sym] = f"{BOOK_NAMES[head]}_{{{sub}}}" + primes
        elif primes and base:
            names[sym] = sp.latex(sp.Symbol(base)) + primes
    return sp.latex(expr, symbol_names=names)


def steps_markdown(steps):
    """A Markdown object: one numbered line of prose and one display equation per step."""
    from IPython.display import Markdown

    parts = []
    for i, (text, expr) in enumerate(steps, 1):
        parts.append(f"**Step {i}.** {text}\n\n$$\n{latex(expr)}\n$$\n")
    return Markdown("\n".join(parts))
