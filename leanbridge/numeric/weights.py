"""Load one MLP block's matrices from a weights file.

Formats, chosen by the file extension:

* ``.npz`` — NumPy archive (``numpy.savez``), read lazily key by key;
* ``.safetensors`` — the safetensors package's NumPy API (``safe_open(..., framework="numpy")``),
  read lazily; ``BF16`` tensors (which NumPy has no dtype for) are decoded from the raw bytes;
* ``.pt`` / ``.pth`` / ``.bin`` — a PyTorch state dict, when torch is importable
  (``torch.load(..., map_location="cpu", weights_only=True)``).

Orientation is PyTorch's ``nn.Linear`` (out × in): ``W_down`` is d×n, ``W_up`` is n×d and the
skip ``A`` is d×d. Files storing (in × out) matrices (GPT-2's ``Conv1D``: ``c_fc``, ``c_proj``)
need ``transpose=True``. Everything is converted to float64 exactly (float16 and bfloat16
values are exact float64 numbers); the machine epsilon of the stored dtype is kept as
information only: the decision takes the stored numbers as the block and its tolerances are
float64's whatever the dtype (see :mod:`.absorb`).

Errors are :class:`~leanbridge.numeric.errors.NumericInputError` with a one-line message that
lists the available keys when a key is missing or ambiguous.
"""

from __future__ import annotations

import json
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from leanbridge.numeric.errors import NumericInputError, need

#: Extension → format name.
FORMATS = {".npz": "npz", ".safetensors": "safetensors", ".pt": "pt", ".pth": "pt",
           ".bin": "pt"}

#: Last key component (after dropping a trailing ``.weight``) recognised for each role.
DOWN_NAMES = ("w_down", "wdown", "down", "down_proj", "fc2", "dense_4h_to_h")
UP_NAMES = ("w_up", "wup", "up", "up_proj", "fc1", "dense_h_to_4h", "c_fc")
SKIP_NAMES = ("a", "skip", "w_skip", "skip_proj", "h_res")
# GPT-2 calls both attention's and the MLP's output projection c_proj: only mlp.c_proj counts.
_DOWN_AFTER_MLP = ("c_proj",)

_MAX_LISTED = 30

# safetensors dtype names → (numpy dtype string or None for bf16, machine epsilon)
_EPS = {"float64": 2.0 ** -52, "float32": 2.0 ** -23, "float16": 2.0 ** -10,
        "bfloat16": 2.0 ** -7}


def _key_list(keys: list[str]) -> str:
    shown = ", ".join(keys[:_MAX_LISTED])
    more = len(keys) - _MAX_LISTED
    return shown + (f", … ({more} more)" if more > 0 else "") if keys else "(none)"


def _role_of(key: str) -> str | None:
    parts = key.lower().split(".")
    if len(parts) > 1 and parts[-1] == "weight":
        parts = parts[:-1]
    last = parts[-1]
    prev = parts[-2] if len(parts) > 1 else ""
    if last in DOWN_NAMES or (last in _DOWN_AFTER_MLP and prev == "mlp"):
        return "down"
    if last in UP_NAMES:
        return "up"
    if last in SKIP_NAMES:
        return "skip"
    return None


def _is_bias(key: str) -> bool:
    low = key.lower()
    return low.endswith("bias") or low.split(".")[-1] in ("b_up", "b_down", "b")


# --------------------------------------------------------------------------------------------
# File backends
# --------------------------------------------------------------------------------------------

#: How a zip archive starts (a local file header; an empty archive's end record) — what
#: ``numpy.load`` itself tests before it reads a file as .npz — and how a .npy array starts.
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_NPY_MAGIC = b"\x93NUMPY"


