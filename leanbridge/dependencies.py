"""The dependency graph as plain data: which result uses which lemma.

Nodes are paper results, the results beyond the paper (the research note's, ``note:…``),
the Lean library's declarations (general theorems, helper lemmas,
definitions, premise lemmas), the generated family theorems, and the families themselves.
An edge ``u → v`` means *u uses v*. It is built from the catalog metadata and the names the
templates reference (:mod:`leanbridge.render`), and from the Lean sources themselves
(:mod:`leanbridge.lean.sources`), which is also how it is checked: a name the catalog, the
templates or the exports (:data:`leanbridge.library_statements.LIBRARY_STATEMENTS`) reference
but ``lean/`` does not declare is an error (:func:`missing_names`).

Plain dictionaries, so that ``leanbridge check`` reads roles and missing names without
importing NetworkX (0.07 s); :mod:`leanbridge.graph` turns them into a NetworkX graph for
drawing, export and the explanation of failures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from leanbridge.families import CATALOG
from leanbridge.lean import library
from leanbridge.lean.sources import LeanDeclaration, scan_project, short_names, uses
from leanbridge.library_statements import LIBRARY_STATEMENTS
from leanbridge.render import FamilyFile, build_family_file

PAPER = "paper"
NOTE = "note"       # a result of the research note, beyond the paper
FAMILY = "family"
LEAN = "lean"


def paper_node(result: str) -> str:
    return f"paper:{result}"


def note_node(result: str) -> str:
    """The node of a result of the research note (beyond the paper)."""
    return f"note:{result}"


def family_node(name: str) -> str:
    return f"family:{name}"


@dataclass
class Dependencies:
    """Nodes with their attributes and edges, each in the order first added (the order a
    NetworkX graph built from the same calls would have)."""

    nodes: dict[str, dict] = field(default_factory=dict)
    edges: dict[tuple[str, str], None] = field(default_factory=dict)

    def add_node(self, name: str, **data) -> None:
        self.nodes.setdefault(name, {}).update(data)

    def add_edge(self, user: str, used: str) -> None:
        self.nodes.setdefault(user, {})
        self.nodes.setdefault(used, {})
        self.edges[(user, used)] = None

    def predecessors(self, name: str) -> list[str]:
        return [user for user, used in self.edges if used == name]


@dataclass(frozen=True)
class MissingName:
    """A Lean name referenced by leanbridge but declared nowhere in ``lean/``."""

    name: str
    referenced_by: str

    def __str__(self) -> str:
        return f"{self.name} (referenced by {self.referenced_by}) is not declared in lean/"


def _role(declaration: LeanDeclaration, generated: set[str]) -> str:
    if declaration.name in generated:
        return "family_theorem" if declaration.kind in ("theorem", "lemma") else "definition"
    short = declaration.short
    if short in library.GENERAL_THEOREMS:
        return "general"
    if short in library.PREMISE_LEMMAS:
        return "premise"
    if declaration.kind in ("def", "abbrev"):
        return "definition"
    return "lemma"


def collect(project: Path, plans: list[FamilyFile] | None = None,
            declared: dict[str, LeanDeclaration] | None = None) -> Dependencies:
    """The dependencies of the project at ``project`` (catalog plans by default; the
    declarations of its sources, ``declared``, scanned if not given)."""
    plans = plans if plans is not None else [build_family_file(f) for f in CATALOG]
    declared = declared if declared is not None else scan_project(project)
    generated = {d.full_name for plan in plans for d in plan.declarations}
    graph = Dependencies()
    for name, declaration in declared.items():
        graph.add_node(name, kind=LEAN, role=_role(declaration, generated),
                       decl_kind=declaration.kind, file=declaration.file, line=declaration.line,
                       declared=True)
    by_short = short_names(declared)
    for name, declaration in declared.items():
        for used in uses(declaration, declared, by_short):
            graph.add_edge(name, used)
    for result, summary in library.PAPER_RESULTS.items():
        graph.add_node(paper_node(result), kind=PAPER, summary=summary, beyond_the_paper=False)
    for theorem in library.GENERAL_THEOREMS.values():
        for result in library.PAPER_RESULTS:
            if theorem.paper.startswith(result) or result in theorem.paper.split(" + "):
                graph.add_edge(paper_node(result), theorem.full_name)
    for result, names in library.PAPER_LIBRARY.items():
        for name in names:
            graph.add_edge(paper_node(result), f"{library.NAMESPACE}.{name}")
    # beyond the paper: the research note's results, linked to their Lean theorems the same way
    for result, summary in library.NOTE_RESULTS.items():
        graph.add_node(note_node(result), kind=NOTE, summary=summary, beyond_the_paper=True,
                       source=library.NOTE_SOURCES.get(result, "deep-stacks.md"))
    for result, names in library.NOTE_LIBRARY.items():
        for name in names:
            graph.add_edge(note_node(result), f"{library.NAMESPACE}.{name}")
    for plan in plans:
        family = family_node(plan.family.name)
        graph.add_node(family, kind=FAMILY, verdict=plan.analysis.verdict,
                       gated=plan.family.gated)
        for declaration in plan.declarations:
            graph.add_edge(family, declaration.full_name)
            graph.nodes[declaration.full_name].update(
                role="family_theorem" if declaration.role == "argument" else declaration.role,
                argument=declaration.argument, statement_hash=declaration.statement_hash)
            for used in declaration.uses:
                if used.startswith(library.NAMESPACE + "."):
                    graph.add_edge(declaration.full_name, used)
    for node, data in graph.nodes.items():
        data.setdefault("kind", LEAN)
        data.setdefault("declared", node in declared or data["kind"] != LEAN)
    return graph


def missing_names(nodes: Mapping[str, dict],
                  predecessors: Callable[[str], Iterable[str]]) -> list[MissingName]:
    """Names that leanbridge references (catalog metadata, templates, the exports' library
    statements) but lean/ lacks, from a graph's node attributes and its predecessor function.

    (:mod:`leanbridge.beyond` names no Lean declaration: its results are not formalised.)"""
    missing = []
    referenced = {t.full_name: "the general-theorem table" for t in
                  library.GENERAL_THEOREMS.values()}
    for statement in LIBRARY_STATEMENTS:
        referenced.setdefault(statement.full_name,
                              f"export entry in leanbridge/library_statements.py, group "
                              f"{statement.group}")
    for module, names in library.RECESSION_NAMES.items():
        for name in names:
            referenced.setdefault(f"{library.NAMESPACE}.{name}",
                                  f"leanbridge.lean.library.RECESSION_NAMES ({module})")
    for family, lean_side in library.CATALOG_LEAN.items():
        referenced.setdefault(f"{library.NAMESPACE}.{lean_side.definition}",
                              f"catalog family {family}")
        for _, premise in lean_side.premises:
            referenced.setdefault(f"{library.NAMESPACE}.{premise}", f"catalog family {family}")
    for node, data in nodes.items():
        if data.get("kind") == LEAN and not data.get("declared"):
            users = sorted(predecessors(node))
            referenced.setdefault(node, users[0] if users else "a template")
    for name, who in sorted(referenced.items()):
        if name not in nodes or not nodes[name].get("declared"):
            missing.append(MissingName(name, who))
    return missing
