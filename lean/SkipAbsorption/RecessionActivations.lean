import SkipAbsorption.ActivationDefs
import SkipAbsorption.CatalogActivations
import SkipAbsorption.RecessionRelu

/-!
# GELU, SiLU and softplus have recession profile ReLU

`σ (t * z) / t → relu z` and, with a bias, `σ (t * z + β) / t → relu z` as `t → ∞`, for
every `z` and `β` (research note `recession.md` §1, §4, §5):

* GELU (`gelu y = y Φ y`): `tendsto_gelu_div`, `tendsto_gelu_add_div`, through the
  `z·F` class criteria of `RecessionRelu.lean` with `F = Φ`, the standard Gaussian CDF, which
  tends to `1` at `+∞` and `0` at `-∞`
  (`ProbabilityTheory.tendsto_cdf_atTop`, `ProbabilityTheory.tendsto_cdf_atBot`);
* SiLU / Swish (`swish y = y sigmoid y`): `tendsto_swish_div`, `tendsto_swish_add_div`, the
  same with `F = sigmoid` (`Real.tendsto_sigmoid_atTop`, `Real.tendsto_sigmoid_atBot`);
* softplus: `abs_softplus_sub_relu_le` (`|softplus z - relu z| ≤ 1`, from
  `0 ≤ log (exp y + 1) ≤ exp y ≤ 1` for `y ≤ 0` and `softplus z - z = softplus (-z)`), then
  the squeeze: `tendsto_softplus_div`, `tendsto_softplus_add_div`.

GELU-tanh is in `SkipAbsorption.RecessionGeluTanh` (its limit needs `tanh → ±1`, which Mathlib
does not state), so that a failure there does not reach these.
Not compiled: no Lean toolchain here.
-/

open Filter Topology ProbabilityTheory

namespace SkipAbsorption

/-! ### GELU -/

/-- GELU with a bias: `gelu (t z + β) / t → relu z`. -/
theorem tendsto_gelu_add_div (z β : ℝ) :
    Tendsto (fun t => gelu (t * z + β) / t) atTop (𝓝 (relu z)) :=
  tendsto_add_div_relu_of_eq_mul (F := fun y => cdf (gaussianReal 0 1) y) (fun _ => rfl)
    (tendsto_cdf_atTop (gaussianReal 0 1)) (tendsto_cdf_atBot (gaussianReal 0 1)) z β

/-- **GELU has recession profile ReLU**: `gelu (t z) / t → relu z`. -/
theorem tendsto_gelu_div (z : ℝ) : Tendsto (fun t => gelu (t * z) / t) atTop (𝓝 (relu z)) :=
  tendsto_div_relu_of_eq_mul (F := fun y => cdf (gaussianReal 0 1) y) (fun _ => rfl)
    (tendsto_cdf_atTop (gaussianReal 0 1)) (tendsto_cdf_atBot (gaussianReal 0 1)) z

/-! ### SiLU / Swish -/

/-- SiLU with a bias: `swish (t z + β) / t → relu z`. Route 1: the `z·F` class with
`F = sigmoid`; route 2: the squeeze with `|swish w - relu w| ≤ 1`. -/
theorem tendsto_swish_add_div (z β : ℝ) :
    Tendsto (fun t => swish (t * z + β) / t) atTop (𝓝 (relu z)) := by
  first
    | exact tendsto_add_div_relu_of_eq_mul (F := Real.sigmoid) (fun _ => rfl)
        Real.tendsto_sigmoid_atTop Real.tendsto_sigmoid_atBot z β
    | (have hb : ∀ w : ℝ, |swish w - relu w| ≤ 1 := by
          intro w
          -- `y sigmoid (-y) = y / (1 + e^y) ∈ [0, 1]` for `y ≥ 0`, as `y + 1 ≤ e^y`
          have key : ∀ y : ℝ, 0 ≤ y →
              0 ≤ y * Real.sigmoid (-y) ∧ y * Real.sigmoid (-y) ≤ 1 := by
            intro y hy
            have hs : Real.sigmoid (-y) = (1 + Real.exp (-(-y)))⁻¹ := Real.sigmoid_def (-y)
            have hpos : 0 < 1 + Real.exp y := by linarith [Real.exp_pos y]
            have he : y + 1 ≤ Real.exp y := Real.add_one_le_exp y
            have hinv : (1 + Real.exp y) * (1 + Real.exp y)⁻¹ = 1 := mul_inv_cancel₀ hpos.ne'
            have hw : 0 < (1 + Real.exp y)⁻¹ := inv_pos.2 hpos
            rw [hs, neg_neg]
            constructor
            · exact mul_nonneg hy hw.le
            · nlinarith [mul_nonneg (by linarith : (0 : ℝ) ≤ 1 + Real.exp y - y) hw.le]
          rcases le_total 0 w with hw | hw
          · have hr : relu w = w := max_eq_left hw
            obtain ⟨k1, k2⟩ := key w hw
            have hsw : swish w - relu w = -(w * Real.sigmoid (-w)) := by
              rw [hr]
              show w * Real.sigmoid w - w = -(w * Real.sigmoid (-w))
              rw [Real.sigmoid_neg]
              ring
            rw [hsw, abs_neg, abs_of_nonneg k1]
            exact k2
          · have hr : relu w = 0 := max_eq_right hw
            obtain ⟨k1, k2⟩ := key (-w) (by linarith)
            have hsw : swish w - relu w = -((-w) * Real.sigmoid (-(-w))) := by
              rw [hr, neg_neg]
              show w * Real.sigmoid w - 0 = -((-w) * Real.sigmoid w)
              ring
            rw [hsw, abs_neg, abs_of_nonneg k1]
            exact k2
       exact tendsto_add_div_relu_of_abs_sub_relu_le hb z β)

