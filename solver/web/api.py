"""The JSON API behind the pages (documented by FastAPI at ``/docs``,
schema at ``/openapi.json``).

Every text from the browser goes through the command line's strict
parsers (:func:`solver.notation.parse_position`,
:func:`solver.games.record.parse_games`) and a bad one gets the same one-line
error, as ``{"error": "..."}`` with status 400. Searches run in the
:class:`~solver.web.pool.SearchPool`: ``POST /api/analyse`` waits for its
answer, ``POST /api/jobs/...`` starts a job the page polls
(``GET /api/jobs/{id}``: state, progress, result) and may cancel
(``DELETE``). An analysis is the document of ``ronda-solve --json``; an
annotation the document of ``ronda-solve annotate --json`` (one game).
Shipped files are named, never given as a path.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from ..analysis.evaluation import METHODS
from ..match_equity.evaluate import OBJECTIVES
from ..notation import NotationError, parse_position
from ..rules import PRESETS
from .boards import board, card_svgs, play_line
from .pool import Busy, Job

POSITIONS = Path(__file__).resolve().parent.parent.parent / "positions"
LINE_MAX = 4000

router = APIRouter(prefix="/api")


class ApiError(Exception):
    """An error answered as ``{"error": message}`` with ``status``."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Line(BaseModel):
    """A position line."""
    line: str = Field(max_length=LINE_MAX, examples=["1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N"])


class Plays(Line):
    """A position line and plays to make from it."""
    moves: list[str] = Field(max_length=40, examples=[["7", "12"]])


class AnalyseRequest(Line):
    """What ``ronda-solve --json`` takes for one line."""
    method: Literal[METHODS] = "auto"  # type: ignore[valid-type]
    samples: int = Field(1000, ge=1, le=100000)
    seed: int = 0
    time: float | None = Field(None, gt=0, description="seconds; at most the server's --time")
    exact: bool = False
    inference: bool = True
    objective: Literal[OBJECTIVES] = Field(  # type: ignore[valid-type]
        "auto", description="points, match, or auto: points unless the line writes a score= "
                            "and the target can be reached in this hand (as the command line)")
    search: Literal["maxn", "paranoid"] = Field(
        "maxn", description="three players: how the other two play (max^n or paranoid)")


class Record(BaseModel):
    """A game record: its text (an upload) or the name of a shipped one."""
    text: str | None = None
    shipped: str | None = Field(None, examples=["engine-v-greedy.txt"])
    game: int = Field(1, ge=1)


class AnnotateRequest(Record):
    """What ``ronda-solve annotate --json`` takes for one game."""
    view: Literal["player", "full"] = "player"
    samples: int = Field(32, ge=1, le=1000)
    seed: int = 0
    luck_samples: int = Field(24, ge=0, le=200)


class PuzzleSet(BaseModel):
    """A puzzle file: its text (an upload) or the name of a shipped set."""
    text: str | None = None
    shipped: str | None = Field(None, examples=["hit.txt"])


class Answer(Line):
    """A puzzle line (with its ``bm``) and the card played."""
    card: str = Field(max_length=8)


def _pool(request: Request):
    return request.app.state.pool


def _config(request: Request):
    return request.app.state.config


def _shipped(folder: str, name: str) -> str:
    """The text of a shipped file named ``name`` in positions/``folder``:
    a name from the listing, never a path."""
    names = _listing(folder)
    if name not in names:
        raise ApiError(f"no shipped file {name!r} (known: {', '.join(names)})", 404)
    return (POSITIONS / folder / name).read_text(encoding="utf-8")


def _listing(folder: str) -> list[str]:
    d = POSITIONS / folder
    return sorted(p.name for p in d.glob("*.txt")) if d.is_dir() else []


def _text(item: Record | PuzzleSet, folder: str) -> str:
    if (item.text is None) == (item.shipped is None):
        raise ApiError("give either text (an upload) or shipped (a name), not both or neither")
    return item.text if item.text is not None else _shipped(folder, item.shipped or "")


