"""A deal as the mover sees it: a two-player game with imperfect
information, for :mod:`solver.search.equilibrium`.

In a two-player hand the last deal is perfect information to a player who
counts cards: the six cards left are known, and once three are dealt to
each side each knows the other's. So the first deal in which hidden cards
matter is the one before it. From a position of that deal (two players,
six cards in the stock), the game is:

- chance deals the other player's hidden cards from the unseen cards (every
  rank multiset, by its number of physical cards; a declared pair or
  triple must be held);
- the players play out the deal, the mover (player 0) knowing its own hand
  and the plays, the other (player 1) knowing its hand too;
- when the deal ends, the value of the rest of the hand is the exact
  expectimax value of the last deal over how its six cards are split
  (compiled core), added to the points of the plays.

Payoffs are half-points for the mover's side. In the last deal itself the
hidden hand is what card counting leaves, and the game is one of perfect
information.

In an earlier deal (more than six cards left after it) the same game is
built where a learned model of the deals to come covers the rules
(:func:`deal_model`, :mod:`solver.value`): the deal's end is valued by the
model, as the deal search values it (:func:`solver.value.net.
boundary_value`), so the current deal is played as the game of hidden
hands it is rather than once for each hand as if it were seen; the values
are exact for the mover's information within the deal, and carry the
model's error from its end on.

The view game takes the usual deal only: 4 table cards and 3 cards a
player a deal (``table_cards=4``, ``deal_size=3``). With the ``online``
house rule (issue 11: 4-card deals, no table cards) the trees grow past
what the LP solves in a few seconds, so :func:`fits` is False (``auto``
never picks the equilibrium) and :class:`ViewGame` refuses.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

from ..cards import RANK_INDEX
from ..position import Position
from ..search.equilibrium import Node
from .compile import CompileError, declared_fits, unseen_pool
from .hand import SEAT, STOCK, Hand
from .scoring import HAND_BITS, cardset

#: the view game is built when the other hand has at most these hands
MAX_HANDS = 500


def three_card_deals(pos: Position) -> bool:
    """The rules deal 3 cards a player with 4 on the table (all presets
    but ``online``): the deals the view game takes."""
    return pos.rules.deal_size == 3 and pos.rules.table_cards == 4


def _stock(pos: Position) -> int | None:
    """The cards left to deal after the current deal, when the position
    is one the view game can take at all (two players, 3-card deals, the
    mover's hand known, the other's hidden); else None."""
    if pos.players != 2 or any(c is None for c in pos.hands[pos.turn]):
        return None
    if not three_card_deals(pos):
        return None
    other = pos.hands[1 - pos.turn]
    if all(c is not None for c in other):
        return None
    return len(unseen_pool(pos)) - sum(1 for c in other if c is None) \
        if pos.stock_kind == "unknown" else len(pos.stock)


def hidden_hands(pos: Position) -> list[tuple[int, ...]]:
    """Every hand (a sorted rank-index tuple) the other player's hidden
    cards may be, from the unseen cards: before the ways to draw each and
    the declarations are weighed (:class:`ViewGame`)."""
    k = sum(1 for c in pos.hands[1 - pos.turn] if c is None)
    return sorted(set(combinations(sorted(unseen_pool(pos)), k)))


def fits(pos: Position) -> bool:
    """Two players, 3-card deals (:func:`three_card_deals`), the mover's
    hand known, the other's hidden, and at most one deal to come (six
    cards in the stock, or none): the game is exact (the last deal by
    expectimax); Ronda voleur included (the piles and tops are in the
    compiled core's state)."""
    return _stock(pos) in (0, 6)


def deal_model(pos: Position):
    """The learned model of the deals to come that values the end of the
    current deal of ``pos`` (two players, 3-card deals, the other hand
    hidden, more than one deal to come, a model shipped for the rules
    with a level for the stock left: :mod:`solver.value`), or None."""
    stock = _stock(pos)
    if stock is None or stock <= 6 or pos.stock_kind != "unknown":
        return None
    from ..value.model import find_for
    model = find_for(pos.rules, 2)
    return model if model is not None and stock in model.levels else None


def fits_any_deal(pos: Position) -> bool:
    """:func:`fits`, or an earlier deal whose end a learned model values
    (:func:`deal_model`): the view game of the current deal, exact within
    it, the deals to come learned."""
    return fits(pos) or deal_model(pos) is not None


class ViewGame:
    """The game of ``pos`` (see the module docstring). Raises CompileError
    when the position does not fit (:func:`fits`) or has too many hands.

    ``hands``: restrict chance to these hidden hands (rank-index tuples;
    with one hand, the game is the perfect-information one of that hand,
    for cross-checks). ``evidence``: an
    :class:`solver.analysis.inference.Evidence` of ``pos`` (the other
    player's plays this deal, ``hist=``): chance deals each hand with its
    ways to draw it times the likelihood of those plays from it (the
    deal search's weights), so the plays already made are read; None
    weighs by the ways to draw alone. ``tree`` is the root
    :class:`Node`; ``leaves`` counts the end-of-deal states solved,
    ``hands_dealt`` the chance outcomes, ``read`` the plays weighed
    (0 without evidence, or with one hand left: nothing to weigh) and
    ``ess`` the Kish effective number of hands of the weights (None
    when nothing was weighed).
    """

    def __init__(self, pos: Position, hands: list[tuple[int, ...]] | None = None,
                 check=None, evidence=None) -> None:
        if pos.players != 2:
            raise CompileError(
                f"the equilibrium takes two players (a zero-sum game of two hands; "
                f"{'three' if pos.players == 3 else 'four'} players: use exact, expectimax "
                f"or determinised)")
        if not three_card_deals(pos):
            raise CompileError(
                "the equilibrium takes 3-card deals with 4 table cards only, not "
                f"deal_size={pos.rules.deal_size} table_cards={pos.rules.table_cards}")
        if not fits_any_deal(pos):
            raise CompileError("the equilibrium needs the mover's hand known, the other's "
                               "hidden, and at most one deal to come (the last two deals) "
                               "or a learned value of the deals to come for the rules")
        #: the learned value at the deal's end (None: the rest is exact)
        self.model = deal_model(pos)
        #: the cards left to deal when this deal ends
        self.stock_after = _stock(pos)
        self._vm = self._x = None
        me, other = pos.turn, 1 - pos.turn
        self.pos = pos
        self.me = me
        pool = Counter(unseen_pool(pos)) if pos.stock_kind == "unknown" else None
        if pool is None:
            raise CompileError("the equilibrium needs the stock hidden ('?')")
        known_other = [c.index for c in pos.hands[other] if c is not None]
        mine = [c.index for c in pos.hands[me]]

        def both(h: tuple) -> list[list[int]]:
            """Each player's hand (rank indices) when the hidden cards are ``h``."""
            out = [[], []]
            out[me] = mine
            out[other] = known_other + list(h)
            return out

        if hands is None:
            candidates = hidden_hands(pos)
        else:
            candidates = [tuple(sorted(h)) for h in hands]
        weights: dict[tuple, float] = {}
        for h in candidates:
            w = 1
            for r, n in Counter(h).items():
                if n > pool[r]:
                    w = 0
                    break
                w *= comb(pool[r], n)
            if w and declared_fits(pos, other, known_other + list(h), pos.rules.deal_size):
                weights[h] = float(w)
        if not weights:
            raise CompileError("no hidden hand agrees with what is seen and declared")
        self.read = 0
        self.ess = None
        if evidence is not None and not evidence.empty:
            for h in weights:
                weights[h] *= evidence.likelihood(both(h))
            weights = {h: w for h, w in weights.items() if w > 0}
            if not weights:
                raise CompileError("the plays recorded in hist= are impossible for every "
                                   "hand the other player may hold")
            if len(weights) > 1:        # one hand left: nothing weighed
                self.read = len(evidence.items)
                self.ess = sum(weights.values()) ** 2 / sum(w * w for w in weights.values())
        if len(weights) > MAX_HANDS:
            raise CompileError(f"{len(weights)} possible hidden hands: too many for the "
                               "equilibrium (use determinised)")
        total = sum(weights.values())
        self.hands_dealt = len(weights)
        self.leaves = 0
        prev = pos.prev.index if pos.prev is not None else -1
        show = (RANK_INDEX[pos.show.rank] << 2 | pos.show.size) if pos.show else 0
        last = pos.last if pos.last is not None else -1
        leader = pos.leader()
        tops = [-1 if c is None else c.index for c in pos.tops] if pos.tops else None
        self._values: dict = {}
        self._searcher = None
        outcomes = {}
        game = None
        for h, w in weights.items():
            if check is not None:       # raises when the time is up
                check()
            stock = Counter(pool)
            stock.subtract(h)
            stock = sorted(stock.elements())
            if game is None:
                # one game for every hand: a shuffled stock is in the state,
                # not in the rule parameters
                game = Hand(pos.rules, 2, leader, stock, shuffled=True)
            state = game.initial_state([c.index for c in pos.table], both(h), pos.turn,
                                       prev, show, last, pos.pile_sizes(), tops)
            state = state[:STOCK] + (cardset(stock),) + state[STOCK + 1:]
            outcomes[h] = (w / total, self._play(game, state, h, (), 0))
        self.tree = Node.chance(outcomes)

    def _play(self, game: Hand, state, hand: tuple, history: tuple, acc: int) -> Node:
        """The subtree from ``state``; ``acc`` the mover's half-points of the
        plays so far; leaves add the value after the deal."""
        seat = state[SEAT]
        sign = 1 if game.same_side(seat, self.me) else -1
        children = {}
        for m in game.moves(state):
            child, gain, _ev = game.play(state, m)
            if not (child[1] | child[2] | child[3] | child[4]):   # the deal (or hand) ends
                rest = self._after(game, child)
                mine = rest if game.same_side(child[SEAT], self.me) else -rest
                children[m] = Node.leaf(acc + sign * gain + mine)
            else:
                children[m] = self._play(game, child, hand, history + ((seat, m),),
                                         acc + sign * gain)
        key = ("me", history) if seat == self.me else ("other", hand, history)
        return Node.decide(0 if seat == self.me else 1, key, children)

    def _after(self, game: Hand, state) -> float:
        """The value of the rest of the hand from the end of this deal, for
        the side of the seat to move next (0 at the end): the learned
        model's where it has a level for the stock left (the deal search's
        :func:`solver.value.net.boundary_value`), else exact (the last
        deal, by the compiled expectimax)."""
        if game.is_terminal(state):
            return 0.0
        got = self._values.get(state)
        if got is None and self.model is not None:
            import numpy as np
            from ..value.net import boundary_value, scratch
            if self._vm is None:
                self._vm = self.model.vm
                self._x = scratch(self._vm)
            v = float(boundary_value(game.P, self._vm, self._x, np.array(state, dtype=np.int64)))
            if v == v:          # NaN: no level for this stock (the last deal): exact below
                got = self._values[state] = v
                self.leaves += 1
        if got is None:
            from ..search.compiled import Searcher
            if self._searcher is None:
                self._searcher = Searcher(game.P, game.D, 64.0)
            got = self._values[state] = self._searcher.value(state)
            self.leaves += 1
        return got


__all__ = ["ViewGame", "fits", "fits_any_deal", "deal_model", "hidden_hands", "MAX_HANDS", "HAND_BITS", "cardset"]
