"""Run a toolchain subprocess (``lake``) with a wall-clock timeout that kills the whole group.

Lean spawns worker processes; killing only the direct child would leave them running. Each
command therefore starts in a new session (its own process group), and on timeout the group is
killed. The result records whether the kill happened, so a wall-clock kill is reported apart
from Lean's own (deterministic) heartbeat timeouts.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Completed:
    """What a subprocess did."""

    command: tuple[str, ...]
    returncode: int | None     # None when it was killed or could not start
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    start_error: str | None = None

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and self.start_error is None

    def describe(self) -> str:
        if self.start_error:
            return f"could not start {self.command[0]}: {self.start_error}"
        if self.timed_out:
            return f"killed after {self.seconds:.0f} s (wall-clock timeout)"
        return f"exit code {self.returncode}"


def run(command: list[str], cwd: Path, timeout: float,
        env: dict[str, str] | None = None) -> Completed:
    """Run ``command`` in ``cwd``; kill its process group after ``timeout`` seconds."""
    started = time.monotonic()
    try:
        process = subprocess.Popen(
            command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            encoding="utf-8", errors="replace", start_new_session=True,
            env={**os.environ, **(env or {})})
    except OSError as exc:
        return Completed(tuple(command), None, "", "", 0.0, start_error=str(exc))
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        return Completed(tuple(command), process.returncode, stdout, stderr,
                         time.monotonic() - started)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        stdout, stderr = process.communicate()
        return Completed(tuple(command), None, stdout or "", stderr or "",
                         time.monotonic() - started, timed_out=True)
    except BaseException:
        _kill_group(process)
        process.communicate()
        raise


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()
