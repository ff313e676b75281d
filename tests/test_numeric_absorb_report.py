"""What `absorb` reports besides its verdict, field by field (mutation survivors of issue 21):
the exact rescaling of weights near 1e±300 and the residuals in the original units, the
magnitude argument when the products are negligible, the verification veto's edges, the
blockers' codes and texts, the timings, the skip's singular values, biases on rescaled blocks."""

import math
import time

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")

from leanbridge.expression import user_family
from leanbridge.families import get_family
from leanbridge.numeric import absorb as absorb_mod
from leanbridge.numeric.absorb import (
    ABSORBABLE,
    NO_DECISION,
    NOT_ABSORBABLE,
    REL_TOL,
    SDecision,
    absorb,
    tolerance,
)
from blocks import random_block

RELU = get_family("relu")
#: σ(z) = z + z²: σ(z) − σ(−z) = 2z, and no theorem makes the S-condition necessary
LIN_QUAD = user_family("z + z**2", "lin_quad")


def planted(d, n, seed, A=None, c=1.0):
    """Weights with W_down[:,S] W_up[S,:] = −A/c (A = I by default) for a random S, |S| = d."""
    rng = np.random.default_rng(seed)
    W_up = rng.standard_normal((n, d)) / np.sqrt(d)
    W_down = rng.standard_normal((d, n)) / np.sqrt(n)
    S = sorted(int(i) for i in rng.choice(n, d, replace=False))
    W_down[:, S] = -(np.eye(d) if A is None else A) @ np.linalg.inv(W_up[S]) / c
    return W_down, W_up, S


def exponent(array):
    """e with 2^(e−1) ≤ max |entry| < 2^e."""
    return math.frexp(float(np.max(np.abs(array))))[1]


def timed(*args, **kwargs):
    start = time.perf_counter()
    result = absorb(*args, **kwargs)
    return result, time.perf_counter() - start


# -- weights near 1e±300 -------------------------------------------------------------------------

def test_plain_weights_are_not_rescaled():
    W_down, W_up, _ = planted(4, 16, 0)
    result = absorb(RELU, W_down, W_up)
    assert result.scaling is None and result.to_dict()["scaling"] is None
    assert result.notes == []


@pytest.mark.filterwarnings("error")
def test_products_near_2_to_the_600_are_decided_at_2_to_the_250_and_reported_in_original_units():
    """W_down·2^300, W_up·2^300 against the identity skip: the products are brought to 2^250
    (within 2^±250 of the skip), the shift split between the two matrices; the least-squares
    residual min_a ‖W_down diag(a) W_up − T‖ does not depend on the scale of the products (a
    absorbs it), so in the original units it is the plain block's; the tolerance is τ of the
    scaled weights' own term sum."""
    W_down, W_up = random_block(4, 12, 3)
    plain = absorb(RELU, W_down, W_up)
    big_down, big_up = np.ldexp(W_down, 300), np.ldexp(W_up, 300)
    result = absorb(RELU, big_down, big_up)
    assert result.verdict == plain.verdict == NOT_ABSORBABLE, result.summary
    a, b = result.scaling["down_exponent"], result.scaling["up_exponent"]
    assert result.scaling == {"down_exponent": a, "up_exponent": b, "exact": True}
    assert a < 0 and b < 0 and abs(a - b) <= 1
    assert exponent(np.ldexp(big_down, a)) + exponent(np.ldexp(big_up, b)) == 250
    assert result.notes == [f"decided on W_down·2^{a} and W_up·2^{b} (the skip term times "
                            f"2^{a + b}): an exact rescaling that leaves the S-condition "
                            "unchanged; residuals and distances are reported in the original "
                            "units"]
    assert result.decision.ls_residual == pytest.approx(plain.decision.ls_residual, rel=1e-9)
    # the distance is computed at 2^250 and reported in the original units (‖T‖ = 2)
    assert 0 < result.distance["relative"] <= 1
    assert result.distance["distance"] == pytest.approx(2.0 * result.distance["relative"],
                                                        rel=1e-9)
    terms = float(np.linalg.norm(big_down, axis=0) @ np.linalg.norm(big_up, axis=1))
    assert result.decision.tolerance == pytest.approx(
        tolerance(terms, 2.0, 2.0 ** -52, 12), rel=1e-9)


