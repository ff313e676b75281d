"""Theorems stated modulo a premise (issue 9): `check` and every export say so.

A user activation whose premise no certificate rule proves gets a Lean theorem taking the
premise as a named hypothesis `(hσ : …)`. Lean can prove the theorem, never the premise; SymPy
re-verifies the premise in every check. These tests run `leanbridge check` against the
STAND-IN for `lake` (tests/lake_standin.py: it is not Lean and proves nothing) and the exports
on a tmp project with generated user families.
"""

import json
import shutil
import stat
import sys
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from leanbridge import check as check_module
from leanbridge.check import run_check
from leanbridge.cli import main
from leanbridge.premises import (
    FAILED,
    UNKNOWN,
    VERIFIED,
    PremiseCheck,
    nonzero_status,
    premise_checks,
)
from leanbridge.reports import github_annotations, step_summary, terminal, to_json, to_junit
from leanbridge.results import PROVED_MODULO_PREMISE

ROOT = Path(__file__).resolve().parents[1]
STANDIN = Path(__file__).with_name("lake_standin.py")


def _schema(name):
    return json.loads(resources.files("leanbridge").joinpath(f"schemas/{name}")
                      .read_text(encoding="utf-8"))


CHECK_SCHEMA = _schema("check-1.schema.json")
STATEMENTS_SCHEMA = _schema("statements-1.schema.json")

SOFTPLUS = "SkipAbsorption.Families.shifted_softplus_absorbable_of_sCondition"
HYPOTHESIS = "hσ : ∀ z, shifted_softplus z - shifted_softplus (-z) = z"


def generate(project, expr, name):
    result = CliRunner().invoke(main, ["generate", "--project", str(project), "--expr", expr,
                                       "--name", name])
    assert result.exit_code == 0, result.output


@pytest.fixture
def project(tmp_path):
    """A copy of lean/ with one user family stated modulo its premise (README's example)."""
    target = tmp_path / "lean"
    shutil.copytree(ROOT / "lean", target, ignore=shutil.ignore_patterns(".lake"))
    generate(target, "log(1+exp(z))-log(2)", "shifted_softplus")
    return target


@pytest.fixture
def lake(tmp_path, monkeypatch):
    """A `lake` that runs the stand-in with an empty scenario (every module builds)."""
    script = tmp_path / "standin-lake"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {STANDIN} \"$@\"\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    scenario = tmp_path / "scenario.json"
    scenario.write_text("{}")
    monkeypatch.setenv("STANDIN_SCENARIO", str(scenario))
    monkeypatch.setenv("STANDIN_PIDS", str(tmp_path / "pids"))
    return str(script)


