"""The games played on the play page, kept in the analysis store.

The same SQLite file as ``batch`` (``--db``, :class:`solver.batch.store.Store`)
gets one more table, created when the server first opens the file (a store
written before it simply lacks it; the batch tables are untouched, so
older versions still read the file, and ``meta`` records ``played`` = 1):

``played``
    One game: ``id`` (the unguessable game id), ``owner`` (SHA-256 of the
    browser's key: only that browser may see or play the game), ``setup``
    (JSON: rules, players, seats, target, names), ``seed`` (of the
    shuffles), ``moves`` (JSON: every card played, in order), ``started``
    (hands dealt), ``hints`` and ``notes`` (JSON: by play index),
    ``status`` (play, engine, hand-over, over), ``score`` (``41-35``),
    ``record`` (the whole record so far, docs/records.md), ``created``,
    ``updated`` (Unix times).

A game's review (``annotate --json`` in the player's view) is kept in the
batch ``games`` table, source ``play:ID``, with the evaluations it searched
in ``evaluations``: a later review of the same game (after the next hand)
searches only the new plays.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path

from ..batch.store import Store, StoreError

#: the version of the ``played`` table, in ``meta`` as ``played``
PLAYED = 1

_TABLE = """
CREATE TABLE IF NOT EXISTS played (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    setup TEXT NOT NULL,
    seed TEXT NOT NULL,
    moves TEXT NOT NULL,
    started INTEGER NOT NULL,
    hints TEXT NOT NULL,
    notes TEXT NOT NULL,
    status TEXT NOT NULL,
    score TEXT NOT NULL,
    record TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS played_owner ON played (owner, updated);
"""

#: the options of a review (annotate's defaults, as ``annotate --json`` runs)
REVIEW = {"view": "player", "samples": 32, "seed": 0, "luck_samples": 24}


def owner_of(key: str) -> str:
    """What is stored of a browser's key: its SHA-256 (hex)."""
    return hashlib.sha256(key.encode()).hexdigest()


def digest(text: str) -> str:
    """SHA-1 of a record text (as ``batch`` digests games)."""
    return hashlib.sha1(text.encode()).hexdigest()


class PlayStore:
    """The ``played`` table of the store at ``path`` (None: a store in
    memory, gone when the server stops). One connection, shared by the
    server's threads under a lock. Raises StoreError (one line)."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = None if path is None else str(path)
        self.lock = threading.Lock()
        self._reviews: dict = {}
        if self.path is not None:
            Store(self.path).close()    # the batch tables, the file's checks
        try:
            self.db = sqlite3.connect(self.path or ":memory:", timeout=30,
                                      check_same_thread=False)
            if self.path is not None:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_TABLE)
            if self.path is None:
                return
            with self.db:
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('played', ?)",
                                (str(PLAYED),))
            row = self.db.execute("SELECT value FROM meta WHERE name='played'").fetchone()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: cannot keep games there ({e})") from None
        if int(row[0]) > PLAYED:
            raise StoreError(f"{self.path}: its played table is version {row[0]}, newer "
                             f"than this version reads ({PLAYED})")

    def close(self) -> None:
        """Close the file."""
        with self.lock:
            self.db.close()

    # --- games -----------------------------------------------------------------

    def save(self, gid: str, owner: str, game, created: float | None = None) -> None:
        """Write game ``gid`` (a :class:`solver.games.live.LiveGame`) as it
        is now."""
        from ..games.record import dumps
        now = time.time()
        record = dumps(game.record(full=True))
        with self.lock, self.db:
            row = self.db.execute("SELECT created FROM played WHERE id=?", (gid,)).fetchone()
            made = row[0] if row else (created or now)
            self.db.execute(
                "INSERT OR REPLACE INTO played (id, owner, setup, seed, moves, started, hints, "
                "notes, status, score, record, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (gid, owner, json.dumps(game.setup.to_json()), game.seed,
                 json.dumps(game.moves), len(game.logs), json.dumps(game.hints),
                 json.dumps(game.notes), game.status(), "-".join(map(str, game.score_now())),
                 record, made, now))

    def load(self, gid: str) -> dict | None:
        """The stored row of game ``gid`` (JSON fields decoded), or None."""
        with self.lock:
            row = self.db.execute(
                "SELECT id, owner, setup, seed, moves, started, hints, notes, status, score, "
                "created, updated FROM played WHERE id=?", (gid,)).fetchone()
        if row is None:
            return None
        d = dict(zip(("id", "owner", "setup", "seed", "moves", "started", "hints", "notes",
                      "status", "score", "created", "updated"), row))
        for k in ("setup", "moves", "hints", "notes"):
            d[k] = json.loads(d[k])
        return d

    def mine(self, owner: str) -> list[dict]:
        """The games of a browser, the latest first: ``id``, ``setup``,
        ``status``, ``score``, ``plays``, ``created``, ``updated``."""
        out = []
        with self.lock:
            rows = self.db.execute(
                "SELECT id, setup, status, score, moves, created, updated FROM played "
                "WHERE owner=? ORDER BY updated DESC", (owner,)).fetchall()
        for row in rows:
            gid, setup, status, score, moves, created, updated = row
            out.append({"id": gid, "setup": json.loads(setup), "status": status,
                        "score": score, "plays": len(json.loads(moves)),
                        "created": created, "updated": updated})
        return out

    # --- reviews ---------------------------------------------------------------

    def review(self, gid: str, text: str) -> dict | None:
        """The stored review of game ``gid`` when it was made of this
        record ``text`` (its digest), else None."""
        if self.path is None:
            return self._reviews.get((gid, digest(text)))
        with self.lock:
            row = self.db.execute(
                "SELECT result FROM games WHERE source=? AND number=1 AND job='annotate' "
                "AND params=? AND digest=?",
                (f"play:{gid}", json.dumps(REVIEW, sort_keys=True), digest(text))).fetchone()
        return None if row is None else json.loads(row[0])

    def save_review(self, gid: str, text: str, out: dict) -> None:
        """Keep a review (``out``: :func:`solver.web.play_tasks.review`'s
        result) and the evaluations it searched."""
        doc = out["result"]
        if self.path is None:
            self._reviews[(gid, digest(text))] = doc
            return
        with self.lock:
            store = Store(self.path)
            try:
                store.write_game(f"play:{gid}", 1, digest(text), "annotate",
                                 json.dumps(REVIEW, sort_keys=True), doc, doc.get("record"),
                                 out.get("seconds", 0.0), out.get("computed", {}))
            finally:
                store.close()


__all__ = ["PlayStore", "StoreError", "owner_of", "digest", "REVIEW", "PLAYED"]
