import SkipAbsorption.Defs
import Mathlib.LinearAlgebra.Matrix.NonsingularInverse

/-!
# Reduction of an invertible linear skip to the identity skip (paper Lemma 4)

For an invertible skip matrix `A` (`IsUnit A.det`):

* `absorbable_iff_of_isUnit_det`:
  `Absorbable σ A Wd Wu ↔ Absorbable σ 1 (A⁻¹ * Wd) Wu`;
* `gatedAbsorbable_iff_of_isUnit_det`: the same for gated blocks;
* `inv_mul_selector_eq_neg_one_iff`: `A⁻¹ * Wd * D * Wu = -1 ↔ Wd * D * Wu = -A`, which turns
  an S-condition for `(A⁻¹ * Wd, Wu)` into one for the skip `A` (moved here from
  `ReluNecessity.lean`, so that the `_of_isUnit_det` characterisations need not import it).

Proof idea: `A x + Wd σ(Wu x) = A (x + A⁻¹ Wd σ(Wu x))`, and left-multiplying any block by a
matrix `B` only changes its down-projection (`mulVec_mlp`, `absorbable_mul_left`).
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- Left-multiplying an ungated block by `B` only changes its down-projection. -/
theorem mulVec_mlp (σ : ℝ → ℝ) (B : Matrix (Fin d) (Fin d) ℝ) (W : Matrix (Fin d) (Fin n) ℝ)
    (U : Matrix (Fin n) (Fin d) ℝ) (x : Fin d → ℝ) :
    B *ᵥ mlp σ W U x = mlp σ (B * W) U x := by
  unfold mlp
  exact Matrix.mulVec_mulVec _ _ _

/-- Left-multiplying a gated block by `B` only changes its down-projection. -/
theorem mulVec_gatedMlp (g : ℝ → ℝ) (B : Matrix (Fin d) (Fin d) ℝ)
    (W : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ) (x : Fin d → ℝ) :
    B *ᵥ gatedMlp g W Wg Wv x = gatedMlp g (B * W) Wg Wv x := by
  unfold gatedMlp
  exact Matrix.mulVec_mulVec _ _ _

/-- If the skip `A` is absorbable for `(Wd, Wu)`, then `B * A` is absorbable for `(B * Wd, Wu)`. -/
theorem absorbable_mul_left {σ : ℝ → ℝ} {A : Matrix (Fin d) (Fin d) ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (B : Matrix (Fin d) (Fin d) ℝ) (h : Absorbable σ A Wd Wu) :
    Absorbable σ (B * A) (B * Wd) Wu := by
  unfold Absorbable at h ⊢
  obtain ⟨Vd, Vu, hV⟩ := h
  refine ⟨B * Vd, Vu, fun x => ?_⟩
  -- goal: (B * A) *ᵥ x + mlp σ (B * Wd) Wu x = mlp σ (B * Vd) Vu x
  -- Each step is stated in this file's own terms and proved by a term (checked up to
  -- definitional unfolding), so that every `rw` below matches syntactically.
  have e1 : (B * A) *ᵥ x = B *ᵥ (A *ᵥ x) := (Matrix.mulVec_mulVec x B A).symm
  have e2 : mlp σ (B * Wd) Wu x = B *ᵥ mlp σ Wd Wu x := (mulVec_mlp σ B Wd Wu x).symm
  have e3 : mlp σ (B * Vd) Vu x = B *ᵥ mlp σ Vd Vu x := (mulVec_mlp σ B Vd Vu x).symm
  have e4 : B *ᵥ (A *ᵥ x) + B *ᵥ mlp σ Wd Wu x = B *ᵥ (A *ᵥ x + mlp σ Wd Wu x) :=
    (Matrix.mulVec_add B (A *ᵥ x) (mlp σ Wd Wu x)).symm
  rw [e1, e2, e3, e4, hV x]

/-- Gated twin of `absorbable_mul_left`. -/
theorem gatedAbsorbable_mul_left {g : ℝ → ℝ} {A : Matrix (Fin d) (Fin d) ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wg Wv : Matrix (Fin n) (Fin d) ℝ}
    (B : Matrix (Fin d) (Fin d) ℝ) (h : GatedAbsorbable g A Wd Wg Wv) :
    GatedAbsorbable g (B * A) (B * Wd) Wg Wv := by
  unfold GatedAbsorbable at h ⊢
  obtain ⟨Vd, Vg, Vv, hV⟩ := h
  refine ⟨B * Vd, Vg, Vv, fun x => ?_⟩
  have e1 : (B * A) *ᵥ x = B *ᵥ (A *ᵥ x) := (Matrix.mulVec_mulVec x B A).symm
  have e2 : gatedMlp g (B * Wd) Wg Wv x = B *ᵥ gatedMlp g Wd Wg Wv x :=
    (mulVec_gatedMlp g B Wd Wg Wv x).symm
  have e3 : gatedMlp g (B * Vd) Vg Vv x = B *ᵥ gatedMlp g Vd Vg Vv x :=
    (mulVec_gatedMlp g B Vd Vg Vv x).symm
  have e4 : B *ᵥ (A *ᵥ x) + B *ᵥ gatedMlp g Wd Wg Wv x
      = B *ᵥ (A *ᵥ x + gatedMlp g Wd Wg Wv x) :=
    (Matrix.mulVec_add B (A *ᵥ x) (gatedMlp g Wd Wg Wv x)).symm
  rw [e1, e2, e3, e4, hV x]

