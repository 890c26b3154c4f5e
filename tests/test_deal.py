"""The deal search: the compiled kernel against plain searches, the learned
boundary value against its numpy twin, the completions of the hidden
hands, and the deal method end to end."""

from __future__ import annotations

import math
import random
from collections import Counter
from math import comb

import numpy as np
import pytest

from solver.engine.hand import Hand, cardset, ranks_of
from solver.rules import PRESETS
from solver.search import deal_kernels as dk
from solver.search.compiled import Searcher, ensure_compiled
from solver.value import net
from solver.value.model import shuffled_game
from solver.value.train import chance_state, selfplay_boundaries, selfplay_decisions

LMODIRE = PRESETS["lmodire"]


def random_model(seed: int, levels=(12, 18, 24, 30), H1: int = 8, H2: int = 6):
    rng = np.random.default_rng(seed)
    return net.pack({s: [rng.normal(0, 0.3, (net.NFEAT, H1)), rng.normal(0, 0.3, H1),
                         rng.normal(0, 0.5, (H1, H2)), rng.normal(0, 0.3, H2),
                         rng.normal(0, 1.0, H2), float(rng.normal())] for s in levels},
                    H1, H2)


def kernel_value(P, D, vm, st) -> float:
    return dk.negamax(P, D, dk.new_scratch(), *dk.new_table(12), dk.new_counters(), vm,
                      net.scratch(vm), 0, tuple(int(x) for x in st), -math.inf, math.inf)


@pytest.fixture(scope="module")
def boundaries():
    ensure_compiled()
    return selfplay_boundaries(LMODIRE, 2, 40, "test-deal")


def test_boundary_value_matches_numpy(boundaries):
    """The numba evaluation of the model equals the numpy one (the
    training's) on boundary states of every level."""
    vm = random_model(1)
    P = shuffled_game(LMODIRE, 2).P
    X = net.scratch(vm)
    for stock, rows in boundaries.items():
        feats = np.array([net.features_py(P, chance_state(*r)) for r in rows])
        if stock not in (12, 18, 24, 30):
            assert all(math.isnan(net.boundary_value(P, vm, X, chance_state(*r))) for r in rows)
            continue
        want = net.predict(vm, feats, stock)
        got = [net.boundary_value(P, vm, X, chance_state(*r)) for r in rows]
        assert np.allclose(got, want, atol=1e-9)


def test_features_by_hand():
    """Table 1 5 (a 5 with one copy left to come), stock four 12s and two
    5s... the features read by hand."""
    P = shuffled_game(LMODIRE, 2).P
    st = chance_state(cardset([0, 4]), 1, cardset([9, 9, 9, 9, 4, 4]))
    x = net.features_py(P, st)
    assert list(x[:10]) == [0, 0, 0, 0, 2, 0, 0, 0, 0, 4]
    assert list(x[10:20]) == [1, 0, 0, 0, 1, 0, 0, 0, 0, 0]
    assert list(x[20:23]) == [0, 1, 2]          # last capture: the other side; 2 on the table
    assert list(x[23:33]) == [0, 0, 0, 0, 2, 0, 0, 0, 0, 0]
    onehot = x[33:83].reshape(5, 10)            # [k copies to come, rank]
    assert onehot[4, 9] == onehot[2, 4] == 1 and onehot[0].sum() == 8 and onehot.sum() == 10
    assert list(x[83:93]) == [1, 0, 0, 0, 1, 0, 0, 0, 0, 0]      # runs: 1 alone, 5 alone
    assert list(x[93:103]) == [0, 0, 0, 0, 1, 0, 0, 0, 0, 0]     # a 5 is still to come
    tx = x[103:143].reshape(4, 10)
    assert tx[0, 0] == tx[2, 4] == 1 and tx.sum() == 2


def test_runs_follow_the_rules():
    """Table 6 7 10 11: a capture of 6 takes 6 7 10 11 where 7 and 10 are
    adjacent (lmodire), 6 7 only where they are not (french)."""
    st = chance_state(cardset([5, 6, 7, 8]), -1, cardset([0] * 4))
    x = net.features_py(shuffled_game(LMODIRE, 2).P, st)
    assert list(x[83:93]) == [0, 0, 0, 0, 0, 4, 3, 2, 1, 0]
    x = net.features_py(shuffled_game(PRESETS["french"], 2).P, st)
    assert list(x[83:93]) == [0, 0, 0, 0, 0, 2, 1, 2, 1, 0]


