"""One record per Lean declaration, with a closed verdict, and the rule that decides it.

Verdicts (``leanbridge.check/1``):

``proved``          elaborated without error, axioms ⊆ allowlist (by ``#print axioms``)
``sorry``           ``sorryAx`` among its axioms (decided by axioms, never by message text)
``axiom_violation`` an axiom outside the allowlist
``error``           an error message inside the declaration (or its file cannot be elaborated)
``timeout``         a wall-clock kill, or Lean's own heartbeat limit (the detail says which)
``missing_decl``    leanbridge expects it, Lean's environment does not have it
``stale``           its generated file is out of date or missing (``leanbridge generate``)
``tampered``        its generated file was edited by hand
``not_run``         no Lean toolchain: nothing was checked
``infra_error``     the toolchain failed around the proof (Mathlib not built, garbage output)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from leanbridge.lean.messages import ERROR, Message

SCHEMA = "leanbridge.check/1"

PROVED = "proved"
SORRY = "sorry"
AXIOM_VIOLATION = "axiom_violation"
ERROR_VERDICT = "error"
TIMEOUT = "timeout"
MISSING_DECL = "missing_decl"
STALE = "stale"
TAMPERED = "tampered"
NOT_RUN = "not_run"
INFRA_ERROR = "infra_error"
VERDICTS = (PROVED, SORRY, AXIOM_VIOLATION, ERROR_VERDICT, TIMEOUT, MISSING_DECL, STALE,
            TAMPERED, NOT_RUN, INFRA_ERROR)
FAILURES = frozenset(VERDICTS) - {PROVED, NOT_RUN}

DEFAULT_ALLOWLIST = ("propext", "Classical.choice", "Quot.sound")

#: Exit codes, in order of precedence: usage error > failure > no toolchain > success.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_NO_TOOLCHAIN = 0, 1, 2, 3


def statement_hash(statement: str) -> str:
    return hashlib.sha256(" ".join(statement.split()).encode("utf-8")).hexdigest()[:16]


@dataclass
class DeclarationResult:
    """The record of one Lean declaration."""

    decl: str
    file: str                        # relative to the Lake project
    line: int | None
    role: str                        # family_theorem, bridge, general, premise, lemma
    statement_hash: str
    family: str | None = None
    argument: str | None = None
    verdict: str = NOT_RUN
    detail: str = ""
    axioms: list[str] | None = None
    messages: list[Message] = field(default_factory=list)
    time_s: float | None = None
    failed_dependencies: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.family}.{self.decl.rsplit('.', 1)[-1]}" if self.family else self.decl

    def to_dict(self) -> dict:
        return {
            "id": self.id, "decl": self.decl, "family": self.family, "argument": self.argument,
            "role": self.role, "file": self.file, "line": self.line,
            "statement_hash": self.statement_hash, "verdict": self.verdict,
            "detail": self.detail, "axioms": self.axioms,
            "messages": [m.to_dict() for m in self.messages], "time_s": self.time_s,
            "failed_dependencies": self.failed_dependencies,
        }


@dataclass(frozen=True)
class FileRun:
    """What one Lean run over a file said (``None`` fields: that part did not happen)."""

    messages: list[Message]
    axioms: dict[str, list[str]]
    missing: set[str]                # names Lean reported as unknown constants
    timed_out: bool = False
    infra: str | None = None         # why the run says nothing about the proofs
    header_error: str | None = None  # an error in the import header (the file cannot load)
    seconds: float = 0.0


def decide(record: DeclarationResult, run: FileRun, allowlist: frozenset[str],
           end_line: int | None) -> None:
    """Set ``record.verdict``/``detail``/``axioms``/``messages`` from the file's Lean run."""
    start = record.line or 0
    record.messages = [m for m in run.messages
                       if start <= m.line and (end_line is None or m.line < end_line)]
    record.time_s = round(run.seconds, 3)
    record.axioms = run.axioms.get(record.decl)
    errors = [m for m in record.messages if m.severity == ERROR]
    if run.infra is not None:
        record.verdict, record.detail = INFRA_ERROR, run.infra
    elif run.timed_out:
        record.verdict, record.detail = TIMEOUT, "wall-clock: the Lean process was killed"
    elif any(m.is_heartbeat_timeout for m in errors):
        record.verdict, record.detail = TIMEOUT, "heartbeats: Lean's deterministic limit"
    elif errors:
        record.verdict, record.detail = ERROR_VERDICT, errors[0].text.splitlines()[0]
    elif run.header_error is not None:
        record.verdict, record.detail = ERROR_VERDICT, run.header_error
    elif record.decl in run.missing:
        record.verdict, record.detail = MISSING_DECL, "Lean's environment has no such constant"
    elif record.axioms is None:
        record.verdict, record.detail = INFRA_ERROR, "no axiom report for this declaration"
    elif "sorryAx" in record.axioms:
        record.verdict, record.detail = SORRY, "depends on sorryAx"
    elif set(record.axioms) - allowlist:
        extra = ", ".join(sorted(set(record.axioms) - allowlist))
        record.verdict, record.detail = AXIOM_VIOLATION, f"axioms outside the allowlist: {extra}"
    else:
        record.verdict, record.detail = PROVED, ""


def summary(records: list[DeclarationResult]) -> dict[str, int]:
    counts = {verdict: 0 for verdict in VERDICTS}
    for record in records:
        counts[record.verdict] += 1
    counts["total"] = len(records)
    return counts
