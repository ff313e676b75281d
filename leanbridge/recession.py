"""The large-scale limit of an activation (its *recession profile*), and gate parity, with SymPy.

For σ : ℝ → ℝ, ρ(z) = lim_{t→∞} σ(t z)/t is positively homogeneous, so it is fixed by the two
numbers p = lim σ(t)/t and q = lim σ(−t)/t (t → ∞): ρ(z) = p·relu(z) + q·relu(−z)
(``../shared/research/recession.md``). Evaluating an absorption identity at t·x and dividing by
t carries it over to ρ with the same weights (R1), so:

* p = q = 0 (σ bounded, or sublinear): no skip A ≠ 0 is ever absorbed (R2);
* p = 1, q = 0 (ρ = relu): for nondegenerate weights the S-condition is necessary (R3), and
  with σ(z) − σ(−z) = z it characterises absorption (GELU, GELU-tanh, SiLU, softplus, …).

:func:`recession` computes p, q (``sympy.limit``) and whether σ is bounded (continuous on ℝ —
``continuous_domain`` — with finite limits, or SymPy's bounded oscillation, at ±∞). A limit is
believed only when SymPy returns a number and σ(t)/t at t = 10⁶ agrees with it (numbers only
*refute*); a limit SymPy cannot compute, does not finish within :data:`SECONDS` (the
``--time-budget`` mechanism, :mod:`leanbridge.budget`), or that the numbers refute is reported
as unknown with the reason — never guessed.

:func:`gate_parity` decides g(z) + g(−z) = c for a constant c (sigmoid: c = 1), the premise
of the gated sign-flip construction (recession.md §8).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import mpmath
import sympy as sp

from leanbridge.budget import BudgetExceeded, time_budget
from leanbridge.families import Z
from leanbridge.functions import sigmoid
from leanbridge.halfline import P, finite_real, linear_coefficient, restrict, samples, zero_test

#: Seconds the recession limits may take inside one analysis (capped by an outer budget).
SECONDS = 20.0

#: Profiles.
ZERO = "zero"          # p = q = 0: σ(tz)/t → 0
RELU = "relu"          # p = 1, q = 0: σ(tz)/t → relu z
OTHER = "other"        # a finite profile that is neither (leaky relu, |z|, …)
NONE = "none"          # no finite profile (superlinear, or σ(t)/t oscillates)
UNKNOWN = "unknown"    # SymPy could not decide

_T = sp.Symbol("t", positive=True)
#: Large t at which σ(t)/t is compared with SymPy's limit (a refutation only): two of them, so
#: that a constant factor (10¹⁴·tanh: σ(t)/t = 10⁸ at t = 10⁶) is not taken for a wrong limit.
_LARGE = (sp.Integer(10) ** 6, sp.Integer(10) ** 12)
_TOLERANCE = 1e-2
_ERRORS = (TypeError, ValueError, NotImplementedError, RecursionError, ZeroDivisionError,
           AttributeError, KeyError)


@dataclass(frozen=True)
class Recession:
    """What SymPy established about σ(t z)/t as t → ∞."""

    p: sp.Expr | None             # lim σ(t)/t (None: unknown; may be ±oo or AccumBounds)
    q: sp.Expr | None             # lim σ(−t)/t
    bounded: bool | None          # σ bounded on ℝ (None: unknown)
    profile: str                  # ZERO / RELU / OTHER / NONE / UNKNOWN
    reason: str                   # the facts, or why they are unknown

    @property
    def text(self) -> str:
        """``recession: …`` as ``analyse`` prints it."""
        return f"recession: {self.profile} ({self.reason})"

    def to_dict(self) -> dict:
        return {"profile": self.profile, "p": _exact(self.p), "q": _exact(self.q),
                "bounded": self.bounded, "reason": self.reason}


def _exact(value: sp.Expr | None) -> str | None:
    return None if value is None else sp.sstr(value)


def _limit(expr: sp.Expr) -> tuple[sp.Expr | None, str]:
    """lim_{t→∞} expr(t): (value, "") or (None, why not)."""
    try:
        value = sp.limit(expr, _T, sp.oo)
    except _ERRORS as exc:
        return None, f"sympy.limit raised {type(exc).__name__}"
    if isinstance(value, sp.Limit) or value.has(sp.Limit):
        return None, "sympy.limit returned it unevaluated"
    if value.has(sp.nan):
        return None, "sympy.limit returned nan"
    return value, ""


def _refuted(expr: sp.Expr, value: sp.Expr) -> bool:
    """Do the numbers at t = 10⁶ and 10¹² contradict the finite limit ``value`` of
    ``expr``(t)? Both must be off by more than the tolerance, and the second no closer than
    a thousandth of the first's distance (a scaled activation approaches its limit slowly
    but does approach it: the test does not depend on the scale of σ)."""
    sampled = samples(expr.subs(_T, P), points=_LARGE)
    if sampled is None:
        return False              # cannot evaluate: no refutation
    first, second = (sample.high for sample in sampled)     # the 60-digit values
    target = mpmath.mpf(sp.N(value, 30))
    scale = _TOLERANCE * max(1, abs(target))
    return (abs(first - target) > scale and abs(second - target) > scale
            and abs(second - target) > abs(first - target) / 1000)


def _bounded_at(expr: sp.Expr) -> bool | None:
    """σ(±t) stays bounded as t → ∞: a finite limit, or SymPy's bounded oscillation."""
    value, _ = _limit(expr)
    if value is None:
        return None
    if finite_real(value):
        return True
    if isinstance(value, sp.AccumBounds):
        return bool(value.min.is_finite and value.max.is_finite)
    if value.has(sp.oo, -sp.oo, sp.zoo):
        return False
    return None


