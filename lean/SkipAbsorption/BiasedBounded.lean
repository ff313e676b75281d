import SkipAbsorption.Bias
import SkipAbsorption.Bounded

/-!
# Biased `tanh` and `sigmoid` blocks never absorb a skip

R4 for bounded activations (research note `recession.md` §5): with any biases `b`, `e`, a
`tanh` or `sigmoid` block absorbs no skip `A ≠ 0`, for every `d`, `n` and all weights
(`eq_zero_of_biasedAbsorbable_of_bounded` with the bounds `abs_tanh_le_one`,
`abs_sigmoid_le_one`).
Not compiled: no Lean toolchain here.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- **A biased `tanh` block absorbs no skip `A ≠ 0`** (any `d`, `n`, weights, biases). -/
theorem not_biasedAbsorbable_tanh {A : Matrix (Fin d) (Fin d) ℝ} (hA : A ≠ 0)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) (b : Fin n → ℝ)
    (e : Fin d → ℝ) : ¬ BiasedAbsorbable Real.tanh A Wd Wu b e := fun h =>
  hA (eq_zero_of_biasedAbsorbable_of_bounded ⟨1, abs_tanh_le_one⟩ h)

/-- **A biased `sigmoid` block absorbs no skip `A ≠ 0`** (any `d`, `n`, weights, biases). -/
theorem not_biasedAbsorbable_sigmoid {A : Matrix (Fin d) (Fin d) ℝ} (hA : A ≠ 0)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) (b : Fin n → ℝ)
    (e : Fin d → ℝ) : ¬ BiasedAbsorbable Real.sigmoid A Wd Wu b e := fun h =>
  hA (eq_zero_of_biasedAbsorbable_of_bounded ⟨1, abs_sigmoid_le_one⟩ h)

end SkipAbsorption
