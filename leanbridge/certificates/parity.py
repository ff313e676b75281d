"""Rule ``parity``: σ(−z) = σ(z), or σ(z) − σ(−z) = c·z, by rewriting and case analysis.

The Lean pattern (``templates/premises/parity.lean.j2``) states the goal on σ's printed body
(``show``), rewrites each atom of σ(−z) by a stated instance of its symmetry lemma —
``Real.tanh (2 * (-z)) = -Real.tanh (2 * z)``, proved by rewriting the argument with ``ring1``
and applying ``Real.tanh_neg`` — then, if σ has ``max``/``min``/``|·|``/``if`` nodes that no
lemma removes, splits every one of them (``abs_eq_max_neg``, ``max_def``, ``min_def``,
``split_ifs``) and closes each case with the tactic the certificate names.

SymPy decides everything the script relies on:

* every atom's argument is a polynomial in z whose negated instance is ± an argument of σ;
* after the rewrites, the goal is an identity of the ring view (atoms and irrational constants
  opaque, as ``ring1`` sees them) — or, with a case split, every case is one of: an identity
  (``ring1``), an empty region (``linarith``: the conditions are linear with rational
  coefficients), or a one-point region {z₀} on which the identity holds (``z = z₀`` by
  ``linarith``, then ``subst`` and ``ring1``).
"""

from __future__ import annotations

import sympy as sp

from leanbridge.analysis import times_z
from leanbridge.certificates import EVEN, ODD, Certificate
from leanbridge.certificates.terms import (
    OutsideFragment,
    atoms,
    branches,
    is_polynomial,
    piecewise_nodes,
    region,
    ring_view,
    split_lemmas,
    ring_zero,
    substitute,
)
from leanbridge.families import Z
from leanbridge.functions import sigmoid
from leanbridge.lean.printer import KNOWN_FUNCTIONS, LeanPrintError, lean_code, lean_factor

RULE = "parity"

#: f(−x) in terms of f(x), and the Mathlib lemma that says so.
NEG_LEMMAS: dict[type, tuple[str, str]] = {
    sp.tanh: ("Real.tanh_neg", "odd"),
    sp.sinh: ("Real.sinh_neg", "odd"),
    sp.sin: ("Real.sin_neg", "odd"),
    sp.atan: ("Real.arctan_neg", "odd"),
    sp.cosh: ("Real.cosh_neg", "even"),
    sp.cos: ("Real.cos_neg", "even"),
    sigmoid: ("Real.sigmoid_neg", "sigmoid"),
}
#: Route 2 normalises arguments with these before the symmetry lemmas.
ARGUMENT_LEMMAS = ("mul_neg", "neg_mul", "neg_div", "neg_neg")
NEG = "(-z)"
#: `norm_num` may leave a goal without failing: `done` makes the alternative fail instead.
_DONE = {"ring1": "", "norm_num": "; done"}


def _text(expr: sp.Expr, variable: str | None = None) -> str:
    try:
        return lean_code(expr, variable)
    except LeanPrintError as exc:
        raise OutsideFragment(str(exc)) from None


def _reduce(atom: sp.Expr, family: list[sp.Expr], symbols: dict) -> tuple[sp.Expr, dict]:
    """The value of ``atom`` at −z in terms of σ's atoms, and the rewrite that proves it."""
    argument = atom.args[0]
    if not is_polynomial(argument):
        raise OutsideFragment(f"the argument of {atom} is not a polynomial in z")
    negated = sp.expand(argument.xreplace({Z: -Z}))
    rewrite = {"lhs": _text(atom, NEG), "arg_lhs": _text(argument, NEG)}
    for other in family:
        if other.func is atom.func and sp.expand(negated - other.args[0]) == 0:
            rewrite.update(rhs=_text(other), arg_rhs=_text(other.args[0]), lemma=None,
                           function=KNOWN_FUNCTIONS.get(atom.func, "Real.log"))
            if rewrite["lhs"] == rewrite["rhs"]:
                return symbols[other], {}
            return symbols[other], rewrite
    entry = NEG_LEMMAS.get(atom.func)
    if entry is not None:
        lemma, kind = entry
        for other in family:
            if other.func is atom.func and sp.expand(negated + other.args[0]) == 0:
                target = _text(other)
                rhs = {"odd": f"-{target}", "even": target, "sigmoid": f"1 - {target}"}[kind]
                value = {"odd": -symbols[other], "even": symbols[other],
                         "sigmoid": 1 - symbols[other]}[kind]
                rewrite.update(rhs=rhs, arg_rhs=_text(other.args[0]), lemma=lemma,
                               direct=(rewrite["arg_lhs"] == NEG and other.args[0] == Z))
                return value, rewrite
    raise OutsideFragment(
        f"{atom.func.__name__}({sp.sstr(negated)}) is not ± a term of σ (no lemma in the "
        "table relates them)")