def plain_expectimax(game: Hand, st) -> float:
    """Expectimax without pruning or table on the core's plays and deals:
    a chance node the probability-weighted declarations plus value of
    every deal (the leader, who moves after it, is the side to move at
    the chance node: two players, an even number of plays a deal)."""
    if game.is_terminal(st):
        return 0.0
    if game.is_chance(st):
        return sum(p * (gain + plain_expectimax(game, kid)) for p, gain, kid in game.outcomes(st))
    return max(gain - plain_expectimax(game, child)
               for child, gain, _ev in (game.play(st, m) for m in game.moves(st)))


def test_exact_where_the_model_has_no_level(boundaries):
    """With no level, a chance node is searched exactly: the same value as
    the compiled expectimax (two deals to come) and as plain expectimax
    (one deal to come)."""
    game = shuffled_game(LMODIRE, 2)
    P, D = game.P, game.D
    vm = net.empty_model()
    searcher = Searcher(P, D, 64.0)
    for r in boundaries[6][:8]:
        st = chance_state(*r)
        want = plain_expectimax(game, st)
        assert kernel_value(P, D, vm, st) == pytest.approx(want, abs=1e-9)
    for r in boundaries[12][:2]:
        st = chance_state(*r)
        assert kernel_value(P, D, vm, st) == pytest.approx(searcher.value(st), abs=1e-9)


def plain_deal_value(game, P, vm, state) -> float:
    """Negamax without pruning to the end of the deal, a chance node
    valued by the model through numpy (independent of the kernel)."""
    if game.is_terminal(state):
        return 0.0
    if game.is_chance(state):
        x = net.features_py(P, state)
        return float(net.predict(vm, x[None, :], len(ranks_of(state[9])))[0])
    return max(gain - plain_deal_value(game, P, vm, child)
               for child, gain, _ev in (game.play(state, m) for m in game.moves(state)))


def test_deal_search_equals_plain_negamax():
    """Positions in the middle of deals 1 to 4, hands known: the kernel's
    value of every play equals plain negamax to the end of the deal with
    the model at its end (a random model, so that every leaf matters)."""
    vm = random_model(7)
    game = shuffled_game(LMODIRE, 2)
    P, D = game.P, game.D
    from solver.search.deal_search import DealSearcher
    ds = DealSearcher(P, D, vm, table_bits=10)
    checked = 0
    for stock in (30, 24, 18, 12):
        for st in selfplay_decisions(LMODIRE, 2, 40, f"plain-{stock}", stock)[:5]:
            vals, done = ds.solve(st, np.array([st[1:5]]), np.array([st[9]]))
            assert done[0] == 1
            ref = Hand(LMODIRE, 2, 0, ranks_of(int(st[9])), shuffled=True)
            rs = tuple(int(x) for x in st)
            for m in ref.moves(rs):
                child, gain, _ev = ref.play(rs, m)
                assert vals[0, m] == pytest.approx(gain - plain_deal_value(ref, P, vm, child),
                                                   abs=1e-9)
                checked += 1
    assert checked > 30


def test_the_table_is_reused_across_hands():
    """A state searched after many others on one table gets the values a
    fresh table gives (entries stay true across completions)."""
    vm = random_model(3)
    game = shuffled_game(LMODIRE, 2)
    P, D = game.P, game.D
    from solver.search.deal_search import DealSearcher
    states = selfplay_decisions(LMODIRE, 2, 60, "reuse", 24)[:12]
    shared = DealSearcher(P, D, vm, table_bits=8)
    for st in list(states) + list(states[::-1]):
        fresh = DealSearcher(P, D, vm, table_bits=8)
        want, _ = fresh.solve(st, st[None, 1:5], st[None, 9])
        got, _ = shared.solve(st, st[None, 1:5], st[None, 9])
        assert np.allclose(want, got, equal_nan=True, atol=1e-12)


