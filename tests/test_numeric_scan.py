"""`leanbridge scan`: every MLP block of a checkpoint, in each stored layout (GPT-2 Conv1D,
GPT-NeoX, BERT, OPT, LLaMA gated; T5 and gated T5, GPT-J, Phi-3 fused, DistilBERT, Falcon written
with transformers' own tensor names and config.json keys), sharded and not, .npz and
directories with config.json; biases handled as documented; pre-norm models answered "never"
at model level with the Lean theorem, post-norm ones as the paper's question; one-line errors
(exit 2) for damaged or inconsistent inputs."""

import json
import re
import shlex
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")
safetensors_numpy = pytest.importorskip("safetensors.numpy")
jsonschema = pytest.importorskip("jsonschema")

from leanbridge.cli import main
from leanbridge.numeric import checkpoint as checkpoint_mod
from leanbridge.numeric.errors import NumericInputError
from leanbridge.numeric.layouts import parse_blocks

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "leanbridge" / "schemas"
                     / "scan-1.schema.json").read_text(encoding="utf-8"))

D, N, BLOCKS, PLANTED = 6, 24, 4, 2

#: layout → (prefix of layer N, up, down, gate, stored in × out, config.json, extra tensors)
MODELS = {
    "gpt2": ("transformer.h.", "mlp.c_fc", "mlp.c_proj", None, True,
             {"activation_function": "gelu_new", "n_embd": D}, ["attn.c_proj.weight"]),
    "gpt-neox": ("gpt_neox.layers.", "mlp.dense_h_to_4h", "mlp.dense_4h_to_h", None, False,
                 {"hidden_act": "gelu", "hidden_size": D}, ["attention.dense.weight"]),
    "bert": ("bert.encoder.layer.", "intermediate.dense", "output.dense", None, False,
             {"hidden_act": "gelu", "hidden_size": D}, ["attention.output.dense.weight"]),
    "opt": ("model.decoder.layers.", "fc1", "fc2", None, False,
            {"activation_function": "relu", "hidden_size": D}, ["self_attn.out_proj.weight"]),
    "llama": ("model.layers.", "mlp.up_proj", "mlp.down_proj", "mlp.gate_proj", False,
              {"hidden_act": "silu", "hidden_size": D}, ["self_attn.o_proj.weight"]),
}


def exact_planted(d, seed):
    """(W_up[S], W_down[:,S]) with W_down[:,S] W_up[S] = −I exactly in every float dtype: a
    signed, power-of-two scaled permutation of a unit bidiagonal matrix with ±1/2 below the
    diagonal, whose inverse has entries ±2^j (the stored numbers are the block: a float32
    copy of an inexact float64 inverse would not be absorbable)."""
    r = np.random.default_rng(seed)
    L = np.eye(d)
    L[np.arange(1, d), np.arange(d - 1)] = r.choice([-0.5, 0.5], d - 1)
    L_inv, power = np.eye(d), np.eye(d)
    for _ in range(d - 1):
        power = power @ (np.eye(d) - L)
        L_inv += power
    scale = r.choice([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0], d)
    P = np.eye(d)[r.permutation(d)]
    M = P @ (scale[:, None] * L)
    return M, -(L_inv / scale[None, :]) @ P.T


def model_tensors(layout, biases=True, planted=PLANTED, seed=0, dtype=np.float64):
    """Tensors of a BLOCKS-layer model in ``layout``'s names and orientation; block
    ``planted`` has W_down[:,S] = −W_up[S,:]⁻¹ (absorbable for c = 1: relu, gelu, gelu_tanh).
    Returns (tensors, S, the float64 blocks as (W_up, W_down, b_up, b_down) per layer)."""
    prefix, up, down, gate, conv1d, _config, extra = MODELS[layout]
    rng = np.random.default_rng(seed)
    tensors, blocks, S = {}, [], None
    for i in range(BLOCKS):
        W_up = rng.standard_normal((N, D)) / np.sqrt(D)
        W_down = rng.standard_normal((D, N)) / np.sqrt(N)
        if i == planted:
            S = sorted(int(k) for k in rng.choice(N, D, replace=False))
            W_up[S], W_down[:, S] = exact_planted(D, seed + 7)
        b_up = rng.standard_normal(N) if biases else None
        b_down = rng.standard_normal(D) if biases else None
        stem = f"{prefix}{i}."

        def put(name, matrix, stem=stem):
            tensors[stem + name] = np.ascontiguousarray(
                (matrix.T if conv1d else matrix).astype(dtype))

        put(up + ".weight", W_up)
        put(down + ".weight", W_down)
        if gate:
            put(gate + ".weight", rng.standard_normal((N, D)))
        if biases:
            tensors[stem + up + ".bias"] = b_up.astype(dtype)
            tensors[stem + down + ".bias"] = b_down.astype(dtype)
        for name in extra:
            tensors[stem + name] = np.eye(D, dtype=dtype)
        blocks.append((W_up, W_down, b_up, b_down))
    return tensors, S, blocks


