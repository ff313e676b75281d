"""Parse an activation a user typed (``"Max(z,0)**3"``) into an exact SymPy expression in ``z``.

The text is read by SymPy's parser with a closed vocabulary: the variable ``z``, the functions
below and the constants ``pi`` and ``E``. Decimal literals become exact rationals
(``0.01`` → ``1/100``). Anything else is an :class:`ExpressionError` with a one-line message:
an empty string, a syntax error, an unknown function, a free symbol other than ``z``.

Size limits keep the analysis bounded (a 2,000-term sum would take minutes, deep nesting
exhausts Python's recursion): at most :data:`MAX_CHARS` characters, :data:`MAX_NESTING`
nested parentheses, and, once parsed, :data:`MAX_NODES` nodes in the expression tree and a
tree depth of at most :data:`MAX_DEPTH`. Messages quote long input only by an excerpt.
"""

from __future__ import annotations

import tokenize

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.parsing.sympy_parser import (
    auto_number,
    auto_symbol,
    convert_xor,
    factorial_notation,
    parse_expr,
    rationalize,
)

from leanbridge.families import CATALOG, Family, Z
from leanbridge.functions import sigmoid

#: Names a user may write, and what they mean.
VOCABULARY: dict[str, object] = {
    "z": Z,
    "Max": sp.Max, "max": sp.Max,
    "Min": sp.Min, "min": sp.Min,
    "Abs": sp.Abs, "abs": sp.Abs,
    "exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt,
    "tanh": sp.tanh, "sinh": sp.sinh, "cosh": sp.cosh,
    "sin": sp.sin, "cos": sp.cos, "atan": sp.atan,
    "erf": sp.erf, "sigmoid": sigmoid,
    "Piecewise": sp.Piecewise, "Heaviside": sp.Heaviside, "sign": sp.sign,
    "Rational": sp.Rational, "Integer": sp.Integer,
    "pi": sp.pi, "E": sp.E,
    "True": sp.true, "False": sp.false,
    "And": sp.And, "Or": sp.Or, "Not": sp.Not,
}

#: Limits on what a user may type (see the module docstring; the README lists them).
MAX_CHARS = 2000
MAX_NESTING = 32
MAX_NODES = 500
MAX_DEPTH = 16

_TRANSFORMATIONS = (auto_symbol, auto_number, rationalize, factorial_notation, convert_xor)
_FORBIDDEN = ("__", "lambda", "import", ";", "\n")


class ExpressionError(ValueError):
    """The text is not an activation we can read."""


def excerpt(text: str, width: int = 60) -> str:
    """``repr(text)``, or of its first ``width`` characters and its length when longer."""
    if len(text) <= width:
        return repr(text)
    return f"{text[:width]!r}… ({len(text)} characters)"


def _nesting(source: str) -> int:
    depth = deepest = 0
    for char in source:
        if char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}":
            depth -= 1
    return deepest


def tree_size(expr: sp.Basic) -> tuple[int, int]:
    """(number of nodes, depth) of an expression tree, computed without recursion."""
    nodes, deepest, stack = 0, 0, [(expr, 1)]
    while stack:
        node, depth = stack.pop()
        nodes += 1
        deepest = max(deepest, depth)
        stack.extend((arg, depth + 1) for arg in node.args)
    return nodes, deepest


def parse_activation(text: str) -> sp.Expr:
    """Parse ``text`` into a real SymPy expression whose only free symbol is ``z``."""
    source = text.strip()
    if not source:
        raise ExpressionError("empty expression: give an activation in z, e.g. 'Max(z, 0)**2'")
    if len(source) > MAX_CHARS:
        raise ExpressionError(f"expression too long: {len(source)} characters (limit "
                              f"{MAX_CHARS}): {excerpt(source)}")
    for bad in _FORBIDDEN:
        if bad in source:
            raise ExpressionError(
                f"cannot parse {excerpt(text)}: {bad!r} is not allowed in an expression")
    if _nesting(source) > MAX_NESTING:
        raise ExpressionError(f"expression nested too deeply: {_nesting(source)} levels of "
                              f"parentheses (limit {MAX_NESTING}): {excerpt(source)}")
    try:
        expr = parse_expr(
            source,
            local_dict=dict(VOCABULARY),
            global_dict={"Symbol": sp.Symbol, "Integer": sp.Integer, "Float": sp.Float,
                         "Rational": sp.Rational, "Function": sp.Function},
            transformations=_TRANSFORMATIONS,
            evaluate=True,
        )
    except (SyntaxError, tokenize.TokenError) as exc:
        raise ExpressionError(f"cannot parse {excerpt(text)}: syntax error") from exc
    except (TypeError, ValueError, AttributeError, NameError, ZeroDivisionError) as exc:
        raise ExpressionError(f"cannot parse {excerpt(text)}: {exc}") from exc
    except RecursionError:
        raise ExpressionError(f"cannot parse {excerpt(text)}: nested too deeply") from None
    if not isinstance(expr, sp.Expr):
        raise ExpressionError(
            f"cannot use {excerpt(text)}: not a real-valued expression "
            f"(got {type(expr).__name__})")
    nodes, depth = tree_size(expr)
    if nodes > MAX_NODES or depth > MAX_DEPTH:
        raise ExpressionError(
            f"expression too large: {nodes} nodes, depth {depth} (limits {MAX_NODES} nodes, "
            f"depth {MAX_DEPTH}): {excerpt(source)}")
    unknown = sorted({type(node).__name__ for node in expr.atoms(AppliedUndef)})
    if unknown:
        raise ExpressionError(
            f"unknown function(s) {', '.join(unknown)} in {excerpt(text)}; known: "
            + ", ".join(sorted(k for k, v in VOCABULARY.items() if callable(v) and k[0].islower()))
        )
    others = sorted(str(s) for s in expr.free_symbols if s != Z)
    if others:
        raise ExpressionError(
            f"free symbol(s) {', '.join(others)} in {excerpt(text)}: an activation has the one "
            "variable z"
        )
    if expr.has(sp.I) or expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise ExpressionError(f"cannot use {excerpt(text)}: it is not a finite real expression")
    return expr


def user_family(text: str, name: str = "user", gated: bool = False,
                reserved: frozenset[str] = frozenset()) -> Family:
    """The :class:`Family` of an activation typed by the user (raises :class:`ExpressionError`).

    ``name`` may not be a catalog family's name, nor one of ``reserved`` (Lean names that a
    generated definition would shadow).
    """
    expr = parse_activation(text)
    if name in {family.name for family in CATALOG} or name in reserved:
        raise ExpressionError(f"name {name!r} is taken by the catalog or the Lean library; "
                              "choose another name")
    try:
        return Family(name=name, display=name, gated=gated, expr=expr,
                      description=f"user activation {sp.sstr(expr)}", source="user")
    except ValueError as exc:
        raise ExpressionError(str(exc)) from None
