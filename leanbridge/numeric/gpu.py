"""``--device cuda``: form a block's Gram matrix *and solve the system* on a CUDA GPU (PyTorch).

The dominant cost of deciding a block is forming G = (W_downᵀW_down) ∘ (W_up W_upᵀ):
about 2·n²·d multiply-adds (≈ 1.3e13 flops at d = 8192, n = 28672: minutes on a CPU, seconds
on a data-centre GPU), then its Cholesky factorisation, n³/3 ≈ 7.9e12 more. With
:func:`cuda_gram_fn`, :func:`leanbridge.numeric.absorb.decide_s` gets a
:class:`CudaGramSystem`: G is formed in float64 on the GPU (the weights are copied there in
their stored dtype and widened on the device), Jacobi-scaled, summarised for the collinearity
check, factored with ``torch.linalg.cholesky_ex`` and solved with ``torch.cholesky_solve``;
its reciprocal condition number is estimated with LAPACK's own estimator (Higham's dlacn2, as
dpocon uses it) on GPU solves. Only n-vectors come back: the decision itself — the
least-squares bound on the residual, the rounding's direct residual from the weights, the
tolerances — runs in float64 on the CPU exactly as without a GPU, and the absorbing block is
verified on the CPU. When G is not positive definite (``cholesky_ex`` reports it), badly
conditioned, or the rounding certificate needs its smallest eigenvalue, G is copied back and
the CPU paths (LAPACK eigen-decomposition, MILP) take over, as they do without a GPU. The
relaxed distance's L-BFGS-B iterations use G·b on the GPU.

GPU memory: the weights in float64 (16·d·n bytes) and two n×n float64 arrays (G and the
factor; during forming, G and W_up W_upᵀ): 8·(2dn + 2n²) bytes, ≈ 14 GB at d = 8192,
n = 28672. Consumer GPUs run float64 at 1/32–1/64 of their float32 speed; the A100/H100
class runs it at full tensor-core rate. No GPU was available where this was written: the
torch calls are exercised by the tests through a NumPy-backed stand-in for torch only.

Without PyTorch, or with a PyTorch that has no CUDA device, :func:`cuda_gram_fn` raises
:class:`~leanbridge.numeric.errors.NumericInputError` with one line saying which.
"""

from __future__ import annotations

from leanbridge.numeric.errors import NumericInputError

DEVICES = ("cpu", "cuda")


def inverse_norm1_estimate(np, solve, n: int) -> float:
    """An estimate (a lower bound, usually within a factor 3, exact for most matrices) of
    ‖A⁻¹‖₁ for a symmetric n×n A, from x ↦ A⁻¹x: LAPACK's dlacn2 (Higham 1988, Hager's
    method with the alternating-sign check), the estimator dpocon runs."""
    x = np.full(n, 1.0 / n)
    v = solve(x)
    if n == 1:
        return float(abs(v[0]))
    est = float(np.abs(v).sum())
    sign = np.where(v >= 0, 1.0, -1.0)
    x = solve(sign)                               # A⁻ᵀ = A⁻¹: A is symmetric
    j = int(np.argmax(np.abs(x)))
    for _ in range(2, 6):                         # dlacn2's ITMAX = 5
        e = np.zeros(n)
        e[j] = 1.0
        v = solve(e)
        old = est
        est = float(np.abs(v).sum())
        new_sign = np.where(v >= 0, 1.0, -1.0)
        if np.array_equal(new_sign, sign) or est <= old:
            break
        sign = new_sign
        x = solve(sign)
        last, j = j, int(np.argmax(np.abs(x)))
        if x[last] == abs(x[j]):
            break
    alternating = np.where(np.arange(n) % 2 == 0, 1.0, -1.0) * (1.0 + np.arange(n) / (n - 1))
    return max(est, 2.0 * float(np.abs(solve(alternating)).sum()) / (3.0 * n))