@pytest.mark.filterwarnings("error")
def test_a_rescaled_search_without_a_residual_reports_none():
    """n > d² at 2^600 above the skip: the mixed-integer model is refused by HiGHS (entries far
    above 1e15 in units of ‖T‖); no residual to convert to the original units, no decision."""
    W_down, W_up = random_block(2, 7, 10)
    result = absorb(RELU, np.ldexp(W_down, 300), np.ldexp(W_up, 300))
    assert result.scaling is not None and result.decision.method == "milp-model-error"
    assert result.verdict == NO_DECISION and result.blockers == ["milp_model_error"]
    assert result.decision.residual is None


def test_a_model_highs_refuses_is_no_proof_that_no_S_exists():
    """S = {0, 1} satisfies the S-condition exactly, the other units are 1e16 times larger:
    HiGHS refuses the model ("Model error", which SciPy reports with the status of
    "infeasible"); that is no decision, not "not absorbable" (as it was)."""
    rng = np.random.default_rng(0)
    W_up, W_down = rng.standard_normal((7, 2)), rng.standard_normal((2, 7))
    W_up[:2] = np.diag([2.0, 0.5])
    W_down[:, :2] = -np.diag([0.5, 2.0])
    W_up[2:] *= 1e8
    W_down[:, 2:] *= 1e8
    result, wall = timed(RELU, W_down, W_up)
    decision = result.decision
    assert decision.found is None and decision.method == "milp-model-error"
    assert result.verdict == NO_DECISION and result.blockers == ["milp_model_error"]
    # the rest of the decision as on the other undecided paths
    assert decision.S == [] and decision.residual is None
    assert decision.tolerance > 0 and decision.ls_residual is not None
    assert decision.gram["singular"] is True and "n = 7 > d² = 4" in decision.gram["reason"]
    assert 0 <= decision.timings["milp"] <= wall
    assert result.decision.detail.startswith("not decided: HiGHS refused the mixed-integer "
                                             "model ((HiGHS Status 2: Model error)")
    assert result.summary.startswith("no decision: not decided: HiGHS refused")


@pytest.mark.parametrize("k", [400, 600])
def test_a_skip_whose_square_underflows_after_rescaling_is_no_decision(k):
    """Products 2^(2k) above an identity skip: rescaled to 2^250, the skip falls below 2^−540
    and ‖T‖² underflows to 0 — it would pass for "no skip" (S = ∅ absorbable, as it did)."""
    W_down, W_up = random_block(4, 12, 3)
    rng = np.random.default_rng(1)
    result = absorb(RELU, np.ldexp(W_down, k), np.ldexp(W_up, k),
                    b_up=rng.standard_normal(12), b_down=rng.standard_normal(4))
    assert (result.verdict, result.blockers, result.S, result.biases) == \
        (NO_DECISION, ["undetermined"], None, True)
    assert result.summary.startswith("no decision: the skip term is below float64's resolution")
    assert absorb(RELU, np.ldexp(W_down, 350), np.ldexp(W_up, 350)).verdict == NOT_ABSORBABLE


@pytest.mark.parametrize("up, decided", [(381, True), (382, False)])
def test_the_resolution_cut_off_is_a_rescaled_skip_of_2_to_the_minus_511(up, decided):
    """The identity skip against products 2^(380 + up): rescaled to products near 2^250, the
    skip is 2^−511 for up = 381 (its square 2^−1022 is still a normal float64: decided) and
    2^−512 for up = 382 (no longer: no decision). The largest entries are set to 0.75, so
    each matrix's binary exponent is exactly its scale."""
    W_down, W_up = random_block(4, 12, 3)
    W_down, W_up = (0.75 * W / np.max(np.abs(W)) for W in (W_down, W_up))
    result = absorb(RELU, np.ldexp(W_down, 380), np.ldexp(W_up, up))
    if decided:
        assert result.verdict == NOT_ABSORBABLE and result.scaling["down_exponent"] == -255
    else:
        assert (result.verdict, result.blockers) == (NO_DECISION, ["undetermined"])
        assert result.summary.startswith("no decision: the skip term is below float64's")


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("k", [600, -600])
def test_the_magnitude_argument_reports_the_skips_own_size(k):
    """A skip 2^±600·I against weights near 1 (k = 600) or tiny weights against the identity
    (k = −600, the products below it): distance ‖T‖ and tolerance REL_TOL·‖T‖ in the original
    units, without overflow or underflow."""
    W_down, W_up = random_block(3, 6, 3)
    if k > 0:
        result = absorb(RELU, W_down, W_up, A=np.ldexp(np.eye(3), k))
        size = math.ldexp(math.sqrt(3), k)
    else:
        result = absorb(RELU, np.ldexp(W_down, k), W_up)
        size = math.sqrt(3)
    assert result.decision.method == "magnitude" and result.verdict == NOT_ABSORBABLE
    assert result.distance["distance"] == pytest.approx(size, rel=1e-12)
    assert result.decision.tolerance == pytest.approx(REL_TOL * size, rel=1e-12)


