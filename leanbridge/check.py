"""`leanbridge check`: generated files, symbolic premises, and Lean — one honest record.

1. ``generate --check``: stale or hand-edited generated files are found first; every Lean name
   that the catalog, the templates or the exports reference must be declared in ``lean/``.
2. Symbolic premise checks (SymPy, no Lean needed) for every family on disk.
3. If a Lake toolchain is found, Lean runs twice, and elaborates every file once:

   * ``lake build`` — the one build (modules no library root imports, e.g. a user family's
     file, are named as extra targets, with the default ones). Its log (:func:`leanbridge.lean.messages.parse_build_log`)
     gives each declaration its errors and warnings, attributed by position, and says which
     modules failed. A theorem in a failed module, or in a module importing one (Lake does not
     build those), is ``error`` with the message; a failed build never exits 0.
   * one generated **audit** file, outside the project, that imports the built modules holding
     theorems and runs ``#print axioms`` for each of them: ``lake lean AUDIT -- --json -D…``.
     ``lake lean`` elaborates an external file with the workspace's Lean arguments and options
     (``prepareLeanCommand`` → ``setupExternalModule … getLeanOptions`` in the pinned Lake);
     the ``-D`` flags repeat the lakefile's ``[leanOptions]`` as ``LeanOption.asCliArg`` writes
     them, so older Lakes whose ``lake lean`` passed only ``moreLeanArgs`` get them too.
     Private theorems cannot be named from another module: a copy of their file with the
     ``#print axioms`` lines appended is elaborated instead (Lean prints their mangled names).

   Every subprocess has a wall-clock timeout and is killed with its process group.
4. A closed verdict per theorem (:func:`leanbridge.results.decide`), failures explained through
   the dependency graph ("fails because … failed").

**Cost (no Lean here to measure it: reasoned).** ``lake build`` is the cost of elaborating
every module once (with Mathlib's ``.olean`` files from its cache: for this library several
minutes on two cores — ~30 files, each loading Mathlib's environment and elaborating proofs).
The audit elaborates no proof: it maps the ``.olean`` files of its imports (Mathlib's included,
memory-mapped: a few seconds, the same as the header of any one module of the build) and then
``#print axioms`` walks the constants each theorem depends on (``collectAxioms``: a traversal
of already-checked terms, milliseconds to tenths of a second per theorem, ~100 theorems). That
is ≲ 10–20 s next to a build of minutes, i.e. ≤ 1.1× ``lake build`` when the library is
built from scratch. (Before, every file was elaborated a second time with the axioms appended:
about 2× the build.) On a tree that is already built ``lake build`` is a no-op of seconds, and
then the audit's seconds dominate: the ratio is about the build, not about a no-op.

Nothing here claims a proof was checked unless Lean ran in this invocation and said so.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from leanbridge import __version__, dependencies
from leanbridge import generate as generated_files
from leanbridge.analysis import analyse
from leanbridge.exit_codes import EXIT_FAILED, EXIT_NO_TOOLCHAIN, EXIT_OK
from leanbridge.families import CATALOG
from leanbridge.lean import process
from leanbridge.lean.messages import (
    ERROR,
    INFORMATION,
    BuildLog,
    Message,
    parse_axioms,
    parse_build_log,
    parse_json_messages,
)
from leanbridge.lean.project import (
    default_targets,
    lean_options,
    library_roots,
    option_flags,
    read_pins,
)
from leanbridge.lean.sources import (
    LeanDeclaration,
    module_file,
    module_name,
    project_imports,
    scan_project,
)
from leanbridge.premises import FAILED as PREMISE_FAILED
from leanbridge.premises import PremiseCheck, for_hypothesis, premise_checks
from leanbridge.render import Declaration, FamilyFile, build_family_file
from leanbridge.results import (
    DEFAULT_ALLOWLIST,
    FAILURES,
    INFRA_ERROR,
    NOT_RUN,
    SCHEMA,
    STALE,
    TAMPERED,
    TIMEOUT,
    DeclarationResult,
    Evidence,
    PremiseRecord,
    decide,
    statement_hash,
    summary,
    unverified_premises,
)

ELAN_HINT = ("install elan (https://github.com/leanprover/elan), then run "
             "`lake exe cache get` in the Lake project")
Progress = Callable[[str], None]


class UsageError(ValueError):
    """Bad invocation (e.g. ``--lake`` pointing at nothing)."""


@dataclass
class Toolchain:
    lake: str | None
    lake_version: str | None
    lean_toolchain: str | None
    mathlib_rev: str | None
    mathlib_commit: str | None
    project_rev: str | None

    def to_dict(self) -> dict:
        return dict(self.__dict__)


#: Module statuses (``lean.modules`` in the JSON report); only modules that are not fine appear.
MODULE_FAILED = "failed"          # Lean or Lake reported an error for it
MODULE_BLOCKED = "blocked"        # imports a failed module, so Lake did not build it
MODULE_NOT_BUILT = "not_built"    # not imported by any library root: `lake build` skips it
MODULE_UNATTRIBUTED = "build_failed"   # the build failed without naming a project module


@dataclass
class ModuleStatus:
    """A module (Lean file) that did not build, and why — theorems or not."""

    module: str
    file: str
    status: str
    detail: str
    messages: list[Message] = field(default_factory=list)
    infra: bool = False     # the failure is the toolchain's (Mathlib cannot be loaded)

    def to_dict(self) -> dict:
        return {"module": self.module, "file": self.file, "status": self.status,
                "detail": self.detail, "messages": [m.to_dict() for m in self.messages]}


@dataclass
class CheckResult:
    project: str
    started_at: str
    toolchain: Toolchain
    allowlist: list[str]
    timeout_s: float
    lean_status: str = NOT_RUN           # "ran", "not_run", "build_timeout", "infra_error"
    lean_note: str = ""
    build: dict | None = None
    generated_files: list[dict] = field(default_factory=list)
    premises: list[PremiseCheck] = field(default_factory=list)
    records: list[DeclarationResult] = field(default_factory=list)
    modules: list[ModuleStatus] = field(default_factory=list)
    missing_names: list[str] = field(default_factory=list)
    audit: dict | None = None
    duration_s: float = 0.0

    @property
    def build_failed(self) -> bool:
        """``lake build`` ran and did not succeed (non-zero exit, or a module failed)."""
        return build_failed(self)

    @property
    def exit_code(self) -> int:
        return exit_code(self)

    def to_dict(self) -> dict:
        return {
            "schema": SCHEMA,
            "leanbridge_version": __version__,
            "started_at": self.started_at,
            "duration_s": round(self.duration_s, 3),
            "project": self.project,
            "toolchain": self.toolchain.to_dict(),
            "mathlib_rev": self.toolchain.mathlib_rev,
            "project_rev": self.toolchain.project_rev,
            "allowlist": self.allowlist,
            "timeout_s": self.timeout_s,
            "lean": {"status": self.lean_status, "note": self.lean_note, "build": self.build,
                     "modules": [m.to_dict() for m in self.modules], "audit": self.audit},
            "missing_names": self.missing_names,
            "generated_files": self.generated_files,
            "premises": [p.to_dict() for p in self.premises],
            "summary": summary(self.records),
            "exit_code": self.exit_code,
            "results": [r.to_dict() for r in self.records],
        }


def build_failed(result: CheckResult) -> bool:
    """``lake build`` ran and did not succeed (non-zero exit, or a module did not build)."""
    return result.build is not None and (result.build.get("returncode") != 0
                                         or bool(result.modules))


def exit_code(result: CheckResult) -> int:
    """1 if anything failed (a theorem, a generated file, a premise, a module, the build, a
    referenced name) or a theorem is stated modulo a premise SymPy did not verify in this run
    (failed or unknown, with or without Lean); else 3 if Lean did not run; else 0. (2, usage,
    is raised earlier.)"""
    failing_files = [f for f in result.generated_files
                     if f["status"] in generated_files.FAILING]
    if (any(r.verdict in FAILURES for r in result.records) or failing_files
            or any(p.status == PREMISE_FAILED for p in result.premises)
            or unverified_premises(result.records)
            or result.modules or build_failed(result) or result.missing_names):
        return EXIT_FAILED
    if result.lean_status == NOT_RUN:
        return EXIT_NO_TOOLCHAIN
    return EXIT_OK


# -- toolchain -------------------------------------------------------------------------------

def find_lake(explicit: str | None) -> str | None:
    """``--lake PATH``, else ``lake`` on PATH, else elan's default location, else None."""
    if explicit is not None:
        path = Path(explicit)
        if not path.is_file() or not os.access(path, os.X_OK):
            raise UsageError(f"--lake {explicit}: not an executable file")
        return str(path.resolve())
    found = shutil.which("lake")
    if found:
        return found
    elan = Path.home() / ".elan" / "bin" / "lake"
    return str(elan) if elan.is_file() and os.access(elan, os.X_OK) else None


