"""The self-play players: specs, and the choice each makes in positions
worked out by hand. They are given the seat's view only."""

from __future__ import annotations

import random

import pytest

from solver.cards import Card, parse_cards
from solver.games.match import DECK, HandState
from solver.games.players import (EnginePlayer, GreedyPlayer, MonteCarloPlayer, RandomPlayer,
                            make_player)
from solver.rules import PRESETS


def stacked(table: str, leader_hand: str, other_hand: str, dealer: int = 1,
            preset: str = "mod") -> HandState:
    """A two-player hand whose first deal is given (the leader's hand
    first), under a free-table preset so that any table can be set."""
    used = parse_cards(table) + parse_cards(leader_hand) + parse_cards(other_hand)
    rest = [c for c in DECK if c not in used]
    hs = HandState(PRESETS[preset], 2, dealer, parse_cards(table),
                   stock=parse_cards(leader_hand) + parse_cards(other_hand) + rest)
    hs.deal()
    return hs


def test_specs():
    assert make_player("engine:7").samples == 7
    assert make_player("mc").playouts == 100
    assert make_player("greedy").name == "greedy"
    with pytest.raises(ValueError, match=r"unknown player 'foo' \(kinds: random, greedy, "
                                         r"greedy:P, mc:N, engine:K, engine:Ts, deal:Ts, human\)"):
        make_player("foo")
    with pytest.raises(ValueError, match="'x' is not a whole number of playouts"):
        make_player("mc:x")
    with pytest.raises(ValueError, match="'0' is not a whole number of samples"):
        make_player("engine:0")


def test_greedy_prefers_the_hit_to_a_bigger_capture():
    # N leads 11o onto 5c 6e 12b 1o. S: the 11c hit scores 1 + 2 cards
    # (2 points now); 5o takes 5c 6e (3 cards, 1.5); 2o lays.
    hs = stacked("5c.6e.12b.1o", "11o.3c.4c", "11c.5o.2o", dealer=0)
    hs.play(Card(11, "o"))
    assert GreedyPlayer().choose(hs.view(), random.Random(0)) == Card(11, "c")


def test_greedy_lays_the_card_least_likely_to_be_hit():
    # S leads; nothing captures. Two 7s in hand: two 7s unseen, three 10s.
    hs = stacked("1o.3c.5e.12b", "7o.7c.10b", "2o.4c.6e")
    assert GreedyPlayer().choose(hs.view(), random.Random(0)).rank == 7
    # 2, 10, 11 each have 3 unseen; a 2 on the table would be taken with
    # the 3, an 11 with the 12, a 10 alone: lay the 10.
    hs = stacked("1o.3c.5e.12b", "2o.10c.11b", "2c.4c.6e")
    assert GreedyPlayer().choose(hs.view(), random.Random(0)) == Card(10, "c")


def answer_position() -> HandState:
    """S laid 4o, N hit it with 4e: S can answer with 4c for 5 points."""
    hs = stacked("1o.3c.6e.12b", "4o.4c.10b", "4e.2o.11o")
    hs.play(Card(4, "o"))
    hs.play(Card(4, "e"))
    return hs


def test_monte_carlo_and_engine_take_the_answer():
    hs = answer_position()
    assert hs.view().show is not None
    assert MonteCarloPlayer(20).choose(hs.view(), random.Random(1)) == Card(4, "c")
    assert EnginePlayer(8).choose(hs.view(), random.Random(1)) == Card(4, "c")


def test_players_play_from_their_hand_only():
    hs = answer_position()
    view = hs.view()
    assert view.hands[1] == [None, None]
    for player in (RandomPlayer(), GreedyPlayer(), MonteCarloPlayer(3), EnginePlayer(2)):
        for seed in range(3):
            assert player.choose(view, random.Random(seed)) in hs.hands[0]


def test_timed_engine_spec_and_play():
    from solver.games.players import TimedEnginePlayer
    p = make_player("engine:0.05s")
    assert isinstance(p, TimedEnginePlayer) and p.seconds == 0.05 and p.name == "engine:0.05s"
    with pytest.raises(ValueError):
        make_player("engine:0s")
    with pytest.raises(ValueError):
        make_player("engine:fast")
    # it plays a legal card, in the last two deals too (the equilibrium)
    from solver.games.match import play_match
    from solver.rules import PRESETS
    log = play_match(PRESETS["lmodire"], [p, make_player("greedy")], seed=2, max_hands=1)
    assert log.hands


def test_a_timed_engine_with_too_little_time_still_plays():
    """Three players early in a hand: no determinisation finishes in a
    millisecond; the player answers with the one-ply values (as `auto`
    does) instead of stopping the game with an error. (Deals of four
    cards: one determinisation of the whole hand takes seconds, so the
    abort lands first however late a loaded machine runs the thread that
    sets it; with deals of three one takes about 9 ms, and a run of the
    whole suite once finished one before the abort.)"""
    from solver.analysis.evaluation import BudgetError, evaluate
    from solver.games.match import play_match
    p = make_player("engine:0.001s")
    hs = HandState(PRESETS["french"].with_overrides({"deal_size": "4"}), 3, 2,
                   parse_cards("1c.4o.7e.11b"),
                   stock=[c for c in DECK if c not in parse_cards("1c.4o.7e.11b")])
    hs.deal()
    view = hs.view()
    with pytest.raises(BudgetError):        # the named method alone gives up
        evaluate(view, method="determinised", samples=1_000_000, time_budget=0.001, workers=1)
    card = p.choose(view, random.Random(1))
    assert card in hs.hands[hs.turn]
    log = play_match(PRESETS["french"], [p, make_player("greedy"), make_player("greedy")],
                     seed=3, max_hands=1)
    assert log.hands


def test_an_engine_without_time_for_one_determinisation_names_its_own_remedy():
    """``engine:K`` has 10 s a decision and the game commands have no
    ``--time``: when not one determinisation finishes, the error names the
    player and the spec that plays within a time a decision."""
    from solver.analysis.evaluation import BudgetError
    stock = [c for c in DECK if c not in parse_cards("1c.4o.7e.11b")]
    random.Random(0).shuffle(stock)
    hs = HandState(PRESETS["french"], 3, 2, parse_cards("1c.4o.7e.11b"), stock=stock)
    hs.deal()
    assert len({c.rank for c in hs.hands[hs.turn]}) > 1        # a choice to make
    p = EnginePlayer(4, time_budget=0.001)
    with pytest.raises(BudgetError) as err:
        p.choose(hs.view(), random.Random(1))
    assert str(err.value) == ("player engine:4: no determinisation finished in 0.001 s (its limit "
                              "a decision); engine:Ts plays within T seconds a decision, "
                              "e.g. engine:0.001s")
    assert "--time" not in str(err.value)
