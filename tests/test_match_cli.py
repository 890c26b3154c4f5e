"""The command line of the match features: met, --objective, annotate."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from solver.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
MATCH = str(ROOT / "positions" / "match.txt")
GAME = str(ROOT / "positions" / "games" / "long-game.txt")


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_met_prints_the_table_with_its_origin():
    r = run("met", "--rules", "lmodire")
    assert r.exit_code == 0, r.output
    assert "P(A wins the match), lmodire 2p to 41" in r.output
    assert "self-play hands by" in r.output and "direct simulation of" in r.output


def test_met_takes_any_target_up_to_the_limit():
    r21 = run("met", "--rules", "lmodire", "--target", "21", "--step", "1")
    r61 = run("met", "--rules", "lmodire", "--target", "61")
    assert r21.exit_code == 0 and r61.exit_code == 0, r21.output + r61.output
    assert "lmodire 2p to 21" in r21.output and "lmodire 2p to 61" in r61.output
    from solver.match_equity.table import load
    t = load("lmodire", 2, 21)
    row = next(line for line in r21.output.splitlines() if line.startswith(" 10│"))
    assert row.split("│")[1:4] == [f"{round(100 * t.equity_of(10, b, True)):3d}"
                                   for b in range(3)]
    r = run("met", "--target", "400")
    assert r.exit_code == 2 and "serves targets 1 to" in r.output \
        and "--limit 400" in r.output and len(r.output.strip().splitlines()) == 1
    r = run("met", "--target", "401")       # past what the build takes: no --limit 401
    assert r.exit_code == 2 and r.output == (
        "error: the lmodire 2-player match-equity table serves targets 1 to 61, not 401 "
        "(a table is built for targets up to 400)\n")


def test_met_json_and_svg(tmp_path):
    r = run("met", "--rules", "lmodire", "--target", "21", "--json")
    doc = json.loads(r.output)
    assert doc["target"] == 21 and len(doc["equity"][0]) == 21 and doc["limit"] >= 61
    assert doc["hands"] > 0 and "build" in doc["command"]
    out = tmp_path / "m.svg"
    r = run("met", "--svg", str(out))
    assert r.exit_code == 0
    # one line says what was drawn where (it said nothing)
    assert r.stderr == f"the table to 41 (A deals) drawn in {out}\n"
    text = out.read_text()
    assert text.startswith("<svg") and text.count("<rect") == 41 * 41
    import xml.etree.ElementTree as ET
    assert ET.fromstring(text).tag.endswith("svg")


def test_met_third_is_for_three_players():
    """``met --third 5`` of a two-player table printed the table as if
    --third were not given; it says the option is three players'."""
    r = run("met", "--third", "5")
    assert r.exit_code == 2
    assert r.output == ("error: --third: the third seat's score is for three players "
                        "(--players 3)\n")


def test_met_svg_keeps_an_existing_file_without_force(tmp_path):
    """``met --svg keep.svg`` replaced the user's file, exit 0, and had no
    ``--force``; every other output file is refused when it exists."""
    out = tmp_path / "keep.svg"
    out.write_text("precious")
    r = run("met", "--svg", str(out))
    assert r.exit_code == 2
    assert r.output.strip() == f"error: {out} exists; use --force to overwrite it"
    assert out.read_text() == "precious"
    r = run("met", "--svg", str(out), "--force")
    assert r.exit_code == 0 and out.read_text().startswith("<svg")


def test_met_three_players():
    r = run("met", "--rules", "french", "--players", "3", "--third", "30", "--deals", "E")
    assert r.exit_code == 0, r.output
    assert "P(S wins), french 3p to 51, N on 30, E deals" in r.output
    assert "P(N wins)" in r.output
    doc = json.loads(run("met", "--rules", "french", "--players", "3", "--json").output)
    g = doc["chances"]
    assert len(g) == 51 and abs(sum(g[10][20]) - 1) < 1e-4


def test_met_without_a_table_is_one_line():
    r = run("met", "--rules", "lmodire", "--set", "hit=1,5")
    assert r.exit_code == 2
    assert r.output.strip() == ("error: no match-equity table for lmodire+hit=1,5 with 2 "
                                "players (build it: python -m solver.match_equity.build "
                                "--rules lmodire --set hit=1,5 --players 2 --player greedy "
                                "--hands 100000 --limit 61)")
    r = run("met", "--rules", "lmodire", "--players", "4")
    assert r.exit_code == 2 and r.output.strip() == \
        "error: rules: lmodire is for 2 players, not 4 (presets for 4 players: pagat, french, online)"


def test_objective_match_with_another_target():
    line = next(x for x in Path(MATCH).read_text().splitlines() if '"match 3"' in x)
    pos = line.replace("score=39,40", "score=19,20 target=21")
    r = CliRunner().invoke(main, ["--objective", "match", "--json", "-"], input=pos + "\n")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)["positions"][0]
    assert doc["best"] == ["11c"] and doc["table"]["target"] == 21
    assert [(m["move"], m["chance"]) for m in doc["moves"]] == [("11c", 1.0), ("5b", 0.0)]


