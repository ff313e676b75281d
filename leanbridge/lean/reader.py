"""Read a Lean term written by leanbridge's printer back into SymPy (the printer's inverse).

A small Pratt parser for the fragment of Lean 4 syntax that :mod:`leanbridge.lean.printer` and
the premise templates write: numerals, the variables ``z`` and ``t``, the Mathlib functions the
printer knows, application by juxtaposition, ``+ - * / ^``, prefix ``-``, ``|x|``, type
ascriptions ``(e : ℝ)``, comparisons, ``∧ ∨ ¬`` and ``if … then … else …``. It follows Lean's
own precedences (``+ -`` 65, ``* /`` 70, prefix ``-`` 75 with its argument at 75, ``^`` 80
right-associative, application above all), *not* SymPy's, so that reading a printed term tells
what Lean will understand by it: a missing bracket shows up as a different SymPy expression.

Used by the tests (every printed term must mean its SymPy expression) and by the renderer as a
self-check on the premise statements it writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp

from leanbridge.functions import sigmoid

#: The activation's variable and the scaling variable of homogeneity statements.
Z = sp.Symbol("z", real=True)
T = sp.Symbol("t", positive=True)

FUNCTIONS: dict[str, tuple[object, int]] = {
    "Real.exp": (sp.exp, 1),
    "Real.tanh": (sp.tanh, 1),
    "Real.sinh": (sp.sinh, 1),
    "Real.cosh": (sp.cosh, 1),
    "Real.sin": (sp.sin, 1),
    "Real.cos": (sp.cos, 1),
    "Real.arctan": (sp.atan, 1),
    "Real.sigmoid": (sigmoid, 1),
    "Real.sqrt": (sp.sqrt, 1),
    "Real.log": (sp.log, 1),
    "max": (sp.Max, 2),
    "min": (sp.Min, 2),
}
CONSTANTS: dict[str, sp.Expr] = {"Real.pi": sp.pi, "z": Z, "t": T, "True": sp.true,
                                 "False": sp.false}

_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<ident>[A-Za-z_][A-Za-z0-9_'.]*)"
                    r"|(?P<sym>≤|≥|≠|∧|∨|¬|ℝ|[()|+\-*/^<>=:]))")

# Binding powers (Lean 4 core `Init/Prelude`, `Init/Core` notations).
_INFIX = {"∨": (30, "right"), "∧": (35, "right"),
          "=": (50, "none"), "≠": (50, "none"), "<": (50, "none"), ">": (50, "none"),
          "≤": (50, "none"), "≥": (50, "none"),
          "+": (65, "left"), "-": (65, "left"), "*": (70, "left"), "/": (70, "left"),
          "^": (80, "right")}
_NEG = 75      # `-x`: result and argument at 75
_NOT = 40      # `¬ p`: argument at 40
_MAX = 1024    # application and atoms


class LeanReadError(ValueError):
    """The text is not a term of the printer's fragment."""


@dataclass
class _Token:
    kind: str
    text: str


def _tokens(text: str) -> list[_Token]:
    out, position = [], 0
    text = text.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise LeanReadError(f"cannot read {text[position:position + 20]!r}")
        kind = match.lastgroup
        out.append(_Token(kind, match.group(kind)))
        position = match.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.i = 0

    def peek(self) -> _Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, expected: str | None = None) -> _Token:
        token = self.peek()
        if token is None or (expected is not None and token.text != expected):
            raise LeanReadError(f"expected {expected!r}, got {token.text if token else 'end'!r}")
        self.i += 1
        return token

    def at(self, text: str) -> bool:
        token = self.peek()
        return token is not None and token.text == text

    # -- expressions ---------------------------------------------------------------------------

    def expression(self, floor: int = 0):
        if self.at("if"):
            self.take("if")
            condition = self.expression()
            self.take("then")
            value = self.expression()
            self.take("else")
            other = self.expression()
            return sp.Piecewise((value, condition), (other, True))
        left = self.prefix()
        while True:
            token = self.peek()
            if token is None or token.kind != "sym" or token.text not in _INFIX:
                return left
            power, assoc = _INFIX[token.text]
            if power < floor:
                return left
            self.take()
            right = self.expression(power + 1 if assoc in ("left", "none") else power)
            left = self._combine(token.text, left, right)
            if assoc == "none":
                following = self.peek()
                if following is not None and following.text in _INFIX \
                        and _INFIX[following.text][0] == power:
                    raise LeanReadError("comparisons do not chain in Lean")

    @staticmethod
    def _combine(op: str, left, right):
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if op == "/":
            return left / right
        if op == "^":
            return left ** right
        if op == "∧":
            return sp.And(left, right)
        if op == "∨":
            return sp.Or(left, right)
        relation = {"=": sp.Eq, "≠": sp.Ne, "<": sp.Lt, ">": sp.Gt, "≤": sp.Le, "≥": sp.Ge}[op]
        return relation(left, right, evaluate=False)

    def prefix(self):
        if self.at("-"):
            self.take("-")
            return -self.expression(_NEG)
        if self.at("¬"):
            self.take("¬")
            return sp.Not(self.expression(_NOT))
        return self.application()

    def application(self):
        token = self.peek()
        if token is not None and token.kind == "ident" and token.text in FUNCTIONS:
            self.take()
            function, arity = FUNCTIONS[token.text]
            args = [self.atom() for _ in range(arity)]
            return function(*args)
        return self.atom()

    def atom(self):
        token = self.take()
        if token.kind == "num":
            return sp.Integer(int(token.text))
        if token.kind == "ident":
            if token.text in CONSTANTS:
                return CONSTANTS[token.text]
            if token.text in FUNCTIONS:
                raise LeanReadError(f"{token.text} applied in argument position needs brackets")
            raise LeanReadError(f"unknown name {token.text!r}")
        if token.text == "(":
            inner = self.expression()
            if self.at(":"):
                self.take(":")
                self.take("ℝ")
            self.take(")")
            return inner
        if token.text == "|":
            inner = self.expression()
            self.take("|")
            return sp.Abs(inner)
        raise LeanReadError(f"unexpected {token.text!r}")


def read_lean(text: str):
    """The SymPy expression (or relation) a printed Lean term denotes."""
    parser = _Parser(text)
    expr = parser.expression()
    if parser.peek() is not None:
        raise LeanReadError(f"trailing text from {parser.peek().text!r}")
    return expr


def means(text: str, expr: sp.Expr, samples=(sp.Rational(-7, 3), sp.Rational(-1, 2), 0,
                                             sp.Rational(1, 3), sp.Rational(5, 2))) -> bool:
    """Does the Lean ``text`` denote ``expr`` (a function of z)?

    Exact SymPy comparison first (``simplify`` of the difference), then exact values at sample
    points; every sample must agree.
    """
    read = read_lean(text)
    expr = sp.sympify(expr).subs(sp.Symbol("z", real=True), Z)
    difference = read - expr
    try:
        if sp.simplify(difference) == 0:
            return True
    except (TypeError, ValueError, NotImplementedError, RecursionError):
        pass
    for value in samples:
        at = difference.subs({Z: value, T: sp.Rational(3, 2)})
        number = sp.N(at, 30)
        if not number.is_number or abs(complex(number)) > 1e-20:
            return False
    return True
