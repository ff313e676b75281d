"""What the Lean library says about one block's weights, checked on the numbers.

``leanbridge absorb`` decides the S-condition (:mod:`leanbridge.numeric.absorb`); this module
adds, for the identity skip or an invertible skip of a conditional family:

* **|S| ≥ d** as a check on the S found (Lean: ``SkipAbsorption.card_le_of_sCondition``; for
  an invertible skip ``SkipAbsorption.card_le_of_sCondition_of_isUnit``). An S smaller than d
  would contradict the theorem and points at a numerical problem.
* **Nondegeneracy** exactly as the Lean definition ``SkipAbsorption.Nondegenerate Wd Wu``:
  every row u_i of W_up nonzero, no two rows parallel (u_j ≠ λ·u_i for i ≠ j), every column
  w_i of W_down nonzero. Floats: a row/column is zero when all its entries are exactly 0 (an
  exact test on the stored numbers); rows i ≠ j count as parallel when

      1 − |cos(u_i, u_j)| ≤ max(64·ε_in, 1e-12, 8·(d + 2)·ε₆₄)

  (ε_in = ε₆₄ as ``absorb`` calls it, whatever the stored dtype: float16/bfloat16 rows are
  exact numbers, so bfloat16 rows with |cos| = 0.6 are not parallel; a larger ε_in is a
  library knob for inputs known only to that precision). The cosine is computed in float64 from rows
  scaled to unit length (after scaling by their largest entry, so tiny rows do not underflow);
  its rounding error is below (d + 2)·ε₆₄, so a pair above the threshold is certainly not
  parallel: **passing the test proves the definition holds for the stored weights**. Failing it
  means "parallel to the stored precision" (conservative). The threshold is that of ``absorb``'s
  own collinearity check (``COLLINEAR_TOL``), widened by the float64 error bound for large d.
* **Necessity citations.** A ReLU "not absorbable" cites
  ``SkipAbsorption.exists_sCondition_of_absorbable_relu`` (identity skip) or
  ``SkipAbsorption.absorbable_relu_iff_of_isUnit_det`` (invertible skip) only when the weights
  pass the test above; GELU, GELU-tanh, SiLU and softplus cite their characterisation by the
  large-scale limit (``absorbable_gelu_iff`` …, and with biases ``biasedAbsorbable_gelu_iff``
  …; :mod:`leanbridge.numeric.biased`) under the same test; Leaky ReLU and σ = a·z + b·|z|
  their characterisation by the kink argument (``absorbable_leakyRelu_iff``,
  ``absorbable_iff_of_parts``; identity skip only).
* **Minimal absorbing width** (:mod:`leanbridge.numeric.width`).

The Lean names are in :data:`LEAN` (from :data:`leanbridge.lean.library.RELU_LEAN`). Nothing
here was checked by a Lean compiler: no Lean toolchain here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from leanbridge.lean.library import RELU_LEAN
from leanbridge.numeric.errors import need

#: Lean declarations the checks rely on (namespace SkipAbsorption; one source: the library).
LEAN = {
    "nondegenerate": RELU_LEAN["nondegenerate"],
    "sufficiency": RELU_LEAN["sufficiency"],
    "necessity_relu": RELU_LEAN["necessity"],
    "necessity_relu_skip": RELU_LEAN["characterisation_skip"],
    "card": RELU_LEAN["card"],
    "card_skip": RELU_LEAN["card_skip"],
    "width_upper": RELU_LEAN["width_upper"],
    "width_rank_bound": RELU_LEAN["width_rank_bound"],
}
#: Floor of the 1 − |cos| threshold (the same as ``absorb.COLLINEAR_TOL``).
COS_FLOOR = 1e-12
#: Rows of W_up compared per batch (memory: this many × n cosines at a time).
ROW_BLOCK = 1024

_F64 = 2.0 ** -52


@dataclass
class NondegeneracyCheck:
    """The Lean definition ``Nondegenerate`` tested on float weights (see the module doc)."""

    holds: bool
    zero_rows: list[int]             # rows of W_up that are entirely 0 (first 10)
    zero_rows_count: int
    zero_columns: list[int]          # columns of W_down that are entirely 0 (first 10)
    zero_columns_count: int
    parallel_pairs: int              # pairs (i < j) with 1 − |cos| ≤ threshold
    example_pair: list[int] | None   # the most parallel pair
    max_abs_cos: float | None
    threshold: float                 # on 1 − |cos|

    def problems(self) -> list[str]:
        out = []
        if self.zero_rows_count:
            out.append(f"{self.zero_rows_count} zero row(s) of W_up (first: {self.zero_rows[0]})")
        if self.parallel_pairs:
            i, j = self.example_pair
            out.append(f"{self.parallel_pairs} pair(s) of parallel rows of W_up (e.g. {i} and "
                       f"{j}, |cos| = {self.max_abs_cos:.15f})")
        if self.zero_columns_count:
            out.append(f"{self.zero_columns_count} zero column(s) of W_down (first: "
                       f"{self.zero_columns[0]})")
        return out

    def to_dict(self) -> dict:
        return {"holds": self.holds, "definition": LEAN["nondegenerate"],
                "zero_rows_W_up": self.zero_rows, "zero_rows_count": self.zero_rows_count,
                "zero_columns_W_down": self.zero_columns,
                "zero_columns_count": self.zero_columns_count,
                "parallel_pairs": self.parallel_pairs, "most_parallel_pair": self.example_pair,
                "max_abs_cos": self.max_abs_cos,
                "parallel_threshold_one_minus_abs_cos": self.threshold,
                "problems": self.problems()}


def cos_threshold(d: int, eps_in: float) -> float:
    """max(64·ε_in, 1e-12, 8·(d + 2)·ε₆₄): the 1 − |cos| below which rows count as parallel."""
    return max(64.0 * eps_in, COS_FLOOR, 8.0 * (d + 2) * _F64)


def nondegeneracy_check(W_down, W_up, eps_in: float = _F64,
                        row_block: int = ROW_BLOCK) -> NondegeneracyCheck:
    """Test ``SkipAbsorption.Nondegenerate W_down W_up`` on float weights (module docstring)."""
    np = need("numpy", "the nondegeneracy check")
    n, d = W_up.shape
    nonzero_row = np.any(W_up != 0, axis=1)
    nonzero_col = np.any(W_down != 0, axis=0)
    zero_rows = [int(i) for i in np.flatnonzero(~nonzero_row)]
    zero_cols = [int(i) for i in np.flatnonzero(~nonzero_col)]
    threshold = cos_threshold(d, eps_in)
    rows = np.flatnonzero(nonzero_row)
    pairs, best, best_pair = 0, -1.0, None
    if rows.size > 1:
        U = W_up[rows].astype(float)
        U = U / np.max(np.abs(U), axis=1, keepdims=True)          # exact up to rounding
        U /= np.linalg.norm(U, axis=1, keepdims=True)
        m = rows.size
        for start in range(0, m, row_block):
            stop = min(m, start + row_block)
            cos = np.abs(U[start:stop] @ U.T)                      # block × m
            # only pairs (i, j) with j > i
            cos[np.arange(stop - start)[:, None] >= (np.arange(m)[None, :] - start)] = 0.0
            pairs += int((cos >= 1.0 - threshold).sum())
            k = int(np.argmax(cos))
            i, j = divmod(k, m)
            if cos[i, j] > best:
                best, best_pair = float(cos[i, j]), [int(rows[start + i]), int(rows[j])]
    holds = not zero_rows and not zero_cols and pairs == 0
    return NondegeneracyCheck(holds, zero_rows[:10], len(zero_rows), zero_cols[:10],
                              len(zero_cols), pairs, best_pair if rows.size > 1 else None,
                              best if rows.size > 1 else None, threshold)


def card_check(S: list[int], d: int, skip: dict | None) -> dict:
    """|S| ≥ d for the S found (Lean ``card_le_of_sCondition``; invertible skip:
    ``card_le_of_sCondition_of_isUnit``; a singular skip A only forces |S| ≥ rank A)."""
    kind = (skip or {}).get("kind", "identity")
    if kind == "identity":
        bound, lean = d, LEAN["card"]
    elif (skip or {}).get("invertible"):
        bound, lean = d, LEAN["card_skip"]
    else:
        bound, lean = int((skip or {}).get("rank", 0)), None
    holds = len(S) >= bound
    return {"S_size": len(S), "bound": bound, "holds": holds, "lean": lean,
            "detail": (f"|S| = {len(S)} ≥ {bound}" if holds else
                       f"|S| = {len(S)} < {bound}: impossible by the theorem — the S found is "
                       "not reliable (numerical problem)")}


def _necessity_family(result) -> str | None:
    """relu / gelu when the paper's necessity theorem is about this family."""
    name = result.analysis.same_as or result.family.name
    return name if name in ("relu", "gelu") else None


