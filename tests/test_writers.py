"""Every command that writes a file (check --json/--junit, graph/export --out, absorb --out,
scan --out/--jsonl, probe --plot) refuses a target that exists and is not a regular file (a
symlink, a FIFO, a device such as /dev/full: one line, exit 2, the target untouched), takes
``-`` as stdout for check's reports, refuses the same path given twice, and writes files with
the mode an ordinary open gives (0666 less the umask) or the mode of the file replaced (issue
20)."""

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from leanbridge.atomic import UnwritableError, atomic_file, atomic_write, refuse_special
from leanbridge.cli import main

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_exit_2(result, *fragments):
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("Error: "), err
    for fragment in fragments:
        assert fragment in err, err
    return err


def _umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def specials(tmp_path):
    """name → (path, test that it is still what it was): a symlink to a regular file, a FIFO,
    and — where mknod is allowed (root) — a character device node like /dev/full (1, 7)
    made in tmp_path, so that a writer that wrongly replaced it harms nothing."""
    made = {}
    real = tmp_path / "real.txt"
    real.write_text("keep me\n")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    made["symlink"] = (link, lambda: link.is_symlink() and real.read_text() == "keep me\n")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    made["fifo"] = (fifo, lambda: stat.S_ISFIFO(os.lstat(fifo).st_mode))
    device = tmp_path / "full.json"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 7))
        made["device"] = (device, lambda: stat.S_ISCHR(os.lstat(device).st_mode))
    except (PermissionError, OSError):
        pass
    return made


def test_refuse_special_names_what_the_target_is(tmp_path):
    for kind, (path, still) in specials(tmp_path).items():
        with pytest.raises(UnwritableError, match="not a regular file; refusing to replace"):
            refuse_special(path)
        with pytest.raises(UnwritableError):
            atomic_write(path, "x")
        with pytest.raises(UnwritableError):
            with atomic_file(path) as temporary:
                temporary.write_text("x")
        assert still(), kind
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    refuse_special(tmp_path / "new.json")                    # absent: fine
    (tmp_path / "plain.json").write_text("{}")
    refuse_special(tmp_path / "plain.json")                  # a regular file: fine


@pytest.mark.parametrize("option", ["--json", "--junit"])
def test_check_refuses_a_symlink_fifo_or_device_report_target(tmp_path, option):
    for kind, (path, still) in specials(tmp_path).items():
        result = run("check", "--project", LEAN, option, path)
        one_line_exit_2(result, f"{option}: {path} exists and is", "refusing to replace it")
        assert result.stdout == "" and still(), kind


def test_graph_export_absorb_scan_probe_refuse_non_regular_targets(tmp_path):
    pytest.importorskip("numpy")
    import numpy as np

    weights = tmp_path / "w.npz"
    rng = np.random.default_rng(0)
    np.savez(weights, W_down=rng.standard_normal((2, 3)), W_up=rng.standard_normal((3, 2)))
    for kind, (path, still) in specials(tmp_path).items():
        for args, option in (
                (("graph", "--project", LEAN, "--out", path), "--out"),
                (("export", "--project", LEAN, "--format", "json", "--out", path), "--out"),
                (("absorb", weights, "--activation", "relu", "--out", path), "--out"),
                (("scan", weights, "--jsonl", path), "--jsonl"),
                (("probe", "--activation", "relu", "--d", "2", "--n", "2", "--plot",
                  path), "--plot")):
            result = run(*args)
            assert result.exit_code == 2, (args, result.output)
            err = result.stderr.strip()
            assert len(err.splitlines()) == 1 and option in err, (args, err)
            assert still(), (kind, args)


