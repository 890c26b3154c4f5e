"""Cards of the 40-card Spanish deck: ranks, suits, the rank sequence, parsing.

The engine works on *rank indices* 0..9 (ranks 1 2 3 4 5 6 7 10 11 12);
suits are kept only at the edges so that a real game can be transcribed.
Suits never matter for play or scoring (RULES.md, "Cards").

>>> parse_card("10c")
Card(rank=10, suit='c')
>>> str(parse_card("7"))
'7'
>>> [str(c) for c in parse_cards("1.3o.12")]
['1', '3o', '12']
"""

from __future__ import annotations

from typing import NamedTuple

#: The ten ranks of the Spanish 40-card deck, in sequence order.
RANKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
#: Rank -> rank index (0..9).
RANK_INDEX: dict[int, int] = {r: i for i, r in enumerate(RANKS)}
#: Suit letters: oros (coins), copas (cups), espadas (swords), bastos (clubs).
SUITS: str = "oceb"
SUIT_NAMES: dict[str, str] = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
#: Rank names for court cards.
RANK_NAMES: dict[int, str] = {10: "Sota", 11: "Caballo", 12: "Rey"}

RankIndex = int  # 0..9, index into RANKS


class CardError(ValueError):
    """A card or card list that cannot be read; the message quotes the input."""


class Card(NamedTuple):
    """One card: ``rank`` is the printed rank (1..7, 10..12), ``suit`` one of
    ``o c e b`` or ``None`` when only the rank is known.

    >>> Card(5, "o")
    Card(rank=5, suit='o')
    """

    rank: int
    suit: str | None = None

    @property
    def index(self) -> RankIndex:
        """The rank index 0..9 used by the engine."""
        return RANK_INDEX[self.rank]

    def __str__(self) -> str:
        return f"{self.rank}{self.suit or ''}"


def parse_card(text: str) -> Card:
    """Read one card, ``"5"``, ``"10c"``, ``"1b"``.

    Raises CardError for an unknown rank (8, 9, 13...) or suit.

    >>> parse_card("8")
    Traceback (most recent call last):
    ...
    solver.cards.CardError: rank 8 does not exist in a Spanish 40-card deck: '8'
    """
    t = text.strip()
    digits = len(t) - len(t.lstrip("0123456789"))
    if digits == 0:
        raise CardError(f"expected a rank 1-7 or 10-12: {text!r}")
    if digits > 2:          # no rank has more digits (and int() of thousands of them fails)
        raise CardError(f"rank {t[:digits][:6]}{'...' if digits > 6 else ''} does not exist "
                        f"in a Spanish 40-card deck: {_quote(text)}")
    rank = int(t[:digits])
    suit_text = t[digits:]
    if rank not in RANK_INDEX:
        raise CardError(f"rank {rank} does not exist in a Spanish 40-card deck: {text!r}")
    if suit_text == "":
        return Card(rank, None)
    if len(suit_text) != 1 or suit_text not in SUITS:
        raise CardError(f"unknown suit {suit_text!r} (expected one of o c e b): {text!r}")
    return Card(rank, suit_text)


def _quote(text: str, most: int = 24) -> str:
    """``repr`` of user text, cut short when long."""
    return repr(text) if len(text) <= most else repr(text[:most]) + "..."


def parse_cards(text: str) -> list[Card]:
    """Read a ``.``-joined card list; ``-`` is the empty list.

    >>> parse_cards("-")
    []
    """
    t = text.strip()
    if t == "-":
        return []
    if t == "":
        raise CardError("expected a card list or '-', got nothing")
    return [parse_card(part) for part in t.split(".")]


def format_cards(cards: list[Card] | tuple[Card, ...]) -> str:
    """Write a card list the way parse_cards reads it (``-`` when empty).

    >>> format_cards([Card(1), Card(12, "e")])
    '1.12e'
    """
    return ".".join(str(c) for c in cards) if cards else "-"


def rank_of(index: RankIndex) -> int:
    """The printed rank of a rank index: ``rank_of(7) == 10``."""
    return RANKS[index]