def no_lean(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def with_status(status, *targets):
    """`premise_checks` with the checks of the (family, kind) ``targets`` (default: the odd
    premise of shifted_softplus) forced to ``status``."""
    targets = set(targets or [("shifted_softplus", "odd")])

    def forced(analysis):
        return [PremiseCheck(c.family, c.argument, c.statement, status, c.method, c.kind)
                if (c.family, c.kind) in targets else c for c in premise_checks(analysis)]

    return forced


def record_of(result, decl=SOFTPLUS):
    return next(r for r in result.records if r.decl == decl)


# -- check ----------------------------------------------------------------------------------

def test_proved_modulo_a_verified_premise_is_green_and_says_so(project, lake):
    result = run_check(project, lake=lake, timeout=60)
    record = record_of(result)
    assert record.verdict == PROVED_MODULO_PREMISE
    assert [(p.binder, p.kind, p.sympy_status) for p in record.premises] == [
        ("hσ", "odd", VERIFIED)]
    assert record.premises[0].statement == HYPOTHESIS.split(" : ", 1)[1]
    assert "verified by SymPy, not by Lean" in record.detail
    # Catalog theorems (their premises are Lean lemmas) stay plain `proved`.
    assert record_of(result, "SkipAbsorption.Families.relu_absorbable_of_sCondition").verdict \
        == "proved"
    assert result.exit_code == 0
    text = terminal(result)
    # shifted_softplus: the S-condition theorem and, by the large-scale limit (issue 22), its
    # characterisations for the identity and an invertible skip (hσ and hρ); no catalog
    # theorem is stated modulo a premise
    assert "3 proved modulo a SymPy-verified premise" in text
    assert f"{HYPOTHESIS} — verified by SymPy, not by Lean" in text
    assert "3 proved_modulo_premise" in text.splitlines()[-1]
    data = json.loads(to_json(result))
    jsonschema.validate(data, CHECK_SCHEMA)
    entry = next(r for r in data["results"] if r["decl"] == SOFTPLUS)
    assert entry["verdict"] == "proved_modulo_premise"
    assert entry["premises"][0]["sympy_status"] == "verified"
    assert entry["premises"][0]["verified_by_lean"] is False
    assert data["summary"]["proved_modulo_premise"] == 3
    assert "(modulo `hσ`: verified by SymPy, not by Lean)" in step_summary(result)


def test_schema_rejects_an_unknown_verdict_and_a_premise_verified_by_lean(project, lake):
    data = json.loads(to_json(run_check(project, lake=lake, timeout=60)))
    entry = next(r for r in data["results"] if r["decl"] == SOFTPLUS)
    entry["premises"][0]["verified_by_lean"] = True
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, CHECK_SCHEMA)
    entry["premises"][0]["verified_by_lean"] = False
    entry["verdict"] = "proved_modulo_nothing"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, CHECK_SCHEMA)


@pytest.mark.parametrize("status", [FAILED, UNKNOWN])
def test_a_premise_sympy_does_not_verify_is_never_green(project, lake, monkeypatch, status):
    monkeypatch.setattr(check_module, "premise_checks", with_status(status))
    result = run_check(project, lake=lake, timeout=60)
    record = record_of(result)
    # Lean's evidence is unchanged; the exit code and every report say the premise is not
    # verified.
    assert record.verdict == PROVED_MODULO_PREMISE
    assert record.premises[0].sympy_status == status
    assert result.exit_code == 1
    text = terminal(result)
    # hσ is a hypothesis of all three shifted_softplus theorems
    assert "3 stated modulo a premise SymPy did NOT verify in this run: not green (exit 1)" \
        in text
    assert f"NOT verified by SymPy in this run ({status}" in text
    # (no other theorem is stated modulo a premise: none counts as proved modulo a verified one)
    assert "proved modulo a SymPy-verified premise" not in text
    assert "3 proved_modulo_premise" in text.splitlines()[-1]
    case = ET.fromstring(to_junit(result)).find(f".//testcase[@name='{SOFTPLUS}']")
    assert case.find("failure").get("type") == "premise_unverified"
    assert any(line.startswith("::error ") and "premise not verified" in line
               for line in github_annotations(result))
    jsonschema.validate(json.loads(to_json(result)), CHECK_SCHEMA)


def test_an_unverified_premise_of_another_kind_does_not_count(project, lake, monkeypatch):
    """The status comes from the check of the hypothesis' own kind (and family)."""
    monkeypatch.setattr(check_module, "premise_checks", with_status(
        UNKNOWN, ("shifted_softplus", "nonzero"), ("shifted_softplus", "even"), ("relu", "odd")))
    result = run_check(project, lake=lake, timeout=60)
    assert {p.status for p in result.premises if p.family == "shifted_softplus"} == {
        VERIFIED, UNKNOWN}
    assert record_of(result).premises[0].sympy_status == VERIFIED
    assert result.exit_code == 0


