"""The dependency graph as a NetworkX graph: export, drawing, and the explanation of failures.

Its nodes, edges and checks are :mod:`leanbridge.dependencies` (plain data, which
``leanbridge check`` reads without importing NetworkX). An edge ``u → v`` means *u uses v*.

The checker uses the graph to explain failures: a family theorem that fails because a lemma
it depends on failed says so (:func:`failed_dependencies`).
"""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from leanbridge import dependencies
from leanbridge.dependencies import FAMILY, NOTE, PAPER, Dependencies, MissingName
from leanbridge.lean import library
from leanbridge.lean.sources import LeanDeclaration
from leanbridge.render import FamilyFile


def to_networkx(collected: Dependencies) -> nx.DiGraph:
    """The same graph in NetworkX (nodes and edges in the same order)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(collected.nodes.items())
    graph.add_edges_from(collected.edges)
    return graph


def build(project: Path, plans: list[FamilyFile] | None = None,
          declared: dict[str, LeanDeclaration] | None = None) -> nx.DiGraph:
    """The dependency graph of the project at ``project`` (catalog plans by default; the
    declarations of its sources, ``declared``, scanned if not given)."""
    return to_networkx(dependencies.collect(project, plans, declared))


def missing_names(graph: nx.DiGraph) -> list[MissingName]:
    """Names that leanbridge references (catalog metadata, templates) but lean/ lacks."""
    return dependencies.missing_names(dict(graph.nodes(data=True)), graph.predecessors)


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
    """Node-link JSON, nodes and links sorted (as in the other formats), so the output does
    not depend on the order in which sets were iterated (Python's hash seed)."""
    data = nx.node_link_data(graph, edges="links")
    data["nodes"] = sorted(data["nodes"], key=lambda n: n["id"])
    data["links"] = sorted(data["links"], key=lambda e: (e["source"], e["target"]))
    return json.dumps({"schema": "leanbridge.graph/1", **data}, indent=2, sort_keys=True,
                      ensure_ascii=False, default=str)


_SHAPES = {PAPER: "note", NOTE: "tab", FAMILY: "folder"}
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
