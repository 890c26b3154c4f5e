"""The threads of a determinised search: each batch of samples is solved
by ``workers`` threads that take the samples from one shared counter
(claims, :func:`solver.search.kernels.fetch_add`), each with its own
scratch and tables, every sample's values written to the batch's arrays.
:class:`solver.search.compiled.Sampler` (two sides) and
:class:`solver.search.vectors.VectorSampler` (three sides) say only what
a thread's scratch holds and which kernel solves; the batch, its seeds
(:func:`solver.engine.sampling.sample_seed`: the result depends on the
seed and the sample count only, never on the threads) and the budget
(:func:`solver.search.budget.run_jobs`) are here once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .budget import run_jobs


class SampleThreads:
    """The threads of one position's determinised search: ``kernel`` (a
    compiled ``solve_samples``) with its counters at argument ``control``,
    one value row of shape ``shape`` a sample. Subclasses fill
    ``self.scratch`` (one entry a thread) and write :meth:`_ready` and
    :meth:`_job`."""

    def __init__(self, spec, workers: int, kernel, control: int, shape: tuple) -> None:
        self.spec = spec
        self.workers = max(1, workers)
        self.kernel = kernel
        self.control = control
        self.shape = shape
        self.scratch: list[tuple] = []
        self.pool = ThreadPoolExecutor(self.workers) if self.workers > 1 else None

    def close(self) -> None:
        """Stop the threads."""
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None

    def _ready(self, scratch: tuple, n: int) -> None:
        """Make a thread's ``scratch`` ready for a batch of ``n`` samples
        (its tables cleared when their generation would run out)."""
        raise NotImplementedError

    def _job(self, scratch: tuple, seeds, claim, out, nodes, done, drawn) -> tuple:
        """The kernel's arguments for one thread."""
        raise NotImplementedError

    def solve(self, indices: list[int], seed: int, deadline: float | None = None):
        """Solve samples ``indices`` (consecutive): ``(values, nodes,
        done, drawn)`` arrays over them, ``values[i]`` the root moves'
        values (NaN where illegal), ``done[i]`` 1 finished, 0 stopped by
        the deadline, -1 no drawing agrees with declared=, ``drawn[i]`` the
        hands of the determinisation (card sets, one a seat). On Ctrl-C
        the KeyboardInterrupt carries them as ``finished``: the samples
        finished before the stop are kept for the answer so far."""
        from ..engine.sampling import sample_seed
        n = len(indices)
        seeds = np.array([sample_seed(seed, i) for i in indices], dtype=np.int64)
        out = np.full((n, *self.shape), np.nan)
        nodes = np.zeros(n, dtype=np.int64)
        done = np.zeros(n, dtype=np.int64)
        drawn = np.zeros((n, 4), dtype=np.int64)
        claim = np.zeros(1, dtype=np.int64)     # the next sample a thread takes
        jobs = []
        for w in range(min(self.workers, n)):
            self._ready(self.scratch[w], n)
            jobs.append(self._job(self.scratch[w], seeds, claim, out, nodes, done, drawn))
        try:
            run_jobs(self.pool, self.kernel, jobs, self.control, deadline)
        except KeyboardInterrupt as e:
            e.finished = (out, nodes, done, drawn)
            raise
        return out, nodes, done, drawn
