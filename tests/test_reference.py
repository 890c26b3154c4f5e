"""Hand-computed checks of the reference implementation (tests/reference.py)
on RULES.md's own worked examples.

Every value test is a tiny position at the end of a hand; the expected value
is worked out by hand in the comment above it. Piles in ``taken`` are chosen
so that the 40 cards add up (taken + table + hands + stock = 40) unless the
test says otherwise; "S 23 -> 3" means S's final pile holds 23 cards and the
card count gives it 3 points.
"""

import dataclasses

import pytest

from solver.rules import PRESETS

try:
    from tests.reference import (best_declaration, declaration_points,
                                 reference_events, reference_value,
                                 table_cards_captured)
except ImportError:  # tests/ is not a package: pytest puts it on sys.path
    from reference import (best_declaration, declaration_points,
                           reference_events, reference_value,
                           table_cards_captured)

LMODIRE = PRESETS["lmodire"]
PAGAT = PRESETS["pagat"]
MOD = PRESETS["mod"]
FRENCH = PRESETS["french"]
FRENCH_ADJ = dataclasses.replace(FRENCH, seven_ten_adjacent=True)


def value(rules, table, hands, stock=(), turn=0, leader=0, **kw):
    return reference_value(rules, list(table), [list(h) for h in hands],
                           list(stock), turn, leader, **kw)


# ---------------------------------------------------------------- captures

def test_run_example_events():
    # Table 4 5 6 7 10 12, play 5: take 5 5 6 7 10; 4 and 12 stay.
    ev = reference_events(LMODIRE, [4, 5, 6, 7, 10, 12], None, None, 5, False)
    assert ev["kind"] == "capture"
    assert sorted(ev["from_table"] + [5]) == [5, 5, 6, 7, 10]
    assert sorted(ev["table"]) == [4, 12]
    assert ev["points"] == 0 and not ev["missa"] and not ev["hit"]


def test_run_example_value():
    # lmodire, table 4 5 6 7 10 12, S [5], N [3], taken 16/16.
    # S 5 takes 5 5 6 7 10 (5 cards, S 21); table 4 12, no missa.
    # N 3 stays (last card). Sweep 4 12 3 to S: S 24 -> 4. N 16 -> 0.
    # Value for S: 4.
    v, moves = value(LMODIRE, [4, 5, 6, 7, 10, 12], [[5], [3]],
                     taken=(16, 16))
    assert v == 4 and moves == {5: 4}


def test_free_table_example():
    # mod (free table), table 4 5 5 6, play 4: take 4 4 5 5 6.
    assert sorted(table_cards_captured(MOD, [4, 5, 5, 6], 4) + [4]) == [4, 4, 5, 5, 6]
    # Value: S [4], N [1], taken 17/17. S takes 5 cards and clears the
    # table: missa 1 (not the last card). N 1 stays, last card; sweep 1 to S.
    # S 17+5+1 = 23 -> 3. Value for S: 1 + 3 = 4.
    v, moves = value(MOD, [4, 5, 5, 6], [[4], [1]], taken=(17, 17))
    assert v == 4 and moves == {4: 4}


def test_seven_ten_seed_000_example():
    # Table 2 7 10 11, play 7. French (7-10 not adjacent): only the 7s.
    assert table_cards_captured(FRENCH, [2, 7, 10, 11], 7) == [7]
    # Adjacent: 7 10 11.
    assert table_cards_captured(FRENCH_ADJ, [2, 7, 10, 11], 7) == [7, 10, 11]
    assert table_cards_captured(LMODIRE, [2, 7, 10, 11], 7) == [7, 10, 11]


def test_seven_ten_value_french():
    # french, table 2 7 10 11, S [7], N [10], taken 17/17.
    # S 7 takes 7 7 (capture 1, S 19); table 2 10 11.
    # N 10 takes 10 10 11 (capture 1, N 20), table 2; not a hit (S's card
    # did not stay), not a missa. Last capture N: sweep 2 (N 21 -> 1) and
    # last-capture bonus 1. S: 1. N: 1 + 1 + 1 = 3. Value for S: -2.
    v, _ = value(FRENCH, [2, 7, 10, 11], [[7], [10]], taken=(17, 17))
    assert v == -2


