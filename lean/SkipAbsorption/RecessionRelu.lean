import SkipAbsorption.Recession

/-!
# Activations whose recession profile is ReLU

Criteria for `σ (t * z) / t → relu z` (and, with a bias, `σ (t * z + β) / t → relu z`) as
`t → ∞`, the hypothesis of the ReLU-like necessity theorems (research note `recession.md`
§1, §4, §5):

* `tendsto_div_relu_of_abs_sub_relu_le` (squeeze): `|σ z - relu z| ≤ M` for all `z` gives
  `σ (t * z) / t → relu z`, because `relu (t * z) = t * relu z` for `t > 0`;
* `tendsto_add_div_relu_of_abs_sub_relu_le`: the same with a bias `β`, since
  `|σ (t z + β) - t relu z| ≤ M + |β|` (ReLU is 1-Lipschitz, `abs_relu_sub_relu_le`);
* `tendsto_add_div_relu_of_eq_mul`, `tendsto_div_relu_of_eq_mul` (the `z·F` class): if
  `σ y = y * F y` with `F → 1` at `+∞` and `F → 0` at `-∞` (GELU: `F = Φ`; SiLU: the
  logistic sigmoid; GELU-tanh), then `σ (t z + β) / t = (z + β / t) F (t z + β) → relu z`
  directly, with no bound on `|σ - relu|`.

`relu_mul_of_pos` (positive homogeneity of ReLU) is in `SkipAbsorption.Defs`, next to `relu`,
so this file imports `SkipAbsorption.Recession` only.
Not compiled: no Lean toolchain here.
-/

open Filter Topology

namespace SkipAbsorption

/-- ReLU is 1-Lipschitz: `|relu a - relu b| ≤ |a - b|`. -/
theorem abs_relu_sub_relu_le (a b : ℝ) : |relu a - relu b| ≤ |a - b| := by
  have h1 := le_abs_self (a - b)
  have h2 := neg_abs_le (a - b)
  have ha : relu a = max a 0 := rfl
  have hb : relu b = max b 0 := rfl
  apply abs_le.2
  rcases le_total a 0 with hha | hha
  · have ea : max a 0 = 0 := max_eq_right hha
    rcases le_total b 0 with hhb | hhb
    · have eb : max b 0 = 0 := max_eq_right hhb
      constructor <;> linarith
    · have eb : max b 0 = b := max_eq_left hhb
      constructor <;> linarith
  · have ea : max a 0 = a := max_eq_left hha
    rcases le_total b 0 with hhb | hhb
    · have eb : max b 0 = 0 := max_eq_right hhb
      constructor <;> linarith
    · have eb : max b 0 = b := max_eq_left hhb
      constructor <;> linarith

/-- **Squeeze.** If `|σ z - relu z| ≤ M` for every `z`, then `σ (t * z) / t → relu z`. -/
theorem tendsto_div_relu_of_abs_sub_relu_le {σ : ℝ → ℝ} {M : ℝ}
    (hM : ∀ z, |σ z - relu z| ≤ M) (z : ℝ) :
    Tendsto (fun t => σ (t * z) / t) atTop (𝓝 (relu z)) := by
  refine tendsto_of_abs_sub_le_mul_inv (K := M) fun t ht => ?_
  have hti : 0 < t⁻¹ := inv_pos.2 ht
  have hinv : t * t⁻¹ = 1 := mul_inv_cancel₀ ht.ne'
  have hr : relu (t * z) = t * relu z := relu_mul_of_pos ht z
  -- `σ (t z) / t - relu z = (σ (t z) - relu (t z)) / t`
  have e : σ (t * z) / t - relu z = (σ (t * z) - relu (t * z)) * t⁻¹ := by
    linear_combination (relu z) * hinv + t⁻¹ * hr
  show |σ (t * z) / t - relu z| ≤ M * t⁻¹
  rw [e, abs_mul, abs_of_pos hti]
  first
    | exact mul_le_mul_of_nonneg_right (hM (t * z)) hti.le
    | nlinarith [hM (t * z), hti]

/-- **Squeeze with a bias.** If `|σ z - relu z| ≤ M` for every `z`, then
`σ (t * z + β) / t → relu z` for every bias `β`: `|σ (t z + β) - t relu z| ≤ M + |β|`. -/
theorem tendsto_add_div_relu_of_abs_sub_relu_le {σ : ℝ → ℝ} {M : ℝ}
    (hM : ∀ z, |σ z - relu z| ≤ M) (z β : ℝ) :
    Tendsto (fun t => σ (t * z + β) / t) atTop (𝓝 (relu z)) := by
  refine tendsto_of_abs_sub_le_mul_inv (K := M + |β|) fun t ht => ?_
  have hti : 0 < t⁻¹ := inv_pos.2 ht
  have hinv : t * t⁻¹ = 1 := mul_inv_cancel₀ ht.ne'
  have hr : relu (t * z) = t * relu z := relu_mul_of_pos ht z
  have e : σ (t * z + β) / t - relu z
      = ((σ (t * z + β) - relu (t * z + β)) + (relu (t * z + β) - relu (t * z))) * t⁻¹ := by
    linear_combination (relu z) * hinv + t⁻¹ * hr
  -- the two pieces: `|σ w - relu w| ≤ M` and `|relu (t z + β) - relu (t z)| ≤ |β|`
  have hb1 := abs_le.1 (hM (t * z + β))
  have hlip : |relu (t * z + β) - relu (t * z)| ≤ |β| := by
    have hl := abs_relu_sub_relu_le (t * z + β) (t * z)
    have hβ : t * z + β - t * z = β := by ring
    rw [hβ] at hl
    exact hl
  have hb2 := abs_le.1 hlip
  have hsum : |(σ (t * z + β) - relu (t * z + β)) + (relu (t * z + β) - relu (t * z))|
      ≤ M + |β| := abs_le.2 ⟨by linarith [hb1.1, hb2.1], by linarith [hb1.2, hb2.2]⟩
  show |σ (t * z + β) / t - relu z| ≤ (M + |β|) * t⁻¹
  rw [e, abs_mul, abs_of_pos hti]
  first
    | exact mul_le_mul_of_nonneg_right hsum hti.le
    | nlinarith [hsum, hti]

