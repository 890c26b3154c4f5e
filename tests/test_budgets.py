"""``--time`` and ``--memory`` are promises: every method, and the choice of
method, returns within the time budget (plus 10% and a start-up margin)
and keeps its tables within the memory budget, for every rule system
(two, three and four players, Ronda voleur) and objective (points, the
match).

The margins are generous (the test machine is shared): 10% of the budget
plus 0.5 s of wall time; the memory test compares the peak resident size of
a child process with and without the search.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from solver.analysis.evaluation import BudgetError, evaluate
from solver.notation import parse_position
from solver.search import kernels as kn
from solver.search.compiled import Searcher, ensure_compiled, table_entries

ensure_compiled()

#: two players at the start of deal 3 of 6: 18 unseen cards (far past any budget)
UNSEEN_18 = ("7.11.10.6 6.1.6/7.5.10 ~10.2.7.2.10.6.3.4.11.12.1.5.1.3.12.3.1.11 S "
             "taken=6,6 last=N")
#: four players, known hands, the stock's 24 cards unknown
FOUR_UNKNOWN = "1.3.10.12 2.2.7/4.4.5/6.6.7/11.11.12 ? S rules=pagat"
#: the forced play (one card in hand) that took 5.9 s with --time 0.5
FORCED = ("2.4.5.6.10 -/11 ? N dealer=N taken=15,7 last=S prev=4 "
          "gone=1.1.1.1.2.2.3.3.3.4.4.5.6.7.7.10.10.11.12.12.12.12")
#: four players, hidden hands: the mover's view at the start of a hand
FOUR_HIDDEN = "1.3.10.12 2.2.7/?.?.?/?.?.?/?.?.? ? S rules=pagat"


def within(budget: float, elapsed: float) -> bool:
    return elapsed <= 1.1 * budget + 0.5


@pytest.mark.parametrize("line,method,budget", [
    (UNSEEN_18, "auto", 1.0),
    (UNSEEN_18, "determinised", 0.5),
    (FOUR_UNKNOWN, "auto", 0.5),
    (FOUR_UNKNOWN, "determinised", 0.5),
    (FOUR_HIDDEN, "auto", 0.5),
    (FORCED, "auto", 0.5),
])
def test_every_method_returns_within_the_time_budget(line, method, budget):
    pos = parse_position(line)
    t0 = time.perf_counter()
    a = evaluate(pos, method=method, time_budget=budget, workers=2)
    assert within(budget, time.perf_counter() - t0)
    assert a.moves


@pytest.mark.parametrize("line", [UNSEEN_18])
def test_expectimax_by_name_stops_at_the_budget_with_a_clear_error(line):
    pos = parse_position(line)
    t0 = time.perf_counter()
    with pytest.raises(BudgetError, match="expectimax did not finish in"):
        evaluate(pos, method="expectimax", time_budget=1.0)
    assert within(1.0, time.perf_counter() - t0)


def test_auto_falls_back_to_sampling_and_says_why(monkeypatch):
    # 12 unseen, exact expectimax takes about 0.3 s: with a 0.1 s budget
    # (and the attempt forced, whatever the estimate) it does not finish,
    # and auto samples for the time left and says so
    import solver.analysis.evaluation as analysis
    monkeypatch.setattr(analysis, "TRY_FACTOR", 1e9)
    line = "4.5.6 7.7.12/3.6.12 ~1.1.2.3.4.5.7.10.11.11.12.12 S dealer=N taken=9,10 last=N"
    t0 = time.perf_counter()
    a = evaluate(parse_position(line), time_budget=0.1)
    assert within(0.1, time.perf_counter() - t0)
    assert a.method == "deal"           # lmodire has a model of the deals to come
    assert "expectimax did not finish" in a.note and "12 unseen cards" in a.note
    assert "the deal search for the time left" in a.note and "no clairvoyance" in a.note
    # rules with no model: determinised search, which says it is clairvoyant
    monkeypatch.setattr(analysis, "deal_fits", lambda pos: False)
    t0 = time.perf_counter()
    a = evaluate(parse_position(line), time_budget=0.1)
    assert within(0.1, time.perf_counter() - t0)
    assert a.method == "determinised"
    assert "expectimax did not finish" in a.note and "12 unseen cards" in a.note
    assert "clairvoyance" in a.note


def test_auto_skips_an_expectimax_far_over_its_time():
    t0 = time.perf_counter()
    a = evaluate(parse_position(UNSEEN_18), time_budget=1.0)
    assert within(1.0, time.perf_counter() - t0)
    assert a.method == "deal"
    assert "expectimax would take more than" in a.note and "18 unseen cards" in a.note


def test_the_table_never_outgrows_the_memory_budget():
    """A search that would like a large table grows it only up to the
    budget, then replaces entries; its values stay exact."""
    from solver.engine.compile import compile_shuffled
    line = "4.5.6 7.7.12/3.6.12 ~1.1.2.3.4.5.7.10.11.11.12.12 S dealer=N taken=9,10 last=N"
    game, state = compile_shuffled(parse_position(line))
    P, D = game.P, game.D
    big = Searcher(P, D, 512.0).root_values(state)
    small = Searcher(P, D, 4.0)
    values = small.root_values(state)
    assert small.TT.nbytes <= 4.0 * 2 ** 20
    assert small.TT.shape[0] <= table_entries(4.0)
    assert small.stats()["tt_replaced"] > 0           # it was full and replaced
    assert values.keys() == big.keys()
    assert all(abs(values[m] - big[m]) < 1e-9 for m in big)


def _peak_rss_mb(args: list[str]) -> float:
    """Peak resident size (MB) of ``ronda-solve`` run in a child process."""
    code = ("import resource, sys\n"
            "from solver.cli.main import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,"
            " file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                       timeout=120, cwd=os.path.dirname(os.path.dirname(__file__)))
    return float(r.stderr.strip().splitlines()[-1])


def test_expectimax_keeps_the_memory_budget(tmp_path):
    """The 18-unseen expectimax would fill gigabytes; with --memory 64 the
    process's peak stays within 64 MB (plus 40 MB of margin) of the same
    command on a tiny position."""
    big = tmp_path / "big.txt"
    big.write_text(UNSEEN_18 + "\n")
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N\n")
    base = _peak_rss_mb(["--method", "exact", str(tiny)])
    peak = _peak_rss_mb(["--method", "expectimax", "--memory", "64", "--time", "4",
                         str(big)])
    assert peak - base <= 64 + 40, (base, peak)


def test_counters_stop_a_kernel_at_once():
    """The abort counter set from another thread unwinds the search within
    the deadline; the searcher reports it and can search again."""
    from solver.engine.compile import compile_shuffled
    from solver.search.compiled import SearchAborted
    game, state = compile_shuffled(parse_position(UNSEEN_18))
    s = Searcher(game.P, game.D, 64.0)
    t0 = time.monotonic()
    with pytest.raises(SearchAborted) as e:
        s.root_values(state, deadline=t0 + 0.3)
    assert e.value.reason == "time" and time.monotonic() - t0 < 0.8
    assert s.C[kn.C_ABORT] == 0


def test_exact_value_keeps_a_deadline_and_stays_usable():
    """The shared per-thread searcher of ``exact_value`` (the luck of the
    deal under ``annotate --time``) stops at its deadline, and the next
    call on it gives the plain reference's value (tests/reference.py)."""
    import random

    from reference import reference_general
    from test_expectimax import small_chance_position

    from solver.engine.compile import compile_shuffled
    from solver.search.compiled import SearchAborted, exact_value
    big, big_state = compile_shuffled(parse_position(UNSEEN_18))
    t0 = time.monotonic()
    with pytest.raises(SearchAborted):
        exact_value(big.P, big.D, big_state, time.perf_counter() + 0.2)
    assert time.monotonic() - t0 < 0.8
    rng = random.Random("exact-value-deadline")
    for _ in range(3):
        game, state, args, kw, taken = small_chance_position(rng, "lmodire", 2)
        slow = reference_general(*args, **kw)       # points, in the reference's unit
        best = max(2 * v - (taken[0] - taken[1]) for v in slow.values())
        assert exact_value(game.P, game.D, state, time.perf_counter() + 60) == \
            pytest.approx(best, abs=1e-9)


