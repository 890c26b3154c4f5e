"""The shipped puzzle sets (positions/puzzles/): the spread rule of
docs/puzzles.md "Spread" and the bait property, checked with the search."""

from __future__ import annotations

from collections import Counter
from copy import copy
from pathlib import Path

import pytest

from solver.engine.scoring import EV_HIT
from solver.notation import parse_file
from solver.puzzles.puzzle import ONE_KIND_THEMES, idea_for, kind_of, share_caps

ROOT = Path(__file__).resolve().parent.parent
SETS = sorted((ROOT / "positions" / "puzzles").glob("*.txt"))


def puzzles(path: Path) -> list:
    return [pos for _n, pos in parse_file(path.read_text())]


def bare(pos):
    out = copy(pos)
    out.ops = []
    return out


def test_share_caps():
    assert share_caps(12) == (3, 8) and share_caps(10) == (3, 7) and share_caps(8) == (2, 6)


@pytest.mark.parametrize("path", SETS, ids=[p.name for p in SETS])
def test_spread_of_every_set(path):
    items = puzzles(path)
    rank_cap, kind_cap = share_caps(len(items))
    ranks = Counter(pos.opcode("pv").split()[0] for pos in items)
    assert max(ranks.values()) <= rank_cap, ranks
    theme = path.stem if path.stem in ONE_KIND_THEMES else None
    if theme is None:
        kinds = Counter(kind_of(idea_for(bare(pos))[2]) for pos in items)
        assert max(kinds.values()) <= kind_cap, kinds


def test_every_bait_is_taken():
    items = puzzles(ROOT / "positions" / "puzzles" / "bait.txt")
    assert len(items) >= 10
    for pos in items:
        game, state, idea = idea_for(bare(pos))
        key = idea.key
        assert str(pos.opcode("bm")) == str(pos.opcode("pv").split()[0])
        # the next player's replies, searched afresh: hitting the laid card is the one best
        from solver.search.compiled import Searcher
        child = game.play(state, key)[0]
        replies = Searcher(game.P, game.D, 8.0).root_values(child)
        hit_value = replies[key]
        assert all(v < hit_value for m, v in replies.items() if m != key), replies
        assert game.play(child, key)[2] & EV_HIT
