"""Determinisations drawn by the compiled engine (solver/engine/sampling.py):
every sample is a consistent deal of the unseen cards, declarations hold,
the draw is uniform, and the batch search of each sample equals a search
of the same deal set up from scratch (a Hand built from the drawn stock)."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from solver.engine.compile import CompileError
from solver.engine.hand import Hand
from solver.engine.sampling import draw_python, draw_spec, sample_seed
from solver.engine.scoring import ranks_of
from solver.notation import parse_position
from solver.search.compiled import Sampler, Searcher, determinised, ensure_compiled

ensure_compiled()

LINES = [
    "1.3.10.12 2.2.7/?.?.? ? S declared=N:tringa",
    "1.4.11 2.6.12/3.3.10 ~5.7.7.10.12.11 S taken=13,12 last=N "
    "gone=1.1.1.2.2.2.3.3.4.4.4.5.5.5.6.6.6.7.7.10.10.11.11.12.12",
    "3.6.10.12 1.5.5/2.7.11 ? S",
    "3.6.10.12 1.5.5/?.?.? ? S",
    "1.3.10.12.5 2.7.11/?.? ? S declared=N:ronda5 prev=5",
    "4.5.6 7.7.12/3.6.12 ~1.1.2.3.4.5.7.10.11.11.12.12 S dealer=N taken=9,10 last=N",
    "1.3.10.12 2.2.7/?.?.?/4.4.5/?.?.? ? S rules=pagat declared=E:ronda",
]


@pytest.mark.parametrize("line", LINES)
def test_every_sample_equals_the_reference_solve_of_its_deal(line):
    pos = parse_position(line)
    spec = draw_spec(pos)
    vals, _nodes, done, _drawn = Sampler(spec, 16.0).solve(list(range(12)), seed=5)
    assert (done == 1).all()
    for i in range(12):
        st, stock = draw_python(spec, sample_seed(5, i))
        game = Hand(pos.rules, pos.players, pos.leader(), stock)
        ref = Searcher(game.P, game.D, 8.0).root_values(st)
        got = {m: vals[i, m] for m in range(10) if not math.isnan(vals[i, m])}
        assert got == ref


def test_drawn_cards_are_the_unseen_cards():
    from solver.engine.compile import unseen_pool
    pos = parse_position("3.6.10.12 1.5.5/?.?.? ? S")
    spec = draw_spec(pos)
    pool = sorted(unseen_pool(pos))
    for i in range(200):
        st, stock = draw_python(spec, sample_seed(0, i))
        assert ranks_of(st[1]) == [0, 4, 4]                 # South's own hand
        assert sorted(ranks_of(st[2]) + stock) == pool       # North + stock = unseen


def test_a_declared_tringa_is_in_every_drawn_hand():
    spec = draw_spec(parse_position("1.3.10.12 2.2.7/?.?.? ? S declared=N:tringa"))
    for i in range(300):
        hand = ranks_of(draw_python(spec, sample_seed(1, i))[0][2])
        assert any(hand.count(r) == 3 for r in hand)


def test_a_declared_ronda_rank_is_held():
    spec = draw_spec(parse_position("1.3.10.12 2.2.7/?.?.? ? S declared=N:ronda11"))
    for i in range(300):
        hand = ranks_of(draw_python(spec, sample_seed(2, i))[0][2])
        assert hand.count(8) >= 2          # rank index 8 is the 11


def test_a_declared_ronda_is_not_three_of_a_kind_where_the_tringa_counts():
    """lmodire values the Tringa (5 points): a seat dealt three 11s
    declares the Tringa, so N's declared Ronda of 11s means exactly two.
    Before, 2.2% of the drawn hands held three (4 / (6 x 29 + 4) of the
    hands with two or more 11s). Under french three of a kind is a Ronda,
    and such hands are drawn. The Python drawing (compile._declared_ok)
    says the same."""
    from solver.engine.compile import _declared_ok
    counts = {}
    for rules in ("lmodire", "french"):
        spec = draw_spec(parse_position(f"1.3.10.12 2.2.7/?.?.? ? S rules={rules} "
                                        "declared=N:ronda11"))
        counts[rules] = Counter(ranks_of(draw_python(spec, sample_seed(4, i))[0][2]).count(8)
                                for i in range(3000))
    assert set(counts["lmodire"]) == {2}
    assert set(counts["french"]) == {2, 3} and 30 <= counts["french"][3] <= 110
    for rules, ok in (("lmodire", False), ("french", True)):
        pos = parse_position(f"1.3.10.12 2.2.7/?.?.? ? S rules={rules} declared=N:ronda11")
        assert _declared_ok(pos, 1, [8, 8, 8]) is ok
        assert _declared_ok(pos, 1, [8, 8, 0]) is True


def test_the_draw_is_uniform():
    """North's three hidden cards from 33 unseen: each rank turns up in
    proportion to its unseen copies (chi-square, 9 degrees of freedom,
    far below the 0.1% critical value 27.9)."""
    pos = parse_position("3.6.10.12 1.5.5/?.?.? ? S")
    spec = draw_spec(pos)
    counts: Counter = Counter()
    n = 6000
    for i in range(n):
        counts.update(ranks_of(draw_python(spec, sample_seed(3, i))[0][2]))
    unseen = Counter({r: 4 for r in range(10)})
    unseen.subtract([2, 5, 7, 9, 0, 4, 4])       # table 3 6 10 12, hand 1 5 5
    chi2 = 0.0
    for r in range(10):
        expected = 3 * n * unseen[r] / 33
        chi2 += (counts[r] - expected) ** 2 / expected
    assert chi2 < 27.9


def test_impossible_declarations_are_refused():
    # North holds a known 5 and declared a Tringa of 5s: three more 5s
    # are not to be had (one is on the table, one in South's hand)
    spec = draw_spec(parse_position("5.3.10.12 5.2.7/?.?.? ? S declared=N:tringa5"))
    with pytest.raises(CompileError, match="declared"):
        determinised(spec, 4, seed=0)


def test_result_does_not_depend_on_the_threads():
    spec = draw_spec(parse_position("3.6.10.12 1.5.5/?.?.? ? S"))
    one = determinised(spec, 70, seed=3, workers=1, z=None, batch=16)
    two = determinised(spec, 70, seed=3, workers=2, z=None, batch=16)
    assert np.array_equal(one.values, two.values, equal_nan=True)
    assert [(m.move, m.mean, m.best) for m in one.moves] == \
        [(m.move, m.mean, m.best) for m in two.moves]


@pytest.mark.parametrize("line", [LINES[2], "1.3.10.12 2.2.7/?.?.?/4.4.5 ? S rules=french"])
def test_two_threads_claim_each_sample_once(line):
    """The threads of a batch take its samples from one shared counter: every
    sample is solved, by one thread only (the threads' node counters add up
    to the samples' nodes: a sample solved by both would count twice), and
    the values are one thread's."""
    from solver.search import kernels as kn
    from solver.search.vectors import VectorSampler
    pos = parse_position(line)
    spec = draw_spec(pos)
    make = VectorSampler if pos.players == 3 else Sampler
    one = make(spec, 16.0)
    two = make(spec, 16.0, workers=2)
    counters = 5 if pos.players == 3 else 3     # where a thread's scratch keeps them
    try:
        before = [int(s[counters][kn.C_NODES]) for s in two.scratch]
        vals1, _n1, done1, drawn1 = one.solve(list(range(24)), seed=7)
        vals2, nodes2, done2, drawn2 = two.solve(list(range(24)), seed=7)
        after = [int(s[counters][kn.C_NODES]) for s in two.scratch]
    finally:
        one.close()
        two.close()
    assert (done1 == 1).all() and (done2 == 1).all()
    assert np.array_equal(vals1, vals2, equal_nan=True)
    assert np.array_equal(drawn1, drawn2)
    assert sum(a - b for a, b in zip(after, before)) == int(nodes2.sum())


#: S declared a Ronda of 7s and has laid 7e this deal (hist=): its two
#: hidden cards are one 7 and one of 1, 2, 5, 6, 10, 12 (worked out by hand
#: in tests/test_deal_equilibrium.py, PLAYED_DECLARED)
PLAYED_DECLARED = ("2e.7e ?.?/10b.7b.6c ? N dealer=N score=39,22 taken=10,11 last=N "
                   "gone=3c.3o.1c.1e.4e.4o.3e.3b.4b.4c.11o.11c.12o.12e.6o.6e.11e.11b.12c.5c.5o "
                   "declared=S:ronda7 prev=7e hist=2e:S7e")


def test_both_drawings_bind_a_declaration_to_the_hand_dealt_when_hist_has_its_plays():
    """Both drawings (compiled and Python) ask a declared Ronda of the hand
    dealt, the hand drawn and the 7e S laid: every drawn hand is one of the
    six by hand, each about as often as its ways to draw it (2 sevens x
    the copies of the other rank: 2, 3, 2, 1, 3, 1 of 24). Without hist=
    the drawing binds nothing once S has played: 7 7 and hands without a 7
    are drawn too."""
    import random
    from collections import Counter
    from solver.cards import RANK_INDEX
    from solver.engine.compile import sampler
    seven = RANK_INDEX[7]
    ways = {RANK_INDEX[r]: n for r, n in ((1, 2), (2, 3), (5, 2), (6, 1), (10, 3), (12, 1))}
    want = {tuple(sorted((seven, r))): 2 * n / 24 for r, n in ways.items()}
    pos = parse_position(PLAYED_DECLARED)
    spec = draw_spec(pos)
    n = 2400
    compiled = Counter()
    for i in range(n):
        st, _stock = draw_python(spec, sample_seed(11, i))
        compiled[tuple(sorted(ranks_of(st[1])))] += 1
    sample = sampler(pos)
    plain = Counter()
    for i in range(n):
        game, state = sample(random.Random(i))
        plain[tuple(sorted(ranks_of(game.hand(state, 0))))] += 1
    for got in (compiled, plain):
        assert set(got) == set(want)
        for hand, p in want.items():
            # within 4 binomial standard errors
            assert abs(got[hand] / n - p) < 4 * (p * (1 - p) / n) ** 0.5, (hand, got[hand])
    free = parse_position(PLAYED_DECLARED.replace(" hist=2e:S7e", ""))
    free_spec = draw_spec(free)
    unbound = Counter(tuple(sorted(ranks_of(draw_python(free_spec, sample_seed(11, i))[0][1])))
                      for i in range(400))
    assert (seven, seven) in unbound and any(seven not in h for h in unbound)
