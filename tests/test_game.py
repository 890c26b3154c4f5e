"""The compiled engine's play (:class:`solver.engine.hand.Hand`) on the
rules' own worked examples (RULES.md and the seeds), each value worked
out by hand in the comment; the scoring helpers of solver.engine.scoring."""

from __future__ import annotations

import pytest

from solver.cards import RANK_INDEX
from solver.engine.hand import PREV, SEAT, Hand as Game
from solver.engine.scoring import (EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_DEAL, EV_END,
                                   EV_HIT, EV_MISSA, declaration_points, event_names,
                                   ranks_of)
from solver.rules import PRESETS, deal_sizes, stock_sizes


def idx(*ranks):
    return [RANK_INDEX[r] for r in ranks]


def ranks(cardset):
    from solver.cards import RANKS
    return [RANKS[i] for i in ranks_of(cardset)]


def play(preset, table, hands, move, stock=(), turn=0, prev=None, show=None, last=-1):
    game = Game(PRESETS[preset], len(hands), 0, idx(*stock))
    state = game.initial_state(idx(*table), [idx(*h) for h in hands], turn,
                               -1 if prev is None else RANK_INDEX[prev],
                               0 if show is None else RANK_INDEX[show[0]] * 4 + show[1],
                               last)
    return game.play(state, RANK_INDEX[move])


def test_run_upward_from_the_played_rank():
    # RULES.md: table 4 5 6 7 10 12, play 5: take 5 5 6 7 10; 4 and 12 stay.
    # 5 cards won = 5 half-points, no points.
    child, gain, ev = play("lmodire", [4, 5, 6, 7, 10, 12], [[5, 1], [2, 3]], 5)
    assert ranks(child[0]) == [4, 12]
    assert (gain, ev) == (5, EV_CAPTURE)


def test_free_table_takes_every_copy_along_the_run():
    # RULES.md: table 4 5 5 6, play 4: take 4 4 5 5 6 and clear the table:
    # 5 cards + a missa (1 point = 2 half-points) = 7.
    child, gain, ev = play("mod", [4, 5, 5, 6], [[4, 1], [2, 3]], 4)
    assert child[0] == 0
    assert gain == 7 and ev == EV_CAPTURE | EV_MISSA


@pytest.mark.parametrize("preset,left", [("french", [2, 10, 11]), ("lmodire", [2])])
def test_seven_and_ten(preset, left):
    # Seed 000: table 2 7 10 11, play 7: only the two 7s (7 and 10 not
    # consecutive). Elsewhere 7 takes 7 10 11.
    child, _gain, _ev = play(preset, [2, 7, 10, 11], [[7, 1], [3, 4]], 7)
    assert ranks(child[0]) == left


def test_hit_then_answers_for_5_and_10():
    # S lays a 5; N hits it (+1, 2 cards); S answers with the third 5 (+5,
    # the 2 shown cards move from N's pile to S's, plus its own card);
    # N answers with the fourth (+10, 3 cards move back, plus its own).
    game = Game(PRESETS["lmodire"], 2, 0, [])
    s = game.initial_state(idx(1), [idx(5, 5, 2), idx(5, 5, 3)], 0)
    s, g, ev = game.play(s, RANK_INDEX[5])
    assert (g, ev) == (0, 0)
    s, g, ev = game.play(s, RANK_INDEX[5])
    assert ev == EV_CAPTURE | EV_HIT and g == 2 * 1 + 2
    s, g, ev = game.play(s, RANK_INDEX[5])
    assert ev == EV_CAPTURE | EV_ANSWER5 and g == 2 * 5 + 3 + 2
    s, g, ev = game.play(s, RANK_INDEX[5])
    assert ev == EV_CAPTURE | EV_ANSWER10 and g == 2 * 10 + 4 + 3
    assert ranks(s[0]) == [1]              # answers take nothing from the table


def test_no_answer_when_the_chance_has_passed():
    # N hit S's 5 but S plays a 2 instead: the show ends; the third 5 later
    # is an ordinary lone card.
    game = Game(PRESETS["lmodire"], 2, 0, [])
    s = game.initial_state(idx(1), [idx(5, 2, 5), idx(5, 3, 4)], 0)
    for card in (5, 5, 2, 3):
        s, _g, _ev = game.play(s, RANK_INDEX[card])
    s, g, ev = game.play(s, RANK_INDEX[5])
    assert (g, ev) == (0, 0)


