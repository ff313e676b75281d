import SkipAbsorption.Defs
import SkipAbsorption.Stack
import SkipAbsorption.Asymptotics
import SkipAbsorption.Reduction
import SkipAbsorption.Degree
import SkipAbsorption.Linearisation
import SkipAbsorption.Depth
import SkipAbsorption.LittleO
import SkipAbsorption.Parity
import SkipAbsorption.Relu
import SkipAbsorption.ReluParts
import SkipAbsorption.ReluNecessity.Basic
import SkipAbsorption.ReluNecessity
import SkipAbsorption.Gaussian
import SkipAbsorption.ActivationDefs
import SkipAbsorption.Activations
import SkipAbsorption.Premises.ReluPowers
import SkipAbsorption.Premises.ReluGate
import SkipAbsorption.Premises.Swish
import SkipAbsorption.Premises.Gates
import SkipAbsorption.Premises.Gelu
import SkipAbsorption.CatalogActivations
import SkipAbsorption.Kink
import SkipAbsorption.Rank
import SkipAbsorption.MeasureZero
import SkipAbsorption.SConditionJointSet
import SkipAbsorption.MeasureZeroJoint
import SkipAbsorption.Recession
import SkipAbsorption.Bounded
import SkipAbsorption.RecessionRelu
import SkipAbsorption.RecessionActivations
import SkipAbsorption.RecessionNecessity
import SkipAbsorption.ReluLikeGelu
import SkipAbsorption.ReluLikeSiluSoftplus
import SkipAbsorption.ReluLike
import SkipAbsorption.Bias
import SkipAbsorption.BiasedNecessity
import SkipAbsorption.BiasedReluLikeGelu
import SkipAbsorption.BiasedReluLikeSiluSoftplus
import SkipAbsorption.BiasedReluLike
import SkipAbsorption.BiasedBounded
import SkipAbsorption.GateParity
import SkipAbsorption.GeluTanhGate
import SkipAbsorption.RecessionGeluTanh
import SkipAbsorption.ReluLikeGeluTanh
import SkipAbsorption.BiasedReluLikeGeluTanh
import SkipAbsorption.LeakyRelu
import SkipAbsorption.Audit
import SkipAbsorption.Families
import SkipAbsorption.Beyond
import SkipAbsorption.PreNorm

/-!
# SkipAbsorption

Lean 4 / Mathlib formalisation of results of arXiv 2604.23705, "Can an MLP absorb its own
skip connection?" (Mijoski, Karbevski). This root file imports every library file:

