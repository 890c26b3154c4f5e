"""`ronda-solve puzzles ...` (solver/cli/puzzles.py): generate, check, quiz,
sheet, and the shipped sets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli.main import main
from solver.notation import parse_file
from solver.puzzles.puzzle import make_puzzle
from solver.notation import parse_position

ROOT = Path(__file__).resolve().parent.parent
SETS = sorted((ROOT / "positions" / "puzzles").glob("*"))
HIT = "1.2 2.4/4 - S taken=17,18 last=N prev=2"
BAIT = "3.6.10.12 1.5.5/5.10 - S taken=17,14 last=N"


def run(args, stdin=None):
    return CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)


@pytest.fixture
def puzzle_file(tmp_path):
    f = tmp_path / "set.txt"
    f.write_text("# two puzzles\n" + make_puzzle(parse_position(HIT)).line() + "\n"
                 + make_puzzle(parse_position(BAIT)).line() + "\n")
    return f


def test_generate_writes_verified_puzzles_and_refuses_to_overwrite(tmp_path):
    out = tmp_path / "hit.txt"
    r = run(["puzzles", "generate", "--theme", "hit", "--count", "2", "--seed", "3",
             "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = [p for _n, p in parse_file(out.read_text())]
    assert len(lines) == 2
    assert all("hit" in p.opcode("themes").split() for p in lines)
    assert "hit (composed): 2 puzzles from" in r.stderr
    r = run(["puzzles", "generate", "--theme", "hit", "--count", "2", "-o", str(out)])
    assert r.exit_code == 2 and "exists; use --force" in r.output
    r = run(["puzzles", "generate", "--theme", "hit", "--count", "2", "--seed", "3",
             "-o", str(out), "--force"])
    assert r.exit_code == 0
    r = run(["puzzles", "check", str(out)])
    assert r.exit_code == 0 and "2 of 2 lines verified" in r.stdout


def test_generate_mined_to_stdout():
    r = run(["puzzles", "generate", "--source", "mined", "--count", "2", "--seed", "1"])
    assert r.exit_code == 0
    assert sum(1 for line in r.stdout.splitlines() if "; source mined ;" in line) == 2


def test_check_fails_with_one_line_errors(tmp_path, puzzle_file):
    bad = tmp_path / "bad.txt"
    text = puzzle_file.read_text().replace("; bm 2 ;", "; bm 4 ;")
    bad.write_text(text + "1.2 2.8/4 - S ; bm 2\n")
    r = run(["puzzles", "check", str(puzzle_file), str(bad)])
    assert r.exit_code == 1
    errors = r.stderr.strip().splitlines()
    assert errors == [
        f"error: {bad}: line 2, bm: the best play is 2 (+4), not 4 (-1)",
        f"error: {bad}: line 4, hands: rank 8 does not exist in a Spanish 40-card deck",
    ]
    assert "3 of 5 lines verified (exact), 2 failed" in r.stdout
    assert "Traceback" not in r.output


def test_check_reports_a_malformed_vv_as_a_line_error(tmp_path):
    """A ``vv`` that is not three numbers is an error of the line as it is
    read, not the engine's disagreement ("the engine gives 6 0 0, the line
    says a b c"). The line is positions/puzzles/composed-french3.txt's
    line 3 with its vector spoiled."""
    line = ("1.5.7.11.12 1.1.11/3.6/1.2 - S rules=french taken=6,7,15 last=S prev=1 ; bm 1 ; "
            "v 6 ; vv a b c ; id \"1cc4690\" ; themes hit ; level 1 ; depth 1 ; margin 3 ; "
            "method exact")
    f = tmp_path / "vv.txt"
    f.write_text(line + "\n")
    r = run(["puzzles", "check", str(f)])
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"error: {f}: line 1, vv: expected 3 numbers (one per seat), got 'a b c'"]
    f.write_text(line.replace("vv a b c", "vv 6 0 0") + "\n")
    r = run(["puzzles", "check", str(f)])
    assert r.exit_code == 0, r.output


def test_quiz_right_wrong_hint_and_quit(puzzle_file):
    # puzzle 1: a hint, a card not held, then the right play; puzzle 2: wrong
    r = run(["puzzles", "quiz", str(puzzle_file)], stdin="h\n7\n2\n1\n")
    assert r.exit_code == 0, r.output
    out = r.output
    # the hint gives the themes in words, not their tags ("hit avoid-hit")
    assert ("hint: take the card just played with the same rank (+1); do not leave a lone "
            "card to be hit") in " ".join(out.split())
    assert "you hold no 7" in out
    assert "right: 2" in out and "Play 2: it hits N's 2" in out
    assert "not 1: the answer is 5" in out
    assert "score: 1 of 2" in out
    # the board's (leads) marker is explained once a quiz
    assert out.count("(leads): plays first in each round") == 1
    r = run(["puzzles", "quiz", str(puzzle_file)], stdin="q\n")
    assert "score: 0 of 0" in r.output


def test_quiz_filters_and_errors(puzzle_file):
    r = run(["puzzles", "quiz", str(puzzle_file), "--theme", "answer5"], stdin="5\n")
    assert "right: 5" in r.output and "score: 1 of 1" in r.output
    r = run(["puzzles", "quiz", str(puzzle_file), "--theme", "missa"])
    assert r.exit_code == 2
    assert r.stderr.strip() == "error: no puzzle to ask (check the files and the filters)"


@pytest.mark.parametrize("filters", [["--theme", "missa"], ["--level", "3"]])
def test_sheet_whose_filters_match_nothing_writes_nothing(tmp_path, puzzle_file, filters):
    """``--theme`` or ``--level`` matching no puzzle wrote an empty sheet,
    "0 puzzles drawn", exit 0: with ``--force`` over a good sheet. Now one
    error line, exit 2 (as the quiz's), and the old sheet is kept."""
    out = tmp_path / "good.html"
    out.write_text("a good sheet")
    r = run(["puzzles", "sheet", str(puzzle_file), "-o", str(out), "--force", *filters])
    assert r.exit_code == 2
    assert r.stderr.strip() == ("error: no puzzle to draw (check the files and the filters): "
                                f"{out} not written")
    assert out.read_text() == "a good sheet"


def test_sheet_svg_and_html(tmp_path, puzzle_file):
    svg = tmp_path / "s.svg"
    r = run(["puzzles", "sheet", str(puzzle_file), "-o", str(svg)])
    assert r.exit_code == 0
    doc = svg.read_text()
    assert doc.startswith("<svg") and doc.count('class="card"') == (2 + 2 + 1) + (4 + 3 + 2)
    assert "Answers" in doc and "Play 2: it hits" in doc
    html = tmp_path / "s.html"
    assert run(["puzzles", "sheet", str(puzzle_file), "-o", str(html)]).exit_code == 0
    assert "<section class=\"page\">" in html.read_text()
    r = run(["puzzles", "sheet", str(puzzle_file), "-o", str(html)])
    assert r.exit_code == 2
    r = run(["puzzles", "sheet", str(puzzle_file), "-o", str(tmp_path / "s.pdf")])
    assert r.exit_code == 2 and ".svg or .html" in r.output


def test_shipped_sets_verify_exactly():
    assert len(SETS) >= 8
    r = run(["puzzles", "check", *map(str, SETS)])
    assert r.exit_code == 0, r.stderr
    puzzles = [p for f in SETS for _n, p in parse_file(f.read_text())]
    assert len(puzzles) >= 100
    themes = {t for p in puzzles for t in p.opcode("themes").split()}
    assert len(themes) >= 8
    assert {p.opcode("level") for p in puzzles} == {"1", "2", "3"}
    assert len({p.opcode("id") for p in puzzles}) == len(puzzles)
    assert all(p.opcode("method") == "exact" for p in puzzles)


def test_check_json(tmp_path, puzzle_file):
    import json
    r = run(["puzzles", "check", "--json", str(puzzle_file)])
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    assert doc["verified"] == 2 and doc["failed"] == 0
    assert [x["line"] for x in doc["lines"]] == [2, 3]
    bad = tmp_path / "bad.txt"
    bad.write_text(puzzle_file.read_text().replace("; v 4 ;", "; v 3 ;"))
    r = run(["puzzles", "check", "--json", str(bad)])
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert doc["lines"][0]["problems"] == [{"field": "v", "problem": "the value is +4, not 3"}]


def _plain(line: str, keep: tuple[str, ...]) -> str:
    """A shipped puzzle line cut down to its position and the ``keep``
    opcodes, as a teacher would write it."""
    pos, *ops = [x.strip() for x in line.split(";")]
    return " ; ".join([pos] + [op for op in ops if op.split()[0] in keep])


@pytest.mark.parametrize("keep", [("bm",), ("bm", "v")])
def test_check_verifies_a_teachers_plain_line_and_reports_its_themes(tmp_path, keep):
    shipped = [x for x in Path("positions/puzzles/hit.txt").read_text().splitlines()
               if x and not x.startswith("#")][:3]
    plain = tmp_path / "mine.txt"
    plain.write_text("".join(_plain(x, keep) + "\n" for x in shipped))
    r = run(["puzzles", "check", str(plain)])
    assert r.exit_code == 0, r.output
    assert "3 of 3 lines verified (exact)" in r.stdout
    for n, line in enumerate(shipped, start=1):
        ops = dict(op.strip().split(" ", 1) for op in line.split(";")[1:])
        assert (f"line {n}: verified: {ops['bm']} (+{ops['v']}, by {ops['margin']}); "
                f"themes found: {ops['themes']}; level {ops['level']}") in r.stdout
    # a wrong value is still caught, a missing bm is still a problem
    plain.write_text(_plain(shipped[0], ("bm",)) + " ; v 99\n"
                     + shipped[0].split(";")[0] + "\n")
    r = run(["puzzles", "check", "--json", str(plain)])
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and doc["failed"] == 2
    assert [p["field"] for p in doc["lines"][0]["problems"]] == ["v"]
    assert doc["lines"][0]["found"]["themes"] == ops_of(shipped[0])["themes"].split()
    assert [p["field"] for p in doc["lines"][1]["problems"]] == ["bm"]


def ops_of(line: str) -> dict:
    return dict(op.strip().split(" ", 1) for op in line.split(";")[1:])


def test_quiz_judges_by_the_exact_values_not_a_wrong_bm(tmp_path):
    """A line whose bm is wrong (by hand: S's 7 hits N's 7, +4; the 2 only
    lays, 0) or names one of two equal plays: the quiz follows the exact
    values and warns, the web answer says the same."""
    from solver.web.tasks import answer_puzzle
    line = "1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N"
    f = tmp_path / "mine.txt"
    f.write_text(f"{line} ; bm 2\n5.6 5.7/3.3 - S ; bm 5\n")
    r = run(["puzzles", "quiz", str(f)], stdin="7\n7\n")
    assert r.exit_code == 0
    assert "not 7" not in r.stdout and "score: 2 of 2" in r.stdout
    assert "warning: the line's bm (2) is not the engine's best (7)" in r.stdout.replace("\n", " ")
    doc = answer_puzzle(f"{line} ; bm 2", "2")
    assert doc["right"] is False and doc["best"] == "7" and doc["warning"]
    assert {m["move"]: m["value"] for m in doc["moves"]}["7"] == 4


# three players: the engine's max^n vectors (S, E, N), checked against the plain
# max^n of tests/reference3.py. VOLEUR3 by hand: S's 5 steals E's pile (top 5,
# 10 cards: S 12 + 10 + 1 = 23, +1 capture), E's 10 takes the 10 (+1), then
# nothing is taken (N 1, S 12, E 11, N 2 lay) and E, the last capturer, sweeps
# 5 cards (+1): S 1 + 3 (23 cards) = 4, E 2, N 0. TIE3: 3, 4 and 7 all give S
# 1; 4 leaves E and N 6 points, 3 and 7 leave them 7, so the max^n rule takes 4.
VOLEUR3 = "3.10 5.12/10.11/2.1 - S rules=french voleur=yes taken=12,10,10 last=N tops=2,5,3"
TIE3 = "11.3.10.12.10 7.4.3/12.2/1.1 - S rules=french dealer=S taken=11,1,16 last=N"


def reference3_values(line: str) -> dict:
    import reference3 as R3
    pos = parse_position(line)
    tops = [None if c is None else c.rank for c in pos.tops] if pos.tops else [None] * 3
    s = R3.S([c.rank for c in pos.table], [[c.rank for c in h] for h in pos.hands], [],
             pos.turn, pos.leader(), None, None, pos.last, list(pos.taken), tops, False)
    return R3.move_values(pos.rules, s)[0]


def test_three_player_quiz_judges_by_the_max_n_values(tmp_path):
    from solver.puzzles.puzzle import answer_ranks
    assert reference3_values(VOLEUR3) == {5: [4, 2, 0], 12: [1, 3, 5]}
    assert reference3_values(TIE3) == {3: [1, 1, 6], 4: [1, 1, 5], 7: [1, 1, 6]}
    assert answer_ranks(parse_position(f"{VOLEUR3} ; bm 12"))[0] == {5}
    assert answer_ranks(parse_position(f"{TIE3} ; bm 3"))[0] == {4}
    f = tmp_path / "three.txt"
    f.write_text(f"{VOLEUR3} ; bm 12\n{TIE3} ; bm 3\n{VOLEUR3} ; bm 5\n")
    r = run(["puzzles", "quiz", str(f)], stdin="12\n3\n5\n")
    assert r.exit_code == 0
    out = " ".join(r.stdout.split())
    assert "score: 1 of 3" in out and "right: 12" not in out
    assert "not 12: the answer is 5" in out and "not 3: the answer is 4" in out
    # 3 scores S as much as 4 (reference: 1 and 1), the tie rule picks 4
    assert ("not 3: the answer is 4; 3 scores as much for you (+1), but the answer leaves "
            "the other two less (the tie rule)") in out
    assert "not 12: the answer is 5;" not in out     # 12 scores S less (1 against 4)
    assert "right: 5" in out
    assert ("warning: the line's bm (12) is not the engine's best (5): the answer is judged "
            "by the exact values (S's entry of the max^n vectors") in out
    assert "the line's bm (3) is not the engine's best (4)" in out
    assert out.count("warning:") == 2            # not on the third line, whose bm is right
    # the values: the mover's entry, then a column per seat, then the loss
    rows = [line.split() for line in r.stdout.splitlines()]
    assert ["5", "│", "+4", "│", "4", "│", "2", "│", "0", "│"] in rows
    assert ["12", "│", "+1", "│", "1", "│", "3", "│", "5", "│", "3"] in rows
    assert ["4", "│", "+1", "│", "1", "│", "1", "│", "5", "│"] in rows
    assert ["3", "│", "+1", "│", "1", "│", "1", "│", "6", "│"] in rows


def test_quiz_and_sheet_leave_out_an_unreadable_line(tmp_path, puzzle_file):
    """One bad line in a puzzle file is one error line naming it; the other
    puzzles are still asked (drawn), and the exit status says a line was
    left out (1), as ronda-solve's does."""
    bad = tmp_path / "bad.txt"
    bad.write_text(puzzle_file.read_text() + "1.2 2.8/4 - S ; bm 2\n")
    r = run(["puzzles", "quiz", str(bad)], stdin="2\n5\n")
    assert r.stderr.strip().splitlines() == [
        f"error: {bad}: line 4, hands: rank 8 does not exist in a Spanish 40-card deck "
        "(left out)"]
    assert "score: 2 of 2" in r.stdout and "Usage" not in r.output
    assert r.exit_code == 1
    svg = tmp_path / "s.svg"
    r = run(["puzzles", "sheet", str(bad), "-o", str(svg)])
    assert r.exit_code == 1 and svg.exists() and "line 4, hands" in r.stderr


def test_check_refuses_a_bm_naming_several_plays(tmp_path):
    """A puzzle has one best play: ``bm 3 4`` is refused even though 3 is
    the best (it was verified on its first card alone)."""
    line = "2.3.7.12 1.3.4/5.7.12/1.1 - S rules=french taken=9,6,13 last=S prev=3"
    f = tmp_path / "multi.txt"
    f.write_text(f"{line} ; bm 3 4\n{line} ; bm 3\n")
    r = run(["puzzles", "check", str(f)])
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"error: {f}: line 1, bm: a puzzle names its one best play, not 2 (3 4)"]
    assert "1 of 2 lines verified" in r.stdout