def test_junit_reads_with_junitparser_and_names_the_premise(project, lake, tmp_path):
    junitparser = pytest.importorskip("junitparser")
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    result = CliRunner().invoke(main, ["check", "--project", str(project), "--lake", lake,
                                       "--quiet", "--junit", str(junit), "--json", str(report)])
    assert result.exit_code == 0, result.output
    jsonschema.validate(json.loads(report.read_text()), CHECK_SCHEMA)
    cases = {case.name: case for suite in junitparser.JUnitXml.fromfile(str(junit))
             for case in suite}
    case = cases[SOFTPLUS]
    assert case.is_passed
    properties = {p.name: p.value for p in case.child(junitparser.Properties)}
    assert properties["premise:hσ"].startswith(HYPOTHESIS.split(" : ", 1)[1])
    assert "sympy: verified" in properties["premise:hσ"]
    assert f"stated modulo {HYPOTHESIS} — verified by SymPy, not by Lean" in case.system_out
    plain = cases["SkipAbsorption.Families.relu_absorbable_of_sCondition"]
    assert plain.is_passed and plain.system_out is None


def test_github_notice_names_the_premise(project, lake):
    lines = github_annotations(run_check(project, lake=lake, timeout=60))
    notices = [line for line in lines if line.startswith("::notice ") and f"{SOFTPLUS}:" in line]
    assert len(notices) == 1
    assert "ShiftedSoftplus.lean" in notices[0]
    assert "title=leanbridge%3A proved_modulo_premise" in notices[0]
    assert f"{SOFTPLUS}: modulo {HYPOTHESIS} — verified by SymPy, not by Lean" in notices[0]
    assert not any(line.startswith("::error") for line in lines)


def test_without_lean_the_record_still_names_its_premises(project, tmp_path, monkeypatch):
    no_lean(tmp_path, monkeypatch)
    generate(project, "log(cosh(z))", "log_cosh")          # even and o(z): two hypotheses
    generate(project, "(pi-3)*Max(z,0)", "pi_relu")         # c = π − 3: `hc : c ≠ 0`
    generate(project, "tanh(2*z)", "tanh_two")      # R2 modulo hρ (not `Real.tanh z` itself)
    result = run_check(project)
    record = record_of(result)
    assert record.verdict == "not_run"
    assert record.detail == ("no Lean toolchain; stated modulo " + HYPOTHESIS
                             + " (verified by SymPy, not by Lean)")
    kinds = {(r.family, p.kind, p.sympy_status) for r in result.records for p in r.premises}
    assert kinds == {("shifted_softplus", "odd", VERIFIED), ("log_cosh", "even", VERIFIED),
                     ("log_cosh", "isLittleO", VERIFIED), ("pi_relu", "nonzero", VERIFIED),
                     # the large-scale limit's premise hρ (issue 22)
                     ("shifted_softplus", "tendsto_div_relu", VERIFIED),
                     ("tanh_two", "tendsto_div_zero", VERIFIED)}
    assert result.exit_code == 3
    text = terminal(result)
    assert "stated modulo a SymPy-verified premise, not proved by Lean here" in text
    assert "proved modulo" not in text
    data = json.loads(to_json(result))
    jsonschema.validate(data, CHECK_SCHEMA)
    assert {p["kind"] for r in data["results"] for p in r["premises"]} == {
        "odd", "even", "isLittleO", "nonzero", "tendsto_div_relu", "tendsto_div_zero"}


def test_without_lean_an_unknown_relied_on_premise_exits_1(project, tmp_path, monkeypatch):
    no_lean(tmp_path, monkeypatch)
    monkeypatch.setattr(check_module, "premise_checks", with_status(UNKNOWN))
    result = run_check(project)
    assert result.exit_code == 1
    assert "NOT verified by SymPy in this run (unknown" in terminal(result)


def test_each_hypothesis_gets_the_status_of_its_own_kind(project, tmp_path, monkeypatch):
    """log_cosh: the even-parity theorems take `hσ : σ even`, the linearisation ones
    `hσ : σ = o(z)`; only the latter rely on the (forced) unknown check."""
    no_lean(tmp_path, monkeypatch)
    generate(project, "log(cosh(z))", "log_cosh")
    monkeypatch.setattr(check_module, "premise_checks",
                        with_status(UNKNOWN, ("log_cosh", "isLittleO")))
    result = run_check(project)
    statuses = {(r.argument, p.kind, p.sympy_status) for r in result.records
                if r.family == "log_cosh" for p in r.premises}
    assert statuses == {("even_parity", "even", VERIFIED),
                        ("linearisation", "isLittleO", UNKNOWN)}
    assert result.exit_code == 1


