"""The Lake project on disk: its pins (Lean toolchain, Mathlib rev) as its files state them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

_MATHLIB_REV = re.compile(r'name\s*=\s*"mathlib"[^\[]*?rev\s*=\s*"([^"]+)"', re.S)


@dataclass(frozen=True)
class Pins:
    lean_toolchain: str | None   # contents of lean-toolchain
    mathlib_rev: str | None      # the rev lakefile.toml requires
    mathlib_commit: str | None   # the commit lake-manifest.json resolved it to, if present


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def read_pins(project: Path) -> Pins:
    toolchain = _read(project / "lean-toolchain")
    rev = _MATHLIB_REV.search(_read(project / "lakefile.toml") or "")
    commit = None
    manifest = _read(project / "lake-manifest.json")
    if manifest:
        try:
            commit = next((p.get("rev") for p in json.loads(manifest).get("packages", [])
                           if p.get("name") == "mathlib"), None)
        except (json.JSONDecodeError, AttributeError):
            commit = None
    return Pins(toolchain.strip() if toolchain else None, rev.group(1) if rev else None, commit)
