"""The symbolic commands: ``families``, ``analyse``, ``generate``, ``graph``, ``check`` and
``export`` (the numeric ones are in :mod:`leanbridge.numeric.cli`).

:mod:`leanbridge.cli` loads this module only when one of these commands runs, so that
``leanbridge --help`` and ``--version`` do not import SymPy. Each command imports the rest of
what it needs itself (generation and Jinja2, the graph and NetworkX), so that
``analyse`` of a catalog family loads only the analysis.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click
import sympy as sp

from leanbridge.analysis import Analysis, analyse, never_theorems, s_condition_theorems
from leanbridge.atomic import UnwritableError, atomic_write, check_directory_writable
from leanbridge.budget import DEFAULT_SECONDS, BudgetExceeded, time_budget
from leanbridge.cli import STDOUT, InputError, distinct_outputs, project_dir, writable_output
from leanbridge.exit_codes import EXIT_FAILED
from leanbridge.expression import ExpressionError, excerpt, user_family
from leanbridge.families import CATALOG, Family, UnknownFamilyError, get_family
from leanbridge.lean import library


def _short(text: str, width: int = 200) -> str:
    """One line of human output: long expressions are cut (the JSON carries them whole)."""
    return text if len(text) <= width else f"{text[:width]}… ({len(text)} characters)"


def lean_term(family: Family) -> tuple[str | None, str | None]:
    """(Lean term, None) or (None, why it cannot be printed)."""
    from leanbridge.lean.printer import LeanPrintError, lean_code

    try:
        return lean_code(family.expr), None
    except LeanPrintError as exc:
        return None, str(exc)


def _library_definition(family: Family) -> str | None:
    """The Lean library's definition of a catalog family, fully qualified (None otherwise)."""
    lean_side = library.catalog_lean(family.name) if family in CATALOG else None
    return f"{library.NAMESPACE}.{lean_side.definition}" if lean_side else None


def analysis_json(result: Analysis) -> dict:
    data = result.to_dict()
    term, error = lean_term(result.family)
    data["lean_term"] = term
    data["lean_term_error"] = error
    data["lean_definition"] = _library_definition(result.family)
    return data


def _yes_no(value: bool | None) -> str:
    return {True: "yes", False: "no", None: "unknown"}[value]


def _describe(result: Analysis) -> str:
    family, f = result.family, result.facts
    what = "g" if family.gated else "σ"
    lines = [
        f"{family.display} ({family.name}) — {family.role}: {what}(z) = "
        f"{_short(sp.sstr(family.expr))}",
        f"  block: {family.block}",
    ]
    if f.problem:
        lines.append(f"  problem: {f.problem}")
    else:
        lines.append(
            f"  {what}(0) = {sp.sstr(f.value_at_0)}; slopes at 0: right "
            f"{_fmt(f.slope_right)}, left {_fmt(f.slope_left)}; flat at 0: {_yes_no(f.flat_at_0)}"
        )
        if family.gated:
            lines.append(f"  continuous at 0: {_yes_no(f.continuous_at_0)}")
        degree = "none" if f.degree is None else sp.sstr(f.degree)
        lines.append(f"  positive homogeneity degree of {what}: {degree}"
                     + (f" (block degree {sp.sstr(result.block_degree)})"
                        if family.gated and f.degree is not None else ""))
        if not family.gated:
            c = "no" if f.odd_coefficient is None else f"yes, c = {sp.sstr(f.odd_coefficient)}"
            lines.append(f"  σ(z) − σ(−z) = c·z: {c}")
            if result.recession is not None:
                lines.append(f"  {result.recession.text}")
        else:
            c = result.gate_parity
            lines.append("  g(z) + g(−z) = c ≠ 0: "
                         + ("no" if c is None else f"yes, c = {sp.sstr(c)}"))
    lines.append(f"verdict: {result.verdict}"
                 + (f" (necessity: {result.necessity})" if result.necessity else ""))
    lines.extend(f"  - {reason}" for reason in result.reasons)
    return "\n".join(_short(line, 300) for line in lines)


def _fmt(value) -> str:
    return "unknown" if value is None else sp.sstr(value)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON array instead of a table.")
