"""The stored numbers are the block: float32, float16 and bfloat16 copies of one GPT-2-style
checkpoint (Hugging Face names, Conv1D in × out, safetensors with the exact dtypes) give the same
verdict per block — planted (W_down[:,S] W_up[S,:] = −I exactly, in every dtype), near-miss
(0.9 × that) and random — in `absorb` and in `scan`; the tolerance and the nondegeneracy test
are float64's whatever the storage precision; a failed verification vetoes "absorbable";
weights near 1e±300 decide as weights near 1 (issue 20)."""

import json
import struct

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")
safetensors_numpy = pytest.importorskip("safetensors.numpy")

from leanbridge.cli import main
from leanbridge.families import get_family
from leanbridge.numeric import absorb as absorb_mod
from leanbridge.numeric.weights import load_block

D, N = 8, 32
#: block → what it is; the verdict every dtype must give (bias-free question; GELU, whose
#: necessity theorem makes a failed S-condition "not absorbable").
KINDS = ("planted", "near_miss", "random")
VERDICTS = {"planted": "absorbable", "near_miss": "not_absorbable", "random": "not_absorbable"}
DTYPES = ("F32", "F16", "BF16")


def exact_inverse_pair(d, seed):
    """(M, M⁻¹) with dyadic entries of one significant bit: M = P·diag(±2^k)·L, L unit lower
    bidiagonal with ±1/2 below the diagonal, so M⁻¹ = L⁻¹·diag(±2^−k)·Pᵀ has entries ±2^j
    (products along the subdiagonal chain) — exact in float16 and bfloat16 as well."""
    rng = np.random.default_rng(seed)
    L = np.eye(d)
    L[np.arange(1, d), np.arange(d - 1)] = rng.choice([-0.5, 0.5], d - 1)
    nil = L - np.eye(d)
    L_inv, power = np.eye(d), np.eye(d)
    for _ in range(d - 1):                      # L⁻¹ = Σ (−N)^k, exact in float64
        power = power @ -nil
        L_inv += power
    diag = rng.choice([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0], d)
    P = np.eye(d)[rng.permutation(d)]
    M = P @ (diag[:, None] * L)
    M_inv = (L_inv / diag[None, :]) @ P.T
    assert np.array_equal(M @ M_inv, np.eye(d))
    return M, M_inv


def blocks(seed=0):
    """(W_up n×d, W_down d×n, S) per kind, in float64; the stored copies round the random
    entries, never the planted ones."""
    rng = np.random.default_rng(seed)
    out = {}
    for k, kind in enumerate(KINDS):
        W_up = rng.standard_normal((N, D)) / np.sqrt(D)
        W_down = rng.standard_normal((D, N)) / np.sqrt(N)
        S = sorted(int(i) for i in rng.choice(N, D, replace=False))
        if kind != "random":
            M, M_inv = exact_inverse_pair(D, seed + 10 + k)
            W_up[S] = M
            W_down[:, S] = -M_inv * (0.9 if kind == "near_miss" else 1.0)
        out[kind] = (W_up, W_down, S)
    return out


def to_bf16_bits(array):
    """float64 → bfloat16 bit patterns, rounded to nearest even (as torch does)."""
    u32 = np.asarray(array, np.float32).view(np.uint32).astype(np.uint64)
    return ((u32 + 0x7FFF + ((u32 >> 16) & 1)) >> 16).astype("<u2")


