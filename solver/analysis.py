"""Evaluating a position: every legal play with its value, the best plays,
the principal variation, what each play does.

Values are in game points for the side to move: the points its side scores
from now to the end of the hand less the other side's, card count of the
whole hand included (``taken=`` counts), declarations of deals still to
come included, those of the current deal not (already scored); the match
target is ignored.

>>> from solver.notation import parse_position
>>> a = evaluate(parse_position("5 5/7 - S taken=18,19 last=N gone=1.1.1.1.2.2.2.2.3.3.3.3.4.4.4.4.5.5.6.6.6.6.7.7.7.10.10.10.10.11.11.11.11.12.12.12.12"))
>>> [(m.move, m.value) for m in a.moves]
[('5', 2.0)]
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .cards import RANKS
from .compile import (CompileError, compile_known, is_perfect_information,
                      pile_margin, sampler)
from .game import (EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_HIT, EV_MISSA, Game,
                   State, event_points, ranks_of)
from .position import Position
from .search.alphabeta import solve
from .search.pimc import determinised

METHODS = ("auto", "exact", "determinised")


@dataclass
class MoveValue:
    """One legal play: ``move`` the card text (the rank, or the first
    suited card of that rank in the hand), ``value`` in points for the
    mover, ``stderr`` its standard error when sampled (else None),
    ``effect`` what the play does now (e.g. ``x5.6.7 +1 hit``), ``best_rate``
    the share of samples in which it was best (sampled only)."""

    move: str
    rank: int
    value: float
    stderr: float | None = None
    effect: str = ""
    best_rate: float | None = None


@dataclass
class Analysis:
    """The evaluation of one position.

    ``method``: ``"exact"`` or ``"determinised"``; ``value``: the best
    play's value in points for the side to move; ``moves``: every legal play,
    best first; ``best``: the plays of the best value (within 1e-9 when
    exact; the top mean when sampled); ``pv``: the principal variation as
    ranks when exact, else None; ``nodes``; ``seconds``; ``samples``: the
    number of determinisations (None when exact); ``note``: why this method.
    """

    position: Position
    method: str
    value: float
    moves: list[MoveValue]
    best: list[str]
    pv: list[str] | None
    nodes: int
    seconds: float
    samples: int | None = None
    seed: int | None = None
    note: str = ""
    stderr: float | None = None
    extra: dict = field(default_factory=dict)


def move_text(pos: Position, rank_index: int) -> str:
    """The card text of playing rank index ``rank_index`` from the mover's
    hand: the first suited card of that rank, or the bare rank."""
    rank = RANKS[rank_index]
    for c in pos.hands[pos.turn]:
        if c is not None and c.rank == rank and c.suit:
            return str(c)
    return str(rank)


def describe(game: Game, state: State, move: int) -> str:
    """What playing rank index ``move`` does now: ``x5.6.7.10`` for the
    cards it takes (its own card first), then the points of each event
    (``+1 hit``, ``+5 answer``, ``+1 missa``, ``+1 capture``), or ``lays``
    when it stays on the table."""
    _child, _gain, ev = game.play(state, move)
    rules = game.rules
    rank = str(RANKS[move])
    if ev & EV_ANSWER5:
        parts = ["x" + ".".join([rank] * 3)]
    elif ev & EV_ANSWER10:
        parts = ["x" + ".".join([rank] * 4)]
    elif ev & EV_CAPTURE:
        taken = ranks_of(game.capture(state[0], move))
        parts = ["x" + ".".join([rank] + [str(RANKS[r]) for r in taken])]
    else:
        parts = ["lays"]
    for bit, name in ((EV_CAPTURE, "capture"), (EV_HIT, "hit"), (EV_ANSWER5, "answer"),
                      (EV_ANSWER10, "answer"), (EV_MISSA, "missa")):
        pts = event_points(rules, bit) if ev & bit else 0
        if pts:
            parts.append(f"+{pts} {name}")
    return " ".join(parts)


def evaluate(pos: Position, method: str = "auto", samples: int = 200,
             seed: int = 0) -> Analysis:
    """Evaluate every legal play of ``pos``.

    ``method``: ``"exact"`` (perfect information: known stock order and
    hands), ``"determinised"`` (sample unknown cards ``samples`` times with
    ``seed``), or ``"auto"`` (exact when every card is known, else
    determinised). Raises CompileError when the position cannot be
    searched (three players; exact asked with unknown cards).
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (expected one of {', '.join(METHODS)})")
    perfect = is_perfect_information(pos)
    if method == "auto":
        method = "exact" if perfect else "determinised"
    if method == "exact" and not perfect:
        raise CompileError("exact search needs every card known (stock order and hands)")
    t0 = time.perf_counter()
    base = pile_margin(pos)
    if method == "exact":
        game, state = compile_known(pos)
        values, pv, stats = solve(game, state)
        moves = [MoveValue(move_text(pos, m), m, (v + base) / 2,
                           effect=describe(game, state, m)) for m, v in values.items()]
        moves.sort(key=lambda mv: (-mv.value, mv.rank))
        top = moves[0].value
        return Analysis(pos, "exact", top, moves,
                        [mv.move for mv in moves if mv.value == top],
                        [str(RANKS[m]) for m in pv], stats.nodes,
                        time.perf_counter() - t0,
                        note="every card is known: exact alpha-beta")
    sample = sampler(pos)
    result = determinised(sample, samples, seed)
    game, state = sample(random.Random(seed))
    effects = {}
    for m in game.moves(state):
        effects[m] = describe(game, state, m)
    moves = [MoveValue(move_text(pos, sm.move), sm.move, (sm.mean + base) / 2,
                       None if sm.stderr is None else sm.stderr / 2,
                       effects.get(sm.move, ""), sm.best / samples)
             for sm in result.moves]
    moves.sort(key=lambda mv: (-mv.value, mv.rank))
    top = moves[0]
    hidden = any(c is None for h in pos.hands for c in h)
    note = (f"stock order unknown: {samples} determinisations (seed {seed})"
            + ("; hidden hands sampled too: an estimate for the mover's information, "
               "not an exact value (strategy fusion)" if hidden else ""))
    return Analysis(pos, "determinised", top.value, moves, [top.move], None,
                    result.nodes, time.perf_counter() - t0, samples, seed, note,
                    top.stderr)