def test_a_premise_no_symbolic_check_covers_is_unknown_and_never_green(project, lake,
                                                                      monkeypatch):
    """A hypothesis whose kind has no premise check in this run: reported ``unknown`` (with
    the reason), the record says it is NOT verified, and the check exits 1."""
    monkeypatch.setattr(check_module, "premise_checks", lambda analysis: [
        c for c in premise_checks(analysis)
        if (c.family, c.kind) != ("shifted_softplus", "odd")])
    result = run_check(project, lake=lake, timeout=60)
    record = record_of(result)
    assert record.verdict == PROVED_MODULO_PREMISE
    premise = record.premises[0]
    assert (premise.sympy_status, premise.sympy_statement) == (
        "unknown", "no symbolic premise check covers it")
    assert record.detail == ("proved by Lean modulo " + HYPOTHESIS
                             + " (NOT verified by SymPy in this run: unknown; not by Lean)")
    assert result.exit_code == 1


def test_the_detail_of_a_verified_premise_says_sympy_not_lean(project, lake):
    record = record_of(run_check(project, lake=lake, timeout=60))
    assert record.detail == ("proved by Lean modulo " + HYPOTHESIS
                             + " (verified by SymPy, not by Lean)")


def test_nonzero_premise_check_decides_c():
    from leanbridge.analysis import analyse
    from leanbridge.families import Family, Z
    import sympy as sp

    family = Family("pi_relu", "pi_relu", False, (sp.pi - 3) * sp.Max(Z, 0), "", "test")
    checks = premise_checks(analyse(family))
    nonzero = [c for c in checks if c.kind == "nonzero"]
    assert [c.status for c in nonzero] == [VERIFIED]
    assert nonzero[0].statement == "c = -3 + pi ≠ 0"
    assert nonzero_status(sp.Integer(0)) == FAILED
    assert nonzero_status(sp.sqrt(2) - sp.sqrt(8) / 2) == FAILED
    assert nonzero_status(sp.Symbol("a")) == UNKNOWN
    # `is_zero` cannot tell these; `simplify` can: 0, and 1
    undecided = sp.log(4) - 2 * sp.log(2)
    assert undecided.is_zero is None
    assert nonzero_status(undecided) == FAILED
    assert nonzero_status(undecided + 1) == VERIFIED


# -- exports --------------------------------------------------------------------------------

@pytest.fixture
def report(project, lake, tmp_path):
    """A check report in which the stand-in 'ran': relu proved, shifted_softplus modulo hσ."""
    path = tmp_path / "check.json"
    path.write_text(to_json(run_check(project, lake=lake, timeout=60)))
    return path


def export(project, report, *args):
    result = CliRunner().invoke(main, ["export", "--project", str(project), "--results",
                                       str(report), *args])
    assert result.exit_code == 0, result.output
    return result.output


def theorem_node(text, label):
    start = text.index(rf"\label{{{label}}}")
    return text[start:text.index(r"\end{theorem}", start)]


