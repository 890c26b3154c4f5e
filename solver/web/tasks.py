"""What the web app's worker processes run (:mod:`solver.web.pool`).

Each task takes plain arguments (texts and numbers, never a path) and a
``progress`` callback, reads its input with the same strict parsers as the
command line and returns a JSON-ready dict in the same shape as the
command's ``--json``. Errors are raised with the command line's one-line
messages; :func:`one_line` turns any exception into one such line.
"""

from __future__ import annotations

import re
from typing import Callable

from ..notation import NotationError, field_error, parse_position
from ..numbers import plain, signed, tidy
from ..position import seat_names

Progress = Callable[[dict], None]


def one_line(e: BaseException) -> str:
    """The one-line message of an error (its first line; the type name
    when it has none)."""
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


#: the command line's words in the notes and errors of an analysis, and
#: the pages' (the analysis board's *objective* and *method* menus, its
#: *seconds*; the game viewer's *samples*); the memory a search may take
#: is the server's own setting, no page's: the most specific first
PAGE_WORDS = (("(--objective match tries)", "(choosing the objective match tries)"),
              ("use --objective points", "choose the objective points"),
              ("raise --time or --memory", "raise the seconds or the server's memory limit"),
              ("lower --memory", "lower the server's memory limit"),
              ("--memory", "the server's memory limit"))

#: what is left of the options, by pattern: ``--method auto``, ``--time``
#: (``of --time 10``: its seconds), ``--samples``
PAGE_PATTERNS = ((re.compile(r"\buse --method (\S+)"), r"choose the method \1"),
                 (re.compile(r"--method (\S+)"), r"the method \1"),
                 (re.compile(r"\bof --time (\d+(?:\.\d+)?)"), r"of the \1 seconds"),
                 (re.compile(r"--time (\d+(?:\.\d+)?)( s\b)?"), r"\1 seconds"),
                 (re.compile(r"--time\b"), "the seconds"),
                 (re.compile(r"--samples (\d+)"), r"\1 samples"),
                 (re.compile(r"--samples\b"), "the samples"))


def page_words(text: str) -> str:
    """``text`` (an objective note, an error) in the board's words instead
    of the command line's options.

    >>> page_words("points: 36 cards are left to play (--objective match tries)")
    'points: 36 cards are left to play (choosing the objective match tries)'
    >>> page_words("expectimax did not finish: raise --time or --memory, or use "
    ...            "--method auto to sample instead")
    "expectimax did not finish: raise the seconds or the server's memory limit, or choose the method auto to sample instead"
    """
    for cli, page in PAGE_WORDS:
        text = text.replace(cli, page)
    for pattern, page in PAGE_PATTERNS:
        text = pattern.sub(page, text)
    return text


def analyse(line: str, method: str = "auto", samples: int = 1000, seed: int = 0,
            time_budget: float = 10.0, memory_mb: float = 2048.0, workers: int = 1,
            inference: bool = True, exact: bool = False, objective: str = "auto",
            progress: Progress | None = None, search: str = "maxn") -> dict:
    """Evaluate one position line as ``ronda-solve --json`` does (the same
    :func:`solver.match_equity.objective.analyse`, so the same objective,
    best play and values): the document ``{"positions": [...], "errors":
    [...]}`` with the position (:func:`solver.analysis.document.analysis_json`
    and its ``suite`` verdicts) or the line's one error. ``progress`` gets
    ``{"samples", "of", "best", "lead_z"}`` after each sampling batch (two
    or three players); ``search``: three players' ``maxn`` or
    ``paranoid``."""
    from ..match_equity.objective import analyse as answer
    from ..cards import RANKS
    from ..engine.compile import CompileError
    from ..analysis.document import analysis_json
    from ..analysis.suite import verdicts
    try:
        pos = parse_position(line, 1)
    except NotationError as e:
        return {"positions": [], "errors": [{"file": "-", "line": 1, "error": str(e)}]}

    def update(result) -> None:
        if progress is None:
            return
        moves = result.moves
        progress({"samples": result.samples, "of": samples,
                  "best": str(RANKS[moves[0].move]) if moves else None,
                  "lead_z": (plain(moves[1].lead_z, "rounded")
                             if len(moves) > 1 else None)})

    try:
        a = answer(pos, objective, method=method, samples=samples, seed=seed, workers=workers,
                   time_budget=time_budget, memory_mb=memory_mb, progress=update,
                   inference=inference, search=search)
    except (CompileError, ValueError) as e:
        error = page_words(f"line 1, {field_error(e, one_line(e))}")
        return {"positions": [], "errors": [{"file": "-", "line": 1, "error": error}]}
    if a.partial:
        raise KeyboardInterrupt("cancelled")
    doc = analysis_json(a, 1, exact)
    doc["objective_note"] = page_words(doc["objective_note"])
    doc["file"] = "-"
    doc["suite"] = [{"opcode": op, "agrees": ok, "text": s} for op, ok, s in verdicts(a)]
    return {"positions": [doc], "errors": []}


