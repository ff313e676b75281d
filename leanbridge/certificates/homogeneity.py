"""Rules ``homogeneous_cases`` and ``homogeneous_rpow``: σ(t·z) = t^k·σ(z) for every t > 0.

``homogeneous_cases`` (natural k; ``templates/premises/homogeneous_cases.lean.j2``): σ is a
piecewise polynomial — polynomials in z, ``max``/``min``/``|·|``/``if`` — whose every condition
is homogeneous (``max (z ^ 3) 0``, ``max z (z / 100)``, ``if z > 0 then …``). The script states
the goal on σ's printed body, splits every node at t·z and at z, and closes each pair of
cases: where both instances took the same branches the goal is a polynomial identity
(``ring1``); where they differ, the first differing condition d reads d(t·z) = tʲ·d(z) with
opposite signs, which ``nlinarith`` refutes from the hint ``pow_pos ht j : 0 < t ^ j``. SymPy
checks every identity and every scaling d(t·z) = tʲ·d(z) and records the degrees j.

``homogeneous_rpow`` (k not natural; ``templates/premises/homogeneous_rpow.lean.j2``): σ is a
constant times ``B ^ p`` (``Real.rpow``, p a non-integer rational) with B ≥ 0 a piecewise
polynomial homogeneous of degree 1 (certified as above): then B(t·z) = t·B(z) and
``Real.mul_rpow`` gives (t·B)^p = t^p·B^p.
"""

from __future__ import annotations

import sympy as sp

from leanbridge.certificates import HOMOGENEOUS, Certificate
from leanbridge.certificates.terms import (
    PIECEWISE_NODES,
    TRANSCENDENTAL,
    OutsideFragment,
    T,
    branches,
    is_constant,
    piecewise_nodes,
    polynomial_in,
    ring_zero,
    split_lemmas,
    substitute,
)
from leanbridge.families import Z
from leanbridge.lean.printer import LeanPrintError, lean_code

SCALED = "(t * z)"
#: Route 2 removes `|t * z|` by these instead of splitting it.
ABS_LEMMAS = ("abs_mul", "abs_pow", "abs_of_pos ht")


def _text(expr: sp.Expr, variable: str | None = None) -> str:
    try:
        return lean_code(expr, variable)
    except LeanPrintError as exc:
        raise OutsideFragment(str(exc)) from None


def _check_piecewise_polynomial(expr: sp.Expr) -> None:
    if expr.has(*TRANSCENDENTAL) and any(isinstance(a, TRANSCENDENTAL) and a.has(Z)
                                         for a in sp.preorder_traversal(expr)):
        raise OutsideFragment("σ has a transcendental function of z: no case split proves "
                              "its homogeneity")
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Pow) and node.has(Z) and not (node.exp.is_Integer
                                                             and node.exp >= 0):
            raise OutsideFragment(f"{node} is not a natural power")
        if node.has(Z) and not isinstance(node, (sp.Add, sp.Mul, sp.Pow, sp.Symbol,
                                                 *PIECEWISE_NODES)) \
                and not isinstance(node, sp.core.relational.Relational) \
                and not isinstance(node, sp.logic.boolalg.BooleanFunction) \
                and not isinstance(node, sp.functions.elementary.piecewise.ExprCondPair):
            raise OutsideFragment(f"{type(node).__name__} node {node} is outside the "
                                  "piecewise-polynomial fragment")


def _scaling_degree(scaled: sp.Expr, plain: sp.Expr) -> int | None:
    """j with scaled = tʲ·plain (plain a homogeneous polynomial in z), else None."""
    poly = polynomial_in(plain, Z)
    if poly is None or poly.is_zero:
        return None
    degrees = {m[0] for m in poly.monoms()}
    if len(degrees) != 1:
        return None
    j = degrees.pop()
    return j if sp.expand(scaled - T**j * plain) == 0 else None