def views_in_deal(deal_no: int, count: int, seed: str, players: int = 2, rules=LMODIRE):
    """``(view, full)`` position pairs at decisions with a choice in deal
    ``deal_no`` of greedy self-play hands: the mover's view (hidden hands,
    ``?`` stock, hist=) and the same with every hand shown and the stock's
    cards known but not their order (``~``)."""
    from solver.games.match import HandState, deal_hand
    from solver.games.players import GreedyPlayer
    rng = random.Random(seed)
    out = []
    greedy = GreedyPlayer()
    while len(out) < count:
        table, stock = deal_hand(rules, players, rng)
        hs = HandState(rules, players, rng.randrange(players), table, stock=stock)
        while not hs.finished:
            if hs.awaiting_deal:
                hs.deal()
                continue
            if hs.deal_no == deal_no and len(hs.legal_ranks()) > 1 and rng.random() < 0.5:
                full = hs.full_position()
                full.stock_kind = "shuffled"
                out.append((hs.view(), full))
                break
            hs.play(greedy.choose(hs.view(), rng))
    return out


def test_enumerated_hands_cover_every_draw():
    """The completions of a hidden hand are every rank multiset the unseen
    cards allow, each weighted by its ways to be drawn: the weights add up
    to C(unseen, hidden) and the true hand is among them."""
    from solver.analysis.deal import DealProblem
    from solver.engine.compile import unseen_pool
    for view, full in views_in_deal(5, 6, "enum"):
        view.hist = None
        view.declared = []
        p = DealProblem(view, inference=False)
        other = 1 - view.turn
        k = sum(1 for c in view.hands[other] if c is None)
        assert p.enumerated and len(p.completions) > 1
        assert sum(c.weight for c in p.completions) == comb(len(unseen_pool(view)), k)
        true = cardset([c.index for c in full.hands[other]])
        assert any(c.hands[other] == true for c in p.completions)
        for c in p.completions:             # the stock is what the hand leaves
            assert len(ranks_of(c.stock)) + len(ranks_of(c.hands[other])) == \
                len(unseen_pool(view))


def test_deal_method_equals_expectimax_in_the_second_to_last_deal():
    """In deal 5 of 6 the deal's end is the last deal, searched exactly:
    with every hand known the deal method's values are expectimax's; with
    the other hand hidden they are the average of expectimax's over every
    hand it may hold, weighted by the ways to draw it."""
    from solver.analysis.evaluation import evaluate
    from solver.engine.compile import unseen_pool
    import copy
    for view, full in views_in_deal(5, 4, "second-to-last"):
        d = evaluate(full, method="deal")
        e = evaluate(full, method="expectimax")
        assert d.method == "deal" and e.method == "expectimax"
        want = {mv.rank: mv.value for mv in e.moves}
        assert {mv.rank: mv.value for mv in d.moves} == pytest.approx(want, abs=1e-9)
        view.hist = None            # no inference: the plain average over hands
        h = evaluate(view, method="deal", inference=False)
        other = 1 - view.turn
        pool = Counter(unseen_pool(view))
        known = [c for c in view.hands[other] if c is not None]
        k = len(view.hands[other]) - len(known)
        sums: dict[int, float] = {}
        total = 0
        from itertools import combinations
        from solver.cards import Card, RANKS
        for hand in set(combinations(sorted(pool.elements()), k)):
            w = 1
            for r, n in Counter(hand).items():
                w *= comb(pool[r], n)
            trial = copy.deepcopy(view)
            trial.hands[other] = known + [Card(RANKS[r]) for r in hand]
            rest = Counter(pool)
            rest.subtract(hand)
            trial.stock_kind = "shuffled"
            trial.stock = [Card(RANKS[r]) for r in rest.elements()]
            trial.declared = []
            for mv in evaluate(trial, method="expectimax").moves:
                sums[mv.rank] = sums.get(mv.rank, 0.0) + w * mv.value
            total += w
        assert {mv.rank: mv.value for mv in h.moves} == pytest.approx(
            {r: v / total for r, v in sums.items()}, abs=1e-9)


EXAMPLE = "1.6.7.10.12 6.2.3/4.5.11 ~1.1.2.3.4.5.11.12.12.10.10.7 S taken=7,10 last=N"


def test_the_shipped_model_loads_and_says_what_it_is():
    """lmodire with two players has a model with no training step: its
    levels are the stock sizes of deals 1 to 4's ends, its held-out error
    at 12 cards against exact expectimax is within half a point, and it
    names the command that rebuilt it."""
    from solver.value.model import find_for
    m = find_for(LMODIRE, 2)
    assert m is not None and m.levels == [12, 18, 24, 30]
    assert m.exact_level == 12
    assert m.rmse() is not None and m.rmse() <= 0.5
    assert m.play_error() is not None and m.play_error() <= m.rmse()
    assert m.meta["command"].startswith("python -m solver.value.train")
    assert find_for(PRESETS["french"], 3) is None
    # a rule that changes what the deals to come are worth: no model
    import dataclasses
    assert find_for(dataclasses.replace(LMODIRE, decl_cumulative=True), 2) is None


