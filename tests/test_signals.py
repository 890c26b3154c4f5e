"""Interrupting commands with real signals (solver/runtime/interrupt.py,
solver/runtime/workers.py): each command runs in its own process group, gets
SIGINT, SIGTERM or SIGHUP once it has produced output (or after a short
while), and must keep what it finished, say so on stderr, exit 128 plus
the signal, and leave no process behind (its pipes reach end of file).

No assertion is about speed: the waits only give the command time to
finish something, and the timeouts only guard against a hang."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli.main import main
from solver.notation import parse_file
from solver.games.record import parse_games

ROOT = Path(__file__).resolve().parent.parent
HANG = 300          # seconds: only to fail instead of hanging

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP") or not Path("/proc").is_dir(),
                                reason="POSIX signals and /proc")


def start(args: list[str], **kwargs) -> subprocess.Popen:
    """``ronda-solve ARGS`` in a new session (its own process group)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "solver.cli.main", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kwargs)


def group(pgid: int) -> list[int]:
    """The processes (not zombies) of process group ``pgid``."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(int(d.name))
    return out


def wait_until(condition, timeout: float = HANG) -> None:
    t0 = time.monotonic()
    while not condition():
        assert time.monotonic() - t0 < timeout, "the command did not get going"
        time.sleep(0.1)


def finish(p: subprocess.Popen) -> tuple[int, str, str]:
    """Read to end of file (an orphaned worker holding a pipe would hang
    here), wait, and check that the process group is empty."""
    try:
        out, err = p.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        raise
    wait_until(lambda: not group(p.pid), timeout=60)
    return p.returncode, out, err


def test_solve_sigterm_keeps_answered_lines(tmp_path):
    """Determinised search on worker threads: the first line's answer and
    the second's answer so far are printed; exit 143."""
    f = tmp_path / "pos.txt"
    f.write_text("1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N\n"
                 "1.2.3.4 10.11.12/?.?.? ? S\n")      # 10, 11, 12 never separate
    p = start(["--jsonl", "--method", "determinised", "--workers", "2", "--samples",
               "100000000", "--time", "3000", str(f)])
    first = json.loads(p.stdout.readline())
    assert first["line"] == 1 and first["best"] == ["7"]
    time.sleep(1.0)
    p.send_signal(signal.SIGTERM)
    code, out, err = finish(p)
    assert code == 143, err
    docs = [json.loads(line) for line in out.splitlines()]
    assert len(docs) == 1 and docs[0]["line"] == 2 and docs[0]["partial"]
    assert err.strip().splitlines()[-1] == \
        "interrupted (SIGTERM): 1 position answered, then the answer so far (partial)"
    assert "Traceback" not in err


def test_arena_sigterm_to_the_parent_stops_its_workers():
    """SIGTERM to the parent alone: the workers are terminated, the pairs
    finished are summed up; exit 143."""
    p = start(["arena", "greedy", "random", "--pairs", "20000", "--jobs", "2", "--json", "-q"])
    wait_until(lambda: len(group(p.pid)) >= 3)       # the parent and two workers
    time.sleep(2.0)
    p.send_signal(signal.SIGTERM)
    code, out, err = finish(p)
    assert code == 143, err
    s = json.loads(out)
    assert s["partial"] and s["hands"] == 2 * s["pairs"] and s["pairs"] < 20000
    assert err.strip() == f"interrupted (SIGTERM): {s['pairs']} of 20000 pairs finished"


def test_arena_ctrl_c_to_the_group():
    """Ctrl-C reaches the whole process group: the workers leave it to the
    parent, which stops them; exit 130 with the summary so far."""
    p = start(["arena", "greedy", "random", "--pairs", "20000", "--jobs", "2", "-q"])
    wait_until(lambda: len(group(p.pid)) >= 3)
    time.sleep(1.0)
    os.killpg(p.pid, signal.SIGINT)
    code, out, err = finish(p)
    assert code == 130, err
    assert "margin" in out and "interrupted (SIGINT)" in err and "Traceback" not in err


def test_play_sighup_writes_the_finished_games(tmp_path):
    out_file = tmp_path / "games.txt"
    p = start(["play", "greedy", "random", "--games", "100000", "-o", str(out_file), "-q"])
    time.sleep(3.0)
    p.send_signal(signal.SIGHUP)
    code, out, err = finish(p)
    assert code == 129, err
    n = int(err.split(": ")[1].split(" of ")[0])
    assert err.strip() == f"interrupted (SIGHUP): {n} of 100000 games finished" + \
        (f" in {out_file}" if n else "")
    assert "greedy" in out                  # the summary table of the finished games
    if n:
        games = parse_games(out_file.read_text())
        assert len(games) == n and all(g.hands for g in games)
    assert [x.name for x in tmp_path.iterdir()] == (["games.txt"] if n else [])


def test_annotate_ctrl_c_keeps_the_finished_games(tmp_path):
    from solver.games.arena import play_games
    from solver.games.record import dumps_all, from_match
    logs, _rows = play_games(["greedy", "random"], games=30, seed=3)
    games = tmp_path / "games.txt"
    games.write_text(dumps_all([from_match(log, {"Event": "t"}) for log in logs]))
    out_file = tmp_path / "annotated.txt"
    p = start(["annotate", "--jobs", "2", "--record", "--view", "full", "--luck-samples", "0",
               "-o", str(out_file), str(games)])
    # progress on stderr: game 2's evaluations are done, so game 1 is finished
    line = ""
    while not line.startswith("game 2: evaluations"):
        line = p.stderr.readline()
        assert line, "annotate ended early"
    os.killpg(p.pid, signal.SIGINT)
    code, out, err = finish(p)
    assert code == 130, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted (SIGINT): ") and " of 30 games annotated" in last
    n = int(last.split(": ")[1].split(" of ")[0])
    assert n >= 1
    assert len(parse_games(out)) == n
    assert len(parse_games(out_file.read_text())) == n


def test_generate_ctrl_c_stops_cp_sat_and_writes_what_was_found(tmp_path):
    out_file = tmp_path / "p.txt"
    p = start(["puzzles", "generate", "--count", "100000", "--seed", "1", "-o", str(out_file)])
    time.sleep(6.0)
    os.killpg(p.pid, signal.SIGINT)
    code, out, err = finish(p)
    assert code == 130, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted (SIGINT): ") and "Traceback" not in err
    n = int(last.split(": ")[1].split(" of ")[0])
    if n:
        text = out_file.read_text()
        assert text.startswith(f"# {n} puzzles") and "(interrupted)" in text.splitlines()[0]
        assert len([p for _n, p in parse_file(text)]) == n
    else:
        assert not out_file.exists()


def test_quiz_ctrl_c_prints_the_score():
    p = start(["puzzles", "quiz", "positions/puzzles/hit.txt"], stdin=subprocess.PIPE)
    buf = ""
    while "Your play" not in buf:
        ch = p.stdout.read(1)
        assert ch, "the quiz ended before asking"
        buf += ch
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=HANG)
    assert p.returncode == 130, err
    assert "score: 0 of 0" in out and "Aborted" not in out + err
    assert err.strip() == "interrupted (SIGINT)"


def test_quiz_end_of_input_prints_the_score():
    """Piped answers that run out (or Ctrl-D): the score, exit 0."""
    r = CliRunner().invoke(main, ["puzzles", "quiz", "--count", "3",
                                  str(ROOT / "positions/puzzles/hit.txt")], input="s\n")
    assert r.exit_code == 0, r.output
    assert "skipped" in r.output and "score: 0 of 0" in r.output
    assert "Aborted" not in r.output


class _SlowFinaliser:
    def __del__(self):
        time.sleep(0.2)         # the signal arrives while this runs


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_landing_in_a_finaliser_is_delivered_again(signum):
    """Python ignores an exception raised in a finaliser or weakref
    callback; the signal must still stop the command (it did not: a
    puzzles generate run went on after Ctrl-C)."""
    import threading
    from solver.runtime.interrupt import Interrupted, Signals
    with pytest.raises(SystemExit) as ended:
        with Signals() as sig:
            with pytest.raises(Interrupted) as caught:
                x = _SlowFinaliser()
                threading.Timer(0.05, os.kill, args=(os.getpid(), signum)).start()
                del x
                for _ in range(HANG * 10):
                    time.sleep(0.1)
    assert caught.value.signum == signum and sig.signum == signum
    # caught here and never reported: the block still ends the command
    assert ended.value.code == 128 + signum


_SWALLOW = ("import os, signal, time\n"
            "import solver.runtime.interrupt as i\n"
            "i.early_signals()\n"
            "{before}"
            "with i.Signals():\n"
            "    {inside}\n"
            "    print('ran on', flush=True)\n")
_SWALLOWED = ("try:\n"
              "    os.kill(os.getpid(), signal.SIGINT)\n"
              "    time.sleep(30)\n"
              "except:        # a library's bare except\n"
              "    pass\n")


@pytest.mark.parametrize("where", ["before", "inside"])
def test_a_signal_a_library_swallows_still_stops_the_command(where):
    """A bare ``except:`` (a library probing an optional import) can catch
    the KeyboardInterrupt a signal raises; the command must still end as
    interrupted (batch annotate once exited 0 after Ctrl-C at 1.5 s).
    Before the command's block: it does not start; inside: it ends with
    the signal's status when the block does."""
    if where == "before":
        code = _SWALLOW.format(before=_SWALLOWED, inside="pass")
    else:
        inside = "exec(" + repr(_SWALLOWED) + ")"
        code = _SWALLOW.format(before="", inside=inside)
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=HANG)
    assert p.returncode == 130, p.stderr
    assert p.stderr.strip() == "interrupted (SIGINT)"
    assert ("ran on" in p.stdout) == (where == "inside")


def test_an_exit_that_hangs_after_an_interruption_still_ends():
    """Python's exit waits for library threads; a pool whose workers were
    terminated has left it waiting on a lock for ever (seen once in the
    arena's and annotate's Ctrl-C tests). Once the command has said it
    was interrupted, the process ends anyway, with the signal's status."""
    code = ("import threading, signal\n"
            "import solver.runtime.interrupt as i\n"
            "i.EXIT_GRACE = 1.0\n"
            "threading.Thread(target=threading.Event().wait).start()   # never ends\n"
            "i.exit_interrupted(signal.SIGTERM, 'kept')\n")
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                       text=True, timeout=HANG)
    assert p.returncode == 143
    assert p.stderr.strip() == "interrupted (SIGTERM): kept"
    assert time.monotonic() - t0 < 60


def test_an_interruption_caught_in_process_arms_no_exit(monkeypatch, capsys):
    """The exit watchdog is armed when Python exits, not when the command
    says it was interrupted: a caller that catches the SystemExit (click's
    test runner, a test process) keeps running past the grace."""
    import threading
    import solver.runtime.interrupt as interrupt
    monkeypatch.setattr(interrupt, "EXIT_GRACE", 0.2)
    before = threading.active_count()
    with pytest.raises(SystemExit) as e:
        interrupt.exit_interrupted(signal.SIGINT, "nothing")
    assert e.value.code == 130
    assert capsys.readouterr().err.strip() == "interrupted (SIGINT): nothing"
    time.sleep(0.6)
    assert threading.active_count() == before       # no timer running: still here


def test_batch_ctrl_c_prints_the_summary_of_what_is_kept(tmp_path):
    """Ctrl-C in `batch selfplay` once the first chunks are in the store:
    the JSON summary still comes (``interrupted`` true, the chunks done),
    then the one line, status 130 (the interruption the batch caught to
    keep its summary ended the command before it printed it)."""
    import sqlite3
    db = tmp_path / "s.db"
    p = start(["batch", "selfplay", "--player", "mc:5", "--hands", "4000", "--chunk", "5",
               "--workers", "1", "--db", str(db), "--json", "-q"])

    def stored() -> int:
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as c:
                return c.execute("SELECT count(*) FROM games").fetchone()[0]
        except sqlite3.Error:
            return 0
    wait_until(lambda: stored() >= 2 or p.poll() is not None)
    os.killpg(p.pid, signal.SIGINT)
    code, out, err = finish(p)
    assert code == 130, err
    doc = json.loads(out)
    assert doc["interrupted"] is True and doc["complete"] is False
    assert doc["chunks_done"] >= 2 and doc["chunks_done"] == stored()
    last = err.strip().splitlines()[-1]
    assert last == (f"interrupted (SIGINT): {doc['chunks_done']} chunks finished are in the "
                    "store; the same command carries on")


def test_a_finaliser_left_half_built_by_the_signal_says_nothing_at_exit():
    """CI saw a Ctrl-C that landed in a numba compile end with the one line
    and then llvmlite's "Exception ignored in: ObjectRef.__del__ ...
    Traceback": an object the signal left half built fails in its
    finaliser when Python exits. Once the command has said it was
    interrupted, such errors are dropped; before any signal they are
    printed as Python prints them."""
    half_built = ("class Half:\n"
                  "    def __del__(self):\n"
                  "        del self._as_parameter_\n"
                  "keep = [Half()]\n"
                  "keep.append(keep)      # a cycle: finalised at the exit\n")
    code = ("import signal\n"
            "import solver.runtime.interrupt as i\n" + half_built
            + "del keep\n"
            "i.exit_interrupted(signal.SIGINT)\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                       text=True, timeout=HANG)
    assert p.returncode == 130 and p.stderr.strip() == "interrupted (SIGINT)", p.stderr
    plain = subprocess.run([sys.executable, "-c", half_built + "del keep\nimport gc\n"
                            "gc.collect()\n"], cwd=ROOT, capture_output=True, text=True,
                           timeout=HANG)
    assert "Exception ignored" in plain.stderr and "AttributeError" in plain.stderr


_SHIELDED = ("import os, signal, time\n"
             "import solver.runtime.interrupt as i\n"
             "i.early_signals()\n"
             "def callback():\n"
             "    os.kill(os.getpid(), signal.{name})\n"
             "    time.sleep(0.3)\n"
             "    return 'callback done'\n"
             "t0 = time.monotonic()\n"
             "try:\n"
             "    print({wrap}(), flush=True)\n"
             "    t0 = time.monotonic()\n"
             "    time.sleep(30)\n"
             "except KeyboardInterrupt as e:\n"
             "    late = time.monotonic() - t0 > 20\n"
             "    print('interrupted', e.signum, 'after the sleep' if late else '', flush=True)\n")


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("shield", [True, False])
def test_a_signal_landing_in_a_shielded_callback_is_delivered_after_it(name, shield):
    """A signal that lands in a library's callback from native code
    (llvmlite's object cache, as numba loads a kernel) waits until the
    callback has returned, then stops the command as usual (cut short,
    that callback can leave LLVM reading a length never written: the
    likely cause of a SIGSEGV on a SIGTERM while ``ronda-solve``
    started). Unshielded, it raises inside the callback."""
    code = _SHIELDED.format(name=name, wrap="i.shielded(callback)" if shield else "callback")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=HANG)
    signum = int(getattr(signal, name))
    lines = [line.strip() for line in p.stdout.splitlines()]
    # (delivered again as a signal to the main thread, it wakes the sleep
    # after the callback: marked as due only, it was heard 30 s later)
    if shield:
        assert lines == ["callback done", f"interrupted {signum}"], (p.stdout, p.stderr)
    else:
        assert lines == [f"interrupted {signum}"], (p.stdout, p.stderr)


def test_llvmlite_object_cache_callbacks_are_shielded():
    """Loading the engine shields llvmlite's object-cache callbacks (the
    only Python code LLVM calls while numba loads a cached kernel)."""
    code = ("import solver.engine.core\n"
            "from llvmlite.binding.executionengine import ExecutionEngine as E\n"
            "print(E._raw_object_cache_getbuffer.shielded, "
            "E._raw_object_cache_notify.shielded)\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=HANG)
    assert p.stdout.split() == ["True", "True"], p.stderr
