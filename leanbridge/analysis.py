"""Decide, with SymPy, which of the paper's arguments applies to an activation, and why.

For an activation σ (ungated) or a gate g (gated) this module computes:

* the value at 0 and the one-sided slopes at 0, hence whether σ is *flat* at 0
  (σ(0) = 0 and both slopes 0, i.e. σ(z) = o(z) at 0);
* the positive homogeneity degree k, if σ(t z) = t^k σ(z) for all t > 0 — checked on each
  half-line z = p and z = −p (p > 0), where σ must be C·p^k: exactly (SymPy, t > 0 symbolic)
  when σ is written so, else by scale-free samples and then proved (multiplying σ by a constant
  changes no fact's presence; :mod:`leanbridge.halfline`);
* the odd part: whether σ(z) − σ(−z) = c·z for a constant c (c = 0: σ is even);
* for a gate: g(0), continuity of g at 0 and its degree (block degree = that + 1).

* the large-scale limit (recession profile, :mod:`leanbridge.recession`): p = lim σ(t)/t and
  q = lim σ(−t)/t as t → ∞, and whether σ is bounded; for a gate, g(z) + g(−z) = c.

From these facts it lists the applicable arguments (``degree``, ``linearisation``,
``even_parity``, ``recession``: the ones that give ``never``; ``odd_linear_parity`` and
``gate_parity``: ``conditional``; ``recession_relu``: the S-condition is *necessary*) and a
verdict (``never``, ``conditional``, ``undetermined``), each with reasons that quote the
computed facts.

An identity is *proved* only when SymPy simplifies the difference to 0; a numeric check at
sample points only ever *refutes* one. When the numbers agree but SymPy cannot simplify, the
fact is reported as unknown and no argument is claimed on it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import sympy as sp

from leanbridge import recession as recession_mod
from leanbridge.families import CATALOG, Family, Z
from leanbridge.lean import library
from leanbridge.halfline import (
    P,
    finite_real,
    jet_at_0,
    linear_coefficient,
    power_law,
    real_on_samples,
    restrict,
    zero_test,
)

#: Argument names, in the order they are reported.
DEGREE = "degree"
LINEARISATION = "linearisation"
EVEN_PARITY = "even_parity"
ODD_LINEAR_PARITY = "odd_linear_parity"
#: σ(tz)/t → 0 (bounded or sublinear σ): never (R2).
RECESSION = "recession"
#: σ(tz)/t → relu z: the S-condition is necessary (R3); with the odd-linear identity, the iff.
RECESSION_RELU = "recession_relu"
#: g(z) + g(−z) = c ≠ 0: the gated sign-flip construction (sufficiency only).
GATE_PARITY = "gate_parity"
NEVER_ARGUMENTS = (DEGREE, LINEARISATION, EVEN_PARITY, RECESSION)

#: Necessity of the S-condition for a conditional verdict.
NECESSITY_PROVED = "proved"
NECESSITY_OPEN = "open"
NECESSITY_NOT_PROVEN = "not proven"

#: Verdicts.
NEVER = "never"
CONDITIONAL = "conditional"
UNDETERMINED = "undetermined"


# --------------------------------------------------------------------------------------------
# Facts about one scalar function (σ or g)
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ScalarFacts:
    """What SymPy established about a scalar function f: ℝ → ℝ (σ or a gate g)."""

    expr: sp.Expr
    problem: str | None            # why the analysis cannot proceed (not real, undefined at 0)
    value_at_0: sp.Expr | None
    slope_right: sp.Expr | None
    slope_left: sp.Expr | None
    limit_right: sp.Expr | None    # lim_{z→0+} f(z)
    limit_left: sp.Expr | None     # lim_{z→0−} f(z)
    degree: sp.Expr | None         # positive homogeneity degree
    zero_function: bool            # f ≡ 0
    odd_coefficient: sp.Expr | None
    odd_part: sp.Expr              # f(p) − f(−p), p > 0
    odd_proved: bool | None
    even_coefficient: sp.Expr | None = None   # k with f(z) + f(−z) = k·|z| for all z (SymPy)

    @property
    def flat_at_0(self) -> bool | None:
        """f(0) = 0 and both one-sided slopes are 0 (f = o(z) at 0)."""
        if self.value_at_0 is None:
            return None
        if self.value_at_0 != 0 or self.continuous_at_0 is False:
            return False
        slopes = (self.slope_right, self.slope_left)
        if any(s is not None and s != 0 for s in slopes):
            return False
        if any(s is None for s in slopes):
            return None
        return True

    @property
    def continuous_at_0(self) -> bool | None:
        if self.value_at_0 is None:
            return None
        limits = (self.limit_right, self.limit_left)
        if any(lim is not None and lim != self.value_at_0 for lim in limits):
            return False
        if any(lim is None for lim in limits):
            return None
        return True

    @property
    def even(self) -> bool | None:
        if self.odd_coefficient is not None:
            return self.odd_coefficient == 0
        return None if self.odd_proved is None else False


def _one_side(half: sp.Expr, value0: sp.Expr) -> tuple[sp.Expr | None, sp.Expr | None]:
    """(limit at 0 from this side, one-sided derivative of f at 0 from this side in p)."""
    limit, slope = jet_at_0(half)
    if limit is None or slope is None:
        return limit, None
    if zero_test(sp.sympify(limit - value0)) is not True:
        return limit, None  # f jumps at 0: no finite one-sided derivative
    return limit, slope


@functools.lru_cache(maxsize=4096)
def scalar_facts(expr: sp.Expr) -> ScalarFacts:
    """Compute :class:`ScalarFacts` for ``expr`` in ``z`` (cached: the computation is pure)."""
    value0 = expr.subs(Z, 0)
    empty = dict(value_at_0=None, slope_right=None, slope_left=None, limit_right=None,
                 limit_left=None, degree=None, zero_function=False, odd_coefficient=None,
                 odd_part=sp.Integer(0), odd_proved=None)
    right, left = restrict(expr, 1), restrict(expr, -1)
    if not (real_on_samples(right) and real_on_samples(left)):
        return ScalarFacts(expr, "it is not real-valued on all of ℝ (complex values at sample "
                                 "points)", **empty)
    if not finite_real(value0):
        return ScalarFacts(expr, f"the formula is undefined at z = 0 (SymPy gives {value0}); "
                                 "an activation must be a function ℝ → ℝ", **empty)
    degrees = (power_law(right), power_law(left))
    zero_function = degrees == ("zero", "zero") and value0 == 0
    powers = [d for d in degrees if d != "zero"]
    degree = None
    if None not in degrees and powers and all(d == powers[0] for d in powers):
        k = powers[0]
        if value0 == 0 or k == 0:  # f(t·0) = t^k f(0) forces f(0) = 0 unless k = 0
            degree = k
    odd = sp.expand(right - left)
    c, proved = linear_coefficient(odd)
    k, even_proved = linear_coefficient(sp.expand(right + left))
    limit_right, slope_right = _one_side(right, value0)
    limit_left, slope_left = _one_side(left, value0)
    return ScalarFacts(
        expr=expr,
        problem=None,
        value_at_0=value0,
        slope_right=slope_right,
        slope_left=None if slope_left is None else -slope_left,
        limit_right=limit_right,
        limit_left=limit_left,
        degree=degree,
        zero_function=zero_function,
        odd_coefficient=c,
        odd_part=odd,
        odd_proved=proved,
        even_coefficient=k if even_proved and value0 == 0 else None,
    )


# --------------------------------------------------------------------------------------------
# Arguments and verdict
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Argument:
    """One applicable argument, with the reasons (computed facts) it rests on."""

    name: str
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class Analysis:
    """The analysis of one family: facts, applicable arguments, verdict and reasons."""

    family: Family
    facts: ScalarFacts
    arguments: tuple[Argument, ...]
    verdict: str
    necessity_proven: bool | None
    reasons: tuple[str, ...]
    same_as: str | None = None     # conditional only: the catalog family with the same function
    recession: "recession_mod.Recession | None" = None   # ungated σ only
    gate_parity: sp.Expr | None = None                   # gated: c with g(z) + g(−z) = c ≠ 0
    #: conditional, ungated: k ≠ 0 with σ(z) + σ(−z) = k·|z| when the kink argument (paper
    #: Thm 8's proof, recession.md §6) is what makes the S-condition necessary
    kink: sp.Expr | None = None

    @property
    def necessity(self) -> str | None:
        """For a conditional verdict: is the S-condition also necessary? ``proved`` (a
        theorem, for nondegenerate weights), ``open`` (gate parity: nobody knows) or
        ``not proven``; None for other verdicts."""
        if self.verdict != CONDITIONAL:
            return None
        if self.necessity_proven:
            return NECESSITY_PROVED
        return NECESSITY_OPEN if self.family.gated else NECESSITY_NOT_PROVEN

    @property
    def s_condition_necessary(self) -> bool:
        """The S-condition is necessary (nondegenerate weights): σ(tz)/t → relu z, whatever the
        verdict (R3), or the kink argument of a conditional σ = a·z + b·|z| (recession.md §6)."""
        return RECESSION_RELU in self.argument_names or self.kink is not None

    @property
    def argument_names(self) -> list[str]:
        return [a.name for a in self.arguments]

    @property
    def block_degree(self) -> sp.Expr | None:
        """Homogeneity degree of the whole block (gated: degree of g plus one)."""
        k = self.facts.degree
        if k is None:
            return None
        return k + 1 if self.family.gated else k

    def to_dict(self) -> dict:
        """JSON-ready dictionary (numbers as int/float, exact values as strings in ``exact``)."""
        f = self.facts
        data = {
            "name": self.family.name,
            "display": self.family.display,
            "expression": str(self.family.expr),
            "gated": self.family.gated,
            "verdict": self.verdict,
            "arguments": self.argument_names,
            "argument_reasons": {a.name: list(a.reasons) for a in self.arguments},
            "homogeneity_degree": _number(self.block_degree),
            "odd_coefficient": None if self.family.gated else _number(f.odd_coefficient),
            "value_at_0": _number(f.value_at_0),
            "slope_at_0": {"right": _number(f.slope_right), "left": _number(f.slope_left)},
            "flat_at_0": f.flat_at_0,
            "even": None if self.family.gated else f.even,
            "necessity_proven": self.necessity_proven,
            "same_as": self.same_as,
            "reasons": list(self.reasons),
            "exact": {
                "homogeneity_degree": _exact(self.block_degree),
                "odd_coefficient": None if self.family.gated else _exact(f.odd_coefficient),
                "value_at_0": _exact(f.value_at_0),
                "slope_right": _exact(f.slope_right),
                "slope_left": _exact(f.slope_left),
            },
            "source": self.family.source,
            "s_condition_lean": s_condition_theorems(self),
            "necessity": self.necessity,
            "s_condition_necessary": self.s_condition_necessary,
            "never_lean": never_theorems(self),
        }
        if self.recession is not None:
            data["recession"] = self.recession.to_dict()
        if self.family.gated:
            data["gate_parity"] = _exact(self.gate_parity)
        else:
            # k in σ(z) + σ(−z) = k·|z| when the kink argument gives necessity (else null)
            data["kink"] = _exact(self.kink)
        if self.family.gated:
            data["gate"] = {
                "value_at_0": _number(f.value_at_0),
                "continuous_at_0": f.continuous_at_0,
                "homogeneity_degree": _number(f.degree),
                "block_degree": _number(self.block_degree),
            }
        return data


def _number(value: sp.Expr | None) -> int | float | None:
    if value is None:
        return None
    if value.is_Integer:
        return int(value)
    return float(value)


def _exact(value: sp.Expr | None) -> str | None:
    return None if value is None else str(value)


def _fmt(value: sp.Expr | None) -> str:
    return "unknown" if value is None else sp.sstr(value)


def factor_text(c: sp.Expr) -> str:
    """``c`` as a factor in text: bracketed when it is a sum (``(1 + sqrt(2))·z``, not
    ``1 + sqrt(2)·z``)."""
    text = sp.sstr(c)
    return f"({text})" if isinstance(c, sp.Add) else text


def times_z(c: sp.Expr) -> str:
    """``c·z`` in text (``z`` when c = 1), with ``c`` bracketed as a factor."""
    return "z" if c == 1 else f"{factor_text(c)}·z"


def power_text(k: sp.Expr | None) -> str:
    """An exponent in text: bracketed unless it is an integer or a symbol (``t^(3/2)``)."""
    if k is None:
        return "unknown"
    text = sp.sstr(k)
    return text if k.is_Integer or k.is_Symbol else f"({text})"


def minus_inverse_identity(c: sp.Expr) -> str:
    """The right-hand side −(1/c)·I_d of the S-condition, as text (−I_d when c = 1)."""
    if c == 1:
        return "−I_d"
    inverse = sp.sstr(1 / c)
    if not (1 / c).is_Atom:
        inverse = f"({inverse})"
    return f"−{inverse}·I_d"


def _degree_argument(family: Family, facts: ScalarFacts) -> tuple[Argument | None, str]:
    k = facts.degree
    what = "g" if family.gated else "σ"
    if k is None:
        if facts.zero_function:
            return None, f"{what} ≡ 0 is homogeneous of every degree (no single degree reported)"
        return None, (f"{what} is not positively homogeneous: on z = p or z = −p (p > 0) it is "
                      "not of the form C·p^k with one k")
    if family.gated:
        block = k + 1
        if block == 1:
            return None, (f"g is positively homogeneous of degree {_fmt(k)}, so the block has "
                          "degree 1 — the same as the skip; the degree argument does not apply")
        return Argument(DEGREE, (
            f"g(t·z) = t^{power_text(k)}·g(z) for all t > 0 (SymPy: g(p) and g(−p) are "
            f"constant multiples of p^{power_text(k)})",
            f"so the gated block is positively homogeneous of degree {_fmt(k)} + 1 = "
            f"{_fmt(block)} ≠ 1, while the skip A x has degree 1: comparing x with 2·x forces "
            "A = 0 (paper Prop 5)",
        )), ""
    if k == 1:
        return None, ("σ is positively homogeneous of degree 1 — the same as the skip; the "
                      "degree argument does not apply")
    return Argument(DEGREE, (
        f"σ(t·z) = t^{power_text(k)}·σ(z) for all t > 0 (SymPy: σ(p) and σ(−p) are constant "
        f"multiples of p^{power_text(k)})",
        f"so the block is positively homogeneous of degree {_fmt(k)} ≠ 1, while the skip A x "
        "has degree 1: comparing x with 2·x forces A = 0 (paper Prop 5)",
    )), ""


def _linearisation_argument(family: Family, facts: ScalarFacts) -> tuple[Argument | None, str]:
    if family.gated:
        value, continuous = facts.value_at_0, facts.continuous_at_0
        if value != 0:
            return None, f"g(0) = {_fmt(value)} ≠ 0, so the gated block is linear at 0, not o(|x|)"
        if continuous is not True:
            state = "unknown" if continuous is None else "false"
            return None, f"g(0) = 0 but continuity of g at 0 is {state}"
        return Argument(LINEARISATION, (
            f"g(0) = 0 and g is continuous at 0 (one-sided limits {_fmt(facts.limit_left)} and "
            f"{_fmt(facts.limit_right)})",
            "so each hidden unit g(W_gate x)·(W_val x) is o(|x|) and every gated block of this "
            "kind is o(|x|) at 0, while x + block(x) has derivative I there (paper Prop 6, "
            "generalised: continuity of g at 0 replaces differentiability)",
        )), ""
    flat = facts.flat_at_0
    if flat is True:
        return Argument(LINEARISATION, (
            f"σ(0) = 0 and both one-sided slopes at 0 are 0 (right {_fmt(facts.slope_right)}, "
            f"left {_fmt(facts.slope_left)}), i.e. σ(z) = o(z) at 0",
            "so every block W_down σ(W_up x) is o(|x|) at 0, while x + block(x) is not "
            "(linearisation at the origin, paper Prop 6 in its ungated form)",
        )), ""
    if flat is None:
        return None, (f"flatness of σ at 0 is unknown: σ(0) = {_fmt(facts.value_at_0)}, slopes "
                      f"right {_fmt(facts.slope_right)}, left {_fmt(facts.slope_left)}")
    return None, (f"σ is not flat at 0: σ(0) = {_fmt(facts.value_at_0)}, slopes right "
                  f"{_fmt(facts.slope_right)}, left {_fmt(facts.slope_left)}")


def _parity_arguments(family: Family, facts: ScalarFacts) -> tuple[list[Argument], str]:
    if family.gated:
        return [], "parity arguments are for ungated blocks only"
    c = facts.odd_coefficient
    if c is None:
        if facts.odd_proved is None:
            return [], ("σ(z) − σ(−z) could not be decided: it matches c·z at the sample points "
                        "or SymPy could not evaluate it, but no identity was proved")
        return [], (f"σ(z) − σ(−z) = {sp.sstr(facts.odd_part.subs(P, Z))} for z > 0 is not a "
                    "constant multiple of z")
    if c == 0:
        return [Argument(EVEN_PARITY, (
            "σ(−z) = σ(z) for all z (SymPy: σ(p) − σ(−p) simplifies to 0)",
            "so every block is even in x, and x + block(x) = block'(x) at x and −x gives "
            "2x = 0: never absorbable for d ≥ 1",
        ))], ""
    return [Argument(ODD_LINEAR_PARITY, (
        f"σ(z) − σ(−z) = {times_z(c)} for all z (SymPy)",
        f"so negating the rows of W_up in an index set S turns units into linear terms: the "
        f"skip is absorbed whenever W_down[:,S] W_up[S,:] = {minus_inverse_identity(c)} "
        "(sufficient for every such σ; paper Thm 8/10 'if' direction)",
    ))], ""


def _recession_argument(family: Family, rec: "recession_mod.Recession | None"
                        ) -> tuple[Argument | None, str]:
    if family.gated:
        return None, ""
    if rec is None or rec.profile == recession_mod.UNKNOWN:
        why = rec.reason if rec is not None else "not computed"
        return None, f"recession: unknown ({why})"
    if rec.profile == recession_mod.ZERO:
        names = _zero_profile_names(family, rec)
        bounded = ("σ is bounded" if rec.bounded else "σ is sublinear"
                   if rec.bounded is False else "boundedness of σ unknown")
        return Argument(RECESSION, (
            f"σ(t)/t → 0 and σ(−t)/t → 0 as t → ∞ (sympy.limit; {bounded}), so "
            "σ(t·z)/t → 0 for every z",
            "evaluating A x + W_down σ(W_up x) = V_down σ(V_up x) at t·x and dividing by t "
            "gives A x = 0 as t → ∞: no block absorbs a skip A ≠ 0, for any d, n and weights "
            "(the large-scale limit, R2, a result of this project, recession.md)",
            *(f"in Lean ({NOT_COMPILED}): {name}" for name in names),
        )), ""
    if rec.profile == recession_mod.RELU:
        return Argument(RECESSION_RELU, (
            "σ(t)/t → 1 and σ(−t)/t → 0 as t → ∞ (sympy.limit), so σ(t·z)/t → relu(z) for "
            "every z; the identity at t·x divided by t gives, as t → ∞, a ReLU block absorbing "
            "the skip with the same weights (R1)",
            "so for nondegenerate weights the S-condition W_down[:,S] W_up[S,:] = −I_d is "
            f"necessary (R3, recession.md; in Lean, {NOT_COMPILED}: "
            f"{library.RECESSION_LEAN['necessity']})",
        )), ""
    return None, rec.text


def _zero_profile_names(family: Family, rec: "recession_mod.Recession") -> list[str]:
    """The Lean theorems behind a `never` from σ(tz)/t → 0."""
    names = []
    twin = next((known.name for known in CATALOG if known.name in library.BOUNDED_FAMILIES
                 and known.gated == family.gated and known.expr == family.expr), None)
    if twin is not None:   # the catalog's tanh or sigmoid, or a user's family with its formula
        bounded = library.BOUNDED_FAMILIES[twin]
        names += [bounded["never"] + " (any d, n and weights)",
                  bounded["biased_never"] + " (with biases)"]
    names.append(library.RECESSION_LEAN["sublinear"] + " (σ(t·z)/t → 0)")
    if rec.bounded:
        names += [library.RECESSION_LEAN["bounded"] + " (σ bounded)",
                  library.RECESSION_LEAN["biased_bounded"] + " (σ bounded, with biases)"]
    return names


def _gate_parity_argument(family: Family) -> tuple[Argument | None, sp.Expr | None, str]:
    if not family.gated:
        return None, None, ""
    c, proved = recession_mod.gate_parity(family.expr)
    if c is None:
        state = "could not be decided" if proved is None else "is not a constant"
        return None, None, f"g(z) + g(−z) {state}"
    if c == 0:
        return None, None, "g(z) + g(−z) = 0 (g is odd): the gate sign flip gives nothing"
    return Argument(GATE_PARITY, (
        f"g(z) + g(−z) = {_fmt(c)} for all z (SymPy)",
        "so negating the rows of W_gate and the columns of W_down in an index set S (W_val "
        "kept) turns units into linear terms: the skip is absorbed whenever W_down[:,S] "
        f"W_val[S,:] = {minus_inverse_identity(c)} (gate parity, recession.md §8, a result of "
        "this project)",
        f"in Lean ({NOT_COMPILED}): {library.RECESSION_LEAN['gate_parity']}",
    )), c, ""


#: Said wherever a Lean name is cited: nothing in ``lean/`` has been compiled here.
NOT_COMPILED = "not compiled: no Lean toolchain here"


def _relu_library_lines() -> list[str]:
    """What the Lean library states about ReLU's S-condition and the absorbing width, as
    ``analyse``, ``absorb`` and the generated family files say it."""
    lean = library.RELU_LEAN
    return [
        f"in Lean ({NOT_COMPILED}): for nondegenerate weights the condition is necessary and "
        f"sufficient, any d ({lean['characterisation']})",
        f"in Lean ({NOT_COMPILED}): |S| ≥ d ({lean['card']})",
        f"in Lean ({NOT_COMPILED}): the condition holds on a null set of W_down for a fixed "
        f"W_up ({lean['measure_zero']}), and on a null set of pairs (W_up, W_down) "
        f"({lean['measure_zero_joint']})",
        f"beyond the paper, in Lean ({NOT_COMPILED}): for nondegenerate weights, an absorbing "
        "ReLU block of any width n′ has n′ ≥ n + rank(I + W_down[:,S] W_up[S,:]) for some S "
        f"({lean['width_rank_bound']}); (ND): that matrix is invertible for every S",
        f"minimal absorbing width (beyond the paper; in Lean, {NOT_COMPILED}): n when the "
        f"S-condition holds ({lean['sufficiency']}), and no less for nondegenerate weights "
        f"({lean['width_self']})",
        "minimal absorbing width under (ND), for nondegenerate weights (in Lean, not compiled): "
        f"n + d is needed ({lean['width_lower']}); n + d suffices (any weights) when some d "
        f"rows of W_up are linearly independent ({lean['width_upper']})",
    ]


def _recession_library_lines(family: Family) -> list[str]:
    """What the Lean library states about an activation with σ(tz)/t → relu z and
    σ(z) − σ(−z) = z: the characterisation (catalog families: their own theorems; a user's
    activation: the general one, whose premise SymPy verified)."""
    own = library.RECESSION_FAMILIES.get(family.name, {}) if _is_catalog(family) else {}
    if "characterisation" in own:
        return [
            f"in Lean ({NOT_COMPILED}): for nondegenerate weights the condition is necessary "
            f"and sufficient, any d ({own['characterisation']}), by the large-scale limit "
            f"({own['recession']})",
            f"in Lean ({NOT_COMPILED}): for an invertible skip A, nondegenerate weights, "
            f"absorbable iff W_down[:,S] W_up[S,:] = −A for some S "
            f"({own['characterisation_skip']})",
            f"with biases (R4, in Lean, {NOT_COMPILED}): a biased block absorbs its identity "
            "skip (the absorbing block with biases of its own) iff the same S-condition holds "
            f"({own['biased_characterisation']})",
        ]
    return [f"in Lean ({NOT_COMPILED}): for nondegenerate weights the condition is necessary "
            f"and sufficient, any d ({library.RECESSION_LEAN['characterisation']}), with the "
            "premise σ(t·z)/t → relu(z) verified by SymPy (a named hypothesis in the generated "
            "Lean file)",
            f"in Lean ({NOT_COMPILED}): for an invertible skip A, nondegenerate weights, "
            f"absorbable iff W_down[:,S] W_up[S,:] = −A for some S "
            f"({library.RECESSION_LEAN['characterisation_skip']}), with the same premise"]


def _kink_library_line(family: Family) -> str:
    """What the Lean library states for σ with σ(z) − σ(−z) = c·z and σ(z) + σ(−z) = k·|z|:
    the catalog's Leaky ReLU its own characterisation, others the general one."""
    own = library.KINK_FAMILIES.get(family.name, {}) if _is_catalog(family) else {}
    if "characterisation" in own:
        return (f"in Lean ({NOT_COMPILED}): for nondegenerate weights the condition is "
                f"necessary and sufficient, any d ({own['characterisation']})")
    return (f"in Lean ({NOT_COMPILED}): for nondegenerate weights the condition is necessary "
            f"and sufficient, any d ({library.KINK_LEAN['characterisation']}), with the two "
            "identities verified by SymPy as its hypotheses")


