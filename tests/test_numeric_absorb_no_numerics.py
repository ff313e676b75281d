"""`absorb` where the answer does not depend on the weights (`absorb_without_numerics`): a zero
skip, `never` families with and without biases (bounded ones decided with biases too), gated
`conditional` families and `undetermined` ones. Every field the JSON report carries is checked,
not only the verdict: blockers, the bias flag, the analysis' reasons (its "not used:" lines
left out), that no numerics ran, and the summary's claim."""

import pytest

from leanbridge.analysis import CONDITIONAL, NEVER, UNDETERMINED, analyse
from leanbridge.families import Family, Z, get_family
from leanbridge.numeric.absorb import (
    ABSORBABLE,
    NO_DECISION,
    NOT_ABSORBABLE,
    absorb_without_numerics,
)

CUBIC = Family("cubic", "z³ + z", False, Z**3 + Z, "test", "user")   # undetermined


def used_reasons(family):
    return [r for r in analyse(family).reasons if not r.startswith("not used:")]


def check_common(result, family, verdict, blockers, biases):
    assert result.family is family
    assert result.analysis.verdict == analyse(family).verdict
    assert result.verdict == verdict
    assert result.blockers == blockers
    assert result.biases is biases
    assert result.numerics is False
    assert result.decision is None and result.S is None and result.V_up is None
    assert result.reasons == used_reasons(family) and result.reasons
    data = result.to_dict()
    assert data["activation"] == family.name
    assert data["analysis_verdict"] == analyse(family).verdict
    assert (data["verdict"], data["blockers"], data["biases"], data["numerics"]) == \
        (verdict, blockers, biases, False)
    assert data["reasons"] == result.reasons
    assert "decision" not in data and "S" not in data


@pytest.mark.parametrize("biases", [False, True])
def test_a_zero_skip_is_absorbable_trivially_for_any_family(biases):
    family = get_family("relu2")                      # a `never` family: the skip must be 0
    result = absorb_without_numerics(family, True, biases)
    check_common(result, family, ABSORBABLE, [], biases)
    assert result.summary == ("absorbable trivially: the skip matrix is 0, so the block is "
                              "already residual-free")


def test_a_never_family_is_not_absorbable_for_any_weights():
    family = get_family("relu2")
    assert analyse(family).verdict == NEVER
    result = absorb_without_numerics(family)
    check_common(result, family, NOT_ABSORBABLE, [], False)
    assert result.summary == ("not absorbable for any weights: ReLU² is a 'never' family "
                              "(degree, linearisation); no numerics needed")


def test_a_never_family_with_biases_is_no_decision_unless_bounded():
    """ReLU²'s theorems are for bias-free blocks: biases block the decision; tanh is bounded,
    so R2 with biases decides it."""
    relu2 = get_family("relu2")
    result = absorb_without_numerics(relu2, None, True)
    check_common(result, relu2, NO_DECISION, ["biases"], True)
    assert result.summary.startswith("no decision (biases")
    assert "ReLU² is a 'never' family (degree, linearisation) for bias-free blocks" in \
        result.summary

    tanh = get_family("tanh")
    result = absorb_without_numerics(tanh, None, True)
    check_common(result, tanh, NOT_ABSORBABLE, [], True)
    assert result.summary.startswith("not absorbable for any weights, biases or not: tanh is "
                                     "bounded")
    assert "SkipAbsorption.not_biasedAbsorbable_tanh" in result.summary


@pytest.mark.parametrize("biases", [False, True])
def test_a_gated_conditional_family_is_no_decision(biases):
    family = get_family("glu")
    assert family.gated and analyse(family).verdict == CONDITIONAL
    result = absorb_without_numerics(family, None, biases)
    check_common(result, family, NO_DECISION, ["undetermined"], biases)
    assert result.summary == ("no decision: the S-condition is implemented for ungated blocks "
                              "only")


@pytest.mark.parametrize("biases", [False, True])
def test_an_undetermined_family_is_no_decision_and_says_why(biases):
    result = absorb_without_numerics(CUBIC, None, biases)
    assert analyse(CUBIC).verdict == UNDETERMINED
    assert any(r.startswith("not used:") for r in analyse(CUBIC).reasons)   # filtered out
    check_common(result, CUBIC, NO_DECISION, ["undetermined"], biases)
    assert result.summary == ("no decision possible: none of the paper's arguments applies to "
                              "z³ + z (analysis verdict 'undetermined'), so neither "
                              "absorbability nor its impossibility can be concluded")


def test_the_default_is_a_bias_free_block_with_its_skip():
    family = get_family("relu2")
    assert absorb_without_numerics(family).verdict == NOT_ABSORBABLE
    assert absorb_without_numerics(family, None).biases is False
    assert absorb_without_numerics(get_family("glu")).biases is False