def write_model(folder, layout, *, sharded=False, fmt="safetensors", config=True, **kwargs):
    """Write the model into ``folder`` (created); returns (folder, S, blocks)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tensors, S, blocks = model_tensors(layout, **kwargs)
    if config:
        (folder / "config.json").write_text(json.dumps(MODELS[layout][5]))
    if fmt == "npz":
        np.savez(folder / "model.npz", **tensors)
    elif sharded:
        names = sorted(tensors)
        half = len(names) // 2
        weight_map = {}
        for k, part in enumerate((names[:half], names[half:])):
            shard = f"model-{k + 1:05d}-of-00002.safetensors"
            safetensors_numpy.save_file({name: tensors[name] for name in part},
                                        str(folder / shard))
            weight_map.update({name: shard for name in part})
        (folder / "model.safetensors.index.json").write_text(json.dumps(
            {"metadata": {"total_size": 0}, "weight_map": weight_map}))
    else:
        safetensors_numpy.save_file(tensors, str(folder / "model.safetensors"))
    return folder, S, blocks


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, ["scan", *[str(a) for a in args]])

    return invoke


def scan_json(run, *args, code=None):
    result = run(*args, "--json")
    assert result.exit_code in (0, 1), result.output + result.stderr
    if code is not None:
        assert result.exit_code == code, result.output
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["exit_code"] == result.exit_code
    return data


def recorded_reads(monkeypatch):
    """The keys of the tensors the checkpoint reads from now on (a list that fills up)."""
    reads = []
    real_read = checkpoint_mod.Checkpoint.read

    def spy(self, key, ndim=2, stored=False):
        reads.append(key)
        return real_read(self, key, ndim, stored)

    monkeypatch.setattr(checkpoint_mod.Checkpoint, "read", spy)
    return reads


def one_line_error(result, *fragments):
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("Error: "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err
    return err


# ------------------------------------------------------------------------------------------
# Layouts: the planted block is found, with its S
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sharded", [False, True], ids=["unsharded", "sharded"])
@pytest.mark.parametrize("layout", ["gpt2", "gpt-neox", "bert", "opt"])
def test_each_layout_finds_exactly_the_planted_block_and_its_S(run, tmp_path, layout, sharded):
    folder, S, _ = write_model(tmp_path / "m", layout, sharded=sharded)
    data = scan_json(run, folder, code=0)       # biases: decided by the large-scale limit (R4)
    assert data["layout"] == {**data["layout"], "name": layout, "source": "detected"}
    assert data["checkpoint"]["format"] == ("safetensors-sharded" if sharded else "safetensors")
    assert len(data["checkpoint"]["files"]) == (2 if sharded else 1)
    blocks = data["blocks"]
    assert [b["block"] for b in blocks] == list(range(BLOCKS))
    assert [b["verdict"] for b in blocks] == ["absorbable" if i == PLANTED else "not_absorbable"
                                              for i in range(BLOCKS)]
    assert blocks[PLANTED]["S"] == S and blocks[PLANTED]["S_size"] == D
    assert blocks[PLANTED]["verification_max_relative_error"] < 1e-10
    for block in blocks:
        assert (block["d"], block["n"]) == (D, N) and block["biases"] == "present"
        if block["verdict"] == "not_absorbable":
            assert block["blockers"] == []
            assert "large-scale limit with biases (R4; Lean: SkipAbsorption.biasedAbsorbable_" \
                in block["summary"]
            assert block["relative_distance"] > 0.05
    assert data["summary"]["absorbable_blocks"] == [PLANTED]
    assert data["summary"]["no_decision_because_of_biases"] == 0
    assert data["biases"]["mode"] == "with_biases"
    assert "(R4)" in data["biases"]["caveat"]
    assert "necessity not proven" not in json.dumps(data)


@pytest.mark.parametrize("layout, activation", [("gpt2", "gelu"), ("gpt-neox", None),
                                                ("bert", None), ("opt", None)])
def test_ignore_biases_is_a_no_op_with_a_note(run, tmp_path, layout, activation):
    folder, S, _ = write_model(tmp_path / "m", layout)
    extra = ["--activation", activation] if activation else []
    data = scan_json(run, folder, "--ignore-biases", *extra, code=0)
    plain = scan_json(run, folder, *extra, code=0)
    assert [b["verdict"] for b in data["blocks"]] == [
        "absorbable" if i == PLANTED else "not_absorbable" for i in range(BLOCKS)]
    assert [b["summary"] for b in data["blocks"]] == [b["summary"] for b in plain["blocks"]]
    assert data["blocks"][PLANTED]["S"] == S
    assert all(b["biases"] == "present" for b in data["blocks"])
    assert all("--ignore-biases is a no-op" in " ".join(b["notes"]) for b in data["blocks"])
    assert data["biases"]["mode"] == "with_biases"


def test_bias_free_checkpoint_is_decided_without_the_caveat(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "opt", biases=False)
    data = scan_json(run, folder, code=0)
    assert [b["verdict"] for b in data["blocks"]].count("not_absorbable") == BLOCKS - 1
    assert data["biases"]["mode"] == "none"
    assert all(b["biases"] == "none" for b in data["blocks"])


def test_all_zero_biases_count_as_bias_free(run, tmp_path):
    tensors, S, _ = model_tensors("opt")
    for key in tensors:
        if key.endswith(".bias"):
            tensors[key] = np.zeros_like(tensors[key])
    (tmp_path / "config.json").write_text(json.dumps(MODELS["opt"][5]))
    safetensors_numpy.save_file(tensors, str(tmp_path / "model.safetensors"))
    data = scan_json(run, tmp_path, code=0)
    assert all(b["biases"] == "zero" for b in data["blocks"])
    assert data["blocks"][PLANTED]["S"] == S
    assert data["biases"]["mode"] == "none" and "only zero ones" in data["biases"]["caveat"]
    assert all("its bias tensors are all zero: the block is bias-free" in b["notes"]
               for b in data["blocks"])


def test_an_ungated_never_family_is_decided_without_reading_the_weights(run, tmp_path,
                                                                        monkeypatch):
    """OPT's blocks read as ReLU² (`--activation relu2`): a `never` family, so no weight matrix
    is read, each block is "not absorbable" with the family's theorem, and says so."""
    folder, _, _ = write_model(tmp_path / "m", "opt", biases=False)
    reads = recorded_reads(monkeypatch)
    data = scan_json(run, folder, "--activation", "relu2", code=0)
    assert reads == []
    for block in data["blocks"]:
        assert block["verdict"] == "not_absorbable" and block["numerics"] is False
        assert "not absorbable for any weights: ReLU²" in block["summary"]
        assert "the weight matrices are not read: the family's analysis decides" in \
            block["notes"]


def test_the_decision_gets_the_stored_weights_the_time_limit_and_the_seed(run, tmp_path,
                                                                         monkeypatch):
    """float32 weights reach the S-decision as float32 (no float64 copy of the block), with
    the user's --time-limit and --seed."""
    from leanbridge.numeric import absorb as absorb_mod

    folder, S, _ = write_model(tmp_path / "m", "opt", biases=False, dtype=np.float32)
    seen = []
    real_absorb = absorb_mod.absorb

    def spy(family, W_down, W_up, A=None, **kwargs):
        seen.append((W_down.dtype, W_up.dtype, A, kwargs["time_limit"], kwargs["seed"]))
        return real_absorb(family, W_down, W_up, A, **kwargs)

    monkeypatch.setattr(absorb_mod, "absorb", spy)
    data = scan_json(run, folder, "--time-limit", "7.5", "--seed", "3", code=0)
    assert seen == [(np.float32, np.float32, None, 7.5, 3)] * BLOCKS
    assert data["blocks"][PLANTED]["S"] == S


def test_gpt2_float32_sharded_with_out_writes_an_exact_absorbing_block(run, tmp_path):
    """The file --out writes, in GPT-2's own names and orientation, is a residual-free MLP
    (with biases) equal to x + MLP(x) of the original block."""
    from leanbridge.families import get_family
    from leanbridge.numeric.activations import numeric_activation

    folder, S, blocks = write_model(tmp_path / "m", "gpt2", sharded=True, dtype=np.float32)
    out = tmp_path / "out"
    data = scan_json(run, folder, "--out", out, code=0)
    record = data["blocks"][PLANTED]
    assert record["S"] == S and record["dtype"] == "F32"
    written = Path(record["written"])
    assert written == out / f"block-{PLANTED}.safetensors"
    assert sorted(p.name for p in out.iterdir()) == [written.name]      # only that block
    saved = safetensors_numpy.load_file(str(written))
    stem = f"transformer.h.{PLANTED}."
    assert saved["leanbridge.S"].tolist() == S
    V_up = saved[stem + "mlp.c_fc.weight"].astype(float).T          # back from in × out
    V_down = saved[stem + "mlp.c_proj.weight"].astype(float).T
    v_up, v_down = (saved[stem + "mlp.c_fc.bias"].astype(float),
                    saved[stem + "mlp.c_proj.bias"].astype(float))
    W_up, W_down, b_up, b_down = (np.asarray(a, np.float32).astype(float)
                                  for a in blocks[PLANTED])
    sigma = numeric_activation(get_family("gelu_tanh")).value
    x = np.random.default_rng(5).standard_normal((40, D))
    skip_block = x + sigma(x @ W_up.T + b_up) @ W_down.T + b_down
    absorbed = sigma(x @ V_up.T + v_up) @ V_down.T + v_down
    assert np.abs(absorbed - skip_block).max() < 1e-4 * np.abs(skip_block).max()
    flipped = np.array([-1.0 if i in S else 1.0 for i in range(N)])
    assert np.array_equal(V_up, W_up * flipped[:, None])              # exact sign flips
    assert np.array_equal(v_up, b_up * flipped)


