"""Import cones of the Lean library (issue 23): a first real `lake build` should prove most of it.

Lake builds nothing downstream of a failed module, so a theorem is proved only if every library
module in its import cone builds. With the reviewers' estimate of 0.9 per module, the expected
share of theorems proved must be at least 0.70, and no theorem may sit on top of more than 8
library modules — over the library without the composite characterisation modules
(`cones.COMPOSITE_MODULES`: they compose paper Theorem 8's necessity proof with an activation's
recession limit and premises, and cannot be cut below 9 modules without merging established
modules). Every listed module must really have a cone above 8, and the whole library, composite
modules included, must keep a share of at least 0.65. Every project import must be used
(re-export modules exempt). The computation is :mod:`leanbridge.lean.cones` (also a script).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leanbridge.lean.cones import (BOUND_CONE, BOUND_SHARE, COMPOSITE_MODULES, FLOOR_SHARE,
                                   cone_figures, import_cones, main, unused_imports)
from leanbridge.lean.sources import project_imports

REPO = Path(__file__).resolve().parents[1]
LEAN = REPO / "lean"

# Generated family files whose imports a declaration does not use (`render.py` gives every
# user-expression family file `import SkipAbsorption.Defs`, unused by a file without theorems).
# None since GLU's gate-parity theorem (which uses `GatedAbsorbable` of `Defs`); the test fails
# when this set is wrong either way.
GENERATED_UNUSED_IMPORTS: set[tuple[str, str]] = set()


def test_expected_share_proved_is_at_least_seventy_percent_without_the_composite_modules():
    figures = cone_figures(LEAN, leave_out=frozenset(COMPOSITE_MODULES))
    assert BOUND_SHARE == 0.70
    assert figures.share_per_module >= BOUND_SHARE, figures.cone_sizes


def test_no_theorem_outside_the_composite_modules_sits_on_more_than_eight_modules():
    figures = cone_figures(LEAN, leave_out=frozenset(COMPOSITE_MODULES))
    assert BOUND_CONE == 8
    assert figures.largest_cone <= BOUND_CONE, {
        m: s for m, s in figures.cone_sizes.items() if s > BOUND_CONE}


def test_every_composite_module_really_has_a_cone_above_eight():
    """The list cannot hide a short-cone module, nor keep a module that was cut short."""
    sizes = cone_figures(LEAN).cone_sizes
    for module, reason in COMPOSITE_MODULES.items():
        assert module in sizes, f"{module}: no theorem (or no such module)"
        assert sizes[module] > BOUND_CONE, (module, sizes[module])
        assert "Theorem 8" in reason and "recession" in reason, module


def test_whole_library_share_stays_above_its_floor():
    """Composite modules included: fails if someone lengthens cones anywhere."""
    figures = cone_figures(LEAN)
    assert FLOOR_SHARE == 0.65
    assert figures.share_per_module >= FLOOR_SHARE, figures.cone_sizes


def test_every_project_import_is_used():
    """Each import of a module with declarations of its own is used by them (re-export modules,
    which have none, are exempt: `Relu`, `Asymptotics`, `Activations`, `Beyond`, `Families`, the
    root, `Audit`)."""
    assert set(unused_imports(LEAN)) == GENERATED_UNUSED_IMPORTS


def _write(root: Path, module: str, imports: list[str], theorems: list[str]) -> None:
    path = root / (module.replace(".", "/") + ".lean")
    path.parent.mkdir(parents=True, exist_ok=True)
    header = "".join(f"import {m}\n" for m in imports)
    body = "".join(f"theorem {t} : True := trivial\n" for t in theorems)
    path.write_text(f"{header}\n/-! doc -/\n\nnamespace P\n{body}end P\n", encoding="utf-8")


def test_figures_of_a_small_chain(tmp_path):
    """C imports B imports A (and Mathlib, which does not count): one theorem in each, so the
    cones have 1, 2, 3 modules and 1, 2, 3 declarations."""
    _write(tmp_path, "P.A", ["Mathlib"], ["a"])
    _write(tmp_path, "P.B", ["P.A", "Mathlib.Tactic"], ["b"])
    _write(tmp_path, "P.C", ["P.B"], ["c"])
    figures = cone_figures(tmp_path, per_module=0.5, per_declaration=0.5)
    assert figures.theorems == 3
    assert figures.cone_sizes == {"P.A": 1, "P.B": 2, "P.C": 3}
    assert figures.share_per_module == pytest.approx((0.5 + 0.25 + 0.125) / 3)
    assert figures.share_per_declaration == pytest.approx((0.5 + 0.25 + 0.125) / 3)
    assert figures.largest_cone == 3 and figures.largest == ("P.C",)


def test_a_shared_import_counts_once_and_declarations_weigh_per_declaration(tmp_path):
    """D imports B and C, both import A: D's cone is {A, B, C, D}, not five modules."""
    _write(tmp_path, "P.A", [], ["a1", "a2"])
    _write(tmp_path, "P.B", ["P.A"], [])
    _write(tmp_path, "P.C", ["P.A"], [])
    _write(tmp_path, "P.D", ["P.B", "P.C"], ["d"])
    cones = import_cones(project_imports(tmp_path))
    assert cones["P.D"] == frozenset({"P.A", "P.B", "P.C", "P.D"})
    figures = cone_figures(tmp_path, per_module=0.5, per_declaration=0.5)
    assert figures.cone_sizes == {"P.A": 1, "P.D": 4}
    # two theorems in A (cone 1 module, 2 declarations), one in D (4 modules, 3 declarations)
    assert figures.share_per_module == pytest.approx((2 * 0.5 + 0.5 ** 4) / 3)
    assert figures.share_per_declaration == pytest.approx((2 * 0.25 + 0.125) / 3)