def families(as_json: bool) -> None:
    """List the activation catalog with each family's verdict."""
    results = [analyse(family) for family in CATALOG]
    if as_json:
        rows = [{
            "name": r.family.name, "display": r.family.display, "gated": r.family.gated,
            "expression": str(r.family.expr), "description": r.family.description,
            "source": r.family.source, "lean_definition": _library_definition(r.family),
            "verdict": r.verdict, "arguments": r.argument_names,
            "necessity": r.necessity, "s_condition_necessary": r.s_condition_necessary,
            "s_condition_lean": s_condition_theorems(r), "never_lean": never_theorems(r),
            "recession": r.recession.to_dict() if r.recession is not None else None,
        } for r in results]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    header = ("name", "family", "gated", "verdict", "arguments", "expression")
    rows = [(r.family.name, r.family.display, "yes" if r.family.gated else "no", r.verdict,
             ", ".join(r.argument_names) or "—", sp.sstr(r.family.expr)) for r in results]
    widths = [max(len(str(row[i])) for row in (header, *rows)) for i in range(len(header) - 1)]
    for row in (header, *rows):
        cells = [str(cell).ljust(width) for cell, width in zip(row, widths)]
        click.echo("  ".join([*cells, row[-1]]).rstrip())


@click.command(name="analyse")
@click.argument("name", required=False)
@click.option("--expr", "expr_text", metavar="EXPR",
              help="An activation in z, e.g. 'Max(z,0)**3' (SymPy syntax).")
@click.option("--gated", is_flag=True,
              help="EXPR is a gate g: the block is W_down (g(W_gate x) ⊙ (W_val x)).")
@click.option("--name", "user_name", metavar="NAME",
              help="Name for EXPR in the output (default: user).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--time-budget", "budget", default=DEFAULT_SECONDS, show_default=True,
              type=click.FloatRange(min=0), metavar="SECONDS",
              help="Stop reading and analysing an --expr after SECONDS (exit 2); 0: no limit.")
def analyse_command(name: str | None, expr_text: str | None, gated: bool,
                    user_name: str | None, as_json: bool, budget: float) -> None:
    """Say which argument decides absorbability for a family NAME or an --expr.

    The arguments: degree (block positively homogeneous of degree ≠ 1), linearisation
    (block o(|x|) at 0), even_parity (σ even), odd_linear_parity (σ(z) − σ(−z) = c·z, c ≠ 0),
    and the large-scale limit t → ∞ of σ(t·z)/t: recession (→ 0, e.g. bounded σ: never),
    recession_relu (→ relu z: the index-set condition is necessary); for a gate, gate_parity
    (g(z) + g(−z) = c ≠ 0: conditional, necessity open). A limit SymPy cannot decide within
    the budget is reported as 'recession: unknown' with the reason.
    Verdicts: never, conditional (absorbable iff/if an index-set condition holds),
    undetermined (no argument applies).
    """
    if (name is None) == (expr_text is None):
        raise InputError("give either a family NAME or --expr EXPR (see 'leanbridge families')")
    if name is not None and (gated or user_name):
        raise InputError("--gated and --name apply to --expr only")
    if name is not None:
        try:
            result = analyse(get_family(name))
        except UnknownFamilyError as exc:
            raise InputError(str(exc)) from None
    else:
        result = _analyse_within(expr_text, user_name or "user", gated, budget)
    if as_json:
        click.echo(json.dumps(analysis_json(result), indent=2, ensure_ascii=False))
    else:
        click.echo(_describe(result))



def _analyse_within(expr_text: str, name: str, gated: bool, budget: float) -> Analysis:
    """Read and analyse an --expr within one time budget: reading is inside it too (InputError
    when the budget runs out or the text is refused)."""
    try:
        with time_budget(budget, what=f"reading and analysing {excerpt(expr_text)}"):
            return analyse(user_family(expr_text, name, gated))
    except ExpressionError as exc:
        raise InputError(str(exc)) from None
    except BudgetExceeded as exc:
        raise InputError(f"{exc}; simplify the expression or raise --time-budget") from None


#: ``graph --format``: the keys of :data:`leanbridge.graph.FORMATS` (written out so that this
#: module does not import NetworkX; tests/test_graph.py checks they agree).
GRAPH_FORMATS = ("dot", "json", "mermaid")

#: The longest ``generate --name``: its file ``Families/<Name>.lean`` and the temporary file
#: written beside it (``.<Name>.lean.XXXXXXXX.tmp``) stay within 255 bytes.
MAX_NAME_CHARS = 200

PROJECT_OPTION = click.option(
    "--project", "project_path", default=None, metavar="DIR",
    help="The Lake project holding SkipAbsorption (default: found from the working directory "
         "up: ./lean, or the project you are in).")