def test_check_verifies_the_id_and_the_source(tmp_path):
    """The labels no search checks: ``id`` is the SHA-1 of the canonical
    position (a position edited after its id was written keeps a stale
    one), ``source`` one of the three documented ones."""
    import hashlib
    shipped = Path(__file__).parent.parent / "positions" / "puzzles" / "hit.txt"
    line = next(t for t in shipped.read_text().splitlines() if t and not t.startswith("#"))
    bare = line.split(";")[0].strip()
    true_id = hashlib.sha1(bare.encode()).hexdigest()[:7]
    assert f'id "{true_id}"' in line                  # the shipped line's own id
    wrong = "0000000" if true_id != "0000000" else "1111111"
    edited = line.replace(f'id "{true_id}"', f'id "{wrong}"').replace(
        "source composed", "source book")
    f = tmp_path / "labels.txt"
    f.write_text(f"{line}\n{edited}\n")
    r = run(["puzzles", "check", str(f)])
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"error: {f}: line 2, id: the position's id is {true_id}, the line says {wrong}: "
        f"was the position changed?",
        f"error: {f}: line 2, source: unknown source 'book' (sources: composed, selfplay, mined)"]
    assert "1 of 2 lines verified" in r.stdout


def test_generate_counts_one_puzzle_in_the_singular(tmp_path):
    """``1 puzzle from 1 candidate``, not ``1 puzzles from 1 candidates``."""
    from solver.puzzles.puzzle import Generation
    g = Generation("hit", "composed")
    g.puzzles = [make_puzzle(parse_position(HIT))]
    g.candidates = 1
    assert g.summary().startswith("hit (composed): 1 puzzle from 1 candidate (100%)")
    g.candidates = 3
    assert g.summary().startswith("hit (composed): 1 puzzle from 3 candidates (33%)")
    out = tmp_path / "one.txt"
    r = run(["puzzles", "generate", "--theme", "hit", "--count", "1", "--seed", "3",
             "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "hit (composed): 1 puzzle from " in r.stderr
    assert out.read_text().startswith("# 1 puzzle, theme hit")


TEACHER = ("# a teacher's sheet\n"
           "4 4.10/2.7 - S taken=18,17 last=S prev=4 ; bm 10 ; v 3\n"
           "1.3.6 6.6.10/6.7 - S taken=14,18 last=S prev=6 ; bm 6 ; v 3\n"
           "1.3.6 6.6.10/6.7 - S taken=14,18 last=S prev=6 ; bm 6 ; v 4 ; id \"0000000\"\n"
           "4 4.10/2.7 - S taken=18,17 last=S prev=4\n")


@pytest.mark.parametrize("suffix", [".svg", ".html"])
def test_sheet_leaves_out_an_answer_the_engine_contradicts(tmp_path, suffix):
    """``puzzles sheet`` printed a teacher's ``bm 10 ; v 3`` as the answer
    (``1. 10  (value 3)``) where 4 wins +5, while ``puzzles check`` and the
    quiz judge it wrong. The sheet checks the answer (``bm``, ``v``) as
    ``puzzles check`` does: a wrong one is one error line naming the file,
    line and field, the puzzle is left out, the others are drawn, exit 1.
    A line with no answer is left out too where the answers are printed
    (it printed ``?`` as its answer; a new user's pass), and drawn with
    ``--no-answers``; a stale ``id`` is ``puzzles check``'s to report, not
    the sheet's (the answer is still checked)."""
    f = tmp_path / "teacher.txt"
    f.write_text(TEACHER)
    out = tmp_path / f"sheet{suffix}"
    r = run(["puzzles", "sheet", str(f), "-o", str(out)])
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"error: {f}: line 2, bm: the best play is 4 (+5), not 10 (+3); "
        "v: the value is +5, not 3 (left out)",
        f"error: {f}: line 3, v: the value is +4, not 3 (left out)",
        f"error: {f}: line 5, bm: missing: the sheet prints each puzzle's answer (left out; "
        "--no-answers draws it)",
        f"1 puzzle drawn in {out}; 3 lines left out (said above)"]
    doc = out.read_text()
    if suffix == ".svg":
        answers = [t.split("</")[0] for t in doc.split(">") if t[:3] in ("1. ", "2. ", "3. ")]
        assert answers == ["1. 6  (value 4)"]
    else:
        assert "<b>6</b>" in doc and "<b>?</b>" not in doc and "<b>10</b>" not in doc
    assert "value 3" not in doc
    r = run(["puzzles", "sheet", str(f), "-o", str(out), "--force", "--no-answers"])
    assert r.exit_code == 1 and f"2 puzzles drawn in {out}; 2 lines left out" in r.stderr
    # the same lines, fixed: every puzzle drawn, exit 0
    fixed = TEACHER.replace("bm 10 ; v 3", "bm 4 ; v 5").replace("v 3", "v 4")
    f.write_text(fixed.replace("4 4.10/2.7 - S taken=18,17 last=S prev=4\n", ""))
    r = run(["puzzles", "sheet", str(f), "-o", str(out), "--force"])
    assert r.exit_code == 0 and r.stderr.startswith("3 puzzles drawn in")
    assert "error" not in r.stderr


def test_sheet_count_takes_the_puzzles_it_draws(tmp_path):
    """``--count 1`` draws one puzzle whose answer holds: a wrong first
    line is said and skipped, the next one drawn."""
    f = tmp_path / "teacher.txt"
    f.write_text(TEACHER)
    out = tmp_path / "sheet.svg"
    r = run(["puzzles", "sheet", str(f), "-o", str(out), "--count", "1"])
    assert r.exit_code == 1 and r.stderr.count("error:") == 2
    assert "1. 6  (value 4)" in out.read_text() and "2. " not in out.read_text()


def test_sheet_checks_the_margin_it_prints_and_writes_no_empty_sheet(tmp_path):
    """A line's ``margin`` is printed as part of the answer ("9 better than
    any other play"): one the engine contradicts (it gives 5) left the
    sheet printing it, exit 0, while ``puzzles check`` refused it. And
    when every puzzle is left out, no empty sheet is written (with
    ``--force`` it replaced a good one)."""
    line = "1.2 2.4/4 - S taken=17,18 last=N prev=2 ; bm 2 ; v 4 ; margin {}\n"
    f = tmp_path / "m.txt"
    f.write_text(line.format(9))
    out = tmp_path / "sheet.html"
    out.write_text("a good sheet")
    r = run(["puzzles", "sheet", str(f), "-o", str(out), "--force"])
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"error: {f}: line 1, margin: the engine gives 5, the line says 9 (left out)",
        f"error: no puzzle left to draw: {out} not written"]
    assert out.read_text() == "a good sheet"
    f.write_text(line.format(5))
    r = run(["puzzles", "sheet", str(f), "-o", str(out), "--force"])
    assert r.exit_code == 0, r.stderr
    assert "<b>2</b> <span class=meta>value 4 \u00b7 5 better than any other play" in out.read_text()


