"""Child processes that a test interrupts with SIGINT (Ctrl-C).

A shell ignores SIGINT in the jobs it starts in the background (``pytest … &``, ``nohup``, some
CI runners), the ignored disposition is inherited, and Python does not install its Ctrl-C
handler when SIGINT is ignored at start-up: the child would never see the test's SIGINT. So
:func:`running` gives the child the default disposition, as it has from an interactive shell,
and kills it if the test ends first (no stray process after a failing test)."""

import signal
import subprocess
import time
from contextlib import contextmanager


def default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def running(args: list[str], **popen):
    """``subprocess.Popen(args, **popen)`` with SIGINT at its default, killed on exit if alive."""
    process = subprocess.Popen(args, preexec_fn=default_sigint, **popen)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def interrupt(process: subprocess.Popen, timeout: float = 60) -> tuple[str, str, float]:
    """Send SIGINT and wait: ``(stdout, stderr, seconds from the signal to the exit)``."""
    sent = time.perf_counter()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=timeout)
    return out, err, time.perf_counter() - sent
