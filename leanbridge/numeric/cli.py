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


def _check_target(path: str | None, option: str) -> None:
    """Before any work: ``path`` can be written (a regular file or a new one, in a writable
    directory); exit 2 with one line otherwise (a symlink, FIFO, device or directory)."""
    if path is None:
        return
    from leanbridge.atomic import UnwritableError, check_writable

    try:
        check_writable(Path(path))
    except UnwritableError as exc:
        raise NumericUsageError(f"{option}: {exc}") from None


def _write_plot(plot, results, path: str) -> None:
    """``plot(results, file)`` into ``path`` atomically (mode 0644 or the replaced file's)."""
    from leanbridge.atomic import atomic_file

    try:
        with atomic_file(Path(path)) as temporary:
            plot(results, temporary)
    except OSError as exc:
        raise NumericUsageError(f"cannot write {path}: {exc.strerror or exc}") from None


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
and "not absorbable" when the condition is proved necessary (ReLU: paper Thm 8;
GELU, GELU-tanh, SiLU, softplus: the large-scale limit, GELU's being paper Thm 10;
Leaky ReLU and σ = a·z + b·|z|: Thm 8's kink argument; A invertible;
nondegenerate weights; d ≥ 2, although the Lean statements have no hypothesis
on d; they are not compiled here) — "no decision" (exit 1) otherwise.
Biases in the file (fc1.bias beside fc1.weight, or b_up/b_down) are used: the
block is x + W_down σ(W_up x + b_up) + b_down; --out then also writes V_b_up
(b_up negated on S) and V_b_down (b_down + c·W_down[:,S] b_up[S]).
S is reported with 0-based indices. Tolerance: the condition must hold to
1e-9·‖A/c‖_F + 16·(1 + √n)·ε64·Σ_{i∈S}‖w_i‖‖u_i‖ in Frobenius norm.
The stored numbers are the block: float16, bfloat16 and float32 weights are
widened to float64 exactly and decided as they are (the tolerance is float64's,
never the storage precision's), and a verification error above 1e-6 vetoes
"absorbable". Weights near 1e±300 are rescaled by exact powers of two first.

\b
Exit codes: 0 decided (absorbable or not absorbable), 1 no decision,
2 bad input (one line on stderr), 130 interrupted (Ctrl-C stops a running
MILP at once: it runs in a child process).
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
    _check_target(out_path, "--out")
    _numeric_stack("absorb")
    from leanbridge.analysis import CONDITIONAL, analyse
    from leanbridge.numeric import absorb as absorb_mod
    from leanbridge.numeric import biased as biased_mod
    from leanbridge.numeric import theory_checks
    from leanbridge.numeric.milp import stoppable_solvers
    from leanbridge.numeric.weights import WeightFile, block_from

    np = need("numpy", "leanbridge absorb")
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
            b_up, b_down = biased_mod.read_biases(wf, block)
            source.update(keys=block.keys, stored_dtype_eps=block.eps, transposed=transpose)
            # The stored numbers are the block (float16/bfloat16/float32 widened exactly):
            # the tolerances are float64's whatever the stored dtype (see absorb's docstring).
            with stoppable_solvers():     # Ctrl-C stops a running MILP at once
                result = absorb_mod.absorb(family, block.W_down, block.W_up, block.A,
                                           time_limit=time_limit, seed=seed,
                                           notes=block.notes, b_up=b_up, b_down=b_down)
            theory_checks.annotate(result, *absorb_mod.rebalanced(np, block.W_down, block.W_up),
                                   block.A, seed=seed)
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
    for name, bias in (("V_b_up", result.V_b_up), ("V_b_down", result.V_b_down)):
        if bias is not None:                      # the biased construction (R4, §5)
            arrays[name] = np.ascontiguousarray(bias)
    from leanbridge.atomic import atomic_file

    target = Path(path)
    with atomic_file(target) as temporary:          # 0644 (or the replaced file's mode)
        if target.suffix.lower() == ".npz":
            with open(temporary, "wb") as stream:
                np.savez(stream, **arrays)
        else:
            need("safetensors", "--out PATH.safetensors")
            from safetensors.numpy import save_file

            save_file(arrays, str(temporary), metadata={
                "leanbridge": "absorbing block: V_down sigma(V_up x) = A x + W_down "
                              "sigma(W_up x)",
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
    if result.theory:
        from leanbridge.numeric.theory_checks import text_lines

        lines.extend(text_lines(result.theory))
    if written:
        biases = ", V_b_up, V_b_down" if result.V_b_up is not None else ""
        lines.append(f"wrote V_up, V_down{biases}, S to {written}")
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

PROBE_GROUP_HELP = """Numerical experiments (seeded): residual-free fits of residual blocks.

\b
Subcommands:
  balls    one residual-free block fitted to x + block(x) on shrinking balls,
           per activation. The default: 'leanbridge probe --activation relu
           --d 2 --n 4' runs 'probe balls' (see 'leanbridge probe balls --help').
  deep     a plain ReLU stack fitted to a residual ReLU stack, always with a
           planted control and a width n + d control (beyond the paper).
  tangent  first-order rank test at a matched pair:
           rank[J_plain, J_res] − rank J_plain (d² for one block).

\b
The numbers are numerical evidence, not proofs.
Exit codes: 0 done, 2 bad input (one line on stderr).
"""

#: The subcommand that runs when ``probe`` is given options but no subcommand name.
PROBE_DEFAULT = "balls"


class _ProbeGroup(click.Group):
    """``probe`` with subcommands; arguments that do not start with a subcommand name (or
    --help) go to ``balls``, so the original ``leanbridge probe --activation …`` still works."""

    def parse_args(self, ctx, args):
        if not args or (args[0] not in self.commands and args[0] not in ctx.help_option_names):
            args = [PROBE_DEFAULT, *args]
        return super().parse_args(ctx, args)


@click.group(name="probe", cls=_ProbeGroup, help=PROBE_GROUP_HELP)
def probe() -> None:
    pass


DEEP_HELP = """Can a residual-free ReLU stack equal a residual one? Fit it, with controls.

\b
Target: --L residual blocks z ↦ z + B_l relu(A_l z) of width --n on ℝ^d, random
weights A ~ N(0, s²/d), B ~ N(0, s²/n) (s = --scale; seeded). Fitted: a plain
stack of --Lp blocks V_l relu(U_l z) of width --width (defaults: L and n) on
unit-sphere points (enough: both are positively homogeneous), from --starts
random and --informed starts (nearest planted block, 3% jitter), each by
L-BFGS and then a Levenberg–Marquardt polish (SciPy least_squares, method
"lm", exact Jacobian). Reported per fit: the relative L2 error on held-out
sphere points of the start with the smallest error on validation points, and
the same separately for the random and for the informed starts.

\b
Every run also fits two controls at the same d, with the same procedure:
  planted control  the same weights with each W_down minimally changed so that
                   B_S A_S = −I for a d-subset S: a plain stack of the same
                   shape equals it (sign flips, paper Thm 8)
  width control    the generic target with max(L, Lp) plain blocks of width
                   n + d: exact by the layerwise construction (Theorem C of
                   the research note)
(The planted fit is a control only where that plain stack exists: Lp = L
and width ≥ n, or Lp > L and width ≥ max(n, 2d).) A floor such as 1e-2 means
something only next to the controls: the run reports a dichotomy when the
generic best is ≥ 1e-4 and the controls reach ≤ 1e-8 from random starts;
"controls exact from informed starts only" when only informed starts (which
begin 3% away from the known exact solution) reach them, which claims no
dichotomy; "inconclusive" when a control fails. That is numerical evidence,
not a proof; the "theory" line says what is proved at these shapes (Theorems
A–D of the note).

\b
Needs n ≥ d. Progress on stderr (tqdm; default: when stderr is a terminal).
Exit codes: 0 done, 2 bad input (one line on stderr).
"""


def _progress_bar(progress: bool | None, desc: str):
    """A tqdm factory for the probe's ``progress`` argument, or None."""
    show = sys.stderr.isatty() if progress is None else progress
    if not show:
        return None
    try:
        tqdm = need("tqdm", "the progress bar").tqdm
    except NumericInputError as exc:
        raise NumericUsageError(str(exc)) from None
    return lambda total: tqdm(total=total, desc=desc, unit="fit", file=sys.stderr,
                              leave=False, dynamic_ncols=True)


@probe.command(name="deep", help=DEEP_HELP)
@click.option("--d", "d", type=int, metavar="D", help="Dimension d (required).")
@click.option("--n", "n", type=int, metavar="N",
              help="Width n of the residual blocks, n ≥ d (required).")
@click.option("--L", "L", type=int, metavar="L",
              help="Number of residual blocks (required).")
@click.option("--Lp", "Lp", type=int, metavar="L'", help="Plain blocks fitted [default: L].")
@click.option("--width", type=int, metavar="N'", help="Width of the plain blocks [default: n].")
@click.option("--starts", type=int, default=6, show_default=True,
              help="Random starts per fit.")
@click.option("--informed", type=int, default=2, show_default=True,
              help="Informed starts per fit (nearest planted block / construction, jittered).")
@click.option("--scale", type=float, default=1.0, show_default=True, metavar="S",
              help="Weight scale s of the target.")
@click.option("--points", type=int, metavar="N",
              help="Training points on the sphere [default: 400·(d − 1), at least 3·P/d].")
@click.option("--test-points", type=int, default=2000, show_default=True,
              help="Held-out sphere points.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--plot", "plot_path", metavar="PATH",
              help="Write a PNG of every start's error per fit (needs matplotlib).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object (schema leanbridge/schemas/probe-deep-1.schema.json).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr [default: when stderr is a terminal].")
def probe_deep(d: int | None, n: int | None, L: int | None, Lp: int | None,
               width: int | None, starts: int, informed: int, scale: float,
               points: int | None, test_points: int, seed: int, plot_path: str | None,
               as_json: bool, progress: bool | None) -> None:
    if d is None or n is None or L is None:
        raise NumericUsageError("--d D, --n N and --L L are required")
    if plot_path is not None and Path(plot_path).suffix.lower() != ".png":
        raise NumericUsageError(f"--plot {plot_path}: the file must end in .png")
    _check_target(plot_path, "--plot")
    _numeric_stack("probe deep")
    from leanbridge.numeric import deep_probe

    if plot_path is not None:
        try:
            need("matplotlib", "--plot")
        except NumericInputError as exc:
            raise NumericUsageError(str(exc)) from None
    bar = _progress_bar(progress, "probe deep")
    try:
        result = deep_probe.deep_probe(d, n, L, Lp, width, starts=starts, informed=informed,
                                       seed=seed, scale=scale, train_points=points,
                                       test_points=test_points, progress=bar)
    except NumericInputError as exc:
        raise NumericUsageError(str(exc)) from None
    if plot_path is not None:
        _write_plot(deep_probe.plot, result, plot_path)
    if as_json:
        data = result.to_dict()
        data["plot"] = plot_path
        click.echo(_dumps(data))
        return
    click.echo(deep_probe.format_text(result))
    if plot_path is not None:
        click.echo(f"wrote {plot_path}")


TANGENT_HELP = """First-order rank test at a matched pair (one block; beyond the paper).

\b
A residual ReLU block R(x) = x + B relu(Ax) with a planted S (|S| = d,
B[:,S] = −A_S⁻¹) equals the plain block P(x) = V relu(Ux), U = A with the rows
in S negated, V = B. On unit-sphere points the Jacobians J_res = ∂R/∂(A, B) and
J_plain = ∂P/∂(U, V) span sampled tangent spaces of the two families there;
rank[J_plain, J_res] − rank J_plain counts the directions in which the
residual family leaves the plain one. For one block it is d² (the codimension
of {B_S A_S = −I}; research note §3).

\b
Numerical rank: singular values above σ_max · max(rows, columns) · ε64
(NumPy's matrix_rank default); the output shows the gap (smallest kept and
largest dropped σ/σ_max). For d = 2 every sector between kink rays gets
points; for d ≥ 3 the random points are doubled until the ranks are stable.
Needs n ≥ d. Exit codes: 0 done, 2 bad input (one line on stderr).
"""


@probe.command(name="tangent", help=TANGENT_HELP)
@click.option("--d", "d", type=int, metavar="D", help="Dimension d (required).")
@click.option("--n", "n", type=int, metavar="N", help="Width n, n ≥ d (required).")
@click.option("--points", type=int, metavar="N",
              help="Initial random sphere points [default: max(200, 8nd)].")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object (schema leanbridge/schemas/probe-tangent-1.schema.json).")
def probe_tangent(d: int | None, n: int | None, points: int | None, seed: int,
                  as_json: bool) -> None:
    if d is None or n is None:
        raise NumericUsageError("--d D and --n N are required")
    _numeric_stack("probe tangent")
    from leanbridge.numeric import tangent

    try:
        result = tangent.tangent_probe(d, n, seed=seed, points=points)
    except NumericInputError as exc:
        raise NumericUsageError(str(exc)) from None
    click.echo(_dumps(result.to_dict()) if as_json else tangent.format_text(result))


PROBE_HELP = """Fit a residual-free block to x + block(x) numerically, on shrinking balls.

\b
The default subcommand of 'leanbridge probe': 'leanbridge probe --activation
relu --d 2 --n 4' and 'leanbridge probe balls --activation relu --d 2 --n 4'
are the same.

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


@probe.command(name="balls", help=PROBE_HELP)
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
def probe_balls(activations: tuple[str, ...], d: int | None, n: int | None,
                restarts: int, radii_text: str, planted: bool, maxiter: int,
                plot_path: str | None, seed: int, as_json: bool) -> None:
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
    _check_target(plot_path, "--plot")
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
        _write_plot(probe_mod.plot, results, plot_path)
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

Where the normalisation sits decides what the answer means (PRE- AND POST-NORM
below).

\b
CHECKPOINT: a .safetensors file, a sharded checkpoint (model.safetensors.index.json
and its shards), an .npz, or a directory holding one of these and optionally
config.json (also read beside a file). Layouts, detected from the tensor names
(--layout NAME to choose); pre/post: where the normalisation sits:
  gpt2        GPT-2: h.N.mlp.c_fc / c_proj (Conv1D, in × out: transposed)   pre
  gpt-neox    GPT-NeoX/Pythia, Falcon, BLOOM: N.mlp.dense_h_to_4h /
              dense_4h_to_h                                                 pre
  gptj        GPT-J: h.N.mlp.fc_in / fc_out (attention ∥ MLP, one ln_1)     pre
  bert        BERT/RoBERTa: layer.N.intermediate.dense / output.dense       post
  distilbert  DistilBERT: layer.N.ffn.lin1 / lin2                           post
  opt         OPT: layers.N.fc1 / fc2                                       pre
              (post when config.json has do_layer_norm_before: false)
  llama       LLaMA/Mistral/Qwen2/Gemma: N.mlp.gate_proj / up_proj /
              down_proj (gated)                                             pre
  phi3        Phi-3: N.mlp.gate_up_proj (rows: gate, then up) / down_proj
              (gated)                                                       pre
  t5          T5: block.N.layer.K.DenseReluDense.wi / wo (ReLU)             pre
  t5-gated    T5 v1.1/mT5/Flan-T5: DenseReluDense.wi_0 (gate) / wi_1 / wo   pre
Gated blocks are `never` by the paper's theorem, answered without reading
numbers. The activation comes from config.json (hidden_activation, hidden_act,
activation_function, dense_act_fn, activation, feed_forward_proj:
gelu_new/gelu_pytorch_tanh/gelu_fast → gelu_tanh, gelu, relu, silu/swish; for
gated layouts the gate, silu → swiglu …; T5 without any: relu) or --activation.

\b
PRE- AND POST-NORM. Post-norm blocks N(x + MLP(x)) (BERT, RoBERTa, DistilBERT)
are the paper's question: the verdicts answer it. In a pre-norm block
h + MLP(N(h)) the skip carries h while the MLP reads N(h): the model-level
answer is "never (pre-norm)" — LayerNorm/RMSNorm have bounded output, so no
continuous function of N(h) equals h + MLP(N(h))
(SkipAbsorption.not_residual_eq_of_bounded_norm; LayerNorm forgets the mean,
so no function at all: SkipAbsorption.not_residual_eq_of_not_injective; not
compiled: no Lean toolchain here). The block verdicts are then about
z + MLP(z) at the MLP's own input z = N(h), a skip the model does not have.

\b
Each block x ↦ x + W_down σ(W_up x + b_up) + b_down is decided as by 'leanbridge
absorb' (Gram system, rounding certificate, MILP fallback): one block's tensors
in memory at a time (per job), results in block order whatever --jobs.

\b
BIASES. With biases the S-condition decides as without them: the sign-flip
construction still works (negate the rows of W_up and the up-bias entries in S;
c·b_i·w_i for i in S goes into the output bias), and by the large-scale limit
(R4) the condition is also necessary for ReLU, GELU, GELU-tanh, SiLU and
softplus blocks (nondegenerate weights), so a failed S-condition is "not
absorbable" (exit 0); tanh/sigmoid blocks never absorb. --ignore-biases is a
no-op (kept for old scripts).

\b
PRECISION. The stored numbers are the block: float16, bfloat16 and float32
weights are widened to float64 exactly and decided as they are, with float64
tolerances whatever the stored dtype; a verification error vetoes "absorbable".

\b
NOTHING LOST. Each block's row is printed as soon as it (and the blocks before
it) is decided; --jsonl PATH (or - for stdout) writes one JSON object per block
as it is decided, then one {"summary": …, "model_level": …} object. A block
with bad tensors (NaN, inf, damage) is a "bad input" row and the scan goes on
(exit 2 at the end, naming it). Ctrl-C stops at once (a running MILP included), prints the blocks
decided and the --blocks LIST that resumes the scan, and exits 130.
--blocks 0,3,5-7 scans those blocks only (to resume, or to split a model across
machines). --out DIR writes block-N.safetensors (.npz for an .npz checkpoint)
for each absorbable block: its tensors under the checkpoint's names with the
rows in S negated (and the biases adjusted), plus leanbridge.S. Post-norm:
remove the residual around that MLP, N(x + MLP(x)) = N(V(x)). Pre-norm:
V(z) = z + MLP(z) at z = N(h) only; the model's residual stays
(h + MLP(N(h)) = h − N(h) + V(N(h))).

\b
Exit codes: 0 every block decided (absorbable or not absorbable), 1 some block
has no decision, 2 bad input (one line on stderr; or a block with bad tensors,
after the others), 130 interrupted (Ctrl-C).
"""


@click.command(name="scan", help=SCAN_HELP)
@click.argument("checkpoint", metavar="CHECKPOINT", required=False)
@click.option("--activation", "activation", metavar="NAME",
              help="Activation: a config.json name (gelu_new, relu, silu …) or a catalog "
                   "family; default: from config.json.")
@click.option("--layout", "layout_name", metavar="NAME",
              help="gpt2, gpt-neox, gptj, bert, distilbert, opt, llama, phi3, t5 or t5-gated; "
                   "default: detected from the names.")
@click.option("--blocks", "blocks_text", metavar="LIST",
              help="Blocks to scan, e.g. 0,3,5-7 (default: all); an interrupted scan "
                   "prints the list that resumes it.")
@click.option("--ignore-biases", is_flag=True,
              help="No-op (kept for old scripts): the biases never change the verdict "
                   "(R4), so the blocks are decided with them.")
@click.option("--jobs", type=int, default=1, show_default=True, metavar="N",
              help="Blocks decided at once (threads; each holds one block in memory).")
@click.option("--device", type=click.Choice(["cpu", "cuda"]), default="cpu", show_default=True,
              help="cuda: form the Gram matrix and solve the system on the GPU (float64; "
                   "needs torch with CUDA); the decision, its tolerances, the direct "
                   "residual of S and the verification stay in float64 on the CPU, and so "
                   "do the eigen-decomposition fallbacks. Untested on a real GPU.")
@click.option("--out", "out_dir", metavar="DIR",
              help="Write the absorbing blocks of absorbable blocks to DIR.")
@click.option("--time-limit", "time_limit", type=float, default=30.0, show_default=True,
              metavar="SECONDS", help="Time limit of the MILP fallback, per block.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the random verification inputs.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object (schema leanbridge/schemas/scan-1.schema.json).")
@click.option("--jsonl", "jsonl_path", metavar="PATH",
              help="Write one JSON object per block, as it is decided, to PATH (- for "
                   "stdout; the text report then goes to stderr), then a summary object.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
def scan(checkpoint: str | None, activation: str | None, layout_name: str | None,
         blocks_text: str | None, ignore_biases: bool, jobs: int, device: str,
         out_dir: str | None, time_limit: float, seed: int, as_json: bool,
         jsonl_path: str | None, progress: bool | None) -> None:
    if not checkpoint:
        raise NumericUsageError("missing CHECKPOINT (a .safetensors file, a sharded "
                                "checkpoint's index, an .npz, or a directory)")
    if jobs < 1:
        raise NumericUsageError("--jobs must be at least 1")
    if not time_limit > 0:
        raise NumericUsageError("--time-limit must be positive")
    if jsonl_path == "-" and as_json:
        raise NumericUsageError("--json and --jsonl - both write to stdout; give --jsonl a "
                                "file")
    if jsonl_path not in (None, "-"):
        _check_target(jsonl_path, "--jsonl")
    _numeric_stack("scan")
    import time

    from leanbridge import __version__
    from leanbridge.analysis import analyse
    from leanbridge.numeric import absorb as absorb_mod
    from leanbridge.numeric import layouts as layouts_mod
    from leanbridge.numeric import norm_position as norm_mod
    from leanbridge.numeric import scan as scan_mod
    from leanbridge.numeric.checkpoint import Checkpoint
    from leanbridge.numeric.milp import stoppable_solvers

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
            layout, layout_source = (layouts_mod.detect_layout(ckpt.keys, ckpt.config),
                                     "detected")
        specs = layouts_mod.find_blocks(ckpt, layout)
        if blocks_text is not None:
            chosen = set(layouts_mod.parse_blocks(blocks_text, [s.index for s in specs]))
            specs = [s for s in specs if s.index in chosen]
        if activation is not None:
            family = layouts_mod.resolve_activation(activation, layout.gated, "--activation")
            activation_source = "--activation"
        else:
            family, activation_source = layouts_mod.activation_from_config(
                ckpt.config, layout.gated, layout.default_activation,
                f"{layout.name} layout's (transformers')")
        out = _scan_out_dir(out_dir)
        norm_site, norm_source = layout.norm_site(ckpt.config)
    except NumericInputError as exc:
        raise NumericUsageError(str(exc)) from None

    options = scan_mod.ScanOptions(ignore_biases=ignore_biases, time_limit=time_limit,
                                   seed=seed, out_dir=out, gram_fn=gram_fn)
    bar = tqdm(total=len(specs), desc="scan", unit="block", file=sys.stderr, leave=False,
               dynamic_ncols=True) if tqdm else None
    report = sys.stderr if jsonl_path == "-" else sys.stdout     # the text report
    table = _ScanTable(specs, family, report, bar) if not as_json else None
    jsonl = _open_jsonl(jsonl_path)
    analysis = analyse(family)
    if table is not None:
        table.head(_scan_head(ckpt, layout, layout_source, norm_site, norm_source, family,
                              activation_source, analysis))
    records: dict = {}
    interrupted = False
    failure: NumericUsageError | None = None
    start = time.perf_counter()
    try:
        with stoppable_solvers():      # a running MILP is killed on Ctrl-C
            for record in scan_mod.iter_scan(ckpt, specs, family, options, jobs=jobs):
                records[record.index] = record
                if jsonl is not None:
                    _jsonl_line(jsonl, record.to_dict())
                if bar is not None:
                    bar.set_postfix_str(f"block {record.index}: {record.verdict}",
                                        refresh=False)
                    bar.update(1)
                if table is not None:
                    table.decided(record)
    except KeyboardInterrupt:
        interrupted = True
    except NumericInputError as exc:
        failure = NumericUsageError(str(exc))
    except OSError as exc:
        failure = NumericUsageError(f"cannot write to --out {out_dir}: {exc.strerror or exc}")
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start
    decided = [records[s.index] for s in specs if s.index in records]
    missing = [s.index for s in specs if s.index not in records]
    code = 130 if interrupted else scan_mod.exit_code(decided)
    summary = scan_mod.summary(decided, seconds)
    resume = _resume_hint(missing) if missing else None
    states = {r.biases for r in decided}
    bias_mode = ("with_biases" if scan_mod.BIASES_PRESENT in states else
                 "ignored" if scan_mod.BIASES_IGNORED in states else "none")
    caveat = _bias_line(bias_mode, absorb_mod)
    model_level = norm_mod.model_level(norm_site)
    if jsonl is not None:
        _jsonl_line(jsonl, {"summary": summary, "exit_code": code, "interrupted": interrupted,
                            "not_decided": missing, "norm_position": norm_site.position,
                            "model_level": model_level})
        if jsonl is not sys.stdout:
            jsonl.close()
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
            "norm_position": norm_site.position,
            "norm": {"position": norm_site.position, "kind": norm_site.kind,
                     "where": norm_site.where, "source": norm_source},
            "model_level": model_level,
            "block_level": norm_mod.block_level(norm_site),
            "device": device, "jobs": jobs, "seed": seed, "time_limit_s": time_limit,
            "blocks": [r.to_dict() for r in decided],
            "summary": summary,
            "exit_code": code,
        }
        if interrupted or failure is not None:
            data.update(interrupted=interrupted, not_decided=missing)
        click.echo(_dumps(data))
    else:
        table.finish(decided, caveat, summary, jobs, device, norm_site)
        if interrupted:
            click.echo(f"interrupted (Ctrl-C): {len(decided)} of {len(specs)} block(s) decided "
                       f"(above); not decided: {_ranges(missing)}; resume with {resume}",
                       file=report)
    if failure is not None:
        if resume:
            failure.message += f" (blocks decided: {len(decided)}; resume with {resume})"
        raise failure
    if interrupted:
        raise KeyboardInterrupt
    if code == 2:
        bad = summary["bad_input_blocks"]
        click.echo(f"Error: bad input in block{'s' if len(bad) > 1 else ''} {_ranges(bad)} "
                   "(see the table); the other blocks were decided", err=True)
    sys.exit(code)


def _resume_hint(missing: list[int]) -> str:
    """``--blocks LIST`` naming the blocks not decided."""
    return "--blocks " + _ranges(missing, limit=10 ** 6).replace("–", "-").replace(" ", "")


def _open_jsonl(path: str | None):
    """The --jsonl stream: stdout for ``-``, else the file (0644; refused when it exists and
    is not a regular file)."""
    if path is None:
        return None
    if path == "-":
        return sys.stdout
    from leanbridge.atomic import UnwritableError, open_stream

    try:
        return open_stream(Path(path))
    except (UnwritableError, OSError) as exc:
        raise NumericUsageError(f"--jsonl: cannot write {path}: {exc.strerror or exc}") \
            from None


def _jsonl_line(stream, data: dict) -> None:
    """One JSON object on one line, flushed (it survives an interruption)."""
    stream.write(json.dumps(_finite(data), ensure_ascii=False, default=_json_default) + "\n")
    stream.flush()


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
                 "no_decision": "no decision", "bad_input": "bad input"}


def _scan_verdict(record) -> str:
    text = _VERDICT_TEXT[record.verdict]
    if record.verdict == "no_decision" and record.blockers:
        text += f" ({record.blockers[0]})"
    return text


def _scan_head(ckpt, layout, layout_source, norm_site, norm_source, family, activation_source,
               analysis) -> list:
    """The report's first lines (printed before any block is decided): the checkpoint, the
    layout, where the norm sits and what that makes of the answer (model level, block level),
    the activation."""
    from leanbridge.numeric import norm_position as norm_mod

    return [f"checkpoint: {ckpt.describe()}",
            f"layout: {layout.name} ({layout.models}; {layout.orientation}) — {layout_source}",
            *norm_mod.text_lines(norm_site, norm_source),
            (f"activation: {family.display} ({family.name}) — {activation_source}; "
             f"analysis verdict: {analysis.verdict}")]


#: Every text the verdict and method columns can hold (the table is printed row by row, as
#: blocks are decided, so its widths are fixed in advance).
_BLOCKERS = ("biases", "necessity", "singular_skip", "d<2", "degenerate", "time_limit",
             "milp_candidates", "milp_model_error", "undetermined", "verification")
_METHODS = ("least-squares", "rounding", "rounding-certificate", "milp", "milp-time-limit",
            "milp-candidate-limit", "milp-model-error", "trivial", "magnitude", "analysis")


class _ScanTable:
    """The text report of ``scan``, written as the blocks are decided: the head, then each
    row as soon as it and every block before it are decided (block order whatever --jobs),
    then the notes, explanations and summary (:meth:`finish`)."""

    HEADER = ("block", "d×n", "activation", "verdict", "|S| / rel. distance", "method",
              "seconds")

    def __init__(self, specs, family, stream, bar=None) -> None:
        self.stream, self.bar = stream, bar
        self.order = [spec.index for spec in specs]
        self.next = 0
        self.pending: dict = {}
        verdicts = [*_VERDICT_TEXT.values(), *(f"no decision ({b})" for b in _BLOCKERS)]
        self.widths = [max([5] + [len(str(i)) for i in self.order]),
                       max([3] + [len(f"{spec.d}×{spec.n}") for spec in specs]),
                       max(len("activation"), len(family.name)),
                       max(len(v) for v in verdicts), len(self.HEADER[4]),
                       max(len(m) for m in _METHODS), 0]

    def _echo(self, line: str) -> None:
        if self.bar is not None:
            self.bar.clear()
        click.echo(line, file=self.stream)
        if self.bar is not None:
            self.bar.refresh()

    def _line(self, cells) -> str:
        return "  ".join(cell.ljust(w) for cell, w in zip(cells, self.widths)).rstrip()

    def head(self, lines: list) -> None:
        for line in lines:
            self._echo(line)
        self._echo(self._line(self.HEADER))

    def decided(self, record) -> None:
        self.pending[record.index] = record
        while self.next < len(self.order) and self.order[self.next] in self.pending:
            self._echo(self._line(_scan_row(self.pending.pop(self.order[self.next]))))
            self.next += 1

    def finish(self, records, caveat: str, summary: dict, jobs: int, device: str,
               norm_site) -> None:
        """The rows decided out of order (after an interruption), then the rest."""
        for index in sorted(self.pending):
            self._echo(self._line(_scan_row(self.pending[index])))
        self.pending.clear()
        for line in _scan_tail(records, caveat, summary, jobs, device, norm_site):
            self._echo(line)


def _scan_row(r) -> tuple:
    if r.S is not None:
        size = f"|S| = {len(r.S)}"
    elif r.relative_distance is not None:
        size = f"rel. {r.relative_distance:.4g}"
    else:
        size = "—"
    method = r.method or ("—" if r.verdict == "bad_input" else "analysis")
    return (str(r.index), f"{r.d}×{r.n}", r.activation, _scan_verdict(r), size, method,
            f"{r.seconds:.2f}")


def _scan_tail(records, caveat, summary, jobs, device, norm_site) -> list:
    """The report's last lines: files written, notes, explanations, biases, the summary
    (labelled block level for a pre-norm model, whose model-level answer is never)."""
    pre = norm_site.position == "pre"
    lines = []
    for r in records:
        if r.written:
            lines.append(f"block {r.index}: wrote {r.written}"
                         + (" (block level: V(z) = z + MLP(z) at z = N(h); the model's "
                            "residual stays)" if pre else ""))
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
        key = (r.verdict, tuple(r.blockers)) if r.verdict != "bad_input" else (r.index,)
        kinds.setdefault(key, []).append(r)
    for group in kinds.values():
        blocks = _ranges([r.index for r in group])
        lines.append(f"why (block{'s' if len(group) > 1 else ''} {blocks}"
                     f"{', e.g. ' + str(group[0].index) if len(group) > 1 else ''}): "
                     f"{group[0].summary}")
    lines.append(f"biases: {caveat}")
    s = summary
    because = (f" ({s['no_decision_because_of_biases']} because of biases)"
               if s["no_decision_because_of_biases"] else "")
    bad = f", {s['bad_input']} bad input" if s["bad_input"] else ""
    absorbable = (f"; absorbable: {_ranges(s['absorbable_blocks'])}"
                  if s["absorbable_blocks"] else "")
    label = " (block level; model level: never, pre-norm)" if pre else ""
    lines.append(f"summary{label}: {s['blocks']} block(s): {s['absorbable']} absorbable, "
                 f"{s['not_absorbable']} not absorbable, {s['no_decision']} no decision"
                 f"{because}{bad}{absorbable}; {s['seconds']:.1f} s (jobs {jobs}, {device})")
    return lines
