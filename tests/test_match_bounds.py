"""The match objective's sure bounds on a chance node
(:func:`solver.engine.core.match_bounds`, read by Star1 in the search):
on chance nodes that deal the last deal of real hands, with match-equity
tables of random numbers (not monotone in the scores: the bound must
take the least and the most of the table over every reachable pair of
scores, not its corners), the node's exact value (every outcome solved by
the last-deal solver, no bound involved) lies inside the bounds, and the
bounds are tighter than the whole range on some of them (the check is
not empty)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from solver.engine import core
from solver.engine.compile import shuffled_problem
from solver.engine.tables import MatchLeaves
from solver.rules import PRESETS, deal_sizes
from solver.search import kernels as kn

import kernel_calls
from hands import played_to_chance, played_to_deal


def _chance_node(rules, seed: int, score):
    """A shuffled problem at the start of the deal before the last, played
    in the core (random legal ranks) to the chance node of the last deal;
    ``(P, D, state)`` or None."""
    rng = random.Random(seed)
    hs = played_to_deal(rules, rng, len(deal_sizes(rules, 2)) - 1)
    if hs is None:
        return None
    pos = hs.full_position()
    pos.stock_kind = "shuffled"
    pos.score = score
    T = rules.target
    leaves = MatchLeaves(T, np.random.default_rng(seed).random((2, T + 1, T + 1)),
                         (rng.random(), rng.random()))
    prob = shuffled_problem(pos, match=leaves)
    return played_to_chance(prob.P, prob.D, prob.st, rng)


def _exact(P, D, st) -> float:
    """The chance node's value for its side to move: every outcome of the
    last deal by the game's last-deal solver under a full window."""
    K = kn.new_scratch()
    C = kn.new_counters()
    probs, rows = core.deal_table(P, st, 1 << 20)
    total = 0.0
    for i in range(len(probs)):
        child = core.dealt_child(P, st, rows, i)
        assert core.is_last_deal(P, child)
        v = kernel_calls.solve(P, D, K, C, 0, child, -kn.LEAN_INF, kn.LEAN_INF)
        total += probs[i] * (float(rows[i, core.DR_GAIN]) + float(v))
    return total


@pytest.mark.parametrize("preset", ["lmodire", "french", "pagat"])
def test_match_chance_bounds_hold_the_exact_value(preset):
    rules = PRESETS[preset]
    T = rules.target
    checked = tight = 0
    for seed in range(40):
        rng = random.Random(f"bounds-{preset}-{seed}")
        score = (T - 1 - rng.randrange(T // 2), T - 1 - rng.randrange(T // 2))
        found = _chance_node(rules, seed, score)
        if found is None:
            continue
        P, D, st = found
        lo, hi = core.chance_bounds(P, st)
        v = _exact(P, D, st)
        tol = 1e-9 * core.EQ_SCALE     # the rounding of the sum of the outcomes
        assert lo - tol <= v <= hi + tol, (preset, seed, score, lo, v, hi)
        assert -core.EQ_SCALE <= lo <= hi <= core.EQ_SCALE
        checked += 1
        tight += hi - lo < 2 * core.EQ_SCALE
    assert checked >= 20
    assert tight >= 3
