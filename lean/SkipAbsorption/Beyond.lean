import SkipAbsorption.Beyond.Injective
import SkipAbsorption.Beyond.DepthOne
import SkipAbsorption.Beyond.StacksInjective
import SkipAbsorption.Beyond.StacksLine
import SkipAbsorption.Beyond.Stacks
import SkipAbsorption.Beyond.Width
import SkipAbsorption.Beyond.WidthFactor
import SkipAbsorption.Beyond.WidthNecessity

/-!
# Beyond the paper (issue 13): depth and width

**Results beyond arXiv 2604.23705**, from the research note `deep-stacks.md` (§1, §2, §4, §5).
They are kept apart from the paper's own results:

* `SkipAbsorption.Beyond.Injective`: a residual-free ReLU block of hidden width `n' < 2 d` is
  not injective (`not_injective_mlp_relu_of_lt_two_mul`); a residual block with a branch that
  is Lipschitz with constant `< 1` is injective (`injective_add_of_lipschitzWith`);
* `SkipAbsorption.Beyond.DepthOne`: ReLU blocks on the line (`d = 1`), positive homogeneity,
  width 2 and width 1 (`scalarReluBlock`, `VanishesOnHalfLine`);
* `SkipAbsorption.Beyond.Stacks`: Theorem B′ (`resStack_ne_plainStack_of_lt_two_mul`) and
  Theorem A (`resStack_eq_plainStack_width_two`, `resStack_eq_plainStack_width_one_iff`);
* `SkipAbsorption.Beyond.Width`: absorbing the skip with a block of another width
  (`AbsorbableWithWidth`), and Theorem C, sufficiency: width `n + d` suffices when some `d`
  rows of `Wu` are independent (`absorbableWithWidth_add_of_linearIndependent`);
* `SkipAbsorption.Beyond.WidthNecessity`: the rank bound of §5 of the note
  (`exists_rank_le_of_absorbableWithWidth`), its cases `n' = n` (Theorem 8 again) and (ND)
  (`le_width_of_absorbableWithWidth`: `n + d ≤ n'`), and Theorem C as an `iff`
  (`absorbableWithWidth_relu_iff`).

Theorem D of the note (`d = 2`, homeomorphic regime) is a documented conjecture in
`lean/README.md`, not Lean.

Status: not compiled (no Lean toolchain here).
-/
