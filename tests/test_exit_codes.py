"""Exit-code precedence across commands: a usage error (2) wins over a failed check (1).

Each test uses a project whose generated files are stale, so that the check itself would exit
1: the answer must still be 2 when the invocation is wrong (the documented order is 2 > 1 > 3 >
0; ``leanbridge check --help``).
"""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from leanbridge.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def stale_project(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    target = tmp_path / "lean"
    shutil.copytree(ROOT / "lean", target, ignore=shutil.ignore_patterns(".lake"))
    (target / "SkipAbsorption" / "Families" / "Gelu.lean").unlink()
    return target


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_generate_check_exits_1_on_the_stale_project(stale_project):
    result = invoke("generate", "--check", "--project", stale_project)
    assert result.exit_code == 1 and "missing" in result.output


@pytest.mark.parametrize("extra", [["--expr", "z"], ["--name", "x"], ["--gated"], ["--force"]])
def test_generate_check_usage_error_wins_over_stale_files(stale_project, extra):
    result = invoke("generate", "--check", "--project", stale_project, *extra)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("Error: ") and len(result.stderr.splitlines()) == 1


def test_generate_check_unknown_option_is_2(stale_project):
    assert invoke("generate", "--check", "--project", stale_project, "--bogus").exit_code == 2


def test_check_usage_errors_win_over_a_failing_check(stale_project, tmp_path):
    assert invoke("check", "--project", stale_project, "--quiet").exit_code == 1
    bad_lake = invoke("check", "--project", stale_project, "--lake", tmp_path / "no-lake")
    assert bad_lake.exit_code == 2 and "not an executable" in bad_lake.stderr
    assert invoke("check", "--project", stale_project, "--timeout", "0").exit_code == 2
    assert invoke("check", "--project", stale_project, "--jobs", "0").exit_code == 2
