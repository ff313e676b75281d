import SkipAbsorption.BiasedReluLikeGelu
import SkipAbsorption.BiasedReluLikeSiluSoftplus

/-!
# Biases never matter for GELU, SiLU and softplus blocks (R4)

For nondegenerate weights and any biases `b`, `e`, a biased GELU, SiLU or softplus block
`x ↦ Wd σ(Wu x + b) + e` absorbs the identity skip (with an absorbing block that has biases of
its own) iff some index set `S` has `Wd[:,S] Wu[S,:] = -I`, the same S-condition as without
biases (research note `recession.md` §5). This file only gathers the two files that state it, so
that importing `SkipAbsorption.BiasedReluLike` still provides its three theorems (it no longer
brings in `ReluLike`'s unbiased ones, which it used to import: import `SkipAbsorption.ReluLike`
for those):

* `BiasedReluLikeGelu.lean`: `biasedAbsorbable_gelu_iff`;
* `BiasedReluLikeSiluSoftplus.lean`: `biasedAbsorbable_swish_iff`,
  `biasedAbsorbable_softplus_iff`.

GELU-tanh: `BiasedReluLikeGeluTanh.lean`; ReLU: `BiasedNecessity.lean`.
-/