def test_absorb_out_with_a_non_npz_name_that_is_a_symlink_is_refused(tmp_path):
    np = pytest.importorskip("numpy")
    weights = tmp_path / "w.npz"
    np.savez(weights, W_down=-np.eye(2), W_up=np.eye(2))            # absorbable, S = {0, 1}
    real = tmp_path / "elsewhere.npz"
    real.write_bytes(b"keep")
    link = tmp_path / "out.npz"
    link.symlink_to(real)
    result = run("absorb", weights, "--activation", "relu", "--out", link)
    one_line_exit_2(result, "--out:", "symbolic link")
    assert link.is_symlink() and real.read_bytes() == b"keep"


def test_scan_out_refuses_a_block_file_that_is_a_symlink(tmp_path):
    np = pytest.importorskip("numpy")
    pytest.importorskip("scipy")
    checkpoint = tmp_path / "m.npz"
    np.savez(checkpoint, **{"layers.0.mlp.dense_h_to_4h.weight": np.eye(2),
                            "layers.0.mlp.dense_4h_to_h.weight": -np.eye(2)})
    out = tmp_path / "out"
    out.mkdir()
    real = tmp_path / "real.npz"
    real.write_bytes(b"keep")
    (out / "block-0.npz").symlink_to(real)
    result = run("scan", checkpoint, "--activation", "relu", "--layout", "gpt-neox", "--out",
                 out)
    assert result.exit_code == 2, result.output
    assert "symbolic link" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert (out / "block-0.npz").is_symlink() and real.read_bytes() == b"keep"


def test_check_refuses_the_same_path_for_json_and_junit(tmp_path):
    target = tmp_path / "report"
    one_line_exit_2(run("check", "--project", LEAN, "--json", target, "--junit", target),
                    "--json and --junit both name the same file")
    alias = tmp_path / "sub" / ".." / "report"
    (tmp_path / "sub").mkdir()
    one_line_exit_2(run("check", "--project", LEAN, "--json", target, "--junit", alias),
                    "both name the same file")
    one_line_exit_2(run("check", "--project", LEAN, "--json", "-", "--junit", "-"),
                    "both name standard output")
    assert not target.exists()


@pytest.fixture
def project(tmp_path):
    target = tmp_path / "lean"
    shutil.copytree(LEAN, target, ignore=shutil.ignore_patterns(".lake"))
    return target


def test_check_json_dash_is_stdout_and_the_terminal_report_goes_to_stderr(project, tmp_path,
                                                                         monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))        # no Lean toolchain: exit 3
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--project", str(project), "--json", "-",
                                       "--quiet"])
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)                          # stdout is the report alone
    assert data["exit_code"] == 3
    assert "Lean: not run" in result.stderr
    assert not (tmp_path / "-").exists()


def test_files_written_get_0644_or_keep_the_mode_they_replace(tmp_path):
    np = pytest.importorskip("numpy")
    pytest.importorskip("safetensors")
    weights = tmp_path / "w.npz"
    np.savez(weights, W_down=-np.eye(2), W_up=np.eye(2))
    fresh = 0o666 & ~_umask()
    for name in ("a.npz", "a.safetensors"):
        out = tmp_path / name
        result = run("absorb", weights, "--activation", "relu", "--out", out)
        assert result.exit_code == 0, result.output
        assert stat.S_IMODE(out.stat().st_mode) == fresh, name      # safetensors: 0600 before
        out.chmod(0o640)
        assert run("absorb", weights, "--activation", "relu", "--out", out).exit_code == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o640, name
    checkpoint = tmp_path / "m.safetensors"
    from safetensors.numpy import save_file

    save_file({"layers.0.mlp.dense_h_to_4h.weight": np.eye(2),
               "layers.0.mlp.dense_4h_to_h.weight": -np.eye(2)}, str(checkpoint))
    result = run("scan", checkpoint, "--activation", "relu", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    block = tmp_path / "out" / "block-0.safetensors"
    assert stat.S_IMODE(block.stat().st_mode) == fresh
    graph = tmp_path / "graph.json"
    assert run("graph", "--project", LEAN, "--out", graph).exit_code == 0
    assert stat.S_IMODE(graph.stat().st_mode) == fresh
    assert not [p for p in tmp_path.rglob("*.tmp")]
