"""`leanbridge generate`: rendered Lean files, headers and hashes, refusals, --check."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from leanbridge.cli import main
from leanbridge.expression import user_family
from leanbridge.families import CATALOG, get_family
from leanbridge.generate import (
    INDEX_PATH,
    MISSING,
    OK,
    ORPHAN,
    STALE,
    TAMPERED,
    UNMANAGED,
    catalog_outputs,
    check,
    parse_header,
)
from leanbridge.render import build_family_file, render_family

ROOT = Path(__file__).resolve().parents[1]
LEAN = ROOT / "lean"


@pytest.fixture
def project(tmp_path):
    """A copy of the Lake project (without build products)."""
    target = tmp_path / "lean"
    shutil.copytree(LEAN, target, ignore=shutil.ignore_patterns(".lake", "build"))
    return target


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_committed_tree_is_current():
    """The generated files in lean/ are exactly what leanbridge renders now."""
    statuses = check(LEAN)
    assert [s for s in statuses if s.status != OK] == []
    assert len(statuses) == 17  # 16 families and the index


def test_generate_check_cli_passes_on_the_committed_tree():
    result = run("generate", "--check", "--project", str(LEAN), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["ok"] is True


def test_rendering_is_deterministic():
    first = {o.path: o.text for o in catalog_outputs()}
    second = {o.path: o.text for o in catalog_outputs()}
    assert first == second


def test_every_file_has_a_header_with_the_hash_of_its_body():
    for output in catalog_outputs():
        header = parse_header(output.text)
        assert header is not None and header.intact
        assert header.template in ("family.lean.j2", "families_index.lean.j2")


# -- golden declarations: two families per verdict kind ----------------------------------------

def _declaration(name: str, decl: str) -> str:
    text = render_family(build_family_file(get_family(name)))
    start = text.index(f"theorem {decl} ")
    return text[start:text.index("\n\n", start)]


def test_golden_never_degree_relu2():
    assert _declaration("relu2", "relu2_not_absorbable_degree") == (
        "theorem relu2_not_absorbable_degree {d n : ℕ} {A : Matrix (Fin d) (Fin d) ℝ} (hA : A ≠ 0)\n"
        "    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ) :\n"
        "    ¬ Absorbable relu2 A Wd Wu :=\n"
        "  not_absorbable_of_posHomogeneous (by norm_num) relu2_posHomogeneous hA Wd Wu")


def test_golden_never_linearisation_swiglu():
    assert _declaration("swiglu", "swiglu_not_gatedAbsorbable_identity") == (
        "theorem swiglu_not_gatedAbsorbable_identity {d n : ℕ} (hd : 0 < d)\n"
        "    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wg Wv : Matrix (Fin n) (Fin d) ℝ) :\n"
        "    ¬ GatedAbsorbable swish 1 Wd Wg Wv :=\n"
        "  not_gatedAbsorbable_of_tendsto swish_tendsto_zero hd Wd Wg Wv")
    text = render_family(build_family_file(get_family("swiglu")))
    assert "theorem swiglu_not_stack_eq" in text and "degree" not in _names(text)


def test_golden_conditional_relu_c_equals_one():
    assert _declaration("relu", "relu_absorbable_of_sCondition") == (
        "theorem relu_absorbable_of_sCondition {d n : ℕ}\n"
        "    (Wd : Matrix (Fin d) (Fin n) ℝ) (Wu : Matrix (Fin n) (Fin d) ℝ)\n"
        "    (S : Finset (Fin n))\n"
        "    (hS : Wd * Matrix.diagonal (fun i => if i ∈ S then (1 : ℝ) else 0) * Wu = -1) :\n"
        "    Absorbable relu 1 Wd Wu :=\n"
        "  absorbable_of_sCondition (σ := relu) (c := 1) one_ne_zero\n"
        "    (fun z => (relu_sub_relu_neg z).trans (one_mul z).symm) Wd Wu S\n"
        "    (by\n"
        "      first\n"
        "        | (rw [inv_one, neg_smul, one_smul]; exact hS)\n"
        "        | (simpa only [inv_one, neg_smul, one_smul] using hS))")


def test_the_five_c_equals_one_catalog_files_have_an_independent_second_route():
    """Issue 9 §1: `rw …; exact hS` depends on the `Neg`/`SMul` instance paths meeting under
    `respectTransparency`; `simpa only … using hS` is the independent fallback."""
    for name in ("relu", "gelu", "gelu_tanh", "silu", "softplus"):
        text = render_family(build_family_file(get_family(name)))
        assert "| (simpa only [inv_one, neg_smul, one_smul] using hS))" in text, name
        assert "| (rw [inv_one, neg_smul, one_smul]; exact hS)" in text, name


def test_golden_conditional_leaky_relu_with_its_c():
    assert _declaration("leaky_relu", "leaky_relu_absorbable_of_sCondition").endswith(
        "      -((101 / 100 : ℝ)⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ)) :\n"
        "    Absorbable leakyRelu 1 Wd Wu :=\n"
        "  absorbable_of_sCondition (by norm_num) leakyRelu_sub_leakyRelu_neg Wd Wu S hS")


def test_family_files_open_only_tendsto_and_scoped_topology():
    """No blanket `open Filter`: its lemma names could make `one_mul`, `inv_one` … ambiguous.
    And nothing a file does not use: `open` of a namespace its imports lack is an error."""
    for name in [f.name for f in CATALOG]:
        text = render_family(build_family_file(get_family(name)))
        assert "\nopen Filter Topology\n" not in text and "\nopen Filter\n" not in text
        assert ("\nopen Filter (Tendsto)\n" in text) == ("Tendsto" in text.split("-/", 1)[1])
        assert ("\nopen scoped Topology\n" in text) == ("𝓝" in text)
    # a user gate's premise lemma states `Tendsto g (𝓝 0) (𝓝 0)`: both lines, before use
    text = render_family(build_family_file(user_family("tanh(z)", "tgate", True)))
    body = text.split("-/", 1)[1]
    assert body.index("open Filter (Tendsto)\nopen scoped Topology\n") < body.index("(𝓝 0)")


def test_relu_family_file_imports_the_light_relu_module():
    """A failure in the GELU measure theory (`Premises.Gelu` imports `Gaussian`) must not reach
    the ReLU family file: it imports `SkipAbsorption.Defs` (where `relu` lives since issue 23)
    and `Parity`, and opens nothing it lacks."""
    text = render_family(build_family_file(get_family("relu")))
    imports = [line for line in text.splitlines() if line.startswith("import ")]
    assert imports == ["import SkipAbsorption.Defs", "import SkipAbsorption.Parity"]
    assert "\nopen " not in text


def test_golden_without_an_instantiated_theorem_has_a_definition_and_no_theorem():
    """A gate with gate parity that is not exactly the sigmoid: gate parity is stated in the
    library only."""
    text = render_family(build_family_file(user_family("tanh(z) + 1", "tanh_gate", True)))
    assert "def tanh_gate (z : ℝ) : ℝ :=\n  Real.tanh z + 1" in text
    assert "\ntheorem " not in text
    assert "-- No theorem for this family" in text
    assert "sorry" not in text


def test_glu_instantiates_the_library_gate_parity_theorem():
    """GLU's gate is printed as exactly `Real.sigmoid z`: its sufficiency theorem is the
    library's `gatedAbsorbable_sigmoid_of_sCondition` (`glu = Real.sigmoid` by `funext`), with
    no premise; a user's gated `sigmoid(z)` gets the same, a gated `sigmoid(2*z)` does not."""
    plan = build_family_file(get_family("glu"))
    text = render_family(plan)
    (theorem,) = plan.theorems
    assert theorem.name == "glu_gatedAbsorbable_of_sCondition" and not theorem.premise_hypotheses
    assert theorem.uses == ("SkipAbsorption.gatedAbsorbable_sigmoid_of_sCondition",)
    assert "    | exact gatedAbsorbable_sigmoid_of_sCondition Wd Wg Wv S hS\n" in theorem.proof
    assert "have e : glu = Real.sigmoid := funext fun z => rfl" in theorem.proof
    assert theorem.signature.endswith("= -A) :\n    GatedAbsorbable glu A Wd Wg Wv")
    assert "import SkipAbsorption.GateParity\n" in text
    assert "not instantiated in this file" not in text
    mine = build_family_file(user_family("sigmoid(z)", "my_glu", True))
    assert [d.name for d in mine.theorems] == ["my_glu_gatedAbsorbable_of_sCondition"]
    other = build_family_file(user_family("sigmoid(2*z)", "glu_two", True))
    assert other.theorems == () or list(other.theorems) == []


