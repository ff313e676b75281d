"""The mixed-integer fallback of the S-decision, run where Ctrl-C can stop it.

``scipy.optimize.milp`` (HiGHS) holds the interpreter until its time limit: a KeyboardInterrupt
would wait for it. With :data:`MILP_WHERE` = "process" (set by ``leanbridge absorb`` and
``scan`` through :class:`stoppable_solvers`) each solve runs in a child process — forked from a
forkserver that has this light module and SciPy preloaded (spawned where there is no
forkserver) — whose answer comes back through a pipe; :func:`stop_solvers` kills the children
still running, and a KeyboardInterrupt while waiting kills the one waited for. The decision
logic (constraints, cuts, the direct residual check of each candidate) stays in
:mod:`leanbridge.numeric.absorb`.
"""

from __future__ import annotations

import threading

from leanbridge.numeric.errors import need

#: Where the MILP runs: "here" (in this process: HiGHS cannot be interrupted until its time
#: limit) or "process" (a child process, killed on Ctrl-C: ``leanbridge absorb`` and ``scan``
#: set it for the duration of the command, see :func:`stoppable_solvers`).
MILP_WHERE = "here"
_children: set = set()
_stopped: set = set()               # children killed by stop_solvers (not crashed)
_children_lock = threading.Lock()


def _milp_child(connection, c, constraints, time_limit) -> None:
    """In the child process: solve, send (status, message, x) back."""
    opt = need("scipy.optimize", "leanbridge absorb")
    result = _milp_here(opt, c, constraints, time_limit)
    connection.send((int(result.status), str(result.message), result.x))
    connection.close()


#: How SciPy words a proof of infeasibility. SciPy maps HiGHS' kInfeasible *and* kModelError
#: (a model HiGHS refuses, e.g. matrix entries above 1e15) to the same status 2; only the
#: first proves anything (scipy/optimize/_linprog_highs.py, _highs_to_scipy_status_message:
#: MODEL_STATUS_MODEL_ERROR → (2, ""), MODEL_STATUS_INFEASIBLE → (2, "The problem is
#: infeasible. "), read at scipy/scipy commit 015736f838c4 and in the installed SciPy 1.17.1).
INFEASIBLE_MESSAGE = "The problem is infeasible."


def proves_infeasible(result) -> bool:
    """Whether a :func:`run_milp` result proves that no binary point satisfies the constraints
    (HiGHS found the problem infeasible, not: refused the model)."""
    return result.status == 2 and str(result.message).startswith(INFEASIBLE_MESSAGE)


def _milp_here(opt, c, constraints, time_limit):
    np = need("numpy", "leanbridge absorb")
    return opt.milp(c, constraints=[opt.LinearConstraint(A, lower, upper)
                                    for A, lower, upper in constraints],
                    integrality=np.ones(c.size), bounds=opt.Bounds(0, 1),
                    options={"time_limit": time_limit, "disp": False})


def _context():
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:          # a clean server forks each solver: no BLAS threads
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__, "scipy.optimize"])
        return context
    return multiprocessing.get_context("spawn")


def run_milp(c, constraints, time_limit: float):
    """``scipy.optimize.milp`` (HiGHS) on ``constraints`` = [(A, lower, upper), …], binary
    variables: an object with SciPy's ``status``, ``message`` and ``x``. With
    :data:`MILP_WHERE` = "process" it runs in a child process that :func:`stop_solvers` (or a
    KeyboardInterrupt while waiting for it) kills at once; otherwise here."""
    opt = need("scipy.optimize", "leanbridge absorb")
    if MILP_WHERE != "process":
        return _milp_here(opt, c, constraints, time_limit)
    import types

    context = _context()
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_milp_child, args=(send, c, constraints, time_limit),
                            daemon=True, name="leanbridge-milp")
    with _children_lock:
        child.start()
        _children.add(child)
    send.close()
    try:
        try:
            status, message, x = receive.recv()
        except EOFError:                 # killed by stop_solvers, or crashed
            child.join(1)
            with _children_lock:
                stopped = child in _stopped
            if stopped:
                raise KeyboardInterrupt("the MILP solver was stopped") from None
            raise RuntimeError(f"the MILP solver process ended without an answer (exit code "
                               f"{child.exitcode})") from None
        return types.SimpleNamespace(status=status, message=message, x=x)
    finally:
        receive.close()
        if child.is_alive():
            child.kill()
        child.join(1)
        with _children_lock:
            _children.discard(child)
            _stopped.discard(child)


def stop_solvers() -> None:
    """Kill every MILP child process still running (Ctrl-C)."""
    with _children_lock:
        for child in list(_children):
            if child.is_alive():
                _stopped.add(child)
                child.kill()


class stoppable_solvers:
    """``with stoppable_solvers():`` — MILPs run in child processes (:data:`MILP_WHERE`)
    inside the block, and any still running are killed when it is left."""

    def __enter__(self):
        global MILP_WHERE
        self._previous, MILP_WHERE = MILP_WHERE, "process"
        return self

    def __exit__(self, *exc):
        global MILP_WHERE
        MILP_WHERE = self._previous
        stop_solvers()
        return False
