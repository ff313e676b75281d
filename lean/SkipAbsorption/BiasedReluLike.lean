import SkipAbsorption.BiasedNecessity
import SkipAbsorption.ReluLike

/-!
# Biases never matter for GELU, SiLU and softplus blocks (R4)

For nondegenerate weights and any biases `b`, `e`, a biased GELU, SiLU or softplus block
`x ↦ Wd σ(Wu x + b) + e` absorbs the identity skip (with an absorbing block that has biases of
its own) iff some index set `S` has `Wd[:,S] Wu[S,:] = -I`, the same S-condition as without
biases (research note `recession.md` §5): `biasedAbsorbable_gelu_iff`,
`biasedAbsorbable_swish_iff`, `biasedAbsorbable_softplus_iff`, instances of
`biasedAbsorbable_iff_of_tendsto_add_div_relu` (`BiasedNecessity.lean`) with the biased recession
limits of `RecessionActivations.lean` (GELU-tanh: `ReluLikeGeluTanh.lean`; ReLU:
`BiasedNecessity.lean`).
Not compiled: no Lean toolchain here.
-/

open Matrix Filter Topology

namespace SkipAbsorption

variable {d n : ℕ}

/-- **Biased GELU blocks** (paper Theorem 10 with biases). -/
theorem biasedAbsorbable_gelu_iff {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {b : Fin n → ℝ} {e : Fin d → ℝ}
    (hnd : Nondegenerate Wd Wu) :
    BiasedAbsorbable gelu 1 Wd Wu b e ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  biasedAbsorbable_iff_of_tendsto_add_div_relu tendsto_gelu_add_div gelu_sub_gelu_neg_of_cdf hnd

/-- **Biased SiLU blocks.** -/
theorem biasedAbsorbable_swish_iff {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {b : Fin n → ℝ} {e : Fin d → ℝ}
    (hnd : Nondegenerate Wd Wu) :
    BiasedAbsorbable swish 1 Wd Wu b e ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  biasedAbsorbable_iff_of_tendsto_add_div_relu tendsto_swish_add_div
    swish_sub_swish_neg_of_sigmoid hnd

/-- **Biased softplus blocks.** -/
theorem biasedAbsorbable_softplus_iff {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {b : Fin n → ℝ} {e : Fin d → ℝ}
    (hnd : Nondegenerate Wd Wu) :
    BiasedAbsorbable softplus 1 Wd Wu b e ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  biasedAbsorbable_iff_of_tendsto_add_div_relu tendsto_softplus_add_div
    softplus_sub_softplus_neg hnd

end SkipAbsorption
