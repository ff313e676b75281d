"""Where the MLP blocks of common model families live in a checkpoint, and their activation.

A :class:`Layout` names, relative to a numbered layer ``<prefix><N>.``, the up-projection,
the down-projection (and for gated blocks the gate), and the orientation they are stored in:

=========  =======================================  ==========================================
layout     models                                   tensors of layer N (``.weight``/``.bias``)
=========  =======================================  ==========================================
gpt2       GPT-2 (Conv1D: stored in × out)          ``h.N.mlp.c_fc``, ``h.N.mlp.c_proj``
gpt-neox   GPT-NeoX / Pythia (Falcon, BLOOM too)    ``N.mlp.dense_h_to_4h``, ``N.mlp.dense_4h_to_h``
bert       BERT / RoBERTa                           ``N.intermediate.dense``, ``N.output.dense``
opt        OPT                                      ``N.fc1``, ``N.fc2``
llama      LLaMA / Mistral / Qwen (gated, SwiGLU)   ``N.mlp.gate_proj``, ``up_proj``, ``down_proj``
=========  =======================================  ==========================================

Any prefix before the layer number is accepted (``transformer.h.3.``, ``model.layers.3.``,
``bert.encoder.layer.3.``, ``model.decoder.layers.3.`` …). Detection uses tensor names only,
and shapes are checked from the headers, so an inconsistent checkpoint is rejected before any
number is read.

The activation comes from ``config.json`` (``hidden_activation``, ``hidden_act`` or
``activation_function``) through :data:`CONFIG_ACTIVATIONS`, or from ``--activation`` (a name
of that table or a catalog family). For gated layouts the configured activation is the gate:
``silu`` → SwiGLU, ``gelu`` → GeGLU, ``relu`` → ReGLU, and the tanh GELU gate is a GeGLU
variant built here from the catalog's ``gelu_tanh``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from leanbridge.families import Family, UnknownFamilyError, family_names, get_family
from leanbridge.numeric.checkpoint import Checkpoint, TensorInfo
from leanbridge.numeric.errors import NumericInputError

_MAX_LISTED = 30


@dataclass(frozen=True)
class Layout:
    """The MLP tensors of one layer, relative to ``<prefix><N>.``."""

    name: str
    models: str
    up: str                  # the up-projection (gated: the value branch W_val)
    down: str
    gate: str | None = None  # gated layouts only
    conv1d: bool = False     # stored (in × out), as GPT-2's Conv1D: transposed on reading

    @property
    def gated(self) -> bool:
        return self.gate is not None

    def roles(self) -> dict[str, str]:
        roles = {"up": self.up, "down": self.down}
        if self.gate is not None:
            roles["gate"] = self.gate
        return roles

    def pattern(self, role: str) -> re.Pattern:
        """``<prefix><N>.<role>.weight`` with groups ``prefix`` and ``index``."""
        return re.compile(r"^(?P<prefix>(?:.*\.)?)(?P<index>\d+)\."
                          + re.escape(self.roles()[role]) + r"\.weight$")

    @property
    def orientation(self) -> str:
        return ("Conv1D, stored in × out (transposed on reading)" if self.conv1d
                else "nn.Linear, stored out × in")


LAYOUTS: tuple[Layout, ...] = (
    Layout("gpt2", "GPT-2", "mlp.c_fc", "mlp.c_proj", conv1d=True),
    Layout("gpt-neox", "GPT-NeoX / Pythia", "mlp.dense_h_to_4h", "mlp.dense_4h_to_h"),
    Layout("bert", "BERT / RoBERTa", "intermediate.dense", "output.dense"),
    Layout("opt", "OPT", "fc1", "fc2"),
    Layout("llama", "LLaMA / Mistral / Qwen", "mlp.up_proj", "mlp.down_proj",
           gate="mlp.gate_proj"),
)
_BY_NAME = {layout.name: layout for layout in LAYOUTS}

#: config.json activation names → catalog family (ungated blocks).
CONFIG_ACTIVATIONS = {
    "gelu": "gelu",
    "gelu_new": "gelu_tanh",
    "gelu_pytorch_tanh": "gelu_tanh",
    "gelu_fast": "gelu_tanh",
    "relu": "relu",
    "silu": "silu",
    "swish": "silu",
}
#: The config.json keys read for the activation, first present wins.
CONFIG_KEYS = ("hidden_activation", "hidden_act", "activation_function")
#: Ungated family → the gated family whose gate it is.
_GATED = {"silu": "swiglu", "gelu": "geglu", "relu": "reglu", "sigmoid": "glu"}
#: config.json keys for the model width d (checked against the tensors' shapes).
_WIDTH_KEYS = ("n_embd", "hidden_size", "d_model")


def _geglu_tanh() -> Family:
    tanh_gelu = get_family("gelu_tanh")
    return Family("geglu_tanh", "GeGLU (tanh)", True, tanh_gelu.expr,
                  "gate GELU, tanh approximation (gelu_pytorch_tanh)", "standard")


def layout_names() -> list[str]:
    return [layout.name for layout in LAYOUTS]


def get_layout(name: str) -> Layout:
    try:
        return _BY_NAME[name]
    except KeyError:
        raise NumericInputError(f"unknown layout {name!r}; known layouts: "
                                f"{', '.join(layout_names())}") from None


def _listing(keys, limit: int = _MAX_LISTED) -> str:
    keys = list(keys)
    more = len(keys) - limit
    return ", ".join(keys[:limit]) + (f", … ({more} more)" if more > 0 else "") \
        if keys else "(none)"


def _known_layouts() -> str:
    return "; ".join(f"{lay.name} ({lay.models}: …N.{lay.up}.weight)" for lay in LAYOUTS)


def detect_layout(keys: list[str]) -> Layout:
    """The one layout whose up-projection names occur among ``keys``."""
    found = [lay for lay in LAYOUTS if any(lay.pattern("up").match(k) for k in keys)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise NumericInputError(
            f"unrecognised layout: no tensor is named like the MLP of a known layout "
            f"({_known_layouts()}); keys seen: {_listing(keys)}")
    raise NumericInputError(
        f"several layouts match the tensor names ({', '.join(lay.name for lay in found)}); "
        "choose one with --layout NAME")


# ------------------------------------------------------------------------------------------
# Blocks
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BlockSpec:
    """One MLP block of a checkpoint: its number, name and tensors (no numbers read)."""

    index: int                         # the block number --blocks selects
    name: str                          # e.g. "transformer.h.3"
    layout: Layout
    tensors: dict[str, TensorInfo]     # up, down, [gate], and up_bias, down_bias, gate_bias
    d: int
    n: int
    notes: tuple[str, ...] = field(default=())

    def key(self, role: str) -> str | None:
        info = self.tensors.get(role)
        return info.key if info else None

    @property
    def bias_roles(self) -> list[str]:
        return [role for role in self.tensors if role.endswith("_bias")]

    @property
    def dtype(self) -> str:
        return self.tensors["up"].dtype

    @property
    def nbytes(self) -> int:
        """Bytes of the block's stored tensors (weights and biases)."""
        return sum(info.nbytes for info in self.tensors.values())


