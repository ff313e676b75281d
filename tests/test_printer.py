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


# -- coefficients: the left factor of `c * z` (issue 9, G1) -----------------------------------

from leanbridge.lean.printer import lean_factor  # noqa: E402
from leanbridge.lean.reader import means, read_lean  # noqa: E402

COEFFICIENTS = [
    sp.Integer(3), sp.Integer(-2), sp.Rational(1, 2), sp.Rational(-3, 4), sp.Rational(101, 100),
    sp.sqrt(2), -sp.sqrt(2), 1 + sp.sqrt(2), -1 - sp.sqrt(2), sp.sqrt(3) + sp.sqrt(2),
    sp.sqrt(2) / 2, 2 * sp.sqrt(2), sp.pi, 2 * sp.pi, 1 / sp.pi, sp.pi**2, 1 + sp.pi / 2,
    sp.E, sp.exp(2), sp.log(2), (1 + sp.sqrt(2)) / (3 + sp.pi), 2 ** sp.Rational(1, 3),
    1 - 2 * sp.sqrt(2), -sp.pi / 3,
]


@pytest.mark.parametrize("c", COEFFICIENTS, ids=sp.sstr)
def test_a_coefficient_is_one_factor_of_c_times_z(c):
    """`{factor} * z` must mean c·z: `1 + Real.sqrt 2 * z` (the old rendering) means 1 + √2·z."""
    text = f"{lean_factor(c)} * z"
    assert means(text, c * z), text
    assert read_lean(text) != 0


def test_the_unbracketed_rendering_of_issue_9_reads_as_a_different_term():
    """The reader follows Lean's precedences: it tells the false statement from the true one."""
    assert not means("1 + Real.sqrt 2 * z", (1 + sp.sqrt(2)) * z)
    assert means("(1 + Real.sqrt 2) * z", (1 + sp.sqrt(2)) * z)


@pytest.mark.parametrize("c", COEFFICIENTS, ids=sp.sstr)
@pytest.mark.parametrize("shape", [sp.Max(z, 0), z + sp.Abs(z), sp.Max(z, 0)**2 - z,
                                   z * sp.tanh(2 * z)], ids=sp.sstr)
def test_coefficient_times_activation_prints_what_it_means(c, shape):
    for expr in (c * shape, shape / (c if c != 0 else 1), shape + c * z, c * (shape + c)):
        text = lean_code(expr)
        assert means(text, expr), (expr, text)


@pytest.mark.parametrize("expr", [e for e, _ in GOLDEN], ids=[g for _, g in GOLDEN])
def test_every_golden_term_reads_back_as_its_expression(expr):
    assert means(lean_code(expr), expr)


@pytest.mark.parametrize("variable, value", [("(-z)", -z), ("(t * z)", sp.Symbol("t", positive=True) * z),
                                             ("(0 : ℝ)", sp.Integer(0))])
def test_the_variable_text_prints_the_instance(variable, value):
    expr = sp.Max(z, 0)**3 + 2 * z * sp.tanh(2 * z) - z + sp.Abs(z - 1) / 3
    text = lean_code(expr, variable)
    from leanbridge.lean.reader import Z, T
    expected = expr.xreplace({z: value}).xreplace({sp.Symbol("t", positive=True): T})
    assert sp.simplify(read_lean(text) - expected.xreplace({z: Z})) == 0


def test_the_variable_text_must_be_atomic():
    with pytest.raises(ValueError):
        lean_code(z, "-z")
