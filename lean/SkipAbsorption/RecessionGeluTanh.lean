import SkipAbsorption.GeluTanhGate
import SkipAbsorption.RecessionRelu

/-!
# GELU-tanh has recession profile ReLU

`geluTanh y = y F(y)` (`geluTanh_eq_mul`) with a gate `F → 1` at `+∞` and `F → 0` at `-∞`
(`GeluTanhGate.lean`, where `tanh → 1` is proved). The `z·F` class lemma of
`RecessionRelu.lean` then gives `tendsto_geluTanh_div` (`geluTanh (t z) / t → relu z`) and
`tendsto_geluTanh_add_div` (with a bias). The characterisations that use them
(`absorbable_geluTanh_iff`, …) are in `ReluLikeGeluTanh.lean`, so that these limits do not sit
on paper Theorem 8's necessity proof.

A separate file, so that GELU, SiLU and softplus (`ReluLike.lean`, `BiasedReluLike.lean`) do
not depend on the `tanh` limit.
Not compiled: no Lean toolchain here.
-/

open Filter Topology

namespace SkipAbsorption

/-! ### Recession limits -/

/-- GELU-tanh with a bias: `geluTanh (t z + β) / t → relu z`. -/
theorem tendsto_geluTanh_add_div (z β : ℝ) :
    Tendsto (fun t => geluTanh (t * z + β) / t) atTop (𝓝 (relu z)) :=
  tendsto_add_div_relu_of_eq_mul geluTanh_eq_mul tendsto_geluTanh_gate_atTop
    tendsto_geluTanh_gate_atBot z β

/-- **GELU-tanh has recession profile ReLU**: `geluTanh (t z) / t → relu z`. -/
theorem tendsto_geluTanh_div (z : ℝ) :
    Tendsto (fun t => geluTanh (t * z) / t) atTop (𝓝 (relu z)) :=
  tendsto_div_relu_of_eq_mul geluTanh_eq_mul tendsto_geluTanh_gate_atTop
    tendsto_geluTanh_gate_atBot z

end SkipAbsorption
