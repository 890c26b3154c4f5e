"""The web app's JSON API (solver/web/api.py): the same documents as the
command line, one-line errors for bad input, the limits."""

import json
import subprocess
import sys
import time

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from solver.games.record import SAMPLE  # noqa: E402

from solver.notation import NotationError, parse_position  # noqa: E402
from solver.web.app import Config, create_app  # noqa: E402

LINE = "1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N"
# a first deal whose three plays tie in every sample (2, 7 and 10 each take
# nothing and lay a card N cannot hit), so sampling never separates them and
# runs to its time (with 2.2.7 it separated after 32 samples, in 30 ms, and
# the cancel below raced a finished job)
LONG = "1.3.5.11 2.10.7/4.6.12 ? S"


@pytest.fixture(scope="module")
def client():
    app = create_app(Config(searches=1, queue=1, max_body=20_000, time=20))
    with TestClient(app) as c:
        yield c


def _cli_json(line: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "solver.cli.main", "--json", "-"], input=line,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def _stable(doc: dict) -> dict:
    """The document without what varies between runs (time, nodes)."""
    return {k: v for k, v in doc.items() if k not in ("seconds", "nodes", "workers")}


def test_analyse_is_the_cli_document(client):
    got = client.post("/api/analyse", json={"line": LINE}).json()
    want = _cli_json(LINE)
    assert [_stable(d) for d in got["positions"]] == [_stable(d) for d in want["positions"]]
    assert got["positions"][0]["value"] == 4 and got["errors"] == []


def test_analyse_takes_the_objective_as_the_cli(client):
    """At 38-40 the API answers for the match as the command line does
    (lay the 2, not the 7 hit); ``objective`` asked for by name is kept."""
    line = LINE + " score=38,40"
    got = client.post("/api/analyse", json={"line": line}).json()["positions"][0]
    want = _cli_json(line)["positions"][0]
    assert _stable(got) == _stable(want)
    # laying the 2 ends the hand at 38-40 with N to deal: the table's value there
    from solver.match_equity.table import load
    at = round(load("lmodire", 2).equity_of(38, 40, a_deals=False), 4)
    assert got["objective"] == "match" and got["best"] == ["2"] and got["chance"] == at
    named = client.post("/api/analyse", json={"line": line, "objective": "points"}).json()
    assert named["positions"][0]["best"] == ["7"] and named["positions"][0]["value"] == 4
    bad = client.post("/api/analyse", json={"line": line, "objective": "chess"})
    assert bad.status_code == 422 and bad.json()["error"].startswith("objective:")
    # one table serves every target up to 61: to 21 the match is searched ...
    to21 = client.post("/api/analyse", json={"line": LINE + " score=18,20 target=21",
                                             "objective": "match"}).json()
    assert to21["errors"] == [] and to21["positions"][0]["objective"] == "match"
    # ... 18-20 to 21 is 38-40 to 41 (the same needs, the same table entry)
    assert to21["positions"][0]["best"] == ["2"] and to21["positions"][0]["chance"] == at
    refused = client.post("/api/analyse", json={"line": LINE + " score=18,19 target=71",
                                                "objective": "match"}).json()
    # in the page's words: its objective menu, not --objective
    assert refused["positions"] == []
    assert refused["errors"][0]["error"].endswith(": choose the objective points")
    assert "serves targets 1 to 61, not 71" in refused["errors"][0]["error"]


def test_malformed_lines_get_the_parsers_one_line_error(client):
    for bad in ("5.8 5.7/3.3 - S", "5.6 5.7/3.3/1/2/4 - S", "5.6 5.7/3.3 - X", "nonsense"):
        with pytest.raises(NotationError) as err:
            parse_position(bad)
        for path in ("/api/analyse", "/api/position", "/api/jobs/analyse"):
            r = client.post(path, json={"line": bad})
            assert r.status_code == 400
            assert r.json() == {"error": str(err.value)}


