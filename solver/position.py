"""The friendly position type: what a position line (NOTATION.md) says.

A :class:`Position` is the edge object: cards with optional suits, seats by
index, the rules. The search works on the compact form built by
:mod:`solver.engine.compile`.

Seats are indexed in play order (counter-clockwise, RULES.md "Seats"):
two players ``S N``; three ``S E N``; four ``S E N W`` with S+N against E+W.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .rules import Rules, PRESETS

SEAT_NAMES: dict[int, tuple[str, ...]] = {
    2: ("S", "N"),
    3: ("S", "E", "N"),
    4: ("S", "E", "N", "W"),
}


def seat_names(players: int) -> tuple[str, ...]:
    """Seat letters in play order for 2, 3 or 4 players."""
    return SEAT_NAMES[players]


def side_of(seat: int, players: int) -> int:
    """The side (scoring unit) of a seat: partnerships S+N = 0, E+W = 1 with
    four players; with two or three players each seat is its own side."""
    return seat % 2 if players == 4 else seat


def n_sides(players: int) -> int:
    """Number of scoring sides: 2 for two players and for partnerships, 3 for three."""
    return 2 if players in (2, 4) else 3


def side_names(players: int) -> tuple[str, ...]:
    """Side labels: ``S N``, ``S E N`` or ``SN EW``."""
    return ("SN", "EW") if players == 4 else SEAT_NAMES[players]


@dataclass
class Declaration:
    """One entry of ``declared=``: ``seat`` index, ``kind`` ``"ronda"`` or
    ``"tringa"``, ``rank`` the printed rank or ``None`` when not announced."""

    seat: int
    kind: str
    rank: int | None = None


@dataclass
class Show:
    """A hit pile on show (``show=7:2@N``): printed ``rank``, ``size`` 2
    (the third card answers for hit[1]) or 3 (the fourth for hit[2]), and the
    ``seat`` whose pile it is (``None`` when not written: the previous seat)."""

    rank: int
    size: int
    seat: int | None = None


@dataclass
class DealHistory:
    """The plays of the current deal (``hist=``): ``table`` the cards face
    up when the deal was dealt, ``plays`` ``(seat, card)`` in order; Ronda
    voleur: ``tops`` and ``piles`` at the deal's start. What
    inference needs: every earlier deal was played out in public, so only
    this deal's plays say something about a hidden hand."""

    table: list[Card]
    plays: list[tuple[int, Card]]
    #: Ronda voleur: each side's pile top (a card or None) and pile size
    #: when the deal was dealt, so that its steals replay (None otherwise)
    tops: tuple[Card | None, ...] | None = None
    piles: tuple[int, ...] | None = None

    def top_ranks(self) -> list[int] | None:
        """The pile tops at the deal's start as rank indices (-1: none)."""
        if self.tops is None:
            return None
        return [-1 if c is None else c.index for c in self.tops]


