"""The SymPy analysis: facts, arguments and verdicts, for the catalog and for user input."""

from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from leanbridge.analysis import (
    CONDITIONAL,
    NEVER,
    UNDETERMINED,
    P,
    analyse,
    scalar_facts,
    zero_test,
)
from leanbridge.expression import user_family
from leanbridge.families import CATALOG, Family, Z, get_family
from leanbridge.functions import sigmoid

ROOT = Path(__file__).resolve().parents[1]

# family: (verdict, arguments, block degree, odd coefficient c, necessity proven)
EXPECTED = {
    "relu": (CONDITIONAL, ["odd_linear_parity", "recession_relu"], 1, 1, True),
    "gelu": (CONDITIONAL, ["odd_linear_parity", "recession_relu"], None, 1, True),
    "gelu_tanh": (CONDITIONAL, ["odd_linear_parity", "recession_relu"], None, 1, True),
    "silu": (CONDITIONAL, ["odd_linear_parity", "recession_relu"], None, 1, True),
    "relu2": (NEVER, ["degree", "linearisation"], 2, None, None),
    "relu3": (NEVER, ["degree", "linearisation"], 3, None, None),
    "leaky_relu": (CONDITIONAL, ["odd_linear_parity"], 1, sp.Rational(101, 100), True),
    "tanh": (NEVER, ["recession"], None, None, None),
    "sigmoid": (NEVER, ["recession"], None, None, None),
    "softplus": (CONDITIONAL, ["odd_linear_parity", "recession_relu"], None, 1, True),
    "abs": (NEVER, ["even_parity"], 1, 0, None),
    "reglu": (NEVER, ["degree", "linearisation"], 2, None, None),
    "swiglu": (NEVER, ["linearisation"], None, None, None),
    "geglu": (NEVER, ["linearisation"], None, None, None),
    "glu": (CONDITIONAL, ["gate_parity"], None, None, False),
    "bilinear": (NEVER, ["degree", "linearisation"], 2, None, None),
}


def user(expr, gated=False, name="user"):
    return Family(name, name, gated, sp.sympify(expr), "test", "user")


def test_every_catalog_family_has_an_expectation():
    assert set(EXPECTED) == {f.name for f in CATALOG}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_catalog_verdicts_and_arguments(name):
    verdict, arguments, degree, c, necessity = EXPECTED[name]
    result = analyse(get_family(name))
    assert result.verdict == verdict
    assert result.argument_names == arguments
    assert result.block_degree == (None if degree is None else sp.sympify(degree))
    if not result.family.gated:
        assert result.facts.odd_coefficient == (None if c is None else sp.sympify(c))
    assert result.necessity_proven == necessity
    assert result.reasons[0].startswith(verdict)


def test_the_papers_table():
    """ReLU², ReGLU → degree; SwiGLU, GeGLU → linearisation; ReLU, GELU → conditional, c = 1,
    necessity proven; GLU (sigmoid gate) → conditional by gate parity (beyond the paper),
    necessity open."""
    for name in ("relu2", "reglu"):
        assert "degree" in analyse(get_family(name)).argument_names
    for name in ("swiglu", "geglu"):
        assert analyse(get_family(name)).argument_names == ["linearisation"]
    for name in ("relu", "gelu"):
        result = analyse(get_family(name))
        assert (result.verdict, result.facts.odd_coefficient, result.necessity_proven) == (
            CONDITIONAL, 1, True)
    glu = analyse(get_family("glu"))
    assert (glu.verdict, glu.gate_parity, glu.necessity) == (CONDITIONAL, 1, "open")


@pytest.mark.parametrize("name, value, right, left, flat", [
    ("relu", 0, 1, 0, False),
    ("relu2", 0, 0, 0, True),
    ("gelu", 0, sp.Rational(1, 2), sp.Rational(1, 2), False),
    ("silu", 0, sp.Rational(1, 2), sp.Rational(1, 2), False),
    ("sigmoid", sp.Rational(1, 2), sp.Rational(1, 4), sp.Rational(1, 4), False),
    ("softplus", sp.log(2), sp.Rational(1, 2), sp.Rational(1, 2), False),
    ("leaky_relu", 0, 1, sp.Rational(1, 100), False),
    ("abs", 0, 1, -1, False),
    ("tanh", 0, 1, 1, False),
])
def test_value_and_one_sided_slopes_at_zero(name, value, right, left, flat):
    facts = scalar_facts(get_family(name).expr)
    assert facts.value_at_0 == value
    assert facts.slope_right == right
    assert facts.slope_left == left
    assert facts.flat_at_0 is flat


def test_gate_facts():
    glu = scalar_facts(get_family("glu").expr)
    assert glu.value_at_0 == sp.Rational(1, 2) and glu.continuous_at_0 is True
    swish = scalar_facts(get_family("swiglu").expr)
    assert swish.value_at_0 == 0 and swish.continuous_at_0 is True and swish.degree is None
    relu = scalar_facts(get_family("reglu").expr)
    assert relu.degree == 1 and relu.continuous_at_0 is True


def test_reasons_quote_the_computed_facts():
    reasons = " ".join(analyse(get_family("relu2")).reasons)
    assert "t^2" in reasons and "degree 2" in reasons
    leaky = " ".join(analyse(get_family("leaky_relu")).reasons)
    assert "101/100" in leaky and "σ(z) + σ(−z) = 99/100·|z| for all z" in leaky
    assert "SkipAbsorption.absorbable_leakyRelu_iff" in leaky
    quad = " ".join(analyse(user_family("z + z**2", "lin_quad")).reasons)
    assert "necessity is not proven" in quad
    glu = " ".join(analyse(get_family("glu")).reasons)
    assert "g(0) = 1/2" in glu and "g(z) + g(−z) = 1 for all z" in glu
    assert "necessity: open" in glu


# -- user expressions ------------------------------------------------------------------------

def test_user_expression_equal_to_relu_inherits_proven_necessity():
    result = analyse(user(sp.Piecewise((Z, Z > 0), (0, True))))
    assert result.verdict == CONDITIONAL
    assert result.same_as == "relu" and result.necessity_proven is True


