"""The exports and reports read by the real programs that consume them.

Each test skips, with the reason, when its consumer is absent; `.ci/run` installs them where it
can (TeX Live from Debian's packages; plasTeX/leanblueprint, junitparser, markdown-it-py from
PyPI through the test extra).
"""

import html
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
from leanbridge.beyond import CONJECTURES, load_evidence
from leanbridge.library_statements import BEYOND_GROUPS, GROUPS, LIBRARY_STATEMENTS

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


#: An overfull box in pdflatex's log, and by how much (pt).
_OVERFULL = re.compile(r"Overfull \\[hv]box \((\d+(?:\.\d+)?)pt too (?:wide|high)\)[^\n]*")


def overfull_boxes(log: str, tolerance: float = 1.0) -> list[str]:
    """The overfull boxes of a pdflatex log beyond ``tolerance`` points."""
    return [m.group(0) for m in _OVERFULL.finditer(log) if float(m.group(1)) > tolerance]


def _pdflatex(directory: Path, name: str) -> str:
    """Compile twice (references resolve on the second pass) and require that two passes
    were enough, with no overfull box beyond 1 pt and no undefined reference."""
    for _ in range(2):
        completed = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                                    name], cwd=directory, capture_output=True, text=True,
                                   timeout=300)
        assert completed.returncode == 0, completed.stdout[-3000:]
    log = (directory / name.replace(".tex", ".log")).read_text(errors="replace")
    assert not overfull_boxes(log), overfull_boxes(log)
    assert "undefined" not in log.lower(), re.findall(r".*undefined.*", log, re.I)
    assert "Rerun" not in log and "may have changed" not in log, "a third pass needed"
    assert "multiply defined" not in log, re.findall(r".*multiply defined.*", log)
    return log


def test_overfull_boxes_are_read_from_the_log():
    log = ("Overfull \\hbox (35.80568pt too wide) in paragraph at lines 89--91\n"
           "Overfull \\vbox (1.10153pt too high) has occurred while \\output is active []\n"
           "Overfull \\hbox (0.5pt too wide) in alignment at lines 3--4\n")
    assert overfull_boxes(log) == [
        "Overfull \\hbox (35.80568pt too wide) in paragraph at lines 89--91",
        "Overfull \\vbox (1.10153pt too high) has occurred while \\output is active []"]


# -- LaTeX: pdflatex ---------------------------------------------------------------------------

@needs_pdflatex
@pytest.mark.parametrize("mode", [[], ["--per-family"]], ids=["general", "per-family"])
def test_latex_compiles_with_stock_pdflatex(tmp_path, mode):
    (tmp_path / "statements.tex").write_text(export("--format", "latex", *mode))
    _pdflatex(tmp_path, "statements.tex")   # no overfull box: the evidence table fits too
    assert (tmp_path / "statements.pdf").stat().st_size > 10_000
    aux = (tmp_path / "statements.aux").read_text()
    # the section beyond the paper was typeset: its remarks and its table have numbers
    for label in [c.label for c in CONJECTURES] + ["rem:beyond-evidence",
                                                    "tab:beyond-evidence"]:
        assert f"\\newlabel{{{label}}}" in aux, label


@needs_pdflatex
@pytest.mark.parametrize("booktabs, own_remark", [(True, False), (False, False), (True, True)],
                         ids=["booktabs", "no-booktabs", "host-remark"])
