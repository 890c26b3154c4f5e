"""The three pages of ``ronda-solve serve`` driven in a real headless
browser (Debian's chromium through Playwright): a position set up by
clicking shows the command line's values, a shipped game steps with the
annotator's marks, a puzzle is solved right and wrong. Each test saves a
screenshot of its page in a temporary folder, or in the folder
``RONDA_SCREENSHOTS`` names (``RONDA_SCREENSHOTS=docs`` refreshes the
pictures docs/web.md shows). With ``RONDA_REQUIRE_BROWSER=1`` (set by
.ci/run) a missing browser fails the suite instead of skipping."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

from solver.cli.render import _entry, _loss, _points
from solver.numbers import percent, percent_gap, points_gap, signed, tenths
from solver.puzzles.puzzle import chance_gap_text, chance_text

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is missing: pip install -e '.[dev]'")

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("RONDA_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not Path(CHROMIUM).exists() and os.environ.get("RONDA_REQUIRE_BROWSER"):
    raise RuntimeError(f"no chromium at {CHROMIUM}, and RONDA_REQUIRE_BROWSER is set")
if not Path(CHROMIUM).exists():
    pytest.skip("no chromium browser found: apt-get install -y chromium (Debian), or set "
                "RONDA_CHROMIUM to a Chromium executable", allow_module_level=True)


def start_server(*args: str) -> tuple[subprocess.Popen, str]:
    """``ronda-solve serve --port 0 ARGS``: the process and its address."""
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli.main", "serve", "--port", "0",
                             *args], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("ronda-solve serve: http://127.0.0.1:"), line
    return proc, line.split()[2].rstrip("/")


def stop_server(proc: subprocess.Popen) -> None:
    """Stop a server of :func:`start_server` (SIGTERM, as Ctrl-C would)."""
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``ronda-solve serve`` on a free port (its store in a temporary
    folder); yields its address."""
    db = tmp_path_factory.mktemp("serve") / "store.db"
    proc, url = start_server("--searches", "1", "--db", str(db))
    yield url
    stop_server(proc)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    """Where the screenshots go (see the module docstring)."""
    named = os.environ.get("RONDA_SCREENSHOTS")
    return (ROOT / named) if named else tmp_path_factory.mktemp("screenshots")


@pytest.fixture
def page(browser):
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    yield pg
    pg.close()


def test_the_pages_print_numbers_as_the_command_line(server, page):
    """common.js's number helpers, run in the page, against the Python
    ones the command line prints with (solver/numbers.py,
    solver/cli/render.py, solver/puzzles/puzzle.py): zero without a sign
    (fmt(0.001) is 0, not +0), exact ties rounded as Python rounds them
    (0.125 to 0.12), chances near 0 and 1 as <0.1% and >99.9%, a chance
    lost as the printed best less the printed chance."""
    page.goto(server + "/board")
    page.wait_for_selector("body[data-ready='1']")
    values = [0, 0.001, -0.001, 0.004999, 0.005, -0.005, 0.125, -0.125, 0.375, 0.5, -0.5,
              2.5, -2.5, 5, -5, 4.999999999999999, -2.0000000001, 1 / 3, -2 / 3, 2.675,
              0.015, 12.345, 1234.5, 0.00001, 123456789, -4.4351, -4.4449, -4.435,
              -4.440892098500626e-16, 2.0000000000000004]
    chances = [0, 1, 0.0004, 0.00049, 0.0005, 0.00051, 0.0025, 0.0075, 0.00025, 0.0863,
               0.123456, 0.45551, 0.5, 0.49999, 0.54549, 0.5456, 0.99949, 0.9995, 0.9996,
               0.99999]
    got = page.evaluate("""([vs, ps]) => ({
        g: vs.map(v => signed(v)), f2: vs.map(v => signed(v, ".2f")),
        f1: vs.map(v => signed(v, ".1f")), fmt: vs.map(fmt),
        exact: vs.map(v => points(v, "exact")), expectimax: vs.map(v => points(v, "expectimax")),
        loss: vs.map(v => points(Math.abs(v), "expectimax", false)),
        seat: vs.map(v => seatPoints(Math.abs(v), false)),
        sampled: vs.map(v => seatPoints(Math.abs(v), true)),
        tenths: ps.map(tenths), percent: ps.map(percent), chance: ps.map(chanceText),
        gap: ps.flatMap(a => ps.map(b => percentGap(a, b))),
        chanceGap: ps.flatMap(a => ps.map(b => chanceGapText(a, b))),
        pointsGap: vs.flatMap(a => vs.map(b => pointsGap(a, b))),
        lossText: ["exact", "expectimax"].flatMap(m => [false, true].flatMap(
            sampled => vs.flatMap(a => vs.map(b => lossText(a, b, m, sampled))))),
    })""", [values, chances])
    assert got == {
        "g": [signed(v) for v in values], "f2": [signed(v, ".2f") for v in values],
        "f1": [signed(v, ".1f") for v in values],
        "fmt": [signed(float(format(v, ".2f"))) for v in values],
        "exact": [_points(v, "exact") for v in values],
        "expectimax": [_points(v, "expectimax") for v in values],
        "loss": [_points(abs(v), "expectimax", sign=False) for v in values],
        "seat": [_entry(abs(v), False) for v in values],
        "sampled": [_entry(abs(v), True) for v in values],
        "tenths": [tenths(p) for p in chances], "percent": [percent(p) for p in chances],
        "chance": [chance_text(p) for p in chances],
        "gap": [percent_gap(a, b) for a in chances for b in chances],
        "chanceGap": [chance_gap_text(a, b) for a in chances for b in chances],
        "pointsGap": [points_gap(a, b) for a in values for b in values],
        "lossText": [_loss(a, b, m, sampled) for m in ("exact", "expectimax")
                     for sampled in (False, True) for a in values for b in values],
    }
    assert got["fmt"][:3] == ["0", "0", "0"] and got["percent"][2] == "<0.1%"
    assert page.evaluate("[percent(null), fmt(null), fmt(undefined)]") == ["", "", ""]