def test_even_polynomial_gets_three_arguments():
    result = analyse(user(Z**2))
    assert result.argument_names == ["degree", "linearisation", "even_parity"]
    assert result.verdict == NEVER


def test_degree_one_homogeneous_is_not_a_degree_argument():
    result = analyse(user(2 * sp.Max(Z, 0) + 3 * sp.Max(-Z, 0)))
    assert result.block_degree == 1
    assert result.facts.odd_coefficient == -1
    assert result.argument_names == ["odd_linear_parity"]


def test_gated_degree_zero_gate_gives_no_degree_argument():
    # g = sign-like step: homogeneous of degree 0, block degree 1 = the skip's degree
    step = sp.Piecewise((1, Z > 0), (0, True))
    result = analyse(user(step, gated=True))
    assert result.facts.degree == 0
    assert "degree" not in result.argument_names
    assert result.facts.continuous_at_0 is False
    assert result.verdict == UNDETERMINED


def test_odd_but_not_linear_is_undetermined():
    result = analyse(user(Z**3))
    assert result.facts.odd_coefficient is None
    # z^3 is homogeneous of degree 3 and flat, so it is still `never`, by other arguments
    assert result.argument_names == ["degree", "linearisation"]
    assert analyse(user(sp.sinh(Z))).verdict == UNDETERMINED


def test_constant_activation_is_degree_zero():
    result = analyse(user(sp.Integer(5)))
    assert result.facts.degree == 0
    assert result.argument_names == ["degree", "even_parity", "recession"]


def test_zero_activation_is_flat_and_even():
    result = analyse(user(sp.Integer(0)))
    assert result.facts.zero_function and result.facts.degree is None
    assert result.argument_names == ["linearisation", "even_parity", "recession"]


def test_undefined_at_zero_is_reported_not_guessed():
    result = analyse(user(1 / Z))
    assert result.verdict == UNDETERMINED and result.arguments == ()
    assert "undefined at z = 0" in result.reasons[0]


def test_complex_valued_expression_is_reported():
    result = analyse(user(sp.log(Z + 2)))
    assert result.verdict == UNDETERMINED
    assert "not real-valued" in result.reasons[0]


def test_one_sided_slopes_through_max_are_exact():
    # max(z, z²) is z for small z > 0 and z² for small z < 0
    facts = scalar_facts(sp.Max(Z, Z**2))
    assert (facts.slope_right, facts.slope_left, facts.flat_at_0) == (1, 0, False)
    facts = scalar_facts(sp.Max(Z**2, Z**3) + sp.Min(Z, 0) ** 2)
    assert (facts.slope_right, facts.slope_left, facts.flat_at_0) == (0, 0, True)


def test_slope_that_sympy_cannot_decide_is_unknown_not_false():
    wobble = sp.Piecewise((Z * sp.sin(1 / Z), Z > 0), (0, True))  # z sin(1/z): no slope at 0+
    result = analyse(user(wobble))
    assert result.facts.value_at_0 == 0 and result.facts.limit_right == 0
    assert result.facts.slope_right is None
    assert result.facts.flat_at_0 is None
    assert "linearisation" not in result.argument_names


def test_jump_at_zero_is_not_flat_and_not_continuous():
    step = sp.Piecewise((1, Z > 0), (0, True))
    facts = scalar_facts(step)
    assert facts.limit_right == 1 and facts.continuous_at_0 is False
    assert facts.flat_at_0 is False and facts.slope_right is None


def test_zero_test_is_three_valued():
    assert zero_test(sp.log(1 + sp.exp(P)) - sp.log(1 + sp.exp(-P)) - P) is True
    assert zero_test(sp.tanh(P) - P) is False
    assert zero_test(sp.Integer(0)) is True
    assert zero_test(sp.Integer(3)) is False


def test_normal_forms_prove_the_softplus_identity_without_simplify(monkeypatch):
    from leanbridge.halfline import normal_form_zero

    def no_simplify(*args, **kwargs):
        raise AssertionError("simplify called")
    monkeypatch.setattr(sp, "simplify", no_simplify)
    assert normal_form_zero(sp.log(1 + sp.exp(P)) - sp.log(1 + sp.exp(-P)) - P)
    assert normal_form_zero(P * (1 - sp.erf(P)) / 2 + P * (1 + sp.erf(P)) / 2 - P)
    assert not normal_form_zero(sp.log(2 + sp.exp(P)) - sp.log(1 + sp.exp(-P)) - P)
    # exp(d) = 1 proves d = 0 only for a real d: here d = 2πi, and exp(d) cancels to 1.
    two_pi_i = 2 * sp.log(-P) - 2 * sp.log(P)
    assert sp.cancel(sp.expand(sp.exp(two_pi_i))) == 1
    assert not normal_form_zero(two_pi_i)
    assert zero_test(two_pi_i) is False
    # (SymPy folds log(−p) to log(p) + iπ, so that d has no logarithm left; this one keeps
    # three, which cancel only under expand_log, and is not real)
    logs_plus_two_pi_i = sp.log(2 * P) - sp.log(2) - sp.log(P) + 2 * sp.I * sp.pi
    assert sp.cancel(sp.expand(sp.exp(sp.expand_log(logs_plus_two_pi_i)))) == 1
    assert not normal_form_zero(logs_plus_two_pi_i)
    # e^x is formed only while every logarithm's coefficient is at most 64 in size: up to
    # it an identity is proved; beyond it the answer is "not shown" (False), never "zero"
    assert normal_form_zero(sp.log(P**64 + P**65) - 64 * sp.log(P) - sp.log(1 + P))
    assert not normal_form_zero(10**14 * sp.log(P) + sp.log(3))


def test_analysis_is_cached():
    family = get_family("gelu")
    assert analyse(family) is analyse(family)


