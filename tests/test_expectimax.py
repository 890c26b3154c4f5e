"""Exact expectimax against plain expectimax in exact rational arithmetic
(every permutation of the stock's cards, no pruning, no table), and the
deal outcomes against a count of permutations."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest
from click.testing import CliRunner

from solver.cards import RANKS
from solver.cli.main import main
from solver.engine.game import Game, cardset, ranks_of
from solver.rules import PRESETS, deal_sizes
from solver.search.brute import expectimax_root
from solver.search.expectimax import Expectimax


def small_chance_position(rng, preset, players):
    """Hands of 1 or 2 cards (4 players: 1), a shuffled stock of one deal
    (sometimes two, with two players), the rest on the table or taken."""
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    # the last deal: 3 cards a player (6 or 12), french's four players 2
    # (8), online's 4 with two players (8) and 2 with four (8)
    stock_len = deal_sizes(PRESETS[preset], players)[-1] * players
    stock, deck = deck[:stock_len], deck[stock_len:]
    k = 1
    hands = [deck[i * k:(i + 1) * k] for i in range(players)]
    deck = deck[players * k:]
    table = []
    for c in deck[:rng.randint(0, 4)]:
        if PRESETS[preset].table_rule == "free" or c not in table:
            table.append(c)
    game = Game(PRESETS[preset], players, 0, stock, shuffled=True)
    return game, game.initial_state(table, hands, 0, last=rng.choice([-1, 0, 1]))


# four players: a 12-card deal has too many outcomes for the plain check;
# french's last four-player deal gives 2 cards each (8 cards)
CASES = [(p, 2) for p in PRESETS] + [("french", 4)]


@pytest.mark.parametrize("preset,players", CASES)
def test_expectimax_equals_plain_expectimax(preset, players):
    """Two players: against every permutation of a 6-card stock, in
    Fractions. Four players (12 or 8 cards: too many orders) and online's
    8-card last deal: against plain expectimax over the game's outcomes,
    whose probabilities the next test checks against permutations."""
    rng = random.Random(f"em-{preset}-{players}")
    for _ in range(3 if players == 2 else 2):
        game, state = small_chance_position(rng, preset, players)
        fast = Expectimax(game).root_values(state)
        slow = expectimax_root(game, state, permute=len(game.stock) <= 6)
        assert fast.keys() == slow.keys()
        for m in fast:
            assert abs(fast[m] - float(slow[m])) <= 1e-9


@pytest.mark.slow
def test_expectimax_two_deals_to_come():
    """A 12-card stock (two chance levels), with and without Star1,
    against plain expectimax over the game's outcomes."""
    rng = random.Random(11)
    for preset in ("lmodire", "french"):
        deck = [r for r in range(10) for _ in range(4)]
        rng.shuffle(deck)
        game = Game(PRESETS[preset], 2, 0, deck[:12], shuffled=True)
        state = game.initial_state(deck[12:15], [deck[15:16], deck[16:17]], 0, last=0)
        slow = expectimax_root(game, state, permute=False)
        for star1 in (True, False):
            fast = Expectimax(game, star1=star1).root_values(state)
            assert all(abs(fast[m] - slow[m]) <= 1e-9 for m in fast)


def test_outcome_probabilities_count_permutations():
    """The rank-multiset outcomes of a deal, with their probabilities,
    equal the frequencies over every order of the stock's cards."""
    stock = [0, 0, 1, 2, 2, 2]
    game = Game(PRESETS["lmodire"], 2, 0, stock, shuffled=True)
    chance = (0, 0, 0, -1, 0, -1, cardset(stock))
    outs = game.outcomes(chance)
    freq: Counter = Counter()
    for order in permutations(range(6)):
        s_hand = tuple(sorted(stock[j] for j in order[:3]))
        freq[s_hand] += 1
    total = sum(freq.values())
    got = {}
    for p, _gain, child in outs:
        hand = tuple(ranks_of(child[1] & ((1 << 40) - 1)))
        got[hand] = p
    assert set(got) == set(freq)
    for hand, n in freq.items():
        assert got[hand] == pytest.approx(float(Fraction(n, total)), abs=1e-12)
    assert sum(p for p, _g, _c in outs) == pytest.approx(1.0, abs=1e-12)


