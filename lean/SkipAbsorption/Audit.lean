import SkipAbsorption.Defs
import SkipAbsorption.Asymptotics
import SkipAbsorption.Reduction
import SkipAbsorption.Degree
import SkipAbsorption.Linearisation
import SkipAbsorption.Depth
import SkipAbsorption.Parity
import SkipAbsorption.Gaussian
import SkipAbsorption.Activations
import SkipAbsorption.CatalogActivations
import SkipAbsorption.Kink
import SkipAbsorption.Rank
import SkipAbsorption.MeasureZero

/-!
# Audit: the axioms behind every theorem of the library

`#print axioms` for every theorem of `SkipAbsorption` (all files except the generated
`SkipAbsorption/Families/`). Building this file prints, for each theorem, the list of
axioms it depends on. The expected list is a subset of the allowlist
`propext`, `Classical.choice`, `Quot.sound`; anything else means that a proof has a hole or
uses an extra assumption. The Python test `tests/test_lean_build.py` checks the build log
for this.
-/

-- Asymptotics.lean
#print axioms SkipAbsorption.mulVec_comp_isBigO
#print axioms SkipAbsorption.comp_pi_isLittleO
#print axioms SkipAbsorption.isLittleO_comp_isBigO_id
#print axioms SkipAbsorption.tendsto_zero_of_abs_le_abs
#print axioms SkipAbsorption.abs_mul_le_abs_of_unit_interval

-- Reduction.lean
#print axioms SkipAbsorption.mulVec_mlp
#print axioms SkipAbsorption.mulVec_gatedMlp
#print axioms SkipAbsorption.absorbable_mul_left
#print axioms SkipAbsorption.gatedAbsorbable_mul_left
#print axioms SkipAbsorption.absorbable_iff_of_isUnit_det
#print axioms SkipAbsorption.gatedAbsorbable_iff_of_isUnit_det

-- Degree.lean
#print axioms SkipAbsorption.two_pow_ne_two
#print axioms SkipAbsorption.eq_zero_of_add_posHomogeneous_eq
#print axioms SkipAbsorption.not_linear_add_eq_of_posHomogeneous
#print axioms SkipAbsorption.mlp_smul
#print axioms SkipAbsorption.gatedMlp_smul
#print axioms SkipAbsorption.not_absorbable_of_posHomogeneous
#print axioms SkipAbsorption.not_gatedAbsorbable_of_posHomogeneous
#print axioms SkipAbsorption.two_rpow_ne_two
#print axioms SkipAbsorption.eq_zero_of_add_eq_of_smul_two
#print axioms SkipAbsorption.mulVec_eq_zero_of_add_eq_of_smul_two
#print axioms SkipAbsorption.not_linear_add_eq_of_posHomogeneous_rpow
#print axioms SkipAbsorption.mlp_smul_rpow
#print axioms SkipAbsorption.gatedMlp_smul_rpow
#print axioms SkipAbsorption.not_absorbable_of_posHomogeneous_rpow
#print axioms SkipAbsorption.not_gatedAbsorbable_of_posHomogeneous_rpow

-- Linearisation.lean
#print axioms SkipAbsorption.not_add_eq_of_isLittleO
#print axioms SkipAbsorption.mlp_isLittleO
#print axioms SkipAbsorption.gatedMlp_isLittleO
#print axioms SkipAbsorption.not_gatedAbsorbable_of_tendsto
#print axioms SkipAbsorption.not_absorbable_of_isLittleO
#print axioms SkipAbsorption.not_gatedAbsorbable_of_tendsto_of_isUnit
#print axioms SkipAbsorption.not_absorbable_of_isLittleO_of_isUnit

-- Depth.lean
#print axioms SkipAbsorption.resStack_nil
#print axioms SkipAbsorption.resStack_cons
#print axioms SkipAbsorption.plainStack_nil
#print axioms SkipAbsorption.plainStack_cons
#print axioms SkipAbsorption.resStack_sub_isLittleO
#print axioms SkipAbsorption.plainStack_isBigO
#print axioms SkipAbsorption.plainStack_isLittleO
#print axioms SkipAbsorption.not_stack_eq_of_isLittleO
#print axioms SkipAbsorption.isLittleO_of_posHomogeneous
#print axioms SkipAbsorption.forall_mem_map_of_forall
#print axioms SkipAbsorption.list_map_ne_nil
#print axioms SkipAbsorption.not_mlpStack_eq_of_isLittleO
#print axioms SkipAbsorption.not_mlpStack_eq_of_posHomogeneous
#print axioms SkipAbsorption.not_gatedMlpStack_eq_of_tendsto

