"""The equilibrium of an earlier deal (solver/engine/view_game.py with a
learned model at the deal's end): the current deal as the game of hidden
hands it is, the deals to come valued by the model as the deal search
values them.

Cross-checks: with the other hand fixed to one hand, the view game is the
perfect-information deal, and each play's value from its LP equals the
compiled deal search's (solver/search/deal_kernels.py) for that hand: the
Python tree with the model at its leaves against the compiled negamax.
"""

from __future__ import annotations

import numpy as np
import pytest

from solver.analysis.deal import DealProblem
from solver.analysis.evaluation import choose_method, evaluate
from solver.engine.scoring import ranks_of
from solver.engine.view_game import ViewGame, deal_model, fits, fits_any_deal
from solver.notation import parse_position
from solver.search.deal_search import DealSearcher
from solver.search.equilibrium import solve

#: the first deal: S leads with 2 2 7, N's 3 cards hidden (219 hands), 30
#: cards left to deal after it
FIRST = "1.3.5.11 2.2.7/?.?.? ? S"
#: the fourth deal (18 cards left after it): N has answered S's 7c with 5b
THIRD = ("3b.7c.5b 4o.6o/?.? ? S dealer=N score=1,2 taken=8,7 last=N "
         "gone=12c.12b.1e.3c.1c.2c.5o.5c.1b.1o.7o.7e.10o.11e.11o prev=5b hist=3b:S7c,N5b")
#: the first deal, N's Ronda of aces declared (two of its cards known)
DECLARED = ("7e.3c.1o.12b 12c.5c.10o/1.1.? ? S dealer=N score=0,1 taken=0,0 gone=- "
            "declared=N:ronda1 hist=7e.3c.1o.12b:-")


