"""Every failure is one line with the documented exit code (issue 11, §3)."""

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from leanbridge import generate as generated_files
from leanbridge.atomic import atomic_write
from leanbridge.cli import EXIT_INTERRUPTED, find_project, main
from sigint import interrupt, running

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"
UNWRITABLE = "/proc/leanbridge-nowhere/out.txt"   # no one, not even root, creates files there


def run(*args):
    return CliRunner().invoke(main, list(args))


def one_line_exit_2(result, message):
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture
def project(tmp_path):
    target = tmp_path / "lean"
    shutil.copytree(LEAN, target, ignore=shutil.ignore_patterns(".lake", "build"))
    return target


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


@contextmanager
def read_only(directory: Path):
    """Make ``directory`` unwritable, also for root (chattr +i), else by its mode bits."""
    if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(directory)],
                                                 capture_output=True).returncode == 0:
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(directory)], capture_output=True)
        return
    if os.geteuid() == 0:
        pytest.skip("running as root without chattr: no way to make a directory read-only")
    mode = directory.stat().st_mode
    directory.chmod(0o555)
    try:
        yield
    finally:
        directory.chmod(mode)


# -- Click's usage errors: one line too --------------------------------------------------------

@pytest.mark.parametrize("args, line", [
    (["bogus"], "Error: No such command 'bogus' (see 'leanbridge --help')"),
    (["families", "--bogus"],
     "Error: No such option '--bogus' (see 'leanbridge families --help')"),
    (["export", "--format", "pdf"],
     ("Error: Invalid value for '--format': 'pdf' is not one of 'latex', 'markdown', 'json', "
      "'blueprint' (see 'leanbridge export --help')")),
    (["--bogus"], "Error: No such option '--bogus' (see 'leanbridge --help')"),
    (["probe", "deep", "--bogus"],
     "Error: No such option '--bogus' (see 'leanbridge probe deep --help')"),
])
def test_usage_errors_are_one_line_on_stderr_with_exit_2(args, line):
    result = run(*args)
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == ""
    assert [text for text in result.stderr.splitlines() if text.strip()] == [line]