def test_latex_fragment_compiles_inside_a_host_paper(tmp_path, booktabs, own_remark):
    (tmp_path / "leanbridge.tex").write_text(export("--format", "latex", "--fragment"))
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\n\\usepackage{amsmath,amssymb,amsthm}\n"
        + ("\\usepackage{booktabs}\n" if booktabs else "")
        + "\\newtheorem{theorem}{Theorem}\n"
        + ("\\theoremstyle{remark}\\newtheorem{remark}{Observation}\n" if own_remark else "")
        + "\\begin{document}\n\\section{Our results}\n"
        "Before.\n\\input{leanbridge}\nAfter: see Theorem~\\ref{thm:arg-degree} and "
        "Table~\\ref{tab:families}; beyond the paper, Theorem~\\ref{thm:arg-beyond-width}, "
        "Remark~\\ref{rem:beyond-theorem-d} and Table~\\ref{tab:beyond-evidence}.\n"
        "\\end{document}\n")
    log = _pdflatex(tmp_path, "paper.tex")   # no overfull box, no undefined reference
    assert "booktabs.sty" in log if booktabs else "booktabs.sty" not in log
    aux = (tmp_path / "paper.aux").read_text()
    # the host's own remark environment is kept (its own counter: Observation 1, 2, ...)
    remark_number = re.search(r"\\newlabel\{rem:beyond-theorem-d\}\{\{(\d+)\}", aux).group(1)
    last = "thm:arg-" + BEYOND_GROUPS[-1].replace("_", "-")        # the last theorem
    theorem_number = re.search(r"\\newlabel\{" + last + r"\}\{\{(\d+)\}", aux).group(1)
    if own_remark:
        assert remark_number == "1"
    else:   # the fragment's remark shares the theorem counter: after the last theorem
        assert int(remark_number) == int(theorem_number) + 1


#: User families for the layout tests: a premise stated as a hypothesis (shifted_softplus,
#: pi_relu), a long name and a long expression.
USER_FAMILIES = (("log(1+exp(z))-log(2)", "shifted_softplus"), ("(pi-3)*Max(z,0)", "pi_relu"),
                 ("z**3 + z**5/7 - tanh(z)*sin(z)**2/(1+exp(-z))",
                  "a_very_long_user_family_name_with_many_words"),
                 ("Max(z,0)**3", "cubed_relu"))


@pytest.fixture(scope="module")
def user_project(tmp_path_factory):
    """A copy of the Lean project with the catalog and :data:`USER_FAMILIES` generated."""
    project = tmp_path_factory.mktemp("users") / "lean"
    shutil.copytree(LEAN, project, ignore=shutil.ignore_patterns(".lake", "build"))
    for expr, name in USER_FAMILIES:
        result = CliRunner().invoke(main, ["generate", "--project", str(project), "--expr",
                                           expr, "--name", name])
        assert result.exit_code == 0, result.output
    return project


HOST = r"""\documentclass[%s]{article}
\usepackage{amsmath,amssymb,amsthm}
\usepackage{booktabs}
\newtheorem{theorem}{Theorem}
\begin{document}
\section{Our results}\label{thm:arg-degree}
Our own Table~\ref{tab:families}.
\begin{table}[ht]\centering\begin{tabular}{l}x\end{tabular}\caption{Ours.}\label{tab:families}
\end{table}
\input{leanbridge}
After: the export's %s.
\end{document}
"""


@needs_pdflatex
@pytest.mark.parametrize("columns", ["onecolumn", "twocolumn"])
@pytest.mark.parametrize("mode", [[], ["--per-family"]], ids=["general", "per-family"])
def test_latex_fragment_with_user_families_fits_one_and_two_column_hosts(
        tmp_path, user_project, columns, mode):
    """No overfull box beyond 1 pt (a table or a formula out of the column, a table off the
    page), every row of the tables present, two passes, and no label of the export collides
    with the host's (--label-prefix)."""
    text = export("--format", "latex", "--fragment", "--label-prefix", "lb:", *mode,
                  project=user_project)
    (tmp_path / "leanbridge.tex").write_text(text)
    refs = (r"Theorem~\ref{lb:thm:relu2-not-absorbable-degree}, Table~\ref{lb:tab:declarations}"
            if mode else r"Theorem~\ref{lb:thm:arg-degree}, Table~\ref{lb:tab:families}")
    (tmp_path / "paper.tex").write_text(HOST % (columns, refs))
    _pdflatex(tmp_path, "paper.tex")   # the references resolve (no undefined reference)
    _assert_every_row(text, user_project, mode)


