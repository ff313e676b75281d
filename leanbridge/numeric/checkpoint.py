"""A model checkpoint as it is stored, opened lazily: headers first, one tensor at a time.

CHECKPOINT (``leanbridge scan``) is one of

* a ``.safetensors`` file;
* a sharded safetensors checkpoint: its index ``*.safetensors.index.json`` (whose
  ``weight_map`` maps each tensor name to a shard file beside it) and the shards;
* an ``.npz`` archive (``numpy.savez``);
* a directory holding one of these — looked for in the order ``model.safetensors.index.json``,
  a single ``*.safetensors.index.json``, ``model.safetensors``, a single ``*.safetensors``, a
  single ``*.npz`` — and optionally the model's ``config.json``.

For a file, a ``config.json`` beside it is read as well (as Hugging Face directories have it).

Opening reads only headers: the safetensors header of every shard (so a truncated or damaged
shard is reported before any work, naming it) and the index; a tensor the index lists but its
shard lacks is an error naming both. :meth:`Checkpoint.read` then reads one tensor (safetensors
memory-maps the file; an .npz member is decompressed alone), so a scan holds one block's
tensors at a time, never the whole model. Errors are
:class:`~leanbridge.numeric.errors.NumericInputError` with a one-line message.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path

from leanbridge.numeric.errors import NumericInputError
from leanbridge.numeric.weights import WeightFile

INDEX_SUFFIX = ".safetensors.index.json"
_MAX_LISTED = 12


@dataclass(frozen=True)
class TensorInfo:
    """Name, shape and stored dtype of one tensor, from its file's header."""

    key: str
    shape: tuple[int, ...]
    dtype: str
    file: Path

    @property
    def nbytes(self) -> int:
        size = 1
        for dim in self.shape:
            size *= dim
        return size * _itemsize(self.dtype)


def _itemsize(dtype: str) -> int:
    name = dtype.lower()
    for digits in ("64", "32", "16", "8"):
        if digits in name:
            return int(digits) // 8
    return 8 if name in ("float", "double", "int", "complex") else 1


def _listing(names, limit: int = _MAX_LISTED) -> str:
    names = list(names)
    shown = ", ".join(names[:limit])
    more = len(names) - limit
    return (shown + (f", … ({more} more)" if more > 0 else "")) if names else "(none)"


