"""The ``tops=`` key of Ronda voleur (V7, docs/notation.md): round trips in
canonical order and one test per error message."""

from __future__ import annotations

import pytest

from solver.cards import Card
from solver.notation import NotationError, format_position, parse_file, parse_position

GONE_36 = ("1.1.1.1.2.2.2.2.3.3.3.3.4.4.4.5.5.5.6.6.6.7.7.7.10.10.10.10.11.11.11.11."
           "12.12.12.12")


def gone_but(*seen: str) -> str:
    """The 40 cards less ``seen`` (rank texts), as a gone= list."""
    deck = [str(r) for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for _ in range(4)]
    for c in seen:
        deck.remove(c)
    return ".".join(deck)

CANONICAL = [
    "6.7 5/4 - S rules=french voleur=yes taken=10,26 last=N tops=-,5",
    f"6.7 5/4 - S rules=french voleur=yes taken=10,26 last=N gone={GONE_36} tops=12,5",
    "6.7 5o/4 - S rules=french voleur=yes taken=10,26 last=N tops=5c,5e",
    "3 7/- - S voleur=yes dealer=S taken=20,18 last=N tops=1,7 show=7:2",
    "12 5/4/3/2 - S rules=french voleur=yes taken=15,20 last=E tops=5,3",
    "12 5/4/3 - S rules=french voleur=yes taken=16,10,10 last=E tops=5,3,-",
]


@pytest.mark.parametrize("line", CANONICAL)
def test_tops_round_trip(line: str) -> None:
    pos = parse_position(line)
    assert format_position(pos) == line
    assert parse_position(format_position(pos)) == pos


def test_tops_values_and_canonical_order() -> None:
    pos = parse_position("6.7 5/4 - S tops=12o,- taken=10,26 rules=french voleur=yes last=N")
    assert pos.tops == (Card(12, "o"), None)
    assert format_position(pos) == \
        "6.7 5/4 - S rules=french voleur=yes taken=10,26 last=N tops=12o,-"
    assert parse_position("6.7 5/4 - S rules=french voleur=yes taken=10,26 last=N").tops is None


ERRORS = [
    ("6.7 5/4 - S rules=french taken=10,26 last=N tops=-,5",
     "tops: tops= needs voleur=yes (pile tops only count in Ronda voleur)"),
    ("6.7 5/4 - S rules=french voleur=yes taken=10,26 last=N tops=5",
     "tops: expected 2 entries, one a side (S,N), got 1"),
    ("12 5/4/3/2 - S rules=french voleur=yes taken=15,20 last=E tops=5,3,1",
     "tops: expected 2 entries, one a side (SN,EW), got 3"),
    # an empty entry: said in tops' own terms, not as a '.'-list's empty card
    ("2.3 5.7/4.6/2.12 - S rules=french voleur=yes taken=10,11,11 last=E tops=,4,5",
     "tops: entry 1 (S) is empty (one top card a side, in taken= order, separated by ',', "
     "'-' for an empty pile)"),
    ("6.7 5/4 - S rules=french voleur=yes taken=10,26 last=N tops=5,",
     "tops: entry 2 (N) is empty (one top card a side, in taken= order, separated by ',', "
     "'-' for an empty pile)"),
    ("6.7 5/4 - S rules=french voleur=yes taken=0,36 last=N tops=5,-",
     "tops: S's pile has no card (taken=0,36), so no top 5"),
    # without taken= (no nested parentheses: "(taken= is absent (0 each))")
    ("5 5/12 - S rules=french voleur=yes tops=5,-",
     "tops: S's pile has no card (no taken=: 0 each), so no top 5"),
    ("6.7 5/4 - S rules=french voleur=yes taken=10,26 last=N tops=8,-",
     "tops: rank 8 does not exist in a Spanish 40-card deck"),
    ("12.12.12 5/12 - S rules=french voleur=yes taken=10,25 last=N "
     f"gone={gone_but('12', '12', '12', '5', '12')} tops=-,12",
     "tops: the top 12 of N's pile is not among gone= (a top is a captured card)"),
    ("5.5 5/12 - S rules=french voleur=yes taken=10,26 last=N "
     f"gone={gone_but('5', '5', '5', '12')} tops=5,5",
     "tops: 2 tops are 5 but gone= holds only one 5"),
    ("5.5.5 5/4 - S rules=french voleur=yes taken=10,25 last=N tops=-,5",
     "tops: rank 5 appears more than 4 times (a deck has 4)"),
    ("6.7 5o/4 - S rules=french voleur=yes taken=10,26 last=N tops=5o,-",
     "tops: card 5o appears twice"),
    ("3 7/- - S voleur=yes dealer=S taken=20,18 last=N show=7:2",
     "tops: show=7:2 in Ronda voleur needs tops= (the hitter's pile has the hit card on top)"),
    ("3 7/- - S voleur=yes dealer=S taken=20,18 last=N tops=7,1 show=7:2",
     "tops: show=7:2: the hitter's pile (N) has the hit card on top, not 1"),
    # with gone=, a suited top is still one card: not two tops, not the table's
    ("12.12 12/12 - S rules=french voleur=yes taken=10,26 last=N tops=5o,5o "
     f"gone={gone_but('12', '12', '12', '12')}",
     "tops: card 5o appears twice"),
    ("5o.12 5/12 - S rules=french voleur=yes taken=10,26 last=N tops=5o,- "
     f"gone={gone_but('5', '5', '12', '12')}",
     "tops: card 5o appears twice"),
    # one 5o in gone= for two tops of 5 (the brief's line: the 5 is suited)
    ("5.5 5/12 - S rules=french voleur=yes taken=10,26 last=N tops=5,5 "
     f"gone={gone_but('5', '5', '5', '12').replace('5', '5o')}",
     "tops: 2 tops are 5 but gone= holds only one 5"),
    ("12.12 5/5/- - S rules=french voleur=yes taken=12,12,12 last=N tops=5,5,5 "
     f"gone={gone_but('5', '5', '12', '12')}",
     "tops: 3 tops are 5 but gone= holds only 2 5s"),
]


