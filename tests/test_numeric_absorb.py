"""The S-decision of `leanbridge absorb` (library level): planted S recovered exactly, random
weights rejected with a positive distance, Lemma 4 for invertible skips, singular skips, the
singular-Gram MILP fallback, the rounding certificate, tolerances and degenerate weights."""

import pytest

pytest.importorskip("scipy")

np = pytest.importorskip("numpy")

import sympy as sp
from scipy.optimize import lsq_linear

from leanbridge.analysis import analyse
from leanbridge.expression import user_family
from leanbridge.families import Family, Z, get_family
from leanbridge.numeric.absorb import (
    ABSORBABLE,
    NO_DECISION,
    NOT_ABSORBABLE,
    absorb,
    decide_s,
    nondegeneracy,
    relaxed_distance,
    tolerance,
)
from blocks import random_block


def c_of(name):
    return float(analyse(get_family(name)).facts.odd_coefficient)


def planted(d, n, size, seed, c=1.0, A=None):
    """Random weights with W_down[:,S] W_up[S,:] = −A/c for a random S of the given size."""
    rng = np.random.default_rng(seed)
    W_up = rng.standard_normal((n, d)) / np.sqrt(d)
    W_down = rng.standard_normal((d, n)) / np.sqrt(n)
    S = sorted(int(i) for i in rng.choice(n, size, replace=False))
    target = np.eye(d) if A is None else A
    W_down[:, S] = -target @ np.linalg.pinv(W_up[S]) / c
    return W_down, W_up, S


@pytest.mark.parametrize("name", ["relu", "gelu", "silu", "leaky_relu", "softplus", "gelu_tanh"])
def test_planted_S_is_recovered_exactly_and_the_block_verifies(name):
    c = c_of(name)
    W_down, W_up, S = planted(8, 40, 8, seed=1, c=c)
    result = absorb(get_family(name), W_down, W_up)
    assert result.verdict == ABSORBABLE
    assert result.S == S
    assert result.decision.method == "rounding"
    assert result.verification["max_relative_error"] < 1e-12
    # the constructed block: rows in S negated, W_down unchanged
    expected_up = W_up.copy()
    expected_up[S] *= -1
    assert np.array_equal(result.V_up, expected_up)
    assert np.array_equal(result.V_down, W_down)


def test_planted_S_larger_than_d_is_recovered():
    W_down, W_up, S = planted(6, 30, 11, seed=4)
    result = absorb(get_family("relu"), W_down, W_up)
    assert result.verdict == ABSORBABLE and result.S == S and len(S) == 11


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_weights_are_not_absorbable_with_positive_distance(seed):
    W_down, W_up = random_block(8, 32, seed)
    result = absorb(get_family("relu"), W_down, W_up)
    assert result.verdict == NOT_ABSORBABLE
    assert result.decision.found is False and result.S is None
    assert result.distance["distance"] > 0.1
    assert result.distance["relative"] > 0.05
    assert "Thm 8" in result.summary
    # the least-squares residual is a lower bound of the relaxed distance
    assert result.decision.ls_residual <= result.distance["distance"] + 1e-9


def test_relaxed_distance_agrees_with_lsq_linear_on_the_explicit_system():
    W_down, W_up = random_block(3, 12, 7)
    T = -np.eye(3)
    ours = relaxed_distance(W_down, W_up, T)["distance"]
    M = np.stack([np.outer(W_down[:, i], W_up[i]).ravel() for i in range(12)], axis=1)
    reference = lsq_linear(M, T.ravel(), bounds=(0, 1), method="bvls")
    assert ours == pytest.approx(np.linalg.norm(M @ reference.x - T.ravel()), rel=1e-7)


def test_invertible_skip_reduces_via_lemma_4():
    rng = np.random.default_rng(3)
    A = rng.standard_normal((6, 6)) + 3 * np.eye(6)
    W_down, W_up, S = planted(6, 24, 6, seed=5, A=A)
    result = absorb(get_family("gelu"), W_down, W_up, A=A)
    assert result.verdict == ABSORBABLE and result.S == S
    assert result.skip["invertible"] is True and "Lemma 4" in result.skip["lemma4"]
    assert result.verification["max_relative_error"] < 1e-12
    # The same weights with the identity skip are not absorbable.
    assert absorb(get_family("gelu"), W_down, W_up).verdict == NOT_ABSORBABLE
    # And a random invertible skip on random weights: not absorbable, via Lemma 4.
    W_down2, W_up2 = random_block(6, 24, 9)
    other = absorb(get_family("relu"), W_down2, W_up2, A=A)
    assert other.verdict == NOT_ABSORBABLE and "Lemma 4" in other.summary


def test_singular_skip_says_the_reduction_does_not_apply():
    rng = np.random.default_rng(0)
    A = np.outer(rng.standard_normal(5), rng.standard_normal(5))  # rank 1
    W_down, W_up = random_block(5, 20, 1)
    result = absorb(get_family("relu"), W_down, W_up, A=A)
    assert result.skip["invertible"] is False and result.skip["rank"] == 1
    assert "does not apply" in result.skip["lemma4"]
    assert result.verdict == NO_DECISION
    assert "singular" in result.summary and "Lemma 4" in result.summary
    # …but the S-condition is still sufficient for a singular skip.
    W_down, W_up, _ = planted(5, 20, 5, seed=2, A=A)
    found = absorb(get_family("relu"), W_down, W_up, A=A)
    assert found.verdict == ABSORBABLE and found.verification["max_relative_error"] < 1e-10


def test_zero_skip_is_trivially_absorbable():
    W_down, W_up = random_block(4, 8, 0)
    result = absorb(get_family("relu"), W_down, W_up, A=np.zeros((4, 4)))
    assert result.verdict == ABSORBABLE and result.S == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_singular_gram_n_greater_than_d_squared_uses_milp_and_finds_the_planted_S(seed):
    W_down, W_up, S = planted(2, 7, 2, seed=seed)
    result = absorb(get_family("relu"), W_down, W_up)
    assert result.decision.gram["singular"] is True
    assert "n = 7 > d² = 4" in result.decision.gram["reason"]
    assert result.decision.method == "milp"
    assert result.verdict == ABSORBABLE and result.S == S