def describe_toolchain(project: Path, lake: str | None, timeout: float = 600.0,
                       progress: Progress = lambda _: None) -> Toolchain:
    """The toolchain and pins; ``lake --version`` runs under the check's ``--timeout`` and says
    why when it gives no version."""
    pins = read_pins(project)
    version = None
    if lake:
        completed = process.run([lake, "--version"], project, timeout=timeout)
        text = (completed.stdout or completed.stderr).strip()
        version = text.splitlines()[0] if completed.ok and text else None
        if version is None:
            progress(f"lake --version gave no version: {completed.describe()}")
    return Toolchain(lake, version, pins.lean_toolchain, pins.mathlib_rev, pins.mathlib_commit,
                     _git_rev(project))


def _git_rev(project: Path) -> str | None:
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=project, capture_output=True,
                              text=True, timeout=30)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "."], cwd=project,
                               capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


# -- what is checked -------------------------------------------------------------------------

def family_plans(project: Path,
                 rendered: generated_files.Rendered | None = None) -> list[FamilyFile]:
    """Plans of the catalog families and of the user families whose files are on disk (taken
    from ``rendered``, the files ``generate --check`` rendered, where they are there)."""
    if rendered is None:
        plans = [build_family_file(family) for family in CATALOG]
    else:
        plans = [output.plan for output in rendered.catalog if output.plan is not None]
    families_dir = project / generated_files.FAMILIES_DIR
    for path in sorted(families_dir.glob("*.lean")) if families_dir.is_dir() else []:
        relative = path.relative_to(project).as_posix()
        if rendered is not None and relative in rendered.user:
            output = rendered.user[relative]
        else:
            header = generated_files.header_of(path)
            output = generated_files.rerender_user_file(header) if header else None
        if output is not None:
            plans.append(output.plan)
    return plans


