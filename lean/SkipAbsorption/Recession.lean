import SkipAbsorption.Defs
import Mathlib.Analysis.SpecificLimits.Basic
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.LinearCombination
import Mathlib.Tactic.Ring

/-!
# The large-scale (recession) limit of an absorbing block (R1, R2)

The research note `recession.md` (§2, §3): evaluate the identity
`A x + mlp σ Wd Wu x = mlp σ Vd Vu x` at `t • x`, divide by `t > 0` and let `t → ∞`.

* `absorbable_of_tendsto_div` (**R1**, transfer): if `σ (t * z) / t → ρ z` for every `z`, then
  `Absorbable σ A Wd Wu → Absorbable ρ A Wd Wu`, with the same absorbing matrices.
* `eq_zero_of_absorbable_of_tendsto_div_zero` (**R2**): if the limit is `0` for every `z`, an
  absorbable skip is `A = 0`;
* `tendsto_div_zero_of_bounded`, `eq_zero_of_absorbable_of_bounded`: a bounded activation
  (`∃ M, ∀ z, |σ z| ≤ M`) has limit `0`, so it absorbs no skip `A ≠ 0`, for every width and
  all weights (no nondegeneracy).

Helpers, each a small lemma: `mlp_apply`, `mulVec_smul_apply`, `mlp_smul_apply` (a block
coordinatewise and at `t • x`), `sum_mul_div`, `tendsto_sum_mul`,
`eq_of_tendsto_of_forall_pos_eq` (two limits of functions that agree for `t > 0`),
`tendsto_of_abs_sub_le_mul_inv` (squeeze by `K / t`), `tendsto_comp_div_zero_of_bounded`,
`mlp_zero_fun`, `eq_zero_of_absorbable_zero`.

No derivative, no measure: only limits of real functions at `atTop`.
Not compiled: no Lean toolchain here.
-/

open Matrix Filter Topology

namespace SkipAbsorption

variable {d n : ℕ}

/-! ### A block, coordinatewise -/

/-- A block coordinatewise: `mlp σ Wd Wu x i = ∑ j, Wd i j * σ ((Wu *ᵥ x) j)`. -/
theorem mlp_apply (σ : ℝ → ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ)
    (x : Fin d → ℝ) (i : Fin d) :
    mlp σ Wd Wu x i = ∑ j, Wd i j * σ ((Wu *ᵥ x) j) := by
  -- `mlp`, `Matrix.mulVec`, `dotProduct` and `∘` unfold definitionally
  first
    | rfl
    | simp only [mlp, Matrix.mulVec, dotProduct, Function.comp_apply]

/-- `(W *ᵥ (t • x)) j = t * (W *ᵥ x) j`. -/
theorem mulVec_smul_apply {m : ℕ} (W : Matrix (Fin m) (Fin d) ℝ) (t : ℝ) (x : Fin d → ℝ)
    (j : Fin m) : (W *ᵥ (t • x)) j = t * (W *ᵥ x) j := by
  -- `Matrix.mulVec_smul : M *ᵥ (b • v) = b • M *ᵥ v`, then `(b • v) j = b * v j`
  first
    | (rw [Matrix.mulVec_smul, Pi.smul_apply, smul_eq_mul]; done)
    | (rw [Matrix.mulVec_smul]; rfl)
    | (simp only [Matrix.mulVec_smul, Pi.smul_apply, smul_eq_mul]; done)

/-- A block at `t • x`, coordinatewise. -/
theorem mlp_smul_apply (σ : ℝ → ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ)
    (Wu : Matrix (Fin n) (Fin d) ℝ) (t : ℝ) (x : Fin d → ℝ) (i : Fin d) :
    mlp σ Wd Wu (t • x) i = ∑ j, Wd i j * σ (t * (Wu *ᵥ x) j) := by
  -- term by term, or `simp only` rewriting under the binder
  first
    | exact (mlp_apply σ Wd Wu (t • x) i).trans (Finset.sum_congr rfl fun j _ =>
        congrArg (fun s => Wd i j * σ s) (mulVec_smul_apply Wu t x j))
    | (rw [mlp_apply]; simp only [mulVec_smul_apply])

