import SkipAbsorption.Depth
import SkipAbsorption.Beyond.Injective
import SkipAbsorption.Beyond.DepthOne
import Mathlib.Tactic.Ring

/-!
# Beyond the paper: deep residual ReLU stacks against residual-free stacks

**This file goes beyond arXiv 2604.23705.** The paper proves its absorption results for one
block at equal width, and its depth statement (Corollary 7, `SkipAbsorption.Depth`) only for
activations that are `o(z)` at `0`, which excludes ReLU. The research note `deep-stacks.md`
studies ReLU stacks of any depth; this file formalises its Theorem A (`d = 1`) and
Theorem B′ (any `d`, injectivity). Theorem D (`d = 2`) stays a conjecture (see
`lean/README.md`).

Stacks are `resStack` / `plainStack` of `SkipAbsorption.Depth`: the head of the list is
applied last, so the **first** block of a stack is the **last** element of its list, and a
plain stack whose first block is `g` is `plainStack (gs ++ [g])`.

## Theorem B′ (any `d`)

* `injective_resStack`: a residual stack whose branches are all Lipschitz with constants
  `< 1` is injective (`injective_add_of_lipschitzWith`, block by block);
* `not_injective_plainStack_append`: a plain stack whose first block is not injective is not
  injective (`plainStack_append_singleton`);
* `exists_ne_plainStack_append_of_injective`: an injective map is no plain stack whose first
  block is not injective;
* `resStack_ne_plainStack_of_lt_two_mul`: hence such a residual stack on `Fin d → ℝ` differs
  from **every** plain stack whose first block is a ReLU block `mlp relu V U` of hidden width
  `n' < 2 d`, at some input; the depths and the later blocks are arbitrary
  (`not_injective_mlp_relu_of_lt_two_mul`). `exists_ne_plainStack_of_injective_of_lt_two_mul`
  states the same for any injective map.

The generic version of the note (condition (ND) instead of small weights) needs almost-everywhere
differentiability of piecewise-linear maps and is not formalised.

## Theorem A (`d = 1`), on the line `ℝ`

Blocks are `scalarReluBlock v u x = ∑ i, v i * relu (u i * x)` (`SkipAbsorption.Beyond.DepthOne`;
`mlp_relu_fin_one_apply` identifies one such block with coordinate `0` of an `mlp` on
`Fin 1 → ℝ`; transporting whole stacks along `ℝ ≃ (Fin 1 → ℝ)` is not formalised).

* `resStack_posHomogeneous`, `plainStack_posHomogeneous`: stacks of positively homogeneous
  maps are positively homogeneous;
* (i) `exists_plainStack_width_two`, `resStack_eq_plainStack_width_two`: every residual ReLU
  stack, of any depth and any widths, equals a plain ReLU stack of width 2 and of **any**
  depth `L' ≥ 1` (the whole map in the first block, identity blocks
  `x = relu x - relu (-x)` after it);
* (ii) `exists_plainStack_width_one_iff`, `resStack_eq_plainStack_width_one_iff`: a residual
  ReLU stack equals a plain ReLU stack of width 1 and depth `L' ≥ 1` (any fixed `L'`) **iff**
  it vanishes on a half-line (`vanishesOnHalfLine_plainStack`: every non-empty width-1 plain
  stack does, because its first block does and later blocks fix `0`).

Not formalised from §1 of the note: the description of *when* a residual width-1 stack
vanishes on a half-line (some layer with `b_l a_l = -1` reached on a ray that earlier layers
do not collapse), and the statement for plain widths `≥ 3` (pad a width-2 block with zero
units).

Status: not compiled (no Lean toolchain here). Every Mathlib name used is listed in
`lean/CHECKED_NAMES.md`, section "Beyond the paper: depth (issue 13)".
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

/-! ### Theorem A (`d = 1`) -/

/-- **Beyond the paper (issue 13).** A residual stack of positively homogeneous maps of the
line is positively homogeneous. -/
theorem resStack_posHomogeneous :
    ∀ fs : List (ℝ → ℝ), (∀ f ∈ fs, ∀ t : ℝ, 0 < t → ∀ x, f (t * x) = t * f x) →
      ∀ t : ℝ, 0 < t → ∀ x, resStack fs (t * x) = t * resStack fs x
  | [], _ => by
    intro t _ x
    rw [resStack_nil, resStack_nil]
  | f :: fs, hfs => by
    intro t ht x
    have hf := hfs f (List.mem_cons.mpr (Or.inl rfl))
    have ih := resStack_posHomogeneous fs
      (fun g hg => hfs g (List.mem_cons.mpr (Or.inr hg))) t ht x
    rw [resStack_cons, resStack_cons, ih, hf t ht]
    first
      | ring1
      | (show t * resStack fs x + t * f (resStack fs x)
            = t * (resStack fs x + f (resStack fs x))
         ring1)
      | exact (mul_add t _ _).symm

