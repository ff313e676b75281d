"""The Lean-backed checks of `leanbridge absorb` (issue 10's numeric cross-check, issue 13's
minimal width): planted S recovered by absorb with |S| ≥ d, and by the matching of the proof of
Thm 8 (steps 3c-3d) from an absorbing block; the Lean necessity cited only for
nondegenerate weights; an explicit counterexample to necessity when two rows of W_up are
parallel; the nondegeneracy test's edge cases; the (ND) enumeration against brute force; the
minimal absorbing width; JSON against the schema."""

import itertools
import json
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")

import jsonschema
from click.testing import CliRunner

from leanbridge.families import get_family
from leanbridge.numeric.absorb import ABSORBABLE, NO_DECISION, NOT_ABSORBABLE, absorb, verify
from leanbridge.numeric.cli import absorb as absorb_command
from leanbridge.numeric.theory_checks import (
    LEAN,
    annotate,
    card_check,
    cos_threshold,
    nondegeneracy_check,
)
from leanbridge.numeric.width import (
    minimal_width,
    singular_patterns,
    wide_block,
)
from blocks import random_block

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "leanbridge" / "schemas"
                     / "absorb-theory-1.schema.json").read_text(encoding="utf-8"))
RELU = get_family("relu")


def planted_block(d, n, seed):
    W_down, W_up = random_block(d, n, seed)
    S = sorted(int(i) for i in np.random.default_rng(seed + 100).choice(n, d, replace=False))
    W_down[:, S] = -np.linalg.inv(W_up[S])
    return W_down, W_up, S


def decided(W_down, W_up, family=RELU, A=None):
    result = absorb(family, W_down, W_up, A)
    annotate(result, W_down, W_up, A)
    return result


def all_S(n):
    return itertools.chain.from_iterable(itertools.combinations(range(n), k)
                                         for k in range(n + 1))


# --------------------------------------------------------------------------------------------
# Issue 10, numeric cross-check
# --------------------------------------------------------------------------------------------

def relu(x):
    return np.maximum(x, 0.0)


def matching_S(W_up, V_up, tol=1e-9):
    """Steps 3c-3d of the proof of Thm 8 (issue 10), on numbers: each row u_i of W_up is
    parallel to exactly one row u'_j of the absorbing block's V_up, u'_j = λ_i u_i (the kink
    lemma puts some u'_j on every line ℝ u_i; nondegeneracy makes it unique and the matching a
    bijection), and S = {i | λ_i < 0}."""
    n = W_up.shape[0]
    lambdas, partners = np.empty(n), []
    for i, u in enumerate(W_up):
        ratios = V_up @ u / (u @ u)
        off_line = np.linalg.norm(V_up - np.outer(ratios, u), axis=1)
        on_line = [j for j in range(V_up.shape[0])
                   if off_line[j] <= tol * np.linalg.norm(V_up[j]) and abs(ratios[j]) > tol]
        assert len(on_line) == 1, (i, on_line)          # unique: rows of W_up not parallel
        partners.append(on_line[0])
        lambdas[i] = ratios[on_line[0]]
    assert sorted(partners) == list(range(n))          # equal width: a bijection
    return sorted(int(i) for i in np.flatnonzero(lambdas < 0))


@pytest.mark.parametrize("d, n, seed", [(2, 5, 0), (3, 7, 1), (4, 12, 2), (3, 30, 3)])
def test_the_matching_of_the_proof_recovers_the_planted_S(d, n, seed):
    """On nondegenerate weights with a planted S: the absorbing block of Thm 8's "if" direction
    (rows of W_up in S negated), then permuted and rescaled unit by unit (another absorbing
    block of the same width), gives back S through the proof's matching, and
    W_down[:,S] W_up[S,:] = −I."""
    W_down, W_up, S = planted_block(d, n, seed)
    assert nondegeneracy_check(W_down, W_up).holds
    flip = np.where(np.isin(np.arange(n), S), -1.0, 1.0)
    rng = np.random.default_rng(seed + 7)
    perm, scale = rng.permutation(n), rng.uniform(0.5, 2.0, n)
    V_up = (flip[:, None] * W_up * scale[:, None])[perm]
    V_down = (W_down / scale)[:, perm]
    x = rng.standard_normal((d, 50))
    assert np.allclose(x + W_down @ relu(W_up @ x), V_down @ relu(V_up @ x), atol=1e-10)
    assert matching_S(W_up, V_up) == S
    assert np.allclose(W_down[:, S] @ W_up[S], -np.eye(d), atol=1e-10)


