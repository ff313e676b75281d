import SkipAbsorption.Recession
import Mathlib

/-!
# Bounded activations never absorb a skip (R2 for `tanh` and `sigmoid`)

Instances of `eq_zero_of_absorbable_of_bounded` (`Recession.lean`, research note
`recession.md` §3):

* `abs_tanh_le_one`, `abs_sigmoid_le_one`: `|tanh z| ≤ 1`, `|sigmoid z| ≤ 1`, from the Mathlib
  bounds `Real.neg_one_lt_tanh`, `Real.tanh_lt_one`, `Real.sigmoid_nonneg`,
  `Real.sigmoid_le_one`;
* `not_absorbable_tanh`, `not_absorbable_sigmoid`: a `tanh` or `sigmoid` block absorbs no skip
  `A ≠ 0`, for every `d`, `n` and all weights (no nondegeneracy).

Imports all of Mathlib because the file holding `Real.tanh_lt_one` moved between Mathlib
versions (it is in `Mathlib/Analysis/SpecialFunctions/Artanh.lean` in 2026); the library cone is
`Defs`, `Recession`.
Not compiled: no Lean toolchain here.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- `|tanh z| ≤ 1`. -/
theorem abs_tanh_le_one (z : ℝ) : |Real.tanh z| ≤ 1 := by
  first
    | exact abs_le.2 ⟨(Real.neg_one_lt_tanh z).le, (Real.tanh_lt_one z).le⟩
    | exact (Real.abs_tanh_lt_one z).le

/-- `|sigmoid z| ≤ 1`. -/
theorem abs_sigmoid_le_one (z : ℝ) : |Real.sigmoid z| ≤ 1 := by
  have h0 := Real.sigmoid_nonneg z
  have h1 := Real.sigmoid_le_one z
  first
    | exact abs_le.2 ⟨by linarith, h1⟩
    | (rw [abs_of_nonneg h0]; exact h1)

/-- **A `tanh` block absorbs no skip `A ≠ 0`** (any `d`, `n`, weights). -/
theorem not_absorbable_tanh {A : Matrix (Fin d) (Fin d) ℝ} (hA : A ≠ 0)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) :
    ¬ Absorbable Real.tanh A Wd Wu := fun h =>
  hA (eq_zero_of_absorbable_of_bounded ⟨1, abs_tanh_le_one⟩ h)

/-- **A `sigmoid` block absorbs no skip `A ≠ 0`** (any `d`, `n`, weights). -/
theorem not_absorbable_sigmoid {A : Matrix (Fin d) (Fin d) ℝ} (hA : A ≠ 0)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) :
    ¬ Absorbable Real.sigmoid A Wd Wu := fun h =>
  hA (eq_zero_of_absorbable_of_bounded ⟨1, abs_sigmoid_le_one⟩ h)

end SkipAbsorption
