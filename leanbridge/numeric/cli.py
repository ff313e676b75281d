"""The ``absorb`` and ``probe`` Click commands (registered by ``leanbridge.cli``).

NumPy/SciPy are imported inside the commands only, so ``leanbridge --help`` works without the
``numeric`` extra; without it the commands stop with one line naming the pip command.

Exit codes: 0 a decision was reached (absorb: absorbable or not absorbable; probe: done),
1 no decision could be reached (absorb only: undetermined family, S-condition fails where the
paper's necessity does not apply, MILP time limit), 2 bad input (missing file or key, shape
mismatch, unknown activation, missing optional dependency) — one line on stderr, no traceback.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import click

from leanbridge.families import UnknownFamilyError, get_family
from leanbridge.numeric.errors import NumericInputError, need

EXIT_OK = 0
EXIT_NO_DECISION = 1
EXIT_INPUT = 2


class NumericUsageError(click.ClickException):
    """Printed as one line ``Error: …`` on stderr, exit code 2 (same as ``leanbridge.cli``'s
    InputError; defined here so that this module does not import ``leanbridge.cli``)."""

    exit_code = EXIT_INPUT


def _family(name: str | None):
    if not name:
        raise NumericUsageError("--activation NAME is required (see 'leanbridge families')")
    try:
        return get_family(name)
    except UnknownFamilyError as exc:
        raise NumericUsageError(str(exc)) from None


def _numeric_stack(command: str) -> None:
    """Import NumPy and SciPy or stop with exit 2 and the pip command."""
    try:
        need("numpy", f"leanbridge {command}")
        need("scipy", f"leanbridge {command}")
    except NumericInputError as exc:
        raise NumericUsageError(str(exc)) from None


def _json_default(value):
    """NumPy scalars and arrays (the only non-JSON values the results hold)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


def _dumps(data) -> str:
    return json.dumps(_finite(data), indent=2, ensure_ascii=False, default=_json_default)


def _finite(value):
    """JSON has no inf/nan: write them as strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


# --------------------------------------------------------------------------------------------
# absorb
# --------------------------------------------------------------------------------------------

ABSORB_HELP = """Can this block's skip be folded into its MLP? Decide it on real weights.

\b
The block is  x ↦ A x + W_down σ(W_up x)  (A = I unless --skip), read from WEIGHTS:
  .npz, .safetensors, or a PyTorch .pt/.pth/.bin state dict (needs torch).
Orientation is nn.Linear's (out × in): W_down d×n, W_up n×d, A d×d; files
storing (in × out), like GPT-2's Conv1D (c_fc, c_proj), need --transpose.
Default keys: the only key named like W_down (w_down, down, down_proj, fc2,
mlp.c_proj, dense_4h_to_h) / W_up (w_up, up, up_proj, fc1, c_fc,
dense_h_to_4h); an error lists the available keys otherwise.

\b
By the family's analysis verdict ('leanbridge analyse NAME'):
  never         not absorbable for any weights (the theorem is quoted; no numerics)
  undetermined  no decision is possible (exit 1)
  conditional   σ(z) − σ(−z) = c·z: decide whether some S ⊆ {0..n−1} has
                W_down[:,S] W_up[S,:] = −A/c  (for A = I: −I/c; paper Thm 8/10,
                Lemma 4), without enumerating subsets: Gram system
                G = (W_downᵀW_down) ∘ (W_up W_upᵀ), least squares, rounding with an
                exact certificate when G is nonsingular, MILP (HiGHS) with
                --time-limit when it is singular (n > d², degenerate weights).

\b
If S exists: absorbable — V_up = W_up with the rows in S negated, V_down = W_down
(written with --out), verified on random inputs (max relative error).
If not: the relaxed distance min over a ∈ [0,1]^n of ‖W_down diag(a) W_up + A/c‖_F,
and "not absorbable" when the paper proves the condition necessary (ReLU, GELU;
A invertible; nondegenerate weights; d ≥ 2) — "no decision" (exit 1) otherwise.
S is reported with 0-based indices. Tolerance: the condition must hold to
1e-9·‖A/c‖_F + 16·(ε_dtype + √n·ε64)·Σ_{i∈S}‖w_i‖‖u_i‖ in Frobenius norm.

