"""Whole hands and matches in friendly terms, on top of the compiled core's
play (:meth:`solver.engine.hand.Hand.play`).

:class:`HandState` is one hand in progress with real cards (suits kept, so
that a game can be written down): the opening table, the deals, every
play, the capture piles, the match score. The rules are not read here:
what a play captures, steals and which events it scores come from the
compiled core (:class:`solver.engine.hand.Hand`), the points of the events
from :func:`~solver.engine.scoring.event_points` and of the declarations
from :func:`~solver.engine.scoring.declaration_points`. This module adds what happens
around the plays (RULES.md "Seats, dealing", "End of a hand", "Winning"):

- shuffling and dealing a hand from a seeded RNG, with the opening-table
  rule (:func:`deal_hand`);
- the declarations of every deal, scored when the deal is made;
- the end of the hand: the table sweep to the last capturer (with
  ``last_capture_bonus``), then the card count (each card over 20);
- the match: ``win_check = immediate`` stops the game the moment a side
  reaches the target; ``end_of_hand`` plays the hand out and the higher
  total wins; the deal passes to the next seat in play order.

What a seat sees at its turn is :meth:`HandState.view`: a
:class:`~solver.position.Position` with its own hand, ``?`` for the other
hands and the stock, the cards gone (captured this hand), the pile sizes,
the declarations of the deal, the previous card, a hit pile on show and
the match score. Players (``solver.games.players``) see nothing else.

>>> import random
>>> from solver.rules import PRESETS
>>> table, stock = deal_hand(PRESETS["lmodire"], 2, random.Random(1))
>>> len(table), len(stock), distinct_table_ok(PRESETS["lmodire"], table)
(4, 36, True)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from ..cards import RANKS, SUITS, Card, format_cards
from ..engine.scoring import (EV_ANSWER5, EV_ANSWER10, EV_CAPTURE, EV_DEAL, EV_END, EV_HIT,
                              EV_MISSA, TRINGA, best_declaration, declaration_points,
                              event_points, ranks_of)
from ..position import (DealHistory, Declaration, Position, Show, n_sides, seat_names,
                       side_names, side_of)
from ..rules import PRESETS, Rules, RulesError, check_players, deal_sizes, target_winner
from ..runtime import clock

#: fields of a core state (solver.engine.hand; the core itself is loaded
#: only when a hand is played, so that reading records stays fast)
SEAT, PREV, SHOW = 5, 6, 7

#: a full Spanish deck with suits, in rank order (40 cards)
DECK: tuple[Card, ...] = tuple(Card(r, s) for r in RANKS for s in SUITS)

#: points of one play or one hand by kind, as :attr:`HandState.detail` keys
POINT_KINDS = ("declaration", "capture", "hit", "answer", "missa", "last capture", "cards")


class PlayError(ValueError):
    """A deal or a play the rules do not allow: a card not in the mover's
    hand, a card seen twice or a fifth card of a rank, a deal of the wrong
    size, a play after the hand is over. The message says which."""


# --- dealing ------------------------------------------------------------------


#: the events of a play that score for the mover's side, in the order the
#: points are awarded (an immediate win stops at the first that reaches the
#: target), each with its kind of points
SCORED_EVENTS = ((EV_CAPTURE, "capture"), (EV_HIT, "hit"), (EV_ANSWER5, "answer"),
                 (EV_ANSWER10, "answer"), (EV_MISSA, "missa"))


def adjacent(rules: Rules, a: int, b: int) -> bool:
    """Two rank indices are consecutive in the rank sequence (7 and 10 only
    with ``seven_ten_adjacent``; 12 and 1 never)."""
    lo, hi = min(a, b), max(a, b)
    return hi - lo == 1 and (lo != 6 or rules.seven_ten_adjacent)


def distinct_table_ok(rules: Rules, table: Sequence[Card]) -> bool:
    """The opening table obeys ``table_rule = distinct``: four different
    ranks, no two consecutive (RULES.md "Seats, dealing")."""
    idx = [c.index for c in table]
    return len(set(idx)) == len(idx) and not any(
        adjacent(rules, a, b) for i, a in enumerate(idx) for b in idx[i + 1:])


def deal_hand(rules: Rules, players: int, rng: random.Random) -> tuple[list[Card], list[Card]]:
    """Shuffle a 40-card deck and lay the opening table.

    Returns ``(table, stock)``: ``rules.table_cards`` table cards (4; 0 in
    the ``online`` house rule, issue 11) and the others in dealing order
    (each deal gives the leader the first cards, then the next seat; see
    :func:`solver.rules.deal_sizes`).

    With ``table_rule = distinct`` the table cards are laid one at a time;
    a card that pairs with, or is consecutive to, a card already there (the
    second card of a pair, the last card of a run) goes back under the
    stock and the next card is tried. If no card of the stock fits, all 40
    cards are shuffled and dealt again (RULES.md). ``players`` is only
    checked (2, 3 or 4): the stock order does not depend on it.
    """
    if players not in (2, 3, 4):
        raise ValueError(f"2, 3 or 4 players, not {players}")
    deck = list(DECK)
    n_table = rules.table_cards
    while True:
        rng.shuffle(deck)
        if rules.table_rule != "distinct" or n_table == 0:
            return deck[:n_table], deck[n_table:]
        stock = deck[:]
        table: list[Card] = []
        refused = 0
        while len(table) < n_table and refused <= len(stock):
            card = stock.pop(0)
            if any(t.index == card.index or adjacent(rules, t.index, card.index)
                   for t in table):
                stock.append(card)
                refused += 1
            else:
                table.append(card)
                refused = 0
        if len(table) == n_table:
            return table, stock


# --- one hand -----------------------------------------------------------------


@dataclass
class PlayEvent:
    """What one play did: ``seat`` played ``card``; ``ev`` the event bits
    (``solver.engine.scoring.EV_*``); ``captured`` the cards it took (its own card
    first; for an answer, the shown cards it took over); ``points`` per side
    scored by the play, the end-of-hand sweep and card count included when
    it was the last card; ``effect`` in words (``takes 5o.6c +1 hit``)."""

    seat: int
    card: Card
    ev: int
    captured: list[Card]
    points: list[int]
    effect: str


class HandState:
    """One hand of Ronda in progress, with real cards.

    ``rules``; ``players`` 2, 3 or 4 (seats in play order, see
    :mod:`solver.position`); ``dealer`` the dealing seat (the next seat
    leads every deal); ``table`` the opening cards (``rules.table_cards``:
    4, or 0 in the ``online`` house rule); ``score`` the match
    points per side before the hand (zeros by default); ``target`` the
    match target in points, or None to play the hand out whatever the score
    (arena); ``stock`` the undealt cards (36, or 40 with no table cards)
    in dealing order when known
    (self-play), or None when each deal is given to :meth:`deal`.

    Use: :meth:`deal` (the first deal and every time :attr:`awaiting_deal`),
    :meth:`play` the mover's card until :attr:`finished`. :attr:`winner` is
    the side that won the match during this hand, if any.

    Raises PlayError for cards seen twice, a fifth card of a rank, a table
    that is not ``rules.table_cards`` cards or breaks ``table_rule = distinct``.
    """

    def __init__(self, rules: Rules, players: int, dealer: int, table: Sequence[Card], *,
                 score: Sequence[int] | None = None, target: int | None = None,
                 stock: Sequence[Card] | None = None) -> None:
        if players not in (2, 3, 4):
            raise PlayError(f"2, 3 or 4 players, not {players}")
        self.rules = rules
        self.players = players
        self.dealer = dealer % players
        self.leader = (dealer + 1) % players
        self.sides = tuple(side_of(s, players) for s in range(players))
        self.nsides = n_sides(players)
        self.sizes = deal_sizes(rules, players)
        self.names = seat_names(players)
        self.target = target
        self.score = list(score) if score is not None else [0] * self.nsides
        if len(self.score) != self.nsides:
            raise PlayError(f"a score per side ({self.nsides}), not {len(self.score)}")
        self.start_score = tuple(self.score)
        #: points per side scored in this hand, and by kind (POINT_KINDS)
        self.points = [0] * self.nsides
        self.detail: list[Counter[str]] = [Counter() for _ in range(self.nsides)]
        self.table: list[Card] = list(table)
        self.opening = list(table)
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.piles: list[list[Card]] = [[] for _ in range(self.nsides)]
        self.stock: list[Card] | None = None if stock is None else list(stock)
        self.declared: list[Declaration] = []
        self.deal_played: list[list[Card]] = [[] for _ in range(players)]
        #: the table when the current deal was dealt, and its plays in order
        self.deal_table: list[Card] = []
        self.deal_log: list[tuple[int, Card]] = []
        self.deal_no = 0          # deals made so far (1 = the first deal)
        self.turn = self.leader
        self.prev_card: Card | None = None
        self.show_cards: list[Card] = []
        self.last_seat: int | None = None
        self.winner: int | None = None
        self.finished = False
        self.awaiting_deal = True
        self.game = None                # a solver.engine.hand.Hand
        self.state: tuple = ()
        #: Ronda voleur: the pile tops and sizes when the deal was dealt
        self.deal_tops: tuple = ()
        self.deal_piles: tuple = ()
        self._seen: Counter[int] = Counter()
        self._suited: set[Card] = set()
        self.dealt = 40 - rules.table_cards
        if len(self.table) != rules.table_cards:
            raise PlayError(f"the opening table holds {rules.table_cards} cards "
                            f"(table_cards={rules.table_cards}), not {len(self.table)}")
        self._see(self.table, "the opening table")
        if rules.table_rule == "distinct" and not distinct_table_ok(rules, self.table):
            raise PlayError(
                f"the opening table {format_cards(self.table)} breaks table_rule=distinct "
                "(4 different ranks, no two consecutive)")
        if self.stock is not None:
            if len(self.stock) != self.dealt:
                raise PlayError(f"a stock of {self.dealt} cards, not {len(self.stock)}")
            self._check_counts(list(self.table) + self.stock, "the stock")

    # --- helpers -----------------------------------------------------------

    def _check_counts(self, cards: Sequence[Card], where: str) -> None:
        counts = Counter(c.index for c in cards)
        suited = Counter(c for c in cards if c.suit)
        for r, n in counts.items():
            if n > 4:
                raise PlayError(f"{where} holds {n} cards of rank {RANKS[r]} (a deck has 4)")
        for c, n in suited.items():
            if n > 1:
                raise PlayError(f"{where} holds {c} twice")

    def _see(self, cards: Sequence[Card], where: str) -> None:
        """Count cards as seen in this hand; a fifth of a rank or a suited
        card seen twice is an error naming ``where``."""
        for c in cards:
            if c.suit and c in self._suited:
                raise PlayError(f"{c} in {where} was already seen in this hand")
            if self._seen[c.index] >= 4:
                raise PlayError(f"{where} holds a fifth card of rank {c.rank}")
            self._seen[c.index] += 1
            if c.suit:
                self._suited.add(c)

    def side_name(self, side: int) -> str:
        """The label of a side (``S``, ``N``, ``SN``, ``EW``...)."""
        return side_names(self.players)[side]

    def _award(self, gains: Sequence[int], kind: str) -> bool:
        """Add points per side (``kind`` from POINT_KINDS). With ``win_check
        = immediate`` and a target, the first side to reach it wins now (two
        sides reaching it at once, in a split declaration: the higher total;
        equal: nobody yet). Returns True when the match is won."""
        for s, g in enumerate(gains):
            if g:
                self.score[s] += g
                self.points[s] += g
                self.detail[s][kind] += g
        if self.target is None or self.rules.win_check != "immediate" or not any(gains):
            return False
        return self._check_target()

    def _check_target(self) -> bool:
        won = target_winner(self.score, self.target)
        if won is None:
            return False
        self.winner = won
        self.finished = True
        return True

    # --- dealing -----------------------------------------------------------

    def deal(self, hands: Sequence[Sequence[Card]] | None = None) -> list[int]:
        """Make the next deal: ``hands`` per seat (the deal's size each), or
        None to take them from the known stock. Scores the declarations
        (RULES.md "Declarations"); returns their points per side.

        Raises PlayError when no deal is due, a hand has the wrong size, a
        card was already seen, or no stock is known and ``hands`` is None.
        """
        if self.finished:
            raise PlayError("the hand is over")
        if not self.awaiting_deal:
            raise PlayError("the current deal is still being played")
        if self.deal_no >= len(self.sizes):
            raise PlayError(f"a hand has {len(self.sizes)} deals")
        size = self.sizes[self.deal_no]
        p = self.players
        if hands is None:
            if self.stock is None:
                raise PlayError("the stock is not known: give the deal's hands")
            new: list[list[Card]] = [[] for _ in range(p)]
            for i in range(p):
                seat = (self.leader + i) % p
                new[seat] = self.stock[:size]
                del self.stock[:size]
        else:
            new = [list(h) for h in hands]
            if len(new) != p:
                raise PlayError(f"a deal gives {p} hands, not {len(new)}")
            for seat, h in enumerate(new):
                if len(h) != size:
                    raise PlayError(f"deal {self.deal_no + 1} gives {size} cards a player, "
                                    f"but {self.names[seat]} gets {len(h)}")
            if self.stock is not None:
                raise PlayError("the stock is known: deal from it (hands=None)")
        for seat, h in enumerate(new):
            self._see(h, f"{self.names[seat]}'s hand")
        self.hands = new
        ranks = [[c.index for c in h] for h in new]
        if self.game is None:
            rest = self.dealt - size * p
            if self.stock is not None:
                stock_ranks = [c.index for c in self.stock]
            else:   # any cards of the right number: later deals replace them
                left = Counter({r: 4 for r in range(10)})
                left.subtract(self._seen)
                stock_ranks = sorted(left.elements())[:rest]
            from ..engine.hand import Hand
            self.game = Hand(self.rules, p, self.leader, stock_ranks, track=True)
            self.state = self.game.initial_state([c.index for c in self.table], ranks,
                                                 self.leader)
        else:
            self.state = self.game.after_deal(self.state, ranks)
        self.deal_no += 1
        self.awaiting_deal = False
        self.turn = self.leader
        self.prev_card = None
        self.show_cards = []
        self.declared = []
        self.deal_played = [[] for _ in range(p)]
        self.deal_table = list(self.table)
        self.deal_log = []
        self.deal_tops = tuple(pl[-1] if pl else None for pl in self.piles)
        self.deal_piles = tuple(len(pl) for pl in self.piles)
        for seat, h in enumerate(ranks):
            d = best_declaration(self.rules, h)
            if d is not None:
                kind = "tringa" if d[0] == TRINGA else "ronda"
                self.declared.append(Declaration(seat, kind, RANKS[d[1]]))
        gains = declaration_points(self.rules, ranks, self.sides)
        self._award(gains, "declaration")
        return gains

    # --- playing -----------------------------------------------------------

    def legal_cards(self) -> list[Card]:
        """The mover's hand: every card may be played (RULES.md "A turn")."""
        return list(self.hands[self.turn])

    def legal_ranks(self) -> list[int]:
        """The distinct rank indices the mover may play, ascending."""
        return sorted({c.index for c in self.hands[self.turn]})

    def find(self, seat: int, card: Card) -> int | None:
        """Index in ``seat``'s hand of ``card``: the same card, or for a
        card written without a suit the first card of its rank."""
        hand = self.hands[seat]
        for i, c in enumerate(hand):
            if c == card:
                return i
        if card.suit is None:
            for i, c in enumerate(hand):
                if c.rank == card.rank:
                    return i
        return None

    def play(self, card: Card) -> PlayEvent:
        """The mover plays ``card``; returns what it did.

        Scores the play's events for the mover's side; after the last card
        of a deal sets :attr:`awaiting_deal` (the caller deals); after the
        last card of the hand sweeps the table to the last capturer and
        scores the card count, then sets :attr:`finished`. With an immediate
        win check the hand stops the moment a side reaches the target.

        Raises PlayError when the hand is over, a deal is due, or the card
        is not in the mover's hand.
        """
        if self.finished:
            raise PlayError("the hand is over")
        if self.awaiting_deal:
            raise PlayError("the next deal has not been made")
        seat = self.turn
        i = self.find(seat, card)
        if i is None:
            raise PlayError(f"{card} is not in {self.names[seat]}'s hand "
                            f"({format_cards(self.hands[seat])})")
        card = self.hands[seat].pop(i)
        self.deal_played[seat].append(card)
        self.deal_log.append((seat, card))
        r = card.index
        game = self.game
        st = self.state
        robbed_sides = game.robbed(st, r)
        taken_cs = game.capture(st, r)
        child, _gain, ev = game.play(st, r)
        side = self.sides[seat]
        captured: list[Card] = []
        robbed: list[Card] = []
        if ev & (EV_ANSWER5 | EV_ANSWER10):
            owner = self.sides[(seat - 1) % self.players]
            for c in self.show_cards:
                self.piles[owner].remove(c)
            for k, _n in robbed_sides:  # Ronda voleur (V3): the rest of the hitter's pile too
                robbed += self.piles[k]
                self.piles[k] = []
            captured = self.show_cards + [card]
            self.piles[side].extend(robbed + captured)
            self.show_cards = list(captured) if child[SHOW] else []
            self.last_seat = seat
        elif ev & EV_CAPTURE:
            ranks = set(ranks_of(taken_cs))
            taken = [c for c in self.table if c.index in ranks]
            self.table = [c for c in self.table if c.index not in ranks]
            captured = [card] + taken
            if self.rules.voleur:   # V1, V6: the stolen piles under, the played card on top
                for k, _n in robbed_sides:
                    robbed += self.piles[k]
                    self.piles[k] = []
                self.piles[side].extend(taken + robbed + [card])
            else:
                self.piles[side].extend(captured)
            prev_card = self.prev_card
            self.show_cards = ([prev_card, card] if ev & EV_HIT and child[SHOW]
                               and prev_card is not None and st[PREV] == r else [])
            self.last_seat = seat
        else:
            self.table.append(card)
            self.show_cards = []
        self.prev_card = card if child[PREV] >= 0 else None
        self.state = child
        before = list(self.points)
        won = False
        for bit, kind in SCORED_EVENTS:
            pts = event_points(self.rules, bit) if ev & bit else 0
            if pts and not won:
                gains = [0] * self.nsides
                gains[side] = pts
                won = self._award(gains, kind)
        if not won:
            if ev & EV_END:
                self._end_of_hand()
            elif ev & EV_DEAL:
                self.awaiting_deal = True
                self.turn = self.leader
            else:
                self.turn = child[SEAT]
        points = [a - b for a, b in zip(self.points, before)]
        return PlayEvent(seat, card, ev, captured + robbed, points,
                         self._effect(card, ev, captured, points[side], len(robbed)))

    def _effect(self, card: Card, ev: int, captured: list[Card], pts: int,
                robbed: int = 0) -> str:
        if ev & (EV_ANSWER5 | EV_ANSWER10):
            text = f"answers, takes {format_cards(captured)}"
        elif ev & EV_CAPTURE:
            text = f"takes {format_cards(captured)}"
        else:
            text = "lays"
        if robbed:
            text += f" and a pile of {robbed}"
        kinds = [n for bit, n in ((EV_HIT, "hit"), (EV_ANSWER5, "answer"),
                                  (EV_ANSWER10, "answer"), (EV_MISSA, "missa")) if ev & bit]
        if kinds or pts:
            text += f" +{pts}" + (" " + ", ".join(kinds) if kinds else "")
        return text

    def _end_of_hand(self) -> None:
        """The sweep to the last capturer (and its bonus), then the card
        count, in that order (RULES.md "Winning"), then the end-of-hand
        win check."""
        self.finished = True
        self.awaiting_deal = False
        if self.last_seat is not None:
            s = self.sides[self.last_seat]
            self.piles[s][:0] = self.table     # under the pile: tops stay (V1)
            self.table = []
            gains = [0] * self.nsides
            gains[s] = self.rules.last_capture_bonus
            if self._award(gains, "last capture"):
                return
        for s in range(self.nsides):
            extra = len(self.piles[s]) - 20
            if extra > 0:
                gains = [0] * self.nsides
                gains[s] = extra
                if self._award(gains, "cards"):
                    return
        if self.target is not None and self.rules.win_check == "end_of_hand":
            self._check_target()

    # --- copies for what-if questions --------------------------------------

    def clone(self) -> "HandState":
        """An independent copy (the Hand is shared: it is never changed)."""
        new = object.__new__(HandState)
        new.__dict__.update(self.__dict__)
        new.score = list(self.score)
        new.points = list(self.points)
        new.detail = [Counter(d) for d in self.detail]
        new.table = list(self.table)
        new.hands = [list(h) for h in self.hands]
        new.piles = [list(p) for p in self.piles]
        new.stock = None if self.stock is None else list(self.stock)
        new.declared = list(self.declared)
        new.deal_played = [list(x) for x in self.deal_played]
        new.deal_table = list(self.deal_table)
        new.deal_log = list(self.deal_log)
        new.show_cards = list(self.show_cards)
        new._seen = Counter(self._seen)
        new._suited = set(self._suited)
        return new

    def set_hand(self, seat: int, cards: Sequence[Card]) -> None:
        """Replace ``seat``'s hand (same size) by ``cards``: a what-if for
        a hidden hand drawn from what another seat saw. No card check."""
        if len(cards) != len(self.hands[seat]):
            raise PlayError(f"{self.names[seat]} holds {len(self.hands[seat])} cards, "
                            f"not {len(cards)}")
        self.hands[seat] = list(cards)
        from ..engine.hand import Hand
        self.state = Hand.with_hand(self.state, seat, [c.index for c in cards])

    # --- what the seats see ------------------------------------------------

    def gone(self) -> list[Card]:
        """The cards captured this hand, both piles, pile by pile."""
        return [c for p in self.piles for c in p]

    def _position(self, hands: list[list[Card | None]], stock_kind: str,
                  stock: list[Card]) -> Position:
        rules = self.rules
        base = PRESETS.get(rules.name, PRESETS["lmodire"])
        show = None
        if self.state and self.state[SHOW]:
            show = Show(RANKS[self.state[SHOW] >> 2], self.state[SHOW] & 3)
        return Position(
            table=list(self.table), hands=hands, stock_kind=stock_kind, stock=stock,
            turn=self.turn, rules=rules, preset=rules.name if rules.name in PRESETS else "lmodire",
            overrides=rules.overrides_from(base), dealer=self.dealer,
            score=tuple(self.score), taken=tuple(len(p) for p in self.piles),
            last=self.last_seat, gone=self.gone(), declared=list(self.declared),
            prev=self.prev_card, show=show,
            tops=tuple(p[-1] if p else None for p in self.piles) if rules.voleur else None)

    def view(self, seat: int | None = None) -> Position:
        """What ``seat`` (default: the mover) sees at this moment: its own
        hand, ``?`` for every other hand and for the stock, the table, the
        cards gone, the pile sizes and the last capturer, the declarations
        of this deal (kind and rank), the card just laid (``prev``), a hit
        pile on show, the dealer and the match score. Nothing else: the
        other hands and the stock order are drawn by whoever needs them.

        The cards of a pair or triple another seat declared and has not
        played yet are shown in its hand by rank (``5.5.?``): the table
        heard the declaration. ``declared=`` keeps a declaration until its
        seat plays a card of that rank (after that it would say the hand
        still holds them all)."""
        seat = self.turn if seat is None else seat
        hands: list[list[Card | None]] = [
            list(h) if s == seat else [None] * len(h) for s, h in enumerate(self.hands)]
        declared = []
        for d in self.declared:
            if d.seat == seat:
                declared.append(d)
                continue
            # What the table knows of a declared pair or triple: the cards
            # its seat has not played yet are in its hand (shown by rank).
            played = sum(1 for c in self.deal_played[d.seat] if c.rank == d.rank)
            need = (3 if d.kind == "tringa" else 2) - played
            hidden = hands[d.seat]
            for i in range(min(max(need, 0), len(hidden))):
                hidden[i] = Card(d.rank)
            if not played:
                declared.append(d)
        pos = self._position(hands, "unknown", [])
        pos.declared = declared
        if self.rules.voleur:       # the steals replay from the deal's tops and piles
            pos.hist = DealHistory(list(self.deal_table), list(self.deal_log),
                                   self.deal_tops, self.deal_piles)
        else:
            pos.hist = DealHistory(list(self.deal_table), list(self.deal_log))
        return pos

    def full_position(self) -> Position:
        """The position with every card known ("double dummy"): all hands,
        and the stock in dealing order when it is known, else its cards in
        an unknown order (``~``)."""
        hands: list[list[Card | None]] = [list(h) for h in self.hands]
        if self.stock is not None:
            return self._position(hands, "known", list(self.stock))
        seen = Counter(c.index for c in self.table + self.gone()
                       + [c for h in self.hands for c in h])
        left = Counter({r: 4 for r in range(10)})
        left.subtract(seen)
        return self._position(hands, "shuffled", [Card(RANKS[r]) for r in sorted(left.elements())])


# --- whole hands and matches between players ----------------------------------


class Player(Protocol):
    """Anything that picks a card from what its seat sees (``solver.games.players``)."""

    name: str

    def choose(self, view: Position, rng: random.Random) -> Card:  # pragma: no cover
        """The card to play, given the seat's ``view`` (a position line as
        that seat sees it: other hands ``?``, stock ``?``, ``gone=``) and a
        seeded ``rng``."""
        ...


@dataclass
class HandLog:
    """One hand as it was played: ``dealer`` seat; ``table`` the opening
    cards; ``deals`` each deal's hands per seat; ``plays`` each deal's
    cards in play order; ``undealt`` the cards never dealt when the match
    ended during the hand (else None); ``points`` per side scored in the
    hand; ``score`` per side after it; ``winner`` the side that won the
    match in this hand or None; ``seconds`` thinking time per seat."""

    dealer: int
    table: list[Card]
    deals: list[list[list[Card]]] = field(default_factory=list)
    plays: list[list[Card]] = field(default_factory=list)
    undealt: list[Card] | None = None
    points: list[int] = field(default_factory=list)
    detail: list[dict[str, int]] = field(default_factory=list)
    score: list[int] = field(default_factory=list)
    winner: int | None = None
    seconds: list[float] = field(default_factory=list)


@dataclass
class MatchLog:
    """A whole match: ``rules`` (``rules.target`` is the target),
    ``players`` count, ``names`` per seat, ``first_dealer``,
    ``start_score`` per side, ``hands``, final ``score``, ``winner`` side
    (None when ``max_hands`` ran out), ``seed``."""

    rules: Rules
    players: int
    names: list[str]
    first_dealer: int
    start_score: list[int]
    hands: list[HandLog]
    score: list[int]
    winner: int | None
    seed: int | str | None = None


def play_hand(rules: Rules, players: int, dealer: int, table: Sequence[Card],
              stock: Sequence[Card], agents: Sequence[Player], rngs: Sequence[random.Random],
              *, score: Sequence[int] | None = None, target: int | None = None,
              on_play: Callable[[HandState, PlayEvent], None] | None = None) -> HandLog:
    """Play one hand: ``agents[seat].choose(view, rngs[seat])`` picks every
    card from :meth:`HandState.view`. ``target`` None plays the hand out
    (arena); else the match may end during it. Returns the HandLog.

    Raises PlayError when an agent picks a card it does not hold."""
    hs = HandState(rules, players, dealer, table, score=score, target=target, stock=stock)
    log = HandLog(dealer=hs.dealer, table=list(table), seconds=[0.0] * players)
    while not hs.finished:
        if hs.awaiting_deal:
            hs.deal()
            log.deals.append([list(h) for h in hs.hands])
            log.plays.append([])
            continue
        seat = hs.turn
        t0 = clock.now()
        card = agents[seat].choose(hs.view(), rngs[seat])
        log.seconds[seat] += clock.now() - t0
        event = hs.play(card)
        log.plays[-1].append(event.card)
        if on_play is not None:
            on_play(hs, event)
    if hs.winner is not None and hs.stock:
        log.undealt = list(hs.stock)
    log.points = list(hs.points)
    log.detail = [dict(d) for d in hs.detail]
    log.score = list(hs.score)
    log.winner = hs.winner
    return log


def hand_rng(seed: int | str, hand: int) -> random.Random:
    """The RNG that shuffles hand ``hand`` (1-based) of a match with
    ``seed``: the same seed gives the same decks, whoever sits where."""
    return random.Random(f"ronda/{seed}/hand/{hand}")


def play_match(rules: Rules, agents: Sequence[Player], *, seed: int | str = 0,
               first_dealer: int | None = None, start_score: Sequence[int] | None = None,
               max_hands: int = 100,
               on_play: Callable[[HandState, PlayEvent], None] | None = None) -> MatchLog:
    """Play a match to ``rules.target`` between ``agents`` (one per seat,
    2, 3 or 4). Hand ``h`` is shuffled by :func:`hand_rng` ``(seed, h)``;
    the first dealer is the last seat unless given (so S leads), and the
    deal passes to the next seat in play order after each hand. With
    ``win_check = end_of_hand`` a side at or over the target after a hand
    wins when its total is the highest; equal totals play on. Stops after
    ``max_hands`` hands with no winner. ``on_play(hand_state, event)``
    after every play (:func:`play_hand`)."""
    players = len(agents)
    try:
        check_players(rules, players)
    except RulesError as e:
        raise PlayError(str(e)) from None
    dealer = players - 1 if first_dealer is None else first_dealer % players
    score = list(start_score) if start_score is not None else [0] * n_sides(players)
    rngs = [random.Random(f"ronda/{seed}/seat/{s}/{agents[s].name}") for s in range(players)]
    log = MatchLog(rules, players, [a.name for a in agents], dealer, list(score), [],
                   score, None, seed)
    for h in range(1, max_hands + 1):
        table, stock = deal_hand(rules, players, hand_rng(seed, h))
        hl = play_hand(rules, players, dealer, table, stock, agents, rngs,
                       score=score, target=rules.target, on_play=on_play)
        log.hands.append(hl)
        score = list(hl.score)
        if hl.winner is not None:
            log.winner = hl.winner
            break
        dealer = (dealer + 1) % players
    log.score = score
    return log

