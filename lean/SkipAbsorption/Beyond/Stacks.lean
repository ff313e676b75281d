import SkipAbsorption.Beyond.StacksInjective
import SkipAbsorption.Beyond.StacksLine

/-!
# Beyond the paper: deep residual ReLU stacks against residual-free stacks

**This file goes beyond arXiv 2604.23705.** The paper proves its absorption results for one
block at equal width, and its depth statement (Corollary 7, `SkipAbsorption.Depth`) only for
activations that are `o(z)` at `0`, which excludes ReLU. The research note `deep-stacks.md`
studies ReLU stacks of any depth; this file formalises its Theorem A (`d = 1`) and
Theorem B′ (any `d`, injectivity). Theorem D (`d = 2`) stays a conjecture (see
`lean/README.md`).

Stacks are `resStack` / `plainStack` of `SkipAbsorption.Stack`: the head of the list is
applied last, so the **first** block of a stack is the **last** element of its list, and a
plain stack whose first block is `g` is `plainStack (gs ++ [g])`.

## Theorem B′ (any `d`)

* `injective_resStack`: a residual stack whose branches are all Lipschitz with constants
  `< 1` is injective (`injective_add_of_lipschitzWith`, block by block);
* `not_injective_plainStack_append`: a plain stack whose first block is not injective is not
  injective (`plainStack_append_singleton`);
* `exists_ne_plainStack_append_of_injective`: an injective map is no plain stack whose first
  block is not injective;
* `resStack_ne_plainStack_of_lt_two_mul`: hence such a residual stack on `Fin d → ℝ` differs
  from **every** plain stack whose first block is a ReLU block `mlp relu V U` of hidden width
  `n' < 2 d`, at some input; the depths and the later blocks are arbitrary
  (`not_injective_mlp_relu_of_lt_two_mul`). `exists_ne_plainStack_of_injective_of_lt_two_mul`
  states the same for any injective map.

The generic version of the note (condition (ND) instead of small weights) needs almost-everywhere
differentiability of piecewise-linear maps and is not formalised.

## Theorem A (`d = 1`), on the line `ℝ`

Blocks are `scalarReluBlock v u x = ∑ i, v i * relu (u i * x)` (`SkipAbsorption.Beyond.DepthOne`;
`mlp_relu_fin_one_apply` identifies one such block with coordinate `0` of an `mlp` on
`Fin 1 → ℝ`; transporting whole stacks along `ℝ ≃ (Fin 1 → ℝ)` is not formalised).

* `resStack_posHomogeneous`, `plainStack_posHomogeneous`: stacks of positively homogeneous
  maps are positively homogeneous;
* (i) `exists_plainStack_width_two`, `resStack_eq_plainStack_width_two`: every residual ReLU
  stack, of any depth and any widths, equals a plain ReLU stack of width 2 and of **any**
  depth `L' ≥ 1` (the whole map in the first block, identity blocks
  `x = relu x - relu (-x)` after it);
* (ii) `exists_plainStack_width_one_iff`, `resStack_eq_plainStack_width_one_iff`: a residual
  ReLU stack equals a plain ReLU stack of width 1 and depth `L' ≥ 1` (any fixed `L'`) **iff**
  it vanishes on a half-line (`vanishesOnHalfLine_plainStack`: every non-empty width-1 plain
  stack does, because its first block does and later blocks fix `0`).

Not formalised from §1 of the note: the description of *when* a residual width-1 stack
vanishes on a half-line (some layer with `b_l a_l = -1` reached on a ray that earlier layers
do not collapse), and the statement for plain widths `≥ 3` (pad a width-2 block with zero
units).

Layout (issue 23): Theorem B′ is proved in `SkipAbsorption.Beyond.StacksInjective` (imports
`Beyond.Injective`), Theorem A in `SkipAbsorption.Beyond.StacksLine` (imports
`Beyond.DepthOne`); this module imports both and proves nothing itself, so
`import SkipAbsorption.Beyond.Stacks` provides every declaration it provided before.

Status: not compiled (no Lean toolchain here). Every Mathlib name used is listed in
`lean/CHECKED_NAMES.md`, section "Beyond the paper: depth (issue 13)".
-/
