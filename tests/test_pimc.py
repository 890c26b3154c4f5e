"""Determinised search on the compiled core: reproducible, early stop when
the best play is separated, the statistics by hand, intervals that cover."""

from __future__ import annotations

import math

import numpy as np

from solver.analysis.evaluation import evaluate
from solver.notation import parse_position
from solver.search.compiled import summarise_array

LINE = ("1.4.11 2.6.12/3.3.10 ~5.7.7.10.12.11 S taken=13,12 last=N "
        "gone=1.1.1.2.2.2.3.3.4.4.4.5.5.5.6.6.6.7.7.10.10.11.11.12.12")


def test_two_workers_give_the_one_worker_answer():
    one = evaluate(parse_position(LINE), method="determinised", samples=40, seed=3, z=None,
                   workers=1)
    two = evaluate(parse_position(LINE), method="determinised", samples=40, seed=3, z=None,
                   workers=2)
    assert [(m.move, m.value, m.stderr, m.best_rate) for m in one.moves] == \
        [(m.move, m.value, m.stderr, m.best_rate) for m in two.moves]


def test_early_stop_when_separated():
    # a hit for 1 with the answer for 10 in reserve: 7 is far ahead of 2
    line = "1.7 7.7.2/7.12 ~- S prev=7 taken=15,18 last=N"
    a = evaluate(parse_position(line), method="determinised", samples=1000, seed=0,
                 min_samples=30)
    assert a.stopped == "separated" and a.samples == 32     # the first batch
    assert a.moves[0].move == "7"


def test_summary_statistics_by_hand():
    values = np.array([[2, 0], [4, 2], [0, 0]], dtype=float)
    moves = summarise_array(values)
    assert [m.move for m in moves] == [0, 1]
    assert moves[0].mean == 2 and moves[1].mean == 2 / 3
    # values 2, 4, 0: variance 4, standard error sqrt(4/3)
    assert math.isclose(moves[0].stderr, math.sqrt(4 / 3))
    assert moves[0].best == 3 and moves[1].best == 1
    # paired differences 2, 2, 0: mean 4/3, se sqrt((4/9*2 + 16/9)/2/3)
    diffs = [2, 2, 0]
    mean = sum(diffs) / 3
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 2 / 3)
    assert math.isclose(moves[1].lead_z, mean / se)


def test_the_interval_covers_the_expectimax_value():
    """The determinised mean estimates the average of perfect-information
    values over stock orders; on the last deal to come with both hands
    known that average and the expectimax value can differ (clairvoyance),
    but the sampled mean must agree with the exhaustive average of the
    same quantity: every stock order of a 6-card stock, 720 of them."""
    pos = parse_position(LINE)
    sampled = evaluate(pos, method="determinised", samples=400, seed=1, z=None)
    from itertools import permutations
    from solver.engine.compile import compile_known
    from solver.search.compiled import Searcher
    stock = list(pos.stock)
    totals: dict[int, float] = {}
    orders = list(permutations(range(6)))
    for order in orders:
        pos.stock = [stock[i] for i in order]
        pos.stock_kind = "known"
        game, state = compile_known(pos)
        for m, v in Searcher(game.P, game.D, 8.0).root_values(state).items():
            totals[m] = totals.get(m, 0) + v
    base = 13 - 12
    for mv in sampled.moves:
        exact = (totals[mv.rank] / len(orders) + base) / 2
        assert abs(mv.value - exact) <= 3.3 * mv.stderr + 1e-9


def test_a_declared_tringa_is_in_every_drawn_hand():
    import random
    from solver.engine.compile import sampler
    from solver.engine.scoring import ranks_of
    sample = sampler(parse_position("1.3.10.12 2.2.7/?.?.? ? S declared=N:tringa"))
    for i in range(100):
        game, state = sample(random.Random(i))
        hand = ranks_of(game.hand(state, 1))
        assert any(hand.count(r) == 3 for r in hand)


def test_a_declarer_who_has_played_does_not_block_the_sampling():
    # North declared a Ronda of 5s and led one of them: its two hidden
    # cards need not hold the pair any more (the draw must not fail)
    a = evaluate(parse_position("1.3.10.12.5 2.7.11/?.? ? S declared=N:ronda5 prev=5"),
                 method="determinised", samples=20, z=None)
    assert a.samples == 20