class CudaGramSystem:
    """The scaled Gram matrix on the GPU, with the interface of
    :class:`leanbridge.numeric.absorb.GramSystem` (matvec, factor, solve, on_cpu, …)."""

    device = "cuda"

    def __init__(self, torch, device, G, anorm: float, collinear: dict | None) -> None:
        self.torch, self._device, self.G = torch, device, G
        self.L = None
        self.m = int(G.shape[0])
        self.anorm, self.collinear = anorm, collinear

    def _to(self, v):
        import numpy as np

        return self.torch.from_numpy(np.ascontiguousarray(v, dtype=np.float64)).to(self._device)

    def matvec(self, b):
        return (self.G @ self._to(b)).cpu().numpy()

    def factor(self) -> float | None:
        """Cholesky on the GPU (``torch.linalg.cholesky_ex``: no exception, an ``info``); the
        reciprocal condition number estimated as dpocon does, or None (not positive
        definite)."""
        import numpy as np

        L, info = self.torch.linalg.cholesky_ex(self.G)
        if int(info.item()) != 0:
            del L
            return None
        self.L = L
        ainv = inverse_norm1_estimate(np, self.solve, self.m)
        return 0.0 if not ainv > 0 or self.anorm == 0 else 1.0 / (ainv * self.anorm)

    def solve(self, v):
        return self.torch.cholesky_solve(self._to(v)[:, None], self.L)[:, 0].cpu().numpy()

    def on_cpu(self):
        """G copied back as a CPU :class:`~leanbridge.numeric.absorb.GramSystem` (for the
        eigen-decomposition paths); the GPU arrays are released."""
        import numpy as np

        from leanbridge.numeric.absorb import GramSystem

        self.L = None
        G = np.ascontiguousarray(self.G.cpu().numpy(), dtype=np.float64)
        self.G = None
        return GramSystem.from_full(np, G, self.collinear, self.anorm)

    def release(self) -> None:
        self.G = self.L = None


def cuda_gram_fn():
    """A ``gram_fn`` for :func:`~leanbridge.numeric.absorb.decide_s` running on ``cuda``."""
    try:
        import torch
    except ImportError:
        raise NumericInputError("--device cuda needs PyTorch with CUDA, and torch is not "
                                "installed here (pip install torch); use --device cpu") from None
    if not torch.cuda.is_available():
        version = getattr(torch, "__version__", "?")
        raise NumericInputError(f"--device cuda: torch {version} is installed but no CUDA "
                                "device is available (torch.cuda.is_available() is False); "
                                "use --device cpu")
    device = torch.device("cuda")

    def gram(np, Wd, Wu, Dg, un=None, eps_in: float = 2.0 ** -52) -> CudaGramSystem:
        from leanbridge.numeric.absorb import COLLINEAR_TOL

        def put(array):                     # stored dtype over the bus, float64 on the GPU
            return torch.from_numpy(np.ascontiguousarray(array)).to(device,
                                                                   dtype=torch.float64)

        wd, wu = put(Wd), put(Wu)
        up = wu @ wu.T
        G = wd.T @ wd
        del wd, wu
        G.mul_(up)                          # Hadamard product, in place
        dg = put(Dg)
        G.div_(dg[:, None]).div_(dg[None, :])
        collinear = None
        m = int(G.shape[0])
        if un is not None:
            # |cos| of the rows of W_up, strict upper triangle (in place), as absorb's tiles
            nu = put(un)
            up.div_(nu[:, None]).div_(nu[None, :]).abs_().triu_(1)
            limit = 1.0 - max(64 * eps_in, COLLINEAR_TOL)
            flat = int(up.argmax().item())
            i, j = divmod(flat, m)
            value = float(up[i, j].item()) if m > 1 else 0.0
            count = int((up >= limit).sum().item()) if value >= limit else 0
            collinear = {"cos": value, "i": i, "j": j, "count": count}
        del up
        anorm = float(G.abs().sum(dim=0).max().item())
        return CudaGramSystem(torch, device, G, anorm, collinear)

    return gram
