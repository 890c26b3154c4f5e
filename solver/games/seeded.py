"""Seeded random deals for benchmarks and tests: the same seed always
gives the same cards.

>>> d = seeded_deal("doc", stock=12, table=4)
>>> len(d.stock), len(d.table), len(set(d.table)), len(d.rest)
(12, 4, 4, 24)
>>> seeded_deal("doc", stock=12) == d
True
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..cards import RANKS


class Deal(NamedTuple):
    """Rank indices (0..9): ``stock`` first off the shuffled deck, then a
    ``table`` of distinct ranks, and the ``rest`` in deck order (hands,
    then whatever is gone)."""

    stock: list[int]
    table: list[int]
    rest: list[int]


def seeded_deal(seed: object, stock: int, table: int = 4) -> Deal:
    """Shuffle the 40 cards with ``random.Random(seed)``; the first
    ``stock`` cards are the stock, then the first ``table`` distinct ranks
    of the remainder are the table (a ``distinct`` table, RULES.md), and
    the rest keeps its order."""
    rng = random.Random(seed)
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    cards, rest = deck[:stock], deck[stock:]
    tab: list[int] = []
    for c in rest:
        if len(tab) == table:
            break
        if c not in tab:
            tab.append(c)
    for c in tab:
        rest.remove(c)
    return Deal(cards, tab, rest)


def cards_text(ranks: list[int]) -> str:
    """Rank indices as a notation card list (``-`` when empty)."""
    return ".".join(str(RANKS[r]) for r in ranks) or "-"
