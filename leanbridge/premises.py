"""Symbolic premise checks: re-verify with SymPy the facts each family's Lean theorems assume.

They run on every ``leanbridge check``, with or without Lean. Each check states its identity
directly and asks SymPy for it by a route independent of the analysis (exact normal forms, else
``simplify``, of the identity itself; ``limit`` for behaviour at 0), so a bug in one is unlikely
to hide in both.
A check is ``verified`` only when SymPy proves it, ``failed`` when SymPy proves it false (or a
sample point refutes it), and ``unknown`` otherwise.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import sympy as sp

from leanbridge.analysis import (
    DEGREE,
    EVEN_PARITY,
    LINEARISATION,
    ODD_LINEAR_PARITY,
    RECESSION,
    RECESSION_RELU,
    Analysis,
    power_text,
    times_z,
)
from leanbridge.budget import BudgetExceeded, time_budget
from leanbridge.families import Z
from leanbridge.recession import SECONDS as RECESSION_SECONDS
from leanbridge.halfline import normal_form_zero
from leanbridge.lean import library

#: The kind of the premise c ≠ 0 of the S-condition theorem (as ``render.PremiseHypothesis``).
NONZERO = "nonzero"

VERIFIED = "verified"
FAILED = "failed"
UNKNOWN = "unknown"

_T = sp.Symbol("t", positive=True)
_P = sp.Symbol("p", positive=True)
#: How an identity is proved, for the report.
_PROVED_BY = "sympy.expand (or exp of a real log identity), else sympy.simplify,"
_ERRORS = (TypeError, ValueError, NotImplementedError, RecursionError, ZeroDivisionError)


@dataclass(frozen=True)
class PremiseCheck:
    """One re-verified premise of one family's argument."""

    family: str
    argument: str
    statement: str
    status: str
    method: str
    #: the premise kind (``leanbridge.lean.library``: homogeneous, isLittleO, tendsto, even,
    #: odd; or :data:`NONZERO`), which a theorem's named hypothesis of that kind relies on
    kind: str | None = None

    def to_dict(self) -> dict:
        return {"family": self.family, "argument": self.argument, "kind": self.kind,
                "statement": self.statement, "status": self.status, "method": self.method}


def _identity(difference: sp.Expr) -> str:
    """VERIFIED if SymPy proves ``difference`` is 0 (exact normal forms, else ``simplify``),
    FAILED if a sample refutes it, else UNKNOWN."""
    try:
        if normal_form_zero(difference) or sp.simplify(difference) == 0:
            return VERIFIED
        if sp.simplify(difference.rewrite(sp.exp)) == 0:
            return VERIFIED
    except _ERRORS:
        return UNKNOWN
    symbols = sorted(difference.free_symbols, key=str)
    for value in (sp.Rational(1, 3), sp.Rational(7, 4)):
        try:
            number = complex(difference.subs({s: value for s in symbols}).evalf(30))
        except (TypeError, ValueError):
            return UNKNOWN
        if abs(number) > 1e-12:
            return FAILED
    return UNKNOWN


def _identity_in_z(difference: sp.Expr) -> str:
    """An identity in z, decided on z = p, z = −p (p > 0) and z = 0, where SymPy's
    assumptions resolve Max, Abs and sign conditions."""
    return _all(*(_identity(difference.subs(Z, point)) for point in (_P, -_P, sp.Integer(0))))


def _limit(expr: sp.Expr, direction: str) -> sp.Expr | None:
    try:
        value = sp.limit(expr, Z, 0, direction)
    except _ERRORS:
        return None
    if isinstance(value, sp.Limit) or value.has(sp.AccumBounds):
        return None
    return value


def _limits_vanish(expr: sp.Expr) -> str:
    limits = [_limit(expr, side) for side in ("+", "-")]
    if any(limit is not None and limit != 0 for limit in limits):
        return FAILED
    return VERIFIED if all(limit == 0 for limit in limits) else UNKNOWN


def _all(*statuses: str) -> str:
    if FAILED in statuses:
        return FAILED
    return VERIFIED if all(s == VERIFIED for s in statuses) else UNKNOWN


