"""End-to-end `leanbridge check` with a real Lean toolchain (skipped when `lake` is absent).

Runs on a COPY of `lean/` (sources and lakefile copied; the built `.lake/build` copied so the
library is not rebuilt; `.lake/packages` — Mathlib — linked, read only): the real tree is never
written to. The copy gets two probe modules imported by its root: one with a deliberately false
theorem, one with a hole, a theorem using the hole, and a true theorem. Lean's verdicts must be:
`error` for the false theorem (its module fails to build; the root, importing it, is not built),
`sorry` for the hole AND for its dependent (by `#print axioms`), `proved` for the true one and
for a catalog theorem, exit code 1. On an untouched copy every theorem must be `proved`, exit 0.

The GitHub workflow (.github/workflows/lean.yml) runs this after `lake build`.
"""

import os
import shutil
from pathlib import Path

import pytest

from leanbridge.check import run_check

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"
TIMEOUT = float(os.environ.get("LEANBRIDGE_LAKE_TIMEOUT", "7200"))

pytestmark = pytest.mark.skipif(
    shutil.which("lake") is None,
    reason="lake not found on PATH: no Lean toolchain, the end-to-end check was not run")

HOLE = "so" + "rry"
FALSE_PROBE = """import SkipAbsorption.Defs

/-! Probe of leanbridge's end-to-end test: a false theorem (this module fails to build). -/

namespace SkipAbsorption.EndToEnd

/-- False on purpose. -/
theorem deliberately_false : (1 : ℕ) = 2 := by
  decide

end SkipAbsorption.EndToEnd
"""
HOLE_PROBE = f"""import SkipAbsorption.Defs

/-! Probe of leanbridge's end-to-end test: a hole, a theorem using it, a true theorem. -/

namespace SkipAbsorption.EndToEnd

/-- Has a hole on purpose. -/
theorem with_a_hole : (2 : ℕ) = 2 := by
  {HOLE}

/-- Uses the hole: `#print axioms` lists `sorryAx` for it too. -/
theorem uses_the_hole : (2 : ℕ) = 2 := with_a_hole

/-- True, by `rfl`. -/
theorem plainly_true : (3 : ℕ) = 3 := rfl

end SkipAbsorption.EndToEnd
"""


def copy_project(target: Path) -> Path:
    """A copy of lean/ that shares Mathlib (linked) and starts from the real build outputs."""
    shutil.copytree(LEAN, target, ignore=shutil.ignore_patterns(".lake"))
    lake_dir = LEAN / ".lake"
    if (lake_dir / "packages").is_dir():
        (target / ".lake").mkdir()
        (target / ".lake" / "packages").symlink_to(lake_dir / "packages",
                                                   target_is_directory=True)
        if (lake_dir / "build").is_dir():
            shutil.copytree(lake_dir / "build", target / ".lake" / "build")
    return target


def test_false_theorem_is_error_hole_and_its_dependent_are_sorry(tmp_path):
    before = sorted(p.relative_to(LEAN) for p in LEAN.rglob("*.lean") if ".lake" not in p.parts)
    project = copy_project(tmp_path / "lean")
    (project / "SkipAbsorption" / "ZzEndToEndFalse.lean").write_text(FALSE_PROBE)
    (project / "SkipAbsorption" / "ZzEndToEndHole.lean").write_text(HOLE_PROBE)
    root = project / "SkipAbsorption.lean"
    root.write_text("import SkipAbsorption.ZzEndToEndFalse\nimport SkipAbsorption.ZzEndToEndHole\n"
                    + root.read_text())
    result = run_check(project, timeout=TIMEOUT)
    records = {r.decl: r for r in result.records}
    assert result.lean_status == "ran"
    assert records["SkipAbsorption.EndToEnd.deliberately_false"].verdict == "error"
    modules = {m.module: m.status for m in result.modules}
    assert modules["SkipAbsorption.ZzEndToEndFalse"] == "failed"
    assert modules["SkipAbsorption"] == "blocked"
    hole = records["SkipAbsorption.EndToEnd.with_a_hole"]
    assert hole.verdict == "sorry" and "sorryAx" in hole.axioms
    assert any(m.is_sorry_warning for m in hole.messages)
    dependent = records["SkipAbsorption.EndToEnd.uses_the_hole"]
    assert dependent.verdict == "sorry" and "sorryAx" in dependent.axioms
    assert records["SkipAbsorption.EndToEnd.plainly_true"].verdict == "proved"
    catalog = records["SkipAbsorption.Families.relu2_not_absorbable_degree"]
    assert catalog.verdict == "proved", catalog.detail
    assert set(catalog.axioms) <= {"propext", "Classical.choice", "Quot.sound"}
    assert result.exit_code == 1
    after = sorted(p.relative_to(LEAN) for p in LEAN.rglob("*.lean") if ".lake" not in p.parts)
    assert after == before, "the real lean/ tree was written to"


def test_untouched_library_is_proved_and_exits_0(tmp_path):
    result = run_check(copy_project(tmp_path / "lean"), timeout=TIMEOUT)
    failures = {r.decl: (r.verdict, r.detail) for r in result.records if r.verdict != "proved"}
    assert failures == {}
    assert not result.modules and result.exit_code == 0
