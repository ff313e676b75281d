import SkipAbsorption.Beyond.Injective
import SkipAbsorption.Beyond.DepthOne
import SkipAbsorption.Beyond.Stacks

/-!
# Beyond the paper (issue 13): depth

**Results beyond arXiv 2604.23705**, from the research note `deep-stacks.md` (§1, §2, §4).
They are kept apart from the paper's own results:

* `SkipAbsorption.Beyond.Injective`: a residual-free ReLU block of hidden width `n' < 2 d` is
  not injective (`not_injective_mlp_relu_of_lt_two_mul`); a residual block with a branch that
  is Lipschitz with constant `< 1` is injective (`injective_add_of_lipschitzWith`);
* `SkipAbsorption.Beyond.DepthOne`: ReLU blocks on the line (`d = 1`), positive homogeneity,
  width 2 and width 1 (`scalarReluBlock`, `VanishesOnHalfLine`);
* `SkipAbsorption.Beyond.Stacks`: Theorem B′ (`resStack_ne_plainStack_of_lt_two_mul`) and
  Theorem A (`resStack_eq_plainStack_width_two`, `resStack_eq_plainStack_width_one_iff`).

Theorem D of the note (`d = 2`, homeomorphic regime) is a documented conjecture in
`lean/README.md`, not Lean.

Status: not compiled (no Lean toolchain here).
-/
