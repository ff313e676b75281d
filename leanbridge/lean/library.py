"""The Lean library's public interface, as Python data.

Generated Lean files may only reference what is listed here: the general theorems of
``lean/SkipAbsorption`` (one per paper result and skip shape) and, for each catalog family, its
Lean definition and premise lemmas. ``leanbridge graph --check`` verifies every name against
the Lean sources, so a rename on the Lean side is caught before Lean ever runs.
"""

from __future__ import annotations

from dataclasses import dataclass

NAMESPACE = "SkipAbsorption"
FAMILIES_NAMESPACE = "SkipAbsorption.Families"

# Premise kinds: the hypothesis shapes the general theorems take.
HOMOGENEOUS = "homogeneous"   # ∀ t : ℝ, 0 < t → ∀ z, σ (t * z) = t ^ k * σ z
LITTLE_O = "isLittleO"        # σ =o[𝓝 0] (fun z => z)
TENDSTO = "tendsto"           # Tendsto g (𝓝 0) (𝓝 0)
EVEN = "even"                 # ∀ z, σ (-z) = σ z
ODD = "odd"                   # ∀ z, σ z - σ (-z) = z   (c = 1)   or   = c * z
#: ∀ z, Tendsto (fun t => σ (t * z) / t) atTop (𝓝 0)   (the large-scale limit, R2)
TENDSTO_DIV_ZERO = "tendsto_div_zero"
#: ∀ z, Tendsto (fun t => σ (t * z) / t) atTop (𝓝 (relu z))   (R3)
TENDSTO_DIV_RELU = "tendsto_div_relu"


@dataclass(frozen=True)
class GeneralTheorem:
    """A theorem of the Lean library that family theorems instantiate."""

    name: str
    module: str
    paper: str
    summary: str

    @property
    def full_name(self) -> str:
        return f"{NAMESPACE}.{self.name}"


_DEGREE = "SkipAbsorption.Degree"
_LINEAR = "SkipAbsorption.Linearisation"
_PARITY = "SkipAbsorption.Parity"