@pytest.mark.parametrize("seed", [10, 11])
def test_singular_gram_random_weights_milp_proves_there_is_no_S(seed):
    W_down, W_up = random_block(2, 7, seed)
    result = absorb(get_family("relu"), W_down, W_up)
    # with n > d² the real system is solvable, so only the integer solve can decide
    assert result.decision.method == "milp" and result.decision.found is False
    assert result.verdict == NOT_ABSORBABLE
    assert result.distance["distance"] > 0


def test_milp_time_limit_is_reported_as_not_found_within_the_limit():
    W_down, W_up = random_block(2, 7, 10)
    decision = decide_s(W_down, W_up, -np.eye(2), time_limit=1e-9)
    assert decision.found is None and decision.method == "milp-time-limit"
    assert "not found within the limit" in decision.detail
    result = absorb(get_family("relu"), W_down, W_up, time_limit=1e-9)
    assert result.verdict == NO_DECISION


def test_consistent_square_system_uses_the_exact_rounding_certificate():
    # n = d² = 9: the real solution exists and is unique, but it is not binary.
    W_down, W_up = random_block(3, 9, 0)
    result = absorb(get_family("relu"), W_down, W_up)
    assert result.decision.method == "rounding-certificate"
    assert result.decision.found is False and result.verdict == NOT_ABSORBABLE


def test_non_necessity_family_gives_no_decision_when_S_fails():
    """σ(z) = z + z²: σ(z) − σ(−z) = 2z, but neither ReLU's theorem, the large-scale limit nor
    the kink argument makes the S-condition necessary."""
    W_down, W_up = random_block(6, 24, 0)
    result = absorb(user_family("z + z**2", "lin_quad"), W_down, W_up)
    assert result.decision.found is False
    assert result.verdict == NO_DECISION and result.blockers == ["necessity"]
    assert "not known to be necessary for lin_quad" in result.summary


def test_leaky_relu_is_not_absorbable_by_the_kink_argument():
    """Leaky ReLU: σ(z) + σ(−z) = (99/100)·|z| besides σ(z) − σ(−z) = (101/100)·z, so paper
    Thm 8's proof makes the S-condition necessary (recession.md §6): a failed S-condition is
    "not absorbable" (identity skip: its own Lean characterisation; invertible skip: with
    Lemma 4, no Lean statement); with biases no theorem covers it."""
    W_down, W_up = random_block(6, 24, 0)
    leaky = get_family("leaky_relu")
    result = absorb(leaky, W_down, W_up)
    assert result.verdict == NOT_ABSORBABLE and result.blockers == []
    assert ("by the kink argument of the paper's Thm 8 (recession.md §6) (hypotheses as in its "
            "Lean statement SkipAbsorption.absorbable_leakyRelu_iff: nondegenerate weights, any "
            "d; not compiled: no Lean toolchain here) that condition is necessary"
            ) in result.summary
    A = np.random.default_rng(1).standard_normal((6, 6))
    skip = absorb(leaky, W_down, W_up, A=A)
    assert skip.verdict == NOT_ABSORBABLE
    assert ("by the kink argument of the paper's Thm 8 (recession.md §6) and Lemma 4 "
            "(nondegenerate weights, d ≥ 2) that condition is necessary") in skip.summary
    biased = absorb(leaky, W_down, W_up, b_up=np.ones(24), b_down=np.ones(6))
    assert biased.verdict == NO_DECISION and biased.blockers == ["biases"]
    mine = absorb(user_family("3*z + Abs(z)", "kinky"), W_down, W_up)
    assert mine.verdict == NOT_ABSORBABLE
    assert "Lean statement SkipAbsorption.absorbable_iff_of_parts" in mine.summary


@pytest.mark.parametrize("name, lean", [("silu", "absorbable_swish_iff"),
                                        ("gelu_tanh", "absorbable_geluTanh_iff"),
                                        ("softplus", "absorbable_softplus_iff")])
def test_relu_like_family_is_not_absorbable_by_the_large_scale_limit(name, lean):
    W_down, W_up = random_block(6, 24, 0)
    result = absorb(get_family(name), W_down, W_up)
    assert result.decision.found is False and result.verdict == NOT_ABSORBABLE
    assert f"by the large-scale limit (R3) (hypotheses as in its Lean statement " \
        f"SkipAbsorption.{lean}: nondegenerate weights, any d" in result.summary


def test_degenerate_weights_block_the_necessity_argument():
    W_down, W_up = random_block(4, 12, 3)
    W_up[5] = 2.5 * W_up[2]          # collinear rows
    W_down[:, 7] = 0.0               # a zero column (a zero rank-one term)
    problems = nondegeneracy(W_down, W_up, 2.0 ** -52)
    assert any("collinear" in p for p in problems) and any("zero columns" in p for p in problems)
    result = absorb(get_family("relu"), W_down, W_up)
    assert result.verdict == NO_DECISION and "degenerate" in result.summary
    assert result.decision.gram["zero_units"] == 1


def test_planted_S_with_zero_units_and_duplicates_is_still_found():
    W_down, W_up, S = planted(4, 16, 4, seed=8)
    free = [i for i in range(16) if i not in S]
    W_down[:, free[0]] = 0.0                      # zero term: dropped before the Gram matrix
    W_up[free[1]] = W_up[free[2]]                 # duplicate units: G singular
    W_down[:, free[1]] = W_down[:, free[2]]
    result = absorb(get_family("relu"), W_down, W_up)
    assert result.decision.gram["singular"] is True and result.decision.gram["zero_units"] == 1
    assert result.verdict == ABSORBABLE
    assert result.S == S


def test_float32_copy_is_decided_as_stored_unless_the_eps_in_knob_widens_it():
    """The stored numbers are the block: a float32 copy of a planted float64 block no longer
    satisfies the identity exactly, and absorb (float64 tolerance, the default) says so. Only
    the library knob eps_in (inputs known to float32 precision) accepts it."""
    W_down, W_up, S = planted(8, 32, 8, seed=6)
    W_down32, W_up32 = W_down.astype(np.float32).astype(float), W_up.astype(np.float32).astype(float)
    strict = decide_s(W_down32, W_up32, -np.eye(8))
    assert strict.found is False           # float32 rounding breaks the exact identity
    assert absorb(get_family("relu"), W_down32, W_up32).verdict == NOT_ABSORBABLE
    loose = absorb(get_family("relu"), W_down32, W_up32, eps_in=2.0 ** -23)
    assert loose.verdict == ABSORBABLE and loose.S == S
    assert 1e-9 < loose.verification["max_relative_error"] < 1e-5


