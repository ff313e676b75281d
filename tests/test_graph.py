"""The dependency graph and the reader of Lean sources behind it."""

import json
import re
import shutil
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from leanbridge import graph as g
from leanbridge.cli import main
from leanbridge.lean.sources import scan_file, scan_project, strip_comments, uses

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"


@pytest.fixture(scope="module")
def graph():
    return g.build(LEAN)


def test_committed_tree_has_no_missing_names(graph):
    assert g.missing_names(graph) == []
    result = CliRunner().invoke(main, ["graph", "--check", "--project", str(LEAN)])
    assert result.exit_code == 0 and result.output.startswith("ok")


def test_family_theorem_uses_general_theorem_and_premise(graph):
    node = "SkipAbsorption.Families.relu2_not_absorbable_degree"
    assert graph.nodes[node]["role"] == "family_theorem"
    assert graph.nodes[node]["argument"] == "degree"
    assert {"SkipAbsorption.not_absorbable_of_posHomogeneous",
            "SkipAbsorption.relu2_posHomogeneous"} <= set(graph.successors(node))
    assert graph.has_edge("family:relu2", node)
    assert graph.nodes["SkipAbsorption.not_absorbable_of_posHomogeneous"]["role"] == "general"
    assert graph.nodes["SkipAbsorption.relu2_posHomogeneous"]["role"] == "premise"


def test_paper_results_point_at_their_formalisation(graph):
    assert graph.has_edge("paper:Prop 5", "SkipAbsorption.not_absorbable_of_posHomogeneous")
    assert graph.has_edge("paper:Lemma 4", "SkipAbsorption.absorbable_iff_of_isUnit_det")
    assert graph.has_edge("paper:Cor 7", "SkipAbsorption.not_mlpStack_eq_of_isLittleO")


def test_results_beyond_the_paper_point_at_their_formalisation(graph):
    """The note's results are nodes like the paper's, flagged beyond the paper, and every
    exported theorem beyond the paper hangs off one of them."""
    from leanbridge.lean.library import NOTE_LIBRARY, NOTE_RESULTS
    from leanbridge.library_statements import BEYOND_GROUPS, LIBRARY_STATEMENTS

    beyond = {e.full_name for e in LIBRARY_STATEMENTS if e.group in BEYOND_GROUPS}
    linked = {f"SkipAbsorption.{name}" for names in NOTE_LIBRARY.values() for name in names}
    assert linked == beyond
    notes = [n for n, data in graph.nodes(data=True) if data.get("kind") == "note"]
    assert sorted(notes) == sorted(f"note:{r}" for r in NOTE_RESULTS)
    for node in notes:
        assert graph.nodes[node]["beyond_the_paper"] is True
        assert all(graph.nodes[t]["declared"] for t in graph.successors(node))
    assert all(graph.nodes[n]["beyond_the_paper"] is False for n, data in
               graph.nodes(data=True) if data.get("kind") == "paper")
    for name in beyond:
        assert any(graph.has_edge(note, name) for note in notes), name
        assert not any(p.startswith("paper:") for p in graph.predecessors(name)), name
    assert graph.has_edge("note:Theorem C", "SkipAbsorption.le_width_of_absorbableWithWidth")
    assert graph.has_edge("note:Theorem B′", "SkipAbsorption.injective_resStack")
    assert graph.has_edge("note:rank bound (§5)",
                          "SkipAbsorption.exists_sCondition_of_absorbableWithWidth_self")
    # the paper's Thm 8 necessity is its own paper result node
    assert graph.has_edge("paper:Thm 8 (only if)",
                          "SkipAbsorption.exists_sCondition_of_absorbable_relu")
    # and the exported JSON (transitive reduction) keeps every note node with an edge
    data = json.loads(g.to_json(g.for_drawing(graph)))
    sources = {link["source"] for link in data["links"]}
    assert {f"note:{r}" for r in NOTE_RESULTS} <= sources
    assert 'shape=tab' in g.to_dot(graph)


def test_library_edges_come_from_the_lean_sources(graph):
    # relu2_isLittleO is proved from the homogeneity lemma through isLittleO_of_posHomogeneous
    assert graph.has_edge("SkipAbsorption.relu2_isLittleO",
                          "SkipAbsorption.isLittleO_of_posHomogeneous")
    assert graph.has_edge("SkipAbsorption.relu2_isLittleO", "SkipAbsorption.relu2_posHomogeneous")


def test_failed_dependencies_explain_a_family_failure(graph):
    family_theorem = "SkipAbsorption.Families.gelu_absorbable_of_sCondition"
    failed = {"SkipAbsorption.cdf_gaussianReal_neg", "SkipAbsorption.relu2_isLittleO"}
    assert g.failed_dependencies(graph, family_theorem, failed) == [
        "SkipAbsorption.cdf_gaussianReal_neg"]
    assert g.failed_dependencies(graph, "SkipAbsorption.Families.relu_eq_sympy", failed) == []


