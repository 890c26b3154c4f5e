"""The play page's API: games against the engine, kept in the store.

A browser gets a key the first time it starts a game (the cookie
``ronda_browser``: random, HttpOnly, SameSite=Strict); a game's id is a
random 128-bit token and the game belongs to the browser whose key made
it: any other browser asking for that id is refused (403), an id nobody
made is unknown (404). Every error is one line, ``{"error": "..."}``, and
a refused request changes nothing.

The engine's cards, the hints and the reviews are searched in the server's
:class:`~solver.web.pool.SearchPool` like every analysis, so ``--searches``
and ``--queue`` bound them too, and ``--time`` bounds each decision. The
page asks for the engine's plays one at a time (``POST .../advance``), so
it can show each as it comes.

Games live in memory and in the ``played`` table of the store
(:mod:`solver.web.play_store`), written after every change: a server
restarted on the same ``--db`` resumes them where they were.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import NoReturn

from fastapi import APIRouter, Request, Response
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, Field, field_validator

from ..games.levels import LEVELS, hard_limit
from ..games.live import LiveGame, MoveError, Setup, SetupError
from ..games.record import dumps
from ..numbers import tidy
from ..position import side_of
from ..rules import PRESETS
from .api import ApiError, _submit, _wait
from .play_store import REVIEW, PlayStore, digest, owner_of

COOKIE = "ronda_browser"
#: seconds a hint may search (at most the server's --time)
HINT_TIME = 2.0
_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")

router = APIRouter(prefix="/api/play", tags=["play"])


@dataclass
class Entry:
    """A game in memory: the game, its owner's key digest, a lock (one
    change at a time), the last hint given."""

    game: LiveGame
    owner: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    hint: tuple[int, dict] | None = None


class Games:
    """The games the server holds: in memory, backed by a PlayStore."""

    def __init__(self, store: PlayStore) -> None:
        self.store = store
        self.live: dict[str, Entry] = {}
        self.reviews: dict[tuple[str, str], object] = {}

    def get(self, gid: str) -> Entry | None:
        """Game ``gid``, from memory or restored from the store."""
        if gid in self.live:
            return self.live[gid]
        row = self.store.load(gid)
        if row is None:
            return None
        try:
            game = LiveGame.restore(Setup.from_json(row["setup"]), row["seed"], row["moves"],
                                    row["started"], row["hints"], row["notes"],
                                    created=_date(row["created"]))
        except (SetupError, MoveError) as e:
            raise ApiError(f"game {gid} cannot be restored: {e}", 500) from None
        entry = Entry(game, row["owner"])
        self.live[gid] = entry
        return entry

    def save(self, gid: str, entry: Entry, created: float | None = None) -> None:
        """Write the game to the store (``created``: a new game's time)."""
        self.store.save(gid, entry.owner, entry.game, created)

    def close(self) -> None:
        """Close the store."""
        self.store.close()


class NewGame(BaseModel):
    """A game's setup: ``rules`` (a preset and overrides, e.g. ``pagat
    voleur=yes``), ``players``, ``seats`` (per seat in play order S E N W:
    ``human`` or a level number, ``"3"`` or ``3``; default a person at S
    and level 3 at the other seats), ``target`` (default the rules'),
    ``names`` (one a person), ``seed`` (default a random one, kept secret
    until the game ends)."""

    rules: str = Field("lmodire", max_length=200, examples=["lmodire"])
    players: int = Field(2, ge=2, le=4)
    seats: list[str] | None = Field(None, max_length=4, examples=[["human", "3"]])
    target: int | None = Field(None, ge=1, le=999)
    names: list[str] = Field(default_factory=list, max_length=4)
    seed: str | None = Field(None, max_length=64, pattern=r"^[A-Za-z0-9_.-]*$")

    @field_validator("seats", mode="before")
    @classmethod
    def _levels_as_numbers(cls, seats: object) -> object:
        """A level may be written as a number (``["human", 3]``)."""
        if isinstance(seats, list):
            return [str(s) if isinstance(s, int) and not isinstance(s, bool) else s
                    for s in seats]
        return seats

    def seat_list(self) -> tuple[str, ...]:
        """The seats as given, else a person at S and level 3 at every
        other seat of ``players``."""
        if self.seats is not None:
            return tuple(self.seats)
        return ("human",) + ("3",) * (self.players - 1)


class Move(BaseModel):
    """A card played: ``card`` (``7e``, or ``7``) by the seat ``seat``
    (the seat the page shows; default the person to play)."""

    card: str = Field(max_length=4, examples=["7e"])
    seat: str | None = Field(None, max_length=1, examples=["S"])


def _date(t: float) -> str:
    """A record's ``Date`` (``2026.03.14``) of a Unix time, local."""
    return time.strftime("%Y.%m.%d", time.localtime(t))


def _games(request: Request) -> Games:
    return request.app.state.games


def _config(request: Request):
    return request.app.state.config


def _entry(request: Request, gid: str) -> Entry:
    """The game ``gid`` of this browser: 404 when no such game, 403 when
    it is another browser's."""
    entry = _games(request).get(gid) if _ID.fullmatch(gid) else None
    if entry is None:
        raise ApiError(f"no game {gid[:64]!r}", 404)
    key = request.cookies.get(COOKIE)
    if key is None or owner_of(key) != entry.owner:
        raise ApiError(f"game {gid} belongs to another browser: only the browser that "
                       "started it may see or play it", 403)
    return entry


def equity(game: LiveGame) -> dict:
    """The chance that the person's side wins the match, from the shipped
    match-equity table: ``chance`` (0 to 1, or None), ``when`` (``now``,
    or at the start of the hand in play) and ``note``."""
    from ..match_equity.table import table_for
    rules = game.rules
    base = PRESETS[rules.name]
    changed = {k for k in rules.overrides_from(base) if k not in ("target", "players")}
    side = side_of(game.home(), game.players)
    st = game.status()
    if st == "over":
        return {"chance": 1.0 if game.winner == side else 0.0, "when": "now",
                "note": "the match is over"}
    if game.players == 3:
        return {"chance": None, "when": None,
                "note": "no match-equity table for three players"}
    if changed:
        return {"chance": None, "when": None,
                "note": f"no match-equity table for these rules ({', '.join(sorted(changed))} "
                        "changed)"}
    try:
        table = table_for(rules, game.players)
    except ValueError as e:
        return {"chance": None, "when": None, "note": str(e)}
    hs = game.hs
    if st == "hand-over":
        score = game.score_now()
        dealer = (hs.dealer + 1) % game.players
        when = "now"
    else:
        score = list(hs.start_score)
        dealer = hs.dealer
        when = "at the start of this hand"
    mine, theirs = score[side], score[1 - side]
    chance = table.equity_of(mine, theirs, side_of(dealer, game.players) == side)
    return {"chance": round(chance, 4), "when": when,
            "note": f"the {table.rules} table to {table.target}, {table.players} players, "
                    f"from {table.hands:,} hands of {table.player.split()[0]} self-play"}


def _doc(gid: str, entry: Entry, **extra) -> dict:
    g = entry.game
    return tidy({"id": gid, "state": g.state(), "equity": equity(g),
                 "setup": g.setup.to_json(), **extra})


def _fail(e: Exception, status: int = 400) -> NoReturn:
    raise ApiError(str(e), status) from None


@router.get("/levels", summary="The engine's levels")
def levels() -> dict:
    """``{"levels": [{"number", "name", "spec", "about"}]}`` (docs/web.md
    measures each against the next)."""
    return {"levels": [{"number": lv.number, "name": lv.name, "spec": lv.spec,
                        "about": lv.about} for lv in LEVELS]}


@router.post("/new", status_code=201, summary="Start a game")
async def new_game(body: NewGame, request: Request, response: Response) -> dict:
    """A new game with the setup: its ``id`` and its first state. Sets
    the browser's key (cookie) when it has none."""
    setup = Setup(body.rules.strip() or "lmodire", body.players, body.seat_list(),
                  body.target, tuple(n.strip() for n in body.names))
    seed = body.seed or secrets.token_hex(8)
    now = time.time()
    try:
        setup.check_new()
        game = LiveGame(setup, seed, created=_date(now))
    except SetupError as e:
        _fail(e)
    key = request.cookies.get(COOKIE)
    if key is None or not _ID.fullmatch(key):
        key = secrets.token_urlsafe(32)
        response.set_cookie(COOKIE, key, max_age=10 * 365 * 86400, httponly=True,
                            samesite="strict", path="/")
    gid = secrets.token_urlsafe(16)
    entry = Entry(game, owner_of(key))
    games = _games(request)
    games.live[gid] = entry
    games.save(gid, entry, created=now)
    return _doc(gid, entry)


@router.get("/mine", summary="This browser's games")
async def mine(request: Request) -> dict:
    """``{"games": [...]}``: ``id``, ``setup``, ``status``, ``score``,
    ``plays``, ``created``, ``updated``, the latest first."""
    key = request.cookies.get(COOKIE)
    if key is None:
        return {"games": []}
    return tidy({"games": _games(request).store.mine(owner_of(key))})


@router.get("/{gid}", summary="A game's state")
async def game_state(gid: str, request: Request) -> dict:
    """What the person sees: ``state`` (see solver.games.live.LiveGame.state),
    ``equity``, ``setup``."""
    return _doc(gid, _entry(request, gid))


@router.post("/{gid}/move", summary="Play a card")
async def move(gid: str, body: Move, request: Request) -> dict:
    """The person plays ``card`` for ``seat``: the new state (``played``:
    what the card did). A card not in the hand, a play out of turn, a
    play after the hand or the game is over: 400 or 409, nothing changes."""
    entry = _entry(request, gid)
    g = entry.game
    async with entry.lock:
        seat = None
        if body.seat is not None:
            if body.seat not in g.names:
                _fail(ValueError(f"seat: {body.seat!r} is not a seat ({' '.join(g.names)})"))
            seat = g.names.index(body.seat)
        elif g.status() == "play":
            seat = g.hs.turn
        else:
            seat = g.home()
        try:
            ev = g.play(body.card, seat=seat)
        except MoveError as e:
            _fail(e, 409 if "turn" in str(e) or "over" in str(e) else 400)
        _games(request).save(gid, entry)
    return _doc(gid, entry, played={"seat": g.names[ev.seat], "card": str(ev.card),
                                    "effect": ev.effect})


@router.post("/{gid}/advance", summary="The engine plays its card")
async def advance(gid: str, request: Request) -> dict:
    """When an engine seat is to play: its card, searched in the pool
    from that seat's view only (``played``, and ``note`` when it ran out
    of time). Otherwise the state as it is. 429 when the pool is full."""
    entry = _entry(request, gid)
    g = entry.game
    cfg = _config(request)
    async with entry.lock:
        if g.status() != "engine":
            return _doc(gid, entry, played=None)
        req = g.engine_request()
        job = _submit(request, "engine_move", {"line": req["line"], "level": req["level"],
                                              "seed": req["seed"], "cap": cfg.time},
                      hard_limit(cfg.time) + 1)
        job = await _wait(request, job)
        if job.state != "done":
            raise ApiError(f"the engine could not play: {job.error or job.state}", 503)
        out = job.result
        ev = g.play(out["card"])
        if out.get("note"):
            g.notes[req["index"]] = out["note"]
        _games(request).save(gid, entry)
    return _doc(gid, entry, played={"seat": g.names[ev.seat], "card": str(ev.card),
                                    "effect": ev.effect, "note": out.get("note", ""),
                                    "seconds": out.get("seconds")})


@router.post("/{gid}/hint", summary="The engine's best play for the person to play")
async def hint(gid: str, request: Request) -> dict:
    """The analysis of the person's view (the document of ``ronda-solve
    --json``: every play's value, ``best``), counted as a hint at this play
    (a second request at the same play gives the same answer, counted once)."""
    entry = _entry(request, gid)
    g = entry.game
    cfg = _config(request)
    async with entry.lock:
        try:
            req = g.hint_request()
        except MoveError as e:
            _fail(e, 409)
        if entry.hint is not None and entry.hint[0] == req["index"]:
            return _doc(gid, entry, analysis=entry.hint[1])
        cap = min(HINT_TIME, cfg.time)
        job = _submit(request, "hint", {"line": req["line"], "seed": req["seed"], "cap": cap},
                      hard_limit(cap) + 1)
        job = await _wait(request, job)
        if job.state != "done":
            raise ApiError(f"no hint: {job.error or job.state}", 503)
        doc = job.result
        if doc["errors"]:
            raise ApiError(f"no hint: {doc['errors'][0]['error']}", 500)
        analysis = doc["positions"][0]
        g.add_hint(req["index"], analysis["best"][0])
        entry.hint = (req["index"], analysis)
        _games(request).save(gid, entry)
    return _doc(gid, entry, analysis=analysis)


@router.post("/{gid}/next", summary="Deal the next hand")
async def next_hand(gid: str, request: Request) -> dict:
    """After a hand (the match not won): the next hand is dealt."""
    entry = _entry(request, gid)
    async with entry.lock:
        try:
            entry.game.next_hand()
        except MoveError as e:
            _fail(e, 409)
        _games(request).save(gid, entry)
    return _doc(gid, entry)


@router.get("/{gid}/record", summary="The game's record", response_class=PlainTextResponse)
async def record(gid: str, request: Request, download: bool = False) -> PlainTextResponse:
    """The record (docs/records.md): the whole game once it is over; while
    it is on, its finished hands, without the seed (which would give away
    the cards still hidden). ``download=1``: as a file."""
    entry = _entry(request, gid)
    text = dumps(entry.game.record(full=False))
    headers = {}
    if download:
        headers["Content-Disposition"] = f'attachment; filename="ronda-{gid[:8]}.txt"'
    return PlainTextResponse(text, headers=headers)


@router.post("/{gid}/review", summary="Annotate the game (player's view)")
async def review(gid: str, request: Request) -> dict:
    """The finished hands annotated as ``ronda-solve annotate --json``
    does (player's view, its defaults), from the store when this record
    was reviewed before: ``{"result": document, "record": text, "cached":
    true}``; else a job (202-style: ``job`` with its ``id``) to poll at
    ``/api/jobs/{id}``; ask again when it is done."""
    entry = _entry(request, gid)
    g = entry.game
    games = _games(request)
    if g.hands_done() == 0:
        raise ApiError("no hand is finished yet: nothing to review", 409)
    text = dumps(g.record(full=False))
    key = (gid, digest(text))
    pending = games.reviews.get(key)
    if pending is not None and pending.state == "done" and pending.result is not None:
        _keep_review(games, gid, text, pending)
    cached = games.store.review(gid, text)
    if cached is not None:
        games.reviews.pop(key, None)
        return {"cached": True, "result": cached, "record": text}
    if pending is not None and pending.state in ("queued", "running"):
        return {"cached": False, "job": _public(pending), "record": text}
    job = _submit(request, "review", {"text": text, "db": games.store.path, **REVIEW},
                  _config(request).timeout)
    games.reviews[key] = job
    job.future.add_done_callback(lambda _f: _keep_review(games, gid, text, job))
    return {"cached": False, "job": _public(job), "record": text}


def _public(job) -> dict:
    d = job.public()
    d["result"] = None
    return d


def _keep_review(games: Games, gid: str, text: str, job) -> None:
    """Store a finished review job's result (once) and keep only a mark in
    the job (the pool shows results to whoever polls the job)."""
    if job.state != "done" or not isinstance(job.result, dict) or "result" not in job.result:
        return
    games.store.save_review(gid, text, job.result)
    job.result = {"stored": True}
