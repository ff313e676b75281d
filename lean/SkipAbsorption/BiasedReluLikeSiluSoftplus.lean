import SkipAbsorption.BiasedNecessity
import SkipAbsorption.RecessionActivations
import SkipAbsorption.Premises.Swish

/-!
# Biases never matter for SiLU and softplus blocks (R4)

For nondegenerate weights and any biases `b`, `e`, a biased SiLU or softplus block
`x ↦ Wd σ(Wu x + b) + e` absorbs the identity skip (with an absorbing block that has biases of
its own) iff some index set `S` has `Wd[:,S] Wu[S,:] = -I`, the same S-condition as without
biases (research note `recession.md` §5): `biasedAbsorbable_swish_iff`,
`biasedAbsorbable_softplus_iff`, instances of `biasedAbsorbable_iff_of_tendsto_add_div_relu`
(`BiasedNecessity.lean`) with the biased recession limits of `RecessionActivations.lean` and the
odd parts `swish_sub_swish_neg` (`Premises/Swish.lean`) and `softplus_sub_softplus_neg`
(`CatalogActivations.lean`). This file does not reach the Gaussian measure theory (GELU:
`BiasedReluLikeGelu.lean`).
Not compiled: no Lean toolchain here.
-/

open Matrix Filter Topology

namespace SkipAbsorption

variable {d n : ℕ}

/-- **Biased SiLU blocks.** -/
theorem biasedAbsorbable_swish_iff {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {b : Fin n → ℝ} {e : Fin d → ℝ}
    (hnd : Nondegenerate Wd Wu) :
    BiasedAbsorbable swish 1 Wd Wu b e ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  biasedAbsorbable_iff_of_tendsto_add_div_relu tendsto_swish_add_div
    swish_sub_swish_neg hnd

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
