"""The path from what Lean said to a verdict, through ``run_check`` (not a direct call of a rule).

Each test here is the one that catches a bug an independent review planted and the suite let
through (issue 21), or covers a verdict-changing branch of ``run_check``:

* an axiom answer leanbridge cannot read is never "no axioms" (``_audit`` keeps ``None``);
* a hand-edited or stale generated file reads ``tampered``/``stale`` WITH Lean too
  (``_apply_file_status`` on every path of ``run_check``);
* a user family file whose body was rewritten and re-hashed is ``stale``, not ``ok``
  (``generate.check_rendered`` compares the body with a fresh rendering);
* a gate whose continuity SymPy cannot decide gives no linearisation argument;
* a module Lake fails without any positioned Lean error (Lean killed, a crash) fails its
  theorems and blocks its importers;
* an audit that cannot import the built modules, and a ``lake`` that cannot be started;
* files read and written as UTF-8 whatever the locale's encoding.

The ``lake`` here is the stand-in of ``tests/lake_standin.py`` (NOT Lean; its formats are checked
against ``tests/fixtures/lean_output``, see ``tests/test_check_formats.py``).
"""

import json
import locale
import re

import pytest
import sympy as sp
from click.testing import CliRunner

from leanbridge import generate
from leanbridge.analysis import LINEARISATION, UNDETERMINED, analyse
from leanbridge.check import run_check, unpositioned_failure
from leanbridge.cli import main
from leanbridge.export import read_results
from leanbridge.families import Family, Z
from leanbridge.generate import digest, parse_header
from leanbridge.reports import to_json

from test_check import (  # noqa: F401  (project, standin: pytest fixtures)
    ACT,
    RELU2_DEGREE,
    by_decl,
    project,
    standin,
)

RELU2 = "SkipAbsorption/Families/Relu2.lean"


def rehash(path, body):
    """Write ``body`` under the file's own header with a matching hash (an intact header)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:2]) + f"-- leanbridge-hash: sha256:{digest(body)}\n" + body,
                    encoding="utf-8")


# -- 1. an axiom answer leanbridge cannot read ----------------------------------------------------

def test_unreadable_axiom_answer_is_infra_error_never_proved(project, standin):
    """If Lean's ``#print axioms`` wording changed, no theorem may come out ``proved``."""
    result = run_check(project, lake=standin(audit={"unanswered": [RELU2_DEGREE]}), timeout=60)
    record = by_decl(result)[RELU2_DEGREE]
    assert record.verdict == "infra_error"
    assert record.detail == "no axiom report for this declaration"
    assert record.axioms is None
    assert by_decl(result)["SkipAbsorption.relu2_posHomogeneous"].verdict == "proved"
    assert result.exit_code == 1


def test_no_readable_axiom_answer_at_all_fails_every_theorem(project, standin):
    result = run_check(project, lake=standin(audit={"unanswered": "all"}), timeout=60)
    assert {r.verdict for r in result.records} == {"infra_error"}
    assert all(r.axioms is None for r in result.records)
    assert result.exit_code == 1


# -- 2. generated files that are not what leanbridge renders, with Lean ---------------------------

def test_hand_edited_generated_file_is_tampered_with_lean(project, standin, tmp_path):
    relu2 = project / RELU2
    relu2.write_text(relu2.read_text().replace("rfl", "rfl  ", 1))
    result = run_check(project, lake=standin(), timeout=60)
    assert result.lean_status == "ran"
    mine = [r for r in result.records if r.file == RELU2]
    assert mine and {r.verdict for r in mine} == {"tampered"}
    assert {r.detail for r in mine} == {"its generated file was edited by hand"}
    others = {r.verdict for r in result.records if r.file != RELU2}
    assert "proved" in others and others <= {"proved", "proved_modulo_premise"}  # tanh: hρ
    assert result.exit_code == 1
    report = tmp_path / "check.json"
    report.write_text(to_json(result))
    verdicts = read_results(report).verdicts            # what `export --results` reads
    assert verdicts[RELU2_DEGREE] == "tampered"


