"""Benchmark: start-up and no-Lean `check` of the command line, as ratios to bare Python.

Run: ``python benchmarks/bench_cli.py [--repeats 9] [--source DIR] [--no-bytecode-cache]``.

Times, as fresh processes run round-robin (so that a change in the machine's load hits every
command alike), ``python -c pass``, ``python -c "import sympy"``, ``leanbridge --help``,
``--version``, ``analyse relu`` and ``check`` without Lean (on a copy of the repository's
``lean/`` project, with a PATH and HOME where no ``lake`` can be found), and prints each
median and its ratio to its reference against the goal (issue 11 §4):

    leanbridge --help, --version   ≤ 4   × python -c pass
    leanbridge analyse relu        ≤ 1.3 × python -c "import sympy"
    leanbridge check (no Lean)     ≤ 2   × python -c "import sympy"

The ``leanbridge`` executable pauses the garbage collector while it imports the command; the
row "import sympy, GC paused" does the same to bare SymPy, to show how much of a ratio that is.
Python's bytecode is cached as after an install (a private PYTHONPYCACHEPREFIX, one untimed
run of each command first); ``--no-bytecode-cache`` compiles leanbridge's sources in every run
instead. ``--source DIR`` runs ``python -m leanbridge`` from the checkout DIR (e.g. an older
commit, unpacked with ``git archive``) instead of the installed ``leanbridge``. Exit code 1 if
a goal is missed. A benchmark, not a test: the numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (label, reference label, goal ratio) — the reference is one of the bare-Python rows.
GOALS = [
    ("leanbridge --help", "python -c pass", 4.0),
    ("leanbridge --version", "python -c pass", 4.0),
    ("leanbridge analyse relu", 'python -c "import sympy"', 1.3),
    ("leanbridge check (no Lean)", 'python -c "import sympy"', 2.0),
]


#: Not a goal's reference: ``import sympy`` with the garbage collector paused as the
#: ``leanbridge`` executable pauses it for its imports, to show how much of the margin that is.
SYMPY_GC_PAUSED = "import sympy, GC paused"


def _leanbridge(source: Path | None) -> list[str]:
    if source is not None:
        return [sys.executable, "-m", "leanbridge"]
    script = Path(sys.executable).with_name("leanbridge")
    if script.is_file():
        return [str(script)]
    found = shutil.which("leanbridge")
    return [found] if found else [sys.executable, "-m", "leanbridge"]


def commands(project: Path, source: Path | None) -> list[tuple[str, list[str], int]]:
    """(label, argv, expected exit code) of every timed command."""
    lb = _leanbridge(source)
    return [
        ("python -c pass", [sys.executable, "-c", "pass"], 0),
        ('python -c "import sympy"', [sys.executable, "-c", "import sympy"], 0),
        (SYMPY_GC_PAUSED, [sys.executable, "-c", "import gc; gc.disable(); import sympy; "
                           "gc.freeze(); gc.enable()"], 0),
        ("leanbridge --help", [*lb, "--help"], 0),
        ("leanbridge --version", [*lb, "--version"], 0),
        ("leanbridge analyse relu", [*lb, "analyse", "relu"], 0),
        # 3: Lean toolchain not found (everything else ran).
        ("leanbridge check (no Lean)", [*lb, "check", "--project", str(project), "--quiet"], 3),
    ]


def environment(scratch: Path, source: Path | None, bytecode_cache: bool) -> dict[str, str]:
    """No `lake` on PATH or in ~/.elan; bytecode cached privately (or not at all)."""
    bin_dir = scratch / "bin"
    bin_dir.mkdir()
    env = dict(os.environ, PATH=str(bin_dir), HOME=str(scratch / "home"))
    env.pop("PYTHONPYCACHEPREFIX", None)
    if bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    if source is not None:
        env["PYTHONPATH"] = str(source)
    return env


def run(argv: list[str], env: dict[str, str], expected: int, cwd: Path) -> float:
    start = time.perf_counter()
    completed = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if completed.returncode != expected:
        raise SystemExit(f"{' '.join(argv)}: exit {completed.returncode}, expected {expected}\n"
                         f"{completed.stdout[-2000:]}{completed.stderr[-2000:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--source", type=Path, metavar="DIR",
                        help="run `python -m leanbridge` from this checkout")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="compile leanbridge's sources in every run")
    args = parser.parse_args()
    source = args.source.resolve() if args.source else None

    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        scratch = Path(tmp)
        project = scratch / "lean"
        shutil.copytree(ROOT / "lean", project, ignore=shutil.ignore_patterns(".lake"))
        env = environment(scratch, source, not args.no_bytecode_cache)
        timed = commands(project, source)
        for _, argv, expected in timed:       # warm-up: caches the bytecode, checks exit codes
            run(argv, env, expected, scratch)
        times: dict[str, list[float]] = {label: [] for label, _, _ in timed}
        for _ in range(args.repeats):
            for label, argv, expected in timed:
                times[label].append(run(argv, env, expected, scratch))

    medians = {label: statistics.median(values) for label, values in times.items()}
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{datetime.date.today()}, {os.cpu_count()} CPUs, load average {load}; "
          f"median of {args.repeats} runs; bytecode "
          f"{'not cached' if args.no_bytecode_cache else 'cached'}; leanbridge from "
          f"{source or 'the installed package'}")
    print()
    print(f"| {'command':28} | median (s) | ratio |  goal | met |")
    print(f"|{'-' * 30}|-----------:|------:|------:|:---:|")
    for label in ("python -c pass", 'python -c "import sympy"', SYMPY_GC_PAUSED):
        print(f"| {label:28} | {medians[label]:10.3f} |       |       |     |")
    missed = 0
    for label, reference, goal in GOALS:
        ratio = medians[label] / medians[reference]
        met = ratio <= goal
        missed += not met
        bound = f"≤ {goal:g}"
        print(f"| {label:28} | {medians[label]:10.3f} | {ratio:5.2f} | {bound:>5} | "
              f"{'yes' if met else 'NO':^3} |")
    print()
    print("ratios: --help/--version to `python -c pass`; analyse and check to "
          "`python -c \"import sympy\"`")
    paused = medians[SYMPY_GC_PAUSED]
    print(f"against `{SYMPY_GC_PAUSED}` (the executable pauses the collector for its imports "
          f"too): analyse {medians['leanbridge analyse relu'] / paused:.2f}, check "
          f"{medians['leanbridge check (no Lean)'] / paused:.2f}")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
