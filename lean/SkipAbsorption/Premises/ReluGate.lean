import Mathlib
import SkipAbsorption.Defs

/-!
# Premise lemmas of ReLU as a gate (ReGLU)

* positive homogeneity of degree 1 (paper Proposition 5, gated case with `m = 1`):
  `relu_posHomogeneous`;
* the gate tends to `0` at `0` (paper Proposition 6, gated): `relu_tendsto_zero`, from
  `abs_relu_le` (`|relu z| ≤ |z|`).

Both proofs are stated here in full (the case split on the sign of `z`, and `relu = O(z)` at
`0`), so that this file imports only `SkipAbsorption.Defs` (where `relu` lives) and Mathlib: the
ReGLU family file imports it, and no file of the ReLU² / ReLU³ premises or of the linearisation argument is needed for it.
-/

open Filter Topology Asymptotics

noncomputable section

namespace SkipAbsorption

/-- ReLU is positively homogeneous of degree 1 (the ReGLU gate). -/
theorem relu_posHomogeneous : ∀ t : ℝ, 0 < t → ∀ z, relu (t * z) = t ^ 1 * relu z := by
  intro t ht z
  show max (t * z) 0 = t ^ 1 * max z 0
  rw [pow_one]
  rcases le_total z 0 with h | h
  · have h1 : max z 0 = 0 := max_eq_right h
    have h2 : max (t * z) 0 = 0 := max_eq_right (by nlinarith)
    rw [h1, h2, mul_zero]
  · have h1 : max z 0 = z := max_eq_left h
    have h2 : max (t * z) 0 = t * z := max_eq_left (by nlinarith)
    rw [h1, h2]

/-- `|relu z| ≤ |z|`. -/
theorem abs_relu_le (z : ℝ) : |relu z| ≤ |z| := by
  show |max z 0| ≤ |z|
  rcases le_total z 0 with h | h
  · rw [max_eq_right h, abs_zero]
    exact abs_nonneg z
  · exact le_of_eq (by rw [max_eq_left h])

/-- ReLU tends to `0` at `0` (the ReGLU gate): `relu = O(z)` at `0` by `abs_relu_le`, and
`z → 0`. -/
theorem relu_tendsto_zero : Tendsto relu (𝓝 0) (𝓝 0) := by
  have hO : relu =O[𝓝 0] (fun z : ℝ => z) := by
    refine isBigO_of_le (𝓝 0) (fun z => ?_)
    -- the norm on `ℝ` is the absolute value (`Real.norm_eq_abs`, also true by unfolding)
    first
      | (rw [Real.norm_eq_abs, Real.norm_eq_abs]; exact abs_relu_le z)
      | simpa only [Real.norm_eq_abs] using abs_relu_le z
      | exact abs_relu_le z
  exact hO.trans_tendsto tendsto_id

end SkipAbsorption

end
