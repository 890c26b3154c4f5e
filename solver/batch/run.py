"""The coordinator of a batch: plan each game, send it with its store hits
to a Dask cluster, write each result to the store as it arrives.

The work is split per game. A bounded window of games is in flight
(``4 x`` the cluster's worker threads), so a collection of any size takes
little memory on the coordinator. Dask reruns the games of a worker that
dies on the others (``retries``); each game's result is written once, when
its future completes, in one transaction with the evaluations it searched.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..numbers import tidy
from .inputs import Item
from .jobs import JOBS, plan_annotation
from .store import Store, StoreError


@dataclass
class BatchSummary:
    """What a batch did: games ``done`` now, ``skipped`` (already in the
    store with the same record, ``--resume``), ``changed`` (in the store,
    but their record has changed since: analysed again), ``failed``
    (one-line errors), ``no_game`` (the one-line errors of files that
    hold no game: no game of theirs is counted), evaluations ``searched``
    and store ``hits``, ``puzzles`` found (``mine``), ``seconds`` of wall
    time, ``interrupted``, ``store_error`` (the one line of a store that
    could not be written or read: the batch stopped there, the games
    written before are kept)."""

    job: str
    done: int = 0
    skipped: int = 0
    failed: list[str] = field(default_factory=list)
    searched: int = 0
    hits: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    workers: int = 0
    changed: int = 0
    store_error: str | None = None
    no_game: list[str] = field(default_factory=list)
    puzzles: int = 0

    def as_dict(self) -> dict:
        """The summary as JSON-ready data."""
        rate = 60 * self.done / self.seconds if self.seconds else 0.0
        doc = {"job": self.job, "done": self.done, "skipped": self.skipped,
               "failed": self.failed, "searched": self.searched, "hits": self.hits,
               "seconds": round(self.seconds, 3), "games_per_minute": round(rate, 2),
               "workers": self.workers, "interrupted": self.interrupted,
               "changed": self.changed, "store_error": self.store_error}
        if self.job in ("annotate", "mine"):     # games read from files
            doc["no_game"] = self.no_game
        if self.job == "mine":
            doc["puzzles"] = self.puzzles
        return tidy(doc)


def params_text(job: str, options: dict) -> str:
    """The canonical JSON of the options that change a job's result (the
    store's ``params`` column)."""
    return json.dumps({"job": job, **options}, sort_keys=True, separators=(",", ":"))


def connect(scheduler: str | None, workers: int, dashboard: str | bool | None = "127.0.0.1:0"):
    """A Dask client: to ``scheduler`` (``tcp://HOST:8786``) when given,
    else to a new ``LocalCluster`` of ``workers`` single-threaded worker
    processes on this machine, listening on 127.0.0.1 only, its dashboard
    at ``dashboard`` (``HOST:PORT``; 127.0.0.1 and any free port unless
    asked otherwise, since it shows the workers, their logs and call
    stacks to whoever reaches it; None: no dashboard). Returns ``(client,
    cluster or None)``.

    The worker processes are started with SIGINT blocked: a Ctrl-C typed
    at the terminal reaches every process of the foreground group, and
    only the coordinator should act on it (it stops the batch and closes
    the cluster); a worker interrupted in the middle of its start-up would
    print tracebacks."""
    if dashboard is True:
        dashboard = "127.0.0.1:0"
    elif dashboard is False:
        dashboard = None
    if scheduler:
        from dask.distributed import Client
        return Client(scheduler, timeout="30s"), None
    # multiprocessing's resource tracker, started with the first worker,
    # unblocks SIGINT in the thread that starts it: start it now; and
    # distributed starts a thread when imported: import it inside the block
    from multiprocessing import resource_tracker
    resource_tracker.ensure_running()
    with _sigint_held():
        from dask.distributed import Client, LocalCluster
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=dashboard,
                               silence_logs=50)
    return Client(cluster), cluster


class _sigint_held:
    """SIGINT held back (blocked) in this thread for the ``with`` block:
    the threads it starts meanwhile (Dask's event loop) keep it blocked,
    and so do the processes they start (a signal mask survives fork and
    exec), so the workers never see a terminal's Ctrl-C. A SIGINT that
    comes during the block waits and is delivered to this process as soon
    as the block ends (nothing is lost). Outside the main thread, or
    without ``pthread_sigmask``: nothing."""

    def __enter__(self):
        import signal
        import threading
        self.old = None
        if (threading.current_thread() is threading.main_thread()
                and hasattr(signal, "pthread_sigmask")):
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        return self

    def __exit__(self, *exc):
        import signal
        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


