"""The ronda-solve command: JSON output, test-suite mode, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli.main import main
from solver.notation import parse_file
from solver.position import side_of

from reference import reference_value

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "positions"


def run(args, stdin=None):
    return CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)


def test_json_document_shape():
    r = run(["--json", str(POSITIONS / "seeds.txt")])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["errors"] == []
    first = doc["positions"][0]
    assert set(first) >= {"line", "position", "turn", "method", "value", "moves",
                          "best", "pv", "nodes", "seconds"}
    assert first["line"] == 5 and first["turn"] == "S" and first["method"] == "exact"
    # seed 002: the greedy run 5x5.6.7.10 loses 7 points against laying 1 or 2
    assert first["value"] == 6.0 and sorted(first["best"]) == ["1", "2"]
    assert {m["move"]: m["value"] for m in first["moves"]}["5"] == -1.0
    assert first["pv"][0]["move"] in first["best"] and first["pv"][0]["seat"] == "S"
    assert first["objective"] == "points"
    assert first["summary"] in ("exact: every card is known; 1 and 2 are equal",
                                "exact: every card is known; 2 and 1 are equal")
    assert {m["move"]: m["loss"] for m in first["moves"]}["5"] == 7


def test_suite_file_agrees_with_the_reference_and_the_engine():
    """positions/suite.txt: the reference brute force re-derives every bm
    and v; the command agrees with all of them."""
    text = (POSITIONS / "suite.txt").read_text()
    lines = parse_file(text)
    assert len(lines) == 16
    for _lineno, pos in lines:
        ranks = [[c.rank for c in h] for h in pos.hands]
        side = side_of(pos.turn, pos.players)
        last_side = None if pos.last is None else side_of(pos.last, pos.players)
        value, moves = reference_value(
            pos.rules, [c.rank for c in pos.table], ranks, [c.rank for c in pos.stock],
            pos.turn, pos.leader(), last_side=last_side, taken=pos.pile_sizes())
        best = sorted(r for r, v in moves.items() if v == value)
        assert best == sorted(int(t) for t in pos.opcode("bm").split())
        assert value == float(pos.opcode("v"))
        assert side == 0
    r = run(["--json", str(POSITIONS / "suite.txt")])
    assert r.exit_code == 0
    checks = [c for p in json.loads(r.stdout)["positions"] for c in p["suite"]]
    assert len(checks) == 32 and all(c["agrees"] for c in checks)


def test_suite_disagreement_exits_3():
    r = run(["-"], stdin="1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N ; bm 2 ; v 4\n")
    assert r.exit_code == 3
    assert "bm 2: disagrees (engine: 7)" in r.stdout
    assert "v 4: agrees" in r.stdout


@pytest.mark.parametrize("line,message", [
    ("1.3.5 8.2.7/4.6.12 ? S", "line 1, hands: rank 8 does not exist in a Spanish 40-card deck"),
    ("1.3.5 2.2.7/4.6.12 ? W", "line 1, turn:"),
    ("1.3.5 2.2.7/4.6.12 ? S rules=chinese", "line 1, rules: unknown preset 'chinese'"),
    ("5 -/5 - N taken=3,3 last=S", "line 1, taken: the table (1), the hands (1), the stock (0) and taken=3,3 make 8 cards, not 40"),
    ("1.3.5 2.2.7/4.6.12/1.1.1 ? S", "line 1, rules:"),
])
def test_bad_line_one_line_error_nonzero_exit(line, message):
    r = run(["-"], stdin=line + "\n")
    assert r.exit_code == 1
    assert "Traceback" not in r.output
    err_lines = [l for l in r.stderr.splitlines() if l.strip()]
    assert len(err_lines) == 1 and message in err_lines[0], r.stderr


def test_bad_line_does_not_stop_the_others():
    text = "1.3.5 8.2.7/4.6.12 ? S\n5 -/5 - N taken=19,19 last=S\n"
    r = run(["--json", "-"], stdin=text)
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert [e["line"] for e in doc["errors"]] == [1]
    assert [p["line"] for p in doc["positions"]] == [2]
    # N's 5 takes the 5 on the last card: no missa (lmodire), 21 cards: +1
    assert doc["positions"][0]["value"] == 1.0


def test_three_players_with_the_stock_unknown_are_sampled():
    """A three-player line is answered, not refused: with the stock order
    unknown (one deal to come), determinised search on value vectors, one
    per seat (docs/threep.md); and at the start of a hand, where one
    determinisation is a whole hand of max^n, auto still answers within
    its time (one ply when not one determinisation fits)."""
    line = ("1.3.5.11 2.4.6/7.10.12/1.3.5 ~2.2.2.4.4.4.6.6.6 S rules=french taken=6,6,6 "
            "last=S")
    r = run(["--json", "--time", "5", "--method", "determinised", "-"], stdin=line + "\n")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)["positions"][0]
    assert doc["method"] == "determinised" and len(doc["values"]) == 3
    assert doc["samples"] >= 1
    r = run(["--json", "--time", "1", "-"], stdin="1.3.5.11 2.4.6/7.10.12/1.3.5 ? S "
                                                  "rules=french\n")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)["positions"][0]
    assert doc["method"] in ("determinised", "one-ply") and len(doc["values"]) == 3


def test_missing_file_is_a_usage_error():
    r = CliRunner().invoke(main, ["no-such-file.txt"])
    assert r.exit_code == 2
    assert "Traceback" not in r.output


def test_a_word_that_is_neither_file_nor_command_says_so(tmp_path, monkeypatch):
    """Issue 19: not solve's 'No such file or directory' for a mistyped command."""
    commands = "annotate, arena, batch, db, met, play, puzzles, serve, solve"
    r = CliRunner().invoke(main, ["bogus-subcommand"])
    assert r.exit_code == 2
    assert r.stderr == f"error: no such file or command 'bogus-subcommand' (commands: {commands})\n"
    r = CliRunner().invoke(main, ["anotate", "x.txt"])
    assert r.exit_code == 2
    assert r.stderr == (f"error: no such file or command 'anotate' (commands: {commands}; did "
                        "you mean 'annotate'?)\n")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mygames").write_text("1.7 7.7.2/7.12 - S\n")      # a file by that name is read
    r = CliRunner().invoke(main, ["--json", "mygames"])
    assert r.exit_code == 0 and json.loads(r.stdout)["positions"][0]["best"] == ["7"]


