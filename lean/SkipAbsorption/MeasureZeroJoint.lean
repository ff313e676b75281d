import SkipAbsorption.MeasureZero
import SkipAbsorption.SConditionJointSet
import Mathlib.MeasureTheory.Measure.Prod
import Mathlib.MeasureTheory.Constructions.BorelSpace.Basic
import Mathlib.Topology.Instances.Matrix

/-!
# The S-condition holds only on a null set of pairs `(Wu, Wd)` (paper Corollary 11, joint)

**Statement in words.** Fix widths `d ≥ 1` and `n`. Draw the up-projection
`Wu : Fin n → Fin d → ℝ` and the down-projection `Wd : Fin d → Fin n → ℝ` together, i.e. a
point of `(Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ)` with its `volume`, the product of the two
Lebesgue measures (`Measure.prod.measureSpace`; `Measure.volume_eq_prod` is `rfl`). The pairs
for which *some* index set `S ⊆ {1..n}` satisfies the S-condition
`Wd * diagonal 1_S * Wu = -1` form a Lebesgue-null set: `volume_sCondition_joint_eq_zero`.
Equivalently, for almost every pair `(Wu, Wd)` no `S` satisfies it:
`ae_not_sCondition_joint`.

**What it does not say.** This is a statement about the S-condition only. That the skip is
then generically *not absorbed* by the ReLU block needs the "only if" direction of paper
Theorem 8, `absorbable_relu_iff` (`ReluNecessity.lean`), which is proved under the hypothesis
`Nondegenerate Wd Wu` (paper D5 as reconstructed); that nondegenerate pairs are themselves of
full measure is not formalised here, so the conclusion "for almost every `(Wu, Wd)` the ReLU
block does not absorb its skip" is not stated in Lean.

**Proof.** (The measurability of the joint set and its sections are in
`SConditionJointSet.lean`.) By Tonelli (`Measure.measure_prod_null_of_ae_null`, which needs no s-finiteness):
the set `sConditionJointSet d n` is measurable, and its section at every `Wu`
(`Prod.mk Wu ⁻¹' _`, computed by `preimage_mk_sCondition_joint`) is the fixed-`Wu` set of
`volume_sCondition_eq_zero` (`MeasureZero.lean`), hence null; "null for every `Wu`" gives
"null for almost every `Wu`" (`Filter.Eventually.of_forall`).

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
`MeasurableSet.iUnion`). Not compiled: no Lean toolchain here.
-/

open MeasureTheory MeasureTheory.Measure

namespace SkipAbsorption

variable {d n : ℕ}

/-! ### Sections and Tonelli -/

/-- Every section of the joint set is null (`volume_sCondition_eq_zero` at `Matrix.of Wu`). -/
theorem volume_preimage_mk_sCondition_joint (hd : 0 < d) (Wu : Fin n → Fin d → ℝ) :
    volume (Prod.mk Wu ⁻¹' sConditionJointSet d n) = 0 := by
  first
  | (rw [preimage_mk_sCondition_joint]
     exact volume_sCondition_eq_zero hd (Matrix.of Wu))
  | exact volume_sCondition_eq_zero hd (Matrix.of Wu)
  | (have h := volume_sCondition_eq_zero hd (Matrix.of Wu)
     rw [← preimage_mk_sCondition_joint] at h
     exact h)

/-- **Tonelli.** The joint set is null for the product `volume`. -/
theorem volume_sConditionJointSet_eq_zero (hd : 0 < d) :
    volume (sConditionJointSet d n) = 0 := by
  have hs : MeasurableSet (sConditionJointSet d n) := measurableSet_sCondition_joint
  have hsec : ∀ Wu : Fin n → Fin d → ℝ, volume (Prod.mk Wu ⁻¹' sConditionJointSet d n) = 0 :=
    fun Wu => volume_preimage_mk_sCondition_joint hd Wu
  first
  | (rw [Measure.volume_eq_prod]
     exact Measure.measure_prod_null_of_ae_null hs (Filter.Eventually.of_forall hsec))
  | exact Measure.measure_prod_null_of_ae_null hs (Filter.Eventually.of_forall hsec)
  | (rw [Measure.volume_eq_prod]
     exact Measure.measure_prod_null_of_ae_null hs (ae_of_all _ hsec))
  | -- the `iff` form (needs `SFinite` of the second factor, a `Measure.pi`)
    (rw [Measure.volume_eq_prod]
     exact (Measure.measure_prod_null hs).mpr (Filter.Eventually.of_forall hsec))
  | -- the section integral, term by term
    (rw [Measure.volume_eq_prod, Measure.prod_apply hs]
     simp only [hsec, lintegral_zero])

/-- **Paper Corollary 11 (joint): the S-condition is non-generic.** For `0 < d`, the pairs
`p = (Wu, Wd)` (`p.1 = Wu`, `p.2 = Wd`) for which some `S : Finset (Fin n)` satisfies
`Wd * diagonal 1_S * Wu = -1` form a null set for the product Lebesgue measure. -/
theorem volume_sCondition_joint_eq_zero (hd : 0 < d) :
    volume {p : (Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ) | ∃ S : Finset (Fin n),
      Matrix.of p.2 * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Matrix.of p.1
        = -1} = 0 := by
  first
  | exact volume_sConditionJointSet_eq_zero hd
  | (show volume (sConditionJointSet d n) = 0
     exact volume_sConditionJointSet_eq_zero hd)
  | (have h := volume_sConditionJointSet_eq_zero (n := n) hd
     unfold sConditionJointSet at h
     exact h)

/-- **Paper Corollary 11 (joint), almost-everywhere form.** For `0 < d` and almost every pair
`(Wu, Wd)`, no `S` satisfies the S-condition. -/
theorem ae_not_sCondition_joint (hd : 0 < d) :
    ∀ᵐ p ∂(volume : Measure ((Fin n → Fin d → ℝ) × (Fin d → Fin n → ℝ))),
      ∀ S : Finset (Fin n),
        Matrix.of p.2 * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Matrix.of p.1
          ≠ -1 := by
  have h := volume_sConditionJointSet_eq_zero (n := n) hd
  first
  | exact (measure_eq_zero_iff_ae_notMem.mp h).mono fun p hp S hS =>
      hp ((mem_sConditionJointSet p).mpr ⟨S, hS⟩)
  | exact Filter.Eventually.mono (measure_eq_zero_iff_ae_notMem.mp h) fun p hp S hS =>
      hp ((mem_sConditionJointSet p).mpr ⟨S, hS⟩)
  | (rw [ae_iff]
     refine measure_mono_null ?_ h
     intro p hp
     by_contra hne
     exact hp fun S hS => hne ((mem_sConditionJointSet p).mpr ⟨S, hS⟩))

end SkipAbsorption
