"""Puzzles (solver/puzzles/puzzle.py): the only-move criterion, difficulty, the
explanation, the puzzle line and its check. Values are cross-checked with
the independent reference (tests/reference.py)."""

from __future__ import annotations

import pytest

from solver.cards import RANK_INDEX
from solver.engine.compile import compile_known
from solver.notation import format_position, parse_position
from solver.position import side_of
from solver.puzzles.puzzle import (DEFAULT_MARGIN, NotAPuzzle, check, check_text, depth_needed,
                            difficulty, examine, horizon_best, make_puzzle, puzzle_id)

from reference import reference_value

R = RANK_INDEX
HIT = "1.2 2.4/4 - S taken=17,18 last=N prev=2"
BAIT = "3.6.10.12 1.5.5/5.10 - S taken=17,14 last=N"
SWEEP = "1.3.11 1.7/11 - S taken=20,14 last=N"


def reference(line: str) -> dict[int, float]:
    pos = parse_position(line)
    last = None if pos.last is None else side_of(pos.last, pos.players)
    _v, moves = reference_value(
        pos.rules, [c.rank for c in pos.table], [[c.rank for c in h] for h in pos.hands],
        [c.rank for c in pos.stock], pos.turn, pos.leader(),
        prev=pos.prev.rank if pos.prev else None,
        show=(pos.show.rank, pos.show.size) if pos.show else None,
        last_side=last, taken=pos.pile_sizes())
    return moves


@pytest.mark.parametrize("line", [HIT, BAIT, SWEEP])
def test_values_agree_with_the_reference(line):
    p = examine(parse_position(line))
    assert {int(m): v for m, v in p.moves.items()} == reference(line)


def test_examine_a_hit():
    p = examine(parse_position(HIT))
    # hand-worked in tests/test_themes.py: 2 is worth +4, 4 is worth -1
    assert (p.best, p.value, p.margin) == ("2", 4.0, 5.0)
    assert p.themes == ["hit", "avoid-hit"]
    assert p.pv == ["2", "4", "4"]
    assert (p.depth, p.tempting, p.level) == (1, 0, 1)
    assert p.explanation.startswith("Play 2: it hits N's 2 (+1); N holds no 2 to answer")
    assert ("Next best 4 (-1, 5 less): it lays 4; then N hits S's 4 (+1)"
            in p.explanation)


def test_depth_of_a_bait():
    # laying the 5 gains nothing; 2 plies on, N's hit (+1, 3 cards) makes
    # it look worse than the 1; 3 plies on, S's answer (+5) shows it.
    pos = parse_position(BAIT)
    game, state = compile_known(pos)
    assert horizon_best(game, state, 1) == {R[1], R[5]}
    assert horizon_best(game, state, 2) == {R[1]}
    assert horizon_best(game, state, 3) == {R[5]}
    assert depth_needed(game, state, R[5]) == 3
    p = examine(pos)
    assert (p.depth, p.level) == (3, 2)
    assert "N hits S's 5 (+1), taking 6 with it, S answers with the third 5 (+5)" in p.explanation


def test_difficulty_levels():
    assert difficulty(1, 0) == 1
    assert difficulty(2, 0) == 2 and difficulty(3, 1) == 2
    assert difficulty(2, 2) == 3 and difficulty(4, 0) == 3 and difficulty(9, 0) == 3


def test_only_move_criterion():
    assert make_puzzle(parse_position(HIT)).margin == 5.0
    # the sweep: +4 against +2, exactly the default margin
    assert make_puzzle(parse_position(SWEEP), margin=2).margin == 2.0
    with pytest.raises(NotAPuzzle) as e:
        make_puzzle(parse_position(SWEEP), margin=2.5)
    assert e.value.reason == "margin"
    # a tie: laying 2 or 12 is worth +2 (README's example family)
    with pytest.raises(NotAPuzzle) as e:
        make_puzzle(parse_position("5.7.11 7.12.2/5.3 - S taken=16,16 last=N prev=7"))
    assert e.value.reason == "tie"
    with pytest.raises(NotAPuzzle) as e:
        make_puzzle(parse_position(HIT), theme="missa")
    assert e.value.reason == "theme"
    with pytest.raises(NotAPuzzle) as e:
        make_puzzle(parse_position("1.2 2.4/? ? S taken=17,18 last=N prev=2 "
                                   "gone=1.1.1.2.2.3.3.3.3.4.4.5.5.5.5.6.6.6.6.7.7.7.7.10.10.10.10."
                                   "11.11.11.11.12.12.12.12"))
    assert e.value.reason == "hidden"