def test_bad_fields_and_records(client):
    r = client.post("/api/analyse", json={"line": LINE, "samples": 0})
    assert r.status_code == 422 and r.json()["error"] == \
        "samples: Input should be greater than or equal to 1"
    r = client.post("/api/games/open", json={"text": "[Rules \"lmodire\"]\nhand 1 dealer N table 1.1.1.1.1\n"})
    assert r.status_code == 400 and "\n" not in r.json()["error"]
    r = client.post("/api/games/open", json={"shipped": "../../etc/passwd"})
    assert r.status_code == 404 and r.json()["error"].startswith("no shipped file")
    r = client.post("/api/games/open", json={"shipped": "engine-v-greedy.txt", "text": "x"})
    assert r.status_code == 400
    r = client.post("/api/puzzles/answer", json={"line": "5.6 5.7/3.3 - S ; bm 5", "card": "4"})
    assert r.status_code == 400 and r.json()["error"] == "answer: S holds no 4"


def test_annotate_refuses_a_record_it_cannot_read_as_open_does(client):
    """A new user's pass: ``/api/jobs/annotate`` took an unreadable record
    (202) and its job failed a moment later, where ``/api/games/open``
    answers 400 at once; an empty record had three messages. Both now
    answer 400 with the same one line."""
    bad = SAMPLE.replace("1. 7e 4o", "1. 8e 4o", 1)        # no rank 8
    for text in ("", bad, SAMPLE + "\n[Event \"tags only\"]\n"):
        game = 2 if "tags only" in text else 1
        opened = client.post("/api/games/open", json={"text": text, "game": game})
        job = client.post("/api/jobs/annotate", json={"text": text, "game": game})
        assert opened.status_code == job.status_code == 400, (opened.json(), job.json())
        assert job.json()["error"] == opened.json()["error"].replace("show", "annotate")
    assert job.json()["error"].startswith("game 2: line 14, Dealer: the first dealer is not given")
    assert client.post("/api/jobs/annotate", json={"text": "", "game": 1}).json()["error"] == (
        "no game in the record")


def test_oversized_upload_is_refused(client):
    r = client.post("/api/games/open", json={"text": "x" * 30_000})
    assert r.status_code == 413
    assert r.json()["error"] == "the request is larger than 20,000 bytes (the server's --max-upload)"
    assert client.get("/api/rules").status_code == 200      # still serving


def test_too_many_searches_queue_then_refuse_and_cancel(client):
    body = {"line": LONG, "method": "determinised", "samples": 100000, "time": 20}
    first = client.post("/api/jobs/analyse", json=body)
    second = client.post("/api/jobs/analyse", json=body)
    assert first.status_code == second.status_code == 202
    third = client.post("/api/jobs/analyse", json=body)
    assert third.status_code == 429
    assert third.json()["error"].startswith("too many searches: 1 running and 1 waiting")
    a, b = first.json()["id"], second.json()["id"]
    assert client.get(f"/api/jobs/{b}").json()["state"] == "queued"
    client.delete(f"/api/jobs/{b}")
    assert client.get(f"/api/jobs/{b}").json()["state"] == "cancelled"
    while client.get(f"/api/jobs/{a}").json()["state"] == "queued":
        time.sleep(0.05)
    client.delete(f"/api/jobs/{a}")
    while (job := client.get(f"/api/jobs/{a}").json())["state"] == "running":
        time.sleep(0.05)
    assert job["state"] == "cancelled"
    # the worker goes on with the next search
    assert client.post("/api/analyse", json={"line": LINE}).json()["positions"][0]["value"] == 4


def test_plays_follow_the_pv(client):
    doc = client.post("/api/play", json={"line": LINE, "moves": ["7", "12", "2", "7", "7"]}).json()
    assert [p["line"] for p in doc["plays"]][:2] == [
        "1 7.2/7.12 - N score=1,0 taken=17,18 last=S show=7:2",
        "1.12 7.2/7 - S score=1,0 taken=17,18 last=S prev=12"]
    # the hand's last card ends the hand: no line, the final score
    assert doc["stopped"] is None
    assert doc["plays"][-1]["line"] is None
    assert doc["plays"][-1]["over"] == "the hand is over: the final score S 4, N 0"