GENERAL_THEOREMS: dict[str, GeneralTheorem] = {t.name: t for t in (
    GeneralTheorem("not_absorbable_of_posHomogeneous", _DEGREE, "Prop 5",
                   "An ungated block whose activation is positively homogeneous of degree k ≠ 1 "
                   "absorbs no linear skip A ≠ 0"),
    GeneralTheorem("not_gatedAbsorbable_of_posHomogeneous", _DEGREE, "Prop 5",
                   "A gated block whose gate is positively homogeneous of degree m ≠ 0 absorbs no "
                   "linear skip A ≠ 0"),
    GeneralTheorem("not_absorbable_of_posHomogeneous_rpow", _DEGREE, "Prop 5",
                   "An ungated block whose activation is positively homogeneous of a real degree "
                   "k ≠ 1 (t ^ k is Real.rpow) absorbs no linear skip A ≠ 0"),
    GeneralTheorem("not_gatedAbsorbable_of_posHomogeneous_rpow", _DEGREE, "Prop 5",
                   "A gated block whose gate is positively homogeneous of a real degree m ≠ 0 "
                   "absorbs no linear skip A ≠ 0"),
    GeneralTheorem("not_absorbable_of_isLittleO", _LINEAR, "Prop 6",
                   "An ungated block whose activation is o(z) at 0 absorbs no identity skip "
                   "(d ≥ 1)"),
    GeneralTheorem("not_absorbable_of_isLittleO_of_isUnit", _LINEAR, "Prop 6 + Lemma 4",
                   "An ungated block whose activation is o(z) at 0 absorbs no invertible "
                   "linear skip (d ≥ 1)"),
    GeneralTheorem("not_gatedAbsorbable_of_tendsto", _LINEAR, "Prop 6",
                   "A gated block whose gate tends to 0 at 0 absorbs no identity skip (d ≥ 1)"),
    GeneralTheorem("not_gatedAbsorbable_of_tendsto_of_isUnit", _LINEAR, "Prop 6 + Lemma 4",
                   "A gated block whose gate tends to 0 at 0 absorbs no invertible linear "
                   "skip (d ≥ 1)"),
    GeneralTheorem("not_mlpStack_eq_of_isLittleO", _LINEAR, "Cor 7",
                   "A stack of residual ungated blocks with activation o(z) at 0 is no non-empty "
                   "stack of residual-free blocks (d ≥ 1)"),
    GeneralTheorem("not_gatedMlpStack_eq_of_tendsto", _LINEAR, "Cor 7",
                   "A stack of residual gated blocks with gate tending to 0 at 0 is no non-empty "
                   "stack of residual-free blocks (d ≥ 1)"),
    GeneralTheorem("isLittleO_of_posHomogeneous", _DEGREE, "Cor 7",
                   "An activation positively homogeneous of degree k > 1 is o(z) at 0"),
    GeneralTheorem("not_absorbable_of_even", _PARITY, "parity (not in the paper)",
                   "An ungated block with an even activation absorbs no identity skip (d ≥ 1)"),
    GeneralTheorem("not_absorbable_of_even_of_ne_zero", _PARITY, "parity (not in the paper)",
                   "An ungated block with an even activation absorbs no linear skip A ≠ 0"),
    GeneralTheorem("absorbable_of_sCondition", _PARITY, "Thm 8/10 (if)",
                   "If σ(z) − σ(−z) = c z with c ≠ 0 and W_down[:,S] W_up[S,:] = −(1/c) I, the "
                   "identity skip is absorbed"),
    # issue 22, results of this project (the names are those of RECESSION_NAMES below)
    GeneralTheorem("eq_zero_of_absorbable_of_tendsto_div_zero", "SkipAbsorption.Recession",
                   "R2 (beyond the paper)",
                   "If σ(t z)/t → 0 as t → ∞ for every z, a block that absorbs the skip A has "
                   "A = 0"),
    *(GeneralTheorem(f"not_absorbable_{name}", "SkipAbsorption.Bounded", "R2 (beyond the paper)",
                     f"A {name} block absorbs no skip A ≠ 0, for all d, n and weights ({name} is "
                     "bounded)")
      for name in ("tanh", "sigmoid")),
    GeneralTheorem("gatedAbsorbable_sigmoid_of_sCondition", "SkipAbsorption.GateParity",
                   "gate parity (beyond the paper)",
                   "A gated sigmoid block (GLU) absorbs the skip A if some S has "
                   "W_down[:,S] W_val[S,:] = −A"),
    GeneralTheorem("exists_sCondition_of_absorbable_of_tendsto_div_relu",
                   "SkipAbsorption.RecessionNecessity", "R3 (beyond the paper)",
                   "If σ(t z)/t → relu z for every z and the weights are nondegenerate, an "
                   "absorbed identity skip forces the S-condition W_down[:,S] W_up[S,:] = −I"),
    GeneralTheorem("absorbable_iff_of_tendsto_div_relu", "SkipAbsorption.RecessionNecessity",
                   "R3 (beyond the paper)",
                   "If σ(t z)/t → relu z for every z, σ(z) − σ(−z) = z and the weights are "
                   "nondegenerate, the identity skip is absorbed iff the S-condition holds"),
    GeneralTheorem("absorbable_iff_of_tendsto_div_relu_of_isUnit_det",
                   "SkipAbsorption.RecessionNecessity", "R3 (beyond the paper)",
                   "If σ(t z)/t → relu z for every z, σ(z) − σ(−z) = z and the weights are "
                   "nondegenerate, an invertible skip A is absorbed iff W_down[:,S] W_up[S,:] = "
                   "−A for some S (through Lemma 4)"),
    GeneralTheorem("absorbable_gelu_iff", "SkipAbsorption.ReluLikeGelu", "Thm 10 (only if)",
                   "GELU, nondegenerate weights: the identity skip is absorbed iff the "
                   "S-condition holds (by the large-scale limit)"),
    *(GeneralTheorem(f"absorbable_{name}_iff_of_isUnit_det", module,
                     "Thm 10 and Lemma 4" if name == "gelu" else "R3 (beyond the paper)",
                     f"{display}, nondegenerate weights: an invertible skip A is absorbed iff "
                     "W_down[:,S] W_up[S,:] = −A for some S (through Lemma 4)")
      for name, module, display in (
          ("gelu", "SkipAbsorption.ReluLikeGelu", "GELU"),
          ("geluTanh", "SkipAbsorption.ReluLikeGeluTanh", "GELU (tanh)"),
          ("swish", "SkipAbsorption.ReluLikeSiluSoftplus", "SiLU"),
          ("softplus", "SkipAbsorption.ReluLikeSiluSoftplus", "softplus"))),
    *(GeneralTheorem(f"absorbable_{name}_iff", module, "R3 (beyond the paper)",
                     f"{display}, nondegenerate weights: the identity skip is absorbed iff the "
                     "S-condition holds (by the large-scale limit)")
      for name, module, display in (
          ("geluTanh", "SkipAbsorption.ReluLikeGeluTanh", "GELU (tanh)"),
          ("swish", "SkipAbsorption.ReluLikeSiluSoftplus", "SiLU"),
          ("softplus", "SkipAbsorption.ReluLikeSiluSoftplus", "softplus"))),
)}

