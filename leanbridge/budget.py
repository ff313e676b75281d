"""A wall-clock budget for a computation that may not terminate in reasonable time.

SymPy can take minutes on an expression within the size limits of
:mod:`leanbridge.expression` (e.g. ``exp`` nested a dozen times). :func:`time_budget` stops
such a computation with :class:`BudgetExceeded` after ``seconds``: a ``SIGALRM`` timer, so it
applies in the main thread of a POSIX process (elsewhere it does nothing and the computation
runs unbounded). A ``RecursionError`` inside the budget becomes :class:`BudgetExceeded` too.

Budgets nest: an inner budget (e.g. the recession limits inside ``analyse``) never outlives the
outer one, and when it ends the outer timer is re-armed with what is left of it.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager

#: The default budget of ``leanbridge analyse`` and ``generate --expr`` (seconds).
DEFAULT_SECONDS = 60.0


class BudgetExceeded(RuntimeError):
    """The computation did not finish within its budget (or recursed too deeply)."""


def _available() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_budget(seconds: float | None, what: str = "the analysis"):
    """Run the ``with`` body for at most ``seconds`` (None or 0: no budget)."""
    if not seconds or not _available():
        try:
            yield
        except RecursionError:
            raise BudgetExceeded(f"{what} recursed too deeply") from None
        return

    outer_left = signal.getitimer(signal.ITIMER_REAL)[0]   # 0.0: no outer budget running
    capped = bool(outer_left) and outer_left < seconds
    limit = outer_left if capped else seconds

    def expire(signum, frame):
        raise BudgetExceeded(f"{what} did not finish within {limit:.3g} s"
                             + (" (what was left of the time budget)" if capped else ""))

    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    except RecursionError:
        raise BudgetExceeded(f"{what} recursed too deeply") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_left:
            # the outer budget goes on with what is left of it (at once if nothing is)
            left = outer_left - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))
