import SkipAbsorption.Defs
import SkipAbsorption.Reduction
import SkipAbsorption.Stack
import Mathlib.Analysis.Asymptotics.Lemmas
import Mathlib.Analysis.Normed.Module.RCLike.Real
import Mathlib.Tactic.Abel
import Mathlib.Tactic.LinearCombination
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.Positivity

/-!
# The linearisation argument at the origin (paper Proposition 6 and Corollary 7)

Every block whose hidden units are `o(|x|)` at the origin has "Jacobian 0" there, while a
residual block `x ↦ x + B x` has "Jacobian the identity". So the identity skip is never
absorbed (for `d ≥ 1`), by one block (Proposition 6) or by a stack of blocks (Corollary 7).

Asymptotic helpers (not paper results; every proof works coordinate by coordinate with
`isBigO_pi`, `isLittleO_pi`, so the choice of norm on `Fin n → ℝ` never matters):
* `mulVec_comp_isBigO`: applying a fixed matrix costs at most a constant factor;
* `comp_pi_isLittleO`: an entrywise activation `σ` with `σ z = o(z)` is `o(v)` on vectors;
* `isLittleO_comp_isBigO_id`: `G ∘ F` is `o(x)` when `G = o(x)` and `F = O(x)`;
* `tendsto_zero_of_abs_le_abs`: `|φ z| ≤ |z|` forces `φ z → 0` as `z → 0`;
* `abs_mul_le_abs_of_unit_interval`: `|a b| ≤ |a|` when `0 ≤ b ≤ 1`.

Proposition 6:
* `not_add_eq_of_isLittleO`: abstract lemma. In a nontrivial real normed space, if
  `f = o(x)` and `g = o(x)` at `0`, then `¬ ∀ x, x + f x = g x`.
* `mlp_isLittleO`, `gatedMlp_isLittleO`: blocks are `o(x)` at `0` when `σ = o(z)` (ungated),
  resp. when the gate `g` tends to `0` at `0` (gated).
* `not_gatedAbsorbable_of_tendsto` (paper Proposition 6): gated blocks with
  `Tendsto g (𝓝 0) (𝓝 0)` (SwiGLU, GeGLU, ReGLU). This needs only continuity of the gate at
  `0` with `g 0 = 0`, weaker than the paper's differentiability.
* `not_absorbable_of_isLittleO`: ungated blocks with `σ = o(z)` (e.g. ReLU², ReLU³).
* `..._of_isUnit`: the same for any invertible skip, through paper Lemma 4.

Corollary 7 (depth): a composition of residual maps `x ↦ x + f_ℓ x` with every `f_ℓ = o(x)` at
`0` never equals a non-empty composition of maps that are each `o(x)` at `0` (equal depth is not
needed); `resStack`/`plainStack` are defined in `SkipAbsorption.Stack`.
* `not_stack_eq_of_isLittleO`: the abstract statement;
* for stacks of MLP blocks of width `n` (weights given as lists of pairs or triples,
  `mlpOf σ (Wd, Wu) = mlp σ Wd Wu`, `gatedMlpOf g (Wd, Wg, Wv) = gatedMlp g Wd Wg Wv`):
  `not_mlpStack_eq_of_isLittleO` and `not_gatedMlpStack_eq_of_tendsto` (SwiGLU, GeGLU, ReGLU);
  the homogeneous form `not_mlpStack_eq_of_posHomogeneous` is in `SkipAbsorption.Depth`.

Why one file: the helpers, Proposition 6 and Corollary 7 are always imported together (every
family file that states one states all three), and Lake builds nothing downstream of a failed
module, so each module in a theorem's import cone is one more chance for it not to be built.
`SkipAbsorption.Asymptotics` and `SkipAbsorption.Depth` keep their names and re-export this file.
-/

open Filter Topology Asymptotics Matrix

-- `mlpOf`/`gatedMlpOf` call `mlp`/`gatedMlp`, which are defined in a `noncomputable section`
-- over `ℝ`; without this, a non-compiled `mlp` would make these definitions fail to compile.
noncomputable section

namespace SkipAbsorption

/-! ### Asymptotic helpers -/

