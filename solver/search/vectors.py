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
import threading
import time

import numpy as np

from ..runtime import clock
from . import kernels as kn
from . import kernels_vec as kv
from .budget import SearchAborted, _REASONS, _run, outcome_cap, table_entries
from ..engine.core import MAX_MOVES, P_SIDE as _P_SIDE, has_chance
from ..engine.endgame3 import new_memo
from .sample_threads import SampleThreads

SEARCHES = ("maxn", "paranoid")


def lean2_default(P) -> int:
    """``C_LEAN2`` of a new max^n search: the deal before the last searched
    without the table (:func:`solver.engine.endgame3.lean2`, the last
    deal's roots memoised) from its start, where it plays (a known stock)
    with deals of 3 cards or fewer; 0 (never) otherwise. With deals of 4
    (``deal_size=4``) the deal before the last holds 24 cards and the
    table searches it faster (docs/performance.md)."""
    from ..engine.core import P_DEALN, P_SHUFFLED
    from ..engine.endgame3 import covers3
    small = max(int(P[P_DEALN + k]) for k in range(41)) <= 3
    return 64 if covers3(P) and P[P_SHUFFLED] == 0 and small else 0


def lean3_default(P) -> int:
    """``C_LEAN`` of a new max^n search: the last deal searched without the
    table (:func:`solver.engine.endgame3.lean3`) from its start, where it
    plays; 0 (never) otherwise."""
    from ..engine.endgame3 import covers3
    return 64 if covers3(P) else 0


#: the tables a search starts with (entries; 10 MB: a whole three-player hand
#: stores about 100,000 vectors, and each growth restarts the search)
FIRST_ENTRIES = 1 << 18


