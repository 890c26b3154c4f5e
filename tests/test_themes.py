"""Theme predicates (solver/puzzles/themes.py), one test or more per theme, on
positions whose lines and values were worked out by hand (the values in the
comments), cross-checked with the plain reference (tests/reference.py)."""

from __future__ import annotations

import pytest

from solver.cards import RANK_INDEX, RANKS
from solver.engine.compile import pile_margin
from solver.notation import parse_position
from solver.puzzles.puzzle import idea_for
from solver.notation import format_position
from solver.puzzles.themes import (THEMES, answer5, answer10, avoid_hit, bait, declaration, hit,
                           missa, quiet, run, sweep, tag, takes_the_bait)

from test_puzzles import reference

R = RANK_INDEX


def idea(line: str):
    pos = parse_position(line)
    game, state, idea = idea_for(pos)
    # the lines' values are the engine's; the plain reference must agree
    base = pile_margin(pos)
    want = reference(format_position(pos))
    assert {RANKS[m]: (v + base) / 2 for m, v in idea.values.items()} == want
    return pos, idea


def points(pos, idea) -> dict[int, float]:
    """Root values in points, the piles' margin included (as reported)."""
    base = pile_margin(pos)
    return {m: (v + base) / 2 for m, v in idea.values.items()}


def test_every_theme_has_a_predicate_with_a_docstring():
    assert len(THEMES) >= 9
    for name, pred in THEMES.items():
        assert pred.__doc__, name


def test_hit_and_avoid_hit():
    # N just laid a 2. S 2 hits (+1, takes 2: no 3 on the table), N must lay
    # its 4, S hits it with the last card (+1) and sweeps the 1:
    # S 17+2+2+1 = 22 cards (+2), points +2: value +4.
    # S 4 instead: N hits it (+1), S takes the 2 and sweeps the 1:
    # 20 cards each, N +1: value -1.
    pos, i = idea("1.2 2.4/4 - S taken=17,18 last=N prev=2")
    assert points(pos, i) == {R[2]: 4.0, R[4]: -1.0}
    assert hit(i) and avoid_hit(i)
    assert tag(i) == ["hit", "avoid-hit"]


def test_taking_the_last_card_inside_a_run_is_no_hit():
    # N laid the 4; S's 3 takes 3 and the run 4: an ordinary capture.
    pos, i = idea("3.4 3.12/10 - S taken=17,18 last=N prev=4")
    assert i.key == R[3]
    assert not hit(i)
    assert missa(i)          # it clears the table


def test_answer5_and_bait():
    # S lays a 5; N hits (+1) taking 5.6; S answers with the other 5 (+5);
    # N takes the 10; S lays 1; N sweeps 3.12.1. S 17+3 = 20, N 14+3-2+2+3
    # = 20; points 5-1: value +4. S 1 first: value +1.
    pos, i = idea("3.6.10.12 1.5.5/5.10 - S taken=17,14 last=N")
    assert points(pos, i) == {R[5]: 4.0, R[1]: 1.0}
    assert answer5(i)
    # but N need not take the bait: taking the 10 instead is worth as much
    # to N (the reference's values of N's replies after S lays the 5)
    after = reference("3.5.6.10.12 1.5/5.10 - N taken=17,14 last=N prev=5")
    assert after == {5: -4.0, 10: -4.0}
    assert {RANKS[m]: (v - 3) / 2 for m, v in i.replies.items()} == after
    assert not bait(i)
    assert not avoid_hit(i) and not quiet(i) and not sweep(i)
    assert tag(i) == ["answer5"]


def test_answer5_from_a_pile_on_show_and_the_sweep():
    # N just hit the 5s; S's third 5 answers (+5) taking 3 cards (N -2),
    # then N 11 and S 12 are laid and S (last capture) sweeps 3.11.12:
    # S 17+3+3 = 23 (+3), value +8. S 12 first: the chance is gone, N
    # sweeps 4: S 17, N 23: value -3.
    pos, i = idea("3 5.12/11 - S show=5:2@N taken=17,19 last=N")
    assert points(pos, i) == {R[5]: 8.0, R[12]: -3.0}
    assert answer5(i) and sweep(i) and not answer10(i)
    assert tag(i) == ["answer5", "sweep"]


def test_answer10():
    # N answered S's hit; S holds the fourth 7: +10, 4 cards (N -3), and S
    # sweeps 1.4.12.2 at the end: S 25 (+5): value +15. S 2 first: N
    # sweeps 5 cards: S 17, N 23: value -3.
    pos, i = idea("1.4 7.2/12 - S show=7:3@N taken=17,18 last=N")
    assert points(pos, i) == {R[7]: 15.0, R[2]: -3.0}
    assert answer10(i) and not answer5(i) and not hit(i)
    assert tag(i) == ["answer10", "sweep"]


