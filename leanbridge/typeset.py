"""Activations typeset for a paper: SymPy's LaTeX printer, with the names a reader expects.

:func:`activation_latex` rewrites the exact catalog expression into the form papers use before
printing it with a subclass of SymPy's :class:`~sympy.printing.latex.LatexPrinter`:

* ``erf`` becomes the standard normal CDF, ``erf(u) = 2 Φ(√2 u) − 1``, so GELU reads
  ``z\\,\\Phi(z)``;
* ``sigmoid(u)`` is written out as ``1/(1 + e^{-u})`` (SiLU reads ``z/(1 + e^{-z})``);
* rational coefficients with a power-of-ten denominator are decimals (``0.044715``, ``0.01``),
  ``1/q`` is ``\\tfrac{1}{q}``, and a product of square roots of constants is one root
  (``\\sqrt{2/\\pi}``); sums are in increasing degree (``z + 0.044715 z^{3}``);
* functions take plain parentheses (``\\tanh(…)``, ``\\max(0, z)``).

The expression is only *displayed* differently: every rewrite is an identity
(``tests/test_export.py`` substitutes Φ back and checks, with SymPy, that every catalog family
comes out as the same function).
"""

from __future__ import annotations

import sympy as sp
from sympy.printing.latex import LatexPrinter

from leanbridge.functions import sigmoid


class Phi(sp.Function):
    """The standard normal CDF, for display only."""

    nargs = 1


_FUNCTION_NAMES = {
    "tanh": r"\tanh", "sinh": r"\sinh", "cosh": r"\cosh", "sin": r"\sin", "cos": r"\cos",
    "log": r"\log", "atan": r"\arctan", "erf": r"\operatorname{erf}", "Phi": r"\Phi",
    "sign": r"\operatorname{sign}", "Heaviside": r"H", "sigmoid": r"\operatorname{sigmoid}",
}


def _decimal(value: sp.Rational) -> str | None:
    """``value`` as a decimal if its denominator divides a power of ten (else None)."""
    q, twos, fives = int(value.q), 0, 0
    while q % 2 == 0:
        q, twos = q // 2, twos + 1
    while q % 5 == 0:
        q, fives = q // 5, fives + 1
    if q != 1 or value.q == 1:
        return None
    digits = max(twos, fives)
    if digits > 8:
        return None
    text = f"{abs(value.p) * 10 ** digits // value.q:0{digits + 1}d}"
    return ("-" if value < 0 else "") + text[:-digits] + "." + text[-digits:]


