import Mathlib.Analysis.Normed.Module.RCLike.Real
import Mathlib.Analysis.Normed.Group.Constructions
import Mathlib.Analysis.Normed.Group.Bounded
import Mathlib.Topology.MetricSpace.ProperSpace
import Mathlib.Tactic.Abel
import Mathlib.Tactic.FunProp
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.LinearCombination
import Mathlib.Tactic.Positivity

/-!
# Pre-norm blocks: no function of the normalised input absorbs the residual

In a pre-norm transformer block (GPT-2, GPT-NeoX, LLaMA, T5, …) the residual stream carries
`h` while the MLP reads `N h`, a normalisation of it (LayerNorm, RMSNorm). The block computes
`h + F (N h)`. Removing the skip means replacing it by a function of what the MLP sees,
`G (N h)`. This file shows that this is impossible, in two forms:

* `not_residual_eq_of_bounded_norm`: if `N` has bounded output (LayerNorm and RMSNorm with
  `ε > 0` and a finite gain do) and `F`, `G` are continuous, then `h + F (N h) = G (N h)` fails
  for some `h` (for `0 < d`): `G (N h) - F (N h)` stays in the image of a compact ball under a
  continuous map, hence bounded, while `h` is not;
* `not_residual_eq_of_not_injective`: if `N` identifies two different inputs (LayerNorm forgets
  the mean: `N (h + c • 1) = N h`), then no function `G` at all, continuous or not, satisfies
  `h + F (N h) = G (N h)` for all `h`, whatever `F`.

These statements are beyond the paper, whose blocks read their own input `x` (the setting of a
post-norm block, `N (x + MLP x)`, where the normalisation comes after the sum). Not compiled: no
Lean toolchain here.
-/

namespace SkipAbsorption

/-- **Pre-norm, bounded normalisation.** If `N` has bounded output and `F`, `G` are continuous,
the residual map `h ↦ h + F (N h)` is not a function `G` of `N h` (for `0 < d`). -/
theorem not_residual_eq_of_bounded_norm {d : ℕ} (hd : 0 < d)
    {N F G : (Fin d → ℝ) → (Fin d → ℝ)} (hN : ∃ R, ∀ h, ‖N h‖ ≤ R)
    (hF : Continuous F) (hG : Continuous G) :
    ¬ ∀ h, h + F (N h) = G (N h) := by
  intro H
  obtain ⟨R, hR⟩ := hN
  -- the outputs of `N` lie in a compact ball
  have hK : IsCompact (Metric.closedBall (0 : Fin d → ℝ) R) := by
    first
    | exact isCompact_closedBall _ _
    | exact ProperSpace.isCompact_closedBall _ _
    | (haveI : Nonempty (Fin d) := ⟨⟨0, hd⟩⟩
       rw [closedBall_pi' (0 : Fin d → ℝ) R]
       exact isCompact_univ_pi fun _ => isCompact_closedBall _ _)
  have hcont : ContinuousOn (fun u => G u - F u) (Metric.closedBall (0 : Fin d → ℝ) R) := by
    first
    | fun_prop
    | exact (hG.sub hF).continuousOn
  -- on that ball, `G - F` is bounded by some `C`
  obtain ⟨C, hC⟩ : ∃ C, ∀ u ∈ Metric.closedBall (0 : Fin d → ℝ) R, ‖G u - F u‖ ≤ C := by
    first
    | exact hK.exists_bound_of_continuousOn hcont
    | exact (isBounded_iff_forall_norm_le.1 (hK.image_of_continuousOn hcont).isBounded).imp
        fun _C hC _x hx => hC _ (Set.mem_image_of_mem _ hx)
  -- so every `h = G (N h) - F (N h)` has norm at most `C`
  have hbound : ∀ h : Fin d → ℝ, ‖h‖ ≤ C := by
    intro h
    have hmem : N h ∈ Metric.closedBall (0 : Fin d → ℝ) R := by
      first
      | exact mem_closedBall_zero_iff.mpr (hR h)
      | (rw [Metric.mem_closedBall, dist_zero_right]; exact hR h)
    have heq : G (N h) - F (N h) = h := by
      first
      | (rw [← H h]; abel; done)
      | (linear_combination -(H h); done)
    have hGF : ‖G (N h) - F (N h)‖ ≤ C := hC (N h) hmem
    first
    | (rw [heq] at hGF; exact hGF)
    | exact heq ▸ hGF
  -- but the constant vector `|C| + 1` has norm larger than `C`
  have hpos : (0 : ℝ) < |C| + 1 := by
    first
    | positivity
    | (have := abs_nonneg C; linarith)
  have hcoord : ‖(|C| + 1 : ℝ)‖ ≤ ‖(fun _ : Fin d => |C| + 1 : Fin d → ℝ)‖ := by
    first
    | exact norm_le_pi_norm (fun _ : Fin d => |C| + 1 : Fin d → ℝ) ⟨0, hd⟩
    | (haveI : Nonempty (Fin d) := ⟨⟨0, hd⟩⟩
       exact le_of_eq (pi_norm_const (|C| + 1 : ℝ)).symm)
  have hnorm : ‖(|C| + 1 : ℝ)‖ = |C| + 1 := by
    first
    | (rw [Real.norm_eq_abs, abs_of_pos hpos]; done)
    | exact Real.norm_of_nonneg hpos.le
    | (simp only [Real.norm_eq_abs, abs_of_pos hpos]; done)
  have hC' := hbound (fun _ : Fin d => |C| + 1)
  have hle := le_abs_self C
  first
  | linarith
  | exact lt_irrefl C (lt_of_lt_of_le (lt_of_le_of_lt hle (lt_add_one _))
      (le_trans (le_of_eq hnorm.symm) (le_trans hcoord hC')))

/-- **Pre-norm, non-injective normalisation.** If `N` sends two different inputs to the same
point, no function `G` of `N h` (continuous or not) equals `h + F (N h)` for all `h`. -/
theorem not_residual_eq_of_not_injective {d : ℕ} {N F : (Fin d → ℝ) → (Fin d → ℝ)}
    {h₁ h₂ : Fin d → ℝ} (hN : N h₁ = N h₂) (hne : h₁ ≠ h₂) :
    ¬ ∃ G : (Fin d → ℝ) → (Fin d → ℝ), ∀ h, h + F (N h) = G (N h) := by
  rintro ⟨G, hG⟩
  have e₁ : h₁ + F (N h₂) = G (N h₂) := by
    first
    | (rw [← hN]; exact hG h₁)
    | simpa only [hN] using hG h₁
  have e₂ : h₂ + F (N h₂) = G (N h₂) := hG h₂
  have hsame : h₁ = h₂ := by
    first
    | exact add_right_cancel (e₁.trans e₂.symm)
    | (linear_combination e₁ - e₂; done)
  exact hne hsame

end SkipAbsorption
