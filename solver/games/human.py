"""A person at the keyboard as a player (``human``): ``ronda-solve play
human engine:10 engine:10 engine:10 --rules pagat`` seats a person at S
against the engine (partner N included; write ``human`` twice to play
both hands of a partnership). Issue 11: ``play`` with four seats.

At each of its turns the player is shown what its seat sees
(:meth:`solver.games.match.HandState.view`, nothing more: the table, its own
hand, the plays of this deal, the card just laid, a hit pile on show, the
declarations heard, the piles and the score) and types a card: a rank
(``7``: the first card of that rank in hand) or a card (``7e``). A card
it does not hold or a bad card is refused with one line and asked again;
``q`` or the end of the input ends the session (:class:`Quit`): the games
finished so far are kept and the command exits 0. :func:`announce` tells
the person every play as it is made (the engine's replies included) and
how each hand ends.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from typing import Callable

from ..cards import Card, CardError, format_cards, parse_card
from ..numbers import signed
from ..position import Position, seat_names, side_names, side_of


def _read_line(prompt: str) -> str:
    """The prompt on stderr (stdout may carry the records), a line from
    stdin; EOFError at the end of the input."""
    sys.stderr.write(prompt)
    sys.stderr.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line


def _write_line(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


class Quit(Exception):
    """The person ended the session (``q``, or the end of the input): not
    an interruption; the games finished so far are kept."""


def announce(hs, event, names: list[str] | None = None) -> list[str]:
    """The lines telling a person at the keyboard what a play did
    (``N (engine:10) plays 7c: takes 7e.7c +1 hit``) and, after the last
    play of a hand, how the hand ended and the score. ``hs`` the
    :class:`~solver.games.match.HandState` after the play, ``event`` its
    :class:`~solver.games.match.PlayEvent`, ``names`` the players by
    seat."""
    p = hs.players
    seats = seat_names(p)
    who = seats[event.seat] + (f" ({names[event.seat]})" if names else "")
    out = [f"   {who} plays {event.card}: {event.effect}"]
    if hs.finished:
        sides = side_names(p)
        points = ", ".join(f"{s} {signed(v)}" for s, v in zip(sides, hs.points))
        score = "-".join(str(v) for v in hs.score)
        out.append(f"== the hand is over: {points}; score {score}"
                   + (f"; {sides[hs.winner]} wins the match" if hs.winner is not None else ""))
    return out


def describe_view(view: Position) -> list[str]:
    """The lines a person is shown before choosing a card for the mover
    of ``view`` (a seat's view: its own hand known)."""
    p = view.players
    names = seat_names(p)
    sides = side_names(p)
    me = view.turn
    who = f"you are {names[me]}"
    if p == 4:
        who += f" (partner {names[(me + 2) % 4]}, side {sides[side_of(me, p)]})"
    score = ", ".join(f"{s} {v}" for s, v in zip(sides, view.scores()))
    piles = ", ".join(f"{s} {v}" for s, v in zip(sides, view.pile_sizes()))
    out = [f"-- {who}; score {score}; piles {piles}"]
    if view.hist is not None and view.hist.plays:
        out.append("   this deal: " + ", ".join(f"{names[s]} {c}" for s, c in view.hist.plays))
    for d in view.declared:
        rank = "" if d.rank is None else f" of {d.rank}s"
        out.append(f"   {names[d.seat]} declared a {d.kind}{rank}")
    out.append("   table: " + (" ".join(str(c) for c in view.table) or "(empty)"))
    if view.prev is not None:
        out.append(f"   {names[(me - 1) % p]} just laid {view.prev}")
    if view.show is not None:
        owner = view.show.seat if view.show.seat is not None else (me - 1) % p
        out.append(f"   {names[owner]}'s pile shows {view.show.size} cards of "
                   f"{view.show.rank}")
    hand = [c for c in view.hands[me] if c is not None]
    out.append("   your hand: " + " ".join(str(c) for c in hand))
    return out


@dataclass
class HumanPlayer:
    """A person choosing every card of its seat (``human``); ``read``
    (prompt -> line, EOFError at the end) and ``write`` (one line) are
    the terminal by default (stderr and stdin)."""

    name: str = "human"
    read: Callable[[str], str] = field(default=_read_line, repr=False)
    write: Callable[[str], None] = field(default=_write_line, repr=False)

    def choose(self, view: Position, rng: random.Random) -> Card:
        """The card the person types for the mover of ``view``. Raises
        :class:`Quit` on ``q`` or at the end of the input."""
        hand = [c for c in view.hands[view.turn] if c is not None]
        seat = seat_names(view.players)[view.turn]
        for line in describe_view(view):
            self.write(line)
        while True:
            try:
                text = self.read(f"{seat} plays (a rank or a card, q to stop): ").strip()
            except EOFError:
                raise Quit("the input ended") from None
            if text.lower() in ("q", "quit"):
                raise Quit("stopped by the player")
            if not text:
                continue
            try:
                card = parse_card(text)
            except CardError as err:
                self.write(f"   {err}")
                continue
            for c in hand:
                if c.rank == card.rank and (card.suit is None or c.suit == card.suit):
                    return c
            self.write(f"   {seat} holds no {text} (hand: {format_cards(hand)})")
