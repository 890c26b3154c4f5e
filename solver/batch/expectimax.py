"""Exact expectimax of one position on a Dask cluster, resumable.

The root is split at its first chance level (:mod:`solver.search.split`):
a few chance nodes, each with thousands of outcome children, each an
independent exact search. The outcomes are sent to the cluster in batches
(one table a batch: neighbouring outcomes share subtrees); each batch's
values are written to the analysis store as it arrives, so a run that is
stopped (Ctrl-C, a lost coordinator) resumes where it was with the same
store. An outcome child still too large for one worker (more than
``leaf_unseen`` cards to come) is split again the same way, on the
coordinator, its own outcomes sent to the cluster: a whole hand runs as
a two-level split.

The answer is the same as the single-machine search
(:meth:`solver.search.compiled.Searcher.root_values`): every root move's
exact value, in half-points for the mover's side.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..search import split as sp


@dataclass
class ClusterProgress:
    """Where a split search is: outcomes ``done`` of ``total`` known so far
    (``stored``: found in the store at the start), the worker-seconds and
    nodes they took, wall ``seconds``."""

    done: int = 0
    total: int = 0
    stored: int = 0
    worker_seconds: float = 0.0
    nodes: int = 0
    seconds: float = 0.0
    tasks: int = 0
    sizes: list = field(default_factory=list)

    def as_dict(self) -> dict:
        """JSON-ready figures."""
        return {"outcomes": self.total, "done": self.done, "stored": self.stored,
                "tasks": self.tasks, "worker_seconds": round(self.worker_seconds, 3),
                "nodes": self.nodes, "seconds": round(self.seconds, 3)}


class ClusterSearch:
    """Exact expectimax of positions of one game (``P``, ``D``) on
    ``client``'s cluster, outcomes kept in ``store`` (an
    :class:`~solver.batch.store.Store`, or None)."""

    def __init__(self, P: np.ndarray, D: np.ndarray, client, store=None, *,
                 leaf_unseen: int = 18, memory_mb: float = 2048.0,
                 batch_seconds: float = 20.0, deadline: float | None = None,
                 progress: Callable[[ClusterProgress], None] | None = None) -> None:
        self.P, self.D = P, D
        self.client = client
        self.store = store
        self.leaf_unseen = leaf_unseen
        self.memory_mb = memory_mb
        self.batch_seconds = batch_seconds
        self.progress = progress
        self.deadline = deadline
        self.stats = ClusterProgress()
        self.t0 = time.perf_counter()
        self.threads = max(1, sum(client.nthreads().values()))

    # --- the split, recursively ---------------------------------------------

    def root_values(self, root) -> dict[int, float]:
        """Every legal move of ``root`` with its exact value. Raises
        SearchAborted at the deadline (what is finished is in the store)."""
        return sp.root_values(*self.solve(root))

    def solve(self, root) -> tuple:
        """``(tree, chance values)`` of ``root``'s split (for
        :func:`solver.search.split.root_values` and
        :func:`solver.search.split.principal_variation`)."""
        tree = sp.split(self.P, self.D, root)
        self.stats.total += tree.outcomes()
        values = {cn: self._chance(cn, probs, rows) for cn, (probs, rows) in tree.chance.items()}
        return tree, values

    def value(self, st) -> float:
        """The exact value of ``st`` for its mover."""
        vals = self.root_values(st)
        return max(vals.values()) if vals else 0.0

    def _chance(self, cn, probs, rows) -> float:
        key = sp.chance_key(self.P, self.D, cn)
        known = self.store.outcome_values(key) if self.store is not None else {}
        k = len(probs)
        self.stats.stored += len(known)
        self.stats.done += len(known)
        values: dict[int, float] = dict(known)
        todo = [i for i in range(k) if i not in values]
        big = [i for i in todo
               if sp.unseen(self.P, sp.outcome_child(self.P, cn, rows, i)) > self.leaf_unseen]
        small = [i for i in todo if i not in set(big)]
        if small:
            values.update(self._send(cn, key, small))
        for i in big:          # a child still too large: split it again
            v = self.value(sp.outcome_child(self.P, cn, rows, i))
            values[i] = v
            self.stats.done += 1
            if self.store is not None:
                self.store.write_outcomes(key, {i: v})
        return sp.chance_value(probs, rows, [values[i] for i in range(k)])

    # --- the cluster ------------------------------------------------------------

    def _batches(self, todo: list[int]) -> list[list[int]]:
        """Batches of outcome indices: a first round of single outcomes to
        time them, then about ``batch_seconds`` of work each, and at least
        four batches a worker thread while there are enough."""
        per = self._seconds_per_outcome()
        n = len(todo)
        size = max(1, int(self.batch_seconds / per)) if per else 1
        size = min(size, max(1, math.ceil(n / (4 * self.threads))))
        return [todo[i:i + size] for i in range(0, n, size)]

    def _seconds_per_outcome(self) -> float | None:
        sizes = self.stats.sizes
        if not sizes:
            return None
        return float(np.median(sizes))

    def _send(self, cn, key: str, todo: list[int]) -> dict[int, float]:
        from dask.distributed import as_completed
        out: dict[int, float] = {}
        if not self.stats.sizes:        # time a few first
            first, todo = todo[:self.threads], todo[self.threads:]
            out.update(self._run(cn, key, [[i] for i in first], as_completed))
        if todo:
            out.update(self._run(cn, key, self._batches(todo), as_completed))
        return out

    def _run(self, cn, key, batches, as_completed) -> dict[int, float]:
        from ..search.compiled import SearchAborted
        futures = {}
        seq = as_completed()
        window = iter(batches)
        out: dict[int, float] = {}

        def check_time() -> None:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                raise SearchAborted("time", self.stats.nodes, time.perf_counter() - self.t0)

        def submit() -> bool:
            b = next(window, None)
            if b is None:
                return False
            f = self.client.submit(sp.solve_outcomes, self.P, self.D, cn, b, self.memory_mb,
                                   pure=False, retries=3)
            futures[f.key] = (f, b)
            seq.add(f)
            return True

        for _ in range(4 * self.threads):
            if not submit():
                break
        try:
            while not seq.is_empty():
                check_time()
                ready = seq.next_batch(block=False)
                if not ready:
                    time.sleep(0.01)
                    continue
                for f in ready:
                    _f, b = futures.pop(f.key)
                    res = f.result()
                    vals = dict(zip(b, res["values"]))
                    out.update(vals)
                    if self.store is not None:
                        self.store.write_outcomes(key, vals)
                    self.stats.done += len(b)
                    self.stats.tasks += 1
                    self.stats.worker_seconds += res["seconds"]
                    self.stats.nodes += res["nodes"]
                    self.stats.sizes.append(res["seconds"] / len(b))
                    self.stats.seconds = time.perf_counter() - self.t0
                    if self.progress is not None:
                        self.progress(self.stats)
                    submit()
        except BaseException:
            self.client.cancel([f for f, _b in futures.values()])
            raise
        return out


class Cluster:
    """A cluster for ``ronda-solve --method expectimax``: a Dask client
    (``scheduler`` ``tcp://HOST:8786``, or a LocalCluster of ``workers``
    processes), the store of finished outcomes (``db``, or none), and
    the options of :class:`ClusterSearch`. ``solve`` is what
    :func:`solver.analysis.evaluation.evaluate` calls."""

    def __init__(self, scheduler: str | None, workers: int, db: str | None = None, *,
                 leaf_unseen: int = 18, memory_mb: float = 2048.0,
                 progress: Callable[[ClusterProgress], None] | None = None) -> None:
        from .run import connect
        from .store import Store
        self.store = Store(db) if db else None
        self.db = db
        self.client, self.local = connect(scheduler, workers)
        n = len(self.client.nthreads())
        self.where = (f"the cluster at {scheduler} ({n} workers)" if scheduler
                      else f"a local cluster of {n} worker{'s' * (n != 1)}")
        self.leaf_unseen = leaf_unseen
        self.memory_mb = memory_mb
        self.progress = progress
        self.last: ClusterSearch | None = None

    def solve(self, P: np.ndarray, D: np.ndarray, st, deadline: float | None):
        """``(root move values, principal variation, figures)``; raises
        SearchAborted at ``deadline``."""
        cs = ClusterSearch(P, D, self.client, self.store, leaf_unseen=self.leaf_unseen,
                           memory_mb=self.memory_mb, deadline=deadline,
                           progress=self.progress)
        self.last = cs
        tree, values = cs.solve(st)
        stats = cs.stats.as_dict()
        return sp.root_values(tree, values), sp.principal_variation(tree, values), stats

    def kept(self) -> str:
        """What a stopped search left for the next run."""
        done = self.last.stats.done if self.last else 0
        if self.store is None:
            return f"{done:,} outcomes were solved but not kept (no --db)"
        return (f"{done:,} finished outcomes are kept in {self.db}: the same command "
                "resumes from them")

    def close(self) -> None:
        """Disconnect (and stop a local cluster)."""
        self.client.close()
        if self.local is not None:
            self.local.close()
        if self.store is not None:
            self.store.close()