def test_the_matching_needs_nondegenerate_rows():
    """Two parallel rows of W_up: a row of V_up then lies on the line of both, and the
    matching of the proof is not defined (the hypothesis is needed)."""
    W_down, W_up, S = planted_block(2, 5, 0)
    W_up[4] = 2.0 * W_up[3]
    with pytest.raises(AssertionError):
        matching_S(W_up, W_up.copy())


@pytest.mark.parametrize("d, n, seed", [(2, 5, 0), (3, 7, 1), (4, 12, 2), (3, 30, 3)])
def test_planted_S_on_nondegenerate_weights_is_recovered_with_the_card_check(d, n, seed):
    W_down, W_up, S = planted_block(d, n, seed)
    result = decided(W_down, W_up)
    assert result.verdict == ABSORBABLE and result.S == S
    theory = result.theory
    assert theory["nondegenerate"]["holds"] is True
    assert theory["card_check"] == {"S_size": d, "bound": d, "holds": True,
                                    "lean": LEAN["card"], "detail": f"|S| = {d} ≥ {d}"}
    assert theory["lean"]["S_size"] == "SkipAbsorption.card_le_of_sCondition"
    assert theory["lean"]["sufficiency"] == "SkipAbsorption.absorbable_of_sCondition"
    assert "necessity" not in theory["lean"]
    # minimal width: n (the sign flip), and no narrower block (rank bound, nondegenerate)
    mw = theory["minimal_width"]
    assert (mw["value"], mw["status"], mw["lower"], mw["upper"]) == (n, "decided", n, n)
    jsonschema.validate(theory, SCHEMA)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_not_absorbable_relu_cites_the_lean_necessity_when_nondegenerate(seed):
    W_down, W_up = random_block(3, 6, seed)
    result = decided(W_down, W_up)
    assert result.verdict == NOT_ABSORBABLE
    assert result.theory["lean"]["necessity"] == \
        "SkipAbsorption.exists_sCondition_of_absorbable_relu"
    assert "Lean: SkipAbsorption.exists_sCondition_of_absorbable_relu" in result.summary
    assert result.theory["card_check"] is None


def test_relu_verdict_states_the_hypotheses_of_the_lean_statement():
    """absorbable_relu_iff needs nondegenerate weights and nothing on d: the verdict says so
    (and that Lean is not compiled here); GELU's verdict keeps the paper's hypotheses."""
    W_down, W_up = random_block(3, 6, 0)
    summary = decided(W_down, W_up).summary
    assert "d ≥ 2" not in summary
    assert ("by the paper's Thm 8 (hypotheses as in its Lean statement "
            "SkipAbsorption.absorbable_relu_iff: nondegenerate weights, any d; not compiled: "
            "no Lean toolchain here) that condition is necessary") in summary
    A = np.random.default_rng(9).standard_normal((3, 3)) + 3 * np.eye(3)
    W_down, W_up = random_block(3, 6, 4)
    summary = decided(W_down, W_up, A=A).summary
    assert "d ≥ 2" not in summary
    assert ("SkipAbsorption.absorbable_relu_iff_of_isUnit_det: nondegenerate weights, A "
            "invertible, any d") in summary
    W_down, W_up = random_block(3, 6, 5)
    assert ("by the paper's Thm 10 (by the large-scale limit, R3) (hypotheses as in its Lean "
            "statement SkipAbsorption.absorbable_gelu_iff: nondegenerate weights, any d") in \
        decided(W_down, W_up, family=get_family("gelu")).summary


