"""Rules ``little_o_homogeneous`` and ``little_o_sum``: σ = o(z) at 0.

``little_o_homogeneous`` (``templates/premises/little_o_homogeneous.lean.j2``): σ is
positively homogeneous of a natural degree k ≥ 2 with a ``homogeneous_cases`` certificate;
the library's ``isLittleO_of_posHomogeneous`` turns that premise lemma into σ = o(z) (its proof
is the bound |σ z| ≤ (|σ 1| + |σ (-1)|)·|z|^k).

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
            ("isLittleO_of_posHomogeneous",), {"degree": str(k)})
    return _certify_sum(expr)


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
