"""`leanbridge check` without Lean: verdict logic, process handling, reports, exit codes.

Process handling is exercised with a STAND-IN for `lake` that these tests write themselves: a
small Python script that prints canned `lean --json` lines. It is not Lean and proves nothing;
it only lets the driver's parsing, timeouts and verdicts be tested on machines without Lean.
"""

import dataclasses
import json
import os
import shutil
import stat
import sys
import time
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import sympy
from click.testing import CliRunner

from leanbridge.atomic import atomic_write
from leanbridge.check import UsageError, run_check
from leanbridge.cli import main
from leanbridge import check as check_module
from leanbridge.reports import github_annotations, step_summary, terminal, to_json, to_junit

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"
SCHEMA = json.loads(resources.files("leanbridge").joinpath(
    "schemas/check-1.schema.json").read_text(encoding="utf-8"))

STANDIN = Path(__file__).with_name("lake_standin.py")


@pytest.fixture
def project(tmp_path):
    target = tmp_path / "lean"
    shutil.copytree(LEAN, target, ignore=shutil.ignore_patterns(".lake"))
    return target


@pytest.fixture
def standin(tmp_path, monkeypatch):
    """Write a `lake` that runs the stand-in, and return a function setting its scenario."""
    script = tmp_path / "standin-lake"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {STANDIN} \"$@\"\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    scenario_file = tmp_path / "scenario.json"
    monkeypatch.setenv("STANDIN_SCENARIO", str(scenario_file))
    monkeypatch.setenv("STANDIN_PIDS", str(tmp_path / "pids"))
    monkeypatch.setenv("STANDIN_LOG", str(tmp_path / "lake-calls.jsonl"))

    def set_scenario(**scenario):
        scenario_file.write_text(json.dumps(scenario))
        return str(script)

    return set_scenario


def lake_calls(tmp_path):
    return [json.loads(line) for line in (tmp_path / "lake-calls.jsonl").read_text().splitlines()]


def by_decl(result):
    return {r.decl: r for r in result.records}


def validate(result):
    data = json.loads(to_json(result))
    jsonschema.validate(data, SCHEMA)
    return data


# -- without any toolchain ---------------------------------------------------------------------

