import SkipAbsorption.Defs
import Mathlib.Analysis.SpecialFunctions.Pow.Real
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.LinearCombination
import Mathlib.Tactic.Ring
import Mathlib.Tactic.NormNum
import Mathlib.Tactic.Positivity
import Mathlib.Analysis.Asymptotics.Lemmas
import Mathlib.Analysis.Normed.Module.RCLike.Real

/-!
# The degree argument (paper Proposition 5), for natural and for real degrees

If the block is positively homogeneous of degree `k ≠ 1` (ReLU², ReLU³, ReGLU, `max(z, 0)^{3/2}`,
...), then no nonzero linear skip `A` (invertible or not) can be absorbed, for every choice of
weights. Compare `x` with `2 • x`: `2 M x = 2 ^ k M x`, and `2 ^ k ≠ 2`.

Pointwise cores (each the "compare `x` with `2 • x`" step):
* `eq_zero_of_add_posHomogeneous_eq`: natural degree, in any real vector space;
* `eq_zero_of_add_eq_of_smul_two`: any scale `c ≠ 2` (`f (2 • x) = c • f x`), in any real
  vector space;
* `mulVec_eq_zero_of_add_eq_of_smul_two`: the same for `A *ᵥ x` on `Fin d → ℝ`, proved
  coordinate by coordinate in `ℝ` (a second route that needs no `Module` instance to match).

Natural degrees (`k : ℕ`, `t ^ k` is `Monoid.npow`):
* `not_linear_add_eq_of_posHomogeneous`: the abstract statement for a linear map `M ≠ 0`;
* `not_absorbable_of_posHomogeneous`: ungated blocks, activation homogeneous of degree `k ≠ 1`;
* `not_gatedAbsorbable_of_posHomogeneous`: gated blocks, gate homogeneous of degree `m ≠ 0`
  (the block then has degree `m + 1 ≠ 1`).

Real degrees (`k : ℝ`, `t ^ k` is `Real.rpow`; they contain the natural ones through
`Real.rpow_natCast`): `not_linear_add_eq_of_posHomogeneous_rpow`,
`not_absorbable_of_posHomogeneous_rpow`, `not_gatedAbsorbable_of_posHomogeneous_rpow`, with the
same argument order as the natural versions. `not_absorbable_of_posHomogeneous` and
`not_gatedAbsorbable_of_posHomogeneous` keep their own proofs; each also has a route through
the coordinate core and one through the real-degree lemmas.

Homogeneity of an activation is stated as `∀ t : ℝ, 0 < t → ∀ z, σ (t * z) = t ^ k * σ z`.

Homogeneity and little-o: `isLittleO_of_posHomogeneous` (an activation positively homogeneous of
degree `k > 1` is `o(z)` at `0`), the premise behind the depth corollary for ReLU², ReLU³ and the
certificate rule `little_o_homogeneous`; it lives here (moved from `SkipAbsorption.Depth`, issue
23) so that the premise files of ReLU² and ReLU³ need no file of the linearisation argument.

Imports: `SkipAbsorption.Defs`, `Real.rpow`, Mathlib's asymptotics and tactics only, so that a
failure elsewhere in the library does not reach this file.
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

/-- `2 ^ k ≠ 2` in `ℝ` for a real exponent `k ≠ 1` (`Real.rpow`): `x ↦ 2 ^ x` is strictly
increasing and `2 ^ 1 = 2`. -/
theorem two_rpow_ne_two {k : ℝ} (hk : k ≠ 1) : (2 : ℝ) ^ k ≠ 2 := by
  intro h
  -- `Real.rpow_one (x : ℝ) : x ^ (1 : ℝ) = x`
  have h1 : (2 : ℝ) ^ (1 : ℝ) = 2 := Real.rpow_one 2
  rcases lt_trichotomy k 1 with hlt | heq | hgt
  · -- `k < 1`: `2 ^ k < 2 ^ 1`
    have hl : (2 : ℝ) ^ k < (2 : ℝ) ^ (1 : ℝ) := by
      first
        | exact Real.rpow_lt_rpow_of_exponent_lt (by norm_num) hlt
        | exact (Real.rpow_lt_rpow_left_iff (by norm_num)).2 hlt
    -- `2 ^ (1 : ℝ)` becomes `2` (and `h1` is cleared) before `linarith`: its parser reads `a ^ n`
    -- with a numeral `n` as a power whatever the exponent's type, while its final `ring1` check
    -- treats `Real.rpow` as an atom
    rw [h1] at hl
    clear h1
    first
      | linarith
      | exact absurd h (ne_of_lt hl)
  · exact hk heq
  · -- `1 < k`: `2 ^ 1 < 2 ^ k`
    have hl : (2 : ℝ) ^ (1 : ℝ) < (2 : ℝ) ^ k := by
      first
        | exact Real.rpow_lt_rpow_of_exponent_lt (by norm_num) hgt
        | exact (Real.rpow_lt_rpow_left_iff (by norm_num)).2 hgt
    rw [h1] at hl
    clear h1
    first
      | linarith
      | exact absurd h (ne_of_gt hl)

