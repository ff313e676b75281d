"""The ``leanbridge`` command line (Click).

Exit codes shared by every command: 0 success, 1 a check did not pass, 2 usage or input error
(one line on stderr, never a traceback), 3 Lean toolchain not found, 130 interrupted (Ctrl-C;
files are written atomically, so nothing is left half-written).

Failures of the system are one line too: a path the file system refuses (a name too long, a
directory where a file should be) is exit 2 naming the path; output that cannot be written
(standard output closed, a full disk) is exit 1, and nothing claims success. Bytes of the
command line that are not UTF-8 appear in messages as ``\\xNN``.

Commands that take a Lake project find it as git and lake do: ``--project DIR`` if given,
else the nearest directory, from the working directory up, that has a lakefile or a ``lean/``
subdirectory with one.

The commands are loaded lazily (:data:`COMMANDS`): ``leanbridge --help`` and ``--version``
import Click and nothing heavy; SymPy, NetworkX, Jinja2 and NumPy load with the command that
needs them. The executable (:func:`run`) pauses the cyclic garbage collector while the command's
modules are imported, then freezes what they created: importing builds only long-lived objects,
which the collector would otherwise scan again and again (SymPy alone imports 0.08 s faster).
"""

from __future__ import annotations

import errno
import gc
import importlib
import os
import sys
from pathlib import Path

import click

from leanbridge import __version__
from leanbridge.console import ascii_fallback, printable
from leanbridge.exit_codes import EXIT_FAILED, EXIT_USAGE

#: Exit code after Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130

#: Every command: (module, attribute, the first paragraph of its help). ``--help`` lists the
#: commands from this table without importing them; tests/test_cli.py checks each entry
#: against the command's own help.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "absorb": ("leanbridge.numeric.cli", "absorb",
               "Can this block's skip be folded into its MLP? Decide it on real weights."),
    "analyse": ("leanbridge.commands", "analyse_command",
                "Say which argument decides absorbability for a family NAME or an --expr."),
    "check": ("leanbridge.commands", "check",
              "Check everything: generated files, symbolic premises, and the Lean proofs."),
    "export": ("leanbridge.commands", "export",
               "Export the statements for papers, from the same source as the Lean files."),
    "families": ("leanbridge.commands", "families",
                 "List the activation catalog with each family's verdict."),
    "generate": ("leanbridge.commands", "generate",
                 "Render the Lean theorem files of the catalog (or of one --expr) into the "
                 "Lake project."),
    "graph": ("leanbridge.commands", "graph",
              "The dependency graph: paper results, Lean theorems, premise lemmas, family "
              "theorems."),
    "probe": ("leanbridge.numeric.cli", "probe",
              "Numerical experiments (seeded): residual-free fits of residual blocks."),
    "scan": ("leanbridge.numeric.cli", "scan",
             "Can any skip in this model be folded into its MLP? Decide every MLP block of a\n"
             "checkpoint as it is stored."),
}


#: Set by :func:`run` while the garbage collector is paused for the imports.
_gc_paused = False


class InputError(click.ClickException):
    """Bad input: printed as one line ``Error: …`` on stderr, exit code 2."""

    exit_code = EXIT_USAGE


class _OneLineUsageError(click.UsageError):
    """A usage error as one line on stderr: ``Error: MESSAGE (see 'COMMAND --help')``, instead
    of Click's four (usage, hint, blank line, error). Same exit code (2)."""

    def __init__(self, error: click.UsageError) -> None:
        super().__init__(error.format_message(), error.ctx)
        self.exit_code = error.exit_code

    def show(self, file=None) -> None:
        message = printable(" ".join(self.format_message().split()))
        if message.endswith(".") and not message.endswith(".."):
            message = message[:-1]
        path = self.ctx.command_path if self.ctx is not None else "leanbridge"
        click.echo(f"Error: {message} (see '{path} --help')", file=file, err=file is None)


def _one_line(error: click.UsageError) -> click.UsageError:
    """The error to raise for ``error``: one line, except Click's help for a bare group."""
    if isinstance(error, (click.exceptions.NoArgsIsHelpError, _OneLineUsageError)):
        return error
    return _OneLineUsageError(error)


