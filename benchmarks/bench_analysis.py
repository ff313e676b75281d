"""Benchmark: SymPy analysis of the whole catalog and of 1,000 generated activations.

Run: ``python benchmarks/bench_analysis.py [--count 1000] [--seed 0]``. Prints wall-clock totals
and the per-expression median. The caches are cleared first, so every number is a cold run.
Targets (issue 2): whole catalog < 2 s; 1,000 expressions < 30 s on 2 cores.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import sympy as sp

from leanbridge.analysis import analyse, scalar_facts
from leanbridge.families import CATALOG, Family, Z


def random_expression(rng: random.Random, depth: int = 3) -> sp.Expr:
    """A random composition of max, exp, tanh, powers and rationals in z."""
    if depth == 0 or rng.random() < 0.25:
        return Z if rng.random() < 0.7 else sp.Rational(rng.randint(-5, 5), rng.randint(1, 5))
    a = random_expression(rng, depth - 1)
    pick = rng.randrange(8)
    if pick == 0:
        return sp.exp(a)
    if pick == 1:
        return sp.tanh(a)
    if pick == 2:
        return sp.Max(a, 0)
    if pick == 3:
        return sp.Max(a, random_expression(rng, depth - 1))
    if pick == 4:
        return a ** rng.randint(2, 3)
    if pick == 5:
        return sp.Rational(rng.randint(1, 9), rng.randint(1, 9)) * a
    if pick == 6:
        return a + random_expression(rng, depth - 1)
    return a * random_expression(rng, depth - 1)


def clear_caches() -> None:
    analyse.cache_clear()
    scalar_facts.cache_clear()


def timed(families: list[Family]) -> list[float]:
    times = []
    for family in families:
        start = time.perf_counter()
        analyse(family)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    clear_caches()
    catalog_times = timed(list(CATALOG))
    print(f"catalog: {len(catalog_times)} families in {sum(catalog_times):.2f} s "
          f"(median {statistics.median(catalog_times) * 1000:.1f} ms)")

    rng = random.Random(args.seed)
    families = [Family(f"gen{i}", f"gen{i}", rng.random() < 0.2, random_expression(rng),
                       "generated", "benchmark") for i in range(args.count)]
    clear_caches()
    times = timed(families)
    verdicts: dict[str, int] = {}
    for family in families:
        verdict = analyse(family).verdict
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    print(f"generated: {len(times)} expressions in {sum(times):.2f} s "
          f"(median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {sorted(times)[int(0.95 * len(times))] * 1000:.1f} ms, "
          f"max {max(times) * 1000:.0f} ms)")
    print("verdicts:", ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))


if __name__ == "__main__":
    main()
