import Mathlib.MeasureTheory.Measure.Lebesgue.EqHaar
import Mathlib.Data.Matrix.Mul
import Mathlib.Tactic.Abel
import Mathlib.Tactic.Linarith

/-!
# The S-condition holds only on a null set (paper Corollary 11, one side)

For a fixed `Wu` and `0 < d`, the set of down-projections `Wd` (as `Fin d → Fin n → ℝ`, whose
`volume` is Lebesgue measure) for which some `S ⊆ {1..n}` satisfies the S-condition
`Wd * diagonal 1_S * Wu = -1` has measure `0`: wherever the "only if" direction of paper
Theorem 8 applies, Lebesgue-almost every `Wd` does not let the ReLU block absorb its skip.

* `linearLevelSet f b`: the level set `{x | f x = b}` of a linear map, as an affine subspace;
  it is not `⊤` when `b ≠ 0` (`linearLevelSet_ne_top`, since `f 0 = 0`);
* `addHaar_linearLevelSet_eq_zero`: such a level set is null for every additive Haar measure
  on a finite-dimensional real normed space, by two routes: `addHaar_affineSubspace`, or (if
  the set is nonempty, containing `x₀`) a translate of `ker f`, which is a proper submodule,
  through `measure_preimage_add` and `addHaar_submodule`;
* `mulMulLin A B`: `W ↦ of W * A * B` as a linear map;
* `volume_sCondition_single_eq_zero`: for one `S`, the set `{Wd | Wd * diagonal 1_S * Wu = -1}`
  is null;
* `volume_sCondition_eq_zero`: the union over the finitely many `S` is null.

The paper's Corollary 11 speaks of generic weights `(Wd, Wu)`; here `Wu` is arbitrary and
fixed, and the null set is in `Wd`. The joint statement over `(Wu, Wd)` (product Lebesgue
measure) follows by Tonelli and is formalised in `MeasureZeroJoint.lean`
(`volume_sCondition_joint_eq_zero`). Not compiled: no Lean toolchain here.
-/

open MeasureTheory MeasureTheory.Measure

namespace SkipAbsorption

section LevelSet

variable {E F : Type*} [AddCommGroup E] [Module ℝ E] [AddCommGroup F] [Module ℝ F]

/-- The level set `{x | f x = b}` of a linear map `f`, as an affine subspace of `E`. -/
noncomputable def linearLevelSet (f : E →ₗ[ℝ] F) (b : F) : AffineSubspace ℝ E where
  carrier := {x | f x = b}
  smul_vsub_vadd_mem c p₁ p₂ p₃ h₁ h₂ h₃ := by
    have e₁ : f p₁ = b := h₁
    have e₂ : f p₂ = b := h₂
    have e₃ : f p₃ = b := h₃
    first
    | (show f (c • (p₁ - p₂) + p₃) = b
       rw [map_add, map_smul, map_sub, e₁, e₂, e₃, sub_self, smul_zero, zero_add]
       done)
    | (rw [vsub_eq_sub, vadd_eq_add, Set.mem_setOf_eq, map_add, map_smul, map_sub, e₁, e₂, e₃,
         sub_self, smul_zero, zero_add]
       done)
    | (show f (c • (p₁ - p₂) + p₃) = b
       simp [e₁, e₂, e₃])

/-- The points of `linearLevelSet f b` are the solutions of `f x = b`. -/
theorem coe_linearLevelSet (f : E →ₗ[ℝ] F) (b : F) :
    (linearLevelSet f b : Set E) = {x | f x = b} :=
  rfl

/-- A level set at a nonzero value misses `0`, so it is not the whole space. -/
theorem linearLevelSet_ne_top (f : E →ₗ[ℝ] F) {b : F} (hb : b ≠ 0) :
    linearLevelSet f b ≠ ⊤ := by
  intro h
  have h0 : (0 : E) ∈ linearLevelSet f b := by
    rw [h]
    first
    | exact AffineSubspace.mem_top ℝ E 0
    | exact AffineSubspace.mem_top 0
    | exact AffineSubspace.mem_top _ _ _
    | simp
  have e : f 0 = b := h0
  exact hb (e.symm.trans (map_zero f))

end LevelSet