#: Paper results and the general theorems that formalise them (for the dependency graph).
PAPER_RESULTS: dict[str, str] = {
    "Lemma 4": "an invertible linear skip reduces to the identity skip",
    "Prop 5": "homogeneous blocks of degree k ≠ 1 never absorb the skip",
    "Prop 6": "gated blocks with g(0) = 0, g continuous (paper: differentiable) never absorb it",
    "Cor 7": "both extend to depth",
    "Thm 8/10 (if)": "ReLU/GELU: the S-condition suffices",
    "Thm 8 (only if)": "ReLU, nondegenerate weights: the S-condition is necessary",
    "Thm 8: |S| ≥ d": "an S satisfying the S-condition has at least d elements",
    "Cor 11": "the S-condition holds only on a Lebesgue-null set of weights",
    "Thm 10 (only if)": "GELU, nondegenerate weights: the S-condition is necessary",
}

#: Library theorems per paper result beyond the instantiated ones (Lemma 4 is used inside).
PAPER_LIBRARY: dict[str, tuple[str, ...]] = {
    "Lemma 4": ("absorbable_iff_of_isUnit_det", "gatedAbsorbable_iff_of_isUnit_det"),
    "Thm 8 (only if)": ("exists_sCondition_of_absorbable_relu", "absorbable_relu_iff",
                        "absorbable_relu_iff_of_isUnit_det"),
    "Thm 8: |S| ≥ d": ("card_le_of_sCondition",),
    "Cor 11": ("volume_sCondition_eq_zero", "volume_sCondition_joint_eq_zero"),
    "Thm 10 (only if)": ("absorbable_gelu_iff", "absorbable_gelu_iff_of_isUnit_det"),
}

#: Results beyond the paper: those of this project's research note (``deep-stacks.md``) that are
#: stated in Lean, for the dependency graph (nodes ``note:<result>``, like the paper's
#: ``paper:<result>``). Its proof sketch and conjectures have no Lean name and no node.
NOTE_RESULTS: dict[str, str] = {
    "Theorem A": "d = 1: every residual ReLU stack is a plain ReLU stack of width 2 (any depth), "
                 "and one of width 1 iff it vanishes on a closed half-line",
    "Theorem B′": "a plain ReLU block of width < 2d is not injective, a residual stack with "
                  "contracting branches is: no such stack is a plain stack with that first block",
    "Theorem C": "one ReLU block's identity skip is absorbed at width n + d (d independent rows "
                 "of W_up) and, under (ND) and nondegeneracy, at no smaller width",
    "rank bound (§5)": "nondegenerate weights: an absorbing ReLU block of width n′ forces "
                       "n + rank(I + W_down D_S W_up) ≤ n′ for some S (n′ = n: Thm 8 necessity)",
    # recession.md (issue 22)
    "R1": "transfer: if σ(t z)/t → ρ(z) for every z, an absorbing σ-block gives an absorbing "
          "ρ-block with the same weights",
    "R2": "σ(t z)/t → 0 (bounded or sublinear σ: tanh, sigmoid, …): no skip A ≠ 0 is absorbed, "
          "any d, n and weights",
    "R3": "σ(t z)/t → relu z: the S-condition is necessary for nondegenerate weights; with "
          "σ(z) − σ(−z) = z it characterises absorption (GELU-tanh, SiLU, softplus)",
    "R4": "biases do not matter: a biased block absorbs its identity skip (with biases of its "
          "own) iff the S-condition holds, for the ReLU-like class; never for bounded σ",
    "gate parity (§8)": "g(z) + g(−z) = c ≠ 0: a gated block absorbs the skip A when "
                        "W_down[:,S] W_val[S,:] = −A/c (sufficiency; GLU)",
    "kink (§6)": "σ(z) − σ(−z) = c z and σ(z) + σ(−z) = k |z| (c, k ≠ 0; Leaky ReLU): for "
                 "nondegenerate weights the S-condition W_down[:,S] W_up[S,:] = −I/c "
                 "characterises absorption (Thm 8's proof)",
}

#: Where each result of :data:`NOTE_RESULTS` comes from (a research note in
#: ``../shared/research``); ``deep-stacks.md`` when not listed.
NOTE_SOURCES: dict[str, str] = {result: "recession.md" for result in (
    "R1", "R2", "R3", "R4", "gate parity (§8)", "kink (§6)")}

