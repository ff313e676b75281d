"""NumPy callables for an activation (or gate) and its derivative, derived from the catalog's
exact SymPy expression with :func:`sympy.lambdify`.

The custom SymPy function :class:`leanbridge.functions.sigmoid` maps to
``scipy.special.expit`` and ``erf`` to ``scipy.special.erf``. ``log(1 + exp(a))`` (softplus)
is rewritten to a named function evaluated as ``numpy.logaddexp(0, a)``, whose derivative is
the sigmoid, so that neither overflows for large arguments.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

from leanbridge.families import Family, Z
from leanbridge.functions import sigmoid
from leanbridge.numeric.errors import PIP_NUMERIC, need


class softplus_(sp.Function):
    """log(1 + exp(x)), kept named so that NumPy evaluates it stably."""

    nargs = 1

    def fdiff(self, argindex=1):
        if argindex != 1:
            raise sp.ArgumentIndexError(self, argindex)
        return sigmoid(self.args[0])


def _stable(expr: sp.Expr) -> sp.Expr:
    """Rewrite log(1 + exp(a)) as softplus_(a)."""
    def is_softplus(e: sp.Expr) -> bool:
        if e.func is not sp.log:
            return False
        inner = e.args[0]
        return (inner.is_Add and len(inner.args) == 2 and sp.S.One in inner.args
                and any(a.func is sp.exp for a in inner.args))

    def rewrite(e: sp.Expr) -> sp.Expr:
        exp_term = next(a for a in e.args[0].args if a.func is sp.exp)
        return softplus_(exp_term.args[0])

    return expr.replace(is_softplus, rewrite)


@dataclass(frozen=True)
class NumericActivation:
    """σ (or the gate g) and σ' as vectorised NumPy functions of an array."""

    name: str
    expr: sp.Expr
    value: Callable
    derivative: Callable


def _modules():
    special = need("scipy.special", "numerics on activations")
    np = need("numpy", "numerics on activations")
    return [{
        "sigmoid": special.expit,
        "erf": special.erf,
        "softplus_": lambda a: np.logaddexp(0.0, a),
        # SymPy's Heaviside(0) is undefined; one-sided slopes differ there anyway (measure 0).
        "Heaviside": lambda a, h0=0.5: np.heaviside(a, h0),
    }, "numpy"]


def _vectorise(fn: Callable) -> Callable:
    np = need("numpy", "numerics on activations")

    def call(z):
        z = np.asarray(z, dtype=float)
        with np.errstate(over="ignore", invalid="ignore"):
            out = np.asarray(fn(z), dtype=float)
        if out.shape != z.shape:  # a constant derivative (bilinear gate) comes back a scalar
            out = np.broadcast_to(out, z.shape).copy()
        return out

    return call


@functools.lru_cache(maxsize=64)
def numeric_activation(family: Family) -> NumericActivation:
    """The NumPy σ and σ' of a family (cached)."""
    expr = _stable(family.expr)
    modules = _modules()
    value = sp.lambdify(Z, expr, modules=modules)
    derivative = sp.lambdify(Z, sp.diff(expr, Z), modules=modules)
    return NumericActivation(family.name, family.expr, _vectorise(value), _vectorise(derivative))


__all__ = ["PIP_NUMERIC", "NumericActivation", "numeric_activation"]
