"""Ronda voleur's sure bounds on a chance node
(:func:`solver.engine.core.chance_bounds` through
:func:`~solver.engine.core.voleur_pile_swing`, read by Star1 in the
search): on chance nodes that deal the last deal of real hands played at
random (so that piles are stolen and tops left exposed), every outcome's
exact value (its deal's gain plus its last deal solved by the game's
last-deal solver, no bound involved) lies inside the bounds, as Star1
needs of each outcome and not only of their mean; and the bounds are
tighter than the whole-pile bound on many of them (the check is not
empty)."""

from __future__ import annotations

import random

import pytest

from solver.engine import core
from solver.engine.compile import shuffled_problem
from solver.rules import PRESETS, deal_sizes
from solver.search import kernels as kn

import kernel_calls
from hands import played_to_chance, played_to_deal


def _chance_node(rules, seed: int):
    """A voleur hand played at random to the chance node of its last deal
    (a shuffled stock from the deal before): ``(P, D, state)`` or None."""
    rng = random.Random(seed)
    hs = played_to_deal(rules, rng, len(deal_sizes(rules, 2)) - 1)
    if hs is None:
        return None
    pos = hs.full_position()
    pos.stock_kind = "shuffled"
    prob = shuffled_problem(pos)
    return played_to_chance(prob.P, prob.D, prob.st, rng)


def _outcome_values(P, D, st) -> list[float]:
    """Each outcome's ``x``, the deal's gain plus the value of its last
    deal for the side to move, by the game's last-deal solver under a full
    window."""
    K = kn.new_scratch()
    C = kn.new_counters()
    probs, rows = core.deal_table(P, st, 1 << 20)
    out = []
    for i in range(len(probs)):
        child = core.dealt_child(P, st, rows, i)
        assert core.is_last_deal(P, child)
        v = kernel_calls.solve(P, D, K, C, 0, child, -kn.LEAN_INF, kn.LEAN_INF)
        out.append(float(rows[i, core.DR_GAIN]) + float(v))
    return out


@pytest.mark.parametrize("preset", ["french", "lmodire"])
def test_voleur_chance_bounds_hold_every_outcome(preset):
    rules = PRESETS[preset].with_overrides({"voleur": "yes"})
    checked = tighter = 0
    for seed in range(150):
        found = _chance_node(rules, f"vbounds-{preset}-{seed}")
        if found is None:
            continue
        P, D, st = found
        lo, hi = core.chance_bounds(P, st)
        xs = _outcome_values(P, D, st)
        assert all(lo <= x <= hi for x in xs), (preset, seed, lo, min(xs), max(xs), hi)
        # the whole-pile bound it replaces
        gain_o, loss_m = core.voleur_pile_swing(P, st)
        x = st[10]
        whole = hi - 2 * gain_o + 2 * (core.pile_of(x, 0) + core.pile_of(x, 1))
        assert lo == -(hi - 2 * gain_o + 2 * loss_m)
        assert -whole <= lo <= hi <= whole
        checked += 1
        tighter += hi < whole or lo > -whole
    assert checked >= 100
    assert tighter >= checked // 2


def test_voleur_pile_swing_is_each_pile_a_steal_can_still_reach():
    """The pile terms: the other side's pile counts for the side to move's
    gain and its own pile for its loss; a pile counts 0 only when no steal
    of it can happen (its top's rank out of the other side's reach and no
    rank both sides can still play)."""
    rules = PRESETS["french"].with_overrides({"voleur": "yes"})
    found = None
    seed = 0
    while found is None:
        found = _chance_node(rules, f"vswing-{seed}")
        seed += 1
    P, D, st = found
    m = P[core.P_SIDE + st[5]]          # the side to move: 12 cards, top 2
    x = 0
    x = core.with_pile(core.with_pile(x, m, 12), 1 - m, 7)
    x = core.with_top(core.with_top(x, m, 2), 1 - m, 5)
    one = lambda r: 1 << (4 * r)            # noqa: E731 (a card set of one card)
    two = lambda r: 3 << (4 * r)            # noqa: E731 (two cards of a rank)
    base = (0, 0, 0, 0, 0, st[5], -1, 0, 0)
    # no pair in the stock, no top's rank in it: no steal can happen
    stock = one(0) | one(1) | one(3) | one(4) | one(6) | one(7)
    assert core.voleur_pile_swing(P, base + (stock, x)) == (0, 0)
    # the other side's top (5) in the stock: the side to move can steal 7 cards
    assert core.voleur_pile_swing(P, base + (stock | one(5), x)) == (7, 0)
    # its own top (2) in the stock: it can lose its 12
    assert core.voleur_pile_swing(P, base + (stock | one(2), x)) == (0, 12)
    # a pair in the stock: a top set later can be stolen, both piles count
    assert core.voleur_pile_swing(P, base + (one(0) | two(8) | one(9), x)) == (7, 12)
