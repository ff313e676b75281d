import SkipAbsorption.Defs
import Mathlib.Algebra.BigOperators.Pi
import Mathlib.Algebra.BigOperators.Fin
import Mathlib.Data.Fin.Tuple.Basic
import Mathlib.LinearAlgebra.Matrix.NonsingularInverse
import Mathlib.Tactic.Linarith
import Mathlib.Tactic.LinearCombination
import Mathlib.Tactic.Ring

/-!
# Beyond the paper: absorbing the skip with a wider block (width, sufficiency)

**This file goes beyond arXiv 2604.23705.** The paper asks whether a block of the **same**
width `n` absorbs the skip (`Absorbable`, `Defs.lean`). The research note `deep-stacks.md`
(§2, Theorem C) lets the absorbing block be wider. This file defines that notion and proves
the sufficiency half of Theorem C; the necessity half (the rank bound of §5 of the note) is in
`SkipAbsorption.Beyond.WidthNecessity`.

* `AbsorbableWithWidth σ A Wd Wu n'`: some block of hidden width `n'` (any `n'`) equals
  `x ↦ A x + mlp σ Wd Wu x`; `absorbableWithWidth_self_iff`: at `n' = n` this is `Absorbable`.
* `appendDown`, `appendUp`, `mlp_append_apply`: two blocks side by side (hidden width
  `a + b`, indexed by `Fin.append`) compute the sum of the two blocks.
* `AbsorbableWithWidth.add_width`, `AbsorbableWithWidth.mono`: a wider block still works
  (pad with units whose output column is `0`).
* **Sufficiency** (`absorbableWithWidth_add_of_isUnit_det`,
  `absorbableWithWidth_add_of_linearIndependent`): if the rows `e 0, …, e (d-1)` of `Wu` are
  linearly independent (the `d × d` matrix `A_S = Wu.submatrix e id` is invertible), the
  identity skip of the ReLU block `(Wd, Wu)` is absorbed at width `n + d`. With
  `M = A_S⁻¹`, `x = M (relu (A_S x) - relu (-A_S x))`; the `relu (A_S x)` half merges into
  the existing units `e k` (output columns `Wd + mergeCols M e`), and `d` new units
  `relu (-A_S x)` get the output columns `-M` (`add_mlp_eq_mlp_append`).

Status: not compiled (no Lean toolchain here). Every Mathlib name used is listed in
`lean/CHECKED_NAMES.md`, section "Beyond the paper: width (issue 13)".
-/

open Matrix

namespace SkipAbsorption

/-! ### Absorbing with a block of another width -/

section Def

variable {d n : ℕ}