@pytest.mark.parametrize("line, message", ERRORS)
def test_tops_error_message(line: str, message: str) -> None:
    got = parse_file("# voleur\n" + line + "\n")
    assert len(got) == 1
    number, result = got[0]
    assert number == 2
    assert isinstance(result, NotationError), format_position(result)
    assert str(result) == f"line 2, {message}"
    assert result.field == "tops"


def test_hist_in_voleur_needs_the_tops_and_piles_of_the_deal() -> None:
    message = ("hist: hist= in Ronda voleur needs the pile tops and sizes at the deal's "
               "start (TABLE:PLAYS:TOPS:PILES, like 1.3:S4:5,-:12,10)")
    with pytest.raises(NotationError) as err:
        parse_position("5.7 7/1.2 - N voleur=yes taken=20,15 last=N tops=-,3 "
                       "hist=5:S7")
    assert str(err.value) == message
    from pathlib import Path
    doc = (Path(__file__).parent.parent / "docs" / "notation.md").read_text()
    assert f"- `{message}`" in doc


def test_a_voleur_deal_replays_its_steals() -> None:
    """S's 1e took the table's 1o (S's pile 1o 1e, top 1e); N's 1b stole
    it: the replay from the deal's tops and piles (none, 0 and 0) ends
    with the line's taken=0,3 and tops=-,1b; wrong piles are refused."""
    line = ("11c.12e.7b 6b.2c/?.? ? S rules=french voleur=yes dealer=N score=1,1 taken=0,3 "
            "last=N gone=1o.1e.1b tops=-,1b hist=1o.11c.12e.7b:S1e,N1b:-,-:0,0")
    pos = parse_position(line)
    assert pos.hist.tops == (None, None) and pos.hist.piles == (0, 0)
    with pytest.raises(NotationError, match="the plays leave piles of 0,3, not taken=1,2"):
        parse_position(line.replace("taken=0,3", "taken=1,2"))
    from solver.engine.history import replay
    r = replay(pos.rules, 2, pos.leader(), [c.index for c in pos.hist.table],
               [(s, c.index) for s, c in pos.hist.plays], tops=pos.hist.top_ranks(),
               piles=pos.hist.piles)
    assert r.piles == [0, 3] and r.tops == [-1, 0]       # N's top: a 1 (rank index 0)
    # the tops must agree too: another one, or none at all (an absent tops=
    # says no pile has a top; the line was solved as if nothing could be
    # stolen)
    with pytest.raises(NotationError) as err:
        parse_position(line.replace(" tops=-,1b", ""))
    assert str(err.value) == ("hist: the plays leave pile tops -,1, but the line has no "
                              "tops= (no top): add tops=-,1")


