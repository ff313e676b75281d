"""Atomic file writes: a temporary file in the target's directory, then a rename.

An interrupted run (Ctrl-C, a kill, a crash) leaves either the old file or the new one, never a
half-written report or Lean file. The new file gets the mode an ordinary ``open`` would give
it (``0666`` less the umask, typically ``0644``), or the mode of the file it replaces.
:func:`check_writable` tells, before any work is done, whether a target can be written.

Only regular files are replaced: a target that exists and is a symbolic link, a FIFO, a device
(``/dev/full``, ``/dev/null``), a socket or a directory is refused (:func:`refuse_special`) —
a rename would put a file in place of the device node or the link. :func:`atomic_file` gives
writers that want a path (NumPy, safetensors, Matplotlib) the same temporary-and-rename.
"""

from __future__ import annotations

import contextlib
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


_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def refuse_special(target: Path) -> None:
    """Raise :class:`UnwritableError` when ``target`` exists and is not a regular file (a
    symbolic link — even to a regular file —, a FIFO, a device, a socket, a directory)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UnwritableError(f"cannot inspect {target}: {exc.strerror or exc}") from None
    if stat.S_ISREG(mode):
        return
    kind = next((text for test, text in _KINDS if test(mode)), "not a regular file")
    if kind == "a directory":
        raise UnwritableError(f"{target} is a directory, not a file")
    raise UnwritableError(f"{target} exists and is {kind}, not a regular file; refusing to "
                          "replace it")


def check_writable(target: Path) -> None:
    """Raise :class:`UnwritableError` unless :func:`atomic_write` can write ``target``.

    ``target`` must not be a directory; its nearest existing ancestor must be a directory in
    which a file can be created (tried for real: permissions, read-only file systems and
    immutable directories all count).
    """
    target = Path(target)
    refuse_special(target)
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


def _temporary_beside(target: Path) -> tuple[int, str]:
    """A new temporary file in ``target``'s directory (made if missing), after refusing a target
    that exists and is not a regular file: its descriptor and path."""
    refuse_special(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    return tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)


def write_temporary(target: Path, text: str) -> Path:
    """Write ``text`` to a new temporary file beside ``target`` (its final mode already set)."""
    target = Path(target)
    handle, temporary = _temporary_beside(target)
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


@contextlib.contextmanager
def atomic_file(target: Path):
    """``with atomic_file(target) as path:`` — write the file at ``path`` (a temporary beside
    ``target``); when the block ends without an error it gets the final mode (``0666`` less
    the umask, or the mode of the file it replaces) and replaces ``target``; otherwise it is
    removed. For writers that take a path."""
    target = Path(target)
    handle, temporary = _temporary_beside(target)
    try:
        os.close(handle)
        yield Path(temporary)
        # After the writer: some replace the file they are given by one of their own
        # (safetensors writes 0600 files that way), so the mode is set last.
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def open_stream(target: Path):
    """A text stream on ``target`` for output written as it is produced (``scan --jsonl``:
    each line is flushed, so what was written survives an interruption): created with the
    mode ``open`` gives (``0666`` less the umask), or truncated keeping its mode; refused when
    it exists and is not a regular file."""
    target = Path(target)
    refuse_special(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    return os.fdopen(os.open(target, flags, 0o666), "w", encoding="utf-8", newline="\n")
