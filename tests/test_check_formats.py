"""leanbridge against Lean's and Lake's output formats, as fixtures (not the stand-in's output).

The fixtures in ``tests/fixtures/lean_output/`` are our own logs, written in the formats read in
the lean4 and Lake sources (``tests/fixtures/lean_output/README.md`` cites where). Here the
parser, the module attribution and ``run_check`` are tested against them; and the stand-in
``lake`` (``tests/lake_standin.py``), which the other check tests use, is checked against the
same fixtures, so that it cannot drift into a format of its own.
"""

import functools
import json
import stat
import sys
from pathlib import Path

from leanbridge import check as check_module
from leanbridge.check import module_statuses, run_audit, run_check
from leanbridge.lean import process
from leanbridge.lean.messages import parse_axioms, parse_build_log, parse_json_messages
from leanbridge.lean.sources import scan_project

from test_check import by_decl, project, standin  # noqa: F401

FIXTURES = Path(__file__).with_name("fixtures") / "lean_output"
STANDIN = Path(__file__).with_name("lake_standin.py")
ACT = "SkipAbsorption/Premises/ReluPowers.lean"
UNSOLVED = ("unsolved goals\nt : ℝ\nht : 0 < t\nz : ℝ\n"
            "⊢ max (t * z) 0 ^ 2 = t ^ 2 * max z 0 ^ 2")
LONG = "SkipAbsorption.Families.relu2_not_absorbable_degree"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def lake_standin():
    sys.path.insert(0, str(STANDIN.parent))
    try:
        import lake_standin as module
    finally:
        sys.path.remove(str(STANDIN.parent))
    return module


# -- lake build ----------------------------------------------------------------------------------

def test_build_log_jobs_entries_and_failure_list():
    log = parse_build_log(fixture("lake_build_failed.log"))
    assert [(j.icon, j.verb, j.caption) for j in log.jobs] == [
        ("✔", "Built", "SkipAbsorption.Defs"), ("⚠", "Built", "SkipAbsorption.Degree"),
        ("✖", "Building", "SkipAbsorption.Premises.ReluPowers"),
        ("✖", "Building", "SkipAbsorption.Parity"),
        ("ℹ", "Built", "SkipAbsorption.Linearisation")]
    assert log.failures == ["SkipAbsorption.Premises.ReluPowers", "SkipAbsorption.Parity"]
    assert log.failed_captions == ["SkipAbsorption.Premises.ReluPowers", "SkipAbsorption.Parity"]
    errors = [m for m in log.messages if m.severity == "error"]
    assert [(m.file, m.line, m.column, m.text) for m in errors] == [(ACT, 36, 2, UNSOLVED)]
    warning = log.jobs[1].messages[0]
    assert (warning.severity, warning.file, warning.line) == ("warning", "SkipAbsorption/"
                                                                         "Degree.lean", 3)
    assert warning.text.startswith("unused variable `h`\n\nNote: This linter")
    assert log.jobs[2].notes == ["error: Lean exited with code 1"]
    # The crashed module: only Lake's notes, the half-written JSON kept as text, no message.
    crashed = log.jobs[3]
    assert crashed.messages == []
    assert crashed.notes == ['info: stdout:\n{"severity":"information","pos":{"line":40,"col',
                             "info: stderr:\nINTERNAL PANIC: out of memory",
                             "error: Lean exited with code 137"]
    info = log.jobs[4].messages[0]
    assert info.severity == "information" and parse_axioms(info.text) == {
        "SkipAbsorption.x": ["propext"]}
    assert log.other == ["error: build failed"]     # after the list: Lake's CLI, no job


def test_module_failed_without_positioned_error_and_its_importers(project):
    log = parse_build_log(fixture("lake_build_failed.log"))
    statuses = {m.module: m for m in module_statuses(project, log, 1, scan_project(project))}
    activations = statuses["SkipAbsorption.Premises.ReluPowers"]
    assert activations.status == "failed"
    assert activations.detail == f"unsolved goals ({ACT}:36)"
    parity = statuses["SkipAbsorption.Parity"]
    assert (parity.status, parity.messages) == ("failed", [])
    assert parity.detail == ("error: Lean exited with code 137 (Lean's stderr: INTERNAL PANIC: "
                             "out of memory)")
    assert statuses["SkipAbsorption.Families.Relu2"].status == "blocked"   # imports Premises.ReluPowers
    assert statuses["SkipAbsorption.Families.Relu"].status == "blocked"    # imports Parity
    assert statuses["SkipAbsorption.Families.Relu"].detail == (
        "not built: it imports SkipAbsorption.Parity, which failed to build")
    assert "SkipAbsorption.Defs" not in statuses


