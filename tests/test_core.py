"""The compiled core on deep positions, where the plain references of
tests/ cannot go: its two implementations of a play (the fast two-sided
``play`` and ``play_general``, which tracks the piles for three sides,
Ronda voleur and the match objective) must give identical values on whole
hands; the searches must not depend on move order or threads; and the
lockless table must reject torn entries. The small positions are checked
against the plain references in tests/test_systems.py.

Random positions come from random play of random deals, stopped at a
random point, so that hits, answers, missas, deal boundaries (with their
declarations) and forced last rounds all occur; every preset, two and four
players, a known stock (exact alpha-beta) and a shuffled one (expectimax).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from solver.engine import core
from solver.engine.hand import STOCK, Hand
from solver.engine.scoring import cardset
from solver.rules import deal_sizes
from solver.search.compiled import Searcher, ensure_compiled

from rulesets import HOUSE, RULESETS

ensure_compiled()


def random_state(rng: random.Random, preset: str, players: int, max_left: int,
                 track: bool = False):
    """A (hand, state) with a known stock: a random deal, then random plays
    until between 1 and ``max_left`` cards are left to play (hands and
    stock), the stopping point uniform in that range."""
    rules = RULESETS[preset]
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    table: list[int] = []
    for c in list(deck):
        if len(table) == rules.table_cards:
            break
        if rules.table_rule == "distinct" and c in table:
            continue
        table.append(c)
        deck.remove(c)
    n = deal_sizes(rules, players)[0]
    leader = rng.randrange(players)
    hands = [[] for _ in range(players)]
    for i in range(players):
        hands[(leader + i) % players] = deck[i * n:(i + 1) * n]
    stock = deck[players * n:]
    game = Hand(rules, players, leader, stock, track=track)
    state = game.initial_state(table, hands, leader)
    for _ in range(40 - rules.table_cards - rng.randint(1, max_left)):
        moves = game.moves(state)
        state = game.play(state, moves[rng.randrange(len(moves))])[0]
    return game, state


def shuffled_twin(game: Hand, state, track: bool = False):
    """The same position with the stock order unknown."""
    rest = game.stock_left(state)
    g = Hand(game.rules, game.players, game.leader, rest, shuffled=True, track=track)
    return g, state[:STOCK] + (cardset(rest), state[STOCK + 1])


def values(game: Hand, state, workers: int = 1) -> dict[int, float]:
    return Searcher(game.P, game.D, 16.0, workers).root_values(state)


def tracked(game: Hand, state) -> tuple[Hand, tuple]:
    """The same position played by ``play_general`` (piles tracked)."""
    g = Hand(game.rules, game.players, game.leader, game.stock, game.shuffled, track=True)
    return g, state


CASES = [(preset, players) for preset in RULESETS for players in (2, 4)
         if players in RULESETS[preset].players]


@pytest.mark.parametrize("preset,players", CASES)
def test_fast_and_general_play_agree_on_whole_hands(preset, players):
    """Known stock, up to a whole hand: alpha-beta over the fast play and
    over play_general (x tracked) give the same value for every root move,
    play by play the same children."""
    rng = random.Random(f"general-{preset}-{players}")
    for _ in range(20 if preset in HOUSE else 40):
        max_left = rng.choice([12, 20, 36]) if players == 2 else rng.choice([8, 14, 36])
        game, state = random_state(rng, preset, players, max_left)
        g2, s2 = tracked(game, state)
        assert values(game, state) == values(g2, s2)
        # the same plays, gains and events, play by play
        while not game.is_terminal(state):
            m = rng.choice(game.moves(state))
            c1, gain1, ev1 = game.play(state, m)
            c2, gain2, ev2 = g2.play(s2, m)
            assert (c1[:10], gain1, ev1) == (c2[:10], gain2, ev2)
            state, s2 = c1, c2


@pytest.mark.parametrize("preset,players", [("lmodire", 2), ("french", 2), ("french", 4),
                                            ("online+all", 2)])
def test_fast_and_general_expectimax_agree(preset, players):
    """Shuffled stock: expectimax over both plays, one deal to come."""
    rng = random.Random(f"general-em-{preset}-{players}")
    done = 0
    while done < 12:
        game, state = random_state(rng, preset, players, 16 if players == 2 else 12)
        if not 0 < len(game.stock_left(state)) <= 8:
            continue
        g, s = shuffled_twin(game, state)
        gt, st = shuffled_twin(game, state, track=True)
        a, b = values(g, s), values(gt, st)
        assert a.keys() == b.keys()
        assert all(math.isclose(a[m], b[m], abs_tol=1e-9) for m in a)
        done += 1


def test_root_values_do_not_depend_on_the_table_history():
    """Scoring the root moves in two orders with one table gives the same
    values: the table keeps exact values only."""
    rng = random.Random(5)
    for _ in range(10):
        game, state = random_state(rng, "lmodire", 2, 36)
        s = Searcher(game.P, game.D, 8.0)
        a = s.root_values(state)
        b = {}
        for m in reversed(game.moves(state)):
            child, gain, _ev = game.play(state, m)
            b[m] = gain - (s.value(child) if not game.is_terminal(child) else 0.0)
        assert a == b


@pytest.mark.slow
@pytest.mark.parametrize("workers,split", [(1, "moves"), (2, "moves"), (2, "outcomes")])
def test_expectimax_across_two_deals_is_stable(workers, split):
    """Two deals to come (12 cards in the stock): with two threads sharing
    one table (one root move a thread, or a helper solving the outcomes of
    the chance node the search is in), each position is solved twice and
    must give the same values as one thread (a torn table entry would
    not)."""
    rng = random.Random(f"nested-{workers}-{split}")
    done = 0
    while done < 4:
        preset = ["lmodire", "pagat", "mod", "french"][done % 4]
        game, state = random_state(rng, preset, 2, 16)
        if len(game.stock_left(state)) != 12 or sum(
                int(state[1 + s]).bit_count() for s in range(2)) > 4:
            continue
        g, s = shuffled_twin(game, state)
        one = values(g, s, 1)
        for _ in range(2):
            searcher = Searcher(g.P, g.D, 16.0, workers)
            searcher.split = split
            got = searcher.root_values(s)
            assert got.keys() == one.keys()
            assert all(math.isclose(got[m], one[m], abs_tol=1e-9) for m in one)
        done += 1


def test_a_torn_table_entry_fails_its_check():
    """The lockless table: an entry read half from one write and half from
    another must not pass. The two mixes that once did: two exact entries
    (lower == upper, so a plain XOR cancels) and an exact value v against
    -v (a sign flip, which odd multipliers keep in the top bit)."""
    from solver.search.kernels import _bits, _seal  # noqa: F401 (compiled helpers)
    bits = lambda x: np.array([x]).view(np.uint64)[0]
    key = np.uint64(0x123456789ABCDEF)
    w1 = np.uint64(0xABCDEF0012345678)
    for v, other in [(5.0, 3.0), (5.0, -5.0), (1.2306331168831237, 1.2307629870129941)]:
        w0 = key ^ _seal(w1, bits(v), bits(v))
        assert (w0 ^ _seal(w1, bits(v), bits(v))) == key
        assert (w0 ^ _seal(w1, bits(other), bits(other))) != key
        assert (w0 ^ _seal(w1, bits(v), bits(other))) != key


def test_the_x_word_changes_the_key():
    """Two states that differ only in the x word (piles, tops, scores)
    have different table keys; x = 0 leaves the two-sided key as it was."""
    st = (1, 2, 4, 0, 0, 0, -1, 0, -1, 0, 0)
    other = st[:10] + (5 << core.X_PILE,)
    assert core.state_key(st) != core.state_key(other)