def test_never_and_undetermined_families_answer_without_numerics():
    W_down, W_up = random_block(4, 8, 0)
    never = absorb(get_family("relu2"), W_down, W_up)
    assert never.verdict == NOT_ABSORBABLE and never.numerics is False
    assert never.decision is None and "for any weights" in never.summary
    assert any("Prop 5" in r for r in never.reasons)
    gated = absorb(get_family("swiglu"), W_down, W_up)
    assert gated.verdict == NOT_ABSORBABLE and any("Prop 6" in r for r in gated.reasons)
    bounded = absorb(get_family("tanh"), W_down, W_up)
    assert bounded.verdict == NOT_ABSORBABLE and bounded.numerics is False
    assert any("SkipAbsorption.not_absorbable_tanh" in r for r in bounded.reasons)
    elu = Family("elu", "ELU", False, sp.Piecewise((Z, Z > 0), (sp.exp(Z) - 1, True)),
                 "elu", "test")
    undetermined = absorb(elu, W_down, W_up)
    assert undetermined.verdict == NO_DECISION and undetermined.numerics is False
    assert "no decision possible" in undetermined.summary
    assert any("nevertheless necessary" in r for r in undetermined.reasons)


def test_verification_catches_a_wrong_construction():
    from leanbridge.numeric.absorb import verify

    W_down, W_up, S = planted(5, 15, 5, seed=3)
    family = get_family("gelu")
    V_up = W_up.copy()
    V_up[S] *= -1
    good = verify(family, W_down, W_up, None, W_down, V_up, 1.0, 1e-14)
    assert good["passed"] and good["max_relative_error"] < 1e-12
    V_up[S[0]] *= -1                               # one row not flipped
    bad = verify(family, W_down, W_up, None, W_down, V_up, 1.0, 1e-14)
    assert not bad["passed"] and bad["max_relative_error"] > 1e-3


# -- the certificate's threshold, the certificate → MILP fallback, the MILP's residual check --------

F32 = float(np.finfo(np.float32).eps)


def all_S_within_tolerance(W_down, W_up, T, eps_in):
    """Brute force over every S: the sets whose residual is within τ(S) (small n only)."""
    from itertools import combinations

    n = W_down.shape[1]
    terms = np.linalg.norm(W_down, axis=0) * np.linalg.norm(W_up, axis=1)
    t_norm = float(np.linalg.norm(T))
    return [list(S) for k in range(n + 1) for S in combinations(range(n), k)
            if np.linalg.norm(W_down[:, list(S)] @ W_up[list(S)] - T)
            <= tolerance(float(terms[list(S)].sum()), t_norm, eps_in, n)]


def near_miss(d, n, seed):
    """T at distance ½(τ(S) + τ(all units)) from W_down[:,S] W_up[S,:], S = {0, 1, 2}: within the
    tolerance of all units, not within that of S (brute force: no S at all)."""
    rng = np.random.default_rng(seed)
    W_down, W_up = rng.standard_normal((d, n)), rng.standard_normal((n, d))
    terms = np.linalg.norm(W_down, axis=0) * np.linalg.norm(W_up, axis=1)
    base = W_down[:, :3] @ W_up[:3]
    t_norm = float(np.linalg.norm(base))
    tau_S = tolerance(float(terms[:3].sum()), t_norm, F32, n)
    tau_all = tolerance(float(terms.sum()), t_norm, F32, n)
    D = rng.standard_normal((d, d))
    T = base + 0.5 * (tau_S + tau_all) * D / np.linalg.norm(D)
    assert tau_all > 1.5 * tau_S and all_S_within_tolerance(W_down, W_up, T, F32) == []
    return W_down, W_up, T


def one_bad_candidate():
    """T at distance 1–1.9 τ(all units) from W_down[:,S] W_up[S,:], S = {0, 1, 2}: the MILP's
    box (ℓ∞, looser than the ℓ2 tolerance) admits S, whose residual is not within τ; no S is
    (brute force)."""
    rng = np.random.default_rng(1)
    W_down, W_up = rng.standard_normal((2, 6)), rng.standard_normal((6, 2))
    terms = np.linalg.norm(W_down, axis=0) * np.linalg.norm(W_up, axis=1)
    base = W_down[:, :3] @ W_up[:3]
    tau = tolerance(float(terms.sum()), float(np.linalg.norm(base)), F32, 6)
    D = rng.standard_normal((2, 2))
    T = base + rng.uniform(1.0, 1.9) * tau * D / np.linalg.norm(D)
    assert all_S_within_tolerance(W_down, W_up, T, F32) == []
    return W_down, W_up, T


def ill_conditioned_block():
    """Nonsingular but ill-conditioned G: S = {2} is within the float32 tolerance of (★), yet
    the least-squares solution a* = (0,0,1) + t·(1,10,−1), t = 0.055, rounds to (0,1,1).

    Here u₃ = u₁ + 10·u₂ − ε·e (all units share w), so R₁ + 10R₂ − R₃ = ε·w eᵀ is tiny; a
    binary point far from a* in coordinates is close to it in residual. The rounding
    certificate's bound is ≈ 1.27 > 1/2: it must NOT conclude "no S" (an unsound answer)."""
    eps, t, m = 3e-4, 0.055, 10
    w = np.array([1.0, 0.5, -0.3])
    u1, u2, e = np.array([1.0, 0.2, 0.0]), np.array([0.1, 1.0, 0.3]), np.array([0.0, 0.0, 1.0])
    u3 = u1 + m * u2 - eps * e
    W_down, W_up = np.stack([w, w, w], axis=1), np.stack([u1, u2, u3])
    return W_down, W_up, np.outer(w, u3 + t * eps * e)


def spy_milp(monkeypatch):
    import scipy.optimize

    calls = []
    real = scipy.optimize.milp

    def milp(*args, **kwargs):
        result = real(*args, **kwargs)
        calls.append((result.status, None if result.x is None else result.x.round().tolist()))
        return result

    monkeypatch.setattr(scipy.optimize, "milp", milp)
    return calls


