import SkipAbsorption.Defs
import SkipAbsorption.ReluParts
import SkipAbsorption.Kink
import Mathlib.LinearAlgebra.Matrix.NonsingularInverse
import Mathlib.Algebra.BigOperators.Ring.Finset
import Mathlib.Data.Fintype.BigOperators
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.LinearCombination
import Mathlib.Tactic.Ring

/-!
# ReLU necessity: paper Theorem 8, "only if" (issue 10, items 2 and 3)

For nondegenerate weights (`Nondegenerate Wd Wu`, paper D5 as reconstructed, in `Defs.lean`),
a ReLU block absorbs the identity skip **only if** some index set `S` has
`Wd * diagonal 1_S * Wu = -1`: `exists_sCondition_of_absorbable_relu`. The `iff` forms
(`absorbable_relu_iff`, `absorbable_relu_iff_of_isUnit_det`) are in `SkipAbsorption.ReluNecessity`,
which imports this file with the sufficiency half (`Parity.lean`) and paper Lemma 4
(`Reduction.lean`); this file needs neither (issue 23: `Beyond/WidthNecessity` imports only
this file, so a failure in `Parity` or `Reduction` does not reach it).

The absorbing block `(Vd, Vu)` is arbitrary: no hypothesis on it. Proof, with `u_i = Wu i`,
`w_i = fun m => Wd m i` and `u'_j`, `w'_j` for `(Vu, Vd)`:

a. (`ReluParts.lean`) even parts `∑ i |u_i·x| w_i = ∑ j |u'_j·x| w'_j` and linear parts
   `2 x + Wd Wu x = Vd Vu x`.
b. (`kink_sum_disjSum`) the kink lemma `kink_sum_eq_zero` (`Kink.lean`), applied to the
   family indexed by `Fin n ⊕ Fin n`, compares the coefficients on one line `ℝ p`.
c. (`exists_lineCoef_of_evenPart`, `exists_coef_ne_zero`, `matching_bijective`,
   `matching_coef_eq_zero`, `col_entry_eq_of_coef`) on the line `ℝ u_i` the only row of `Wu`
   is `u_i` itself, so `w_i = ∑ j |μ_ij| w'_j` over the `u'_j = μ_ij u_i`; as `w_i ≠ 0`, some
   `μ_i τ(i) ≠ 0`; `τ` is injective (rows of `Wu` pairwise non-parallel), hence bijective (equal
   widths), so `μ_ij = 0` for `j ≠ τ i` and `w_i = |μ_i| w'_τ(i)`, `u'_τ(i) = μ_i u_i`.
d. (`sCondition_of_matching`) reindexing `Vd Vu x` by `τ`:
   `∑ j w'_j (u'_j·x) = ∑ i sign(μ_i) w_i (u_i·x)`, so
   `2 x = ∑ i (sign μ_i − 1) w_i (u_i·x) = −2 ∑_{i ∈ S} w_i (u_i·x)` with `S = {i | μ_i < 0}`.

At the end, `neg_inv_one_smul_one` (`-(1⁻¹) • 1 = -1`) turns the S-condition `… = -1` proved
here into the hypothesis `… = -(c⁻¹) • 1` of the sufficiency lemmas at `c = 1` (moved here
from `ReluNecessity.lean`: every file that uses it imports this one).

Not compiled: no Lean toolchain here.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-! ### Nondegenerate weights: accessors -/

