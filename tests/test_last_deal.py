"""The last-deal alpha-beta (:func:`solver.search.kernels.last_deal`, no
transposition table) and the exact solve of a chance node that deals the
last deal (``C_LEXACT``) against the general kernel with both switched off,
and against the plain references of tests/: on random positions of every
two-sided rule system (tests/systems.py: two and four players, voleur, the
house rules, the points and the match objectives, known and shuffled
stock), and on the 12-unseen bench positions (two deals below a chance
node each)."""

from __future__ import annotations

import math
import random

import pytest

from solver.engine.compile import known_problem, shuffled_problem
from solver.engine import core
from solver.search import kernels as kn
from solver.search.compiled import Searcher
import kernel_calls
from hands import played_to_deal
from systems import agree, engine_values, random_leaves, random_position, reference_values, systems

TWO_SIDED = [s for s in systems() if s.players != 3]


def _values(prob, mode: str) -> dict:
    """Every root move's value: ``mode`` "all" (the last-deal alpha-beta
    at every state of the last deal and every chance node dealing it),
    "off" (the general kernel throughout) or "default" (a new search's
    settings)."""
    s = Searcher(prob.P, prob.D, 8.0)
    if mode != "default":
        s.C[kn.C_LEAN] = 64 if mode == "all" else 0
        s.C[kn.C_LEXACT] = 64 if mode == "all" else 0
    values = s.root_values(prob.st)
    return values, s.stats()


@pytest.mark.parametrize("system", TWO_SIDED, ids=str)
def test_last_deal_equals_general_kernel_and_reference(system):
    rng = random.Random(f"last-deal-{system}")
    lean_nodes = 0
    for i in range(10):
        pos = random_position(rng, system)
        leaves = leaf = None
        if system.match:
            leaves, leaf = random_leaves(rng, system.rules.target)
        prob = (shuffled_problem if system.shuffled else known_problem)(pos, match=leaves)
        off, st_off = _values(prob, "off")
        assert st_off["last_deal_nodes"] == 0
        for mode in ("all", "default"):
            on, st_on = _values(prob, mode)
            if mode == "all":
                lean_nodes += st_on["last_deal_nodes"]
            assert on.keys() == off.keys(), pos
            for m in on:
                assert abs(on[m] - off[m]) <= 1e-9 * max(1.0, abs(off[m])), (pos, mode, on, off)
        if i < 3:       # the plain reference (seconds a position for some systems)
            assert agree(reference_values(pos, system, leaf), engine_values(pos, system, leaves))
    assert lean_nodes > 0       # the positions reached the last-deal solver


def _last_deal_states(rng, system, count):
    """Random states of the last deal (the stock empty) of ``system``."""
    out = []
    while len(out) < count:
        pos = random_position(rng, system)
        leaves = random_leaves(rng, system.rules.target)[0] if system.match else None
        prob = (shuffled_problem if system.shuffled else known_problem)(pos, match=leaves)
        if core.is_last_deal(prob.P, prob.st) and not core.is_terminal(prob.P, prob.st):
            out.append(prob)
    return out


@pytest.mark.parametrize("system", [s for s in TWO_SIDED if not s.shuffled], ids=str)
def test_last_deal_is_fail_soft_alpha_beta(system):
    """Under any window the last-deal alpha-beta returns the exact value
    inside it, an upper bound at or below alpha and a lower bound at or
    above beta (what negamax promises its callers)."""
    rng = random.Random(f"fail-soft-{system}")
    for prob in _last_deal_states(rng, system, 6):
        K = kn.new_scratch()
        C = kn.new_counters()
        exact = kn.last_deal(prob.P, prob.D, K, C, 0, prob.st, -math.inf, math.inf)
        s = Searcher(prob.P, prob.D, 8.0)
        s.C[kn.C_LEAN] = 0
        assert exact == s.value(prob.st)
        scale = core.EQ_SCALE if system.match else 1
        for _ in range(8):
            a = exact + rng.randint(-12, 12) * scale / (8 if system.match else 1)
            b = a + rng.randint(1, 12) * scale / (8 if system.match else 1)
            v = kn.last_deal(prob.P, prob.D, K, C, 0, prob.st, a, b)
            if a < exact < b:
                assert v == exact
            elif exact <= a:
                assert exact <= v <= a
            else:
                assert b <= v <= exact


