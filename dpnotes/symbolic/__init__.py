"""Symbolic derivations (sympy), each returned as a list of displayable steps."""
