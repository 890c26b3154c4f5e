"""Tests of solver.notation: round trips, one test per error kind, and a
hypothesis property (random valid positions survive format -> parse)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import RANKS, SUITS, Card
from solver.notation import (
    NotationError,
    dumps,
    format_position,
    loads,
    parse_file,
    parse_position,
)
from solver.position import Declaration, Position, Show, n_sides, side_of
from solver.rules import PRESETS, deal_sizes, preset

FULL_STOCK = ".".join(f"{r}{s}" for s in "ceb" for r in RANKS)
GONE_26 = "2.2.2.2.3.3.3.3.4.4.4.4.5.5.5.6.6.6.7.7.7.10.10.10.11.12"

# ---------------------------------------------------------------------------
# Round trips of canonical lines.

CANONICAL = [
    # two players, start of a hand, the stock drawn from the rest
    "1.3.5.11 2.2.7/4.6.12 ? S",
    # suits kept, N to move after S led
    "1o.3c.5e.11b.6b 2b.2o/4e.6o.12c ? N",
    # a known stock in dealing order
    f"1o.3o.5o.11o 2o.4o.6o/7o.10o.12o {FULL_STOCK} S",
    # a shuffled stock, and an empty shuffled stock
    "1.3.5.11 2.2.7/4.6.12 ~12.1.10.2.3.11.4.5.6.7.10.1.12.3.2.11.4.5.6.7.10.1.12.3.11.4.5.6.7.10 N",
    "5 7/1 ~- S taken=20,17 last=N",
    # end of a hand, empty hand
    "5 -/1 - N taken=20,18 last=S",
    "5.7 7/1.2 - N taken=20,15 last=N prev=5",
    "5o.7 7/1.2 - N taken=20,15 last=N prev=5o",
    "5 7/1.2 - N taken=20,16 last=S show=7:2",
    "5 7/1.2 - N taken=20,16 last=S show=7:2@S",
    # three players (french)
    "1.2.3.4 5.5.6/7.10.11/12.12.1 ? S rules=french",
    "1.2.3.4.11 5.5.6/7.10/12.12.1 ? N rules=french dealer=S score=10,20,30",
    # four players (pagat: 3 a deal; french: 4 on the first deal)
    "1o.3.5.11 2.2.7/4.6.12/1.1.1/2.2.3 ? S rules=pagat",
    "1.2.3.4 5.5.6.6/7.7.10.10/11.11.12.12/1.2.3.4 ? S rules=french",
    # every key, '?' cards, opcodes with '#' and ';' inside quotes
    "5.6.7.10.11.12 1.?/?.?/?.?/?.? ? S rules=pagat target=21 hit=1,5 dealer=W "
    f"score=12,30 taken=14,12 last=W gone={GONE_26} declared=N:ronda,S:tringa1 "
    '; bm 1 ; id "puzzle #1; easy" ; c "a comment" ; v -1.5 ; zz free text',
    # overrides kept in the written order; an explicit empty gone
    "1.3.5.11 2.2.7/4.6.12 ? S missa_on_last_card=yes target=21 gone=-",
    "5 1.1/2.3.3 - N taken=20,14 last=S declared=N:ronda3,S:ronda1 ; bm 2 3 ; am 3 ; id \"\"",
    "5 1.2/3.4.6 - N taken=20,14 last=S ; opcode_2",
]


@pytest.mark.parametrize("line", CANONICAL)
def test_canonical_round_trip(line: str) -> None:
    pos = parse_position(line)
    assert format_position(pos) == line
    assert parse_position(format_position(pos)) == pos


def test_aliases() -> None:
    assert loads is parse_position
    assert dumps is format_position


def test_fields_are_filled() -> None:
    pos = parse_position(CANONICAL[14])
    assert pos.players == 4
    assert pos.hands[0] == [Card(1), None]
    assert pos.stock_kind == "unknown" and pos.stock == []
    assert pos.turn == 0 and pos.dealer == 3 and pos.last == 3
    assert pos.preset == "pagat"
    assert pos.overrides == {"target": "21", "hit": "1,5"}
    assert list(pos.overrides) == ["target", "hit"]
    assert pos.rules == PRESETS["pagat"].with_overrides({"target": "21", "hit": "1,5"})
    assert pos.score == (12, 30) and pos.taken == (14, 12)
    assert pos.declared == [Declaration(2, "ronda", None), Declaration(0, "tringa", 1)]
    assert pos.ops == [("bm", "1"), ("id", "puzzle #1; easy"), ("c", "a comment"),
                       ("v", "-1.5"), ("zz", "free text")]
    assert pos.opcode("id") == "puzzle #1; easy"


def test_absent_keys_stay_none() -> None:
    pos = parse_position("1.3.5.11 2.2.7/4.6.12 ? S")
    assert pos.rules == PRESETS["lmodire"] and pos.preset == "lmodire"
    assert pos.score is None and pos.taken is None and pos.gone is None
    assert pos.dealer is None and pos.last is None and pos.prev is None
    assert pos.show is None and pos.declared == [] and pos.ops == []


def test_show_and_prev_values() -> None:
    assert parse_position(CANONICAL[9]).show == Show(7, 2, 0)
    assert parse_position(CANONICAL[8]).show == Show(7, 2, None)
    assert parse_position(CANONICAL[7]).prev == Card(5, "o")


def test_partnership_last_keeps_the_written_partner() -> None:
    line = CANONICAL[14]
    assert parse_position(line.replace("last=W", "last=E")).last == 1
    assert format_position(parse_position(line.replace("last=W", "last=E"))) == \
        line.replace("last=W", "last=E")


@pytest.mark.parametrize("written, canonical", [
    # comment, extra spaces, keys in another order, explicit default preset
    ("  5 7/1 - S   last=N taken=20,17   # end of the hand",
     "5 7/1 - S taken=20,17 last=N"),
    ("1.3.5.11 2.2.7/4.6.12 ? S rules=lmodire", "1.3.5.11 2.2.7/4.6.12 ? S"),
    ("1.3.5.11 2.2.7/4.6.12 ? S declared=-", "1.3.5.11 2.2.7/4.6.12 ? S"),
    # a trailing ';' and loose opcode spacing
    ("5 1.1/2.3.4 - N taken=20,14 last=S ;bm   2    3; id \"x\" ;",
     "5 1.1/2.3.4 - N taken=20,14 last=S ; bm 2 3 ; id \"x\""),
    # a '#' inside a quoted operand is text, after it a comment
    ("5 1.1/2.3.4 - N taken=20,14 last=S ; c \"#1\" # note",
     "5 1.1/2.3.4 - N taken=20,14 last=S ; c \"#1\""),
])
def test_non_canonical_lines(written: str, canonical: str) -> None:
    pos = parse_position(written)
    assert format_position(pos) == canonical
    assert parse_position(canonical) == pos


def test_parse_file_collects_lines_and_errors() -> None:
    text = (
        "# a suite\n"
        "\n"
        "1.3.5.11 2.2.7/4.6.12 ? S ; id \"one\"\n"
        "   # indented comment\n"
        "1.3.5.8 2.2.7/4.6.12 ? S\n"
        "5 7/1 - S taken=20,17 last=N\n"
    )
    got = parse_file(text)
    assert [n for n, _ in got] == [3, 5, 6]
    assert isinstance(got[0][1], Position) and got[0][1].opcode("id") == "one"
    err = got[1][1]
    assert isinstance(err, NotationError)
    assert (err.line, err.field, err.problem) == (
        5, "table", "rank 8 does not exist in a Spanish 40-card deck")
    assert str(err) == "line 5, table: rank 8 does not exist in a Spanish 40-card deck"
    assert isinstance(got[2][1], Position)


def test_error_without_and_with_line() -> None:
    with pytest.raises(NotationError) as info:
        parse_position("1.3.5.11 2.2.9/4.6.12 ? S")
    assert info.value.line is None
    assert str(info.value) == "hands: rank 9 does not exist in a Spanish 40-card deck"
    with pytest.raises(NotationError) as info:
        parse_position("1.3.5.11 2.2.9/4.6.12 ? S", line=3)
    assert str(info.value) == "line 3, hands: rank 9 does not exist in a Spanish 40-card deck"
    assert isinstance(info.value, ValueError)


def test_format_refuses_a_quote_in_a_quoted_operand() -> None:
    pos = parse_position("1.3.5.11 2.2.7/4.6.12 ? S")
    pos.ops = [("c", 'say "hi"')]
    with pytest.raises(ValueError):
        format_position(pos)


# ---------------------------------------------------------------------------
# One test per error kind: the exact message, with the line number.

#: a three-player line (positions/puzzles/composed-french3.txt line 3)
VV_LINE = "1.5.7.11.12 1.1.11/3.6/1.2 - S rules=french taken=6,7,15 last=S prev=1"

ERRORS = [
    # line shape
    ("1.3.5.11 2.2.7/4.6.12",
     "line: expected 4 fields <table> <hands> <stock> <turn> before any key, got 2"),
    ("1.3.5.11 2.2.7/4.6.12 ? S N",
     "line: expected 4 fields <table> <hands> <stock> <turn> before any key, got 5: 'N' after "
     "the turn is one field too many (a key is written key=value)"),
    ("1.7 7.7.2/7.12 - S ... dealer:N x y z",
     "line: expected 4 fields <table> <hands> <stock> <turn> before any key, got 9: '...' "
     "'dealer:N' 'x' ... after the turn are 5 fields too many (a key is written key=value)"),
    ("1.3.5.11 2.2.7/4.6.12 ? S target=21 N",
     "line: unexpected field 'N' after the keys (key=value)"),
    ("1.3.5.11 2.2.7/4.6.12 ? S =3", "line: a key is missing before '=' in '=3'"),
    # cards
    ("1.3.5.8 2.2.7/4.6.12 ? S", "table: rank 8 does not exist in a Spanish 40-card deck"),
    ("1.3.5.11 2.2.9/4.6.12 ? S", "hands: rank 9 does not exist in a Spanish 40-card deck"),
    ("1.3.5x.11 2.2.7/4.6.12 ? S", "table: unknown suit 'x' in '5x' (suits: o, c, e, b)"),
    ("1.3..11 2.2.7/4.6.12 ? S", "table: empty card (two '.' in a row, or a '.' at an end)"),
    ("1.3.05.11 2.2.7/4.6.12 ? S",
     "table: '05' is not a card (a rank 1-7 or 10-12 and an optional suit o, c, e, b)"),
    ("1.3.5.11 2.2.7/4.6.12 1.2.13 S",
     "stock: rank 13 does not exist in a Spanish 40-card deck"),
    ("1.1.1.11 2.1.7/1.6.12 ? S", "hands: rank 1 appears more than 4 times (a deck has 4)"),
    (f"5 1/2 - N taken=20,17 last=S gone={GONE_26}.2.3.4.5.6.7.10.11.12.1.1",
     "gone: rank 2 appears more than 4 times (a deck has 4)"),
    ("1o.3.5.11 2.1o.7/4.6.12 ? S", "hands: card 1o appears twice"),
    # hands, stock, turn
    ("1.3.5.11 2.2.7 ? S", "hands: expected 2, 3 or 4 hands joined by '/', got 1"),
    ("1 2/3/4/5/6 ? S", "hands: expected 2, 3 or 4 hands joined by '/', got 5"),
    ("1.3.5.11 2.2.7//4.6.12 ? S", "hands: empty hand (write '-' for a hand without cards)"),
    ("1.3.5.11 2.2.7/4.6.12 1.?.3 S",
     "stock: '?' stands for the whole stock and cannot be in a list"),
    ("1.3.5.11 2.2.7/4.6.12 ~ S", "stock: '~' must be followed by a card list or '-'"),
    ("1.3.5.11 2.2.7/4.6.12 ? W", "turn: seat W does not exist with 2 players (seats: S N)"),
    ("1.3.5.11 2.2.7/4.6.12 ? X", "turn: unknown seat 'X' (seats: S N)"),
    # keys
    ("1.3.5.11 2.2.7/4.6.12 ? S foo=1",
     "foo: unknown key (keys: rules, dealer, score, taken, last, gone, tops, declared, prev, "
     "show, hist, or a rule parameter such as target)"),
    ("1.3.5.11 2.2.7/4.6.12 ? S dealer=N dealer=N", "dealer: given twice"),
    ("1.3.5.11 2.2.7/4.6.12 ? S score=", "score: empty value"),
    ("1.3.5.11 2.2.7/4.6.12 ? S score=1,2,3",
     "score: expected 2 numbers, one per side (S,N), got 3"),
    ("1.2.3.4 5.5.6/7.10.11/12.12.1 ? S rules=french score=0,0",
     "score: expected 3 numbers, one per side (S,E,N), got 2"),
    ("1.3.5.11 2.2.7/4.6.12 ? S score=1,-2", "score: '-2' is not a whole number of 0 or more"),
    ("1.3.5.11 2.2.7/4.6.12 ? S dealer=W",
     "dealer: seat W does not exist with 2 players (seats: S N)"),
    ("1.3.5.11 2.2.7/4.6.12 ? S last=E", "last: seat E does not exist with 2 players (seats: S N)"),
    # rules
    ("1.3.5.11 2.2.7/4.6.12 ? S rules=bogus",
     "rules: unknown preset 'bogus' (known: lmodire, pagat, mod, french, online)"),
    ("1.3.5.11 2.2.7/4.6.12 ? S target=x", "target: parameter target cannot be 'x'"),
    # a yes/no parameter names its values (a new user's pass: 'maybe' alone)
    ("1.3.5.11 2.2.7/4.6.12 ? S voleur=maybe",
     "voleur: parameter voleur cannot be 'maybe' (yes or no)"),
    ("1.3.5.11 2.2.7/4.6.12 ? S target=0", "target: target must be at least 1 point, not 0"),
    ("1.3.5.11 2.2.7/4.6.12 ? S target=100001",
     "target: parameter target cannot be '100001' (at most 100000)"),
    ("1.3.5.11 2.2.7/4.6.12 ? S target=-5", "target: target must be at least 1 point, not -5"),
    # whole numbers in ASCII digits, as score= reads them (int() took both)
    ("1.3.5.11 2.2.7/4.6.12 ? S target=1_0", "target: parameter target cannot be '1_0'"),
    ("1.3.5.11 2.2.7/4.6.12 ? S target=\u0663", "target: parameter target cannot be '\u0663'"),
    ("1.3.5.11 2.2.7/4.6.12 ? S hit=1,\u0665", "hit: parameter hit cannot be '1,\u0665'"),
    # points won are never negative (capture_point=-1 was played, "+-1 capture")
    ("1.3.5.11 2.2.7/4.6.12 ? S capture_point=-1",
     "capture_point: capture_point is points won, 0 or more, not -1"),
    ("1.3.5.11 2.2.7/4.6.12 ? S rules=french ronda=-2", "ronda: ronda is points won, 0 or more, not -2"),
    ("1.3.5.11 2.2.7/4.6.12 ? S hit=1,5,10,20",
     "hit: hit takes 1 to 3 non-negative values, not 1,5,10,20"),
    ("1.3.5.11 2.2.7/4.6.12 ? S players=5", "players: players must be among 2, 3, 4, not 5"),
    ("1.3.5.11 2.2.7/4.6.12/1.1.1 ? S",
     "rules: rules=lmodire is for 2 players, not 3 (override with players=)"),
    ("1.3.5.11 2.2.7/4.6.12/1.1.2 ? S rules=pagat",
     "rules: rules=pagat is for 2 or 4 players, not 3 (override with players=)"),
    ("1.3.5.11 2.2.7/4.6.12/1.1.2 ? S rules=french players=2,4",
     "players: players=2,4 does not allow 3 players"),
    # a line short of a hand: the rules' players, not a key written for
    # them (taken=, last=, the turn), in any order of the keys
    ("2.3 5.7/4.6 - S rules=french players=3 taken=10,11,11 last=E",
     "players: players=3 does not allow 2 players"),
    ("2.3 5.7/4.6 - S taken=10,11,11 last=E rules=french players=3",
     "players: players=3 does not allow 2 players"),
    ("2.3 5.7/4.6 - S last=E players=3 rules=french",
     "players: players=3 does not allow 2 players"),
    ("2.3 5.7/4.6 - E rules=french players=3",
     "players: players=3 does not allow 2 players"),
    ("1.3.5.11 2.2.7/4.6.12/1.1.1 ? S taken=0,0 dealer=W",
     "rules: rules=lmodire is for 2 players, not 3 (override with players=)"),
    # ... but a rule key that cannot be read keeps the keys' order
    ("2.3 5.7/4.6 - S taken=10,11,11 players=3 rules=french target=x",
     "taken: expected 2 numbers, one per side (S,N), got 3"),
    # the 40 cards, the stock, taken and gone
    ("1.3.5.11 2.2.7/?.?.? 1.2 S",
     "taken: the table (4), the hands (6) and the stock (2) make 12 cards: with a hidden "
     "card, taken= (and gone=) must say where the other 28 are"),
    ("5 1/2.3 - N taken=20,15 last=S",
     "taken: the table (1), the hands (3), the stock (0) and taken=20,15 make 39 cards, not 40"),
    ("5 7/1 1.2.3 S taken=20,14 last=S",
     "stock: 3 cards, which is not a stock between whole deals "
     "(2 players: 0, 6, 12, 18, 24, 30)"),
    ("1.3.5 2.2.7/4.6.12 ? S",
     "stock: '?' leaves 31 cards for the stock, which is not a stock between whole deals "
     "(2 players: 0, 6, 12, 18, 24, 30)"),
    ("1.2.3.4.5.6.7.10.11.12.1.2.3.4.5.6.7.10.11.12.1.2.3.4.5.6.7.10.11.12.1.2.3.4.5.6.7.10.11.12"
     " ?/? ? S rules=mod",
     "stock: '?' is the rest of the deck, but the table (40), the hands (2) and taken 0 "
     "(taken= absent) already make 42, more than 40"),
    ("1.3.3.11 2.2.7/4.6.12 ? S",
     "table: two 3s cannot lie on the table with table_rule=distinct (a card always takes its rank)"),
    ("1.3.5.11 2.2.7/4.6.12 ? S taken=10,10 last=S",
     "stock: '?' with taken=10,10 needs gone= (the captured cards)"),
    ("5 7/? - S taken=20,17 last=S",
     "hands: '?' with taken=20,17 needs gone= (the captured cards)"),
    ("1.3.5.11 2.2.7/4.6.12 ? S gone=1", "gone: gone holds 1 card but taken= is absent (0 each)"),
    ("5 7/1 - S taken=20,17 last=S gone=1.2.3", "gone: gone holds 3 cards but taken=20,17 makes 37"),
    ("5 7/1 - S taken=20,17", "taken: cards were taken, so last= (the side that captured last) "
                              "is needed"),
    ("1.3.5.11 2.2.7/4.6.12 ? S last=S",
     "last: last=S but taken= is absent (nobody has captured)"),
    ("5 7/1 - S taken=0,37 last=S", "last: last=S but that side has taken no card (taken=0,37)"),
    # hand sizes and the dealer
    ("5 -/1 - S taken=20,18 last=S", "hands: S is to play but holds no card"),
    # no card left anywhere: the hand is over (the web board's end line)
    ("- -/- - S score=0,2 taken=18,22 last=N",
     "hands: the hand is over: no card is left to play (the final score S 0, N 2)"),
    ("- -/- - N taken=18,22 last=N", "hands: the hand is over: no card is left to play"),
    ("- -/- 4.4.4.2.2.7 S score=40,41 taken=16,18 last=N",
     "hands: the match is over: N has won at the target 41 (the final score S 40, N 41)"),
    # a hand's end that also ends the match says who won it
    ("- -/- - S score=40,43 taken=18,22 last=N",
     "hands: the hand is over: no card is left to play (the final score S 40, N 43; N has "
     "won the match)"),
    # not a deal's end (N still holds a card): no "match over", whatever the score
    ("1.12 -/12 - S score=41,0", "hands: S is to play but holds no card"),
    ("1.12 -/12 - S score=0,45", "hands: S is to play but holds no card"),
    # at a deal's end with both sides tied at the target nobody has won yet
    ("3.6.10.5 -/- 4.4.4.2.2.7 N score=41,41", "hands: N is to play but holds no card"),
    ("3.6 -/-/- 4.4.4.2.2.7.7.1.1 S players=3 score=45,45,1",
     "hands: S is to play but holds no card"),
    ("1.3.5 2.2.7.1/4.6.12 ? S", "hands: S, to play, holds 4 cards but deal 1 of 6 gives 3 a player"),
    ("5 7.1/2 - N taken=20,16 last=S",
     "hands: S holds 2 cards but N, to play, holds 1: every hand holds 1 or 0"),
    ("1.2.3.4.5 1.2.3/4.5/6.7.10 ? S rules=french",
     "hands: N holds 3 cards after E with 2: after S (to play) the seats yet to play this "
     "round come first"),
    ("5 1/2 - N taken=20,17 last=S dealer=N",
     "dealer: dealer=N does not agree with the hand sizes, which make S the dealer"),
    # prev
    ("1.3.5.11 2.2.7/4.6.12 ? S prev=5",
     "prev: no card has been played in the current deal (every hand holds 3)"),
    ("5 1/2.3 - N taken=20,16 last=S prev=6", "prev: 6 is not on the table"),
    ("5o 1/2.3 - N taken=20,16 last=S prev=5c", "prev: 5c is not on the table"),
    # show
    ("5 1/2.3 - N taken=20,16 last=S show=7", "show: '7' is not rank:size[@seat] (like 7:2 or 7:3@N)"),
    ("5 1/2.3 - N taken=20,16 last=S show=7:4",
     "show: the size of a pile on show is 2 (after a hit) or 3 (after an answer), not '4'"),
    ("5 1/2.3 - N taken=20,16 last=S show=7:2@W",
     "show: seat W does not exist with 2 players (seats: S N)"),
    ("5 1/2.3 - N taken=20,16 last=S show=7:2 rules=french",
     "show: the rules have no answer for 5 (hit=1)"),
    ("5 1/2.3 - N taken=20,16 last=S show=7:3 hit=1,5",
     "show: the rules have no answer for 10 (hit=1,5)"),
    ("5 1/2.3 - N taken=20,16 last=S show=7:2 prev=5",
     "show: prev= and show= cannot both hold: the player who just played either left a card "
     "or captured"),
    ("1.3.5 2.2/4.6.12 ? N taken=2,0 last=S gone=7.7 show=7:2",
     "show: show=7:2 needs at least 2 cards played in the current deal, not 1"),
    ("5 1.2/3.4 - S taken=20,15 last=N show=7:3",
     "show: show=7:3 needs at least 3 cards played in the current deal, not 2"),
    ("5 1/2.3 - N taken=20,16 last=S show=7:2@N",
     "show: the pile on show belongs to the player who just played (S), not N"),
    ("1.3.5.11.10.12 2.2/4.6 ? S show=7:2",
     "show: show=7:2 needs last= (the player who just played captured last)"),
    ("5 1/2.3 - N taken=20,16 last=N show=7:2",
     "show: the pile on show is S's, who captured last, but last=N"),
    ("3 5/4/7.6 - N rules=french hit=1,5,10 taken=20,1,14 last=E show=7:2",
     "show: show=7:2 shows 2 cards of E's pile, which holds 1 (taken=20,1,14)"),
    ("5 1/2.3 - N taken=20,16 last=S show=5:2",
     "show: the table holds a 5, but the hit took every 5 on the table"),
    ("1.3.5.6.10 2/4.6 ? N taken=2,0 last=S gone=7.1 show=7:2",
     "show: gone holds 1 of rank 7, fewer than the 2 on show"),
    ("5 7.7/7.7 - N taken=20,15 last=S show=7:2",
     "show: 2 of rank 7 on show and 4 elsewhere make more than 4"),
    # declared
    ("5 1/2.3 - N taken=20,16 last=S declared=N",
     "declared: 'N' is not seat:kind[rank] (like N:ronda or E:tringa5)"),
    ("5 1/2.3 - N taken=20,16 last=S declared=W:ronda",
     "declared: seat W does not exist with 2 players (seats: S N)"),
    ("5 1/2.3 - N taken=20,16 last=S declared=N:pair",
     "declared: unknown declaration 'pair' (ronda or tringa)"),
    ("5 1/2.3 - N taken=20,16 last=S declared=N:ronda8",
     "declared: rank 8 does not exist in a Spanish 40-card deck"),
    ("5 1/2.2 - N taken=20,16 last=S declared=N:ronda2o",
     "declared: a declaration names a rank, not a card: 'N:ronda2o'"),
    ("5 1/2.2 - N taken=20,16 last=S declared=N:ronda2 rules=mod",
     "declared: the rules (mod) have no declarations"),
    ("5 1/2.2 - N taken=20,16 last=S declared=N:tringa2 rules=french",
     "declared: the rules (french) have no Tringa (three of a kind is a Ronda)"),
    ("5 1/2.2 - N taken=20,16 last=S declared=N:ronda2,N:ronda2", "declared: N declared twice"),
    ("5 1.1/2.3.4 - N taken=20,14 last=S declared=N:ronda2",
     "declared: N:ronda2 does not fit N's hand"),
    ("5 1.1/2.3.4 - N taken=20,14 last=S declared=N:tringa",
     "declared: N:tringa does not fit N's hand"),
    ("5 1.1.1/2.2.2 - S taken=20,13 last=S declared=S:ronda1",
     "declared: S:ronda1: S holds three 1s and declares the Tringa only"),
    # opcodes
    ("5 1/2.3 - N taken=20,16 last=S ; BM 2",
     "opcode: 'BM' is not an opcode name (lowercase letters, digits and _)"),
    ("5 1/2.3 - N taken=20,16 last=S ; ; bm 2", "opcode: empty opcode between two ';'"),
    ("5 1/2.3 - N taken=20,16 last=S ; id \"a\" ; id \"b\"", "id: opcode given twice"),
    ("5 1/2.3 - N taken=20,16 last=S ; bm", "bm: expected one or more cards"),
    ("5 1/2.3 - N taken=20,16 last=S ; am 8", "am: rank 8 does not exist in a Spanish 40-card deck"),
    ("5 1/2.3 - N taken=20,16 last=S ; bm 4", "bm: 4 is not in N's hand"),
    ("5 1/2.3 - N taken=20,16 last=S ; v abc", "v: expected a number of points, got 'abc'"),
    # vv: one number a seat, as v writes a number, on three-player lines only
    (VV_LINE + " ; vv a b c", "vv: expected 3 numbers (one per seat), got 'a b c'"),
    (VV_LINE + " ; vv nan 0 0", "vv: expected 3 numbers (one per seat), got 'nan 0 0'"),
    (VV_LINE + " ; vv inf 0 0", "vv: expected 3 numbers (one per seat), got 'inf 0 0'"),
    (VV_LINE + " ; vv 6e0 0 0", "vv: expected 3 numbers (one per seat), got '6e0 0 0'"),
    (VV_LINE + " ; vv", "vv: expected 3 numbers (one per seat), got ''"),
    (VV_LINE + " ; vv 6 0", "vv: expected 3 numbers (one per seat), got '6 0'"),
    (VV_LINE + " ; vv 6 0 0 0", "vv: expected 3 numbers (one per seat), got '6 0 0 0'"),
    ("5.6 5.7/3.3 - S ; bm 5 ; vv 1 -1",
     "vv: a value vector is for three players; this line has 2"),
    ("12 5/4/3/2 - S rules=french taken=15,20 last=E ; vv 1 2 3",
     "vv: a value vector is for three players; this line has 4"),
    ("5 1/2.3 - N taken=20,16 last=S ; id name",
     "id: the operand must be one quoted text, like id \"...\""),
    ("5 1/2.3 - N taken=20,16 last=S ; c \"say \"hi\"\"",
     "c: the operand must be one quoted text, like c \"...\""),
    ("5 1/2.3 - N taken=20,16 last=S ; id \"name", "id: unterminated quote"),
]


def test_vv_is_read_as_v_on_three_player_lines() -> None:
    """``vv`` holds one number a seat, each written as ``v`` writes one,
    stored as written."""
    for vector in ("6 0 0", "-1.5 +2 0.25", "6  0 0"):
        pos = parse_position(f"{VV_LINE} ; vv {vector}")
        assert pos.opcode("vv") == vector


@pytest.mark.parametrize("line, message", ERRORS)
def test_error_message(line: str, message: str) -> None:
    """Each line, third in a file, fails with exactly this message."""
    got = parse_file("# a suite\n\n" + line + "\n")
    assert len(got) == 1
    number, result = got[0]
    assert number == 3
    assert isinstance(result, NotationError), format_position(result)
    assert str(result) == f"line 3, {message}"
    assert result.line == 3
    assert f"{result.field}: {result.problem}" == message


# ---------------------------------------------------------------------------
# Property: random valid positions round trip.

PRESETS_FOR = {2: ("lmodire", "pagat", "mod", "french"), 3: ("french",), 4: ("pagat", "french")}
TEXT = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126, blacklist_characters='"'),
    max_size=20)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A position dealt from a shuffled deck: a deal in progress, some cards
    on the table and some captured, with random optional keys and opcodes."""
    players = draw(st.sampled_from((2, 3, 4)))
    name = draw(st.sampled_from(PRESETS_FOR[players]))
    overrides: dict[str, str] = {}
    if draw(st.booleans()):
        overrides["target"] = str(draw(st.integers(1, 99)))
    if draw(st.booleans()) and name != "french":
        overrides["hit"] = draw(st.sampled_from(("1", "1,5", "1,5,10", "2,4,8")))
    rules = preset(name).with_overrides(overrides)
    deals = deal_sizes(rules, players)
    deal = draw(st.integers(0, len(deals) - 1))
    size = deals[deal]
    played = draw(st.integers(0, players * size - 1))  # cards played this deal
    leader = draw(st.integers(0, players - 1))
    mover = (leader + played) % players
    hand_sizes = [
        size - played // players - (1 if (seat - leader) % players < played % players else 0)
        for seat in range(players)
    ]

    deck = draw(st.permutations([Card(r, s) for r in RANKS for s in SUITS]))
    suited = draw(st.sampled_from(("all", "none", "some")))
    if suited != "all":
        deck = [c if suited == "some" and draw(st.booleans()) else Card(c.rank) for c in deck]
    hands: list[list[Card | None]] = []
    at = 0
    for n in hand_sizes:
        hands.append(list(deck[at:at + n]))
        at += n
    stock_n = sum(deals[deal + 1:]) * players
    stock = list(deck[at:at + stock_n])
    rest = list(deck[at + stock_n:])
    n_table = draw(st.integers(0, min(len(rest), 10)))
    table, gone = rest[:n_table], rest[n_table:]
    if rules.table_rule == "distinct":
        # a distinct table never holds two cards of one rank
        ranks_seen: set[int] = set()
        kept = []
        for c in table:
            (gone if c.rank in ranks_seen else kept).append(c)
            ranks_seen.add(c.rank)
        table = kept

    sides = n_sides(players)
    cuts = sorted(draw(st.lists(st.integers(0, len(gone)),
                                min_size=sides - 1, max_size=sides - 1)))
    taken = tuple(b - a for a, b in zip([0, *cuts], [*cuts, len(gone)]))

    stock_kind = draw(st.sampled_from(("known", "shuffled", "unknown")))
    if stock_kind == "unknown":
        stock = []
    hide = draw(st.booleans())
    hands = [[None if hide and draw(st.booleans()) else c for c in h] for h in hands]
    has_unknown = stock_kind == "unknown" or any(c is None for h in hands for c in h)
    extra = draw(st.sampled_from(("none", "prev", "show")))
    give_gone = (has_unknown and sum(taken) > 0) or extra == "show" or draw(st.booleans())

    previous = (mover - 1) % players
    prev = show = None
    if extra == "prev" and played >= 1 and table:
        prev = draw(st.sampled_from(table))
    elif extra == "show" and give_gone:
        # the pile on show holds at least the shown cards
        sizes = [s for s in (2, 3) if s <= len(rules.hit) and s <= played
                 and s <= taken[side_of(previous, players)]]
        ranks = [r for r in RANKS if not any(c.rank == r for c in table)]
        if sizes:
            s = draw(st.sampled_from(sizes))
            ranks = [r for r in ranks if sum(c.rank == r for c in gone) >= s]
            if ranks:
                show = Show(draw(st.sampled_from(ranks)), s,
                            draw(st.sampled_from((None, previous))))
    if show is not None:
        last = previous
    elif sum(taken):
        last = draw(st.sampled_from(
            [s for s in range(players) if taken[side_of(s, players)] > 0]))
    else:
        last = None

    declared = []
    claimed = {r: 0 for r in RANKS}     # cards of a rank the declarations need

    def fits(seat: int, r: int, need: int) -> bool:
        # a rank has 4 cards: the declarations of it, and its cards in the
        # other hands and a known stock
        elsewhere = sum(1 for s, h in enumerate(hands) if s != seat
                        for c in h if c is not None and c.rank == r)
        if stock_kind != "unknown":
            elsewhere += sum(1 for c in stock if c.rank == r)
        return claimed[r] + need + elsewhere <= 4

    if rules.ronda > 0:
        for seat, hand in enumerate(hands):
            have = {r: sum(1 for c in hand if c is not None and c.rank == r) for r in RANKS}
            free = sum(1 for c in hand if c is None) + size - len(hand)
            triple = rules.tringa > 0 and max(have.values()) >= 3
            options: list[Declaration] = []
            for r in RANKS:
                if have[r] + free >= 2 and not triple:
                    options.append(Declaration(seat, "ronda"))
                    if fits(seat, r, 2):
                        options.append(Declaration(seat, "ronda", r))
                if have[r] + free >= 3 and rules.tringa > 0:
                    options.append(Declaration(seat, "tringa"))
                    if fits(seat, r, 3):
                        options.append(Declaration(seat, "tringa", r))
            if options and draw(st.booleans()):
                d = draw(st.sampled_from(options))
                declared.append(d)
                if d.rank is not None:
                    claimed[d.rank] += 3 if d.kind == "tringa" else 2

    ops: list[tuple[str, str]] = []
    known = [c for c in hands[mover] if c is not None]
    if known and draw(st.booleans()):
        ops.append(("bm", str(draw(st.sampled_from(known)))))
    if draw(st.booleans()):
        ops.append(("id", draw(TEXT)))
    if draw(st.booleans()):
        ops.append(("c", draw(TEXT)))
    if draw(st.booleans()):
        ops.append(("v", str(draw(st.integers(-60, 60)))))

    return Position(
        table=table, hands=hands, stock_kind=stock_kind, stock=stock, turn=mover,
        rules=rules, preset=name, overrides=overrides,
        dealer=(leader - 1) % players if draw(st.booleans()) else None,
        score=tuple(draw(st.integers(0, 40)) for _ in range(sides))
        if draw(st.booleans()) else None,
        taken=taken if sum(taken) or draw(st.booleans()) else None,
        last=last, gone=gone if give_gone else None, declared=declared,
        prev=prev, show=show, ops=ops,
    )