/-- A fixed matrix is `O(1)` as an operator: `W F(a) = O(F(a))` along any filter. -/
theorem mulVec_comp_isBigO {α : Type*} (l : Filter α) {m k : ℕ} (W : Matrix (Fin m) (Fin k) ℝ)
    (F : α → Fin k → ℝ) : (fun a => W *ᵥ F a) =O[l] F := by
  refine isBigO_pi.2 fun i => ?_
  have hF : ∀ j : Fin k, (fun a => F a j) =O[l] F := fun j => isBigO_pi.1 (isBigO_refl F l) j
  have hj : ∀ j ∈ (Finset.univ : Finset (Fin k)), (fun a => W i j * F a j) =O[l] F :=
    fun j _ => (hF j).const_mul_left (W i j)
  -- (1) the row sum, as a function of `a`, is `O(F)`. Since mathlib4 PR #40957 (2026-07),
  -- `IsBigO.sum` concludes `(∑ j ∈ s, A j) =O[l] g` (a sum of functions) and its `@[to_fun]`
  -- twin `IsBigO.fun_sum` concludes `(fun a => ∑ j ∈ s, A j a) =O[l] g`; before, `IsBigO.sum`
  -- had the second form. `Finset.sum_apply` / `Finset.sum_fn` convert between the two.
  have hsum : (fun a => ∑ j : Fin k, W i j * F a j) =O[l] F := by
    first
      | exact IsBigO.fun_sum hj
      | exact (IsBigO.sum hj).congr_left (fun a => Finset.sum_apply a _ _)
      | simpa only [Finset.sum_fn] using IsBigO.sum hj
      | exact IsBigO.sum hj
  -- (2) the row sum is the `i`-th entry of `W *ᵥ F a`, by the definitions of `mulVec` and
  -- `dotProduct` (`rfl` at default transparency; the `simp` routes must close the goal or fail)
  have hrow : ∀ a, ∑ j : Fin k, W i j * F a j = (W *ᵥ F a) i := by
    intro a
    first
      | rfl
      | (simp only [Matrix.mulVec, dotProduct]; done)
      | (simp [Matrix.mulVec, dotProduct]; done)
  exact hsum.congr_left hrow

/-- An entrywise activation that is `o(z)` at `0` is `o(v)` at `0` on vectors. -/
theorem comp_pi_isLittleO {k : ℕ} {σ : ℝ → ℝ} (hσ : σ =o[𝓝 0] (fun z => z)) :
    (fun v : Fin k → ℝ => σ ∘ v) =o[𝓝 0] (fun v => v) := by
  refine isLittleO_pi.2 fun i => ?_
  have hproj : (fun v : Fin k → ℝ => v i) =O[𝓝 0] (fun v => v) :=
    isBigO_pi.1 (isBigO_refl (fun v : Fin k → ℝ => v) (𝓝 0)) i
  have ht : Tendsto (fun v : Fin k → ℝ => v i) (𝓝 0) (𝓝 0) :=
    hproj.trans_tendsto tendsto_id
  -- `σ ∘ (fun v => v i)` is `fun v => (σ ∘ v) i` by unfolding `∘`; the `simpa` route
  -- normalises both sides with `Function.comp_def` instead
  first
    | exact (hσ.comp_tendsto ht).trans_isBigO hproj
    | exact ((hσ.comp_tendsto ht).trans_isBigO hproj).congr_left (fun _ => rfl)
    | simpa only [Function.comp_def] using (hσ.comp_tendsto ht).trans_isBigO hproj

/-- Composition: if `G = o(x)` and `F = O(x)` at `0`, then `G ∘ F = o(x)` at `0`. -/
theorem isLittleO_comp_isBigO_id {E : Type*} [NormedAddCommGroup E] {F G : E → E}
    (hG : G =o[𝓝 0] (fun x => x)) (hF : F =O[𝓝 0] (fun x => x)) :
    (fun x => G (F x)) =o[𝓝 0] (fun x => x) :=
  (hG.comp_tendsto (hF.trans_tendsto tendsto_id)).trans_isBigO hF