def test_the_issue_example_lists_2_3_and_6_as_equal():
    """Plays 2, 3 and 6 are worth exactly the same (+0.40895, expectimax):
    by default (exact expectimax within the budget, or the deal search
    when it does not fit) all three are best; the deal search, which
    sees no stock order, finds them equal too."""
    from solver.analysis.evaluation import evaluate
    from solver.notation import parse_position
    pos = parse_position(EXAMPLE)
    a = evaluate(pos)
    assert sorted(a.best) == ["2", "3", "6"]
    d = evaluate(pos, method="deal")
    assert d.method == "deal" and sorted(d.best) == ["2", "3", "6"]
    assert "no clairvoyance" in d.note
    short = evaluate(pos, time_budget=0.3)
    assert short.method in ("expectimax", "deal") and sorted(short.best) == ["2", "3", "6"]


def test_the_mover_s_view_early_in_the_hand():
    """A hidden hand in deal 2: auto plays the deal as the game of hidden
    hands it is (the equilibrium over every hand the other player may
    hold, the deal's end valued by the learned model), says so, and
    scores every play; with the other hand known (declared, counted) the
    deal search over that one hand, as the deal search did before."""
    from solver.analysis.evaluation import evaluate
    for view, _full in views_in_deal(2, 3, "early"):
        a = evaluate(view)
        hidden = any(c is None for c in view.hands[1 - view.turn])
        assert a.method == ("equilibrium" if hidden else "deal")
        assert "by the learned model" in a.note or "by a learned model" in a.note
        assert {mv.rank for mv in a.moves} == {c.index for c in view.hands[view.turn]}
        assert a.best[0] in [mv.move for mv in a.moves]
        if hidden:
            assert a.extra["hidden_hands"] >= 2 and a.extra["deal_end_stock"] == 24
        else:
            assert a.extra["completions"] == a.extra["hands"] == 1


def test_the_deal_method_says_why_it_cannot_take_a_position():
    """`--method deal` where no boundary value covers the game is one line
    saying why (the CLI prints it as the line's error); `auto` answers."""
    from solver.analysis.deal import why_not
    from solver.notation import parse_position
    # a new user's pass: a voleur line with every card known was refused for
    # want of a model ("no boundary-value model for Ronda voleur"), where
    # the plain game's says the stock is known; and the CLI said "the deal
    # search cannot take this position: the deal search takes two sides"
    voleur = parse_position("3.10 5.12/10.11 - S rules=french voleur=yes taken=12,22 last=N "
                            "tops=2,5")
    assert why_not(voleur) == "the stock order is known: exact search"
    hidden = parse_position("3.10 5.12/?.? ? S rules=french voleur=yes taken=12,16 last=N "
                            "tops=2,5 gone=1.1.1.1.2.2.2.3.3.3.4.4.4.4.5.5.5.6.6.6.6.7.7.7.7"
                            ".10.10.11")
    assert why_not(hidden) == ("it does not take Ronda voleur (the piles change what a deal "
                               "is worth)")
    three = parse_position("3.10 5.12/10.11/1.2 - S rules=french")
    assert why_not(three) == "it takes two sides (2 players, or 4 in partnerships)"
    from solver.analysis.evaluation import evaluate
    from solver.engine.compile import CompileError
    with pytest.raises(CompileError) as e:
        evaluate(three, method="deal")
    assert str(e.value) == ("the deal search cannot take this position: it takes two sides "
                            "(2 players, or 4 in partnerships)")
    known = parse_position("1.6.7.10.12 6.2.3/4.5.11 1.1.2.3.4.5.11.12.12.10.10.7 S taken=7,10 "
                           "last=N")
    assert why_not(known) == "the stock order is known: exact search"


