import SkipAbsorption.Stack
import SkipAbsorption.Degree
import SkipAbsorption.Linearisation

/-!
# Depth (paper Corollary 7): the homogeneous form, and the module that gathers Corollary 7

A composition of residual maps `x ↦ x + f_ℓ x` with every `f_ℓ = o(x)` at `0` never equals a
non-empty composition of maps that are each `o(x)` at `0`. Equal depth is not needed.

Where the pieces live (this module imports all three, so `import SkipAbsorption.Depth` still
provides every declaration it provided before the re-cut of issue 23):
* `resStack fs` / `plainStack gs` and their defining equations: `SkipAbsorption.Stack`;
* `not_stack_eq_of_isLittleO` (abstract form), `mlpOf`, `gatedMlpOf`,
  `not_mlpStack_eq_of_isLittleO`, `not_gatedMlpStack_eq_of_tendsto`:
  `SkipAbsorption.Linearisation`;
* `isLittleO_of_posHomogeneous` (degree `k > 1` gives `o(z)` at `0`; this is why the paper's
  depth statement needs `k > 1`, not `k ≠ 1`): `SkipAbsorption.Degree`.

Proved here: `not_mlpStack_eq_of_posHomogeneous`, the corollary for ReLU², ReLU³ (the one that
needs both the linearisation argument and homogeneity).
-/

open Filter Topology Asymptotics Matrix

noncomputable section

namespace SkipAbsorption

variable {d n : ℕ}

/-- **Corollary 7, homogeneous activations of degree `k > 1`** (ReLU², ReLU³). -/
theorem not_mlpStack_eq_of_posHomogeneous {σ : ℝ → ℝ} {k : ℕ} (hk : 1 < k)
    (hσ : ∀ t : ℝ, 0 < t → ∀ z, σ (t * z) = t ^ k * σ z) (hd : 0 < d)
    (ws vs : List (Matrix (Fin d) (Fin n) ℝ × Matrix (Fin n) (Fin d) ℝ)) (hvs : vs ≠ []) :
    ¬ ∀ x, resStack (ws.map (mlpOf σ)) x = plainStack (vs.map (mlpOf σ)) x :=
  not_mlpStack_eq_of_isLittleO (isLittleO_of_posHomogeneous hk hσ) hd ws vs hvs

end SkipAbsorption

end