def test_relu_at_d_1_stays_no_decision_and_says_why():
    W_down, W_up = np.array([[-0.5]]), np.array([[1.0]])
    result = decided(W_down, W_up)
    assert result.verdict == NO_DECISION
    assert "the Lean statement has no hypothesis on d but is not compiled here" in \
        result.summary


def test_invertible_skip_cites_the_isUnit_versions():
    W_down, W_up = random_block(3, 6, 4)
    A = np.random.default_rng(9).standard_normal((3, 3)) + 3 * np.eye(3)
    result = decided(W_down, W_up, A=A)
    assert result.verdict == NOT_ABSORBABLE
    assert result.theory["lean"]["necessity"] == \
        "SkipAbsorption.absorbable_relu_iff_of_isUnit_det"
    assert result.theory["minimal_width"]["status"] == "not_checked"     # identity skip only
    S = [0, 2, 5]
    W_down[:, S] = -A @ np.linalg.inv(W_up[S])
    result = decided(W_down, W_up, A=A)
    assert result.verdict == ABSORBABLE
    assert result.theory["card_check"]["lean"] == \
        "SkipAbsorption.card_le_of_sCondition_of_isUnit"


def test_gelu_necessity_cites_the_lean_characterisation():
    W_down, W_up = random_block(3, 6, 5)
    result = decided(W_down, W_up, family=get_family("gelu"))
    assert result.verdict == NOT_ABSORBABLE
    assert result.theory["lean"]["necessity"] == "SkipAbsorption.absorbable_gelu_iff"
    assert "not formalised" not in result.summary
    assert ("Lean: SkipAbsorption.absorbable_gelu_iff (its hypothesis "
            "SkipAbsorption.Nondegenerate holds for these weights)") in result.summary
    mw = result.theory["minimal_width"]
    assert mw["lower"] is None and mw["upper"] == 9 and mw["status"] == "bounds"
    assert "width_upper" not in result.theory["lean"]       # the Lean name is for ReLU


def counterexample():
    """d = 2, n = 3: units 0 and 1 read the same direction e1 (parallel rows), unit 2 reads e2.

        f(x) = x − (1/3)e1 relu(x1) − (1/3)e1 relu(x1) − e2 relu(x2)
             = (x1 − (2/3)relu(x1), −relu(−x2))

    is absorbed by g(x) = (1/3)e1 relu(x1) − e1 relu(−x1) − e2 relu(−x2) (width 3), but the
    e1e1ᵀ entry of W_down[:,S] W_up[S,:] is 0, −1/3 or −2/3, never −1: no S works."""
    e1, e2 = np.eye(2)
    W_up = np.array([e1, e1, e2])
    W_down = np.stack([-e1 / 3, -e1 / 3, -e2], axis=1)
    V_up = np.array([e1, -e1, -e2])
    V_down = np.stack([e1 / 3, -e1, -e2], axis=1)
    return W_down, W_up, V_down, V_up


def test_parallel_rows_give_a_counterexample_to_necessity():
    W_down, W_up, V_down, V_up = counterexample()
    # the absorbing block exists: the identity holds (checked on many points)
    X = np.random.default_rng(0).standard_normal((2000, 2)) * np.logspace(-3, 3, 2000)[:, None]
    f = X + np.maximum(X @ W_up.T, 0) @ W_down.T
    g = np.maximum(X @ V_up.T, 0) @ V_down.T
    assert np.abs(f - g).max() <= 1e-12 * np.abs(f).max()
    assert verify(RELU, W_down, W_up, None, V_down, V_up)["passed"]
    # … although no S satisfies the condition (enumeration of all 8 subsets)
    residuals = [np.linalg.norm(W_down[:, list(S)] @ W_up[list(S)] + np.eye(2))
                 for S in all_S(3)]
    assert min(residuals) == pytest.approx(1 / 3)
    # the hypothesis that fails is nondegeneracy: rows 0 and 1 are parallel
    nd = nondegeneracy_check(W_down, W_up)
    assert not nd.holds and nd.parallel_pairs == 1 and nd.example_pair == [0, 1]
    # and absorb neither claims "not absorbable" nor cites the Lean necessity
    result = decided(W_down, W_up)
    assert result.decision.found is False
    assert result.verdict == NO_DECISION
    assert "necessity" not in result.theory["lean"]
    assert any("necessity needs nondegenerate weights" in note for note in result.notes)


