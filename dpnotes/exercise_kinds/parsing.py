"""Read a learner's formula safely: a string or a sympy expression, over a fixed set of names.

A string is checked token by token before sympy sees it: only numbers, the operators
``+ - * / ** ^ ( ) ,``, the exercise's symbols and a short list of functions
(:data:`FUNCTIONS`) may appear, so no attribute access, keyword, string or call of an
arbitrary name reaches ``parse_expr``, whose evaluation namespace holds nothing else
(no builtins). Greek letters and the usual typography (α, σ², ·, −, √) are accepted.
Exponents are bounded, so ``9**9**9`` is refused instead of being computed.
"""

import io
import keyword
import tokenize

import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_application,
    implicit_multiplication,
    parse_expr,
    standard_transformations,
)

__all__ = ["read_expression", "FUNCTIONS", "PRETTY", "ExpressionError"]

#: functions and constants a formula may use
FUNCTIONS = {
    "sqrt": sp.sqrt, "exp": sp.exp, "log": sp.log, "ln": sp.log,
    "log10": lambda x: sp.log(x, 10), "log2": lambda x: sp.log(x, 2),
    "Abs": sp.Abs, "abs": sp.Abs, "erf": sp.erf, "erfc": sp.erfc,
    "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh, "Min": sp.Min, "Max": sp.Max,
    "pi": sp.pi, "E": sp.E,
}
#: how a symbol's name is written in messages
PRETTY = {"alpha": "α", "sigma": "σ", "epsilon": "ε", "delta": "δ", "rho": "ρ", "mu": "μ", "Delta": "Δ",
          "theta": "θ", "eta": "η", "gamma": "γ", "beta": "β", "tau": "τ"}
_TYPOGRAPHY = {"·": "*", "×": "*", "÷": "/", "−": "-", "–": "-", "²": "**2", "³": "**3", "√": "sqrt ", "π": "pi"}
_OPERATORS = {"+", "-", "*", "/", "**", "^", "(", ")", ","}
_MAX_LENGTH = 400
_MAX_EXPONENT = 1000
_TRANSFORMS = standard_transformations + (convert_xor, implicit_multiplication, implicit_application)


class ExpressionError(ValueError):
    """The learner's input is not a formula over the allowed names."""


def _normalise(text, symbols):
    for greek, name in PRETTY.items():
        text = text.replace(name, f" {greek} ")
    for char, repl in _TYPOGRAPHY.items():
        text = text.replace(char, repl)
    return text


def _check_tokens(text, allowed):
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError) as err:
        raise ExpressionError(f"could not read it as a formula ({err.args[0]})") from None
    for tok in tokens:
        if tok.type in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT):
            continue
        if tok.type == tokenize.NUMBER:
            if tok.string.lower().endswith("j"):
                raise ExpressionError("complex numbers are not expected")
            continue
        if tok.type == tokenize.NAME and tok.string in allowed and not keyword.iskeyword(tok.string):
            continue
        if tok.type == tokenize.OP and tok.string in _OPERATORS:
            continue
        if tok.type == tokenize.NAME:
            raise ExpressionError(f"unknown name {tok.string!r}; use the symbols "
                                  f"{', '.join(sorted(a for a in allowed if a not in FUNCTIONS and a != 'e'))} "
                                  f"and the functions sqrt, exp, log")
        raise ExpressionError(f"{tok.string!r} is not allowed in a formula")


def _check_exponents(expr):
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Pow) and not node.exp.free_symbols:
            size = abs(complex(node.exp.evalf(15)))
            if size > _MAX_EXPONENT:
                raise ExpressionError(f"an exponent of size {size:.3g} is too large")


def read_expression(value, symbols):
    """A sympy expression over ``symbols`` (name → Symbol) from a string or a sympy object.

    Raises :class:`ExpressionError` (a ``ValueError``) with a message for the learner.

    Examples
    --------
    >>> a, s = sp.symbols("alpha sigma", positive=True)
    >>> read_expression("α/(2σ²)", {"alpha": a, "sigma": s})
    alpha/(2*sigma**2)
    >>> try:
    ...     read_expression("__import__('os')", {"alpha": a})
    ... except ExpressionError as err:
    ...     print(err)
    unknown name '__import__'; use the symbols alpha and the functions sqrt, exp, log
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return sp.nsimplify(value) if isinstance(value, int) else sp.Float(value)
    if isinstance(value, sp.Basic):
        if not isinstance(value, sp.Expr):
            raise ExpressionError(f"expected a formula, got a {type(value).__name__}")
        unknown = sorted(s.name for s in value.free_symbols if s.name not in symbols)
        if unknown:
            raise ExpressionError(f"unknown symbol {unknown[0]!r}; the symbols of this exercise are "
                                  f"{', '.join(symbols)}")
        expr = value.subs({s: symbols[s.name] for s in value.free_symbols}, simultaneous=True)
        _check_exponents(expr)
        return expr
    if not isinstance(value, str):
        raise ExpressionError(f"expected a formula (a string or a sympy expression), got {type(value).__name__}")
    text = _normalise(value, symbols)
    if not text.strip():
        raise ExpressionError("the formula is empty")
    if len(text) > _MAX_LENGTH:
        raise ExpressionError(f"the formula is longer than {_MAX_LENGTH} characters")
    names = {**FUNCTIONS, **({} if "e" in symbols else {"e": sp.E}), **symbols}
    _check_tokens(text, set(names))
    namespace = {"__builtins__": {}, "Integer": sp.Integer, "Float": sp.Float, "Rational": sp.Rational,
                 "Symbol": sp.Symbol, "Add": sp.Add, "Mul": sp.Mul, "Pow": sp.Pow,
                 **{k: v for k, v in names.items() if k not in symbols}}
    try:
        unevaluated = parse_expr(text, local_dict=dict(symbols), global_dict=namespace,
                                 transformations=_TRANSFORMS, evaluate=False)
        _check_exponents(unevaluated)
        expr = parse_expr(text, local_dict=dict(symbols), global_dict=namespace, transformations=_TRANSFORMS)
    except ExpressionError:
        raise
    except Exception as err:  # a syntax error, a wrong number of arguments, …
        raise ExpressionError(f"could not read it as a formula ({type(err).__name__})") from None
    if not isinstance(expr, sp.Expr):
        raise ExpressionError("expected a formula")
    return expr
