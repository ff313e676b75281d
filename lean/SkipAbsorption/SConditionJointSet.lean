import Mathlib.MeasureTheory.Measure.Lebesgue.EqHaar
import Mathlib.MeasureTheory.Measure.Prod
import Mathlib.MeasureTheory.Constructions.BorelSpace.Basic
import Mathlib.Topology.Instances.Matrix
import Mathlib.Data.Matrix.Mul
import Mathlib.Tactic.Abel
import Mathlib.Tactic.Linarith

/-!
# The joint S-condition set is measurable (for paper Corollary 11, joint)

`sConditionJointSet d n`: the pairs `(Wu, Wd)` (`Wu : Fin n → Fin d → ℝ`,
`Wd : Fin d → Fin n → ℝ`) for which some index set `S` has `Wd * diagonal 1_S * Wu = -1`.
This file proves that it is measurable (`measurableSet_sCondition_joint`) and computes its
section at a fixed `Wu` (`preimage_mk_sCondition_joint`); that it is null (Tonelli) is
`MeasureZeroJoint.lean`.

Measurability, the delicate step, has two independent routes
(`measurableSet_sCondMap_eq`):

* (a) closed sets: `sCondMap S` (`(Wu, Wd) ↦ of Wd * diagonal 1_S * of Wu`) is continuous
  (`Continuous.matrix_mul`, `Continuous.matrixOf`; fallbacks `continuous_matrix` entrywise,
  `fun_prop`), so `{p | sCondMap S p = -1}` is closed (`isClosed_eq`) and measurable
  (`IsClosed.measurableSet`);
* (b) entrywise: `{p | sCondMap S p = -1} = ⋂ i j, {p | sCondMap S p i j = (-1) i j}`, every
  entry being the finite sum `sCondMap_apply` of products of coordinates, measurable by
  `Finset.measurable_sum`, `Measurable.mul`, `measurable_pi_apply`; `measurableSet_eq_fun`,
  `MeasurableSet.iInter`.

The joint set is the finite union over `S` (`sConditionJointSet_eq_iUnion`,
`MeasurableSet.iUnion`). Its Mathlib imports are those of `MeasureZero.lean` and
`MeasureZeroJoint.lean`, where these declarations were before (moved verbatim): it uses no
declaration of the library. Not compiled: no Lean toolchain here.
-/

open MeasureTheory MeasureTheory.Measure

namespace SkipAbsorption

/-- The joint S-condition set: the pairs `p = (Wu, Wd)` (`p.1 = Wu : Fin n → Fin d → ℝ`,
`p.2 = Wd : Fin d → Fin n → ℝ`) for which some `S` has `Wd * diagonal 1_S * Wu = -1`. -/
noncomputable def sConditionJointSet (d n : ℕ) : Set ((Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ)) :=
  {p | ∃ S : Finset (Fin n),
    Matrix.of p.2 * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Matrix.of p.1 = -1}

variable {d n : ℕ}

/-- Membership in `sConditionJointSet` (by definition). -/
theorem mem_sConditionJointSet (p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ)) :
    p ∈ sConditionJointSet d n ↔ ∃ S : Finset (Fin n),
      Matrix.of p.2 * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Matrix.of p.1
        = -1 := by
  first
  | exact Iff.rfl
  | (unfold sConditionJointSet; exact Iff.rfl)
  | simp only [sConditionJointSet, Set.mem_setOf_eq]

/-- For one `S`, the map `(Wu, Wd) ↦ of Wd * diagonal 1_S * of Wu`. -/
noncomputable def sCondMap (S : Finset (Fin n)) (p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ)) :
    Matrix (Fin d) (Fin d) ℝ :=
  Matrix.of p.2 * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Matrix.of p.1

/-- The entries of `sCondMap S p` as a double sum (the definition of matrix multiplication). -/
theorem sCondMap_apply (S : Finset (Fin n)) (p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ))
    (i j : Fin d) :
    sCondMap S p i j = ∑ k : Fin n, (∑ l : Fin n, p.2 i l *
      Matrix.diagonal (fun m => if m ∈ S then (1 : ℝ) else 0) l k) * p.1 k j := by
  first
  | rfl
  | (simp only [sCondMap, Matrix.mul_apply, Matrix.of_apply]; done)
  | (unfold sCondMap
     rw [Matrix.mul_apply]
     simp only [Matrix.mul_apply, Matrix.of_apply])

