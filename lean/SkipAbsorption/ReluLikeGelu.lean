import SkipAbsorption.RecessionNecessity
import SkipAbsorption.RecessionActivations
import SkipAbsorption.Gaussian

/-!
# Paper Theorem 10: GELU

For nondegenerate weights (`Nondegenerate Wd Wu`), a GELU block absorbs the identity skip iff
some index set `S` has `Wd[:,S] Wu[S,:] = -I` (`Wd * diagonal 1_S * Wu = -1`), stated exactly
like `absorbable_relu_iff`; and for an invertible skip `A` iff `… = -A`, like
`absorbable_relu_iff_of_isUnit_det`: `absorbable_gelu_iff`, `absorbable_gelu_iff_of_isUnit_det`
(**paper Theorem 10**).

Each is `absorbable_iff_of_tendsto_div_relu` (`RecessionNecessity.lean`) with the recession
limit `tendsto_gelu_div` (`RecessionActivations.lean`) and the odd part `gelu z - gelu (-z) = z`
from `cdf_gaussianReal_neg` (`Gaussian.lean`). Necessity needs no independence of analytic ridge
functions: it is the large-scale limit (research note `recession.md` §4). Only this file of the
characterisations imports the Gaussian measure theory: SiLU and softplus are in
`ReluLikeSiluSoftplus.lean`, GELU-tanh in `ReluLikeGeluTanh.lean`.
Not compiled: no Lean toolchain here.
-/

open Matrix ProbabilityTheory

namespace SkipAbsorption

variable {d n : ℕ}

/-- GELU's odd part: `gelu z - gelu (-z) = z` (here from `cdf_gaussianReal_neg` directly, so
that this file does not import `SkipAbsorption.Activations`). -/
theorem gelu_sub_gelu_neg_of_cdf (z : ℝ) : gelu z - gelu (-z) = z := by
  show z * cdf (gaussianReal 0 1) z - (-z) * cdf (gaussianReal 0 1) (-z) = z
  first
    | linear_combination z * cdf_gaussianReal_neg z
    | (rw [cdf_gaussianReal_neg]; ring)

/-- **Paper Theorem 10.** For nondegenerate weights, a GELU block absorbs the identity skip
iff some `S` has `Wd[:,S] Wu[S,:] = -I`. -/
theorem absorbable_gelu_iff {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) :
    Absorbable gelu 1 Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  absorbable_iff_of_tendsto_div_relu tendsto_gelu_div gelu_sub_gelu_neg_of_cdf hnd

/-- **Paper Theorem 10 for an invertible skip** (through Lemma 4). -/
theorem absorbable_gelu_iff_of_isUnit_det {A : Matrix (Fin d) (Fin d) ℝ} (hA : IsUnit A.det)
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) :
    Absorbable gelu A Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -A :=
  absorbable_iff_of_tendsto_div_relu_of_isUnit_det hA tendsto_gelu_div
    gelu_sub_gelu_neg_of_cdf hnd

end SkipAbsorption