def test_opposite_parallel_rows_also_break_necessity():
    # the same counterexample with unit 1 reading −e1: relu(−x1) instead of relu(x1)
    e1, e2 = np.eye(2)
    W_up = np.array([e1, -e1, e2])
    W_down = np.stack([-e1 / 2, e1 / 4, -e2], axis=1)
    # f1 = x1 − relu(x1)/2 + relu(−x1)/4 = x1/2 (x1 > 0), (3/4)x1 (x1 < 0): a plain block
    # (1/2)relu(x1) − (3/4)relu(−x1); the e1e1ᵀ entry of W_down[:,S] W_up[S,:] is 0, −1/2,
    # −1/4 or −3/4, never −1
    V_up = np.array([e1, -e1, -e2])
    V_down = np.stack([e1 / 2, -3 * e1 / 4, -e2], axis=1)
    assert verify(RELU, W_down, W_up, None, V_down, V_up)["passed"]
    assert min(np.linalg.norm(W_down[:, list(S)] @ W_up[list(S)] + np.eye(2))
               for S in all_S(3)) == pytest.approx(0.25)
    assert not nondegeneracy_check(W_down, W_up).holds


# --------------------------------------------------------------------------------------------
# The nondegeneracy test (the Lean definition on floats)
# --------------------------------------------------------------------------------------------

def test_nondegeneracy_edge_cases():
    W_down, W_up = random_block(3, 6, 7)
    assert nondegeneracy_check(W_down, W_up).holds
    zero_row = W_up.copy()
    zero_row[4] = 0.0
    check = nondegeneracy_check(W_down, zero_row)
    assert not check.holds and check.zero_rows == [4] and check.parallel_pairs == 0
    zero_col = W_down.copy()
    zero_col[:, 2] = 0.0
    check = nondegeneracy_check(zero_col, W_up)
    assert not check.holds and check.zero_columns == [2]
    negative = W_up.copy()
    negative[5] = -2.5 * negative[1]                      # parallel with a negative factor
    check = nondegeneracy_check(W_down, negative)
    assert not check.holds and check.example_pair == [1, 5]
    # a tiny but nonzero row is nonzero (exact test; no underflow in the cosine)
    tiny = W_up.copy()
    tiny[0] *= 1e-200
    assert nondegeneracy_check(W_down, tiny).holds
    # nearly parallel but clearly not: 1 − |cos| ≈ 5e-9 ≫ the threshold
    near = W_up.copy()
    near[3] = near[2] + 1e-4 * np.linalg.norm(near[2]) * np.array([1.0, -1.0, 0.5]) / 1.5
    check = nondegeneracy_check(W_down, near)
    assert check.holds and 1 - check.max_abs_cos > 1e-10
    # parallel to float32 precision counts as parallel when the weights are float32
    f32 = W_up.copy()
    f32[3] = f32[2] * (1 + 1e-9 * np.array([1.0, -1.0, 0.0]))
    assert nondegeneracy_check(W_down, f32, eps_in=2.0 ** -23).parallel_pairs == 1


def test_threshold_is_documented_and_grows_with_d_and_dtype():
    eps64, eps32 = 2.0 ** -52, 2.0 ** -23
    assert cos_threshold(3, eps64) == 1e-12
    assert cos_threshold(3, eps32) == 64 * eps32
    assert cos_threshold(5000, eps64) == 8 * 5002 * eps64