def chosen_game(items: list, game: int, nothing: str):
    """Game ``game`` (1-based) of ``items`` (:func:`parse_games`'s), or
    ValueError in one line: no game, no such game, its error, no hand
    (``nothing``: what a game without hands leaves, "nothing to show")."""
    from ..games.record import RecordError
    if not items:
        raise ValueError("no game in the record")
    if not 1 <= game <= len(items):
        raise ValueError(f"game {game} does not exist (the record holds {len(items)})")
    chosen = items[game - 1]
    if isinstance(chosen, RecordError):
        raise ValueError(f"game {game}: {chosen}")
    if not chosen.hands:
        raise ValueError(f"game {game} has tags but no hand: {nothing}")
    return chosen


def open_games(text: str, game: int = 1, progress: Progress | None = None) -> dict:
    """Read a record text (:func:`solver.games.record.parse_games`, lenient
    across games, strict inside one) and replay game ``game`` (1-based):
    ``games`` lists every game (tags and its one error, if any); ``game``
    is the chosen one with its ``steps``, the board before each play and
    the play. Raises ValueError (one line) when there is no such game or
    it does not replay."""
    from ..games.record import RecordError, Replay, parse_games
    from .boards import board
    items = parse_games(text)
    chosen = chosen_game(items, game, "nothing to show")
    listing = []
    for i, item in enumerate(items, start=1):
        if isinstance(item, RecordError):
            listing.append({"number": i, "error": str(item), "tags": {}})
        else:
            listing.append({"number": i, "error": None, "tags": dict(item.tags),
                            "hands": len(item.hands)})
    steps = []
    try:
        for step in Replay(chosen):
            pos = step.state.full_position()
            steps.append({"index": step.index, "hand": step.hand, "deal": step.deal,
                          "number": step.number, "seat": pos.seat_name(step.seat),
                          "card": str(step.play.card), "mark": step.play.mark or "",
                          "comments": list(step.play.comments), "board": board(pos)})
    except RecordError as e:
        raise ValueError(f"game {game}: {e}") from None
    return {"games": listing, "game": {"number": game, "tags": dict(chosen.tags),
                                        "names": chosen.names, "players": chosen.players,
                                        "steps": steps}}


def annotate_game(text: str, game: int = 1, view: str = "player", samples: int = 32,
                  seed: int = 0, luck_samples: int = 24, time_budget: float = 10.0,
                  progress: Progress | None = None) -> dict:
    """Annotate game ``game`` of a record text as ``ronda-solve annotate
    --json`` does: :func:`solver.games.annotate.annotation_json`, plus
    ``record`` the annotated record's text (what ``-o`` writes)."""
    from ..games.annotate import annotate, annotation_json
    from ..games.record import dumps, parse_games
    chosen = chosen_game(parse_games(text), game, "nothing to annotate")

    def tick(done: int, total: int) -> None:
        if progress is not None:
            progress({"done": done, "of": total})

    try:
        an = annotate(chosen, view=view, samples=samples, seed=seed, luck_samples=luck_samples,
                      progress=tick)
    except ValueError as e:             # in the viewer's words, not the options'
        raise ValueError(page_words(one_line(e))) from None
    doc = annotation_json(an)
    doc["record"] = dumps(an.record)
    return doc


