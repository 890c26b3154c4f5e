"""Self-play hands for match-equity tables on a Dask cluster, kept in the
analysis store: a worker killed mid-run loses no hand and counts none
twice, a run started again plays only the missing chunks, and the hands
read back are exactly those of a single process with the same seed."""

from __future__ import annotations

import json
import os
import signal

import pytest

from solver.batch.run import connect
from solver.batch.store import Store
from solver.match_equity.hands import (HandSet, MatchSet, MissingHands, play_sets,
                                       read_matches, read_traces)
from solver.match_equity.selfplay import play_traces
from solver.rules import PRESETS


def _plain(traces):
    return [[tuple(a) for a in t] for t in traces]


def test_a_worker_killed_mid_run_loses_and_duplicates_no_hand(tmp_path):
    hs = HandSet("lmodire", 2, "greedy", "kill", 3000, 75)     # 40 chunks
    store = Store(tmp_path / "h.db")
    client, cluster = connect(None, 2, dashboard=False)
    killed = []

    def progress(summary, total):
        if summary.done == 8 and not killed:
            victim = sorted(client.run(os.getpid).values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    try:
        summary = play_sets([hs], store, client, progress=progress)
    finally:
        client.close()
        cluster.close()
    assert killed, "the run ended before a worker could be killed"
    assert summary.done == 40 and not summary.failed and not summary.interrupted
    rows = list(store.db.execute("SELECT number FROM games WHERE source=?", (hs.source,)))
    assert sorted(n for (n,) in rows) == list(range(1, 41))      # each chunk exactly once
    got = read_traces(store, hs)
    assert got.traces == _plain(play_traces(PRESETS["lmodire"], 2, 3000, "kill"))
    assert got.cpu > 0 and got.rate() > 0
    assert store.check() == "ok"
    store.close()


def test_a_run_started_again_plays_only_the_missing_chunks(tmp_path):
    store = Store(tmp_path / "r.db")
    client, cluster = connect(None, 1, dashboard=False)
    try:
        half = HandSet("pagat", 4, "greedy", "r", 250, 50)
        s1 = play_sets([half], store, client)
        assert (s1.done, s1.skipped) == (5, 0)
        # twice the hands: the first five chunks are reused
        whole = HandSet("pagat", 4, "greedy", "r", 520, 50)
        with pytest.raises(MissingHands, match="6 of 11 chunks"):
            read_traces(store, whole)
        s2 = play_sets([whole], store, client)
        assert (s2.done, s2.skipped) == (6, 5)
        # and a last chunk of 20 hands grown to 50 is played again whole
        s3 = play_sets([HandSet("pagat", 4, "greedy", "r", 550, 50)], store, client)
        assert (s3.done, s3.skipped) == (1, 10)
        ms = MatchSet("lmodire", 2, "greedy", "m", 41, (38, 30), 1, 30, 10)
        s4 = play_sets([ms], store, client)
        assert s4.done == 3
    finally:
        client.close()
        cluster.close()
    got = read_traces(store, HandSet("pagat", 4, "greedy", "r", 550, 50))
    assert got.traces == _plain(play_traces(PRESETS["pagat"], 4, 550, "r"))
    m = read_matches(store, ms)
    assert len(m.winners) == 30 and set(m.winners) <= {0, 1} and m.hands >= 30
    store.close()


def test_batch_selfplay_command(tmp_path):
    from click.testing import CliRunner
    from solver.cli.main import main
    db = str(tmp_path / "c.db")
    args = ["batch", "selfplay", "--rules", "french", "--players", "3", "--hands", "120",
            "--chunk", "40", "--seed", "c", "--db", db, "--workers", "1", "-q", "--json"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["chunks_done"] == 3 and doc["complete"] and doc["hands_per_second_per_core"] > 0
    r = CliRunner().invoke(main, args)
    doc = json.loads(r.output)
    assert doc["chunks_done"] == 0 and doc["chunks_stored_before"] == 3
    r = CliRunner().invoke(main, ["batch", "selfplay", "--rules", "lmodire", "--players", "4",
                                  "--db", db])
    assert r.exit_code == 2 and r.output.strip() == \
        "error: rules: lmodire is for 2 players, not 4 (presets for 4 players: pagat, french, online)"
    r = CliRunner().invoke(main, ["batch", "selfplay", "--set", "hit", "--db", db])
    assert r.exit_code == 2 and r.output.strip() == "error: --set: 'hit' is not NAME=VALUE"
