import Mathlib.LinearAlgebra.Matrix.Rank
import Mathlib.LinearAlgebra.Matrix.NonsingularInverse
import Mathlib.Tactic.LinearCombination

/-!
# The rank bound `|S| ≥ d` for the S-condition

The S-condition of paper Theorems 8/10 asks for a set `S` of hidden units with
`W_down[:,S] W_up[S,:] = -(1/c) I`. In this library it is written with the 0/1 selector
`diagonal 1_S` (the hypothesis shape of `absorbable_of_sCondition` in `Parity.lean`):
`Wd * diagonal (fun i => if i ∈ S then 1 else 0) * Wu = -(c⁻¹) • 1`.
The left side has rank at most `|S|`, the right side has rank `d`, so `d ≤ |S|`:

* `mul_diagonal_indicator_mul_eq`: `Wd * diagonal 1_S * Wu = Wd[:,S] * Wu[S,:]`, with the
  submatrices written `Wd.submatrix id (↑)` and `Wu.submatrix (↑) id` over the type `↥S`;
* `rank_mul_diagonal_indicator_mul_le`: `(Wd * diagonal 1_S * Wu).rank ≤ S.card`, by two
  independent routes (`Matrix.rank_diagonal`, or the factorisation through `↥S` and
  `Matrix.rank_le_card_width`);
* `card_le_of_mul_eq_one`: if `Wd * diagonal 1_S * Wu` has a right inverse, `d ≤ S.card`;
* `card_le_of_sCondition` (the rank bound for `-(c⁻¹) • 1`, `c ≠ 0`),
  `card_le_of_sCondition_one` (for `-1`, i.e. ReLU/GELU/SiLU with `c = 1`) and
  `card_le_of_sCondition_of_isUnit` (for `-A` with `IsUnit A.det`, the invertible-skip
  version through paper Lemma 4).

Not compiled: no Lean toolchain here.
-/

open Matrix

namespace SkipAbsorption

variable {d n : ℕ}

