"""Replaying the public side of a deal: what the table, the card on it to
be hit and a hit pile on show become as the plays of a deal are made.

The rules are the reference engine's (:meth:`solver.engine.game.Game.play`,
one source of truth): each play is made in a state whose mover holds just
the card played, with a card in the next seat's hand so that the deal does
not end there (what a deal's end does to the table happens after it).

>>> from solver.rules import PRESETS
>>> r = replay(PRESETS["lmodire"], 2, 0, [0, 4], [(0, 0), (1, 6), (0, 6)])
>>> r.table, r.prev, r.show, r.captured
([4], -1, 26, [[0, 0], [], [6, 6]])
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ..rules import Rules
from .game import HAND_BITS, Game, cardset, ranks_of


class Replay(NamedTuple):
    """The public state after the plays: ``table`` rank indices, ``prev``
    the rank index of the last lone card or -1, ``show`` ``rank*4 + size``
    or 0, ``captured`` the rank indices each play put out of play (its own
    card first; empty for a card laid; an answer: its own card only, the
    shown cards having been counted with the hit that took them), ``states`` the reference state before
    each play (the mover holding only the card played)."""

    table: list[int]
    prev: int
    show: int
    captured: list[list[int]]
    states: list[tuple]


def replay(rules: Rules, players: int, leader: int, table: Sequence[int],
           plays: Sequence[tuple[int, int]], prev: int = -1, show: int = 0) -> Replay:
    """Replay ``plays`` (``(seat, rank index)``) from ``table`` (rank
    indices) with ``prev``/``show`` as the deal left them (-1/0 at its
    start). Raises ValueError when a seat plays out of turn."""
    game = Game(rules, players, leader, [])
    t = cardset(table)
    captured: list[list[int]] = []
    states: list[tuple] = []
    seat = plays[0][0] if plays else leader
    for i, (s, r) in enumerate(plays):
        if i and s != seat:
            raise ValueError(f"play {i + 1} is out of turn")
        nxt = (s + 1) % players
        hands = cardset([r]) << (HAND_BITS * s)
        hands |= cardset([9 if r != 9 else 0]) << (HAND_BITS * nxt)   # keeps the deal open
        state = (t, hands, s, prev, show, -1, 0)
        states.append(state)
        child, _gain, ev = game.play(state, r)
        took = [r] + ranks_of(t & ~child[0]) if child[5] >= 0 else []
        if show and show >> 2 == r:
            took = [r]      # an answer: the shown cards were counted when the hit took them
        captured.append(took)
        t, prev, show = child[0], child[3], child[4]
        seat = nxt
    return Replay(ranks_of(t), prev, show, captured, states)
