"""The verdict and exit-code rules, unit by unit (fast; the mutation run's tests for them).

`leanbridge check`'s trust rests on small rules: which verdict wins (:func:`results.decide`),
which exit code a result has (:attr:`CheckResult.exit_code`), which modules a build failed,
blocked or skipped (:func:`check.module_statuses`), what evidence each theorem gets from the
build (positions), and how an audit run is read. Each is tested here directly, on made-up
evidence, so that a change to any of them fails a test (see the README, "Development":
mutation testing).
"""

from pathlib import Path

import pytest

from leanbridge import check as check_module
from leanbridge.check import CheckResult, ModuleStatus, Toolchain, module_statuses
from leanbridge.lean import process
from leanbridge.lean.messages import (
    Message,
    parse_axioms,
    parse_build_log,
    parse_json_messages,
    user_name,
)
from leanbridge.lean.sources import scan_project
from leanbridge.premises import PremiseCheck
from leanbridge.exit_codes import EXIT_FAILED, EXIT_NO_TOOLCHAIN, EXIT_OK
from leanbridge.results import (
    FAILURES,
    VERDICTS,
    DeclarationResult,
    Evidence,
    decide,
    summary,
)

ALLOW = frozenset({"propext", "Classical.choice", "Quot.sound"})
STANDARD = ("propext", "Classical.choice", "Quot.sound")


def record(**overrides) -> DeclarationResult:
    values = dict(decl="A.b", file="A.lean", line=10, role="lemma", statement_hash="0" * 16)
    values.update(overrides)
    return DeclarationResult(**values)


def message(severity="error", text="boom", line=11, file="A.lean") -> Message:
    return Message(file, line, 2, None, None, severity, text)


def verdict(**evidence) -> tuple[str, str]:
    r = record()
    decide(r, Evidence(**evidence), ALLOW)
    return r.verdict, r.detail


# -- decide ----------------------------------------------------------------------------------

def test_proved_needs_axioms_within_the_allowlist_and_nothing_else():
    assert verdict(axioms=STANDARD) == ("proved", "")
    assert verdict(axioms=()) == ("proved", "")


def test_no_axiom_report_is_never_proved():
    assert verdict() == ("infra_error", "no axiom report for this declaration")


def test_sorry_by_axioms_and_by_lean_warning():
    assert verdict(axioms=("propext", "sorryAx")) == ("sorry", "depends on sorryAx")
    warning = message("warning", "declaration uses `sorry`")
    assert verdict(axioms=STANDARD, messages=(warning,)) == (
        "sorry", "Lean warned: declaration uses sorry")
    old = message("warning", "declaration uses 'sorry'")
    assert verdict(axioms=STANDARD, messages=(old,))[0] == "sorry"
    other = message("warning", "unused variable `x`")
    assert verdict(axioms=STANDARD, messages=(other,)) == ("proved", "")


def test_axiom_outside_the_allowlist():
    assert verdict(axioms=("propext", "Lean.ofReduceBool", "My.ax")) == (
        "axiom_violation", "axioms outside the allowlist: Lean.ofReduceBool, My.ax")
    assert verdict(axioms=("sorryAx", "My.ax"))[0] == "sorry"   # sorry is named first


def test_errors_win_over_axioms_and_name_the_first_line():
    assert verdict(axioms=STANDARD, messages=(message(text="unsolved goals\n⊢ x"),
                                              message(text="second"))) == (
        "error", "unsolved goals")
    assert verdict(axioms=STANDARD, messages=(message("information", "note"),)) == ("proved", "")


def test_module_failure_is_an_error_even_with_clean_axioms():
    assert verdict(axioms=STANDARD, module_failure="its module M failed") == (
        "error", "its module M failed")
    # The theorem's own error is more precise than its module's.
    assert verdict(module_failure="its module M failed", messages=(message(text="own"),)) == (
        "error", "own")


def test_missing_declaration():
    assert verdict(missing=True) == ("missing_decl", "Lean's environment has no such constant")
    assert verdict(missing=True, module_failure="m")[0] == "error"


def test_timeouts_wall_clock_and_heartbeats():
    assert verdict(timed_out=True, axioms=STANDARD) == (
        "timeout", "wall-clock: the Lean process was killed")
    heartbeat = message(text="(deterministic) timeout at `whnf`, maximum number of heartbeats "
                             "(200000) has been reached")
    assert verdict(messages=(heartbeat,)) == ("timeout", "heartbeats: Lean's deterministic limit")
    assert verdict(messages=(message("warning", "maximum number of heartbeats"),),
                   axioms=STANDARD) == ("proved", "")


def test_infrastructure_wins_over_everything():
    assert verdict(infra="Mathlib cannot be loaded", timed_out=True,
                   messages=(message(),), module_failure="m", axioms=STANDARD) == (
        "infra_error", "Mathlib cannot be loaded")
    assert verdict(timed_out=True, messages=(message(),))[0] == "timeout"


def test_decide_records_the_evidence():
    r = record()
    decide(r, Evidence(messages=(message(),), axioms=STANDARD, seconds=1.23456), ALLOW)
    assert r.axioms == list(STANDARD) and r.messages == [message()] and r.time_s == 1.235
    r = record()
    decide(r, Evidence(), ALLOW)
    assert r.axioms is None and r.time_s is None


