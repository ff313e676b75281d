"""``--device cuda``: form a block's Gram matrices on a CUDA GPU with PyTorch.

The dominant cost of deciding a block is forming G = (W_downᵀW_down) ∘ (W_up W_upᵀ):
about 2·n²·d multiply-adds (≈ 1.3e13 flops at d = 8192, n = 28672: minutes on a CPU, seconds
on a data-centre GPU). :func:`cuda_gram_fn` returns a replacement for
:func:`leanbridge.numeric.absorb.gram_matrices` that computes both n×n products on the GPU in
float64 and copies them back; the Cholesky solve, the rounding certificate, the MILP fallback
and the residual checks then run in float64 on the CPU exactly as without a GPU, so the
verdicts are the same. (Consumer GPUs run float64 at 1/32–1/64 of their float32 speed; the
A100/H100 class runs it at full tensor-core rate.)

Without PyTorch, or with a PyTorch that has no CUDA device, :func:`cuda_gram_fn` raises
:class:`~leanbridge.numeric.errors.NumericInputError` with one line saying which.
"""

from __future__ import annotations

from leanbridge.numeric.errors import NumericInputError

DEVICES = ("cpu", "cuda")


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

    def gram(W_down, W_up):
        import numpy as np

        wd = torch.from_numpy(np.ascontiguousarray(W_down, dtype=np.float64)).to(device)
        wu = torch.from_numpy(np.ascontiguousarray(W_up, dtype=np.float64)).to(device)
        gram_up = wu @ wu.T
        G = wd.T @ wd
        G.mul_(gram_up)                     # Hadamard product, in place
        del wd, wu
        return G.cpu().numpy(), gram_up.cpu().numpy()

    return gram
