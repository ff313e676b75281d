"""`leanbridge scan` loses no result (issue 20): each block's row is printed as it is decided,
--jsonl writes one JSON object per block as it is decided, a block with NaN/inf tensors is a
"bad input" row while the others are decided (exit 2 at the end, naming it), and Ctrl-C —
during a MILP too — prints what was decided, says how to resume with --blocks, and exits 130
without waiting for HiGHS's time limit."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")
safetensors_numpy = pytest.importorskip("safetensors.numpy")
jsonschema = pytest.importorskip("jsonschema")

from leanbridge.cli import main
from sigint import interrupt, running

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "leanbridge" / "schemas" / "scan-1.schema.json")
                    .read_text(encoding="utf-8"))


def write_opt(folder, shapes, nan_block=None, seed=1):
    """An OPT checkpoint (model.decoder.layers.N.fc1 / fc2, ReLU, no biases), block k of
    shape d×n = shapes[k]; ``nan_block`` gets a NaN in its fc1 weight."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    tensors = {}
    for i, (d, n) in enumerate(shapes):
        stem = f"model.decoder.layers.{i}."
        W_up, W_down = rng.standard_normal((n, d)), rng.standard_normal((d, n))
        if i == nan_block:
            W_up[0, 0] = np.nan
        tensors[stem + "fc1.weight"] = W_up.astype(np.float32)
        tensors[stem + "fc2.weight"] = W_down.astype(np.float32)
        tensors[stem + "self_attn.out_proj.weight"] = np.eye(d, dtype=np.float32)
    safetensors_numpy.save_file(tensors, str(folder / "model.safetensors"),
                                metadata={"format": "pt"})
    (folder / "config.json").write_text(json.dumps(
        {"model_type": "opt", "activation_function": "relu", "hidden_size": shapes[0][0]}))
    return folder


def test_a_nan_block_is_a_bad_input_row_and_the_others_are_decided(tmp_path):
    folder = write_opt(tmp_path / "m", [(3, 6)] * 3, nan_block=1)
    result = CliRunner().invoke(main, ["scan", str(folder)])
    assert result.exit_code == 2, result.output
    rows = {line.split()[0]: line for line in result.stdout.splitlines()
            if line[:1].isdigit()}
    assert sorted(rows) == ["0", "1", "2"]
    assert "bad input" in rows["1"]
    assert "not absorbable" in rows["0"] and "not absorbable" in rows["2"]
    assert "contains NaN or infinite entries" in result.stdout
    assert "1 bad input" in result.stdout
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("Error: bad input in block 1")

    data = CliRunner().invoke(main, ["scan", str(folder), "--json"])
    assert data.exit_code == 2
    report = json.loads(data.stdout)
    jsonschema.validate(report, SCHEMA)
    assert [b["verdict"] for b in report["blocks"]] == ["not_absorbable", "bad_input",
                                                        "not_absorbable"]
    assert report["summary"]["bad_input_blocks"] == [1] and report["exit_code"] == 2
    # OPT is pre-norm by default: every record says so, the bad-input one too
    assert [b["norm_position"] for b in report["blocks"]] == ["pre"] * 3


def test_jsonl_writes_one_object_per_block_then_a_summary(tmp_path):
    folder = write_opt(tmp_path / "m", [(3, 6)] * 3, nan_block=2)
    target = tmp_path / "blocks.jsonl"
    result = CliRunner().invoke(main, ["scan", str(folder), "--jsonl", str(target)])
    assert result.exit_code == 2
    lines = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 4
    block_schema = {**SCHEMA["$defs"]["block"], "$defs": SCHEMA["$defs"]}
    for line in lines[:3]:
        jsonschema.validate(line, block_schema)
    assert sorted(line["block"] for line in lines[:3]) == [0, 1, 2]
    assert lines[3]["summary"]["bad_input_blocks"] == [2]
    assert lines[3]["exit_code"] == 2 and lines[3]["not_decided"] == []
    assert target.stat().st_mode & 0o777 == 0o666 & ~_umask()
    # pre-norm (OPT's default): each record says what its verdict is about, and the summary
    # line carries the model-level answer, as --json does
    assert [line["norm_position"] for line in lines[:3]] == ["pre"] * 3
    jsonschema.validate(lines[3]["summary"], SCHEMA["properties"]["summary"])
    jsonschema.validate(lines[3]["model_level"], SCHEMA["properties"]["model_level"])
    assert lines[3]["norm_position"] == "pre" and lines[3]["model_level"]["answer"] == "never"
    assert "SkipAbsorption.not_residual_eq_of_bounded_norm" in lines[3]["model_level"]["lean"]

    to_stdout = CliRunner().invoke(main, ["scan", str(folder), "--jsonl", "-"])
    objects = [json.loads(line) for line in to_stdout.stdout.splitlines()]
    assert len(objects) == 4 and "summary" in objects[-1]
    # the text report moved to stderr, with its norm lines and the labelled summary
    assert "model level: never (pre-norm)" in to_stdout.stderr
    assert ("summary (block level; model level: never, pre-norm): 3 block(s)"
            in to_stdout.stderr)
    assert not (Path.cwd() / "-").exists()

    both = CliRunner().invoke(main, ["scan", str(folder), "--jsonl", "-", "--json"])
    assert both.exit_code == 2 and "both write to stdout" in both.stderr


