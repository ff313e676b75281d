import SkipAbsorption.Defs
import Mathlib.Algebra.BigOperators.Pi
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.LinearCombination
import Mathlib.Tactic.Ring

/-!
# ReLU blocks: the even part and the linear part of an absorbed skip

Step (a) of the necessity proof of paper Theorem 8 (issue 10). Suppose the identity skip is
absorbed by a ReLU block of the same width,
`x + Wd relu(Wu x) = Vd relu(Vu x)` for every `x` (`Absorbable relu 1 Wd Wu` unfolded).
Write the identity at `x` and at `-x`. Since `relu z + relu (-z) = |z|` and
`relu z - relu (-z) = z` (`SkipAbsorption.Relu`):

* adding gives the **even parts** (`relu_evenPart_eq`, coordinatewise, and
  `relu_evenPart_eq_vec`, as vectors with the columns of `Wd` and `Vd`):
  `∑ i |u_i · x| w_i = ∑ j |u'_j · x| w'_j`;
* subtracting gives the **linear parts** (`relu_linearPart_eq`):
  `2 x + Wd Wu x = Vd Vu x`, coordinate by coordinate.

Here `u_i = Wu i` (rows), `w_i = fun m => Wd m i` (columns). Every block is written out as a
sum over the hidden units by `mlp_apply_eq_sum` (`Defs.lean`).
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- Negating the input negates every pre-activation, inside the sum over hidden units. -/
theorem sum_mul_dotProduct_neg (σ : ℝ → ℝ) (W : Matrix (Fin d) (Fin n) ℝ)
    (U : Matrix (Fin n) (Fin d) ℝ) (x : Fin d → ℝ) (m : Fin d) :
    ∑ i, W m i * σ (U i ⬝ᵥ (-x)) = ∑ i, W m i * σ (-(U i ⬝ᵥ x)) := by
  refine Finset.sum_congr rfl fun i _ => ?_
  have e : U i ⬝ᵥ (-x) = -(U i ⬝ᵥ x) := by
    first
    | exact dotProduct_neg (U i) x
    | exact congrFun (Matrix.mulVec_neg x U) i
  rw [e]

