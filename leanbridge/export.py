"""Export the statements for papers: LaTeX, Markdown, JSON and a leanblueprint project.

Everything comes from the same sources as the Lean files: the family plans of
:mod:`leanbridge.render` (one exported statement per generated argument theorem, for the
catalog and for the user families generated into the project) and the general theorems of
:mod:`leanbridge.library_statements` (one entry per library theorem).

Two layouts: by default one general theorem per argument (its parts are the library theorems)
and a table of the families that instantiate them; ``per_family`` gives one statement per
family theorem instead. LaTeX can be a standalone document or a fragment for ``\\input`` into
a one- or two-column paper (its growing tables are split into tabulars as wide as the column),
with a prefix before every label (``label_prefix``).

Every statement carries every hypothesis of its Lean statement in words, and is titled by
what it says, then the paper's result; where the Lean statements of a group are more general
than the paper's, the export says so once (:data:`~leanbridge.library_statements.GROUP_NOTES`).
The blueprint adds an informal proof to each theorem and the Mathlib facts the proofs rest on
(``\\mathlibok``); :func:`write_blueprint` writes it as a whole project, the files of
``leanblueprint new`` and ``content.tex``.

The formal status of a statement comes only from a ``leanbridge check`` JSON report in which
Lean actually ran, and only for report entries whose statement hash matches the declaration
as it is now: ``proved`` there gives ``\\leanok`` in the blueprint and "proved by Lean"
elsewhere. Entries whose statement changed since the check are ignored and listed
(:attr:`Export.stale`); without a report every statement says "not checked by Lean".

A user family's theorem may be stated *modulo a premise* (a named hypothesis ``(hσ : …)`` that
no certificate rule proves, :attr:`Declaration.premise_hypotheses`): its exported statement
assumes the premise in words ("Assume that …"), a note names it as verified by SymPy, not by
Lean, and it never gets ``\\leanok`` — its best verdict is ``proved_modulo_premise``.

A full export (no family names) ends with the section "Beyond the paper" (:class:`Beyond`):
the library theorems of :data:`~leanbridge.library_statements.BEYOND_GROUPS` (Lean names and
statuses as above), then the research note's proof sketch and conjectures (no Lean name, no
status: not formalised) and its numerical evidence, the table
``leanbridge/data/deep-evidence.json`` (:mod:`leanbridge.beyond`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import sympy as sp

from leanbridge import __version__
from leanbridge import beyond as beyond_data
from leanbridge import generate as generated_files
from leanbridge.analysis import minus_inverse_identity
from leanbridge.atomic import atomic_write
from leanbridge.families import CATALOG
from leanbridge.lean import library
from leanbridge.lean.project import read_pins
from leanbridge.lean.sources import scan_project, short_names
from leanbridge.lean.sources import uses as lean_uses
from leanbridge.library_statements import (
    BEYOND_GROUPS,
    BY_NAME,
    GROUP_NOTES,
    GROUPS,
    LIBRARY_STATEMENTS,
    MATHLIB_FACTS,
    NOTATION,
    LibraryStatement,
    definition_note,
    node_text,
    plain_text,
)
from leanbridge.render import (
    Declaration,
    FamilyFile,
    PremiseHypothesis,
    build_family_file,
    new_environment,
    templates_dir,
)
from leanbridge.results import PROVED_MODULO_PREMISE, statement_hash
from leanbridge.typeset import activation_latex

SCHEMA = "leanbridge.statements/1"
FORMATS = ("latex", "markdown", "json", "blueprint")
NOT_CHECKED = "not checked by Lean"
PROVED = "proved"
#: What every export says of a premise a theorem takes as a named hypothesis.
NOT_BY_LEAN = "verified by SymPy, not by Lean"


class ExportError(ValueError):
    """Bad export input (an unknown family, an unusable results file)."""


#: The exported statement shapes, by the suffix of the generated declaration's name.
_SHAPES = (
    ("_not_gatedAbsorbable_degree", "degree"),
    ("_not_absorbable_degree", "degree"),
    ("_not_gatedAbsorbable_identity", "identity"),
    ("_not_absorbable_identity", "identity"),
    ("_not_gatedAbsorbable_invertible", "invertible"),
    ("_not_absorbable_invertible", "invertible"),
    ("_not_stack_eq", "stack"),
    ("_not_absorbable_even_of_ne_zero", "even_nonzero"),
    ("_not_absorbable_even", "even"),
    ("_absorbable_of_sCondition", "s_condition"),
    ("_gatedAbsorbable_of_sCondition", "gated_s_condition"),
    # the large-scale limit (issue 22)
    ("_not_absorbable_recession", "nonzero_skip"),
    ("_absorbable_iff", "characterisation"),
    ("_absorbable_iff_of_isUnit_det", "characterisation_skip"),
    ("_sCondition_of_absorbable", "s_condition_necessary"),
)


#: What a family theorem of each shape says (its title; LaTeX text, mathematics in ``$…$``).
SHAPE_TITLES = {
    "degree": r"no skip $A\neq 0$ is absorbed",
    "identity": "the identity skip is not absorbed",
    "invertible": "no invertible skip is absorbed",
    "stack": "residual stacks are not residual-free stacks",
    "even": "the identity skip is not absorbed",
    "even_nonzero": r"no skip $A\neq 0$ is absorbed",
    "s_condition": "the S-condition gives an absorbing block",
    "gated_s_condition": "the S-condition gives an absorbing block",
    # the large-scale limit (issue 22)
    "nonzero_skip": r"no skip $A\neq 0$ is absorbed",
    "characterisation": "the identity skip is absorbed if and only if the S-condition holds",
    "characterisation_skip": ("an invertible skip is absorbed if and only if the S-condition "
                              "with $-A$ holds"),
    "s_condition_necessary": "an absorbed identity skip forces the S-condition",
}

def shape_of(declaration: Declaration) -> str:
    for suffix, shape in _SHAPES:
        if declaration.name.endswith(suffix):
            return shape
    raise ExportError(f"no exported statement shape for {declaration.name}")


# -- premises stated as hypotheses ---------------------------------------------------------

@dataclass(frozen=True)
class ExportedPremise:
    """A premise a family theorem takes as a named hypothesis, typeset.

    ``latex`` is LaTeX text with its mathematics in ``$…$`` (as :mod:`library_statements`), so
    it reads "Assume that {latex}." in LaTeX, Markdown and the blueprint alike.
    """

    hypothesis: PremiseHypothesis
    latex: str

    @property
    def binder(self) -> str:
        return self.hypothesis.binder

    def to_dict(self) -> dict:
        return {"binder": self.hypothesis.binder, "kind": self.hypothesis.kind,
                "lean_statement": self.hypothesis.statement, "latex": self.latex,
                "reason": self.hypothesis.reason, "verified_by": "sympy",
                "verified_by_lean": False}


def premise_latex(hypothesis: PremiseHypothesis, plan: FamilyFile) -> str:
    """The premise as mathematics: the same proposition as the hypothesis' Lean statement."""
    s = "g" if plan.family.gated else r"\sigma"
    facts = plan.analysis.facts
    kind = hypothesis.kind
    if kind == library.EVEN:
        return rf"${s}(-z) = {s}(z)$ for all $z\in\mathbb{{R}}$"
    if kind == library.ODD:
        c = facts.odd_coefficient
        rhs = "z" if c == 1 else rf"{activation_latex(c)}\,z"
        if c != 1 and (c.is_Add or (c.is_Number and c < 0)):
            rhs = rf"\bigl({activation_latex(c)}\bigr)\,z"
        return rf"${s}(z) - {s}(-z) = {rhs}$ for all $z\in\mathbb{{R}}$"
    if kind == library.HOMOGENEOUS:
        k = activation_latex(facts.degree)
        return (rf"${s}(tz) = t^{{{k}}}\,{s}(z)$ for all $t > 0$ and $z\in\mathbb{{R}}$")
    if kind == library.LITTLE_O:
        return rf"${s}(z) = o(z)$ as $z\to 0$"
    if kind == library.TENDSTO:      # Tendsto g (𝓝 0) (𝓝 0): the filter is not punctured
        return rf"${s}$ is continuous at $0$ and ${s}(0) = 0$"
    if kind == "nonzero":
        return rf"${activation_latex(facts.odd_coefficient)}\neq 0$"
    if kind == library.TENDSTO_DIV_ZERO:
        return rf"${s}(tz)/t\to 0$ as $t\to\infty$, for every $z\in\mathbb{{R}}$"
    if kind == library.TENDSTO_DIV_RELU:
        return rf"${s}(tz)/t\to\max(z, 0)$ as $t\to\infty$, for every $z\in\mathbb{{R}}$"
    raise ExportError(f"no typeset form for the premise kind {kind!r}")


