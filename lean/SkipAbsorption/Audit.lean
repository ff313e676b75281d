import SkipAbsorption.Defs
import SkipAbsorption.Stack
import SkipAbsorption.Asymptotics
import SkipAbsorption.Reduction
import SkipAbsorption.Degree
import SkipAbsorption.Linearisation
import SkipAbsorption.Depth
import SkipAbsorption.LittleO
import SkipAbsorption.Parity
import SkipAbsorption.Relu
import SkipAbsorption.ReluParts
import SkipAbsorption.ReluNecessity.Basic
import SkipAbsorption.ReluNecessity
import SkipAbsorption.Gaussian
import SkipAbsorption.ActivationDefs
import SkipAbsorption.Activations
import SkipAbsorption.Premises.ReluPowers
import SkipAbsorption.Premises.ReluGate
import SkipAbsorption.Premises.Swish
import SkipAbsorption.Premises.Gates
import SkipAbsorption.Premises.Gelu
import SkipAbsorption.CatalogActivations
import SkipAbsorption.Kink
import SkipAbsorption.Rank
import SkipAbsorption.MeasureZero
import SkipAbsorption.SConditionJointSet
import SkipAbsorption.MeasureZeroJoint
import SkipAbsorption.Beyond
import SkipAbsorption.PreNorm
import SkipAbsorption.Recession
import SkipAbsorption.Bounded
import SkipAbsorption.RecessionRelu
import SkipAbsorption.RecessionActivations
import SkipAbsorption.RecessionNecessity
import SkipAbsorption.ReluLikeGelu
import SkipAbsorption.ReluLikeSiluSoftplus
import SkipAbsorption.Bias
import SkipAbsorption.BiasedNecessity
import SkipAbsorption.BiasedReluLikeGelu
import SkipAbsorption.BiasedReluLikeSiluSoftplus
import SkipAbsorption.BiasedBounded
import SkipAbsorption.GateParity
import SkipAbsorption.GeluTanhGate
import SkipAbsorption.RecessionGeluTanh
import SkipAbsorption.ReluLikeGeluTanh
import SkipAbsorption.BiasedReluLikeGeluTanh
import SkipAbsorption.LeakyRelu

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

-- LittleO.lean
#print axioms SkipAbsorption.isLittleO_mul_self_of_tendsto

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

-- Relu.lean (`relu_sub_relu_neg` moved here from Activations.lean; printed below with those)
#print axioms SkipAbsorption.relu_add_relu_neg
#print axioms SkipAbsorption.relu_eq_half

-- ReluParts.lean
#print axioms SkipAbsorption.mlp_apply_eq_sum
#print axioms SkipAbsorption.sum_mul_dotProduct_neg
#print axioms SkipAbsorption.add_mlp_apply_eq
#print axioms SkipAbsorption.add_mlp_apply_eq_neg
#print axioms SkipAbsorption.sum_relu_add_relu_neg
#print axioms SkipAbsorption.sum_relu_sub_relu_neg
#print axioms SkipAbsorption.relu_evenPart_eq
#print axioms SkipAbsorption.relu_linearPart_eq
#print axioms SkipAbsorption.relu_evenPart_eq_vec

-- ReluNecessity.lean (paper Theorem 8, "only if" and iff)
#print axioms SkipAbsorption.Nondegenerate.intro
#print axioms SkipAbsorption.Nondegenerate.row_ne_zero
#print axioms SkipAbsorption.Nondegenerate.row_not_parallel
#print axioms SkipAbsorption.Nondegenerate.col_ne_zero
#print axioms SkipAbsorption.Nondegenerate.eq_of_smul_eq_smul
#print axioms SkipAbsorption.Nondegenerate.inv_mul
#print axioms SkipAbsorption.sum_smul_neg
#print axioms SkipAbsorption.eq_sum_smul_of_add_sum_smul_neg
#print axioms SkipAbsorption.kink_sum_disjSum
#print axioms SkipAbsorption.exists_lineCoef_of_evenPart
#print axioms SkipAbsorption.exists_coef_ne_zero
#print axioms SkipAbsorption.matching_bijective
#print axioms SkipAbsorption.matching_coef_eq_zero
#print axioms SkipAbsorption.col_entry_eq_of_coef
#print axioms SkipAbsorption.selector_mulVec_apply
#print axioms SkipAbsorption.neg_one_matrix_mulVec
#print axioms SkipAbsorption.sign_sum_split
#print axioms SkipAbsorption.sCondition_of_matching
#print axioms SkipAbsorption.exists_sCondition_of_absorbable_relu
#print axioms SkipAbsorption.neg_inv_one_smul_one
#print axioms SkipAbsorption.absorbable_relu_iff
#print axioms SkipAbsorption.inv_mul_selector_eq_neg_one_iff
#print axioms SkipAbsorption.absorbable_relu_iff_of_isUnit_det

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
#print axioms SkipAbsorption.tendsto_mul_of_unit_interval

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

