"""Benchmark: `leanbridge scan` on a 12-block GPT-2-small-shaped sharded checkpoint.

Run: ``python benchmarks/bench_scan.py [--blocks 12] [--d 768] [--n 3072] [--jobs 1]``.

The checkpoint is written to a temporary directory the way GPT-2 ships: float32 safetensors
shards with ``model.safetensors.index.json`` and ``config.json`` (``gelu_new``), Conv1D
(in × out) MLP weights with biases, and the attention weights beside them (so the files are
much larger than the MLP tensors); block 5 has a planted S (absorbable, so the construction,
its verification and ``--out`` are exercised too). Each measurement runs in a fresh Python
process, so one cannot inflate another's memory:

* **time** — in one process: the *bare Gram solve* of one block (G = (W_downᵀW_down) ∘
  (W_up W_upᵀ), r, Cholesky factor and solve with SciPy, the weights already in float64; the
  least work any Gram-based decision does; median of 3), then the whole scan end to end
  through the command line (``leanbridge scan DIR --jobs N --json --out …``: opening the
  shards, layout, reading, deciding, distances, verification). Printed as ratios: end-to-end
  wall time / blocks ÷ bare solve, and the median per-block time ÷ bare solve. Because the
  CPUs may be shared (load changes within a minute), each block is then also timed paired:
  its bare solve immediately followed by the scan of that block alone (reading included), and
  the median of those ratios is printed — for wall time and for CPU time (``process_time``,
  all threads), which other processes' load disturbs much less. Goal (issue 12): ≤ 1.5× with
  ``--jobs 1``. ``--threads N`` sets the BLAS thread count of the measuring processes.
* **memory** — the scan again, with ``tracemalloc`` (NumPy's buffers are traced) and the
  process's peak RSS (``resource.getrusage``) above its level just before the scan, as ratios
  to one block's stored tensors (c_fc, c_proj and their biases, float32). The same for the
  bare Gram solve of one block (reading it to float64 included), for scale. An n×n float64
  array is 8n² bytes — at n = 4d, 4× a float32 block's 2·4·d·n bytes — and the scan holds one
  (G and its Cholesky factor share it) next to the block's weights, kept float32 (1×): 5× is
  the floor of an exact float64 Gram decision, printed as such; what the scan controls is the
  rest (one block at a time, tiles instead of whole-matrix temporaries). Goal (issue 12):
  ≤ 4×, out of reach for that reason (README: what a Gram-free solve would cost instead).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLANTED = 5


def make_checkpoint(folder: Path, blocks: int, d: int, n: int, seed: int = 0) -> int:
    """Write the sharded checkpoint; returns one block's stored MLP bytes."""
    import numpy as np
    from safetensors.numpy import save_file

    rng = np.random.default_rng(seed)
    per_shard = 4
    weight_map: dict[str, str] = {}
    shards = (blocks + per_shard - 1) // per_shard
    for s in range(shards):
        name = f"model-{s + 1:05d}-of-{shards:05d}.safetensors"
        tensors = {}
        for i in range(s * per_shard, min(blocks, (s + 1) * per_shard)):
            W_up = rng.standard_normal((n, d), dtype=np.float32) / np.float32(np.sqrt(d))
            W_down = rng.standard_normal((d, n), dtype=np.float32) / np.float32(np.sqrt(n))
            if i == PLANTED:
                S = np.sort(rng.choice(n, d, replace=False))
                W_down[:, S] = -np.linalg.inv(W_up[S].astype(np.float64)).astype(np.float32)
            stem = f"h.{i}."
            tensors[stem + "mlp.c_fc.weight"] = np.ascontiguousarray(W_up.T)      # in × out
            tensors[stem + "mlp.c_proj.weight"] = np.ascontiguousarray(W_down.T)
            tensors[stem + "mlp.c_fc.bias"] = rng.standard_normal(n, dtype=np.float32)
            tensors[stem + "mlp.c_proj.bias"] = rng.standard_normal(d, dtype=np.float32)
            tensors[stem + "attn.c_attn.weight"] = rng.standard_normal((d, 3 * d),
                                                                       dtype=np.float32)
            tensors[stem + "attn.c_proj.weight"] = rng.standard_normal((d, d), dtype=np.float32)
            tensors[stem + "ln_2.weight"] = np.ones(d, np.float32)
        save_file(tensors, str(folder / name))
        weight_map.update({key: name for key in tensors})
    (folder / "model.safetensors.index.json").write_text(json.dumps(
        {"metadata": {"total_size": 0}, "weight_map": weight_map}))
    (folder / "config.json").write_text(json.dumps(
        {"model_type": "gpt2", "activation_function": "gelu_new", "n_embd": d,
         "n_layer": blocks}))
    return 4 * (2 * d * n + n + d)


# ------------------------------------------------------------------------------------------
# Child processes
# ------------------------------------------------------------------------------------------

