import Mathlib
import SkipAbsorption.ActivationDefs

/-!
# Premise lemmas of Swish and GELU as gates (SwiGLU, GeGLU)

The gate tends to `0` at `0` (paper Proposition 6, gated):

* `tendsto_mul_of_unit_interval`: `z ↦ z * b z` tends to `0` at `0` when `0 ≤ b ≤ 1`
  (`|z b z| ≤ |z|`, so the map is `O(z)` at `0`);
* `swish_tendsto_zero` (`b = sigmoid`), `gelu_tendsto_zero` (`b = Φ`, the standard normal CDF,
  which lies in `[0, 1]` like every CDF).

`gelu_tendsto_zero` needs only `0 ≤ Φ ≤ 1`, not the symmetry of `Φ`: this file does not import
`SkipAbsorption.Gaussian`, so a failure in that measure theory does not reach the GeGLU family.
The bound is stated here rather than imported from `SkipAbsorption.Linearisation` (which has the
same two steps as `abs_mul_le_abs_of_unit_interval` and `tendsto_zero_of_abs_le_abs`), so that
this file needs only the definitions.
-/

open Filter Topology Asymptotics ProbabilityTheory

noncomputable section

namespace SkipAbsorption

/-- `z ↦ z * b z` tends to `0` at `0` when `0 ≤ b z ≤ 1` for every `z`. -/
theorem tendsto_mul_of_unit_interval {b : ℝ → ℝ} (h0 : ∀ z, 0 ≤ b z) (h1 : ∀ z, b z ≤ 1) :
    Tendsto (fun z => z * b z) (𝓝 0) (𝓝 0) := by
  have habs : ∀ z, |z * b z| ≤ |z| := by
    intro z
    have e : |z * b z| = |z| * b z := by rw [abs_mul, abs_of_nonneg (h0 z)]
    have hnn : (0 : ℝ) ≤ |z| * (1 - b z) := mul_nonneg (abs_nonneg z) (by linarith [h1 z])
    have hexp : |z| * (1 - b z) = |z| - |z| * b z := by ring
    rw [e]
    -- `|z| * b z ≤ |z|` from `0 ≤ |z| * (1 - b z)`, linear in the atoms `|z| * b z`, `|z|`
    first
      | linarith [hnn, hexp]
      | nlinarith [hnn, abs_nonneg z, h1 z]
  have hO : (fun z => z * b z) =O[𝓝 0] (fun z : ℝ => z) := by
    refine isBigO_of_le (𝓝 0) (fun z => ?_)
    -- the norm on `ℝ` is the absolute value (`Real.norm_eq_abs`, also true by unfolding)
    first
      | (rw [Real.norm_eq_abs, Real.norm_eq_abs]; exact habs z)
      | simpa only [Real.norm_eq_abs] using habs z
      | exact habs z
  exact hO.trans_tendsto tendsto_id

/-- Swish tends to `0` at `0` (the SwiGLU gate): `0 ≤ sigmoid z ≤ 1`. -/
theorem swish_tendsto_zero : Tendsto swish (𝓝 0) (𝓝 0) := by
  -- `swish` unfolds to `fun z => z * Real.sigmoid z` (a `def`, unfolded by `show`)
  show Tendsto (fun z => z * Real.sigmoid z) (𝓝 0) (𝓝 0)
  exact tendsto_mul_of_unit_interval (b := fun z => Real.sigmoid z)
    (fun z => Real.sigmoid_nonneg z) (fun z => Real.sigmoid_le_one z)

/-- GELU tends to `0` at `0` (the GeGLU gate): `0 ≤ Φ z ≤ 1`. -/
theorem gelu_tendsto_zero : Tendsto gelu (𝓝 0) (𝓝 0) := by
  show Tendsto (fun z => z * cdf (gaussianReal 0 1) z) (𝓝 0) (𝓝 0)
  exact tendsto_mul_of_unit_interval (b := fun z => cdf (gaussianReal 0 1) z)
    (fun z => cdf_nonneg (gaussianReal 0 1) z) (fun z => cdf_le_one (gaussianReal 0 1) z)

end SkipAbsorption

end
