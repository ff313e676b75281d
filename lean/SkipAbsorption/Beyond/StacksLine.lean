import SkipAbsorption.Stack
import SkipAbsorption.Beyond.DepthOne
import Mathlib.Analysis.Normed.Module.RCLike.Real
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.Ring

/-!
# Beyond the paper: Theorem A of `deep-stacks.md` (`d = 1`, ReLU stacks on the line)

**Beyond arXiv 2604.23705.** On the line, every residual ReLU stack of any depth and widths is
a plain ReLU stack of width 2 and of any depth `L' ≥ 1`, and it is one of width 1 iff it
vanishes on a closed half-line.

* `resStack_posHomogeneous`, `plainStack_posHomogeneous`, `posHomogeneous_of_mem_scalarReluBlocks`;
* (i) `exists_plainStack_width_two_succ`, `exists_plainStack_width_two`,
  `resStack_eq_plainStack_width_two`;
* (ii) `vanishesOnHalfLine_plainStack`, `exists_plainStack_width_one_relu`,
  `exists_plainStack_width_one_of_vanishesOnHalfLine`, `exists_plainStack_width_one_iff`,
  `resStack_eq_plainStack_width_one_iff`.

Split out of `SkipAbsorption.Beyond.Stacks` (issue 23) so that it imports `Beyond.DepthOne` and
not `Beyond.Injective` (nor `Kink`); `Beyond.Stacks` imports this file and
`Beyond.StacksInjective`. The overview of both theorems is in `Beyond.Stacks`. Not compiled: no
Lean toolchain here.
-/

open Matrix

noncomputable section

namespace SkipAbsorption

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
