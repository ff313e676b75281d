"""The SymPy→Lean printer: golden outputs, precedence traps, and refusals."""

import pytest
import sympy as sp

from leanbridge.families import CATALOG, Z, get_family
from leanbridge.functions import sigmoid
from leanbridge.lean.printer import LeanPrinter, LeanPrintError, lean_code

z = Z

GOLDEN = [
    # atoms and rationals
    (z, "z"),
    (sp.Integer(3), "3"),
    (sp.Rational(1, 100), "(1 / 100 : ℝ)"),
    (sp.Rational(-3, 4), "(-3 / 4 : ℝ)"),
    (sp.pi, "Real.pi"),
    (sp.E, "Real.exp 1"),
    # negation traps: Lean's prefix `-` (75) binds tighter than `*` and looser than `^`
    (-z, "-z"),
    (-z**2, "-z ^ 2"),
    (sp.Pow(-z, 2, evaluate=False), "(-z) ^ 2"),
    ((-z) ** 3, "-z ^ 3"),
    (-2 * z, "-2 * z"),
    (-sp.Max(z, 0), "-max z 0"),
    (-(z + 1) * sp.exp(z), "(-z - 1) * Real.exp z"),  # SymPy distributes the sign
    (sp.Mul(-1, z + 1, evaluate=False), "-(z + 1)"),
    (1 - z, "1 - z"),
    (z - (z + 1) ** 2, "z - (z + 1) ^ 2"),
    # powers: natural exponents, powers of powers, powers of applications
    (z**2, "z ^ 2"),
    (sp.Pow(z**2, 3, evaluate=False), "(z ^ 2) ^ 3"),
    (sp.Max(z, 0) ** 2, "(max z 0) ^ 2"),
    (sp.exp(z) ** 2 * 0 + sp.Pow(sp.tanh(z), 2), "(Real.tanh z) ^ 2"),
    ((z + 1) ** 2, "(z + 1) ^ 2"),
    (z**-1, "1 / z"),
    (z**-2, "1 / z ^ 2"),
    (sp.sqrt(2), "Real.sqrt 2"),
    (sp.sqrt(z**2 + 1), "Real.sqrt (z ^ 2 + 1)"),
    (sp.Max(z, 0) ** sp.Rational(3, 2), "(max z 0) ^ (3 / 2 : ℝ)"),
    (2**z, "2 ^ z"),
    # products and quotients
    (z / 2, "z / 2"),
    (3 * z / 4, "3 * z / 4"),
    (z / (1 + sp.exp(-z)), "z / (1 + Real.exp (-z))"),
    (z / (2 * sp.pi), "z / (2 * Real.pi)"),
    ((z - 1) * (z + 1), "(z - 1) * (z + 1)"),
    # nested functions: application by juxtaposition, arguments bracketed
    (sp.exp(sp.exp(z)), "Real.exp (Real.exp z)"),
    (sp.exp(-z), "Real.exp (-z)"),
    (sp.tanh(2 * z), "Real.tanh (2 * z)"),
    (sp.log(1 + sp.exp(z)), "Real.log (Real.exp z + 1)"),
    (sigmoid(z), "Real.sigmoid z"),
    (sigmoid(sp.tanh(z)), "Real.sigmoid (Real.tanh z)"),
    (sp.Max(z, 0), "max z 0"),
    (sp.Max(z, z / 100), "max z (z / 100)"),
    (sp.Max(z, z**2, 1), "max z (max (z ^ 2) 1)"),
    (sp.Min(z, 1), "min z 1"),
    (sp.Max(sp.exp(z), 1), "max (Real.exp z) 1"),
    (sp.Abs(z), "|z|"),
    (sp.Abs(1 - z), "|z - 1|"),  # SymPy normalises Abs(1 - z)
    (sp.Abs(-z - 1), "|z + 1|"),
    (sp.exp(sp.Abs(z)), "Real.exp (|z|)"),
    (2 * sp.Max(z, 0), "2 * max z 0"),
    # conditionals
    (sp.Piecewise((z, z > 0), (z / 100, True)), "if z > 0 then z else z / 100"),
    (sp.Piecewise((z, z >= 1), (0, z <= -1), (z**2, True)),
     "if z ≥ 1 then z else if z ≤ -1 then 0 else z ^ 2"),
    (z * sp.Piecewise((1, z > 0), (0, True)), "z * (if z > 0 then 1 else 0)"),
    (sp.Piecewise((1, sp.And(z > 0, z < 1)), (0, True)), "if z > 0 ∧ z < 1 then 1 else 0"),
]


@pytest.mark.parametrize("expr, expected", GOLDEN, ids=[g[1] for g in GOLDEN])
def test_golden(expr, expected):
    assert lean_code(expr) == expected


CATALOG_GOLDEN = {
    "relu": "max z 0",
    "relu2": "(max z 0) ^ 2",
    "relu3": "(max z 0) ^ 3",
    "silu": "z * Real.sigmoid z",
    "leaky_relu": "max z (z / 100)",
    "tanh": "Real.tanh z",
    "sigmoid": "Real.sigmoid z",
    "softplus": "Real.log (Real.exp z + 1)",
    "abs": "|z|",
    "reglu": "max z 0",
    "swiglu": "z * Real.sigmoid z",
    "glu": "Real.sigmoid z",
    "bilinear": "z",
    "gelu_tanh": "z * (Real.tanh (Real.sqrt 2 * (8943 * z ^ 3 / 200000 + z) / Real.sqrt Real.pi)"
                 " + 1) / 2",
}


@pytest.mark.parametrize("name", sorted(CATALOG_GOLDEN))
def test_catalog_golden(name):
    assert lean_code(get_family(name).expr) == CATALOG_GOLDEN[name]


@pytest.mark.parametrize("expr, node", [
    (sp.erf(z), "erf"),
    (get_family("gelu").expr, "erf"),
    (sp.Float("0.5") * z, "Float"),
    (sp.Heaviside(z), "Heaviside"),
    (sp.Function("f")(z), "f"),
    (z ** sp.Rational(3, 2), "Pow"),          # rpow with a possibly negative base
    (sp.log(z), "log"),                       # Real.log z ≠ SymPy's log z for z < 0
    (sp.sqrt(z), "Pow"),                      # Real.sqrt z = 0 for z < 0
    (sp.Piecewise((z, z > 0)), "Piecewise"),  # no `else`
    (sp.I * z, "ImaginaryUnit"),
])
def test_unsupported_nodes_raise_naming_the_node(expr, node):
    with pytest.raises(LeanPrintError) as info:
        lean_code(expr)
    assert node in str(info.value)
    assert "sorry" not in str(info.value)


@pytest.mark.parametrize("family", CATALOG, ids=lambda f: f.name)
def test_printer_never_prints_sorry_and_never_simplifies(family, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the printer must not simplify the user's expression")

    monkeypatch.setattr(sp, "simplify", forbidden)
    monkeypatch.setattr(sp.Basic, "simplify", forbidden)
    try:
        text = lean_code(family.expr)
    except LeanPrintError:
        return
    assert "sorry" not in text


def test_printer_is_a_sympy_printer_with_one_method_per_node():
    printer = LeanPrinter()
    for node in ("Add", "Mul", "Pow", "Max", "Min", "Abs", "Piecewise", "Rational", "exp",
                 "log", "tanh", "sigmoid"):
        assert hasattr(printer, f"_print_{node}")
    assert printer.doprint(z + 1) == "z + 1"
