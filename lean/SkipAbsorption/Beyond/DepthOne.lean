import SkipAbsorption.Defs
import Mathlib.Algebra.BigOperators.Fin
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.NormNum
import Mathlib.Tactic.Ring

/-!
# Beyond the paper: ReLU blocks on the line (input dimension `d = 1`)

**This file goes beyond arXiv 2604.23705.** The paper proves its results at equal width and
leaves deep stacks open. Theorem A of the research note `deep-stacks.md` (§1) settles the case
`d = 1` completely; this file holds its block-level half. The stack-level statements
(Theorem A itself) are in `SkipAbsorption.Beyond.Stacks`.

A ReLU block on `ℝ` of hidden width `n` is `scalarReluBlock v u x = ∑ i, v i * relu (u i * x)`
(`mlp_relu_fin_one_apply` identifies it with coordinate `0` of `mlp relu Wd Wu` on
`Fin 1 → ℝ`). Every such block, and every map of the line that is positively homogeneous of
degree one (`f (t * x) = t * f x` for `t > 0`), is fixed by its values at `1` and `-1`:

* `eq_relu_add_relu_neg_of_posHomogeneous`: `f x = f 1 * relu x + f (-1) * relu (-x)`;
* `scalarReluBlock_posHomogeneous`: ReLU blocks of any width are positively homogeneous;
* width 2 suffices for everything: `eq_scalarReluBlock_two_of_posHomogeneous`
  (`f = scalarReluBlock ![f 1, f (-1)] ![1, -1]`), and the identity is a width-2 block
  (`scalarReluBlock_id_apply`, from `relu x - relu (-x) = x`);
* width 1 is exactly "vanishes on a half-line" (`VanishesOnHalfLine`):
  `vanishesOnHalfLine_scalarReluBlock_one`, and conversely
  `exists_scalarReluBlock_one_of_vanishesOnHalfLine` for positively homogeneous maps.

