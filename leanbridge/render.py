"""Render a family's Lean theorem file from its analysis, through Jinja2 templates.

One family → one :class:`FamilyFile`: its Lean definition (the library's, or printed from SymPy
by the LeanPrinter), premise lemmas where the library has none (user families, proved by a
short tactic script chosen from the analysis), and one theorem per applicable argument, each
proved by instantiating a general theorem of the Lean library. An ``undetermined`` family gets
no theorem, only a comment saying which arguments were tried and why none applies.

The declarations are data (:class:`Declaration`) before they are text, so exports and the
dependency graph read the same statements the Lean file holds.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import textwrap
from dataclasses import dataclass, field, replace
from pathlib import Path

import jinja2
import sympy as sp

from leanbridge import __version__
from leanbridge.analysis import (
    DEGREE,
    EVEN_PARITY,
    LINEARISATION,
    ODD_LINEAR_PARITY,
    Analysis,
    analyse,
    minus_inverse_identity,
)
from leanbridge.families import CATALOG, Family
from leanbridge.lean import library
from leanbridge.lean.printer import LeanPrintError, lean_code

FAMILY_TEMPLATE = "family.lean.j2"
INDEX_TEMPLATE = "families_index.lean.j2"

WD = "(Wd : Matrix (Fin d) (Fin n) ℝ)"
WU = "(Wu : Matrix (Fin n) (Fin d) ℝ)"
WGV = "(Wg Wv : Matrix (Fin n) (Fin d) ℝ)"
SKIP = "{A : Matrix (Fin d) (Fin d) ℝ}"
PAIRS = "List (Matrix (Fin d) (Fin n) ℝ × Matrix (Fin n) (Fin d) ℝ)"
TRIPLES = ("List (Matrix (Fin d) (Fin n) ℝ × Matrix (Fin n) (Fin d) ℝ ×\n"
           "      Matrix (Fin n) (Fin d) ℝ)")
SELECTOR = "Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu"


class RenderError(ValueError):
    """A family that cannot be rendered (e.g. its expression has no Lean counterpart)."""


@dataclass(frozen=True)
class Declaration:
    """One Lean declaration of a family file."""

    name: str                  # short name inside namespace SkipAbsorption.Families
    kind: str                  # "theorem" or "def"
    role: str                  # "definition", "bridge", "premise" or "argument"
    argument: str | None       # degree / linearisation / even_parity / odd_linear_parity
    signature: str             # binders and type, as written after the name
    proof: str                 # the term or tactic block after `:=`
    doc: str
    uses: tuple[str, ...]      # fully qualified Lean names the proof references
    paper: str | None = None
    generated_proof: bool = False   # proved by a tactic script leanbridge chose

    @property
    def full_name(self) -> str:
        return f"{library.FAMILIES_NAMESPACE}.{self.name}"

    @property
    def statement(self) -> str:
        """The statement with whitespace normalised (what the hash covers)."""
        return " ".join(f"{self.kind} {self.full_name}{self.signature}".split())

    @property
    def statement_hash(self) -> str:
        return hashlib.sha256(self.statement.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class FamilyFile:
    """Everything one family's Lean file states, before it is text."""

    family: Family
    analysis: Analysis
    module: str
    path: str                       # relative to the Lake project root
    imports: tuple[str, ...]
    symbol: str                     # the Lean term naming the activation (`relu2`, `tanh`)
    library_definition: str | None
    lean_term: str | None
    print_note: str | None
    declarations: tuple[Declaration, ...]
    not_formalised: tuple[str, ...] = field(default=())
    source: tuple[tuple[str, object], ...] = field(default=())

    @property
    def theorems(self) -> tuple[Declaration, ...]:
        return tuple(d for d in self.declarations if d.kind == "theorem")


def module_stem(family_name: str) -> str:
    """Lean module file stem: ``gelu_tanh`` → ``GeluTanh``, ``relu2`` → ``Relu2``."""
    return "".join(part[:1].upper() + part[1:] for part in family_name.split("_") if part)


def family_path(family_name: str) -> str:
    return f"SkipAbsorption/Families/{module_stem(family_name)}.lean"


def _clean(text: str) -> str:
    """Docstring-safe text: no comment terminators."""
    return text.replace("-/", "- /").replace("/-", "/ -")


