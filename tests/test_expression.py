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
