"""One BLAS thread for loops over many tiny matrices (``threadpoolctl``, in the numeric extra).

The deep probe's fits (a few dozen parameters) and the (ND) enumeration (millions of d×d
matrices) call BLAS/LAPACK on tiny arrays, where OpenBLAS's thread start-up dominates: on a busy
two-core machine L-BFGS-B ran ten times slower with the default threads. Without threadpoolctl
nothing is limited (same numbers, slower).
"""

from __future__ import annotations

import contextlib


def single_threaded_blas():
    """A context manager limiting BLAS to one thread (a no-op without threadpoolctl)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")
