"""Sampling progress for three players: the determinised search of three
sides reports what two sides report after each batch (the samples so far,
the play the answer would give now, its lead in paired standard errors on
the mover's entry), to the command line's progress bar and the web app's
job, and reporting it changes nothing in the answer."""

from __future__ import annotations

import io
import math
import time

import numpy as np
import pytest

from solver.analysis.evaluation import evaluate
from solver.cards import RANKS
from solver.notation import parse_position
from solver.search.pimc import summarise_array
from solver.search.vectors import mean_vectors, ranked, sample_result

# the last deal of a three-player hand, the other hands hidden, nine cards
# in a shuffled stock: each sample is solved in a few milliseconds
LINE = ("2.3 5.7.1/?.?.?/?.?.? ? S rules=french taken=6,6,8 last=E "
        "gone=1.1.2.2.3.3.4.4.4.5.5.6.6.6.10.10.10.11.11.12")
HAND = {"5", "7", "1"}


def _moves(a):
    return [(mv.move, mv.value, mv.stderr, mv.lead_z, mv.values) for mv in a.moves]


def test_three_players_report_sampling_progress():
    pos = parse_position(LINE)
    calls = []
    a = evaluate(pos, method="determinised", samples=200, seed=3, time_budget=120,
                 progress=calls.append)
    assert a.method == "determinised" and a.samples == 200 and a.stopped == "samples"
    counts = [r.samples for r in calls]
    # a call a batch of 32, the last for the 8 left
    assert counts == [32, 64, 96, 128, 160, 192, 200]
    for r in calls:
        best = r.moves[0]
        assert str(RANKS[best.move]) in HAND and best.lead_z is None
        assert len(r.moves) == 3 and all(m.lead_z is not None for m in r.moves[1:])
    # the last report is the answer: its play first, the others in its order
    last = calls[-1]
    assert [str(RANKS[m.move]) for m in last.moves] == [mv.move for mv in a.moves]
    assert str(RANKS[last.moves[0].move]) == a.best[0]
    assert [m.lead_z for m in last.moves[1:]] == pytest.approx(
        [mv.lead_z for mv in a.moves[1:]])
    # reporting progress changes nothing in the answer
    quiet = evaluate(pos, method="determinised", samples=200, seed=3, time_budget=120)
    assert _moves(quiet) == _moves(a) and quiet.best == a.best


def test_progress_leads_from_the_play_the_answer_picks():
    """The mover's means of plays 0 and 4 tie; max^n picks 4 (it leaves the
    others less), so the progress leads from 4: its lead over 0 is 0 and
    over 6 is measured from 4, not from 0 (the first of the tied means)."""
    rows = np.full((4, 10, 3), np.nan)
    rows[:, 0] = [[2, 1, 1], [0, 1, 1], [2, 1, 1], [0, 1, 1]]
    rows[:, 4] = [[1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]]
    rows[:, 6] = [[0, 2, 2], [1, 2, 2], [0, 2, 2], [0, 1, 1]]
    assert ranked(mean_vectors(rows), 0)[0] == 4
    assert summarise_array(rows[:, :, 0])[0].move == 0
    r = sample_result(rows, None, 0, nodes=7)
    assert [m.move for m in r.moves] == [4, 0, 6] and r.samples == 4 and r.nodes == 7
    assert r.moves[0].lead_z is None and r.moves[1].lead_z == 0.0
    diffs = rows[:, 4, 0] - rows[:, 6, 0]
    want = diffs.mean() / (diffs.std(ddof=1) / math.sqrt(4))
    assert r.moves[2].lead_z == pytest.approx(want)
    # the means, errors and best-counts are summarise_array's
    plain = {s.move: s for s in summarise_array(rows[:, :, 0])}
    for m in r.moves:
        assert (m.mean, m.stderr, m.best) == (plain[m.move].mean, plain[m.move].stderr,
                                              plain[m.move].best)
    # weighted: the effective sample size is reported
    w = np.array([1.0, 2.0, 1.0, 0.5])
    rw = sample_result(rows, w, 0)
    assert rw.ess == pytest.approx(w.sum() ** 2 / (w * w).sum())


def test_the_command_lines_progress_bar_counts_three_players_samples():
    from rich.console import Console

    from solver.cli.render import sampling_progress
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=100)
    with sampling_progress(console, 200) as update:
        assert update is not None
        a = evaluate(parse_position(LINE), method="determinised", samples=200, seed=3,
                     time_budget=120, progress=update)
    out = buf.getvalue()
    assert "200/200" in out and f"best so far: {a.best[0]}" in out and "s.e." in out


def test_a_three_player_jobs_progress():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from solver.web.app import Config, create_app
    app = create_app(Config(searches=1, queue=1, max_body=20_000, time=60))
    with TestClient(app) as client:
        body = {"line": LINE, "method": "determinised", "samples": 200, "seed": 3}
        job = client.post("/api/jobs/analyse", json=body).json()
        deadline = time.monotonic() + 120
        seen = []
        while (job := client.get(f"/api/jobs/{job['id']}").json())["state"] in ("queued",
                                                                                "running"):
            if job["progress"]:
                seen.append(job["progress"])
            assert time.monotonic() < deadline
            time.sleep(0.02)
    assert job["state"] == "done", job
    doc = job["result"]["positions"][0]
    progress = job["progress"]
    assert set(progress) == {"samples", "of", "best", "lead_z"}
    assert progress["samples"] == doc["samples"] == 200 and progress["of"] == 200
    assert progress["best"] == doc["best"][0] and progress["best"] in HAND
    assert isinstance(progress["lead_z"], (int, float))
    for p in seen:
        assert 0 < p["samples"] <= 200 and p["of"] == 200 and p["best"] in HAND
    assert [p["samples"] for p in seen] == sorted(p["samples"] for p in seen)