\b
Exit codes: 0 decided (absorbable or not absorbable), 1 no decision,
2 bad input (one line on stderr).
"""


@click.command(name="absorb", help=ABSORB_HELP)
@click.argument("weights", metavar="WEIGHTS", required=False)
@click.option("--activation", "activation", metavar="NAME",
              help="Catalog family, e.g. relu, gelu, swiglu (see 'leanbridge families').")
@click.option("--down", "down_key", metavar="KEY", help="Key of W_down (d×n).")
@click.option("--up", "up_key", metavar="KEY", help="Key of W_up (n×d).")
@click.option("--skip", "skip_key", metavar="KEY",
              help="Key of a linear skip A (d×d); default: the identity skip.")
@click.option("--transpose", is_flag=True,
              help="The file stores (in × out) matrices (GPT-2 Conv1D): transpose them.")
@click.option("--out", "out_path", metavar="PATH",
              help="When absorbable: write V_up, V_down, S to PATH (.npz or .safetensors).")
@click.option("--time-limit", "time_limit", type=float, default=30.0, show_default=True,
              metavar="SECONDS", help="Time limit of the MILP fallback.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the random verification inputs.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def absorb(weights: str | None, activation: str | None, down_key: str | None,
           up_key: str | None, skip_key: str | None, transpose: bool, out_path: str | None,
           time_limit: float, seed: int, as_json: bool) -> None:
    family = _family(activation)
    if not weights:
        raise NumericUsageError("missing WEIGHTS (a .npz, .safetensors or .pt file)")
    if out_path is not None and Path(out_path).suffix.lower() not in (".npz", ".safetensors"):
        raise NumericUsageError(f"--out {out_path}: the extension must be .npz or .safetensors")
    if not time_limit > 0:
        raise NumericUsageError("--time-limit must be positive")
    _numeric_stack("absorb")
    from leanbridge.analysis import CONDITIONAL, analyse
    from leanbridge.numeric import absorb as absorb_mod
    from leanbridge.numeric.weights import WeightFile, block_from

    analysis = analyse(family)
    try:
        wf = WeightFile(weights)
        source = {"path": str(wf.path), "format": wf.format}
        if family.gated or analysis.verdict != CONDITIONAL:
            for key, option in ((down_key, "--down"), (up_key, "--up")):
                if key is not None:
                    wf.require(key, option)
            skip_zero = None
            if skip_key is not None:
                A = wf.array(skip_key, "--skip")
                if A.shape[0] != A.shape[1]:
                    raise NumericInputError(f"--skip {skip_key!r} is {A.shape[0]}×{A.shape[1]}; "
                                            "the skip must be square (d×d)")
                skip_zero = not A.any()
            result = absorb_mod.absorb_without_numerics(family, skip_zero)
            result.notes.append("the weights are not needed for this answer (only the file and "
                                "the given keys were checked)")
        else:
            block = block_from(wf, down_key, up_key, skip_key, transpose)
            source.update(keys=block.keys, stored_dtype_eps=block.eps, transposed=transpose)
            result = absorb_mod.absorb(family, block.W_down, block.W_up, block.A, block.eps,
                                       time_limit=time_limit, seed=seed, notes=block.notes)
    except NumericInputError as exc:
        raise NumericUsageError(str(exc)) from None

    written = None
    if out_path is not None:
        if result.V_up is not None and result.verdict == absorb_mod.ABSORBABLE:
            try:
                written = _write_block(out_path, result)
            except OSError as exc:
                raise NumericUsageError(f"cannot write {out_path}: {exc.strerror or exc}") \
                    from None
            except NumericInputError as exc:
                raise NumericUsageError(str(exc)) from None
        else:
            result.notes.append(f"--out {out_path}: nothing written (no absorbing block)")

    if as_json:
        data = result.to_dict()
        data["weights"] = source
        data["written"] = written
        data["exit_code"] = _exit_code(result.verdict, absorb_mod)
        click.echo(_dumps(data))
    else:
        click.echo(_absorb_text(result, source, written))
    sys.exit(_exit_code(result.verdict, absorb_mod))


def _exit_code(verdict: str, absorb_mod) -> int:
    if verdict in (absorb_mod.ABSORBABLE, absorb_mod.NOT_ABSORBABLE):
        return EXIT_OK
    return EXIT_NO_DECISION


def _write_block(path: str, result) -> str:
    import numpy as np

    arrays = {"V_up": np.ascontiguousarray(result.V_up),
              "V_down": np.ascontiguousarray(result.V_down),
              "S": np.asarray(result.S, dtype=np.int64)}
    target = Path(path)
    if target.suffix.lower() == ".npz":
        with open(target, "wb") as stream:
            np.savez(stream, **arrays)
    else:
        need("safetensors", "--out PATH.safetensors")
        from safetensors.numpy import save_file

        save_file(arrays, str(target), metadata={
            "leanbridge": "absorbing block: V_down sigma(V_up x) = A x + W_down sigma(W_up x)",
            "activation": result.family.name})
    return str(target)


def _ranges(indices: list[int], limit: int = 40) -> str:
    """0,1,2,5,7,8 → '0–2, 5, 7–8' (shortened when long)."""
    parts: list[str] = []
    i = 0
    while i < len(indices):
        j = i
        while j + 1 < len(indices) and indices[j + 1] == indices[j] + 1:
            j += 1
        parts.append(str(indices[i]) if i == j else f"{indices[i]}–{indices[j]}")
        i = j + 1
    text = ", ".join(parts[:limit])
    return text + (f", … ({len(parts) - limit} more runs)" if len(parts) > limit else "")


def _absorb_text(result, source: dict, written: str | None) -> str:
    fam = result.family
    lines = [f"activation: {fam.display} ({fam.name}); analysis verdict: "
             + result.analysis.verdict]
    where = f"weights: {source['path']} ({source['format']})"
    if "keys" in source:
        keys = source["keys"]
        shapes = result.shapes
        skip = repr(keys["skip"]) if "skip" in keys else "identity"
        where += (f": W_down {keys['down']!r}, W_up {keys['up']!r}, skip {skip}; "
                  f"d = {shapes['d']}, n = {shapes['n']}")
    lines.append(where)
    if result.skip and result.skip.get("kind") == "matrix":
        sk = result.skip
        lines.append(f"skip: rank {sk['rank']}, condition number {sk['condition_number']:.3g}; "
                     f"{sk['lemma4']}")
    dec = result.decision
    if dec is not None:
        state = {True: "S found", False: "no S", None: "undecided"}[dec.found]
        lines.append(f"S-condition: {state} ({dec.method}): {dec.detail}")
        if dec.residual is not None:
            lines.append(f"  residual ‖W_down[:,S] W_up[S,:] + A/c‖_F = {dec.residual:.3e} "
                         f"(tolerance {dec.tolerance:.3e})")
        else:
            lines.append(f"  tolerance {dec.tolerance:.3e}")
        gram = dec.gram
        if "singular" in gram:
            state = "singular — " + gram["reason"] if gram.get("singular") else \
                f"nonsingular (reciprocal condition ≈ {gram.get('rcond', float('nan')):.1e})"
            lines.append(f"  Gram matrix ({gram['active_units']}×{gram['active_units']}): "
                         f"{state}")
    if result.S is not None:
        lines.append(f"S ({len(result.S)} units, 0-based): {_ranges(result.S)}")
    if result.verification:
        v = result.verification
        lines.append(f"verification: max relative error {v['max_relative_error']:.2e} "
                     f"(median {v['median_relative_error']:.1e}) on {v['points']} random inputs")
    if result.distance:
        dist = result.distance
        lines.append(f"distance to the nearest absorbable configuration (relaxed): "
                     f"{dist['distance']:.6g} (relative to ‖A/c‖_F: {dist['relative']:.4g})")
    if written:
        lines.append(f"wrote V_up, V_down, S to {written}")
    verdict = {"absorbable": "ABSORBABLE", "not_absorbable": "NOT ABSORBABLE",
               "no_decision": "NO DECISION"}[result.verdict]
    lines.append(f"verdict: {verdict} — {result.summary}")
    lines.extend(f"  - {reason}" for reason in result.reasons)
    lines.extend(f"note: {note}" for note in result.notes)
    if result.timings:
        total = sum(result.timings.values())
        lines.append(f"time: {total:.2f} s (" + ", ".join(
            f"{k} {v:.2f}" for k, v in result.timings.items()) + ")")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# probe
# --------------------------------------------------------------------------------------------

PROBE_HELP = """Fit a residual-free block to x + block(x) numerically, on shrinking balls.

