"""Three-player puzzles (max^n, solver/puzzles/maxn.py): bm, v, vv and the
margin checked against the plain max^n of tests/reference3.py, never
against the code under test; composition, mining and self-play give
three-player puzzles that `puzzles check` verifies; /api/puzzles/answer
answers a three-player line; what still does not apply is one line."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from solver.cards import parse_card
from solver.cli.main import main
from solver.notation import parse_file, parse_position
from solver.puzzles.puzzle import NotAPuzzle, check, examine, generate, make_puzzle

import reference3 as R3

# By hand (french: capture 1, hit 1, missa 1, last capture 1, no answers).
# HIT3: S's 7 hits N's 7 and clears the table (3), E lays 4, N lays 3, S lays
# 2, E lays 5, S sweeps 4 (+1): S 4, 12 + 2 + 4 = 18 cards (no count). S's 2
# lays instead; E 4, N 3 lay; S's 7 takes the 7 (+1, no missa: 2 4 3 stay);
# E lays 5, S sweeps 4 (+1): S 2. E and N score nothing either way.
HIT3 = "7 7.2/5.4/3 - S rules=french prev=7 taken=12,12,10 last=E"
# ANSWER3 (french with answers 1/5/10): N hit E's 5, S holds the third: 5
# answers (+5, +1 capture), E 4, N 1, S 3 lay, S sweeps 4 (+1): S 7, 12 + 3 + 4
# = 19 cards. S's 3 instead lays, the chance is gone, nobody takes anything
# and N, the last capturer, sweeps 5 (+1): N 1.
ANSWER3 = "2 5.3/4/1 - S rules=french hit=1,5,10 show=5:2@N last=N taken=12,12,11"
# from tests/test_puzzle_cli.py: by hand there, 5 -> (4, 2, 0), 12 -> (1, 3, 5);
# TIE3: 3, 4, 7 all give S 1 (4 preferred by the tie rule: the others get less)
VOLEUR3 = "3.10 5.12/10.11/2.1 - S rules=french voleur=yes taken=12,10,10 last=N tops=2,5,3"
TIE3 = "11.3.10.12.10 7.4.3/12.2/1.1 - S rules=french dealer=S taken=11,1,16 last=N"


def run(args, stdin=None):
    return CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)


def reference_moves(pos) -> dict:
    """``{printed rank: vector}`` of every play, by tests/reference3.py."""
    tops = [None if c is None else c.rank for c in pos.tops] if pos.tops else [None] * 3
    show = (pos.show.rank, pos.show.size) if pos.show else None
    s = R3.S([c.rank for c in pos.table], [[c.rank for c in h] for h in pos.hands],
             [c.rank for c in pos.stock], pos.turn, pos.leader(),
             pos.prev.rank if pos.prev else None, show, pos.last, list(pos.pile_sizes()),
             tops, False)
    return R3.move_values(pos.rules, s)[0]


def reference_puzzle(pos) -> tuple[int, float, list, float | None]:
    """``(best rank, v, vv, margin)`` from the reference: the max^n choice
    (its ``prefer``), the mover's entry, the vector, and the mover's entry
    less the highest mover's entry of the other plays."""
    moves = reference_moves(pos)
    best = None
    for card in sorted(moves):
        if best is None or R3.prefer(pos.turn, moves[card], moves[best], card, best):
            best = card
    own = moves[best][pos.turn]
    others = [v[pos.turn] for c, v in moves.items() if c != best]
    return best, own, list(moves[best]), (own - max(others)) if others else None


def assert_matches_reference(line: str) -> None:
    """A puzzle line's bm, v, vv and margin are the reference's."""
    pos = parse_position(line)
    best, v, vv, margin = reference_puzzle(pos)
    assert parse_card(pos.opcode("bm")).rank == best, line
    assert float(pos.opcode("v")) == v, line
    assert [float(x) for x in pos.opcode("vv").split()] == vv, line
    assert float(pos.opcode("margin")) == margin, line


def test_reference_values_agree_with_the_hand():
    assert reference_moves(parse_position(HIT3)) == {7: [4, 0, 0], 2: [2, 0, 0]}
    assert reference_moves(parse_position(ANSWER3)) == {5: [7, 0, 0], 3: [0, 0, 1]}
    assert reference_moves(parse_position(VOLEUR3)) == {5: [4, 2, 0], 12: [1, 3, 5]}
    assert reference_moves(parse_position(TIE3)) == {3: [1, 1, 6], 4: [1, 1, 5],
                                                     7: [1, 1, 6]}