def test_row_blocks_do_not_change_the_result():
    W_down, W_up = random_block(4, 50, 8)
    W_up[37] = 3 * W_up[11]
    W_up[48] = -W_up[2]
    full = nondegeneracy_check(W_down, W_up)
    blocked = nondegeneracy_check(W_down, W_up, row_block=7)
    assert full == blocked and full.parallel_pairs == 2


def test_card_check_flags_an_impossible_S():
    assert card_check([0, 1], 3, None)["holds"] is False
    assert "impossible by the theorem" in card_check([0, 1], 3, None)["detail"]
    singular = card_check([4], 3, {"kind": "matrix", "invertible": False, "rank": 1})
    assert singular == {"S_size": 1, "bound": 1, "holds": True, "lean": None,
                        "detail": "|S| = 1 ≥ 1"}


# --------------------------------------------------------------------------------------------
# (ND) and the minimal absorbing width
# --------------------------------------------------------------------------------------------

def brute_force(W_down, W_up, tol=1e-9):
    d, n = W_down.shape
    ranks = []
    for S in all_S(n):
        E = W_down[:, list(S)] @ W_up[list(S)]
        s = np.linalg.svd(np.eye(d) + E, compute_uv=False)
        ranks.append(int((s > tol * (1 + np.linalg.norm(E))).sum()))
    return min(ranks), sum(r < d for r in ranks)


@pytest.mark.parametrize("d, n, seed", [(2, 5, 0), (3, 4, 1), (4, 3, 2), (5, 2, 3), (1, 4, 4)])
def test_singular_patterns_agree_with_brute_force(d, n, seed):
    W_down, W_up = random_block(d, n, seed)
    W_down[:, 0] = -W_down[:, 0] / (W_up[0] @ W_down[:, 0])   # u_0·w_0 = −1: S = {0} singular
    nd = singular_patterns(W_down, W_up)
    assert (nd["min_rank"], nd["singular_subsets"]) == brute_force(W_down, W_up)
    assert nd["nd_holds"] is False and nd["subsets"] == 2 ** n
    assert nd["min_rank"] == d - 1 or d == 1


def test_minimal_width_is_n_plus_d_under_ND():
    W_down, W_up = random_block(2, 4, 11)
    result = decided(W_down, W_up)
    assert result.verdict == NOT_ABSORBABLE
    mw = result.theory["minimal_width"]
    assert mw["nd"]["nd_holds"] is True
    assert (mw["value"], mw["status"], mw["lower"], mw["upper"]) == (6, "decided", 6, 6)
    assert mw["construction"]["passed"] and mw["construction"]["width"] == 6
    assert result.theory["lean"]["width_upper"] == \
        "SkipAbsorption.absorbableWithWidth_add_of_linearIndependent"
    assert result.theory["lean"]["width_lower"] == \
        "SkipAbsorption.exists_rank_le_of_absorbableWithWidth"
    # the width-(n + d) block really equals the skip block
    V_down, V_up = wide_block(W_down, W_up, mw["independent_rows"])
    assert V_up.shape == (6, 2)
    assert verify(RELU, W_down, W_up, None, V_down, V_up)["max_relative_error"] < 1e-12


def test_minimal_width_bounds_when_ND_fails():
    W_down, W_up = random_block(3, 5, 12)
    W_down[:, 1] = -W_down[:, 1] / (W_up[1] @ W_down[:, 1])    # rank(I + w_1 u_1ᵀ) = 2
    mw = decided(W_down, W_up).theory["minimal_width"]
    assert mw["nd"]["nd_holds"] is False and mw["nd"]["min_rank"] == 2
    assert (mw["status"], mw["lower"], mw["upper"], mw["value"]) == ("bounds", 7, 8, None)


