"""Every command's JSON against its JSON Schema (docs/schema/, draft
2020-12): solve with every method, both objectives, two, three and four
players and voleur; annotate (points and match); arena; play; puzzles
check and generate; met; batch, db stats and db export; and every answer
of the web API. Each document is also checked for the numbers rule of
solver/numbers.py: no float that is whole (4.0 is written 4) and no float
noise (at most 6 decimals)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from solver.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "docs" / "schema"
GAMES = ROOT / "positions" / "games"
BASE = "https://ronda-solver.invalid/schema/"


def _registry() -> Registry:
    resources = []
    for path in sorted(SCHEMA.glob("*.json")):
        doc = json.loads(path.read_text())
        assert doc["$id"] == BASE + path.name, path
        Draft202012Validator.check_schema(doc)
        resources.append((doc["$id"], Resource.from_contents(doc)))
    return Registry().with_resources(resources)


REGISTRY = _registry()


def numbers_ok(doc, where: str = "$") -> None:
    """No whole float (4.0 must be 4) and no float noise (4.999999999999999)
    anywhere in ``doc``."""
    if isinstance(doc, float):
        assert not doc.is_integer(), f"{where}: whole number written as {doc!r}"
        assert round(doc, 6) == doc, f"{where}: float noise {doc!r}"
    elif isinstance(doc, dict):
        for k, v in doc.items():
            numbers_ok(v, f"{where}.{k}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            numbers_ok(v, f"{where}[{i}]")


def check(doc, ref: str) -> None:
    """``doc`` is valid against ``ref`` (``solve.json``, or
    ``batch.json#/$defs/game``) and keeps the numbers rule."""
    schema = {"$ref": BASE + ref}
    errors = sorted(Draft202012Validator(schema, registry=REGISTRY).iter_errors(doc),
                    key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message[:300]}"
                                 for e in errors[:5])
    numbers_ok(doc)


def run(*args: str, stdin: str | None = None, code: int = 0):
    r = CliRunner().invoke(main, list(args), input=stdin)
    assert r.exit_code == code, (args, r.output[-2000:])
    return r


def cli_json(*args: str, stdin: str | None = None, code: int = 0) -> dict:
    return json.loads(run(*args, stdin=stdin, code=code).stdout)


# --- positions of every kind ------------------------------------------------------

EXACT = "1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N"
SHUFFLED = ("1.4.11 2.6.12/3.3.10 ~5.7.7.10.12.11 S taken=13,12 last=N "
            "gone=1.1.1.2.2.2.3.3.4.4.4.5.5.5.6.6.6.7.7.10.10.11.11.12.12")
HIDDEN = ("2.12 5.5/?.? ? S taken=14,14 last=S "
          "gone=1.1.1.1.2.2.3.3.3.3.4.4.4.4.6.6.6.6.7.7.10.10.10.10.11.11.11.11")
FOUR = "2.6.11 1.5.12/2.10.4/5.6.7/3.3.11 - S rules=pagat taken=10,15 last=E"
FOUR_UNKNOWN = ("1.3.10.12 2.5.6/4.7.11/5.6.12/1.3.10 ? S rules=french taken=9,7 last=E "
                "gone=1.2.2.3.4.4.5.6.7.7.10.11.11.12.2.4")
THREE_EXACT = "2.3 5.7/4.6/2.12 - S rules=french taken=10,11,11 last=E"
THREE_SHUFFLED = "1.5.11 5/12/2 ~1.1.3.4.5.6.7.10.11 S rules=french taken=9,8,8 last=E"
THREE_HIDDEN = ("1.5.11 5.7/?.?/?.? ? S rules=french taken=8,7,7 last=E "
                "gone=1.1.2.2.2.3.3.4.4.5.6.6.7.7.7.10.10.11.11.12.12.2")
VOLEUR = "3.10 5.12/10.11 - S rules=french voleur=yes taken=12,22 last=N tops=2,5 ; bm 5"
UNWRITTEN = "5.6 5.7/3.3 - S ; bm 5 7 ; v 1"
BAD = "5.8 5.7/3.3 - S"
BUDGET = ("--time", "5", "--samples", "40", "--workers", "1")


def _positions(doc: dict) -> list[dict]:
    check(doc, "solve.json")
    return doc["positions"]


