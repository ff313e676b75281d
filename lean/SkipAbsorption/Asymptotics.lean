import SkipAbsorption.Linearisation

/-!
# Asymptotic helper lemmas (re-exported)

The helpers `mulVec_comp_isBigO`, `comp_pi_isLittleO`, `isLittleO_comp_isBigO_id`,
`tendsto_zero_of_abs_le_abs` and `abs_mul_le_abs_of_unit_interval` now live at the top of
`SkipAbsorption.Linearisation`, the only library file that uses them (issue 23: one module in
the import cone of the linearisation and depth theorems instead of two). This module keeps the
name, so `import SkipAbsorption.Asymptotics` still provides them; no library file imports it.
-/
