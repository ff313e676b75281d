"""The exports and reports read by the real programs that consume them.

Each test skips, with the reason, when its consumer is absent; `.ci/run` installs them where it
can (TeX Live from Debian's packages; plasTeX/leanblueprint, junitparser, markdown-it-py from
PyPI through the test extra).
"""

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from leanbridge.cli import main
from leanbridge.families import CATALOG
from leanbridge.library_statements import GROUPS, LIBRARY_STATEMENTS

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"

needs_pdflatex = pytest.mark.skipif(
    shutil.which("pdflatex") is None,
    reason="pdflatex not found on PATH (Debian: texlive-latex-base): LaTeX export not compiled")


def _module(name):
    return importlib.util.find_spec(name) is not None


def export(*args, project=LEAN):
    result = CliRunner().invoke(main, ["export", "--project", str(project), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def _pdflatex(directory: Path, name: str) -> str:
    for _ in range(2):   # twice: references resolve on the second run
        completed = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                                    name], cwd=directory, capture_output=True, text=True,
                                   timeout=300)
        assert completed.returncode == 0, completed.stdout[-3000:]
    log = (directory / name.replace(".tex", ".log")).read_text(errors="replace")
    assert "Overfull" not in log, re.findall(r"Overfull.*", log)
    assert "undefined" not in log.lower(), re.findall(r".*undefined.*", log, re.I)
    return log


# -- LaTeX: pdflatex ---------------------------------------------------------------------------

@needs_pdflatex
@pytest.mark.parametrize("mode", [[], ["--per-family"]], ids=["general", "per-family"])
def test_latex_compiles_with_stock_pdflatex(tmp_path, mode):
    (tmp_path / "statements.tex").write_text(export("--format", "latex", *mode))
    _pdflatex(tmp_path, "statements.tex")
    assert (tmp_path / "statements.pdf").stat().st_size > 10_000


@needs_pdflatex
@pytest.mark.parametrize("booktabs", [True, False], ids=["booktabs", "no-booktabs"])
def test_latex_fragment_compiles_inside_a_host_paper(tmp_path, booktabs):
    (tmp_path / "leanbridge.tex").write_text(export("--format", "latex", "--fragment"))
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\n\\usepackage{amsmath,amssymb,amsthm}\n"
        + ("\\usepackage{booktabs}\n" if booktabs else "")
        + "\\newtheorem{theorem}{Theorem}\n\\begin{document}\n\\section{Our results}\n"
        "Before.\n\\input{leanbridge}\nAfter: see Theorem~\\ref{thm:arg-degree} and "
        "Table~\\ref{tab:families}.\n\\end{document}\n")
    log = _pdflatex(tmp_path, "paper.tex")
    assert "booktabs.sty" in log if booktabs else "booktabs.sty" not in log


# -- blueprint: plasTeX with the leanblueprint plugins -----------------------------------------

WEB_TEX = r"""\documentclass{report}
\usepackage{amssymb, amsthm, amsmath}
\usepackage{hyperref}
\usepackage[showmore, dep_graph]{blueprint}
\newtheorem{theorem}{Theorem}
\newtheorem{lemma}[theorem]{Lemma}
\theoremstyle{definition}
\newtheorem{definition}[theorem]{Definition}
\title{SkipAbsorption blueprint}
\begin{document}
\maketitle
\input{content}
\end{document}
"""


@pytest.mark.skipif(not (_module("plasTeX") and _module("leanblueprint")
                         and _module("plastexdepgraph") and _module("plastexshowmore")),
                    reason="plasTeX/leanblueprint not installed (pip install leanblueprint)")
