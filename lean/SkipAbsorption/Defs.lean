import Mathlib.Data.Matrix.Mul
import Mathlib.Data.Real.Basic

/-!
# Definitions: MLP blocks and absorbable skips

Setting of arXiv 2604.23705 ("Can an MLP absorb its own skip connection?"), definitions
D1, D2 and D4 of `paper.md`, with column vectors `x : Fin d → ℝ`:

* `mlp σ Wd Wu x = Wd σ(Wu x)`, an ungated bias-free block of hidden width `n`
  (`σ` acts entrywise);
* `gatedMlp g Wd Wg Wv x = Wd (g(Wg x) ⊙ (Wv x))`, a gated (GLU-type) block;
* `Absorbable σ A Wd Wu`: some block of the same kind and the same width `n` equals
  `x ↦ A x + mlp σ Wd Wu x` for every `x` (the skip `A` is absorbed);
* `GatedAbsorbable g A Wd Wg Wv`: the same for gated blocks.

Precedence note: `∘` (90) binds tighter than `*ᵥ` (73), so the brackets in
`σ ∘ (Wu *ᵥ x)` are required.
-/

open Matrix

noncomputable section

namespace SkipAbsorption

variable {d n : ℕ}

/-- Ungated MLP block without biases: `x ↦ Wd σ(Wu x)`, `σ` applied entrywise. -/
def mlp (σ : ℝ → ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ)
    (x : Fin d → ℝ) : Fin d → ℝ :=
  Wd *ᵥ (σ ∘ (Wu *ᵥ x))

/-- Gated (GLU-type) block without biases: `x ↦ Wd (g(Wg x) ⊙ (Wv x))`. -/
def gatedMlp (g : ℝ → ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ)
    (x : Fin d → ℝ) : Fin d → ℝ :=
  Wd *ᵥ (fun i => g ((Wg *ᵥ x) i) * (Wv *ᵥ x) i)

/-- The linear skip `A` can be absorbed: some ungated block of the same activation and the
same width `n` equals `x ↦ A x + mlp σ Wd Wu x` everywhere. -/
def Absorbable (σ : ℝ → ℝ) (A : Matrix (Fin d) (Fin d) ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ)
    (Wu : Matrix (Fin n) (Fin d) ℝ) : Prop :=
  ∃ (Vd : Matrix (Fin d) (Fin n) ℝ) (Vu : Matrix (Fin n) (Fin d) ℝ),
    ∀ x, A *ᵥ x + mlp σ Wd Wu x = mlp σ Vd Vu x

/-- The linear skip `A` can be absorbed by a gated block of the same gate and width. -/
def GatedAbsorbable (g : ℝ → ℝ) (A : Matrix (Fin d) (Fin d) ℝ) (Wd : Matrix (Fin d) (Fin n) ℝ)
    (Wg Wv : Matrix (Fin n) (Fin d) ℝ) : Prop :=
  ∃ (Vd : Matrix (Fin d) (Fin n) ℝ) (Vg Vv : Matrix (Fin n) (Fin d) ℝ),
    ∀ x, A *ᵥ x + gatedMlp g Wd Wg Wv x = gatedMlp g Vd Vg Vv x

end SkipAbsorption

end

/-! ### Nondegenerate weights (paper D5, as reconstructed) -/

namespace SkipAbsorption

variable {d n : ℕ}

/-- **Nondegenerate weights** (paper definition D5 as reconstructed in `paper.md`; the paper's
own wording of D5 is not reproduced verbatim): with rows `u_i = Wu i` of `Wu` and columns
`w_i = fun k => Wd k i` of `Wd`,

1. every row `u_i` is nonzero;
2. no two rows are parallel: `u_j ≠ c • u_i` for `i ≠ j` and every real `c`;
3. every column `w_i` is nonzero.

A conjunction in this order; `ReluNecessity.lean` gives named accessors
(`Nondegenerate.row_ne_zero`, `Nondegenerate.row_not_parallel`,
`Nondegenerate.col_ne_zero`) and the constructor `Nondegenerate.intro`. -/
def Nondegenerate (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) : Prop :=
  (∀ i : Fin n, Wu i ≠ 0) ∧ (∀ i j : Fin n, i ≠ j → ∀ c : ℝ, Wu j ≠ c • Wu i) ∧
    (∀ i : Fin n, (fun k : Fin d => Wd k i) ≠ 0)

end SkipAbsorption
