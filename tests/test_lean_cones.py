"""Import cones of the Lean library (issue 23): a first real `lake build` should prove most of it.

Lake builds nothing downstream of a failed module, so a theorem is proved only if every library
module in its import cone builds. With the reviewers' estimate of 0.9 per module, the expected
share of theorems proved must be at least 0.70, and no theorem may sit on top of more than 8
library modules. The computation is :mod:`leanbridge.lean.cones` (also a script).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leanbridge.lean.cones import cone_figures, import_cones, main
from leanbridge.lean.sources import project_imports

REPO = Path(__file__).resolve().parents[1]
LEAN = REPO / "lean"


def test_expected_share_proved_is_at_least_seventy_percent():
    figures = cone_figures(LEAN)
    assert figures.share_per_module >= 0.70, figures.cone_sizes


def test_no_theorem_sits_on_more_than_eight_modules():
    figures = cone_figures(LEAN)
    assert figures.largest_cone <= 8, {m: s for m, s in figures.cone_sizes.items() if s > 8}


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


def test_script_prints_both_figures(capsys):
    assert main(["--project", str(LEAN)]) == 0
    out = capsys.readouterr().out
    assert "expected share proved, 0.9 per module: 0." in out
    assert "expected share proved, 0.97 per declaration: 0." in out
    assert main(["--project", str(LEAN), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["share_per_module"] >= 0.70 and data["largest_cone"] <= 8


def test_script_refuses_a_directory_without_lean_sources(tmp_path, capsys):
    assert main(["--project", str(tmp_path)]) == 2
    assert "holds no Lean sources" in capsys.readouterr().err


def test_family_files_import_their_premise_file_not_the_gathering_modules():
    """Each generated family file imports the smallest premise file of its activation:
    never `Activations` or `Depth` (which gather everything), and only the GELU family reaches
    the Gaussian measure theory."""
    imports = project_imports(LEAN)
    cones = import_cones(imports)
    families = [m for m in imports if m.startswith("SkipAbsorption.Families.")]
    assert len(families) >= 16
    for module in families:
        assert "SkipAbsorption.Activations" not in cones[module], module
        assert "SkipAbsorption.Depth" not in cones[module], module
        assert ("SkipAbsorption.Gaussian" in cones[module]) == (
            module == "SkipAbsorption.Families.Gelu"), module


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
