"""One record per Lean declaration, with a closed verdict, and the rule that decides it.

Verdicts (``leanbridge.check/1``):

``proved``          its module built, no error in it, axioms ⊆ allowlist (by ``#print axioms``)
``proved_modulo_premise``
                    the same evidence as ``proved``, for a theorem whose statement takes a
                    premise as a named hypothesis (``(hσ : …)``): Lean proved the theorem, the
                    premise is verified by SymPy only (:attr:`DeclarationResult.premises`, with
                    the status of its SymPy re-verification in the same run). Not a failure; the
                    exit code is 0 only if every such premise was ``verified`` in that run
                    (:func:`unverified_premises`)
``sorry``           ``sorryAx`` among its axioms (which follow every dependency), or Lean's
                    "declaration uses sorry" warning inside it (it never makes a theorem proved)
``axiom_violation`` an axiom outside the allowlist
``error``           an error message inside the declaration, or its module failed to build, or
                    it imports a module that did (Lake does not build it), or no library root
                    imports its module
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
PROVED_MODULO_PREMISE = "proved_modulo_premise"
SORRY = "sorry"
AXIOM_VIOLATION = "axiom_violation"
ERROR_VERDICT = "error"
TIMEOUT = "timeout"
MISSING_DECL = "missing_decl"
STALE = "stale"
TAMPERED = "tampered"
NOT_RUN = "not_run"
INFRA_ERROR = "infra_error"
VERDICTS = (PROVED, PROVED_MODULO_PREMISE, SORRY, AXIOM_VIOLATION, ERROR_VERDICT, TIMEOUT,
            MISSING_DECL, STALE, TAMPERED, NOT_RUN, INFRA_ERROR)
FAILURES = frozenset(VERDICTS) - {PROVED, PROVED_MODULO_PREMISE, NOT_RUN}
#: The SymPy status a premise hypothesis needs for the check to be green (premises.VERIFIED).
PREMISE_VERIFIED = "verified"

DEFAULT_ALLOWLIST = ("propext", "Classical.choice", "Quot.sound")


def statement_hash(statement: str) -> str:
    return hashlib.sha256(" ".join(statement.split()).encode("utf-8")).hexdigest()[:16]


# The deciding properties below delegate to plain functions: mutmut (README, "Development")
# mutates no decorated function.

def premise_verified(sympy_status: str) -> bool:
    """A premise counts as verified only with SymPy's ``verified`` in this run."""
    return sympy_status == PREMISE_VERIFIED


def not_verified(premises: list["PremiseRecord"]) -> list["PremiseRecord"]:
    return [p for p in premises if not premise_verified(p.sympy_status)]


@dataclass
class PremiseRecord:
    """A premise a theorem takes as a named hypothesis, and what SymPy said of it in this run.

    ``statement`` is the hypothesis as the Lean theorem states it; ``sympy_status`` is the
    status of the symbolic premise check that re-verifies it (verified / failed / unknown; or
    unknown when no check covers it), ``sympy_statement`` what that check asked SymPy.
    """

    binder: str
    kind: str
    statement: str
    reason: str
    sympy_status: str = "unknown"
    sympy_statement: str = ""

    @property
    def verified(self) -> bool:
        return premise_verified(self.sympy_status)

    def describe(self) -> str:
        return f"{self.binder} : {self.statement}"

    def to_dict(self) -> dict:
        return {"binder": self.binder, "kind": self.kind, "statement": self.statement,
                "reason": self.reason, "verified_by": "sympy", "verified_by_lean": False,
                "sympy_status": self.sympy_status, "sympy_statement": self.sympy_statement}


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
    #: the premises its statement takes as named hypotheses (empty: none)
    premises: list[PremiseRecord] = field(default_factory=list)
    #: a user family's premise lemma: the certificate rule whose Lean pattern proves it
    certificate_rule: str | None = None

    @property
    def unverified_premises(self) -> list[PremiseRecord]:
        return not_verified(self.premises)

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
            "premises": [p.to_dict() for p in self.premises],
            "certificate_rule": self.certificate_rule,
        }


