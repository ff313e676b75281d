"""The large-scale limit on numbers (recession.md): the biased construction of R4 is exact, the
tanh-block identity fails along every ray as R2 says, and `scan` decides every block of
Hugging Face-format checkpoints with biases (BERT/RoBERTa and DistilBERT post-norm with GELU,
OPT with ReLU, GPT-2 with gelu_new) — random blocks "not absorbable" (exit 0), a planted
block with nonzero biases found, written with --out and verified."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")
safetensors_numpy = pytest.importorskip("safetensors.numpy")

from scipy.optimize import least_squares  # noqa: E402
from scipy.special import erf  # noqa: E402

from leanbridge.cli import main  # noqa: E402
from leanbridge.numeric.layouts import layout_names  # noqa: E402
from test_numeric_scan import exact_planted  # noqa: E402


def gelu(z):
    return z * (1 + erf(z / np.sqrt(2))) / 2


def planted_block(d, n, seed, c=1.0):
    """Random biased weights with W_down[:,S] W_up[S,:] = −I/c for a planted S."""
    rng = np.random.default_rng(seed)
    W_up = rng.standard_normal((n, d)) / np.sqrt(d)
    W_down = rng.standard_normal((d, n)) / np.sqrt(n)
    S = np.sort(rng.choice(n, d, replace=False))
    W_down[:, S] = -np.linalg.inv(W_up[S]) / c
    return W_down, W_up, S, rng.standard_normal(n), rng.standard_normal(d)


# ------------------------------------------------------------------------------------------
# R4: the biased construction (recession.md §5)
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("d, n, seed", [(4, 16, 0), (8, 32, 1), (16, 64, 2)])
def test_r4_construction_absorbs_a_biased_gelu_block_to_1e_12(d, n, seed):
    """V_up = W_up and b′ = b with the rows in S negated, V_down = W_down,
    e′ = e + c·W_down D_S b (c = 1 for GELU): x + W_down σ(W_up x + b) + e equals
    V_down σ(V_up x + b′) + e′; the opposite sign of the bias correction does not."""
    W_down, W_up, S, b, e = planted_block(d, n, seed)
    flip = np.ones(n)
    flip[S] = -1
    V_up, b_v = W_up * flip[:, None], b * flip
    D_S = np.zeros(n)
    D_S[S] = 1
    e_v = e + W_down @ (D_S * b)
    rng = np.random.default_rng(seed + 10)
    X = rng.standard_normal((200, d)) * np.logspace(-2, 2, 200)[:, None]
    f = X + gelu(X @ W_up.T + b) @ W_down.T + e
    g = gelu(X @ V_up.T + b_v) @ W_down.T + e_v
    relative = np.linalg.norm(f - g, axis=1) / np.linalg.norm(f, axis=1)
    assert relative.max() <= 1e-12
    wrong = gelu(X @ V_up.T + b_v) @ W_down.T + e - W_down @ (D_S * b)
    assert (np.linalg.norm(f - wrong, axis=1) / np.linalg.norm(f, axis=1)).max() > 1e-3


# ------------------------------------------------------------------------------------------
# R2: along a ray, a tanh block cannot follow the skip
# ------------------------------------------------------------------------------------------

def test_tanh_block_identity_fails_along_a_ray_as_r2_says():
    """Fit the best absorbing tanh block on the unit ball (least squares from several starts);
    along the ray t·x the error grows like t·‖x‖ — exactly, |f(tx) − g(tx) − t x| ≤
    Σ_i ‖w_i‖ + Σ_k ‖v_k‖ since |tanh| ≤ 1 — so no V absorbs the skip (R2)."""
    d, n = 2, 6
    rng = np.random.default_rng(3)
    W_down, W_up = rng.standard_normal((d, n)), rng.standard_normal((n, d))
    ball = rng.standard_normal((400, d))
    ball /= np.maximum(1.0, np.linalg.norm(ball, axis=1))[:, None]

    def block(params, X):
        Vd, Vu = params[:d * n].reshape(d, n), params[d * n:].reshape(n, d)
        return np.tanh(X @ Vu.T) @ Vd.T

    target = ball + np.tanh(ball @ W_up.T) @ W_down.T
    fits = [least_squares(lambda p: (block(p, ball) - target).ravel(),
                          rng.standard_normal(2 * d * n), max_nfev=4000) for _ in range(4)]
    best = min(fits, key=lambda r: r.cost)
    Vd = best.x[:d * n].reshape(d, n)
    on_ball = np.sqrt(2 * best.cost / len(ball))
    assert on_ball < 0.5                      # a fair fit near the origin
    x = np.array([0.6, -0.8])
    bound = np.abs(W_down).sum() + np.abs(Vd).sum()   # Σ_i ‖w_i‖₁ + Σ_k ‖v_k‖₁
    for t in (1e1, 1e3, 1e6):
        X = (t * x)[None, :]
        gap = (X + np.tanh(X @ W_up.T) @ W_down.T - block(best.x, X))[0]
        assert np.abs(gap - t * x).sum() <= bound + 1e-9 * t
        assert np.linalg.norm(gap) / t == pytest.approx(np.linalg.norm(x), abs=bound / t + 1e-9)


# ------------------------------------------------------------------------------------------
# scan on Hugging Face-format checkpoints with biases
# ------------------------------------------------------------------------------------------

D, N, LAYERS, PLANTED = 8, 32, 3, 1

#: model → (layout, prefix of layer N, up, down, stored in × out, config.json, post-norm
#: LayerNorm of the block or None, activation family)
MODELS = {
    "bert": ("bert", "bert.encoder.layer.", "intermediate.dense", "output.dense", False,
             {"model_type": "bert", "hidden_act": "gelu", "hidden_size": D,
              "intermediate_size": N, "num_hidden_layers": LAYERS}, "output.LayerNorm",
             "gelu"),
    "roberta": ("bert", "roberta.encoder.layer.", "intermediate.dense", "output.dense", False,
                {"model_type": "roberta", "hidden_act": "gelu", "hidden_size": D,
                 "intermediate_size": N, "num_hidden_layers": LAYERS}, "output.LayerNorm",
                "gelu"),
    "distilbert": ("distilbert", "distilbert.transformer.layer.", "ffn.lin1", "ffn.lin2", False,
                   {"model_type": "distilbert", "activation": "gelu", "dim": D,
                    "hidden_dim": N, "n_layers": LAYERS}, "output_layer_norm", "gelu"),
    "opt": ("opt", "model.decoder.layers.", "fc1", "fc2", False,
            {"model_type": "opt", "activation_function": "relu", "hidden_size": D,
             "ffn_dim": N, "num_hidden_layers": LAYERS}, None, "relu"),
    "gpt2": ("gpt2", "transformer.h.", "mlp.c_fc", "mlp.c_proj", True,
             {"model_type": "gpt2", "activation_function": "gelu_new", "n_embd": D,
              "n_inner": N, "n_layer": LAYERS}, None, "gelu_tanh"),
}


def write_checkpoint(folder: Path, model: str, seed: int = 0):
    """float32 safetensors with the model's exact tensor names and shapes, biases everywhere;
    layer PLANTED absorbable. Returns the float64 blocks (W_up, W_down, b_up, b_down) and S."""
    layout, prefix, up, down, conv1d, config, norm, _ = MODELS[model]
    rng = np.random.default_rng(seed)
    tensors, blocks, S = {}, [], None
    for i in range(LAYERS):
        W_up = rng.standard_normal((N, D)) / np.sqrt(D)
        W_down = rng.standard_normal((D, N)) / np.sqrt(N)
        if i == PLANTED:
            S = sorted(int(k) for k in rng.choice(N, D, replace=False))
            # exact in float32 too (the stored numbers are the block): see exact_planted
            W_up[S], W_down[:, S] = exact_planted(D, int(rng.integers(1 << 16)))
        b_up, b_down = 0.1 * rng.standard_normal(N), 0.1 * rng.standard_normal(D)
        W_up, W_down, b_up, b_down = (a.astype(np.float32) for a in (W_up, W_down, b_up, b_down))
        stem = f"{prefix}{i}."
        tensors[stem + up + ".weight"] = np.ascontiguousarray(W_up.T if conv1d else W_up)
        tensors[stem + down + ".weight"] = np.ascontiguousarray(W_down.T if conv1d else W_down)
        tensors[stem + up + ".bias"] = b_up
        tensors[stem + down + ".bias"] = b_down
        if norm:
            tensors[stem + norm + ".weight"] = np.ones(D, np.float32)
            tensors[stem + norm + ".bias"] = np.zeros(D, np.float32)
        blocks.append(tuple(a.astype(np.float64) for a in (W_up, W_down, b_up, b_down)))
    folder.mkdir(parents=True)
    safetensors_numpy.save_file(tensors, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps(config))
    return blocks, S


def sigma(name):
    from leanbridge.families import get_family
    from leanbridge.numeric.activations import numeric_activation

    return numeric_activation(get_family(name)).value


@pytest.mark.parametrize("model", list(MODELS))
def test_scan_decides_every_block_with_biases_and_writes_the_planted_one(tmp_path, model):
    layout, prefix, up, down, conv1d, _, _, family = MODELS[model]
    if layout not in layout_names():
        pytest.skip(f"layout {layout} not in this tree")
    blocks, S = write_checkpoint(tmp_path / model, model)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["scan", str(tmp_path / model), "--activation", family,
                                       "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["layout"]["name"] == layout and data["biases"]["mode"] == "with_biases"
    verdicts = [b["verdict"] for b in data["blocks"]]
    assert verdicts == ["absorbable" if i == PLANTED else "not_absorbable"
                        for i in range(LAYERS)]
    for block in data["blocks"]:
        assert block["biases"] == "present" and block["blockers"] == []
        if block["verdict"] == "not_absorbable":
            assert "(R4; Lean: SkipAbsorption.biasedAbsorbable_" in block["summary"]
    assert data["blocks"][PLANTED]["S"] == S
    written = Path(data["blocks"][PLANTED]["written"])
    saved = safetensors_numpy.load_file(str(written))
    stem = f"{prefix}{PLANTED}."

    def matrix(name):
        value = saved[stem + name].astype(np.float64)
        return value.T if conv1d else value

    V_up, V_down = matrix(up + ".weight"), matrix(down + ".weight")
    v_up, v_down = (saved[stem + up + ".bias"].astype(np.float64),
                    saved[stem + down + ".bias"].astype(np.float64))
    W_up, W_down, b_up, b_down = blocks[PLANTED]
    assert np.any(b_up) and np.any(v_down != b_down)     # nonzero biases, corrected output bias
    act = sigma(family)
    x = np.random.default_rng(7).standard_normal((64, D)) * np.logspace(-1, 2, 64)[:, None]
    skip_block = x + act(x @ W_up.T + b_up) @ W_down.T + b_down
    absorbed = act(x @ V_up.T + v_up) @ V_down.T + v_down
    relative = np.linalg.norm(absorbed - skip_block, axis=1) / np.linalg.norm(skip_block, axis=1)
    assert relative.max() < 1e-5                          # float32-stored weights


def test_tanh_checkpoint_with_biases_is_never_without_reading_weights(tmp_path):
    write_checkpoint(tmp_path / "m", "bert")
    result = CliRunner().invoke(main, ["scan", str(tmp_path / "m"), "--activation", "tanh",
                                       "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {b["verdict"] for b in data["blocks"]} == {"not_absorbable"}
    assert all("SkipAbsorption.not_biasedAbsorbable_tanh" in b["summary"]
               for b in data["blocks"])
    assert all(b["numerics"] is False for b in data["blocks"])
