"""The explanation (solver/puzzles/explain.py): both lines, the best play's and the
strongest other play's, to the end of the hand, point by point. The points
of each line must add up to that play's exact value, which comes from the
independent reference (tests/reference.py) and from the compiled core."""

from __future__ import annotations

from copy import copy
from pathlib import Path

import pytest

from solver.analysis.evaluation import evaluate
from solver.cards import RANKS
from solver.engine.scoring import EV_END
from solver.puzzles.explain import line_tally
from solver.notation import parse_file, parse_position
from solver.puzzles.puzzle import examine, idea_for

from test_puzzles import reference

ROOT = Path(__file__).resolve().parent.parent
HIT = "1.2 2.4/4 - S taken=17,18 last=N prev=2"
BAIT = "3.6.10.12 1.5.5/5.10 - S taken=17,14 last=N"
SHOW = "3 5.12/11 - S show=5:2@N taken=17,19 last=N"
FOUR = "7.11 3/6/3.5/3.5 - N rules=pagat taken=23,9 last=E"
#: a deal to come whose hands give N a Ronda of 1s (two players) or of 6s
#: (three): the tally counts the new deal's declarations
DEAL2 = "10.5.2 10/11 1.1.4.7.6.6 S taken=15,14 last=N"
DEAL3 = "10.5.2 10.4/11.3/11.7 1.2.4.7.6.10.6.4.6 S rules=french taken=12,5,5 last=N"


def shipped() -> list:
    out = []
    for f in sorted((ROOT / "positions" / "puzzles").glob("*.txt")):
        out += [pos for _n, pos in parse_file(f.read_text())]
    return out


@pytest.mark.parametrize("line", [HIT, BAIT, SHOW, DEAL2])
def test_each_line_adds_up_to_the_reference_value(line):
    pos = parse_position(line)
    _g, _s, idea = idea_for(pos)
    ref = reference(line)
    for move in idea.order:
        assert line_tally(idea, move, pos).net(idea.side) == ref[RANKS[move]]


def test_three_player_lines_with_a_new_deal_add_up_seat_by_seat():
    """Each seat's tally along each line (its items, the new deal's
    declaration among them, and its cards over 20) is its entry of the
    plain max^n vector (tests/reference3.py); the text names the
    declaration."""
    import reference3 as R
    from test_threep_cli import ref_state
    pos = parse_position(DEAL3)
    _g, _s, idea = idea_for(pos)
    ref, _ = R.move_values(pos.rules, ref_state(pos))
    for move in idea.order:
        t = line_tally(idea, move, pos)
        assert [t.own(k) for k in range(3)] == ref[RANKS[move]]
    assert "new deal (declarations: N +1)" in examine(pos).explanation
    assert "N capture +1, hit +1, declaration +1" in examine(pos).explanation


def test_four_player_lines_add_up():
    pos = parse_position(FOUR)
    _g, _s, idea = idea_for(pos)
    a = evaluate(pos, method="exact")
    for mv in a.moves:
        assert line_tally(idea, mv.rank, pos).net(idea.side) == mv.value


def test_the_second_best_play_is_told_to_the_end():
    # hand-worked: after 4, N hits it (+1), S takes the 2, S sweeps the 4;
    # S 17 + 2 + 1 = 20 cards, N 18 + 2 = 20: even; value -1
    text = examine(parse_position(HIT)).explanation
    assert ("Next best 4 (-1, 5 less): it lays 4; then N hits S's 4 (+1), S plays 2, "
            "taking 2; S sweeps the last card. Points: cards S 20, N 20 (even); N hit +1: "
            "-1 for S.") in text
    # the best play: two hits and 22 cards against 18
    assert "Points: cards S 22, N 18 (S +2); S hit +1, hit +1: +4 for S." in text


def test_the_bait_line_goes_past_the_first_score():
    text = examine(parse_position(BAIT)).explanation
    best, second = text.split(" Next best ")
    # N's hit scores first for N; the line goes on to S's answer and the sweep
    assert "N hits S's 5 (+1), taking 6 with it, S answers with the third 5 (+5)" in best
    assert "N sweeps the last 3 cards" in best
    assert second.startswith("1 (+1, 3 less): it lays 1; N holds no 1 to hit it; then ")
    assert "S hits N's 5 (+1), taking 6 with it" in second and "N sweeps the last 4" in second


