"""Loading a block from .npz / .safetensors / .pt: formats, dtypes, default keys, shape checks."""

import json
import struct

import pytest

from leanbridge.numeric.errors import MissingDependencyError, NumericInputError
from leanbridge.numeric.weights import WeightFile, load_block

np = pytest.importorskip("numpy")


def _block(d=4, n=10, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((d, n)), rng.standard_normal((n, d))


def test_npz_with_default_keys(tmp_path):
    W_down, W_up = _block()
    path = tmp_path / "block.npz"
    np.savez(path, W_down=W_down, W_up=W_up)
    block = load_block(path)
    assert block.keys == {"down": "W_down", "up": "W_up"}
    assert (block.d, block.n) == (4, 10)
    assert np.array_equal(block.W_down, W_down) and np.array_equal(block.W_up, W_up)
    assert block.A is None and block.eps == 2.0 ** -52


def test_safetensors_float32_huggingface_names(tmp_path):
    safetensors_numpy = pytest.importorskip("safetensors.numpy")
    W_down, W_up = _block()
    path = tmp_path / "model.safetensors"
    safetensors_numpy.save_file({
        "model.layers.0.mlp.down_proj.weight": W_down.astype(np.float32),
        "model.layers.0.mlp.up_proj.weight": W_up.astype(np.float32),
        "model.layers.0.mlp.up_proj.bias": np.zeros(10, np.float32),
    }, str(path))
    block = load_block(path)
    assert block.keys["down"] == "model.layers.0.mlp.down_proj.weight"
    assert block.W_down.dtype == np.float64
    assert block.eps == 2.0 ** -23
    assert np.allclose(block.W_up, W_up, rtol=1e-6)
    assert any("biases" in note for note in block.notes)


def test_safetensors_float16(tmp_path):
    safetensors_numpy = pytest.importorskip("safetensors.numpy")
    W_down, W_up = _block()
    path = tmp_path / "half.safetensors"
    safetensors_numpy.save_file({"down": W_down.astype(np.float16),
                                 "up": W_up.astype(np.float16)}, str(path))
    block = load_block(path)
    assert block.eps == 2.0 ** -10


def _write_bf16_safetensors(path, tensors):
    """A safetensors file with BF16 tensors, written by hand (NumPy has no bfloat16)."""
    header, blobs, offset = {}, [], 0
    for name, array in tensors.items():
        bits = (np.asarray(array, np.float32).view(np.uint32) >> 16).astype("<u2").tobytes()
        header[name] = {"dtype": "BF16", "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(bits)]}
        blobs.append(bits)
        offset += len(bits)
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def test_safetensors_bfloat16_is_decoded(tmp_path):
    pytest.importorskip("safetensors")
    W_down = np.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]])     # exact in bfloat16
    W_up = np.array([[1.0, 2.0], [-0.5, 4.0], [0.125, -8.0]])
    path = tmp_path / "bf16.safetensors"
    _write_bf16_safetensors(path, {"w_down": W_down, "w_up": W_up})
    block = load_block(path)
    assert np.array_equal(block.W_down, W_down) and np.array_equal(block.W_up, W_up)
    assert block.eps == 2.0 ** -7


def test_pt_state_dict(tmp_path):
    torch = pytest.importorskip("torch", reason="torch is not installed: .pt loading untested")
    W_down, W_up = _block()
    path = tmp_path / "block.pt"
    torch.save({"mlp.fc2.weight": torch.tensor(W_down), "mlp.fc1.weight": torch.tensor(W_up)},
               path)
    block = load_block(path)
    assert block.keys == {"down": "mlp.fc2.weight", "up": "mlp.fc1.weight"}
    assert np.array_equal(block.W_down, W_down)


def test_pt_without_torch_names_the_pip_command(tmp_path):
    try:
        import torch  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("torch is installed")
    path = tmp_path / "block.pt"
    path.write_bytes(b"not really a pickle")
    with pytest.raises(MissingDependencyError, match="pip install torch"):
        WeightFile(path)


def test_gpt2_conv1d_layout_needs_transpose(tmp_path):
    W_down, W_up = _block(d=4, n=10)
    path = tmp_path / "gpt2.npz"
    np.savez(path, **{"h.0.mlp.c_fc.weight": W_up.T, "h.0.mlp.c_proj.weight": W_down.T,
                      "h.0.attn.c_proj.weight": np.eye(4)})
    plain = load_block(path)             # shapes are consistent either way …
    assert (plain.d, plain.n) == (10, 4)
    assert any("--transpose" in note for note in plain.notes)   # … so a note says so
    block = load_block(path, transpose=True)
    assert block.keys["down"] == "h.0.mlp.c_proj.weight"     # attn.c_proj is not a candidate
    assert np.array_equal(block.W_down, W_down) and (block.d, block.n) == (4, 10)


