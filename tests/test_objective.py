"""One objective story (README "Playing for the match", docs/match.md):
points unless the line writes a score and the target can be reached in
this hand; a score past the target, a target without a table, a position
the match cannot take: points with one line saying why, or (asked for by
name) one error line saying what to do. The command line, the web API and
the board (tests/test_web_browser.py) give the same answer."""

from __future__ import annotations

import copy
import json
import random
import time

import pytest
from click.testing import CliRunner

from solver.cli.main import main
from solver.games.match import HandState, deal_hand
from solver.match_equity.evaluate import ObjectiveError, objective_choice
from solver.match_equity.objective import analyse
from solver.match_equity.selfplay import greedy_rank
from solver.match_equity.table import load
from solver.notation import format_position, parse_position
from solver.rules import PRESETS

README_LINE = "1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N"
AT_38_40 = README_LINE + " score=38,40"


def run(*args, stdin=None):
    return CliRunner().invoke(main, list(args), input=stdin)


def late_positions(n: int, deal: int, seed0: int = 0) -> list:
    """Known-stock positions from greedy self-play at the start of deal
    ``deal`` of a lmodire hand (every card known), the score left out."""
    rules = PRESETS["lmodire"]
    out = []
    seed = seed0
    while len(out) < n:
        rng = random.Random(seed)
        table, stock = deal_hand(rules, 2, rng)
        hs = HandState(rules, 2, seed % 2, table, score=[0, 0], stock=stock)
        seed += 1
        while not hs.finished:
            if hs.awaiting_deal:
                hs.deal()
                if hs.deal_no == deal:
                    pos = copy.deepcopy(hs.full_position())
                    pos.score = None
                    out.append(parse_position(format_position(pos)))
                    break
                continue
            r = greedy_rank(hs, rng)
            hs.play(next(c for c in hs.hands[hs.turn] if c.index == r))
    return out


def _answer(a) -> tuple:
    return (a.objective, a.value, a.best, a.pv, [(m.move, m.value) for m in a.moves])


def test_no_score_written_is_points_with_the_default_options():
    """Late in a hand with every card known (where the old default played a
    0-0 match to 41 and lost ``value``): the default answer is the points
    answer, value for value."""
    positions = late_positions(6, 5) + late_positions(6, 6, seed0=100)
    for pos in positions:
        assert pos.score is None
        auto, points = analyse(pos), analyse(pos, "points")
        assert _answer(auto) == _answer(points), format_position(pos)
        assert auto.objective == "points" and auto.objective_note == ""
        assert auto.chance is None
    text = "\n".join(format_position(p) for p in positions[:4]) + "\n"
    default = json.loads(run("--json", "-", stdin=text).output)["positions"]
    named = json.loads(run("--json", "--objective", "points", "-", stdin=text).output)["positions"]
    keep = ("objective", "value", "best", "pv", "moves", "summary")
    assert [{k: d[k] for k in keep} for d in default] == [{k: d[k] for k in keep} for d in named]
    assert all(isinstance(d["value"], int) for d in default)     # exact: whole points
    assert all("chance" not in d for d in default)


def test_at_38_40_the_match_says_lay_the_2_not_the_7_hit():
    """By hand: the 7 hits N's 7 (+1: 39) and N's 7 answers for 5 (45):
    N wins at once, 0. The 2 is laid; N's 7 takes the 7 on the table, S
    lays a 7, N lays the 12, S's last 7 takes the 7 and, last to capture,
    sweeps 1 2 12: 20 cards each, no card point, 38-40 with N (the leader)
    dealing next: the table's value there. Points alone prefer the hit
    (+4 against 0)."""
    r = run("--json", "-", stdin=AT_38_40)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)["positions"][0]
    table = load("lmodire", 2)
    assert doc["objective"] == "match" and doc["match_method"] == "exact"
    assert doc["best"] == ["2"]
    want = round(table.equity_of(38, 40, False), 6)     # the table's value at 38-40
    assert 0 < want < 0.5 and doc["chance"] == want
    assert [(m["move"], m["chance"], m["value"], m["loss"], m["chance_loss"])
            for m in doc["moves"]] == [("2", want, 0, 4, 0), ("7", 0, 4, 0, want)]
    assert doc["value"] == 4            # the points value of the position
    assert [f"{p['seat']}:{p['move']}" for p in doc["pv"]] == ["S:2", "N:7", "S:7", "N:12", "S:7"]
    assert doc["objective_note"] == ("playing for the match: score 38-40, the target 41 can "
                                     "be reached this hand")
    assert doc["summary"] == "exact chance of winning the match (every card known)"
    screen = run("-", stdin=AT_38_40).output
    assert "playing for the match: score 38-40" in screen
    assert "by points alone: 7 (+4 points against 0)" in screen
    assert f"{100 * want:.1f}% to win the match for S's side" in screen
    # the points objective asked for by name: the hit, +4
    p = json.loads(run("--json", "--objective", "points", "-", stdin=AT_38_40).output)
    assert p["positions"][0]["best"] == ["7"] and p["positions"][0]["value"] == 4


