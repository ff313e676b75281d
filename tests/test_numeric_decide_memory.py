"""The S-decision's working set and the relaxed distance's shortcut: one n×n float64 array
while deciding (G and its Cholesky factor share it: what lets `scan` hold one block at a
time in bounded memory), float32 weights never copied whole to float64, and the Gram-form
distance agrees with the direct residual (falling back to it when small)."""

import tracemalloc

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")

import leanbridge.numeric.absorb as absorb_mod
from leanbridge.families import get_family
from blocks import random_block


def _peak(call):
    call()                                                  # warm up imports and caches
    tracemalloc.start()
    result = call()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return result, peak


def test_decide_s_keeps_one_gram_sized_matrix():
    d, n = 64, 1024
    W_down, W_up = random_block(d, n, 0)
    decision, peak = _peak(lambda: absorb_mod.decide_s(W_down, W_up, -np.eye(d)))
    gram = 8 * n * n
    assert decision.found is False and decision.method == "least-squares"
    # G and its Cholesky factor in one array, plus tile-sized temporaries; the previous code
    # kept W_up W_upᵀ next to G, then G and a separate factor (≥ 2 × gram).
    assert peak < 1.25 * gram, peak / gram
    assert decision.collinear is not None and decision.collinear["count"] == 0


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_absorb_peak_memory_is_one_gram_matrix(dtype):
    d, n = 64, 1024
    W_down, W_up = (w.astype(dtype) for w in random_block(d, n, 1))
    family = get_family("relu")
    result, peak = _peak(lambda: absorb_mod.absorb(family, W_down, W_up))
    assert result.verdict == absorb_mod.NOT_ABSORBABLE
    # float32 weights are converted a tile at a time, never whole (a float64 copy of both
    # would add 2·8·d·n = 0.125 × gram here; the tiles add at most ~0.1)
    assert peak < 1.25 * 8 * n * n, peak / (8 * n * n)


def test_absorbable_block_frees_the_gram_matrix_before_verifying():
    d, n = 16, 256
    rng = np.random.default_rng(4)
    W_up = rng.standard_normal((n, d))
    W_down = rng.standard_normal((d, n)) / np.sqrt(n)
    S = sorted(int(i) for i in rng.choice(n, d, replace=False))
    W_down[:, S] = -np.linalg.inv(W_up[S])
    result = absorb_mod.absorb(get_family("relu"), W_down, W_up)
    assert result.verdict == absorb_mod.ABSORBABLE and result.S == S
    assert result.decision.system is None


@pytest.mark.parametrize("d, n, seed", [(8, 32, 0), (20, 60, 3), (3, 12, 7)])
def test_gram_form_distance_equals_the_direct_residual(monkeypatch, d, n, seed):
    W_down, W_up = random_block(d, n, seed)
    T = -np.eye(d)
    decision = absorb_mod.decide_s(W_down, W_up, T)
    fast = absorb_mod.relaxed_distance(W_down, W_up, T, decision.system)
    # the same minimisation, with the shortcut disabled (bound check always fails)
    monkeypatch.setattr(absorb_mod, "_F64", 1.0)
    direct = absorb_mod.relaxed_distance(W_down, W_up, T, decision.system)
    assert fast["distance"] == pytest.approx(direct["distance"], rel=1e-9)


def test_small_distance_is_recomputed_directly(monkeypatch):
    d, n = 5, 20
    rng = np.random.default_rng(2)
    W_up = rng.standard_normal((n, d))
    W_down = rng.standard_normal((d, n))
    S = list(range(d))
    W_down[:, S] = -np.linalg.inv(W_up[S])
    W_down[0, 0] += 1e-7                       # (★) fails, by a tiny distance
    calls = []
    real = absorb_mod._residual
    monkeypatch.setattr(absorb_mod, "_residual",
                        lambda *args: calls.append(1) or real(*args))
    T = -np.eye(d)
    decision = absorb_mod.decide_s(W_down, W_up, T)
    assert decision.found is False
    calls.clear()
    result = absorb_mod.relaxed_distance(W_down, W_up, T, decision.system)
    assert calls == [1]                         # the Gram form would cancel: direct residual
    assert 0 < result["distance"] < 1e-6


def test_least_squares_exit_uses_the_gram_form_and_bounds_the_true_minimum(monkeypatch):
    d, n = 8, 32
    W_down, W_up = random_block(d, n, 6)
    T = -np.eye(d)
    M = np.stack([np.outer(W_down[:, i], W_up[i]).ravel() for i in range(n)], axis=1)
    coef = np.linalg.lstsq(M, T.ravel(), rcond=None)[0]
    true_min = np.linalg.norm(M @ coef - T.ravel())
    calls = []
    real = absorb_mod._residual
    monkeypatch.setattr(absorb_mod, "_residual", lambda *args: calls.append(1) or real(*args))
    decision = absorb_mod.decide_s(W_down, W_up, T)
    assert decision.method == "least-squares" and decision.found is False
    assert calls == []                                  # no 2d²n direct residual needed
    assert decision.ls_residual <= true_min * (1 + 1e-12)     # a lower bound of the minimum
    assert decision.ls_residual == pytest.approx(true_min, rel=1e-8)


def test_a_gram_array_lapack_cannot_factor_in_place_is_never_used_as_a_factor():
    """Review of the one-array layout: SciPy's LAPACK works on a copy of a Fortran-ordered or
    float32 array, so the "factor" would be G itself (a false "not absorbable" for a planted
    S). `from_full` makes such an array C-ordered float64; the class refuses one directly."""
    from leanbridge.numeric import absorb as A

    rng = np.random.default_rng(3)
    d, n = 5, 20
    W_up = rng.standard_normal((n, d)) / np.sqrt(d)
    W_down = rng.standard_normal((d, n)) / np.sqrt(n)
    S = sorted(rng.choice(n, d, replace=False).tolist())
    W_down[:, S] = -np.linalg.inv(W_up[S])

    def fortran_gram(np_, Wd, Wu, Dg, un=None, eps_in=2.0 ** -52):
        G = (Wd.T @ Wd) * (Wu @ Wu.T) / np.outer(Dg, Dg)
        return A.GramSystem.from_full(np_, np.asfortranarray(G))

    assert A.decide_s(W_down, W_up, -np.eye(d)).found
    decision = A.decide_s(W_down, W_up, -np.eye(d), gram_fn=fortran_gram)
    assert decision.found and sorted(decision.S) == S
    with pytest.raises(ValueError, match="C-ordered float64"):
        A.GramSystem(np.asfortranarray(np.eye(4)), np.ones(4), 1.0)
    with pytest.raises(ValueError, match="C-ordered float64"):
        A.GramSystem(np.eye(4, dtype=np.float32), np.ones(4), 1.0)