@pytest.mark.parametrize("name, function", [("tanh", "Real.tanh"), ("sigmoid", "Real.sigmoid")])
def test_a_bounded_mathlib_activation_instantiates_the_library_theorem_without_premise(
        name, function):
    """tanh and sigmoid are printed as exactly `Real.tanh z` / `Real.sigmoid z`: their R2
    theorem is the library's `not_absorbable_<name>` (`σ = f` by `funext fun z => rfl`), with no
    hypothesis `hρ`, and the file imports `SkipAbsorption.Bounded`."""
    plan = build_family_file(get_family(name))
    text = render_family(plan)
    assert f"def {name} (z : ℝ) : ℝ :=\n  {function} z" in text
    (theorem,) = plan.theorems
    assert theorem.name == f"{name}_not_absorbable_recession"
    assert not theorem.premise_hypotheses and "hρ" not in text
    assert theorem.uses == (f"SkipAbsorption.not_absorbable_{name}",)
    assert f"    | exact not_absorbable_{name} hA Wd Wu\n" in theorem.proof
    assert f"have e : {name} = {function} := funext fun z => rfl" in theorem.proof
    assert "import SkipAbsorption.Bounded\n" in text
    assert "¬ Absorbable " + name + " A Wd Wu" in theorem.signature


@pytest.mark.parametrize("expr", ["tanh(2*z)", "2*tanh(z)", "1/(1 + exp(-z))", "sigmoid(z) - 1/2"])
def test_a_bounded_activation_that_is_not_exactly_tanh_or_sigmoid_keeps_its_premise(expr):
    """The rule is syntactic on the printed definition: any other bounded σ (even one equal to
    sigmoid, written as 1/(1 + e^{-z})) states R2 modulo its SymPy-verified hρ."""
    plan = build_family_file(user_family(expr, "bounded_user"))
    (theorem,) = plan.theorems
    assert [h.binder for h in theorem.premise_hypotheses] == ["hρ"]
    assert theorem.uses[0] == "SkipAbsorption.eq_zero_of_absorbable_of_tendsto_div_zero"


