"""From a friendly :class:`~solver.position.Position` to the compact game
and state the search runs on, and the sampling of unknown cards.

Unknown cards (``?`` in a hand, a ``~`` or ``?`` stock) are drawn
uniformly from the cards not seen: the 40 less the table, the known hands,
the ``gone`` pile and, with a ``~`` stock, less the stock's own cards. A
hidden hand that declared a Ronda or Tringa (``declared=``) is drawn so
that it holds it (rejection sampling).
"""

from __future__ import annotations

import random
from collections import Counter

from ..cards import RANK_INDEX
from .game import Game, State, best_declaration, RONDA, TRINGA
from ..position import Position, n_sides, side_of
from ..rules import deal_sizes, stock_sizes


class CompileError(ValueError):
    """A position the search cannot take (e.g. three players, or unknown
    cards that cannot be drawn consistently)."""


def is_perfect_information(pos: Position) -> bool:
    """Every card's place is known: known stock order, no ``?`` in a hand."""
    return pos.stock_kind == "known" and all(c is not None for h in pos.hands for c in h)


def unseen_pool(pos: Position) -> list[int]:
    """Rank indices of the cards whose place is unknown to everybody: the 40
    less the table, known hand cards, ``gone`` and a known or ``~`` stock.
    Raises CompileError when cards were captured but ``gone`` is missing."""
    counts = Counter({r: 4 for r in range(10)})
    seen = list(pos.table) + [c for h in pos.hands for c in h if c is not None]
    if pos.stock_kind != "unknown":
        seen += pos.stock
    if pos.gone is not None:
        seen += pos.gone
    elif sum(pos.pile_sizes()):
        raise CompileError("unknown cards need gone= once anything was captured")
    for c in seen:
        counts[c.index] -= 1
    if any(v < 0 for v in counts.values()):
        raise CompileError("a rank appears more than 4 times")
    return sorted(counts.elements())


def _check_search_players(pos: Position) -> None:
    if pos.players not in (2, 4):
        if pos.rules.voleur:
            raise CompileError("this takes two players, or four in partnerships; a "
                               "three-player voleur position is analysed by "
                               "ronda-solve FILE")
        raise CompileError(
            "the search takes two sides: 2 players or 4 in partnerships "
            f"(this position has {pos.players} players)")


def voleur_piles(pos: Position) -> tuple[list[int], list[int]]:
    """Ronda voleur: each side's pile top (rank index, -1 for none) and
    size, from ``tops=`` and ``taken=`` (no ``tops=``: no top, nothing to
    steal)."""
    sizes = list(pos.pile_sizes())
    tops = [-1] * len(sizes)
    if pos.tops is not None:
        tops = [c.index if c is not None else -1 for c in pos.tops]
    return tops, sizes


def _compact(pos: Position, hands: list[list[int]], stock: list[int],
             shuffled: bool = False) -> tuple[Game, State]:
    game = Game(pos.rules, pos.players, pos.leader(), stock, shuffled)
    prev = pos.prev.index if pos.prev is not None else -1
    show = (RANK_INDEX[pos.show.rank] << 2 | pos.show.size) if pos.show else 0
    last = pos.last if pos.last is not None else -1
    if pos.rules.voleur:
        tops, sizes = voleur_piles(pos)
        state = game.initial_state([c.index for c in pos.table], hands, pos.turn,
                                   prev, show, last, tops, sizes)
    else:
        state = game.initial_state([c.index for c in pos.table], hands, pos.turn,
                                   prev, show, last)
    return game, state


def compile_known(pos: Position) -> tuple[Game, State]:
    """The game and state of a perfect-information position.

    Raises CompileError for unknown cards or a player count the search does
    not take."""
    _check_search_players(pos)
    if not is_perfect_information(pos):
        raise CompileError("the position has unknown cards; sample them first")
    hands = [[c.index for c in h] for h in pos.hands]  # type: ignore[union-attr]
    return _compact(pos, hands, [c.index for c in pos.stock])


def _declared_ok(pos: Position, seat: int, hand: list[int]) -> bool:
    for d in pos.declared:
        if d.seat != seat:
            continue
        got = best_declaration(pos.rules, hand)
        kind = TRINGA if d.kind == "tringa" else RONDA
        if got is None:
            return False
        if d.rank is not None:
            r = RANK_INDEX[d.rank]
            if hand.count(r) < (3 if kind == TRINGA else 2):
                return False
        elif kind == TRINGA and got[0] != TRINGA:
            return False
    return True


