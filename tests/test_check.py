"""`leanbridge check` without Lean: verdict logic, process handling, reports, exit codes.

Process handling is exercised with a STAND-IN for `lake` that these tests write themselves: a
small Python script that prints canned `lean --json` lines. It is not Lean and proves nothing;
it only lets the driver's parsing, timeouts and verdicts be tested on machines without Lean.
"""

import json
import os
import shutil
import stat
import textwrap
import time
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from leanbridge.atomic import atomic_write
from leanbridge.check import UsageError, run_check
from leanbridge.cli import main
from leanbridge.lean.messages import parse_axioms, parse_json_messages
from leanbridge.reports import github_annotations, step_summary, to_json, to_junit

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"
SCHEMA = json.loads(resources.files("leanbridge").joinpath(
    "schemas/check-1.schema.json").read_text(encoding="utf-8"))

STANDIN = textwrap.dedent('''\
    #!{python}
    """STAND-IN for lake, written by leanbridge's tests. Not Lean: it prints canned output."""
    import json, os, re, subprocess, sys, time
    scenario = json.load(open(os.environ["STANDIN_SCENARIO"]))
    args = sys.argv[1:]
    if args == ["--version"]:
        print("stand-in lake for leanbridge tests (not Lean)")
        sys.exit(0)
    if args[:1] == ["build"]:
        build = scenario.get("build", {{}})
        time.sleep(build.get("sleep", 0))
        print(build.get("stdout", "Build completed successfully."))
        sys.exit(build.get("returncode", 0))
    if args[:3] == ["env", "lean", "--json"]:
        path = args[3]
        spec = scenario.get("files", {{}}).get(os.path.basename(path), {{}})
        if spec.get("sleep"):
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            open(os.environ["STANDIN_PIDS"], "a").write(f"{{child.pid}}\\n")
            time.sleep(spec["sleep"])
        if spec.get("garbage"):
            print("PANIC at Lean.Elab something went wrong <not json>")
            sys.exit(1)
        def emit(line, severity, text):
            print(json.dumps({{"fileName": path, "pos": {{"line": line, "column": 0}},
                              "endPos": {{"line": line, "column": 4}}, "severity": severity,
                              "data": text, "kind": ""}}))
        for error in spec.get("errors", []):
            emit(error["line"], "error", error["text"])
        for number, line in enumerate(open(path).read().splitlines(), start=1):
            match = re.match(r"#print axioms (\\S+)", line)
            if not match:
                continue
            name = match.group(1)
            if name in spec.get("missing", []):
                emit(number, "error", f"unknown constant '{{name}}'")
                continue
            default = ["propext", "Classical.choice", "Quot.sound"]
            axioms = spec.get("axioms", {{}}).get(name, default)
            text = (f"'{{name}}' depends on axioms: [{{', '.join(axioms)}}]" if axioms
                    else f"'{{name}}' does not depend on any axioms")
            emit(number, "information", text)
        sys.exit(1 if spec.get("errors") else 0)
    sys.exit(f"stand-in lake: unexpected arguments {{args}}")
''')


@pytest.fixture
def project(tmp_path):
    target = tmp_path / "lean"
    shutil.copytree(LEAN, target, ignore=shutil.ignore_patterns(".lake"))
    return target


@pytest.fixture
def standin(tmp_path, monkeypatch):
    """Write the stand-in `lake` and return a function that sets its scenario."""
    script = tmp_path / "standin-lake"
    script.write_text(STANDIN.format(python=shutil.which("python3") or "/usr/bin/env python3"))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    scenario_file = tmp_path / "scenario.json"
    monkeypatch.setenv("STANDIN_SCENARIO", str(scenario_file))
    monkeypatch.setenv("STANDIN_PIDS", str(tmp_path / "pids"))

    def set_scenario(**scenario):
        scenario_file.write_text(json.dumps(scenario))
        return str(script)

    return set_scenario


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
    assert "Symbolic premises (SymPy): 17 verified" in result.output
    data = json.loads(json_path.read_text())
    jsonschema.validate(data, SCHEMA)
    assert data["lean"]["status"] == "not_run" and data["exit_code"] == 3
    assert {r["verdict"] for r in data["results"]} == {"not_run"}
    assert data["summary"]["not_run"] == data["summary"]["total"] > 60
    assert "proved" not in {r["verdict"] for r in data["results"]}
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
    records = [r for r in result.records if r.file.endswith("Families/Relu.lean")]
    assert records and {r.verdict for r in records} == {"tampered"}


