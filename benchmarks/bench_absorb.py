"""Benchmark: `leanbridge absorb` on a GPT-2-small-sized block (d = 768, n = 3072).

Run: ``python benchmarks/bench_absorb.py [--d 768] [--n 3072] [--repeat 3] [--seed 0]``.

Blocks — random, planted (an S of size d with W_down[:,S] = −W_up[S,:]⁻¹) and degenerate
(random with two identical units: singular Gram matrix, eigen-decomposition path), each for
ReLU and GELU — are decided in process (:func:`leanbridge.numeric.absorb.absorb`), and the
planted and random blocks are also run end to end through the command (reading a float32
.safetensors file, the format trained models ship in). Prints wall-clock figures (min and
median over --repeat runs) and the stage timings of the last run. Target (issue 6): decided in
under 5 s on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time

import numpy as np
from click.testing import CliRunner

from leanbridge.families import get_family
from leanbridge.numeric.absorb import absorb
from leanbridge.numeric.cli import absorb as absorb_command


def blocks(d: int, n: int, seed: int):
    rng = np.random.default_rng(seed)
    W_up = rng.standard_normal((n, d)) / np.sqrt(d)
    W_down = rng.standard_normal((d, n)) / np.sqrt(n)
    S = np.sort(rng.choice(n, d, replace=False))
    planted = W_down.copy()
    planted[:, S] = -np.linalg.inv(W_up[S])
    # Degenerate weights: two identical units make the Gram matrix singular (eigh path).
    free = [i for i in range(n) if i not in set(S.tolist())][:2]
    degenerate = W_down.copy(), W_up.copy()
    degenerate[1][free[1]] = degenerate[1][free[0]]
    degenerate[0][:, free[1]] = degenerate[0][:, free[0]]
    return {"random": (W_down, W_up, None), "planted": (planted, W_up, S.tolist()),
            "degenerate random": (*degenerate, "no_decision")}


def timed(fn, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return result, times


def fmt(times) -> str:
    return f"min {min(times):6.2f} s   median {statistics.median(times):6.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", type=int, default=768)
    parser.add_argument("--n", type=int, default=3072)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"d = {args.d}, n = {args.n}, {os.cpu_count()} CPU(s), numpy {np.__version__}, "
          f"repeat {args.repeat}")
    data = blocks(args.d, args.n, args.seed)

    print("\nin process (float64 weights): leanbridge.numeric.absorb.absorb")
    for kind, (W_down, W_up, S) in data.items():
        for name in ("relu", "gelu"):
            def run(name=name, W_down=W_down, W_up=W_up):
                return absorb(get_family(name), W_down, W_up)

            result, times = timed(run, args.repeat)
            if isinstance(S, str):      # degenerate: no S, but the theorem needs D5
                ok = result.verdict == S and result.decision.found is False
            else:
                ok = result.S == S if S is not None else result.verdict == "not_absorbable"
            extra = (f"verification {result.verification['max_relative_error']:.1e}"
                     if result.verification else
                     f"relative distance {result.distance['relative']:.4f}")
            print(f"  {kind:17s} {name:5s} {fmt(times)}   {result.verdict:15s} "
                  f"({result.decision.method}; {'as expected' if ok else 'UNEXPECTED'}; {extra})")
            stages = {**result.decision.timings, **{k: v for k, v in result.timings.items()
                                                    if k != "decide"}}
            print("           stages: " + ", ".join(f"{k} {v:.2f}" for k, v in stages.items()))

    print("\nend to end (float32 .safetensors, CLI incl. loading): leanbridge absorb FILE "
          "--activation gelu --json")
    from safetensors.numpy import save_file

    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("random", "planted"):
            W_down, W_up, S = data[kind]
            path = os.path.join(tmp, f"{kind}.safetensors")
            save_file({"mlp.down_proj.weight": W_down.astype(np.float32),
                       "mlp.up_proj.weight": W_up.astype(np.float32)}, path)
            def run_cli(path=path):
                return CliRunner().invoke(absorb_command, [path, "--activation", "gelu",
                                                           "--json"])

            result, times = timed(run_cli, args.repeat)
            out = json.loads(result.output)
            ok = out.get("S") == S if S is not None else out["verdict"] == "not_absorbable"
            extra = (f"verification {out['verification']['max_relative_error']:.1e}"
                     if out.get("verification") else
                     f"relative distance {out['distance']['relative']:.4f}")
            print(f"  {kind:17s} gelu  {fmt(times)}   {out['verdict']:15s} exit "
                  f"{result.exit_code} ({'as expected' if ok else 'UNEXPECTED'}; tolerance "
                  f"{out['decision']['tolerance']:.2e}; {extra})")


if __name__ == "__main__":
    main()
