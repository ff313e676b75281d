"""For tests that interrupt a child process with SIGINT (Ctrl-C).

A shell ignores SIGINT in the jobs it starts in the background (``pytest … &``, ``nohup``, some
CI runners), the ignored disposition is inherited, and Python does not install its Ctrl-C
handler when SIGINT is ignored at start-up: the child would never see the test's SIGINT.
``Popen(..., preexec_fn=default_sigint)`` gives the child the default disposition, as it has
from an interactive shell."""

import signal


def default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
