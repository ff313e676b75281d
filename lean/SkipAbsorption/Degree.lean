import SkipAbsorption.Asymptotics
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.Ring
import Mathlib.Tactic.NormNum

/-!
# The degree argument (paper Proposition 5)

If the block is positively homogeneous of degree `k ≠ 1` (ReLU², ReLU³, ReGLU, ...), then no
nonzero linear skip `A` (invertible or not) can be absorbed, for every choice of weights.

* `eq_zero_of_add_posHomogeneous_eq`: pointwise core. If `M (2 • x) = 2 • M x`, `f` and `g`
  are positively homogeneous of degree `k ≠ 1` and `M x + f x = g x` for all `x`, then
  `M x = 0`. (Compare `x` with `2 • x`: `2 M x = 2 ^ k M x`.)
* `not_linear_add_eq_of_posHomogeneous`: the abstract statement for a linear map `M ≠ 0`.
* `not_absorbable_of_posHomogeneous`: ungated blocks, activation homogeneous of degree `k ≠ 1`.
* `not_gatedAbsorbable_of_posHomogeneous`: gated blocks, gate homogeneous of degree `m ≠ 0`
  (the block then has degree `m + 1 ≠ 1`).

Homogeneity of an activation is stated as `∀ t : ℝ, 0 < t → ∀ z, σ (t * z) = t ^ k * σ z`.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- `2 ^ k ≠ 2` in `ℝ` unless `k = 1`. -/
theorem two_pow_ne_two {k : ℕ} (hk : k ≠ 1) : (2 : ℝ) ^ k ≠ 2 := by
  intro h
  apply hk
  have h' : (2 : ℝ) ^ k = 2 ^ 1 := by
    rw [pow_one]
    exact h
  -- `pow_right_inj₀ (ha₀ : 0 < a) (ha₁ : a ≠ 1) : a ^ m = a ^ n ↔ m = n` (read, 2025+ file)
  first
    | exact (pow_right_inj₀ (by norm_num : (0 : ℝ) < 2) (by norm_num : (2 : ℝ) ≠ 1)).mp h'
    | exact pow_right_injective₀ (by norm_num : (0 : ℝ) < 2) (by norm_num : (2 : ℝ) ≠ 1) h'

