"""Where the MLP blocks of common model families live in a checkpoint, their activation, and
where the normalisation sits.

A :class:`Layout` names, relative to a numbered layer ``<prefix><N>.``, the up-projection,
the down-projection (and for gated blocks the gate), and the orientation they are stored in
(``{k}`` in a path is a sublayer number: T5's feed-forward is ``layer.1`` in the encoder,
``layer.2`` in the decoder):

==========  ==================================  ================================================
layout      models                              tensors of layer N (``.weight``/``.bias``)
==========  ==================================  ================================================
gpt2        GPT-2 (Conv1D: stored in × out)     ``h.N.mlp.c_fc``, ``h.N.mlp.c_proj``
gpt-neox    GPT-NeoX / Pythia, Falcon, BLOOM    ``N.mlp.dense_h_to_4h``, ``N.mlp.dense_4h_to_h``
gptj        GPT-J (attention ∥ MLP)             ``h.N.mlp.fc_in``, ``h.N.mlp.fc_out``
bert        BERT / RoBERTa                      ``N.intermediate.dense``, ``N.output.dense``
distilbert  DistilBERT                          ``N.ffn.lin1``, ``N.ffn.lin2``
opt         OPT                                 ``N.fc1``, ``N.fc2``
llama       LLaMA / Mistral / Qwen2 / Gemma     ``N.mlp.gate_proj``, ``up_proj``, ``down_proj``
phi3        Phi-3 (fused gate and up)           ``N.mlp.gate_up_proj`` (rows: gate, then up),
                                                ``N.mlp.down_proj``
t5          T5 (ReLU, bias-free)                ``N.layer.{k}.DenseReluDense.wi``, ``wo``
t5-gated    T5 v1.1 / mT5 / Flan-T5 (gated)     ``N.layer.{k}.DenseReluDense.wi_0`` (gate),
                                                ``wi_1``, ``wo``
==========  ==================================  ================================================

Any prefix before the layer number is accepted (``transformer.h.3.``, ``model.layers.3.``,
``bert.encoder.layer.3.``, ``encoder.block.3.`` …). Detection uses tensor names only,
and shapes are checked from the headers, so an inconsistent checkpoint is rejected before any
number is read. Phi-3 stores gate and up in one ``[2n, d]`` tensor; as ``transformers`` does
(``gate, up = gate_up_proj(x).chunk(2, dim=-1)``), its rows ``[0, n)`` are the gate and
``[n, 2n)`` the up-projection (:func:`read_weight`).

The activation comes from ``config.json`` (``hidden_activation``, ``hidden_act``,
``activation_function``, T5's ``dense_act_fn``, Falcon's and DistilBERT's ``activation``, or
T5's ``feed_forward_proj``) through :data:`CONFIG_ACTIVATIONS`, or from ``--activation`` (a name
of that table or a catalog family). For gated layouts the configured activation is the gate:
``silu`` → SwiGLU, ``gelu`` → GeGLU, ``relu`` → ReGLU, and the tanh GELU gate is a GeGLU
variant built here from the catalog's ``gelu_tanh``.

Each layout also says where its normalisation sits (:class:`NormSite`): *post-norm* (BERT,
RoBERTa, DistilBERT, OPT with ``do_layer_norm_before = false``: ``N(x + MLP(x))``, the paper's
setting) or *pre-norm* (``h + MLP(N(h))``: GPT-2, GPT-NeoX, GPT-J, OPT by default, LLaMA …,
Phi-3, T5, Falcon); :mod:`leanbridge.numeric.norm_position` says what that means for the answer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from leanbridge.families import Family, UnknownFamilyError, family_names, get_family
from leanbridge.numeric.checkpoint import Checkpoint, TensorInfo
from leanbridge.numeric.errors import NumericInputError

#: Where the normalisation sits (:attr:`NormSite.position`).
PRE_NORM = "pre"      # h + MLP(N(h)): the skip carries h, the MLP reads N(h)
POST_NORM = "post"    # N(x + MLP(x)): the paper's question, inside the normalisation


@dataclass(frozen=True)
class NormSite:
    """The normalisation around a layout's MLP: ``position`` (pre or post), ``kind``
    (LayerNorm or RMSNorm) and ``where`` (its tensors, and the block as a formula)."""

    position: str
    kind: str
    where: str


@dataclass(frozen=True)
class Layout:
    """The MLP tensors of one layer, relative to ``<prefix><N>.`` (``{k}``: a sublayer)."""

    name: str
    models: str
    up: str                  # the up-projection (gated: the value branch W_val)
    down: str
    gate: str | None = None  # gated layouts only
    conv1d: bool = False     # stored (in × out), as GPT-2's Conv1D: transposed on reading
    fused: bool = False      # gate and up in one [2n, d] tensor (``up`` = ``gate``): gate rows
    #                          [0, n), up rows [n, 2n), as transformers' chunk(2, dim=-1)
    norm: NormSite | None = None
    #: config.json key → (value, NormSite) overriding ``norm`` (OPT's do_layer_norm_before)
    norm_by_config: tuple[tuple[str, object, NormSite], ...] = ()
    #: the activation transformers uses when config.json names none (T5Config's default)
    default_activation: str | None = None

    @property
    def gated(self) -> bool:
        return self.gate is not None

    def roles(self) -> dict[str, str]:
        roles = {"up": self.up, "down": self.down}
        if self.gate is not None:
            roles["gate"] = self.gate
        return roles

    def pattern(self, role: str) -> re.Pattern:
        """``<prefix><N>.<role>.weight`` with groups ``prefix`` and ``index`` (``{k}`` in the
        role's path matches a sublayer number)."""
        path = re.escape(self.roles()[role]).replace(re.escape("{k}"), r"\d+")
        return re.compile(r"^(?P<prefix>(?:.*\.)?)(?P<index>\d+)\." + path + r"\.weight$")

    def norm_site(self, config: dict | None) -> tuple[NormSite, str]:
        """(where the normalisation sits, what says so: the layout or a config.json key)."""
        for key, value, site in self.norm_by_config:
            if (config or {}).get(key) == value:
                return site, f"config.json {key} = {json.dumps(value)}"
        return self.norm, f"the {self.name} layout"

    @property
    def orientation(self) -> str:
        return ("Conv1D, stored in × out (transposed on reading)" if self.conv1d
                else "nn.Linear, stored out × in")


_LN, _RMS = "LayerNorm", "RMSNorm"
LAYOUTS: tuple[Layout, ...] = (
    Layout("gpt2", "GPT-2", "mlp.c_fc", "mlp.c_proj", conv1d=True,
           norm=NormSite(PRE_NORM, _LN, "ln_2 before the MLP: h + MLP(ln_2(h))")),
    Layout("gpt-neox", "GPT-NeoX / Pythia, Falcon, BLOOM", "mlp.dense_h_to_4h",
           "mlp.dense_4h_to_h",
           norm=NormSite(PRE_NORM, _LN, "post_attention_layernorm (Falcon: input_layernorm or "
                         "ln_mlp) before the MLP: h + MLP(N(h)), with attention in parallel "
                         "or before")),
    Layout("gptj", "GPT-J", "mlp.fc_in", "mlp.fc_out",
           norm=NormSite(PRE_NORM, _LN, "ln_1, shared by attention and the MLP in parallel: "
                         "h + attn(ln_1(h)) + MLP(ln_1(h))")),
    Layout("bert", "BERT / RoBERTa", "intermediate.dense", "output.dense",
           norm=NormSite(POST_NORM, _LN, "output.LayerNorm after the sum: "
                         "LayerNorm(x + MLP(x))")),
    Layout("distilbert", "DistilBERT", "ffn.lin1", "ffn.lin2",
           norm=NormSite(POST_NORM, _LN, "output_layer_norm after the sum: "
                         "output_layer_norm(x + MLP(x))")),
    Layout("opt", "OPT", "fc1", "fc2",
           norm=NormSite(PRE_NORM, _LN, "final_layer_norm before the MLP "
                         "(do_layer_norm_before): h + MLP(final_layer_norm(h))"),
           norm_by_config=(("do_layer_norm_before", False,
                            NormSite(POST_NORM, _LN, "final_layer_norm after the sum "
                                     "(do_layer_norm_before = false): "
                                     "final_layer_norm(x + MLP(x))")),)),
    Layout("llama", "LLaMA / Mistral / Qwen2 / Gemma", "mlp.up_proj", "mlp.down_proj",
           gate="mlp.gate_proj",
           norm=NormSite(PRE_NORM, _RMS, "post_attention_layernorm (Gemma: "
                         "pre_feedforward_layernorm) before the MLP: h + MLP(N(h))")),
    Layout("phi3", "Phi-3", "mlp.gate_up_proj", "mlp.down_proj", gate="mlp.gate_up_proj",
           fused=True,
           norm=NormSite(PRE_NORM, _RMS, "post_attention_layernorm before the MLP: "
                         "h + MLP(post_attention_layernorm(h))")),
    Layout("t5", "T5", "layer.{k}.DenseReluDense.wi", "layer.{k}.DenseReluDense.wo",
           norm=NormSite(PRE_NORM, _RMS, "layer.K.layer_norm (T5LayerNorm) "
                         "before the MLP: h + MLP(layer_norm(h))"),
           default_activation="relu"),
    Layout("t5-gated", "T5 v1.1 / mT5 / Flan-T5", "layer.{k}.DenseReluDense.wi_1",
           "layer.{k}.DenseReluDense.wo", gate="layer.{k}.DenseReluDense.wi_0",
           norm=NormSite(PRE_NORM, _RMS, "layer.K.layer_norm (T5LayerNorm) "
                         "before the MLP: h + MLP(layer_norm(h))")),
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
#: The config.json keys read for the activation, first present wins (T5's
#: ``feed_forward_proj`` is read as transformers' T5Config reads it: ``gated-gelu`` → gelu_new).
CONFIG_KEYS = ("hidden_activation", "hidden_act", "activation_function", "dense_act_fn",
               "activation", "feed_forward_proj")
#: Ungated family → the gated family whose gate it is.
_GATED = {"silu": "swiglu", "gelu": "geglu", "relu": "reglu", "sigmoid": "glu"}
#: config.json keys for the model width d (checked against the tensors' shapes).
_WIDTH_KEYS = ("n_embd", "hidden_size", "d_model", "dim")


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


#: A refusal is one line of at most this many characters (``Error: `` included).
REFUSAL_WIDTH = 199


def _keys_seen(keys, room: int) -> str:
    """As many of ``keys`` as fit in ``room`` characters, the first layer's first (they show
    the naming), then ``… (N more)``."""
    keys = list(keys)
    if not keys:
        return "(none)"
    first_layer = [k for k in keys if re.search(r"(^|\.)0\.", k)]
    ordered = first_layer + [k for k in keys if k not in set(first_layer)]
    shown: list[str] = []
    for key in ordered:
        rest = len(ordered) - len(shown) - 1
        tail = f", … ({rest} more)" if rest else ""
        if len(", ".join(shown + [key]) + tail) > room:
            break
        shown.append(key)
    more = len(ordered) - len(shown)
    if not shown:
        return f"… ({more} keys)"
    return ", ".join(shown) + (f", … ({more} more)" if more else "")


def _refusal(head: str, keys) -> str:
    """``head; keys seen: …`` within :data:`REFUSAL_WIDTH` characters, ``Error: `` included."""
    text = f"{head}; keys seen: "
    return text + _keys_seen(keys, REFUSAL_WIDTH - len("Error: ") - len(text))


def detect_layout(keys: list[str], config: dict | None = None) -> Layout:
    """The one layout whose up-projection names occur among ``keys``."""
    found = [lay for lay in LAYOUTS if any(lay.pattern("up").match(k) for k in keys)]
    if len(found) == 1:
        return found[0]
    if not found:
        model = (config or {}).get("model_type")
        named = f" (config.json model_type {model!r})" if isinstance(model, str) else ""
        raise NumericInputError(_refusal(
            f"unrecognised layout{named}: no tensor is named like a known MLP (scan --help "
            "lists them)", keys))
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
    norm: NormSite | None = None       # where the normalisation sits (layout or config.json)

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
        """Bytes of the block's stored tensors (weights and biases; a fused tensor once)."""
        return sum({info.key: info.nbytes for info in self.tensors.values()}.values())

    def rows(self, role: str) -> slice | None:
        """The rows of the stored ``role`` tensor that are this role's (fused gate/up), or
        None when the whole tensor is."""
        if not self.layout.fused or role not in ("gate", "up", "gate_bias", "up_bias"):
            return None
        return slice(0, self.n) if role.startswith("gate") else slice(self.n, 2 * self.n)


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
        raise NumericInputError(_refusal(
            f"layout {layout.name} ({layout.models}) matches no tensor: no name ends in "
            f"N.{layout.up}.weight", ckpt.keys))
    order = sorted(layers)
    single_prefix = len({prefix for prefix, _ in order}) == 1
    width = _config_width(ckpt.config)
    norm, _ = layout.norm_site(ckpt.config)
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
        for role, key in found.items():
            bias = key[:-len("weight")] + "bias"
            if ckpt.has(bias):
                tensors[f"{role}_bias"] = ckpt.info(bias)
        index = layer if single_prefix else number
        d, n = _check_shapes(stem[:-1], layout, tensors)
        notes = []
        if layout.fused:
            notes.append(f"gate and up are one tensor {found['up']!r} of {2 * n} rows: rows "
                         f"0–{n - 1} the gate, rows {n}–{2 * n - 1} the up-projection (as "
                         "transformers' chunk(2))")
        if width is not None and width[1] != d:
            raise NumericInputError(
                f"block {stem[:-1]}: the tensors give d = {d}, but config.json says "
                f"{width[0]} = {width[1]}; is this the {layout.name} layout "
                f"({layout.orientation})? Choose another with --layout")
        if n < d:
            notes.append(f"the hidden width n = {n} is smaller than d = {d}")
        blocks.append(BlockSpec(index, stem[:-1], layout, tensors, d, n, tuple(notes), norm))
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
    rows = n                            # of the stored up (and gate) tensor
    if layout.fused:                    # [2n, d]: gate rows, then up rows
        if n % 2:
            raise NumericInputError(
                f"block {name}: the fused tensor {tensors['up'].key!r} has {n} rows, an odd "
                f"number; {layout.name} stores gate and up as two halves of [2n, d]")
        n //= 2
    expected = {"up": (rows, d), "gate": (rows, d), "down": (d, n),
                "up_bias": (rows,), "gate_bias": (rows,), "down_bias": (d,)}
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


def read_weight(ckpt: Checkpoint, spec: BlockSpec, role: str, stored: bool = False):
    """(matrix as ``x ↦ W x`` uses it, machine epsilon) of one role of a block: Conv1D
    transposed (a view), a fused gate/up tensor cut to the role's rows (:meth:`BlockSpec.rows`)."""
    matrix, eps = ckpt.read(spec.key(role), stored=stored)
    if spec.layout.conv1d:
        matrix = matrix.T
    rows = spec.rows(role)
    return (matrix if rows is None else matrix[rows]), eps


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


def activation_from_config(config: dict | None, gated: bool, default: str | None = None,
                           default_from: str = "layout's") -> tuple[Family, str]:
    """(family, where it came from) from config.json, else ``default`` (the activation
    transformers assumes, e.g. T5's ``relu``) when config.json exists but names none; errors say
    to pass --activation."""
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
        name = _feed_forward_activation(value) if key == "feed_forward_proj" else value
        return resolve_activation(name, gated, origin), origin
    if default is not None:
        origin = f"the {default_from} default {default!r} (config.json names no activation)"
        return resolve_activation(default, gated, origin), origin
    raise NumericInputError(f"config.json has none of {', '.join(CONFIG_KEYS)}; pass "
                            f"--activation NAME ({known_activations()})")


def _feed_forward_activation(value: str) -> str:
    """T5Config's reading of ``feed_forward_proj``: ``[gated-]ACT``, and ``gated-gelu`` means
    ``gelu_new`` (transformers keeps that for backward compatibility)."""
    return "gelu_new" if value == "gated-gelu" else value.split("-")[-1]
