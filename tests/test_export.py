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
from leanbridge.beyond import CONJECTURES, REGENERATE, EvidenceError, parse_evidence
from leanbridge.beyond import INTRO as BEYOND_INTRO
from leanbridge.beyond import NOTATION as BEYOND_NOTATION
from leanbridge.cli import main
from leanbridge.families import CATALOG, Z, get_family
from leanbridge.lean import library
from leanbridge import library_statements
from leanbridge.lean.sources import scan_project
from leanbridge.library_statements import (
    BEYOND_GROUPS,
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
                                                  "even", "even_nonzero", "s_condition",
                                                  "gated_s_condition", "nonzero_skip",
                                                  "characterisation", "characterisation_skip"}


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
                         + list(DEFINITION_NOTES.values())
                         + [e.full_title for e in LIBRARY_STATEMENTS]
                         + list(library_statements.GROUP_NOTES.values())
                         + list(library_statements.PROOFS.values())
                         + [f.statement for f in library_statements.MATHLIB_FACTS]
                         + list(exporter.SHAPE_TITLES.values()))
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
    # the families table: one row per family (name, then verdict), catalog order
    rows = re.findall(r"^\\raggedright (.+?)\\newline (\w+) & ", text, re.M)
    assert len(rows) == len(CATALOG)
    assert rows[0] == ("ReLU", "conditional") and rows[1] == ("GELU$^{\\ast}$", "conditional")


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
    assert text.count(r"\begin{theorem}") == text.count(r"\end{theorem}") == 6
    assert r"\label{thm:relu2-not-absorbable-degree}" in text
    assert r"$A x + W_{\mathrm{down}}\,\sigma(W_{\mathrm{up}}x)" in text
    assert r"= -\tfrac{100}{101}\, I_d$" in text          # leaky ReLU's condition, c = 101/100
    assert r"\max(z, 0.01 z)" in text
    assert "Lean: \\texttt{SkipAbsorption.Families.relu2\\_\\allowbreak{}not" in text
    assert "leanprover/lean4:v4.35.0" in text
    # GLU: gate parity's sufficiency, the library's `gatedAbsorbable_sigmoid_of_sCondition`
    assert r"\label{thm:glu-gatedAbsorbable-of-sCondition}" in text
    assert (r"every $A\in\mathbb{R}^{d\times d}$, all $W_{\mathrm{down}}\in\mathbb{R}^{d\times n}$ "
            r"and $W_{\mathrm{gate}}, W_{\mathrm{val}}\in\mathbb{R}^{n\times d}$") in text
    assert r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{val}} = -A$" in text
    assert r"Let $g(z) = " in text


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
    assert r"\raggedright relu34\newline never & \raggedright $\sigma(z) = \max(0, z)^{3}$ & " \
        in latex


def test_a_family_without_a_theorem_is_a_row_that_says_so(project):
    """A gate with gate parity g(z) + g(−z) = 2 that is not the sigmoid: conditional, stated in
    the library only, so its family file has no theorem and the exports say "no theorem"."""
    generated = CliRunner().invoke(main, ["generate", "--project", str(project), "--gated",
                                          "--expr", "tanh(z) + 1", "--name", "tanh_gate"])
    assert generated.exit_code == 0, generated.output
    markdown = export("--format", "markdown", "--per-family", "tanh_gate", project=project).output
    assert "| tanh_gate | conditional | — | — | — | no theorem |" in markdown
    latex = export("--format", "latex", "--per-family", "tanh_gate", project=project).output
    assert r"\raggedright tanh\_gate\newline conditional & -- & no theorem \tabularnewline" \
        in latex
    assert r"\begin{theorem}" not in latex


def test_repeated_names_are_exported_once():
    once = json.loads(export("--format", "json", "relu2").output)
    twice = json.loads(export("--format", "json", "relu2", "relu2").output)
    assert twice["statements"] == once["statements"]
    assert len(twice["families"]) == 1


# -- verdicts from a check report --------------------------------------------------------------

def _nodes(text):
    """The blueprint's nodes (statement and proof), by the Lean name of their ``\\lean``."""
    nodes = re.split(r"(?=\\begin\{(?:theorem|definition|lemma)\})", text)
    return {re.search(r"\\lean\{([^}]*)\}", n).group(1): n for n in nodes if "\\lean{" in n}


def test_blueprint_has_no_leanok_without_a_lean_run(tmp_path):
    plain = export("--format", "blueprint").output
    assert "\\leanok" not in plain.replace("% nodes. \\leanok", "").replace(
        "no \\leanok anywhere", "")
    assert f"\\lean{{{RELU2_DEGREE}}}" in plain
    assert ("\\uses{def:ReLU\u00b2 (relu2), thm:A homogeneous \u03c3 of natural degree k \u2260 1 "
            "absorbs no skip A \u2260 0 (paper Prop 5)}") in plain
    not_run = _report(tmp_path, {RELU2_DEGREE: "proved"}, lean_status="not_run")
    assert export("--format", "blueprint", "--results", str(not_run)).output == plain


def test_blueprint_library_nodes_are_mathematics():
    nodes = _nodes(export("--format", "blueprint").output)
    node = nodes["SkipAbsorption.absorbable_of_sCondition"]
    assert r"$\sigma(z) - \sigma(-z) = c\,z$" in node
    assert "$\\sigma$(z)" not in node and " -- " not in node


def test_blueprint_leanok_only_for_proved_declarations(tmp_path):
    report = _report(tmp_path, {
        RELU2_DEGREE: "proved",
        "SkipAbsorption.Families.relu2_not_absorbable_identity": "error",
        LIB_DEGREE: "proved"})
    by_label = _nodes(export("--format", "blueprint", "relu2", "--results",
                             str(report)).output)
    assert "\\leanok" in by_label[RELU2_DEGREE]
    assert "\\leanok" not in by_label["SkipAbsorption.Families.relu2_not_absorbable_identity"]
    assert "\\leanok" in by_label[LIB_DEGREE]
    assert "\\leanok" not in by_label["SkipAbsorption.not_absorbable_of_isLittleO"]
    assert "\\leanok" in by_label["SkipAbsorption.relu2"]  # a proved theorem uses it: it elaborated


@pytest.mark.parametrize("verdict", ["error", "sorry", "axiom_violation", "timeout", "proved"])
def test_library_theorem_gets_leanok_only_when_proved(tmp_path, verdict):
    report = _report(tmp_path, {LIB_DEGREE: verdict})
    node = _nodes(export("--format", "blueprint", "relu2", "--results",
                         str(report)).output)[LIB_DEGREE]
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
    assert "\\leanok" not in by_label[RELU2_DEGREE]
    assert "\\leanok" not in by_label[LIB_DEGREE]
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
    assert "\\leanok" not in _nodes(result.stdout)[RELU2_DEGREE]
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
           "`SkipAbsorption.Families.swiglu_not_stack_eq` | library lemma | proved |" in text
    assert ("| GLU | conditional | gate_parity | "
            "`SkipAbsorption.Families.glu_gatedAbsorbable_of_sCondition` | — | not checked by Lean |"
            ) in text
    assert "## GLU (`glu`): conditional" in text
    assert "Lean: `SkipAbsorption.Families.swiglu_not_stack_eq`; status: proved by Lean." in text
    default = export("--format", "markdown", "relu2", "gelu").output
    assert "## Theorem 1 (Degree argument)" in default
    for entry in LIBRARY_STATEMENTS[:1]:
        assert entry.sentence in default      # the same hypotheses as the LaTeX
    assert "**" not in re.sub(r"\*\*[^*\n]+\*\*", "", default)   # bold only, no Python power
    assert "| ReLU² | $\\max(0, z)^{2}$ | never | 1(i), 2(i), 2(ii), 2(iii); $k = 2$ |" \
        in default