/-- The joint set is the finite union over `S` of the level sets `{p | sCondMap S p = -1}`. -/
theorem sConditionJointSet_eq_iUnion :
    sConditionJointSet d n =
      ⋃ S : Finset (Fin n),
        {p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) | sCondMap S p = -1} := by
  first
  | (ext p
     constructor
     · intro hp
       obtain ⟨S, hS⟩ := (mem_sConditionJointSet p).mp hp
       exact Set.mem_iUnion.mpr ⟨S, hS⟩
     · intro hp
       obtain ⟨S, hS⟩ := Set.mem_iUnion.mp hp
       exact (mem_sConditionJointSet p).mpr ⟨S, hS⟩)
  | exact Set.setOf_exists _
  | (ext p
     simp only [sConditionJointSet, sCondMap, Set.mem_setOf_eq, Set.mem_iUnion])

/-! ### Route (a): continuity and closed level sets -/

/-- `(Wu, Wd) ↦ of Wd` is continuous. -/
theorem continuous_matrixOf_snd :
    Continuous fun p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) => Matrix.of p.2 := by
  first
  | exact Continuous.matrixOf continuous_snd
  | exact continuous_matrixOf.mpr continuous_snd
  | exact continuous_matrix fun i j => (continuous_apply j).comp ((continuous_apply i).comp
      continuous_snd)
  | (refine continuous_matrix fun i j => ?_
     simp only [Matrix.of_apply]
     fun_prop)
  | fun_prop

/-- `(Wu, Wd) ↦ of Wu` is continuous. -/
theorem continuous_matrixOf_fst :
    Continuous fun p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) => Matrix.of p.1 := by
  first
  | exact Continuous.matrixOf continuous_fst
  | exact continuous_matrixOf.mpr continuous_fst
  | exact continuous_matrix fun i j => (continuous_apply j).comp ((continuous_apply i).comp
      continuous_fst)
  | (refine continuous_matrix fun i j => ?_
     simp only [Matrix.of_apply]
     fun_prop)
  | fun_prop

/-- `sCondMap S` is continuous: a product of continuous matrix-valued maps. -/
theorem continuous_sCondMap (S : Finset (Fin n)) : Continuous (sCondMap (d := d) S) := by
  have h2 := continuous_matrixOf_snd (d := d) (n := n)
  have h1 := continuous_matrixOf_fst (d := d) (n := n)
  have hD : Continuous fun _ : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) =>
      Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) := continuous_const
  first
  | (have hmul : Continuous fun p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) =>
         Matrix.of p.2 * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *
           Matrix.of p.1 :=
       (h2.matrix_mul hD).matrix_mul h1
     exact hmul)
  | exact Continuous.matrix_mul (Continuous.matrix_mul h2 hD) h1
  | (show Continuous fun p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) =>
       Matrix.of p.2 * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Matrix.of p.1
     fun_prop)
  | -- entrywise, without `Continuous.matrix_mul`: `continuous_matrix` and the double sum
    (refine continuous_matrix fun i j => ?_
     simp only [sCondMap_apply]
     fun_prop)
  | (show Continuous fun p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) =>
       Matrix.of p.2 * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Matrix.of p.1
     continuity)

/-- Route (a): for one `S`, the level set `{p | sCondMap S p = -1}` is closed. -/
theorem isClosed_sCondMap_eq (S : Finset (Fin n)) :
    IsClosed {p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) | sCondMap S p = -1} := by
  first
  | exact isClosed_eq (continuous_sCondMap S) continuous_const
  | exact isClosed_eq (f := sCondMap S) (g := fun _ => -1) (continuous_sCondMap S)
      continuous_const

/-! ### Route (b): entrywise measurability (inside `measurableSet_sCondMap_eq`, so that a
failure of this route cannot break the file while route (a) succeeds) -/

