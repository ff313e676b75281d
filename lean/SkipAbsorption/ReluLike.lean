import SkipAbsorption.ReluLikeGelu
import SkipAbsorption.ReluLikeSiluSoftplus

/-!
# Paper Theorem 10 (GELU) and its class: SiLU and softplus

For nondegenerate weights, a GELU, SiLU or softplus block absorbs the identity skip iff some
index set `S` has `Wd[:,S] Wu[S,:] = -I`; for an invertible skip `A` iff `… = -A`. This file
only gathers the two files that state it, so that importing `SkipAbsorption.ReluLike` still
provides every declaration it used to:

* `ReluLikeGelu.lean`: `absorbable_gelu_iff`, `absorbable_gelu_iff_of_isUnit_det`
  (**paper Theorem 10**), `gelu_sub_gelu_neg_of_cdf`;
* `ReluLikeSiluSoftplus.lean`: `absorbable_swish_iff`, `absorbable_softplus_iff` (and their
  `_of_isUnit_det`), `swish_sub_swish_neg_of_sigmoid`.

They are two files so that a failure in the Gaussian measure theory GELU's odd part needs
(`SkipAbsorption.Gaussian`) reaches neither SiLU nor softplus. GELU-tanh is in
`ReluLikeGeluTanh.lean`.
-/