def _bullet(text: str, prefix: str = "* ", width: int = 100) -> str:
    """A wrapped list item for a module docstring or a comment block."""
    return textwrap.fill(_clean(text), width=width, initial_indent=prefix,
                         subsequent_indent=" " * len(prefix) if prefix.startswith("*")
                         else prefix.replace("*", " "),
                         break_long_words=False, break_on_hyphens=False)


def _docwrap(text: str, width: int = 96, indent: str = "  ") -> str:
    """Wrap a declaration docstring to Mathlib's line length (continuation lines indented)."""
    lines = textwrap.wrap(_clean(text), width=width - 4, break_long_words=False,
                          break_on_hyphens=False)
    return ("\n" + indent).join(lines)


# -- premise lemmas for user families (tactic scripts chosen from the analysis) ----------------

# Symmetry lemmas `f (-x) = ±f x` of the Mathlib functions the printer emits, keyed by a regex
# on the printed term: only the lemmas of functions that occur are named, so that one wrong or
# renamed lemma can only disable the script line of a term that uses that function.
_NEG_LEMMAS: tuple[tuple[str, str], ...] = (
    (r"\bReal\.sigmoid\b", "Real.sigmoid_neg"),
    (r"\bReal\.tanh\b", "Real.tanh_neg"),
    (r"\bReal\.sinh\b", "Real.sinh_neg"),
    (r"\bReal\.cosh\b", "Real.cosh_neg"),
    (r"\bReal\.sin\b", "Real.sin_neg"),
    (r"\bReal\.cos\b", "Real.cos_neg"),
)


def _neg_lemmas(term: str) -> list[str]:
    return [lemma for pattern, lemma in _NEG_LEMMAS if re.search(pattern, term)]


def _case_script(symbol: str, lemma_lines: list[list[str]], closers: str) -> str:
    """`unfold`, one `try simp only [...]` per lemma group, `split_ifs`, then the closers.

    Each group is its own `try` line: a lemma that fails to elaborate (or a group that makes no
    progress) skips that line only, never the case analysis that follows.
    """
    lines = ["unfold " + symbol]
    lines += [f"try simp only [{', '.join(group)}]" for group in lemma_lines if group]
    lines += ["try split_ifs", f"all_goals first | {closers}"]
    return "\n  ".join(lines)


def _continuity_script(symbol: str, term: str) -> str:
    """`Continuous symbol`: `fun_prop` (then `continuity`) on the printed body.

    Mathlib registers `Real.exp`, `Real.sigmoid`, `max`, `+`, `*` … with `fun_prop`, but has no
    continuity lemma for `Real.tanh`; when the term uses it, a local `Continuous Real.tanh`
    (from `tanh = sinh / cosh`, `cosh > 0`) is proved first, and `fun_prop` uses local facts.
    """
    lines = ["  have hc : Continuous " + symbol + " := by"]
    if re.search(r"\bReal\.tanh\b", term):
        lines += [
            "    have htanh : Continuous Real.tanh := by",
            "      first",
            "        | fun_prop",
            "        | have e : Real.tanh = fun x => Real.sinh x / Real.cosh x := by",
            "            funext x",
            "            rw [Real.tanh_eq_sinh_div_cosh]",
            "          rw [e]",
            "          exact Real.continuous_sinh.div Real.continuous_cosh"
            " fun x => (Real.cosh_pos x).ne'",
        ]
    show = "    show Continuous (fun z : ℝ => " + term + ")"
    if len(show) > 100:
        show = "    show Continuous (fun z : ℝ =>\n      " + term + ")"
    lines += [show, "    first | fun_prop | continuity"]
    return "\n".join(lines)