def test_stale_generated_file_is_stale_with_lean(project, standin):
    relu2 = project / RELU2
    rehash(relu2, parse_header(relu2.read_text()).body.replace("rfl", "rfl ", 1))
    result = run_check(project, lake=standin(), timeout=60)
    mine = [r for r in result.records if r.file == RELU2]
    assert mine and {r.verdict for r in mine} == {"stale"}
    assert {r.detail for r in mine} == {"its generated file is stale: run `leanbridge generate`"}
    assert result.exit_code == 1


def test_tampered_file_stays_tampered_when_lake_cannot_start(project, tmp_path):
    """The early return of ``run_check`` (``lake`` failed to start) applies the file status."""
    broken = tmp_path / "broken-lake"
    broken.write_text("#!/nonexistent/interpreter\n")
    broken.chmod(0o755)
    relu2 = project / RELU2
    relu2.write_text(relu2.read_text().replace("rfl", "rfl  ", 1))
    result = run_check(project, lake=str(broken), timeout=60)
    assert result.lean_status == "infra_error"
    assert {r.verdict for r in result.records if r.file == RELU2} == {"tampered"}
    assert {r.verdict for r in result.records if r.file != RELU2} == {"infra_error"}
    assert result.exit_code == 1


# -- 3. a user family file rewritten and re-hashed ------------------------------------------------

def test_user_file_rewritten_and_rehashed_is_stale_not_ok(project, standin):
    assert CliRunner().invoke(main, ["generate", "--project", str(project), "--expr",
                                     "Max(z,0)**3", "--name", "relu_cubed"]).exit_code == 0
    relative = "SkipAbsorption/Families/ReluCubed.lean"
    path = project / relative
    body = parse_header(path.read_text()).body
    theorem = re.search(r"^theorem (\S+)[^\n]*(?:\n(?!\n)[^\n]*)*", body, re.M)
    assert theorem is not None
    forged = body.replace(theorem.group(0), f"theorem {theorem.group(1)} : True := trivial", 1)
    assert forged != body
    rehash(path, forged)
    header = parse_header(path.read_text())
    assert header.intact and header.source["name"] == "relu_cubed"
    statuses = {s.path: s for s in generate.check(project)}
    assert statuses[relative].status == "stale"
    assert statuses[relative].detail == ("leanbridge now renders a different file; "
                                         "run `leanbridge generate`")
    result = run_check(project, lake=standin(), timeout=60)
    mine = [r for r in result.records if r.file == relative]
    assert mine and {r.verdict for r in mine} == {"stale"}
    assert result.exit_code == 1


def test_gated_user_file_is_ok_as_written():
    """The re-rendering from a user file's header keeps its gate (``"gated": true``)."""
    from leanbridge.generate import user_family, user_output, write
    import shutil
    from pathlib import Path
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "lean"
        shutil.copytree(Path(__file__).resolve().parents[1] / "lean", root,
                        ignore=shutil.ignore_patterns(".lake"))
        write(root, [user_output(user_family("Max(z,0)**2", "gate_sq", True))])
        relative = "SkipAbsorption/Families/GateSq.lean"
        assert parse_header((root / relative).read_text()).source["gated"] is True
        assert {s.path: s.status for s in generate.check(root)}[relative] == "ok"


# -- 4. a gate whose continuity SymPy cannot decide -----------------------------------------------

def test_gate_of_undecided_continuity_gives_no_linearisation_argument():
    wobble = sp.Piecewise((sp.sin(1 / Z), Z > 0), (0, True))   # no limit at 0+
    family = Family("wobble_gate", "wobble_gate", True, wobble, "test", "user")
    result = analyse(family)
    assert result.facts.value_at_0 == 0
    assert result.facts.continuous_at_0 is None
    assert LINEARISATION not in result.argument_names
    assert "not used: g(0) = 0 but continuity of g at 0 is unknown" in result.reasons
    assert result.verdict == UNDETERMINED


def test_gate_with_a_jump_at_zero_gives_no_linearisation_argument():
    step = sp.Piecewise((1, Z > 0), (0, True))
    result = analyse(Family("step_gate", "step_gate", True, step, "test", "user"))
    assert result.facts.continuous_at_0 is False
    assert LINEARISATION not in result.argument_names
    assert "not used: g(0) = 0 but continuity of g at 0 is false" in result.reasons
    # homogeneous of degree 0: the gated block has degree 1, the skip's — no degree argument
    assert ("not used: g is positively homogeneous of degree 0, so the block has degree 1 — the "
            "same as the skip; the degree argument does not apply") in result.reasons