def test_summary_counts_every_verdict():
    records = [record(verdict="proved"), record(verdict="proved"), record(verdict="sorry")]
    counts = summary(records)
    assert counts["proved"] == 2 and counts["sorry"] == 1 and counts["total"] == 3
    assert set(counts) == set(VERDICTS) | {"total"}
    assert FAILURES == set(VERDICTS) - {"proved", "proved_modulo_premise", "not_run"}


# -- exit codes ------------------------------------------------------------------------------

def result(**overrides) -> CheckResult:
    values = dict(project="lean", started_at="t", allowlist=sorted(ALLOW), timeout_s=1.0,
                  toolchain=Toolchain(None, None, None, None, None, None))
    values.update(overrides)
    return CheckResult(**values)


def test_exit_0_only_when_lean_ran_and_everything_passed():
    ok = result(lean_status="ran", build={"returncode": 0},
                records=[record(verdict="proved")])
    assert ok.exit_code == EXIT_OK and not ok.build_failed


def test_exit_3_when_lean_did_not_run_and_nothing_failed():
    assert result(records=[record()]).exit_code == EXIT_NO_TOOLCHAIN


@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_every_failing_verdict_exits_1(failure):
    assert result(lean_status="ran", build={"returncode": 0},
                  records=[record(verdict="proved"), record(verdict=failure)]
                  ).exit_code == EXIT_FAILED


@pytest.mark.parametrize("broken", [
    {"generated_files": [{"path": "F.lean", "status": "stale", "detail": ""}]},
    {"generated_files": [{"path": "F.lean", "status": "missing", "detail": ""}]},
    {"generated_files": [{"path": "F.lean", "status": "tampered", "detail": ""}]},
    {"generated_files": [{"path": "F.lean", "status": "orphan", "detail": ""}]},
    {"premises": [PremiseCheck("relu2", "degree", "s", "failed", "m")]},
    {"missing_names": ["A.x (referenced by t) is not declared in lean/"]},
    {"modules": [ModuleStatus("A", "A.lean", "failed", "boom")]},
    {"build": {"returncode": 1}},
])
def test_failures_besides_verdicts_exit_1_with_and_without_lean(broken):
    assert result(**broken).exit_code == EXIT_FAILED
    ran = dict(lean_status="ran", build={"returncode": 0}, records=[record(verdict="proved")])
    ran.update(broken)
    assert result(**ran).exit_code == EXIT_FAILED


def test_files_and_premises_that_pass_do_not_fail():
    fine = result(lean_status="ran", build={"returncode": 0}, records=[record(verdict="proved")],
                  generated_files=[{"path": "F.lean", "status": "ok", "detail": ""},
                                   {"path": "G.lean", "status": "unmanaged", "detail": ""}],
                  premises=[PremiseCheck("relu", "degree", "s", "verified", "m"),
                            PremiseCheck("relu", "degree", "s", "unknown", "m")])
    assert fine.exit_code == EXIT_OK


def test_report_carries_the_exit_code_and_modules():
    data = result(modules=[ModuleStatus("A", "A.lean", "failed", "boom",
                                        [message()])]).to_dict()
    assert data["exit_code"] == 1
    assert data["lean"]["modules"] == [{"module": "A", "file": "A.lean", "status": "failed",
                                        "detail": "boom", "messages": [message().to_dict()]}]


# -- modules and evidence from the build ---------------------------------------------------------

def tiny_project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / "P").mkdir(parents=True)
    (root / "lakefile.toml").write_text('name = "p"\n\n[[lean_lib]]\nname = "P"\n')
    files = {
        "P.lean": "import P.A\nimport P.B\n",
        "P/A.lean": "import Mathlib.X\n\ntheorem P.a1 : True := trivial\n\n"
                    "theorem P.a2 : True := trivial\n",
        "P/B.lean": "import P.A\n\ntheorem P.b : True := P.a1\n",
        "P/C.lean": "import P.A\n\ntheorem P.c : True := trivial\n",
    }
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def test_module_statuses_failed_blocked_not_built(tmp_path):
    root = tiny_project(tmp_path)
    log = parse_build_log("✖ [1/3] Building P.A (1s)\nerror: P/A.lean:5:2: unknown tactic\n"
                          "error: Lean exited with code 1\nSome required targets logged "
                          "failures:\n- P.A\nerror: build failed\n")
    statuses = {m.module: m for m in module_statuses(root, log, 1, scan_project(root))}
    assert statuses["P.A"].status == "failed"
    assert statuses["P.A"].detail == "unknown tactic (P/A.lean:5)"
    assert not statuses["P.A"].infra
    assert statuses["P.B"].status == "blocked"
    assert statuses["P.B"].detail == "not built: it imports P.A, which failed to build"
    assert statuses["P"].status == "blocked"
    assert statuses["P.C"].status == "blocked"   # not under the root, and imports P.A
    assert set(statuses) == {"P", "P.A", "P.B", "P.C"}


def test_module_not_imported_by_the_root_is_not_built(tmp_path):
    root = tiny_project(tmp_path)
    statuses = module_statuses(root, parse_build_log("Build completed successfully.\n"), 0,
                               scan_project(root))
    assert [(m.module, m.status) for m in statuses] == [("P.C", "not_built")]
    assert "no library root (P) imports it" in statuses[0].detail
    assert module_statuses(root, parse_build_log(""), 0, scan_project(root), ("P.C",)) == []


