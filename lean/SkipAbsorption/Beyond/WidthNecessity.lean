import SkipAbsorption.Beyond.Width
import SkipAbsorption.Beyond.WidthFactor
import SkipAbsorption.Rank
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.LinearCombination
import Mathlib.Tactic.Ring

/-!
# Beyond the paper: the width an absorbing ReLU block needs (rank bound)

**This file goes beyond arXiv 2604.23705.** It formalises the necessity half of Theorem C of
the research note `deep-stacks.md` in the sharper form of its §5. Let `(Wd, Wu)` be a ReLU
block of width `n` with the paper's nondegeneracy (`Nondegenerate Wd Wu`), and suppose a ReLU
block `(Vd, Vu)` of **any** width `n'` absorbs its identity skip
(`AbsorbableWithWidth relu 1 Wd Wu n'`). Then

* `exists_rank_le_of_absorbableWithWidth`: some `S` has
  `rank (1 + Wd * diagonal 1_S * Wu) + n ≤ n'`;
* `card_le_width_of_absorbableWithWidth`: in particular `n ≤ n'`;
* `exists_sCondition_of_absorbableWithWidth_self`: at `n' = n` the matrix is `0`, i.e. the
  S-condition `Wd * diagonal 1_S * Wu = -1` (paper Theorem 8, necessity, again);
* `le_width_of_absorbableWithWidth`: under the genericity condition (ND) of the note,
  `det (1 + Wd * diagonal 1_S * Wu) ≠ 0` for every `S`, `n + d ≤ n'`;
* `absorbableWithWidth_relu_iff`: with some `d` independent rows of `Wu`
  (`SkipAbsorption.Beyond.Width`), **Theorem C**: width `n'` suffices iff `n + d ≤ n'`.

## Proof (the note's §5, reorganised so that no case analysis on lines is needed)

Write `u_i = Wu i`, `w_i = Wd[:,i]`, `v_j = Vu j`, `c_j = Vd[:,j]`.

a. (`relu_evenPart_eq_vec_width`, `relu_linearPart_eq_width`) As for Theorem 8, at any width:
   `∑ i |u_i·x| w_i = ∑ j |v_j·x| c_j` and `2 x + Wd Wu x = Vd Vu x`.
b. (`exists_lineCoef_of_evenPart_width`) The kink lemma on the line `ℝ u_i` gives coefficients
   `μ i j` with `v_j = μ i j • u_i` whenever `μ i j ≠ 0`, and `w_i = ∑ j |μ i j| c_j`; a unit
   `j` has a nonzero coefficient for at most one `i` (`lineCoef_eq_of_ne_zero`).
c. (`one_add_selector_eq_mul_widthFactor`, from the scalar identity `width_linear_core`) For
   **every** `S`, with `σ_i = +1` on `S` and `-1` off `S`,
   `1 + Wd D_S Wu = Vd Y` where `Y j = ½ (v_j + ∑ i σ_i |μ i j| u_i)` (`widthFactor`).
   Indeed `Vd Y x = ½ (2x + Wd Wu x) + ½ ∑ i σ_i (u_i·x) w_i = x + ∑_{i∈S} (u_i·x) w_i`.
d. (`widthFactor_row_eq_zero`) Choose `S = {i | μ i j ≤ 0 for all j}`. For every `i` some unit
   `τ i` has `μ i (τ i) ≠ 0` and `μ + σ_i |μ| = 0` (a positive coefficient if `i ∉ S`, any
   nonzero one if `i ∈ S`, which exists because `w_i ≠ 0`). Then the row `Y (τ i)` is `0`,
   and `τ` is injective.
e. (`mul_eq_mul_diagonal_indicator_mul`, `card_add_le_of_injective_notMem`) With
   `K = {j | Y j ≠ 0}`, `Vd Y = Vd D_K Y` has rank at most `|K|`
   (`rank_mul_diagonal_indicator_mul_le`, `Rank.lean`), and `τ` maps `Fin n` into the
   complement of `K`, so `|K| + n ≤ n'`.

The note's own count (`|T1| + 2|T2| + 2·#foreign` units) gives the same bound; the form above
needs neither the split into `T1`/`T2` nor a separate treatment of foreign lines.

