import Mathlib

/-!
# The activation functions of the catalog (definitions only)

The activations the library states premise lemmas about, with no lemma attached, so that each
premise file (and each generated family file) imports the definition it talks about and nothing
else of the library:

* from the paper's activation table: `relu2 z = (max z 0) ^ 2`, `relu3 z = (max z 0) ^ 3`,
  `swish z = z * sigmoid z` (SiLU; the SwiGLU gate), `gelu z = z * Φ z` with
  `Φ = cdf (gaussianReal 0 1)` (Mathlib has no `erf`);
* the remaining catalog activations, with exactly the bodies that the project's SymPy → Lean
  printer emits for the catalog's SymPy expressions: `leakyRelu z = max z (z / 100)`,
  `softplus z = log (exp z + 1)`, `geluTanh z = z (tanh (√2 (0.044715 z³ + z) / √π) + 1) / 2`,
  `absAct z = |z|`, `identityGate z = z`.

`relu` itself lives at the end of `SkipAbsorption.Defs` (light imports, for the ReLU necessity
proof; `SkipAbsorption.Relu` re-exports it).
This file imports all of Mathlib (as `SkipAbsorption.Gaussian` does), so that no targeted import
path can break it.
-/

noncomputable section

namespace SkipAbsorption

/-- Squared ReLU. -/
def relu2 (z : ℝ) : ℝ := (max z 0) ^ 2

/-- Cubed ReLU. -/
def relu3 (z : ℝ) : ℝ := (max z 0) ^ 3

/-- Swish / SiLU: `z * sigmoid z`. -/
def swish (z : ℝ) : ℝ := z * Real.sigmoid z

/-- GELU: `z * Φ z` with `Φ` the standard normal CDF. -/
def gelu (z : ℝ) : ℝ := z * ProbabilityTheory.cdf (ProbabilityTheory.gaussianReal 0 1) z

/-- Leaky ReLU with negative slope `1/100`. -/
def leakyRelu (z : ℝ) : ℝ := max z (z / 100)

/-- Softplus: `log (exp z + 1)`. -/
def softplus (z : ℝ) : ℝ := Real.log (Real.exp z + 1)

/-- GELU, tanh approximation: `z (tanh (√2 (0.044715 z³ + z) / √π) + 1) / 2`. -/
def geluTanh (z : ℝ) : ℝ :=
  z * (Real.tanh (Real.sqrt 2 * (8943 * z ^ 3 / 200000 + z) / Real.sqrt Real.pi) + 1) / 2

/-- Absolute value as an activation. -/
def absAct (z : ℝ) : ℝ := |z|

/-- The identity, as the gate of the bilinear GLU. -/
def identityGate (z : ℝ) : ℝ := z

end SkipAbsorption

end