def test_build_command_names_unreachable_modules(tmp_path):
    root = tiny_project(tmp_path)
    assert check_module.unreachable_modules(root) == ["P.C"]
    assert check_module.build_command("lake", root) == ["lake", "build", "P", "P.C"]
    (root / "P.lean").write_text("import P.A\nimport P.B\nimport P.C\n")
    assert check_module.build_command("lake", root) == ["lake", "build"]
    (root / "lakefile.toml").write_text('name = "p"\ndefaultTargets = ["P", "Q"]\n\n'
                                        '[[lean_lib]]\nname = "P"\n')
    (root / "P" / "D.lean").write_text("theorem P.d : True := trivial\n")
    assert check_module.build_command("lake", root) == ["lake", "build", "P", "Q", "P.D"]
    (root / "lakefile.toml").unlink()                   # e.g. a lakefile.lean: roots guessed
    assert check_module.build_command("lake", root) == ["lake", "build", "P", "P.D"]


def test_failure_named_only_by_lake_and_header_errors(tmp_path):
    root = tiny_project(tmp_path)
    log = parse_build_log("✖ [2/3] Building P.B\nerror: some Lake failure\n"
                          "✖ [3/3] Building P.A\nerror: P/A.lean:1:0: unknown module prefix "
                          "'Mathlib'\n")
    statuses = {m.module: m for m in module_statuses(root, log, 1, scan_project(root))}
    assert statuses["P.B"].status == "failed" and statuses["P.B"].detail == \
        "error: some Lake failure"
    assert statuses["P.A"].infra and statuses["P.A"].status == "failed"


def test_build_failure_without_a_project_module(tmp_path):
    root = tiny_project(tmp_path)
    log = parse_build_log("✖ [1/9] Building Mathlib.Foo\nerror: x\n"
                          "Some required targets logged failures:\n- Mathlib.Foo\n")
    statuses = module_statuses(root, log, 1, scan_project(root))
    assert [(m.module, m.status) for m in statuses] == [("P.C", "not_built"),
                                                         ("", "build_failed")]
    assert statuses[1].detail == ("lake build failed (exit 1) without naming a module of this "
                                  "project: Mathlib.Foo")
    assert (statuses[1].module, statuses[1].file) == ("", "")
    two = parse_build_log("Some required targets logged failures:\n- X.a\n- X.b\n")
    assert module_statuses(root, two, 1, scan_project(root))[-1].detail.endswith(
        "project: X.a, X.b")
    long = module_statuses(root, parse_build_log("y" * 300 + "\n"), 1, scan_project(root))
    assert long[-1].detail.endswith(": " + "y" * 200)
    assert module_statuses(root, parse_build_log(""), 2, scan_project(root))[-1].detail == \
        "lake build failed (exit 2) without naming a module of this project"
    clean_but_failed = module_statuses(root, parse_build_log("weird\n"), 2, scan_project(root))
    assert clean_but_failed[-1].detail.endswith("project: weird")
    assert module_statuses(root, parse_build_log(""), 0, scan_project(root))[-1].status == \
        "not_built"


def test_build_evidence_by_position_and_module(tmp_path):
    root = tiny_project(tmp_path)
    declared = scan_project(root)
    records = [record(decl=d, file=declared[d].file, line=declared[d].line)
               for d in ("P.a1", "P.a2", "P.b", "P.c")]
    log = parse_build_log("✖ [1/3] Building P.A\n"
                          "warning: P/A.lean:3:8: declaration uses `sorry`\n"
                          "error: P/A.lean:5:2: bad\n")
    modules = module_statuses(root, log, 1, declared)
    evidence = check_module._build_evidence(records, declared, log, modules)
    assert [m.text for m in evidence["P.a1"].messages] == ["declaration uses `sorry`"]
    assert [m.text for m in evidence["P.a2"].messages] == ["bad"]
    assert evidence["P.a1"].module_failure == "its module P.A failed to build: bad (P/A.lean:5)"
    assert evidence["P.b"].module_failure == "not built: it imports P.A, which failed to build"
    assert evidence["P.b"].messages == ()
    assert evidence["P.c"].infra is None


def test_mathlib_header_failure_is_infrastructure_evidence(tmp_path):
    root = tiny_project(tmp_path)
    declared = scan_project(root)
    records = [record(decl="P.a1", file="P/A.lean", line=declared["P.a1"].line)]
    log = parse_build_log("✖ [1/3] Building P.A\nerror: P/A.lean:1:0: unknown module prefix "
                          "'Mathlib'\n")
    evidence = check_module._build_evidence(records, declared, log,
                                            module_statuses(root, log, 1, declared))
    assert evidence["P.a1"].infra.startswith("Mathlib cannot be loaded: run `lake exe cache get`")
    assert evidence["P.a1"].module_failure is None


# -- reading an audit run ------------------------------------------------------------------------

def fake_run(monkeypatch, stdout="", returncode=0, stderr="", timed_out=False, error=None):
    seen = {}

    def run(command, cwd, timeout, env=None):
        seen["command"], seen["text"] = command, Path(command[2]).read_text()
        return process.Completed(tuple(command), None if timed_out else returncode, stdout,
                                 stderr, 0.5, timed_out=timed_out, start_error=error)

    monkeypatch.setattr(check_module.process, "run", run)
    return seen


def answer(line, text, severity="information"):
    import json
    return json.dumps({"fileName": "x", "pos": {"line": line, "column": 0}, "endPos": None,
                       "severity": severity, "data": text, "kind": ""}) + "\n"