def _bounded(expr: sp.Expr) -> bool | None:
    """σ bounded on ℝ: continuous on ℝ (SymPy) and bounded towards ±∞."""
    ends = [_bounded_at(expr.subs(Z, s * _T)) for s in (1, -1)]
    if False in ends:
        return False
    if None in ends:
        return None
    if _built_continuously(expr):
        return True
    try:
        domain = sp.calculus.util.continuous_domain(expr.rewrite(sp.exp), Z, sp.S.Reals)
    except _ERRORS:
        return None
    return True if domain == sp.S.Reals else None


#: Functions continuous on all of ℝ.
_CONTINUOUS = (sp.exp, sp.tanh, sp.sinh, sp.cosh, sp.sin, sp.cos, sp.atan, sp.erf, sigmoid,
               sp.Abs, sp.Max, sp.Min)


def _built_continuously(expr: sp.Expr) -> bool:
    """``expr`` is built from z and numbers by +, ×, natural powers and functions continuous
    on ℝ: so it is continuous on ℝ (a sufficient condition only)."""
    if expr.is_Symbol or expr.is_number and finite_real(expr):
        return True
    if isinstance(expr, (sp.Add, sp.Mul)) or isinstance(expr, _CONTINUOUS):
        return all(_built_continuously(a) for a in expr.args)
    if isinstance(expr, sp.Pow):
        k = expr.exp
        return bool(k.is_Integer and k >= 0) and _built_continuously(expr.base)
    return False


def _slope(expr: sp.Expr, sign: int) -> tuple[sp.Expr | None, str]:
    ratio = expr.subs(Z, sign * _T) / _T
    value, why = _limit(ratio)
    side = "σ(t)/t" if sign == 1 else "σ(−t)/t"
    if value is None:
        return None, f"lim {side}: {why}"
    if finite_real(value) and _refuted(ratio, value):
        return None, (f"lim {side}: sympy.limit says {sp.sstr(value)} but σ(t)/t at t = 10^6 "
                      "disagrees")
    return value, ""


def _compute(expr: sp.Expr) -> Recession:
    p, why_p = _slope(expr, 1)
    q, why_q = _slope(expr, -1)
    if p is None or q is None:
        return Recession(p, q, None, UNKNOWN, "; ".join(w for w in (why_p, why_q) if w))
    finite = finite_real(p) and finite_real(q)
    bounded = _bounded(expr) if finite and p == 0 and q == 0 else (False if not finite else None)
    facts = (f"(p, q) = ({sp.sstr(p)}, {sp.sstr(q)}) with p = lim σ(t)/t, q = lim σ(−t)/t as "
             "t → ∞ (sympy.limit)")
    if not finite:
        return Recession(p, q, bounded, NONE, facts + ": no finite large-scale profile")
    if p == 0 and q == 0:
        state = {True: "; σ is bounded (continuous on ℝ with bounded limits at ±∞)",
                 None: "; boundedness of σ unknown", False: "; σ is unbounded (sublinear)"}
        return Recession(p, q, bounded, ZERO, facts + state[bounded])
    if p == 1 and q == 0:
        return Recession(p, q, bounded, RELU, facts + ": σ(t z)/t → relu z")
    return Recession(p, q, bounded, OTHER, facts + ": the profile is p·relu(z) + q·relu(−z), "
                                               "not 0 and not relu")


@functools.lru_cache(maxsize=1024)
def _cached(expr: sp.Expr) -> Recession:
    return _compute(expr)


def recession(expr: sp.Expr, seconds: float | None = SECONDS) -> Recession:
    """The recession profile of σ = ``expr`` (in ``z``), within ``seconds`` (an outer budget
    caps it). Cached, except an answer cut short by a budget: a later call may have time."""
    try:
        with time_budget(seconds, what="the recession limits"):
            return _cached(expr)
    except BudgetExceeded as exc:
        return Recession(None, None, None, UNKNOWN, str(exc))


recession.cache_clear = _cached.cache_clear    # type: ignore[attr-defined]


@functools.lru_cache(maxsize=1024)
def gate_parity(expr: sp.Expr) -> tuple[sp.Expr | None, bool | None]:
    """(c, proved) with g(z) + g(−z) = c for all z: ``(None, False)`` refuted, ``(None, None)``
    undecided. Decided on the half-line p > 0 as (g(p) + g(−p))·p = c·p, and at z = 0 as
    2·g(0) = c."""
    even = restrict(expr, 1) + restrict(expr, -1)
    try:
        c, proved = linear_coefficient(sp.expand(even * P))
    except _ERRORS:
        return None, None
    if c is None:
        return None, proved
    at_zero = zero_test(sp.sympify(2 * expr.subs(Z, 0) - c))
    if at_zero is not True:
        return None, None if at_zero is None else False
    return c, True