/-- **Measurability of one level set, two independent routes.** (a) it is closed
(`isClosed_sCondMap_eq`); (b) it is the intersection over the entries `(i, j)` of the level sets
of the entry maps, each measurable as a finite sum of products of coordinates (`sCondMap_apply`);
route (b) is proved inside this `first`, so its failure cannot break the file. -/
theorem measurableSet_sCondMap_eq (S : Finset (Fin n)) :
    MeasurableSet {p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) | sCondMap S p = -1} := by
  first
  | -- route (a): closed, hence measurable
    exact IsClosed.measurableSet (isClosed_sCondMap_eq S)
  | exact (isClosed_sCondMap_eq S).measurableSet
  | -- route (b): entrywise; each entry is a finite sum of products of coordinates
    (have hm : ∀ i j : Fin d, Measurable
         fun p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) => sCondMap S p i j := by
       intro i j
       rw [funext fun p => sCondMap_apply S p i j]
       first
       | exact Finset.measurable_sum Finset.univ fun k _ =>
           Measurable.mul
             (Finset.measurable_sum Finset.univ fun l _ =>
               Measurable.mul_const
                 ((measurable_pi_apply l).comp ((measurable_pi_apply i).comp measurable_snd))
                 (Matrix.diagonal (fun m => if m ∈ S then (1 : ℝ) else 0) l k))
             ((measurable_pi_apply j).comp ((measurable_pi_apply k).comp measurable_fst))
       | fun_prop
       | measurability
     have hset : {p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) | sCondMap S p = -1} =
         ⋂ i : Fin d, ⋂ j : Fin d, {p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) |
           sCondMap S p i j = (-1 : Matrix (Fin d) (Fin d) ℝ) i j} := by
       ext p
       simp only [Set.mem_setOf_eq, Set.mem_iInter]
       exact ⟨fun h i j => by rw [h], fun h => Matrix.ext h⟩
     rw [hset]
     exact MeasurableSet.iInter fun i => MeasurableSet.iInter fun j =>
       measurableSet_eq_fun (hm i j) measurable_const)
  | (have hm : ∀ i j : Fin d, Measurable
         fun p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) => sCondMap S p i j := by
       intro i j
       simp only [sCondMap_apply]
       fun_prop
     have hset : {p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) | sCondMap S p = -1} =
         ⋂ i : Fin d, ⋂ j : Fin d, {p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) |
           sCondMap S p i j = (-1 : Matrix (Fin d) (Fin d) ℝ) i j} := by
       ext p
       constructor
       · intro h
         have h' : sCondMap S p = -1 := h
         exact Set.mem_iInter.mpr fun i => Set.mem_iInter.mpr fun j => by
           show sCondMap S p i j = (-1 : Matrix (Fin d) (Fin d) ℝ) i j
           rw [h']
       · intro h
         exact Matrix.ext fun i j => Set.mem_iInter.mp (Set.mem_iInter.mp h i) j
     rw [hset]
     exact MeasurableSet.iInter fun i => MeasurableSet.iInter fun j =>
       hm i j (measurableSet_singleton ((-1 : Matrix (Fin d) (Fin d) ℝ) i j)))

/-- **Measurability of the joint set**: a finite union of measurable level sets. -/
theorem measurableSet_sCondition_joint : MeasurableSet (sConditionJointSet d n) := by
  first
  | (rw [sConditionJointSet_eq_iUnion]
     exact MeasurableSet.iUnion fun S => measurableSet_sCondMap_eq S)
  | -- without `rw`: transport along the set equality
    exact MeasurableSet.congr (MeasurableSet.iUnion fun S => measurableSet_sCondMap_eq S)
      sConditionJointSet_eq_iUnion.symm
  | -- a finite union of closed sets is closed
    (rw [sConditionJointSet_eq_iUnion]
     exact IsClosed.measurableSet (isClosed_iUnion_of_finite fun S => isClosed_sCondMap_eq S))

/-! ### Sections -/

/-- The section of the joint set at `Wu` is the fixed-`Wu` set of `MeasureZero.lean`. -/
theorem preimage_mk_sCondition_joint (Wu : Fin n → Fin d → ℝ) :
    Prod.mk Wu ⁻¹' sConditionJointSet d n = {Wd : Fin d → Fin n → ℝ | ∃ S : Finset (Fin n),
      Matrix.of Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Matrix.of Wu
        = -1} := by
  first
  | exact Set.ext fun _ => Iff.rfl
  | rfl
  | (ext Wd
     simp only [Set.mem_preimage, mem_sConditionJointSet, Set.mem_setOf_eq])

end SkipAbsorption
