"""Three-player puzzles: the :class:`~solver.puzzles.themes.Idea` of a
position where each of three seats plays for itself (max^n).

The values are vectors, one entry per seat (S, E, N): each seat's own
points from now to the end of the hand, its card count over 20 included
(:mod:`solver.search.vectors`, ``search="maxn"``). Every seat chooses by
the documented max^n rule (:func:`solver.search.vectors.choose`: the
higher own entry, then the lower sum of the others, then the lowest
rank), so a line depends only on exact values, as for two players.

The puzzle reads the mover's entry: the best play is the max^n choice,
its value ``v`` the mover's entry of its vector, the margin the mover's
entry of the best less the mover's entry of the strongest other play (the
next in the rule's order). ``Idea.values`` holds twice the mover's entry
(half-points, the unit of two-sided ideas), ``Idea.vectors`` the vectors.

>>> from solver.notation import parse_position
>>> from solver.engine.compile import compile_known
>>> pos = parse_position("3.10 5.12/10.11/2.1 - S rules=french voleur=yes "
...                      "taken=12,10,10 last=N tops=2,5,3")
>>> idea = idea_of_maxn(*compile_known(pos))
>>> idea.vectors[idea.key], idea.values[idea.key]
((4.0, 2.0, 0.0), 8)
"""

from __future__ import annotations

from typing import Sequence

from ..engine.core import play_points
from ..engine.hand import SEAT, TABLE, Hand, State
from ..engine.scoring import ranks_of
from ..search.vectors import VectorSearcher, choose, ranked
from .themes import Idea, Line, replay

#: the vector tables' budget (MB): a last deal stores a few thousand vectors
MEMORY_MB = 16.0


def _half(x: float) -> int:
    return int(round(2 * x))


def idea_of_maxn(game: Hand, state: State, declared: Sequence[tuple[int, int]] = ()) -> Idea:
    """Search ``state`` (three sides) by exact max^n and build its
    :class:`Idea`: every root play's vector, its line (each seat choosing
    by the max^n rule) and, after the key play, the next seat's replies
    (twice its own entry). Raises ValueError on a finished hand or a game
    that is not three-sided."""
    if game.nsides != 3:
        raise ValueError(f"max^n ideas take three sides, not {game.nsides}")
    if game.is_terminal(state):
        raise ValueError("the hand is over: no play to make")
    vs = VectorSearcher(game.P, game.D, MEMORY_MB, search="maxn")
    vectors = vs.root_values(state)
    mover = state[SEAT]
    side = game.sides[mover]
    order = ranked(vectors, side)
    values = {m: _half(v[side]) for m, v in vectors.items()}
    lines = {}
    for m in order:
        child = game.play(state, m)[0]
        rest = [] if game.is_terminal(child) else vs.principal_variation(child)
        lines[m] = Line(replay(game, state, [m] + rest), values[m])
    after_key = game.play(state, order[0])[0]
    replies = {}
    if not game.is_terminal(after_key):
        nxt = game.sides[after_key[SEAT]]
        replies = {m: _half(v[nxt]) for m, v in vs.root_values(after_key, keep=True).items()}
    hands = tuple(tuple(ranks_of(state[1 + s])) for s in range(game.players))
    return Idea(game.rules, game.players, game.sides, mover, hands,
                tuple(ranks_of(state[TABLE])), values, order, lines, tuple(declared), replies,
                vectors={m: tuple(v) for m, v in vectors.items()})


def horizon_best_maxn(game: Hand, state: State, plies: int) -> set[int]:
    """The root plays a look-ahead of ``plies`` plies picks when every
    seat counts only its own points won on the way
    (:func:`solver.engine.core.play_points`: hits, answers, missas,
    captures and, on the hand's last card, the sweep and the card count)
    and chooses by the max^n rule; the plays of the top entry for the
    mover (a greedy player at ``plies = 1``)."""
    memo: dict = {}

    def step(s: State, m: int) -> tuple[State, tuple[int, ...]]:
        child, _gain, ev = game.play(s, m)
        return child, tuple(int(x) for x in play_points(game.P, game.D, s, child, ev))

    def vec(s: State, k: int) -> tuple[int, ...]:
        if k == 0 or game.is_terminal(s):
            return (0, 0, 0)
        key = (s, k)
        v = memo.get(key)
        if v is None:
            kids = {}
            for m in game.moves(s):
                child, pts = step(s, m)
                kids[m] = tuple(a + b for a, b in zip(pts, vec(child, k - 1)))
            v = memo[key] = kids[choose(kids, game.sides[s[SEAT]])]
        return v

    side = game.sides[state[SEAT]]
    own = {}
    for m in game.moves(state):
        child, pts = step(state, m)
        own[m] = pts[side] + vec(child, plies - 1)[side]
    top = max(own.values())
    return {m for m, v in own.items() if v == top}
