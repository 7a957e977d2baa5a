"""Show a derivation (a list of (description, sympy expression)) as numbered math steps."""

import sympy as sp

__all__ = ["steps_markdown"]


def steps_markdown(steps):
    """A Markdown object: one numbered line of prose and one display equation per step."""
    from IPython.display import Markdown

    parts = []
    for i, (text, expr) in enumerate(steps, 1):
        parts.append(f"**Step {i}.** {text}\n\n$$\n{sp.latex(expr)}\n$$\n")
    return Markdown("\n".join(parts))
