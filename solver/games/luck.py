"""The luck of each deal of a played hand, as a control variate (AIVAT's
idea for chance nodes): what the cards dealt were worth, less what a deal
from the same stock is worth on average.

At each deal the state before it (the table, who captured last, the
stock's cards) is the same for both players; chance then deals the hands.
Let ``f(deal)`` be the declarations of the dealt hands plus the value of
the dealt position for the leader's side, every hand of the deal known
(alpha-beta to the end of the deal, the deals to come valued by the
boundary model: :mod:`solver.analysis.deal`'s search with every hand
known). The luck of the deal is ``f(actual deal) - mean of f over
``samples`` deals drawn from the same stock`` (drawn independently of the
actual deal). Its expectation given everything before the deal is exactly
zero, whatever ``f`` is (the actual deal and the drawn ones come from the
same distribution), so subtracting the summed luck from a hand's result
leaves its expectation unchanged, and takes away what the cards did.

Values in half-points for the leader's side (of the hand: the seat after
the dealer leads every deal).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Sequence

import numpy as np

from ..engine import core
from ..engine.core import EV_DEAL
from ..engine.hand import LAST, STOCK, TABLE, Hand, cardset
from ..rules import Rules, deal_sizes


@lru_cache(maxsize=16)
def _searcher(rules: Rules, players: int, leader: int):
    """The deal searcher of a shuffled-stock game (its arrays, the boundary
    model, a table reused across hands: entries stay true)."""
    from ..search.deal_search import DealSearcher
    from ..value.model import find
    from ..value.net import empty_model
    game = Hand(rules, players, leader, [0] * (40 - rules.table_cards), shuffled=True)
    P, D = game.P, game.D
    model = find(P)
    vm = model.vm if model is not None else empty_model()
    return DealSearcher(P, D, vm, table_bits=18), game, model


def _deal_hands(cards: Sequence[int], n: int, players: int, leader: int) -> list[list[int]]:
    hands: list[list[int]] = [[] for _ in range(players)]
    for i in range(players):
        hands[(leader + i) % players] = list(cards[i * n:(i + 1) * n])
    return hands


def deal_worth(rules: Rules, players: int, leader: int, table: int, last: int,
               hands: Sequence[Sequence[int]], rest: Counter) -> float:
    """``f``: the declarations of ``hands`` plus the value of the dealt
    position (every hand known; ``rest`` the stock left, by rank) for the
    leader's side, half-points. Where no model values the deals to come
    and they are not the last one (searched exactly), only the
    declarations count (still a valid control variate)."""
    searcher, game, model = _searcher(rules, players, leader)
    P = searcher.P
    h = [cardset(x) for x in hands] + [0] * (4 - players)
    dg = int(core.declaration_gain(P, h[0], h[1], h[2], h[3]))
    lead_side = game.sides[leader]
    decl = dg if lead_side == 0 else -dg
    left = sum(rest.values())
    from ..analysis.deal import exact_end
    if left and not exact_end(game, left) and (model is None or left not in model.levels):
        return float(decl)
    st = (table, h[0], h[1], h[2], h[3], leader, -1, 0, last, cardset(rest.elements()), 0)
    return decl + searcher.value(st)


def hand_luck(rules: Rules, players: int, dealer: int, table: Sequence[int],
              stock: Sequence[int], plays: Sequence[Sequence[int]], samples: int,
              seed: str) -> list[float]:
    """The luck of each deal of a hand played from ``table`` and ``stock``
    (rank indices, the stock in dealing order) with ``plays`` (rank indices
    per deal, in play order): half-points for the leader's side, one entry
    a deal played. ``samples`` drawn deals estimate each deal's mean
    (``seed`` seeds them; the same seed gives the same draws)."""
    leader = (dealer + 1) % players
    sizes = deal_sizes(rules, players)
    stock = list(stock)
    n0 = sizes[0]
    game = Hand(rules, players, leader, stock[n0 * players:])
    first = _deal_hands(stock[:n0 * players], n0, players, leader)
    state = game.initial_state(list(table), first, leader)
    boundary = (cardset(table), -1, 0)     # table, last side, stock position
    out = []
    for d, deal_plays in enumerate(plays):
        if not deal_plays:
            break
        n = sizes[d]
        spos = boundary[2]
        dealt = stock[spos:spos + n * players]
        left = Counter(stock[spos:])
        rng = random.Random(f"{seed}/{d}")
        pool = list(left.elements())
        actual = _deal_hands(dealt, n, players, leader)
        rest = Counter(left)
        rest.subtract(dealt)
        f = deal_worth(rules, players, leader, boundary[0], boundary[1], actual, rest)
        drawn = []
        for _ in range(samples):
            cards = rng.sample(pool, n * players)
            r2 = Counter(left)
            r2.subtract(cards)
            drawn.append(deal_worth(rules, players, leader, boundary[0], boundary[1],
                                    _deal_hands(cards, n, players, leader), r2))
        out.append(f - float(np.mean(drawn)))
        for m in deal_plays:
            parent = state
            state, _gain, ev = game.play(state, m)
            if ev & EV_DEAL:
                # the stock position before this deal: the parent's (known stock:
                # the stock field counts the cards dealt after the first deal)
                boundary = (state[TABLE], state[LAST], n0 * players + parent[STOCK])
    return out