def answer_puzzle(line: str, card: str, progress: Progress | None = None) -> dict:
    """Check ``card`` as the answer to the puzzle ``line`` (its ``bm``):
    ``right``, ``best``, the explanation (``c``, or the engine's), the
    line (``pv``), what the card played does (``played_line``), every
    play's exact value and loss (:func:`solver.puzzles.puzzle.examine`).
    Three players: ``value`` and each move's ``value`` are the mover's
    entry of the max^n vectors, each move's ``values`` the whole vector
    (``seats`` names its entries) and ``best`` marks the accepted plays.
    A puzzle drawn from the mover's seat (``view`` "mover"): ``value`` and
    each move's ``value`` and ``loss`` are points averaged over the hands
    the mover cannot tell apart (:func:`solver.puzzles.puzzle.hidden_values`),
    by which the answer is judged."""
    from ..cards import parse_card
    from ..puzzles.explain import line_text
    from ..puzzles.puzzle import answer_ranks, examine, idea_for, seen_note, _bare
    pos = parse_position(line)
    try:
        played = parse_card(card)
    except ValueError as e:
        raise ValueError(f"answer: {one_line(e)}") from None
    hand = [c for c in pos.hands[pos.turn] if c is not None]
    if played.rank not in {c.rank for c in hand}:
        raise ValueError(f"answer: {pos.seat_name(pos.turn)} holds no {played.rank}")
    from ..engine.compile import CompileError
    from ..puzzles.puzzle import NotAPuzzle
    best_ranks, warning = answer_ranks(pos)
    bm = " ".join(str(r) for r in sorted(best_ranks)) or None
    try:
        p = examine(_bare(pos))
    except (NotAPuzzle, CompileError, ValueError):
        if not best_ranks:
            raise
        # not searchable exactly (a '?' hand or stock): judged as the quiz
        # judges it, by the line's bm (answer_ranks; its warning says the
        # answer is unchecked); no value, line or table to give
        return tidy({"right": played.rank in best_ranks, "card": str(played),
                     "warning": warning, "best": bm, "value": None,
                     "explanation": seen_note(pos, pos.opcode("c")) or "",
                     "pv": (pos.opcode("pv") or "").split(), "played_line": "",
                     "themes": (pos.opcode("themes") or "").split(), "moves": []})
    _game, _state, idea = idea_for(_bare(pos))
    from ..cards import RANK_INDEX
    moves = [{"move": m, "value": v, "loss": p.value - v,
              "best": parse_card(m).rank in best_ranks} for m, v in p.moves.items()]
    three = {}
    a = None
    from ..analysis.hidden import hides_cards
    if pos.score is not None and not hides_cards(pos):   # ronda-solve's objective
        from ..puzzles.puzzle import judge
        try:
            a = judge(_bare(pos))
        except ValueError:
            a = None
    explanation = seen_note(pos, pos.opcode("c") or p.explanation)
    pv = (pos.opcode("pv") or " ".join(p.pv)).split()
    played_line = line_text(idea, RANK_INDEX[played.rank], _bare(pos))
    value = p.value
    themes = (pos.opcode("themes") or " ".join(p.themes)).split()
    if a is not None and a.objective == "match":
        # played for the match: the answer, its line, the value and the
        # losses are the match's (each play's chance of winning it); the
        # points this hand are each play's "points", said as such
        from ..puzzles.puzzle import (chance_text, match_explanation, match_heading,
                                      match_idea, match_line_text)
        three = {"objective": "match", "objective_note": match_heading(pos)}
        top = a.moves[0].chance
        moves = [{"move": mv.move, "value": mv.chance, "loss": max(0.0, top - mv.chance),
                  "best": parse_card(mv.move).rank in best_ranks, "chance": mv.chance,
                  "points": mv.value} for mv in a.moves]
        value = top
        # the line's own pv is the points line (docs/puzzles.md: a points field)
        pv = list(a.pv or [])
        explanation = pos.opcode("c") or match_explanation(_bare(pos), a)
        mine = next(mv for mv in a.moves if parse_card(mv.move).rank == played.rank)
        match_line = (match_line_text(_bare(pos), a.pv)
                      if played.rank in {parse_card(m).rank for m in a.best} else None)
        played_line = (f"{chance_text(mine.chance)} to win the match"
                       + (f": {match_line}" if match_line else
                          f" (in points this hand, {signed(mine.value)}: {played_line})"))
        # the themes and level of the match's play, not the points play's
        # the line may write (a theme the match cannot judge is said so)
        seen = match_idea(_bare(pos))
        if seen is not None:
            themes = seen.themes
            three.update({"level": seen.level, "themes_unjudged": seen.unjudged})
    if hides_cards(pos):
        # drawn from the mover's seat: judged over the hands the mover cannot
        # tell apart (answer_ranks), and so is the table (every card seen,
        # another play may be best: the line's score does not change that)
        from ..puzzles.puzzle import hidden_values
        try:
            averaged = hidden_values(pos)
        except (CompileError, ValueError):
            averaged = {}
        if averaged:
            value = max(averaged.values())
            moves = [{"move": m, "value": v, "loss": max(0.0, value - v),
                      "best": parse_card(m).rank in best_ranks} for m, v in averaged.items()]
            three["view"] = "mover"
    if p.vectors:               # three players: every seat's own points (max^n)
        three = {"seats": list(seat_names(pos.players)), "vector": p.vector}
        for mv in moves:
            mv["values"] = p.vectors[mv["move"]]
    return tidy({"right": played.rank in best_ranks, "card": str(played), "warning": warning,
            **three,
            "best": bm or p.best, "value": value,
            "explanation": explanation,
            "pv": pv,
            "played_line": played_line,
            "themes": themes,
            "moves": moves})


def open_puzzles(text: str, progress: Progress | None = None) -> dict:
    """Read a puzzle file's text (``POST /api/puzzles/open``): every line
    with a ``bm`` (its canonical ``line``, ``board`` from the mover's side,
    ``id``, ``level``, ``themes``, ``depth``: a line played for the match
    the match play's, :func:`as_played_for_the_match`) and each unreadable
    line's one-line error."""
    from ..analysis.hidden import hides_cards, mover_view
    from ..notation import format_position, parse_file
    from ..puzzles.puzzle import as_played_for_the_match
    from .boards import board
    out, errors = [], []
    for number, item in parse_file(text):
        if isinstance(item, NotationError):
            errors.append(str(item))
            continue
        if not item.opcode("bm"):
            errors.append(f"line {number}, bm: a puzzle needs its best play (bm)")
            continue
        shown = mover_view(item) if hides_cards(item) else item
        # played for the match: the match play's level, themes and depth
        # (the list's filters and stars), not the points play's
        seen = as_played_for_the_match(item)
        out.append({"number": number, "line": format_position(item), "board": board(shown),
                    "id": item.opcode("id"), "level": seen.opcode("level"),
                    "themes": (seen.opcode("themes") or "").split(),
                    "depth": seen.opcode("depth")})
    if not out and not errors:
        errors.append("no puzzle in the file")
    return {"puzzles": out, "errors": errors}
