"""Render a family's Lean theorem file from its analysis, through Jinja2 templates.

One family → one :class:`FamilyFile`: its Lean definition (the library's, or printed from SymPy
by the LeanPrinter), premise lemmas where the library has none (user families: proved by the
Lean pattern of a certificate rule, :mod:`leanbridge.certificates`, rendered from
``templates/premises/``), and one theorem per applicable argument, each proved by instantiating
a general theorem of the Lean library. A premise no certificate rule proves is never guessed:
the theorems take it as a named hypothesis (:class:`PremiseHypothesis`, recorded in
``Declaration.premise_hypotheses``). An ``undetermined`` family gets no theorem, only a comment
saying which arguments were tried and why none applies.

The declarations are data (:class:`Declaration`) before they are text, so exports and the
dependency graph read the same statements the Lean file holds.
"""

from __future__ import annotations

import functools
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
    GATE_PARITY,
    ODD_LINEAR_PARITY,
    RECESSION,
    RECESSION_RELU,
    Analysis,
    analyse,
    factor_text,
    minus_inverse_identity,
    s_condition_theorems,
)
from leanbridge.certificates import Certificate, Outside, certify
from leanbridge.families import CATALOG, Family
from leanbridge.lean import library
from leanbridge.lean.printer import LeanPrintError, lean_code, lean_factor

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
    #: premise lemmas of user families: the certificate rule whose Lean pattern proves it
    certificate: str | None = None
    #: argument theorems stated *modulo* premises: each premise that no certificate rule
    #: proves becomes a named hypothesis of the theorem (binder, kind, Lean statement, reason);
    #: SymPy verified it, Lean does not. Empty when every premise is a proved lemma.
    premise_hypotheses: tuple["PremiseHypothesis", ...] = ()

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

    @property
    def opens(self) -> tuple[str, ...]:
        """The `open` lines the declarations need, and no more: `Tendsto` unqualified, the `𝓝`
        notation. A file that needs neither opens nothing, so it can import a light module
        (ReLU's family file imports `SkipAbsorption.Relu`, not the measure theory behind GELU)."""
        text = "\n".join(d.signature + "\n" + d.proof for d in self.declarations)
        return tuple(line for line, needed in (("open Filter (Tendsto)", "Tendsto" in text),
                                               ("open scoped Topology", "𝓝" in text)) if needed)

    @property
    def premise_hypotheses(self) -> tuple["PremiseHypothesis", ...]:
        """The distinct premises the file's theorems take as named hypotheses."""
        seen: dict[tuple[str, str], PremiseHypothesis] = {}
        for declaration in self.declarations:
            for hypothesis in declaration.premise_hypotheses:
                seen.setdefault((hypothesis.binder, hypothesis.statement), hypothesis)
        return tuple(seen.values())


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
    """Wrap a declaration docstring to Mathlib's line length (continuation lines indented).

    A line never starts with a binary ``-``, ``+`` or ``*`` (``σ z - σ (-z)``): Markdown, which
    doc-gen renders docstrings with, would read it as a list item. The operator stays with the
    word before it (joined by a no-break space while wrapping)."""
    glued = re.sub(r" ([-+*]) ", "\u00a0\\1 ", _clean(text))
    lines = textwrap.wrap(glued, width=width - 4, break_long_words=False,
                          break_on_hyphens=False)
    return ("\n" + indent).join(line.replace("\u00a0", " ") for line in lines)


# -- premises: library lemmas, certified lemmas, or named hypotheses -------------------------

#: The binder a generated theorem gives a premise that no certificate proves.
PREMISE_BINDER = "hσ"
#: The binder of `c ≠ 0` when neither `norm_num` nor `positivity` is certified to prove it.
NONZERO_BINDER = "hc"

#: Tactics (not declarations) a certificate's script names; kept out of `Declaration.uses`.
TACTICS = frozenset({"ring1", "linarith", "nlinarith", "split_ifs", "subst", "norm_num",
                     "fun_prop", "positivity", "continuity"})


@dataclass(frozen=True)
class PremiseHypothesis:
    """A premise a generated theorem takes as a named hypothesis.

    SymPy verified it (the analysis, and ``check``'s symbolic premise checks), but no
    certificate rule proves it in Lean, so the theorem is stated *modulo* it: Lean checks the
    theorem, not the premise.
    """

    binder: str       # the hypothesis' name in the signature: "hσ" (or "hc" for c ≠ 0)
    kind: str         # library premise kind: even / odd / homogeneous / isLittleO / tendsto,
                      # or "nonzero" for c ≠ 0
    statement: str    # its Lean statement, e.g. "∀ z, foo (-z) = foo z"
    reason: str       # why no certificate rule proves it

    @property
    def binder_text(self) -> str:
        return f"({self.binder} : {self.statement})"

    def to_dict(self) -> dict:
        return {"binder": self.binder, "kind": self.kind, "statement": self.statement,
                "reason": self.reason, "verified_by": "sympy"}


@dataclass(frozen=True)
class PremiseRef:
    """How an argument theorem gets its premise: a lemma name, or a named hypothesis."""

    term: str
    hypothesis: PremiseHypothesis | None = None

    @property
    def uses(self) -> tuple[str, ...]:
        return () if self.hypothesis is not None else (self.term,)


def degree_text(k: sp.Expr) -> str:
    """`3` for a natural degree (`Monoid.npow`), `(3 / 2 : ℝ)` otherwise (`Real.rpow`)."""
    if k.is_Integer and k >= 0:
        return str(int(k))
    return lean_code(k)


