"""Match-equity tables: the dynamic programs over the points each side
needs against hand computation and independent recursions (two sides, both
win checks, split awards, hands scoring nothing; three players against a
value iteration over the scores), one build serving every target, the
shipped tables' shape and recorded checks, and a direct simulation of whole
matches."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from solver.match_equity.selfplay import play_trace, play_traces, simulate_match, system_of
from solver.match_equity.table import (MatchTable, MatchTable3, build, build3, load,
                                       need_array, scores_view, shipped, table_for)
from solver.rules import PRESETS


def at(traces, target, win_check="immediate", limit=9):
    """``(V, tie)`` at ``target`` from a build up to ``limit``."""
    return scores_view(build(traces, limit, win_check), target)


def test_a_hand_scoring_nothing_half_the_time_by_hand():
    # Target 1. Half the hands score nothing (the deal passes), half give the
    # dealer's side 1 point. A dealing: V = 1/2 + 1/2 W, W (B dealing) = 1/2 V,
    # so V = 2/3 and W = 1/3.
    V, _tie = at([[], [(1, 0)]], 1)
    assert V[0, 0, 0] == pytest.approx(2 / 3)
    assert V[1, 0, 0] == pytest.approx(1 / 3)


def test_the_first_to_cross_wins_mid_hand_by_hand():
    # Target 2, one kind of hand: the leader scores 1, then the dealer 2.
    # From 1-1 the leader's side reaches 2 first whoever is ahead at the end.
    V, _ = at([[(0, 1), (2, 0)]], 2)
    assert V[0, 1, 1] == 0.0          # A deals: B leads and crosses first
    assert V[1, 1, 1] == 1.0          # B deals: A leads and crosses first
    # From 0-1 with A dealing: B leads, reaches 2 at the first award.
    assert V[0, 0, 1] == 0.0
    # From 0-0 with A dealing: 1 for B then 2 for A: A wins at 2-1.
    assert V[0, 0, 0] == 1.0


def test_end_of_hand_plays_the_hand_out_by_hand():
    # Same hand, end-of-hand check: from 1-1 the dealer ends 3-2 and wins.
    V, _ = at([[(0, 1), (2, 0)]], 2, "end_of_hand")
    assert V[0, 1, 1] == 1.0
    assert V[1, 1, 1] == 0.0


def test_a_split_award_at_equal_totals_plays_on_by_hand():
    # Target 1; the hand: both sides 1 at once (equal: nobody wins yet), then
    # the leader 1. From 0-0 the leader's side wins whoever deals.
    V, tie = at([[(1, 1), (0, 1)]], 1)
    assert V[0, 0, 0] == 0.0 and V[1, 0, 0] == 1.0
    # Equal totals at or over the target: the first award that separates
    # the sides decides, here the leader's point.
    assert tie[0] == 0.0 and tie[1] == 1.0


def brute(traces, target: int, end_of_hand: bool):
    """An independent recursion with Fractions over the same traces: P(A
    wins) from ``(a, b, A deals)``, walking each hand award by award; hands
    that score nothing solved with the other dealer's state; equal totals at
    or over the target from the first award (or hand) that separates."""
    n = len(traces)

    def separates(t):
        if end_of_hand:
            return sum(d - l for d, l in t)
        return next((d - l for d, l in t if d != l), 0)
    m = [separates(t) for t in traces]
    pw, e = Fraction(sum(x > 0 for x in m), n), Fraction(sum(x == 0 for x in m), n)
    tie_dealer = (pw + e) / (1 + e)
    scoring = [t for t in traces if any(d or l for d, l in t)]
    z = Fraction(n - len(scoring), n)

    def hand(t, a, b, a_deals):
        x, y = a, b
        for dealer, leader in t:
            ga, gb = (dealer, leader) if a_deals else (leader, dealer)
            x, y = x + ga, y + gb
            if not end_of_hand:
                if x >= target and x > y:
                    return Fraction(1)
                if y >= target and y > x:
                    return Fraction(0)
        if x >= target or y >= target:
            if x != y:
                return Fraction(int(x > y))
            return 1 - tie_dealer if a_deals else tie_dealer   # the other side deals
        return v(x, y, not a_deals)

    @lru_cache(maxsize=None)
    def v(a, b, a_deals):
        pa = sum((hand(t, a, b, True) for t in scoring), Fraction(0)) / n
        pb = sum((hand(t, a, b, False) for t in scoring), Fraction(0)) / n
        va = (pa + z * pb) / (1 - z * z)
        return va if a_deals else pb + z * va
    return v


@pytest.mark.parametrize("win_check", ["immediate", "end_of_hand"])
def test_dynamic_program_equals_an_independent_recursion(win_check):
    rng = random.Random(7 if win_check == "immediate" else 8)
    for _ in range(25):
        # hands of 0 to 3 awards: one side's points, or a split award
        traces = []
        for _h in range(rng.randrange(2, 6)):
            t = []
            for _k in range(rng.randrange(0, 4)):
                r, p = rng.random(), rng.randrange(1, 4)
                t.append((p, 0) if r < 0.4 else (0, p) if r < 0.8 else (p, rng.randrange(4)))
            traces.append(t)
        if not any(d or l for t in traces for d, l in t):
            continue
        D = build(traces, 9, win_check)
        for target in (2, 5, 9):          # one build, every target up to its limit
            v = brute(tuple(map(tuple, traces)), target, win_check == "end_of_hand")
            V, _ = scores_view(D, target)
            for a in range(target):
                for b in range(target):
                    assert V[0, a, b] == pytest.approx(float(v(a, b, True)), abs=1e-12)
                    assert V[1, a, b] == pytest.approx(float(v(a, b, False)), abs=1e-12)


def value_iteration3(traces, T: int, floor: int = 8):
    """Three players, end of hand, by plain value iteration over the seats'
    scores (a shared top at or over the target shifted down to the target,
    a seat more than ``floor`` below held there) and the dealing seat:
    P(each seat wins), by ``(scores, dealer)``."""
    hands = [tuple(sum(a[k] for a in t) for k in range(3)) for t in traces]
    states = [(s, d) for s in itertools.product(range(-floor, T + 1), repeat=3)
              for d in range(3)]
    index = {st: i for i, st in enumerate(states)}
    won = np.zeros((len(states), 3))            # the hands that end the match
    nxt = []                                    # (state, next state) for the others
    for i, (s, d) in enumerate(states):
        for h in hands:
            new = list(s)
            for k in range(3):
                new[(d + k) % 3] += h[k]
            m = max(new)
            top = [j for j in range(3) if new[j] == m]
            if m >= T and len(top) == 1:
                won[i, top[0]] += 1
                continue
            if m >= T:
                new = [x - (m - T) for x in new]
            nxt.append((i, index[(tuple(max(x, -floor) for x in new), (d + 1) % 3)]))
    src, dst = np.array(nxt).T
    V = np.full((len(states), 3), 1 / 3)
    for _ in range(20_000):
        acc = won.copy()
        np.add.at(acc, src, V[dst])
        acc /= len(hands)
        done = np.abs(acc - V).max() < 1e-13
        V = acc
        if done:
            break
    return {st: V[i] for st, i in index.items()}


def test_three_player_program_equals_a_value_iteration():
    rng = random.Random(5)
    done = 0
    while done < 6:
        traces = [[tuple(rng.randrange(3) for _ in range(3)) for _k in range(rng.randrange(3))]
                  for _h in range(rng.randrange(2, 5))]
        if not any(x for t in traces for a in t for x in a):
            continue
        D, E = build3(traces, 6)
        T = rng.randrange(2, 5)
        t3 = MatchTable3("french", 3, 6, "end_of_hand", D, E, T)
        V = value_iteration3(traces, T)
        for s in itertools.product(range(T), repeat=3):
            for d in range(3):
                assert np.allclose(t3.chances(s, d), V[(s, d)], atol=1e-11), (s, d)
        done += 1


def test_traces_add_up_to_the_hands_points():
    rules = PRESETS["lmodire"]
    for seed in range(20):
        t = play_trace(rules, 2, seed % 2, random.Random(seed))
        dealer, leader = sum(a for a, _ in t), sum(b for _, b in t)
        assert 0 <= dealer and 0 <= leader and dealer + leader > 0
    three = play_traces(PRESETS["french"], 3, 5, "t3")
    assert all(len(a) == 3 for t in three for a in t)


def test_two_players_deal_the_same_cards_for_one_seed():
    # greedy and another player see the same decks for hand i of a seed: the
    # declarations of the first deal (the first awards) are the same
    rules = PRESETS["lmodire"]
    g = play_traces(rules, 2, 30, "same")
    r = play_traces(rules, 2, 30, "same", "random")
    firsts = [(a[0] if a else None, b[0] if b else None) for a, b in zip(g, r)]
    assert sum(x == y for x, y in firsts) >= 20


def test_rule_systems_leave_the_target_out():
    assert system_of(PRESETS["lmodire"].with_overrides({"target": "21"})) == "lmodire"
    assert system_of(PRESETS["pagat"].with_overrides({"decl_cumulative": "yes"})) == \
        "pagat+decl_cumulative=yes"


SHIPPED = [tuple(n.rsplit("-", 1)) for n in shipped()]


@pytest.mark.parametrize("system,players", SHIPPED)
def test_shipped_table_is_monotone_and_symmetric(system, players):
    t = load(system, int(players[:-1]))
    if isinstance(t, MatchTable3):
        D = t.dealer[1:, 1:, 1:]
        assert np.allclose(D.sum(axis=-1), 1, atol=1e-4)
        # needing more never raises a seat's chance (uint16 rounding)
        assert (np.diff(D[..., 0], axis=0) <= 1e-4).all()
        assert (np.diff(D[..., 1], axis=1) <= 1e-4).all()
        return
    M = t.array()
    L = t.limit
    assert L >= 61 and M.shape == (2, L + 1, L + 1)
    D = M[0, 1:, 1:]
    assert (np.diff(D, axis=0) <= 1e-9).all()     # A needing more: lower
    assert (np.diff(D, axis=1) >= -1e-9).all()    # B needing more: higher
    assert np.allclose(M[0] + M[1].T, 1)          # A dealing = 1 - B dealing


@pytest.mark.parametrize("system,players", SHIPPED)
def test_shipped_table_matches_the_simulation_recorded_with_it(system, players):
    t = load(system, int(players[:-1]))
    assert t.intervals and t.hands >= 1000 and t.player and "build" in t.command
    for e in t.intervals:
        t2 = t.at(e["target"])
        if "a" in e:
            got = [t2.equity_of(e["a"], e["b"], e["a_deals"])]
            want, se = [e["equity"]], [e["se"]]
            sim, sse = [e["simulated"]["equity"]], [e["simulated"]["se"]]
        else:
            got = list(t2.chances(e["scores"], e["dealer"]))
            want, se = e["equity"], e["se"]
            sim, sse = e["simulated"]["equity"], e["simulated"]["se"]
        for g, w, s, x, sx in zip(got, want, se, sim, sse):
            assert g == pytest.approx(w, abs=2e-4)
            assert abs(x - w) <= 3.5 * math.hypot(s, sx) + 1e-3


def test_a_greedy_table_matches_a_direct_match_simulation():
    # Whole matches played greedily with the real win check (HandState):
    # a table from 3,000 greedy hands lies within 3 standard errors.
    rules = PRESETS["lmodire"]
    D = build(play_traces(rules, 2, 3000, "direct"), 41, "immediate")
    t = MatchTable("lmodire", 2, 41, "immediate", D, 41)
    for a, b, a_deals in [(38, 30, False), (39, 39, True)]:
        rng = random.Random(f"test/{a}/{b}")
        n = 500
        p = sum(simulate_match(rules, 2, a, b, a_deals, rng) == 0 for _ in range(n)) / n
        want = t.equity_of(a, b, a_deals)
        assert abs(p - want) <= 3 * math.sqrt(want * (1 - want) / n) + 0.02


def test_one_table_serves_every_target():
    t = load("lmodire", 2)
    assert t.target == 41 and t.limit >= 61
    t21 = t.at(21)
    # the same needs: 20-20 to 21 is 40-40 to 41 is 60-60 to 61
    assert t21.equity_of(20, 20, True) == t.equity_of(40, 40, True) == \
        t.at(61).equity_of(60, 60, True)
    assert t21.equity_of(10, 15, False) == t.equity_of(30, 35, False)
    with pytest.raises(ValueError, match="serves targets 1 to 61, not 62.*--limit 62"):
        t.at(62)


def test_equity_past_the_target_and_the_array():
    t = load("lmodire", 2)
    assert t.equity_of(45, 42, True) == 1.0 and t.equity_of(42, 45, False) == 0.0
    assert t.equity_of(43, 43, True) == pytest.approx(t.tie[0])
    M = need_array(PRESETS["lmodire"].with_overrides({"target": "21"}), 2)
    assert M[0, 0, 5] == 1 and M[1, 5, 0] == 0
    assert M[0, 21 - 13, 21 - 9] == t.at(21).equity_of(13, 9, True)
    assert M[1, 21 - 13, 21 - 9] == pytest.approx(t.at(21).equity_of(13, 9, False))


def test_missing_tables_name_the_command_that_builds_them():
    rules = PRESETS["lmodire"].with_overrides({"hit": "1,5"})
    with pytest.raises(ValueError, match=r"no match-equity table for lmodire\+hit=1,5 with 2 "
                                         r"players \(build it: python -m "
                                         r"solver.match_equity.build --rules lmodire "
                                         r"--set hit=1,5 --players 2"):
        table_for(rules, 2)
