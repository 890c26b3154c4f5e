"""The play page in a real browser (Debian's chromium through Playwright,
the fixtures of tests/test_web_browser.py): a whole two-player lmodire
game (to 21) and a four-player pagat hand played by clicking, the person taking
the engine's hint at every turn; the stored record replays with
``ronda-solve annotate`` to the score shown, and the review's marks are
``annotate --json``'s on that record; a server restarted in the middle of
a game resumes it from the store; another browser is refused the game;
the page at 1280 x 900 and at 390 x 844 (screenshots, no horizontal
scrolling). The engine plays at level 1 (greedy with noise: instant) so
that the games are quick; the hints are the engine's (``auto``, at most
the server's ``--time``, 0.2 s here)."""

import json
import subprocess
import sys

import pytest

from test_web_browser import (ROOT, browser, shots, start_server,  # noqa: F401
                              stop_server)

TIME = "0.2"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return str(tmp_path_factory.mktemp("play") / "store.db")


@pytest.fixture(scope="module")
def server(store):
    proc, url = start_server("--searches", "1", "--time", TIME, "--db", store)
    yield url
    stop_server(proc)


def _setup(page, server, *, preset, players, seats, seed, target=None):
    page.goto(server + "/play")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#preset", preset)
    page.select_option("#players", str(players))
    for seat, who in seats.items():
        page.select_option(f"#seats select[data-seat='{seat}']", who)
    if target is not None:
        page.fill("#target", str(target))
    page.fill("#seed", seed)
    page.click("#start")
    page.wait_for_selector("body[data-ready='1'][data-status]")
    return page.url.split("game=")[1]


def _turn(page) -> tuple[str, str]:
    """Wait until a person is to play or the hand or game is over."""
    page.wait_for_function("['play', 'hand-over', 'over'].includes(document.body.dataset.status)",
                           timeout=60_000)
    return page.evaluate("document.body.dataset.status"), page.evaluate("document.body.dataset.index")


def _take_the_hint(page) -> str:
    """Ask for the hint, check every card carries its value, click the
    hinted card; returns it."""
    index = page.evaluate("document.body.dataset.index")
    page.click("#hint")
    try:
        # this hint's answer (a hint asked before at the same play left its
        # card hinted, and the answer's render replaces the hand's cards)
        page.wait_for_function("document.getElementById('status').textContent"
                               ".startsWith('Hint:')", timeout=60_000)
        page.wait_for_selector("#hand span.card.hinted", timeout=60_000)
    except Exception:
        raise AssertionError(f"no hint shown: {page.inner_text('#status')!r} "
                             f"{page.inner_text('#error')!r} {page.inner_text('#hand')!r}")
    cards = page.query_selector_all("#hand span.card")
    assert all(c.query_selector(".badge") for c in cards)
    best = page.query_selector("#hand span.card.hinted")
    card = best.get_attribute("data-card")
    assert card in page.evaluate("document.body.dataset.hint").split()
    best.click()
    page.wait_for_function(f"document.body.dataset.index !== '{index}'", timeout=60_000)
    return card