def test_a_score_at_or_over_the_target_is_points_with_a_note():
    for objective in ("auto", "match"):
        r = run("--json", "--objective", objective, "-", stdin=README_LINE + " score=41,38")
        assert r.exit_code == 0, r.output
        doc = json.loads(r.output)["positions"][0]
        assert doc["objective"] == "points" and doc["best"] == ["7"] and doc["value"] == 4
        assert doc["objective_note"] == ("points: the score 41-38 is at or over the target "
                                         "41, the match is over")
    # equal totals over the target play on: the match goes on
    tie = parse_position(README_LINE + " score=41,41")
    assert objective_choice(tie, "auto").objective == "match"


def test_any_target_within_the_table_plays_for_the_match():
    # one table serves every target up to its limit: 18-19 to 21 is the
    # match, as 38-39 to 41 would be
    line = README_LINE + " score=18,19 target=21"
    r = run("--json", "-", stdin=line)
    doc = json.loads(r.output)["positions"][0]
    assert r.exit_code == 0 and doc["objective"] == "match", doc
    assert doc["objective_note"] == ("playing for the match: score 18-19, the target 21 can "
                                     "be reached this hand")
    assert doc["table"]["target"] == 21 and doc["table"]["rules"] == "lmodire"


def test_a_rule_system_without_a_table_says_so_and_what_to_do():
    line = README_LINE + " score=38,39 hit=1,5"
    r = run("--json", "-", stdin=line)
    doc = json.loads(r.output)["positions"][0]
    assert r.exit_code == 0 and doc["objective"] == "points"
    assert doc["objective_note"] == (
        "points: no match-equity table for lmodire+hit=1,5 with 2 players (build it: python -m "
        "solver.match_equity.build --rules lmodire --set hit=1,5 --players 2 --player greedy "
        "--hands 100000 --limit 61)")
    screen = " ".join(run("-", stdin=line).output.split())
    assert doc["objective_note"] in screen
    r = run("--objective", "match", "-", stdin=line)
    assert r.exit_code == 1
    errors = [x for x in r.output.splitlines() if "position:" in x]
    assert len(errors) == 1 and errors[0].endswith("--limit 61): use --objective points")


def test_what_the_match_cannot_take_is_named():
    cases = {
        # no taken=: the piles decide the card count, so the match needs them
        "1.7 7.7.2/7.12 - S prev=7 score=38,40":
            "the match objective needs taken= with every captured card",
        "2.3 5.7/4.6/2.12 - S rules=french taken=10,11,11 last=E score=40,30,20":
            "the match objective takes two sides",
    }
    for line, why in cases.items():
        pos = parse_position(line)
        choice = objective_choice(pos, "auto")
        assert choice.objective == "points" and why in choice.note, choice
        with pytest.raises(ObjectiveError, match="use --objective points"):
            objective_choice(pos, "match")
    with pytest.raises(ObjectiveError, match="has no equilibrium method"):
        objective_choice(parse_position(AT_38_40), "match", "equilibrium")


def test_unreachable_and_too_big_say_why():
    pos = parse_position("5.6 5.7/3.3 - S score=2,3 taken=20,14 last=S")
    assert objective_choice(pos, "auto").note == ("points: the target 41 cannot be reached "
                                                  "this hand (score 2-3)")
    # a method the match has not: the reach is the reason when the match is
    # out of reach (it said "no equilibrium method" of a match never in play)
    assert objective_choice(pos, "auto", "equilibrium").note == (
        "points: the target 41 cannot be reached this hand (score 2-3)")
    assert objective_choice(parse_position(AT_38_40), "auto", "equilibrium").note.startswith(
        "points: the match objective has no equilibrium method")
    early = late_positions(1, 1)[0]
    early.score = (39, 30)
    choice = objective_choice(early, "auto")
    assert choice.objective == "points"
    assert choice.note == ("points: 36 cards are left to play, the match search takes 24 "
                           "with every card known (--objective match tries)")
    assert objective_choice(early, "match").objective == "match"