@settings(max_examples=300, deadline=None)
@given(positions())
def test_random_positions_round_trip(pos: Position) -> None:
    line = format_position(pos)
    back = parse_position(line)
    assert back == pos
    assert format_position(back) == line


def test_rule_overrides_are_checked_together():
    """``players=3`` alone cannot be played on the online preset (no table
    cards: 40 cards for 3 players), but with ``table_cards=4`` it can, as
    ``play --rules online --set players=3 --set table_cards=4`` records it;
    in any order. A combination that cannot be played names the parameter
    whose removal mends it; a value that cannot be read names its own."""
    for keys in ("players=3 table_cards=4", "table_cards=4 players=3"):
        pos = parse_position(f"3 5/4/7 - S rules=online {keys}")
        assert pos.rules.players == (3,) and pos.rules.table_cards == 4
        assert pos.rules.with_overrides({}).players == (3,)
    cases = [
        ("3 5/4/7 - S rules=online players=3",
         "players: table_cards=0 leaves 40 cards to deal, which 3 players cannot share evenly "
         "(set players= or table_cards=)"),
        ("3 5/4/7 - S rules=online players=3 table_cards=4 deal_size=5",
         "deal_size: deal_size must be 3 or 4, not 5"),
        ("3 5/4/7 - S rules=online players=3 table_cards=4 target=0",
         "target: target must be at least 1 point, not 0"),
        ("3 5/4/7 - S rules=online players=3 table_cards=4 hit=x",
         "hit: parameter hit cannot be 'x'"),
    ]
    for line, message in cases:
        with pytest.raises(NotationError) as err:
            parse_position(line)
        assert str(err.value) == message
