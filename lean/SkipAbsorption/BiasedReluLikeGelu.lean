import SkipAbsorption.BiasedNecessity
import SkipAbsorption.RecessionActivations
import SkipAbsorption.Premises.Gelu

/-!
# Biases never matter for GELU blocks (R4)

For nondegenerate weights and any biases `b`, `e`, a biased GELU block `x ↦ Wd gelu(Wu x + b) + e`
absorbs the identity skip (with an absorbing block that has biases of its own) iff some index set
`S` has `Wd[:,S] Wu[S,:] = -I`, the same S-condition as without biases (research note
`recession.md` §5): `biasedAbsorbable_gelu_iff`, an instance of
`biasedAbsorbable_iff_of_tendsto_add_div_relu` (`BiasedNecessity.lean`) with the biased recession
limit `tendsto_gelu_add_div` (`RecessionActivations.lean`) and the odd part `gelu_sub_gelu_neg`
(`Premises/Gelu.lean`). SiLU and softplus: `BiasedReluLikeSiluSoftplus.lean`; GELU-tanh:
`BiasedReluLikeGeluTanh.lean`; ReLU: `BiasedNecessity.lean`.
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
  biasedAbsorbable_iff_of_tendsto_add_div_relu tendsto_gelu_add_div gelu_sub_gelu_neg hnd

end SkipAbsorption
