"""Parse an activation a user typed (``"Max(z,0)**3"``) into an exact SymPy expression in ``z``.

The text is read by SymPy's parser with a closed vocabulary: the variable ``z``, the functions
below and the constants ``pi`` and ``E``. Decimal literals become exact rationals
(``0.01`` → ``1/100``). Anything else is an :class:`ExpressionError` with a one-line message:
an empty string, a syntax error, an unknown function, a free symbol other than ``z``.

Size limits keep the analysis bounded (a 2,000-term sum would take minutes, deep nesting
exhausts Python's recursion): at most :data:`MAX_CHARS` characters, :data:`MAX_NESTING`
nested parentheses, and, once parsed, :data:`MAX_NODES` nodes in the expression tree and a
tree depth of at most :data:`MAX_DEPTH`. Messages quote long input only by an excerpt.

Numbers are bounded before they are computed: the text is parsed *without evaluation*, then
evaluated node by node, and a number literal or a power of a constant whose value would have more
than :data:`MAX_DIGITS` digits (``10**10**10``, ``1e5000``, ``sqrt(2)**(10**6)``) is refused with
a one-line error instead of being computed — Python's big-integer arithmetic cannot be
interrupted, so no time budget could stop it.
"""

from __future__ import annotations

import io
import math
import tokenize
from decimal import Decimal, InvalidOperation

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
#: The most digits a number in an expression may have (numerator or denominator).
MAX_DIGITS = 1000
#: The largest |exponent| of a power of a constant that is not a rational number (``pi**1000``).
MAX_CONSTANT_EXPONENT = 1000

_TRANSFORMATIONS = (auto_symbol, auto_number, rationalize, factorial_notation, convert_xor)
_FORBIDDEN = ("__", "lambda", "import", ";", "\n")
#: What SymPy's unevaluated parse writes for + − · / ** and comparisons.
_OPERATORS = {"Add": sp.Add, "Mul": sp.Mul, "Pow": sp.Pow, "Lt": sp.Lt, "Gt": sp.Gt,
              "Le": sp.Le, "Ge": sp.Ge, "Eq": sp.Eq, "Ne": sp.Ne}


class ExpressionError(ValueError):
    """The text is not an activation we can read."""


def excerpt(text: str, width: int = 60) -> str:
    """``repr(text)``, or of its first ``width`` characters and its length when longer."""
    if len(text) <= width:
        return repr(text)
    return f"{text[:width]!r}… ({len(text)} characters)"


def _log10(number: int) -> float:
    """log10 of ``abs(number)`` (0 for 0), computed without converting it to a string."""
    return math.log10(abs(number)) if number else 0.0


def _digits(number: int) -> int:
    """Decimal digits of ``abs(number)`` (floating point: exact but within one of a power
    of ten)."""
    return int(_log10(number)) + 1