@pytest.mark.parametrize("line", [HIT3, ANSWER3, VOLEUR3, TIE3])
def test_examine_gives_the_reference_bm_v_vv_and_margin(line):
    pos = parse_position(line)
    p = examine(pos)
    best, v, vv, margin = reference_puzzle(pos)
    assert parse_card(p.best).rank == best and p.value == v and p.vector == vv
    assert p.margin == margin
    assert {parse_card(m).rank: x for m, x in p.vectors.items()} == reference_moves(pos)
    assert p.moves == {m: x[pos.turn] for m, x in p.vectors.items()}


def test_hand_checked_three_player_puzzles():
    hit = make_puzzle(parse_position(HIT3))
    assert (hit.best, hit.value, hit.vector, hit.margin) == ("7", 4, [4, 0, 0], 2)
    assert hit.themes == ["hit", "missa"] and hit.level == 1 and hit.pv == "7 4 3 2 5".split()
    assert " ; vv 4 0 0 ; " in hit.line()
    # the explanation names the three seats and each seat's tally
    assert hit.explanation.startswith("Play 7: it hits N's 7 (+1), clearing the table: missa")
    assert "cards S 18, E 12, N 10; S capture +1, hit +1, missa +1, last capture +1: " \
        "+4 for S (E 0, N 0)" in hit.explanation
    ans = make_puzzle(parse_position(ANSWER3))
    assert (ans.best, ans.value, ans.vector, ans.margin) == ("5", 7, [7, 0, 0], 7)
    assert ans.themes == ["answer5", "sweep"]
    assert "0 for S (E 0, N +1)" in ans.explanation
    for line in (hit.line(), ans.line()):
        assert check(parse_position(line)) == []
        assert_matches_reference(line)
    # not puzzles: a tie on the mover's entry, and no theme
    with pytest.raises(NotAPuzzle) as e:
        make_puzzle(parse_position(TIE3))
    assert e.value.reason == "tie"
    with pytest.raises(NotAPuzzle) as e:
        make_puzzle(parse_position(VOLEUR3))
    assert e.value.reason == "theme"


def test_check_rejects_a_wrong_three_player_field():
    line = make_puzzle(parse_position(HIT3)).line()
    for old, new, field in ((" ; vv 4 0 0 ;", " ; vv 4 1 0 ;", "vv"),
                            (" ; v 4 ;", " ; v 3 ;", "v"),
                            (" ; bm 7 ;", " ; bm 2 ;", "bm"),
                            (" ; margin 2 ;", " ; margin 3 ;", "margin")):
        problems = check(parse_position(line.replace(old, new)))
        assert [p.field for p in problems] == [field], (field, problems)
    # a margin of 2 is too little at --margin 3
    assert [p.field for p in check(parse_position(line), margin=3)] == ["margin"]


@pytest.mark.parametrize("source", ["composed", "mined", "selfplay"])
def test_generated_three_player_puzzles_pass_check_and_the_reference(source):
    gen = generate(None, 4, seed=2, source=source, rules_name="french", players=3)
    assert len(gen.puzzles) == 4 and gen.illegal == 0, gen.summary()
    for p in gen.puzzles:
        line = p.line()
        pos = parse_position(line)
        assert pos.players == 3 and pos.stock == []
        assert check(pos) == [], line
        assert_matches_reference(line)
        assert float(pos.opcode("margin")) >= 2 and p.themes
        assert "bait" not in p.themes


def test_three_player_composition_per_theme():
    """Each theme french's three-player game can show: composed candidates
    are legal (every hand size of a round: the seats after the mover that
    already played hold one card fewer), and the puzzles found are the
    reference's."""
    from solver.notation import NotationError
    from solver.puzzles.compose import compose
    for theme in ("hit", "missa", "run", "avoid-hit", "sweep", "declaration", "quiet"):
        cands = list(compose(theme, seed=3, rules_name="french", limit=4, players=3))
        assert len(cands) == 4 and not [c for c in cands if isinstance(c, NotationError)]
        for pos in cands:
            sizes = [len(h) for h in pos.hands]
            k = sizes[0]
            assert pos.players == 3 and pos.turn == 0 and 1 <= k <= 3
            assert sizes[1:] in ([k, k], [k, k - 1], [k - 1, k - 1])
            assert len(pos.table) + sum(sizes) + sum(pos.pile_sizes()) == 40
            if theme == "hit":      # N, the previous player, just laid a card S holds
                assert pos.prev.rank in [c.rank for c in pos.hands[0]]
    gen = generate("hit", 2, seed=1, rules_name="french", players=3)
    assert len(gen.puzzles) == 2
    for p in gen.puzzles:
        assert "hit" in p.themes
        assert_matches_reference(p.line())


