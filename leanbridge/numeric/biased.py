"""Blocks with biases: which theorem decides them, and what ``absorb``/``scan`` say.

A real block is f(x) = x + W_down σ(W_up x + b) + e. Its biased absorbability asks for a block
V_down σ(V_up x + b′) + e′ of the same width (with biases of its own, the output bias e′
included) equal to f everywhere (``SkipAbsorption.BiasedAbsorbable``).

* **Sufficiency** (any σ with σ(z) − σ(−z) = c·z, c ≠ 0): under the S-condition
  W_down[:,S] W_up[S,:] = −I/c, the block V_up = W_up and b′ = b with the rows/entries in S
  negated, V_down = W_down, e′ = e + c·W_down D_S b equals f (recession.md §5; Lean:
  ``biasedAbsorbable_of_sCondition``). ``absorb`` constructs it and verifies it on random
  inputs.
* **Necessity** (R4): evaluating the identity at t·x and dividing by t, σ(t z + β)/t → relu z
  for ReLU, GELU, GELU-tanh, SiLU and softplus (|σ − relu| is bounded), so the biased block's
  identity gives the bias-free ReLU identity with the same weights: for nondegenerate weights
  the S-condition is necessary, biases or not (Lean: ``biasedAbsorbable_<σ>_iff``, identity
  skip).
* **Never** (R2 with biases): for bounded σ (tanh, sigmoid) no biased block absorbs a skip
  A ≠ 0 (``not_biasedAbsorbable_tanh``, ``not_biasedAbsorbable_sigmoid``,
  ``eq_zero_of_biasedAbsorbable_of_bounded``).

Other `never` families (ReLU², |z|, …: the degree, linearisation and parity arguments are for
bias-free blocks) and the biased question with a skip A ≠ I stay "no decision" with a blocker
``biases`` that says which theorem is missing. Nothing here is compiled: the names are cited
from :data:`leanbridge.lean.library.RECESSION_NAMES`.
"""

from __future__ import annotations

from leanbridge.analysis import NEVER, RECESSION, RECESSION_RELU, Analysis, s_condition_theorems
from leanbridge.families import CATALOG, Family
from leanbridge.lean import library

NOT_COMPILED = "not compiled: no Lean toolchain here"

#: What every report with biases says (``leanbridge scan --help``, its reports, the README).
BIAS_CAVEAT = ("with biases the S-condition decides as without them: the sign-flip "
               "construction still works (negate the rows of W_up and the up-bias entries in S, "
               "and add c·Σ_{i∈S} b_i w_i to the output bias) and, by the large-scale limit "
               "(R4), the condition is also necessary for ReLU, GELU, GELU-tanh, SiLU and "
               "softplus blocks with nondegenerate weights; tanh and sigmoid blocks never "
               "absorb the skip, biases or not")

#: The summary head of a block whose "not absorbable" no biased theorem covers.
NO_DECISION_BIASES = "no decision (biases: no theorem for this block with biases)"

#: ``scan --ignore-biases`` is a no-op: the biases never change the verdict of the families
#: R4 covers, and dropping them would decide another block.
IGNORE_BIASES_NOTE = ("--ignore-biases is a no-op: with biases the verdict is the same "
                      "S-condition (R4), so the blocks are decided with their biases")


def _catalog_name(family: Family, analysis: Analysis) -> str | None:
    """The catalog family whose Lean theorems apply: the family itself, or the catalog family
    with the same function (``same_as``)."""
    if any(f == family for f in CATALOG):
        return family.name
    return analysis.same_as


def biased_characterisation(family: Family, analysis: Analysis) -> str | None:
    """The Lean iff for the biased block with the identity skip (None if there is none)."""
    name = _catalog_name(family, analysis)
    if name is None or RECESSION_RELU not in analysis.argument_names:
        return None
    return library.RECESSION_FAMILIES.get(name, {}).get("biased_characterisation")


def characterisation(family: Family, analysis: Analysis, skip: bool) -> str | None:
    """The Lean iff (bias-free) behind a "not absorbable": identity skip, or invertible skip
    A when ``skip``. ReLU: the paper's Thm 8; GELU, GELU-tanh, SiLU, softplus: R3; the kink
    argument (Leaky ReLU, σ = a·z + b·|z|): identity skip only."""
    name = _catalog_name(family, analysis)
    if name == "relu":
        return library.RELU_LEAN["characterisation_skip" if skip else "characterisation"]
    if analysis.kink is not None:
        return None if skip else s_condition_theorems(analysis)["characterisation"]
    if name is None or RECESSION_RELU not in analysis.argument_names:
        return None
    return library.RECESSION_FAMILIES.get(name, {}).get(
        "characterisation_skip" if skip else "characterisation")


