"""From a friendly :class:`~solver.position.Position` to the compiled
problem the searches run on (:class:`Problem`: the rule system as data and
the core state), the :class:`~solver.engine.hand.Hand` that Python callers
play on, and the sampling of unknown cards.

Unknown cards (``?`` in a hand, a ``~`` or ``?`` stock) are drawn
uniformly from the cards not seen: the 40 less the table, the known hands,
the ``gone`` pile and, with a ``~`` stock, less the stock's own cards. A
hidden hand that declared a Ronda or Tringa (``declared=``) is drawn so
that it holds it (rejection sampling).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..cards import RANK_INDEX, RANKS, Card
from .scoring import RONDA, TRINGA, best_declaration, cardset
from ..position import Position, n_sides, side_of
from ..rules import dealt_this_deal, stock_sizes


class CompileError(ValueError):
    """A position the search cannot take that way (e.g. exact search with
    unknown cards, or unknown cards that cannot be drawn consistently)."""


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


def forced_hands(pos: Position) -> Position | None:
    """``pos`` with its hidden hand cards filled in where the cards seen
    leave them no choice, else None: the stock known or shuffled (its
    cards listed) and either one hand holding every ``?`` or every unseen
    card of one rank (a ``?`` is then that rank; suits never change a
    value). ``1.7 7.7.2/?.? - S ... gone=<33 cards>``: the two cards not
    seen are N's hand, and the position is one of perfect information."""
    hidden = [s for s, h in enumerate(pos.hands) if any(c is None for c in h)]
    if not hidden or pos.stock_kind == "unknown":
        return None
    try:
        pool = unseen_pool(pos)
    except CompileError:
        return None
    if len(pool) != sum(c is None for h in pos.hands for c in h):
        return None
    if len(hidden) > 1 and len(set(pool)) > 1:
        return None
    cards = iter(Card(RANKS[r]) for r in pool)
    out = copy.copy(pos)
    out.hands = [[c if c is not None else next(cards) for c in h] for h in pos.hands]
    return out


@dataclass
class Problem:
    """One position as the compiled core searches it: ``P`` and ``D``
    (:mod:`solver.engine.tables`), ``st`` the core state; ``players``,
    ``nsides`` (2, or 3 when each of three seats is its own side),
    ``shuffled`` (the deals are chance nodes), ``match`` (the objective is
    the match: values are equities times ``core.EQ_SCALE``), ``base`` the
    half-points the piles already decided for the mover's side (two sides
    playing for points: the values count the cards still to be won)."""

    pos: Position
    P: np.ndarray
    D: np.ndarray
    st: tuple
    players: int
    nsides: int
    shuffled: bool
    match: bool
    base: int

    @property
    def mover(self) -> int:
        """The seat to move."""
        return int(self.st[5])

    @property
    def rules(self):
        """The position's rules."""
        return self.pos.rules


def initial_x(pos: Position, P: np.ndarray) -> int:
    """The x word of ``pos`` (:mod:`solver.engine.core`): the piles from
    ``taken=``, the tops from ``tops=`` (voleur), the scores from
    ``score=`` (the match objective); 0 when the rules do not track it."""
    from . import core
    if not P[core.P_GENERAL]:
        return 0
    x = 0
    for k, n in enumerate(pos.pile_sizes()):
        if n > 63:
            raise CompileError(f"a pile of {n} cards")
        x |= n << (core.X_PILE + 6 * k)
    if P[core.P_VOLEUR] and pos.tops is not None:
        for k, c in enumerate(pos.tops):
            if c is not None:
                x |= (c.index + 1) << (core.X_TOP + 4 * k)
    if P[core.P_MATCH]:
        for k, n in enumerate(pos.scores()):
            if not 0 <= n <= core.MAX_SCORE // 2:
                raise CompileError(f"a score of {n} points is out of the match search's "
                                   f"range (0 to {core.MAX_SCORE // 2})")
            x |= n << (core.X_SCORE + 10 * k)
    return x


