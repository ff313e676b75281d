"""The README stays true: its catalog table, its set-up commands, CI's test command, and its
section beyond the paper (the Lean names, the experiment table of the data file)."""

import json
import re
from pathlib import Path

from click.testing import CliRunner

from leanbridge.analysis import analyse
from leanbridge.cli import main
from leanbridge.families import CATALOG
from leanbridge.library_statements import BEYOND_GROUPS, LIBRARY_STATEMENTS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _catalog_rows():
    block = README.split("<!-- catalog-table: start")[1].split("<!-- catalog-table: end")[0]
    rows = [line for line in block.splitlines() if line.startswith("| ")][1:]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def test_readme_catalog_table_matches_the_analysis():
    rows = _catalog_rows()
    assert [row[1].strip("`") for row in rows] == [f.name for f in CATALOG]
    for row, family in zip(rows, CATALOG):
        result = analyse(family)
        assert row[2] == ("yes" if family.gated else "no")
        assert row[3] == result.verdict, family.name
        assert row[4] == (", ".join(result.argument_names) or "—"), family.name


def _shell_blocks():
    return re.findall(r"```sh\n(.*?)```", README, flags=re.S)


def test_readme_has_the_two_setup_commands():
    blocks = _shell_blocks()
    main_job, tests = blocks[0].strip(), blocks[1].strip()
    assert "pip install -e ." in main_job and "leanbridge " in main_job
    assert "pip install -e '.[test]'" in tests and "python -m pytest -q" in tests


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = _shell_blocks()[1].strip().split("&&")[-1].strip()
    assert test_command in ci
    assert "pip install --quiet -e '.[test]'" in ci


# -- beyond the paper ----------------------------------------------------------------------------

def _beyond_section():
    return README.split("\n## Beyond the paper\n")[1].split("\n## ")[0]


def test_readme_evidence_table_matches_the_data_file():
    block = README.split("<!-- deep-evidence: start")[1].split("<!-- deep-evidence: end")[0]
    lines = [line for line in block.splitlines() if line.startswith("| ")]
    rows = [tuple(cell.strip() for cell in line.strip("|").split("|")) for line in lines[1:]]
    data = json.loads((ROOT / "leanbridge" / "data" / "deep-evidence.json").read_text(
        encoding="utf-8"))

    def kind(part):
        if not part["starts"]:
            return "none"
        return f"{part['best_relative_error']:.1e} ({part['exact_starts']}/{part['starts']})"

    def cell(fit):     # the random and the informed starts, each with its exact count
        return f"random {kind(fit['random'])}; informed {kind(fit['informed'])}"
    assert rows == [(str(r["d"]), str(r["n"]), str(r["L"]), f"{r['Lp']} × {r['width']}",
                     r["note_says"], cell(r["generic"]),
                     cell(r["planted"]) + ("" if r["planted"]["exact_representation_known"]
                                           else " (no control)"),
                     cell(r["width_control"]), r["conclusion"], str(r["seed"]))
                    for r in data["rows"]]
    # a dichotomy is recorded only where the controls were exact from random starts
    for r in data["rows"]:
        assert (r["conclusion"] == "dichotomy") <= r["controls_exact_from_random"]
    # and it is the Markdown export's table, header included
    exported = CliRunner().invoke(main, ["export", "--project", str(ROOT / "lean"),
                                         "--format", "markdown"]).output
    table = "\n".join(line for line in block.splitlines() if line.startswith("|"))
    assert table.count("\n") == len(data["rows"]) + 1 and table in exported
    assert data["command"] in _beyond_section()


def test_readme_beyond_section_lists_the_lean_statements_and_the_conjectures():
    section = _beyond_section()
    assert "not compiled: no Lean toolchain here" in section.replace("**", "")
    for entry in LIBRARY_STATEMENTS:
        if entry.group in BEYOND_GROUPS:
            row = next(line for line in section.splitlines() if f"`{entry.lean}`" in line)
            assert row.rstrip().endswith("| not compiled |"), row
    assert "Theorem D of the note — proof sketch, a documented conjecture" in section
    assert "### Experiments: `probe deep`, `probe tangent`" in section
    assert "Beyond the paper: experiments" not in README, "merged, not duplicated"
    assert "proved by Lean" not in section


# -- the export examples -------------------------------------------------------------------------

def _export_examples():
    """(export arguments, fenced text) for every ``<!-- export-example: ARGS -->`` block."""
    return re.findall(r"<!-- export-example: (.*?) -->\n```[a-z]*\n(.*?)\n```\n", README,
                      flags=re.DOTALL)


def _rstrip_lines(text):
    return "\n".join(line.rstrip() for line in text.splitlines())


def test_readme_export_examples_are_what_the_export_prints():
    examples = _export_examples()
    assert [args for args, _ in examples] == ["--format markdown relu2"] * 2 + [
        "--format latex --fragment relu2"]
    for args, excerpt in examples:
        result = CliRunner().invoke(main, ["export", "--project", str(ROOT / "lean"),
                                           *args.split()])
        assert result.exit_code == 0, result.output
        assert excerpt.count("\n") >= 3, args            # an excerpt, not a line
        assert _rstrip_lines(excerpt) in _rstrip_lines(result.output), args
    markdown = "\n".join(excerpt for args, excerpt in examples if "markdown" in args)
    assert "## Theorem 1 (Degree argument)" in markdown and "| ReLU² |" in markdown
    assert r"{\normalfont\bfseries Degree argument.}" in examples[-1][1]


def test_readme_workflow_is_the_workflow_file_byte_for_byte():
    raw = (ROOT / "README.md").read_bytes()
    block = raw.split(b"<!-- workflow: start -->\n```yaml\n")[1].split(
        b"```\n<!-- workflow: end -->")[0]
    workflow = (ROOT / ".github" / "workflows" / "lean.yml").read_bytes()
    assert block == workflow
    ci_section = README.split("\n### CI proof verification\n")[1].split("\n## ")[0]
    assert "<!-- workflow: start -->" in ci_section


def test_readme_cites_only_declared_lean_names_and_none_as_planned():
    """Every `SkipAbsorption.…` name the README cites is declared in lean/ (so none is
    "planned"), and the absorb table says the cited names are not compiled here."""
    from leanbridge.lean.sources import scan_project

    declared = scan_project(ROOT / "lean")
    cited = set(re.findall(r"`(SkipAbsorption\.[A-Za-z_][A-Za-z0-9_.']*)`", README))
    assert cited and not [name for name in cited if name not in declared]
    assert "(planned)" not in README
    minimal_width = next(line for line in README.splitlines()
                         if line.startswith("| `minimal_width` |"))
    assert "Lean names (cited, not compiled: no Lean toolchain here)" in minimal_width