def sampler(pos: Position, build=None):
    """A function ``sample(rng) -> (game, state)`` drawing one
    determinisation of the unknown cards of ``pos``, uniformly among those
    consistent with what is seen and declared.

    ``build(pos, hands, stock)`` makes the game and state of one drawing
    (rank indices per seat, the stock in dealing order); by default the
    two-sided :class:`Game` (three players: :func:`solver.engine.compile3.
    build_known`). Raises CompileError when no consistent drawing is found.
    """
    if build is None:
        _check_search_players(pos)
        build = _compact
    if any(c is None for c in pos.hands[pos.turn]):
        raise CompileError(
            f"the hand of the player to move ({pos.seat_name(pos.turn)}) must be known: "
            "its plays are what is evaluated")
    hidden_seats = [(s, sum(1 for c in h if c is None)) for s, h in enumerate(pos.hands)]
    n_hidden = sum(k for _s, k in hidden_seats)
    # a shuffled stock with every hand known needs no pool (nor gone=)
    pool = unseen_pool(pos) if n_hidden or pos.stock_kind == "unknown" else []
    nstock = len(pos.stock) if pos.stock_kind != "unknown" else len(pool) - n_hidden
    if nstock < 0 or (pos.stock_kind != "unknown" and n_hidden != len(pool)):
        raise CompileError(
            f"{len(pool)} unseen cards cannot fill {n_hidden} hidden hand cards"
            + ("" if pos.stock_kind == "unknown" else " exactly"))
    known_hands = [[c.index for c in h if c is not None] for h in pos.hands]
    known_stock = [c.index for c in pos.stock]
    # A declaration binds a hidden hand only while its seat has played
    # nothing this deal: once it has, the declared cards may be among the
    # cards gone, and which of those were its own is not known.
    sizes = deal_sizes(pos.rules, pos.players)
    deal_size = sizes[stock_sizes(pos.rules, pos.players).get(nstock, len(sizes)) - 1]
    bound = {s for s, k in hidden_seats
             if k and len(pos.hands[s]) == deal_size and any(d.seat == s for d in pos.declared)}

    def sample(rng: random.Random) -> tuple[Game, State]:
        # rejection on the hidden hands alone (cheap), then the stock
        for _attempt in range(50000):
            drawn = rng.sample(pool, n_hidden) if bound else None
            if drawn is not None:
                hands = [h[:] for h in known_hands]
                i = 0
                for seat, k in hidden_seats:
                    hands[seat].extend(drawn[i:i + k])
                    i += k
                if not all(_declared_ok(pos, s, hands[s]) for s in bound):
                    continue
                rest = Counter(pool)
                rest.subtract(drawn)
                cards = drawn + _shuffled(list(rest.elements()), rng)
            else:
                cards = pool[:]
                rng.shuffle(cards)
                hands = [h[:] for h in known_hands]
                i = 0
                for seat, k in hidden_seats:
                    hands[seat].extend(cards[i:i + k])
                    i += k
            if pos.stock_kind == "known":
                stock = known_stock
            elif pos.stock_kind == "shuffled":
                stock = known_stock[:]
                rng.shuffle(stock)
            else:
                stock = cards[n_hidden:]
            return build(pos, hands, stock)
        raise CompileError("no drawing of the unknown cards agrees with declared=")

    return sample


def pile_margin(pos: Position) -> int:
    """Cards already in the mover's side's pile less the other side's
    (``taken=``): the part of the card count the past has decided."""
    taken = pos.pile_sizes()
    if n_sides(pos.players) != 2:
        return 0
    me = side_of(pos.turn, pos.players)
    return taken[me] - taken[1 - me]


def _shuffled(cards: list[int], rng: random.Random) -> list[int]:
    rng.shuffle(cards)
    return cards


def sampler_from_line(line: str):
    """The sampler of a position line (a picklable factory for worker
    processes: they rebuild the sampler from the line)."""
    from ..notation import parse_position
    return sampler(parse_position(line))


def compile_shuffled(pos: Position) -> tuple[Game, State]:
    """The chance game and state of a position whose hands are all known
    and whose stock order is not (``~`` or ``?``): the stock becomes a
    card multiset dealt at chance nodes. Raises CompileError otherwise."""
    _check_search_players(pos)
    if any(c is None for h in pos.hands for c in h):
        raise CompileError("expectimax needs every hand known (a hidden hand: use determinised)")
    stock = unseen_pool(pos) if pos.stock_kind == "unknown" else [c.index for c in pos.stock]
    hands = [[c.index for c in h] for h in pos.hands]  # type: ignore[union-attr]
    return _compact(pos, hands, stock, shuffled=True)


def unseen_count(pos: Position) -> int:
    """Cards whose place is unknown: hidden hand cards and, unless the
    stock order is known, the stock."""
    hidden = sum(1 for h in pos.hands for c in h if c is None)
    if pos.stock_kind == "known":
        return hidden
    if pos.stock_kind == "shuffled":
        return hidden + len(pos.stock)
    return len(unseen_pool(pos))
