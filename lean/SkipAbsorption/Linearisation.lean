import SkipAbsorption.Asymptotics
import SkipAbsorption.Reduction
import Mathlib.Tactic.Abel

/-!
# The linearisation argument (paper Proposition 6, generalised)

Every block whose hidden units are `o(|x|)` at the origin has "Jacobian 0" there, while a
residual block `x ↦ x + B x` has "Jacobian the identity". So the identity skip is never
absorbed (for `d ≥ 1`).

* `not_add_eq_of_isLittleO`: abstract lemma. In a nontrivial real normed space, if
  `f = o(x)` and `g = o(x)` at `0`, then `¬ ∀ x, x + f x = g x`.
* `mlp_isLittleO`, `gatedMlp_isLittleO`: blocks are `o(x)` at `0` when `σ = o(z)` (ungated),
  resp. when the gate `g` tends to `0` at `0` (gated).
* `not_gatedAbsorbable_of_tendsto` (paper Proposition 6): gated blocks with
  `Tendsto g (𝓝 0) (𝓝 0)` (SwiGLU, GeGLU, ReGLU). This needs only continuity of the gate at
  `0` with `g 0 = 0`, weaker than the paper's differentiability.
* `not_absorbable_of_isLittleO`: ungated blocks with `σ = o(z)` (e.g. ReLU², ReLU³).
* `..._of_isUnit`: the same for any invertible skip, through paper Lemma 4.
-/

open Filter Topology Asymptotics Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- **Abstract linearisation lemma.** In a nontrivial real normed space, `x + f x = g x` for
all `x` is impossible when `f` and `g` are both `o(x)` at `0`. -/
theorem not_add_eq_of_isLittleO {E : Type*} [NormedAddCommGroup E] [NormedSpace ℝ E]
    [Nontrivial E] {f g : E → E} (hf : f =o[𝓝 0] (fun x => x)) (hg : g =o[𝓝 0] (fun x => x)) :
    ¬ ∀ x, x + f x = g x := by
  intro h
  -- `x = g x - f x` would then be `o(x)`
  have hid : (fun x : E => x) =o[𝓝 0] (fun x => x) := by
    refine (hg.sub hf).congr_left (fun x => ?_)
    show g x - f x = x
    rw [← h x]
    abel
  -- `Real.punctured_nhds_module_neBot` is an instance (read in the module-era
  -- `Mathlib/Analysis/Normed/Module/RCLike/Real.lean`); `inferInstance` is the fallback
  haveI : (𝓝[≠] (0 : E)).NeBot := by
    first
      | exact Real.punctured_nhds_module_neBot 0
      | exact inferInstance
  have hid' : (fun x : E => x) =o[𝓝[≠] (0 : E)] (fun x => x) := hid.mono nhdsWithin_le_nhds
  have hev : ∀ᶠ x in 𝓝[≠] (0 : E), x ∈ ({0}ᶜ : Set E) := by
    first
      | exact eventually_mem_nhdsWithin
      | exact self_mem_nhdsWithin
  have hev' : ∀ᶠ x in 𝓝[≠] (0 : E), x ≠ 0 :=
    hev.mono fun x hx => Set.mem_compl_singleton_iff.mp hx
  have hfreq : ∃ᶠ x in 𝓝[≠] (0 : E), x ≠ 0 := hev'.frequently
  exact isLittleO_irrefl hfreq hid'

/-- An ungated block is `o(x)` at `0` when its activation is `o(z)` at `0`. -/
theorem mlp_isLittleO {σ : ℝ → ℝ} (hσ : σ =o[𝓝 0] (fun z => z))
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) :
    (fun x => mlp σ Wd Wu x) =o[𝓝 0] (fun x => x) := by
  have hu : (fun x : Fin d → ℝ => Wu *ᵥ x) =O[𝓝 0] (fun x => x) :=
    mulVec_comp_isBigO (𝓝 0) Wu (fun x => x)
  have hut : Tendsto (fun x : Fin d → ℝ => Wu *ᵥ x) (𝓝 0) (𝓝 0) :=
    hu.trans_tendsto tendsto_id
  have hin : (fun x : Fin d → ℝ => σ ∘ (Wu *ᵥ x)) =o[𝓝 0] (fun x => x) := by
    first
      | exact ((comp_pi_isLittleO (k := n) hσ).comp_tendsto hut).trans_isBigO hu
      | simpa only [Function.comp_def] using
          ((comp_pi_isLittleO (k := n) hσ).comp_tendsto hut).trans_isBigO hu
  -- `mlp σ Wd Wu x` is `Wd *ᵥ (σ ∘ (Wu *ᵥ x))` by definition
  first
    | (unfold mlp
       exact (mulVec_comp_isBigO (𝓝 0) Wd (fun x => σ ∘ (Wu *ᵥ x))).trans_isLittleO hin)
    | exact (mulVec_comp_isBigO (𝓝 0) Wd (fun x => σ ∘ (Wu *ᵥ x))).trans_isLittleO hin
    | simpa only [mlp] using
        (mulVec_comp_isBigO (𝓝 0) Wd (fun x => σ ∘ (Wu *ᵥ x))).trans_isLittleO hin