def _user_premise(family: Family, analysis: Analysis, kind: str, symbol: str, term: str,
                  c_term: str | None = None) -> Declaration:
    facts = analysis.facts
    order = ["max_def", "min_def"]
    if kind == library.HOMOGENEOUS:
        k = int(facts.degree)
        return Declaration(
            f"{symbol}_posHomogeneous", "theorem", "premise", DEGREE,
            f" :\n    ∀ t : ℝ, 0 < t → ∀ z, {symbol} (t * z) = t ^ {k} * {symbol} z",
            "by\n  intro t ht z\n  "
            + _case_script(symbol, [order, ["abs_mul", "abs_of_pos ht"]],
                           "ring1 | nlinarith [ht]"),
            f"`{symbol}` is positively homogeneous of degree {k} (SymPy: σ(t·z) = t^{k}·σ(z)). "
            "Proof script chosen by leanbridge: case analysis on every `max`/`min`, then "
            "`ring1` or `nlinarith`.",
            ("max_def", "min_def", "abs_mul", "abs_of_pos"), generated_proof=True)
    if kind == library.LITTLE_O:
        return Declaration(
            f"{symbol}_isLittleO", "theorem", "premise", LINEARISATION,
            f" : {symbol} =o[𝓝 0] (fun z => z)",
            f"isLittleO_of_posHomogeneous (by norm_num) {symbol}_posHomogeneous",
            f"`{symbol}` is `o(z)` at `0`: it is homogeneous of degree "
            f"{int(facts.degree)} > 1.",
            (library.GENERAL_THEOREMS["isLittleO_of_posHomogeneous"].full_name,
             f"{symbol}_posHomogeneous"),
            "Cor 7")
    if kind == library.TENDSTO:
        return Declaration(
            f"{symbol}_tendsto_zero", "theorem", "premise", LINEARISATION,
            f" : Tendsto {symbol} (𝓝 0) (𝓝 0)",
            "by\n  have h0 : " + symbol + " 0 = 0 := by\n    unfold " + symbol
            + "\n    norm_num\n" + _continuity_script(symbol, term)
            + "\n  exact hc.tendsto' 0 0 h0",
            f"The gate `{symbol}` tends to `0` at `0` (SymPy: g(0) = 0, g continuous at 0). "
            "Proof script chosen by leanbridge: continuity by `fun_prop`, value by `norm_num`.",
            ("Continuous.tendsto'",), generated_proof=True)
    if kind == library.EVEN:
        return Declaration(
            f"{symbol}_neg", "theorem", "premise", EVEN_PARITY,
            f" (z : ℝ) : {symbol} (-z) = {symbol} z",
            "by\n  " + _case_script(symbol, [order, ["abs_neg", "neg_neg"],
                                                  _neg_lemmas(term)],
                                    "ring1 | linarith | nlinarith"),
            f"`{symbol}` is even (SymPy: σ(z) − σ(−z) simplifies to 0). Proof script chosen "
            "by leanbridge: case analysis on every `max`/`min`, then `ring1` or `linarith`.",
            ("max_def", "min_def", "abs_neg", *_neg_lemmas(term)), generated_proof=True)
    if kind == library.ODD:
        rhs = "z" if c_term is None else f"{c_term} * z"
        return Declaration(
            f"{symbol}_sub_{symbol}_neg", "theorem", "premise", ODD_LINEAR_PARITY,
            f" (z : ℝ) : {symbol} z - {symbol} (-z) = {rhs}",
            "by\n  " + _case_script(symbol, [order, ["abs_neg", "neg_neg"],
                                                  _neg_lemmas(term)],
                                    "ring1 | linarith | nlinarith"),
            f"The odd part of `{symbol}` is linear: σ(z) − σ(−z) = {rhs} (SymPy). Proof script "
            "chosen by leanbridge: case analysis on every `max`/`min`, then `ring1` or "
            "`linarith`.",
            ("max_def", "min_def", "abs_neg", *_neg_lemmas(term)), generated_proof=True)
    raise ValueError(kind)


# -- argument theorems -----------------------------------------------------------------------

def _g(name: str) -> str:
    return library.GENERAL_THEOREMS[name].full_name


def _degree_theorems(f: FamilyFile_, premise: str, k: int) -> list[Declaration]:
    s, name = f.symbol, f.family.name
    if f.family.gated:
        return [Declaration(
            f"{name}_not_gatedAbsorbable_degree", "theorem", "argument", DEGREE,
            f" {{d n : ℕ}} {SKIP} (hA : A ≠ 0)\n    {WD} {WGV} :\n"
            f"    ¬ GatedAbsorbable {s} A Wd Wg Wv",
            f"not_gatedAbsorbable_of_posHomogeneous (by norm_num) {premise} hA Wd Wg Wv",
            f"**Paper Prop 5 (degree argument).** The gate `{s}` is positively homogeneous of "
            f"degree {k}, so every {f.family.display} block is homogeneous of degree {k + 1} ≠ 1:"
            " no gated block of the same width equals `x ↦ A x + block(x)` for any skip "
            "`A ≠ 0`, whatever the weights.",
            (_g("not_gatedAbsorbable_of_posHomogeneous"), premise), "Prop 5")]
    return [Declaration(
        f"{name}_not_absorbable_degree", "theorem", "argument", DEGREE,
        f" {{d n : ℕ}} {SKIP} (hA : A ≠ 0)\n    {WD} {WU} :\n"
        f"    ¬ Absorbable {s} A Wd Wu",
        f"not_absorbable_of_posHomogeneous (by norm_num) {premise} hA Wd Wu",
        f"**Paper Prop 5 (degree argument).** `{s}` is positively homogeneous of degree "
        f"{k} ≠ 1: no block of the same width equals `x ↦ A x + W_down σ(W_up x)` for any "
        "skip `A ≠ 0`, whatever the weights.",
        (_g("not_absorbable_of_posHomogeneous"), premise), "Prop 5")]


