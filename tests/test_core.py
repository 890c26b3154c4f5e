"""The compiled core against the pure-Python reference engine and searches.

Random positions come from random play of random deals, stopped at a
random point, so that hits, answers, missas, deal boundaries (with their
declarations) and forced last rounds all occur; every preset, two and four
players, a known stock (exact alpha-beta) and a shuffled one (expectimax).
Values must be identical (exactly, for alpha-beta; within 1e-9 for
expectimax, whose sums are the reference's, in the same order) and so must
the sets of best moves.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from solver.engine import core
from solver.engine.game import Game, cardset
from solver.engine.tables import core_state, params, ref_state
from solver.rules import deal_sizes
from solver.search.alphabeta import AlphaBeta
from solver.search.brute import expectimax_root, minimax_root
from solver.search.compiled import Searcher, ensure_compiled
from solver.search.expectimax import Expectimax

ensure_compiled()


from rulesets import HOUSE, RULESETS


def random_state(rng: random.Random, preset: str, players: int, max_left: int):
    """A reference (game, state) with a known stock: a random deal, then
    random plays until between 1 and ``max_left`` cards are left to play
    (hands and stock), the stopping point uniform in that range."""
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
    game = Game(rules, players, leader, stock)
    state = game.initial_state(table, hands, leader)
    for _ in range(40 - rules.table_cards - rng.randint(1, max_left)):
        moves = game.moves(state)
        state = game.play(state, moves[rng.randrange(len(moves))])[0]
    return game, state


def shuffled_twin(game: Game, state):
    """The same position with the stock order unknown: a shuffled Game and
    the state whose stock field is the remaining stock's card set."""
    rest = list(game.stock[state[6]:])
    g = Game(game.rules, game.players, game.leader, rest, shuffled=True)
    return g, state[:6] + (cardset(rest),)


def compiled_root_values(game: Game, state) -> dict[int, float]:
    P, D = params(game)
    return Searcher(P, D, 8.0).root_values(core_state(state))


def best_set(values: dict, tol: float = 0.0) -> set[int]:
    top = max(values.values())
    return {m for m, v in values.items() if v >= top - tol}


CASES = [(preset, players) for preset in RULESETS for players in (2, 4)
         if players in RULESETS[preset].players]


@pytest.mark.parametrize("preset,players", CASES)
def test_exact_search_equals_reference(preset, players):
    """Known stock: compiled alpha-beta equals the reference alpha-beta on
    every root move, 2,000 positions for each preset and player count (400
    for the house rules of issue 11)."""
    rng = random.Random(f"exact-{preset}-{players}")
    for i in range(400 if preset in HOUSE else 2000):
        max_left = rng.choice([6, 12, 20, 36]) if players == 2 else rng.choice([4, 8, 14])
        game, state = random_state(rng, preset, players, max_left)
        ref = AlphaBeta(game).root_values(state)
        got = compiled_root_values(game, state)
        assert got == {m: float(v) for m, v in ref.items()}, (preset, players, i, state)
        assert best_set(got) == best_set(ref)


SHUFFLED = [("lmodire", 2), ("pagat", 2), ("mod", 2), ("french", 2),
            pytest.param("french", 4, marks=pytest.mark.slow),
            ("online+all", 2), pytest.param("online+all", 4, marks=pytest.mark.slow),
            ("french+cumulative", 4)]


@pytest.mark.parametrize("preset,players", SHUFFLED)
def test_expectimax_equals_reference(preset, players):
    """Shuffled stock (one deal to come at most): compiled expectimax
    equals the reference expectimax, 400 positions a case, 2,000 in all
    (four players with french, whose last deal gives 2 cards a seat), and
    100 (two players) or 25 (four) for the house rules of issue 11 (online: a last deal of 4
    cards a seat with two players, 2 with four)."""
    rng = random.Random(f"chance-{preset}-{players}")
    n = (100 if players == 2 else 25) if preset in HOUSE else 400
    most = 8 if players == 4 or preset.startswith("online") else 6
    done = 0
    while done < n:
        max_left = rng.choice([6, 12]) if players == 2 else 12
        if preset.startswith("online"):
            max_left = 16
        game, state = random_state(rng, preset, players, max_left)
        if len(game.stock) - state[6] > most:
            continue
        g, s = shuffled_twin(game, state)
        ref = Expectimax(g).root_values(s)
        got = compiled_root_values(g, s)
        assert got.keys() == ref.keys()
        for m in ref:
            assert math.isclose(got[m], ref[m], abs_tol=1e-9), (preset, players, s, got, ref)
        assert best_set(got, 1e-9) == best_set(ref, 1e-9)
        done += 1