/-- **SiLU has recession profile ReLU**: `swish (t z) / t → relu z`. Route 1: the `z·F`
class with `F = sigmoid`; route 2: the squeeze with `|swish w - relu w| ≤ 1`. -/
theorem tendsto_swish_div (z : ℝ) :
    Tendsto (fun t => swish (t * z) / t) atTop (𝓝 (relu z)) := by
  first
    | exact tendsto_div_relu_of_eq_mul (F := Real.sigmoid) (fun _ => rfl)
        Real.tendsto_sigmoid_atTop Real.tendsto_sigmoid_atBot z
    | (have hb : ∀ w : ℝ, |swish w - relu w| ≤ 1 := by
          intro w
          -- `y sigmoid (-y) = y / (1 + e^y) ∈ [0, 1]` for `y ≥ 0`, as `y + 1 ≤ e^y`
          have key : ∀ y : ℝ, 0 ≤ y →
              0 ≤ y * Real.sigmoid (-y) ∧ y * Real.sigmoid (-y) ≤ 1 := by
            intro y hy
            have hs : Real.sigmoid (-y) = (1 + Real.exp (-(-y)))⁻¹ := Real.sigmoid_def (-y)
            have hpos : 0 < 1 + Real.exp y := by linarith [Real.exp_pos y]
            have he : y + 1 ≤ Real.exp y := Real.add_one_le_exp y
            have hinv : (1 + Real.exp y) * (1 + Real.exp y)⁻¹ = 1 := mul_inv_cancel₀ hpos.ne'
            have hw : 0 < (1 + Real.exp y)⁻¹ := inv_pos.2 hpos
            rw [hs, neg_neg]
            constructor
            · exact mul_nonneg hy hw.le
            · nlinarith [mul_nonneg (by linarith : (0 : ℝ) ≤ 1 + Real.exp y - y) hw.le]
          rcases le_total 0 w with hw | hw
          · have hr : relu w = w := max_eq_left hw
            obtain ⟨k1, k2⟩ := key w hw
            have hsw : swish w - relu w = -(w * Real.sigmoid (-w)) := by
              rw [hr]
              show w * Real.sigmoid w - w = -(w * Real.sigmoid (-w))
              rw [Real.sigmoid_neg]
              ring
            rw [hsw, abs_neg, abs_of_nonneg k1]
            exact k2
          · have hr : relu w = 0 := max_eq_right hw
            obtain ⟨k1, k2⟩ := key (-w) (by linarith)
            have hsw : swish w - relu w = -((-w) * Real.sigmoid (-(-w))) := by
              rw [hr, neg_neg]
              show w * Real.sigmoid w - 0 = -((-w) * Real.sigmoid w)
              ring
            rw [hsw, abs_neg, abs_of_nonneg k1]
            exact k2
       exact tendsto_div_relu_of_abs_sub_relu_le hb z)

/-! ### softplus -/

/-- For `y ≤ 0`: `0 ≤ softplus y ≤ 1`. -/
theorem softplus_mem_unit_of_nonpos {y : ℝ} (hy : y ≤ 0) : 0 ≤ softplus y ∧ softplus y ≤ 1 := by
  have he : Real.exp y ≤ 1 := by
    have h := Real.exp_le_exp.2 hy
    rw [Real.exp_zero] at h
    exact h
  have hpos0 := Real.exp_pos y
  have hpos : 0 < Real.exp y + 1 := by linarith
  constructor
  · show 0 ≤ Real.log (Real.exp y + 1)
    exact Real.log_nonneg (by linarith)
  · show Real.log (Real.exp y + 1) ≤ 1
    -- route 1: `log u ≤ u - 1`; route 2: `log u ≤ 1 ↔ u ≤ e` and `1 + 1 ≤ e`
    first
      | (have h := Real.log_le_sub_one_of_pos hpos
         linarith)
      | (rw [Real.log_le_iff_le_exp hpos]
         linarith [Real.add_one_le_exp (1 : ℝ)])

/-- softplus stays within `1` of ReLU: `|softplus z - relu z| ≤ 1`. -/
theorem abs_softplus_sub_relu_le (z : ℝ) : |softplus z - relu z| ≤ 1 := by
  rcases le_total z 0 with hz | hz
  · have hr : relu z = 0 := max_eq_right hz
    obtain ⟨k1, k2⟩ := softplus_mem_unit_of_nonpos hz
    rw [hr]
    exact abs_le.2 ⟨by linarith, by linarith⟩
  · have hr : relu z = z := max_eq_left hz
    have hz' : -z ≤ 0 := by linarith
    obtain ⟨k1, k2⟩ := softplus_mem_unit_of_nonpos hz'
    -- `softplus z - softplus (-z) = z`
    have hs := softplus_sub_softplus_neg z
    rw [hr]
    exact abs_le.2 ⟨by linarith, by linarith⟩

/-- softplus with a bias: `softplus (t z + β) / t → relu z`. -/
theorem tendsto_softplus_add_div (z β : ℝ) :
    Tendsto (fun t => softplus (t * z + β) / t) atTop (𝓝 (relu z)) :=
  tendsto_add_div_relu_of_abs_sub_relu_le abs_softplus_sub_relu_le z β

/-- **softplus has recession profile ReLU**: `softplus (t z) / t → relu z`. -/
theorem tendsto_softplus_div (z : ℝ) :
    Tendsto (fun t => softplus (t * z) / t) atTop (𝓝 (relu z)) :=
  tendsto_div_relu_of_abs_sub_relu_le abs_softplus_sub_relu_le z

end SkipAbsorption