class _Group(click.Group):
    """The command group: commands loaded on first use (Click's lazy-group pattern), ASCII
    fallback for the streams, exit 130 on Ctrl-C, and every usage error of the group or any
    of its commands as one line on stderr (:class:`_OneLineUsageError`)."""

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as error:          # the group's own options
            raise _one_line(error) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, attribute, _ = COMMANDS[cmd_name]
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
            _resume_gc()
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list, from :data:`COMMANDS` (shortened as Click shortens a help)."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, _listed(self.commands.get(name), name).get_short_help_str(limit))
                for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context):
        ascii_fallback()
        if sys.stdout is None:                     # started with standard output closed (>&-)
            raise OutputError("standard output is closed: nothing was done (redirect it, "
                              "e.g. > /dev/null, to discard the output)")
        try:
            return super().invoke(ctx)
        except click.UsageError as error:          # a command, its options and arguments
            raise _one_line(error) from None
        except click.ClickException as error:      # InputError and the like: bytes shown
            error.message = printable(error.message)
            raise
        except KeyboardInterrupt:
            click.echo("Interrupted (Ctrl-C); nothing was half-written.", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
        except OSError as error:
            if error.errno == errno.EPIPE:         # `| head`: Click exits 1 quietly
                raise
            raise _system_error(error) from None
        except ValueError as error:                # Python's limit on printing huge integers
            if "integer string conversion" not in str(error):
                raise
            raise InputError("a number in the computation has more than "
                             f"{sys.get_int_max_str_digits()} digits: write the input with "
                             "smaller numbers") from None


class OutputError(click.ClickException):
    """The output could not be written (standard output closed or full): exit 1, one line."""

    exit_code = EXIT_FAILED


def _shortened(path: str, width: int = 240) -> str:
    """A long path by its beginning and its end (where the file's own name is)."""
    if len(path) <= width:
        return path
    return f"{path[:width // 3]}…{path[-width // 2:]} ({len(path)} characters)"


def _system_error(error: OSError) -> click.ClickException:
    """One line for an error of the file system: with a path, the path is the problem (exit 2,
    e.g. a name too long, a directory where a file should be); without one, writing the output
    failed (exit 1: it is incomplete)."""
    reason = error.strerror or str(error)
    if error.filename is None:
        _discard_stdout()
        return OutputError(f"writing the output failed ({reason}); it is incomplete")
    where = _shortened(printable(os.fsdecode(error.filename)))
    if error.errno == errno.EISDIR:
        reason = "it is a directory, where a file is expected"
    return InputError(f"cannot use {where}: {reason}")


def _discard_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so that the interpreter's last flush of the
    unwritable standard output does not fail again (with a traceback) on the way out."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, AttributeError, ValueError):
        pass


def run() -> None:
    """The ``leanbridge`` executable (and ``python -m leanbridge``): :func:`main`, with the
    garbage collector paused until the command's modules are imported."""
    global _gc_paused
    _gc_paused = True
    gc.disable()
    try:
        main(prog_name="leanbridge")
    except SystemExit as done:
        raise SystemExit(_flushed(done.code)) from None
    finally:
        _resume_gc()


def _flushed(code: int | str | None) -> int | str | None:
    """``code``, after flushing standard output: output still buffered is written now, and if
    that fails (a full disk) the command did not deliver its output: one line, exit 1."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as error:
        quiet = error.errno == errno.EPIPE
        _discard_stdout()
        if not quiet:
            click.echo(f"Error: writing the output failed ({error.strerror or error}); it is "
                       "incomplete", err=True)
        return EXIT_FAILED if code in (0, None) else code
    return code


def _resume_gc() -> None:
    """After the imports: freeze the objects they created (never collected, as modules are
    not), and collect as usual from then on. Only in :func:`run`'s own process."""
    global _gc_paused
    if _gc_paused:
        _gc_paused = False
        gc.freeze()
        gc.enable()


def _listed(loaded: click.Command | None, name: str) -> click.Command:
    """The command as listed: itself once loaded, else a stand-in carrying its help."""
    return loaded if loaded is not None else click.Command(name, help=COMMANDS[name][2])


#: What :func:`writable_output` returns for ``-``: standard output.
STDOUT = "-"


def writable_output(path: str | None, option: str) -> Path | str | None:
    """``path`` as a Path, after checking it can be written (InputError otherwise: a target
    that exists and is not a regular file — a symlink, FIFO, device such as /dev/full — is
    refused, see :func:`leanbridge.atomic.refuse_special`); :data:`STDOUT` for ``-``."""
    if path is None:
        return None
    if path == STDOUT:
        return STDOUT
    from leanbridge.atomic import UnwritableError, check_writable  # tempfile: not for --help

    try:
        check_writable(Path(path))
    except UnwritableError as exc:
        raise InputError(f"{option}: {exc}") from None
    return Path(path)


def distinct_outputs(**outputs: Path | str | None) -> None:
    """InputError when two options name the same file (or both ``-``): one would overwrite
    the other. ``outputs``: option name → what :func:`writable_output` returned."""
    import os

    seen: dict[str, str] = {}
    for option, target in outputs.items():
        if target is None:
            continue
        key = STDOUT if target == STDOUT else os.path.realpath(target)
        if key in seen:
            where = "standard output (-)" if key == STDOUT else f"the same file {target}"
            raise InputError(f"{seen[key]} and {option} both name {where}; give each its own")
        seen[key] = option


def _is_lake_project(directory: Path) -> bool:
    return (directory / "lakefile.toml").is_file() or (directory / "lakefile.lean").is_file()


def find_project(start: Path) -> Path | None:
    """The Lake project for a command run in ``start``: the nearest directory, from ``start``
    up, that is a Lake project or has one in ``lean/`` (``.lake`` package copies skipped)."""
    start = start.resolve()
    for directory in (start, *start.parents):
        if ".lake" in directory.parts:
            continue
        if _is_lake_project(directory):
            return directory
        if _is_lake_project(directory / "lean"):
            return directory / "lean"
    return None


def project_dir(path: str | None) -> Path:
    """The Lake project: ``--project`` if given, else found from the working directory up
    (raises InputError if there is none). Relative to the working directory when inside it."""
    if path is not None:
        project = Path(path)
        if not _is_lake_project(project):
            raise InputError(f"no Lake project at {project} (no lakefile.toml); pass --project")
        return project
    found = find_project(Path.cwd())
    if found is None:
        raise InputError(f"no Lake project in {Path.cwd()} or its parents (no lakefile.toml, "
                         "no lean/lakefile.toml); pass --project")
    try:
        relative = found.relative_to(Path.cwd().resolve())
    except ValueError:
        return found
    return relative if relative.parts else Path(".")


@click.group(name="leanbridge", cls=_Group,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="leanbridge")
def main() -> None:
    """leanbridge: can an MLP absorb its own skip connection? (arXiv 2604.23705)

    Analyses activation families symbolically (SymPy), says which of the paper's arguments
    applies, and bridges the statements to a Lean 4 library.

    \b
    Exit codes:
      0 success
      1 a check did not pass (a proof, a stale file)
      2 usage or input error
      3 Lean toolchain not found (everything else still ran)
      130 interrupted (Ctrl-C)
    """