def _literal_sizes(source: str, text: str) -> None:
    """Refuse a number literal with more than :data:`MAX_DIGITS` digits (``1e5000`` would
    become 10**5000 before anything else could look at it)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return  # the parser reports the syntax error
    for token in tokens:
        if token.type == tokenize.NUMBER:
            _literal_size(token.string, text)


def _literal_size(literal: str, text: str) -> None:
    """Refuse one decimal literal (``1e5000``) with more than :data:`MAX_DIGITS` digits."""
    try:
        _, digits, exponent = Decimal(literal.replace("_", "")).as_tuple()
    except (InvalidOperation, ValueError):
        return  # 0x10, 1j, 1/3: the parser decides
    if not isinstance(exponent, int):
        return
    size = len(digits) + abs(exponent)
    if size > MAX_DIGITS:
        raise ExpressionError(
            f"number too large in {excerpt(text)}: {excerpt(literal, 20)} has about "
            f"{size} digits (limit {MAX_DIGITS})")


def _check_rational(number: sp.Basic, text: str) -> None:
    if number.is_Rational:
        digits = max(_digits(number.p), _digits(number.q))
        if digits > MAX_DIGITS:  # said by its size: its digits are never printed
            raise ExpressionError(f"number too large in {excerpt(text)}: a number of about "
                                  f"{digits} digits (limit {MAX_DIGITS})")


def _too_large(node: sp.Basic, text: str) -> ExpressionError:
    return ExpressionError(
        f"number too large in {excerpt(text)}: {excerpt(sp.sstr(node, order='none'), 40)} "
        f"would have more than {MAX_DIGITS} digits")


def _check_power(base: sp.Expr, exponent: sp.Expr, text: str) -> None:
    """Refuse base**exponent if evaluating it would build a number beyond :data:`MAX_DIGITS`."""
    if base.has(Z) or not exponent.is_Rational or exponent.is_Integer and exponent == 0:
        return
    if base.is_Rational:
        if base in (0, 1, -1):
            return
        size = max(_log10(base.p), _log10(base.q)) * abs(exponent.p) / exponent.q
        if int(size) + 1 > MAX_DIGITS:
            raise _too_large(sp.Pow(base, exponent, evaluate=False), text)
    elif base.is_number and abs(exponent.p) > MAX_CONSTANT_EXPONENT:
        raise _too_large(sp.Pow(base, exponent, evaluate=False), text)


def _evaluate(tree: sp.Basic, text: str) -> sp.Basic:
    """Evaluate the unevaluated ``tree`` bottom-up, refusing numbers beyond the limits before
    they are computed (:func:`_check_power`) and after (every rational's digits)."""
    if not tree.args:
        _check_rational(tree, text)
        return tree
    args = [_evaluate(arg, text) for arg in tree.args]
    if isinstance(tree, sp.Pow):
        _check_power(args[0], args[1], text)
    result = tree.func(*args)
    for number in (result, *result.args):  # new numbers appear here: 10**999·10**999
        _check_rational(number, text)
    return result


def _exact_number(kind, text: str):
    """``Rational``/``Integer`` as the user calls them: a string argument is size-checked as
    a literal (``Rational('1e5000')``), any other argument evaluated first."""
    def build(*args):
        for arg in args:
            if isinstance(arg, str):
                _literal_size(arg, text)
        number = kind(*(arg if isinstance(arg, str) else _evaluate(sp.sympify(arg), text)
                        for arg in args))
        _check_rational(number, text)
        return number
    return build


def expansion_digits(expr: sp.Basic) -> float:
    """An upper estimate of log10 of the largest number that expanding ``expr`` can produce
    (the analysis expands: ``(10**999 + z)**5`` has the coefficient 10**4995): a rational's
    digits; a sum adds log10 of its number of terms (multinomial coefficients), a product the
    digits of its factors, a rational power multiplies by |exponent|; other nodes take their
    largest argument's."""
    if expr.is_Rational:
        return max(_log10(expr.p), _log10(expr.q))
    sizes = [expansion_digits(arg) for arg in expr.args]
    if not sizes:
        return 0.0
    if isinstance(expr, sp.Add):
        return max(sizes) + math.log10(len(sizes))
    if isinstance(expr, sp.Mul):
        return sum(sizes)
    if isinstance(expr, sp.Pow) and expr.exp.is_Rational:
        return sizes[0] * abs(expr.exp.p) / expr.exp.q
    if isinstance(expr, sp.Pow):
        return sizes[0] + sizes[1]
    return max(sizes)


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
    if any("\udc80" <= char <= "\udcff" for char in source):  # argv bytes that are not UTF-8
        raise ExpressionError(f"cannot parse {excerpt(text)}: it is not UTF-8 text")
    for bad in _FORBIDDEN:
        if bad in source:
            raise ExpressionError(
                f"cannot parse {excerpt(text)}: {bad!r} is not allowed in an expression")
    if _nesting(source) > MAX_NESTING:
        raise ExpressionError(f"expression nested too deeply: {_nesting(source)} levels of "
                              f"parentheses (limit {MAX_NESTING}): {excerpt(source)}")
    _literal_sizes(source, text)
    # Decimal literals become Rational('0.01') and pass through the same size check.
    vocabulary = dict(VOCABULARY, Rational=_exact_number(sp.Rational, text),
                      Integer=_exact_number(sp.Integer, text))
    try:
        tree = parse_expr(
            source,
            local_dict=vocabulary,
            global_dict={"Symbol": sp.Symbol, "Integer": sp.Integer, "Float": sp.Float,
                         "Rational": sp.Rational, "Function": sp.Function,
                         # the operators of an unevaluated parse:
                         **_OPERATORS},
            transformations=_TRANSFORMATIONS,
            evaluate=False,
        )
        expr = _evaluate(tree, text) if isinstance(tree, sp.Basic) else tree
    except ExpressionError:
        raise
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
    expanded = expansion_digits(expr)
    if expanded > MAX_DIGITS:
        raise ExpressionError(
            f"number too large in {excerpt(text)}: expanded, it has coefficients of about "
            f"{int(expanded) + 1} digits (limit {MAX_DIGITS})")
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
        raise ExpressionError(f"name {name!r} is taken by the catalog or the Lean library (or "
                              "is a Lean keyword); choose another name")
    try:
        return Family(name=name, display=name, gated=gated, expr=expr,
                      description=f"user activation {sp.sstr(expr)}", source="user")
    except ValueError as exc:
        raise ExpressionError(str(exc)) from None
