import SkipAbsorption.Recession

/-!
# Biased blocks (R4): biases do not change absorbability

Research note `recession.md` §5. A biased block is `x ↦ Wd σ(Wu x + b) + e`
(`biasedMlp σ Wd Wu b e`); its skip `A` is absorbed (`BiasedAbsorbable σ A Wd Wu b e`) when
some biased block of the same width, with biases of its own (the output bias `e'` included),
equals `x ↦ A x + Wd σ(Wu x + b) + e` everywhere.

* `biasedAbsorbable_of_sCondition` (sufficiency, the note's construction): if
  `σ z - σ (-z) = c z` with `c ≠ 0` and `Wd * diagonal 1_S * Wu = -(c⁻¹) • A`, keep `Wd`,
  negate the rows of `Wu` and the entries of `b` indexed by `S`, and take
  `e' = e + c • Wd D_S b`.
* `absorbable_of_biasedAbsorbable_of_tendsto` (necessity transfer): if
  `σ (t * z + β) / t → ρ z` for every `z` and `β`, a biased absorbing block gives
  `Absorbable ρ A Wd Wu` (same `Vd`, `Vu`): the identity at `t • x`, divided by `t`, as in R1,
  with `e / t → 0`.
* `tendsto_add_div_zero_of_bounded`, `eq_zero_of_biasedAbsorbable_of_bounded`: a bounded
  activation absorbs no skip `A ≠ 0`, biases or not.

The activation instances are in `BiasedReluLike.lean` and `BiasedBounded.lean`.
Not compiled: no Lean toolchain here.
-/

open Matrix Filter Topology

noncomputable section

namespace SkipAbsorption

variable {d n : ℕ}

/-- Biased ungated block: `x ↦ Wd σ(Wu x + b) + e`, `σ` applied entrywise. -/
def biasedMlp (σ : ℝ → ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ)
    (b : Fin n → ℝ) (e : Fin d → ℝ) (x : Fin d → ℝ) : Fin d → ℝ :=
  Wd *ᵥ (σ ∘ (Wu *ᵥ x + b)) + e

/-- The skip `A` of a biased block is absorbed: some biased block of the same activation and
width, with its own biases `b'`, `e'`, equals `x ↦ A x + biasedMlp σ Wd Wu b e x` everywhere. -/
def BiasedAbsorbable (σ : ℝ → ℝ) (A : Matrix (Fin d) (Fin d) ℝ)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) (b : Fin n → ℝ)
    (e : Fin d → ℝ) : Prop :=
  ∃ (Vd : Matrix (Fin d) (Fin n) ℝ) (Vu : Matrix (Fin n) (Fin d) ℝ) (b' : Fin n → ℝ)
    (e' : Fin d → ℝ), ∀ x, A *ᵥ x + biasedMlp σ Wd Wu b e x = biasedMlp σ Vd Vu b' e' x

end SkipAbsorption

end

namespace SkipAbsorption

open Matrix Filter Topology

variable {d n : ℕ}

/-- A biased block at `t • x`, coordinatewise. -/
theorem biasedMlp_smul_apply (σ : ℝ → ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ)
    (Wu : Matrix (Fin n) (Fin d) ℝ) (b : Fin n → ℝ) (e : Fin d → ℝ) (t : ℝ) (x : Fin d → ℝ)
    (i : Fin d) :
    biasedMlp σ Wd Wu b e (t • x) i = ∑ j, Wd i j * σ (t * (Wu *ᵥ x) j + b j) + e i := by
  have h0 : biasedMlp σ Wd Wu b e (t • x) i
      = ∑ j, Wd i j * σ ((Wu *ᵥ (t • x)) j + b j) + e i := by
    first
      | rfl
      | simp only [biasedMlp, Pi.add_apply, Matrix.mulVec, dotProduct, Function.comp_apply]
  first
    | exact h0.trans (congrArg (fun s => s + e i) (Finset.sum_congr rfl fun j _ =>
        congrArg (fun s => Wd i j * σ (s + b j)) (mulVec_smul_apply Wu t x j)))
    | (rw [h0]; simp only [mulVec_smul_apply])

/-- **R4, sufficiency** (the note's construction). If `σ z - σ (-z) = c z` with `c ≠ 0` and
`Wd[:,S] Wu[S,:] = -(1/c) A` (`Wd * diagonal 1_S * Wu = -(c⁻¹) • A`), the skip `A` of the
biased block is absorbed: keep `Wd`, negate the rows of `Wu` and the entries of `b` in `S`,
and add `c • Wd D_S b` to the output bias. -/
theorem biasedAbsorbable_of_sCondition {σ : ℝ → ℝ} {c : ℝ} (hc : c ≠ 0)
    (hσ : ∀ z, σ z - σ (-z) = c * z) {A : Matrix (Fin d) (Fin d) ℝ}
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) (b : Fin n → ℝ)
    (e : Fin d → ℝ) (S : Finset (Fin n))
    (hS : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -(c⁻¹) • A) :
    BiasedAbsorbable σ A Wd Wu b e := by
  unfold BiasedAbsorbable
  refine ⟨Wd, Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wu,
    Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) *ᵥ b,
    e + c • (Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ b)),
    fun x => ?_⟩
  -- the new hidden layer is the old one minus `c •` the selected pre-activations
  have key : σ ∘ ((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wu) *ᵥ x
        + Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) *ᵥ b)
      = σ ∘ (Wu *ᵥ x + b)
        - c • (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x + b)) := by
    funext j
    have e1 : ((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wu) *ᵥ x) j
        = (if j ∈ S then (-1 : ℝ) else 1) * (Wu *ᵥ x) j :=
      (congrFun (Matrix.mulVec_mulVec x
        (Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1)) Wu).symm j).trans
        (Matrix.mulVec_diagonal _ _ j)
    have e2 : (Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) *ᵥ b) j
        = (if j ∈ S then (-1 : ℝ) else 1) * b j :=
      Matrix.mulVec_diagonal _ _ j
    have e3 : (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x + b)) j
        = (if j ∈ S then (1 : ℝ) else 0) * ((Wu *ᵥ x) j + b j) :=
      Matrix.mulVec_diagonal _ _ j
    first
      | show σ (((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wu) *ᵥ x) j
            + (Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) *ᵥ b) j)
          = σ ((Wu *ᵥ x) j + b j)
            - c * (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x + b)) j
      | simp only [Function.comp_apply, Pi.add_apply, Pi.sub_apply, Pi.smul_apply, smul_eq_mul]
    rw [e1, e2, e3]
    by_cases hj : j ∈ S
    · first
        | rw [if_pos hj, if_pos hj]
        | simp only [if_pos hj]
      have e4 : (-1 : ℝ) * (Wu *ᵥ x) j + (-1 : ℝ) * b j = -((Wu *ᵥ x) j + b j) := by ring
      rw [e4]
      linear_combination -(hσ ((Wu *ᵥ x) j + b j))
    · first
        | rw [if_neg hj, if_neg hj]
        | simp only [if_neg hj]
      have e4 : (1 : ℝ) * (Wu *ᵥ x) j + (1 : ℝ) * b j = (Wu *ᵥ x) j + b j := by ring
      rw [e4]
      ring
  -- the linear part produced by the sign flips is `-A x`
  have hlin : c • (Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)
      *ᵥ (Wu *ᵥ x))) = -(A *ᵥ x) := by
    have e1 : Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x))
        = (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) *ᵥ x :=
      (Matrix.mulVec_mulVec (Wu *ᵥ x) Wd
        (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0))).trans
        (Matrix.mulVec_mulVec x
          (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)) Wu)
    have e2 : (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) *ᵥ x
        = (-(c⁻¹)) • (A *ᵥ x) := by
      rw [hS]
      first
        | exact Matrix.smul_mulVec (-(c⁻¹)) A x
        | (rw [Matrix.smul_mulVec]; done)
    rw [e1, e2]
    have hcc : c * c⁻¹ = 1 := mul_inv_cancel₀ hc
    funext i
    first
      | show c * (-(c⁻¹) * (A *ᵥ x) i) = -((A *ᵥ x) i)
      | simp only [Pi.smul_apply, Pi.neg_apply, smul_eq_mul]
    linear_combination (-((A *ᵥ x) i)) * hcc
  -- `Wd` applied to the difference of the hidden layers
  have s1 : Wd *ᵥ (σ ∘ (Wu *ᵥ x + b)
        - c • (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x + b)))
      = Wd *ᵥ (σ ∘ (Wu *ᵥ x + b))
        - c • (Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)
          *ᵥ (Wu *ᵥ x + b))) :=
    (Matrix.mulVec_sub Wd (σ ∘ (Wu *ᵥ x + b))
      (c • (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x + b)))).trans
      (congrArg (fun v => Wd *ᵥ (σ ∘ (Wu *ᵥ x + b)) - v)
        (Matrix.mulVec_smul Wd c
          (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x + b))))
  have s2 : Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x + b))
      = Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x))
        + Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ b) :=
    (congrArg (fun v => Wd *ᵥ v)
      (Matrix.mulVec_add (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0))
        (Wu *ᵥ x) b)).trans (Matrix.mulVec_add Wd _ _)
  first
    | show A *ᵥ x + (Wd *ᵥ (σ ∘ (Wu *ᵥ x + b)) + e)
        = Wd *ᵥ (σ ∘ ((Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) * Wu) *ᵥ x
            + Matrix.diagonal (fun i => if i ∈ S then (-1 : ℝ) else 1) *ᵥ b))
          + (e + c • (Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ b)))
    | unfold biasedMlp
  rw [key, s1, s2]
  -- coordinatewise: `a + (W + E) = W - c (P + Q) + (E + c Q)` with `c P = -a`
  funext i
  have hl := congrFun hlin i
  simp only [Pi.add_apply, Pi.sub_apply, Pi.smul_apply, Pi.neg_apply, smul_eq_mul] at hl ⊢
  linear_combination hl

