import SkipAbsorption.Defs
import SkipAbsorption.Kink
import Mathlib.LinearAlgebra.FiniteDimensional.Lemmas
import Mathlib.LinearAlgebra.Matrix.ToLinearEquiv
import Mathlib.Analysis.Normed.Module.RCLike.Real
import Mathlib.Topology.MetricSpace.Lipschitz
import Mathlib.Tactic.Abel
import Mathlib.Tactic.Linarith

/-!
# Beyond the paper: narrow ReLU blocks are not injective, contracting residual blocks are

**This file goes beyond arXiv 2604.23705.** It holds the two block-level halves of
Theorem B′ of the research note `deep-stacks.md` (§2, §4 item 1); the stack-level conclusion
(`resStack_ne_plainStack_of_lt_two_mul`) is in `SkipAbsorption.Beyond.Stacks`.

* `not_injective_mlp_relu_of_lt_two_mul`: a residual-free ReLU block `x ↦ V relu(U x)` on
  `Fin d → ℝ` whose hidden width `n'` is smaller than `2 d` is not injective. Proof (Lemma 1
  of the note, with a scale factor instead of a neighbourhood):
  1. `exists_dotProduct_row_ne_zero`: a point `y` with `U j ⬝ᵥ y ≠ 0` for every row `U j`
     that is not identically zero as a functional (the avoidance lemma
     `exists_dotProduct_ne_zero_of_list` of `SkipAbsorption.Kink`, with `p = 0`);
  2. `card_filter_pos_add_card_filter_not_pos`: the units active at `y` and the units not
     active at `y` number `n' < 2 d` together, so one of the two sets has fewer than `d`
     elements; the units active at `-y` are among those not active at `y`;
  3. `exists_ne_zero_forall_mem_dotProduct_eq_zero`: fewer than `d` rows have a common
     nonzero kernel vector `z` (rank–nullity, `LinearMap.ker_ne_bot_of_finrank_lt`; a second
     route pads the rows to a square matrix with a zero row and uses
     `Matrix.exists_mulVec_eq_zero_iff`);
  4. `not_injective_mlp_relu_of_kernel`: for `R` large (`exists_scale_abs_lt`), the
     inactive units stay inactive at `R • y + z`, the zero pre-activations stay zero, and the
     active units do not see `z`; so the block takes the same value at `R • y + z` and
     `R • y`, although `z ≠ 0`.
* `injective_add_of_lipschitzWith`: a residual block `x ↦ x + f x` whose branch `f` is
  Lipschitz with constant `K < 1` is injective (`‖x - y‖ = ‖f y - f x‖ ≤ K ‖x - y‖`). For
  `f = mlp relu B A` on `Fin d → ℝ` this holds for instance when `‖B‖ ‖A‖ < 1` in the
  operator norms of the **sup norm** (Mathlib's norm on `Fin d → ℝ`, for which `relu` applied
  entrywise is 1-Lipschitz); not formalised here: the hypothesis is `LipschitzWith K f`. A
  Euclidean bound `‖B‖₂ ‖A‖₂ < 1` does not give `LipschitzWith K f` with `K < 1` for the sup
  norm in general; it still makes the block injective, and
  `exists_ne_plainStack_of_injective_of_lt_two_mul` (`Beyond.Stacks`) takes any injective map.

`relu` is `SkipAbsorption.relu` (`relu z = max z 0`, file `SkipAbsorption.Relu`).

Status: not compiled (no Lean toolchain here). Every Mathlib name used is listed in
`lean/CHECKED_NAMES.md`, section "Beyond the paper: depth (issue 13)".
-/

open Matrix

noncomputable section

namespace SkipAbsorption

/-! ### Step 1: a point off the hyperplanes of the nonzero rows -/

