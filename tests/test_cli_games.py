"""The play, arena and annotate commands: output, JSON, refusing to
overwrite, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from solver.cli.main import main
from solver.games.record import SAMPLE, Replay, loads, parse_games

GAMES = Path(__file__).resolve().parent.parent / "positions" / "games"


def run(args, stdin=None):
    return CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)


def test_play_writes_records_and_refuses_to_overwrite(tmp_path):
    out = tmp_path / "games.txt"
    r = run(["play", "greedy", "random", "--games", "2", "--seed", "1", "-o", str(out), "-q"])
    assert r.exit_code == 0, r.output
    games = parse_games(out.read_text())
    assert len(games) == 2 and all(not isinstance(g, Exception) for g in games)
    assert "self-play" in r.stdout and "greedy" in r.stdout
    before = out.read_text()
    r = run(["play", "greedy", "random", "-o", str(out), "-q"])
    assert r.exit_code == 2
    assert r.stderr.strip() == f"error: {out} exists; use --force to overwrite it"
    assert out.read_text() == before
    r = run(["play", "greedy", "random", "--seed", "5", "-o", str(out), "--force", "-q"])
    assert r.exit_code == 0 and out.read_text() != before


def test_play_to_stdout_and_bad_players():
    r = run(["play", "random", "random", "-q", "--target", "11"])
    assert r.exit_code == 0
    g = loads(r.stdout)
    assert g.target == 11 and g.tags["S"] == "random"
    r = run(["play", "greedy", "bogus"])
    assert r.exit_code == 2
    assert r.stderr == ("error: unknown player 'bogus' (kinds: random, greedy, greedy:P, mc:N, "
                        "engine:K, engine:Ts, deal:Ts, human)\n")
    r = run(["play", "greedy", "greedy", "greedy"])
    assert r.exit_code == 2 and r.stderr == \
        "error: rules: lmodire is for 2 players, not 3 (presets for 3 players: french)\n"


def test_a_players_override_that_does_not_fit_the_seats_is_named():
    """Item 4: players= given with --set is what refuses the seats, not
    the preset (french has 2 players too)."""
    line = "error: players=3 (from --set) does not allow 2 players: give 3 players or drop players=\n"
    for args in (["--rules", "french", "--set", "players=3"],
                 ["--rules", "online", "--set", "players=3", "--set", "table_cards=4"]):
        r = run(["play", "greedy", "greedy", "-q", *args])
        assert (r.exit_code, r.stderr) == (2, line)
    r = run(["met", "--rules", "french", "--set", "players=3"])
    assert (r.exit_code, r.stderr) == (2, "error: players=3 (from --set) does not allow 2 "
                                          "players: use --players 3 or drop players=\n")


def test_two_targets_are_refused():
    """Item 15: --set target= and --target disagreeing is one line, exit 2
    (the same target twice is no conflict); met reads --set target= too."""
    r = run(["play", "greedy", "greedy", "-q", "--set", "target=11", "--target", "21"])
    assert (r.exit_code, r.stderr, r.stdout) == (
        2, "error: --set target=11 and --target 21 disagree: give the target once\n", "")
    r = run(["play", "greedy", "greedy", "-q", "--set", "target=21", "--target", "21"])
    assert r.exit_code == 0 and loads(r.stdout).target == 21
    r = run(["met", "--set", "target=21", "--target", "31"])
    assert (r.exit_code, r.stderr) == (
        2, "error: --set target=21 and --target 31 disagree: give the target once\n")
    r = run(["met", "--set", "target=21"])
    assert r.exit_code == 0 and "lmodire 2p to 21" in r.stdout
    r = run(["play", "greedy", "greedy", "-q", "--target", "100001"])
    assert (r.exit_code, r.stderr) == (
        2, "error: --target: parameter target cannot be '100001' (at most 100000)\n")


def test_arena_json():
    r = run(["arena", "greedy", "random", "--pairs", "3", "--json", "-q"])
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    assert doc["hands"] == 6 and {"margin", "margin_ci95", "a_points", "b_points"} <= set(doc)


def test_annotate_full_json_and_record(tmp_path):
    game = str(GAMES / "planted-mistake.txt")
    r = run(["annotate", "--view", "full", "--json", "--luck-samples", "0", "-q", game])
    assert r.exit_code == 0
    doc = json.loads(r.stdout)["games"][0]
    marked = [(p["hand"], p["deal"], p["play"], p["mark"], p["loss"])
              for p in doc["plays"] if p["mark"]]
    assert marked == [(5, 6, 3, "??", 4.0)]
    out = tmp_path / "annotated.txt"
    r = run(["annotate", "--view", "full", "--record", "--luck-samples", "0", "-q", "-o",
             str(out), game])
    assert r.exit_code == 0
    assert loads(r.stdout) == loads(out.read_text())
    assert "6o?? {[%eval -9.00] [%best 12e -5.00] [%loss 4.00]}" in r.stdout
    r = run(["annotate", "--view", "full", "--luck-samples", "0", "-q", game])
    assert "6o??" in r.stdout and "summary" in r.stdout


def test_annotate_errors_are_one_line():
    bad = SAMPLE.replace("2. 2o? 6o", "2. 2o? 6c")
    r = run(["annotate", "-"], stdin=bad)
    assert r.exit_code == 1
    assert r.stderr == ("error: -: line 11, hand 1, deal 1, play 4: N plays 6c: 6c is "
                        "not in N's hand (6o.12b)\n")
    r = run(["annotate", "--thresholds", "1,x", "-"], stdin=SAMPLE)
    assert r.exit_code == 2 and "thresholds: expected three numbers" in r.stderr


def test_a_file_of_comments_only_has_no_game(tmp_path):
    """Item 14: not "the first dealer is not given"."""
    f = tmp_path / "c.txt"
    f.write_text("{just a comment}\n")
    r = run(["annotate", str(f)])
    assert (r.exit_code, r.stderr) == (1, f"error: {f}: no game in the file\n")
    assert parse_games("{just a comment}\n\n{and another}\n") == []


def test_play_human_announces_the_replies_and_q_keeps_the_finished_games(tmp_path):
    """A person at S against greedy for two games (seats swapped in the
    second): every play is told as it is made, the engine's replies
    included; ``q`` in the second game ends the session cleanly, exit 0,
    the first game kept whole in the file."""
    out = tmp_path / "mine.txt"
    typed = "8\n1\n2\n3\n4\n5\n6\n7\n10\n11\n12\n" * 40 + "q\n"
    r = CliRunner().invoke(main, ["play", "human", "greedy", "--seed", "1", "--games", "2",
                                  "-q", "-o", str(out), "--json"], input=typed)
    assert r.exit_code == 0, r.output
    assert "interrupted" not in r.stderr
    assert r.stderr.strip().endswith(f"stopped by the player: 1 of 2 games finished in {out}")
    assert "   N (greedy) plays " in r.stderr and "   S (human) plays " in r.stderr
    assert "S wins the match" in r.stderr or "N wins the match" in r.stderr
    (game,) = parse_games(out.read_text())
    assert game.names == ["human", "greedy"] and Replay(game).run().finished
    doc = json.loads(r.stdout)
    assert doc["partial"] is True and [row["games"] for row in doc["players"]] == [1, 1]


def test_play_summary_names_each_players_seat(tmp_path):
    """Issue 19: two ``greedy`` rows told apart by their seat in game 1,
    the seat the record's tags give them."""
    out = tmp_path / "games.txt"
    r = run(["play", "greedy", "greedy:0.5", "--games", "2", "-o", str(out), "-q"])
    assert r.exit_code == 0, r.output
    first = parse_games(out.read_text())[0]
    assert (first.tags["S"], first.tags["N"]) == ("greedy", "greedy:0.5")
    rows = [line.split() for line in r.stdout.splitlines() if "│" in line]
    assert [row[:3] for row in rows] == [["S", "│", "greedy"], ["N", "│", "greedy:0.5"]]
    assert "seat: in game 1 (the seats rotate between games)" in r.stdout
    for players, rules, seats in ((["greedy", "random", "greedy:0.5"], "french", ["S", "E", "N"]),
                                  (["greedy", "random", "greedy", "random"], "pagat",
                                   ["S+N", "E+W"])):
        r = run(["play", *players, "--rules", rules, "--no-swap", "--json", "-q",
                 "-o", str(out), "--force"])
        assert r.exit_code == 0, r.output
        doc = json.loads(r.stdout)
        assert [row["seat"] for row in doc["players"]] == seats
        first = parse_games(out.read_text())[0]
        for row in doc["players"]:
            assert "+".join(first.tags[s] for s in row["seat"].split("+")) == row["player"]