@needs_pdflatex
@pytest.mark.parametrize("mode", [[], ["--per-family"]], ids=["general", "per-family"])
def test_latex_document_with_user_families_compiles_in_two_passes(tmp_path, user_project,
                                                                  mode):
    text = export("--format", "latex", *mode, project=user_project)
    (tmp_path / "statements.tex").write_text(text)
    _pdflatex(tmp_path, "statements.tex")
    _assert_every_row(text, user_project, mode)


def _assert_every_row(text, project, mode):
    """The table has one row per family (general) or per family theorem (per family)."""
    from leanbridge import export as exporter

    data = exporter.collect(project)
    rows = re.findall(r"^\\raggedright .*\\tabularnewline$", text, re.M)
    if mode:
        expected = sum(max(1, len(f.statements)) for f in data.families)
    else:
        expected = len(data.families)
    assert len(rows) == expected
    for name, _ in [(n, e) for e, n in USER_FAMILIES]:
        assert exporter.latex_text(name).replace("\\_", "\\_\\allowbreak{}") in text


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


needs_plastex = pytest.mark.skipif(
    not (_module("plasTeX") and _module("leanblueprint") and _module("plastexdepgraph")
         and _module("plastexshowmore")),
    reason="plasTeX/leanblueprint not installed (pip install leanblueprint)")


def _plastex(directory: Path) -> None:
    (directory / "web.tex").write_text(WEB_TEX)
    plastex = Path(sys.executable).with_name("plastex")
    command = [str(plastex) if plastex.exists() else "plastex", "--plugins", "plastexdepgraph",
               "plastexshowmore", "leanblueprint", "--", "web.tex"]
    completed = subprocess.run(command, cwd=directory, capture_output=True, text=True,
                               timeout=600)
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output[-3000:]
    assert not re.search(r"^ERROR", output, re.M), output[-3000:]


