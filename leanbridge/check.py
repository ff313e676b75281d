"""`leanbridge check`: generated files, symbolic premises, and Lean — one honest record.

1. ``generate --check``: stale or hand-edited generated files are found first.
2. Symbolic premise checks (SymPy, no Lean needed) for every family on disk.
3. If a Lake toolchain is found: ``lake build``, then for every Lean file with theorems a copy
   of the file with ``#print axioms`` for each of its theorems appended, elaborated by
   ``lake env lean --json`` (one run gives both the diagnostics and the axioms). Every
   subprocess has a wall-clock timeout and is killed with its process group.
4. A closed verdict per theorem (:mod:`leanbridge.results`), failures explained through the
   dependency graph ("fails because … failed").

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
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from leanbridge import __version__
from leanbridge import generate as generated_files
from leanbridge import graph as dependency_graph
from leanbridge.analysis import analyse
from leanbridge.families import CATALOG
from leanbridge.lean import process
from leanbridge.lean.messages import ERROR, INFORMATION, parse_axioms, parse_json_messages
from leanbridge.lean.project import read_pins
from leanbridge.lean.sources import LeanDeclaration, scan_project
from leanbridge.premises import FAILED as PREMISE_FAILED
from leanbridge.premises import PremiseCheck, premise_checks
from leanbridge.render import FamilyFile, build_family_file
from leanbridge.results import (
    DEFAULT_ALLOWLIST,
    EXIT_FAILED,
    EXIT_NO_TOOLCHAIN,
    EXIT_OK,
    FAILURES,
    INFRA_ERROR,
    NOT_RUN,
    SCHEMA,
    STALE,
    TAMPERED,
    TIMEOUT,
    DeclarationResult,
    FileRun,
    decide,
    statement_hash,
    summary,
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


@dataclass
class CheckResult:
    project: str
    started_at: str
    toolchain: Toolchain
    allowlist: list[str]
    timeout_s: float
    lean_status: str = NOT_RUN           # "ran", "not_run", "build_timeout", "build_failed"
    lean_note: str = ""
    build: dict | None = None
    generated_files: list[dict] = field(default_factory=list)
    premises: list[PremiseCheck] = field(default_factory=list)
    records: list[DeclarationResult] = field(default_factory=list)
    duration_s: float = 0.0

    @property
    def exit_code(self) -> int:
        failing_files = [f for f in self.generated_files if f["status"] in
                         generated_files.FAILING]
        if (any(r.verdict in FAILURES for r in self.records) or failing_files
                or any(p.status == PREMISE_FAILED for p in self.premises)):
            return EXIT_FAILED
        if self.lean_status == NOT_RUN:
            return EXIT_NO_TOOLCHAIN
        return EXIT_OK

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
            "lean": {"status": self.lean_status, "note": self.lean_note, "build": self.build},
            "generated_files": self.generated_files,
            "premises": [p.to_dict() for p in self.premises],
            "summary": summary(self.records),
            "exit_code": self.exit_code,
            "results": [r.to_dict() for r in self.records],
        }


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


def describe_toolchain(project: Path, lake: str | None) -> Toolchain:
    pins = read_pins(project)
    version = None
    if lake:
        completed = process.run([lake, "--version"], project, timeout=60)
        text = (completed.stdout or completed.stderr).strip()
        version = text.splitlines()[0] if completed.ok and text else None
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

def family_plans(project: Path) -> list[FamilyFile]:
    """Plans of the catalog families and of the user families whose files are on disk."""
    plans = [build_family_file(family) for family in CATALOG]
    families_dir = project / generated_files.FAMILIES_DIR
    for path in sorted(families_dir.glob("*.lean")) if families_dir.is_dir() else []:
        header = generated_files.parse_header(path.read_text(encoding="utf-8"))
        output = generated_files.rerender_user_file(header) if header else None
        if output is not None:
            plans.append(output.plan)
    return plans


def _records(project: Path, plans: list[FamilyFile], declared: dict[str, LeanDeclaration],
             graph) -> list[DeclarationResult]:
    planned = {d.full_name: (plan, d) for plan in plans for d in plan.declarations
               if d.kind == "theorem"}
    records = []
    for name, declaration in sorted(declared.items(), key=lambda i: (i[1].file, i[1].line)):
        if declaration.kind not in ("theorem", "lemma"):
            continue
        plan, planned_decl = planned.get(name, (None, None))
        role = graph.nodes[name].get("role", "lemma") if name in graph else "lemma"
        header = declaration.text.split(":=", 1)[0]
        records.append(DeclarationResult(
            decl=name, file=declaration.file, line=declaration.line, role=role,
            statement_hash=planned_decl.statement_hash if planned_decl else
            statement_hash(header),
            family=plan.family.name if plan else None,
            argument=planned_decl.argument if planned_decl else None))
    for name, (plan, decl) in sorted(planned.items()):
        if name not in declared:
            records.append(DeclarationResult(
                decl=name, file=plan.path, line=None, role=decl.role,
                statement_hash=decl.statement_hash, family=plan.family.name,
                argument=decl.argument, verdict=STALE,
                detail="not in the Lean sources: run `leanbridge generate`"))
    return records


# -- Lean runs -------------------------------------------------------------------------------

def run_lean_file(lake: str, project: Path, relative: str, theorems: list[str],
                  first_decl_line: int, timeout: float) -> FileRun:
    """Elaborate a copy of the file with ``#print axioms`` appended for its theorems."""
    text = (project / relative).read_text(encoding="utf-8").rstrip("\n")
    first_audit_line = text.count("\n") + 3
    audit = "\n".join(f"#print axioms {name}" for name in theorems)
    with tempfile.TemporaryDirectory(prefix="leanbridge-") as scratch:
        copy = Path(scratch) / Path(relative).name
        copy.write_text(text + "\n\n" + audit + "\n", encoding="utf-8")
        completed = process.run([lake, "env", "lean", "--json", str(copy)], project, timeout)
    if completed.start_error:
        return FileRun([], {}, set(), infra=completed.describe(), seconds=completed.seconds)
    messages, other = parse_json_messages(completed.stdout)
    own = [_relocate(m, relative) for m in messages if m.line < first_audit_line]
    tail = [m for m in messages if m.line >= first_audit_line]
    axioms = parse_axioms("\n".join(m.text for m in tail if m.severity == INFORMATION))
    missing = {theorems[m.line - first_audit_line] for m in tail
               if m.severity == ERROR and 0 <= m.line - first_audit_line < len(theorems)}
    header = next((m for m in own if m.severity == ERROR and m.line < first_decl_line), None)
    infra = None
    header_error = None
    if header is not None:
        if "Mathlib" in header.text:
            infra = ("Mathlib cannot be loaded: run `lake exe cache get` then `lake build` "
                     f"({header.text.splitlines()[0]})")
        else:
            header_error = f"the file cannot be loaded: {header.text.splitlines()[0]}"
    if (completed.returncode not in (0, None) and not completed.timed_out
            and not any(m.severity == ERROR for m in messages)):
        noise = (completed.stderr.strip() or "\n".join(other)).splitlines()[-1:] or [""]
        infra = f"lean {completed.describe()} without reporting an error: {noise[0][:200]}"
    return FileRun(own, axioms, missing, timed_out=completed.timed_out, infra=infra,
                   header_error=header_error, seconds=completed.seconds)