/-- Pointwise core for any scale `c ≠ 2`: if `M (2 • x) = 2 • M x`, `f (2 • x) = c • f x`,
`g (2 • x) = c • g x` and `M x + f x = g x` for all `x`, then `M x = 0`. -/
theorem eq_zero_of_add_eq_of_smul_two {E : Type*} [AddCommGroup E] [Module ℝ E] {c : ℝ}
    (hc : c ≠ 2) {M f g : E → E} (hM : ∀ x, M ((2 : ℝ) • x) = (2 : ℝ) • M x)
    (hf : ∀ x, f ((2 : ℝ) • x) = c • f x) (hg : ∀ x, g ((2 : ℝ) • x) = c • g x)
    (h : ∀ x, M x + f x = g x) (x : E) : M x = 0 := by
  -- as in `eq_zero_of_add_posHomogeneous_eq`: every `rw` acts on an equation stated here
  have e1 : M ((2 : ℝ) • x) = (2 : ℝ) • M x := hM x
  have e2 : f ((2 : ℝ) • x) = c • f x := hf x
  have e3 : g ((2 : ℝ) • x) = c • g x := hg x
  have e4 : c • g x = c • M x + c • f x := by
    rw [← h x]
    exact smul_add ..
  -- h2 : 2 • M x + c • f x = c • M x + c • f x  (the equation at `2 • x`)
  have h2 : (2 : ℝ) • M x + c • f x = c • M x + c • f x := by
    rw [← e4, ← e3, ← e1, ← e2]
    exact h ((2 : ℝ) • x)
  have h3' : (2 : ℝ) • M x = c • M x := add_right_cancel h2
  have h3 : ((2 : ℝ) - c) • M x = 0 :=
    calc ((2 : ℝ) - c) • M x = (2 : ℝ) • M x - c • M x := sub_smul ..
      _ = c • M x - c • M x := by rw [h3']
      _ = 0 := sub_self ..
  have hc' : (2 : ℝ) - c ≠ 0 := by
    intro hc0
    exact hc (by linarith)
  calc M x = ((2 : ℝ) - c)⁻¹ • (((2 : ℝ) - c) • M x) := (inv_smul_smul₀ hc' (M x)).symm
    _ = 0 := by
      rw [h3]
      exact smul_zero ..

/-- Pointwise core on `Fin d → ℝ`, coordinate by coordinate: if `F (2 • x) = c • F x`,
`G (2 • x) = c • G x` with `c ≠ 2` and `A x + F x = G x` for all `x`, then `A x = 0`.
Every step is an equation in `ℝ`; no `Module` instance has to match a lemma's. -/
theorem mulVec_eq_zero_of_add_eq_of_smul_two {c : ℝ} (hc : c ≠ 2)
    {A : Matrix (Fin d) (Fin d) ℝ} {F G : (Fin d → ℝ) → Fin d → ℝ}
    (hF : ∀ x, F ((2 : ℝ) • x) = c • F x) (hG : ∀ x, G ((2 : ℝ) • x) = c • G x)
    (h : ∀ x, A *ᵥ x + F x = G x) (x : Fin d → ℝ) : A *ᵥ x = 0 := by
  funext i
  -- the equation at `x` and at `2 • x`, in coordinate `i` (`(u + v) i = u i + v i` and
  -- `(c • u) i = c * u i` hold by unfolding)
  have e1 : (A *ᵥ x) i + F x i = G x i := by
    first
      | exact congrFun (h x) i
      | simpa only [Pi.add_apply] using congrFun (h x) i
  have e2 : (A *ᵥ ((2 : ℝ) • x)) i + F ((2 : ℝ) • x) i = G ((2 : ℝ) • x) i := by
    first
      | exact congrFun (h ((2 : ℝ) • x)) i
      | simpa only [Pi.add_apply] using congrFun (h ((2 : ℝ) • x)) i
  have e3 : (A *ᵥ ((2 : ℝ) • x)) i = 2 * (A *ᵥ x) i := by
    first
      | exact congrFun (Matrix.mulVec_smul A (2 : ℝ) x) i
      | simp only [Matrix.mulVec_smul, Pi.smul_apply, smul_eq_mul]
  have e4 : F ((2 : ℝ) • x) i = c * F x i := by
    first
      | exact congrFun (hF x) i
      | simp only [hF x, Pi.smul_apply, smul_eq_mul]
  have e5 : G ((2 : ℝ) • x) i = c * G x i := by
    first
      | exact congrFun (hG x) i
      | simp only [hG x, Pi.smul_apply, smul_eq_mul]
  rw [e3, e4, e5] at e2
  -- e2 : 2 * a + c * f = c * g,  e1 : a + f = g,  so (2 - c) * a = 0
  have h6 : ((2 : ℝ) - c) * (A *ᵥ x) i = 0 := by linear_combination e2 - c * e1
  have h7 : (2 : ℝ) - c ≠ 0 := by
    intro h0
    exact hc (by linarith)
  have h8 : (A *ᵥ x) i = 0 := by
    rcases mul_eq_zero.mp h6 with h9 | h9
    · exact absurd h9 h7
    · exact h9
  -- the goal is `(A *ᵥ x) i = (0 : Fin d → ℝ) i`
  first
    | exact h8
    | (simp only [Pi.zero_apply]; exact h8)

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
    -- one hidden unit; `(t • v) i = t * v i` holds by unfolding (or by `Pi.smul_apply`)
    have e : (Wu *ᵥ (t • x)) i = t * (Wu *ᵥ x) i := by
      first
        | exact congrFun (Matrix.mulVec_smul Wu t x) i
        | simp only [Matrix.mulVec_smul, Pi.smul_apply, smul_eq_mul]
    have e' : σ ((Wu *ᵥ (t • x)) i) = t ^ k * σ ((Wu *ᵥ x) i) := by
      rw [e]
      exact hσ t ht _
    first
      | exact e'
      | (simp only [Function.comp_apply, Pi.smul_apply, smul_eq_mul]; exact e')
  first
    | show Wd *ᵥ (σ ∘ (Wu *ᵥ (t • x))) = t ^ k • Wd *ᵥ (σ ∘ (Wu *ᵥ x))
    | unfold mlp
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
    have eg : (Wg *ᵥ (t • x)) i = t * (Wg *ᵥ x) i := by
      first
        | exact congrFun (Matrix.mulVec_smul Wg t x) i
        | simp only [Matrix.mulVec_smul, Pi.smul_apply, smul_eq_mul]
    have ev : (Wv *ᵥ (t • x)) i = t * (Wv *ᵥ x) i := by
      first
        | exact congrFun (Matrix.mulVec_smul Wv t x) i
        | simp only [Matrix.mulVec_smul, Pi.smul_apply, smul_eq_mul]
    have e' : g ((Wg *ᵥ (t • x)) i) * (Wv *ᵥ (t • x)) i
        = t ^ (m + 1) * (g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i) := by
      rw [eg, ev, hg t ht]
      ring
    first
      | exact e'
      | (simp only [Pi.smul_apply, smul_eq_mul]; exact e')
  first
    | show Wd *ᵥ (fun i => g ((Wg *ᵥ (t • x)) i) * (Wv *ᵥ (t • x)) i)
        = t ^ (m + 1) • Wd *ᵥ (fun i => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i)
    | unfold gatedMlp
  first
    | exact (congrArg (fun v => Wd *ᵥ v) h).trans (Matrix.mulVec_smul Wd (t ^ (m + 1)) _)
    | (rw [h]; exact Matrix.mulVec_smul Wd (t ^ (m + 1)) _)

/-! ### Real degrees (`t ^ k` is `Real.rpow`) -/

/-- **Abstract degree lemma, real degree.** A nonzero linear map plus a positively homogeneous
map of real degree `k ≠ 1` is never a positively homogeneous map of the same degree. -/
theorem not_linear_add_eq_of_posHomogeneous_rpow {E : Type*} [AddCommGroup E] [Module ℝ E]
    {k : ℝ} (hk : k ≠ 1) (M : E →ₗ[ℝ] E) (hM : M ≠ 0) {f g : E → E}
    (hf : ∀ t : ℝ, 0 < t → ∀ x, f (t • x) = t ^ k • f x)
    (hg : ∀ t : ℝ, 0 < t → ∀ x, g (t • x) = t ^ k • g x) :
    ¬ ∀ x, M x + f x = g x := by
  intro h
  apply hM
  ext x
  have hM2 : ∀ y : E, M ((2 : ℝ) • y) = (2 : ℝ) • M y := by
    intro y
    first
      | exact map_smul M (2 : ℝ) y
      | exact map_smulₛₗ M (2 : ℝ) y
      | simp
  have hx : M x = 0 :=
    eq_zero_of_add_eq_of_smul_two (two_rpow_ne_two hk) (M := fun v => M v) hM2
      (fun v => hf 2 (by norm_num) v) (fun v => hg 2 (by norm_num) v) h x
  -- the goal is `M x = (0 : E →ₗ[ℝ] E) x`
  first
    | (rw [LinearMap.zero_apply]; exact hx)
    | exact hx

/-- An ungated block with an activation homogeneous of real degree `k` is homogeneous of
degree `k`. -/
theorem mlp_smul_rpow {σ : ℝ → ℝ} {k : ℝ} (hσ : ∀ t : ℝ, 0 < t → ∀ z, σ (t * z) = t ^ k * σ z)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) {t : ℝ} (ht : 0 < t)
    (x : Fin d → ℝ) : mlp σ Wd Wu (t • x) = t ^ k • mlp σ Wd Wu x := by
  have h : σ ∘ (Wu *ᵥ (t • x)) = t ^ k • (σ ∘ (Wu *ᵥ x)) := by
    funext i
    -- one hidden unit; `(t • v) i = t * v i` holds by unfolding (or by `Pi.smul_apply`)
    have e : (Wu *ᵥ (t • x)) i = t * (Wu *ᵥ x) i := by
      first
        | exact congrFun (Matrix.mulVec_smul Wu t x) i
        | simp only [Matrix.mulVec_smul, Pi.smul_apply, smul_eq_mul]
    have e' : σ ((Wu *ᵥ (t • x)) i) = t ^ k * σ ((Wu *ᵥ x) i) := by
      rw [e]
      exact hσ t ht _
    first
      | exact e'
      | (simp only [Function.comp_apply, Pi.smul_apply, smul_eq_mul]; exact e')
  first
    | show Wd *ᵥ (σ ∘ (Wu *ᵥ (t • x))) = t ^ k • Wd *ᵥ (σ ∘ (Wu *ᵥ x))
    | unfold mlp
  first
    | exact (congrArg (fun v => Wd *ᵥ v) h).trans (Matrix.mulVec_smul Wd (t ^ k) _)
    | (rw [h]; exact Matrix.mulVec_smul Wd (t ^ k) (σ ∘ (Wu *ᵥ x)))

/-- A gated block whose gate is homogeneous of real degree `m` is homogeneous of degree
`m + 1`. -/
theorem gatedMlp_smul_rpow {g : ℝ → ℝ} {m : ℝ}
    (hg : ∀ t : ℝ, 0 < t → ∀ z, g (t * z) = t ^ m * g z)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ) {t : ℝ} (ht : 0 < t)
    (x : Fin d → ℝ) :
    gatedMlp g Wd Wg Wv (t • x) = t ^ (m + 1) • gatedMlp g Wd Wg Wv x := by
  -- `Real.rpow_add_one (hx : x ≠ 0) (y) : x ^ (y + 1) = x ^ y * x`
  have hp : t ^ (m + 1) = t ^ m * t := by
    first
      | exact Real.rpow_add_one ht.ne' m
      | rw [Real.rpow_add ht, Real.rpow_one]
  have h : (fun i => g ((Wg *ᵥ (t • x)) i) * (Wv *ᵥ (t • x)) i)
      = t ^ (m + 1) • (fun i => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i) := by
    funext i
    have eg : (Wg *ᵥ (t • x)) i = t * (Wg *ᵥ x) i := by
      first
        | exact congrFun (Matrix.mulVec_smul Wg t x) i
        | simp only [Matrix.mulVec_smul, Pi.smul_apply, smul_eq_mul]
    have ev : (Wv *ᵥ (t • x)) i = t * (Wv *ᵥ x) i := by
      first
        | exact congrFun (Matrix.mulVec_smul Wv t x) i
        | simp only [Matrix.mulVec_smul, Pi.smul_apply, smul_eq_mul]
    have e' : g ((Wg *ᵥ (t • x)) i) * (Wv *ᵥ (t • x)) i
        = t ^ (m + 1) * (g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i) := by
      rw [eg, ev, hg t ht, hp]
      -- `t ^ m` (`Real.rpow`) is an atom for `ring`
      ring
    first
      | exact e'
      | (simp only [Pi.smul_apply, smul_eq_mul]; exact e')
  first
    | show Wd *ᵥ (fun i => g ((Wg *ᵥ (t • x)) i) * (Wv *ᵥ (t • x)) i)
        = t ^ (m + 1) • Wd *ᵥ (fun i => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i)
    | unfold gatedMlp
  first
    | exact (congrArg (fun v => Wd *ᵥ v) h).trans (Matrix.mulVec_smul Wd (t ^ (m + 1)) _)
    | (rw [h]; exact Matrix.mulVec_smul Wd (t ^ (m + 1)) _)

/-- **Paper Proposition 5 (ungated), real degree.** If `σ` is positively homogeneous of real
degree `k ≠ 1` (`σ (t z) = t ^ k σ z` for `t > 0`, `t ^ k` the real power, e.g.
`max(z, 0) ^ (3/2)`), no nonzero skip `A` is absorbable, whatever the weights. -/
theorem not_absorbable_of_posHomogeneous_rpow {σ : ℝ → ℝ} {k : ℝ} (hk : k ≠ 1)
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
  have h2 : (0 : ℝ) < 2 := by norm_num
  have hc : (2 : ℝ) ^ k ≠ 2 := two_rpow_ne_two hk
  -- route 1: coordinates in `ℝ`; route 2: the abstract core in the module `Fin d → ℝ`
  first
    | exact mulVec_eq_zero_of_add_eq_of_smul_two hc (F := mlp σ Wd Wu) (G := mlp σ Vd Vu)
        (fun v => mlp_smul_rpow hσ Wd Wu h2 v) (fun v => mlp_smul_rpow hσ Vd Vu h2 v) h x
    | exact eq_zero_of_add_eq_of_smul_two hc (M := fun v => A *ᵥ v)
        (f := mlp σ Wd Wu) (g := mlp σ Vd Vu)
        (fun v => Matrix.mulVec_smul A (2 : ℝ) v)
        (fun v => mlp_smul_rpow hσ Wd Wu h2 v) (fun v => mlp_smul_rpow hσ Vd Vu h2 v) h x

/-- **Paper Proposition 5 (gated), real degree.** If the gate `g` is positively homogeneous of
real degree `m ≠ 0`, the gated block has degree `m + 1 ≠ 1`, and no nonzero skip `A` is
absorbable, whatever the weights. -/
theorem not_gatedAbsorbable_of_posHomogeneous_rpow {g : ℝ → ℝ} {m : ℝ} (hm : m ≠ 0)
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
  have h2 : (0 : ℝ) < 2 := by norm_num
  have hk : m + 1 ≠ 1 := by
    intro h1
    apply hm
    linarith
  have hc : (2 : ℝ) ^ (m + 1) ≠ 2 := two_rpow_ne_two hk
  first
    | exact mulVec_eq_zero_of_add_eq_of_smul_two hc (F := gatedMlp g Wd Wg Wv)
        (G := gatedMlp g Vd Vg Vv)
        (fun v => gatedMlp_smul_rpow hg Wd Wg Wv h2 v)
        (fun v => gatedMlp_smul_rpow hg Vd Vg Vv h2 v) h x
    | exact eq_zero_of_add_eq_of_smul_two hc (M := fun v => A *ᵥ v)
        (f := gatedMlp g Wd Wg Wv) (g := gatedMlp g Vd Vg Vv)
        (fun v => Matrix.mulVec_smul A (2 : ℝ) v)
        (fun v => gatedMlp_smul_rpow hg Wd Wg Wv h2 v)
        (fun v => gatedMlp_smul_rpow hg Vd Vg Vv h2 v) h x

/-! ### Natural degrees: the skip is not absorbed -/

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
  -- route 1: the abstract natural-degree core; route 2: coordinates in `ℝ`; route 3: through
  -- the real-degree lemmas (`Real.rpow_natCast : x ^ (n : ℝ) = x ^ n`)
  first
    | exact eq_zero_of_add_posHomogeneous_eq hk (M := fun v => A *ᵥ v)
        (f := mlp σ Wd Wu) (g := mlp σ Vd Vu)
        (fun v => Matrix.mulVec_smul A (2 : ℝ) v)
        (fun t ht v => mlp_smul hσ Wd Wu ht v) (fun t ht v => mlp_smul hσ Vd Vu ht v) h x
    | exact mulVec_eq_zero_of_add_eq_of_smul_two (two_pow_ne_two hk)
        (F := mlp σ Wd Wu) (G := mlp σ Vd Vu)
        (fun v => mlp_smul hσ Wd Wu (t := 2) (by norm_num) v)
        (fun v => mlp_smul hσ Vd Vu (t := 2) (by norm_num) v) h x
    | (have hk' : (k : ℝ) ≠ 1 := fun h1 => hk (by exact_mod_cast h1)
       have hσ' : ∀ t : ℝ, 0 < t → ∀ z, σ (t * z) = t ^ (k : ℝ) * σ z := by
         intro t ht z
         rw [Real.rpow_natCast]
         exact hσ t ht z
       exact mulVec_eq_zero_of_add_eq_of_smul_two (two_rpow_ne_two hk')
         (F := mlp σ Wd Wu) (G := mlp σ Vd Vu)
         (fun v => mlp_smul_rpow hσ' Wd Wu (t := 2) (by norm_num) v)
         (fun v => mlp_smul_rpow hσ' Vd Vu (t := 2) (by norm_num) v) h x)

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
  first
    | exact eq_zero_of_add_posHomogeneous_eq hk (M := fun v => A *ᵥ v)
        (f := gatedMlp g Wd Wg Wv) (g := gatedMlp g Vd Vg Vv)
        (fun v => Matrix.mulVec_smul A (2 : ℝ) v)
        (fun t ht v => gatedMlp_smul hg Wd Wg Wv ht v)
        (fun t ht v => gatedMlp_smul hg Vd Vg Vv ht v) h x
    | exact mulVec_eq_zero_of_add_eq_of_smul_two (two_pow_ne_two hk)
        (F := gatedMlp g Wd Wg Wv) (G := gatedMlp g Vd Vg Vv)
        (fun v => gatedMlp_smul hg Wd Wg Wv (t := 2) (by norm_num) v)
        (fun v => gatedMlp_smul hg Vd Vg Vv (t := 2) (by norm_num) v) h x
    | (have hm' : (m : ℝ) ≠ 0 := fun h1 => hm (by exact_mod_cast h1)
       have hk' : (m : ℝ) + 1 ≠ 1 := fun h1 => hm' (by linarith)
       have hg' : ∀ t : ℝ, 0 < t → ∀ z, g (t * z) = t ^ (m : ℝ) * g z := by
         intro t ht z
         rw [Real.rpow_natCast]
         exact hg t ht z
       exact mulVec_eq_zero_of_add_eq_of_smul_two (two_rpow_ne_two hk')
         (F := gatedMlp g Wd Wg Wv) (G := gatedMlp g Vd Vg Vv)
         (fun v => gatedMlp_smul_rpow hg' Wd Wg Wv (t := 2) (by norm_num) v)
         (fun v => gatedMlp_smul_rpow hg' Vd Vg Vv (t := 2) (by norm_num) v) h x)

/-! ### Homogeneity of degree `k > 1` gives `o(z)` at `0` -/

section LittleO

open Filter Topology Asymptotics

/-- An activation positively homogeneous of degree `k > 1` is `o(z)` at `0`
(`|σ z| ≤ (|σ 1| + |σ (-1)|) |z| ^ k`). -/
theorem isLittleO_of_posHomogeneous {σ : ℝ → ℝ} {k : ℕ} (hk : 1 < k)
    (hσ : ∀ t : ℝ, 0 < t → ∀ z, σ (t * z) = t ^ k * σ z) :
    σ =o[𝓝 0] (fun z => z) := by
  have h0 : σ 0 = 0 := by
    have h2 : σ (2 * 0) = 2 ^ k * σ 0 := hσ 2 (by norm_num) 0
    rw [mul_zero] at h2
    have hlt : (1 : ℝ) < 2 ^ k := one_lt_pow₀ (by norm_num) (by omega)
    have h3 : ((2 : ℝ) ^ k - 1) * σ 0 = 0 := by linear_combination (-1 : ℝ) * h2
    rcases mul_eq_zero.mp h3 with h | h
    · exfalso
      linarith
    · exact h
  -- The bound in absolute values; in each case the inequality is stated as its own `have`
  -- and closed either by `linarith` on atoms (with the expansion `hexp` given) or by `nlinarith`.
  have habs : ∀ z, |σ z| ≤ (|σ 1| + |σ (-1)|) * |z ^ k| := by
    intro z
    rcases lt_trichotomy z 0 with hz | hz | hz
    · -- `z < 0`: `σ z = (-z) ^ k * σ (-1)`, so `|σ z| = |z| ^ k * |σ (-1)|`
      have e : σ (-z * -1) = (-z) ^ k * σ (-1) := hσ (-z) (by linarith) (-1)
      have hzz : -z * -1 = z := by ring
      rw [hzz] at e
      -- route 3 rewrites only `e` (stated here) and closes by a term, checked at default
      -- transparency (review F of 2026-12-03)
      have e1 : |σ z| = |z| ^ k * |σ (-1)| := by
        first
          | (rw [e, abs_mul, abs_pow, abs_neg]; done)
          | (simp only [e, abs_mul, abs_pow, abs_neg]; done)
          | (rw [e]
             exact (abs_mul ((-z) ^ k) (σ (-1))).trans
               (congrArg (fun r => r * |σ (-1)|)
                 ((abs_pow (-z) k).trans (congrArg (fun r => r ^ k) (abs_neg z)))))
      have e2 : |z ^ k| = |z| ^ k := abs_pow z k
      have hnn : 0 ≤ |σ 1| * |z| ^ k := mul_nonneg (abs_nonneg (σ 1)) (by positivity)
      have hexp : (|σ 1| + |σ (-1)|) * |z| ^ k = |z| ^ k * |σ (-1)| + |σ 1| * |z| ^ k := by
        ring
      have hineq : |z| ^ k * |σ (-1)| ≤ (|σ 1| + |σ (-1)|) * |z| ^ k := by
        first
          | linarith [hnn, hexp]
          | nlinarith [hnn]
      rw [e1, e2]
      exact hineq
    · -- `z = 0`: `σ 0 = 0`
      rw [hz, h0, abs_zero]
      first
        | positivity
        | exact mul_nonneg (by linarith [abs_nonneg (σ 1), abs_nonneg (σ (-1))]) (abs_nonneg _)
    · -- `z > 0`: `σ z = z ^ k * σ 1`
      have e : σ (z * 1) = z ^ k * σ 1 := hσ z hz 1
      have hz1 : z * 1 = z := mul_one z
      rw [hz1] at e
      have e1 : |σ z| = |z ^ k| * |σ 1| := by
        first
          | (rw [e, abs_mul]; done)
          | (simp only [e, abs_mul]; done)
          | (rw [e]
             exact abs_mul (z ^ k) (σ 1))
      have hnn : 0 ≤ |σ (-1)| * |z ^ k| := mul_nonneg (abs_nonneg (σ (-1))) (abs_nonneg (z ^ k))
      have hexp : (|σ 1| + |σ (-1)|) * |z ^ k| = |z ^ k| * |σ 1| + |σ (-1)| * |z ^ k| := by
        ring
      have hineq : |z ^ k| * |σ 1| ≤ (|σ 1| + |σ (-1)|) * |z ^ k| := by
        first
          | linarith [hnn, hexp]
          | nlinarith [hnn]
      rw [e1]
      exact hineq
  -- the same bound with norms (`‖r‖ = |r|` on `ℝ`, also true by unfolding)
  have hbound : ∀ z, ‖σ z‖ ≤ (|σ 1| + |σ (-1)|) * ‖z ^ k‖ := by
    intro z
    first
      | (rw [Real.norm_eq_abs, Real.norm_eq_abs]; exact habs z)
      | simpa only [Real.norm_eq_abs] using habs z
      | exact habs z
  have hO : σ =O[𝓝 0] (fun z : ℝ => z ^ k) := isBigO_of_le' (𝓝 0) hbound
  exact hO.trans_isLittleO (isLittleO_pow_id hk)

end LittleO

end SkipAbsorption