def odd_rhs(c: sp.Expr) -> str:
    return "z" if c == 1 else f"{lean_factor(c)} * z"


def premise_statement(kind: str, s: str, degree: sp.Expr | None = None,
                      c: sp.Expr | None = None) -> str:
    """The premise as one closed Lean proposition (the shape the general theorems take)."""
    if kind == library.EVEN:
        return f"∀ z, {s} (-z) = {s} z"
    if kind == library.ODD:
        return f"∀ z, {s} z - {s} (-z) = {odd_rhs(c)}"
    if kind == library.HOMOGENEOUS:
        return f"∀ t : ℝ, 0 < t → ∀ z, {s} (t * z) = t ^ {degree_text(degree)} * {s} z"
    if kind == library.LITTLE_O:
        return f"{s} =o[𝓝 0] (fun z => z)"
    if kind == library.TENDSTO:
        return f"Tendsto {s} (𝓝 0) (𝓝 0)"
    if kind == library.TENDSTO_DIV_ZERO:
        return f"∀ z : ℝ, Tendsto (fun t : ℝ => {s} (t * z) / t) Filter.atTop (𝓝 0)"
    if kind == library.TENDSTO_DIV_RELU:
        return f"∀ z : ℝ, Tendsto (fun t : ℝ => {s} (t * z) / t) Filter.atTop (𝓝 (relu z))"
    raise ValueError(kind)


def _lemma_signature(kind: str, s: str, degree: sp.Expr | None, c: sp.Expr | None) -> str:
    if kind == library.EVEN:
        return f" (z : ℝ) : {s} (-z) = {s} z"
    if kind == library.ODD:
        return f" (z : ℝ) : {s} z - {s} (-z) = {odd_rhs(c)}"
    if kind == library.HOMOGENEOUS:
        return (f" :\n    ∀ t : ℝ, 0 < t → ∀ z, {s} (t * z) = t ^ {degree_text(degree)} * "
                f"{s} z")
    return " : " + premise_statement(kind, s, degree, c)


_LEMMA_NAMES = {library.EVEN: "{s}_neg", library.ODD: "{s}_sub_{s}_neg",
                library.HOMOGENEOUS: "{s}_posHomogeneous", library.LITTLE_O: "{s}_isLittleO",
                library.TENDSTO: "{s}_tendsto_zero"}
_ARGUMENT_OF = {library.EVEN: EVEN_PARITY, library.ODD: ODD_LINEAR_PARITY,
                library.HOMOGENEOUS: DEGREE, library.LITTLE_O: LINEARISATION,
                library.TENDSTO: LINEARISATION}
_PREMISE_WORDS = {library.EVEN: "σ is even", library.ODD: "the odd part of σ is linear",
                  library.HOMOGENEOUS: "σ is positively homogeneous",
                  library.LITTLE_O: "σ is o(z) at 0", library.TENDSTO: "g tends to 0 at 0"}


def render_certificate(certificate: Certificate, symbol: str, **extra) -> str:
    """The proof of a certified premise: the rule's template filled with the certificate."""
    text = environment().get_template(certificate.template).render(
        symbol=symbol, **certificate.context, **extra)
    lines = [line.rstrip() for line in text.strip("\n").splitlines() if line.strip()]
    return "\n".join(_wrap_line(line) for line in lines)


def _wrap_line(line: str, width: int = 100) -> str:
    """Break an over-long tactic line at its last top-level ` = ` (or ` * `, ` + `) that fits;
    the continuation is indented past the tactic's own column, as Lean requires."""
    if len(line) <= width:
        return line
    stripped = line.lstrip(" ")
    column = len(line) - len(stripped)
    if stripped.startswith("| "):
        column += 2
    depth, bars, best = 0, 0, None
    for i, char in enumerate(line):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "|" and i > column:
            bars ^= 1
        if depth == 0 and not bars and i > column + 8 and i < width - 1:
            for op in (" = ", " * ", " + ", " - "):
                if line.startswith(op, i) and (best is None or op == " = " or best[1] != " = "):
                    best = (i, op)
    if best is None:
        return line
    i, op = best
    head, tail = line[:i + len(op) - 1], line[i + len(op):]
    return head + "\n" + _wrap_line(" " * (column + 4) + tail, width)


# -- argument theorems -----------------------------------------------------------------------

def _g(name: str) -> str:
    return library.GENERAL_THEOREMS[name].full_name


def _head(premise: PremiseRef, *more: PremiseHypothesis | None) -> tuple[str, tuple]:
    """`{d n : ℕ}` and the named hypotheses (one per line) a theorem takes, with the tuple of
    those hypotheses for `Declaration.premise_hypotheses`."""
    hypotheses = tuple(h for h in (premise.hypothesis, *more) if h is not None)
    head = " {d n : ℕ}" + "".join(f"\n    {h.binder_text}" for h in hypotheses)
    return head, hypotheses


def _theorem(name: str, argument: str, premise: PremiseRef, body: str, proof: str, doc: str,
             general: str, paper: str | None, *extra_uses: str,
             nonzero: PremiseHypothesis | None = None) -> Declaration:
    head, hypotheses = _head(premise, nonzero)
    if hypotheses and not body.startswith("\n"):
        head += "\n   "
    if hypotheses:
        doc += (" Stated modulo " + ", ".join(f"`{h.binder}`" for h in hypotheses)
                + (": a premise" if len(hypotheses) == 1 else ": premises")
                + " SymPy verified but no certificate rule proves in Lean.")
    return Declaration(name, "theorem", "argument", argument, head + body, proof, doc,
                       (_g(general), *premise.uses, *extra_uses), paper,
                       premise_hypotheses=hypotheses)