# --- every rule system and objective ------------------------------------------

#: three players at the start of a hand, every card known (a whole hand)
THREE_KNOWN = ("1.3.10.12 2.2.7/4.4.5/6.6.7 "
               "1.11.11.12.5.5.3.3.7.10.10.10.11.2.4.5.6.11.1.1.2.3.4.6.12.12.7 S rules=french")
#: three players, two deals to come, every card known
THREE_TWO_DEALS = ("1.3.10.12 2.2.7/4.4.5/6.6.7 1.11.11.12.5.5.3.3.7.10.10.10.11.2.4.5.6.11 "
                   "S rules=french dealer=N taken=4,3,2 last=S")
#: three players, the start of deal 2: the other hands and the stock hidden
THREE_HIDDEN = ("1.3.10.12 2.2.7/?.?.?/?.?.? ? S rules=french dealer=N taken=4,3,2 last=S "
                "gone=11.11.12.6.6.6.5.4.4")
#: three players, hands known, two deals in the shuffled stock
THREE_SHUFFLED = ("1.3.10.12 2.2.7/4.4.5/6.6.7 ~1.11.11.12.5.5.3.3.7.10.10.10.11.2.4.5.6.6 "
                  "S rules=french dealer=N taken=4,3,2 last=S")
#: Ronda voleur, two players, 18 unseen cards (three deals to come)
VOLEUR_18 = UNSEEN_18.replace(" S ", " S rules=french voleur=yes tops=11,12 ")
#: the match objective, 18 unseen cards, a close score
MATCH_18 = UNSEEN_18.replace(" S ", " S score=33,35 ")