def test_blueprint_builds_with_plastex_and_leanblueprint(tmp_path):
    import json

    report = tmp_path / "check.json"
    from leanbridge import export as exporter
    data = exporter.collect(LEAN, ["relu2", "gelu"])
    proved = next(s for s in data.statements if s.family.name == "relu2")
    library_hash = exporter.library_hashes(LEAN)[proved.general_theorem]
    report.write_text(json.dumps({
        "schema": "leanbridge.check/1", "lean": {"status": "ran"}, "results": [
            {"decl": proved.declaration.full_name, "verdict": "proved",
             "statement_hash": proved.declaration.statement_hash},
            {"decl": proved.general_theorem, "verdict": "proved",
             "statement_hash": library_hash}]}))
    (tmp_path / "content.tex").write_text(
        export("--format", "blueprint", "relu2", "gelu", "--results", str(report)))
    (tmp_path / "web.tex").write_text(WEB_TEX)
    plastex = Path(sys.executable).with_name("plastex")
    command = [str(plastex) if plastex.exists() else "plastex", "--plugins", "plastexdepgraph",
               "plastexshowmore", "leanblueprint", "--", "web.tex"]
    completed = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True,
                               timeout=600)
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output[-3000:]
    assert not re.search(r"^ERROR", output, re.M), output[-3000:]
    graph = (tmp_path / "web" / "dep_graph_document.html").read_text(encoding="utf-8")
    labels = [s.label for s in data.statements] + [r.statement.label for r in data.library]
    labels += [row.label for row in data.families]
    for label in labels:
        assert f'"{label}"' in graph, f"node {label} missing from the dependency graph"
    for s in data.statements:   # every \uses is an edge
        assert re.search(rf'"{re.escape(s.library_statement.label)}" -> "{s.label}"', graph)
    # \leanok: the proved statement and its library theorem are green, the others are not
    def node(label):
        return re.search(rf'"{re.escape(label)}"\s*\[([^\]]*)\]', graph).group(1)
    assert "green" in node(proved.label)
    assert "green" in node(proved.library_statement.label)
    others = [s for s in data.statements if s is not proved]
    assert all("green" not in node(s.label) for s in others)
    # the library nodes' statements are typeset mathematics
    index = (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
    assert r"\(\sigma (z) - \sigma (-z) = c\, z\)" in index


# -- Markdown: a CommonMark parser -------------------------------------------------------------

@pytest.mark.skipif(not (_module("markdown_it") and _module("mdit_py_plugins")),
                    reason="markdown-it-py / mdit-py-plugins not installed")
@pytest.mark.parametrize("mode", [[], ["--per-family"]], ids=["general", "per-family"])
def test_markdown_parses_as_intended(mode):
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    text = export("--format", "markdown", *mode)
    tokens = MarkdownIt("commonmark").enable("table").use(dollarmath_plugin).parse(text)
    types = [t.type for t in tokens]
    inline = [c for t in tokens if t.type == "inline" for c in t.children or []]
    math = [c.content for c in inline if c.type == "math_inline"]
    assert types.count("table_open") == 1
    rows = [i for i, t in enumerate(tokens) if t.type == "tr_open"]
    cells = [sum(1 for t in tokens[i:tokens.index(next(
        u for u in tokens[i:] if u.type == "tr_close"), i)] if t.type in ("th_open", "td_open"))
             for i in rows]
    assert len(set(cells)) == 1, "every table row has the header's number of cells"
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings[0] == "When can an MLP absorb its own skip connection?"
    if mode:
        assert len(rows) == 1 + sum(max(1, len([d for d in _argument_decls(f)])) for f in CATALOG)
        assert "GELU (`gelu`): conditional" in headings
    else:
        assert len(rows) == 1 + len(CATALOG)
        assert [h for h in headings if h.startswith("Theorem")] == [
            f"Theorem {i} ({title})" for i, title in enumerate(GROUPS.values(), start=1)]
        items = [t for t in tokens if t.type == "list_item_open"]
        assert len(items) >= len(LIBRARY_STATEMENTS)
    assert any(m.endswith(r"z\,\Phi(z)") for m in math)
    assert any(m.endswith(r"\tfrac12 z(1 + \tanh(\sqrt{2/\pi}(z + 0.044715 z^{3})))")
               for m in math)
    emphasis = [inline[i + 1].content for i, c in enumerate(inline) if c.type == "em_open"]
    assert all(e.startswith("(Paper: ") for e in emphasis), "stray emphasis from _ or *"
    assert all("**" not in m for m in math)
    assert not any("$" in c.content for c in inline if c.type == "text"), "unbalanced $"


def _argument_decls(family):
    from leanbridge.render import build_family_file
    return [d for d in build_family_file(family).declarations if d.role == "argument"]


# -- JUnit: junitparser -----------------------------------------------------------------------

@pytest.mark.skipif(not _module("junitparser"), reason="junitparser not installed")
def test_check_junit_report_reads_with_junitparser(tmp_path, monkeypatch):
    from junitparser import Failure, JUnitXml, Skipped

    from leanbridge import check as checker

    project = tmp_path / "lean"
    shutil.copytree(LEAN, project, ignore=shutil.ignore_patterns(".lake", "build"))
    relu2 = project / "SkipAbsorption" / "Families" / "Relu2.lean"
    relu2.write_text(relu2.read_text(encoding="utf-8") + "\n-- edited by hand\n",
                     encoding="utf-8")
    monkeypatch.setattr(checker, "find_lake", lambda explicit: None)
    junit = tmp_path / "report.xml"
    result = CliRunner().invoke(main, ["check", "--project", str(project), "--quiet",
                                       "--junit", str(junit)])
    assert result.exit_code == 1, result.output
    xml = JUnitXml.fromfile(str(junit))
    cases = [case for suite in xml for case in suite]
    assert len(cases) > 30
    by_name = {case.name: case for case in cases}
    tampered = by_name["SkipAbsorption.Families.relu2_not_absorbable_degree"]
    assert any(isinstance(r, Failure) and r.type == "tampered" for r in tampered.result)
    others = by_name["SkipAbsorption.Families.gelu_absorbable_of_sCondition"]
    assert any(isinstance(r, Skipped) for r in others.result)
    for suite in xml:
        assert suite.tests == len(list(suite))
        assert suite.failures == sum(any(isinstance(r, Failure) for r in c.result)
                                     for c in suite)
