"""Property tests (hypothesis) of invariants the engine must keep:

- the 40 cards are conserved by every play;
- values are zero-sum: a move's value is its gain less the child's value
  for the other side, searched afresh;
- suits and the written order of the table and hands never change a value;
- swapping the seats (S with N, E with W) gives the mover the same value,
  that is, negates the value seen from a fixed seat.
"""

from __future__ import annotations

import random

from hypothesis import assume, given, settings, strategies as st

from solver.analysis.evaluation import evaluate
from solver.cards import RANKS, SUITS
from solver.notation import NotationError, format_position, parse_position
from solver.position import seat_names
from solver.engine.hand import Hand
from solver.rules import PRESETS, deal_sizes
from solver.search.compiled import Searcher

from rulesets import RULESETS, rules_keys


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
    game = Hand(rules, players, 0, stock)
    state = game.initial_state(table, hands, turn,
                               -1 if prev is None else prev,
                               0 if show is None else show[0] * 4 + show[1],
                               -1 if last is None else last)
    side = turn % 2
    base = taken[side] - taken[1 - side]
    return game, state, base


def hands_bits(s) -> int:
    """Cards in every hand of a core state."""
    return sum(int(s[1 + k]).bit_count() for k in range(4))


def position_line(seed: int, preset: str, players: int) -> str:
    """A notation line for a random position."""
    rng = random.Random(seed)
    rules, table, hands, stock, turn, prev, show, last, taken = random_position(rng, players, preset)
    names = seat_names(players)
    fmt = lambda rs: ".".join(str(RANKS[r]) for r in rs) or "-"  # noqa: E731
    keys = rules_keys(preset)
    keys.append(f"dealer={names[-1]}")
    if sum(taken):
        keys.append(f"taken={taken[0]},{taken[1]}")
    if last is not None:
        keys.append(f"last={names[last]}")
    if prev is not None:
        keys.append(f"prev={RANKS[prev]}")
    if show is not None:
        keys.append(f"show={RANKS[show[0]]}:{show[1]}")
    return " ".join([fmt(table), "/".join(fmt(h) for h in hands), fmt(stock),
                     names[turn], *keys])


SEEDS = st.integers(0, 10**9)
CASES = st.sampled_from([(p, n) for p in RULESETS for n in (2, 4)])
#: the preset/player pairs a position line may name (a preset's players)
LINE_CASES = st.sampled_from([(p, n) for p in RULESETS for n in (2, 4)
                              if n in RULESETS[p].players])


@settings(max_examples=60, deadline=None)
@given(SEEDS, CASES, st.randoms(use_true_random=False))
def test_cards_are_conserved(seed, case, rnd):
    """Along a random playout, the cards in play (table, hands, stock not
    yet dealt) fall by exactly the cards won: its own card and the table
    cards a capture takes, the own card of an answer, the table swept at
    the end; with nobody capturing all hand, the table stays unclaimed."""
    preset, players = case
    position = random_position(random.Random(seed), players, preset)
    game, state, _base = engine_values(*position, players)
    stock, taken = game.stock, position[-1]

    def in_play(s):
        return s[0].bit_count() + hands_bits(s) + len(stock) - s[9]

    assert in_play(state) + sum(taken) == 40
    while not game.is_terminal(state):
        move = rnd.choice(game.moves(state))
        child, _gain, ev = game.play(state, move)
        table_after = state[0].bit_count()
        if ev & 12:                       # answer: its own card is won
            won = 1
        elif ev & 1:                      # capture: own card + what it takes
            took = game.capture(state, move).bit_count()
            won = 1 + took
            table_after -= took
        else:                             # lays: the card joins the table
            won = 0
            table_after += 1
        if ev & 64 and child[8] >= 0:     # end of hand: the sweep
            won += table_after
        assert in_play(state) - in_play(child) == won
        state = child
    assert in_play(state) == (0 if state[8] >= 0 else state[0].bit_count())