def _degree_theorems(f: FamilyFile_, premise: PremiseRef, k: sp.Expr) -> list[Declaration]:
    s, name = f.symbol, f.family.name
    real = _natural(k) is None
    suffix = "_rpow" if real else ""
    if f.family.gated:
        general = f"not_gatedAbsorbable_of_posHomogeneous{suffix}"
        return [_theorem(
            f"{name}_not_gatedAbsorbable_degree", DEGREE, premise,
            f" {SKIP} (hA : A ≠ 0)\n    {WD} {WGV} :\n    ¬ GatedAbsorbable {s} A Wd Wg Wv",
            f"{general} (by norm_num) {premise.term} hA Wd Wg Wv",
            f"**Paper Prop 5 (degree argument).** The gate `{s}` is positively homogeneous of "
            f"degree {sp.sstr(k)}, so every {f.family.display} block is homogeneous of degree "
            f"{sp.sstr(k + 1)} ≠ 1: no gated block of the same width equals "
            "`x ↦ A x + block(x)` for any skip `A ≠ 0`, whatever the weights.",
            general, "Prop 5")]
    general = f"not_absorbable_of_posHomogeneous{suffix}"
    return [_theorem(
        f"{name}_not_absorbable_degree", DEGREE, premise,
        f" {SKIP} (hA : A ≠ 0)\n    {WD} {WU} :\n    ¬ Absorbable {s} A Wd Wu",
        f"{general} (by norm_num) {premise.term} hA Wd Wu",
        f"**Paper Prop 5 (degree argument).** `{s}` is positively homogeneous of degree "
        f"{sp.sstr(k)} ≠ 1: no block of the same width equals `x ↦ A x + W_down σ(W_up x)` "
        "for any skip `A ≠ 0`, whatever the weights.",
        general, "Prop 5")]


def _linearisation_theorems(f: FamilyFile_, premise: PremiseRef) -> list[Declaration]:
    s, name, p = f.symbol, f.family.name, premise.term
    if f.family.gated:
        return [
            _theorem(
                f"{name}_not_gatedAbsorbable_identity", LINEARISATION, premise,
                f" (hd : 0 < d)\n    {WD} {WGV} :\n    ¬ GatedAbsorbable {s} 1 Wd Wg Wv",
                f"not_gatedAbsorbable_of_tendsto {p} hd Wd Wg Wv",
                f"**Paper Prop 6 (linearisation at the origin), generalised.** The gate `{s}` "
                "vanishes at 0 and is continuous there, so every block of this kind is `o(|x|)`"
                " while `x + block(x)` is not: the identity skip is never absorbed (`d ≥ 1`).",
                "not_gatedAbsorbable_of_tendsto", "Prop 6"),
            _theorem(
                f"{name}_not_gatedAbsorbable_invertible", LINEARISATION, premise,
                f" (hd : 0 < d)\n    {SKIP} (hA : IsUnit A.det)\n    {WD} {WGV} :\n"
                f"    ¬ GatedAbsorbable {s} A Wd Wg Wv",
                f"not_gatedAbsorbable_of_tendsto_of_isUnit {p} hd hA Wd Wg Wv",
                "**Paper Prop 6 with Lemma 4.** The same for every invertible linear skip `A`.",
                "not_gatedAbsorbable_of_tendsto_of_isUnit", "Prop 6"),
            _theorem(
                f"{name}_not_stack_eq", LINEARISATION, premise,
                f" (hd : 0 < d)\n    (ws vs : {TRIPLES})\n    (hvs : vs ≠ []) :\n"
                f"    ¬ ∀ x, resStack (ws.map (gatedMlpOf {s})) x =\n"
                f"      plainStack (vs.map (gatedMlpOf {s})) x",
                f"not_gatedMlpStack_eq_of_tendsto {p} hd ws vs hvs",
                "**Paper Cor 7 (depth).** A stack of residual blocks of this kind never equals a "
                "non-empty stack of residual-free blocks of the same width.",
                "not_gatedMlpStack_eq_of_tendsto", "Cor 7"),
        ]
    return [
        _theorem(
            f"{name}_not_absorbable_identity", LINEARISATION, premise,
            f" (hd : 0 < d)\n    {WD} {WU} :\n    ¬ Absorbable {s} 1 Wd Wu",
            f"not_absorbable_of_isLittleO {p} hd Wd Wu",
            f"**Paper Prop 6 (linearisation at the origin), ungated form.** `{s}` is `o(z)` at 0,"
            " so every block is `o(|x|)` while `x + block(x)` is not: the identity skip is "
            "never absorbed (`d ≥ 1`).",
            "not_absorbable_of_isLittleO", "Prop 6"),
        _theorem(
            f"{name}_not_absorbable_invertible", LINEARISATION, premise,
            f" (hd : 0 < d)\n    {SKIP} (hA : IsUnit A.det)\n    {WD} {WU} :\n"
            f"    ¬ Absorbable {s} A Wd Wu",
            f"not_absorbable_of_isLittleO_of_isUnit {p} hd hA Wd Wu",
            "**Paper Prop 6 with Lemma 4.** The same for every invertible linear skip `A`.",
            "not_absorbable_of_isLittleO_of_isUnit", "Prop 6"),
        _theorem(
            f"{name}_not_stack_eq", LINEARISATION, premise,
            f" (hd : 0 < d)\n    (ws vs : {PAIRS})\n    (hvs : vs ≠ []) :\n"
            f"    ¬ ∀ x, resStack (ws.map (mlpOf {s})) x =\n"
            f"      plainStack (vs.map (mlpOf {s})) x",
            f"not_mlpStack_eq_of_isLittleO {p} hd ws vs hvs",
            "**Paper Cor 7 (depth).** A stack of residual blocks never equals a non-empty stack "
            "of residual-free blocks of the same width.",
            "not_mlpStack_eq_of_isLittleO", "Cor 7"),
    ]


