import SkipAbsorption.ReluParts
import SkipAbsorption.ReluNecessity.Basic
import Mathlib.Algebra.BigOperators.Fin
import Mathlib.Algebra.BigOperators.Pi
import Mathlib.Data.Fin.Tuple.Basic
import Mathlib.Data.Fintype.BigOperators
import Mathlib.LinearAlgebra.Matrix.NonsingularInverse
import Mathlib.LinearAlgebra.Matrix.Rank
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.LinearCombination
import Mathlib.Tactic.Ring

/-!
# Beyond the paper: steps a–e of the width bound (the factor `Y` of `deep-stacks.md` §5)

**Beyond arXiv 2604.23705.** The steps of the rank bound of `SkipAbsorption.Beyond.WidthNecessity`
that do not mention `AbsorbableWithWidth`: for a ReLU block `(Wd, Wu)` of width `n` and any block
`(Vd, Vu)` of width `n'` with the same even and linear parts,

a. `add_mlp_apply_eq_width`, `add_mlp_apply_eq_neg_width`, `relu_evenPart_eq_width`,
   `relu_linearPart_eq_width`, `relu_evenPart_eq_vec_width`: even and linear parts at any width;
b. `exists_lineCoef_of_evenPart_width`, `exists_coef_ne_zero_width`, `lineCoef_eq_of_ne_zero`,
   `col_entry_eq_sum_of_lineCoef`: coefficients on the line of each row of `Wu`;
c. `width_linear_core`, `widthCoef`, `widthFactor`, `widthFactor_apply`,
   `widthFactor_mulVec_apply`, `one_add_selector_eq_mul_widthFactor`: `1 + Wd D_S Wu = Vd Y`;
d. `widthFactor_row_eq_zero`, `exists_unit_of_lineCoef`: the rows of `Y` at the chosen units
   vanish;
e. `mul_eq_mul_diagonal_indicator_mul`, `card_add_le_of_injective_notMem`: rank and count.

The proof outline is in `SkipAbsorption.Beyond.WidthNecessity`, which imports this file. Split
out of it (issue 23) so that these 18 theorems need neither `Beyond.Width` nor `Rank`. Not
compiled: no Lean toolchain here.
-/

open Matrix

namespace SkipAbsorption