/-- **A level set of a linear map at a nonzero value is null** for every additive Haar measure
`μ` on a finite-dimensional real normed space. -/
theorem addHaar_linearLevelSet_eq_zero {E F : Type*} [NormedAddCommGroup E] [NormedSpace ℝ E]
    [MeasurableSpace E] [BorelSpace E] [FiniteDimensional ℝ E] (μ : Measure E)
    [IsAddHaarMeasure μ] [AddCommGroup F] [Module ℝ F] (f : E →ₗ[ℝ] F) {b : F}
    (hb : b ≠ 0) :
    μ {x | f x = b} = 0 := by
  first
  | -- route 1: a proper affine subspace is null
    exact addHaar_affineSubspace μ (linearLevelSet f b) (linearLevelSet_ne_top f hb)
  | (have h := addHaar_affineSubspace μ (linearLevelSet f b) (linearLevelSet_ne_top f hb)
     rw [coe_linearLevelSet] at h
     exact h)
  | -- route 2: empty, or a translate of the proper submodule `ker f`
    (rcases ({x | f x = b} : Set E).eq_empty_or_nonempty with he | ⟨x0, hx0⟩
     · rw [he]
       exact measure_empty
     · have hx0' : f x0 = b := hx0
       have hker : LinearMap.ker f ≠ ⊤ := by
         intro htop
         have hm : x0 ∈ LinearMap.ker f := by
           rw [htop]
           exact Submodule.mem_top
         have hf0 : f x0 = 0 := LinearMap.mem_ker.mp hm
         exact hb (hx0'.symm.trans hf0)
       have hset : {x | f x = b} = (fun h => -x0 + h) ⁻¹' (LinearMap.ker f : Set E) := by
         ext x
         constructor
         · intro hx
           have hx' : f x = b := hx
           show -x0 + x ∈ LinearMap.ker f
           rw [LinearMap.mem_ker, map_add, map_neg, hx', hx0', neg_add_cancel]
         · intro hx
           have hx' : f (-x0 + x) = 0 := LinearMap.mem_ker.mp hx
           rw [map_add, map_neg, hx0'] at hx'
           show f x = b
           calc f x = b + (-b + f x) := by abel
             _ = b := by rw [hx', add_zero]
       rw [hset, measure_preimage_add]
       exact addHaar_submodule μ (LinearMap.ker f) hker)

variable {d n : ℕ}

/-- `W ↦ of W * A * B` as a linear map from `Fin d → Fin n → ℝ` (which carries Lebesgue
measure) to `d × d` matrices. -/
noncomputable def mulMulLin (A : Matrix (Fin n) (Fin n) ℝ) (B : Matrix (Fin n) (Fin d) ℝ) :
    (Fin d → Fin n → ℝ) →ₗ[ℝ] Matrix (Fin d) (Fin d) ℝ where
  toFun W := Matrix.of W * A * B
  map_add' X Y := by
    first
    | (show Matrix.of (X + Y) * A * B = Matrix.of X * A * B + Matrix.of Y * A * B
       rw [← Matrix.of_add_of, Matrix.add_mul, Matrix.add_mul]
       done)
    | (show (Matrix.of X + Matrix.of Y) * A * B = Matrix.of X * A * B + Matrix.of Y * A * B
       rw [Matrix.add_mul, Matrix.add_mul]
       done)
    | -- term mode: the two `add_mul` steps chained, no rewriting
      exact (congrArg (fun M : Matrix (Fin d) (Fin n) ℝ => M * B)
        (Matrix.add_mul (Matrix.of X) (Matrix.of Y) A)).trans (Matrix.add_mul _ _ B)
    | -- entrywise: no `Matrix.add` instance to match (review C of 2026-12-03, risk 2)
      (ext i j
       simp only [Matrix.mul_apply, Matrix.of_apply, Matrix.add_apply, Pi.add_apply, add_mul,
         Finset.sum_add_distrib])
  map_smul' r X := by
    first
    | (show (r • Matrix.of X) * A * B = r • (Matrix.of X * A * B)
       rw [Matrix.smul_mul, Matrix.smul_mul]
       done)
    | (show Matrix.of (r • X) * A * B = r • (Matrix.of X * A * B)
       rw [← Matrix.smul_of, Matrix.smul_mul, Matrix.smul_mul]
       done)
    | -- term mode: the two `smul_mul` steps chained, no rewriting
      exact (congrArg (fun M : Matrix (Fin d) (Fin n) ℝ => M * B)
        (Matrix.smul_mul r (Matrix.of X) A)).trans (Matrix.smul_mul r (Matrix.of X * A) B)
    | -- entrywise: both sides become `∑ k, ∑ l, r * (X i l * (A l k * B k j))`
      (ext i j
       simp [Matrix.mul_apply, Finset.mul_sum, Finset.sum_mul, mul_assoc])

/-- `mulMulLin A B W = of W * A * B`. -/
theorem mulMulLin_apply (A : Matrix (Fin n) (Fin n) ℝ) (B : Matrix (Fin n) (Fin d) ℝ)
    (W : Fin d → Fin n → ℝ) : mulMulLin A B W = Matrix.of W * A * B :=
  rfl

/-- For `0 < d` the matrix `-1 : Matrix (Fin d) (Fin d) ℝ` is not `0`. -/
theorem neg_one_matrix_ne_zero (hd : 0 < d) : (-1 : Matrix (Fin d) (Fin d) ℝ) ≠ 0 := by
  intro h
  have i : Fin d := ⟨0, hd⟩
  have h1 : (-1 : Matrix (Fin d) (Fin d) ℝ) i i = (0 : Matrix (Fin d) (Fin d) ℝ) i i := by
    rw [h]
  have e1 : (-1 : Matrix (Fin d) (Fin d) ℝ) i i = -((1 : Matrix (Fin d) (Fin d) ℝ) i i) := rfl
  have e0 : (0 : Matrix (Fin d) (Fin d) ℝ) i i = 0 := rfl
  first
  | (rw [e1, e0, Matrix.one_apply_eq] at h1
     linarith)
  | (rw [e1, e0, Matrix.one_apply, if_pos rfl] at h1
     linarith)

/-- **One `S`.** For `0 < d`, any `Wu` and any `S`, the down-projections `Wd` with
`Wd * diagonal 1_S * Wu = -1` form a Lebesgue-null set. -/
theorem volume_sCondition_single_eq_zero (hd : 0 < d) (Wu : Matrix (Fin n) (Fin d) ℝ)
    (S : Finset (Fin n)) :
    volume {Wd : Fin d → Fin n → ℝ |
      Matrix.of Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1}
      = 0 := by
  haveI : IsAddHaarMeasure (volume : Measure (Fin d → Fin n → ℝ)) := by
    first
    | infer_instance
    | exact MeasureTheory.Measure.pi.isAddHaarMeasure _
  -- route 1 lets instance search supply the Haar measure's instances; route 2 passes the pi
  -- Haar instance explicitly (all 14 arguments of `addHaar_linearLevelSet_eq_zero`); route 3
  -- compares instance arguments at default transparency (review C of 2026-12-03, risk 1)
  have h : volume {x : Fin d → Fin n → ℝ |
      mulMulLin (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)) Wu x = -1} = 0 := by
    first
    | exact addHaar_linearLevelSet_eq_zero (volume : Measure (Fin d → Fin n → ℝ))
        (mulMulLin (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)) Wu)
        (neg_one_matrix_ne_zero hd)
    | exact @addHaar_linearLevelSet_eq_zero (Fin d → Fin n → ℝ) (Matrix (Fin d) (Fin d) ℝ)
        _ _ _ _ _ volume (MeasureTheory.Measure.pi.isAddHaarMeasure _) _ _
        (mulMulLin (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)) Wu) _
        (neg_one_matrix_ne_zero hd)
    | (set_option backward.isDefEq.respectTransparency false in
       exact addHaar_linearLevelSet_eq_zero (volume : Measure (Fin d → Fin n → ℝ))
        (mulMulLin (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)) Wu)
        (neg_one_matrix_ne_zero hd))
  first
  | exact h
  | (have hset : {Wd : Fin d → Fin n → ℝ |
          Matrix.of Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1}
        = {x | mulMulLin (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)) Wu x = -1} :=
       Set.ext fun W => by rw [Set.mem_setOf_eq, Set.mem_setOf_eq, mulMulLin_apply]
     rw [hset]
     exact h)

/-- **Paper Corollary 11 (one side): the S-condition is non-generic.** For `0 < d` and any
`Wu`, the set of down-projections `Wd : Fin d → Fin n → ℝ` for which some
`S : Finset (Fin n)` satisfies `Wd * diagonal 1_S * Wu = -1` has Lebesgue measure `0`. -/
theorem volume_sCondition_eq_zero (hd : 0 < d) (Wu : Matrix (Fin n) (Fin d) ℝ) :
    volume {Wd : Fin d → Fin n → ℝ | ∃ S : Finset (Fin n),
      Matrix.of Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1}
      = 0 := by
  have hS : ∀ S : Finset (Fin n), volume {Wd : Fin d → Fin n → ℝ |
      Matrix.of Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1} = 0 :=
    fun S => volume_sCondition_single_eq_zero hd Wu S
  refine measure_mono_null ?_ (measure_iUnion_null hS)
  intro Wd hWd
  obtain ⟨S, hWdS⟩ := hWd
  exact Set.mem_iUnion.mpr ⟨S, hWdS⟩

end SkipAbsorption