def test_json_shape():
    data = analyse(get_family("leaky_relu")).to_dict()
    for key in ("name", "expression", "gated", "verdict", "arguments", "homogeneity_degree",
                "odd_coefficient", "value_at_0", "flat_at_0", "reasons"):
        assert key in data
    assert data["odd_coefficient"] == pytest.approx(1.01)
    assert data["exact"]["odd_coefficient"] == "101/100"
    # σ(z) + σ(−z) = z − z/100 for z > 0: the kink argument's k = 99/100
    assert data["kink"] == "99/100"
    gated = analyse(get_family("swiglu")).to_dict()
    assert gated["gate"]["continuous_at_0"] is True and gated["odd_coefficient"] is None


# -- properties ------------------------------------------------------------------------------

_positive = st.integers(1, 9).map(sp.Integer) | st.fractions(
    min_value=sp.Rational(1, 9), max_value=9).map(lambda q: sp.Rational(q.numerator,
                                                                         q.denominator))


@settings(max_examples=25, deadline=None)
@given(a=_positive, b=_positive, k=st.integers(0, 4))
def test_two_sided_power_has_degree_k(a, b, k):
    expr = a * sp.Max(Z, 0) ** k + b * sp.Max(-Z, 0) ** k if k else a + 0 * Z
    facts = scalar_facts(sp.sympify(expr))
    assert facts.degree == k
    assert (facts.flat_at_0 is True) == (k >= 2)


@settings(max_examples=25, deadline=None)
@given(c=_positive, even=st.sampled_from([Z**2, sp.Abs(Z), sp.cosh(Z) - 1, sp.Integer(0)]))
def test_linear_plus_even_has_odd_coefficient_2c(c, even):
    # σ(z) = c z + e(z) with e even: σ(z) − σ(−z) = 2 c z
    result = analyse(user(c * Z + even))
    assert result.facts.odd_coefficient == 2 * c
    assert "odd_linear_parity" in result.argument_names


@settings(max_examples=15, deadline=None)
@given(m=st.integers(1, 3), a=_positive)
def test_gate_of_degree_m_gives_block_degree_m_plus_1(m, a):
    result = analyse(user(a * sp.Max(Z, 0) ** m, gated=True))
    assert result.block_degree == m + 1
    assert result.argument_names == ["degree", "linearisation"]


def test_sigmoid_gate_is_conditional_by_gate_parity_but_zero_centred_gate_is_never():
    gate = analyse(user(sigmoid(Z), gated=True))
    assert (gate.verdict, gate.argument_names, gate.necessity) == (
        CONDITIONAL, ["gate_parity"], "open")
    assert analyse(user(sigmoid(Z) + 1, gated=True)).gate_parity == 3
    assert analyse(user(sigmoid(Z) - sp.Rational(1, 2), gated=True)).argument_names == [
        "linearisation"]


def test_conditional_verdicts_cite_the_lean_theorems_of_the_s_condition():
    """ReLU (and a user family with ReLU's function) cites necessity, |S| ≥ d and Cor 11 by
    their Lean names, each declared in lean/; GELU cites its characterisation by the
    large-scale limit (issue 22); other verdicts cite none."""
    from pathlib import Path

    from leanbridge.analysis import s_condition_theorems
    from leanbridge.expression import user_family
    from leanbridge.lean.library import RELU_LEAN
    from leanbridge.lean.sources import scan_project

    declared = scan_project(Path(__file__).resolve().parents[1] / "lean")
    relu = s_condition_theorems(analyse(get_family("relu")))
    assert relu["necessity"] == RELU_LEAN["necessity"]
    assert relu["card"] == "SkipAbsorption.card_le_of_sCondition"
    assert relu["measure_zero"] == "SkipAbsorption.volume_sCondition_eq_zero"
    assert set(relu) == {
        "sufficiency", "necessity", "characterisation", "characterisation_skip", "card",
        "measure_zero", "measure_zero_joint", "width_rank_bound", "width_upper", "width_self",
        "width_lower", "width_iff", "nondegenerate", "biased_characterisation"}
    for role, name in relu.items():
        assert name in declared, (role, name)
    twin = s_condition_theorems(analyse(user_family("Max(z, 0)", "my_relu")))
    assert twin == relu
    assert s_condition_theorems(analyse(get_family("gelu"))) == {
        "sufficiency": "SkipAbsorption.absorbable_of_sCondition",
        "nondegenerate": "SkipAbsorption.Nondegenerate",
        "necessity": "SkipAbsorption.exists_sCondition_of_absorbable_of_tendsto_div_relu",
        "characterisation": "SkipAbsorption.absorbable_gelu_iff",
        "characterisation_skip": "SkipAbsorption.absorbable_gelu_iff_of_isUnit_det",
        "recession": "SkipAbsorption.tendsto_gelu_div",
        "biased_characterisation": "SkipAbsorption.biasedAbsorbable_gelu_iff"}
    assert s_condition_theorems(analyse(get_family("glu"))) == {
        "sufficiency": "SkipAbsorption.gatedAbsorbable_of_gateParity",
        "sufficiency_family": "SkipAbsorption.gatedAbsorbable_sigmoid_of_sCondition"}
    assert s_condition_theorems(analyse(get_family("relu2"))) == {}
    text = "\n".join(analyse(get_family("relu")).reasons)
    assert "SkipAbsorption.absorbable_relu_iff" in text and "beyond the paper" in text


