"""Certificates: the data a Lean proof of a premise needs, produced where SymPy decides it.

When the analysis establishes a premise of one of the library's general theorems for a user's
activation σ (or gate g) —

* ``even``: σ(−z) = σ(z);
* ``odd``: σ(z) − σ(−z) = c·z;
* ``homogeneous``: σ(t·z) = t^k·σ(z) for t > 0 (k natural or real);
* ``isLittleO``: σ = o(z) at 0;
* ``tendsto``: g(z) → 0 as z → 0 —

:func:`certify` re-derives it with SymPy *in the form a Lean tactic script can replay* and
returns a :class:`Certificate`: the rule that applies, and the rule's data — the rewrite lemma
for every atom of σ(−z) (``Real.tanh (2 * (-z)) = -Real.tanh (2 * z)`` by ``Real.tanh_neg``),
the cases ``split_ifs`` will produce and the tactic that closes each (``ring1`` on an identity,
``linarith`` on an empty region, ``z = z₀`` on a one-point region), the degrees for the
``nlinarith`` hints, the decomposition of σ into homogeneous pieces, the side conditions for
``fun_prop``. Each rule has one Lean pattern, ``templates/premises/<rule>.lean.j2``, which
:mod:`leanbridge.render` fills with the certificate (reviewed by eye, not compiled:
``lean/reviews/certificates.md``).

Outside the rules' fragment :func:`certify` returns :class:`Outside` with the reason; the
generated theorem then takes the premise as a named hypothesis, and the premise is recorded as
verified by SymPy only. A proof script is never emitted without a certificate.

The rules (one module each, like SymPy's printers have one method per node):

========================  ==========================  ==============================================
rule                      premise                     fragment
========================  ==========================  ==============================================
``parity``                even, odd                   polynomials in z, ``max``/``min``/``|·|``/``if``
                                                      with linear rational conditions, and atoms
                                                      ``tanh sinh sin arctan cosh cos sigmoid exp
                                                      log`` of polynomial arguments whose negated
                                                      instances reduce by the lemma table
``homogeneous_cases``     homogeneous (k ∈ ℕ)         piecewise polynomials whose conditions are
                                                      homogeneous (``max (z ^ 3) 0``)
``homogeneous_rpow``      homogeneous (k ∉ ℕ)         ``c · B ^ p`` with B ≥ 0 homogeneous of degree 1
``little_o_homogeneous``  isLittleO                   σ homogeneous of natural degree k ≥ 2
``little_o_sum``          isLittleO                   a sum of such pieces of different degrees
``little_o_product``      isLittleO                   σ = h·z with h(0) = 0 and h continuous in the
                                                      ``tendsto_continuous`` sense (``z·tanh(2z)``)
``tendsto_continuous``    tendsto                     g(0) = 0 and g continuous by ``fun_prop``,
                                                      denominators and ``log`` arguments positive
                                                      in ``positivity``'s sense
========================  ==========================  ==============================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from leanbridge.certificates.terms import OutsideFragment

#: Premise kinds (the same strings as :mod:`leanbridge.lean.library`).
EVEN = "even"
ODD = "odd"
HOMOGENEOUS = "homogeneous"
LITTLE_O = "isLittleO"
TENDSTO = "tendsto"


@dataclass(frozen=True)
class Certificate:
    """A premise SymPy established, with what its Lean proof pattern needs."""

    rule: str                      # the rule (and template) that proves it
    premise: str                   # EVEN / ODD / HOMOGENEOUS / LITTLE_O / TENDSTO
    summary: str                   # what SymPy checked, in words
    lean_names: tuple[str, ...]    # the Lean/Mathlib names the proof script emits
    context: dict = field(default_factory=dict, compare=False, hash=False)
    modules: tuple[str, ...] = ()  # library modules the proof needs beyond the argument's

    @property
    def template(self) -> str:
        return f"premises/{self.rule}.lean.j2"


@dataclass(frozen=True)
class Outside:
    """No rule applies: the premise stays a named hypothesis (verified by SymPy only)."""

    premise: str
    reason: str
    rule: str | None = None        # the rule that was tried, if any


def certify(expr: sp.Expr, premise: str, *, degree: sp.Expr | None = None,
            c: sp.Expr | None = None) -> Certificate | Outside:
    """The certificate of ``premise`` for the activation (or gate) ``expr`` in ``z``.

    ``degree`` is the homogeneity degree and ``c`` the odd coefficient the analysis found;
    the rules re-check everything they rely on.
    """
    from leanbridge.certificates import homogeneity, little_o, parity, tendsto

    rules = {EVEN: parity.certify, ODD: parity.certify,
             HOMOGENEOUS: homogeneity.certify, LITTLE_O: little_o.certify,
             TENDSTO: tendsto.certify}
    if premise not in rules:
        raise ValueError(f"unknown premise kind {premise!r}")
    try:
        return rules[premise](expr, premise, degree=degree, c=c)
    except OutsideFragment as exc:
        return Outside(premise, str(exc))


__all__ = ["Certificate", "Outside", "certify", "EVEN", "ODD", "HOMOGENEOUS", "LITTLE_O",
           "TENDSTO"]