/-- **Beyond the paper (issue 13).** Some `y` has `U j ⬝ᵥ y ≠ 0` for every row `U j` that is
not orthogonal to every vector (the avoidance lemma of `SkipAbsorption.Kink` with `p = 0`). -/
theorem exists_dotProduct_row_ne_zero {m d : ℕ} (U : Matrix (Fin m) (Fin d) ℝ) :
    ∃ y : Fin d → ℝ, ∀ j, (∃ w : Fin d → ℝ, U j ⬝ᵥ w ≠ 0) → U j ⬝ᵥ y ≠ 0 := by
  have hy : ∀ k, (∃ w : Fin d → ℝ, U k ⬝ᵥ w ≠ 0) →
      ∃ w : Fin d → ℝ, (0 : Fin d → ℝ) ⬝ᵥ w = 0 ∧ U k ⬝ᵥ w ≠ 0 := by
    intro k hk
    obtain ⟨w, hw⟩ := hk
    have h0 : (0 : Fin d → ℝ) ⬝ᵥ w = 0 := by
      first
        | exact (dotProduct_comm 0 w).trans (dotProduct_zero w)
        | exact zero_dotProduct w
        | simp
    exact ⟨w, h0, hw⟩
  obtain ⟨x, -, hx⟩ := exists_dotProduct_ne_zero_of_list (0 : Fin d → ℝ) (fun k => U k)
    (fun k => ∃ w : Fin d → ℝ, U k ⬝ᵥ w ≠ 0) hy (Finset.univ : Finset (Fin m)).toList
  refine ⟨x, fun j hj => ?_⟩
  have hmem : j ∈ (Finset.univ : Finset (Fin m)).toList := by
    first
      | exact Finset.mem_toList.mpr (Finset.mem_univ j)
      | simp
  exact hx j hmem hj

/-! ### Step 2: counting active units -/

/-- **Beyond the paper (issue 13).** For `a : Fin m → ℝ`, the indices with `0 < a j` and the
indices with `¬ 0 < a j` number `m` together. -/
theorem card_filter_pos_add_card_filter_not_pos {m : ℕ} (a : Fin m → ℝ) :
    (Finset.filter (fun j => 0 < a j) Finset.univ).card
      + (Finset.filter (fun j => ¬ 0 < a j) Finset.univ).card = m := by
  have h1 : (Finset.filter (fun j => 0 < a j) Finset.univ).card
      + (Finset.filter (fun j => ¬ 0 < a j) Finset.univ).card
      = (Finset.univ : Finset (Fin m)).card := by
    first
      | exact Finset.card_filter_add_card_filter_not (fun j => 0 < a j)
      | exact Finset.filter_card_add_filter_neg_card_eq_card (fun j => 0 < a j)
  have h2 : (Finset.univ : Finset (Fin m)).card = m := by
    first
      | exact Finset.card_fin m
      | (rw [Finset.card_univ, Fintype.card_fin]; done)
      | simp
  exact h1.trans h2

/-! ### Step 3: a common kernel vector of fewer than `d` rows -/

/-- **Beyond the paper (issue 13).** A matrix with fewer than `d` rows and `d` columns has a
nonzero kernel vector. Route 1: rank–nullity for `Matrix.mulVecLin W`; route 2: the rows,
enumerated by `Fintype.equivFin`, padded with zero rows to a `d × d` matrix, whose
determinant vanishes. -/
theorem exists_ne_zero_mulVec_eq_zero_of_card_lt {ι : Type*} [Fintype ι] {d : ℕ}
    (W : Matrix ι (Fin d) ℝ) (h : Fintype.card ι < d) :
    ∃ z : Fin d → ℝ, z ≠ 0 ∧ W *ᵥ z = 0 := by
  first
    | (have hdim : Module.finrank ℝ (ι → ℝ) < Module.finrank ℝ (Fin d → ℝ) := by
         first
           | (rw [Module.finrank_fintype_fun_eq_card, Module.finrank_fintype_fun_eq_card,
                Fintype.card_fin]
              exact h)
           | simpa using h
       have hker : LinearMap.ker (Matrix.mulVecLin W) ≠ ⊥ :=
         LinearMap.ker_ne_bot_of_finrank_lt hdim
       obtain ⟨z, hzk, hz0⟩ : ∃ z : Fin d → ℝ, z ∈ LinearMap.ker (Matrix.mulVecLin W) ∧ z ≠ 0 := by
         first
           | exact Submodule.exists_mem_ne_zero_of_ne_bot hker
           | (obtain ⟨z, hzk, hz0⟩ := (Submodule.ne_bot_iff _).mp hker
              exact ⟨z, hzk, hz0⟩)
       refine ⟨z, hz0, ?_⟩
       have h1 : Matrix.mulVecLin W z = 0 := LinearMap.mem_ker.mp hzk
       first
         | (rw [Matrix.mulVecLin_apply] at h1; exact h1)
         | exact h1)
    | (obtain ⟨v, hv, hMv⟩ := Matrix.exists_mulVec_eq_zero_iff.mpr
          (Matrix.det_eq_zero_of_row_eq_zero
            (A := Matrix.of fun (i l : Fin d) =>
              if hi : i.val < Fintype.card ι then W ((Fintype.equivFin ι).symm ⟨i.val, hi⟩) l
              else 0)
            ⟨Fintype.card ι, h⟩
            (fun k => by
              first
                | exact dif_neg (lt_irrefl _)
                | (simp only [Matrix.of_apply]; exact dif_neg (lt_irrefl _))
                | simp))
       refine ⟨v, hv, funext fun j => ?_⟩
       have hj : ((Fintype.equivFin ι) j).val < d := lt_trans ((Fintype.equivFin ι) j).isLt h
       have hrow : ∀ k, (Matrix.of fun (i l : Fin d) =>
           if hi : i.val < Fintype.card ι then W ((Fintype.equivFin ι).symm ⟨i.val, hi⟩) l
           else 0) ⟨((Fintype.equivFin ι) j).val, hj⟩ k = W j k := by
         intro k
         first
           | (rw [Matrix.of_apply]
              show (if hi : ((Fintype.equivFin ι) j).val < Fintype.card ι then
                  W ((Fintype.equivFin ι).symm ⟨((Fintype.equivFin ι) j).val, hi⟩) k else 0)
                = W j k
              rw [dif_pos ((Fintype.equivFin ι) j).isLt, Fin.eta, Equiv.symm_apply_apply]
              done)
           | simp [((Fintype.equivFin ι) j).isLt]
       have h0 := congrFun hMv ⟨((Fintype.equivFin ι) j).val, hj⟩
       simp only [Matrix.mulVec, dotProduct, hrow, Pi.zero_apply] at h0
       simp only [Matrix.mulVec, dotProduct, Pi.zero_apply]
       exact h0)

