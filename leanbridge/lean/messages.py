"""Parse what Lean prints: ``lean --json`` messages and ``#print axioms`` answers.

``lake env lean --json FILE`` prints one JSON object per line (Lean's ``SerialMessage``:
``fileName``, ``pos {line, column}``, ``endPos``, ``severity``, ``caption``, ``data``, ``kind``).
Lines that are not such objects (Lake's own chatter, garbage) are kept apart, never guessed at.
``#print axioms X`` answers ``'X' depends on axioms: [a, b]`` or ``'X' does not depend on any
axioms``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"
INFORMATION = "information"

_AXIOMS = re.compile(
    r"'(?P<name>\S+?)' (?:depends on axioms: \[(?P<axioms>[^\]]*)\]"
    r"|(?P<none>does not depend on any axioms))")
_HEARTBEATS = re.compile(r"maximum number of heartbeats|deterministic\) timeout", re.I)


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
        return self.severity == ERROR and bool(_HEARTBEATS.search(self.text))

    def to_dict(self) -> dict:
        return {"severity": self.severity, "file": self.file, "line": self.line,
                "column": self.column, "end_line": self.end_line,
                "end_column": self.end_column, "kind": self.kind, "text": self.text}


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
            line=int(pos.get("line", 0) or 0),
            column=int(pos.get("column", 0) or 0),
            end_line=end.get("line"), end_column=end.get("column"),
            severity=str(data["severity"]),
            text=str(data["data"]),
            kind=str(data.get("kind", "") or "")))
    return messages, other


def parse_axioms(text: str) -> dict[str, list[str]]:
    """``{declaration: [axioms]}`` from the answers of ``#print axioms``."""
    found: dict[str, list[str]] = {}
    for match in _AXIOMS.finditer(" ".join(text.split())):
        if match["none"]:
            found[match["name"]] = []
        else:
            found[match["name"]] = [a.strip() for a in match["axioms"].split(",") if a.strip()]
    return found