def test_npz_checkpoint_and_a_file_with_config_beside_it(run, tmp_path):
    folder, S, _ = write_model(tmp_path / "m", "gpt-neox", fmt="npz")
    for target in (folder, folder / "model.npz"):
        data = scan_json(run, target, "--ignore-biases", code=0)
        assert data["checkpoint"]["format"] == "npz"
        assert data["checkpoint"]["config"].endswith("config.json")
        assert data["activation"]["family"] == "gelu"
        assert data["blocks"][PLANTED]["S"] == S


def test_text_report_table_caveat_and_summary(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "gpt2")
    result = run(folder)
    assert result.exit_code == 0
    out = result.output
    assert "layout: gpt2 (GPT-2; Conv1D, stored in × out" in out
    assert "activation: GELU (tanh) (gelu_tanh) — config.json activation_function = 'gelu_new'" \
        in out
    assert "(R4)" in out and "necessity not proven" not in out
    header = next(line for line in out.splitlines() if line.startswith("block"))
    for column in ("d×n", "activation", "verdict", "|S| / rel. distance", "method", "seconds"):
        assert column in header
    lines = out.splitlines()
    start = lines.index(header) + 1
    rows = {line.split()[0]: line for line in lines[start:start + BLOCKS]}
    assert sorted(rows) == [str(i) for i in range(BLOCKS)]
    planted = rows[str(PLANTED)].split()
    assert planted[:4] == [str(PLANTED), f"{D}×{N}", "gelu_tanh", "ABSORBABLE"]
    assert planted[4:8] == ["|S|", "=", str(D), "rounding"]
    assert rows["0"].split()[3:7] == ["not", "absorbable", "rel.", rows["0"].split()[6]]
    assert float(rows["0"].split()[6]) > 0.05 and "least-squares" in rows["0"]
    assert (f"summary (block level; model level: never, pre-norm): {BLOCKS} block(s): 1 "
            f"absorbable, {BLOCKS - 1} not absorbable, 0 no decision; absorbable: {PLANTED}") in out


def test_help_states_how_biases_are_decided(run):
    text = " ".join(run("--help").output.split())
    assert "by the large-scale limit (R4) the condition is also necessary" in text
    assert "necessity not proven" not in text and "necessity is not proven" not in text
    assert "--ignore-biases is a no-op" in text
    assert "--blocks" in text and "--device" in text


# ------------------------------------------------------------------------------------------
# Gated layout: `never` without reading numbers
# ------------------------------------------------------------------------------------------

def test_gated_layout_is_never_without_reading_any_tensor(run, tmp_path, monkeypatch):
    folder, _, _ = write_model(tmp_path / "m", "llama", biases=False)
    reads = recorded_reads(monkeypatch)
    data = scan_json(run, folder, code=0)
    assert reads == []
    assert data["layout"]["gated"] is True
    assert data["activation"]["family"] == "swiglu"
    assert data["activation"]["analysis_verdict"] == "never"
    for block in data["blocks"]:
        assert block["verdict"] == "not_absorbable" and block["numerics"] is False
        assert block["method"] is None and block["gated"] is True
        assert "gate" in block["keys"]
        assert "not absorbable for any weights" in block["summary"]


def test_gated_layout_with_biases_is_no_decision_even_with_ignore_biases(run, tmp_path):
    tensors, _, _ = model_tensors("llama", biases=True)
    (tmp_path / "config.json").write_text(json.dumps(MODELS["llama"][5]))
    safetensors_numpy.save_file(tensors, str(tmp_path / "model.safetensors"))
    data = scan_json(run, tmp_path, code=1)
    assert {b["verdict"] for b in data["blocks"]} == {"no_decision"}
    assert all(b["blockers"] == ["biases"] for b in data["blocks"])
    # the linearisation theorem is for bias-free gated blocks; --ignore-biases changes nothing
    ignored = scan_json(run, tmp_path, "--ignore-biases", code=1)
    assert {b["verdict"] for b in ignored["blocks"]} == {"no_decision"}


def test_gated_gelu_tanh_gate_is_geglu_variant(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "llama", biases=False)
    data = scan_json(run, folder, "--activation", "gelu_pytorch_tanh", code=0)
    assert data["activation"]["family"] == "geglu_tanh"
    assert data["activation"]["analysis_verdict"] == "never"


# ------------------------------------------------------------------------------------------
# --blocks, --jobs, --progress, --device
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("0", [0]), ("0,3,5-7", [0, 3, 5, 6, 7]), (" 2 , 1-2 ", [1, 2]), ("4-4", [4]),
])
def test_parse_blocks(text, expected):
    assert parse_blocks(text, list(range(8))) == expected


@pytest.mark.parametrize("text, message", [
    ("", "give block numbers"), ("1,,2", "give block numbers"), ("a", "'a' is not a block"),
    ("-1", "'-1' is not a block"), ("5-3", "the range 5-3 is empty"),
    ("2,9-10", "no block 9-10 in this checkpoint; its blocks are 0-7"),
])
def test_parse_blocks_errors(text, message):
    with pytest.raises(NumericInputError, match=message.replace("(", r"\(")):
        parse_blocks(text, list(range(8)))


def test_blocks_selects_and_splits(run, tmp_path):
    folder, S, _ = write_model(tmp_path / "m", "opt")
    first = scan_json(run, folder, "--blocks", "0-1")
    second = scan_json(run, folder, "--blocks", f"{PLANTED},3")
    assert [b["block"] for b in first["blocks"]] == [0, 1]
    assert [b["block"] for b in second["blocks"]] == [PLANTED, 3]
    assert second["blocks"][0]["S"] == S
    one_line_error(run(folder, "--blocks", "7"), "no block 7", "its blocks are 0-3")


def test_jobs_give_the_same_records_in_block_order(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "bert")

    def strip(data):
        return [{k: v for k, v in b.items() if k != "seconds"} for b in data["blocks"]]

    one = scan_json(run, folder, "--jobs", "1")
    three = scan_json(run, folder, "--jobs", "3")
    assert strip(one) == strip(three)
    assert three["jobs"] == 3


def test_progress_bar_on_stderr_only_when_asked(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "opt", biases=False)
    quiet = run(folder, "--json")
    assert quiet.stderr == ""                       # not a terminal: no bar by default
    shown = run(folder, "--json", "--progress")
    assert "scan:" in shown.stderr and "block" in shown.stderr
    json.loads(shown.stdout)                         # stdout stays pure JSON


def test_device_cuda_without_torch_is_one_line(run, tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)      # import torch → ImportError
    folder, _, _ = write_model(tmp_path / "m", "opt")
    one_line_error(run(folder, "--device", "cuda"), "--device cuda needs PyTorch with CUDA",
                   "torch is not installed")


def test_device_cuda_without_a_cuda_device_is_one_line(run, tmp_path, monkeypatch):
    import sys

    fake = types.SimpleNamespace(__version__="9.9", cuda=types.SimpleNamespace(
        is_available=lambda: False))
    monkeypatch.setitem(sys.modules, "torch", fake)
    folder, _, _ = write_model(tmp_path / "m", "opt")
    one_line_error(run(folder, "--device", "cuda"), "torch 9.9 is installed but no CUDA "
                   "device is available")


