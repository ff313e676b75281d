import SkipAbsorption.ActivationDefs
import SkipAbsorption.Relu
import SkipAbsorption.Gaussian
import SkipAbsorption.Depth
import SkipAbsorption.Premises.ReluPowers
import SkipAbsorption.Premises.ReluGate
import SkipAbsorption.Premises.Swish
import SkipAbsorption.Premises.Gates
import SkipAbsorption.Premises.Gelu

/-!
# Activation families and their premise lemmas (the module that gathers them)

Definitions (the activation table of `paper.md`): `relu z = max z 0` (`SkipAbsorption.Relu`),
`relu2 z = (max z 0) ^ 2`, `relu3 z = (max z 0) ^ 3`, `swish z = z * sigmoid z` (SiLU; the
SwiGLU gate), and `gelu z = z * Φ z` with `Φ = cdf (gaussianReal 0 1)` (Mathlib has no `erf`),
in `SkipAbsorption.ActivationDefs`.

Premise lemmas, one per hypothesis shape used by the theorems, each in the smallest file that
can state it (issue 23: a family file imports its activation's premise file, so a failure in one
activation's proof reaches no other family):
* odd part `z/2` (`σ z - σ (-z) = z`, for `absorbable_of_sCondition` with `c = 1`, paper
  Theorems 8/10): `relu_sub_relu_neg` (`SkipAbsorption.Relu`), `swish_sub_swish_neg`
  (`Premises.Swish`), `gelu_sub_gelu_neg` and `geluWith_sub_neg` (`Premises.Gelu`, the only file
  that imports the Gaussian measure theory of `SkipAbsorption.Gaussian`);
* positive homogeneity (paper Proposition 5): `relu_posHomogeneous` (degree 1, the ReGLU gate,
  `Premises.ReluGate`), `relu2_posHomogeneous`, `relu3_posHomogeneous` (degrees 2, 3,
  `Premises.ReluPowers`, with `max_zero_mul_of_pos`);
* gate tends to `0` at `0` (paper Proposition 6, gated): `relu_tendsto_zero` and `abs_relu_le`
  (`Premises.ReluGate`), `swish_tendsto_zero`, `gelu_tendsto_zero` (`Premises.Gates`);
* `σ = o(z)` at `0` (ungated linearisation and depth): `relu2_isLittleO`, `relu3_isLittleO`
  (`Premises.ReluPowers`).

This module proves nothing itself; it keeps the name `SkipAbsorption.Activations` and provides
every declaration it provided before the re-cut (it also imports `SkipAbsorption.Depth`, as it
did). No library file imports it.
-/