def test_jsonl_of_a_post_norm_model_says_the_verdicts_answer_the_papers_question(tmp_path):
    folder = write_opt(tmp_path / "m", [(3, 6)] * 2)
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    (folder / "config.json").write_text(json.dumps({**config, "do_layer_norm_before": False}))
    target = tmp_path / "blocks.jsonl"
    result = CliRunner().invoke(main, ["scan", str(folder), "--jsonl", str(target)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [line["norm_position"] for line in lines[:2]] == ["post", "post"]
    assert lines[2]["norm_position"] == "post"
    assert lines[2]["model_level"]["answer"] == "per_block"
    assert lines[2]["model_level"]["lean"] == []
    assert "norm: post-norm" in result.stdout and "summary: 2 block(s)" in result.stdout


def _umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_help_documents_jsonl_ctrl_c_and_resuming_with_blocks():
    text = " ".join(CliRunner().invoke(main, ["scan", "--help"]).output.split())
    assert "--jsonl" in text and "130" in text
    assert "resumes the scan" in text and "--blocks" in text
    assert "bad input" in text


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a process group is POSIX")
@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_during_a_milp_prints_the_decided_blocks_and_exits_130(tmp_path, jobs):
    """Block 0 is decided at once; block 1 (d = 2, n = 40 > d²: singular Gram matrix, a
    subset-sum-like MILP) runs until its 300 s time limit unless stopped. Its row must not
    wait for the end, and SIGINT must stop HiGHS: exit 130 with block 0 reported."""
    folder = write_opt(tmp_path / "m", [(2, 3), (2, 40), (2, 3)])
    target = tmp_path / "blocks.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH",
                                                                                "")}
    with running([sys.executable, "-m", "leanbridge", "scan", str(folder), "--time-limit", "300",
                  "--jsonl", str(target), "--no-progress", "--jobs", str(jobs)],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                 cwd=tmp_path) as proc:
        seen = []
        for line in proc.stdout:
            seen.append(line)
            if line.startswith("0 "):
                break
        assert seen and seen[-1].startswith("0 "), "".join(seen)
        assert proc.poll() is None             # printed while the scan is still running
        time.sleep(3)                          # block 1 is in its MILP by now
        assert proc.poll() is None
        out, err, waited = interrupt(proc)
    print(f"exit {proc.returncode} {waited:.2f} s after SIGINT (the MILP's limit: 300 s)")
    assert proc.returncode == 130, err
    # one job: block 2 waits behind block 1; two: block 2 is decided (and printed, after
    # block 1's place in the order is given up at the interruption)
    decided, missing = ([0], [1, 2]) if jobs == 1 else ([0, 2], [1])
    assert f"interrupted (Ctrl-C): {len(decided)} of 3 block(s) decided" in out
    assert "resume with --blocks " + ("1-2" if jobs == 1 else "1") in out
    rows = [line.split()[0] for line in "".join(seen).splitlines() + out.splitlines()
            if line[:1].isdigit()]
    assert rows == [str(i) for i in decided]
    assert "Interrupted (Ctrl-C)" in err and "Traceback" not in err
    lines = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert sorted(line["block"] for line in lines[:-1]) == decided
    assert lines[-1]["interrupted"] is True and lines[-1]["not_decided"] == missing
    assert lines[-1]["exit_code"] == 130


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
def test_ctrl_c_during_absorbs_milp_exits_130_without_waiting_for_highs(tmp_path):
    """`absorb` on the same hard block (n = 40 > d² = 4): its MILP runs in a child process,
    so SIGINT ends the command at once instead of after the 300 s time limit."""
    rng = np.random.default_rng(1)
    weights = tmp_path / "hard.npz"
    np.savez(weights, W_down=rng.standard_normal((2, 40)), W_up=rng.standard_normal((40, 2)))
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH",
                                                                                "")}
    with running([sys.executable, "-m", "leanbridge", "absorb", str(weights), "--activation",
                  "relu", "--time-limit", "300"],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as proc:
        time.sleep(6)                          # imports, the Gram system, then the MILP
        assert proc.poll() is None
        out, err, waited = interrupt(proc)
    print(f"exit {proc.returncode} {waited:.2f} s after SIGINT (the MILP's limit: 300 s)")
    assert proc.returncode == 130, err
    assert "Interrupted (Ctrl-C)" in err and "Traceback" not in err


def test_json_after_ctrl_c_holds_the_decided_blocks_and_what_to_resume(tmp_path, monkeypatch):
    """--json on an interrupted scan: the blocks decided, "interrupted": true, the blocks
    not decided, exit_code 130 — valid against the schema (Ctrl-C simulated after block 0)."""
    from leanbridge.numeric import scan as scan_mod

    folder = write_opt(tmp_path / "m", [(3, 6)] * 3)
    real = scan_mod.iter_scan

    def interrupted_after_one(*args, **kwargs):
        for record in real(*args, **kwargs):
            yield record
            raise KeyboardInterrupt

    monkeypatch.setattr(scan_mod, "iter_scan", interrupted_after_one)
    result = CliRunner().invoke(main, ["scan", str(folder), "--json"])
    assert result.exit_code == 130
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["interrupted"] is True and data["exit_code"] == 130
    assert len(data["blocks"]) == 1 and data["not_decided"] == [b for b in range(3)
                                                               if b != data["blocks"][0]["block"]]
    assert "Interrupted (Ctrl-C)" in result.stderr