def test_bad_lake_path_is_a_usage_error(project):
    with pytest.raises(UsageError):
        run_check(project, lake="/nonexistent/lake")
    result = CliRunner().invoke(main, ["check", "--project", str(project), "--lake", "/no/lake"])
    assert result.exit_code == 2 and "not an executable" in result.stderr


# -- with the stand-in -------------------------------------------------------------------------

def test_all_proved_exits_0(project, standin):
    lake = standin()
    result = run_check(project, lake=lake, timeout=60)
    assert result.lean_status == "ran"
    assert {r.verdict for r in result.records} == {"proved"}
    assert result.exit_code == 0
    data = validate(result)
    assert data["toolchain"]["lake_version"].startswith("stand-in lake")
    record = by_decl(result)["SkipAbsorption.Families.relu2_not_absorbable_degree"]
    assert record.axioms == ["propext", "Classical.choice", "Quot.sound"]
    assert record.family == "relu2" and record.argument == "degree"


def test_error_is_placed_in_its_declaration_and_explains_dependents(project, standin):
    line = _line(project, "SkipAbsorption/Activations.lean", "theorem relu2_posHomogeneous") + 2
    lake = standin(files={"Activations.lean": {"errors": [
        {"line": line, "text": "unsolved goals\n⊢ max (t * z) 0 ^ 2 = t ^ 2 * max z 0 ^ 2"}]}})
    result = run_check(project, lake=lake, timeout=60)
    records = by_decl(result)
    failed = records["SkipAbsorption.relu2_posHomogeneous"]
    assert failed.verdict == "error" and failed.detail == "unsolved goals"
    assert failed.messages[0].file == "SkipAbsorption/Activations.lean"
    assert records["SkipAbsorption.relu3_posHomogeneous"].verdict == "proved"
    assert result.exit_code == 1
    annotations = github_annotations(result, root="lean")
    assert any(a.startswith("::error file=lean/SkipAbsorption/Activations.lean,line=")
               and "unsolved goals%0A" in a for a in annotations)


def test_failure_of_a_dependency_is_named(project, standin):
    lake = standin(files={"Relu2.lean": {"missing": [
        "SkipAbsorption.Families.relu2_not_absorbable_degree"]},
        "Activations.lean": {"axioms": {"SkipAbsorption.relu2_posHomogeneous": ["sorryAx"]}}})
    result = run_check(project, lake=lake, timeout=60)
    record = by_decl(result)["SkipAbsorption.Families.relu2_not_absorbable_degree"]
    assert record.verdict == "missing_decl"
    assert "fails because SkipAbsorption.relu2_posHomogeneous failed (sorry)" in record.detail
    assert record.failed_dependencies[0] == "SkipAbsorption.relu2_posHomogeneous"


def test_sorry_is_decided_by_axioms_not_by_message_text(project, standin):
    lake = standin(files={"Degree.lean": {"axioms": {
        "SkipAbsorption.not_absorbable_of_posHomogeneous": ["propext", "sorryAx"]}}})
    result = run_check(project, lake=lake, timeout=60)
    record = by_decl(result)["SkipAbsorption.not_absorbable_of_posHomogeneous"]
    assert record.verdict == "sorry" and not record.messages
    assert result.exit_code == 1
    dependents = by_decl(result)["SkipAbsorption.Families.relu2_not_absorbable_degree"]
    assert dependents.verdict == "proved"  # its own axioms (canned) are clean
    warnings = [a for a in github_annotations(result) if a.startswith("::warning")]
    assert any("not_absorbable_of_posHomogeneous" in a for a in warnings)


def test_axiom_outside_allowlist_and_allow_axiom(project, standin):
    lake = standin(files={"Parity.lean": {"axioms": {
        "SkipAbsorption.absorbable_of_sCondition": ["propext", "Lean.ofReduceBool"]}}})
    result = run_check(project, lake=lake, timeout=60)
    assert by_decl(result)["SkipAbsorption.absorbable_of_sCondition"].verdict == \
        "axiom_violation"
    allowed = run_check(project, lake=lake, timeout=60, allow=("Lean.ofReduceBool",))
    assert by_decl(allowed)["SkipAbsorption.absorbable_of_sCondition"].verdict == "proved"
    assert "Lean.ofReduceBool" in allowed.allowlist


