"""Numerics on real weights: ``leanbridge absorb`` and ``leanbridge probe`` (issue 6).

Optional extra ``leanbridge[numeric]`` (NumPy, SciPy; safetensors and matplotlib for their
file formats and plots). Nothing here imports NumPy at package import time, so the core
``leanbridge`` command line works without the extra; the modules that need it import it on
first use and raise :class:`MissingDependencyError` with the pip command when it is absent.

* :mod:`leanbridge.numeric.weights` — load a block's matrices from .npz / .safetensors / .pt.
* :mod:`leanbridge.numeric.absorb` — decide W_down[:,S] W_up[S,:] = −A/c without enumerating
  subsets (Gram system, exact rounding certificate, MILP fallback), build and verify the
  absorbing block, or report the distance to the nearest absorbable configuration.
* :mod:`leanbridge.numeric.biased` — blocks with biases: which theorem decides them (the
  large-scale limit, R4), the summaries ``absorb``/``scan`` quote, the biases of a weight file.
* :mod:`leanbridge.numeric.probe` — fit a residual-free block to x + block(x) on shrinking balls.
* :mod:`leanbridge.numeric.theory_checks` — what the Lean library says about a block's weights:
  |S| ≥ d, the ``Nondegenerate`` definition on floats, necessity citations.
* :mod:`leanbridge.numeric.width` — the minimal absorbing width (n, n + d under (ND)).
* :mod:`leanbridge.numeric.stacks` — bias-free ReLU stacks (residual or plain) as flat parameter
  vectors with gradients and Jacobians, and the constructions used as controls.
* :mod:`leanbridge.numeric.deep_probe`, :mod:`leanbridge.numeric.tangent` — ``probe deep`` and
  ``probe tangent`` (beyond the paper).
* :mod:`leanbridge.numeric.threads` — one BLAS thread for loops over tiny matrices.
* :mod:`leanbridge.numeric.cli` — the two Click commands.
"""

from __future__ import annotations

from leanbridge.numeric.errors import MissingDependencyError, NumericInputError

__all__ = ["MissingDependencyError", "NumericInputError"]