def test_loose_certificate_would_be_unsound_so_it_falls_back_to_milp(monkeypatch):
    W_down, W_up, T = ill_conditioned_block()
    assert all_S_within_tolerance(W_down, W_up, T, F32) == [[2]]
    calls = spy_milp(monkeypatch)
    decision = decide_s(W_down, W_up, T, eps_in=F32)
    assert not decision.gram["singular"]                 # the Cholesky path, not the eigen one
    assert 0 < decision.gram["lambda_min_scaled"] < 1e-9
    assert "rounding certificate does not hold" in decision.gram["reason"]
    assert decision.found is True and decision.S == [2] and decision.method == "milp"
    assert decision.residual <= decision.tolerance
    assert len(calls) == 1
    # Through `absorb` for ReLU (c = 1, T = −A): absorbable, verified on random inputs.
    result = absorb(get_family("relu"), W_down, W_up, A=-T, eps_in=F32)
    assert result.verdict == ABSORBABLE and result.S == [2]
    assert result.verification["passed"]


def test_milp_candidate_failing_the_direct_residual_check_is_cut_not_accepted(monkeypatch):
    """MILP's constraints are a box (ℓ∞) around (★), looser than the ℓ2 tolerance: its first
    candidate here, S = {0,1,2}, is within the box but its residual is 1.14·τ. It must be
    excluded by a cut (and the next solve is infeasible): no S, as brute force confirms."""
    W_down, W_up, T = one_bad_candidate()
    calls = spy_milp(monkeypatch)
    decision = decide_s(W_down, W_up, T, eps_in=F32, time_limit=10)
    assert calls[0] == (0, [1.0, 1.0, 1.0, 0.0, 0.0, 0.0])   # a candidate, then…
    assert [status for status, _ in calls[1:]] == [2]        # …infeasible once it is cut
    assert decision.found is False and decision.method == "milp" and decision.S == []


def test_decision_records_how_it_was_reached():
    """The documented fields of each path (what `absorb --json` reports), exactly."""
    W_down, W_up, S = planted(3, 8, 3, 0)
    found = decide_s(W_down, W_up, -np.eye(3))
    assert found.method == "rounding" and found.S == S and found.found is True
    assert found.detail == ("the unique least-squares solution rounds to S, whose residual is "
                            "within the tolerance")
    assert found.residual <= found.tolerance and found.ls_residual <= found.residual + 1e-12
    assert {"gram", "cholesky", "solve"} <= set(found.timings)
    assert all(v >= 0 for v in found.timings.values())
    assert found.gram["singular"] is False and found.gram["reason"] is None
    assert 1e-10 < found.gram["rcond"] <= 1
    assert (found.gram["n"], found.gram["d"], found.gram["zero_units"],
            found.gram["active_units"]) == (8, 3, 0, 8)

    rejected = decide_s(*random_block(3, 8, 0), -np.eye(3))
    assert rejected.method == "least-squares" and rejected.found is False and rejected.S == []
    assert rejected.detail.startswith("no real a solves the S-condition: the least-squares "
                                      "residual ")
    assert rejected.residual is None and rejected.ls_residual > rejected.tolerance

    certificate = decide_s(*random_block(3, 9, 0), -np.eye(3))
    assert certificate.method == "rounding-certificate" and certificate.S == []
    assert certificate.detail.startswith("G is nonsingular, so the real solution is unique")
    assert certificate.residual > certificate.tolerance
    assert "certificate" in certificate.timings and certificate.gram["lambda_min_scaled"] > 0

    singular = decide_s(*random_block(2, 7, 3), -np.eye(2))
    assert singular.gram["singular"] is True and singular.gram["rcond"] is None
    assert singular.gram["reason"].startswith("n = 7 > d² = 4: the 7 rank-one terms R_i live "
                                              "in a 4-dimensional space")
    assert "eigh" in singular.timings


def test_tolerance_formula():
    """τ = REL_TOL‖T‖ + KAPPA (ε_in + √max(n, 1) ε₆₄) Σ‖w_i‖‖u_i‖, exactly."""
    eps = 2.0 ** -52
    assert tolerance(2.0, 3.0, 1e-7, 9) == 1e-9 * 3.0 + 16.0 * (1e-7 + 3.0 * eps) * 2.0
    assert tolerance(2.0, 3.0, 1e-7, 0) == tolerance(2.0, 3.0, 1e-7, 1) \
        == 1e-9 * 3.0 + 16.0 * (1e-7 + eps) * 2.0
    assert tolerance(1.0, 1.0, 0.0, 1) == 1e-9 + 16.0 * eps


def test_singular_gram_least_squares_rejection():
    """All units share u: the R_i = w_i uᵀ span 2 of the 4 dimensions, and T = −I is far from
    them — decided without a MILP, on the singular path."""
    u = np.array([1.0, 2.0])
    W_up = np.stack([u] * 5)
    W_down = np.random.default_rng(0).standard_normal((2, 5))
    decision = decide_s(W_down, W_up, -np.eye(2))
    assert decision.gram["singular"] is True and decision.gram["rank"] == 2
    assert decision.found is False and decision.method == "least-squares" and decision.S == []
    assert decision.detail.startswith("no real a solves the S-condition: T is at distance ≥ ")
    assert decision.residual is None and decision.tolerance > 0
    assert decision.ls_residual > decision.tolerance


def test_singular_gram_rounding_of_the_minimum_norm_solution():
    """n = 5 > d² = 4: G is singular; S = {0, 1} is planted and the other units are small, so
    the minimum-norm least-squares solution rounds to S (seed found by search)."""
    rng = np.random.default_rng(66)
    W_down, W_up = rng.standard_normal((2, 5)), rng.standard_normal((5, 2))
    T = W_down[:, [0, 1]] @ W_up[[0, 1]]
    W_down[:, 2:] *= 1e-3
    decision = decide_s(W_down, W_up, T)
    assert decision.gram["singular"] is True and decision.gram["rank"] == 4
    assert decision.found is True and decision.S == [0, 1] and decision.method == "rounding"
    assert decision.detail == ("the minimum-norm least-squares solution rounds to S, whose "
                               "residual is within the tolerance")
    assert decision.residual <= decision.tolerance and decision.tolerance > 0
    assert decision.ls_residual < 1e-12 and "eigh" in decision.timings