def test_tops_errors_are_documented() -> None:
    from pathlib import Path
    doc = (Path(__file__).parent.parent / "docs" / "notation.md").read_text()
    for _line, message in ERRORS:
        if ("8 does not exist" in message or "(SN,EW)" in message or "top 5 of" in message
                or "entry 2 (N)" in message):
            continue
        assert f"- `{message}`" in doc, message


def test_hist_tops_must_agree_with_tops_three_players() -> None:
    """E's 10o stole S's pile (top 10e), N's 12o took the table's 12o..."""
    line = ("4o.6o.12o 7b.5b/10.?/12.? ? S rules=french target=15 voleur=yes dealer=N "
            "score=3,9,5 last=E gone=4b.4c.3o.4e.2b.2o.6c.6b.6e.5o.5c.7o.7e.10c.10e.10o.11c."
            "11b.12e.11e.1b.1e prev=12o taken=0,16,6 hist=4o:S6o,E10o,N12o:10e,5c,1e:4,11,6")
    assert parse_position(line + " tops=-,10o,1e").tops[1].rank == 10
    with pytest.raises(NotationError) as err:
        parse_position(line + " tops=-,10o,2b")
    assert str(err.value) == ("hist: the plays leave other pile tops than tops= says "
                              "(they leave -,10,1)")
    with pytest.raises(NotationError) as err:     # it was solved as if no top
        parse_position(line)
    assert str(err.value) == ("hist: the plays leave pile tops -,10,1, but the line has no "
                              "tops= (no top): add tops=-,10,1")


def test_a_bad_tops_part_of_hist_is_a_hist_error() -> None:
    line = ("11c.12e.7b 6b.2c/?.? ? S rules=french voleur=yes dealer=N score=1,1 taken=0,3 "
            "last=N gone=1o.1e.1b tops=-,1b hist=1o.11c.12e.7b:S1e,N1b:{}:0,0")
    with pytest.raises(NotationError) as err:
        parse_position(line.format("-"))
    assert err.value.field == "hist"
    assert str(err.value) == ("hist: expected 2 pile tops at the deal's start, one a side "
                              "(S,N), got 1")
    with pytest.raises(NotationError) as err:
        parse_position(line.format("-,8"))
    assert str(err.value) == "hist: rank 8 does not exist in a Spanish 40-card deck"
    with pytest.raises(NotationError) as err:     # it was accepted, as if no top
        parse_position(line.format("-,6"))
    assert str(err.value) == ("hist: N's pile has no card at the deal's start (size 0), "
                              "so no top 6")


def test_a_top_on_an_empty_pile_is_one_check(monkeypatch) -> None:
    """tops= (the pile sizes of taken=) and hist='s tops at the deal's
    start (its own sizes) refuse a top on an empty pile by one check,
    each naming its field and where the size was read."""
    import solver.notation as notation
    seen = []
    real = notation._no_top_on_nothing
    monkeypatch.setattr(notation, "_no_top_on_nothing",
                        lambda field, *a: (seen.append(field), real(field, *a))[1])
    with pytest.raises(NotationError) as tops:
        parse_position("6.7 5/4 - S rules=french voleur=yes taken=0,36 last=N tops=5,-")
    with pytest.raises(NotationError) as hist:
        parse_position("11c.12e.7b 6b.2c/?.? ? S rules=french voleur=yes dealer=N score=1,1 "
                       "taken=0,3 last=N gone=1o.1e.1b tops=-,1b "
                       "hist=1o.11c.12e.7b:S1e,N1b:-,6:0,0")
    assert str(tops.value) == "tops: S's pile has no card (taken=0,36), so no top 5"
    assert str(hist.value) == "hist: N's pile has no card at the deal's start (size 0), so no top 6"
    assert seen == ["tops", "hist"]


@pytest.mark.parametrize("sizes", ["10,+26", "10,2_6", "10,\uff12\uff16", "10,026"])
def test_the_pile_sizes_of_hist_are_digits_as_taken_reads_them(sizes) -> None:
    """hist='s pile sizes at the deal's start are read as taken= reads its
    sizes (digits, no sign, no leading zero): int() took '+26', '2_6',
    fullwidth digits and '026', which taken= refuses."""
    line = ("6.7 5/4 - S rules=french voleur=yes taken=10,26 last=N tops=-,5 "
            f"hist=6.7:-:-,5:{sizes}")
    with pytest.raises(NotationError) as err:
        parse_position(line)
    assert str(err.value).startswith("hist: the piles at the deal's start are numbers, not ")
    with pytest.raises(NotationError) as taken:
        parse_position(f"6.7 5/4 - S rules=french voleur=yes taken={sizes} last=N tops=-,5")
    assert str(taken.value).startswith("taken: ")


