import Mathlib.Data.Matrix.Mul
import Mathlib.Data.Real.Basic
import Mathlib.Algebra.Order.Group.Unbundled.Abs
import Mathlib.Tactic.Linarith

/-!
# Definitions: MLP blocks and absorbable skips

Setting of arXiv 2604.23705 ("Can an MLP absorb its own skip connection?"), definitions
D1, D2 and D4 of `paper.md`, with column vectors `x : Fin d → ℝ`:

* `mlp σ Wd Wu x = Wd σ(Wu x)`, an ungated bias-free block of hidden width `n`
  (`σ` acts entrywise);
* `mlp_apply_eq_sum`: a coordinate of `mlp` as a sum over the hidden units (definitional);
* `gatedMlp g Wd Wg Wv x = Wd (g(Wg x) ⊙ (Wv x))`, a gated (GLU-type) block;
* `Absorbable σ A Wd Wu`: some block of the same kind and the same width `n` equals
  `x ↦ A x + mlp σ Wd Wu x` for every `x` (the skip `A` is absorbed);
* `GatedAbsorbable g A Wd Wg Wv`: the same for gated blocks.

and, at the end, ReLU (the activation of paper Theorem 8) with its odd and even parts:
`relu z = max z 0`, `relu_sub_relu_neg` (`relu z - relu (-z) = z`), `relu_add_relu_neg`
(`= |z|`), `relu_eq_half` (`relu z = (z + |z|) / 2`); moved here from `SkipAbsorption.Relu`
(issue 23), since nearly every file that states a block also states ReLU. `SkipAbsorption.Relu`
keeps its name and re-exports this file. Last, `relu_mul_of_pos` (`relu (t * z) = t * relu z`
for `t > 0`), moved here from `Beyond/DepthOne.lean` so that the recession criteria
(`RecessionRelu.lean`) need not import that file.

Precedence note: `∘` (90) binds tighter than `*ᵥ` (73), so the brackets in
`σ ∘ (Wu *ᵥ x)` are required.
-/

open Matrix

noncomputable section

namespace SkipAbsorption

variable {d n : ℕ}

/-- Ungated MLP block without biases: `x ↦ Wd σ(Wu x)`, `σ` applied entrywise. -/
def mlp (σ : ℝ → ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ)
    (x : Fin d → ℝ) : Fin d → ℝ :=
  Wd *ᵥ (σ ∘ (Wu *ᵥ x))

/-- A coordinate of an ungated block as a sum over the hidden units:
`(Wd σ(Wu x))_m = ∑ i, Wd m i * σ (u_i · x)`. -/
theorem mlp_apply_eq_sum (σ : ℝ → ℝ) (W : Matrix (Fin d) (Fin n) ℝ)
    (U : Matrix (Fin n) (Fin d) ℝ) (x : Fin d → ℝ) (m : Fin d) :
    mlp σ W U x m = ∑ i, W m i * σ (U i ⬝ᵥ x) := by
  -- definitional: `mulVec M v i = (fun j => M i j) ⬝ᵥ v` and `dotProduct v w = ∑ i, v i * w i`
  first
  | rfl
  | simp only [mlp, Matrix.mulVec, dotProduct, Function.comp_apply]

/-- Gated (GLU-type) block without biases: `x ↦ Wd (g(Wg x) ⊙ (Wv x))`. -/
def gatedMlp (g : ℝ → ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ)
    (x : Fin d → ℝ) : Fin d → ℝ :=
  Wd *ᵥ (fun i => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i)

/-- The linear skip `A` can be absorbed: some ungated block of the same activation and the
same width `n` equals `x ↦ A x + mlp σ Wd Wu x` everywhere. -/
def Absorbable (σ : ℝ → ℝ) (A : Matrix (Fin d) (Fin d) ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ)
    (Wu : Matrix (Fin n) (Fin d) ℝ) : Prop :=
  ∃ (Vd : Matrix (Fin d) (Fin n) ℝ) (Vu : Matrix (Fin n) (Fin d) ℝ),
    ∀ x, A *ᵥ x + mlp σ Wd Wu x = mlp σ Vd Vu x

/-- The linear skip `A` can be absorbed by a gated block of the same gate and width. -/
def GatedAbsorbable (g : ℝ → ℝ) (A : Matrix (Fin d) (Fin d) ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ)
    (Wg Wv : Matrix (Fin n) (Fin d) ℝ) : Prop :=
  ∃ (Vd : Matrix (Fin d) (Fin n) ℝ) (Vg Vv : Matrix (Fin n) (Fin d) ℝ),
    ∀ x, A *ᵥ x + gatedMlp g Wd Wg Wv x = gatedMlp g Vd Vg Vv x

end SkipAbsorption

end

/-! ### Nondegenerate weights (paper D5, as reconstructed) -/

namespace SkipAbsorption

variable {d n : ℕ}

/-- **Nondegenerate weights** (paper definition D5 as reconstructed in `paper.md`; the paper's
own wording of D5 is not reproduced verbatim): with rows `u_i = Wu i` of `Wu` and columns
`w_i = fun k => Wd k i` of `Wd`,

1. every row `u_i` is nonzero;
2. no two rows are parallel: `u_j ≠ c • u_i` for `i ≠ j` and every real `c`;
3. every column `w_i` is nonzero.

A conjunction in this order; `ReluNecessity/Basic.lean` gives named accessors
(`Nondegenerate.row_ne_zero`, `Nondegenerate.row_not_parallel`,
`Nondegenerate.col_ne_zero`) and the constructor `Nondegenerate.intro`. -/
def Nondegenerate (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) : Prop :=
  (∀ i : Fin n, Wu i ≠ 0) ∧ (∀ i j : Fin n, i ≠ j → ∀ c : ℝ, Wu j ≠ c • Wu i) ∧
    (∀ i : Fin n, (fun k : Fin d => Wd k i) ≠ 0)

end SkipAbsorption

/-! ### ReLU and its odd and even parts -/

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

/-- **Beyond the paper (issue 13).** ReLU is positively homogeneous of degree one:
`relu (t * z) = t * relu z` for `t > 0`. -/
theorem relu_mul_of_pos {t : ℝ} (ht : 0 < t) (z : ℝ) : relu (t * z) = t * relu z := by
  rcases le_total 0 z with hz | hz
  · have h1 : 0 ≤ t * z := by
      first
        | exact mul_nonneg ht.le hz
        | nlinarith
    -- route 1: the values of `relu` as `have`s (`relu w = max w 0` unfolds at default
    -- transparency, as in `Relu.lean`), then `rw` on `relu` terms only; route 2: unfold `relu`
    -- in the goal and rewrite with the `max` lemmas
    first
      | (have r1 : relu (t * z) = t * z := max_eq_left h1
         have r2 : relu z = z := max_eq_left hz
         rw [r1, r2]; done)
      | (have e : ∀ w : ℝ, relu w = max w 0 := fun w => rfl
         rw [e, e, max_eq_left h1, max_eq_left hz])
  · have h1 : t * z ≤ 0 := by nlinarith
    first
      | (have r1 : relu (t * z) = 0 := max_eq_right h1
         have r2 : relu z = 0 := max_eq_right hz
         rw [r1, r2, mul_zero]; done)
      | (have e : ∀ w : ℝ, relu w = max w 0 := fun w => rfl
         rw [e, e, max_eq_right h1, max_eq_right hz, mul_zero])

end SkipAbsorption

end