class _Npz:
    def __init__(self, path: Path) -> None:
        np = need("numpy", "reading .npz weights")
        try:
            with path.open("rb") as stream:
                head = stream.read(len(_NPY_MAGIC))
        except OSError as exc:
            raise NumericInputError(f"cannot read {path} as .npz: {_one_line(exc)}") from None
        # Told apart before numpy.load, which would try a file that is neither zip nor .npy
        # as a pickle (and say "pickled data" about a text file).
        if head.startswith(_NPY_MAGIC):
            raise NumericInputError(f"{path} holds a single array (.npy), not an .npz archive "
                                    "of named arrays (save it with numpy.savez(path, W_down=…, "
                                    "W_up=…))")
        if not head.startswith(_ZIP_MAGIC):
            raise NumericInputError(f"cannot read {path} as .npz: not a .npz (zip) archive"
                                    + (" (the file is empty)" if not head else ""))
        try:
            self._file = np.load(path, allow_pickle=False)
        except zipfile.BadZipFile:
            raise NumericInputError(f"cannot read {path} as .npz: damaged or truncated zip "
                                    "archive") from None
        except Exception as exc:  # noqa: BLE001 - any failure is a bad input file
            raise NumericInputError(f"cannot read {path} as .npz: {_one_line(exc)}") from None
        self.keys = list(self._file.files)
        self._path = path

    def get(self, key: str):
        """The member ``key``; a corrupt member (bad CRC, damaged .npy header, truncated
        data) or an object array is a :class:`NumericInputError` naming it."""
        self.info(key)          # the header first: a damaged one is said so, in user terms
        try:
            return self._file[key]
        except Exception as exc:  # noqa: BLE001 - zipfile, zlib, numpy.lib.format errors
            raise NumericInputError(f"cannot read {key!r} from {self._path}: "
                                    f"{_npz_error(exc)}") from None

    def info(self, key: str) -> tuple[tuple[int, ...], str]:
        """(shape, dtype name) of member ``key`` from its .npy header, without its data."""
        np = need("numpy", "reading .npz weights")
        fmt = np.lib.format
        names = set(self._file.zip.namelist())
        member = key + ".npy" if key + ".npy" in names else key
        where = f"cannot read {key!r} from {self._path}"
        try:
            with self._file.zip.open(member) as stream:
                if stream.read(len(_NPY_MAGIC)) != _NPY_MAGIC:
                    raise NumericInputError(f"{where}: the member is not a .npy array")
                stream.seek(0)
                version = fmt.read_magic(stream)
                reader = fmt.read_array_header_1_0 if version == (1, 0) \
                    else fmt.read_array_header_2_0
                try:
                    shape, _fortran, dtype = reader(stream)
                except (zipfile.BadZipFile, zlib.error, EOFError, OSError):
                    raise
                except Exception:  # noqa: BLE001 - ValueError, SyntaxError, tokenize errors
                    raise NumericInputError(f"{where}: corrupt .npy header") from None
        except NumericInputError:
            raise
        except Exception as exc:  # noqa: BLE001 - zipfile, zlib (bad CRC, truncated data)
            raise NumericInputError(f"{where}: {_npz_error(exc)}") from None
        if dtype.hasobject:
            raise NumericInputError(f"{key!r} in {self._path} is an object array (pickled "
                                    "Python objects), which leanbridge does not load; save "
                                    "numeric arrays")
        return tuple(int(x) for x in shape), dtype.name


class _SafeTensors:
    def __init__(self, path: Path) -> None:
        need("safetensors", "reading .safetensors weights")
        from safetensors import safe_open

        self._path = path
        try:
            with safe_open(str(path), framework="numpy") as handle:
                self.keys = list(handle.keys())
                slices = {k: handle.get_slice(k) for k in self.keys}
                self._dtypes = {k: s.get_dtype() for k, s in slices.items()}
                self._shapes = {k: tuple(s.get_shape()) for k, s in slices.items()}
        except Exception as exc:  # noqa: BLE001
            raise NumericInputError(f"cannot read {path} as .safetensors: "
                                    f"{_one_line(exc)}") from None

    def get(self, key: str):
        np = need("numpy", "reading .safetensors weights")
        if self._dtypes.get(key) == "BF16":
            return self._bf16(key, np)
        from safetensors import safe_open

        try:
            with safe_open(str(self._path), framework="numpy") as handle:
                return handle.get_tensor(key)
        except Exception as exc:  # noqa: BLE001
            raise NumericInputError(f"cannot read tensor {key!r} of {self._path}: "
                                    f"{_one_line(exc)}") from None

    def _bf16(self, key: str, np):
        """NumPy has no bfloat16: widen the raw 16-bit patterns to float32."""
        with open(self._path, "rb") as stream:
            (length,) = struct.unpack("<Q", stream.read(8))
            header = json.loads(stream.read(length))
            entry = header[key]
            start, end = entry["data_offsets"]
            stream.seek(8 + length + start)
            raw = np.frombuffer(stream.read(end - start), dtype="<u2")
        return (raw.astype(np.uint32) << 16).view(np.float32).reshape(entry["shape"])

    def eps(self, key: str) -> float | None:
        return _EPS["bfloat16"] if self._dtypes.get(key) == "BF16" else None

    def info(self, key: str) -> tuple[tuple[int, ...], str]:
        """(shape, safetensors dtype name such as ``F32``) from the header."""
        return self._shapes[key], self._dtypes[key]