class VectorSearcher:
    """Exact max^n or paranoid search of one three-side game on the compiled
    core (``P``, ``D`` from :mod:`solver.engine.tables`); ``memory_mb`` the
    tables' budget. Vectors are one entry per side (points to the end of
    the hand, expectations with chance nodes)."""

    def __init__(self, P: np.ndarray, D: np.ndarray, memory_mb: float = 16.0,
                 search: str = "maxn", prune: bool | None = None, workers: int = 1) -> None:
        if search not in SEARCHES:
            raise ValueError(f"unknown search {search!r} (expected maxn or paranoid)")
        self.P = P
        self.D = D
        self.search = search
        # max^n shallow pruning where it cuts (kernels_vec.prune_pays)
        self.prune = bool(kv.prune_pays(P)) if prune is None else prune
        self.K, self.V = kv.new_vscratch()
        self.M = new_memo()
        # the vector table takes 40 bytes an entry, the paranoid bounds 32
        self.max_entries = max(2, int(table_entries(memory_mb) * 32 / 40 /
                                      (2 if search == "paranoid" else 1)))
        self._tables(min(FIRST_ENTRIES, self.max_entries))
        self.C = kn.new_counters(outcome_cap=outcome_cap(memory_mb))
        self.C[kn.C_LEAN] = lean3_default(P)
        self.C[kn.C_LEAN2] = lean2_default(P)
        chance = bool(has_chance(P))
        # max^n on two threads (:meth:`_maxn_root`): the second takes every
        # node's children in the reverse order (``C_REV``) and shares the
        # table, whose entries are then sealed (``C_SHARED``); the threads
        # share the outcome caches' 10% of the budget
        threads = 2 if workers > 1 and search == "maxn" else 1
        rows = int(memory_mb * 0.1 * (1 << 20) / kn.OUTCOME_BYTES / threads) if chance else 1
        def outcome_cache():
            return kn.new_outcome_cache(rows, (1 << 14) if chance else 2)
        self.O = outcome_cache()
        self.grown = 0
        self._set_grow()
        self.helper = None
        if threads > 1:
            self.C[kn.C_SHARED] = 1
            C2 = kn.new_counters(outcome_cap=int(self.C[kn.C_OUTCAP]))
            C2[kn.C_SHARED] = 1
            C2[kn.C_REV] = 1
            C2[kn.C_TTMIN] = self.C[kn.C_TTMIN]
            C2[kn.C_LEAN] = self.C[kn.C_LEAN]
            C2[kn.C_LEAN2] = self.C[kn.C_LEAN2]
            self.helper = (*kv.new_vscratch(), C2, outcome_cache(), new_memo())

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
        self.C[kn.C_STORED] = 0
        while True:
            out = _run(fn, args_of(), self.C, deadline) if deadline is not None \
                else fn(*args_of())
            if self.C[kn.C_ABORT] != kn.ABORT_GROW:
                return out
            self.C[kn.C_ABORT] = 0
            self._grow(min(self.VT.shape[0] * 4, self.max_entries))

    def _grow(self, n: int) -> None:
        """Tables of ``n`` entries, the live entries moved over (the search
        then restarts from the root and finds its finished subtrees there)."""
        VT, TT, TF = self.VT, self.TT, self.TF
        self._tables(n)
        self.C[kn.C_GROWAT] = 1 << 62       # the rehash must not ask to grow again
        stored = 0
        if self.search == "paranoid":
            kn.rehash(TT, TF, self.C, self.TT, self.TF)
            stored = int(self.C[kn.C_STORED])
        kv.vrehash(VT, self.C, self.VT)
        self.C[kn.C_ABORT] = 0
        self.grown += 1
        self._set_grow()
        self.C[kn.C_STORED] += stored

    @property
    def nodes(self) -> int:
        """Decision nodes searched so far (every thread)."""
        return self.stats()["nodes"]

    def _maxn_root(self, st, out, helped: bool = True) -> int:
        """:func:`kernels_vec.maxn_root` on this thread, and with a helper
        (and ``helped``) the same search in the reverse order on another,
        stopped when this one ends (its values reach this one through the
        table)."""
        args = (self.P, self.D, self.K, self.V, self.VT, self.C, self.M, *self.O, st, out,
                self.prune)
        if self.helper is None or not helped:
            return kv.maxn_root(*args)
        K2, V2, C2, O2, M2 = self.helper
        C2[kn.C_GEN] = self.C[kn.C_GEN]
        C2[kn.C_ABORT] = 0
        th = threading.Thread(target=kv.maxn_root, daemon=True,
                              args=(self.P, self.D, K2, V2, self.VT, C2, M2, *O2, st,
                                    np.full((MAX_MOVES, 3), np.nan), self.prune))
        th.start()
        try:
            return kv.maxn_root(*args)
        finally:
            C2[kn.C_ABORT] = kn.ABORT_TIME
            th.join()

    def stats(self) -> dict[str, int]:
        """Counters: nodes, chance nodes, table hits, shallow-pruning cuts,
        entries stored, the largest chance node."""
        Cs = [self.C] + ([self.helper[2]] if self.helper else [])

        def total(i: int) -> int:
            return sum(int(C[i]) for C in Cs)
        return {"nodes": total(kn.C_NODES), "chance_nodes": total(kn.C_CHANCE),
                "tt_hits": total(kn.C_HITS), "cuts": total(kn.C_CUTS),
                "tt_entries": total(kn.C_STORED), "tt_grown": self.grown,
                "max_outcomes": max(int(C[kn.C_MAXOUT]) for C in Cs), "threads": len(Cs)}

    def _check(self, t0: float) -> None:
        reason = int(self.C[kn.C_ABORT])
        if reason:
            self.C[kn.C_ABORT] = 0
            raise SearchAborted(_REASONS.get(reason, "time"), self.nodes,
                                time.perf_counter() - t0)

    def root_values(self, st, deadline: float | None = None,
                    root: int = -1, keep: bool = False) -> dict[int, tuple]:
        """Every legal move of ``st`` with its vector (max^n, or the vector
        the paranoid policy of side ``root``, the mover's by default, leads
        to; :attr:`scalars` then holds each move's paranoid value). Raises
        SearchAborted past ``deadline``. A new table generation each call,
        but with ``keep`` under max^n, whose entries are exact vectors of
        states whoever asks (the same game: :meth:`principal_variation`)."""
        t0 = time.perf_counter()
        out = np.full((MAX_MOVES, 3), np.nan)
        self.scalars: dict[int, float] = {}
        if not (keep and self.search == "maxn"):
            self.C[kn.C_GEN] += 1
        if self.search == "maxn":
            # a kept table mostly answers at once: no second thread for it
            self._call(self._maxn_root, lambda: (st, out, not keep), deadline)
        else:
            scal = np.full(MAX_MOVES, np.nan)
            self._call(kv.paranoid_root, lambda: (self.P, self.D, self.K, self.V, self.TT,
                                                  self.TF, self.VT, self.C, *self.O, st, out,
                                                  scal, root), deadline)
            self.scalars = {m: float(scal[m]) for m in range(MAX_MOVES)
                            if not math.isnan(scal[m])}
        self._check(t0)
        return {m: tuple(float(v) for v in out[m]) for m in range(MAX_MOVES)
                if not math.isnan(out[m, 0])}

    def principal_variation(self, st, deadline: float | None = None,
                            max_plies: int = 200) -> list[int]:
        """The chosen line from ``st`` to the end of the hand or the next
        chance node: max^n, each seat's choice by the tie rule; paranoid,
        the policy of the side to move at ``st`` (:func:`paranoid_choice`)."""
        from ..engine import core as ec
        root = int(self.P[ec.P_SIDE + st[5]])
        pv: list[int] = []
        while (not ec.is_terminal(self.P, st) and not ec.is_chance(self.P, st)
               and len(pv) < max_plies):
            side = int(self.P[ec.P_SIDE + st[5]])
            # max^n: the table of the search before is still right (every
            # step re-searched the subtree from scratch: 2-3x the root's time)
            values = self.root_values(st, deadline, root, keep=True)
            if self.search == "maxn":
                m = choose(values, side)
            else:
                m = paranoid_choice(values, self.scalars, side, root)
            pv.append(m)
            st = ec.play(self.P, self.D, st, m)[0]
        return pv


