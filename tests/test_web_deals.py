"""The web board's plays across deals (``solver.web.boards.play_line``,
``POST /api/play``): with a known stock the last card of a deal deals the
next one as the rules do (the hands from the stock, the declarations
written and scored), the line after it is the core's dealt child (the same
values), and the hand's last card ends the hand with the final score. A
hidden or shuffled stock still stops at the end of the deal."""

import random

import pytest

from solver.notation import format_position, parse_position
from solver.web.boards import play_line

# the last card of a deal, the next deal known: S leads it with 1.1.4 (a
# Ronda), N gets 2.2.7 (a higher Ronda)
LMODIRE = "3.6.10 -/5 1.1.4.2.2.7 N taken=15,15 last=S"
# the same in French voleur rules: S's pile has a 5 on top, N's 5 steals it
VOLEUR = "3.6.10 -/5 1.1.4.2.2.7 N rules=french voleur=yes taken=15,15 last=S tops=5,-"
# three players (French): E deals the last deal, 1.1.4 / 2.2.7 / 11.11.11
THREE = "3.6.10 -/5/- 1.1.4.2.2.7.11.11.11 E rules=french taken=9,9,9 last=S"
# four players (Pagat): W deals the last deal
FOUR = "3.6 -/-/-/5 1.1.4.2.2.7.11.11.11.12.12.12 W rules=pagat taken=14,11 last=S"


def _next_deal(line):
    pos = parse_position(line)
    out, stopped = play_line(line, [str(pos.hands[pos.turn][0])])
    assert stopped is None, stopped
    return out[0]


def test_the_last_card_of_a_deal_deals_the_next_from_a_known_stock():
    step = _next_deal(LMODIRE)
    # N's 5 lays; S leads the new deal with the stock's first 3 cards;
    # both hold a Ronda: lmodire scores N's (the higher) alone, 1 point
    assert step["line"] == ("3.6.10.5 1.1.4/2.2.7 - S score=0,1 taken=15,15 last=S "
                            "declared=S:ronda1,N:ronda2")
    assert step["over"] is None
    assert step["board"]["hands"] == [["1", "1", "4"], ["2", "2", "7"]]
    assert format_position(parse_position(step["line"])) == step["line"]


def test_a_shuffled_or_hidden_stock_still_stops_at_the_end_of_the_deal():
    for line in ("3.6.10 -/5 ~1.1.4.2.2.7 N taken=15,15 last=S",
                 "3.6.10 -/5 ? N taken=15,15 last=S gone=" + ".".join(
                     ["1", "1"] + ["2"] * 2 + ["3"] * 3 + ["4"] * 3 + ["5"] * 3 + ["6"] * 3
                     + ["7"] * 3 + ["10"] * 3 + ["11"] * 4 + ["12"] * 4)):
        out, stopped = play_line(line, ["5"])
        assert out == []
        assert stopped == ("play: this is the last card of the deal; write the next deal's "
                           "position to go on")


def test_the_hands_last_card_ends_the_hand_with_the_final_score():
    out, stopped = play_line("1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N",
                             ["7", "12", "2", "7", "7"])
    assert stopped is None
    end = out[-1]
    assert end["line"] is None and end["effect"] == "x7.7 +1 hit"
    # hit +1, hit +1, then S sweeps the 1.12.2 and counts 22 cards: +2
    assert end["over"] == "the hand is over: the final score S 4, N 0"
    b = end["board"]
    assert b["hands"] == [[], []] and b["table"] == [] and b["piles"] == {"S": 22, "N": 18}
    assert b["score"] == {"S": 4, "N": 0} and b["facts"][0] == end["over"]
    # a move after the end is refused, the plays before it kept
    out, stopped = play_line("1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N",
                             ["7", "12", "2", "7", "7", "1"])
    assert len(out) == 5 and stopped == "play: the hand is over"


def test_unwritten_piles_leave_the_card_count_out_of_the_final_score():
    out, stopped = play_line("1.7 7/12 - S", ["7", "12"])
    assert stopped is None
    assert out[-1]["over"] == ("the hand is over: the final score S 0, N 0 (the card count "
                               "not scored: the line does not write the piles)")


@pytest.mark.parametrize("rules,players", [("lmodire", 2), ("french", 2), ("voleur", 2),
                                           ("french", 3), ("pagat", 4)])