def _linearisation_theorems(f: FamilyFile_, premise: str) -> list[Declaration]:
    s, name = f.symbol, f.family.name
    if f.family.gated:
        return [
            Declaration(
                f"{name}_not_gatedAbsorbable_identity", "theorem", "argument", LINEARISATION,
                f" {{d n : ℕ}} (hd : 0 < d)\n    {WD} {WGV} :\n"
                f"    ¬ GatedAbsorbable {s} 1 Wd Wg Wv",
                f"not_gatedAbsorbable_of_tendsto {premise} hd Wd Wg Wv",
                f"**Paper Prop 6 (linearisation at the origin), generalised.** The gate `{s}` "
                "vanishes at 0 and is continuous there, so every block of this kind is `o(|x|)`"
                " while `x + block(x)` is not: the identity skip is never absorbed (`d ≥ 1`).",
                (_g("not_gatedAbsorbable_of_tendsto"), premise), "Prop 6"),
            Declaration(
                f"{name}_not_gatedAbsorbable_invertible", "theorem", "argument", LINEARISATION,
                f" {{d n : ℕ}} (hd : 0 < d)\n    {SKIP} (hA : IsUnit A.det)\n    {WD} {WGV} :\n"
                f"    ¬ GatedAbsorbable {s} A Wd Wg Wv",
                f"not_gatedAbsorbable_of_tendsto_of_isUnit {premise} hd hA Wd Wg Wv",
                "**Paper Prop 6 with Lemma 4.** The same for every invertible linear skip `A`.",
                (_g("not_gatedAbsorbable_of_tendsto_of_isUnit"), premise), "Prop 6"),
            Declaration(
                f"{name}_not_stack_eq", "theorem", "argument", LINEARISATION,
                f" {{d n : ℕ}} (hd : 0 < d)\n    (ws vs : {TRIPLES})\n    (hvs : vs ≠ []) :\n"
                f"    ¬ ∀ x, resStack (ws.map (gatedMlpOf {s})) x =\n"
                f"      plainStack (vs.map (gatedMlpOf {s})) x",
                f"not_gatedMlpStack_eq_of_tendsto {premise} hd ws vs hvs",
                "**Paper Cor 7 (depth).** A stack of residual blocks of this kind never equals a "
                "non-empty stack of residual-free blocks of the same width.",
                (_g("not_gatedMlpStack_eq_of_tendsto"), premise), "Cor 7"),
        ]
    return [
        Declaration(
            f"{name}_not_absorbable_identity", "theorem", "argument", LINEARISATION,
            f" {{d n : ℕ}} (hd : 0 < d)\n    {WD} {WU} :\n    ¬ Absorbable {s} 1 Wd Wu",
            f"not_absorbable_of_isLittleO {premise} hd Wd Wu",
            f"**Paper Prop 6 (linearisation at the origin), ungated form.** `{s}` is `o(z)` at 0,"
            " so every block is `o(|x|)` while `x + block(x)` is not: the identity skip is "
            "never absorbed (`d ≥ 1`).",
            (_g("not_absorbable_of_isLittleO"), premise), "Prop 6"),
        Declaration(
            f"{name}_not_absorbable_invertible", "theorem", "argument", LINEARISATION,
            f" {{d n : ℕ}} (hd : 0 < d)\n    {SKIP} (hA : IsUnit A.det)\n    {WD} {WU} :\n"
            f"    ¬ Absorbable {s} A Wd Wu",
            f"not_absorbable_of_isLittleO_of_isUnit {premise} hd hA Wd Wu",
            "**Paper Prop 6 with Lemma 4.** The same for every invertible linear skip `A`.",
            (_g("not_absorbable_of_isLittleO_of_isUnit"), premise), "Prop 6"),
        Declaration(
            f"{name}_not_stack_eq", "theorem", "argument", LINEARISATION,
            f" {{d n : ℕ}} (hd : 0 < d)\n    (ws vs : {PAIRS})\n    (hvs : vs ≠ []) :\n"
            f"    ¬ ∀ x, resStack (ws.map (mlpOf {s})) x =\n"
            f"      plainStack (vs.map (mlpOf {s})) x",
            f"not_mlpStack_eq_of_isLittleO {premise} hd ws vs hvs",
            "**Paper Cor 7 (depth).** A stack of residual blocks never equals a non-empty stack "
            "of residual-free blocks of the same width.",
            (_g("not_mlpStack_eq_of_isLittleO"), premise), "Cor 7"),
    ]