@dataclass(frozen=True)
class Evidence:
    """What Lean said about one theorem, gathered by the check (``None``: that part did not happen).

    ``module_failure``: its module failed to build, or imports one that did (the message says
    which). ``messages``: the build's messages inside the declaration. ``axioms``: the answer of
    ``#print axioms`` in the audit run (``None`` when there is none). ``missing``: the audit
    reported the constant unknown. ``timed_out`` / ``infra``: the Lean process that had to
    answer was killed / failed around the proofs.
    """

    messages: tuple[Message, ...] = ()
    axioms: tuple[str, ...] | None = None
    module_failure: str | None = None
    missing: bool = False
    timed_out: bool = False
    infra: str | None = None
    seconds: float | None = None


def decide(record: DeclarationResult, evidence: Evidence, allowlist: frozenset[str]) -> None:
    """Set ``record.verdict``/``detail``/``axioms``/``messages`` from the evidence.

    The first rule that applies wins; ``proved`` only when every other rule is excluded:
    infra_error > timeout (wall-clock, then heartbeats) > error (own error message, then module
    failure) > missing_decl > infra_error (no axiom report) > sorry (``sorryAx``, or Lean's
    "declaration uses sorry" warning) > axiom_violation > proved; ``proved`` becomes
    ``proved_modulo_premise`` when the record has premises (named hypotheses).
    """
    record.messages = list(evidence.messages)
    record.time_s = round(evidence.seconds, 3) if evidence.seconds is not None else None
    record.axioms = list(evidence.axioms) if evidence.axioms is not None else None
    record.verdict, record.detail = _verdict(evidence, allowlist)
    if record.verdict == PROVED and record.premises:
        record.verdict = PROVED_MODULO_PREMISE
        record.detail = modulo_detail(record.premises)


def modulo_detail(premises: list[PremiseRecord]) -> str:
    """"proved by Lean modulo hσ : … (verified by SymPy, not by Lean)", per premise."""
    parts = []
    for premise in premises:
        sympy = ("verified by SymPy, not by Lean" if premise.verified else
                 f"NOT verified by SymPy in this run: {premise.sympy_status}; not by Lean")
        parts.append(f"{premise.describe()} ({sympy})")
    return "proved by Lean modulo " + "; ".join(parts)


def unverified_premises(records: list[DeclarationResult]) -> list[DeclarationResult]:
    """Theorems stated modulo a premise that SymPy did not verify in this run (whatever Lean
    said of the theorem): none may be green."""
    return [r for r in records if r.unverified_premises]


def _verdict(evidence: Evidence, allowlist: frozenset[str]) -> tuple[str, str]:
    errors = [m for m in evidence.messages if m.severity == ERROR]
    if evidence.infra is not None:
        return INFRA_ERROR, evidence.infra
    if evidence.timed_out:
        return TIMEOUT, "wall-clock: the Lean process was killed"
    if any(m.is_heartbeat_timeout for m in errors):
        return TIMEOUT, "heartbeats: Lean's deterministic limit"
    if errors:
        return ERROR_VERDICT, errors[0].text.splitlines()[0]
    if evidence.module_failure is not None:
        return ERROR_VERDICT, evidence.module_failure
    if evidence.missing:
        return MISSING_DECL, "Lean's environment has no such constant"
    if evidence.axioms is None:
        return INFRA_ERROR, "no axiom report for this declaration"
    if "sorryAx" in evidence.axioms:
        return SORRY, "depends on sorryAx"
    if any(m.is_sorry_warning for m in evidence.messages):
        return SORRY, "Lean warned: declaration uses sorry"
    extra = sorted(set(evidence.axioms) - allowlist)
    if extra:
        return AXIOM_VIOLATION, f"axioms outside the allowlist: {', '.join(extra)}"
    return PROVED, ""


def summary(records: list[DeclarationResult]) -> dict[str, int]:
    counts = {verdict: 0 for verdict in VERDICTS}
    for record in records:
        counts[record.verdict] += 1
    counts["total"] = len(records)
    return counts