@needs_plastex
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
    _plastex(tmp_path)
    graph = (tmp_path / "web" / "dep_graph_document.html").read_text(encoding="utf-8")
    labels = [s.node_label for s in data.statements]
    labels += [r.statement.node_label for r in data.library]
    labels += [row.node_label for row in data.families]
    for label in labels:
        assert f'"{label}"' in graph, f"node {label} missing from the dependency graph"
    for s in data.statements:   # every \uses is an edge
        assert re.search(rf'"{re.escape(s.library_statement.node_label)}" -> '
                         rf'"{re.escape(s.node_label)}"', graph)
    # \leanok: the proved statement and its library theorem are green, the others are not
    def node(label):
        return re.search(rf'"{re.escape(label)}"\s*\[([^\]]*)\]', graph).group(1)
    assert "green" in node(proved.node_label)
    assert "green" in node(proved.library_statement.node_label)
    others = [s for s in data.statements if s is not proved]
    assert all("green" not in node(s.node_label) for s in others)
    # the library nodes' statements are typeset mathematics
    index = (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
    assert r"\(\sigma (z) - \sigma (-z) = c\, z\)" in index


def _leanblueprint_new_files(config: dict) -> dict[str, str]:
    """What `leanblueprint new` writes into blueprint/src for these answers: its templates,
    rendered with its own Jinja settings (leanblueprint/client.py, `new`)."""
    import leanblueprint
    from jinja2 import Environment, FileSystemLoader

    templates = Path(leanblueprint.__file__).parent / "templates"
    env = Environment(loader=FileSystemLoader(templates), variable_start_string="{|",
                      variable_end_string="|}", comment_start_string="{--",
                      comment_end_string="--}", keep_trailing_newline=True)
    return {name: env.get_template(name).render(config) for name in env.list_templates()
            if not name.endswith("blueprint.yml")}


@needs_plastex
def test_blueprint_project_is_what_leanblueprint_new_writes_and_builds_as_written(tmp_path):
    from leanbridge import export as exporter

    out = tmp_path / "blueprint"
    result = CliRunner().invoke(main, ["export", "--project", str(LEAN), "--format",
                                       "blueprint", "--out", str(out)])
    assert result.exit_code == 0, result.output
    src = out / "src"
    expected = _leanblueprint_new_files(exporter.BLUEPRINT_CONFIG)
    written = {p.relative_to(src).as_posix(): p.read_text(encoding="utf-8")
               for p in src.rglob("*") if p.is_file()}
    assert set(written) == set(expected)
    for name, text in expected.items():
        if name != "content.tex":          # leanblueprint's is an empty placeholder
            assert written[name] == text, name
    # `leanblueprint web` runs `plastex -c plastex.cfg web.tex` in src/; the site goes to web/
    plastex = Path(sys.executable).with_name("plastex")
    completed = subprocess.run([str(plastex) if plastex.exists() else "plastex", "-c",
                                "plastex.cfg", "web.tex"], cwd=src, capture_output=True,
                               text=True, timeout=600)
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output[-3000:]
    assert not re.search(r"^ERROR", output, re.M), output[-3000:]
    graph = (out / "web" / "dep_graph_document.html").read_text(encoding="utf-8")
    # the graph's nodes are named in words, not slugs
    names = re.findall(r'label="([^"]*)"', graph)
    names = [n for n in names if n != "\\N"]
    data = exporter.collect(LEAN)
    assert len(names) == len(data.statements) + len(data.library) + len(
        [f for f in data.families if f.statements]) + len(exporter._mathlib_facts(data))
    assert all(" " in n and not re.search(r"\w-\w+-\w", n) for n in names), names
    assert "ReLU² — no skip A ≠ 0 is absorbed" in names
    # proof edges (solid) between library theorems, as the Lean proofs use them
    from leanbridge.library_statements import BY_NAME
    necessity = BY_NAME["SkipAbsorption.exists_sCondition_of_absorbable_relu"].node_label
    iff = BY_NAME["SkipAbsorption.absorbable_relu_iff"].node_label
    edge = re.search(rf'"{re.escape(necessity)}" -> "{re.escape(iff)}"\s*(\[[^\]]*\])?', graph)
    assert edge and "dashed" not in (edge.group(1) or "")
    # the Mathlib facts are nodes marked \mathlibok (leanblueprint colours them dark green)
    for fact in exporter._mathlib_facts(data):
        assert re.search(rf'"{re.escape(fact.node_label)}"\s*\[color=darkgreen', graph)
    # informal proofs: the paper's argument, in the page
    index = html.unescape((out / "web" / "index.html").read_text(encoding="utf-8"))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", index))
    assert "The degree argument. Replace" in text
    assert "The kink argument of the paper." in text
    # the declarations `lake exe checkdecls blueprint/lean_decls` checks
    decls = (out / "lean_decls").read_text(encoding="utf-8").split()
    assert RELU2_DEGREE_NAME in decls and "Matrix.rank_mul_le_left" in decls


RELU2_DEGREE_NAME = "SkipAbsorption.Families.relu2_not_absorbable_degree"


@needs_plastex
def test_blueprint_beyond_the_paper_is_its_own_chapter(tmp_path):
    import html
    import json

    from leanbridge import export as exporter
    data = exporter.collect(LEAN)
    proved = "SkipAbsorption.resStack_ne_plainStack_of_lt_two_mul"
    report = tmp_path / "check.json"
    report.write_text(json.dumps({
        "schema": "leanbridge.check/1", "lean": {"status": "ran"}, "results": [
            {"decl": proved, "verdict": "proved",
             "statement_hash": exporter.library_hashes(LEAN)[proved]}]}))
    (tmp_path / "content.tex").write_text(
        export("--format", "blueprint", "--results", str(report)))
    _plastex(tmp_path)
    chapter = html.unescape((tmp_path / "web" / "chap-beyond.html").read_text(encoding="utf-8"))
    index = html.unescape((tmp_path / "web" / "index.html").read_text(encoding="utf-8"))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", chapter))
    assert "Beyond the paper" in text
    assert "The results in this section are not from the paper" in text
    assert "The results in this section are not from the paper" not in index
    for c in CONJECTURES:
        assert c.title in text
    evidence = load_evidence()
    for row in evidence.rows:         # the table, cell by cell, as the data file has it
        assert f"{row.note_says} {row.generic.cell} {row.planted.cell} " \
               f"{row.width_control.cell} {row.conclusion}" in text
    assert "--write" in text, "the command keeps its two hyphens"
    # the theorems beyond the paper are graph nodes (green only if proved); the remarks are
    # not formalised: no node, no Lean declaration
    graph = (tmp_path / "web" / "dep_graph_document.html").read_text(encoding="utf-8")
    def node(label):
        return re.search(rf'"{re.escape(label)}"\s*\[([^\]]*)\]', graph).group(1)
    for row in data.beyond_library:
        assert ("green" in node(row.statement.node_label)) is (
            row.statement.full_name == proved)
    assert "rem:beyond" not in graph
    for c in CONJECTURES:
        block = chapter.split(c.title, 1)[1].split("Remark", 1)[0]
        assert "Lean declarations" not in block and "SkipAbsorption." not in block


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
    # two tables: the families (or declarations), then the evidence beyond the paper
    assert types.count("table_open") == 2
    tables = _tables(tokens)
    for table in tables:
        assert len({len(row) for row in table}) == 1, "every row has the header's cells"
    rows = [i for i, t in enumerate(tokens[:types.index("table_close")]) if t.type == "tr_open"]
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    levels = {tokens[i + 1].content: t.tag for i, t in enumerate(tokens)
              if t.type == "heading_open"}
    assert headings[0] == "When can an MLP absorb its own skip connection?"
    # "Beyond the paper" is a level-2 heading after everything of the paper, and the evidence
    # table comes after it with one row per row of the data file
    beyond = headings.index("Beyond the paper")
    assert levels["Beyond the paper"] == "h2"
    assert all(not h.startswith(("Theorem 1 ", "Families", "GELU")) for h in headings[beyond:])
    evidence = load_evidence()
    assert tables[1][0][:5] == ["d", "n", "L", "plain L′ × n′", "what the note says"]
    assert [row[:3] for row in tables[1][1:]] == [
        [str(r.d), str(r.n), str(r.L)] for r in evidence.rows]
    table_positions = [i for i, t in enumerate(tokens) if t.type == "table_open"]
    heading_positions = [i for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert table_positions[1] > heading_positions[beyond]
    if mode:
        assert len(rows) == 1 + sum(max(1, len([d for d in _argument_decls(f)])) for f in CATALOG)
        assert "GELU (`gelu`): conditional" in headings
    else:
        assert len(rows) == 1 + len(CATALOG)
        assert [h for h in headings if h.startswith("Theorem")] == [
            f"Theorem {i} ({title})" for i, title in enumerate(GROUPS.values(), start=1)]
        assert headings.index("Families") < beyond
        assert [levels[f"Theorem {i} ({GROUPS[key]})"] for i, key in enumerate(GROUPS, 1)
                if key in BEYOND_GROUPS] == ["h3"] * len(BEYOND_GROUPS)
        assert all(headings.index(f"Theorem {i} ({GROUPS[key]})") > beyond
                   for i, key in enumerate(GROUPS, 1) if key in BEYOND_GROUPS)
        items = [t for t in tokens if t.type == "list_item_open"]
        assert len(items) >= len(LIBRARY_STATEMENTS)
    assert any(m.endswith(r"z\,\Phi(z)") for m in math)
    assert any(m.endswith(r"\tfrac12 z(1 + \tanh(\sqrt{2/\pi}(z + 0.044715 z^{3})))")
               for m in math)
    emphasis = [inline[i + 1].content for i, c in enumerate(inline) if c.type == "em_open"]
    # emphasis: the titles (their text up to the first formula) and the notes' lead-in only
    allowed = {e.title.split("$")[0] for e in LIBRARY_STATEMENTS}
    allowed |= {"The Lean statements and the paper."}
    assert set(emphasis) <= allowed, "stray emphasis from _ or *"
    if not mode:
        assert {e.title.split("$")[0] for e in LIBRARY_STATEMENTS} <= set(emphasis)
    assert all("**" not in m for m in math)
    assert not any("$" in c.content for c in inline if c.type == "text"), "unbalanced $"


def _tables(tokens):
    """Each table as a list of rows, each row the list of its cells' text."""
    tables, row, table = [], None, None
    for i, t in enumerate(tokens):
        if t.type == "table_open":
            table = []
        elif t.type == "tr_open":
            row = []
        elif t.type in ("th_open", "td_open"):
            row.append(tokens[i + 1].content if tokens[i + 1].type == "inline" else "")
        elif t.type == "tr_close":
            table.append(row)
        elif t.type == "table_close":
            tables.append(table)
    return tables


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


# -- a user family stated modulo its premise ----------------------------------------------------

def _modulo_project(tmp_path: Path) -> tuple[Path, Path]:
    """A project with shifted_softplus (its S-condition theorem takes `hσ`) and pi_relu
    (`hc : π − 3 ≠ 0`), and a report in which both theorems are proved_modulo_premise and the
    catalog's relu theorem is proved."""
    import json

    from leanbridge import export as exporter

    project = tmp_path / "lean"
    shutil.copytree(LEAN, project, ignore=shutil.ignore_patterns(".lake", "build"))
    for expr, name in (("log(1+exp(z))-log(2)", "shifted_softplus"),
                       ("(pi-3)*Max(z,0)", "pi_relu")):
        result = CliRunner().invoke(main, ["generate", "--project", str(project), "--expr",
                                           expr, "--name", name])
        assert result.exit_code == 0, result.output
    data = exporter.collect(project, ["relu", "shifted_softplus", "pi_relu"])
    report = tmp_path / "check.json"
    report.write_text(json.dumps({
        "schema": "leanbridge.check/1", "lean": {"status": "ran"},
        "started_at": "2026-01-01T00:00:00+00:00", "results": [
            {"decl": s.declaration.full_name, "statement_hash": s.declaration.statement_hash,
             "verdict": "proved" if s.family.name == "relu" else "proved_modulo_premise"}
            for s in data.statements]}))
    return project, report


@needs_pdflatex
@pytest.mark.parametrize("mode", [[], ["--per-family"]], ids=["general", "per-family"])
def test_latex_with_a_premise_footnote_compiles(tmp_path, mode):
    project, report = _modulo_project(tmp_path)
    text = export("--format", "latex", *mode, "relu", "shifted_softplus", "pi_relu",
                  "--results", str(report), project=project)
    assert "verified by SymPy, not by Lean" in text
    (tmp_path / "statements.tex").write_text(text)
    _pdflatex(tmp_path, "statements.tex")


@needs_plastex
def test_blueprint_node_modulo_a_premise_is_not_green(tmp_path):
    project, report = _modulo_project(tmp_path)
    (tmp_path / "content.tex").write_text(export(
        "--format", "blueprint", "relu", "shifted_softplus", "pi_relu", "--results",
        str(report), project=project))
    _plastex(tmp_path)
    graph = (tmp_path / "web" / "dep_graph_document.html").read_text(encoding="utf-8")

    def node(label):
        return re.search(rf'"{re.escape(label)}"\s*\[([^\]]*)\]', graph).group(1)

    label = "thm:{} — the S-condition gives an absorbing block".format
    assert "green" in node(label("ReLU"))
    assert "green" not in node(label("shifted_softplus"))
    assert "green" not in node(label("pi_relu"))
    pages = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "web").glob("*.html"))
    assert "of the Lean theorem: verified by SymPy, not by Lean." in pages
