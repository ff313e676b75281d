"""Benchmark: `leanbridge probe deep` on small shapes, and `probe tangent`.

Run: ``python benchmarks/bench_deep.py [--seed 0] [--starts 6] [--informed 2] [--quick]
[--write PATH] [--check PATH | --no-check]``.

For each shape (d, n, L → plain L' × n') it runs :func:`leanbridge.numeric.deep_probe.deep_probe`
— the generic target, the planted control and the width n + d control, every start polished by
Levenberg–Marquardt — and prints one Markdown table row: per fit, the best held-out relative
error of the random starts and of the informed starts (the known exact solution, jittered),
each with its starts at ≤ 1e-8 out of that kind's starts, the ratios generic/control, the
conclusion and the time. A dichotomy is concluded only when the controls are exact from random
starts; when only informed starts reach them the conclusion says "controls exact from informed
starts only". Then the tangent excess rank[J_plain, J_res] − rank J_plain for one block at a
few (d, n) against d². The numbers are numerical evidence, not proof; what is proved at each
shape is the "theory" column (Theorems A–D of the research note ``deep-stacks.md``).

**Exit status.** 1 when a result contradicts a recorded conclusion: a row whose conclusion
differs from the one the recorded table (``--check PATH``, default the committed
``leanbridge/data/deep-evidence.json``) gives for the same shape, seed and numbers of starts, a
tangent excess that differs from the recorded one, or a generic fit that is exact where a
proved statement says "not representable" (checked whatever the table). Rows run with other
settings than the recorded table's are not compared (a note says so). ``--no-check`` skips the
comparison with the table (not the check against proved statements).

``--write PATH`` also writes the table as JSON (schema ``leanbridge.deep-evidence/1``, no
timings, so that a rerun writes the same file up to the rounding of the Levenberg–Marquardt
polish); it does not write when a result contradicts the recorded table (rerun with
``--no-check`` to record new conclusions deliberately). The committed
``leanbridge/data/deep-evidence.json`` is written this way, by

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
from leanbridge.numeric.deep_probe import EXACT, FLOOR, KINDS, deep_probe, kind_cell
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


#: Where the committed table is, whatever the working directory.
ROOT = Path(__file__).resolve().parents[1]


def _cell(fit) -> str:
    """"random 2.4e-02 (0/6); informed 3.0e-16 (1/2)": per kind of start, the best held-out
    error and the exact starts out of that kind's starts."""
    return "; ".join(f"{kind} {kind_cell(fit.kind_summary(kind))}" for kind in KINDS)


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


def _kind_data(fit, kind: str) -> dict:
    part = fit.kind_summary(kind)
    return {"best_relative_error": part["best_relative_error"],
            "exact_starts": part["exact_starts"], "starts": part["starts"]}


def _fit_data(fit) -> dict:
    return {"best_relative_error": fit.best_error, "exact_starts": fit.exact_starts,
            "starts": len(fit.starts), "depth": fit.depth, "width": fit.width,
            "exact_representation_known": fit.exact_known,
            **{kind: _kind_data(fit, kind) for kind in KINDS}}


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
            "controls_exact_from_random": s["controls_exact_from_random"],
            "conclusion": s["verdict"]}


def _key(row: dict) -> tuple:
    return (row["d"], row["n"], row["L"], row["Lp"], row["width"], row["seed"])


def contradicts_theory(row: dict) -> str | None:
    """A generic fit that is exact where a proved statement says "not representable"."""
    theory = row["theory"]
    if (theory["status"] == "proved" and theory["prediction"].startswith("not representable")
            and row["generic"]["best_relative_error"] <= EXACT):
        error = row["generic"]["best_relative_error"]
        return (f"the generic target was fitted exactly ({error:.1e}) although "
                f"{theory['statement'].split(':')[0]} (proved) says it is not representable")
    return None