def _relocate(message, relative: str):
    return type(message)(relative, message.line, message.column, message.end_line,
                         message.end_column, message.severity, message.text, message.kind)


def _tail(text: str, lines: int = 20) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


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
        toolchain=describe_toolchain(project, lake_path))

    progress("checking generated files (leanbridge generate --check)")
    statuses = generated_files.check(project)
    result.generated_files = [s.to_dict() for s in statuses]
    file_status = {s.path: s.status for s in statuses}

    plans = family_plans(project)
    progress(f"symbolic premise checks for {len(plans)} families (SymPy)")
    result.premises = [c for plan in plans for c in premise_checks(analyse(plan.family))]

    declared = scan_project(project)
    graph = dependency_graph.build(project, plans)
    records = _records(project, plans, declared, graph)
    result.records = records

    if lake_path is None:
        result.lean_status = NOT_RUN
        result.lean_note = f"not run: no Lean toolchain found (no `lake` on PATH); {ELAN_HINT}"
        for record in records:
            if record.verdict == NOT_RUN:
                record.detail = "no Lean toolchain"
        _apply_file_status(records, file_status)
        result.duration_s = time.monotonic() - started
        return result

    progress(f"lake build (timeout {timeout:.0f} s) …")
    with _ticking(progress, "lake build"):
        build = process.run([lake_path, "build"], project, timeout)
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
    result.lean_note = ("lake build succeeded" if build.ok else
                        f"lake build failed ({build.describe()}); per-file results below")

    by_file: dict[str, list[DeclarationResult]] = {}
    for record in records:
        if record.verdict == NOT_RUN:
            by_file.setdefault(record.file, []).append(record)
    first_lines = {}
    for declaration in declared.values():
        first_lines[declaration.file] = min(first_lines.get(declaration.file, 10**9),
                                            declaration.line)
    ends = _end_lines(declared)
    done = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(run_lean_file, lake_path, project, relative,
                               [r.decl for r in file_records], first_lines.get(relative, 1),
                               timeout): relative
                   for relative, file_records in by_file.items()}
        for future in as_completed(futures):
            relative = futures[future]
            run = future.result()
            done += 1
            for record in by_file[relative]:
                decide(record, run, frozenset(allowlist), ends.get(record.decl))
            verdicts = sorted({r.verdict for r in by_file[relative]})
            progress(f"[{done}/{len(futures)}] {relative}: {', '.join(verdicts)} "
                     f"({run.seconds:.1f} s)")
    _apply_file_status(records, file_status)
    _explain(records, graph)
    result.duration_s = time.monotonic() - started
    return result


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
    failed = {r.decl: r.verdict for r in records if r.verdict in FAILURES}
    for record in records:
        if record.verdict not in FAILURES:
            continue
        causes = dependency_graph.failed_dependencies(graph, record.decl, set(failed))
        record.failed_dependencies = causes
        if causes:
            first = causes[0]
            record.detail += (f"; fails because {first} failed ({failed[first]})"
                              if record.detail else
                              f"fails because {first} failed ({failed[first]})")
