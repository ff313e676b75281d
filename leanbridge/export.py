"""Export the statements for papers: LaTeX, Markdown, JSON and a leanblueprint ``content.tex``.

Everything comes from the same source as the Lean files: the family plans of
:mod:`leanbridge.render` (one exported statement per generated argument theorem). The formal
status of a statement comes only from a ``leanbridge check`` JSON report in which Lean actually
ran: ``proved`` there gives ``\\leanok`` in the blueprint and "proved by Lean" elsewhere;
without such a report every statement says "not checked by Lean".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import sympy as sp

from leanbridge import __version__
from leanbridge.analysis import minus_inverse_identity
from leanbridge.families import CATALOG
from leanbridge.lean import library
from leanbridge.lean.project import read_pins
from leanbridge.render import Declaration, FamilyFile, build_family_file, environment

SCHEMA = "leanbridge.statements/1"
FORMATS = ("latex", "markdown", "json", "blueprint")
NOT_CHECKED = "not checked by Lean"


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
)


def shape_of(declaration: Declaration) -> str:
    for suffix, shape in _SHAPES:
        if declaration.name.endswith(suffix):
            return shape
    raise ExportError(f"no exported statement shape for {declaration.name}")


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
    def activation_latex(self) -> str:
        return sp.latex(self.family.expr)

    @property
    def c_latex(self) -> str | None:
        c = self.plan.analysis.facts.odd_coefficient
        return None if c is None else sp.latex(c)

    @property
    def condition_latex(self) -> str | None:
        c = self.plan.analysis.facts.odd_coefficient
        if c is None:
            return None
        return "-I_d" if c == 1 else rf"-{sp.latex(1 / c)}\, I_d"

    @property
    def general_theorem(self) -> str:
        return next(u for u in self.declaration.uses if u.rsplit(".", 1)[-1]
                    in library.GENERAL_THEOREMS)

    @property
    def premise(self) -> str | None:
        """The premise lemma the theorem applies (fully qualified)."""
        return next((u for u in self.declaration.uses if u != self.general_theorem
                     and u.startswith(library.NAMESPACE + ".")), None)

    @property
    def proved(self) -> bool:
        return self.status == "proved"

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
        }


def read_results(path: Path | None) -> tuple[dict[str, str], dict]:
    """(declaration → verdict, report metadata) from a ``leanbridge check`` JSON report.

    Verdicts count only if Lean ran in that check; otherwise every status is 'not checked'.
    """
    if path is None:
        return {}, {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ExportError(f"cannot read results file {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("schema") != "leanbridge.check/1":
        raise ExportError(f"{path} is not a leanbridge.check/1 report")
    if data.get("lean", {}).get("status") != "ran":
        return {}, data
    return {r["decl"]: r["verdict"] for r in data.get("results", [])}, data


def collect(names: list[str] | None = None, results: dict[str, str] | None = None
            ) -> tuple[list[FamilyFile], list[Statement]]:
    """(plans, statements) of the catalog or of the named families, in catalog order."""
    known = {f.name: f for f in CATALOG}
    unknown = [n for n in names or [] if n not in known]
    if unknown:
        raise ExportError(f"unknown family {', '.join(unknown)}; known: {', '.join(known)}")
    chosen = [known[n] for n in names] if names else list(CATALOG)
    results = results or {}
    plans = [build_family_file(family) for family in chosen]
    out = []
    for plan in plans:
        for declaration in plan.declarations:
            if declaration.role != "argument":
                continue
            status = results.get(declaration.full_name) or NOT_CHECKED
            out.append(Statement(plan, declaration, shape_of(declaration), status))
    return plans, out


def _pins(project: Path) -> dict[str, str]:
    pins = read_pins(project)
    return {"lean_toolchain": pins.lean_toolchain or "unknown",
            "mathlib_rev": pins.mathlib_rev or "unknown"}


_LATEX_TEXT = {"²": r"\textsuperscript{2}", "³": r"\textsuperscript{3}",
               "¹": r"\textsuperscript{1}", "σ": r"$\sigma$", "α": r"$\alpha$",
               "Φ": r"$\Phi$", "π": r"$\pi$", "ℝ": r"$\mathbb{R}$", "−": "--", "—": "---",
               "–": "--", "≠": r"$\neq$", "≥": r"$\geq$", "·": r"$\cdot$", "⊙": r"$\odot$",
               "√": r"$\sqrt{}$", "…": r"\ldots{}", "→": r"$\to$", "⁻": "$^{-}$", "é": r"\'e"}
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def latex_text(text: str) -> str:
    """Plain text (family names, descriptions, Lean names) made safe for pdflatex."""
    out = []
    for char in str(text):
        if char in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[char])
        elif char in _LATEX_TEXT:
            out.append(_LATEX_TEXT[char])
        elif ord(char) < 128:
            out.append(char)
        else:
            raise ExportError(f"no LaTeX spelling for {char!r} in {text!r}")
    return "".join(out)


def render(fmt: str, plans: list[FamilyFile], chosen: list[Statement], project: Path,
           report: dict, results: dict[str, str] | None = None) -> str:
    """The export in ``fmt`` (one of :data:`FORMATS`)."""
    pins = _pins(project)
    results = results or {}
    context = {"statements": chosen, "pins": pins, "version": __version__,
               "checked": bool(report) and report.get("lean", {}).get("status") == "ran",
               "report": report, "families": _families(plans, chosen),
               "general": _general(chosen, results), "results": results}
    if fmt == "json":
        return json.dumps({
            "schema": SCHEMA, "leanbridge_version": __version__, **pins,
            "checked_by_lean": context["checked"],
            "check_started_at": report.get("started_at") if report else None,
            "statements": [s.to_dict() for s in chosen],
        }, indent=2, ensure_ascii=False) + "\n"
    env = environment()
    env.filters["tex"] = latex_text
    env.filters["texname"] = lambda name: latex_text(name).replace(r"\_", r"\_\allowbreak{}")
    env.filters["mdcode"] = lambda text: f"`{text}`"
    env.globals["minus_inverse_identity"] = minus_inverse_identity
    template = {"latex": "statements.tex.j2", "markdown": "statements.md.j2",
                "blueprint": "blueprint.tex.j2"}[fmt]
    return env.get_template(template).render(**context)


def _families(plans: list[FamilyFile], chosen: list[Statement]) -> list[tuple]:
    """(family, analysis, its statements) for every chosen family, also those without any."""
    return [(plan.family, plan.analysis,
             [s for s in chosen if s.family.name == plan.family.name]) for plan in plans]


def _general(chosen: list[Statement], results: dict[str, str]) -> list[dict]:
    """The library theorems the statements use (blueprint nodes), with their status."""
    names = sorted({s.general_theorem for s in chosen})
    out = []
    for name in names:
        theorem = library.GENERAL_THEOREMS[name.rsplit(".", 1)[-1]]
        out.append({"name": name, "label": "thm:lib-" + theorem.name.replace("_", "-"),
                    "paper": theorem.paper, "summary": theorem.summary,
                    "proved": results.get(name) == "proved"})
    return out
