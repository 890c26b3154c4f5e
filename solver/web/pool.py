"""The search pool of the web app: worker processes that run the searches,
so the event loop never blocks.

:class:`SearchPool` starts ``size`` worker processes (each loads the
compiled search core once) and hands each one job at a time: at most
``size`` searches run at once, up to ``queue`` more wait their turn, and
one more is refused with :class:`Busy` (HTTP 429). A job is a task name of
:mod:`solver.web.tasks` and its arguments; the worker sends progress
messages while it runs, then the result or a one-line error.

Cancelling a running job sends SIGINT to its worker: the search stops as
it stops on Ctrl-C in the command line (the answer so far is dropped) and
the worker takes the next job. A job that outlives its time limit (the
search's own budget plus a grace) has its worker killed and replaced, so
no request can hold a worker for ever.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing as mp
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

#: seconds a job may run past its own time limit before its worker is killed
GRACE = 15.0

_busy = False           # in a worker: a job is running (SIGINT may stop it)


class Busy(Exception):
    """Too many searches: every worker is busy and the queue is full."""


def _on_sigint(signum, frame) -> None:
    if _busy:
        raise KeyboardInterrupt("cancelled")


def _worker(conn) -> None:
    """A worker process: run jobs from ``conn`` until it closes."""
    global _busy
    signal.signal(signal.SIGINT, _on_sigint)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    from . import tasks
    from ..search.compiled import ensure_compiled
    ensure_compiled()
    conn.send(("ready", None, None))
    while True:
        try:
            msg = conn.recv()
        except KeyboardInterrupt:   # a late cancel, between two jobs
            continue
        except (EOFError, OSError):
            return
        if msg is None:
            return
        job_id, name, args = msg

        def progress(data: dict, _id=job_id) -> None:
            conn.send(("progress", _id, data))

        _busy = True
        try:
            out = ("done", job_id, getattr(tasks, name)(progress=progress, **args))
        except KeyboardInterrupt:
            out = ("cancelled", job_id, "cancelled")
        except Exception as e:   # a one-line error for the client, never a traceback
            out = ("failed", job_id, tasks.one_line(e))
        finally:
            _busy = False
        conn.send(out)


@dataclass
class Job:
    """One search: ``id``, ``task`` name, ``args``, ``limit`` seconds,
    ``state`` (queued, running, done, failed, cancelled), ``progress``
    (the latest message), ``result`` or ``error``, times."""

    id: str
    task: str
    args: dict
    limit: float
    state: str = "queued"
    progress: dict = field(default_factory=dict)
    result: Any = None
    error: str | None = None
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    future: asyncio.Future | None = None

    def public(self) -> dict:
        """The job as the API shows it."""
        now = time.monotonic()
        elapsed = None
        if self.started is not None:
            elapsed = round((self.finished or now) - self.started, 3)
        from ..numbers import tidy
        return tidy({"id": self.id, "task": self.task, "state": self.state,
                     "progress": self.progress, "elapsed": elapsed, "limit": self.limit,
                     "result": self.result, "error": self.error})


class _Worker:
    """A worker process and the parent's end of its pipe."""

    def __init__(self, ctx) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.job: Job | None = None
        self.ready = threading.Event()