def premise_checks(analysis: Analysis) -> list[PremiseCheck]:
    """The premise checks of every argument that applies to ``analysis.family``."""
    family, facts = analysis.family, analysis.facts
    sigma, what = family.expr, ("g" if family.gated else "σ")
    checks = []
    for argument in analysis.argument_names:
        if argument == DEGREE:
            k = facts.degree
            status = _all(*(_identity(sigma.subs(Z, s * _T * _P) - _T**k * sigma.subs(Z, s * _P))
                            for s in (1, -1)))
            checks.append(PremiseCheck(
                family.name, argument, f"{what}(t·z) = t^{power_text(k)}·{what}(z) for all t > 0",
                status, f"{_PROVED_BY} of the identity on z = ±p (t, p > 0)",
                library.HOMOGENEOUS))
        elif argument == LINEARISATION:
            value = sigma.subs(Z, 0)
            if family.gated:
                status = _all(VERIFIED if value == 0 else FAILED, _limits_vanish(sigma))
                checks.append(PremiseCheck(
                    family.name, argument, "g(0) = 0 and g(z) → 0 as z → 0± (g continuous at 0)",
                    status, "substitution and sympy.limit from both sides", library.TENDSTO))
            else:
                status = _all(VERIFIED if value == 0 else FAILED, _limits_vanish(sigma / Z))
                checks.append(PremiseCheck(
                    family.name, argument, "σ(0) = 0 and σ(z)/z → 0 as z → 0± (σ = o(z))",
                    status, "substitution and sympy.limit from both sides",
                    library.LITTLE_O))
        elif argument == EVEN_PARITY:
            checks.append(PremiseCheck(
                family.name, argument, "σ(−z) = σ(z) for all z",
                _identity_in_z(sigma.subs(Z, -Z) - sigma),
                f"{_PROVED_BY} of the identity on z = p, −p (p > 0) and 0", library.EVEN))
        elif argument == ODD_LINEAR_PARITY:
            c = facts.odd_coefficient
            checks.append(PremiseCheck(
                family.name, argument,
                f"σ(z) − σ(−z) = {times_z(c)} for all z",
                _identity_in_z(sigma - sigma.subs(Z, -Z) - c * Z),
                f"{_PROVED_BY} of the identity on z = p, −p (p > 0) and 0", library.ODD))
            checks.append(PremiseCheck(
                family.name, argument, f"c = {sp.sstr(c)} ≠ 0", nonzero_status(c),
                "sympy: c.is_zero (after simplify when undecided)", NONZERO))
        elif argument in (RECESSION, RECESSION_RELU):
            relu = argument == RECESSION_RELU
            try:
                with time_budget(RECESSION_SECONDS, what="the recession premise check"):
                    status = _tendsto_div(sigma, relu)
            except BudgetExceeded:
                status = UNKNOWN
            checks.append(PremiseCheck(
                family.name, argument,
                f"σ(t·z)/t → {'relu(z)' if relu else '0'} as t → ∞, for every z",
                status,
                "sympy.limit of σ(t·p)/t and σ(−t·p)/t as t → ∞ (p > 0 symbolic), and σ(0) "
                "finite", library.TENDSTO_DIV_RELU if relu else library.TENDSTO_DIV_ZERO))
    return checks


@functools.lru_cache(maxsize=1024)
def _tendsto_div(sigma: sp.Expr, relu_profile: bool) -> str:
    """σ(t·z)/t → 0 (or → relu z) as t → ∞, for z = p and z = −p (p > 0) with the slope
    symbolic — a route independent of the analysis, which computes lim σ(±t)/t — and z = 0
    (σ(0)/t → 0 as σ(0) is finite). Cached: its limits take most of a ``check``'s SymPy time
    when the same family is checked again (the test suite's many checks; a budget overrun
    raises, so it is never cached)."""
    t = sp.Symbol("t", positive=True)
    statuses = []
    for sign, expected in ((1, _P if relu_profile else 0), (-1, sp.Integer(0))):
        try:
            value = sp.limit(sigma.subs(Z, sign * t * _P) / t, t, sp.oo)
        except _ERRORS:
            statuses.append(UNKNOWN)
            continue
        if isinstance(value, sp.Limit) or value.has(sp.Limit, sp.AccumBounds, sp.nan):
            statuses.append(UNKNOWN)
        else:
            statuses.append(_identity(sp.sympify(value - expected)))
    value0 = sigma.subs(Z, 0)
    statuses.append(VERIFIED if value0.is_finite else UNKNOWN)
    return _all(*statuses)


def nonzero_status(c: sp.Expr) -> str:
    """VERIFIED if SymPy decides c ≠ 0, FAILED if c = 0, else UNKNOWN."""
    try:
        zero = c.is_zero
        if zero is None:
            zero = sp.simplify(c).is_zero
    except _ERRORS:
        return UNKNOWN
    return FAILED if zero else VERIFIED if zero is False else UNKNOWN


def for_hypothesis(checks: list[PremiseCheck], family: str, kind: str) -> PremiseCheck | None:
    """The check of ``family`` that re-verifies a named hypothesis of kind ``kind``."""
    return next((c for c in checks if c.family == family and c.kind == kind), None)