/-- The diagonal entries of the 0/1 selector of `S` that are nonzero are indexed by `S`, so
there are at most `S.card` of them (for any `Fintype` instance on that subtype). -/
theorem card_indicator_ne_zero_le (S : Finset (Fin n))
    {inst : Fintype {i : Fin n // (if i ∈ S then (1 : ℝ) else 0) ≠ 0}} :
    @Fintype.card {i : Fin n // (if i ∈ S then (1 : ℝ) else 0) ≠ 0} inst ≤ S.card := by
  -- a nonzero selector entry sits at an index of `S`
  have hmem : ∀ i : {i : Fin n // (if i ∈ S then (1 : ℝ) else 0) ≠ 0},
      (i : Fin n) ∈ S := by
    intro i
    by_contra hi
    exact i.2 (if_neg hi)
  have hinj : Function.Injective
      (fun i : {i : Fin n // (if i ∈ S then (1 : ℝ) else 0) ≠ 0} =>
        (⟨(i : Fin n), hmem i⟩ : {x : Fin n // x ∈ S})) := by
    intro a b hab
    first
    | exact Subtype.ext (congrArg Subtype.val hab)
    | exact Subtype.val_injective (congrArg Subtype.val hab)
  -- `inst` is a local instance, so it is the one found for the domain
  calc @Fintype.card {i : Fin n // (if i ∈ S then (1 : ℝ) else 0) ≠ 0} inst
      ≤ Fintype.card {x : Fin n // x ∈ S} := by
        first
        | exact Fintype.card_le_of_injective _ hinj
        | exact @Fintype.card_le_of_injective _ _ inst _ _ hinj
    _ = S.card := Fintype.card_coe S

/-- **The selected product is `Wd[:,S] Wu[S,:]`.** Multiplying through the 0/1 selector of `S`
is the same as multiplying the columns of `Wd` indexed by `S` with the rows of `Wu` indexed
by `S` (the paper's `W_down[:,S] W_up[S,:]`). -/
theorem mul_diagonal_indicator_mul_eq (Wd : Matrix (Fin d) (Fin n) ℝ)
    (Wu : Matrix (Fin n) (Fin d) ℝ) (S : Finset (Fin n)) :
    Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
      = Wd.submatrix id (fun k : S => (k : Fin n))
        * Wu.submatrix (fun k : S => (k : Fin n)) id := by
  ext i j
  first
  | -- route 1: both entries as sums over `S`, stated in this file's terms
    (have lhs : (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu) i j
          = ∑ k : Fin n, (if k ∈ S then Wd i k * Wu k j else 0) := by
        rw [Matrix.mul_apply]
        refine Finset.sum_congr rfl (fun k _ => ?_)
        rw [Matrix.mul_diagonal]
        by_cases hk : k ∈ S
        · rw [if_pos hk, if_pos hk, mul_one]
        · rw [if_neg hk, if_neg hk, mul_zero, zero_mul]
     have rhs : (Wd.submatrix id (fun k : S => (k : Fin n))
          * Wu.submatrix (fun k : S => (k : Fin n)) id) i j = ∑ k ∈ S, Wd i k * Wu k j := by
        rw [Matrix.mul_apply]
        first
        | exact Finset.sum_coe_sort S (fun k => Wd i k * Wu k j)
        | -- `sum_subtype` takes the `Fintype` instance of the subtype as an implicit argument
          exact (Finset.sum_subtype S (fun _ => Iff.rfl) (fun k => Wd i k * Wu k j)).symm
     rw [lhs, rhs, Finset.sum_ite_mem, Finset.univ_inter]
     done)
  | -- route 2: let `simp` unfold the entries
    (simp [Matrix.mul_apply, Matrix.mul_diagonal, Finset.sum_ite_mem, Finset.univ_inter,
        Finset.sum_coe_sort])

/-- **Rank of the selected product.** `(Wd * diagonal 1_S * Wu).rank ≤ S.card`. -/
theorem rank_mul_diagonal_indicator_mul_le (Wd : Matrix (Fin d) (Fin n) ℝ)
    (Wu : Matrix (Fin n) (Fin d) ℝ) (S : Finset (Fin n)) :
    (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu).rank ≤ S.card := by
  first
  | -- route 1: rank of a product ≤ rank of the middle factor = number of nonzero entries
    (have h1 : (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu).rank
          ≤ (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)).rank :=
        Matrix.rank_mul_le_left _ _
     have h2 : (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)).rank
          ≤ (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)).rank :=
        Matrix.rank_mul_le_right _ _
     have h3 : (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)).rank ≤ S.card := by
        rw [Matrix.rank_diagonal]
        exact card_indicator_ne_zero_le S
     exact h1.trans (h2.trans h3))
  | -- route 2 (no `rank_diagonal`): factor through `↥S`, a matrix with `|S|` columns
    (have h1 : (Wd.submatrix id (fun k : S => (k : Fin n))
          * Wu.submatrix (fun k : S => (k : Fin n)) id).rank
          ≤ (Wd.submatrix id (fun k : S => (k : Fin n))).rank :=
        Matrix.rank_mul_le_left _ _
     have h2 : (Wd.submatrix id (fun k : S => (k : Fin n))).rank ≤ Fintype.card S :=
        Matrix.rank_le_card_width _
     have h3 : Fintype.card S = S.card := Fintype.card_coe S
     rw [mul_diagonal_indicator_mul_eq Wd Wu S]
     exact h1.trans (h2.trans h3.le))

/-- If the selected product `Wd * diagonal 1_S * Wu` has a right inverse `B`, then
`d ≤ S.card` (rank of `1` is `d`, and rank cannot grow under products). -/
theorem card_le_of_mul_eq_one (Wd : Matrix (Fin d) (Fin n) ℝ)
    (Wu : Matrix (Fin n) (Fin d) ℝ) (S : Finset (Fin n)) (B : Matrix (Fin d) (Fin d) ℝ)
    (hB : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu * B = 1) :
    d ≤ S.card := by
  have h1 : (1 : Matrix (Fin d) (Fin d) ℝ).rank = d := by
    rw [Matrix.rank_one, Fintype.card_fin]
  have h2 : (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu * B).rank
      ≤ (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu).rank :=
    Matrix.rank_mul_le_left _ _
  have h3 := rank_mul_diagonal_indicator_mul_le Wd Wu S
  have h4 : (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu * B).rank
      = (1 : Matrix (Fin d) (Fin d) ℝ).rank :=
    congrArg (fun M : Matrix (Fin d) (Fin d) ℝ => M.rank) hB
  calc d = (1 : Matrix (Fin d) (Fin d) ℝ).rank := h1.symm
    _ = (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu * B).rank := h4.symm
    _ ≤ (Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu).rank := h2
    _ ≤ S.card := h3

/-- **`|S| ≥ d`** (the rank remark after paper Theorem 8). If `c ≠ 0` and
`Wd * diagonal 1_S * Wu = -(c⁻¹) • 1` (the hypothesis of `absorbable_of_sCondition`), then
`d ≤ S.card`. -/
theorem card_le_of_sCondition {c : ℝ} (hc : c ≠ 0)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) (S : Finset (Fin n))
    (hS : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
      = -(c⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ)) :
    d ≤ S.card := by
  have hcc : c * c⁻¹ = 1 := mul_inv_cancel₀ hc
  have hs1 : -(c⁻¹) * -c = 1 := by linear_combination hcc
  have hs2 : -c * -(c⁻¹) = 1 := by linear_combination hcc
  -- the right inverse of `-(c⁻¹) • 1` is `(-c) • 1`
  have hB : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
      * ((-c) • (1 : Matrix (Fin d) (Fin d) ℝ)) = 1 := by
    rw [hS]
    first
    | (rw [Matrix.smul_mul, Matrix.one_mul, smul_smul, hs1, one_smul]; done)
    | (rw [Matrix.mul_smul, Matrix.mul_one, smul_smul, hs2, one_smul]; done)
    | (simp only [Matrix.smul_mul, Matrix.mul_smul, Matrix.one_mul, smul_smul, hs1, one_smul]
       done)
    | simp [smul_smul, hc]
  exact card_le_of_mul_eq_one Wd Wu S _ hB

/-- `|S| ≥ d` for `c = 1` (ReLU, GELU, SiLU): `Wd * diagonal 1_S * Wu = -1` forces
`d ≤ S.card`. -/
theorem card_le_of_sCondition_one
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) (S : Finset (Fin n))
    (hS : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1) :
    d ≤ S.card := by
  first
  | -- route 1: `(-1) * (-1) = 1`
    (have hB : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
          * (-1 : Matrix (Fin d) (Fin d) ℝ) = 1 := by
        rw [hS]
        first
        | exact (neg_mul_neg (1 : Matrix (Fin d) (Fin d) ℝ) 1).trans (Matrix.one_mul 1)
        | (rw [neg_mul_neg, Matrix.one_mul]; done)
        | -- the matrix lemmas, no generic `HasDistribNeg` instance
          (rw [Matrix.neg_mul, Matrix.mul_neg, neg_neg, Matrix.one_mul]; done)
     exact card_le_of_mul_eq_one Wd Wu S _ hB)
  | -- route 2: the general statement with `c = 1`
    (have hS' : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu
          = -((1 : ℝ)⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ) := by
        rw [hS, inv_one, neg_smul, one_smul]
     exact card_le_of_sCondition one_ne_zero Wd Wu S hS')

/-- `|S| ≥ d` for an invertible skip `A` (paper Lemma 4 reduces the skip `A` to the identity
with `A⁻¹ Wd`, whose S-condition is `Wd * diagonal 1_S * Wu = -A`). -/
theorem card_le_of_sCondition_of_isUnit {A : Matrix (Fin d) (Fin d) ℝ} (hA : IsUnit A.det)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) (S : Finset (Fin n))
    (hS : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -A) :
    d ≤ S.card := by
  have hB : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu * (-(A⁻¹))
      = 1 := by
    rw [hS]
    first
    | exact (neg_mul_neg A A⁻¹).trans (Matrix.mul_nonsing_inv A hA)
    | (rw [neg_mul_neg]; exact Matrix.mul_nonsing_inv A hA)
    | -- the matrix lemmas, no generic `HasDistribNeg` instance
      (rw [Matrix.neg_mul, Matrix.mul_neg, neg_neg]; exact Matrix.mul_nonsing_inv A hA)
  exact card_le_of_mul_eq_one Wd Wu S _ hB

end SkipAbsorption
