"""The match objective's fast play (:func:`solver.engine.core.play_match2`:
two sides, no Ronda voleur) gives :func:`solver.engine.core.play_general`'s
``(child, gain, ev)`` bit for bit: random states of every match system (their scores near the target so that the immediate win check and
the awards' order are reached, their piles moved so that the card count
and the canonical piles are), every legal play, with the canonical piles
on and off; the states walked through whole lines, chance nodes dealt."""

from __future__ import annotations

import random

import pytest

import kernel_calls
from systems import random_leaves, random_position, systems

from solver.engine import core
from solver.engine.compile import known_problem, shuffled_problem
from solver.search import kernels as kn

#: every match system (voleur's through play_general itself)
SYSTEMS = [s for s in systems() if s.match]


def _moved(st, rng: random.Random, target: int, low: int = 0):
    """``st`` with random scores (mostly near the target) and piles (at
    least ``low`` cards: a hit's shown cards are in its side's pile)."""
    y = st[10]
    for k in range(2):
        y = core.with_score(y, k, rng.choice([rng.randint(0, target),
                                              rng.randint(max(0, target - 8), target + 2)]))
        y = core.with_pile(y, k, rng.randint(low, 30))
    return st[:10] + (y,)


def _walk(P, D, st, rng: random.Random, steps: int, after=lambda st: st):
    """Each decision state of a random line from ``st`` (``steps`` steps,
    chance nodes dealt at random) with its legal plays; a random one is
    played by ``play_general`` and the child passed through ``after``."""
    for _step in range(steps):
        if core.is_chance(P, st):
            _probs, rows = core.deal_table(P, st, 1 << 20)
            st = core.dealt_child(P, st, rows, rng.randrange(len(rows)))
            continue
        if core.is_terminal(P, st):
            return
        hand = core.hand_of(st[1], st[2], st[3], st[4], st[5])
        moves = [m for m in range(core.NRANKS) if (hand >> (4 * m)) & 1]
        if not moves:
            return
        yield st, moves
        st = after(core.play_general(P, D, st, rng.choice(moves))[0])


@pytest.mark.parametrize("system", SYSTEMS, ids=str)
def test_fast_play_is_play_general(system):
    rng = random.Random(f"match-play-{system}")
    target = system.rules.target
    plays = ends = wins = 0
    for _ in range(40):
        pos = random_position(rng, system)
        leaves, _leaf = random_leaves(rng, target)
        prob = (shuffled_problem if system.shuffled else known_problem)(pos, match=leaves)
        D = prob.D
        P0 = prob.P
        P1 = P0.copy()
        P1[core.P_CANON] ^= core.CANON_PILES
        for st, moves in _walk(P0, D, _moved(prob.st, rng, target), rng, 40,
                               lambda st: _moved(st, rng, target) if rng.random() < 0.3 else st):
            for P in (P0, P1):
                for m in moves:
                    a = core.play_general(P, D, st, m)
                    b = core.play_match2(P, D, st, m)
                    assert a == b, (system, st, m)
                    plays += 1
                    ends += (a[2] & core.EV_END) != 0
                    wins += (a[2] & core.EV_WON) != 0
    assert plays > 500 and ends > 10, (plays, ends)
    if system.rules.win_check == "immediate":
        assert wins > 10, wins


#: the systems of the line cache (two sides, no voleur)
LINE_SYSTEMS = [s for s in SYSTEMS if not s.rules.voleur]


def _cached_problems(system, rng: random.Random, target: int, positions: int = 60):
    """``(P, D, S, st)`` of random positions of ``system`` playing for
    random tables, each with the canonical piles on and off (where the
    search makes them), ``S`` a new scratch with a line cache."""
    for _ in range(positions):
        pos = random_position(rng, system)
        leaves, _leaf = random_leaves(rng, target)
        prob = (shuffled_problem if system.shuffled else known_problem)(pos, match=leaves)
        for P in (prob.P, _canon_flipped(prob.P)):
            if P[core.P_CANON] & core.CANON_PILES and P[core.P_ANSWERS] > 1:
                continue        # never made: a shown card leaves a pile written 0
            yield P, prob.D, kn.new_scratch(64), prob.st


