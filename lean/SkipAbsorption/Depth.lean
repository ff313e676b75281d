import SkipAbsorption.Linearisation
import SkipAbsorption.Degree
import Mathlib.Tactic.Abel
import Mathlib.Tactic.LinearCombination

/-!
# Depth (paper Corollary 7)

A composition of residual maps `x ↦ x + f_ℓ x` with every `f_ℓ = o(x)` at `0` never equals a
non-empty composition of maps that are each `o(x)` at `0`. Equal depth is not needed.

* `resStack fs` / `plainStack gs`: compositions of a list of residual / residual-free maps
  (the head of the list is applied last).
* `not_stack_eq_of_isLittleO`: the abstract depth statement.
* `isLittleO_of_posHomogeneous`: an activation positively homogeneous of degree `k > 1` is
  `o(z)` at `0` (this is why the paper's depth statement needs `k > 1`, not `k ≠ 1`).
* Corollaries for stacks of MLP blocks of width `n` (weights given as lists of pairs or
  triples, `mlpOf σ (Wd, Wu) = mlp σ Wd Wu`, `gatedMlpOf g (Wd, Wg, Wv) = gatedMlp g Wd Wg Wv`):
  `not_mlpStack_eq_of_isLittleO`, `not_mlpStack_eq_of_posHomogeneous` (ReLU², ReLU³),
  `not_gatedMlpStack_eq_of_tendsto` (SwiGLU, GeGLU, ReGLU).
-/

open Filter Topology Asymptotics Matrix

-- `mlpOf`/`gatedMlpOf` call `mlp`/`gatedMlp`, which are defined in a `noncomputable section`
-- over `ℝ`; without this, a non-compiled `mlp` would make these definitions fail to compile.
noncomputable section

namespace SkipAbsorption

section Stack

variable {E : Type*} [NormedAddCommGroup E]

/-- Composition of residual blocks `x ↦ x + f x`; the head of the list is applied last. -/
def resStack : List (E → E) → E → E
  | [], x => x
  | f :: fs, x => resStack fs x + f (resStack fs x)

/-- Composition of residual-free blocks; the head of the list is applied last. -/
def plainStack : List (E → E) → E → E
  | [], x => x
  | g :: gs, x => g (plainStack gs x)

theorem resStack_nil (x : E) : resStack ([] : List (E → E)) x = x := rfl

theorem resStack_cons (f : E → E) (fs : List (E → E)) (x : E) :
    resStack (f :: fs) x = resStack fs x + f (resStack fs x) := rfl

theorem plainStack_nil (x : E) : plainStack ([] : List (E → E)) x = x := rfl

theorem plainStack_cons (g : E → E) (gs : List (E → E)) (x : E) :
    plainStack (g :: gs) x = g (plainStack gs x) := rfl

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
      have e1 : |σ z| = |z| ^ k * |σ (-1)| := by
        first
          | (rw [e, abs_mul, abs_pow, abs_neg]; done)
          | simp only [e, abs_mul, abs_pow, abs_neg]
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
          | simp only [e, abs_mul]
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

/-- **Corollary 7, homogeneous activations of degree `k > 1`** (ReLU², ReLU³). -/
theorem not_mlpStack_eq_of_posHomogeneous {σ : ℝ → ℝ} {k : ℕ} (hk : 1 < k)
    (hσ : ∀ t : ℝ, 0 < t → ∀ z, σ (t * z) = t ^ k * σ z) (hd : 0 < d)
    (ws vs : List (Matrix (Fin d) (Fin n) ℝ × Matrix (Fin n) (Fin d) ℝ)) (hvs : vs ≠ []) :
    ¬ ∀ x, resStack (ws.map (mlpOf σ)) x = plainStack (vs.map (mlpOf σ)) x :=
  not_mlpStack_eq_of_isLittleO (isLittleO_of_posHomogeneous hk hσ) hd ws vs hvs

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

end SkipAbsorption

end
