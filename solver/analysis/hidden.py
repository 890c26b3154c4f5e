"""What the mover knows in a declaration puzzle, and whether the answer
holds whatever the hidden cards are.

A declaration tells the table part of a hand: a Ronda of 7s shows that the
hand holds two 7s (and no third: that would be a Tringa); no declaration
shows that the hand holds no pair. A declaration puzzle is drawn from the
mover's seat (:func:`mover_view`): the mover's hand, the table, the piles'
sizes and the declared cards; the rest of the other hand is hidden. The
hidden cards may be any of the cards the diagram does not show (the 40
less the table, the mover's hand, the declared cards and, when the line
gives them, the captured cards ``gone=``, which both players saw taken)
that keep every declaration true (:func:`consistent_hands`).

The puzzle's answer must then hold without seeing them (:func:`robust`),
**by expectation**: over the consistent hands, each weighted by the ways
its hidden cards can be drawn, the best play's average value beats every
other play's average value by the puzzle's margin. (Best for every hand
was measured too strict: it kept 8 declaration puzzles of 2,400
candidates.) docs/puzzles.md states the rule.

>>> from solver.notation import parse_position
>>> pos = parse_position("4.6.10 1.3.7/7.11.11 - S taken=16,15 last=S declared=N:ronda11")
>>> [[str(c) if c else '?' for c in h] for h in mover_view(pos).hands]
[['1', '3', '7'], ['11', '11', '?']]
"""

from __future__ import annotations

from copy import copy
from dataclasses import dataclass
from math import comb
from typing import Iterator

from ..cards import RANK_INDEX, RANKS, Card
from ..engine.compile import compile_known
from ..engine.scoring import RONDA, TRINGA, best_declaration
from ..position import Position
from ..search.compiled import Searcher

NR = len(RANKS)


def hides_cards(pos: Position) -> bool:
    """A puzzle drawn from the mover's seat: a two-player puzzle whose
    themes include ``declaration``."""
    return pos.players == 2 and "declaration" in (pos.opcode("themes") or "").split()


def _shown(pos: Position, seat: int) -> list[int]:
    """The rank indices a seat's declaration shows (two, three for a Tringa)."""
    for d in pos.declared:
        if d.seat == seat and d.rank is not None:
            return [RANK_INDEX[d.rank]] * (3 if d.kind == "tringa" else 2)
    return []


def _held(pos: Position, seat: int) -> list[int]:
    """The declared cards (:func:`_shown`) the seat still holds: those of
    its hand, as the mover knows them, having seen the others played this
    deal (a Ronda of 4s with one card left: at most one 4)."""
    shown = _shown(pos, seat)
    if not shown:
        return []
    # a '?' may be one (the line does not say: the seat may still hold it)
    have = sum(1 for c in pos.hands[seat] if c is None or c.index == shown[0])
    return shown[:min(len(shown), have)]


def mover_view(pos: Position) -> Position:
    """A copy of ``pos`` as the mover sees it: every other hand shows only
    its declared cards, the rest face down (``None``)."""
    out = copy(pos)
    hands = []
    for seat, hand in enumerate(pos.hands):
        if seat == pos.turn:
            hands.append(list(hand))
            continue
        shown = _held(pos, seat)
        hands.append([Card(RANKS[r]) for r in shown] + [None] * (len(hand) - len(shown)))
    out.hands = hands
    return out


def _declared_as(pos: Position, seat: int):
    """The ``(kind, rank index)`` a seat declared (rank None when the line
    names the kind only, ``N:ronda``), or None."""
    for d in pos.declared:
        if d.seat == seat:
            return (TRINGA if d.kind == "tringa" else RONDA,
                    None if d.rank is None else RANK_INDEX[d.rank])
    return None


def _agrees(got, want) -> bool:
    """Whether a hand's best declaration ``got`` is the one declared,
    ``want`` (its kind alone when the rank was not named)."""
    if want is None or want[1] is not None:
        return got == want
    return got is not None and got[0] == want[0]


def consistent_hands(pos: Position) -> Iterator[tuple[list[int], int]]:
    """Every hand the other player (two players) may hold, as the mover
    sees it: ``(rank indices, weight)``, the weight being the number of
    ways to draw its hidden cards from the unseen ones. The real hand is
    one of them.

    Its declared cards still held are shown (:func:`_held`: those played
    this deal were seen); the hidden ones are of other ranks and, with
    every declared card, make the declaration the seat made: a hand of
    the deal, less the cards it played, is one of these."""
    seat = 1 - pos.turn
    shown = _shown(pos, seat)
    held = _held(pos, seat)
    pool = [4] * NR
    for c in pos.table + [c for c in pos.hands[pos.turn] if c is not None]:
        pool[c.index] -= 1
    for r in shown:
        pool[r] -= 1
    # the captured cards, when the line gives them (gone=), were seen by all
    for c in pos.gone or ():
        pool[c.index] -= 1
    # a declared card played onto the table (or captured) was taken off twice
    pool = [max(0, n) for n in pool]
    want = _declared_as(pos, seat)
    hidden = len(pos.hands[seat]) - len(held)

    def draw(r: int, left: int, acc: list[int], weight: int):
        if left == 0:
            yield acc, weight
            return
        if r == NR:
            return
        for k in range(min(left, pool[r]), -1, -1):
            yield from draw(r + 1, left - k, acc + [r] * k, weight * comb(pool[r], k))

    for extra, weight in draw(0, hidden, [], 1):
        if _agrees(best_declaration(pos.rules, sorted(shown + extra)), want):
            yield sorted(held + extra), weight


@dataclass
class Robustness:
    """The answer over the consistent hands: ``hands`` counted, ``fails``
    (hands where ``best`` is not the one best play, as rank lists),
    ``values`` each play's weighted average value (rank index -> points,
    without the piles' margin), ``margin`` the best play's average less
    the strongest other play's average, points."""

    hands: int
    fails: list[list[int]]
    values: dict[int, float]
    margin: float

    def holds(self, margin: float) -> bool:
        """The rule: by expectation, ahead of every other play by ``margin``."""
        return self.margin >= margin


def robust(pos: Position, best: int) -> Robustness:
    """Solve ``pos`` for every hand the other player may hold
    (:func:`consistent_hands`) and say how the play of rank index ``best``
    fares (:class:`Robustness`). Two players, every card known."""
    if pos.players != 2:
        raise ValueError("hidden hands are worked out for two players only")
    seat = 1 - pos.turn
    total = 0
    sums: dict[int, float] = {}
    count = 0
    fails = []
    for hand, weight in consistent_hands(pos):
        trial = copy(pos)
        trial.hands = list(pos.hands)
        trial.hands[seat] = [Card(RANKS[r]) for r in hand]
        trial.ops = []
        game, state = compile_known(trial)
        values = {m: int(v) for m, v in Searcher(game.P, game.D, 8.0).root_values(state).items()}
        others = [v for m, v in values.items() if m != best]
        count += 1
        if best not in values or (others and max(others) >= values[best]):
            fails.append(hand)
        for m, v in values.items():
            sums[m] = sums.get(m, 0.0) + weight * v / 2
        total += weight
    avg = {m: v / total for m, v in sums.items()}
    rest = [v for m, v in avg.items() if m != best]
    lead = avg.get(best, float("-inf")) - max(rest) if rest else float("inf")
    return Robustness(count, fails, avg, lead)
