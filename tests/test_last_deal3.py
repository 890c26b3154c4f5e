"""The three-sided searches without the table (:mod:`solver.engine.endgame3`:
the last deal, ``C_LEAN``, and the deal before it with the last deal's
roots memoised, ``C_LEAN2``) against max^n on the table throughout: every
root move's vector identical, on random positions of every three-player
rule system they cover (tests/systems.py: the presets' house rules, the
answers, a known and a shuffled stock), on whole hands from the start of
deals 2 and 3, and each state's own vector by :func:`lean3_state` and
:func:`lean2_state` against the table's choice."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.engine import core
from solver.engine.compile import known_problem, shuffled_problem
from solver.engine.endgame3 import covers2, covers3, lean2_state, lean3_state, new_memo
from solver.rules import PRESETS
from solver.search import kernels as kn
from solver.search.vectors import VectorSearcher, choose
from systems import random_position, systems

THREE = [s for s in systems() if s.players == 3 and not s.rules.voleur]


def _at_deal(seed: str, deal: int, rules=PRESETS["french"]):
    """bench_systems.py's position: a seeded three-player hand at the start
    of ``deal`` (every play so far the lowest card), known stock."""
    sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))
    from bench_systems import at_deal
    return known_problem(at_deal(rules, 3, seed, deal).full_position())


def _searcher(prob, mode: str) -> VectorSearcher:
    """A max^n searcher: ``mode`` "off" (the table throughout), "default"
    (a new search's settings) or "all" (without the table wherever the
    lean searches may play)."""
    s = VectorSearcher(prob.P, prob.D, 8.0)
    if mode != "default":
        s.C[kn.C_LEAN] = 64 if mode == "all" else 0
        s.C[kn.C_LEAN2] = 64 if mode == "all" and not prob.P[core.P_SHUFFLED] else 0
    return s


def _same(prob) -> int:
    """Every root move's vector with and without the lean searches,
    compared exactly; returns the decision nodes they searched."""
    off = _searcher(prob, "off").root_values(prob.st)
    lean = 0
    for mode in ("all", "default"):
        s = _searcher(prob, mode)
        on = s.root_values(prob.st)
        assert on == off, (mode, on, off)
        if mode == "all":
            lean += int(s.C[kn.C_LNODES])
    return lean


@pytest.mark.parametrize("system", THREE, ids=str)
def test_lean_searches_equal_the_table(system):
    rng = random.Random(f"lean3-{system}")
    build = shuffled_problem if system.shuffled else known_problem
    lean = 0
    for _ in range(12):
        prob = build(random_position(rng, system))
        assert covers3(prob.P)
        lean += _same(prob)
    assert lean > 0         # the positions reached the lean searches


@pytest.mark.parametrize("system", [s for s in THREE if not s.shuffled], ids=str)
def test_whole_deals_equal_the_table(system):
    """Known stock from the start of deal 3 of 4 (and french from deal 2):
    the deal before the last searched by lean2 with its memo, the last by
    lean3."""
    for deal in (2, 3) if system.name == "french-3p" else (3,):
        for seed in range(8 if deal == 3 else 2):
            assert _same(_at_deal(f"lean3-{seed}", deal, system.rules)) > 0


def _state_vector(prob) -> tuple:
    values = _searcher(prob, "off").root_values(prob.st)
    return values[choose(values, int(prob.P[core.P_SIDE + prob.st[5]]))]


def test_each_state_vector():
    """lean3_state (the last deal) and lean2_state (the deal before it)
    give the vector max^n's tie rule chooses at the state itself."""
    checked = {2: 0, 3: 0}
    for system in THREE:
        if system.shuffled:
            continue
        rng = random.Random(f"lean3-state-{system}")
        for i in range(10):
            prob = known_problem(random_position(rng, system))
            st, P, D = prob.st, prob.P, prob.D
            M = new_memo()
            if core.is_last_deal(P, st):
                got = lean3_state(P, st)
                kind = 3
            elif covers2(P, D, st):
                got = lean2_state(P, D, M, i + 1, st)
                kind = 2
            else:
                continue
            want = _state_vector(prob)
            assert tuple(float(v) for v in got[:3]) == tuple(want), (system, st, got, want)
            checked[kind] += 1
    assert checked[2] > 0 and checked[3] > 0


def test_memo_generations():
    """A memo entry of another generation (another game) is never read."""
    prob = _at_deal("lean3-memo", 3)
    M = new_memo()
    a = lean2_state(prob.P, prob.D, M, 1, prob.st)
    assert np.any(M[:, 1] == 1) and a[3] > 0
    prob2 = _at_deal("lean3-memo-2", 3)
    b = lean2_state(prob2.P, prob2.D, M, 2, prob2.st)
    fresh = lean2_state(prob2.P, prob2.D, new_memo(), 1, prob2.st)
    assert b[:3] == fresh[:3]


def test_lean2_plays_deals_of_three_cards_only():
    """``lean2`` searches the deal before the last from its start; with
    deals of 4 cards (24 cards in that deal for three players) the table
    is faster (the whole hand of docs/performance.md: 208 against 347
    million nodes), so a new search leaves it off there. Forced on, its
    values there still equal the table's."""
    from solver.search.vectors import lean2_default
    four = PRESETS["french"].with_overrides({"deal_size": "4"})
    assert lean2_default(_at_deal("lean2-4", 2).P) == 64
    prob = _at_deal("lean2-4", 2, four)
    assert covers3(prob.P) and lean2_default(prob.P) == 0
    assert _same(prob) > 0
