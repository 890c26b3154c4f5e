"""The search pool of the web app: worker processes that run the searches,
so the event loop never blocks.

:class:`SearchPool` starts ``size`` worker processes (each loads the
compiled search core once) and hands each one job at a time: at most
``size`` searches run at once, up to ``queue`` more wait their turn, and
one more is refused with :class:`Busy` (HTTP 429). A job is a task name of
:mod:`solver.web.tasks` and its arguments; the worker sends progress
messages while it runs, then the result or a one-line error.

Cancelling a running job stops its search as Ctrl-C stops the command
line (the answer so far is dropped) and the worker takes the next job:
the pool writes the job's number into the worker's shared cancel slot,
then sends it SIGINT. A worker keeps SIGINT blocked except while it runs
a job, throws away a signal left over from an earlier job, and acts only
on a signal whose slot names the job it runs; its pipe is never written
while a signal could land. So a cancel that lands as the worker takes the
job, or just after it finished, never kills the worker. A job that
outlives its time limit (the search's own budget plus a grace) has its
worker killed and replaced, so no request can hold a worker for ever.
A job that nobody asks about for :data:`ABANDON` seconds (its page was
closed) is cancelled.

The limits are counted under one lock: however many requests arrive at
once, at most ``size`` jobs run and ``queue`` wait.
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
#: seconds a polled job (``/api/jobs``) may go unasked before it is cancelled
ABANDON = 10.0

_busy = False           # in a worker: a job is running (SIGINT may stop it)
_current = 0            # in a worker: the number of the job it runs
_cancel = None          # in a worker: the shared slot naming the job to cancel


class Busy(Exception):
    """Too many searches: every worker is busy and the queue is full."""


def _on_sigint(signum, frame) -> None:
    global _busy
    if _busy and _cancel is not None and _cancel.value == _current:
        _busy = False           # one stop a job
        raise KeyboardInterrupt("cancelled")


def _hold() -> None:
    """Block SIGINT in this (the worker's main) thread."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def _release() -> None:
    """Unblock SIGINT: a pending one is handled now."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _drain() -> None:
    """Throw away a SIGINT pending while blocked (meant for a job that
    has finished)."""
    while signal.SIGINT in signal.sigpending():
        signal.sigwait({signal.SIGINT})


def _worker(conn, cancel) -> None:
    """A worker process: run jobs from ``conn`` until it closes; SIGINT
    stops the running job whose number is in ``cancel``."""
    global _busy, _current, _cancel
    _cancel = cancel
    _hold()
    signal.signal(signal.SIGINT, _on_sigint)
    for name in ("SIGHUP", "SIGTERM"):      # the server stops the workers itself
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    from . import play_tasks, tasks
    from ..search.compiled import ensure_compiled

    def task(name: str):
        """A task by name: the analysis tasks, then the play page's."""
        return getattr(tasks, name, None) or getattr(play_tasks, name)
    ensure_compiled()
    conn.send(("ready", None, None))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        job_id, number, name, args = msg
        _drain()
        _current = number

        def progress(data: dict, _id=job_id) -> None:
            _hold()
            try:
                conn.send(("progress", _id, data))
            finally:
                _release()      # a cancel that came meanwhile lands here, in the job

        if cancel.value == number:
            out = ("cancelled", job_id, "cancelled")
        else:
            _busy = True
            try:
                try:
                    _release()
                    out = ("done", job_id, task(name)(progress=progress, **args))
                finally:
                    _hold()
            except KeyboardInterrupt:
                _hold()
                out = ("cancelled", job_id, "cancelled")
            except Exception as e:   # a one-line error for the client, never a traceback
                _hold()
                out = ("failed", job_id, tasks.one_line(e))
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
    #: the job's number (what a worker's cancel slot names)
    number: int = 0
    #: polled by a page (``/api/jobs``): cancelled when nobody asks for it
    watched: bool = False
    seen: float = field(default_factory=time.monotonic)

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
        self.cancel = ctx.Value("q", 0, lock=False)
        self.proc = ctx.Process(target=_worker, args=(child, self.cancel), daemon=True)
        # the worker starts with SIGINT blocked (a mask survives fork and
        # exec): a cancel or a terminal's Ctrl-C cannot land in its start-up.
        # (multiprocessing's resource tracker, started with the first
        # process, would unblock it: start it first.)
        from multiprocessing import resource_tracker
        resource_tracker.ensure_running()
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self.proc.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
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
        self._lock = threading.RLock()
        self._closing = False
        self._loop_thread: int | None = None

    # --- life -----------------------------------------------------------

    async def start(self) -> None:
        """Start the workers and their dispatchers (in the running loop)."""
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._queue = asyncio.Queue()
        for _ in range(self.size):
            w = await self._loop.run_in_executor(None, _Worker, self._ctx)
            self._workers.append(w)
            self._tasks.append(asyncio.create_task(self._dispatch(len(self._workers) - 1)))
        self._tasks.append(asyncio.create_task(self._reap()))

    async def close(self) -> None:
        """Stop the dispatchers and end the workers at once (a search in
        flight is killed: the server is stopping)."""
        self._closing = True
        for t in self._tasks:
            t.cancel()
        for w in self._workers:
            self._end(w)
        for job in list(self.jobs.values()):
            self._settle(job, "cancelled", error="the server is stopping")

    def stop_now(self) -> None:
        """Kill the workers that run a job (from a signal handler: the
        server is stopping and must not wait for their searches)."""
        self._closing = True
        for w in self._workers:
            if w.job is not None and w.proc.is_alive():
                w.proc.kill()

    @staticmethod
    def _end(w: _Worker) -> None:
        if w.job is not None and w.proc.is_alive():
            w.proc.kill()               # busy: it would not read the pipe
        else:
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
        """Queue task ``task`` of :mod:`solver.web.tasks` (or
        :mod:`solver.web.play_tasks`) with ``args``;
        ``limit``: the seconds it may take (its worker is killed
        :data:`GRACE` seconds after). Raises :class:`Busy` when ``size``
        jobs run and ``queue`` wait."""
        assert self._queue is not None and self._loop is not None, "pool not started"
        with self._lock:
            # running + waiting = the jobs not finished: one count, one lock
            running, waiting = self.running(), self.waiting()
            if running + waiting >= self.size + self.queue_size or self._closing:
                raise Busy(f"too many searches: {running} running and {waiting} "
                           f"waiting (at most {self.size} + {self.queue_size}); try again "
                           f"when one finishes")
            self._forget_old()
            number = next(self._ids)
            job = Job(f"{number}-{os.urandom(4).hex()}", task, args, limit, number=number)
            self.jobs[job.id] = job
        if threading.get_ident() == self._loop_thread:
            job.future = self._loop.create_future()
            self._queue.put_nowait(job)
        else:       # from a thread of the server's pool: hand it to the loop
            def enqueue() -> None:
                job.future = self._loop.create_future()
                if job.finished is not None:
                    job.future.set_result(job)
                self._queue.put_nowait(job)
            self._loop.call_soon_threadsafe(enqueue)
        return job

    def cancel(self, job: Job) -> None:
        """Cancel ``job``: dropped when queued, stopped when running."""
        with self._lock:
            if job.state == "queued":
                self._settle(job, "cancelled", error="cancelled")
            elif job.state == "running":
                for w in self._workers:
                    if w.job is job and w.proc.pid:
                        job.progress = {**job.progress, "cancelling": True}
                        w.cancel.value = job.number
                        try:
                            os.kill(w.proc.pid, signal.SIGINT)
                        except ProcessLookupError:
                            pass

    def seen(self, job: Job) -> None:
        """Note that a page asked about ``job`` (it is still wanted)."""
        job.watched = True
        job.seen = time.monotonic()

    async def _reap(self, every: float = 1.0) -> None:
        """Cancel the polled jobs nobody asked about for :data:`ABANDON`
        seconds."""
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            for job in list(self.jobs.values()):
                if job.watched and job.finished is None and now - job.seen > ABANDON:
                    self.cancel(job)

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
        if job.future is None or job.future.done():
            return
        if threading.get_ident() == self._loop_thread:
            job.future.set_result(job)
        else:
            self._loop.call_soon_threadsafe(
                lambda: job.future.done() or job.future.set_result(job))

    async def _dispatch(self, i: int) -> None:
        assert self._queue is not None and self._loop is not None
        loop = self._loop
        while True:
            job = await self._queue.get()
            w = self._workers[i]
            with self._lock:
                if job.state != "queued":
                    continue
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
                if self._closing:
                    state, payload = "cancelled", "the server is stopping"
                if w.proc.is_alive():
                    w.proc.kill()
                if not self._closing:
                    self._workers[i] = w = await loop.run_in_executor(None, _Worker,
                                                                      self._ctx)
            with self._lock:
                w.job = None
                if state == "done":
                    self._settle(job, "done", result=payload)
                else:
                    self._settle(job, state, error=payload)

    def _run(self, w: _Worker, job: Job) -> tuple[str, Any]:
        """In a thread: send the job, relay progress, return the outcome."""
        w.conn.send((job.id, job.number, job.task, job.args))
        while True:
            kind, jid, payload = w.conn.recv()
            if kind == "ready" or jid != job.id:
                continue
            if kind == "progress":
                job.progress = payload
                continue
            return kind, payload
