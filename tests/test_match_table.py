"""Match-equity tables: the dynamic program against hand computation and
an independent recursion, the shipped tables' shape (monotone,
symmetric) and a direct simulation of whole matches."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache

import pytest

from solver.match_equity.selfplay import play_trace, simulate_match
from solver.match_equity.table import SHIPPED, build, load
from solver.rules import PRESETS


def test_a_hand_scoring_nothing_half_the_time_by_hand():
    # Target 1. Half the hands score nothing (the deal passes), half give the
    # dealer's side 1 point. A dealing: V = 1/2 + 1/2 W, W (B dealing) = 1/2 V,
    # so V = 2/3 and W = 1/3.
    V, _tie = build([[], [(1, 0)]], 1, "immediate")
    assert V[0, 0, 0] == pytest.approx(2 / 3)
    assert V[1, 0, 0] == pytest.approx(1 / 3)


def test_the_first_to_cross_wins_mid_hand_by_hand():
    # Target 2, one kind of hand: the leader scores 1, then the dealer 2.
    # From 1-1 the leader's side reaches 2 first whoever is ahead at the end.
    V, _ = build([[(0, 1), (2, 0)]], 2, "immediate")
    assert V[0, 1, 1] == 0.0          # A deals: B leads and crosses first
    assert V[1, 1, 1] == 1.0          # B deals: A leads and crosses first
    # From 0-1 with A dealing: B leads, reaches 2 at the first award.
    assert V[0, 0, 1] == 0.0
    # From 0-0 with A dealing: 1 for B then 2 for A: A wins at 2-1.
    assert V[0, 0, 0] == 1.0


def test_end_of_hand_plays_the_hand_out_by_hand():
    # Same hand, end-of-hand check: from 1-1 the dealer ends 3-2 and wins.
    V, _ = build([[(0, 1), (2, 0)]], 2, "end_of_hand")
    assert V[0, 1, 1] == 1.0
    assert V[1, 1, 1] == 0.0


def brute(traces, target: int):
    """An independent recursion with Fractions over the same traces:
    P(A wins) from (a, b, A deals), walking each hand award by award."""
    n = len(traces)

    @lru_cache(maxsize=None)
    def v(a: int, b: int, a_deals: bool) -> Fraction:
        total = Fraction(0)
        for t in traces:
            x, y = a, b
            result = None
            for dealer, leader in t:
                ga, gb = (dealer, leader) if a_deals else (leader, dealer)
                x, y = x + ga, y + gb
                if x >= target and x > y:
                    result = Fraction(1)
                    break
                if y >= target and y > x:
                    result = Fraction(0)
                    break
            total += result if result is not None else v(x, y, not a_deals)
        return total / n
    return v


def test_dynamic_program_equals_an_independent_recursion():
    rng = random.Random(4)
    for _ in range(5):
        # hands of 1 to 3 awards, one side at a time, at least 1 point each
        traces = []
        for _h in range(rng.randrange(2, 6)):
            traces.append([(p, 0) if rng.random() < 0.5 else (0, p)
                           for p in (rng.randrange(1, 4) for _k in range(rng.randrange(1, 4)))])
        target = rng.randrange(3, 8)
        V, _ = build(traces, target, "immediate")
        v = brute(tuple(map(tuple, traces)), target)
        for a in range(target):
            for b in range(target):
                assert V[0, a, b] == pytest.approx(float(v(a, b, True)), abs=1e-12)
                assert V[1, a, b] == pytest.approx(float(v(a, b, False)), abs=1e-12)


def test_traces_add_up_to_the_hands_points():
    rules = PRESETS["lmodire"]
    for seed in range(20):
        t = play_trace(rules, 2, seed % 2, random.Random(seed))
        dealer, leader = sum(a for a, _ in t), sum(b for _, b in t)
        # every card is won by someone or nobody: the card count is at most 20
        assert 0 <= dealer and 0 <= leader and dealer + leader > 0


@pytest.mark.parametrize("rules,players", SHIPPED)
def test_shipped_table_is_monotone_and_symmetric(rules, players):
    t = load(rules, players)
    T = t.target
    assert t.hands >= 100_000
    eq = t.equity
    for d in (0, 1):
        for a in range(T):
            for b in range(T):
                # more points never lower the chance (4-decimal rounding)
                if a + 1 < T:
                    assert eq[d][a + 1][b] >= eq[d][a][b] - 1e-4
                if b + 1 < T:
                    assert eq[d][a][b + 1] <= eq[d][a][b] + 1e-4
                # A's chance dealing is 1 - B's chance when B deals
                assert eq[d][a][b] + eq[1 - d][b][a] == pytest.approx(1, abs=2e-4)


@pytest.mark.parametrize("rules,players", SHIPPED)
def test_shipped_table_matches_the_simulation_recorded_with_it(rules, players):
    t = load(rules, players)
    assert t.intervals
    for e in t.intervals:
        d = 0 if e["a_deals"] else 1
        assert t.equity[d][e["a"]][e["b"]] == pytest.approx(e["equity"], abs=1e-4)
        s = e["simulated"]
        assert abs(s["equity"] - e["equity"]) <= 3 * math.hypot(s["se"], e["se"])


@pytest.mark.parametrize("a,b,a_deals", [(38, 30, False), (30, 36, True), (39, 39, True)])
def test_lmodire_table_matches_a_direct_match_simulation(a, b, a_deals):
    # Whole matches played greedily with the real win check (HandState):
    # the table's value lies within 3 standard errors of the simulation.
    rules = PRESETS["lmodire"]
    rng = random.Random(f"test/{a}/{b}")
    n = 600
    wins = sum(simulate_match(rules, 2, a, b, a_deals, rng) == 0 for _ in range(n))
    p = wins / n
    want = load("lmodire", 2).equity_of(a, b, a_deals)
    assert abs(p - want) <= 3 * math.sqrt(want * (1 - want) / n) + 0.01


def test_equity_past_the_target():
    t = load("french", 2)
    assert t.equity_of(55, 52, True) == 1.0
    assert t.equity_of(52, 55, False) == 0.0
    assert t.equity_of(53, 53, True) == pytest.approx(t.tie[0])
    with pytest.raises(ValueError, match="no match-equity table for mod-2p-41"):
        load("mod", 2)