\b
For each --activation (repeatable) and random weights (seeded), the target is
x + W_down σ(W_up x) (gated: x + W_down (g(W_gate x) ⊙ (W_val x))). On balls of
each radius a residual-free block of the same kind and width n is fitted with
SciPy's L-BFGS-B (hand-written gradients) from R starts: the target's weights
without the skip, R−1 random ones, and the previous radius's best fit; the
best fits of the other radii are also evaluated. The fit with the smallest
training error is kept; the table gives its relative error on fresh test
points per radius (seeded: the same arguments give the same numbers).

\b
What to expect:
  never families          bounded away from 0 as r → 0 (the skip's linear
                          term cannot be matched)
  relu/gelu with --planted ≈ 0 at every radius (the sign-flip block exists)
  generic smooth σ        → 0 as r → 0 (only the linear part is seen locally;
                          that is not absorption)

\b
Exit codes: 0 done, 2 bad input (one line on stderr).
"""


def _parse_radii(text: str) -> list[float]:
    try:
        radii = [float(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise NumericUsageError(f"--radii {text!r}: give comma-separated positive numbers, "
                                "e.g. 10,1,0.1,0.01") from None
    if not radii or any(not (r > 0 and r < float("inf")) for r in radii):
        raise NumericUsageError(f"--radii {text!r}: every radius must be a positive number")
    if len(set(radii)) != len(radii):
        raise NumericUsageError(f"--radii {text!r}: radii must be distinct")
    return radii


@click.command(name="probe", help=PROBE_HELP)
@click.option("--activation", "activations", metavar="NAME", multiple=True,
              help="Catalog family; repeat for several curves on one plot.")
@click.option("--d", "d", type=int, metavar="D", help="Input/output dimension d.")
@click.option("--n", "n", type=int, metavar="N", help="Hidden width n.")
@click.option("--restarts", type=int, default=3, show_default=True, metavar="R",
              help="Starts per radius (warm + R−1 random; plus the continuation start).")
@click.option("--radii", "radii_text", default="10,1,0.1,0.01", show_default=True,
              metavar="R1,R2,…", help="Comma-separated ball radii.")
@click.option("--planted", is_flag=True,
              help="Plant an S of size d (W_down[:,S] = −W_up[S,:]⁻¹/c) in the target; "
                   "conditional (ungated) families only (with several --activation: those "
                   "that can, the others get random weights).")
@click.option("--maxiter", type=int, default=1000, show_default=True,
              help="L-BFGS-B iterations per start.")
@click.option("--plot", "plot_path", metavar="PATH",
              help="Write a PNG of error vs radius (needs matplotlib).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def probe(activations: tuple[str, ...], d: int | None, n: int | None, restarts: int,
          radii_text: str, planted: bool, maxiter: int, plot_path: str | None, seed: int,
          as_json: bool) -> None:
    if not activations:
        raise NumericUsageError("--activation NAME is required (repeatable; see "
                                "'leanbridge families')")
    families = [_family(name) for name in activations]
    if d is None or n is None:
        raise NumericUsageError("--d D and --n N are required")
    if d < 1 or n < 1:
        raise NumericUsageError(f"--d and --n must be positive integers (got d = {d}, n = {n})")
    if restarts < 1:
        raise NumericUsageError("--restarts must be at least 1")
    if maxiter < 1:
        raise NumericUsageError("--maxiter must be at least 1")
    radii = _parse_radii(radii_text)
    if plot_path is not None and Path(plot_path).suffix.lower() != ".png":
        raise NumericUsageError(f"--plot {plot_path}: the file must end in .png")
    _numeric_stack("probe")
    from leanbridge.numeric import probe as probe_mod

    if plot_path is not None:
        try:
            need("matplotlib", "--plot", pip="pip install 'leanbridge[numeric]' (or: pip "
                                                 "install matplotlib)")
        except NumericInputError as exc:
            raise NumericUsageError(str(exc)) from None
    plantable = [probe_mod.can_plant(family) for family in families]
    if planted and len(families) > 1 and any(plantable):
        # several curves: plant where possible, random weights for the others
        plant = plantable
    else:
        plant = [planted] * len(families)
    results = []
    try:
        for family, plant_this in zip(families, plant):
            results.append(probe_mod.probe(family, d, n, radii, restarts, seed, plant_this,
                                           maxiter=maxiter))
    except NumericInputError as exc:
        raise NumericUsageError(str(exc)) from None
    if plot_path is not None:
        try:
            probe_mod.plot(results, plot_path)
        except OSError as exc:
            raise NumericUsageError(f"cannot write {plot_path}: {exc.strerror or exc}") from None
    if as_json:
        click.echo(_dumps({"d": d, "n": n, "seed": seed, "restarts": restarts,
                           "planted": planted, "plot": plot_path,
                           "results": [r.to_dict() for r in results]}))
        return
    for res in results:
        planted_text = f", planted S = {_ranges(res.S)}" if res.planted else ""
        click.echo(f"{res.family.display} ({res.family.name}; analysis verdict {res.verdict}); "
                   f"d = {d}, n = {n}, seed {seed}, {restarts} starts per radius, "
                   f"{res.points} training points{planted_text}")
        header = "  radius      best rel. error   train rel. error  "
        if res.planted:
            header += "sign-flip block   "
        click.echo(header + "best start")
        for item in res.radii:
            line = (f"  {item.radius:<10.4g}  {item.best_error:<16.3e}  "
                    f"{item.best_train_error:<16.3e}  ")
            if item.construction_error is not None:
                line += f"{item.construction_error:<16.1e}  "
            click.echo(line + item.best_start)
        click.echo(f"  ({res.seconds:.1f} s)")
    if plot_path is not None:
        click.echo(f"wrote {plot_path}")


# --------------------------------------------------------------------------------------------
# scan: every MLP block of a checkpoint
# --------------------------------------------------------------------------------------------

SCAN_HELP = """Can any skip in this model be folded into its MLP? Decide every MLP block of a
checkpoint as it is stored.