def test_arena_title_gives_the_rule_system_as_the_rules_tag_does(tmp_path):
    r = run(["arena", "greedy", "random", "--rules", "french", "--set", "voleur=yes",
             "--pairs", "1", "-q"])
    assert r.exit_code == 0, r.output
    title = " ".join(r.stdout.split("measure")[0].split())
    assert title.startswith("arena: greedy (A) v random (B), french voleur=yes, 2 players, ")
    r = run(["arena", "greedy", "random", "--rules", "french", "--set", "voleur=yes",
             "--pairs", "1", "--json", "-q"])
    assert json.loads(r.stdout)["rules"] == "french voleur=yes"
    r = run(["play", "greedy", "random", "--rules", "french", "--set", "voleur=yes", "-q",
             "-o", str(tmp_path / "g.txt")])
    assert loads((tmp_path / "g.txt").read_text()).tags["Rules"] == "french voleur=yes"
    r = run(["arena", "greedy", "random", "--pairs", "1", "--json", "-q"])
    assert json.loads(r.stdout)["rules"] == "lmodire"


def test_set_takes_its_settings_together_in_any_order():
    """--set is read as a position line's parameters: players=2 makes
    table_cards=0 playable (40 cards for 2) before or after it."""
    titles = []
    for settings in (["table_cards=0", "players=2"], ["players=2", "table_cards=0"]):
        args = ["arena", "greedy", "random", "--rules", "french", "--pairs", "1", "--json", "-q"]
        for item in settings:
            args += ["--set", item]
        r = run(args)
        assert r.exit_code == 0, r.output
        titles.append(json.loads(r.stdout)["rules"])
    assert titles[0] == titles[1]
    assert "table_cards=0" in titles[0] and "players=2" in titles[0]
    r = run(["arena", "greedy", "random", "--rules", "french", "--set", "table_cards=0"])
    assert r.exit_code == 2
    assert r.output.strip() == ("error: table_cards=0 leaves 40 cards to deal, which 3 players "
                                "cannot share evenly (set players= or table_cards=)")
    r = run(["arena", "greedy", "random", "--set", "hit=1", "--set", "hit=2"])
    assert r.exit_code == 2 and r.output.strip() == "error: --set hit is given twice"
    # one reader of --set for every command (batch met says the same)
    r = run(["arena", "greedy", "random", "--set", "hit"])
    assert r.exit_code == 2 and r.output.strip() == "error: --set: 'hit' is not NAME=VALUE"