/-- **Beyond the paper (issue 13).** Fewer than `d` rows `U j`, `j ∈ S`, of a matrix with
`d` columns have a common nonzero kernel vector. -/
theorem exists_ne_zero_forall_mem_dotProduct_eq_zero {m d : ℕ} (U : Matrix (Fin m) (Fin d) ℝ)
    (S : Finset (Fin m)) (hS : S.card < d) :
    ∃ z : Fin d → ℝ, z ≠ 0 ∧ ∀ j ∈ S, U j ⬝ᵥ z = 0 := by
  have hc : Fintype.card S < d := by
    first
      | (rw [Fintype.card_coe]; exact hS)
      | simpa using hS
  obtain ⟨z, hz, hWz⟩ :=
    exists_ne_zero_mulVec_eq_zero_of_card_lt (Matrix.of fun (j : S) (k : Fin d) => U j.1 k) hc
  refine ⟨z, hz, fun j hj => ?_⟩
  have h0 := congrFun hWz ⟨j, hj⟩
  -- definitional: row `⟨j, hj⟩` of the submatrix is `U j`, and `(0 : S → ℝ) ⟨j, hj⟩ = 0`
  first
    | exact h0
    | (simp only [Matrix.mulVec, dotProduct, Matrix.of_apply, Pi.zero_apply] at h0
       simp only [dotProduct]
       exact h0)

/-! ### Step 4: the same value at `R • y + z` and at `R • y` -/

