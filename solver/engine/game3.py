"""The three-player hand as a vector-valued game (RULES.md, "Seats": three
players S, E, N, each its own side; french preset, seed 000).

With three players nobody's loss is one opponent's gain, so a value is a
*vector*: one entry per seat, the game points that seat scores from now to
the end of the hand, its own card count included (``max(0, pile - 20)``,
counted on the whole pile, ``taken=`` included). Every entry is >= 0.

A state is the tuple ``(table, hands, seat, prev, show, last, spos, piles,
tops)``, its own transposition key:

- ``table``, ``hands``, ``seat``, ``prev``, ``show``, ``spos`` as in
  :mod:`solver.engine.game` (card sets, packed hands, ``spos`` the cards
  dealt from a known stock or the card set left in a shuffled one);
- ``last``: the *seat* of the last capture, or -1;
- ``piles``: cards in each seat's capture pile (the card count
  ``max(0, pile - 20)`` is not linear, so the sizes are part of the key);
- ``tops``: Ronda voleur: the rank index on top of each seat's pile, -1
  for an empty pile or unknown; always ``(-1, -1, -1)`` without voleur.

The search sees only :class:`Game3`'s small interface (``mover``,
``moves``, ``play``, ``is_terminal``, ``is_chance``, ``outcomes``,
``sum_bound``); per-seat gains are tuples of three numbers.
"""

from __future__ import annotations

import time

from math import comb
from typing import Sequence

from ..rules import Rules, deal_sizes
from .game import (EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_DEAL, EV_END, EV_HIT, EV_MISSA,
                   HAND_BITS, LOW, MASK40, MOVES, NRANKS, _multisets, cardset, count,
                   declaration_points, event_points, ranks_of, run_masks)

PLAYERS = 3
SIDES = (0, 1, 2)
ZERO = (0, 0, 0)

State3 = tuple   # (table, hands, seat, prev, show, last, spos, piles, tops)
Vector = tuple   # one number per seat (S, E, N)



class TooManyOutcomes(Exception):
    """A chance node with more deals than :attr:`Game3.max_outcomes`."""

