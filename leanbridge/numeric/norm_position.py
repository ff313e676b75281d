"""What a scan's answer means, by where the normalisation sits: the model-level answer and the
block-level question.

*Post-norm* (BERT, RoBERTa, DistilBERT, OPT with ``do_layer_norm_before = false``): a block is
``N(x + MLP(x))``; the skip and the MLP read the same ``x``, so removing the skip is the paper's
question, and the block verdicts answer it (an absorbable block gives ``N(x + MLP(x)) =
N(V(x))``).

*Pre-norm* (GPT-2, GPT-NeoX, GPT-J, OPT by default, LLaMA, Mistral, Qwen2, Gemma, Phi-3, T5,
Falcon, BLOOM): a block is ``h + MLP(N(h))``; the skip carries ``h`` while the MLP reads
``N(h)``. At model level the answer is **never**: LayerNorm and RMSNorm (``ε > 0``, finite gain)
have bounded output, so any continuous ``G(N(h))`` is bounded in ``h`` while ``h + MLP(N(h))``
is not (:data:`LEAN_BOUNDED`); LayerNorm also forgets the mean, ``N(h + c·1) = N(h)``, so no
function ``G`` at all works (:data:`LEAN_NOT_INJECTIVE`). What the blocks are still decided for
is ``z + MLP(z)`` at the MLP's own input ``z = N(h)``: a skip around the MLP's input, which the
model does not have — shown, and labelled as that.
"""

from __future__ import annotations

from leanbridge.lean.library import PRE_NORM_LEAN
from leanbridge.numeric.layouts import POST_NORM, PRE_NORM, NormSite

LEAN_BOUNDED = PRE_NORM_LEAN["bounded"]
LEAN_NOT_INJECTIVE = PRE_NORM_LEAN["not_injective"]
LEAN_STATUS = "not compiled: no Lean toolchain here"

#: ``model_level.answer``
NEVER = "never"            # pre-norm: no function of N(h) absorbs the residual
PER_BLOCK = "per_block"    # post-norm: the paper's question, decided block by block


def theorems(site: NormSite) -> list[str]:
    """The Lean theorems behind "never" for a pre-norm site (none for post-norm)."""
    if site.position != PRE_NORM:
        return []
    return [LEAN_BOUNDED] + ([LEAN_NOT_INJECTIVE] if site.kind == "LayerNorm" else [])


def model_level(site: NormSite) -> dict:
    """The model-level answer: the question, the answer and the Lean names it cites."""
    if site.position == POST_NORM:
        return {
            "answer": PER_BLOCK,
            "question": "can the residual x + MLP(x) inside N(x + MLP(x)) be removed?",
            "text": ("post-norm: the skip and the MLP read the same x inside "
                     "N(x + MLP(x)), so this is the paper's question, decided per block "
                     "below; an absorbable block gives N(x + MLP(x)) = N(V(x))"),
            "lean": [], "lean_status": None}
    bounded = (f"{site.kind} has bounded output (ε > 0, finite gain), so any continuous "
               "G(N(h)) is bounded in h while h + MLP(N(h)) is not "
               f"({LEAN_BOUNDED})")
    mean = ("; LayerNorm also forgets the mean, N(h + c·1) = N(h), so no function G at all "
            f"does ({LEAN_NOT_INJECTIVE})" if site.kind == "LayerNorm" else "")
    return {
        "answer": NEVER,
        "question": "can the residual h + MLP(N(h)) be replaced by a block reading N(h)?",
        "text": (f"never (pre-norm): h + MLP(N(h)) is no function G(N(h)) of what the MLP "
                 f"reads: {bounded}{mean}; {LEAN_STATUS}"),
        "lean": theorems(site), "lean_status": LEAN_STATUS}


def block_level(site: NormSite) -> dict:
    """What the block verdicts decide, and what an ``--out`` block means."""
    if site.position == POST_NORM:
        return {"question": "x + W_down σ(W_up x) as a residual-free block (the paper's question)",
                "text": "the paper's question x + MLP(x), the model's own residual",
                "out": out_meaning(site)}
    return {"question": ("z + W_down σ(W_up z) at the MLP's own input z = N(h): a skip around "
                         "the MLP's input, not the model's residual"),
            "text": ("z + MLP(z) at the MLP's own input z = N(h) — a skip around the MLP's "
                     "input that the model does not have, not the model's residual h"),
            "out": out_meaning(site)}


def out_meaning(site: NormSite) -> str:
    """What the weights ``--out`` writes for an absorbable block mean, for this site."""
    if site.position == POST_NORM:
        return ("absorbing block: V(x) = x + MLP(x), so N(x + MLP(x)) = N(V(x)); remove the "
                "residual connection around this MLP")
    return ("block-level absorbing block: V(z) = z + MLP(z) at the MLP's own input z = N(h); "
            "it does not remove the model's residual (pre-norm: never, "
            f"{LEAN_BOUNDED}): h + MLP(N(h)) = h - N(h) + V(N(h))")


def text_lines(site: NormSite, source: str) -> list[str]:
    """The lines the text report prints: the norm, the model-level answer, the block level."""
    kind = "pre-norm" if site.position == PRE_NORM else "post-norm"
    return [f"norm: {kind}, {site.kind} {site.where} — {source}",
            f"model level: {model_level(site)['text']}",
            f"each row (block level): {block_level(site)['text']}"]


__all__ = ["LEAN_BOUNDED", "LEAN_NOT_INJECTIVE", "LEAN_STATUS", "NEVER", "PER_BLOCK",
           "block_level", "model_level", "out_meaning", "text_lines", "theorems"]
