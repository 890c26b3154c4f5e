"""Puzzle candidates from games: self-play hands and greedy playouts.

The other sources of candidates next to :mod:`solver.puzzles.compose`; each
writes down every position of a hand's last deal (stock empty: every card
known to a player who counts cards) in which the mover has a real choice.
The candidates are then verified by :func:`solver.puzzles.puzzle.make_puzzle`
like the composed ones.

- :func:`selfplay`: hands dealt and played by :mod:`solver.games.match` between
  players of :mod:`solver.games.players` (``greedy``, ``mc:N``, ``engine:K``...),
  each seat seeing only its own view: the positions real (weak or strong)
  players reach.
- :func:`mine`: the same without the arena, straight over the compiled
  core's play (:class:`solver.engine.hand.Hand`): a random deal (the opening table drawn
  as RULES.md says for ``table_rule = distinct``: four different ranks, no
  two consecutive, an offending card put back under the stock) played out
  by ``greedy`` (the largest immediate gain, ties at random, a random play
  30% of the time) or ``random``. It was the stand-in while the arena did
  not exist, and depends on nothing but the engine.

Each candidate carries the opcode ``game`` (``seed/number``) so that a
generator can keep one puzzle per hand.
"""

from __future__ import annotations

import random
from typing import Iterator

from ..cards import Card, RANKS
from ..engine.hand import LAST, PREV, SEAT, SHOW, STOCK, TABLE, Hand
from ..engine.scoring import TRINGA, best_declaration, ranks_of
from ..notation import NotationError
from ..position import Declaration, Position, Show
from ..rules import Rules, check_players, deal_sizes, preset

NR = len(RANKS)
POLICIES = ("greedy", "random")


def opening(rules: Rules, rng: random.Random) -> tuple[list[int], list[int]]:
    """A shuffled deck dealt to the opening table: ``(table, stock)`` as
    rank indices, the stock in dealing order (``40 - rules.table_cards``
    cards: 36, or 40 with the ``online`` house rule's empty table).

    With ``table_rule = distinct`` (RULES.md "Seats, dealing"): a card whose
    rank is already on the table or next to one there goes back under the
    stock and the next card is drawn; if no valid table can be made the
    deck is shuffled again."""
    n_table = rules.table_cards
    while True:
        deck = [r for r in range(NR) for _ in range(4)]
        rng.shuffle(deck)
        if rules.table_rule != "distinct" or n_table == 0:
            return deck[:n_table], deck[n_table:]
        table: list[int] = []
        rest = deck[:]
        tries = 0
        while len(table) < n_table and tries < len(deck):
            card = rest.pop(0)
            if any(card == t or abs(card - t) == 1 and _adjacent(rules, min(card, t))
                   for t in table):
                rest.append(card)
                tries += 1
            else:
                table.append(card)
        if len(table) == n_table:
            return table, rest


def _adjacent(rules: Rules, r: int) -> bool:
    """Rank index r+1 follows r in runs."""
    return r + 1 < NR and not (r == 6 and not rules.seven_ten_adjacent)