def test_audit_reads_answers_by_line(monkeypatch, tmp_path):
    names = ["A.one", "A.two", "A.three"]
    _, first = check_module.audit_text(["M"], names)
    stdout = (answer(first, "'A.one' depends on axioms: [propext]")
              + answer(first + 1, "unknown constant 'A.two'", "error")
              + answer(first + 2, "'A.three' does not depend on any axioms"))
    seen = fake_run(monkeypatch, stdout=stdout, returncode=1)
    run = check_module.run_audit("/bin/lake", tmp_path, names, 10, imports=["M"])
    assert run.axioms == {"A.one": ["propext"], "A.three": []}
    assert run.missing == {"A.two"} and run.infra is None
    assert seen["text"].splitlines()[0] == "import M"
    assert seen["command"][:5] == ["/bin/lake", "lean", seen["command"][2], "--", "--json"]


def test_audit_header_error_is_infrastructure(monkeypatch, tmp_path):
    fake_run(monkeypatch, stdout=answer(1, "unknown module prefix 'Mathlib'", "error"),
             returncode=1)
    run = check_module.run_audit("/bin/lake", tmp_path, ["A.b"], 10, imports=["M"])
    assert run.infra.startswith("Mathlib cannot be loaded") and not run.missing
    fake_run(monkeypatch, stdout=answer(1, "object file of module M does not exist", "error"),
             returncode=1)
    run = check_module.run_audit("/bin/lake", tmp_path, ["A.b"], 10, imports=["M"])
    assert run.infra == "the audit cannot import the built modules: object file of module M " \
                        "does not exist"


def test_audit_in_a_copy_ignores_the_copys_own_messages(monkeypatch, tmp_path):
    prefix = "import M\n\nprivate theorem A.p : True := trivial\n"
    _, first = check_module.audit_text([], ["A.p"], prefix)
    stdout = (answer(3, "some linter complaint", "error")
              + answer(first, "'_private.X.0.A.p' depends on axioms: [propext]"))
    seen = fake_run(monkeypatch, stdout=stdout)
    run = check_module.run_audit("/bin/lake", tmp_path, ["A.p"], 10, prefix=prefix)
    assert seen["text"] == prefix.rstrip("\n") + "\n\n#print axioms A.p\n"
    assert run.axioms == {"A.p": ["propext"]} and run.infra is None and not run.missing


def test_audit_silent_failure_timeout_and_start_error(monkeypatch, tmp_path):
    fake_run(monkeypatch, stdout="garbage\n", returncode=3, stderr="PANIC\n")
    run = check_module.run_audit("/bin/lake", tmp_path, ["A.b"], 10)
    assert run.infra == "lake lean exit code 3 without reporting an error: PANIC"
    fake_run(monkeypatch, timed_out=True)
    assert check_module.run_audit("/bin/lake", tmp_path, ["A.b"], 10).timed_out
    fake_run(monkeypatch, error="no such file")
    assert check_module.run_audit("/bin/lake", tmp_path, ["A.b"], 10).infra == \
        "could not start /bin/lake: no such file"


def test_private_names_are_unmangled_as_lean_does():
    assert user_name("_private.SkipAbsorption.Parity.0.SkipAbsorption.helper") == \
        "SkipAbsorption.helper"
    assert user_name("SkipAbsorption.helper") == "SkipAbsorption.helper"
    assert user_name("_private.M.N") == "_private.M.N"


@pytest.mark.parametrize("status, verdict", [
    ("tampered", "tampered"), ("stale", "stale"), ("orphan", "stale"), ("missing", "stale"),
    ("ok", "proved"), ("unmanaged", "proved"),
])
def test_generated_file_status_overrides_the_verdict(status, verdict):
    records = [record(file="F.lean", verdict="proved"), record(file="G.lean", verdict="proved")]
    check_module._apply_file_status(records, {"F.lean": status})
    assert records[0].verdict == verdict and records[1].verdict == "proved"
    if verdict != "proved":
        assert records[0].detail
    if status in ("stale", "orphan", "missing"):
        assert records[0].detail == f"its generated file is {status}: run `leanbridge generate`"


def test_failed_dependency_explains_only_own_failures(tmp_path):
    import networkx as nx
    graph = nx.DiGraph([("T", "L"), ("T", "M"), ("L", "K")])
    records = [record(decl="T", verdict="error", detail="own"),
               record(decl="L", verdict="sorry", detail="depends on sorryAx"),
               record(decl="M", verdict="error", detail="its module X failed to build: y"),
               record(decl="K", verdict="proved"),
               record(decl="P", verdict="proved", detail="its module x"),
               record(decl="Q", verdict="proved")]
    graph.add_edge("P", "L")
    graph.add_edge("Q", "L")
    check_module._explain(records, graph)
    assert records[0].detail == "own; fails because L failed (sorry)"
    assert records[0].failed_dependencies == ["L"]
    assert records[2].detail == "its module X failed to build: y"
    assert records[2].failed_dependencies == []
    assert records[4].failed_dependencies == [] and records[4].detail == "its module x"
    assert records[5].failed_dependencies == [] and records[5].detail == ""


# -- details that reports and exports rely on ---------------------------------------------------