def test_analyse_relu_says_its_lean_names_are_not_compiled_and_states_the_minimal_width():
    """Every line citing Lean says the Lean code is not compiled here; the rank bound states its
    nondegeneracy hypothesis; one minimal-width statement says what is known (n with the
    S-condition, n + d needed under (ND) and sufficient with d independent rows of W_up), each
    cited name declared in lean/, and no printed line is cut."""
    import re
    from pathlib import Path

    from click.testing import CliRunner

    from leanbridge.cli import main
    from leanbridge.lean.sources import scan_project

    declared = scan_project(Path(__file__).resolve().parents[1] / "lean")
    reasons = analyse(get_family("relu")).reasons
    lean_lines = [r for r in reasons if "in Lean" in r]
    assert len(lean_lines) >= 5
    for line in lean_lines:
        assert "not compiled: no Lean toolchain here" in line or "(in Lean, not compiled)" \
            in line, line
    rank = next(r for r in reasons if "SkipAbsorption.exists_rank_le_of_absorbableWithWidth" in r)
    assert "for nondegenerate weights" in rank and "(ND)" in rank
    width = [r for r in reasons if r.startswith("minimal absorbing width")]
    assert len(width) == 2
    assert "n when the S-condition holds (SkipAbsorption.absorbable_of_sCondition)" in width[0]
    assert "SkipAbsorption.card_le_width_of_absorbableWithWidth" in width[0]
    assert "under (ND), for nondegenerate weights" in width[1]
    assert "n + d is needed (SkipAbsorption.le_width_of_absorbableWithWidth)" in width[1]
    assert ("n + d suffices (any weights) when some d rows of W_up are linearly independent "
            "(SkipAbsorption.absorbableWithWidth_add_of_linearIndependent)") in width[1]
    for name in re.findall(r"SkipAbsorption\.\w+", "\n".join(reasons)):
        assert name in declared, name
    output = CliRunner().invoke(main, ["analyse", "relu"]).output
    assert "characters)" not in output, "a reason line was cut"
    assert all(line in output for line in width)
    gelu = [r for r in analyse(get_family("gelu")).reasons if "in Lean" in r]
    assert gelu and all("not compiled: no Lean toolchain here" in r for r in gelu)


def test_generated_family_files_quote_the_current_lean_lines():
    """The ReLU and GELU family files quote the analysis' Lean-library lines as they are now,
    with the not-compiled note and the joint measure-zero theorem."""
    text = " ".join((ROOT / "lean" / "SkipAbsorption" / "Families" / "Relu.lean")
                    .read_text(encoding="utf-8").split())
    assert "in Lean (not compiled: no Lean toolchain here): |S| ≥ d" in text
    assert "SkipAbsorption.volume_sCondition_joint_eq_zero" in text
    assert "in Lean: " not in text


def test_odd_coefficient_close_to_a_short_fraction_is_found_exactly():
    # Hypothesis found this c: 2c agrees with 9/32 to about 1e-24, inside the sampling
    # tolerance, so the short fraction fits the samples but is not c; the exact closed form
    # must still be tried (before, the analysis gave up and said "undetermined").
    c = sp.Rational(55137695851009441475933, 392090281607178250491546)
    result = analyse(user(c * Z + Z**2))
    assert result.facts.odd_coefficient == 2 * c
    assert "odd_linear_parity" in result.argument_names


# -- homogeneity and every other fact at every scale (issue 24 §2) --------------------------