def test_old_lake_path_prefixes_and_failure_header():
    log = parse_build_log(fixture("lake_build_old_prefixes.log"))
    assert [(m.file, m.line) for m in log.messages] == [(ACT, 36),
                                                       ("SkipAbsorption/Parity.lean", 35)]
    assert log.failures == ["SkipAbsorption.Premises.ReluPowers", "SkipAbsorption.Parity"]
    assert parse_build_log("Some builds logged failures:\n- A.b\n").failures == ["A.b"]


def test_ansi_terminal_log_with_spinner_lines():
    log = parse_build_log(fixture("lake_build_ansi.log"))
    assert [(j.icon, j.caption) for j in log.jobs] == [
        ("✔", "SkipAbsorption.Defs"), ("✖", "SkipAbsorption.Premises.ReluPowers"),
        ("✔", "SkipAbsorption.Parity")]
    assert [m.text for m in log.messages] == ["unsolved goals\n⊢ False"]
    assert log.jobs[1].notes == ["error: Lean exited with code 1"]
    assert log.failures == ["SkipAbsorption.Premises.ReluPowers"]
    assert not any("Running" in line for line in log.other)


def test_run_check_on_a_replayed_lake_build_log(project, standin, tmp_path):
    """``run_check`` with a ``lake`` whose build prints the fixture log verbatim (exit 1); the
    audit is the stand-in's. Premises.ReluPowers (positioned error) and Parity (crashed) fail."""
    replay = tmp_path / "replay-lake"
    replay.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = build ]; then cat {FIXTURES / "lake_build_failed.log"}; exit 1; fi\n'
        f"exec {sys.executable} {STANDIN} \"$@\"\n")
    replay.chmod(replay.stat().st_mode | stat.S_IXUSR)
    standin()                                  # an empty scenario for the audit
    result = run_check(project, lake=str(replay), timeout=60)
    records = by_decl(result)
    own = records["SkipAbsorption.relu2_posHomogeneous"]
    assert own.verdict == "error" and own.detail == "unsolved goals"
    crashed = records["SkipAbsorption.not_absorbable_of_even"]
    assert crashed.verdict == "error"
    assert crashed.detail == ("its module SkipAbsorption.Parity failed to build: error: Lean "
                              "exited with code 137 (Lean's stderr: INTERNAL PANIC: out of memory)")
    assert records["SkipAbsorption.Families.relu2_not_absorbable_degree"].verdict == "error"
    assert "proved" not in {r.verdict for r in result.records if r.file in (
        ACT, "SkipAbsorption/Parity.lean")}
    assert result.exit_code == 1


# -- lean --json and #print axioms -----------------------------------------------------------------

def test_json_messages_with_and_without_optional_fields():
    messages, other = parse_json_messages(fixture("lean_json_audit.jsonl") + "\nnot json\n")
    assert other == ["not json"]
    assert [(m.severity, m.line, m.column, m.end_line) for m in messages] == [
        ("information", 5, 0, 5), ("information", 6, 0, None), ("information", 7, 0, 7),
        ("error", 8, 15, 8)]
    assert messages[0].kind == "[anonymous]" and messages[1].kind == ""


def test_print_axioms_answers_in_lean_order_wrapped_and_private():
    answers = parse_axioms(fixture("print_axioms.txt"))
    assert answers == {
        "SkipAbsorption.relu2_posHomogeneous": ["propext", "Classical.choice", "Quot.sound"],
        "SkipAbsorption.relu2_eq_self": [],
        LONG: ["propext", "sorryAx", "Classical.choice", "Quot.sound",
               "SkipAbsorption.Very.Long.Namespace.someUserAxiom"],
        "SkipAbsorption.zz_private_fact": []}


