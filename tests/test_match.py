"""The hand and match simulator: dealing, scoring against the independent
reference (tests/reference.py), winning, what a seat sees."""

from __future__ import annotations

import random

import pytest

from solver.cards import Card, parse_cards
from solver.games.match import (DECK, HandState, PlayError, deal_hand, distinct_table_ok, hand_rng,
                          play_hand, play_match)
from solver.notation import format_position, parse_position
from solver.games.players import RandomPlayer
from solver.rules import PRESETS, deal_sizes, stock_sizes

import reference as ref


class IdentityRng(random.Random):
    """An RNG whose shuffle leaves the list alone (a stacked deck)."""

    def shuffle(self, x):  # noqa: D401 - keeps the order
        return None


def test_distinct_table_replaces_pairs_and_runs_in_dealing_order():
    # Deck in rank order 1o 1c 1e 1b 2o ...: 1o stays; the other 1s pair it
    # and the 2s run with it, so they go under the stock; 3o stays, and so on.
    table, stock = deal_hand(PRESETS["lmodire"], 2, IdentityRng())
    assert [str(c) for c in table] == ["1o", "3o", "5o", "7o"]
    assert [str(c) for c in stock[:3]] == ["7c", "7e", "7b"]
    assert [str(c) for c in stock[-3:]] == ["6c", "6e", "6b"]
    assert sorted(table + stock) == sorted(DECK)


def test_free_table_is_the_top_four_cards():
    table, stock = deal_hand(PRESETS["mod"], 2, IdentityRng())
    assert [str(c) for c in table] == ["1o", "1c", "1e", "1b"]
    assert len(stock) == 36


def test_seven_and_ten_are_not_adjacent_in_french_tables():
    assert not distinct_table_ok(PRESETS["lmodire"], parse_cards("7.10.1.3"))
    assert distinct_table_ok(PRESETS["lmodire"].with_overrides({"seven_ten_adjacent": "no"}),
                             parse_cards("7.10.1.3"))
    assert not distinct_table_ok(PRESETS["lmodire"], parse_cards("4.4.1.10"))


@pytest.mark.parametrize("seed", range(30))
def test_dealt_tables_obey_the_rule(seed):
    rules = PRESETS["lmodire"]
    table, stock = deal_hand(rules, 2, random.Random(seed))
    assert distinct_table_ok(rules, table)
    assert sorted(table + stock) == sorted(DECK)


def _reference_hand(rules, players, dealer, table, stock, rng):
    """Play a hand at random with HandState and with the reference side by
    side; compare every play's points and piles, and the end."""
    hs = HandState(rules, players, dealer, table, stock=stock)
    leader = (dealer + 1) % players
    rtable = [c.rank for c in table]
    rstock = [c.rank for c in stock]
    piles = [0, 0]
    points = [0, 0]
    prev = show = last = None
    while not hs.finished:
        if hs.awaiting_deal:
            hs.deal()
            hands, rstock = ref.deal(rules, players, rstock, leader)
            decl = ref.declaration_points(rules, hands)
            points = [points[0] + decl[0], points[1] + decl[1]]
            prev = show = None
            assert hs.points == points
            continue
        seat = hs.turn
        card = hs.hands[seat][rng.randrange(len(hs.hands[seat]))]
        last_card = not rstock and sum(len(h) for h in hands) == 1
        ev = ref.reference_events(rules, rtable, prev, show, card.rank, last_card)
        hands[seat].remove(card.rank)
        event = hs.play(card)
        side = seat % 2
        if ev["capture"]:
            last = side
        piles[side] += ev["gained"]
        piles[1 - side] -= ev["lost_by_other"]
        points[side] += ev["points"]
        rtable, prev, show = ev["table"], ev["prev"], ev["show"]
        assert sorted(c.rank for c in event.captured) == sorted(
            [card.rank] + ev["from_table"] if ev["kind"] in ("hit", "capture")
            else [card.rank] * (ev["answer"] + 1) if ev["kind"] == "answer" else [])
        if hs.awaiting_deal or hs.finished:
            prev = show = None
        if not hs.finished:
            assert [len(p) for p in hs.piles] == piles
            assert sorted(c.rank for c in hs.table) == sorted(rtable)
    end = ref.end_of_hand_points(rules, rtable, last, piles)
    assert hs.points == [points[0] + end[0], points[1] + end[1]]
    assert sum(len(p) for p in hs.piles) == (40 if last is not None else 40 - len(rtable))
    return hs