def test_objective_match_agrees_with_every_shipped_position():
    r = run("--objective", "match", MATCH)
    assert r.exit_code == 0, r.output
    assert "test suite: 12 agree, 0 disagree" in r.output
    assert "by points alone" in r.output
    # auto takes the match objective on these (the target is reachable)
    assert "12 agree, 0 disagree" in run(MATCH).output
    # the points objective picks the am plays: the suite disagrees
    r = run("--objective", "points", MATCH)
    assert r.exit_code == 3


def test_objective_match_json():
    r = run("--objective", "match", "--json", MATCH)
    doc = json.loads(r.output)
    first = doc["positions"][0]
    assert first["objective"] == "match" and first["best"] == ["6e"]
    # one document: points value and loss beside the chance, integers where whole
    assert [(m["move"], m["chance"], m["value"], m["loss"], m["chance_loss"])
            for m in first["moves"]] == [("6e", 1, -5, 3, 0), ("2o", 0, -2, 0, 1)]
    assert first["value"] == -2 and first["chance"] == 1 and first["match_method"] == "exact"
    # the match's principal variation (match 1 in positions/match.txt): S lays 6,
    # N must lay a 2, S's 2 hits it and reaches 41
    assert first["pv"] == [{"seat": "S", "move": "6"}, {"seat": "N", "move": "2"},
                           {"seat": "S", "move": "2"}]
    assert first["moves"][0]["effect"] == "lays" and first["note"]


def test_objective_match_with_equilibrium_is_an_error():
    r = run("--objective", "match", "--method", "equilibrium", MATCH)
    assert r.exit_code == 1
    assert "has no equilibrium method" in r.output


def test_annotate_objective_match_refuses_three_players_in_one_line():
    # it ended in a traceback (MatchTable3 has no equity_of)
    r = run("annotate", "--objective", "match", str(ROOT / "positions" / "games" / "french-3p.txt"))
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.strip().splitlines()[0].endswith(
        "game 1: the match objective takes two sides (this game has 3 players, each its own "
        "side): annotate it with --objective points")


def test_annotate_objective_match_json():
    r = run("annotate", "--objective", "match", "--view", "full", "--json", GAME)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)["games"][0]
    assert doc["objective"] == "match"
    assert doc["hands"][-1]["after"] == 0.0       # N won the match in the last hand
    swings = sum(h["swing"] for h in doc["hands"])
    assert swings == round(0.0 - doc["hands"][0]["before"], 6) or \
        abs(swings + doc["hands"][0]["before"]) < 1e-5
    marked = [p for p in doc["plays"] if p["mark"]]
    assert marked and all(p["loss"] >= 0.02 for p in marked)
    assert {row["seat"] for row in doc["players"]} == {"S", "N"}


def test_annotate_objective_match_record_carries_the_chances():
    r = run("annotate", "--objective", "match", "--view", "full", "--record", GAME)
    assert r.exit_code == 0
    assert "[%mwc " in r.output and "match objective" in r.output


def test_met_says_what_the_build_checks_cover():
    """The checks were made at 41 and over the whole table: at 41 the
    note names 41, at another target it says the figures are the whole
    table's, never that they were made at a target they were not."""
    from solver.match_equity.table import load
    t = load("lmodire", 2, 41)
    seeds = t.meta["checks"]["seeds"][0]
    r41 = run("met", "--rules", "lmodire")
    r21 = run("met", "--rules", "lmodire", "--target", "21")
    flat41, flat21 = " ".join(r41.output.split()), " ".join(r21.output.split())
    assert f"on average {100 * seeds['at_target']['mean']:.3f}% (to 41)" in flat41
    limit = seeds["at_limit"]
    assert (f"on average {100 * limit['mean']:.3f}% (checked over the whole table, to "
            f"{limit['target']})") in flat21
    assert "(to 41)" not in flat21 and "(to 61)" not in flat21


def test_table_build_command_names_the_store_by_file_name():
    from solver.match_equity.build import command_line
    line = command_line(["--db", "/home/me/runs/met-hands.db", "--rules", "mod",
                         "--db=/x/y/other.db"])
    assert line == ("python -m solver.match_equity.build --db met-hands.db --rules mod "
                    "--db=other.db")
    import glob
    import json
    for path in glob.glob("solver/match_equity/data/*.json"):
        command = json.load(open(path))["command"]
        assert "/" not in command.split("--db", 1)[1].split()[0], path


def _screen(renderable) -> list[str]:
    import io
    from rich.console import Console
    con = Console(file=io.StringIO(), width=100, color_system=None)
    con.print(renderable)
    return [ln.rstrip() for ln in con.file.getvalue().splitlines()]