def _even_theorems(f: FamilyFile_, premise: str) -> list[Declaration]:
    s, name = f.symbol, f.family.name
    return [
        Declaration(
            f"{name}_not_absorbable_even", "theorem", "argument", EVEN_PARITY,
            f" {{d n : ℕ}} (hd : 0 < d)\n    {WD} {WU} :\n    ¬ Absorbable {s} 1 Wd Wu",
            f"not_absorbable_of_even {premise} hd Wd Wu",
            f"**Parity argument.** `{s}` is even, so every block is even in `x`; comparing `x` "
            "and `-x` shows the identity skip is never absorbed (`d ≥ 1`).",
            (_g("not_absorbable_of_even"), premise), None),
        Declaration(
            f"{name}_not_absorbable_even_of_ne_zero", "theorem", "argument", EVEN_PARITY,
            f" {{d n : ℕ}} {SKIP} (hA : A ≠ 0)\n    {WD} {WU} :\n    ¬ Absorbable {s} A Wd Wu",
            f"not_absorbable_of_even_of_ne_zero {premise} hA Wd Wu",
            "**Parity argument.** The same for every nonzero linear skip `A`.",
            (_g("not_absorbable_of_even_of_ne_zero"), premise), None),
    ]


def _odd_theorem(f: FamilyFile_, premise: str, c: sp.Expr, c_term: str) -> Declaration:
    s, name = f.symbol, f.family.name
    necessity = ("The paper also proves the condition necessary for this activation (generic "
                 "weights, `d ≥ 2`); that direction is not formalised here."
                 if f.analysis.necessity_proven else
                 "Necessity is not known for this activation: other absorbing blocks may exist.")
    rhs = f"{s} z - {s} (-z) = z" if c == 1 else f"{s} z - {s} (-z) = {sp.sstr(c)} · z"
    doc = (f"**Paper Thm 8/10, sufficiency.** `{rhs}`, so if an index set `S` has "
           f"`W_down[:,S] W_up[S,:] = {minus_inverse_identity(c)}`, keeping `W_down` and "
           "negating the rows of `W_up` in `S` absorbs the identity skip. " + necessity)
    if c == 1:
        # `σ` and `c` are pinned by name, the premise is adapted to `σ z - σ (-z) = 1 * z` by a
        # term (no rewriting), and `hS : … = -1` is matched against the library's
        # `… = -(1⁻¹) • 1` by rewriting the library side to `-1` and closing with `exact hS`
        # (a defeq check at default transparency, so the `Neg`/`One` instance paths of the two
        # `-1`s need not be syntactically equal, as `rw [hS]` followed by `rfl` would need).
        return Declaration(
            f"{name}_absorbable_of_sCondition", "theorem", "argument", ODD_LINEAR_PARITY,
            f" {{d n : ℕ}}\n    {WD} {WU}\n    (S : Finset (Fin n))\n    (hS : {SELECTOR} = -1) :\n"
            f"    Absorbable {s} 1 Wd Wu",
            f"absorbable_of_sCondition (σ := {s}) (c := 1) one_ne_zero\n"
            f"    (fun z => ({premise} z).trans (one_mul z).symm) Wd Wu S\n"
            "    (by rw [inv_one, neg_smul, one_smul]; exact hS)",
            doc, (_g("absorbable_of_sCondition"), premise, "one_mul", "inv_one", "neg_smul",
                  "one_smul", "one_ne_zero"), "Thm 8/10 (if)")
    # `c` is written with its type: an untyped numeral (`2⁻¹`) in front of `•` would default
    # to `ℕ`, which has no `Inv`.
    c_real = c_term if re.fullmatch(r"\(.*: ℝ\)", c_term) else f"({c_term} : ℝ)"
    nonzero = "(by norm_num)" if c.is_Rational else "(by first | norm_num | positivity)"
    return Declaration(
        f"{name}_absorbable_of_sCondition", "theorem", "argument", ODD_LINEAR_PARITY,
        f" {{d n : ℕ}}\n    {WD} {WU}\n    (S : Finset (Fin n))\n"
        f"    (hS : {SELECTOR} =\n      -({c_real}⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ)) :\n"
        f"    Absorbable {s} 1 Wd Wu",
        f"absorbable_of_sCondition {nonzero} {premise} Wd Wu S hS",
        doc, (_g("absorbable_of_sCondition"), premise), "Thm 8/10 (if)")