\b
CHECKPOINT: a .safetensors file, a sharded checkpoint (model.safetensors.index.json
and its shards), an .npz, or a directory holding one of these and optionally
config.json (also read beside a file). Layouts, detected from the tensor names
(--layout NAME to choose):
  gpt2      GPT-2: h.N.mlp.c_fc / c_proj (Conv1D, stored in × out: transposed)
  gpt-neox  GPT-NeoX/Pythia: layers.N.mlp.dense_h_to_4h / dense_4h_to_h
  bert      BERT/RoBERTa: encoder.layer.N.intermediate.dense / output.dense
  opt       OPT: layers.N.fc1 / fc2
  llama     LLaMA/Mistral/Qwen: layers.N.mlp.gate_proj / up_proj / down_proj
            (gated: `never` by the theorem, answered without reading numbers)
The activation comes from config.json (hidden_activation, hidden_act or
activation_function: gelu_new/gelu_pytorch_tanh/gelu_fast → gelu_tanh, gelu,
relu, silu/swish; for gated layouts the gate, silu → swiglu …) or --activation.

\b
Each block x ↦ x + W_down σ(W_up x + b_up) + b_down is decided as by 'leanbridge
absorb' (Gram system, rounding certificate, MILP fallback): one block's tensors
in memory at a time (per job), results in block order whatever --jobs.

