"""Exact expectimax (the compiled core) against plain expectimax of the
independent reference (tests/reference.py: every dealing of the stock's
physical cards, no pruning, no table; in exact Fractions where asked), and
the deal outcomes against a count of permutations."""

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
from solver.engine.hand import Hand
from solver.engine.scoring import cardset, ranks_of
from solver.rules import PRESETS, deal_sizes
from solver.search.compiled import Searcher

from reference import reference_general


def small_chance_position(rng, preset, players):
    """Hands of 1 card, a shuffled stock of one deal, the rest on the
    table or taken (by side 0 or 1, the last capturer): the Hand, the core
    state, the reference's arguments and the piles."""
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    stock_len = deal_sizes(PRESETS[preset], players)[-1] * players
    stock, deck = deck[:stock_len], deck[stock_len:]
    hands = [deck[i:i + 1] for i in range(players)]
    deck = deck[players:]
    table = []
    for c in deck[:rng.randint(0, 4)]:
        if PRESETS[preset].table_rule == "free" or c not in table:
            table.append(c)
    last = rng.choice([0, 1])
    gone = 40 - len(table) - players - stock_len
    cut = rng.randint(1, gone - 1)
    taken = (cut, gone - cut)
    game = Hand(PRESETS[preset], players, 0, stock, shuffled=True)
    state = game.initial_state(table, hands, 0, last=last)
    args = (PRESETS[preset], [RANKS[c] for c in table], [[RANKS[c] for c in h] for h in hands],
            [RANKS[c] for c in stock], 0, 0)
    kw = dict(last_side=last % 2, taken=taken, shuffled=True)
    return game, state, args, kw, taken


# four players: a 12-card deal has too many dealings for the plain check;
# french's last four-player deal gives 2 cards each (8 cards)
CASES = [(p, 2) for p in PRESETS] + [("french", 4)]


@pytest.mark.parametrize("preset,players", CASES)
def test_expectimax_equals_plain_expectimax(preset, players):
    rng = random.Random(f"em-{preset}-{players}")
    for _ in range(3 if players == 2 else 2):
        game, state, args, kw, taken = small_chance_position(rng, preset, players)
        fast = Searcher(game.P, game.D, 16.0).root_values(state)
        slow = reference_general(*args, **kw)
        base = taken[0] - taken[1]
        assert {RANKS[m] for m in fast} == set(slow)
        for m, v in fast.items():
            assert abs((v + base) / 2 - slow[RANKS[m]]) <= 1e-9


def test_outcome_probabilities_count_permutations():
    """The rank-multiset outcomes of a deal, with their probabilities,
    equal the frequencies over every order of the stock's cards."""
    stock = [0, 0, 1, 2, 2, 2]
    game = Hand(PRESETS["lmodire"], 2, 0, stock, shuffled=True)
    chance = (0, 0, 0, 0, 0, 0, -1, 0, -1, cardset(stock), 0)
    outs = game.outcomes(chance)
    freq: Counter = Counter()
    for order in permutations(range(6)):
        s_hand = tuple(sorted(stock[j] for j in order[:3]))
        freq[s_hand] += 1
    total = sum(freq.values())
    got = {}
    for p, _gain, child in outs:
        got[tuple(ranks_of(child[1]))] = p
    assert set(got) == set(freq)
    for hand, n in freq.items():
        assert got[hand] == pytest.approx(float(Fraction(n, total)), abs=1e-12)
    assert sum(p for p, _g, _c in outs) == pytest.approx(1.0, abs=1e-12)


LINE = ("1.4.11 2.6.12/3.3.10 ~5.7.7.10.12.11 S taken=13,12 last=N "
        "gone=1.1.1.2.2.2.3.3.4.4.4.5.5.5.6.6.6.7.7.10.10.11.11.12.12")


def _plain(fraction: bool = False):
    return reference_general(PRESETS["lmodire"], [1, 4, 11], [[2, 6, 12], [3, 3, 10]],
                             [5, 7, 7, 10, 12, 11], 0, 0, last_side=1, taken=(13, 12),
                             shuffled=True, fraction=fraction)


def test_cli_expectimax_json_agrees_with_plain_expectimax():
    # hands known, a shuffled stock of one deal (6 cards), last deal to come
    r = CliRunner().invoke(main, ["--json", "--method", "expectimax", "-"], input=LINE + "\n")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)["positions"][0]
    assert doc["method"] == "expectimax"
    slow = _plain()
    for mv in doc["moves"]:
        assert abs(mv["value"] - slow[int(mv["move"])]) <= 1e-6


