"""SymPy function classes for activations that Mathlib names but SymPy lacks.

Only :class:`sigmoid` lives here: SymPy has no logistic function, while Mathlib has
``Real.sigmoid``. Keeping it a named SymPy function (instead of ``1/(1 + exp(-z))``) lets the
Lean printer emit ``Real.sigmoid z`` and lets the analysis use ``sigmoid(-x) = 1 - sigmoid(x)``.
"""

from __future__ import annotations

import sympy as sp


class sigmoid(sp.Function):  # noqa: N801 - SymPy function classes are lower case
    """The logistic function ``1 / (1 + exp(-x))`` (Mathlib: ``Real.sigmoid``)."""

    nargs = 1

    @classmethod
    def eval(cls, arg):
        if arg.is_zero:
            return sp.Rational(1, 2)
        if arg.could_extract_minus_sign():
            # sigmoid(-x) = 1 - sigmoid(x)  (Mathlib: Real.sigmoid_neg)
            return 1 - cls(-arg)
        return None

    def fdiff(self, argindex=1):
        if argindex != 1:
            raise sp.ArgumentIndexError(self, argindex)
        return self * (1 - self)

    def _eval_rewrite_as_exp(self, arg, **kwargs):
        return 1 / (1 + sp.exp(-arg))

    def _eval_rewrite_as_tanh(self, arg, **kwargs):
        return (1 + sp.tanh(arg / 2)) / 2

    def _eval_is_real(self):
        return self.args[0].is_real

    def _eval_is_positive(self):
        if self.args[0].is_real:
            return True
        return None

    def _eval_evalf(self, prec):
        return self.rewrite(sp.exp)._eval_evalf(prec)

    def _eval_as_leading_term(self, x, logx=None, cdir=0):
        return self.rewrite(sp.exp)._eval_as_leading_term(x, logx=logx, cdir=cdir)

    def _eval_nseries(self, x, n, logx, cdir=0):
        return self.rewrite(sp.exp)._eval_nseries(x, n, logx, cdir)

    def _latex(self, printer):
        return r"\operatorname{sigmoid}\left(%s\right)" % printer._print(self.args[0])