def _block0(folder: Path):
    import numpy as np
    from safetensors import safe_open

    shard = min(folder.glob("model-00001-*.safetensors"))
    with safe_open(str(shard), framework="numpy") as handle:
        W_up = handle.get_tensor("h.0.mlp.c_fc.weight").T.astype(np.float64)
        W_down = handle.get_tensor("h.0.mlp.c_proj.weight").T.astype(np.float64)
    return W_down, W_up


def bare_solve(W_down, W_up):
    """The bare Gram solve: G, r, Cholesky factor (in place) and solve."""
    import numpy as np
    import scipy.linalg as sl

    G = W_down.T @ W_down
    G *= W_up @ W_up.T
    r = -np.einsum("ij,ji->i", W_up, W_down)          # r_i = w_iᵀ(−I)u_i
    factor = sl.cho_factor(G, lower=True, overwrite_a=True, check_finite=False)
    return sl.cho_solve(factor, r, check_finite=False)


def _run_scan(folder: Path, jobs: int, out: Path, only: str | None = None):
    from click.testing import CliRunner

    from leanbridge.cli import main

    extra = ["--blocks", only] if only else []
    result = CliRunner().invoke(main, ["scan", str(folder), "--jobs", str(jobs), "--json",
                                       "--out", str(out), *extra])
    if result.exit_code not in (0, 1):
        raise SystemExit(f"scan failed ({result.exit_code}): {result.output}{result.stderr}")
    return json.loads(result.stdout)


class _Clock:
    """Wall time and CPU time (all threads of this process) of a block of code."""

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu


def child_time(folder: Path, jobs: int) -> dict:
    """End to end through the command, then block by block: the bare solve of block i right
    before the scan of block i alone, so that both see the same machine load (shared CPUs)."""
    import numpy as np
    import scipy.linalg  # noqa: F401

    from leanbridge.numeric import scan as scan_mod
    from leanbridge.numeric.checkpoint import Checkpoint
    from leanbridge.numeric.layouts import activation_from_config, detect_layout, find_blocks

    W_down, W_up = _block0(folder)
    bare_solve(W_down, W_up)                              # warm the BLAS threads
    before = []
    for _ in range(3):
        with _Clock() as clock:
            bare_solve(W_down, W_up)
        before.append((clock.wall, clock.cpu))
    del W_down, W_up
    with tempfile.TemporaryDirectory() as out, _Clock() as whole:
        data = _run_scan(folder, jobs, Path(out))
    ckpt = Checkpoint(folder)
    layout = detect_layout(ckpt.keys)
    family, _ = activation_from_config(ckpt.config, layout.gated)
    pairs = []
    for spec in find_blocks(ckpt, layout):
        W_up = ckpt.read(spec.key("up"))[0].T
        W_down = ckpt.read(spec.key("down"))[0].T
        with _Clock() as bare:
            bare_solve(W_down, W_up)
        del W_down, W_up
        with _Clock() as one:
            scan_mod.scan(ckpt, [spec], family, scan_mod.ScanOptions())
        pairs.append((bare.wall, one.wall, bare.cpu, one.cpu))
    return {"bare_wall": statistics.median(b[0] for b in before),
            "bare_cpu": statistics.median(b[1] for b in before),
            "wall": whole.wall, "cpu": whole.cpu,
            "block_seconds": [b["seconds"] for b in data["blocks"]],
            "pairs": pairs, "numpy": np.__version__,
            "verdicts": [b["verdict"] for b in data["blocks"]],
            "S_size": data["blocks"][PLANTED]["S_size"] if len(data["blocks"]) > PLANTED
            else None}


def _rss_now() -> int:
    with open("/proc/self/statm") as stream:
        return int(stream.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def child_memory(folder: Path, jobs: int, what: str, only: str | None) -> dict:
    import tracemalloc

    import numpy as np  # noqa: F401
    import scipy.linalg
    import scipy.optimize  # noqa: F401
    import tqdm  # noqa: F401

    import leanbridge.cli  # noqa: F401
    from leanbridge.analysis import analyse
    from leanbridge.families import get_family
    from leanbridge.numeric.activations import numeric_activation

    numeric_activation(get_family("gelu_tanh"))
    analyse(get_family("gelu_tanh"))
    before = _rss_now()
    tracemalloc.start()
    if what == "bare":                    # reading the block (to float64) counts here too
        W_down, W_up = _block0(folder)
        bare_solve(W_down, W_up)
    else:
        with tempfile.TemporaryDirectory() as out:
            _run_scan(folder, jobs, Path(out), only)
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"traced_peak": traced, "rss_above_start": max(peak - before, 0)}


