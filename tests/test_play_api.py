"""The play page's API (solver/web/play.py) in-process: a game belongs to
the browser that started it, refused requests are one line and change
nothing, the engine plays through the search pool, hints are counted
once, a hand's review is cached in the store, and a server restarted on
the same store resumes the game."""

import json
import time

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from solver.batch.store import Store  # noqa: E402
from solver.games.record import Replay, loads  # noqa: E402
from solver.web.app import Config, create_app  # noqa: E402
from solver.web.play import COOKIE  # noqa: E402


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return str(tmp_path_factory.mktemp("play") / "store.db")


@pytest.fixture(scope="module")
def client(db):
    app = create_app(Config(searches=1, queue=4, time=1.0, db=db))
    with TestClient(app) as c:
        yield c


def _new(c, **body) -> dict:
    r = c.post("/api/play/new", json={"seats": ["human", "1"], **body})
    assert r.status_code == 201, r.text
    return r.json()


def _snapshot(c, gid):
    return c.get(f"/api/play/{gid}").json(), c.get(f"/api/play/{gid}/record").text


def _play_on(c, doc, until):
    """Play the person's first card and the engine's replies until ``until(doc)``."""
    gid = doc["id"]
    while not until(doc):
        st = doc["state"]
        if st["status"] == "play":
            doc = c.post(f"/api/play/{gid}/move",
                         json={"card": st["hands"][st["you"]][0], "seat": st["you"]}).json()
        elif st["status"] == "engine":
            doc = c.post(f"/api/play/{gid}/advance").json()
        elif st["status"] == "hand-over":
            doc = c.post(f"/api/play/{gid}/next").json()
        else:
            break
    return doc


def test_a_game_belongs_to_the_browser_that_started_it(client):
    doc = _new(client, seed="own")
    gid = doc["id"]
    assert len(gid) >= 22 and client.cookies.get(COOKIE)
    assert doc["state"]["status"] == "play" and doc["state"]["hands"]["N"] == ["?"] * 3
    other = TestClient(client.app)          # another browser: no key, or another key
    r = other.get(f"/api/play/{gid}")
    assert r.status_code == 403
    assert r.json() == {"error": f"game {gid} belongs to another browser: only the browser "
                                 "that started it may see or play it"}
    other.cookies.set(COOKIE, "x" * 43)
    for method, path in (("get", ""), ("post", "/move"), ("post", "/advance"),
                         ("post", "/hint"), ("post", "/next"), ("get", "/record"),
                         ("post", "/review")):
        kw = {"json": {"card": "1"}} if path == "/move" else {}
        assert getattr(other, method)(f"/api/play/{gid}{path}", **kw).status_code == 403
    assert other.get("/api/play/mine").json() == {"games": []}
    assert gid in [g["id"] for g in client.get("/api/play/mine").json()["games"]]
    r = client.get("/api/play/nosuchgame0000")
    assert r.status_code == 404 and r.json() == {"error": "no game 'nosuchgame0000'"}
    assert client.get("/api/play/../../etc").status_code == 404


def test_bad_requests_are_one_line_and_change_nothing(client):
    doc = _new(client, seed="bad")
    gid = doc["id"]
    before = _snapshot(client, gid)
    hand = doc["state"]["hands"]["S"]
    cases = [
        ({"card": "12o" if "12o" not in hand else "12c", "seat": "S"}, 400, "is not in S's hand ("),
        ({"card": hand[0], "seat": "N"}, 409, "it is S's turn (a person), not N's"),
        ({"card": "8o", "seat": "S"}, 400, "card: "),
        ({"card": hand[0], "seat": "X"}, 400, "seat: 'X' is not a seat (S N)"),
    ]
    for body, status, text in cases:
        r = client.post(f"/api/play/{gid}/move", json=body)
        assert r.status_code == status and text in r.json()["error"], r.text
        assert "\n" not in r.json()["error"]
    r = client.post(f"/api/play/{gid}/next")
    assert r.status_code == 409 and r.json() == {"error": "the hand is not over"}
    r = client.post(f"/api/play/{gid}/review")
    assert r.status_code == 409 and r.json()["error"].startswith("no hand is finished yet")
    assert _snapshot(client, gid) == before
    # the engine's turn: the person may not play, nor ask for a hint
    doc = client.post(f"/api/play/{gid}/move", json={"card": hand[0], "seat": "S"}).json()
    assert doc["state"]["status"] == "engine"
    before = _snapshot(client, gid)
    r = client.post(f"/api/play/{gid}/move", json={"card": hand[1], "seat": "S"})
    assert r.status_code == 409 and r.json()["error"] == "it is N's turn (the engine), not S's"
    r = client.post(f"/api/play/{gid}/hint")
    assert r.status_code == 409 and r.json()["error"] == "no person is to play"
    assert _snapshot(client, gid) == before


