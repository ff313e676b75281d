"""Benchmark: `leanbridge probe deep` on small shapes, and `probe tangent`.

Run: ``python benchmarks/bench_deep.py [--seed 0] [--starts 6] [--informed 2] [--quick]``.

For each shape (d, n, L → plain L' × n') it runs :func:`leanbridge.numeric.deep_probe.deep_probe`
— the generic target, the planted control and the width n + d control, every start polished by
Levenberg–Marquardt — and prints one Markdown table row: the best held-out relative error of
each fit, with the starts at ≤ 1e-8 out of the total, the ratios generic/control, the
conclusion and the time. Then the tangent excess rank[J_plain, J_res] − rank J_plain for one
block at a few (d, n) against d². The numbers are numerical evidence, not proof; what is proved
at each shape is the "theory" column (Theorems A–D of the research note ``deep-stacks.md``).
"""

from __future__ import annotations

import argparse
import time

from leanbridge.numeric.deep_probe import deep_probe
from leanbridge.numeric.tangent import tangent_probe

#: (d, n, L, L', width): Theorem B (n' < 2d) at one and two blocks, and a d = 2, n = 4 stack
#: (Theorem D regime, proof sketch only).
SHAPES = [(2, 2, 1, 1, 2), (2, 2, 2, 2, 2), (2, 4, 2, 2, 4)]
QUICK = SHAPES[:2]
TANGENT = [(2, 2), (2, 4), (3, 3), (3, 6)]


def _cell(fit) -> str:
    return f"{fit.best_error:.1e} ({fit.exact_starts}/{len(fit.starts)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--starts", type=int, default=6)
    parser.add_argument("--informed", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="the first two shapes only")
    args = parser.parse_args()

    print(f"probe deep (seed {args.seed}; {args.starts} random + {args.informed} informed "
          "starts per fit; best held-out relative error, starts ≤ 1e-8 / total)\n")
    print("| d | n | L | plain L′ × n′ | theory | generic | planted control | width n + d "
          "control | generic/planted | generic/width | conclusion | time |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    total = time.perf_counter()
    for d, n, L, Lp, width in (QUICK if args.quick else SHAPES):
        res = deep_probe(d, n, L, Lp, width, starts=args.starts, informed=args.informed,
                         seed=args.seed)
        s = res.summary()
        g, p, w = res.fit("generic"), res.fit("planted"), res.fit("width")
        conclusion = "dichotomy" if s["dichotomy"] else s["conclusion"].split(":")[0]
        print(f"| {d} | {n} | {L} | {Lp} × {width} | {res.theory['prediction']} "
              f"({res.theory['statement'].split(':')[0].split(' (')[0]}) | {_cell(g)} | {_cell(p)} | "
              f"{_cell(w)} ({w.depth} × {w.width}) | {s['generic_over_planted']:.0e} | "
              f"{s['generic_over_width']:.0e} | {conclusion} | {res.seconds:.1f} s |")
    print(f"\ntotal {time.perf_counter() - total:.1f} s\n")

    print("probe tangent (one block, planted matched pair)\n")
    print("| d | n | rank J_plain | rank [J_plain, J_res] | excess | d² | time |")
    print("|---|---|---|---|---|---|---|")
    for d, n in TANGENT:
        t = tangent_probe(d, n, seed=args.seed)
        print(f"| {d} | {n} | {t.plain.rank} | {t.joint.rank} | {t.excess} | {t.expected} | "
              f"{t.seconds:.2f} s |")


if __name__ == "__main__":
    main()