#: The Lean theorems that state each result of :data:`NOTE_RESULTS` (the exported entries of
#: the groups beyond the paper, :data:`leanbridge.library_statements.BEYOND_GROUPS`; a test
#: checks that the two lists agree).
NOTE_LIBRARY: dict[str, tuple[str, ...]] = {
    "Theorem A": ("resStack_eq_plainStack_width_two", "resStack_eq_plainStack_width_one_iff"),
    "Theorem B′": ("not_injective_mlp_relu_of_lt_two_mul", "injective_add_of_lipschitzWith",
                   "injective_resStack", "resStack_ne_plainStack_of_lt_two_mul"),
    "Theorem C": ("absorbableWithWidth_add_of_linearIndependent",
                  "le_width_of_absorbableWithWidth", "absorbableWithWidth_relu_iff"),
    "rank bound (§5)": ("exists_rank_le_of_absorbableWithWidth",
                        "exists_sCondition_of_absorbableWithWidth_self"),
    "R1": ("absorbable_of_tendsto_div",),
    "R2": ("eq_zero_of_absorbable_of_tendsto_div_zero", "eq_zero_of_absorbable_of_bounded",
           "not_absorbable_tanh", "not_absorbable_sigmoid"),
    "R3": ("exists_sCondition_of_absorbable_of_tendsto_div_relu",
           "absorbable_iff_of_tendsto_div_relu", "absorbable_iff_of_tendsto_div_relu_of_isUnit_det",
           "absorbable_geluTanh_iff",
           "absorbable_swish_iff", "absorbable_softplus_iff",
           "absorbable_geluTanh_iff_of_isUnit_det", "absorbable_swish_iff_of_isUnit_det",
           "absorbable_softplus_iff_of_isUnit_det"),
    "R4": ("biasedAbsorbable_of_sCondition", "absorbable_of_biasedAbsorbable_of_tendsto",
           "biasedAbsorbable_relu_iff", "biasedAbsorbable_gelu_iff",
           "biasedAbsorbable_geluTanh_iff", "biasedAbsorbable_swish_iff",
           "biasedAbsorbable_softplus_iff", "eq_zero_of_biasedAbsorbable_of_bounded",
           "not_biasedAbsorbable_tanh", "not_biasedAbsorbable_sigmoid"),
    "gate parity (§8)": ("gatedAbsorbable_of_gateParity", "gatedAbsorbable_sigmoid_of_sCondition"),
    "kink (§6)": ("absorbable_iff_of_parts", "absorbable_leakyRelu_iff"),
}

#: The Lean declarations behind the paper's ReLU characterisation and the width results beyond
#: the paper, by role: ``analyse``, ``families --json`` and ``absorb``/``scan`` cite them.
RELU_LEAN: dict[str, str] = {role: f"{NAMESPACE}.{name}" for role, name in (
    ("nondegenerate", "Nondegenerate"),
    ("sufficiency", "absorbable_of_sCondition"),
    ("necessity", "exists_sCondition_of_absorbable_relu"),
    ("characterisation", "absorbable_relu_iff"),
    ("characterisation_skip", "absorbable_relu_iff_of_isUnit_det"),
    ("card", "card_le_of_sCondition"),
    ("card_skip", "card_le_of_sCondition_of_isUnit"),
    ("measure_zero", "volume_sCondition_eq_zero"),
    ("measure_zero_joint", "volume_sCondition_joint_eq_zero"),
    ("width_upper", "absorbableWithWidth_add_of_linearIndependent"),
    ("width_rank_bound", "exists_rank_le_of_absorbableWithWidth"),
    ("width_self", "card_le_width_of_absorbableWithWidth"),
    ("width_lower", "le_width_of_absorbableWithWidth"),
    ("width_iff", "absorbableWithWidth_relu_iff"),
)}


#: The pre-norm theorems (issue 20; not in the paper): a pre-norm block h + F(N(h)) never loses
#: its residual to a function of N(h). ``scan`` cites them as the model-level answer for a
#: pre-norm layout.
PRE_NORM_LEAN: dict[str, str] = {role: f"{NAMESPACE}.{name}" for role, name in (
    ("bounded", "not_residual_eq_of_bounded_norm"),
    ("not_injective", "not_residual_eq_of_not_injective"),
)}