def test_one_rescaled_matrix_is_reported_with_the_other_exponent_zero():
    W_down, W_up = random_block(4, 12, 3)
    T = -np.eye(4)
    for k in range(200, 800):
        down = np.ldexp(W_down, k)
        a, b, negligible = absorb_mod.block_scaling(np, down, W_up, T)
        if a != 0 and b == 0 and not negligible:
            break
    else:
        pytest.fail("no scale gives a rescaled W_down and an unscaled W_up")
    result = absorb(RELU, down, W_up)
    assert result.scaling == {"down_exponent": -a, "up_exponent": 0, "exact": True}


def test_a_rescaling_that_loses_entries_says_so():
    """An entry of W_up near float64's smallest subnormal does not survive W_up·2^−k."""
    W_down, W_up = random_block(4, 12, 3)
    W_down, W_up = np.ldexp(W_down, 300), np.ldexp(W_up, 300)
    W_up[0, 0] = 5e-324
    result = absorb(RELU, W_down, W_up)
    assert result.scaling["exact"] is False
    a, b = result.scaling["down_exponent"], result.scaling["up_exponent"]
    assert result.notes == [f"decided on W_down·2^{a} and W_up·2^{b} (the skip term times "
                            f"2^{a + b}): an exact rescaling that leaves the S-condition "
                            "unchanged; NOT exact for some entries (they leave float64's "
                            "exponent range when rescaled); residuals and distances are "
                            "reported in the original units"]


@pytest.mark.filterwarnings("error")
def test_products_negligible_against_the_skip_are_decided_by_magnitude():
    """W_down·2^−300, W_up·2^−300: products near 2^−600 cannot sum to −I (magnitude argument);
    each matrix is scaled to entries near 1 (the rescaling reported), the distance is ‖T‖ with
    nothing solved."""
    W_down, W_up = random_block(3, 12, 3)
    small_down, small_up = np.ldexp(W_down, -300), np.ldexp(W_up, -300)
    result = absorb(RELU, small_down, small_up)
    assert result.verdict == NOT_ABSORBABLE
    e_down, e_up = exponent(small_down), exponent(small_up)
    assert result.scaling == {"down_exponent": -e_down, "up_exponent": -e_up, "exact": True}
    decision = result.decision
    assert (decision.found, decision.S, decision.method) == (False, [], "magnitude")
    z = e_down + e_up
    assert decision.detail == (f"the weights' products (entries below 2^{z + 2} times n·d) are "
                               "more than 2^500 smaller than the skip, so no sum of them comes "
                               "within the tolerance of it")
    # τ_max = REL_TOL·‖T‖ (T = −I, ‖T‖ = √3)
    assert (decision.residual, decision.ls_residual) == (None, None)
    assert decision.tolerance == pytest.approx(REL_TOL * math.sqrt(3), rel=1e-12)
    assert decision.gram == {"n": 12, "d": 3}
    assert result.distance == {"distance": math.sqrt(3), "relative": 1.0, "iterations": 0,
                               "converged": True, "seconds": 0.0}
    assert result.summary.startswith("not absorbable: no S satisfies W_down[:,S] W_up[S,:] = "
                                     "−I/c (c = 1) (magnitude); ")


