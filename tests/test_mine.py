"""Mining candidates from playouts (solver/puzzles/mine.py)."""

from __future__ import annotations

import random

from solver.puzzles.mine import mine, opening, playout
from solver.notation import NotationError, format_position
from solver.rules import PRESETS


def test_opening_table_follows_the_distinct_rule():
    rules = PRESETS["lmodire"]
    rng = random.Random(1)
    for _ in range(200):
        table, stock = opening(rules, rng)
        assert len(table) == 4 and len(stock) == 36
        assert len(set(table)) == 4
        s = sorted(table)
        assert all(b - a > 1 for a, b in zip(s, s[1:]))     # no consecutive ranks
        assert sorted(table + stock) == sorted(r for r in range(10) for _ in range(4))


def test_free_table_keeps_the_first_four():
    table, stock = opening(PRESETS["mod"], random.Random(2))
    assert len(table) == 4 and len(stock) == 36


def test_playout_positions_are_last_deal_and_legal():
    rules = PRESETS["lmodire"]
    n = 0
    for pos in playout(rules, random.Random(3)):
        n += 1
        assert pos.stock == [] and pos.stock_kind == "known"
        assert sum(pos.taken) + len(pos.table) + sum(len(h) for h in pos.hands) == 40
        assert len({c.rank for c in pos.hands[pos.turn]}) >= 2
    assert n >= 1


def test_mine_is_seeded_and_legal():
    a = list(mine(seed=4, limit=30))
    b = list(mine(seed=4, limit=30))
    assert not [x for x in a if isinstance(x, NotationError)]
    assert [format_position(x) for x in a] == [format_position(x) for x in b]
    assert len(a) == 30


def test_mined_candidates_name_their_playout():
    a = list(mine(seed=4, limit=5))
    assert all(x.opcode("game").startswith("4/") for x in a)


def test_selfplay_over_match_and_players():
    import pytest
    from solver.puzzles.mine import selfplay
    a = list(selfplay(seed=2, limit=12))
    b = list(selfplay(seed=2, limit=12))
    assert not [x for x in a if isinstance(x, NotationError)]
    assert [format_position(x) for x in a] == [format_position(x) for x in b]
    for pos in a:
        assert pos.stock == [] and pos.stock_kind == "known"
        assert all(c is not None and c.suit for h in pos.hands for c in h)   # real cards
        assert pos.score is None and pos.gone is None
        assert pos.opcode("game").startswith("2/")
    four = list(selfplay(seed=1, rules_name="pagat", players=4, limit=3))
    assert all(p.players == 4 for p in four)
    with pytest.raises(ValueError):
        next(selfplay(agents="greedy,greedy,greedy"))
    with pytest.raises(ValueError):
        next(selfplay(rules_name="lmodire", players=4))
