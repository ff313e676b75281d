import SkipAbsorption.Stack
import SkipAbsorption.Beyond.Injective
import Mathlib.Tactic.Ring

/-!
# Beyond the paper: Theorem B′ of `deep-stacks.md` (residual stacks are injective)

**Beyond arXiv 2604.23705.** A residual stack whose branches are Lipschitz with constants `< 1`
is injective, while a plain stack whose first block is a ReLU block of hidden width `< 2 d` is
not: no such residual stack is such a plain stack, whatever the depths and the later blocks.

* `plainStack_append_singleton`, `not_injective_plainStack_append`,
  `exists_ne_plainStack_append_of_injective`: a plain stack whose first block is not injective
  is not injective, so an injective map is no such stack;
* `injective_resStack` (from `injective_add_of_lipschitzWith`, block by block);
* `exists_ne_plainStack_of_injective_of_lt_two_mul`, `resStack_ne_plainStack_of_lt_two_mul`
  (from `not_injective_mlp_relu_of_lt_two_mul`).

Split out of `SkipAbsorption.Beyond.Stacks` (issue 23) so that it imports `Beyond.Injective` and
not `Beyond.DepthOne`; `Beyond.Stacks` imports this file and `Beyond.StacksLine`. The overview of
both theorems is in `Beyond.Stacks`. Not compiled: no Lean toolchain here.
-/

open Matrix

noncomputable section

namespace SkipAbsorption

/-! ### Theorem B′ -/

section General

variable {E : Type*} [NormedAddCommGroup E]

/-- **Beyond the paper (issue 13).** Appending `g` to the list puts it first:
`plainStack (gs ++ [g]) x = plainStack gs (g x)`. -/
theorem plainStack_append_singleton (g : E → E) :
    ∀ (gs : List (E → E)) (x : E), plainStack (gs ++ [g]) x = plainStack gs (g x)
  | [], x => by
    first
      | rfl
      | (rw [List.nil_append, plainStack_cons, plainStack_nil, plainStack_nil])
  | h :: gs, x => by
    first
      | (rw [List.cons_append, plainStack_cons, plainStack_cons,
          plainStack_append_singleton g gs x]
         done)
      | (show h (plainStack (gs ++ [g]) x) = h (plainStack gs (g x))
         rw [plainStack_append_singleton g gs x])

/-- **Beyond the paper (issue 13)**, Theorem B′ (residual stacks). A residual stack whose
branches are all Lipschitz with constants `< 1` is injective. -/
theorem injective_resStack :
    ∀ fs : List (E → E), (∀ f ∈ fs, ∃ K : NNReal, K < 1 ∧ LipschitzWith K f) →
      Function.Injective (resStack fs)
  | [], _ => by
    intro x y h
    rw [resStack_nil, resStack_nil] at h
    exact h
  | f :: fs, hfs => by
    intro x y h
    obtain ⟨K, hK, hf⟩ := hfs f (List.mem_cons.mpr (Or.inl rfl))
    rw [resStack_cons, resStack_cons] at h
    have h1 : resStack fs x = resStack fs y := eq_of_add_eq_add_of_lipschitzWith hK hf h
    exact injective_resStack fs (fun g hg => hfs g (List.mem_cons.mpr (Or.inr hg))) h1

/-- **Beyond the paper (issue 13).** A plain stack whose first block `g` is not injective is
not injective, whatever the later blocks `gs`. -/
theorem not_injective_plainStack_append (gs : List (E → E)) {g : E → E}
    (hg : ¬ Function.Injective g) : ¬ Function.Injective (plainStack (gs ++ [g])) := by
  intro hinj
  apply hg
  intro a b hab
  apply hinj
  rw [plainStack_append_singleton, plainStack_append_singleton, hab]

/-- **Beyond the paper (issue 13).** An injective map differs, at some input, from every
plain stack whose first block `g` is not injective. -/
theorem exists_ne_plainStack_append_of_injective {F : E → E} (hF : Function.Injective F)
    (gs : List (E → E)) {g : E → E} (hg : ¬ Function.Injective g) :
    ∃ x, F x ≠ plainStack (gs ++ [g]) x := by
  by_contra H
  have H' : ∀ x, F x = plainStack (gs ++ [g]) x := by
    intro x
    by_contra hx
    exact H ⟨x, hx⟩
  apply not_injective_plainStack_append gs hg
  intro a b hab
  apply hF
  rw [H' a, H' b]
  exact hab

/-- **Beyond the paper (issue 13).** A residual stack with contracting branches differs, at
some input, from every plain stack whose first block is not injective. -/
theorem exists_resStack_ne_plainStack_of_not_injective (fs gs : List (E → E))
    (hfs : ∀ f ∈ fs, ∃ K : NNReal, K < 1 ∧ LipschitzWith K f) {g : E → E}
    (hg : ¬ Function.Injective g) : ∃ x, resStack fs x ≠ plainStack (gs ++ [g]) x :=
  exists_ne_plainStack_append_of_injective (injective_resStack fs hfs) gs hg

end General

/-- **Beyond the paper (issue 13).** On `Fin d → ℝ`, an injective map differs, at some input,
from every plain stack whose first block is a ReLU block `mlp relu V U` of hidden width
`n' < 2 d` (any depth, any later blocks `gs`). -/
theorem exists_ne_plainStack_of_injective_of_lt_two_mul {d n' : ℕ}
    {F : (Fin d → ℝ) → Fin d → ℝ} (hF : Function.Injective F)
    (gs : List ((Fin d → ℝ) → Fin d → ℝ))
    (V : Matrix (Fin d) (Fin n') ℝ) (U : Matrix (Fin n') (Fin d) ℝ) (h : n' < 2 * d) :
    ∃ x, F x ≠ plainStack (gs ++ [mlp relu V U]) x :=
  exists_ne_plainStack_append_of_injective hF gs (not_injective_mlp_relu_of_lt_two_mul V U h)

/-- **Beyond the paper (issue 13)**, Theorem B′ of `deep-stacks.md`. On `Fin d → ℝ`, a
residual stack whose branches (for instance the MLP parts `mlp relu B A`) are Lipschitz with
constants `< 1` differs, at some input, from every plain stack whose **first** block is a
ReLU block `mlp relu V U` of hidden width `n' < 2 d`; the depth and the later blocks `gs` of
the plain stack are arbitrary. -/
theorem resStack_ne_plainStack_of_lt_two_mul {d n' : ℕ}
    (fs gs : List ((Fin d → ℝ) → Fin d → ℝ))
    (hfs : ∀ f ∈ fs, ∃ K : NNReal, K < 1 ∧ LipschitzWith K f)
    (V : Matrix (Fin d) (Fin n') ℝ) (U : Matrix (Fin n') (Fin d) ℝ) (h : n' < 2 * d) :
    ∃ x, resStack fs x ≠ plainStack (gs ++ [mlp relu V U]) x :=
  exists_ne_plainStack_of_injective_of_lt_two_mul (injective_resStack fs hfs) gs V U h

end SkipAbsorption

end