def test_a_hidden_hand_plays_any_rank_it_may_hold(client):
    """A player's view on the board stopped at the other side's first play:
    ``play: N holds no 12`` where two 12s are unseen and N may hold one.
    A hand written ``?`` now plays any rank of which a card is unseen (the
    ``?`` becomes that card, on the table or in ``gone=``); a rank every
    card of which is seen is refused, naming it."""
    line = ("2.5.11 1.6.6/?.?.? ? S taken=10,9 last=S "
            "gone=1.1.2.2.3.3.3.4.4.4.7.7.7.10.10.11.12.12.5")
    doc = client.post("/api/play", json={"line": line, "moves": ["1", "12", "6", "3", "1"]}).json()
    assert [(p["seat"], p["move"], p["effect"]) for p in doc["plays"]] == [
        ("S", "1", "lays"), ("N", "12", "lays"), ("S", "6", "lays"), ("N", "3", "lays")]
    assert [p["line"] for p in doc["plays"]][1:] == [
        "2.5.11.1.12 6.6/?.? ? S taken=10,9 last=S "
        "gone=1.1.2.2.3.3.3.4.4.4.7.7.7.10.10.11.12.12.5 prev=12",
        "2.5.11.1.12.6 6/?.? ? N taken=10,9 last=S "
        "gone=1.1.2.2.3.3.3.4.4.4.7.7.7.10.10.11.12.12.5 prev=6",
        "2.5.11.1.12.6.3 6/? ? S taken=10,9 last=S "
        "gone=1.1.2.2.3.3.3.4.4.4.7.7.7.10.10.11.12.12.5 prev=3"]
    # S is to play and S's hand is written: S holds no 1
    assert doc["stopped"] == "play: S holds no 1"
    # N's 3 was the last unseen 3: N cannot hold another; N's 1 takes the
    # table's 1 and the run 2, 3 after it
    after = doc["plays"][1]["line"]
    doc = client.post("/api/play", json={"line": after, "moves": ["6", "3"]}).json()
    assert doc["stopped"] is None and doc["plays"][1]["effect"] == "lays"
    doc = client.post("/api/play", json={"line": doc["plays"][1]["line"],
                                         "moves": ["6", "3"]}).json()
    assert doc["stopped"] == ("play: N cannot hold a 3: every 3 is seen (the table, the "
                              "written hands and stock, gone=)")
    # the board says what N may play: every rank but 3; S's board (S's
    # hand written) has no such list
    assert doc["plays"][0]["board"]["playable"] == [1, 2, 4, 5, 6, 7, 10, 11, 12]
    assert "playable" not in client.post("/api/position", json={"line": after}).json()["board"]
    doc = client.post("/api/play", json={"line": after, "moves": ["6", "1"]}).json()
    assert doc["plays"][1]["effect"] == "x1.1.2"


def test_the_hands_end_is_over_not_a_position_to_analyse(client):
    """Played to the hand's end, the board's line is the end written out;
    analysing it said ``hands: S is to play but holds no card``. Now the
    analysis (and reading the line) says the hand is over and the final
    score, and the final board says who leads, by how much, and that
    nobody has won the match."""
    doc = client.post("/api/play", json={"line": "1.12 7/12 - S taken=18,18 last=N",
                                         "moves": ["7", "12"]}).json()
    end = doc["plays"][-1]
    assert end["line"] is None and end["over"] == "the hand is over: the final score S 0, N 2"
    b = end["board"]
    assert b["line"] == "- -/- - S score=0,2 taken=18,22 last=N"
    assert (b["over"], b["ahead"], b["by"], b["match_winner"]) == (end["over"], "N", 2, None)
    want = "hands: the hand is over: no card is left to play (the final score S 0, N 2)"
    for path in ("/api/analyse", "/api/jobs/analyse", "/api/position"):
        r = client.post(path, json={"line": b["line"]})
        assert (r.status_code, r.json()) == (400, {"error": want}), path
    # a match won at a deal's end (win_check immediate): the match is over
    doc = client.post("/api/play", json={
        "line": "3.6.10.5 -/5 4.4.4.2.2.7 N prev=5 taken=14,15 last=S score=40,40",
        "moves": ["5"]}).json()
    b = doc["plays"][-1]["board"]
    assert (b["match_winner"], b["ahead"], b["by"]) == ("N", "N", 1)
    r = client.post("/api/analyse", json={"line": b["line"]})
    assert r.json() == {"error": "hands: the match is over: N has won at the target 41 (the "
                                 "score S 40, N 41)"}