def test_no_toolchain_reports_not_run_and_exits_3(project, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    json_path, junit_path = tmp_path / "r.json", tmp_path / "r.xml"
    result = CliRunner().invoke(main, ["check", "--project", str(project), "--json",
                                       str(json_path), "--junit", str(junit_path)])
    assert result.exit_code == 3
    assert "Lean: not run: no Lean toolchain found" in result.output
    assert "install elan" in result.output
    assert "Symbolic premises (SymPy): 30 verified" in result.output
    data = json.loads(json_path.read_text())
    jsonschema.validate(data, SCHEMA)
    assert data["lean"]["status"] == "not_run" and data["exit_code"] == 3
    assert {r["verdict"] for r in data["results"]} == {"not_run"}
    assert data["summary"]["not_run"] == data["summary"]["total"] > 60
    assert "proved" not in {r["verdict"] for r in data["results"]}
    # a theorem stated modulo no premise says only that Lean did not run
    bare = next(r for r in data["results"] if not r["premises"])
    assert bare["detail"] == "no Lean toolchain"
    suites = ET.parse(junit_path).getroot().findall("testsuite")
    assert {s.get("name") for s in suites} == {"families", "library"}
    assert all(s.get("skipped") == s.get("tests") for s in suites)


def test_stale_tree_exits_1_even_without_lean(project, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    relu = project / "SkipAbsorption" / "Families" / "Relu.lean"
    relu.write_text(relu.read_text().replace("rfl", "rfl  "))
    result = run_check(project)
    assert result.exit_code == 1
    assert 0 <= result.duration_s < 3600
    records = [r for r in result.records if r.file.endswith("Families/Relu.lean")]
    assert records and {r.verdict for r in records} == {"tampered"}


def test_bad_lake_path_is_a_usage_error(project):
    with pytest.raises(UsageError):
        run_check(project, lake="/nonexistent/lake")
    result = CliRunner().invoke(main, ["check", "--project", str(project), "--lake", "/no/lake"])
    assert result.exit_code == 2 and "not an executable" in result.stderr


# -- with the stand-in -------------------------------------------------------------------------

ACT = "SkipAbsorption/Premises/ReluPowers.lean"  # relu2/relu3 premise lemmas (issue 23)
RELU2_DEGREE = "SkipAbsorption.Families.relu2_not_absorbable_degree"


def test_all_proved_exits_0_with_one_build_and_one_audit(project, standin, tmp_path):
    lake = standin()
    result = run_check(project, lake=lake, timeout=60)
    assert result.lean_status == "ran" and not result.modules
    assert result.lean_note == "lake build succeeded"
    assert 0 <= result.duration_s < 3600
    # every catalog theorem is plain `proved`: none is stated modulo a premise (tanh's and
    # sigmoid's R2 theorems instantiate the library's `not_absorbable_tanh`/`_sigmoid`)
    assert {r.verdict for r in result.records} == {"proved"}
    assert result.exit_code == 0
    data = validate(result)
    assert data["toolchain"]["lake_version"].startswith("stand-in lake")
    assert data["project"] == str(project)
    assert data["started_at"].endswith("+00:00")  # UTC, with its offset
    record = by_decl(result)[RELU2_DEGREE]
    # (the order as Lean prints it is read from a fixture: tests/test_check_formats.py)
    assert sorted(record.axioms) == ["Classical.choice", "Quot.sound", "propext"]
    assert record.family == "relu2" and record.argument == "degree"
    assert record.line == _line(project, record.file, "theorem relu2_not_absorbable_degree")
    # the JSON's build entry and a theorem's time: the audit run that answered for it
    assert set(data["lean"]["build"]) == {"command", "returncode", "seconds", "timed_out",
                                          "output_tail"}
    seconds = data["lean"]["build"]["seconds"]
    assert isinstance(seconds, float) and seconds == round(seconds, 3) and seconds > 0
    assert data["lean"]["build"]["output_tail"].splitlines()[-1].startswith(
        "Build completed successfully (")              # Lake's last line, as it printed it
    assert record.time_s is not None
    assert record.time_s == data["lean"]["audit"]["runs"][0]["seconds"]
    # each theorem's role in the dependency graph, as the reports label it
    roles = {name: by_decl(result)[name].role for name in (
        RELU2_DEGREE, "SkipAbsorption.Families.relu2_eq_sympy",
        "SkipAbsorption.relu2_posHomogeneous")}
    assert list(roles.values()) == ["family_theorem", "bridge", "premise"]
    calls = [c for c in lake_calls(tmp_path) if c != ["--version"]]
    # One build, one audit elaborated with the package's options (lakefile [leanOptions]).
    assert calls[0] == ["build"] and len(calls) == 2
    assert calls[1][0] == "lean" and calls[1][1].endswith("LeanbridgeAudit.lean")
    assert calls[1][2:] == ["--", "--json", "-DautoImplicit=false"]
    assert not Path(calls[1][1]).exists(), "the audit file is temporary"
    assert data["lean"]["audit"]["runs"][0]["command"][-4:] == calls[1][-4:]


def test_audit_file_imports_built_modules_and_prints_every_theorem(project):
    text, first = check_module.audit_text(["SkipAbsorption.Degree", "SkipAbsorption.Parity"],
                                          ["SkipAbsorption.a", "SkipAbsorption.b"])
    lines = text.splitlines()
    assert lines[:2] == ["import SkipAbsorption.Degree", "import SkipAbsorption.Parity"]
    assert lines[first - 1:] == ["#print axioms SkipAbsorption.a",
                                 "#print axioms SkipAbsorption.b"]
    assert not any(line.startswith("module") for line in lines)  # #print axioms refuses modules


def test_error_is_placed_in_its_declaration_and_fails_its_module(project, standin):
    line = _line(project, ACT, "theorem relu2_posHomogeneous") + 2
    lake = standin(errors={ACT: [
        {"line": line, "text": "unsolved goals\n⊢ max (t * z) 0 ^ 2 = t ^ 2 * max z 0 ^ 2"}]})
    result = run_check(project, lake=lake, timeout=60)
    records = by_decl(result)
    failed = records["SkipAbsorption.relu2_posHomogeneous"]
    assert failed.verdict == "error" and failed.detail == "unsolved goals"
    assert failed.messages[0].file == ACT and failed.messages[0].line == line
    # Same module, no message of its own: the module failed, so it is not proved.
    sibling = records["SkipAbsorption.relu3_posHomogeneous"]
    assert sibling.verdict == "error"
    assert sibling.detail.startswith("its module SkipAbsorption.Premises.ReluPowers failed to build: "
                                     "unsolved goals")
    # Importers are not built by Lake: error, naming the failed import.
    dependent = records[RELU2_DEGREE]
    assert dependent.verdict == "error"
    assert "it imports SkipAbsorption.Premises.ReluPowers, which failed to build" in dependent.detail
    assert records["SkipAbsorption.not_absorbable_of_posHomogeneous"].verdict == "proved"
    modules = {m.module: m.status for m in result.modules}
    assert modules["SkipAbsorption.Premises.ReluPowers"] == "failed"
    assert modules["SkipAbsorption.Families.Relu2"] == "blocked"
    assert modules["SkipAbsorption"] == "blocked"
    assert result.exit_code == 1
    annotations = github_annotations(result, root="lean")
    assert any(a.startswith("::error file=lean/SkipAbsorption/Premises/ReluPowers.lean,line=")
               and "unsolved goals%0A" in a for a in annotations)


def test_failed_module_without_theorems_is_never_green(project, standin, tmp_path):
    """A failing file with no theorem (here Audit.lean) fails only through the build."""
    audit = "SkipAbsorption/Audit.lean"
    lake = standin(errors={audit: [{"line": 20, "text": "unknown constant 'SkipAbsorption.x'"}]})
    result = run_check(project, lake=lake, timeout=60)
    # no theorem is in Audit.lean
    assert {r.verdict for r in result.records} == {"proved"}
    assert result.build_failed and result.exit_code == 1
    failed = [m for m in result.modules if m.status == "failed"]
    assert [m.module for m in failed] == ["SkipAbsorption.Audit"]
    assert failed[0].detail == f"unknown constant 'SkipAbsorption.x' ({audit}:20)"
    data = validate(result)
    assert data["exit_code"] == 1
    assert {m["module"]: m["status"] for m in data["lean"]["modules"]} == {
        "SkipAbsorption.Audit": "failed", "SkipAbsorption": "blocked"}
    text = terminal(result)
    assert "failed    SkipAbsorption.Audit" in text and "exit 1" in text
    suites = {s.get("name"): s for s in ET.fromstring(to_junit(result)).findall("testsuite")}
    assert suites["modules"].get("failures") == "2"
    assert any(a.startswith("::error file=lean/SkipAbsorption/Audit.lean,line=20")
               for a in github_annotations(result, root="lean"))
    assert "| `SkipAbsorption.Audit` | failed |" in step_summary(result)
    cli = CliRunner().invoke(main, ["check", "--project", str(project), "--lake", lake,
                                    "--quiet", "--json", str(tmp_path / "r.json")])
    assert cli.exit_code == 1


def test_build_failure_naming_no_module_fails_every_theorem(project, standin):
    lake = standin(build={"fail_captions": ["mathlib:extraDep"]})
    result = run_check(project, lake=lake, timeout=60)
    assert {r.verdict for r in result.records} == {"error"}
    assert all("without naming a module of this project: mathlib:extraDep" in r.detail
               for r in result.records)
    assert result.exit_code == 1
    validate(result)


def test_nonzero_build_exit_with_a_clean_log_is_not_green(project, standin):
    result = run_check(project, lake=standin(build={"returncode": 1}), timeout=60)
    assert result.exit_code == 1 and result.build_failed
    assert {r.verdict for r in result.records} == {"error"}
    assert result.lean_note == ("lake build failed (exit code 1; 0 module(s) failed, 0 not "
                                "built; the failure names no module of this project)")
    # the detail quotes the last line Lake printed
    assert result.records[0].detail.startswith(
        "lake build failed (exit 1) without naming a module of this project: "
        "Build completed successfully (")


def test_exit_0_with_a_failed_module_is_not_green(project, standin):
    """A Lake that exits 0 although a module failed (its log says so) is not trusted."""
    line = _line(project, ACT, "theorem relu2_posHomogeneous") + 2
    lake = standin(build={"returncode": 0}, errors={ACT: [{"line": line, "text": "boom"}]})
    result = run_check(project, lake=lake, timeout=60)
    assert result.lean_note.startswith("lake build left modules unbuilt (exit code 0; "
                                       "1 module(s) failed, ")
    assert by_decl(result)["SkipAbsorption.relu2_posHomogeneous"].verdict == "error"
    assert result.exit_code == 1
    assert result.build["output_tail"].endswith("\nerror: build failed")


def test_sorry_follows_the_dependency_graph(project, standin):
    """A theorem using a `sorry` theorem lists sorryAx too (as `#print axioms` does)."""
    activations = project / ACT
    text = activations.read_text()
    proof = ("  intro t ht z\n  show (max (t * z) 0) ^ 2 = t ^ 2 * (max z 0) ^ 2\n"
             "  rw [max_zero_mul_of_pos ht z]\n  ring\n")
    assert proof in text
    activations.write_text(text.replace(proof, "  so" + "rry\n", 1))
    result = run_check(project, lake=standin(), timeout=60)
    records = by_decl(result)
    hole = records["SkipAbsorption.relu2_posHomogeneous"]
    assert hole.verdict == "sorry"
    assert hole.axioms == ["propext", "sorryAx", "Classical.choice", "Quot.sound"]
    assert [m.text for m in hole.messages] == ["declaration uses `sorry`"]
    dependent = records[RELU2_DEGREE]
    assert dependent.verdict == "sorry" and "sorryAx" in dependent.axioms
    assert not dependent.messages          # Lean warns only where the sorry is written
    assert dependent.failed_dependencies[0] == "SkipAbsorption.relu2_posHomogeneous"
    assert records["SkipAbsorption.relu3_posHomogeneous"].verdict == "proved"
    assert result.exit_code == 1


def test_a_lemma_is_checked_like_a_theorem(project, standin):
    """Mathlib's `lemma` keyword: the declaration gets its own verdict (here `sorry`)."""
    activations = project / ACT
    text = activations.read_text()
    proof = ("  intro t ht z\n  show (max (t * z) 0) ^ 2 = t ^ 2 * (max z 0) ^ 2\n"
             "  rw [max_zero_mul_of_pos ht z]\n  ring\n")
    assert proof in text and "theorem relu2_posHomogeneous" in text
    activations.write_text(text.replace(proof, "  so" + "rry\n", 1).replace(
        "theorem relu2_posHomogeneous", "lemma relu2_posHomogeneous", 1))
    result = run_check(project, lake=standin(), timeout=60)
    hole = by_decl(result)["SkipAbsorption.relu2_posHomogeneous"]
    assert hole.verdict == "sorry" and hole.file == ACT
    assert "sorryAx" in hole.axioms
    assert by_decl(result)["SkipAbsorption.relu3_posHomogeneous"].verdict == "proved"
    assert result.exit_code == 1


def test_sorry_is_decided_by_axioms_not_by_message_text(project, standin):
    lake = standin(axioms={"SkipAbsorption.not_absorbable_of_posHomogeneous":
                           ["propext", "sorryAx"]})
    result = run_check(project, lake=lake, timeout=60)
    record = by_decl(result)["SkipAbsorption.not_absorbable_of_posHomogeneous"]
    assert record.verdict == "sorry" and not record.messages
    assert by_decl(result)[RELU2_DEGREE].verdict == "sorry"
    assert result.exit_code == 1
    warnings = [a for a in github_annotations(result) if a.startswith("::warning")]
    assert any("not_absorbable_of_posHomogeneous" in a for a in warnings)


def test_failure_of_a_dependency_is_named(project, standin):
    lake = standin(audit={"missing": [RELU2_DEGREE]},
                   axioms={"SkipAbsorption.relu2_posHomogeneous": ["sorryAx"]})
    result = run_check(project, lake=lake, timeout=60)
    record = by_decl(result)[RELU2_DEGREE]
    assert record.verdict == "missing_decl"
    assert "fails because SkipAbsorption.relu2_posHomogeneous failed (sorry)" in record.detail
    assert record.failed_dependencies[0] == "SkipAbsorption.relu2_posHomogeneous"


def test_axiom_outside_allowlist_and_allow_axiom(project, standin):
    lake = standin(axioms={
        "SkipAbsorption.absorbable_of_sCondition": ["propext", "Lean.ofReduceBool"]})
    result = run_check(project, lake=lake, timeout=60)
    record = by_decl(result)["SkipAbsorption.absorbable_of_sCondition"]
    assert record.verdict == "axiom_violation" and "Lean.ofReduceBool" in record.detail
    allowed = run_check(project, lake=lake, timeout=60, allow=("Lean.ofReduceBool",))
    assert by_decl(allowed)["SkipAbsorption.absorbable_of_sCondition"].verdict == "proved"
    assert "Lean.ofReduceBool" in allowed.allowlist


def test_long_axiom_lists_reach_the_verdict(project, standin):
    """A long, wrapped answer (its format and order: tests/test_check_formats.py, against a
    fixture) still decides: every axiom is read, ``sorryAx`` among them."""
    many = ["Quot.sound", "sorryAx", "Classical.choice", "propext", "My.Very.Long.axiomName",
            "Another.long_axiom_name_here", "zz_axiom"]
    lake = standin(axioms={"SkipAbsorption.absorbable_of_sCondition": many})
    record = by_decl(run_check(project, lake=lake, timeout=60, allow=tuple(many)))[
        "SkipAbsorption.absorbable_of_sCondition"]
    assert sorted(record.axioms) == sorted(many)
    assert record.verdict == "sorry"


def test_private_theorem_is_audited_in_a_copy_of_its_file(project, standin, tmp_path):
    parity = project / "SkipAbsorption" / "Parity.lean"
    text = parity.read_text()
    marker = "end SkipAbsorption"
    assert text.rstrip().endswith(marker)
    extra = ("/-- A private helper (test). -/\nprivate theorem zz_private_fact : (1 : ℕ) = 1 := "
             "rfl\n\n/-- Another (test). -/\nprivate theorem zz_private_hole : (2 : ℕ) = 2 := "
             "by\n  so" + "rry\n\n")
    parity.write_text(text.rstrip()[:-len(marker)] + extra + marker + "\n")
    result = run_check(project, lake=standin(), timeout=60)
    records = by_decl(result)
    assert records["SkipAbsorption.zz_private_fact"].verdict == "proved"
    assert records["SkipAbsorption.zz_private_hole"].verdict == "sorry"
    lean_calls = [c for c in lake_calls(tmp_path) if c[:1] == ["lean"]]
    assert len(lean_calls) == 2       # the public audit, and the copy of Parity.lean
    assert result.exit_code == 1


def test_module_outside_the_library_is_built_as_an_extra_target(project, standin, tmp_path):
    orphan = project / "SkipAbsorption" / "Stray.lean"
    orphan.write_text("import SkipAbsorption.Defs\n\nnamespace SkipAbsorption\n\n"
                      "/-- Not imported by the root. -/\ntheorem stray_fact : (1 : ℕ) = 1 := rfl"
                      "\n\nend SkipAbsorption\n")
    result = run_check(project, lake=standin(), timeout=60)
    assert by_decl(result)["SkipAbsorption.stray_fact"].verdict == "proved"
    builds = [c for c in lake_calls(tmp_path) if c[:1] == ["build"]]
    assert builds == [["build", "SkipAbsorption", "SkipAbsorption.Stray"]]
    assert not result.modules and result.exit_code == 0


def test_user_family_is_built_and_checked_with_lean(project, standin, tmp_path):
    assert CliRunner().invoke(main, ["generate", "--project", str(project), "--expr",
                                     "Max(z,0)**3", "--name", "relu_cubed"]).exit_code == 0
    result = run_check(project, lake=standin(), timeout=60)
    mine = [r for r in result.records if r.family == "relu_cubed"]
    assert mine and {r.verdict for r in mine} == {"proved"}
    builds = [c for c in lake_calls(tmp_path) if c[:1] == ["build"]]
    assert len(builds) == 1 and "SkipAbsorption.Families.ReluCubed" in builds[0]
    assert result.exit_code == 0


def test_heartbeat_timeout_is_reported_apart_from_wall_clock(project, standin):
    line = _line(project, "SkipAbsorption/Degree.lean", "theorem isLittleO_of_posHomogeneous") + 3
    lake = standin(errors={"SkipAbsorption/Degree.lean": [{"line": line, "text":
        "(deterministic) timeout at `whnf`, maximum number of heartbeats (200000) has been "
        "reached"}]})
    record = by_decl(run_check(project, lake=lake, timeout=60))[
        "SkipAbsorption.isLittleO_of_posHomogeneous"]
    assert record.verdict == "timeout" and record.detail.startswith("heartbeats")


def test_wall_clock_timeout_kills_the_process_group(project, standin, tmp_path):
    lake = standin(audit={"sleep": 30})
    started = time.monotonic()
    result = run_check(project, lake=lake, timeout=4)
    assert time.monotonic() - started < 25
    record = by_decl(result)["SkipAbsorption.not_absorbable_of_even"]
    assert record.verdict == "timeout" and record.detail.startswith("wall-clock")
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    time.sleep(0.2)
    for pid in pids:
        assert not _alive(pid), "the stand-in's child process survived the kill"


def test_garbage_output_is_an_infrastructure_error(project, standin):
    record = by_decl(run_check(project, lake=standin(audit={"garbage": True}), timeout=60))[
        "SkipAbsorption.cdf_gaussianReal_neg"]
    assert record.verdict == "infra_error" and "without reporting an error" in record.detail


def test_mathlib_import_failure_is_infrastructure_not_proof(project, standin):
    lake = standin(errors={ACT: [{"line": 1, "text":
        "unknown module prefix 'Mathlib'\n\nNo directory 'Mathlib' or file 'Mathlib.olean'"}]})
    result = run_check(project, lake=lake, timeout=60)
    records = [r for r in result.records if r.file == ACT]
    assert records and {r.verdict for r in records} == {"infra_error"}
    assert "lake exe cache get" in records[0].detail
    assert by_decl(result)["SkipAbsorption.Families.relu2_eq_sympy"].verdict == "error"
    # the ReLU family file imports the light `SkipAbsorption.Relu`: the cascade stops short of it
    assert by_decl(result)["SkipAbsorption.Families.relu_eq_sympy"].verdict == "proved"
    assert result.exit_code == 1
    unloadable = run_check(project, lake=standin(audit={"unloadable": ["Mathlib"]}), timeout=60)
    assert {r.verdict for r in unloadable.records} == {"infra_error"}
    assert "Mathlib cannot be loaded" in unloadable.records[0].detail


def test_mathlib_import_failure_below_a_long_header_comment_is_infrastructure(project, standin):
    # the imports of a file with a 100-line licence comment start on line 101: an error there,
    # before the file's first declaration, is still the header's (Mathlib cannot be loaded)
    path = project / ACT
    path.write_text("/-\n" + "licence text\n" * 98 + "-/\n" + path.read_text())
    assert _line(project, ACT, "import") == 101
    lake = standin(errors={ACT: [{"line": 101, "text": "unknown module prefix 'Mathlib'"}]})
    result = run_check(project, lake=lake, timeout=60)
    records = [r for r in result.records if r.file == ACT]
    assert records and {r.verdict for r in records} == {"infra_error"}
    assert "lake exe cache get" in records[0].detail


def test_hanging_lake_version_runs_under_the_timeout_and_says_why(project, standin):
    lines = []
    result = run_check(project, lake=standin(version={"sleep": 30}), timeout=10,
                       progress=lines.append)
    assert result.toolchain.lake_version is None
    assert [line for line in lines if line.startswith("lake --version gave no version: ")]


def test_build_timeout_marks_everything(project, standin):
    result = run_check(project, lake=standin(build={"sleep": 30}), timeout=2)
    assert result.lean_status == "build_timeout"
    assert result.build["timed_out"] is True and 0 <= result.duration_s < 3600
    assert {r.verdict for r in result.records} == {"timeout"}
    assert result.exit_code == 1
    validate(result)


def test_ansi_coloured_build_output_is_parsed(project, standin):
    line = _line(project, ACT, "theorem relu2_posHomogeneous") + 2
    lake = standin(build={"ansi": True}, errors={ACT: [{"line": line, "text": "boom"}]})
    record = by_decl(run_check(project, lake=lake, timeout=60))[
        "SkipAbsorption.relu2_posHomogeneous"]
    assert record.verdict == "error" and record.detail == "boom"


def test_cli_exit_code_junit_annotations_and_step_summary(project, standin, tmp_path,
                                                          monkeypatch):
    lake = standin(axioms={"SkipAbsorption.not_absorbable_of_posHomogeneous": ["sorryAx"]})
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    junit = tmp_path / "junit.xml"
    result = CliRunner().invoke(main, ["check", "--project", str(project), "--lake", lake,
                                       "--junit", str(junit), "--quiet"])
    assert result.exit_code == 1
    assert "::warning file=" in result.output and "title=leanbridge%3A sorry" in result.output
    assert summary.read_text().startswith("## leanbridge check")
    root = ET.parse(junit).getroot()
    failures = root.findall(".//testcase/failure")
    assert failures and {f.get("type") for f in failures} == {"sorry"}


def test_step_summary_marks_verdicts(project, standin):
    result = run_check(project, lake=standin(), timeout=60)
    text = step_summary(result)
    assert "| relu2 | degree | `relu2_not_absorbable_degree` | ✅ proved |" in text


# -- parsing and writing ---------------------------------------------------------------------

def test_atomic_write_leaves_old_file_when_interrupted(tmp_path, monkeypatch):
    target = tmp_path / "report.json"
    target.write_text("old")

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, "new " * 1000)
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_junit_round_trip_counts(project, standin):
    result = run_check(project, lake=standin(), timeout=60)
    root = ET.fromstring(to_junit(result))
    total = sum(int(s.get("tests")) for s in root.findall("testsuite"))
    assert total == len(result.records)
    assert root.findall(".//failure") == []


def _line(project: Path, relative: str, needle: str) -> int:
    for number, line in enumerate((project / relative).read_text().splitlines(), start=1):
        if line.startswith(needle):
            return number
    raise AssertionError(needle)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purposes
        with open(f"/proc/{pid}/stat") as stream:
            return stream.read().split()[2] != "Z"
    except OSError:
        return False


def test_long_build_reports_progress(project, standin, monkeypatch):
    from leanbridge import check as check_module
    original = check_module._ticking
    monkeypatch.setattr(check_module, "_ticking",
                        lambda progress, what: original(progress, what, every=0.2))
    lines = []
    run_check(project, lake=standin(build={"sleep": 1}, audit={"pause": 1}), timeout=60,
              progress=lines.append)
    assert "checking generated files (leanbridge generate --check)" in lines
    assert "lake build (timeout 60 s) …" in lines
    assert any(line.startswith("lake build: still running") for line in lines)
    assert any(line.startswith("audit: still running") for line in lines)
    assert any(line.startswith("audit: ") and "axiom reports" in line for line in lines)


def test_user_family_files_are_checked_with_their_premises(project, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert CliRunner().invoke(main, ["generate", "--project", str(project), "--expr",
                                     "Max(z,0)**3", "--name", "relu_cubed"]).exit_code == 0
    result = run_check(project)
    mine = [r for r in result.records if r.family == "relu_cubed"]
    assert {r.argument for r in mine} >= {"degree", "linearisation"}
    assert {p.family for p in result.premises} >= {"relu_cubed"}
    assert result.exit_code == 3


# -- trust-critical paths without Lean (each kills a mutant that survived before) ----------------

def _no_lean(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def test_missing_referenced_lean_name_fails_check_without_lean(project, tmp_path, monkeypatch):
    _no_lean(tmp_path, monkeypatch)
    activations = project / ACT
    text = activations.read_text()
    assert "theorem relu2_posHomogeneous" in text
    activations.write_text(text.replace("theorem relu2_posHomogeneous",
                                        "theorem relu2_posHomogeneous_renamed"))
    result = run_check(project)
    assert any(name.startswith("SkipAbsorption.relu2_posHomogeneous ")
               for name in result.missing_names)
    assert result.lean_status == "not_run" and result.exit_code == 1
    cli = CliRunner().invoke(main, ["check", "--project", str(project), "--quiet"])
    assert cli.exit_code == 1 and "missing   SkipAbsorption.relu2_posHomogeneous" in cli.output
    assert validate(result)["missing_names"]


def test_missing_lean_name_referenced_by_an_export_fails_check_without_lean(
        project, tmp_path, monkeypatch):
    # resStack_eq_plainStack_width_two is referenced only by the exports' library statements
    # (leanbridge/library_statements.py), not by the catalog, the templates or the general-
    # theorem table: check and graph --check must still notice it is gone.
    _no_lean(tmp_path, monkeypatch)
    stacks = project / "SkipAbsorption" / "Beyond" / "StacksLine.lean"
    text = stacks.read_text(encoding="utf-8")
    assert "theorem resStack_eq_plainStack_width_two " in text
    stacks.write_text(text.replace("theorem resStack_eq_plainStack_width_two ",
                                   "theorem resStack_eq_plainStack_width_two_renamed "),
                      encoding="utf-8")
    result = run_check(project)
    assert [m for m in result.missing_names
            if m.startswith("SkipAbsorption.resStack_eq_plainStack_width_two ")] == [
        ("SkipAbsorption.resStack_eq_plainStack_width_two (referenced by export entry in "
         "leanbridge/library_statements.py, group beyond_depth) is not declared in lean/")]
    assert result.lean_status == "not_run" and result.exit_code == 1
    for command in (["check", "--quiet"], ["graph", "--check"]):
        cli = CliRunner().invoke(main, [*command, "--project", str(project)])
        assert cli.exit_code == 1, (command, cli.output)
        assert ("missing   SkipAbsorption.resStack_eq_plainStack_width_two (referenced by "
                "export entry") in cli.output


def test_stale_generated_file_marks_its_theorems_stale(project, tmp_path, monkeypatch):
    _no_lean(tmp_path, monkeypatch)
    from leanbridge.generate import digest, parse_header
    relu = project / "SkipAbsorption" / "Families" / "Relu.lean"
    header = parse_header(relu.read_text())
    body = header.body.replace("rfl", "rfl ", 1)      # intact header hash, other content
    lines = relu.read_text().splitlines(keepends=True)
    relu.write_text("".join(lines[:2]) + f"-- leanbridge-hash: sha256:{digest(body)}\n" + body)
    result = run_check(project)
    statuses = {f["path"]: f["status"] for f in result.generated_files}
    assert statuses["SkipAbsorption/Families/Relu.lean"] == "stale"
    records = [r for r in result.records if r.file == "SkipAbsorption/Families/Relu.lean"]
    assert records and {r.verdict for r in records} == {"stale"}
    assert result.exit_code == 1


def test_missing_generated_file_marks_its_theorems_stale(project, tmp_path, monkeypatch):
    _no_lean(tmp_path, monkeypatch)
    # tanh's R2 theorem as it is stated without the library's `not_absorbable_tanh`: modulo hρ
    # (no catalog theorem has a premise any more; this keeps one whose file goes missing)
    from leanbridge.lean import library
    monkeypatch.setattr(library, "BOUNDED_LEAN", {})
    assert CliRunner().invoke(main, ["generate", "--project", str(project)]).exit_code == 0
    intact = {r.decl: r for r in run_check(project).records if r.family == "tanh"}
    (project / "SkipAbsorption" / "Families" / "Tanh.lean").unlink()
    result = run_check(project)
    records = [r for r in result.records if r.family == "tanh"]
    assert records and {r.verdict for r in records} == {"stale"}
    # each keeps what its family's plan says about it; only its place in the file is gone
    assert {r.decl for r in records} == set(intact)
    assert any(r.premises for r in records)       # tanh's R2 theorem, modulo hρ here
    for record in records:
        before = intact[record.decl]
        assert record.line is None and before.line is not None
        assert record.detail == "its generated file is missing: run `leanbridge generate`"
        assert (record.file, record.role, record.statement_hash, record.argument,
                record.premises, record.certificate_rule) == (
            before.file, before.role, before.statement_hash, before.argument,
            before.premises, before.certificate_rule)
    assert {f["status"] for f in result.generated_files
            if f["path"] == "SkipAbsorption/Families/Tanh.lean"} == {"missing"}
    assert result.exit_code == 1


def test_failed_sympy_premise_makes_check_exit_1(project, tmp_path, monkeypatch):
    """A premise SymPy refutes (here: relu2 claimed homogeneous of degree 3) fails the check."""
    _no_lean(tmp_path, monkeypatch)
    from leanbridge import analysis as analysis_module

    real = check_module.analyse

    def wrong(family):
        result = real(family)
        if family.name == "relu2":
            result = dataclasses.replace(
                result, facts=dataclasses.replace(result.facts, degree=sympy.Integer(3)))
        return result

    monkeypatch.setattr(check_module, "analyse", wrong)
    result = run_check(project)
    failed = [p for p in result.premises if p.status == "failed"]
    assert [p.family for p in failed] == ["relu2"]
    assert result.exit_code == 1
    assert "FAILED relu2 degree" in terminal(result)
    assert analysis_module.analyse is real


# -- one pass: each family planned, analysed and rendered once per run --------------------------

def _counting(monkeypatch, function) -> list:
    """Count the calls of a leanbridge function, wherever a module imported it by name."""
    calls = []

    def counting(*args, **kwargs):
        calls.append(args[0] if args else None)
        return function(*args, **kwargs)

    for module in list(sys.modules.values()):
        if (getattr(module, "__name__", "").startswith("leanbridge")
                and getattr(module, function.__name__, None) is function):
            monkeypatch.setattr(module, function.__name__, counting)
    return calls


def test_check_plans_renders_and_scans_once(project, tmp_path, monkeypatch):
    import jinja2

    from leanbridge import analysis, render
    from leanbridge.families import CATALOG
    from leanbridge.lean import sources

    assert CliRunner().invoke(main, ["generate", "--project", str(project), "--expr",
                                     "Max(z,0)**3", "--name", "relu_cubed"]).exit_code == 0
    _no_lean(tmp_path, monkeypatch)
    planned = _counting(monkeypatch, render.build_family_file)
    rendered = _counting(monkeypatch, render.render_family)
    scanned = _counting(monkeypatch, sources.scan_project)
    compiled = []
    compile_template = jinja2.Environment.compile

    def counting_compile(self, source, name=None, *args, **kwargs):
        compiled.append(name)
        return compile_template(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting_compile)
    getattr(render.environment, "cache_clear", lambda: None)()  # compile afresh
    analysis.analyse.cache_clear()

    result = run_check(project)

    names = [f.name for f in CATALOG] + ["relu_cubed"]
    assert [f.name for f in planned] == names
    assert [p.family.name for p in rendered] == names
    assert analysis.analyse.cache_info().misses == len(names)
    assert scanned == [project]
    assert compiled and len(compiled) == len(set(compiled))
    assert "relu_cubed" in {p.family for p in result.premises}
    assert result.exit_code == 3


def test_check_of_the_catalog_proves_its_premises_without_simplify(project, tmp_path,
                                                                   monkeypatch):
    """Every catalog premise and analysis identity is proved by exact normal forms (expand,
    exp of a real log identity): ``simplify``, whose first call alone costs 0.1 s, is not
    needed for the catalog."""
    from leanbridge import analysis, halfline

    _no_lean(tmp_path, monkeypatch)
    calls = []
    real = sympy.simplify
    monkeypatch.setattr(sympy, "simplify", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    for cached in (analysis.analyse, analysis.scalar_facts, halfline.zero_test,
                   halfline.jet_at_0):
        cached.cache_clear()
    result = run_check(project)
    assert {p.status for p in result.premises} == {"verified"}
    # 17 identities, 6 c ≠ 0 checks (odd-part families) and 7 large-scale limits (issue 22:
    # σ(tz)/t → relu z for relu, gelu, gelu_tanh, silu, softplus; → 0 for tanh, sigmoid)
    assert len(result.premises) == 30
    assert calls == []