@click.command()
@PROJECT_OPTION
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing; exit 1 listing stale, tampered or missing files.")
@click.option("--expr", "expr_text", metavar="EXPR",
              help="Render a file for this activation (needs --name) instead of the catalog.")
@click.option("--name", "user_name", metavar="NAME",
              help="Name of the --expr family (a Lean identifier, e.g. relu_cubed).")
@click.option("--gated", is_flag=True, help="EXPR is a gate g.")
@click.option("--force", is_flag=True, help="Overwrite generated files edited by hand.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--time-budget", "budget", default=DEFAULT_SECONDS, show_default=True,
              type=click.FloatRange(min=0), metavar="SECONDS",
              help="Stop reading and analysing an --expr after SECONDS (exit 2); 0: no limit.")
def generate(project_path: str | None, check_only: bool, expr_text: str | None,
             user_name: str | None, gated: bool, force: bool, as_json: bool,
             budget: float) -> None:
    """Render the Lean theorem files of the catalog (or of one --expr) into the Lake project.

    One file per family, SkipAbsorption/Families/<Name>.lean, plus SkipAbsorption/Families.lean
    importing the catalog's. Output is deterministic; every file carries a header with a hash
    of its text. Files without that header are never overwritten (exit 2). With --check,
    nothing is written and the exit code is 1 if any file is stale, tampered or missing.
    """
    from leanbridge import generate as generate_files

    project = project_dir(project_path)
    if check_only:
        if expr_text or user_name or gated or force:
            raise InputError("--check takes no --expr/--name/--gated/--force")
        statuses = generate_files.check(project)
        failing = [s for s in statuses if s.status in generate_files.FAILING]
        _report_files(statuses, as_json, checked=True)
        if failing:
            sys.exit(EXIT_FAILED)
        return
    if (expr_text is None) != (user_name is None):
        raise InputError("--expr and --name go together")
    if user_name is not None and len(user_name) > MAX_NAME_CHARS:
        raise InputError(f"--name is {len(user_name)} characters (limit {MAX_NAME_CHARS}): the "
                         "family's Lean file name must fit the file system's 255-byte limit")
    directories = [project / generate_files.FAMILIES_DIR]
    if expr_text is None:
        directories.append((project / generate_files.INDEX_PATH).parent)
    for directory in directories:
        try:
            check_directory_writable(directory)
        except UnwritableError as exc:
            raise InputError(f"cannot write the generated files: {exc}") from None
    try:
        if expr_text is not None:
            with time_budget(budget, what=f"reading and analysing {excerpt(expr_text)}"):
                family = generate_files.user_family(expr_text, user_name, gated,
                                                    project=project)
                outputs = [generate_files.user_output(family)]
        else:
            if gated:
                raise InputError("--gated applies to --expr only")
            outputs = generate_files.catalog_outputs()
        statuses = generate_files.write(project, outputs, force=force)
    except generate_files.GenerateError as exc:
        raise InputError(str(exc)) from None
    except BudgetExceeded as exc:
        raise InputError(f"{exc}; simplify the expression or raise --time-budget") from None
    _report_files(statuses, as_json, checked=False)


@click.command()
@PROJECT_OPTION
@click.option("--format", "fmt", type=click.Choice(GRAPH_FORMATS),
              default="json", show_default=True, help="Output format (json = node-link).")
@click.option("--out", "out_path", metavar="PATH",
              help="Write to PATH (atomically) instead of standard output (- : stdout).")
@click.option("--full", is_flag=True,
              help="Keep every edge (default: transitive reduction, for drawing).")
@click.option("--check", "check_only", is_flag=True,
              help="Exit 1 listing every name leanbridge references that lean/ does not declare.")
def graph(project_path: str, fmt: str, out_path: str | None, full: bool, check_only: bool) -> None:
    """The dependency graph: paper results, Lean theorems, premise lemmas, family theorems.

    Edges mean "uses". Built from the catalog and the templates' references, and checked against
    the declarations found in the Lean sources.
    """
    from leanbridge import graph as dependency_graph

    project = project_dir(project_path)
    out = writable_output(out_path, "--out")
    built = dependency_graph.build(project)
    if check_only:
        missing = dependency_graph.missing_names(built)
        for problem in missing:
            click.echo(f"missing   {problem}")
        if missing:
            sys.exit(EXIT_FAILED)
        click.echo(f"ok        {built.number_of_nodes()} nodes, {built.number_of_edges()} edges; "
                   "every referenced name is declared in lean/")
        return
    drawn = built if full else dependency_graph.for_drawing(built)
    text = dependency_graph.FORMATS[fmt](drawn)
    if out not in (None, STDOUT):
        atomic_write(out, text)
    else:
        click.echo(text, nl=False)