class Checkpoint:
    """A checkpoint opened for reading: ``keys``, ``info(key)``, ``read(key)``.

    ``format`` is ``safetensors``, ``safetensors-sharded`` or ``npz``; ``files`` the weight files
    (shards in index order); ``config`` the parsed ``config.json`` (or None) and ``config_path``
    where it was found. ``reads`` counts the tensors read so far.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise NumericInputError(f"checkpoint {self.path} does not exist")
        weights, folder = self._locate(self.path)
        self.reads = 0
        self._lock = threading.Lock()   # counts reads; serialises .npz reads (one zip handle)
        self.config_path: Path | None = None
        self.config: dict | None = None
        config = folder / "config.json"
        if config.is_file():
            self.config_path = config
            self.config = _read_config(config)
        self._files: dict[Path, WeightFile] = {}
        self._where: dict[str, Path] = {}
        if weights.name.endswith(INDEX_SUFFIX):
            self.format = "safetensors-sharded"
            self.index_path: Path | None = weights
            self._open_sharded(weights)
        else:
            self.format = "npz" if weights.suffix.lower() == ".npz" else "safetensors"
            self.index_path = None
            handle = WeightFile(weights)
            self._files[weights] = handle
            self._where = {key: weights for key in handle.keys}
        self.files: list[Path] = list(self._files)
        self.keys: list[str] = list(self._where)

    # ---------------------------------------------------------------------------------------
    @staticmethod
    def _locate(path: Path) -> tuple[Path, Path]:
        """(the weights file or index, the folder holding config.json)."""
        if path.is_dir():
            return _pick_in_directory(path), path
        name = path.name.lower()
        if name.endswith((INDEX_SUFFIX, ".safetensors", ".npz")):
            return path, path.parent
        raise NumericInputError(
            f"cannot tell what {path.name} is: CHECKPOINT is a .safetensors file, a sharded "
            f"checkpoint's {INDEX_SUFFIX.lstrip('.')} index, an .npz archive, or a directory "
            "holding one of these")

    def _open_sharded(self, index: Path) -> None:
        try:
            data = json.loads(index.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise NumericInputError(f"cannot read the index {index}: {exc}") from None
        except json.JSONDecodeError as exc:
            raise NumericInputError(f"the index {index} is not valid JSON: {exc.msg} (line "
                                    f"{exc.lineno})") from None
        weight_map = data.get("weight_map") if isinstance(data, dict) else None
        if not isinstance(weight_map, dict) or not weight_map or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in weight_map.items()):
            raise NumericInputError(f"the index {index} has no \"weight_map\" of tensor names "
                                    "to shard files")
        shards: dict[str, Path] = {}
        for shard in dict.fromkeys(weight_map.values()):
            file = index.parent / shard
            if Path(shard).is_absolute() or ".." in Path(shard).parts:
                raise NumericInputError(f"the index {index.name} names the shard {shard!r} "
                                        "outside its directory")
            if not file.is_file():
                raise NumericInputError(f"shard {shard} (listed in {index.name}) is missing in "
                                        f"{index.parent}")
            if file.suffix.lower() != ".safetensors":
                raise NumericInputError(f"shard {shard} (listed in {index.name}) is not a "
                                        ".safetensors file")
            shards[shard] = file
            self._files[file] = WeightFile(file)      # reads the header: truncation shows here
        present = {file: set(handle.keys) for file, handle in self._files.items()}
        for key, shard in weight_map.items():
            if key not in present[shards[shard]]:
                raise NumericInputError(f"tensor {key!r} is listed in {index.name} under "
                                        f"{shard}, but that shard does not contain it")
            self._where[key] = shards[shard]

    # ---------------------------------------------------------------------------------------
    def describe(self) -> str:
        """One line: what was opened."""
        if self.format == "safetensors-sharded":
            text = f"{self.index_path} (safetensors, {len(self.files)} shard(s))"
        else:
            text = f"{self.files[0]} ({self.format})"
        return text + (f"; config {self.config_path}" if self.config_path else "; no config.json")

    def has(self, key: str) -> bool:
        return key in self._where

    def info(self, key: str) -> TensorInfo:
        """Shape and dtype of ``key`` from the header (no data is read)."""
        file = self._where.get(key)
        if file is None:
            raise NumericInputError(f"tensor {key!r} is not in the checkpoint {self.path}")
        shape, dtype = self._files[file].info(key)
        return TensorInfo(key, tuple(int(x) for x in shape), str(dtype), file)

    def read(self, key: str, ndim: int = 2, stored: bool = False):
        """(float64 array, machine epsilon of the stored dtype) of one tensor; with ``stored``
        a float32 (or float16, widened) tensor stays float32 (see
        :func:`~leanbridge.numeric.weights.to_float64`)."""
        info = self.info(key)
        label = f"tensor {key!r} ({info.file.name})"
        with self._lock:
            self.reads += 1
            if self.format == "npz":
                return self._files[info.file].read(key, label, ndim, stored)
        return self._files[info.file].read(key, label, ndim, stored)


def _pick_in_directory(folder: Path) -> Path:
    files = sorted(p for p in folder.iterdir() if p.is_file())
    names = [p.name for p in files]
    indexes = [p for p in files if p.name.endswith(INDEX_SUFFIX)]
    for choice in (
            [p for p in indexes if p.name == "model" + INDEX_SUFFIX] or indexes,
            [p for p in files if p.name == "model.safetensors"]
            or [p for p in files if p.suffix == ".safetensors"],
            [p for p in files if p.suffix == ".npz"]):
        if len(choice) == 1:
            return choice[0]
        if len(choice) > 1:
            raise NumericInputError(
                f"{folder} holds several candidate checkpoints ({_listing(p.name for p in choice)}"
                "); pass one file (or the sharded checkpoint's index) as CHECKPOINT")
    hint = ""
    if any(n.endswith((".bin", ".pt", ".pth")) for n in names):
        hint = ("; PyTorch .bin/.pt checkpoints are not scanned (they load whole): convert "
                "them to safetensors")
    raise NumericInputError(f"no .safetensors file, {INDEX_SUFFIX.lstrip('.')} index or .npz in "
                            f"{folder} (files: {_listing(names)}){hint}")


def _read_config(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise NumericInputError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise NumericInputError(f"{path} is not valid JSON: {exc.msg} (line {exc.lineno})") \
            from None
    if not isinstance(data, dict):
        raise NumericInputError(f"{path} does not hold a JSON object")
    return data