def _even_theorems(f: FamilyFile_, premise: PremiseRef) -> list[Declaration]:
    s, name, p = f.symbol, f.family.name, premise.term
    return [
        _theorem(
            f"{name}_not_absorbable_even", EVEN_PARITY, premise,
            f" (hd : 0 < d)\n    {WD} {WU} :\n    ¬ Absorbable {s} 1 Wd Wu",
            f"not_absorbable_of_even {p} hd Wd Wu",
            f"**Parity argument.** `{s}` is even, so every block is even in `x`; comparing `x` "
            "and `-x` shows the identity skip is never absorbed (`d ≥ 1`).",
            "not_absorbable_of_even", None),
        _theorem(
            f"{name}_not_absorbable_even_of_ne_zero", EVEN_PARITY, premise,
            f" {SKIP} (hA : A ≠ 0)\n    {WD} {WU} :\n    ¬ Absorbable {s} A Wd Wu",
            f"not_absorbable_of_even_of_ne_zero {p} hA Wd Wu",
            "**Parity argument.** The same for every nonzero linear skip `A`.",
            "not_absorbable_of_even_of_ne_zero", None),
    ]


#: The c = 1 S-condition: `hS : … = -1` against the library's `… = -(1⁻¹) • 1`. Two
#: independent routes: rewrite the library side to `-1` and close with `exact hS` (a defeq
#: check, so the `Neg`/`One` instance paths need not be syntactically equal), or let
#: `simpa only` normalise both sides.
C_ONE_MATCH = ("(by\n"
               "      first\n"
               "        | (rw [inv_one, neg_smul, one_smul]; exact hS)\n"
               "        | (simpa only [inv_one, neg_smul, one_smul] using hS))")


def _odd_theorem(f: FamilyFile_, premise: PremiseRef, c: sp.Expr) -> Declaration:
    s, name = f.symbol, f.family.name
    characterisation = s_condition_theorems(f.analysis).get("characterisation")
    if characterisation:
        necessity = ("The converse (necessity) is stated in Lean for nondegenerate weights: "
                     f"`{characterisation}`.")
    elif f.analysis.necessity_proven:
        necessity = ("The paper also proves the condition necessary for this activation (generic "
                     "weights, `d ≥ 2`); that direction is not formalised here.")
    else:
        necessity = "Necessity is not known for this activation: other absorbing blocks may exist."
    rhs = f"{s} z - {s} (-z) = {odd_rhs(c)}"
    doc = (f"**Paper Thm 8/10, sufficiency.** `{rhs}`, so if an index set `S` has "
           f"`W_down[:,S] W_up[S,:] = {minus_inverse_identity(c)}`, keeping `W_down` and "
           "negating the rows of `W_up` in `S` absorbs the identity skip. " + necessity)
    if c == 1:
        # `σ` and `c` are pinned by name and the premise is adapted to `σ z - σ (-z) = 1 * z`
        # by a term (no rewriting).
        return _theorem(
            f"{name}_absorbable_of_sCondition", ODD_LINEAR_PARITY, premise,
            f"\n    {WD} {WU}\n    (S : Finset (Fin n))\n    (hS : {SELECTOR} = -1) :\n"
            f"    Absorbable {s} 1 Wd Wu",
            f"absorbable_of_sCondition (σ := {s}) (c := 1) one_ne_zero\n"
            f"    (fun z => ({premise.term} z).trans (one_mul z).symm) Wd Wu S\n"
            f"    {C_ONE_MATCH}",
            doc, "absorbable_of_sCondition", "Thm 8/10 (if)",
            "one_mul", "inv_one", "neg_smul", "one_smul", "one_ne_zero")
    # `c` is written with its type: an untyped numeral (`2⁻¹`) in front of `•` would default
    # to `ℕ`, which has no `Inv`.
    c_real = _c_real(c)
    nonzero, hypothesis = _nonzero(c, c_real)
    return _theorem(
        f"{name}_absorbable_of_sCondition", ODD_LINEAR_PARITY, premise,
        f"\n    {WD} {WU}\n    (S : Finset (Fin n))\n"
        f"    (hS : {SELECTOR} =\n      -({c_real}⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ)) :\n"
        f"    Absorbable {s} 1 Wd Wu",
        f"absorbable_of_sCondition {nonzero} {premise.term} Wd Wu S hS".replace(" \n", "\n"),
        doc, "absorbable_of_sCondition", "Thm 8/10 (if)", nonzero=hypothesis)


def _c_real(c: sp.Expr) -> str:
    """`c` as a typed real term: `(3 : ℝ)`, `(1 / 2 : ℝ)`, `(1 + Real.sqrt 2 : ℝ)`."""
    text = lean_code(c)
    return text if re.fullmatch(r"\(-?\d+ / \d+ : ℝ\)", text) else f"({text} : ℝ)"


