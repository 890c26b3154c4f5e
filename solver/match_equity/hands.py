"""Self-play hands for match-equity tables, played on a Dask cluster and
kept in the analysis store (:mod:`solver.batch.store`).

A build asks for ``hands`` hands of a rule system (:func:`.system.system_of`)
with ``players`` seats, all played by ``player`` (a
:func:`solver.games.players.make_player` spec), shuffled from ``seed``.
They are cut into chunks of ``chunk`` hands, hand ``i`` always in chunk
``i // chunk`` (so asking for more hands later reuses the chunks already
played). Each chunk is one job of :func:`solver.batch.run.run_batch`
(``job = "selfplay"``), stored when it finishes as one row of the store's
``games`` table: ``source`` names the system, players, player and seed
(:func:`.selfplay.chunk_source`), ``number`` is the chunk's number from 1,
``params`` holds the chunk size. A row is written once, in one
transaction, and replaced (never added to) should the same chunk be
stored again, so a worker killed mid-chunk (Dask runs the chunk again
elsewhere) or a whole run killed and started again loses no hand and
counts none twice: :func:`read_traces` reads exactly hands ``0 ..
hands-1`` or says which chunks are missing.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import dataclass
from typing import Callable

from ..batch.inputs import Item
from .selfplay import chunk_source

#: hands a chunk by default: a few seconds of a strong player, a fraction
#: of a second of greedy
DEFAULT_CHUNK = {"greedy": 2000}
STRONG_CHUNK = 50


def default_chunk(player: str) -> int:
    """The chunk size for ``player``."""
    return DEFAULT_CHUNK.get(player, STRONG_CHUNK)


class _Chunked:
    """What :class:`HandSet` and :class:`MatchSet` share: ``total`` items
    cut into chunks of ``chunk``, stored under ``source`` for ``job``."""

    job = ""
    chunk: int

    @property
    def source(self) -> str:  # pragma: no cover - each set says
        raise NotImplementedError

    @property
    def total(self) -> int:  # pragma: no cover
        raise NotImplementedError

    def spec(self, first: int, count: int) -> dict:  # pragma: no cover
        raise NotImplementedError

    @property
    def params(self) -> str:
        """The store's ``params`` of the chunks."""
        from ..batch.run import params_text
        return params_text(self.job, {"chunk": self.chunk})

    def chunks(self) -> int:
        """How many chunks cover the set."""
        return -(-self.total // self.chunk)

    def counts(self) -> dict[int, int]:
        """Chunk number (from 1) -> items it holds (the last may be short)."""
        return {c + 1: min(self.chunk, self.total - c * self.chunk)
                for c in range(self.chunks())}

    def items(self) -> list[Item]:
        """One batch item a chunk (its ``game`` is the chunk's spec)."""
        out = []
        for number, count in self.counts().items():
            spec = self.spec((number - 1) * self.chunk, count)
            digest = hashlib.sha1(json.dumps(spec, sort_keys=True).encode()).hexdigest()
            out.append(Item(self.source, number, spec, None, digest))  # type: ignore[arg-type]
        return out


@dataclass(frozen=True)
class HandSet(_Chunked):
    """Which self-play hands: ``system`` (:func:`.system.system_of`),
    ``players``, ``player`` spec, ``seed`` (text), ``hands``, ``chunk``."""

    system: str
    players: int
    player: str
    seed: str
    hands: int
    chunk: int
    job = "selfplay"

    @property
    def source(self) -> str:
        """The store's ``source`` of these hands' chunks."""
        return chunk_source(self.system, self.players, self.player, self.seed)

    @property
    def total(self) -> int:
        return self.hands

    def spec(self, first: int, count: int) -> dict:
        """The spec of :func:`.selfplay.play_chunk`."""
        return {"system": self.system, "players": self.players, "player": self.player,
                "seed": self.seed, "first": first, "count": count}


@dataclass(frozen=True)
class MatchSet(_Chunked):
    """Whole matches from one score, a table's direct check: ``scores``
    one a side, the seat ``dealer`` dealing first, ``matches`` of them."""

    system: str
    players: int
    player: str
    seed: str
    target: int
    scores: tuple
    dealer: int
    matches: int
    chunk: int
    job = "matches"

    @property
    def source(self) -> str:
        """The store's ``source`` of these matches' chunks."""
        from .selfplay import match_source
        return match_source(self.system, self.players, self.player, self.seed, self.target,
                            self.scores, self.dealer)

    @property
    def total(self) -> int:
        return self.matches

    def spec(self, first: int, count: int) -> dict:
        """The spec of :func:`.selfplay.play_matches`."""
        return {"system": self.system, "players": self.players, "player": self.player,
                "seed": self.seed, "target": self.target, "scores": list(self.scores),
                "dealer": self.dealer, "first": first, "count": count}


def play_sets(sets, store, client, *,
              progress: Callable[[object, int], None] | None = None):
    """Play the chunks of every set in ``sets`` (:class:`HandSet`,
    :class:`MatchSet`) not yet in ``store`` on ``client``'s cluster
    (:func:`solver.batch.run.run_batch`, one run a job kind). A stored
    chunk holding fewer items than asked is played again whole. Returns
    the batch summary (of the last job kind run, its counts summed)."""
    from ..batch.run import BatchSummary, run_batch
    total = BatchSummary("selfplay")
    for job in dict.fromkeys(s.job for s in sets):
        mine = [s for s in sets if s.job == job]
        items = []
        for cs in mine:
            have = _stored_counts(store, cs)
            items += [it for it in cs.items()
                      if have.get(it.number) != it.game["count"]]  # type: ignore[index]
            total.skipped += sum(1 for n, k in cs.counts().items() if have.get(n) == k)
        if not items:
            continue
        chunk = {s.chunk for s in mine}
        if len(chunk) != 1:
            raise ValueError("the sets of one run share one chunk size")
        s = run_batch(job, items, {"chunk": chunk.pop()}, store, client, resume=False,
                      progress=progress)
        total.done += s.done
        total.failed += s.failed
        total.workers = s.workers
        total.seconds += s.seconds
        if s.interrupted or s.store_error:
            total.interrupted = s.interrupted
            total.store_error = s.store_error
            break
    return total


def play_hands(hs: "HandSet", store, client, *,
               progress: Callable[[object, int], None] | None = None):
    """:func:`play_sets` for one hand set."""
    return play_sets([hs], store, client, progress=progress)


def _stored_counts(store, cs: _Chunked) -> dict[int, int]:
    """Chunk number -> items stored for it."""
    return {n: k for n, k in store.db.execute(
        "SELECT number, json_extract(result, '$.count') FROM games "
        "WHERE job=? AND source=? AND params=?", (cs.job, cs.source, cs.params))}


class MissingHands(ValueError):
    """Chunks of a set are not in the store (one line)."""


def _rows(store, cs: _Chunked) -> list[dict]:
    """The stored chunks of ``cs`` in order, each once; MissingHands names
    the chunks not stored."""
    need = cs.counts()
    got: dict[int, dict] = {}
    for number, result in store.db.execute(
            "SELECT number, result FROM games WHERE job=? AND source=? AND params=?",
            (cs.job, cs.source, cs.params)):
        if number in need:
            got[number] = json.loads(result)
    missing = [n for n, k in need.items() if n not in got or got[n]["count"] != k]
    if missing:
        shown = ", ".join(map(str, missing[:8])) + (" ..." if len(missing) > 8 else "")
        raise MissingHands(f"{cs.source}: {len(missing)} of {len(need)} chunks of {cs.chunk} "
                           f"are not in the store (chunks {shown})")
    out = []
    for n in sorted(need):
        r = got[n]
        if r["first"] != (n - 1) * cs.chunk:
            raise MissingHands(f"{cs.source}: chunk {n} starts at {r['first']}")
        out.append(r)
    return out


@dataclass
class StoredHands:
    """Hands read back from the store: ``traces`` in hand order, the
    workers' ``cpu`` and ``wall`` seconds summed over the chunks."""

    traces: list
    cpu: float
    wall: float

    def rate(self) -> float:
        """Hands a second of one core (worker CPU time)."""
        return len(self.traces) / self.cpu if self.cpu else 0.0


def read_traces(store, hs: HandSet) -> StoredHands:
    """Hands ``0 .. hs.hands - 1`` of ``hs`` from ``store``, each once, in
    order. Raises MissingHands naming the chunks not stored."""
    traces: list = []
    cpu = wall = 0.0
    for r in _rows(store, hs):
        if len(r["traces"]) != r["count"]:
            raise MissingHands(f"{hs.source}: a chunk holds {len(r['traces'])} hands, "
                               f"not {r['count']}")
        traces += [[tuple(a) for a in t] for t in r["traces"]]
        cpu += r["cpu"]
        wall += r["wall"]
    return StoredHands(traces, cpu, wall)


@dataclass
class StoredMatches:
    """Matches read back: ``winners`` (side or None), ``hands`` played,
    worker ``cpu`` seconds."""

    winners: list
    hands: int
    cpu: float


def read_matches(store, ms: MatchSet) -> StoredMatches:
    """The matches of ``ms`` from ``store`` (MissingHands when a chunk is not there)."""
    winners: list = []
    hands = 0
    cpu = 0.0
    for r in _rows(store, ms):
        winners += r["winners"]
        hands += r["hands"]
        cpu += r["cpu"]
    return StoredMatches(winners, hands, cpu)


def line_progress(label: str, every: float = 30.0, stream=sys.stderr):
    """A progress callback for :func:`play_sets` that writes a line at most
    every ``every`` seconds: chunks done of the run, seconds."""
    t0 = time.perf_counter()
    last = [0.0]

    def progress(summary, total: int) -> None:
        now = time.perf_counter() - t0
        if now - last[0] < every and summary.done + len(summary.failed) < total:
            return
        last[0] = now
        stream.write(f"{label}: {summary.done}/{total} chunks, {now:.0f} s\n")
        stream.flush()
    return progress