def test_the_match_search_runs_first_with_its_share_and_the_points_fall_back(monkeypatch):
    """Under the match objective one --time serves both searches: the
    match search (the answer) first with MATCH_SHARE of it, the points
    search (a column) with the rest; a method named for points that cannot
    finish there leaves the points to auto's answer, never the match."""
    from solver.analysis import evaluation
    from solver.match_equity import objective as obj
    from solver.match_equity.evaluate import MATCH_SHARE
    calls = []
    real_match, real_points = obj.evaluate_match, obj.evaluate

    def match(pos, **kw):
        calls.append(("match", kw["time_budget"]))
        return real_match(pos, **kw)

    def points(pos, method, time_budget, **kw):
        calls.append((method, time_budget))
        if method == "exact":
            time.sleep(0.3)         # the named method spends its time, then gives up
            raise evaluation.BudgetError("exact search did not finish in 0.1 s (9 nodes)")
        return real_points(pos, method=method, time_budget=time_budget, **kw)

    monkeypatch.setattr(obj, "evaluate_match", match)
    monkeypatch.setattr(obj, "evaluate", points)
    a = analyse(parse_position(AT_38_40), method="exact", time_budget=4.0)
    assert [c[0] for c in calls] == ["match", "exact", "auto"]
    assert calls[0][1] == pytest.approx(MATCH_SHARE * 4.0)
    assert 4.0 * (1 - MATCH_SHARE) <= calls[1][1] <= 4.0      # what the match search left
    assert calls[2][1] <= calls[1][1] - 0.25    # auto: what the named method left, no more
    assert a.objective == "match" and a.best == ["2"]
    assert a.note.startswith("match objective: exact search")
    assert "exact for points: exact search did not finish" in a.note


def test_a_cold_process_at_a_tenth_of_a_second_still_plays_for_the_match():
    """Loading the match search's kernels is start-up, not search: at
    --time 0.1 in a new process every line of positions/match.txt is
    answered for the match and agrees with its bm (before: the match
    search often lost its 0.05 s to loading them and the answer fell back
    to points, whose best play loses the match)."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", "from solver.cli.entry import run; run()",
                          "--time", "0.1", "--json", str(root / "positions" / "match.txt")],
                         capture_output=True, text=True, cwd=root, timeout=300)
    doc = json.loads(out.stdout)
    lines = doc["positions"]
    assert len(lines) == 6 and not doc["errors"]
    for p in lines:
        assert p["objective"] == "match", p["objective_note"]
        assert p["suite"] and all(t["agrees"] for t in p["suite"]), p["suite"]


def test_without_taken_the_note_asks_for_the_piles_not_the_reach():
    """Without taken= the cards over 20 in each pile are unknown, so the
    reach of the target cannot be judged: the note names taken= (with the
    piles written the same cards reach the target and play for it)."""
    a = analyse(parse_position("5 5/12 - S score=38,38"), time_budget=2.0)
    assert a.objective == "points"
    assert a.objective_note.startswith("points: the match objective needs taken=")
    b = analyse(parse_position("5 5/12 - S score=38,38 taken=31,6 last=S"), time_budget=2.0)
    assert b.objective == "match" and b.best == ["5"]


def test_a_deciding_chance_never_reads_as_zero():
    """At 0-40 S's only chance is tiny (6e-6 after the 2, 0 after the 7):
    the table and the answer line show it as "<0.1%", not "0.0%" twice
    with the 7 marked as losing "0.0%"; exact 0 stays 0.0%."""
    from solver.numbers import percent as _pct
    r = run("--time", "5", "-", stdin=README_LINE + " score=0,40\n")
    assert r.exit_code == 0, r.output
    rows = {line.split()[0]: line for line in r.output.splitlines() if line[:2] in ("2 ", "7 ")}
    assert "<0.1%" in rows["2"] and "0.0%" in rows["7"] and "<0.1%" in rows["7"]
    assert "best 2   <0.1% to win the match" in r.output
    assert [_pct(x) for x in (0.0, 6e-6, 0.0005, 0.5, 0.99949, 0.999984, 1.0)] == \
        ["0.0%", "<0.1%", "0.1%", "50.0%", "99.9%", ">99.9%", "100.0%"]