def from_bf16_bits(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def stored(array, dtype):
    """The float64 value of ``array`` as stored in ``dtype``."""
    if dtype == "BF16":
        return from_bf16_bits(to_bf16_bits(array))
    return np.asarray(array, {"F32": np.float32, "F16": np.float16}[dtype]).astype(np.float64)


def write_safetensors(path, tensors, dtype):
    """A safetensors file as transformers' save_pretrained writes it: header with each
    tensor's dtype/shape/offsets (8-byte aligned) and {"format": "pt"} metadata, then the
    little-endian data. Written by hand so that BF16 (which NumPy lacks) is exact."""
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name in sorted(tensors):
        array = np.ascontiguousarray(tensors[name])
        if dtype == "BF16":
            data = to_bf16_bits(array).tobytes()
        else:
            data = array.astype({"F32": "<f4", "F16": "<f2"}[dtype]).tobytes()
        header[name] = {"dtype": dtype, "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def write_gpt2(folder, dtype, seed=0):
    """A GPT-2 checkpoint (transformer.h.N.mlp.c_fc / c_proj, Conv1D in × out, with biases
    and the attention's c_proj beside) in ``dtype``, block k of kind KINDS[k]."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed + 1)
    tensors = {}
    for i, kind in enumerate(KINDS):
        W_up, W_down, _ = blocks(seed)[kind]
        stem = f"transformer.h.{i}."
        tensors[stem + "mlp.c_fc.weight"] = W_up.T
        tensors[stem + "mlp.c_proj.weight"] = W_down.T
        tensors[stem + "mlp.c_fc.bias"] = 0.1 * rng.standard_normal(N)
        tensors[stem + "mlp.c_proj.bias"] = 0.1 * rng.standard_normal(D)
        tensors[stem + "attn.c_proj.weight"] = np.eye(D)
    write_safetensors(folder / "model.safetensors", tensors, dtype)
    (folder / "config.json").write_text(json.dumps(
        {"model_type": "gpt2", "activation_function": "gelu", "n_embd": D,
         "n_layer": len(KINDS), "torch_dtype": {"F32": "float32", "F16": "float16",
                                                "BF16": "bfloat16"}[dtype]}))
    return folder


def test_the_planted_block_is_exact_in_every_dtype_and_the_others_are_not_planted():
    for kind, (W_up, W_down, S) in blocks().items():
        for dtype in DTYPES:
            Wu, Wd = stored(W_up, dtype), stored(W_down, dtype)
            product = Wd[:, S] @ Wu[S]
            if kind == "planted":
                assert np.array_equal(product, -np.eye(D)), dtype
            else:
                assert np.abs(product + np.eye(D)).max() > 0.05, (kind, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_half_precision_is_read_into_float64_exactly(tmp_path, dtype):
    folder = write_gpt2(tmp_path / dtype, dtype)
    key = "transformer.h.2.mlp.c_fc.weight"
    block = load_block(folder / "model.safetensors", down="transformer.h.2.mlp.c_proj.weight",
                       up=key, transpose=True)
    W_up = blocks()["random"][0]
    assert block.W_up.dtype == np.float64
    assert np.array_equal(block.W_up, stored(W_up, dtype))


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    root = tmp_path_factory.mktemp("precision")
    return {dtype: write_gpt2(root / dtype, dtype) for dtype in DTYPES}


@pytest.mark.parametrize("dtype", DTYPES)
def test_scan_gives_the_same_verdict_per_block_in_every_dtype(checkpoints, dtype):
    result = CliRunner().invoke(main, ["scan", str(checkpoints[dtype]), "--ignore-biases",
                                       "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [b["verdict"] for b in data["blocks"]] == [VERDICTS[k] for k in KINDS]
    assert data["blocks"][0]["S"] == blocks()["planted"][2]
    assert all(b["dtype"] == dtype for b in data["blocks"])
    # near-miss: the distance says how far (0.1·‖I‖_F relative, whatever the dtype)
    assert 0.05 < data["blocks"][1]["relative_distance"] < 0.2


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("index", range(len(KINDS)))
def test_absorb_gives_the_same_verdict_per_block_in_every_dtype(checkpoints, dtype, index,
                                                                tmp_path):
    stem = f"transformer.h.{index}.mlp."
    out = tmp_path / "absorbed.safetensors"
    result = CliRunner().invoke(main, [
        "absorb", str(checkpoints[dtype] / "model.safetensors"), "--activation", "gelu",
        "--down", stem + "c_proj.weight", "--up", stem + "c_fc.weight", "--transpose",
        "--out", str(out), "--json"])
    data = json.loads(result.stdout)
    kind = KINDS[index]
    assert data["verdict"] == VERDICTS[kind], (dtype, kind, data["summary"])
    assert result.exit_code == 0
    assert data["nondegeneracy_violations"] in (None, [])        # bf16 rows are not parallel
    if kind == "planted":
        assert data["S"] == blocks()["planted"][2]
        assert data["verification"]["max_error_over_terms"] < 1e-12
        assert out.is_file()
    else:
        assert not out.exists()                                  # nothing written


def test_the_issue_case_fp16_near_miss_is_not_absorbable_and_writes_nothing(tmp_path):
    """Issue 20's report: −0.9·I in float16 was ABSORBABLE (exit 0) with a block 14 % off,
    because the tolerance grew with ε_fp16 and the verification did not veto."""
    W_up, W_down, S = blocks()["near_miss"]
    path = tmp_path / "block.safetensors"
    write_safetensors(path, {"mlp.c_fc.weight": W_up.T, "mlp.c_proj.weight": W_down.T}, "F16")
    out = tmp_path / "out.npz"
    result = CliRunner().invoke(main, ["absorb", str(path), "--activation", "relu",
                                       "--transpose", "--out", str(out), "--json"])
    data = json.loads(result.stdout)
    assert data["verdict"] == "not_absorbable" and result.exit_code == 0, data["summary"]
    assert not out.exists()


def test_nondegeneracy_of_bfloat16_rows_uses_the_float64_threshold(tmp_path):
    """Two bf16 rows with |cos| = 0.6 are not parallel (the old threshold 64·ε_bf16 = 0.5
    called every pair with |cos| ≥ 0.5 parallel, and the block "no decision (degenerate)")."""
    W_up = stored(np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]]), "BF16")
    W_down = stored(np.array([[1.0, 0.5, -0.25], [0.5, -1.0, 2.0]]), "BF16")
    path = tmp_path / "bf16.safetensors"
    write_safetensors(path, {"mlp.up_proj.weight": W_up, "mlp.down_proj.weight": W_down},
                      "BF16")
    result = CliRunner().invoke(main, ["absorb", str(path), "--activation", "relu", "--json"])
    data = json.loads(result.stdout)
    assert data["nondegeneracy_violations"] == [] and data["nondegenerate"]["holds"]
    assert data["verdict"] == "not_absorbable" and result.exit_code == 0, data["summary"]
    assert data["nondegenerate"]["parallel_threshold_one_minus_abs_cos"] < 1e-9


def test_a_failed_verification_vetoes_absorbable(monkeypatch):
    """Whatever decided S, an absorbing block that does not reproduce the skip block on the
    random inputs is never reported absorbable."""
    W_up, W_down, S = blocks()["planted"]
    real = absorb_mod.verify

    def off_by_a_tenth(family, Wd, Wu, A, V_down, V_up, *args, **kwargs):
        return real(family, Wd, Wu, A, 0.9 * V_down, V_up, *args, **kwargs)

    monkeypatch.setattr(absorb_mod, "verify", off_by_a_tenth)
    result = absorb_mod.absorb(get_family("relu"), W_down, W_up)
    assert result.decision.found is True
    assert result.verdict == absorb_mod.NO_DECISION and result.blockers == ["verification"]
    assert "vetoes" in result.summary


@pytest.mark.filterwarnings("error")                # no overflow/underflow on the way
@pytest.mark.parametrize("exponent", [300, -300, 1000])
def test_weights_near_1e300_decide_like_weights_near_1(exponent):
    """W_down·s, W_up/s (the same block: the S-condition and the function class are
    unchanged) for s = 10^±300 (and 2^1000): same verdicts and S, no overflow, no zero rows."""
    s = 10.0 ** exponent if abs(exponent) < 400 else 2.0 ** exponent
    for kind, (W_up, W_down, S) in blocks().items():
        plain = absorb_mod.absorb(get_family("relu"), W_down, W_up)
        scaled = absorb_mod.absorb(get_family("relu"), W_down * s, W_up / s)
        assert scaled.verdict == plain.verdict == VERDICTS[kind], (kind, scaled.summary)
        assert scaled.S == plain.S
        assert scaled.scaling is not None and scaled.nondegeneracy in (None, [])
        if kind == "planted":
            assert scaled.verification["max_error_over_terms"] < 1e-12
            assert np.array_equal(scaled.V_up[S], -(W_up / s)[S])
        else:
            assert scaled.distance["relative"] == pytest.approx(plain.distance["relative"],
                                                                rel=1e-6)


@pytest.mark.filterwarnings("error")                # no overflow/underflow warnings either
def test_products_far_from_the_skip_are_decided_without_overflow():
    W_up, W_down, _ = blocks()["planted"]
    result = absorb_mod.absorb(get_family("relu"), W_down * 1e75, W_up * 1e75)
    assert result.verdict == absorb_mod.NOT_ABSORBABLE, result.summary
    tiny = absorb_mod.absorb(get_family("relu"), W_down * 1e-300, W_up)
    assert tiny.verdict == absorb_mod.NOT_ABSORBABLE and tiny.nondegeneracy == []


@pytest.mark.filterwarnings("error")
def test_cli_absorb_on_1e300_weights_has_no_traceback(tmp_path):
    W_up, W_down, S = blocks()["planted"]
    path = tmp_path / "big.npz"
    np.savez(path, W_down=W_down * 1e300, W_up=W_up * 1e-300)
    result = CliRunner().invoke(main, ["absorb", str(path), "--activation", "relu", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["verdict"] == "absorbable" and data["S"] == S
    assert data["nondegenerate"]["holds"] and data["card_check"]["holds"]
    assert data["scaling"]["exact"]
