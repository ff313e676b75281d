"""The dependency graph: which result uses which lemma (NetworkX).

Nodes are paper results, the Lean library's declarations (general theorems, helper lemmas,
definitions, premise lemmas), the generated family theorems, and the families themselves.
An edge ``u → v`` means *u uses v*. It is built from the catalog metadata and the names the
templates reference (:mod:`leanbridge.render`), and from the Lean sources themselves
(:mod:`leanbridge.lean.sources`), which is also how it is checked: a name the templates
reference but ``lean/`` does not declare is an error (``leanbridge graph --check``).

The checker uses it to explain failures: a family theorem that fails because a lemma it
depends on failed says so (:func:`failed_dependencies`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

from leanbridge.families import CATALOG
from leanbridge.lean import library
from leanbridge.lean.sources import LeanDeclaration, scan_project, short_names, uses
from leanbridge.render import FamilyFile, build_family_file

PAPER = "paper"
FAMILY = "family"
LEAN = "lean"


def paper_node(result: str) -> str:
    return f"paper:{result}"


def family_node(name: str) -> str:
    return f"family:{name}"


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


def build(project: Path, plans: list[FamilyFile] | None = None,
          declared: dict[str, LeanDeclaration] | None = None) -> nx.DiGraph:
    """The dependency graph of the project at ``project`` (catalog plans by default; the
    declarations of its sources, ``declared``, scanned if not given)."""
    plans = plans if plans is not None else [build_family_file(f) for f in CATALOG]
    declared = declared if declared is not None else scan_project(project)
    generated = {d.full_name for plan in plans for d in plan.declarations}
    graph = nx.DiGraph()
    for name, declaration in declared.items():
        graph.add_node(name, kind=LEAN, role=_role(declaration, generated),
                       decl_kind=declaration.kind, file=declaration.file, line=declaration.line,
                       declared=True)
    by_short = short_names(declared)
    for name, declaration in declared.items():
        for used in uses(declaration, declared, by_short):
            graph.add_edge(name, used)
    for result, summary in library.PAPER_RESULTS.items():
        graph.add_node(paper_node(result), kind=PAPER, summary=summary)
    for theorem in library.GENERAL_THEOREMS.values():
        for result in library.PAPER_RESULTS:
            if theorem.paper.startswith(result) or result in theorem.paper.split(" + "):
                graph.add_edge(paper_node(result), theorem.full_name)
    for result, names in library.PAPER_LIBRARY.items():
        for name in names:
            graph.add_edge(paper_node(result), f"{library.NAMESPACE}.{name}")
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
    for node, data in graph.nodes(data=True):
        data.setdefault("kind", LEAN)
        data.setdefault("declared", node in declared or data["kind"] != LEAN)
    return graph


def missing_names(graph: nx.DiGraph) -> list[MissingName]:
    """Names that leanbridge references (catalog metadata, templates) but lean/ lacks."""
    missing = []
    referenced = {t.full_name: "the general-theorem table" for t in
                  library.GENERAL_THEOREMS.values()}
    for family, lean_side in library.CATALOG_LEAN.items():
        referenced.setdefault(f"{library.NAMESPACE}.{lean_side.definition}",
                              f"catalog family {family}")
        for _, premise in lean_side.premises:
            referenced.setdefault(f"{library.NAMESPACE}.{premise}", f"catalog family {family}")
    for node, data in graph.nodes(data=True):
        if data.get("kind") == LEAN and not data.get("declared"):
            users = sorted(graph.predecessors(node))
            referenced.setdefault(node, users[0] if users else "a template")
    for name, who in sorted(referenced.items()):
        if name not in graph or not graph.nodes[name].get("declared"):
            missing.append(MissingName(name, who))
    return missing


def failed_dependencies(graph: nx.DiGraph, node: str, failed: set[str]) -> list[str]:
    """The failed declarations among the dependencies of ``node`` (nearest first)."""
    if node not in graph:
        return []
    lengths = nx.single_source_shortest_path_length(graph, node)
    hits = [(distance, name) for name, distance in lengths.items()
            if name != node and name in failed]
    return [name for _, name in sorted(hits)]


# -- export ----------------------------------------------------------------------------------

def for_drawing(graph: nx.DiGraph) -> nx.DiGraph:
    """The transitive reduction (attributes kept), for a readable picture."""
    if not nx.is_directed_acyclic_graph(graph):
        return graph.copy()
    reduced = nx.transitive_reduction(graph)
    reduced.add_nodes_from(graph.nodes(data=True))
    return reduced


def to_json(graph: nx.DiGraph) -> str:
    data = nx.node_link_data(graph, edges="links")
    return json.dumps({"schema": "leanbridge.graph/1", **data}, indent=2, sort_keys=True,
                      ensure_ascii=False, default=str)


_SHAPES = {PAPER: "note", FAMILY: "folder"}
_COLOURS = {"general": "lightblue", "premise": "khaki", "family_theorem": "palegreen",
            "definition": "lightgrey", "bridge": "honeydew", "lemma": "white"}


def _label(node: str) -> str:
    return node.replace(library.FAMILIES_NAMESPACE + ".", "").replace(
        library.NAMESPACE + ".", "")


def to_dot(graph: nx.DiGraph) -> str:
    lines = ["digraph leanbridge {", "  rankdir=LR;", "  node [style=filled, fontsize=10];"]
    for node, data in sorted(graph.nodes(data=True)):
        shape = _SHAPES.get(data.get("kind"), "box")
        colour = "tomato" if not data.get("declared", True) else _COLOURS.get(
            data.get("role", ""), "white")
        lines.append(f'  "{node}" [label="{_label(node)}", shape={shape}, fillcolor={colour}];')
    for u, v in sorted(graph.edges()):
        lines.append(f'  "{u}" -> "{v}";')
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_mermaid(graph: nx.DiGraph) -> str:
    ids = {node: f"n{i}" for i, node in enumerate(sorted(graph.nodes()))}
    lines = ["flowchart LR"]
    for node in sorted(graph.nodes()):
        label = _label(node).replace('"', "'")
        lines.append(f'  {ids[node]}["{label}"]')
    for u, v in sorted(graph.edges()):
        lines.append(f"  {ids[u]} --> {ids[v]}")
    return "\n".join(lines) + "\n"


FORMATS = {"json": to_json, "dot": to_dot, "mermaid": to_mermaid}
