"""`batch mine` -> `db export --what puzzles` -> `puzzles check`: every
mined puzzle the store exports passes the check. Mining verifies a
candidate in points (as `puzzles generate` does), so its line writes no
`score=`, which would have the check judge it for the match
(docs/puzzles.md, "Points or the match")."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli.main import main
from solver.games.record import dumps_all, parse_games
from solver.puzzles.puzzle import check_text

COLLECTION = Path("positions/games/collection-60.txt")
#: games 4, 5 and 9 of the collection: mined at a score where the match
#: objective applies (their lines once failed the check: several best
#: plays for the match, a declaration puzzle judged for the match)
PICKED = (4, 5, 9)


@pytest.fixture(scope="module")
def mined(tmp_path_factory) -> tuple[Path, str]:
    pytest.importorskip("dask.distributed")
    where = tmp_path_factory.mktemp("mine")
    games = parse_games(COLLECTION.read_text())
    path = where / "three.txt"
    path.write_text(dumps_all([games[n - 1] for n in PICKED]))
    db = where / "mi.db"
    r = CliRunner().invoke(main, ["batch", "mine", str(path), "--workers", "1", "--db",
                                  str(db), "-q"])
    assert r.exit_code == 0, (r.stdout, r.stderr)
    return db, path.name


def _export(db: Path, *args: str):
    return CliRunner().invoke(main, ["db", "export", "--db", str(db), "--what", "puzzles",
                                     *args])


def test_every_exported_mined_puzzle_passes_the_check(mined, tmp_path):
    db, _ = mined
    r = _export(db)
    assert r.exit_code == 0, r.stderr
    text = r.stdout
    lines = text.splitlines()
    assert len(lines) >= 8
    checked = check_text(text)
    assert len(checked) == len(lines)
    assert [[str(p) for p in c.problems] for c in checked if not c.ok] == []
    assert all("score=" not in line for line in lines)
    assert all(c.objective == "points" for c in checked)
    out = tmp_path / "mined.txt"
    out.write_text(text)
    r = CliRunner().invoke(main, ["puzzles", "check", str(out)])
    assert r.exit_code == 0, (r.stdout, r.stderr)
    assert f"{len(lines)} of {len(lines)} lines verified (exact)" in r.stdout + r.stderr


def test_export_of_puzzles_honours_the_format(mined):
    """Without --format, a puzzle file; --format jsonl: one JSON object a
    puzzle, --format csv: one row a puzzle, each with the line, its
    position and the puzzle's fields."""
    import csv
    import io
    import json
    from solver.puzzles.mine import PUZZLE_FIELDS
    from solver.notation import format_position, parse_position
    from solver.puzzles.puzzle import PUZZLE_OPCODES
    assert PUZZLE_FIELDS == ["line", "position", *PUZZLE_OPCODES]
    db, _ = mined
    lines = _export(db).stdout.splitlines()
    r = _export(db, "--format", "jsonl")
    assert r.exit_code == 0, r.stderr
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert [row["line"] for row in rows] == lines
    for row in rows:
        pos = parse_position(row["line"])
        assert row["bm"] == pos.opcode("bm") and row["v"] == float(pos.opcode("v"))
        assert row["id"] == pos.opcode("id") and row["source"] == "mined"
        assert isinstance(row["level"], int) and row["margin"] == float(pos.opcode("margin"))
        assert row["themes"] == pos.opcode("themes").split()
        assert row["pv"] == pos.opcode("pv").split()
        pos.ops = []
        assert row["position"] == format_position(pos)
    r = _export(db, "--format", "csv")
    assert r.exit_code == 0, r.stderr
    table = list(csv.DictReader(io.StringIO(r.stdout)))
    assert list(table[0]) == PUZZLE_FIELDS
    assert [t["line"] for t in table] == lines
    assert [t["bm"] for t in table] == [row["bm"] for row in rows]
    assert [json.loads(t["themes"]) for t in table] == [row["themes"] for row in rows]
    assert all(t["vv"] == "" for t in table)       # two players: no value vector


def test_a_mined_line_reads_back_whole(mined):
    """The ``game`` opcode once read FILE#N/handH, and ``#`` starts a
    comment: the line read back lost the game's number and the ``c``."""
    from solver.notation import parse_position
    db, name = mined
    lines = _export(db).stdout.splitlines()
    for line in lines:
        pos = parse_position(line)
        game = pos.opcode("game")
        assert game is not None and game.endswith(tuple(f":{n}/hand{h}" for n in (1, 2, 3)
                                                        for h in range(1, 20)))
        assert game.startswith(str(db.parent / name))
        assert pos.opcode("c") == line.split(' ; c "', 1)[1][:-1]