/-- **Beyond the paper (issue 13).** A plain stack of positively homogeneous maps of the line
is positively homogeneous. -/
theorem plainStack_posHomogeneous :
    ∀ gs : List (ℝ → ℝ), (∀ g ∈ gs, ∀ t : ℝ, 0 < t → ∀ x, g (t * x) = t * g x) →
      ∀ t : ℝ, 0 < t → ∀ x, plainStack gs (t * x) = t * plainStack gs x
  | [], _ => by
    intro t _ x
    rw [plainStack_nil, plainStack_nil]
  | g :: gs, hgs => by
    intro t ht x
    have hg := hgs g (List.mem_cons.mpr (Or.inl rfl))
    have ih := plainStack_posHomogeneous gs
      (fun g' hg' => hgs g' (List.mem_cons.mpr (Or.inr hg'))) t ht x
    rw [plainStack_cons, plainStack_cons, ih, hg t ht]

/-- **Beyond the paper (issue 13).** Residual ReLU blocks of any widths are positively
homogeneous (helper for the stack statements). -/
theorem posHomogeneous_of_mem_scalarReluBlocks {fs : List (ℝ → ℝ)}
    (hfs : ∀ f ∈ fs, ∃ (n : ℕ) (b a : Fin n → ℝ), f = scalarReluBlock b a) :
    ∀ f ∈ fs, ∀ t : ℝ, 0 < t → ∀ x, f (t * x) = t * f x := by
  intro f hf
  obtain ⟨n, b, a, hba⟩ := hfs f hf
  rw [hba]
  exact scalarReluBlock_posHomogeneous b a

/-- **Beyond the paper (issue 13)**, Theorem A (i), general form. A positively homogeneous map
of the line equals a plain ReLU stack of width 2 and depth `k + 1`, for every `k`: the map
itself is the first block, the `k` later blocks are the identity `relu x - relu (-x)`. -/
theorem exists_plainStack_width_two_succ {F : ℝ → ℝ}
    (hF : ∀ t : ℝ, 0 < t → ∀ x, F (t * x) = t * F x) :
    ∀ k : ℕ, ∃ gs : List (ℝ → ℝ), gs.length = k + 1 ∧
      (∀ g ∈ gs, ∃ v u : Fin 2 → ℝ, g = scalarReluBlock v u) ∧ ∀ x, F x = plainStack gs x := by
  intro k
  induction k with
  | zero =>
    refine ⟨[scalarReluBlock ![F 1, F (-1)] ![1, -1]], rfl, ?_, ?_⟩
    · intro g hg
      rcases List.mem_cons.mp hg with h | h
      · exact ⟨![F 1, F (-1)], ![1, -1], h⟩
      · first
          | cases h
          | simp at h
    · intro x
      rw [plainStack_cons, plainStack_nil]
      exact congrFun (eq_scalarReluBlock_two_of_posHomogeneous hF) x
  | succ k ih =>
    obtain ⟨gs, hlen, hblk, hval⟩ := ih
    refine ⟨scalarReluBlock ![1, -1] ![1, -1] :: gs, ?_, ?_, ?_⟩
    · first
        | (rw [List.length_cons, hlen]; done)
        | (show gs.length + 1 = k + 1 + 1
           rw [hlen])
    · intro g hg
      rcases List.mem_cons.mp hg with h | h
      · exact ⟨![1, -1], ![1, -1], h⟩
      · exact hblk g h
    · intro x
      rw [plainStack_cons, scalarReluBlock_id_apply]
      exact hval x

/-- **Beyond the paper (issue 13)**, Theorem A (i). A positively homogeneous map of the line
equals a plain ReLU stack of width 2 of any depth `L' ≥ 1`. -/
theorem exists_plainStack_width_two {F : ℝ → ℝ}
    (hF : ∀ t : ℝ, 0 < t → ∀ x, F (t * x) = t * F x) {L' : ℕ} (hL : 0 < L') :
    ∃ gs : List (ℝ → ℝ), gs.length = L' ∧
      (∀ g ∈ gs, ∃ v u : Fin 2 → ℝ, g = scalarReluBlock v u) ∧ ∀ x, F x = plainStack gs x := by
  obtain ⟨k, rfl⟩ : ∃ k, L' = k + 1 := ⟨L' - 1, by omega⟩
  exact exists_plainStack_width_two_succ hF k

