"""Atomic file writes: a temporary file in the target's directory, then a rename.

An interrupted run (Ctrl-C, a kill, a crash) leaves either the old file or the new one, never a
half-written report or Lean file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` via a temporary file and a rename."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                         dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