def test_setup_errors(client):
    r = client.post("/api/play/new", json={"rules": "lmodir", "seats": ["human", "1"]})
    assert r.status_code == 400 and r.json()["error"].startswith("rules: unknown preset 'lmodir'")
    r = client.post("/api/play/new", json={"seats": ["1", "2"]})
    assert r.json() == {"error": "seats: at least one seat is a person (human)"}
    r = client.post("/api/play/new", json={"players": 5})
    assert r.status_code == 422 and r.json()["error"].startswith("players: ")
    r = client.post("/api/play/new", json={"seed": "a b"})
    assert r.status_code == 422 and r.json()["error"].startswith("seed: ")
    levels = client.get("/api/play/levels").json()["levels"]
    assert [lv["spec"] for lv in levels] == ["greedy:0.5", "greedy:0.2", "greedy", "mc:50",
                                             "engine:0.05s"]


def test_default_seats_follow_players_and_levels_may_be_numbers(client):
    """Issue 19: a person at S and level 3 at each other seat of ``players``;
    ``[\"human\", 3, 3]`` is ``[\"human\", \"3\", \"3\"]``."""
    for players, seats in ((2, ["S", "N"]), (3, ["S", "E", "N"]), (4, ["S", "E", "N", "W"])):
        r = client.post("/api/play/new", json={"rules": "french", "players": players})
        assert r.status_code == 201, r.text
        doc = r.json()
        assert doc["setup"]["seats"] == ["human"] + ["3"] * (players - 1)
        assert [w["seat"] for w in doc["state"]["who"]] == seats
        assert [w["level"] for w in doc["state"]["who"]] == [None] + [3] * (players - 1)
    r = client.post("/api/play/new", json={"rules": "french", "players": 3,
                                           "seats": ["human", 3, 5]})
    assert r.status_code == 201, r.text
    assert r.json()["setup"]["seats"] == ["human", "3", "5"]
    r = client.post("/api/play/new", json={"rules": "french", "players": 3,
                                           "seats": ["human", 3, 9]})
    assert r.status_code == 400
    assert r.json()["error"].startswith("seats: N is '9', not human or a level 1 to 5")
    # lmodire is a two-player preset (as play and a position line say)
    r = client.post("/api/play/new", json={"rules": "lmodire", "players": 3,
                                           "seats": ["human", 3, 3]})
    assert r.status_code == 400
    assert r.json()["error"] == \
        "rules: lmodire is for 2 players, not 3 (presets for 3 players: french)"
    r = client.post("/api/play/new", json={"seats": ["human", True]})
    assert r.status_code == 422 and r.json() == {"error": "seats.1: Input should be a valid string"}


def test_a_body_that_is_not_json_is_said_so_with_its_line_and_column(client):
    for path in ("/api/play/new", "/api/analyse"):
        r = client.post(path, content=b'{"rules": "french",\n "players": 3,,}',
                        headers={"content-type": "application/json"})
        assert r.status_code == 422
        assert r.json() == {"error": "the request body is not JSON (line 2, column 15: "
                                     "expecting property name enclosed in double quotes)"}
    r = client.post("/api/analyse", content='{"line": "é", '.encode(),
                    headers={"content-type": "application/json"})
    assert r.json() == {"error": "the request body is not JSON (line 1, column 15: "
                                 "expecting property name enclosed in double quotes)"}
    r = client.post("/api/play/new", content=b"", headers={"content-type": "application/json"})
    assert r.json() == {"error": "the request has no body (expected a JSON object)"}