def build_problem(pos: Position, hands: list[list[int]], stock: list[int],
                  shuffled: bool = False, match=None) -> Problem:
    """The Problem of ``pos`` with the given hands (rank indices per seat)
    and stock (dealing order, or the cards when ``shuffled``); ``match``:
    the match objective's :class:`~solver.engine.tables.MatchLeaves`.
    Raises CompileError for a stock that does not fill whole deals."""
    from .tables import deal_rows, rule_params, sides_of
    if len(stock) not in stock_sizes(pos.rules, pos.players):
        raise CompileError(f"a stock of {len(stock)} cards does not fill whole deals")
    P = rule_params(pos.rules, pos.players, pos.leader(), 0 if shuffled else len(stock),
                    shuffled, match=match)
    D = deal_rows(P, []) if shuffled else deal_rows(P, stock)
    sides = sides_of(pos.players)
    hs = [cardset(h) for h in hands] + [0] * (4 - len(hands))
    prev = pos.prev.index if pos.prev is not None else -1
    show = (RANK_INDEX[pos.show.rank] << 2 | pos.show.size) if pos.show else 0
    last = sides[pos.last] if pos.last is not None else -1
    spos = cardset(stock) if shuffled else 0
    st = (cardset([c.index for c in pos.table]), hs[0], hs[1], hs[2], hs[3], pos.turn, prev,
          show, last, spos, initial_x(pos, P))
    nsides = max(sides) + 1
    base = pile_margin(pos) if nsides == 2 and match is None else 0
    return Problem(pos, P, D, st, pos.players, nsides, shuffled, match is not None, base)


def known_problem(pos: Position, match=None) -> Problem:
    """The Problem of a perfect-information position. Raises CompileError
    for unknown cards."""
    if not is_perfect_information(pos):
        raise CompileError("the position has unknown cards; sample them first")
    hands = [[c.index for c in h] for h in pos.hands]  # type: ignore[union-attr]
    return build_problem(pos, hands, [c.index for c in pos.stock], match=match)


def shuffled_problem(pos: Position, match=None) -> Problem:
    """The chance Problem of a position whose hands are all known and whose
    stock order is not (``~`` or ``?``): the stock becomes a card multiset
    dealt at chance nodes. Raises CompileError for a hidden hand."""
    if any(c is None for h in pos.hands for c in h):
        raise CompileError("expectimax needs every hand known (a hidden hand: use determinised)")
    stock = unseen_pool(pos) if pos.stock_kind == "unknown" else [c.index for c in pos.stock]
    hands = [[c.index for c in h] for h in pos.hands]  # type: ignore[union-attr]
    return build_problem(pos, hands, stock, shuffled=True, match=match)


def hand_state(pos: Position, hands: list[list[int]], stock: list[int],
               shuffled: bool = False, match=None, track: bool = False):
    """The :class:`~solver.engine.hand.Hand` and core state of ``pos`` with
    the given hands (rank indices per seat) and stock (dealing order, or
    the cards when ``shuffled``), for callers that walk plays one at a
    time; ``track``: keep the piles (and tops) in the state whatever the
    rules. Raises CompileError for a stock that does not fill whole deals."""
    from .hand import Hand
    try:
        hand = Hand(pos.rules, pos.players, pos.leader(), stock, shuffled, match=match,
                    track=track)
    except ValueError as e:
        raise CompileError(str(e)) from None
    prev = pos.prev.index if pos.prev is not None else -1
    show = (RANK_INDEX[pos.show.rank] << 2 | pos.show.size) if pos.show else 0
    last = pos.last if pos.last is not None else -1
    tops = [-1 if c is None else c.index for c in pos.tops] if pos.tops else None
    st = hand.initial_state([c.index for c in pos.table], hands, pos.turn, prev, show, last,
                            pos.pile_sizes(), tops, pos.scores() if match else None)
    return hand, st


def compile_known(pos: Position, track: bool = False):
    """The :class:`~solver.engine.hand.Hand` and core state of a
    perfect-information position. Raises CompileError for unknown cards."""
    if not is_perfect_information(pos):
        raise CompileError("the position has unknown cards; sample them first")
    hands = [[c.index for c in h] for h in pos.hands]  # type: ignore[union-attr]
    return hand_state(pos, hands, [c.index for c in pos.stock], track=track)