The lemmas of step a and b restate `relu_evenPart_eq_vec`, `relu_linearPart_eq`
(`ReluParts.lean`), `exists_lineCoef_of_evenPart` and `exists_coef_ne_zero`
(`ReluNecessity/Basic.lean`) for an absorbing block of another width; the proofs are those of the
equal-width versions, with the widths separated.

Layout (issue 23): steps a–e are proved in `SkipAbsorption.Beyond.WidthFactor` (which needs
neither `Beyond.Width` nor `Rank`); this file proves the statements about `AbsorbableWithWidth`.

Status: not compiled (no Lean toolchain here). Every Mathlib name used is listed in
`lean/CHECKED_NAMES.md`, section "Beyond the paper: width (issue 13)".
-/

open Matrix

namespace SkipAbsorption

variable {d n n' : ℕ}

/-! ### The rank bound and its corollaries -/

/-- **Beyond the paper** (note `deep-stacks.md`, §5, steps a–e). For nondegenerate weights,
if a ReLU block of width `n'` absorbs the identity skip of `(Wd, Wu)` (width `n`), then for
some `S` the matrix `1 + Wd * diagonal 1_S * Wu` factors as `X * diagonal 1_K * Y` through a
set `K` of at most `n' - n` hidden units (`K.card + n ≤ n'`). -/
theorem exists_factor_of_absorbableWithWidth {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu)
    (h : AbsorbableWithWidth relu 1 Wd Wu n') :
    ∃ (S : Finset (Fin n)) (K : Finset (Fin n')) (X : Matrix (Fin d) (Fin n') ℝ)
      (Y : Matrix (Fin n') (Fin d) ℝ),
      1 + Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
          = X * Matrix.diagonal (fun j => if j ∈ K then (1 : ℝ) else 0) * Y ∧
        K.card + n ≤ n' := by
  unfold AbsorbableWithWidth at h
  obtain ⟨Vd, Vu, hV⟩ := h
  -- step a
  have hev := relu_evenPart_eq_vec_width hV
  have hlin := relu_linearPart_eq_width hV
  -- step b
  have hline : ∀ i, ∃ μ : Fin n' → ℝ, (∀ k, μ k ≠ 0 → Vu k = μ k • Wu i) ∧
      (fun m => Wd m i) = ∑ k, |μ k| • (fun m => Vd m k) :=
    fun i => exists_lineCoef_of_evenPart_width hnd hev i
  obtain ⟨μ, hμ⟩ : ∃ μ : Fin n → Fin n' → ℝ, ∀ i, (∀ k, μ i k ≠ 0 → Vu k = μ i k • Wu i) ∧
      (fun m => Wd m i) = ∑ k, |μ i k| • (fun m => Vd m k) :=
    ⟨fun i => Classical.choose (hline i), fun i => Classical.choose_spec (hline i)⟩
  have hμ1 : ∀ i j, μ i j ≠ 0 → Vu j = μ i j • Wu i := fun i j hj => (hμ i).1 j hj
  have hcol : ∀ i m, Wd m i = ∑ j, |μ i j| * Vd m j :=
    fun i m => col_entry_eq_sum_of_lineCoef (hμ i).2 m
  -- step d: the choice of `S`
  obtain ⟨S, hS⟩ : ∃ S : Finset (Fin n), ∀ i, i ∈ S ↔ ∀ j, μ i j ≤ 0 := by
    classical
    exact ⟨Finset.univ.filter (fun i => ∀ j, μ i j ≤ 0), fun i => by
      first
      | (rw [Finset.mem_filter]; exact ⟨fun h => h.2, fun h => ⟨Finset.mem_univ i, h⟩⟩)
      | simp⟩
  -- step c
  have hid := one_add_selector_eq_mul_widthFactor (Vu := Vu) S μ hlin hcol
  -- step d: one unit per row of `Wu` whose row of `Y` vanishes
  have hgood := exists_unit_of_lineCoef hnd (fun i => (hμ i).2) S hS
  obtain ⟨τ, hτ⟩ : ∃ τ : Fin n → Fin n', ∀ i, μ i (τ i) ≠ 0 ∧
      μ i (τ i) + (2 * (if i ∈ S then (1 : ℝ) else 0) - 1) * |μ i (τ i)| = 0 :=
    ⟨fun i => Classical.choose (hgood i), fun i => Classical.choose_spec (hgood i)⟩
  have hτinj : Function.Injective τ := by
    intro i₁ i₂ h12
    have h2 : μ i₂ (τ i₁) ≠ 0 := by
      rw [h12]
      exact (hτ i₂).1
    exact lineCoef_eq_of_ne_zero hnd hμ1 (hτ i₁).1 h2
  have hYτ : ∀ i, widthFactor Vu Wu S μ (τ i) = 0 :=
    fun i => widthFactor_row_eq_zero hnd S hμ1 (hτ i).1 (hτ i).2
  -- step e: the units with a nonzero row of `Y`
  obtain ⟨K, hK⟩ : ∃ K : Finset (Fin n'), ∀ j, j ∈ K ↔ widthFactor Vu Wu S μ j ≠ 0 := by
    classical
    exact ⟨Finset.univ.filter (fun j => widthFactor Vu Wu S μ j ≠ 0), fun j => by
      first
      | (rw [Finset.mem_filter]; exact ⟨fun h => h.2, fun h => ⟨Finset.mem_univ j, h⟩⟩)
      | simp⟩
  refine ⟨S, K, Vd, widthFactor Vu Wu S μ, ?_, ?_⟩
  · rw [hid]
    exact mul_eq_mul_diagonal_indicator_mul Vd _ K fun j hj =>
      Classical.byContradiction fun h0 => hj ((hK j).mpr h0)
  · exact card_add_le_of_injective_notMem K τ hτinj fun i hi => (hK (τ i)).mp hi (hYτ i)

/-- **Beyond the paper** (note `deep-stacks.md`, §5: the rank bound). For nondegenerate
weights (`Nondegenerate Wd Wu`), if a ReLU block of hidden width `n'` absorbs the identity skip
of the ReLU block `(Wd, Wu)` of width `n`, then some index set `S` has
`rank (1 + Wd[:,S] Wu[S,:]) ≤ n' - n`, stated without subtraction:
`(1 + Wd * diagonal 1_S * Wu).rank + n ≤ n'`. -/
theorem exists_rank_le_of_absorbableWithWidth {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu)
    (h : AbsorbableWithWidth relu 1 Wd Wu n') :
    ∃ S : Finset (Fin n),
      (1 + Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu).rank + n ≤ n' := by
  obtain ⟨S, K, X, Y, hXY, hK⟩ := exists_factor_of_absorbableWithWidth hnd h
  refine ⟨S, ?_⟩
  have h1 : (1 + Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu).rank
      ≤ K.card := by
    first
    | (rw [hXY]; exact rank_mul_diagonal_indicator_mul_le X Y K)
    | exact (congrArg (fun M : Matrix (Fin d) (Fin d) ℝ => M.rank) hXY).trans_le
        (rank_mul_diagonal_indicator_mul_le X Y K)
  omega

/-- **Beyond the paper** (note `deep-stacks.md`, §5, first consequence). For nondegenerate
weights, a ReLU block that absorbs the identity skip of a ReLU block of width `n` has width
at least `n`. -/
theorem card_le_width_of_absorbableWithWidth {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu)
    (h : AbsorbableWithWidth relu 1 Wd Wu n') : n ≤ n' := by
  obtain ⟨S, hS⟩ := exists_rank_le_of_absorbableWithWidth hnd h
  omega

/-- **Beyond the paper** (note `deep-stacks.md`, §5, the case `n' = n`). At the block's own
width the bound forces `1 + Wd * diagonal 1_S * Wu = 0`, i.e. the S-condition
`Wd * diagonal 1_S * Wu = -1`: paper Theorem 8, necessity, obtained again from the width
argument (`exists_sCondition_of_absorbable_relu` is the paper's own route; it is the
fallback of this proof). -/
theorem exists_sCondition_of_absorbableWithWidth_self {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu)
    (h : AbsorbableWithWidth relu 1 Wd Wu n) :
    ∃ S : Finset (Fin n),
      Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 := by
  first
  | -- route 1: the factorisation through `K`, and `K` is empty
    (obtain ⟨S, K, X, Y, hXY, hK⟩ := exists_factor_of_absorbableWithWidth hnd h
     refine ⟨S, ?_⟩
     have hK0 : ∀ j, j ∉ K := fun j hj => Finset.card_ne_zero_of_mem hj (by omega)
     have hzero : ∀ m l,
         (X * Matrix.diagonal (fun j => if j ∈ K then (1 : ℝ) else 0) * Y) m l = 0 := by
       intro m l
       rw [Matrix.mul_apply]
       refine Finset.sum_eq_zero fun j _ => ?_
       rw [Matrix.mul_diagonal, if_neg (hK0 j), mul_zero, zero_mul]
     ext i j
     have e := congrFun (congrFun hXY i) j
     have e1 : (1 + Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) i j
         = (1 : Matrix (Fin d) (Fin d) ℝ) i j
           + (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) i j := rfl
     have e2 : (-1 : Matrix (Fin d) (Fin d) ℝ) i j = -((1 : Matrix (Fin d) (Fin d) ℝ) i j) := rfl
     rw [e2]
     linarith [hzero i j])
  | -- route 2: the paper's Theorem 8 (`ReluNecessity.lean`), since width `n` is `Absorbable`
    exact exists_sCondition_of_absorbable_relu hnd
      ((absorbableWithWidth_self_iff relu 1 Wd Wu).mp h)

/-- **Beyond the paper** (bookkeeping). A square matrix with nonzero determinant has full
rank `d` (`d = rank 1 = rank (M M⁻¹) ≤ rank M`). -/
theorem le_rank_of_det_ne_zero (M : Matrix (Fin d) (Fin d) ℝ) (hM : M.det ≠ 0) : d ≤ M.rank := by
  have hU : IsUnit M.det := by
    first
    | exact isUnit_iff_ne_zero.mpr hM
    | exact Ne.isUnit hM
    | exact IsUnit.mk0 _ hM
  have h1 : M * M⁻¹ = 1 := Matrix.mul_nonsing_inv M hU
  calc d = (1 : Matrix (Fin d) (Fin d) ℝ).rank := by rw [Matrix.rank_one, Fintype.card_fin]
    _ = (M * M⁻¹).rank := by rw [h1]
    _ ≤ M.rank := Matrix.rank_mul_le_left M M⁻¹

/-- **Beyond the paper** (note `deep-stacks.md`, Theorem C, necessity). Under the paper's
nondegeneracy and the note's genericity condition (ND), `det (1 + Wd[:,S] Wu[S,:]) ≠ 0` for
every `S`, a ReLU block that absorbs the identity skip of a ReLU block of width `n` has width
at least `n + d`. -/
theorem le_width_of_absorbableWithWidth {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu)
    (hND : ∀ S : Finset (Fin n),
      (1 + Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu).det ≠ 0)
    (h : AbsorbableWithWidth relu 1 Wd Wu n') : n + d ≤ n' := by
  obtain ⟨S, hS⟩ := exists_rank_le_of_absorbableWithWidth hnd h
  have hd := le_rank_of_det_ne_zero _ (hND S)
  omega

/-- **Beyond the paper: Theorem C** of the note `deep-stacks.md`. For nondegenerate weights
satisfying (ND), and with `d` linearly independent rows `Wu (e 0), …, Wu (e (d-1))`
(`IsUnit (Wu.submatrix e id).det`), the identity skip of the ReLU block `(Wd, Wu)` of width `n`
is absorbed by a ReLU block of width `n'` **iff** `n + d ≤ n'`. -/
theorem absorbableWithWidth_relu_iff {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu)
    (hND : ∀ S : Finset (Fin n),
      (1 + Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu).det ≠ 0)
    (e : Fin d → Fin n) (hU : IsUnit (Wu.submatrix e id).det) :
    AbsorbableWithWidth relu 1 Wd Wu n' ↔ n + d ≤ n' :=
  ⟨le_width_of_absorbableWithWidth hnd hND,
    fun hle => (absorbableWithWidth_add_of_isUnit_det (Wd := Wd) e hU).mono hle⟩

end SkipAbsorption