@pytest.mark.filterwarnings("error")
def test_a_rescaled_block_with_a_matrix_skip_verifies_on_the_rescaled_skip():
    """Products and skip near 2^600 (A·2^600 with W_down·2^300, W_up·2^300): the block is
    decided and verified at 2^250, the skip rescaled with it."""
    rng = np.random.default_rng(5)
    A = rng.standard_normal((4, 4)) + 3 * np.eye(4)
    W_down, W_up, S = planted(4, 16, 2, A=A)
    plain = absorb(RELU, W_down, W_up, A=A)
    result = absorb(RELU, np.ldexp(W_down, 300), np.ldexp(W_up, 300), A=np.ldexp(A, 600))
    assert result.scaling["down_exponent"] + result.scaling["up_exponent"] != 0
    assert result.verdict == plain.verdict == ABSORBABLE and result.S == plain.S == S
    assert result.verification["passed"] and result.verification["max_error_over_terms"] < 1e-12
    # residual and tolerance in the original units: the plain block's times 2^600
    assert plain.decision.residual > 0
    assert result.decision.residual == pytest.approx(math.ldexp(plain.decision.residual, 600),
                                                     rel=1e-6)
    assert result.decision.tolerance == pytest.approx(
        math.ldexp(plain.decision.tolerance, 600), rel=1e-6)


@pytest.mark.filterwarnings("error")
def test_a_rescaled_block_with_biases_verifies_with_the_output_bias_rescaled():
    """W_down·2^700, W_up·2^−700 (the same products) with biases b_up·2^−700 (so W_up x + b_up
    scales as W_up x) and b_down: the output bias is rescaled with W_down for the verification."""
    W_down, W_up, S = planted(4, 16, 3)
    rng = np.random.default_rng(3)
    b_up, b_down = rng.standard_normal(16), rng.standard_normal(4)
    plain = absorb(RELU, W_down, W_up, b_up=b_up, b_down=b_down)
    result = absorb(RELU, np.ldexp(W_down, 700), np.ldexp(W_up, -700),
                    b_up=np.ldexp(b_up, -700), b_down=b_down)
    assert result.scaling["down_exponent"] != 0
    assert result.verdict == plain.verdict == ABSORBABLE and result.S == S, result.summary
    assert result.verification["passed"] and result.verification["max_error_over_terms"] < 1e-12


# -- biases on one side only ---------------------------------------------------------------------

@pytest.mark.parametrize("side", ["b_up", "b_down"])
def test_a_bias_on_one_side_only_gets_the_construction(side):
    W_down, W_up, S = planted(4, 16, 4)
    bias = np.random.default_rng(4).standard_normal(16 if side == "b_up" else 4)
    result = absorb(RELU, W_down, W_up, **{side: bias})
    assert result.verdict == ABSORBABLE and result.S == S and result.biases is True
    b_up = bias if side == "b_up" else np.zeros(16)
    expected_up = b_up.copy()
    expected_up[S] *= -1
    assert np.array_equal(result.V_b_up, expected_up)
    b_down = bias if side == "b_down" else np.zeros(4)
    assert np.allclose(result.V_b_down, b_down + W_down[:, S] @ b_up[S], rtol=0, atol=1e-12)
    assert result.verification["passed"]


# -- the summary and the verification ------------------------------------------------------------

def test_an_absorbable_bias_free_block_has_the_plain_construction_in_its_summary():
    W_down, W_up, S = planted(4, 16, 0)
    result = absorb(RELU, W_down, W_up, seed=7)
    assert result.numerics is True and result.to_dict()["numerics"] is True
    assert result.verification["seed"] == 7
    assert result.summary.startswith(
        f"absorbable: S with |S| = 4 satisfies W_down[:,S] W_up[S,:] = −I/c (c = 1); the block "
        f"with the rows of W_up in S negated and W_down unchanged equals the skip block")


def test_a_construction_off_by_1e_9_is_vetoed_when_the_residual_is_exactly_zero(monkeypatch):
    """W_up[S] = diag(2, 4, 1/2, 1), W_down[:,S] = −its inverse: the residual is exactly 0, so
    the verification allows float64 rounding only, and a V_down off by 1e-9 fails it."""
    W_down, W_up = random_block(4, 16, 6)
    S = [1, 5, 9, 13]
    W_up[S] = np.diag([2.0, 4.0, 0.5, 1.0])
    W_down[:, S] = -np.diag([0.5, 0.25, 2.0, 1.0])
    real = absorb_mod.verify

    def slightly_off(family, Wd, Wu, A, V_down, V_up, *args, **kwargs):
        return real(family, Wd, Wu, A, (1 + 1e-9) * V_down, V_up, *args, **kwargs)

    assert absorb(RELU, W_down, W_up).verdict == ABSORBABLE
    monkeypatch.setattr(absorb_mod, "verify", slightly_off)
    result = absorb(RELU, W_down, W_up)
    assert result.S == S and result.decision.residual == 0.0
    assert result.verification["max_error_over_terms"] < 1e-6
    assert result.verdict == NO_DECISION and result.blockers == ["verification"]


