"""`analyse --json` (``Analysis.to_dict``) field by field, against values worked out by hand:
ReLU (degree 1, slopes 1 and 0, relu(z) − relu(−z) = z, recession (p, q) = (1, 0)); ReLU² (degree
2, flat at 0, no linear odd part, p = ∞); GELU (slopes 1/2, c = 1, recession to ReLU); tanh
(slopes 1, bounded: p = q = 0); SwiGLU's gate SiLU (g(0) = 0, g′(0) = 1/2, no gate parity since
silu(z) + silu(−z) = z·tanh(z/2) is not constant); ReGLU's gate ReLU (degree 1, so the
block has degree 2, slopes 1 and 0); GLU's gate sigmoid (g(0) = 1/2, g′(0) = 1/4,
g(z) + g(−z) = 1). The texts (reasons, Lean names) are compared with the analysis they
come from."""

import json

import pytest

from leanbridge.analysis import analyse, never_theorems, s_condition_theorems
from leanbridge.families import CATALOG, get_family

EXPECTED = json.loads("""{
    "relu": {"name": "relu", "display": "ReLU", "gated": false, "verdict": "conditional", "arguments": ["odd_linear_parity", "recession_relu"], "homogeneity_degree": 1, "odd_coefficient": 1, "value_at_0": 0, "slope_at_0": {"right": 1, "left": 0}, "flat_at_0": false, "even": false, "necessity_proven": true, "same_as": null, "exact": {"homogeneity_degree": "1", "odd_coefficient": "1", "value_at_0": "0", "slope_right": "1", "slope_left": "0"}, "necessity": "proved", "kink": null, "s_condition_necessary": true, "recession": {"profile": "relu", "p": "1", "q": "0", "bounded": null}},
    "relu2": {"name": "relu2", "display": "ReLU²", "gated": false, "verdict": "never", "arguments": ["degree", "linearisation"], "homogeneity_degree": 2, "odd_coefficient": null, "value_at_0": 0, "slope_at_0": {"right": 0, "left": 0}, "flat_at_0": true, "even": false, "necessity_proven": null, "same_as": null, "exact": {"homogeneity_degree": "2", "odd_coefficient": null, "value_at_0": "0", "slope_right": "0", "slope_left": "0"}, "necessity": null, "kink": null, "s_condition_necessary": false, "recession": {"profile": "none", "p": "oo", "q": "0", "bounded": false}},
    "gelu": {"name": "gelu", "display": "GELU", "gated": false, "verdict": "conditional", "arguments": ["odd_linear_parity", "recession_relu"], "homogeneity_degree": null, "odd_coefficient": 1, "value_at_0": 0, "slope_at_0": {"right": 0.5, "left": 0.5}, "flat_at_0": false, "even": false, "necessity_proven": true, "same_as": null, "exact": {"homogeneity_degree": null, "odd_coefficient": "1", "value_at_0": "0", "slope_right": "1/2", "slope_left": "1/2"}, "necessity": "proved", "kink": null, "s_condition_necessary": true, "recession": {"profile": "relu", "p": "1", "q": "0", "bounded": null}},
    "tanh": {"name": "tanh", "display": "tanh", "gated": false, "verdict": "never", "arguments": ["recession"], "homogeneity_degree": null, "odd_coefficient": null, "value_at_0": 0, "slope_at_0": {"right": 1, "left": 1}, "flat_at_0": false, "even": false, "necessity_proven": null, "same_as": null, "exact": {"homogeneity_degree": null, "odd_coefficient": null, "value_at_0": "0", "slope_right": "1", "slope_left": "1"}, "necessity": null, "kink": null, "s_condition_necessary": false, "recession": {"profile": "zero", "p": "0", "q": "0", "bounded": true}},
    "reglu": {"name": "reglu", "display": "ReGLU", "gated": true, "verdict": "never", "arguments": ["degree", "linearisation"], "homogeneity_degree": 2, "odd_coefficient": null, "value_at_0": 0, "slope_at_0": {"right": 1, "left": 0}, "flat_at_0": false, "even": null, "necessity_proven": null, "same_as": null, "exact": {"homogeneity_degree": "2", "odd_coefficient": null, "value_at_0": "0", "slope_right": "1", "slope_left": "0"}, "necessity": null, "s_condition_necessary": false, "gate_parity": null, "gate": {"value_at_0": 0, "continuous_at_0": true, "homogeneity_degree": 1, "block_degree": 2}, "recession": null},
    "swiglu": {"name": "swiglu", "display": "SwiGLU", "gated": true, "verdict": "never", "arguments": ["linearisation"], "homogeneity_degree": null, "odd_coefficient": null, "value_at_0": 0, "slope_at_0": {"right": 0.5, "left": 0.5}, "flat_at_0": false, "even": null, "necessity_proven": null, "same_as": null, "exact": {"homogeneity_degree": null, "odd_coefficient": null, "value_at_0": "0", "slope_right": "1/2", "slope_left": "1/2"}, "necessity": null, "s_condition_necessary": false, "gate_parity": null, "gate": {"value_at_0": 0, "continuous_at_0": true, "homogeneity_degree": null, "block_degree": null}, "recession": null},
    "glu": {"name": "glu", "display": "GLU", "gated": true, "verdict": "conditional", "arguments": ["gate_parity"], "homogeneity_degree": null, "odd_coefficient": null, "value_at_0": 0.5, "slope_at_0": {"right": 0.25, "left": 0.25}, "flat_at_0": false, "even": null, "necessity_proven": false, "same_as": null, "exact": {"homogeneity_degree": null, "odd_coefficient": null, "value_at_0": "1/2", "slope_right": "1/4", "slope_left": "1/4"}, "necessity": "open", "s_condition_necessary": false, "gate_parity": "1", "gate": {"value_at_0": 0.5, "continuous_at_0": true, "homogeneity_degree": null, "block_degree": null}, "recession": null}
}""")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_json_fields_hold_the_hand_computed_values(name):
    data = analyse(get_family(name)).to_dict()
    recession = data.get("recession")
    got = {key: value for key, value in data.items()
           if key not in ("reasons", "argument_reasons", "s_condition_lean", "never_lean",
                          "source", "expression")}
    got["recession"] = recession and {k: v for k, v in recession.items() if k != "reason"}
    assert got == EXPECTED[name]


@pytest.mark.parametrize("family", CATALOG, ids=lambda f: f.name)
def test_json_texts_are_the_analysis_own(family):
    analysis = analyse(family)
    data = analysis.to_dict()
    assert data["expression"] == str(family.expr) and data["source"] == family.source
    assert data["reasons"] == list(analysis.reasons) and data["reasons"]
    assert list(data["argument_reasons"]) == data["arguments"] == analysis.argument_names
    assert all(data["argument_reasons"][a.name] == list(a.reasons) and a.reasons
               for a in analysis.arguments)
    assert data["s_condition_lean"] == s_condition_theorems(analysis)
    assert data["never_lean"] == never_theorems(analysis)
    assert ("recession" in data) == (analysis.recession is not None)
    if analysis.recession is not None:
        assert data["recession"]["reason"] == analysis.recession.reason
    assert ("gate" in data) == ("gate_parity" in data) == family.gated
    assert ("kink" in data) == (not family.gated)
    if not family.gated:
        assert data["kink"] == (None if analysis.kink is None else str(analysis.kink))
    json.dumps(data)                                   # JSON-ready as it stands
