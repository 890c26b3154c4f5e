"""The analysis store: a SQLite database of what was searched and annotated.

One file (``--db PATH``, default ``ronda-analysis.db``), WAL mode, so it can
be read (``ronda-solve db stats``, any SQLite client) while a batch writes
it. Only the coordinator of a batch writes; workers return results.

Schema (version :data:`SCHEMA`):

``evaluations``
    One search job of an annotation, by ``key`` (:func:`solver.games.annotate.job_key`:
    the engine version, the kind, and everything the result depends on:
    for ``kind = 'eval'`` the canonical position line, which carries the
    rules, the method, the samples and the seed). ``position``,
    ``method``, ``samples``, ``seed`` repeat the key's parts for queries
    (NULL for luck jobs). ``result`` is JSON: for an evaluation
    ``[method used, samples, [[rank index, play, value, stderr], ...]]``
    (values in points for the mover's side, best first).

``games``
    One annotated (or mined) game: ``source`` (the file) and ``number``
    (its place in the file, from 1), ``digest`` (SHA-1 of its record
    text), ``job`` (``annotate`` or ``mine``) and ``params`` (JSON of the
    options that change the result), unique together on ``(source,
    number, job, params)``; ``result`` (JSON: the annotation document of
    ``annotate --json``, or the puzzles found), ``record`` (the annotated
    record), ``seconds`` (the worker's time), ``searched`` (jobs searched,
    the rest were store hits), ``created`` (Unix time).

``outcomes``
    The finished outcome children of an exact expectimax split over a
    cluster (:mod:`solver.batch.expectimax`): ``chance``
    (:func:`solver.search.split.chance_key`: the game and the chance
    node), ``idx`` (the outcome's place in the chance node's deal table),
    ``value`` (the child's exact value for its mover, half-points),
    ``created``; unique on ``(chance, idx)``.

Every game is written in one transaction with the evaluations its worker
searched, so a killed run loses at most the games in flight; every
batch of outcomes in one transaction.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Iterable, Iterator

#: the schema version written in ``meta``
SCHEMA = 1

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS evaluations (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    position TEXT,
    method TEXT,
    samples INTEGER,
    seed INTEGER,
    result TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS evaluations_position ON evaluations (position);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    number INTEGER NOT NULL,
    digest TEXT NOT NULL,
    job TEXT NOT NULL,
    params TEXT NOT NULL,
    result TEXT NOT NULL,
    record TEXT,
    seconds REAL NOT NULL,
    searched INTEGER NOT NULL,
    created REAL NOT NULL,
    UNIQUE (source, number, job, params)
);
CREATE TABLE IF NOT EXISTS outcomes (
    chance TEXT NOT NULL,
    idx INTEGER NOT NULL,
    value REAL NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (chance, idx)
);
"""


class StoreError(Exception):
    """The store cannot be opened or is not an analysis store (one line)."""


