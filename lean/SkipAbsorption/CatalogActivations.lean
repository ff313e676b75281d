import Mathlib
import SkipAbsorption.ActivationDefs

/-!
# The remaining catalog activations and their premise lemmas

Definitions (in `SkipAbsorption.ActivationDefs`), with exactly the bodies that the project's
SymPy → Lean printer emits for the catalog's SymPy expressions (so that a generated file can
check, e.g., `∀ z, leakyRelu z = max z (z / 100)` by `fun z => rfl`):

* `leakyRelu z = max z (z / 100)` (Leaky ReLU, negative slope `1/100`);
* `softplus z = log (exp z + 1)`;
* `geluTanh z = z (tanh (√2 (0.044715 z³ + z) / √π) + 1) / 2` (GELU, tanh approximation;
  `8943 / 200000 = 0.044715`);
* `absAct z = |z|`;
* `identityGate z = z` (the gate of the bilinear GLU).

Premise lemmas proved here, one per hypothesis shape used by the library:

* odd part (`σ z - σ (-z) = c z`, for `absorbable_of_sCondition`, paper Theorems 8/10 "if"):
  `leakyRelu_sub_leakyRelu_neg` (`c = 101/100`), `softplus_sub_softplus_neg` (`c = 1`),
  `geluTanh_sub_geluTanh_neg` (`c = 1`);
* evenness (`σ (-z) = σ z`, for `not_absorbable_of_even`): `absAct_neg`;
* positive homogeneity of degree 1 (paper Proposition 5, gated case with `m = 1`):
  `identityGate_posHomogeneous`;
* gate tends to `0` at `0` (paper Proposition 6, gated): `identityGate_tendsto_zero`.

The file imports all of Mathlib (as `SkipAbsorption.Gaussian` already does), so that no
targeted import path can break the build.
-/

open Filter Topology

noncomputable section

namespace SkipAbsorption

/-! ### Odd parts: `σ z - σ (-z) = c z` -/

/-- Leaky ReLU: `leakyRelu z - leakyRelu (-z) = (101/100) z`. -/
theorem leakyRelu_sub_leakyRelu_neg (z : ℝ) :
    leakyRelu z - leakyRelu (-z) = (101 / 100 : ℝ) * z := by
  first
    | show max z (z / 100) - max (-z) ((-z) / 100) = (101 / 100 : ℝ) * z
    | unfold leakyRelu
  rcases le_total z 0 with h | h
  · have h1 : max z (z / 100) = z / 100 := max_eq_right (by linarith)
    have h2 : max (-z) ((-z) / 100) = -z := max_eq_left (by linarith)
    linarith
  · have h1 : max z (z / 100) = z := max_eq_left (by linarith)
    have h2 : max (-z) ((-z) / 100) = (-z) / 100 := max_eq_right (by linarith)
    linarith

/-- Softplus: `softplus z - softplus (-z) = z`, from `exp z + 1 = exp z (exp (-z) + 1)`. -/
theorem softplus_sub_softplus_neg (z : ℝ) : softplus z - softplus (-z) = z := by
  -- `exp z * exp (-z) = 1`: through `exp (-z) = (exp z)⁻¹`, or through `exp (z + -z) = exp 0`
  have hinv : Real.exp z * Real.exp (-z) = 1 := by
    first
      | (rw [Real.exp_neg]; exact mul_inv_cancel₀ (Real.exp_pos z).ne')
      | (rw [← Real.exp_add, show z + -z = 0 by ring, Real.exp_zero])
  have hfac : Real.exp z + 1 = Real.exp z * (Real.exp (-z) + 1) := by
    linear_combination (-1 : ℝ) * hinv
  have hne1 : Real.exp z ≠ 0 := (Real.exp_pos z).ne'
  have hpos2 : 0 < Real.exp (-z) + 1 := by linarith [Real.exp_pos (-z)]
  have hne2 : Real.exp (-z) + 1 ≠ 0 := hpos2.ne'
  first
    | show Real.log (Real.exp z + 1) - Real.log (Real.exp (-z) + 1) = z
    | unfold softplus
  rw [hfac, Real.log_mul hne1 hne2, Real.log_exp]
  ring

/-- GELU (tanh approximation): `geluTanh z - geluTanh (-z) = z`; the tanh argument is odd. -/
theorem geluTanh_sub_geluTanh_neg (z : ℝ) : geluTanh z - geluTanh (-z) = z := by
  have hodd : Real.sqrt 2 * (8943 * (-z) ^ 3 / 200000 + -z) / Real.sqrt Real.pi =
      -(Real.sqrt 2 * (8943 * z ^ 3 / 200000 + z) / Real.sqrt Real.pi) := by
    ring
  have htanh : Real.tanh (Real.sqrt 2 * (8943 * (-z) ^ 3 / 200000 + -z) / Real.sqrt Real.pi) =
      -Real.tanh (Real.sqrt 2 * (8943 * z ^ 3 / 200000 + z) / Real.sqrt Real.pi) := by
    rw [hodd, Real.tanh_neg]
  first
    | show z * (Real.tanh (Real.sqrt 2 * (8943 * z ^ 3 / 200000 + z) / Real.sqrt Real.pi) + 1) / 2 -
        (-z) * (Real.tanh (Real.sqrt 2 * (8943 * (-z) ^ 3 / 200000 + -z) / Real.sqrt Real.pi) + 1) /
          2 = z
    | unfold geluTanh
  -- substitute `tanh (arg (-z)) = -tanh (arg z)`, or use it as a linear relation
  first
    | (rw [htanh]; ring1)
    | linear_combination (z / 2) * htanh

/-! ### Evenness -/

/-- The absolute value is even: `absAct (-z) = absAct z`. -/
theorem absAct_neg (z : ℝ) : absAct (-z) = absAct z := by
  first
    | exact abs_neg z
    | (show |-z| = |z|; exact abs_neg z)

/-! ### The bilinear GLU gate -/

/-- The identity gate is positively homogeneous of degree 1. -/
theorem identityGate_posHomogeneous :
    ∀ t : ℝ, 0 < t → ∀ z, identityGate (t * z) = t ^ 1 * identityGate z := by
  intro t _ z
  show t * z = t ^ 1 * z
  rw [pow_one]

/-- The identity gate tends to `0` at `0`. -/
theorem identityGate_tendsto_zero : Tendsto identityGate (𝓝 0) (𝓝 0) := by
  show Tendsto (fun z : ℝ => z) (𝓝 0) (𝓝 0)
  exact Filter.tendsto_id

end SkipAbsorption

end
