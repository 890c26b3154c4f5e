"""The budget clock (solver/runtime/clock.py): wall time for every command,
the process's CPU time when the arena asks (`arena --clock cpu`), so that
time-limited players search as much on a loaded machine as on an idle one."""

from __future__ import annotations

import time

from solver.games.arena import run_arena
from solver.runtime import clock
from solver.search.budget import Budget


def test_a_sleeping_process_spends_no_cpu_budget():
    try:
        clock.use("cpu")
        b = Budget(0.5, 64)
        time.sleep(0.3)                         # waiting is not thinking
        assert b.left() > 0.45
        t = time.process_time()
        while time.process_time() - t < 0.2:    # thinking is
            pass
        assert 0.2 < b.left() < 0.32
    finally:
        clock.use("wall")
    b = Budget(0.5, 64)
    time.sleep(0.3)
    assert b.left() < 0.21                      # the wall clock counts the wait


def test_the_arena_clock_is_reported_and_restored():
    wall = run_arena("greedy", "mc:4", pairs=2, seed=5, luck_samples=0)
    cpu = run_arena("greedy", "mc:4", pairs=2, seed=5, luck_samples=0, clock="cpu")
    assert clock.kind() == "wall"               # the caller's clock is given back
    assert cpu.summary()["clock"] == "cpu" and wall.summary()["clock"] == "wall"
    # players without a time budget play the same hands on either clock
    assert cpu.margins == wall.margins and cpu.a_points == wall.a_points
