import Mathlib

/-!
# Activation definitions

The definitions of the library's activations other than `relu` (which is in
`SkipAbsorption.Relu`, with light imports), in one file so that a file that only needs a
definition does not import the premise lemmas and their proofs:

* from `SkipAbsorption.Activations`: `relu2 z = (max z 0) ^ 2`, `relu3 z = (max z 0) ^ 3`,
  `swish z = z * sigmoid z` (SiLU), `gelu z = z * Φ z` with `Φ = cdf (gaussianReal 0 1)`;
* from `SkipAbsorption.CatalogActivations`, with exactly the bodies that the project's
  SymPy → Lean printer emits: `leakyRelu z = max z (z / 100)`, `softplus z = log (exp z + 1)`,
  `geluTanh z = z (tanh (√2 (0.044715 z³ + z) / √π) + 1) / 2`, `absAct z = |z|`,
  `identityGate z = z`.

Definitions only; no theorem. Not compiled: no Lean toolchain here.
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