def test_json_errors_do_not_repeat_the_line_number():
    """Issue 19: the line is in its own key; the text names the field."""
    text = "1.7 7.7.2/7.12 - S\n1.7 7.7.2/7.12 - S ...\n"
    for flag in ("--json", "--jsonl"):
        r = run([flag, "-"], stdin=text)
        assert r.exit_code == 1
        rows = (json.loads(r.stdout)["errors"] if flag == "--json"
                else [json.loads(x) for x in r.stdout.splitlines()][1:])
        assert rows == [{"file": "-", "line": 2, "error": (
            "line: expected 4 fields <table> <hands> <stock> <turn> before any key, got 5: "
            "'...' after the turn is one field too many (a key is written key=value)")}]
    r = run(["-"], stdin=text)
    assert r.stderr.startswith("error: -: line 2, line: expected 4 fields")


def test_four_players_are_refused_the_equilibrium_in_a_players_words():
    r = run(["--jsonl", "--method", "equilibrium", "-"],
            stdin="1.2.3.4 5.5.6/7.10.11/12.12.1/6.6.7 ? S rules=pagat\n")
    assert json.loads(r.stdout) == {"file": "-", "line": 1, "error": (
        "position: the equilibrium takes two players (a zero-sum game of two hands; four "
        "players: use exact, expectimax or determinised)")}


def test_the_boards_leads_mark_is_explained_once_a_run():
    """Issue 19: the board marks the seat that leads the deal ``(leads)``;
    the legend under the first table says what it means, once."""
    r = run([str(POSITIONS / "seeds.txt")])
    assert r.exit_code == 0, r.output
    out = r.stdout
    legend = "(leads): plays first in each round of this deal (the seat after the dealer)"
    assert out.count(legend) == 1 and out.count("│ S      ") >= 3
    # seed 002: S holds 5 1 2 after N dealt; the legend follows the first board's table
    assert "│ S      5 1 2 (leads)  ← to play" in out
    first_board_end = out.index("╰")
    assert first_board_end < out.index(legend) < out.index("╭", first_board_end)
    # S has played this round (one card fewer than N): S leads, N is to play
    r = run(["-"], stdin="1.7 7.12/7.7.2 - N\n")
    assert "│ S      7 12 (leads) " in r.stdout and "│ N      7 7 2  ← to play" in r.stdout
    assert r.stdout.count(legend) == 1