def test_blueprint_gives_no_leanok_and_a_footnote(project, report):
    text = export(project, report, "--format", "blueprint", "relu", "shifted_softplus")
    label = "thm:{} — the S-condition gives an absorbing block".format
    modulo = theorem_node(text, label("shifted_softplus"))
    proved = theorem_node(text, label("ReLU"))
    assert r"\leanok" in proved
    assert r"\leanok" not in modulo
    assert r"Assume that $\sigma(z) - \sigma(-z) = z$ for all $z\in\mathbb{R}$." in modulo
    assert (r"\footnote{The assumption $\sigma(z) - \sigma(-z) = z$ for all $z\in\mathbb{R}$ "
            r"is the hypothesis \texttt{h$\sigma$} of the Lean theorem: verified by SymPy, not "
            r"by Lean.}") in modulo
    after = text[text.index(rf"\label{{{label('shifted_softplus')}}}"):]
    proof = after.split(r"\end{theorem}", 1)[1].split(r"\end{proof}", 1)[0]
    assert r"\leanok" not in proof     # its informal proof says what is assumed, no \leanok
    assert r"is assumed (\texttt{h$\sigma$}): verified by SymPy, not by Lean." in proof


def test_latex_states_the_hypothesis_and_its_status(project, report):
    text = export(project, report, "--format", "latex", "--per-family", "shifted_softplus")
    node = theorem_node(text, "thm:shifted-softplus-absorbable-of-sCondition")
    assert r"Assume that $\sigma(z) - \sigma(-z) = z$" in node
    assert (r"status: proved by Lean modulo h$\sigma$ (verified by SymPy, not by Lean).}"
            in node)
    assert r"is the hypothesis \texttt{h$\sigma$} of the Lean theorem: verified by SymPy" in node
    assert "status: proved by Lean." not in node
    grouped = export(project, report, "--format", "latex", "shifted_softplus")
    assert r"shifted\_\allowbreak{}softplus$^{\dagger}$" in grouped
    assert (r"its Lean theorems are stated modulo" + "\n"
            r"$\sigma(z) - \sigma(-z) = z$ for all $z\in\mathbb{R}$ (the hypothesis "
            r"\texttt{h$\sigma$}) and $\sigma(tz)/t\to\max(z, 0)$ as $t\to\infty$, for every "
            r"$z\in\mathbb{R}$ (the hypothesis \texttt{h$\rho$}): verified by SymPy, not by "
            r"Lean.") in grouped


def test_latex_of_every_premise_kind_and_of_c(project, report, tmp_path):
    generate(project, "log(cosh(z))", "log_cosh")
    generate(project, "(pi-3)*Max(z,0)", "pi_relu")
    text = export(project, report, "--format", "latex", "--per-family", "log_cosh", "pi_relu")
    assert r"Assume that $\sigma(-z) = \sigma(z)$ for all $z\in\mathbb{R}$." in text
    assert r"Assume that $\sigma(z) = o(z)$ as $z\to 0$." in text
    assert r"Assume that $\pi - 3\neq 0$." in text
    assert r"= -\frac{1}{\pi - 3}\, I_d$" in text      # 1/c typeset (it recursed before)


def test_markdown_and_json_name_the_premise(project, report):
    text = export(project, report, "--format", "markdown", "--per-family", "shifted_softplus")
    assert ("status: proved by Lean modulo hσ (verified by SymPy, not by Lean)." in text)
    assert ("The assumption $\\sigma(z) - \\sigma(-z) = z$ for all $z\\in\\mathbb{R}$ is the "
            "hypothesis `hσ` of the Lean theorem: verified by SymPy, not by Lean.") in text
    assert "| proved_modulo_premise (modulo `hσ`: verified by SymPy, not by Lean) |" in text
    data = json.loads(export(project, report, "--format", "json", "shifted_softplus"))
    jsonschema.validate(data, STATEMENTS_SCHEMA)
    # (issue 22: + R3's iff, for the identity and for an invertible skip)
    statement, characterisation, skip = data["statements"]
    assert [p["binder"] for p in characterisation["premises"]] == ["hρ", "hσ"]
    assert [p["binder"] for p in skip["premises"]] == ["hρ", "hσ"]
    assert skip["shape"] == "characterisation_skip"
    assert skip["lean_name"] == \
        "SkipAbsorption.Families.shifted_softplus_absorbable_iff_of_isUnit_det"
    assert statement["status"] == "proved_modulo_premise"
    assert statement["premises"] == [{
        "binder": "hσ", "kind": "odd",
        "lean_statement": "∀ z, shifted_softplus z - shifted_softplus (-z) = z",
        "latex": r"$\sigma(z) - \sigma(-z) = z$ for all $z\in\mathbb{R}$",
        "reason": statement["premises"][0]["reason"], "verified_by": "sympy",
        "verified_by_lean": False}]
    assert "(hσ : ∀ z," in statement["lean_statement"]
    assert data["families"][0]["status"] == \
        "proved (3 modulo a premise verified by SymPy, not by Lean)"