def find_blocks(ckpt: Checkpoint, layout: Layout) -> list[BlockSpec]:
    """Every MLP block of ``layout`` in ``ckpt``, in order, with shapes checked.

    Blocks are numbered by their layer number N; when the layers sit under several prefixes
    (an encoder and a decoder), they are numbered 0, 1, … in the order (prefix, N).
    """
    layers: dict[tuple[str, int], dict[str, str]] = {}
    for key in ckpt.keys:
        for role in layout.roles():
            match = layout.pattern(role).match(key)
            if match:
                where = (match["prefix"], int(match["index"]))
                layers.setdefault(where, {})[role] = key
    if not layers:
        raise NumericInputError(
            f"layout {layout.name} ({layout.models}) matches no tensor of the checkpoint: no "
            f"name ends in N.{layout.up}.weight; keys seen: {_listing(ckpt.keys)}")
    order = sorted(layers)
    single_prefix = len({prefix for prefix, _ in order}) == 1
    width = _config_width(ckpt.config)
    blocks = []
    for number, (prefix, layer) in enumerate(order):
        found = layers[(prefix, layer)]
        stem = f"{prefix}{layer}."
        for role, path in layout.roles().items():
            if role not in found:
                have = ", ".join(repr(k) for k in found.values())
                raise NumericInputError(f"tensor {stem}{path}.weight is missing (block "
                                        f"{stem[:-1]} has {have})")
        tensors = {role: ckpt.info(key) for role, key in found.items()}
        for role, path in layout.roles().items():
            bias = f"{stem}{path}.bias"
            if ckpt.has(bias):
                tensors[f"{role}_bias"] = ckpt.info(bias)
        index = layer if single_prefix else number
        d, n = _check_shapes(stem[:-1], layout, tensors)
        notes = []
        if width is not None and width[1] != d:
            raise NumericInputError(
                f"block {stem[:-1]}: the tensors give d = {d}, but config.json says "
                f"{width[0]} = {width[1]}; is this the {layout.name} layout "
                f"({layout.orientation})? Choose another with --layout")
        if n < d:
            notes.append(f"the hidden width n = {n} is smaller than d = {d}")
        blocks.append(BlockSpec(index, stem[:-1], layout, tensors, d, n, tuple(notes)))
    return blocks


def _config_width(config: dict | None) -> tuple[str, int] | None:
    for key in _WIDTH_KEYS:
        value = (config or {}).get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return key, value
    return None