/-- **Beyond the paper (issue 13)**, Theorem A (i) of `deep-stacks.md`. On the line, every
residual stack of ReLU blocks (any depth, any widths) equals a plain stack of ReLU blocks of
width 2 and of any depth `L' ≥ 1`. -/
theorem resStack_eq_plainStack_width_two (fs : List (ℝ → ℝ))
    (hfs : ∀ f ∈ fs, ∃ (n : ℕ) (b a : Fin n → ℝ), f = scalarReluBlock b a)
    {L' : ℕ} (hL : 0 < L') :
    ∃ gs : List (ℝ → ℝ), gs.length = L' ∧
      (∀ g ∈ gs, ∃ v u : Fin 2 → ℝ, g = scalarReluBlock v u) ∧
      ∀ x, resStack fs x = plainStack gs x :=
  exists_plainStack_width_two (F := resStack fs)
    (resStack_posHomogeneous fs (posHomogeneous_of_mem_scalarReluBlocks hfs)) hL

/-- **Beyond the paper (issue 13).** A non-empty plain stack of maps of the line that vanish on
a half-line vanishes on a half-line: the first block does, and the later blocks fix `0`. -/
theorem vanishesOnHalfLine_plainStack :
    ∀ gs : List (ℝ → ℝ), gs ≠ [] → (∀ g ∈ gs, VanishesOnHalfLine g) →
      VanishesOnHalfLine (plainStack gs)
  | [], hne, _ => absurd rfl hne
  | g :: gs, _, hgs => by
    have hg : VanishesOnHalfLine g := hgs g (List.mem_cons.mpr (Or.inl rfl))
    by_cases hnil : gs = []
    · subst hnil
      have e : plainStack [g] = g := by
        funext x
        rw [plainStack_cons, plainStack_nil]
      rw [e]
      exact hg
    · have ih : VanishesOnHalfLine (plainStack gs) := vanishesOnHalfLine_plainStack gs hnil
        (fun g' hg' => hgs g' (List.mem_cons.mpr (Or.inr hg')))
      have hg0 : g 0 = 0 := hg.apply_zero
      have ih' : (∀ x, x ≤ 0 → plainStack gs x = 0) ∨ (∀ x, 0 ≤ x → plainStack gs x = 0) := ih
      show (∀ x, x ≤ 0 → plainStack (g :: gs) x = 0) ∨ (∀ x, 0 ≤ x → plainStack (g :: gs) x = 0)
      rcases ih' with h | h
      · refine Or.inl (fun x hx => ?_)
        rw [plainStack_cons, h x hx, hg0]
      · refine Or.inr (fun x hx => ?_)
        rw [plainStack_cons, h x hx, hg0]

