""".ci/run's best-effort TeX install, run for real with stub programs: the package lists are
updated (bounded) before the install, only when something is missing, and neither a failed
update nor a failed install stops the script."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _tex_block():
    return SCRIPT.split("# -- tex: start\n")[1].split("# -- tex: end\n")[0]


def _stub(directory: Path, name: str, body: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(0o755)


def _run(tmp_path, *, have_tex, update_exit=0, install_exit=0):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"
    _stub(bin_dir, "apt-get", f'echo "$*" >> {log}\n'
          f'case "$1" in update) exit {update_exit};; install) exit {install_exit};; esac\n')
    _stub(bin_dir, "id", "echo 0\n")
    if have_tex:
        _stub(bin_dir, "pdflatex", "exit 0\n")
    _stub(bin_dir, "kpsewhich", f"exit {0 if have_tex else 1}\n")
    os.symlink(shutil.which("timeout"), bin_dir / "timeout")    # the real one
    script = tmp_path / "tex.sh"
    script.write_text("set -euo pipefail\n" + _tex_block() + "echo reached-the-end\n",
                      encoding="utf-8")
    completed = subprocess.run([shutil.which("bash"), str(script)], check=False,
                               capture_output=True, text=True, timeout=60,
                               env={"PATH": str(bin_dir), "HOME": str(tmp_path)})
    calls = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return completed, calls


@pytest.fixture(autouse=True)
def _tools():
    if shutil.which("bash") is None or shutil.which("timeout") is None:
        pytest.skip("bash and timeout are needed to run .ci/run's TeX block")


def test_block_is_marked_in_the_script():
    block = _tex_block()
    assert "apt-get install" in block and "apt-get update" in block


def test_lists_are_updated_before_the_install_when_tex_is_missing(tmp_path):
    completed, calls = _run(tmp_path, have_tex=False)
    assert completed.returncode == 0, completed.stderr
    assert [call.split()[0] for call in calls] == ["update", "install"]
    assert "texlive-latex-base" in calls[1] and "texlive-latex-recommended" in calls[1]
    assert "reached-the-end" in completed.stdout


def test_the_update_is_bounded_and_quiet():
    update = next(line for line in _tex_block().splitlines() if "apt-get update" in line)
    assert "timeout " in update and "-q" in update and ">/dev/null 2>&1" in update


def test_a_failed_update_or_install_does_not_stop_the_script(tmp_path):
    completed, calls = _run(tmp_path, have_tex=False, update_exit=100, install_exit=100)
    assert completed.returncode == 0, completed.stderr
    assert [call.split()[0] for call in calls] == ["update", "install"]
    assert "note: apt-get update failed" in completed.stdout
    assert "note: TeX Live" in completed.stdout
    assert "reached-the-end" in completed.stdout


def test_nothing_is_fetched_when_tex_is_there(tmp_path):
    completed, calls = _run(tmp_path, have_tex=True)
    assert completed.returncode == 0, completed.stderr
    assert calls == []
    assert completed.stdout == "reached-the-end\n"
