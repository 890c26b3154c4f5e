"""The puzzle commands judge a line by the objective ``ronda-solve`` plays
it for (docs/match.md, docs/puzzles.md "Points or the match"): points,
unless the line writes a ``score=`` that brings the match objective in;
then the answer is the one play of the best chance of winning the match,
as the solver's test suite judges ``bm`` on the same line. They judged
in points whatever the score: ``puzzles check positions/match.txt``
failed every line, the quiz at 40-39 took the play with no chance of
winning the match, the sheet left every match puzzle out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cards import parse_card
from solver.cli.main import main
from solver.match_equity.objective import analyse
from solver.notation import parse_file, parse_position
from solver.puzzles.puzzle import answer_ranks, check_text, exact_values, verify

ROOT = Path(__file__).resolve().parent.parent
MATCH = ROOT / "positions" / "match.txt"


def run(args, stdin=None):
    return CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)


def match_lines() -> list[str]:
    """positions/match.txt's position lines without their ``id`` (a name,
    "match 1", not a puzzle id, which ``puzzles check`` verifies)."""
    return [re.sub(r' ; id "[^"]*"', "", line) for line in MATCH.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


#: match 1 (S to play at 40-39): 6 wins the match (100%), 2 is 2 points
#: better and loses it (0%)
M1 = match_lines()[0]


@pytest.fixture
def match_file(tmp_path):
    f = tmp_path / "match.txt"
    f.write_text("\n".join(match_lines()) + "\n")
    return f


def one(tmp_path, line: str) -> Path:
    f = tmp_path / "one.txt"
    f.write_text(line + "\n")
    return f


def test_check_agrees_with_the_solver_on_every_match_line(match_file):
    """Every bm of positions/match.txt is the match-winning play, which the
    solver's test suite agrees with: puzzles check verifies all six, each
    said to be played for the match."""
    r = run(["puzzles", "check", str(match_file)])
    assert r.exit_code == 0, r.output
    assert "6 of 6 lines verified (exact)" in r.stdout
    assert "line 1: verified, playing for the match: S 40, N 39, target 41: 6e wins it " \
           "100%, 2o 0%" in r.stdout
    assert r.stdout.count("verified, playing for the match") == 6
    for (lineno, pos), checked in zip(parse_file(match_file.read_text()),
                                      check_text(match_file.read_text())):
        a = analyse(pos, method="exact")          # what ronda-solve FILE judges by
        assert a.objective == "match" and checked.objective == "match"
        assert [parse_card(b).rank for b in a.best] == [int(pos.opcode("bm"))]
        assert checked.ok, (lineno, checked.problems)


def test_check_json_names_the_objective(match_file):
    import json
    r = run(["puzzles", "check", "--json", str(match_file)])
    doc = json.loads(r.stdout)
    assert doc["verified"] == 6 and doc["failed"] == 0
    assert {line["objective"] for line in doc["lines"]} == {"match"}
    assert doc["lines"][0]["objective_note"].startswith("playing for the match: S 40, N 39")
    assert doc["lines"][0]["chances"] == {"6e": 1, "2o": 0}


def test_check_rejects_the_points_answer_under_the_match(tmp_path):
    """The points objective's play (the line's am) as the bm: rejected with
    the match's best play and both chances; v compared as ronda-solve
    compares it (the points value); the points margin said unchecked; the
    level the points play has (3) is not the match play's (2: see
    test_match_level_and_themes_follow_the_match_play)."""
    line = M1.replace("bm 6 ; am 2", "bm 2 ; v -2 ; margin 3 ; level 3")
    problems, _found = verify(parse_position(line))
    assert [str(p) for p in problems] == [
        "bm: the best play for the match is 6e (100% to win it), not 2 (0% to win it)",
        "level: the engine gives 2 for the match, the line says 3"]
    r = run(["puzzles", "check", str(one(tmp_path, line))])
    assert r.exit_code == 1
    assert "line 1, bm: the best play for the match is 6e (100% to win it), not 2" in r.stderr
    assert ("line 1: playing for the match: S 40, N 39, target 41: 6e wins it 100%, 2o 0%; "
            "margin not checked (points)") in r.stderr


def test_check_without_a_score_judges_in_points_as_before(tmp_path):
    """No score written: points, unchanged (the message of before the
    fix); a score the target cannot be reached from this hand: points,
    and one line says why."""
    bare = M1.replace(" score=40,39", "")
    r = run(["puzzles", "check", str(one(tmp_path, bare))])
    assert r.exit_code == 1
    assert "line 1, bm: the best play is 2o (-2), not 6 (-5)" in r.stderr
    assert "match" not in r.output
    far = M1.replace("score=40,39", "score=10,12").replace("bm 6", "bm 2")
    r = run(["puzzles", "check", str(one(tmp_path, far))])
    assert r.exit_code == 0, r.output
    assert ("line 1: verified: 2o (-2, by 3); themes found: declaration; level 3 (points: "
            "the target 41 cannot be reached this hand (score 10-12))") in r.stdout


def test_quiz_at_40_39_takes_the_match_winning_play(tmp_path):
    f = one(tmp_path, M1)
    r = run(["puzzles", "quiz", str(f)], stdin="6\n")
    assert r.exit_code == 0
    assert "playing for the match: S 40, N 39, target 41" in r.stdout
    assert "right: 6 (100% to win the match)" in r.stdout and "score: 1 of 1" in r.stdout
    assert "warning" not in r.stdout and "win match" in r.stdout
    r = run(["puzzles", "quiz", str(f)], stdin="2\n")
    assert "not 2: the answer is 6 (100% to win the match; 2: 0%)" in r.stdout
    assert "score: 0 of 1" in r.stdout
    best, warning = answer_ranks(parse_position(M1))
    assert best == {6} and warning is None
    ev = exact_values(parse_position(M1))
    assert ev.objective == "match" and ev.best == ["6e"]
    assert ev.chances == {"6e": 1.0, "2o": 0.0} and ev.moves == {"6e": -5.0, "2o": -2.0}


def test_quiz_without_a_score_is_unchanged(tmp_path):
    f = one(tmp_path, M1.replace(" score=40,39", "").replace("bm 6", "bm 2"))
    r = run(["puzzles", "quiz", str(f)], stdin="2\n")
    assert "right: 2" in r.stdout and "match" not in r.stdout and "win match" not in r.stdout


def test_sheet_draws_the_match_puzzles_with_their_objective(tmp_path, match_file):
    out = tmp_path / "match.html"
    r = run(["puzzles", "sheet", str(match_file), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "6 puzzles drawn" in r.stderr and "left out" not in r.stderr
    html = out.read_text()
    assert html.count("playing for the match: S 40, N 39, target 41") == 2   # drawing, answer
    assert "playing for the match: S 40, N 39, target 41; 100% to win it" in html
    svg = tmp_path / "match.svg"
    assert run(["puzzles", "sheet", str(match_file), "-o", str(svg)]).exit_code == 0
    assert 'class="objective"' in svg.read_text()


def test_sheet_leaves_out_a_points_answer_under_the_match(tmp_path):
    line = M1.replace("bm 6 ; am 2", "bm 2")
    r = run(["puzzles", "sheet", str(one(tmp_path, line)), "-o", str(tmp_path / "s.html")])
    assert r.exit_code == 1
    assert "line 1, bm: the best play for the match is 6e (100% to win it), not 2" in r.stderr


def test_sheet_names_the_match_play_of_a_line_without_bm(tmp_path):
    """A line played for the match that names no best play: its answer on
    the sheet is the match's best play (6e, 100%), not "?" before a
    chance of no play named."""
    line = M1.replace(" ; bm 6 ; am 2", "")
    assert " bm " not in line
    out = tmp_path / "s.html"
    r = run(["puzzles", "sheet", str(one(tmp_path, line)), "-o", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    assert "<li><b>6e</b> <span class=meta>playing for the match: S 40, N 39, target 41; " \
           "100% to win it" in html
    assert "<b>?</b>" not in html


def test_a_match_line_drawn_from_the_mover_seat_is_judged_over_the_hidden_hands():
    """Match 1 written as a declaration puzzle (themes declaration: drawn
    from S's seat) is judged over the hands S cannot tell apart, in
    points, as check says: 2o is best there (N's 2e.2b hidden but the
    declared pair), so the trainer does not accept the line's bm 6 and
    its table agrees (it accepted 6 and marked it best with a loss of 3,
    the values with N's hand seen); the warning says both."""
    from solver.web.tasks import answer_puzzle
    doc = answer_puzzle(M1 + " ; themes declaration", "6")
    assert doc["right"] is False and doc["best"] == "2" and doc["view"] == "mover"
    assert "objective" not in doc
    assert "judged over the hidden hands in points only" in doc["warning"]
    assert "the line's bm (6) is not the best play over the hands you cannot see (2o)" \
        in doc["warning"]
    rows = {m["move"]: (m["loss"] == 0, m["best"]) for m in doc["moves"]}
    assert rows == {"2o": (True, True), "6e": (False, False)}


def test_web_answer_is_judged_for_the_match():
    from solver.web.tasks import answer_puzzle
    doc = answer_puzzle(M1, "6")
    assert doc["right"] is True and doc["best"] == "6" and doc["objective"] == "match"
    assert doc["objective_note"] == "playing for the match: S 40, N 39, target 41"
    assert {m["move"]: (m["chance"], m["best"]) for m in doc["moves"]} == {
        "6e": (1, True), "2o": (0, False)}
    assert answer_puzzle(M1, "2")["right"] is False


def test_the_new_keys_follow_the_schemas(match_file):
    """puzzles check --json and the web answer of a line played for the
    match validate against docs/schema (the keys they gained)."""
    import json
    from test_schema import check
    from solver.web.tasks import answer_puzzle
    check(json.loads(run(["puzzles", "check", "--json", str(match_file)]).stdout),
          "puzzles.json#/$defs/check")
    check(answer_puzzle(M1, "2"), "web.json#/$defs/puzzle_answer")


def test_the_shipped_match_suite_checks_as_it_ships():
    """positions/match.txt names its lines `id "match 1"` ...: a test
    suite's labels, not puzzle ids (7 hex digits), so `puzzles check`
    verifies the file as shipped; a stale puzzle id is still caught
    (tests/test_puzzle_cli.py)."""
    from click.testing import CliRunner
    from solver.cli.main import main
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "positions" / "match.txt"
    r = CliRunner().invoke(main, ["puzzles", "check", str(path)])
    assert r.exit_code == 0, r.output
    assert "id:" not in r.output


#: the tester's line: match 1 without its gone= and declared=, suited answers
M1_SHORT = "12 6e.2o/2c.2e - S score=40,39 taken=19,16 last=N ; bm 6e ; am 2o"


@pytest.mark.parametrize("line", [M1, M1_SHORT])
def test_web_answer_under_the_match_explains_the_match_not_the_points(line):
    """The answer was the match's (6) but the explanation, pv, value and
    losses were the points objective's ("Play 2: ... Next best 6 (-5, 3
    less)", pv 2 2 6 2, value -2, 2o loss 0). Now they follow the match:
    positions/match.txt works match 1 out by hand: 6 wins it (S lays 6, N
    must lay a 2, S's 2 hits it: 41), 2 loses it (0%); in points 2 is -2,
    6 is -5."""
    from solver.web.tasks import answer_puzzle
    doc = answer_puzzle(line, "6")
    assert doc["right"] is True and doc["best"] == "6"
    assert doc["value"] == 1                      # 6's chance of winning the match
    assert doc["pv"] == ["6", "2", "2"]           # S 6, N 2, S 2 hits: S 41
    assert doc["explanation"].startswith(
        "Playing for the match: S 40, N 39, target 41. Play 6: 100% to win the match: it "
        "lays 6; N holds no 6 to hit it; then N lays 2, S hits N's 2 (+1).")
    assert "Play 2" not in doc["explanation"] and "Next best" not in doc["explanation"]
    assert ("In points this hand 2o is worth more (-2 against -5 for 6e), but it wins the "
            "match less often (0%).") in doc["explanation"]
    assert doc["played_line"].startswith("100% to win the match: it lays 6;")
    assert [(m["move"], m["value"], m["loss"], m["best"], m["points"]) for m in doc["moves"]] \
        == [("6e", 1, 0, True, -5), ("2o", 0, 1, False, -2)]
    wrong = answer_puzzle(line, "2")
    assert wrong["right"] is False and wrong["pv"] == ["6", "2", "2"]
    assert wrong["played_line"].startswith("0% to win the match (in points this hand, -2: it "
                                           "lays 2;")


@pytest.mark.parametrize("index, best", [(1, "10"), (2, "11")])
def test_web_answer_of_match_2_and_3_explains_the_match(index, best):
    """match 2 (S's 10 hits N's 10: 41) and match 3 (N's 11 takes, then
    N's 5 hits S's 5: 41), worked out in positions/match.txt: the
    explanation and the line are the match's best play's, its chance 100%."""
    from solver.web.tasks import answer_puzzle
    doc = answer_puzzle(match_lines()[index], best)
    assert doc["right"] is True and doc["value"] == 1 and doc["pv"][0] == best
    assert doc["explanation"].split(": it ")[0].endswith(f"Play {best}: 100% to win the match")
    assert [m["move"] for m in doc["moves"] if m["loss"] == 0] == [
        m["move"] for m in doc["moves"] if m["best"]]


def test_quiz_under_the_match_gives_losses_in_chance_and_points_as_points(tmp_path):
    r = run(["puzzles", "quiz", str(one(tmp_path, M1))], stdin="2\n")
    rows = {line.split()[0]: line.split() for line in r.stdout.splitlines()
            if line.strip()[:2] in ("6e", "2o")}
    # play, win match, loss (chance), points this hand
    assert rows["6e"][1:] == ["│", "100%", "│", "│", "-5"]
    assert rows["2o"][1:] == ["│", "0%", "│", "100%", "│", "-2"]
    assert "points this hand" in r.stdout and "value and loss: points" not in r.stdout
    assert "line for the match: 6e: it lays 6; N holds no 6 to hit it; then N lays 2, S hits" \
        in " ".join(r.stdout.split())


def test_check_json_under_the_match_gives_the_matchs_answer_as_found(match_file):
    import json
    doc = json.loads(run(["puzzles", "check", "--json", str(match_file)]).stdout)
    first = doc["lines"][0]
    # the themes a line played for the match writes (declaration, true of
    # 6's line, is not one of them: MatchIdea.written)
    assert first["found"] == {"best": "6e", "chance": 1, "pv": ["6", "2", "2"],
                              "themes": [], "unjudged": ["avoid-hit"],
                              "level": 2}
    assert first["points"]["best"] == "2o" and first["points"]["value"] == -2
    assert [line["found"]["best"] for line in doc["lines"]] == [
        "6e", "10e", "11c", "7e", "1e", "2c"]


def test_sheet_draws_the_match_plays_stars_and_themes(tmp_path):
    """A line played for the match is drawn with the level and themes of
    the match's play (match 1: level 2, no theme a line writes for the
    match: declaration would hide the hands), not those it writes
    (here the points play's level 3 and a wrong bait, which the sheet
    drew, labelled 'themes in points', under the stars of the points
    play)."""
    line = M1 + " ; themes bait ; level 3"
    f = one(tmp_path, line)
    for out in (tmp_path / "s.html", tmp_path / "s.svg"):
        r = run(["puzzles", "sheet", str(f), "-o", str(out), "--show-themes"])
        assert r.exit_code == 0, r.output
        text = out.read_text()
        assert "bait" not in text and "themes in points" not in text
        assert "\u2605\u2605\u2606" in text and "\u2605\u2605\u2605" not in text


def test_theme_and_level_filters_read_the_match_play(tmp_path):
    """--theme and --level select a line played for the match by its
    match play's level and themes (match 1: level 2, no theme a line
    writes: see the test above), not those it writes (the points play's
    level 3 and a bait, which the filters matched before): sheet and
    quiz; the web trainer's list gives the match play's too."""
    from solver.web.tasks import open_puzzles
    line = M1 + " ; themes bait ; level 3 ; depth 3"
    f = one(tmp_path, line)
    out = tmp_path / "s.html"
    for args, drawn in ((["--level", "2"], True), (["--level", "3"], False),
                        (["--theme", "bait"], False)):
        r = run(["puzzles", "sheet", str(f), "-o", str(out), "--force", *args])
        assert (r.exit_code == 0) == drawn, (args, r.output)
        assert ("1 puzzle drawn" in r.stderr) == drawn, (args, r.stderr)
        r = run(["puzzles", "quiz", str(f), *args], stdin="s\n")
        assert ("puzzle 1/1" in r.stdout) == drawn, (args, r.stdout)
    listed = open_puzzles(line + "\n")["puzzles"][0]
    assert (listed["level"], listed["themes"], listed["depth"]) == ("2", [], "2")


def test_a_tie_for_the_match_has_no_level(tmp_path):
    """Match 1 at S 39, N 40: N wins the match whatever S plays (6e and 2o
    both 0%), a tie, so no play is singled out: check says so (bm) and
    gives no level for the match (null in --json; it read 3, the level of
    a look-ahead that never separates the plays), nor compares the level
    the line writes; the points examination keeps its own (2 beats 6 by 3
    points)."""
    import json
    from solver.puzzles.puzzle import as_played_for_the_match, match_idea
    line = M1.replace("score=40,39", "score=39,40") + " ; level 1 ; depth 1"
    pos = parse_position(line)
    seen = match_idea(pos)
    assert (seen.margin, seen.level, seen.depth) == (0.0, None, None)
    drawn = as_played_for_the_match(pos)
    assert drawn.opcode("level") is None and drawn.opcode("depth") is None
    r = run(["puzzles", "check", "--json", str(one(tmp_path, line))])
    assert r.exit_code == 1
    entry = json.loads(r.stdout)["lines"][0]
    assert [p["field"] for p in entry["problems"]] == ["bm"]
    assert entry["problems"][0]["problem"] == \
        "several best plays for the match: 2o 6e (0% to win it)"
    assert entry["found"]["level"] is None and entry["found"]["chance"] == 0
    assert entry["points"]["best"] == "2o" and entry["points"]["level"] in (1, 2, 3)


def test_filters_read_the_match_play_the_line_does_not_write(match_file):
    """positions/match.txt writes no level or theme: the filters use the
    match play's all the same (check finds level 1 for 4 lines, hit for
    3; they found none before), and the web list gives them."""
    from solver.web.tasks import open_puzzles
    r = run(["puzzles", "quiz", "--level", "1", str(match_file)], stdin="q\n")
    assert "puzzle 1/4" in r.stdout, r.stdout
    out = match_file.parent / "hit.html"
    r = run(["puzzles", "sheet", str(match_file), "-o", str(out), "--theme", "hit"])
    assert r.exit_code == 0 and "3 puzzles drawn" in r.stderr, r.output
    listed = open_puzzles(match_file.read_text())["puzzles"]
    assert [p["level"] for p in listed].count("1") == 4
    assert sum("hit" in p["themes"] for p in listed) == 3


def test_a_declaration_puzzle_with_a_score_stays_drawn_from_the_mover_seat(tmp_path):
    """positions/puzzles/declaration.txt's first puzzle with score=39,39
    (the match could be won): drawn from S's seat, it is judged over the
    hidden hands in points (check says so), so the quiz keeps N's third
    card face down and its declaration theme (it showed N's whole hand
    and judged the chance of winning the match), warning why."""
    from solver.puzzles.puzzle import as_played_for_the_match, match_answer
    line = ("4.7.10 1.12.12/1.1.2 - S taken=13,18 last=S score=39,39 "
            "declared=S:ronda12,N:ronda1 ; bm 1 ; themes declaration")
    pos = parse_position(line)
    assert as_played_for_the_match(pos) is pos and match_answer(pos) is None
    f = one(tmp_path, line)
    r = run(["puzzles", "quiz", "--theme", "declaration", str(f)], stdin="1\n")
    assert "N      1 1 ?" in r.stdout and "right: 1" in r.stdout
    assert "judged over the hidden hands in points only" in r.stdout
    assert "to win the match" not in r.stdout


#: match 3 (N to play at S 39, N 40, prev=3b): 11 takes the 11 and the 12
#: from the table (+3 half-points at once), and then N hits S's 5 for the
#: 41st point; 5 lays a card (nothing), the points answer (-2 against -9)
M3 = match_lines()[2]


def test_match_level_and_themes_follow_the_match_play():
    """The themes and level of a line played for the match are its play's,
    worked out by hand. Match 3: 11 captures (so not quiet, not a hit, no
    missa, no run of three ranks: 11 and 12 only), and in the match's line
    (11, S lays 5, N hits it) N hits the declared 5 (S:ronda5) within three
    plies: declaration; the line ends with the match, before the hand's
    end: no sweep; avoid-hit needs the line after 5 for the match, which
    the match search does not give: not judged. Level: 11 gains at once
    and 5 gains nothing, so the play's own gain shows it: depth 1, level 1.
    The points play 5 has sweep declaration quiet, level 3. Match 1 (S:
    6e.2o against N's 2e.2b, table 12c): 6 and 2 both lay (gain 0, so 2 is
    tempting); a two-ply look-ahead sees N hit the 2 (-1) and not the 6:
    depth 2, level 2 (points: 2, level 3); the match's line 6, 2, 2 hits
    N's declared 2 at the third ply: declaration."""
    from solver.puzzles.puzzle import examine, match_idea
    pos = parse_position(M3)
    seen = match_idea(pos)
    assert (seen.best, seen.themes, seen.unjudged, seen.depth, seen.tempting, seen.level) == (
        "11c", ["declaration"], ["avoid-hit"], 1, 0, 1)
    points = examine(pos)
    assert (points.best, points.themes, points.level) == (
        "5b", ["sweep", "declaration", "quiet"], 3)
    seen = match_idea(parse_position(M1))
    assert (seen.best, seen.themes, seen.depth, seen.tempting, seen.level) == (
        "6e", ["declaration"], 2, 1, 2)
    assert examine(parse_position(M1)).level == 3
    # no score: points, no match idea
    assert match_idea(parse_position(M3.replace(" score=39,40", ""))) is None


def test_check_verifies_a_match_lines_themes_and_level_for_the_match(tmp_path):
    """puzzles check compares the themes and level a match line writes with
    the match play's: the points play's (which it left unchecked) are
    refused, a theme it cannot judge for the match is said so, and a
    plain line gets the match play's themes and level."""
    good = M3 + " ; level 1 ; depth 1"
    problems, _found = verify(parse_position(good))
    assert problems == []
    # the points play's themes (declaration, which would draw the puzzle
    # from the mover's seat, left out: a match line does not write it)
    points = M3 + " ; themes sweep quiet ; level 3"
    assert [str(p) for p in verify(parse_position(points))[0]] == [
        "themes: the engine gives (none) for the match, the line says sweep quiet",
        "level: the engine gives 1 for the match, the line says 3"]
    unjudged = M3 + " ; themes avoid-hit"
    assert [str(p) for p in verify(parse_position(unjudged))[0]] == [
        "themes: avoid-hit cannot be judged for the match (it reads the line after every "
        "other play, which the match search does not give); the engine gives (none) "
        "for the match"]
    # match 6: 2 hits (S's 2b just played), written for the match
    m6 = match_lines()[5] + " ; themes hit ; level 1"
    assert verify(parse_position(m6))[0] == []
    r = run(["puzzles", "check", str(one(tmp_path, M3))])
    assert r.exit_code == 0, r.output
    assert ("line 1: verified, playing for the match: S 39, N 40, target 41: 11c wins it 100%, "
            "5b 0%; themes found for the match: none (and declaration, a theme a line played "
            "for the match cannot carry); level 1; not judged for the match: avoid-hit") \
        in r.stdout
    # what check suggests, check accepts (it used to suggest declaration,
    # then refuse it): the JSON's found themes are the ones a line writes
    import json
    doc = json.loads(run(["puzzles", "check", "--json", str(one(tmp_path, M3))]).stdout)
    assert doc["lines"][0]["found"]["themes"] == []
    assert verify(parse_position(M3 + " ; level 1"))[0] == []
    r = run(["puzzles", "check", str(one(tmp_path, points))])
    assert r.exit_code == 1
    assert "line 1, level: the engine gives 1 for the match, the line says 3" in r.stderr


def test_web_answer_gives_the_match_plays_themes_and_level():
    """The trainer's answer to a line played for the match gives the themes
    and level of the match's play (match 3: declaration, level 1, avoid-hit
    not judged), not the points play's the line writes (sweep quiet) nor
    the points examination's (sweep declaration quiet, level 3); the
    document follows the schema."""
    from test_schema import check
    from solver.web.tasks import answer_puzzle
    doc = answer_puzzle(M3 + " ; themes sweep quiet ; level 3", "11")
    assert doc["right"] is True and doc["objective"] == "match"
    assert (doc["themes"], doc["level"], doc["themes_unjudged"]) == (
        ["declaration"], 1, ["avoid-hit"])
    check(doc, "web.json#/$defs/puzzle_answer")
    points = answer_puzzle(M3.replace(" score=39,40", ""), "5")
    assert points["themes"] == ["sweep", "declaration", "quiet"] and "level" not in points


def test_quiz_hints_the_match_plays_themes_not_the_points_ones_the_line_writes(tmp_path):
    """Match 2 (S 40, N 35): 10 hits N's 10 just laid and wins the match;
    a line writing the points play's themes (sweep quiet, level 3) is
    hinted and titled with the match play's (hit, level 1: easy), as the
    sheet and the web trainer give them."""
    line = match_lines()[1] + " ; themes sweep quiet ; level 3 ; depth 9"
    r = run(["puzzles", "quiz", str(one(tmp_path, line))], stdin="h\n10\n")
    # (the hint gives the themes in words: hit's)
    assert "hint: take the card just played with the same rank (+1)" in " ".join(r.stdout.split())
    assert "sweep" not in r.stdout and "captures nothing" not in r.stdout     # sweep, quiet
    assert "puzzle 1/1  ·  easy" in r.stdout and "right: 10 (100% to win the match)" in r.stdout


def test_check_json_of_a_line_with_one_legal_play_follows_the_schema(tmp_path):
    """S holds 2c and 2o only (match 1 with its 6e gone): one play, so no
    margin over the next (null, which the schema allows), in points and
    for the match."""
    import json
    from test_schema import check
    one_play = ("12c 2c.2o/2e.2b - S dealer=N score=40,39 taken=19,16 last=N gone=1c.6e.1o.3b."
                "4b.3o.6c.6b.7o.10b.7b.7c.3e.3c.7e.5e.10c.4e.6o.10o.10e.11b.11e.12o.12e.4c.5b."
                "4o.11c.12b.11o.5o.5c.1e.1b declared=N:ronda2 ; bm 2")
    r = run(["puzzles", "check", "--json", str(one(tmp_path, one_play))])
    doc = json.loads(r.stdout)
    check(doc, "puzzles.json")
    line = doc["lines"][0]
    assert line["points"]["margin"] is None and list(line["chances"]) == ["2c"]
    r = run(["puzzles", "check", "--json", str(one(tmp_path, one_play.replace(" score=40,39",
                                                                              "")))])
    doc = json.loads(r.stdout)
    check(doc, "puzzles.json")
    assert doc["lines"][0]["found"]["margin"] is None
