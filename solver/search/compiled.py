"""Driving the compiled searches from Python: budgets, root scoring, the
principal variation, and determinised search on threads.

Every search here keeps two promises:

- **time**: a search given a deadline runs in a worker thread (the kernels
  release the GIL); at the deadline, or on Ctrl-C, the calling thread sets
  the abort counter and the kernel unwinds within microseconds. An
  unfinished exact search raises :class:`SearchAborted`; determinised
  search returns the samples finished so far.
- **memory**: the transposition table is the one growing structure; it is
  sized from the memory budget (32 bytes an entry) and replaces entries
  when full. The outcome lists of chance nodes are capped from the same
  budget.

The first call of a kernel in a fresh install compiles it (numba, cached on
disk); :func:`ensure_compiled` does that up front and says so on stderr.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from typing import Callable

import numpy as np

from ..runtime import clock
from . import kernels as kn
from .budget import Budget  # noqa: F401  (re-exported)
from .budget import _REASONS, SearchAborted, _run, outcome_cap, table_entries
from .pimc import SampleResult, Z_99, summarise_array
from .sample_threads import SampleThreads

#: memory the compiled search of one perfect-information hand needs
SMALL_TABLE_ENTRIES = 1 << 14
#: the mask of every root move
ALL_MOVES = (1 << 10) - 1


#: the table a search starts with (entries, 2 MB); it grows fourfold when
#: 70% full, up to the memory budget
FIRST_TABLE_ENTRIES = 1 << 16
#: the largest group table of a thread (:func:`kernels.new_groups`, 32 MB)
GROUP_MAX_ROWS = 1 << 20
#: the largest line cache of a thread (:meth:`Searcher._line_rows`, 4 MB)
LINE_MAX_ROWS = 1 << 16
#: an expectimax search of at least this many cards still to play (12
#: unseen cards and two hands of 3) starts with a table of
#: ``LARGE_FIRST_ENTRIES`` (64 MB, committed only as written, on huge
#: pages): growing there restarts the search and loses the entries
#: replaced meanwhile, and the rehash runs on one thread while the others
#: wait (em12: 14% fewer nodes than 2^16 growing; voleur12, which stores
#: up to 2.5 million entries, 20% less CPU than 2^20 on the positions that
#: grew; docs/performance.md)
LARGE_WORK = 18
LARGE_FIRST_ENTRIES = 1 << 21
#: from this many cards to play (18 unseen and two hands) the table grows
#: to the budget's gigabytes anyway: it starts at ``HUGE_FIRST_ENTRIES``
#: (32 MB), as measured at 18 unseen (docs/performance.md)
HUGE_WORK = 24
HUGE_FIRST_ENTRIES = 1 << 20


#: the groups of kernels :func:`ensure_compiled` loads: ``exact`` (an
#: exact solve's values and line), ``search`` (root scoring, values and
#: lines with and without chance nodes), ``samples`` (determinised batches),
#: ``vectors`` (three sides: max^n, paranoid, their determinised batches)
PARTS = ("exact", "search", "samples", "vectors")
_warmed: set[str] = set()


def ensure_compiled(stream=None, parts=PARTS) -> None:
    """Compile (or load from numba's on-disk cache) the kernels of
    ``parts`` (all by default), once per process: a search loads only what
    it needs before its clock starts (a one-line exact solve does not load
    the sampling kernels). When the cache is missing (the first run after
    installing), every kernel is compiled at once, saying so on ``stream``
    (stderr by default) and how long it took."""
    need = [p for p in parts if p not in _warmed]
    if not need:
        return
    from ..engine import _cache
    stream = stream if stream is not None else sys.stderr
    fresh = not _cache_present()
    t0 = time.perf_counter()
    if fresh:
        need = [p for p in PARTS if p not in _warmed]
        if _cache.compiling_since is None:
            print(_cache.NOTICE, file=stream, flush=True)
        else:
            t0 = _cache.compiling_since     # said as the engine was loaded
    for part in need:
        _WARM[part]()
        _warmed.add(part)
    if fresh:
        # the deal search too (the first position with a hidden stock):
        # its first use would otherwise compile it without a word
        from .deal_search import warm
        warm(announce=False)
        print(f"search core compiled in {time.perf_counter() - t0:.1f} s", file=stream,
              flush=True)


def _cache_present() -> bool:
    """Whether numba's cache holds the batch kernel (the last compiled)."""
    from ..engine._cache import on_disk
    return on_disk(kn.solve_samples)


def _tiny_game(shuffled: bool):
    from ..engine.compile import known_problem, shuffled_problem
    from ..notation import parse_position
    if shuffled:
        prob = shuffled_problem(parse_position("1.3.10 5.5.4/12.7.6 ~2.2.11.11.12.3 S"))
    else:
        prob = known_problem(parse_position("1.3.10 5.5.4/12.7.6 2.2.11.11.12.3 S"))
    return Searcher(prob.P, prob.D, 1.0), prob.st


def _warm_effects(P, D, st) -> None:
    """What each play does (analysis.effects: the play, the cards it takes,
    the piles), read from Python for every answer: loaded here, before a
    search's clock starts (the first exact answer's play took 10-15 ms
    of a ``--time 0.01`` budget to load)."""
    from ..engine import core
    r = core.lowest_rank(core.hand_of(st[1], st[2], st[3], st[4], st[5]))   # a play held
    core.play(P, D, st, r)
    core.taken_cards(P, st, r)
    core.pile_of(st[10], 0)
    core.top_of(st[10], 0)


def _warm_exact() -> None:
    s, st = _tiny_game(False)
    s.root_values_and_pv(st)
    _warm_effects(s.P, s.D, st)


def _warm_search() -> None:
    """Every root move, a value and a line, with and without chance nodes."""
    from ..engine.core import outcome_count
    for shuffled in (False, True):
        s, st = _tiny_game(shuffled)
        s.root_values(st)
        s.principal_variation(st)
        s.value(st)
        outcome_count(s.P, st[9], 10)       # auto's estimate of expectimax's cost
        if shuffled:
            Searcher(s.P, s.D, 1.0, 2).root_values(st)      # the helper kernel


def _warm_samples() -> None:
    """A determinised batch."""
    from ..engine.sampling import draw_spec, sampled_problem
    from ..notation import parse_position
    line = parse_position("1.3.10.12 2.2.7/?.?.? ? S declared=N:tringa")
    spec = draw_spec(line)
    sampler = Sampler(spec, 1.0)
    sampler.solve([0], seed=0)
    sampler.close()
    prob = sampled_problem(line)        # a draw from Python: auto's one-ply answer
    _warm_effects(prob.P, prob.D, prob.st)


def _warm_vectors() -> None:
    """Three sides: max^n and paranoid, known and shuffled stock, and a
    determinised batch of each."""
    from ..engine.compile import known_problem, shuffled_problem
    from ..engine.sampling import draw_spec
    from ..notation import parse_position
    from .vectors import VectorSampler, VectorSearcher
    for line, build in (("5.6 5.7/3.3/1.2 1.1.2.2.3.3.4.4.5 S rules=french", known_problem),
                        ("5.6 5.7/3.3/1.2 ~1.1.2.2.3.3.4.4.5 S rules=french",
                         shuffled_problem)):
        prob = build(parse_position(line))
        for search in ("maxn", "paranoid"):
            vs = VectorSearcher(prob.P, prob.D, 1.0, search)
            vs.root_values(prob.st)
            vs.principal_variation(prob.st)
    hidden = parse_position("5.6 5.7/?.?/?.? - S rules=french taken=12,10,10 last=E "
                            "gone=1.1.1.1.2.2.2.2.3.3.3.4.4.4.5.5.6.6.6.7.7.7.10."
                            "10.10.11.11.11.12.12.12.12")
    spec = draw_spec(hidden)
    for search in ("maxn", "paranoid"):
        vsampler = VectorSampler(spec, 1.0, 1, search)
        vsampler.solve([0], seed=0)
        vsampler.close()
    # auto's one-ply answer: a draw from Python, each seat's points of a play
    from ..engine import core
    from ..engine.sampling import sampled_problem
    prob = sampled_problem(hidden)
    child, _gain, ev = core.play(prob.P, prob.D, prob.st, 4)      # the 5
    core.play_points(prob.P, prob.D, prob.st, child, ev)
    _warm_effects(prob.P, prob.D, prob.st)
    core.outcome_count(prob.P, 15, 10)      # auto's estimate of expectimax's cost


_WARM = {"exact": _warm_exact, "search": _warm_search, "samples": _warm_samples,
         "vectors": _warm_vectors}


def _wait(th: threading.Thread, threads: list, Cs: list, deadline: float | None) -> None:
    """Wait for the search thread ``th``; at ``deadline`` (the budget clock, solver.runtime.clock)
    set every counter's abort. On Ctrl-C, abort every thread, wait for all
    of ``threads`` to unwind, and raise again."""
    try:
        while th.is_alive():
            left = None if deadline is None else deadline - clock.now()
            if left is not None and left <= 0:
                for C in Cs:
                    C[kn.C_ABORT] = kn.ABORT_TIME
            th.join(0.05 if left is None else max(0.0, min(left, 0.05)))
    except KeyboardInterrupt:
        for C in Cs:
            C[kn.C_ABORT] = kn.ABORT_TIME
        for other in threads:
            other.join()
        raise


class Searcher:
    """Exact search (alpha-beta, or expectimax when the game has chance
    nodes) of one game on the compiled core.

    ``P``, ``D``: the game's arrays (:func:`solver.engine.tables.params`);
    ``memory_mb``: the transposition table's budget. The table lives with
    this object: scoring every root move, then the principal variation,
    share it. States are core state tuples.
    """

    #: how several workers share a root: ``"outcomes"`` (helpers solve the
    #: outcomes of the chance node the search is in, :mod:`.parallel`) or
    #: ``"moves"`` (one root move a thread)
    split = "outcomes"

    def __init__(self, P: np.ndarray, D: np.ndarray, memory_mb: float = 16.0,
                 workers: int = 1) -> None:
        self.P = P
        self.D = D
        self.max_entries = table_entries(memory_mb)
        self.TT, self.TF = kn.new_table(min(FIRST_TABLE_ENTRIES, self.max_entries))
        self.K = kn.new_scratch(self._line_rows())
        self.C = kn.new_counters(outcome_cap=outcome_cap(memory_mb), board=workers > 1)
        from ..engine.endgame import lean_default
        self.C[kn.C_LEAN] = lean_default(P)
        #: the ``C_LEAN`` this searcher set (:meth:`_fit_root` sets it by
        #: the root while the caller has not set another)
        self._lean = int(self.C[kn.C_LEAN])
        self.memory_mb = memory_mb
        self.workers = max(1, workers)
        from ..engine.core import has_chance
        self.chance = bool(has_chance(P))
        self.O = self._outcome_cache()
        # the group tables come out of the transposition table's budget
        if self._group_rows():
            self.max_entries = max(2, self.max_entries - self.workers * min(
                GROUP_MAX_ROWS, self.max_entries // 8))
        # and so do the line caches at their largest (a thread's scratch:
        # with the table's full budget a match search at --memory 200 peaked
        # 36-60 MB over it)
        if self._line_rows():
            from ..engine.endgame import scratch_words
            rows = min(LINE_MAX_ROWS, self.max_entries // 16)
            self.max_entries = max(2, self.max_entries - self.workers * (
                scratch_words(rows) * 8 // kn.ENTRY_BYTES))
        # a table shared between threads seals its entries (lockless)
        self.C[kn.C_SHARED] = int(self.workers > 1)
        # the other threads' scratch and counters (the table is shared)
        self.helpers: list[tuple] = []
        self.grown = 0
        self._set_grow()

    def _outcome_cache(self):
        """A thread's outcome cache (10% of the budget shared by the
        threads, none without chance nodes) and its group table
        (:meth:`_group_rows`): the per-thread arrays the kernels take after
        the counters, ``(OK, OP, OR, G)``."""
        rows = int(self.memory_mb * 0.1 * (1 << 20) / self.workers / kn.OUTCOME_BYTES)
        return (*kn.new_outcome_cache(rows if self.chance else 1,
                                      (1 << 14) if self.chance else 2),
                kn.new_groups(self._group_rows()))

    def _group_rows(self) -> int:
        """Entries of a thread's group table (:func:`kernels.new_groups`):
        an eighth of the transposition table's (which starts small and
        grows: a large table's pages cost more to touch than a small
        search takes), at most ``GROUP_MAX_ROWS``; none where the game does
        not bound states by their groups (``CANON_DOMINANCE``: the match
        objective)."""
        from ..engine.core import CANON_DOMINANCE, P_CANON
        if not self.P[P_CANON] & CANON_DOMINANCE:
            return 0
        return min(GROUP_MAX_ROWS, self.TT.shape[0] // 8)

    def _line_rows(self) -> int:
        """Entries of a thread's line cache (the match objective's last
        deal, :func:`solver.engine.endgame.match_cached`, in the plies of
        its scratch past ``kernels.MAXPLY``): a sixteenth of the
        transposition table's entries (its pages touched as the table's
        are), at most ``LINE_MAX_ROWS``, and as many entries of 5-6 card
        states' trees (``endgame.BIG_COLS`` words each: at most 20 MB, touched
        only at chance nodes); none for the other objectives, three sides
        and Ronda voleur."""
        from ..engine.core import P_MATCH, P_NSIDES, P_VOLEUR
        if not self.P[P_MATCH] or self.P[P_NSIDES] != 2 or self.P[P_VOLEUR]:
            return 0
        return min(LINE_MAX_ROWS, self.TT.shape[0] // 16)

    def _scratch_lines(self, K) -> int:
        """The line cache's entries in scratch ``K`` (0: none)."""
        return int(K.reshape(-1)[kn.MAXPLY * K.shape[1] * K.shape[2]]) if (
            K.shape[0] > kn.MAXPLY) else 0

    def _fit_groups(self) -> None:
        """New group tables for every thread when the transposition
        table has outgrown them (their entries are only bounds: dropping
        them loses no value), and new line caches."""
        lines = self._line_rows()
        if lines >= 2 * self._scratch_lines(self.K) and lines > 0:
            self.K = kn.new_scratch(lines)
            self.helpers = [(kn.new_scratch(lines), C, O) for K, C, O in self.helpers]
        rows = self._group_rows()
        if rows < 2 * self.O[3].shape[0]:
            return
        self.O = (*self.O[:3], kn.new_groups(rows))
        self.helpers = [(K, C, (*O[:3], kn.new_groups(rows))) for K, C, O in self.helpers]

    def _counters(self) -> list[np.ndarray]:
        return [self.C] + [h[1] for h in self.helpers]

    def _set_grow(self) -> None:
        """Each thread's share of the entries at which the table grows
        (70% full), or never when it is as large as the budget allows."""
        n = self.TT.shape[0]
        Cs = self._counters()
        if n * 2 > self.max_entries:
            for C in Cs:
                C[kn.C_GROWAT] = 1 << 62
            return
        live = sum(int(C[kn.C_STORED]) for C in Cs)
        share = max(1, (int(0.7 * n) - live) // len(Cs))
        for C in Cs:
            C[kn.C_GROWAT] = int(C[kn.C_STORED]) + share

    def _grow(self) -> None:
        """Quadruple the table (or as much as the budget allows) and move
        the live entries over."""
        n = self.TT.shape[0]
        new = min(n * 4, self.max_entries)
        NT, NF = kn.new_table(new)
        Cs = self._counters()
        for C in Cs:
            C[kn.C_GROWAT] = 1 << 62        # the rehash must not ask to grow again
            C[kn.C_STORED] = 0
        kn.rehash(self.TT, self.TF, self.C, NT, NF)
        for C in Cs:
            C[kn.C_ABORT] = 0
        self.TT, self.TF = NT, NF
        self.grown += 1
        self._set_grow()
        self._fit_groups()

    def _may_grow(self, deadline: float | None) -> bool:
        """Whether the time left pays for the next growth's rehash (about
        40 ns an entry of the new table, three times over); if not, the
        table stays as it is and replaces entries from now on."""
        new = min(self.TT.shape[0] * 4, self.max_entries)
        if deadline is not None and deadline - clock.now() < 3 * 40e-9 * new:
            for C in self._counters():
                C[kn.C_GROWAT] = 1 << 62
                C[kn.C_ABORT] = 0
            return False
        return True

    def _call(self, fn, args_of, deadline):
        """Run a kernel; when it stops for a bigger table, grow and run
        again (completed subtrees are in the table, so little is redone)."""
        while True:
            args = args_of()
            out = fn(*args) if deadline is None else _run(fn, args, self.C, deadline)
            if self.C[kn.C_ABORT] != kn.ABORT_GROW:
                return out
            self.C[kn.C_ABORT] = 0
            if self._may_grow(deadline):
                self._grow()

    @property
    def nodes(self) -> int:
        """Decision nodes searched so far (every thread)."""
        return sum(int(C[kn.C_NODES]) for C in self._counters())

    def stats(self) -> dict[str, int]:
        """Counters: decision and chance nodes, table hits, Star1 cutoffs,
        entries stored and replaced, the table's size, the largest chance
        node."""
        def total(i: int) -> int:
            return sum(int(C[i]) for C in self._counters())
        return {"nodes": total(kn.C_NODES), "last_deal_nodes": total(kn.C_LNODES),
                "chance_nodes": total(kn.C_CHANCE),
                "tt_hits": total(kn.C_HITS), "star1_cutoffs": total(kn.C_CUTS),
                "tt_entries": total(kn.C_STORED), "tt_replaced": total(kn.C_REPLACED),
                "tt_capacity": int(self.TT.shape[0]), "tt_grown": self.grown,
                "max_outcomes": max(int(C[kn.C_MAXOUT]) for C in self._counters()),
                "threads": 1 + len(self.helpers)}

    def _check(self, t0: float) -> None:
        reason = int(self.C[kn.C_ABORT])
        if reason:
            self.C[kn.C_ABORT] = 0
            raise SearchAborted(_REASONS.get(reason, "time"), self.nodes,
                                time.perf_counter() - t0)

    def value(self, st, alpha: float = -math.inf, beta: float = math.inf,
              deadline: float | None = None) -> float:
        """The value of ``st`` for the side to move (fail-soft outside the
        window). Raises SearchAborted past ``deadline``."""
        t0 = time.perf_counter()
        self._fit_root(st)
        v = self._call(kn.value, lambda: (self.P, self.D, self.K, self.TT, self.TF, self.C,
                                          *self.O, st, alpha, beta), deadline)
        self._check(t0)
        return float(v)

    def _fit_root(self, st) -> None:
        """Before a search of ``st``: the last deal's lines by the root
        (:func:`~solver.engine.endgame.lean_for`, unless the caller set
        ``C_LEAN``); before the first search of a large expectimax, a
        larger table (nothing stored yet, so nothing to move)."""
        from ..engine.core import work_left
        from ..engine.endgame import lean_for
        work = int(work_left(self.P, st))
        if int(self.C[kn.C_LEAN]) == self._lean:
            self._lean = lean_for(self.P, work)
            for C in self._counters():
                C[kn.C_LEAN] = self._lean
        first = min(LARGE_FIRST_ENTRIES if work < HUGE_WORK else HUGE_FIRST_ENTRIES,
                    self.max_entries)
        if (self.chance and self.grown == 0 and self.TT.shape[0] < first
                and first >= HUGE_FIRST_ENTRIES
                and all(int(C[kn.C_STORED]) == 0 for C in self._counters())
                and work >= LARGE_WORK):
            self.TT, self.TF = kn.new_table(first)
            self._set_grow()
            self._fit_groups()

    def root_values(self, st, deadline: float | None = None) -> dict[int, float]:
        """Every legal move of ``st`` with its exact value; with several
        workers the root moves are shared out between threads (one table).
        Raises SearchAborted past ``deadline``."""
        t0 = time.perf_counter()
        self._fit_root(st)
        out = np.full(10, np.nan)
        heavy = self._searched_moves(st)
        level = self._first_chance_work(st) if self.workers > 1 and heavy else 0
        if self.split == "outcomes" and level:
            self._parallel_outcomes(st, out, level, deadline)
        elif self.workers > 1 and len(heavy) > 1:
            leaves = sum(1 << m for m in range(10) if m not in heavy)
            kn.root_values(self.P, self.D, self.K, self.TT, self.TF, self.C, *self.O, st, out,
                           leaves)
            self._parallel(st, out, heavy, deadline)
        else:
            self._call(kn.root_values, lambda: (self.P, self.D, self.K, self.TT, self.TF,
                                                self.C, *self.O, st, out, ALL_MOVES), deadline)
        self._check(t0)
        return {m: float(out[m]) for m in range(10) if not math.isnan(out[m])}

    def _searched_moves(self, st) -> list[int]:
        """The root moves that need a search (not leaves), best guess first."""
        from ..engine import core as ec
        n = ec.gen_children(self.P, self.D, self.K, 0, st)
        rows = [self.K[0, i] for i in range(n) if self.K[0, i, ec.K_KIND] != ec.KIND_LEAF]
        rows.sort(key=lambda r: (-int(r[ec.K_ORDER]), -int(r[ec.K_GAIN]), -int(r[ec.K_MOVE])))
        return [int(r[ec.K_MOVE]) for r in rows]

    def _first_chance_work(self, st) -> int:
        """The work left (:func:`~solver.engine.core.work_left`) at the
        first chance level below ``st``, 0 when there is none: the level
        whose chance nodes the helpers share out."""
        from ..engine import core as ec
        if not self.chance:
            return 0
        K = kn.new_scratch()
        while not ec.is_terminal(self.P, st):
            if ec.is_chance(self.P, st):
                return int(ec.work_left(self.P, st))
            n = ec.gen_children(self.P, self.D, K, 0, st)
            row = next((K[0, i] for i in range(n) if K[0, i, ec.K_KIND] != ec.KIND_LEAF),
                       None)
            if row is None:
                return 0
            st = tuple(int(x) for x in row[:ec.NSTATE])
        return 0

    def _add_helpers(self) -> None:
        """Scratch, counters and an outcome cache for each other thread."""
        while len(self.helpers) < self.workers - 1:
            C = kn.new_counters(outcome_cap=int(self.C[kn.C_OUTCAP]))
            C[kn.C_GEN] = self.C[kn.C_GEN]
            C[kn.C_TTMIN] = self.C[kn.C_TTMIN]
            C[kn.C_LEAN] = self.C[kn.C_LEAN]
            C[kn.C_LEXACT] = self.C[kn.C_LEXACT]
            C[kn.C_SHARED] = 1
            self.helpers.append((kn.new_scratch(self._line_rows()), C, self._outcome_cache()))
            self._set_grow()
        for h in self.helpers:
            h[1][kn.C_GEN] = self.C[kn.C_GEN]

    def _parallel_outcomes(self, st, out: np.ndarray, level: int,
                           deadline: float | None) -> None:
        """Score every root move on this thread while the other workers
        solve outcomes of the chance nodes at ``level`` work left that the
        search posts (:func:`solver.search.parallel.serve`). A thread that
        fills the table stops them all; the table grows and the search runs
        again (what was solved is in the table)."""
        from .parallel import serve
        self._add_helpers()
        Cs = self._counters()
        C = self.C
        while True:
            C[kn.C_PARMIN] = level
            C[kn.C_BSTOP] = 0
            if C[kn.C_BGEN] % 2 == 0:
                C[kn.C_BGEN] += 1
            threads = [threading.Thread(
                target=kn.root_values,
                args=(self.P, self.D, self.K, self.TT, self.TF, C, *self.O, st, out, ALL_MOVES),
                daemon=True)]
            for K, Ch, O in self.helpers:
                threads.append(threading.Thread(
                    target=serve, args=(self.P, self.D, K, self.TT, self.TF, Ch, *O, C),
                    daemon=True))
            for th in threads:
                th.start()
            try:
                _wait(threads[0], threads, Cs, deadline)
            finally:
                C[kn.C_BSTOP] = 1
                for th in threads[1:]:
                    th.join()
                C[kn.C_PARMIN] = 0
            reasons = [int(c[kn.C_ABORT]) for c in Cs]
            for c in Cs:
                c[kn.C_ABORT] = 0
            bad = [r for r in reasons if r not in (0, kn.ABORT_GROW)]
            if bad:
                C[kn.C_ABORT] = bad[0]
                return
            if not any(reasons):
                return
            if self._may_grow(deadline):
                self._grow()

    def _parallel(self, st, out: np.ndarray, moves: list[int],
                  deadline: float | None) -> None:
        """Score ``moves`` on ``workers`` threads sharing the table: each
        thread takes the next move from a queue. A thread that fills the
        table stops every thread; the table grows and the unfinished moves
        are searched again."""
        self._add_helpers()
        todo = list(moves)
        lock = threading.Lock()
        Cs = self._counters()
        scratch = [(self.K, self.O)] + [(h[0], h[2]) for h in self.helpers]

        def work(KO, C):
            K, O = KO
            while True:
                with lock:
                    if not todo or C[kn.C_ABORT] != 0:
                        return
                    m = todo.pop(0)
                kn.root_values(self.P, self.D, K, self.TT, self.TF, C, *O, st, out, 1 << m)
                if C[kn.C_ABORT] != 0:
                    with lock:
                        todo.insert(0, m)
                    if C[kn.C_ABORT] == kn.ABORT_GROW:
                        for other in Cs:
                            if other[kn.C_ABORT] == 0:
                                other[kn.C_ABORT] = kn.ABORT_GROW
                    return

        while todo:
            threads = [threading.Thread(target=work, args=(K, C), daemon=True)
                       for K, C in zip(scratch, Cs)]
            for th in threads:
                th.start()
            for th in threads:
                _wait(th, threads, Cs, deadline)
            reasons = [int(C[kn.C_ABORT]) for C in Cs]
            if any(r not in (0, kn.ABORT_GROW) for r in reasons):
                reason = next(r for r in reasons if r not in (0, kn.ABORT_GROW))
                for C in Cs:
                    C[kn.C_ABORT] = 0
                self.C[kn.C_ABORT] = reason
                return
            if any(reasons):
                for C in Cs:
                    C[kn.C_ABORT] = 0
                if self._may_grow(deadline):
                    self._grow()

    def root_values_and_pv(self, st, deadline: float | None = None,
                           max_plies: int = 200) -> tuple[dict[int, float], list[int]]:
        """:meth:`root_values` and :meth:`principal_variation` of ``st`` in
        one kernel call (one thread for the deadline, not one a ply): the
        answer of an exact solve. Raises SearchAborted past ``deadline``."""
        t0 = time.perf_counter()
        self._fit_root(st)
        out = np.full(10, np.nan)
        pv = np.zeros(max(1, max_plies), dtype=np.int64)
        n = self._call(kn.root_values_and_pv, lambda: (self.P, self.D, self.K, self.TT, self.TF,
                                                       self.C, *self.O, st, out, pv,
                                                       max_plies), deadline)
        self._check(t0)
        return ({m: float(out[m]) for m in range(10) if not math.isnan(out[m])},
                [int(m) for m in pv[:int(n)]])

    def principal_variation(self, st, deadline: float | None = None,
                            max_plies: int = 200) -> list[int]:
        """One optimal line from ``st`` to the end of the hand, or to the
        next chance node: at each ply the best move, the lowest rank on a
        tie (within 1e-9), so the line depends on exact values only."""
        from ..engine import core as ec
        pv: list[int] = []
        while (not ec.is_terminal(self.P, st) and not ec.is_chance(self.P, st)
               and len(pv) < max_plies):
            values = self.root_values(st, deadline)
            top = max(values.values())
            m = min(m for m, v in values.items() if v >= top - 1e-9)
            pv.append(m)
            st = ec.play(self.P, self.D, st, m)[0]
        return pv


# --- determinised search on threads -------------------------------------------------


class Sampler(SampleThreads):
    """Determinised search of one position on the compiled core: each
    sample drawn by the game from a DrawSpec, every root move solved
    exactly; ``workers`` threads (:class:`.sample_threads.SampleThreads`),
    each with its own table of ``memory_mb / workers``."""

    def __init__(self, spec, memory_mb: float = 64.0, workers: int = 1) -> None:
        super().__init__(spec, workers, kn.solve_samples, 13, (10,))
        per = memory_mb / self.workers
        for _ in range(self.workers):
            TT, TF = kn.new_table(min(table_entries(per), SMALL_TABLE_ENTRIES * 16))
            self.scratch.append((kn.new_scratch(), TT, TF, kn.new_counters(),
                                 *kn.new_sample_buffers(spec)))

    def _ready(self, scratch: tuple, n: int) -> None:
        _K, TT, _TF, C = scratch[:4]
        if C[kn.C_GEN] > kn.MAX_GEN - n - 1:
            TT[:] = 0
            C[kn.C_GEN] = 1
        C[kn.C_ABORT] = 0

    def _job(self, scratch: tuple, seeds, claim, out, nodes, done, drawn) -> tuple:
        K, TT, TF, C, OK, OP, OR, D, stock, work = scratch
        spec = self.spec
        return (spec.P, spec.base, spec.pool, spec.hidden, spec.stock, spec.nstock, spec.mode,
                spec.cons, seeds, claim, K, TT, TF, C, OK, OP, OR, D, stock, work, out, nodes,
                done, drawn)


def determinised(spec, samples: int, seed: int = 0, *, workers: int = 1,
                 min_samples: int = 30, batch: int = 32, z: float | None = Z_99,
                 time_budget: float | None = None, memory_mb: float = 64.0,
                 weigh: Callable[[np.ndarray], float] | None = None,
                 progress: Callable[[SampleResult], None] | None = None) -> SampleResult:
    """Determinised search on the compiled core, with the stopping rules of
    :func:`solver.search.pimc.determinised` (separated at ``z`` paired
    standard errors after ``min_samples``, at ``samples``, at
    ``time_budget`` seconds, on Ctrl-C), the result independent of
    ``workers`` (threads) for a given seed. Values in the game's unit
    (half-points). ``values`` of the result is the (samples, 10) array.

    ``weigh(hands)``: an importance weight for a determinisation from its
    hands (card sets, one a seat), for inference; the result's ``weights``
    and ``ess`` (effective sample size) then say how much the samples are
    worth. Raises ValueError when ``samples < 1``, CompileError when no
    drawing agrees with declared=, or when every weight is zero."""
    from ..engine.compile import CompileError
    if samples < 1:
        raise ValueError("samples must be at least 1")
    t0 = time.perf_counter()
    deadline = None if time_budget is None else clock.now() + time_budget
    sampler = Sampler(spec, memory_mb, workers)
    rows: list[np.ndarray] = []
    weights: list[float] = []
    nodes = 0
    stopped, partial = "samples", False
    result = None

    def keep(vals, nds, ok, drawn) -> bool:
        """Add the finished samples of a batch; whether all finished."""
        nonlocal nodes
        finished = ok == 1
        new = list(vals[finished])
        ws = [weigh(h) for h in drawn[finished]] if weigh is not None else []
        rows.extend(new)
        weights.extend(ws)
        nodes += int(nds[finished].sum())
        return bool(finished.all())

    try:
        done = 0
        try:
            while done < samples:
                n = min(batch, samples - done)
                try:
                    got = sampler.solve(list(range(done, done + n)), seed, deadline)
                except KeyboardInterrupt as e:
                    if hasattr(e, "finished") and not (e.finished[2] < 0).any():
                        keep(*e.finished)
                    raise
                if (got[2] < 0).any():
                    raise CompileError("no drawing of the unknown cards agrees with declared=")
                complete = keep(*got)
                done += n
                if not complete:
                    stopped = "time"
                    break
                if weigh is None or sum(weights) > 0:
                    result = _result(rows, weights, nodes, stopped, partial, t0, workers)
                    if progress is not None:
                        progress(result)
                    if z is not None and done >= min_samples and _separated(result, z):
                        stopped = "separated"
                        break
                if deadline is not None and clock.now() >= deadline:
                    stopped = "time"
                    break
        except KeyboardInterrupt:
            # Ctrl-C, SIGTERM, SIGHUP: the samples finished so far are the
            # answer so far (marked partial); with none there is no answer
            stopped, partial = "interrupted", True
            if weigh is not None:
                del rows[len(weights):]
            if not rows:
                raise
        if not rows and not partial:
            # the budget ended before one sample: one is still needed for an
            # answer (a whole hand solves in about a millisecond)
            vals, nds, ok, drawn = sampler.solve([0], seed, None)
            if ok[0] == 1:
                rows.extend(vals)
                if weigh is not None:
                    weights.extend(weigh(h) for h in drawn)
                nodes += int(nds.sum())
    finally:
        sampler.close()
    if not rows:
        raise SearchAborted("time", nodes, time.perf_counter() - t0)
    if weigh is not None and sum(weights) <= 0:
        raise CompileError("the plays recorded in hist= are impossible for every hand drawn")
    return _result(rows, weights, nodes, stopped, partial, t0, workers)


def _result(rows, weights, nodes, stopped, partial, t0, workers) -> SampleResult:
    values = np.array(rows)
    w = np.array(weights) if weights else None
    out = SampleResult(summarise_array(values, w), len(rows), nodes, stopped, partial,
                       time.perf_counter() - t0, workers, values)
    if w is not None:
        out.weights = w
        out.ess = float(w.sum() ** 2 / (w * w).sum())
    return out


def _separated(result: SampleResult, z: float) -> bool:
    others = [m.lead_z for m in result.moves[1:]]
    return all(v is not None and v > z for v in others)


_local = threading.local()


def exact_value(P: np.ndarray, D: np.ndarray, st, deadline: float | None = None) -> float:
    """The exact value of a perfect-information (or small chance) state,
    on a per-thread searcher reused across calls (a new table generation
    each call, 8 MB): for callers that solve many small positions (the
    luck of the deal, puzzles). Raises SearchAborted past ``deadline``
    (None: none); the searcher stays usable."""
    s = getattr(_local, "searcher", None)
    if s is None:
        s = _local.searcher = Searcher(P, D, 8.0)
    if s.P is not P:
        # a new game: the cached deals were the old game's
        from ..engine.core import has_chance
        s.P, s.chance = P, bool(has_chance(P))
        s.O = s._outcome_cache()
        # the line cache's lines are the old rules' (its entries know the
        # cards only)
        s.K = kn.new_scratch(s._line_rows())
        s.C[kn.C_OUSED] = s.C[kn.C_OKEYS] = 0
    s.D = D
    s.C[kn.C_GEN] += 1
    if s.C[kn.C_GEN] >= kn.MAX_GEN:
        s.TT[:] = 0
        s.C[kn.C_GEN] = 1
    return s.value(st, deadline=deadline)