def test_seven_ten_value_adjacent():
    # Same with 7-10 adjacent: S 7 takes 7 7 10 11 (capture 1, S 21),
    # table 2. N 10 stays (last card). Sweep 2 10 to S (S 23 -> 3) + bonus 1.
    # S: 1 + 1 + 3 = 5. Value for S: 5.
    v, _ = value(FRENCH_ADJ, [2, 7, 10, 11], [[7], [10]], taken=(17, 17))
    assert v == 5


# -------------------------------------------------------------------- hits

def test_hit_worth_one():
    # lmodire, table 1 5, S [3], N [3], taken 18/18.
    # S 3 stays. N 3 hits: takes 3 3 (hit 1, N 20); table 1 5: no missa.
    # Sweep 1 5 to N: N 22 -> 2. N: 1 + 2 = 3. Value for S: -3.
    v, _ = value(LMODIRE, [1, 5], [[3], [3]], taken=(18, 18))
    assert v == -3
    # Same from N's turn with S's 3 just left (prev = 3): +3 for N.
    v, moves = value(LMODIRE, [1, 5, 3], [[], [3]], turn=1, prev=3,
                     taken=(18, 18))
    assert v == 3 and moves == {3: 3}
    # Without prev (the 3 was not just left by the previous player): an
    # ordinary capture, N 22 -> 2 only. Value for N: 2.
    v, _ = value(LMODIRE, [1, 5, 3], [[], [3]], turn=1, prev=None,
                 taken=(18, 18))
    assert v == 2


def test_hit_events():
    ev = reference_events(LMODIRE, [1, 5, 3], 3, None, 3, False)
    assert ev["kind"] == "hit" and ev["points"] == 1 and ev["show"] == (3, 2)
    # French: hits without answers, nothing on show.
    ev = reference_events(FRENCH, [1, 5, 3], 3, None, 3, False)
    assert ev["kind"] == "hit" and ev["points"] == 2 and ev["show"] is None


def test_answer_for_5():
    # lmodire, N has just hit 4 (show (4, 2), N's last capture), table 6,
    # S [4], N [1], taken 18/19 (N's 19 include the two shown 4s).
    # S 4 answers: +5, takes 2 shown + own (S 21, N 17); table 6 unchanged.
    # N 1 stays (last card). Sweep 6 1 to S (the answer is the last
    # capture): S 23 -> 3. Value for S: 5 + 3 = 8.
    v, moves = value(LMODIRE, [6], [[4], [1]], show=(4, 2), last_side=1,
                     taken=(18, 19))
    assert v == 8 and moves == {4: 8}


def test_answer_for_10():
    # lmodire, S has just answered for 5 (show (4, 3) owned by S), N to move,
    # table 6, S [1], N [4], taken 20/17.
    # N 4 answers for 10: +10, takes 3 + own (N 21, S 17). S 1 stays (last
    # card). Sweep 6 1 to N: N 23 -> 3. Value for N: 10 + 3 = 13.
    v, moves = value(LMODIRE, [6], [[1], [4]], turn=1, show=(4, 3),
                     last_side=0, taken=(20, 17))
    assert v == 13 and moves == {4: 13}


def test_hit_and_answers_two_players():
    # lmodire, table 6, S [3 3], N [3 3], taken 18/17, all forced.
    # S 3 stays. N hits +1 (N 19). S answers for 5: +5 (S 21, N 17).
    # N answers for 10: +10 (N 21, S 18). Sweep 6 to N: N 22 -> 2.
    # N: 1 + 10 + 2 = 13; S: 5. Value for S: -8.
    v, _ = value(LMODIRE, [6], [[3, 3], [3, 3]], taken=(18, 17))
    assert v == -8


def test_french_third_card_stays_and_fourth_hits():
    # french (hit = (1,)), same position. S 3 stays. N hits: capture 1 +
    # hit 1 (N 19). S 3 stays (no answers). N 3 hits it: 2 more (N 21);
    # table 6, last card, no missa. Sweep 6 to N + bonus 1: N 22 -> 2.
    # N: 2 + 2 + 1 + 2 = 7. Value for S: -7.
    v, _ = value(FRENCH, [6], [[3, 3], [3, 3]], taken=(18, 17))
    assert v == -7