def test_check_finds_a_deliberately_missing_name(tmp_path):
    project = tmp_path / "lean"
    shutil.copytree(LEAN, project, ignore=shutil.ignore_patterns(".lake"))
    activations = project / "SkipAbsorption" / "Premises" / "ReluPowers.lean"
    text = activations.read_text(encoding="utf-8")
    activations.write_text(text.replace("theorem relu2_posHomogeneous",
                                        "theorem relu2_posHomogeneous_renamed"), encoding="utf-8")
    missing = g.missing_names(g.build(project))
    assert "SkipAbsorption.relu2_posHomogeneous" in {m.name for m in missing}
    result = CliRunner().invoke(main, ["graph", "--check", "--project", str(project)])
    assert result.exit_code == 1
    assert "missing   SkipAbsorption.relu2_posHomogeneous" in result.output


def test_exports(graph, tmp_path):
    data = json.loads(g.to_json(graph))
    assert data["schema"] == "leanbridge.graph/1" and data["directed"] is True
    assert {"nodes", "links"} <= set(data)
    rebuilt = nx.node_link_graph(data, edges="links")
    assert rebuilt.number_of_edges() == graph.number_of_edges()
    assert g.to_dot(graph).startswith("digraph leanbridge {")
    mermaid = g.to_mermaid(graph)
    assert mermaid.startswith("flowchart LR") and "-->" in mermaid
    out = tmp_path / "graph.dot"
    result = CliRunner().invoke(main, ["graph", "--project", str(LEAN), "--format", "dot",
                                       "--out", str(out)])
    assert result.exit_code == 0 and out.read_text().startswith("digraph")


def test_transitive_reduction_drops_implied_edges_and_keeps_attributes():
    small = nx.DiGraph()
    small.add_node("a", kind="lean", role="family_theorem")
    small.add_edges_from([("a", "b"), ("b", "c"), ("a", "c")])
    reduced = g.for_drawing(small)
    assert set(reduced.edges()) == {("a", "b"), ("b", "c")}
    assert reduced.nodes["a"]["role"] == "family_theorem"


def test_source_reader_tracks_namespaces_and_ignores_comments(tmp_path):
    source = tmp_path / "X.lean"
    source.write_text(
        "/-! doc mentioning theorem fake_in_doc -/\n"
        "namespace A\n"
        "def f (z : ℝ) : ℝ := z\n"
        "-- theorem commented_out : True := trivial\n"
        "namespace B\n"
        "theorem g : f 0 = 0 := rfl\n"
        "end B\n"
        "theorem h : True := by\n  /- nested /- comment -/ g -/\n  trivial\n"
        "end A\n", encoding="utf-8")
    found = {d.name: d for d in scan_file(source, tmp_path)}
    assert set(found) == {"A.f", "A.B.g", "A.h"}
    assert found["A.B.g"].line == 6
    assert uses(found["A.B.g"], found) == {"A.f"}
    assert uses(found["A.h"], found) == set()
    assert "nested" not in strip_comments("x /- a /- nested -/ b -/ y")


def test_scan_skips_lake_build_directory(tmp_path):
    (tmp_path / ".lake" / "packages").mkdir(parents=True)
    (tmp_path / ".lake" / "packages" / "M.lean").write_text("theorem m : True := trivial\n")
    (tmp_path / "Own.lean").write_text("theorem own : True := trivial\n")
    assert set(scan_project(tmp_path)) == {"own"}


def test_the_format_choices_are_the_formats():
    from leanbridge.commands import GRAPH_FORMATS

    assert GRAPH_FORMATS == tuple(sorted(g.FORMATS))


def _strip_comments_by_characters(text: str) -> str:
    """The reference: the reader's rule applied one character at a time."""
    out, depth, i = [], 0, 0
    while i < len(text):
        if text.startswith("/-", i):
            depth, i = depth + 1, i + 2
            continue
        if depth and text.startswith("-/", i):
            depth, i = depth - 1, i + 2
            continue
        out.append(text[i] if depth == 0 or text[i] == "\n" else "")
        i += 1
    return re.sub(r"--[^\n]*", "", "".join(out))


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet="/-\nab ", max_size=40))
def test_strip_comments_follows_the_character_rule(text):
    assert strip_comments(text) == _strip_comments_by_characters(text)


def test_strip_comments_on_the_project_sources():
    for path in sorted(LEAN.rglob("*.lean")):
        if ".lake" not in path.parts:
            text = path.read_text(encoding="utf-8")
            assert strip_comments(text) == _strip_comments_by_characters(text), path


@pytest.mark.parametrize("fmt", sorted(g.FORMATS))
def test_graph_output_does_not_depend_on_the_hash_seed(fmt):
    """Sets are iterated in an order that depends on PYTHONHASHSEED: the exported graph must
    not (a diff of two runs, or a cached CI artefact, would show spurious changes)."""
    import os
    import subprocess
    import sys

    outputs = set()
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-m", "leanbridge", "graph", "--format", fmt,
                               "--project", str(LEAN)],
                              capture_output=True, text=True, env=env, check=True)
        outputs.add(done.stdout)
    assert len(outputs) == 1