@click.command()
@PROJECT_OPTION
@click.option("--lake", "lake", metavar="PATH",
              help="The lake executable (default: `lake` on PATH, then ~/.elan/bin/lake).")
@click.option("--timeout", default=600.0, show_default=True, type=click.FloatRange(min=1),
              help="Wall-clock seconds per Lean subprocess (killed with its process group).")
@click.option("--allow-axiom", "allow", multiple=True, metavar="NAME",
              help="Extend the axiom allowlist (default: propext, Classical.choice, Quot.sound).")
@click.option("--jobs", default=2, show_default=True, type=click.IntRange(min=1),
              help="Audit runs in parallel (one for the public theorems, one per file "
                   "with private theorems).")
@click.option("--json", "json_path", metavar="PATH",
              help="Write the JSON report (leanbridge.check/1) to PATH (- for stdout).")
@click.option("--junit", "junit_path", metavar="PATH",
              help="Write a JUnit XML report to PATH (- for stdout).")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
def check(project_path: str, lake: str | None, timeout: float, allow: tuple[str, ...],
          jobs: int, json_path: str | None, junit_path: str | None, quiet: bool) -> None:
    """Check everything: generated files, symbolic premises, and the Lean proofs.

    \b
    1. `generate --check`: stale or hand-edited generated files;
    2. SymPy re-verifies each family's premises (no Lean needed);
    3. with a Lean toolchain: `lake build` (the one build: errors and warnings per
       theorem, failed modules), then one audit file, `lake lean AUDIT -- --json`, with
       `#print axioms` for every theorem of the built modules.

    \b
    Verdict per theorem: proved, proved_modulo_premise (Lean proved it; its named-hypothesis
    premise is verified by SymPy, not by Lean), sorry, axiom_violation, error, timeout,
    missing_decl, stale, tampered, not_run (no toolchain), infra_error.

    \b
    Exit codes (first that applies): 2 usage or input error; 1 something is not proved,
    stale, tampered, a premise failed, a theorem relies on a premise SymPy did not verify in
    this run, a module failed to build (or the build failed), or a Lean name leanbridge
    references is missing from lean/ (also without Lean); 3 Lean toolchain not found
    (everything else ran and was reported); 0 every theorem proved (outright, or modulo
    premises SymPy verified).

    In GitHub Actions (GITHUB_ACTIONS=true) failures are also printed as annotations, and a
    Markdown table is appended to $GITHUB_STEP_SUMMARY.
    """
    from leanbridge import reports
    from leanbridge.check import UsageError, run_check

    project = project_dir(project_path)
    outputs = {"--json": writable_output(json_path, "--json"),
               "--junit": writable_output(junit_path, "--junit")}
    distinct_outputs(**outputs)
    # A report on stdout (-) keeps stdout machine-readable: the terminal lines go to stderr.
    to_stderr = STDOUT in outputs.values()
    progress = (lambda _: None) if quiet else (lambda line: click.echo(line, err=True))
    try:
        result = run_check(project, lake=lake, timeout=timeout, allow=allow, jobs=jobs,
                           progress=progress)
    except UsageError as exc:
        raise InputError(str(exc)) from None
    reports.write_reports(result, json_path, junit_path)
    click.echo(reports.terminal(result), err=to_stderr)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        for line in reports.github_annotations(result, root=str(project)):
            click.echo(line, err=to_stderr)
    summary_path = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        with open(summary_path, "a", encoding="utf-8") as stream:
            stream.write(reports.step_summary(result))
    sys.exit(result.exit_code)


@click.command()
@PROJECT_OPTION
@click.option("--format", "fmt", type=click.Choice(["latex", "markdown", "json", "blueprint"]),
              required=True, help="latex: an amsthm document (or --fragment); markdown; "
              "blueprint: leanblueprint content.tex nodes (with --out DIR, a whole blueprint "
              "project); json: schema leanbridge.statements/1.")