def test_puzzle_line_round_trip_and_check():
    p = make_puzzle(parse_position(HIT), source="composed")
    line = p.line()
    assert line.startswith(HIT + " ; bm 2 ; v 4 ; id ")
    pos = parse_position(line)
    assert pos.opcode("themes") == "hit avoid-hit" and pos.opcode("level") == "1"
    assert pos.opcode("margin") == "5" and pos.opcode("method") == "exact"
    assert pos.opcode("id") == puzzle_id(parse_position(HIT)) == p.id
    assert check(pos) == []
    assert format_position(pos) == line


@pytest.mark.parametrize("edit, field", [
    ("; bm 2 ;", "bm"), ("; v 4 ;", "v"), ("; themes hit avoid-hit ;", "themes"),
    ("; level 1 ;", "level"), ("; margin 5 ;", "margin"), ("; pv 2 4 4 ;", "pv"),
])
def test_check_names_the_field(edit, field):
    line = make_puzzle(parse_position(HIT)).line()
    wrong = {"bm": "; bm 4 ;", "v": "; v 3.5 ;", "themes": "; themes hit ;",
             "level": "; level 3 ;", "margin": "; margin 2 ;", "pv": "; pv 2 4 ;"}[field]
    assert edit in line
    problems = check(parse_position(line.replace(edit, wrong)))
    assert [pr.field for pr in problems] == [field], problems


def test_check_margin_threshold_and_missing_fields():
    line = make_puzzle(parse_position(SWEEP)).line()
    assert check(parse_position(line)) == []
    problems = check(parse_position(line), margin=3)
    assert [str(pr) for pr in problems] == [
        "margin: the best play beats 1 by 2 points, less than 3"]
    problems = check(parse_position(SWEEP))
    assert [pr.field for pr in problems] == ["bm"]     # v is optional (a plain line)


def test_check_text_reports_lines():
    good = make_puzzle(parse_position(HIT)).line()
    text = "# a set\n" + good + "\n\n1.2 2.8/4 - S ; bm 2 ; v 4\n" + good.replace("v 4", "v 5") + "\n"
    results = check_text(text)
    assert [(r.line, r.ok) for r in results] == [(2, True), (4, False), (5, False)]
    assert str(results[1].problems[0]).startswith("hands: rank 8 does not exist")
    assert str(results[2].problems[0]) == "v: the value is +4, not 5"
    assert DEFAULT_MARGIN == 2.0


# by hand: LINE, S's 7 hits N's 7 (+1) and wins the last hit (+1) and the
# count (22 cards: +2), +4; the 2 only lays, 0. HIT3 (three players): S's
# 7 hits E's 7, vector (4, 0, 0); the 2 leaves S 2.
@pytest.mark.parametrize("line, card, values", [
    ("1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N ; bm 7", "2", {"7": 4, "2": 0}),
    ("7 7.2/5.4/3 - S rules=french prev=7 taken=12,12,10 last=E ; bm 7", "2",
     {"7": 4, "2": 2}),
])
def test_web_answer_searches_the_puzzle_once(monkeypatch, line, card, values):
    """One answer of /api/puzzles/answer (its task) runs the puzzle's
    search once: the puzzle, the values it judges by and the played line
    all read the same idea (it searched three times)."""
    import solver.puzzles.maxn as maxn
    import solver.puzzles.puzzle as puzzle
    from solver.web.tasks import answer_puzzle
    calls = []

    def spy(module, name):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, **k: (calls.append(name), real(*a, **k))[1])
    spy(puzzle, "idea_of")
    spy(maxn, "idea_of_maxn")
    spy(puzzle, "judge")         # the exact analysis under the line's objective
    spy(puzzle, "depth_needed")
    for kept in ("_idea_for", "_exact_values"):     # the positions kept by earlier tests
        if hasattr(puzzle, kept):
            getattr(puzzle, kept).cache_clear()
    doc = answer_puzzle(line, card)
    assert {m["move"]: m["value"] for m in doc["moves"]} == values
    assert doc["right"] is False and doc["best"] == "7"
    assert len([c for c in calls if c != "depth_needed"]) == 1 and calls.count("depth_needed") <= 1