* `Defs`: `mlp`, `gatedMlp`, `Absorbable`, `GatedAbsorbable`;
* `Asymptotics`: helper lemmas on `=O[𝓝 0]` / `=o[𝓝 0]`;
* `Reduction`: paper Lemma 4 (an invertible skip reduces to the identity skip);
* `Degree`: paper Proposition 5 (homogeneous blocks of degree `k ≠ 1`);
* `Linearisation`: paper Proposition 6, generalised (gates tending to `0`, activations `o(z)`);
* `Depth`: paper Corollary 7 (stacks of residual blocks);
* `LittleO`: `z ↦ h z * z` is `o(z)` when `h → 0` at `0` (for user activations' certificates);
* `Parity`: even activations, and the sufficiency half of paper Theorems 8/10;
* `ActivationDefs`: the definitions of every activation but `relu` (no theorem);
* `Gaussian`, `Activations`: ReLU, ReLU², ReLU³, Swish, GELU and their premise lemmas;
* `Relu`: `relu` and its odd/even parts (`relu z ∓ relu (-z) = z, |z|`);
* `ReluParts`, `ReluNecessity`: `Nondegenerate` weights and paper Theorem 8 for ReLU as an
  `iff` (`absorbable_relu_iff`, `absorbable_relu_iff_of_isUnit_det`);
* `CatalogActivations`: the remaining catalog activations (Leaky ReLU, softplus, GELU-tanh,
  `|z|`, the identity gate of the bilinear GLU) and their premise lemmas;
* `Kink`: the kink lemma (second difference of `∑ k, |P k ⬝ᵥ x| • a k`), a step of the
  necessity direction of paper Theorem 8;
* `Rank`: the rank bound `d ≤ |S|` for the S-condition (`card_le_of_sCondition`);
* `MeasureZero`: paper Corollary 11, one side: for fixed `Wu`, the `Wd` satisfying the
  S-condition for some `S` form a Lebesgue-null set (`volume_sCondition_eq_zero`);
* `SConditionJointSet`, `MeasureZeroJoint`: paper Corollary 11, joint (the joint set is
  measurable; then): the pairs `(Wu, Wd)` satisfying the
  S-condition for some `S` form a null set for the product Lebesgue measure
  (`volume_sCondition_joint_eq_zero`, by Tonelli from the fixed-`Wu` statement);
* `Beyond` (**beyond the paper**, issue 13): depth results of the research note
  `deep-stacks.md` — narrow ReLU blocks are not injective, contracting residual stacks are
  (Theorem B′), and the complete answer on the line, `d = 1` (Theorem A); and width
  (Theorem C): absorbing the skip with a wider block (`AbsorbableWithWidth`), width `n + d`
  suffices, and the rank bound `rank (1 + Wd[:,S] Wu[S,:]) + n ≤ n'`;
* `PreNorm` (**beyond the paper**, issue 20): in a pre-norm block `h + F (N h)` the residual is
  never a function of the normalised input `N h` — not a continuous one when `N` has bounded
  output (`not_residual_eq_of_bounded_norm`), not any one when `N` is not injective
  (`not_residual_eq_of_not_injective`);
* `Recession` (**beyond the paper**, issue 22): the large-scale limit of an absorbing block —
  R1 (`absorbable_of_tendsto_div`: recession profile transfer) and R2 (a sublinear or bounded
  activation absorbs no skip `A ≠ 0`); `Bounded`: `tanh` and `sigmoid` instances;
* `RecessionRelu`, `RecessionActivations`: criteria and instances (GELU, SiLU, softplus) of
  `σ (t z) / t → relu z`; `RecessionNecessity`: the S-condition is necessary for every such
  activation; `ReluLikeGelu`: paper Theorem 10 for GELU (`absorbable_gelu_iff`);
  `ReluLikeSiluSoftplus`: the same for SiLU and softplus (`ReluLike` gathers both);
* `Bias`, `BiasedNecessity`, `BiasedReluLikeGelu`, `BiasedReluLikeSiluSoftplus` (gathered by
  `BiasedReluLike`), `BiasedBounded` (R4): biased blocks `Wd σ(Wu x + b) + e` — the same
  S-condition decides absorbability with any biases; bounded activations never absorb;
* `GeluTanhGate`, `RecessionGeluTanh`, `ReluLikeGeluTanh`, `BiasedReluLikeGeluTanh`: the same
  for GELU-tanh (its limit needs `tanh → 1`, proved in `GeluTanhGate`; the characterisations
  are in `ReluLikeGeluTanh`, with biases in `BiasedReluLikeGeluTanh`);
* `LeakyRelu`: activations `a z + b |z|` (odd part `c z`, even part `k |z|`) and Leaky ReLU
  as an `iff` (`absorbable_leakyRelu_iff`), by the proof of Theorem 8;
* `GateParity`: gates with `g z + g (-z) = c ≠ 0` (sigmoid: GLU) absorb under an S-condition;
* `Audit`: `#print axioms` for every theorem.

`SkipAbsorption.Families` imports the per-family files that `leanbridge generate` renders from
the Python catalog (`SkipAbsorption/Families/<Name>.lean`); they instantiate the general theorems
above for each activation family. Do not edit them by hand: `leanbridge generate --check`
detects edits.
-/