def test_audit_run_on_the_json_fixture(monkeypatch, tmp_path):
    """``run_audit`` reads Lean's JSON answers: the order as printed, the wrapped list, an
    unknown constant as missing (by its line), nothing else guessed."""
    stdout = fixture("lean_json_audit.jsonl")
    names = ["SkipAbsorption.relu2_posHomogeneous", "SkipAbsorption.relu2_eq_self", LONG,
             "SkipAbsorption.gone"]
    text, first = check_module.audit_text(["SkipAbsorption.Premises.ReluPowers",
                                           "SkipAbsorption.Families.Relu2"], names)
    assert first == 5                     # the fixture's answers are on lines 5–8

    def fake(command, cwd, timeout):
        return process.Completed(tuple(command), 1, stdout, "", 0.5, False, None)

    monkeypatch.setattr(process, "run", fake)
    run = run_audit("lake", tmp_path, names, 60, imports=["SkipAbsorption.Premises.ReluPowers",
                                                           "SkipAbsorption.Families.Relu2"])
    assert run.axioms == {
        "SkipAbsorption.relu2_posHomogeneous": ["propext", "Classical.choice", "Quot.sound"],
        "SkipAbsorption.relu2_eq_self": [],
        LONG: ["propext", "sorryAx", "Classical.choice", "Quot.sound",
               "SkipAbsorption.Very.Long.Namespace.someUserAxiom"]}
    assert run.missing == {"SkipAbsorption.gone"}
    assert run.infra is None and not run.timed_out


# -- the stand-in, checked against the same facts ----------------------------------------------

def test_standin_prints_axioms_as_the_fixture():
    standin_module = lake_standin()
    lines = fixture("print_axioms.txt")
    assert standin_module.print_axioms(
        "SkipAbsorption.relu2_posHomogeneous", ["Quot.sound", "propext", "Classical.choice"]
    ) in lines
    assert standin_module.print_axioms("SkipAbsorption.relu2_eq_self", []) in lines
    wrapped = standin_module.print_axioms(LONG, [
        "SkipAbsorption.Very.Long.Namespace.someUserAxiom", "Quot.sound", "sorryAx",
        "Classical.choice", "propext"])
    assert "\n " in wrapped and wrapped in lines


def test_standin_build_lines_are_the_fixture_formats():
    standin_module = lake_standin()
    lines = fixture("lake_build_failed.log").splitlines()
    assert standin_module.job_line("✔", 1, 7, "Built", "SkipAbsorption.Defs", 812) in lines
    assert standin_module.job_line("⚠", 2, 7, "Built", "SkipAbsorption.Degree", 1200) in lines
    assert standin_module.job_line("✖", 3, 7, "Building", "SkipAbsorption.Premises.ReluPowers",
                                   12000) in lines
    assert standin_module.entry_line("error", ACT, 36, 2, "unsolved goals") in lines
    footer = standin_module.failure_footer(["SkipAbsorption.Premises.ReluPowers",
                                            "SkipAbsorption.Parity"])
    assert "\n".join(footer) in "\n".join(lines)
    old = standin_module.failure_footer(["SkipAbsorption.Premises.ReluPowers", "SkipAbsorption.Parity"],
                                        "Some required builds logged failures:")
    assert "\n".join(old) in fixture("lake_build_old_prefixes.log")


def test_standin_json_objects_have_the_fields_of_lean_serial_message(project, standin, tmp_path):
    """The stand-in's ``lean --json`` lines carry exactly the keys of the fixture's full object
    (Lean's ``SerialMessage``)."""
    full = json.loads(fixture("lean_json_audit.jsonl").splitlines()[0])
    audit = tmp_path / "Audit.lean"
    audit.write_text("import SkipAbsorption.Defs\n\n#print axioms SkipAbsorption.nothing\n")
    import subprocess
    standin()
    out = subprocess.run([sys.executable, str(STANDIN), "lean", str(audit), "--", "--json"],
                         cwd=project, capture_output=True, text=True, timeout=60).stdout
    objects = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert objects and all(set(o) == set(full) for o in objects)
