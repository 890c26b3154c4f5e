"""The match objective's compiled search against a brute force over the
match simulator.

The brute force walks :class:`solver.games.match.HandState` itself (the scoring
the match simulator does on its own: awards one by one, the immediate win
check, the end-of-hand sweep and card count), cloning it for every play,
with a leaf value from a match-equity table of random numbers (any table
will do: the two must agree exactly, and random values expose every
mistake in which score a leaf is read at). The search under test keeps the
scores and piles in the compiled core's state
(:func:`solver.match_equity.evaluate.evaluate_match`); the independent
plain reference (tests/reference.py) checks it on random positions in
tests/test_systems.py.
"""

from __future__ import annotations

import random

import pytest

from solver.games.match import HandState, deal_hand
from solver.match_equity.evaluate import evaluate_match
from solver.match_equity.selfplay import greedy_rank
from solver.match_equity.table import MatchTable
from solver.position import side_of
from solver.rules import PRESETS


def random_table(rules, players: int, seed: int) -> MatchTable:
    """A MatchTable of random probabilities (the tie too) up to the target."""
    import numpy as np
    T = rules.target
    D = np.random.default_rng(seed).random((T + 1, T + 1))
    D[0, 1:], D[1:, 0] = 1.0, 0.0
    return MatchTable(rules.name, players, T, rules.win_check, D, T)


def brute(hs: HandState, table: MatchTable) -> float:
    """P(side 0 wins the match): minimax over HandState clones."""
    if hs.winner is not None:
        return 1.0 if hs.winner == 0 else 0.0
    if hs.finished:
        return table.equity_of(hs.score[0], hs.score[1], side_of(hs.leader, hs.players) == 0)
    if hs.awaiting_deal:
        c = hs.clone()
        c.deal()
        return brute(c, table)
    vals = []
    for r in hs.legal_ranks():
        c = hs.clone()
        c.play(next(x for x in c.hands[c.turn] if x.index == r))
        vals.append(brute(c, table))
    return max(vals) if side_of(hs.turn, hs.players) == 0 else min(vals)


def late_hand(rules, players: int, seed: int, score, deals_left: int) -> HandState | None:
    """A greedy hand stopped with ``deals_left`` deals to play (the last
    of them dealt), or None when the match ended before."""
    rng = random.Random(seed)
    table, stock = deal_hand(rules, players, rng)
    hs = HandState(rules, players, seed % players, table, score=score, target=rules.target,
                   stock=stock)
    ndeals = len(hs.sizes)
    while not hs.finished:
        if hs.awaiting_deal:
            hs.deal()
            if hs.deal_no == ndeals - deals_left + 1:
                break
            continue
        r = greedy_rank(hs, rng)
        hs.play(next(c for c in hs.hands[hs.turn] if c.index == r))
    else:
        return None
    # play a card or two in, to start mid-deal sometimes
    for _ in range(seed % 3):
        if hs.finished or hs.awaiting_deal:
            return None
        r = greedy_rank(hs, rng)
        hs.play(next(c for c in hs.hands[hs.turn] if c.index == r))
    return None if hs.finished else hs


CASES = [("lmodire", 2, 1), ("pagat", 2, 1), ("pagat", 4, 1), ("french", 2, 1),
         ("lmodire", 2, 2), ("mod", 2, 1)]


@pytest.mark.parametrize("preset,players,deals", CASES)
def test_exact_match_search_equals_brute_force_over_handstate(preset, players, deals):
    rules = PRESETS[preset]
    T = rules.target
    checked = 0
    for seed in range(40 if deals == 1 else 8):
        rng = random.Random(seed)
        score = [T - 1 - rng.randrange(12), T - 1 - rng.randrange(12)]
        hs = late_hand(rules, players, seed, score, deals)
        if hs is None:
            continue
        table = random_table(rules, players, seed)
        pos = hs.full_position()
        a = evaluate_match(pos, method="exact", points=False, table=table)
        me = side_of(hs.turn, players)
        for mv in a.moves:
            c = hs.clone()
            c.play(next(x for x in c.hands[c.turn] if x.index == mv.rank))
            want = brute(c, table)
            want = want if me == 0 else 1 - want
            assert mv.chance == pytest.approx(want, abs=1e-12), (pos, mv.move)
        checked += 1
    assert checked >= (20 if deals == 1 else 3)


def brute_chance(hs: HandState, table: MatchTable) -> float:
    """As :func:`brute`, with every deal still to come a chance event: the
    stock's cards split every way among the seats, equally likely."""
    from itertools import combinations
    if hs.winner is not None:
        return 1.0 if hs.winner == 0 else 0.0
    if hs.finished:
        return table.equity_of(hs.score[0], hs.score[1], side_of(hs.leader, hs.players) == 0)
    if hs.awaiting_deal:
        assert hs.players == 2
        stock = hs.stock
        size = hs.sizes[hs.deal_no]
        splits = list(combinations(range(len(stock)), size))
        total = 0.0
        for first in splits:
            rest = [c for i, c in enumerate(stock) if i not in first]
            c = hs.clone()
            c.stock = [stock[i] for i in first] + rest
            c.deal()
            total += brute_chance(c, table)
        return total / len(splits)
    vals = []
    for r in hs.legal_ranks():
        c = hs.clone()
        c.play(next(x for x in c.hands[c.turn] if x.index == r))
        vals.append(brute_chance(c, table))
    return max(vals) if side_of(hs.turn, hs.players) == 0 else min(vals)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["lmodire", "french"])
def test_expectimax_match_search_equals_brute_force_over_the_last_deal(preset):
    from dataclasses import replace
    rules = PRESETS[preset]
    T = rules.target
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        score = [T - 1 - rng.randrange(10), T - 1 - rng.randrange(10)]
        hs = late_hand(rules, 2, 3 * seed, score, 2)     # before the last deal's cards
        if hs is None:
            continue
        table = random_table(rules, 2, seed)
        pos = replace(hs.full_position(), stock_kind="shuffled")
        a = evaluate_match(pos, method="expectimax", points=False, table=table)
        assert a.method == "expectimax"
        me = side_of(hs.turn, 2)
        for mv in a.moves:
            c = hs.clone()
            c.play(next(x for x in c.hands[c.turn] if x.index == mv.rank))
            want = brute_chance(c, table)
            want = want if me == 0 else 1 - want
            assert mv.chance == pytest.approx(want, abs=1e-9), (pos, mv.move)
        checked += 1
    assert checked >= 3