def never_with_biases(family: Family, analysis: Analysis) -> tuple[bool, str]:
    """A `never` family with biases: (decided, summary). Decided for bounded σ (R2 with
    biases); otherwise the never-theorem is for bias-free blocks only."""
    assert analysis.verdict == NEVER
    rec = analysis.recession
    if RECESSION in analysis.argument_names and rec is not None and rec.bounded:
        name = _catalog_name(family, analysis)
        own = library.BOUNDED_FAMILIES.get(name or "", {}).get("biased_never")
        lean = own or (library.RECESSION_LEAN["biased_bounded"]
                       + ", with the bound on σ verified by SymPy")
        return True, (f"not absorbable for any weights, biases or not: {family.display} is "
                      "bounded, so evaluating the identity at t·x and dividing by t gives "
                      f"A x = 0 as t → ∞ (R2 with biases; Lean: {lean}; {NOT_COMPILED}); no "
                      "numerics needed")
    return False, (f"{NO_DECISION_BIASES}: {family.display} is a 'never' family "
                   f"({', '.join(analysis.argument_names)}) for bias-free blocks; that theorem "
                   "does not cover a block with biases")


def bias_blocker(family: Family, analysis: Analysis, skip_given: bool) -> str | None:
    """Why a failed S-condition of a block with biases is not "not absorbable" (None: R4
    covers it)."""
    if skip_given:
        return ("the block has biases and a skip matrix: the biased characterisation is stated "
                "for the identity skip only")
    if biased_characterisation(family, analysis) is None:
        return (f"the block has biases and the biased characterisation is stated in Lean for "
                f"ReLU, GELU, GELU-tanh, SiLU and softplus, not for {family.display}")
    return None


def necessity_citation(family: Family, analysis: Analysis, biases: bool, skip: bool) -> str:
    """The theorem a "not absorbable" rests on, as the summary quotes it."""
    name = _catalog_name(family, analysis) or family.name
    if biases:
        lean = biased_characterisation(family, analysis)
        return (f"by the large-scale limit with biases (R4; Lean: {lean}: nondegenerate "
                f"weights, any d; {NOT_COMPILED}) that condition is necessary for the block "
                "with its biases")
    lean = characterisation(family, analysis, skip)
    if name == "relu":
        paper = "the paper's Thm 8" + (" and Lemma 4" if skip else "")
    elif name == "gelu":
        paper = "the paper's Thm 10 (by the large-scale limit, R3)" + (
            " and Lemma 4" if skip else "")
    elif analysis.kink is not None:
        paper = "the kink argument of the paper's Thm 8 (recession.md §6)" + (
            " and Lemma 4" if skip else "")
    else:
        paper = "the large-scale limit (R3)" + (" and Lemma 4" if skip else "")
    if lean is None:
        return f"by {paper} (nondegenerate weights, d ≥ 2) that condition is necessary"
    skip_text = ", A invertible" if skip else ""
    return (f"by {paper} (hypotheses as in its Lean statement {lean}: nondegenerate "
            f"weights{skip_text}, any d; {NOT_COMPILED}) that condition is necessary")


def read_biases(wf, block, up_key: str | None = None, down_key: str | None = None):
    """The biases of a block read by ``leanbridge absorb`` from a weight file: (b_up, b_down),
    each a float64 vector or None; notes about them go to ``block.notes``.

    A bias belongs to W_up when its key is W_up's with ``weight`` → ``bias`` (``fc1.bias``
    beside ``fc1.weight``) or is named ``b_up``; likewise W_down and ``b_down``; otherwise by
    its length when that decides (n ≠ d, one vector of that length). Others are ignored, and
    the note says so."""
    keys = wf.bias_keys()
    block.notes[:] = [n for n in block.notes if not n.startswith("the file has biases (")]
    if not keys:
        return None, None
    up_key = up_key or block.keys.get("up")
    down_key = down_key or block.keys.get("down")
    d, n = block.d, block.n
    found: dict[str, tuple[str, object]] = {}
    vectors = {}
    for key in keys:
        vector, _ = wf.read(key, f"bias {key!r}", ndim=1)
        vectors[key] = vector
    for key, vector in vectors.items():
        last = key.rsplit(".", 1)[-1].lower()
        for role, weight, name, size in (("up", up_key, "b_up", n), ("down", down_key, "b_down", d)):
            beside = weight is not None and weight.endswith("weight") and \
                key == weight[:-len("weight")] + "bias"
            if (beside or last == name) and len(vector) == size and role not in found:
                found[role] = (key, vector)
    for role, size in (("up", n), ("down", d)):
        if role in found or n == d:
            continue
        same = [k for k, v in vectors.items() if len(v) == size
                and k not in {key for key, _ in found.values()}]
        if len(same) == 1:
            found[role] = (same[0], vectors[same[0]])
    used = {key for key, _ in found.values()}
    if used:
        block.notes.append(
            "biases used: the block is x ↦ x + W_down σ(W_up x + b_up) + b_down with "
            + ", ".join(f"b_{role} = {key!r}" for role, (key, _) in sorted(found.items())
                        if role in ("up", "down")))
    ignored = [k for k in keys if k not in used]
    if ignored:
        block.notes.append(f"bias tensors not attributed to W_up or W_down, ignored: "
                           f"{', '.join(repr(k) for k in ignored)}")
    return (found.get("up", (None, None))[1], found.get("down", (None, None))[1])