def test_a_deal_search_cut_short_says_so():
    """When the time runs out after the first hand (a budget of 0: the
    most probable hand of N is always searched), the answer says how many
    of the 219 hands were searched, measures no error from one hand, and
    calls the two plays tied in that hand, not equal: over every hand 2
    (-4.36) and 7 (-4.53) differ."""
    from solver.analysis.evaluation import evaluate
    from solver.analysis.words import summary_line
    from solver.notation import parse_position
    pos = parse_position("1.3.5.11 2.2.7/?.?.? ? S")
    short = evaluate(pos, method="deal", time_budget=0)
    assert short.stopped == "time"
    assert (short.extra["completions"], short.extra["hands"]) == (1, 219)
    assert all(mv.stderr is None for mv in short.moves)
    assert short.moves[0].value == short.moves[1].value
    line = summary_line(short)
    assert "over 1 of the 219 hands the other player may hold" in line
    assert "the time ran out" in line and line.endswith("2 and 7 are tied in these hands")
    assert "every hand" not in line and "equal" not in line
    full = evaluate(pos, method="deal")
    assert full.stopped is None and full.extra["completions"] == 219
    values = {mv.move: round(mv.value, 2) for mv in full.moves}
    assert values == {"2": -4.36, "7": -4.53}
    assert summary_line(full).startswith("estimate: this deal as if the other hand were seen, "
                                         "over every hand it may be")


NOISE = ("6b.4e.5e.11o.7e.1c 2o.1e.10b/?.?.? ? S target=5 dealer=N score=1,1 taken=14,8 "
         "last=N gone=12b.12o.6o.6e.3e.4c.5b.3o.5o.6c.5c.1b.1o.2c.10o.10c.12e.12c.11b.11c."
         "7o.7b hist=6b.4e.5e.11o.7e.1c:-")


def test_a_loss_found_in_one_hand_is_no_loss():
    """A new user's pass: cut short after 1 of the 35 hands (the
    heaviest), the deal search called 10b best (0) and 1e a loss of 1.10,
    and annotate marked 1e ``?``; over every hand 2o is best (-1.11), 1e
    -1.43 and 10b -1.52. With too few hands searched to measure the error
    of a difference, every play is close (no established loss: annotate
    marks none), the note says why, the tolerance is None (no inf in a
    JSON document). Over
    every hand the error is measured and 2o alone is best."""
    import json
    from solver.analysis.document import analysis_json
    from solver.analysis.evaluation import evaluate
    from solver.notation import parse_position
    from solver.numbers import tidy
    pos = parse_position(NOISE)
    short = evaluate(pos, method="deal", time_budget=0)
    assert (short.extra["completions"], short.extra["hands"]) == (1, 35)
    # the one hand searched still chooses the play: its higher value
    assert short.best[0] == "10b" and sorted(short.best) == ["10b", "1e", "2o"]
    assert sorted(short.extra["close"]) == ["10b", "1e", "2o"]
    assert "cannot be told apart in the 1 hand searched" in short.note
    assert set(short.extra["tolerance"].values()) == {None}
    json.dumps(tidy(analysis_json(short, 1)), allow_nan=False)
    full = evaluate(pos, method="deal")
    assert full.extra["completions"] == 35 and full.best == ["2o"]
    assert {mv.move: round(mv.value, 2) for mv in full.moves} == \
        {"2o": -1.11, "1e": -1.43, "10b": -1.52}


def test_annotate_takes_a_deal_search_that_measured_no_error():
    """annotate's close plays of a search cut short after one hand: every
    play (its tolerance None: it crashed adding a number to it)."""
    from solver.analysis.evaluation import evaluate
    from solver.games.annotate import close_moves
    from solver.notation import parse_position
    a = evaluate(parse_position(NOISE), method="deal", time_budget=0)
    assert close_moves(a) == sorted(mv.move for mv in a.moves)


#: four players, E to play with W's, N's and S's hands hidden: the hands
#: are drawn, so the deal search's values carry a sampling error
FOUR_DRAWN = ("5c.10o.11o.7e.4c.3e.2b ?.?.?/1b.2e.4o/?.?.?/?.?.? ? E rules=pagat dealer=S "
              "score=5,9 taken=10,11 last=W gone=11e.11b.12c.4b.4e.5e.6b.5o.12e.12b.3b.3o.7o.7b."
              "1o.1c.2o.10c.10e.6e.6o hist=5c.10o.11o.7e.4c.3e.2b:-")