-- SConditionJointSet.lean (issue 10: the joint set is measurable; its sections)
#print axioms SkipAbsorption.mem_sConditionJointSet
#print axioms SkipAbsorption.sCondMap_apply
#print axioms SkipAbsorption.sConditionJointSet_eq_iUnion
#print axioms SkipAbsorption.continuous_matrixOf_snd
#print axioms SkipAbsorption.continuous_matrixOf_fst
#print axioms SkipAbsorption.continuous_sCondMap
#print axioms SkipAbsorption.isClosed_sCondMap_eq
#print axioms SkipAbsorption.measurableSet_sCondMap_eq
#print axioms SkipAbsorption.measurableSet_sCondition_joint
#print axioms SkipAbsorption.preimage_mk_sCondition_joint

-- MeasureZeroJoint.lean (issue 10: paper Corollary 11, joint over (Wu, Wd))
#print axioms SkipAbsorption.volume_preimage_mk_sCondition_joint
#print axioms SkipAbsorption.volume_sConditionJointSet_eq_zero
#print axioms SkipAbsorption.volume_sCondition_joint_eq_zero
#print axioms SkipAbsorption.ae_not_sCondition_joint

-- Beyond the paper (issue 13): Beyond/Injective.lean
#print axioms SkipAbsorption.exists_dotProduct_row_ne_zero
#print axioms SkipAbsorption.card_filter_pos_add_card_filter_not_pos
#print axioms SkipAbsorption.exists_ne_zero_mulVec_eq_zero_of_card_lt
#print axioms SkipAbsorption.exists_ne_zero_forall_mem_dotProduct_eq_zero
#print axioms SkipAbsorption.not_injective_mlp_relu_of_kernel
#print axioms SkipAbsorption.not_injective_mlp_relu_of_lt_two_mul
#print axioms SkipAbsorption.eq_of_add_eq_add_of_lipschitzWith
#print axioms SkipAbsorption.injective_add_of_lipschitzWith

-- Beyond the paper (issue 13): Beyond/DepthOne.lean
#print axioms SkipAbsorption.mlp_fin_one_apply
#print axioms SkipAbsorption.mlp_relu_fin_one_apply
#print axioms SkipAbsorption.relu_mul_of_pos
#print axioms SkipAbsorption.relu_relu
#print axioms SkipAbsorption.scalarReluBlock_posHomogeneous
#print axioms SkipAbsorption.eq_relu_add_relu_neg_of_posHomogeneous
#print axioms SkipAbsorption.scalarReluBlock_two_apply
#print axioms SkipAbsorption.eq_scalarReluBlock_two_of_posHomogeneous
#print axioms SkipAbsorption.scalarReluBlock_id_apply
#print axioms SkipAbsorption.scalarReluBlock_one_apply
#print axioms SkipAbsorption.VanishesOnHalfLine.apply_zero
#print axioms SkipAbsorption.vanishesOnHalfLine_scalarReluBlock_one
#print axioms SkipAbsorption.exists_scalarReluBlock_one_of_vanishesOnHalfLine

-- Beyond the paper (issue 13): Beyond/Stacks.lean
#print axioms SkipAbsorption.plainStack_append_singleton
#print axioms SkipAbsorption.injective_resStack
#print axioms SkipAbsorption.not_injective_plainStack_append
#print axioms SkipAbsorption.exists_ne_plainStack_append_of_injective
#print axioms SkipAbsorption.exists_resStack_ne_plainStack_of_not_injective
#print axioms SkipAbsorption.exists_ne_plainStack_of_injective_of_lt_two_mul
#print axioms SkipAbsorption.resStack_ne_plainStack_of_lt_two_mul
#print axioms SkipAbsorption.resStack_posHomogeneous
#print axioms SkipAbsorption.plainStack_posHomogeneous
#print axioms SkipAbsorption.posHomogeneous_of_mem_scalarReluBlocks
#print axioms SkipAbsorption.exists_plainStack_width_two_succ
#print axioms SkipAbsorption.exists_plainStack_width_two
#print axioms SkipAbsorption.resStack_eq_plainStack_width_two
#print axioms SkipAbsorption.vanishesOnHalfLine_plainStack
#print axioms SkipAbsorption.exists_plainStack_width_one_relu
#print axioms SkipAbsorption.exists_plainStack_width_one_of_vanishesOnHalfLine
#print axioms SkipAbsorption.exists_plainStack_width_one_iff
#print axioms SkipAbsorption.resStack_eq_plainStack_width_one_iff