def test_undecided_slope_is_reported_side_by_side():
    """``z·sin(1/z)`` on one side: SymPy finds no slope there; the reason names which side."""
    for side, expected in ((Z > 0, "right unknown, left 0"), (Z < 0, "right 0, left unknown")):
        wobble = sp.Piecewise((Z * sp.sin(1 / Z), side), (0, True))
        result = analyse(Family("wobble", "wobble", False, wobble, "test", "user"))
        assert LINEARISATION not in result.argument_names
        assert (f"not used: flatness of σ at 0 is unknown: σ(0) = 0, slopes {expected}"
                in result.reasons)


# -- 5. a module Lake fails without a positioned Lean error ---------------------------------------

def test_module_failed_without_positioned_error_fails_its_theorems(project, standin, tmp_path):
    """Lean killed (exit 137) while building Premises/ReluPowers: Lake marks it ✖ with only its own
    notes. Its theorems are errors, its importers are not built, and the check exits 1."""
    lake = standin(crash={ACT: {"code": 137, "stderr": "INTERNAL PANIC: out of memory"}})
    result = run_check(project, lake=lake, timeout=60)
    records = by_decl(result)
    own = records["SkipAbsorption.relu2_posHomogeneous"]
    assert own.verdict == "error" and not own.messages
    assert own.detail == ("its module SkipAbsorption.Premises.ReluPowers failed to build: error: Lean "
                          "exited with code 137 (Lean's stderr: INTERNAL PANIC: out of memory)")
    dependent = records[RELU2_DEGREE]
    assert dependent.verdict == "error"
    assert "it imports SkipAbsorption.Premises.ReluPowers, which failed to build" in dependent.detail
    modules = {m.module: m.status for m in result.modules}
    assert modules["SkipAbsorption.Premises.ReluPowers"] == "failed"
    assert modules["SkipAbsorption.Families.Relu2"] == "blocked"
    assert records["SkipAbsorption.not_absorbable_of_posHomogeneous"].verdict == "proved"
    assert result.build_failed and result.exit_code == 1
    assert result.lean_note.startswith("lake build failed (exit code 1; ")
    assert result.lean_note.endswith("; 1 module(s) failed, "
                                     f"{len(result.modules) - 1} not built)")
    data = json.loads(to_json(result))
    assert data["exit_code"] == 1
    assert "proved" not in {r["verdict"] for r in data["results"]
                            if r["file"] == ACT}


def test_why_a_module_failed_without_a_positioned_error():
    stdout = 'info: stdout:\n{"severity":"error","pos":{"line":3'
    stderr = "info: stderr:\nfirst line\nStack overflow detected. Aborting.\n"
    exited = "error: Lean exited with code 134"
    assert unpositioned_failure([stdout, stderr, exited]) == (
        "error: Lean exited with code 134 (Lean's stderr: Stack overflow detected. Aborting.)")
    # Lean's stdout is not its stderr; a stderr without Lake's error note still says why.
    assert unpositioned_failure([stdout, exited]) == "error: Lean exited with code 134"
    assert unpositioned_failure([stderr]) == ("Lake reported the module failed (Lean's stderr: "
                                              "Stack overflow detected. Aborting.)")
    assert unpositioned_failure(["info: stderr:\n  \n"]) == "Lake reported the module failed"
    assert unpositioned_failure([]) == "Lake reported the module failed"
    assert unpositioned_failure(["error: ", "info: stderr:\nx"]) == (
        "Lake reported the module failed (Lean's stderr: x)")
    assert unpositioned_failure(["error: a\nmore", "error: b"]) == "error: a; error: b"
    long = unpositioned_failure(["info: stderr:\n" + "x" * 300])
    assert long == "Lake reported the module failed (Lean's stderr: " + "x" * 200 + ")"


