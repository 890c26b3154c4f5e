"""What a play does, in a player's words: the cards it takes, the piles it
steals, the points it scores (``x5.6.7 +1 hit``, ``lays``), read off the
compiled core's play (:func:`solver.engine.core.play`) of one state.

>>> from solver.notation import parse_position
>>> from solver.engine.compile import known_problem
>>> prob = known_problem(parse_position("1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N"))
>>> describe(prob, prob.st, 6), describe(prob, prob.st, 1)
('x7.7 +1 hit', 'lays')
"""

from __future__ import annotations

from ..cards import RANKS
from ..engine import core
from ..engine.scoring import (EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_HIT, EV_MISSA,
                              event_points, ranks_of)
from ..position import Position, side_names


def move_text(pos: Position, rank_index: int) -> str:
    """The card text of playing rank index ``rank_index`` from the mover's
    hand: the first suited card of that rank, or the bare rank."""
    rank = RANKS[rank_index]
    for c in pos.hands[pos.turn]:
        if c is not None and c.rank == rank and c.suit:
            return str(c)
    return str(rank)


def describe(prob, st: tuple, move: int) -> str:
    """What playing rank index ``move`` in core state ``st`` of ``prob`` (a
    :class:`~solver.engine.compile.Problem` or a
    :class:`~solver.engine.hand.Hand`) does now:
    ``x5.6.7.10`` for the cards it takes (its own card first), then the
    piles it steals (Ronda voleur: ``steals 12`` with two sides, ``steals
    E's 12`` with three), then the points of each event (``+1
    hit``, ``+5 answer``, ``+1 missa``, ``+1 capture``), or ``lays`` when it
    stays on the table."""
    P = prob.P
    child, _gain, ev = core.play(P, prob.D, st, move)
    rules = prob.rules
    rank = str(RANKS[move])
    if ev & EV_ANSWER5:
        parts = ["x" + ".".join([rank] * 3)]
    elif ev & EV_ANSWER10:
        parts = ["x" + ".".join([rank] * 4)]
    elif ev & EV_CAPTURE:
        taken = ranks_of(int(core.taken_cards(P, st, move)))
        parts = ["x" + ".".join([rank] + [str(RANKS[r]) for r in taken])]
    else:
        parts = ["lays"]
    if ev & EV_CAPTURE and P[core.P_VOLEUR]:
        side = int(P[core.P_SIDE + st[5]])
        names = side_names(prob.players)
        for k in range(prob.nsides):
            before = int(core.pile_of(st[10], k))
            if k != side and before and core.top_of(st[10], k) == move and \
                    not core.pile_of(child[10], k):
                if ev & (EV_ANSWER5 | EV_ANSWER10):
                    parts = ["x" + rank]
                # two sides: the one other pile; three: whose (it wrote +pile E(12))
                parts.append(f"steals {before}" if prob.nsides == 2
                             else f"steals {names[k]}'s {before}")
    for bit, name in ((EV_CAPTURE, "capture"), (EV_HIT, "hit"), (EV_ANSWER5, "answer"),
                      (EV_ANSWER10, "answer"), (EV_MISSA, "missa")):
        pts = event_points(rules, bit) if ev & bit else 0
        if pts:
            parts.append(f"+{pts} {name}")
    return " ".join(parts)