# -- which premises a certificate rule proves, and which are hypotheses ----------------------

def test_check_names_the_certificate_rule_of_each_premise_lemma(project, lake, tmp_path):
    generate(project, "z*tanh(2*z)", "z_tanh")
    result = run_check(project, lake=lake, timeout=60)
    lemma = record_of(result, "SkipAbsorption.Families.z_tanh_isLittleO")
    assert lemma.certificate_rule == "little_o_product"
    assert record_of(result, "SkipAbsorption.Families.z_tanh_neg").certificate_rule == "parity"
    # theorems and catalog premise lemmas have none
    assert record_of(result, "SkipAbsorption.Families.z_tanh_not_absorbable_identity") \
        .certificate_rule is None
    assert record_of(result, SOFTPLUS).certificate_rule is None
    data = json.loads(to_json(result))
    jsonschema.validate(data, CHECK_SCHEMA)
    entry = next(r for r in data["results"] if r["decl"].endswith("z_tanh_isLittleO"))
    assert entry["certificate_rule"] == "little_o_product"
    assert "z_tanh_isLittleO (rule little_o_product)" in terminal(result)
    junit = ET.fromstring(to_junit(result))
    case = next(c for c in junit.iter("testcase") if c.get("name").endswith("z_tanh_isLittleO"))
    assert [(p.get("name"), p.get("value")) for p in case.iter("property")] == [
        ("certificate_rule", "little_o_product")]


def test_exports_say_how_each_premise_is_proved(project, report):
    generate(project, "z*tanh(2*z)", "z_tanh")
    data = json.loads(export(project, report, "--format", "json", "relu", "shifted_softplus",
                             "z_tanh"))
    jsonschema.validate(data, STATEMENTS_SCHEMA)
    how = {s["lean_name"].rsplit(".", 1)[-1]: s["premise_proof"] for s in data["statements"]}
    assert how["relu_absorbable_of_sCondition"] == {
        "by": "library", "lemma": "SkipAbsorption.relu_sub_relu_neg", "rule": None,
        "text": "library lemma"}
    assert how["shifted_softplus_absorbable_of_sCondition"]["by"] == "hypothesis"
    assert how["shifted_softplus_absorbable_of_sCondition"]["lemma"] is None
    assert how["z_tanh_not_absorbable_identity"] == {
        "by": "certificate", "lemma": "SkipAbsorption.Families.z_tanh_isLittleO",
        "rule": "little_o_product", "text": "certificate rule little_o_product"}
    assert how["z_tanh_not_absorbable_even"]["rule"] == "parity"
    text = export(project, report, "--format", "markdown", "--per-family", "z_tanh", "relu",
                  "shifted_softplus")
    assert "| `SkipAbsorption.Families.z_tanh_not_absorbable_identity` | rule " \
           "`little_o_product` |" in text
    assert "| `SkipAbsorption.Families.relu_absorbable_of_sCondition` | library lemma |" in text
    assert "| `SkipAbsorption.Families.shifted_softplus_absorbable_of_sCondition` | " \
           "hypothesis |" in text
    latex = export(project, report, "--format", "latex", "--per-family", "z_tanh")
    assert (r"\texttt{z\_\allowbreak{}tanh\_\allowbreak{}not\_\allowbreak{}absorbable\_"
            r"\allowbreak{}identity} (premise: rule \texttt{little\_\allowbreak{}o\_"
            r"\allowbreak{}product})") in latex