@pytest.mark.parametrize("preset,players", [("lmodire", 2), ("pagat", 2), ("pagat", 4),
                                            ("mod", 2), ("french", 2), ("french", 4)])
def test_scoring_agrees_with_the_reference(preset, players):
    rules = PRESETS[preset]
    for seed in range(25):
        rng = random.Random(seed)
        table, stock = deal_hand(rules, players, rng)
        _reference_hand(rules, players, seed % players, table, stock, rng)


def test_hand_points_are_the_engine_margin():
    """With two sides and every card in the piles, the margin of the hand's
    points is the sum of the engine's gains (half-points) / 2."""
    rules = PRESETS["lmodire"]
    for seed in range(20):
        rng = random.Random(100 + seed)
        table, stock = deal_hand(rules, 2, rng)
        hs = HandState(rules, 2, 1, table, stock=stock)
        hs.deal()
        margin = 2 * (hs.points[0] - hs.points[1])
        while not hs.finished:
            if hs.awaiting_deal:
                hs.deal()
                continue
            seat = hs.turn
            _child, gain, _ev = hs.game.play(hs.state, hs.hands[seat][0].index)
            margin += gain if seat == 0 else -gain
            hs.play(hs.hands[seat][0])
        if hs.last_seat is not None:
            assert 2 * (hs.points[0] - hs.points[1]) == margin


def _stacked(table, s_hand, n_hand):
    """The table and a stock whose first deal gives S (the leader, N
    deals) and N these cards; the rest in deck order."""
    used = parse_cards(table) + parse_cards(s_hand) + parse_cards(n_hand)
    rest = [c for c in DECK if c not in used]
    return parse_cards(table), parse_cards(s_hand) + parse_cards(n_hand) + rest


def test_immediate_win_stops_the_hand_at_the_hit():
    rules = PRESETS["lmodire"]
    table, stock = _stacked("1o.4c.6e.11b", "2o.7c.12e", "2c.10o.12o")
    hs = HandState(rules, 2, 1, table, score=[0, 40], target=41, stock=stock)
    hs.deal()
    hs.play(Card(2, "o"))           # S lays the 2
    assert not hs.finished
    event = hs.play(Card(2, "c"))   # N hits it: +1, 41
    assert event.points == [0, 1] and hs.winner == 1 and hs.finished
    with pytest.raises(PlayError, match="the hand is over"):
        hs.play(Card(7, "c"))


def test_declarations_can_win_at_the_deal():
    rules = PRESETS["lmodire"]
    table, stock = _stacked("1o.4c.6e.11b", "2o.2c.12e", "3c.10o.12o")
    hs = HandState(rules, 2, 1, table, score=[40, 0], target=41, stock=stock)
    assert hs.deal() == [1, 0]
    assert hs.winner == 0 and hs.finished


def test_end_of_hand_win_plays_the_hand_out():
    rules = PRESETS["french"]
    table, stock = deal_hand(rules, 2, random.Random(5))
    log = play_hand(rules, 2, 1, table, stock, [RandomPlayer(), RandomPlayer()],
                    [random.Random(1), random.Random(2)], score=[50, 0], target=51)
    assert sum(len(p) for p in log.plays) == 36       # every card played
    assert log.winner == (0 if log.score[0] > log.score[1] else 1 if log.score[1] > log.score[0]
                          else None)