# -- the check report ------------------------------------------------------------------------

@dataclass(frozen=True)
class Results:
    """What a ``leanbridge check --json`` report says, by declaration (empty: no Lean run)."""

    verdicts: dict[str, str] = field(default_factory=dict)
    hashes: dict[str, str | None] = field(default_factory=dict)
    report: dict = field(default_factory=dict)

    @property
    def checked(self) -> bool:
        return self.report.get("lean", {}).get("status") == "ran"


def read_results(path: Path | None) -> Results:
    """The verdicts of a ``leanbridge check`` JSON report (raises :class:`ExportError`).

    Verdicts count only if Lean ran in that check; otherwise every status is 'not checked'.
    """
    if path is None:
        return Results()
    path = Path(path)
    if path.is_dir():
        raise ExportError(f"cannot read results file {path}: it is a directory")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ExportError(f"cannot read results file {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportError(f"cannot read results file {path}: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("schema") != "leanbridge.check/1":
        raise ExportError(f"{path} is not a leanbridge.check/1 report")
    entries = data.get("results", [])
    if not isinstance(entries, list) or not all(
            isinstance(r, dict) and isinstance(r.get("decl"), str)
            and isinstance(r.get("verdict"), str) for r in entries):
        raise ExportError(f"{path}: 'results' must be a list of objects with 'decl' and "
                          "'verdict'")
    lean = data.get("lean", {})
    if not isinstance(lean, dict):
        raise ExportError(f"{path}: 'lean' must be an object (as check --json writes it)")
    if lean.get("status") != "ran":
        return Results(report=data)
    return Results({r["decl"]: r["verdict"] for r in entries},
                   {r["decl"]: r.get("statement_hash") for r in entries}, data)


# -- what is exported ------------------------------------------------------------------------

#: The S-condition's product, as the LaTeX statements write it (templates/_statement.tex.j2,
#: leanbridge/library_statements.py): not NumPy's ``W_down[:,S] W_up[S,:]``.
S_PRODUCT_LATEX = r"W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}}"


def condition_latex(c: sp.Expr | None) -> str | None:
    """The right-hand side of the S-condition, −(1/c)·I_d, in LaTeX (None without a c)."""
    if c is None:
        return None
    return "-I_d" if c == 1 else rf"-{activation_latex(1 / c)}\, I_d"


def reason_markdown(reason: str, c: sp.Expr | None) -> str:
    r"""An analysis reason (plain text, as the terminal and the Lean docstrings print it) with
    its matrix expressions in the exports' notation, as ``$…$`` mathematics: the S-condition
    ``W_down[:,S] W_up[S,:] = −(1/c)·I_d`` becomes ``$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}}
    = -\tfrac{1}{c}\, I_d$`` (c as the family has it), ``W_up`` ``$W_{\mathrm{up}}$``, the
    absorbing block's ``V_down`` ``$V_{\mathrm{down}}$``."""
    plain_product = "W_down[:,S] W_up[S,:]"
    if c is not None:
        reason = reason.replace(f"{plain_product} = {minus_inverse_identity(c)}",
                                f"${S_PRODUCT_LATEX} = {condition_latex(c)}$")
    gated = "W_down[:,S] W_val[S,:]"           # gate parity (issue 22)
    reason = reason.replace(f"{gated} = −I_d", r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{val}} = -I_d$")
    reason = reason.replace(gated, r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{val}}$")
    reason = re.sub(r"\b([WV])_(gate|val)\b", r"$\1_{\\mathrm{\2}}$", reason)
    reason = reason.replace(f"n′ ≥ n + rank(I + {plain_product})",
                            rf"$n' \geq n + \operatorname{{rank}}(I_d + {S_PRODUCT_LATEX})$")
    reason = reason.replace(f"n + rank(I + {plain_product})",
                            rf"$n + \operatorname{{rank}}(I_d + {S_PRODUCT_LATEX})$")
    reason = reason.replace(f"{plain_product} = −A", f"${S_PRODUCT_LATEX} = -A$")
    reason = reason.replace(plain_product, f"${S_PRODUCT_LATEX}$")
    return re.sub(r"\b([WV])_(up|down)\b", r"$\1_{\\mathrm{\2}}$", reason)


def proved_outright(status: str, declaration: Declaration) -> bool:
    """``\\leanok`` for a paper statement: Lean proved it, and it takes no premise as a named
    hypothesis. (A plain function, not the property itself: mutmut mutates no decorated
    function.)"""
    return status == PROVED and not declaration.premise_hypotheses


@dataclass(frozen=True)
class Statement:
    """One exported statement: a family's argument theorem, with its formal status."""

    plan: FamilyFile
    declaration: Declaration
    shape: str
    status: str

    @property
    def family(self):
        return self.plan.family

    @property
    def label(self) -> str:
        return "thm:" + self.declaration.name.replace("_", "-")

    @property
    def shape_title(self) -> str:
        """What the theorem says (LaTeX text): "no skip $A\\neq 0$ is absorbed"."""
        return SHAPE_TITLES[self.shape]

    @property
    def title_reference(self) -> str:
        """Its argument and the paper's result (plain text): "degree argument; paper Prop 5"."""
        argument = self.declaration.argument.replace("_", " ") + " argument"
        return argument + (f"; paper {self.declaration.paper}" if self.declaration.paper
                           else "")

    @property
    def title(self) -> str:
        """The family, what the theorem says, its argument and the paper's reference, with
        mathematics in ``$…$`` (Markdown): "ReLU²: no skip $A\\neq 0$ is absorbed (degree
        argument; paper Prop 5)"."""
        return f"{self.family.display}: {self.shape_title} ({self.title_reference})"

    @property
    def node_label(self) -> str:
        """The blueprint label: the graph shows "ReLU² — no skip A ≠ 0 is absorbed"."""
        return "thm:" + node_text(plain_text(f"{self.family.display} — {self.shape_title}"))

    @property
    def activation_latex(self) -> str:
        return activation_latex(self.family.expr)

    @property
    def c_latex(self) -> str | None:
        c = self.plan.analysis.facts.odd_coefficient
        return None if c is None else activation_latex(c)

    @property
    def condition_latex(self) -> str | None:
        return condition_latex(self.plan.analysis.facts.odd_coefficient)

    @property
    def general_theorem(self) -> str:
        return next(u for u in self.declaration.uses if u.rsplit(".", 1)[-1]
                    in library.GENERAL_THEOREMS)

    @property
    def library_statement(self) -> LibraryStatement:
        return BY_NAME[self.general_theorem]

    @property
    def premise(self) -> str | None:
        """The premise lemma the theorem applies (fully qualified)."""
        return next((u for u in self.declaration.uses if u != self.general_theorem
                     and u.startswith(library.NAMESPACE + ".")), None)

    @property
    def premise_proof(self) -> dict:
        """How the family's premise enters the theorem: a lemma of the Lean library (catalog
        families), a lemma of the family's file proved by a certificate rule's pattern (user
        families), or a named hypothesis verified by SymPy only."""
        if self.premises:
            return {"by": "hypothesis", "lemma": None, "rule": None,
                    "text": "named hypothesis " + ", ".join(p.binder for p in self.premises)
                            + f" ({NOT_BY_LEAN})"}
        if self.premise is None:
            return {"by": "none", "lemma": None, "rule": None, "text": "none"}
        own = next((d for d in self.plan.declarations if d.full_name == self.premise), None)
        if own is not None and own.certificate:
            return {"by": "certificate", "lemma": self.premise, "rule": own.certificate,
                    "text": f"certificate rule {own.certificate}"}
        return {"by": "library", "lemma": self.premise, "rule": None,
                "text": "library lemma"}

    @property
    def proved(self) -> bool:
        """Proved by Lean outright (``\\leanok``): never for a theorem stated modulo a premise."""
        return proved_outright(self.status, self.declaration)

    @property
    def premises(self) -> list[ExportedPremise]:
        """The premises the Lean theorem takes as named hypotheses (verified by SymPy only)."""
        return [ExportedPremise(h, premise_latex(h, self.plan))
                for h in self.declaration.premise_hypotheses]

    @property
    def status_text(self) -> str:
        """In words: "proved by Lean", "proved by Lean modulo hσ (…)", or the verdict."""
        if self.proved:
            return "proved by Lean"
        if self.status in (PROVED, PROVED_MODULO_PREMISE) and self.premises:
            binders = ", ".join(p.binder for p in self.premises)
            return f"proved by Lean modulo {binders} ({NOT_BY_LEAN})"
        return self.status

    def to_dict(self) -> dict:
        analysis = self.plan.analysis
        return {
            "family": self.family.name,
            "display": self.family.display,
            "gated": self.family.gated,
            "verdict": analysis.verdict,
            "argument": self.declaration.argument,
            "shape": self.shape,
            "paper": self.declaration.paper,
            "label": self.label,
            "lean_name": self.declaration.full_name,
            "statement_hash": self.declaration.statement_hash,
            "lean_statement": self.declaration.statement,
            "activation": {"sympy": sp.sstr(self.family.expr), "latex": self.activation_latex,
                           "lean": self.plan.lean_term,
                           "lean_definition": self.plan.symbol},
            "odd_coefficient": None if self.c_latex is None else sp.sstr(
                analysis.facts.odd_coefficient),
            "necessity_proven": analysis.necessity_proven,
            "uses": [self.general_theorem] + ([self.premise] if self.premise else []),
            "status": self.status,
            "premises": [p.to_dict() for p in self.premises],
            "premise_proof": self.premise_proof,
        }


@dataclass(frozen=True)
class FamilyRow:
    """A family of the export: its plan, its statements and where Lean differs from SymPy."""

    plan: FamilyFile
    statements: list[Statement]

    @property
    def family(self):
        return self.plan.family

    @property
    def analysis(self):
        return self.plan.analysis

    @property
    def activation_latex(self) -> str:
        return activation_latex(self.family.expr)

    @property
    def symbol(self) -> str:
        return "g" if self.family.gated else r"\sigma"

    @property
    def reasons_markdown(self) -> list[str]:
        """The analysis' reasons for the Markdown export (:func:`reason_markdown`)."""
        c = self.analysis.facts.odd_coefficient
        return [reason_markdown(reason, c) for reason in self.analysis.reasons]

    @property
    def lean_definition(self) -> str:
        if self.plan.library_definition is not None:
            return f"{library.NAMESPACE}.{self.plan.library_definition}"
        return f"{library.FAMILIES_NAMESPACE}.{self.plan.symbol}"

    @property
    def label(self) -> str:
        return "def:" + self.family.name.replace("_", "-")

    @property
    def node_label(self) -> str:
        """The blueprint label of the family's definition: "def:ReLU² (relu2)"."""
        return "def:" + node_text(f"{self.family.display} ({self.family.name})")

    @property
    def note(self) -> str | None:
        has_bridge = any(d.role == "bridge" for d in self.plan.declarations)
        return definition_note(self.plan.library_definition, has_bridge)

    @property
    def parameter_latex(self) -> str | None:
        """The hypothesis' parameter: the degree k (m for a gate) or the odd coefficient c."""
        facts = self.analysis.facts
        arguments = {s.declaration.argument for s in self.statements}
        if "degree" in arguments and facts.degree is not None:
            return f"{'m' if self.family.gated else 'k'} = {activation_latex(facts.degree)}"
        if "odd_linear_parity" in arguments and facts.odd_coefficient is not None:
            return f"c = {activation_latex(facts.odd_coefficient)}"
        return None

    @property
    def status(self) -> str:
        """One word for the table: proved (all), n/m proved, or the first failing verdict."""
        if not self.statements:
            return "no theorem"
        verdicts = [s.status for s in self.statements]
        modulo = sum(v == PROVED_MODULO_PREMISE for v in verdicts)
        proved = sum(v == PROVED for v in verdicts) + modulo
        if proved == len(verdicts):
            return PROVED if not modulo else f"proved ({modulo} modulo a premise {NOT_BY_LEAN})"
        if all(v == NOT_CHECKED for v in verdicts):
            return NOT_CHECKED
        failing = next((v for v in verdicts if v not in (PROVED, PROVED_MODULO_PREMISE,
                                                         NOT_CHECKED)), NOT_CHECKED)
        return f"{proved}/{len(verdicts)} proved ({failing})" if proved else failing

    @property
    def premises(self) -> list[ExportedPremise]:
        """The distinct premises the family's exported theorems take as named hypotheses."""
        seen: dict[tuple[str, str], ExportedPremise] = {}
        for statement in self.statements:
            for premise in statement.premises:
                seen.setdefault((premise.binder, premise.hypothesis.statement), premise)
        return list(seen.values())


@dataclass(frozen=True)
class LibraryRow:
    """A general theorem of the export, with its status."""

    statement: LibraryStatement
    status: str
    part: int                        # its number inside its group (1, 2, …)

    @property
    def proved(self) -> bool:
        return self.status == PROVED


@dataclass(frozen=True)
class Beyond:
    """The section "Beyond the paper" of a full export, after the paper's results: its
    theorems are the library rows of :data:`BEYOND_GROUPS` (:attr:`Export.beyond_groups`);
    this holds the rest, which is not formalised (:mod:`leanbridge.beyond`)."""

    evidence: beyond_data.Evidence
    heading: str = beyond_data.HEADING
    intro: str = beyond_data.INTRO
    notation: str = beyond_data.NOTATION
    conjectures: tuple[beyond_data.Conjecture, ...] = beyond_data.CONJECTURES

    @property
    def seeds(self) -> list[int]:
        return sorted({row.seed for row in self.evidence.rows})

    def to_dict(self, rows: list[LibraryRow]) -> dict:
        return {"heading": self.heading, "intro": self.intro, "notation": self.notation,
                "theorems": [{"lean_name": r.statement.full_name, "label": r.statement.label,
                              "status": r.status} for r in rows],
                "conjectures": [c.to_dict() for c in self.conjectures],
                "evidence_note": "numerical evidence, not proof; regenerate with: "
                                 + self.evidence.command,
                "evidence": self.evidence.data}


@dataclass
class Export:
    """Everything an export prints."""

    families: list[FamilyRow]
    statements: list[Statement]
    library: list[LibraryRow]
    results: Results
    stale: list[str]                 # report entries ignored: their statement changed
    full: bool
    beyond: Beyond | None = None     # the section "Beyond the paper" (full exports)

    @property
    def groups(self) -> list[tuple[str, str, list[LibraryRow]]]:
        """(key, heading, rows) of the groups that have rows, in :data:`GROUPS` order (the
        paper's groups, then those of :data:`BEYOND_GROUPS`)."""
        return [(key, title, [r for r in self.library if r.statement.group == key])
                for key, title in GROUPS.items()
                if any(r.statement.group == key for r in self.library)]

    @property
    def paper_groups(self) -> list[tuple[int, str, str, list[LibraryRow]]]:
        """(number, key, heading, rows) of the paper's groups (numbered as :meth:`ref`)."""
        return [(number, *group) for number, group in enumerate(self.groups, start=1)
                if group[0] not in BEYOND_GROUPS or self.beyond is None]

    @property
    def beyond_groups(self) -> list[tuple[int, str, str, list[LibraryRow]]]:
        """(number, key, heading, rows) of the groups beyond the paper, numbered after the
        paper's; empty unless the export has the section :attr:`beyond`."""
        if self.beyond is None:
            return []
        return [(number, *group) for number, group in enumerate(self.groups, start=1)
                if group[0] in BEYOND_GROUPS]

    @property
    def paper_library(self) -> list[LibraryRow]:
        """The paper's rows; in a named export (no section beyond the paper) also the rows
        beyond the paper its statements instantiate."""
        return [r for r in self.library
                if not r.statement.beyond_the_paper or self.beyond is None]

    @property
    def beyond_library(self) -> list[LibraryRow]:
        return [r for r in self.library if r.statement.beyond_the_paper]

    def library_row(self, full_name: str) -> LibraryRow | None:
        return next((r for r in self.library if r.statement.full_name == full_name), None)

    def ref(self, full_name: str) -> str:
        """How the text refers to a library theorem: "2(iii)" (theorem 2 of the export,
        part iii), numbered as the standalone LaTeX document numbers them."""
        for number, (_, _, rows) in enumerate(self.groups, start=1):
            for row in rows:
                if row.statement.full_name == full_name:
                    return f"{number}({roman(row.part)})"
        raise KeyError(full_name)


def roman(number: int) -> str:
    """Lower-case roman numeral (as LaTeX's \\roman) of a part number."""
    out = ""
    for value, letters in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"),
                           (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"),
                           (4, "iv"), (1, "i")):
        while number >= value:
            out, number = out + letters, number - value
    return out


def user_plans(project: Path) -> list[FamilyFile]:
    """Plans of the user families generated into ``project`` (``generate --expr``), by name."""
    plans = []
    families_dir = project / generated_files.FAMILIES_DIR
    for path in sorted(families_dir.glob("*.lean")) if families_dir.is_dir() else []:
        try:
            header = generated_files.header_of(path)
        except OSError:
            continue
        if header is None or "family" in header.source:
            continue
        output = generated_files.rerender_user_file(header)
        if output is not None and output.plan is not None:
            plans.append(output.plan)
    return sorted(plans, key=lambda plan: plan.family.name)


def library_hashes(project: Path) -> dict[str, str]:
    """The statement hash of every library theorem as ``lean/`` states it now.

    The same rule as ``leanbridge check`` applies to declarations it does not generate: the
    declaration's text up to ``:=``.
    """
    declared = scan_project(project)
    return {entry.full_name: statement_hash(declared[entry.full_name].text.split(":=", 1)[0])
            for entry in LIBRARY_STATEMENTS if entry.full_name in declared}


def collect(project: Path, names: list[str] | None = None, results: Results | None = None
            ) -> Export:
    """The catalog and the user families of ``project`` (or the named ones, deduplicated)."""
    results = results or Results()
    catalog = {f.name: f for f in CATALOG}
    users = {plan.family.name: plan for plan in user_plans(project)}
    wanted = list(dict.fromkeys(names or []))
    unknown = [n for n in wanted if n not in catalog and n not in users]
    if unknown:
        known = [*catalog, *users]
        raise ExportError(f"unknown family {', '.join(unknown)}; known: {', '.join(known)}")
    if wanted:
        plans = [build_family_file(catalog[n]) if n in catalog else users[n] for n in wanted]
    else:
        plans = [build_family_file(family) for family in CATALOG] + list(users.values())

    current: dict[str, str] = {}
    argument_decls = [(plan, d) for plan in plans for d in plan.declarations
                      if d.role == "argument"]
    current.update({d.full_name: d.statement_hash for _, d in argument_decls})
    chosen_library = _chosen_library(argument_decls, full=not wanted)
    hashes = library_hashes(project)
    current.update({e.full_name: hashes[e.full_name] for e in chosen_library
                    if e.full_name in hashes})
    statuses, stale = _statuses(results, current)

    statements = [Statement(plan, d, shape_of(d), statuses.get(d.full_name, NOT_CHECKED))
                  for plan, d in argument_decls]
    families = [FamilyRow(plan, [s for s in statements if s.plan is plan]) for plan in plans]
    parts: dict[str, int] = {}
    rows = []
    for entry in chosen_library:
        parts[entry.group] = parts.get(entry.group, 0) + 1
        rows.append(LibraryRow(entry, statuses.get(entry.full_name, NOT_CHECKED),
                               parts[entry.group]))
    return Export(families, statements, rows, results, stale, full=not wanted,
                  beyond=None if wanted else _beyond())


def _beyond() -> Beyond:
    try:
        return Beyond(beyond_data.load_evidence())
    except beyond_data.EvidenceError as exc:
        raise ExportError(str(exc)) from None


def _chosen_library(argument_decls, full: bool) -> list[LibraryStatement]:
    """Every entry, paper's first (full export), or those the statements use plus the entries
    of the same groups that no family theorem instantiates (results stated on their own); the
    results beyond the paper in a full export, and in a named one only those its statements
    instantiate (tanh's `never` rests on the large-scale limit, R2)."""
    if full:
        return sorted(LIBRARY_STATEMENTS, key=lambda e: e.beyond_the_paper)
    used = {u for _, d in argument_decls for u in d.uses}
    groups = {BY_NAME[u].group for u in used if u in BY_NAME}
    return [e for e in LIBRARY_STATEMENTS if e.full_name in used or (
        not e.beyond_the_paper and e.group in groups
        and e.lean not in library.GENERAL_THEOREMS)]


def _statuses(results: Results, current: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """(name → verdict, stale names): a report entry counts only if its hash is current."""
    statuses, stale = {}, []
    for name, verdict in results.verdicts.items():
        if name not in current:
            continue
        if results.hashes.get(name) != current[name]:
            stale.append(name)
            continue
        statuses[name] = verdict
    return statuses, sorted(stale)


# -- text ------------------------------------------------------------------------------------

def _pins(project: Path) -> dict[str, str]:
    pins = read_pins(project)
    return {"lean_toolchain": pins.lean_toolchain or "unknown",
            "mathlib_rev": pins.mathlib_rev or "unknown"}


_LATEX_TEXT = {"²": r"\textsuperscript{2}", "³": r"\textsuperscript{3}",
               "¹": r"\textsuperscript{1}", "σ": r"$\sigma$", "α": r"$\alpha$",
               "Φ": r"$\Phi$", "π": r"$\pi$", "ℝ": r"$\mathbb{R}$", "−": "--", "—": "---",
               "–": "--", "≠": r"$\neq$", "≥": r"$\geq$", "·": r"$\cdot$", "⊙": r"$\odot$",
               "√": r"$\sqrt{}$", "…": r"\ldots{}", "→": r"$\to$", "⁻": "$^{-}$", "é": r"\'e",
               "×": r"$\times$", "′": "$'$", "≤": r"$\leq$", "ρ": r"$\rho$", "β": r"$\beta$",
               "∞": r"$\infty$", "§": r"\S{}", "∈": r"$\in$", "Σ": r"$\Sigma$"}
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def latex_text(text: str) -> str:
    """Plain text (family names, descriptions, Lean names) made safe for pdflatex."""
    out = []
    text = str(text)
    for index, char in enumerate(text):
        if char == "-" and text[index + 1:index + 2] == "-":
            out.append("-{}")        # "--write" stays two hyphens, not an en dash
        elif char in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[char])
        elif char in _LATEX_TEXT:
            out.append(_LATEX_TEXT[char])
        elif ord(char) < 128:
            out.append(char)
        else:
            raise ExportError(f"no LaTeX spelling for {char!r} in {text!r}")
    return "".join(out)


#: The formats ``per_family`` applies to (JSON and the blueprint always hold every theorem).
PER_FAMILY_FORMATS = ("latex", "markdown")
#: The formats with labels that ``label_prefix`` applies to.
LABEL_FORMATS = ("latex", "blueprint")
_LABEL_PREFIX = re.compile(r"[A-Za-z0-9:.-]*")


def render(fmt: str, data: Export, project: Path, per_family: bool = False,
           fragment: bool = False, label_prefix: str = "") -> str:
    """The export in ``fmt`` (one of :data:`FORMATS`).

    ``label_prefix`` goes before every ``\\label`` and ``\\ref`` of the LaTeX and blueprint
    exports (``lb:`` gives ``lb:thm:arg-degree``), so that they cannot collide with a host
    paper's labels. Raises :class:`ExportError` for an option the format does not have.
    """
    if per_family and fmt not in PER_FAMILY_FORMATS:
        raise ExportError(f"--per-family applies to --format latex and markdown only ({fmt} "
                          "always carries every family theorem)")
    if label_prefix and fmt not in LABEL_FORMATS:
        raise ExportError(f"--label-prefix applies to --format latex and blueprint only "
                          f"({fmt} has no labels)")
    if _LABEL_PREFIX.fullmatch(label_prefix) is None:
        raise ExportError(f"--label-prefix {label_prefix!r}: use letters, digits, ':', '.' "
                          "and '-' only")
    pins = _pins(project)
    report = data.results.report
    if fmt == "json":
        return json.dumps({
            "schema": SCHEMA, "leanbridge_version": __version__, **pins,
            "checked_by_lean": data.results.checked,
            "check_started_at": report.get("started_at") if report else None,
            "ignored_stale": data.stale,
            "notation": NOTATION,
            "group_notes": {key: GROUP_NOTES[key] for key, _, _ in data.groups
                            if key in GROUP_NOTES},
            "library": [{**row.statement.to_dict(), "status": row.status}
                        for row in data.library],
            "families": [{"family": row.family.name, "display": row.family.display,
                          "gated": row.family.gated, "verdict": row.analysis.verdict,
                          "activation_latex": row.activation_latex,
                          "lean_definition": row.lean_definition,
                          "definition_note": row.note, "status": row.status,
                          "premises": [p.to_dict() for p in row.premises]}
                         for row in data.families],
            "statements": [{**s.to_dict(), "title": s.title} for s in data.statements],
            "beyond_the_paper": None if data.beyond is None
            else data.beyond.to_dict(data.beyond_library),
        }, indent=2, ensure_ascii=False) + "\n"
    env = new_environment()
    env.filters["tex"] = latex_text
    env.filters["texname"] = lambda name: latex_text(name).replace(r"\_", r"\_\allowbreak{}")
    env.filters["label"] = lambda label: label_prefix + label
    env.filters["column"] = lambda fraction: (rf"p{{\dimexpr {fraction}\linewidth"
                                              rf"-2\tabcolsep\relax}}")
    env.filters["format_texttt"] = lambda text: rf"\texttt{{{text}}}"
    env.filters["library_node"] = lambda name: (
        data.library_row(name).statement.node_label if data.library_row(name) else None)
    env.globals["minus_inverse_identity"] = minus_inverse_identity
    env.globals["group_notes"] = GROUP_NOTES
    template = {"latex": "statements.tex.j2", "markdown": "statements.md.j2",
                "blueprint": "blueprint.tex.j2"}[fmt]
    return env.get_template(template).render(
        data=data, statements=data.statements, families=data.families, groups=data.groups,
        library=data.library, pins=pins, version=__version__, checked=data.results.checked,
        report=report, notation=NOTATION, per_family=per_family, fragment=fragment,
        not_checked=NOT_CHECKED, not_by_lean=NOT_BY_LEAN,
        mathlib_facts=_mathlib_facts(data),
        library_uses=library_uses(project) if fmt == "blueprint" else {})


def library_uses(project: Path) -> dict[str, list[str]]:
    """For each library theorem, the other library theorems its Lean proof uses, directly or
    through the project's helper lemmas (read from the sources, :func:`scan_project`): the
    blueprint's proof edges between library theorems."""
    declared = scan_project(project)
    by_short = short_names(declared)
    found: dict[str, list[str]] = {}
    for entry in LIBRARY_STATEMENTS:
        if entry.full_name not in declared:
            continue
        seen: set[str] = set()
        todo = list(lean_uses(declared[entry.full_name], declared, by_short))
        used: set[str] = set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            if name in BY_NAME:
                used.add(name)
            elif not name.startswith(library.FAMILIES_NAMESPACE + "."):
                todo += lean_uses(declared[name], declared, by_short)
        found[entry.full_name] = sorted(used - {entry.full_name})
    return found


def _mathlib_facts(data: Export):
    """The Mathlib facts (:data:`MATHLIB_FACTS`) used by the export's library theorems."""
    chosen = {row.statement.lean for row in data.library}
    return [fact for fact in MATHLIB_FACTS if chosen & set(fact.used_by)]


# -- the blueprint project -------------------------------------------------------------------

#: The files ``leanblueprint new`` writes into ``blueprint/src`` (its templates, copied into
#: ``templates/blueprint_project/``), besides ``content.tex``, which the export writes.
BLUEPRINT_FILES = ("web.tex", "print.tex", "plastex.cfg", "latexmkrc", "blueprint.sty",
                   "extra_styles.css", "macros/common.tex", "macros/web.tex",
                   "macros/print.tex")
#: The answers ``leanblueprint new`` would be given (its defaults where it has one).
BLUEPRINT_CONFIG = {
    "title": "SkipAbsorption: can an MLP absorb its own skip connection?",
    "author": "Statements exported by leanbridge (arXiv 2604.23705)",
    "github": "", "home": "",
    "dochome": "https://leanprover-community.github.io/mathlib4_docs",
    "documentclass": "report", "paper": "a4paper", "showmore": True, "toc_depth": 3,
    "split_level": 0, "localtoc_level": 0,
}


def blueprint_project(content: str) -> dict[str, str]:
    """The files of a blueprint project, relative to its ``src`` directory: those of
    ``leanblueprint new`` (rendered as it renders them) and ``content.tex``."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "blueprint_project")),
        variable_start_string="{|", variable_end_string="|}", comment_start_string="{--",
        comment_end_string="--}", undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True)
    files = {name: env.get_template(name).render(BLUEPRINT_CONFIG) for name in BLUEPRINT_FILES}
    files["content.tex"] = content
    return files


#: How ``content.tex`` written by the export begins (templates/blueprint.tex.j2).
CONTENT_HEADER = "% Generated by leanbridge"


def write_blueprint(directory: Path, content: str) -> tuple[list[Path], list[Path]]:
    """Write the blueprint project into ``directory`` (the ``blueprint`` folder of a Lean
    project): its sources in ``src/``; ``leanblueprint web`` (or ``plastex -c plastex.cfg
    web.tex`` in ``src/``) writes the site into ``web/``. Returns (written, kept) paths.

    ``content.tex`` is written (atomically) every time; the other files only where they do not
    exist yet, so that a project's own edits of ``web.tex``, the macros or ``plastex.cfg`` are
    kept. A ``content.tex`` that the export did not write is never overwritten
    (:class:`ExportError`, before anything is written)."""
    src = Path(directory) / "src"
    content_path = src / "content.tex"
    if content_path.is_file():
        try:
            first = content_path.read_text(encoding="utf-8").lstrip()[:len(CONTENT_HEADER)]
        except (OSError, UnicodeDecodeError):
            first = ""
        if first != CONTENT_HEADER:
            raise ExportError(f"{content_path} was not written by leanbridge export; move it "
                              "away or choose another --out")
    written, kept = [], []
    for name, text in blueprint_project(content).items():
        target = src / name
        if name != "content.tex" and target.exists():
            kept.append(target)
            continue
        atomic_write(target, text)
        written.append(target)
    return written, kept
