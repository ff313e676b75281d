"""Rule ``tendsto_continuous``: a gate g with g(0) = 0 that is continuous tends to 0 at 0.

The Lean pattern (``templates/premises/tendsto_continuous.lean.j2``) proves ``g 0 = 0`` by
``norm_num`` on the printed body at ``(0 : ℝ)``, proves ``Continuous g`` by ``fun_prop`` —
with the discharger ``intro x; positivity`` for the side goals ``∀ x, f x ≠ 0`` of
``Continuous.div₀`` and ``Continuous.log`` — and concludes with ``Continuous.tendsto'``.

SymPy checks: g(0) = 0 exactly; every node of g is continuous on ℝ (polynomials, ``max``,
``min``, ``|·|``, ``exp``, ``sin``, ``cos``, ``sinh``, ``cosh``, ``tanh``, ``sigmoid``,
``arctan``, and ``log``/division only where the argument/denominator is positive); and every
such argument/denominator is positive *in the shape* ``positivity`` recognises (sums and
products of positive constants, ``exp``, ``|·|``, even powers, …), not merely true.
"""

from __future__ import annotations

import sympy as sp

from leanbridge.certificates import TENDSTO, Certificate
from leanbridge.certificates.terms import OutsideFragment
from leanbridge.families import Z
from leanbridge.functions import sigmoid
from leanbridge.lean.printer import LeanPrintError, lean_code

CONTINUOUS = (sp.exp, sp.sin, sp.cos, sp.sinh, sp.cosh, sp.tanh, sigmoid, sp.atan, sp.Max,
              sp.Min, sp.Abs, sp.Add, sp.Mul)
POS, NONNEG = "pos", "nonneg"


def positivity_shape(expr: sp.Expr) -> str | None:
    """What ``positivity`` proves about ``expr`` by its shape: ``"pos"``, ``"nonneg"`` or None.

    A deliberately small model of Mathlib's ``positivity`` (numerals, ``π``, ``√``, ``exp``,
    ``|·|``, even powers, sums and products); None means "do not rely on it".
    """
    if expr.is_Rational:
        return POS if expr > 0 else (NONNEG if expr == 0 else None)
    if expr in (sp.pi, sp.E):
        return POS
    if isinstance(expr, sp.exp):
        return POS
    if isinstance(expr, sp.Abs):
        return POS if positivity_shape(expr.args[0]) == POS else NONNEG
    if isinstance(expr, sp.Pow):
        base, exponent = expr.args
        if exponent == sp.Rational(1, 2):
            inner = positivity_shape(base)
            return POS if inner == POS else (NONNEG if inner else None)
        if exponent.is_Integer:
            inner = positivity_shape(base)
            if inner == POS:
                return POS
            if exponent.is_even and exponent > 0:
                return NONNEG
            return NONNEG if inner == NONNEG and exponent > 0 else None
        return None
    if isinstance(expr, sp.Add):
        shapes = [positivity_shape(a) for a in expr.args]
        if None in shapes:
            return None
        return POS if POS in shapes else NONNEG
    if isinstance(expr, sp.Mul):
        shapes = [positivity_shape(a) for a in expr.args]
        if None in shapes:
            return None
        return POS if all(s == POS for s in shapes) else NONNEG
    return None


def _check_continuous(expr: sp.Expr, positivity: list[str]) -> None:
    for node in sp.preorder_traversal(expr):
        if not node.has(Z) or isinstance(node, sp.Symbol):
            continue
        if isinstance(node, sp.log):
            if positivity_shape(node.args[0]) != POS:
                raise OutsideFragment(f"log's argument {node.args[0]} is not positive in a "
                                      "shape positivity proves")
            positivity.append(sp.sstr(node.args[0]))
        elif isinstance(node, sp.Pow):
            exponent = node.exp
            if not exponent.is_Integer:
                raise OutsideFragment(f"{node}: a non-integer power (Real.rpow, Real.sqrt) is "
                                      "outside the continuity rule")
            if exponent < 0:
                if positivity_shape(node.base) != POS:
                    raise OutsideFragment(f"the denominator {node.base} is not positive in a "
                                          "shape positivity proves")
                positivity.append(sp.sstr(node.base))
        elif not isinstance(node, CONTINUOUS):
            raise OutsideFragment(f"{type(node).__name__} node {node}: not known continuous "
                                  "to the rule")


def certify(expr: sp.Expr, premise: str, *, degree=None, c=None) -> Certificate:
    value = expr.xreplace({Z: sp.Integer(0)})
    if sp.simplify(value) != 0:
        raise OutsideFragment(f"g(0) = {value}, not 0")
    side: list[str] = []
    _check_continuous(expr, side)
    try:
        body, at_zero = lean_code(expr), lean_code(expr, "(0 : ℝ)")
    except LeanPrintError as exc:
        raise OutsideFragment(str(exc)) from None
    names = ["norm_num", "fun_prop", "positivity", "continuity", "Continuous.tendsto'"]
    tanh = expr.has(sp.tanh)
    if tanh:
        names += ["Real.tanh_eq_sinh_div_cosh", "Real.continuous_sinh", "Real.continuous_cosh",
                  "Continuous.div", "Real.cosh_pos", "continuous_id", "Continuous.mul"]
    return Certificate(
        "tendsto_continuous", TENDSTO,
        "g(0) = 0 and g is continuous on ℝ"
        + (f" (positive by positivity: {', '.join(side)})" if side else ""),
        tuple(dict.fromkeys(names)),
        {"body": body, "at_zero": at_zero, "tanh": tanh, "side_conditions": side})