def compile_shuffled(pos: Position, track: bool = False):
    """The chance :class:`~solver.engine.hand.Hand` and core state of a
    position whose hands are all known and whose stock order is not (``~``
    or ``?``). Raises CompileError for a hidden hand."""
    if any(c is None for h in pos.hands for c in h):
        raise CompileError("expectimax needs every hand known (a hidden hand: use determinised)")
    stock = unseen_pool(pos) if pos.stock_kind == "unknown" else [c.index for c in pos.stock]
    hands = [[c.index for c in h] for h in pos.hands]  # type: ignore[union-attr]
    return hand_state(pos, hands, stock, shuffled=True, track=track)


def _declared_ok(pos: Position, seat: int, hand: list[int]) -> bool:
    for d in pos.declared:
        if d.seat != seat:
            continue
        got = best_declaration(pos.rules, hand)
        kind = TRINGA if d.kind == "tringa" else RONDA
        if got is None:
            return False
        if kind == RONDA and got[0] == TRINGA:
            # three of a kind under rules that value the Tringa: the seat
            # would have declared it, not a Ronda
            return False
        if d.rank is not None:
            r = RANK_INDEX[d.rank]
            if hand.count(r) < (3 if kind == TRINGA else 2):
                return False
        elif kind == TRINGA and got[0] != TRINGA:
            return False
    return True


def declared_plays(pos: Position, seat: int, deal_size: int) -> list[int] | None:
    """What a declaration of ``seat`` binds, beside its hand now: the hand
    dealt is its hand now and these plays of the deal (rank indices; none
    while it has played nothing, ``deal_size`` cards left), or None when
    nothing binds: no declaration, or the seat has played and ``hist=``
    does not record its plays (the declared cards may be among the cards
    gone, and which of those were its own is not known)."""
    if not any(d.seat == seat for d in pos.declared):
        return None
    played = pos.plays_dealt(seat, deal_size)
    return None if played is None else [c.index for c in played]


def declared_fits(pos: Position, seat: int, hand: list[int], deal_size: int) -> bool:
    """Whether ``hand`` (rank indices: ``seat``'s whole hand now) agrees
    with ``seat``'s declaration of this deal, asked of the hand dealt
    (:func:`declared_plays`). Used where the hidden hands are enumerated
    (the deal search's two players, the equilibrium); both drawings
    (:func:`sampler`, :mod:`solver.engine.sampling`) bind the same way."""
    played = declared_plays(pos, seat, deal_size)
    return played is None or _declared_ok(pos, seat, list(hand) + played)


def sampler(pos: Position, build=None):
    """A function ``sample(rng) -> (hand, state)`` drawing one
    determinisation of the unknown cards of ``pos``, uniformly among those
    consistent with what is seen and declared (Python's ``random``, for
    callers that walk plays one at a time; the searches draw in the
    compiled core, :mod:`solver.engine.sampling`).

    ``build(pos, hands, stock)`` makes the result of one drawing (rank
    indices per seat, the stock in dealing order); by default the
    :class:`~solver.engine.hand.Hand` and core state (:func:`hand_state`).
    Raises CompileError when no consistent drawing is found.
    """
    if build is None:
        build = hand_state
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
    # A declaration binds a hidden hand dealt: its hand now and, once it
    # has played, its plays of the deal (hist=); without hist= nothing
    # binds then (declared_plays)
    deal_size = dealt_this_deal(pos.rules, pos.players, nstock)
    bound = {s: played for s, k in hidden_seats if k
             for played in [declared_plays(pos, s, deal_size)] if played is not None}

    def sample(rng: random.Random):
        # rejection on the hidden hands alone (cheap), then the stock
        for _attempt in range(50000):
            drawn = rng.sample(pool, n_hidden) if bound else None
            if drawn is not None:
                hands = [h[:] for h in known_hands]
                i = 0
                for seat, k in hidden_seats:
                    hands[seat].extend(drawn[i:i + k])
                    i += k
                if not all(_declared_ok(pos, s, hands[s] + played)
                           for s, played in bound.items()):
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


def unseen_count(pos: Position) -> int:
    """Cards whose place is unknown: hidden hand cards and, unless the
    stock order is known, the stock."""
    hidden = sum(1 for h in pos.hands for c in h if c is None)
    if pos.stock_kind == "known":
        return hidden
    if pos.stock_kind == "shuffled":
        return hidden + len(pos.stock)
    return len(unseen_pool(pos))
