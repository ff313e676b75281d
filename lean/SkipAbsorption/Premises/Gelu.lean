import SkipAbsorption.ActivationDefs
import SkipAbsorption.Gaussian

/-!
# The odd part of GELU

`gelu_sub_gelu_neg`: `gelu z - gelu (-z) = z`, from the symmetry `Φ (-z) = 1 - Φ z` of the
Gaussian CDF (`SkipAbsorption.Gaussian`). `geluWith_sub_neg` states the identity for any `Φ` with
that symmetry, so that the GELU results survive even if the measure-theoretic proof needs repair.

Only GELU's files import this file (the GELU family file and the biased GELU characterisation
`BiasedReluLikeGelu.lean`): a failure in the measure theory of `SkipAbsorption.Gaussian` reaches
no other family (the GeGLU gate, `gelu_tendsto_zero`, is in
`SkipAbsorption.Premises.Gates` and needs only `0 ≤ Φ ≤ 1`).
-/

open ProbabilityTheory

noncomputable section

namespace SkipAbsorption

/-- GELU identity for any `Φ` with `Φ (-z) = 1 - Φ z`. -/
theorem geluWith_sub_neg {Φ : ℝ → ℝ} (hΦ : ∀ z, Φ (-z) = 1 - Φ z) (z : ℝ) :
    z * Φ z - (-z) * Φ (-z) = z := by
  first
    | (rw [hΦ z]; ring)
    | linear_combination z * hΦ z

/-- GELU: `gelu z - gelu (-z) = z`, from the symmetry of the Gaussian CDF. -/
theorem gelu_sub_gelu_neg (z : ℝ) : gelu z - gelu (-z) = z := by
  show z * cdf (gaussianReal 0 1) z - (-z) * cdf (gaussianReal 0 1) (-z) = z
  first
    | exact geluWith_sub_neg (Φ := fun x => cdf (gaussianReal 0 1) x) cdf_gaussianReal_neg z
    | linear_combination z * cdf_gaussianReal_neg z

end SkipAbsorption

end
