"""The luck of the deal as a control variate (solver/games/luck.py): its
expectation is zero by construction, and the arena's luck-reduced margin
measures the same thing as the plain one."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from solver.engine import core
from solver.engine.hand import ranks_of
from solver.games.arena import run_arena
from solver.games.luck import deal_worth, hand_luck
from solver.rules import PRESETS
from solver.search.compiled import Searcher, ensure_compiled
from solver.value.model import shuffled_game
from solver.value.train import chance_state, selfplay_boundaries

LMODIRE = PRESETS["lmodire"]


def test_the_mean_worth_of_a_deal_is_the_chance_nodes_value():
    """Before the last deal, the probability-weighted worth of every deal
    the stock can give (declarations plus the exact value of the dealt
    position) is the chance node's exact expectimax value: the mean the
    luck subtracts is the true expectation of what it compares."""
    ensure_compiled()
    game = shuffled_game(LMODIRE, 2)
    P, D = game.P, game.D
    searcher = Searcher(P, D, 64.0)
    for table, last, stock in selfplay_boundaries(LMODIRE, 2, 12, "luck-mean")[6][:6]:
        st = chance_state(table, last, stock)
        probs, gains, kids = core.deal_outcomes(P, st, 10 ** 6)
        total = 0.0
        for p, kid in zip(probs, kids):
            rest = Counter(ranks_of(int(kid[9])))
            total += p * deal_worth(LMODIRE, 2, 0, int(table), int(last),
                                    [ranks_of(int(kid[1])), ranks_of(int(kid[2]))], rest)
        assert total == pytest.approx(searcher.value(st), abs=1e-9)


def test_luck_is_zero_on_average_over_the_deals():
    """Drawing the actual deal at random many times, a deal's luck
    averages to zero (within four standard errors)."""
    rng = random.Random(5)
    deck = [r for r in range(10) for _ in range(4)]
    lucks = []
    for i in range(300):
        rng.shuffle(deck)
        # a hand that stops after the last deal's plays: only the deals matter
        table = [0, 2, 4, 9]
        rest = [r for r in deck]
        for r in table:
            rest.remove(r)
        lucks.append(hand_luck(LMODIRE, 2, 1, table, rest, [[rest[0]]], 16,
                               f"zero/{i}")[0])
    m = float(np.mean(lucks))
    se = float(np.std(lucks, ddof=1) / math.sqrt(len(lucks)))
    assert abs(m) < 4 * se
    assert np.std(lucks) > 0.5          # the cards do matter


def test_two_copies_of_one_player_break_even():
    """greedy against greedy: the luck-reduced margin is 0 within its
    interval, the luck itself too, and the reduction narrows the
    interval."""
    r = run_arena("greedy", "greedy", pairs=80, seed="luck-test", luck_samples=16)
    s = r.summary()
    assert len(r.luck) == len(r.margins) == 160
    assert abs(s["adjusted"]) <= s["adjusted_ci95"]
    assert abs(s["luck"]) <= s["luck_ci95"]
    assert s["adjusted_ci95"] < s["margin_ci95"]
    # the two measures differ hand by hand exactly by the luck
    assert r.pair_adjusted()[0] == pytest.approx(
        (r.margins[0] - r.luck[0] + r.margins[1] - r.luck[1]) / 2)
