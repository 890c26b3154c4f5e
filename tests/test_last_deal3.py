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


def _last_deal_root(P, D, spos, t, last, piles):
    """The state at the start of the last deal dealt from ``spos``, table
    ``t``, last capturer ``last`` and piles ``piles`` (seat order)."""
    x = 0
    for k, p in enumerate(piles):
        x = core.with_pile(x, k, p)
    return (t, int(D[spos, 0]), int(D[spos, 1]), int(D[spos, 2]), 0, int(P[core.P_LEADER]),
            -1, 0, last, int(P[core.P_EMPTY]), x)


def _tables(prob, rng, count: int) -> list[int]:
    """``count`` tables of cards the deal before the last could leave: some
    of its table's and hands' cards (rank nibbles, as the state's)."""
    st = prob.st
    cards = []
    for h in (st[0], st[1], st[2], st[3]):
        for r in range(10):
            cards += [r] * bin((h >> (4 * r)) & 15).count("1")
    out = []
    for _ in range(count):
        t = 0
        for r in rng.sample(cards, rng.randrange(0, min(8, len(cards)) + 1)):
            t += (((t >> (4 * r)) & 15) + 1) << (4 * r)
        out.append(t)
    return out


def _distinct_hands(D, spos):
    """A copy of ``D`` whose last deal (row ``spos``) deals each seat as
    many cards as before, every rank once at most over the three hands: a
    deal with no capture on an empty table (every rank 0-8 dealt, rank 9
    left for the table)."""
    D = D.copy()
    r = 0
    for k in range(3):
        h = 0
        for _ in range(bin(int(D[spos, k])).count("1")):
            h |= 1 << (4 * r)
            r += 1
        D[spos, k] = h
    return D if r <= 9 else None


@pytest.mark.parametrize("system", [s for s in THREE if not s.shuffled], ids=str)
def test_last_deal_memo_entries_hold_for_their_piles(system):
    """The memo of the last deal's roots answers a root from an entry solved
    for other piles (each seat's pile up to the room its largest end left
    under 20) and, when every end had a capture, for another last
    capturer: each of its answers equals the root searched from scratch
    (:func:`lean3_state`, checked against the table above), over roots
    that share a few tables with piles 0-26 and every last capturer, and
    over a deal of distinct ranks (ends with no capture: its entries keep
    the last capturer)."""
    from solver.engine.endgame3 import LAST_SHIFT, _root_vector
    rng = random.Random(f"memo-range-{system}")
    met = kept_last = 0
    for seed in range(4):
        prob = _at_deal(f"memo-range-{seed}", 3, system.rules)
        P, D, spos = prob.P, prob.D, int(prob.st[9])
        tables = _tables(prob, rng, 4) * 15
        if seed == 3:
            D = _distinct_hands(D, spos)
            tables = [0, 1 << 36] * 30      # empty, or one card of rank 9
        M = new_memo()
        asked = set()
        for t in tables:
            last = rng.randrange(-1, 3)
            piles = [rng.randrange(0, 27) for _ in range(3)]
            got = _root_vector(P, D, M, 1, spos, t, last, *piles)
            want = lean3_state(P, _last_deal_root(P, D, spos, t, last, piles))
            assert got[:3] == want[:3], (system, t, last, piles, got, want)
            if got[3] == 0 and (t, last, *piles) not in asked:
                met += 1            # answered by an entry solved for other piles
            asked.add((t, last, *piles))
        kept_last += int(np.count_nonzero((M[:, 1] == 1) & ((M[:, 0] >> LAST_SHIFT) & 7 != 0)))
    assert met >= 5, met
    assert kept_last > 0            # the distinct ranks' roots kept the last capturer


@pytest.mark.parametrize("system", [s for s in THREE if not s.shuffled and s.name in
                                    ("french-3p", "answers-3p")], ids=str)
def test_deal_start_memo_entries_hold_for_their_piles(system):
    """The start of the deal before the last is memoised as the last deal's
    roots are: from a root two deals from the end, each vector it gives
    for the deal's start with a few tables, piles 0-3 or 0-26 and every
    last capturer (one memo) equals the table's max^n choice at that state."""
    from types import SimpleNamespace
    from solver.engine.endgame3 import _deal_start
    rng = random.Random(f"memo-start-{system}")
    met = 0
    for seed in range(2):
        prob = _at_deal(f"memo-start-{seed}", 2, system.rules)
        P, D, r = prob.P, prob.D, int(prob.st[9])
        M = new_memo()
        for i, t in enumerate(_tables(prob, rng, 2) * 5):
            x = 0
            for k in range(3):
                x = core.with_pile(x, k, rng.randrange(0, 27 if i % 2 else 4))
            var = (t, int(D[r, 0]), int(D[r, 1]), int(D[r, 2]), 0, int(P[core.P_LEADER]), -1,
                   0, rng.randrange(-1, 3), int(D[r, core.D_NEXT]), x)
            assert _deal_start(D, var[9], *var[1:4], -1, 0)
            got = lean2_state(P, D, M, 1, var)
            met += got[3] == 0
            want = _state_vector(SimpleNamespace(P=P, D=D, st=var))
            assert tuple(float(v) for v in got[:3]) == tuple(want), (system, var, got, want)
    assert met > 0
