"""`leanbridge absorb` and `leanbridge probe` on the command line: outputs, exit codes
(0 decided, 1 no decision, 2 bad input: one line on stderr, no traceback), --json, --out."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")

pytest.importorskip("scipy")

from leanbridge.numeric.cli import absorb, probe


def planted(d, n, seed, A=None):
    rng = np.random.default_rng(seed)
    W_up = rng.standard_normal((n, d)) / np.sqrt(d)
    W_down = rng.standard_normal((d, n)) / np.sqrt(n)
    S = sorted(int(i) for i in rng.choice(n, d, replace=False))
    W_down[:, S] = -(np.eye(d) if A is None else A) @ np.linalg.inv(W_up[S])
    return W_down, W_up, S


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(command, *args):
        return runner.invoke(command, [str(a) for a in args])

    return invoke


@pytest.fixture
def files(tmp_path):
    W_down, W_up, S = planted(6, 24, seed=1)
    rng = np.random.default_rng(2)
    A = rng.standard_normal((6, 6)) + 3 * np.eye(6)
    W_down_A, _, S_A = planted(6, 24, seed=1, A=A)
    np.savez(tmp_path / "planted.npz", W_down=W_down, W_up=W_up)
    np.savez(tmp_path / "random.npz", W_down=rng.standard_normal((6, 24)),
             W_up=rng.standard_normal((24, 6)))
    np.savez(tmp_path / "skip.npz", W_down=W_down_A, W_up=W_up, A=A,
             A_singular=np.outer(A[0], A[1]))
    return {"dir": tmp_path, "S": S, "S_A": S_A, "W_down": W_down, "W_up": W_up}


def test_planted_npz_is_absorbable_exit_0(run, files):
    result = run(absorb, files["dir"] / "planted.npz", "--activation", "relu")
    assert result.exit_code == 0, result.output
    assert "verdict: ABSORBABLE" in result.output
    assert "S (6 units, 0-based)" in result.output


def test_json_output_reports_the_planted_S(run, files):
    result = run(absorb, files["dir"] / "planted.npz", "--activation", "gelu", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["verdict"] == "absorbable" and data["S"] == files["S"]
    assert data["verification"]["max_relative_error"] < 1e-12
    assert data["decision"]["method"] == "rounding" and data["exit_code"] == 0
    assert data["weights"]["keys"] == {"down": "W_down", "up": "W_up"}


def test_random_weights_not_absorbable_exit_0_with_distance(run, files):
    result = run(absorb, files["dir"] / "random.npz", "--activation", "relu", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["verdict"] == "not_absorbable" and "S" not in data
    assert data["distance"]["distance"] > 0
    text = run(absorb, files["dir"] / "random.npz", "--activation", "relu").output
    assert "distance to the nearest absorbable configuration" in text
    assert "verdict: NOT ABSORBABLE" in text


def test_invertible_skip_and_singular_skip(run, files):
    ok = run(absorb, files["dir"] / "skip.npz", "--activation", "relu", "--skip", "A", "--json")
    assert ok.exit_code == 0
    data = json.loads(ok.output)
    assert data["verdict"] == "absorbable" and data["S"] == files["S_A"]
    assert data["skip"]["invertible"] is True
    singular = run(absorb, files["dir"] / "skip.npz", "--activation", "relu",
                   "--skip", "A_singular")
    assert singular.exit_code == 1
    assert "the reduction of Lemma 4 to the identity skip does not apply" in singular.output
    assert "verdict: NO DECISION" in singular.output


def test_never_family_exit_0_and_undetermined_exit_1(run, files):
    never = run(absorb, files["dir"] / "random.npz", "--activation", "relu2")
    assert never.exit_code == 0
    assert "not absorbable for any weights" in never.output and "Prop 5" in never.output
    gated = run(absorb, files["dir"] / "random.npz", "--activation", "swiglu", "--json")
    assert gated.exit_code == 0 and json.loads(gated.output)["numerics"] is False
    bounded = run(absorb, files["dir"] / "random.npz", "--activation", "tanh")
    assert bounded.exit_code == 0 and "not absorbable for any weights" in bounded.output
    gated = run(absorb, files["dir"] / "random.npz", "--activation", "glu")
    assert gated.exit_code == 1
    assert "implemented for ungated blocks only" in gated.output


@pytest.mark.parametrize("suffix", [".npz", ".safetensors"])
def test_out_writes_an_absorbing_block(run, files, suffix):
    if suffix == ".safetensors":
        pytest.importorskip("safetensors")
    out = files["dir"] / f"absorbed{suffix}"
    result = run(absorb, files["dir"] / "planted.npz", "--activation", "gelu", "--out", out)
    assert result.exit_code == 0 and f"wrote V_up, V_down, S to {out}" in result.output
    if suffix == ".npz":
        saved = dict(np.load(out))
    else:
        from safetensors.numpy import load_file
        saved = load_file(str(out))
    assert saved["S"].tolist() == files["S"]
    from scipy.special import erf

    def gelu(z):
        return z * (1 + erf(z / np.sqrt(2))) / 2

    x = np.random.default_rng(0).standard_normal((50, 6))
    skip_block = x + gelu(x @ files["W_up"].T) @ files["W_down"].T
    absorbed = gelu(x @ saved["V_up"].T) @ saved["V_down"].T
    assert np.abs(absorbed - skip_block).max() < 1e-10


def test_out_on_a_non_absorbable_block_writes_nothing(run, files):
    out = files["dir"] / "nothing.npz"
    result = run(absorb, files["dir"] / "random.npz", "--activation", "relu", "--out", out)
    assert result.exit_code == 0 and not out.exists()
    assert "nothing written" in result.output


def test_milp_time_limit_exits_1(run, tmp_path):
    rng = np.random.default_rng(10)
    np.savez(tmp_path / "small.npz", W_down=rng.standard_normal((2, 7)),
             W_up=rng.standard_normal((7, 2)))
    result = run(absorb, tmp_path / "small.npz", "--activation", "relu", "--time-limit", "1e-9")
    assert result.exit_code == 1
    assert "not found within the limit" in result.output


def _one_line_error(result, message):
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("Error: ")
    assert "Traceback" not in result.stderr
    # An exception escaping the command is kept by CliRunner in result.exception; only the
    # SystemExit of a clean exit 2 may be there.
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("args, message", [
    (["missing.npz", "--activation", "relu"], "does not exist"),
    (["planted.npz", "--activation", "nope"], "unknown family 'nope'"),
    (["planted.npz"], "--activation NAME is required"),
    (["--activation", "relu"], "missing WEIGHTS"),
    (["planted.npz", "--activation", "relu", "--down", "X"],
     "--down 'X': no such key in planted.npz; available keys: W_down, W_up"),
    (["planted.npz", "--activation", "swiglu", "--up", "X"], "--up 'X': no such key"),
    (["planted.npz", "--activation", "relu", "--skip", "W_up"], "the skip must be d×d"),
    (["planted.npz", "--activation", "relu", "--down", "W_up", "--up", "W_up"],
     "--down and --up both name 'W_up'"),
    (["skip.npz", "--activation", "relu", "--down", "A", "--up", "W_up"], "shape mismatch"),
    (["notes.txt", "--activation", "relu"], "cannot tell the format"),
    (["planted.npz", "--activation", "relu", "--out", "x.csv"], "must be .npz or .safetensors"),
    (["planted.npz", "--activation", "relu", "--time-limit", "0"], "--time-limit must be"),
])
def test_absorb_bad_input_is_one_line_exit_2(run, files, monkeypatch, args, message):
    (files["dir"] / "notes.txt").write_text("hello")
    monkeypatch.chdir(files["dir"])
    _one_line_error(run(absorb, *args), message)


def test_missing_numeric_dependency_names_the_pip_command(run, files, monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy", None)
    result = run(absorb, files["dir"] / "planted.npz", "--activation", "relu")
    _one_line_error(result, "pip install 'leanbridge[numeric]'")
    result = run(probe, "--activation", "relu", "--d", "2", "--n", "3")
    _one_line_error(result, "pip install 'leanbridge[numeric]'")


def test_missing_safetensors_names_the_pip_command(run, files, monkeypatch):
    path = files["dir"] / "w.safetensors"
    path.write_bytes(b"")
    monkeypatch.setitem(sys.modules, "safetensors", None)
    _one_line_error(run(absorb, path, "--activation", "relu"), "pip install 'leanbridge[numeric]'")


def test_missing_matplotlib_for_plot(run, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run(probe, "--activation", "relu", "--d", "2", "--n", "3", "--radii", "1",
                 "--plot", tmp_path / "p.png")
    _one_line_error(result, "--plot needs the Python package 'matplotlib'")


@pytest.mark.parametrize("args, message", [
    ([], "--activation NAME is required"),
    (["--activation", "relu"], "--d D and --n N are required"),
    (["--activation", "nope", "--d", "2", "--n", "3"], "unknown family 'nope'"),
    (["--activation", "relu", "--d", "0", "--n", "3"], "must be positive integers"),
    (["--activation", "relu", "--d", "2", "--n", "3", "--radii", "1,x"], "comma-separated"),
    (["--activation", "relu", "--d", "2", "--n", "3", "--radii", "1,-1"], "positive number"),
    (["--activation", "relu", "--d", "2", "--n", "3", "--restarts", "0"], "at least 1"),
    (["--activation", "relu2", "--d", "2", "--n", "3", "--planted"],
     "--planted needs an ungated family"),
    (["--activation", "relu", "--d", "3", "--n", "2", "--planted"], "--planted needs n ≥ d"),
    (["--activation", "relu", "--d", "2", "--n", "3", "--plot", "x.pdf"], "must end in .png"),
])
def test_probe_bad_input_is_one_line_exit_2(run, args, message):
    _one_line_error(run(probe, *args), message)


def test_help_texts_explain_exit_codes(run):
    text = run(absorb, "--help").output
    assert "Exit codes: 0 decided (absorbable or not absorbable), 1 no decision" in text
    assert "W_down[:,S] W_up[S,:] = −A/c" in text and "--time-limit" in text
    assert "Exit codes: 0 done, 2 bad input" in run(probe, "--help").output


def test_importing_the_commands_does_not_import_numpy():
    code = ("import sys, leanbridge.numeric.cli; "
            "print('numpy' in sys.modules, 'scipy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False"]


def test_json_stdout_of_a_milp_decision_is_one_json_document(tmp_path):
    """The MILP runs inside this process (HiGHS, C++): whatever it could print at the file
    descriptor level would corrupt `--json`. A real process, so that fd 1 is what is read."""
    rng = np.random.default_rng(10)
    np.savez(tmp_path / "small.npz", W_down=rng.standard_normal((2, 7)),
             W_up=rng.standard_normal((7, 2)))
    command = [sys.executable, "-m", "leanbridge", "absorb", str(tmp_path / "small.npz"),
               "--activation", "relu", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["decision"]["method"] == "milp"


def test_absorb_uses_the_biases_of_the_file_and_writes_the_biased_block(run, files, tmp_path):
    """fc1/fc2 with biases: a planted block is absorbable with the biased construction (R4),
    written with --out and exact on random inputs; a random one is "not absorbable" citing
    the biased characterisation."""
    from leanbridge.families import get_family
    from leanbridge.numeric.activations import numeric_activation

    rng = np.random.default_rng(3)
    W_down, W_up, S = files["W_down"], files["W_up"], files["S"]
    b_up, b_down = rng.standard_normal(24), rng.standard_normal(6)
    np.savez(tmp_path / "biased.npz", **{"fc1.weight": W_up, "fc1.bias": b_up,
                                          "fc2.weight": W_down, "fc2.bias": b_down})
    out = tmp_path / "absorbed.npz"
    result = run(absorb, tmp_path / "biased.npz", "--activation", "gelu", "--down", "fc2.weight",
                 "--up", "fc1.weight", "--out", out, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verdict"] == "absorbable" and data["biases"] is True and data["S"] == S
    assert any("b_up = 'fc1.bias'" in note and "b_down = 'fc2.bias'" in note
               for note in data["notes"])
    saved = np.load(out)
    sigma = numeric_activation(get_family("gelu")).value
    x = rng.standard_normal((50, 6)) * 10
    skip_block = x + sigma(x @ W_up.T + b_up) @ W_down.T + b_down
    absorbed = sigma(x @ saved["V_up"].T + saved["V_b_up"]) @ saved["V_down"].T \
        + saved["V_b_down"]
    assert np.abs(absorbed - skip_block).max() <= 1e-10 * np.abs(skip_block).max()
    np.savez(tmp_path / "random_biased.npz", **{
        "fc1.weight": rng.standard_normal((24, 6)), "fc1.bias": b_up,
        "fc2.weight": rng.standard_normal((6, 24)), "fc2.bias": b_down})
    random = run(absorb, tmp_path / "random_biased.npz", "--activation", "gelu", "--down",
                 "fc2.weight", "--up", "fc1.weight", "--json")
    assert random.exit_code == 0, random.output
    data = json.loads(random.output)
    assert data["verdict"] == "not_absorbable" and data["biases"] is True
    assert "SkipAbsorption.biasedAbsorbable_gelu_iff" in data["summary"]