def _is_catalog(family: Family) -> bool:
    return any(f == family for f in CATALOG)


def _relu_like(family: Family, same_as: str | None) -> bool:
    """Whether the family is ReLU (or a user's family with ReLU's function): the Lean
    characterisation (necessity, |S| ≥ d, measure zero) is stated for ReLU only."""
    return family.name == "relu" and family in CATALOG or same_as == "relu"


def s_condition_theorems(analysis: "Analysis") -> dict[str, str]:
    """The Lean declarations behind the S-condition of a conditional verdict, by role (empty
    for other verdicts): sufficiency always; for ReLU also necessity, |S| ≥ d, measure zero
    and the width bounds beyond the paper; necessity and the characterisation where the
    large-scale limit or the kink argument gives them."""
    if analysis.verdict != CONDITIONAL:
        return {}
    if analysis.family.gated:
        name = (library.GATE_PARITY_FAMILIES.get(analysis.family.name)
                if _is_catalog(analysis.family) else None)
        names = {"sufficiency": library.RECESSION_LEAN["gate_parity"]}
        if name:
            names["sufficiency_family"] = name
        return names
    lean = library.RELU_LEAN
    names = {"sufficiency": lean["sufficiency"]}
    if _relu_like(analysis.family, analysis.same_as):
        names.update((role, lean[role]) for role in (
            "necessity", "characterisation", "characterisation_skip", "card", "measure_zero",
            "measure_zero_joint", "width_rank_bound", "width_upper", "width_self",
            "width_lower", "width_iff", "nondegenerate"))
        names["biased_characterisation"] = library.RECESSION_FAMILIES["relu"][
            "biased_characterisation"]
    elif RECESSION_RELU in analysis.argument_names:
        names.update(_necessity_names(analysis.family, library.RECESSION_LEAN,
                                      library.RECESSION_FAMILIES))
    elif analysis.kink is not None:
        names.update(_necessity_names(analysis.family, library.KINK_LEAN, library.KINK_FAMILIES))
    return names