`relu` is `SkipAbsorption.relu` (`relu z = max z 0`, in `SkipAbsorption.Defs`); the proofs
only use that definition (`max_eq_left`, `max_eq_right`), `relu_sub_relu_neg` and
`relu_mul_of_pos` (`relu (t * z) = t * relu z` for `t > 0`), both in `SkipAbsorption.Defs`
(`relu_mul_of_pos` was declared here until the import re-cut of issue 22's files).

Status: not compiled (no Lean toolchain here). Every Mathlib name used is listed in
`lean/CHECKED_NAMES.md`, section "Beyond the paper: depth (issue 13)".
-/

open Matrix

noncomputable section

namespace SkipAbsorption

/-- **Beyond the paper (issue 13).** A bias-free ReLU block on the line (input dimension
`d = 1`) of hidden width `n`: `x ↦ ∑ i, v i * relu (u i * x)` (`u` the up-weights, `v` the
down-weights). -/
def scalarReluBlock {n : ℕ} (v u : Fin n → ℝ) (x : ℝ) : ℝ :=
  ∑ i, v i * relu (u i * x)

/-- **Beyond the paper (issue 13).** A coordinate of an ungated block on `Fin 1 → ℝ`:
`(mlp σ Wd Wu x) 0 = ∑ i, Wd 0 i * σ (Wu i 0 * x 0)`. -/
theorem mlp_fin_one_apply {n : ℕ} (σ : ℝ → ℝ) (Wd : Matrix (Fin 1) (Fin n) ℝ)
    (Wu : Matrix (Fin n) (Fin 1) ℝ) (x : Fin 1 → ℝ) :
    mlp σ Wd Wu x 0 = ∑ i, Wd 0 i * σ (Wu i 0 * x 0) := by
  -- the pre-activation of unit `i` is a sum over `Fin 1`
  have hin : ∀ i, (Wu *ᵥ x) i = Wu i 0 * x 0 := by
    intro i
    first
      | exact Fin.sum_univ_one (fun k => Wu i k * x k)
      | simp only [Matrix.mulVec, dotProduct, Fin.sum_univ_one]
  -- definitional: `mulVec M v i = (fun j => M i j) ⬝ᵥ v`, `dotProduct v w = ∑ i, v i * w i`
  have hout : mlp σ Wd Wu x 0 = ∑ i, Wd 0 i * σ ((Wu *ᵥ x) i) := by
    first
      | rfl
      | simp only [mlp, Matrix.mulVec, dotProduct, Function.comp_apply]
  rw [hout]
  exact Finset.sum_congr rfl (fun i _ => by rw [hin i])

/-- **Beyond the paper (issue 13).** On `Fin 1 → ℝ`, coordinate `0` of a ReLU block is the
block `scalarReluBlock` on the line, with `v i = Wd 0 i` and `u i = Wu i 0`. -/
theorem mlp_relu_fin_one_apply {n : ℕ} (Wd : Matrix (Fin 1) (Fin n) ℝ)
    (Wu : Matrix (Fin n) (Fin 1) ℝ) (x : Fin 1 → ℝ) :
    mlp relu Wd Wu x 0 = scalarReluBlock (fun i => Wd 0 i) (fun i => Wu i 0) (x 0) := by
  first
    | exact mlp_fin_one_apply relu Wd Wu x
    | (rw [mlp_fin_one_apply]; rfl)

/-- **Beyond the paper (issue 13).** ReLU is idempotent: `relu (relu z) = relu z`. -/
theorem relu_relu (z : ℝ) : relu (relu z) = relu z := by
  rcases le_total 0 z with hz | hz
  · -- route 1: `relu z = z`, rewritten twice (inner occurrence, then the outer one);
    -- route 2: unfold `relu` and rewrite with `max_eq_left`
    first
      | (have r1 : relu z = z := max_eq_left hz
         rw [r1, r1]; done)
      | (have e : ∀ w : ℝ, relu w = max w 0 := fun w => rfl
         rw [e, e, max_eq_left hz, max_eq_left hz])
  · first
      | (have r1 : relu z = 0 := max_eq_right hz
         have r0 : relu 0 = 0 := max_eq_right le_rfl
         rw [r1, r0]; done)
      | (have e : ∀ w : ℝ, relu w = max w 0 := fun w => rfl
         rw [e, e, max_eq_right hz]
         first
           | done
           | exact max_eq_right le_rfl)

/-- **Beyond the paper (issue 13).** A ReLU block on the line, of any width, is positively
homogeneous of degree one. -/
theorem scalarReluBlock_posHomogeneous {n : ℕ} (v u : Fin n → ℝ) :
    ∀ t : ℝ, 0 < t → ∀ x, scalarReluBlock v u (t * x) = t * scalarReluBlock v u x := by
  intro t ht x
  -- term by term: `v i * relu (u i * (t * x)) = t * (v i * relu (u i * x))`
  have hterm : ∀ i, v i * relu (u i * (t * x)) = t * (v i * relu (u i * x)) := by
    intro i
    have e : u i * (t * x) = t * (u i * x) := by ring
    rw [e, relu_mul_of_pos ht]
    ring
  show ∑ i, v i * relu (u i * (t * x)) = t * ∑ i, v i * relu (u i * x)
  -- route 1 rewrites with `Finset.mul_sum` (instance matching at `rw` transparency); route 2
  -- rewrites the sum term by term first and uses `Finset.mul_sum` only through `exact`
  first
    | (rw [Finset.mul_sum]
       exact Finset.sum_congr rfl (fun i _ => hterm i))
    | (rw [Finset.sum_congr rfl (fun i _ => hterm i)]
       exact (Finset.mul_sum _ _ _).symm)

/-- **Beyond the paper (issue 13)**, key lemma of Theorem A. A map of the line that is
positively homogeneous of degree one is fixed by its values at `1` and `-1`:
`f x = f 1 * relu x + f (-1) * relu (-x)`. -/
theorem eq_relu_add_relu_neg_of_posHomogeneous {f : ℝ → ℝ}
    (hf : ∀ t : ℝ, 0 < t → ∀ x, f (t * x) = t * f x) (x : ℝ) :
    f x = f 1 * relu x + f (-1) * relu (-x) := by
  rcases lt_trichotomy x 0 with hx | hx | hx
  · -- `x < 0`: `f x = (-x) * f (-1)`, `relu x = 0`, `relu (-x) = -x`
    have e : f ((-x) * (-1)) = (-x) * f (-1) := hf (-x) (by linarith) (-1)
    have ex : (-x) * (-1) = x := by ring
    rw [ex] at e
    have r1 : relu x = 0 := max_eq_right hx.le
    have r2 : relu (-x) = -x := max_eq_left (by linarith)
    rw [e, r1, r2]
    ring
  · -- `x = 0`: `f 0 = 2 * f 0`, so `f 0 = 0`
    subst hx
    have e : f (2 * 0) = 2 * f 0 := hf 2 (by norm_num) 0
    rw [mul_zero] at e
    have h0 : f 0 = 0 := by linarith
    have r1 : relu 0 = 0 := max_eq_right le_rfl
    have r2 : relu (-0) = 0 := by
      rw [neg_zero]
      exact r1
    rw [h0, r1, r2]
    ring
  · -- `x > 0`: `f x = x * f 1`, `relu x = x`, `relu (-x) = 0`
    have e : f (x * 1) = x * f 1 := hf x hx 1
    rw [mul_one] at e
    have r1 : relu x = x := max_eq_left hx.le
    have r2 : relu (-x) = 0 := max_eq_right (by linarith)
    rw [e, r1, r2]
    ring

/-- **Beyond the paper (issue 13).** The width-2 block with up-weights `(1, -1)`:
`scalarReluBlock ![a, b] ![1, -1] x = a * relu x + b * relu (-x)`. -/
theorem scalarReluBlock_two_apply (a b x : ℝ) :
    scalarReluBlock ![a, b] ![1, -1] x = a * relu x + b * relu (-x) := by
  have e0 : (![a, b] : Fin 2 → ℝ) 0 = a := by
    first
      | rfl
      | simp
  have e1 : (![a, b] : Fin 2 → ℝ) 1 = b := by
    first
      | rfl
      | simp
  have f0 : (![1, -1] : Fin 2 → ℝ) 0 = 1 := by
    first
      | rfl
      | simp
  have f1 : (![1, -1] : Fin 2 → ℝ) 1 = -1 := by
    first
      | rfl
      | simp
  have hsum : scalarReluBlock ![a, b] ![1, -1] x
      = (![a, b] : Fin 2 → ℝ) 0 * relu ((![1, -1] : Fin 2 → ℝ) 0 * x)
        + (![a, b] : Fin 2 → ℝ) 1 * relu ((![1, -1] : Fin 2 → ℝ) 1 * x) := by
    first
      | exact Fin.sum_univ_two _
      | (unfold scalarReluBlock; rw [Fin.sum_univ_two]; done)
      | simp only [scalarReluBlock, Fin.sum_univ_two]
  rw [hsum, e0, e1, f0, f1]
  -- `1 * x = x` and `-1 * x = -x` inside `relu`: rewriting, or `ring_nf` (which normalises the
  -- arguments of the atoms `relu (1 * x)`, `relu (-1 * x)` too)
  first
    | (rw [one_mul, neg_one_mul]; done)
    | ring_nf

/-- **Beyond the paper (issue 13).** Width 2 represents every positively homogeneous map of
the line: `f = scalarReluBlock ![f 1, f (-1)] ![1, -1]`. -/
theorem eq_scalarReluBlock_two_of_posHomogeneous {f : ℝ → ℝ}
    (hf : ∀ t : ℝ, 0 < t → ∀ x, f (t * x) = t * f x) :
    f = scalarReluBlock ![f 1, f (-1)] ![1, -1] := by
  funext x
  rw [scalarReluBlock_two_apply]
  exact eq_relu_add_relu_neg_of_posHomogeneous hf x

/-- **Beyond the paper (issue 13).** The identity of the line is a width-2 ReLU block:
`relu x - relu (-x) = x`. -/
theorem scalarReluBlock_id_apply (x : ℝ) : scalarReluBlock ![1, -1] ![1, -1] x = x := by
  rw [scalarReluBlock_two_apply]
  have h := relu_sub_relu_neg x
  linarith

/-- **Beyond the paper (issue 13).** A width-1 block:
`scalarReluBlock v u x = v 0 * relu (u 0 * x)`. -/
theorem scalarReluBlock_one_apply (v u : Fin 1 → ℝ) (x : ℝ) :
    scalarReluBlock v u x = v 0 * relu (u 0 * x) := by
  first
    | exact Fin.sum_univ_one _
    | (unfold scalarReluBlock; rw [Fin.sum_univ_one]; done)
    | simp only [scalarReluBlock, Fin.sum_univ_one]

/-- **Beyond the paper (issue 13).** A map of the line vanishes on a closed half-line:
on `x ≤ 0` or on `x ≥ 0`. -/
def VanishesOnHalfLine (f : ℝ → ℝ) : Prop :=
  (∀ x, x ≤ 0 → f x = 0) ∨ (∀ x, 0 ≤ x → f x = 0)

/-- **Beyond the paper (issue 13).** A map vanishing on a half-line vanishes at `0` (both
half-lines contain `0`). -/
theorem VanishesOnHalfLine.apply_zero {f : ℝ → ℝ} (h : VanishesOnHalfLine f) : f 0 = 0 := by
  first
    | exact Or.elim h (fun h1 => h1 0 le_rfl) (fun h2 => h2 0 le_rfl)
    | (unfold VanishesOnHalfLine at h
       rcases h with h1 | h1
       · exact h1 0 le_rfl
       · exact h1 0 le_rfl)

/-- **Beyond the paper (issue 13).** A width-1 ReLU block on the line vanishes on a half-line:
on `x ≤ 0` if `u 0 ≥ 0`, on `x ≥ 0` if `u 0 ≤ 0`. -/
theorem vanishesOnHalfLine_scalarReluBlock_one (v u : Fin 1 → ℝ) :
    VanishesOnHalfLine (scalarReluBlock v u) := by
  show (∀ x, x ≤ 0 → scalarReluBlock v u x = 0) ∨ (∀ x, 0 ≤ x → scalarReluBlock v u x = 0)
  rcases le_total 0 (u 0) with hu | hu
  · refine Or.inl (fun x hx => ?_)
    have hz : u 0 * x ≤ 0 := by nlinarith
    have r : relu (u 0 * x) = 0 := max_eq_right hz
    rw [scalarReluBlock_one_apply, r, mul_zero]
  · refine Or.inr (fun x hx => ?_)
    have hz : u 0 * x ≤ 0 := by nlinarith
    have r : relu (u 0 * x) = 0 := max_eq_right hz
    rw [scalarReluBlock_one_apply, r, mul_zero]

/-- **Beyond the paper (issue 13).** Conversely, a positively homogeneous map of the line that
vanishes on a half-line is a width-1 ReLU block (`f 1 * relu x` or `f (-1) * relu (-x)`). -/
theorem exists_scalarReluBlock_one_of_vanishesOnHalfLine {f : ℝ → ℝ}
    (hf : ∀ t : ℝ, 0 < t → ∀ x, f (t * x) = t * f x) (h0 : VanishesOnHalfLine f) :
    ∃ v u : Fin 1 → ℝ, f = scalarReluBlock v u := by
  have key := eq_relu_add_relu_neg_of_posHomogeneous hf
  have h0' : (∀ x, x ≤ 0 → f x = 0) ∨ (∀ x, 0 ≤ x → f x = 0) := h0
  rcases h0' with h | h
  · -- `f (-1) = 0`: `f x = f 1 * relu x`
    have hm : f (-1) = 0 := h (-1) (by norm_num)
    refine ⟨fun _ => f 1, fun _ => 1, funext fun x => ?_⟩
    rw [scalarReluBlock_one_apply]
    show f x = f 1 * relu (1 * x)
    rw [one_mul]
    first
      | (rw [key x, hm, zero_mul, add_zero]; done)
      | (have hx := key x
         rw [hm, zero_mul, add_zero] at hx
         exact hx)
  · -- `f 1 = 0`: `f x = f (-1) * relu (-x)`
    have hp : f 1 = 0 := h 1 (by norm_num)
    refine ⟨fun _ => f (-1), fun _ => -1, funext fun x => ?_⟩
    rw [scalarReluBlock_one_apply]
    show f x = f (-1) * relu (-1 * x)
    rw [neg_one_mul]
    first
      | (rw [key x, hp, zero_mul, zero_add]; done)
      | (have hx := key x
         rw [hp, zero_mul, zero_add] at hx
         exact hx)

end SkipAbsorption

end