@pytest.mark.slow
def test_exact_fractions_equal_expectimax_in_fractions():
    """``--exact``: each expectimax value as a fraction, equal to plain
    expectimax over every dealing of the 6-card stock computed in
    Fractions (an independent exact method); the JSON values carry no
    float noise."""
    r = CliRunner().invoke(main, ["--json", "--exact", "--method", "expectimax", "-"],
                           input=LINE + "\n")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)["positions"][0]
    slow = _plain(fraction=True)
    values = set()
    for mv in doc["moves"]:
        want = slow[int(mv["move"])]
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


def _start_of_deal(unseen: int, seed: int):
    from solver.games.seeded import seeded_deal
    d = seeded_deal(f"em{unseen}-{seed}", unseen)
    game = Hand(PRESETS["lmodire"], 2, 0, d.stock, shuffled=True)
    return game, game.initial_state(d.table, [d.rest[:3], d.rest[3:6]], 0, last=0)


def test_a_large_expectimax_starts_with_a_larger_table(monkeypatch):
    """12 unseen cards and two hands: the search starts with the larger
    table (no growth), the same values as one that starts small and grows;
    a memory budget under that table keeps its own size."""
    import solver.search.compiled as sc
    game, st = _start_of_deal(12, 1)
    big = Searcher(game.P, game.D, 3500.0)
    values = big.root_values(st)
    assert big.stats()["tt_capacity"] == sc.LARGE_FIRST_ENTRIES
    assert big.stats()["tt_grown"] == 0
    small_budget = Searcher(game.P, game.D, 8.0)
    assert small_budget.root_values(st) == pytest.approx(values, abs=1e-9)
    assert small_budget.stats()["tt_capacity"] * 32 <= 8 * (1 << 20)
    monkeypatch.setattr(sc, "LARGE_FIRST_ENTRIES", sc.FIRST_TABLE_ENTRIES)
    grows = Searcher(game.P, game.D, 3500.0)
    assert grows.root_values(st) == pytest.approx(values, abs=1e-9)
    assert grows.stats()["tt_grown"] >= 1
    # a small position (6 cards to play, the last deal to come) keeps the small table
    game6, st6 = _start_of_deal(6, 1)
    s6 = Searcher(game6.P, game6.D, 3500.0)
    s6.root_values(st6)
    assert s6.stats()["tt_capacity"] == sc.FIRST_TABLE_ENTRIES


def test_a_table_on_small_pages_gives_the_same_values(monkeypatch):
    """A table of 128 MB or more is placed on small pages
    (solver.search.memory: huge pages cost 10 ms each to fault in on a
    virtual machine that returns free memory to its host); the search on it
    gives the values of a search on numpy's own table."""
    import solver.search.compiled as sc
    from solver.search.memory import SMALL_PAGES_BYTES, huge_pages
    game, st = _start_of_deal(12, 2)
    values = Searcher(game.P, game.D, 64.0).root_values(st)
    entries = 2 * SMALL_PAGES_BYTES // 32
    monkeypatch.setattr(sc, "LARGE_FIRST_ENTRIES", entries)
    big = Searcher(game.P, game.D, 3500.0)
    assert big.root_values(st) == pytest.approx(values, abs=1e-9)
    assert big.stats()["tt_capacity"] == entries
    assert not huge_pages(big.TT)
    assert huge_pages(Searcher(game.P, game.D, 8.0).TT)


@pytest.mark.parametrize("preset,players", [("lmodire", 2), ("french", 2), ("french", 4)])
def test_expectimax_with_the_hashes_passed_down_equals_plain_expectimax(preset, players):
    """A table over kernels.PREFETCH_ENTRIES: each node hashes its children
    (a chance node its next outcomes) for the prefetch and passes the hashes
    down; the values are the plain reference's, one thread and two alike."""
    from solver.search import kernels as kn
    rng = random.Random(f"em-keys-{preset}-{players}")
    for _ in range(3):
        game, state, args, kw, taken = small_chance_position(rng, preset, players)
        got = []
        for workers in (1, 2):
            s = Searcher(game.P, game.D, 64.0, workers)
            s.TT, s.TF = kn.new_table(1 << 19)
            assert s.TT.shape[0] > kn.PREFETCH_ENTRIES
            s._set_grow()
            got.append(s.root_values(state))
        assert got[0] == got[1]
        slow = reference_general(*args, **kw)
        base = taken[0] - taken[1]
        assert {RANKS[m] for m in got[0]} == set(slow)
        for m, v in got[0].items():
            assert abs((v + base) / 2 - slow[RANKS[m]]) <= 1e-9
