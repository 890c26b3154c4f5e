"""The compact rules engine the search runs on (RULES.md, "A turn").

Everything on the hot path is a small int or a tuple of ints:

- a *card set* (table or one hand) is a 40-bit int, one nibble a rank index
  (0..9), the count written in unary (0, 1, 3, 7, 15), so that
  ``int.bit_count`` counts cards and ``x & LOW`` tells which ranks are there;
- all hands are one int, seat ``k``'s hand at bits ``40*k``;
- a state is the tuple ``(table, hands, seat, prev, show, last, spos)``:
  ``seat`` the seat to move, ``prev`` the rank index of the previous
  player's lone card in this deal or -1, ``show`` ``rank*4 + size`` of a hit
  pile on show or 0, ``last`` the side (not the seat) of the last capture
  or -1, ``spos`` how many stock cards have been dealt. The state is its
  own transposition key. Ronda voleur appends an eighth field, each side's
  pile top and size (:mod:`solver.engine.voleur`).

:class:`Game` gives the search its small interface (``moves``, ``play``,
``tt_key``, ``is_terminal``) and knows nothing of how it searches. Values
inside the engine are *half-points* of margin for the mover's side: each
card won counts one half-point, because the card count of a hand in which
all 40 cards end in the two piles is exactly ``(own - other) / 2`` points.
"""

from __future__ import annotations

from typing import Sequence

from ..rules import Rules, deal_sizes

from .scoring import (EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_DEAL, EV_END,  # noqa: F401
                      EV_HIT, EV_MISSA, EVENT_NAMES, HAND_BITS, LOW, MASK40, MOVES, NRANKS,
                      RONDA, TRINGA, CardSet, _multisets, best_declaration, cardset, count,
                      declaration_points, event_names, event_points, max_declaration,
                      ranks_of, run_masks)

State = tuple   # (table, hands, seat, prev, show, last, spos)


# --- the game --------------------------------------------------------------

