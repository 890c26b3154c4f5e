"""Driving the deal kernels (:mod:`solver.search.deal_kernels`) from
Python: a table reused across the hidden hands of a decision, a deadline
kept from another thread, every root move scored for each hand.

The caller gives the hands to search (one row per completion of what is
hidden, with its stock as a card set) and the boundary model; this module
knows nothing of cards.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from . import deal_kernels as dk
from ..runtime import clock
from .budget import _run


class DealSearcher:
    """Alpha-beta to the end of the deal on the compiled core, the chance
    node at its end valued by the packed model ``vm``
    (:mod:`solver.value.net`; levels it lacks are searched exactly).

    ``P``, ``D``: the game's arrays (a shuffled stock); ``table_bits``:
    the transposition table holds ``2**table_bits`` entries (40 bytes
    each). The table lives with the object and stays valid across calls.
    """

    def __init__(self, P: np.ndarray, D: np.ndarray, vm: np.ndarray,
                 table_bits: int = 16) -> None:
        self.P = P
        self.D = D
        self.vm = vm
        self.K = dk.new_scratch()
        self.TK, self.TV = dk.new_table(table_bits)
        self.C = dk.new_counters()
        from ..value.net import scratch
        self.X = scratch(vm)

    @property
    def nodes(self) -> int:
        """Decision nodes searched so far."""
        return int(self.C[dk.C_NODES])

    def stats(self) -> dict[str, int]:
        """Counters: decision nodes, model leaves, exact chance nodes,
        table hits."""
        return {"nodes": int(self.C[dk.C_NODES]), "model_leaves": int(self.C[dk.C_LEAVES]),
                "exact_chance_nodes": int(self.C[dk.C_CHANCE]),
                "tt_hits": int(self.C[dk.C_HITS])}

    def solve(self, base, hands: np.ndarray, stocks: np.ndarray,
              deadline: float | None = None, moves: bool = True):
        """Search the deal once per row: ``(values, done)``, ``values[i,
        m]`` the value of rank index ``m`` for the side to move (NaN where
        illegal; with ``moves=False`` only ``values[i, 0]``, the
        position's value), ``done[i]`` 1 when row ``i`` finished before
        ``deadline`` (the budget clock, solver.runtime.clock). A deadline
        already past searches no row: the kernel thread would otherwise
        finish as many rows as it gets through before the abort is set,
        a number that depends on the scheduler."""
        n = hands.shape[0]
        out = np.full((n, 10), np.nan)
        done = np.zeros(n, dtype=np.int64)
        if deadline is not None and clock.now() >= deadline:
            return out, done
        base = np.asarray(base, dtype=np.int64)
        args = (self.P, self.D, base, np.ascontiguousarray(hands, dtype=np.int64),
                np.ascontiguousarray(stocks, dtype=np.int64), self.K, self.TK, self.TV, self.C,
                self.vm, self.X, out, done, moves)
        self.C[dk.C_ABORT] = 0
        if deadline is None:
            dk.solve_hands(*args)
        else:
            _run(dk.solve_hands, args, self.C, deadline, abort_at=dk.C_ABORT)
        self.C[dk.C_ABORT] = 0
        return out, done

    def value(self, st) -> float:
        """The value of one state for the side to move (no deadline)."""
        return float(dk.negamax(self.P, self.D, self.K, self.TK, self.TV, self.C, self.vm,
                                self.X, 0, tuple(int(x) for x in st), -math.inf, math.inf))


_warmed = False


def warm(stream=None, announce: bool = True) -> None:
    """Load the deal kernels (numba's cache, or compile them) once per
    process, before a search's clock starts: a tiny search. When their
    cache is missing, say so on ``stream`` (stderr by default) and how
    long the compile took, as :func:`solver.search.compiled.ensure_compiled`
    does (which compiles them with the rest on the first run after
    installing: ``announce`` False, its own lines said)."""
    global _warmed
    if _warmed:
        return
    fresh = announce and not _cache_present()
    if fresh:
        stream = stream if stream is not None else sys.stderr
        print("compiling the deal search (once; later runs load it from the cache)...",
              file=stream, flush=True)
        t0 = time.perf_counter()
    from ..engine.compile import shuffled_problem
    from ..notation import parse_position
    from ..value.net import empty_model
    prob = shuffled_problem(parse_position("10.11 11.12.12/6.6.5 ~1.2.3.4.5.6 S"))
    P, D = prob.P, prob.D
    st = np.array(prob.st, dtype=np.int64)
    DealSearcher(P, D, empty_model(), table_bits=4).solve(st, st[None, 1:5], st[None, 9])
    from ..engine.core import hand_of
    hand_of(st[1], st[2], st[3], st[4], 0)     # read from Python by the deal search
    _warmed = True
    if fresh:
        print(f"deal search compiled in {time.perf_counter() - t0:.1f} s", file=stream,
              flush=True)


def _cache_present() -> bool:
    """Whether numba's cache holds the deal search's entry kernel."""
    from ..engine._cache import on_disk
    return on_disk(dk.solve_hands)


def weighted_moves(values: np.ndarray, weights: np.ndarray):
    """Each legal move's weighted mean over the rows of ``values`` (NaN
    where illegal, the same in every row), with the standard error of the
    self-normalised mean when the rows are samples: ``{move: (mean,
    stderr)}``."""
    w = np.asarray(weights, dtype=np.float64)
    sw = w.sum()
    n = values.shape[0]
    out = {}
    for m in range(values.shape[1]):
        col = values[:, m]
        if math.isnan(col[0]):
            continue
        mean = float((w * col).sum() / sw)
        se = (math.sqrt((w * w * (col - mean) ** 2).sum() * n / (n - 1)) / sw) if n > 1 else 0.0
        out[m] = (mean, se)
    return out

