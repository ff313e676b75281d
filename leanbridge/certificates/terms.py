"""The shapes of activation terms the certificate rules reason about, decided with SymPy.

Three views of one expression σ(z), each matching what a Lean tactic will see:

* **atoms** — the applications ``tanh(2z)``, ``exp(-z)``, ``log(…)``, … that ``ring1`` treats
  as opaque; the rules rewrite their negated instances by a lemma (``Real.tanh_neg``) before
  ``ring1`` runs;
* **branches** — the cases that ``simp only [abs_eq_max_neg, max_def, min_def]`` followed by
  ``split_ifs`` produces: one value per choice at every ``max``/``min``/``|·|``/``if`` node,
  with the conditions that choice adds to the context (``a ≤ b`` or ``¬ a ≤ b``), exactly as
  Mathlib's ``max_def : max a b = if a ≤ b then b else a`` orders them;
* the **ring view** — the expression with every irrational constant (``√2``, ``π``, ``e``,
  ``log 2``) replaced by a fresh symbol: ``ring1`` knows the numerals, not ``√2 · √2 = 2``, so
  an identity is claimed for ``ring1`` only when it holds in this view.

Nothing here prints Lean; :mod:`leanbridge.lean.printer` does that, with ``variable=`` for the
instances σ(−z) and σ(t·z).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import sympy as sp

from leanbridge.families import Z
from leanbridge.functions import sigmoid

#: The scaling variable of homogeneity statements (``∀ t, 0 < t → …``).
T = sp.Symbol("t", positive=True)

#: Nodes that ``simp only [abs_eq_max_neg, max_def, min_def]`` + ``split_ifs`` turn into cases.
PIECEWISE_NODES = (sp.Max, sp.Min, sp.Abs, sp.Piecewise)

#: Applications ``ring1`` treats as atoms (the printer's Mathlib functions).
TRANSCENDENTAL = (sp.exp, sp.tanh, sp.sinh, sp.cosh, sp.sin, sp.cos, sp.atan, sigmoid, sp.log)

#: Too many cases make ``split_ifs`` slow and the certificate unreadable: beyond this, no rule.
MAX_CASES = 512


class OutsideFragment(Exception):
    """The expression leaves the fragment a rule handles (the message says where)."""


def is_constant(expr: sp.Expr) -> bool:
    return not expr.has(Z) and not expr.has(T)


def atoms(expr: sp.Expr) -> list[sp.Expr]:
    """The transcendental applications in ``expr`` that contain z, outermost only, in a fixed
    (sorted) order."""
    found: set[sp.Expr] = set()

    def walk(node: sp.Expr) -> None:
        if isinstance(node, TRANSCENDENTAL) and node.has(Z):
            found.add(node)
            return
        for arg in node.args:
            walk(arg)

    walk(expr)
    return sorted(found, key=sp.default_sort_key)


def piecewise_nodes(expr: sp.Expr) -> list[sp.Expr]:
    out: list[sp.Expr] = []

    def walk(node: sp.Expr) -> None:
        if isinstance(node, PIECEWISE_NODES) and node.has(Z):
            out.append(node)
        for arg in node.args:
            walk(arg)

    walk(expr)
    return out


def polynomial_in(expr: sp.Expr, *symbols: sp.Symbol) -> sp.Poly | None:
    """``expr`` as a polynomial in ``symbols`` with constant coefficients, or None."""
    try:
        poly = sp.Poly(sp.expand(expr), *symbols)
    except (sp.PolynomialError, sp.GeneratorsNeeded):
        return None
    if any(not is_constant(c) for c in poly.coeffs()):
        return None
    return poly


def is_polynomial(expr: sp.Expr) -> bool:
    return polynomial_in(expr, Z) is not None and not expr.has(*TRANSCENDENTAL) \
        and not expr.has(*PIECEWISE_NODES)


# -- the ring view ---------------------------------------------------------------------------

def ring_view(expr: sp.Expr, table: dict | None = None) -> sp.Expr:
    """``expr`` with each irrational constant leaf replaced by a symbol (shared through
    ``table``): what ``ring1`` can see of it."""
    table = {} if table is None else table

    def leaf(node: sp.Expr) -> sp.Expr:
        if node not in table:
            table[node] = sp.Symbol(f"_k{len(table)}")
        return table[node]

    def walk(node):
        if isinstance(node, sp.Rational) or isinstance(node, sp.Symbol):
            return node
        if node.is_number and (isinstance(node, (sp.NumberSymbol, sp.Function))
                               or (isinstance(node, sp.Pow) and not node.exp.is_Integer)):
            return leaf(node)
        if not node.args:
            return node
        return node.func(*[walk(a) for a in node.args], evaluate=False) \
            if isinstance(node, (sp.Add, sp.Mul, sp.Pow)) else node.func(*[walk(a) for a in node.args])

    return walk(expr)


def ring_zero(expr: sp.Expr) -> bool:
    """Does ``ring1`` prove ``expr = 0`` (an identity of the ring view)?"""
    return sp.expand(ring_view(expr)) == 0


# -- branches of max / min / abs / if --------------------------------------------------------

@dataclass(frozen=True)
class Decision:
    """One `if` that `split_ifs` splits on: node ``node``, condition ``lhs ≤ rhs`` (or the
    Piecewise relation) taken (``holds``) or not."""

    node: int
    relation: sp.Basic    # the condition as Lean states it (`a ≤ b`, `z > 0`)
    holds: bool

    @property
    def region(self) -> sp.Basic:
        return self.relation if self.holds else sp.Not(self.relation)

    @property
    def difference(self) -> sp.Expr:
        """lhs − rhs of the condition (its sign decides it)."""
        return self.relation.lhs - self.relation.rhs


@dataclass(frozen=True)
class Branch:
    value: sp.Expr
    decisions: tuple[Decision, ...]


def branches(expr: sp.Expr) -> list[Branch]:
    """Every case of ``expr`` after ``max_def``/``min_def``/``abs_eq_max_neg`` and ``split_ifs``.

    Node numbers follow a fixed traversal, so the instances σ(−z), σ(t·z) and σ(z) of one σ
    number their nodes alike (substitute into the branches, never into ``expr``).
    """
    counter = [0]

    def walk(node: sp.Expr) -> list[Branch]:
        if not node.has(Z) or not node.args:
            return [Branch(node, ())]
        if isinstance(node, (sp.Max, sp.Min, sp.Abs)):
            if isinstance(node, sp.Abs):
                args = [node.args[0], -node.args[0]]          # abs_eq_max_neg
            else:
                # the printer's order: variables first, constants last; `max a b c` is
                # printed (and split) as `max a (max b c)`
                args = sorted(node.args, key=lambda a: bool(a.is_number))
                if len(args) > 2:
                    args = [args[0], node.func(*args[1:])]
            ident = counter[0]
            counter[0] += 1
            left, right = walk(args[0]), walk(args[1])
            out = []
            for a, b in product(left, right):
                condition = sp.Le(a.value, b.value, evaluate=False)
                taken = b.value if isinstance(node, (sp.Max, sp.Abs)) else a.value
                other = a.value if isinstance(node, (sp.Max, sp.Abs)) else b.value
                base = a.decisions + b.decisions
                out.append(Branch(taken, base + (Decision(ident, condition, True),)))
                out.append(Branch(other, base + (Decision(ident, condition, False),)))
            _check_size(out)
            return out
        if isinstance(node, sp.Piecewise):
            ident = counter[0]
            counter[0] += 1
            out, prior = [], ()
            for position, (value, condition) in enumerate(node.args):
                if condition is sp.true:
                    out.extend(Branch(v.value, prior + v.decisions) for v in walk(value))
                    break
                if not isinstance(condition, sp.core.relational.Relational) \
                        or isinstance(condition, (sp.Eq, sp.Ne)):
                    raise OutsideFragment(f"the condition {condition} is not an inequality")
                decision = Decision(ident * 1000 + position, condition, True)
                out.extend(Branch(v.value, prior + (decision,) + v.decisions)
                           for v in walk(value))
                prior = prior + (Decision(ident * 1000 + position, condition, False),)
            _check_size(out)
            return out
        children = [walk(arg) for arg in node.args]
        out = []
        for choice in product(*children):
            value = node.func(*[c.value for c in choice])
            out.append(Branch(value, tuple(d for c in choice for d in c.decisions)))
        _check_size(out)
        return out

    return walk(expr)


def _check_size(out: list) -> None:
    if len(out) > MAX_CASES:
        raise OutsideFragment(f"more than {MAX_CASES} cases")


def substitute(branch: Branch, mapping: dict) -> Branch:
    """A branch with ``mapping`` applied to its value and its conditions."""
    return Branch(
        sp.sympify(branch.value).xreplace(mapping) if mapping else branch.value,
        tuple(Decision(d.node, d.relation.xreplace(mapping), d.holds) for d in branch.decisions))


def linear_rational(expr: sp.Expr) -> bool:
    """``α z + β`` with rational α, β (what ``linarith`` decides exactly)."""
    poly = polynomial_in(expr, Z)
    return poly is not None and poly.degree() <= 1 and all(c.is_Rational for c in poly.coeffs())


def region(decisions) -> sp.Set:
    """The set of real z satisfying every decision (all linear in z)."""
    out: sp.Set = sp.S.Reals
    for decision in decisions:
        if not linear_rational(decision.difference):
            raise OutsideFragment(f"the condition {decision.relation} is not linear in z with "
                                  "rational coefficients (linarith could not use it)")
        out = sp.Intersection(out, sp.solveset(decision.region, Z, sp.S.Reals))
    return out


_SPLIT_ORDER = ("abs_eq_max_neg", "max_def", "min_def")


def split_lemmas(nodes: list[sp.Expr]) -> list[str]:
    """The rewrite lemmas that turn ``nodes`` into ``if``s (``|a|`` → ``max a (-a)`` → ``if``);
    a ``Piecewise`` is an ``if`` already."""
    lemmas = set()
    for node in nodes:
        if isinstance(node, sp.Abs):
            lemmas |= {"abs_eq_max_neg", "max_def"}
        elif isinstance(node, sp.Max):
            lemmas.add("max_def")
        elif isinstance(node, sp.Min):
            lemmas.add("min_def")
    return [lemma for lemma in _SPLIT_ORDER if lemma in lemmas]