/-- Build `Nondegenerate Wd Wu` from its three conditions. -/
theorem Nondegenerate.intro {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (h1 : ∀ i : Fin n, Wu i ≠ 0) (h2 : ∀ i j : Fin n, i ≠ j → ∀ c : ℝ, Wu j ≠ c • Wu i)
    (h3 : ∀ i : Fin n, (fun k : Fin d => Wd k i) ≠ 0) : Nondegenerate Wd Wu :=
  And.intro h1 (And.intro h2 h3)

/-- Nondegenerate weights: every row of `Wu` is nonzero. -/
theorem Nondegenerate.row_ne_zero {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (h : Nondegenerate Wd Wu) (i : Fin n) : Wu i ≠ 0 := by
  first
  | exact (And.left h) i
  | exact h.1 i

/-- Nondegenerate weights: no two rows of `Wu` are parallel. -/
theorem Nondegenerate.row_not_parallel {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (h : Nondegenerate Wd Wu) (i j : Fin n) (hij : i ≠ j)
    (c : ℝ) : Wu j ≠ c • Wu i := by
  first
  | exact (And.left (And.right h)) i j hij c
  | exact h.2.1 i j hij c

/-- Nondegenerate weights: every column of `Wd` is nonzero. -/
theorem Nondegenerate.col_ne_zero {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (h : Nondegenerate Wd Wu) (i : Fin n) :
    (fun k => Wd k i) ≠ 0 := by
  first
  | exact (And.right (And.right h)) i
  | exact h.2.2 i

/-- Two nonzero multiples of rows of `Wu` can only agree for the same row:
`a • u_i' = b • u_i` with `a ≠ 0` forces `i' = i`. -/
theorem Nondegenerate.eq_of_smul_eq_smul {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (h : Nondegenerate Wd Wu) {i i' : Fin n} {a b : ℝ}
    (ha : a ≠ 0) (hab : a • Wu i' = b • Wu i) : i' = i := by
  by_contra hne
  apply h.row_not_parallel i i' (Ne.symm hne) (a⁻¹ * b)
  -- goal: `Wu i' = (a⁻¹ * b) • Wu i`
  first
  | (rw [← smul_smul, ← hab, inv_smul_smul₀ ha]; done)
  | (funext m
     have hm := congrFun hab m
     simp only [Pi.smul_apply, smul_eq_mul] at hm ⊢
     have hinv : a * a⁻¹ = 1 := mul_inv_cancel₀ ha
     linear_combination a⁻¹ * hm - Wu i' m * hinv)

/-- Nondegeneracy survives left multiplication of `Wd` by an invertible `A⁻¹` (the rows of
`Wu` are unchanged; a column `A⁻¹ w = 0` forces `w = A (A⁻¹ w) = 0`). -/
theorem Nondegenerate.inv_mul {A : Matrix (Fin d) (Fin d) ℝ} (hA : IsUnit A.det)
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) : Nondegenerate (A⁻¹ * Wd) Wu := by
  refine Nondegenerate.intro hnd.row_ne_zero hnd.row_not_parallel fun i hcol => ?_
  apply hnd.col_ne_zero i
  -- hcol : `(fun k => (A⁻¹ * Wd) k i) = 0`; goal: `(fun k => Wd k i) = 0`
  have e1 : (fun k => (A⁻¹ * Wd) k i) = A⁻¹ *ᵥ (fun k => Wd k i) := by
    funext k
    first
    | rfl
    | simp only [Matrix.mul_apply, Matrix.mulVec, dotProduct]
  have e2 : A *ᵥ (A⁻¹ *ᵥ (fun k => Wd k i)) = (fun k => Wd k i) := by
    first
    | exact (Matrix.mulVec_mulVec (fun k => Wd k i) A A⁻¹).trans
        ((congrArg (fun M : Matrix (Fin d) (Fin d) ℝ => M *ᵥ (fun k => Wd k i))
          (Matrix.mul_nonsing_inv A hA)).trans (Matrix.one_mulVec (fun k => Wd k i)))
    | (rw [Matrix.mulVec_mulVec, Matrix.mul_nonsing_inv A hA, Matrix.one_mulVec]; done)
    | simp only [Matrix.mulVec_mulVec, Matrix.mul_nonsing_inv A hA, Matrix.one_mulVec]
  calc (fun k => Wd k i) = A *ᵥ (A⁻¹ *ᵥ (fun k => Wd k i)) := e2.symm
    _ = A *ᵥ (fun k => (A⁻¹ * Wd) k i) := congrArg (fun v => A *ᵥ v) e1.symm
    _ = A *ᵥ 0 := congrArg (fun v => A *ᵥ v) hcol
    _ = 0 := Matrix.mulVec_zero A

/-! ### Vector sums -/

/-- `∑ r_k • (-v_k) = -∑ r_k • v_k`. -/
theorem sum_smul_neg {ι : Type*} (s : Finset ι) (r : ι → ℝ) (v : ι → Fin d → ℝ) :
    ∑ k ∈ s, r k • (-v k) = -∑ k ∈ s, r k • v k := by
  first
  | (rw [← Finset.sum_neg_distrib]; exact Finset.sum_congr rfl fun k _ => smul_neg (r k) (v k))
  | simp only [smul_neg, Finset.sum_neg_distrib]

/-- From `w + ∑ r_k • (-v_k) = 0` to `w = ∑ r_k • v_k`. -/
theorem eq_sum_smul_of_add_sum_smul_neg {ι : Type*} (s : Finset ι) (r : ι → ℝ)
    (v : ι → Fin d → ℝ) (w : Fin d → ℝ) (h : w + ∑ k ∈ s, r k • (-v k) = 0) :
    w = ∑ k ∈ s, r k • v k := by
  rw [sum_smul_neg] at h
  first
  | exact add_neg_eq_zero.mp h
  | (funext m
     -- coordinatewise: `(w + -S) m = w m + -(S m)` and `(0 : Fin d → ℝ) m = 0` by definition
     have hm : w m + -((∑ k ∈ s, r k • v k) m) = 0 := congrFun h m
     linarith)

/-! ### Step b: the kink lemma on two families of rows -/

/-- **Kink lemma for two families.** If `∑ i |U i · x| • A i = ∑ j |V j · x| • B j` for every
`x`, then on every line `ℝ p` (`p ≠ 0`) the coefficients agree:
`∑_{i : U i = lW i • p} |lW i| • A i = ∑_{j : V j = lV j • p} |lV j| • B j`.
This is `kink_sum_eq_zero` (`Kink.lean`) for the family indexed by `ι ⊕ κ` with rows
`Sum.elim U V` and coefficients `Sum.elim A (-B)`. -/
theorem kink_sum_disjSum {ι κ : Type*} [Fintype ι] [Fintype κ]
    (U : ι → Fin d → ℝ) (V : κ → Fin d → ℝ) (A : ι → Fin d → ℝ) (B : κ → Fin d → ℝ)
    (hev : ∀ x : Fin d → ℝ, ∑ i, |U i ⬝ᵥ x| • A i = ∑ j, |V j ⬝ᵥ x| • B j)
    {p : Fin d → ℝ} (hp : p ≠ 0) (s : Finset ι) (t : Finset κ)
    (hs : ∀ i, i ∈ s ↔ ∃ c : ℝ, U i = c • p) (ht : ∀ j, j ∈ t ↔ ∃ c : ℝ, V j = c • p)
    (lW : ι → ℝ) (lV : κ → ℝ) (hlW : ∀ i ∈ s, U i = lW i • p)
    (hlV : ∀ j ∈ t, V j = lV j • p) :
    ∑ i ∈ s, |lW i| • A i = ∑ j ∈ t, |lV j| • B j := by
  have h : ∀ x : Fin d → ℝ,
      ∑ k, |Sum.elim U V k ⬝ᵥ x| • Sum.elim A (fun j => -B j) k = 0 := by
    intro x
    have e1 : ∑ k, |Sum.elim U V k ⬝ᵥ x| • Sum.elim A (fun j => -B j) k
        = ∑ i, |U i ⬝ᵥ x| • A i + ∑ j, |V j ⬝ᵥ x| • (-B j) := by
      first
      | exact Fintype.sum_sum_type _
      | (rw [Fintype.sum_sum_type]; rfl)
      | simp only [Fintype.sum_sum_type, Sum.elim_inl, Sum.elim_inr]
    rw [e1, hev x, sum_smul_neg]
    first
    | exact add_neg_cancel _
    | exact add_neg_eq_zero.mpr rfl
    | simp
  have hT : ∀ k, k ∈ s.disjSum t ↔ ∃ c : ℝ, Sum.elim U V k = c • p := by
    intro k
    cases k with
    | inl i =>
      first
      | exact Finset.inl_mem_disjSum.trans (hs i)
      | (rw [Finset.inl_mem_disjSum]; exact hs i)
    | inr j =>
      first
      | exact Finset.inr_mem_disjSum.trans (ht j)
      | (rw [Finset.inr_mem_disjSum]; exact ht j)
  have hlam : ∀ k ∈ s.disjSum t, Sum.elim U V k = Sum.elim lW lV k • p := by
    intro k hk
    cases k with
    | inl i => exact hlW i (Finset.inl_mem_disjSum.mp hk)
    | inr j => exact hlV j (Finset.inr_mem_disjSum.mp hk)
  have hk := kink_sum_eq_zero h hp (s.disjSum t) hT hlam
  -- hk : `∑ k ∈ s.disjSum t, |Sum.elim lW lV k| • Sum.elim A (fun j => -B j) k = 0`
  have hk2 : ∑ i ∈ s, |lW i| • A i + ∑ j ∈ t, |lV j| • (-B j) = 0 := by
    first
    | (rw [Finset.sum_disjSum] at hk; exact hk)
    | (rw [Finset.sum_disj_sum] at hk; exact hk)
    | simpa only [Finset.sum_disjSum, Sum.elim_inl, Sum.elim_inr] using hk
  exact eq_sum_smul_of_add_sum_smul_neg t (fun j => |lV j|) B _ hk2

/-! ### Step c: matching the hidden units -/

/-- On the line `ℝ u_i` of one row of `Wu`, the even-part identity gives coefficients `μ` with
`u'_j = μ j • u_i` whenever `μ j ≠ 0`, and `w_i = ∑ j |μ j| • w'_j`. (The only row of `Wu` on
that line is `u_i` itself, by nondegeneracy.) -/
theorem exists_lineCoef_of_evenPart {Wd Vd : Matrix (Fin d) (Fin n) ℝ}
    {Wu Vu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu)
    (hev : ∀ x : Fin d → ℝ,
      ∑ i, |Wu i ⬝ᵥ x| • (fun m => Wd m i) = ∑ j, |Vu j ⬝ᵥ x| • (fun m => Vd m j))
    (i : Fin n) :
    ∃ μ : Fin n → ℝ, (∀ k, μ k ≠ 0 → Vu k = μ k • Wu i) ∧
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
  obtain ⟨μ, hμ⟩ : ∃ μ : Fin n → ℝ, ∀ k,
      ((∃ c' : ℝ, Vu k = c' • Wu i) → Vu k = μ k • Wu i) ∧
        (¬ (∃ c' : ℝ, Vu k = c' • Wu i) → μ k = 0) :=
    ⟨fun k => Classical.choose (hc k), fun k => Classical.choose_spec (hc k)⟩
  obtain ⟨J, hJ⟩ : ∃ J : Finset (Fin n), ∀ k, k ∈ J ↔ ∃ c' : ℝ, Vu k = c' • Wu i :=
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

/-- The column `w_i ≠ 0` forces a nonzero coefficient on its line. -/
theorem exists_coef_ne_zero {Wd Vd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu) {i : Fin n} {μ : Fin n → ℝ}
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

/-- A matching `τ` with `u'_τ(i) = c_i • u_i`, `c_i ≠ 0`, is injective (rows of `Wu` are
pairwise non-parallel), hence bijective (`Fin n → Fin n`). -/
theorem matching_bijective {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu Vu : Matrix (Fin n) (Fin d) ℝ}
    (hnd : Nondegenerate Wd Wu) {τ : Fin n → Fin n} {c : Fin n → ℝ} (hc : ∀ i, c i ≠ 0)
    (hV : ∀ i, Vu (τ i) = c i • Wu i) : Function.Bijective τ := by
  have hinj : Function.Injective τ := by
    intro i₁ i₂ h12
    have e : c i₁ • Wu i₁ = c i₂ • Wu i₂ := by rw [← hV i₁, ← hV i₂, h12]
    exact hnd.eq_of_smul_eq_smul (hc i₁) e
  first
  | exact Finite.injective_iff_bijective.mp hinj
  | exact (Fintype.bijective_iff_injective_and_card τ).mpr ⟨hinj, rfl⟩
  | exact ⟨hinj, Finite.surjective_of_injective hinj⟩

/-- Every row `u'_k` with `k ≠ τ i` has coefficient `0` on the line `ℝ u_i`: it is `u'_τ(i')`
for some `i'` (surjectivity), which lies on the line of `u_i'`, and `i' ≠ i`. -/
theorem matching_coef_eq_zero {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu Vu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu) {μ : Fin n → Fin n → ℝ}
    (hμ : ∀ i k, μ i k ≠ 0 → Vu k = μ i k • Wu i) {τ : Fin n → Fin n}
    (hτ : ∀ i, μ i (τ i) ≠ 0) (hsurj : Function.Surjective τ) :
    ∀ i k, k ≠ τ i → μ i k = 0 := by
  intro i k hk
  by_contra h0
  obtain ⟨i', hi'⟩ := hsurj k
  have e : μ i' (τ i') • Wu i' = μ i k • Wu i := by
    rw [← hμ i' (τ i') (hτ i'), ← hμ i k h0, hi']
  have hii : i' = i := hnd.eq_of_smul_eq_smul (hτ i') e
  exact hk (by rw [← hi', hii])

/-- When only the coefficient at `k0` is nonzero, `w_i = |μ k0| • w'_k0`, entrywise. -/
theorem col_entry_eq_of_coef {Wd Vd : Matrix (Fin d) (Fin n) ℝ} {i k0 : Fin n}
    {μ : Fin n → ℝ} (hcol : (fun m => Wd m i) = ∑ k, |μ k| • (fun m => Vd m k))
    (h0 : ∀ k, k ≠ k0 → μ k = 0) (m : Fin d) : Wd m i = |μ k0| * Vd m k0 := by
  have e : (fun m => Wd m i) = |μ k0| • (fun m => Vd m k0) :=
    hcol.trans (Fintype.sum_eq_single k0 fun k hk => by rw [h0 k hk, abs_zero, zero_smul])
  have em := congrFun e m
  first
  | exact em
  | (simp only [Pi.smul_apply, smul_eq_mul] at em; exact em)

/-! ### Step d: the linear part gives the S-condition -/

/-- `(Wd * diagonal 1_S * Wu) x` in coordinate `m`, as a sum over the hidden units. -/
theorem selector_mulVec_apply (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ)
    (S : Finset (Fin n)) (x : Fin d → ℝ) (m : Fin d) :
    ((Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) *ᵥ x) m
      = ∑ i, Wd m i * ((if i ∈ S then (1 : ℝ) else 0) * (Wu i ⬝ᵥ x)) := by
  have e1 : (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) *ᵥ x
      = Wd *ᵥ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x)) := by
    first
    | exact ((Matrix.mulVec_mulVec (Wu *ᵥ x) Wd
        (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0))).trans
        (Matrix.mulVec_mulVec x
          (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)) Wu)).symm
    | simp only [Matrix.mulVec_mulVec, Matrix.mul_assoc]
  rw [e1]
  show ∑ i, Wd m i * (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x)) i
    = ∑ i, Wd m i * ((if i ∈ S then (1 : ℝ) else 0) * (Wu i ⬝ᵥ x))
  refine Finset.sum_congr rfl fun i _ => ?_
  have e2 : (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) *ᵥ (Wu *ᵥ x)) i
      = (if i ∈ S then (1 : ℝ) else 0) * (Wu i ⬝ᵥ x) :=
    Matrix.mulVec_diagonal _ _ i
  rw [e2]

/-- `(-1) x = -x` for the matrix `-1`. -/
theorem neg_one_matrix_mulVec (x : Fin d → ℝ) :
    (-1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x = -x := by
  first
  | (rw [Matrix.neg_mulVec, Matrix.one_mulVec]; done)
  | simp only [Matrix.neg_mulVec, Matrix.one_mulVec]

/-- `∑ ± t_i = ∑ t_i - 2 ∑_{i ∈ S} t_i`, with the sign `-1` on `S` and `+1` off `S`. -/
theorem sign_sum_split (S : Finset (Fin n)) (w z : Fin n → ℝ) :
    ∑ i, (if i ∈ S then (-1 : ℝ) else 1) * (w i * z i)
      = ∑ i, w i * z i - 2 * ∑ i, w i * ((if i ∈ S then (1 : ℝ) else 0) * z i) := by
  rw [Finset.mul_sum, ← Finset.sum_sub_distrib]
  refine Finset.sum_congr rfl fun i _ => ?_
  by_cases hi : i ∈ S
  · rw [if_pos hi, if_pos hi]
    ring
  · rw [if_neg hi, if_neg hi]
    ring

/-- **Step d.** A bijective matching `τ` with `u'_τ(i) = c_i • u_i` and
`w_i = |c_i| • w'_τ(i)`, together with the linear-part identity `2 x + Wd Wu x = Vd Vu x`,
gives `Wd * diagonal 1_S * Wu = -1` for `S = {i | c_i < 0}`. -/
theorem sCondition_of_matching {Wd Vd : Matrix (Fin d) (Fin n) ℝ}
    {Wu Vu : Matrix (Fin n) (Fin d) ℝ} (τ : Fin n → Fin n) (c : Fin n → ℝ)
    (hτ : Function.Bijective τ) (hV : ∀ i, Vu (τ i) = c i • Wu i)
    (hW : ∀ i m, Wd m i = |c i| * Vd m (τ i))
    (hlin : ∀ (x : Fin d → ℝ) (m : Fin d),
      2 * x m + ∑ i, Wd m i * (Wu i ⬝ᵥ x) = ∑ k, Vd m k * (Vu k ⬝ᵥ x)) :
    ∃ S : Finset (Fin n), Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 := by
  obtain ⟨S, hS⟩ : ∃ S : Finset (Fin n), ∀ i, i ∈ S ↔ c i < 0 :=
    ⟨Finset.univ.filter (fun i => c i < 0), fun i => by
      first
      | (rw [Finset.mem_filter]; exact ⟨fun h => h.2, fun h => ⟨Finset.mem_univ i, h⟩⟩)
      | simp⟩
  refine ⟨S, ?_⟩
  -- one hidden unit of `Vd Vu x`, reindexed by `τ`: `± w_i (u_i · x)`
  have hterm : ∀ (x : Fin d → ℝ) (m : Fin d) (i : Fin n),
      Vd m (τ i) * (Vu (τ i) ⬝ᵥ x) = (if i ∈ S then (-1 : ℝ) else 1) * (Wd m i * (Wu i ⬝ᵥ x)) := by
    intro x m i
    have hdot : Vu (τ i) ⬝ᵥ x = c i * (Wu i ⬝ᵥ x) := by
      rw [hV i]
      first
      | (rw [smul_dotProduct, smul_eq_mul]; done)
      | exact smul_dotProduct (c i) (Wu i) x
      | (show ∑ k, (c i • Wu i) k * x k = c i * ∑ k, Wu i k * x k
         rw [Finset.mul_sum]
         exact Finset.sum_congr rfl fun k _ => by
           show c i * Wu i k * x k = c i * (Wu i k * x k)
           ring)
    rw [hdot, hW i m]
    by_cases hci : c i < 0
    · rw [if_pos ((hS i).mpr hci)]
      have habs : |c i| = -c i := by
        first
        | exact abs_of_neg hci
        | (rw [← abs_neg (c i)]; exact abs_of_nonneg (by linarith))
      rw [habs]
      ring
    · rw [if_neg (fun h => hci ((hS i).mp h))]
      have habs : |c i| = c i := by
        first
        | exact abs_of_nonneg (not_lt.mp hci)
        | exact abs_of_nonneg (by linarith)
      rw [habs]
      ring
  rw [Matrix.ext_iff_mulVec]
  intro x
  funext m
  have hL := selector_mulVec_apply Wd Wu S x m
  have hR : ((-1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x) m = -(x m) :=
    congrFun (neg_one_matrix_mulVec x) m
  have hsum : ∑ k, Vd m k * (Vu k ⬝ᵥ x) = ∑ i, Vd m (τ i) * (Vu (τ i) ⬝ᵥ x) := by
    first
    | exact (hτ.sum_comp (fun k => Vd m k * (Vu k ⬝ᵥ x))).symm
    | exact (Equiv.sum_comp (Equiv.ofBijective τ hτ) (fun k => Vd m k * (Vu k ⬝ᵥ x))).symm
  have hsum2 : ∑ i, Vd m (τ i) * (Vu (τ i) ⬝ᵥ x)
      = ∑ i, (if i ∈ S then (-1 : ℝ) else 1) * (Wd m i * (Wu i ⬝ᵥ x)) :=
    Finset.sum_congr rfl fun i _ => hterm x m i
  have hsplit : ∑ i, (if i ∈ S then (-1 : ℝ) else 1) * (Wd m i * (Wu i ⬝ᵥ x))
      = ∑ i, Wd m i * (Wu i ⬝ᵥ x)
        - 2 * ∑ i, Wd m i * ((if i ∈ S then (1 : ℝ) else 0) * (Wu i ⬝ᵥ x)) :=
    sign_sum_split S (fun i => Wd m i) (fun i => Wu i ⬝ᵥ x)
  have hl := hlin x m
  -- `2 x m + T = T - 2 Q`, so `Q = -(x m)`. Route 1: `linarith` on the goal as `ext_iff_mulVec`
  -- left it; route 2 first restates the goal in this file's terms (`show`, checked at default
  -- transparency), so that its atoms are those of `hL` and `hR` whatever instance path
  -- `ext_iff_mulVec` produced (review B of 2026-12-03, risk 2); route 3 rewrites them away.
  first
  | linarith
  | (show ((Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) *ᵥ x) m
        = ((-1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x) m
     linarith)
  | (rw [hL, hR]; linarith)

/-! ### Paper Theorem 8 -/

/-- **Paper Theorem 8, necessity.** For nondegenerate weights (`Nondegenerate Wd Wu`), if a
ReLU block of the same width absorbs the identity skip, then some index set `S` satisfies
`Wd[:,S] Wu[S,:] = -I`, written `Wd * diagonal 1_S * Wu = -1`. Nothing is assumed about the
absorbing block. -/
theorem exists_sCondition_of_absorbable_relu {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (hnd : Nondegenerate Wd Wu) :
    Absorbable relu 1 Wd Wu →
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 := by
  intro hab
  unfold Absorbable at hab
  obtain ⟨Vd, Vu, h⟩ := hab
  -- step a: even parts
  have hev := relu_evenPart_eq_vec h
  -- steps b, c: one coefficient vector per line `ℝ u_i`
  have hline : ∀ i, ∃ μ : Fin n → ℝ, (∀ k, μ k ≠ 0 → Vu k = μ k • Wu i) ∧
      (fun m => Wd m i) = ∑ k, |μ k| • (fun m => Vd m k) :=
    fun i => exists_lineCoef_of_evenPart hnd hev i
  obtain ⟨μ, hμ⟩ : ∃ μ : Fin n → Fin n → ℝ, ∀ i, (∀ k, μ i k ≠ 0 → Vu k = μ i k • Wu i) ∧
      (fun m => Wd m i) = ∑ k, |μ i k| • (fun m => Vd m k) :=
    ⟨fun i => Classical.choose (hline i), fun i => Classical.choose_spec (hline i)⟩
  have hex : ∀ i, ∃ k, μ i k ≠ 0 := fun i => exists_coef_ne_zero hnd (hμ i).2
  obtain ⟨τ, hτ⟩ : ∃ τ : Fin n → Fin n, ∀ i, μ i (τ i) ≠ 0 :=
    ⟨fun i => Classical.choose (hex i), fun i => Classical.choose_spec (hex i)⟩
  have hV : ∀ i, Vu (τ i) = μ i (τ i) • Wu i := fun i => (hμ i).1 (τ i) (hτ i)
  have hbij : Function.Bijective τ := matching_bijective hnd hτ hV
  have hμ1 : ∀ i k, μ i k ≠ 0 → Vu k = μ i k • Wu i := fun i k hk => (hμ i).1 k hk
  have hzero : ∀ i k, k ≠ τ i → μ i k = 0 :=
    matching_coef_eq_zero (μ := μ) (τ := τ) hnd hμ1 hτ hbij.2
  have hW : ∀ i m, Wd m i = |μ i (τ i)| * Vd m (τ i) :=
    fun i m => col_entry_eq_of_coef (hμ i).2 (hzero i) m
  -- step d: linear parts
  exact sCondition_of_matching τ (fun i => μ i (τ i)) hbij hV hW (relu_linearPart_eq h)

/-- `-(1⁻¹) • 1 = -1`: the hypothesis of `absorbable_of_sCondition` at `c = 1`. -/
theorem neg_inv_one_smul_one : -((1 : ℝ)⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ) = -1 := by
  first
  | (rw [inv_one, neg_smul, one_smul]; done)
  | simp

end SkipAbsorption
