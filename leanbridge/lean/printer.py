"""A SymPy printer that writes real-valued expressions as Lean 4 / Mathlib terms.

Modelled on SymPy's own printers (``sympy/printing/``): one ``_print_<Node>`` method per
expression type, SymPy's precedence table (``sympy.printing.precedence``) to decide on
parentheses. Lean's operators rank the same way as SymPy's (``+ -`` 65 < ``* /`` 70 <
prefix ``-`` 75 < ``^`` 80 < application), so SymPy's table is a faithful guide; where Lean is
stricter (function arguments, the base of a power, ``if … then … else``) the printer adds
parentheses.

Conventions:

* application by juxtaposition: ``Real.exp (z + 1)``, ``max z 0``;
* natural powers ``z ^ 2`` (``Monoid.npow``); a non-integer exponent is ``Real.rpow`` and is
  printed only when the base is provably nonnegative (where both agree);
* rationals as ``(p / q : ℝ)``; ``Real.sqrt``, ``Real.log`` (argument provably positive),
  ``Real.exp``, ``Real.tanh``, ``Real.sigmoid``, ``|x|``, ``Real.pi``;
* ``Piecewise`` as ``if … then … else …``.

Anything else (``erf``: Mathlib has no error function; floats: not exact) raises
:class:`LeanPrintError` naming the node. The printer never calls ``simplify``: what is printed is
the expression as given.
"""

from __future__ import annotations

import re

import sympy as sp
from sympy.printing.precedence import PRECEDENCE, precedence
from sympy.printing.printer import Printer

from leanbridge.functions import sigmoid

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_']*$")

#: SymPy function class → Mathlib name (each checked in the Mathlib sources).
KNOWN_FUNCTIONS: dict[type, str] = {
    sp.exp: "Real.exp",
    sp.tanh: "Real.tanh",
    sp.sinh: "Real.sinh",
    sp.cosh: "Real.cosh",
    sp.sin: "Real.sin",
    sp.cos: "Real.cos",
    sp.atan: "Real.arctan",
    sigmoid: "Real.sigmoid",
}

_RELATIONS = {"<": "<", "<=": "≤", ">": ">", ">=": "≥", "==": "=", "!=": "≠"}


class LeanPrintError(ValueError):
    """An expression node that has no Lean/Mathlib counterpart the printer knows."""

    def __init__(self, node: sp.Basic, why: str) -> None:
        self.node = node
        self.node_type = type(node).__name__
        super().__init__(f"cannot print {self.node_type} node {sp.sstr(node)!r} in Lean: {why}")