def _parse(line: str):
    try:
        return parse_position(line)
    except NotationError as e:
        raise ApiError(str(e)) from None


async def _wait(request: Request, job: Job, every: float = 0.25) -> Job:
    """Wait for ``job`` (the request's timeout: the job's limit and the
    pool's grace); cancel it when the client goes away (its connection
    closed: checked every ``every`` seconds)."""
    pool = _pool(request)
    try:
        assert job.future is not None
        while True:
            done, _ = await asyncio.wait({asyncio.shield(job.future)}, timeout=every)
            if done:
                return job
            if await request.is_disconnected():
                pool.cancel(job)
                raise ApiError("the client went away; the search was stopped", 499)
    except asyncio.CancelledError:
        pool.cancel(job)
        raise


def _submit(request: Request, task: str, args: dict, limit: float) -> Job:
    try:
        return _pool(request).submit(task, args, limit)
    except Busy as e:
        raise ApiError(str(e), 429) from None


@router.get("/cards", summary="Every card drawing (SVG), by card text")
def cards() -> dict:
    """Each rank bare and in each suit, and ``?`` the back, drawn by the
    puzzle sheet's :func:`~solver.puzzles.sheet.card_svg`."""
    return {"cards": card_svgs()}


@router.get("/rules", summary="The rule presets and their player counts")
def rules() -> dict:
    """``{"presets": {name: {"players": [...], "target": n}}}``."""
    return {"presets": {n: {"players": list(r.players), "target": r.target}
                        for n, r in PRESETS.items()}}


@router.post("/position", summary="Read a position line: canonical line and board")
def position(body: Line) -> dict:
    """The board of a position line (:func:`solver.web.boards.board`), or
    the parser's one-line error."""
    return {"board": board(_parse(body.line))}


@router.post("/play", summary="Make plays from a position")
def play(body: Plays) -> dict:
    """The positions after each of ``moves`` (``plays``), and why the rest
    could not be made (``stopped``: the end of a deal whose next deal is
    not known, a move after the end of the hand). With a known stock a
    deal's last card deals the next deal; the hand's last card has no
    ``line``, its ``board`` is the hand's end, ``over`` the final score."""
    try:
        plays, stopped = play_line(body.line, body.moves)
    except NotationError as e:
        raise ApiError(str(e)) from None
    return {"plays": plays, "stopped": stopped}


def _analyse_args(request: Request, body: AnalyseRequest) -> tuple[dict, float]:
    _parse(body.line)
    cfg = _config(request)
    t = min(body.time or cfg.time, cfg.time)
    return ({"line": body.line, "method": body.method, "samples": body.samples,
             "seed": body.seed, "time_budget": t, "memory_mb": cfg.memory,
             "workers": cfg.workers, "inference": body.inference, "exact": body.exact,
             "objective": body.objective, "search": body.search}, t)


@router.post("/analyse", summary="Evaluate a position (waits for the answer)")
async def analyse(body: AnalyseRequest, request: Request) -> dict:
    """The document of ``ronda-solve --json`` for the line:
    ``{"positions": [...], "errors": []}``. The search's time is the
    request's ``time``, at most the server's ``--time``."""
    args, t = _analyse_args(request, body)
    job = await _wait(request, _submit(request, "analyse", args, t))
    return _outcome(job)


def _outcome(job: Job) -> dict:
    if job.state == "done":
        return job.result
    raise ApiError(job.error or job.state, 409 if job.state == "cancelled" else 500)


@router.post("/jobs/analyse", status_code=202, summary="Start evaluating a position")
def start_analyse(body: AnalyseRequest, request: Request) -> dict:
    """A job (poll ``GET /api/jobs/{id}``); its result is the document of
    ``POST /api/analyse``."""
    args, t = _analyse_args(request, body)
    return _watched(request, _submit(request, "analyse", args, t)).public()


