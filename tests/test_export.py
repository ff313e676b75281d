"""`leanbridge export`: LaTeX, Markdown, JSON and blueprint, from the same source as the Lean."""

import json
import re
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from leanbridge import export as exporter
from leanbridge.cli import main

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"
STATEMENTS_SCHEMA = json.loads(resources.files("leanbridge").joinpath(
    "schemas/statements-1.schema.json").read_text(encoding="utf-8"))


def export(*args):
    return CliRunner().invoke(main, ["export", "--project", str(LEAN), *args])


def _report(tmp_path, verdicts, lean_status="ran"):
    path = tmp_path / "check.json"
    path.write_text(json.dumps({
        "schema": "leanbridge.check/1", "started_at": "2026-11-29T00:00:00+00:00",
        "lean": {"status": lean_status, "note": "", "build": None},
        "results": [{"decl": d, "verdict": v} for d, v in verdicts.items()]}))
    return path


def test_every_argument_theorem_has_an_exported_shape():
    plans, statements = exporter.collect()
    argument_theorems = [d for p in plans for d in p.declarations if d.role == "argument"]
    assert len(statements) == len(argument_theorems) >= 30
    assert {s.shape for s in statements} == {"degree", "identity", "invertible", "stack",
                                             "even", "even_nonzero", "s_condition"}


def test_json_export_is_valid_against_its_schema():
    result = export("--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    jsonschema.validate(data, STATEMENTS_SCHEMA)
    assert data["checked_by_lean"] is False
    assert {s["status"] for s in data["statements"]} == {"not checked by Lean"}
    relu2 = next(s for s in data["statements"]
                 if s["lean_name"] == "SkipAbsorption.Families.relu2_not_absorbable_degree")
    assert relu2["activation"]["latex"] == r"\max\left(0, z\right)^{2}"
    assert relu2["uses"] == ["SkipAbsorption.not_absorbable_of_posHomogeneous",
                             "SkipAbsorption.relu2_posHomogeneous"]
    assert relu2["lean_statement"].startswith(
        "theorem SkipAbsorption.Families.relu2_not_absorbable_degree {d n : ℕ}")


def test_latex_structure():
    result = export("--format", "latex", "relu2", "leaky_relu", "glu")
    assert result.exit_code == 0
    text = result.output
    assert text.count(r"\begin{theorem}") == text.count(r"\end{theorem}") == 5
    assert r"\label{thm:relu2-not-absorbable-degree}" in text
    assert r"\usepackage{amsmath,amssymb,amsthm}" in text
    assert r"$A x + W_{\mathrm{down}}\,\sigma(W_{\mathrm{up}}x)" in text
    assert r"= -\frac{100}{101}\, I_d$" in text          # leaky ReLU's condition, c = 101/100
    assert r"\max\left(\frac{z}{100}, z\right)" in text  # sympy.latex of the activation
    assert "Lean: \\texttt{SkipAbsorption.Families.relu2\\_\\allowbreak{}not" in text
    assert "leanprover/lean4:v4.35.0" in text and "v4.35.0" in text
    assert re.search(r"GLU & undetermined & -- & -- & no theorem", text)
    assert "not checked by Lean" in text and "proved by Lean" not in text
    assert all(ord(c) < 128 for c in text), "pdflatex input must be ASCII"


@pytest.mark.skipif(shutil.which("pdflatex") is None,
                    reason="pdflatex not found on PATH: the LaTeX export was not compiled")
def test_latex_compiles_with_stock_pdflatex(tmp_path):
    source = tmp_path / "statements.tex"
    assert export("--format", "latex", "--out", str(source)).exit_code == 0
    completed = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                                source.name], cwd=tmp_path, capture_output=True, text=True,
                               timeout=300)
    assert completed.returncode == 0, completed.stdout[-2000:]
    assert (tmp_path / "statements.pdf").stat().st_size > 10_000
    assert "Overfull" not in (tmp_path / "statements.log").read_text(errors="replace")


def test_blueprint_has_no_leanok_without_a_lean_run(tmp_path):
    plain = export("--format", "blueprint").output
    assert "\\leanok" not in plain.replace("% nodes. \\leanok", "").replace(
        "no \\leanok anywhere", "")
    assert "\\lean{SkipAbsorption.Families.relu2_not_absorbable_degree}" in plain
    assert "\\uses{def:relu2, thm:lib-not-absorbable-of-posHomogeneous}" in plain
    # a report from a check in which Lean did NOT run gives no \leanok either
    not_run = _report(tmp_path, {"SkipAbsorption.Families.relu2_not_absorbable_degree":
                                 "proved"}, lean_status="not_run")
    assert export("--format", "blueprint", "--results", str(not_run)).output == plain


def test_blueprint_leanok_only_for_proved_declarations(tmp_path):
    report = _report(tmp_path, {
        "SkipAbsorption.Families.relu2_not_absorbable_degree": "proved",
        "SkipAbsorption.Families.relu2_not_absorbable_identity": "error",
        "SkipAbsorption.not_absorbable_of_posHomogeneous": "proved"})
    text = export("--format", "blueprint", "relu2", "--results", str(report)).output
    nodes = re.split(r"(?=\\begin\{(?:theorem|definition)\})", text)
    by_label = {re.search(r"\\label\{([^}]*)\}", n).group(1): n for n in nodes
                if "\\label{" in n}
    assert "\\leanok" in by_label["thm:relu2-not-absorbable-degree"]
    assert "\\leanok" not in by_label["thm:relu2-not-absorbable-identity"]
    assert "\\leanok" in by_label["thm:lib-not-absorbable-of-posHomogeneous"]
    assert "\\leanok" not in by_label["thm:lib-not-absorbable-of-isLittleO"]
    assert "\\leanok" in by_label["def:relu2"]  # a proved theorem uses it: it elaborated


def test_markdown_carries_the_same_information(tmp_path):
    report = _report(tmp_path, {"SkipAbsorption.Families.swiglu_not_stack_eq": "proved"})
    text = export("--format", "markdown", "swiglu", "glu", "--results", str(report)).output
    assert "| SwiGLU | never | linearisation | " \
           "`SkipAbsorption.Families.swiglu_not_stack_eq` | proved |" in text
    assert "| GLU | undetermined | — | — | no theorem |" in text
    assert "## GLU (`glu`): undetermined" in text
    assert "Lean: `SkipAbsorption.Families.swiglu_not_stack_eq`; status: proved by Lean." in text


@pytest.mark.parametrize("args, message", [
    (["--format", "latex", "relu4"], "unknown family relu4"),
    (["--format", "json", "--results", "/nonexistent.json"], "cannot read results file"),
    (["--format", "pdf"], "Invalid value"),
])
def test_export_bad_input_exits_2(args, message):
    result = export(*args)
    assert result.exit_code == 2 and message in result.stderr


def test_results_file_of_another_kind_is_refused(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"schema": "something/9"}))
    result = export("--format", "json", "--results", str(other))
    assert result.exit_code == 2 and "not a leanbridge.check/1 report" in result.stderr


def test_latex_text_refuses_unknown_unicode():
    with pytest.raises(exporter.ExportError):
        exporter.latex_text("Ж")
    assert exporter.latex_text("ReLU² a_b") == r"ReLU\textsuperscript{2} a\_b"