def test_compiled_search_equals_plain_minimax():
    """The compiled alpha-beta against plain minimax (no pruning, no
    table) on small positions of every preset, two and four players."""
    rng = random.Random("brute")
    for i in range(300):
        preset, players = CASES[i % len(CASES)]
        game, state = random_state(rng, preset, players, 6 if players == 2 else 4)
        assert compiled_root_values(game, state) == {
            m: float(v) for m, v in minimax_root(game, state).items()}


@pytest.mark.parametrize("preset,players", CASES)
def test_kernels_follow_the_reference_play_by_play(preset, players):
    """play, the children rows (forced last round, ordering guess, kind),
    chance outcomes (probabilities, declarations, order) and the sure
    bounds agree with the reference at every step of random playouts."""
    rng = random.Random(f"steps-{preset}-{players}")
    K = np.zeros((1, core.MAX_MOVES + 1, core.K_COLS), dtype=np.int64)
    for _ in range(15):
        game, state = random_state(rng, preset, players, 36)
        shuffled = players == 2 and rng.random() < 0.5
        while not game.is_terminal(state):
            P, D = params(game)
            st = core_state(state)
            n = core.gen_children(P, D, K, 0, st)
            ref = game.children(state)
            assert n == len(ref)
            for i, (order, gain, m, child) in enumerate(ref):
                row = K[0, i]
                assert (row[core.K_MOVE], row[core.K_GAIN], row[core.K_ORDER]) == (m, gain, order)
                if child is None:
                    assert row[core.K_KIND] == core.KIND_LEAF
                else:
                    assert ref_state(row[:core.NSTATE]) == child
            m = rng.choice(game.moves(state))
            c1, g1, e1 = game.play(state, m)
            c2, g2, e2 = core.play(P, D, st, m)
            assert (ref_state(c2), g2, e2) == (c1, g1, e1)
            if shuffled and c1[1] == 0 and c1[6] != len(game.stock):
                # a deal is due: compare the chance node of the shuffled twin
                g, s = shuffled_twin(game, c1)
                if len(g.stock) <= 12:
                    Ps, _Ds = params(g)
                    probs, gains, kids = core.deal_outcomes(Ps, core_state(s), 1 << 40)
                    outs = g.outcomes(s)
                    assert len(outs) == len(probs)
                    for (p, gg, child), p2, g2_, k2 in zip(outs, probs, gains, kids):
                        assert (p, gg, child) == (p2, g2_, ref_state(k2))
                    assert g.bounds(s) == core.chance_bounds(Ps, core_state(s))
            state = c1


@pytest.mark.slow
@pytest.mark.parametrize("workers,split", [(1, "moves"), (2, "moves"), (2, "outcomes")])
def test_expectimax_across_two_deals_equals_plain_expectimax(workers, split):
    """Two deals to come (12 cards in the stock), every preset, against
    plain expectimax over the game's outcomes (no pruning, no table): the
    nested chance nodes where rounding once turned bounds into values. With
    two threads sharing one table (one root move a thread, or a helper
    solving the outcomes of the chance node the search is in), each
    position is solved twice and must give the same values both times (a
    torn table entry would not)."""
    rng = random.Random(f"nested-{workers}-{split}")
    done = 0
    while done < 6:
        preset = ["lmodire", "pagat", "mod", "french"][done % 4]
        game, state = random_state(rng, preset, 2, 16)
        if len(game.stock) - state[6] != 12 or state[1].bit_count() > 4:
            continue
        g, s = shuffled_twin(game, state)
        plain = expectimax_root(g, s, permute=False)
        P, D = params(g)
        for _ in range(2 if workers > 1 else 1):
            searcher = Searcher(P, D, 16.0, workers)
            searcher.split = split
            got = searcher.root_values(core_state(s))
            assert got.keys() == plain.keys()
            for m in plain:
                assert math.isclose(got[m], plain[m], abs_tol=1e-9), (preset, s, got, plain)
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