@router.post("/jobs/annotate", status_code=202, summary="Start annotating a game")
def start_annotate(body: AnnotateRequest, request: Request) -> dict:
    """A job whose result is ``ronda-solve annotate --json``'s document of
    the game, plus ``record``: the annotated record's text."""
    text = _text(body, "games")
    # a record that cannot be read is refused now, as /games/open refuses it
    # (it was a job that failed a moment later)
    from ..games.record import parse_games
    from .tasks import chosen_game
    try:
        chosen_game(parse_games(text), body.game, "nothing to annotate")
    except ValueError as e:
        raise ApiError(str(e)) from None
    args = {"text": text, "game": body.game, "view": body.view, "samples": body.samples,
            "seed": body.seed, "luck_samples": body.luck_samples}
    return _watched(request, _submit(request, "annotate_game", args,
                                     _config(request).timeout)).public()


def _watched(request: Request, job: Job) -> Job:
    """A job a page polls: cancelled when nobody asks about it for a while
    (:data:`solver.web.pool.ABANDON` seconds: its page was closed)."""
    _pool(request).seen(job)
    return job


@router.get("/jobs/{job_id}", summary="A job's state, progress and result")
def job_state(job_id: str, request: Request) -> dict:
    """``state``: queued, running, done, failed or cancelled; ``progress``;
    ``result`` when done; ``error`` (one line) when failed."""
    job = _pool(request).jobs.get(job_id)
    if job is None:
        raise ApiError(f"no job {job_id!r}", 404)
    _pool(request).seen(job)
    return job.public()


@router.delete("/jobs/{job_id}", summary="Cancel a job")
def job_cancel(job_id: str, request: Request) -> dict:
    """Drop a queued job, stop a running one (as Ctrl-C stops the command)."""
    pool = _pool(request)
    job = pool.jobs.get(job_id)
    if job is None:
        raise ApiError(f"no job {job_id!r}", 404)
    pool.cancel(job)
    return job.public()


@router.get("/games", summary="The shipped game records")
def games() -> dict:
    """Names to give as ``shipped``."""
    return {"games": _listing("games")}


@router.post("/games/open", summary="Read a game record and replay one game")
async def games_open(body: Record, request: Request) -> dict:
    """Every game of the record (its tags, or its one-line error) and the
    chosen game's steps: the board before each play, the play, its mark."""
    job = await _wait(request, _submit(request, "open_games",
                                       {"text": _text(body, "games"), "game": body.game},
                                       _config(request).timeout))
    if job.state == "failed":
        raise ApiError(job.error or "failed")
    return _outcome(job)


@router.get("/puzzles", summary="The shipped puzzle sets")
def puzzle_sets() -> dict:
    """Names to give as ``shipped``."""
    return {"sets": _listing("puzzles")}


@router.post("/puzzles/open", summary="Read a puzzle set")
async def puzzles_open(body: PuzzleSet, request: Request) -> dict:
    """Every puzzle line with a ``bm``: its ``line``, ``board`` (from the
    mover's side: a declaration puzzle hides what the mover cannot see),
    ``id``, ``level``, ``themes``; and each unreadable line's error. Read
    by a search worker (:func:`solver.web.tasks.open_puzzles`): a large
    upload never holds the server."""
    job = await _wait(request, _submit(request, "open_puzzles",
                                       {"text": _text(body, "puzzles")},
                                       _config(request).timeout))
    if job.state == "failed":
        raise ApiError(job.error or "failed")
    return _outcome(job)


@router.post("/puzzles/answer", summary="Check a puzzle's answer")
async def puzzles_answer(body: Answer, request: Request) -> dict:
    """``right``, the best play, the explanation, the line, what the card
    played does, every play's exact value and loss."""
    pos = _parse(body.line)
    if not pos.opcode("bm"):
        raise ApiError("bm: a puzzle needs its best play (bm)")
    job = await _wait(request, _submit(request, "answer_puzzle",
                                       {"line": body.line, "card": body.card},
                                       _config(request).time))
    if job.state == "failed":
        raise ApiError(job.error or "failed")
    return _outcome(job)
