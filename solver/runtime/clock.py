"""The clock that search budgets (``--time``) are measured on.

Every command measures its budgets on the wall clock (``time.monotonic``):
``--time 2`` is a promise about the wall time a user waits. The arena can
measure each player's thinking on the CPU clock of its own process instead
(``arena --clock cpu``): a time-limited player then searches as much in a
decision whatever else the machine runs, so a comparison of players made
on a loaded machine is the one an idle machine would give. Only the
process that asks for it is affected (an arena's worker processes each
ask)."""

from __future__ import annotations

import time

_CLOCKS = {"wall": time.monotonic, "cpu": time.process_time}
_now = time.monotonic


def now() -> float:
    """Seconds on the budget clock (an arbitrary origin; differences only)."""
    return _now()


def use(kind: str) -> None:
    """Measure budgets on ``kind``: ``"wall"`` (the default) or ``"cpu"``
    (this process's CPU time, every thread)."""
    global _now
    _now = _CLOCKS[kind]


def kind() -> str:
    """The clock in use: ``"wall"`` or ``"cpu"``."""
    return next(k for k, f in _CLOCKS.items() if f is _now)
