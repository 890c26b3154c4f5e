"""Hands measured by self-play: each hand's ordered score awards.

A hand's outcome for the match is more than its final points: under
``win_check = immediate`` the first side to reach the target wins at that
moment, so the order in which points arrive matters. :func:`play_trace`
plays one whole hand (no target) with the greedy policy on every seat and
returns its *trace*: every award of points in the order the rules make
them (declarations when a deal is made, each play's events, the sweep,
the card count), as ``(dealer side points, leader side points)``.

The policy is :class:`solver.games.players.GreedyPlayer`'s (the capture worth
most points now, else the card of the rank with the fewest unseen copies),
computed here from the hand's own state with the same information the
seat has, because the view-and-sampler path is five times slower.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..engine.hand import SEAT
from ..engine.scoring import count
from ..games.match import HandState, deal_hand
from ..games.players import greedy_choices
from ..position import side_of
from ..rules import Rules

#: one award: (points to the dealer's side, points to the leader's side)
Award = tuple[int, int]


class _TracedHand(HandState):
    """A HandState that writes down every award in order."""

    trace: list[tuple[int, ...]]

    def _award(self, gains: Sequence[int], kind: str) -> bool:
        if any(gains):
            self.trace.append(tuple(gains))
        return super()._award(gains, kind)


def greedy_rank(hs: HandState, rng: random.Random) -> int:
    """The rank index :class:`~solver.games.players.GreedyPlayer` plays for the
    mover of ``hs`` (ties at random), from what the mover sees: the table,
    its hand, the card on show, and how many copies of each rank it has not
    seen (those in the other hands and the stock)."""
    game, state = hs.game, hs.state
    seat = state[SEAT]
    stock = game.stock_left(state)
    best = greedy_choices(game, state, lambda m: sum(
        count(state[1 + s], m) for s in range(game.players) if s != seat)
        + stock.count(m))
    return best[rng.randrange(len(best))]


def play_trace(rules: Rules, players: int, dealer: int, rng: random.Random) -> list[Award]:
    """Shuffle, deal and play one whole hand greedily (no target); return
    its awards in order as ``(dealer side points, leader side points)``.

    >>> from solver.rules import PRESETS
    >>> t = play_trace(PRESETS["lmodire"], 2, 1, random.Random(3))
    >>> all(a >= 0 and b >= 0 and a + b > 0 for a, b in t)
    True
    """
    table, stock = deal_hand(rules, players, rng)
    hs = _TracedHand(rules, players, dealer, table, stock=stock)
    hs.trace = []
    while not hs.finished:
        if hs.awaiting_deal:
            hs.deal()
            continue
        r = greedy_rank(hs, rng)
        card = next(c for c in hs.hands[hs.turn] if c.index == r)
        hs.play(card)
    d = side_of(dealer, players)
    return [(g[d], g[1 - d]) for g in hs.trace]


def play_traces(rules: Rules, players: int, hands: int, seed: int | str) -> list[list[Award]]:
    """``hands`` traces (:func:`play_trace`), the dealer alternating seat
    by seat, hand ``i`` shuffled by ``Random(f"met/{seed}/{i}")``."""
    out = []
    for i in range(hands):
        rng = random.Random(f"met/{seed}/{i}")
        out.append(play_trace(rules, players, i % players, rng))
    return out


def play_out(hs: HandState, rng: random.Random) -> HandState:
    """Deal and play ``hs`` greedily until it is finished; returns it."""
    while not hs.finished:
        if hs.awaiting_deal:
            hs.deal()
            continue
        r = greedy_rank(hs, rng)
        hs.play(next(c for c in hs.hands[hs.turn] if c.index == r))
    return hs


def simulate_match(rules: Rules, players: int, a: int, b: int, a_deals: bool,
                   rng: random.Random, max_hands: int = 200) -> int | None:
    """Play a match greedily from the score ``(a, b)`` (side A is S, or
    S+N), A dealing first or not, hand after hand with the real win check
    (:class:`solver.games.match.HandState` with the target): the winning side
    (0 = A) or None after ``max_hands``. The independent check of a
    match-equity table."""
    score = [a, b]
    dealer = 0 if a_deals else 1
    for _ in range(max_hands):
        table, stock = deal_hand(rules, players, rng)
        hs = play_out(HandState(rules, players, dealer, table, score=score,
                                target=rules.target, stock=stock), rng)
        if hs.winner is not None:
            return hs.winner
        score = list(hs.score)
        dealer = (dealer + 1) % players
    return None