def premise_records(plan: FamilyFile, declaration: Declaration,
                    checks: list[PremiseCheck]) -> list[PremiseRecord]:
    """The named hypotheses of a planned theorem, each with the status of the symbolic premise
    check (of this run) that re-verifies it; ``unknown`` when no check covers it."""
    records = []
    for hypothesis in declaration.premise_hypotheses:
        check = for_hypothesis(checks, plan.family.name, hypothesis.kind)
        records.append(PremiseRecord(
            hypothesis.binder, hypothesis.kind, hypothesis.statement, hypothesis.reason,
            check.status if check else "unknown",
            check.statement if check else "no symbolic premise check covers it"))
    return records


def _records(plans: list[FamilyFile], declared: dict[str, LeanDeclaration],
             nodes: dict[str, dict], checks: list[PremiseCheck] = ()) -> list[DeclarationResult]:
    """One record per theorem or lemma declared, then one (stale) per planned theorem that
    the Lean sources lack; ``nodes``: the dependency graph's, which give each its role."""
    planned = {d.full_name: (plan, d) for plan in plans for d in plan.declarations
               if d.kind == "theorem"}

    def role(name: str) -> str:
        return nodes[name].get("role", "lemma") if name in nodes else "lemma"

    records = []
    for name, declaration in sorted(declared.items(), key=lambda i: (i[1].file, i[1].line)):
        if declaration.kind not in ("theorem", "lemma"):
            continue
        plan, planned_decl = planned.get(name, (None, None))
        header = declaration.text.split(":=", 1)[0]
        records.append(DeclarationResult(
            decl=name, file=declaration.file, line=declaration.line, role=role(name),
            statement_hash=planned_decl.statement_hash if planned_decl else
            statement_hash(header),
            family=plan.family.name if plan else None,
            argument=planned_decl.argument if planned_decl else None,
            premises=premise_records(plan, planned_decl, list(checks)) if plan else [],
            certificate_rule=planned_decl.certificate if planned_decl else None))
    for name, (plan, decl) in sorted(planned.items()):
        if name not in declared:
            records.append(DeclarationResult(
                decl=name, file=plan.path, line=None, role=role(name),
                statement_hash=decl.statement_hash, family=plan.family.name,
                argument=decl.argument, verdict=STALE,
                detail="not in the Lean sources: run `leanbridge generate`",
                premises=premise_records(plan, decl, list(checks)),
                certificate_rule=decl.certificate))
    return records