/-- **Beyond the paper** (note `deep-stacks.md`, Theorem C). The skip `A` of the block
`(Wd, Wu)` (hidden width `n`) can be absorbed by a block of hidden width `n'`: some
`Vd : d × n'`, `Vu : n' × d` give `A x + Wd σ(Wu x) = Vd σ(Vu x)` for every `x`. -/
def AbsorbableWithWidth (σ : ℝ → ℝ) (A : Matrix (Fin d) (Fin d) ℝ)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) (n' : ℕ) : Prop :=
  ∃ (Vd : Matrix (Fin d) (Fin n') ℝ) (Vu : Matrix (Fin n') (Fin d) ℝ),
    ∀ x, A *ᵥ x + mlp σ Wd Wu x = mlp σ Vd Vu x

/-- **Beyond the paper** (bookkeeping). At the block's own width `n' = n`,
`AbsorbableWithWidth` is the paper's `Absorbable` (the two definitions have the same body). -/
theorem absorbableWithWidth_self_iff (σ : ℝ → ℝ) (A : Matrix (Fin d) (Fin d) ℝ)
    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) :
    AbsorbableWithWidth σ A Wd Wu n ↔ Absorbable σ A Wd Wu :=
  Iff.rfl

end Def

/-! ### Two blocks side by side -/

section Append

variable {d a b : ℕ}

/-- **Beyond the paper** (bookkeeping). Output matrix of two blocks side by side: columns
`Fin.castAdd b i` are those of `V₁`, columns `Fin.natAdd a k` those of `V₂`. -/
noncomputable def appendDown (V₁ : Matrix (Fin d) (Fin a) ℝ) (V₂ : Matrix (Fin d) (Fin b) ℝ) :
    Matrix (Fin d) (Fin (a + b)) ℝ :=
  Matrix.of fun m j => Fin.append (V₁ m) (V₂ m) j

/-- **Beyond the paper** (bookkeeping). Input matrix of two blocks side by side: rows
`Fin.castAdd b i` are those of `U₁`, rows `Fin.natAdd a k` those of `U₂`. -/
noncomputable def appendUp (U₁ : Matrix (Fin a) (Fin d) ℝ) (U₂ : Matrix (Fin b) (Fin d) ℝ) :
    Matrix (Fin (a + b)) (Fin d) ℝ :=
  Matrix.of fun j l => Fin.append (fun i => U₁ i l) (fun k => U₂ k l) j

/-- **Beyond the paper** (bookkeeping). An entry of `appendDown` in the first block. -/
theorem appendDown_castAdd (V₁ : Matrix (Fin d) (Fin a) ℝ) (V₂ : Matrix (Fin d) (Fin b) ℝ)
    (m : Fin d) (i : Fin a) : appendDown V₁ V₂ m (Fin.castAdd b i) = V₁ m i := by
  first
  | exact Fin.append_left (V₁ m) (V₂ m) i
  | simp only [appendDown, Matrix.of_apply, Fin.append_left]

/-- **Beyond the paper** (bookkeeping). An entry of `appendDown` in the second block. -/
theorem appendDown_natAdd (V₁ : Matrix (Fin d) (Fin a) ℝ) (V₂ : Matrix (Fin d) (Fin b) ℝ)
    (m : Fin d) (k : Fin b) : appendDown V₁ V₂ m (Fin.natAdd a k) = V₂ m k := by
  first
  | exact Fin.append_right (V₁ m) (V₂ m) k
  | simp only [appendDown, Matrix.of_apply, Fin.append_right]

/-- **Beyond the paper** (bookkeeping). A row of `appendUp` in the first block. -/
theorem appendUp_castAdd (U₁ : Matrix (Fin a) (Fin d) ℝ) (U₂ : Matrix (Fin b) (Fin d) ℝ)
    (i : Fin a) : appendUp U₁ U₂ (Fin.castAdd b i) = U₁ i := by
  funext l
  first
  | exact Fin.append_left (fun i => U₁ i l) (fun k => U₂ k l) i
  | simp only [appendUp, Matrix.of_apply, Fin.append_left]

/-- **Beyond the paper** (bookkeeping). A row of `appendUp` in the second block. -/
theorem appendUp_natAdd (U₁ : Matrix (Fin a) (Fin d) ℝ) (U₂ : Matrix (Fin b) (Fin d) ℝ)
    (k : Fin b) : appendUp U₁ U₂ (Fin.natAdd a k) = U₂ k := by
  funext l
  first
  | exact Fin.append_right (fun i => U₁ i l) (fun k => U₂ k l) k
  | simp only [appendUp, Matrix.of_apply, Fin.append_right]

/-- **Beyond the paper** (bookkeeping). Two blocks side by side compute the sum of the two
blocks: `mlp σ (appendDown V₁ V₂) (appendUp U₁ U₂) x = mlp σ V₁ U₁ x + mlp σ V₂ U₂ x`,
coordinate by coordinate (`Fin.sum_univ_add` splits the sum over the `a + b` units). -/
theorem mlp_append_apply (σ : ℝ → ℝ) (V₁ : Matrix (Fin d) (Fin a) ℝ)
    (V₂ : Matrix (Fin d) (Fin b) ℝ) (U₁ : Matrix (Fin a) (Fin d) ℝ)
    (U₂ : Matrix (Fin b) (Fin d) ℝ) (x : Fin d → ℝ) (m : Fin d) :
    mlp σ (appendDown V₁ V₂) (appendUp U₁ U₂) x m = mlp σ V₁ U₁ x m + mlp σ V₂ U₂ x m := by
  have e1 : mlp σ (appendDown V₁ V₂) (appendUp U₁ U₂) x m
      = ∑ j : Fin (a + b), appendDown V₁ V₂ m j * σ (appendUp U₁ U₂ j ⬝ᵥ x) :=
    mlp_apply_eq_sum σ _ _ x m
  have e2 : ∑ j : Fin (a + b), appendDown V₁ V₂ m j * σ (appendUp U₁ U₂ j ⬝ᵥ x)
      = ∑ i : Fin a, appendDown V₁ V₂ m (Fin.castAdd b i)
            * σ (appendUp U₁ U₂ (Fin.castAdd b i) ⬝ᵥ x)
        + ∑ k : Fin b, appendDown V₁ V₂ m (Fin.natAdd a k)
            * σ (appendUp U₁ U₂ (Fin.natAdd a k) ⬝ᵥ x) :=
    Fin.sum_univ_add (fun j : Fin (a + b) => appendDown V₁ V₂ m j * σ (appendUp U₁ U₂ j ⬝ᵥ x))
  have e3 : ∑ i : Fin a, appendDown V₁ V₂ m (Fin.castAdd b i)
        * σ (appendUp U₁ U₂ (Fin.castAdd b i) ⬝ᵥ x) = ∑ i, V₁ m i * σ (U₁ i ⬝ᵥ x) :=
    Finset.sum_congr rfl fun i _ => by rw [appendDown_castAdd, appendUp_castAdd]
  have e4 : ∑ k : Fin b, appendDown V₁ V₂ m (Fin.natAdd a k)
        * σ (appendUp U₁ U₂ (Fin.natAdd a k) ⬝ᵥ x) = ∑ k, V₂ m k * σ (U₂ k ⬝ᵥ x) :=
    Finset.sum_congr rfl fun k _ => by rw [appendDown_natAdd, appendUp_natAdd]
  rw [e1, e2, e3, e4, mlp_apply_eq_sum, mlp_apply_eq_sum]

end Append

/-! ### A wider block still absorbs -/

section Mono

variable {d n n₁ : ℕ}

/-- **Beyond the paper** (note `deep-stacks.md`, Theorem C). If a block of width `n₁`
absorbs the skip, so does a block of width `n₁ + k`: add `k` units with output column `0`
(`appendDown Vd 0`, `appendUp Vu 0`). No hypothesis on `σ`. -/
theorem AbsorbableWithWidth.add_width {σ : ℝ → ℝ} {A : Matrix (Fin d) (Fin d) ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (h : AbsorbableWithWidth σ A Wd Wu n₁) (k : ℕ) : AbsorbableWithWidth σ A Wd Wu (n₁ + k) := by
  unfold AbsorbableWithWidth at h ⊢
  obtain ⟨Vd, Vu, hV⟩ := h
  refine ⟨appendDown Vd (0 : Matrix (Fin d) (Fin k) ℝ), appendUp Vu (0 : Matrix (Fin k) (Fin d) ℝ),
    fun x => ?_⟩
  funext m
  have h1 := mlp_append_apply σ Vd (0 : Matrix (Fin d) (Fin k) ℝ) Vu
    (0 : Matrix (Fin k) (Fin d) ℝ) x m
  -- a block with output matrix `0` is `0`
  have h2 : mlp σ (0 : Matrix (Fin d) (Fin k) ℝ) (0 : Matrix (Fin k) (Fin d) ℝ) x m = 0 := by
    first
    | exact congrFun (Matrix.zero_mulVec _) m
    | (rw [mlp_apply_eq_sum]; exact Finset.sum_eq_zero fun j _ => zero_mul _)
    | (rw [mlp_apply_eq_sum]; simp)
  have h3 : (A *ᵥ x + mlp σ Wd Wu x) m = mlp σ Vd Vu x m := congrFun (hV x) m
  linarith

/-- **Beyond the paper** (note `deep-stacks.md`, Theorem C). Absorption at width `n₁` gives
absorption at every width `n₂ ≥ n₁`. -/
theorem AbsorbableWithWidth.mono {σ : ℝ → ℝ} {A : Matrix (Fin d) (Fin d) ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ} {n₂ : ℕ}
    (h : AbsorbableWithWidth σ A Wd Wu n₁) (hle : n₁ ≤ n₂) : AbsorbableWithWidth σ A Wd Wu n₂ := by
  obtain ⟨k, rfl⟩ : ∃ k, n₂ = n₁ + k := ⟨n₂ - n₁, by omega⟩
  exact h.add_width k

end Mono

/-! ### Sufficiency at width `n + d` -/

section Sufficiency

variable {d n : ℕ}

/-- **Beyond the paper** (Theorem C construction). The columns that merge the
`relu (A_S x)` half into the existing units: column `i` is `∑_{k : e k = i} M[:,k]` (the
column `M[:,k]` goes to the unit `e k`). -/
noncomputable def mergeCols (M : Matrix (Fin d) (Fin d) ℝ) (e : Fin d → Fin n) :
    Matrix (Fin d) (Fin n) ℝ :=
  Matrix.of fun m i => ∑ k, if e k = i then M m k else 0

/-- **Beyond the paper** (bookkeeping). Regrouping a sum by the map `e`:
`∑ i, (∑_{k : e k = i} a k) * r i = ∑ k, a k * r (e k)`. -/
theorem sum_indicator_comp_mul (e : Fin d → Fin n) (a : Fin d → ℝ) (r : Fin n → ℝ) :
    ∑ i, (∑ k, if e k = i then a k else 0) * r i = ∑ k, a k * r (e k) := by
  have h1 : ∀ i, (∑ k, if e k = i then a k else 0) * r i
      = ∑ k, if e k = i then a k * r i else 0 := by
    intro i
    rw [Finset.sum_mul]
    refine Finset.sum_congr rfl fun k _ => ?_
    by_cases h : e k = i
    · rw [if_pos h, if_pos h]
    · rw [if_neg h, if_neg h, zero_mul]
  have h2 : ∀ k, (∑ i, if e k = i then a k * r i else 0) = a k * r (e k) := by
    intro k
    first
    | (rw [Finset.sum_ite_eq, if_pos (Finset.mem_univ (e k))]; done)
    | exact (Fintype.sum_eq_single (f := fun i => if e k = i then a k * r i else 0) (e k)
        (fun i hi => if_neg (fun h => hi h.symm))).trans (if_pos rfl)
    | simp
  calc ∑ i, (∑ k, if e k = i then a k else 0) * r i
      = ∑ i, ∑ k, (if e k = i then a k * r i else 0) := Finset.sum_congr rfl fun i _ => h1 i
    _ = ∑ k, ∑ i, (if e k = i then a k * r i else 0) := Finset.sum_comm
    _ = ∑ k, a k * r (e k) := Finset.sum_congr rfl fun k _ => h2 k

/-- **Beyond the paper** (note `deep-stacks.md`, Theorem C, the construction). Let
`A : d × d` have the rows `A k = Wu (e k)` and let `M` be a left inverse (`M * A = 1`). Then
`x + Wd relu(Wu x)` is the block of width `n + d` with output matrix
`appendDown (Wd + mergeCols M e) (-M)` and input matrix `appendUp Wu (-A)`:
`x = M (relu (A x) - relu (-A x))`, and the `relu (A x)` half is carried by the units `e k`. -/
theorem add_mlp_eq_mlp_append {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (e : Fin d → Fin n) (M A : Matrix (Fin d) (Fin d) ℝ) (hA : ∀ k, A k = Wu (e k))
    (hM : M * A = 1) (x : Fin d → ℝ) :
    (1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp relu Wd Wu x
      = mlp relu (appendDown (Wd + mergeCols M e) (-M)) (appendUp Wu (-A)) x := by
  funext m
  -- the left side, coordinate `m`
  have hL : ((1 : Matrix (Fin d) (Fin d) ℝ) *ᵥ x + mlp relu Wd Wu x) m
      = x m + ∑ i, Wd m i * relu (Wu i ⬝ᵥ x) := by
    first
    | (rw [Matrix.one_mulVec, Pi.add_apply, mlp_apply_eq_sum]; done)
    | (rw [Matrix.one_mulVec]; rfl)
  -- the right side: the two blocks
  have h1 := mlp_append_apply relu (Wd + mergeCols M e) (-M) Wu (-A) x m
  -- first block: the old units, with the merged columns
  have h2 : mlp relu (Wd + mergeCols M e) Wu x m
      = ∑ i, Wd m i * relu (Wu i ⬝ᵥ x)
        + ∑ i, (∑ k, if e k = i then M m k else 0) * relu (Wu i ⬝ᵥ x) := by
    rw [mlp_apply_eq_sum, ← Finset.sum_add_distrib]
    refine Finset.sum_congr rfl fun i _ => ?_
    first
    | (show (Wd m i + ∑ k, if e k = i then M m k else 0) * relu (Wu i ⬝ᵥ x) = _
       exact add_mul _ _ _)
    | (simp only [Matrix.add_apply, mergeCols, Matrix.of_apply]; ring)
  have h3 : ∑ i, (∑ k, if e k = i then M m k else 0) * relu (Wu i ⬝ᵥ x)
      = ∑ k, M m k * relu (Wu (e k) ⬝ᵥ x) :=
    sum_indicator_comp_mul e (fun k => M m k) (fun i => relu (Wu i ⬝ᵥ x))
  -- second block: the `d` new units `relu (-A x)` with output `-M`
  have h4 : mlp relu (-M) (-A) x m = -∑ k, M m k * relu (-(Wu (e k) ⬝ᵥ x)) := by
    rw [mlp_apply_eq_sum, ← Finset.sum_neg_distrib]
    refine Finset.sum_congr rfl fun k _ => ?_
    first
    | (show -(M m k) * relu ((-(A k)) ⬝ᵥ x) = -(M m k * relu (-(Wu (e k) ⬝ᵥ x)))
       rw [_root_.neg_dotProduct, hA k, neg_mul]; done)
    | -- without `neg_dotProduct`: unfold `⬝ᵥ` and pull the sign out of the sum
      (have hneg : (-A) k ⬝ᵥ x = -(Wu (e k) ⬝ᵥ x) := by
         rw [← hA k]
         show ∑ l, -(A k l) * x l = -(∑ l, A k l * x l)
         rw [← Finset.sum_neg_distrib]
         exact Finset.sum_congr rfl fun l _ => neg_mul _ _
       have hMk : (-M) m k = -(M m k) := rfl
       rw [hneg, hMk, neg_mul]; done)
    | (simp only [Matrix.neg_apply, Pi.neg_apply, neg_dotProduct, hA k]; ring)
  -- `relu z - relu (-z) = z`, unit by unit
  have h5 : ∑ k, M m k * relu (Wu (e k) ⬝ᵥ x) - ∑ k, M m k * relu (-(Wu (e k) ⬝ᵥ x))
      = ∑ k, M m k * (Wu (e k) ⬝ᵥ x) := by
    rw [← Finset.sum_sub_distrib]
    exact Finset.sum_congr rfl fun k _ => by
      linear_combination (M m k) * relu_sub_relu_neg (Wu (e k) ⬝ᵥ x)
  -- `M (A x) = x`
  have h6 : ∑ k, M m k * (Wu (e k) ⬝ᵥ x) = x m := by
    have hMx : M *ᵥ (A *ᵥ x) = x := by
      rw [Matrix.mulVec_mulVec, hM, Matrix.one_mulVec]
    have h7 : (M *ᵥ (A *ᵥ x)) m = ∑ k, M m k * (A k ⬝ᵥ x) := by
      first
      | rfl
      | simp only [Matrix.mulVec, dotProduct]
    have h8 : ∑ k, M m k * (A k ⬝ᵥ x) = ∑ k, M m k * (Wu (e k) ⬝ᵥ x) :=
      Finset.sum_congr rfl fun k _ => by rw [hA k]
    rw [← h8, ← h7, hMx]
  linarith

/-- **Beyond the paper** (note `deep-stacks.md`, Theorem C, sufficiency). If the `d × d`
matrix of the rows `e 0, …, e (d-1)` of `Wu` is invertible (`IsUnit (Wu.submatrix e id).det`),
the identity skip of the ReLU block `(Wd, Wu)` of width `n` is absorbed by a ReLU block of
width `n + d`. No nondegeneracy is needed. (`e` is then injective automatically.) -/
theorem absorbableWithWidth_add_of_isUnit_det {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (e : Fin d → Fin n) (hU : IsUnit (Wu.submatrix e id).det) :
    AbsorbableWithWidth relu 1 Wd Wu (n + d) := by
  have hrow : ∀ k, (Wu.submatrix e id) k = Wu (e k) := by
    intro k
    first
    | rfl
    | (funext l; exact Matrix.submatrix_apply Wu e id k l)
    | (funext l; simp only [Matrix.submatrix_apply, id])
  unfold AbsorbableWithWidth
  exact ⟨appendDown (Wd + mergeCols (Wu.submatrix e id)⁻¹ e) (-(Wu.submatrix e id)⁻¹),
    appendUp Wu (-(Wu.submatrix e id)),
    add_mlp_eq_mlp_append e _ _ hrow (Matrix.nonsing_inv_mul _ hU)⟩

/-- **Beyond the paper** (note `deep-stacks.md`, Theorem C, sufficiency, as in issue 13): if
some `d` rows `Wu (e 0), …, Wu (e (d-1))` of `Wu` are linearly independent, the identity skip
of the ReLU block `(Wd, Wu)` of width `n` is absorbed at width `n + d`. -/
theorem absorbableWithWidth_add_of_linearIndependent {Wd : Matrix (Fin d) (Fin n) ℝ}
    {Wu : Matrix (Fin n) (Fin d) ℝ} (e : Fin d → Fin n)
    (hli : LinearIndependent ℝ (fun k => Wu (e k))) :
    AbsorbableWithWidth relu 1 Wd Wu (n + d) := by
  have hA : IsUnit (Wu.submatrix e id) := by
    first
    | exact Matrix.linearIndependent_rows_iff_isUnit.mp hli
    | exact (Matrix.linearIndependent_rows_iff_isUnit (A := Wu.submatrix e id)).mp hli
  exact absorbableWithWidth_add_of_isUnit_det e ((Matrix.isUnit_iff_isUnit_det _).mp hA)

end Sufficiency

end SkipAbsorption