def test_device_cuda_forms_and_solves_the_gram_system_through_torch(run, tmp_path,
                                                                     monkeypatch):
    """With a stand-in for torch with CUDA (NumPy behind it: no GPU here), every numeric block
    is formed, factored and solved on the "GPU", and the verdicts and S are the CPU's."""
    import sys

    import torch_standin

    fake = torch_standin.module()
    monkeypatch.setitem(sys.modules, "torch", fake)
    folder, S, _ = write_model(tmp_path / "m", "opt")
    data = scan_json(run, folder, "--device", "cuda", code=0)
    assert fake.calls["matmul"] >= 2 * BLOCKS          # W_upW_upᵀ and W_downᵀW_down per block
    assert fake.calls["cholesky_ex"] == BLOCKS         # one factorisation per block
    assert fake.calls["cholesky_solve"] >= 3 * BLOCKS  # solve, refinement, excess, estimator
    assert data["device"] == "cuda" and data["blocks"][PLANTED]["S"] == S
    cpu = scan_json(run, folder, code=0)
    assert [b["verdict"] for b in cpu["blocks"]] == [b["verdict"] for b in data["blocks"]]
    assert [b["S"] for b in cpu["blocks"]] == [b["S"] for b in data["blocks"]]
    for ours, theirs in zip(data["blocks"], cpu["blocks"]):
        if theirs["relative_distance"] is not None:
            assert ours["relative_distance"] == pytest.approx(theirs["relative_distance"],
                                                              rel=1e-6)


# ------------------------------------------------------------------------------------------
# Bad input: one line, exit 2, naming what is wrong
# ------------------------------------------------------------------------------------------

def test_truncated_shard_is_named(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "gpt2", sharded=True)
    shard = folder / "model-00002-of-00002.safetensors"
    shard.write_bytes(shard.read_bytes()[:-40])
    one_line_error(run(folder), "model-00002-of-00002.safetensors")


def test_missing_shard_file_is_named(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "gpt2", sharded=True)
    (folder / "model-00001-of-00002.safetensors").unlink()
    one_line_error(run(folder), "shard model-00001-of-00002.safetensors",
                   "is missing")


def test_index_entry_missing_from_its_shard_is_named(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "gpt2", sharded=True)
    index = folder / "model.safetensors.index.json"
    data = json.loads(index.read_text())
    data["weight_map"]["transformer.h.9.mlp.c_fc.weight"] = "model-00001-of-00002.safetensors"
    index.write_text(json.dumps(data))
    one_line_error(run(folder), "'transformer.h.9.mlp.c_fc.weight'",
                   "that shard does not contain it")


def test_missing_tensor_of_a_block_is_named(run, tmp_path):
    tensors, _, _ = model_tensors("gpt2")
    del tensors["transformer.h.1.mlp.c_proj.weight"]
    (tmp_path / "config.json").write_text(json.dumps(MODELS["gpt2"][5]))
    safetensors_numpy.save_file(tensors, str(tmp_path / "model.safetensors"))
    one_line_error(run(tmp_path), "tensor transformer.h.1.mlp.c_proj.weight is missing")


def test_shape_mismatch_and_config_width_mismatch(run, tmp_path):
    tensors, _, _ = model_tensors("opt")
    tensors["model.decoder.layers.2.fc2.weight"] = np.ones((D, N + 1))
    safetensors_numpy.save_file(tensors, str(tmp_path / "model.safetensors"))
    one_line_error(run(tmp_path, "--activation", "relu"), "'model.decoder.layers.2.fc2.weight'",
                   f"expected {D}×{N}")
    other = tmp_path / "other"
    folder, _, _ = write_model(other, "opt")
    (folder / "config.json").write_text(json.dumps({"activation_function": "relu",
                                                    "hidden_size": N}))
    one_line_error(run(folder), f"config.json says hidden_size = {N}")


def test_unknown_activation_lists_the_known_ones(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "opt")
    (folder / "config.json").write_text(json.dumps({"activation_function": "mish"}))
    err = one_line_error(run(folder), "unknown activation 'mish'",
                         "config.json activation_function")
    for known in ("gelu_new", "gelu_pytorch_tanh", "relu", "silu", "gelu_tanh"):
        assert known in err
    one_line_error(run(folder, "--activation", "nope"), "unknown activation 'nope' "
                   "(--activation)")
    one_line_error(run(folder, "--activation", "swiglu"), "'swiglu' (--activation) is a gated "
                   "family, but the layout's blocks are ungated")


def test_no_activation_anywhere(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "opt", config=False)
    one_line_error(run(folder), "no config.json", "pass --activation NAME")
    (folder / "config.json").write_text("{not json")
    one_line_error(run(folder), "config.json is not valid JSON")


def test_unrecognised_layout_lists_the_keys_seen(run, tmp_path):
    safetensors_numpy.save_file({"encoder.block.0.ffn.wi": np.ones((4, 2)),
                                 "encoder.block.0.ffn.wo": np.ones((2, 4))},
                                str(tmp_path / "model.safetensors"))
    one_line_error(run(tmp_path, "--activation", "relu"), "unrecognised layout",
                   "keys seen: encoder.block.0.ffn.wi, encoder.block.0.ffn.wo")
    one_line_error(run(tmp_path, "--layout", "mamba"), "unknown layout 'mamba'",
                   "gpt2, gpt-neox, gptj, bert, distilbert, opt, llama, phi3, t5, t5-gated")
    one_line_error(run(tmp_path, "--layout", "opt", "--activation", "relu"),
                   "layout opt (OPT) matches no tensor", "keys seen: encoder.block.0.ffn.wi")


def test_refusal_of_a_real_unknown_model_is_one_line_under_200_characters(run, tmp_path):
    """A Mamba checkpoint (no MLP of a known layout): one line, under 200 characters, naming
    the model_type from config.json and the first layer's tensor names, then how many more."""
    tensors = {"backbone.embeddings.weight": np.ones((8, D))}
    for i in range(24):
        for name, shape in (("mixer.in_proj.weight", (4 * D, D)), ("mixer.out_proj.weight",
                            (D, 2 * D)), ("mixer.A_log", (2 * D, 4)), ("norm.weight", (D,))):
            tensors[f"backbone.layers.{i}.{name}"] = np.ones(shape)
    safetensors_numpy.save_file(tensors, str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "mamba", "hidden_size": D}))
    err = one_line_error(run(tmp_path), "unrecognised layout (config.json model_type 'mamba')",
                         "keys seen: backbone.layers.0.")
    assert len(err) < 200, (len(err), err)
    assert re.search(r"… \(\d+ more\)$", err), err
    shown = err.split("keys seen: ")[1].rsplit(", … (", 1)[0].split(", ")
    assert all(".0." in key for key in shown), shown          # the first layer's names first
    err = one_line_error(run(tmp_path, "--layout", "t5-gated", "--activation", "gelu"),
                         "layout t5-gated", "matches no tensor",
                         "N.layer.{k}.DenseReluDense.wi_1.weight")
    assert len(err) < 200, (len(err), err)