def _nonzero(c: sp.Expr, c_real: str) -> tuple[str, PremiseHypothesis | None]:
    """The proof of `c ≠ 0`: `norm_num` (rational c), `positivity` (c positive in a shape it
    recognises), else a named hypothesis."""
    from leanbridge.certificates.tendsto import POS, positivity_shape

    if c.is_Rational:
        return "(by norm_num)", None
    if positivity_shape(c) == POS:
        return "(by first | positivity | norm_num)", None
    if positivity_shape(-c) == POS:
        # c < 0: `positivity` proves 0 < -c as printed, `linarith` turns it into c < 0
        negated = lean_code(-c)
        return (f"\n    (by\n      first\n        | (apply ne_of_lt; have h : (0 : ℝ) < {negated} := "
                "(by positivity); linarith)\n        | norm_num)\n   "), None
    hypothesis = PremiseHypothesis(
        NONZERO_BINDER, "nonzero", f"{c_real} ≠ 0",
        f"c = {sp.sstr(c)} ≠ 0 (SymPy); neither norm_num nor positivity is certified to prove it")
    return NONZERO_BINDER, hypothesis


# -- the large-scale limit (issue 22) --------------------------------------------------------

#: The binder of the recession premise σ(t·z)/t → ρ(z): no certificate rule proves a limit at
#: infinity (the bounded-atom rule of the issue is not written), so it is always a named
#: hypothesis, verified by SymPy (``premises.py``) and reported ``proved_modulo_premise``.
RECESSION_BINDER = "hρ"
_RECESSION_REASON = ("a limit as t → ∞: no certificate rule proves it in Lean (SymPy verified "
                     "it with sympy.limit on z = p and z = −p, p > 0)")


def _recession_premise(symbol: str, kind: str) -> PremiseRef:
    hypothesis = PremiseHypothesis(RECESSION_BINDER, kind, premise_statement(kind, symbol),
                                   _RECESSION_REASON)
    return PremiseRef(RECESSION_BINDER, hypothesis)


def _library_instance(f: FamilyFile_, table: dict[str, str]) -> tuple[str, str] | None:
    """``(function, theorem's short name)`` when the family's Lean definition is printed as
    exactly ``function z`` for a Mathlib ``function`` of ``table`` (function → the library
    theorem about it): the definition is then ``function`` by ``funext fun z => rfl``, so the
    theorem applies, with no premise (its module is added to the file's imports). None for any
    other definition."""
    try:
        term = lean_code(f.family.expr)
    except LeanPrintError:
        return None
    function = next((fn for fn in table if term == f"{fn} z"), None)
    if function is None:
        return None
    short = table[function].removeprefix(library.NAMESPACE + ".")
    f.modules.add(library.recession_module(short))
    return function, short


def _instance_proof(symbol: str, function: str, application: str) -> str:
    """Two routes to a library theorem stated for ``function``: ``exact`` across the family's
    definition (delta, then eta), and ``rw`` with ``symbol = function`` first."""
    return (f"by\n  first\n    | exact {application}\n"
            f"    | (have e : {symbol} = {function} := funext fun z => rfl\n"
            f"       rw [e]; exact {application})")


def _bounded_theorem(f: FamilyFile_) -> Declaration | None:
    """R2 for a family printed as exactly ``f z`` with ``f`` a bounded Mathlib function of
    :data:`library.BOUNDED_LEAN` (``tanh``, ``sigmoid``): the library's theorem, no premise.
    None for any other definition (its R2 theorem is stated modulo ``hρ``)."""
    instance = _library_instance(f, library.BOUNDED_LEAN)
    if instance is None:
        return None
    (function, short), s = instance, f.symbol
    return Declaration(
        f"{f.family.name}_not_absorbable_recession", "theorem", "argument", RECESSION,
        f" {{d n : ℕ}}\n    {SKIP} (hA : A ≠ 0)\n    {WD} {WU} :\n    ¬ Absorbable {s} A Wd Wu",
        _instance_proof(s, function, f"{short} hA Wd Wu"),
        f"**The large-scale limit (R2, beyond the paper).** `{s}` is `{function}`, bounded by 1: "
        "evaluating an absorbing identity at `t • x` and dividing by `t` gives `A x = 0`, so no "
        "block of the same width absorbs a skip `A ≠ 0`, for any weights (the library's "
        f"`{short}`).",
        (library.BOUNDED_LEAN[function],))


def _gate_parity_theorem(f: FamilyFile_) -> Declaration | None:
    """Gate parity's sufficiency for a gated family printed as exactly ``f z`` with ``f`` a gate
    of :data:`library.GATE_PARITY_LEAN` (the sigmoid: GLU): the library's theorem, no premise.
    None for any other gate (gate parity then stays stated in the library only)."""
    instance = _library_instance(f, library.GATE_PARITY_LEAN)
    if instance is None:
        return None
    (function, short), s = instance, f.symbol
    return Declaration(
        f"{f.family.name}_gatedAbsorbable_of_sCondition", "theorem", "argument", GATE_PARITY,
        f" {{d n : ℕ}} {SKIP}\n    {WD} {WGV}\n    (S : Finset (Fin n))\n"
        f"    (hS : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wv = -A) :\n"
        f"    GatedAbsorbable {s} A Wd Wg Wv",
        _instance_proof(s, function, f"{short} Wd Wg Wv S hS"),
        f"**Gate parity (beyond the paper).** The gate `{s}` is `{function}`, and "
        f"`{function} z + {function} (-z) = 1`: if an index set `S` has "
        "`W_down[:,S] W_val[S,:] = -A`, negating the rows of `W_gate` and the columns of "
        "`W_down` indexed by `S` (`W_val` kept) absorbs the skip `A` (the library's "
        f"`{short}`). Necessity is open.",
        (library.GATE_PARITY_LEAN[function],))