def test_module_statuses_in_full(tmp_path):
    root = tiny_project(tmp_path)
    (root / "P" / "E.lean").write_text("import P.A\n-- no declarations\n")
    log = parse_build_log(
        "✖ [1/9] Building Mathlib.Foo\nerror: x\n"
        "⚠ [2/9] Built P.B\nwarning: P/B.lean:3:8: declaration uses `sorry`\n"
        "✖ [3/9] Building P.A\nerror: P/A.lean:3:0: own error on the declaration line (Mathlib)\n"
        "error: Lean exited with code 1\nerror: second note\n"
        "✖ [4/9] Building P.E\nerror: P/E.lean:100:0: Mathlib is not there\n"
        "Some required targets logged failures:\n- Mathlib.Foo\n- P.A\n- P.E\n- P\n")
    statuses = {m.module: m for m in module_statuses(root, log, 1, scan_project(root))}
    a = statuses["P.A"]
    assert (a.module, a.file, a.status) == ("P.A", "P/A.lean", "failed")
    assert a.detail == "own error on the declaration line (Mathlib) (P/A.lean:3)"
    assert [m.text for m in a.messages] == ["own error on the declaration line (Mathlib)"]
    assert not a.infra                   # an error on a declaration's line is not the header's
    assert statuses["P.E"].infra         # a file without declarations: every error is a header's
    assert statuses["P"].status == "failed"
    assert statuses["P"].detail == "Lake reported the module failed"
    assert statuses["P"].file == "P.lean" and statuses["P"].messages == []
    assert "P.B" in statuses and statuses["P.B"].status == "blocked"   # warnings do not fail
    assert statuses["P.B"].file == "P/B.lean"
    notes_only = parse_build_log("✖ [1/1] Building P.B\nerror: one\nerror: two\n")
    b = {m.module: m for m in module_statuses(root, notes_only, 1, scan_project(root))}["P.B"]
    assert b.detail == "error: one; error: two"


def test_roots_default_to_top_level_modules_without_a_lean_lib(tmp_path):
    root = tiny_project(tmp_path)
    (root / "lakefile.toml").write_text('name = "p"\n')
    statuses = module_statuses(root, parse_build_log(""), 0, scan_project(root))
    assert [(m.module, m.status, m.file) for m in statuses] == [("P.C", "not_built", "P/C.lean")]
    assert statuses[0].detail == ("not built: no library root (P) imports it, and it was not a "
                                  "build target")
    (root / "Q.lean").write_text("theorem Q.q : True := trivial\n")
    statuses = module_statuses(root, parse_build_log(""), 0, scan_project(root))
    assert "no library root (P, Q) imports it" in statuses[0].detail


def test_build_failed_when_a_module_did_not_build_even_with_exit_0():
    assert result(build={"returncode": 0},
                  modules=[ModuleStatus("P.C", "P/C.lean", "not_built", "x")]).build_failed
    assert not result(build={"returncode": 0}).build_failed
    assert not result().build_failed
    assert result(build={"returncode": None}).build_failed


def test_unattributed_failure_reaches_every_theorem(tmp_path):
    root = tiny_project(tmp_path)
    declared = scan_project(root)
    records = [record(decl="P.nowhere"),
               record(decl="P.b", file="P/B.lean", line=declared["P.b"].line)]
    modules = [ModuleStatus("P.C", "P/C.lean", "not_built", "skipped"),
               ModuleStatus("", "", "build_failed", "lake build failed (exit 1)")]
    evidence = check_module._build_evidence(records, declared, parse_build_log(""), modules)
    assert "P.nowhere" not in evidence
    assert evidence["P.b"].module_failure == "lake build failed (exit 1)"
    assert evidence["P.b"].infra is None


def test_infra_module_evidence_names_the_cause(tmp_path):
    root = tiny_project(tmp_path)
    declared = scan_project(root)
    records = [record(decl="P.a1", file="P/A.lean", line=declared["P.a1"].line)]
    modules = [ModuleStatus("P.A", "P/A.lean", "failed", "no Mathlib (P/A.lean:1)", infra=True)]
    evidence = check_module._build_evidence(records, declared, parse_build_log(""), modules)
    assert evidence["P.a1"].infra == ("Mathlib cannot be loaded: run `lake exe cache get` then "
                                      "`lake build` (no Mathlib (P/A.lean:1))")


def test_tampered_file_detail():
    records = [record(file="F.lean", verdict="proved")]
    check_module._apply_file_status(records, {"F.lean": "tampered"})
    assert records[0].detail == "its generated file was edited by hand"


def test_explanations_skip_consequences_and_handle_empty_details():
    import networkx as nx
    graph = nx.DiGraph([("T", "L"), ("U", "L"), ("V", "N")])
    records = [record(decl="N", verdict="error", detail="not built: it imports X"),
               record(decl="V", verdict="error", detail=""),
               record(decl="T", verdict="timeout", detail=""),
               record(decl="L", verdict="sorry", detail="depends on sorryAx"),
               record(decl="U", verdict="error", detail="own")]
    check_module._explain(records, graph)
    assert records[0].failed_dependencies == [] and records[0].detail == "not built: it imports X"
    assert records[1].failed_dependencies == [] and records[1].detail == ""
    assert records[2].detail == "fails because L failed (sorry)"
    assert records[4].detail == "own; fails because L failed (sorry)"