@click.option("--out", "out_path", metavar="PATH",
              help="Write to PATH (atomically) instead of standard output. With --format "
                   "blueprint, PATH is a directory (a Lean project's blueprint/): the files "
                   "`leanblueprint new` writes into PATH/src, with content.tex; then run "
                   "`leanblueprint web` (or `plastex -c plastex.cfg web.tex` in PATH/src).")
@click.option("--results", "results_path", metavar="PATH",
              help="A `leanbridge check --json` report: statuses (and \\leanok) come from it, "
                   "only if Lean ran in that check, and only for entries whose statement is "
                   "unchanged since (stale entries are listed on stderr and ignored).")
@click.option("--per-family", is_flag=True,
              help="One statement per family theorem instead of one general theorem per "
                   "argument and a table of families (latex and markdown; json and blueprint "
                   "always carry every theorem).")
@click.option("--fragment", is_flag=True,
              help="LaTeX without preamble, for \\input into a paper (needs amsmath, amssymb, "
                   "amsthm; booktabs optional), one- or two-column.")
@click.option("--label-prefix", "label_prefix", default="", metavar="PREFIX",
              help="Put PREFIX before every LaTeX/blueprint label (e.g. lb: gives "
                   "lb:thm:arg-degree), so none collides with the host paper's.")
@click.argument("families", nargs=-1, metavar="[FAMILY]...")
def export(project_path: str, fmt: str, out_path: str | None, results_path: str | None,
           per_family: bool, fragment: bool, label_prefix: str,
           families: tuple[str, ...]) -> None:
    """Export the statements for papers, from the same source as the Lean files.

    By default: one general theorem per argument (its parts are the Lean library's theorems,
    hypotheses spelled out) and a table of the families instantiating them, with the
    activation typeset from SymPy. All catalog families and the user families generated into
    the project (`generate --expr`), or the FAMILY names given.
    """
    from leanbridge import export as exporter

    if fragment and fmt != "latex":
        raise InputError("--fragment applies to --format latex only (blueprint output is "
                         "always a fragment)")
    project = project_dir(project_path)
    if fmt == "blueprint" and out_path not in (None, STDOUT):
        out = _writable_directory(out_path, "--out")
    else:
        out = writable_output(out_path, "--out")
    try:
        results = exporter.read_results(Path(results_path) if results_path else None)
        data = exporter.collect(project, list(families) or None, results)
        text = exporter.render(fmt, data, project, per_family=per_family, fragment=fragment,
                               label_prefix=label_prefix)
    except exporter.ExportError as exc:
        raise InputError(str(exc)) from None
    if data.stale:
        click.echo(f"note: ignored {len(data.stale)} stale report entr"
                   f"{'y' if len(data.stale) == 1 else 'ies'} (statement changed since the "
                   f"check): {', '.join(data.stale)}", err=True)
    if out not in (None, STDOUT) and fmt == "blueprint":
        try:
            _, kept = exporter.write_blueprint(out, text)
        except exporter.ExportError as exc:
            raise InputError(str(exc)) from None
        if kept:
            click.echo(f"note: kept {len(kept)} existing file{'s' if len(kept) > 1 else ''} of "
                       f"{out / 'src'} ({', '.join(p.name for p in kept)}); content.tex is new",
                       err=True)
        click.echo(f"wrote the blueprint project {out / 'src'}; build it with `leanblueprint "
                   f"web`, or `plastex -c plastex.cfg web.tex` in that directory", err=True)
    elif out not in (None, STDOUT):
        atomic_write(out, text)
    else:
        click.echo(text, nl=False)


def _writable_directory(path: str, option: str) -> Path:
    """``path`` as a directory that files can be created in (InputError otherwise)."""
    directory = Path(path)
    if directory.exists() and not directory.is_dir():
        raise InputError(f"{option}: {directory} is not a directory (--format blueprint "
                         "writes a project directory)")
    try:
        check_directory_writable(directory)
    except UnwritableError as exc:
        raise InputError(f"{option}: cannot write into {directory}: {exc}") from None
    return directory


def _report_files(statuses, as_json: bool, checked: bool) -> None:
    from leanbridge import generate as generate_files

    if as_json:
        failing = [s for s in statuses if s.status in generate_files.FAILING]
        click.echo(json.dumps({"checked": checked, "ok": not failing,
                               "files": [s.to_dict() for s in statuses]}, indent=2))
        return
    for status in statuses:
        detail = f" ({status.detail})" if status.detail else ""
        click.echo(f"{status.status:9s} {status.path}{detail}")
