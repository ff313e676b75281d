import SkipAbsorption.Defs
import Mathlib.Tactic.Abel
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.Ring
import Mathlib.Tactic.LinearCombination

/-!
# Parity: even activations, and the S-condition (paper Theorems 8/10, "if" direction)

* `not_absorbable_of_even`: if `σ` is even, `mlp σ W U (-x) = mlp σ W U x` for every block,
  so `x + mlp(x) = mlp'(x)` at `x` and at `-x` forces `2 x = 0`; impossible for `d ≥ 1`.
  `not_absorbable_of_even_of_ne_zero` is the same for any nonzero skip `A`.
* `absorbable_of_sCondition` (sufficiency in paper Theorems 8 and 10, which hold for all
  weights): if `σ z - σ (-z) = c z` with `c ≠ 0` (ReLU, GELU, SiLU have `c = 1`) and some
  `S ⊆ {1..n}` satisfies `Wd[:,S] Wu[S,:] = -(1/c) I`, written with the 0/1 diagonal
  selector `Wd * diagonal 1_S * Wu = -(c⁻¹) • 1`, then the identity skip is absorbed. The
  witness keeps `Wd` and negates the rows of `Wu` indexed by `S`.

The necessity direction of Theorems 8/10 is not formalised; the rank bound `d ≤ |S|` is
`card_le_of_sCondition` in `Rank.lean`.

Imports: only `SkipAbsorption.Defs` (matrices over `ℝ`) and tactics; nothing here uses the
asymptotic lemmas, so a failure in `SkipAbsorption.Asymptotics` does not reach this file.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- With an even activation every block is an even function of its input. -/
theorem mlp_neg_of_even {σ : ℝ → ℝ} (hσ : ∀ z, σ (-z) = σ z)
    (W : Matrix (Fin d) (Fin n) ℝ) (U : Matrix (Fin n) (Fin d) ℝ) (x : Fin d → ℝ) :
    mlp σ W U (-x) = mlp σ W U x := by
  have hin : σ ∘ (U *ᵥ (-x)) = σ ∘ (U *ᵥ x) := by
    funext i
    -- `Matrix.mulVec_neg (v) (A) : A *ᵥ (-v) = -(A *ᵥ v)`; `(-w) i = -(w i)` by unfolding
    have e : (U *ᵥ (-x)) i = -((U *ᵥ x) i) := congrFun (Matrix.mulVec_neg x U) i
    show σ ((U *ᵥ (-x)) i) = σ ((U *ᵥ x) i)
    rw [e, hσ]
  show W *ᵥ (σ ∘ (U *ᵥ (-x))) = W *ᵥ (σ ∘ (U *ᵥ x))
  rw [hin]

/-- **Even activations never absorb the identity skip** (for `d ≥ 1`, all weights). -/
theorem not_absorbable_of_even {σ : ℝ → ℝ} (hσ : ∀ z, σ (-z) = σ z) (hd : 0 < d)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) :
    ¬ Absorbable σ 1 Wd Wu := by
  intro hab
  unfold Absorbable at hab
  obtain ⟨Vd, Vu, h⟩ := hab
  have h1 := h (fun _ : Fin d => (1 : ℝ))
  have h2 := h (-(fun _ : Fin d => (1 : ℝ)))
  rw [mlp_neg_of_even hσ, mlp_neg_of_even hσ, Matrix.one_mulVec] at h2
  rw [Matrix.one_mulVec] at h1
  -- h1 :  1 + mlp(1) = mlp'(1),  h2 : -1 + mlp(1) = mlp'(1)   (coordinatewise)
  have e1 := congrFun h1 ⟨0, hd⟩
  have e2 := congrFun h2 ⟨0, hd⟩
  simp only [Pi.add_apply, Pi.neg_apply] at e1 e2
  linarith

/-- Even activations never absorb any nonzero skip `A`. -/
theorem not_absorbable_of_even_of_ne_zero {σ : ℝ → ℝ} (hσ : ∀ z, σ (-z) = σ z)
    {A : Matrix (Fin d) (Fin d) ℝ} (hA : A ≠ 0)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) :
    ¬ Absorbable σ A Wd Wu := by
  intro hab
  unfold Absorbable at hab
  obtain ⟨Vd, Vu, h⟩ := hab
  apply hA
  rw [Matrix.ext_iff_mulVec]
  intro x
  rw [Matrix.zero_mulVec]
  have h1 := h x
  have h2 := h (-x)
  have hneg : A *ᵥ (-x) = -(A *ᵥ x) := Matrix.mulVec_neg x A
  rw [mlp_neg_of_even hσ, mlp_neg_of_even hσ, hneg] at h2
  -- h1 : A x + mlp(x) = mlp'(x),  h2 : -(A x) + mlp(x) = mlp'(x)
  funext i
  have e1 := congrFun h1 i
  have e2 := congrFun h2 i
  simp only [Pi.add_apply, Pi.neg_apply] at e1 e2
  show (A *ᵥ x) i = 0
  linarith