def _shape(shape) -> str:
    return "×".join(str(s) for s in shape) if shape else "scalar"


def _check_shapes(name: str, layout: Layout, tensors: dict[str, TensorInfo]) -> tuple[int, int]:
    for role, info in tensors.items():
        want = 1 if role.endswith("_bias") else 2
        if len(info.shape) != want:
            what = "a vector" if want == 1 else "a matrix"
            raise NumericInputError(f"tensor {info.key!r} has shape {_shape(info.shape)}; "
                                    f"{what} is needed")
        if 0 in info.shape:
            raise NumericInputError(f"tensor {info.key!r} has shape {_shape(info.shape)}: it is "
                                    "empty (the block needs d ≥ 1 and n ≥ 1)")
    up = tensors["up"].shape
    n, d = (up[1], up[0]) if layout.conv1d else up
    stored = "in × out" if layout.conv1d else "out × in"
    expected = {"up": (n, d), "gate": (n, d), "down": (d, n),
                "up_bias": (n,), "gate_bias": (n,), "down_bias": (d,)}
    for role, info in tensors.items():
        want = expected[role]
        if layout.conv1d and len(want) == 2:
            want = want[::-1]
        if info.shape != want:
            raise NumericInputError(
                f"block {name}: tensor {info.key!r} is {_shape(info.shape)}, expected "
                f"{_shape(want)} (d = {d}, n = {n} from {tensors['up'].key!r}; {layout.name} "
                f"stores {stored})")
    return d, n


def parse_blocks(text: str, available: list[int]) -> list[int]:
    """``0,3,5-7`` → [0, 3, 5, 6, 7] (sorted, duplicates dropped); each must be available."""
    chosen: set[int] = set()
    parts = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not part for part in parts):
        raise NumericInputError(f"--blocks {text!r}: give block numbers and ranges separated "
                                "by commas, e.g. 0,3,5-7")
    for part in parts:
        match = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if not match:
            raise NumericInputError(f"--blocks {text!r}: {part!r} is not a block number or a "
                                    "range such as 5-7")
        low = int(match[1])
        high = int(match[2]) if match[2] is not None else low
        if high < low:
            raise NumericInputError(f"--blocks {text!r}: the range {part} is empty (write "
                                    f"{high}-{low})")
        chosen.update(range(low, high + 1))
    missing = sorted(chosen - set(available))
    if missing:
        raise NumericInputError(f"--blocks {text!r}: no block {_ranges(missing)} in this "
                                f"checkpoint; its blocks are {_ranges(sorted(available))}")
    return sorted(chosen)


def _ranges(numbers: list[int]) -> str:
    parts, i = [], 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        parts.append(str(numbers[i]) if i == j else f"{numbers[i]}-{numbers[j]}")
        i = j + 1
    return ",".join(parts)


# ------------------------------------------------------------------------------------------
# Activation
# ------------------------------------------------------------------------------------------

def known_activations() -> str:
    return (f"config.json names {', '.join(CONFIG_ACTIVATIONS)}; catalog families "
            f"{', '.join(family_names())}")


def resolve_activation(name: str, gated: bool, origin: str) -> Family:
    """The catalog family for an activation name (``origin`` says where it came from)."""
    family_name = CONFIG_ACTIVATIONS.get(name)
    if family_name is not None:
        if not gated:
            return get_family(family_name)
        if family_name == "gelu_tanh":
            return _geglu_tanh()
        return get_family(_GATED[family_name])
    try:
        family = get_family(name)
    except UnknownFamilyError:
        raise NumericInputError(f"unknown activation {name!r} ({origin}); known: "
                                f"{known_activations()}") from None
    if family.gated != gated:
        kind = "gated" if gated else "ungated"
        fit = [f for f in family_names() if get_family(f).gated == gated]
        raise NumericInputError(f"activation {name!r} ({origin}) is a "
                                f"{'gated' if family.gated else 'ungated'} family, but the "
                                f"layout's blocks are {kind}; use one of {', '.join(fit)} or a "
                                "config.json name")
    return family


def activation_from_config(config: dict | None, gated: bool) -> tuple[Family, str]:
    """(family, where it came from) from config.json; errors say to pass --activation."""
    if config is None:
        raise NumericInputError("no config.json beside the checkpoint to read the activation "
                                "from; pass --activation NAME (" + known_activations() + ")")
    for key in CONFIG_KEYS:
        value = config.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise NumericInputError(f"config.json {key} is {value!r}, not an activation name; "
                                    "pass --activation NAME")
        origin = f"config.json {key} = {value!r}"
        return resolve_activation(value, gated, origin), origin
    raise NumericInputError(f"config.json has none of {', '.join(CONFIG_KEYS)}; pass "
                            f"--activation NAME ({known_activations()})")
