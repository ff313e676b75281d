import Mathlib.Analysis.Asymptotics.Lemmas

/-!
# A product rule for `o(z)` at the origin

* `isLittleO_mul_self_of_tendsto`: if `h z → 0` as `z → 0`, then `z ↦ h z * z` is `o(z)` at
  `0` (`h = o(1)` times `z = O(z)`).

It is the library lemma behind leanbridge's certificate rule `little_o_product` for a user
activation `σ z = h z * z` with `h 0 = 0` and `h` continuous (e.g. `z * tanh (2 * z)`,
`z * arctan z`, `z ^ 2 * exp z`): such a `σ` is flat at `0`, so the linearisation argument
(paper Proposition 6, `not_absorbable_of_isLittleO`) applies. Not a paper result. It imports
only Mathlib, so a failure here reaches no other library file.
-/

open Filter Topology Asymptotics

namespace SkipAbsorption

/-- A function `z ↦ h z * z` with `h z → 0` as `z → 0` is `o(z)` at `0`: `h = o(1)` and
`z = O(z)`, and `o(1) · O(z) = o(z)`. -/
theorem isLittleO_mul_self_of_tendsto {h : ℝ → ℝ} (hh : Tendsto h (𝓝 0) (𝓝 0)) :
    (fun z : ℝ => h z * z) =o[𝓝 0] (fun z => z) := by
  have h1 : h =o[𝓝 0] (fun _ => (1 : ℝ)) := (isLittleO_one_iff ℝ).2 hh
  have h2 : (fun z : ℝ => z) =O[𝓝 0] (fun z => z) := isBigO_refl (fun z : ℝ => z) (𝓝 0)
  -- `h1.mul_isBigO h2` is `o(fun z => 1 * z)`; drop the factor `1`. Third route: the other
  -- product lemma, `O(z) · o(1)`, with the factors swapped back.
  first
    | exact (h1.mul_isBigO h2).congr_right (fun z => one_mul z)
    | simpa only [one_mul] using h1.mul_isBigO h2
    | exact ((h2.mul_isLittleO h1).congr_left (fun z => mul_comm z (h z))).congr_right
        (fun z => mul_one z)

end SkipAbsorption