def test_skip_key_and_skip_like_note(tmp_path):
    W_down, W_up = _block()
    A = np.eye(4) * 2
    path = tmp_path / "skip.npz"
    np.savez(path, W_down=W_down, W_up=W_up, skip=A)
    assert any("--skip" in note for note in load_block(path).notes)
    block = load_block(path, skip="skip")
    assert np.array_equal(block.A, A) and block.keys["skip"] == "skip"


@pytest.mark.parametrize("arrays, kwargs, message", [
    ({"W_down": np.ones((4, 10)), "W_up": np.ones((10, 4))}, {"down": "nope"},
     "--down 'nope': no such key in x.npz; available keys: W_down, W_up"),
    ({"a1": np.ones((4, 10)), "b1": np.ones((10, 4))}, {},
     "no key of x.npz looks like W_down"),
    ({"l0.down": np.ones((4, 10)), "l1.down": np.ones((4, 10)), "up": np.ones((10, 4))}, {},
     "several keys of x.npz look like W_down (d×n): l0.down, l1.down; pick one with --down"),
    ({"W_down": np.ones((4, 10)), "W_up": np.ones((10, 5))}, {},
     ("shape mismatch: W_down 'W_down' is 4×10 (d×n, so d = 4, n = 10) but W_up 'W_up' is "
      "10×5; expected n×d = 10×4")),
    ({"W_down": np.ones((4, 10)), "W_up": np.ones((10, 4)), "A": np.ones((3, 3))},
     {"skip": "A"}, "the skip must be d×d = 4×4"),
    ({"W_down": np.ones(10), "W_up": np.ones((10, 4))}, {}, "a matrix (2 dimensions) is needed"),
    ({"W_down": np.full((4, 10), np.nan), "W_up": np.ones((10, 4))}, {},
     "contains NaN or infinite entries"),
    ({"W_down": np.array([["a"] * 10] * 4), "W_up": np.ones((10, 4))}, {},
     "a real matrix is needed"),
])
def test_bad_weight_files(tmp_path, arrays, kwargs, message):
    path = tmp_path / "x.npz"
    np.savez(path, **arrays)
    with pytest.raises(NumericInputError) as info:
        load_block(path, **kwargs)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_unreadable_and_unknown_files(tmp_path):
    with pytest.raises(NumericInputError, match="does not exist"):
        WeightFile(tmp_path / "missing.npz")
    bad = tmp_path / "broken.npz"
    bad.write_bytes(b"garbage")
    with pytest.raises(NumericInputError, match="cannot read .* as .npz"):
        WeightFile(bad)
    other = tmp_path / "weights.h5"
    other.write_bytes(b"")
    with pytest.raises(NumericInputError, match="expected one of"):
        WeightFile(other)
    single = tmp_path / "single.npz"
    np.save(tmp_path / "single.npy", np.ones(3))
    (tmp_path / "single.npy").rename(single)
    with pytest.raises(NumericInputError, match="single array"):
        WeightFile(single)


def test_broken_safetensors_file(tmp_path):
    pytest.importorskip("safetensors")
    bad = tmp_path / "broken.safetensors"
    bad.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not json}")
    with pytest.raises(NumericInputError, match="cannot read .* as .safetensors"):
        WeightFile(bad)


class _FakeTensor:
    """Just enough of a torch.Tensor for the .pt reader."""

    def __init__(self, array, dtype="float32"):
        self.array, self.dtype = np.asarray(array), dtype

    def detach(self):
        return self

    def cpu(self):
        return self

    def float(self):
        return _FakeTensor(self.array.astype(np.float32), "float32")

    def numpy(self):
        return self.array


def test_pt_reader_logic_with_a_stand_in_for_torch(tmp_path, monkeypatch):
    """The .pt code path (state_dict wrapper, bfloat16 widening) without installing torch."""
    import types

    W_down, W_up = _block()
    saved = {"state_dict": {"mlp.down_proj.weight": _FakeTensor(W_down, "bfloat16"),
                            "mlp.up_proj.weight": _FakeTensor(W_up),
                            "step": 3}}
    fake = types.SimpleNamespace(bfloat16="bfloat16",
                                 load=lambda path, map_location, weights_only: saved)
    monkeypatch.setitem(__import__("sys").modules, "torch", fake)
    path = tmp_path / "ckpt.pt"
    path.write_bytes(b"")
    block = load_block(path)
    assert block.keys == {"down": "mlp.down_proj.weight", "up": "mlp.up_proj.weight"}
    assert np.allclose(block.W_down, W_down.astype(np.float32))
    assert block.eps == 2.0 ** -7                 # bfloat16 precision is remembered
    fake.load = lambda path, map_location, weights_only: [1, 2]
    with pytest.raises(NumericInputError, match="does not hold a state dict"):
        WeightFile(path)
