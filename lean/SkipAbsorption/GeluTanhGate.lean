import SkipAbsorption.ActivationDefs

/-!
# `tanh → 1`, and the limits of GELU-tanh's gate

`geluTanh y = y F(y)` with `F y = (tanh (√2 (0.044715 y³ + y) / √π) + 1) / 2`
(`geluTanh_eq_mul`). `F → 1` at `+∞` (`tendsto_geluTanh_gate_atTop`) because the argument of
`tanh` tends to `+∞` (`tendsto_geluTanh_arg_atTop`) and `tanh → 1` (`tendsto_tanh_atTop_one`,
proved here from `Real.tanh_eq`, `tanh x = (1 - e^{-2x}) / (1 + e^{-2x})`
(`tanh_eq_of_exp_neg`), since Mathlib states no limit of `tanh`); `F → 0` at `-∞`
(`tendsto_geluTanh_gate_atBot`) by the symmetry `F (-y) = 1 - F y`.

Real analysis only: this file imports the definition of `geluTanh` and nothing else of the
library. The recession limits built on it are in `RecessionGeluTanh.lean`.
Not compiled: no Lean toolchain here.
-/

open Filter Topology

namespace SkipAbsorption

/-! ### `tanh → 1` at `+∞` -/

/-- `tanh x = (1 - e^{-x} e^{-x}) / (1 + e^{-x} e^{-x})`. -/
theorem tanh_eq_of_exp_neg (x : ℝ) :
    Real.tanh x
      = (1 - Real.exp (-x) * Real.exp (-x)) / (1 + Real.exp (-x) * Real.exp (-x)) := by
  have hab : Real.exp x * Real.exp (-x) = 1 := by
    first
      | (rw [← Real.exp_add, show x + -x = 0 by ring, Real.exp_zero]; done)
      | (rw [Real.exp_neg]; exact mul_inv_cancel₀ (Real.exp_pos x).ne')
  have hb : 0 < Real.exp (-x) := Real.exp_pos (-x)
  have ha : 0 < Real.exp x := Real.exp_pos x
  have hnum : (Real.exp x - Real.exp (-x)) * Real.exp (-x)
      = 1 - Real.exp (-x) * Real.exp (-x) := by
    linear_combination hab
  have hden : (Real.exp x + Real.exp (-x)) * Real.exp (-x)
      = 1 + Real.exp (-x) * Real.exp (-x) := by
    linear_combination hab
  -- route 1: `Real.tanh_eq`, then multiply numerator and denominator by `e^{-x}`;
  -- route 2: the same identity cross-multiplied; route 3: from `sinh / cosh`
  first
    | (rw [Real.tanh_eq, ← hnum, ← hden]; exact (mul_div_mul_right _ _ hb.ne').symm)
    | (rw [Real.tanh_eq, div_eq_div_iff (by positivity) (by positivity)]
       linear_combination (2 * Real.exp (-x)) * hab)
    | (rw [Real.tanh_eq_sinh_div_cosh, Real.sinh_eq, Real.cosh_eq,
        div_eq_div_iff (by positivity) (by positivity)]
       linear_combination Real.exp (-x) * hab)

/-- `tanh x → 1` as `x → +∞`. -/
theorem tendsto_tanh_atTop_one : Tendsto Real.tanh atTop (𝓝 1) := by
  have hb : Tendsto (fun x : ℝ => Real.exp (-x)) atTop (𝓝 0) := by
    first
      | exact Real.tendsto_exp_neg_atTop_nhds_zero
      | exact Filter.Tendsto.comp Real.tendsto_exp_atBot tendsto_neg_atTop_atBot
  have hbb : Tendsto (fun x : ℝ => Real.exp (-x) * Real.exp (-x)) atTop (𝓝 (0 * 0)) :=
    hb.mul hb
  have hnum : Tendsto (fun x : ℝ => 1 - Real.exp (-x) * Real.exp (-x)) atTop
      (𝓝 (1 - 0 * 0)) := tendsto_const_nhds.sub hbb
  have hden : Tendsto (fun x : ℝ => 1 + Real.exp (-x) * Real.exp (-x)) atTop
      (𝓝 (1 + 0 * 0)) := tendsto_const_nhds.add hbb
  have hne : (1 : ℝ) + 0 * 0 ≠ 0 := by norm_num
  -- route 1: `Filter.Tendsto.div`; route 2: `Filter.Tendsto.inv₀`, `Filter.Tendsto.mul` and
  -- `div_eq_mul_inv` (the proof of `Filter.Tendsto.div` itself)
  have hq : Tendsto
      (fun x : ℝ => (1 - Real.exp (-x) * Real.exp (-x)) / (1 + Real.exp (-x) * Real.exp (-x)))
      atTop (𝓝 ((1 - 0 * 0) / (1 + 0 * 0))) := by
    first
      | exact hnum.div hden hne
      | (simpa only [div_eq_mul_inv] using hnum.mul (hden.inv₀ hne))
  have hv : ((1 : ℝ) - 0 * 0) / (1 + 0 * 0) = 1 := by norm_num
  rw [hv] at hq
  exact hq.congr fun x => (tanh_eq_of_exp_neg x).symm

/-! ### The GELU-tanh gate `F` -/

/-- The argument of `tanh` in GELU-tanh tends to `+∞`. -/
theorem tendsto_geluTanh_arg_atTop :
    Tendsto (fun y : ℝ => Real.sqrt 2 * (8943 * y ^ 3 / 200000 + y) / Real.sqrt Real.pi)
      atTop atTop := by
  have hP : Tendsto (fun y : ℝ => 8943 * y ^ 3 / 200000 + y) atTop atTop := by
    first
      | exact (((tendsto_pow_atTop (by norm_num : (3 : ℕ) ≠ 0)).const_mul_atTop
          (by norm_num : (0 : ℝ) < 8943)).atTop_div_const
          (by norm_num : (0 : ℝ) < 200000)).atTop_add_atTop tendsto_id
      | exact tendsto_atTop_mono' atTop ((eventually_ge_atTop (0 : ℝ)).mono fun y hy => by
          have h3 : 0 ≤ y ^ 3 := pow_nonneg hy 3
          show y ≤ 8943 * y ^ 3 / 200000 + y
          linarith) tendsto_id
  have h2 : (0 : ℝ) < Real.sqrt 2 := by
    first
      | exact Real.sqrt_pos.2 (by norm_num)
      | positivity
  have hpi : (0 : ℝ) < Real.sqrt Real.pi := by
    first
      | exact Real.sqrt_pos.2 Real.pi_pos
      | positivity
  exact (hP.const_mul_atTop h2).atTop_div_const hpi

/-- GELU-tanh is `y F(y)`. -/
theorem geluTanh_eq_mul (y : ℝ) :
    geluTanh y = y * ((Real.tanh (Real.sqrt 2 * (8943 * y ^ 3 / 200000 + y)
      / Real.sqrt Real.pi) + 1) / 2) := by
  first
    | exact mul_div_assoc _ _ _
    | (unfold geluTanh; ring)

/-- The GELU-tanh gate tends to `1` at `+∞`. -/
theorem tendsto_geluTanh_gate_atTop :
    Tendsto (fun y : ℝ => (Real.tanh (Real.sqrt 2 * (8943 * y ^ 3 / 200000 + y)
      / Real.sqrt Real.pi) + 1) / 2) atTop (𝓝 1) := by
  have h : Tendsto (fun y : ℝ => (Real.tanh (Real.sqrt 2 * (8943 * y ^ 3 / 200000 + y)
      / Real.sqrt Real.pi) + 1) / 2) atTop (𝓝 ((1 + 1) / 2)) := by
    first
      | exact ((tendsto_tanh_atTop_one.comp tendsto_geluTanh_arg_atTop).add_const 1).div_const 2
      | exact ((tendsto_tanh_atTop_one.comp tendsto_geluTanh_arg_atTop).add
          tendsto_const_nhds).div_const 2
  have hv : ((1 : ℝ) + 1) / 2 = 1 := by norm_num
  rw [hv] at h
  exact h

/-- The GELU-tanh gate tends to `0` at `-∞`: `F y = 1 - F (-y)`. -/
theorem tendsto_geluTanh_gate_atBot :
    Tendsto (fun y : ℝ => (Real.tanh (Real.sqrt 2 * (8943 * y ^ 3 / 200000 + y)
      / Real.sqrt Real.pi) + 1) / 2) atBot (𝓝 0) := by
  have hodd : ∀ y : ℝ, 1 - (Real.tanh (Real.sqrt 2 * (8943 * (-y) ^ 3 / 200000 + -y)
        / Real.sqrt Real.pi) + 1) / 2
      = (Real.tanh (Real.sqrt 2 * (8943 * y ^ 3 / 200000 + y) / Real.sqrt Real.pi) + 1) / 2 := by
    intro y
    have harg : Real.sqrt 2 * (8943 * (-y) ^ 3 / 200000 + -y) / Real.sqrt Real.pi
        = -(Real.sqrt 2 * (8943 * y ^ 3 / 200000 + y) / Real.sqrt Real.pi) := by ring
    have ht : Real.tanh (Real.sqrt 2 * (8943 * (-y) ^ 3 / 200000 + -y) / Real.sqrt Real.pi)
        = -Real.tanh (Real.sqrt 2 * (8943 * y ^ 3 / 200000 + y) / Real.sqrt Real.pi) := by
      rw [harg, Real.tanh_neg]
    linear_combination (-1 / 2 : ℝ) * ht
  have h : Tendsto (fun y : ℝ => 1 - (Real.tanh (Real.sqrt 2 * (8943 * (-y) ^ 3 / 200000 + -y)
      / Real.sqrt Real.pi) + 1) / 2) atBot (𝓝 (1 - 1)) := by
    -- `F ∘ (-·)` by composition with `-x → +∞`, or by `tendsto_comp_neg_atBot_iff`
    first
      | exact tendsto_const_nhds.sub (tendsto_geluTanh_gate_atTop.comp tendsto_neg_atBot_atTop)
      | exact tendsto_const_nhds.sub (tendsto_comp_neg_atBot_iff.2 tendsto_geluTanh_gate_atTop)
  have hv : (1 : ℝ) - 1 = 0 := sub_self 1
  rw [hv] at h
  exact h.congr hodd

end SkipAbsorption
