"""The one compiled engine against the plain, independent references of
tests/ (``reference.py`` for two sides, ``reference3.py`` for three) on
random positions of every rule system (tests/systems.py): two, three and
four players; Ronda voleur with each; the house rules; the points and the
match objectives; known and shuffled stock. Values (vectors for three
sides) and the sets of best plays must be identical.

The suite runs a few positions a system; ``bench/bench_crosscheck.py``
runs thousands and prints the counts (docs/performance.md).
"""

from __future__ import annotations

import random

import pytest

import reference3 as R3
from systems import (System, agree, best_plays, engine_values, random_leaves,
                     random_position, reference_values, systems)

SYSTEMS = systems()


def _count(system: System) -> int:
    """Positions a system gets in the suite: the plain three-player
    expectimax enumerates every dealing (seconds a position)."""
    if system.players == 3 and system.shuffled:
        return 1
    if system.shuffled and system.players == 4:
        return 3
    return 8


#: the most cards left to play in a suite position: the plain reference is
#: exponential (online-2p drew 20, two 4-card deals in the stock: 48 s of
#: the suite's ten minutes); bench/bench_crosscheck.py draws them all
SUITE_CARDS = 18


def _suite_position(rng: random.Random, system: System):
    """The next random position of ``system`` with at most
    :data:`SUITE_CARDS` cards left to play (the larger ones drawn again)."""
    while True:
        pos = random_position(rng, system)
        if sum(len(h) for h in pos.hands) + len(pos.stock) <= SUITE_CARDS:
            return pos


@pytest.mark.parametrize("system", SYSTEMS, ids=str)
def test_engine_equals_reference(system: System):
    rng = random.Random(f"suite-{system}")
    for _ in range(_count(system)):
        pos = _suite_position(rng, system)
        leaves = leaf = None
        if system.match:
            leaves, leaf = random_leaves(rng, system.rules.target)
        ref = reference_values(pos, system, leaf)
        got = engine_values(pos, system, leaves)
        assert agree(ref, got), (pos, ref, got)
        assert best_plays(ref, pos.turn) == best_plays(got, pos.turn)


@pytest.mark.slow
def test_two_online_deals_in_the_stock_equal_the_reference():
    """What :data:`SUITE_CARDS` leaves out of the suite: ``online`` (4-card
    deals) with two deals in a known stock, 18 to 20 cards to play (the
    plain reference takes tens of seconds)."""
    system = next(s for s in SYSTEMS if str(s) == "online-2p")
    rng = random.Random("two-online-deals")
    pos = random_position(rng, system)
    while len(pos.stock) != 16:
        pos = random_position(rng, system)
    ref = reference_values(pos, system, None)
    got = engine_values(pos, system, None)
    assert agree(ref, got), (pos, ref, got)
    assert best_plays(ref, pos.turn) == best_plays(got, pos.turn)


@pytest.mark.parametrize("name", ["french-3p", "voleur-french-3p", "answers-3p",
                                  "french-3p-shuffled"])
def test_paranoid_equals_plain_minimax(name):
    """Three sides, paranoid: the mover's entry of every play equals plain
    minimax with the other two minimising it."""
    system = next(s for s in SYSTEMS if s.name == name)
    rng = random.Random(f"paranoid-{name}")
    for _ in range(1 if system.shuffled else 10):
        pos = random_position(rng, system)
        s = R3.S([c.rank for c in pos.table], [[c.rank for c in h] for h in pos.hands],
                 [c.rank for c in pos.stock], pos.turn, pos.leader(),
                 pos.prev.rank if pos.prev else None,
                 (pos.show.rank, pos.show.size) if pos.show else None, pos.last,
                 list(pos.taken),
                 [None if c is None else c.rank for c in pos.tops] if pos.tops else
                 [None] * 3, system.shuffled)
        ref = R3.paranoid_moves(pos.rules, s)
        got = engine_values(pos, system, search="paranoid")
        assert ref.keys() == got.keys()
        for m in ref:
            assert abs(ref[m] - got[m][pos.turn]) <= 1e-9, (pos, ref, got)