def test_the_chance_lost_is_the_printed_chances_difference():
    """Chances of 54.549% and 45.551% print as 54.5% and 45.6%: the play's
    ``lost`` prints 8.9%, what the two printed figures differ by (it printed
    9.0%, the unrounded difference rounded); a gap under 0.1% between two
    chances that print alike is "<0.1%"."""
    from types import SimpleNamespace as NS
    from solver.analysis.evaluation import MoveValue
    from solver.cli.render import analysis_table
    from solver.notation import parse_position
    pos = parse_position(next(x for x in Path(MATCH).read_text().splitlines()
                              if '"match 2"' in x))
    moves = [MoveValue("10e", 9, -9.0, effect="x10.10 +1 hit", chance=0.54549),
             MoveValue("3b", 2, -4.0, effect="lays", chance=0.45551),
             MoveValue("3c", 2, -4.0, effect="lays", chance=0.54541)]
    a = NS(objective="match", chance=0.54549, chance_stderr=None, values=None, stderr=None,
           method="exact", moves=moves, value=-9.0, best=["10e"], position=pos)
    rows = [ln for ln in _screen(analysis_table(a)) if ln[:1] in ("1", "3")]
    assert rows == ["10e  │     54.5% │       │    -9 │      │ x10.10 +1 hit",
                    "3b   │     45.6% │  8.9% │    -4 │      │ lays",
                    "3c   │     54.5% │ <0.1% │    -4 │      │ lays"]


def test_the_match_annotation_adds_up_as_printed():
    """The match annotation adds up as printed: a play's lost is the
    best's printed chance less the play's (8.9%, not 9.0%), each hand's
    swing its printed after less its printed before (-5.5, not -5.4), a
    seat's lost its plays' printed losses summed, a side's swing the
    hands' printed swings summed, and its luck its swing plus its printed
    chance lost less the other side's (-9.9 + 8.9 = -1.0, not -0.9)."""
    from types import SimpleNamespace as NS
    from solver.cli.render_match import match_annotation_renderable
    from solver.match_equity.annotate import HandSwing, MatchNote, MatchThresholds
    note = MatchNote(1, 1, 1, 0, "3b", "evaluated", chance=0.45551, best="10e",
                     best_chance=0.54549, loss=0.54549 - 0.45551, mark="??")
    hands = [HandSwing(1, [0, 0], [20, 30], 0.50049, 0.45551),
             HandSwing(2, [20, 30], [25, 40], 0.45551, 0.40149)]
    rows = [{"seat": "S", "player": "a", "evaluated": 1, "out_of_reach": 0, "too_big": 0,
             "?!": 0, "?": 0, "??": 1, "chance_lost": note.loss, "side": "S",
             "swing": 0.40149 - 0.50049, "luck": 0.40149 - 0.50049 + note.loss},
            {"seat": "N", "player": "b", "evaluated": 0, "out_of_reach": 0, "too_big": 0,
             "?!": 0, "?": 0, "??": 0, "chance_lost": 0.0, "side": "N",
             "swing": 0.50049 - 0.40149, "luck": 0.50049 - 0.40149 - note.loss}]
    an = NS(record=NS(players=2), view="full", notes=[note], hands=hands,
            summary=lambda: rows, thresholds=MatchThresholds(),
            table=NS(rules="lmodire", players=2, target=41, hands=10000, player="engine:10"),
            seconds=0.5, time_budget=None)
    screen = _screen(match_annotation_renderable(an, "game 1"))
    assert " 1.1.1 │ S    │ 3b   │     45.6% │ 10e 54.5% │ 8.9% │ ??" in screen
    assert "    1 │          0-0 │       20-30 │    50.0% │   45.6% │  -4.4" in screen
    assert "    2 │        20-30 │       25-40 │    45.6% │   40.1% │  -5.5" in screen
    assert " S    │         1 │            0 │   0 0 1 │ 8.9% │  -9.9 │ -1.0" in screen
    assert " N    │         0 │            0 │   0 0 0 │ 0.0% │  +9.9 │ +1.0" in screen


def test_the_puzzle_match_table_loss_is_the_printed_chances_difference():
    """The puzzle commands' match loss is the printed chances' difference,
    written as their chances are (whole percents without ``.0``)."""
    from solver.puzzles.puzzle import chance_gap_text, chance_text
    assert [chance_text(0.54549), chance_text(0.45551)] == ["54.5%", "45.6%"]
    assert chance_gap_text(0.54549, 0.45551) == "8.9%"
    assert [chance_gap_text(1.0, 0.9), chance_gap_text(0.5, 0.5), chance_gap_text(0.5, 0.49999)] \
        == ["10%", "", "<0.1%"]


def test_three_seats_chances_add_up_to_100_as_printed():
    """A three-player table's seat chances (its origin lines, and each
    cell across the three seats' tables) are apportioned by largest
    remainders: thirds print 33.4/33.3/33.3, not 33.3 three times."""
    from solver.cli.render_match import _shares
    from solver.numbers import apportion
    assert _shares([1 / 3, 1 / 3, 1 / 3]) == "33.4/33.3/33.3"
    assert _shares([0.12345, 0.45655, 0.42]) == "12.3/45.7/42.0"
    assert apportion([0.335, 0.335, 0.33], 100) == [34, 33, 33]