@pytest.mark.parametrize("seed", [1, 6])
def test_twelve_unseen_values_unchanged(seed):
    """Two of the bench's 12-unseen positions (bench/bench_core.py em12):
    every root move's value with a new search's settings (the last chance
    nodes solved exactly, their last deals without the table) equals the
    general kernel's to 1e-9."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))
    from bench_core import start_of_deal
    game, state = start_of_deal(12, seed)
    values = {}
    for lean in (True, False):
        s = Searcher(game.P, game.D, 64.0)
        if not lean:
            s.C[kn.C_LEXACT] = 0
        values[lean] = s.root_values(state)
        assert (s.stats()["last_deal_nodes"] > 0) == lean      # the default uses it
    assert values[True].keys() == values[False].keys()
    for m in values[False]:
        assert abs(values[True][m] - values[False][m]) <= 1e-9


GAME_SOLVED = [s for s in TWO_SIDED if not s.shuffled and (s.rules.voleur or s.match)]


@pytest.mark.parametrize("system", GAME_SOLVED, ids=str)
def test_game_solver_equals_general_kernel_and_reference(system):
    """The game's own last-deal solver (:func:`endgame.solve`: Ronda voleur
    by :func:`endgame.value` through ``play_general``, the match objective
    by :func:`endgame.match_value`) on random last-deal positions: the value
    of the position equals the general kernel's (the table, ``gen_children``,
    no last-deal solver) and the best of the plain reference's values."""
    from solver.engine import endgame
    rng = random.Random(f"game-solver-{system}")
    K = kn.new_scratch()
    C = kn.new_counters()
    checked = 0
    while checked < 12:
        pos = random_position(rng, system)
        leaves = leaf = None
        if system.match:
            leaves, leaf = random_leaves(rng, system.rules.target)
        prob = known_problem(pos, match=leaves)
        if not core.is_last_deal(prob.P, prob.st) or core.is_terminal(prob.P, prob.st):
            continue
        assert endgame.covers(prob.P)
        v = kernel_calls.solve(prob.P, prob.D, K, C, 0, prob.st, -kn.LEAN_INF,
                          kn.LEAN_INF)
        s = Searcher(prob.P, prob.D, 8.0)
        s.C[kn.C_LEAN] = 0
        s.C[kn.C_LEXACT] = 0
        assert v == s.value(prob.st), pos
        assert s.stats()["last_deal_nodes"] == 0
        ref = max(reference_values(pos, system, leaf).values())
        mine = (v / core.EQ_SCALE + 1) / 2 if system.match else (v + prob.base) / 2
        assert abs(mine - ref) <= 1e-9, (pos, mine, ref)
        checked += 1
    assert C[kn.C_LNODES] > 0       # positions with a choice were searched


MATCH_TWO = [s for s in TWO_SIDED if s.match and not s.shuffled]


@pytest.mark.parametrize("system", MATCH_TWO, ids=str)
def test_match_value_fails_high_at_once_soundly(system):
    """:func:`endgame.match_value` stops at a play whose line ends at beta
    or above (the node's other plays and their forced rests not played):
    under windows around and away from the exact value (by the general
    kernel without the last-deal solver) it still returns the exact value
    inside the window and a bound on the right side outside it (a stop at
    a line that reaches beta but is not the best returns a lower bound
    under the exact value, and a parent's upper bound over it); and
    bounds other than the exact value are returned (the check is not
    empty)."""
    rng = random.Random(f"match-fail-high-{system}")
    K = kn.new_scratch()
    C = kn.new_counters()
    bounds = 0
    for prob in _last_deal_states(rng, system, 80):
        s = Searcher(prob.P, prob.D, 8.0)
        s.C[kn.C_LEAN] = 0
        s.C[kn.C_LEXACT] = 0
        exact = s.value(prob.st)
        for _ in range(10):
            a = exact + rng.randint(-24, 8) * core.EQ_SCALE / 16
            b = a + rng.randint(1, 16) * core.EQ_SCALE / 16
            v = float(kernel_calls.solve(prob.P, prob.D, K, C, 0, prob.st,
                                    int(math.floor(a)), int(math.ceil(b))))
            if a < exact < b:
                assert v == exact, (prob.st, a, b, v, exact)
            elif exact <= a:
                assert exact <= v <= a
                bounds += v != exact
            else:
                assert b <= v <= exact
                bounds += v != exact
    assert bounds > 0


@pytest.mark.parametrize("players, deal, lean", [(2, 1, 6), (2, 2, 4), (4, 2, 6), (4, 3, 4)])
def test_lean_by_root_keeps_values(players, deal, lean):
    """A new search of the match objective sets ``C_LEAN`` by its root
    (:func:`endgame.lean_for`: more of the last deal by its lines from the
    first deal of two players, the first two of four): the setting
    expected from the deal, and every root move's value equal to the
    general kernel's without the last-deal solver (``C_LEAN`` 0, which the
    searcher then keeps: the caller's setting stands)."""
    from solver.match_equity.table import equity_array
    from solver.rules import PRESETS
    rules = PRESETS["lmodire"]
    leaves = equity_array(rules, 2)
    for i in range(2):
        hs = played_to_deal(rules, random.Random(f"lean-{players}-{deal}-{i}"), deal,
                            choose=lambda legal: min(legal, key=lambda c: c.index),
                            players=players)
        pos = hs.full_position()
        pos.score = (30, 30)
        prob = known_problem(pos, match=leaves)
        on = Searcher(prob.P, prob.D, 64.0)
        got = on.root_values(prob.st)
        assert on.C[kn.C_LEAN] == lean
        off = Searcher(prob.P, prob.D, 64.0)
        off.C[kn.C_LEAN] = 0
        off.C[kn.C_LEXACT] = 0
        want = off.root_values(prob.st)
        assert off.C[kn.C_LEAN] == 0
        assert off.stats()["last_deal_nodes"] == 0
        assert got.keys() == want.keys()
        for m in want:
            assert abs(got[m] - want[m]) <= 1e-9 * max(1.0, abs(want[m])), (pos, got, want)