-- Parity.lean
#print axioms SkipAbsorption.mlp_neg_of_even
#print axioms SkipAbsorption.not_absorbable_of_even
#print axioms SkipAbsorption.not_absorbable_of_even_of_ne_zero
#print axioms SkipAbsorption.absorbable_of_sCondition

-- Gaussian.lean
#print axioms SkipAbsorption.cdf_gaussianReal_neg

-- Activations.lean
#print axioms SkipAbsorption.max_zero_mul_of_pos
#print axioms SkipAbsorption.relu_posHomogeneous
#print axioms SkipAbsorption.relu2_posHomogeneous
#print axioms SkipAbsorption.relu3_posHomogeneous
#print axioms SkipAbsorption.relu2_isLittleO
#print axioms SkipAbsorption.relu3_isLittleO
#print axioms SkipAbsorption.relu_sub_relu_neg
#print axioms SkipAbsorption.swish_sub_swish_neg
#print axioms SkipAbsorption.geluWith_sub_neg
#print axioms SkipAbsorption.gelu_sub_gelu_neg
#print axioms SkipAbsorption.abs_relu_le
#print axioms SkipAbsorption.relu_tendsto_zero
#print axioms SkipAbsorption.swish_tendsto_zero
#print axioms SkipAbsorption.gelu_tendsto_zero

-- CatalogActivations.lean
#print axioms SkipAbsorption.leakyRelu_sub_leakyRelu_neg
#print axioms SkipAbsorption.softplus_sub_softplus_neg
#print axioms SkipAbsorption.geluTanh_sub_geluTanh_neg
#print axioms SkipAbsorption.absAct_neg
#print axioms SkipAbsorption.identityGate_posHomogeneous
#print axioms SkipAbsorption.identityGate_tendsto_zero

-- Kink.lean
#print axioms SkipAbsorption.abs_add_add_abs_sub_of_abs_le
#print axioms SkipAbsorption.exists_scale_abs_lt
#print axioms SkipAbsorption.dotProduct_real_smul
#print axioms SkipAbsorption.real_smul_dotProduct
#print axioms SkipAbsorption.dotProduct_self_pos_real
#print axioms SkipAbsorption.eq_smul_of_forall_dotProduct_eq_zero
#print axioms SkipAbsorption.exists_dotProduct_eq_zero_ne_zero
#print axioms SkipAbsorption.exists_dotProduct_ne_zero_of_list
#print axioms SkipAbsorption.exists_orthogonal_avoiding
#print axioms SkipAbsorption.exists_orthogonal_dominating
#print axioms SkipAbsorption.second_difference_sum_eq_zero
#print axioms SkipAbsorption.abs_second_difference_on_line
#print axioms SkipAbsorption.abs_second_difference_off_line
#print axioms SkipAbsorption.kink_sum_eq_zero
-- Rank.lean (issue 10: |S| ≥ d)
#print axioms SkipAbsorption.card_indicator_ne_zero_le
#print axioms SkipAbsorption.mul_diagonal_indicator_mul_eq
#print axioms SkipAbsorption.rank_mul_diagonal_indicator_mul_le
#print axioms SkipAbsorption.card_le_of_mul_eq_one
#print axioms SkipAbsorption.card_le_of_sCondition
#print axioms SkipAbsorption.card_le_of_sCondition_one
#print axioms SkipAbsorption.card_le_of_sCondition_of_isUnit

-- MeasureZero.lean (issue 10: paper Corollary 11, one side)
#print axioms SkipAbsorption.coe_linearLevelSet
#print axioms SkipAbsorption.linearLevelSet_ne_top
#print axioms SkipAbsorption.addHaar_linearLevelSet_eq_zero
#print axioms SkipAbsorption.mulMulLin_apply
#print axioms SkipAbsorption.neg_one_matrix_ne_zero
#print axioms SkipAbsorption.volume_sCondition_single_eq_zero
#print axioms SkipAbsorption.volume_sCondition_eq_zero