# -- issue 22: the large-scale limit (recession), bounded activations, biases, gate parity ----
#: The Lean declarations of issue 22 that leanbridge cites, by the module that declares them
#: (``lean/SkipAbsorption/<Module>.lean``): the ONE list of these names in the Python (everything
#: below and every other module takes them from here), and where a generated family file that
#: instantiates one imports it from (:func:`recession_module`; a test reads each file and checks
#: the name is declared there). If a name moves to another file, move it here too.
RECESSION_NAMES: dict[str, tuple[str, ...]] = {
    "SkipAbsorption.Recession": (
        "absorbable_of_tendsto_div", "eq_zero_of_absorbable_of_tendsto_div_zero",
        "eq_zero_of_absorbable_of_bounded", "tendsto_div_zero_of_bounded"),
    "SkipAbsorption.Bounded": ("not_absorbable_tanh", "not_absorbable_sigmoid"),
    "SkipAbsorption.RecessionRelu": (
        "tendsto_div_relu_of_abs_sub_relu_le", "tendsto_add_div_relu_of_abs_sub_relu_le"),
    "SkipAbsorption.RecessionActivations": (
        "tendsto_gelu_div", "tendsto_swish_div", "tendsto_softplus_div"),
    "SkipAbsorption.RecessionGeluTanh": ("tendsto_geluTanh_div",),
    "SkipAbsorption.ReluLikeGeluTanh": (
        "absorbable_geluTanh_iff", "absorbable_geluTanh_iff_of_isUnit_det"),
    "SkipAbsorption.BiasedReluLikeGeluTanh": ("biasedAbsorbable_geluTanh_iff",),
    "SkipAbsorption.RecessionNecessity": (
        "exists_sCondition_of_absorbable_of_tendsto_div_relu",
        "absorbable_iff_of_tendsto_div_relu", "absorbable_iff_of_tendsto_div_relu_of_isUnit_det"),
    "SkipAbsorption.ReluLikeGelu": ("absorbable_gelu_iff", "absorbable_gelu_iff_of_isUnit_det"),
    "SkipAbsorption.ReluLikeSiluSoftplus": (
        "absorbable_swish_iff", "absorbable_softplus_iff",
        "absorbable_swish_iff_of_isUnit_det", "absorbable_softplus_iff_of_isUnit_det"),
    "SkipAbsorption.Bias": (
        "biasedMlp", "BiasedAbsorbable", "biasedAbsorbable_of_sCondition",
        "absorbable_of_biasedAbsorbable_of_tendsto", "eq_zero_of_biasedAbsorbable_of_bounded"),
    "SkipAbsorption.BiasedNecessity": ("biasedAbsorbable_relu_iff",),
    "SkipAbsorption.BiasedReluLikeGelu": ("biasedAbsorbable_gelu_iff",),
    "SkipAbsorption.BiasedReluLikeSiluSoftplus": (
        "biasedAbsorbable_swish_iff", "biasedAbsorbable_softplus_iff"),
    "SkipAbsorption.BiasedBounded": ("not_biasedAbsorbable_tanh", "not_biasedAbsorbable_sigmoid"),
    "SkipAbsorption.GateParity": (
        "gatedAbsorbable_of_gateParity", "gatedAbsorbable_sigmoid_of_sCondition"),
    "SkipAbsorption.LeakyRelu": ("exists_sCondition_of_absorbable_of_parts",
                                 "absorbable_iff_of_parts", "absorbable_leakyRelu_iff"),
}
_RECESSION_MODULE = {name: module for module, names in RECESSION_NAMES.items()
                     for name in names}
_RECESSION_SHORT = set(_RECESSION_MODULE)


def recession_name(short: str) -> str:
    """The full Lean name of one declaration of :data:`RECESSION_NAMES` (KeyError otherwise:
    a typo cannot cite a name the list does not hold)."""
    if short not in _RECESSION_SHORT:
        raise KeyError(f"{short} is not in RECESSION_NAMES")
    return f"{NAMESPACE}.{short}"


def recession_module(name: str) -> str:
    """The module declaring one name of :data:`RECESSION_NAMES` (short or full name)."""
    return _RECESSION_MODULE[name.removeprefix(NAMESPACE + ".")]


#: The large-scale limit in general (R1, R2; the S-condition necessary for every σ with
#: σ(tz)/t → relu z; the characterisation when also σ(z) − σ(−z) = z), by role.
RECESSION_LEAN: dict[str, str] = {role: recession_name(short) for role, short in (
    ("transfer", "absorbable_of_tendsto_div"),
    ("sublinear", "eq_zero_of_absorbable_of_tendsto_div_zero"),
    ("bounded", "eq_zero_of_absorbable_of_bounded"),
    ("bounded_limit", "tendsto_div_zero_of_bounded"),
    ("squeeze", "tendsto_div_relu_of_abs_sub_relu_le"),
    ("necessity", "exists_sCondition_of_absorbable_of_tendsto_div_relu"),
    ("characterisation", "absorbable_iff_of_tendsto_div_relu"),
    ("characterisation_skip", "absorbable_iff_of_tendsto_div_relu_of_isUnit_det"),
    ("biased_definition", "BiasedAbsorbable"),
    ("biased_sufficiency", "biasedAbsorbable_of_sCondition"),
    ("biased_transfer", "absorbable_of_biasedAbsorbable_of_tendsto"),
    ("biased_squeeze", "tendsto_add_div_relu_of_abs_sub_relu_le"),
    ("biased_bounded", "eq_zero_of_biasedAbsorbable_of_bounded"),
    ("gate_parity", "gatedAbsorbable_of_gateParity"),
    ("gate_parity_sigmoid", "gatedAbsorbable_sigmoid_of_sCondition"),
)}