def test_layout_override_when_names_match_several(run, tmp_path):
    gpt2, _, _ = model_tensors("gpt2", biases=False)
    opt, S, _ = model_tensors("opt", biases=False, seed=3)
    safetensors_numpy.save_file({**gpt2, **opt}, str(tmp_path / "model.safetensors"))
    one_line_error(run(tmp_path, "--activation", "relu"), "several layouts match",
                   "--layout NAME")
    data = scan_json(run, tmp_path, "--activation", "relu", "--layout", "opt", code=0)
    assert data["layout"]["source"] == "--layout" and data["blocks"][PLANTED]["S"] == S


def test_directory_problems(run, tmp_path):
    one_line_error(run(tmp_path / "nowhere"), "does not exist")
    (tmp_path / "pytorch_model.bin").write_bytes(b"")
    one_line_error(run(tmp_path), "no .safetensors file", "convert them to safetensors")
    for name in ("a.safetensors", "b.safetensors"):
        safetensors_numpy.save_file({"x": np.ones(2)}, str(tmp_path / name))
    one_line_error(run(tmp_path), "several candidate checkpoints", "a.safetensors")
    one_line_error(run(tmp_path / "pytorch_model.bin"), "cannot tell what pytorch_model.bin is")
    one_line_error(run(), "missing CHECKPOINT")


def test_out_must_be_a_writable_directory(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "opt")
    (tmp_path / "file").write_text("x")
    one_line_error(run(folder, "--out", tmp_path / "file"), "not a directory")


def test_empty_matrices_are_refused(run, tmp_path):
    safetensors_numpy.save_file({"model.decoder.layers.0.fc1.weight": np.ones((0, 3)),
                                 "model.decoder.layers.0.fc2.weight": np.ones((3, 0))},
                                str(tmp_path / "model.safetensors"))
    one_line_error(run(tmp_path, "--activation", "relu"), "it is empty")


def test_corrupt_npz_member_during_the_scan_is_one_line(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "opt", fmt="npz")
    path = folder / "model.npz"
    raw = bytearray(path.read_bytes())
    name = b"model.decoder.layers.1.fc1.weight.npy"
    at = raw.index(name) + len(name) + 200        # inside that member's data
    raw[at] ^= 0xFF
    path.write_bytes(bytes(raw))
    one_line_error(run(folder), "'model.decoder.layers.1.fc1.weight'", "Bad CRC-32")


def test_progress_without_tqdm(run, tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "tqdm", None)
    folder, _, _ = write_model(tmp_path / "m", "opt", biases=False)
    one_line_error(run(folder, "--progress"), "needs the Python package 'tqdm'")
    assert run(folder, "--no-progress").exit_code == 0


# ------------------------------------------------------------------------------------------
# The README's example is what the commands print
# ------------------------------------------------------------------------------------------

README = Path(__file__).resolve().parents[1] / "README.md"


def gpt2_tiny(folder, d=16, n=64, blocks=4, planted=2, seed=0):
    """The README's synthetic GPT-2-style checkpoint: model.safetensors (float32, Conv1D
    in × out, with biases) and config.json (gelu_new); block ``planted`` absorbable."""
    folder.mkdir(parents=True)
    rng = np.random.default_rng(seed)
    tensors = {}
    for i in range(blocks):
        W_up = rng.standard_normal((n, d)) / np.sqrt(d)
        W_down = rng.standard_normal((d, n)) / np.sqrt(n)
        if i == planted:
            S = np.sort(rng.choice(n, d, replace=False))
            W_up[S], W_down[:, S] = exact_planted(d, seed + 7)
        stem = f"h.{i}.mlp."
        tensors[stem + "c_fc.weight"] = np.ascontiguousarray(W_up.T.astype(np.float32))
        tensors[stem + "c_proj.weight"] = np.ascontiguousarray(W_down.T.astype(np.float32))
        tensors[stem + "c_fc.bias"] = (0.1 * rng.standard_normal(n)).astype(np.float32)
        tensors[stem + "c_proj.bias"] = (0.1 * rng.standard_normal(d)).astype(np.float32)
    safetensors_numpy.save_file(tensors, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps(
        {"model_type": "gpt2", "activation_function": "gelu_new", "n_embd": d,
         "n_layer": blocks}))


def _without_seconds(text):
    lines = []
    for line in text.strip().splitlines():
        if re.match(r"\d+\s", line):                  # a table row: its last column
            line = line.rsplit(None, 1)[0]
        lines.append(re.sub(r"; [\d.]+ s \(jobs", "; _ s (jobs", line.rstrip()))
    return lines


def test_readme_scan_example_shows_what_each_command_prints(tmp_path, monkeypatch):
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Whole checkpoints: `leanbridge scan`"):]
    section = section[:section.index("**Biases.**")]
    examples = re.findall(r"```sh\n(leanbridge scan [^\n#]*?)\s*# exit (\d)[^\n]*\n```\n\n"
                          r"```text\n(.*?)```", section, re.S)
    assert len(examples) == 2, "one output block per command"
    monkeypatch.chdir(tmp_path)
    gpt2_tiny(tmp_path / "gpt2-tiny")
    for command, code, shown in examples:
        result = CliRunner().invoke(main, shlex.split(command)[1:])
        assert result.exit_code == int(code), (command, result.output)
        assert _without_seconds(result.output) == _without_seconds(shown), command


# ------------------------------------------------------------------------------------------
# The layouts people ship, with the tensor names, shapes and config.json keys that
# transformers' save_pretrained writes (nn.Linear stores [out, in]; biases as the models have)
# ------------------------------------------------------------------------------------------

def _planted(rng, planted):
    """(W_up [N, D], W_down [D, N], S): W_down[:, S] W_up[S, :] = −I when ``planted``, exactly
    in the stored float32 too (:func:`exact_planted`: the stored numbers are the block)."""
    W_up = rng.standard_normal((N, D)) / np.sqrt(D)
    W_down = rng.standard_normal((D, N)) / np.sqrt(N)
    S = None
    if planted:
        S = sorted(int(k) for k in rng.choice(N, D, replace=False))
        W_up[S], W_down[:, S] = exact_planted(D, int(rng.integers(1 << 16)))
    return W_up, W_down, S


def t5_model(gated=False, layers=2, planted=("encoder", 1), seed=0):
    """A T5 (or, gated, a T5 v1.1 / mT5 / Flan-T5) encoder-decoder as T5ForConditionalGeneration
    saves it: the MLP is ``block.N.layer.1`` in the encoder and ``layer.2`` in the decoder
    (``layer.1`` is cross-attention there); bias-free."""
    rng = np.random.default_rng(seed)
    t = {"shared.weight": rng.standard_normal((32, D))}
    S = None
    for stack in ("encoder", "decoder"):
        ff = 1 if stack == "encoder" else 2
        for i in range(layers):
            stem = f"{stack}.block.{i}."
            for proj in "qkvo":
                t[f"{stem}layer.0.SelfAttention.{proj}.weight"] = rng.standard_normal((D, D))
                if stack == "decoder":
                    t[f"{stem}layer.1.EncDecAttention.{proj}.weight"] = \
                        rng.standard_normal((D, D))
            if i == 0:
                t[f"{stem}layer.0.SelfAttention.relative_attention_bias.weight"] = \
                    rng.standard_normal((32, 2))
            for k in range(ff + 1):
                t[f"{stem}layer.{k}.layer_norm.weight"] = np.ones(D)
            W_up, W_down, S_here = _planted(rng, (stack, i) == planted)
            S = S_here or S
            mlp = f"{stem}layer.{ff}.DenseReluDense."
            if gated:
                t[mlp + "wi_0.weight"] = rng.standard_normal((N, D))
                t[mlp + "wi_1.weight"] = W_up
            else:
                t[mlp + "wi.weight"] = W_up
            t[mlp + "wo.weight"] = W_down
        t[f"{stack}.final_layer_norm.weight"] = np.ones(D)
    proj = "gated-gelu" if gated else "relu"
    config = {"architectures": ["T5ForConditionalGeneration"], "model_type": "t5",
              "d_model": D, "d_ff": N, "d_kv": D // 2, "num_heads": 2, "num_layers": layers,
              "num_decoder_layers": layers, "feed_forward_proj": proj,
              "dense_act_fn": "gelu_new" if gated else "relu", "is_gated_act": gated,
              "layer_norm_epsilon": 1e-06, "relative_attention_num_buckets": 32,
              "tie_word_embeddings": not gated}
    return t, config, S


