import SkipAbsorption.ReluNecessity.Basic
import SkipAbsorption.Parity
import SkipAbsorption.Reduction
import Mathlib.LinearAlgebra.Matrix.NonsingularInverse
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.Ring

/-!
# Paper Theorem 8 for ReLU as an `iff`

For nondegenerate weights (`Nondegenerate Wd Wu`), a ReLU block absorbs the identity skip iff
some index set `S` has `Wd * diagonal 1_S * Wu = -1`:

* `exists_sCondition_of_absorbable_relu`: necessity (in `SkipAbsorption.ReluNecessity.Basic`,
  with its proof steps a–d; this module imports it, so `import SkipAbsorption.ReluNecessity`
  provides every declaration it provided before the split of issue 23);
* `absorbable_relu_iff`: paper Theorem 8, with the sufficiency half `absorbable_of_sCondition`
  (`Parity.lean`);
* `absorbable_relu_iff_of_isUnit_det`: the same for any invertible skip `A` (`… = -A`), through
  paper Lemma 4 (`absorbable_iff_of_isUnit_det`).

Not compiled: no Lean toolchain here.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- **Paper Theorem 8.** For nondegenerate weights, a ReLU block absorbs the identity skip iff
some index set `S` has `Wd[:,S] Wu[S,:] = -I` (`Wd * diagonal 1_S * Wu = -1`). The "if" half
holds for all weights (`absorbable_of_sCondition`). -/
theorem absorbable_relu_iff {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) :
    Absorbable relu 1 Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  ⟨exists_sCondition_of_absorbable_relu hnd, fun ⟨S, hS⟩ =>
    absorbable_of_sCondition (σ := relu) (c := 1) one_ne_zero
      (fun z => (relu_sub_relu_neg z).trans (one_mul z).symm) Wd Wu S
      (hS.trans neg_inv_one_smul_one.symm)⟩

/-- **Paper Theorem 8 for an invertible skip** (through Lemma 4). For invertible `A` and
nondegenerate weights, a ReLU block absorbs the skip `A` iff some index set `S` has
`Wd[:,S] Wu[S,:] = -A` (`Wd * diagonal 1_S * Wu = -A`). -/
theorem absorbable_relu_iff_of_isUnit_det {A : Matrix (Fin d) (Fin d) ℝ} (hA : IsUnit A.det)
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) :
    Absorbable relu A Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -A :=
  (absorbable_iff_of_isUnit_det relu hA Wd Wu).trans
    ((absorbable_relu_iff (hnd.inv_mul hA)).trans
      (exists_congr fun S => inv_mul_selector_eq_neg_one_iff hA Wd
        (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)) Wu))

end SkipAbsorption