def test_sheet_says_its_errors_in_file_order(tmp_path):
    """A wrong answer on line 1 and an unreadable line 2: the sheet said
    line 2 first (the unreadable lines were said as the file was read,
    the wrong answers after). Both are now said in the file's order, the
    files in the order given."""
    f = tmp_path / "m.txt"
    f.write_text("1.2 2.4/4 - S taken=17,18 last=N prev=2 ; bm 2 ; v 4 ; margin 9\n"
                 "1.2 2.8/4 - S ; bm 2\n"
                 "1.2 2.4/4 - S taken=17,18 last=N prev=2 ; bm 2 ; v 4\n")
    g = tmp_path / "n.txt"
    g.write_text("1.2 2.8/4 - S ; bm 2\n")
    out = tmp_path / "sheet.svg"
    r = run(["puzzles", "sheet", str(f), str(g), "-o", str(out)])
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [
        f"error: {f}: line 1, margin: the engine gives 5, the line says 9 (left out)",
        f"error: {f}: line 2, hands: rank 8 does not exist in a Spanish 40-card deck "
        "(left out)",
        f"error: {g}: line 1, hands: rank 8 does not exist in a Spanish 40-card deck "
        "(left out)",
        f"1 puzzle drawn in {out}; 3 lines left out (said above)"]
    assert "1. 2  (value 4)" in out.read_text()