def test_openapi_documents_the_api(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/analyse", "/api/jobs/analyse", "/api/games/open", "/api/puzzles/answer"} <= set(paths)


def test_the_boards_objective_notes_and_errors_use_the_pages_words(client):
    """The board has an *objective* menu, not ``--objective``: a note or
    an error naming the option says it in the page's words."""
    line = "3.6.10.12 1.5.5/2.7.11 ? S score=39,39"
    doc = client.post("/api/analyse", json={"line": line, "method": "determinised",
                                            "samples": 10, "time": 5}).json()
    assert doc["positions"][0]["objective_note"] == (
        "points: 36 cards are left to play, the match search takes 12 here "
        "(choosing the objective match tries)")
    doc = client.post("/api/analyse", json={"line": line, "method": "equilibrium",
                                            "objective": "match"}).json()
    assert doc["errors"][0]["error"].endswith(": choose the objective points")
    assert "--" not in doc["errors"][0]["error"]


#: three players, S's hand known, the others' and the stock '?': the exact
#: method cannot value it; `puzzles quiz` judges it by its bm
HIDDEN_PUZZLE = ("1.5.11 5.7/?.?/?.? ? S rules=french taken=8,7,7 last=E "
                 "gone=1.1.2.2.2.3.3.4.4.5.6.6.7.7.7.10.10.11.11.12.12.2 ; bm 5")


def test_a_puzzle_with_hidden_cards_is_judged_by_its_bm_as_the_quiz_does(client):
    """The trainer listed the line, then answered every card with 400 "a
    puzzle needs every card known (exact method)"; `puzzles quiz` on the
    same line answers "right: 5". Now the answer is judged as the quiz
    judges it, by the line's bm, and the warning says it is unchecked."""
    opened = client.post("/api/puzzles/open", json={"text": HIDDEN_PUZZLE + "\n"})
    assert opened.status_code == 200 and opened.json()["errors"] == []
    line = opened.json()["puzzles"][0]["line"]
    want = ("a puzzle needs every card known (exact method): the answer is the line's bm (5), "
            "not checked by the engine")
    right = client.post("/api/puzzles/answer", json={"line": line, "card": "5"})
    assert right.status_code == 200, right.json()
    doc = right.json()
    assert (doc["right"], doc["best"], doc["value"], doc["moves"], doc["warning"]) == (
        True, "5", None, [], want)
    wrong = client.post("/api/puzzles/answer", json={"line": line, "card": "7"})
    assert wrong.status_code == 200 and wrong.json()["right"] is False
    # a card S does not hold is still refused
    assert client.post("/api/puzzles/answer", json={"line": line, "card": "4"}).status_code == 400
    from test_schema import check
    check(doc, "web.json#/$defs/puzzle_answer")


def test_budget_errors_name_the_boards_controls_not_the_options(client):
    """An expectimax that runs out of time told the board's user to
    ``raise --time or --memory, or use --method auto``: the board has a
    *seconds* box and a *method* menu (the memory is the server's)."""
    line = ("1.3.5.11 2.2.7/4.6.12 ~1.1.1.2.2.3.3.3.4.4.4.5.5.5.6.6.6.7.7.7.10.10.10.10."
            "11.11.11.12.12.12 S")
    doc = client.post("/api/analyse", json={"line": line, "method": "expectimax",
                                            "time": 3}).json()
    error = doc["errors"][0]["error"]
    assert error.startswith("line 1, position: expectimax did not finish in the 3 s it had")
    assert error.endswith(": raise the seconds or the server's memory limit, or choose the "
                          "method auto to sample instead")
    assert "--" not in error


def test_page_words_reword_every_option_an_error_names():
    """Every ``--time``/``--memory``/``--method``/``--samples`` hint the
    searches' errors give (solver/analysis/evaluation.py,
    solver/search/memory.py, solver/match_equity/objective.py) in the
    pages' words."""
    from solver.web.tasks import page_words
    cases = {
        "raise --time, or use --method auto for an answer in the time":
            "raise the seconds, or choose the method auto for an answer in the time",
        "the equilibrium did not finish in 3 s: raise --time, or use --method auto":
            "the equilibrium did not finish in 3 s: raise the seconds, or choose the method auto",
        "no determinisation finished in 3 s: raise --time, or use fewer cards":
            "no determinisation finished in 3 s: raise the seconds, or use fewer cards",
        "exact search did not finish in 3 s (9 nodes): raise --time":
            "exact search did not finish in 3 s (9 nodes): raise the seconds",
        "memory: the system refused the 9 MB of a search table (x): lower --memory":
            "memory: the system refused the 9 MB of a search table (x): lower the server's "
            "memory limit",
        "points: too big (its 3 s of --time 10; the points search has the rest)":
            "points: too big (its 3 s of the 10 seconds; the points search has the rest)",
        "one ply, no look-ahead); raise --time for a search":
            "one ply, no look-ahead); raise the seconds for a search",
        "give --samples 5 or more": "give 5 samples or more",
    }
    assert {k: page_words(k) for k in cases} == cases


def test_a_move_that_is_no_card_is_named_by_its_field_and_index(client):
    """``stopped`` for an unreadable move says ``play:`` and which move, as
    the other play errors name the play (``play: S holds no 4``)."""
    for moves, stopped in (([""], "play: moves[0]: expected a rank 1-7 or 10-12: ''"),
                           (["9"], "play: moves[0]: rank 9 does not exist in a Spanish "
                                   "40-card deck: '9'"),
                           (["7", "x"], "play: moves[1]: expected a rank 1-7 or 10-12: 'x'"),
                           (["4"], "play: S holds no 4")):
        doc = client.post("/api/play", json={"line": LINE, "moves": moves}).json()
        assert doc["stopped"] == stopped
        assert len(doc["plays"]) == len(moves) - 1


def test_a_body_that_is_not_utf8_or_not_sent_as_json_says_so(client):
    """Invalid UTF-8 got 400 ``There was an error parsing the body``; a JSON
    object sent as text/plain (or with no content-type) got ``request:
    Input should be a valid dictionary ...``: each says what is wrong, as a
    body that is not JSON does."""
    good = json.dumps({"line": LINE}).encode()
    r = client.post("/api/analyse", content=b'{"line": "\xff"}',
                    headers={"content-type": "application/json"})
    assert (r.status_code, r.json()) == (
        422, {"error": "the request body is not UTF-8 text (byte 11 is 0xff)"})
    for headers in ({"content-type": "text/plain"}, {}):
        r = client.post("/api/analyse", content=good, headers=headers)
        assert (r.status_code, r.json()) == (
            422, {"error": "the request body must be JSON (content-type application/json)"})
    r = client.post("/api/play", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert (r.status_code, r.json()) == (422, {"error": "the request body must be a JSON object"})
    # and sent as JSON, the same body is read
    r = client.post("/api/position", content=good, headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.json()["board"]["turn"] == "S"


def test_the_favicon_is_served(client):
    """``/favicon.ico`` (asked for by browsers) and the icon the pages name
    are an SVG, not a 404."""
    for path in ("/favicon.ico", "/static/favicon.svg"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
        assert r.text.startswith("<svg ")
    for page in ("/", "/board", "/game", "/puzzles", "/play", "/mine"):
        assert '<link rel="icon" href="/static/favicon.svg"' in client.get(page).text


def test_a_body_shorter_than_its_content_length_is_one_whole_sentence(client):
    """A new user's pass: a body cut short by a Content-Length larger than
    what was sent was read as the JSON it cut off, and the error stopped
    mid-sentence (``the request body is not JSON (line 1, column 10:
    unterminated string starting at)``, 422). It is 400 and says the body
    ended before its length; a body whose JSON is itself cut off (its
    length true) says where, in words that end."""
    good = json.dumps({"line": LINE}).encode()
    for path in ("/api/analyse", "/api/position"):
        for cut in (20, 0):
            r = client.post(path, content=good[:cut],
                            headers={"content-type": "application/json",
                                     "content-length": str(len(good))})
            assert (r.status_code, r.json()) == (400, {
                "error": f"the request body ended before its Content-Length "
                         f"({cut} of {len(good)} bytes)"})
    r = client.post("/api/analyse", content=good[:20], headers={"content-type": "application/json"})
    assert (r.status_code, r.json()) == (
        422, {"error": "the request body is not JSON (line 1, column 10: unterminated string)"})
    r = client.post("/api/analyse", content=b'{"line": "a\x01b"}',
                    headers={"content-type": "application/json"})
    assert r.json() == {"error": "the request body is not JSON (line 1, column 12: invalid "
                                 "control character)"}
    # the whole body, its length true: read
    r = client.post("/api/position", content=good,
                    headers={"content-type": "application/json",
                             "content-length": str(len(good))})
    assert r.status_code == 200 and r.json()["board"]["turn"] == "S"