/-- **Beyond the paper (issue 13).** `relu (a * x)` is a plain ReLU stack of width 1 and of
depth `k + 1`, for every `k` (the later blocks `relu` are the identity on `relu`'s range). -/
theorem exists_plainStack_width_one_relu (a : ℝ) :
    ∀ k : ℕ, ∃ gs : List (ℝ → ℝ), gs.length = k + 1 ∧
      (∀ g ∈ gs, ∃ v u : Fin 1 → ℝ, g = scalarReluBlock v u) ∧
      ∀ x, plainStack gs x = relu (a * x) := by
  intro k
  induction k with
  | zero =>
    -- the width `n = 1` is fixed by the binder type `Fin 1` (nothing else determines it)
    refine ⟨[scalarReluBlock (fun _ : Fin 1 => (1 : ℝ)) (fun _ : Fin 1 => a)], rfl, ?_, ?_⟩
    · intro g hg
      rcases List.mem_cons.mp hg with h | h
      · exact ⟨fun _ => 1, fun _ => a, h⟩
      · first
          | cases h
          | simp at h
    · intro x
      rw [plainStack_cons, plainStack_nil, scalarReluBlock_one_apply]
      show 1 * relu (a * x) = relu (a * x)
      rw [one_mul]
  | succ k ih =>
    obtain ⟨gs, hlen, hblk, hval⟩ := ih
    refine ⟨scalarReluBlock (fun _ : Fin 1 => (1 : ℝ)) (fun _ : Fin 1 => (1 : ℝ)) :: gs, ?_, ?_, ?_⟩
    · first
        | (rw [List.length_cons, hlen]; done)
        | (show gs.length + 1 = k + 1 + 1
           rw [hlen])
    · intro g hg
      rcases List.mem_cons.mp hg with h | h
      · exact ⟨fun _ => 1, fun _ => 1, h⟩
      · exact hblk g h
    · intro x
      rw [plainStack_cons, hval x, scalarReluBlock_one_apply]
      show 1 * relu (1 * relu (a * x)) = relu (a * x)
      rw [one_mul, one_mul, relu_relu]

/-- **Beyond the paper (issue 13)**, Theorem A (ii), converse direction. A positively
homogeneous map of the line that vanishes on a half-line equals a plain ReLU stack of width 1
of any depth `L' ≥ 1`. -/
theorem exists_plainStack_width_one_of_vanishesOnHalfLine {F : ℝ → ℝ}
    (hF : ∀ t : ℝ, 0 < t → ∀ x, F (t * x) = t * F x) (h0 : VanishesOnHalfLine F)
    {L' : ℕ} (hL : 0 < L') :
    ∃ gs : List (ℝ → ℝ), gs.length = L' ∧
      (∀ g ∈ gs, ∃ v u : Fin 1 → ℝ, g = scalarReluBlock v u) ∧ ∀ x, F x = plainStack gs x := by
  obtain ⟨v, u, hvu⟩ := exists_scalarReluBlock_one_of_vanishesOnHalfLine hF h0
  obtain ⟨k, rfl⟩ : ∃ k, L' = k + 1 := ⟨L' - 1, by omega⟩
  cases k with
  | zero =>
    refine ⟨[scalarReluBlock v u], rfl, ?_, ?_⟩
    · intro g hg
      rcases List.mem_cons.mp hg with h | h
      · exact ⟨v, u, h⟩
      · first
          | cases h
          | simp at h
    · intro x
      rw [plainStack_cons, plainStack_nil, hvu]
  | succ k =>
    -- first the width-1 stack `relu (u 0 * x)` of depth `k + 1`, then the block `v 0 * relu`
    obtain ⟨gs, hlen, hblk, hval⟩ := exists_plainStack_width_one_relu (u 0) k
    refine ⟨scalarReluBlock (fun _ : Fin 1 => v 0) (fun _ : Fin 1 => (1 : ℝ)) :: gs, ?_, ?_, ?_⟩
    · first
        | (rw [List.length_cons, hlen]; done)
        | (show gs.length + 1 = k + 1 + 1
           rw [hlen])
    · intro g hg
      rcases List.mem_cons.mp hg with h | h
      · exact ⟨fun _ => v 0, fun _ => 1, h⟩
      · exact hblk g h
    · intro x
      rw [plainStack_cons, hval x, hvu, scalarReluBlock_one_apply, scalarReluBlock_one_apply]
      show v 0 * relu (u 0 * x) = v 0 * relu (1 * relu (u 0 * x))
      rw [one_mul, relu_relu]

/-- **Beyond the paper (issue 13)**, Theorem A (ii). A positively homogeneous map of the line
equals a plain ReLU stack of width 1 and depth `L' ≥ 1` iff it vanishes on a half-line. -/
theorem exists_plainStack_width_one_iff {F : ℝ → ℝ}
    (hF : ∀ t : ℝ, 0 < t → ∀ x, F (t * x) = t * F x) {L' : ℕ} (hL : 0 < L') :
    (∃ gs : List (ℝ → ℝ), gs.length = L' ∧
      (∀ g ∈ gs, ∃ v u : Fin 1 → ℝ, g = scalarReluBlock v u) ∧ ∀ x, F x = plainStack gs x) ↔
      VanishesOnHalfLine F := by
  constructor
  · rintro ⟨gs, hlen, hblk, hval⟩
    have hne : gs ≠ [] := by
      intro hnil
      have h0 : gs.length = 0 := by
        rw [hnil]
        first
          | done
          | rfl
          | simp
      omega
    have hP : VanishesOnHalfLine (plainStack gs) :=
      vanishesOnHalfLine_plainStack gs hne (fun g hg => by
        obtain ⟨v, u, hvu⟩ := hblk g hg
        rw [hvu]
        exact vanishesOnHalfLine_scalarReluBlock_one v u)
    have e : F = plainStack gs := funext hval
    rw [e]
    exact hP
  · intro h0
    exact exists_plainStack_width_one_of_vanishesOnHalfLine hF h0 hL

/-- **Beyond the paper (issue 13)**, Theorem A (ii) of `deep-stacks.md`. On the line, a
residual stack of ReLU blocks (any depth, any widths) equals a plain stack of ReLU blocks of
width 1 and depth `L' ≥ 1` iff it vanishes on a half-line. -/
theorem resStack_eq_plainStack_width_one_iff (fs : List (ℝ → ℝ))
    (hfs : ∀ f ∈ fs, ∃ (n : ℕ) (b a : Fin n → ℝ), f = scalarReluBlock b a)
    {L' : ℕ} (hL : 0 < L') :
    (∃ gs : List (ℝ → ℝ), gs.length = L' ∧
      (∀ g ∈ gs, ∃ v u : Fin 1 → ℝ, g = scalarReluBlock v u) ∧
      ∀ x, resStack fs x = plainStack gs x) ↔ VanishesOnHalfLine (resStack fs) :=
  exists_plainStack_width_one_iff (F := resStack fs)
    (resStack_posHomogeneous fs (posHomogeneous_of_mem_scalarReluBlocks hfs)) hL

end SkipAbsorption

end