def test_a_user_tanh_gets_the_library_theorem_too():
    plan = build_family_file(user_family("tanh(z)", "my_tanh"))
    (theorem,) = plan.theorems
    assert not theorem.premise_hypotheses
    assert "exact not_absorbable_tanh hA Wd Wu" in theorem.proof
    assert "have e : my_tanh = Real.tanh := funext fun z => rfl" in theorem.proof


def test_library_definitions_are_tied_to_sympy_by_rfl():
    text = render_family(build_family_file(get_family("relu3")))
    assert "theorem relu3_eq_sympy (z : ℝ) : relu3 z = (max z 0) ^ 3 :=\n  rfl" in text
    gelu = render_family(build_family_file(get_family("gelu")))
    assert "_eq_sympy" not in gelu and "no error function" in gelu


def _names(text: str) -> str:
    return " ".join(line for line in text.splitlines() if line.startswith("theorem "))


# -- writing and checking on a copy of the project ---------------------------------------------

def test_generate_writes_nothing_new_on_the_committed_tree(project):
    result = run("generate", "--project", str(project))
    assert result.exit_code == 0
    assert all(line.startswith("unchanged") for line in result.output.splitlines())


def test_check_reports_missing_tampered_stale_orphan_unmanaged(project):
    families = project / "SkipAbsorption" / "Families"
    (families / "Tanh.lean").unlink()
    relu = families / "Relu.lean"
    relu.write_text(relu.read_text(encoding="utf-8").replace("rfl", "rfl -- tweak"),
                    encoding="utf-8")
    # stale: an intact header whose body differs from the current rendering
    relu2 = families / "Relu2.lean"
    output = next(o for o in catalog_outputs() if o.path.endswith("/Relu2.lean"))
    old = type(output)(output.path, output.template, output.source,
                       output.body.replace("ReLU²", "ReLU squared"))
    relu2.write_text(old.text, encoding="utf-8")
    # orphan: a generated file for a family no longer in the catalog
    orphan = type(output)("SkipAbsorption/Families/Relu9.lean", output.template,
                          {"family": "relu9"}, "/-! gone -/\n")
    (families / "Relu9.lean").write_text(orphan.text, encoding="utf-8")
    (families / "Mine.lean").write_text("/-! hand-written -/\n", encoding="utf-8")

    statuses = {Path(s.path).name: s.status for s in check(project)}
    assert statuses["Tanh.lean"] == MISSING
    assert statuses["Relu.lean"] == TAMPERED
    assert statuses["Relu2.lean"] == STALE
    assert statuses["Relu9.lean"] == ORPHAN
    assert statuses["Mine.lean"] == UNMANAGED
    assert statuses["Gelu.lean"] == OK

    result = run("generate", "--check", "--project", str(project))
    assert result.exit_code == 1
    assert "tampered  SkipAbsorption/Families/Relu.lean" in result.output