def test_no_numpy_slicing_in_any_export(project):
    # a user family with c = 4/3 next to the catalog: its S-condition reads -3/4 I_d
    assert CliRunner().invoke(main, ["generate", "--project", str(project), "--expr",
                                     "Max(z, z/3)", "--name", "leaky_third"]).exit_code == 0
    modes = [("latex",), ("latex", "--fragment"), ("latex", "--per-family"),
             ("latex", "--per-family", "--fragment"), ("markdown",),
             ("markdown", "--per-family"), ("json",), ("blueprint",)]
    outputs = {}
    for mode in modes:
        result = export("--format", *mode, project=project)
        assert result.exit_code == 0, (mode, result.output)
        outputs[mode] = result.output
        for slicing in ("[:,S]", "[S,:]", "W_down", "W_up"):
            assert slicing not in result.output, (mode, slicing)
    # the Markdown per-family bullets use the LaTeX statements' S-condition, c as the family has it
    condition = r"$W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -\tfrac34\, I_d$"
    assert condition in outputs[("latex", "--per-family")]
    section = outputs[("markdown", "--per-family")].split("## leaky_third")[1].split("\n## ")[0]
    assert f"- conditional: absorbable when some S has {condition}" in section
    relu = outputs[("markdown", "--per-family")].split("## ReLU (`relu`)")[1].split("\n## ")[0]
    assert (r"width n′ has $n' \geq n + \operatorname{rank}(I_d + W_{\mathrm{down}}\,D_S\,"
            r"W_{\mathrm{up}})$" in relu)
    assert r"null set of $W_{\mathrm{down}}$ for a fixed $W_{\mathrm{up}}$" in relu


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
    (json.dumps({"schema": "leanbridge.check/1", "lean": "ran", "results": []}),
     "'lean' must be an object"),
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


# -- beyond the paper --------------------------------------------------------------------------

EVIDENCE_FILE = ROOT / "leanbridge" / "data" / "deep-evidence.json"
BEYOND_LIBRARY = [e for e in LIBRARY_STATEMENTS if e.group in BEYOND_GROUPS]
PAPER_LIBRARY = [e for e in LIBRARY_STATEMENTS if e.group not in BEYOND_GROUPS]


def _raw_evidence():
    return json.loads(EVIDENCE_FILE.read_text(encoding="utf-8"))


def _kind_cell(part):
    """One kind of start of one fit, formatted here from the data file: "2.4e-02 (0/6)"."""
    if not part["starts"]:
        return "none"
    return f"{part['best_relative_error']:.1e} ({part['exact_starts']}/{part['starts']})"


def _cell(fit):
    return f"random {_kind_cell(fit['random'])}; informed {_kind_cell(fit['informed'])}"


def _planted_suffix(row):
    return "" if row["planted"]["exact_representation_known"] else " (no control)"


def _expected_rows():
    """The table as the data file says it, formatted here (not by leanbridge.beyond)."""
    return [(str(r["d"]), str(r["n"]), str(r["L"]), f"{r['Lp']} × {r['width']}", r["note_says"],
             _cell(r["generic"]), _cell(r["planted"]) + _planted_suffix(r),
             _cell(r["width_control"]), r["conclusion"], str(r["seed"]))
            for r in _raw_evidence()["rows"]]


def _expected_latex_rows():
    """The LaTeX table's rows: per fit, the random starts over the informed starts."""
    def stacked(upper, lower):
        return rf"\begin{{tabular}}[t]{{@{{}}l@{{}}}}{upper}\\{lower}\end{{tabular}}"

    def fit(f, suffix=""):
        return stacked(_kind_cell(f["random"]) + suffix, _kind_cell(f["informed"]))
    return [(str(r["d"]), str(r["n"]), str(r["L"]), _latex_shape(f"{r['Lp']} × {r['width']}"),
             r"\raggedright " + r["note_says"], stacked("random", "informed"),
             fit(r["generic"]), fit(r["planted"], _planted_suffix(r)), fit(r["width_control"]),
             r"\raggedright " + r["conclusion"]) for r in _raw_evidence()["rows"]]


def test_beyond_groups_are_last_and_not_the_papers():
    assert list(GROUPS)[-len(BEYOND_GROUPS):] == list(BEYOND_GROUPS)
    assert BEYOND_LIBRARY and all(e.paper is None and e.beyond_the_paper for e in BEYOND_LIBRARY)
    assert not any(e.beyond_the_paper for e in PAPER_LIBRARY)


@pytest.mark.parametrize("text", [t for c in CONJECTURES for t in (c.sentence, c.comment, c.title)]
                         + [BEYOND_INTRO, BEYOND_NOTATION])
def test_beyond_texts_are_valid_in_latex_and_markdown(text):
    test_library_texts_are_valid_in_latex_and_markdown(text)
    assert "SkipAbsorption." not in text or text == BEYOND_INTRO


def test_conjectures_are_not_formalised_data():
    assert {c.status for c in CONJECTURES} == {"proof sketch", "conjecture"}
    status = {c.key: c.status for c in CONJECTURES}
    assert status == {"theorem_d": "proof sketch", "same_depth": "conjecture",
                      "deeper": "conjecture"}
    for c in CONJECTURES:
        fields = c.to_dict()
        assert "lean_name" not in fields and "lean" not in fields and "status" in fields
        assert not any("SkipAbsorption" in str(v) for v in fields.values())
        assert c.hypotheses and c.conclusion


#: Theorems issues 10 and 13 name, with a fragment of each hypothesis their Lean statement has
#: (read in lean/SkipAbsorption/ReluNecessity.lean, Beyond/WidthNecessity.lean,
#: Beyond/Injective.lean, Beyond/Stacks.lean).
NAMED_BY_THE_ISSUES = {
    "exists_sCondition_of_absorbable_relu": (
        "relu_characterisation", [r"\max(z, 0)", "nondegenerate", "absorbs the identity skip"],
        r"D_S\,W_{\mathrm{up}} = -I_d"),
    "exists_sCondition_of_absorbableWithWidth_self": (
        "beyond_width", [r"\max(z, 0)", "nondegenerate", "of the same width $n$"],
        r"D_S\,W_{\mathrm{up}} = -I_d"),
    "le_width_of_absorbableWithWidth": (
        "beyond_width", [r"\max(z, 0)", "nondegenerate", r"\neq 0$ for every", "width $n'$"],
        r"$n'\geq n + d$"),
    "injective_add_of_lipschitzWith": (
        "beyond_depth",
        ["normed additive commutative group", "Lipschitz with a constant $K < 1$"],
        "is injective"),
    "injective_resStack": (
        "beyond_depth", ["normed additive commutative group", r"$K_\ell < 1$"],
        "is injective"),
}