@pytest.mark.parametrize("system", LINE_SYSTEMS, ids=str)
def test_line_cache_is_match_value(system):
    """:func:`solver.engine.endgame.match_cached` (the last deal's lines
    stored under the cards' hash, replayed on each x word) gives the exact
    value :func:`solver.engine.endgame.match_value` gives under a full
    window, on last-deal states of at most 4 cards with random scores and
    piles (the same cards under several x words: the cache's hits), with
    the canonical piles on and off."""
    from solver.engine import endgame
    rng = random.Random(f"match-lines-{system}")
    target = system.rules.target
    inf = endgame.MATCH_INF
    S0 = kn.new_scratch()
    checked = cached = 0
    for P, D, S, st0 in _cached_problems(system, rng, target):
        C = kn.new_counters()
        for st, _moves in _walk(P, D, st0, rng, 12):
            if core.is_last_deal(P, st) and core.work_left(P, st) <= 4:
                for _x in range(4):
                    y = _moved(st, rng, target, low=0 if P[core.P_CANON] & 1 else 3)
                    want = endgame.match_value(P, D, S0, C, kn.C_LNODES, 0, y, -inf, inf)
                    got = kernel_calls.match_cached(P, D, S, C, 0, y, -inf, inf)
                    assert got == want, (system, y)
                    a = rng.randint(-4, 4) * (1 << 38)
                    b = a + rng.randint(1, 4) * (1 << 38)
                    win = kernel_calls.match_cached(P, D, S, C, 0, y, a, b)
                    assert win == want
                    checked += 1
        F = S.reshape(-1)
        base = endgame.LINES_PLY * S.shape[1] * S.shape[2]
        cached += sum(1 for e in range(base + endgame.LINE_COLS, F.shape[0] - endgame.LINE_COLS,
                                       endgame.LINE_COLS) if F[e] != 0 and F[e + 1] != 0)
    assert checked > 100 and cached > 20, (checked, cached)


def _canon_flipped(P):
    Q = P.copy()
    Q[core.P_CANON] ^= core.CANON_PILES
    return Q


def test_line_cache_follows_the_rules_of_a_reused_searcher():
    """``compiled.exact_value`` reuses its thread's searcher across games:
    a new rule system must not read the lines the old one stored (they
    know the cards only): the same states under other points a play give
    a fresh searcher's values."""
    from solver.search.compiled import Searcher, exact_value
    system = next(s for s in LINE_SYSTEMS if not s.shuffled and s.players == 2)
    rng = random.Random("match-lines-reused")
    differ = 0
    for _ in range(40):
        pos = random_position(rng, system)
        leaves, _leaf = random_leaves(rng, system.rules.target)
        prob = known_problem(pos, match=leaves)
        P1, D, st = prob.P, prob.D, _moved(prob.st, rng, system.rules.target)
        if core.is_terminal(P1, st) or not core.is_last_deal(P1, st):
            continue
        P2 = P1.copy()
        for ev in range(1, 32, 2):      # every capture two points more
            P2[core.P_PTS + ev] += 2
        a = exact_value(P1, D, st)
        b = exact_value(P2, D, st)
        assert a == Searcher(P1, D, 8.0).value(st)
        assert b == Searcher(P2, D, 8.0).value(st)
        differ += a != b
    assert differ > 3, differ


