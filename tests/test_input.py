"""Bad input never costs a traceback or the other lines: each kind found
by fuzzing is a one-line located error (issue 10), and input is answered
line by line."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings, strategies as st
from click.testing import CliRunner

from fractions import Fraction

from solver.analysis.evaluation import evaluate
from solver.cli.main import main
from solver.notation import NotationError, parse_lines, parse_position
from solver.position import side_of
from solver.games.record import RecordError, parse_games

from test_properties import LINE_CASES, position_line

GOOD = "1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N"
BIG = "1" * 4301


def run(args, stdin: bytes | str = b""):
    r = CliRunner().invoke(main, args, input=stdin)
    return r.exit_code, r.output


@pytest.mark.parametrize("bad,field", [
    (f"{BIG} -/- - S", "table"),
    (f"1.7 7.7.2/7.12 - S prev=7 taken={BIG},18 last=N", "taken"),
    (f"{GOOD} missa=1{'0' * 308}", "missa"),
    (f"{GOOD} target={BIG}", "target"),
    ("5[/] 1/2 - S", "table"),
])
def test_bad_lines_are_one_located_error_and_the_rest_is_evaluated(bad, field):
    code, out = run(["--json", "-"], f"{bad}\n{GOOD}\n")
    doc = json.loads(out)
    assert code == 1
    assert len(doc["errors"]) == 1 and doc["errors"][0]["line"] == 1
    assert doc["errors"][0]["error"].startswith(f"{field}:")     # the line is not repeated
    assert len(doc["errors"][0]["error"]) < 200
    assert [p["line"] for p in doc["positions"]] == [2]


def test_user_text_prints_literally():
    code, out = run(["-"], f'{GOOD} ; id "[/] [bold]x"\n5[/] 1/2 - S\n')
    assert code == 1
    assert "[/] [bold]x" in out


def test_byte_order_mark_and_a_bad_byte():
    data = b"\xef\xbb\xbf" + GOOD.encode() + b"\n\xff\xfe nonsense\n" + GOOD.encode() + b"\n"
    code, out = run(["--json", "-"], data)
    doc = json.loads(out)
    assert [p["line"] for p in doc["positions"]] == [1, 3]
    assert doc["errors"][0]["line"] == 2 and "not UTF-8" in doc["errors"][0]["error"]
    assert [n for n, _ in parse_lines(["\ufeff" + GOOD])] == [1]


def test_a_byte_order_mark_inside_the_file_is_named():
    """Item 17: files joined with cat: not "'\\ufeff1' is not a card"."""
    bom = "a byte-order mark (U+FEFF) in the middle of the file (only its start may have one)"
    ((n, err),) = [(n, r) for n, r in parse_lines([GOOD, "\ufeff" + GOOD])
                   if isinstance(r, NotationError)]
    assert n == 2 and str(err) == f"line 2, line: {bom}"
    record = (Path(__file__).resolve().parent.parent / "positions" / "games"
              / "voleur-short.txt").read_text()
    # the games before it are read (files joined with cat lost them all,
    # and batch named the error game 1's)
    game, err = parse_games(record + "\ufeff" + record)
    assert not isinstance(game, RecordError) and game.hands
    second = record.count("\n") + 1
    assert isinstance(err, RecordError) and str(err) == f"line {second}, syntax: {bom}"
    # a mark inside a game's movetext: that game is not read, the one before is
    cut = record.rindex("\n", 0, len(record) - 2)
    game, err = parse_games(record + record[:cut] + "\n\ufeff" + record[cut + 1:])
    assert not isinstance(game, RecordError) and isinstance(err, RecordError)


def test_nan_and_infinite_budgets_are_refused():
    for opt in ("--time", "--memory"):
        for value in ("nan", "inf", "-1"):
            code, out = run([opt, value, "-"], GOOD + "\n")
            assert code == 2, (opt, value)


SHUFFLED = ("1.4.11 2.6.12/3.3.10 ~5.7.7.10.12.11 S taken=13,12 last=N "
            "gone=1.1.1.2.2.2.3.3.4.4.4.5.5.5.6.6.6.7.7.10.10.11.11.12.12")


@pytest.mark.parametrize("value", ["1e20", "1e308"])
def test_a_memory_budget_past_64_bits_is_one_usage_line(value):
    """``--memory 1e20`` (or 1e308) is a finite positive number, but the
    tables' sizes computed from it overflow 64 bits: it gave a traceback
    (OverflowError) on a position with a shuffled stock; now one usage
    line naming --memory, exit 2."""
    code, out = run(["--memory", value, "-"], SHUFFLED + "\n")
    assert code == 2 and "Traceback" not in out
    assert "'--memory'" in out and "at most 1,099,511,627,776 MB" in out


def test_the_largest_memory_budget_is_an_answer_or_one_line():
    """At the bound, the system refuses the table: one error line naming
    the memory, exit 1 (not a traceback)."""
    code, out = run(["--memory", str(1 << 40), "-"], SHUFFLED + "\n")
    assert "Traceback" not in out
    assert code == 0 or (code == 1 and out.strip().endswith("lower --memory")
                         and "line 1, memory: " in out)


def test_lines_are_answered_as_they_arrive():
    """With a pipe kept open, the first line's answer comes before end of
    input (--jsonl streams one object a line)."""
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli.main", "--jsonl", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            cwd=Path(__file__).resolve().parent.parent)
    try:
        proc.stdin.write((GOOD + "\n").encode())
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "no answer before the end of input"
        first = json.loads(proc.stdout.readline())
        assert first["line"] == 1 and first["best"] == ["7"]
        proc.stdin.close()
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_json_and_jsonl_together_is_a_usage_error():
    assert run(["--json", "--jsonl", "-"], GOOD)[0] == 2


RECORD = Path(__file__).resolve().parent.parent / "positions/games/engine-v-greedy.txt"


def test_records_with_a_byte_order_mark_read_as_one_game():
    games = parse_games("\ufeff" + RECORD.read_text())
    assert len(games) == 1 and not isinstance(games[0], RecordError)


@pytest.mark.parametrize("edit", [
    lambda t: t.replace("1. 4o 4b", f"1. {BIG} 4b", 1),
    lambda t: t.replace("1. 4o 4b", f"{BIG}. 4o 4b", 1),
    lambda t: t.replace('[Target "41"]', f'[Target "{BIG}"]', 1),
])
def test_huge_numbers_in_records_are_record_errors(edit):
    items = parse_games(edit(RECORD.read_text()))
    assert isinstance(items[0], RecordError)
    assert len(str(items[0])) < 200


def test_a_record_without_hands_is_refused(tmp_path):
    f = tmp_path / "empty.txt"
    f.write_text('[Event "x"]\n[Dealer "N"]\n')
    code, out = run(["annotate", "-q", str(f)])
    assert code == 1 and "nothing to annotate" in out


def test_annotate_progress_is_a_line_a_game_off_a_terminal():
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-m", "solver.cli.main", "annotate", "--luck-samples", "0",
                        "--samples", "4", str(RECORD)], capture_output=True, text=True,
                       cwd=Path(__file__).resolve().parent.parent, env=env, timeout=300)
    assert r.returncode == 0
    lines = [l for l in r.stderr.splitlines() if "evaluations" in l]
    assert len(lines) == 1 and "\r" not in r.stderr


def test_the_parser_refuses_what_it_should():
    with pytest.raises(NotationError):
        parse_position(f"{GOOD} score=1,{BIG}")


@pytest.mark.parametrize("line,message", [
    ("1.3.10.12 ?.?.?/?.?.? ? S declared=S:tringa5,N:tringa5", "S 3 and N 3 cards of rank 5"),
    ("1.3.10.12 5.?.?/?.?.? ? S declared=N:tringa7,S:ronda7", "N 3 and S 2 cards of rank 7"),
    ("1.3.10.12 5.5.?/?.?.? ? S declared=N:tringa5", "need N 3 cards of rank 5 and 2 more"),
    # hist= records the declarer's plays: the hand dealt is its hand and
    # those plays. S was dealt 5 7 11 (no pair of 2s) ...
    ("1.3.10.12.5.2.7.4 11/? ? S dealer=N declared=S:ronda2 prev=4 hist=1.3.10.12:S5,N2,S7,N4",
     "S:ronda2 does not fit S's hand dealt"),
    # ... S was dealt three 7s, a Tringa under lmodire ...
    ("1.3.12.2.4 7/? ? S dealer=N taken=3,0 last=S gone=7.7.10 declared=S:ronda7 prev=4 "
     "hist=1.3.10.12:S7,N2,S7,N4", "S was dealt three 7s and declares the Tringa only"),
    # ... and a hidden declarer: S laid 5 and 7, so its one hidden card
    # cannot make a pair of 2s (before, only the search refused it)
    ("1.3.10.12.5.2.7 ?/4.6 ? N dealer=N prev=7 hist=1.3.10.12:S5,N2,S7 declared=S:ronda2",
     "S:ronda2 does not fit S's hand dealt"),
])
def test_impossible_declarations_are_refused_by_the_parser(line, message):
    with pytest.raises(NotationError, match=message):
        parse_position(line)


def test_a_declaration_the_hist_plays_complete_is_accepted():
    """S declared a Ronda of 7s, laid a 5 and a 7: its hidden card is the
    other 7, which the plays allow."""
    pos = parse_position("1.3.10.12.5.2.7 ?/4.6 ? N dealer=N declared=S:ronda7 prev=7 "
                         "hist=1.3.10.12:S5,N2,S7")
    assert [(d.seat, d.kind, d.rank) for d in pos.declared] == [(0, "ronda", 7)]


def _without_taken(line: str) -> str:
    return " ".join(w for w in line.split() if not w.startswith("taken="))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**9), LINE_CASES)
def test_taken_may_be_omitted_and_only_shifts_the_values(seed, case):
    """Without ``taken=`` (every card known), each play's value is shifted
    by the same amount, half the difference of the piles left out (each
    card won is half a point of the card count), and the best plays are
    the same; the note says the values count only the cards left."""
    preset, players = case
    line = position_line(seed, preset, players)
    try:
        full = parse_position(line)
    except NotationError:
        assume(False)       # the random position breaks a notation check (as in test_properties)
    assume(full.taken is not None and sum(full.taken) > 0)
    short = parse_position(_without_taken(line))
    assert short.taken is None
    a, b = evaluate(full, method="exact"), evaluate(short, method="exact")
    side = side_of(full.turn, full.players)
    shift = Fraction(full.taken[side] - full.taken[1 - side], 2)
    va = {m.move: Fraction(m.value).limit_denominator(64) for m in a.moves}
    vb = {m.move: Fraction(m.value).limit_denominator(64) for m in b.moves}
    assert va.keys() == vb.keys()
    assert all(va[m] - vb[m] == shift for m in va)
    assert a.best == b.best
    assert "taken= not given" in b.note and "taken= not given" not in a.note


def test_taken_may_be_omitted_only_when_every_card_is_known():
    # a hidden hand without taken=: the line must say where the other cards are
    with pytest.raises(NotationError, match="with a hidden card"):
        parse_position("1.7 7.7.2/?.? 3.4.5 S")
    # the rule page's example, as typed: no piles
    code, out = run(["-"], "5.6 5.7/3.3 - S\n")
    assert code == 0
    assert "piles  not written (34 cards): the values count the cards still to be won" in out
    code, out = run(["--verbose", "-"], "5.6 5.7/3.3 - S\n")
    assert code == 0 and "taken= not given (34 cards" in out


def _hand_one_from_plays() -> str:
    """Hand 1 of engine-v-greedy.txt with its deals' hands left for the
    plays to show (so the stock is gathered from the plays)."""
    lines = Path("positions/games/engine-v-greedy.txt").read_text().splitlines()
    tags = [x for x in lines[:10] if not x.startswith(("[Result", "[Winner"))]
    body = [("deal " + x.split()[1]) if x.startswith("deal ") else x for x in lines[10:35]]
    return "\n".join(tags + body) + "\n"


@pytest.mark.parametrize("old,new,where,message", [
    # a suited card twice: N's last play repeats its 12o of round 2
    ("3. 11b 12b", "3. 11b 12o", "hand 1, deal 6, play 6",
     "N's play 12o was already seen in this hand (hand 1, deal 1, play 4)"),
    # a fifth 12: the table holds one, the plays bring four more
    ("1. 5c 5o", "1. 5c 12", "hand 1, deal 3, play 2", None),
    # a card of the opening table played again
    ("1. 4o 4b", "1. 4o 10o", "hand 1, deal 1, play 2",
     "N's play 10o was already seen in this hand (hand 1, table)"),
])
def test_a_card_seen_twice_is_reported_at_the_play_that_holds_it(old, new, where, message):
    text = _hand_one_from_plays()
    assert old in text
    bad = text.replace(old, new, 1)
    if message is None:     # a fifth 12: also make the last 12 unsuited, at deal 6
        bad = bad.replace("3. 11b 12b", "3. 11b 12", 1)
        where, message = ("hand 1, deal 6, play 6",
                          "N's play 12 is a fifth card of rank 12 (a deck has 4; "
                          "the first is in hand 1, table)")
    lineno = next(i for i, x in enumerate(bad.splitlines(), 1)
                  if x == (new if "fifth" not in message else "3. 11b 12"))
    [err] = parse_games(bad)
    assert isinstance(err, RecordError)
    assert str(err) == f"line {lineno}, {where}: {message}"


def test_json_numbers_carry_no_float_noise():
    """Every number in annotate's and the solver's JSON has at most
    DECIMALS decimals (whole values are integers): no 4.999999999999999."""
    import re
    from solver.numbers import DECIMALS
    code, out = run(["annotate", "--json", "-q", "positions/games/engine-v-greedy.txt"])
    assert code == 0
    code2, out2 = run(["--json", "positions/examples.txt"])
    for text in (out, out2):
        json.loads(text)
        noisy = re.findall(r"-?\d+\.\d{%d,}" % (DECIMALS + 1), text)
        assert noisy == []


def test_documentation_links_stay_inside_the_repository():
    """Every relative link of README.md and docs/*.md names a file of the
    repository (the rules were once linked outside it)."""
    import re
    root = Path(".").resolve()
    for page in [Path("README.md"), *sorted(Path("docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue        # a web address
            path = (page.parent / target).resolve()
            assert path.is_relative_to(root), f"{page}: {target} leaves the repository"
            assert path.exists(), f"{page}: {target} does not exist"


@pytest.mark.parametrize("deal_line,message", [
    # S is dealt 3o instead of 12b: the play of 12b (line 16) is the error
    ("deal 1 S 6e.1b.3o N", "line 16, hand 1, deal 1, play 5: S plays 12b: 12b is not in "
                            "S's hand (3o)"),
    # a fourth card on the deal line: the deal line is the error
    ("deal 1 S 6e.1b.12b.3o N", "line 13, hand 1, deal 1: deal 1 gives 3 cards a player, "
                                "but S has 4"),
])
def test_a_wrong_deal_line_is_reported_where_it_is(deal_line, message):
    text = Path("positions/games/planted-mistake.txt").read_text()
    assert "deal 1 S 6e.1b.12b N" in text
    [err] = [g for g in parse_games(text.replace("deal 1 S 6e.1b.12b N", deal_line, 1))
             if isinstance(g, RecordError)]
    assert str(err) == message


@pytest.mark.parametrize("args,message", [
    (["--memory", "abc"], "'--memory': 'abc' is not a number of megabytes"),
    (["--time", "abc"], "'--time': 'abc' is not a number of seconds"),
    (["--samples", "abc"], "'--samples': 'abc' is not a whole number"),
    (["--workers", "1.5"], "'--workers': '1.5' is not a whole number"),
    (["--seed", "abc"], "'--seed': 'abc' is not a whole number"),
    (["annotate", "--luck-samples", "x"], "'--luck-samples': 'x' is not a whole number"),
    (["puzzles", "generate", "--margin", "x"], "'--margin': 'x' is not a number of points"),
    (["serve", "--memory", "x"], "'--memory': 'x' is not a number of megabytes"),
    (["serve", "--timeout", "x"], "'--timeout': 'x' is not a number of seconds"),
    (["met", "--target", "x"], "'--target': 'x' is not a whole number"),
])
def test_a_numeric_option_that_is_not_a_number_says_what_is_wanted(args, message):
    """``--memory abc`` said ``'abc' is not a valid megabytes`` (and
    ``--samples abc`` ``is not a valid integer range``): one usage line
    saying what the option wants, exit 2."""
    head, opts = (args[:-2], args[-2:])
    code, out = run([*head, *opts, "-"] if head != ["met"] else [*head, *opts], GOOD + "\n")
    assert code == 2, out
    errors = [x for x in out.splitlines() if x.startswith("Error:")]
    assert errors == [f"Error: Invalid value for {message}"]


ARABIC_ONE, ARABIC_TWELVE = "\u0661", "\u0661\u0662"


@pytest.mark.parametrize("args,message", [
    (["--memory", ARABIC_ONE], "'--memory': '\u0661' is not a number of megabytes "
                               "(digits are ASCII 0-9)"),
    (["--time", ARABIC_ONE], "'--time': '\u0661' is not a number of seconds "
                             "(digits are ASCII 0-9)"),
    (["--samples", ARABIC_TWELVE], "'--samples': '\u0661\u0662' is not a whole number "
                                   "(digits are ASCII 0-9)"),
    (["--seed", "\uff17"], "'--seed': '\uff17' is not a whole number (digits are ASCII 0-9)"),
    (["--workers", ARABIC_ONE], "'--workers': '\u0661' is not a whole number "
                                "(digits are ASCII 0-9)"),
    (["--memory", "1_0"], "'--memory': '1_0' is not a number of megabytes "
                          "(no '_' between digits)"),
    (["--samples", "1_0"], "'--samples': '1_0' is not a whole number (no '_' between digits)"),
    (["annotate", "--luck-samples", ARABIC_ONE], "'--luck-samples': '\u0661' is not a whole "
                                                 "number (digits are ASCII 0-9)"),
    (["puzzles", "generate", "--margin", ARABIC_ONE], "'--margin': '\u0661' is not a number "
                                                      "of points (digits are ASCII 0-9)"),
    (["serve", "--memory", ARABIC_ONE], "'--memory': '\u0661' is not a number of megabytes "
                                        "(digits are ASCII 0-9)"),
    (["serve", "--port", ARABIC_ONE], "'--port': '\u0661' is not a whole number "
                                      "(digits are ASCII 0-9)"),
    (["met", "--target", ARABIC_ONE], "'--target': '\u0661' is not a whole number "
                                      "(digits are ASCII 0-9)"),
    # nan passed the margin's range check (every comparison false): a
    # puzzle check at --margin nan said every line verified
    (["puzzles", "check", "--margin", "nan"], "'--margin': 'nan' is not a finite number"),
    (["puzzles", "sheet", "-o", "x.svg", "--margin", "inf"],
     "'--margin': 'inf' is not a finite number"),
    (["batch", "mine", "--margin", "nan"], "'--margin': 'nan' is not a finite number"),
    # 100,000 search threads took 7 GB and 10 s to start: --time 1 was
    # kept by 9.9 s and the seed's answer changed (17 samples, not 96)
    (["--workers", "100000"], "'--workers': 100000 is not in the range 1<=x<=256."),
    (["annotate", "--jobs", "257"], "'--jobs': 257 is not in the range 1<=x<=256."),
    (["batch", "mine", "--workers", "1000"], "'--workers': 1000 is not in the range 1<=x<=256."),
    (["--method", "expectimax", "--cluster", "300"],
     "'--cluster': 300 is not in the range 1<=x<=256."),
])
def test_a_numeric_option_in_other_digits_is_refused(args, message):
    """``--memory \u0661`` (Arabic-Indic 1) was read as 1 MB and
    ``--memory 1_0`` as 10 MB: Python's int() and float() read other
    scripts' digits and ``_``, which the rule fields (``target=``) refuse.
    Now one usage line naming the option and why, exit 2."""
    head, opts = (args[:-2], args[-2:])
    code, out = run([*head, *opts, "-"] if head != ["met"] else [*head, *opts], GOOD + "\n")
    assert code == 2, out
    errors = [x for x in out.splitlines() if x.startswith("Error:")]
    assert errors == [f"Error: Invalid value for {message}"]


def test_the_table_builder_refuses_other_digits_too():
    """``python -m solver.match_equity.build --hands \u0661\u0660\u0660``
    (click's IntRange read it as 100) is refused as the command line's
    options are. (``--players 5``, read after it, keeps a builder that took
    the number from running: it is refused too, with another line.)"""
    from solver.match_equity.build import main as build_main
    r = CliRunner().invoke(build_main, ["--rules", "pagat", "--hands", "\u0661\u0660\u0660",
                                        "--players", "5"])
    assert r.exit_code == 2
    assert r.output.splitlines()[-1] == ("Error: Invalid value for '--hands': "
                                         "'\u0661\u0660\u0660' is not a whole number "
                                         "(digits are ASCII 0-9)")


@pytest.mark.parametrize("text", ["", "# only a comment\n\n   \n"])
def test_a_file_without_a_position_is_one_error_line(tmp_path, text):
    """An empty file (or one of comments and blank lines) printed nothing
    and exited 0: now one line naming the file, exit 1, as annotate says
    ``no game in the file``; ``--json`` and ``--jsonl`` give it as an
    error without a line, ``puzzles check`` and ``puzzles sheet`` say the
    same, and the other files are still answered."""
    f = tmp_path / "empty.txt"
    f.write_text(text)
    want = f"{f}: no position in the file (it is empty or holds only comments and blank lines)"
    r = CliRunner().invoke(main, [str(f)])
    assert r.exit_code == 1 and r.stderr.strip() == "error: " + want and r.stdout == ""
    r = CliRunner().invoke(main, ["--json", "-", str(f)], input=GOOD + "\n")
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and len(doc["positions"]) == 1
    assert doc["errors"] == [{"file": str(f), "line": None, "error": want.split(": ", 1)[1]}]
    r = CliRunner().invoke(main, ["--jsonl", str(f)])
    assert r.exit_code == 1 and json.loads(r.stdout)["line"] is None
    r = CliRunner().invoke(main, ["puzzles", "check", str(f)])
    assert r.exit_code == 1 and r.stderr.strip() == "error: " + want
    r = CliRunner().invoke(main, ["puzzles", "sheet", str(f), "-o", str(tmp_path / "s.svg")])
    assert r.exit_code == 1 and r.stderr.strip() == "error: " + want
    r = CliRunner().invoke(main, ["annotate", str(f)])
    assert r.exit_code == 1
    if not text:            # "#" is no comment in a record ({...} is)
        assert r.stderr.strip() == f"error: {f}: no game in the file"


def test_a_game_record_given_as_positions_is_one_line_naming_annotate():
    """A game record handed to ``ronda-solve`` printed one field error for
    each of its lines (34 for voleur-short.txt: "expected 4 fields ...
    got 7"): now one line at its first tag, naming the command that reads
    it, exit 1, and the other files still answered."""
    f = Path(__file__).resolve().parent.parent / "positions" / "games" / "voleur-short.txt"
    want = (f"{f}: line 1, line: a game record, not a position: mark its mistakes with "
            "`ronda-solve annotate FILE`")
    r = CliRunner().invoke(main, [str(f)])
    assert r.exit_code == 1 and r.stderr.strip() == "error: " + want and r.stdout == ""
    r = CliRunner().invoke(main, ["--json", str(f), "-"], input=GOOD + "\n")
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and [p["line"] for p in doc["positions"]] == [1]
    assert [(e["line"], e["error"].split(":")[0]) for e in doc["errors"]] == [(1, "line")]
    # a tag after a position: the positions before it are read, the record is one error
    items = list(parse_lines([GOOD, "", '[Event "x"]', "hand 1 dealer N table 1o"]))
    assert [n for n, _ in items] == [1, 3] and isinstance(items[1][1], NotationError)


def test_a_utf16_file_is_one_error_that_says_so(tmp_path):
    """A new user's pass: a UTF-16 file (Notepad's "Unicode") gave "not
    UTF-8 text (byte 0xff ...)" with no word of why, and ronda-solve an
    error for every line after it. It is one error naming UTF-16, for
    positions and for game records."""
    from solver.batch.inputs import games_of
    f = tmp_path / "u16.txt"
    f.write_bytes((GOOD + "\n" + GOOD + "\n").encode("utf-16"))
    code, out = run(["--json", str(f)])
    doc = json.loads(out)
    assert code == 1 and doc["positions"] == []
    assert [e["error"] for e in doc["errors"]] == [
        "line: not UTF-8 text (byte 0xff at column 1): it is UTF-16 text; save it as UTF-8"]
    [item] = list(games_of([f]))
    assert item.error == (f"{f}: line 1, line: not UTF-8 text (byte 0xff at column 1): it is "
                          "UTF-16 text; save it as UTF-8")


def test_a_byte_that_is_not_utf8_has_one_column_everywhere(tmp_path):
    """A breaking pass: the column counted bytes, and a file's byte-order
    mark (annotate said column 13 of a record where batch said 10). The
    column is the character's, as an editor counts it, the mark not
    counted, in every reader: positions, records, batch."""
    from solver.batch.inputs import files_of, games_of
    pos = tmp_path / "p.txt"
    pos.write_bytes(b"\xef\xbb\xbf1.2 3\xff/4 - S\n")
    crlf = tmp_path / "c.txt"
    crlf.write_bytes("1.2 3/4 - S\r\n# café ".encode() + b"\xff here\r\n")
    rec = tmp_path / "r.txt"
    rec.write_bytes(b'\xef\xbb\xbf[Event "x\xff"]\n')
    r = CliRunner().invoke(main, [str(pos)])
    assert r.exit_code == 1 and r.output == f"error: {pos}: line 1, line: not UTF-8 text (byte 0xff at column 6)\n"
    r = CliRunner().invoke(main, [str(crlf)])
    assert f"error: {crlf}: line 2, line: not UTF-8 text (byte 0xff at column 8)" in r.output
    r = CliRunner().invoke(main, ["annotate", str(rec)])
    assert r.exit_code == 1
    assert r.output == f"error: {rec}: line 1, line: not UTF-8 text (byte 0xff at column 10)\n"
    [item] = list(games_of(files_of((str(rec),))))
    assert item.error == f"{rec}: line 1, line: not UTF-8 text (byte 0xff at column 10)"
