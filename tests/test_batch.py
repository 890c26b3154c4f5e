"""Batch annotation on a Dask cluster with the SQLite analysis store
(issue 14): a worker killed mid-run loses no game and duplicates none, a
whole run killed mid-way is finished by --resume, and the results equal
the single-process annotate with the same seed."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver.games.annotate import annotate, annotation_json
from solver.batch.inputs import files_of, games_of
from solver.batch.run import connect, run_batch
from solver.batch.store import Store
from solver.games.record import parse_games

COLLECTION = Path("positions/games/collection-60.txt")
OPTIONS = {"view": "full", "samples": 32, "seed": 3, "method": "auto", "luck_samples": 0,
           "thresholds": ""}
GAMES = 50


def _comparable(doc: dict) -> dict:
    """An annotation document without its wall times."""
    doc = json.loads(json.dumps(doc))
    doc.pop("seconds", None)
    for play in doc["plays"]:
        play.pop("seconds", None)
    return doc


@pytest.fixture(scope="module")
def baseline() -> dict[int, dict]:
    """The single-process annotation of the first GAMES games, by number."""
    games = parse_games(COLLECTION.read_text())[:GAMES]
    return {n: _comparable(annotation_json(annotate(g, view="full", seed=3, luck_samples=0)))
            for n, g in enumerate(games, start=1)}


def _collection(tmp_path, count: int) -> Path:
    """The first ``count`` games of the shipped collection, as one file."""
    text = COLLECTION.read_text()
    starts = [i for i in range(len(text)) if text.startswith("[Event", i)]
    path = tmp_path / "games.txt"
    path.write_text(text[:starts[count]] if count < len(starts) else text)
    return path


def _stored(db: Path) -> list[tuple[str, int, dict]]:
    s = Store(db, readonly=True)
    rows = [(g["source"], g["number"], g["result"]) for g in s.games("annotate")]
    assert s.check() == "ok"
    s.close()
    return rows


def test_a_worker_killed_mid_run_loses_and_duplicates_no_game(tmp_path, baseline):
    games = _collection(tmp_path, GAMES)
    items = list(games_of(files_of((str(games),))))
    assert len(items) == GAMES
    store = Store(tmp_path / "a.db")
    client, cluster = connect(None, 2, dashboard=False)
    killed = []

    def progress(summary, total):
        if summary.done == 8 and not killed:
            pids = client.run(os.getpid)
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    try:
        summary = run_batch("annotate", items, OPTIONS, store, client, progress=progress)
    finally:
        client.close()
        cluster.close()
        store.close()
    assert killed, "the run ended before a worker could be killed"
    assert summary.done == GAMES and not summary.failed and not summary.interrupted
    rows = _stored(tmp_path / "a.db")
    assert sorted(n for _s, n, _r in rows) == list(range(1, GAMES + 1))   # each exactly once
    for _s, n, result in rows:
        assert _comparable(result) == baseline[n]
    # the same options again: every evaluation is a store hit, no search
    store = Store(tmp_path / "a.db")
    client, cluster = connect(None, 1, dashboard=False)
    try:
        again = run_batch("annotate", items[:5], OPTIONS, store, client)
    finally:
        client.close()
        cluster.close()
        store.close()
    assert again.done == 5 and again.searched == 0 and again.hits > 0


def test_a_killed_run_is_finished_by_resume(tmp_path, baseline):
    count = 20
    games = _collection(tmp_path, count)
    db = tmp_path / "r.db"
    cmd = [sys.executable, "-m", "solver.cli.main", "batch", "annotate", str(games), "--db", str(db),
           "--view", "full", "--seed", "3", "--luck-samples", "0", "--workers", "1", "-q"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline:
            if db.exists():
                try:
                    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
                        n = c.execute("SELECT COUNT(*) FROM games").fetchone()[0]
                except sqlite3.OperationalError:
                    n = 0
                if n >= 4:
                    break
            if proc.poll() is not None:
                break
            time.sleep(0.2)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)      # the coordinator, the cluster, its workers
        proc.wait()
    partial = _stored(db)
    assert 4 <= len(partial) < count, "the run was not killed mid-way"
    r = subprocess.run(cmd + ["--resume", "--json"], capture_output=True, text=True,
                       timeout=400)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["skipped"] == len(partial) and doc["done"] == count - len(partial)
    rows = _stored(db)
    assert sorted(n for _s, n, _r in rows) == list(range(1, count + 1))
    for _s, n, result in rows:
        assert _comparable(result) == baseline[n]
    # a third run has nothing left to do: it says so and starts no cluster
    r = subprocess.run(cmd[:-1] + ["--resume"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split(";")[0] == f"annotate: nothing left to do: {count} games already in the store, 0 failed"
    assert "local cluster" not in r.stderr


def test_nothing_to_do_starts_no_cluster(tmp_path, monkeypatch):
    """A batch whose games are all stored (or unreadable) answers from the
    store alone: no cluster is started."""
    from click.testing import CliRunner
    from solver.batch import run as batch_run
    from solver.cli.main import main

    def no_cluster(*a, **k):
        raise AssertionError("a cluster was started")
    monkeypatch.setattr(batch_run, "connect", no_cluster)
    bad = tmp_path / "bad.txt"
    bad.write_text("[Event \"x\"]\n[Position \"not a position\"]\n\n1. zz\n")
    r = CliRunner().invoke(main, ["batch", "annotate", str(bad), "--db", str(tmp_path / "s.db"),
                                  "--json"])
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and doc["done"] == 0 and doc["workers"] == 0 and len(doc["failed"]) == 1


def test_inputs_and_store_errors_are_one_line(tmp_path):
    from click.testing import CliRunner
    from solver.cli.main import main
    r = CliRunner().invoke(main, ["batch", "annotate", str(tmp_path / "none.txt"),
                                  "--db", str(tmp_path / "x.db")])
    assert r.exit_code == 2 and r.output.strip() == f"error: {tmp_path / 'none.txt'}: no such file or directory"
    # "-" is standard input in the other commands: batch says why it is not
    # one here (it said "-: no such file or directory")
    for job in ("annotate", "mine"):
        r = CliRunner().invoke(main, ["batch", job, "-", "--db", str(tmp_path / "x.db")],
                               input="hand 1 dealer N table 1o.4c.5e.11b\n")
        assert r.exit_code == 2 and r.output.strip() == (
            "error: -: batch reads files, not standard input: save the games to a file "
            "(or use `ronda-solve annotate -` for one record)")
    notdb = tmp_path / "not.db"
    notdb.write_text("hello, not a database\n" * 100)
    r = CliRunner().invoke(main, ["db", "stats", "--db", str(notdb)])
    assert r.exit_code == 2 and r.output.startswith(f"error: {notdb}: not an analysis store")
    assert notdb.read_text() == "hello, not a database\n" * 100       # nothing overwritten


def test_a_file_without_a_game_is_a_failed_item(tmp_path):
    """Item 14: batch annotate says what annotate says of an empty file, or
    one of comments only, instead of skipping it silently."""
    (tmp_path / "a.txt").write_text("")
    (tmp_path / "b.txt").write_text("{just a comment}\n")
    items = list(games_of(files_of((str(tmp_path),))))
    assert [(i.game, i.error) for i in items] == [
        (None, f"{tmp_path / 'a.txt'}: no game in the file"),
        (None, f"{tmp_path / 'b.txt'}: no game in the file")]


def test_a_file_that_is_not_utf8_is_said_as_the_other_commands_say_it(tmp_path):
    """Python's codec text ('utf-8' codec can't decode byte 0xc6 in
    position 2...) was shown; the item's error is the one line every
    command gives, with the line of the byte."""
    (tmp_path / "g.txt").write_bytes(b"[Event \"x\"]\n\x00\xc6\x01\n")
    items = list(games_of(files_of((str(tmp_path),))))
    assert [(i.game, i.error) for i in items] == [
        (None, f"{tmp_path / 'g.txt'}: line 2, line: not UTF-8 text (byte 0xc6 at column 2)")]


def test_batch_annotate_runs_a_three_player_game(tmp_path):
    """Every rule system in batch (issue 20): the shipped three-player game
    is annotated on the cluster (the luck of the deal each seat's own),
    stored, and equal to the single-process annotate with the same seed."""
    from click.testing import CliRunner
    from solver.cli.main import main
    game = Path("positions/games/french-3p.txt")
    db = tmp_path / "three.db"
    r = CliRunner().invoke(main, ["batch", "annotate", str(game), "--db", str(db),
                                  "--workers", "1", "--view", "full", "--seed", "3",
                                  "--luck-samples", "2", "-q"])
    assert r.exit_code == 0, r.output
    rows = _stored(db)
    assert len(rows) == 1
    doc = rows[0][2]
    assert [p["seat"] for p in doc["players"]] == ["S", "E", "N"]
    assert len(doc["luck"]) == 4 and all(len(d["luck"]) == 3 for d in doc["luck"])
    alone = annotation_json(annotate(parse_games(game.read_text())[0], view="full", seed=3,
                                     luck_samples=2))
    assert _comparable(doc)["plays"] == _comparable(alone)["plays"]


def test_batch_annotate_with_a_time_budget_stores_its_games(tmp_path):
    """``batch annotate --time S``: an evaluation's job key then ends with
    the budget, which the store's key reader took for a seventh field it
    did not expect (ValueError: too many values to unpack, a traceback
    and no game stored). The game is stored, with its time, each play's
    cut and the evaluations' positions, methods, samples and seeds."""
    from click.testing import CliRunner
    from solver.cli.main import main
    game = Path("positions/games/french-3p.txt")
    db = tmp_path / "timed.db"
    r = CliRunner().invoke(main, ["batch", "annotate", str(game), "--db", str(db),
                                  "--workers", "1", "--view", "full", "--seed", "3",
                                  "--luck-samples", "0", "--time", "5", "-q"])
    assert r.exit_code == 0, r.output
    rows = _stored(db)
    assert len(rows) == 1
    doc = rows[0][2]
    assert doc["time"] == 5 and all("cut" in p for p in doc["plays"])
    evals = sqlite3.connect(db).execute(
        "SELECT position, method, samples, seed FROM evaluations WHERE kind='eval'").fetchall()
    chosen = [p for p in doc["plays"] if not p["forced"]]
    assert len(evals) == len(chosen)
    assert all(pos and method == "auto" and samples == 32 for pos, method, samples, _s in evals)


def test_a_game_s_own_error_is_said_in_words(tmp_path):
    """A game the chosen method cannot take fails with the error `annotate`
    gives (three players hide their hands: no exact search), not the
    exception's class name."""
    from click.testing import CliRunner
    from solver.cli.main import main
    game = Path("positions/games/french-3p.txt")
    r = CliRunner().invoke(main, ["batch", "annotate", str(game), "--db", str(tmp_path / "s.db"),
                                  "--workers", "1", "--method", "exact", "--time", "0.3",
                                  "--luck-samples", "0", "--json"])
    doc = json.loads(r.stdout)
    assert r.exit_code == 1 and doc["done"] == 0
    assert doc["failed"] == [f"{game}: game 1: exact search needs every card known "
                             "(stock order and hands)"]


@pytest.mark.parametrize("player", ["human", " human"])
def test_batch_selfplay_refuses_a_human_player_before_the_cluster(tmp_path, monkeypatch, player):
    """The workers play without a person: `--player human` is one error
    line, exit 2, before the store is made or a cluster started (it was
    accepted, prompted from the workers and failed each chunk's retries)."""
    from click.testing import CliRunner
    import solver.cli.batch as cli_batch
    from solver.cli.main import main

    def no_cluster(*a, **k):
        raise AssertionError("a cluster was started")
    monkeypatch.setattr(cli_batch, "_on_cluster", no_cluster)
    db = tmp_path / "s.db"
    r = CliRunner().invoke(main, ["batch", "selfplay", "--player", player, "--hands", "5",
                                  "--workers", "1", "--db", str(db), "-q"], input="")
    assert r.exit_code == 2, r.output
    assert r.stderr.splitlines() == [
        "error: --player human: the self-play plays its hands without a person "
        "(greedy, mc:N, engine:K, engine:Ts): use `play` to play as human"]
    assert not db.exists()


def test_a_batch_whose_every_game_failed_says_so(tmp_path):
    """A batch with no game to run (a position file given to batch
    annotate) said "nothing left to do: 0 games already in the store, 1
    failed"; it says no game ran, and names the failure above it."""
    from click.testing import CliRunner
    from solver.cli.main import main
    r = CliRunner().invoke(main, ["batch", "annotate", "positions/seeds.txt",
                                  "--db", str(tmp_path / "s.db")])
    assert r.exit_code == 1
    error, summary = r.output.split("\n", 1)
    assert error == ("error: positions/seeds.txt: game 1: line 5, syntax: a position, not a "
                     "game record: evaluate it with `ronda-solve FILE` (annotate reads played "
                     "games)")
    # (rich folds the summary at the terminal's width)
    assert " ".join(summary.split()) == (
        f"annotate: no game to run: 1 failed (above); store {tmp_path / 's.db'}")


def test_resume_knows_a_file_however_its_path_is_typed(tmp_path, monkeypatch):
    """A new user's pass: a game stored from ``coll/a.txt`` was searched
    and stored again when --resume named it ``/abs/.../coll/a.txt``
    (``./coll/b.txt`` was known): each spelling was a new game. Paths are
    compared as the files they name (a stored relative path from the
    current folder)."""
    from solver.batch.run import params_text, plan_batch
    monkeypatch.chdir(tmp_path)
    (tmp_path / "coll").mkdir()
    record = (Path(__file__).resolve().parent.parent / "positions" / "games"
              / "voleur-short.txt").read_text()
    (tmp_path / "coll" / "a.txt").write_text(record)
    store = Store(str(tmp_path / "s.db"))
    [item] = list(games_of(files_of(("coll/a.txt",))))
    store.write_game(item.source, item.number, item.digest, "annotate",
                     params_text("annotate", OPTIONS), {"x": 1}, None, 0.1, {})
    for spelling in (str(tmp_path / "coll" / "a.txt"), "./coll/a.txt", "coll/../coll/a.txt"):
        summary, todo = plan_batch("annotate", games_of(files_of((spelling,))), OPTIONS, store,
                                   resume=True)
        assert (summary.skipped, todo) == (1, []), spelling
    store.close()


def test_a_store_in_a_missing_folder_names_the_folder(tmp_path):
    """A new user's pass: ``--db nodir/club.db`` said "cannot open the store
    (unable to open database file)"; it names the missing folder, as every
    -o file does, exit 2, and creates nothing."""
    from click.testing import CliRunner
    from solver.cli.main import main
    db = tmp_path / "nodir" / "club.db"
    r = CliRunner().invoke(main, ["batch", "annotate", "positions/games/voleur-short.txt",
                                  "--db", str(db)])
    assert r.exit_code == 2
    assert r.stderr == f"error: {db}: cannot open the store: no folder {tmp_path / 'nodir'}\n"
    assert not (tmp_path / "nodir").exists()


def test_a_file_with_no_game_is_not_counted_as_a_game(tmp_path):
    """A new user's pass: `batch mine` of a game and two files with no game
    (empty, comments only) said "3 games from 3 files" and counted each
    empty file as a failed game. The games counted are the games there
    are; each empty file is the error `annotate` gives for it, and the
    summary counts it as a file with no game (exit 1, as annotate)."""
    from click.testing import CliRunner
    from solver.cli.main import main
    (tmp_path / "a.txt").write_text(Path("positions/games/voleur-short.txt").read_text())
    (tmp_path / "b.txt").write_text("")
    (tmp_path / "c.txt").write_text("{just a comment}\n")
    db = tmp_path / "s.db"
    r = CliRunner().invoke(main, ["batch", "mine", str(tmp_path / "a.txt"),
                                  str(tmp_path / "b.txt"), str(tmp_path / "c.txt"),
                                  "--db", str(db), "--workers", "1"])
    assert r.exit_code == 1, r.output
    err = r.stderr.splitlines()
    assert " ".join(err[0].split()).startswith(
        "mine: 1 game from 3 files (2 with no game) on local cluster, 1 worker")
    assert err[-2:] == [f"error: {tmp_path / 'b.txt'}: no game in the file",
                        f"error: {tmp_path / 'c.txt'}: no game in the file"]
    summary = " ".join(r.stdout.split())
    # the puzzles the store holds for the game, counted in words
    with sqlite3.connect(db) as con:
        [(result,)] = con.execute("SELECT result FROM games WHERE job = 'mine'").fetchall()
    n = len(json.loads(result)["puzzles"])
    assert n >= 1
    found = "1 puzzle found" if n == 1 else f"{n} puzzles found"
    assert summary.startswith("mine: 1 game done, 0 already in the store, 0 failed, "
                              f"2 files with no game (above); {found}; ")
    assert summary.endswith(f"games a minute on 1 worker; store {db}")
    assert "evaluations searched" not in summary
    # again with --resume: nothing to do, the empty files said the same way
    r = CliRunner().invoke(main, ["batch", "mine", str(tmp_path), "--db", str(db), "--resume",
                                  "--json"])
    doc = json.loads(r.stdout)
    assert r.exit_code == 1
    assert (doc["done"], doc["skipped"], doc["failed"], doc["puzzles"]) == (0, 1, [], 0)
    assert doc["no_game"] == [f"{tmp_path / 'b.txt'}: no game in the file",
                              f"{tmp_path / 'c.txt'}: no game in the file"]


def _summary_of(job: str, **fields) -> str:
    from solver.batch.run import BatchSummary
    from solver.cli.batch import _said
    s = BatchSummary(job, **fields)
    return _said(job, s, s.as_dict(), "club.db")


def test_the_summary_says_what_was_searched_in_words():
    """`batch mine` said "0 evaluations searched, 0 from the store" after
    every run (mining keeps no evaluation in the store), and a batch
    whose every game failed on the cluster said "0 games done ... 0
    evaluations searched, 0 from the store; 0 games a minute". The
    summary says what mining found, that no game was done, and that an
    annotation took every evaluation from the store."""
    assert _summary_of("mine", done=3, workers=2, seconds=60.0, puzzles=4) == (
        "mine: 3 games done, 0 already in the store, 0 failed; 4 puzzles found; "
        "3 games a minute on 2 workers; store club.db")
    assert _summary_of("mine", done=1, workers=1, seconds=60.0) == (
        "mine: 1 game done, 0 already in the store, 0 failed; no puzzle found; "
        "1 games a minute on 1 worker; store club.db")
    assert _summary_of("annotate", failed=["g.txt: game 1: x"], workers=1, hits=5,
                       seconds=3.0) == (
        "annotate: no game done, 0 already in the store, 1 failed (above); store club.db")
    assert _summary_of("annotate", done=2, skipped=1, workers=1, hits=40, seconds=60.0) == (
        "annotate: 2 games done, 1 already in the store, 0 failed; no evaluation searched: "
        "all 40 from the store; 2 games a minute on 1 worker; store club.db")
    assert _summary_of("annotate", done=2, workers=1, searched=30, hits=10, seconds=60.0) == (
        "annotate: 2 games done, 0 already in the store, 0 failed; 30 evaluations searched, "
        "10 from the store; 2 games a minute on 1 worker; store club.db")
    assert _summary_of("mine", no_game=["e.txt: no game in the file"]) == (
        "mine: no game to run: 0 failed, 1 file with no game (above); store club.db")
