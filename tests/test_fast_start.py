"""Fast start and fast small calls (issue 19): the commands that do not
search never load numba or the compiled core; the command list of
``--help`` is the commands' own; an exact solve's principal variation
comes from one kernel call and is the line the ply-by-ply search gives.
(The times themselves are measured by bench/bench_startup.py.)"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import sys
from solver.cli.main import main
try:
    main({args!r}, prog_name="ronda-solve")
except SystemExit as e:
    code = e.code
loaded = sorted(m for m in ("numba", "solver.engine.core", "solver.search.kernels",
                            "solver.analysis.evaluation", "dask", "fastapi")
                if m in sys.modules)
print("LOADED", ",".join(loaded), "EXIT", code, file=sys.stderr)
"""


def _loaded(args: list[str], stdin: str = "") -> tuple[list[str], int]:
    p = subprocess.run([sys.executable, "-c", PROBE.format(args=args)], cwd=ROOT,
                       input=stdin, capture_output=True, text=True, timeout=300)
    last = [line for line in p.stderr.splitlines() if line.startswith("LOADED")][-1]
    _tag, mods, _e, code = last.split(" ")
    return [m for m in mods.split(",") if m], int(code)


@pytest.mark.parametrize("args,stdin,code", [
    (["--version"], "", 0),
    (["--help"], "", 0),
    ([], "", 0),
    (["solve", "--help"], "", 0),
    (["annotate", "--help"], "", 0),
    (["met"], "", 0),
    (["met", "--json"], "", 0),
    (["db", "stats", "--db", "/nonexistent/x.db"], "", 2),
    (["-"], "5.8 5.7/3.3 - S\n", 1),             # a line that does not parse
])
def test_commands_that_do_not_search_do_not_load_the_core(args, stdin, code):
    loaded, exit_code = _loaded(args, stdin)
    assert exit_code == code
    assert loaded == []


def test_no_arguments_show_the_programs_help():
    """``ronda-solve`` alone showed ``solve``'s help ("Usage: ronda-solve
    solve ..."), listing no other command; now the whole program's, the
    commands listed, exit 0."""
    from click.testing import CliRunner
    from solver.cli.main import main
    r = CliRunner().invoke(main, [], prog_name="ronda-solve")
    assert r.exit_code == 0 and r.output.startswith("Usage: ronda-solve [OPTIONS]")
    assert "Commands:" in r.output and "annotate" in r.output and "puzzles" in r.output


LOADS = """
from solver.engine import core
from solver.search.compiled import ensure_compiled
ensure_compiled(parts=("exact",))
before = {f: len(getattr(core, f).overloads) for f in ("play", "taken_cards", "pile_of", "top_of")}
from solver.analysis.evaluation import evaluate
from solver.notation import parse_position
evaluate(parse_position("2.5 5.7/5.12 - S rules=french voleur=yes taken=20,14 last=N"))
after = {f: len(getattr(core, f).overloads) for f in before}
print(before, after)
"""