def test_usage_error_of_the_real_executable_is_one_line():
    completed = subprocess.run([sys.executable, "-m", "leanbridge", "families", "--bogus"],
                               check=False, capture_output=True, text=True, timeout=60, cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr == (
        "Error: No such option '--bogus' (see 'leanbridge families --help')\n")


def test_bare_leanbridge_still_shows_the_help():
    result = run()
    assert result.exit_code == 2 and "Usage: leanbridge [OPTIONS] COMMAND" in result.output
    assert "Commands:" in result.output


# -- unwritable outputs: checked before the work, exit 2 ----------------------------------------

@pytest.mark.parametrize("args, message", [
    (["graph", "--project", str(LEAN), "--out", "/"], "--out: / is a directory"),
    (["graph", "--project", str(LEAN), "--out", UNWRITABLE], "is not writable"),
    (["export", "--project", str(LEAN), "--format", "json", "--out", UNWRITABLE],
     "is not writable"),
    (["check", "--project", str(LEAN), "--json", "/"], "--json: / is a directory"),
    (["check", "--project", str(LEAN), "--junit", UNWRITABLE], "--junit: cannot write"),
])
def test_unwritable_output_is_refused_before_the_work(args, message):
    started = time.monotonic()
    result = run(*args)
    one_line_exit_2(result, message)
    assert result.stdout == ""          # check: no table, nothing ran
    assert time.monotonic() - started < 5


def test_generate_into_a_read_only_project_writes_nothing(project):
    (project / generated_files.FAMILIES_DIR / "Relu2.lean").unlink()
    before = _snapshot(project)
    with read_only(project / generated_files.FAMILIES_DIR):
        result = run("generate", "--project", str(project))
    one_line_exit_2(result, "cannot write the generated files")
    assert _snapshot(project) == before


def test_generate_user_family_into_a_read_only_project(project):
    with read_only(project / generated_files.FAMILIES_DIR):
        result = run("generate", "--project", str(project), "--expr", "Max(z,0)**3",
                     "--name", "cube")
    one_line_exit_2(result, "is not writable")
    assert not (project / generated_files.FAMILIES_DIR / "Cube.lean").exists()


# -- generate: all or nothing ------------------------------------------------------------------

def _stale_relu2(project: Path) -> str:
    """Rewrite Relu2.lean as an intact but out-of-date generated file; return its text."""
    path = project / generated_files.FAMILIES_DIR / "Relu2.lean"
    header = generated_files.parse_header(path.read_text(encoding="utf-8"))
    old = generated_files.GeneratedFile(path.relative_to(project).as_posix(), header.template,
                                        header.source, "-- an older rendering\n")
    path.write_text(old.text, encoding="utf-8")
    return old.text


@pytest.mark.parametrize("phase", ["staging", "renaming"])
def test_generate_is_all_or_nothing_when_the_index_write_fails(project, monkeypatch, phase):
    old_relu2 = _stale_relu2(project)
    (project / generated_files.FAMILIES_DIR / "Relu3.lean").unlink()
    (project / generated_files.INDEX_PATH).unlink()
    before = _snapshot(project)
    index = (project / generated_files.INDEX_PATH).resolve()
    if phase == "staging":
        real = generated_files.write_temporary

        def failing(target, text):
            if Path(target).resolve() == index:
                raise OSError(28, "No space left on device", str(target))
            return real(target, text)
        monkeypatch.setattr(generated_files, "write_temporary", failing)
    else:
        real_replace = os.replace

        def failing_replace(source, target):
            if Path(target).resolve() == index:
                raise OSError(28, "No space left on device", str(target))
            return real_replace(source, target)
        monkeypatch.setattr(generated_files.os, "replace", failing_replace)
    result = run("generate", "--project", str(project))
    one_line_exit_2(result, "nothing was written")
    assert _snapshot(project) == before
    assert (project / generated_files.FAMILIES_DIR / "Relu2.lean").read_text() == old_relu2
    leftovers = [p for p in project.rglob("*.tmp")]
    assert leftovers == []


# -- the atomic writer respects the umask ------------------------------------------------------

@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_atomic_write_respects_the_umask(tmp_path, umask, mode):
    previous = os.umask(umask)
    try:
        atomic_write(tmp_path / "new.txt", "x")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == mode


def test_atomic_write_keeps_the_mode_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "report.json"
    target.write_text("old")
    target.chmod(0o640)
    atomic_write(target, "new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640


def test_generated_files_are_world_readable(project):
    (project / generated_files.FAMILIES_DIR / "Relu2.lean").unlink()
    previous = os.umask(0o022)
    try:
        assert run("generate", "--project", str(project)).exit_code == 0
    finally:
        os.umask(previous)
    mode = stat.S_IMODE((project / generated_files.FAMILIES_DIR / "Relu2.lean").stat().st_mode)
    assert mode == 0o644


# -- Ctrl-C --------------------------------------------------------------------------------------

def test_keyboard_interrupt_exits_130(monkeypatch):
    import leanbridge.commands as commands

    def interrupted(family):
        raise KeyboardInterrupt
    monkeypatch.setattr(commands, "analyse", interrupted)
    result = run("analyse", "relu")
    assert result.exit_code == EXIT_INTERRUPTED == 130
    assert "Aborted!" not in result.output and "Traceback" not in result.stderr
    assert "Interrupted" in result.stderr


def test_ctrl_c_on_a_real_process_exits_130_and_writes_nothing(project):
    before = _snapshot(project)
    with running([sys.executable, "-m", "leanbridge", "generate", "--project", str(project),
                  "--expr", "exp(exp(exp(exp(exp(exp(exp(exp(exp(exp(z))))))))))", "--name",
                  "tower", "--time-budget", "0"],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT) as process:
        time.sleep(4)
        _, stderr, _ = interrupt(process)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "Aborted!" not in stderr
    assert _snapshot(project) == before


# -- huge and deep expressions -----------------------------------------------------------------

@pytest.mark.parametrize("expr, message", [
    ("+".join(f"z**{i}" for i in range(1, 2001)), "expression too long"),
    ("(" * 200 + "z" + ")" * 200, "nested too deeply"),
    ("tanh(" * 40 + "z" + ")" * 40, "nested too deeply"),
    ("+".join(f"z**{i}" for i in range(1, 201)), "expression too large"),
])
def test_huge_or_deep_expressions_are_refused_in_one_short_line(expr, message):
    for command in (["analyse", "--expr", expr], ["generate", "--project", str(LEAN),
                                                  "--expr", expr, "--name", "huge"]):
        result = run(*command)
        one_line_exit_2(result, message)
        assert len(result.stderr) < 300, "never echo a whole huge expression"


def test_slow_analysis_stops_at_the_time_budget():
    started = time.monotonic()
    result = run("analyse", "--expr", "exp(exp(exp(exp(exp(exp(exp(exp(exp(exp(z))))))))))",
                 "--time-budget", "2")
    one_line_exit_2(result, "did not finish within 2 s")
    assert time.monotonic() - started < 30


def test_long_expression_is_cut_in_human_output():
    expr = "+".join(f"Max(z,{i})*{i}" for i in range(1, 60))
    result = run("analyse", "--expr", expr)
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) < 400


# -- the Lake project is found by walking up ---------------------------------------------------

@pytest.mark.parametrize("where", [".", "lean", "lean/SkipAbsorption",
                                   "lean/SkipAbsorption/Families"])
def test_project_is_found_from_the_working_directory_up(monkeypatch, where):
    monkeypatch.chdir(ROOT / where)
    result = run("export", "--format", "json", "relu2")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["lean_toolchain"].startswith("leanprover/lean4:")
    assert find_project(Path.cwd()) == LEAN.resolve()
    graph = run("graph", "--check")
    assert graph.exit_code == 0, graph.output


def test_no_project_anywhere_up_is_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line_exit_2(run("graph", "--check"), "no Lake project in")


def test_lake_package_copies_are_skipped(tmp_path):
    package = tmp_path / "proj" / ".lake" / "packages" / "mathlib"
    package.mkdir(parents=True)
    (package / "lakefile.lean").write_text("")
    (tmp_path / "proj" / "lakefile.toml").write_text("")
    assert find_project(package) == (tmp_path / "proj").resolve()


# -- streams that cannot encode σ ---------------------------------------------------------------

@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("args", [["analyse", "gelu"], ["families"],
                                  ["analyse", "--expr", "foo(z)"]])
def test_stream_that_cannot_encode_sigma_falls_back_to_ascii(args, encoding):
    env = {**os.environ, "PYTHONIOENCODING": encoding, "LC_ALL": "C", "LANG": "C"}
    completed = subprocess.run([sys.executable, "-m", "leanbridge", *args], env=env,
                               capture_output=True, cwd=ROOT, timeout=120)
    assert completed.returncode == (2 if "foo(z)" in args else 0), completed.stderr
    completed.stdout.decode("ascii")                 # pure ASCII
    completed.stderr.decode("ascii")
    assert b"Traceback" not in completed.stderr
    if args == ["analyse", "gelu"]:
        assert b"sigma(z) - sigma(-z) = c*z: yes, c = 1" in completed.stdout
        assert b"GELU (gelu) -- activation sigma" in completed.stdout


def test_a_tower_of_powers_ends_at_once_in_one_line():
    # Before: `10**10**10` was computed while parsing, outside the time budget, for ever.
    completed = subprocess.run(
        [sys.executable, "-m", "leanbridge", "analyse", "--expr", "10**10**10*z",
         "--time-budget", "5"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.startswith("Error: number too large in '10**10**10*z'")
    assert len(completed.stderr.strip().splitlines()) == 1, completed.stderr
    big = run("analyse", "--expr", "1e5000*z")
    one_line_exit_2(big, "number too large")
    assert "set_int_max_str_digits" not in big.stderr


@pytest.mark.parametrize("command", [["analyse"], ["generate", "--project", str(LEAN),
                                                    "--name", "slow_read"]])
def test_the_time_budget_covers_reading_the_expression(monkeypatch, command):
    from leanbridge import expression

    def slow_parse(*args, **kwargs):
        # Slow, not endless: without the budget the command fails after 10 s (syntax error).
        for _ in range(1000):
            time.sleep(0.01)
        raise SyntaxError("slow")
    monkeypatch.setattr(expression, "parse_expr", slow_parse)
    result = run(*command, "--expr", "z**3", "--time-budget", "1")
    one_line_exit_2(result, "reading and analysing 'z**3' did not finish within 1 s")


# -- tracebacks left by issue 24 §7: one line each, with its exit code -------------------------

def test_a_name_too_long_for_a_file_is_one_line_and_writes_nothing(project):
    # Before: OSError [Errno 36] File name too long, as a traceback.
    before = _snapshot(project)
    result = run("generate", "--project", str(project), "--expr", "z**3", "--name", "a" * 300)
    one_line_exit_2(result, "--name is 300 characters (limit 200)")
    assert _snapshot(project) == before
    longest = run("generate", "--project", str(project), "--expr", "z**3", "--name", "a" * 200)
    assert longest.exit_code == 0, longest.output


@pytest.mark.parametrize("command", [["generate"], ["generate", "--check"],
                                     ["export", "--format", "json"], ["graph", "--check"],
                                     ["check", "--quiet", "--lake", sys.executable]])
def test_a_directory_where_a_family_file_should_be_is_one_line(project, command, monkeypatch):
    # Before: IsADirectoryError as a traceback (exit 1).
    from leanbridge.lean import process
    monkeypatch.setattr(process, "run", lambda command, cwd, timeout, env=None:
                        process.Completed(tuple(command), None, "", "", 0.0,
                                          start_error="not run by this test"))
    family_file = project / "SkipAbsorption" / "Families" / "Relu.lean"
    family_file.unlink()
    family_file.mkdir()
    result = run(*command, "--project", str(project))
    one_line_exit_2(result, f"cannot use {family_file}: it is a directory, where a file is "
                            "expected")


def test_bytes_that_are_not_utf8_are_shown_as_bytes():
    # Before: 'z\udcff' and "can't encode character '\udcff' … surrogates not allowed".
    for args, shown in (([b"analyse", b"--expr", b"z\xff"], b"cannot parse 'z\\xff': it is not "
                                                            b"UTF-8 text"),
                        ([b"analyse", b"rel\xffu"], b"unknown family 'rel\\xffu'"),
                        ([b"graph", b"--check", b"--project", b"/nowhere/\xfe"],
                         b"no Lake project at /nowhere/\\xfe"),
                        ([b"families", b"--bogus\xff"], b"No such option '--bogus\\xff'")):
        completed = subprocess.run([sys.executable.encode(), b"-m", b"leanbridge", *args],
                                   capture_output=True, cwd=ROOT, timeout=120)
        assert completed.returncode == 2, completed.stderr
        assert shown in completed.stderr, completed.stderr
        assert b"udc" not in completed.stderr and b"Traceback" not in completed.stderr
        assert len(completed.stderr.strip().splitlines()) == 1


def _closed_stdout(*args: str, cwd=ROOT) -> subprocess.CompletedProcess:
    """Run leanbridge with file descriptor 1 closed, as `>&-` does."""
    return subprocess.run([sys.executable, "-m", "leanbridge", *args], cwd=cwd, timeout=300,
                          stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          preexec_fn=lambda: os.close(1))


def test_a_closed_standard_output_is_exit_1_and_nothing_is_done(project):
    # Before: exit 0, the output lost without a word.
    for args in (["families"], ["analyse", "relu", "--json"]):
        completed = _closed_stdout(*args)
        assert completed.returncode == 1, completed.stderr
        assert completed.stderr.startswith("Error: standard output is closed")
        assert len(completed.stderr.strip().splitlines()) == 1
    before = _snapshot(project)
    completed = _closed_stdout("generate", "--project", str(project), "--expr", "z**3",
                               "--name", "cubic")
    assert completed.returncode == 1 and _snapshot(project) == before


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [["families"], ["analyse", "relu"]])
def test_a_full_disk_under_standard_output_is_exit_1_in_one_line(args):
    # Before: a traceback (OSError: [Errno 28]) or Python's "Exception ignored … flush".
    with open("/dev/full", "w") as full:
        completed = subprocess.run([sys.executable, "-m", "leanbridge", *args], stdout=full,
                                   stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120)
    assert completed.returncode == 1, completed.stderr
    assert completed.stderr == ("Error: writing the output failed (No space left on device); "
                                "it is incomplete\n")


def test_check_timeout_applies_to_lake_version_and_its_failure_is_said(project, monkeypatch,
                                                                        tmp_path):
    # Before: `lake --version` ran with a fixed 60 s, whatever --timeout said, and a timeout
    # of it was silent.
    from leanbridge.lean import process
    calls = []

    def stand_in(command, cwd, timeout, env=None):
        calls.append((list(command[1:]), timeout))
        if list(command[1:]) == ["--version"]:
            return process.Completed(tuple(command), None, "", "", timeout, timed_out=True)
        return process.Completed(tuple(command), None, "", "", 0.0,
                                 start_error="not run by this test")
    monkeypatch.setattr(process, "run", stand_in)
    lake = tmp_path / "lake"
    lake.write_text("#!/bin/sh\nexit 0\n")
    lake.chmod(0o755)
    result = run("check", "--project", str(project), "--lake", str(lake), "--timeout", "7",
                 "--json", str(tmp_path / "report.json"))
    assert (["--version"], 7.0) in calls
    assert "lake --version gave no version: killed after 7 s (wall-clock timeout)" in result.stderr
    assert json.loads((tmp_path / "report.json").read_text())["toolchain"]["lake_version"] is None


def test_a_huge_integer_met_in_the_analysis_is_one_line(monkeypatch):
    # The last defence: Python's refusal to print an integer of more than 4,300 digits is a
    # one-line input error, never a traceback with its set_int_max_str_digits advice.
    from leanbridge import commands

    def huge(*args, **kwargs):
        return str(10**5000)
    monkeypatch.setattr(commands, "analyse", huge)
    result = run("analyse", "--expr", "z**3")
    one_line_exit_2(result, "a number in the computation has more than 4300 digits")
    assert "set_int_max_str_digits" not in result.stderr