@dataclass
class Position:
    """A position: the state of a hand between two plays.

    - ``rules``: the Rules in force; ``preset``: its preset name;
      ``overrides``: parameter texts given on the line (kept for formatting).
    - ``table``: cards face up. ``hands``: one list per seat in play order,
      ``None`` for an unknown card (``?``).
    - ``stock_kind``: ``"known"`` (``stock`` is in dealing order),
      ``"shuffled"`` (``~``: ``stock`` holds the cards, order unknown) or
      ``"unknown"`` (``?``: every card not placed elsewhere; ``stock`` empty).
    - ``turn``: seat index to play; ``dealer``: seat index or ``None`` when
      it was left to the hand sizes (see :meth:`dealer_seat`).
    - ``score``: match points per side; ``taken``: cards in each side's
      capture pile; ``last``: seat that made the last capture or ``None``.
    - ``gone``: cards captured this hand (``None`` when not given).
    - ``declared``: declarations announced for the current deal.
    - ``prev``: the card the previous player just left on the table.
    - ``show``: a hit pile on show.
    - ``hist``: the plays of the current deal and the table they started
      from (:class:`DealHistory`), or ``None``.
    - ``tops``: Ronda voleur only: the top card of each side's capture pile
      (``None`` for an empty pile), one per side in ``taken`` order, or
      ``None`` when not given (no top: nothing to steal).
    - ``ops``: EPD-style opcodes, ``(name, operand text)`` in line order.
    """

    table: list[Card]
    hands: list[list[Card | None]]
    stock_kind: str
    stock: list[Card]
    turn: int
    rules: Rules = field(default_factory=lambda: PRESETS["lmodire"])
    preset: str = "lmodire"
    overrides: dict[str, str] = field(default_factory=dict)
    dealer: int | None = None
    score: tuple[int, ...] | None = None
    taken: tuple[int, ...] | None = None
    last: int | None = None
    gone: list[Card] | None = None
    declared: list[Declaration] = field(default_factory=list)
    prev: Card | None = None
    show: Show | None = None
    hist: DealHistory | None = None
    tops: tuple[Card | None, ...] | None = None
    ops: list[tuple[str, str]] = field(default_factory=list)

    @property
    def players(self) -> int:
        """Number of players (2, 3 or 4), from the number of hands."""
        return len(self.hands)

    def seat_name(self, seat: int) -> str:
        """The letter of a seat index."""
        return SEAT_NAMES[self.players][seat]

    def leader(self) -> int:
        """The seat that leads the current deal (the one after the dealer).

        When ``dealer`` is not given it follows from the hand sizes: the first
        seat after the mover holding one card fewer than the mover leads;
        with equal hands the mover leads.
        """
        p = self.players
        if self.dealer is not None:
            return (self.dealer + 1) % p
        k = len(self.hands[self.turn])
        for step in range(1, p):
            seat = (self.turn + step) % p
            if len(self.hands[seat]) == k - 1:
                return seat
        return self.turn

    def dealer_seat(self) -> int:
        """The dealing seat, given or inferred (see :meth:`leader`)."""
        return (self.leader() - 1) % self.players

    def scores(self) -> tuple[int, ...]:
        """Match points per side (zeros when not given)."""
        return self.score if self.score is not None else (0,) * n_sides(self.players)

    def pile_sizes(self) -> tuple[int, ...]:
        """Cards in each side's capture pile (zeros when not given)."""
        return self.taken if self.taken is not None else (0,) * n_sides(self.players)

    def plays_dealt(self, seat: int, deal_size: int) -> list[Card] | None:
        """The cards ``seat`` played this deal, when its hand dealt is its
        hand now and these: none while it holds the whole deal
        (``deal_size`` cards), ``hist=``'s plays of it once it has played,
        None when ``hist=`` does not say which cards it played.

        >>> from solver.notation import parse_position
        >>> pos = parse_position("1.3.10.12.5 ?.?/2.4.6 ? N dealer=N prev=5 hist=1.3.10.12:S5")
        >>> pos.plays_dealt(0, 3), pos.plays_dealt(1, 3)
        ([Card(rank=5, suit=None)], [])
        """
        if len(self.hands[seat]) == deal_size:
            return []
        played = ([c for s, c in self.hist.plays if s == seat]
                  if self.hist is not None else [])
        return played if len(self.hands[seat]) + len(played) == deal_size else None

    def stock_count(self) -> int:
        """Cards in the stock: those written, or for a ``?`` stock the rest
        of the deck (40 less the table, the hands and the piles).

        >>> from solver.notation import parse_position
        >>> parse_position("1.3.5.11 2.2.7/4.6.12 ? S").stock_count()
        30
        """
        if self.stock_kind != "unknown":
            return len(self.stock)
        return (40 - len(self.table) - sum(len(h) for h in self.hands)
                - sum(self.pile_sizes()))

    def opcode(self, name: str) -> str | None:
        """The operand of the first opcode called ``name``, or ``None``."""
        for op, operand in self.ops:
            if op == name:
                return operand
        return None