def _necessity_name(result, identity: bool) -> str | None:
    """The Lean necessity theorem of a "not absorbable" (None: not stated in Lean): ReLU's
    Thm 8, else the characterisation by the large-scale limit (biased with biases)."""
    from leanbridge.numeric import biased

    if result.biases:
        return biased.biased_characterisation(result.family, result.analysis) if identity \
            else None
    if _necessity_family(result) == "relu":
        return LEAN["necessity_relu"] if identity else LEAN["necessity_relu_skip"]
    return biased.characterisation(result.family, result.analysis, not identity)


def annotate(result, W_down, W_up, A=None, eps_in: float = _F64, seed: int = 0) -> dict:
    """Compute the Lean-backed checks for an :class:`~leanbridge.numeric.absorb.AbsorbResult`
    of a conditional family (``result.decision`` set), store them as ``result.theory`` (keys
    ``card_check``, ``nondegenerate``, ``minimal_width``, ``lean``) and add the necessity
    citation to the summary. A "not absorbable" whose weights fail the Lean nondegeneracy
    test (only possible at the float threshold) becomes "no decision"."""
    from leanbridge.numeric import absorb as absorb_mod
    from leanbridge.numeric import width as width_mod

    if result.decision is None:
        return {}
    start = time.perf_counter()
    d, n = W_down.shape
    family = _necessity_family(result)
    skip = result.skip or {"kind": "identity"}
    identity = skip.get("kind") == "identity"
    invertible = identity or bool(skip.get("invertible"))
    nd = nondegeneracy_check(W_down, W_up, eps_in)
    lean: dict = {"nondegenerate": LEAN["nondegenerate"]}
    theory = {"card_check": None, "nondegenerate": nd.to_dict(), "minimal_width": None,
              "lean": lean}
    if result.S is not None:
        theory["card_check"] = card_check(result.S, d, skip)
        if theory["card_check"]["lean"]:
            lean["S_size"] = theory["card_check"]["lean"]
        lean["sufficiency"] = LEAN["sufficiency"]
    necessity = _necessity_name(result, identity)
    if result.verdict == absorb_mod.NOT_ABSORBABLE and necessity and invertible:
        if nd.holds:
            lean["necessity"] = necessity
            result.summary += (f"; Lean: {necessity} (its hypothesis {LEAN['nondegenerate']} "
                               "holds for these weights)")
        else:
            result.verdict = absorb_mod.NO_DECISION
            result.summary = ("no decision: no S satisfies the S-condition, but necessity "
                              f"({necessity}) needs nondegenerate weights and "
                              f"{LEAN['nondegenerate']} fails: " + "; ".join(nd.problems()))
    elif result.decision.found is False and family is not None and not nd.holds:
        result.notes.append("necessity needs nondegenerate weights: "
                            f"{LEAN['nondegenerate']} fails (" + "; ".join(nd.problems())
                            + ")")
    c = float(result.analysis.facts.odd_coefficient)
    mw = width_mod.minimal_width(result.family, W_down, W_up,
                                 result.S if result.decision.found else None, nd.holds, c,
                                 relu_necessity=family == "relu", identity_skip=A is None,
                                 seed=seed, no_S=result.decision.found is False)
    theory["minimal_width"] = mw
    for role, name in mw.pop("lean").items():
        lean[f"width_{role}"] = name
    result.theory = theory
    result.timings["theory"] = time.perf_counter() - start
    return theory