def test_the_statements_the_issues_name_are_exported_with_their_hypotheses():
    by_name = {e.lean: e for e in LIBRARY_STATEMENTS}
    outputs = {fmt: export("--format", fmt).output
               for fmt in ("latex", "markdown", "blueprint", "json")}
    data = json.loads(outputs["json"])
    jsonschema.validate(data, STATEMENTS_SCHEMA)
    exported = {e["lean_name"]: e for e in data["library"]}
    for name, (group, hypotheses, conclusion) in NAMED_BY_THE_ISSUES.items():
        entry = by_name[name]
        assert entry.group == group
        assert len(entry.hypotheses) == len(hypotheses), name
        for hypothesis, fragment in zip(entry.hypotheses, hypotheses):
            assert fragment in hypothesis, (name, fragment)
        assert conclusion in entry.conclusion
        assert entry.beyond_the_paper is (group in BEYOND_GROUPS)
        for fmt in ("latex", "markdown", "blueprint"):
            assert entry.sentence in outputs[fmt], (name, fmt)
        assert f"\\lean{{{entry.full_name}}}" in outputs["blueprint"]
        assert f"Lean: `{entry.full_name}`" in outputs["markdown"]
        row = exported[entry.full_name]
        assert row["hypotheses"] == list(entry.hypotheses)
        assert row["beyond_the_paper"] is entry.beyond_the_paper


def _split_at(text, marker):
    assert text.count(marker) == 1, marker
    return text.split(marker)


@pytest.mark.parametrize("fragment", [False, True], ids=["standalone", "fragment"])
@pytest.mark.parametrize("per_family", [False, True], ids=["general", "per-family"])
def test_latex_beyond_the_paper_is_a_separate_last_section(fragment, per_family):
    args = ["--format", "latex"] + (["--fragment"] if fragment else []) + (
        ["--per-family"] if per_family else [])
    text = export(*args).output
    heading = r"\subsection*{Beyond the paper}" if fragment else r"\section*{Beyond the paper}"
    paper, beyond = _split_at(text, heading)
    # one introductory sentence right after the heading: from the project's note, not the paper
    assert beyond.lstrip().startswith(BEYOND_INTRO)
    for entry in BEYOND_LIBRARY:
        # defined in the last section only; the paper's family table may cite it (\ref), as a
        # verdict of the catalog rests on it (tanh: R2)
        assert f"\\label{{{entry.label}}}" in beyond
        assert f"\\label{{{entry.label}}}" not in paper
        assert f"Lean: \\texttt{{{exporter.latex_text(entry.full_name)}".replace(
            r"\_", r"\_\allowbreak{}") in beyond
    for entry in PAPER_LIBRARY if not per_family else []:
        assert f"\\label{{{entry.label}}}" in paper
    assert (r"\label{tab:families}" in paper) is not per_family
    for c in CONJECTURES:
        remark = beyond.split(f"\\label{{{c.label}}}")[1].split(r"\end{remark}")[0]
        assert r"\lean" not in remark and "Lean: " not in remark and r"\footnote" not in remark
        assert c.sentence in remark
    assert r"\label{tab:beyond-evidence}" in beyond
    assert "numerical evidence, not proof" in beyond.lower()
    assert r"python benchmarks/bench\_deep.py -{}-write leanbridge/data/deep-evidence.json" \
        in beyond
    assert all(ord(c) < 128 for c in text)


def _latex_evidence_rows(text):
    table = text.split(r"\label{rem:beyond-evidence}")[1].split(r"\midrule")[1].split(
        r"\bottomrule")[0]
    rows = [r.strip() for r in table.split(r"\tabularnewline") if r.strip()]
    return [tuple(c.strip() for c in row.split(" & ")) for row in rows]


def test_evidence_table_in_every_export_equals_the_data_file():
    expected = _expected_rows()
    raw = _raw_evidence()
    # LaTeX: the same cells (the seed, the same for every row, is in the caption)
    latex_rows = _latex_evidence_rows(export("--format", "latex").output)
    assert len({row[-1] for row in expected}) == 1
    assert latex_rows == _expected_latex_rows()
    assert f"Seed {expected[0][-1]} for every" in export("--format", "latex").output
    # Markdown: the rows of the table under its header
    markdown = export("--format", "markdown").output
    lines = markdown.split("| d | n | L | plain L′ × n′ |")[1].splitlines()[2:]
    md_rows = [tuple(c.strip() for c in line.strip("|").split("|"))
               for line in lines if line.startswith("|")]
    assert md_rows == expected
    # blueprint: the same cells, \hline rules (no booktabs needed)
    blueprint = export("--format", "blueprint").output
    table = blueprint.split(r"\label{rem:beyond-evidence}")[1].split(r"\hline")[2]
    bp_rows = [tuple(c.strip() for c in row.split(" & "))
               for row in table.split("\\\\") if row.strip()]
    assert bp_rows == [(e[0], e[1], e[2], _latex_shape(e[3]), *e[4:9]) for e in expected]
    # JSON: the data file itself
    data = json.loads(export("--format", "json").output)
    assert data["beyond_the_paper"]["evidence"] == raw
    assert raw["command"] in data["beyond_the_paper"]["evidence_note"]


def _latex_shape(shape):
    depth, width = shape.split(" × ")
    return f"${depth}\\times {width}$"


def test_json_flags_the_beyond_the_paper_results():
    data = json.loads(export("--format", "json").output)
    jsonschema.validate(data, STATEMENTS_SCHEMA)
    flags = [e["beyond_the_paper"] for e in data["library"]]
    assert flags == sorted(flags), "the paper's theorems first"
    assert [e["lean_name"] for e in data["library"] if e["beyond_the_paper"]] == [
        e.full_name for e in BEYOND_LIBRARY]
    section = data["beyond_the_paper"]
    assert section["heading"] == "Beyond the paper" and section["intro"] == BEYOND_INTRO
    assert [t["lean_name"] for t in section["theorems"]] == [e.full_name for e in BEYOND_LIBRARY]
    assert {t["status"] for t in section["theorems"]} == {"not checked by Lean"}
    assert [c["key"] for c in section["conjectures"]] == [c.key for c in CONJECTURES]
    for c in section["conjectures"]:
        assert "lean_name" not in c and c["status"] in ("proof sketch", "conjecture")
    # the schema refuses a conjecture with a Lean name
    c = section["conjectures"][0]
    c["lean_name"] = "SkipAbsorption.theorem_d"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, STATEMENTS_SCHEMA)


def test_evidence_file_is_valid_and_was_written_by_the_benchmark():
    raw = _raw_evidence()
    schema = {"$schema": STATEMENTS_SCHEMA["$schema"], "$defs": STATEMENTS_SCHEMA["$defs"],
              "$ref": "#/$defs/deep_evidence"}
    jsonschema.validate(raw, schema)
    bench = _bench()
    assert [(r["d"], r["n"], r["L"], r["Lp"], r["width"]) for r in raw["rows"]] == bench.SHAPES
    assert [(t["d"], t["n"]) for t in raw["tangent"]] == bench.TANGENT
    assert raw["command"] == REGENERATE == f"python benchmarks/bench_deep.py --write " \
                                           f"{bench.DEFAULT_DATA}"
    assert (raw["seed"], raw["random_starts"], raw["informed_starts"]) == (0, 6, 2)
    assert all(r["seed"] == raw["seed"] for r in raw["rows"])


