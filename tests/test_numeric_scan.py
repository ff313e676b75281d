"""`leanbridge scan`: every MLP block of a checkpoint, in each stored layout (GPT-2 Conv1D,
GPT-NeoX, BERT, OPT, LLaMA gated), sharded and not, .npz and directories with config.json;
biases handled as documented; one-line errors (exit 2) for damaged or inconsistent inputs."""

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
            W_down[:, S] = -np.linalg.inv(W_up[S])
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
    rows = {line.split()[0]: line for line in out.splitlines()[5:5 + BLOCKS]}
    assert sorted(rows) == [str(i) for i in range(BLOCKS)]
    planted = rows[str(PLANTED)].split()
    assert planted[:4] == [str(PLANTED), f"{D}×{N}", "gelu_tanh", "ABSORBABLE"]
    assert planted[4:8] == ["|S|", "=", str(D), "rounding"]
    assert rows["0"].split()[3:7] == ["not", "absorbable", "rel.", rows["0"].split()[6]]
    assert float(rows["0"].split()[6]) > 0.05 and "least-squares" in rows["0"]
    assert (f"summary: {BLOCKS} block(s): 1 absorbable, {BLOCKS - 1} not absorbable, 0 no "
            f"decision; absorbable: {PLANTED}") in out


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
    reads = []
    real_read = checkpoint_mod.Checkpoint.read

    def spy(self, key, ndim=2):
        reads.append(key)
        return real_read(self, key, ndim)

    monkeypatch.setattr(checkpoint_mod.Checkpoint, "read", spy)
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
    one_line_error(run(tmp_path, "--layout", "t5"), "unknown layout 't5'",
                   "gpt2, gpt-neox, bert, opt, llama")
    one_line_error(run(tmp_path, "--layout", "opt", "--activation", "relu"),
                   "layout opt (OPT) matches no tensor", "keys seen: encoder.block.0.ffn.wi")


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
            W_down[:, S] = -np.linalg.inv(W_up[S])
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