class Game3:
    """One three-player hand (every seat its own side).

    ``rules``: the Rules (``hit``, ``missa``, ``capture_point``,
    ``last_capture_bonus``, declarations through
    :func:`~solver.engine.game.declaration_points`, ``missa_on_last_card``,
    ``missa_last_round`` (house rule, issue 11), ``voleur`` (seed 000
    variant, decisions V1-V7 of docs/rules.md)); ``leader``: the seat that
    leads every deal; ``stock``: rank indices in dealing order (known
    stock) or the stock's cards when ``shuffled`` (their order unknown: the
    deals become chance nodes).

    Raises ValueError for a stock that does not fill whole deals.
    """

    def __init__(self, rules: Rules, leader: int, stock: Sequence[int],
                 shuffled: bool = False) -> None:
        self.rules = rules
        self.leader = leader
        self.stock = tuple(stock)
        self.shuffled = shuffled
        sizes = deal_sizes(rules, PLAYERS)
        self.next_deal = {sum(sizes[i:]) * PLAYERS: sizes[i] for i in range(len(sizes))}
        if len(self.stock) and len(self.stock) not in self.next_deal:
            raise ValueError(f"a stock of {len(self.stock)} cards does not fill whole deals")
        self.nstock = 0 if shuffled else len(self.stock)
        self.voleur = bool(rules.voleur)
        self.deals: dict[int, tuple[int, tuple, int]] = {}
        pos = 0
        while not shuffled and pos < len(self.stock):
            size = self.next_deal[len(self.stock) - pos]
            hands = [[], [], []]
            for i in range(PLAYERS):
                hands[(leader + i) % PLAYERS] = list(self.stock[pos:pos + size])
                pos += size
            packed = sum(cardset(h) << (HAND_BITS * s) for s, h in enumerate(hands))
            decl = tuple(declaration_points(rules, hands, SIDES))
            self.deals[pos - size * PLAYERS] = (packed, decl, pos)
        self._outcomes: dict[int, list] = {}
        #: the most deals a chance node may list (and the cache may keep);
        #: None: no cap (the searches set it from their memory budget)
        self.max_outcomes: int | None = None
        #: a time.monotonic() instant past which listing deals stops (the
        #: searches set it from their deadline); None: never
        self.stop_at: float | None = None
        self._bounds()
        self.play = self._compile_play()

    def _compile_play(self):  # noqa: C901 - one function on purpose (speed)
        rules = self.rules
        leader = self.leader
        shuffled = self.shuffled
        nstock = self.nstock
        voleur = self.voleur
        answer_levels = len(rules.hit)
        missa_last_card = rules.missa_on_last_card
        missa_last_round = getattr(rules, "missa_last_round", True)
        pts_of = [event_points(rules, ev) for ev in range(32)]
        bonus = rules.last_capture_bonus
        below, brk, sentinel = run_masks(rules)
        deals = self.deals
        nxt = (1, 2, 0)
        prv = (2, 0, 1)

        def run_from(table, r):
            """The table cards a card of rank r takes when an r is (or acts
            as) on the table: every r, then the upward run."""
            t = table | (1 << (4 * r)) if not (table >> (4 * r)) & 1 else table
            absent = (((~t) & LOW) | sentinel | brk[r]) & ~below[r]
            taken = t & (((absent & -absent) - 1) ^ below[r])
            return taken & table

        self.capture = run_from

        def play(state, r):
            table, hands, seat, prev, show, last, spos, piles, tops = state
            sh = HAND_BITS * seat + 4 * r
            nib = (hands >> sh) & 15
            hands -= ((nib + 1) >> 1) << sh
            g = [0, 0, 0]
            robbed = ()
            if voleur:
                a, b = nxt[seat], prv[seat]
                robbed = tuple(o for o in (a, b) if tops[o] == r and piles[o])
            if show and show >> 2 == r:
                # an answer: the shown cards move from the hitter (the seat
                # before) to the mover; voleur: the hitter's whole pile (V3)
                size = show & 3
                ev = EV_CAPTURE | (EV_ANSWER5 if size == 2 else EV_ANSWER10)
                pl = list(piles)
                hitter = prv[seat]
                if hitter not in robbed:
                    pl[hitter] -= size
                    pl[seat] += size
                for o in robbed:
                    pl[seat] += pl[o]
                    pl[o] = 0
                pl[seat] += 1
                piles = tuple(pl)
                if voleur:
                    tp = list(tops)
                    for o in robbed:
                        tp[o] = -1
                    tp[seat] = r
                    tops = tuple(tp)
                g[seat] = pts_of[ev]
                show = (r << 2) | (size + 1) if size + 1 <= answer_levels else 0
                prev = -1
                last = seat
            elif (table >> (4 * r)) & 1 or robbed:
                taken = run_from(table, r)
                was = table
                table ^= taken
                ev = EV_CAPTURE
                if prev == r and (was >> (4 * r)) & 1:
                    ev |= EV_HIT
                    show = (r << 2) | 2 if answer_levels > 1 else 0
                else:
                    show = 0
                if was and not table:
                    mine_left = (hands >> (HAND_BITS * seat)) & MASK40
                    if spos != nstock:
                        ev |= EV_MISSA
                    elif not hands:
                        if missa_last_card and missa_last_round:
                            ev |= EV_MISSA
                    elif mine_left or missa_last_round:
                        ev |= EV_MISSA
                pl = list(piles)
                pl[seat] += taken.bit_count() + 1
                for o in robbed:
                    pl[seat] += pl[o]
                    pl[o] = 0
                piles = tuple(pl)
                if voleur:
                    tp = list(tops)
                    for o in robbed:
                        tp[o] = -1
                    tp[seat] = r
                    tops = tuple(tp)
                g[seat] = pts_of[ev]
                prev = -1
                last = seat
            else:
                table += (((table >> (4 * r)) & 15) + 1) << (4 * r)
                ev = 0
                prev = r
                show = 0
            if hands:
                return (table, hands, nxt[seat], prev, show, last, spos, piles, tops), \
                    (g[0], g[1], g[2]), ev
            if spos != nstock:
                if shuffled:        # a chance node: the search deals
                    return (table, 0, leader, -1, 0, last, spos, piles, tops), \
                        (g[0], g[1], g[2]), ev | EV_DEAL
                packed, decl, nspos = deals[spos]
                return (table, packed, leader, -1, 0, last, nspos, piles, tops), \
                    (g[0] + decl[0], g[1] + decl[1], g[2] + decl[2]), ev | EV_DEAL
            # the end of the hand: the sweep, the bonus, the card count
            pl = list(piles)
            if last >= 0:
                pl[last] += table.bit_count()
                g[last] += bonus
                table = 0
            for s in range(PLAYERS):
                if pl[s] > 20:
                    g[s] += pl[s] - 20
            return (table, 0, nxt[seat], -1, 0, last, spos, tuple(pl), tops), \
                (g[0], g[1], g[2]), ev | EV_END

        return play

    # --- the search interface ----------------------------------------------

    @staticmethod
    def mover(state: State3) -> int:
        """The seat to move."""
        return state[2]

    @staticmethod
    def moves(state: State3) -> tuple[int, ...]:
        """Distinct rank indices the mover holds (equivalent cards once),
        ascending."""
        return MOVES[(state[1] >> (HAND_BITS * state[2])) & MASK40 & LOW]

    def is_terminal(self, state: State3) -> bool:
        """The hand is over (no card in any hand nor in the stock)."""
        return state[1] == 0 and state[6] == self.nstock

    def is_chance(self, state: State3) -> bool:
        """A deal is due from a shuffled stock."""
        return state[1] == 0 and self.shuffled and state[6] != 0

    def outcomes(self, state: State3) -> list[tuple[float, Vector, State3]]:
        """The deals of a chance node: ``[(probability, gains, child)]``,
        ``gains`` the declarations' points per seat. Outcomes are rank
        multisets per hand, weighted by the physical cards (suits never
        matter); the probabilities sum to 1."""
        table, _h, _s, _p, _sh, last, stock, piles, tops = state
        outs = self._outcomes.get(stock)
        if outs is None:
            cap = self.max_outcomes
            if cap is not None and sum(len(o) for o in self._outcomes.values()) > cap:
                self._outcomes.clear()          # a cache: the deals are made again
            outs = self._outcomes[stock] = self._deal_outcomes(stock)
        leader = self.leader
        return [(p, g, (table, hands, leader, -1, 0, last, rest, piles, tops))
                for p, g, hands, rest in outs]

    def _deal_outcomes(self, stock: int) -> list:
        counts = [count(stock, r) for r in range(NRANKS)]
        left = sum(counts)
        n = self.next_deal[left]
        seats = [(self.leader + i) % PLAYERS for i in range(PLAYERS)]
        total = 1
        for _ in seats:
            total *= comb(left, n)
            left -= n
        out = []

        cap = self.max_outcomes
        stop_at = self.stop_at

        def deal(i, rem, weight, hands):
            if i == PLAYERS:
                if cap is not None and len(out) >= cap:
                    raise TooManyOutcomes(f"a chance node of more than {cap:,} deals")
                if stop_at is not None and not len(out) & 255 and time.monotonic() > stop_at:
                    raise TooManyOutcomes("the deals were not listed in time")
                decl = tuple(declaration_points(self.rules, [ranks_of(h) for h in hands],
                                                SIDES))
                packed = sum(h << (HAND_BITS * s) for s, h in enumerate(hands))
                rest = cardset(r for r in range(NRANKS) for _ in range(rem[r]))
                out.append((weight / total, decl, packed, rest))
                return
            for combo in _multisets(rem, n):
                w = 1
                for r, k in enumerate(combo):
                    if k:
                        w *= comb(rem[r], k)
                new = hands[:]
                new[seats[i]] = cardset(r for r in range(NRANKS) for _ in range(combo[r]))
                deal(i + 1, [a - b for a, b in zip(rem, combo)], weight * w, new)

        deal(0, counts, 1, [0, 0, 0])
        out.sort(key=lambda o: -o[0])
        return out

    def cards_left(self, state: State3) -> int:
        """Cards not yet in a pile: table, hands and stock."""
        stock = state[6]
        n_stock = stock.bit_count() if self.shuffled else len(self.stock) - stock
        return state[0].bit_count() + state[1].bit_count() + n_stock

    def sum_bound(self, state: State3) -> int:
        """An upper bound on the sum of the three entries of the value of
        ``state`` (every entry is >= 0), for max^n shallow pruning.

        - Plays: of the ``P`` plays left, ``L`` lay a card and ``P - L``
          capture (``capture_point`` each). Without answers a hit takes a
          lone card just laid, so hits <= ``min(L + [a card was just
          laid], P - L)``; a missa empties the table, which only lays
          refill, so missas <= ``min(L + [the table holds cards], P -
          L)``; the bound is the largest total over ``L``. With answers:
          ``capture_point + missa + max(hit)`` a play.
        - Declarations, each deal to come: the best hand's value
          (``max(ronda, tringa, declare_contested)``), tied split hands
          ``3 * ceil(value / 2)``, with ``decl_cumulative`` the best's own
          value plus the two beaten ones (``3 * max(ronda, tringa)``).
        - ``last_capture_bonus`` once.
        - The card count: piles hold at most 40 cards, so at most one seat
          ends over 20, by at most ``max(pile) + cards left - 20`` (voleur:
          a pile can take the others', ``sum(piles) + cards left - 20``).
        """
        table, hands, _s, prev, _sh, _l, stock, piles, _t = state
        n_stock = stock.bit_count() if self.shuffled else len(self.stock) - stock
        plays = hands.bit_count() + n_stock
        left = table.bit_count() + plays
        deals_left = 0
        k = n_stock
        while k:
            k -= self.next_deal[k] * PLAYERS
            deals_left += 1
        top = sum(piles) if self.voleur else max(piles)
        return (self._play_bound[plays][prev >= 0][table != 0] + deals_left * self._decl_bound
                + self.rules.last_capture_bonus + max(0, top + left - 20))

    def _bounds(self) -> None:
        rules = self.rules
        cp, missa, hit = rules.capture_point, rules.missa, rules.hit
        table = []
        for plays in range(41):
            row = []
            for laid in (0, 1):
                cols = []
                for on_table in (0, 1):
                    if len(hit) > 1:
                        cols.append(plays * (cp + missa + max(hit)))
                        continue
                    best = 0
                    for lays in range(plays + 1):
                        caps = plays - lays
                        best = max(best, cp * caps + hit[0] * min(lays + laid, caps)
                                   + missa * min(lays + on_table, caps))
                    cols.append(best)
                row.append(cols)
            table.append(row)
        self._play_bound = table
        value = max(rules.ronda, rules.tringa)
        decl = max(value, rules.declare_contested)
        if rules.declare_tie == "split":
            decl = max(decl, 3 * ((value + 1) // 2))
        if getattr(rules, "decl_cumulative", False):
            decl = max(decl, 3 * value)
        self._decl_bound = decl

    def initial_state(self, table: Sequence[int], hands: Sequence[Sequence[int]],
                      turn: int, prev: int = -1, show: int = 0, last: int = -1,
                      piles: Sequence[int] = (0, 0, 0),
                      tops: Sequence[int] | None = None) -> State3:
        """The state of a position: rank indices for the table and each
        seat's hand, the seat to move, ``prev`` rank index or -1, ``show``
        ``rank*4 + size`` or 0, ``last`` the last capturer's seat or -1,
        ``piles`` cards in each seat's pile, ``tops`` each pile's top rank
        index or -1 (read only with voleur)."""
        packed = sum(cardset(h) << (HAND_BITS * s) for s, h in enumerate(hands))
        spos = cardset(self.stock) if self.shuffled else 0
        t = tuple(tops) if (self.voleur and tops is not None) else (-1, -1, -1)
        return (cardset(table), packed, turn, prev, show, last, spos, tuple(piles), t)
