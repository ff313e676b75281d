"""Decide every MLP block of a checkpoint: one block's tensors at a time, in a bounded pool.

For each :class:`~leanbridge.numeric.layouts.BlockSpec` the block
``x ↦ x + W_down σ(W_up x + b_up) + b_down`` is decided by
:func:`leanbridge.numeric.absorb.absorb` (the Gram system, rounding certificate and MILP
fallback of ``leanbridge absorb``), with the biases handled as :data:`~.absorb.BIAS_CAVEAT`
says (``ignore_biases`` is a no-op, :data:`~.biased.IGNORE_BIASES_NOTE`). Families whose
answer does not depend on the weights (`never`, `undetermined`, every gated layout) are
answered without reading the weight matrices.

What a verdict means depends on where the layout's normalisation sits (``spec.norm``, recorded
as ``norm_position``): for a post-norm block ``N(x + MLP(x))`` it is the paper's question; for a
pre-norm block ``h + MLP(N(h))`` it is about ``z + MLP(z)`` at the MLP's own input ``z = N(h)``,
and :mod:`~leanbridge.numeric.norm_position` gives the model-level answer ("never") and what an
``--out`` block means (written into its metadata).

Memory: a worker reads its block's tensors (in their stored float32/float64 dtype; float16
and bfloat16 widened to float32, exactly), decides, and drops them before the next block; at
most ``jobs`` blocks are in memory at once.

No result is lost: :func:`iter_scan` hands each record over as its block is decided; a block
whose tensors are bad (NaN or infinite entries, a damaged tensor) becomes a ``bad_input``
record and the scan goes on; the workers are daemon threads, so Ctrl-C (a KeyboardInterrupt
in the thread that iterates) never waits for a block being decided, and the MILP fallback
runs in a child process that is killed (:mod:`leanbridge.numeric.milp`).
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from leanbridge.analysis import CONDITIONAL, analyse
from leanbridge.families import Family
from leanbridge.numeric import absorb as absorb_mod
from leanbridge.numeric import biased as biased_mod
from leanbridge.numeric import norm_position
from leanbridge.numeric.checkpoint import Checkpoint
from leanbridge.numeric.errors import NumericInputError, need
from leanbridge.numeric.layouts import BlockSpec

#: The verdict of a block whose tensors could not be decided (NaN/inf entries, damage).
BAD_INPUT = "bad_input"

#: ``biases`` of a block record.
BIASES_NONE = "none"          # the checkpoint has no bias tensors for this block
BIASES_ZERO = "zero"          # it has them, all zero: the bias-free theorems apply
BIASES_PRESENT = "present"    # nonzero biases: see absorb.BIAS_CAVEAT
BIASES_IGNORED = "ignored"    # (no longer produced: --ignore-biases is a no-op)


@dataclass
class ScanOptions:
    ignore_biases: bool = False
    time_limit: float = 30.0
    seed: int = 0
    out_dir: Path | None = None
    gram_fn: object = None        # leanbridge.numeric.gpu on --device cuda


@dataclass
class BlockRecord:
    """The answer for one block (no arrays: what the table and the JSON report show)."""

    index: int
    name: str
    keys: dict[str, str]
    d: int
    n: int
    dtype: str
    gated: bool
    activation: str
    biases: str
    verdict: str
    summary: str
    numerics: bool
    method: str | None = None
    S: list[int] | None = None
    distance: float | None = None
    relative_distance: float | None = None
    verification_max_relative_error: float | None = None
    blockers: list[str] = field(default_factory=list)
    written: str | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    norm_position: str | None = None   # pre / post: what the verdict means (norm_position.py)

    def to_dict(self) -> dict:
        return {
            "block": self.index, "name": self.name, "keys": self.keys,
            "d": self.d, "n": self.n, "dtype": self.dtype, "gated": self.gated,
            "activation": self.activation, "biases": self.biases, "verdict": self.verdict,
            "summary": self.summary, "numerics": self.numerics, "method": self.method,
            "S": self.S, "S_size": None if self.S is None else len(self.S),
            "distance": self.distance, "relative_distance": self.relative_distance,
            "verification_max_relative_error": self.verification_max_relative_error,
            "blockers": self.blockers, "written": self.written,
            "seconds": round(self.seconds, 6), "notes": self.notes,
            "norm_position": self.norm_position,
        }


def _bias_state(ckpt: Checkpoint, spec: BlockSpec, np):
    """(biases label, {role: float64 vector}) — the vectors only when nonzero and used."""
    if not spec.bias_roles:
        return BIASES_NONE, {}
    vectors = {role: ckpt.read(spec.key(role), ndim=1)[0] for role in spec.bias_roles}
    if not any(np.any(v) for v in vectors.values()):
        return BIASES_ZERO, {}
    return BIASES_PRESENT, vectors


def scan_block(ckpt: Checkpoint, spec: BlockSpec, family: Family,
               options: ScanOptions) -> BlockRecord:
    """Decide one block (reads its tensors only when the family needs numbers)."""
    np = need("numpy", "leanbridge scan")
    start = time.perf_counter()
    keys = {role: info.key for role, info in spec.tensors.items()}
    notes = list(spec.notes)
    biases, vectors = _bias_state(ckpt, spec, np)
    if biases == BIASES_ZERO:
        notes.append("its bias tensors are all zero: the block is bias-free")
    if options.ignore_biases:
        notes.append(biased_mod.IGNORE_BIASES_NOTE)
    if family.gated or analyse(family).verdict != CONDITIONAL:
        result = absorb_mod.absorb_without_numerics(family, None, biases == BIASES_PRESENT)
        result.notes.append("the weight matrices are not read: the family's analysis decides")
    else:
        # As stored (float32 stays float32): the decision forms its float64 products from
        # tiles, so float64 copies of the weights would only double the block's memory.
        W_up, _ = ckpt.read(spec.key("up"), stored=True)
        W_down, _ = ckpt.read(spec.key("down"), stored=True)
        if spec.layout.conv1d:                  # stored in × out: views, no copies
            W_up, W_down = W_up.T, W_down.T
        # Decided on the stored numbers (float16/bfloat16 widened exactly; the tolerance is
        # float64's whatever the stored dtype: see absorb's docstring).
        result = absorb_mod.absorb(
            family, W_down, W_up, None, time_limit=options.time_limit,
            seed=options.seed, b_up=vectors.get("up_bias"), b_down=vectors.get("down_bias"),
            gram_fn=options.gram_fn)
        del W_up, W_down
    record = BlockRecord(
        spec.index, spec.name, keys, spec.d, spec.n, spec.dtype, spec.layout.gated,
        family.name, biases, result.verdict, result.summary, result.numerics,
        blockers=list(result.blockers), notes=notes + list(result.notes),
        norm_position=spec.norm.position if spec.norm else None)
    if result.decision is not None:
        record.method = result.decision.method
    if result.S is not None and result.verdict == absorb_mod.ABSORBABLE:
        record.S = list(result.S)
        record.verification_max_relative_error = result.verification["max_relative_error"]
    if result.distance is not None:
        record.distance = result.distance["distance"]
        record.relative_distance = result.distance["relative"]
    if options.out_dir is not None and record.S is not None and result.V_up is not None:
        record.written = str(write_block(options.out_dir, ckpt, spec, family, result))
    record.seconds = time.perf_counter() - start
    return record


def write_block(out_dir: Path, ckpt: Checkpoint, spec: BlockSpec, family: Family,
                result) -> Path:
    """The absorbing block's tensors under the checkpoint's own names, in its orientation and
    (NumPy-representable) dtype, plus ``leanbridge.S``: ``block-N.safetensors`` (``.npz`` for an
    .npz checkpoint). Only sign flips and the output bias change, so the flips are exact."""
    np = need("numpy", "--out")
    dtype = {"F64": np.float64, "F32": np.float32, "F16": np.float16, "float64": np.float64,
             "float32": np.float32, "float16": np.float16}.get(spec.dtype, np.float32)
    layout = spec.layout

    def stored(matrix):
        return np.ascontiguousarray((matrix.T if layout.conv1d else matrix).astype(dtype))

    up, down = spec.key("up"), spec.key("down")          # the checkpoint's own names
    arrays = {up: stored(result.V_up), down: stored(result.V_down),
              "leanbridge.S": np.asarray(result.S, dtype=np.int64)}
    if result.V_b_up is not None:
        arrays[up[:-len("weight")] + "bias"] = result.V_b_up.astype(dtype)
    if result.V_b_down is not None:
        arrays[down[:-len("weight")] + "bias"] = result.V_b_down.astype(dtype)
    meta = {"leanbridge": norm_position.out_meaning(spec.norm) if spec.norm else
            "absorbing block: this MLP without its skip connection equals the original MLP "
            "with it",
            "norm_position": spec.norm.position if spec.norm else "unknown",
            "activation": family.name, "block": str(spec.index), "name": spec.name}
    from leanbridge.atomic import atomic_file

    target = out_dir / f"block-{spec.index}.{'npz' if ckpt.format == 'npz' else 'safetensors'}"
    # 0644 (or the replaced file's mode); a target that is a symlink, FIFO or device is
    # refused (UnwritableError, an OSError: it stops the scan, as an unwritable --out does)
    with atomic_file(target) as temporary:
        if ckpt.format == "npz":
            with open(temporary, "wb") as stream:
                np.savez(stream, **arrays)
        else:
            need("safetensors", "--out")
            from safetensors.numpy import save_file

            save_file(arrays, str(temporary), metadata=meta)
    return target


def bad_input_record(spec: BlockSpec, family: Family, error: Exception) -> BlockRecord:
    """The record of a block whose tensors cannot be decided (the scan goes on)."""
    keys = {role: info.key for role, info in spec.tensors.items()}
    return BlockRecord(spec.index, spec.name, keys, spec.d, spec.n, spec.dtype,
                       spec.layout.gated, family.name, BIASES_NONE, BAD_INPUT,
                       f"bad input: {error}", False, notes=list(spec.notes),
                       norm_position=spec.norm.position if spec.norm else None)


def decide_block(ckpt: Checkpoint, spec: BlockSpec, family: Family,
                 options: ScanOptions) -> BlockRecord:
    """:func:`scan_block`, with bad tensors (NaN/inf, damage) as a ``bad_input`` record."""
    start = time.perf_counter()
    try:
        return scan_block(ckpt, spec, family, options)
    except NumericInputError as exc:
        record = bad_input_record(spec, family, exc)
        record.seconds = time.perf_counter() - start
        return record


def iter_scan(ckpt: Checkpoint, specs: list[BlockSpec], family: Family,
              options: ScanOptions, jobs: int = 1):
    """Decide ``specs`` with at most ``jobs`` blocks at once, yielding each record as its
    block is decided (completion order). Workers are daemon threads: leaving the iteration
    early (Ctrl-C, an error) stops them from starting new blocks and never waits for the
    ones being decided. An error other than bad input (an unwritable --out) stops the scan
    and is raised."""
    _warm_up(family)
    todo: queue.SimpleQueue = queue.SimpleQueue()
    for spec in specs:
        todo.put(spec)
    done: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()

    def worker() -> None:
        while not stop.is_set():
            try:
                spec = todo.get_nowait()
            except queue.Empty:
                return
            try:
                done.put((decide_block(ckpt, spec, family, options), None))
            except BaseException as exc:  # noqa: BLE001 - handed to the iterating thread
                done.put((None, exc))

    for k in range(max(1, min(jobs, len(specs)))):
        threading.Thread(target=worker, name=f"leanbridge-scan-{k}", daemon=True).start()
    try:
        for _ in specs:
            while True:
                try:
                    record, error = done.get(timeout=0.1)   # Ctrl-C is seen within 0.1 s
                    break
                except queue.Empty:
                    continue
            if error is not None:
                raise error
            yield record
    finally:
        stop.set()


def _warm_up(family: Family) -> None:
    """One-time costs before the first block (so that its seconds are comparable): SymPy's
    analysis and lambdify (cached), SciPy's optimize/linalg imports (MILP, L-BFGS-B)."""
    if not family.gated and analyse(family).verdict == CONDITIONAL:
        from leanbridge.numeric.activations import numeric_activation

        numeric_activation(family)
        need("scipy.linalg", "leanbridge scan")
        need("scipy.optimize", "leanbridge scan")