def plan_batch(job: str, items: Iterable[Item], options: dict, store: Store, *,
               resume: bool = False) -> tuple[BatchSummary, list[Item]]:
    """The games of ``items`` that ``job`` still has to do, and a summary
    that counts the unreadable (``failed``) and, with ``resume``, those
    already stored with the same options and record (``skipped``) or with
    another record (``changed``, done again). Needs no cluster: a batch
    with nothing left to do never starts one."""
    summary = BatchSummary(job)
    params = params_text(job, options)
    try:
        done_before = store.done(job, params) if resume else {}
    except StoreError as e:
        summary.store_error = str(e)
        return summary, []
    # a file however its path is typed (coll/a.txt, ./coll/a.txt, the
    # absolute path: each was a new game, searched and stored again);
    # a stored relative path is read from the current folder
    done_before = {(os.path.realpath(src), n): d for (src, n), d in done_before.items()}
    todo: list[Item] = []
    for item in items:
        stored = done_before.get((os.path.realpath(item.source), item.number))
        if item.no_game:
            summary.no_game.append(item.error)
        elif item.error:
            summary.failed.append(item.error)
        elif stored == item.digest:
            summary.skipped += 1
        else:
            summary.changed += stored is not None
            todo.append(item)
    return summary, todo


def run_batch(job: str, items: Iterable[Item], options: dict, store: Store, client, *,
              resume: bool = False,
              progress: Callable[[BatchSummary, int], None] | None = None,
              planned: tuple[BatchSummary, list[Item]] | None = None) -> BatchSummary:
    """Run ``job`` (``"annotate"`` or ``"mine"``) on every readable game of
    ``items`` on ``client``'s cluster, writing each result to ``store``.
    With ``resume``, games already stored with the same options are
    skipped. ``planned`` is :func:`plan_batch`'s answer when the caller
    made it already (``items`` and ``resume`` are then not read again).
    ``progress(summary, total)`` is called after each game.
    Ctrl-C (KeyboardInterrupt) cancels the games in flight and returns the
    summary marked ``interrupted``: everything finished is in the store."""
    from dask.distributed import as_completed
    t0 = time.perf_counter()
    params = params_text(job, options)
    summary, todo = planned if planned is not None else plan_batch(job, items, options, store,
                                                                   resume=resume)
    if summary.store_error:
        return summary
    total = len(todo)
    fn = JOBS[job]
    threads = sum(client.nthreads().values()) or 1
    summary.workers = len(client.nthreads())
    window = max(2, 4 * threads)
    pending = iter(todo)
    by_future: dict = {}
    seq = as_completed()

    def submit_next() -> bool:
        item = next(pending, None)
        if item is None:
            return False
        hits = {}
        if job == "annotate":
            hits = store.lookup(plan_annotation(item.game, options))
            summary.hits += len(hits)
        opts = {**options, "source": item.source, "number": item.number}
        fut = client.submit(fn, item.game, opts, hits, pure=False, retries=3,
                            key=f"{job}-{item.number}-{item.digest[:16]}-{time.monotonic_ns()}")
        by_future[fut.key] = (fut, item)
        seq.add(fut)
        return True

    try:
        for _ in range(window):
            if not submit_next():
                break
        for fut in seq:
            _f, item = by_future.pop(fut.key)
            try:
                out = fut.result()
            except Exception as e:      # the game's own error, reported on one line
                # a ValueError is the input's problem, said in words (as
                # `annotate` says it); anything else names its kind
                said = (str(e) if isinstance(e, ValueError) and str(e)
                        else f"{type(e).__name__}: {e}")
                summary.failed.append(f"{item.source}: game {item.number}: {said}")
            else:
                store.write_game(item.source, item.number, item.digest, job, params,
                                 out["result"], out["record"], out["seconds"],
                                 out["computed"])
                summary.done += 1
                summary.searched += len(out["computed"])
                if job == "mine":
                    summary.puzzles += len(out["result"].get("puzzles", []))
            submit_next()
            if progress is not None:
                progress(summary, total)
    except KeyboardInterrupt:       # Ctrl-C, or SIGTERM/SIGHUP under solver.runtime.interrupt.Signals
        summary.interrupted = True
        client.cancel([f for f, _item in by_future.values()])
    except StoreError as e:         # a full disk, a damaged file: stop, keep what is written
        summary.store_error = str(e)
        client.cancel([f for f, _item in by_future.values()])
    summary.seconds = time.perf_counter() - t0
    return summary