def _bench():
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_deep",
                                                  ROOT / "benchmarks" / "bench_deep.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_benchmark_write_gives_a_table_the_exports_read(tmp_path, monkeypatch, capsys):
    pytest.importorskip("scipy")
    bench = _bench()
    monkeypatch.setattr(bench, "SHAPES", [(2, 2, 1, 1, 2)])
    monkeypatch.setattr(bench, "TANGENT", [(2, 2)])
    out = tmp_path / "evidence.json"
    monkeypatch.setattr("sys.argv", ["bench_deep.py", "--starts", "2", "--informed", "1",
                                     "--write", str(out)])
    bench.main()
    raw = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(raw, {"$defs": STATEMENTS_SCHEMA["$defs"],
                              "$ref": "#/$defs/deep_evidence"})
    assert raw["command"] == f"python benchmarks/bench_deep.py --starts 2 --informed 1 " \
                             f"--write {out}"
    evidence = parse_evidence(raw)
    (row,) = evidence.rows
    assert (row.d, row.n, row.L, row.Lp, row.width, row.seed) == (2, 2, 1, 1, 2, 0)
    assert row.note_says == "not representable; Theorem B, proved"
    assert row.generic.starts == 3 and row.planted.exact_representation_known
    assert raw["tangent"] == [{"d": 2, "n": 2, "seed": 0, "rank_plain": 6, "rank_joint": 10,
                               "excess": 4, "expected": 4}]
    assert "seconds" not in json.dumps(raw)
    # --write does not combine with --quick (it would write a partial table)
    monkeypatch.setattr("sys.argv", ["bench_deep.py", "--quick", "--write", str(out)])
    with pytest.raises(SystemExit) as exit_info:
        bench.main()
    assert exit_info.value.code == 2


def _run_bench(monkeypatch, *args):
    bench = _bench()
    monkeypatch.setattr(bench, "SHAPES", [(2, 2, 1, 1, 2)])
    monkeypatch.setattr(bench, "TANGENT", [(2, 2)])
    monkeypatch.setattr("sys.argv", ["bench_deep.py", "--starts", "2", "--informed", "1",
                                     *args])
    return bench.main()


def _recorded(tmp_path, conclusion, excess=4, starts=2):
    path = tmp_path / "recorded.json"
    path.write_text(json.dumps({
        "schema": "leanbridge.deep-evidence/1", "seed": 0, "random_starts": starts,
        "informed_starts": 1, "rows": [{"d": 2, "n": 2, "L": 1, "Lp": 1, "width": 2, "seed": 0,
                                         "conclusion": conclusion}],
        "tangent": [{"d": 2, "n": 2, "seed": 0, "excess": excess}]}), encoding="utf-8")
    return path


def test_benchmark_exits_1_when_a_result_contradicts_the_recorded_conclusion(
        tmp_path, monkeypatch, capsys):
    pytest.importorskip("scipy")
    out = tmp_path / "evidence.json"
    # the same shape, seed and starts: a dichotomy (random starts reach both controls)
    assert _run_bench(monkeypatch, "--check", str(_recorded(tmp_path, "dichotomy"))) == 0
    capsys.readouterr()
    recorded = _recorded(tmp_path, "controls exact from informed starts only")
    assert _run_bench(monkeypatch, "--check", str(recorded), "--write", str(out)) == 1
    err = capsys.readouterr().err
    assert "contradiction: (2, 2, 1, 1, 2): conclusion 'dichotomy', recorded 'controls exact " \
           "from informed starts only'" in err
    assert "not written" in err and not out.exists()
    # a tangent excess that differs from the recorded one
    assert _run_bench(monkeypatch, "--check", str(_recorded(tmp_path, "dichotomy", 5))) == 1
    assert "tangent (d, n) = (2, 2): excess 4, recorded 5" in capsys.readouterr().err
    # --no-check records new conclusions deliberately; other settings are not compared
    assert _run_bench(monkeypatch, "--check", str(recorded), "--no-check",
                      "--write", str(out)) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["rows"][0]["conclusion"] == "dichotomy"
    capsys.readouterr()
    assert _run_bench(monkeypatch, "--check", str(_recorded(tmp_path, "x", starts=6))) == 0
    assert "not compared with the recorded table" in capsys.readouterr().err


def test_benchmark_flags_an_exact_fit_that_a_proved_statement_excludes():
    bench = _bench()
    row = {"theory": {"prediction": "not representable", "statement": "Theorem B: …",
                      "status": "proved"},
           "generic": {"best_relative_error": 1e-12}}
    assert "Theorem B (proved) says it is not representable" in bench.contradicts_theory(row)
    row["generic"]["best_relative_error"] = 0.3
    assert bench.contradicts_theory(row) is None
    row["theory"]["status"], row["generic"]["best_relative_error"] = "conjecture", 1e-12
    assert bench.contradicts_theory(row) is None
    assert bench.contradictions([dict(row, d=2, n=2, L=1, Lp=1, width=2, seed=0)], [], None,
                                (0, 6, 2)) == []


def test_committed_table_records_per_kind_results_and_honest_conclusions():
    raw = _raw_evidence()
    for row in raw["rows"]:
        for fit in ("generic", "planted", "width_control"):
            part = row[fit]
            assert part["random"]["starts"] == raw["random_starts"]
            assert part["informed"]["starts"] in (0, raw["informed_starts"])
            assert part["random"]["exact_starts"] + part["informed"]["exact_starts"] == \
                part["exact_starts"]
        controls = [row[f] for f in ("planted", "width_control")
                    if row[f]["exact_representation_known"]]
        from_random = all(c["random"]["best_relative_error"] <= raw["exact_threshold"]
                          for c in controls)
        assert row["controls_exact_from_random"] is from_random
        if row["conclusion"] == "dichotomy":
            assert from_random and row["generic"]["best_relative_error"] >= \
                raw["floor_threshold"]
        exact = all(c["best_relative_error"] <= raw["exact_threshold"] for c in controls)
        if exact and not from_random and row["generic"]["best_relative_error"] >= \
                raw["floor_threshold"]:
            assert "exact from informed starts only" in row["conclusion"]


@pytest.mark.parametrize("data, message", [
    ({"schema": "other/1"}, "not a leanbridge.deep-evidence/1 file"),
    ({"schema": "leanbridge.deep-evidence/1", "rows": [{"d": 2}], "command": "x",
      "exact_threshold": 1e-8, "floor_threshold": 1e-4}, "malformed"),
    ({"schema": "leanbridge.deep-evidence/1", "rows": [], "command": "x",
      "exact_threshold": 1e-8, "floor_threshold": 1e-4}, "no rows"),
])
def test_a_broken_evidence_table_is_refused_with_the_command_to_regenerate(data, message):
    with pytest.raises(EvidenceError, match=message):
        parse_evidence(data)