class Game:
    """One hand of Ronda with a known stock, compiled for search.

    ``rules``: the Rules; ``players``: 2, 3 or 4; ``leader``: the seat that
    leads every deal (the one after the dealer); ``stock``: the undealt rank
    indices in dealing order (known stock; perfect information).

    Interface for the search (it knows nothing else of the game):

    - ``moves(state)``: distinct rank indices the mover may play (a tuple);
    - ``play(state, move)``: ``(child, gain, ev)``, gain in half-points for
      the mover's side, ev the event bits;
    - ``is_terminal(state)``: the hand is over;
    - ``children(state)``: every play with an ordering guess, see
      :meth:`_compile_play`;
    - ``tt_key(state)``: a transposition-table key (the state itself);
    - ``same_side(a, b)``: two seats on one side.

    Raises ValueError for a stock that does not fill whole deals.
    """

    def __init__(self, rules: Rules, players: int, leader: int,
                 stock: Sequence[int], shuffled: bool = False) -> None:
        self.rules = rules
        self.players = players
        self.leader = leader
        self.stock = tuple(stock)
        self.shuffled = shuffled
        self.sides = tuple(s % 2 if players == 4 else s for s in range(players))
        sizes = deal_sizes(rules, players)
        #: cards a player receives on the next deal, keyed by the stock size
        self.next_deal = {sum(sizes[i:]) * players: sizes[i] for i in range(len(sizes))}
        total = len(self.stock)
        k = len(sizes)
        while total > 0 and k > 0:
            k -= 1
            total -= sizes[k] * players
        if total != 0:
            raise ValueError(f"a stock of {len(self.stock)} cards does not fill whole deals")
        self.deals: dict[int, tuple[int, list[int]]] = {}
        self._outcomes: dict[int, list] = {}
        pos = 0
        for size in ([] if shuffled else sizes[k:]):
            hands_ranks = [[] for _ in range(players)]
            for i in range(players):
                seat = (leader + i) % players
                hands_ranks[seat] = list(self.stock[pos:pos + size])
                pos += size
            packed = 0
            for seat, h in enumerate(hands_ranks):
                packed |= cardset(h) << (HAND_BITS * seat)
            decl = declaration_points(rules, hands_ranks, self.sides)
            start = pos - size * players
            self.deals[start] = (packed, decl)
        self.play = self._compile_play()

    # The hot path: one closure, its constants in cells.
    def _compile_play(self):  # noqa: C901 - one function on purpose (speed)
        rules = self.rules
        players = self.players
        leader = self.leader
        sides = self.sides
        # the stock field of a state: cards dealt (known order) or the
        # card set still in the stock (shuffled); "empty" compares to nstock
        shuffled = self.shuffled
        nstock = 0 if shuffled else len(self.stock)
        two_sided = players in (2, 4)
        hit = rules.hit
        answer_levels = len(hit)
        missa_last = rules.missa_on_last_card
        missa_round = rules.missa_last_round
        pts_of = [event_points(rules, ev) for ev in range(32)]
        bonus = rules.last_capture_bonus
        below, brk, sentinel = run_masks(rules)
        shift = [HAND_BITS * s for s in range(players)]
        # deals: spos -> (hands, declaration gain in half-points for side 0)
        deal_of = {}
        for spos, (packed, decl) in self.deals.items():
            dg = 2 * (decl[0] - decl[1]) if two_sided else 0
            deal_of[spos] = (packed, dg, spos + bin(packed).count("1"))
        side0 = [sides[s] == 0 for s in range(players)]
        nxt = [(s + 1) % players for s in range(players)]

        def capture(table, r):
            """The table cards a play of rank index r takes (0 if none):
            every card of rank r, then the upward run (the same three lines
            as in play, which inlines them for speed)."""
            if not (table >> (4 * r)) & 1:
                return 0
            absent = (((~table) & LOW) | sentinel | brk[r]) & ~below[r]
            return table & (((absent & -absent) - 1) ^ below[r])

        self.capture = capture

        def play(state, r):
            table, hands, seat, prev, show, last, spos = state
            sh = shift[seat] + 4 * r
            nib = (hands >> sh) & 15
            hands -= ((nib + 1) >> 1) << sh
            if show and show >> 2 == r:
                # answer: the shown cards (size) move to the mover's side
                size = show & 3
                ev = 1 | (4 if size == 2 else 8)
                gain = 2 * pts_of[ev] + 2 * size + 1
                show = (r << 2) | (size + 1) if size + 1 <= answer_levels else 0
                prev = -1
                last = sides[seat]
            elif (table >> (4 * r)) & 1:
                absent = (((~table) & LOW) | sentinel | brk[r]) & ~below[r]
                taken = table & (((absent & -absent) - 1) ^ below[r])
                table ^= taken
                ev = 1
                if prev == r:
                    ev = 3
                    show = (r << 2) | 2 if answer_levels > 1 else 0
                else:
                    show = 0
                if not table and (missa_last or hands or spos != nstock) and (
                        missa_round or spos != nstock or hands.bit_count() >= players):
                    ev |= 16
                gain = 2 * pts_of[ev] + taken.bit_count() + 1
                prev = -1
                last = sides[seat]
            else:
                nt = (table >> (4 * r)) & 15
                table += (nt + 1) << (4 * r)
                ev = 0
                gain = 0
                prev = r
                show = 0
            if hands:
                return (table, hands, nxt[seat], prev, show, last, spos), gain, ev
            # last card of a deal
            if spos != nstock:
                if shuffled:        # a chance node: the search deals
                    return (table, 0, leader, -1, 0, last, spos), gain, ev | EV_DEAL
                packed, dg, nspos = deal_of[spos]
                if two_sided:
                    gain += dg if side0[seat] else -dg
                return (table, packed, leader, -1, 0, last, nspos), gain, ev | EV_DEAL
            # last card of the hand: the table goes to the last capturer
            if last >= 0:
                swept = table.bit_count() + 2 * bonus
                if two_sided:
                    gain += swept if last == sides[seat] else -swept
                table = 0
            return (table, 0, nxt[seat], -1, 0, last, spos), gain, ev | EV_END

        def children(state):
            """Every distinct play: ``[(order, gain, move, child), ...]`` in
            move-generation order. ``child`` is None when the hand ends with
            the play or when every play after it is forced (the last round
            of the last deal: one card a hand): the forced plays are made
            here and ``gain`` is the net gain to the end of the hand.
            ``order`` is the gain, less 3 for a lone card the next player
            could hit at once (perfect information: their hand is known)."""
            out = []
            for m in MOVES[(state[1] >> shift[state[2]]) & MASK40 & LOW]:
                child, gain, ev = play(state, m)
                hands = child[1]
                if not hands:
                    # the end of the hand, or (shuffled stock) a chance node
                    out.append((gain, gain, m, None if child[6] == nstock else child))
                    continue
                if child[6] == nstock and ((hands >> shift[child[2]]) & MASK40).bit_count() == 1:
                    sign = -1
                    while hands:
                        seat = child[2]
                        r = MOVES[(hands >> shift[seat]) & MASK40 & LOW][0]
                        child, g, _ev = play(child, r)
                        gain += sign * g
                        sign = -sign
                        hands = child[1]
                    out.append((gain, gain, m, None))
                elif not ev and (hands >> (shift[child[2]] + 4 * m)) & 1:
                    out.append((gain - 3, gain, m, child))
                else:
                    out.append((gain, gain, m, child))
            return out

        if rules.voleur:
            # Ronda voleur: its own play (piles in an eighth state field)
            from .voleur import make_play
            play = make_play(self)

        self.children = children
        return play

    # --- the rest of the search interface ----------------------------------

    def moves(self, state: State) -> tuple[int, ...]:
        """Distinct rank indices the mover holds (equivalent cards once)."""
        return MOVES[(state[1] >> (HAND_BITS * state[2])) & MASK40 & LOW]

    def is_terminal(self, state: State) -> bool:
        """The hand is over (no card in any hand and none in the stock)."""
        return state[1] == 0 and state[6] == (0 if self.shuffled else len(self.stock))

    def is_chance(self, state: State) -> bool:
        """A deal is due from a shuffled stock (no card in any hand)."""
        return state[1] == 0 and self.shuffled and state[6] != 0

    def outcomes(self, state: State) -> list[tuple[float, int, State]]:
        """The deals a chance node can give: ``[(probability, gain, child)]``
        with ``gain`` the declarations' half-points for the side of the
        leader (who moves in ``child``). Outcomes are rank multisets, with
        probabilities counting the physical cards (suits never matter),
        most probable first; they sum to 1."""
        table, last, stock, tail = state[0], state[5], state[6], state[7:]
        outs = self._outcomes.get(stock)
        if outs is None:
            outs = self._outcomes[stock] = self._deal_outcomes(stock)
        leader = self.leader
        return [(p, g, (table, hands, leader, -1, 0, last, rest) + tail)
                for p, g, hands, rest in outs]

    def _deal_outcomes(self, stock: CardSet) -> list[tuple[float, int, int, CardSet]]:
        from math import comb
        counts = [count(stock, r) for r in range(NRANKS)]
        n = self.next_deal[sum(counts)]
        players = self.players
        seats = [(self.leader + i) % players for i in range(players)]
        total = 1
        left = sum(counts)
        for _ in seats:
            total *= comb(left, n)
            left -= n
        out = []
        lead_side = self.sides[self.leader]

        def hands_of(i, rem, weight, hands):
            if i == len(seats):
                ranks = [ranks_of(h) for h in hands]
                decl = declaration_points(self.rules, ranks, self.sides)
                dg = 2 * (decl[0] - decl[1]) if players in (2, 4) else 0
                packed = 0
                for seat, h in enumerate(hands):
                    packed |= h << (HAND_BITS * seat)
                rest = cardset(r for r in range(NRANKS) for _ in range(rem[r]))
                out.append((weight / total, dg if lead_side == 0 else -dg, packed, rest))
                return
            seat = seats[i]
            for combo in _multisets(rem, n):
                w = 1
                for r, k in enumerate(combo):
                    if k:
                        w *= comb(rem[r], k)
                new_rem = [a - b for a, b in zip(rem, combo)]
                new_hands = hands[:]
                new_hands[seat] = cardset(r for r in range(NRANKS) for _ in range(combo[r]))
                hands_of(i + 1, new_rem, weight * w, new_hands)

        hands_of(0, counts, 1, [0] * players)
        out.sort(key=lambda o: -o[0])
        return out

    #: the search may use a state as its own transposition key
    state_is_key = True

    @staticmethod
    def tt_key(state: State) -> State:
        """The transposition key of a state: the state itself (the last
        capturer is kept as a side, so nothing in it is history)."""
        return state

    def same_side(self, a: int, b: int) -> bool:
        """Seats ``a`` and ``b`` score for one side."""
        return self.sides[a] == self.sides[b]

    def hand(self, state: State, seat: int) -> CardSet:
        """The card set of one seat's hand."""
        return (state[1] >> (HAND_BITS * seat)) & MASK40

    def bounds(self, state: State) -> tuple[int, int]:
        """Sure bounds ``(lo, hi)`` on the value of ``state`` (half-points,
        for the side to move) from the cards and points still to be won:
        every card left (table, hands, stock) may go to either side; a
        side may score a missa and a capture point on each of its plays,
        the hits and answers the ranks still to be played allow (two cards
        of a rank: a hit; three: an answer for ``hit[1]``; four: a hit and
        an answer for ``hit[2]``), the best declaration of every deal to
        come, and the last-capture bonus."""
        rules = self.rules
        table, hands, stock = state[0], state[1], state[6]
        if self.shuffled:
            n_stock = stock.bit_count()
            pool = [count(stock, r) for r in range(NRANKS)]
        else:
            rest = self.stock[stock:]
            n_stock = len(rest)
            pool = [rest.count(r) for r in range(NRANKS)]
        for seat in range(self.players):
            h = (hands >> (HAND_BITS * seat)) & MASK40
            for r in range(NRANKS):
                pool[r] += count(h, r)
        hit = rules.hit + (0, 0)
        rank_points = 0
        for c in pool:
            if c >= 4:
                rank_points += max(hit[0] + hit[2], hit[1])
            elif c == 3:
                rank_points += max(hit[0], hit[1])
            elif c == 2:
                rank_points += hit[0]
        plays = hands.bit_count() + n_stock
        deals_left = 0
        k = n_stock
        while k:
            k -= self.next_deal[k] * self.players
            deals_left += 1
        decl = max_declaration(rules, self.players) * deals_left
        points = (rank_points + (rules.missa + rules.capture_point) * ((plays + 1) // 2)
                  + decl + rules.last_capture_bonus)
        hi = table.bit_count() + plays + 2 * points
        if rules.voleur:
            # a stolen card moves 2 half-points; the final card margin is
            # at most every card, so the change at most the piles twice more
            from .voleur import unpack_piles
            hi += 2 * sum(unpack_piles(state[7])[1])
        return -hi, hi

    def initial_state(self, table: Sequence[int], hands: Sequence[Sequence[int]],
                      turn: int, prev: int = -1, show: int = 0,
                      last: int = -1, tops: Sequence[int] = (-1, -1),
                      sizes: Sequence[int] = (0, 0)) -> State:
        """The compact state of a position: rank indices for the table and
        each seat's hand, the seat to move, ``prev`` rank index or -1,
        ``show`` as ``rank*4 + size`` or 0, ``last`` the last capturer's
        seat or -1. The stock is the Game's. Ronda voleur: ``tops`` the rank
        index of each side's pile top (-1 for none) and ``sizes`` each
        side's pile, in an eighth field (:mod:`solver.engine.voleur`)."""
        packed = 0
        for seat, h in enumerate(hands):
            packed |= cardset(h) << (HAND_BITS * seat)
        side = self.sides[last] if last >= 0 else -1
        spos = cardset(self.stock) if self.shuffled else 0
        if self.rules.voleur:
            from .voleur import pack_piles
            return (cardset(table), packed, turn, prev, show, side, spos,
                    pack_piles(tops, sizes))
        return (cardset(table), packed, turn, prev, show, side, spos)