def test_quiz_judges_a_line_with_hidden_cards_by_its_bm_and_says_so(tmp_path):
    """The exact method cannot value a '?' hand or stock: the quiz takes
    the line's bm (as the web trainer now does) and warns that it is
    unchecked, where it said nothing."""
    f = tmp_path / "hidden.txt"
    f.write_text("1.5.11 5.7/?.?/?.? ? S rules=french taken=8,7,7 last=E "
                 "gone=1.1.2.2.2.3.3.4.4.5.6.6.7.7.7.10.10.11.11.12.12.2 ; bm 5\n")
    r = run(["puzzles", "quiz", str(f)], stdin="5\n")
    out = " ".join(r.stdout.split())
    assert "right: 5" in out and "score: 1 of 1" in out
    assert ("warning: a puzzle needs every card known (exact method): the answer is the "
            "line's bm (5), not checked by the engine") in out


@pytest.mark.parametrize("agents", ["human", "greedy,human", " human "])
def test_generate_refuses_a_human_agent_in_one_line(tmp_path, agents):
    """The generator plays its hands alone: a `human` seat is refused before
    any hand (no prompt, no traceback of the person's Quit), exit 2, and no
    output file is made."""
    out = tmp_path / "p.txt"
    r = CliRunner().invoke(main, ["puzzles", "generate", "--source", "selfplay", "--agents",
                                  agents, "--count", "1", "-o", str(out)], input="")
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert r.stderr.splitlines() == [
        "error: the puzzle generator plays its hands without a person: "
        "use `play` to play as human"]
    assert r.stdout == "" and not out.exists()