def _held_in_corpus():
    """The user activations of tests/test_certificates.py (expression, gated)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "_certificates_corpus", Path(__file__).with_name("test_certificates.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [(text, gated) for text, gated, *_ in module.CORPUS]


def _scaled_cases():
    from leanbridge.expression import parse_activation
    cases = [(f"{'gate ' if f.gated else ''}{f.name}", f.expr, f.gated) for f in CATALOG]
    cases += [(f"{'gate ' if gated else ''}{text}", parse_activation(text), gated)
              for text, gated in _held_in_corpus()]
    return cases


_SCALED = _scaled_cases()


def _scale_free(names):
    """The argument names that cannot depend on a constant factor: all but the large-scale
    limit's `recession_relu`, whose Lean premise is σ(tz)/t → relu z exactly (c·σ has the limit
    c·relu z, a premise of no library theorem for c ≠ 1; issue 22)."""
    return [name for name in names if name != "recession_relu"]


@pytest.mark.parametrize("case", range(len(_SCALED)), ids=[c[0] for c in _SCALED])
@pytest.mark.parametrize("scale", [sp.Rational(1, 10**14), sp.Integer(10**14)],
                         ids=["1e-14", "1e14"])
def test_multiplying_by_a_constant_changes_no_argument(case, scale):
    _, expr, gated = _SCALED[case]
    plain = analyse(user(expr, gated))
    scaled = analyse(user(scale * expr, gated))
    assert _scale_free(scaled.argument_names) == _scale_free(plain.argument_names)
    assert scaled.verdict == plain.verdict
    assert scaled.block_degree == plain.block_degree
    assert scaled.facts.flat_at_0 == plain.facts.flat_at_0
    if plain.facts.odd_coefficient is not None:
        assert scaled.facts.odd_coefficient == scale * plain.facts.odd_coefficient
    else:
        assert scaled.facts.odd_coefficient is None


@pytest.mark.parametrize("text, degree", [
    ("z**7", 7), ("Max(z,0)**7", 7), ("Max(z,0)**2/10**14", 2), ("z**9/10**40", 9),
    ("10**30*Abs(z)**(5/2)", sp.Rational(5, 2))])
def test_small_values_keep_the_degree_argument(text, degree):
    # 1/1000⁷ = 1e-21 was below an absolute cutoff of 1e-20: "not positively homogeneous".
    from leanbridge.expression import user_family
    result = analyse(user_family(text))
    assert result.block_degree == degree
    assert "degree" in result.argument_names
    assert not any("not positively homogeneous" in r for r in result.reasons)


def test_analyse_command_finds_the_degree_of_a_tiny_relu_square():
    import json
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for text, degree in (("z**7", 7), ("Max(z,0)**7", 7), ("Max(z,0)**2/10**14", 2)):
        run = subprocess.run([sys.executable, "-m", "leanbridge", "analyse", "--expr", text,
                              "--json"], capture_output=True, text=True, env=env, check=True)
        data = json.loads(run.stdout)
        assert data["arguments"] == ["degree", "linearisation"]
        assert data["homogeneity_degree"] == degree


def test_generated_file_of_a_tiny_activation_states_its_degree():
    from leanbridge.expression import user_family
    from leanbridge.generate import user_output
    text = user_output(user_family("Max(z,0)**2/10**14", "tiny_relu2")).text
    assert "not positively homogeneous" not in text
    assert "σ(t·z) = t^2·σ(z) for all t > 0" in text
    assert "theorem tiny_relu2_posHomogeneous" in text


def test_a_written_power_is_decided_without_sampling(monkeypatch):
    # σ(t·p) − t^k·σ(p) with t > 0 symbolic: SymPy decides, no sample point is evaluated.
    from leanbridge import halfline

    def no_samples(*args, **kwargs):
        raise AssertionError("sampled")
    monkeypatch.setattr(halfline, "samples", no_samples)
    assert halfline.power_law(P**7 / 10**14) == 7
    assert halfline.power_law(-3 * sp.sqrt(2) * P**sp.Rational(5, 2)) == sp.Rational(5, 2)
    assert halfline.scales_exactly(sp.Max(P, 0)**7, 7)
    assert not halfline.scales_exactly(P**2 + P**3, 2)


@pytest.mark.parametrize("half, k", [
    (2 * sp.cosh(sp.log(P)) - 1 / P, 1),                     # p + 1/p − 1/p
    (6 * sp.sinh(2 * sp.log(P)) + 3 / P**2, 2),               # 3p² − 3/p² + 3/p²
    ((2 * sp.cosh(sp.log(P)) - 1 / P) ** 3, 3),
    (2 * sp.cosh(sp.log(P)) - P, -1),                         # 1/p: a ratio below 1
    (2 * sp.cosh(sp.log(P)), None),                          # p + 1/p: no power law
    (sp.cosh(sp.log(P)) - 1, None),                          # zero at p = 1
    (P * sp.cosh(sp.log(P)), None),                          # (p² + 1)/2
], ids=str)
def test_a_power_law_not_written_as_one_is_found_from_samples_and_proved(half, k):
    """Where SymPy does not see C·p^k written, the ratios half(2p)/half(p) = 2^k and
    half(3p)/half(p) = 3^k at the sample points give k, which SymPy then proves."""
    from leanbridge.halfline import _written_power, power_law

    assert _written_power(half) is None
    assert power_law(half) == k


def test_a_power_law_the_numbers_fit_but_sympy_cannot_prove_is_not_claimed(monkeypatch):
    """The samples give k = 1 for 2cosh(log p) − 1/p; if SymPy proved neither
    half − half(1)·p = 0 nor half(t·p) = t·half(p), no power law is claimed."""
    from leanbridge import halfline

    half = 2 * sp.cosh(sp.log(P)) - 1 / P
    real_zero_test, asked = halfline.zero_test, []

    def unproved(expr):
        return real_zero_test(expr) if expr == half else None

    def not_exactly(expr, k):
        asked.append((expr, k))
        return False

    monkeypatch.setattr(halfline, "zero_test", unproved)
    monkeypatch.setattr(halfline, "scales_exactly", not_exactly)
    assert halfline.power_law(half) is None
    assert asked == [(half, 1)]


def test_sampled_tests_are_scale_free():
    # Tiny but certainly nonzero values refute; rounding residues of exact zeros do not.
    assert zero_test(P**7 / 10**40) is False
    assert zero_test(sp.exp(-1 / P) / 10**30) is False
    assert zero_test(10**30 * (sp.log(1 + sp.exp(P)) - sp.log(1 + sp.exp(-P)) - P)) is True
    assert zero_test(sp.Integer(1) / 10**50) is False
    assert scalar_facts(sp.sqrt(Z) / 10**30).problem is not None     # complex for z < 0
    from leanbridge.halfline import linear_coefficient, power_law
    c = (1 + sp.sqrt(2)) * 10**14
    assert linear_coefficient(c * P) == (c, True)
    assert linear_coefficient(sp.Integer(0)) == (0, True)       # proved: c = 0
    assert linear_coefficient(P**2 / 10**30) == (None, False)   # refuted by the samples
    assert power_law(sp.exp(P) / 10**30) is None


@settings(max_examples=20, deadline=None)
@given(exponent=st.integers(-60, 60), sign=st.sampled_from([1, -1]),
       expr=st.sampled_from([sp.Max(Z, 0)**3, Z**2 * sp.Abs(Z), Z * sigmoid(Z),
                             sp.Max(Z, Z / 5), Z * sp.tanh(Z), sp.cosh(Z) - 1]))
def test_any_power_of_ten_changes_no_argument(exponent, sign, expr):
    scale = sign * sp.Integer(10)**exponent
    assert (_scale_free(analyse(user(scale * expr)).argument_names)
            == _scale_free(analyse(user(expr)).argument_names))


# -- the large-scale limit (recession.md, issue 22) ------------------------------------------

@pytest.mark.parametrize("expr, profile, bounded", [
    ("tanh(z)", "zero", True), ("sigmoid(z)", "zero", True), ("atan(z)", "zero", True),
    ("erf(z)", "zero", True), ("sin(z)", "zero", True), ("sqrt(Abs(z))", "zero", False),
    ("log(1 + z**2)", "zero", False), ("z*sigmoid(1702*z/1000)", "relu", None),
    ("z*tanh(log(1 + exp(z)))", "relu", None), ("Max(z, z/100)", "other", None),
    ("Max(z, 0)**2", "none", False), ("z*sin(z)", "none", False),
])
def test_recession_profile(expr, profile, bounded):
    from leanbridge.recession import recession

    result = recession(sp.sympify(expr, locals={"z": Z, "sigmoid": sigmoid}))
    assert result.profile == profile, result.reason
    assert result.bounded is bounded


def test_recession_zero_is_never_with_r2_and_relu_profile_gives_necessity():
    atan = analyse(user(sp.atan(Z)))
    assert atan.verdict == NEVER and atan.argument_names == ["recession"]
    text = " ".join(atan.reasons)
    assert "SkipAbsorption.eq_zero_of_absorbable_of_tendsto_div_zero" in text
    assert "SkipAbsorption.eq_zero_of_absorbable_of_bounded" in text
    swish = analyse(user(Z * sigmoid(sp.Rational(1702, 1000) * Z)))
    assert swish.verdict == CONDITIONAL and swish.necessity == "proved"
    assert "SkipAbsorption.absorbable_iff_of_tendsto_div_relu" in " ".join(swish.reasons)


def test_relu_profile_without_the_odd_identity_reports_the_condition_as_necessary_only():
    """ELU and Mish: σ(tz)/t → relu z, so the S-condition is necessary (R3), but σ(z) − σ(−z)
    is not linear: the verdict stays what the other arguments give (undetermined)."""
    for expr in (sp.Piecewise((Z, Z > 0), (sp.exp(Z) - 1, True)),
                 Z * sp.tanh(sp.log(1 + sp.exp(Z)))):
        result = analyse(user(expr))
        assert result.verdict == UNDETERMINED and result.s_condition_necessary
        assert result.argument_names == ["recession_relu"]
        assert any("nevertheless necessary" in r for r in result.reasons)


def test_a_value_the_samples_cannot_compute_is_no_evidence_of_complex_values():
    """1/(z − 1) is infinite at the sample point z = 1: the samples refute nothing, so it is
    not declared complex-valued (real_on_samples: nothing to refute with)."""
    from leanbridge.halfline import P, real_on_samples, samples

    assert samples(1 / (P - 1)) is None and real_on_samples(1 / (P - 1))
    assert scalar_facts(1 / (Z - 1)).problem is None
    assert not real_on_samples(sp.sqrt(-P))


def test_the_recession_argument_says_what_sympy_found_about_boundedness():
    """R2's reason names what SymPy established about σ: bounded (tanh), sublinear and
    unbounded (log(1 + z²)), or boundedness undecided; an undecided or missing recession says
    so, with the reason."""
    from leanbridge import recession as recession_mod
    from leanbridge.analysis import _recession_argument

    def r2_fact(expr):
        analysed = analyse(user(expr))
        return next(r for r in analysed.reasons if r.startswith("σ(t)/t → 0 and σ(−t)/t → 0"))

    assert "(sympy.limit; σ is bounded)" in r2_fact(sp.tanh(Z))
    assert "(sympy.limit; σ is sublinear)" in r2_fact(sp.log(1 + Z**2))
    family = user(sp.tanh(Z))
    undecided_bound = recession_mod.Recession(sp.Integer(0), sp.Integer(0), None,
                                              recession_mod.ZERO, "both limits 0")
    argument, _ = _recession_argument(family, undecided_bound)
    assert "(sympy.limit; boundedness of σ unknown)" in argument.reasons[0]
    undecided = recession_mod.Recession(None, None, None, recession_mod.UNKNOWN,
                                        "sympy.limit did not finish within 2 s")
    assert _recession_argument(family, undecided) == (
        None, "recession: unknown (sympy.limit did not finish within 2 s)")
    assert _recession_argument(family, None) == (None, "recession: unknown (not computed)")


def test_a_limit_sympy_cannot_decide_is_unknown_with_the_reason(monkeypatch):
    """No guess: an unevaluated limit, or one that does not finish in its budget, is
    'recession: unknown' with the reason, and no recession argument is claimed."""
    from leanbridge import recession as recession_mod

    recession_mod.recession.cache_clear()
    monkeypatch.setattr(recession_mod.sp, "limit", lambda *a, **k: sp.Limit(Z, Z, sp.oo))
    result = recession_mod.recession(sp.tanh(Z) + Z / 7)
    assert result.profile == "unknown" and "unevaluated" in result.reason
    recession_mod.recession.cache_clear()

    def slow(*args, **kwargs):
        import time
        time.sleep(5)

    monkeypatch.setattr(recession_mod.sp, "limit", slow)
    result = recession_mod.recession(sp.tanh(Z) + Z / 11, seconds=0.2)
    assert result.profile == "unknown" and "did not finish within 0.2 s" in result.reason
    recession_mod.recession.cache_clear()
    monkeypatch.undo()
    analysed = analyse(user(sp.tanh(Z) + Z / 13))
    assert analysed.recession.profile == "other"


def test_numbers_refute_a_wrong_limit(monkeypatch):
    from leanbridge import recession as recession_mod

    recession_mod.recession.cache_clear()
    monkeypatch.setattr(recession_mod.sp, "limit", lambda *a, **k: sp.Integer(0))
    result = recession_mod.recession(Z * sigmoid(Z) + Z / 17)
    assert result.profile == "unknown" and "disagrees" in result.reason
    recession_mod.recession.cache_clear()


def test_nested_budgets_restore_the_outer_one_and_are_capped_by_it():
    """The recession limits run under their own budget inside `analyse --time-budget`: the
    inner one never outlives the outer one, and the outer one goes on afterwards."""
    import signal
    import time

    from leanbridge.budget import BudgetExceeded, time_budget

    with time_budget(5.0, what="outer"):
        with time_budget(0.5, what="inner"):
            pass
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 4.0 < left <= 5.0                     # re-armed with what is left
        with pytest.raises(BudgetExceeded, match="what was left of the time budget"):
            with time_budget(60.0, what="inner"):    # capped by the outer 5 s
                signal.setitimer(signal.ITIMER_REAL, 0.05)   # (simulate: little left)
                time.sleep(1.0)
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0.0


def test_sampled_heaviside_takes_sympys_values_left_at_and_right_of_its_jump():
    """The numeric evaluator's Heaviside (mpmath has none) agrees with SymPy's exact one,
    H(0) = 1/2 included, at every sample point: H(p − 1) jumps at the sample p = 1."""
    from leanbridge.halfline import P, SAMPLES, samples

    values = samples(sp.Heaviside(P - 1))
    exact = [sp.Heaviside(point - 1) for point in SAMPLES]
    assert exact == [0, 0, 0, 0, sp.Rational(1, 2), 1, 1]
    assert [float(v.low) for v in values] == [float(e) for e in exact]
    assert [float(v.high) for v in values] == [float(e) for e in exact]


@pytest.mark.parametrize("expr", [sp.nan, sp.zoo, sp.sin(1 / P)],
                         ids=["nan", "zoo", "oscillating"])
def test_a_limit_at_0_that_is_not_a_number_is_no_limit(expr):
    """sympy.limit answers nan, zoo (complex infinity) or AccumBounds where no limit exists;
    the half-line jet must read each as "no value at 0", not as a value."""
    from leanbridge.halfline import _limit, jet_at_0

    assert _limit(expr) is None
    assert jet_at_0(expr) == (None, None)


def test_a_limit_at_0_that_exists_is_found():
    """sympy.limit from the right, where the jet has no rule: sin(p)/p → 1, (1 − cos p)/p² → 1/2."""
    from leanbridge.halfline import P, _limit

    assert _limit(sp.sin(P) / P) == 1
    assert _limit((1 - sp.cos(P)) / P**2) == sp.Rational(1, 2)



@pytest.mark.parametrize("expr", [
    (3 + P) ** 2, (2 + P) ** -1, (2 + P) ** P, (2 + P) ** (1 + P), (2 + 3 * P) ** (1 + P),
    sp.Pow(1 + P, 0, evaluate=False), P**2 * (1 + P) ** 3, sp.exp(P) ** 2,
    (1 + sp.sin(P)) ** -2, sp.sqrt(1 + P), (4 + P) ** sp.Rational(3, 2),
    sp.Abs(P - 1), sp.Abs(sp.sin(P)), sp.log(2 + P) ** 3], ids=str)
def test_the_exact_jet_at_0_agrees_with_sympys_limits(expr):
    """The jet (value and right slope at 0, by exact forward differentiation) against SymPy's
    own limits: value = lim f, slope = lim (f − value)/p as p → 0+."""
    from leanbridge.halfline import _jet

    value = sp.limit(expr, P, 0, "+")
    slope = sp.limit((expr - value) / P, P, 0, "+")
    jet = _jet(expr)
    assert sp.simplify(jet.value - value) == 0 and sp.simplify(jet.slope - slope) == 0


def test_a_log_of_a_vanishing_argument_has_no_jet():
    from leanbridge.halfline import _jet, _NoJet

    with pytest.raises(_NoJet):
        _jet(sp.log(P))
    with pytest.raises(_NoJet):
        _jet(sp.log(sp.sin(P)))


def test_a_sympy_error_while_simplifying_is_no_proof_of_zero(monkeypatch):
    """SymPy failing inside a zero test (here: simplify raising) answers "not proved", never
    "zero"."""
    from leanbridge import halfline

    def fails(expr, *args, **kwargs):
        raise NotImplementedError("simplify gave up")

    monkeypatch.setattr(halfline.sp, "simplify", fails)
    assert halfline._simplifies_to_zero(sp.sin(P) ** 2 + sp.cos(P) ** 2 - 1 + P - P + P**3) \
        is False


def test_a_power_of_a_base_vanishing_at_0_is_left_to_the_limits():
    """√p has no jet at 0 (the base is 0): the limits give the value 0 and the slope +∞."""
    from leanbridge.halfline import _jet, _NoJet, jet_at_0

    with pytest.raises(_NoJet):
        _jet(sp.sqrt(P))
    assert jet_at_0(sp.sqrt(P)) == (0, sp.oo)


@pytest.mark.parametrize("expr, value, slope", [
    (sp.Max(sp.sin(P), P**2), 0, 1),           # tie at 0: the larger slope
    (sp.Min(1 + P, 1 + sp.sin(2 * P)), 1, 1),  # tie: the smaller slope
    (sp.Max(1 + P, 1 + sp.sin(2 * P)), 1, 2),
    (sp.Max(sp.cos(P), 2 - sp.exp(P)), 1, 0),
    (sp.Min(sp.cos(P), 2 - sp.exp(P)), 1, -1),
    (sp.Max(P, 1 + P**3), 1, 0),               # no tie: the larger value decides
    (sp.Abs(sp.sin(P) - 1), 1, -1),
    (sp.Abs(2 * P - 3), 3, -2),                # negative inside: value and slope change sign
    (sp.log(sp.Rational(1, 2) + P), -sp.log(2), 2),   # log of a value in (0, 1]
], ids=str)
def test_the_exact_jet_of_max_min_and_abs(expr, value, slope):
    """Where SymPy's limit cannot go (Max/Min of non-comparable arguments): values by hand."""
    from leanbridge.halfline import _jet

    jet = _jet(expr)
    assert sp.simplify(jet.value - value) == 0 and sp.simplify(jet.slope - slope) == 0


