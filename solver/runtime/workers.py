"""Worker processes that stop with their parent.

:func:`process_pool` is a ``ProcessPoolExecutor`` whose workers leave
Ctrl-C (SIGINT) and SIGHUP to the parent and die on SIGTERM. When the
block is left by an exception (an interruption, see
:mod:`solver.runtime.interrupt`, or an error), the queued jobs are cancelled and
the workers terminated at once instead of finishing their jobs, so no
worker outlives the command holding its standard output open.

>>> with process_pool(2) as pool:
...     list(pool.map(abs, [-1, -2]))
[1, 2]
"""

from __future__ import annotations

import signal
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Iterator


def _init_worker() -> None:
    """In a worker: the parent handles Ctrl-C and hang-ups and stops the
    pool; SIGTERM (the parent's terminate) ends the worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def process_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` worker processes for the block (see the module
    docstring): shut down normally when the block ends, terminated when
    it raises."""
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker)
    try:
        yield pool
    except BaseException:
        terminate(pool)
        raise
    pool.shutdown(wait=True)


def terminate(pool: ProcessPoolExecutor, grace: float = 5.0) -> None:
    """Cancel ``pool``'s queued jobs and end its workers now: SIGTERM,
    then SIGKILL for one still alive after ``grace`` seconds."""
    if hasattr(pool, "terminate_workers"):      # Python 3.14
        pool.terminate_workers()
        return
    # before 3.14 the executor keeps its processes in a private dict;
    # copy it before shutdown drops it
    procs = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(grace)
        if p.is_alive():
            p.kill()
            p.join()
    # The executor's manager thread sees the workers gone and closes its
    # wake-up pipe. Wait for it: at interpreter exit, concurrent.futures
    # writes to every live manager's pipe, and one closed in between
    # prints "OSError: Bad file descriptor" (Python 3.11-3.13).
    if manager is not None and manager.is_alive():
        manager.join(grace)