class SearchPool:
    """``size`` worker processes and a queue of ``queue`` jobs (see the
    module docstring). Start it with :meth:`start` inside the event loop,
    stop it with :meth:`close`."""

    def __init__(self, size: int = 2, queue: int = 8) -> None:
        self.size = size
        self.queue_size = queue
        self.jobs: dict[str, Job] = {}
        self._ids = itertools.count(1)
        self._ctx = mp.get_context("spawn")
        self._workers: list[_Worker] = []
        self._queue: asyncio.Queue | None = None
        self._tasks: list[asyncio.Task] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    # --- life -----------------------------------------------------------

    async def start(self) -> None:
        """Start the workers and their dispatchers (in the running loop)."""
        self._loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        for _ in range(self.size):
            w = await self._loop.run_in_executor(None, _Worker, self._ctx)
            self._workers.append(w)
            self._tasks.append(asyncio.create_task(self._dispatch(len(self._workers) - 1)))

    async def close(self) -> None:
        """Stop the dispatchers and end the workers."""
        for t in self._tasks:
            t.cancel()
        for w in self._workers:
            self._end(w)

    @staticmethod
    def _end(w: _Worker) -> None:
        try:
            w.conn.send(None)
        except (OSError, BrokenPipeError):
            pass
        w.proc.join(1)
        if w.proc.is_alive():
            w.proc.kill()
            w.proc.join()
        w.conn.close()

    def pids(self) -> list[int]:
        """The workers' process ids."""
        return [w.proc.pid for w in self._workers]

    # --- jobs -----------------------------------------------------------

    def waiting(self) -> int:
        """Jobs queued, not yet running."""
        return sum(1 for j in self.jobs.values() if j.state == "queued")

    def running(self) -> int:
        """Jobs running."""
        return sum(1 for j in self.jobs.values() if j.state == "running")

    def submit(self, task: str, args: dict, limit: float) -> Job:
        """Queue task ``task`` of :mod:`solver.web.tasks` with ``args``;
        ``limit``: the seconds it may take (its worker is killed
        :data:`GRACE` seconds after). Raises :class:`Busy` when ``size``
        jobs run and ``queue`` wait."""
        assert self._queue is not None and self._loop is not None, "pool not started"
        if self.running() >= self.size and self.waiting() >= self.queue_size:
            raise Busy(f"too many searches: {self.running()} running and {self.waiting()} "
                       f"waiting (at most {self.size} + {self.queue_size}); try again when "
                       f"one finishes")
        self._forget_old()
        job = Job(f"{next(self._ids)}-{os.urandom(4).hex()}", task, args, limit)
        job.future = self._loop.create_future()
        self.jobs[job.id] = job
        self._queue.put_nowait(job)
        return job

    def cancel(self, job: Job) -> None:
        """Cancel ``job``: dropped when queued, stopped when running."""
        if job.state == "queued":
            self._settle(job, "cancelled", error="cancelled")
        elif job.state == "running":
            for w in self._workers:
                if w.job is job and w.proc.pid:
                    job.progress = {**job.progress, "cancelling": True}
                    os.kill(w.proc.pid, signal.SIGINT)

    def _forget_old(self, keep: float = 600.0) -> None:
        now = time.monotonic()
        for jid in [j.id for j in self.jobs.values()
                    if j.finished is not None and now - j.finished > keep]:
            del self.jobs[jid]

    def _settle(self, job: Job, state: str, result: Any = None, error: str | None = None) -> None:
        if job.finished is not None:
            return
        job.state, job.result, job.error = state, result, error
        job.finished = time.monotonic()
        if job.future is not None and not job.future.done():
            job.future.set_result(job)

    async def _dispatch(self, i: int) -> None:
        assert self._queue is not None and self._loop is not None
        loop = self._loop
        while True:
            job = await self._queue.get()
            if job.state != "queued":
                continue
            w = self._workers[i]
            job.state, job.started = "running", time.monotonic()
            w.job = job
            try:
                state, payload = await asyncio.wait_for(
                    loop.run_in_executor(None, self._run, w, job), job.limit + GRACE)
            except asyncio.TimeoutError:
                w.proc.kill()
                state, payload = "failed", (f"the search took longer than its limit "
                                            f"({job.limit:g} s) and was stopped")
                await loop.run_in_executor(None, w.proc.join)
                w.conn.close()
                self._workers[i] = w = await loop.run_in_executor(None, _Worker, self._ctx)
            except Exception as e:      # the worker died: replace it
                state, payload = "failed", f"the search worker failed ({type(e).__name__})"
                if w.proc.is_alive():
                    w.proc.kill()
                self._workers[i] = w = await loop.run_in_executor(None, _Worker, self._ctx)
            w.job = None
            if state == "done":
                self._settle(job, "done", result=payload)
            else:
                self._settle(job, state, error=payload)

    def _run(self, w: _Worker, job: Job) -> tuple[str, Any]:
        """In a thread: send the job, relay progress, return the outcome."""
        w.conn.send((job.id, job.task, job.args))
        while True:
            kind, jid, payload = w.conn.recv()
            if kind == "ready" or jid != job.id:
                continue
            if kind == "progress":
                job.progress = payload
                continue
            return kind, payload