def _timings_ok(decision, keys):
    assert set(decision.timings) == set(keys)
    assert all(0 <= value < 60 for value in decision.timings.values())


def test_every_path_times_its_steps_and_keeps_its_lower_bound(monkeypatch):
    W_down, W_up, _ = planted(3, 8, 3, 0)
    _timings_ok(decide_s(W_down, W_up, -np.eye(3)), {"gram", "cholesky", "solve"})
    _timings_ok(decide_s(*random_block(3, 8, 0), -np.eye(3)), {"gram", "cholesky", "solve"})
    certificate = decide_s(*random_block(3, 9, 0), -np.eye(3))
    _timings_ok(certificate, {"gram", "cholesky", "solve", "certificate"})
    assert certificate.ls_residual is not None and certificate.ls_residual >= 0
    W_down, W_up, T = ill_conditioned_block()
    fallback = decide_s(W_down, W_up, T, eps_in=F32)
    _timings_ok(fallback, {"gram", "cholesky", "solve", "certificate", "milp"})
    assert fallback.ls_residual is not None and fallback.gram["rank"] == 3
    singular = decide_s(*random_block(2, 7, 3), -np.eye(2))
    _timings_ok(singular, {"gram", "eigh", "milp"})
    assert singular.ls_residual is not None and singular.gram["rank"] == 4


# -- the MILP itself: its cut, its limits, its exact answers (mutation survivors) ---------------

def test_exclusion_cut_excludes_its_point_and_no_other():
    from itertools import product

    from leanbridge.numeric.absorb import exclusion_cut
    points = [np.array(p, dtype=bool) for p in product([False, True], repeat=4)]
    for mask in points:
        row, upper = exclusion_cut(np, mask)
        for a in points:
            assert (row @ a.astype(float) <= upper) == (not np.array_equal(a, mask))
        assert row @ mask.astype(float) == upper + 1


