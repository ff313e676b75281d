import SkipAbsorption.CatalogActivations
import SkipAbsorption.RecessionGeluTanh
import SkipAbsorption.BiasedNecessity

/-!
# Biases never matter for GELU-tanh blocks (R4)

For nondegenerate weights and any biases `b`, `e`, a biased GELU-tanh block
`x ↦ Wd geluTanh(Wu x + b) + e` absorbs the identity skip (with an absorbing block that has
biases of its own) iff some index set `S` has `Wd[:,S] Wu[S,:] = -I`, the same S-condition as
without biases (research note `recession.md` §5): `biasedAbsorbable_geluTanh_iff`, an instance
of `biasedAbsorbable_iff_of_tendsto_add_div_relu` (`BiasedNecessity.lean`) with the biased
recession limit of `RecessionGeluTanh.lean` and the odd part `geluTanh_sub_geluTanh_neg`
(`CatalogActivations.lean`). Without biases: `ReluLikeGeluTanh.lean`.
Not compiled: no Lean toolchain here.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- **Biased GELU-tanh blocks.** -/
theorem biasedAbsorbable_geluTanh_iff {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {b : Fin n → ℝ} {e : Fin d → ℝ}
    (hnd : Nondegenerate Wd Wu) :
    BiasedAbsorbable geluTanh 1 Wd Wu b e ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  biasedAbsorbable_iff_of_tendsto_add_div_relu tendsto_geluTanh_add_div
    geluTanh_sub_geluTanh_neg hnd

end SkipAbsorption