def _key(v, side: int, move: int):
    own = v[side]
    return (round(own, 9), -round(sum(v) - own, 9), -move)


def choose(vectors: dict, side: int) -> int:
    """The move ``side`` picks among ``{move: vector}`` by the max^n rule
    (the higher own entry, then the lower sum of the others, then the
    lowest move).

    >>> choose({0: (2, 3, 1), 4: (2, 1, 1), 7: (1, 0, 0)}, 0)
    4
    >>> choose({3: (2, 1, 1), 1: (2, 1, 1)}, 0)
    1
    """
    return max(vectors, key=lambda m: _key(vectors[m], side, m))


def ranked(vectors: dict, side: int) -> list[int]:
    """The moves in the order ``side`` prefers them (the max^n rule)."""
    return sorted(vectors, key=lambda m: _key(vectors[m], side, m), reverse=True)


def ties(vectors: dict, side: int) -> list[int]:
    """The moves the max^n rule ranks level with its choice but for the
    move (the same own entry, the same sum of the others), in its order.

    >>> ties({0: (2, 3, 1), 4: (2, 1, 1), 7: (2, 0, 2), 9: (1, 0, 0)}, 0)
    [4, 7]
    """
    order = ranked(vectors, side)
    top = _key(vectors[order[0]], side, 0)[:2]
    return [m for m in order if _key(vectors[m], side, m)[:2] == top]


def paranoid_choice(vectors: dict, scalars: dict, side: int, root: int) -> int:
    """The paranoid policy's move for ``side`` (root ``root``): the root's
    side the highest paranoid value (ties by the max^n rule), an opponent
    the lowest (ties: its own higher entry, then the lowest move)."""
    if side == root:
        top = max(scalars.values())
        return choose({m: v for m, v in vectors.items() if scalars[m] >= top - 1e-9}, side)
    low = min(scalars.values())
    tied = [m for m in vectors if scalars[m] <= low + 1e-9]
    return max(tied, key=lambda m: (round(vectors[m][side], 9), -m))


