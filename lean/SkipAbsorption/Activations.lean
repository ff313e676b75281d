import SkipAbsorption.ActivationDefs
import SkipAbsorption.Depth
import SkipAbsorption.Relu
import SkipAbsorption.Gaussian
import Mathlib.Analysis.SpecialFunctions.Sigmoid
import Mathlib.Probability.CDF
import Mathlib.Probability.Distributions.Gaussian.Real

/-!
# Activation families and their premise lemmas

Definitions (the activation table of `paper.md`; `relu` is in `SkipAbsorption.Relu`, the others
in `SkipAbsorption.ActivationDefs`):
`relu z = max z 0`, `relu2 z = (max z 0) ^ 2`, `relu3 z = (max z 0) ^ 3`,
`swish z = z * sigmoid z` (SiLU; the SwiGLU gate), and `gelu z = z * Φ z` with
`Φ = cdf (gaussianReal 0 1)` (Mathlib has no `erf`).

Premise lemmas, one per hypothesis shape used by the theorems:
* odd part `z/2` (`σ z - σ (-z) = z`, for `absorbable_of_sCondition` with `c = 1`, paper
  Theorems 8/10): `relu_sub_relu_neg`, `swish_sub_swish_neg`, `gelu_sub_gelu_neg`;
* positive homogeneity (paper Proposition 5): `relu_posHomogeneous` (degree 1, the ReGLU gate),
  `relu2_posHomogeneous` (degree 2), `relu3_posHomogeneous` (degree 3);
* gate tends to `0` at `0` (paper Proposition 6, gated): `relu_tendsto_zero`,
  `swish_tendsto_zero`, `gelu_tendsto_zero`;
* `σ = o(z)` at `0` (ungated linearisation and depth): `relu2_isLittleO`, `relu3_isLittleO`.

GELU is defined with the genuine Gaussian CDF; its symmetry `Φ (-z) = 1 - Φ z` is proved in
`SkipAbsorption.Gaussian`. `geluWith_sub_neg` states the GELU identity for any `Φ` with that
symmetry, so that the GELU results survive even if the measure-theoretic proof needs repair.
-/

open Filter Topology Asymptotics ProbabilityTheory

noncomputable section

namespace SkipAbsorption

/-! ### Positive homogeneity -/

/-- `max (t z) 0 = t max z 0` for `t > 0`. -/
theorem max_zero_mul_of_pos {t : ℝ} (ht : 0 < t) (z : ℝ) : max (t * z) 0 = t * max z 0 := by
  rcases le_total z 0 with h | h
  · have h1 : max z 0 = 0 := max_eq_right h
    have h2 : max (t * z) 0 = 0 := max_eq_right (by nlinarith)
    rw [h1, h2, mul_zero]
  · have h1 : max z 0 = z := max_eq_left h
    have h2 : max (t * z) 0 = t * z := max_eq_left (by nlinarith)
    rw [h1, h2]

/-- ReLU is positively homogeneous of degree 1 (the ReGLU gate). -/
theorem relu_posHomogeneous : ∀ t : ℝ, 0 < t → ∀ z, relu (t * z) = t ^ 1 * relu z := by
  intro t ht z
  show max (t * z) 0 = t ^ 1 * max z 0
  rw [pow_one, max_zero_mul_of_pos ht z]

/-- ReLU² is positively homogeneous of degree 2. -/
theorem relu2_posHomogeneous : ∀ t : ℝ, 0 < t → ∀ z, relu2 (t * z) = t ^ 2 * relu2 z := by
  intro t ht z
  show (max (t * z) 0) ^ 2 = t ^ 2 * (max z 0) ^ 2
  rw [max_zero_mul_of_pos ht z]
  ring

/-- ReLU³ is positively homogeneous of degree 3. -/
theorem relu3_posHomogeneous : ∀ t : ℝ, 0 < t → ∀ z, relu3 (t * z) = t ^ 3 * relu3 z := by
  intro t ht z
  show (max (t * z) 0) ^ 3 = t ^ 3 * (max z 0) ^ 3
  rw [max_zero_mul_of_pos ht z]
  ring

/-- ReLU² is `o(z)` at `0`. -/
theorem relu2_isLittleO : relu2 =o[𝓝 0] (fun z => z) :=
  isLittleO_of_posHomogeneous (by norm_num) relu2_posHomogeneous

/-- ReLU³ is `o(z)` at `0`. -/
theorem relu3_isLittleO : relu3 =o[𝓝 0] (fun z => z) :=
  isLittleO_of_posHomogeneous (by norm_num) relu3_posHomogeneous

/-! ### Odd part `z / 2`: `σ z - σ (-z) = z` -/

/-- Swish: `swish z - swish (-z) = z`, from `sigmoid (-z) = 1 - sigmoid z`. -/
theorem swish_sub_swish_neg (z : ℝ) : swish z - swish (-z) = z := by
  show z * Real.sigmoid z - (-z) * Real.sigmoid (-z) = z
  rw [Real.sigmoid_neg]
  ring

/-- GELU identity for any `Φ` with `Φ (-z) = 1 - Φ z`. -/
theorem geluWith_sub_neg {Φ : ℝ → ℝ} (hΦ : ∀ z, Φ (-z) = 1 - Φ z) (z : ℝ) :
    z * Φ z - (-z) * Φ (-z) = z := by
  rw [hΦ z]
  ring

/-- GELU: `gelu z - gelu (-z) = z`, from the symmetry of the Gaussian CDF. -/
theorem gelu_sub_gelu_neg (z : ℝ) : gelu z - gelu (-z) = z := by
  show z * cdf (gaussianReal 0 1) z - (-z) * cdf (gaussianReal 0 1) (-z) = z
  exact geluWith_sub_neg (Φ := fun x => cdf (gaussianReal 0 1) x) cdf_gaussianReal_neg z

/-! ### Gates tending to `0` at `0` -/

/-- `|relu z| ≤ |z|`. -/
theorem abs_relu_le (z : ℝ) : |relu z| ≤ |z| := by
  show |max z 0| ≤ |z|
  rcases le_total z 0 with h | h
  · rw [max_eq_right h, abs_zero]
    exact abs_nonneg z
  · exact le_of_eq (by rw [max_eq_left h])

/-- ReLU tends to `0` at `0` (the ReGLU gate). -/
theorem relu_tendsto_zero : Tendsto relu (𝓝 0) (𝓝 0) :=
  tendsto_zero_of_abs_le_abs abs_relu_le

/-- Swish tends to `0` at `0` (the SwiGLU gate): `|z sigmoid z| ≤ |z|`. -/
theorem swish_tendsto_zero : Tendsto swish (𝓝 0) (𝓝 0) :=
  tendsto_zero_of_abs_le_abs fun z =>
    abs_mul_le_abs_of_unit_interval (Real.sigmoid_nonneg z) (Real.sigmoid_le_one z)

/-- GELU tends to `0` at `0` (the GeGLU gate): `|z Φ z| ≤ |z|` since `0 ≤ Φ ≤ 1`. -/
theorem gelu_tendsto_zero : Tendsto gelu (𝓝 0) (𝓝 0) :=
  tendsto_zero_of_abs_le_abs fun z =>
    abs_mul_le_abs_of_unit_interval (cdf_nonneg (gaussianReal 0 1) z)
      (cdf_le_one (gaussianReal 0 1) z)

end SkipAbsorption

end