# -- assembling a family ---------------------------------------------------------------------

@dataclass
class FamilyFile_:  # noqa: N801 - the mutable builder of a FamilyFile
    family: Family
    analysis: Analysis
    symbol: str
    declarations: list[Declaration] = field(default_factory=list)
    not_formalised: list[str] = field(default_factory=list)
    modules: set[str] = field(default_factory=set)


def _bridge_signature(symbol: str, term: str) -> str:
    one_line = f" (z : ℝ) : {symbol} z = {term}"
    if len(f"theorem x_eq_sympy{one_line} :=") <= 100:
        return one_line
    return f" (z : ℝ) :\n    {symbol} z =\n      {term}"


def _natural(value: sp.Expr | None) -> int | None:
    if value is not None and value.is_Integer and value >= 0:
        return int(value)
    return None


def build_family_file(family: Family, analysis: Analysis | None = None) -> FamilyFile:
    """Plan the Lean file of ``family`` (raises :class:`RenderError` if it cannot be written)."""
    analysis = analysis or analyse(family)
    lean_side = library.catalog_lean(family.name) if _is_catalog(family) else None
    try:
        term, print_note = lean_code(family.expr), None
    except LeanPrintError as exc:
        term, print_note = None, str(exc)

    if lean_side is not None:
        symbol = lean_side.definition
        builder = FamilyFile_(family, analysis, symbol, modules={lean_side.module})
        if term is not None:
            builder.declarations.append(Declaration(
                f"{family.name}_eq_sympy", "theorem", "bridge", None,
                _bridge_signature(symbol, term), "rfl",
                f"The library's `{symbol}` is the catalog's SymPy expression "
                f"`{_clean(sp.sstr(family.expr))}`, as printed by leanbridge.",
                (f"{library.NAMESPACE}.{symbol}",)))
    else:
        if term is None:
            raise RenderError(f"{family.name}: {print_note}; the Lean library has no definition "
                              "for it either")
        symbol = family.name
        # Printed terms may use any Mathlib function (Real.tanh, Real.sigmoid, …); the library
        # imports all of Mathlib already, so this costs nothing extra.
        builder = FamilyFile_(family, analysis, symbol, modules={"Mathlib", "SkipAbsorption.Defs"})
        builder.declarations.append(Declaration(
            symbol, "def", "definition", None, " (z : ℝ) : ℝ", term,
            f"{family.display}: `{_clean(sp.sstr(family.expr))}` (SymPy), printed by "
            "leanbridge's LeanPrinter.", ()))

    def premise(kind: str, c_term: str | None = None) -> str:
        if lean_side is not None:
            name = lean_side.premise(kind)
            if name is None:
                raise RenderError(f"{family.name}: the library has no {kind} premise lemma")
            return name
        declaration = _user_premise(family, analysis, kind, symbol, term, c_term)
        if declaration.name not in {d.name for d in builder.declarations}:
            builder.declarations.append(declaration)
        return declaration.name

    facts = analysis.facts
    for argument in analysis.arguments:
        if argument.name == DEGREE:
            k = _natural(facts.degree)
            if k is None:
                builder.not_formalised.append(
                    f"degree: the gate/activation has degree {facts.degree}, but the Lean "
                    "library states the degree argument for natural degrees only")
                continue
            builder.modules.add("SkipAbsorption.Degree")
            builder.declarations.extend(
                _degree_theorems(builder, premise(library.HOMOGENEOUS), k))
        elif argument.name == LINEARISATION:
            if family.gated:
                kind = library.TENDSTO
            else:
                k = _natural(facts.degree)
                if lean_side is None and (k is None or k < 2):
                    builder.not_formalised.append(
                        "linearisation: σ is flat at 0, but leanbridge proves σ = o(z) in Lean "
                        "only for σ homogeneous of a natural degree k > 1")
                    continue
                if lean_side is None:
                    premise(library.HOMOGENEOUS)
                    builder.modules.add("SkipAbsorption.Depth")
                kind = library.LITTLE_O
            builder.modules.update({"SkipAbsorption.Linearisation", "SkipAbsorption.Depth"})
            builder.declarations.extend(_linearisation_theorems(builder, premise(kind)))
        elif argument.name == EVEN_PARITY:
            builder.modules.add("SkipAbsorption.Parity")
            builder.declarations.extend(_even_theorems(builder, premise(library.EVEN)))
        elif argument.name == ODD_LINEAR_PARITY:
            c = facts.odd_coefficient
            try:
                c_term = None if c == 1 else lean_code(c)
            except LeanPrintError as exc:
                builder.not_formalised.append(f"odd_linear_parity: c = {c}: {exc}")
                continue
            builder.modules.add("SkipAbsorption.Parity")
            builder.declarations.append(
                _odd_theorem(builder, premise(library.ODD, c_term), c, c_term or "1"))

    imports = tuple(sorted(builder.modules))
    return FamilyFile(
        family=family, analysis=analysis,
        module=f"{library.FAMILIES_NAMESPACE}.{module_stem(family.name)}",
        path=family_path(family.name), imports=imports, symbol=symbol,
        library_definition=lean_side.definition if lean_side else None,
        lean_term=term, print_note=print_note,
        declarations=tuple(_order(_qualified(builder.declarations))),
        not_formalised=tuple(builder.not_formalised),
        source=source_of(family))