-- Beyond the paper (issue 13): Beyond/Width.lean
#print axioms SkipAbsorption.absorbableWithWidth_self_iff
#print axioms SkipAbsorption.appendDown_castAdd
#print axioms SkipAbsorption.appendDown_natAdd
#print axioms SkipAbsorption.appendUp_castAdd
#print axioms SkipAbsorption.appendUp_natAdd
#print axioms SkipAbsorption.mlp_append_apply
#print axioms SkipAbsorption.AbsorbableWithWidth.add_width
#print axioms SkipAbsorption.AbsorbableWithWidth.mono
#print axioms SkipAbsorption.sum_indicator_comp_mul
#print axioms SkipAbsorption.add_mlp_eq_mlp_append
#print axioms SkipAbsorption.absorbableWithWidth_add_of_isUnit_det
#print axioms SkipAbsorption.absorbableWithWidth_add_of_linearIndependent

-- Beyond the paper (issue 13): Beyond/WidthNecessity.lean
#print axioms SkipAbsorption.add_mlp_apply_eq_width
#print axioms SkipAbsorption.add_mlp_apply_eq_neg_width
#print axioms SkipAbsorption.relu_evenPart_eq_width
#print axioms SkipAbsorption.relu_linearPart_eq_width
#print axioms SkipAbsorption.relu_evenPart_eq_vec_width
#print axioms SkipAbsorption.exists_lineCoef_of_evenPart_width
#print axioms SkipAbsorption.exists_coef_ne_zero_width
#print axioms SkipAbsorption.lineCoef_eq_of_ne_zero
#print axioms SkipAbsorption.col_entry_eq_sum_of_lineCoef
#print axioms SkipAbsorption.width_linear_core
#print axioms SkipAbsorption.widthFactor_apply
#print axioms SkipAbsorption.widthFactor_mulVec_apply
#print axioms SkipAbsorption.one_add_selector_eq_mul_widthFactor
#print axioms SkipAbsorption.widthFactor_row_eq_zero
#print axioms SkipAbsorption.exists_unit_of_lineCoef
#print axioms SkipAbsorption.mul_eq_mul_diagonal_indicator_mul
#print axioms SkipAbsorption.card_add_le_of_injective_notMem
#print axioms SkipAbsorption.exists_factor_of_absorbableWithWidth
#print axioms SkipAbsorption.exists_rank_le_of_absorbableWithWidth
#print axioms SkipAbsorption.card_le_width_of_absorbableWithWidth
#print axioms SkipAbsorption.exists_sCondition_of_absorbableWithWidth_self
#print axioms SkipAbsorption.le_rank_of_det_ne_zero
#print axioms SkipAbsorption.le_width_of_absorbableWithWidth
#print axioms SkipAbsorption.absorbableWithWidth_relu_iff

-- Beyond the paper (issue 20): PreNorm.lean (pre-norm blocks: the residual is never absorbed)
#print axioms SkipAbsorption.not_residual_eq_of_bounded_norm
#print axioms SkipAbsorption.not_residual_eq_of_not_injective

-- Recession.lean
#print axioms SkipAbsorption.mlp_apply
#print axioms SkipAbsorption.mulVec_smul_apply
#print axioms SkipAbsorption.mlp_smul_apply
#print axioms SkipAbsorption.sum_mul_div
#print axioms SkipAbsorption.tendsto_sum_mul
#print axioms SkipAbsorption.eq_of_tendsto_of_forall_pos_eq
#print axioms SkipAbsorption.tendsto_of_abs_sub_le_mul_inv
#print axioms SkipAbsorption.tendsto_comp_div_zero_of_bounded
#print axioms SkipAbsorption.tendsto_div_zero_of_bounded
#print axioms SkipAbsorption.absorbable_of_tendsto_div
#print axioms SkipAbsorption.mlp_zero_fun
#print axioms SkipAbsorption.eq_zero_of_absorbable_zero
#print axioms SkipAbsorption.eq_zero_of_absorbable_of_tendsto_div_zero
#print axioms SkipAbsorption.eq_zero_of_absorbable_of_bounded

-- Bounded.lean
#print axioms SkipAbsorption.abs_tanh_le_one
#print axioms SkipAbsorption.abs_sigmoid_le_one
#print axioms SkipAbsorption.not_absorbable_tanh
#print axioms SkipAbsorption.not_absorbable_sigmoid

-- RecessionRelu.lean
#print axioms SkipAbsorption.abs_relu_sub_relu_le
#print axioms SkipAbsorption.tendsto_div_relu_of_abs_sub_relu_le
#print axioms SkipAbsorption.tendsto_add_div_relu_of_abs_sub_relu_le
#print axioms SkipAbsorption.tendsto_add_div_relu_of_eq_mul
#print axioms SkipAbsorption.tendsto_div_relu_of_eq_mul