@pytest.mark.parametrize("line", [FIRST, THIRD, DECLARED])
def test_one_hand_of_the_view_game_is_the_deal_searchs_value(line):
    pos = parse_position(line)
    assert fits_any_deal(pos) and not fits(pos) and deal_model(pos) is not None
    problem = DealProblem(pos, inference=False)
    searcher = DealSearcher(problem.P, problem.D, problem.model.vm)
    other = 1 - pos.turn
    known = sorted(c.index for c in pos.hands[other] if c is not None)
    checked = 0
    for comp in problem.completions[::max(1, len(problem.completions) // 12)]:
        hidden = list(ranks_of(comp.hands[other]))
        for r in known:
            hidden.remove(r)
        vg = ViewGame(pos, hands=[tuple(hidden)])
        assert vg.model is not None and vg.hands_dealt == 1
        values, done = searcher.solve(problem.base, np.array([comp.hands], dtype=np.int64),
                                      np.array([comp.stock], dtype=np.int64))
        assert done[0] == 1
        sol = solve(vg.tree)
        for m in sol.root_policy:
            lp = solve(vg.tree, fix_root=m).value
            assert lp == pytest.approx(values[0, m], abs=1e-6), (hidden, m)
        legal = {m for m in range(10) if not np.isnan(values[0, m])}
        assert set(sol.root_policy) == legal
        checked += 1
    assert checked >= 8


def test_auto_plays_an_earlier_deal_as_the_game_of_hidden_hands():
    """auto takes the equilibrium in the first deal: every play's value
    within the deal for what S knows, the deal's end by the model; the
    two plays are 0.03 apart, within the model's error of a difference
    (2 x 0.158 points), so both are close and best (the table, JSON
    ``close`` and annotate mark neither; ``best`` lists both, as the deal
    search's does), and the line says which kind of answer."""
    from solver.analysis.document import analysis_json
    from solver.analysis.words import summary_line
    from solver.games.annotate import close_moves
    pos = parse_position(FIRST)
    assert choose_method(pos) == "equilibrium"
    a = evaluate(pos, time_budget=60)
    assert a.method == "equilibrium" and a.extra["hidden_hands"] == 219
    assert a.extra["deal_end_stock"] == 30
    values = {mv.move: mv.value for mv in a.moves}
    # both best, as the deal search lists its close plays (suite bm scoring alike)
    assert a.best == ["2", "7"] and values["2"] > values["7"]
    assert values["2"] - values["7"] < 2 * a.extra["model_error"]
    assert a.extra["close"] == ["2", "7"] and close_moves(a) == ["2", "7"]
    assert analysis_json(a, 1)["close"] == ["2", "7"]
    line = summary_line(a)
    assert line.startswith("exact within this deal for what S knows (the other hand unseen); "
                           "the deals to come a learned value (±0.32 between two plays)")
    assert line.endswith("2 and 7 are close")


def test_no_model_for_the_rules_no_earlier_deal_equilibrium():
    """Voleur (no model shipped) keeps the deal search's fallback in an
    earlier deal: determinised search, and the equilibrium refuses."""
    from solver.engine.compile import CompileError
    pos = parse_position(FIRST + " rules=french voleur=yes")
    assert deal_model(pos) is None and not fits_any_deal(pos)
    assert choose_method(pos) == "determinised"
    with pytest.raises(CompileError, match="a learned value of the deals to come"):
        ViewGame(pos)


def test_a_short_time_goes_to_the_deal_search_at_once():
    """The first deal's game (219 hands, 3 cards against 3: 219 x 36 play
    orders) takes about 0.8 s; with --time 0.5 auto tried it for 60% of
    the time, ran out, and left the deal search one hand of the 219 (it
    answers all of them in 0.03 s). Its guess, 1.2e-4 s an order, now
    sends it to the deal search at once, which covers every hand."""
    from solver.analysis.evaluation import EQUILIBRIUM_SECONDS_PER_LINE, _equilibrium_guess
    from solver.analysis.words import summary_line
    pos = parse_position(FIRST)
    assert _equilibrium_guess(pos) == pytest.approx(EQUILIBRIUM_SECONDS_PER_LINE * 219 * 36)
    a = evaluate(pos, time_budget=0.5)
    assert a.method == "deal" and a.extra["instead_of"] == "equilibrium:skip"
    assert a.extra["completions"] == a.extra["hands"] == 219
    assert summary_line(a).startswith("estimate (the equilibrium needs more time): ")
    assert "the equilibrium would take about 0.9 s" in a.note


#: N to play; S has laid 7e this deal (hist=), its two cards left hidden
READ = ("2e.7e ?.?/10b.7b.6c ? N dealer=N score=39,22 taken=10,11 last=N "
        "gone=3c.3o.1c.1e.4e.4o.3e.3b.4b.4c.11o.11c.12o.12e.7o.7c.11e.11b.12c.5c.5o "
        "prev=7e hist=2e:S7e")


#: S declared a Ronda of 7s and has laid 7e this deal: its two hidden cards
#: hold one 7 (the rest of the pair) and no second (three 7s would have
#: been a Tringa, declared as such under lmodire)
PLAYED_DECLARED = ("2e.7e ?.?/10b.7b.6c ? N dealer=N score=39,22 taken=10,11 last=N "
                   "gone=3c.3o.1c.1e.4e.4o.3e.3b.4b.4c.11o.11c.12o.12e.6o.6e.11e.11b.12c.5c.5o "
                   "declared=S:ronda7 prev=7e hist=2e:S7e")


def test_a_declaration_binds_the_hand_dealt_when_hist_has_the_seats_plays():
    """S declared a Ronda of 7s and laid 7e: the hand dealt was 7e and its
    two hidden cards. Unseen (by hand): 1 x2, 2 x3, 5 x2, 6, 7 x2 (7o 7c),
    10 x3, 12; no 3, 4 or 11. So the hidden cards are one 7 and one of 1,
    2, 5, 6, 10, 12: six hands (7 7 would make three 7s, a Tringa S would
    have declared under lmodire). Before, the equilibrium asked the two
    hidden cards alone for the pair (only 7 7, one hand) and the deal
    search dropped the declaration once S had played (26 hands): now
    both ask it of the hand dealt, and agree hand for hand."""
    from solver.cards import RANK_INDEX
    pos = parse_position(PLAYED_DECLARED)
    seven = RANK_INDEX[7]
    want = {tuple(sorted((seven, RANK_INDEX[r]))) for r in (1, 2, 5, 6, 10, 12)}
    assert set(ViewGame(pos).tree.probs) == want
    problem = DealProblem(pos, inference=False)
    assert {tuple(sorted(ranks_of(c.hands[1 - pos.turn]))) for c in problem.completions} == want
    # the ways to draw each: two 7s times the copies of the other rank
    total = sum(c.weight for c in problem.completions)
    assert total == 2 * (2 + 3 + 2 + 1 + 3 + 1)


@pytest.mark.parametrize("line", [READ, THIRD, PLAYED_DECLARED])
def test_the_view_games_chance_weighs_hands_as_the_deal_search_does(line):
    """With the other player's plays this deal read (inference), chance
    deals each hand by its ways to draw it times the likelihood of the
    plays: the same weights, hand by hand, as the deal search's
    enumeration (solver/analysis/deal.py, its own code), and so the same
    effective number of hands."""
    from solver.analysis.inference import Evidence
    pos = parse_position(line)
    other = 1 - pos.turn
    vg = ViewGame(pos, evidence=Evidence(pos))
    problem = DealProblem(pos)
    assert problem.evidence is not None and vg.read == len(problem.evidence.items) == 1
    total = sum(c.weight for c in problem.completions)
    theirs = {tuple(sorted(ranks_of(c.hands[other]))): c.weight / total
              for c in problem.completions}
    assert vg.tree.probs.keys() == theirs.keys()
    for h, p in theirs.items():
        assert vg.tree.probs[h] == pytest.approx(p, rel=1e-9)
    w = np.array([c.weight for c in problem.completions])
    assert vg.ess == pytest.approx(w.sum() ** 2 / (w * w).sum(), rel=1e-9)
    # without the evidence: the ways to draw alone, and the plays change the weights
    plain = ViewGame(pos)
    assert plain.read == 0 and plain.ess is None
    assert max(abs(plain.tree.probs[h] - vg.tree.probs[h]) for h in theirs) > 0.01


def test_the_equilibrium_reads_the_other_players_plays_of_the_deal():
    """S laid 7e this deal. Before, the equilibrium weighed S's hidden
    hands by the ways to draw them alone and said it left the play
    unread; now it reads it as the deal search does (inference): the
    note says so, ``ess`` is the deal search's (8.2 hands of 20), and the
    values move (7b: +4.72 read, +3.93 unread). --no-inference gives the
    unread values."""
    pos = parse_position(READ)
    a = evaluate(pos, time_budget=60)
    assert a.method == "equilibrium"
    assert "by the likelihood of its 1 play this deal (inference; worth 8 unweighted hands)" \
        in a.note
    assert a.extra["read"] == 1 and a.ess == pytest.approx(8.2, abs=0.05)
    d = evaluate(pos, time_budget=60, method="deal")
    assert a.ess == pytest.approx(d.ess, rel=1e-9)
    b = evaluate(pos, time_budget=60, inference=False)
    assert b.method == "equilibrium" and b.ess is None and "likelihood" not in b.note
    assert a.best == b.best == ["7b"]
    assert a.value == pytest.approx(4.717, abs=0.001)
    assert b.value == pytest.approx(3.930, abs=0.001)