def test_heartbeat_timeout_is_reported_apart_from_wall_clock(project, standin):
    line = _line(project, "SkipAbsorption/Depth.lean", "theorem isLittleO_of_posHomogeneous") + 3
    lake = standin(files={"Depth.lean": {"errors": [{"line": line, "text":
        "(deterministic) timeout at `whnf`, maximum number of heartbeats (200000) has been "
        "reached"}]}})
    record = by_decl(run_check(project, lake=lake, timeout=60))[
        "SkipAbsorption.isLittleO_of_posHomogeneous"]
    assert record.verdict == "timeout" and record.detail.startswith("heartbeats")


def test_wall_clock_timeout_kills_the_process_group(project, standin, tmp_path):
    lake = standin(files={"Parity.lean": {"sleep": 30}})
    started = time.monotonic()
    result = run_check(project, lake=lake, timeout=2)
    assert time.monotonic() - started < 25
    record = by_decl(result)["SkipAbsorption.not_absorbable_of_even"]
    assert record.verdict == "timeout" and record.detail.startswith("wall-clock")
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    time.sleep(0.2)
    for pid in pids:
        assert not _alive(pid), "the stand-in's child process survived the kill"


def test_garbage_output_is_an_infrastructure_error(project, standin):
    lake = standin(files={"Gaussian.lean": {"garbage": True}})
    record = by_decl(run_check(project, lake=lake, timeout=60))[
        "SkipAbsorption.cdf_gaussianReal_neg"]
    assert record.verdict == "infra_error" and "without reporting an error" in record.detail


def test_mathlib_import_failure_is_infrastructure_not_proof(project, standin):
    lake = standin(files={"Activations.lean": {"errors": [{"line": 1, "text":
        "unknown module prefix 'Mathlib'\n\nNo directory 'Mathlib' or file 'Mathlib.olean'"}]}})
    result = run_check(project, lake=lake, timeout=60)
    records = [r for r in result.records if r.file == "SkipAbsorption/Activations.lean"]
    assert records and {r.verdict for r in records} == {"infra_error"}
    assert "lake exe cache get" in records[0].detail
    assert by_decl(result)["SkipAbsorption.Families.relu_eq_sympy"].verdict == "proved"


def test_project_file_that_cannot_load_is_an_error(project, standin):
    lake = standin(files={"Relu2.lean": {"errors": [{"line": 4, "text":
        "object file .lake/build/lib/lean/SkipAbsorption/Degree.olean of module "
        "SkipAbsorption.Degree does not exist"}]}})
    records = [r for r in run_check(project, lake=lake, timeout=60).records
               if r.file.endswith("Relu2.lean")]
    assert {r.verdict for r in records} == {"error"}
    assert records[0].detail.startswith("the file cannot be loaded")


def test_build_timeout_marks_everything(project, standin):
    lake = standin(build={"sleep": 30})
    result = run_check(project, lake=lake, timeout=2)
    assert result.lean_status == "build_timeout"
    assert {r.verdict for r in result.records} == {"timeout"}
    assert result.exit_code == 1
    validate(result)


def test_cli_exit_code_junit_annotations_and_step_summary(project, standin, tmp_path,
                                                          monkeypatch):
    lake = standin(files={"Degree.lean": {"axioms": {
        "SkipAbsorption.not_absorbable_of_posHomogeneous": ["sorryAx"]}}})
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
    assert [f.get("type") for f in failures] == ["sorry"]


def test_step_summary_marks_verdicts(project, standin):
    result = run_check(project, lake=standin(), timeout=60)
    text = step_summary(result)
    assert "| relu2 | degree | `relu2_not_absorbable_degree` | ✅ proved |" in text


# -- parsing and writing ---------------------------------------------------------------------

def test_parse_json_messages_keeps_garbage_apart():
    output = ('{"fileName": "F.lean", "pos": {"line": 3, "column": 2}, "endPos": null, '
              '"severity": "error", "data": "boom", "kind": "x"}\n'
              "not json at all\n[1, 2]\n")
    messages, other = parse_json_messages(output)
    assert [(m.line, m.severity, m.text) for m in messages] == [(3, "error", "boom")]
    assert other == ["not json at all", "[1, 2]"]


def test_parse_axioms_formats():
    text = ("'A.b' depends on axioms: [propext,\n Classical.choice, Quot.sound]\n"
            "'A.c'' does not depend on any axioms\n")
    assert parse_axioms(text) == {"A.b": ["propext", "Classical.choice", "Quot.sound"],
                                  "A.c'": []}


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
    run_check(project, lake=standin(build={"sleep": 1}), timeout=60, progress=lines.append)
    assert any(line.startswith("lake build: still running") for line in lines)
    assert any(line.startswith("[") and "proved" in line for line in lines)


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