def gptj_model(layers=BLOCKS, planted=PLANTED, seed=0):
    """GPT-J: ``transformer.h.N.mlp.fc_in``/``fc_out`` (nn.Linear, with biases), one ``ln_1``
    per block for attention and MLP in parallel; n_inner null means 4·n_embd."""
    rng = np.random.default_rng(seed)
    t = {"transformer.wte.weight": rng.standard_normal((32, D)),
         "transformer.ln_f.weight": np.ones(D), "transformer.ln_f.bias": np.zeros(D),
         "lm_head.weight": rng.standard_normal((32, D)), "lm_head.bias": np.zeros(32)}
    S = None
    for i in range(layers):
        stem = f"transformer.h.{i}."
        t[stem + "ln_1.weight"], t[stem + "ln_1.bias"] = np.ones(D), np.zeros(D)
        for proj in ("q_proj", "k_proj", "v_proj", "out_proj"):
            t[f"{stem}attn.{proj}.weight"] = rng.standard_normal((D, D))
        W_up, W_down, S_here = _planted(rng, i == planted)
        S = S_here or S
        t[stem + "mlp.fc_in.weight"], t[stem + "mlp.fc_in.bias"] = W_up, rng.standard_normal(N)
        t[stem + "mlp.fc_out.weight"], t[stem + "mlp.fc_out.bias"] = \
            W_down, rng.standard_normal(D)
    assert N == 4 * D
    config = {"architectures": ["GPTJForCausalLM"], "model_type": "gptj",
              "activation_function": "gelu_new", "n_embd": D, "n_inner": None, "n_layer": layers,
              "n_head": 2, "rotary_dim": 2, "layer_norm_epsilon": 1e-05}
    return t, config, S


def phi3_model(layers=2, seed=0):
    """Phi-3: ``model.layers.N.mlp.gate_up_proj`` [2·intermediate_size, hidden_size] (gate
    rows first, as ``gate, up = gate_up_proj(x).chunk(2, dim=-1)``) and ``down_proj``;
    bias-free; returns the gate and up halves written, per layer."""
    rng = np.random.default_rng(seed)
    t = {"model.embed_tokens.weight": rng.standard_normal((32, D)),
         "model.norm.weight": np.ones(D), "lm_head.weight": rng.standard_normal((32, D))}
    halves = []
    for i in range(layers):
        stem = f"model.layers.{i}."
        gate, up = rng.standard_normal((N, D)), rng.standard_normal((N, D))
        halves.append((gate, up))
        t[stem + "mlp.gate_up_proj.weight"] = np.concatenate([gate, up])
        t[stem + "mlp.down_proj.weight"] = rng.standard_normal((D, N))
        t[stem + "self_attn.qkv_proj.weight"] = rng.standard_normal((3 * D, D))
        t[stem + "self_attn.o_proj.weight"] = rng.standard_normal((D, D))
        t[stem + "input_layernorm.weight"] = np.ones(D)
        t[stem + "post_attention_layernorm.weight"] = np.ones(D)
    config = {"architectures": ["Phi3ForCausalLM"], "model_type": "phi3", "hidden_act": "silu",
              "hidden_size": D, "intermediate_size": N, "num_hidden_layers": layers,
              "num_attention_heads": 2, "rms_norm_eps": 1e-05}
    return t, config, halves


def distilbert_model(layers=BLOCKS, planted=PLANTED, seed=0):
    """DistilBERT (post-norm): ``distilbert.transformer.layer.N.ffn.lin1``/``lin2`` with
    biases, ``sa_layer_norm`` and ``output_layer_norm``; config keys ``dim``, ``hidden_dim``,
    ``activation``."""
    rng = np.random.default_rng(seed)
    t = {"distilbert.embeddings.word_embeddings.weight": rng.standard_normal((32, D)),
         "distilbert.embeddings.position_embeddings.weight": rng.standard_normal((16, D)),
         "distilbert.embeddings.LayerNorm.weight": np.ones(D),
         "distilbert.embeddings.LayerNorm.bias": np.zeros(D)}
    S = None
    for i in range(layers):
        stem = f"distilbert.transformer.layer.{i}."
        for lin in ("q_lin", "k_lin", "v_lin", "out_lin"):
            t[f"{stem}attention.{lin}.weight"] = rng.standard_normal((D, D))
            t[f"{stem}attention.{lin}.bias"] = np.zeros(D)
        for norm in ("sa_layer_norm", "output_layer_norm"):
            t[f"{stem}{norm}.weight"], t[f"{stem}{norm}.bias"] = np.ones(D), np.zeros(D)
        W_up, W_down, S_here = _planted(rng, i == planted)
        S = S_here or S
        t[stem + "ffn.lin1.weight"], t[stem + "ffn.lin1.bias"] = W_up, rng.standard_normal(N)
        t[stem + "ffn.lin2.weight"], t[stem + "ffn.lin2.bias"] = W_down, rng.standard_normal(D)
    config = {"architectures": ["DistilBertForMaskedLM"], "model_type": "distilbert",
              "activation": "gelu", "dim": D, "hidden_dim": N, "n_layers": layers, "n_heads": 2,
              "max_position_embeddings": 16, "sinusoidal_pos_embds": False}
    return t, config, S


def falcon_model(layers=BLOCKS, planted=PLANTED, seed=0):
    """Falcon (parallel attention, ``bias: false``): ``transformer.h.N.mlp.dense_h_to_4h``/
    ``dense_4h_to_h`` and ``input_layernorm``; its activation is config.json ``activation``."""
    rng = np.random.default_rng(seed)
    t = {"transformer.word_embeddings.weight": rng.standard_normal((32, D)),
         "transformer.ln_f.weight": np.ones(D), "transformer.ln_f.bias": np.zeros(D)}
    S = None
    for i in range(layers):
        stem = f"transformer.h.{i}."
        t[stem + "self_attention.query_key_value.weight"] = rng.standard_normal((3 * D, D))
        t[stem + "self_attention.dense.weight"] = rng.standard_normal((D, D))
        t[stem + "input_layernorm.weight"] = np.ones(D)
        t[stem + "input_layernorm.bias"] = np.zeros(D)
        W_up, W_down, S_here = _planted(rng, i == planted)
        S = S_here or S
        t[stem + "mlp.dense_h_to_4h.weight"], t[stem + "mlp.dense_4h_to_h.weight"] = W_up, W_down
    config = {"architectures": ["FalconForCausalLM"], "model_type": "falcon",
              "activation": "gelu", "hidden_size": D, "num_hidden_layers": layers,
              "num_attention_heads": 2, "bias": False, "parallel_attn": True,
              "new_decoder_architecture": False, "layer_norm_epsilon": 1e-05}
    return t, config, S