def test_generate_refuses_files_without_header_and_writes_nothing(project):
    index = project / INDEX_PATH
    index.write_text("-- my own index\n", encoding="utf-8")
    (project / "SkipAbsorption" / "Families" / "Tanh.lean").unlink()
    result = run("generate", "--project", str(project))
    assert result.exit_code == 2
    assert "no leanbridge header" in result.stderr and "Traceback" not in result.stderr
    assert index.read_text(encoding="utf-8") == "-- my own index\n"
    assert not (project / "SkipAbsorption" / "Families" / "Tanh.lean").exists()


def test_generate_refuses_tampered_files_unless_forced(project):
    relu = project / "SkipAbsorption" / "Families" / "Relu.lean"
    relu.write_text(relu.read_text(encoding="utf-8") + "-- extra\n", encoding="utf-8")
    assert run("generate", "--project", str(project)).exit_code == 2
    result = run("generate", "--project", str(project), "--force")
    assert result.exit_code == 0 and "written   SkipAbsorption/Families/Relu.lean" in result.output
    assert check(project) and all(s.status == OK for s in check(project))


def test_user_expression_round_trips_through_generate(project):
    result = run("generate", "--project", str(project), "--expr", "Max(z,0)**3",
                 "--name", "relu_cubed")
    assert result.exit_code == 0, result.output
    path = project / "SkipAbsorption" / "Families" / "ReluCubed.lean"
    text = path.read_text(encoding="utf-8")
    header = parse_header(text)
    assert header.intact and header.template == "family.lean.j2"
    assert header.source == {"name": "relu_cubed", "expr": "Max(0, z)**3", "gated": False}
    assert "def relu_cubed (z : ℝ) : ℝ :=\n  (max z 0) ^ 3" in text
    assert "theorem relu_cubed_posHomogeneous :\n    ∀ t : ℝ, 0 < t → ∀ z, " \
           "relu_cubed (t * z) = t ^ 3 * relu_cubed z := by" in text
    assert "not_absorbable_of_posHomogeneous (by norm_num) relu_cubed_posHomogeneous" in text
    assert "relu_cubed_isLittleO" in text
    assert "import SkipAbsorption.Families.ReluCubed" not in (project / INDEX_PATH).read_text()
    statuses = {Path(s.path).name: s.status for s in check(project)}
    assert statuses["ReluCubed.lean"] == OK
    # a hand edit of the user file is caught like any other
    path.write_text(text.replace("(max z 0) ^ 3", "(max z 0) ^ 4"), encoding="utf-8")
    assert {Path(s.path).name: s.status for s in check(project)}["ReluCubed.lean"] == TAMPERED