def test_symbolic_zero_tests_prove_identities_and_refuse_non_identities():
    """Three levels: expand, simplify, and simplify after rewriting tanh/sigmoid/… in exp —
    the last one is what proves tanh(p) = (e^{2p} − 1)/(e^{2p} + 1); a non-identity is never
    called zero, with or without Max."""
    from leanbridge.functions import sigmoid
    from leanbridge.halfline import P, _simplifies_to_zero

    assert _simplifies_to_zero(sp.sinh(P) + sp.exp(-P) / 2 - sp.exp(P) / 2)      # simplify
    rewrite_only = [sp.tanh(P) - (sp.exp(2 * P) - 1) / (sp.exp(2 * P) + 1),
                    sigmoid(P) - (1 + sp.tanh(P / 2)) / 2,
                    sp.tanh(2 * P) - 2 * sp.tanh(P) / (1 + sp.tanh(P) ** 2)]
    for expr in rewrite_only:
        assert sp.simplify(expr) != 0 and _simplifies_to_zero(expr)
    for expr in [sp.tanh(P) - P, sigmoid(P) - sp.Rational(1, 2), sp.sinh(P) - P,
                 sp.Max(P, sp.tanh(P)) - sp.tanh(P), sp.Integer(1)]:
        assert not _simplifies_to_zero(expr)