def test_french_hit_that_clears_the_table_scores_three():
    # Seed 000: capture 1 + hit 1 + missa 1 = 3 points, 2 cards won.
    _child, gain, ev = play("french", [5], [[1, 2], [5, 3]], 5, turn=1, prev=5)
    assert ev == EV_CAPTURE | EV_HIT | EV_MISSA
    assert gain == 2 * 3 + 2


def test_a_hit_only_on_the_previous_seat():
    # Four players: S lays a 5, E lays a 2, N takes the 5 with its 5: the
    # card was played two seats before, an ordinary capture (2 cards, no
    # points).
    game = Game(PRESETS["pagat"], 4, 0, [])
    s = game.initial_state(idx(1), [idx(5, 3), idx(2, 4), idx(5, 6), idx(7, 10)], 0)
    s, _g, _ev = game.play(s, RANK_INDEX[5])
    s, _g, _ev = game.play(s, RANK_INDEX[2])
    s, gain, ev = game.play(s, RANK_INDEX[5])
    assert (gain, ev) == (2, EV_CAPTURE)


def test_missa_on_the_last_card():
    # lmodire: no missa on the very last card of the hand; mod: it counts.
    # The capture takes 2 cards either way.
    for preset, expected in (("lmodire", 2), ("mod", 2 + 2)):
        _child, gain, ev = play(preset, [5], [[5], []], 5, last=1)
        assert ev & EV_END
        assert gain == expected, preset


def test_end_of_hand_sweep_goes_to_the_last_capturer():
    # S lays a 3 as the last card; N captured last: N sweeps 3 and 7:
    # -2 half-points for S.
    _child, gain, ev = play("lmodire", [7], [[3], []], 3, last=1)
    assert ev == EV_END and gain == -2
    # french: the sweep and the last-capture bonus (1 point) go to N.
    _child, gain, ev = play("french", [7], [[3], []], 3, last=1)
    assert gain == -2 - 2


def test_declarations_of_the_next_deal_count():
    # After the last card of the deal, N is dealt 4 4 12 (a Ronda): 1 point
    # for N = -2 half-points for S, who played the last card (lays a 1).
    child, gain, ev = play("lmodire", [7], [[1], []], 1,
                           stock=[2, 3, 5, 4, 4, 12], last=1)
    assert ev == EV_DEAL and gain == -2
    assert child[SEAT] == 0 and child[PREV] == -1       # the leader; no carry-over


@pytest.mark.parametrize("preset,hands,expected", [
    ("lmodire", [[1, 1, 5], [3, 3, 3]], [0, 5]),      # Tringa beats Ronda
    ("lmodire", [[4, 4, 5], [4, 4, 6]], [0, 0]),      # same Ronda: nobody
    ("pagat", [[4, 4, 5], [4, 4, 6]], [1, 1]),        # split, rounded up
    ("lmodire", [[7, 7, 5], [10, 10, 6]], [0, 1]),    # higher rank wins
    ("french", [[1, 1, 5], [3, 3, 0]], [0, 2]),       # higher takes 2
    ("french", [[1, 1, 5], [2, 3, 0]], [1, 0]),       # alone: 1
    ("french", [[2, 2, 2], [1, 2, 3]], [1, 0]),       # three of a kind = Ronda
    ("mod", [[2, 2, 2], [1, 1, 3]], [0, 0]),          # no declarations
])
def test_declaration_points(preset, hands, expected):
    assert declaration_points(PRESETS[preset], hands, [0, 1]) == expected


def test_partners_tying_score_once():
    # pagat, four players: S and N both hold a Ronda of 6: side 0 scores 1.
    hands = [[5, 5, 1], [2, 3, 4], [5, 5, 0], [7, 8, 9]]
    assert declaration_points(PRESETS["pagat"], hands, [0, 1, 0, 1]) == [1, 0]


def test_deal_sizes():
    assert deal_sizes(PRESETS["pagat"], 4) == (3, 3, 3)
    assert deal_sizes(PRESETS["french"], 4) == (4, 3, 2)
    assert stock_sizes(PRESETS["lmodire"], 2)[30] == 1


def test_event_names():
    assert event_names(EV_CAPTURE | EV_HIT) == ["capture", "hit"]
    assert event_names(EV_ANSWER5 | EV_ANSWER10) == ["answer 5", "answer 10"]