class PaperLatexPrinter(LatexPrinter):
    """SymPy's LaTeX printer, with paper conventions (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__({"order": "rev-lex"})

    # -- numbers ---------------------------------------------------------------------------
    def _coefficient(self, value: sp.Rational) -> str:
        if value.q == 1:
            return str(value.p)
        sign = "-" if value < 0 else ""
        p, q = abs(value.p), value.q
        decimal = _decimal(value) if q >= 10 else None
        if decimal is not None:
            return decimal
        if p < 10 and q < 10:
            return rf"{sign}\tfrac{p}{q}"
        return rf"{sign}\tfrac{{{p}}}{{{q}}}"

    def _print_Rational(self, expr: sp.Rational) -> str:
        return self._coefficient(expr)

    def _print_Half(self, expr) -> str:
        return r"\tfrac12"

    # -- sums ----------------------------------------------------------------------------
    def _print_Add(self, expr, order=None) -> str:
        terms = self._as_ordered_terms(expr, order=order)
        constants = [t for t in terms if t.is_number and t.is_positive]
        terms = constants + [t for t in terms if t not in constants]
        text = self._print(terms[0])
        for term in terms[1:]:
            printed = self._print(term)
            text += f" - {printed[1:]}" if printed.startswith("-") else f" + {printed}"
        return text

    # -- products --------------------------------------------------------------------------
    def _constant_root(self, factors: list[sp.Expr]) -> str | None:
        """``√(a/b)`` for a product of square roots of positive constants, else None."""
        up, down = [], []
        for factor in factors:
            if not (factor.is_Pow and factor.exp in (sp.S.Half, -sp.S.Half)
                    and factor.base.is_positive):
                return None
            (up if factor.exp == sp.S.Half else down).append(factor.base)
        top = " ".join(self._print(b) for b in up) or "1"
        if not down:
            return rf"\sqrt{{{top}}}"
        bottom = " ".join(self._print(b) for b in down)
        return rf"\sqrt{{{top}/{bottom}}}"

    def _factor(self, factor: sp.Expr) -> str:
        text = self._print(factor)
        return f"({text})" if factor.is_Add else text

    def _print_Mul(self, expr: sp.Mul) -> str:
        coefficient, rest = expr.as_coeff_Mul()
        factors = list(sp.Mul.make_args(rest))
        denominator = [f for f in factors if f.is_Pow and f.exp.is_negative
                       and (not f.base.is_number or f.base.is_Add)]
        if denominator:
            numerator = sp.Mul(*[f for f in factors if f not in denominator])
            bottom = sp.Mul(*[f.base ** -f.exp for f in denominator])
            sign = "-" if coefficient < 0 else ""
            coefficient = abs(coefficient)
            top = self._print(coefficient * numerator)
            return rf"{sign}\frac{{{top}}}{{{self._print(bottom)}}}"
        constants = [f for f in factors if f.is_number]
        others = [f for f in factors if not f.is_number]
        parts: list[str] = []
        sign = ""
        if coefficient.is_Rational and coefficient < 0:
            sign, coefficient = "-", -coefficient
        if coefficient != 1:
            parts.append(self._coefficient(coefficient) if coefficient.is_Rational
                         else self._print(coefficient))
        root = self._constant_root(constants) if constants else None
        if root is not None:
            parts.append(root)
        else:
            others = constants + others
        symbols = [f for f in others if f.is_Symbol or (f.is_Pow and f.base.is_Symbol)]
        rest_factors = [f for f in others if f not in symbols]
        parts.extend(self._print(f) for f in symbols)
        text = " ".join(parts)
        for factor in rest_factors:
            printed = self._factor(factor)
            glue = r"\," if (text and printed.startswith("\\")) else ""
            text = f"{text}{glue}{printed}" if text else printed
        return sign + text if text else sign + "1"

    # -- functions -------------------------------------------------------------------------
    def _call(self, name: str, args) -> str:
        return f"{name}({', '.join(self._print(a) for a in args)})"

    def _print_Function(self, expr, exp=None) -> str:
        name = _FUNCTION_NAMES.get(type(expr).__name__)
        if name is None:
            return super()._print_Function(expr, exp)
        text = self._call(name, expr.args)
        return text if exp is None else rf"{text}^{{{exp}}}"

    _print_tanh = _print_sinh = _print_cosh = _print_sin = _print_cos = _print_Function
    _print_log = _print_atan = _print_erf = _print_sign = _print_Function
    _print_Heaviside = _print_Function

    def _print_Max(self, expr, exp=None) -> str:
        text = self._call(r"\max", expr.args)
        return text if exp is None else rf"{text}^{{{exp}}}"

    def _print_Min(self, expr, exp=None) -> str:
        text = self._call(r"\min", expr.args)
        return text if exp is None else rf"{text}^{{{exp}}}"

    def _print_Abs(self, expr, exp=None) -> str:
        text = rf"\lvert {self._print(expr.args[0])}\rvert"
        return text if exp is None else rf"{text}^{{{exp}}}"

    def _print_Pow(self, expr) -> str:
        base, exponent = expr.base, expr.exp
        if exponent == sp.S.Half:
            return rf"\sqrt{{{self._print(base)}}}"
        if base.is_Function or isinstance(base, (sp.Max, sp.Min, sp.Abs)):
            if exponent.is_Integer and exponent > 0:
                return f"{self._print(base)}^{{{self._print(exponent)}}}"
        if exponent.is_Rational and exponent.is_negative and base.is_number \
                and not base.is_Rational:
            # 1/(π − 3): SymPy's printer hands a negative power to _print_Mul, which keeps a
            # constant base among its constants and prints it back here (endless recursion).
            return rf"\frac{{1}}{{{self._print(base ** -exponent)}}}"
        return super()._print_Pow(expr)


def readable(expr: sp.Expr) -> sp.Expr:
    """``expr`` rewritten for display: ``erf`` through Φ, ``sigmoid`` written out."""
    shown = expr.replace(sp.erf, lambda u: 2 * Phi(sp.sqrt(2) * u) - 1)
    shown = shown.replace(sigmoid, lambda u: 1 / (1 + sp.exp(-u)))
    return shown


def activation_latex(expr: sp.Expr) -> str:
    """``expr`` typeset for a paper (math mode, no ``$``)."""
    return PaperLatexPrinter().doprint(readable(expr))


__all__ = ["PaperLatexPrinter", "Phi", "activation_latex", "readable"]