def test_the_game_label_keeps_comment_and_opcode_signs_out():
    from solver.batch.jobs import game_label
    assert game_label({"source": "a#b;c\"d.txt", "number": 4}, 2) == "a_b_c_d.txt:4/hand2"


#: games 14 and 23 of the collection: each gives a declaration puzzle (drawn
#: from the mover's seat) whose answer holds by 2 and 4 points in the deal
#: written but by 1.54 and 1.83 on average over the hands the mover cannot
#: tell apart; mined at --margin 1 they once wrote margin 2 and 4, and the
#: first failed `puzzles check` at margin 2 though its line said 2
DECLARED = (14, 23)


def _view_margin(pos) -> float:
    """The mover's-view margin worked out here: the answer's average lead
    over the hidden hands (solver.analysis.hidden.robust), to the hundredth
    below, as the line writes it."""
    import math
    from solver.analysis.hidden import robust
    from solver.cards import parse_card
    r = robust(pos, parse_card(pos.opcode("bm")).index)
    return math.floor(r.margin * 100 + 1e-6) / 100


def test_a_mined_declaration_puzzle_writes_the_margin_the_check_verifies(tmp_path):
    import json
    from solver.analysis.hidden import hides_cards
    from solver.batch.jobs import mine_game
    from solver.notation import format_position, parse_position
    pytest.importorskip("dask.distributed")
    games = parse_games(COLLECTION.read_text())
    path = tmp_path / "declared.txt"
    path.write_text(dumps_all([games[n - 1] for n in DECLARED]))
    db = tmp_path / "de.db"
    r = CliRunner().invoke(main, ["batch", "mine", str(path), "--margin", "1", "--workers", "1",
                                  "--db", str(db), "-q"])
    assert r.exit_code == 0, (r.stdout, r.stderr)
    text = _export(db).stdout
    out = tmp_path / "mined.txt"
    out.write_text(text)
    lines = [parse_position(line) for line in text.splitlines()]
    declared = {(p.opcode("game").rsplit(":", 1)[1], p.opcode("bm"), float(p.opcode("margin"))):
                p for p in lines if hides_cards(p)}
    # late in their hands, with gone= written: the mover counts the cards
    # and N's hand is the one the deal writes (it was averaged over hands
    # holding captured cards, 1.54 and 1.83, before gone= was counted)
    assert set(declared) == {("1/hand1", "4o", 2.0), ("1/hand1", "5b", 2.0),
                             ("1/hand1", "6c", 2.0), ("2/hand3", "3o", 3.0),
                             ("2/hand3", "3o", 4.0), ("2/hand3", "7c", 1.0)}
    # every mined line passes the check at the mining margin
    r = CliRunner().invoke(main, ["puzzles", "check", "--margin", "1", "--json", str(out)])
    assert r.exit_code == 0, (r.stdout, r.stderr)
    found = {e["line"]: e["found"]["margin"] for e in json.loads(r.stdout)["lines"]}
    assert len(found) == len(lines)
    for number, pos in enumerate(lines, start=1):
        written = float(pos.opcode("margin"))
        assert written == found[number], (number, pos.opcode("game"))
        assert written >= 1
        if hides_cards(pos):
            assert written == _view_margin(pos), pos.opcode("game")
    low = declared[("2/hand3", "7c", 1.0)]
    # at the default margin 2 the check fails the line whose margin says 1
    one = tmp_path / "one.txt"
    one.write_text(format_position(low) + "\n")
    r = CliRunner().invoke(main, ["puzzles", "check", str(one)])
    assert r.exit_code == 1 and "less than 2" in r.stdout + r.stderr
    # one error line: with one hand left the mover's view is the deal's, so
    # the mover's-view margin is not said again ("over the 1 hands ... by
    # 1.00 points" beside "by 1 points")
    errors = r.stderr.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith(
        f"error: {one}: line 1, margin: the best play beats "), errors
    assert errors[0].endswith(" by 1 points with every card seen, less than 2")
    # mined at 1.6: under the margin, so not mined; the game's others are
    ids = [parse_position(line).opcode("id") for line in
           mine_game(games[22], {"margin": 1.6, "source": "c", "number": 23}, {})
           ["result"]["puzzles"]]
    assert low.opcode("id") not in ids
    assert ids
