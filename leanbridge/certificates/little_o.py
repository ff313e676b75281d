"""Rules ``little_o_homogeneous`` and ``little_o_sum``: σ = o(z) at 0.

``little_o_homogeneous`` (``templates/premises/little_o_homogeneous.lean.j2``): σ is
positively homogeneous of a natural degree k ≥ 2 with a ``homogeneous_cases`` certificate;
the library's ``isLittleO_of_posHomogeneous`` turns that premise lemma into σ = o(z) (its proof
is the bound |σ z| ≤ (|σ 1| + |σ (-1)|)·|z|^k).

``little_o_product`` (``templates/premises/little_o_product.lean.j2``): σ = h·z with h(0) = 0
and h continuous in the ``tendsto_continuous`` rule's sense (``z·tanh(2z)``, ``z·arctan z``,
``z²·exp z``): h → 0 at 0, and the library's ``isLittleO_mul_self_of_tendsto`` gives σ = o(z);
SymPy checks that h·z = σ is an identity ``ring1`` proves with σ's atoms opaque.

``little_o_sum`` (``templates/premises/little_o_sum.lean.j2``): σ is a sum of pieces, each
positively homogeneous of a natural degree k ≥ 2 (``max z 0 ^ 3 + max z 0 ^ 2``). Each piece
gets its own homogeneity proof by the ``homogeneous_cases`` pattern and
``isLittleO_of_posHomogeneous``; ``IsLittleO.add`` sums them and ``IsLittleO.congr_left``
moves the result to σ (``ring1`` on the printed body). SymPy checks that the pieces add up to
σ exactly and certifies each piece's degree and case split.
"""

from __future__ import annotations

import sympy as sp

from leanbridge.certificates import LITTLE_O, Certificate
from leanbridge.certificates.homogeneity import SCALED, _names, _text, cases_certificate
from leanbridge.certificates.terms import OutsideFragment
from leanbridge.families import Z


def _natural_at_least_two(degree) -> int | None:
    if degree is not None and degree.is_Integer and degree >= 2:
        return int(degree)
    return None


def certify(expr: sp.Expr, premise: str, *, degree=None, c=None) -> Certificate:
    k = _natural_at_least_two(degree)
    if k is not None:
        data = cases_certificate(expr, k)
        return Certificate(
            "little_o_homogeneous", LITTLE_O,
            f"σ is positively homogeneous of degree {k} ≥ 2 ({len(data['cases'])} case "
            "pair(s) certified), hence o(z) by the library's isLittleO_of_posHomogeneous",
            ("isLittleO_of_posHomogeneous",), {"degree": str(k)},
            modules=("SkipAbsorption.Degree",))
    try:
        return _certify_sum(expr)
    except OutsideFragment as not_a_sum:
        try:
            return _certify_product(expr)
        except OutsideFragment as not_a_product:
            raise OutsideFragment(f"{not_a_sum}; and σ is not h·z with h in the continuity "
                                  f"rule's fragment: {not_a_product}") from None


def _opaque(expr: sp.Expr, table: dict) -> sp.Expr:
    """``expr`` with every node ``ring1`` treats as an atom (function applications, ``|·|``,
    ``max``/``min``/``if``, irrational constants) replaced by a symbol shared through
    ``table``: what ``ring1`` sees of it."""
    def walk(node: sp.Expr) -> sp.Expr:
        if isinstance(node, (sp.Add, sp.Mul)) or (isinstance(node, sp.Pow)
                                                  and node.exp.is_Integer):
            return node.func(*[walk(a) for a in node.args])
        if isinstance(node, (sp.Rational, sp.Symbol)):
            return node
        if node not in table:
            table[node] = sp.Dummy(f"atom{len(table)}")
        return table[node]
    return walk(expr)


def _certify_product(expr: sp.Expr) -> Certificate:
    """Rule ``little_o_product``: σ = h·z with h(0) = 0 and h continuous (the continuity rule's
    fragment), proved with the library's ``isLittleO_mul_self_of_tendsto``."""
    from leanbridge.certificates import tendsto

    h = sp.expand(expr / Z, deep=False)
    if not h.has(Z):
        raise OutsideFragment("σ is a constant multiple of z")
    if sp.denom(sp.together(h)).has(Z):
        raise OutsideFragment(f"σ/z = {sp.sstr(h)} still divides by z")
    table: dict = {}
    if sp.expand(_opaque(h, table) * Z - _opaque(expr, table)) != 0:
        raise OutsideFragment(f"σ = ({sp.sstr(h)})·z is not an identity ring1 sees with σ's "
                              "atoms opaque")
    gate = tendsto.certify(h, LITTLE_O)
    return Certificate(
        "little_o_product", LITTLE_O,
        f"σ = h·z with h = {sp.sstr(h)}: "
        f"{gate.summary.replace('g(0) = 0 and g is', 'h(0) = 0 and h is')}, so h → 0 at 0 "
        "and σ = o(z) by the library's isLittleO_mul_self_of_tendsto",
        tuple(dict.fromkeys([*gate.lean_names, "isLittleO_mul_self_of_tendsto",
                             "Asymptotics.IsLittleO.congr_left", "ring1"])),
        {**gate.context, "factor": sp.sstr(h)},
        modules=("SkipAbsorption.LittleO",))


def _certify_sum(expr: sp.Expr) -> Certificate:
    from leanbridge.analysis import scalar_facts

    groups: dict[int, list[sp.Expr]] = {}
    for term in sp.Add.make_args(expr):
        k = _natural_at_least_two(scalar_facts(term).degree)
        if k is None:
            raise OutsideFragment(f"the term {sp.sstr(term)} is not positively homogeneous of "
                                  "a natural degree ≥ 2")
        groups.setdefault(k, []).append(term)
    if len(groups) < 2:
        raise OutsideFragment("σ is not a sum of homogeneous pieces of different degrees")
    pieces, names = [], ["isLittleO_of_posHomogeneous", "Asymptotics.IsLittleO.add",
                         "Asymptotics.IsLittleO.congr_left"]
    total = sp.Integer(0)
    for index, (k, terms) in enumerate(sorted(groups.items()), start=1):
        piece = sp.Add(*terms)
        total += piece
        data = cases_certificate(piece, k)
        names += _names(data)
        pieces.append({"index": index, "degree": str(k), "text": _text(piece),
                       "scaled": _text(piece, SCALED), **data})
    if sp.expand(total - expr) != 0:
        raise OutsideFragment("the pieces do not add up to σ")
    return Certificate(
        "little_o_sum", LITTLE_O,
        "σ = " + " + ".join(f"(degree {p['degree']} piece)" for p in pieces)
        + ": each piece homogeneous of natural degree ≥ 2, hence o(z); their sum is o(z)",
        tuple(dict.fromkeys([*names, "ring1"])),
        {"pieces": pieces,
         "sum": " + ".join(f"({p['text']})" for p in pieces),
         "combined": _combined(len(pieces))})


def _combined(count: int) -> str:
    """`((h1.add h2).add h3)`: the left-nested sum the `show` step expects."""
    text = "h1"
    for index in range(2, count + 1):
        text = f"({text}.add h{index})"
    return text