/-- **The `z·F` class, with a bias.** If `σ y = y * F y`, `F → 1` at `+∞` and `F → 0` at
`-∞`, then `σ (t * z + β) / t → relu z` for every `z` and every bias `β`. -/
theorem tendsto_add_div_relu_of_eq_mul {σ F : ℝ → ℝ} (hσ : ∀ y, σ y = y * F y)
    (h1 : Tendsto F atTop (𝓝 1)) (h0 : Tendsto F atBot (𝓝 0)) (z β : ℝ) :
    Tendsto (fun t => σ (t * z + β) / t) atTop (𝓝 (relu z)) := by
  -- for `t > 0`: `σ (t z + β) / t = (z + β t⁻¹) F (t z + β)`
  have key : ∀ t : ℝ, 0 < t →
      (z + β * t⁻¹) * F (t * z + β) = σ (t * z + β) / t := by
    intro t ht
    have hinv : t * t⁻¹ = 1 := mul_inv_cancel₀ ht.ne'
    have hs := hσ (t * z + β)
    linear_combination (-t⁻¹) * hs - (z * F (t * z + β)) * hinv
  have hev : (fun t : ℝ => (z + β * t⁻¹) * F (t * z + β)) =ᶠ[atTop]
      (fun t => σ (t * z + β) / t) := by
    first
      | exact (eventually_gt_atTop (0 : ℝ)).mono fun t ht => key t ht
      | (filter_upwards [eventually_gt_atTop (0 : ℝ)] with t ht using key t ht)
  -- `z + β t⁻¹ → z`
  have hlin0 : Tendsto (fun t : ℝ => z + β * t⁻¹) atTop (𝓝 (z + β * 0)) := by
    first
      | exact tendsto_const_nhds.add (tendsto_inv_atTop_zero.const_mul β)
      | exact (tendsto_inv_atTop_zero.const_mul β).const_add z
  have ez : z + β * 0 = z := by ring
  rw [ez] at hlin0
  rcases lt_trichotomy z 0 with hz | hz | hz
  · -- `z < 0`: `t z + β → -∞`, `F (t z + β) → 0`
    have hbot : Tendsto (fun t : ℝ => t * z + β) atTop atBot := by
      first
        | exact (tendsto_atBot_add_const_right _ β (tendsto_id.const_mul_atTop_of_neg hz)).congr
            fun t => by show z * t + β = t * z + β; ring
        | exact (tendsto_atBot_add_const_right _ β (tendsto_id.atTop_mul_const_of_neg hz))
    have hF : Tendsto (fun t => F (t * z + β)) atTop (𝓝 0) := h0.comp hbot
    have hprod := hlin0.mul hF
    have hr : relu z = z * 0 := by
      rw [mul_zero]
      exact max_eq_right hz.le
    rw [hr]
    exact hprod.congr' hev
  · -- `z = 0`: `F (t 0 + β) = F β` is constant
    subst hz
    have hF : Tendsto (fun t : ℝ => F (t * 0 + β)) atTop (𝓝 (F β)) := by
      have hc : Tendsto (fun _ : ℝ => F β) atTop (𝓝 (F β)) := tendsto_const_nhds
      exact hc.congr fun t => by
        show F β = F (t * 0 + β)
        rw [mul_zero, zero_add]
    have hprod := hlin0.mul hF
    have hr : relu 0 = 0 * F β := by
      rw [zero_mul]
      exact max_self 0
    rw [hr]
    exact hprod.congr' hev
  · -- `z > 0`: `t z + β → +∞`, `F (t z + β) → 1`
    have htop : Tendsto (fun t : ℝ => t * z + β) atTop atTop := by
      first
        | exact (tendsto_atTop_add_const_right _ β (tendsto_id.const_mul_atTop hz)).congr
            fun t => by show z * t + β = t * z + β; ring
        | exact (tendsto_atTop_add_const_right _ β (tendsto_id.atTop_mul_const hz))
    have hF : Tendsto (fun t => F (t * z + β)) atTop (𝓝 1) := h1.comp htop
    have hprod := hlin0.mul hF
    have hr : relu z = z * 1 := by
      rw [mul_one]
      exact max_eq_left hz.le
    rw [hr]
    exact hprod.congr' hev

/-- **The `z·F` class.** If `σ y = y * F y`, `F → 1` at `+∞` and `F → 0` at `-∞`, then
`σ (t * z) / t → relu z` for every `z`. -/
theorem tendsto_div_relu_of_eq_mul {σ F : ℝ → ℝ} (hσ : ∀ y, σ y = y * F y)
    (h1 : Tendsto F atTop (𝓝 1)) (h0 : Tendsto F atBot (𝓝 0)) (z : ℝ) :
    Tendsto (fun t => σ (t * z) / t) atTop (𝓝 (relu z)) :=
  (tendsto_add_div_relu_of_eq_mul hσ h1 h0 z 0).congr fun t => by
    show σ (t * z + 0) / t = σ (t * z) / t
    rw [add_zero]

end SkipAbsorption