@pytest.mark.parametrize("line,method,budget", [
    (THREE_HIDDEN, "auto", 0.5),
    (THREE_HIDDEN, "determinised", 0.5),
    (THREE_SHUFFLED, "auto", 0.5),
    (VOLEUR_18, "auto", 0.5),
    (VOLEUR_18, "determinised", 0.5),
])
@pytest.mark.parametrize("search", ["maxn", "paranoid"])
def test_every_system_returns_within_the_time_budget(line, method, budget, search):
    pos = parse_position(line)
    if pos.players != 3 and search == "paranoid":
        pytest.skip("paranoid: three players")
    t0 = time.perf_counter()
    a = evaluate(pos, method=method, time_budget=budget, workers=2, search=search)
    assert within(budget, time.perf_counter() - t0)
    assert a.moves


#: budgets far below each search: a known three-player hand takes about
#: 40 ms on the compiled core (a millisecond stops it), the expectimax
#: searches seconds
@pytest.mark.parametrize("line,method,budget", [(THREE_KNOWN, "exact", 0.001),
                                                (THREE_SHUFFLED, "expectimax", 0.05),
                                                (VOLEUR_18, "expectimax", 0.05)])
def test_exact_methods_of_every_system_stop_at_the_budget(line, method, budget):
    pos = parse_position(line)
    t0 = time.perf_counter()
    with pytest.raises(BudgetError, match="did not finish"):
        evaluate(pos, method=method, time_budget=budget)
    assert within(budget, time.perf_counter() - t0)


def test_the_match_objective_keeps_the_budgets():
    """The match objective has the points objective's budgets: expectimax
    by name at 18 unseen stops with an error, auto answers in time."""
    from solver.match_equity.evaluate import SearchTooBig, evaluate_match
    pos = parse_position(MATCH_18)
    t0 = time.perf_counter()
    with pytest.raises(SearchTooBig, match="did not finish"):
        evaluate_match(pos, method="expectimax", points=False, time_budget=0.5)
    assert within(0.5, time.perf_counter() - t0)
    t0 = time.perf_counter()
    a = evaluate_match(pos, points=False, time_budget=0.5, samples=64)
    assert within(0.5, time.perf_counter() - t0)
    assert a.method == "determinised" and a.moves


def test_the_vector_table_never_outgrows_the_memory_budget():
    """Three players: a whole-hand max^n grows its table of vectors only up
    to the budget, then replaces entries; its vectors stay exact."""
    from solver.engine.compile import known_problem
    from solver.search.vectors import VectorSearcher
    prob = known_problem(parse_position(THREE_TWO_DEALS))
    big = VectorSearcher(prob.P, prob.D, 256.0).root_values(prob.st)
    small = VectorSearcher(prob.P, prob.D, 1.0)
    values = small.root_values(prob.st)
    assert small.VT.nbytes <= 1.0 * 2 ** 20
    assert values == big
    # two threads replacing entries of one small shared table (sealed
    # entries: a slot two threads write at once never gives a wrong vector)
    two = VectorSearcher(prob.P, prob.D, 1.0, workers=2)
    assert two.root_values(prob.st) == big
    assert two.VT.nbytes <= 1.0 * 2 ** 20


def test_a_table_the_system_refuses_is_one_error_line_and_the_file_goes_on(
        tmp_path, monkeypatch):
    """When the system will not map the memory --memory allows (here every
    large mapping is refused, as ENOMEM does past the machine's memory),
    that position gets one error line naming memory, the other lines are
    still answered, and the exit status is 1 (not "cannot write standard
    output")."""
    import errno
    import json
    import mmap
    from click.testing import CliRunner
    from solver.cli.main import main

    def refuse(*_a, **_k):
        raise OSError(errno.ENOMEM, "Cannot allocate memory")
    monkeypatch.setattr(mmap, "mmap", refuse)
    known = "2.3 5.7/4.6/2.12 - S rules=french taken=10,11,11 last=E"
    f = tmp_path / "mix.txt"
    shuffled = "1.5.11 5/12/2 ~1.1.3.4.5.6.7.10.11 S rules=french taken=9,8,8 last=E"
    f.write_text(f"{known}\n{shuffled}\n{known}\n")
    r = CliRunner().invoke(main, [str(f), "--memory", "4000", "--json"])
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert [p["line"] for p in doc["positions"]] == [1, 3]
    assert len(doc["errors"]) == 1 and doc["errors"][0]["line"] == 2
    assert doc["errors"][0]["error"].startswith("memory: the system refused the ")
    assert doc["errors"][0]["error"].endswith("MB of a search table (cannot allocate memory): "
                                              "lower --memory")


def test_an_error_that_names_its_field_is_not_the_positions(monkeypatch):
    """The web's analysis words a refused table as the command line does,
    under its own field (``line 1, memory: ...``; it was ``line 1,
    position: memory: ...``); an error without a field is the position's."""
    import errno
    import mmap
    from solver.web.tasks import analyse

    def refuse(*_a, **_k):
        raise OSError(errno.ENOMEM, "Cannot allocate memory")
    monkeypatch.setattr(mmap, "mmap", refuse)
    shuffled = "1.5.11 5/12/2 ~1.1.3.4.5.6.7.10.11 S rules=french taken=9,8,8 last=E"
    doc = analyse(shuffled, memory_mb=4000)
    assert len(doc["errors"]) == 1 and doc["positions"] == []
    assert doc["errors"][0]["error"].startswith("line 1, memory: the system refused the ")
    over = analyse("5.6 5.7/3.3 - S", method="equilibrium")
    assert over["errors"][0]["error"].startswith("line 1, position: ")


def test_a_chance_node_too_large_asks_for_memory_not_time():
    """Three players of voleur with 18 unseen: the first chance node deals
    suited cards (the tops matter), far more outcomes than 20,000 MB allow
    (a tenth of it over six levels at 160 bytes an outcome: 20000 * 0.1 *
    2**20 / 6 / 160 = 2,184,533), so expectimax stops at once, and more
    time would not help: the error asks for memory, or sampling."""
    from solver.analysis.evaluation import BudgetError, evaluate
    from solver.notation import parse_position
    pos = parse_position("1.5.11.2 3.5.11/4.6.12/2.10.12 ~1.1.3.4.5.6.7.10.11.2.3.4.5.6.7.10.11.12"
                         " S rules=french voleur=yes taken=2,3,4 last=E tops=1,2,3")
    with pytest.raises(BudgetError) as e:
        evaluate(pos, method="expectimax", time_budget=30, memory_mb=20000)
    text = str(e.value)
    assert "a chance node has more than 2,184,533 outcomes" in text
    assert text.endswith(": raise --memory, or use --method auto to sample instead")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_match_search_sizes_its_tables_within_the_memory_budget(workers):
    """The match objective's line caches (each thread's scratch, at most
    ``LINE_MAX_ROWS`` 4-card entries and as many 5-6 card trees) come out
    of the transposition table's budget, as the group tables do: its
    largest table, its outcome caches and its line caches fit in
    ``--memory`` (a breaking pass measured 438 MB at ``--memory 200`` on
    ``3.6.10.12 1.5.5/2.7.11 ? S score=38,39`` against a 202 MB baseline;
    383 MB after)."""
    from solver.engine import endgame
    from solver.engine.compile import shuffled_problem
    from solver.match_equity.table import equity_array
    from solver.rules import PRESETS
    from solver.search.compiled import LINE_MAX_ROWS
    pos = parse_position("3.6.10.12 1.5.5/2.7.11 ~1.1.1.2.2.2.3.3.3.4.4.5.6.6.7.7.10.10.10.11.11."
                         "11.12.12 S score=38,39 taken=3,3 last=S")
    prob = shuffled_problem(pos, match=equity_array(PRESETS["lmodire"], 2))
    for memory in (200.0, 500.0):
        s = Searcher(prob.P, prob.D, memory, workers)
        rows = min(LINE_MAX_ROWS, s.max_entries // 16)
        lines = workers * endgame.scratch_words(rows) * 8
        assert rows == LINE_MAX_ROWS and lines > 20 * (1 << 20)
        cache = workers * sum(a.nbytes for a in s.O[:3])
        table = s.max_entries * kn.ENTRY_BYTES
        assert table + lines + cache <= memory * (1 << 20), (table, lines, cache)


def test_a_fresh_processs_first_match_answer_keeps_its_time():
    """The first match answer of a process loaded the compiled search
    (0.4 s) inside its clock: ``--time 0.5`` reported 0.65-0.74 s (0.83 s
    for the match search alone), and the points column was left 0.05 s.
    Loading is start-up, before the clock, as for the points objective."""
    code = ("import sys\n"
            "from solver.match_equity.objective import analyse\n"
            "from solver.notation import parse_position\n"
            "a = analyse(parse_position('3.6.10.12 1.5.5/2.7.11 ? S score=38,39'),"
            " objective='match', time_budget=0.5)\n"
            "print(a.objective, a.seconds, file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120, cwd=os.path.dirname(os.path.dirname(__file__)))
    objective, seconds = r.stderr.strip().splitlines()[-1].split()
    assert objective == "match" and float(seconds) <= 0.5 + 0.15, r.stderr
