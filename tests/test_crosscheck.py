"""Cross-checks of the search against independent computations.

1. The alpha-beta search (pruning, transposition table, move ordering, the
   forced last round) against plain minimax over the same engine, on
   hundreds of random small positions of every preset, two and four
   players, across deal boundaries, with hits, answers and missas.
2. The fast engine and search against ``tests/reference.py``, a slow
   implementation of RULES.md written separately from the engine, with the
   card count taken from the real final piles.
"""

from __future__ import annotations

import random

import pytest

from solver.cards import RANKS
from solver.engine.game import Game, cardset
from solver.rules import PRESETS, deal_sizes
from solver.search.alphabeta import AlphaBeta, solve
from solver.search.brute import minimax_root

from reference import reference_value
from rulesets import HOUSE, RULESETS


def random_position(rng: random.Random, players: int, preset: str):
    """A consistent random position: all 40 cards placed (table, hands,
    stock, the two piles), mid-round or at a round start, with at most one
    deal still in the stock, sometimes a hittable ``prev`` or a ``show``."""
    rules = RULESETS[preset]
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    if preset == "french" and players == 4:
        stock_len = rng.choice([0, 8])           # the last deal gives 2 each
    else:
        stock_len = rng.choice([0, 0, deal_sizes(rules, players)[-1] * players])
    if players == 4 and stock_len:
        k = 1           # keep the brute force small: one card a hand this deal
    else:
        k = rng.randint(1, 3 if players == 2 else 2)
    turn = rng.randrange(players) if k > 1 or players == 2 else 0
    sizes = [k - 1 if s < turn else k for s in range(players)]
    hands = []
    for size in sizes:
        hands.append(deck[:size])
        deck = deck[size:]
    stock = deck[:stock_len]
    deck = deck[stock_len:]
    n_table = rng.randint(0, 6)
    table = []
    for card in list(deck):
        if len(table) == n_table:
            break
        if rules.table_rule == "distinct" and card in table:
            continue        # a distinct table never holds a pair
        table.append(card)
        deck.remove(card)
    taken0 = rng.randint(0, len(deck))
    taken = (taken0, len(deck) - taken0)
    last = rng.choice([0, 1]) if len(deck) else None
    if last is not None and taken[last] == 0:
        last = 1 - last     # the last capturer has cards in its pile
    played_this_deal = turn != 0
    prev = show = None
    if played_this_deal and rng.random() < 0.5:
        singles = [r for r in set(table) if table.count(r) == 1]
        if singles:
            prev = rng.choice(singles)
    elif played_this_deal and rng.random() < 0.4 and len(rules.hit) > 1 and last is not None:
        absent = [r for r in range(10) if r not in table and deck.count(r) >= 2]
        shower = (turn - 1) % players % 2
        if absent and taken[shower] >= 2:
            show = (rng.choice(absent), 2)
            last = shower
    return rules, table, hands, stock, turn, prev, show, last, taken


def engine_values(rules, table, hands, stock, turn, prev, show, last, taken, players):
    game = Game(rules, players, 0, stock)
    state = game.initial_state(table, hands, turn,
                               -1 if prev is None else prev,
                               0 if show is None else show[0] * 4 + show[1],
                               -1 if last is None else last)
    side = turn % 2
    base = taken[side] - taken[1 - side]
    return game, state, base


CASES = [(preset, players) for preset in RULESETS for players in (2, 4)]


@pytest.mark.parametrize("preset,players", CASES)
def test_alphabeta_equals_minimax(preset, players):
    rng = random.Random(f"ab-{preset}-{players}")
    for _ in range(30 if preset in HOUSE else 60):
        rules, table, hands, stock, turn, prev, show, last, taken = random_position(rng, players, preset)
        game, state, _base = engine_values(rules, table, hands, stock, turn, prev, show, last, taken, players)
        values, pv, _stats = solve(game, state)
        assert values == minimax_root(game, state)
        # the principal variation reaches the value
        assert pv[0] in [m for m, v in values.items() if v == max(values.values())]


@pytest.mark.parametrize("preset,players", CASES)
def test_engine_equals_reference(preset, players):
    rng = random.Random(f"ref-{preset}-{players}")
    checked = 0
    n = 40
    for _ in range(n):
        rules, table, hands, stock, turn, prev, show, last, taken = random_position(rng, players, preset)
        game, state, base = engine_values(rules, table, hands, stock, turn, prev, show, last, taken, players)
        values = AlphaBeta(game).root_values(state)
        ref_value, ref_moves = reference_value(
            rules, [RANKS[r] for r in table], [[RANKS[r] for r in h] for h in hands],
            [RANKS[r] for r in stock], turn, 0,
            prev=None if prev is None else RANKS[prev],
            show=None if show is None else (RANKS[show[0]], show[1]),
            last_side=last, taken=taken)
        got = {RANKS[m]: (v + base) / 2 for m, v in values.items()}
        assert got == ref_moves, (table, hands, stock, turn, prev, show, last, taken)
        checked += 1
    assert checked == n


def test_whole_hand_value_is_stable_under_move_order():
    """The root value of a whole hand does not depend on the TT's history:
    scoring the root moves in two different orders gives the same values."""
    rng = random.Random(5)
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    game = Game(PRESETS["lmodire"], 2, 0, deck[10:])
    state = game.initial_state(deck[:4], [deck[4:7], deck[7:10]], 0)
    a = AlphaBeta(game).root_values(state)
    ab = AlphaBeta(game)
    b = {}
    for m in reversed(game.moves(state)):
        child, gain, _ev = game.play(state, m)
        b[m] = gain - ab.value(child)
    assert a == b
    assert cardset(deck[:4]) == state[0]