#: Catalog families with σ(tz)/t → relu z (and σ(z) − σ(−z) = z), by role: the recession
#: lemma, the characterisation (identity skip, invertible skip) and the biased one.
RECESSION_FAMILIES: dict[str, dict[str, str]] = {
    family: {role: recession_name(short) for role, short in roles if short}
    for family, roles in (
        ("relu", (("biased_characterisation", "biasedAbsorbable_relu_iff"),)),
        ("gelu", (("recession", "tendsto_gelu_div"), ("characterisation", "absorbable_gelu_iff"),
                  ("characterisation_skip", "absorbable_gelu_iff_of_isUnit_det"),
                  ("biased_characterisation", "biasedAbsorbable_gelu_iff"))),
        ("gelu_tanh", (("recession", "tendsto_geluTanh_div"),
                       ("characterisation", "absorbable_geluTanh_iff"),
                       ("characterisation_skip", "absorbable_geluTanh_iff_of_isUnit_det"),
                       ("biased_characterisation", "biasedAbsorbable_geluTanh_iff"))),
        ("silu", (("recession", "tendsto_swish_div"), ("characterisation", "absorbable_swish_iff"),
                  ("characterisation_skip", "absorbable_swish_iff_of_isUnit_det"),
                  ("biased_characterisation", "biasedAbsorbable_swish_iff"))),
        ("softplus", (("recession", "tendsto_softplus_div"),
                      ("characterisation", "absorbable_softplus_iff"),
                      ("characterisation_skip", "absorbable_softplus_iff_of_isUnit_det"),
                      ("biased_characterisation", "biasedAbsorbable_softplus_iff"))),
    )}

#: Bounded activations the library proves absorb no skip A ≠ 0 (R2 through
#: `eq_zero_of_absorbable_of_bounded`, with Mathlib's bound |f| ≤ 1), by the Mathlib function.
#: A family whose printed Lean definition is exactly ``f z`` for one of them is ``f`` by
#: ``funext fun z => rfl``: its R2 theorem instantiates the library's, with no premise.
BOUNDED_LEAN: dict[str, str] = {
    "Real.tanh": recession_name("not_absorbable_tanh"),
    "Real.sigmoid": recession_name("not_absorbable_sigmoid"),
}

#: σ(z) − σ(−z) = c·z and σ(z) + σ(−z) = k·|z| with c, k ≠ 0 (σ = a·z + b·|z|, a, b ≠ 0): paper
#: Thm 8's kink argument carries over (recession.md §6), by role; the general statements take
#: both identities as hypotheses.
KINK_LEAN: dict[str, str] = {role: recession_name(short) for role, short in (
    ("necessity", "exists_sCondition_of_absorbable_of_parts"),
    ("characterisation", "absorbable_iff_of_parts"),
)}

#: Catalog families the kink argument covers, with their own characterisation.
KINK_FAMILIES: dict[str, dict[str, str]] = {
    "leaky_relu": {"characterisation": recession_name("absorbable_leakyRelu_iff")}}

#: Catalog families that are bounded: no skip A ≠ 0 is absorbed, with or without biases.
BOUNDED_FAMILIES: dict[str, dict[str, str]] = {
    "tanh": {"never": recession_name("not_absorbable_tanh"),
             "biased_never": recession_name("not_biasedAbsorbable_tanh")},
    "sigmoid": {"never": recession_name("not_absorbable_sigmoid"),
                "biased_never": recession_name("not_biasedAbsorbable_sigmoid")},
}

#: Catalog gated families whose gate has g(z) + g(−z) = c ≠ 0 (sufficiency only).
GATE_PARITY_FAMILIES: dict[str, str] = {
    "glu": recession_name("gatedAbsorbable_sigmoid_of_sCondition")}

#: Gates whose gate parity the library proves, by the Mathlib function (``g z + g (-z) = 1``,
#: so ``c = 1``): a gated family whose printed Lean gate is exactly ``f z`` is ``f`` by
#: ``funext fun z => rfl``, and its sufficiency theorem instantiates the library's.
GATE_PARITY_LEAN: dict[str, str] = {
    "Real.sigmoid": recession_name("gatedAbsorbable_sigmoid_of_sCondition")}


@dataclass(frozen=True)
class LeanActivation:
    """A catalog family's Lean side: its definition and premise lemmas in the library."""

    definition: str
    module: str
    premises: tuple[tuple[str, str], ...]

    def premise(self, kind: str) -> str | None:
        return dict(self.premises).get(kind)