def test_solve_every_method_and_player_count():
    lines = "\n".join([EXACT, SHUFFLED, HIDDEN, FOUR, THREE_EXACT, THREE_SHUFFLED, VOLEUR,
                       UNWRITTEN, BAD]) + "\n"
    doc = cli_json("--json", *BUDGET, "-", stdin=lines, code=1)
    got = _positions(doc)
    assert [p["method"] for p in got] == ["exact", "expectimax", "equilibrium", "exact", "exact",
                                          "expectimax", "exact", "exact"]
    assert [e["line"] for e in doc["errors"]] == [9]
    assert all(p["objective"] == "points" for p in got)
    assert [len(p["values"]) for p in got if "values" in p] == [3, 3]
    for method, line in (("exact", EXACT), ("expectimax", SHUFFLED), ("equilibrium", HIDDEN),
                         ("determinised", HIDDEN), ("determinised", FOUR_UNKNOWN),
                         ("determinised", THREE_HIDDEN), ("expectimax", THREE_SHUFFLED)):
        (p,) = _positions(cli_json("--json", "--method", method, *BUDGET, "-", stdin=line))
        assert p["method"] == method
        if method == "determinised":
            assert p["pv"] is None and p["samples"] >= 1 and p["moves"][0]["ci99"]
        elif method == "equilibrium":
            assert p["pv"] is None and "equilibrium policy" in p["note"]
        else:
            assert p["pv"] and p["pv"][0]["seat"] == "S"
    exact = _positions(cli_json("--json", "--exact", *BUDGET, "-", stdin=EXACT + "\n" + SHUFFLED))
    assert exact[0]["value_exact"] == "4" and "/" in exact[1]["value_exact"]


def test_solve_match_objective_every_method():
    score = {EXACT: " score=38,40", SHUFFLED: " score=38,39", HIDDEN: " score=39,39",
             FOUR: " score=38,39"}
    lines = "\n".join(line + score[line] for line in (EXACT, SHUFFLED, HIDDEN, FOUR)) + "\n"
    got = _positions(cli_json("--json", "--objective", "match", *BUDGET, "-", stdin=lines))
    assert [p["match_method"] for p in got] == ["exact", "expectimax", "determinised", "exact"]
    assert all(p["objective"] == "match" and 0 <= p["chance"] <= 1 for p in got)
    assert got[2]["pv"] is None and got[2]["chance_stderr"] is not None
    auto = _positions(cli_json("--json", *BUDGET, "-", stdin=lines))
    assert [p["objective"] for p in auto] == ["match"] * 4


def test_solve_jsonl_lines():
    r = run("--jsonl", *BUDGET, "-", stdin=EXACT + " score=38,40\n" + BAD + "\n", code=1)
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(rows) == 2
    for row in rows:
        check(row, "solve.json#/$defs/jsonl_line")
    assert rows[0]["objective"] == "match" and rows[1]["line"] == 2
    assert rows[1]["error"] == "table: rank 8 does not exist in a Spanish 40-card deck"


# --- games ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def one_hand(tmp_path_factory) -> Path:
    """A one-hand game of greedy against random (target 5), played by
    ``play``, whose --json summary is checked on the way."""
    out = tmp_path_factory.mktemp("games") / "one.txt"
    doc = cli_json("play", "greedy", "random", "--games", "1", "--no-swap", "--target", "5",
                   "-o", str(out), "--json", "-q")
    check(doc, "play.json")
    assert doc["players"][0]["games"] == 1 and not doc["partial"]
    return out


def test_annotate_points_both_views_and_every_player_count(one_hand):
    for args in (("--samples", "4", "--luck-samples", "2", str(one_hand)),
                 ("--view", "full", "--luck-samples", "0", str(GAMES / "french-3p.txt")),
                 ("--view", "full", "--samples", "4", "--luck-samples", "0",
                  str(GAMES / "french-4p.txt")),
                 ("--view", "full", str(GAMES / "voleur-short.txt"))):
        doc = cli_json("annotate", "--json", "-q", *args)
        check(doc, "annotate.json")
        assert doc["games"] and doc["games"][0]["objective"] == "points"
        # item 9: luck not measured is null, not 0 (the text shows "-")
        game = doc["games"][0]
        rows = game["players"] + game.get("sides", [])
        if "0" in args:
            assert game["luck_stderr"] is None and all(r["luck"] is None for r in rows)
        else:
            assert game["luck_stderr"] >= 0 and all(isinstance(r["luck"], float) for r in rows)


def test_annotate_match_objective():
    doc = cli_json("annotate", "--objective", "match", "--view", "full", "--json", "-q",
                   str(GAMES / "end-of-match.txt"))
    check(doc, "annotate.json")
    assert doc["games"][0]["objective"] == "match"


