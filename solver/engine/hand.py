"""One hand of any rule system on the compiled core, for Python callers that
walk plays one at a time: the match simulator, the replays of ``hist=``,
the puzzles' themes and mining, the equilibrium's game tree, the players.

:class:`Hand` holds the rule system as data (``P``, ``D``:
:mod:`solver.engine.tables`) and plays on the core's state tuples
(:mod:`solver.engine.core`): ``(table, h0, h1, h2, h3, seat, prev, show,
last, stock, x)``, ``last`` the *side* of the last capture, ``x`` the
tracked piles, tops and scores. Every rule is read by the core, so the
callers and the searches can never disagree on what a play does.

>>> from solver.rules import PRESETS
>>> h = Hand(PRESETS["lmodire"], 2, 0, [])
>>> st = h.initial_state([0, 4], [[1, 1], [2, 9]], 0)
>>> h.moves(st)
(1,)
>>> child, gain, ev = h.play(st, 1)
>>> ranks_of(child[TABLE]), h.mover(child)
([0, 1, 4], 1)
"""

from __future__ import annotations

from typing import Sequence

from . import core
from .scoring import MOVES, LOW, cardset, ranks_of
from .tables import deal_rows, rule_params, sides_of
from ..rules import Rules, deal_sizes

#: the fields of a core state
TABLE, SEAT, PREV, SHOW, LAST, STOCK, X = 0, 5, 6, 7, 8, 9, 10

#: the core runs compiled (under NUMBA_DISABLE_JIT its plain Python
#: returns numpy integers, converted by :meth:`Hand.play`)
_COMPILED = hasattr(core.play, "py_func")

State = tuple