def _necessity_names(family: Family, general: dict[str, str],
                     catalog: dict[str, dict[str, str]]) -> dict[str, str]:
    """Nondegeneracy, the general necessity and characterisation of an argument, then a
    catalog family's own theorems (which replace the general characterisation)."""
    names = {"nondegenerate": library.RELU_LEAN["nondegenerate"],
             "necessity": general["necessity"], "characterisation": general["characterisation"]}
    names.update(catalog.get(family.name, {}) if _is_catalog(family) else {})
    return names


def never_theorems(analysis: "Analysis") -> list[str]:
    """The Lean library theorems behind a `never` from the large-scale limit (empty
    otherwise; the other never-arguments are instantiated in the family files)."""
    if analysis.verdict != NEVER or RECESSION not in analysis.argument_names:
        return []
    return [name.split(" (", 1)[0]
            for name in _zero_profile_names(analysis.family, analysis.recession)]


def _catalog_twin(family: Family) -> Family | None:
    """The conditional catalog family with the same function as a user's family, if any
    (it decides whether the paper's necessity result covers the user's activation)."""
    if family.name in {f.name for f in CATALOG}:
        return None
    for known in CATALOG:
        if known.gated != family.gated or not known.necessity_proven:
            continue
        if known.expr == family.expr or all(
                zero_test(restrict(family.expr - known.expr, s)) is True for s in (1, -1)):
            return known
    return None