/-- Pointwise core of the degree argument: compare `x` with `2 • x`. -/
theorem eq_zero_of_add_posHomogeneous_eq {E : Type*} [AddCommGroup E] [Module ℝ E] {k : ℕ}
    (hk : k ≠ 1) {M f g : E → E} (hM : ∀ x, M ((2 : ℝ) • x) = (2 : ℝ) • M x)
    (hf : ∀ t : ℝ, 0 < t → ∀ x, f (t • x) = t ^ k • f x)
    (hg : ∀ t : ℝ, 0 < t → ∀ x, g (t • x) = t ^ k • g x)
    (h : ∀ x, M x + f x = g x) (x : E) : M x = 0 := by
  -- Every intermediate equation is stated in this file's terms, so that each `rw` matches
  -- syntactically; the library lemmas enter only as terms.
  have e1 : M ((2 : ℝ) • x) = (2 : ℝ) • M x := hM x
  have e2 : f ((2 : ℝ) • x) = (2 : ℝ) ^ k • f x := hf 2 (by norm_num) x
  have e3 : g ((2 : ℝ) • x) = (2 : ℝ) ^ k • g x := hg 2 (by norm_num) x
  have e4 : (2 : ℝ) ^ k • g x = (2 : ℝ) ^ k • M x + (2 : ℝ) ^ k • f x := by
    rw [← h x]
    exact smul_add ..
  -- h2 : 2 • M x + 2 ^ k • f x = 2 ^ k • M x + 2 ^ k • f x  (the equation at `2 • x`)
  have h2 : (2 : ℝ) • M x + (2 : ℝ) ^ k • f x = (2 : ℝ) ^ k • M x + (2 : ℝ) ^ k • f x := by
    rw [← e4, ← e3, ← e1, ← e2]
    exact h ((2 : ℝ) • x)
  have h3' : (2 : ℝ) • M x = (2 : ℝ) ^ k • M x := add_right_cancel h2
  have h3 : ((2 : ℝ) - 2 ^ k) • M x = 0 :=
    calc ((2 : ℝ) - 2 ^ k) • M x = (2 : ℝ) • M x - (2 : ℝ) ^ k • M x := sub_smul ..
      _ = (2 : ℝ) ^ k • M x - (2 : ℝ) ^ k • M x := by rw [h3']
      _ = 0 := sub_self ..
  have hc : (2 : ℝ) - 2 ^ k ≠ 0 := by
    intro hc0
    exact two_pow_ne_two hk (by linarith)
  calc M x = ((2 : ℝ) - 2 ^ k)⁻¹ • (((2 : ℝ) - 2 ^ k) • M x) := (inv_smul_smul₀ hc (M x)).symm
    _ = 0 := by
      rw [h3]
      exact smul_zero ..

/-- **Abstract degree lemma.** A nonzero linear map plus a positively homogeneous map of
degree `k ≠ 1` is never a positively homogeneous map of the same degree. -/
theorem not_linear_add_eq_of_posHomogeneous {E : Type*} [AddCommGroup E] [Module ℝ E] {k : ℕ}
    (hk : k ≠ 1) (M : E →ₗ[ℝ] E) (hM : M ≠ 0) {f g : E → E}
    (hf : ∀ t : ℝ, 0 < t → ∀ x, f (t • x) = t ^ k • f x)
    (hg : ∀ t : ℝ, 0 < t → ∀ x, g (t • x) = t ^ k • g x) :
    ¬ ∀ x, M x + f x = g x := by
  intro h
  apply hM
  ext x
  rw [LinearMap.zero_apply]
  have hM2 : ∀ y : E, M ((2 : ℝ) • y) = (2 : ℝ) • M y := by
    intro y
    first
      | exact map_smul M (2 : ℝ) y
      | exact map_smulₛₗ M (2 : ℝ) y
      | simp
  exact eq_zero_of_add_posHomogeneous_eq hk (M := fun v => M v) hM2 hf hg h x

/-- An ungated block with an activation homogeneous of degree `k` is homogeneous of degree `k`. -/
theorem mlp_smul {σ : ℝ → ℝ} {k : ℕ} (hσ : ∀ t : ℝ, 0 < t → ∀ z, σ (t * z) = t ^ k * σ z)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) {t : ℝ} (ht : 0 < t)
    (x : Fin d → ℝ) : mlp σ Wd Wu (t • x) = t ^ k • mlp σ Wd Wu x := by
  have h : σ ∘ (Wu *ᵥ (t • x)) = t ^ k • (σ ∘ (Wu *ᵥ x)) := by
    funext i
    -- one hidden unit; `(t • v) i = t * v i` holds by definitional unfolding
    have e : (Wu *ᵥ (t • x)) i = t * (Wu *ᵥ x) i := congrFun (Matrix.mulVec_smul Wu t x) i
    show σ ((Wu *ᵥ (t • x)) i) = t ^ k * σ ((Wu *ᵥ x) i)
    rw [e]
    exact hσ t ht _
  show Wd *ᵥ (σ ∘ (Wu *ᵥ (t • x))) = t ^ k • Wd *ᵥ (σ ∘ (Wu *ᵥ x))
  first
    | exact (congrArg (fun v => Wd *ᵥ v) h).trans (Matrix.mulVec_smul Wd (t ^ k) _)
    | (rw [h]; exact Matrix.mulVec_smul Wd (t ^ k) (σ ∘ (Wu *ᵥ x)))

