"""Build the Lean library with Lake, when a Lean toolchain is available.

On a machine without ``lake`` (as in the workplace where the library was written) the build
test is skipped with the reason printed. Elsewhere it runs ``lake build`` in ``lean/`` and
fails on a non-zero exit, on a module Lake reports failed, on Lean's "declaration uses sorry"
warning, or on a ``#print axioms`` answer (from ``SkipAbsorption/Audit.lean``) naming an axiom
outside the allowlist ``propext``, ``Classical.choice``, ``Quot.sound``.

The log is read by the product's own parsers (:func:`leanbridge.lean.messages.parse_build_log`
and :func:`~leanbridge.lean.messages.parse_axioms`), which are tested on canned logs everywhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from leanbridge.lean.messages import INFORMATION, parse_axioms, parse_build_log

REPO = Path(__file__).resolve().parents[1]
LEAN_DIR = REPO / "lean"

AXIOM_ALLOWLIST = frozenset({"propext", "Classical.choice", "Quot.sound"})
BUILD_TIMEOUT_S = int(os.environ.get("LEANBRIDGE_LAKE_TIMEOUT", "7200"))


def build_problems(log_text: str) -> dict[str, object]:
    """Everything in a ``lake build`` log that must not be there, by kind."""
    log = parse_build_log(log_text)
    info = "\n".join(m.text for m in log.messages if m.severity == INFORMATION)
    return {
        "failed": log.failed_captions,
        "errors": [f"{m.file}:{m.line}: {m.text}" for m in log.messages if m.severity == "error"],
        "sorry": [f"{m.file}:{m.line}" for m in log.messages if m.is_sorry_warning],
        "axioms": {decl: sorted(set(axioms) - AXIOM_ALLOWLIST)
                   for decl, axioms in parse_axioms(info).items()
                   if set(axioms) - AXIOM_ALLOWLIST},
    }


CANNED = "\n".join([
    "ℹ [40/42] Built SkipAbsorption.Audit (2.1s)",
    "info: SkipAbsorption/Audit.lean:3:0: 'SkipAbsorption.ok' depends on axioms: "
    "[propext, Classical.choice, Quot.sound]",
    "info: SkipAbsorption/Audit.lean:4:0: 'SkipAbsorption.holey' depends on axioms: [propext,",
    " sorryAx,",
    " Classical.choice]",
    "info: SkipAbsorption/Audit.lean:5:0: 'SkipAbsorption.pure' does not depend on any axioms",
    "⚠ [41/42] Built SkipAbsorption.Bad (1.0s)",
    "warning: SkipAbsorption/Bad.lean:7:8: declaration uses `sorry`",
    "✖ [42/42] Building SkipAbsorption.Worse (0.4s)",
    "error: SkipAbsorption/Worse.lean:9:2: unsolved goals",
    "⊢ False",
    "error: Lean exited with code 1",
    "Some required targets logged failures:",
    "- SkipAbsorption.Worse",
    "error: build failed",
])


def test_build_problems_on_a_canned_log():
    problems = build_problems(CANNED)
    assert problems == {
        "failed": ["SkipAbsorption.Worse"],
        "errors": ["SkipAbsorption/Worse.lean:9: unsolved goals\n⊢ False"],
        "sorry": ["SkipAbsorption/Bad.lean:7"],
        "axioms": {"SkipAbsorption.holey": ["sorryAx"]},
    }
    clean = ("ℹ [1/1] Built SkipAbsorption.Audit (9ms)\ninfo: SkipAbsorption/Audit.lean:1:0: "
             "'A.b' depends on axioms: [propext, Quot.sound]\nBuild completed successfully "
             "(1 jobs).")
    assert build_problems(clean) == {"failed": [], "errors": [], "sorry": [], "axioms": {}}


def test_lake_build():
    lake = shutil.which("lake")
    if lake is None:
        pytest.skip("lake not found on PATH: no Lean toolchain, lake build not run")
    proc = subprocess.run([lake, "build"], cwd=LEAN_DIR, capture_output=True, text=True,
                          timeout=BUILD_TIMEOUT_S, check=False)
    log = proc.stdout + "\n" + proc.stderr
    assert proc.returncode == 0, f"lake build failed (exit {proc.returncode}):\n{log[-8000:]}"
    assert build_problems(log) == {"failed": [], "errors": [], "sorry": [], "axioms": {}}