def test_the_paired_error_of_each_play_against_the_best():
    """The error of each play's difference with the best, recomputed from
    every drawn hand's values (the weighted paired standard error, written
    out here): it took the columns by the plays' order instead of their
    ranks, so most plays got NaN (never close: a loss "established" with no
    error) or another pair's error."""
    from solver.analysis.deal import DealProblem, search, tolerance
    from solver.notation import parse_position
    from solver.search.deal_search import DealSearcher
    problem = DealProblem(parse_position(FOUR_DRAWN), max_draws=200)
    assert not problem.enumerated
    result = search(problem, None)
    comps = problem.completions
    vm = problem.model.vm if problem.model is not None else net.empty_model()
    vals, done = DealSearcher(problem.P, problem.D, vm).solve(
        problem.base, np.array([c.hands for c in comps], dtype=np.int64),
        np.array([c.stock for c in comps], dtype=np.int64), None)
    assert done.all()
    w = np.array([c.weight for c in comps])
    top = max(result.values, key=lambda m: (result.values[m], -m))
    legal = [m for m in range(10) if not math.isnan(vals[0, m])]
    assert sorted(result.diff_se) == legal and len(legal) == 3
    n = len(w)
    for m in legal:
        d = vals[:, top] - vals[:, m]
        mean = (w * d).sum() / w.sum()
        want = 0.0 if m == top else math.sqrt((w * w * (d - mean) ** 2).sum() * n / (n - 1)) / w.sum()
        assert result.diff_se[m] == pytest.approx(want, rel=1e-9, abs=1e-12)
    assert all(math.isfinite(t) for t in tolerance(result).values())


def test_equal_plays_are_equal_in_the_note_as_in_the_summary():
    """Issue 20, a new user's pass: the deal method's summary said "1 and 5
    are equal" where its note (``--verbose``) said "1, 5 are close (within
    2 times the estimate's error): 1 chosen". Plays of the same value are
    equal in both; plays within the error but apart stay close."""
    from solver.analysis.evaluation import evaluate
    from solver.analysis.words import summary_line
    from solver.notation import parse_position
    # positions/examples.txt, "whole hand, unknown stock": S lays 1 or 5
    # (nothing to take) and the deal's end is the same either way
    a = evaluate(parse_position("3.6.10.12 1.5.5/2.7.11 ? S"), method="deal")
    assert a.method == "deal" and a.best == ["1", "5"]
    assert [mv.value for mv in a.moves][0] == [mv.value for mv in a.moves][1]
    assert summary_line(a).endswith("; 1 and 5 are equal")
    assert "; 1, 5 are equal in the hands searched: 1 chosen" in a.note
    assert "close" not in a.note


def test_under_the_match_objective_a_points_loss_the_deal_search_did_not_measure_is_close():
    """Under the match objective ``best`` is the match's, and the points
    column called a play ``close`` only when it was among those: a deal
    search cut short after 1 of NOISE's 35 hands measured no error, yet
    the table printed a points loss for the other plays (10b's 0 against
    1e's -1.10 in that one hand). Every play is close there, in the table
    (``close`` or nothing), in the JSON's ``close`` and on the board (its
    ``a.close``)."""
    from solver.analysis.document import analysis_json
    from solver.analysis.evaluation import evaluate
    from solver.cli.render import analysis_table, points_close
    from solver.match_equity.evaluate import evaluate_match
    from solver.match_equity.objective import with_match
    from solver.notation import parse_position
    from rich.console import Console
    pos = parse_position(NOISE)
    short = evaluate(pos, method="deal", time_budget=0)
    assert short.extra["completions"] == 1
    losses = {mv.move: short.value - mv.value for mv in short.moves}
    assert max(losses.values()) > 1.0           # a loss in the one hand searched
    m = evaluate_match(pos, method="determinised", samples=20, points=False, time_budget=20)
    a = with_match(short, m)
    assert a.objective == "match"
    assert sorted(points_close(a)) == ["10b", "1e", "2o"]
    doc = analysis_json(a, 1)
    assert sorted(doc["close"]) == ["10b", "1e", "2o"]
    console = Console(width=200, record=True)
    console.print(analysis_table(a))
    text = console.export_text()
    for mv in a.moves:
        [row] = [r for r in text.splitlines() if r.split() and r.split()[0] == mv.move]
        loss = row.split("│")[-2].strip()
        assert loss == ("" if losses[mv.move] <= 1e-9 else "close"), row


