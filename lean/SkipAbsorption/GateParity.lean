import SkipAbsorption.Defs
import Mathlib.Analysis.SpecialFunctions.Sigmoid
import Mathlib.Tactic.Abel
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.LinearCombination
import Mathlib.Tactic.Ring

/-!
# Gate parity: sufficiency of an S-condition for gated blocks (GLU)

Research note `recession.md` §8. A gated block is `x ↦ W_down (g(W_gate x) ⊙ W_val x)`
(`gatedMlp g Wd Wg Wv`). If the gate satisfies `g z + g (-z) = c` with `c ≠ 0` (sigmoid:
`c = 1`), then for `i ∈ S`, `g(-a) v = c v - g(a) v`; so negating the rows of `W_gate` and the
columns of `W_down` indexed by `S` (keeping `W_val`) gives
`V_down (g(V_gate x) ⊙ W_val x) = W_down (g(W_gate x) ⊙ W_val x) - c W_down[:,S] W_val[S,:] x`.

* `gatedAbsorbable_of_gateParity`: if moreover `Wd * diagonal 1_S * Wv = -(c⁻¹) • A`, the skip
  `A` is absorbed;
* `gatedAbsorbable_sigmoid_of_sCondition`: the sigmoid gate (GLU), `c = 1`:
  `Wd * diagonal 1_S * Wv = -A` suffices.

