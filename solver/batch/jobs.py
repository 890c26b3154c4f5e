"""What a worker does with one game: functions the coordinator sends to the
cluster, taking and returning plain picklable values. Workers never touch
the store; the evaluations they search come back in ``computed``."""

from __future__ import annotations

import time

from ..games.record import GameRecord, dumps

#: options of ``annotate`` a batch passes through (the rest are fixed)
ANNOTATE_OPTIONS = ("view", "samples", "seed", "method", "luck_samples", "thresholds",
                    "time_budget")


def annotate_options(options: dict) -> dict:
    """The keyword arguments of :func:`solver.games.annotate.annotate` for a
    batch's ``options`` (``thresholds`` as text such as ``"1,2,4"``)."""
    from ..games.annotate import Thresholds
    kw = {k: options[k] for k in ANNOTATE_OPTIONS if k in options}
    if kw.get("thresholds"):
        kw["thresholds"] = Thresholds.parse(kw["thresholds"])
    else:
        kw.pop("thresholds", None)
    return kw


def plan_annotation(game: GameRecord, options: dict) -> list[str]:
    """The store keys of every search the annotation of ``game`` needs
    (a replay, no search)."""
    from ..games.annotate import annotate
    return annotate(game, plan_only=True, **annotate_options(options))


def annotate_game(game: GameRecord, options: dict, hits: dict) -> dict:
    """Annotate one game with ``hits`` (store results by key) standing in
    for their searches. Returns ``{"result": annotate --json document,
    "record": annotated record text, "computed": {key: result} searched
    here, "seconds": wall time}``."""
    from ..games.annotate import annotate, annotation_json
    t0 = time.perf_counter()
    computed: dict = {}
    an = annotate(game, cache=hits, computed=computed, **annotate_options(options))
    return {"result": annotation_json(an), "record": dumps(an.record),
            "computed": computed, "seconds": time.perf_counter() - t0}


def mine_game(game: GameRecord, options: dict, hits: dict) -> dict:
    """Puzzle candidates from one game: every position of a hand's last
    deal (every card known to a card counter) where the mover has a real
    choice, verified as ``puzzles generate`` does
    (:func:`solver.puzzles.puzzle.make_puzzle`, ``options["margin"]`` points)
    and written, as its puzzles are, without the match score: a points
    puzzle, which ``puzzles check`` and ``sheet`` judge in points too.
    Returns ``{"result": {"puzzles": [puzzle lines]}, "record": None,
    "computed": {}, "seconds": wall time}``."""
    from ..puzzles.puzzle import NotAPuzzle, make_puzzle
    from ..games.record import Replay
    t0 = time.perf_counter()
    found, seen = [], set()
    for step in Replay(game):
        hs = step.state
        if hs.deal_no < len(hs.sizes) or len(hs.legal_ranks()) < 2:
            continue
        pos = hs.full_position()
        # a mined puzzle is a points puzzle, as `puzzles generate` makes
        # (docs/puzzles.md, "Points or the match"): make_puzzle verifies it
        # in points, and a written score= would have `puzzles check` and
        # `sheet` judge the line for the match instead; the score does not
        # change the points answer, so the line does not write it
        pos.score = None
        try:
            p = make_puzzle(pos, margin=options.get("margin", 2.0), source="mined")
        except (NotAPuzzle, ValueError):
            continue
        if p.id not in seen:
            seen.add(p.id)
            p.game = game_label(options, step.hand)
            found.append(p.line())
    return {"result": {"puzzles": found}, "record": None, "computed": {},
            "seconds": time.perf_counter() - t0}


def game_label(options: dict, hand: int) -> str:
    """The ``game`` opcode of a mined puzzle: ``FILE:NUMBER/handN``, the
    game's file, its number in the file and the hand. ``#`` starts a
    comment in a position line and ``;`` an opcode (NOTATION.md), so
    either in the file's name (and ``"``) is written ``_``: the line reads
    back whole, its ``game`` and its ``c``."""
    source = str(options.get("source", ""))
    for ch in '#;"':
        source = source.replace(ch, "_")
    return f"{source}:{options.get('number', '')}/hand{hand}"


def selfplay_chunk(spec: dict, options: dict, hits: dict) -> dict:
    """One chunk of self-play hands for a match-equity table
    (:func:`solver.match_equity.selfplay.play_chunk`; ``spec`` says which).
    Returns ``{"result": {"first", "count", "traces", "cpu", "wall"},
    "record": None, "computed": {}, "seconds": wall time}``."""
    from ..match_equity.selfplay import play_chunk
    t0 = time.perf_counter()
    out = play_chunk(spec)
    return {"result": out, "record": None, "computed": {},
            "seconds": time.perf_counter() - t0}


def matches_chunk(spec: dict, options: dict, hits: dict) -> dict:
    """One chunk of whole matches from a score, the check of a match-equity
    table (:func:`solver.match_equity.selfplay.play_matches`)."""
    from ..match_equity.selfplay import play_matches
    t0 = time.perf_counter()
    out = play_matches(spec)
    return {"result": out, "record": None, "computed": {},
            "seconds": time.perf_counter() - t0}


JOBS = {"annotate": annotate_game, "mine": mine_game, "selfplay": selfplay_chunk,
        "matches": matches_chunk}