def test_the_thresholds_fail_on_a_long_chain(tmp_path):
    """Nine modules in a row: the last theorem's cone is 9 > 8, and the share is below 0.70."""
    for i in range(9):
        _write(tmp_path, f"P.M{i}", [f"P.M{i - 1}"] if i else [], [f"t{i}"])
    figures = cone_figures(tmp_path)
    assert figures.largest_cone == 9 and figures.largest == ("P.M8",)
    assert figures.share_per_module < 0.70


def test_leave_out_drops_theorems_but_not_cones(tmp_path):
    """C imports B imports A; leaving out B drops B's theorem, C's cone still has 3 modules."""
    _write(tmp_path, "P.A", [], ["a"])
    _write(tmp_path, "P.B", ["P.A"], ["b"])
    _write(tmp_path, "P.C", ["P.B"], ["c"])
    figures = cone_figures(tmp_path, per_module=0.5, leave_out={"P.B"})
    assert figures.theorems == 2
    assert figures.cone_sizes == {"P.A": 1, "P.C": 3}
    assert figures.share_per_module == pytest.approx((0.5 + 0.125) / 2)


def _write_lean(root: Path, module: str, text: str) -> None:
    path = root / (module.replace(".", "/") + ".lean")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _used_import_project(root: Path) -> None:
    """B uses A's `a`; C imports B and uses `b`, and so uses A only through B."""
    _write_lean(root, "P.A", "import Mathlib\n\n/-! A -/\n\nnamespace P\n"
                "theorem a : True := trivial\nend P\n")
    _write_lean(root, "P.B", "import P.A\n\n/-! B -/\n\nnamespace P\n"
                "theorem b : True := a\nend P\n")
    _write_lean(root, "P.C", "import P.B\n\n/-! C -/\n\nnamespace P\n"
                "theorem c : True := b\nend P\n")
    _write_lean(root, "P", "import P.C\nimport P.B\n\n/-! re-export -/\n")


def test_used_imports_pass_and_a_re_export_module_is_exempt(tmp_path):
    _used_import_project(tmp_path)
    assert unused_imports(tmp_path) == []


def test_a_planted_unused_import_is_found(tmp_path):
    """D imports A and B but uses only `b`: A is not used (and B brings it in anyway)."""
    _used_import_project(tmp_path)
    _write_lean(tmp_path, "P.D", "import P.A\nimport P.B\n\n/-! D -/\n\nnamespace P\n"
                "theorem d : True := b\nend P\n")
    assert unused_imports(tmp_path) == [("P.D", "P.A")]


def test_an_import_used_only_through_a_module_it_alone_brings_in_counts(tmp_path):
    """E imports B only for A's `a` (B brings A in, no other import does): used."""
    _used_import_project(tmp_path)
    _write_lean(tmp_path, "P.E", "import P.B\n\n/-! E -/\n\nnamespace P\n"
                "theorem e : True := a\nend P\n")
    assert unused_imports(tmp_path) == []


def test_a_planted_unused_import_in_the_real_library_is_found(tmp_path):
    """A copy of the library where `Recession` also imports `Kink`, which it does not use."""
    import shutil
    copy = tmp_path / "lean"
    shutil.copytree(LEAN, copy, ignore=shutil.ignore_patterns(".lake"))
    path = copy / "SkipAbsorption" / "Recession.lean"
    path.write_text("import SkipAbsorption.Kink\n" + path.read_text(encoding="utf-8"),
                    encoding="utf-8")
    assert set(unused_imports(copy)) == GENERATED_UNUSED_IMPORTS | {
        ("SkipAbsorption.Recession", "SkipAbsorption.Kink")}