def text_lines(theory: dict) -> list[str]:
    """The lines ``leanbridge absorb`` prints for :func:`annotate`'s result."""
    if not theory:
        return []
    lines = []
    card = theory.get("card_check")
    if card:
        cite = f" (Lean: {card['lean']})" if card["lean"] else ""
        lines.append(f"|S| ≥ d check: {card['detail']}{cite}")
    nd = theory["nondegenerate"]
    state = "holds" if nd["holds"] else "fails: " + "; ".join(nd["problems"])
    lines.append(f"nondegeneracy (Lean: {nd['definition']}): {state} (rows parallel when "
                 f"1 − |cos| ≤ {nd['parallel_threshold_one_minus_abs_cos']:.1e})")
    mw = theory.get("minimal_width")
    if mw:
        if mw["status"] == "decided":
            head = f"minimal absorbing width: {mw['value']}"
        elif mw["status"] == "bounds" and mw["lower"] is None:
            head = f"minimal absorbing width: at most {mw['upper']} (no lower bound)"
        elif mw["status"] == "bounds" and mw["upper"] is None:
            head = f"minimal absorbing width: at least {mw['lower']} (no upper bound)"
        elif mw["status"] == "bounds":
            head = f"minimal absorbing width: between {mw['lower']} and {mw['upper']}"
        else:
            head = "minimal absorbing width: not checked"
        lines.append(head + (" — " + "; ".join(mw["reasons"]) if mw["reasons"] else ""))
    cites = [f"{role}: {name}" for role, name in theory["lean"].items()
             if name and role not in ("necessity_note",)]
    if cites:
        lines.append("Lean: " + ", ".join(cites) + " (not compiled: no Lean toolchain here)")
    return lines