/-- **Beyond the paper (issue 13).** If `y` is off the hyperplanes of the nonzero rows and
`z ≠ 0` is orthogonal to every row active at `y` (`0 < U j ⬝ᵥ y`), the block
`mlp relu V U` takes the same value at `R • y + z` and at `R • y` for a large `R`, so it is
not injective. -/
theorem not_injective_mlp_relu_of_kernel {d n' : ℕ} (V : Matrix (Fin d) (Fin n') ℝ)
    (U : Matrix (Fin n') (Fin d) ℝ) {y z : Fin d → ℝ}
    (hy : ∀ j, (∃ w : Fin d → ℝ, U j ⬝ᵥ w ≠ 0) → U j ⬝ᵥ y ≠ 0) (hz : z ≠ 0)
    (hzy : ∀ j, 0 < U j ⬝ᵥ y → U j ⬝ᵥ z = 0) :
    ¬ Function.Injective (mlp relu V U) := by
  obtain ⟨R, hR0, hR⟩ := exists_scale_abs_lt (fun j => U j ⬝ᵥ y) (fun j => U j ⬝ᵥ z)
  -- unit by unit, the activation is the same at `R • y + z` and at `R • y`
  have hunit : ∀ j, relu (U j ⬝ᵥ (R • y + z)) = relu (U j ⬝ᵥ (R • y)) := by
    intro j
    have e2 : U j ⬝ᵥ (R • y) = R * (U j ⬝ᵥ y) := dotProduct_real_smul (U j) y R
    -- route 1 rewrites with `dotProduct_add` (its instances against those of `Kink`'s lemma);
    -- route 2 is a term, checked at default transparency (review E of 2026-12-03, §6 (2))
    have e1 : U j ⬝ᵥ (R • y + z) = R * (U j ⬝ᵥ y) + U j ⬝ᵥ z := by
      first
        | (rw [dotProduct_add, dotProduct_real_smul]; done)
        | exact (dotProduct_add (U j) (R • y) z).trans (congrArg (fun r => r + U j ⬝ᵥ z) e2)
    rw [e1, e2]
    rcases lt_trichotomy (U j ⬝ᵥ y) 0 with hneg | hzero | hpos
    · -- inactive unit: both pre-activations are `≤ 0`, since `|U j ⬝ᵥ z| < R * |U j ⬝ᵥ y|`
      have hlt : |U j ⬝ᵥ z| < R * |U j ⬝ᵥ y| := hR j (ne_of_lt hneg)
      have ha : |U j ⬝ᵥ y| = -(U j ⬝ᵥ y) := abs_of_neg hneg
      rw [ha] at hlt
      have hc : U j ⬝ᵥ z ≤ |U j ⬝ᵥ z| := le_abs_self _
      have hRa : R * (U j ⬝ᵥ y) ≤ 0 := by nlinarith
      have h1 : R * (U j ⬝ᵥ y) + U j ⬝ᵥ z ≤ 0 := by nlinarith
      have r1 : relu (R * (U j ⬝ᵥ y) + U j ⬝ᵥ z) = 0 := max_eq_right h1
      have r2 : relu (R * (U j ⬝ᵥ y)) = 0 := max_eq_right hRa
      rw [r1, r2]
    · -- zero pre-activation: the row is orthogonal to every vector, in particular to `z`
      have hz0 : U j ⬝ᵥ z = 0 := by
        by_contra hne
        exact hy j ⟨z, hne⟩ hzero
      rw [hz0, add_zero]
    · -- active unit: it does not see `z`
      rw [hzy j hpos, add_zero]
  intro hinj
  have hmlp : mlp relu V U (R • y + z) = mlp relu V U (R • y) := by
    have hcomp : relu ∘ (U *ᵥ (R • y + z)) = relu ∘ (U *ᵥ (R • y)) := by
      funext j
      first
        | exact hunit j
        | (simp only [Function.comp_apply, Matrix.mulVec]; exact hunit j)
    first
      | (show V *ᵥ (relu ∘ (U *ᵥ (R • y + z))) = V *ᵥ (relu ∘ (U *ᵥ (R • y)))
         rw [hcomp]
         done)
      | simp only [mlp, hcomp]
  have heq : R • y + z = R • y := hinj hmlp
  apply hz
  first
    | exact add_left_cancel (heq.trans (add_zero (R • y)).symm)
    | (funext i
       have hi := congrFun heq i
       simp only [Pi.add_apply] at hi
       show z i = 0
       linarith)

/-- **Beyond the paper (issue 13)**, Theorem B′ (block part; Lemma 1 of `deep-stacks.md`).
A residual-free ReLU block `x ↦ V relu(U x)` on `Fin d → ℝ` of hidden width `n' < 2 d` is
not injective. -/
theorem not_injective_mlp_relu_of_lt_two_mul {d n' : ℕ} (V : Matrix (Fin d) (Fin n') ℝ)
    (U : Matrix (Fin n') (Fin d) ℝ) (h : n' < 2 * d) :
    ¬ Function.Injective (mlp relu V U) := by
  obtain ⟨y, hy⟩ := exists_dotProduct_row_ne_zero U
  have hcount : (Finset.filter (fun j => 0 < U j ⬝ᵥ y) Finset.univ).card
      + (Finset.filter (fun j => ¬ 0 < U j ⬝ᵥ y) Finset.univ).card = n' :=
    card_filter_pos_add_card_filter_not_pos (fun j => U j ⬝ᵥ y)
  have hor : (Finset.filter (fun j => 0 < U j ⬝ᵥ y) Finset.univ).card < d
      ∨ (Finset.filter (fun j => ¬ 0 < U j ⬝ᵥ y) Finset.univ).card < d := by
    omega
  rcases hor with hS | hS
  · -- fewer than `d` units are active at `y`: base point `y`
    obtain ⟨z, hz, hzS⟩ := exists_ne_zero_forall_mem_dotProduct_eq_zero U _ hS
    refine not_injective_mlp_relu_of_kernel V U hy hz (fun j hj => hzS j ?_)
    first
      | exact Finset.mem_filter.mpr ⟨Finset.mem_univ j, hj⟩
      | simpa using hj
  · -- fewer than `d` units are not active at `y`: base point `-y`, whose active units are
    -- among them
    obtain ⟨z, hz, hzS⟩ := exists_ne_zero_forall_mem_dotProduct_eq_zero U _ hS
    have hneg : ∀ j, U j ⬝ᵥ (-y) = -(U j ⬝ᵥ y) := fun j => dotProduct_neg (U j) y
    have hy' : ∀ j, (∃ w : Fin d → ℝ, U j ⬝ᵥ w ≠ 0) → U j ⬝ᵥ (-y) ≠ 0 := by
      intro j hj h0
      rw [hneg j] at h0
      exact hy j hj (by linarith)
    refine not_injective_mlp_relu_of_kernel V U hy' hz (fun j hj => hzS j ?_)
    have hnot : ¬ 0 < U j ⬝ᵥ y := by
      intro hpos
      rw [hneg j] at hj
      linarith
    first
      | exact Finset.mem_filter.mpr ⟨Finset.mem_univ j, hnot⟩
      | simpa using hnot

/-! ### Residual blocks with a contracting branch are injective -/

/-- **Beyond the paper (issue 13).** If `f` is Lipschitz with constant `K < 1`, then
`x + f x = y + f y` forces `x = y` (`‖x - y‖ = ‖f y - f x‖ ≤ K ‖x - y‖`). -/
theorem eq_of_add_eq_add_of_lipschitzWith {E : Type*} [NormedAddCommGroup E] {K : NNReal}
    (hK : K < 1) {f : E → E} (hf : LipschitzWith K f) {x y : E} (h : x + f x = y + f y) :
    x = y := by
  have hK' : (K : ℝ) < 1 := by
    first
      | exact_mod_cast hK
      | (have h1 : (K : ℝ) < ((1 : NNReal) : ℝ) := NNReal.coe_lt_coe.mpr hK
         rw [NNReal.coe_one] at h1
         exact h1)
  have hxy : x - y = f y - f x := by
    calc x - y = (x + f x) - (y + f x) := by abel
      _ = (y + f y) - (y + f x) := by rw [h]
      _ = f y - f x := by abel
  have hd : dist x y = dist (f y) (f x) := by
    first
      | (rw [dist_eq_norm, dist_eq_norm, hxy]; done)
      | (rw [dist_eq_norm_sub, dist_eq_norm_sub, hxy]; done)
  have hL : dist (f y) (f x) ≤ K * dist y x := by
    first
      | exact hf.dist_le_mul y x
      | exact lipschitzWith_iff_dist_le_mul.mp hf y x
  rw [dist_comm y x] at hL
  have hle : dist x y ≤ K * dist x y := by
    calc dist x y = dist (f y) (f x) := hd
      _ ≤ K * dist x y := hL
  have hnn : 0 ≤ dist x y := dist_nonneg
  have h0 : dist x y ≤ 0 := by nlinarith
  first
    | exact dist_le_zero.mp h0
    | exact dist_eq_zero.mp (le_antisymm h0 hnn)

/-- **Beyond the paper (issue 13)**, Theorem B′ (residual part). A residual block
`x ↦ x + f x` whose branch is Lipschitz with constant `K < 1` is injective. -/
theorem injective_add_of_lipschitzWith {E : Type*} [NormedAddCommGroup E] {K : NNReal}
    (hK : K < 1) {f : E → E} (hf : LipschitzWith K f) :
    Function.Injective (fun x => x + f x) :=
  fun a b h => eq_of_add_eq_add_of_lipschitzWith (x := a) (y := b) hK hf h

end SkipAbsorption

end