def load_recorded(path: Path) -> dict | None:
    """The recorded table at ``path``, or None if there is none (a note on stderr)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        print(f"note: no recorded table at {path}: nothing to compare with", file=sys.stderr)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"note: cannot read the recorded table {path} ({exc}): nothing to compare with",
              file=sys.stderr)
    return None


def contradictions(rows: list[dict], tangents: list[dict], recorded: dict | None,
                   settings: tuple[int, int, int]) -> list[str]:
    """What contradicts the recorded table (same shape, seed and starts) or a proved
    statement, one line each."""
    found = []
    for row in rows:
        problem = contradicts_theory(row)
        if problem:
            found.append(f"{_key(row)[:5]}: {problem}")
    if recorded is None:
        return found
    own = (recorded.get("seed"), recorded.get("random_starts"), recorded.get("informed_starts"))
    if own != settings:
        print(f"note: not compared with the recorded table: its rows are for seed {own[0]}, "
              f"{own[1]} random + {own[2]} informed starts", file=sys.stderr)
        return found
    by_key = {_key(r): r for r in recorded.get("rows", [])}
    for row in rows:
        old = by_key.get(_key(row))
        if old is None:
            print(f"note: shape {_key(row)[:5]} is not in the recorded table", file=sys.stderr)
        elif old.get("conclusion") != row["conclusion"]:
            found.append(f"{_key(row)[:5]}: conclusion {row['conclusion']!r}, recorded "
                         f"{old.get('conclusion')!r}")
    by_shape = {(t["d"], t["n"], t["seed"]): t for t in recorded.get("tangent", [])}
    for t in tangents:
        old = by_shape.get((t["d"], t["n"], t["seed"]))
        if old is not None and old.get("excess") != t["excess"]:
            found.append(f"tangent (d, n) = ({t['d']}, {t['n']}): excess {t['excess']}, "
                         f"recorded {old.get('excess')}")
    return found


def main() -> int:
    """Run the benchmark; the exit status (0, or 1 when a result contradicts a recorded
    conclusion)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--starts", type=int, default=6)
    parser.add_argument("--informed", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="the first two shapes only")
    parser.add_argument("--write", metavar="PATH",
                        help=f"also write the table as JSON (the committed one: {DEFAULT_DATA})")
    parser.add_argument("--check", metavar="PATH", default=str(ROOT / DEFAULT_DATA),
                        help="the recorded table the results must agree with [default: the "
                             f"committed {DEFAULT_DATA}]")
    parser.add_argument("--no-check", action="store_true",
                        help="do not compare with the recorded table (to record new "
                             "conclusions deliberately with --write)")
    args = parser.parse_args()
    if args.write and args.quick:
        parser.error("--write writes the whole table: it does not combine with --quick")
    if args.write:
        try:
            check_writable(Path(args.write))
        except UnwritableError as exc:
            parser.error(str(exc))
    recorded = None if args.no_check else load_recorded(Path(args.check))

    print(f"probe deep (seed {args.seed}; {args.starts} random + {args.informed} informed "
          "starts per fit; per kind of start: best held-out relative error, starts ≤ 1e-8 / "
          "starts of that kind)\n")
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

    found = contradictions(rows, tangents, recorded, (args.seed, args.starts, args.informed))
    for line in found:
        print(f"contradiction: {line}", file=sys.stderr)
    if found:
        print(f"{len(found)} result(s) contradict the recorded conclusions"
              + (f"; {args.write} not written (rerun with --no-check to record them)"
                 if args.write else ""), file=sys.stderr)
        return 1
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
                    "starts that reached the exact threshold out of all starts, and the same "
                    "for the random and for the informed starts separately (informed: the "
                    "known exact solution, jittered); a dichotomy is concluded only when the "
                    "controls are exact from random starts",
            "seed": args.seed, "random_starts": args.starts, "informed_starts": args.informed,
            "exact_threshold": EXACT, "floor_threshold": FLOOR,
            "rows": rows, "tangent": tangents,
        }
        atomic_write(Path(args.write), json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        print(f"\nwrote {args.write}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