def test_minimal_width_beyond_enumeration_is_not_checked():
    W_down, W_up = random_block(3, 24, 13)
    mw = decided(W_down, W_up).theory["minimal_width"]
    assert mw["nd"] == {"checked": False,
                        "reason": "n = 24 > 20: (ND) needs all 2^n subsets; not checked"}
    assert (mw["status"], mw["lower"], mw["upper"]) == ("bounds", 25, 27)


def test_undecided_S_condition_gives_only_n_beyond_enumeration():
    W_down, W_up = random_block(3, 24, 13)
    mw = minimal_width(RELU, W_down, W_up, None, nondegenerate=True, c=1.0,
                       relu_necessity=True, no_S=False)
    assert (mw["lower"], mw["upper"]) == (24, 27)


def test_minimal_width_for_degenerate_weights_has_no_lower_bound():
    W_down, W_up, *_ = counterexample()
    mw = minimal_width(RELU, W_down, W_up, None, nondegenerate=False, c=1.0,
                       relu_necessity=True)
    assert mw["lower"] is None and mw["upper"] == 5 and mw["status"] == "bounds"
    assert any("needs nondegenerate weights" in reason for reason in mw["reasons"])


def test_rank_deficient_W_up_has_no_width_construction():
    W_down, W_up = random_block(3, 5, 14)
    W_up[:, 2] = W_up[:, 0] + W_up[:, 1]                       # rank W_up = 2 < d
    mw = minimal_width(RELU, W_down, W_up, None, nondegenerate=True, c=1.0,
                       relu_necessity=True)
    assert mw["upper"] is None and mw["independent_rows"] is None
    assert mw["lower"] is not None and mw["status"] == "bounds"


# --------------------------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------------------------

def test_absorb_cli_json_carries_the_lean_fields(tmp_path):
    W_down, W_up, S = planted_block(3, 8, 21)
    np.savez(tmp_path / "planted.npz", W_down=W_down, W_up=W_up)
    W_down2, W_up2 = random_block(3, 8, 22)
    np.savez(tmp_path / "random.npz", W_down=W_down2, W_up=W_up2)
    runner = CliRunner()
    for name, verdict in (("planted", ABSORBABLE), ("random", NOT_ABSORBABLE)):
        result = runner.invoke(absorb_command, [str(tmp_path / f"{name}.npz"), "--activation",
                                                "relu", "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        jsonschema.validate(data, SCHEMA)
        assert data["verdict"] == verdict
        assert data["lean"]["nondegenerate"] == "SkipAbsorption.Nondegenerate"
        assert data["minimal_width"]["value"] == (8 if name == "planted" else 11)
    text = runner.invoke(absorb_command, [str(tmp_path / "random.npz"), "--activation",
                                          "relu"]).output
    assert "nondegeneracy (Lean: SkipAbsorption.Nondegenerate): holds" in text
    assert "minimal absorbing width: 11" in text
    assert "not compiled: no Lean toolchain here" in text


def test_not_absorbable_becomes_no_decision_when_only_the_lean_test_fails(monkeypatch):
    # absorb's own collinearity check and the Lean-definition test share their threshold up to
    # a float64 error term; if the Lean test alone flags a pair, the Lean necessity is not
    # cited and "not absorbable" is withdrawn. Simulated with a wider threshold floor.
    from leanbridge.numeric import theory_checks

    W_down, W_up = random_block(3, 6, 15)
    W_up[4] = W_up[1] + 1e-4 * np.linalg.norm(W_up[1]) * np.array([0.6, -0.8, 0.0])
    plain = absorb(RELU, W_down, W_up)
    assert plain.verdict == NOT_ABSORBABLE                     # 1 − |cos| ≈ 1e-9 > 1e-12
    monkeypatch.setattr(theory_checks, "COS_FLOOR", 1e-6)
    annotate(plain, W_down, W_up)
    assert plain.verdict == NO_DECISION
    assert "needs nondegenerate weights" in plain.summary
    assert "necessity" not in plain.theory["lean"]