def test_the_engine_plays_and_a_hint_counts_once(client):
    doc = _new(client, seed="hint", seats=["human", "3"])
    gid = doc["id"]
    h1 = client.post(f"/api/play/{gid}/hint").json()
    a = h1["analysis"]
    assert {m["move"] for m in a["moves"]} <= set(doc["state"]["hands"]["S"])
    assert a["best"] and a["best"][0] in doc["state"]["hands"]["S"]
    h2 = client.post(f"/api/play/{gid}/hint").json()
    assert h2["analysis"] == a and h2["state"]["hints"] == 1
    doc = client.post(f"/api/play/{gid}/move", json={"card": a["best"][0], "seat": "S"}).json()
    assert doc["played"]["card"] == a["best"][0]
    doc = client.post(f"/api/play/{gid}/advance").json()
    assert doc["played"]["seat"] == "N" and doc["state"]["status"] == "play"
    assert doc["state"]["index"] == 2 and doc["state"]["hints"] == 1
    # nothing to do when a person is to play
    again = client.post(f"/api/play/{gid}/advance").json()
    assert again["played"] is None and again["state"] == doc["state"]


def test_a_hand_is_reviewed_once_and_kept(client, db):
    doc = _new(client, seed="review", seats=["human", "2"])
    gid = doc["id"]
    doc = _play_on(client, doc, lambda d: d["state"]["status"] == "hand-over")
    assert doc["equity"]["when"] == "now" and 0 < doc["equity"]["chance"] < 1
    r = client.post(f"/api/play/{gid}/review").json()
    assert r["cached"] is False
    job = r["job"]
    while (job := client.get(f"/api/jobs/{job['id']}").json())["state"] in ("queued", "running"):
        time.sleep(0.2)
    assert job["state"] == "done", job
    r = client.post(f"/api/play/{gid}/review").json()
    assert r["cached"] is True
    doc_review = r["result"]
    # the review is annotate --json of the record (its defaults, player's view)
    record = client.get(f"/api/play/{gid}/record").text
    assert r["record"] == record
    assert len(doc_review["plays"]) == 36 and doc_review["view"] == "player"
    assert doc_review["score"] == doc["state"]["score"]
    assert doc_review["tags"]["Annotator"].endswith("view player, 32 determinisations, seed 0")
    assert client.post(f"/api/play/{gid}/review").json()["cached"] is True
    store = Store(db, readonly=True)
    rows = [g for g in store.games() if g["source"] == f"play:{gid}"]
    assert len(rows) == 1 and rows[0]["job"] == "annotate"
    assert store.stats()["evaluations"].get("eval", 0) > 0
    store.close()


def test_a_restarted_server_resumes_the_game(db):
    app = create_app(Config(searches=1, time=1.0, db=db))
    with TestClient(app) as c:
        doc = _new(c, seed="restart", seats=["human", "2"])
        gid = doc["id"]
        doc = _play_on(c, doc, lambda d: d["state"]["index"] >= 7 and d["state"]["status"] == "play")
        key = c.cookies.get(COOKIE)
        before = _snapshot(c, gid)
    app = create_app(Config(searches=1, time=1.0, db=db))
    with TestClient(app) as c:
        c.cookies.set(COOKIE, key)
        assert _snapshot(c, gid) == before
        doc = _play_on(c, c.get(f"/api/play/{gid}").json(),
                       lambda d: d["state"]["status"] in ("hand-over", "over"))
        assert doc["state"]["results"][0]["hand"] == 1
    with sqlite_rows(db) as rows:
        row = rows(f"SELECT status, moves FROM played WHERE id='{gid}'")[0]
        assert row[0] in ("hand-over", "over") and len(json.loads(row[1])) == 36