def test_an_exact_answer_loads_nothing_after_its_clock_starts():
    """The first exact answer of a process took 11-17 ms at ``--time 0.01``
    (1 ms the next): describing the plays called ``core.play`` from Python,
    whose compiled code was loaded then, inside the search's time. The
    warm-up before the clock now loads every function the answer calls
    (a fresh process: the overloads each has before and after)."""
    p = subprocess.run([sys.executable, "-c", LOADS], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    before, after = p.stdout.strip().split("} {")
    assert before + "}" == "{" + after and "'play': 1" in before, p.stdout


def test_a_usage_error_shows_the_command_line_as_typed():
    """``ronda-solve --samples x FILE`` (no command named) printed "Usage:
    ronda-solve solve [OPTIONS] FILES..."; the usage is the one typed, the
    hint still the help that lists solve's options. Naming solve keeps it."""
    from click.testing import CliRunner
    from solver.cli.main import main
    r = CliRunner().invoke(main, ["--samples", "x", "positions/seeds.txt"], prog_name="ronda-solve")
    assert r.exit_code == 2
    assert r.output.splitlines()[:2] == ["Usage: ronda-solve [OPTIONS] FILES...",
                                         "Try 'ronda-solve solve --help' for help."]
    r = CliRunner().invoke(main, ["solve", "--samples", "x", "positions/seeds.txt"],
                           prog_name="ronda-solve")
    assert r.exit_code == 2
    assert r.output.splitlines()[0] == "Usage: ronda-solve solve [OPTIONS] FILES..."


def test_the_help_list_is_the_commands_own():
    from solver.cli.main import LAZY, main
    ctx = click.Context(main)
    for name, (_module, _attr, short) in LAZY.items():
        command = main.get_command(ctx, name)
        assert command is not None and command.name == name
        assert command.get_short_help_str(10_000) == short


def _whole_hand(seed: int, preset: str, players: int):
    from solver.engine.hand import Hand as Game
    from solver.rules import PRESETS
    rng = random.Random(f"pv-{preset}-{players}-{seed}")
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    n = 3 if preset != "online" else 4
    table = 4 if preset != "online" else 0
    hands = [deck[table + n * i:table + n * (i + 1)] for i in range(players)]
    game = Game(PRESETS[preset], players, 0, deck[table + n * players:])
    P, D = game.P, game.D
    return P, D, game.initial_state(deck[:table], hands, 0)


@pytest.mark.parametrize("preset,players", [("lmodire", 2), ("pagat", 4), ("french", 2)])
def test_the_one_call_principal_variation_is_the_ply_by_ply_line(preset, players):
    from solver.search.compiled import Searcher, ensure_compiled
    ensure_compiled()
    for seed in range(12):
        P, D, st = _whole_hand(seed, preset, players)
        values, pv = Searcher(P, D, 8.0).root_values_and_pv(st, None)
        s = Searcher(P, D, 8.0)
        assert values == s.root_values(st)
        assert pv == s.principal_variation(st)
        assert len(pv) >= 3 * players       # at least the first deal


def test_the_one_call_line_stops_at_the_next_deal_when_the_stock_is_unknown():
    from solver.engine.hand import Hand as Game
    from solver.rules import PRESETS
    from solver.search.compiled import Searcher, ensure_compiled
    ensure_compiled()
    game = Game(PRESETS["lmodire"], 2, 0, [0, 1, 2, 3, 4, 5], True)
    P, D = game.P, game.D
    st = game.initial_state([6, 7], [[8, 9, 9], [5, 5, 4]], 0)
    values, pv = Searcher(P, D, 8.0).root_values_and_pv(st, None)
    s = Searcher(P, D, 8.0)
    assert values == s.root_values(st) and pv == s.principal_variation(st)
    assert len(pv) == 6                     # the deal's six cards, then chance


_NO_LOAD = """
import sys
from numba.core import dispatcher
import solver.analysis.evaluation as ev
from solver.notation import parse_position
inside, loaded = [False], []
search = ev._evaluate                 # evaluate's search, once its clock has started
def timed(*args, **kwargs):
    inside[0] = True
    try:
        return search(*args, **kwargs)
    finally:
        inside[0] = False
ev._evaluate = timed
load = dispatcher._DispatcherBase._compile_for_args
def record(self, *args, **kwargs):
    if inside[0]:
        loaded.append(self.py_func.__name__)
    return load(self, *args, **kwargs)
dispatcher._DispatcherBase._compile_for_args = record
for line in sys.argv[1:]:
    ev.evaluate(parse_position(line), time_budget=0.01)
print(",".join(sorted(set(loaded))))
"""


def test_the_clock_starts_after_every_kernel_a_search_calls_is_loaded():
    """``--time`` counts search, not loading: evaluate warms the kernels a
    method needs before its clock starts (ensure_compiled's parts, the deal
    search's warm). A kernel first called from Python inside the clock
    (auto's cost guess for three players, a draw for the one-ply answer,
    each play's effect) cost 10-40 ms of a 10 ms budget. In a fresh
    process, every kernel loaded once a search's clock has started is
    recorded."""
    lines = ["1.5.11 5/12/2 ~1.1.3.4.5.6.7.10.11 S rules=french taken=9,8,8 last=E",
             "1.3.5.11 2.10.7/4.6.12/1.1.7 ? S rules=french",
             "1.3.5.11 2.10.7/4.6.12 ? S",
             "1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N"]
    p = subprocess.run([sys.executable, "-c", _NO_LOAD, *lines], cwd=ROOT, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == ""