/-- **Paper Lemma 4.** An invertible linear skip `A` is absorbable iff the identity skip is
absorbable for the block with down-projection `A⁻¹ * Wd`. -/
theorem absorbable_iff_of_isUnit_det (σ : ℝ → ℝ) {A : Matrix (Fin d) (Fin d) ℝ}
    (hA : IsUnit A.det) (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) :
    Absorbable σ A Wd Wu ↔ Absorbable σ 1 (A⁻¹ * Wd) Wu := by
  -- `A` is explicit in `Matrix.nonsing_inv_mul` / `Matrix.mul_nonsing_inv` (`variable (A)`);
  -- the equalities are restated here so that the `rw ... at h'` steps match syntactically.
  have hinv : A⁻¹ * A = (1 : Matrix (Fin d) (Fin d) ℝ) := Matrix.nonsing_inv_mul A hA
  have hone : A * (1 : Matrix (Fin d) (Fin d) ℝ) = A := Matrix.mul_one A
  -- `rw` route, or the same three equations chained as terms (checked up to unfolding)
  have hcancel : A * (A⁻¹ * Wd) = Wd := by
    first
      | (rw [← Matrix.mul_assoc, Matrix.mul_nonsing_inv A hA, Matrix.one_mul]; done)
      | exact (Matrix.mul_assoc A A⁻¹ Wd).symm.trans
          ((congrArg (fun B : Matrix (Fin d) (Fin d) ℝ => B * Wd)
            (Matrix.mul_nonsing_inv A hA)).trans (Matrix.one_mul Wd))
  constructor
  · intro h
    have h' := absorbable_mul_left A⁻¹ h
    rw [hinv] at h'
    exact h'
  · intro h
    have h' := absorbable_mul_left A h
    rw [hone, hcancel] at h'
    exact h'

/-- **Paper Lemma 4, gated version.** -/
theorem gatedAbsorbable_iff_of_isUnit_det (g : ℝ → ℝ) {A : Matrix (Fin d) (Fin d) ℝ}
    (hA : IsUnit A.det) (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ) :
    GatedAbsorbable g A Wd Wg Wv ↔ GatedAbsorbable g 1 (A⁻¹ * Wd) Wg Wv := by
  have hinv : A⁻¹ * A = (1 : Matrix (Fin d) (Fin d) ℝ) := Matrix.nonsing_inv_mul A hA
  have hone : A * (1 : Matrix (Fin d) (Fin d) ℝ) = A := Matrix.mul_one A
  -- `rw` route, or the same three equations chained as terms (checked up to unfolding)
  have hcancel : A * (A⁻¹ * Wd) = Wd := by
    first
      | (rw [← Matrix.mul_assoc, Matrix.mul_nonsing_inv A hA, Matrix.one_mul]; done)
      | exact (Matrix.mul_assoc A A⁻¹ Wd).symm.trans
          ((congrArg (fun B : Matrix (Fin d) (Fin d) ℝ => B * Wd)
            (Matrix.mul_nonsing_inv A hA)).trans (Matrix.one_mul Wd))
  constructor
  · intro h
    have h' := gatedAbsorbable_mul_left A⁻¹ h
    rw [hinv] at h'
    exact h'
  · intro h
    have h' := gatedAbsorbable_mul_left A h
    rw [hone, hcancel] at h'
    exact h'

/-- `A⁻¹ * Wd * D * Wu = -1 ↔ Wd * D * Wu = -A` for an invertible `A`. -/
theorem inv_mul_selector_eq_neg_one_iff {A : Matrix (Fin d) (Fin d) ℝ} (hA : IsUnit A.det)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (D : Matrix (Fin n) (Fin n) ℝ)
    (Wu : Matrix (Fin n) (Fin d) ℝ) :
    A⁻¹ * Wd * D * Wu = -1 ↔ Wd * D * Wu = -A := by
  have e : A⁻¹ * Wd * D * Wu = A⁻¹ * (Wd * D * Wu) := by
    first
    | (rw [Matrix.mul_assoc (A⁻¹ * Wd) D Wu, Matrix.mul_assoc A⁻¹ Wd (D * Wu),
        Matrix.mul_assoc Wd D Wu]; done)
    | simp only [Matrix.mul_assoc]
  have hAA : A * A⁻¹ = 1 := Matrix.mul_nonsing_inv A hA
  have hAA' : A⁻¹ * A = 1 := Matrix.nonsing_inv_mul A hA
  rw [e]
  constructor
  · intro h
    calc Wd * D * Wu = A * A⁻¹ * (Wd * D * Wu) := by rw [hAA, Matrix.one_mul]
      _ = A * (A⁻¹ * (Wd * D * Wu)) := Matrix.mul_assoc A A⁻¹ (Wd * D * Wu)
      _ = A * (-1) := by rw [h]
      _ = -A := by
        first
        | (rw [Matrix.mul_neg, Matrix.mul_one]; done)
        | simp
  · intro h
    first
    | (rw [h, Matrix.mul_neg, hAA']; done)
    | simp [h, hAA']

end SkipAbsorption
