"""The CP-SAT composer (solver/puzzles/compose.py): legal, seeded, diverse
candidates that hold each theme's preconditions."""

from __future__ import annotations

import pytest

from solver.puzzles.compose import VARIANTS, Layout, candidate_line, compose, layout_position
from solver.notation import NotationError, format_position
from solver.puzzles.themes import THEMES

N = 4   # candidates per theme: the model is exercised, the test stays fast


def take(theme, seed=0, n=N):
    return list(compose(theme, seed=seed, limit=n))


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_candidates_are_legal_and_distinct(theme):
    cands = take(theme)
    assert len(cands) == N
    assert not [c for c in cands if isinstance(c, NotationError)]
    lines = [format_position(c) for c in cands]
    assert len(set(lines)) == N
    for pos in cands:
        # the last deal: stock empty, every card known, two plays or more
        assert pos.stock_kind == "known" and pos.stock == []
        hand = [c.rank for c in pos.hands[pos.turn]]
        assert len(set(hand)) >= 2
        total = len(pos.table) + sum(len(h) for h in pos.hands) + sum(pos.taken)
        assert total == 40
        assert len({c.rank for c in pos.table}) == len(pos.table)   # distinct table


def test_seeded():
    assert [format_position(c) for c in take("hit", seed=5)] == \
        [format_position(c) for c in take("hit", seed=5)]
    assert [format_position(c) for c in take("hit", seed=5)] != \
        [format_position(c) for c in take("hit", seed=6)]


def test_hit_preconditions():
    for pos in take("hit", n=6):
        assert pos.prev is not None
        assert pos.prev.rank in [c.rank for c in pos.hands[pos.turn]]
        assert [c.rank for c in pos.table].count(pos.prev.rank) == 1


def test_missa_preconditions():
    from solver.cards import RANK_INDEX
    for pos in take("missa", n=6):
        idx = sorted(RANK_INDEX[c.rank] for c in pos.table)
        assert idx == list(range(idx[0], idx[0] + len(idx)))      # one block
        assert any(RANK_INDEX[c.rank] == idx[0] for c in pos.hands[pos.turn])


def test_answer_preconditions():
    for theme, size in (("answer5", 2), ("answer10", 3)):
        for pos in take(theme, n=8):
            if pos.show is not None:
                assert pos.show.size == size
                assert pos.show.rank in [c.rank for c in pos.hands[pos.turn]]
                assert pos.last == 1 - pos.turn


def test_declaration_preconditions():
    for pos in take("declaration", n=4):
        assert all(len(h) == 3 for h in pos.hands)
        assert pos.declared and all(d.rank is not None for d in pos.declared)


def test_an_illegal_layout_is_reported_not_hidden():
    # two 5s on a distinct table: the parser refuses it
    table = [0] * 10
    table[4] = 2
    mover = [0] * 10
    mover[0] = mover[1] = 1
    other = [0] * 10
    other[2] = 1
    piles = [4 - table[r] - mover[r] - other[r] for r in range(10)]
    import random
    pos = layout_position(Layout(table, mover, other, piles), "lmodire", random.Random(0))
    err = candidate_line(pos)
    assert isinstance(err, NotationError) and err.field == "table"


def test_every_theme_has_variants():
    assert set(VARIANTS) == set(THEMES)
    with pytest.raises(ValueError):
        next(compose("nonsense"))
