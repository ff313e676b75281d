"""The activation-family catalog, as exact SymPy expressions in one real variable ``z``.

A family is either *ungated* (the block is ``W_down σ(W_up x)`` and ``expr`` is σ) or *gated*
(the block is ``W_down (g(W_gate x) ⊙ (W_val x))`` and ``expr`` is the gate g). Constants are
exact (rationals, ``sqrt``, ``pi``), never floats.

The Lean side of each family (its library definition and premise lemmas, where they exist)
is kept with the rest of the Lean interface, in :mod:`leanbridge.lean.library`.
``necessity_proven`` records that the paper proves the S-condition is also *necessary*
(generic weights, d ≥ 2): only ReLU (Thm 8) and GELU (Thm 10).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp

from leanbridge.functions import sigmoid

#: The variable every activation is written in.
Z = sp.Symbol("z", real=True)

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Family:
    """One activation family of the catalog (or one a user typed in)."""

    name: str
    display: str
    gated: bool
    expr: sp.Expr
    description: str
    source: str
    necessity_proven: bool = False

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(
                f"family name {self.name!r} must be lower case letters, digits and '_' "
                "(it becomes a Lean identifier)"
            )
        extra = self.expr.free_symbols - {Z}
        if extra:
            raise ValueError(
                f"family {self.name}: free symbols {sorted(map(str, extra))} besides z")
        if self.expr.atoms(sp.Float):
            raise ValueError(f"family {self.name}: floats are not exact; use sympy.Rational")

    @property
    def role(self) -> str:
        """``"gate g"`` or ``"activation σ"``, for messages."""
        return "gate g" if self.gated else "activation σ"

    @property
    def block(self) -> str:
        """The block the family defines, as plain text."""
        if self.gated:
            return "W_down (g(W_gate x) ⊙ (W_val x))"
        return "W_down σ(W_up x)"


def _gelu(z: sp.Expr) -> sp.Expr:
    """Exact GELU ``z Φ(z)`` with the standard normal CDF ``Φ(z) = (1 + erf(z/√2))/2``."""
    return z * (1 + sp.erf(z / sp.sqrt(2))) / 2


def _gelu_tanh(z: sp.Expr) -> sp.Expr:
    """GELU's tanh approximation with exact constants ``√(2/π)`` and ``44715/10^6``."""
    inner = sp.sqrt(2 / sp.pi) * (z + sp.Rational(44715, 1000000) * z**3)
    return z * (1 + sp.tanh(inner)) / 2


_relu = sp.Max(Z, 0)

CATALOG: tuple[Family, ...] = (
    Family("relu", "ReLU", False, _relu,
           "max(z, 0)", "paper (Thm 8)", necessity_proven=True),
    Family("gelu", "GELU", False, _gelu(Z),
           "z·Φ(z), Φ the standard normal CDF (exact, via erf)", "paper (Thm 10)",
           necessity_proven=True),
    Family("gelu_tanh", "GELU (tanh)", False, _gelu_tanh(Z),
           "z/2·(1 + tanh(√(2/π)(z + 0.044715 z³))), exact constants",
           "standard (Hendrycks & Gimpel 2016)"),
    Family("silu", "SiLU / Swish", False, Z * sigmoid(Z),
           "z·sigmoid(z)", "standard (Elfwing et al. 2018; Ramachandran et al. 2017)"),
    Family("relu2", "ReLU²", False, _relu**2,
           "max(z, 0)², homogeneous of degree 2", "paper (Prop 5)"),
    Family("relu3", "ReLU³", False, _relu**3,
           "max(z, 0)³, homogeneous of degree 3", "standard"),
    Family("leaky_relu", "Leaky ReLU", False, sp.Max(Z, Z / 100),
           "max(z, z/100), slope α = 1/100 on the negative side", "standard (Maas et al. 2013)"),
    Family("tanh", "tanh", False, sp.tanh(Z),
           "hyperbolic tangent", "standard"),
    Family("sigmoid", "sigmoid", False, sigmoid(Z),
           "logistic function 1/(1 + e^(−z))", "standard"),
    Family("softplus", "softplus", False, sp.log(1 + sp.exp(Z)),
           "log(1 + e^z)", "standard"),
    Family("abs", "absolute value", False, sp.Abs(Z),
           "absolute value: an even activation (illustrates the parity argument)",
           "illustration (not in the paper)"),
    Family("reglu", "ReGLU", True, _relu,
           "gate ReLU: max(W_gate x, 0) ⊙ (W_val x)", "paper (Prop 5)"),
    Family("swiglu", "SwiGLU", True, Z * sigmoid(Z),
           "gate Swish: z·sigmoid(z)", "paper (Prop 6)"),
    Family("geglu", "GeGLU", True, _gelu(Z),
           "gate GELU: z·Φ(z)", "paper (Prop 6)"),
    Family("glu", "GLU", True, sigmoid(Z),
           "gate sigmoid (the original GLU)", "standard (Dauphin et al. 2017)"),
    Family("bilinear", "Bilinear GLU", True, Z,
           "identity gate: (W_gate x) ⊙ (W_val x)", "standard (Shazeer 2020)"),
)

_BY_NAME = {family.name: family for family in CATALOG}


class UnknownFamilyError(LookupError):
    """A family name that is not in the catalog."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(
            f"unknown family {name!r}; known families: {', '.join(sorted(_BY_NAME))}"
        )


def get_family(name: str) -> Family:
    """The catalog family called ``name`` (raises :class:`UnknownFamilyError`)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise UnknownFamilyError(name) from None


def family_names() -> list[str]:
    """Names of the catalog families, in catalog order."""
    return [family.name for family in CATALOG]