def test_answers_four_players():
    # pagat 4 players, table 6, S E N W each [4], taken 18/17.
    # S 4 stays. E hits +1 (side 1: 19). N answers for 5 +5 (side 0: 21,
    # side 1: 17). W answers for 10 +10 (side 1: 21, side 0: 18). Sweep 6
    # to side 1: 22 -> 2. Side 1: 1 + 10 + 2 = 13; side 0: 5. Value: -8.
    v, _ = value(PAGAT, [6], [[4], [4], [4], [4]], taken=(18, 17))
    assert v == -8


def test_partner_card_is_not_hit():
    # pagat 4 players, table 6, S [4], E [1], N [4], W [2], taken 18/17.
    # S 4 stays, E 1 stays, N 4 takes 4 4: ordinary capture (the 4 was
    # played two seats earlier), side 0: 20; table 6 1. W 2 stays (last).
    # Sweep 6 1 2 to side 0: 23 -> 3. Value for S: 3.
    v, _ = value(PAGAT, [6], [[4], [1], [4], [2]], taken=(18, 17))
    assert v == 3


def test_no_carry_of_a_hit_across_a_deal():
    # lmodire, table 6 4 (S's 4 just left), S [], N [4], stock
    # 4 1 2 | 10 11 12 (the last deal), leader S, taken 16/15.
    # N 4 hits +1 (N 17), table 6. New deal: S 4 1 2, N 10 11 12, no
    # declarations. S's 4 cannot answer across the deal; no card can ever
    # capture again. Sweep 6 4 1 2 10 11 12 (7) to N: N 24 -> 4.
    # Value for N: 1 + 4 = 5.
    v, moves = value(LMODIRE, [6, 4], [[], [4]], stock=[4, 1, 2, 10, 11, 12],
                     turn=1, leader=0, prev=4, taken=(16, 15))
    assert v == 5 and moves == {4: 5}


def test_no_hit_of_the_last_card_of_previous_deal():
    # lmodire, table 6, S [], N [3], stock 3 1 2 | 10 11 12, taken 16/16.
    # N 3 stays (last card of the deal). S gets 3 1 2: its 3 takes 3 3 as
    # an ordinary capture (never a hit across the deal), whenever played.
    # Nothing else captures; 6 stays, so no missa. Sweep 6 1 2 10 11 12 to
    # S: 16 + 2 + 6 = 24 -> 4. Value for N: -4.
    v, moves = value(LMODIRE, [6], [[], [3]], stock=[3, 1, 2, 10, 11, 12],
                     turn=1, leader=0, taken=(16, 16))
    assert v == -4 and moves == {3: -4}


# ------------------------------------------------------------------- missa

def test_missa():
    # lmodire, table 3, S [3], N [5], taken 19/18.
    # S 3 takes 3 3 and clears the table, not the last card: missa 1 (S 21).
    # N 5 stays. Sweep 5 to S: 22 -> 2. Value for S: 1 + 2 = 3.
    v, _ = value(LMODIRE, [3], [[3], [5]], taken=(19, 18))
    assert v == 3


@pytest.mark.parametrize("rules, expected", [
    # lmodire: no missa on the last card. N 22 -> 2. Value for S: -2.
    (LMODIRE, -2),
    # mod: missa counts: 1 + 2. Value for S: -3.
    (MOD, -3),
])
def test_missa_on_last_card(rules, expected):
    # Table 2, S [3], N [2], taken 18/19. S 3 stays (table 2 3). N 2 takes
    # 2 2 3 (a run started by a lower card: not a hit), clearing the table
    # with the very last card of the hand. N 19 + 3 = 22.
    v, _ = value(rules, [2], [[3], [2]], taken=(18, 19))
    assert v == expected