#: Where the definitions live: `relu` in `SkipAbsorption.Relu` (light imports), the other catalog
#: activations in `SkipAbsorption.ActivationDefs` (definitions only). A family file imports the
#: module of its premise lemmas, the smallest file that proves them (which imports the
#: definition's module): issue 23, so that a failure in one activation's proof (the GELU measure
#: theory, say) reaches no other family. `SkipAbsorption.Activations` gathers the `Premises`
#: files under its old name; no family file imports it.
DEFINITIONS_MODULE = "SkipAbsorption.ActivationDefs"
_RELU = "SkipAbsorption.Defs"      # `relu` and `relu_sub_relu_neg` (moved from `Relu`, issue 23)
_CAT = "SkipAbsorption.CatalogActivations"
_POWERS = "SkipAbsorption.Premises.ReluPowers"   # ReLU², ReLU³: homogeneity, little-o
_RELU_GATE = "SkipAbsorption.Premises.ReluGate"  # ReLU as a gate (ReGLU)
_GATES = "SkipAbsorption.Premises.Gates"         # Swish and GELU as gates (SwiGLU, GeGLU)
_SWISH = "SkipAbsorption.Premises.Swish"         # Swish's odd part (SiLU)
_GELU = "SkipAbsorption.Premises.Gelu"           # GELU's odd part (imports the Gaussian CDF)

#: Lean definitions and premise lemmas of the catalog families (keyed by family name).
CATALOG_LEAN: dict[str, LeanActivation] = {
    "relu": LeanActivation("relu", _RELU, ((ODD, "relu_sub_relu_neg"),)),
    "gelu": LeanActivation("gelu", _GELU, ((ODD, "gelu_sub_gelu_neg"),)),
    "gelu_tanh": LeanActivation("geluTanh", _CAT, ((ODD, "geluTanh_sub_geluTanh_neg"),)),
    "silu": LeanActivation("swish", _SWISH, ((ODD, "swish_sub_swish_neg"),)),
    "relu2": LeanActivation("relu2", _POWERS, ((HOMOGENEOUS, "relu2_posHomogeneous"),
                                            (LITTLE_O, "relu2_isLittleO"))),
    "relu3": LeanActivation("relu3", _POWERS, ((HOMOGENEOUS, "relu3_posHomogeneous"),
                                            (LITTLE_O, "relu3_isLittleO"))),
    "leaky_relu": LeanActivation("leakyRelu", _CAT, ((ODD, "leakyRelu_sub_leakyRelu_neg"),)),
    "softplus": LeanActivation("softplus", _CAT, ((ODD, "softplus_sub_softplus_neg"),)),
    "abs": LeanActivation("absAct", _CAT, ((EVEN, "absAct_neg"),)),
    "reglu": LeanActivation("relu", _RELU_GATE, ((HOMOGENEOUS, "relu_posHomogeneous"),
                                           (TENDSTO, "relu_tendsto_zero"))),
    "swiglu": LeanActivation("swish", _GATES, ((TENDSTO, "swish_tendsto_zero"),)),
    "geglu": LeanActivation("gelu", _GATES, ((TENDSTO, "gelu_tendsto_zero"),)),
    "bilinear": LeanActivation("identityGate", _CAT,
                               ((HOMOGENEOUS, "identityGate_posHomogeneous"),
                                (TENDSTO, "identityGate_tendsto_zero"))),
}

#: The library's definitions and premise lemmas of the catalog families (short names).
LIBRARY_DEFINITIONS = frozenset(a.definition for a in CATALOG_LEAN.values())
PREMISE_LEMMAS = frozenset(p for a in CATALOG_LEAN.values() for _, p in a.premises)

#: Mathlib (and library) names the certificate templates (``templates/premises/``) can emit,
#: each read in Mathlib sources and listed in ``lean/CHECKED_NAMES.md`` (section "User-activation
#: certificates (issue 9)"). A user family may not shadow the root-namespace ones.
CERTIFICATE_NAMES = frozenset({
    # parity: symmetry lemmas, argument normalisation, case split
    "Real.tanh_neg", "Real.sinh_neg", "Real.sin_neg", "Real.arctan_neg", "Real.cosh_neg",
    "Real.cos_neg", "Real.sigmoid_neg", "mul_neg", "neg_mul", "neg_div", "neg_neg", "abs_neg",
    "abs_eq_max_neg", "max_def", "min_def", "congrArg", "abs",
    # homogeneity
    "abs_mul", "abs_pow", "abs_of_pos", "pow_pos", "Real.mul_rpow", "LT.lt.le",
    "mul_left_comm", "abs_nonneg", "le_max_right",
    # little-o
    "isLittleO_of_posHomogeneous", "Asymptotics.IsLittleO.add",
    "Asymptotics.IsLittleO.congr_left",
    # tendsto
    "Continuous.tendsto'", "Real.tanh_eq_sinh_div_cosh", "Real.continuous_sinh",
    "Real.continuous_cosh", "Continuous.div", "Real.cosh_pos", "LT.lt.ne'",
    "continuous_id", "Continuous.mul",
    # the S-condition's c ≠ 0 for a negative irrational c
    "ne_of_lt",
})