class VectorSampler(SampleThreads):
    """Determinised search of one three-side position: each sample drawn by
    the game from a DrawSpec and every root move's vector solved; ``workers``
    threads (:class:`.sample_threads.SampleThreads`), each with its own
    tables of ``memory_mb / workers``."""

    def __init__(self, spec, memory_mb: float = 64.0, workers: int = 1,
                 search: str = "maxn") -> None:
        super().__init__(spec, workers, kv.solve_samples_vec, 15, (MAX_MOVES, 3))
        self.search = 0 if search == "maxn" else 1
        per = memory_mb / self.workers
        n = min(table_entries(per) // 2, 1 << 18)
        for _ in range(self.workers):
            K, V = kv.new_vscratch()
            TT, TF = kn.new_table(n if self.search else 2)
            C = kn.new_counters()
            C[kn.C_LEAN] = lean3_default(spec.P)
            C[kn.C_LEAN2] = lean2_default(spec.P)
            self.scratch.append((K, V, TT, TF, kv.new_vector_table(n), C, new_memo(),
                                 *kn.new_sample_buffers(spec)))

    def _ready(self, scratch: tuple, n: int) -> None:
        _K, _V, TT, _TF, VT, C, M = scratch[:7]
        if C[kn.C_GEN] > kn.MAX_GEN - n - 1:
            TT[:] = 0
            VT[:] = 0
            M[:] = 0
            C[kn.C_GEN] = 1
        C[kn.C_ABORT] = 0

    def _job(self, scratch: tuple, seeds, claim, out, nodes, done, drawn) -> tuple:
        K, V, TT, TF, VT, C, M, OK, OP, OR, D, stock, work = scratch
        spec = self.spec
        return (spec.P, spec.base, spec.pool, spec.hidden, spec.stock, spec.nstock, spec.mode,
                spec.cons, seeds, claim, K, V, TT, TF, VT, C, M, OK, OP, OR, D, stock, work,
                out, nodes, done, drawn, self.search)


def determinised_vec(spec, samples: int, seed: int = 0, *, workers: int = 1,
                     search: str = "maxn", min_samples: int = 30, batch: int = 32,
                     z: float | None = 2.33, time_budget: float | None = None,
                     memory_mb: float = 64.0, weigh=None, progress=None):
    """Determinised search for three sides on the compiled core (the
    stopping rules of :func:`solver.search.compiled.determinised`, on the
    mover's entry): ``(values, weights, nodes, stopped, partial, seconds)``
    with ``values`` the (samples, 10, 3) array of the finished samples
    (NaN where a move is illegal) and ``weights`` the importance weights
    (``weigh(hands)``) or None. The result depends on the seed and the
    sample count only, never on ``workers``. ``progress(result)`` after
    each batch: the samples so far as :func:`sample_result` (the
    :class:`~solver.search.pimc.SampleResult` two sides report), its moves
    in the order the answer ranks them. Raises ValueError when ``samples <
    1``, CompileError when no drawing agrees with declared= or every weight
    is zero."""
    from ..engine.compile import CompileError
    if samples < 1:
        raise ValueError("samples must be at least 1")
    t0 = time.perf_counter()
    deadline = None if time_budget is None else clock.now() + time_budget
    sampler = VectorSampler(spec, memory_mb, workers, search)
    side = int(spec.P[_P_SIDE + spec.base[5]])
    rows: list[np.ndarray] = []
    weights: list[float] = []
    nodes = 0
    stopped, partial = "samples", False
    try:
        done = 0
        while done < samples:
            # no batch starts past the budget (a sample the watcher is late
            # to stop would finish after it: a whole hand of three sides
            # takes a few milliseconds)
            if deadline is not None and clock.now() >= deadline:
                stopped = "time"
                break
            n = min(batch, samples - done)
            try:
                vals, nds, ok, drawn = sampler.solve(list(range(done, done + n)), seed,
                                                     deadline)
            except KeyboardInterrupt:
                stopped, partial = "interrupted", True
                if not rows:
                    raise
                break
            if (ok < 0).any():
                raise CompileError("no drawing of the unknown cards agrees with declared=")
            finished = ok == 1
            rows.extend(vals[finished])
            if weigh is not None:
                weights.extend(weigh(h) for h in drawn[finished])
            nodes += int(nds[finished].sum())
            done += n
            if not finished.all():
                stopped = "time"
                break
            so_far = np.array(rows)     # once a batch, for the progress and the stop
            w_so_far = np.array(weights) if weigh is not None else None
            if progress is not None and (weigh is None or sum(weights) > 0):
                progress(sample_result(so_far, w_so_far, side, nodes=nodes, stopped=stopped,
                                       seconds=time.perf_counter() - t0,
                                       workers=sampler.workers))
            if (z is not None and done >= min_samples
                    and separated(so_far[:, :, side], z, w_so_far)):
                stopped = "separated"
                break
        # no sample within the budget: the caller answers otherwise
    finally:
        sampler.close()
    if not rows:
        raise SearchAborted("time", nodes, time.perf_counter() - t0)
    if weigh is not None and sum(weights) <= 0:
        raise CompileError("the plays recorded in hist= are impossible for every hand drawn")
    return (np.array(rows), np.array(weights) if weigh is not None else None, nodes, stopped,
            partial, time.perf_counter() - t0)


def mean_vectors(rows: np.ndarray, weights: np.ndarray | None = None) -> dict[int, tuple]:
    """Every legal move's mean vector over ``rows`` (samples, 10, 3; NaN
    where a move is illegal), weighted by ``weights`` when given."""
    n = rows.shape[0]
    legal = [m for m in range(rows.shape[1]) if not np.isnan(rows[0, m, 0])]
    w = np.ones(n) if weights is None else weights
    sw = w.sum()
    return {m: tuple(float((w * rows[:, m, k]).sum() / sw) for k in range(rows.shape[2]))
            for m in legal}


def sample_result(rows: np.ndarray, weights: np.ndarray | None, side: int, *,
                  nodes: int = 0, stopped: str = "samples", partial: bool = False,
                  seconds: float = 0.0, workers: int = 1):
    """Three sides' samples so far as the
    :class:`~solver.search.pimc.SampleResult` of two sides: each move's
    statistics on ``side``'s (the mover's) entry
    (:func:`~solver.search.pimc.summarise_array`: mean, standard error,
    best-count, and the first move's lead over it in paired standard
    errors, as :func:`separated` measures it), the moves in the order the
    answer ranks them (the max^n rule on the mean vectors: the mover's
    higher entry, then the others' lower sum, then the lowest move), so
    the first is the play the answer would give now. ``values`` is the
    (samples, 10, 3) array."""
    from .pimc import SampleResult, summarise_array
    order = ranked(mean_vectors(rows, weights), side)
    stats = {s.move: s for s in summarise_array(rows[:, :, side], weights, order[0])}
    moves = [stats[m] for m in order]
    ess = None
    if weights is not None:
        ess = float(weights.sum() ** 2 / (weights * weights).sum())
    return SampleResult(moves, rows.shape[0], nodes, stopped, partial, seconds, workers,
                        values=rows, weights=weights, ess=ess)


def separated(own: np.ndarray, z: float, weights: np.ndarray | None = None) -> bool:
    """The best move (highest mean of ``own``, rows samples, NaN columns
    illegal) leads every other by more than ``z`` paired standard errors."""
    from .pimc import summarise_array
    stats = summarise_array(own, weights)
    return all(s.lead_z is not None and s.lead_z > z for s in stats[1:])


_local = threading.local()


def _own_cores() -> int:
    """Threads for a search that has the machine to itself: the cores in
    the main thread of a process nobody started (a command's own search);
    one in a pool's worker process or thread (annotate --jobs, arena,
    batch, the web server), whose siblings have the other cores."""
    import multiprocessing
    import os
    if (multiprocessing.parent_process() is not None
            or threading.current_thread() is not threading.main_thread()):
        return 1
    return os.cpu_count() or 1


def exact_vector(P: np.ndarray, D: np.ndarray, st,
                 deadline: float | None = None) -> tuple[float, ...]:
    """The max^n vector of a perfect-information (or small chance) state
    of three sides (the mover's choice by the tie rule; zeros at the end
    of the hand), on a per-thread searcher reused across calls (a new
    table generation each call; two threads when the process has the
    machine to itself, :func:`_own_cores`): for callers that solve many
    positions (the luck of the deal). Raises SearchAborted past
    ``deadline`` (None: none)."""
    from ..engine.core import P_SIDE, is_terminal
    if is_terminal(P, st):
        return (0.0, 0.0, 0.0)
    s = getattr(_local, "searcher", None)
    if s is None or s.P is not P:
        s = _local.searcher = VectorSearcher(P, D, 32.0, workers=_own_cores())
    s.D = D
    values = s.root_values(st, deadline)
    return values[choose(values, int(P[P_SIDE + st[5]]))]
