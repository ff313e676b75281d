"""Reading a user's activation text."""

import pytest
import sympy as sp

from leanbridge.expression import ExpressionError, parse_activation
from leanbridge.families import Z
from leanbridge.functions import sigmoid


@pytest.mark.parametrize("text, expected", [
    ("Max(z,0)**3", sp.Max(Z, 0) ** 3),
    ("max(z, 0)^2", sp.Max(Z, 0) ** 2),
    ("max(z, 0.01*z)", sp.Max(Z, Z / 100)),
    ("z*sigmoid(z)", Z * sigmoid(Z)),
    ("log(1 + exp(z))", sp.log(1 + sp.exp(Z))),
    ("z*(1 + erf(z/sqrt(2)))/2", Z * (1 + sp.erf(Z / sp.sqrt(2))) / 2),
    ("Piecewise((z, z > 0), (z/100, True))", sp.Piecewise((Z, Z > 0), (Z / 100, True))),
    ("abs(z)", sp.Abs(Z)),
    ("  tanh(z)  ", sp.tanh(Z)),
])
def test_parses_to_exact_expression(text, expected):
    result = parse_activation(text)
    assert result == expected
    assert not result.atoms(sp.Float)


def test_variable_is_the_catalog_z():
    assert parse_activation("z").free_symbols == {Z}


@pytest.mark.parametrize("text, message", [
    ("", "empty expression"),
    ("   ", "empty expression"),
    ("z +", "syntax error"),
    ("max(z,", "syntax error"),
    ("x + z", "free symbol(s) x"),
    ("y", "free symbol(s) y"),
    ("foo(z)", "unknown function(s) foo"),
    ("1/0", "not a finite real expression"),
    ("z > 0", "not a real-valued expression"),
    ("__import__('os').system('true')", "'__' is not allowed"),
    ("lambda: 1", "'lambda' is not allowed"),
    ("z; z", "';' is not allowed"),
])
def test_bad_input_is_a_one_line_expression_error(text, message):
    with pytest.raises(ExpressionError) as info:
        parse_activation(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


# -- limits ------------------------------------------------------------------------------------

from leanbridge.expression import (  # noqa: E402
    MAX_CHARS,
    MAX_DEPTH,
    MAX_NESTING,
    MAX_NODES,
    excerpt,
    tree_size,
)


@pytest.mark.parametrize("text, message", [
    ("z+" * (MAX_CHARS // 2) + "z", "expression too long"),
    ("(" * (MAX_NESTING + 1) + "z" + ")" * (MAX_NESTING + 1), "nested too deeply"),
    ("exp(" * MAX_DEPTH + "z" + ")" * MAX_DEPTH, "expression too large"),
    ("+".join(f"z**{i}" for i in range(1, MAX_NODES // 2)), "expression too large"),
])
def test_limits_give_one_short_line(text, message):
    with pytest.raises(ExpressionError) as info:
        parse_activation(text)
    assert message in str(info.value) and "\n" not in str(info.value)
    assert len(str(info.value)) < 250


def test_catalog_is_well_within_the_limits():
    from leanbridge.families import CATALOG
    for family in CATALOG:
        nodes, depth = tree_size(family.expr)
        assert nodes <= MAX_NODES // 10 and depth <= MAX_DEPTH // 2


def test_just_within_the_limits_parses():
    assert parse_activation("exp(" * (MAX_DEPTH - 2) + "z" + ")" * (MAX_DEPTH - 2)).has(sp.exp)


def test_excerpt_cuts_long_text():
    assert excerpt("z") == "'z'"
    long = "z+" * 500
    assert excerpt(long).endswith("(1000 characters)") and len(excerpt(long)) < 90


# -- numbers are bounded before they are computed (issue 24 §3) --------------------------------

from leanbridge.expression import MAX_DIGITS  # noqa: E402


@pytest.mark.parametrize("text", [
    "10**10**10*z", "10**(10**10)*z", "2**2**2**2**2*z", "1e5000*z", "1e-5000*z",
    "sqrt(2)**(10**6)*z", "pi**(10**10)*z", "Rational(10**10**10)*z",
    "Rational('1e10000000000')*z", "Integer(7)**Integer(10)**10*z", "(10**999)*(10**999)*z",
    "z**(10**" + "9" * 1001 + ")", "1" + "0" * MAX_DIGITS + "*z",
])
def test_huge_numbers_are_refused_before_they_are_computed(text):
    # Before: parsed with evaluation, 10**10**10 was computed (for ever, uninterruptibly) and
    # 1e5000 ended in Python's "use sys.set_int_max_str_digits()" advice.
    with pytest.raises(ExpressionError) as info:
        parse_activation(text)
    message = str(info.value)
    assert "number too large" in message and "\n" not in message and len(message) < 250
    assert "set_int_max_str_digits" not in message and "cannot parse" not in message


@pytest.mark.parametrize("text, expected", [
    ("10**999*z", sp.Integer(10)**999 * Z),
    ("10**-999*z", Z / sp.Integer(10)**999),
    ("Rational(2**10, 3)*z", sp.Rational(1024, 3) * Z),
    ("Integer(2**10)*z", 1024 * Z),
    ("sqrt(2)**(10**2)*z", 2**50 * Z),
    ("1**(10**100)*z + (-1)**(10**100)*z", 2 * Z),
    ("z**(10**10)", Z**(10**10)),
    ("Piecewise((z, z >= 0), (z/20, True))", sp.Piecewise((Z, Z >= 0), (Z / 20, True))),
    ("Piecewise((z, (z > 0) & (z < 1)), (0, True))",
     sp.Piecewise((Z, (Z > 0) & (Z < 1)), (0, True))),
    ("Max(z, 2**3) - 2*z/3 + 0.5", sp.Max(Z, 8) - 2 * Z / 3 + sp.Rational(1, 2)),
])
def test_numbers_within_the_limit_are_evaluated_exactly(text, expected):
    assert parse_activation(text) == expected


@pytest.mark.parametrize("text", ["(10**999 + z)**5", "(10**999*sqrt(2) + z)**10",
                                  "(z + 10)**1000", "(z + 1)**(10**10)",
                                  "(10**999 + z)*(10**999 + z)"])
def test_powers_whose_expansion_has_huge_coefficients_are_refused(text):
    # Before: accepted, then the analysis expanded (10**999 + z)**5 and printing its
    # coefficient 10**4995 ended in a traceback with Python's set_int_max_str_digits advice.
    with pytest.raises(ExpressionError) as info:
        parse_activation(text)
    assert "number too large" in str(info.value) and "expanded" in str(info.value)


def test_expansion_estimate_keeps_ordinary_activations():
    from leanbridge.expression import expansion_digits
    from leanbridge.families import CATALOG
    assert max(expansion_digits(f.expr) for f in CATALOG) < 10
    assert parse_activation("(z + 1)**1000") == (Z + 1)**1000
    assert parse_activation("Max(z,0)**3*10**999") == sp.Max(Z, 0)**3 * 10**999