@settings(max_examples=60, deadline=None)
@given(SEEDS, CASES)
def test_values_are_zero_sum(seed, case):
    preset, players = case
    position = random_position(random.Random(seed), players, preset)
    game, state, _base = engine_values(*position, players)
    values = Searcher(game.P, game.D, 8.0).root_values(state)
    for move, value in values.items():
        child, gain, _ev = game.play(state, move)
        after = 0.0 if game.is_terminal(child) else Searcher(game.P, game.D, 8.0).value(child)
        assert value == gain - after


def _parses(line: str) -> bool:
    """Whether the notation takes the line (the random positions of
    the cross-checks are consistent card-wise, but a few break a rule of
    the notation, e.g. a show whose cards cannot have been played)."""
    try:
        parse_position(line)
    except NotationError:
        return False
    return True


def _respell(line: str, rnd: random.Random) -> str:
    """Give every card of the table and hands a random suit (no suited card
    twice) and shuffle their written order; the stock keeps its order."""
    pos = parse_position(line)
    free = {r: list(SUITS) for r in RANKS}
    for r in free:
        rnd.shuffle(free[r])

    def suit(cards):
        return [type(c)(c.rank, free[c.rank].pop()) for c in cards]

    pos.table = suit(pos.table)
    rnd.shuffle(pos.table)
    pos.hands = [suit(h) for h in pos.hands]
    for h in pos.hands:
        rnd.shuffle(h)
    pos.prev = next(c for c in pos.table if c.rank == pos.prev.rank) if pos.prev else None
    return format_position(pos)


@settings(max_examples=40, deadline=None)
@given(SEEDS, LINE_CASES, st.randoms(use_true_random=False))
def test_suits_and_card_order_never_change_a_value(seed, case, rnd):
    line = position_line(seed, *case)
    assume(_parses(line))
    plain = evaluate(parse_position(line))
    spelled = evaluate(parse_position(_respell(line, rnd)))
    assert plain.value == spelled.value
    assert sorted((m.rank, m.value) for m in plain.moves) == \
        sorted((m.rank, m.value) for m in spelled.moves)


def _swap_seats(line: str) -> str:
    """The same position with the sides' seats exchanged, every seat moved
    one place on (S->N with two players; S->E->N->W->S with four, which
    swaps the partnerships and keeps the order of play)."""
    pos = parse_position(line)
    p = pos.players
    pos.hands = [pos.hands[(s - 1) % p] for s in range(p)]
    pos.turn = (pos.turn + 1) % p
    pos.dealer = (pos.dealer + 1) % p if pos.dealer is not None else None
    pos.last = (pos.last + 1) % p if pos.last is not None else None
    if pos.taken is not None:
        pos.taken = (pos.taken[1], pos.taken[0])
    if pos.tops is not None:
        pos.tops = (pos.tops[1], pos.tops[0])
    if pos.show is not None and pos.show.seat is not None:
        pos.show.seat = (pos.show.seat + 1) % p
    return format_position(pos)


@settings(max_examples=40, deadline=None)
@given(SEEDS, LINE_CASES)
def test_swapping_the_seats_negates_the_value(seed, case):
    preset, players = case
    line = position_line(seed, preset, players)
    assume(_parses(line))
    before = evaluate(parse_position(line))
    after = evaluate(parse_position(_swap_seats(line)))
    # the mover keeps its cards, so its value is unchanged: seen from a fixed
    # seat (S), the value is negated
    assert after.value == before.value
    s_before = before.value if parse_position(line).turn % 2 == 0 else -before.value
    s_after = after.value if parse_position(_swap_seats(line)).turn % 2 == 0 else -after.value
    assert s_after == -s_before


# --- Ronda voleur (decisions V1-V7): the same invariants -------------------

VOLEUR_CASES = st.sampled_from([(p, n) for p in ("french", "lmodire", "pagat")
                                for n in (2, 4) if n in PRESETS[p].players])