def test_the_deal_search_in_place_of_the_equilibrium_says_it_is_an_estimate():
    """In the last two deals the answer is the equilibrium; when it does
    not finish in the time, auto falls back to the deal search, whose
    short line said "this deal exact for every hand the other player may
    hold; the deals to come exact": each hand is solved as if seen, and
    here it called 2e a loss of 2.73 where the equilibrium's is 0.52. The
    line now calls it an estimate and says the equilibrium did not
    finish; with the time, the equilibrium is the answer (values from it
    without inference: 5c +2.16, 1e +2.07, 2e +1.64; reading N's 2o as the
    deal search does: 1e +2.05, 5c +1.42, 2e -0.40)."""
    from solver.analysis.evaluation import evaluate
    from solver.analysis.words import summary_line
    from solver.notation import parse_position
    pos = parse_position(
        "3e.1c.6c.4c.5o.10c.12b.11c.2o 2e.5c.1e/?.? ? S dealer=S taken=10,10 last=S "
        "gone=3o.3c.5b.5e.6e.6b.12o.12c.11o.11e.7o.7e.10o.1o.1b.4o.4e.7b.10b.7c prev=2o "
        "hist=3e.1c.6c.4c.5o.10c.12b.11c:N2o")
    unread = evaluate(pos, time_budget=60, inference=False)
    assert unread.method == "equilibrium"
    assert {mv.move: round(mv.value, 2) for mv in unread.moves} == \
        {"5c": 2.16, "1e": 2.07, "2e": 1.64}
    eq = evaluate(pos, time_budget=60)
    assert eq.method == "equilibrium"
    assert {mv.move: round(mv.value, 2) for mv in eq.moves} == \
        {"1e": 2.05, "5c": 1.42, "2e": -0.40}
    assert summary_line(eq).startswith("exact for what S knows")
    short = evaluate(pos, time_budget=0)
    assert short.method == "deal" and short.extra["instead_of"] == "equilibrium:time"
    line = summary_line(short)
    assert line.startswith("estimate (the exact equilibrium did not finish in the time): "
                           "this deal as if the other hand were seen, over ")
    assert "exact for" not in line


def test_one_hand_left_is_solved_exactly_and_says_so():
    """The last deal with N's two hidden cards the only two not seen: the
    deal search has one hand to solve, so nothing is weighed (no inference
    clause for N's play) and nothing is estimated; the values are the exact
    ones of the same line with N's hand written."""
    from solver.analysis.evaluation import evaluate
    from solver.analysis.words import summary_line
    from solver.notation import parse_position
    rest = ("S dealer=S score=4,1 taken=12,17 last=N gone=6c.11c.7b.10c.6b.11o.11e.3e.3o.1b.2c"
            ".1o.4o.4e.6e.5c.2b.2o.1e.1c.3c.5o.3b.4c.7o.10b.7e.12c.12b prev=7c")
    a = evaluate(parse_position(f"5b.6o.10o.4b.12o.7c 12e.11b.10e/?.? ? {rest} "
                                "hist=5b.6o.10o.4b.12o:N7c"), method="deal")
    assert a.extra["hands"] == 1 and a.extra["enumerated"]
    assert "for the one hand N may hold" in a.note and "likelihood" not in a.note
    assert summary_line(a).startswith("this deal exact (what is seen and declared leaves one")
    assert a.ess is None            # nothing weighed
    full = evaluate(parse_position(f"5b.6o.10o.4b.12o.7c 12e.11b.10e/2e.5e - {rest}"),
                    method="exact")
    assert {mv.move: mv.value for mv in a.moves} == {mv.move: mv.value for mv in full.moves}
    # the equilibrium of the same line: one chance outcome, nothing weighed
    eq = evaluate(parse_position(f"5b.6o.10o.4b.12o.7c 12e.11b.10e/?.? ? {rest} "
                                 "hist=5b.6o.10o.4b.12o:N7c"), method="equilibrium")
    assert eq.extra["hidden_hands"] == 1 and eq.ess is None and "read" not in eq.extra
    assert "the one that what is seen and declared leaves" in eq.note
    assert "likelihood" not in eq.note
    assert {mv.move: mv.value for mv in eq.moves} == pytest.approx(
        {mv.move: mv.value for mv in full.moves}, abs=1e-9)
