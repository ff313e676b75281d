"""The README stays true: its catalog table, its set-up commands, and CI's test command."""

import re
from pathlib import Path

from leanbridge.analysis import analyse
from leanbridge.families import CATALOG

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
