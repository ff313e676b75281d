import SkipAbsorption.ReluNecessity.Basic
import SkipAbsorption.Parity
import SkipAbsorption.CatalogActivations

/-!
# Activations `a z + b |z|` (Leaky ReLU): the S-condition decides absorbability

Research note `recession.md` §6 (a stretch goal of issue 22). The large-scale limit does not
help here (the recession profile of `σ` is `σ`), but paper Theorem 8's proof carries over: for
an activation with odd part `σ z - σ (-z) = c z` and even part `σ z + σ (-z) = k |z|`
(`c ≠ 0`, `k ≠ 0`; Leaky ReLU of slope `1/100`: `c = 101/100`, `k = 99/100`), an absorbed
identity skip gives

* the even parts `∑ i |u_i·x| w_i = ∑ j |u'_j·x| w'_j` (`evenPart_eq_of_add_neg_eq_abs`, divided
  by `k`), so the kink argument of `ReluNecessity.lean` matches the hidden units;
* the linear parts `2 x + c Wd Wu x = c Vd Vu x` (`linearPart_eq_of_sub_neg_eq_mul`), i.e. the
  linear part of the ReLU proof for the scaled down-projections `c • Wd`, `c • Vd`.

So `c • Wd * diagonal 1_S * Wu = -1` (`sCondition_of_matching`), i.e.
`Wd * diagonal 1_S * Wu = -(c⁻¹) • 1`, the hypothesis of `absorbable_of_sCondition`:

* `exists_sCondition_of_absorbable_of_parts`, `absorbable_iff_of_parts` (general `σ`);
* `leakyRelu_add_leakyRelu_neg`, `absorbable_leakyRelu_iff` (Leaky ReLU, slope `1/100`).