def test_a_missing_evidence_table_is_an_export_error(monkeypatch):
    def broken():
        raise EvidenceError("cannot read the evidence table")
    monkeypatch.setattr(exporter.beyond_data, "load_evidence", broken)
    result = export("--format", "markdown")
    assert result.exit_code == 2 and "cannot read the evidence table" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("fmt", ["latex", "markdown", "blueprint"])
def test_named_exports_have_no_beyond_section(fmt):
    text = export("--format", fmt, "relu2", "gelu").output
    assert "Beyond the paper" not in text and "deep-evidence" not in text
    assert not any(e.label in text for e in BEYOND_LIBRARY)
    data = json.loads(export("--format", "json", "relu2").output)
    assert data["beyond_the_paper"] is None
    assert not any(e["beyond_the_paper"] for e in data["library"])
    jsonschema.validate(data, STATEMENTS_SCHEMA)


def test_markdown_beyond_the_paper_section():
    text = export("--format", "markdown").output
    paper, beyond = _split_at(text, "\n## Beyond the paper\n")
    assert beyond.lstrip().startswith(BEYOND_INTRO)
    assert "## Families" in paper
    numbers = {key: i for i, key in enumerate(GROUPS, start=1)}
    for key in BEYOND_GROUPS:
        assert f"\n### Theorem {numbers[key]} ({GROUPS[key]})\n" in beyond
    for entry in BEYOND_LIBRARY:
        assert f"Lean: `{entry.full_name}`; status: not checked by Lean." in beyond
        assert entry.full_name not in paper
    for c in CONJECTURES:
        paragraph = beyond.split(f"**{c.title}**")[1].split("\n\n")[0]
        assert f"({c.status}, not formalised)." in paragraph
        assert ".md" not in paragraph, "no reference to a file the reader cannot open"
        assert "Lean: `" not in paragraph and "SkipAbsorption" not in paragraph
    assert "### Numerical evidence, not proof" in beyond
    assert f"`{REGENERATE}`" in beyond


def test_blueprint_beyond_is_a_chapter_after_the_families_and_remarks_have_no_lean(tmp_path):
    everything = {e.full_name: "proved" for e in LIBRARY_STATEMENTS}
    report = _report(tmp_path, everything)
    text = export("--format", "blueprint", "--results", str(report)).output
    paper, beyond = _split_at(
        text, r"\ifdefined\chapter\chapter{Beyond the paper}\else\section*{Beyond the paper}\fi")
    assert r"\begin{definition}" in paper and r"\begin{definition}" not in beyond
    assert r"\ifdefined\remark\else\newtheorem{remark}[theorem]{Remark}\fi" in beyond
    assert BEYOND_INTRO in beyond.split(r"\begin{theorem}")[0]
    nodes = _nodes(beyond)
    for entry in BEYOND_LIBRARY:
        node = nodes[entry.full_name]
        assert f"\\label{{{entry.node_label}}}" in node and "\\leanok" in node
    remarks = re.findall(r"\\begin\{remark\}.*?\\end\{remark\}", beyond, re.S)
    assert len(remarks) == len(CONJECTURES) + 1          # and the evidence
    for remark in remarks:
        assert "\\lean" not in remark and "\\uses" not in remark
    for c in CONJECTURES:
        assert f"\\label{{{c.label}}}" in beyond
    for entry in PAPER_LIBRARY:
        assert entry.node_label in paper


def test_latex_text_keeps_double_hyphens():
    assert exporter.latex_text("--write x") == "-{}-write x"
    assert exporter.latex_text("a - b") == "a - b"


# -- reading a check report, exactly (mutation survivors) ---------------------------------------

def _check_report(tmp_path, **fields):
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"schema": "leanbridge.check/1", **fields}), encoding="utf-8")
    return path


def test_read_results_of_a_run_where_lean_ran(tmp_path):
    results = exporter.read_results(_check_report(tmp_path, lean={"status": "ran"}, results=[
        {"decl": "A.a", "verdict": "proved", "statement_hash": "h1"},
        {"decl": "A.b", "verdict": "error"}]))
    assert results.verdicts == {"A.a": "proved", "A.b": "error"}
    assert results.hashes == {"A.a": "h1", "A.b": None}
    assert results.checked is True


@pytest.mark.parametrize("fields", [{"results": [{"decl": "A.a", "verdict": "proved"}]},
                                    {"lean": {"status": "not_run"}}, {}])
def test_read_results_without_a_lean_run_claims_nothing(tmp_path, fields):
    """A report without 'lean' (or where Lean did not run) or without 'results' is read as
    a run in which nothing was checked."""
    results = exporter.read_results(_check_report(tmp_path, **fields))
    assert results.verdicts == {} and results.hashes == {} and results.checked is False


@pytest.mark.parametrize("entry", [{"decl": "A.a", "verdict": 3}, {"decl": 3, "verdict": "x"},
                                   {"verdict": "proved"}, "A.a"])
def test_read_results_refuses_malformed_entries(tmp_path, entry):
    path = _check_report(tmp_path, lean={"status": "ran"}, results=[entry])
    with pytest.raises(exporter.ExportError) as error:
        exporter.read_results(path)
    assert str(error.value) == (f"{path}: 'results' must be a list of objects with 'decl' and "
                                "'verdict'")


def test_read_results_names_why_a_file_cannot_be_read(tmp_path):
    missing = tmp_path / "gone.json"
    with pytest.raises(exporter.ExportError) as error:
        exporter.read_results(missing)
    assert str(error.value) == f"cannot read results file {missing}: No such file or directory"


# -- every hypothesis of the Lean statement, in words (issue 24) -------------------------------

from leanbridge.lean.sources import signature, top_level_split  # noqa: E402
from leanbridge.library_statements import (  # noqa: E402
    GROUP_NOTES,
    MATHLIB_FACTS,
    PROOFS,
    TITLES,
)
from leanbridge.render import PremiseHypothesis  # noqa: E402

