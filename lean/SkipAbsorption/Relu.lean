import SkipAbsorption.Defs

/-!
# ReLU and its odd and even parts (re-exported)

`relu z = max z 0`, `relu_sub_relu_neg` (`relu z - relu (-z) = z`), `relu_add_relu_neg`
(`relu z + relu (-z) = |z|`) and `relu_eq_half` (`relu z = (z + |z|) / 2`) live at the end of
`SkipAbsorption.Defs` since issue 23: nearly every library file that states a block also states
ReLU, and one module fewer in their import cones is one chance fewer for Lake not to build them.
This module keeps the name, so `import SkipAbsorption.Relu` still provides them (with
`SkipAbsorption.Defs`, which it provided before only in part); no library file imports it.
-/