/-- A gated block with a gate homogeneous of degree `m` is homogeneous of degree `m + 1`. -/
theorem gatedMlp_smul {g : ℝ → ℝ} {m : ℕ} (hg : ∀ t : ℝ, 0 < t → ∀ z, g (t * z) = t ^ m * g z)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ) {t : ℝ} (ht : 0 < t)
    (x : Fin d → ℝ) : gatedMlp g Wd Wg Wv (t • x) = t ^ (m + 1) • gatedMlp g Wd Wg Wv x := by
  have h : (fun i => g ((Wg *ᵥ (t • x)) i) * (Wv *ᵥ (t • x)) i)
      = t ^ (m + 1) • (fun i => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i) := by
    funext i
    have eg : (Wg *ᵥ (t • x)) i = t * (Wg *ᵥ x) i := congrFun (Matrix.mulVec_smul Wg t x) i
    have ev : (Wv *ᵥ (t • x)) i = t * (Wv *ᵥ x) i := congrFun (Matrix.mulVec_smul Wv t x) i
    show g ((Wg *ᵥ (t • x)) i) * (Wv *ᵥ (t • x)) i
      = t ^ (m + 1) * (g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i)
    rw [eg, ev, hg t ht]
    ring
  show Wd *ᵥ (fun i => g ((Wg *ᵥ (t • x)) i) * (Wv *ᵥ (t • x)) i)
    = t ^ (m + 1) • Wd *ᵥ (fun i => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i)
  first
    | exact (congrArg (fun v => Wd *ᵥ v) h).trans (Matrix.mulVec_smul Wd (t ^ (m + 1)) _)
    | (rw [h]; exact Matrix.mulVec_smul Wd (t ^ (m + 1)) _)

/-- **Paper Proposition 5 (ungated).** If `σ` is positively homogeneous of degree `k ≠ 1`,
no nonzero skip `A` is absorbable, whatever the weights. -/
theorem not_absorbable_of_posHomogeneous {σ : ℝ → ℝ} {k : ℕ} (hk : k ≠ 1)
    (hσ : ∀ t : ℝ, 0 < t → ∀ z, σ (t * z) = t ^ k * σ z)
    {A : Matrix (Fin d) (Fin d) ℝ} (hA : A ≠ 0)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) :
    ¬ Absorbable σ A Wd Wu := by
  intro hab
  unfold Absorbable at hab
  obtain ⟨Vd, Vu, h⟩ := hab
  apply hA
  rw [Matrix.ext_iff_mulVec]
  intro x
  rw [Matrix.zero_mulVec]
  exact eq_zero_of_add_posHomogeneous_eq hk (M := fun v => A *ᵥ v)
    (f := mlp σ Wd Wu) (g := mlp σ Vd Vu)
    (fun v => Matrix.mulVec_smul A (2 : ℝ) v)
    (fun t ht v => mlp_smul hσ Wd Wu ht v) (fun t ht v => mlp_smul hσ Vd Vu ht v) h x

/-- **Paper Proposition 5 (gated).** If the gate `g` is positively homogeneous of degree
`m ≠ 0` (e.g. ReGLU, `m = 1`), the gated block has degree `m + 1 ≠ 1`, and no nonzero skip
`A` is absorbable, whatever the weights. -/
theorem not_gatedAbsorbable_of_posHomogeneous {g : ℝ → ℝ} {m : ℕ} (hm : m ≠ 0)
    (hg : ∀ t : ℝ, 0 < t → ∀ z, g (t * z) = t ^ m * g z)
    {A : Matrix (Fin d) (Fin d) ℝ} (hA : A ≠ 0)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ) :
    ¬ GatedAbsorbable g A Wd Wg Wv := by
  intro hab
  unfold GatedAbsorbable at hab
  obtain ⟨Vd, Vg, Vv, h⟩ := hab
  apply hA
  rw [Matrix.ext_iff_mulVec]
  intro x
  rw [Matrix.zero_mulVec]
  have hk : m + 1 ≠ 1 := by omega
  exact eq_zero_of_add_posHomogeneous_eq hk (M := fun v => A *ᵥ v)
    (f := gatedMlp g Wd Wg Wv) (g := gatedMlp g Vd Vg Vv)
    (fun v => Matrix.mulVec_smul A (2 : ℝ) v)
    (fun t ht v => gatedMlp_smul hg Wd Wg Wv ht v)
    (fun t ht v => gatedMlp_smul hg Vd Vg Vv ht v) h x

end SkipAbsorption