A separate file, so that nothing else depends on it.
Not compiled: no Lean toolchain here.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- **Even parts** of an absorbed identity skip, for `σ z + σ (-z) = k |z|` with `k ≠ 0`. -/
theorem evenPart_eq_of_add_neg_eq_abs {σ : ℝ → ℝ} {k : ℝ} (hk : k ≠ 0)
    (hσ : ∀ z, σ z + σ (-z) = k * |z|) {Wd Vd : Matrix (Fin d) (Fin n) ℝ}
    {Wu Vu : Matrix (Fin n) (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp σ Wd Wu x = mlp σ Vd Vu x)
    (x : Fin d → ℝ) (m : Fin d) :
    ∑ i, |Wu i ⬝ᵥ x| * Wd m i = ∑ j, |Vu j ⬝ᵥ x| * Vd m j := by
  have e1 := add_mlp_apply_eq σ h x m
  have e2 := add_mlp_apply_eq_neg σ h x m
  have hW : ∑ i, Wd m i * σ (Wu i ⬝ᵥ x) + ∑ i, Wd m i * σ (-(Wu i ⬝ᵥ x))
      = k * ∑ i, |Wu i ⬝ᵥ x| * Wd m i := by
    rw [← Finset.sum_add_distrib, Finset.mul_sum]
    exact Finset.sum_congr rfl fun i _ => by linear_combination (Wd m i) * hσ (Wu i ⬝ᵥ x)
  have hV : ∑ j, Vd m j * σ (Vu j ⬝ᵥ x) + ∑ j, Vd m j * σ (-(Vu j ⬝ᵥ x))
      = k * ∑ j, |Vu j ⬝ᵥ x| * Vd m j := by
    rw [← Finset.sum_add_distrib, Finset.mul_sum]
    exact Finset.sum_congr rfl fun j _ => by linear_combination (Vd m j) * hσ (Vu j ⬝ᵥ x)
  have hk0 : k * (∑ i, |Wu i ⬝ᵥ x| * Wd m i - ∑ j, |Vu j ⬝ᵥ x| * Vd m j) = 0 := by
    linear_combination e1 + e2 - hW + hV
  have hd := (mul_eq_zero.1 hk0).resolve_left hk
  linarith

/-- The even parts, as vectors (the form `exists_lineCoef_of_evenPart` takes). -/
theorem evenPart_eq_vec_of_add_neg_eq_abs {σ : ℝ → ℝ} {k : ℝ} (hk : k ≠ 0)
    (hσ : ∀ z, σ z + σ (-z) = k * |z|) {Wd Vd : Matrix (Fin d) (Fin n) ℝ}
    {Wu Vu : Matrix (Fin n) (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp σ Wd Wu x = mlp σ Vd Vu x) :
    ∀ x : Fin d → ℝ,
      ∑ i, |Wu i ⬝ᵥ x| • (fun m => Wd m i) = ∑ j, |Vu j ⬝ᵥ x| • (fun m => Vd m j) := by
  intro x
  funext m
  first
  | (rw [Finset.sum_apply, Finset.sum_apply]; exact evenPart_eq_of_add_neg_eq_abs hk hσ h x m)
  | (simp only [Finset.sum_apply, Pi.smul_apply, smul_eq_mul]
     exact evenPart_eq_of_add_neg_eq_abs hk hσ h x m)

/-- **Linear parts** of an absorbed identity skip, for `σ z - σ (-z) = c z`:
`2 x + c Wd Wu x = c Vd Vu x`, coordinatewise. -/
theorem linearPart_eq_of_sub_neg_eq_mul {σ : ℝ → ℝ} {c : ℝ}
    (hσ : ∀ z, σ z - σ (-z) = c * z) {Wd Vd : Matrix (Fin d) (Fin n) ℝ}
    {Wu Vu : Matrix (Fin n) (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp σ Wd Wu x = mlp σ Vd Vu x)
    (x : Fin d → ℝ) (m : Fin d) :
    2 * x m + c * ∑ i, Wd m i * (Wu i ⬝ᵥ x) = c * ∑ j, Vd m j * (Vu j ⬝ᵥ x) := by
  have e1 := add_mlp_apply_eq σ h x m
  have e2 := add_mlp_apply_eq_neg σ h x m
  have hW : ∑ i, Wd m i * σ (Wu i ⬝ᵥ x) - ∑ i, Wd m i * σ (-(Wu i ⬝ᵥ x))
      = c * ∑ i, Wd m i * (Wu i ⬝ᵥ x) := by
    rw [← Finset.sum_sub_distrib, Finset.mul_sum]
    exact Finset.sum_congr rfl fun i _ => by linear_combination (Wd m i) * hσ (Wu i ⬝ᵥ x)
  have hV : ∑ j, Vd m j * σ (Vu j ⬝ᵥ x) - ∑ j, Vd m j * σ (-(Vu j ⬝ᵥ x))
      = c * ∑ j, Vd m j * (Vu j ⬝ᵥ x) := by
    rw [← Finset.sum_sub_distrib, Finset.mul_sum]
    exact Finset.sum_congr rfl fun j _ => by linear_combination (Vd m j) * hσ (Vu j ⬝ᵥ x)
  linear_combination e1 - e2 - hW + hV

/-- `∑ i, (c • M) m i * (U i ⬝ᵥ x) = c * ∑ i, M m i * (U i ⬝ᵥ x)`. -/
theorem sum_smul_mul_dotProduct (c : ℝ) (M : Matrix (Fin d) (Fin n) ℝ)
    (U : Matrix (Fin n) (Fin d) ℝ) (x : Fin d → ℝ) (m : Fin d) :
    ∑ i, (c • M) m i * (U i ⬝ᵥ x) = c * ∑ i, M m i * (U i ⬝ᵥ x) := by
  rw [Finset.mul_sum]
  refine Finset.sum_congr rfl fun i _ => ?_
  -- `(c • M) m i = c * M m i` (`Matrix.smul_apply`, then `smul_eq_mul`; definitional)
  first
    | (rw [Matrix.smul_apply, smul_eq_mul]; ring)
    | (show c * M m i * (U i ⬝ᵥ x) = c * (M m i * (U i ⬝ᵥ x)); ring)

/-- **Necessity for `σ` with odd part `c z` and even part `k |z|`** (`c, k ≠ 0`): for
nondegenerate weights, an absorbed identity skip forces `Wd[:,S] Wu[S,:] = -(1/c) I`. -/
theorem exists_sCondition_of_absorbable_of_parts {σ : ℝ → ℝ} {c k : ℝ} (hc : c ≠ 0)
    (hk : k ≠ 0) (hodd : ∀ z, σ z - σ (-z) = c * z) (heven : ∀ z, σ z + σ (-z) = k * |z|)
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) :
    Absorbable σ 1 Wd Wu →
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
          = -(c⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ) := by
  intro hab
  unfold Absorbable at hab
  obtain ⟨Vd, Vu, h⟩ := hab
  -- even parts, then the matching of `ReluNecessity.lean` (steps b, c)
  have hev := evenPart_eq_vec_of_add_neg_eq_abs hk heven h
  have hline : ∀ i, ∃ μ : Fin n → ℝ, (∀ k, μ k ≠ 0 → Vu k = μ k • Wu i) ∧
      (fun m => Wd m i) = ∑ k, |μ k| • (fun m => Vd m k) :=
    fun i => exists_lineCoef_of_evenPart hnd hev i
  obtain ⟨μ, hμ⟩ : ∃ μ : Fin n → Fin n → ℝ, ∀ i, (∀ k, μ i k ≠ 0 → Vu k = μ i k • Wu i) ∧
      (fun m => Wd m i) = ∑ k, |μ i k| • (fun m => Vd m k) :=
    ⟨fun i => Classical.choose (hline i), fun i => Classical.choose_spec (hline i)⟩
  have hex : ∀ i, ∃ k, μ i k ≠ 0 := fun i => exists_coef_ne_zero hnd (hμ i).2
  obtain ⟨τ, hτ⟩ : ∃ τ : Fin n → Fin n, ∀ i, μ i (τ i) ≠ 0 :=
    ⟨fun i => Classical.choose (hex i), fun i => Classical.choose_spec (hex i)⟩
  have hV : ∀ i, Vu (τ i) = μ i (τ i) • Wu i := fun i => (hμ i).1 (τ i) (hτ i)
  have hbij : Function.Bijective τ := matching_bijective hnd hτ hV
  have hμ1 : ∀ i k, μ i k ≠ 0 → Vu k = μ i k • Wu i := fun i k hk' => (hμ i).1 k hk'
  have hzero : ∀ i k, k ≠ τ i → μ i k = 0 :=
    matching_coef_eq_zero (μ := μ) (τ := τ) hnd hμ1 hτ hbij.2
  have hW : ∀ i m, Wd m i = |μ i (τ i)| * Vd m (τ i) :=
    fun i m => col_entry_eq_of_coef (hμ i).2 (hzero i) m
  -- step d for the scaled down-projections `c • Wd`, `c • Vd`
  have hW' : ∀ i m, (c • Wd) m i = |μ i (τ i)| * (c • Vd) m (τ i) := by
    intro i m
    have e := hW i m
    first
      | (rw [Matrix.smul_apply, Matrix.smul_apply, smul_eq_mul, smul_eq_mul, e]; ring)
      | (show c * Wd m i = |μ i (τ i)| * (c * Vd m (τ i)); rw [e]; ring)
  have hlin : ∀ (x : Fin d → ℝ) (m : Fin d),
      2 * x m + ∑ i, (c • Wd) m i * (Wu i ⬝ᵥ x) = ∑ k, (c • Vd) m k * (Vu k ⬝ᵥ x) := by
    intro x m
    rw [sum_smul_mul_dotProduct c Wd Wu x m, sum_smul_mul_dotProduct c Vd Vu x m]
    exact linearPart_eq_of_sub_neg_eq_mul hodd h x m
  obtain ⟨S, hS⟩ := sCondition_of_matching (Wd := c • Wd) (Vd := c • Vd) τ
    (fun i => μ i (τ i)) hbij hV hW' hlin
  refine ⟨S, ?_⟩
  -- `c • (Wd D Wu) = -1`, so `Wd D Wu = c⁻¹ • (-1) = -(c⁻¹) • 1`
  have hmul : c • (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) = -1 := by
    rw [← hS]
    first
      | (rw [Matrix.smul_mul, Matrix.smul_mul]; done)
      | simp only [Matrix.smul_mul]
  calc Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
      = c⁻¹ • c • (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) :=
        (inv_smul_smul₀ hc _).symm
    _ = c⁻¹ • (-1 : Matrix (Fin d) (Fin d) ℝ) := by rw [hmul]
    _ = -(c⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ) := by
        first
          | (rw [smul_neg, neg_smul]; done)
          | simp

/-- **Characterisation for `σ` with odd part `c z` and even part `k |z|`** (`c, k ≠ 0`;
research note §6): for nondegenerate weights, a `σ`-block absorbs the identity skip iff some
`S` has `Wd[:,S] Wu[S,:] = -(1/c) I`. -/
theorem absorbable_iff_of_parts {σ : ℝ → ℝ} {c k : ℝ} (hc : c ≠ 0) (hk : k ≠ 0)
    (hodd : ∀ z, σ z - σ (-z) = c * z) (heven : ∀ z, σ z + σ (-z) = k * |z|)
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) :
    Absorbable σ 1 Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
          = -(c⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ) :=
  ⟨exists_sCondition_of_absorbable_of_parts hc hk hodd heven hnd, fun ⟨S, hS⟩ =>
    absorbable_of_sCondition hc hodd Wd Wu S hS⟩

/-- Leaky ReLU's even part: `leakyRelu z + leakyRelu (-z) = (99/100) |z|`. -/
theorem leakyRelu_add_leakyRelu_neg (z : ℝ) :
    leakyRelu z + leakyRelu (-z) = (99 / 100 : ℝ) * |z| := by
  first
    | show max z (z / 100) + max (-z) ((-z) / 100) = (99 / 100 : ℝ) * |z|
    | unfold leakyRelu
  rcases le_total z 0 with h | h
  · have h1 : max z (z / 100) = z / 100 := max_eq_right (by linarith)
    have h2 : max (-z) ((-z) / 100) = -z := max_eq_left (by linarith)
    have h3 : |z| = -z := by
      first
        | exact abs_of_nonpos h
        | (rw [← abs_neg z]; exact abs_of_nonneg (by linarith))
    rw [h1, h2, h3]
    ring
  · have h1 : max z (z / 100) = z := max_eq_left (by linarith)
    have h2 : max (-z) ((-z) / 100) = (-z) / 100 := max_eq_right (by linarith)
    have h3 : |z| = z := abs_of_nonneg h
    rw [h1, h2, h3]
    ring

/-- **Leaky ReLU (slope `1/100`).** For nondegenerate weights, a Leaky ReLU block absorbs the
identity skip iff some `S` has `Wd[:,S] Wu[S,:] = -(100/101) I`. -/
theorem absorbable_leakyRelu_iff {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu) :
    Absorbable leakyRelu 1 Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
          = -((101 / 100 : ℝ)⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ) :=
  absorbable_iff_of_parts (by norm_num) (by norm_num : (99 / 100 : ℝ) ≠ 0)
    leakyRelu_sub_leakyRelu_neg leakyRelu_add_leakyRelu_neg hnd

end SkipAbsorption