def save(folder, tensors, config, dtype=np.float32):
    """model.safetensors and config.json, as save_pretrained leaves a directory."""
    folder.mkdir(parents=True, exist_ok=True)
    safetensors_numpy.save_file({k: np.ascontiguousarray(v, dtype=dtype)
                                 for k, v in tensors.items()}, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps(config, indent=2))
    return folder


def _pre_norm_answers(data, kind):
    """A pre-norm report: model level "never" citing the Lean theorems (both for LayerNorm,
    the bounded-output one for RMSNorm), the blocks labelled as block level."""
    assert data["norm_position"] == "pre" and data["norm"]["kind"] == kind
    model = data["model_level"]
    assert model["answer"] == "never" and model["text"].startswith("never (pre-norm)")
    lean = ["SkipAbsorption.not_residual_eq_of_bounded_norm"] + (
        ["SkipAbsorption.not_residual_eq_of_not_injective"] if kind == "LayerNorm" else [])
    assert model["lean"] == lean and all(name in model["text"] for name in lean)
    assert model["lean_status"] == "not compiled: no Lean toolchain here"
    assert "the MLP's own input z = N(h)" in data["block_level"]["question"]
    assert "not the model's residual" in data["block_level"]["question"]
    assert all(b["norm_position"] == "pre" for b in data["blocks"])


def test_t5_relu_is_read_encoder_and_decoder_and_its_planted_block_found(run, tmp_path):
    """T5: ReLU and bias-free (the paper's own setting); the decoder's MLP is layer.2."""
    tensors, config, S = t5_model()
    folder = save(tmp_path / "t5", tensors, config)
    data = scan_json(run, folder, "--out", tmp_path / "out", code=0)
    assert data["layout"]["name"] == "t5" and data["layout"]["gated"] is False
    assert data["activation"] == {**data["activation"], "family": "relu",
                                  "source": "config.json dense_act_fn = 'relu'"}
    names = [b["name"] for b in data["blocks"]]
    assert names == ["decoder.block.0", "decoder.block.1", "encoder.block.0", "encoder.block.1"]
    keys = {b["name"]: b["keys"] for b in data["blocks"]}
    assert keys["decoder.block.1"] == {"up": "decoder.block.1.layer.2.DenseReluDense.wi.weight",
                                       "down": "decoder.block.1.layer.2.DenseReluDense.wo.weight"}
    assert keys["encoder.block.0"]["up"] == "encoder.block.0.layer.1.DenseReluDense.wi.weight"
    assert [b["verdict"] for b in data["blocks"]] == ["not_absorbable"] * 3 + ["absorbable"]
    planted = data["blocks"][3]
    assert planted["S"] == S and planted["biases"] == "none"
    assert (planted["d"], planted["n"]) == (D, N)
    _pre_norm_answers(data, "RMSNorm")
    assert "layer_norm" in data["norm"]["where"] and data["norm"]["source"] == "the t5 layout"
    # --out writes the block under T5's own names, and says it is the block-level block
    from safetensors import safe_open

    with safe_open(planted["written"], "np") as f:
        assert sorted(f.keys()) == ["encoder.block.1.layer.1.DenseReluDense.wi.weight",
                                    "encoder.block.1.layer.1.DenseReluDense.wo.weight",
                                    "leanbridge.S"]
        meta = f.metadata()
    assert meta["norm_position"] == "pre"
    assert "h + MLP(N(h)) = h - N(h) + V(N(h))" in meta["leanbridge"]


def test_t5_config_without_activation_keys_means_relu(run, tmp_path):
    """Older hub T5 configs (t5-small) name no activation: T5Config's default is relu."""
    tensors, config, _ = t5_model()
    for key in ("feed_forward_proj", "dense_act_fn", "is_gated_act"):
        del config[key]
    data = scan_json(run, save(tmp_path / "t5", tensors, config), code=0)
    assert data["activation"]["family"] == "relu"
    assert "default 'relu'" in data["activation"]["source"]


@pytest.mark.parametrize("drop_dense_act_fn", [False, True], ids=["saved", "feed_forward_only"])
def test_flan_t5_gated_gelu_is_never_without_reading_numbers(run, tmp_path, monkeypatch,
                                                             drop_dense_act_fn):
    """T5 v1.1 / mT5 / Flan-T5: wi_0 is the gate (GELU, tanh form: feed_forward_proj
    gated-gelu means gelu_new), wi_1 the value, wo the down-projection."""
    tensors, config, _ = t5_model(gated=True, planted=None)
    if drop_dense_act_fn:
        del config["dense_act_fn"]
    folder = save(tmp_path / "flan", tensors, config, dtype=np.float16)
    reads = []
    real_read = checkpoint_mod.Checkpoint.read

    def spy(self, key, *args, **kwargs):
        reads.append(key)
        return real_read(self, key, *args, **kwargs)

    monkeypatch.setattr(checkpoint_mod.Checkpoint, "read", spy)
    data = scan_json(run, folder, code=0)
    assert reads == []
    assert data["layout"]["name"] == "t5-gated" and data["activation"]["family"] == "geglu_tanh"
    assert data["activation"]["source"] == ("config.json feed_forward_proj = 'gated-gelu'"
                                            if drop_dense_act_fn else
                                            "config.json dense_act_fn = 'gelu_new'")
    block = data["blocks"][2]
    assert block["keys"] == {"up": "encoder.block.0.layer.1.DenseReluDense.wi_1.weight",
                             "gate": "encoder.block.0.layer.1.DenseReluDense.wi_0.weight",
                             "down": "encoder.block.0.layer.1.DenseReluDense.wo.weight"}
    assert {b["verdict"] for b in data["blocks"]} == {"not_absorbable"}
    _pre_norm_answers(data, "RMSNorm")


def test_gptj_parallel_block(run, tmp_path):
    tensors, config, S = gptj_model()
    folder = save(tmp_path / "gptj", tensors, config)
    read = scan_json(run, folder, "--blocks", "0")
    assert read["layout"]["name"] == "gptj" and read["activation"]["family"] == "gelu_tanh"
    # exact GELU, bias-free question: Thm 10 decides every block
    data = scan_json(run, folder, "--ignore-biases", "--activation", "gelu", code=0)
    assert data["blocks"][PLANTED]["keys"]["up"] == f"transformer.h.{PLANTED}.mlp.fc_in.weight"
    assert [b["verdict"] for b in data["blocks"]] == [
        "absorbable" if i == PLANTED else "not_absorbable" for i in range(BLOCKS)]
    assert data["blocks"][PLANTED]["S"] == S
    _pre_norm_answers(data, "LayerNorm")
    assert "ln_1" in data["norm"]["where"] and "parallel" in data["norm"]["where"]


