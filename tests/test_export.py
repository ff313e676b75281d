"""`leanbridge export`: LaTeX, Markdown, JSON and blueprint, from the same source as the Lean."""

import json
import re
import shutil
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import sympy as sp
from click.testing import CliRunner

from leanbridge import export as exporter
from leanbridge.cli import main
from leanbridge.families import CATALOG, Z, get_family
from leanbridge.lean import library
from leanbridge.lean.sources import scan_project
from leanbridge.library_statements import (
    DEFINITION_NOTES,
    GROUPS,
    LIBRARY_STATEMENTS,
    NOTATION,
)
from leanbridge.typeset import Phi, activation_latex, readable

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"
STATEMENTS_SCHEMA = json.loads(resources.files("leanbridge").joinpath(
    "schemas/statements-1.schema.json").read_text(encoding="utf-8"))
RELU2_DEGREE = "SkipAbsorption.Families.relu2_not_absorbable_degree"
LIB_DEGREE = "SkipAbsorption.not_absorbable_of_posHomogeneous"


def export(*args, project=LEAN):
    return CliRunner().invoke(main, ["export", "--project", str(project), *args])


def current_hash(name, project=LEAN):
    data = exporter.collect(project)
    for s in data.statements:
        if s.declaration.full_name == name:
            return s.declaration.statement_hash
    return exporter.library_hashes(project)[name]


def _report(tmp_path, verdicts, lean_status="ran", hashes=None):
    """A check report; each entry carries the current statement hash unless overridden."""
    hashes = hashes or {}
    path = tmp_path / "check.json"
    path.write_text(json.dumps({
        "schema": "leanbridge.check/1", "started_at": "2026-11-29T00:00:00+00:00",
        "lean": {"status": lean_status, "note": "", "build": None},
        "results": [{"decl": d, "verdict": v,
                     "statement_hash": hashes.get(d) or current_hash(d)}
                    for d, v in verdicts.items()]}))
    return path


@pytest.fixture
def project(tmp_path):
    target = tmp_path / "lean"
    shutil.copytree(LEAN, target, ignore=shutil.ignore_patterns(".lake", "build"))
    return target


# -- data --------------------------------------------------------------------------------------

def test_every_argument_theorem_has_an_exported_shape():
    data = exporter.collect(LEAN)
    argument_theorems = [d for row in data.families for d in row.plan.declarations
                         if d.role == "argument"]
    assert len(data.statements) == len(argument_theorems) >= 30
    assert {s.shape for s in data.statements} == {"degree", "identity", "invertible", "stack",
                                                  "even", "even_nonzero", "s_condition"}


def test_library_entries_name_declared_theorems_and_cover_the_instantiated_ones():
    declared = scan_project(LEAN)
    names = {entry.full_name for entry in LIBRARY_STATEMENTS}
    assert len(names) == len(LIBRARY_STATEMENTS)
    for entry in LIBRARY_STATEMENTS:
        assert entry.full_name in declared, entry.full_name
        assert declared[entry.full_name].kind in ("theorem", "lemma")
        assert entry.group in GROUPS
    assert {t.full_name for t in library.GENERAL_THEOREMS.values()} <= names


@pytest.mark.parametrize("text", [e.sentence for e in LIBRARY_STATEMENTS] + [NOTATION]
                         + list(DEFINITION_NOTES.values()))
def test_library_texts_are_valid_in_latex_and_markdown(text):
    assert all(ord(c) < 128 for c in text)
    outside_math = re.sub(r"\$[^$]*\$", "", text)
    assert "\\" not in outside_math, "text-mode macros do not survive Markdown"
    assert "|" not in text and "\\{" not in text and "--" not in text
    assert text.count("$") % 2 == 0


# -- typesetting -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, latex", [
    ("gelu", r"z\,\Phi(z)"),
    ("gelu_tanh", r"\tfrac12 z(1 + \tanh(\sqrt{2/\pi}(z + 0.044715 z^{3})))"),
    ("relu2", r"\max(0, z)^{2}"),
    ("leaky_relu", r"\max(z, 0.01 z)"),
    ("silu", r"\frac{z}{1 + e^{-z}}"),
    ("softplus", r"\log(1 + e^{z})"),
    ("abs", r"\lvert z\rvert"),
])
def test_activations_are_typeset_with_readable_names(name, latex):
    assert activation_latex(get_family(name).expr) == latex


@pytest.mark.parametrize("family", CATALOG, ids=lambda f: f.name)
def test_the_readable_form_is_the_same_function(family):
    phi = sp.Lambda(Z, (1 + sp.erf(Z / sp.sqrt(2))) / 2)
    back = readable(family.expr).replace(Phi, lambda u: phi(u))
    from leanbridge.functions import sigmoid
    original = family.expr.replace(sigmoid, lambda u: 1 / (1 + sp.exp(-u)))
    assert sp.simplify(back - original) == 0