class LeanPrinter(Printer):
    """Print a SymPy expression as a Lean 4 term of type ``ℝ``."""

    printmethod = "_lean"
    language = "Lean 4"
    #: ``variable``: the text printed for the activation's variable ``z`` (``"(-z)"`` or
    #: ``"(t * z)"`` prints the Lean term of σ(−z) or σ(t·z) as Lean's ``unfold`` leaves it:
    #: the same expression tree, the substituted variable in brackets).
    _default_settings: dict = {"order": None, "variable": None}

    # -- helpers ------------------------------------------------------------------------------

    def _prec(self, expr: sp.Basic) -> int:
        # Non-integer rationals print as `(p / q : ℝ)`, which is atomic in Lean.
        if isinstance(expr, sp.Rational) and not isinstance(expr, sp.Integer):
            return PRECEDENCE["Atom"]
        if isinstance(expr, sp.Piecewise):
            return PRECEDENCE["Lambda"]
        # Lean applications (`Real.exp z`, `max z 0`, `Real.sqrt 2`) and `|z|` are not atoms:
        # they need brackets as arguments and as the base of a power, not as factors.
        if isinstance(expr, (sp.Function, sp.Max, sp.Min, sp.Abs)):
            return PRECEDENCE["Func"]
        if isinstance(expr, sp.Pow) and (expr.base is sp.E or abs(expr.exp) == sp.Rational(1, 2)):
            return PRECEDENCE["Func"]
        return precedence(expr)

    def parenthesize(self, item: sp.Basic, level: int, strict: bool = False) -> str:
        text = self._print(item)
        prec = self._prec(item)
        if prec < level or (not strict and prec <= level):
            return f"({text})"
        return text

    def _arg(self, item: sp.Basic) -> str:
        """An argument of an application: atomic, or in parentheses."""
        text = self._print(item)
        if self._prec(item) >= PRECEDENCE["Atom"]:
            return text
        return f"({text})"

    def _apply(self, name: str, *args: sp.Basic) -> str:
        return " ".join([name, *(self._arg(a) for a in args)])

    # -- fallbacks: anything without a method is an error, never a guess -----------------------

    def emptyPrinter(self, expr):  # noqa: N802 - SymPy's name
        raise LeanPrintError(expr, "no Lean/Mathlib counterpart is known to leanbridge")

    def _print_Basic(self, expr):
        raise LeanPrintError(expr, "no Lean/Mathlib counterpart is known to leanbridge")

    def _print_Function(self, expr):
        raise LeanPrintError(expr, f"Mathlib has no {type(expr).__name__} that leanbridge knows")

    def _print_erf(self, expr):
        raise LeanPrintError(expr, "Mathlib has no error function (use the library's `gelu`, "
                                   "defined through the Gaussian CDF)")

    def _print_Float(self, expr):
        raise LeanPrintError(expr, "floats are not exact; use a Rational")

    # -- atoms --------------------------------------------------------------------------------

    def _print_Symbol(self, expr):
        if not _IDENT.match(expr.name):
            raise LeanPrintError(expr, "not a Lean identifier")
        variable = self._settings.get("variable")
        if variable is not None and expr.name == "z":
            return variable
        return expr.name

    def _print_Integer(self, expr):
        return str(expr.p)

    def _print_Rational(self, expr):
        return f"({expr.p} / {expr.q} : ℝ)"

    def _print_Half(self, expr):
        return self._print_Rational(expr)

    def _print_Zero(self, expr):
        return "0"

    def _print_One(self, expr):
        return "1"

    def _print_NegativeOne(self, expr):
        return "-1"

    def _print_Pi(self, expr):
        return "Real.pi"

    def _print_Exp1(self, expr):
        return "Real.exp 1"

    def _print_BooleanTrue(self, expr):
        return "True"

    def _print_BooleanFalse(self, expr):
        return "False"

    def _print_NaN(self, expr):
        raise LeanPrintError(expr, "not a real number")

    _print_Infinity = _print_NaN
    _print_NegativeInfinity = _print_NaN
    _print_ComplexInfinity = _print_NaN
    _print_ImaginaryUnit = _print_NaN

    # -- arithmetic ---------------------------------------------------------------------------

    def _print_Add(self, expr):
        terms = self._as_ordered_terms(expr, order=None)
        level = PRECEDENCE["Add"]
        out = self.parenthesize(terms[0], level, strict=True)
        for term in terms[1:]:
            if term.could_extract_minus_sign():
                out += " - " + self.parenthesize(-term, level)
            else:
                out += " + " + self.parenthesize(term, level)
        return out

    def _print_Mul(self, expr):
        if expr.could_extract_minus_sign():
            inner = -expr
            text = self._print(inner)
            if self._prec(inner) < PRECEDENCE["Mul"] or isinstance(inner, sp.Piecewise):
                text = f"({text})"
            return "-" + text
        numerator: list[sp.Basic] = []
        denominator: list[sp.Basic] = []
        for factor in expr.as_ordered_factors():
            if isinstance(factor, sp.Rational) and not isinstance(factor, sp.Integer):
                if factor.p != 1:
                    numerator.append(sp.Integer(factor.p))
                denominator.append(sp.Integer(factor.q))
            elif (isinstance(factor, sp.Pow) and factor.exp.is_Rational
                  and factor.exp.is_negative and factor.base is not sp.E):
                denominator.append(sp.Pow(factor.base, -factor.exp, evaluate=False)
                                   if factor.exp != -1 else factor.base)
            else:
                numerator.append(factor)
        level = PRECEDENCE["Mul"]
        num = " * ".join(self.parenthesize(f, level, strict=True) for f in numerator) or "1"
        if not denominator:
            return num
        if len(denominator) == 1:
            den = self.parenthesize(denominator[0], level)
        else:
            den = "(" + " * ".join(self.parenthesize(f, level, strict=True)
                                   for f in denominator) + ")"
        return f"{num} / {den}"

    def _print_Pow(self, expr):
        base, exponent = expr.base, expr.exp
        if base is sp.E:
            return self._apply("Real.exp", exponent)
        if exponent == sp.Rational(1, 2):
            return self._sqrt(expr, base)
        if exponent == -sp.Rational(1, 2):
            return "1 / " + self._sqrt(expr, base)
        if exponent.is_Integer and exponent.is_negative:
            positive = sp.Pow(base, -exponent, evaluate=False) if exponent != -1 else base
            return "1 / " + self.parenthesize(positive, PRECEDENCE["Mul"])
        if exponent.is_Integer:
            return f"{self._base(base)} ^ {exponent.p}"
        if base.is_nonnegative:
            return f"{self._base(base)} ^ {self._arg(exponent)}"
        raise LeanPrintError(expr, "a non-integer power is Real.rpow in Lean, which differs from "
                                   "SymPy's power when the base can be negative")

    def _base(self, base: sp.Basic) -> str:
        # `^` is right-associative and binds tighter than `-`: any non-atomic base is bracketed
        # (`(max z 0) ^ 2`, `(z ^ 2) ^ 3`, `(-z) ^ 3`).
        return self._arg(base)

    def _sqrt(self, node: sp.Basic, base: sp.Basic) -> str:
        if not base.is_nonnegative:
            raise LeanPrintError(node, "Real.sqrt is 0 on negative numbers, SymPy's sqrt is not "
                                       "real there; the radicand must be provably nonnegative")
        return self._apply("Real.sqrt", base)

    # -- functions ----------------------------------------------------------------------------

    def _print_known(self, expr):
        return self._apply(KNOWN_FUNCTIONS[type(expr)], *expr.args)

    _print_exp = _print_known
    _print_tanh = _print_known
    _print_sinh = _print_known
    _print_cosh = _print_known
    _print_sin = _print_known
    _print_cos = _print_known
    _print_atan = _print_known
    _print_sigmoid = _print_known

    def _print_log(self, expr):
        if len(expr.args) != 1:
            raise LeanPrintError(expr, "only the natural logarithm is supported")
        if not expr.args[0].is_positive:
            raise LeanPrintError(expr, "Real.log is log |x| (and 0 at 0), SymPy's log is complex "
                                       "for negative x; the argument must be provably positive")
        return self._apply("Real.log", expr.args[0])

    def _minmax(self, name: str, expr) -> str:
        # Variables first, constants last: `max z 0`, the form of the library's `relu`;
        # more than two arguments nest to the right: `max a (max b c)`.
        args = sorted(expr.args, key=lambda a: bool(a.is_number))
        text = self._arg(args[-1])
        for depth, arg in enumerate(reversed(args[:-1])):
            right = text if depth == 0 else f"({text})"
            text = f"{name} {self._arg(arg)} {right}"
        return text

    def _print_Max(self, expr):
        return self._minmax("max", expr)

    def _print_Min(self, expr):
        return self._minmax("min", expr)

    def _print_Abs(self, expr):
        inner = self._print(expr.args[0])
        if inner.startswith("-") or inner.startswith("|"):
            inner = f"({inner})"
        return f"|{inner}|"

    # -- conditions ---------------------------------------------------------------------------

    def _print_Piecewise(self, expr):
        *branches, (last_value, last_condition) = expr.args
        if last_condition is not sp.true:
            raise LeanPrintError(expr, "a Piecewise needs a final (value, True) branch to give "
                                       "Lean's `else`")
        out = self._print(last_value)
        for value, condition in reversed(branches):
            out = f"if {self._print(condition)} then {self._print(value)} else {out}"
        return out

    def _print_Relational(self, expr):
        op = _RELATIONS.get(expr.rel_op)
        if op is None:
            raise LeanPrintError(expr, f"relation {expr.rel_op} has no Lean counterpart here")
        level = PRECEDENCE["Relational"]
        return (f"{self.parenthesize(expr.lhs, level)} {op} "
                f"{self.parenthesize(expr.rhs, level)}")

    def _print_And(self, expr):
        return " ∧ ".join(self.parenthesize(a, PRECEDENCE["And"]) for a in expr.args)

    def _print_Or(self, expr):
        return " ∨ ".join(self.parenthesize(a, PRECEDENCE["Or"]) for a in expr.args)

    def _print_Not(self, expr):
        return "¬" + self._arg(expr.args[0])