def _annotate(path) -> subprocess.Popen:
    """``ronda-solve annotate --json`` of the record at ``path``, started in
    the background (it runs while the browser opens the review). Its
    defaults are the review's (player's view, 32 determinisations, seed 0);
    the luck of the deal is left out (``--luck-samples 0``): it is no part
    of a play's mark, and it is the slower half."""
    return subprocess.Popen([sys.executable, "-m", "solver.cli.main", "annotate", "--json",
                             "-q", "--luck-samples", "0", str(path)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)


def test_a_whole_two_player_game_by_clicking(server, browser, shots, tmp_path):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    # a match to 21, not the preset's 41: the same whole game in half the
    # hands (7 hands and 73 s of the suite's slowest test at 41)
    gid = _setup(page, server, preset="lmodire", players=2, seats={"S": "human", "N": "1"},
                 seed="browser-2p", target=21)
    hints = 0
    shot = False
    hands_seen = set()
    while True:
        status, _ = _turn(page)
        if status == "over":
            break
        if status == "hand-over":
            hands_seen.add(page.inner_text("#status"))
            page.click("#nexthand")
            page.wait_for_function("document.body.dataset.status !== 'hand-over'")
            continue
        # a person is to play: the view shows S's cards, N's backs
        assert page.query_selector_all("#others span.card.back") or \
            page.query_selector_all("#others span.card.declared") or \
            page.inner_text("#others").count("no cards")
        if not shot and hints == 4:
            page.wait_for_selector("#hand span.card")
            page.click("#hint")
            page.wait_for_selector("#hand span.card.hinted")
            page.click("#gone-toggle")
            page.screenshot(path=str(shots / "web-play.png"))
            page.set_viewport_size({"width": 390, "height": 844})
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.screenshot(path=str(shots / "web-play-phone.png"))
            page.set_viewport_size({"width": 1280, "height": 900})
            page.click("#gone-toggle")
            shot = True
        _take_the_hint(page)
        hints += 1
    assert len(hands_seen) >= 1
    final = page.inner_text("#status")
    score = {r.query_selector_all("td")[0].inner_text().split()[0]:
             int(r.query_selector_all("td")[1].inner_text())
             for r in page.query_selector_all("#score tr") if r.query_selector("td")}
    assert max(score.values()) >= 21 and ("You won" in final or "won the match" in final)
    assert page.inner_text("#where").endswith(f"Hints taken: {hints}.")
    # the stored record, as the page downloads it, replayed by annotate
    text = page.request.get(f"{server}/api/play/{gid}/record?download=1").text()
    path = tmp_path / "game.txt"
    path.write_text(text)
    cli = _annotate(path)
    page.click("#review")
    page.wait_for_selector("body[data-annotated='1']", timeout=300_000)
    want = json.loads(cli.communicate(timeout=600)[0])["games"][0]
    assert want["score"] == score
    assert want["tags"]["Seed"] == "browser-2p"
    page.click("#board")
    marks, hinted = [], 0
    for p in want["plays"]:
        marks.append(page.inner_text("#play-mark"))
        assert page.inner_text("#play-text") == f"{p['seat']} plays {p['card']}"
        hinted += "hint asked" in page.inner_text("#play-best")
        page.keyboard.press("ArrowRight")
    assert marks == [p["mark"] for p in want["plays"]]
    assert hinted == hints
    assert page.inner_text("#summary tr[data-seat='S'] td.hints") == str(hints)
    assert page.inner_text("#summary tr[data-seat='N'] td.hints") == "0"
    # the luck of the deal: opposite for the two players
    luck = [float(page.inner_text(f"#summary tr[data-seat='{x}'] td:last-child") or 0)
            for x in "SN"]
    assert abs(luck[0] + luck[1]) <= 0.11       # each to 1 decimal, as the CLI prints it
    # the viewer on a phone: no horizontal scrolling either
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    ctx.close()


def test_a_four_player_pagat_hand_by_clicking(server, browser, tmp_path):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    gid = _setup(page, server, preset="pagat", players=4,
                 seats={"S": "human", "E": "1", "N": "1", "W": "1"}, seed="browser-4p")
    assert page.inner_text("#others").count("(partner)") == 1
    hints = 0
    while (status := _turn(page)[0]) == "play":
        assert len(page.query_selector_all("#others .seat")) == 3
        _take_the_hint(page)
        hints += 1
    assert status in ("hand-over", "over") and hints == 9
    text = page.request.get(f"{server}/api/play/{gid}/record").text()
    path = tmp_path / "hand.txt"
    path.write_text(text)
    cli = _annotate(path)
    page.click("#review")
    page.wait_for_selector("body[data-annotated='1']", timeout=300_000)
    want = json.loads(cli.communicate(timeout=600)[0])["games"][0]
    assert len(want["plays"]) == 36
    page.click("#board")
    marks = []
    for p in want["plays"]:
        marks.append(page.inner_text("#play-mark"))
        assert page.inner_text("#play-text") == f"{p['seat']} plays {p['card']}"
        page.keyboard.press("ArrowRight")
    assert marks == [p["mark"] for p in want["plays"]]
    ctx.close()


def test_a_restarted_server_resumes_the_game(browser, tmp_path):  # noqa: F811
    db = str(tmp_path / "restart.db")
    proc, url = start_server("--searches", "1", "--time", TIME, "--db", db)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    try:
        gid = _setup(page, url, preset="lmodire", players=2, seats={"S": "human", "N": "2"},
                     seed="restart")
        for k in range(4):      # by the keys: 1 plays the first card, 2 the second
            _, index = _turn(page)
            want = page.get_attribute(f"#hand span.card[data-key='{k % 2 + 1}']", "data-card")
            page.keyboard.press(str(k % 2 + 1))
            page.wait_for_function(f"document.body.dataset.index !== '{index}'")
            assert want not in [c.get_attribute("data-card")
                                for c in page.query_selector_all("#hand span.card")]
        _turn(page)
        before = (page.evaluate("document.body.dataset.index"), page.inner_text("#hand"),
                  page.inner_text("#table"), page.inner_text("#score"))
    finally:
        stop_server(proc)
    proc, url2 = start_server("--searches", "1", "--time", TIME, "--db", db)
    try:
        page.goto(f"{url2}/play?game={gid}")
        page.wait_for_selector("body[data-ready='1'][data-status]")
        _turn(page)
        after = (page.evaluate("document.body.dataset.index"), page.inner_text("#hand"),
                 page.inner_text("#table"), page.inner_text("#score"))
        assert after == before
        index = after[0]
        page.click("#hand span.card")
        page.wait_for_function(f"document.body.dataset.index !== '{index}'")
        # my games lists it; another browser is refused it
        page.goto(f"{url2}/mine")
        page.wait_for_selector("body[data-ready='1']")
        assert page.query_selector(f"#games tr[data-game='{gid}']")
        other = browser.new_context().new_page()
        other.goto(f"{url2}/play?game={gid}")
        other.wait_for_selector("body[data-ready='1']")
        assert other.inner_text("#error") == (f"game {gid} belongs to another browser: only "
                                              "the browser that started it may see or play it")
        assert not other.query_selector("#hand span.card")
        other.goto(f"{url2}/mine")
        other.wait_for_selector("body[data-ready='1']")
        assert not other.query_selector("#games tbody tr")
    finally:
        ctx.close()
        stop_server(proc)
