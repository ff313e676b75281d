"""Parse what Lean and Lake print: ``lake build`` logs, ``lean --json`` messages, ``#print axioms``.

**``lake build``** has no structured output (``--json`` belongs to ``lake query``), so its text
log is parsed, in the format the pinned Lake writes it (read in ``src/lake/Lake/Build/Run.lean``
and ``src/lake/Lake/Util/Log.lean``):

* one line per finished job, ``{icon} [{n}/{total}] {verb} {caption}[ ({time})]``, icon ``✔``
  (clean), ``ℹ`` (info), ``⚠`` (warnings), ``✖`` (failed); for a module the caption is the module
  name;
* under it the job's log, one entry per Lean message, ``{level}: {file}:{line}:{col}: {text}``
  (``LogEntry.toString`` of ``LogEntry.ofSerialMessage``: level ``info``/``warning``/``error``,
  the file relative to the package, the message text trimmed, continued on the next lines);
  Lake's own entries (``error: Lean exited with code 1``) have no position;
* at the end, when jobs failed, ``Some required targets logged failures:`` and ``- {caption}``
  per failed job (``reportResult``; older Lakes said ``Some required builds logged failures:`` or
  ``Some builds logged failures:``, all three are read), then ``error: build failed``;
* a module whose Lean process died without a message (killed for memory, a crash) has no
  positioned entry at all: ``compileLeanModule`` (``src/lake/Lake/Build/Actions.lean``) logs
  what Lean printed as ``info: stdout:`` / ``info: stderr:`` and then ``error: Lean exited with
  code {n}``; the module is still marked ``✖`` and listed as failed;
* on a terminal (ANSI), job lines and levels are coloured (``Ansi.chalk``) and a spinner line
  ``⣾ [i/n] Running …`` is redrawn behind ``\\x1b[2K\\r``: colours are removed, and spinner
  lines are skipped;
* the file of a positioned entry is the module's path relative to the package
  (``relPathFrom``); Lakes before that printed it with ``./`` prefixes, one per joined
  relative directory (``././SkipAbsorption/A.lean``, ``././././SkipAbsorption/A.lean``): every
  leading ``./`` is dropped.

The fixtures in ``tests/fixtures/lean_output/`` (README there: where each format was read) are
our own logs written in these formats; the parser is tested against them.

**``lean --json``** prints one JSON object per line (Lean's ``SerialMessage``: ``fileName``,
``pos {line, column}``, ``endPos``, ``severity``, ``caption``, ``data``, ``kind``). Lines that
are not such objects (Lake's own chatter, garbage) are kept apart, never guessed at.

**``#print axioms X``** answers ``'X' depends on axioms: [a, b]`` or ``'X' does not depend on any
axioms`` (``src/Lean/Elab/Print.lean``); the list is sorted by ``Name.lt`` and, being a
``MessageData`` list, wraps onto indented lines when longer than the format width. A private
constant prints under its mangled name ``_private.<Module>.<n>.<name>``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

ERROR = "error"
WARNING = "warning"
INFORMATION = "information"

_AXIOMS = re.compile(
    r"'(?P<name>\S+?)' (?:depends on axioms: \[(?P<axioms>[^\]]*)\]"
    r"|(?P<none>does not depend on any axioms))")
_HEARTBEATS = re.compile(r"maximum number of heartbeats|deterministic\) timeout", re.I)
# `declaration uses 'sorry'` (older Lean) and `declaration uses `sorry`` (Lean ≥ PR #10034).
_SORRY_WARNING = re.compile(r"declaration uses ['`]sorry['`]")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_JOB = re.compile(r"^(?P<icon>[✔ℹ⚠✖]) \[(?P<n>\d+)/(?P<total>\d+)\](?: \(Optional\))? "
                  r"(?P<verb>\S+) (?P<caption>\S+)(?: \((?P<time>[\d.]+m?s)\))?\s*$")
_ENTRY = re.compile(r"^(?P<level>trace|info|warning|error): (?P<message>.*)$")
_POSITION = re.compile(r"^(?P<file>[^\s:][^:]*\.lean):(?P<line>\d+):(?P<col>\d+)"
                       r"(?:-(?P<end_line>\d+):(?P<end_col>\d+))?: ?(?P<text>.*)$", re.S)
# The progress line Lake redraws on a terminal (``renderProgress``: a spinner frame, then
# ``[{jobNo}/{totalJobs}] Running …``), cut off by ``\x1b[2K\r``: not part of any entry.
_PROGRESS = re.compile(r"^[⣾⣷⣯⣟⡿⢿⣻⣽] \[\d+/\d+\] Running ")
_FAILURES = re.compile(r"^Some (?:required )?(?:builds|targets) logged failures:\s*$")
_DOT_PREFIX = re.compile(r"^(?:\./)+")
_LEVELS = {"info": INFORMATION, "warning": WARNING, "error": ERROR, "trace": INFORMATION}


@dataclass(frozen=True)
class Message:
    """One Lean message, with its position (1-based line, 0-based column as Lean gives it)."""

    file: str
    line: int
    column: int
    end_line: int | None
    end_column: int | None
    severity: str
    text: str
    kind: str = ""

    @property
    def is_heartbeat_timeout(self) -> bool:
        return heartbeat_timeout(self.severity, self.text)

    @property
    def is_sorry_warning(self) -> bool:
        return sorry_warning(self.severity, self.text)

    def to_dict(self) -> dict:
        return {"severity": self.severity, "file": self.file, "line": self.line,
                "column": self.column, "end_line": self.end_line,
                "end_column": self.end_column, "kind": self.kind, "text": self.text}


# Deciding properties delegate to plain functions: mutmut mutates no decorated function.

def heartbeat_timeout(severity: str, text: str) -> bool:
    """An error saying Lean's deterministic (heartbeat) limit was reached."""
    return severity == ERROR and bool(_HEARTBEATS.search(text))