/-- `∑ j, w j * (s j / t) = t⁻¹ * ∑ j, w j * s j`. -/
theorem sum_mul_div (w s : Fin n → ℝ) (t : ℝ) :
    ∑ j, w j * (s j / t) = t⁻¹ * ∑ j, w j * s j := by
  -- `Finset.mul_sum : a * ∑ i ∈ s, f i = ∑ i ∈ s, a * f i`, then term by term
  first
    | (rw [Finset.mul_sum]; exact Finset.sum_congr rfl fun j _ => by ring)
    | (simp only [Finset.mul_sum]; exact Finset.sum_congr rfl fun j _ => by ring)

/-! ### Limits -/

/-- A weighted finite sum of convergent functions converges to the weighted sum of the limits. -/
theorem tendsto_sum_mul {f : Fin n → ℝ → ℝ} {a : Fin n → ℝ} (w : Fin n → ℝ)
    (h : ∀ j, Tendsto (f j) atTop (𝓝 (a j))) :
    Tendsto (fun t => ∑ j, w j * f j t) atTop (𝓝 (∑ j, w j * a j)) := by
  -- `tendsto_finsetSum` (named `tendsto_finset_sum` before 2026-04, now a deprecated alias)
  first
    | exact tendsto_finsetSum _ fun j _ => (h j).const_mul (w j)
    | exact tendsto_finset_sum _ fun j _ => (h j).const_mul (w j)