# -- Lean runs -------------------------------------------------------------------------------

AUDIT_MODULE = "LeanbridgeAudit"


@dataclass
class AuditRun:
    """What one audit run said: axioms per theorem, the theorems Lean did not know."""

    axioms: dict[str, list[str]]
    missing: set[str]
    timed_out: bool = False
    infra: str | None = None
    seconds: float = 0.0
    command: tuple[str, ...] = ()


def audit_command(lake: str, path: Path, project: Path) -> list[str]:
    """``lake lean FILE -- --json -D…``: the audit elaborated with the package's options."""
    return [lake, "lean", str(path), "--", "--json", *option_flags(lean_options(project))]


def audit_text(imports: list[str], names: list[str], prefix: str | None = None) -> tuple[str, int]:
    """(text, line of the first ``#print axioms``): ``prefix`` (a copy of a file) or imports."""
    if prefix is None:
        head = "\n".join(f"import {module}" for module in imports)
        head += "\n\n-- Generated by leanbridge check: the axioms of every theorem.\n"
    else:
        head = prefix.rstrip("\n") + "\n\n"
    first = head.count("\n") + 1
    return head + "\n".join(f"#print axioms {name}" for name in names) + "\n", first


def run_audit(lake: str, project: Path, names: list[str], timeout: float,
              imports: list[str] = (), prefix: str | None = None) -> AuditRun:
    """Run ``#print axioms`` for ``names`` in one generated file outside the project."""
    text, first = audit_text(list(imports), names, prefix)
    with tempfile.TemporaryDirectory(prefix="leanbridge-audit-") as scratch:
        path = Path(scratch) / f"{AUDIT_MODULE}.lean"
        path.write_text(text, encoding="utf-8")
        command = audit_command(lake, path, project)
        completed = process.run(command, project, timeout)
    if completed.start_error:
        return AuditRun({}, set(), infra=completed.describe(), seconds=completed.seconds,
                        command=tuple(command))
    messages, other = parse_json_messages(completed.stdout)
    answers = [m for m in messages if m.line >= first]
    axioms = parse_axioms("\n".join(m.text for m in answers if m.severity == INFORMATION))
    missing = {names[m.line - first] for m in answers
               if m.severity == ERROR and 0 <= m.line - first < len(names)}
    infra = None
    header = next((m for m in messages if m.severity == ERROR and m.line < first), None)
    if header is not None and prefix is None:
        reason = header.text.splitlines()[0] if header.text else "?"
        infra = (f"Mathlib cannot be loaded: run `lake exe cache get` then `lake build` ({reason})"
                 if "Mathlib" in header.text else
                 f"the audit cannot import the built modules: {reason}")
    elif (completed.returncode not in (0, None) and not completed.timed_out
            and not any(m.severity == ERROR for m in messages)):
        noise = (completed.stderr.strip() or "\n".join(other)).splitlines()[-1:] or [""]
        infra = f"lake lean {completed.describe()} without reporting an error: {noise[0][:200]}"
    return AuditRun(axioms, missing, timed_out=completed.timed_out, infra=infra,
                    seconds=completed.seconds, command=tuple(command))