class _Torch:
    def __init__(self, path: Path) -> None:
        torch = need("torch", "reading PyTorch .pt state dicts", pip="pip install torch")
        try:
            data = torch.load(str(path), map_location="cpu", weights_only=True)
        except Exception as exc:  # noqa: BLE001
            raise NumericInputError(f"cannot read {path} as a PyTorch state dict: "
                                    f"{_one_line(exc)}") from None
        if isinstance(data, dict):
            for wrapper in ("state_dict", "model", "module"):
                inner = data.get(wrapper)
                if isinstance(inner, dict) and len(data) == 1:
                    data = inner
        if not isinstance(data, dict):
            raise NumericInputError(f"{path} does not hold a state dict (a dict of tensors) "
                                    f"but a {type(data).__name__}")
        self._tensors = {str(k): v for k, v in data.items() if hasattr(v, "detach")}
        self.keys = list(self._tensors)
        self._torch = torch

    def get(self, key: str):
        tensor = self._tensors[key].detach().cpu()
        if tensor.dtype == self._torch.bfloat16:
            tensor = tensor.float()
        return tensor.numpy()

    def eps(self, key: str) -> float | None:
        return _EPS["bfloat16"] if self._tensors[key].dtype == self._torch.bfloat16 else None


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _npz_error(exc: BaseException) -> str:
    text = _one_line(exc)
    if "allow_pickle" in text:
        return ("it is an object array (pickled Python objects), which leanbridge does not "
                "load; save numeric arrays")
    if len(text) > 200:  # numpy quotes a whole damaged header
        text = text[:200] + " …"
    return text


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------