class sqlite_rows:
    """``with sqlite_rows(path) as rows: rows(sql)``."""

    def __init__(self, path):
        import sqlite3
        self.db = sqlite3.connect(path)

    def __enter__(self):
        return lambda sql: self.db.execute(sql).fetchall()

    def __exit__(self, *exc):
        self.db.close()


def test_an_old_store_is_kept_readable(tmp_path):
    """A store written before the played table gets it on first use; the
    batch tables and their schema are untouched."""
    path = tmp_path / "old.db"
    Store(path).close()
    app = create_app(Config(searches=1, db=str(path)))
    with TestClient(app) as c:
        _new(c, seed="old")
    store = Store(path, readonly=True)
    assert store.stats()["schema"] == 1 and store.check() == "ok"
    store.close()
    with sqlite_rows(str(path)) as rows:
        assert rows("SELECT value FROM meta WHERE name='played'") == [("1",)]
        assert rows("SELECT COUNT(*) FROM played") == [(1,)]


def test_replay_of_the_stored_record(client):
    """A finished game's record, as downloaded, replays to the score shown."""
    doc = _new(client, seed="whole", target=11)
    doc = _play_on(client, doc, lambda d: d["state"]["status"] == "over")
    gid = doc["id"]
    r = client.get(f"/api/play/{gid}/record?download=1")
    assert r.headers["content-disposition"] == f'attachment; filename="ronda-{gid[:8]}.txt"'
    rec = loads(r.text)
    replay = Replay(rec).run()
    assert replay.score == [doc["state"]["score"][s] for s in ("S", "N")]
    assert rec.tags["Seed"] == "whole" and rec.tags["Winner"] == doc["state"]["winner"]


def test_several_games_at_once(client):
    a = _new(client, seed="twoA")
    b = _new(client, seed="twoB", seats=["human", "2"])
    hb = _snapshot(client, b["id"])
    card = a["state"]["hands"]["S"][0]
    doc = client.post(f"/api/play/{a['id']}/move", json={"card": card, "seat": "S"}).json()
    assert doc["state"]["index"] == 1
    assert _snapshot(client, b["id"]) == hb
    mine = [g["id"] for g in client.get("/api/play/mine").json()["games"]]
    assert mine.index(a["id"]) < mine.index(b["id"])    # the latest change first


def test_the_pool_bounds_the_engine(db):
    """With the one search worker busy and no queue, the engine's move is
    refused (429, one line) and the game waits as it was."""
    app = create_app(Config(searches=1, queue=0, time=20, db=db))
    with TestClient(app) as c:
        doc = _new(c, seed="busy", seats=["human", "3"])
        gid = doc["id"]
        doc = c.post(f"/api/play/{gid}/move",
                     json={"card": doc["state"]["hands"]["S"][0], "seat": "S"}).json()
        # 2, 7 and 10 tie in every sample: the search runs to its 20 s
        long = c.post("/api/jobs/analyse", json={"line": "1.3.5.11 2.10.7/4.6.12 ? S",
                                                 "method": "determinised", "samples": 100000,
                                                 "time": 20}).json()
        while c.get(f"/api/jobs/{long['id']}").json()["state"] == "queued":
            time.sleep(0.05)
        before = _snapshot(c, gid)
        r = c.post(f"/api/play/{gid}/advance")
        assert r.status_code == 429 and r.json()["error"].startswith(
            "too many searches: 1 running and 0 waiting")
        assert _snapshot(c, gid) == before
        c.delete(f"/api/jobs/{long['id']}")
        while c.get(f"/api/jobs/{long['id']}").json()["state"] == "running":
            time.sleep(0.05)
        doc = c.post(f"/api/play/{gid}/advance").json()
        assert doc["played"]["seat"] == "N"