def _tail(text: str, lines: int = 20) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


# -- what the build said, per module ---------------------------------------------------------

def _reachable(roots: list[str], graph: dict[str, list[str]]) -> set[str]:
    seen: set[str] = set()
    todo = [r for r in roots if r in graph]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(i for i in graph[module] if i in graph)
    return seen


def _first_lines(declared: dict[str, LeanDeclaration]) -> dict[str, int]:
    first: dict[str, int] = {}
    for declaration in declared.values():
        first[declaration.file] = min(first.get(declaration.file, 10 ** 9), declaration.line)
    return first


def _roots(project: Path, graph: dict[str, list[str]]) -> list[str]:
    """The library roots (lakefile.toml), else the top-level modules (e.g. a lakefile.lean)."""
    return library_roots(project) or sorted(m for m in graph if "." not in m)


def unreachable_modules(project: Path) -> list[str]:
    """Project modules that no library root imports (a user family's file, a stray file): a
    bare ``lake build`` would skip them, so the check names them as build targets."""
    graph = project_imports(project)
    return sorted(set(graph) - _reachable(_roots(project, graph), graph))


def build_command(lake: str, project: Path) -> list[str]:
    """``lake build``, plus the default targets and the unreachable modules when there are any
    (explicit targets replace the default ones)."""
    extra = unreachable_modules(project)
    if not extra:
        return [lake, "build"]
    defaults = default_targets(project) or _roots(project, project_imports(project))
    return [lake, "build", *defaults, *extra]


def module_statuses(project: Path, log: BuildLog, returncode: int | None,
                    declared: dict[str, LeanDeclaration],
                    targets: tuple[str, ...] = ()) -> list[ModuleStatus]:
    """The modules that did not build: failed, blocked by a failed import, or never built.

    ``targets``: modules named to ``lake build`` besides the default targets."""
    graph = project_imports(project)
    roots = _roots(project, graph)
    built_by_default = _reachable(roots + [t for t in targets if t in graph], graph)
    first = _first_lines(declared)
    by_file: dict[str, list[Message]] = {}
    for message in log.messages:
        by_file.setdefault(message.file, []).append(message)
    failed: dict[str, ModuleStatus] = {}
    notes = {job.caption: job.notes for job in log.jobs}
    candidates = set(log.failed_captions) | {module_name(f) for f, ms in by_file.items()
                                             if any(m.severity == ERROR for m in ms)}
    for module in sorted(candidates):
        if module not in graph:
            continue
        file = module_file(module)
        errors = [m for m in by_file.get(file, []) if m.severity == ERROR]
        if errors:
            where = f"{file}:{errors[0].line}"
            detail = f"{errors[0].text.splitlines()[0]} ({where})"
        else:
            detail = unpositioned_failure(notes.get(module, []))
        header = [m for m in errors if file not in first or m.line < first[file]]
        infra = bool(header) and "Mathlib" in header[0].text
        failed[module] = ModuleStatus(module, file, MODULE_FAILED, detail, errors, infra)
    statuses = list(failed.values())
    for module in sorted(graph):
        if module in failed:
            continue
        blocker = _failed_import(module, graph, failed)
        if blocker is not None:
            statuses.append(ModuleStatus(module, module_file(module), MODULE_BLOCKED,
                                         f"not built: it imports {blocker}, which failed to "
                                         "build"))
        elif module not in built_by_default:
            statuses.append(ModuleStatus(
                module, module_file(module), MODULE_NOT_BUILT,
                f"not built: no library root ({', '.join(roots)}) imports it, and it was not a "
                "build target"))
    if returncode not in (0, None) and not failed:
        unnamed = [c for c in log.failed_captions if c not in graph]
        statuses.append(ModuleStatus(
            "", "", MODULE_UNATTRIBUTED,
            f"lake build failed (exit {returncode}) without naming a module of this project"
            + (f": {', '.join(unnamed)}" if unnamed else
               (f": {log.other[-1][:200]}" if log.other else ""))))
    return statuses


