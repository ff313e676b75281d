"""An activation on a half-line: exact facts about f(p) for p > 0, with SymPy.

The analysis restricts σ to the two half-lines z = p and z = −p (``p`` positive), where SymPy's
assumptions remove ``Max(p, 0)``, ``Abs(-p)`` and sign conditions by themselves. This module
holds the primitives it needs on such restrictions:

* :func:`zero_test` — is f ≡ 0 on p > 0? (numbers can only *refute*; only SymPy *proves*);
* :func:`power_law` — is f(p) = C·p^k, and for which k?
* :func:`linear_coefficient` — is f(p) = c·p, and for which c?
* :func:`jet_at_0` — the exact one-sided first-order expansion f(p) = v + d·p + o(p) at 0+.

Numbers are computed with mpmath at 30 digits through :func:`sympy.lambdify`, at a few exact
sample points; they decide nothing on their own except a refutation.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Callable, Iterator, NamedTuple

import mpmath
import sympy as sp

from leanbridge.families import Z
from leanbridge.functions import sigmoid

#: The positive variable of a half-line restriction.
P = sp.Symbol("p", positive=True)

#: Exact sample points p > 0, irregular on purpose.
#: Small points matter most: the arguments are about the behaviour near 0.
SAMPLES = (sp.Rational(1, 1000), sp.Rational(1, 50), sp.Rational(1, 7), sp.Rational(1, 2),
           sp.Integer(1), sp.Rational(13, 7), sp.Rational(7, 2))
_DIGITS = 30
_TOLERANCE = mpmath.mpf("1e-20")
_SYMBOLIC_ERRORS = (TypeError, ValueError, NotImplementedError, RecursionError,
                    ZeroDivisionError, AttributeError)


def restrict(expr: sp.Expr, sign: int) -> sp.Expr:
    """f(p) for ``sign=1`` and f(−p) for ``sign=-1``, with p > 0."""
    return expr.subs(Z, sign * P)


def finite_real(value: sp.Expr) -> bool:
    """Is ``value`` a finite real number (no nan, zoo, ±oo, AccumBounds)?"""
    return bool(value.is_number and value.is_finite and value.is_real is not False
                and not value.has(sp.nan, sp.zoo, sp.oo, -sp.oo, sp.AccumBounds))


# -- numbers ---------------------------------------------------------------------------------

def _mp_heaviside(x, h0=mpmath.mpf(1) / 2):
    return mpmath.mpf(0) if x < 0 else (h0 if x == 0 else mpmath.mpf(1))


_MODULES = [{"sigmoid": lambda x: 1 / (1 + mpmath.exp(-x)), "Heaviside": _mp_heaviside},
            "mpmath"]


@functools.lru_cache(maxsize=8192)
def _evaluator(expr: sp.Expr) -> Callable | None:
    try:
        return sp.lambdify(P, expr, modules=_MODULES)
    except _SYMBOLIC_ERRORS + (SyntaxError, NameError, KeyError):
        return None


def values(expr: sp.Expr, points=SAMPLES) -> list | None:
    """``expr`` at each point (30 digits), or None if any value is not a finite number."""
    function = _evaluator(expr)
    if function is None:
        return None
    out = []
    with mpmath.workdps(_DIGITS):
        for point in points:
            try:
                value = function(mpmath.mpf(point.p) / point.q)
            except (TypeError, ValueError, ZeroDivisionError, ArithmeticError, OverflowError):
                return None
            if not isinstance(value, (mpmath.mpf, mpmath.mpc)):
                try:
                    value = mpmath.mpmathify(value)
                except (TypeError, ValueError):
                    return None
            if not mpmath.isfinite(value):
                return None
            out.append(value)
    return out


def _small(value, scale=0) -> bool:
    return abs(value) <= _TOLERANCE * (1 + abs(scale))


def real_on_samples(expr: sp.Expr) -> bool:
    """False when ``expr`` takes a non-real value at a sample point."""
    sampled = values(expr)
    if sampled is None:
        return True  # nothing to refute with
    return all(_small(mpmath.im(v), mpmath.re(v)) for v in sampled)


def _constant(numbers: list) -> bool:
    return all(_small(n - numbers[0], numbers[0]) for n in numbers[1:])


# -- exact facts -----------------------------------------------------------------------------

_TRANSCENDENTAL = (sp.tanh, sp.sinh, sp.cosh, sigmoid, sp.erf)


def normal_form_zero(expr: sp.Expr) -> bool:
    """Do cheap exact normal forms prove ``expr == 0``? ``expand``; and, for a real ``expr``
    with logarithms, ``exp(expr) == 1`` by ``expand`` and ``cancel`` (a real x with e^x = 1 is
    0). False means only "not shown this way": ``simplify`` may still prove it (slower: its
    first call alone costs about 0.1 s)."""
    if sp.expand(expr) == 0:
        return True
    return bool(expr.has(sp.log) and expr.is_real is True
                and sp.cancel(sp.expand(sp.exp(expr))) == 1)


def _simplifies_to_zero(expr: sp.Expr) -> bool:
    """Does SymPy prove ``expr == 0``? Cheap normal forms first, ``simplify`` last."""
    try:
        if normal_form_zero(expr) or sp.simplify(expr) == 0:
            return True
        if expr.has(*_TRANSCENDENTAL) and not expr.has(sp.Max, sp.Min):
            return sp.simplify(sp.expand(expr.rewrite(sp.exp))) == 0
    except _SYMBOLIC_ERRORS:
        return False
    return False


@functools.lru_cache(maxsize=8192)
def zero_test(expr: sp.Expr) -> bool | None:
    """Is ``expr`` identically 0 for p > 0?

    ``False`` when a sample point refutes it, ``True`` when SymPy simplifies it to 0, ``None``
    when the samples agree but SymPy cannot prove it (or cannot evaluate it).
    """
    expr = sp.sympify(expr)
    if expr == 0:
        return True
    if not expr.has(P):
        if not finite_real(expr):
            return None
        with mpmath.workdps(_DIGITS):
            if not _small(mpmath.mpmathify(sp.N(expr, _DIGITS))):
                return False
        return True if _simplifies_to_zero(expr) else None
    sampled = values(expr)
    if sampled is None:
        return None
    if not all(_small(v) for v in sampled):
        return False
    return True if _simplifies_to_zero(expr) else None


def _exact_candidates(number, symbolic: Callable[[], sp.Expr]) -> Iterator[sp.Expr]:
    """Exact guesses for a numeric constant, cheapest first: a short fraction, then SymPy's
    closed form (computed only if the fraction is rejected).

    Each guess is only a candidate: the caller proves it with :func:`zero_test`.
    """
    fraction = Fraction(mpmath.nstr(mpmath.re(number), 25)).limit_denominator(10**6)
    rational = sp.Rational(fraction.numerator, fraction.denominator)
    yield rational
    try:
        exact = symbolic()
    except _SYMBOLIC_ERRORS:
        return
    if not exact.has(P) and exact != rational:
        yield exact


def power_law(half: sp.Expr) -> sp.Expr | str | None:
    """k with half(p) = C·p^k for all p > 0 (proved by SymPy); ``"zero"`` if half ≡ 0.

    None when half is not of that form (refuted at sample points) or SymPy cannot prove it.
    The test is derivative-free: half(2p)/half(p) must be the same constant 2^k everywhere.
    """
    vanishes = zero_test(half)
    if vanishes is True:
        return "zero"
    if vanishes is None:
        return None
    at_p = values(half)
    at_2p = values(half, tuple(2 * s for s in SAMPLES))
    at_3p = values(half, tuple(3 * s for s in SAMPLES))
    if at_p is None or at_2p is None or at_3p is None or any(_small(v) for v in at_p):
        return None  # C·p^k with C ≠ 0 has no zero on p > 0
    with mpmath.workdps(_DIGITS):
        ratios2 = [b / a for a, b in zip(at_p, at_2p)]
        ratios3 = [c / a for a, c in zip(at_p, at_3p)]
        if not (_constant(ratios2) and _constant(ratios3)) or mpmath.re(ratios2[0]) <= 0:
            return None
        k = mpmath.log(mpmath.re(ratios2[0])) / mpmath.log(2)
        if not _small(mpmath.power(3, k) - ratios3[0], ratios3[0]):
            return None
    for candidate in _exact_candidates(k, lambda: sp.simplify(P * sp.diff(half, P) / half)):
        proved = zero_test(half - half.subs(P, 1) * P**candidate)
        if proved is not False:  # True: done; None: the numbers fit but SymPy cannot prove it
            return candidate if proved else None
    return None


def linear_coefficient(odd: sp.Expr) -> tuple[sp.Expr | None, bool | None]:
    """(c, proved) with odd(p) = c·p for all p > 0.

    ``(None, False)``: refuted; ``(None, None)``: the samples fit but SymPy could not prove it.
    """
    vanishes = zero_test(odd)
    if vanishes is True:
        return sp.Integer(0), True
    if vanishes is None:
        return None, None
    ratios = values(odd / P)
    if ratios is None:
        return None, None
    if not _constant(ratios):
        return None, False
    # A candidate that fits the samples but is not proved (None) does not end the search: a
    # short fraction can agree with c to within the sampling tolerance (c = 9/32 + 1e-24) while
    # SymPy's closed form, tried next, is the exact c.
    for candidate in _exact_candidates(ratios[0], lambda: sp.simplify(odd / P)):
        if zero_test(odd - candidate * P) is True:
            return candidate, True
    return None, None


# -- one-sided first-order expansion at 0+ ---------------------------------------------------

class Jet(NamedTuple):
    """f(p) = value + slope·p + o(p) as p → 0+ (value is the one-sided limit)."""

    value: sp.Expr
    slope: sp.Expr


class _NoJet(Exception):
    pass


#: Functions differentiable on all of ℝ: the chain rule applies at any point.
_ENTIRE = (sp.exp, sp.tanh, sp.sinh, sp.cosh, sp.sin, sp.cos, sp.atan, sp.erf, sigmoid)
_X = sp.Dummy("x", real=True)


def _compare(a: sp.Expr, b: sp.Expr) -> int:
    """Sign of a − b for exact real numbers (raises _NoJet if SymPy cannot tell)."""
    difference = a - b
    if difference == 0:
        return 0
    with mpmath.workdps(_DIGITS):
        approx = mpmath.mpmathify(sp.N(difference, _DIGITS))
    if not _small(approx):
        return 1 if approx > 0 else -1
    if _simplifies_to_zero(difference):
        return 0
    raise _NoJet


def _jet(expr: sp.Expr) -> Jet:
    if not expr.has(P):
        if not finite_real(expr):
            raise _NoJet
        return Jet(expr, sp.Integer(0))
    if expr == P:
        return Jet(sp.Integer(0), sp.Integer(1))
    if isinstance(expr, sp.Add):
        jets = [_jet(a) for a in expr.args]
        return Jet(sp.Add(*(j.value for j in jets)), sp.Add(*(j.slope for j in jets)))
    if isinstance(expr, sp.Mul):
        value, slope = sp.Integer(1), sp.Integer(0)
        for factor in expr.args:
            j = _jet(factor)
            value, slope = value * j.value, slope * j.value + value * j.slope
        return Jet(value, slope)
    if isinstance(expr, sp.Pow):
        return _jet_pow(expr)
    if isinstance(expr, _ENTIRE):
        inner = _jet(expr.args[0])
        derivative = sp.diff(type(expr)(_X), _X).subs(_X, inner.value)
        return Jet(type(expr)(inner.value), derivative * inner.slope)
    if isinstance(expr, sp.log):
        inner = _jet(expr.args[0])
        if _compare(inner.value, 0) <= 0:
            raise _NoJet
        return Jet(sp.log(inner.value), inner.slope / inner.value)
    if isinstance(expr, (sp.Max, sp.Min)):
        jets = [_jet(a) for a in expr.args]
        pick = 1 if isinstance(expr, sp.Max) else -1
        best = jets[0].value
        for j in jets[1:]:
            if _compare(j.value, best) * pick > 0:
                best = j.value
        # The arguments that attain the extreme value decide the one-sided slope.
        slopes = [j.slope for j in jets if _compare(j.value, best) == 0]
        slope = slopes[0]
        for s in slopes[1:]:
            if _compare(s, slope) * pick > 0:
                slope = s
        return Jet(best, slope)
    if isinstance(expr, sp.Abs):
        inner = _jet(expr.args[0])
        sign = _compare(inner.value, 0)
        if sign == 0:
            return Jet(sp.Integer(0), sp.Abs(inner.slope))
        return Jet(sign * inner.value, sign * inner.slope)
    raise _NoJet


def _jet_pow(expr: sp.Pow) -> Jet:
    base, exponent = expr.args
    if not exponent.has(P) and exponent.is_Integer and exponent >= 0:
        b = _jet(base)
        n = int(exponent)
        if n == 0:
            return Jet(sp.Integer(1), sp.Integer(0))
        return Jet(b.value**n, n * b.value ** (n - 1) * b.slope)
    b, e = _jet(base), _jet(exponent)
    if _compare(b.value, 0) <= 0:
        raise _NoJet  # p^(1/2) and friends: not differentiable at 0 (handled by limits)
    value = b.value**e.value
    return Jet(value, value * (e.slope * sp.log(b.value) + e.value * b.slope / b.value))


def _limit(expr: sp.Expr) -> sp.Expr | None:
    try:
        value = sp.limit(expr, P, 0, "+")
    except _SYMBOLIC_ERRORS:
        return None
    if isinstance(value, sp.Limit) or value.has(sp.AccumBounds, sp.nan, sp.zoo):
        return None
    return value


@functools.lru_cache(maxsize=8192)
def jet_at_0(expr: sp.Expr) -> tuple[sp.Expr | None, sp.Expr | None]:
    """(lim_{p→0+} f(p), right derivative at 0 of f extended by that limit).

    Exact forward-mode differentiation through +, ·, powers, entire functions, log, Max, Min
    and Abs (the one-sided slope of a max is the largest slope among the arguments attaining
    it); other nodes fall back to :func:`sympy.limit`. ``None`` where SymPy cannot decide.
    """
    try:
        jet = _jet(expr)
        return sp.nsimplify(jet.value) if jet.value.is_Float else jet.value, jet.slope
    except _NoJet:
        pass
    value = _limit(expr)
    if value is None or not finite_real(value):
        return value, None
    slope = _limit((expr - value) / P)
    return value, slope