# -- LaTeX -------------------------------------------------------------------------------------

def test_latex_default_is_general_theorems_and_a_booktabs_table():
    result = export("--format", "latex")
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.count(r"\begin{theorem}") == len(GROUPS)
    assert text.count(r"\item\label{thm:lib-") == len(LIBRARY_STATEMENTS)
    assert r"\toprule" in text and r"\midrule" in text and r"\bottomrule" in text
    assert r"\IfFileExists{booktabs.sty}{\usepackage{booktabs}}{}" in text
    assert r"$z\,\Phi(z)$" in text
    assert r"\tfrac12 z(1 + \tanh(\sqrt{2/\pi}(z + 0.044715 z^{3})))" in text
    assert r"W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}}" in text
    assert "[:,S]" not in text and "**" not in text
    assert "not checked by Lean" in text and "proved by Lean" not in text
    assert all(ord(c) < 128 for c in text), "pdflatex input must be ASCII"
    # the families table: one row per family, catalog order
    rows = re.findall(r"^\\raggedright (.+?) & ", text, re.M)
    assert len(rows) == len(CATALOG)
    assert rows[0] == "ReLU" and rows[1] == "GELU$^{\\ast}$"


def test_footnote_marks_are_attached_to_their_text():
    for args in (["--format", "latex"], ["--format", "latex", "--per-family"]):
        text = export(*args).output
        assert text.count(r"\footnote{") >= 10
        assert not re.search(r"\s\\footnote\{", text), "a space or newline before \\footnote"


def test_latex_says_where_lean_defines_gelu_differently():
    text = export("--format", "latex", "gelu", "relu").output
    note = re.search(r"\\noindent\$\^\{\\ast\}\$\\,GELU: (.*)", text).group(1)
    assert "cdf (gaussianReal 0 1)" in note and "not proved in the Lean library" in note
    assert r"\operatorname{erf}(z/\sqrt{2})" in note
    assert "ReLU$^{\\ast}$" not in text  # the library's relu is tied to SymPy by rfl
    per_family = export("--format", "latex", "--per-family", "gelu").output
    assert "cdf (gaussianReal 0 1)" in per_family


def test_latex_per_family_keeps_one_statement_per_theorem():
    result = export("--format", "latex", "--per-family", "relu2", "leaky_relu", "glu")
    assert result.exit_code == 0
    text = result.output
    assert text.count(r"\begin{theorem}") == text.count(r"\end{theorem}") == 5
    assert r"\label{thm:relu2-not-absorbable-degree}" in text
    assert r"$A x + W_{\mathrm{down}}\,\sigma(W_{\mathrm{up}}x)" in text
    assert r"= -\tfrac{100}{101}\, I_d$" in text          # leaky ReLU's condition, c = 101/100
    assert r"\max(z, 0.01 z)" in text
    assert "Lean: \\texttt{SkipAbsorption.Families.relu2\\_\\allowbreak{}not" in text
    assert "leanprover/lean4:v4.35.0" in text
    assert re.search(r"GLU & undetermined & -- & -- & no theorem", text)


def test_latex_fragment_has_no_preamble():
    text = export("--format", "latex", "--fragment").output
    assert r"\documentclass" not in text and r"\begin{document}" not in text
    assert r"\end{document}" not in text and r"\usepackage" not in text
    assert r"\ifdefined\theorem\else\newtheorem{theorem}{Theorem}\fi" in text
    assert r"\begin{theorem}" in text


def test_fragment_is_latex_only():
    result = export("--format", "markdown", "--fragment")
    assert result.exit_code == 2 and "--fragment applies to --format latex" in result.stderr


# -- JSON --------------------------------------------------------------------------------------