def test_an_unsuited_top_leaves_a_suited_tops_card_in_gone() -> None:
    """tops=5,5c with gone= holding 5c before 5o: the unsuited top is the
    5o, the 5c top the 5c (the unsuited top took the first 5, the 5c, and
    the 5c top was refused as not among gone=)."""
    gone = gone_but("5", "5", "12", "12").replace("5.5", "5c.5o")
    line = f"5.12 5/12 - S rules=french voleur=yes taken=10,26 last=N gone={gone} tops=5,5c"
    assert format_position(parse_position(line)) == line
    assert parse_position(line).tops == (Card(5), Card(5, "c"))


def test_the_same_suited_top_twice_with_gone_is_refused_by_the_cli() -> None:
    """The line was solved (exit 0) with gone= and refused without it:
    now both are a one-line error and exit 1."""
    from click.testing import CliRunner

    from solver.cli.main import main
    with_gone = ("12.12 12/12 - S rules=french voleur=yes taken=10,26 last=N tops=11o,11o "
                 f"gone={gone_but('12', '12', '12', '12')}\n")
    without = "6.7 5/4 - S rules=french voleur=yes taken=10,26 last=N tops=3o,3o\n"
    for line, card in ((with_gone, "11o"), (without, "3o")):
        r = CliRunner().invoke(main, ["-"], input=line)
        assert r.exit_code == 1, r.output
        assert r.output.strip().splitlines()[-1] == f"error: -: line 1, tops: card {card} appears twice"
        assert "Traceback" not in r.output


EMPTY_TOP = ("2.3 5.7/4.6/2.12 - S rules=french voleur=yes taken=10,11,11 last=E tops=,4,5")
EMPTY_TOP_MESSAGE = ("tops: entry 1 (S) is empty (one top card a side, in taken= order, "
                     "separated by ',', '-' for an empty pile)")


def test_an_empty_top_is_said_in_tops_terms_by_the_cli_with_the_files_line(tmp_path) -> None:
    """``ronda-solve FILE``: the same message, with the file's line number."""
    from click.testing import CliRunner

    from solver.cli.main import main
    path = tmp_path / "tops.txt"
    path.write_text("# voleur\n\n" + EMPTY_TOP + "\n")
    r = CliRunner().invoke(main, [str(path)], catch_exceptions=False)
    assert r.exit_code == 1
    err = [line for line in r.stderr.splitlines() if line.strip()]
    assert err == [f"error: {path}: line 3, {EMPTY_TOP_MESSAGE}"], r.stderr


def test_an_empty_top_is_said_in_tops_terms_by_the_web_api() -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from solver.web.app import Config, create_app
    with TestClient(create_app(Config(searches=1, queue=1, max_body=20_000, time=5))) as c:
        r = c.post("/api/position", json={"line": EMPTY_TOP})
    assert (r.status_code, r.json()) == (400, {"error": EMPTY_TOP_MESSAGE})


def test_an_empty_pile_top_in_hist_is_said_in_its_own_terms() -> None:
    line = ("11c.12e.7b 6b.2c/?.? ? S rules=french voleur=yes dealer=N score=1,1 taken=0,3 "
            "last=N gone=1o.1e.1b tops=-,1b hist=1o.11c.12e.7b:S1e,N1b:-,:0,0")
    with pytest.raises(NotationError) as err:
        parse_position(line)
    assert str(err.value) == ("hist: pile top 2 (N) at the deal's start is empty (one top card "
                              "a side, in taken= order, separated by ',', '-' for an empty pile)")


def test_two_cards_in_one_top_entry_are_said_in_tops_terms() -> None:
    """``tops=5.5,5``: a '.'-list where one card goes (it was read as the
    card 5 of an unknown suit '.5')."""
    line = "3.10 5.12/10.11 - S rules=french voleur=yes taken=12,22 last=N tops=5.5,5"
    with pytest.raises(NotationError) as err:
        parse_position(line)
    assert str(err.value) == ("tops: entry 1 (S) '5.5' is more than one card (one top card a "
                              "side, in taken= order, separated by ',', '-' for an empty pile)")