@pytest.mark.parametrize("rules, expected", [
    # lmodire: the hit counts on the last card, the missa does not:
    # 1 + card count (N 21 -> 1) = 2.
    (LMODIRE, -2),
    # mod: hit 1 + missa 1 + 1 = 3.
    (MOD, -3),
    # french (seed 000): capture 1 + hit 1 + missa 1 = 3, then the sweep of
    # the empty table still gives the bonus 1, and 21 -> 1: 5.
    (FRENCH, -5),
])
def test_hit_clearing_the_table(rules, expected):
    # Empty table, S [3], N [3], taken 19/19. S 3 stays; N 3 hits it and
    # clears the table with the last card (N 21).
    v, _ = value(rules, [], [[3], [3]], taken=(19, 19))
    assert v == expected


def test_seed_000_hit_clearing_scores_3_events():
    ev = reference_events(FRENCH, [3], 3, None, 3, False)
    assert ev["hit"] and ev["missa"] and ev["points"] == 3


# -------------------------------------------------------------- card count

@pytest.mark.parametrize("taken, last_side, expected", [
    # Nobody captured: table 1 2 belongs to nobody. S 25 -> 5.
    ((25, 13), None, 5),
    # The table goes to N: N 15 -> 0, S 25 -> 5.
    ((25, 13), 1, 5),
    # The table goes to S: 27 -> 7.
    ((25, 13), 0, 7),
    # The table 1 2 goes to N: 20 and 20, nobody.
    ((20, 18), 1, 0),
    # N 25 -> 5.
    ((13, 25), None, -5),
    # Not 40 cards: 15 and 10 score nothing (the "own - 20" shortcut would
    # say -5).
    ((15, 10), None, 0),
])
def test_card_count(taken, last_side, expected):
    # lmodire, empty table, S [1], N [2]: no capture possible.
    v, _ = value(LMODIRE, [], [[1], [2]], last_side=last_side, taken=taken)
    assert v == expected


def test_last_capture_bonus_on_empty_table():
    # french, hand over, table empty, S made the last capture, 20/20:
    # bonus 1 for S only.
    v, moves = value(FRENCH, [], [[], []], last_side=0, taken=(20, 20))
    assert v == 1 and moves == {}
    # Nobody captured: no bonus.
    v, _ = value(FRENCH, [], [[], []], last_side=None, taken=(20, 20))
    assert v == 0


# ------------------------------------------------------------ declarations

def test_best_declaration():
    assert best_declaration(LMODIRE, [5, 5, 1]) == (1, 5)
    assert best_declaration(LMODIRE, [5, 5, 5]) == (2, 5)
    assert best_declaration(FRENCH, [5, 5, 5]) == (1, 5)
    assert best_declaration(LMODIRE, [1, 2, 3]) is None
    assert best_declaration(MOD, [5, 5, 5]) is None
    # Four-card hands (french 4-player first deal).
    assert best_declaration(FRENCH, [5, 5, 5, 5]) == (1, 5)
    assert best_declaration(PAGAT, [5, 5, 5, 5]) == (2, 5)
    assert best_declaration(FRENCH, [3, 3, 7, 7]) == (1, 7)
    assert best_declaration(PAGAT, [12, 12, 1, 1]) == (1, 12)
    assert best_declaration(PAGAT, [1, 1, 1, 12]) == (2, 1)


def test_declaration_points():
    # lmodire: same Ronda on both sides -> nobody.
    assert declaration_points(LMODIRE, [[5, 5, 1], [5, 5, 12]]) == [0, 0]
    # pagat: split, rounded up: Ronda 1 -> 1 each.
    assert declaration_points(PAGAT, [[5, 5, 1], [5, 5, 12]]) == [1, 1]
    # pagat: Tringa tie (synthetic hands) -> ceil(5/2) = 3 each.
    assert declaration_points(PAGAT, [[5, 5, 5], [5, 5, 5]]) == [3, 3]
    assert declaration_points(LMODIRE, [[5, 5, 5], [5, 5, 5]]) == [0, 0]
    # Tringa beats a higher Ronda; higher rank wins (12 > 1, ace low).
    assert declaration_points(LMODIRE, [[5, 5, 5], [12, 12, 1]]) == [5, 0]
    assert declaration_points(LMODIRE, [[1, 1, 3], [12, 12, 4]]) == [0, 1]
    # french: the higher Ronda takes 2 when the other side declared too...
    assert declaration_points(FRENCH, [[5, 5, 1], [7, 7, 2]]) == [0, 2]
    # ...its own value 1 when it alone declared; same rank: nobody.
    assert declaration_points(FRENCH, [[5, 5, 1], [7, 2, 3]]) == [1, 0]
    assert declaration_points(FRENCH, [[7, 7, 1], [7, 7, 2]]) == [0, 0]
    # mod: no declarations.
    assert declaration_points(MOD, [[5, 5, 5], [7, 7, 1]]) == [0, 0]
    # Four players: partners tying count once; opponents follow the tie rule.
    assert declaration_points(PAGAT, [[5, 5, 1], [2, 3, 4], [5, 5, 6], [1, 2, 3]]) == [1, 0]
    assert declaration_points(PAGAT, [[5, 5, 1], [5, 5, 2], [3, 3, 4], [1, 6, 7]]) == [1, 1]
    # A lower declaration of the partner does not matter.
    assert declaration_points(FRENCH, [[1, 2, 3, 4], [7, 7, 1, 2], [5, 5, 5, 5], [10, 11, 12, 1]]) == [0, 2]


