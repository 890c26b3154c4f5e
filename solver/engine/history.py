"""Replaying the public side of a deal: what the table, the card on it to
be hit and a hit pile on show become as the plays of a deal are made.

The rules are the compiled core's (:meth:`solver.engine.hand.Hand.play`,
one source of truth): each play is made in a state whose mover holds just
the card played, with a card in the next seat's hand so that the deal does
not end there (what a deal's end does to the table happens after it).
Ronda voleur: the pile tops and sizes at the deal's start (``tops``,
``piles``) are followed through the plays, so steals replay too.

>>> from solver.rules import PRESETS
>>> r = replay(PRESETS["lmodire"], 2, 0, [0, 4], [(0, 0), (1, 6), (0, 6)])
>>> r.table, r.prev, r.show, r.captured
([4], -1, 26, [[0, 0], [], [6, 6]])
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ..rules import Rules
from .hand import LAST, PREV, SHOW, TABLE, X, Hand, cardset, ranks_of
from .scoring import EV_CAPTURE


class Replay(NamedTuple):
    """The public state after the plays: ``table`` rank indices, ``prev``
    the rank index of the last lone card or -1, ``show`` ``rank*4 + size``
    or 0, ``captured`` the rank indices each play put out of play (its own
    card first; empty for a card laid; an answer: its own card only, the
    shown cards having been counted with the hit that took them),
    ``states`` the core state before each play (the mover holding only the
    card played), ``hand`` the :class:`~solver.engine.hand.Hand` they are
    states of, ``piles`` and ``tops`` each side's pile size and top (rank
    index or -1) after the plays (as tracked from the ones given)."""

    table: list[int]
    prev: int
    show: int
    captured: list[list[int]]
    states: list[tuple]
    hand: Hand
    piles: list[int]
    tops: list[int]


def replay(rules: Rules, players: int, leader: int, table: Sequence[int],
           plays: Sequence[tuple[int, int]], prev: int = -1, show: int = 0,
           tops: Sequence[int] | None = None, piles: Sequence[int] | None = None) -> Replay:
    """Replay ``plays`` (``(seat, rank index)``) from ``table`` (rank
    indices) with ``prev``/``show`` as the deal left them (-1/0 at its
    start); Ronda voleur: ``tops`` (rank index or -1) and ``piles`` each
    side's pile when the deal began. Raises ValueError when a seat plays
    out of turn."""
    hand = Hand(rules, players, leader, [], track=True)
    nsides = hand.nsides
    st = hand.initial_state(table, [[] for _ in range(players)], leader, prev, show, -1,
                            piles or [0] * nsides, tops or [-1] * nsides)
    t = st[TABLE]
    x = st[X]
    last = -1
    captured: list[list[int]] = []
    states: list[tuple] = []
    seat = plays[0][0] if plays else leader
    for i, (s, r) in enumerate(plays):
        if i and s != seat:
            raise ValueError(f"play {i + 1} is out of turn")
        nxt = (s + 1) % players
        hs = [0] * 4
        hs[s] = cardset([r])
        hs[nxt] |= cardset([9 if r != 9 else 0])     # keeps the deal open
        state = (t, hs[0], hs[1], hs[2], hs[3], s, prev, show, last, 0, x)
        states.append(state)
        child, _gain, ev = hand.play(state, r)
        took = [r] + ranks_of(hand.capture(state, r)) if ev & EV_CAPTURE else []
        if show and show >> 2 == r:
            took = [r]      # an answer: the shown cards were counted when the hit took them
        captured.append(took)
        t, prev, show, last, x = child[TABLE], child[PREV], child[SHOW], child[LAST], child[X]
        seat = nxt
    end = (t, 0, 0, 0, 0, 0, prev, show, last, 0, x)
    return Replay(ranks_of(t), prev, show, captured, states, hand,
                  [hand.pile(end, k) for k in range(nsides)],
                  [hand.top(end, k) for k in range(nsides)])