def test_determinised_is_seeded_and_reports_stderr():
    line = "1.4.11 2.6.12/3.3.10 ~5.7.7.10.12.11 S taken=13,12 last=N " \
           "gone=1.1.1.2.2.2.3.3.4.4.4.5.5.5.6.6.6.7.7.10.10.11.11.12.12\n"
    args = ["--json", "--method", "determinised", "--samples", "30", "--seed", "4", "-"]
    a = json.loads(run(args, stdin=line).stdout)
    b = json.loads(run(args, stdin=line).stdout)
    pa, pb = a["positions"][0], b["positions"][0]
    assert pa["method"] == "determinised" and pa["pv"] is None
    assert [m["value"] for m in pa["moves"]] == [m["value"] for m in pb["moves"]]
    assert all(m["stderr"] is not None and m["stderr"] >= 0 for m in pa["moves"])
    # every sample has at least one best move (ties count for each)
    assert sum(m["best_rate"] for m in pa["moves"]) >= 1 - 1e-9


def test_v_agrees_to_the_decimals_it_is_written_with(tmp_path):
    """An expectimax value copied from the JSON (six decimals) or the text
    (six significant digits) agrees; a value off in its last written
    decimal, or an integer that is not the value, does not. The value,
    257/84 = 3.0595238..., is what tests/reference3.py's plain expectimax
    gives for this line (R.move_values, about a second)."""
    line = "1.5.11 5/12/2 ~1.1.3.4.5.6.7.10.11 S rules=french taken=9,8,8 last=E ; v "
    f = tmp_path / "v.txt"
    f.write_text("".join(line + v + "\n" for v in ("3.059524", "3.05952", "3.0596", "3")))
    r = CliRunner().invoke(main, [str(f)])
    verdicts = [ln.split(":")[1].split()[0] for ln in r.output.splitlines() if ln.startswith("v ")]
    assert verdicts == ["agrees", "agrees", "disagrees", "disagrees"]
    assert r.exit_code == 3


def test_vv_is_checked_entry_by_entry_on_three_player_lines(tmp_path):
    """Test-suite mode compares ``vv`` (three players' vector, one entry a
    seat): the right vector agrees; a wrong entry disagrees; the exit
    status is 3. The vector 4 4 0 is that of the shipped puzzle
    positions/puzzles/composed-french3.txt line 2, which
    tests/test_threep_puzzles.py checks against tests/reference3.py."""
    three = "2.3.7.12 1.3.4/5.7.12/1.1 - S rules=french taken=9,6,13 last=S prev=3 ; vv "
    f = tmp_path / "vv.txt"
    f.write_text("".join(three + v + "\n" for v in ("4 4 0", "4 3 0")))
    r = CliRunner().invoke(main, [str(f)])
    lines = [ln for ln in r.output.splitlines() if ln.startswith("vv ")]
    assert lines == ["vv 4 4 0: agrees (engine: 4 4 0)",
                     "vv 4 3 0: disagrees (engine: 4 4 0)"]
    assert r.exit_code == 3


def test_a_malformed_vv_is_a_parse_error(tmp_path):
    """An unreadable, short or two-player ``vv`` is an error of its line
    when the line is read (exit 1, one line naming vv), not a
    disagreement (exit 3); the good line of the file is still solved."""
    three = "2.3.7.12 1.3.4/5.7.12/1.1 - S rules=french taken=9,6,13 last=S prev=3 ; vv "
    f = tmp_path / "vv.txt"
    f.write_text("".join(three + v + "\n" for v in ("4 4 0", "4 x 0", "4 4", "nan 0 0"))
                 + "1.2 2.4/4 - S taken=17,18 last=N prev=2 ; vv 1 2\n")
    r = CliRunner().invoke(main, [str(f)])
    assert [ln for ln in r.output.splitlines() if ln.startswith("vv ")] == \
        ["vv 4 4 0: agrees (engine: 4 4 0)"]
    errors = [ln.split(": ", 2)[2] for ln in r.output.splitlines() if "vv: " in ln]
    assert errors == ["line 2, vv: expected 3 numbers (one per seat), got '4 x 0'",
                      "line 3, vv: expected 3 numbers (one per seat), got '4 4'",
                      "line 4, vv: expected 3 numbers (one per seat), got 'nan 0 0'",
                      "line 5, vv: a value vector is for three players; this line has 2"]
    assert "Traceback" not in r.output
    assert r.exit_code == 1


def test_a_line_short_of_a_hand_blames_players_not_taken():
    """players=3 with two hands: the error is the players' (it named
    taken=, written for three sides), one line, exit 1."""
    r = CliRunner().invoke(
        main, ["-"], input="2.3 5.7/4.6 - S rules=french players=3 taken=10,11,11 last=E\n")
    assert r.exit_code == 1
    assert r.output.strip().splitlines()[-1] == \
        "error: -: line 1, players: players=3 does not allow 2 players"
    assert "Traceback" not in r.output
