"""Output files (solver/runtime/output.py and every command's -o): written whole or
not at all, an existing file refused atomically without --force, the old
file kept on any failure, one error line and exit 2. A full disk is a
monkeypatched write raising ENOSPC; a read-only folder a refused access
(the tests need no root and no special file system)."""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver.runtime.output as output
from solver.cli.main import main
from solver.runtime.output import OutputError, check_output, write_output

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = ("1.2 2.4/4 - S taken=17,18 last=N prev=2 ; bm 2 ; v 4 ; id \"x\" ; "
          "themes hit ; level 1\n")


def run(args):
    return CliRunner().invoke(main, args)


class _FullDisk(io.StringIO):
    """A file whose writes fail as on a full disk."""

    def write(self, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class _Os:
    """The os module as solver.runtime.output sees it, with some calls replaced."""

    def __init__(self, **replaced):
        self.__dict__.update(replaced)

    def __getattr__(self, name):
        return getattr(os, name)


def _full_disk(monkeypatch):
    def fdopen(fd, *args, **kwargs):
        os.close(fd)
        return _FullDisk()
    monkeypatch.setattr(output, "os", _Os(fdopen=fdopen))


def _read_only(monkeypatch):
    def mkstemp(*args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    class _Tempfile:
        pass
    fake = _Tempfile()
    fake.mkstemp = mkstemp
    monkeypatch.setattr(output, "tempfile", fake)
    monkeypatch.setattr(output, "os", _Os(access=lambda *a, **k: False))


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_write_new_then_refuse_then_force(tmp_path):
    path = tmp_path / "out.txt"
    write_output(str(path), "one\n")
    assert path.read_text() == "one\n"
    with pytest.raises(OutputError, match="exists; use --force"):
        check_output(str(path))
    write_output(str(path), "two\n", force=True)
    assert path.read_text() == "two\n"
    assert _leftovers(tmp_path) == []


def test_a_file_created_during_the_run_is_not_overwritten(tmp_path):
    path = tmp_path / "out.txt"
    check_output(str(path))                 # absent at the start
    path.write_text("someone else's\n")      # created meanwhile
    with pytest.raises(OutputError) as err:
        write_output(str(path), "ours\n")
    assert path.read_text() == "someone else's\n"
    assert "\n" not in str(err.value) and "created during the run" in str(err.value)
    assert Path(err.value.kept).read_text() == "ours\n"       # the work is not lost


def test_full_disk_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "out.txt"
    path.write_text("old\n")
    _full_disk(monkeypatch)
    with pytest.raises(OutputError, match="No space left on device"):
        write_output(str(path), "new\n" * 1000, force=True)
    assert path.read_text() == "old\n"
    assert _leftovers(tmp_path) == []


def test_missing_and_read_only_folders(tmp_path, monkeypatch):
    with pytest.raises(OutputError, match="no folder"):
        check_output(str(tmp_path / "nope" / "out.txt"))
    with pytest.raises(OutputError, match="No such file"):
        write_output(str(tmp_path / "nope" / "out.txt"), "x")
    with pytest.raises(OutputError, match="it is a folder"):
        check_output(str(tmp_path))
    _read_only(monkeypatch)
    with pytest.raises(OutputError, match="not writable"):
        check_output(str(tmp_path / "out.txt"))
    with pytest.raises(OutputError, match="Permission denied"):
        write_output(str(tmp_path / "out.txt"), "x")


def test_new_file_gets_ordinary_permissions(tmp_path):
    path = tmp_path / "out.txt"
    write_output(str(path), "x")
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


def _commands(tmp_path: Path, out: Path) -> dict[str, list[str]]:
    """Every command that writes a file, writing ``out``."""
    games = tmp_path / "games.txt"
    if not games.exists():
        r = run(["play", "greedy", "random", "--seed", "2", "-q", "-o", str(games)])
        assert r.exit_code == 0, r.output
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(PUZZLE)
    return {
        "play": ["play", "greedy", "random", "-q", "-o", str(out)],
        "annotate": ["annotate", "--view", "full", "--luck-samples", "0", "-q", "--record",
                     "-o", str(out), str(games)],
        "generate": ["puzzles", "generate", "--theme", "hit", "--count", "1", "-o", str(out)],
        "sheet": ["puzzles", "sheet", str(puzzles), "-o", str(out.with_suffix(".svg"))],
    }


@pytest.mark.parametrize("command", ["play", "annotate", "generate", "sheet"])
def test_commands_missing_folder_is_one_line(tmp_path, command):
    out = tmp_path / "missing" / "out.txt"
    r = run(_commands(tmp_path, out)[command])
    assert r.exit_code == 2, r.output
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ")
    assert "no folder" in r.stderr and "Traceback" not in r.output


@pytest.mark.parametrize("command", ["play", "annotate", "generate", "sheet"])
def test_commands_read_only_folder_is_one_line(tmp_path, monkeypatch, command):
    out = tmp_path / "out.txt"
    args = _commands(tmp_path, out)[command]
    _read_only(monkeypatch)
    r = run(args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1
    assert "not writable" in r.stderr


@pytest.mark.parametrize("command", ["play", "annotate", "generate", "sheet"])
def test_commands_full_disk_with_force_keep_the_old_file(tmp_path, monkeypatch, command):
    out = tmp_path / "out.txt"
    args = _commands(tmp_path, out)[command]
    target = out.with_suffix(".svg") if command == "sheet" else out
    target.write_text("old\n")
    _full_disk(monkeypatch)
    r = run(args + ["--force"])
    assert r.exit_code == 2, r.output
    assert f"error: cannot write {target}: No space left on device" in r.stderr
    assert "Traceback" not in r.output
    assert target.read_text() == "old\n"
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("command", ["play", "annotate", "generate", "sheet"])
def test_commands_refuse_an_existing_file(tmp_path, command):
    out = tmp_path / "out.txt"
    args = _commands(tmp_path, out)[command]
    target = out.with_suffix(".svg") if command == "sheet" else out
    target.write_text("old\n")
    r = run(args)
    assert r.exit_code == 2
    assert r.stderr.strip() == f"error: {target} exists; use --force to overwrite it"
    assert target.read_text() == "old\n"


def test_file_created_during_play_is_not_overwritten(tmp_path, monkeypatch):
    out = tmp_path / "games.txt"
    import solver.cli.games as cg
    real = cg.write_output

    def late(path, text, force=False):
        Path(path).write_text("created meanwhile\n")
        return real(path, text, force)
    monkeypatch.setattr(cg, "write_output", late)
    r = run(["play", "greedy", "random", "-q", "-o", str(out)])
    assert r.exit_code == 2
    assert r.stderr.startswith(f"error: {out} exists (it was created during the run)")
    assert out.read_text() == "created meanwhile\n"


@pytest.mark.parametrize("command", ["play", "annotate", "generate"])
def test_an_empty_file_name_is_refused_before_the_work(tmp_path, command):
    """A new user's pass: ``-o ''`` played (or annotated) everything, then
    failed with "cannot write : No such file or directory" and the work was
    lost; ``met --svg ''`` printed the table and wrote nothing, exit 0. An
    empty name is refused with the other checks, before any work."""
    args = _commands(tmp_path, tmp_path / "out.txt")[command]
    args[args.index("-o") + 1] = ""
    r = run(args)
    assert r.exit_code == 2, r.output
    assert r.stderr == "error: an empty file name: give a path, or - for standard output\n"
    assert r.stdout == ""


def test_sheet_and_met_refuse_an_empty_file_name(tmp_path):
    """(The sheet's own check names the suffixes it writes.)"""
    args = _commands(tmp_path, tmp_path / "out.txt")["sheet"]
    args[args.index("-o") + 1] = ""
    r = run(args)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.endswith("Error: -o '': name the file, e.g. sheet.html (the sheet is .svg "
                             "or .html)\n")
    r = run(["met", "--svg", ""])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == "error: an empty file name: give a path, or - for standard output\n"


def test_annotate_to_standard_output_is_the_record(tmp_path):
    """``annotate -o -`` wrote no file and printed the tables: the record
    asked for was lost without a word. '-' is standard output, as for every
    -o: the annotated record goes there, as with --record."""
    _commands(tmp_path, tmp_path / "unused.txt")
    games = tmp_path / "games.txt"
    base = ["annotate", "--view", "full", "--luck-samples", "0", "-q", str(games)]
    r = run(base[:-1] + ["-o", "-", str(games)])
    assert r.exit_code == 0, r.output
    assert r.stdout == run(base[:-1] + ["--record", str(games)]).stdout
    assert r.stdout.startswith("[Event ") and "[%eval" in r.stdout
    r = run(base[:-1] + ["--json", "-o", "-", str(games)])
    assert r.exit_code == 2
    assert r.stderr == "error: -o -: standard output holds the JSON (--json); give -o a file\n"
