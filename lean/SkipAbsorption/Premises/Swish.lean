import SkipAbsorption.ActivationDefs

/-!
# The odd part of Swish / SiLU

`swish_sub_swish_neg`: `swish z - swish (-z) = z` (odd part `z / 2`, for
`absorbable_of_sCondition` with `c = 1`, paper Theorems 8/10), from
`sigmoid (-z) = 1 - sigmoid z`. The SiLU family file and the biased SiLU characterisation
(`BiasedReluLikeSiluSoftplus.lean`) import this file.
-/

noncomputable section

namespace SkipAbsorption

/-- Swish: `swish z - swish (-z) = z`, from `sigmoid (-z) = 1 - sigmoid z`. -/
theorem swish_sub_swish_neg (z : ℝ) : swish z - swish (-z) = z := by
  show z * Real.sigmoid z - (-z) * Real.sigmoid (-z) = z
  first
    | (rw [Real.sigmoid_neg]; ring)
    | linear_combination z * Real.sigmoid_neg z

end SkipAbsorption

end