def test_build_log_entry_positions_in_full():
    log = parse_build_log("⚠ [1/1] Built P.A\nwarning: ./P/A.lean:3:8-4:2: careful\n")
    assert log.messages == [Message("P/A.lean", 3, 8, 4, 2, "warning", "careful")]
    log = parse_build_log("⚠ [1/1] Built P.A\nwarning: P/A.lean:3:8: careful\n")
    assert log.messages == [Message("P/A.lean", 3, 8, None, None, "warning", "careful")]


def test_message_and_record_dictionaries():
    m = Message("A.lean", 3, 8, 4, 2, "warning", "careful", "lint")
    assert m.to_dict() == {"severity": "warning", "file": "A.lean", "line": 3, "column": 8,
                           "end_line": 4, "end_column": 2, "kind": "lint", "text": "careful"}
    r = record(family="relu", argument="degree", decl="SkipAbsorption.Families.relu_x",
               verdict="sorry", detail="d", axioms=["sorryAx"], messages=[m], time_s=1.5,
               failed_dependencies=["Z"])
    assert r.id == "relu.relu_x" and record().id == "A.b"
    assert r.to_dict() == {
        "id": "relu.relu_x", "decl": "SkipAbsorption.Families.relu_x", "family": "relu",
        "argument": "degree", "role": "lemma", "file": "A.lean", "line": 10,
        "statement_hash": "0" * 16, "verdict": "sorry", "detail": "d", "axioms": ["sorryAx"],
        "messages": [m.to_dict()], "time_s": 1.5, "failed_dependencies": ["Z"],
        "premises": [], "certificate_rule": None}


def test_statement_hash_ignores_whitespace_only():
    from leanbridge.results import statement_hash
    a = statement_hash("theorem x :  a = b")
    assert a == statement_hash("theorem x :\n    a = b") and len(a) == 16
    assert a != statement_hash("theorem x : a = c")
    assert a == __import__("hashlib").sha256(b"theorem x : a = b").hexdigest()[:16]


# -- parsers (moved from test_check.py: fast, so the mutation run uses them) ---------------------

def test_parse_json_messages_keeps_garbage_apart():
    output = ('{"fileName": "F.lean", "pos": {"line": 3, "column": 2}, "endPos": null, '
              '"severity": "error", "data": "boom", "kind": "x"}\n'
              "not json at all\n[1, 2]\n")
    messages, other = parse_json_messages(output)
    assert [(m.line, m.severity, m.text) for m in messages] == [(3, "error", "boom")]
    assert other == ["not json at all", "[1, 2]"]


def test_parse_axioms_formats():
    text = ("'A.b' depends on axioms: [propext,\n Classical.choice,\n Quot.sound]\n"
            "'A.c'' does not depend on any axioms\n"
            "'_private.SkipAbsorption.Parity.0.SkipAbsorption.helper' depends on axioms: "
            "[propext]\n")
    assert parse_axioms(text) == {"A.b": ["propext", "Classical.choice", "Quot.sound"],
                                  "A.c'": [], "SkipAbsorption.helper": ["propext"]}


BUILD_LOG = """\
info: stand-in preamble
✔ [1/4] Built SkipAbsorption.Defs (1.2s)
⚠ [2/4] Built SkipAbsorption.Degree (7.7s)
warning: SkipAbsorption/Degree.lean:104:9: declaration uses `sorry`
✖ [3/4] Building SkipAbsorption.Parity (3.1s)
error: SkipAbsorption/Parity.lean:12:4: unsolved goals
x : ℝ
⊢ x = x
error: Lean exited with code 1
ℹ [4/4] Built SkipAbsorption.Audit (900ms)
info: SkipAbsorption/Audit.lean:20:0: 'A.b' depends on axioms: [propext,
 Quot.sound]
Some required targets logged failures:
- SkipAbsorption.Parity
error: build failed
"""


def test_parse_build_log_as_lake_prints_it():
    log = parse_build_log(BUILD_LOG)
    assert [(j.icon, j.caption) for j in log.jobs] == [
        ("✔", "SkipAbsorption.Defs"), ("⚠", "SkipAbsorption.Degree"),
        ("✖", "SkipAbsorption.Parity"), ("ℹ", "SkipAbsorption.Audit")]
    assert log.failures == ["SkipAbsorption.Parity"]
    assert log.failed_captions == ["SkipAbsorption.Parity"]
    error = [m for m in log.messages if m.severity == "error"]
    assert [(m.file, m.line, m.column, m.text) for m in error] == [
        ("SkipAbsorption/Parity.lean", 12, 4, "unsolved goals\nx : ℝ\n⊢ x = x")]
    sorry = [m for m in log.messages if m.is_sorry_warning]
    assert [(m.file, m.line) for m in sorry] == [("SkipAbsorption/Degree.lean", 104)]
    assert log.jobs[2].notes == ["error: Lean exited with code 1"]
    info = [m for m in log.messages if m.severity == "information"]
    assert parse_axioms(info[0].text) == {"A.b": ["propext", "Quot.sound"]}
    assert "error: build failed" in log.other


