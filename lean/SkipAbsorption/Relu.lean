import Mathlib.Data.Real.Basic
import Mathlib.Algebra.Order.Group.Unbundled.Abs
import Mathlib.Tactic.Linarith

/-!
# ReLU and its odd and even parts

`relu z = max z 0`, with the two identities that split it into an odd (linear) part and an
even part:

* `relu_sub_relu_neg`: `relu z - relu (-z) = z` (the odd part is `z / 2`);
* `relu_add_relu_neg`: `relu z + relu (-z) = |z|` (the even part is `|z| / 2`);
* `relu_eq_half`: hence `relu z = (z + |z|) / 2`.

This file has light imports on purpose: the necessity half of paper Theorem 8
(`SkipAbsorption.ReluNecessity`) only needs these, not the measure theory behind GELU in
`SkipAbsorption.Activations` (which imports this file). The generated ReLU family file imports
this file too, not `SkipAbsorption.Activations`, so a failure in the measure theory behind GELU
does not reach it.
-/

noncomputable section

namespace SkipAbsorption

/-- ReLU. -/
def relu (z : ℝ) : ℝ := max z 0

/-- ReLU: `relu z - relu (-z) = z`. -/
theorem relu_sub_relu_neg (z : ℝ) : relu z - relu (-z) = z := by
  show max z 0 - max (-z) 0 = z
  rcases le_total z 0 with h | h
  · have h1 : max z 0 = 0 := max_eq_right h
    have h2 : max (-z) 0 = -z := max_eq_left (by linarith)
    linarith
  · have h1 : max z 0 = z := max_eq_left h
    have h2 : max (-z) 0 = 0 := max_eq_right (by linarith)
    linarith

/-- ReLU: `relu z + relu (-z) = |z|` (the even part of ReLU is `|z| / 2`). -/
theorem relu_add_relu_neg (z : ℝ) : relu z + relu (-z) = |z| := by
  show max z 0 + max (-z) 0 = |z|
  rcases le_total z 0 with h | h
  · have h1 : max z 0 = 0 := max_eq_right h
    have h2 : max (-z) 0 = -z := max_eq_left (by linarith)
    -- `|z| = -z`: `abs_of_nonpos`, or `|z| = |-z|` (`abs_neg`) and `abs_of_nonneg`
    have h3 : |z| = -z := by
      first
      | exact abs_of_nonpos h
      | (rw [← abs_neg z]; exact abs_of_nonneg (by linarith))
    linarith
  · have h1 : max z 0 = z := max_eq_left h
    have h2 : max (-z) 0 = 0 := max_eq_right (by linarith)
    have h3 : |z| = z := abs_of_nonneg h
    linarith

/-- ReLU is the sum of its odd part `z / 2` and its even part `|z| / 2`. -/
theorem relu_eq_half (z : ℝ) : relu z = (z + |z|) / 2 := by
  have h1 := relu_sub_relu_neg z
  have h2 := relu_add_relu_neg z
  linarith

end SkipAbsorption

end