def test_annotate_header_gives_the_rule_system():
    r = run(["annotate", "--view", "full", "--luck-samples", "0", "-q",
             str(GAMES / "voleur-short.txt")])
    assert r.exit_code == 0, r.output
    assert "rules french voleur=yes, target 21, view full, result 14-29" in r.stdout


def test_play_refuses_an_event_with_a_line_break(tmp_path):
    """--event is the Event tag, written on one line as every tag
    ([Event "..."]): a line break split the tag over two lines of the
    record. Refused before any game is played, naming the option, exit 2,
    nothing written; a quote and a backslash are escaped and read back."""
    out = tmp_path / "games.txt"
    for text in ("Club night\nround 2", "Club night\r\nround 2", "Club night\n"):
        r = run(["play", "random", "random", "-q", "-o", str(out), "--event", text])
        assert r.exit_code == 2
        assert r.stderr.splitlines()[-1] == ("Error: Invalid value for '--event': a record's tag "
                                             "is one line, and this text has a line break")
        assert not out.exists()
    event = 'Club "night" \\ round 2'
    r = run(["play", "random", "random", "-q", "-o", str(out), "--event", event])
    assert r.exit_code == 0, r.output
    assert out.read_text().splitlines()[0] == '[Event "Club \\"night\\" \\\\ round 2"]'
    assert loads(out.read_text()).tags["Event"] == event


def test_arena_names_a_players_setting_as_play_does():
    """``arena --set players=4`` said "rules: lmodire is for 4 players, not
    2": backwards (lmodire takes 2; players=4 was the user's). It now says
    what `play` says, with the option that gives the count."""
    r = CliRunner().invoke(main, ["arena", "greedy", "random", "--pairs", "1",
                                  "--set", "players=4"])
    assert r.exit_code == 2
    assert r.output == ("error: players=4 (from --set) does not allow 2 players: use --players 4 "
                        "or drop players=\n")
    r = CliRunner().invoke(main, ["arena", "greedy", "random", "--pairs", "1", "--players", "3"])
    assert r.exit_code == 2
    assert r.output == ("error: rules: lmodire is for 2 players, not 3 (presets for 3 players: "
                        "french)\n")
