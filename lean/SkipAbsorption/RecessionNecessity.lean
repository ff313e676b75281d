import SkipAbsorption.Recession
import SkipAbsorption.ReluNecessity.Basic
import SkipAbsorption.Parity
import SkipAbsorption.Reduction

/-!
# Necessity of the S-condition for every activation with recession profile ReLU

Research note `recession.md` §4 (Corollary R3). If `σ (t * z) / t → relu z` for every `z`,
R1 (`absorbable_of_tendsto_div`) turns an absorbing `σ`-block into an absorbing ReLU block with
the same weights, and paper Theorem 8's necessity (`exists_sCondition_of_absorbable_relu`)
applies:

* `exists_sCondition_of_absorbable_of_tendsto_div_relu`: for nondegenerate weights,
  `Absorbable σ 1 Wd Wu → ∃ S, Wd * diagonal 1_S * Wu = -1`;
* `absorbable_iff_of_tendsto_div_relu`: with moreover `σ z - σ (-z) = z`, an `iff`
  (sufficiency: `absorbable_of_sCondition` with `c = 1`), stated exactly like
  `absorbable_relu_iff`;
* `absorbable_iff_of_tendsto_div_relu_of_isUnit_det`: any invertible skip `A`
  (`… = -A`), through paper Lemma 4, as `absorbable_relu_iff_of_isUnit_det`.

GELU (paper Theorem 10), GELU-tanh, SiLU and softplus are instances (`ReluLike.lean`).
Not compiled: no Lean toolchain here.
-/

open Matrix Filter Topology

namespace SkipAbsorption

variable {d n : ℕ}

/-- **Necessity for recession profile ReLU** (note R3; paper Theorem 10 for GELU). If
`σ (t * z) / t → relu z` for every `z` and the weights are nondegenerate, a `σ`-block absorbs
the identity skip only if some `S` has `Wd[:,S] Wu[S,:] = -I`. -/
theorem exists_sCondition_of_absorbable_of_tendsto_div_relu {σ : ℝ → ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hρ : ∀ z, Tendsto (fun t => σ (t * z) / t) atTop (𝓝 (relu z)))
    (hnd : Nondegenerate Wd Wu) :
    Absorbable σ 1 Wd Wu →
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 := fun h =>
  exists_sCondition_of_absorbable_relu hnd (absorbable_of_tendsto_div hρ h)

/-- **Characterisation for recession profile ReLU with odd part `z / 2`.** If
`σ (t * z) / t → relu z` for every `z` and `σ z - σ (-z) = z`, then for nondegenerate weights
a `σ`-block absorbs the identity skip iff some `S` has `Wd[:,S] Wu[S,:] = -I`. -/
theorem absorbable_iff_of_tendsto_div_relu {σ : ℝ → ℝ}
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hρ : ∀ z, Tendsto (fun t => σ (t * z) / t) atTop (𝓝 (relu z)))
    (hσ : ∀ z, σ z - σ (-z) = z) (hnd : Nondegenerate Wd Wu) :
    Absorbable σ 1 Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1 :=
  ⟨exists_sCondition_of_absorbable_of_tendsto_div_relu hρ hnd, fun ⟨S, hS⟩ =>
    absorbable_of_sCondition (σ := σ) (c := 1) one_ne_zero
      (fun z => (hσ z).trans (one_mul z).symm) Wd Wu S
      (hS.trans neg_inv_one_smul_one.symm)⟩

/-- **The same for an invertible skip** (through paper Lemma 4): for invertible `A`,
`Absorbable σ A Wd Wu ↔ ∃ S, Wd[:,S] Wu[S,:] = -A`. -/
theorem absorbable_iff_of_tendsto_div_relu_of_isUnit_det {σ : ℝ → ℝ}
    {A : Matrix (Fin d) (Fin d) ℝ} (hA : IsUnit A.det)
    {Wd : Matrix (Fin d) (Fin n) ℝ} {Wu : Matrix (Fin n) (Fin d) ℝ}
    (hρ : ∀ z, Tendsto (fun t => σ (t * z) / t) atTop (𝓝 (relu z)))
    (hσ : ∀ z, σ z - σ (-z) = z) (hnd : Nondegenerate Wd Wu) :
    Absorbable σ A Wd Wu ↔
      ∃ S : Finset (Fin n),
        Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -A :=
  (absorbable_iff_of_isUnit_det σ hA Wd Wu).trans
    ((absorbable_iff_of_tendsto_div_relu hρ hσ (hnd.inv_mul hA)).trans
      (exists_congr fun S => inv_mul_selector_eq_neg_one_iff hA Wd
        (Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0)) Wu))

end SkipAbsorption