class Store:
    """An analysis store at ``path`` (created when absent).

    Raises StoreError when the file is not a SQLite database, is another
    program's database, or has a newer schema."""

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        self.path = Path(path)
        try:
            if readonly:
                if not self.path.exists():
                    raise StoreError(f"{self.path}: no such store")
                uri = f"file:{self.path.resolve()}?mode=ro"
                self.db = sqlite3.connect(uri, uri=True, timeout=30)
            else:
                self.db = sqlite3.connect(self.path, timeout=30)
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
                self.db.executescript(_TABLES)
                with self.db:
                    self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)",
                                    (str(SCHEMA),))
            row = self.db.execute("SELECT value FROM meta WHERE name='schema'").fetchone()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not an analysis store ({e})") from None
        if row is None or int(row[0]) > SCHEMA:
            raise StoreError(f"{self.path}: schema {row[0] if row else '?'} is not one "
                             f"this version reads ({SCHEMA})")

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    # --- evaluations -------------------------------------------------------

    def lookup(self, keys: Iterable[str]) -> dict[str, object]:
        """The stored results of ``keys`` (JSON decoded), by key; keys not
        in the store are absent."""
        keys = list(dict.fromkeys(keys))
        out: dict[str, object] = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            marks = ",".join("?" * len(chunk))
            for key, result in self.db.execute(
                    f"SELECT key, result FROM evaluations WHERE key IN ({marks})", chunk):
                out[key] = json.loads(result)
        return out

    # --- games -------------------------------------------------------------

    def done(self, job: str, params: str) -> set[tuple[str, int]]:
        """``(source, number)`` of the games already stored for ``job`` and
        ``params``."""
        return {(s, n) for s, n in self.db.execute(
            "SELECT source, number FROM games WHERE job=? AND params=?", (job, params))}

    def write_game(self, source: str, number: int, digest: str, job: str, params: str,
                   result: object, record: str | None, seconds: float,
                   computed: dict[str, object]) -> None:
        """Store one finished game and the evaluations its worker searched,
        in one transaction (a game already stored with the same job and
        params is replaced)."""
        now = time.time()
        rows = []
        for key, value in computed.items():
            kind, position, method, samples, seed = _key_parts(key)
            rows.append((key, kind, position, method, samples, seed,
                         json.dumps(value, separators=(",", ":")), now))
        with self.db:
            self.db.executemany(
                "INSERT OR IGNORE INTO evaluations VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            self.db.execute(
                "INSERT OR REPLACE INTO games (source, number, digest, job, params, result, "
                "record, seconds, searched, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (source, number, digest, job, params, json.dumps(result), record, seconds,
                 len(computed), now))

    def games(self, job: str | None = None) -> Iterator[dict]:
        """Every stored game as a dict (``result`` JSON decoded), in order
        of source and number."""
        sql = ("SELECT source, number, digest, job, params, result, record, seconds, "
               "searched, created FROM games")
        args: tuple = ()
        if job:
            sql += " WHERE job=?"
            args = (job,)
        for row in self.db.execute(sql + " ORDER BY source, number, job", args):
            d = dict(zip(("source", "number", "digest", "job", "params", "result", "record",
                          "seconds", "searched", "created"), row))
            d["result"] = json.loads(d["result"])
            yield d

    def evaluations(self) -> Iterator[dict]:
        """Every stored evaluation as a dict (``result`` JSON decoded)."""
        for row in self.db.execute("SELECT key, kind, position, method, samples, seed, result, "
                                   "created FROM evaluations ORDER BY rowid"):
            d = dict(zip(("key", "kind", "position", "method", "samples", "seed", "result",
                          "created"), row))
            d["result"] = json.loads(d["result"])
            yield d

    # --- outcomes of an expectimax split -----------------------------------

    def outcome_values(self, chance: str) -> dict[int, float]:
        """The stored outcome values of chance node ``chance``, by index."""
        return dict(self.db.execute("SELECT idx, value FROM outcomes WHERE chance=?",
                                    (chance,)))

    def write_outcomes(self, chance: str, values: dict[int, float]) -> None:
        """Store finished outcome values of ``chance`` (one transaction)."""
        now = time.time()
        with self.db:
            self.db.executemany("INSERT OR REPLACE INTO outcomes VALUES (?, ?, ?, ?)",
                                [(chance, int(i), float(v), now) for i, v in values.items()])

    def stats(self) -> dict:
        """Counts: evaluations by kind, games by job, the file's size in
        bytes, the schema version."""
        kinds = dict(self.db.execute("SELECT kind, COUNT(*) FROM evaluations GROUP BY kind"))
        jobs = dict(self.db.execute("SELECT job, COUNT(*) FROM games GROUP BY job"))
        seconds = self.db.execute("SELECT COALESCE(SUM(seconds), 0) FROM games").fetchone()[0]
        size = sum(p.stat().st_size for p in (self.path, Path(f"{self.path}-wal"))
                   if p.exists())
        try:
            outcomes = self.db.execute("SELECT COUNT(*) FROM outcomes").fetchone()[0]
        except sqlite3.OperationalError:        # a store written before the table
            outcomes = 0
        return {"path": str(self.path), "schema": SCHEMA, "evaluations": kinds,
                "games": jobs, "outcomes": outcomes, "worker_seconds": round(seconds, 3), "bytes": size}

    def check(self) -> str:
        """SQLite's integrity check: ``"ok"`` when the file is sound."""
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]


def _key_parts(key: str) -> tuple[str, str | None, str | None, int | None, int | None]:
    """``(kind, position, method, samples, seed)`` from a job key."""
    parts = json.loads(key)
    kind = parts[1]
    if kind == "eval":
        _v, _k, position, method, samples, seed = parts
        return kind, position, method, samples, seed
    return kind, None, None, None, None