def test_crash_with_half_written_json_is_still_a_failure(project, standin):
    """Lean died mid-message: Lake logs the partial JSON as ``info: stdout:``; not a message."""
    lake = standin(crash={ACT: {"code": 134, "stdout": '{"severity":"error","pos":{"line":3',
                                "stderr": "Stack overflow detected. Aborting."}})
    result = run_check(project, lake=lake, timeout=60)
    own = by_decl(result)["SkipAbsorption.relu2_posHomogeneous"]
    assert own.verdict == "error" and "Lean exited with code 134" in own.detail
    assert result.exit_code == 1


def test_old_lake_path_prefixes_and_failure_header_are_read(project, standin):
    """Lakes before ``relPathFrom`` printed ``././`` prefixes, and "Some required builds …"."""
    line = next(n for n, text in enumerate((project / ACT).read_text().splitlines(), start=1)
                if text.startswith("theorem relu2_posHomogeneous")) + 2
    lake = standin(build={"path_prefix": "././././",
                          "failures_header": "Some required builds logged failures:"},
                   errors={ACT: [{"line": line, "text": "unsolved goals"}]})
    result = run_check(project, lake=lake, timeout=60)
    record = by_decl(result)["SkipAbsorption.relu2_posHomogeneous"]
    assert record.verdict == "error" and record.detail == "unsolved goals"
    assert record.messages[0].file == ACT
    assert result.exit_code == 1


# -- the audit -----------------------------------------------------------------------------------

def test_audit_that_cannot_import_the_built_modules_is_infra_error(project, standin, tmp_path):
    lake = standin(audit={"unbuilt": ["SkipAbsorption.Parity"]})
    result = run_check(project, lake=lake, timeout=60)
    assert not result.modules                      # the build itself succeeded
    assert result.lean_note == "lake build succeeded"
    public = [r for r in result.records]
    assert public and {r.verdict for r in public} == {"infra_error"}
    assert public[0].detail.startswith("the audit cannot import the built modules: object file")
    run = result.audit["runs"][0]
    assert run["infra"] == public[0].detail
    assert set(run) == {"command", "theorems", "seconds", "timed_out", "infra"}
    assert run["theorems"] == len(public) and run["timed_out"] is False
    assert isinstance(run["seconds"], float) and run["seconds"] == round(run["seconds"], 3)
    assert result.exit_code == 1


# -- files are UTF-8 whatever the locale -------------------------------------------------------

@pytest.fixture
def ascii_locale():
    """Python's default text encoding made ASCII for the test, as under a C locale without
    PEP 538's coercion (Windows' code pages are the same kind of trap): a file read or written
    without ``encoding="utf-8"`` then fails on the Lean sources' ℕ, σ, →."""
    old = locale.setlocale(locale.LC_CTYPE)
    try:
        locale.setlocale(locale.LC_CTYPE, "C")
        if locale.getpreferredencoding(False).replace("-", "").lower() == "utf8":
            pytest.skip("this Python reads files as UTF-8 whatever the locale (UTF-8 mode)")
        yield
    finally:
        locale.setlocale(locale.LC_CTYPE, old)


def test_check_and_export_read_and_write_utf8_in_an_ascii_locale(project, standin, tmp_path,
                                                                 ascii_locale):
    """The whole check with Lean (the build, the public audit written to a scratch file, a
    private theorem audited in a copy of its file), its JSON report, and ``export --results``
    reading it back."""
    parity = project / "SkipAbsorption" / "Parity.lean"
    text = parity.read_text(encoding="utf-8")
    marker = "end SkipAbsorption"
    extra = "/-- A private helper: σ(−z) = σ(z) (test). -/\nprivate theorem zz_private_fact : " \
            "(1 : ℕ) = 1 := rfl\n\n"
    parity.write_text(text.rstrip()[:-len(marker)] + extra + marker + "\n", encoding="utf-8")
    report = tmp_path / "report.json"
    cli = CliRunner().invoke(main, ["check", "--project", str(project), "--lake", standin(),
                                    "--quiet", "--json", str(report)])
    assert cli.exit_code == 0, cli.output
    assert not report.read_text(encoding="utf-8").isascii()
    results = read_results(report)
    assert results.verdicts["SkipAbsorption.zz_private_fact"] == "proved"
    assert results.verdicts[RELU2_DEGREE] == "proved"