def test_a_matrix_skip_is_named_in_the_summary():
    rng = np.random.default_rng(5)
    A = rng.standard_normal((4, 4)) + 3 * np.eye(4)
    W_down, W_up, _ = planted(4, 16, 2, A=A)
    result = absorb(RELU, W_down, W_up, A=A)
    assert "satisfies W_down[:,S] W_up[S,:] = −A/c (c = 1);" in result.summary


def fake_verification(monkeypatch, passed, over_terms):
    real = absorb_mod.verify

    def verify(*args, **kwargs):
        check = real(*args, **kwargs)
        check.update(passed=passed, max_error_over_terms=over_terms)
        return check

    monkeypatch.setattr(absorb_mod, "verify", verify)


@pytest.mark.parametrize("passed, over_terms, eps_in, verdict, why", [
    (True, 1e-6, 2.0 ** -52, ABSORBABLE, None),                     # at the veto: accepted
    (True, 1e-5, 2.0 ** -52, NO_DECISION, "above the 1e-06 a correct absorbing block verifies to"),
    (True, 1.0005e-5, 1e-8, NO_DECISION,                            # veto 1000·ε_in = 1e-5
     "above the 1e-05 a correct absorbing block verifies to"),
    (True, 1e-5, 1e-8, ABSORBABLE, None),
    (False, 1e-9, 2.0 ** -52, NO_DECISION, "more than the residual and float64 rounding explain"),
])
def test_the_verification_veto_at_its_edges(monkeypatch, passed, over_terms, eps_in, verdict,
                                            why):
    W_down, W_up, S = planted(4, 16, 0)
    fake_verification(monkeypatch, passed, over_terms)
    result = absorb(RELU, W_down, W_up, eps_in=eps_in)
    assert result.decision.found is True and result.S == S
    assert result.verdict == verdict, result.summary
    if why is None:
        assert result.blockers == []
    else:
        assert result.blockers == ["verification"]
        assert result.summary.endswith(f", {why}; the verification vetoes 'absorbable'")


def test_an_undecided_search_is_no_decision_with_the_time_limit_blocker(monkeypatch):
    W_down, W_up = random_block(4, 12, 3)

    def undecided(*args, **kwargs):
        return SDecision(None, [], "milp-time-limit", "not found within the limit (1 s)", None,
                         1e-9, None)

    monkeypatch.setattr(absorb_mod, "decide_s", undecided)
    result = absorb(RELU, W_down, W_up)
    assert result.verdict == NO_DECISION and result.blockers == ["time_limit"]
    assert result.summary.startswith("no decision: not found within the limit (1 s); distance "
                                     "to the nearest absorbable configuration")


# -- blockers: codes and texts -------------------------------------------------------------------

def test_the_necessity_blocker_text():
    W_down, W_up = random_block(6, 24, 0)
    result = absorb(LIN_QUAD, W_down, W_up)
    assert result.blockers == ["necessity"]
    assert result.summary.startswith(
        "no decision: no S satisfies W_down[:,S] W_up[S,:] = −I/c (c = 2) (")
    assert ("so the sign-flip construction does not apply, but the S-condition is not known to "
            "be necessary for lin_quad (it is for ReLU, every σ with σ(t·z)/t → relu(z), and "
            "every σ = a·z + b·|z| with a, b ≠ 0); other absorbing blocks are not excluded; "
            "distance") in result.summary


def test_the_singular_skip_blocker_code_and_text():
    rng = np.random.default_rng(0)
    A = np.outer(rng.standard_normal(5), rng.standard_normal(5))
    W_down, W_up = random_block(5, 20, 1)
    result = absorb(RELU, W_down, W_up, A=A)
    assert result.blockers == ["singular_skip"]
    assert ("but the skip is singular, so Lemma 4 does not reduce it to the identity; other "
            "absorbing blocks") in result.summary


@pytest.mark.filterwarnings("error")                # no division by a zero singular value
def test_an_exactly_singular_skip_has_an_infinite_condition_number_without_warnings():
    W_down, W_up = random_block(3, 9, 4)
    skip = absorb(RELU, W_down, W_up, A=np.diag([2.0, 1.0, 0.0])).skip
    assert skip["rank"] == 2 and skip["condition_number"] == math.inf