def test_arena_play_puzzles_met(tmp_path):
    for players, rules in (("2", "lmodire"), ("3", "french")):
        doc = cli_json("arena", "greedy", "random", "--pairs", "2", "--players", players,
                       "--rules", rules, "--json", "-q")
        check(doc, "arena.json")
    check(cli_json("puzzles", "check", "--json", str(ROOT / "positions/puzzles/hit.txt")),
          "puzzles.json#/$defs/check")
    r = run("puzzles", "generate", "--theme", "hit", "--count", "1", "--seed", "1", "-o",
            str(tmp_path / "p.txt"), "--json")
    check(json.loads(r.stderr), "puzzles.json#/$defs/generate")
    for args in (("--rules", "lmodire"), ("--rules", "lmodire", "--target", "21"),
                 ("--rules", "french", "--players", "3", "--third", "40")):
        check(cli_json("met", *args, "--json"), "met.json")


def test_batch_stats_and_export(tmp_path):
    db = str(tmp_path / "store.db")
    doc = cli_json("batch", "annotate", str(GAMES / "french-3p.txt"), "--db", db, "--workers",
                   "1", "--view", "full", "--luck-samples", "0", "--json", "-q")
    check(doc, "batch.json#/$defs/summary")
    assert doc["done"] == 1
    check(cli_json("db", "stats", "--db", db, "--json"), "batch.json#/$defs/stats")
    games = [json.loads(x) for x in run("db", "export", "--db", db).stdout.splitlines()]
    evaluations = [json.loads(x) for x in
                   run("db", "export", "--db", db, "--what", "evaluations").stdout.splitlines()]
    assert len(games) == 1 and evaluations
    for row in games:
        check(row, "batch.json#/$defs/game")
    for row in evaluations:
        check(row, "batch.json#/$defs/evaluation")


def test_db_export_of_mined_puzzles(tmp_path):
    from solver.games.record import dumps_all, parse_games
    db = str(tmp_path / "mine.db")
    path = tmp_path / "two.txt"
    path.write_text(dumps_all(parse_games((GAMES / "collection-60.txt").read_text())[3:5]))
    check(cli_json("batch", "mine", str(path), "--db", db, "--workers", "1", "--json", "-q"),
          "batch.json#/$defs/summary")
    rows = [json.loads(x) for x in run("db", "export", "--db", db, "--what", "puzzles",
                                       "--format", "jsonl").stdout.splitlines()]
    assert rows
    for row in rows:
        check(row, "batch.json#/$defs/puzzle")


# --- the web API --------------------------------------------------------------------


def test_web_api_answers():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from solver.web.app import Config, create_app
    app = create_app(Config(searches=1, queue=4, time=10))
    with TestClient(app) as client:
        check(client.get("/api/cards").json(), "web.json#/$defs/cards")
        check(client.get("/api/rules").json(), "web.json#/$defs/rules")
        for path in ("/api/games", "/api/puzzles"):
            check(client.get(path).json(), "web.json#/$defs/listing")
        for line in (EXACT, HIDDEN, UNWRITTEN, FOUR, THREE_HIDDEN, VOLEUR,
                     "1.3.5.11 2.2.7/4.6.12 ? S"):
            check(client.post("/api/position", json={"line": line}).json(),
                  "web.json#/$defs/position")
        check(client.post("/api/play", json={"line": EXACT, "moves": ["7", "12", "2"]}).json(),
              "web.json#/$defs/play")
        # to the hand's end (its line null, the final board), and over a deal
        check(client.post("/api/play", json={"line": EXACT,
                                             "moves": ["7", "12", "2", "7", "7", "1"]}).json(),
              "web.json#/$defs/play")
        check(client.post("/api/play", json={"line": "3.6.10 -/5 1.1.4.2.2.7 N taken=15,15 "
                                                     "last=S", "moves": ["5", "1"]}).json(),
              "web.json#/$defs/play")
        for body in ({"line": EXACT + " score=38,40"}, {"line": THREE_EXACT},
                     {"line": HIDDEN, "method": "determinised", "samples": 30},
                     {"line": BAD}):
            r = client.post("/api/analyse", json=body)
            check(r.json(), "web.json#/$defs/error" if r.status_code != 200
                  else "web.json#/$defs/analyse")
        job = client.post("/api/jobs/analyse", json={"line": SHUFFLED}).json()
        check(job, "web.json#/$defs/job")
        check(_finished(client, job["id"]), "web.json#/$defs/job")
        job = client.post("/api/jobs/annotate", json={"shipped": "french-3p.txt", "view": "full",
                                                      "luck_samples": 0}).json()
        done = _finished(client, job["id"])
        assert done["state"] == "done", done
        check(done, "web.json#/$defs/job")
        check(client.post("/api/games/open", json={"shipped": "french-4p.txt"}).json(),
              "web.json#/$defs/games_open")
        check(client.post("/api/puzzles/open", json={"shipped": "hit.txt"}).json(),
              "web.json#/$defs/puzzles_open")
        puzzle = client.post("/api/puzzles/open", json={"shipped": "hit.txt"}).json()
        line = puzzle["puzzles"][0]["line"]
        check(client.post("/api/puzzles/answer", json={"line": line, "card": "4"}).json(),
              "web.json#/$defs/puzzle_answer")
        for r in (client.post("/api/position", json={"line": BAD}),
                  client.get("/api/jobs/nope"),
                  client.post("/api/analyse", json={"line": EXACT, "samples": 0})):
            assert r.status_code >= 400
            check(r.json(), "web.json#/$defs/error")


