"""The analysis store's failures are one line (issue 19): a damaged file,
another program's database, a store of another layout, a full disk
during a batch; a sound store on a read-only file system is read;
``--resume`` analyses again a game whose record changed; ``db export -o``
is written whole or not at all."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.batch import run as batch_run
from solver.batch.inputs import files_of, games_of
from solver.batch.store import Store, StoreError
from solver.cli.main import main

COLLECTION = Path("positions/games/collection-60.txt")


def _games_file(tmp_path: Path, count: int) -> Path:
    text = COLLECTION.read_text()
    starts = [i for i in range(len(text)) if text.startswith("[Event", i)]
    path = tmp_path / "games.txt"
    path.write_text(text[:starts[count]])
    return path


def _fill(db: Path, games: int = 40) -> None:
    """A store with ``games`` games and an evaluation each (several pages)."""
    with Store(db) as s:
        for n in range(1, games + 1):
            key = json.dumps(["0.1.0", "eval", f"5 1/2 - N ; n {n}", "exact", 1, 0])
            s.write_game("g.txt", n, f"d{n}", "annotate", "{}", {"n": n, "pad": "x" * 2000},
                         "record " * 100, 0.5, {key: ["exact", None, [[0, "5", 1, None]]]})


def _one_error_line(r, code: int = 2) -> str:
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1, r.output
    assert lines[0].startswith("error: ")
    return lines[0]


# --- files that are not sound analysis stores ------------------------------------------


def test_a_file_that_is_not_sqlite_is_one_line(tmp_path):
    db = tmp_path / "x.db"
    db.write_bytes(b"this is no database\n" * 300)
    for args in (["db", "stats", "--db", str(db)], ["db", "export", "--db", str(db)]):
        line = _one_error_line(CliRunner().invoke(main, args))
        assert "not an analysis store" in line and str(db) in line


def test_a_damaged_store_is_one_line(tmp_path):
    db = tmp_path / "d.db"
    _fill(db)
    data = bytearray(db.read_bytes())
    assert len(data) > 8 * 4096
    for page in range(2, len(data) // 4096):            # every page but the first
        data[page * 4096:page * 4096 + 4096] = bytes([0xA5]) * 4096
    db.write_bytes(bytes(data))
    for args in (["db", "stats", "--db", str(db)], ["db", "export", "--db", str(db)],
                 ["db", "export", "--what", "evaluations", "--db", str(db)]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and "Traceback" not in r.output, r.output
        errors = [line for line in r.output.splitlines() if line.startswith("error: ")]
        assert len(errors) == 1 and str(db) in errors[0]


def test_another_programs_database_is_refused_and_left_alone(tmp_path):
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as c:
        c.execute("CREATE TABLE customers (id INTEGER, name TEXT)")
    before = db.read_bytes()
    with pytest.raises(StoreError, match=r"not an analysis store \(it holds customers\)"):
        Store(db)
    assert db.read_bytes() == before                  # no table was added
    line = _one_error_line(CliRunner().invoke(main, ["db", "stats", "--db", str(db)]))
    assert "it holds customers" in line


def test_a_store_of_another_layout_is_refused(tmp_path):
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as c:
        c.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        c.execute("INSERT INTO meta VALUES ('schema', '1')")
        c.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, source TEXT, result TEXT)")
    for readonly in (False, True):
        with pytest.raises(StoreError, match="table games has columns id, source, result"):
            Store(db, readonly=readonly)
    line = _one_error_line(CliRunner().invoke(main, ["db", "export", "--db", str(db)]))
    assert "not an analysis store of this layout" in line


def test_a_newer_schema_is_refused(tmp_path):
    db = tmp_path / "new.db"
    Store(db).close()
    with sqlite3.connect(db) as c:
        c.execute("UPDATE meta SET value='7' WHERE name='schema'")
    with pytest.raises(StoreError, match="schema 7 is not one this version reads"):
        Store(db, readonly=True)


# --- a read-only file system ------------------------------------------------------------


@pytest.fixture
def read_only_mount(tmp_path):
    """A small tmpfs at tmp_path/ro that the test can make read-only (root
    and mount(8) needed; else skipped)."""
    where = tmp_path / "ro"
    where.mkdir()
    if shutil.which("mount") is None or \
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)],
                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a file system here")

    def freeze():
        subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
    try:
        yield where, freeze
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_sound_store_on_a_read_only_file_system_is_read(read_only_mount):
    where, freeze = read_only_mount
    db = where / "club.db"
    _fill(db, 5)
    assert not Path(f"{db}-wal").exists()          # closed cleanly: no WAL left
    freeze()
    r = CliRunner().invoke(main, ["db", "stats", "--json", "--db", str(db)])
    assert r.exit_code == 0, r.output
    stats = json.loads(r.output)
    assert stats["games"] == {"annotate": 5} and stats["integrity"] == "ok"
    r = CliRunner().invoke(main, ["db", "export", "--db", str(db)])
    assert r.exit_code == 0, r.output
    assert [json.loads(line)["number"] for line in r.output.splitlines()] == [1, 2, 3, 4, 5]
    # writing it is one line
    with pytest.raises(StoreError, match=str(db)):
        Store(db)


# --- a batch: a full disk, --resume and changed records ---------------------------------------


def _fake_annotate(game, opts, hits):
    """A stand-in for the annotation job: its result names the game's
    first deal, so a changed record gives another result."""
    from solver.games.record import dumps
    return {"result": {"number": opts["number"], "record": dumps(game)[:60]},
            "record": dumps(game), "seconds": 0.01, "computed": {}}


@pytest.fixture
def in_process(monkeypatch):
    """A Dask client on threads of this process, with the annotation job
    replaced by :func:`_fake_annotate` (the batch's logic, not the
    search, is under test)."""
    pytest.importorskip("dask.distributed")
    from dask.distributed import Client
    monkeypatch.setitem(batch_run.JOBS, "annotate", _fake_annotate)
    monkeypatch.setattr(batch_run, "plan_annotation", lambda game, options: [])
    client = Client(processes=False, n_workers=1, threads_per_worker=1,
                    dashboard_address=None)
    try:
        yield client
    finally:
        client.close()


def test_resume_analyses_again_a_game_whose_record_changed(tmp_path, in_process):
    path = _games_file(tmp_path, 4)
    db = tmp_path / "r.db"
    with Store(db) as store:
        first = batch_run.run_batch("annotate", games_of(files_of((str(path),))), {}, store,
                                    in_process, resume=True)
    assert first.done == 4 and first.skipped == 0
    text = path.read_text()
    starts = [i for i in range(len(text)) if text.startswith("[Event", i)]
    second_game = text[starts[1]:starts[2]]
    changed = second_game.replace("[Event", "[Event ", 1).replace('[Event  "', '[Event "changed ')
    assert changed != second_game
    path.write_text(text[:starts[1]] + changed + text[starts[2]:])
    with Store(db) as store:
        again = batch_run.run_batch("annotate", games_of(files_of((str(path),))), {}, store,
                                    in_process, resume=True)
        rows = {g["number"]: g for g in store.games("annotate")}
    assert (again.done, again.skipped, again.changed) == (1, 3, 1)
    items = {i.number: i for i in games_of(files_of((str(path),)))}
    assert rows[2]["digest"] == items[2].digest            # the new record's
    assert all(rows[n]["digest"] == items[n].digest for n in rows)


def test_a_full_disk_during_a_batch_stops_it_and_keeps_the_games_written(tmp_path,
                                                                          in_process):
    path = _games_file(tmp_path, 12)
    db = tmp_path / "f.db"
    store = Store(db)
    # a disk that fills up: a rollback journal (WAL would hold the pages
    # back until a checkpoint) and a few pages more than the empty store
    store.db.execute("PRAGMA journal_mode=DELETE")
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages + 2}")
    try:
        summary = batch_run.run_batch("annotate", games_of(files_of((str(path),))), {},
                                      store, in_process)
    finally:
        store.close()
    assert summary.store_error is not None
    assert summary.store_error.startswith(f"{db}: database or disk is full")
    assert 0 < summary.done < 12
    with Store(db, readonly=True) as s:
        kept = sorted(g["number"] for g in s.games("annotate"))
    assert kept == list(range(1, summary.done + 1))


def test_a_full_disk_during_a_batch_is_one_line_on_the_command_line(tmp_path, monkeypatch,
                                                                     in_process):
    path = _games_file(tmp_path, 6)
    db = tmp_path / "c.db"
    monkeypatch.setattr(batch_run, "connect", lambda *a, **k: (in_process, None))
    monkeypatch.setattr(in_process, "close", lambda: None)

    def full(self, *args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(Store, "write_game", _guard_like_store(full))
    r = CliRunner().invoke(main, ["batch", "annotate", str(path), "--db",
                                                  str(db), "-q"])
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [
        f"error: {db}: database or disk is full; the games written before are kept; "
        "the batch stopped (0 games written now)"]


def _guard_like_store(fn):
    from solver.batch.store import _guarded
    return _guarded(fn)


# --- db export -o -------------------------------------------------------------------------


def test_export_to_a_file_is_the_standard_output_text(tmp_path):
    db = tmp_path / "e.db"
    _fill(db, 3)
    out = tmp_path / "out.jsonl"
    for fmt in ("jsonl", "csv"):
        want = CliRunner().invoke(main, ["db", "export", "--format", fmt, "--db", str(db)])
        assert want.exit_code == 0
        r = CliRunner().invoke(main, ["db", "export", "--format", fmt, "--db", str(db), "-o",
                                      str(out), "--force"])
        assert r.exit_code == 0, r.output
        assert out.read_text() == want.output
    r = CliRunner().invoke(main, ["db", "export", "--db", str(db), "-o", str(out)])
    assert "exists; use --force" in _one_error_line(r)


def test_export_of_a_damaged_store_writes_no_file(tmp_path):
    db = tmp_path / "d.db"
    _fill(db)
    data = bytearray(db.read_bytes())
    for page in range(4, len(data) // 4096):
        data[page * 4096:page * 4096 + 4096] = bytes([0x5A]) * 4096
    db.write_bytes(bytes(data))
    out = tmp_path / "never.jsonl"
    r = CliRunner().invoke(main, ["db", "export", "--db", str(db), "-o", str(out)])
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("d.db")) == []


def test_export_writes_a_game_s_params_as_a_json_object(tmp_path):
    """A new user's pass: ``db export --format jsonl`` wrote a game's
    ``params`` as JSON text inside a string
    (``"params": "{\\"job\\":\\"mine\\",\\"margin\\":2.0}"``). It is the JSON
    object of the options; the csv column keeps the store's canonical
    text, as every JSON column of the csv is text."""
    from solver.batch.run import params_text
    db = tmp_path / "p.db"
    params = params_text("mine", {"margin": 2.5})
    with Store(db) as s:
        s.write_game("g.txt", 1, "d1", "mine", params, {"puzzles": []}, None, 0.5, {})
    r = CliRunner().invoke(main, ["db", "export", "--format", "jsonl", "--db", str(db)])
    assert r.exit_code == 0, r.output
    [row] = [json.loads(line) for line in r.output.splitlines()]
    assert row["params"] == {"job": "mine", "margin": 2.5}
    assert row["result"] == {"puzzles": []} and row["job"] == "mine"
    r = CliRunner().invoke(main, ["db", "export", "--format", "csv", "--db", str(db)])
    import csv
    [csv_row] = list(csv.DictReader(r.output.splitlines()))
    assert csv_row["params"] == '{"job":"mine","margin":2.5}'
    assert json.loads(csv_row["params"]) == row["params"]