def unpositioned_failure(notes: list[str]) -> str:
    """Why Lake failed a module that has no positioned Lean error (Lean killed for memory, a
    crash): Lake's own error entries (``error: Lean exited with code 137``), first lines, and
    the last line Lean wrote to stderr (logged as ``info: stderr:`` by ``compileLeanModule``)."""
    errors, stderr = [], []
    for note in notes:
        head, _, rest = note.partition("\n")
        if head.startswith("error: ") and head.removeprefix("error: ").strip():
            errors.append(head.strip())
        elif head == "info: stderr:" and rest.strip():
            stderr.append(rest.strip().splitlines()[-1][:200])
    if not errors and not stderr:
        return "Lake reported the module failed"
    detail = "; ".join(errors) or "Lake reported the module failed"
    return detail + (f" (Lean's stderr: {stderr[-1]})" if stderr else "")


def _failed_import(module: str, graph: dict[str, list[str]],
                   failed: dict[str, ModuleStatus]) -> str | None:
    """The first failed module among ``module``'s transitive imports (breadth first)."""
    seen, frontier = {module}, list(graph[module])
    while frontier:
        following = []
        for imported in frontier:
            if imported in failed:
                return imported
            if imported not in seen and imported in graph:
                seen.add(imported)
                following.extend(graph[imported])
        frontier = following
    return None


# -- the whole check -------------------------------------------------------------------------

def run_check(project: Path, lake: str | None = None, timeout: float = 600.0,
              allow: tuple[str, ...] = (), jobs: int = 2,
              progress: Progress = lambda _: None) -> CheckResult:
    started = time.monotonic()
    lake_path = find_lake(lake)
    allowlist = sorted(set(DEFAULT_ALLOWLIST) | set(allow))
    result = CheckResult(
        project=str(project), timeout_s=timeout, allowlist=allowlist,
        started_at=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        toolchain=describe_toolchain(project, lake_path, timeout, progress))

    progress("checking generated files (leanbridge generate --check)")
    statuses, rendered = generated_files.check_rendered(project)
    result.generated_files = [s.to_dict() for s in statuses]
    file_status = {s.path: s.status for s in statuses}

    plans = family_plans(project, rendered)
    progress(f"symbolic premise checks for {len(plans)} families (SymPy)")
    result.premises = [c for plan in plans for c in premise_checks(analyse(plan.family))]

    declared = scan_project(project)
    collected = dependencies.collect(project, plans, declared)
    records = _records(plans, declared, collected.nodes, result.premises)
    result.records = records
    result.missing_names = [str(m) for m in dependencies.missing_names(
        collected.nodes, collected.predecessors)]

    if lake_path is None:
        result.lean_status = NOT_RUN
        result.lean_note = f"not run: no Lean toolchain found (no `lake` on PATH); {ELAN_HINT}"
        for record in records:
            if record.verdict == NOT_RUN:
                record.detail = "no Lean toolchain" + (
                    "; stated modulo " + ", ".join(p.describe() for p in record.premises)
                    + " (verified by SymPy, not by Lean)" if record.premises else "")
        _apply_file_status(records, file_status)
        result.duration_s = time.monotonic() - started
        return result

    progress(f"{' '.join(['lake', *build_command('lake', project)[1:]])} "
             f"(timeout {timeout:.0f} s) …")
    with _ticking(progress, "lake build"):
        build = process.run(build_command(lake_path, project), project, timeout)
    result.build = {"command": list(build.command), "returncode": build.returncode,
                    "seconds": round(build.seconds, 3), "timed_out": build.timed_out,
                    "output_tail": _tail(build.stdout + "\n" + build.stderr)}
    if build.start_error or build.timed_out:
        result.lean_status = "build_timeout" if build.timed_out else INFRA_ERROR
        result.lean_note = f"lake build: {build.describe()}"
        for record in records:
            if record.verdict == NOT_RUN:
                record.verdict = TIMEOUT if build.timed_out else INFRA_ERROR
                record.detail = f"lake build {build.describe()}"
        _apply_file_status(records, file_status)
        result.duration_s = time.monotonic() - started
        return result
    result.lean_status = "ran"
    log = parse_build_log(build.stdout + "\n" + build.stderr)
    result.modules = module_statuses(project, log, build.returncode, declared,
                                     tuple(build.command[2:]))
    result.lean_note = build_note(build, result.modules)
    progress(result.lean_note)

    evidence = _build_evidence(records, declared, log, result.modules)
    audited = [r for r in records if r.verdict == NOT_RUN and r.decl in evidence
               and evidence[r.decl].module_failure is None and evidence[r.decl].infra is None]
    _audit(lake_path, project, audited, declared, evidence, timeout, result, progress, jobs)
    allow = frozenset(allowlist)
    for record in records:
        if record.verdict == NOT_RUN:   # declared, so _build_evidence gave it evidence
            decide(record, evidence[record.decl], allow)
    _apply_file_status(records, file_status)
    from leanbridge.graph import to_networkx  # NetworkX: only when Lean ran

    _explain(records, to_networkx(collected))
    result.duration_s = time.monotonic() - started
    return result