@pytest.mark.parametrize("seed", [10, 11])
def test_milp_proves_no_S_in_one_infeasible_solve_without_warnings(monkeypatch, seed):
    """The box around (★) over binary a (integrality, bounds [0, 1], both sides of the box):
    infeasible at the first solve; the options passed are ones HiGHS knows (an unknown one
    is a RuntimeWarning)."""
    import warnings
    calls = spy_milp(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        decision = decide_s(*random_block(2, 7, seed), -np.eye(2))
    assert calls == [(2, None)]
    assert decision.found is False and decision.method == "milp" and decision.S == []
    assert decision.detail == ("mixed-integer solve (HiGHS): no binary a satisfies the "
                               "S-condition within the tolerance (infeasible)")
    assert decision.residual is None and decision.tolerance > 0
    assert decision.ls_residual is not None and decision.ls_residual >= 0
    assert "milp" in decision.timings and 0 <= decision.timings["milp"] < 60


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_milp_finds_the_planted_S_in_one_solve(monkeypatch, seed):
    # (A time limit of 0.5 s here made the test fail on a loaded machine — mutmut's runs
    # counted such failures as kills; speed is the benchmarks' business, not a test's.)
    W_down, W_up, S = planted(2, 7, 2, seed=seed)
    calls = spy_milp(monkeypatch)
    decision = decide_s(W_down, W_up, -np.eye(2), time_limit=10)
    assert len(calls) == 1 and calls[0][0] == 0
    assert decision.found is True and decision.method == "milp" and decision.S == S
    assert decision.detail == ("mixed-integer solve (HiGHS) found S; its residual is within "
                               "the tolerance")
    assert decision.residual <= decision.tolerance


def test_milp_candidate_is_checked_against_the_tolerance_of_its_own_S(monkeypatch):
    """The candidate S = {0,1,2} is within the tolerance of all units, not within its own
    (brute force: no S): it must be cut, not accepted."""
    W_down, W_up, T = near_miss(2, 6, 7)
    calls = spy_milp(monkeypatch)
    decision = decide_s(W_down, W_up, T, eps_in=F32, time_limit=10)
    assert calls == [(0, [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]), (2, None)]
    assert decision.found is False and decision.method == "milp"


def test_milp_time_limit_decision_exactly():
    decision = decide_s(*random_block(2, 7, 10), -np.eye(2), time_limit=1e-9)
    assert (decision.found, decision.S, decision.method) == (None, [], "milp-time-limit")
    assert decision.detail == ("not found within the limit: the mixed-integer solve stopped "
                               "after 1e-09 s without a verified S and without proving there "
                               "is none")
    assert decision.residual is None and decision.tolerance > 0
    assert decision.ls_residual is not None and decision.gram["singular"] is True
    assert 0 <= decision.timings["milp"] < 60


def test_milp_stops_after_its_candidate_limit(monkeypatch):
    """Candidates failing the direct check are cut one by one, at most MILP_CANDIDATES of
    them: then no decision, said as such (not as a time limit)."""
    from leanbridge.numeric import absorb as module
    W_down, W_up, T = one_bad_candidate()
    monkeypatch.setattr(module, "MILP_CANDIDATES", 1)
    calls = spy_milp(monkeypatch)
    decision = decide_s(W_down, W_up, T, eps_in=F32, time_limit=10)
    assert calls == [(0, [1.0, 1.0, 1.0, 0.0, 0.0, 0.0])]
    assert (decision.found, decision.S, decision.method) == (None, [], "milp-candidate-limit")
    assert decision.detail == ("not found: the mixed-integer solve stopped after 1 candidate(s), "
                               "none within the tolerance by the direct residual check, without "
                               "a verified S and without proving there is none")
    assert decision.residual is None and decision.tolerance > 0
    assert decision.ls_residual is not None and 0 <= decision.timings["milp"] < 60
    assert decision.gram["singular"] is True
    result = absorb(get_family("relu"), W_down, W_up, A=-T, eps_in=F32)
    assert result.verdict == NO_DECISION and result.blockers == ["milp_candidates"]
    monkeypatch.setattr(module, "MILP_CANDIDATES", 2)
    calls.clear()
    assert decide_s(W_down, W_up, T, eps_in=F32, time_limit=10).found is False
    assert [status for status, _ in calls] == [0, 2]


def test_milp_prints_nothing_at_the_file_descriptor_level(capfd):
    """HiGHS writes its log to fd 1 when asked (`disp`): that would corrupt `absorb --json`."""
    decision = decide_s(*random_block(2, 7, 10), -np.eye(2))
    assert decision.method == "milp"
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


# -- decide_s before any Gram matrix: the trivial answers, exactly --------------------------------

def test_zero_target_is_decided_by_the_empty_set_exactly():
    decision = decide_s(*random_block(3, 5, 0), np.zeros((3, 3)))
    assert (decision.found, decision.S, decision.method) == (True, [], "trivial")
    assert decision.detail == "T = 0: the empty set S works (no skip)"
    assert (decision.residual, decision.tolerance, decision.ls_residual) == (0.0, 0.0, 0.0)
    assert decision.gram == {"n": 5, "d": 3, "zero_units": 0, "active_units": 5}
    assert decision.timings == {}


def test_all_units_zero_and_a_nonzero_target_exactly():
    T = -np.eye(2)
    decision = decide_s(np.zeros((2, 4)), np.ones((4, 2)), T)
    assert (decision.found, decision.S, decision.method) == (False, [], "trivial")
    assert decision.detail == "every unit is zero, and T ≠ 0"
    assert decision.residual is None and decision.ls_residual == np.sqrt(2)
    assert decision.tolerance == tolerance(0.0, np.sqrt(2), 2.0 ** -52, 4) > 0
    assert decision.gram == {"n": 4, "d": 2, "zero_units": 4, "active_units": 0}
    assert decision.timings == {}


def test_one_active_unit_among_zero_ones_and_a_target_of_norm_one():
    """d = 1: ‖T‖ = 1 exactly, and a single active unit (w u = −1) is the S."""
    W_down = np.array([[0.0, 2.0, 0.0]])
    W_up = np.array([[1.0], [-0.5], [3.0]])
    decision = decide_s(W_down, W_up, -np.eye(1))
    assert decision.found is True and decision.S == [1]
    assert decision.gram["zero_units"] == 2 and decision.gram["active_units"] == 1
    assert decision.residual <= decision.tolerance


def test_collinearity_summary_comes_with_the_gram_matrix_when_every_unit_is_active():
    from leanbridge.numeric.absorb import _collinear
    W_down, W_up = random_block(3, 8, 4)
    W_up[5] = -2.0 * W_up[2]                                   # a collinear pair
    decision = decide_s(W_down, W_up, -np.eye(3))
    expected = _collinear(np, W_up @ W_up.T, np.linalg.norm(W_up, axis=1), 2.0 ** -52)
    assert (decision.collinear["i"], decision.collinear["j"]) == (2, 5) \
        == (expected["i"], expected["j"])
    assert decision.collinear["count"] == expected["count"] == 1
    assert abs(decision.collinear["cos"] - expected["cos"]) < 1e-12
    W_down[:, 0] = 0.0                                         # a zero unit: not summarised
    assert decide_s(W_down, W_up, -np.eye(3)).collinear is None
    # The threshold follows the input precision: |cos| ≈ 1 − 8e-9 is collinear for float32
    # input (1 − 64 ε₃₂ ≈ 1 − 7.6e-6), not for float64 input (1 − 1e-12).
    W_down, W_up = random_block(3, 8, 4)
    W_up[5] = W_up[2] + 1e-4 * np.linalg.norm(W_up[2]) * np.array([1.0, -1.0, 0.5])
    cos = abs(W_up[5] @ W_up[2]) / np.linalg.norm(W_up[5]) / np.linalg.norm(W_up[2])
    assert 1 - 7e-6 < cos < 1 - 1e-11
    assert decide_s(W_down, W_up, -np.eye(3), eps_in=F32).collinear["count"] == 1
    assert decide_s(W_down, W_up, -np.eye(3)).collinear["count"] == 0


def test_the_distance_reuses_the_gram_matrix_of_the_decision(monkeypatch):
    """`absorb` forms G once: the relaxed distance of a non-absorbable block reuses the
    decision's system (forming it again would double the cost at GPT-2 size)."""
    from leanbridge.numeric import absorb as module
    formed = []
    real = module.form_gram
    monkeypatch.setattr(module, "form_gram", lambda *a, **k: formed.append(1) or real(*a, **k))
    result = absorb(get_family("relu"), *random_block(4, 12, 3))
    assert result.verdict == NOT_ABSORBABLE and result.distance["distance"] > 0
    assert formed == [1]


def test_a_system_formed_elsewhere_hands_over_to_the_cpu_for_eigen_decompositions():
    from leanbridge.numeric.absorb import GramSystem, form_gram

    class Elsewhere(GramSystem):
        device = "elsewhere"

        def on_cpu(self):
            cpu = GramSystem(self.a, self.diag, self.anorm, self.collinear)
            cpu.state = self.state
            return cpu

    def gram_fn(*args):
        formed = form_gram(*args)
        system = Elsewhere(formed.a, formed.diag, formed.anorm, formed.collinear)
        system.state = formed.state
        return system

    singular = decide_s(*random_block(2, 7, 10), -np.eye(2), gram_fn=gram_fn)
    assert singular.gram["device"] == "elsewhere, then cpu (eigen-decomposition)"
    W_down, W_up, S = planted(3, 8, 3, 0)
    rounded = decide_s(W_down, W_up, -np.eye(3), gram_fn=gram_fn)
    assert rounded.method == "rounding" and rounded.gram["device"] == "elsewhere"


@pytest.mark.parametrize("module", ["numpy", "scipy.linalg", "scipy.optimize"])
def test_a_missing_numeric_package_names_the_command_that_needs_it(monkeypatch, module):
    import sys

    from leanbridge.numeric.errors import MissingDependencyError
    W_down, W_up = random_block(2, 7, 10)                     # reaches the MILP
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingDependencyError) as error:
        decide_s(W_down, W_up, -np.eye(2))
    assert str(error.value).startswith(f"leanbridge absorb needs the Python package "
                                       f"'{module.split('.')[0]}', which is not installed")


# -- the Cholesky path's numbers (mutation survivors) --------------------------------------------