def cases_certificate(expr: sp.Expr, k: int | sp.Expr) -> dict:
    """The case data for σ(t·z) = t^k·σ(z): split lemmas, closers, hint degrees, cases."""
    _check_piecewise_polynomial(expr)
    plain = branches(expr)
    scaled = [substitute(b, {Z: T * Z}) for b in plain]
    if len(plain) ** 2 > 4096:
        raise OutsideFragment("too many cases")
    hint_degrees: set[int] = set()
    cases = []
    identities = 0
    for bl in scaled:
        for br in plain:
            left = [(d.node, d.holds) for d in bl.decisions]
            right = [(d.node, d.holds) for d in br.decisions]
            if left == right:
                if not ring_zero(bl.value - T**k * br.value):
                    raise OutsideFragment(f"σ(t·z) = t^{k}·σ(z) fails on a branch: "
                                          f"{sp.sstr(bl.value)} vs {sp.sstr(br.value)}")
                identities += 1
                cases.append({"closer": "ring1"})
                continue
            index = next(i for i, (a, b) in enumerate(zip(left, right)) if a != b)
            dl, dr = bl.decisions[index], br.decisions[index]
            if dl.node != dr.node:
                raise OutsideFragment("the two instances split on different conditions")
            j = _scaling_degree(dl.difference, dr.difference)
            if j is None or j == 0:
                raise OutsideFragment(f"the condition {dr.relation} is not homogeneous in z: "
                                      "its truth may change with t")
            hint_degrees.add(j)
            cases.append({"closer": "nlinarith", "degree": j})
    nodes = piecewise_nodes(expr)
    split = split_lemmas(nodes)
    hints = ["ht", *(f"pow_pos ht {j}" for j in sorted(hint_degrees) if j > 1)]
    closers = ["ring1"]
    if hint_degrees or nodes:
        closers.append(f"nlinarith [{', '.join(hints)}]")
    return {"split": split, "needs_split": bool(nodes), "closers": closers, "cases": cases,
            "has_nodes": bool(nodes), "identities": identities,
            "route2_abs": [*ABS_LEMMAS] if expr.has(sp.Abs) else []}


def _names(data: dict) -> list[str]:
    names = ["ring1", *data["split"]]
    if data["has_nodes"]:
        names += ["split_ifs", "nlinarith", "pow_pos"]
    names += [lemma.split()[0] for lemma in data["route2_abs"]]
    return names


def certify(expr: sp.Expr, premise: str, *, degree=None, c=None) -> Certificate:
    if degree is None:
        raise OutsideFragment("no homogeneity degree")
    if degree.is_Integer and degree >= 0:
        return _certify_natural(expr, int(degree))
    if degree.is_Rational:
        return _certify_rpow(expr, degree)
    raise OutsideFragment(f"the degree {degree} is not rational")


def _certify_natural(expr: sp.Expr, k: int) -> Certificate:
    data = cases_certificate(expr, k)
    goal = f"({_text(expr, SCALED)}) = t ^ {k} * ({_text(expr)})"
    return Certificate(
        "homogeneous_cases", HOMOGENEOUS,
        f"σ(t·z) = t^{k}·σ(z): {len(data['cases'])} case pair(s), {data['identities']} "
        "identities (ring1), the rest refuted by nlinarith with t > 0",
        tuple(dict.fromkeys(_names(data))),
        {"goal": goal, "degree": str(k), **data})


def _certify_rpow(expr: sp.Expr, p_total: sp.Expr) -> Certificate:
    factors = sp.Mul.make_args(expr)
    varying = [f for f in factors if f.has(Z)]
    if len(varying) != 1 or not isinstance(varying[0], sp.Pow):
        raise OutsideFragment("σ is not a constant times B ^ p")
    base, p = varying[0].base, varying[0].exp
    if not (p.is_Rational and not p.is_Integer and p == p_total):
        raise OutsideFragment(f"the exponent {p} is not the homogeneity degree {p_total}")
    if abs(p) == sp.Rational(1, 2):
        raise OutsideFragment("B ^ (1/2) is printed as Real.sqrt, not as Real.rpow: the "
                              "rpow pattern does not apply")
    if not all(is_constant(f) for f in factors if f is not varying[0]):
        raise OutsideFragment("the coefficient depends on z")
    if isinstance(base, sp.Abs):
        nonneg = "exact abs_nonneg _"
    elif isinstance(base, sp.Max) and any(a == 0 for a in base.args):
        nonneg = "exact le_max_right _ _"
    else:
        raise OutsideFragment(f"{base} is not visibly nonnegative (|·| or max … 0)")
    data = cases_certificate(base, 1)
    p_text = _text(p) if not p.is_Integer else str(p)
    goal = f"({_text(expr, SCALED)}) = t ^ {p_text} * ({_text(expr)})"
    names = [*_names(data), "Real.mul_rpow", "LT.lt.le", "mul_left_comm",
             nonneg.split()[1]]
    return Certificate(
        "homogeneous_rpow", HOMOGENEOUS,
        f"σ = c·B^{sp.sstr(p)} with B ≥ 0 and B(t·z) = t·B(z) ({len(data['cases'])} case "
        "pair(s)); Real.mul_rpow",
        tuple(dict.fromkeys(names)),
        {"goal": goal, "degree": p_text, "base_scaled": _text(base, SCALED),
         "base": _text(base), "nonneg": nonneg, **data})