def sorry_warning(severity: str, text: str) -> bool:
    """Lean's warning ``declaration uses `sorry``` (either quoting)."""
    return severity == WARNING and bool(_SORRY_WARNING.search(text))


def parse_json_messages(output: str) -> tuple[list[Message], list[str]]:
    """(messages, other non-empty lines) from ``lean --json`` output."""
    messages, other = [], []
    for raw in output.splitlines():
        line = raw.strip()
        if not line:
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            other.append(raw)
            continue
        if not isinstance(data, dict) or "severity" not in data or "data" not in data:
            other.append(raw)
            continue
        pos = data.get("pos") or {}
        end = data.get("endPos") or {}
        messages.append(Message(
            file=str(data.get("fileName", "")),
            line=int(pos.get("line") or 0),
            column=int(pos.get("column") or 0),
            end_line=end.get("line"), end_column=end.get("column"),
            severity=str(data["severity"]),
            text=str(data["data"]),
            kind=str(data.get("kind") or "")))
    return messages, other


def user_name(name: str) -> str:
    """The name a private constant was declared with (``_private.M.0.A.b`` → ``A.b``).

    Mirrors Lean's ``privateToUserName``: the prefix up to the first numeric component goes.
    """
    if not name.startswith("_private."):
        return name
    parts = name.split(".")
    for index, part in enumerate(parts[1:], start=1):
        if part.isdigit():
            return ".".join(parts[index + 1:]) or name
    return name


def parse_axioms(text: str) -> dict[str, list[str]]:
    """``{declaration: [axioms]}`` from the answers of ``#print axioms`` (private names unmangled)."""
    found: dict[str, list[str]] = {}
    for match in _AXIOMS.finditer(" ".join(text.split())):
        name = user_name(match["name"])
        if match["none"]:
            found[name] = []
        else:
            found[name] = [a.strip() for a in match["axioms"].split(",") if a.strip()]
    return found


# -- lake build ------------------------------------------------------------------------------

@dataclass
class Job:
    """One finished job of a ``lake build`` run, with the entries logged under it."""

    caption: str
    icon: str
    verb: str
    messages: list[Message] = field(default_factory=list)   # positioned Lean messages
    notes: list[str] = field(default_factory=list)          # Lake's own entries ("error: …")

    @property
    def failed(self) -> bool:
        return job_failed(self.icon)


@dataclass
class BuildLog:
    """What a ``lake build`` printed, parsed."""

    jobs: list[Job]
    failures: list[str]           # captions under "Some required targets logged failures:"
    other: list[str]              # lines that are neither job lines nor log entries

    @property
    def messages(self) -> list[Message]:
        return [m for job in self.jobs for m in job.messages]

    @property
    def failed_captions(self) -> list[str]:
        return failed_captions(self.jobs, self.failures)


def job_failed(icon: str) -> bool:
    """Lake marks a failed job ``✖`` (``LogLevel.icon`` of ``.error``)."""
    return icon == "✖"


def failed_captions(jobs: list[Job], failures: list[str]) -> list[str]:
    """The failed jobs (``✖``) and those of the failure list, each once, in order."""
    seen = [j.caption for j in jobs if job_failed(j.icon)] + failures
    return list(dict.fromkeys(seen))


def _entry_message(level: str, message: str) -> Message | None:
    match = _POSITION.match(message)
    if match is None:
        return None
    return Message(_DOT_PREFIX.sub("", match["file"]), int(match["line"]), int(match["col"]),
                   int(match["end_line"]) if match["end_line"] else None,
                   int(match["end_col"]) if match["end_col"] else None,
                   _LEVELS[level], match["text"].strip())


def parse_build_log(output: str) -> BuildLog:
    """Parse the text of ``lake build`` (stdout and stderr together; ANSI colours ignored)."""
    jobs: list[Job] = []
    failures: list[str] = []
    other: list[str] = []
    current: Job | None = None
    entry: tuple[str, list[str]] | None = None     # (level, lines) of the entry being read
    in_failures = False

    def flush() -> None:
        nonlocal entry
        if entry is None:
            return
        level, lines = entry
        entry = None
        text = "\n".join(lines).rstrip()
        message = _entry_message(level, text)
        if current is None:
            other.append(f"{level}: {text}")
        elif message is not None:
            current.messages.append(message)
        else:
            current.notes.append(f"{level}: {text}")

    for line in _ANSI.sub("", output).splitlines():     # splitlines also ends lines at \r
        job = _JOB.match(line)
        if job:
            flush()
            in_failures = False
            current = Job(job["caption"], job["icon"], job["verb"])
            jobs.append(current)
            continue
        if _PROGRESS.match(line):
            flush()
            continue
        if _FAILURES.match(line):
            flush()
            in_failures, current = True, None
            continue
        if in_failures and line.startswith("- "):
            failures.append(line[2:].strip())
            continue
        found = _ENTRY.match(line)
        if found and (current is not None or found["level"] == "error"):
            flush()
            entry = (found["level"], [found["message"]])
            continue
        if entry is not None:
            entry[1].append(line)
            continue
        if line.strip():
            other.append(line)
    flush()
    return BuildLog(jobs, failures, other)