def voleur_line(seed: int, preset: str, players: int) -> str:
    """A notation line for test_voleur's random voleur position."""
    from test_voleur import random_voleur
    rules, table, hands, stock, turn, prev, show, last, taken, tops = \
        random_voleur(random.Random(seed), players, preset)
    names = seat_names(players)
    fmt = lambda rs: ".".join(str(RANKS[r]) for r in rs) or "-"  # noqa: E731
    keys = [] if preset == "lmodire" else [f"rules={preset}"]
    keys += ["voleur=yes", f"dealer={names[-1]}", f"taken={taken[0]},{taken[1]}",
             f"last={names[last]}",
             "tops=" + ",".join("-" if t < 0 else str(RANKS[t]) for t in tops)]
    if prev is not None:
        keys.append(f"prev={RANKS[prev]}")
    if show is not None:
        keys.append(f"show={RANKS[show[0]]}:{show[1]}")
    return " ".join([fmt(table), "/".join(fmt(h) for h in hands), fmt(stock),
                     names[turn], *keys])


@settings(max_examples=60, deadline=None)
@given(SEEDS, VOLEUR_CASES, st.randoms(use_true_random=False))
def test_voleur_cards_are_conserved(seed, case, rnd):
    """Along a random voleur playout the cards in play and in the two piles
    always make 40; a capture puts the played rank on the mover's side's
    pile (V1, V6), a steal empties the other pile, and the end-of-hand
    sweep leaves the tops (V1). The piles and tops are read, so the states
    are tracked (a search's own states write the tops and piles nobody can
    steal canonically: tests/test_canon.py)."""
    from test_voleur import engine_state, random_voleur
    preset, players = case
    position = random_voleur(random.Random(seed), players, preset)
    game, state, _base = engine_state(*position, track=True)
    stock = game.stock

    def total(s):
        return (s[0].bit_count() + hands_bits(s) + len(stock) - s[9]
                + game.pile(s, 0) + game.pile(s, 1))

    def tops(s):
        return [game.top(s, 0), game.top(s, 1)]

    assert total(state) == 40
    while not game.is_terminal(state):
        move = rnd.choice(game.moves(state))
        stolen = sum(n for _k, n in game.robbed(state, move))
        child, _gain, ev = game.play(state, move)
        assert total(child) == 40
        me, other = game.sides[state[5]], 1 - game.sides[state[5]]
        if ev & 13:                           # a capture or an answer
            assert tops(child)[me] == move
            if stolen:
                assert (tops(child)[other], game.pile(child, other)) == (-1, 0)
        else:                                 # a card laid; the sweep keeps the tops
            assert not stolen and tops(child) == tops(state)
            assert child[10] == state[10] or ev & 64
        state = child


@settings(max_examples=30, deadline=None)
@given(SEEDS, VOLEUR_CASES, st.randoms(use_true_random=False))
def test_voleur_suits_and_card_order_never_change_a_value(seed, case, rnd):
    line = voleur_line(seed, *case)
    assume(_parses(line))
    plain = evaluate(parse_position(line))
    spelled = evaluate(parse_position(_respell(line, rnd)))
    assert sorted((m.rank, m.value) for m in plain.moves) == \
        sorted((m.rank, m.value) for m in spelled.moves)


@settings(max_examples=30, deadline=None)
@given(SEEDS, VOLEUR_CASES)
def test_voleur_swapping_the_seats_negates_the_value(seed, case):
    line = voleur_line(seed, *case)
    assume(_parses(line))
    before = evaluate(parse_position(line))
    after = evaluate(parse_position(_swap_seats(line)))
    assert after.value == before.value
    s_before = before.value if parse_position(line).turn % 2 == 0 else -before.value
    s_after = after.value if parse_position(_swap_seats(line)).turn % 2 == 0 else -after.value
    assert s_after == -s_before