def test_phi3_fused_gate_up_is_split_as_transformers_chunks_it(run, tmp_path):
    from leanbridge.numeric.checkpoint import Checkpoint
    from leanbridge.numeric.layouts import detect_layout, find_blocks, read_weight

    tensors, config, halves = phi3_model()
    folder = save(tmp_path / "phi3", tensors, config, dtype=np.float64)
    data = scan_json(run, folder, code=0)
    assert data["layout"]["name"] == "phi3" and data["activation"]["family"] == "swiglu"
    for i, block in enumerate(data["blocks"]):
        fused = f"model.layers.{i}.mlp.gate_up_proj.weight"
        assert block["keys"] == {"up": fused, "gate": fused,
                                 "down": f"model.layers.{i}.mlp.down_proj.weight"}
        assert (block["d"], block["n"]) == (D, N) and block["verdict"] == "not_absorbable"
        assert any(f"rows 0–{N - 1} the gate, rows {N}–{2 * N - 1} the up" in note
                   for note in block["notes"])
    _pre_norm_answers(data, "RMSNorm")
    ckpt = Checkpoint(folder)
    specs = find_blocks(ckpt, detect_layout(ckpt.keys, ckpt.config))
    for spec, (gate, up) in zip(specs, halves):
        assert np.array_equal(read_weight(ckpt, spec, "gate")[0], gate)
        assert np.array_equal(read_weight(ckpt, spec, "up")[0], up)
        assert spec.nbytes == (2 * N * D + D * N) * 8          # the fused tensor counted once
    # an odd number of rows cannot be two halves
    tensors["model.layers.1.mlp.gate_up_proj.weight"] = np.ones((2 * N + 1, D))
    save(tmp_path / "odd", tensors, config)
    one_line_error(run(tmp_path / "odd"), "'model.layers.1.mlp.gate_up_proj.weight' has 49 rows",
                   "odd number")


def test_distilbert_is_post_norm_the_papers_question(run, tmp_path):
    tensors, config, S = distilbert_model()
    folder = save(tmp_path / "distilbert", tensors, config)
    data = scan_json(run, folder, "--ignore-biases", "--out", tmp_path / "out", code=0)
    assert data["layout"]["name"] == "distilbert"
    assert data["activation"]["source"] == "config.json activation = 'gelu'"
    assert data["blocks"][PLANTED]["keys"]["down"] == \
        f"distilbert.transformer.layer.{PLANTED}.ffn.lin2.weight"
    assert [b["verdict"] for b in data["blocks"]] == [
        "absorbable" if i == PLANTED else "not_absorbable" for i in range(BLOCKS)]
    assert data["blocks"][PLANTED]["S"] == S
    assert data["norm_position"] == "post" and "output_layer_norm" in data["norm"]["where"]
    assert data["model_level"]["answer"] == "per_block" and data["model_level"]["lean"] == []
    assert "paper's question" in data["model_level"]["text"]
    assert all(b["norm_position"] == "post" for b in data["blocks"])
    from safetensors import safe_open

    with safe_open(data["blocks"][PLANTED]["written"], "np") as f:
        meta = f.metadata()
    assert meta["norm_position"] == "post"
    assert "remove the residual connection around this MLP" in meta["leanbridge"]


def test_falcon_reads_its_activation_key(run, tmp_path):
    tensors, config, S = falcon_model()
    data = scan_json(run, save(tmp_path / "falcon", tensors, config), code=0)
    assert data["layout"]["name"] == "gpt-neox"
    assert data["activation"]["source"] == "config.json activation = 'gelu'"
    assert data["activation"]["family"] == "gelu"
    assert all(b["biases"] == "none" for b in data["blocks"])        # bias: false
    assert data["blocks"][PLANTED]["S"] == S
    assert data["summary"]["absorbable_blocks"] == [PLANTED]
    _pre_norm_answers(data, "LayerNorm")


@pytest.mark.parametrize("before, position", [(None, "pre"), (True, "pre"), (False, "post")])
def test_opt_norm_position_follows_do_layer_norm_before(run, tmp_path, before, position):
    folder, _, _ = write_model(tmp_path / "m", "opt", biases=False)
    config = dict(MODELS["opt"][5])
    if before is not None:
        config["do_layer_norm_before"] = before
    (folder / "config.json").write_text(json.dumps(config))
    data = scan_json(run, folder, code=0)
    assert data["norm_position"] == position
    assert data["model_level"]["answer"] == ("never" if position == "pre" else "per_block")
    assert data["norm"]["source"] == ("config.json do_layer_norm_before = false"
                                      if before is False else "the opt layout")
    text = run(folder).output
    if position == "pre":
        assert "model level: never (pre-norm)" in text
        assert "summary (block level; model level: never, pre-norm):" in text
    else:
        assert "norm: post-norm, LayerNorm final_layer_norm after the sum" in text
        assert "model level: post-norm" in text and "\nsummary: " in text


def test_bert_text_report_says_post_norm(run, tmp_path):
    folder, _, _ = write_model(tmp_path / "m", "bert")
    text = run(folder, "--ignore-biases").output
    assert "norm: post-norm, LayerNorm output.LayerNorm after the sum" in text
    assert "each row (block level): the paper's question x + MLP(x)" in text
    assert "never" not in text.split("each row")[0]


def test_a_vetoed_block_reports_no_S_and_not_absorbable_blocks_their_distance(run, tmp_path,
                                                                              monkeypatch):
    """The record carries what absorb decided: the planted block, whose constructed block
    fails verification (a tenth off), is "no decision" with no S to write; the other blocks
    carry absorb's relaxed distance; every record's time is a duration."""
    from leanbridge.families import get_family
    from leanbridge.numeric import absorb as absorb_mod

    folder, _, blocks = write_model(tmp_path / "m", "opt", biases=False)
    real_verify = absorb_mod.verify

    def off_by_a_tenth(family, Wd, Wu, A, V_down, V_up, *args, **kwargs):
        return real_verify(family, Wd, Wu, A, 0.9 * V_down, V_up, *args, **kwargs)

    monkeypatch.setattr(absorb_mod, "verify", off_by_a_tenth)
    data = scan_json(run, folder, "--out", tmp_path / "out", code=1)   # 1: a no decision
    vetoed = data["blocks"][PLANTED]
    assert vetoed["verdict"] == "no_decision" and vetoed["blockers"] == ["verification"]
    assert vetoed["S"] is None and vetoed["written"] is None
    assert vetoed["verification_max_relative_error"] is None
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    for i, block in enumerate(data["blocks"]):
        assert 0 <= block["seconds"] < 60
        if i == PLANTED:
            continue
        W_up, W_down = blocks[i][0], blocks[i][1]
        expected = absorb_mod.absorb(get_family("relu"), W_down, W_up).distance
        assert block["verdict"] == "not_absorbable"
        assert block["distance"] == pytest.approx(expected["distance"], rel=1e-9)
        assert block["relative_distance"] == pytest.approx(expected["relative"], rel=1e-9)
        assert block["distance"] > 0


def test_scan_without_numpy_names_the_command(monkeypatch):
    import sys

    from leanbridge.numeric.errors import MissingDependencyError
    from leanbridge.numeric.scan import scan_block

    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(MissingDependencyError) as error:
        scan_block(None, None, None, None)
    assert str(error.value).startswith("leanbridge scan needs the Python package 'numpy', "
                                       "which is not installed")