/-- A gated block is `o(x)` at `0` when its gate tends to `0` at `0`: each hidden unit is
`g(u·x) (v·x)` with `g(u·x) → 0` and `v·x = O(x)`. -/
theorem gatedMlp_isLittleO {g : ℝ → ℝ} (hg : Tendsto g (𝓝 0) (𝓝 0))
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ) :
    (fun x => gatedMlp g Wd Wg Wv x) =o[𝓝 0] (fun x => x) := by
  have hH : (fun x : Fin d → ℝ => fun i => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i)
      =o[𝓝 0] (fun x => x) := by
    refine isLittleO_pi.2 fun i => ?_
    have hWg : (fun x : Fin d → ℝ => (Wg *ᵥ x) i) =O[𝓝 0] (fun x => x) :=
      isBigO_pi.1 (mulVec_comp_isBigO (𝓝 0) Wg (fun x => x)) i
    have hWv : (fun x : Fin d → ℝ => (Wv *ᵥ x) i) =O[𝓝 0] (fun x => x) :=
      isBigO_pi.1 (mulVec_comp_isBigO (𝓝 0) Wv (fun x => x)) i
    have hgt : Tendsto (fun x : Fin d → ℝ => g ((Wg *ᵥ x) i)) (𝓝 0) (𝓝 0) :=
      hg.comp (hWg.trans_tendsto tendsto_id)
    have h1 : (fun x : Fin d → ℝ => g ((Wg *ᵥ x) i)) =o[𝓝 0] (fun _ => (1 : ℝ)) :=
      (isLittleO_one_iff ℝ).2 hgt
    have h2 : (fun x : Fin d → ℝ => (Wv *ᵥ x) i) =O[𝓝 0] (fun x => ‖x‖) :=
      isBigO_norm_right.2 hWv
    -- `h1.mul_isBigO h2` is `o(fun x => 1 * ‖x‖)`; drop the factor `1`
    have h3 : (fun x : Fin d → ℝ => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i)
        =o[𝓝 0] (fun x => ‖x‖) := by
      first
        | exact (h1.mul_isBigO h2).congr_right (fun x => one_mul ‖x‖)
        | simpa only [one_mul] using h1.mul_isBigO h2
    -- the norm of `x : Fin d → ℝ` (sup norm) on the right is replaced by `x` itself
    first
      | exact isLittleO_norm_right.1 h3
      | simpa only [isLittleO_norm_right] using h3
  -- `gatedMlp g Wd Wg Wv x` is `Wd *ᵥ (hidden layer)` by definition
  first
    | (unfold gatedMlp
       exact (mulVec_comp_isBigO (𝓝 0) Wd
         (fun x => fun i => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i)).trans_isLittleO hH)
    | exact (mulVec_comp_isBigO (𝓝 0) Wd
        (fun x => fun i => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i)).trans_isLittleO hH
    | simpa only [gatedMlp] using (mulVec_comp_isBigO (𝓝 0) Wd
        (fun x => fun i => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i)).trans_isLittleO hH

/-- **Paper Proposition 6 (generalised).** A gated block whose gate tends to `0` at `0`
(SwiGLU, GeGLU, ReGLU) never absorbs the identity skip, for `d ≥ 1` and all weights. -/
theorem not_gatedAbsorbable_of_tendsto {g : ℝ → ℝ} (hg : Tendsto g (𝓝 0) (𝓝 0)) (hd : 0 < d)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ) :
    ¬ GatedAbsorbable g 1 Wd Wg Wv := by
  haveI : Nonempty (Fin d) := ⟨⟨0, hd⟩⟩
  intro hab
  unfold GatedAbsorbable at hab
  obtain ⟨Vd, Vg, Vv, h⟩ := hab
  refine not_add_eq_of_isLittleO (gatedMlp_isLittleO hg Wd Wg Wv)
    (gatedMlp_isLittleO hg Vd Vg Vv) (fun x => ?_)
  have hx := h x
  rw [Matrix.one_mulVec] at hx
  exact hx

/-- **Linearisation, ungated.** An ungated block whose activation is `o(z)` at `0`
(e.g. ReLU², ReLU³) never absorbs the identity skip, for `d ≥ 1` and all weights. -/
theorem not_absorbable_of_isLittleO {σ : ℝ → ℝ} (hσ : σ =o[𝓝 0] (fun z => z)) (hd : 0 < d)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) :
    ¬ Absorbable σ 1 Wd Wu := by
  haveI : Nonempty (Fin d) := ⟨⟨0, hd⟩⟩
  intro hab
  unfold Absorbable at hab
  obtain ⟨Vd, Vu, h⟩ := hab
  refine not_add_eq_of_isLittleO (mlp_isLittleO hσ Wd Wu) (mlp_isLittleO hσ Vd Vu)
    (fun x => ?_)
  have hx := h x
  rw [Matrix.one_mulVec] at hx
  exact hx

/-- Proposition 6 for any invertible skip `A` (combined with paper Lemma 4). -/
theorem not_gatedAbsorbable_of_tendsto_of_isUnit {g : ℝ → ℝ} (hg : Tendsto g (𝓝 0) (𝓝 0))
    (hd : 0 < d) {A : Matrix (Fin d) (Fin d) ℝ} (hA : IsUnit A.det)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ) :
    ¬ GatedAbsorbable g A Wd Wg Wv := by
  rw [gatedAbsorbable_iff_of_isUnit_det g hA Wd Wg Wv]
  exact not_gatedAbsorbable_of_tendsto hg hd (A⁻¹ * Wd) Wg Wv

/-- The ungated linearisation result for any invertible skip `A` (with paper Lemma 4). -/
theorem not_absorbable_of_isLittleO_of_isUnit {σ : ℝ → ℝ} (hσ : σ =o[𝓝 0] (fun z => z))
    (hd : 0 < d) {A : Matrix (Fin d) (Fin d) ℝ} (hA : IsUnit A.det)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) :
    ¬ Absorbable σ A Wd Wu := by
  rw [absorbable_iff_of_isUnit_det σ hA Wd Wu]
  exact not_absorbable_of_isLittleO hσ hd (A⁻¹ * Wd) Wu

end SkipAbsorption
