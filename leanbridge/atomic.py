"""Atomic file writes: a temporary file in the target's directory, then a rename.

An interrupted run (Ctrl-C, a kill, a crash) leaves either the old file or the new one, never a
half-written report or Lean file. The new file gets the mode an ordinary ``open`` would give
it (``0666`` less the umask, typically ``0644``), or the mode of the file it replaces.
:func:`check_writable` tells, before any work is done, whether a target can be written.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class UnwritableError(OSError):
    """The target cannot be written (the message says why, in one line)."""


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode_for(target: Path) -> int:
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


def check_writable(target: Path) -> None:
    """Raise :class:`UnwritableError` unless :func:`atomic_write` can write ``target``.

    ``target`` must not be a directory; its nearest existing ancestor must be a directory in
    which a file can be created (tried for real: permissions, read-only file systems and
    immutable directories all count).
    """
    target = Path(target)
    if target.is_dir():
        raise UnwritableError(f"{target} is a directory, not a file")
    try:
        check_directory_writable(target.parent)
    except UnwritableError as exc:
        raise UnwritableError(f"cannot write {target}: {exc}") from None


def check_directory_writable(directory: Path) -> None:
    """Raise :class:`UnwritableError` unless files can be created in ``directory`` (or, if it
    does not exist yet, in its nearest existing ancestor, where it would be created)."""
    ancestor = Path(directory)
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise UnwritableError(f"{ancestor} is not a directory")
    try:
        handle, probe = tempfile.mkstemp(prefix=".leanbridge-probe.", dir=ancestor)
    except OSError as exc:
        raise UnwritableError(f"{ancestor} is not writable ({exc.strerror or exc})") from None
    os.close(handle)
    os.unlink(probe)


def write_temporary(target: Path, text: str) -> Path:
    """Write ``text`` to a new temporary file beside ``target`` (its final mode already set)."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                         dir=target.parent)
    try:
        os.fchmod(handle, _mode_for(target))
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return Path(temporary)


def atomic_write(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` via a temporary file and a rename."""
    target = Path(target)
    temporary = write_temporary(target, text)
    try:
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