/-- Two functions that agree for every `t > 0` have the same limit at `atTop`. -/
theorem eq_of_tendsto_of_forall_pos_eq {f g : ℝ → ℝ} {a b : ℝ}
    (hf : Tendsto f atTop (𝓝 a)) (hg : Tendsto g atTop (𝓝 b))
    (h : ∀ t, 0 < t → f t = g t) : a = b := by
  have hev : f =ᶠ[atTop] g := by
    first
      | exact (eventually_gt_atTop (0 : ℝ)).mono fun t ht => h t ht
      | (filter_upwards [eventually_gt_atTop (0 : ℝ)] with t ht using h t ht)
  first
    | exact tendsto_nhds_unique_of_eventuallyEq hf hg hev
    | exact tendsto_nhds_unique (hf.congr' hev) hg

/-- **Squeeze by `K / t`.** If `|f t - c| ≤ K * t⁻¹` for every `t > 0`, then `f → c`. -/
theorem tendsto_of_abs_sub_le_mul_inv {f : ℝ → ℝ} {c K : ℝ}
    (h : ∀ t, 0 < t → |f t - c| ≤ K * t⁻¹) : Tendsto f atTop (𝓝 c) := by
  have hinv : Tendsto (fun t : ℝ => K * t⁻¹) atTop (𝓝 (K * 0)) :=
    tendsto_inv_atTop_zero.const_mul K
  have hK0 : K * 0 = 0 := mul_zero K
  rw [hK0] at hinv
  have hlo : Tendsto (fun t : ℝ => c - K * t⁻¹) atTop (𝓝 (c - 0)) :=
    tendsto_const_nhds.sub hinv
  have hhi : Tendsto (fun t : ℝ => c + K * t⁻¹) atTop (𝓝 (c + 0)) :=
    tendsto_const_nhds.add hinv
  have hc1 : c - 0 = c := sub_zero c
  have hc2 : c + 0 = c := add_zero c
  rw [hc1] at hlo
  rw [hc2] at hhi
  refine tendsto_of_tendsto_of_tendsto_of_le_of_le' hlo hhi ?_ ?_
  · first
      | exact (eventually_gt_atTop (0 : ℝ)).mono fun t ht => by
          have hb := abs_le.1 (h t ht)
          show c - K * t⁻¹ ≤ f t
          linarith [hb.1]
      | (filter_upwards [eventually_gt_atTop (0 : ℝ)] with t ht
         linarith [(abs_le.1 (h t ht)).1])
  · first
      | exact (eventually_gt_atTop (0 : ℝ)).mono fun t ht => by
          have hb := abs_le.1 (h t ht)
          show f t ≤ c + K * t⁻¹
          linarith [hb.2]
      | (filter_upwards [eventually_gt_atTop (0 : ℝ)] with t ht
         linarith [(abs_le.1 (h t ht)).2])

/-- A bounded function of anything, divided by `t`, tends to `0`. -/
theorem tendsto_comp_div_zero_of_bounded {σ : ℝ → ℝ} (hσ : ∃ M, ∀ z, |σ z| ≤ M)
    (g : ℝ → ℝ) : Tendsto (fun t => σ (g t) / t) atTop (𝓝 0) := by
  obtain ⟨M, hM⟩ := hσ
  refine tendsto_of_abs_sub_le_mul_inv (K := M) fun t ht => ?_
  have hti : 0 < t⁻¹ := inv_pos.2 ht
  have e : σ (g t) / t - 0 = σ (g t) * t⁻¹ := by ring
  show |σ (g t) / t - 0| ≤ M * t⁻¹
  rw [e, abs_mul, abs_of_pos hti]
  first
    | exact mul_le_mul_of_nonneg_right (hM (g t)) hti.le
    | nlinarith [hM (g t), hti]

/-- **Bounded activations have recession profile `0`**: `|σ| ≤ M` gives `σ (t z) / t → 0`. -/
theorem tendsto_div_zero_of_bounded {σ : ℝ → ℝ} (hσ : ∃ M, ∀ z, |σ z| ≤ M) (z : ℝ) :
    Tendsto (fun t => σ (t * z) / t) atTop (𝓝 0) :=
  tendsto_comp_div_zero_of_bounded hσ (fun t => t * z)

/-! ### R1: the transfer theorem -/

/-- **R1 (transfer).** If `σ (t * z) / t → ρ z` as `t → ∞` for every `z`, every absorbing
block for `σ` is one for `ρ`: `Absorbable σ A Wd Wu → Absorbable ρ A Wd Wu`, with the same
`(Vd, Vu)`. -/
theorem absorbable_of_tendsto_div {σ ρ : ℝ → ℝ} {A : Matrix (Fin d) (Fin d) ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hρ : ∀ z, Tendsto (fun t => σ (t * z) / t) atTop (𝓝 (ρ z)))
    (h : Absorbable σ A Wd Wu) : Absorbable ρ A Wd Wu := by
  unfold Absorbable at h ⊢
  obtain ⟨Vd, Vu, hV⟩ := h
  refine ⟨Vd, Vu, fun x => ?_⟩
  funext i
  -- the identity at `t • x`, coordinate `i`, divided by `t`
  have hscale : ∀ t, 0 < t →
      (A *ᵥ x) i + ∑ j, Wd i j * (σ (t * (Wu *ᵥ x) j) / t)
        = ∑ k, Vd i k * (σ (t * (Vu *ᵥ x) k) / t) := by
    intro t ht
    have e : t * (A *ᵥ x) i + ∑ j, Wd i j * σ (t * (Wu *ᵥ x) j)
        = ∑ k, Vd i k * σ (t * (Vu *ᵥ x) k) := by
      have e0 := congrFun (hV (t • x)) i
      have e1 := mlp_smul_apply σ Wd Wu t x i
      have e2 := mlp_smul_apply σ Vd Vu t x i
      have e3 := mulVec_smul_apply A t x i
      -- route 1: fold the goal back into `e0` (`(f + g) i = f i + g i` is `Pi.add_apply`,
      -- definitional); route 2: a linear combination of `e0`, `e1`, `e2`, `e3`
      first
        | (rw [← e1, ← e2, ← e3]; exact e0)
        | (have e0' : (A *ᵥ (t • x)) i + mlp σ Wd Wu (t • x) i = mlp σ Vd Vu (t • x) i := e0
           linear_combination e0' - e3 - e1 + e2)
        | (rw [Pi.add_apply] at e0; linear_combination e0 - e3 - e1 + e2)
    have h1 : ∑ j, Wd i j * (σ (t * (Wu *ᵥ x) j) / t)
        = t⁻¹ * ∑ j, Wd i j * σ (t * (Wu *ᵥ x) j) := sum_mul_div _ _ t
    have h2 : ∑ k, Vd i k * (σ (t * (Vu *ᵥ x) k) / t)
        = t⁻¹ * ∑ k, Vd i k * σ (t * (Vu *ᵥ x) k) := sum_mul_div _ _ t
    have hinv : t * t⁻¹ = 1 := mul_inv_cancel₀ ht.ne'
    linear_combination h1 - h2 + t⁻¹ * e - (A *ᵥ x) i * hinv
  have hW : Tendsto (fun t => ∑ j, Wd i j * (σ (t * (Wu *ᵥ x) j) / t)) atTop
      (𝓝 (∑ j, Wd i j * ρ ((Wu *ᵥ x) j))) :=
    tendsto_sum_mul (fun j => Wd i j) (fun j => hρ ((Wu *ᵥ x) j))
  have hV' : Tendsto (fun t => ∑ k, Vd i k * (σ (t * (Vu *ᵥ x) k) / t)) atTop
      (𝓝 (∑ k, Vd i k * ρ ((Vu *ᵥ x) k))) :=
    tendsto_sum_mul (fun k => Vd i k) (fun k => hρ ((Vu *ᵥ x) k))
  have hL : Tendsto (fun t => (A *ᵥ x) i + ∑ j, Wd i j * (σ (t * (Wu *ᵥ x) j) / t)) atTop
      (𝓝 ((A *ᵥ x) i + ∑ j, Wd i j * ρ ((Wu *ᵥ x) j))) := by
    first
      | exact tendsto_const_nhds.add hW
      | exact hW.const_add ((A *ᵥ x) i)
  have heq := eq_of_tendsto_of_forall_pos_eq hL hV' hscale
  first
    | show (A *ᵥ x) i + mlp ρ Wd Wu x i = mlp ρ Vd Vu x i
    | (rw [Pi.add_apply]; show (A *ᵥ x) i + mlp ρ Wd Wu x i = mlp ρ Vd Vu x i)
  rw [mlp_apply, mlp_apply]
  exact heq

/-! ### R2: sublinear and bounded activations -/

/-- The zero activation gives the zero block. -/
theorem mlp_zero_fun (W : Matrix (Fin d) (Fin n) ℝ) (U : Matrix (Fin n) (Fin d) ℝ)
    (x : Fin d → ℝ) : mlp (fun _ => (0 : ℝ)) W U x = 0 := by
  have e : (fun _ : ℝ => (0 : ℝ)) ∘ (U *ᵥ x) = 0 := by
    first
      | rfl
      | (funext j; rfl)
  show W *ᵥ ((fun _ : ℝ => (0 : ℝ)) ∘ (U *ᵥ x)) = 0
  rw [e]
  -- `Matrix.mulVec_zero (A) : A *ᵥ 0 = 0`, or coordinatewise: a sum of `W k j * 0`
  first
    | exact Matrix.mulVec_zero W
    | (funext k
       exact Finset.sum_eq_zero fun j _ => mul_zero (W k j))

/-- With the zero activation only the zero skip is absorbable. -/
theorem eq_zero_of_absorbable_zero {A : Matrix (Fin d) (Fin d) ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (h : Absorbable (fun _ => (0 : ℝ)) A Wd Wu) : A = 0 := by
  unfold Absorbable at h
  obtain ⟨Vd, Vu, hV⟩ := h
  have hA : ∀ x, A *ᵥ x = 0 := by
    intro x
    have e := hV x
    first
      | (rw [mlp_zero_fun, mlp_zero_fun, add_zero] at e; exact e)
      | (simp only [mlp_zero_fun, add_zero] at e; exact e)
  -- `Matrix.ext_iff_mulVec : A = B ↔ ∀ v, A *ᵥ v = B *ᵥ v`, as a term or by rewriting
  first
    | exact Matrix.ext_iff_mulVec.2 fun x => (hA x).trans (Matrix.zero_mulVec x).symm
    | (rw [Matrix.ext_iff_mulVec]
       intro x
       rw [Matrix.zero_mulVec]
       exact hA x)

/-- **R2.** If `σ (t * z) / t → 0` for every `z` (a sublinear activation), a block with
activation `σ` absorbs only the zero skip. -/
theorem eq_zero_of_absorbable_of_tendsto_div_zero {σ : ℝ → ℝ} {A : Matrix (Fin d) (Fin d) ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hσ : ∀ z, Tendsto (fun t => σ (t * z) / t) atTop (𝓝 0)) :
    Absorbable σ A Wd Wu → A = 0 := fun h =>
  eq_zero_of_absorbable_zero (absorbable_of_tendsto_div (ρ := fun _ => (0 : ℝ)) hσ h)

/-- **R2, bounded activations** (tanh, sigmoid, erf, arctan, sin, …): a block whose activation
is bounded absorbs no skip `A ≠ 0`, for any `d`, `n` and weights. -/
theorem eq_zero_of_absorbable_of_bounded {σ : ℝ → ℝ} {A : Matrix (Fin d) (Fin d) ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hσ : ∃ M, ∀ z, |σ z| ≤ M) : Absorbable σ A Wd Wu → A = 0 :=
  eq_zero_of_absorbable_of_tendsto_div_zero (tendsto_div_zero_of_bounded hσ)

end SkipAbsorption
