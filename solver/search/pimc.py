"""Determinised search (perfect-information Monte Carlo).

Sample the hidden information (stock orders, unseen hands) with a seeded
RNG, solve every root move of each sample exactly with
:class:`~solver.search.alphabeta.AlphaBeta`, and average. Every root move
is scored on the same samples (common random numbers), so the differences
between moves are measured with much less noise than the values.

Sample ``i`` draws from its own generator ``Random(f"{seed}:{i}")``, so the
result depends on the seed and the number of samples only, never on how
many worker processes share the work.

Stopping (as GNU Backgammon stops a rollout): after ``min_samples``, at
the end of each batch, stop when the best move's lead over every other
move, divided by the standard error of that paired difference, exceeds
``z`` (2.33: 99% one-sided), or at the sample budget, or at the time
budget, or on Ctrl-C (the answer so far is returned, marked partial).

The game is reached only through a picklable *factory*: ``factory(arg)``
returns ``sample(rng) -> (game, state)``; the search knows nothing else.
"""

from __future__ import annotations

import math
import os
import random
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

from .alphabeta import AlphaBeta

Z_99 = 2.33


@dataclass
class SampledMove:
    """Statistics of one root move over the samples, in the game's unit:
    ``mean``, ``stderr`` (standard error of the mean; None for one sample),
    ``best`` (samples in which this move was among the best), ``lead_z``
    (the best move's lead over this one in paired standard errors; None
    for the best move itself)."""

    move: int
    mean: float
    stderr: float | None
    best: int
    lead_z: float | None = None


@dataclass
class SampleResult:
    """What a determinised search measured: per-move statistics (best
    first), the number of ``samples``, the total ``nodes``, ``stopped``
    (``"separated"``, ``"samples"``, ``"time"`` or ``"interrupted"``),
    ``partial`` (interrupted), ``seconds``, ``workers``; with inference the
    ``weights`` of the samples and their effective sample size ``ess``."""

    moves: list[SampledMove]
    samples: int
    nodes: int
    stopped: str = "samples"
    partial: bool = False
    seconds: float = 0.0
    workers: int = 1
    values: list[dict[int, int]] = field(default_factory=list, repr=False)
    #: importance weights of the samples (inference), None when unweighted
    weights: object = field(default=None, repr=False)
    #: the effective sample size of the weights (None when unweighted)
    ess: float | None = None


_WORKER_CACHE: dict = {}


def _init_worker() -> None:
    # Ctrl-C is the parent's to handle: it stops the pool and reports.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def solve_samples(factory: Callable, arg, seed: int, indices: list[int],
                  deadline: float | None = None, max_entries: int | None = None):
    """Solve the samples ``indices``: ``[(values, nodes), ...]`` with
    ``values`` a ``{move: value}`` dict. Runs in a worker process or in
    this one; the sampler is built once per process and argument. Past
    ``deadline`` (``time.monotonic()``, the same clock in every process)
    the sample being solved is dropped and the ones finished are returned
    (fewer than asked); ``max_entries`` caps each search's table
    (:mod:`solver.search.guard`)."""
    from .guard import Guarded, Stopped
    key = (factory, arg)
    sample = _WORKER_CACHE.get(key)
    if sample is None:
        sample = _WORKER_CACHE[key] = factory(arg)
    out = []
    for i in indices:
        if deadline is not None and time.monotonic() > deadline:
            break
        game, state = sample(random.Random(f"{seed}:{i}"))
        guarded = Guarded(game, deadline, max_entries=max_entries)
        ab = AlphaBeta(guarded)
        guarded.watch(ab.tt)
        try:
            out.append((ab.root_values(state), ab.stats.nodes))
        except Stopped:
            break
    return out