@pytest.mark.parametrize("a, b, sign", [
    (sp.Integer(1), sp.Integer(1), 0), (sp.Integer(1), sp.Integer(2), -1),
    (sp.Integer(2), sp.Integer(1), 1), (sp.pi, sp.Integer(3), 1), (sp.E, sp.Integer(3), -1),
    (sp.Rational(1, 3), sp.Rational(1, 2), -1),
    (sp.log(6), sp.log(2) + sp.log(3), 0),            # equal, not syntactically
], ids=str)
def test_compare_gives_the_sign_of_a_difference_of_exact_numbers(a, b, sign):
    from leanbridge.halfline import _compare

    assert _compare(a, b) == sign
    assert _compare(b, a) == -sign


def test_sampled_numbers_are_constant_only_if_all_agree_with_the_first():
    from leanbridge.halfline import _constant, _number_sample

    one, two = _number_sample(sp.Integer(1)), _number_sample(sp.Integer(2))
    assert _constant([one, one, one]) and _constant([one])
    assert not _constant([one, two]) and not _constant([one, two, two])
    assert not _constant([one, one, two])


def test_a_users_relu_written_otherwise_is_recognised_and_a_half_match_is_not():
    """(z + |z|)/2 is ReLU on both half-lines: the paper's necessity covers it. max(z, z/50)
    is ReLU for z > 0 only, and a gate equal to ReLU is a different block (ReGLU): neither is
    ReLU's twin."""
    assert analyse(user((Z + sp.Abs(Z)) / 2)).same_as == "relu"
    assert analyse(user(sp.Max(Z, Z / 50))).same_as is None
    assert analyse(user(sp.Max(Z, 0), gated=True)).same_as is None