def test_answers_follow_the_schema(client):
    """Every answer of the play API against docs/schema/web.json (and the
    numbers rule), as tests/test_schema.py checks the rest of the API."""
    pytest.importorskip("jsonschema")
    from test_schema import check
    check(client.get("/api/play/levels").json(), "web.json#/$defs/play_levels")
    doc = _new(client, seed="schema", seats=["human", "3"])
    check(doc, "web.json#/$defs/play_game")
    gid = doc["id"]
    hint = client.post(f"/api/play/{gid}/hint").json()
    check(hint, "web.json#/$defs/play_game")
    doc = client.post(f"/api/play/{gid}/move",
                      json={"card": hint["analysis"]["best"][0], "seat": "S"}).json()
    check(doc, "web.json#/$defs/play_game")
    doc = client.post(f"/api/play/{gid}/advance").json()
    check(doc, "web.json#/$defs/play_game")
    doc = _play_on(client, doc, lambda d: d["state"]["status"] == "hand-over")
    check(doc, "web.json#/$defs/play_game")
    r = client.post(f"/api/play/{gid}/review").json()
    check(r, "web.json#/$defs/play_review")
    while (job := client.get(f"/api/jobs/{r['job']['id']}").json())["state"] in ("queued",
                                                                               "running"):
        time.sleep(0.2)
    check(job, "web.json#/$defs/job")
    check(client.post(f"/api/play/{gid}/review").json(), "web.json#/$defs/play_review")
    check(client.post(f"/api/play/{gid}/next").json(), "web.json#/$defs/play_game")
    check(client.get("/api/play/mine").json(), "web.json#/$defs/play_mine")
    for r in (client.get("/api/play/nosuchgame0000"),
              client.post(f"/api/play/{gid}/move", json={"card": "8o"}),
              client.post("/api/play/new", json={"rules": "x"})):
        check(r.json(), "web.json#/$defs/error")
    # the viewer's steps carry the plays' comments (the hints)
    text = client.get(f"/api/play/{gid}/record").text
    opened = client.post("/api/games/open", json={"text": text}).json()
    check(opened, "web.json#/$defs/games_open")
    assert opened["game"]["steps"][0]["comments"] == ["[%hint " + hint["analysis"]["best"][0] + "]"]


def test_serve_refuses_a_store_that_cannot_keep_games(tmp_path):
    import subprocess
    import sys
    bad = tmp_path / "notes.db"
    bad.write_text("not a database, just text\n" * 100)
    r = subprocess.run([sys.executable, "-m", "solver.cli.main", "serve", "--port", "0",
                        "--db", str(bad)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"error: {bad}: not an analysis store")
    assert r.stderr.count("\n") == 1


def test_serve_on_a_port_in_use_says_so_in_one_line(tmp_path):
    """Issue 19: not uvicorn's raw error and its exit 3 (the README's 'a
    suite opcode disagrees'), but one line and exit 2, before any worker starts."""
    import socket
    import subprocess
    import sys
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        for host in ("127.0.0.1", "0.0.0.0"):
            r = subprocess.run([sys.executable, "-m", "solver.cli.main", "serve", "--host", host,
                                "--port", str(port), "--db", str(tmp_path / "store.db")],
                               capture_output=True, text=True, timeout=120)
            assert (r.returncode, r.stdout) == (2, "")
            assert r.stderr == (f"error: port {port} is in use (on {host}: another program "
                                "listens there; choose another with --port)\n")
    r = subprocess.run([sys.executable, "-m", "solver.cli.main", "serve", "--host",
                        "nosuchhost.invalid", "--db", str(tmp_path / "store.db")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.startswith(
        "error: --host 'nosuchhost.invalid' is not an address of this machine (")
    assert r.stderr.count("\n") == 1


@pytest.mark.parametrize("option", ["--time", "--memory", "--timeout"])
@pytest.mark.parametrize("value", ["nan", "inf"])
def test_serve_refuses_a_budget_that_is_not_a_finite_number(option, value):
    """As the other commands' --time and --memory: a usage line naming the
    option, exit 2, no server (it took ``--time nan`` and served)."""
    from click.testing import CliRunner
    from solver.cli.main import main
    r = CliRunner().invoke(main, ["serve", option, value, "--port", "0"])
    assert r.exit_code == 2
    assert f"Invalid value for '{option}'" in r.output and "server" not in r.output
