"""The match objective's group bounds (:func:`solver.engine.core.dominance`,
read by the search through its group table, ``kernels.group_bounds``): a
state whose side to move has at least (at most) the score and the pile,
and whose other side at most (at least), with a last capturer no worse
(no better) for the mover, is worth at least (at most) as much to the
mover, when the match-equity table grows with a side's score.

Checked on exact values (the search without the group table): random
positions of every two-sided match system that allows the bounds, their
scores and piles moved by a few points and cards and their last
capturer changed, every pair the order claims compared; then the search with the group table gives the same
values as without it, with fewer nodes (the check is not empty). A table
that is not monotone, and Ronda voleur, leave the bounds off."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hands import played_to_deal
from systems import random_leaves, random_position, systems

from solver.engine import core
from solver.engine.compile import known_problem, shuffled_problem
from solver.match_equity.table import equity_array
from solver.rules import PRESETS
from solver.search import kernels as kn
from solver.search.compiled import Searcher

#: the two-sided match systems without voleur (the bounds' domain)
SYSTEMS = [s for s in systems() if s.match and s.players != 3 and not s.rules.voleur]


def _plain_value(P, D, st) -> float:
    """``st``'s exact value for its mover by the search without a group
    table (alpha-beta and expectimax under a full window)."""
    C = kn.new_counters()
    TT, TF = kn.new_table(1 << 14)
    OK, OP, OR = kn.new_outcome_cache(1 << 12, 1 << 8)
    return float(kn.value(P, D, kn.new_scratch(), TT, TF, C, OK, OP, OR, kn.new_groups(0),
                          st, -np.inf, np.inf))


def _variants(st, rng: random.Random):
    """States of the same cards: the scores and the piles moved, the last
    capturer changed."""
    out = []
    for _ in range(6):
        y = st[10]
        for k in range(2):
            y = core.with_score(y, k, core.score_of(y, k) + rng.randint(-3, 3))
            y = core.with_pile(y, k, core.pile_of(y, k) + rng.randint(-4, 4))
        last = st[8] if rng.random() < 0.5 else rng.choice([-1, 0, 1])
        out.append(st[:8] + (last, st[9], y))
    return out


@pytest.mark.parametrize("system", SYSTEMS, ids=str)
def test_dominance_orders_exact_values(system):
    rng = random.Random(f"dominance-{system}")
    checked = strict = 0
    for _ in range(30):
        pos = random_position(rng, system)
        leaves, _leaf = random_leaves(rng, system.rules.target, monotone=True)
        prob = (shuffled_problem if system.shuffled else known_problem)(pos, match=leaves)
        P, D, st = prob.P, prob.D, prob.st
        assert P[core.P_CANON] & core.CANON_DOMINANCE
        if core.is_terminal(P, st):
            continue
        v = _plain_value(P, D, st)
        for other in _variants(st, rng):
            d = core.dominance(P, st, core.group_word(other))
            if not d:
                continue
            w = _plain_value(P, D, other)
            tol = 1e-9 * core.EQ_SCALE
            if d & 1:
                assert w >= v - tol, (pos, v, w)
            if d & 2:
                assert w <= v + tol, (pos, v, w)
            checked += 1
            strict += d != 3 and abs(w - v) > tol
    assert checked >= 20 and strict >= 5, (checked, strict)


def test_bounds_only_for_monotone_tables_without_voleur():
    rng = random.Random("dominance-bit")
    pos = random_position(rng, next(s for s in SYSTEMS if s.name == "match-lmodire-2p"))
    shipped = equity_array(PRESETS["lmodire"], 2)
    assert known_problem(pos, match=shipped).P[core.P_CANON] & core.CANON_DOMINANCE
    rough = random_leaves(rng, 41)[0]
    assert not known_problem(pos, match=rough).P[core.P_CANON] & core.CANON_DOMINANCE
    vol = next(s for s in systems() if s.name == "match-voleur-2p")
    vpos = random_position(rng, vol)
    assert not known_problem(vpos, match=shipped).P[core.P_CANON] & core.CANON_DOMINANCE


def _hand(seed: str, deal: int, shuffled: bool, score):
    """A real hand of lmodire at the start of deal ``deal``, every play so
    far the lowest card (as bench/bench_systems.py), with the shipped table."""
    rules = PRESETS["lmodire"]
    hs = played_to_deal(rules, random.Random(seed), deal,
                        lambda legal: min(legal, key=lambda c: c.index))
    pos = hs.full_position()
    pos.score = score
    leaves = equity_array(rules, 2)
    if shuffled:
        pos.stock_kind = "shuffled"
        return shuffled_problem(pos, match=leaves)
    return known_problem(pos, match=leaves)


@pytest.mark.parametrize("deal,shuffled,saved", [(1, False, 0.3), (5, True, 0.05)])
def test_group_table_keeps_every_value(deal, shuffled, saved):
    """Whole hands (a known stock) and the last two deals (6 unseen): every
    root move's value with the group table equals the one without it,
    bit for bit, and the group table saves nodes (at least ``saved`` of
    them: the check is not empty)."""
    with_g = without = 0
    for seed in range(6):
        prob = _hand(f"dominance-{seed}", deal, shuffled, (30 + seed % 3, 31 - seed % 4))
        a = Searcher(prob.P, prob.D, 16.0)
        b = Searcher(prob.P, prob.D, 16.0)
        b.O = (*b.O[:3], kn.new_groups(0))
        b._fit_groups = lambda: None
        va = a.root_values(prob.st)
        vb = b.root_values(prob.st)
        assert va == vb, (seed, va, vb)
        with_g += a.nodes
        without += b.nodes
    assert with_g < (1 - saved) * without, (with_g, without)
