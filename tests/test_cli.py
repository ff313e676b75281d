"""The command line: output formats, exit codes and error messages."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from leanbridge import __version__
from leanbridge.cli import main
from leanbridge.families import family_names


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, list(args))

    return invoke


def test_version(run):
    result = run("--version")
    assert result.exit_code == 0 and __version__ in result.output


def test_help_documents_exit_codes(run):
    result = run("--help")
    assert result.exit_code == 0
    assert "2 usage or input error" in result.output and "3 Lean toolchain" in result.output
    assert "130 interrupted (Ctrl-C)" in result.output


@pytest.mark.parametrize("command", ["generate", "check", "export", "graph"])
def test_project_option_defaults_to_discovery(run, command):
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "found from the working directory up" in " ".join(result.output.split())


def test_families_table_lists_every_family_with_verdict(run):
    result = run("families")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split()[:4] == ["name", "family", "gated", "verdict"]
    for name in family_names():
        assert any(line.startswith(name + " ") for line in lines)
    relu2 = next(line for line in lines if line.startswith("relu2 "))
    assert "never" in relu2 and "degree, linearisation" in relu2


def test_families_json(run):
    result = run("families", "--json")
    rows = json.loads(result.output)
    assert [r["name"] for r in rows] == family_names()
    glu = next(r for r in rows if r["name"] == "glu")
    assert glu["gated"] is True and glu["verdict"] == "conditional"
    assert glu["arguments"] == ["gate_parity"] and glu["necessity"] == "open"
    tanh = next(r for r in rows if r["name"] == "tanh")
    assert tanh["verdict"] == "never" and tanh["recession"]["profile"] == "zero"
    assert "SkipAbsorption.not_absorbable_tanh" in tanh["never_lean"]
    silu = next(r for r in rows if r["name"] == "silu")
    assert silu["necessity"] == "proved"
    assert silu["s_condition_lean"]["characterisation"] == "SkipAbsorption.absorbable_swish_iff"


def test_analyse_catalog_family_json(run):
    result = run("analyse", "relu2", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["name"] == "relu2" and data["verdict"] == "never"
    assert data["arguments"] == ["degree", "linearisation"]
    assert data["homogeneity_degree"] == 2 and data["odd_coefficient"] is None
    assert data["value_at_0"] == 0 and data["flat_at_0"] is True
    assert data["lean_definition"] == "SkipAbsorption.relu2" and data["lean_term"] == "(max z 0) ^ 2"
    assert any("degree 2" in r for r in data["reasons"])


def test_analyse_user_expression_json(run):
    result = run("analyse", "--expr", "Max(z,0)**3", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["expression"] == "Max(0, z)**3" and data["gated"] is False
    assert data["verdict"] == "never" and data["homogeneity_degree"] == 3


def test_analyse_gated_user_expression(run):
    result = run("analyse", "--expr", "sigmoid(z)", "--gated", "--name", "myglu", "--json")
    data = json.loads(result.output)
    assert data["name"] == "myglu" and data["gated"] is True
    assert data["verdict"] == "conditional" and data["gate"]["value_at_0"] == 0.5
    assert data["gate_parity"] == "1" and data["necessity"] == "open"


@pytest.mark.parametrize("args, verdict, necessity, lean", [
    (["tanh"], "never", None, "SkipAbsorption.not_absorbable_tanh"),
    (["sigmoid"], "never", None, "SkipAbsorption.not_absorbable_sigmoid"),
    (["glu"], "conditional", "open", "SkipAbsorption.gatedAbsorbable_of_gateParity"),
    (["gelu"], "conditional", "proved", "SkipAbsorption.absorbable_gelu_iff"),
    (["gelu_tanh"], "conditional", "proved", "SkipAbsorption.absorbable_geluTanh_iff"),
    (["silu"], "conditional", "proved", "SkipAbsorption.absorbable_swish_iff"),
    (["softplus"], "conditional", "proved", "SkipAbsorption.absorbable_softplus_iff"),
    (["--expr", "z*sigmoid(1.702*z)"], "conditional", "proved",
     "SkipAbsorption.absorbable_iff_of_tendsto_div_relu"),
    (["--expr", "atan(z)"], "never", None,
     "SkipAbsorption.eq_zero_of_absorbable_of_tendsto_div_zero"),
])
def test_analyse_the_large_scale_limit_done_when(run, args, verdict, necessity, lean):
    """Issue 22's done-when: the verdicts, and the Lean names they cite."""
    result = run("analyse", *args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verdict"] == verdict and data["necessity"] == necessity
    assert lean in " ".join(data["reasons"])
    text = run("analyse", *args).output
    assert f"verdict: {verdict}" in text


def test_analyse_human_output(run):
    result = run("analyse", "gelu")
    assert result.exit_code == 0
    assert "verdict: conditional" in result.output
    assert "necessity is proven" in result.output


def test_analyse_prints_why_lean_cannot_print_erf(run):
    data = json.loads(run("analyse", "gelu", "--json").output)
    assert data["lean_term"] is None and "erf" in data["lean_term_error"]
    assert data["lean_definition"] == "SkipAbsorption.gelu"
    leaky = json.loads(run("analyse", "leaky_relu", "--json").output)
    assert leaky["lean_definition"] == "SkipAbsorption.leakyRelu"


@pytest.mark.parametrize("args, message", [
    (["analyse", "--expr", "z +"], "syntax error"),
    (["analyse", "--expr", "x + z"], "free symbol(s) x"),
    (["analyse", "--expr", ""], "empty expression"),
    (["analyse", "relu4"], "unknown family 'relu4'"),
    (["analyse"], "give either a family NAME or --expr"),
    (["analyse", "relu", "--expr", "z"], "give either a family NAME or --expr"),
    (["analyse", "relu", "--gated"], "--expr only"),
    (["analyse", "--expr", "z", "--name", "relu"], "is taken by the catalog"),
    (["analyse", "--expr", "z", "--name", "Bad Name"], "lower case"),
])
def test_bad_input_is_one_line_on_stderr_with_exit_2(run, args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_module_entry_point_runs_in_a_subprocess():
    completed = subprocess.run([sys.executable, "-m", "leanbridge", "analyse", "--expr", "foo(z)"],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 2
    assert completed.stderr.strip().startswith("Error: unknown function(s) foo")
    assert "Traceback" not in completed.stderr