def _user_text(project, expr, name, *extra):
    result = run("generate", "--project", str(project), "--expr", expr, "--name", name, *extra)
    assert result.exit_code == 0, result.output
    from leanbridge.render import module_stem
    path = project / "SkipAbsorption" / "Families" / f"{module_stem(name)}.lean"
    return path.read_text(encoding="utf-8")


def test_user_odd_premise_script_and_c_equals_one_form(project):
    text = _user_text(project, "Max(z,0)", "myrelu")
    # rule `parity`: the goal on the printed body, a case split, one closer per kind of case
    # (identity, empty region, the one-point region z = 0)
    assert ("theorem myrelu_sub_myrelu_neg (z : ℝ) : myrelu z - myrelu (-z) = z := by\n"
            "  first\n"
            "    | show (max z 0) - (max (-z) 0) = z\n"
            "      all_goals try simp only [max_def]\n"
            "      all_goals try split_ifs\n"
            "      all_goals first\n"
            "        | ring1\n"
            "        | linarith\n"
            "        | (have hz : z = 0 := (by linarith); subst hz; ring1)\n"
            "        | (rw [show z = 0 by linarith]; ring1)\n"
            "    | unfold myrelu\n") in text
    assert ("  absorbable_of_sCondition (σ := myrelu) (c := 1) one_ne_zero\n"
            "    (fun z => (myrelu_sub_myrelu_neg z).trans (one_mul z).symm) Wd Wu S\n"
            "    (by\n      first\n"
            "        | (rw [inv_one, neg_smul, one_smul]; exact hS)\n") in text
    # only the symmetry lemmas of functions that occur are named
    assert "Real.sigmoid_neg" not in text and "Real.tanh_neg" not in text
    assert "rule `parity`" in text


def test_user_integer_c_is_typed_in_the_s_condition(project):
    """`-(3⁻¹) • 1` would elaborate `3` in `ℕ` (no `Inv`): the coefficient carries `: ℝ`."""
    text = _user_text(project, "z + Max(z,0)", "twice")
    assert "twice z - twice (-z) = 3 * z" in text
    assert "      -((3 : ℝ)⁻¹) • (1 : Matrix (Fin d) (Fin d) ℝ)) :\n" in text
    assert "absorbable_of_sCondition (by norm_num) twice_sub_twice_neg Wd Wu S hS" in text


def test_user_gate_tendsto_script(project):
    text = _user_text(project, "sigmoid(z) - 1/2", "sig_centered", "--gated")
    assert ("theorem sig_centered_tendsto_zero : Tendsto sig_centered (𝓝 0) (𝓝 0) := by\n"
            "  have h0 : sig_centered 0 = 0 := by\n"
            "    first\n"
            "      | show (Real.sigmoid (0 : ℝ) - (1 / 2 : ℝ)) = 0\n"
            "        norm_num\n"
            "        done\n"
            "      | unfold sig_centered\n"
            "        norm_num\n"
            "  have hc : Continuous sig_centered := by\n"
            "    show Continuous (fun z : ℝ => Real.sigmoid z - (1 / 2 : ℝ))\n"
            "    first\n"
            "      | fun_prop\n"
            "      | fun_prop (disch := intro x; positivity)\n"
            "      | continuity\n"
            "  exact hc.tendsto' 0 0 h0\n") in text
    assert "htanh" not in text
    # Mathlib registers no continuity lemma for `Real.tanh`: a local one is proved first
    tanh = _user_text(project, "tanh(z)", "tgate", "--gated")
    assert "    have htanh : Continuous Real.tanh := by\n      first\n        | fun_prop\n" in tanh
    assert "rw [Real.tanh_eq_sinh_div_cosh]" in tanh
    even = _user_text(project, "z*tanh(z)", "ztanh")
    assert ("      have a1 : Real.tanh (-z) = -Real.tanh z := by\n"
            "        exact Real.tanh_neg z\n"
            "      rw [a1]\n") in even
    assert "      try simp only [mul_neg, neg_mul, neg_div, neg_neg, Real.tanh_neg]\n" in even


