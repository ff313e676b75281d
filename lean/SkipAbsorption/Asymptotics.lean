import SkipAbsorption.Defs
import Mathlib.Analysis.Asymptotics.Lemmas
import Mathlib.Analysis.Normed.Module.RCLike.Real
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.Positivity

/-!
# Asymptotic helper lemmas

Small facts about `=O[𝓝 0]` / `=o[𝓝 0]` used by the linearisation argument (paper
Proposition 6) and the depth argument (paper Corollary 7). They are not paper results.

* `mulVec_comp_isBigO`: applying a fixed matrix costs at most a constant factor.
* `comp_pi_isLittleO`: an entrywise activation `σ` with `σ z = o(z)` is `o(v)` on vectors.
* `isLittleO_comp_isBigO_id`: `G ∘ F` is `o(x)` when `G = o(x)` and `F = O(x)`.
* `tendsto_zero_of_abs_le_abs`: `|φ z| ≤ |z|` forces `φ z → 0` as `z → 0`.

Every proof works coordinate by coordinate (`isBigO_pi`, `isLittleO_pi`), so the choice of
norm on `Fin n → ℝ` (the sup norm) never matters.
-/

open Filter Topology Asymptotics Matrix

namespace SkipAbsorption

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

end SkipAbsorption