@pytest.mark.parametrize("system", LINE_SYSTEMS, ids=str)
def test_line_tree_cache_is_match_value(system):
    """The cache of 5-6 card states (:func:`solver.engine.endgame.match_cached`
    through :func:`solver.engine.endgame.lines_build_tree`: every line of the
    state's tree stored under its cards' hash, the tree's minimax replayed on
    each x word, by alpha-beta over the tree) gives
    :func:`solver.engine.endgame.match_value`'s exact value under a full
    window and a bound on the right side outside a narrow one, the same cards under several x words (the cache's
    hits), the canonical piles on and off; most of the states are served by
    the tree (a max for a min at any level fails it)."""
    from solver.engine import endgame
    rng = random.Random(f"match-tree-{system}")
    target = system.rules.target
    inf = endgame.MATCH_INF
    S0 = kn.new_scratch()
    checked = served = 0
    for P, D, S, st0 in _cached_problems(system, rng, target):
        for st, _moves in _walk(P, D, st0, rng, 12):
            if core.is_last_deal(P, st) and 5 <= core.work_left(P, st) <= 6:
                for _x in range(4):
                    y = _moved(st, rng, target, low=0 if P[core.P_CANON] & 1 else 3)
                    C = kn.new_counters()
                    want = endgame.match_value(P, D, S0, C, kn.C_LNODES, 0, y, -inf, inf)
                    C = kn.new_counters()
                    got = kernel_calls.match_cached(P, D, S, C, 0, y, -inf, inf)
                    assert got == want, (system, y)
                    served += C[kn.C_LNODES] == 1
                    checked += 1
                    # fail-soft inside a window: exact inside, a bound outside
                    a = rng.randint(-4, 4) * (1 << 38)
                    b = a + rng.randint(1, 4) * (1 << 38)
                    win = kernel_calls.match_cached(P, D, S, C, 0, y, a, b)
                    if a < want < b:
                        assert win == want
                    elif want <= a:
                        assert want <= win <= a
                    else:
                        assert b <= win <= want
    assert checked > 100 and served > checked // 2, (checked, served)


#: the shuffled-stock systems whose last chance node is solved exactly
#: through the lines' trees (two players, no voleur)
TREE_SEARCH_SYSTEMS = [s for s in LINE_SYSTEMS if s.shuffled and s.players == 2]


@pytest.mark.parametrize("system", TREE_SEARCH_SYSTEMS, ids=str)
def test_exact_last_chance_through_trees_is_the_general_kernel(system):
    """The match objective's chance node dealing the last deal, solved
    exactly outcome by outcome from the outcomes' lines' trees
    (:func:`solver.engine.endgame.exact_last_chance`, the trees' entries
    prefetched), gives the values of the general kernel (Star1 with the
    table at the chance node, the table below: ``C_LEXACT`` and ``C_LEAN``
    0), and of the plain reference on a few; scores near the target (the
    immediate win check and the card count reached), random tables."""
    from systems import agree, reference_values
    from solver.engine import endgame
    from solver.search.compiled import Searcher
    rng = random.Random(f"match-exact-chance-{system}")
    target = system.rules.target
    trees = 0
    for i in range(12):
        pos = random_position(rng, system)
        pos.score = (rng.randint(max(0, target - 12), target - 1),
                     rng.randint(max(0, target - 12), target - 1))
        leaves, leaf = random_leaves(rng, target, monotone=i % 2 == 0)
        prob = shuffled_problem(pos, match=leaves)
        ref = Searcher(prob.P, prob.D, 8.0)
        ref.C[kn.C_LEXACT] = 0
        ref.C[kn.C_LEAN] = 0
        want = ref.root_values(prob.st)
        s = Searcher(prob.P, prob.D, 8.0)
        got = s.root_values(prob.st)
        assert got.keys() == want.keys()
        for m in got:
            assert abs(got[m] - want[m]) <= 1e-9 * max(1.0, abs(want[m])), (pos, got, want)
        F = s.K.reshape(-1)
        base = endgame.LINES_PLY * s.K.shape[1] * s.K.shape[2]
        start = base + endgame.LINE_COLS * (1 + F[base])
        trees += sum(1 for e in range(start, start + endgame.BIG_COLS * F[base + 1],
                                      endgame.BIG_COLS) if F[e] != 0 and F[e + 1] != 0)
        if i < 3:
            from systems import engine_values
            assert agree(reference_values(pos, system, leaf), engine_values(pos, system, leaves))
    assert trees > 20, trees