def test_a_file_that_cannot_be_read_leaves_the_other_files_checked(puzzle_file, tmp_path):
    """`puzzles check` with a good file, an empty one and one with a byte
    that is not UTF-8 on its second line: the two puzzles are still
    verified, each bad file is one error (line null in JSON), exit 1; the
    sheet is still made from the good file, and the quiz still asks."""
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"# a comment\ncaf\xe9 line\n")
    r = run(["puzzles", "check", "--json", str(puzzle_file), str(empty), str(bad)])
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert (doc["verified"], doc["failed"]) == (2, 0)
    assert doc["errors"] == [
        {"file": str(empty), "line": None,
         "error": f"{empty}: no position in the file (it is empty or holds only comments and "
                  "blank lines)"},
        {"file": str(bad), "line": None,
         "error": f"{bad}: line 2, line: not UTF-8 text (byte 0xe9 at column 4)"}]
    from test_schema import check
    check(doc, "puzzles.json")
    sheet = tmp_path / "s.html"
    r = run(["puzzles", "sheet", str(puzzle_file), str(bad), "-o", str(sheet)])
    assert r.exit_code == 1 and sheet.read_text().count("<svg") >= 2
    assert f"error: {bad}: line 2, line: not UTF-8 text (byte 0xe9 at column 4) (left out)" in \
        r.stderr
    r = run(["puzzles", "quiz", str(bad), str(puzzle_file)], stdin="q\n")
    assert "left out" in r.stderr and "score:" in r.stdout