\b
BIASES. The paper's theory is bias-free. With biases the sign-flip construction
still works (negate the rows of W_up and the up-bias entries in S; c·b_i·w_i for
i in S goes into the output bias), so "absorbable" is decided and constructed;
necessity is not proven with biases, so a failed S-condition (or a `never`
family) is reported as "no decision (biases: necessity not proven)" (exit 1)
unless --ignore-biases asks the bias-free question x + W_down σ(W_up x).
Normalisation layers (GPT-2's ln_2 before the MLP, BERT's LayerNorm after the
sum) are not part of the block decided.

\b
--blocks 0,3,5-7 scans those blocks only (split a model across machines this
way). --out DIR writes block-N.safetensors (.npz for an .npz checkpoint) for
each absorbable block: its tensors under the checkpoint's names with the rows
in S negated (and the biases adjusted), plus leanbridge.S.

\b
Exit codes: 0 every block decided (absorbable or not absorbable), 1 some block
has no decision, 2 bad input (one line on stderr).
"""


@click.command(name="scan", help=SCAN_HELP)
@click.argument("checkpoint", metavar="CHECKPOINT", required=False)
@click.option("--activation", "activation", metavar="NAME",
              help="Activation: a config.json name (gelu_new, relu, silu …) or a catalog "
                   "family; default: from config.json.")
@click.option("--layout", "layout_name", metavar="NAME",
              help="gpt2, gpt-neox, bert, opt or llama; default: detected from the names.")
@click.option("--blocks", "blocks_text", metavar="LIST",
              help="Blocks to scan, e.g. 0,3,5-7 (default: all).")
@click.option("--ignore-biases", is_flag=True,
              help="Decide the bias-free block (drop the biases): the paper's question; the "
                   "verdicts then do not cover the model with its biases.")
@click.option("--jobs", type=int, default=1, show_default=True, metavar="N",
              help="Blocks decided at once (threads; each holds one block in memory).")
@click.option("--device", type=click.Choice(["cpu", "cuda"]), default="cpu", show_default=True,
              help="cuda: form the Gram matrices on the GPU (needs torch with CUDA); the "
                   "solve and certificate stay in float64 on the CPU.")
@click.option("--out", "out_dir", metavar="DIR",
              help="Write the absorbing blocks of absorbable blocks to DIR.")
@click.option("--time-limit", "time_limit", type=float, default=30.0, show_default=True,
              metavar="SECONDS", help="Time limit of the MILP fallback, per block.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the random verification inputs.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object (schema leanbridge/schemas/scan-1.schema.json).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
def scan(checkpoint: str | None, activation: str | None, layout_name: str | None,
         blocks_text: str | None, ignore_biases: bool, jobs: int, device: str,
         out_dir: str | None, time_limit: float, seed: int, as_json: bool,
         progress: bool | None) -> None:
    if not checkpoint:
        raise NumericUsageError("missing CHECKPOINT (a .safetensors file, a sharded "
                                "checkpoint's index, an .npz, or a directory)")
    if jobs < 1:
        raise NumericUsageError("--jobs must be at least 1")
    if not time_limit > 0:
        raise NumericUsageError("--time-limit must be positive")
    _numeric_stack("scan")
    import time

    from leanbridge import __version__
    from leanbridge.analysis import analyse
    from leanbridge.numeric import absorb as absorb_mod
    from leanbridge.numeric import layouts as layouts_mod
    from leanbridge.numeric import scan as scan_mod
    from leanbridge.numeric.checkpoint import Checkpoint

    show_bar = sys.stderr.isatty() if progress is None else progress
    try:
        gram_fn = None
        if device == "cuda":
            from leanbridge.numeric.gpu import cuda_gram_fn

            gram_fn = cuda_gram_fn()
        tqdm = None
        if show_bar:
            try:
                tqdm = need("tqdm", "the progress bar of leanbridge scan (--progress)").tqdm
            except NumericInputError:
                if progress:            # asked for explicitly; otherwise scan without a bar
                    raise
        ckpt = Checkpoint(checkpoint)
        if layout_name is not None:
            layout, layout_source = layouts_mod.get_layout(layout_name), "--layout"
        else:
            layout, layout_source = layouts_mod.detect_layout(ckpt.keys), "detected"
        specs = layouts_mod.find_blocks(ckpt, layout)
        if blocks_text is not None:
            chosen = set(layouts_mod.parse_blocks(blocks_text, [s.index for s in specs]))
            specs = [s for s in specs if s.index in chosen]
        if activation is not None:
            family = layouts_mod.resolve_activation(activation, layout.gated, "--activation")
            activation_source = "--activation"
        else:
            family, activation_source = layouts_mod.activation_from_config(ckpt.config,
                                                                          layout.gated)
        out = _scan_out_dir(out_dir)
    except NumericInputError as exc:
        raise NumericUsageError(str(exc)) from None

    options = scan_mod.ScanOptions(ignore_biases=ignore_biases, time_limit=time_limit,
                                   seed=seed, out_dir=out, gram_fn=gram_fn)
    bar = tqdm(total=len(specs), desc="scan", unit="block", file=sys.stderr, leave=False,
               dynamic_ncols=True) if tqdm else None

    def done(record) -> None:
        if bar is not None:
            bar.set_postfix_str(f"block {record.index}: {record.verdict}", refresh=False)
            bar.update(1)

    start = time.perf_counter()
    try:
        records = scan_mod.scan(ckpt, specs, family, options, jobs=jobs, on_done=done)
    except NumericInputError as exc:
        raise NumericUsageError(str(exc)) from None
    except OSError as exc:
        raise NumericUsageError(f"cannot write to --out {out_dir}: {exc.strerror or exc}") \
            from None
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start
    code = scan_mod.exit_code(records)
    summary = scan_mod.summary(records, seconds)
    analysis = analyse(family)
    states = {r.biases for r in records}
    bias_mode = ("with_biases" if scan_mod.BIASES_PRESENT in states else
                 "ignored" if scan_mod.BIASES_IGNORED in states else "none")
    caveat = _bias_line(bias_mode, absorb_mod)
    if as_json:
        data = {
            "schema": "leanbridge.scan/1",
            "leanbridge_version": __version__,
            "checkpoint": {"path": str(ckpt.path), "format": ckpt.format,
                           "files": [str(f) for f in ckpt.files],
                           "config": str(ckpt.config_path) if ckpt.config_path else None},
            "layout": {"name": layout.name, "models": layout.models, "source": layout_source,
                       "orientation": layout.orientation, "gated": layout.gated},
            "activation": {"family": family.name, "display": family.display,
                           "source": activation_source,
                           "analysis_verdict": analysis.verdict},
            "biases": {"mode": bias_mode, "caveat": caveat},
            "device": device, "jobs": jobs, "seed": seed, "time_limit_s": time_limit,
            "blocks": [r.to_dict() for r in records],
            "summary": summary,
            "exit_code": code,
        }
        click.echo(_dumps(data))
    else:
        click.echo(_scan_text(ckpt, layout, layout_source, family, activation_source, analysis,
                              caveat, records, summary, jobs, device))
    sys.exit(code)


def _scan_out_dir(out_dir: str | None):
    if out_dir is None:
        return None
    import os

    path = Path(out_dir)
    if path.exists() and not path.is_dir():
        raise NumericInputError(f"--out {out_dir}: not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NumericInputError(f"--out {out_dir}: cannot create it: "
                                f"{exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise NumericInputError(f"--out {out_dir}: the directory is not writable")
    return path


def _bias_line(mode: str, absorb_mod) -> str:
    if mode == "with_biases":
        return "the blocks have biases: " + absorb_mod.BIAS_CAVEAT
    if mode == "ignored":
        return ("--ignore-biases: the bias-free blocks x + W_down σ(W_up x) are decided (the "
                "paper's question); the verdicts do not cover the model with its biases")
    return ("no bias tensors (or only zero ones) in these blocks: the paper's bias-free "
            "setting, where its necessity results apply")


_VERDICT_TEXT = {"absorbable": "ABSORBABLE", "not_absorbable": "not absorbable",
                 "no_decision": "no decision"}


def _scan_verdict(record) -> str:
    text = _VERDICT_TEXT[record.verdict]
    if record.verdict == "no_decision" and record.blockers:
        text += f" ({record.blockers[0]})"
    return text


def _scan_text(ckpt, layout, layout_source, family, activation_source, analysis, caveat,
               records, summary, jobs, device) -> str:
    lines = [f"checkpoint: {ckpt.describe()}",
             f"layout: {layout.name} ({layout.models}; {layout.orientation}) — {layout_source}",
             (f"activation: {family.display} ({family.name}) — {activation_source}; "
              f"analysis verdict: {analysis.verdict}"),
             f"biases: {caveat}"]
    header = ("block", "d×n", "activation", "verdict", "|S| / rel. distance", "method",
              "seconds")
    rows = []
    for r in records:
        if r.S is not None:
            size = f"|S| = {len(r.S)}"
        elif r.relative_distance is not None:
            size = f"rel. {r.relative_distance:.4g}"
        else:
            size = "—"
        rows.append((str(r.index), f"{r.d}×{r.n}", r.activation, _scan_verdict(r), size,
                     r.method or "analysis", f"{r.seconds:.2f}"))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    for r in records:
        if r.written:
            lines.append(f"block {r.index}: wrote {r.written}")
    seen: set[str] = set()
    for r in records:                   # notes once each, with the blocks they concern
        for note in r.notes:
            if note not in seen:
                seen.add(note)
                blocks = [str(x.index) for x in records if note in x.notes]
                lines.append(f"note (block{'s' if len(blocks) > 1 else ''} "
                             f"{_ranges([int(b) for b in blocks])}): {note}")
    kinds: dict[tuple, list] = {}      # one explanation per kind of answer
    for r in records:
        kinds.setdefault((r.verdict, tuple(r.blockers)), []).append(r)
    for group in kinds.values():
        blocks = _ranges([r.index for r in group])
        lines.append(f"why (block{'s' if len(group) > 1 else ''} {blocks}"
                     f"{', e.g. ' + str(group[0].index) if len(group) > 1 else ''}): "
                     f"{group[0].summary}")
    s = summary
    because = (f" ({s['no_decision_because_of_biases']} because of biases)"
               if s["no_decision_because_of_biases"] else "")
    absorbable = (f"; absorbable: {_ranges(s['absorbable_blocks'])}"
                  if s["absorbable_blocks"] else "")
    lines.append(f"summary: {s['blocks']} block(s): {s['absorbable']} absorbable, "
                 f"{s['not_absorbable']} not absorbable, {s['no_decision']} no decision"
                 f"{because}{absorbable}; {s['seconds']:.1f} s (jobs {jobs}, {device})")
    return "\n".join(lines)
