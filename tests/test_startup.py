"""Startup: ``--help`` and ``--version`` load nothing heavy, and the lazy command table that
lets them do so lists every command with the command's own help."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from leanbridge.cli import COMMANDS, main

HEAVY = ("sympy", "networkx", "numpy", "jinja2", "scipy")

# Runs the CLI in a fresh interpreter and prints, last, the heavy modules it loaded.
_WRAPPER = """
import json, sys
from leanbridge.cli import main
try:
    main(sys.argv[1:], prog_name="leanbridge", standalone_mode=False)
except SystemExit:
    pass
heavy = {heavy!r}
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in heavy)))
"""


def _loaded_after(*args: str, env: dict | None = None) -> list[str]:
    completed = subprocess.run(
        [sys.executable, "-c", _WRAPPER.format(heavy=set(HEAVY)), *args],
        capture_output=True, text=True, timeout=120, check=True, env=env)
    return json.loads(completed.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["-h"]])
def test_help_and_version_import_nothing_heavy(args):
    assert _loaded_after(*args) == []


def test_analyse_of_a_catalog_family_loads_sympy_only():
    """``analyse`` needs SymPy (so the probe above can fail), but not the generation (Jinja2),
    the graph (NetworkX) or the numerics."""
    loaded = {name.split(".")[0] for name in _loaded_after("analyse", "relu")}
    assert loaded == {"sympy"}


def _listed_names(help_text: str) -> list[str]:
    section = help_text.split("Commands:\n", 1)[1]
    return [line.split()[0] for line in section.splitlines() if line.startswith("  ")]


def test_help_lists_every_command_of_the_table():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    assert _listed_names(result.output) == sorted(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_listed_command_resolves_with_the_tables_help(name):
    command = main.get_command(click.Context(main), name)
    assert isinstance(command, click.Command)
    assert command.help.split("\n\n", 1)[0] == COMMANDS[name][2]
    for limit in (20, 45, 70, 200):
        listed = click.Command(name, help=COMMANDS[name][2]).get_short_help_str(limit)
        assert listed == command.get_short_help_str(limit)
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0 and result.output.startswith(f"Usage: leanbridge {name} ")


@pytest.mark.parametrize("width", [60, 80, 120])
def test_lazy_command_list_equals_clicks_own(width):
    """The listing from the table is the one Click writes from the loaded commands."""
    lazy_ctx = click.Context(main, terminal_width=width)
    lazy = click.HelpFormatter(width=width)
    # A fresh group, so that no command is loaded yet when the table is used.
    fresh = type(main)(name=main.name, callback=main.callback)
    fresh.format_commands(lazy_ctx, lazy)
    eager = click.HelpFormatter(width=width)
    click.Group.format_commands(main, click.Context(main, terminal_width=width), eager)
    assert fresh.commands == {}
    assert lazy.getvalue() == eager.getvalue()
    assert set(main.commands) == set(COMMANDS)


def test_check_without_lean_does_not_import_networkx(tmp_path):
    """Without Lean, ``check`` reads roles and missing names from plain data; NetworkX (0.07 s
    to import) is only for drawing and for explaining failures after a Lean run."""
    project = tmp_path / "lean"
    shutil.copytree(Path(__file__).resolve().parents[1] / "lean", project,
                    ignore=shutil.ignore_patterns(".lake"))
    env = dict(os.environ, PATH=str(tmp_path / "empty"), HOME=str(tmp_path / "home"))
    loaded = {name.split(".")[0] for name in
              _loaded_after("check", "--project", str(project), "--quiet", env=env)}
    assert loaded == {"sympy", "jinja2"}


_RUN = """
import gc, json, sys
from leanbridge import cli
sys.argv = ["leanbridge", *sys.argv[1:]]
try:
    cli.run()
except SystemExit:
    pass
print(json.dumps([gc.isenabled(), gc.get_freeze_count() > 0]))
"""


def test_the_executable_collects_garbage_again_once_the_command_is_imported():
    completed = subprocess.run([sys.executable, "-c", _RUN, "analyse", "relu"],
                               capture_output=True, text=True, timeout=120, check=True)
    enabled, frozen = json.loads(completed.stdout.strip().splitlines()[-1])
    assert enabled and frozen


def test_the_cli_in_process_leaves_the_garbage_collector_alone():
    import gc

    frozen = gc.get_freeze_count()
    assert CliRunner().invoke(main, ["analyse", "relu"]).exit_code == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen
