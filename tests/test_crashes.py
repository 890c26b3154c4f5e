"""No crash and nothing lost (issue 19): JSON never breaks on an infinite
lead, an interruption keeps the answer so far, a closed standard input, a
full standard output, a line that never ends, Ctrl-C while a command is
still loading: one line on stderr and the documented exit status, never a
traceback."""

from __future__ import annotations

import json
import re
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli.main import main
from solver.notation import NotationError, format_position, parse_file, parse_lines
from solver.runtime.interrupt import Interrupted

ROOT = Path(__file__).resolve().parent.parent
#: every sample has the same lead: 1 takes the 1 (a missa), 2 lays; N's
#: hand hidden, but gone= leaves it only the 3 and the 4 (every sample the
#: same draw: a position with every card known is solved exactly instead)
SAME_LEAD = ("1 1.2/?.? - S taken=20,15 last=N gone=1.1.2.2.2.3.3.3.4.4.4.5.5.5.5.6.6.6.6."
             "7.7.7.7.10.10.10.10.11.11.11.11.12.12.12.12")


def _strict(text: str):
    """JSON as a strict reader takes it (no Infinity, no NaN)."""
    def refuse(name):
        raise ValueError(f"{name} is not JSON")
    return json.loads(text, parse_constant=refuse)


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solver.cli.main", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, **kwargs)


# --- an infinite lead ----------------------------------------------------------


def test_a_lead_the_same_in_every_sample_is_null_with_its_reason():
    r = CliRunner().invoke(main, ["--json", "--method", "determinised", "--objective",
                                  "points", "-"], input=SAME_LEAD + "\n")
    assert r.exit_code == 0, r.output
    doc = _strict(r.output)
    (pos,) = doc["positions"]
    best, other = pos["moves"]
    # 1 takes the table's 1 (+1 missa: the last cards), 2 is laid: one point
    # apart in every determinisation, so no spread: the lead is past any z
    assert (best["move"], other["move"]) == ("1", "2")
    assert other["value"] == best["value"] - 1 and other["stderr"] == 0
    assert other["lead_z"] is None
    assert other["lead_z_note"] == "the best play led by the same margin in every sample"
    assert "lead_z_note" not in best


def test_jsonl_goes_on_after_an_infinite_lead():
    r = CliRunner().invoke(main, ["--jsonl", "--method", "determinised", "--objective",
                                  "points", "-"],
                           input=SAME_LEAD + "\n" + "5.6 5.7/3.3 - S\n")
    assert r.exit_code == 0, r.output
    docs = [_strict(line) for line in r.output.splitlines()]
    assert [d["line"] for d in docs] == [1, 2]


def test_the_api_answers_an_infinite_lead():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from solver.web.app import Config, create_app
    with TestClient(create_app(Config(searches=1, queue=1))) as c:
        r = c.post("/api/analyse", json={"line": SAME_LEAD, "method": "determinised"})
    assert r.status_code == 200, r.text
    moves = _strict(r.text)["positions"][0]["moves"]
    assert moves[1]["lead_z"] is None and moves[1]["lead_z_note"]


# --- interrupted sampling keeps the answer so far ---------------------------------


def test_a_signal_between_sampling_batches_keeps_the_samples_so_far():
    """The signal lands in Python code between two batches (here: the
    progress callback, as a terminal's progress bar): the 96 samples of
    the three finished batches are the answer, marked partial."""
    from solver.analysis.evaluation import evaluate
    from solver.notation import parse_position
    calls = []

    def progress(result):
        calls.append(result.samples)
        if len(calls) == 3:
            raise Interrupted(signal.SIGTERM)

    a = evaluate(parse_position("1.2.3.4 10.11.12/?.?.? ? S"), method="determinised",
                 samples=10 ** 6, time_budget=600, workers=1, progress=progress)
    assert calls == [32, 64, 96]
    assert a.partial and a.stopped == "interrupted" and a.samples == 96
    assert {m.move for m in a.moves} == {"10", "11", "12"}


def test_a_signal_in_the_first_progress_call_keeps_the_first_batch():
    from solver.analysis.evaluation import evaluate
    from solver.notation import parse_position

    def progress(_result):
        raise Interrupted(signal.SIGINT)

    a = evaluate(parse_position("1.2.3.4 10.11.12/?.?.? ? S"), method="determinised",
                 samples=10 ** 6, time_budget=600, workers=2, progress=progress)
    assert a.partial and a.samples == 32 and a.stopped == "interrupted"


# --- streams -------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["--json", "--objective", "points", "-"],
                                  ["met", "--json"],
                                  ["--objective", "points", "-"]])
def test_standard_output_on_a_full_disk_is_one_line(args):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "solver.cli.main", *args], cwd=ROOT,
                           input="1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N\n",
                           stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == \
        ["error: cannot write standard output: No space left on device"]


def test_db_export_to_a_full_disk_is_one_line(tmp_path):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    from solver.batch.store import Store
    db = tmp_path / "s.db"
    with Store(str(db)) as s:
        for n in range(1, 200):          # more than a buffer's worth
            s.write_game("a.txt", n, "d1", "annotate", "{}", {"x": "y" * 100}, "rec", 0.5, {})
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "solver.cli.main", "db", "export", "--db",
                            str(db)], cwd=ROOT, stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=300)
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip().splitlines() == \
        ["error: cannot write standard output: No space left on device"]


def test_a_closed_standard_input_is_a_usage_error():
    p = subprocess.run(["sh", "-c", f'"{sys.executable}" -m solver.cli.main --json - <&-'],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 2
    assert "standard input is closed" in p.stderr and "Traceback" not in p.stderr


def _closed_stdin(args: str):
    """The command ``ronda-solve ARGS`` run with file descriptor 0 closed
    (``<&-``: not an empty input, no input at all)."""
    return subprocess.run(["sh", "-c", f'"{sys.executable}" -m solver.cli.main {args} <&-'],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("seats", ["human greedy", "greedy human --no-swap",
                                   "human engine:1 engine:1 engine:1 --rules pagat"])
def test_play_with_a_human_seat_and_a_closed_standard_input_is_a_usage_error(seats, tmp_path):
    out = tmp_path / "games.txt"
    p = _closed_stdin(f"play {seats} -o {out}")
    assert p.returncode == 2, p.stderr
    # refused before the first game: no prompt, no play told, nothing written
    assert p.stderr.splitlines() == \
        ["error: standard input is closed (nothing to read a human seat's plays from)"]
    assert p.stdout == "" and not out.exists()


def test_play_without_a_human_seat_needs_no_standard_input():
    p = _closed_stdin("play greedy greedy --no-swap -q")
    assert p.returncode == 0, p.stderr
    assert "[Result " in p.stdout


def _puzzle_set(tmp_path) -> Path:
    from solver.notation import parse_position
    from solver.puzzles.puzzle import make_puzzle
    f = tmp_path / "set.txt"
    f.write_text(make_puzzle(parse_position("1.2 2.4/4 - S taken=17,18 last=N prev=2")).line()
                 + "\n")
    return f


def test_the_quiz_with_a_closed_standard_input_is_a_usage_error(tmp_path):
    p = _closed_stdin(f"puzzles quiz {_puzzle_set(tmp_path)}")
    assert p.returncode == 2, p.stderr
    # refused before the first puzzle is drawn
    assert p.stderr.splitlines() == \
        ["error: standard input is closed (nothing to read the answers from)"]
    assert p.stdout == ""


def test_the_quiz_with_an_empty_standard_input_prints_the_score(tmp_path):
    """An input that ends (</dev/null, Ctrl-D) is no error: the score so far."""
    p = subprocess.run([sys.executable, "-m", "solver.cli.main", "puzzles", "quiz",
                        str(_puzzle_set(tmp_path))], cwd=ROOT, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "puzzle 1/1" in p.stdout        # the puzzle was drawn, then the input ended
    assert p.stdout.rstrip().endswith("score: 0 of 0") and "Traceback" not in p.stderr


@pytest.mark.parametrize("args", [["-"], ["puzzles", "check", "-"], ["annotate", "-"]])
def test_a_line_that_never_ends_is_one_error(args):
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    with open("/dev/zero", "rb") as zero:
        p = subprocess.run([sys.executable, "-m", "solver.cli.main", *args], cwd=ROOT,
                           stdin=zero, capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr
    assert "longer than 100,000 bytes" in lines[0] or "larger than 64 MB" in lines[0]


def test_files_split_on_newlines_only_as_the_line_reader_does():
    """A form feed or U+2028 inside a line is part of that line, for the
    puzzle files (parse_file) as for the solver's reader (parse_lines)."""
    for sep in ("\x0c", "\u2028", "\x1c", "\x85"):
        text = f"5 1/2 - N taken=20,17 last=S{sep}5 1/2 - N\n5 1/2 - N taken=20,17 last=S\n"
        a = [(n, str(r) if isinstance(r, NotationError) else format_position(r))
             for n, r in parse_file(text)]
        b = [(n, str(r) if isinstance(r, NotationError) else format_position(r))
             for n, r in parse_lines(text.encode().split(b"\n"))]
        assert a == b
        assert [n for n, _ in a] == [1, 2]      # two lines, not three
        assert a[1][1] == "5 1/2 - N taken=20,17 last=S"


# --- Ctrl-C while a command starts ------------------------------------------------------


@pytest.mark.parametrize("delay", [0.1, 0.3, 0.6, 1.0])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_a_command_loads_is_no_traceback(delay, signum):
    # the console script: `python -m` would compile the module before any
    # code of ours could take the signals in hand
    script = Path(sys.executable).with_name("ronda-solve")
    command = [str(script)] if script.exists() else \
        [sys.executable, "-c", "from solver.cli.entry import run; run()"]
    p = subprocess.Popen([*command, "--objective", "points",
                          "positions/seeds.txt"], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(delay)
    os.killpg(p.pid, signum)
    out, err = p.communicate(timeout=300)
    if "init_import_site" in err:
        return      # the interpreter's own start-up, before any code of ours ran
    assert "Traceback" not in err, err
    # 0 when it finished first; else the signal's status, and it says so
    # once it could (before its handlers, the signal ends it by itself)
    assert p.returncode in (0, 128 + signum, -signum), err
    if p.returncode == 128 + signum:
        assert err.strip().splitlines()[-1].startswith(
            f"interrupted ({signal.Signals(signum).name})")


def test_a_signal_inside_a_lazy_import_is_an_interruption(monkeypatch):
    """A signal landing inside an extension module's import fails that
    import with an ImportError whose context is the interruption (numba
    said "numba._devicearray failed to import", with a traceback): the
    command exits as interrupted, in one line."""
    import types

    class Interrupting(types.ModuleType):
        def __getattr__(self, name):
            try:
                raise Interrupted(signal.SIGTERM)
            except Interrupted:
                raise ImportError("numba._devicearray failed to import")

    monkeypatch.setitem(sys.modules, "solver.analysis.document",
                        Interrupting("solver.analysis.document"))
    r = CliRunner().invoke(main, ["--objective", "points", str(ROOT / "positions/seeds.txt")])
    assert r.exit_code == 143, r.output
    assert r.output.strip().splitlines()[-1] == "interrupted (SIGTERM)"
    assert "Traceback" not in r.output
    # an import that fails on its own is still an error
    monkeypatch.setitem(sys.modules, "solver.analysis.document",
                        types.ModuleType("solver.analysis.document"))
    r = CliRunner().invoke(main, ["--objective", "points", str(ROOT / "positions/seeds.txt")])
    assert r.exit_code == 1 and isinstance(r.exception, ImportError)


# --- three-player voleur in whole games -----------------------------------------------


def test_three_player_voleur_games_are_played_and_annotated(tmp_path):
    """Every system on the compiled core: three players of Ronda voleur
    play whole games, the record replays in annotate to its own result, a
    record of plain french play re-labelled voleur is refused in one line
    (its plays give another score), and the position itself is answered."""
    out = tmp_path / "v3.txt"
    r = CliRunner().invoke(main, ["play", "greedy", "greedy", "greedy", "--rules", "french",
                                  "--set", "voleur=yes", "--target", "5", "--games", "1",
                                  "--no-swap", "-q", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert '[Rules "french voleur=yes"]' in text
    result = re.search(r'\[Result "([0-9-]+)"\]', text).group(1)
    r = CliRunner().invoke(main, ["annotate", "--json", "-q", "--samples", "1",
                                  "--luck-samples", "0", str(out)])
    assert r.exit_code == 0, r.output
    score = json.loads(r.output)["games"][0]["score"]
    assert "-".join(str(score[seat]) for seat in "SEN") == result
    record = tmp_path / "relabelled.txt"
    record.write_text(Path(ROOT / "positions/games/french-3p.txt").read_text()
                      .replace('[Rules "french"]', '[Rules "french voleur=yes"]'))
    r = CliRunner().invoke(main, ["annotate", str(record)])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.strip().startswith(f"error: {record}: line 9, Result: the plays give ")
    r = CliRunner().invoke(main, ["arena", "greedy", "random", "--rules", "french", "--set",
                                  "voleur=yes", "--players", "3", "--pairs", "1", "--json"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["--json", "-"],
                           input="1.3.5.11 2.2.7/4.6.12/10.10.1 - S rules=french voleur=yes "
                                 "taken=10,11,6 last=N\n")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["positions"][0]["best"]