/-- A real function dominated by `|z|` tends to `0` at `0`. -/
theorem tendsto_zero_of_abs_le_abs {φ : ℝ → ℝ} (h : ∀ z, |φ z| ≤ |z|) :
    Tendsto φ (𝓝 0) (𝓝 0) := by
  have hO : φ =O[𝓝 0] (fun z : ℝ => z) := by
    refine isBigO_of_le (𝓝 0) (fun z => ?_)
    -- the norm on `ℝ` is the absolute value (`Real.norm_eq_abs`, also true by unfolding)
    first
      | (rw [Real.norm_eq_abs, Real.norm_eq_abs]; exact h z)
      | simpa only [Real.norm_eq_abs] using h z
      | exact h z
  exact hO.trans_tendsto tendsto_id

/-- `|a * b| ≤ |a|` when `0 ≤ b ≤ 1`; used for Swish (`b = sigmoid a`) and GELU (`b = Φ a`). -/
theorem abs_mul_le_abs_of_unit_interval {a b : ℝ} (h0 : 0 ≤ b) (h1 : b ≤ 1) :
    |a * b| ≤ |a| := by
  have e : |a * b| = |a| * b := by rw [abs_mul, abs_of_nonneg h0]
  have hnn : (0 : ℝ) ≤ |a| * (1 - b) := mul_nonneg (abs_nonneg a) (by linarith)
  have hexp : |a| * (1 - b) = |a| - |a| * b := by ring
  rw [e]
  -- `|a| * b ≤ |a|` follows from `0 ≤ |a| * (1 - b)`, a linear fact in the atoms `|a| * b`, `|a|`
  first
    | linarith [hnn, hexp]
    | nlinarith [hnn, abs_nonneg a]

/-! ### Proposition 6 -/

section Linearisation

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

end Linearisation

/-! ### Corollary 7, abstract form -/

section Stack

variable {E : Type*} [NormedAddCommGroup E]

