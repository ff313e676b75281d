"""The activation catalog: complete, exact, and addressable by name."""

import pytest
import sympy as sp

from leanbridge.families import CATALOG, Family, UnknownFamilyError, Z, family_names, get_family

REQUIRED = {
    "relu", "gelu", "silu", "relu2", "relu3", "reglu", "swiglu", "geglu", "glu", "bilinear",
    "leaky_relu", "tanh", "sigmoid", "softplus",
}
GATED = {"reglu", "swiglu", "geglu", "glu", "bilinear"}


def test_catalog_has_every_required_family_once():
    names = family_names()
    assert len(names) == len(set(names))
    assert REQUIRED <= set(names)


@pytest.mark.parametrize("family", CATALOG, ids=lambda f: f.name)
def test_family_is_exact_and_in_z(family):
    assert not family.expr.atoms(sp.Float)
    assert family.expr.free_symbols <= {Z}
    assert family.display and family.description and family.source
    assert family.gated == (family.name in GATED)


def test_gelu_is_exact_z_phi():
    gelu = get_family("gelu").expr
    phi = (1 + sp.erf(Z / sp.sqrt(2))) / 2
    assert sp.simplify(gelu - Z * phi) == 0


def test_leaky_relu_slope_is_exact_rational():
    leaky = get_family("leaky_relu").expr
    assert leaky.subs(Z, -100) == -1
    assert sp.Rational(1, 100) in leaky.atoms(sp.Rational)


def test_gelu_tanh_constants_are_exact():
    expr = get_family("gelu_tanh").expr
    assert sp.Rational(44715, 1000000) in expr.atoms(sp.Rational)  # 0.044715, exactly
    assert expr.has(sp.pi) and expr.has(sp.sqrt(2))


def test_gated_families_store_the_gate():
    assert get_family("reglu").expr == sp.Max(Z, 0)
    assert get_family("bilinear").expr == Z
    assert get_family("glu").expr.subs(Z, 0) == sp.Rational(1, 2)


def test_unknown_family_lists_known_names():
    with pytest.raises(UnknownFamilyError) as info:
        get_family("relu4")
    assert "relu4" in str(info.value) and "relu2" in str(info.value)


@pytest.mark.parametrize("bad", [
    dict(name="Bad Name", expr=Z), dict(name="x", expr=Z + sp.Symbol("y")),
    dict(name="f", expr=sp.Float(0.5) * Z),
])
def test_family_rejects_bad_definitions(bad):
    with pytest.raises(ValueError):
        Family(display="d", gated=False, description="d", source="s", **bad)
