"""An activation on a half-line: exact facts about f(p) for p > 0, with SymPy.

The analysis restricts σ to the two half-lines z = p and z = −p (``p`` positive), where SymPy's
assumptions remove ``Max(p, 0)``, ``Abs(-p)`` and sign conditions by themselves. This module
holds the primitives it needs on such restrictions:

* :func:`zero_test` — is f ≡ 0 on p > 0? (numbers can only *refute*; only SymPy *proves*);
* :func:`power_law` — is f(p) = C·p^k, and for which k?
* :func:`linear_coefficient` — is f(p) = c·p, and for which c?
* :func:`jet_at_0` — the exact one-sided first-order expansion f(p) = v + d·p + o(p) at 0+.

Numbers are computed with mpmath through :func:`sympy.lambdify`, at a few exact sample points;
they decide nothing on their own except a refutation. Every numeric test is *scale-free*:
multiplying f by any constant c ≠ 0 changes no answer. A sampled number is computed at 30 and
at 60 digits; it counts as nonzero only when the two agree to 12 significant digits (a rounding
residue of an exact 0 shrinks as the precision grows, a true value does not), however small it
is — so ``p**7/10**14`` at p = 1/1000 (10⁻³⁵) is nonzero, and mpmath has no underflow. Equality
of two numbers is nonzero-ness of their difference, so it is relative too.
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
#: The second precision of every sample (see :func:`_nonzero`).
_CHECK_DIGITS = 60
#: Relative agreement of the two precisions for a sampled number to count as nonzero.
_AGREEMENT = mpmath.mpf("1e-12")
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


def _values_at(function: Callable, points, digits: int) -> list | None:
    out = []
    with mpmath.workdps(digits):
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


class Sample(NamedTuple):
    """One number computed twice: at ``_DIGITS`` (``low``) and ``_CHECK_DIGITS`` (``high``)."""

    low: object
    high: object

    def __sub__(self, other: "Sample") -> "Sample":
        with mpmath.workdps(_CHECK_DIGITS):
            return Sample(self.low - other.low, self.high - other.high)

    def __truediv__(self, other: "Sample") -> "Sample":
        with mpmath.workdps(_CHECK_DIGITS):
            return Sample(self.low / other.low, self.high / other.high)

    @property
    def imag(self) -> "Sample":
        return Sample(mpmath.im(self.low), mpmath.im(self.high))


def _nonzero(sample: Sample) -> bool:
    """Is the sampled number certainly nonzero? Scale-free: yes when its values at 30 and 60
    digits agree to :data:`_AGREEMENT` relative to the 60-digit value, however small that is.
    A rounding residue of an exact 0 (``exp(log(p)) − p``) changes with the precision, so it
    does not count; a number smaller than the rounding error at 30 digits does not count either
    (it is then left to SymPy, never refuted by numbers)."""
    low, high = sample
    if high == 0:
        return False
    with mpmath.workdps(_CHECK_DIGITS):
        return abs(high - low) <= _AGREEMENT * abs(high)


def samples(expr: sp.Expr, points=SAMPLES) -> list[Sample] | None:
    """``expr`` at each point, at two precisions, or None if any value is not finite."""
    function = _evaluator(expr)
    if function is None:
        return None
    low = _values_at(function, points, _DIGITS)
    high = None if low is None else _values_at(function, points, _CHECK_DIGITS)
    if high is None:
        return None
    return [Sample(a, b) for a, b in zip(low, high)]


def _number_sample(value: sp.Expr) -> Sample:
    """A constant SymPy number at the two precisions."""
    with mpmath.workdps(_CHECK_DIGITS):
        return Sample(mpmath.mpmathify(sp.N(value, _DIGITS)),
                      mpmath.mpmathify(sp.N(value, _CHECK_DIGITS)))


def real_on_samples(expr: sp.Expr) -> bool:
    """False when ``expr`` takes a non-real value at a sample point (an imaginary part that is
    nonzero at both precisions, however small: the test is scale-free)."""
    sampled = samples(expr)
    if sampled is None:
        return True  # nothing to refute with
    return not any(_nonzero(v.imag) for v in sampled)


def _constant(numbers: list[Sample]) -> bool:
    """Do the sampled numbers agree (no difference is certainly nonzero)?"""
    return not any(_nonzero(n - numbers[0]) for n in numbers[1:])


# -- exact facts -----------------------------------------------------------------------------

_TRANSCENDENTAL = (sp.tanh, sp.sinh, sp.cosh, sigmoid, sp.erf)


#: The largest numerator or denominator of a logarithm's coefficient for which
#: :func:`normal_form_zero` exponentiates (e^(n·log u) = uⁿ is expanded).
_MAX_LOG_COEFFICIENT = 64


def normal_form_zero(expr: sp.Expr) -> bool:
    """Do cheap exact normal forms prove ``expr == 0``? ``expand``; and, for a real ``expr``
    with logarithms, ``exp(expr) == 1`` by ``expand`` and ``cancel`` (a real x with e^x = 1 is
    0). False means only "not shown this way": ``simplify`` may still prove it (slower: its
    first call alone costs about 0.1 s).

    A rational factor common to all terms is divided out first (``10**14·f`` is 0 exactly when
    f is), and e^x is only formed when every logarithm's coefficient is at most
    :data:`_MAX_LOG_COEFFICIENT` in size: e^(10¹⁴·log u) = u^(10¹⁴) has no expansion."""
    if sp.expand(expr) == 0:
        return True
    _, expr = expr.as_content_primitive()
    if not (expr.has(sp.log) and expr.is_real is True):
        return False
    for term in sp.Add.make_args(sp.expand_log(expr, force=False)):
        coefficient = term.as_coeff_Mul()[0]
        if term.has(sp.log) and not (coefficient.is_Rational
                                     and abs(coefficient.p) <= _MAX_LOG_COEFFICIENT
                                     and coefficient.q <= _MAX_LOG_COEFFICIENT):
            return False
    return sp.cancel(sp.expand(sp.exp(expr))) == 1


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
        if _nonzero(_number_sample(expr)):
            return False
        return True if _simplifies_to_zero(expr) else None
    sampled = samples(expr)
    if sampled is None:
        return None
    if any(_nonzero(v) for v in sampled):
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


#: The scale factor of σ(t·z) = t^k·σ(z): a positive symbol, so SymPy decides for every t > 0.
T_SCALE = sp.Symbol("t", positive=True)


def scales_exactly(half: sp.Expr, k: sp.Expr) -> bool:
    """Does SymPy prove half(t·p) − t^k·half(p) = 0 for symbolic t > 0 and p > 0?"""
    return _simplifies_to_zero(half.subs(P, T_SCALE * P) - T_SCALE**k * half)


def _written_power(half: sp.Expr) -> sp.Expr | None:
    """k when ``half`` is written C·p^k (C ≠ 0 free of p, k a real number), else None."""
    try:
        coefficient, k = half.as_coeff_exponent(P)
    except _SYMBOLIC_ERRORS:
        return None
    if coefficient.has(P) or not finite_real(coefficient) or coefficient == 0:
        return None
    return k if finite_real(k) else None


def power_law(half: sp.Expr) -> sp.Expr | str | None:
    """k with half(p) = C·p^k for all p > 0 (proved by SymPy); ``"zero"`` if half ≡ 0.

    Exactly first: when half is written C·p^k, SymPy proves half(t·p) = t^k·half(p) with
    t > 0 symbolic, no numbers involved. Otherwise by samples, scale-free (multiplying half by
    a constant changes no ratio and no nonzero-ness): half(2p)/half(p) must be the same constant
    2^k everywhere and half(3p)/half(p) = 3^k; the k found is then proved by SymPy. None when
    half is not of that form (refuted at sample points) or SymPy cannot prove it.
    """
    written = _written_power(half)
    if written is not None and scales_exactly(half, written):
        return written
    vanishes = zero_test(half)
    if vanishes is True:
        return "zero"
    if vanishes is None:
        return None
    at_p = samples(half)
    at_2p = samples(half, tuple(2 * s for s in SAMPLES))
    at_3p = samples(half, tuple(3 * s for s in SAMPLES))
    if at_p is None or at_2p is None or at_3p is None or not all(map(_nonzero, at_p)):
        return None  # C·p^k with C ≠ 0 has no zero on p > 0
    ratios2 = [b / a for a, b in zip(at_p, at_2p)]
    ratios3 = [c / a for a, c in zip(at_p, at_3p)]
    if not (_constant(ratios2) and _constant(ratios3)) or _nonzero(ratios2[0].imag):
        return None
    exponents = []
    for digits, ratio in ((_DIGITS, ratios2[0].low), (_CHECK_DIGITS, ratios2[0].high)):
        with mpmath.workdps(digits):
            if mpmath.re(ratio) <= 0:
                return None
            exponents.append(mpmath.log(mpmath.re(ratio)) / mpmath.log(2))
    with mpmath.workdps(_CHECK_DIGITS):
        predicted = Sample(mpmath.power(3, exponents[0]), mpmath.power(3, exponents[1]))
    if _nonzero(predicted - ratios3[0]):
        return None
    k = exponents[1]
    for candidate in _exact_candidates(k, lambda: sp.simplify(P * sp.diff(half, P) / half)):
        fits = zero_test(half - half.subs(P, 1) * P**candidate)
        if fits is False:
            continue
        # True: proved; None: the numbers fit, and σ(t·p) − t^k σ(p) is the last exact try
        return candidate if fits or scales_exactly(half, candidate) else None
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
    ratios = samples(odd / P)
    if ratios is None:
        return None, None
    if not _constant(ratios):
        return None, False
    # A candidate that fits the samples but is not proved (None) does not end the search: a
    # short fraction can agree with c to within the sampling tolerance (c = 9/32 + 1e-24) while
    # SymPy's closed form, tried next, is the exact c.
    for candidate in _exact_candidates(ratios[0].high, lambda: sp.simplify(odd / P)):
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
    approx = _number_sample(difference)
    if _nonzero(approx):
        return 1 if mpmath.re(approx.high) > 0 else -1
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