/-- **R4, necessity transfer.** If `σ (t * z + β) / t → ρ z` as `t → ∞` for every `z` and every
bias `β`, a biased absorbing block gives an absorbing `ρ`-block without biases, with the same
`(Vd, Vu)`: `BiasedAbsorbable σ A Wd Wu b e → Absorbable ρ A Wd Wu`. -/
theorem absorbable_of_biasedAbsorbable_of_tendsto {σ ρ : ℝ → ℝ}
    {A : Matrix (Fin d) (Fin d) ℝ} {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {b : Fin n → ℝ} {e : Fin d → ℝ}
    (hρ : ∀ z β, Tendsto (fun t => σ (t * z + β) / t) atTop (𝓝 (ρ z)))
    (h : BiasedAbsorbable σ A Wd Wu b e) : Absorbable ρ A Wd Wu := by
  unfold BiasedAbsorbable at h
  obtain ⟨Vd, Vu, b', e', hV⟩ := h
  unfold Absorbable
  refine ⟨Vd, Vu, fun x => ?_⟩
  funext i
  have hscale : ∀ t, 0 < t →
      (A *ᵥ x) i + ∑ j, Wd i j * (σ (t * (Wu *ᵥ x) j + b j) / t) + e i * t⁻¹
        = ∑ k, Vd i k * (σ (t * (Vu *ᵥ x) k + b' k) / t) + e' i * t⁻¹ := by
    intro t ht
    have E : t * (A *ᵥ x) i + (∑ j, Wd i j * σ (t * (Wu *ᵥ x) j + b j) + e i)
        = ∑ k, Vd i k * σ (t * (Vu *ᵥ x) k + b' k) + e' i := by
      have e0 := congrFun (hV (t • x)) i
      have e1 := biasedMlp_smul_apply σ Wd Wu b e t x i
      have e2 := biasedMlp_smul_apply σ Vd Vu b' e' t x i
      have e3 := mulVec_smul_apply A t x i
      first
        | (rw [← e1, ← e2, ← e3]; exact e0)
        | (have e0' : (A *ᵥ (t • x)) i + biasedMlp σ Wd Wu b e (t • x) i
              = biasedMlp σ Vd Vu b' e' (t • x) i := e0
           linear_combination e0' - e3 - e1 + e2)
        | (rw [Pi.add_apply] at e0; linear_combination e0 - e3 - e1 + e2)
    have h1 : ∑ j, Wd i j * (σ (t * (Wu *ᵥ x) j + b j) / t)
        = t⁻¹ * ∑ j, Wd i j * σ (t * (Wu *ᵥ x) j + b j) := sum_mul_div _ _ t
    have h2 : ∑ k, Vd i k * (σ (t * (Vu *ᵥ x) k + b' k) / t)
        = t⁻¹ * ∑ k, Vd i k * σ (t * (Vu *ᵥ x) k + b' k) := sum_mul_div _ _ t
    have hinv : t * t⁻¹ = 1 := mul_inv_cancel₀ ht.ne'
    linear_combination h1 - h2 + t⁻¹ * E - (A *ᵥ x) i * hinv
  have hW : Tendsto (fun t => ∑ j, Wd i j * (σ (t * (Wu *ᵥ x) j + b j) / t)) atTop
      (𝓝 (∑ j, Wd i j * ρ ((Wu *ᵥ x) j))) :=
    tendsto_sum_mul (fun j => Wd i j) (fun j => hρ ((Wu *ᵥ x) j) (b j))
  have hV' : Tendsto (fun t => ∑ k, Vd i k * (σ (t * (Vu *ᵥ x) k + b' k) / t)) atTop
      (𝓝 (∑ k, Vd i k * ρ ((Vu *ᵥ x) k))) :=
    tendsto_sum_mul (fun k => Vd i k) (fun k => hρ ((Vu *ᵥ x) k) (b' k))
  have hE : Tendsto (fun t : ℝ => e i * t⁻¹) atTop (𝓝 (e i * 0)) :=
    tendsto_inv_atTop_zero.const_mul (e i)
  have hE' : Tendsto (fun t : ℝ => e' i * t⁻¹) atTop (𝓝 (e' i * 0)) :=
    tendsto_inv_atTop_zero.const_mul (e' i)
  have hL : Tendsto
      (fun t => (A *ᵥ x) i + ∑ j, Wd i j * (σ (t * (Wu *ᵥ x) j + b j) / t) + e i * t⁻¹) atTop
      (𝓝 ((A *ᵥ x) i + ∑ j, Wd i j * ρ ((Wu *ᵥ x) j) + e i * 0)) :=
    (tendsto_const_nhds.add hW).add hE
  have hR : Tendsto
      (fun t => ∑ k, Vd i k * (σ (t * (Vu *ᵥ x) k + b' k) / t) + e' i * t⁻¹) atTop
      (𝓝 (∑ k, Vd i k * ρ ((Vu *ᵥ x) k) + e' i * 0)) :=
    hV'.add hE'
  have heq := eq_of_tendsto_of_forall_pos_eq hL hR hscale
  first
    | show (A *ᵥ x) i + mlp ρ Wd Wu x i = mlp ρ Vd Vu x i
    | rw [Pi.add_apply]
  rw [mlp_apply, mlp_apply]
  linear_combination heq

/-- A bounded activation, with a bias, divided by `t`, tends to `0`. -/
theorem tendsto_add_div_zero_of_bounded {σ : ℝ → ℝ} (hσ : ∃ M, ∀ z, |σ z| ≤ M) (z β : ℝ) :
    Tendsto (fun t => σ (t * z + β) / t) atTop (𝓝 0) :=
  tendsto_comp_div_zero_of_bounded hσ (fun t => t * z + β)

/-- **R4 for bounded activations**: with any biases, a block whose activation is bounded
absorbs no skip `A ≠ 0`. -/
theorem eq_zero_of_biasedAbsorbable_of_bounded {σ : ℝ → ℝ} {A : Matrix (Fin d) (Fin d) ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ} {b : Fin n → ℝ}
    {e : Fin d → ℝ} (hσ : ∃ M, ∀ z, |σ z| ≤ M) :
    BiasedAbsorbable σ A Wd Wu b e → A = 0 := fun h =>
  eq_zero_of_absorbable_zero
    (absorbable_of_biasedAbsorbable_of_tendsto (ρ := fun _ => (0 : ℝ))
      (tendsto_add_div_zero_of_bounded hσ) h)

end SkipAbsorption