def _child(args, mode: str, extra: list[str] | None = None) -> dict:
    command = [sys.executable, __file__, "--child", mode, "--dir", str(args.dir),
               "--jobs", str(args.jobs), *(extra or [])]
    env = dict(os.environ)
    if args.threads:
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env[name] = str(args.threads)
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise SystemExit(f"child {mode} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=12)
    parser.add_argument("--d", type=int, default=768)
    parser.add_argument("--n", type=int, default=3072)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--threads", type=int, help="BLAS threads (OPENBLAS/OMP/MKL_NUM_THREADS)")
    parser.add_argument("--child", choices=["time", "memory-scan", "memory-bare"])
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--only", help="(child) --blocks for the memory scan")
    args = parser.parse_args()
    if args.child == "time":
        print(json.dumps(child_time(args.dir, args.jobs)))
        return
    if args.child:
        print(json.dumps(child_memory(args.dir, args.jobs, args.child.split("-")[1],
                                      args.only)))
        return

    import numpy as np

    with tempfile.TemporaryDirectory(prefix="bench-scan-") as tmp:
        args.dir = Path(tmp)
        start = time.perf_counter()
        block_bytes = make_checkpoint(args.dir, args.blocks, args.d, args.n)
        files = sorted(args.dir.glob("*.safetensors"))
        total = sum(f.stat().st_size for f in files)
        print(f"GPT-2-small-shaped checkpoint: {args.blocks} blocks, d = {args.d}, n = {args.n}, "
              f"float32, {len(files)} shards, {total / 2**20:.0f} MiB "
              f"(written in {time.perf_counter() - start:.1f} s); {os.cpu_count()} CPU(s), "
              f"numpy {np.__version__}, --jobs {args.jobs}, BLAS threads "
              f"{args.threads or 'default'}; load average {os.getloadavg()[0]:.1f}")
        print(f"one block's stored tensors (c_fc, c_proj, biases): {block_bytes / 2**20:.1f} MiB")

        timing = _child(args, "time")
        blocks = args.blocks
        bare_wall, bare_cpu = timing["bare_wall"], timing["bare_cpu"]
        print("\ntime per block as a ratio to the bare Gram solve of one block (goal ≤ 1.5×)")
        print(f"  bare solve (median of 3, before the scan): wall {bare_wall:.3f} s, "
              f"CPU {bare_cpu:.3f} s")
        print(f"  scan end to end, {blocks} blocks: wall {timing['wall']:.2f} s "
              f"→ {timing['wall'] / blocks / bare_wall:.2f}× per block; CPU {timing['cpu']:.2f} s "
              f"→ {timing['cpu'] / blocks / bare_cpu:.2f}× per block")
        print(f"  per-block wall time in that scan, median: "
              f"{statistics.median(timing['block_seconds']):.3f} s → "
              f"{statistics.median(timing['block_seconds']) / bare_wall:.2f}×")
        wall_ratios = [scan / bare for bare, scan, _, _ in timing["pairs"]]
        cpu_ratios = [scan / bare for _, _, bare, scan in timing["pairs"]]
        for name, ratios in (("wall", wall_ratios), ("CPU", cpu_ratios)):
            print(f"  paired (each block's scan right after its own bare solve), {name}: median "
                  f"{statistics.median(ratios):.2f}×, min {min(ratios):.2f}×, "
                  f"max {max(ratios):.2f}×")
        print("  pairs, wall s bare/scan: " + ", ".join(
            f"{b:.2f}/{t:.2f}" for b, t, _, _ in timing["pairs"]))
        verdicts = timing["verdicts"]
        print(f"  verdicts: {verdicts.count('absorbable')} absorbable (block {PLANTED}, |S| = "
              f"{timing['S_size']}), {verdicts.count('no_decision')} no decision (biases), "
              f"{verdicts.count('not_absorbable')} not absorbable")

        scan_mem = _child(args, "memory-scan")
        one_mem = _child(args, "memory-scan", ["--only", str(PLANTED)])
        bare_mem = _child(args, "memory-bare")
        print("\npeak memory, as a ratio to one block's stored tensors (goal ≤ 4×)")
        for label, mem in ((f"scan, all {args.blocks} blocks", scan_mem),
                           (f"scan, block {PLANTED} only", one_mem),
                           ("bare Gram solve, one block", bare_mem)):
            print(f"  {label:28s} traced (NumPy) {mem['traced_peak'] / 2**20:7.1f} MiB = "
                  f"{mem['traced_peak'] / block_bytes:5.2f}×   RSS above start "
                  f"{mem['rss_above_start'] / 2**20:7.1f} MiB = "
                  f"{mem['rss_above_start'] / block_bytes:5.2f}×")
        print(f"  scan ÷ bare solve (traced): "
              f"{scan_mem['traced_peak'] / bare_mem['traced_peak']:.2f}×;  all blocks ÷ one "
              f"block: {scan_mem['traced_peak'] / one_mem['traced_peak']:.2f}×;  scan ÷ the "
              f"{args.blocks} blocks' MLP tensors: "
              f"{scan_mem['traced_peak'] / (args.blocks * block_bytes):.2f}×")
        n8 = 8 * args.n * args.n
        floor = n8 + block_bytes
        print(f"  for scale: one n×n float64 matrix is {n8 / 2**20:.1f} MiB = "
              f"{n8 / block_bytes:.2f}× a block; with the float32 weights (the floor of an "
              f"exact Gram decision) {floor / 2**20:.1f} MiB = {floor / block_bytes:.2f}×; "
              f"scan ÷ that floor (traced): {scan_mem['traced_peak'] / floor:.2f}×")


if __name__ == "__main__":
    main()