def _abs_reductions(nodes: list[sp.Expr]) -> list[dict] | None:
    """Rewrites of |a(−z)| to |a(z)| when every piecewise node is such an |·|, else None."""
    rewrites = []
    for node in nodes:
        if not isinstance(node, sp.Abs) or not is_polynomial(node.args[0]):
            return None
        argument = node.args[0]
        negated = sp.expand(argument.xreplace({Z: -Z}))
        rewrite = {"lhs": _text(node, NEG), "rhs": _text(node),
                   "arg_lhs": _text(argument, NEG), "arg_rhs": _text(argument)}
        if sp.expand(negated + argument) == 0:
            rewrite.update(lemma="abs_neg", direct=(rewrite["arg_lhs"] == NEG))
        elif sp.expand(negated - argument) == 0:
            rewrite.update(lemma=None, function="abs")
        else:
            return None
        rewrites.append(rewrite)
    return rewrites


def certify(expr: sp.Expr, premise: str, *, degree=None, c=None) -> Certificate:
    if premise == ODD and (c is None or c == 0):
        raise OutsideFragment("no nonzero odd coefficient c")
    family = atoms(expr)
    symbols = {atom: sp.Symbol(f"_a{i}") for i, atom in enumerate(family)}
    reduced: dict[sp.Symbol, sp.Expr] = {}
    rewrites: list[dict] = []
    for atom in family:
        value, rewrite = _reduce(atom, family, symbols)
        reduced[symbols[atom]] = value
        if rewrite:
            rewrites.append(rewrite)
    body = expr.xreplace(symbols)
    nodes = piecewise_nodes(body)
    for node in nodes:
        if node.has(*symbols.values()):
            raise OutsideFragment(f"an atom inside {node}: no case split applies")

    # the goal, σ(z) side and σ(−z) side, as ring1 will see them after the rewrites
    def goal(left: sp.Expr, right: sp.Expr) -> sp.Expr:
        return left - right if premise == EVEN else right - left - c * Z

    cases: list[dict] = []
    closers: list[str] = []
    split: list[str] = []
    abs_rewrites = _abs_reductions(nodes) if nodes else []
    if abs_rewrites is not None:
        # no case split: |·| of odd or even arguments become atoms
        table = {node: sp.Symbol(f"_b{i}") for i, node in enumerate(nodes)}
        body = body.xreplace(table)
        rewrites.extend(r for r in abs_rewrites if r["lhs"] != r["rhs"])
        negated = body.xreplace({Z: -Z}).xreplace(reduced)
        if not ring_zero(goal(negated, body)):
            raise OutsideFragment("after the rewrites the identity is not one ring1 checks "
                                  f"(ring view: {sp.sstr(sp.expand(ring_view(goal(negated, body))))})")
        closers.append("ring1")
        cases.append({"conditions": "none", "closer": "ring1"})
    else:
        split = split_lemmas(nodes)
        right = branches(body)
        left = [substitute(b, {Z: -Z}) for b in right]
        left = [type(b)(b.value.xreplace(reduced), b.decisions) for b in left]
        if len(left) * len(right) > 4096:
            raise OutsideFragment("too many cases")
        points: dict[sp.Expr, str] = {}
        for bl in left:
            for br in right:
                decisions = bl.decisions + br.decisions
                where = region(decisions)
                difference = goal(bl.value, br.value)
                text = " ∧ ".join(sp.sstr(d.region) for d in decisions) or "none"
                if where.is_empty:
                    cases.append({"conditions": text, "closer": "linarith"})
                    _add(closers, "linarith")
                elif isinstance(where, sp.FiniteSet) and len(where) == 1:
                    (point,) = tuple(where)
                    at = difference.xreplace({Z: point})
                    if ring_zero(at):
                        how = "ring1"
                    elif _zero(at.xreplace({s: a.xreplace({Z: point})
                                            for a, s in symbols.items()})):
                        how = "norm_num"
                    else:
                        raise OutsideFragment(f"at z = {point} the case {text} is not an "
                                              "identity ring1 checks")
                    points.setdefault(point, how)
                    if how == "norm_num":
                        points[point] = "norm_num"
                    cases.append({"conditions": text, "closer": f"z = {point}, {how}"})
                elif ring_zero(difference):
                    cases.append({"conditions": text, "closer": "ring1"})
                    _add(closers, "ring1")
                else:
                    raise OutsideFragment(f"on {sp.sstr(where)} the case {text} is not an "
                                          "identity ring1 checks")
        # `split_ifs` splits on each condition as Lean writes it, so it can produce more
        # (contradictory) cases than the branches above (`-(-z) ≤ 0` next to `z ≤ 0`):
        # `linarith` closes those whatever SymPy saw.
        _add(closers, "linarith")
        closers[:] = ["ring1", *(c for c in closers if c != "ring1")]
        for point, how in sorted(points.items(), key=lambda item: sp.default_sort_key(item[0])):
            value = _text(point)
            closers.append(f"(have hz : z = {value} := (by linarith); subst hz; {how}{_DONE[how]})")
            closers.append(f"(rw [show z = {value} by linarith]; {how}{_DONE[how]})")

    lemmas = sorted({r["lemma"] for r in rewrites if r.get("lemma")})
    table = [*ARGUMENT_LEMMAS, *sorted({NEG_LEMMAS[a.func][0] for a in family
                                        if a.func in NEG_LEMMAS})]
    if abs_rewrites:
        table.append("abs_neg")
    for index, rewrite in enumerate(rewrites, start=1):
        rewrite["name"] = f"a{index}"
    statement = _statement(expr, premise, c)
    names = ["ring1", *lemmas, *split, *table]
    if abs_rewrites is None:
        names += ["split_ifs", "linarith", "subst"]
    if any(r.get("lemma") is None for r in rewrites):
        names.append("congrArg")
    summary = (f"{'σ(−z) = σ(z)' if premise == EVEN else f'σ(z) − σ(−z) = {times_z(c)}'}: "
               f"{len(rewrites)} rewrite(s) of atoms of σ(−z)"
               + (f", then {len(cases)} case(s) of {' + '.join([*split, 'split_ifs'])}"
                  if abs_rewrites is None else ", then ring1"))
    return Certificate(RULE, premise, summary, tuple(dict.fromkeys(names)), {
        "goal": statement,
        "rewrites": rewrites,
        "split": split,
        "needs_split": abs_rewrites is None,
        "closers": closers,
        "table": table,
        "cases": cases,
    })


def _zero(value: sp.Expr) -> bool:
    try:
        return not value.free_symbols and sp.simplify(value) == 0
    except (TypeError, ValueError, NotImplementedError, RecursionError):
        return False


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def _statement(expr: sp.Expr, premise: str, c: sp.Expr | None) -> str:
    """The goal on σ's printed body, for ``show``."""
    at_z, at_neg = _text(expr), _text(expr, NEG)
    if premise == EVEN:
        return f"({at_neg}) = ({at_z})"
    rhs = "z" if c == 1 else f"{lean_factor(c)} * z"
    return f"({at_z}) - ({at_neg}) = {rhs}"