def scan(ckpt: Checkpoint, specs: list[BlockSpec], family: Family, options: ScanOptions,
         jobs: int = 1, on_done=None) -> list[BlockRecord]:
    """Decide ``specs`` with at most ``jobs`` blocks at once (:func:`iter_scan`); records in
    block order. ``on_done(record)`` is called as each block finishes."""
    records: dict[int, BlockRecord] = {}
    for record in iter_scan(ckpt, specs, family, options, jobs):
        records[record.index] = record
        if on_done:
            on_done(record)
    return [records[spec.index] for spec in specs]


def summary(records: list[BlockRecord], seconds: float) -> dict:
    counts = {verdict: sum(r.verdict == verdict for r in records)
              for verdict in (absorb_mod.ABSORBABLE, absorb_mod.NOT_ABSORBABLE,
                              absorb_mod.NO_DECISION, BAD_INPUT)}
    return {"blocks": len(records), **counts,
            "bad_input_blocks": [r.index for r in records if r.verdict == BAD_INPUT],
            "no_decision_because_of_biases": sum("biases" in r.blockers for r in records),
            "absorbable_blocks": [r.index for r in records
                                  if r.verdict == absorb_mod.ABSORBABLE],
            "seconds": round(seconds, 6)}


def exit_code(records: list[BlockRecord]) -> int:
    """0: every block decided; 1: some block has no decision (as ``absorb``); 2: some block
    had bad input (the others were decided all the same)."""
    if any(r.verdict == BAD_INPUT for r in records):
        return 2
    return 1 if any(r.verdict == absorb_mod.NO_DECISION for r in records) else 0


__all__ = ["BAD_INPUT", "BIASES_IGNORED", "BIASES_NONE", "BIASES_PRESENT", "BIASES_ZERO",
           "BlockRecord", "ScanOptions", "decide_block", "exit_code", "iter_scan", "scan",
           "scan_block", "summary", "write_block"]