def test_lean_options_become_d_flags_as_lake_writes_them(tmp_path):
    project = tiny_project(tmp_path)
    (project / "lakefile.toml").write_text((project / "lakefile.toml").read_text()
                                          + "\n[leanOptions]\nautoImplicit = false\n")
    (project / "lakefile.toml").write_text((project / "lakefile.toml").read_text().replace(
        "autoImplicit = false", 'autoImplicit = false\nmaxHeartbeats = 400000\n'
        'pp.unicode.fun = true\nweak.linter.style = "x"'))
    from leanbridge.lean.project import lean_options, option_flags
    assert option_flags(lean_options(project)) == [
        "-DautoImplicit=false", "-DmaxHeartbeats=400000", "-Dpp.unicode.fun=true",
        '-Dweak.linter.style="x"']
    command = check_module.audit_command("/x/lake", Path("/t/A.lean"), project)
    assert command[:5] == ["/x/lake", "lean", "/t/A.lean", "--", "--json"]
    assert command[5:] == option_flags(lean_options(project))




def test_parse_json_messages_fields_and_rejections():
    import json
    good = {"fileName": "F.lean", "pos": {"line": 3, "column": 2},
            "endPos": {"line": 4, "column": 7}, "severity": "warning", "data": "w",
            "kind": "linter"}
    sparse = {"severity": "error", "data": "e"}
    lines = [json.dumps(good), "", "   ", json.dumps(sparse), json.dumps({"data": "no severity"}),
             json.dumps({"severity": "error"}), json.dumps(["severity", "data"]),
             '{"severity": "info", "data": "x", "pos": null, "kind": null}']
    messages, other = parse_json_messages("\n".join(lines) + "\n")
    assert messages == [Message("F.lean", 3, 2, 4, 7, "warning", "w", "linter"),
                        Message("", 0, 0, None, None, "error", "e", ""),
                        Message("", 0, 0, None, None, "info", "x", "")]
    assert other == [json.dumps({"data": "no severity"}), json.dumps({"severity": "error"}),
                     json.dumps(["severity", "data"])]
    assert parse_json_messages("") == ([], [])


def test_parse_axioms_splits_on_commas_only():
    assert parse_axioms("'A' depends on axioms: [a,b ,  c.d]") == {"A": ["a", "b", "c.d"]}
    assert parse_axioms("'A' depends on axioms: []") == {"A": []}


def test_parse_build_log_state_machine():
    text = ("- not a failure line\r\n"
            "warning: stray entry before any job\r\n"
            "✖ [1/2] Building P.A (2s)\r\n"
            "error: P/A.lean:1:0: first line\n"
            "   indented continuation   \n"
            "Some required targets logged failures:\n"
            "- P.A\n"
            "- P.B\n"
            "✔ [2/2] Built P.C\n"
            "- ignored after a job line\n"
            "error: build failed\n")
    log = parse_build_log(text)
    assert [(j.caption, j.verb, j.failed) for j in log.jobs] == [
        ("P.A", "Building", True), ("P.C", "Built", False)]
    assert log.failures == ["P.A", "P.B"]
    assert log.jobs[0].messages == [Message("P/A.lean", 1, 0, None, None, "error",
                                            "first line\n   indented continuation")]
    assert log.jobs[1].notes == ["error: build failed"]
    assert log.other == ["- not a failure line", "warning: stray entry before any job",
                         "- ignored after a job line"]
    assert [j.caption for j in parse_build_log("\x1b[1;31m✖ [1/1] Building P.Z\x1b[m\n").jobs] \
        == ["P.Z"]
    note = parse_build_log("✖ [1/1] Building P.A\nerror: a note\n\n\n")
    assert note.jobs[0].notes == ["error: a note"]
    orphan = parse_build_log("error: no job yet\n  more\n")
    assert orphan.other == ["error: no job yet\n  more"] and orphan.jobs == []


def test_reachable_and_failed_import_on_graph_shapes():
    graph = {"R": ["A", "B", "Mathlib"], "A": ["C"], "B": ["C"], "C": ["R"], "D": ["E"],
             "E": ["F"], "F": []}
    assert check_module._reachable(["R", "Nope"], graph) == {"R", "A", "B", "C"}
    assert check_module._reachable([], graph) == set()
    failed = {"F": object()}
    assert check_module._failed_import("D", graph, failed) == "F"
    assert check_module._failed_import("R", graph, failed) is None      # a cycle, no failure
    assert check_module._failed_import("A", {"A": ["B"], "B": ["A"]}, {}) is None
    assert check_module._failed_import("X", {"X": ["Y"]}, {"Y": 1}) == "Y"   # Y not a module
    assert check_module._failed_import("X", {"X": ["Y"]}, {}) is None
    loop = {"X": ["A"], "A": ["B"], "B": ["A"]}          # a cycle away from the start
    assert check_module._failed_import("X", loop, {}) is None
    near_far = {"T": ["A", "B"], "A": ["Far"], "B": [], "Far": []}
    assert check_module._failed_import("T", near_far, {"Far": 1, "B": 1}) == "B"


def test_audit_text_exactly():
    text, first = check_module.audit_text(["M", "N"], ["a", "b"])
    assert text == ("import M\nimport N\n\n-- Generated by leanbridge check: the axioms of every "
                    "theorem.\n#print axioms a\n#print axioms b\n")
    assert first == 5 and text.splitlines()[first - 1] == "#print axioms a"
    copy, first = check_module.audit_text([], ["p"], prefix="\nimport M\ntheorem p : True := x  \n\n")
    assert copy == "\nimport M\ntheorem p : True := x  \n\n#print axioms p\n"
    assert first == 5 and copy.splitlines()[first - 1] == "#print axioms p"


