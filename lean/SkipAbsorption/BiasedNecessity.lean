import SkipAbsorption.Bias
import SkipAbsorption.RecessionRelu
import SkipAbsorption.ReluNecessity.Basic

/-!
# R4: the S-condition decides biased absorbability (general theorem and ReLU)

For nondegenerate weights and any biases `b`, `e`, a biased block `x ↦ Wd σ(Wu x + b) + e`
absorbs the identity skip (with an absorbing block that has biases of its own) iff some index
set `S` has `Wd[:,S] Wu[S,:] = -I` — the S-condition of the bias-free block (research note
`recession.md` §5):

* `biasedAbsorbable_iff_of_tendsto_add_div_relu`: for every `σ` with
  `σ (t z + β) / t → relu z` (every `z`, `β`) and odd part `σ z - σ (-z) = z`; necessity is
  `absorbable_of_biasedAbsorbable_of_tendsto` followed by paper Theorem 8's necessity
  `exists_sCondition_of_absorbable_relu`, sufficiency is `biasedAbsorbable_of_sCondition` with
  `c = 1`;
* `tendsto_relu_add_div`, `biasedAbsorbable_relu_iff`: ReLU (paper Theorem 8 with biases).

GELU: `BiasedReluLikeGelu.lean`; SiLU and softplus: `BiasedReluLikeSiluSoftplus.lean`; GELU-tanh:
`BiasedReluLikeGeluTanh.lean`.
Not compiled: no Lean toolchain here.
-/

open Matrix Filter Topology

namespace SkipAbsorption

variable {d n : ℕ}

/-- **R4, the characterisation.** If `σ (t * z + β) / t → relu z` for every `z` and `β` and
`σ z - σ (-z) = z`, then for nondegenerate weights and any biases `b`, `e`, the biased block
absorbs the identity skip iff some `S` has `Wd[:,S] Wu[S,:] = -I`. -/
theorem biasedAbsorbable_iff_of_tendsto_add_div_relu {σ : ℝ → ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ} {b : Fin n → ℝ}
    {e : Fin d → ℝ}
    (hρ : ∀ z β, Tendsto (fun t => σ (t * z + β) / t) atTop (𝓝 (relu z)))
    (hσ : ∀ z, σ z - σ (-z) = z) (hnd : Nondegenerate Wd Wu) :
    BiasedAbsorbable σ 1 Wd Wu b e ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  ⟨fun h => exists_sCondition_of_absorbable_relu hnd
      (absorbable_of_biasedAbsorbable_of_tendsto hρ h),
    fun ⟨S, hS⟩ => biasedAbsorbable_of_sCondition (σ := σ) (c := 1) one_ne_zero
      (fun z => (hσ z).trans (one_mul z).symm) Wd Wu b e S
      (hS.trans neg_inv_one_smul_one.symm)⟩

/-- ReLU, with a bias: `relu (t z + β) / t → relu z` (the squeeze with `M = 0`). -/
theorem tendsto_relu_add_div (z β : ℝ) :
    Tendsto (fun t => relu (t * z + β) / t) atTop (𝓝 (relu z)) :=
  tendsto_add_div_relu_of_abs_sub_relu_le (M := 0) (fun w => by
    first
      | exact le_of_eq (by rw [sub_self, abs_zero])
      | simp) z β

/-- **Biased ReLU blocks** (paper Theorem 8 with biases). -/
theorem biasedAbsorbable_relu_iff {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {b : Fin n → ℝ} {e : Fin d → ℝ}
    (hnd : Nondegenerate Wd Wu) :
    BiasedAbsorbable relu 1 Wd Wu b e ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  biasedAbsorbable_iff_of_tendsto_add_div_relu tendsto_relu_add_div relu_sub_relu_neg hnd

end SkipAbsorption