class WeightFile:
    """A weights file opened lazily: ``keys`` and ``array(key)`` (float64)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise NumericInputError(f"weights file {self.path} does not exist")
        if not self.path.is_file():
            raise NumericInputError(f"weights file {self.path} is not a file")
        suffix = self.path.suffix.lower()
        self.format = FORMATS.get(suffix)
        if self.format is None:
            raise NumericInputError(
                f"cannot tell the format of {self.path.name} from its extension "
                f"{suffix or '(none)'}; expected one of {', '.join(sorted(FORMATS))}")
        backend = {"npz": _Npz, "safetensors": _SafeTensors, "pt": _Torch}[self.format]
        self._backend = backend(self.path)
        self.keys: list[str] = list(self._backend.keys)
        self._eps: dict[str, float] = {}

    def require(self, key: str, option: str) -> None:
        if key not in self.keys:
            raise NumericInputError(
                f"{option} {key!r}: no such key in {self.path.name}; available keys: "
                f"{_key_list(self.keys)}")

    def array(self, key: str, option: str, ndim: int = 2):
        """The array stored under ``key`` as a float64 matrix (``ndim`` 1: vector), nonempty
        and finite."""
        self.require(key, option)
        out, eps = self.read(key, f"{option} {key!r}", ndim)
        self._eps[key] = eps
        return out

    def read(self, key: str, label: str, ndim: int = 2, stored: bool = False):
        """(float64 copy — float32 kept as is with ``stored`` —, machine epsilon of the stored
        dtype) of ``key`` (see :func:`to_float64`; ``label`` names the tensor in errors)."""
        return to_float64(self._backend.get(key), label, ndim,
                          getattr(self._backend, "eps", lambda k: None)(key), stored)

    def eps(self, key: str) -> float:
        """Machine epsilon of the dtype ``key`` is stored in (after :meth:`array`)."""
        return self._eps.get(key, 0.0)

    def info(self, key: str) -> tuple[tuple[int, ...], str]:
        """(shape, dtype name) of ``key`` from the file's header, without reading the data
        (.npz and .safetensors; a PyTorch state dict is loaded whole anyway)."""
        info = getattr(self._backend, "info", None)
        if info is not None:
            return info(key)
        tensor = self._backend._tensors[key]
        return tuple(int(x) for x in tensor.shape), str(tensor.dtype).replace("torch.", "")

    def default_key(self, role: str, option: str) -> str:
        """The key a role defaults to: the only key whose name marks that role."""
        matches = [k for k in self.keys if _role_of(k) == role]
        names = {"down": DOWN_NAMES, "up": UP_NAMES, "skip": SKIP_NAMES}[role]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise NumericInputError(
                f"no key of {self.path.name} looks like {_ROLE_TEXT[role]} (names ending in "
                f"{', '.join(names)}); pass {option} KEY; available keys: {_key_list(self.keys)}")
        raise NumericInputError(
            f"several keys of {self.path.name} look like {_ROLE_TEXT[role]}: "
            f"{_key_list(matches)}; pick one with {option} KEY")

    def skip_like_keys(self) -> list[str]:
        return [k for k in self.keys if _role_of(k) == "skip"]

    def bias_keys(self) -> list[str]:
        return [k for k in self.keys if _is_bias(k)]


_ROLE_TEXT = {"down": "W_down (d×n)", "up": "W_up (n×d)", "skip": "a skip matrix A (d×d)"}


def to_float64(raw, label: str, ndim: int = 2, eps: float | None = None,
               stored: bool = False):
    """(float64 copy of ``raw``, machine epsilon of its stored dtype), checked: ``ndim``
    dimensions (2: a matrix, 1: a bias vector), no zero dimension, a real dtype, finite.
    ``eps`` overrides the epsilon (bfloat16 arrives widened to float32). ``label`` names the
    tensor in the one-line :class:`NumericInputError`. ``stored``: float32 and float64 arrays
    are returned as they are (float16 widened to float32, exactly), not copied to float64 —
    for callers that form their float64 products from tiles (``leanbridge scan``: half the
    memory of a float32 block)."""
    np = need("numpy", "numerics on weights")
    arr = np.asarray(raw)
    what = {1: "a vector (1 dimension)", 2: "a matrix (2 dimensions)"}[ndim]
    if arr.ndim != ndim:
        raise NumericInputError(f"{label} has shape {_shape(arr.shape)}; {what} is needed")
    if 0 in arr.shape:
        raise NumericInputError(f"{label} has shape {_shape(arr.shape)}: it is empty (a "
                                "dimension is 0; the block needs d ≥ 1 and n ≥ 1)")
    if not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)):
        kind = "matrix" if ndim == 2 else "vector"
        raise NumericInputError(f"{label} has dtype {arr.dtype}; a real {kind} is needed")
    if eps is None:
        eps = float(np.finfo(arr.dtype).eps) if np.issubdtype(arr.dtype, np.floating) else 0.0
    if stored and arr.dtype in (np.float32, np.float64):
        out = arr
    elif stored and arr.dtype == np.float16:
        out = arr.astype(np.float32)
    else:
        out = arr.astype(np.float64, copy=True)
    if not np.isfinite(out).all():
        raise NumericInputError(f"{label} contains NaN or infinite entries")
    return out, eps


def _shape(shape) -> str:
    return "×".join(str(s) for s in shape) if shape else "scalar"


@dataclass
class Block:
    """An ungated block x ↦ A x + W_down σ(W_up x) read from a file (A = None: identity)."""

    W_down: object
    W_up: object
    A: object | None
    keys: dict[str, str]
    eps: float                       # largest machine epsilon among the stored inputs
    notes: list[str] = field(default_factory=list)

    @property
    def d(self) -> int:
        return self.W_down.shape[0]

    @property
    def n(self) -> int:
        return self.W_down.shape[1]


def load_block(path: str | Path, down: str | None = None, up: str | None = None,
               skip: str | None = None, transpose: bool = False) -> Block:
    """Open ``path`` and read W_down, W_up (and the skip A when ``skip`` is given).

    Defaults for ``down``/``up``: the single key named like one (see ``DOWN_NAMES``,
    ``UP_NAMES``). Shapes are checked: W_down d×n, W_up n×d, A d×d.
    """
    wf = WeightFile(path)
    return block_from(wf, down, up, skip, transpose)


def block_from(wf: WeightFile, down: str | None, up: str | None, skip: str | None,
               transpose: bool) -> Block:
    down_key = down if down is not None else wf.default_key("down", "--down")
    up_key = up if up is not None else wf.default_key("up", "--up")
    if down_key == up_key:
        raise NumericInputError(f"--down and --up both name {down_key!r}")
    W_down = wf.array(down_key, "--down")
    W_up = wf.array(up_key, "--up")
    if transpose:
        W_down, W_up = W_down.T.copy(), W_up.T.copy()
    d, n = W_down.shape
    flipped = " (after --transpose)" if transpose else ""
    if W_up.shape != (n, d):
        raise NumericInputError(
            f"shape mismatch{flipped}: W_down {down_key!r} is {_shape(W_down.shape)} (d×n, so "
            f"d = {d}, n = {n}) but W_up {up_key!r} is {_shape(W_up.shape)}; expected n×d = "
            f"{n}×{d}")
    keys = {"down": down_key, "up": up_key}
    eps = max(wf.eps(down_key), wf.eps(up_key))
    A = None
    notes: list[str] = []
    if skip is not None:
        A = wf.array(skip, "--skip")
        if A.shape != (d, d):
            raise NumericInputError(f"--skip {skip!r} is {_shape(A.shape)}; the skip must be "
                                    f"d×d = {d}×{d} (d from W_down {down_key!r})")
        keys["skip"] = skip
        eps = max(eps, wf.eps(skip))
    else:
        unused = wf.skip_like_keys()
        if unused:
            notes.append(f"the file has {_key_list(unused)}, which looks like a skip matrix; "
                         "it is not used (identity skip) unless you pass --skip KEY")
    biases = wf.bias_keys()
    if biases:
        notes.append(f"the file has biases ({_key_list(biases)}); the paper's results are for "
                     "bias-free blocks, and they are ignored here")
    if n < d:
        notes.append(f"the hidden width n = {n} is smaller than d = {d}; if the file stores "
                     "(in, out) matrices (GPT-2's Conv1D does), pass --transpose")
    return Block(W_down, W_up, A, keys, eps, notes)
