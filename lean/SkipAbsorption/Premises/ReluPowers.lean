import SkipAbsorption.ActivationDefs
import SkipAbsorption.Degree

/-!
# Premise lemmas of ReLU² and ReLU³

* positive homogeneity (paper Proposition 5): `relu2_posHomogeneous` (degree 2),
  `relu3_posHomogeneous` (degree 3), from `max_zero_mul_of_pos`;
* `σ = o(z)` at `0` (ungated linearisation and depth): `relu2_isLittleO`, `relu3_isLittleO`,
  through `isLittleO_of_posHomogeneous` (`SkipAbsorption.Degree`).

The family files of ReLU² and ReLU³ import this file (and through it the definitions in
`SkipAbsorption.ActivationDefs`), not the GELU measure theory and not the linearisation files.
-/

open Filter Topology Asymptotics

noncomputable section

namespace SkipAbsorption

/-- `max (t z) 0 = t max z 0` for `t > 0`. -/
theorem max_zero_mul_of_pos {t : ℝ} (ht : 0 < t) (z : ℝ) : max (t * z) 0 = t * max z 0 := by
  rcases le_total z 0 with h | h
  · have h1 : max z 0 = 0 := max_eq_right h
    have h2 : max (t * z) 0 = 0 := max_eq_right (by nlinarith)
    rw [h1, h2, mul_zero]
  · have h1 : max z 0 = z := max_eq_left h
    have h2 : max (t * z) 0 = t * z := max_eq_left (by nlinarith)
    rw [h1, h2]

/-- ReLU² is positively homogeneous of degree 2. -/
theorem relu2_posHomogeneous : ∀ t : ℝ, 0 < t → ∀ z, relu2 (t * z) = t ^ 2 * relu2 z := by
  intro t ht z
  show (max (t * z) 0) ^ 2 = t ^ 2 * (max z 0) ^ 2
  rw [max_zero_mul_of_pos ht z]
  ring

/-- ReLU³ is positively homogeneous of degree 3. -/
theorem relu3_posHomogeneous : ∀ t : ℝ, 0 < t → ∀ z, relu3 (t * z) = t ^ 3 * relu3 z := by
  intro t ht z
  show (max (t * z) 0) ^ 3 = t ^ 3 * (max z 0) ^ 3
  rw [max_zero_mul_of_pos ht z]
  ring

/-- ReLU² is `o(z)` at `0`. -/
theorem relu2_isLittleO : relu2 =o[𝓝 0] (fun z => z) :=
  isLittleO_of_posHomogeneous (by norm_num) relu2_posHomogeneous

/-- ReLU³ is `o(z)` at `0`. -/
theorem relu3_isLittleO : relu3 =o[𝓝 0] (fun z => z) :=
  isLittleO_of_posHomogeneous (by norm_num) relu3_posHomogeneous

end SkipAbsorption

end