def test_the_boards_plays_follow_the_match_simulator_through_a_whole_hand(rules, players):
    """Every play of a whole hand from a seeded deal, made on the board
    from the line before it, leaves the line the match simulator
    (:class:`solver.games.match.HandState`, which deals and scores the
    declarations itself) has after it: table, hands, stock, turn, score,
    piles, last capturer, tops, declarations; and the hand's end the same
    final score."""
    from solver.games.match import HandState, deal_hand
    from solver.rules import PRESETS
    r = (PRESETS["french"].with_overrides({"voleur": "yes"}) if rules == "voleur"
         else PRESETS[rules])
    for seed in range(3):
        rng = random.Random(seed)
        table, stock = deal_hand(r, players, rng)
        hs = HandState(r, players, 0, table, stock=stock)
        hs.deal()
        line = format_position(hs.full_position())
        deals = 0
        while True:
            card = rng.choice(hs.legal_cards())
            out, stopped = play_line(line, [str(card)])
            assert stopped is None, (line, card, stopped)
            ev = hs.play(card)
            assert out[0]["effect"]
            if hs.finished:
                assert out[0]["line"] is None
                assert list(out[0]["board"]["score"].values()) == hs.score
                assert list(out[0]["board"]["piles"].values()) == [len(p) for p in hs.piles]
                break
            if hs.awaiting_deal:
                hs.deal()
                deals += 1
            got, want = parse_position(out[0]["line"]), hs.full_position()
            assert [str(c) for c in got.table] == [str(c) for c in want.table]
            assert got.hands == want.hands and got.stock == want.stock
            assert (got.turn, got.scores(), got.taken, got.last) == \
                   (want.turn, want.scores(), want.taken, want.last), (line, card, ev)
            assert got.tops == want.tops and got.declared == want.declared
            assert sorted(map(str, got.gone)) == sorted(map(str, want.gone))
            line = out[0]["line"]
        assert deals == len(hs.sizes) - 1


def _core_child(line):
    """The core's child of the line's first card (the exact problem, no
    piles tracked unless the rules need them) and the problem."""
    from solver.engine import core
    from solver.engine.compile import known_problem
    pos = parse_position(line)
    prob = known_problem(pos)
    r = pos.hands[pos.turn][0].index
    child, _gain, ev = core.play(prob.P, prob.D, prob.st, r)
    assert ev & core.EV_DEAL
    return prob, tuple(int(v) for v in child)


@pytest.mark.parametrize("line", [LMODIRE, VOLEUR, FOUR])
def test_the_line_after_a_deal_has_the_values_of_the_cores_dealt_child(line):
    """Two sides: each play of the dealt line, searched exactly as
    ``ronda-solve`` does, has the value the core's search gives that play
    from the dealt child of the position before."""
    from solver.analysis.evaluation import evaluate
    from solver.engine.compile import pile_margin
    from solver.search.compiled import Searcher
    prob, child = _core_child(line)
    raw = Searcher(prob.P, prob.D, 16.0).root_values(child)
    after = _next_deal(line)["line"]
    pos = parse_position(after)
    a = evaluate(pos, "exact", time_budget=60)
    assert {m.rank: m.value for m in a.moves} == \
        {m: (v + pile_margin(pos)) / 2 for m, v in raw.items()}


def test_three_players_line_after_a_deal_has_the_cores_vectors():
    from solver.analysis.evaluation import evaluate
    from solver.search.vectors import VectorSearcher
    prob, child = _core_child(THREE)
    want = VectorSearcher(prob.P, prob.D, 16.0).root_values(child)
    after = _next_deal(THREE)["line"]
    assert "declared=" in after
    a = evaluate(parse_position(after), "exact", time_budget=60)
    assert {m.rank: tuple(m.values) for m in a.moves} == \
        {m: tuple(float(x) for x in v) for m, v in want.items()}


