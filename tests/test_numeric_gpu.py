"""The Gram system of the S-decision: one n×n array holding G and its Cholesky factor (CPU),
and the ``--device cuda`` system that forms *and solves* it with torch (exercised through a
NumPy-backed stand-in for torch: there is no GPU on the machines this project runs on).
Both must give the CPU's float64 decisions: same method, same S, same bounds."""

import sys

import pytest

np = pytest.importorskip("numpy")
sl = pytest.importorskip("scipy.linalg")

import torch_standin  # noqa: E402

import leanbridge.numeric.absorb as absorb_mod  # noqa: E402
from leanbridge.numeric import gpu  # noqa: E402


def random_block(d, n, seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return ((rng.standard_normal((d, n)) / np.sqrt(n)).astype(dtype),
            (rng.standard_normal((n, d)) / np.sqrt(d)).astype(dtype))


def planted_block(d, n, seed):
    W_down, W_up = random_block(d, n, seed)
    S = sorted(int(i) for i in np.random.default_rng(seed + 1).choice(n, d, replace=False))
    W_down[:, S] = -np.linalg.inv(W_up[S])
    return W_down, W_up, S


def explicit_scaled_gram(W_down, W_up):
    Wd, Wu = W_down.astype(float), W_up.astype(float)
    G = (Wd.T @ Wd) * (Wu @ Wu.T)
    scale = np.linalg.norm(Wd, axis=0) * np.linalg.norm(Wu, axis=1)
    return G / np.outer(scale, scale), scale


@pytest.fixture
def cuda(monkeypatch):
    fake = torch_standin.module()
    monkeypatch.setitem(sys.modules, "torch", fake)
    return fake


# ------------------------------------------------------------------------------------------
# CPU: one array for G and its factor
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n, tile", [(37, 8), (40, 40), (41, 256), (1, 4)])
def test_tiles_form_the_scaled_gram_matrix(n, tile):
    W_down, W_up = random_block(5, n, n)
    G, scale = explicit_scaled_gram(W_down, W_up)
    _, un = absorb_mod.unit_norms(np, W_down, W_up)
    system = absorb_mod.form_gram(np, W_down, W_up, scale, un, tile=tile)
    assert np.array_equal(system.a, system.a.T)                    # exactly symmetric
    assert np.allclose(system.a, G, rtol=1e-13, atol=1e-15)
    assert system.anorm == pytest.approx(np.abs(G).sum(axis=0).max(), rel=1e-13)
    cos = np.abs((W_up @ W_up.T) / np.outer(un, un))
    np.fill_diagonal(cos, 0)
    if n > 1:
        assert system.collinear["cos"] == pytest.approx(cos.max(), rel=1e-13)
        i, j = system.collinear["i"], system.collinear["j"]
        assert i < j and cos[i, j] == pytest.approx(cos.max(), rel=1e-13)


def test_collinear_rows_are_counted_across_tiles():
    W_down, W_up = random_block(4, 30, 0)
    W_up[25] = -3 * W_up[2]                                     # rows in different tiles
    W_up[7] = 2 * W_up[6]                                       # in the same tile
    _, un = absorb_mod.unit_norms(np, W_down, W_up)
    scale = np.linalg.norm(W_down, axis=0) * un
    system = absorb_mod.form_gram(np, W_down, W_up, scale, un, tile=8)
    assert system.collinear["count"] == 2
    assert (system.collinear["i"], system.collinear["j"]) in ((2, 25), (6, 7))
    assert system.collinear["cos"] == pytest.approx(1.0, abs=1e-15)


def test_one_array_holds_g_and_its_factor_in_every_state():
    W_down, W_up = random_block(6, 24, 1)
    G, scale = explicit_scaled_gram(W_down, W_up)
    system = absorb_mod.form_gram(np, W_down, W_up, scale, tile=7)
    buffer = system.a
    b = np.random.default_rng(0).standard_normal(24)
    assert np.allclose(system.matvec(b), G @ b, rtol=1e-13)
    formed = system.a.copy()
    rcond = system.factor()
    L = np.linalg.cholesky(G)
    assert system.state == "factor"
    assert np.allclose(np.triu(system.a), L.T, rtol=1e-12, atol=1e-14)   # factor: upper part
    assert np.array_equal(np.tril(system.a, -1), np.tril(formed, -1))     # G: strict lower part
    assert np.allclose(system.matvec(b), G @ b, rtol=1e-13)               # still G·b
    assert np.allclose(system.solve(b), np.linalg.solve(G, b), rtol=1e-10)
    lapack_rcond = sl.lapack.dpocon(np.linalg.cholesky(G), np.abs(G).sum(axis=0).max(),
                                    uplo="L")[0]
    assert rcond == pytest.approx(lapack_rcond, rel=1e-12)
    assert system.lambda_min() == pytest.approx(np.linalg.eigvalsh(G)[0], rel=1e-10)
    assert np.allclose(system.matvec(b), G @ b, rtol=1e-13)               # after dsyevr too
    lam, U = system.eigh()
    assert np.allclose((U * lam) @ U.T, G, atol=1e-12)
    assert system.a is buffer                                              # never reallocated


def test_float32_weights_decide_as_their_float64_copies():
    """scan keeps float32 weights as stored: the products come from float64 tiles, so the
    decision is the one on exact float64 copies (same method, S, bounds)."""
    F32 = 2.0 ** -23
    W_down, W_up, S = planted_block(6, 40, 3)
    for Wd, Wu in ((W_down, W_up), random_block(6, 40, 4)):
        Wd32, Wu32 = Wd.astype(np.float32), Wu.astype(np.float32)
        here = absorb_mod.decide_s(Wd32, Wu32, -np.eye(6), eps_in=F32)
        there = absorb_mod.decide_s(Wd32.astype(float), Wu32.astype(float), -np.eye(6),
                                    eps_in=F32)
        assert (here.found, here.method, here.S) == (there.found, there.method, there.S)
        assert here.ls_residual == pytest.approx(there.ls_residual, rel=1e-9, abs=1e-12)
        assert here.tolerance == pytest.approx(there.tolerance, rel=1e-12)
    assert here.found is False
    assert absorb_mod.decide_s(W_down.astype(np.float32), W_up.astype(np.float32), -np.eye(6),
                               eps_in=F32).S == S


# ------------------------------------------------------------------------------------------
# GPU (stand-in): formed and solved there, decided on the CPU
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_condition_estimate_is_lapacks(seed):
    rng = np.random.default_rng(seed)
    n = 30
    Q = np.linalg.qr(rng.standard_normal((n, n)))[0]
    A = (Q * np.logspace(0, -3 * seed, n)) @ Q.T
    A = (A + A.T) / 2
    L = np.linalg.cholesky(A)
    anorm = np.abs(A).sum(axis=0).max()
    ours = gpu.inverse_norm1_estimate(np, lambda v: sl.cho_solve((L, True), v), n)
    assert 1 / (ours * anorm) == pytest.approx(sl.lapack.dpocon(L, anorm, uplo="L")[0],
                                               rel=1e-8)
    assert ours <= np.abs(np.linalg.inv(A)).sum(axis=0).max() * (1 + 1e-10)   # a lower bound


def _both(W_down, W_up, T, **kwargs):
    cpu = absorb_mod.decide_s(W_down, W_up, T, **kwargs)
    cuda = absorb_mod.decide_s(W_down, W_up, T, gram_fn=gpu.cuda_gram_fn(), **kwargs)
    return cpu, cuda


def test_generic_block_is_decided_from_the_gpu_solve(cuda):
    W_down, W_up = random_block(8, 32, 6)
    cpu, gpu_decision = _both(W_down, W_up, -np.eye(8))
    assert cuda.calls["cholesky_ex"] == 1 and cuda.calls["cholesky_solve"] >= 3
    assert gpu_decision.method == cpu.method == "least-squares"
    assert gpu_decision.found is cpu.found is False
    assert gpu_decision.ls_residual == pytest.approx(cpu.ls_residual, rel=1e-10)
    assert gpu_decision.gram["device"] == "cuda"
    assert gpu_decision.gram["rcond"] == pytest.approx(cpu.gram["rcond"], rel=1e-8)
    assert gpu_decision.collinear == pytest.approx(cpu.collinear)
    # the relaxed distance runs its G·b products on the GPU system too
    before = cuda.calls["matmul"]
    ours = absorb_mod.relaxed_distance(W_down, W_up, -np.eye(8), gpu_decision.system)
    assert cuda.calls["matmul"] > before
    theirs = absorb_mod.relaxed_distance(W_down, W_up, -np.eye(8), cpu.system)
    assert ours["distance"] == pytest.approx(theirs["distance"], rel=1e-8)


def test_planted_s_is_found_and_checked_on_the_cpu(cuda, monkeypatch):
    W_down, W_up, S = planted_block(5, 20, 8)
    residuals = []
    real = absorb_mod._residual
    monkeypatch.setattr(absorb_mod, "_residual",
                        lambda np_, Wd, Wu, a, T: residuals.append(a) or real(np_, Wd, Wu, a, T))
    cpu, gpu_decision = _both(W_down, W_up, -np.eye(5))
    assert gpu_decision.found is True and gpu_decision.S == cpu.S == S
    assert gpu_decision.method == "rounding"
    # the found S's residual is computed directly from the weights, in float64 on the CPU
    mask = np.isin(np.arange(20), S).astype(float)
    assert any(np.array_equal(a, mask) for a in residuals)
    assert gpu_decision.residual == real(np, W_down, W_up, mask, -np.eye(5))
    assert gpu_decision.residual == cpu.residual <= gpu_decision.tolerance


def test_not_positive_definite_falls_back_to_the_cpu_eigen_decomposition(cuda):
    W_down, W_up = random_block(3, 9, 2)
    W_up[5] = W_up[4]                               # R_4 = R_5 direction-wise: G singular
    W_down[:, 5] = W_down[:, 4]
    cpu, gpu_decision = _both(W_down, W_up, -np.eye(3))
    assert cuda.calls["cholesky_ex"] == 1
    assert gpu_decision.gram["singular"] and cpu.gram["singular"]
    assert gpu_decision.gram["device"].startswith("cuda, then cpu")
    assert gpu_decision.system[0].device == "cpu"
    assert (gpu_decision.found, gpu_decision.method, gpu_decision.S) == \
        (cpu.found, cpu.method, cpu.S)
    assert gpu_decision.gram["rank"] == cpu.gram["rank"]


def test_more_units_than_d_squared_never_factors_on_the_gpu(cuda):
    W_down, W_up = random_block(2, 7, 3)
    cpu, gpu_decision = _both(W_down, W_up, -np.eye(2))
    assert cuda.calls["cholesky_ex"] == 0
    assert (gpu_decision.found, gpu_decision.method) == (cpu.found, cpu.method)
    assert gpu_decision.gram["rank"] == cpu.gram["rank"] == 4


def test_absorb_with_the_gpu_system_verifies_on_the_cpu(cuda):
    from leanbridge.families import get_family

    W_down, W_up, S = planted_block(4, 16, 11)
    result = absorb_mod.absorb(get_family("relu"), W_down, W_up, gram_fn=gpu.cuda_gram_fn())
    assert result.verdict == absorb_mod.ABSORBABLE and result.S == S
    assert result.verification["passed"] and result.decision.system is None
