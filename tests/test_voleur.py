"""Ronda voleur (seed 000 variant; decisions V1-V7, docs/rules.md): the
engine against plain minimax and against the independent reference
(``tests/reference.py``) on hundreds of random small positions, two and
four players; the pure-Python expectimax against plain expectimax; and
every decision where the sources are silent pinned on a hand-checked
position."""

from __future__ import annotations

import random

import pytest

from solver.cards import RANKS
from solver.engine.game import Game
from solver.engine.voleur import pack_piles, unpack_piles
from solver.rules import PRESETS
from solver.search.alphabeta import AlphaBeta, solve
from solver.search.brute import expectimax_root, minimax_root
from solver.search.expectimax import Expectimax

from reference import reference_value_voleur


def voleur_rules(preset: str):
    return PRESETS[preset].with_overrides({"voleur": "yes"})


def random_voleur(rng: random.Random, players: int, preset: str):
    """A consistent random voleur position, all 40 cards placed: table,
    hands, at most one deal in the stock, the two piles with a top drawn
    from their own cards (most often a rank some hand holds, so that steals
    happen), sometimes a hittable ``prev`` or a ``show`` (the hitter's top
    is then the shown rank)."""
    rules = voleur_rules(preset)
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    if preset == "french" and players == 4:
        stock_len = rng.choice([0, 8])
    else:
        stock_len = rng.choice([0, 0, 3 * players])
    k = 1 if players == 4 and stock_len else rng.randint(1, 3 if players == 2 else 2)
    turn = rng.randrange(players) if k > 1 or players == 2 else 0
    hands = []
    for s in range(players):
        size = k - 1 if s < turn else k
        hands.append(deck[:size])
        deck = deck[size:]
    stock, deck = deck[:stock_len], deck[stock_len:]
    n_table = rng.randint(0, 5)
    table = []
    for card in list(deck):
        if len(table) == n_table:
            break
        if rules.table_rule == "distinct" and card in table:
            continue
        table.append(card)
        deck.remove(card)
    cut = rng.randint(1, len(deck) - 1)
    piles = [deck[:cut], deck[cut:]]
    held = {c for h in hands for c in h}
    tops = []
    for pile in piles:
        good = [c for c in pile if c in held]
        if good and rng.random() < 0.7:
            tops.append(rng.choice(good))
        elif rng.random() < 0.8:
            tops.append(rng.choice(pile))
        else:
            tops.append(-1)
    last = rng.choice([0, 1])
    prev = show = None
    played = turn != 0
    if played and rng.random() < 0.5:
        singles = [r for r in set(table) if table.count(r) == 1]
        if singles:
            prev = rng.choice(singles)
    elif played and rng.random() < 0.5 and len(rules.hit) > 1:
        shower = (turn - 1) % players % 2
        ranks = [r for r in set(piles[shower]) if piles[shower].count(r) >= 2
                 and r not in table]
        if ranks:
            r = rng.choice(ranks)
            show = (r, 2)
            tops[shower] = r
            last = shower
    taken = (len(piles[0]), len(piles[1]))
    return rules, table, hands, stock, turn, prev, show, last, taken, tuple(tops)


def engine_state(rules, table, hands, stock, turn, prev, show, last, taken, tops,
                 shuffled=False):
    players = len(hands)
    game = Game(rules, players, 0, stock, shuffled)
    state = game.initial_state(table, hands, turn, -1 if prev is None else prev,
                               0 if show is None else show[0] * 4 + show[1],
                               -1 if last is None else last, tops, taken)
    side = turn % 2
    return game, state, taken[side] - taken[1 - side]


CASES = [(preset, players) for preset in ("french", "lmodire", "pagat") for players in (2, 4)]


@pytest.mark.parametrize("preset,players", CASES)
def test_voleur_engine_equals_reference(preset, players):
    """The engine's alpha-beta equals plain minimax over the engine and the
    independent reference, 60 random positions a case (360 in all)."""
    rng = random.Random(f"voleur-{preset}-{players}")
    steals = 0
    for _ in range(60):
        pos = random_voleur(rng, players, preset)
        rules, table, hands, stock, turn, prev, show, last, taken, tops = pos
        game, state, base = engine_state(*pos)
        values, pv, _stats = solve(game, state)
        assert values == minimax_root(game, state), pos
        _ref, ref_moves = reference_value_voleur(
            rules, [RANKS[r] for r in table], [[RANKS[r] for r in h] for h in hands],
            [RANKS[r] for r in stock], turn, 0,
            prev=None if prev is None else RANKS[prev],
            show=None if show is None else (RANKS[show[0]], show[1]),
            last_side=last, taken=taken,
            tops=tuple(None if t < 0 else RANKS[t] for t in tops))
        got = {RANKS[m]: (v + base) / 2 for m, v in values.items()}
        assert got == ref_moves, pos
        steals += any(t in hands[turn] for t in tops if t >= 0)
    assert steals >= 20        # the positions do exercise steals