def test_script_prints_the_figures_with_and_without_the_composite_modules(capsys):
    assert main(["--project", str(LEAN)]) == 0
    out = capsys.readouterr().out
    assert out.count("expected share proved, 0.9 per module: 0.") == 2
    assert out.count("expected share proved, 0.97 per declaration: 0.") == 2
    assert "whole library:" in out and "without the composite modules:" in out
    for module in COMPOSITE_MODULES:
        assert module in out
    assert main(["--project", str(LEAN), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["composite_modules"] == COMPOSITE_MODULES
    assert data["without_composite"]["share_per_module"] >= 0.70
    assert data["without_composite"]["largest_cone"] <= 8
    assert data["library"]["share_per_module"] >= 0.65
    assert data["library"]["largest_cone"] > 8
    assert data["library"]["theorems"] > data["without_composite"]["theorems"]


def test_script_refuses_a_directory_without_lean_sources(tmp_path, capsys):
    assert main(["--project", str(tmp_path)]) == 2
    assert "holds no Lean sources" in capsys.readouterr().err


def test_family_files_import_their_premise_file_not_the_gathering_modules():
    """Each generated family file imports the smallest premise file of its activation:
    never `Activations` or `Depth` (which gather everything), and only the GELU family reaches
    the Gaussian measure theory (the composite SiLU, softplus and GELU-tanh files included:
    GELU's characterisations are files of their own)."""
    imports = project_imports(LEAN)
    cones = import_cones(imports)
    families = [m for m in imports if m.startswith("SkipAbsorption.Families.")]
    assert len(families) >= 16
    for module in families:
        assert "SkipAbsorption.Activations" not in cones[module], module
        assert "SkipAbsorption.Depth" not in cones[module], module
        assert ("SkipAbsorption.Gaussian" in cones[module]) == (
            module == "SkipAbsorption.Families.Gelu"), module


def test_only_gelu_files_and_gathering_modules_reach_the_gaussian_measure_theory():
    """A failure in `Gaussian.lean` (measure theory, the riskiest proofs of the activations)
    costs GELU's own files and the modules that gather everything, nothing else."""
    cones = import_cones(project_imports(LEAN))
    reaching = {m.removeprefix("SkipAbsorption.") for m in cones
                if "SkipAbsorption.Gaussian" in cones[m]}
    assert reaching == {"SkipAbsorption", "Activations", "Audit", "Families", "Gaussian",
                        "Premises.Gelu", "Families.Gelu", "ReluLikeGelu", "BiasedReluLikeGelu",
                        "ReluLike", "BiasedReluLike"}


def test_catalog_lean_modules_are_where_the_definitions_and_premises_are_declared():
    """`library.CATALOG_LEAN` names, per catalog family, the module its family file imports:
    the file that declares its premise lemmas. The definitions themselves live in
    `ActivationDefs` (`relu` in `Defs`), so that a premise file imports only its definition."""
    from leanbridge.lean import library
    from leanbridge.lean.sources import module_name, scan_project

    declared = scan_project(LEAN)
    for family, lean_side in library.CATALOG_LEAN.items():
        definition = declared[f"{library.NAMESPACE}.{lean_side.definition}"]
        expected = "SkipAbsorption.Defs" if lean_side.definition == "relu" else (
            library.DEFINITIONS_MODULE)
        assert module_name(definition.file) == expected, family
        for _, premise in lean_side.premises:
            where = module_name(declared[f"{library.NAMESPACE}.{premise}"].file)
            assert where == lean_side.module, (family, premise, where)


def test_the_readme_prints_the_figures_of_the_library_as_it_is():
    """The README's cone table (its last two columns: the whole library now, and without the
    composite modules) says what the script computes on the committed library."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:-1]]
            for line in readme.splitlines() if line.startswith("| ") and "|" in line[2:]}
    share = rows["expected share of theorems proved, each module building with probability 0.9"]
    per_declaration = rows["the same, each declaration with probability 0.97 (does not reward "
                           "merging files)"]
    cone = rows["largest import cone"]
    for column, figures in ((2, cone_figures(LEAN)),
                            (3, cone_figures(LEAN, leave_out=frozenset(COMPOSITE_MODULES)))):
        assert share[column] == f"{figures.share_per_module:.3f} ({figures.theorems})"
        assert per_declaration[column] == f"{figures.share_per_declaration:.3f}"
        assert cone[column].startswith(f"{figures.largest_cone} ")
