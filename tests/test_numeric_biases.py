"""Biases in the S-decision (library level): the sign-flip construction with the up-bias
negated in S and c·W_down[:,S] b_up[S] added to the output bias is exact; a failed
S-condition is "not absorbable" by the large-scale limit with biases (R4) for the ReLU-like
class, tanh/sigmoid never absorb with biases, and what no theorem covers (a bias-free `never`
theorem, a skip matrix with biases) is "no decision (biases: …)"."""

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")

from leanbridge.analysis import analyse
from leanbridge.families import get_family
from leanbridge.numeric.absorb import (
    ABSORBABLE,
    NO_DECISION,
    NO_DECISION_BIASES,
    NOT_ABSORBABLE,
    absorb,
    verify,
)


def planted(d, n, seed, c):
    rng = np.random.default_rng(seed)
    W_up = rng.standard_normal((n, d)) / np.sqrt(d)
    W_down = rng.standard_normal((d, n)) / np.sqrt(n)
    S = sorted(int(i) for i in rng.choice(n, d, replace=False))
    W_down[:, S] = -np.linalg.inv(W_up[S]) / c
    return W_down, W_up, S, rng.standard_normal(n), rng.standard_normal(d)


@pytest.mark.parametrize("name", ["relu", "gelu", "gelu_tanh", "leaky_relu", "softplus"])
def test_planted_block_with_biases_is_absorbable_with_the_bias_construction(name):
    c = float(analyse(get_family(name)).facts.odd_coefficient)
    W_down, W_up, S, b_up, b_down = planted(6, 30, 1, c)
    result = absorb(get_family(name), W_down, W_up, b_up=b_up, b_down=b_down)
    assert result.verdict == ABSORBABLE and result.S == S and result.biases is True
    expected_b_up = b_up.copy()
    expected_b_up[S] *= -1
    assert np.array_equal(result.V_b_up, expected_b_up)
    assert np.allclose(result.V_b_down, b_down + c * W_down[:, S] @ b_up[S], rtol=0, atol=1e-12)
    assert result.verification["passed"] and result.verification["max_relative_error"] < 1e-12
    assert "up-bias entries in S negated" in result.summary


def test_verification_rejects_a_construction_that_forgets_the_output_bias():
    W_down, W_up, S, b_up, b_down = planted(5, 20, 2, 1.0)
    family = get_family("gelu")
    V_up = W_up.copy()
    V_up[S] *= -1
    v_b_up = b_up.copy()
    v_b_up[S] *= -1
    right = b_down + W_down[:, S] @ b_up[S]
    good = verify(family, W_down, W_up, None, W_down, V_up, 1.0, 1e-14, b_up=b_up,
                  b_down=b_down, v_b_up=v_b_up, v_b_down=right)
    assert good["passed"]
    wrong = verify(family, W_down, W_up, None, W_down, V_up, 1.0, 1e-14, b_up=b_up,
                   b_down=b_down, v_b_up=v_b_up, v_b_down=b_down)
    assert not wrong["passed"] and wrong["max_relative_error"] > 1e-3
    unflipped = verify(family, W_down, W_up, None, W_down, V_up, 1.0, 1e-14, b_up=b_up,
                       b_down=b_down, v_b_up=b_up, v_b_down=right)
    assert not unflipped["passed"]


@pytest.mark.parametrize("name, lean", [
    ("relu", "biasedAbsorbable_relu_iff"), ("gelu", "biasedAbsorbable_gelu_iff"),
    ("gelu_tanh", "biasedAbsorbable_geluTanh_iff"), ("silu", "biasedAbsorbable_swish_iff"),
    ("softplus", "biasedAbsorbable_softplus_iff")])
def test_failed_condition_with_biases_is_not_absorbable_by_the_large_scale_limit(name, lean):
    rng = np.random.default_rng(4)
    W_down, W_up = rng.standard_normal((6, 24)), rng.standard_normal((24, 6))
    b_up = rng.standard_normal(24)
    with_biases = absorb(get_family(name), W_down, W_up, b_up=b_up)
    assert with_biases.verdict == NOT_ABSORBABLE and with_biases.blockers == []
    assert f"(R4; Lean: SkipAbsorption.{lean}: nondegenerate weights" in with_biases.summary
    assert with_biases.distance["relative"] > 0.05
    assert absorb(get_family(name), W_down, W_up).verdict == NOT_ABSORBABLE
    zero = absorb(get_family(name), W_down, W_up, b_up=np.zeros(24), b_down=np.zeros(6))
    assert zero.verdict == NOT_ABSORBABLE and zero.biases is False
    assert "R4" not in zero.summary


def test_biases_with_a_skip_matrix_stay_undecided():
    """The biased characterisation is stated for the identity skip only."""
    rng = np.random.default_rng(6)
    W_down, W_up = rng.standard_normal((6, 24)), rng.standard_normal((24, 6))
    A = np.eye(6) + 0.1 * rng.standard_normal((6, 6))
    result = absorb(get_family("gelu"), W_down, W_up, A, b_up=rng.standard_normal(24))
    assert result.verdict == NO_DECISION and result.blockers == ["biases"]
    assert result.summary.startswith(NO_DECISION_BIASES)
    assert "identity skip only" in result.summary
    assert absorb(get_family("gelu"), W_down, W_up, A).verdict == NOT_ABSORBABLE


@pytest.mark.parametrize("name", ["tanh", "sigmoid"])
def test_bounded_family_with_biases_is_never_absorbable(name):
    rng = np.random.default_rng(5)
    W_down, W_up = rng.standard_normal((4, 8)), rng.standard_normal((8, 4))
    result = absorb(get_family(name), W_down, W_up, b_up=np.ones(8), b_down=np.ones(4))
    assert result.verdict == NOT_ABSORBABLE and result.numerics is False
    assert result.blockers == [] and result.biases is True
    assert f"SkipAbsorption.not_biasedAbsorbable_{name}" in result.summary
    assert "biases or not" in result.summary


def test_never_family_with_biases_outside_the_large_scale_limit_is_no_decision():
    """ReLU²'s degree argument is for bias-free blocks: with biases, no theorem decides."""
    rng = np.random.default_rng(5)
    W_down, W_up = rng.standard_normal((4, 8)), rng.standard_normal((8, 4))
    result = absorb(get_family("relu2"), W_down, W_up, b_down=np.ones(4))
    assert result.verdict == NO_DECISION and result.blockers == ["biases"]
    assert result.summary.startswith(NO_DECISION_BIASES) and result.numerics is False
    assert absorb(get_family("relu2"), W_down, W_up).verdict == NOT_ABSORBABLE


def test_bias_of_the_wrong_length_is_refused():
    W_down, W_up, _, _, _ = planted(3, 9, 0, 1.0)
    with pytest.raises(ValueError, match="b_up has shape"):
        absorb(get_family("relu"), W_down, W_up, b_up=np.ones(3))