#: Each kind of hypothesis a Lean signature takes: a pattern of its Lean type, and the words
#: (regular expressions, any one suffices) the exported statement must carry for it. Every
#: hypothesis must match at least one kind; a conjunction matches several, and needs each.
HYPOTHESIS_WORDS = (
    ("continuous at 0 with value 0", r"Tendsto \S+ \(𝓝 0\) \(𝓝 0\)",
     [r"is continuous at \$0\$ and \$(?:g|\\sigma)\(0\) = 0\$"]),
    ("little o", r"=o\[𝓝 0\] \(fun z => z\)", [r"= o\(z\)\$ as \$z\\to 0\$"]),
    ("homogeneous", r"∀ t : ℝ, 0 < t → ∀ z, \S+ \(t \* z\) = t \^ \w+ \* \S+ z",
     [r"\(tz\) = t\^\{?[\w\\ .]+\}?\\?,?\s?(?:\\sigma|g)\(z\)"]),
    ("k ≠ 1", r"^k ≠ 1$", [r"k\\neq 1"]),
    ("k > 1", r"^1 < k$", [r"k > 1"]),
    ("m ≠ 0", r"^m ≠ 0$", [r"m\\neq 0"]),
    ("A ≠ 0", r"^A ≠ 0$", [r"A\\neq 0"]),
    ("d ≥ 1", r"^0 < d$", [r"d\\geq 1"]),
    ("A invertible", r"^IsUnit A\.det$",
     [r"invertible skip \$A\$", r"every invertible \$A\\in",
      r"\$A\\in\\mathbb\{R\}\^\{d\\times d\}\$ is invertible"]),
    ("even", r"∀ z, \S+ \(-z\) = \S+ z", [r"(?:\\sigma|g)\(-z\) = (?:\\sigma|g)\(z\)"]),
    ("odd-linear", r"∀ z, \S+ z - \S+ \(-z\) = ",
     [r"(?:\\sigma|g)\(z\) - (?:\\sigma|g)\(-z\) = "]),
    ("c ≠ 0", r"^c ≠ 0$", [r"c\\neq 0"]),
    ("a constant ≠ 0", r"^\(.+ : ℝ\) ≠ 0$", [r"\\neq 0\$"]),
    ("S-condition", r"Matrix\.diagonal \(fun i => if i ∈ S then \(1 : ℝ\) else 0\) \* \S+ = ",
     [r"D_S\\,W_\{\\mathrm\{up\}\} = ", r"D_S\\,W_\{\\mathrm\{val\}\} = "]),
    ("nondegenerate", r"^Nondegenerate ", ["nondegenerate"]),
    ("non-empty stack", r"≠ \[\]$", ["non-empty", r"L'\\geq 1"]),
    ("independent rows", r"^LinearIndependent ", ["linearly independent"]),
    ("(ND)", r"\)\.det ≠ 0$", [r"\(ND\)"]),
    ("invertible rows", r"^IsUnit \(Wu\.submatrix", ["form an invertible matrix"]),
    ("narrow", r"< 2 \* d$", [r"< 2d\$"]),
    ("contracting", r"K < 1", [r"K < 1", r"K_\\ell < 1"]),
    ("Lipschitz", r"LipschitzWith K f", ["Lipschitz with a constant"]),
    ("normed", r"^NormedAddCommGroup E$", ["normed additive commutative group"]),
    ("scalar ReLU blocks", r"scalarReluBlock", ["residual ReLU blocks"]),
    ("L' ≥ 1", r"^0 < L'$", [r"L'\\geq 1"]),
    ("absorbs the identity", r"^Absorbable relu 1 Wd Wu$", ["absorbs the identity skip"]),
    ("wider absorbing block", r"^AbsorbableWithWidth relu 1 Wd Wu n'$",
     [r"of width \$n'\$ equals"]),
    ("absorbing block of the same width", r"^AbsorbableWithWidth relu 1 Wd Wu n$",
     [r"same width \$n\$ equals"]),
    ("bounded output", r"^∃ R, ∀ h, ‖N h‖ ≤ R$", [r"\$N\$ has bounded output"]),
    ("continuous maps", r"^Continuous [FG]$", [r"\$F\$ and \$G\$ are continuous"]),
    ("equal outputs", r"^N h₁ = N h₂$", [r"\$N\(h_1\) = N\(h_2\)"]),
    ("distinct inputs", r"^h₁ ≠ h₂$", [r"h_1\\neq h_2"]),
    # the large-scale limit (issue 22)
    ("large-scale limit", r"Tendsto \(fun t(?: : ℝ)? => \S+ \(t \* z(?: \+ β)?\) / t\) "
     r"(?:Filter\.)?atTop", [r"\(tz\)/t\\to", r"\(tz \+ \\beta\)/t\\to"]),
    ("an absorbing block", r"^(?:Biased)?Absorbable σ ", ["absorbs", r"= V_\{\\mathrm\{down\}\}"]),
    ("bounded", r"^∃ M, ∀ z, \|σ z\| ≤ M$", [r"\\sigma\$ is bounded"]),
    ("gate parity", r"∀ z, g z \+ g \(-z\) = ", [r"g\(z\) \+ g\(-z\) = "]),
    ("even part", r"∀ z, σ z \+ σ \(-z\) = ", [r"\\sigma\(z\) \+ \\sigma\(-z\) = "]),
    ("k ≠ 0", r"^k ≠ 0$", [r"k\\neq 0"]),
)
#: Binders that are data (quantified in the statement's words), not hypotheses.
_DATA = re.compile(r"^(?:ℝ|ℕ|NNReal|Type\*|Matrix |List |Finset "
                   r"|Fin \w+ → (?:Fin \w+ → )?(?:Fin \w+|ℝ)$|E → E$"
                   r"|\(Fin \w+ → ℝ\) → \(Fin \w+ → ℝ\)$)")


def _hypotheses(lean_text):
    """The hypotheses of a Lean statement: its binders that are not data, then the premises of
    its type (``P → Q``)."""
    binders, conclusion = signature(lean_text)
    found = [b.type for b in binders if not _DATA.match(b.type)]
    parts = top_level_split(conclusion, "→")
    for index, part in enumerate(parts):
        if re.match(r"^(?:¬\s*)?[∀∃]", part):      # a quantifier: the rest is its body
            parts = parts[:index] + [" → ".join(parts[index:])]
            break
    return found + parts[:-1]


def _missing_words(lean_text, text):
    """(hypothesis, kind) pairs of the Lean statement whose words ``text`` does not carry."""
    missing = []
    for hypothesis in _hypotheses(lean_text):
        kinds = [k for k in HYPOTHESIS_WORDS if re.search(k[1], hypothesis)]
        if not kinds:
            missing.append((hypothesis, "no hypothesis kind matches it (add one above)"))
        for name, _, words in kinds:
            if not any(re.search(w, text) for w in words):
                missing.append((hypothesis, name))
    return missing


def test_hypothesis_reader_sees_every_binder_kind():
    lean = ("theorem foo {σ : ℝ → ℝ} [NormedAddCommGroup E] "
            "(hσ : Tendsto σ (𝓝 0) (𝓝 0)) (hA : A ≠ 0) (Wd : Matrix (Fin d) (Fin n) ℝ) :\n Absorbable relu 1 Wd Wu →\n"
            "  ∃ S : Finset (Fin n), P S := by\n  simp")
    assert _hypotheses(lean) == ["NormedAddCommGroup E", "Tendsto σ (𝓝 0) (𝓝 0)", "A ≠ 0",
                                 "Absorbable relu 1 Wd Wu"]
    assert _missing_words(lean, r"$A\neq 0$; $E$ is a normed additive commutative group; "
                          r"the block absorbs the identity skip") == [
        ("Tendsto σ (𝓝 0) (𝓝 0)", "continuous at 0 with value 0")]
    assert _missing_words("theorem t (h : Weird x) : True", "") == [
        ("Weird x", "no hypothesis kind matches it (add one above)")]


def test_every_library_statement_carries_every_hypothesis_of_its_lean_statement():
    declared = scan_project(LEAN)
    missing = {entry.lean: _missing_words(declared[entry.full_name].text, entry.sentence)
               for entry in LIBRARY_STATEMENTS}
    assert not {name: m for name, m in missing.items() if m}, missing
    # and every format prints that sentence as it is
    texts = [export("--format", fmt).output for fmt in ("latex", "markdown", "blueprint")]
    data = json.loads(export("--format", "json").output)
    for entry in LIBRARY_STATEMENTS:
        assert all(entry.sentence in text for text in texts), entry.lean
        assert next(e for e in data["library"] if e["lean_name"] == entry.full_name)[
            "statement"] == entry.sentence


