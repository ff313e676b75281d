import SkipAbsorption.RecessionNecessity
import SkipAbsorption.RecessionActivations

/-!
# SiLU and softplus: the characterisations

For nondegenerate weights (`Nondegenerate Wd Wu`), a SiLU or softplus block absorbs the identity
skip iff some index set `S` has `Wd[:,S] Wu[S,:] = -I` (`Wd * diagonal 1_S * Wu = -1`), stated
exactly like `absorbable_relu_iff`; and for an invertible skip `A` iff `… = -A`, like
`absorbable_relu_iff_of_isUnit_det`:

* `absorbable_swish_iff`, `absorbable_swish_iff_of_isUnit_det` (SiLU);
* `absorbable_softplus_iff`, `absorbable_softplus_iff_of_isUnit_det`.

Each is `absorbable_iff_of_tendsto_div_relu` (`RecessionNecessity.lean`) with the recession
limit of `RecessionActivations.lean` and the odd part `σ z - σ (-z) = z` (SiLU:
`Real.sigmoid_neg`; softplus: `softplus_sub_softplus_neg`). This file does not reach the Gaussian
measure theory (GELU is in `ReluLikeGelu.lean`).
Not compiled: no Lean toolchain here.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- SiLU's odd part: `swish z - swish (-z) = z` (from `Real.sigmoid_neg`). -/
theorem swish_sub_swish_neg_of_sigmoid (z : ℝ) : swish z - swish (-z) = z := by
  show z * Real.sigmoid z - (-z) * Real.sigmoid (-z) = z
  first
    | linear_combination z * Real.sigmoid_neg z
    | (rw [Real.sigmoid_neg]; ring)

/-- **SiLU / Swish.** For nondegenerate weights, a SiLU block absorbs the identity skip iff
some `S` has `Wd[:,S] Wu[S,:] = -I`. -/
theorem absorbable_swish_iff {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) :
    Absorbable swish 1 Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  absorbable_iff_of_tendsto_div_relu tendsto_swish_div swish_sub_swish_neg_of_sigmoid hnd

/-- SiLU / Swish, invertible skip. -/
theorem absorbable_swish_iff_of_isUnit_det {A : Matrix (Fin d) (Fin d) ℝ} (hA : IsUnit A.det)
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) :
    Absorbable swish A Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -A :=
  absorbable_iff_of_tendsto_div_relu_of_isUnit_det hA tendsto_swish_div
    swish_sub_swish_neg_of_sigmoid hnd

/-- **softplus.** For nondegenerate weights, a softplus block absorbs the identity skip iff
some `S` has `Wd[:,S] Wu[S,:] = -I`. -/
theorem absorbable_softplus_iff {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu) :
    Absorbable softplus 1 Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  absorbable_iff_of_tendsto_div_relu tendsto_softplus_div softplus_sub_softplus_neg hnd

/-- softplus, invertible skip. -/
theorem absorbable_softplus_iff_of_isUnit_det {A : Matrix (Fin d) (Fin d) ℝ}
    (hA : IsUnit A.det) {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) :
    Absorbable softplus A Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -A :=
  absorbable_iff_of_tendsto_div_relu_of_isUnit_det hA tendsto_softplus_div
    softplus_sub_softplus_neg hnd

end SkipAbsorption