def _exact_line(theorem: str, args: str) -> str:
    """A route ``    | exact <theorem> <args>``, the arguments on the next line (indented past
    ``exact``, so Lean reads them as its arguments) when one line would pass 100 columns."""
    line = f"    | exact {theorem} {args}"
    return line if len(line) <= 100 else f"    | exact {theorem}\n        {args}"


def _recession_theorems(f: FamilyFile_, rec_kind: str, odd: PremiseRef | None,
                        lean_side) -> list[Declaration]:
    """The theorems of the large-scale limit for one family.

    * σ(tz)/t → 0: no skip A ≠ 0 is absorbed (R2), modulo `hρ`;
    * σ(tz)/t → relu z with σ(z) − σ(−z) = z: the characterisation — a catalog family with
      a library theorem instantiates it (no premise), any other one instantiates
      `absorbable_iff_of_tendsto_div_relu` modulo `hρ`;
    * σ(tz)/t → relu z alone: the S-condition is necessary, modulo `hρ`.
    """
    s, name = f.symbol, f.family.name
    lean = library.RECESSION_LEAN
    if rec_kind == library.TENDSTO_DIV_ZERO and lean_side is None:
        bounded = _bounded_theorem(f)
        if bounded is not None:
            return [bounded]
    if rec_kind == library.TENDSTO_DIV_ZERO:
        premise = _recession_premise(s, rec_kind)
        general = lean["sublinear"].removeprefix(library.NAMESPACE + ".")
        f.modules.add(library.recession_module(general))
        return [_theorem(
            f"{name}_not_absorbable_recession", RECESSION, premise,
            f" {SKIP} (hA : A ≠ 0)\n    {WD} {WU} :\n    ¬ Absorbable {s} A Wd Wu",
            f"fun h => hA (by\n    first\n      | exact {general} {premise.term} h\n"
            f"      | exact ({general} (σ := {s}) {premise.term}) h)",
            "**The large-scale limit (R2, beyond the paper).** `σ(t z)/t → 0` as `t → ∞` for "
            "every `z`: evaluating an absorbing identity at `t • x` and dividing by `t` gives "
            "`A x = 0`, so no block of the same width absorbs a skip `A ≠ 0`, for any weights.",
            general, None)]
    necessity_name = lean["necessity"].removeprefix(library.NAMESPACE + ".")
    own = library.RECESSION_FAMILIES.get(name, {}) if lean_side is not None else {}
    iff_body = (f"\n    {{Wd : Matrix (Fin d) (Fin n) ℝ}} {{Wu : Matrix (Fin n) (Fin d) ℝ}}\n"
                f"    (hnd : Nondegenerate Wd Wu) :\n"
                f"    Absorbable {s} 1 Wd Wu ↔\n"
                f"      ∃ S : Finset (Fin n),\n        {SELECTOR} = -1")
    if odd is not None and "characterisation" in own:
        theorem = own["characterisation"].removeprefix(library.NAMESPACE + ".")
        f.modules.add(library.recession_module(theorem))
        declarations = [Declaration(
            f"{name}_absorbable_iff", "theorem", "argument", RECESSION_RELU,
            " {d n : ℕ}" + iff_body, f"{theorem} hnd",
            f"**Large-scale limit (R3){' = paper Thm 10' if name == 'gelu' else ''}.** "
            f"`{s} (t z)/t → relu z` and `{s} z - {s} (-z) = z`: for nondegenerate weights the "
            "identity skip is absorbed iff some `S` has `W_down[:,S] W_up[S,:] = -1` (the "
            f"library's `{theorem}`).",
            (own["characterisation"],), "Thm 10" if name == "gelu" else None)]
        if "characterisation_skip" in own:
            skip = own["characterisation_skip"].removeprefix(library.NAMESPACE + ".")
            f.modules.add(library.recession_module(skip))
            declarations.append(Declaration(
                f"{name}_absorbable_iff_of_isUnit_det", "theorem", "argument", RECESSION_RELU,
                f" {{d n : ℕ}}\n    {SKIP} (hA : IsUnit A.det)\n"
                f"    {{Wd : Matrix (Fin d) (Fin n) ℝ}} {{Wu : Matrix (Fin n) (Fin d) ℝ}}\n"
                f"    (hnd : Nondegenerate Wd Wu) :\n"
                f"    Absorbable {s} A Wd Wu ↔\n"
                f"      ∃ S : Finset (Fin n),\n        {SELECTOR} = -A",
                f"{skip} hA hnd",
                f"**Large-scale limit (R3) with an invertible skip"
                f"{' = paper Thm 10 and Lemma 4' if name == 'gelu' else ', through Lemma 4'}.** "
                f"For invertible `A` and nondegenerate weights, `A` is absorbed iff some `S` has "
                f"`W_down[:,S] W_up[S,:] = -A` (the library's `{skip}`).",
                (own["characterisation_skip"],),
                "Thm 10 and Lemma 4" if name == "gelu" else None))
        return declarations
    premise = _recession_premise(s, rec_kind)
    if odd is not None:
        general = lean["characterisation"].removeprefix(library.NAMESPACE + ".")
        skip = lean["characterisation_skip"].removeprefix(library.NAMESPACE + ".")
        f.modules.add(library.recession_module(general))
        f.modules.add(library.recession_module(skip))
        return [_theorem(
            f"{name}_absorbable_iff", RECESSION_RELU, premise, iff_body,
            f"by\n  first\n    | exact {general} {premise.term} {odd.term} hnd\n"
            f"    | exact ({general} (σ := {s}) {premise.term} {odd.term} hnd)",
            f"**Large-scale limit (R3, beyond the paper).** `{s} (t z)/t → relu z` and "
            f"`{s} z - {s} (-z) = z`: for nondegenerate weights the identity skip is absorbed "
            "iff some `S` has `W_down[:,S] W_up[S,:] = -1`.",
            general, None, *odd.uses, nonzero=odd.hypothesis), _theorem(
            f"{name}_absorbable_iff_of_isUnit_det", RECESSION_RELU, premise,
            f"\n    {SKIP} (hA : IsUnit A.det)"
            f"\n    {{Wd : Matrix (Fin d) (Fin n) ℝ}} {{Wu : Matrix (Fin n) (Fin d) ℝ}}\n"
            f"    (hnd : Nondegenerate Wd Wu) :\n"
            f"    Absorbable {s} A Wd Wu ↔\n"
            f"      ∃ S : Finset (Fin n),\n        {SELECTOR} = -A",
            f"by\n  first\n{_exact_line(skip, f'hA {premise.term} {odd.term} hnd')}\n"
            f"    | exact ({skip} (σ := {s})\n        hA {premise.term} {odd.term} hnd)",
            f"**Large-scale limit (R3) with an invertible skip, through Lemma 4.** For "
            "invertible `A` and nondegenerate weights, `A` is absorbed iff some `S` has "
            "`W_down[:,S] W_up[S,:] = -A`.",
            skip, None, *odd.uses, nonzero=odd.hypothesis)]
    f.modules.add(library.recession_module(necessity_name))
    return [_theorem(
        f"{name}_sCondition_of_absorbable", RECESSION_RELU, premise,
        f"\n    {{Wd : Matrix (Fin d) (Fin n) ℝ}} {{Wu : Matrix (Fin n) (Fin d) ℝ}}\n"
        f"    (hnd : Nondegenerate Wd Wu) :\n    Absorbable {s} 1 Wd Wu →\n"
        f"      ∃ S : Finset (Fin n),\n        {SELECTOR} = -1",
        f"{necessity_name} (σ := {s}) {premise.term} hnd",
        f"**Large-scale limit (R3, beyond the paper).** `{s} (t z)/t → relu z`: for "
        "nondegenerate weights an absorbed identity skip forces `W_down[:,S] W_up[S,:] = -1` "
        "for some `S` (whether such a block ever absorbs is open).",
        necessity_name, None)]


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