def _qualified(declarations: list[Declaration]) -> list[Declaration]:
    """``uses`` with full names for the project's own declarations (library and this file);
    Mathlib names stay as written."""
    own = {d.name for d in declarations}
    library_names = (library.LIBRARY_DEFINITIONS | library.PREMISE_LEMMAS
                     | set(library.GENERAL_THEOREMS))

    def full(name: str) -> str:
        if name in own:
            return f"{library.FAMILIES_NAMESPACE}.{name}"
        if name in library_names:
            return f"{library.NAMESPACE}.{name}"
        return name

    return [replace(d, uses=tuple(full(u) for u in d.uses)) for d in declarations]


def _order(declarations: list[Declaration]) -> list[Declaration]:
    """Definitions and premises before the theorems that use them (stable otherwise)."""
    rank = {"definition": 0, "bridge": 1, "premise": 2, "argument": 3}
    return sorted(declarations, key=lambda d: rank[d.role])


def _is_catalog(family: Family) -> bool:
    return any(f == family for f in CATALOG)


def source_of(family: Family) -> tuple[tuple[str, object], ...]:
    """What the file is rendered from: a catalog name, or the user's expression."""
    if _is_catalog(family):
        return (("family", family.name),)
    return (("name", family.name), ("expr", sp.srepr(family.expr)), ("gated", family.gated))


# -- text ------------------------------------------------------------------------------------

def templates_dir() -> Path:
    """The Jinja2 templates: the installed ``leanbridge.templates``, else ``templates/`` of a
    source checkout (editable installs)."""
    try:
        spec = importlib.util.find_spec("leanbridge.templates")
    except ModuleNotFoundError:
        spec = None
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    return Path(__file__).resolve().parent.parent / "templates"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["clean"] = _clean
    env.filters["sstr"] = sp.sstr
    env.filters["docwrap"] = _docwrap
    env.filters["bullet"] = _bullet
    env.filters["para"] = lambda text: textwrap.fill(
        " ".join(_clean(text).split()), width=100, break_long_words=False,
        break_on_hyphens=False)
    return env


def render_family(plan: FamilyFile) -> str:
    """The body of the family's Lean file (everything after the generated-file header)."""
    analysis = plan.analysis
    text = environment().get_template(FAMILY_TEMPLATE).render(
        plan=plan, family=plan.family, analysis=analysis, version=__version__,
        reasons=[_clean(r) for r in analysis.reasons],
        arguments=", ".join(analysis.argument_names) or "none",
    )
    return re.sub(r"\n{3,}", "\n\n", text)


def render_index(plans: list[FamilyFile]) -> str:
    """The body of ``SkipAbsorption/Families.lean``, importing every catalog family file."""
    return environment().get_template(INDEX_TEMPLATE).render(
        plans=plans, version=__version__)