def test_missa_but_not_on_the_last_card():
    # S 6 takes 6.7 and clears the table (+1); N lays 1; S hits it with the
    # last card (+1, no missa on the last card): value +2. S 1 first: N hits
    # it (+1), S's 6 takes 6.7 on the last card (no missa): 18 v 22: -3.
    pos, i = idea("6.7 1.6/1 - S taken=15,20 last=N")
    assert points(pos, i) == {R[1]: -3.0, R[6]: 2.0}
    assert missa(i)
    assert tag(i) == ["missa", "avoid-hit"]
    # the very last card: lmodire counts no missa, mod does
    _pos, last = idea("6.7 6/- - S taken=18,19 last=N")
    assert not missa(last)
    _pos, last_mod = idea("6.7 6/- - S rules=mod taken=18,19 last=N")
    assert missa(last_mod)


def test_run_of_three():
    # S 2 takes 2.3.4 (no 5); S sweeps 6.3.1.7 at the end: 25 v 15: +5.
    # S 1 first: N's 3 takes 3.4, S's 2 the 2; S sweeps 3: 22 v 18: +2.
    pos, i = idea("2.3.4.6 1.2/3.7 - S taken=17,15 last=N")
    assert points(pos, i) == {R[1]: 2.0, R[2]: 5.0}
    assert run(i)
    assert tag(i) == ["run"]
    # two ranks are not a run of three
    _pos, two = idea("6.7 1.6/1 - S taken=15,20 last=N")
    assert not run(two)


def test_sweep_and_quiet():
    # S lays 7, N takes 11, S takes 1 with the last card and sweeps 3.7:
    # 24 v 16: +4. S 1 first: N takes 11, S lays 7, N sweeps 3.7: 22 v 18: +2.
    pos, i = idea("1.3.11 1.7/11 - S taken=20,14 last=N")
    assert points(pos, i) == {R[1]: 2.0, R[7]: 4.0}
    assert sweep(i) and quiet(i)
    assert i.pv.sweep_for(0) == 2 and i.lines[R[1]].sweep_for(1) == 2
    assert tag(i) == ["sweep", "quiet"]


def test_declaration():
    # S declared a Ronda of 7s, N of 11s. S lays a 7: N hits it (+1) taking
    # 7.10, S answers with the other 7 (+5); N takes its 11 back at the end
    # and sweeps 4.6.1: S 19, N 21: 5 - 1 - 1 = +3. S 1 first: 0.
    pos, i = idea("4.6.10 1.7.7/7.11.11 - S taken=16,15 last=S declared=S:ronda7,N:ronda11")
    assert points(pos, i) == {R[1]: 0.0, R[7]: 3.0}
    assert declaration(i)
    assert tag(i) == ["answer5", "bait", "declaration"]
    # the same cards without the declaration: not the theme
    _pos, plain = idea("4.6.10 1.7.7/7.11.11 - S taken=16,15 last=S")
    assert not declaration(plain)
    assert tag(plain) == ["answer5", "bait"]


def test_bait_needs_that_nobody_can_answer_the_answer():
    # N holds both other 5s: a 5 laid by S would be hit, answered, and the
    # answer answered for 10. Looked at as if S laid the 5 (key play forced
    # to 5), the predicate refuses it.
    _pos, i = idea("3.6.10.12 1.5.5/5.5 - S taken=16,15 last=N")
    assert i.key == R[1]
    i.order = [R[5], R[1]]
    assert not bait(i)
    # with one 7 in N's hand, and hitting N's one best reply, it is bait
    _pos, j = idea("4.6.10 1.7.7/7.11.11 - S taken=16,15 last=S")
    assert bait(j)


def test_bait_is_taken():
    # S lays a 7 (table 4.6.7.10): N's hit (+1, taking 7.10, then S answers
    # +5) is worth -2.5 to N, N's 11 -4.5 (half-points -5 and -9 from the
    # 15-16 piles: the reference's values, counted from N's side)
    _pos, i = idea("4.6.10 1.7.7/7.11.11 - S taken=16,15 last=S")
    after = reference("4.6.7.10 1.7/7.11.11 - N taken=16,15 last=S prev=7")
    assert {RANKS[m]: (v - 1) / 2 for m, v in i.replies.items()} == after
    assert after[7] > after[11]
    assert takes_the_bait(i)


def test_quiet_needs_a_capture_among_the_other_plays():
    # nothing captures: laying is not a quiet move
    _pos, i = idea("3.6.10.12 1.5.5/5.10 - S taken=17,14 last=N")
    assert not quiet(i)


@pytest.mark.parametrize("name", ["hit", "answer5", "answer10", "missa", "run", "bait",
                                  "declaration", "quiet"])
def test_predicates_are_false_on_a_plain_capture(name):
    # S's 2 takes the 2 (no 3 on the table), the 5 stays: no hit, answer,
    # missa, run, bait, declaration or quiet move in the key play.
    _pos, i = idea("2.5 2.11/12 - S taken=18,17 last=N")
    assert i.key == R[2]
    assert not THEMES[name](i)