def _cli(*args: str, stdin: str | None = None) -> dict:
    out = subprocess.run([sys.executable, "-m", "solver.cli.main", *args], input=stdin, cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_board_set_up_by_clicking_shows_the_cli_values(server, page, shots):
    page.goto(server + "/board")
    page.wait_for_selector("body[data-ready='1']")
    # table 1o 7c; S 7o 7e 2o; N 7b 12o; N just laid the 7 (more keys)
    for zone, cards in (("table", ["1o", "7c"]), ("S", ["7o", "7e", "2o"]), ("N", ["7b", "12o"])):
        page.click(f"#zones [data-zone='{zone}'] .label")
        for c in cards:
            page.click(f"#palette [data-card='{c}']")
    page.fill("#extra", "prev=7c taken=15,18 last=N")
    line = page.input_value("#line")
    assert line == "1o.7c 7o.7e.2o/7b.12o - S prev=7c taken=15,18 last=N"
    page.click("#analyse")
    page.wait_for_selector("#moves tbody tr")
    shown = {r.get_attribute("data-move"): r.query_selector(".value").inner_text()
             for r in page.query_selector_all("#moves tbody tr")}
    want = _cli("--json", "-", stdin=line)["positions"][0]
    assert shown == {m["move"]: (f"+{m['value']}" if m["value"] > 0 else str(m["value"]))
                     for m in want["moves"]}
    assert page.get_attribute("#summary", "data-method") == want["method"] == "exact"
    # the board speaks in cards: each card of S's hand carries its play's value
    badges = {c.get_attribute("data-card"): c.query_selector(".badge").inner_text()
              for c in page.query_selector_all("#zones [data-zone='S'] span.card")}
    value = {m["move"].rstrip("oceb"): m["value"] for m in want["moves"]}
    assert badges == {c: (f"+{value[c.rstrip('oceb')]}" if value[c.rstrip("oceb")] > 0
                          else str(value[c.rstrip("oceb")])) for c in ("7o", "7e", "2o")}
    best = {c.get_attribute("data-card").rstrip("oceb")
            for c in page.query_selector_all("#zones [data-zone='S'] span.card")
            if "best" in c.query_selector(".badge").get_attribute("class")}
    assert best == {m.rstrip("oceb") for m in want["best"]}
    plies = [e.inner_text() for e in page.query_selector_all("#pv .ply")]
    assert plies == [f"{p['seat']}:{p['move']}" for p in want["pv"]]
    assert [p["seat"] for p in want["pv"]] == ["S", "N", "S", "N", "S"]
    page.click("#pv-fwd")
    assert page.query_selector("#pv .ply.here").inner_text() == f"S:{want['pv'][0]['move']}"
    assert page.inner_text("#summary") == want["summary"] == "exact: every card is known"
    page.screenshot(path=str(shots / "web-board.png"), full_page=True)
    # click the best play: the board moves on and analyses N's position
    page.click(f"#moves tr[data-move='{want['best'][0]}']")
    page.wait_for_function("document.querySelector('#line').value.endsWith('show=7:2')")
    page.wait_for_selector("#moves tbody tr")
    assert page.input_value("#line") == "1o 7e.2o/7b.12o - N score=1,0 taken=17,18 last=S show=7:2"


def test_board_at_38_40_plays_for_the_match_as_the_cli_does(server, page):
    """The README's first line at 38-40 (target 41): points alone say hit
    with the 7 (+4), but N's 7 answers the hit for 5 and reaches 45; the
    match search says lay the 2 (the hand then ends 38-40 with N to deal,
    worth the table's value there). The board, the API and the command
    line agree."""
    page.goto(server + "/board")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#line", "1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N")
    page.click("#load")
    page.wait_for_selector("#scores input[data-side='S']")
    # loaded when the board writes the line back in its own order (a loaded
    # machine is slow)
    page.wait_for_function("document.querySelector('#line').value.endsWith('last=N prev=7')")
    page.fill("#scores input[data-side='S']", "38")
    page.fill("#scores input[data-side='N']", "40")
    page.wait_for_function("document.querySelector('#line').value.includes('score=38,40')")
    line = page.input_value("#line")
    assert line == "1.7 7.7.2/7.12 - S score=38,40 taken=15,18 last=N prev=7"
    page.click("#analyse")
    page.wait_for_selector("#moves tbody tr")
    want = _cli("--json", "-", stdin=line)["positions"][0]
    assert want["objective"] == "match" and want["best"] == ["2"]
    assert [(m["move"], m["value"], m["chance"]) for m in want["moves"]] == \
        [("2", 0, want["chance"]), ("7", 4, 0)]
    from solver.match_equity.table import load
    assert want["chance"] == round(load("lmodire", 2).equity_of(38, 40, a_deals=False), 4)
    rows = page.query_selector_all("#moves tbody tr")
    assert [r.get_attribute("data-move") for r in rows] == ["2", "7"]
    assert [r.get_attribute("class") for r in rows] == ["play best", "play"]
    # the chances as the command line prints them: the chance lost against
    # the best the printed best less the printed chance
    assert [r.query_selector(".chance").inner_text() for r in rows] == \
        [percent(m["chance"]) for m in want["moves"]] == [percent(want["chance"]), "0.0%"]
    assert [r.query_selector(".lost").inner_text() for r in rows] == \
        ["", percent_gap(want["chance"], 0)]
    assert [r.query_selector(".value").inner_text() for r in rows] == ["0", "+4"]
    assert [r.query_selector(".loss").inner_text() for r in rows] == ["4", ""]
    assert page.inner_text("#answer") == f"best 2 · {percent(want['chance'])} to win the match"
    assert page.inner_text("#objective-note") == want["objective_note"]
    plies = [e.inner_text() for e in page.query_selector_all("#pv .ply")]
    assert plies[0] == "S:2"
    # the objective asked for by name: points, the board follows (the 7 hit)
    page.select_option("#objective", "points")
    page.click("#analyse")
    page.wait_for_function("document.querySelector('#moves tbody tr.best')?.dataset.move === '7'")
    assert page.is_hidden("#moves th.chance")
    assert page.is_hidden("#moves th.chance-se")


def test_board_shows_a_sampled_match_chance_with_its_error(server, page):
    """A hidden hand played for the match: the chance of winning is
    sampled, and the board shows its standard error in a "± %" column as
    the command line does (it had none), each play's loss as the printed
    values' difference."""
    line = ("2.12 5.5/?.? ? S taken=14,14 last=S score=39,39 "
            "gone=1.1.1.1.2.2.3.3.3.3.4.4.4.4.6.6.6.6.7.7.10.10.10.10.11.11.11.11")
    page.goto(server + "/board?line=" + quote(line))
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#time", "2")
    page.click("#analyse")
    page.wait_for_selector("#moves tbody tr")
    doc = page.evaluate("lastDoc")
    assert doc["objective"] == "match" and doc["chance_stderr"] > 0
    assert page.is_visible("#moves th.chance-se")
    rows = page.query_selector_all("#moves tbody tr")
    assert [r.query_selector(".chance-se").inner_text() for r in rows] == \
        [percent(m["chance_stderr"]) for m in doc["moves"]]
    assert all(r.query_selector(".chance-se").inner_text().endswith("%") for r in rows)


def _open_shipped_game(page, server, name: str) -> None:
    """The game viewer on shipped game ``name``, annotated in the full view
    without the luck."""
    page.goto(server + "/game")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#shipped", name)
    page.select_option("#view", "full")
    page.fill("#luck", "0")
    page.click("#open")
    page.wait_for_selector("body[data-annotated='1']", timeout=120_000)


def test_game_viewer_steps_with_the_marks(server, page, shots):
    want = _cli("annotate", "--view", "full", "--luck-samples", "0", "--json", "-q",
                "positions/games/engine-v-greedy.txt")["games"][0]["plays"]
    _open_shipped_game(page, server, "engine-v-greedy.txt")
    page.click("#board")
    marks = []
    for i in range(len(want)):
        marks.append(page.inner_text("#play-mark"))
        assert page.inner_text("#play-text") == f"{want[i]['seat']} plays {want[i]['card']}"
        page.keyboard.press("ArrowRight")
    assert marks == [p["mark"] for p in want]
    assert any(marks)
    # the move list: a heading per hand, a line per deal holding its plays
    hands = [int(e.get_attribute("data-hand")) for e in page.query_selector_all("#plays .hand-break")]
    assert hands == sorted({p["hand"] for p in want})
    deals = [(int(e.get_attribute("data-hand")), int(e.get_attribute("data-deal")),
              len(e.query_selector_all("span.play")))
             for e in page.query_selector_all("#plays .deal")]
    by_deal: dict = {}
    for p in want:
        by_deal[(p["hand"], p["deal"])] = by_deal.get((p["hand"], p["deal"]), 0) + 1
    assert deals == [(h, d, n) for (h, d), n in by_deal.items()]
    page.keyboard.press("Home")
    blunder = next(i for i, p in enumerate(want) if p["mark"] == "??")
    for _ in range(blunder):
        page.keyboard.press("ArrowRight")
    assert f"best {want[blunder]['best']}" in page.inner_text("#play-best")
    # each card of the mover's hand carries its value, the best in green
    shown = {c.get_attribute("data-card").rstrip("oceb"): c.query_selector(".badge")
             for c in page.query_selector_all("#board .seat.mover span.card")}
    values = {m["move"].rstrip("oceb"): m["value"] for m in want[blunder]["moves"]}
    assert {r: b.inner_text() for r, b in shown.items()} == {
        r: (f"+{v}" if v > 0 else str(v)) for r, v in values.items()}
    assert {r for r, b in shown.items() if "best" in b.get_attribute("class")} == {
        r for r, v in values.items() if v == want[blunder]["best_value"]}
    assert len(page.query_selector_all("#graph circle")) == sum(
        1 for p in want if p["value"] is not None)
    assert page.get_attribute("#download", "href").startswith("blob:")
    page.screenshot(path=str(shots / "web-game.png"), full_page=True)


def test_puzzle_solved_right_and_wrong(server, page, shots):
    page.goto(server + "/puzzles?set=hit.txt")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#board .seat.mover .card")
    # puzzle 1 of hit.txt: bm 4 (10 is 2 worse)
    page.click("#hint")
    assert page.inner_text("#hints") == "themes: hit, missa"
    page.click("#board .seat.mover .card[data-card='4']")
    page.wait_for_selector("#verdict.right")
    assert page.inner_text("#verdict") == "right: 4 (with a hint)"
    assert page.inner_text("#line") == "line: 4 2 10 7"
    page.screenshot(path=str(shots / "web-puzzles.png"), full_page=True)
    page.click("#next")
    # puzzle 2: bm 6; play 10 instead
    page.click("#board .seat.mover .card[data-card='10']")
    page.wait_for_selector("#verdict.wrong")
    assert page.inner_text("#verdict") == "not 10: the answer is 6"
    assert page.inner_text("#score") == "1 of 2"
    values = {r.query_selector("td").inner_text(): r.query_selector_all("td")[1].inner_text()
              for r in page.query_selector_all("#values tbody tr")}
    assert values["6"] == "+4" and not {"+0", "-0"} & set(values.values())


def _set_up(page, server, players: str, rules: str, zones, extra: str) -> str:
    """Build a position on the board by clicking; returns its line."""
    page.goto(server + "/board")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#players", players)
    page.select_option("#rules", rules)
    for zone, cards in zones:
        page.click(f"#zones [data-zone='{zone}'] .label")
        for c in cards:
            page.click(f"#palette [data-card='{c}']")
    page.fill("#extra", extra)
    return page.input_value("#line")


def test_board_analyses_a_three_player_position(server, page, shots):
    """Three players set up by clicking: the mover's values and a column
    per seat, as the command line gives them (max^n vectors)."""
    line = _set_up(page, server, "3", "french",
                   (("table", ["5o", "6o"]), ("S", ["5c", "7o"]), ("E", ["3o", "3c"]),
                    ("N", ["1o", "2o"])), "taken=12,10,10 last=E")
    assert line == "5o.6o 5c.7o/3o.3c/1o.2o - S rules=french taken=12,10,10 last=E"
    page.click("#analyse")
    page.wait_for_selector("#moves tbody tr")
    want = _cli("--json", "-", stdin=line)["positions"][0]
    assert want["method"] == "exact" and len(want["values"]) == 3
    heads = [h.inner_text() for h in page.query_selector_all("#moves thead th:not([hidden])")]
    assert heads[:5] == ["play", "value", "S", "E", "N"]
    rows = {r.get_attribute("data-move"): [c.inner_text() for c in
                                           r.query_selector_all(".seat-value")]
            for r in page.query_selector_all("#moves tbody tr")}
    # each seat's own points unsigned, the mover's value signed: the
    # command line's table (its seat columns and value column)
    assert rows == {m["move"]: [_entry(v, False) for v in m["values"]] for m in want["moves"]}
    assert {r.get_attribute("data-move"): r.query_selector(".value").inner_text()
            for r in page.query_selector_all("#moves tbody tr")} == \
        {m["move"]: _points(m["value"], "exact") for m in want["moves"]}
    best = [r.get_attribute("data-move") for r in page.query_selector_all("#moves tr.best")]
    assert sorted(best) == sorted(want["best"])
    page.screenshot(path=str(shots / "web-board-3p.png"), full_page=True)


def test_board_analyses_a_voleur_position(server, page, shots):
    """Ronda voleur set up by clicking: N's top 5 lies face up by its pile,
    and S's 5 steals it (docs/rules.md V2: 23 points, worked by hand)."""
    line = _set_up(page, server, "2", "french",
                   (("table", ["6o", "7o"]), ("S", ["5o"]), ("N", ["4o"])),
                   "voleur=yes taken=10,26 last=N tops=-,5")
    assert line == "6o.7o 5o/4o - S rules=french voleur=yes taken=10,26 last=N tops=-,5"
    page.click("#analyse")
    page.wait_for_selector("#moves tbody tr")
    want = _cli("--json", "-", stdin=line)["positions"][0]
    shown = {r.get_attribute("data-move"): r.query_selector(".value").inner_text()
             for r in page.query_selector_all("#moves tbody tr")}
    assert shown == {"5o": "+23"} == {m["move"]: f"+{m['value']}" for m in want["moves"]}
    effect = page.query_selector("#moves tbody tr .effect").inner_text()
    assert "steals 26" in effect
    # the board of the principal variation shows N's pile with its top
    assert page.query_selector("#pvboard .pile[data-side='N'] .card.top") is not None
    page.screenshot(path=str(shots / "web-board-voleur.png"), full_page=True)


def test_the_api_docs_render_without_internet(server, page):
    """/docs draws the API's operations with the Swagger UI served by the
    server itself: every request the page makes stays on 127.0.0.1."""
    asked: list[str] = []
    page.on("request", lambda req: asked.append(req.url))
    page.goto(server + "/docs")
    page.wait_for_selector(".opblock", timeout=30_000)
    assert page.locator(".opblock").count() >= 10
    assert asked and all(url.startswith(server) for url in asked), asked


def test_board_plays_over_a_deal_and_to_the_hands_end(server, page):
    """A known stock: the principal variation is stepped over the deal's
    end (the next deal dealt from the stock, the declarations scored) to
    the hand's last card, nothing left greyed; a click on N's play deals
    the next deal on the board and analyses it; and the hand's last card,
    clicked, shows the hand's end and its final score."""
    line = "3.6.10 -/5 1.1.4.2.2.7 N taken=15,15 last=S"
    page.goto(server + "/board?line=" + line.replace(" ", "+"))
    page.wait_for_selector("#moves tbody tr")
    want = _cli("--json", "-", stdin=line)["positions"][0]
    page.wait_for_function(f"document.querySelectorAll('#pv .ply').length === {len(want['pv'])}")
    assert page.query_selector_all("#pv .ply.rest") == []
    assert page.inner_text("#pvnote").startswith("the hand is over: the final score S ")
    for _ in want["pv"]:
        page.click("#pv-fwd")
    assert page.inner_text("#pvboard .facts") == page.inner_text("#pvnote")
    # N's 5 ends the deal: S leads the next one, N's Ronda of 2s scored
    page.click("#moves tr[data-move='5']")
    page.wait_for_function("document.querySelector('#line').value.startsWith('3.6.10.5 ')")
    assert page.input_value("#line") == ("3.6.10.5 1.1.4/2.2.7 - S score=0,1 taken=15,15 last=S "
                                         "declared=S:ronda1,N:ronda2")
    page.wait_for_selector("#moves tbody tr")
    # the hand's last card
    page.fill("#line", "1.12 7/12 - S taken=18,18 last=N")
    page.click("#load")
    page.wait_for_function("document.querySelector('#line').value.startsWith('1.12 7/12')")
    page.click("#analyse")
    page.wait_for_selector("#moves tr[data-move='7']")
    page.click("#moves tr[data-move='7']")
    page.wait_for_function("document.querySelector('#line').value.endsWith('prev=7')")
    page.wait_for_selector("#moves tr[data-move='12']")
    page.click("#moves tr[data-move='12']")
    page.wait_for_function("document.querySelector('#answer').textContent.includes('over')")
    # N takes the 12, sweeps the 1 and the 7: 22 cards, +2
    assert page.inner_text("#answer") == ("N:12 x12.12 · the hand is over: the final score "
                                          "S 0, N 2")
    assert page.query_selector_all("#moves tbody tr") == []


def _analyse_n_at_the_target(server, page):
    """The board on N to play a 5 that ends the deal with N at 41, the
    target (40-40, win_check immediate), analysed for points."""
    page.goto(server + "/board")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#objective", "points")
    page.fill("#line", "3.6.10.5 -/5 4.4.4.2.2.7 N prev=5 taken=14,15 last=S score=40,40")
    page.click("#load")
    page.wait_for_function("document.querySelector('#line').value.includes('score=40,40')")
    page.click("#analyse")


def test_board_pv_past_a_match_won_mid_hand_names_the_win(server, page):
    """The points objective's line goes on past a play that wins the match
    (win_check immediate): the board steps it to the win and its note is
    the win, not 'the line goes on: the hand is over'."""
    _analyse_n_at_the_target(server, page)
    page.wait_for_selector("#moves tbody tr")
    page.wait_for_function("document.querySelectorAll('#pv .ply').length > 0")
    page.wait_for_function("document.querySelector('#pvnote').textContent !== ''")
    assert page.inner_text("#pvnote") == ("N reaches the target 41 and wins the match: "
                                          "the score S 40, N 41")


def test_board_after_the_hands_end_shows_the_hand_over(server, page):
    """Played to the hand's end, the editor still marked ``S ←`` and
    ``to play S``, and *analyse* sent the end's line, refused with ``hands:
    S is to play but holds no card``. Now nobody is to play, the hand is
    over with its final score and who leads, analyse is disabled; read
    back, the end's line says the hand is over; a card placed makes a
    position again."""
    page.goto(server + "/board")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#line", "1.12 7/12 - S taken=18,18 last=N")
    page.click("#load")
    page.wait_for_function("document.querySelector('#line').value.startsWith('1.12 7/12')")
    assert page.inner_text("#zones [data-zone='S'] .label") == "S ←"
    page.click("#analyse")
    page.wait_for_selector("#moves tr[data-move='7']")
    page.click("#moves tr[data-move='7']")
    page.wait_for_function("document.querySelector('#line').value.endsWith('prev=7')")
    page.wait_for_selector("#moves tr[data-move='12']")
    page.click("#moves tr[data-move='12']")
    page.wait_for_selector("#over:not([hidden])")
    assert page.inner_text("#over") == ("The hand is over: final score S 0, N 2 · N ahead by 2. "
                                        "Nothing is left to analyse: edit the cards or read "
                                        "another line.")
    labels = [x.inner_text() for x in page.query_selector_all("#zones .label")]
    assert labels == ["table", "S", "N", "stock"]            # no mover marked
    assert page.eval_on_selector("#turn", "s => [s.disabled, s.value, s.options[0].text]") == [
        True, "", "nobody: the hand is over"]
    assert page.is_disabled("#analyse")
    assert page.is_hidden("#error")
    # the end's line, read back, says the hand is over (not "S is to play")
    page.click("#load")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == ("hands: the hand is over: no card is left to play "
                                         "(the final score S 0, N 2)")
    # a card placed on the table: a position again, analysable
    page.click("#zones [data-zone='table']")
    page.click("#palette .card[data-card='5o']")
    assert page.is_hidden("#over") and page.is_enabled("#analyse")
    assert page.input_value("#turn") == "S"


def test_board_after_a_match_won_mid_hand_shows_the_match_over(server, page):
    """N's 5 ends the deal with N at the target (win_check immediate): the
    board shows the match over, N the winner, and no mover."""
    _analyse_n_at_the_target(server, page)
    page.wait_for_selector("#moves tr[data-move='5']")
    page.click("#moves tr[data-move='5']")
    page.wait_for_selector("#over:not([hidden])")
    assert page.inner_text("#over") == ("The match is over: score S 40, N 41 · N wins the match "
                                        "(target 41). Nothing is left to analyse: edit the cards "
                                        "or read another line.")
    assert "←" not in page.inner_text("#zones")
    assert page.is_disabled("#analyse")


def test_board_plays_a_hidden_hand_by_asking_its_card(server, page, shots):
    """A player's view on the board stopped at the other side's play:
    S's play made, N to play with a hidden hand, analyse refused and no
    way on (``play: N holds no 12``). The board now asks which card N
    plays, from the ranks N may hold, makes it,
    and analyses S's next play."""
    page.goto(server + "/board")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#time", "2")
    page.fill("#line", "2.5.11 1.6.6/?.?.? ? S taken=10,9 last=S "
                       "gone=1.1.2.2.3.3.3.4.4.4.7.7.7.10.10.11.12.12.5")
    page.click("#load")
    page.wait_for_function("document.querySelector('#line').value.includes('gone=')")
    assert page.is_hidden("#hidden-play")
    page.click("#analyse")
    page.wait_for_selector("#moves tr[data-move='1']")
    page.click("#moves tr[data-move='1']")
    page.wait_for_selector("#hidden-play:not([hidden])")
    assert page.inner_text("#hidden-play span") == "N's hand is hidden: which card does N play?"
    ranks = page.eval_on_selector_all("#hidden-play button", "bs => bs.map(b => b.dataset.rank)")
    # a card of every rank is unseen here (the API test has a rank seen out)
    assert ranks == ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"]
    assert page.inner_text("#moves tbody") == ""
    page.screenshot(path=str(shots / "board-hidden-hand.png"), full_page=True)
    page.click("#hidden-play button[data-rank='12']")
    page.wait_for_function("document.querySelector('#line').value.includes('prev=12')")
    assert page.is_hidden("#hidden-play")
    assert page.input_value("#line").startswith("2.5.11.1.12 6.6/?.? ? S")
    page.wait_for_selector("#moves tr[data-move='6']")


def test_puzzle_played_for_the_match_is_explained_by_the_match(server, page, tmp_path):
    """positions/match.txt's match 1 uploaded, 6e clicked: the verdict,
    the explanation, the line and the table are the match's (6 wins it:
    S lays 6, N must lay a 2, S's 2 hits it), the points this hand said
    as points; they were the points objective's ("Play 2: ...", line 2 2
    6 2, 2o loss 0). A line with hidden cards is judged by its bm with
    a warning, where every answer was an error."""
    page.goto(server + "/puzzles")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#upload", str(ROOT / "positions" / "match.txt"))
    page.wait_for_selector("#board .seat.mover .card[data-card='6e']")
    page.click("#board .seat.mover .card[data-card='6e']")
    page.wait_for_selector("#verdict.right")
    assert page.inner_text("#verdict") == ("playing for the match: S 40, N 39, target 41: "
                                           "right: 6 (100% to win the match)")
    assert page.inner_text("#explanation").startswith(
        "Playing for the match: S 40, N 39, target 41. Play 6: 100% to win the match: it lays 6")
    assert page.inner_text("#line") == "line for the match: 6 2 2"
    head = [th.inner_text() for th in page.query_selector_all("#values thead th")]
    assert head == ["play", "to win the match", "loss (chance)"]
    rows = [[td.inner_text() for td in r.query_selector_all("td")]
            for r in page.query_selector_all("#values tbody tr")]
    assert rows == [["6e", "100% (points this hand -5)", ""],
                    ["2o", "0% (points this hand -2)", "100%"]]
    hidden = tmp_path / "hidden.txt"
    hidden.write_text("1.5.11 5.7/?.?/?.? ? S rules=french taken=8,7,7 last=E "
                      "gone=1.1.2.2.2.3.3.4.4.5.6.6.7.7.7.10.10.11.11.12.12.2 ; bm 5\n")
    page.set_input_files("#upload", str(hidden))
    page.wait_for_selector("#board .seat.mover .card[data-card='5']")
    page.click("#board .seat.mover .card[data-card='5']")
    page.wait_for_selector("#verdict.right")
    assert page.inner_text("#verdict") == "right: 5"
    assert page.inner_text("#explanation") == (
        "warning: a puzzle needs every card known (exact method): the answer is the line's bm "
        "(5), not checked by the engine.")


def test_no_page_logs_a_console_error_on_load(server, browser):
    """Every page loads without a console error or a failed request: the
    browser's /favicon.ico was a 404 on each (``Failed to load resource``)."""
    for path in ("/", "/board", "/game", "/puzzles", "/play", "/mine", "/docs"):
        pg = browser.new_page(viewport={"width": 1280, "height": 900})
        errors, failed = [], []
        pg.on("console", lambda m: m.type == "error" and errors.append(m.text))
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("response", lambda r: r.status >= 400 and failed.append((r.status, r.url)))
        try:
            pg.goto(server + path, wait_until="networkidle")
            pg.wait_for_timeout(300)
            assert (path, errors, failed) == (path, [], [])
            if path != "/docs":
                icon = pg.get_attribute("link[rel='icon']", "href")
                assert icon == "/static/favicon.svg"
                assert pg.request.get(server + icon).status == 200
        finally:
            pg.close()


def _answer_shown(page) -> dict:
    """What the board shows of an analysis: its plays, the answer line,
    the summary, the principal variation and its board, the hand's badges."""
    return {"rows": len(page.query_selector_all("#moves tbody tr")),
            "answer": page.inner_text("#answer"), "summary": page.inner_text("#summary"),
            "pv": len(page.query_selector_all("#pv .ply")),
            "pvboard": len(page.query_selector_all("#pvboard *")),
            "badges": len(page.query_selector_all("#zones .badge"))}


NOTHING = {"rows": 0, "answer": "", "summary": "", "pv": 0, "pvboard": 0, "badges": 0}


def test_board_clears_the_old_answer_when_the_position_changes_or_fails(server, page):
    """After an analysis, *clear*, a card added, or an analysis that fails
    left the old plays, ``best ... value ...``, the principal variation and
    its board on screen: each clears them."""
    line = "1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N"

    def analysed():
        page.fill("#line", line)
        page.click("#load")
        page.wait_for_function("document.querySelector('#line').value.endsWith('last=N prev=7')")
        page.select_option("#method", "auto")
        page.click("#analyse")
        page.wait_for_function("document.querySelectorAll('#pv .ply').length === 5")
        shown = _answer_shown(page)
        assert shown["rows"] == 2 and shown["answer"] == "best 7 · value +4 points"
        assert shown["pvboard"] > 0 and shown["badges"] == 3

    page.goto(server + "/board")
    page.wait_for_selector("body[data-ready='1']")
    analysed()
    page.click("#clear")
    assert _answer_shown(page) == NOTHING
    # a card added to the table: another position
    analysed()
    page.click("#zones [data-zone='table'] .label")
    page.click("#palette [data-card='3o']")
    assert _answer_shown(page) == NOTHING
    # the line typed over: another position
    analysed()
    page.fill("#line", line + " score=1,0")
    assert _answer_shown(page) == NOTHING
    # an analysis that fails (the equilibrium takes no position with every
    # card known): the error, and nothing of the last answer
    analysed()
    page.select_option("#method", "equilibrium")
    page.click("#analyse")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error").startswith("line 1, position: the equilibrium needs")
    assert _answer_shown(page) == NOTHING


def test_an_analysis_asked_while_the_line_is_read_answers_the_line_read(server, page):
    """*load* then *analyse* before the line's reading comes back: the
    reading's position, shown after the analysis began, counted as a new
    position and the answer was dropped (nothing shown, on a loaded
    machine). The analysis now waits for the reading, and answers."""
    page.goto(server + "/board")
    page.wait_for_selector("body[data-ready='1']")
    # the reading's answer 2 s late (as on a loaded machine)
    page.evaluate("""() => { const f = window.fetch; window.fetch = (u, o) =>
        String(u).includes('/api/position') ?
        new Promise(r => setTimeout(r, 2000)).then(() => f(u, o)) : f(u, o); }""")
    page.fill("#line", "1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N")
    page.select_option("#method", "auto")
    page.click("#load")
    page.click("#analyse")
    page.wait_for_function("document.querySelectorAll('#pv .ply').length === 5")
    shown = _answer_shown(page)
    assert shown["rows"] == 2 and shown["answer"] == "best 7 · value +4 points"


def test_game_viewer_plots_three_players_each_seats_own_points(server, page):
    """Three players (EvalView mover: each value is the mover's own
    points): the graph turned every seat but S's value over (E's +9 drawn
    as -9). Each seat's value is plotted as it is, a line per seat, and the
    title says so."""
    want = _cli("annotate", "--view", "full", "--luck-samples", "0", "--json", "-q",
                "positions/games/french-3p.txt")["games"][0]["plays"]
    valued = {i: p for i, p in enumerate(want) if p["value"] is not None}
    assert any(p["seat"] == "E" and p["value"] > 0 for p in valued.values())
    _open_shipped_game(page, server, "french-3p.txt")
    circles = page.query_selector_all("#graph circle")
    assert {int(c.get_attribute("data-i")): c.query_selector("title").text_content()
            for c in circles} == {i: f"{p['seat']}:{p['card']} {signed(p['value'])} {p['mark']}"
                                  for i, p in valued.items()}
    # drawn above the middle line for a positive value, whatever the seat
    for c in circles:
        p = valued[int(c.get_attribute("data-i"))]
        assert c.get_attribute("data-seat") == p["seat"]
        assert (float(c.get_attribute("cy")) < 80) == (p["value"] > 0)
    lines = {e.get_attribute("data-seat"): len(e.get_attribute("points").split())
             for e in page.query_selector_all("#graph polyline")}
    assert lines == {s: sum(1 for p in valued.values() if p["seat"] == s) for s in "SEN"}
    assert page.inner_text("#graph-title") == (
        "(the value of each play made for its mover: each seat's own points, a line per seat)")