def test_audit_run_records_what_ran(monkeypatch, tmp_path):
    seen = {}

    def run(command, cwd, timeout, env=None):
        seen.update(command=command, cwd=cwd, timeout=timeout,
                    scratch=Path(command[2]).parent.name,
                    text=Path(command[2]).read_text(encoding="utf-8"))
        return process.Completed(tuple(command), 0, "", "", 2.5)

    monkeypatch.setattr(check_module.process, "run", run)
    (tmp_path / "lakefile.toml").write_text("[leanOptions]\nautoImplicit = false\n")
    run_ = check_module.run_audit("/bin/lake", tmp_path, ["A.β"], 77.0, imports=["M"])
    assert seen["cwd"] == tmp_path and seen["timeout"] == 77.0
    assert seen["scratch"].startswith("leanbridge-audit-")
    assert "#print axioms A.β" in seen["text"]
    assert seen["command"][-1] == "-DautoImplicit=false"
    assert run_.seconds == 2.5 and run_.command == tuple(seen["command"])
    assert run_.axioms == {} and run_.missing == set() and not run_.timed_out
    assert run_.infra is None
    assert not Path(seen["command"][2]).exists()


def test_audit_missing_boundaries_and_header(monkeypatch, tmp_path):
    names = ["A.one", "A.two"]
    _, first = check_module.audit_text(["M"], names)
    stdout = (answer(first, "unknown constant 'A.one'", "error")
              + answer(first + 2, "error after the last line", "error")
              + answer(first + 1, "'A.two' does not depend on any axioms"))
    fake_run(monkeypatch, stdout=stdout, returncode=1)
    run = check_module.run_audit("/bin/lake", tmp_path, names, 10, imports=["M"])
    assert run.missing == {"A.one"} and run.axioms == {"A.two": []} and run.infra is None
    fake_run(monkeypatch, stdout=answer(first - 1, "", "error"), returncode=1)
    run = check_module.run_audit("/bin/lake", tmp_path, names, 10, imports=["M"])
    assert run.infra == "the audit cannot import the built modules: ?"
    fake_run(monkeypatch, stdout=answer(first, "'A.one' depends on axioms: [a]")
             + answer(first + 1, "'A.two' depends on axioms: [b]"))
    run = check_module.run_audit("/bin/lake", tmp_path, names, 10, imports=["M"])
    assert run.axioms == {"A.one": ["a"], "A.two": ["b"]}


def test_audit_silent_failure_details(monkeypatch, tmp_path):
    _, first = check_module.audit_text(["M"], ["A.b"])
    fake_run(monkeypatch, stdout=answer(first, "'A.b' depends on axioms: [a]") + "junk 1\n"
             + "junk 2 " + "x" * 300 + "\n", returncode=1)
    run = check_module.run_audit("/bin/lake", tmp_path, ["A.b"], 10, imports=["M"])
    assert run.infra == "lake lean exit code 1 without reporting an error: junk 2 " + "x" * 193
    fake_run(monkeypatch, stdout="", returncode=5)
    assert check_module.run_audit("/bin/lake", tmp_path, ["A.b"], 10).infra == \
        "lake lean exit code 5 without reporting an error: "
    fake_run(monkeypatch, stdout=answer(first, "'A.b' depends on axioms: [a]"), returncode=0)
    assert check_module.run_audit("/bin/lake", tmp_path, ["A.b"], 10).infra is None
    fake_run(monkeypatch, error="boom")
    started = check_module.run_audit("/bin/lake", tmp_path, ["A.b"], 10)
    assert started.axioms == {} and started.missing == set() and started.seconds == 0.5
    assert started.command[:2] == ("/bin/lake", "lean")



# -- premises a theorem is stated modulo: the records and their detail, exactly -----------------

def test_premise_records_carry_the_status_and_statement_of_the_covering_check():
    from types import SimpleNamespace

    from leanbridge.check import premise_records
    hypotheses = [SimpleNamespace(binder="hσ", kind="odd", statement="∀ z, f z - f (-z) = z",
                                  reason="no rule"),
                  SimpleNamespace(binder="hc", kind="nonzero", statement="c ≠ 0", reason="r")]
    plan = SimpleNamespace(family=SimpleNamespace(name="f"))
    checks = [PremiseCheck("f", "s_condition", "f(z) - f(-z) = z", "verified", "simplify",
                           kind="odd"),
              PremiseCheck("g", "s_condition", "other", "failed", "simplify", kind="nonzero")]
    records = premise_records(plan, SimpleNamespace(premise_hypotheses=hypotheses), checks)
    assert [(r.binder, r.kind, r.statement, r.reason, r.sympy_status, r.sympy_statement)
            for r in records] == [
        ("hσ", "odd", "∀ z, f z - f (-z) = z", "no rule", "verified", "f(z) - f(-z) = z"),
        ("hc", "nonzero", "c ≠ 0", "r", "unknown", "no symbolic premise check covers it")]


def test_modulo_detail_names_every_premise_and_what_sympy_said():
    from leanbridge.results import PremiseRecord, modulo_detail
    premises = [PremiseRecord("hσ", "odd", "P", "r", "verified", "s"),
                PremiseRecord("hc", "nonzero", "c ≠ 0", "r", "failed", "s")]
    assert modulo_detail(premises) == (
        "proved by Lean modulo hσ : P (verified by SymPy, not by Lean); "
        "hc : c ≠ 0 (NOT verified by SymPy in this run: failed; not by Lean)")
