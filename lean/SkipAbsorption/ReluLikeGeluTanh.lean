import SkipAbsorption.CatalogActivations
import SkipAbsorption.RecessionGeluTanh
import SkipAbsorption.RecessionNecessity

/-!
# GELU-tanh blocks: the characterisations

For nondegenerate weights (`Nondegenerate Wd Wu`), a GELU-tanh block absorbs the identity skip
iff some index set `S` has `Wd[:,S] Wu[S,:] = -I` (`Wd * diagonal 1_S * Wu = -1`), stated
exactly like `absorbable_relu_iff`; for an invertible skip `A` iff `… = -A`:
`absorbable_geluTanh_iff`, `absorbable_geluTanh_iff_of_isUnit_det`.

Each is `absorbable_iff_of_tendsto_div_relu` (`RecessionNecessity.lean`) with the recession
limit of `RecessionGeluTanh.lean` and the odd part `geluTanh_sub_geluTanh_neg`
(`CatalogActivations.lean`). With biases: `BiasedReluLikeGeluTanh.lean`.
Not compiled: no Lean toolchain here.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- **GELU-tanh.** For nondegenerate weights, a GELU-tanh block absorbs the identity skip iff
some `S` has `Wd[:,S] Wu[S,:] = -I`. -/
theorem absorbable_geluTanh_iff {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu) :
    Absorbable geluTanh 1 Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  absorbable_iff_of_tendsto_div_relu tendsto_geluTanh_div geluTanh_sub_geluTanh_neg hnd

/-- GELU-tanh, invertible skip. -/
theorem absorbable_geluTanh_iff_of_isUnit_det {A : Matrix (Fin d) (Fin d) ℝ}
    (hA : IsUnit A.det) {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) :
    Absorbable geluTanh A Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -A :=
  absorbable_iff_of_tendsto_div_relu_of_isUnit_det hA tendsto_geluTanh_div
    geluTanh_sub_geluTanh_neg hnd

end SkipAbsorption
