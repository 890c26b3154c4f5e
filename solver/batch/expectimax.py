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
                 batch_seconds: float = 20.0,
                 progress: Callable[[ClusterProgress], None] | None = None) -> None:
        self.P, self.D = P, D
        self.client = client
        self.store = store
        self.leaf_unseen = leaf_unseen
        self.memory_mb = memory_mb
        self.batch_seconds = batch_seconds
        self.progress = progress
        self.stats = ClusterProgress()
        self.t0 = time.perf_counter()
        self.threads = max(1, sum(client.nthreads().values()))

    # --- the split, recursively ---------------------------------------------

    def root_values(self, root) -> dict[int, float]:
        """Every legal move of ``root`` with its exact value."""
        tree = sp.split(self.P, self.D, root)
        self.stats.total += tree.outcomes()
        values = {cn: self._chance(cn, probs, rows) for cn, (probs, rows) in tree.chance.items()}
        return sp.root_values(tree, values)

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
        futures = {}
        seq = as_completed()
        window = iter(batches)
        out: dict[int, float] = {}

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
            for f in seq:
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