-- RecessionActivations.lean
#print axioms SkipAbsorption.tendsto_gelu_add_div
#print axioms SkipAbsorption.tendsto_gelu_div
#print axioms SkipAbsorption.tendsto_swish_add_div
#print axioms SkipAbsorption.tendsto_swish_div
#print axioms SkipAbsorption.softplus_mem_unit_of_nonpos
#print axioms SkipAbsorption.abs_softplus_sub_relu_le
#print axioms SkipAbsorption.tendsto_softplus_add_div
#print axioms SkipAbsorption.tendsto_softplus_div

-- RecessionNecessity.lean
#print axioms SkipAbsorption.exists_sCondition_of_absorbable_of_tendsto_div_relu
#print axioms SkipAbsorption.absorbable_iff_of_tendsto_div_relu
#print axioms SkipAbsorption.absorbable_iff_of_tendsto_div_relu_of_isUnit_det

-- ReluLikeGelu.lean
#print axioms SkipAbsorption.gelu_sub_gelu_neg_of_cdf
#print axioms SkipAbsorption.absorbable_gelu_iff
#print axioms SkipAbsorption.absorbable_gelu_iff_of_isUnit_det

-- ReluLikeSiluSoftplus.lean
#print axioms SkipAbsorption.swish_sub_swish_neg_of_sigmoid
#print axioms SkipAbsorption.absorbable_swish_iff
#print axioms SkipAbsorption.absorbable_swish_iff_of_isUnit_det
#print axioms SkipAbsorption.absorbable_softplus_iff
#print axioms SkipAbsorption.absorbable_softplus_iff_of_isUnit_det

-- Bias.lean
#print axioms SkipAbsorption.biasedMlp_smul_apply
#print axioms SkipAbsorption.biasedAbsorbable_of_sCondition
#print axioms SkipAbsorption.absorbable_of_biasedAbsorbable_of_tendsto
#print axioms SkipAbsorption.tendsto_add_div_zero_of_bounded
#print axioms SkipAbsorption.eq_zero_of_biasedAbsorbable_of_bounded

-- BiasedNecessity.lean
#print axioms SkipAbsorption.biasedAbsorbable_iff_of_tendsto_add_div_relu
#print axioms SkipAbsorption.tendsto_relu_add_div
#print axioms SkipAbsorption.biasedAbsorbable_relu_iff

-- BiasedReluLikeGelu.lean
#print axioms SkipAbsorption.biasedAbsorbable_gelu_iff

-- BiasedReluLikeSiluSoftplus.lean
#print axioms SkipAbsorption.biasedAbsorbable_swish_iff
#print axioms SkipAbsorption.biasedAbsorbable_softplus_iff

-- BiasedBounded.lean
#print axioms SkipAbsorption.not_biasedAbsorbable_tanh
#print axioms SkipAbsorption.not_biasedAbsorbable_sigmoid

-- GateParity.lean
#print axioms SkipAbsorption.gatedAbsorbable_of_gateParity
#print axioms SkipAbsorption.gatedAbsorbable_sigmoid_of_sCondition

-- GeluTanhGate.lean
#print axioms SkipAbsorption.tanh_eq_of_exp_neg
#print axioms SkipAbsorption.tendsto_tanh_atTop_one
#print axioms SkipAbsorption.tendsto_geluTanh_arg_atTop
#print axioms SkipAbsorption.geluTanh_eq_mul
#print axioms SkipAbsorption.tendsto_geluTanh_gate_atTop
#print axioms SkipAbsorption.tendsto_geluTanh_gate_atBot

-- RecessionGeluTanh.lean
#print axioms SkipAbsorption.tendsto_geluTanh_add_div
#print axioms SkipAbsorption.tendsto_geluTanh_div

-- ReluLikeGeluTanh.lean
#print axioms SkipAbsorption.absorbable_geluTanh_iff
#print axioms SkipAbsorption.absorbable_geluTanh_iff_of_isUnit_det

-- BiasedReluLikeGeluTanh.lean
#print axioms SkipAbsorption.biasedAbsorbable_geluTanh_iff

-- LeakyRelu.lean
#print axioms SkipAbsorption.evenPart_eq_of_add_neg_eq_abs
#print axioms SkipAbsorption.evenPart_eq_vec_of_add_neg_eq_abs
#print axioms SkipAbsorption.linearPart_eq_of_sub_neg_eq_mul
#print axioms SkipAbsorption.sum_smul_mul_dotProduct
#print axioms SkipAbsorption.exists_sCondition_of_absorbable_of_parts
#print axioms SkipAbsorption.absorbable_iff_of_parts
#print axioms SkipAbsorption.leakyRelu_add_leakyRelu_neg
#print axioms SkipAbsorption.absorbable_leakyRelu_iff