def test_three_player_cli_generate_and_check(tmp_path):
    out = tmp_path / "three.txt"
    r = run(["puzzles", "generate", "--players", "3", "--rules", "french", "--count", "3",
             "--seed", "5", "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = parse_file(out.read_text())
    assert len(lines) == 3 and all(pos.players == 3 for _n, pos in lines)
    r = run(["puzzles", "check", str(out)])
    assert r.exit_code == 0 and "3 of 3 lines verified" in r.output
    # a teacher's plain three-player line: verified, with what the engine finds
    plain = tmp_path / "plain.txt"
    plain.write_text(f"{HIT3} ; bm 7\n")
    r = run(["puzzles", "check", str(plain)])
    assert r.exit_code == 0
    assert "line 1: verified: 7 (+4, by 2); themes found: hit missa; level 1" in r.output


@pytest.mark.parametrize("args, message", [
    (["--players", "3"], "rules: lmodire is for 2 players, not 3 (presets for 3 players: french)"),
    (["--players", "3", "--rules", "french", "--theme", "answer5"],
     "no answer5 puzzle: rules=french has no answer for 5 (hit=1)"),
    (["--players", "3", "--rules", "french", "--source", "mined", "--theme", "bait"],
     "no bait puzzle: rules=french has no answer for 5 (hit=1)"),
])
def test_what_does_not_apply_is_one_line(args, message):
    """One line, as docs/puzzles.md promises (it was click's three-line
    usage error)."""
    r = run(["puzzles", "generate", "--count", "1", "-o", "-", *args])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip() == f"error: {message}"


def test_no_bait_with_three_players():
    """With answers, a three-player bait would be answered by N, an
    opponent: the composer refuses the theme and the predicate never holds."""
    import dataclasses
    from solver.puzzles.compose import unavailable
    from solver.rules import PRESETS
    answers = dataclasses.replace(PRESETS["french"], hit=(1, 5, 10))
    assert unavailable("bait", answers, 3).startswith("no bait with three players")
    assert unavailable("answer10", answers, 3) is None
    # S lays one of two 4s; E can hit it and N answer it: no bait for S
    pos = parse_position("12 4.4.1/4.6/4.2 - S rules=french hit=1,5,10 last=N "
                         "taken=11,10,11")
    assert "bait" not in examine(pos).themes


def test_three_player_lines_are_not_refused_again():
    """Three players used to be refused (THREE_PLAYERS): every entry point
    now takes them."""
    import solver.puzzles.themes as themes
    from solver.puzzles.mine import mine, selfplay
    from solver.puzzles.compose import compose
    assert not hasattr(themes, "THREE_PLAYERS")
    for stream in (mine(seed=1, rules_name="french", players=3, limit=1),
                   selfplay(seed=1, rules_name="french", players=3, limit=1),
                   compose("sweep", seed=1, rules_name="french", players=3, limit=1)):
        pos = next(stream)
        assert pos.players == 3
        examine(pos)


def test_api_answers_a_three_player_line():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from solver.web.app import Config, create_app
    line = make_puzzle(parse_position(HIT3)).line()
    with TestClient(create_app(Config(searches=1, queue=1, max_body=20_000, time=20))) as c:
        doc = c.post("/api/puzzles/answer", json={"line": line, "card": "2"}).json()
        opened = c.post("/api/puzzles/open", json={"text": line + "\n"}).json()
    assert doc["right"] is False and doc["best"] == "7" and doc["value"] == 4
    assert doc["seats"] == ["S", "E", "N"] and doc["vector"] == [4, 0, 0]
    ref = reference_moves(parse_position(HIT3))
    assert {m["move"]: m["values"] for m in doc["moves"]} == {"7": ref[7], "2": ref[2]}
    assert {m["move"]: (m["value"], m["loss"], m["best"]) for m in doc["moves"]} == \
        {"7": (4, 0, True), "2": (2, 2, False)}
    assert doc["played_line"].startswith("it lays 2") and doc["played_line"].endswith(
        "+2 for S (E 0, N 0)")
    assert opened["puzzles"][0]["board"]["players"] == 3 and not opened["errors"]


@pytest.mark.parametrize("name", ["composed-french3.txt", "selfplay-french3.txt"])
def test_shipped_three_player_sets(name):
    """The shipped sets: `puzzles check` verifies them and the reference
    max^n gives every bm, v, vv and margin."""
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "positions" / "puzzles" / name
    r = run(["puzzles", "check", str(path)])
    assert r.exit_code == 0, r.output
    lines = parse_file(path.read_text())
    assert len(lines) == 12
    for _n, pos in lines:
        assert pos.players == 3 and pos.rules.name == "french"
        assert_matches_reference(format_line(pos))


def format_line(pos) -> str:
    from solver.notation import format_position
    return format_position(pos)
