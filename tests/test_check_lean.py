"""End-to-end `leanbridge check` with a real Lean toolchain (skipped when `lake` is absent).

It adds a temporary Lean file with a deliberately false theorem and one with a hole to the
real Lake project, runs the whole check, and requires Lean's verdicts: `error` for the false
theorem, `sorry` for the hole. The file is removed afterwards.
"""

import shutil
from pathlib import Path

import pytest

from leanbridge.check import run_check

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"

pytestmark = pytest.mark.skipif(
    shutil.which("lake") is None,
    reason="lake not found on PATH: no Lean toolchain, the end-to-end check was not run")

PROBE = """import SkipAbsorption.Defs

/-! Temporary file of leanbridge's end-to-end test: one false theorem, one hole. -/

namespace SkipAbsorption.EndToEnd

theorem deliberately_false : (1 : ℕ) = 2 := by
  decide

theorem with_a_hole : (2 : ℕ) = 2 := by
  {hole}

end SkipAbsorption.EndToEnd
""".replace("{hole}", "so" + "rry")


def test_false_theorem_is_error_and_hole_is_sorry():
    probe = LEAN / "SkipAbsorption" / "Families" / "ZzLeanbridgeEndToEnd.lean"
    probe.write_text(PROBE, encoding="utf-8")
    try:
        result = run_check(LEAN, timeout=3600)
    finally:
        probe.unlink()
    records = {r.decl: r for r in result.records}
    assert result.lean_status == "ran"
    assert records["SkipAbsorption.EndToEnd.deliberately_false"].verdict == "error"
    assert records["SkipAbsorption.EndToEnd.with_a_hole"].verdict == "sorry"
    assert "sorryAx" in records["SkipAbsorption.EndToEnd.with_a_hole"].axioms