Necessity for GLU is open (the note's §7: the large-scale limit leaves a step-gate identity).
Not compiled: no Lean toolchain here.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- **Gate parity.** If `g z + g (-z) = c` with `c ≠ 0` and
`Wd[:,S] Wv[S,:] = -(1/c) A` (`Wd * diagonal 1_S * Wv = -(c⁻¹) • A`), the gated block absorbs
the skip `A`: negate the rows of `Wg` and the columns of `Wd` indexed by `S`, keep `Wv`. -/
theorem gatedAbsorbable_of_gateParity {g : ℝ → ℝ} {c : ℝ} (hc : c ≠ 0)
    (hg : ∀ z, g z + g (-z) = c) {A : Matrix (Fin d) (Fin d) ℝ}
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ) (S : Finset (Fin n))
    (hS : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wv = -(c⁻¹) • A) :
    GatedAbsorbable g A Wd Wg Wv := by
  unfold GatedAbsorbable
  refine ⟨Wd * Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1),
    Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wg, Wv, fun x => ?_⟩
  -- the sign-flipped hidden layer equals the old one minus `c •` the selected values
  have key : Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) *ᵥ
        (fun j => g (((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wg) *ᵥ x) j)
          * (Wv *ᵥ x) j)
      = (fun j => g ((Wg *ᵥ x) j) * (Wv *ᵥ x) j)
        - c • (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wv *ᵥ x)) := by
    funext j
    have e1 : ((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wg) *ᵥ x) j
        = (if j ∈ S then (-1 : ℝ) else 1) * (Wg *ᵥ x) j :=
      (congrFun (Matrix.mulVec_mulVec x
        (Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1)) Wg).symm j).trans
        (Matrix.mulVec_diagonal _ _ j)
    have e2 : (Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) *ᵥ
          (fun j => g (((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wg) *ᵥ x) j)
            * (Wv *ᵥ x) j)) j
        = (if j ∈ S then (-1 : ℝ) else 1) *
          (g (((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wg) *ᵥ x) j)
            * (Wv *ᵥ x) j) :=
      Matrix.mulVec_diagonal _ _ j
    have e3 : (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wv *ᵥ x)) j
        = (if j ∈ S then (1 : ℝ) else 0) * (Wv *ᵥ x) j :=
      Matrix.mulVec_diagonal _ _ j
    first
      | show (Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) *ᵥ
            (fun j => g (((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wg) *ᵥ x) j)
              * (Wv *ᵥ x) j)) j
          = g ((Wg *ᵥ x) j) * (Wv *ᵥ x) j
            - c * (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wv *ᵥ x)) j
      | (simp only [Pi.sub_apply, Pi.smul_apply, smul_eq_mul]
         show (Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) *ᵥ
             (fun j => g (((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wg) *ᵥ x) j)
               * (Wv *ᵥ x) j)) j
           = g ((Wg *ᵥ x) j) * (Wv *ᵥ x) j
             - c * (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wv *ᵥ x)) j)
    rw [e2, e1, e3]
    by_cases hj : j ∈ S
    · have e4 : (-1 : ℝ) * (Wg *ᵥ x) j = -((Wg *ᵥ x) j) := by ring
      -- `g (-a) = c - g a`; each route closes the branch
      first
        | (rw [if_pos hj, if_pos hj, e4]
           linear_combination (-(Wv *ᵥ x) j) * hg ((Wg *ᵥ x) j))
        | (simp only [if_pos hj]
           rw [e4]
           linear_combination (-(Wv *ᵥ x) j) * hg ((Wg *ᵥ x) j))
    · have e4 : (1 : ℝ) * (Wg *ᵥ x) j = (Wg *ᵥ x) j := by ring
      first
        | (rw [if_neg hj, if_neg hj, e4]; ring)
        | (simp only [if_neg hj]; rw [e4]; ring)
  -- the linear part: `c • Wd D_S Wv x = -A x`
  have hlin : c • (Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)
      *ᵥ (Wv *ᵥ x))) = -(A *ᵥ x) := by
    have e1 : Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wv *ᵥ x))
        = (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wv) *ᵥ x :=
      (Matrix.mulVec_mulVec (Wv *ᵥ x) Wd
        (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0))).trans
        (Matrix.mulVec_mulVec x
          (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)) Wv)
    have e2 : (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wv) *ᵥ x
        = (-(c⁻¹)) • (A *ᵥ x) := by
      rw [hS]
      -- `Matrix.smul_mulVec (b) (M) (v) : (b • M) *ᵥ v = b • M *ᵥ v`, or coordinatewise
      first
        | exact Matrix.smul_mulVec (-(c⁻¹)) A x
        | (rw [Matrix.smul_mulVec]; done)
        | (funext k
           simp only [Matrix.mulVec, dotProduct, Matrix.smul_apply, Pi.smul_apply, smul_eq_mul,
             Finset.mul_sum, mul_assoc])
    rw [e1, e2]
    have hcc : c * c⁻¹ = 1 := mul_inv_cancel₀ hc
    funext i
    first
      | show c * (-(c⁻¹) * (A *ᵥ x) i) = -((A *ᵥ x) i)
      | (simp only [Pi.smul_apply, Pi.neg_apply, smul_eq_mul]
         show c * (-(c⁻¹) * (A *ᵥ x) i) = -((A *ᵥ x) i))
    linear_combination (-((A *ᵥ x) i)) * hcc
  -- `(Wd * D) *ᵥ h = Wd *ᵥ (D *ᵥ h)`, then `Wd` applied to the difference
  have s0 : (Wd * Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1)) *ᵥ
        (fun j => g (((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wg) *ᵥ x) j)
          * (Wv *ᵥ x) j)
      = Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) *ᵥ
        (fun j => g (((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wg) *ᵥ x) j)
          * (Wv *ᵥ x) j)) :=
    (Matrix.mulVec_mulVec _ Wd (Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1))).symm
  have s1 : Wd *ᵥ ((fun j => g ((Wg *ᵥ x) j) * (Wv *ᵥ x) j)
        - c • (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wv *ᵥ x)))
      = Wd *ᵥ (fun j => g ((Wg *ᵥ x) j) * (Wv *ᵥ x) j)
        - c • (Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)
          *ᵥ (Wv *ᵥ x))) :=
    (Matrix.mulVec_sub Wd (fun j => g ((Wg *ᵥ x) j) * (Wv *ᵥ x) j)
      (c • (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wv *ᵥ x)))).trans
      (congrArg (fun v => Wd *ᵥ (fun j => g ((Wg *ᵥ x) j) * (Wv *ᵥ x) j) - v)
        (Matrix.mulVec_smul Wd c
          (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wv *ᵥ x))))
  first
    | show A *ᵥ x + Wd *ᵥ (fun j => g ((Wg *ᵥ x) j) * (Wv *ᵥ x) j)
        = (Wd * Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1)) *ᵥ
          (fun j => g (((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wg) *ᵥ x) j)
            * (Wv *ᵥ x) j)
    | unfold gatedMlp
  rw [s0, key, s1, hlin]
  -- `A x + B = B - -(A x)`
  first
    | (abel; done)
    | (funext j; simp only [Pi.add_apply, Pi.sub_apply, Pi.neg_apply]; ring)

/-- **GLU (sigmoid gate).** `sigmoid z + sigmoid (-z) = 1`, so `Wd[:,S] Wv[S,:] = -A` suffices
for the gated sigmoid block to absorb the skip `A`. -/
theorem gatedAbsorbable_sigmoid_of_sCondition {A : Matrix (Fin d) (Fin d) ℝ}
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ) (S : Finset (Fin n))
    (hS : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wv = -A) :
    GatedAbsorbable Real.sigmoid A Wd Wg Wv := by
  have hg : ∀ z, Real.sigmoid z + Real.sigmoid (-z) = 1 := fun z => by
    first
      | linear_combination Real.sigmoid_neg z
      | (rw [Real.sigmoid_neg]; ring)
  have hS' : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wv
      = -((1 : ℝ)⁻¹) • A := by
    rw [hS]
    first
      | (rw [inv_one, neg_smul, one_smul]; done)
      | simp
  exact gatedAbsorbable_of_gateParity one_ne_zero hg Wd Wg Wv S hS'

end SkipAbsorption
