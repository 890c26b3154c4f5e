"""Driving the compiled three-side searches (:mod:`solver.search.kernels_vec`)
from Python: max^n and paranoid root vectors under the time and memory
budgets, the principal variation, and determinised search on threads.

The budgets are kept as in :mod:`solver.search.compiled`: a search with a
deadline runs in a worker thread and the abort counter stops it at the
deadline; the tables start small and grow fourfold (the search restarts on
the bigger table) up to the memory budget, then replace entries.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import kernels as kn
from . import kernels_vec as kv
from .compiled import SearchAborted, _REASONS, _run, outcome_cap, table_entries
from ..engine.core import D_COLS, MAX_MOVES, has_chance

SEARCHES = ("maxn", "paranoid")
#: the tables a search starts with (entries)
FIRST_ENTRIES = 1 << 14


class VectorSearcher:
    """Exact max^n or paranoid search of one three-side game on the compiled
    core (``P``, ``D`` from :mod:`solver.engine.tables`); ``memory_mb`` the
    tables' budget. Vectors are one entry per side (points to the end of
    the hand, expectations with chance nodes)."""

    def __init__(self, P: np.ndarray, D: np.ndarray, memory_mb: float = 16.0,
                 search: str = "maxn", prune: bool = True) -> None:
        if search not in SEARCHES:
            raise ValueError(f"unknown search {search!r} (expected maxn or paranoid)")
        self.P = P
        self.D = D
        self.search = search
        self.prune = prune
        self.K, self.V = kv.new_vscratch()
        # the vector table takes 40 bytes an entry, the paranoid bounds 32
        self.max_entries = max(2, int(table_entries(memory_mb) * 32 / 40 /
                                      (2 if search == "paranoid" else 1)))
        self._tables(min(FIRST_ENTRIES, self.max_entries))
        self.C = kn.new_counters(outcome_cap=outcome_cap(memory_mb))
        chance = bool(has_chance(P))
        rows = int(memory_mb * 0.1 * (1 << 20) / kn.OUTCOME_BYTES) if chance else 1
        self.O = kn.new_outcome_cache(rows, (1 << 14) if chance else 2)
        self.grown = 0
        self._set_grow()

    def _tables(self, n: int) -> None:
        self.VT = kv.new_vector_table(n)
        if self.search == "paranoid":
            self.TT, self.TF = kn.new_table(n)
        else:
            self.TT, self.TF = kn.new_table(2)

    def _set_grow(self) -> None:
        n = self.VT.shape[0] + (self.TT.shape[0] if self.search == "paranoid" else 0)
        self.C[kn.C_GROWAT] = (1 << 62) if self.VT.shape[0] * 2 > self.max_entries \
            else int(0.7 * n)

    def _call(self, fn, args_of, deadline):
        """Run a kernel; when the tables fill up, grow them fourfold and run
        again (until the budget's size, after which entries are replaced)."""
        while True:
            self.C[kn.C_STORED] = 0
            out = _run(fn, args_of(), self.C, deadline) if deadline is not None \
                else fn(*args_of())
            if self.C[kn.C_ABORT] != kn.ABORT_GROW:
                return out
            self.C[kn.C_ABORT] = 0
            self.C[kn.C_GEN] += 1
            self._tables(min(self.VT.shape[0] * 4, self.max_entries))
            self.grown += 1
            self._set_grow()

    @property
    def nodes(self) -> int:
        """Decision nodes searched so far."""
        return int(self.C[kn.C_NODES])

    def stats(self) -> dict[str, int]:
        """Counters: nodes, chance nodes, table hits, shallow-pruning cuts,
        entries stored, the largest chance node."""
        C = self.C
        return {"nodes": int(C[kn.C_NODES]), "chance_nodes": int(C[kn.C_CHANCE]),
                "tt_hits": int(C[kn.C_HITS]), "cuts": int(C[kn.C_CUTS]),
                "tt_entries": int(C[kn.C_STORED]), "tt_grown": self.grown,
                "max_outcomes": int(C[kn.C_MAXOUT])}

    def _check(self, t0: float) -> None:
        reason = int(self.C[kn.C_ABORT])
        if reason:
            self.C[kn.C_ABORT] = 0
            raise SearchAborted(_REASONS.get(reason, "time"), self.nodes,
                                time.perf_counter() - t0)

    def root_values(self, st, deadline: float | None = None) -> dict[int, tuple]:
        """Every legal move of ``st`` with its vector (max^n, or the vector
        the paranoid policy leads to). Raises SearchAborted past
        ``deadline``."""
        t0 = time.perf_counter()
        out = np.full((MAX_MOVES, 3), np.nan)
        self.scalars: dict[int, float] = {}
        self.C[kn.C_GEN] += 1
        if self.search == "maxn":
            self._call(kv.maxn_root, lambda: (self.P, self.D, self.K, self.V, self.VT, self.C,
                                              *self.O, st, out, self.prune), deadline)
        else:
            scal = np.full(MAX_MOVES, np.nan)
            self._call(kv.paranoid_root, lambda: (self.P, self.D, self.K, self.V, self.TT,
                                                  self.TF, self.VT, self.C, *self.O, st, out,
                                                  scal), deadline)
            self.scalars = {m: float(scal[m]) for m in range(MAX_MOVES)
                            if not math.isnan(scal[m])}
        self._check(t0)
        return {m: tuple(float(v) for v in out[m]) for m in range(MAX_MOVES)
                if not math.isnan(out[m, 0])}

    def principal_variation(self, st, choose, deadline: float | None = None,
                            max_plies: int = 200) -> list[int]:
        """The chosen line from ``st`` to the end of the hand or the next
        chance node: at each ply the play ``choose(values, seat)`` picks from
        this search's root values."""
        from ..engine import core as ec
        pv: list[int] = []
        while (not ec.is_terminal(self.P, st) and not ec.is_chance(self.P, st)
               and len(pv) < max_plies):
            values = self.root_values(st, deadline)
            m = choose(values, int(self.P[ec.P_SIDE + st[5]]), self.scalars or None)
            pv.append(m)
            st = ec.play(self.P, self.D, st, m)[0]
        return pv


class VectorSampler:
    """Determinised search of one three-side position: each sample drawn by
    the game from a DrawSpec and every root move's vector solved; ``workers``
    threads, each with its own tables of ``memory_mb / workers``."""

    def __init__(self, spec, memory_mb: float = 64.0, workers: int = 1,
                 search: str = "maxn") -> None:
        self.spec = spec
        self.search = 0 if search == "maxn" else 1
        self.workers = max(1, workers)
        per = memory_mb / self.workers
        n = min(table_entries(per) // 2, 1 << 18)
        self.scratch = []
        for _ in range(self.workers):
            K, V = kv.new_vscratch()
            TT, TF = kn.new_table(n if self.search else 2)
            self.scratch.append((K, V, TT, TF, kv.new_vector_table(n), kn.new_counters(),
                                 *kn.new_outcome_cache(1, 2),
                                 np.zeros((spec.nstock + 1, D_COLS), dtype=np.int64),
                                 np.zeros(max(spec.nstock, 1), dtype=np.int64),
                                 np.zeros(max(len(spec.pool), 1), dtype=np.int64)))
        self.pool = ThreadPoolExecutor(self.workers) if self.workers > 1 else None

    def close(self) -> None:
        """Stop the threads."""
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None

    def solve(self, indices: list[int], seed: int, deadline: float | None = None):
        """Solve samples ``indices``: ``(values, nodes, done, drawn)`` with
        ``values[i, m, k]`` the vectors (NaN where illegal), as
        :meth:`solver.search.compiled.Sampler.solve`."""
        from ..engine.sampling import sample_seed
        n = len(indices)
        seeds = np.array([sample_seed(seed, i) for i in indices], dtype=np.int64)
        out = np.full((n, MAX_MOVES, 3), np.nan)
        nodes = np.zeros(n, dtype=np.int64)
        done = np.zeros(n, dtype=np.int64)
        drawn = np.zeros((n, 4), dtype=np.int64)
        spec = self.spec
        jobs = []
        for w in range(min(self.workers, n)):
            K, V, TT, TF, VT, C, OK, OP, OR, D, stock, work = self.scratch[w]
            if C[kn.C_GEN] > kn.MAX_GEN - n - 1:
                TT[:] = 0
                VT[:] = 0
                C[kn.C_GEN] = 1
            C[kn.C_ABORT] = 0
            count = len(range(w, n, self.workers))
            jobs.append((spec.P, spec.base, spec.pool, spec.hidden, spec.stock, spec.nstock,
                         spec.mode, spec.cons, seeds, w, self.workers, count, K, V, TT, TF, VT,
                         C, OK, OP, OR, D, stock, work, out, nodes, done, drawn, self.search))
        if self.pool is None:
            for args in jobs:
                if deadline is None:
                    kv.solve_samples_vec(*args)
                else:
                    _run(kv.solve_samples_vec, args, args[17], deadline)
        else:
            futures = [self.pool.submit(kv.solve_samples_vec, *args) for args in jobs]
            try:
                for f in futures:
                    while True:
                        left = None if deadline is None else deadline - time.monotonic()
                        if left is not None and left <= 0:
                            for args in jobs:
                                args[17][kn.C_ABORT] = kn.ABORT_TIME
                            f.result()
                            break
                        try:
                            f.result(timeout=0.05 if left is None else min(left, 0.05))
                            break
                        except TimeoutError:
                            continue
            except KeyboardInterrupt:
                for args in jobs:
                    args[17][kn.C_ABORT] = kn.ABORT_TIME
                for f in futures:
                    f.result()
                raise
        return out, nodes, done, drawn