def _user_premise(builder: FamilyFile_, kind: str, degree: sp.Expr | None = None,
                  c: sp.Expr | None = None) -> PremiseRef:
    """A user family's premise: a lemma proved by a certificate, or a named hypothesis."""
    s, expr = builder.symbol, builder.family.expr
    name = _LEMMA_NAMES[kind].format(s=s)
    existing = next((d for d in builder.declarations if d.name == name), None)
    if existing is not None:
        return PremiseRef(name)
    certificate = certify(expr, kind, degree=degree, c=c)
    extra: dict = {}
    if isinstance(certificate, Certificate) and certificate.rule == "little_o_homogeneous":
        homogeneous = _user_premise(builder, library.HOMOGENEOUS, degree=degree)
        if homogeneous.hypothesis is not None:
            certificate = Outside(kind, "σ's homogeneity has no certificate: "
                                  + homogeneous.hypothesis.reason, certificate.rule)
        else:
            extra["homogeneous_lemma"] = homogeneous.term
    if isinstance(certificate, Outside):
        return PremiseRef(PREMISE_BINDER, PremiseHypothesis(
            PREMISE_BINDER, kind, premise_statement(kind, s, degree, c), certificate.reason))
    proof = render_certificate(certificate, s, **extra)
    builder.modules.update(certificate.modules)
    uses = tuple(n for n in certificate.lean_names if n not in TACTICS)
    if "homogeneous_lemma" in extra:
        uses += (extra["homogeneous_lemma"],)
    if kind == library.HOMOGENEOUS:
        words = f"{_PREMISE_WORDS[kind]} of degree {sp.sstr(degree)}"
    elif kind == library.ODD:
        words = f"σ z - σ (-z) = {factor_text(c)} · z"
    else:
        words = _PREMISE_WORDS[kind]
    builder.declarations.append(Declaration(
        name, "theorem", "premise", _ARGUMENT_OF[kind], _lemma_signature(kind, s, degree, c),
        proof,
        f"Premise: {words} (SymPy). Proof pattern `{certificate.rule}` "
        f"(`templates/{certificate.template}`), filled with leanbridge's certificate: "
        f"{certificate.summary}.",
        uses, generated_proof=True, certificate=certificate.rule))
    return PremiseRef(name)


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
        if analysis.facts.problem is not None:
            # Lean's functions are total (`0 / 0 = 0`): a Lean definition of a formula SymPy
            # calls undefined would be a different function, and no statement about it follows.
            raise RenderError(f"{family.name}: {analysis.facts.problem}; no Lean file is "
                              "written for it")
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

    def premise(kind: str, degree: sp.Expr | None = None, c: sp.Expr | None = None) -> PremiseRef:
        if lean_side is not None:
            name = lean_side.premise(kind)
            if name is None:
                raise RenderError(f"{family.name}: the library has no {kind} premise lemma")
            return PremiseRef(name)
        return _user_premise(builder, kind, degree, c)

    facts = analysis.facts
    for argument in analysis.arguments:
        if argument.name == DEGREE:
            k = facts.degree
            builder.modules.add("SkipAbsorption.Degree")
            builder.declarations.extend(
                _degree_theorems(builder, premise(library.HOMOGENEOUS, degree=k), k))
        elif argument.name == LINEARISATION:
            kind = library.TENDSTO if family.gated else library.LITTLE_O
            reference = premise(kind, degree=facts.degree)
            # Proposition 6 and Corollary 7 (and `resStack`/`plainStack` through
            # `SkipAbsorption.Stack`): one module since issue 23
            builder.modules.add("SkipAbsorption.Linearisation")
            builder.declarations.extend(_linearisation_theorems(builder, reference))
        elif argument.name == EVEN_PARITY:
            builder.modules.add("SkipAbsorption.Parity")
            builder.declarations.extend(_even_theorems(builder, premise(library.EVEN)))
        elif argument.name == ODD_LINEAR_PARITY:
            c = facts.odd_coefficient
            try:
                lean_code(c)
            except LeanPrintError as exc:
                builder.not_formalised.append(f"odd_linear_parity: c = {c}: {exc}")
                continue
            builder.modules.add("SkipAbsorption.Parity")
            builder.declarations.append(_odd_theorem(builder, premise(library.ODD, c=c), c))
        elif argument.name == RECESSION:
            # (each theorem adds the module that declares what it instantiates)
            builder.declarations.extend(_recession_theorems(
                builder, library.TENDSTO_DIV_ZERO, None, lean_side))
        elif argument.name == RECESSION_RELU and not (lean_side and family.name == "relu"):
            # (ReLU itself: the library's `absorbable_relu_iff`, cited in the S-condition
            # theorem's docstring; its family file keeps its light import)
            odd = (premise(library.ODD, c=sp.Integer(1))
                   if facts.odd_coefficient == 1 else None)
            declarations = _recession_theorems(builder, library.TENDSTO_DIV_RELU, odd,
                                               lean_side)
            if any(d.premise_hypotheses for d in declarations):
                builder.modules.add("SkipAbsorption.Defs")     # `relu` in the premise
            builder.declarations.extend(declarations)
        elif argument.name == GATE_PARITY:
            # (only a printed gate: a library definition need not unfold to `f z` by `rfl`)
            sufficiency = _gate_parity_theorem(builder) if lean_side is None else None
            if sufficiency is not None:
                builder.declarations.append(sufficiency)
                continue
            own = library.GATE_PARITY_FAMILIES.get(family.name) if _is_catalog(family) else None
            builder.not_formalised.append(
                "gate_parity: stated in the library, not instantiated in this file: "
                f"{library.RECESSION_LEAN['gate_parity']}"
                + (f" and, for the sigmoid gate, {own}" if own else "")
                + " (sufficiency; necessity is open)")

    declarations = _order(_qualified(builder.declarations))
    if lean_side is None:
        _refuse_shadowing(family.name, declarations)
    imports = tuple(sorted(builder.modules))
    return FamilyFile(
        family=family, analysis=analysis,
        module=f"{library.FAMILIES_NAMESPACE}.{module_stem(family.name)}",
        path=family_path(family.name), imports=imports, symbol=symbol,
        library_definition=lean_side.definition if lean_side else None,
        lean_term=term, print_note=print_note,
        declarations=tuple(declarations),
        not_formalised=tuple(builder.not_formalised),
        source=source_of(family))