/-- An absorbed identity skip, one coordinate at one input:
`x m + ∑ i, Wd m i * σ (u_i · x) = ∑ j, Vd m j * σ (u'_j · x)`. -/
theorem add_mlp_apply_eq (σ : ℝ → ℝ) {Wd Vd : Matrix (Fin d) (Fin n) ℝ}
    {Wu Vu : Matrix (Fin n) (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp σ Wd Wu x = mlp σ Vd Vu x)
    (x : Fin d → ℝ) (m : Fin d) :
    x m + ∑ i, Wd m i * σ (Wu i ⬝ᵥ x) = ∑ j, Vd m j * σ (Vu j ⬝ᵥ x) := by
  have e : ((1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp σ Wd Wu x) m = mlp σ Vd Vu x m :=
    congrFun (h x) m
  first
  | (rw [Matrix.one_mulVec, Pi.add_apply, mlp_apply_eq_sum, mlp_apply_eq_sum] at e; exact e)
  | (rw [Matrix.one_mulVec] at e; exact e)

/-- The same identity at `-x`, with the signs moved into the pre-activations:
`-(x m) + ∑ i, Wd m i * σ (-(u_i · x)) = ∑ j, Vd m j * σ (-(u'_j · x))`. -/
theorem add_mlp_apply_eq_neg (σ : ℝ → ℝ) {Wd Vd : Matrix (Fin d) (Fin n) ℝ}
    {Wu Vu : Matrix (Fin n) (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp σ Wd Wu x = mlp σ Vd Vu x)
    (x : Fin d → ℝ) (m : Fin d) :
    -(x m) + ∑ i, Wd m i * σ (-(Wu i ⬝ᵥ x)) = ∑ j, Vd m j * σ (-(Vu j ⬝ᵥ x)) := by
  have e := add_mlp_apply_eq σ h (-x) m
  rw [sum_mul_dotProduct_neg σ Wd Wu x m, sum_mul_dotProduct_neg σ Vd Vu x m] at e
  -- `(-x) m` is `-(x m)` by definition (`Pi.neg_apply`)
  first
  | exact e
  | (simp only [Pi.neg_apply] at e; exact e)

/-- One block's even part: `∑ W relu(z) + ∑ W relu(-z) = ∑ |z| W`. -/
theorem sum_relu_add_relu_neg (W : Matrix (Fin d) (Fin n) ℝ) (U : Matrix (Fin n) (Fin d) ℝ)
    (x : Fin d → ℝ) (m : Fin d) :
    ∑ i, W m i * relu (U i ⬝ᵥ x) + ∑ i, W m i * relu (-(U i ⬝ᵥ x))
      = ∑ i, |U i ⬝ᵥ x| * W m i := by
  rw [← Finset.sum_add_distrib]
  refine Finset.sum_congr rfl fun i _ => ?_
  first
  | linear_combination (W m i) * relu_add_relu_neg (U i ⬝ᵥ x)
  | (rw [← mul_add, relu_add_relu_neg, mul_comm])

/-- One block's linear part: `∑ W relu(z) - ∑ W relu(-z) = ∑ W z`. -/
theorem sum_relu_sub_relu_neg (W : Matrix (Fin d) (Fin n) ℝ) (U : Matrix (Fin n) (Fin d) ℝ)
    (x : Fin d → ℝ) (m : Fin d) :
    ∑ i, W m i * relu (U i ⬝ᵥ x) - ∑ i, W m i * relu (-(U i ⬝ᵥ x))
      = ∑ i, W m i * (U i ⬝ᵥ x) := by
  rw [← Finset.sum_sub_distrib]
  refine Finset.sum_congr rfl fun i _ => ?_
  first
  | linear_combination (W m i) * relu_sub_relu_neg (U i ⬝ᵥ x)
  | (rw [← mul_sub, relu_sub_relu_neg])

/-- **Even parts agree** (coordinate `m`): if a ReLU block `(Vd, Vu)` absorbs the identity skip
of `(Wd, Wu)`, then `∑ i |u_i · x| Wd m i = ∑ j |u'_j · x| Vd m j` for every `x`. -/
theorem relu_evenPart_eq {Wd Vd : Matrix (Fin d) (Fin n) ℝ} {Wu Vu : Matrix (Fin n) (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp relu Wd Wu x = mlp relu Vd Vu x)
    (x : Fin d → ℝ) (m : Fin d) :
    ∑ i, |Wu i ⬝ᵥ x| * Wd m i = ∑ j, |Vu j ⬝ᵥ x| * Vd m j := by
  have e1 := add_mlp_apply_eq relu h x m
  have e2 := add_mlp_apply_eq_neg relu h x m
  have hW := sum_relu_add_relu_neg Wd Wu x m
  have hV := sum_relu_add_relu_neg Vd Vu x m
  linarith

/-- **Linear parts agree** (coordinate `m`): if a ReLU block `(Vd, Vu)` absorbs the identity
skip of `(Wd, Wu)`, then `2 x m + ∑ i Wd m i (u_i · x) = ∑ j Vd m j (u'_j · x)`, i.e.
`2 • 1 + Wd * Wu = Vd * Vu`. -/
theorem relu_linearPart_eq {Wd Vd : Matrix (Fin d) (Fin n) ℝ} {Wu Vu : Matrix (Fin n) (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp relu Wd Wu x = mlp relu Vd Vu x)
    (x : Fin d → ℝ) (m : Fin d) :
    2 * x m + ∑ i, Wd m i * (Wu i ⬝ᵥ x) = ∑ j, Vd m j * (Vu j ⬝ᵥ x) := by
  have e1 := add_mlp_apply_eq relu h x m
  have e2 := add_mlp_apply_eq_neg relu h x m
  have hW := sum_relu_sub_relu_neg Wd Wu x m
  have hV := sum_relu_sub_relu_neg Vd Vu x m
  linarith

/-- **Even parts agree**, as vectors: with the columns `w_i = fun m => Wd m i` of `Wd` and
`w'_j` of `Vd`, `∑ i |u_i · x| • w_i = ∑ j |u'_j · x| • w'_j` for every `x`. This is the
hypothesis shape of the kink lemma `kink_sum_eq_zero`. -/
theorem relu_evenPart_eq_vec {Wd Vd : Matrix (Fin d) (Fin n) ℝ}
    {Wu Vu : Matrix (Fin n) (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp relu Wd Wu x = mlp relu Vd Vu x) :
    ∀ x : Fin d → ℝ,
      ∑ i, |Wu i ⬝ᵥ x| • (fun m => Wd m i) = ∑ j, |Vu j ⬝ᵥ x| • (fun m => Vd m j) := by
  intro x
  funext m
  -- `(∑ i, r i • v i) m = ∑ i, r i * v i m` (`Finset.sum_apply`; the rest is definitional)
  first
  | (rw [Finset.sum_apply, Finset.sum_apply]; exact relu_evenPart_eq h x m)
  | (simp only [Finset.sum_apply, Pi.smul_apply, smul_eq_mul]; exact relu_evenPart_eq h x m)

end SkipAbsorption