def build_note(build: process.Completed, modules: list[ModuleStatus]) -> str:
    """The build in one line: succeeded, or failed / left modules unbuilt, with the count of
    modules that failed and of those not built, and whether the failure named no module."""
    if build.ok and not modules:
        return "lake build succeeded"
    failed = sum(m.status == MODULE_FAILED for m in modules)
    unnamed = sum(m.status == MODULE_UNATTRIBUTED for m in modules)
    return (f"lake build {'failed' if not build.ok else 'left modules unbuilt'} "
            f"({build.describe()}; {failed} module(s) failed, "
            f"{len(modules) - failed - unnamed} not built"
            + ("; the failure names no module of this project" if unnamed else "") + ")")


def _build_evidence(records: list[DeclarationResult], declared: dict[str, LeanDeclaration],
                    log: BuildLog, modules: list[ModuleStatus]) -> dict[str, Evidence]:
    """Each theorem's messages from the build (by position) and its module's failure."""
    ends = _end_lines(declared)
    by_module = {m.module: m for m in modules}
    unattributed = next((m for m in modules if m.status == MODULE_UNATTRIBUTED), None)
    messages = log.messages
    found: dict[str, Evidence] = {}
    for record in records:
        declaration = declared.get(record.decl)
        if declaration is None:
            continue
        end = ends.get(record.decl)
        own = tuple(m for m in messages if m.file == declaration.file
                    and declaration.line <= m.line and (end is None or m.line < end))
        status = by_module.get(module_name(declaration.file))
        failure = infra = None
        if status is not None:
            if status.infra:
                infra = ("Mathlib cannot be loaded: run `lake exe cache get` then `lake build` "
                         f"({status.detail})")
            elif status.status == MODULE_FAILED:
                failure = f"its module {status.module} failed to build: {status.detail}"
            else:
                failure = status.detail
        elif unattributed is not None:
            failure = unattributed.detail
        found[record.decl] = Evidence(messages=own, module_failure=failure, infra=infra)
    return found