def playout(rules: Rules, rng: random.Random, policy: str = "greedy",
            players: int = 2) -> Iterator[Position]:
    """Play one random hand out and yield each position of its last deal
    where the mover holds two ranks or more, as a checked-by-construction
    Position (every card known, stock empty).

    Raises ValueError for an unknown policy."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} (policies: {', '.join(POLICIES)})")
    table, stock = opening(rules, rng)
    sizes = deal_sizes(rules, players)
    leader = rng.randrange(players)
    first = sizes[0]
    hands = [[] for _ in range(players)]
    for i in range(players):
        seat = (leader + i) % players
        hands[seat] = stock[i * first:(i + 1) * first]
    game = Hand(rules, players, leader, stock[first * players:], track=True)
    state = game.initial_state(table, hands, leader)
    nstock = len(game.stock)
    while not game.is_terminal(state):
        if state[STOCK] == nstock and len(game.moves(state)) >= 2:
            yield _position(game, state, rules)
        moves = game.moves(state)
        if policy == "random" or rng.random() < 0.3:
            m = rng.choice(moves)
        else:
            gains = {m: game.play(state, m)[1] for m in moves}
            top = max(gains.values())
            m = rng.choice([m for m in moves if gains[m] == top])
        state = game.play(state, m)[0]


def _position(game: Hand, state, rules: Rules) -> Position:
    """The Position of a last-deal core state (its piles and, with Ronda
    voleur, its pile tops read off the tracked state). At the start of the
    deal (every hand full) the declarations are written."""
    seat, prev, show, last = state[SEAT], state[PREV], state[SHOW], state[LAST]
    players = game.players
    hand_ranks = game.hands_of(state, players)
    pos = Position(
        table=[Card(RANKS[r]) for r in ranks_of(state[TABLE])],
        hands=[[Card(RANKS[r]) for r in h] for h in hand_ranks],
        stock_kind="known", stock=[], turn=seat, rules=rules, preset=rules.name,
        overrides=rules.overrides_from(preset(rules.name)),
        taken=tuple(game.pile(state, k) for k in range(game.nsides)))
    if last >= 0:
        pos.last = last     # side 0/1 is seat 0/1 (S, or N / E); three players: the seat
    if prev >= 0:
        pos.prev = Card(RANKS[prev])
    if show:
        pos.show = Show(RANKS[show >> 2], show & 3, (seat - 1) % players)
    if rules.voleur:
        pos.tops = tuple(None if game.top(state, k) < 0 else Card(RANKS[game.top(state, k)])
                         for k in range(game.nsides))
    size = deal_sizes(rules, players)[-1]
    if all(len(h) == size for h in hand_ranks):
        for s, h in enumerate(hand_ranks):
            d = best_declaration(rules, h)
            if d is not None:
                pos.declared.append(Declaration(s, "tringa" if d[0] == TRINGA else "ronda",
                                                RANKS[d[1]]))
    return pos


def mine(seed: int = 0, rules_name: str = "lmodire", policy: str = "greedy",
         limit: int | None = None, players: int = 2,
         overrides: dict[str, str] | None = None) -> Iterator[Position | NotationError]:
    """Candidate positions from playouts, endless or ``limit`` of them,
    seeded; each read back by the strict parser (a NotationError means the
    playout bookkeeping is wrong) and tagged with the opcode ``game``
    ``seed/number`` of its playout. ``players``: 2, 3 (each seat for
    itself) or 4 (partnerships). ``overrides``: rule parameters on top of
    the preset, written on every line.

    Raises ValueError when the preset does not allow ``players``."""
    from .compose import candidate_line, last_deal_refusal, rules_for, seed_tag
    rules = rules_for(rules_name, overrides)
    check_players(rules, players)
    why = last_deal_refusal(rules, players)
    if why is not None:
        raise ValueError(f"no mined puzzle: {why}")
    rng = random.Random(f"mine:{seed}:{rules_name}:{policy}:{players}{seed_tag(overrides)}")
    n = 0
    game = 0
    while True:
        game += 1
        for pos in playout(rules, rng, policy, players):
            pos.ops = [("game", f"{seed}/{game}")]
            yield candidate_line(pos)
            n += 1
            if limit is not None and n >= limit:
                return


def selfplay(seed: int = 0, rules_name: str = "lmodire", agents: str = "greedy",
             limit: int | None = None, players: int = 2,
             overrides: dict[str, str] | None = None) -> Iterator[Position | NotationError]:
    """Candidate positions from self-play hands between players of
    :mod:`solver.games.players` (``agents``: one spec per seat, or one for all,
    comma-separated: ``greedy``, ``random``, ``mc:N``, ``engine:K``), dealt
    and played by :mod:`solver.games.match` (each seat sees only its view). Every
    last-deal position (stock empty) where the mover holds two ranks or
    more is a candidate, written with every card known (the hand's
    :meth:`~solver.games.match.HandState.full_position`, without the match score,
    the dealer and the cards gone, which a puzzle does not need) and tagged
    with ``game`` ``seed/number``. Endless or ``limit`` candidates.
    ``overrides``: rule parameters on top of the preset, written on every
    line.

    Raises ValueError for a bad player spec or a player count the preset
    does not take."""
    from .compose import candidate_line, last_deal_refusal, rules_for, seed_tag
    from ..games.match import HandState, deal_hand, hand_rng
    from ..games.players import make_player
    rules = rules_for(rules_name, overrides)
    check_players(rules, players)
    why = last_deal_refusal(rules, players)
    if why is not None:
        raise ValueError(f"no self-played puzzle: {why}")
    specs = [s for s in agents.split(",") if s.strip()]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(f"{len(specs)} player specs for {players} seats: {agents!r}")
    seats = [make_player(s) for s in specs]
    n = 0
    game = 0
    while True:
        game += 1
        rng = hand_rng(f"puzzles/{seed}{seed_tag(overrides)}", game)
        table, stock = deal_hand(rules, players, rng)
        hs = HandState(rules, players, game % players, table, stock=stock)
        rngs = [random.Random(f"puzzles/{seed}/{game}/{s}") for s in range(players)]
        while not hs.finished:
            if hs.awaiting_deal:
                hs.deal()
                continue
            if not hs.stock and len({c.rank for c in hs.hands[hs.turn]}) >= 2:
                pos = hs.full_position()
                pos.score = pos.gone = pos.dealer = None
                pos.ops = [("game", f"{seed}/{game}")]
                yield candidate_line(pos)
                n += 1
                if limit is not None and n >= limit:
                    return
            hs.play(seats[hs.turn].choose(hs.view(), rngs[hs.turn]))


#: the fields of a mined puzzle as ``db export --what puzzles --format
#: jsonl|csv`` writes it, in order: the whole ``line``, its ``position`` (without
#: opcodes) and each puzzle opcode (:data:`solver.puzzles.puzzle.PUZZLE_OPCODES`;
#: csv: an opcode the line does not write is empty, jsonl leaves it out)
PUZZLE_FIELDS = ["line", "position", "bm", "v", "vv", "id", "themes", "level", "depth",
                 "margin", "method", "pv", "source", "game", "c"]
_NUMBERS = {"v": float, "margin": float, "level": int, "depth": int}
_LISTS = {"themes": str, "pv": str, "vv": float}


def puzzle_row(line: str) -> dict:
    """A stored puzzle line as a row of :data:`PUZZLE_FIELDS`: numbers as
    numbers, ``themes``, ``pv`` and ``vv`` as lists. A line the notation
    cannot read (stored by another version) gives ``line`` alone."""
    from ..notation import NotationError, format_position, parse_position
    row: dict = {"line": line}
    try:
        pos = parse_position(line)
    except NotationError:
        return row
    ops = dict(pos.ops)
    pos.ops = []
    row["position"] = format_position(pos)
    for name in PUZZLE_FIELDS[2:]:
        if name not in ops:
            continue
        value = ops[name]
        try:
            if name in _NUMBERS:
                value = _NUMBERS[name](value)
            elif name in _LISTS:
                value = [_LISTS[name](x) for x in value.split()]
        except ValueError:
            pass
        row[name] = value
    return row