def test_json_export_is_valid_against_its_schema():
    result = export("--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    jsonschema.validate(data, STATEMENTS_SCHEMA)
    assert data["checked_by_lean"] is False and data["ignored_stale"] == []
    assert {s["status"] for s in data["statements"]} == {"not checked by Lean"}
    relu2 = next(s for s in data["statements"] if s["lean_name"] == RELU2_DEGREE)
    assert relu2["activation"]["latex"] == r"\max(0, z)^{2}"
    assert relu2["uses"] == [LIB_DEGREE, "SkipAbsorption.relu2_posHomogeneous"]
    assert relu2["lean_statement"].startswith(f"theorem {RELU2_DEGREE} {{d n : ℕ}}")
    assert [e["lean_name"] for e in data["library"]] == [
        e.full_name for e in LIBRARY_STATEMENTS]
    gelu = next(f for f in data["families"] if f["family"] == "gelu")
    assert "gaussianReal" in gelu["definition_note"]


# -- user families, names ----------------------------------------------------------------------

def test_user_families_are_exportable_by_name_and_in_full_exports(project):
    generated = CliRunner().invoke(main, ["generate", "--project", str(project),
                                          "--expr", "Max(z,0)**3", "--name", "relu34"])
    assert generated.exit_code == 0, generated.output
    named = export("--format", "json", "relu34", project=project)
    assert named.exit_code == 0, named.stderr
    data = json.loads(named.output)
    assert {s["family"] for s in data["statements"]} == {"relu34"}
    assert data["families"][0]["lean_definition"] == "SkipAbsorption.Families.relu34"
    full = json.loads(export("--format", "json", project=project).output)
    assert [f["family"] for f in full["families"]][-1] == "relu34"
    latex = export("--format", "latex", project=project).output
    assert r"\raggedright relu34 & $\max(0, z)^{3}$ & never & " in latex


def test_repeated_names_are_exported_once():
    once = json.loads(export("--format", "json", "relu2").output)
    twice = json.loads(export("--format", "json", "relu2", "relu2").output)
    assert twice["statements"] == once["statements"]
    assert len(twice["families"]) == 1


# -- verdicts from a check report --------------------------------------------------------------

def _nodes(text):
    nodes = re.split(r"(?=\\begin\{(?:theorem|definition)\})", text)
    return {re.search(r"\\label\{([^}]*)\}", n).group(1): n for n in nodes if "\\label{" in n}


def test_blueprint_has_no_leanok_without_a_lean_run(tmp_path):
    plain = export("--format", "blueprint").output
    assert "\\leanok" not in plain.replace("% nodes. \\leanok", "").replace(
        "no \\leanok anywhere", "")
    assert f"\\lean{{{RELU2_DEGREE}}}" in plain
    assert "\\uses{def:relu2, thm:lib-not-absorbable-of-posHomogeneous}" in plain
    not_run = _report(tmp_path, {RELU2_DEGREE: "proved"}, lean_status="not_run")
    assert export("--format", "blueprint", "--results", str(not_run)).output == plain


def test_blueprint_library_nodes_are_mathematics():
    nodes = _nodes(export("--format", "blueprint").output)
    node = nodes["thm:lib-absorbable-of-sCondition"]
    assert r"$\sigma(z) - \sigma(-z) = c\,z$" in node
    assert "$\\sigma$(z)" not in node and " -- " not in node


def test_blueprint_leanok_only_for_proved_declarations(tmp_path):
    report = _report(tmp_path, {
        RELU2_DEGREE: "proved",
        "SkipAbsorption.Families.relu2_not_absorbable_identity": "error",
        LIB_DEGREE: "proved"})
    by_label = _nodes(export("--format", "blueprint", "relu2", "--results",
                             str(report)).output)
    assert "\\leanok" in by_label["thm:relu2-not-absorbable-degree"]
    assert "\\leanok" not in by_label["thm:relu2-not-absorbable-identity"]
    assert "\\leanok" in by_label["thm:lib-not-absorbable-of-posHomogeneous"]
    assert "\\leanok" not in by_label["thm:lib-not-absorbable-of-isLittleO"]
    assert "\\leanok" in by_label["def:relu2"]  # a proved theorem uses it: it elaborated


@pytest.mark.parametrize("verdict", ["error", "sorry", "axiom_violation", "timeout", "proved"])
def test_library_theorem_gets_leanok_only_when_proved(tmp_path, verdict):
    report = _report(tmp_path, {LIB_DEGREE: verdict})
    node = _nodes(export("--format", "blueprint", "relu2", "--results",
                         str(report)).output)["thm:lib-not-absorbable-of-posHomogeneous"]
    assert ("\\leanok" in node) is (verdict == "proved")
    latex = export("--format", "latex", "relu2", "--results", str(report)).output
    footnote = re.search(r"posHomogeneous\}; status: ([^.]*)\.", latex).group(1)
    assert footnote == ("proved by Lean" if verdict == "proved" else verdict.replace("_", r"\_"))


def test_stale_report_entries_give_no_leanok_and_are_listed(tmp_path):
    report = _report(tmp_path, {RELU2_DEGREE: "proved", LIB_DEGREE: "proved"},
                     hashes={RELU2_DEGREE: "0" * 16, LIB_DEGREE: "f" * 16})
    result = export("--format", "blueprint", "relu2", "--results", str(report))
    assert result.exit_code == 0
    by_label = _nodes(result.stdout)
    assert "\\leanok" not in by_label["thm:relu2-not-absorbable-degree"]
    assert "\\leanok" not in by_label["thm:lib-not-absorbable-of-posHomogeneous"]
    assert "ignored 2 stale report entries" in result.stderr
    assert RELU2_DEGREE in result.stderr and LIB_DEGREE in result.stderr
    assert f"% Ignored as stale (statement changed since the check): {RELU2_DEGREE}, " \
           f"{LIB_DEGREE}" in result.stdout
    latex = export("--format", "latex", "relu2", "--results", str(report)).stdout
    assert "Report entries ignored because the statement changed since the check:" in latex
    markdown = export("--format", "markdown", "relu2", "--results", str(report)).stdout
    assert f"since the check: `{RELU2_DEGREE}`, `{LIB_DEGREE}`." in markdown
    data = json.loads(export("--format", "json", "relu2", "--results", str(report)).stdout)
    assert data["ignored_stale"] == sorted([RELU2_DEGREE, LIB_DEGREE])
    assert next(s for s in data["statements"]
                if s["lean_name"] == RELU2_DEGREE)["status"] == "not checked by Lean"


def test_report_entry_without_statement_hash_is_stale(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"schema": "leanbridge.check/1", "lean": {"status": "ran"},
                                "results": [{"decl": RELU2_DEGREE, "verdict": "proved"}]}))
    result = export("--format", "blueprint", "relu2", "--results", str(path))
    assert "\\leanok" not in _nodes(result.stdout)["thm:relu2-not-absorbable-degree"]
    assert "ignored 1 stale report entry" in result.stderr