def test_a_card_not_in_hand_is_refused_with_the_hand():
    table, stock = _stacked("1o.4c.6e.11b", "2o.7c.12e", "2c.10o.12o")
    hs = HandState(PRESETS["lmodire"], 2, 1, table, stock=stock)
    hs.deal()
    with pytest.raises(PlayError, match=r"3o is not in S's hand \(2o.7c.12e\)"):
        hs.play(Card(3, "o"))
    with pytest.raises(PlayError, match="still being played"):
        hs.deal()


def test_a_fifth_card_or_a_card_seen_twice_is_refused():
    with pytest.raises(PlayError, match="1o in S's hand was already seen"):
        hs = HandState(PRESETS["lmodire"], 2, 1, parse_cards("1o.4c.6e.11b"))
        hs.deal([parse_cards("1o.2.3"), parse_cards("5.5.5")])
    with pytest.raises(PlayError, match="fifth card of rank 5"):
        hs = HandState(PRESETS["lmodire"], 2, 1, parse_cards("1o.4c.6e.11b"))
        hs.deal([parse_cards("5.5.3"), parse_cards("5.5.5")])


def test_views_parse_back_and_hide_what_the_seat_cannot_see():
    rules = PRESETS["pagat"]
    seen = []

    class Spy(RandomPlayer):
        def choose(self, view, rng):
            seen.append(view)
            return super().choose(view, rng)

    for seed in range(4):
        play_match(rules, [Spy(), Spy(), Spy(), Spy()], seed=seed, max_hands=2)
    assert len(seen) > 100
    for view in seen:
        assert parse_position(format_position(view)) == view
        assert view.stock_kind == "unknown"
        for seat, hand in enumerate(view.hands):
            if seat == view.turn:
                assert all(c is not None for c in hand)
            else:   # only cards of a declared pair or triple can show
                assert all(c is None or c.suit is None for c in hand)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_views_carry_the_plays_of_the_deal(preset):
    """hist= holds the current deal's plays in turn order from its table;
    the line parses back (the parser replays them: table, prev, show)."""
    seen = []

    class Spy(RandomPlayer):
        def choose(self, view, rng):
            seen.append(view)
            return super().choose(view, rng)

    play_match(PRESETS[preset], [Spy(), Spy()], seed=3, max_hands=2)
    assert len(seen) > 30
    for view in seen:
        assert parse_position(format_position(view)) == view
        rules = PRESETS[preset]
        stock_n = 40 - len(view.table) - sum(map(len, view.hands)) - len(view.gone)
        size = deal_sizes(rules, 2)[stock_sizes(rules, 2)[stock_n] - 1]
        played = sum(size - len(h) for h in view.hands)
        assert view.hist is not None and len(view.hist.plays) == played
        assert [s for s, _c in view.hist.plays] == [
            (view.leader() + i) % 2 for i in range(played)]


def test_a_declared_pair_shows_in_the_view():
    table, stock = _stacked("1o.4c.6e.11b", "7o.10c.12e", "2c.2o.12o")
    hs = HandState(PRESETS["lmodire"], 2, 1, table, stock=stock)
    hs.deal()
    assert format_position(hs.view()).split()[1] == "7o.10c.12e/2.2.?"
    assert "declared=N:ronda2" in format_position(hs.view())
    hs.play(Card(7, "o"))
    hs.play(Card(2, "c"))           # N lays one of its 2s
    line = format_position(hs.view())
    assert line.split()[1] == "10c.12e/2.?" and "declared" not in line
    assert parse_position(line).hands[1] == [Card(2), None]


def test_match_rotates_the_dealer_and_reaches_the_target():
    m = play_match(PRESETS["lmodire"], [RandomPlayer(), RandomPlayer()], seed=3)
    assert [h.dealer for h in m.hands][:4] == [1, 0, 1, 0]
    assert m.winner is not None and max(m.score) >= 41
    assert m.score[m.winner] == max(m.score)
    assert hand_rng(3, 1).random() == hand_rng(3, 1).random()