def determinised(factory: Callable, arg, samples: int, seed: int = 0, *,
                 workers: int = 1, min_samples: int = 30, batch: int = 32,
                 z: float | None = Z_99, time_budget: float | None = None,
                 progress: Callable[[SampleResult], None] | None = None,
                 memory_mb: float | None = None) -> SampleResult:
    """Average the exact root-move values of up to ``samples``
    determinisations.

    ``factory(arg)`` builds the sampler (both must pickle for
    ``workers > 1``). ``z=None`` disables the early stop (exactly
    ``samples`` samples). ``time_budget`` in seconds is kept inside the
    samples too: at its end the sample being solved is dropped and the
    answer is the samples finished (``stopped`` "time").
    ``memory_mb`` caps each sample's table. ``progress(result_so_far)`` is
    called after each batch. Raises ValueError when ``samples < 1``, and
    :class:`solver.search.guard.Stopped` when the time ended before one
    sample finished.
    """
    from .guard import Stopped, entries_for
    if samples < 1:
        raise ValueError("samples must be at least 1")
    t0 = time.perf_counter()
    values: list[dict[int, int]] = []
    nodes = 0
    stopped = "samples"
    partial = False
    pool = ProcessPoolExecutor(workers, initializer=_init_worker) if workers > 1 else None
    deadline = None if time_budget is None else time.monotonic() + time_budget
    cap = entries_for(memory_mb)
    result = None
    try:
        done = 0
        while done < samples:
            n = min(batch, samples - done)
            idx = list(range(done, done + n))
            if pool is None:
                solved = solve_samples(factory, arg, seed, idx, deadline, cap)
            else:
                parts = [idx[k::workers] for k in range(workers) if idx[k::workers]]
                futures = [pool.submit(solve_samples, factory, arg, seed, p, deadline, cap)
                           for p in parts]
                # restore sample order: part k holds indices k, k+workers, ...
                solved = [None] * n
                for k, future in enumerate(futures):
                    for j, item in enumerate(future.result()):
                        solved[k + j * workers] = item
                # a part stopped by the deadline leaves holes: keep the
                # samples before the first hole (the order stays the seed's)
                if None in solved:
                    solved = solved[:solved.index(None)]
            for vals, nd in solved:
                values.append(vals)
                nodes += nd
            done += n
            if len(solved) < n:
                stopped = "time"
                break
            result = _summary(values, nodes, stopped, partial, t0, workers)
            if progress is not None:
                progress(result)
            if z is not None and done >= min_samples and _separated(result, z):
                stopped = "separated"
                break
            if time_budget is not None and time.perf_counter() - t0 >= time_budget:
                stopped = "time"
                break
    except KeyboardInterrupt:
        stopped, partial = "interrupted", True
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
            pool = None
        if not values:
            raise
    finally:
        if pool is not None:
            pool.shutdown()
    if not values:
        raise Stopped("time", nodes)
    return _summary(values, nodes, stopped, partial, t0, workers)


def default_workers() -> int:
    """The machine's cores (the default of ``--workers``)."""
    return os.cpu_count() or 1


def _summary(values, nodes, stopped, partial, t0, workers) -> SampleResult:
    moves = summarise(values)
    return SampleResult(moves, len(values), nodes, stopped, partial,
                        time.perf_counter() - t0, workers, values)


def _separated(result: SampleResult, z: float) -> bool:
    """The best move leads every other by more than ``z`` paired standard
    errors (a lone legal move is separated at once)."""
    others = [m.lead_z for m in result.moves[1:]]
    return all(v is not None and v > z for v in others)


def summarise(per_sample: list[dict[int, int]]) -> list[SampledMove]:
    """Mean, standard error, best-count and the best move's paired lead
    (in standard errors) of every move over the samples, best mean first."""
    moves = list(per_sample[0])
    n = len(per_sample)
    best_count = {m: 0 for m in moves}
    for values in per_sample:
        top = max(values.values())
        for m, v in values.items():
            if v == top:
                best_count[m] += 1
    stats = []
    for m in moves:
        xs = [values[m] for values in per_sample]
        mean = sum(xs) / n
        stats.append(SampledMove(m, mean, _stderr(xs, mean), best_count[m]))
    stats.sort(key=lambda s: (-s.mean, s.move))
    top = stats[0].move
    for s in stats[1:]:
        diffs = [values[top] - values[s.move] for values in per_sample]
        mean = sum(diffs) / n
        se = _stderr(diffs, mean)
        if se is None:
            s.lead_z = None
        elif se == 0:
            s.lead_z = math.inf if mean > 0 else 0.0
        else:
            s.lead_z = mean / se
    return stats


def _stderr(xs: list[float], mean: float) -> float | None:
    n = len(xs)
    if n < 2:
        return None
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return math.sqrt(var / n)