/-- A residual stack of `o(x)` blocks is the identity up to `o(x)`. -/
theorem resStack_sub_isLittleO :
    ∀ fs : List (E → E), (∀ f ∈ fs, f =o[𝓝 0] (fun x => x)) →
      (fun x => resStack fs x - x) =o[𝓝 0] (fun x => x) := by
  intro fs
  induction fs with
  | nil =>
    intro _
    -- `resStack [] x - x = 0`; routes differ in how `isLittleO_zero`'s codomain `E'` is fixed
    -- (named argument, or by unification with `congr_left`) and in how the goal is closed
    first
      | (refine (isLittleO_zero (E' := E) (fun x : E => x) (𝓝 0)).congr_left (fun x => ?_)
         show (0 : E) = resStack [] x - x
         rw [resStack_nil, sub_self]
         done)
      | (refine (isLittleO_zero _ (𝓝 0)).congr_left (fun x => ?_)
         simp only [resStack_nil, sub_self]
         done)
      | (refine (isLittleO_zero _ (𝓝 0)).congr_left (fun x => ?_)
         rw [resStack_nil, sub_self]
         rfl)
  | cons f fs ih =>
    intro hfs
    have hf : f =o[𝓝 0] (fun x => x) := hfs f (List.mem_cons.mpr (Or.inl rfl))
    have hfs' : ∀ f' ∈ fs, f' =o[𝓝 0] (fun x => x) :=
      fun f' hf' => hfs f' (List.mem_cons.mpr (Or.inr hf'))
    have ih' : (fun x => resStack fs x - x) =o[𝓝 0] (fun x => x) := ih hfs'
    have hR : (fun x => resStack fs x) =O[𝓝 0] (fun x => x) :=
      (ih'.isBigO.add (isBigO_refl (fun x : E => x) (𝓝 0))).congr_left
        (fun x => sub_add_cancel (resStack fs x) x)
    have hfR : (fun x => f (resStack fs x)) =o[𝓝 0] (fun x => x) :=
      isLittleO_comp_isBigO_id hf hR
    refine (ih'.add hfR).congr_left (fun x => ?_)
    show resStack fs x - x + f (resStack fs x) = resStack (f :: fs) x - x
    rw [resStack_cons]
    abel

/-- A residual-free stack of `o(x)` blocks is `O(x)` (it is the identity when empty). -/
theorem plainStack_isBigO :
    ∀ gs : List (E → E), (∀ g ∈ gs, g =o[𝓝 0] (fun x => x)) →
      (fun x => plainStack gs x) =O[𝓝 0] (fun x => x) := by
  intro gs
  induction gs with
  | nil =>
    intro _
    exact (isBigO_refl (fun x : E => x) (𝓝 0)).congr_left (fun x => (plainStack_nil x).symm)
  | cons g gs ih =>
    intro hgs
    have hg : g =o[𝓝 0] (fun x => x) := hgs g (List.mem_cons.mpr (Or.inl rfl))
    have hgs' : ∀ g' ∈ gs, g' =o[𝓝 0] (fun x => x) :=
      fun g' hg' => hgs g' (List.mem_cons.mpr (Or.inr hg'))
    exact (isLittleO_comp_isBigO_id hg (ih hgs')).isBigO.congr_left
      (fun x => (plainStack_cons g gs x).symm)

/-- A non-empty residual-free stack of `o(x)` blocks is `o(x)`. -/
theorem plainStack_isLittleO (gs : List (E → E)) (hgs : ∀ g ∈ gs, g =o[𝓝 0] (fun x => x))
    (hne : gs ≠ []) : (fun x => plainStack gs x) =o[𝓝 0] (fun x => x) := by
  cases gs with
  | nil => exact absurd rfl hne
  | cons g gs =>
    have hg : g =o[𝓝 0] (fun x => x) := hgs g (List.mem_cons.mpr (Or.inl rfl))
    have hgs' : ∀ g' ∈ gs, g' =o[𝓝 0] (fun x => x) :=
      fun g' hg' => hgs g' (List.mem_cons.mpr (Or.inr hg'))
    exact (isLittleO_comp_isBigO_id hg (plainStack_isBigO gs hgs')).congr_left
      (fun x => (plainStack_cons g gs x).symm)

/-- **Paper Corollary 7, abstract form.** A stack of residual blocks with `o(x)` branches is
never a non-empty stack of `o(x)` blocks (the two depths need not be equal). -/
theorem not_stack_eq_of_isLittleO [NormedSpace ℝ E] [Nontrivial E] (fs gs : List (E → E))
    (hfs : ∀ f ∈ fs, f =o[𝓝 0] (fun x => x)) (hgs : ∀ g ∈ gs, g =o[𝓝 0] (fun x => x))
    (hne : gs ≠ []) : ¬ ∀ x, resStack fs x = plainStack gs x := by
  intro h
  refine not_add_eq_of_isLittleO (resStack_sub_isLittleO fs hfs)
    (plainStack_isLittleO gs hgs hne) (fun x => ?_)
  show x + (resStack fs x - x) = plainStack gs x
  have hx : x + (resStack fs x - x) = resStack fs x := by abel
  rw [hx]
  exact h x

end Stack

/-! ### Corollaries for stacks of MLP blocks -/

/-- Every member of `ws.map F` satisfies `P` when every `F w` does. -/
theorem forall_mem_map_of_forall {α β : Type*} (P : β → Prop) (F : α → β)
    (hF : ∀ a, P (F a)) : ∀ (ws : List α) (f : β), f ∈ ws.map F → P f := by
  intro ws
  induction ws with
  | nil =>
    intro f hf
    rw [List.map_nil] at hf
    first
      | cases hf
      | simp at hf
  | cons w ws ih =>
    intro f hf
    rw [List.map_cons, List.mem_cons] at hf
    rcases hf with h | h
    · rw [h]
      exact hF w
    · exact ih f h

/-- Mapping a non-empty list gives a non-empty list. -/
theorem list_map_ne_nil {α β : Type*} (F : α → β) : ∀ ws : List α, ws ≠ [] → ws.map F ≠ []
  | [], h => absurd rfl h
  | w :: ws, _ => by
    rw [List.map_cons]
    intro h
    cases h

section MlpStack

variable {d n : ℕ}

/-- The ungated block with weight pair `w = (Wd, Wu)`. -/
def mlpOf (σ : ℝ → ℝ) (w : Matrix (Fin d) (Fin n) ℝ × Matrix (Fin n) (Fin d) ℝ) :
    (Fin d → ℝ) → Fin d → ℝ :=
  mlp σ w.1 w.2

/-- The gated block with weight triple `w = (Wd, Wg, Wv)`. -/
def gatedMlpOf (g : ℝ → ℝ)
    (w : Matrix (Fin d) (Fin n) ℝ × Matrix (Fin n) (Fin d) ℝ × Matrix (Fin n) (Fin d) ℝ) :
    (Fin d → ℝ) → Fin d → ℝ :=
  gatedMlp g w.1 w.2.1 w.2.2

/-- **Corollary 7, ungated blocks.** If `σ = o(z)` at `0`, a stack of residual MLP blocks of
width `n` never equals a non-empty stack of residual-free MLP blocks of width `n` (`d ≥ 1`). -/
theorem not_mlpStack_eq_of_isLittleO {σ : ℝ → ℝ} (hσ : σ =o[𝓝 0] (fun z => z)) (hd : 0 < d)
    (ws vs : List (Matrix (Fin d) (Fin n) ℝ × Matrix (Fin n) (Fin d) ℝ)) (hvs : vs ≠ []) :
    ¬ ∀ x, resStack (ws.map (mlpOf σ)) x = plainStack (vs.map (mlpOf σ)) x := by
  haveI : Nonempty (Fin d) := ⟨⟨0, hd⟩⟩
  have hF : ∀ w : Matrix (Fin d) (Fin n) ℝ × Matrix (Fin n) (Fin d) ℝ,
      mlpOf σ w =o[𝓝 0] (fun x => x) := fun w => mlp_isLittleO hσ w.1 w.2
  exact not_stack_eq_of_isLittleO (ws.map (mlpOf σ)) (vs.map (mlpOf σ))
    (forall_mem_map_of_forall (fun f : (Fin d → ℝ) → Fin d → ℝ => f =o[𝓝 0] (fun x => x))
      (mlpOf σ) hF ws)
    (forall_mem_map_of_forall (fun f : (Fin d → ℝ) → Fin d → ℝ => f =o[𝓝 0] (fun x => x))
      (mlpOf σ) hF vs)
    (list_map_ne_nil (mlpOf σ) vs hvs)

/-- **Corollary 7, gated blocks** with a gate tending to `0` at `0` (SwiGLU, GeGLU, ReGLU). -/
theorem not_gatedMlpStack_eq_of_tendsto {g : ℝ → ℝ} (hg : Tendsto g (𝓝 0) (𝓝 0)) (hd : 0 < d)
    (ws vs : List (Matrix (Fin d) (Fin n) ℝ × Matrix (Fin n) (Fin d) ℝ ×
      Matrix (Fin n) (Fin d) ℝ)) (hvs : vs ≠ []) :
    ¬ ∀ x, resStack (ws.map (gatedMlpOf g)) x = plainStack (vs.map (gatedMlpOf g)) x := by
  haveI : Nonempty (Fin d) := ⟨⟨0, hd⟩⟩
  have hF : ∀ w : Matrix (Fin d) (Fin n) ℝ × Matrix (Fin n) (Fin d) ℝ ×
      Matrix (Fin n) (Fin d) ℝ, gatedMlpOf g w =o[𝓝 0] (fun x => x) :=
    fun w => gatedMlp_isLittleO hg w.1 w.2.1 w.2.2
  exact not_stack_eq_of_isLittleO (ws.map (gatedMlpOf g)) (vs.map (gatedMlpOf g))
    (forall_mem_map_of_forall (fun f : (Fin d → ℝ) → Fin d → ℝ => f =o[𝓝 0] (fun x => x))
      (gatedMlpOf g) hF ws)
    (forall_mem_map_of_forall (fun f : (Fin d → ℝ) → Fin d → ℝ => f =o[𝓝 0] (fun x => x))
      (gatedMlpOf g) hF vs)
    (list_map_ne_nil (gatedMlpOf g) vs hvs)

end MlpStack

end SkipAbsorption

end
