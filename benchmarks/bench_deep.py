"""Benchmark: `leanbridge probe deep` on small shapes, and `probe tangent`.

Run: ``python benchmarks/bench_deep.py [--seed 0] [--starts 6] [--informed 2] [--quick]
[--write PATH]``.

For each shape (d, n, L → plain L' × n') it runs :func:`leanbridge.numeric.deep_probe.deep_probe`
— the generic target, the planted control and the width n + d control, every start polished by
Levenberg–Marquardt — and prints one Markdown table row: the best held-out relative error of
each fit, with the starts at ≤ 1e-8 out of the total, the ratios generic/control, the
conclusion and the time. Then the tangent excess rank[J_plain, J_res] − rank J_plain for one
block at a few (d, n) against d². The numbers are numerical evidence, not proof; what is proved
at each shape is the "theory" column (Theorems A–D of the research note ``deep-stacks.md``).

``--write PATH`` also writes the table as JSON (schema ``leanbridge.deep-evidence/1``, no
timings, so that a rerun writes the same file up to the rounding of the Levenberg–Marquardt
polish). The committed ``leanbridge/data/deep-evidence.json`` is written this way, by

    python benchmarks/bench_deep.py --write leanbridge/data/deep-evidence.json

and never edited by hand: the exports (``leanbridge export``) and the README print it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from leanbridge import __version__
from leanbridge.atomic import UnwritableError, atomic_write, check_writable
from leanbridge.numeric.deep_probe import EXACT, FLOOR, deep_probe
from leanbridge.numeric.tangent import tangent_probe

EVIDENCE_SCHEMA = "leanbridge.deep-evidence/1"
#: Where the committed table lives (relative to the repository root).
DEFAULT_DATA = "leanbridge/data/deep-evidence.json"

#: (d, n, L, L', width): Theorem B (n' < 2d) at one and two blocks, d = 2 and d = 3; a d = 2,
#: n = 4 stack (Theorem D regime, proof sketch only); the same with one more plain block
#: (L' > L, a conjecture); and d = 3, n = 2d (a conjecture).
SHAPES = [(2, 2, 1, 1, 2), (2, 2, 2, 2, 2), (3, 3, 2, 2, 3), (2, 4, 2, 2, 4), (2, 4, 2, 3, 4),
          (3, 6, 2, 2, 6)]
QUICK = SHAPES[:2]
TANGENT = [(2, 2), (2, 4), (3, 3), (3, 6)]


def _cell(fit) -> str:
    return f"{fit.best_error:.1e} ({fit.exact_starts}/{len(fit.starts)})"


def status_word(status: str) -> str:
    """The status of a statement of the note in one word: proved, proof sketch, conjecture."""
    if status.startswith("proved"):
        return "proved"
    return "proof sketch" if "sketch" in status else "conjecture"


def note_says(theory: dict) -> str:
    """What the note says at a shape, short: "not representable; Theorem B, proved"."""
    name = theory["statement"].split(":")[0].split(" (")[0]
    status = status_word(theory["status"])
    if name.lower() == status:
        return f"{theory['prediction']}; {status}"
    return f"{theory['prediction']}; {name}, {status}"


def _fit_data(fit) -> dict:
    return {"best_relative_error": fit.best_error, "exact_starts": fit.exact_starts,
            "starts": len(fit.starts), "depth": fit.depth, "width": fit.width,
            "exact_representation_known": fit.exact_known}


def evidence_row(res) -> dict:
    """One row of the written table (no timings: a rerun gives the same row)."""
    s = res.summary()
    return {"d": res.d, "n": res.n, "L": res.L, "Lp": res.Lp, "width": res.width,
            "scale": res.scale, "seed": res.seed,
            "theory": {"prediction": res.theory["prediction"],
                       "statement": res.theory["statement"],
                       "status": status_word(res.theory["status"])},
            "note_says": note_says(res.theory),
            "generic": _fit_data(res.fit("generic")),
            "planted": _fit_data(res.fit("planted")),
            "width_control": _fit_data(res.fit("width")),
            "conclusion": "dichotomy" if s["dichotomy"] else s["conclusion"].split(":")[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--starts", type=int, default=6)
    parser.add_argument("--informed", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="the first two shapes only")
    parser.add_argument("--write", metavar="PATH",
                        help=f"also write the table as JSON (the committed one: {DEFAULT_DATA})")
    args = parser.parse_args()
    if args.write and args.quick:
        parser.error("--write writes the whole table: it does not combine with --quick")
    if args.write:
        try:
            check_writable(Path(args.write))
        except UnwritableError as exc:
            parser.error(str(exc))

    print(f"probe deep (seed {args.seed}; {args.starts} random + {args.informed} informed "
          "starts per fit; best held-out relative error, starts ≤ 1e-8 / total)\n")
    print("| d | n | L | plain L′ × n′ | theory | generic | planted control | width n + d "
          "control | generic/planted | generic/width | conclusion | time |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows, tangents = [], []
    total = time.perf_counter()
    for d, n, L, Lp, width in (QUICK if args.quick else SHAPES):
        res = deep_probe(d, n, L, Lp, width, starts=args.starts, informed=args.informed,
                         seed=args.seed)
        s = res.summary()
        g, p, w = res.fit("generic"), res.fit("planted"), res.fit("width")
        row = evidence_row(res)
        rows.append(row)
        print(f"| {d} | {n} | {L} | {Lp} × {width} | {row['note_says']} | {_cell(g)} | "
              f"{_cell(p)} | {_cell(w)} ({w.depth} × {w.width}) | "
              f"{s['generic_over_planted']:.0e} | {s['generic_over_width']:.0e} | "
              f"{row['conclusion']} | {res.seconds:.1f} s |")
    print(f"\ntotal {time.perf_counter() - total:.1f} s\n")

    print("probe tangent (one block, planted matched pair)\n")
    print("| d | n | rank J_plain | rank [J_plain, J_res] | excess | d² | time |")
    print("|---|---|---|---|---|---|---|")
    for d, n in TANGENT:
        t = tangent_probe(d, n, seed=args.seed)
        tangents.append({"d": d, "n": n, "seed": args.seed, "rank_plain": t.plain.rank,
                         "rank_joint": t.joint.rank, "excess": t.excess,
                         "expected": t.expected})
        print(f"| {d} | {n} | {t.plain.rank} | {t.joint.rank} | {t.excess} | {t.expected} | "
              f"{t.seconds:.2f} s |")

    if args.write:
        command = "python benchmarks/bench_deep.py" + "".join(
            f" --{name} {value}" for name, value, default in (
                ("seed", args.seed, 0), ("starts", args.starts, 6),
                ("informed", args.informed, 2)) if value != default)
        data = {
            "schema": EVIDENCE_SCHEMA,
            "command": f"{command} --write {args.write}",
            "leanbridge_version": __version__,
            "what": "numerical evidence, not proof: best held-out relative error of a plain "
                    "ReLU stack fitted to a residual one (leanbridge probe deep), with the "
                    "starts that reached the exact threshold out of all starts",
            "seed": args.seed, "random_starts": args.starts, "informed_starts": args.informed,
            "exact_threshold": EXACT, "floor_threshold": FLOOR,
            "rows": rows, "tangent": tangents,
        }
        atomic_write(Path(args.write), json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        print(f"\nwrote {args.write}", file=sys.stderr)


if __name__ == "__main__":
    main()