def test_user_files_keep_lines_within_100_characters(project):
    for expr, name, extra in [("Max(z,0)**3", "relu_cubed", ()), ("tanh(z)", "tgate", ("--gated",)),
                              ("z**2", "sq", ()), ("z + Max(z,0)", "twice", ())]:
        text = _user_text(project, expr, name, *extra)
        assert max(len(line) for line in text.splitlines()) <= 100, name


@pytest.mark.parametrize("args, message", [
    (["--expr", "z*(1 + erf(z))", "--name", "myerf"], "erf"),
    (["--expr", "Max(z,0)"], "--expr and --name go together"),
    (["--expr", "z", "--name", "relu"], "taken by the catalog"),
    (["--expr", "z", "--name", "swish"], "taken by the catalog or the Lean library"),
    (["--expr", "z", "--name", "resStack"], "taken by the catalog or the Lean library"),
    (["--expr", "z", "--name", "max"], "taken by the catalog or the Lean library"),
    (["--expr", "z", "--name", "mlp"], "taken by the catalog or the Lean library"),
    (["--expr", "x", "--name", "ok_name"], "free symbol"),
    (["--check", "--expr", "z", "--name", "n"], "--check takes no"),
])
def test_generate_bad_input_exits_2(project, args, message):
    result = run("generate", "--project", str(project), *args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_missing_project_is_a_usage_error(tmp_path):
    result = run("generate", "--project", str(tmp_path / "nowhere"))
    assert result.exit_code == 2 and "no Lake project" in result.stderr


@pytest.mark.parametrize("name", ["z", "t", "x", "d", "n", "hd", "ht", "h0", "hc", "hb", "ws",
                                  "vs", "hvs", "a1", "h2", "hh1", "e", "i"])
def test_names_the_templates_bind_are_refused(project, name):
    """A family named like a template binder would be captured (`∀ z, z (t * z) = …`)."""
    before = sorted(p.name for p in (project / "SkipAbsorption" / "Families").iterdir())
    result = run("generate", "--project", str(project), "--expr", "Max(z,0)**2", "--name", name)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert sorted(p.name for p in (project / "SkipAbsorption" / "Families").iterdir()) == before


@pytest.mark.parametrize("name, victim", [("relu_2", "Relu2.lean"), ("tanh_", "Tanh.lean"),
                                          ("relu_", "Relu.lean"), ("gelu__tanh", "GeluTanh.lean"),
                                          ("leakyrelu", "LeakyRelu.lean"), ("sil_u", "SilU.lean")])
def test_module_stem_collisions_with_the_catalog_are_refused(project, name, victim):
    """`relu_2` → `Relu2`: the catalog file would be silently overwritten (issue 9, G8).
    Stems are compared case-insensitively (`LeakyRelu.lean` is `Leakyrelu.lean` on macOS)."""
    target = project / "SkipAbsorption" / "Families" / victim
    before = target.read_text(encoding="utf-8") if target.exists() else None
    result = run("generate", "--project", str(project), "--expr", "z**2", "--name", name)
    if name == "sil_u":  # `SilU` vs `Silu`: a case-insensitive collision
        victim_path = project / "SkipAbsorption" / "Families" / "Silu.lean"
        assert result.exit_code == 2 and "catalog family 'silu'" in result.stderr
        assert not target.exists() and victim_path.exists()
        return
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert "catalog family" in result.stderr and "choose another name" in result.stderr
    assert target.read_text(encoding="utf-8") == before
    assert all(s.status == OK for s in check(project))


def test_module_stem_collisions_with_user_files_are_refused(project):
    assert run("generate", "--project", str(project), "--expr", "Max(z,0)**3",
               "--name", "relu_cubed").exit_code == 0
    clash = run("generate", "--project", str(project), "--expr", "z**2", "--name", "relucubed")
    assert clash.exit_code == 2 and "holds family 'relu_cubed'" in clash.stderr
    # the same family may be generated again
    again = run("generate", "--project", str(project), "--expr", "Max(z,0)**3",
                "--name", "relu_cubed")
    assert again.exit_code == 0 and "unchanged" in again.output
    # a hand-written file with a colliding stem is never overwritten
    (project / "SkipAbsorption" / "Families" / "Mine.lean").write_text("-- mine\n")
    mine = run("generate", "--project", str(project), "--expr", "z**2", "--name", "mine")
    assert mine.exit_code == 2 and "a file leanbridge did not write" in mine.stderr


def test_user_file_modulo_a_premise_round_trips(project):
    """A premise outside every certificate rule is a named hypothesis, and the file is a
    generated file like any other (`--check` re-renders it from its header)."""
    text = _user_text(project, "log(1+exp(z))-log(2)", "shifted_softplus")
    assert "(hσ : ∀ z, shifted_softplus z - shifted_softplus (-z) = z)" in text
    assert "(fun z => (hσ z).trans (one_mul z).symm)" in text
    assert "theorem shifted_softplus_sub_shifted_softplus_neg" not in text
    assert "Premises stated as named hypotheses" in text
    statuses = {Path(s.path).name: s.status for s in check(project)}
    assert statuses["ShiftedSoftplus.lean"] == OK


def test_user_real_degree_uses_the_rpow_theorems(project):
    text = _user_text(project, "Max(z,0)**(3/2)", "relu_three_halves")
    assert ("∀ t : ℝ, 0 < t → ∀ z, relu_three_halves (t * z) = t ^ (3 / 2 : ℝ) * "
            "relu_three_halves z") in text
    assert "not_absorbable_of_posHomogeneous_rpow (by norm_num) relu_three_halves_posHomogeneous" \
        in text
    assert "rw [hb, Real.mul_rpow ht.le hnn]" in text
    # linearisation holds (σ is flat) but no rule proves σ = o(z) for a real degree
    assert "(hσ : relu_three_halves =o[𝓝 0] (fun z => z))" in text


def test_a_family_file_that_is_not_utf8_is_tampered_in_every_command(project):
    """A damaged file (invalid UTF-8) is reported, never a traceback: generate --check and
    check exit 1 naming it, generate refuses to overwrite it, export and graph still run."""
    relu = project / "SkipAbsorption" / "Families" / "Relu.lean"
    relu.write_bytes(relu.read_bytes().replace(b"rfl", b"rfl \xff", 1))
    result = run("generate", "--check", "--project", str(project))
    assert result.exit_code == 1, result.output
    assert "tampered  SkipAbsorption/Families/Relu.lean (not UTF-8 text" in result.output
    result = run("check", "--project", str(project))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "tampered" in result.output
    result = run("generate", "--project", str(project))
    assert result.exit_code == 2 and "Relu.lean has no leanbridge header" in result.stderr
    assert "(not UTF-8 text)" in result.stderr
    for args in (("export", "--format", "json"), ("graph", "--check")):
        result = run(*args, "--project", str(project))
        assert result.exception is None or isinstance(result.exception, SystemExit), args


@pytest.mark.parametrize("name", ["suffices", "calc", "nomatch", "abbrev", "deriving", "mutual",
                                  "private", "unless", "let_fun"])
def test_a_lean_keyword_is_refused_as_a_family_name(project, name):
    """`def suffices (z : ℝ) …` does not parse (the lexer reads a keyword, not an identifier):
    generate refuses the name in one line, exit 2, and writes nothing."""
    before = sorted(p.name for p in (project / "SkipAbsorption" / "Families").iterdir())
    result = CliRunner().invoke(main, ["generate", "--project", str(project), "--expr",
                                       "z*tanh(z)", "--name", name])
    assert result.exit_code == 2
    assert "is taken by the catalog or the Lean library (or is a Lean keyword)" in result.output
    assert sorted(p.name for p in (project / "SkipAbsorption" / "Families").iterdir()) == before


@pytest.mark.parametrize("family, definition", [
    ("gelu", "gelu"), ("gelu_tanh", "geluTanh"), ("silu", "swish"), ("softplus", "softplus")])
def test_characterised_families_state_the_invertible_skip_too(family, definition):
    """Beside `…_absorbable_iff`, a family the library characterises gets the invertible-skip
    version (paper Lemma 4): the library's `absorbable_<definition>_iff_of_isUnit_det`, no
    premise, with `-A` on the right."""
    plan = build_family_file(get_family(family))
    skip = next(d for d in plan.theorems if d.name == f"{family}_absorbable_iff_of_isUnit_det")
    library_name = f"absorbable_{definition}_iff_of_isUnit_det"
    assert skip.uses == (f"SkipAbsorption.{library_name}",)
    assert skip.proof == f"{library_name} hA hnd" and not skip.premise_hypotheses
    assert "{A : Matrix (Fin d) (Fin d) ℝ} (hA : IsUnit A.det)" in skip.signature
    assert f"Absorbable {definition} A Wd Wu ↔" in skip.signature
    assert skip.signature.endswith("* Wu = -A")
    assert skip.paper == ("Thm 10 and Lemma 4" if family == "gelu" else None)
    assert [d.name for d in plan.theorems].index(skip.name) == \
        [d.name for d in plan.theorems].index(f"{family}_absorbable_iff") + 1


def test_a_users_characterisation_comes_with_its_invertible_skip_version_modulo_the_same_premises():
    """A user's σ with σ(tz)/t → relu z and σ(z) − σ(−z) = z: the invertible-skip version
    instantiates `absorbable_iff_of_tendsto_div_relu_of_isUnit_det` in the library's argument
    order (hA, hρ, hσ, hnd), modulo the same hρ and hσ, with a named-σ second route."""
    plan = build_family_file(user_family("log(1+exp(z))-log(2)", "shifted_softplus"))
    skip = next(d for d in plan.theorems
                if d.name == "shifted_softplus_absorbable_iff_of_isUnit_det")
    assert [h.binder for h in skip.premise_hypotheses] == ["hρ", "hσ"]
    assert skip.uses[0] == "SkipAbsorption.absorbable_iff_of_tendsto_div_relu_of_isUnit_det"
    assert "    | exact absorbable_iff_of_tendsto_div_relu_of_isUnit_det hA hρ hσ hnd\n" \
        in skip.proof
    assert ("    | exact (absorbable_iff_of_tendsto_div_relu_of_isUnit_det "
            "(σ := shifted_softplus)\n        hA hρ hσ hnd)") in skip.proof
    assert skip.signature.index("(hσ :") < skip.signature.index("(hA : IsUnit A.det)")
    assert skip.signature.endswith("* Wu = -A")
    text = render_family(plan)
    assert "import SkipAbsorption.RecessionNecessity\n" in text
    assert max(len(line) for line in skip.proof.splitlines()) <= 100


def test_a_long_certificate_lemma_name_breaks_the_first_route_under_100_columns():
    """(review user-skip-characterisation.md, N1) With a certificate lemma for hσ the first
    route grows with twice the family's name: its arguments go to the next line, indented past
    `exact`, when one line would pass 100 columns."""
    plan = build_family_file(user_family("Max(z,0) + tanh(z)**2", "tanh_relu_variant"))
    skip = next(d for d in plan.theorems if d.name.endswith("_absorbable_iff_of_isUnit_det"))
    assert ("    | exact absorbable_iff_of_tendsto_div_relu_of_isUnit_det\n"
            "        hA hρ tanh_relu_variant_sub_tanh_relu_variant_neg hnd\n") in skip.proof
    assert max(len(line) for line in skip.proof.splitlines()) <= 100
    assert any("absorbable_iff_of_tendsto_div_relu_of_isUnit_det" in reason
               for reason in plan.analysis.reasons)


@pytest.mark.parametrize("name, lines", [("tanh_relu2", 1), ("tanh_relu23", 2)])
def test_the_first_route_stays_on_one_line_up_to_exactly_100_columns(name, lines):
    """`tanh_relu2`'s first route is exactly 100 columns: one line; one character more in the
    name (two in the line) breaks it."""
    plan = build_family_file(user_family("Max(z,0) + tanh(z)**2", name))
    skip = next(d for d in plan.theorems if d.name.endswith("_absorbable_iff_of_isUnit_det"))
    first_route = skip.proof.split("\n    | exact (")[0].split("  first\n")[1]
    assert len(first_route.splitlines()) == lines
    assert max(len(line) for line in first_route.splitlines()) == (100 if lines == 1 else 60)