def _statement_text(s):
    env = exporter.new_environment()
    env.filters["tex"] = exporter.latex_text
    env.filters["texname"] = exporter.latex_text
    module = env.get_template("_statement.tex.j2").make_module(
        {"not_by_lean": exporter.NOT_BY_LEAN})
    return str(module.statement(s))


def test_every_family_statement_carries_every_hypothesis_of_its_lean_statement(project):
    for expr, name in (("log(1+exp(z))-log(2)", "shifted_softplus"),
                       ("(pi-3)*Max(z,0)", "pi_relu")):
        generated = CliRunner().invoke(main, ["generate", "--project", str(project), "--expr",
                                              expr, "--name", name])
        assert generated.exit_code == 0, generated.output
    data = exporter.collect(project)
    assert any(s.premises for s in data.statements)          # premises are covered too
    missing = {s.declaration.full_name: _missing_words(s.declaration.statement,
                                                       _statement_text(s))
               for s in data.statements}
    assert not {name: m for name, m in missing.items() if m}, missing
    # and the per-family exports print exactly that text
    latex = export("--format", "latex", "--per-family", project=project).output
    markdown = export("--format", "markdown", "--per-family", project=project).output
    blueprint = export("--format", "blueprint", project=project).output
    for s in data.statements:
        text = _statement_text(s).strip()
        assert text in markdown and text in latex and text in blueprint


def test_gated_statements_say_g_is_continuous_at_0_and_g_0_is_0_in_every_format():
    words = r"$g$ is continuous at $0$ and $g(0) = 0$"
    gated = [e for e in LIBRARY_STATEMENTS if "gated" in e.lean.lower() and "tendsto" in e.lean]
    assert len(gated) == 3
    outputs = {fmt: export("--format", fmt).output
               for fmt in ("latex", "markdown", "blueprint", "json")}
    for fmt, text in outputs.items():
        assert r"g(z)\to 0" not in text, fmt
        for entry in gated:
            sentence = entry.sentence if fmt != "json" else json.dumps(entry.sentence)[1:-1]
            assert words.replace("\\", "\\\\" if fmt == "json" else "\\") in sentence
            assert sentence in text, (fmt, entry.lean)
    # a premise the family theorem takes as a hypothesis is worded the same way
    family = exporter.collect(LEAN, ["swiglu"]).families[0].plan
    premise = PremiseHypothesis("hσ", library.TENDSTO, "Tendsto swish (𝓝 0) (𝓝 0)", "test")
    assert exporter.premise_latex(premise, family) == words


def test_where_lean_is_more_general_than_the_paper_the_exports_say_so_once():
    note = GROUP_NOTES["relu_characterisation"]
    assert r"The paper assumes $d\geq 2$; the Lean statements hold for every $d$" in note
    for fmt in ("latex", "markdown", "blueprint"):
        text = export("--format", fmt).output
        for key, note in GROUP_NOTES.items():
            assert text.count(note) == 1, (fmt, key)
    data = json.loads(export("--format", "json").output)
    assert data["group_notes"] == GROUP_NOTES
    jsonschema.validate(data, STATEMENTS_SCHEMA)
    # a named export has only the notes of its groups
    named = json.loads(export("--format", "json", "relu2").output)
    assert set(named["group_notes"]) == {"degree", "linearisation"}


def test_titles_say_what_the_statement_says_then_the_paper_reference():
    assert set(TITLES) == {e.lean for e in LIBRARY_STATEMENTS}
    titles = [e.full_title for e in LIBRARY_STATEMENTS]
    assert len(set(titles)) == len(titles), "two theorems with one title"
    for entry in LIBRARY_STATEMENTS:
        assert "," not in entry.title and ":" not in entry.title   # graph node names
        assert len(entry.title.split()) >= 4, entry.title            # not a bare reference
        plain = entry.node_label.removeprefix("thm:")
        assert "\\" not in plain and "$" not in plain, plain      # the graph shows words
        if entry.paper:
            assert entry.full_title.endswith(f"(paper {entry.paper})")
    latex = export("--format", "latex").output
    for entry in LIBRARY_STATEMENTS:
        assert f"\\emph{{{entry.title}}}" in latex
    per_family = export("--format", "latex", "--per-family", "relu2").output
    assert (r"{\normalfont\bfseries ReLU\textsuperscript{2}: no skip $A\neq 0$ is absorbed "
            r"(degree argument; paper Prop 5).}") in per_family
    statements = exporter.collect(LEAN).statements
    assert len({s.title for s in statements}) == len(statements)
    assert len({s.node_label for s in statements}) == len(statements)


def test_no_export_cites_a_file_the_reader_cannot_open():
    for fmt in ("latex", "markdown", "blueprint"):
        text = export("--format", fmt).output
        # what a reader sees: not the comments that say which template wrote the file
        text = re.sub(r"^%.*$", "", re.sub(r"<!--.*?-->", "", text, flags=re.S), flags=re.M)
        assert not re.search(r"[\w-]+\.md\b", text), (fmt, re.findall(r"[\w-]+\.md\b", text))


@pytest.mark.parametrize("fmt", ["json", "blueprint"])
def test_per_family_is_refused_where_it_does_not_apply(fmt):
    result = export("--format", fmt, "--per-family")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "--per-family applies to --format latex and markdown only" in result.stderr


@pytest.mark.parametrize("args, message", [
    (["--format", "markdown", "--label-prefix", "lb:"], "--label-prefix applies to"),
    (["--format", "json", "--label-prefix", "lb:"], "--label-prefix applies to"),
    (["--format", "latex", "--label-prefix", "a b{"], "letters, digits"),
])
def test_label_prefix_is_refused_where_it_does_not_apply(args, message):
    result = export(*args)
    assert result.exit_code == 2 and message in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("fmt, mode", [("latex", []), ("latex", ["--per-family"]),
                                       ("latex", ["--fragment"]), ("blueprint", [])])
def test_label_prefix_goes_on_every_label_and_reference(fmt, mode):
    plain = export("--format", fmt, *mode).output
    text = export("--format", fmt, *mode, "--label-prefix", "lb:").output
    labels = re.findall(r"\\label\{([^}]*)\}", text)
    refs = re.findall(r"\\ref\{([^}]*)\}", text)
    uses = [u.strip() for group in re.findall(r"\\uses\{([^}]*)\}", text)
            for u in group.split(",")]
    assert labels and all(label.startswith("lb:") for label in labels)
    assert all(ref.startswith("lb:") for ref in refs + uses)
    assert set(refs + uses) <= set(labels), "a reference to no label"
    assert len(labels) == len(set(labels))
    assert re.findall(r"\\label\{([^}]*)\}", plain) == [label[3:] for label in labels]