def test_d_equal_to_one_with_a_characterisation():
    """d = 1 for ReLU (its Lean characterisation has no hypothesis on d), with a 1×1 skip."""
    W_down = np.array([[1.0, -0.5, 0.25]])
    W_up = np.array([[0.5], [1.0], [2.0]])
    result = absorb(RELU, W_down, W_up, A=np.array([[3.0]]))
    assert result.skip["rank"] == 1 and result.skip["condition_number"] == 1.0
    assert "d<2" in result.blockers
    assert ("d = 1 (the paper states its theorems for d ≥ 2; the Lean statement has no "
            "hypothesis on d but is not compiled here)") in result.summary


def test_d_equal_to_one_without_a_characterisation():
    W_down = np.array([[1.0, -0.25, 0.25]])        # products 0.5, −0.25, 0.5: no sum is −1/2
    W_up = np.array([[0.5], [1.0], [2.0]])
    result = absorb(LIN_QUAD, W_down, W_up)
    assert result.blockers[:2] == ["necessity", "d<2"]
    assert "; d = 1 (the theorems need d ≥ 2)" in result.summary


def test_the_degenerate_blocker_lists_every_violation():
    W_down, W_up = random_block(4, 12, 3)
    W_up[5] = 2.5 * W_up[2]
    W_down[:, 7] = 0.0
    result = absorb(RELU, W_down, W_up)
    assert result.blockers == ["degenerate"] and len(result.nondegeneracy) == 2
    assert ("but the weights are degenerate: " + "; ".join(result.nondegeneracy)
            + "; other absorbing blocks are not excluded") in result.summary
    assert result.summary.startswith("no decision: no S satisfies")


def test_two_blockers_are_joined_by_a_semicolon():
    W_down, W_up = random_block(4, 12, 3)
    W_up[5] = 2.5 * W_up[2]
    result = absorb(LIN_QUAD, W_down, W_up)
    assert result.blockers == ["necessity", "degenerate"]
    assert "b·|z| with a, b ≠ 0); the weights are degenerate: " in result.summary
    # Leaky ReLU's necessity (the kink argument) needs nondegenerate weights as ReLU's does
    leaky = absorb(get_family("leaky_relu"), W_down, W_up)
    assert leaky.verdict == NO_DECISION and leaky.blockers == ["degenerate"]


# -- timings -------------------------------------------------------------------------------------

def test_each_path_times_its_own_steps_in_seconds():
    W_down, W_up, _ = planted(4, 16, 0)
    found, wall = timed(RELU, W_down, W_up)
    assert set(found.timings) == {"decide", "verify"}
    assert all(0 <= t <= wall for t in found.timings.values())
    W_down, W_up = random_block(4, 12, 3)
    failed, wall = timed(RELU, W_down, W_up)
    assert set(failed.timings) == {"decide", "distance", "nondegeneracy"}
    assert all(0 <= t <= wall for t in failed.timings.values())
    assert failed.to_dict()["timings_seconds"] is failed.timings


def test_absorb_without_numpy_names_itself(monkeypatch):
    import sys

    from leanbridge.numeric.errors import MissingDependencyError
    W_down, W_up = random_block(2, 4, 0)
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(MissingDependencyError) as error:
        absorb(RELU, W_down, W_up)
    assert str(error.value).startswith("leanbridge absorb needs the Python package 'numpy', "
                                       "which is not installed")


def test_highs_stopping_at_its_own_time_limit_is_no_decision(monkeypatch):
    """HiGHS answers "time limit reached" (status 1, no point): the search stops there with
    "no decision (time_limit)", and HiGHS was given the time left, never more."""
    import types

    W_down, W_up = random_block(2, 7, 10)                 # n > d²: the MILP decides
    limits = []

    def stopped(c, constraints, time_limit):
        limits.append(time_limit)
        return types.SimpleNamespace(status=1, x=None, message="Time limit reached. "
                                     "(HiGHS Status 13: Time limit reached)")

    monkeypatch.setattr(absorb_mod, "run_milp", stopped)
    result = absorb(RELU, W_down, W_up, time_limit=0.5)
    assert result.decision.method == "milp-time-limit" and result.decision.found is None
    assert result.verdict == NO_DECISION and result.blockers == ["time_limit"]
    assert len(limits) == 1 and 0 < limits[0] <= 0.5