def bare(pos):
    out = copy(pos)
    out.ops = []
    return out


def test_shipped_explanations_tell_both_lines():
    puzzles = shipped()
    assert len(puzzles) > 100
    for pos in puzzles:
        c = pos.opcode("c")
        best_part, _sep, second = c.partition(" Next best ")
        assert second, c
        # what the second play does itself comes first, then its line, then its points
        assert second.split(": ", 1)[1].startswith("it "), c
        assert best_part.count("Points: ") == 1 and second.count("Points: ") == 1, c


def test_every_line_reaches_the_end_and_adds_up_on_the_shipped_sets():
    for pos in shipped():
        pos = bare(pos)
        _g, _s, idea = idea_for(pos)
        values = {mv.rank: mv.value for mv in evaluate(pos, method="exact").moves}
        for move in (idea.key, idea.runner_up):
            assert idea.lines[move].plies[-1].events & EV_END
            assert line_tally(idea, move, pos).net(idea.side) == values[move]


VOLEUR = "5 6.5/5 - S rules=french voleur=yes dealer=S taken=16,20 last=N tops=1,2"


def test_a_voleur_steal_is_told_and_counted():
    """Ronda voleur (docs/rules.md V2, V4, V6), by hand. 6: S lays 6, N's 5
    takes 5.6 (missa, capture; N's pile 20 + 3 = 23, top 5), S's 5 steals
    that pile (capture, no missa: the table is empty): S 16 + 23 + 1 = 40
    cards, N 0, +20 with the points even (S capture, last capture; N
    capture, missa). 5: S takes 5 (missa, capture; S's pile 18, top 5),
    N's 5 steals it, S lays 6 and N sweeps it: S 0, N 40, -20."""
    from solver.web.tasks import answer_puzzle
    pos = parse_position(VOLEUR)
    text = examine(pos).explanation
    assert ("then N plays 5, taking 5.6, clearing the table: missa (+1) (+1 capture), "
            "S plays 5, taking N's pile (23 cards, 5 on top) (+1 capture). Points: cards "
            "S 40, N 0 (S +20); S capture +1, last capture +1; N capture +1, missa +1: "
            "+20 for S.") in text
    assert ("Next best 5 (-20, 40 less): it takes 5, clearing the table: missa (+1) "
            "(+1 capture); then N plays 5, taking S's pile (18 cards, 5 on top) (+1 capture), "
            "S lays 6; N sweeps the last card. Points: cards S 0, N 40 (N +20); S capture +1, "
            "missa +1; N capture +1, last capture +1: -20 for S.") in text
    _g, _s, idea = idea_for(pos)
    values = {mv.move: mv.value for mv in evaluate(pos, method="exact").moves}
    assert values == {"6": 20, "5": -20}
    for move, piles in ((5, [40, 0]), (4, [0, 40])):     # rank indices of 6 and 5
        t = line_tally(idea, move, pos)
        assert t.piles == piles and t.net(idea.side) == values[str(RANKS[move])]
    doc = answer_puzzle(VOLEUR + " ; bm 6", "5")
    assert doc["right"] is False and doc["explanation"] == text
    assert "taking S's pile (18 cards, 5 on top)" in doc["played_line"]


def test_a_voleur_answer_takes_the_hitters_whole_pile():
    """V3, by hand: N's pile (19 cards) has the shown 5.5 on top; S's third
    5 answers (+5) and takes all 19: S 17 + 19 + 1 = 37, then sweeps the
    last 3 (3, 11, 12): 40 to 0, +20 + 5 = +25."""
    line = "3 5.12/11 - S rules=lmodire voleur=yes show=5:2@N taken=17,19 last=N tops=2,5"
    pos = parse_position(line)
    text = examine(pos).explanation
    assert text.startswith("Play 5: it answers with the third 5 (+5), taking N's pile "
                           "(19 cards, the 2 shown on top); then ")
    assert "Points: cards S 40, N 0 (S +20); S answer +5: +25 for S." in text
    _g, _s, idea = idea_for(pos)
    assert line_tally(idea, 4, pos).piles == [40, 0]
    assert {mv.move: mv.value for mv in evaluate(pos, method="exact").moves}["5"] == 25