def test_generate_that_finds_nothing_fails_and_writes_no_file(tmp_path):
    """No bait puzzle among the candidates of seed 1: exit 1 and one error
    line, no file of a header alone (which `puzzles check` refuses); with
    --json the figures on stderr are one JSON document (asked 2, found 0)
    and nothing else."""
    out = tmp_path / "f.txt"
    args = ["puzzles", "generate", "--theme", "bait", "--count", "2", "--seed", "1",
            "--max-candidates", "60", "-o", str(out)]
    r = run(args)
    assert r.exit_code == 1 and not out.exists()
    assert r.stderr.strip().splitlines()[-1] == (
        f"error: no puzzle found within 60 candidates; {out} not written")
    r = run(args + ["--json"])
    assert r.exit_code == 1 and not out.exists()
    doc = json.loads(r.stderr)
    assert (doc["puzzles"], doc["asked"], doc["candidates"]) == (0, 2, 60)
    from test_schema import check
    check(doc, "puzzles.json")


@pytest.mark.parametrize("name", [".html", ""])
def test_a_sheet_named_by_its_suffix_alone_asks_for_a_name(name):
    """`-o .html` said ".html: the sheet is .svg or .html", and `-o ''`
    "cannot write : No such file or directory"."""
    r = CliRunner().invoke(main, ["puzzles", "sheet", str(SETS[0]), "-o", name])
    assert r.exit_code == 2
    assert r.output.strip().splitlines()[-1] == (
        f"Error: -o {name!r}: name the file, e.g. sheet.html (the sheet is .svg or .html)")


def test_checking_only_an_empty_file_is_its_one_error(tmp_path, puzzle_file):
    """A new user's pass: `puzzles check` of an empty file printed its error
    and then "0 of 0 lines verified (exact)"; the error alone says it (exit
    1). With a readable file beside it the count is still printed."""
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    r = run(["puzzles", "check", str(empty)])
    assert r.exit_code == 1 and r.stdout == ""
    assert " ".join(r.stderr.split()) == (
        f"error: {empty}: no position in the file (it is empty or holds only comments and blank lines)")
    r = run(["puzzles", "check", str(puzzle_file), str(empty)])
    assert r.exit_code == 1 and "2 of 2 lines verified (exact)" in r.stdout


def test_quiz_of_an_empty_file_exits_as_the_other_commands(tmp_path):
    """A new user's pass: the quiz of a file with no position said its
    error, then "no puzzle to ask", exit 2, where check, sheet and
    ronda-solve exit 1 after the file's one error."""
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    r = run(["puzzles", "quiz", str(empty)], stdin="")
    assert r.exit_code == 1
    assert " ".join(r.stderr.split()) == (
        f"error: {empty}: no position in the file (it is empty or holds only comments and "
        "blank lines)")