@functools.lru_cache(maxsize=1024)
def analyse(family: Family) -> Analysis:
    """Analyse a family: which arguments apply, the verdict, and the reasons (cached)."""
    facts = scalar_facts(family.expr)
    if facts.problem is not None:
        return Analysis(family, facts, (), UNDETERMINED, None, (
            f"undetermined: {family.role} = {family.expr}: {facts.problem}",))

    arguments: list[Argument] = []
    not_applying: list[str] = []
    for build in (_degree_argument, _linearisation_argument):
        argument, why_not = build(family, facts)
        if argument is not None:
            arguments.append(argument)
        else:
            not_applying.append(why_not)
    parity, why_not = _parity_arguments(family, facts)
    arguments.extend(parity)
    if not parity:
        not_applying.append(why_not)
    rec = None if family.gated else recession_mod.recession(family.expr)
    argument, why_not = _recession_argument(family, rec)
    if argument is not None:
        arguments.append(argument)
    elif why_not:
        not_applying.append(why_not)
    argument, gate_c, why_not = _gate_parity_argument(family)
    if argument is not None:
        arguments.append(argument)
    elif why_not:
        not_applying.append(why_not)

    names = {a.name for a in arguments}
    same_as = None
    kink = None

    if names & set(NEVER_ARGUMENTS):
        verdict = NEVER
        used = ", ".join(a.name for a in arguments if a.name in NEVER_ARGUMENTS)
        reasons = [f"never: the skip cannot be absorbed for any weights ({used})"]
        necessity = None
    elif ODD_LINEAR_PARITY in names:
        verdict = CONDITIONAL
        c = facts.odd_coefficient
        twin = _catalog_twin(family)
        same_as = twin.name if twin else None
        by_paper = family.necessity_proven or twin is not None
        by_recession = RECESSION_RELU in names
        k = facts.even_coefficient
        kink = (k if not (family.gated or by_paper or by_recession) and k is not None
                and k != 0 else None)
        necessity = by_paper or by_recession or kink is not None
        reasons = [f"conditional: absorbable when some S has W_down[:,S] W_up[S,:] = "
                   f"{minus_inverse_identity(c)}"]
        if necessity and _relu_like(family, same_as):
            who = family.name if family.necessity_proven else f"{same_as} (same function)"
            reasons.append(f"necessity is proven for {who} by the paper (Thm 8), for "
                           "nondegenerate weights and d ≥ 2; the condition is non-generic "
                           "(Cor 11)")
            reasons.extend(_relu_library_lines())
            reasons.append(f"with biases (R4, in Lean, {NOT_COMPILED}): a biased block absorbs "
                           "its identity skip (the absorbing block with biases of its own) iff "
                           "the same S-condition holds ("
                           f"{library.RECESSION_FAMILIES['relu']['biased_characterisation']})")
        elif by_recession:
            paper = (" (for GELU this is the paper's Thm 10)" if "gelu" in
                     (family.name, same_as) else "")
            reasons.append("necessity is proven: σ(t·z)/t → relu(z), so for nondegenerate "
                           "weights the condition is also necessary (the large-scale limit, "
                           f"R3, a result of this project){paper}")
            reasons.extend(_recession_library_lines(family))
        elif kink is not None:
            reasons.append("necessity is proven: also σ(z) + σ(−z) = "
                           f"{'|z|' if kink == 1 else factor_text(kink) + '·|z|'} "
                           "for all z (SymPy), so paper Thm 8's kink argument carries over: for "
                           "nondegenerate weights the condition is also necessary (recession.md "
                           "§6, a result of this project)")
            reasons.append(_kink_library_line(family))
        elif necessity:
            reasons.append(f"necessity is proven for {same_as} (same function) by the paper "
                           "(Thm 10), for nondegenerate weights and d ≥ 2")
        else:
            reasons.append("necessity is not proven for this activation: the condition is "
                           "sufficient, but other absorbing blocks may exist")
    elif GATE_PARITY in names:
        verdict = CONDITIONAL
        necessity = False
        reasons = [f"conditional: absorbable when some S has W_down[:,S] W_val[S,:] = "
                   f"{minus_inverse_identity(gate_c)} (gate parity)",
                   "necessity: open — the large-scale limit leaves a step-gate identity "
                   "(recession.md §7–8); other absorbing blocks are not excluded"]
    else:
        verdict = UNDETERMINED
        necessity = None
        reasons = ["undetermined: SymPy established none of the arguments that decide it; "
                   "this tool cannot say whether the skip can be absorbed"]
        if RECESSION_RELU in names:
            reasons.append("the S-condition W_down[:,S] W_up[S,:] = −I_d is nevertheless "
                           "necessary for nondegenerate weights (recession_relu below); "
                           "whether such a block ever absorbs the skip is open")
    reasons.extend(r for a in arguments for r in a.reasons)
    reasons.extend(f"not used: {r}" for r in not_applying if r)
    return Analysis(family, facts, tuple(arguments), verdict, necessity, tuple(reasons),
                    same_as=same_as, recession=rec, gate_parity=gate_c, kink=kink)