def _finished(client, job_id: str) -> dict:
    for _ in range(600):
        job = client.get(f"/api/jobs/{job_id}").json()
        if job["state"] not in ("queued", "running"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish")


def test_readme_option_table_lists_every_solve_option():
    """README's option table names every option of the solve command, and
    its --json row every key of the answer document's schema."""
    import click
    from solver.cli.main import solve
    readme = (ROOT / "README.md").read_text()
    table = [line for line in readme.splitlines() if line.startswith("| `-")]
    for param in solve.params:
        if isinstance(param, click.Option):
            longest = max(param.opts, key=len)
            assert any(f"`{longest}" in row for row in table), longest
    json_row = next(row for row in table if row.startswith("| `--json`"))
    answer = json.loads((SCHEMA / "solve.json").read_text())["$defs"]["answer"]
    for key in answer["properties"]:
        assert f"`{key}`" in json_row, key


def test_annotate_match_objective_says_what_the_time_cut():
    """``annotate --objective match --time S``: the budget reaches every
    play's match search, so the output says what it cut, as the points
    annotation does: ``cut`` on each evaluated play and ``time`` in the
    JSON, a ``~`` before a cut play's chance and a line counting them (it
    said nothing: sampling stopped at 1 of 16 draws was marked as
    established); without --time neither field is written."""
    import re
    game = str(GAMES / "end-of-match.txt")
    args = ("annotate", "--objective", "match", "--view", "player", "--time", "0.001", "-q")
    doc = cli_json(*args, "--json", game)
    check(doc, "annotate.json")
    g = doc["games"][0]
    evaluated = [p for p in g["plays"] if p["status"] == "evaluated"]
    assert g["time"] == 0.001 and evaluated
    assert all(isinstance(p["cut"], bool) for p in evaluated)
    text = run(*args, "--all", game).stdout
    m = re.search(r"--time 0\.001 s a play: (\d+) of (\d+) evaluated plays cut short "
                  r"\(~: an estimate\)", " ".join(text.split()))
    assert m and int(m.group(1)) <= int(m.group(2))
    assert text.count("~") - 1 == int(m.group(1))     # the rows marked, and the legend
    record = run(*args, "--record", game).stdout      # the record says it too
    assert '--time 0.001 s a play"]' in record
    assert 1 <= record.count("[%cut]") <= len(evaluated)     # another run: its own cuts
    plain = cli_json("annotate", "--objective", "match", "--view", "full", "--json", "-q", game)
    assert "time" not in plain["games"][0]
    assert all("cut" not in p for p in plain["games"][0]["plays"])


def test_annotate_json_gives_the_errors_in_the_document(tmp_path):
    """A new user's pass: ``annotate --json`` of a record it could not read
    printed ``{"games": [], "partial": false}`` (exit 1), the error on stderr
    only, and of an empty file nothing on stdout; ``ronda-solve --json``
    gives its errors in the document. Now both carry ``errors``."""
    import json
    from click.testing import CliRunner
    from solver.cli.main import main
    bad = tmp_path / "bad.txt"
    bad.write_text("hand 1 dealer N table 1o.4c.5e.11b\n1. xx\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    r = CliRunner().invoke(main, ["annotate", "--json", "-q", str(bad)])
    doc = json.loads(r.stdout)
    check(doc, "annotate.json")
    assert r.exit_code == 1 and doc["games"] == []
    assert doc["errors"] == [{"file": str(bad), "game": None, "line": 2,
                              "error": "syntax: round 1. outside a deal"}]
    assert r.stderr.strip() == f"error: {bad}: line 2, syntax: round 1. outside a deal"
    r = CliRunner().invoke(main, ["annotate", "--json", "-q", str(empty)])
    doc = json.loads(r.stdout)
    check(doc, "annotate.json")
    assert r.exit_code == 1 and doc == {"games": [], "partial": False, "errors": [
        {"file": str(empty), "game": None, "line": None, "error": "no game in the file"}]}