def least_squares_distance(W_down, W_up, T):
    """min over real a of ‖Σ a_i w_i u_iᵀ − T‖_F, by NumPy's lstsq on the d²×n system."""
    M = np.stack([np.outer(W_down[:, i], W_up[i]).ravel() for i in range(W_down.shape[1])], 1)
    a = np.linalg.lstsq(M, T.ravel(), rcond=None)[0]
    return float(np.linalg.norm(M @ a - T.ravel()))


def count_direct_residuals(monkeypatch):
    from leanbridge.numeric import absorb as module
    calls = []
    real = module._residual

    def residual(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "_residual", residual)
    return calls


@pytest.mark.parametrize("d, n, seed", [(4, 12, 3), (5, 20, 1), (6, 30, 2)])
def test_generic_weights_exit_at_the_gram_form_least_squares_bound(monkeypatch, d, n, seed):
    """The reported least-squares residual is the true minimum (lstsq on the vectorised
    system), reached without a single direct residual (the documented fast exit)."""
    W_down, W_up = random_block(d, n, seed)
    T = -np.eye(d)
    calls = count_direct_residuals(monkeypatch)
    decision = decide_s(W_down, W_up, T)
    assert decision.method == "least-squares" and decision.found is False
    assert calls == []
    expected = least_squares_distance(W_down, W_up, T)
    assert abs(decision.ls_residual - expected) <= 1e-9 * np.sqrt(d)
    assert decision.detail == (f"no real a solves the S-condition: the least-squares residual "
                               f"{decision.ls_residual:.3e} exceeds the tolerance "
                               f"{decision.tolerance:.1e}")


def test_rounding_reports_the_tolerance_of_its_own_S():
    W_down, W_up, S = planted(3, 8, 3, 0)
    decision = decide_s(W_down, W_up, -np.eye(3))
    terms = np.linalg.norm(W_down, axis=0) * np.linalg.norm(W_up, axis=1)
    assert decision.method == "rounding" and decision.S == S
    assert decision.tolerance == tolerance(float(terms[S].sum()), np.sqrt(3), 2.0 ** -52, 8)


@pytest.mark.parametrize("d, n, seed, path", [(3, 6, 7, "rounding-certificate"),
                                              (2, 6, 7, "milp")])
def test_a_rounded_S_is_held_to_its_own_tolerance(d, n, seed, path):
    """Cholesky path (n ≤ d²) and singular path (n > d²): the rounding of the real solution is
    S = {0, 1, 2}, whose residual exceeds τ(S): rejected, then no S is proved."""
    W_down, W_up, T = near_miss(d, n, seed)
    decision = decide_s(W_down, W_up, T, eps_in=F32, time_limit=10)
    assert decision.found is False and decision.method == path


def test_rounding_certificate_is_scale_invariant():
    """Scaling W_down and W_up by 10 (T by 100) changes no decision: the certificate's bound
    is in the scaled coordinates of G (‖w_i‖‖u_i‖ a_i)."""
    W_down, W_up = random_block(3, 9, 0)
    base = decide_s(W_down, W_up, -np.eye(3))
    scaled = decide_s(10 * W_down, 10 * W_up, -100 * np.eye(3))
    assert base.method == scaled.method == "rounding-certificate"
    assert base.found is scaled.found is False


def test_singular_gram_least_squares_exit_exactly():
    """Two identical units (G singular, m ≤ d²): eigen-decomposition, T outside the span."""
    W_down, W_up = random_block(3, 5, 0)
    W_down[:, 4], W_up[4] = W_down[:, 3], W_up[3]
    decision = decide_s(W_down, W_up, -np.eye(3))
    assert decision.gram["singular"] is True
    assert decision.gram["reason"] == "Cholesky failed: G is singular (degenerate weights)"
    assert decision.method == "least-squares" and decision.found is False
    assert decision.gram["rank"] == 4
    assert decision.detail.startswith("no real a solves the S-condition: T is at distance ≥ ")
    assert abs(decision.ls_residual - least_squares_distance(W_down, W_up, -np.eye(3))) < 1e-9
    _timings_ok(decision, {"gram", "cholesky", "eigh"})