/-- **Paper Theorems 8/10, sufficiency (for all weights).** If `σ z - σ (-z) = c z` with
`c ≠ 0` and `Wd * diagonal 1_S * Wu = -(c⁻¹) • 1`, the identity skip is absorbed: keep `Wd`
and negate the rows of `Wu` indexed by `S`. -/
theorem absorbable_of_sCondition {σ : ℝ → ℝ} {c : ℝ} (hc : c ≠ 0)
    (hσ : ∀ z, σ z - σ (-z) = c * z)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) (S : Finset (Fin n))
    (hS : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
      = -(c⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ)) :
    Absorbable σ 1 Wd Wu := by
  unfold Absorbable
  refine ⟨Wd, Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wu, fun x => ?_⟩
  -- Every intermediate equation below is stated in this file's terms and proved by a term or
  -- by rewriting with such equations, so that each `rw` matches syntactically.
  -- hidden layer of the new block = old hidden layer - c • (selected pre-activations)
  have key : σ ∘ ((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wu) *ᵥ x)
      = σ ∘ (Wu *ᵥ x)
        - c • (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x)) := by
    funext i
    have e1 : ((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wu) *ᵥ x) i
        = (if i ∈ S then (-1 : ℝ) else 1) * (Wu *ᵥ x) i :=
      (congrFun (Matrix.mulVec_mulVec x
        (Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1)) Wu).symm i).trans
        (Matrix.mulVec_diagonal _ _ i)
    have e2 : (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x)) i
        = (if i ∈ S then (1 : ℝ) else 0) * (Wu *ᵥ x) i :=
      Matrix.mulVec_diagonal _ _ i
    -- unfold `∘`, the pointwise `-` and `•` on `Fin n → ℝ`, and `•` on `ℝ` (`smul_eq_mul`)
    first
      | show σ (((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wu) *ᵥ x) i)
          = σ ((Wu *ᵥ x) i)
            - c * (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x)) i
      | (simp only [Function.comp_apply, Pi.sub_apply, Pi.smul_apply, smul_eq_mul]
         show σ (((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wu) *ᵥ x) i)
             = σ ((Wu *ᵥ x) i)
               - c * (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x)) i)
    rw [e1, e2]
    by_cases hi : i ∈ S
    · rw [if_pos hi, if_pos hi]
      have e3 : (-1 : ℝ) * (Wu *ᵥ x) i = -((Wu *ᵥ x) i) := by ring
      have e4 : (1 : ℝ) * (Wu *ᵥ x) i = (Wu *ᵥ x) i := by ring
      rw [e3, e4]
      linarith [hσ ((Wu *ᵥ x) i)]
    · rw [if_neg hi, if_neg hi]
      have e3 : (1 : ℝ) * (Wu *ᵥ x) i = (Wu *ᵥ x) i := by ring
      have e4 : c * ((0 : ℝ) * (Wu *ᵥ x) i) = 0 := by ring
      rw [e3, e4, sub_zero]
  -- the linear part produced by the sign flips is exactly `-x`
  have hlin : c • (Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)
      *ᵥ (Wu *ᵥ x))) = -x := by
    have e1 : Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x))
        = (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) *ᵥ x :=
      (Matrix.mulVec_mulVec (Wu *ᵥ x) Wd
        (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0))).trans
        (Matrix.mulVec_mulVec x
          (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)) Wu)
    have e2 : (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) *ᵥ x
        = (-(c⁻¹)) • x := by
      rw [hS]
      -- `Matrix.smul_mulVec (b) (M) (v) : (b • M) *ᵥ v = b • M *ᵥ v`, then `1 *ᵥ x = x`
      first
        | exact (Matrix.smul_mulVec (-(c⁻¹)) (1 : Matrix (Fin d) (Fin d) ℝ) x).trans
            (congrArg (fun v => (-(c⁻¹)) • v) (Matrix.one_mulVec x))
        | (rw [Matrix.smul_mulVec, Matrix.one_mulVec]; done)
        | (rw [Matrix.smul_mulVec, Matrix.one_mulVec]; rfl)
        | (funext j; simp only [Matrix.smul_mulVec, Matrix.one_mulVec, Pi.smul_apply, smul_eq_mul])
    rw [e1, e2]
    have hcc : c * c⁻¹ = 1 := mul_inv_cancel₀ hc
    funext i
    first
      | show c * (-(c⁻¹) * x i) = -(x i)
      | (simp only [Pi.smul_apply, Pi.neg_apply, smul_eq_mul]; show c * (-(c⁻¹) * x i) = -(x i))
    linear_combination (-(x i)) * hcc
  -- `Wd` applied to the difference of the hidden layers
  have hsplit : Wd *ᵥ (σ ∘ (Wu *ᵥ x)
        - c • (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x)))
      = Wd *ᵥ (σ ∘ (Wu *ᵥ x))
        - c • (Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)
          *ᵥ (Wu *ᵥ x))) :=
    (Matrix.mulVec_sub Wd (σ ∘ (Wu *ᵥ x))
      (c • (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x)))).trans
      (congrArg (fun v => Wd *ᵥ (σ ∘ (Wu *ᵥ x)) - v)
        (Matrix.mulVec_smul Wd c
          (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x))))
  have hone : (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x = x := Matrix.one_mulVec x
  first
    | show (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + Wd *ᵥ (σ ∘ (Wu *ᵥ x))
        = Wd *ᵥ (σ ∘ ((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wu) *ᵥ x))
    | unfold mlp
  rw [key, hsplit, hlin, hone]
  -- `x + B = B - -x` in the additive group `Fin d → ℝ`, or coordinatewise in `ℝ`
  -- (`abel` is `first | abel1 | try_this abel_nf` and may succeed without closing the goal, so
  -- `done` makes a half-finished `abel` fail and the coordinatewise route run)
  first
    | (abel; done)
    | (funext j; simp only [Pi.add_apply, Pi.sub_apply, Pi.neg_apply]; ring)

end SkipAbsorption