def test_a_users_family_named_like_a_catalog_one_gets_the_general_theorems():
    """Lean theorems proved for the catalog's GELU or tanh are not quoted for a user's
    function that merely has that name: SiLU called "gelu" gets the general characterisation
    with its premise, atan called "tanh" the general bounded-σ theorems."""
    silu = analyse(user(Z * sigmoid(Z), name="gelu"))
    general = ("in Lean (not compiled: no Lean toolchain here): for nondegenerate weights the "
               "condition is necessary and sufficient, any d "
               "(SkipAbsorption.absorbable_iff_of_tendsto_div_relu), with the premise "
               "σ(t·z)/t → relu(z) verified by SymPy (a named hypothesis in the generated Lean "
               "file)")
    assert general in silu.reasons
    assert not any("absorbable_gelu_iff" in r for r in silu.reasons)
    from leanbridge.analysis import never_theorems

    atan = analyse(user(sp.atan(Z), name="tanh"))
    assert never_theorems(atan) == ["SkipAbsorption.eq_zero_of_absorbable_of_tendsto_div_zero",
                                    "SkipAbsorption.eq_zero_of_absorbable_of_bounded",
                                    "SkipAbsorption.eq_zero_of_biasedAbsorbable_of_bounded"]
    assert "SkipAbsorption.not_absorbable_tanh" in never_theorems(analyse(get_family("tanh")))


def test_the_s_condition_and_exponents_as_text():
    """−(1/c)·I_d bracketed unless 1/c is an atom (a number or a constant); exponents
    bracketed unless integers; "unknown" where SymPy found none."""
    from leanbridge.analysis import minus_inverse_identity, power_text

    assert minus_inverse_identity(sp.Integer(1)) == "−I_d"
    assert minus_inverse_identity(sp.Rational(1, 2)) == "−2·I_d"
    assert minus_inverse_identity(sp.Rational(4, 3)) == "−3/4·I_d"
    assert minus_inverse_identity(sp.pi) == "−(1/pi)·I_d"
    assert minus_inverse_identity(1 / sp.pi) == "−pi·I_d"
    assert power_text(sp.Integer(2)) == "2"
    assert power_text(sp.Rational(3, 2)) == "(3/2)"
    assert power_text(None) == "unknown"


def test_the_kink_argument_makes_the_s_condition_necessary():
    """σ(z) − σ(−z) = c·z and σ(z) + σ(−z) = k·|z| with c, k ≠ 0 (σ = a·z + b·|z|, b ≠ 0):
    paper Thm 8's proof carries over (recession.md §6). Leaky ReLU cites its own Lean
    characterisation; a user's σ the general one; a linear σ (k = 0), a σ with σ(0) ≠ 0 and
    one whose even part is not k·|z| get no necessity."""
    from leanbridge.analysis import s_condition_theorems

    leaky = analyse(get_family("leaky_relu"))
    assert leaky.kink == sp.Rational(99, 100) and leaky.necessity == "proved"
    assert s_condition_theorems(leaky) == {
        "sufficiency": "SkipAbsorption.absorbable_of_sCondition",
        "nondegenerate": "SkipAbsorption.Nondegenerate",
        "necessity": "SkipAbsorption.exists_sCondition_of_absorbable_of_parts",
        "characterisation": "SkipAbsorption.absorbable_leakyRelu_iff"}
    mine = analyse(user_family("3*z + Abs(z)", "kinky"))
    assert (mine.verdict, mine.kink, mine.facts.odd_coefficient) == (CONDITIONAL, 2, 6)
    assert s_condition_theorems(mine)["characterisation"] == "SkipAbsorption.absorbable_iff_of_parts"
    assert "σ(z) + σ(−z) = 2·|z| for all z" in " ".join(mine.reasons)
    assert leaky.s_condition_necessary and mine.s_condition_necessary
    # σ(0) = 1 but z + |z| elsewhere: both identities hold for p > 0, not at z = 0
    spiked = "Piecewise((1, Eq(z, 0)), (z + Abs(z), True))"
    assert analyse(user_family(spiked, "spiked")).facts.odd_coefficient == 2
    for text in ("2*z", "z + z**2", spiked):
        other = analyse(user_family(text, "other"))
        assert other.kink is None and not other.necessity_proven, text
    # ReLU keeps the paper's Thm 8, GELU the large-scale limit
    assert analyse(get_family("relu")).kink is None and analyse(get_family("gelu")).kink is None


def test_a_users_tanh_or_sigmoid_cites_the_librarys_own_theorem():
    """A user's σ with the catalog tanh's (or sigmoid's) formula is that function: the analysis
    cites `not_absorbable_tanh` (`_sigmoid`) as for the catalog family; any other bounded σ
    (tanh(2z), a gated tanh) cites only the general R2 theorems."""
    from leanbridge.analysis import never_theorems

    assert never_theorems(analyse(user(sp.tanh(Z))))[:2] == [
        "SkipAbsorption.not_absorbable_tanh", "SkipAbsorption.not_biasedAbsorbable_tanh"]
    assert never_theorems(analyse(user(sigmoid(Z))))[0] == "SkipAbsorption.not_absorbable_sigmoid"
    for other in (user(sp.tanh(2 * Z)), user(sp.tanh(Z), gated=True)):
        assert not any("tanh" in name or "sigmoid" in name
                       for name in never_theorems(analyse(other)))
