"""What every compiled search keeps: the time budget (a search in a worker
thread, stopped at its deadline by the abort counter) and the memory
budget (the tables sized from it), and the error of a search stopped
before its answer was known. Shared by the two-sided searches
(:mod:`solver.search.compiled`) and the three-sided ones
(:mod:`solver.search.vectors`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from ..runtime import clock
from . import kernels as kn


class SearchAborted(RuntimeError):
    """A search stopped before its answer was known: ``reason`` is
    ``"time"``, ``"nodes"``, ``"outcomes"`` (a chance node larger than the
    memory allows) or ``"interrupted"``; ``nodes`` were searched."""

    def __init__(self, reason: str, nodes: int, seconds: float) -> None:
        super().__init__(f"search stopped ({reason}) after {nodes} nodes and {seconds:.3g} s")
        self.reason = reason
        self.nodes = nodes
        self.seconds = seconds


_REASONS = {kn.ABORT_TIME: "time", kn.ABORT_NODES: "nodes", kn.ABORT_OUTCOMES: "outcomes"}

def table_entries(memory_mb: float) -> int:
    """Transposition-table entries that fit in ``memory_mb`` (90% of it;
    the rest is left to the outcome lists and the scratch)."""
    return max(2, int(memory_mb * 0.9 * (1 << 20)) // kn.ENTRY_BYTES)


def outcome_cap(memory_mb: float) -> int:
    """The largest chance node (outcomes) a search within ``memory_mb`` may
    expand: 10% of the budget over six live levels at about 160 bytes an
    outcome, and never fewer than 50,000 (8 MB a level)."""
    return max(50_000, int(memory_mb * 0.1 * (1 << 20) / 6 / 160))


def _run(fn, args, C, deadline: float | None, abort_at: int = kn.C_ABORT):
    """Run ``fn(*args)`` in a thread; at ``deadline`` (the budget clock, solver.runtime.clock) or
    on Ctrl-C set the abort counter (``C[abort_at]``, the kernels'
    ``C_ABORT``) and wait for it to unwind."""
    box: list = []
    error: list = []

    def target():
        try:
            box.append(fn(*args))
        except BaseException as e:  # pragma: no cover - a kernel bug
            error.append(e)

    th = threading.Thread(target=target, daemon=True)
    th.start()
    try:
        while th.is_alive():
            if deadline is None:
                th.join(0.05)
                continue
            left = deadline - clock.now()
            if left <= 0:
                C[abort_at] = kn.ABORT_TIME
                th.join()
                break
            th.join(min(left, 0.05))
    except KeyboardInterrupt:
        C[abort_at] = kn.ABORT_TIME
        th.join()
        raise
    if error:
        raise error[0]
    return box[0] if box else None


def run_jobs(pool, fn, jobs: list, control: int, deadline: float | None) -> None:
    """Run kernel ``fn`` once for each argument tuple of ``jobs`` (its
    control array at index ``control``): without a pool one after the
    other (each in a :func:`_run` thread when there is a deadline); with
    a pool one a thread. At ``deadline`` (the budget clock, solver.runtime.clock) or on Ctrl-C
    every job's abort counter is set and the jobs unwind; Ctrl-C is then
    raised again."""
    if pool is None:
        for args in jobs:
            if deadline is None:
                fn(*args)
            else:
                _run(fn, args, args[control], deadline)
        return
    futures = [pool.submit(fn, *args) for args in jobs]
    try:
        for f in futures:
            while True:
                left = None if deadline is None else deadline - clock.now()
                if left is not None and left <= 0:
                    for args in jobs:
                        args[control][kn.C_ABORT] = kn.ABORT_TIME
                    f.result()
                    break
                try:
                    f.result(timeout=0.05 if left is None else min(left, 0.05))
                    break
                except TimeoutError:
                    continue
    except KeyboardInterrupt:
        for args in jobs:
            args[control][kn.C_ABORT] = kn.ABORT_TIME
        for f in futures:
            f.result()
        raise


@dataclass
class Budget:
    """A search budget: ``seconds`` from ``start`` (the budget clock, solver.runtime.clock) and
    ``memory_mb``."""

    seconds: float
    memory_mb: float
    start: float = 0.0

    def __post_init__(self) -> None:
        if not self.start:
            self.start = clock.now()

    @property
    def deadline(self) -> float:
        """The monotonic time the budget runs out."""
        return self.start + self.seconds

    def left(self) -> float:
        """Seconds left (never negative)."""
        return max(0.0, self.deadline - clock.now())