def test_cli_expectimax_json_agrees_with_plain_expectimax():
    # hands known, a shuffled stock of one deal (6 cards), last deal to come
    line = ("1.4.11 2.6.12/3.3.10 ~5.7.7.10.12.11 S taken=13,12 last=N "
            "gone=1.1.1.2.2.2.3.3.4.4.4.5.5.5.6.6.6.7.7.10.10.11.11.12.12")
    r = CliRunner().invoke(main, ["--json", "--method", "expectimax", "-"], input=line + "\n")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)["positions"][0]
    assert doc["method"] == "expectimax"
    idx = {r: i for i, r in enumerate(RANKS)}
    game = Game(PRESETS["lmodire"], 2, 0, [idx[r] for r in (5, 7, 7, 10, 12, 11)], shuffled=True)
    state = game.initial_state([idx[1], idx[4], idx[11]], [[idx[2], idx[6], idx[12]],
                                                           [idx[3], idx[3], idx[10]]], 0, last=1)
    slow = expectimax_root(game, state, permute=False)
    base = 13 - 12
    for mv in doc["moves"]:
        want = (slow[idx[int(mv["move"])]] + base) / 2
        assert abs(mv["value"] - float(want)) <= 1e-9


@pytest.mark.slow
def test_star1_keeps_bounds_apart_from_exact_values_across_two_deals():
    """A regression: with float values, a chance child that fails low
    returns its window's edge gain - beta, and the parent's gain - (gain -
    beta) rounded to just inside its own window, so a bound was stored as
    an exact value (5.4556 here instead of 5.4525). Plain expectimax over
    the game's outcomes, with no pruning, is the judge."""
    s = (4312797184, 4503599627370496, 1, 6, 0, 1, 73299867408)
    stock = [r for r in range(10) for _ in range(((s[6] >> (4 * r)) & 15).bit_count())]
    game = Game(PRESETS["lmodire"], 2, 0, stock, shuffled=True)
    plain = expectimax_root(game, s, permute=False)
    fast = Expectimax(game).root_values(s)
    assert fast.keys() == plain.keys()
    assert all(abs(fast[m] - plain[m]) < 1e-9 for m in plain)
    assert abs(max(plain.values()) - 5.452527056277063) < 1e-9


@pytest.mark.slow
def test_exact_fractions_equal_expectimax_in_fractions():
    """``--exact``: each expectimax value as a fraction, equal to plain
    expectimax over every order of the 6-card stock computed in Fractions
    (an independent exact method); the JSON values carry no float noise."""
    line = ("1.4.11 2.6.12/3.3.10 ~5.7.7.10.12.11 S taken=13,12 last=N "
            "gone=1.1.1.2.2.2.3.3.4.4.4.5.5.5.6.6.6.7.7.10.10.11.11.12.12")
    r = CliRunner().invoke(main, ["--json", "--exact", "--method", "expectimax", "-"],
                           input=line + "\n")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)["positions"][0]
    idx = {r: i for i, r in enumerate(RANKS)}
    game = Game(PRESETS["lmodire"], 2, 0, [idx[r] for r in (5, 7, 7, 10, 12, 11)], shuffled=True)
    state = game.initial_state([idx[1], idx[4], idx[11]], [[idx[2], idx[6], idx[12]],
                                                           [idx[3], idx[3], idx[10]]], 0, last=1)
    slow = expectimax_root(game, state, permute=True)       # Fractions
    values = set()
    for mv in doc["moves"]:
        want = (slow[idx[int(mv["move"])]] + (13 - 12)) / 2
        assert isinstance(want, Fraction)
        assert Fraction(mv["value_exact"]) == want
        assert mv["value"] == round(float(want), 6)
        values.add(want)
    assert Fraction(doc["value_exact"]) == max(values)
    assert any(v.denominator > 2 for v in values)       # a real fraction was recovered


def test_exact_values_are_integers_in_json():
    """The exact method prints whole values as integers (over all 40 cards
    the card count is a whole number, so every exact value is)."""
    r = CliRunner().invoke(main, ["--json", "--exact", "--method", "exact", "-"],
                           input="5.6 5.7/3.3 - S taken=17,17 last=N\n"
                                 "5.6 5.7/3.3 - S taken=18,16 last=N\n")
    docs = json.loads(r.stdout)["positions"]
    assert [d["value"] for d in docs] == [1, 2]
    assert all(type(d["value"]) is int for d in docs)
    assert [d["value_exact"] for d in docs] == ["1", "2"]
    # by hand: S's 5 takes the 5 and clears the table (missa +1), then the
    # piles end 20-20; S's 7 first lets N sweep, 20-20 and no missa: 0
    r = CliRunner().invoke(main, ["--json", "--method", "exact", "-"],
                           input="5 5.7/3.3 - S taken=18,17 last=N\n")
    moves = json.loads(r.stdout)["positions"][0]["moves"]
    assert [(m["move"], m["value"]) for m in moves] == [("5", 1), ("7", 0)]
    assert all(type(m["value"]) is int for m in moves)