variable {d n n' : ℕ}

/-! ### Step a at any width: even and linear parts -/

/-- **Beyond the paper** (width-general form of `add_mlp_apply_eq`, `ReluParts.lean`). An
identity skip absorbed by a block of width `n'`, one coordinate at one input. -/
theorem add_mlp_apply_eq_width (σ : ℝ → ℝ) {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {Vd : Matrix (Fin d) (Fin n') ℝ}
    {Vu : Matrix (Fin n') (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp σ Wd Wu x = mlp σ Vd Vu x)
    (x : Fin d → ℝ) (m : Fin d) :
    x m + ∑ i, Wd m i * σ (Wu i ⬝ᵥ x) = ∑ j, Vd m j * σ (Vu j ⬝ᵥ x) := by
  have e : ((1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp σ Wd Wu x) m = mlp σ Vd Vu x m :=
    congrFun (h x) m
  first
  | (rw [Matrix.one_mulVec, Pi.add_apply, mlp_apply_eq_sum, mlp_apply_eq_sum] at e; exact e)
  | (rw [Matrix.one_mulVec] at e; exact e)

/-- **Beyond the paper** (width-general form of `add_mlp_apply_eq_neg`). The same identity
at `-x`, with the signs moved into the pre-activations. -/
theorem add_mlp_apply_eq_neg_width (σ : ℝ → ℝ) {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {Vd : Matrix (Fin d) (Fin n') ℝ}
    {Vu : Matrix (Fin n') (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp σ Wd Wu x = mlp σ Vd Vu x)
    (x : Fin d → ℝ) (m : Fin d) :
    -(x m) + ∑ i, Wd m i * σ (-(Wu i ⬝ᵥ x)) = ∑ j, Vd m j * σ (-(Vu j ⬝ᵥ x)) := by
  have e := add_mlp_apply_eq_width σ h (-x) m
  rw [sum_mul_dotProduct_neg σ Wd Wu x m, sum_mul_dotProduct_neg σ Vd Vu x m] at e
  first
  | exact e
  | (simp only [Pi.neg_apply] at e; exact e)

/-- **Beyond the paper** (width-general form of `relu_evenPart_eq`). Even parts agree,
coordinate `m`: `∑ i |u_i · x| Wd m i = ∑ j |v_j · x| Vd m j`. -/
theorem relu_evenPart_eq_width {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {Vd : Matrix (Fin d) (Fin n') ℝ}
    {Vu : Matrix (Fin n') (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp relu Wd Wu x = mlp relu Vd Vu x)
    (x : Fin d → ℝ) (m : Fin d) :
    ∑ i, |Wu i ⬝ᵥ x| * Wd m i = ∑ j, |Vu j ⬝ᵥ x| * Vd m j := by
  have e1 := add_mlp_apply_eq_width relu h x m
  have e2 := add_mlp_apply_eq_neg_width relu h x m
  have hW := sum_relu_add_relu_neg Wd Wu x m
  have hV := sum_relu_add_relu_neg Vd Vu x m
  linarith

/-- **Beyond the paper** (width-general form of `relu_linearPart_eq`). Linear parts agree,
coordinate `m`: `2 x m + ∑ i Wd m i (u_i · x) = ∑ j Vd m j (v_j · x)`. -/
theorem relu_linearPart_eq_width {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {Vd : Matrix (Fin d) (Fin n') ℝ}
    {Vu : Matrix (Fin n') (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp relu Wd Wu x = mlp relu Vd Vu x)
    (x : Fin d → ℝ) (m : Fin d) :
    2 * x m + ∑ i, Wd m i * (Wu i ⬝ᵥ x) = ∑ j, Vd m j * (Vu j ⬝ᵥ x) := by
  have e1 := add_mlp_apply_eq_width relu h x m
  have e2 := add_mlp_apply_eq_neg_width relu h x m
  have hW := sum_relu_sub_relu_neg Wd Wu x m
  have hV := sum_relu_sub_relu_neg Vd Vu x m
  linarith

/-- **Beyond the paper** (width-general form of `relu_evenPart_eq_vec`). Even parts agree as
vectors: `∑ i |u_i · x| • w_i = ∑ j |v_j · x| • c_j`. -/
theorem relu_evenPart_eq_vec_width {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {Vd : Matrix (Fin d) (Fin n') ℝ}
    {Vu : Matrix (Fin n') (Fin d) ℝ}
    (h : ∀ x, (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp relu Wd Wu x = mlp relu Vd Vu x) :
    ∀ x : Fin d → ℝ,
      ∑ i, |Wu i ⬝ᵥ x| • (fun m => Wd m i) = ∑ j, |Vu j ⬝ᵥ x| • (fun m => Vd m j) := by
  intro x
  funext m
  first
  | (rw [Finset.sum_apply, Finset.sum_apply]; exact relu_evenPart_eq_width h x m)
  | (simp only [Finset.sum_apply, Pi.smul_apply, smul_eq_mul]
     exact relu_evenPart_eq_width h x m)

/-! ### Step b at any width: coefficients on the line of each row of `Wu` -/

/-- **Beyond the paper** (width-general form of `exists_lineCoef_of_evenPart`,
`ReluNecessity.lean`). On the line `ℝ u_i` the even-part identity gives coefficients `μ` with
`v_j = μ j • u_i` whenever `μ j ≠ 0`, and `w_i = ∑ j |μ j| • c_j`; the absorbing block has
any width `n'`. -/
theorem exists_lineCoef_of_evenPart_width {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {Vd : Matrix (Fin d) (Fin n') ℝ}
    {Vu : Matrix (Fin n') (Fin d) ℝ} (hnd : Nondegenerate Wd Wu)
    (hev : ∀ x : Fin d → ℝ,
      ∑ i, |Wu i ⬝ᵥ x| • (fun m => Wd m i) = ∑ j, |Vu j ⬝ᵥ x| • (fun m => Vd m j))
    (i : Fin n) :
    ∃ μ : Fin n' → ℝ, (∀ k, μ k ≠ 0 → Vu k = μ k • Wu i) ∧
      (fun m => Wd m i) = ∑ k, |μ k| • (fun m => Vd m k) := by
  classical
  -- a coefficient for every row of `Vu`: the one of the line if the row is on it, else `0`
  have hc : ∀ k, ∃ c : ℝ, ((∃ c' : ℝ, Vu k = c' • Wu i) → Vu k = c • Wu i) ∧
      (¬ (∃ c' : ℝ, Vu k = c' • Wu i) → c = 0) := by
    intro k
    by_cases hk : ∃ c' : ℝ, Vu k = c' • Wu i
    · obtain ⟨c', hc'⟩ := hk
      exact ⟨c', fun _ => hc', fun hn => (hn ⟨c', hc'⟩).elim⟩
    · exact ⟨0, fun h => (hk h).elim, fun _ => rfl⟩
  obtain ⟨μ, hμ⟩ : ∃ μ : Fin n' → ℝ, ∀ k,
      ((∃ c' : ℝ, Vu k = c' • Wu i) → Vu k = μ k • Wu i) ∧
        (¬ (∃ c' : ℝ, Vu k = c' • Wu i) → μ k = 0) :=
    ⟨fun k => Classical.choose (hc k), fun k => Classical.choose_spec (hc k)⟩
  obtain ⟨J, hJ⟩ : ∃ J : Finset (Fin n'), ∀ k, k ∈ J ↔ ∃ c' : ℝ, Vu k = c' • Wu i :=
    ⟨Finset.univ.filter (fun k => ∃ c' : ℝ, Vu k = c' • Wu i), fun k => by
      first
      | (rw [Finset.mem_filter]; exact ⟨fun h => h.2, fun h => ⟨Finset.mem_univ k, h⟩⟩)
      | simp⟩
  refine ⟨μ, fun k hk => (hμ k).1 (Classical.byContradiction fun hn => hk ((hμ k).2 hn)), ?_⟩
  -- the rows of `Wu` on the line `ℝ u_i`: only `i`
  have hs : ∀ i', i' ∈ ({i} : Finset (Fin n)) ↔ ∃ c : ℝ, Wu i' = c • Wu i := by
    intro i'
    rw [Finset.mem_singleton]
    constructor
    · intro h
      rw [h]
      exact ⟨1, (one_smul ℝ (Wu i)).symm⟩
    · rintro ⟨c, hc⟩
      by_contra hne
      exact hnd.row_not_parallel i i' (Ne.symm hne) c hc
  have hk : ∑ i' ∈ ({i} : Finset (Fin n)), |(1 : ℝ)| • (fun m => Wd m i')
      = ∑ k ∈ J, |μ k| • (fun m => Vd m k) :=
    kink_sum_disjSum (fun i' => Wu i') (fun k => Vu k) (fun i' m => Wd m i')
      (fun k m => Vd m k) hev (hnd.row_ne_zero i) ({i} : Finset (Fin n)) J hs hJ
      (fun _ => (1 : ℝ)) μ
      (fun i' hi' => by
        rw [Finset.mem_singleton.mp hi']
        exact (one_smul ℝ (Wu i)).symm)
      (fun k hk => (hμ k).1 ((hJ k).mp hk))
  have hk1 : (fun m => Wd m i) = ∑ k ∈ J, |μ k| • (fun m => Vd m k) := by
    rw [Finset.sum_singleton] at hk
    first
    | (rw [abs_one, one_smul] at hk; exact hk)
    | (rw [abs_of_nonneg (zero_le_one : (0 : ℝ) ≤ 1), one_smul] at hk; exact hk)
    | simpa using hk
  have hsub : ∑ k ∈ J, |μ k| • (fun m => Vd m k) = ∑ k, |μ k| • (fun m => Vd m k) :=
    Finset.sum_subset (Finset.subset_univ J) fun k _ hkJ => by
      rw [(hμ k).2 (fun h => hkJ ((hJ k).mpr h)), abs_zero, zero_smul]
  exact hk1.trans hsub

/-- **Beyond the paper** (width-general form of `exists_coef_ne_zero`). The column `w_i ≠ 0`
forces a nonzero coefficient on its line. -/
theorem exists_coef_ne_zero_width {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {Vd : Matrix (Fin d) (Fin n') ℝ}
    (hnd : Nondegenerate Wd Wu) {i : Fin n} {μ : Fin n' → ℝ}
    (hcol : (fun m => Wd m i) = ∑ k, |μ k| • (fun m => Vd m k)) : ∃ k, μ k ≠ 0 := by
  have hne : ∑ k, |μ k| • (fun m => Vd m k) ≠ 0 := fun h0 => hnd.col_ne_zero i (hcol.trans h0)
  first
  | (obtain ⟨k, _, hk⟩ := Finset.exists_ne_zero_of_sum_ne_zero hne
     exact ⟨k, fun h0 => hk (by rw [h0, abs_zero, zero_smul])⟩)
  | (by_contra hall
     apply hne
     refine Finset.sum_eq_zero fun k _ => ?_
     have h0 : μ k = 0 := Classical.byContradiction fun hk => hall ⟨k, hk⟩
     rw [h0, abs_zero, zero_smul])

/-- **Beyond the paper** (bookkeeping). A unit `j` of the absorbing block has a nonzero
coefficient on the line of at most one row of `Wu` (rows pairwise non-parallel). -/
theorem lineCoef_eq_of_ne_zero {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {Vu : Matrix (Fin n') (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) {μ : Fin n → Fin n' → ℝ}
    (hμ : ∀ i j, μ i j ≠ 0 → Vu j = μ i j • Wu i) {i i' : Fin n} {j : Fin n'}
    (hi : μ i j ≠ 0) (hi' : μ i' j ≠ 0) : i = i' := by
  have e : μ i j • Wu i = μ i' j • Wu i' := (hμ i j hi).symm.trans (hμ i' j hi')
  exact hnd.eq_of_smul_eq_smul hi e

/-- **Beyond the paper** (bookkeeping). The column identity `w_i = ∑ j |μ j| • c_j`,
entry `m`. -/
theorem col_entry_eq_sum_of_lineCoef {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Vd : Matrix (Fin d) (Fin n') ℝ} {i : Fin n} {μ : Fin n' → ℝ}
    (hcol : (fun m => Wd m i) = ∑ k, |μ k| • (fun m => Vd m k)) (m : Fin d) :
    Wd m i = ∑ j, |μ j| * Vd m j := by
  have e := congrFun hcol m
  first
  | (rw [Finset.sum_apply] at e; exact e)
  | (simp only [Finset.sum_apply, Pi.smul_apply, smul_eq_mul] at e; exact e)

/-! ### Step c: `1 + Wd D_S Wu = Vd Y` for every `S` -/

/-- **Beyond the paper** (note `deep-stacks.md`, §5). The scalar identity behind step c:
from `2 xm + ∑ W_i a_i = ∑ c_j z_j` and `W_i = ∑ j |μ i j| c_j` it follows, for any `s`, that
`xm + ∑ W_i s_i a_i = ∑ c_j · ½ (z_j + ∑ i (2 s_i - 1) |μ i j| a_i)`. -/
theorem width_linear_core (xm : ℝ) (s a W : Fin n → ℝ) (c z : Fin n' → ℝ)
    (μ : Fin n → Fin n' → ℝ)
    (hL : 2 * xm + ∑ i, W i * a i = ∑ j, c j * z j)
    (hE : ∀ i, W i = ∑ j, |μ i j| * c j) :
    xm + ∑ i, W i * (s i * a i)
      = ∑ j, c j * (1 / 2 * (z j + ∑ i, (2 * s i - 1) * |μ i j| * a i)) := by
  -- swap the double sum and collect the column of `W`
  have h1 : ∑ j, c j * ∑ i, (2 * s i - 1) * |μ i j| * a i
      = ∑ i, (2 * s i - 1) * a i * W i := by
    calc ∑ j, c j * ∑ i, (2 * s i - 1) * |μ i j| * a i
        = ∑ j, ∑ i, c j * ((2 * s i - 1) * |μ i j| * a i) :=
          Finset.sum_congr rfl fun j _ => by rw [Finset.mul_sum]
      _ = ∑ i, ∑ j, c j * ((2 * s i - 1) * |μ i j| * a i) := Finset.sum_comm
      _ = ∑ i, (2 * s i - 1) * a i * ∑ j, |μ i j| * c j := by
          refine Finset.sum_congr rfl fun i _ => ?_
          rw [Finset.mul_sum]
          exact Finset.sum_congr rfl fun j _ => by ring
      _ = ∑ i, (2 * s i - 1) * a i * W i :=
          Finset.sum_congr rfl fun i _ => by rw [hE i]
  have h2 : ∑ i, (2 * s i - 1) * a i * W i
      = 2 * ∑ i, W i * (s i * a i) - ∑ i, W i * a i := by
    have e : ∑ i, (2 * s i - 1) * a i * W i = ∑ i, (2 * (W i * (s i * a i)) - W i * a i) :=
      Finset.sum_congr rfl fun i _ => by ring
    rw [e, Finset.sum_sub_distrib, Finset.mul_sum]
  have h3 : ∑ j, c j * (1 / 2 * (z j + ∑ i, (2 * s i - 1) * |μ i j| * a i))
      = 1 / 2 * (∑ j, c j * z j + ∑ j, c j * ∑ i, (2 * s i - 1) * |μ i j| * a i) := by
    rw [← Finset.sum_add_distrib, Finset.mul_sum]
    exact Finset.sum_congr rfl fun j _ => by ring
  first
  | linarith
  | linear_combination (1 / 2 : ℝ) * hL - (1 / 2 : ℝ) * h1 - (1 / 2 : ℝ) * h2 - h3

/-- **Beyond the paper** (note §5). The coefficient matrix of step c: entry `(j, i)` is
`σ_i |μ i j|` with `σ_i = 2 · 1_S(i) - 1` (`+1` on `S`, `-1` off `S`). -/
noncomputable def widthCoef (S : Finset (Fin n)) (μ : Fin n → Fin n' → ℝ) :
    Matrix (Fin n') (Fin n) ℝ :=
  Matrix.of fun j i => (2 * (if i ∈ S then (1 : ℝ) else 0) - 1) * |μ i j|

/-- **Beyond the paper** (note §5). The factor `Y` of step c:
`Y = ½ (Vu + widthCoef S μ * Wu)`, so that `1 + Wd * diagonal 1_S * Wu = Vd * Y`
(`one_add_selector_eq_mul_widthFactor`). -/
noncomputable def widthFactor (Vu : Matrix (Fin n') (Fin d) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ)
    (S : Finset (Fin n)) (μ : Fin n → Fin n' → ℝ) : Matrix (Fin n') (Fin d) ℝ :=
  (1 / 2 : ℝ) • (Vu + widthCoef S μ * Wu)

/-- **Beyond the paper** (bookkeeping). An entry of `widthFactor`. -/
theorem widthFactor_apply (Vu : Matrix (Fin n') (Fin d) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ)
    (S : Finset (Fin n)) (μ : Fin n → Fin n' → ℝ) (j : Fin n') (l : Fin d) :
    widthFactor Vu Wu S μ j l
      = 1 / 2 * (Vu j l + ∑ i, (2 * (if i ∈ S then (1 : ℝ) else 0) - 1) * |μ i j| * Wu i l) := by
  first
  | rfl
  | simp only [widthFactor, widthCoef, Matrix.smul_apply, Matrix.add_apply, Matrix.mul_apply,
      Matrix.of_apply, smul_eq_mul]

/-- **Beyond the paper** (bookkeeping). `widthFactor` applied to a vector, coordinate `j`:
`(Y x)_j = ½ (v_j · x + ∑ i σ_i |μ i j| (u_i · x))`. -/
theorem widthFactor_mulVec_apply (Vu : Matrix (Fin n') (Fin d) ℝ)
    (Wu : Matrix (Fin n) (Fin d) ℝ) (S : Finset (Fin n)) (μ : Fin n → Fin n' → ℝ)
    (x : Fin d → ℝ) (j : Fin n') :
    (widthFactor Vu Wu S μ *ᵥ x) j
      = 1 / 2 * (Vu j ⬝ᵥ x
          + ∑ i, (2 * (if i ∈ S then (1 : ℝ) else 0) - 1) * |μ i j| * (Wu i ⬝ᵥ x)) := by
  -- the scalar comes out of `*ᵥ`: `Matrix.smul_mulVec`, or by hand (`Finset.mul_sum`)
  have e0 : ((1 / 2 : ℝ) • (Vu + widthCoef S μ * Wu)) *ᵥ x
      = (1 / 2 : ℝ) • ((Vu + widthCoef S μ * Wu) *ᵥ x) := by
    first
    | exact Matrix.smul_mulVec (1 / 2 : ℝ) (Vu + widthCoef S μ * Wu) x
    | (funext j'
       show ∑ l, (1 / 2 : ℝ) * (Vu + widthCoef S μ * Wu) j' l * x l
         = (1 / 2 : ℝ) * ∑ l, (Vu + widthCoef S μ * Wu) j' l * x l
       rw [Finset.mul_sum]
       exact Finset.sum_congr rfl fun l _ => mul_assoc _ _ _)
  have e1 : widthFactor Vu Wu S μ *ᵥ x = (1 / 2 : ℝ) • (Vu *ᵥ x + (widthCoef S μ * Wu) *ᵥ x) := by
    show ((1 / 2 : ℝ) • (Vu + widthCoef S μ * Wu)) *ᵥ x = _
    first
    | ((rw [Matrix.smul_mulVec, Matrix.add_mulVec]) <;> rfl)
    | ((rw [e0, Matrix.add_mulVec]) <;> rfl)
  have e2 : (widthCoef S μ * Wu) *ᵥ x = widthCoef S μ *ᵥ (Wu *ᵥ x) :=
    (Matrix.mulVec_mulVec x (widthCoef S μ) Wu).symm
  rw [e1, e2]
  -- route 3 unfolds only the pointwise `•`, `+` and leaves the rest to `rfl` at default
  -- transparency (review D of 2026-12-03, risk 2)
  first
  | rfl
  | (simp only [Pi.smul_apply, Pi.add_apply, smul_eq_mul, Matrix.mulVec, dotProduct, widthCoef,
      Matrix.of_apply]; done)
  | (simp only [Pi.smul_apply, Pi.add_apply, smul_eq_mul]; rfl)

/-- **Beyond the paper** (note `deep-stacks.md`, §5, step c). If the linear parts agree
(`2 x + Wd Wu x = Vd Vu x`) and every column of `Wd` is `w_i = ∑ j |μ i j| c_j`, then for
**every** index set `S`: `1 + Wd * diagonal 1_S * Wu = Vd * widthFactor Vu Wu S μ`. -/
theorem one_add_selector_eq_mul_widthFactor {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {Vd : Matrix (Fin d) (Fin n') ℝ}
    {Vu : Matrix (Fin n') (Fin d) ℝ} (S : Finset (Fin n)) (μ : Fin n → Fin n' → ℝ)
    (hlin : ∀ (x : Fin d → ℝ) (m : Fin d),
      2 * x m + ∑ i, Wd m i * (Wu i ⬝ᵥ x) = ∑ j, Vd m j * (Vu j ⬝ᵥ x))
    (hcol : ∀ i m, Wd m i = ∑ j, |μ i j| * Vd m j) :
    1 + Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
      = Vd * widthFactor Vu Wu S μ := by
  rw [Matrix.ext_iff_mulVec]
  intro x
  funext m
  -- route 1 closes by `rfl` at default transparency if `rw`'s reducible `rfl` does not (the `+`
  -- of `Pi.add_apply` against the stated one); route 2 normalises with `simp only`; route 3 is
  -- a term (review D of 2026-12-03, risk 1)
  have hL : ((1 + Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) *ᵥ x) m
      = x m + ∑ i, Wd m i * ((if i ∈ S then (1 : ℝ) else 0) * (Wu i ⬝ᵥ x)) := by
    first
    | ((rw [Matrix.add_mulVec, Matrix.one_mulVec, Pi.add_apply, selector_mulVec_apply]) <;> rfl)
    | (simp only [Matrix.add_mulVec, Matrix.one_mulVec, Pi.add_apply, selector_mulVec_apply]; done)
    | exact (congrFun (Matrix.add_mulVec (1 : Matrix (Fin d) (Fin d) ℝ)
          (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) x) m).trans
        (congr (congrArg (fun a b : ℝ => a + b) (congrFun (Matrix.one_mulVec x) m))
          (selector_mulVec_apply Wd Wu S x m))
  have hR : ((Vd * widthFactor Vu Wu S μ) *ᵥ x) m
      = ∑ j, Vd m j * (1 / 2 * (Vu j ⬝ᵥ x
          + ∑ i, (2 * (if i ∈ S then (1 : ℝ) else 0) - 1) * |μ i j| * (Wu i ⬝ᵥ x))) := by
    have e1 : (Vd * widthFactor Vu Wu S μ) *ᵥ x = Vd *ᵥ (widthFactor Vu Wu S μ *ᵥ x) :=
      (Matrix.mulVec_mulVec x Vd (widthFactor Vu Wu S μ)).symm
    have e2 : (Vd *ᵥ (widthFactor Vu Wu S μ *ᵥ x)) m
        = ∑ j, Vd m j * (widthFactor Vu Wu S μ *ᵥ x) j := by
      first
      | rfl
      | simp only [Matrix.mulVec, dotProduct]
    rw [e1, e2]
    exact Finset.sum_congr rfl fun j _ => by rw [widthFactor_mulVec_apply]
  rw [hL, hR]
  exact width_linear_core (x m) (fun i => if i ∈ S then (1 : ℝ) else 0) (fun i => Wu i ⬝ᵥ x)
    (fun i => Wd m i) (fun j => Vd m j) (fun j => Vu j ⬝ᵥ x) μ (hlin x m) (fun i => hcol i m)

/-! ### Step d: the rows of `Y` at the chosen units vanish -/

/-- **Beyond the paper** (note `deep-stacks.md`, §5, step d). If the unit `j` lies on the
line of `u_i` (`μ i j ≠ 0`) with `μ i j + σ_i |μ i j| = 0`, the row `j` of
`widthFactor Vu Wu S μ` is `0`: `v_j = μ i j • u_i`, and every other `μ i' j` is `0`. -/
theorem widthFactor_row_eq_zero {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {Vu : Matrix (Fin n') (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) (S : Finset (Fin n)) {μ : Fin n → Fin n' → ℝ}
    (hμ : ∀ i j, μ i j ≠ 0 → Vu j = μ i j • Wu i) {i : Fin n} {j : Fin n'}
    (hj : μ i j ≠ 0)
    (hg : μ i j + (2 * (if i ∈ S then (1 : ℝ) else 0) - 1) * |μ i j| = 0) :
    widthFactor Vu Wu S μ j = 0 := by
  funext l
  have hrow : Vu j l = μ i j * Wu i l := by
    have e := congrFun (hμ i j hj) l
    first
    | exact e
    | (simp only [Pi.smul_apply, smul_eq_mul] at e; exact e)
  have hzero : ∀ i', i' ≠ i → μ i' j = 0 := by
    intro i' hi'
    by_contra h0
    exact hi' (lineCoef_eq_of_ne_zero hnd hμ h0 hj)
  have hsum : ∑ i', (2 * (if i' ∈ S then (1 : ℝ) else 0) - 1) * |μ i' j| * Wu i' l
      = (2 * (if i ∈ S then (1 : ℝ) else 0) - 1) * |μ i j| * Wu i l :=
    Fintype.sum_eq_single i fun i' hi' => by rw [hzero i' hi', abs_zero, mul_zero, zero_mul]
  rw [widthFactor_apply, hrow, hsum]
  show 1 / 2 * (μ i j * Wu i l + (2 * (if i ∈ S then (1 : ℝ) else 0) - 1) * |μ i j| * Wu i l)
    = (0 : ℝ)
  linear_combination (1 / 2 * Wu i l) * hg

/-- **Beyond the paper** (note `deep-stacks.md`, §5, step d). With
`S = {i | μ i j ≤ 0 for every j}`, every row `i` of `Wu` has a unit `j` with `μ i j ≠ 0` and
`μ i j + σ_i |μ i j| = 0`: a positive coefficient if `i ∉ S`; if `i ∈ S`, any nonzero
coefficient (one exists, `exists_coef_ne_zero_width`), which is then negative. -/
theorem exists_unit_of_lineCoef {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} {Vd : Matrix (Fin d) (Fin n') ℝ}
    (hnd : Nondegenerate Wd Wu) {μ : Fin n → Fin n' → ℝ}
    (hcol : ∀ i, (fun m => Wd m i) = ∑ k, |μ i k| • (fun m => Vd m k))
    (S : Finset (Fin n)) (hS : ∀ i, i ∈ S ↔ ∀ j, μ i j ≤ 0) (i : Fin n) :
    ∃ j, μ i j ≠ 0 ∧ μ i j + (2 * (if i ∈ S then (1 : ℝ) else 0) - 1) * |μ i j| = 0 := by
  by_cases hi : i ∈ S
  · obtain ⟨j, hj⟩ := exists_coef_ne_zero_width hnd (hcol i)
    have hle : μ i j ≤ 0 := (hS i).mp hi j
    refine ⟨j, hj, ?_⟩
    rw [if_pos hi, abs_of_nonpos hle]
    ring
  · have hex : ∃ j, 0 < μ i j := by
      by_contra hne
      apply hi
      refine (hS i).mpr fun j => ?_
      by_contra hj
      apply hne
      refine ⟨j, ?_⟩
      first
      | exact not_le.mp hj
      | exact lt_of_not_ge hj
      | linarith
    obtain ⟨j, hj⟩ := hex
    have hj0 : μ i j ≠ 0 := by
      first
      | exact hj.ne'
      | (intro h0; rw [h0] at hj; exact lt_irrefl 0 hj)
    refine ⟨j, hj0, ?_⟩
    rw [if_neg hi, abs_of_pos hj]
    ring

/-! ### Step e: rank and count -/

/-- **Beyond the paper** (bookkeeping). If every row of `Y` outside `K` is `0`, then
`X * Y = X * diagonal 1_K * Y`. -/
theorem mul_eq_mul_diagonal_indicator_mul {k : ℕ} (X : Matrix (Fin d) (Fin k) ℝ)
    (Y : Matrix (Fin k) (Fin d) ℝ) (K : Finset (Fin k)) (hY : ∀ j, j ∉ K → Y j = 0) :
    X * Y = X * Matrix.diagonal (fun j => if j ∈ K then (1 : ℝ) else 0) * Y := by
  have hDY : Matrix.diagonal (fun j => if j ∈ K then (1 : ℝ) else 0) * Y = Y := by
    ext j l
    rw [Matrix.diagonal_mul]
    by_cases hj : j ∈ K
    · rw [if_pos hj, one_mul]
    · rw [if_neg hj, zero_mul]
      first
      | exact (congrFun (hY j hj) l).symm
      | simp [hY j hj]
  rw [Matrix.mul_assoc, hDY]

/-- **Beyond the paper** (bookkeeping). An injective `τ : Fin n → Fin n'` that avoids `K`
gives `K.card + n ≤ n'` (`Fin n ⊕ K` injects into `Fin n'`). -/
theorem card_add_le_of_injective_notMem (K : Finset (Fin n')) (τ : Fin n → Fin n')
    (hτ : Function.Injective τ) (hK : ∀ i, τ i ∉ K) : K.card + n ≤ n' := by
  have hf : Function.Injective (Sum.elim τ (fun k : K => (k : Fin n'))) := by
    intro p q hpq
    cases p with
    | inl i =>
      cases q with
      | inl i' =>
        have h : τ i = τ i' := hpq
        exact congrArg Sum.inl (hτ h)
      | inr k' =>
        exfalso
        have h : τ i = (k' : Fin n') := hpq
        apply hK i
        rw [h]
        exact k'.2
    | inr k =>
      cases q with
      | inl i' =>
        exfalso
        have h : (k : Fin n') = τ i' := hpq
        apply hK i'
        rw [← h]
        exact k.2
      | inr k' =>
        have h : (k : Fin n') = (k' : Fin n') := hpq
        exact congrArg Sum.inr (Subtype.ext h)
  have hc := Fintype.card_le_of_injective _ hf
  first
  | (simp only [Fintype.card_sum, Fintype.card_fin, Fintype.card_coe] at hc; omega)
  | (rw [Fintype.card_sum, Fintype.card_coe, Fintype.card_fin, Fintype.card_fin] at hc; omega)

end SkipAbsorption