def test_export_hashes_agree_with_the_check_report(monkeypatch):
    from leanbridge import check as checker
    monkeypatch.setattr(checker, "find_lake", lambda explicit: None)
    result = checker.run_check(LEAN, lake=None, progress=lambda line: None)
    report = {r.decl: r.statement_hash for r in result.records}
    data = exporter.collect(LEAN)
    mine = {s.declaration.full_name: s.declaration.statement_hash for s in data.statements}
    mine.update(exporter.library_hashes(LEAN))
    assert mine and all(report[name] == value for name, value in mine.items())


def test_markdown_carries_the_same_information(tmp_path):
    report = _report(tmp_path, {"SkipAbsorption.Families.swiglu_not_stack_eq": "proved"})
    text = export("--format", "markdown", "--per-family", "swiglu", "glu", "--results",
                  str(report)).output
    assert "| SwiGLU | never | linearisation | " \
           "`SkipAbsorption.Families.swiglu_not_stack_eq` | proved |" in text
    assert "| GLU | undetermined | — | — | no theorem |" in text
    assert "## GLU (`glu`): undetermined" in text
    assert "Lean: `SkipAbsorption.Families.swiglu_not_stack_eq`; status: proved by Lean." in text
    default = export("--format", "markdown", "relu2", "gelu").output
    assert "## Theorem 1 (Degree argument)" in default
    for entry in LIBRARY_STATEMENTS[:1]:
        assert entry.sentence in default      # the same hypotheses as the LaTeX
    assert "**" not in re.sub(r"\*\*[^*\n]+\*\*", "", default)   # bold only, no Python power
    assert "| ReLU² | $\\max(0, z)^{2}$ | never | 1(i), 2(i), 2(ii), 2(iii); $k = 2$ |" \
        in default


# -- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--format", "latex", "relu4"], "unknown family relu4"),
    (["--format", "json", "--results", "/nonexistent.json"], "cannot read results file"),
    (["--format", "json", "--results", "/"], "it is a directory"),
    (["--format", "latex", "--out", "/"], "is a directory"),
    (["--format", "latex", "--out", "/proc/leanbridge/x.tex"], "not writable"),
])
def test_export_bad_input_exits_2_with_one_line(args, message):
    result = export(*args)
    assert result.exit_code == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""


def test_unknown_format_is_a_usage_error():
    result = export("--format", "pdf")
    assert result.exit_code == 2 and "Invalid value" in result.stderr


@pytest.mark.parametrize("content, message", [
    ("{not json", "not JSON"),
    (json.dumps({"schema": "something/9"}), "not a leanbridge.check/1 report"),
    (json.dumps({"schema": "leanbridge.check/1", "lean": {"status": "ran"},
                 "results": [{"decl": 3}]}), "'results' must be a list"),
    ("\udcff", "cannot read results file"),
])
def test_results_file_that_is_not_a_report_is_refused(tmp_path, content, message):
    other = tmp_path / "other.json"
    other.write_bytes(content.encode("utf-8", "surrogateescape"))
    result = export("--format", "json", "--results", str(other))
    assert result.exit_code == 2 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_latex_text_refuses_unknown_unicode():
    with pytest.raises(exporter.ExportError):
        exporter.latex_text("Ж")
    assert exporter.latex_text("ReLU² a_b") == r"ReLU\textsuperscript{2} a\_b"
