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
    r = run("met", "--rules", "pagat", "--players", "4")
    assert r.exit_code == 0, r.output
    assert "P(A wins the match), pagat 4p to 41" in r.output
    assert "100,000 self-play hands" in r.output
    assert "direct simulation of" in r.output


def test_met_json_and_svg(tmp_path):
    r = run("met", "--rules", "french", "--json")
    doc = json.loads(r.output)
    assert doc["target"] == 51 and len(doc["equity"][0]) == 51
    assert doc["hands"] >= 100_000 and "build" in doc["command"]
    out = tmp_path / "m.svg"
    r = run("met", "--svg", str(out))
    assert r.exit_code == 0
    text = out.read_text()
    assert text.startswith("<svg") and text.count("<rect") == 41 * 41
    import xml.etree.ElementTree as ET
    assert ET.fromstring(text).tag.endswith("svg")


def test_met_without_a_table_is_one_line():
    r = run("met", "--rules", "mod")
    assert r.exit_code == 2
    assert r.output.strip().startswith("error: no match-equity table for mod-2p-41")
    assert len(r.output.strip().splitlines()) == 1


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