def test_the_whole_hand_example_steps_its_principal_variation_to_the_end():
    """The shipped "whole hand, known stock" example: its principal
    variation (as the command line gives it) is played on the board over
    every deal to the hand's end, whose final score is the line's value."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from solver.web.app import Config, create_app
    line = ("3.6.10.12 1.5.5/2.7.11 4.12.1.6.2.7.3.11.10.4.5.1.2.6.12.7.3.11.10.4.5.1.2.6."
            "12.7.3.11.10.4 S")
    pv = ["1", "2", "5", "11", "5", "7", "1", "7", "4", "2", "12", "6", "3", "1", "10", "5",
          "11", "4", "2", "3", "6", "7", "12", "11", "10", "2", "4", "6", "5", "1", "3", "4",
          "7", "10", "12", "11"]
    with TestClient(create_app(Config(searches=1, queue=2, time=10))) as client:
        doc = client.post("/api/play", json={"line": line, "moves": pv}).json()
    assert doc["stopped"] is None and len(doc["plays"]) == 36
    assert [p["line"] is None for p in doc["plays"]] == [False] * 35 + [True]
    assert doc["plays"][-1]["over"] == "the hand is over: the final score S 0, N 8"


@pytest.mark.parametrize("rules,players", [("lmodire", 2), ("french", 2), ("french", 3),
                                           ("pagat", 4)])
def test_the_board_ends_the_match_where_the_match_simulator_does(rules, players):
    """Hands played near the target: with ``win_check = immediate``
    (lmodire, pagat) the board's play that makes a side reach the target
    (by its points, or by the next deal's declarations) ends the match
    there, with the simulator's winner and score; with ``end_of_hand``
    (french) the hand is played out and its end names the winner."""
    from solver.games.match import HandState, deal_hand
    from solver.position import side_names
    from solver.rules import PRESETS
    r = PRESETS[rules]
    target = r.target
    early = 0
    for seed in range(12):
        rng = random.Random(100 + seed)
        table, stock = deal_hand(r, players, rng)
        nsides = 2 if players == 4 else players
        score = [target - 1 - rng.randrange(4) for _ in range(nsides)]
        hs = HandState(r, players, 0, table, stock=stock, score=list(score), target=target)
        hs.deal()
        if hs.finished:
            continue                # the declarations of the first deal won it
        line = format_position(hs.full_position())
        while True:
            card = rng.choice(hs.legal_cards())
            out, stopped = play_line(line, [str(card)])
            assert stopped is None, (line, card, stopped)
            hs.play(card)
            if not hs.finished and hs.awaiting_deal:
                hs.deal()
            if hs.finished:
                step = out[0]
                assert step["line"] is None, (line, card)
                assert list(step["board"]["score"].values()) == hs.score
                if hs.winner is not None:
                    assert f"{side_names(players)[hs.winner]} " in step["over"]
                    assert "wins the match" in step["over"], step["over"]
                else:
                    assert "wins the match" not in step["over"], step["over"]
                early += any(h for h in hs.hands)
                break
            assert out[0]["over"] is None, (line, card, out[0]["over"])
            line = out[0]["line"]
    if r.win_check == "immediate":
        assert early > 0            # some match ended with cards still in hand


def test_an_immediate_win_scores_nothing_after_the_winning_points():
    """The match simulator stops scoring the moment a side reaches the
    target: a hit that wins on a deal's last card deals no next deal (its
    declarations unscored), and one that wins on the hand's last card
    leaves the sweep and the card count unscored."""
    # N's hit takes it to 41; the next deal would give S a Tringa (5)
    out, stopped = play_line("3.6.10.5 -/5 4.4.4.2.2.7 N prev=5 taken=14,15 last=S "
                             "score=40,40", ["5"])
    assert stopped is None
    assert out[0]["over"] == ("N reaches the target 41 and wins the match: "
                              "the score S 40, N 41")
    assert out[0]["board"]["score"] == {"S": 40, "N": 41}
    # S's hit on the last card takes it to 41; N's 23 cards would count 3
    out, stopped = play_line("1.7 7.7.2/7.12 - S prev=7 taken=10,23 last=N score=39,30",
                             ["7", "12", "2", "7", "7"])
    assert stopped is None
    assert out[-1]["over"] == ("S reaches the target 41 and wins the match: "
                               "the score S 41, N 30")
    assert out[-1]["board"]["piles"] == {"S": 14, "N": 23}


def test_a_match_already_won_is_not_played_on():
    """With win_check immediate a line whose score already has a winner
    (a side at or over the target, ahead) is a finished match, as the
    analysis says: the board refuses its plays instead of announcing the
    win again at the next point; equal totals at the target play on."""
    out, stopped = play_line("3.6.10 1.5.12/2.2.11 4.4.4.7.7.7 S score=45,39 taken=12,13 "
                             "last=S", ["5", "2"])
    assert out == []
    assert stopped == "play: the score S 45, N 39 is at or over the target 41: the match is over"
    out, stopped = play_line("3.6.10 1.5.12/2.2.11 4.4.4.7.7.7 S rules=pagat score=41,41 "
                             "taken=12,13 last=S", ["5"])
    assert stopped is None and out[0]["over"] is None
    # end_of_hand: a side over the target plays the hand out
    out, stopped = play_line("3.6.10 1.5.12/2.2.11 4.4.4.7.7.7 S rules=french score=55,39 "
                             "taken=12,13 last=S", ["5"])
    assert stopped is None and out[0]["over"] is None


def test_an_immediate_win_counts_the_plays_points_one_event_at_a_time():
    """The simulator awards a play's points event by event (the capture
    point, the hit, the answers, the missa) and stops at the one that wins:
    French scoring with win_check immediate, N at 50 of 51 hits: the
    capture point wins; the hit's point and the next deal's contested
    Rondas are not scored (was N 54)."""
    line = ("3.6.10.5 -/5 1.1.4.2.2.7 N rules=french win_check=immediate prev=5 taken=14,15 "
            "last=S score=40,50")
    out, stopped = play_line(line, ["5"])
    assert stopped is None and out[0]["effect"] == "x5.5.6 +1 capture +1 hit"
    assert out[0]["over"] == ("N reaches the target 51 and wins the match: "
                              "the score S 40, N 51")