def test_blueprint_out_writes_a_leanblueprint_project(tmp_path):
    out = tmp_path / "blueprint"
    result = export("--format", "blueprint", "relu2", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout == "" and "leanblueprint web" in result.stderr
    written = sorted(p.relative_to(out / "src").as_posix()
                     for p in out.rglob("*") if p.is_file())
    assert written == sorted([*exporter.BLUEPRINT_FILES, "content.tex"])
    assert (out / "src" / "content.tex").read_text(encoding="utf-8") == export(
        "--format", "blueprint", "relu2").output
    to_stdout = export("--format", "blueprint", "relu2", "--out", "-")   # - : stdout, no dir
    assert to_stdout.exit_code == 0 and not Path("-").exists()
    assert to_stdout.stdout == export("--format", "blueprint", "relu2").stdout
    assert all((p.stat().st_mode & 0o777) == 0o644 for p in out.rglob("*") if p.is_file())
    web = (out / "src" / "web.tex").read_text(encoding="utf-8")
    assert "\\input{content}" in web and "{|" not in web
    # again: content.tex is new, the project's own edits of the other files are kept
    (out / "src" / "web.tex").write_text(web + "% my edit\n", encoding="utf-8")
    again = export("--format", "blueprint", "gelu", "--out", str(out))
    assert again.exit_code == 0 and "note: kept 9 existing files" in again.stderr
    assert (out / "src" / "web.tex").read_text(encoding="utf-8").endswith("% my edit\n")
    assert "gelu" in (out / "src" / "content.tex").read_text(encoding="utf-8")
    # a content.tex the export did not write is never overwritten
    (out / "src" / "content.tex").write_text("my own blueprint\n", encoding="utf-8")
    refused = export("--format", "blueprint", "--out", str(out))
    assert refused.exit_code == 2 and "was not written by leanbridge export" in refused.stderr
    assert (out / "src" / "content.tex").read_text(encoding="utf-8") == "my own blueprint\n"
    # an existing file is not a project directory
    clash = tmp_path / "file"
    clash.write_text("x")
    refused = export("--format", "blueprint", "--out", str(clash))
    assert refused.exit_code == 2 and "is not a directory" in refused.stderr
    assert clash.read_text() == "x"


def test_blueprint_has_informal_proofs_and_mathlib_facts():
    text = export("--format", "blueprint").output
    nodes = _nodes(text)
    for entry in LIBRARY_STATEMENTS:
        node = nodes[entry.full_name]
        if entry.lean in PROOFS:
            assert PROOFS[entry.lean] in node.split("\\begin{proof}", 1)[1]
    assert "\\begin{proof}\n\\end{proof}" not in text
    for fact in MATHLIB_FACTS:
        node = nodes[fact.name]
        assert "\\mathlibok" in node and fact.statement in node
        for user in fact.used_by:
            assert fact.node_label in nodes[f"{library.NAMESPACE}.{user}"]
    # a library theorem's proof uses the library theorems its Lean proof uses
    iff = nodes["SkipAbsorption.absorbable_relu_iff"].split("\\begin{proof}", 1)[1]
    for used in ("exists_sCondition_of_absorbable_relu", "absorbable_of_sCondition"):
        assert library_statements.BY_NAME[f"SkipAbsorption.{used}"].node_label in iff
    assert exporter.library_uses(LEAN)["SkipAbsorption.absorbable_relu_iff"] == [
        "SkipAbsorption.absorbable_of_sCondition",
        "SkipAbsorption.exists_sCondition_of_absorbable_relu"]
    # a family theorem's proof says which theorem it instantiates
    relu2 = nodes[RELU2_DEGREE].split("\\begin{proof}", 1)[1]
    assert "The instance of A homogeneous $\\sigma$ of natural degree" in relu2
    assert "SkipAbsorption.relu2\\_\\allowbreak{}posHomogeneous" in relu2


def test_informal_proofs_and_mathlib_facts_name_existing_theorems():
    names = {e.lean for e in LIBRARY_STATEMENTS}
    assert set(PROOFS) <= names, "a proof for a theorem that does not exist"
    assert {e.lean for e in PAPER_LIBRARY} <= set(PROOFS)
    declared = scan_project(LEAN)
    from leanbridge.lean.sources import uses
    checked = (LEAN / "CHECKED_NAMES.md").read_text(encoding="utf-8")
    for fact in MATHLIB_FACTS:
        assert f"`{fact.name}`" in checked, fact.name
        for user in fact.used_by:
            assert user in names
            seen, todo, text = set(), [f"{library.NAMESPACE}.{user}"], ""
            while todo:      # the proof, and the project lemmas it uses, transitively
                name = todo.pop()
                if name in seen:
                    continue
                seen.add(name)
                text += declared[name].text
                todo += uses(declared[name], declared)
            short = fact.name.rsplit(".", 1)[-1]
            assert re.search(rf"(?<![\w']){re.escape(short)}(?![\w'])", text), (
                fact.name, user)


def test_reasons_typeset_the_absorbing_blocks_weights_like_the_blocks_own():
    """`V_down`, `V_up` (the absorbing block of the R2 reason) become mathematics as `W_down`,
    `W_up` do; an identifier that merely contains them does not."""
    reason = "A x + W_down σ(W_up x) = V_down σ(V_up x) and V_gate, V_val; MY_V_down stays"
    assert exporter.reason_markdown(reason, None) == (
        r"A x + $W_{\mathrm{down}}$ σ($W_{\mathrm{up}}$ x) = $V_{\mathrm{down}}$ "
        r"σ($V_{\mathrm{up}}$ x) and $V_{\mathrm{gate}}$, $V_{\mathrm{val}}$; MY_V_down stays")


def test_the_invertible_skip_characterisation_is_typeset_with_all_its_hypotheses():
    text = export("--format", "latex", "--per-family", "silu").output
    assert r"\label{thm:silu-absorbable-iff-of-isUnit-det}" in text
    assert (r"every invertible $A\in\mathbb{R}^{d\times d}$ and all nondegenerate"
            "\n" r"$W_{\mathrm{down}}\in\mathbb{R}^{d\times n}$") in text
    assert r"satisfies $W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -A$" in text
    assert "an invertible skip is absorbed if and only if the S-condition with $-A$ holds" in text


def test_the_invertible_skip_condition_in_a_reason_is_typeset_whole():
    reason = "absorbable iff W_down[:,S] W_up[S,:] = −A for some S (SkipAbsorption.x)"
    assert exporter.reason_markdown(reason, None) == (
        r"absorbable iff $W_{\mathrm{down}}\,D_S\,W_{\mathrm{up}} = -A$ for some S "
        "(SkipAbsorption.x)")


def test_gate_parity_reasons_typeset_the_gated_product():
    """The gate-parity reason's W_down[:,S] W_val[S,:], with its = −I_d and alone."""
    assert exporter.reason_markdown("absorbed whenever W_down[:,S] W_val[S,:] = −I_d (gate)",
                                    None) == (
        r"absorbed whenever $W_{\mathrm{down}}\,D_S\,W_{\mathrm{val}} = -I_d$ (gate)")
    assert exporter.reason_markdown("when some S has W_down[:,S] W_val[S,:] = −1/2·I_d",
                                    None) == (
        r"when some S has $W_{\mathrm{down}}\,D_S\,W_{\mathrm{val}}$ = −1/2·I_d")