#: Local names the templates bind (`intro t ht z`, `have hb`, `{d n : ℕ}`, `(ws vs …)`): a user
#: family named like one would be captured by the binder inside the generated proofs.
TEMPLATE_BINDERS = frozenset({
    "z", "t", "x", "d", "n", "i", "e", "h", "hd", "ht", "h0", "hc", "htanh", "hz", "hb", "hnn",
    "ws", "vs", "hvs", "A", "hA", "Wd", "Wu", "Wg", "Wv", "S", "hS", "hσ", "hρ", "hnd"})
#: Numbered binders (`a1 a2 …` for atom rewrites, `h1 hh1 …` for little-o pieces).
TEMPLATE_BINDER_PATTERN = r"(a|h|hh)[0-9]+"

#: Lean keywords that read like identifiers: a definition named like one does not parse (the
#: lexer turns an identifier equal to a token into that token). Read in the Lean 4 parsers:
#: commands (`src/Lean/Parser/Command.lean` @ 00298d03), terms (`src/Lean/Parser/Term.lean`
#: @ 00ca0dde; `calc`, `nofun` from a reviewer's reading of the newer file @ 0dbbe18d). The
#: `do`-notation words are added without a reading (refusing a name costs nothing). Mathlib's
#: tactic names are tokens too; those the generated proofs use are refused below.
LEAN_KEYWORDS = frozenset({
    # commands and declaration modifiers
    "private", "public", "protected", "meta", "noncomputable", "unsafe", "partial", "nonrec",
    "abbrev", "def", "theorem", "opaque", "instance", "axiom", "example", "inductive",
    "coinductive", "class", "structure", "extends", "deriving", "where", "with", "section",
    "namespace", "end", "variable", "universe", "set_option", "attribute", "export", "import",
    "open", "hiding", "renaming", "scoped", "local", "mutual", "initialize",
    "builtin_initialize", "in", "include", "omit", "for", "with_weak_namespace",
    "assert_not_exists", "assert_not_imported", "add_decl_doc", "register_tactic_tag",
    "tactic_extension", "recommended_spelling", "init_quot", "docs_to_verso",
    "register_error_explanation",
    # terms
    "by", "sorry", "from", "suffices", "show", "forall", "match", "nomatch", "nofun", "fun",
    "calc", "let", "let_fun", "let_delayed", "let_tmp", "have", "no_index", "dbg_trace",
    "leading_parser", "trailing_parser",
    # do notation
    "do", "if", "then", "else", "unless", "return", "break", "continue", "mut", "try", "catch",
    "finally",
})

#: Names a user family may not take: inside ``namespace SkipAbsorption.Families`` its
#: definition (and its premise lemmas, named after it) would shadow what the generated file
#: refers to — the library's definitions and theorems, the lemmas and tactics the templates
#: use — or be a Lean keyword.
RESERVED_NAMES = frozenset(
    TEMPLATE_BINDERS
    | LIBRARY_DEFINITIONS
    | PREMISE_LEMMAS
    | set(GENERAL_THEOREMS)
    | {"mlp", "gatedMlp", "Absorbable", "GatedAbsorbable", "resStack", "plainStack", "mlpOf",
       "gatedMlpOf", "Real", "Matrix", "Finset", "Tendsto", "Nondegenerate", "Filter"}
    | _RECESSION_SHORT
    | {"one_mul", "inv_one", "neg_smul", "one_smul", "one_ne_zero", "max_def", "min_def",
       "abs_mul", "abs_of_pos", "abs_neg", "neg_neg", "max", "min", "abs"}
    | {name for name in CERTIFICATE_NAMES if "." not in name}
    # tactic words of the generated proofs (kept out of identifiers, to be safe)
    | {"first", "try", "all_goals", "intro", "exact", "rw", "simp", "only", "split_ifs", "subst",
       "unfold", "refine", "congr", "funext", "norm_num", "positivity", "fun_prop",
       "continuity", "linarith", "nlinarith", "ring1", "ring", "using", "simpa", "obtain",
       "disch", "rfl", "done", "sorry"}
    | {"lemma", "at"}       # Mathlib's `lemma` command; `at` of `rw … at h`
    | LEAN_KEYWORDS)


def catalog_lean(family_name: str) -> LeanActivation | None:
    """The Lean side of a catalog family, or None (undetermined families need none)."""
    return CATALOG_LEAN.get(family_name)