def _audit(lake: str, project: Path, audited: list[DeclarationResult],
           declared: dict[str, LeanDeclaration], evidence: dict[str, Evidence],
           timeout: float, result: CheckResult, progress: Progress, jobs: int = 2) -> None:
    """One audit run for the public theorems, one per file for private ones; fill ``evidence``."""
    public = [r for r in audited if not declared[r.decl].is_private]
    private: dict[str, list[DeclarationResult]] = {}
    for record in audited:
        if declared[record.decl].is_private:
            private.setdefault(record.file, []).append(record)
    tasks = []
    if public:
        imports = sorted({module_name(r.file) for r in public})
        progress(f"audit: #print axioms for {len(public)} theorems of {len(imports)} modules")
        tasks.append((public, {"imports": imports}))
    for file, records in sorted(private.items()):
        tasks.append((records, {"prefix": (project / file).read_text(encoding="utf-8")}))
    from concurrent.futures import ThreadPoolExecutor  # only when Lean runs

    with _ticking(progress, "audit"), ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        runs = list(zip([records for records, _ in tasks], pool.map(
            lambda task: run_audit(lake, project, [r.decl for r in task[0]], timeout,
                                   **task[1]), tasks)))
    result.audit = {"runs": [{"command": list(run.command), "theorems": len(records),
                              "seconds": round(run.seconds, 3), "timed_out": run.timed_out,
                              "infra": run.infra} for records, run in runs]}
    for records, run in runs:
        progress(f"audit: {len(run.axioms)} axiom reports ({run.seconds:.1f} s)")
        for record in records:
            axioms = run.axioms.get(record.decl)
            evidence[record.decl] = Evidence(
                messages=evidence[record.decl].messages,
                axioms=tuple(axioms) if axioms is not None else None,
                missing=record.decl in run.missing, timed_out=run.timed_out, infra=run.infra,
                seconds=run.seconds)


@contextlib.contextmanager
def _ticking(progress: Progress, what: str, every: float = 30.0):
    """Report "still running" every ``every`` seconds while a long step runs."""
    stop = threading.Event()
    started = time.monotonic()

    def tick() -> None:
        while not stop.wait(every):
            progress(f"{what}: still running ({time.monotonic() - started:.0f} s)")

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _end_lines(declared: dict[str, LeanDeclaration]) -> dict[str, int | None]:
    """Each declaration's range ends where the next declaration of its file starts."""
    by_file: dict[str, list[LeanDeclaration]] = {}
    for declaration in declared.values():
        by_file.setdefault(declaration.file, []).append(declaration)
    ends: dict[str, int | None] = {}
    for declarations in by_file.values():
        declarations.sort(key=lambda d: d.line)
        for current, following in zip(declarations, declarations[1:] + [None]):
            ends[current.name] = following.line if following else None
    return ends


def _apply_file_status(records: list[DeclarationResult], file_status: dict[str, str]) -> None:
    for record in records:
        status = file_status.get(record.file)
        if status == generated_files.TAMPERED:
            record.verdict, record.detail = TAMPERED, "its generated file was edited by hand"
        elif status in (generated_files.STALE, generated_files.ORPHAN, generated_files.MISSING):
            record.verdict = STALE
            record.detail = f"its generated file is {status}: run `leanbridge generate`"


def _explain(records: list[DeclarationResult], graph) -> None:
    """Name the nearest failed dependency of each failure ("fails because … failed").

    Only failures of their own count as causes: a theorem that is ``error`` because its module
    failed (or was not built) already says so, and blaming its neighbours would mislead.
    ``graph``: the NetworkX dependency graph (:mod:`leanbridge.graph`).
    """
    from leanbridge import graph as dependency_graph  # NetworkX: only when Lean ran

    consequence = ("its module ", "not built")
    failed = {r.decl: r.verdict for r in records if r.verdict in FAILURES
              and not r.detail.startswith(consequence)}
    for record in records:
        if record.verdict not in FAILURES or record.detail.startswith(consequence):
            continue
        causes = dependency_graph.failed_dependencies(graph, record.decl, set(failed))
        record.failed_dependencies = causes
        if causes:
            first = causes[0]
            record.detail += (f"; fails because {first} failed ({failed[first]})"
                              if record.detail else
                              f"fails because {first} failed ({failed[first]})")