class Hand:
    """One hand of ``rules`` with ``players`` led by seat ``leader``;
    ``stock``: rank indices in dealing order (known stock; any cards of the
    right number when the caller deals each deal itself), or the stock's
    cards when ``shuffled``; ``track``: keep the piles in the state even
    when the rules do not need them (:meth:`pile`); ``match``: the match
    objective's leaves. Raises ValueError for a stock that does not fill
    whole deals."""

    def __init__(self, rules: Rules, players: int, leader: int, stock: Sequence[int] = (),
                 shuffled: bool = False, *, track: bool = False, match=None) -> None:
        from ..rules import stock_sizes
        self.rules = rules
        self.players = players
        self.leader = leader
        self.stock = tuple(stock)
        self.shuffled = shuffled
        if len(self.stock) not in stock_sizes(rules, players):
            raise ValueError(f"a stock of {len(self.stock)} cards does not fill whole deals")
        self.sides = sides_of(players)
        self.nsides = max(self.sides) + 1
        self.P = rule_params(rules, players, leader, 0 if shuffled else len(self.stock),
                             shuffled, track=track, match=match)
        self.D = deal_rows(self.P, [] if shuffled else self.stock)
        sizes = deal_sizes(rules, players)
        #: cards a player receives on the next deal, keyed by the stock size
        self.next_deal = {sum(sizes[i:]) * players: sizes[i] for i in range(len(sizes))}

    # --- states -------------------------------------------------------------

    def initial_state(self, table: Sequence[int], hands: Sequence[Sequence[int]], turn: int,
                      prev: int = -1, show: int = 0, last: int = -1,
                      piles: Sequence[int] | None = None, tops: Sequence[int] | None = None,
                      scores: Sequence[int] | None = None) -> State:
        """The state of a position: rank indices for the table and each
        seat's hand, the seat to move, ``prev`` rank index or -1, ``show``
        ``rank*4 + size`` or 0, ``last`` the last capturer's *seat* or -1;
        ``piles`` each side's pile size, ``tops`` each side's pile top
        (rank index or -1; voleur), ``scores`` each side's match score
        (kept when the rules track them)."""
        hs = [cardset(h) for h in hands] + [0] * (4 - len(hands))
        x = 0
        if self.P[core.P_GENERAL]:
            for k, n in enumerate(piles or ()):
                x |= n << (core.X_PILE + 6 * k)
            if self.rules.voleur:
                for k, t in enumerate(tops or ()):
                    if t is not None and t >= 0:
                        x |= (t + 1) << (core.X_TOP + 4 * k)
            if self.P[core.P_MATCH]:
                for k, n in enumerate(scores or ()):
                    x |= n << (core.X_SCORE + 10 * k)
        side = self.sides[last] if last >= 0 else -1
        stock = cardset(self.stock) if self.shuffled else 0
        return (cardset(table), hs[0], hs[1], hs[2], hs[3], turn, prev, show, side, stock, x)

    @staticmethod
    def mover(st: State) -> int:
        """The seat to move."""
        return st[SEAT]

    @staticmethod
    def hand(st: State, seat: int) -> int:
        """The card set of one seat's hand."""
        return st[1 + seat]

    @staticmethod
    def hands_of(st: State, players: int) -> list[list[int]]:
        """Every seat's hand as rank indices."""
        return [ranks_of(st[1 + s]) for s in range(players)]

    @staticmethod
    def with_hand(st: State, seat: int, hand: Sequence[int]) -> State:
        """``st`` with ``seat``'s hand replaced (rank indices)."""
        out = list(st)
        out[1 + seat] = cardset(hand)
        return tuple(out)

    def after_deal(self, st: State, hands: Sequence[Sequence[int]]) -> State:
        """The state at the start of a deal of ``hands`` (rank indices per
        seat) from ``st`` (the end of the previous deal): the leader to
        move, nothing to hit or answer, the rest kept."""
        hs = [cardset(h) for h in hands] + [0] * (4 - len(hands))
        return (st[TABLE], hs[0], hs[1], hs[2], hs[3], self.leader, -1, 0, st[LAST],
                st[STOCK], st[X])

    def pile(self, st: State, side: int) -> int:
        """Cards in ``side``'s pile (tracked states)."""
        return int(core.pile_of(st[X], side))

    def top(self, st: State, side: int) -> int:
        """``side``'s pile top, rank index or -1 (voleur)."""
        return int(core.top_of(st[X], side))

    # --- plays ----------------------------------------------------------------

    def moves(self, st: State) -> tuple[int, ...]:
        """Distinct rank indices the mover holds (equivalent cards once)."""
        return MOVES[st[1 + st[SEAT]] & LOW]

    def play(self, st: State, r: int) -> tuple[State, int, int]:
        """Play rank index ``r``: ``(child, gain, ev)`` as
        :func:`solver.engine.core.play` (gain in the search's unit for the
        mover's side, ev the event bits)."""
        child, gain, ev = core.play(self.P, self.D, st, r)
        if not _COMPILED:       # the compiled play returns a tuple of Python ints already
            child = tuple(int(v) for v in child)
        return child, int(gain), int(ev)

    def capture(self, st: State, r: int) -> int:
        """The table cards (a card set) a play of ``r`` takes now."""
        return int(core.taken_cards(self.P, st, r))

    def robbed(self, st: State, r: int) -> list[tuple[int, int]]:
        """Ronda voleur: the piles a play of ``r`` steals, ``[(side,
        cards)]`` (the opponents' piles whose top is ``r``)."""
        if not self.rules.voleur:
            return []
        side = self.sides[st[SEAT]]
        return [(k, self.pile(st, k)) for k in range(self.nsides)
                if k != side and self.top(st, k) == r and self.pile(st, k) > 0]

    def points(self, st: State, child: State, ev: int) -> tuple[int, int, int]:
        """The points each side scores by the play from ``st`` to ``child``
        (events ``ev``): the play's own, a known stock's next deal's
        declarations, at the end of the hand the bonus and card counts
        (tracked piles: three sides, voleur, or ``track``)."""
        g = core.play_points(self.P, self.D, st, child, ev)
        return int(g[0]), int(g[1]), int(g[2])

    def run(self, table: int, r: int) -> int:
        """The table cards (a card set) a card of rank ``r`` takes from the
        card set ``table`` (no pile tops, nothing on show)."""
        return int(core.taken_cards(self.P, (table, 0, 0, 0, 0, 0, -1, 0, -1, 0, 0), r))

    def is_terminal(self, st: State) -> bool:
        """The hand is over."""
        return bool(core.is_terminal(self.P, st))

    def is_chance(self, st: State) -> bool:
        """A deal is due from a shuffled stock."""
        return bool(core.is_chance(self.P, st))

    def same_side(self, a: int, b: int) -> bool:
        """Seats ``a`` and ``b`` score for one side."""
        return self.sides[a] == self.sides[b]

    def stock_left(self, st: State) -> list[int]:
        """The stock's cards still to be dealt (rank indices; a known stock
        in dealing order)."""
        if self.shuffled:
            return ranks_of(st[STOCK])
        return list(self.stock[st[STOCK]:])

    def outcomes(self, st: State) -> list[tuple[float, int, State]]:
        """The deals a chance node can give: ``[(probability, gain,
        child)]`` (:func:`solver.engine.core.deal_outcomes`)."""
        probs, gains, kids = core.deal_outcomes(self.P, st, 1 << 40)
        return [(float(p), int(g), tuple(int(v) for v in kid))
                for p, g, kid in zip(probs, gains, kids)]


__all__ = ["Hand", "State", "TABLE", "SEAT", "PREV", "SHOW", "LAST", "STOCK", "X",
           "ranks_of", "cardset"]