def lean_code(expr: sp.Basic, variable: str | None = None) -> str:
    """Print ``expr`` as a Lean 4 term (raises :class:`LeanPrintError` on unsupported nodes).

    With ``variable`` (e.g. ``"(-z)"``), the variable ``z`` is printed as that text: the term
    of the instance σ(−z) exactly as Lean's ``unfold`` writes it, without SymPy rewriting it.
    A ``variable`` must be bracketed (or an identifier) so that it is atomic in every context.
    """
    if variable is not None and not (_IDENT.match(variable)
                                      or (variable.startswith("(") and variable.endswith(")"))):
        raise ValueError(f"variable text {variable!r} must be an identifier or bracketed")
    return LeanPrinter({"variable": variable}).doprint(sp.sympify(expr))


def lean_factor(expr: sp.Basic) -> str:
    """``expr`` printed as the left factor of a product ``c * z``.

    Atoms and applications (``3``, ``(1 / 2 : ℝ)``, ``Real.sqrt 2``, ``Real.pi``) print bare;
    anything else is bracketed — ``(1 + Real.sqrt 2)``, ``(-Real.sqrt 2 - 1)``,
    ``(2 * Real.pi)`` — so that ``{factor} * z`` means ``c·z`` and Lean reads ``c`` back as one
    term when it unifies ``?c * z`` against the statement.
    """
    expr = sp.sympify(expr)
    text = lean_code(expr)
    printer = LeanPrinter()
    if printer._prec(expr) >= PRECEDENCE["Func"] and not text.startswith("-"):
        return text
    return f"({text})"
