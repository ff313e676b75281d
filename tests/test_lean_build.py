"""Build the Lean library with Lake, when a Lean toolchain is available.

On a machine without ``lake`` (as in the workplace where the library was written) the build
test is skipped with the reason printed. Elsewhere it runs ``lake build`` in ``lean/`` and
fails on a non-zero exit, on a "declaration uses 'sorry'" warning, or on a ``#print axioms``
line (from ``SkipAbsorption/Audit.lean``) that names an axiom outside the allowlist
``propext``, ``Classical.choice``, ``Quot.sound``.

The log parsing is factored into small functions that are tested on canned logs everywhere.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LEAN_DIR = REPO / "lean"

AXIOM_ALLOWLIST = frozenset({"propext", "Classical.choice", "Quot.sound"})

# Lean has printed both `declaration uses 'sorry'` and a backquoted variant.
SORRY_WARNING_RE = re.compile(r"declaration uses ['`]sorry['`]")
AXIOMS_LINE_RE = re.compile(r"'([^']+)' depends on axioms: \[([^\]]*)\]")

BUILD_TIMEOUT_S = int(os.environ.get("LEANBRIDGE_LAKE_TIMEOUT", "7200"))


def sorry_warnings(log: str) -> list[str]:
    """Lines of a build log that report a declaration using a hole."""
    return [line for line in log.splitlines() if SORRY_WARNING_RE.search(line)]


def axiom_violations(log: str) -> dict[str, list[str]]:
    """Declarations whose ``#print axioms`` output names axioms outside the allowlist."""
    bad: dict[str, list[str]] = {}
    for decl, axioms in AXIOMS_LINE_RE.findall(log):
        names = [a.strip() for a in axioms.split(",") if a.strip()]
        extra = [a for a in names if a not in AXIOM_ALLOWLIST]
        if extra:
            bad[decl] = extra
    return bad


def test_log_parsers_on_canned_output():
    log = "\n".join(
        [
            "info: SkipAbsorption/Audit.lean:3:0: 'SkipAbsorption.ok' depends on axioms: "
            "[propext, Classical.choice, Quot.sound]",
            "info: SkipAbsorption/Audit.lean:4:0: 'SkipAbsorption.holey' depends on axioms: "
            "[propext, sorryAx]",
            "info: SkipAbsorption/Audit.lean:5:0: 'SkipAbsorption.pure' does not depend on any axioms",
            "warning: SkipAbsorption/Bad.lean:7:8: declaration uses 'sorry'",
        ]
    )
    assert axiom_violations(log) == {"SkipAbsorption.holey": ["sorryAx"]}
    assert len(sorry_warnings(log)) == 1
    clean = "info: x.lean:1:0: 'A.b' depends on axioms: [propext, Quot.sound]\nBuild completed"
    assert axiom_violations(clean) == {}
    assert sorry_warnings(clean) == []


def test_lake_build():
    lake = shutil.which("lake")
    if lake is None:
        pytest.skip("lake not found on PATH: no Lean toolchain, lake build not run")
    # Prebuilt Mathlib oleans; failure here is not fatal (the build then compiles Mathlib).
    subprocess.run(
        [lake, "exe", "cache", "get"],
        cwd=LEAN_DIR,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        check=False,
    )
    proc = subprocess.run(
        [lake, "build"],
        cwd=LEAN_DIR,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        check=False,
    )
    log = proc.stdout + "\n" + proc.stderr
    assert proc.returncode == 0, f"lake build failed (exit {proc.returncode}):\n{log[-8000:]}"
    assert sorry_warnings(log) == [], "\n".join(sorry_warnings(log))
    assert axiom_violations(log) == {}, axiom_violations(log)