def test_numerically_singular_gram_says_so():
    """Two units 1e-6 apart: Cholesky succeeds, but rcond < RCOND_MIN sends the decision to the
    eigen-decomposition, with that reason."""
    W_down, W_up = random_block(3, 5, 0)
    W_down[:, 4], W_up[4] = W_down[:, 3], W_up[3] + 1e-6
    decision = decide_s(W_down, W_up, -np.eye(3))
    assert decision.gram["singular"] is True and decision.gram["rcond"] is not None
    assert decision.gram["reason"] == (f"G is numerically singular (reciprocal condition "
                                       f"number ≈ {decision.gram['rcond']:.1e} < 1e-10)")
    assert "eigh" in decision.timings


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_after_a_cut_the_milp_still_finds_the_S_that_works(monkeypatch, seed):
    """Units 3–5 are a near miss of T (within the MILP's box, not within the tolerance), units
    0–2 solve it exactly (brute force: the only S). The cut must exclude the near miss and
    nothing else, so the next solve finds S = {0, 1, 2}."""
    rng = np.random.default_rng(seed)
    W_down, W_up = rng.standard_normal((2, 6)), rng.standard_normal((6, 2))
    base = W_down[:, 3:] @ W_up[3:]
    terms = np.linalg.norm(W_down, axis=0) * np.linalg.norm(W_up, axis=1)
    tau = tolerance(float(terms.sum()), float(np.linalg.norm(base)), F32, 6)
    D = rng.standard_normal((2, 2))
    T = base + 1.5 * tau * D / np.linalg.norm(D)
    W_down[:, :3] = T @ np.linalg.pinv(W_up[:3])
    assert all_S_within_tolerance(W_down, W_up, T, F32) == [[0, 1, 2]]
    calls = spy_milp(monkeypatch)
    decision = decide_s(W_down, W_up, T, eps_in=F32, time_limit=10)
    assert decision.found is True and decision.S == [0, 1, 2] and decision.method == "milp"
    assert calls[-1] == (0, [1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
    assert [x for _, x in calls[:-1]] in ([], [[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]])


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("shape", ["half a unit", "twice a unit"])
def test_milp_is_over_binary_a_in_the_unit_box(monkeypatch, seed, shape):
    """T = ½R₀ + R₁ has a real solution in [0, 1]ⁿ, T = 2R₀ an integer one in {0, 1, 2}ⁿ;
    neither has a binary one (brute force): one solve, infeasible."""
    W_down, W_up = random_block(2, 7, seed)
    R = [np.outer(W_down[:, i], W_up[i]) for i in (0, 1)]
    T = 0.5 * R[0] + R[1] if shape == "half a unit" else 2 * R[0]
    assert all_S_within_tolerance(W_down, W_up, T, 2.0 ** -52) == []
    calls = spy_milp(monkeypatch)
    decision = decide_s(W_down, W_up, T)
    assert calls == [(2, None)] and decision.found is False and decision.method == "milp"


# -- the skip matrix A (wider mutation scope: absorb's own code) --------------------------------

@pytest.mark.parametrize("name", ["relu2", "swiglu", "tanh"])
def test_a_never_family_is_absorbable_only_with_a_zero_skip(name):
    """A `never` family: A = 0 is trivially absorbable, any A ≠ 0 (invertible or rank 1) is
    not, without numerics."""
    family = get_family(name)
    W_down, W_up = random_block(3, 9, 4)
    zero = absorb(family, W_down, W_up, A=np.zeros((3, 3)))
    assert zero.verdict == ABSORBABLE and zero.summary.startswith("absorbable trivially")
    for A in (np.eye(3), np.outer([1.0, 2.0, 0.0], [0.0, 1.0, 1.0])):
        result = absorb(family, W_down, W_up, A=A)
        assert result.verdict == NOT_ABSORBABLE and result.numerics is False
        assert result.summary.startswith("not absorbable for any weights")


def test_a_matrix_skip_is_divided_by_the_odd_coefficient():
    """Leaky ReLU (slope 1/100): σ(z) − σ(−z) = (101/100)·z, so the S-condition for a skip A is
    W_down[:,S] W_up[S,:] = −A/c with c = 101/100, not −A or −A·c."""
    family = get_family("leaky_relu")
    c = c_of("leaky_relu")
    assert c == pytest.approx(1.01)
    rng = np.random.default_rng(8)
    A = rng.standard_normal((4, 4)) + 3 * np.eye(4)
    W_down, W_up, S = planted(4, 16, 4, seed=6, c=c, A=A)
    result = absorb(family, W_down, W_up, A=A)
    assert result.verdict == ABSORBABLE and result.S == S
    assert result.verification["max_relative_error"] < 1e-12


def test_the_skip_report_gives_rank_invertibility_and_condition_number():
    A = np.diag([4.0, 2.0, 1.0, 0.5])
    W_down, W_up, _ = planted(4, 16, 4, seed=6, A=A)
    skip = absorb(get_family("relu"), W_down, W_up, A=A).skip
    assert skip["kind"] == "matrix" and skip["rank"] == 4 and skip["invertible"] is True
    assert skip["condition_number"] == pytest.approx(8.0)
    assert skip["lemma4"] == ("A is invertible: by Lemma 4 the block is absorbable iff "
                              "x + A⁻¹W_down σ(W_up x) is, i.e. iff some S has "
                              "A⁻¹W_down[:,S] W_up[S,:] = −I/c, equivalently "
                              "W_down[:,S] W_up[S,:] = −A/c")
    singular = absorb(get_family("relu"), W_down, W_up, A=np.diag([4.0, 2.0, 1.0, 0.0])).skip
    assert singular["rank"] == 3 and singular["invertible"] is False
    assert singular["condition_number"] == float("inf")
    assert singular["lemma4"] == ("A is singular (rank 3 < d = 4): the reduction of Lemma 4 "
                                  "to the identity skip does not apply; the S-condition "
                                  "W_down[:,S] W_up[S,:] = −A/c is still sufficient, but its "
                                  "failure proves nothing")
    zero = absorb(get_family("relu"), W_down, W_up, A=np.zeros((4, 4)))
    assert zero.skip["rank"] == 0 and zero.skip["invertible"] is False
    assert zero.skip["condition_number"] == float("inf")
    assert absorb(get_family("relu"), W_down, W_up).skip == {"kind": "identity"}


def test_the_skip_timing_is_a_duration():
    A = np.eye(3)
    W_down, W_up = random_block(3, 9, 4)
    timings = absorb(get_family("relu"), W_down, W_up, A=A).timings
    assert 0 <= timings["skip_svd"] < 60


@pytest.mark.parametrize("role, size", [("b_up", 9), ("b_down", 3)])
def test_a_bias_of_the_wrong_length_is_refused_by_name(role, size):
    W_down, W_up = random_block(3, 9, 4)
    with pytest.raises(ValueError) as error:
        absorb(get_family("relu"), W_down, W_up, **{role: np.zeros(size + 1)})
    assert str(error.value) == f"{role} has shape ({size + 1},); expected ({size},)"


def test_a_skip_below_float64s_resolution_of_the_weights_is_no_decision():
    """Products near 2^800 and a skip with entries 1 and 2^−600: no exact power-of-two
    rescaling keeps both in float64 (2^−600·2^−550 underflows), so nothing is decided."""
    rng = np.random.default_rng(0)
    W_down = np.ldexp(rng.standard_normal((2, 4)), 400)
    W_up = np.ldexp(rng.standard_normal((4, 2)), 400)
    family = get_family("relu")
    result = absorb(family, W_down, W_up, A=np.diag([1.0, 2.0 ** -600]), notes=["mine"])
    assert result.family is family and result.analysis.verdict == "conditional"
    assert (result.verdict, result.blockers, result.numerics, result.biases) == \
        (NO_DECISION, ["undetermined"], True, False)
    assert result.summary == ("no decision: the skip term is below float64's resolution of "
                              "these weights (their products exceed it by more than 2^500)")
    assert result.reasons == [r for r in analyse(family).reasons if not r.startswith("not used:")]
    assert result.shapes == {"d": 2, "n": 4} and result.notes == ["mine"]
    assert result.skip["kind"] == "matrix" and result.skip["rank"] == 1
    assert set(result.timings) == {"skip_svd"} and result.decision is None