def _refuse_shadowing(name: str, declarations: list[Declaration]) -> None:
    """Inside ``namespace SkipAbsorption.Families`` a declaration named like a Mathlib or
    library name the file's proofs use would capture it (a user named ``mul`` gets a lemma
    ``mul_neg``, and ``simp only [mul_neg]`` would then mean that lemma)."""
    clash = sorted({d.name for d in declarations} & EXTERNAL_NAMES)
    if clash:
        raise RenderError(f"name {name!r} would make the declaration(s) {', '.join(clash)} "
                          "shadow the Lean name(s) the proofs use; choose another name")


#: Every root-namespace Lean name (Mathlib or library) a generated proof may reference.
EXTERNAL_NAMES = frozenset(
    set(library.GENERAL_THEOREMS)
    | {"one_mul", "inv_one", "neg_smul", "one_smul", "one_ne_zero"}
    | {n for n in library.CERTIFICATE_NAMES if "." not in n})


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


@functools.cache
def environment() -> jinja2.Environment:
    """The Jinja2 environment of the Lean files, one per process: each template is compiled
    once (Jinja2 still re-reads a template whose file changed). Do not modify it; for other
    filters take a :func:`new_environment`."""
    return new_environment()


def new_environment() -> jinja2.Environment:
    """A fresh environment over the templates, with the filters of the Lean files."""
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
    reasons = [_clean(r) for r in analysis.reasons]
    tried = [r.removeprefix("not used: ") for r in reasons if r.startswith("not used: ")]
    text = environment().get_template(FAMILY_TEMPLATE).render(
        plan=plan, family=plan.family, analysis=analysis, version=__version__,
        reasons=reasons, tried=tried or reasons,
        arguments=", ".join(analysis.argument_names) or "none",
    )
    return re.sub(r"\n{3,}", "\n\n", text)


def render_index(plans: list[FamilyFile]) -> str:
    """The body of ``SkipAbsorption/Families.lean``, importing every catalog family file."""
    return environment().get_template(INDEX_TEMPLATE).render(
        plans=plans, version=__version__)