def test_declarations_of_current_hands_do_not_count():
    # lmodire, table 1, S [5 5 5], N [7 7 7] already dealt, empty stock,
    # taken 17/16. Play is forced: S 5 stays, N 7 stays, S 5 takes 5 5
    # (prev was 7: no hit; S 19), N 7 takes 7 7 (N 18), S 5 and N 7 stay.
    # Sweep 1 5 7 to N: 21 -> 1. Value for S: -1.
    v, _ = value(LMODIRE, [1], [[5, 5, 5], [7, 7, 7]], taken=(17, 16))
    assert v == -1


@pytest.mark.parametrize("rules, expected", [
    # lmodire: N's Tringa of 7 beats S's Tringa of 5: N 5, plus the card
    # count above (1): -6.
    (LMODIRE, -6),
    (PAGAT, -6),
    # mod: no declarations: -1.
    (MOD, -1),
    # french: both are Rondas (tringa 0), N's higher takes 2. Play: S's
    # capture 1, N's capture 1, N's last-capture bonus 1, N 21 -> 1.
    # S: 1. N: 2 + 1 + 1 + 1 = 5. Value for S: -4.
    (FRENCH, -4),
])
def test_declaration_from_the_stock(rules, expected):
    # Same position, but the hands are still the last deal of the stock.
    v, moves = value(rules, [1], [[], []], stock=[5, 5, 5, 7, 7, 7],
                     turn=0, leader=0, taken=(17, 16))
    assert v == expected and moves == {5: expected}


@pytest.mark.parametrize("rules", [LMODIRE, PAGAT, MOD])
def test_tied_declaration_value(rules):
    # Table 10 11, stock 5 5 1 | 5 5 12 (last deal): S [5 5 1], N [5 5 12],
    # taken 16/16. Both hold a Ronda of 5: lmodire nobody; pagat 1 each
    # (no difference); mod no declarations. Only 5s ever capture (10 11 1
    # 12 never), the table never clears (10 11 stay): no missa.
    # Minimax by hand (values for S):
    #  S 1 first: N answers with 12, then S 5 stays, N hits +1, S answers
    #    +5, N answers +10, N sweeps 10 11 1 12: N 24 -> 4: 5 - 15 = -10.
    #    (N 5 instead: S hits, N then 12 is best: -2; so N plays 12.)
    #  S 5 first:
    #    N hits (+1): S answering with 5 lets N answer for 10 (-10), so
    #      S plays 1; N then plays 12 (S 5 stays, N hits it with the last
    #      card +1, sweeps 4: N 24 -> 4): -6. (N 5 instead: S hits: +2.)
    #    N 12 instead: S 5 takes 5 5 (ordinary), N's 5 stays, S 1, N's
    #      last 5 takes 5 5 (ordinary) and sweeps 4: N 22 -> 2: -2.
    #    So N hits: -6.
    #  Value -6 (S leads a 5), dict {5: -6, 1: -10}.
    v, moves = value(rules, [10, 11], [[], []], stock=[5, 5, 1, 5, 5, 12],
                     turn=0, leader=0, taken=(16, 16))
    assert v == -6 and moves == {5: -6, 1: -10}
