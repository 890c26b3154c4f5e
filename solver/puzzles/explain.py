"""The teaching text of a puzzle: both lines, the best play's and the
strongest other play's, told to the end of the hand, point by point.

Each line is its root play's principal variation (:class:`solver.puzzles.themes.Line`,
ties broken by the lowest rank). For each line the text says what the root
play does itself (lays, takes, hits, answers, clears the table), every play
after it with what it takes and scores, the end-of-hand sweep, the card
count, and a tally of the points that adds up to the play's value.

>>> from solver.notation import parse_position
>>> from solver.puzzles.puzzle import examine
>>> text = examine(parse_position("1.2 2.4/4 - S taken=17,18 last=N prev=2")).explanation
>>> text.split("; then")[0]
"Play 2: it hits N's 2 (+1); N holds no 2 to answer"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..cards import RANKS
from ..engine.scoring import (EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_DEAL, EV_END, EV_HIT,
                              EV_MISSA, event_points)
from ..numbers import signed
from ..position import Position, n_sides, seat_names, side_names
from .themes import Idea, Ply, tag

#: scoring events, in the order a tally names them.
_SCORING = ((EV_HIT, "hit"), (EV_ANSWER5, "answer"), (EV_ANSWER10, "answer"),
            (EV_MISSA, "missa"))


def _r(rank: int) -> str:
    return str(RANKS[rank])


def _cards(ranks: Iterable[int]) -> str:
    return ".".join(_r(r) for r in ranks)


def themes_of(idea: Idea) -> list[str]:
    """The themes of ``idea``, computed once."""
    if "themes" not in idea.extra:
        idea.extra["themes"] = tag(idea)
    return idea.extra["themes"]


def _steals(idea: Idea, ply: Ply) -> str:
    """Ronda voleur: the opponent piles a play takes whole, ``N's pile (23
    cards, 5 on top)``; an answer's hitter's pile has the shown cards on
    top. Empty when the play steals nothing."""
    out = []
    shown = ply.events & (EV_ANSWER5 | EV_ANSWER10)
    hitter = idea.sides[(ply.seat - 1) % idea.players]
    for side, n in ply.stolen:
        size = f"{n} cards" if n != 1 else "1 card"
        top = (f"the {len(ply.taken)} shown on top" if shown and side == hitter
               else f"{_r(ply.rank)} on top")
        out.append(f"{_side_name(idea, side)}'s pile ({size}, {top})")
    return " and ".join(out)


def ply_text(idea: Idea, ply: Ply, names: tuple[str, ...], first: bool = False) -> str:
    """A short phrase for one ply: ``N hits S's 7 (+1), taking 10 with
    it``, ``S lays 3``, ``S plays 5, taking 5.6``, ``N answers with the
    third 7 (+5), taking the 2 shown``, with the missa, the capture point,
    the end-of-hand sweep and a new deal; Ronda voleur's steals name the
    pile taken (``S plays 5, taking 6.7 and N's pile (23 cards, 5 on
    top)``). ``first``: a root play, written without the seat ("hits N's
    7 (+1)")."""
    rules = idea.rules
    who = "" if first else f"{names[ply.seat]} "
    c = _r(ply.rank)
    ev = ply.events
    prev_seat = names[(ply.seat - 1) % idea.players]
    steals = _steals(idea, ply)
    hitter = idea.sides[(ply.seat - 1) % idea.players]
    if ev & (EV_ANSWER5 | EV_ANSWER10):
        nth, bit = ("third", EV_ANSWER5) if ev & EV_ANSWER5 else ("fourth", EV_ANSWER10)
        out = f"{who}answers with the {nth} {c} (+{event_points(rules, bit)}), taking "
        if any(side == hitter for side, _n in ply.stolen):
            out += steals     # the hitter's whole pile, the shown cards on top (V3)
        else:
            out += f"the {len(ply.taken)} shown" + (f" and {steals}" if steals else "")
    elif ev & EV_HIT:
        out = f"{who}hits {prev_seat}'s {c} (+{event_points(rules, EV_HIT)})"
        extra = [r for r in ply.taken if r != ply.rank]
        with_it = " and ".join(x for x in (_cards(extra), steals) if x)
        if with_it:
            out += f", taking {with_it} with it"
    elif ev & EV_CAPTURE:
        what = " and ".join(x for x in (_cards(ply.taken), steals) if x)
        out = f"takes {what}" if first else f"{who}plays {c}, taking {what}"
    else:
        out = f"{who}lays {c}"
    if ev & EV_MISSA:
        out += f", clearing the table: missa (+{rules.missa})"
    if rules.capture_point and ev & EV_CAPTURE:
        out += f" (+{rules.capture_point} capture)"
    if ev & EV_END and ply.sweep:
        who_sweeps = _side_name(idea, ply.sweep_side)
        verb = "sweep" if idea.players == 4 else "sweeps"
        out += (f"; {who_sweeps} {verb} the last {ply.sweep} cards" if ply.sweep > 1
                else f"; {who_sweeps} {verb} the last card")
    if ev & EV_DEAL:
        out += "; new deal"
        scored = [f"{_side_name(idea, side)} +{pts}" for side, pts in enumerate(ply.declared)
                  if pts]
        if scored:
            out += f" (declarations: {', '.join(scored)})"
    return out


def _side_name(idea: Idea, side: int) -> str:
    if idea.players == 4:
        return "S+N" if side == 0 else "E+W"
    return seat_names(idea.players)[side]


@dataclass
class Tally:
    """The points of one line, per side: ``items[side]`` lists
    ``(what, points)`` in the order scored; ``piles`` the cards each side
    holds at the end of the hand; ``cards`` the card count's value for
    side 0 (half the pile difference: each card over 20 is a point; two
    sides); ``over`` three sides: each side's card count, its cards over
    20 (``max(0, pile - 20)``)."""

    items: list[list[tuple[str, int]]]
    piles: list[int]
    cards: float = 0.0
    extra: dict = field(default_factory=dict)
    over: list[int] = field(default_factory=list)

    def own(self, side: int) -> float:
        """Three sides: ``side``'s own points along the line, its card
        count included (its entry of the max^n vector)."""
        return sum(p for _w, p in self.items[side]) + (self.over[side] if self.over else 0)

    def net(self, side: int) -> float:
        """Points for ``side`` less the other side's, card count included
        (three sides: ``side``'s own points, :meth:`own`, its value)."""
        if self.over:
            return self.own(side)
        own = sum(p for _w, p in self.items[side])
        other = sum(p for s, its in enumerate(self.items) if s != side for _w, p in its)
        return own - other + (self.cards if side == 0 else -self.cards)


def tally(idea: Idea, plies: Iterable[Ply], piles: Iterable[int]) -> Tally:
    """The points scored along ``plies`` (hits, answers, missas, capture
    points, the last-capture bonus) and the card count at the end, from
    the piles ``piles`` each side held before the first ply (two sides);
    Ronda voleur's stolen piles move whole to the thief's side."""
    rules = idea.rules
    nsides = n_sides(idea.players)
    items: list[list[tuple[str, int]]] = [[] for _ in range(nsides)]
    pile = list(piles)
    for p in plies:
        ev = p.events
        if rules.capture_point and ev & EV_CAPTURE:
            items[p.side].append(("capture", rules.capture_point))
        for bit, name in _SCORING:
            if ev & bit:
                items[p.side].append((name, event_points(rules, bit)))
        robbed = {side for side, _n in p.stolen}
        for side in robbed:
            # Ronda voleur: a stolen pile goes whole under the played card
            pile[p.side] += pile[side]
            pile[side] = 0
        if ev & (EV_ANSWER5 | EV_ANSWER10):
            # the shown cards move from the previous player's pile (when
            # that pile was not stolen whole with them)
            hitter = idea.sides[(p.seat - 1) % idea.players]
            if hitter not in robbed:
                pile[hitter] -= len(p.taken)
                pile[p.side] += len(p.taken)
            pile[p.side] += 1
        elif ev & EV_CAPTURE:
            pile[p.side] += len(p.taken) + 1
        for side, pts in enumerate(p.declared):
            if pts:
                items[side].append(("declaration", pts))
        if ev & EV_END and p.sweep_side >= 0:
            pile[p.sweep_side] += p.sweep
            if rules.last_capture_bonus:
                items[p.sweep_side].append(("last capture", rules.last_capture_bonus))
    cards = (pile[0] - pile[1]) / 2 if nsides == 2 else 0.0
    over = [max(0, n - 20) for n in pile] if nsides == 3 else []
    return Tally(items, pile, cards, over=over)


def _tally_text(idea: Idea, t: Tally, mover_side: int) -> str:
    """``cards S 23, N 17 (S +3); S hit +1, answer +5; N hit +1``; three
    players, each seat's count: ``cards S 23 (+3), E 9, N 8; ...``."""
    names = side_names(idea.players)
    parts = []
    if t.over:
        parts.append("cards " + ", ".join(f"{n} {c}" + (f" (+{o})" if o else "")
                                          for n, c, o in zip(names, t.piles, t.over)))
    if len(t.piles) == 2:
        lead = abs(t.cards)
        cards = ", ".join(f"{n} {c}" for n, c in zip(names, t.piles))
        if lead:
            winner = names[0] if t.cards > 0 else names[1]
            cards += f" ({winner} {signed(lead)})"
        else:
            cards += " (even)"
        parts.append("cards " + cards)
    for s, its in enumerate(t.items):
        if its:
            parts.append(f"{names[s]} " + ", ".join(f"{w} +{p}" for w, p in its))
    return "; ".join(parts)


def root_note(idea: Idea, move: int, names: tuple[str, ...]) -> str:
    """What a root play leaves to the next player: no card to answer a
    hit, no card to hit a lone card, or (a bait) the answer waiting."""
    line = idea.lines[move]
    key = line.plies[0]
    nxt = (idea.mover + 1) % idea.players
    rules = idea.rules
    if key.events & EV_HIT and len(rules.hit) > 1 and key.rank not in idea.hands[nxt]:
        return f"{names[nxt]} holds no {_r(key.rank)} to answer"
    if key.lays:
        if move == idea.key and "bait" in themes_of(idea):
            answerer = (idea.mover + 2) % idea.players
            other = (f"the other {_r(key.rank)}" if answerer == idea.mover
                     else f"{names[answerer]}'s {_r(key.rank)}")
            return (f"if {names[nxt]} hits it, {other} answers for "
                    f"{event_points(rules, EV_ANSWER5)}")
        if key.rank not in idea.hands[nxt]:
            return f"{names[nxt]} holds no {_r(key.rank)} to hit it"
    return ""


def line_tally(idea: Idea, move: int, pos: Position) -> Tally:
    """The :class:`Tally` of a root play's line, from the piles of ``pos``."""
    return tally(idea, idea.lines[move].plies, pos.pile_sizes())


def line_text(idea: Idea, move: int, pos: Position) -> str:
    """One root play's story to the end of the hand: what it does, every
    play after it, the sweep, then the card count and the points
    (``Points: cards S 19, N 21 (N +1); S hit +1; N answer +5: -5 for S``,
    the play's exact value)."""
    names = seat_names(idea.players)
    plies = idea.lines[move].plies
    head = "it " + ply_text(idea, plies[0], names, first=True)
    note = root_note(idea, move, names)
    if note:
        head += "; " + note
    rest = [ply_text(idea, p, names) for p in plies[1:]]
    text = head + ("; then " + ", ".join(rest) if rest else "")
    from ..engine.compile import pile_margin
    value = (idea.values[move] + pile_margin(pos)) / 2
    others = ""
    if move in idea.vectors:        # three players: the other seats' entries too
        others = " (" + ", ".join(f"{names[s]} {signed(x)}" for s, x
                                  in enumerate(idea.vectors[move]) if s != idea.mover) + ")"
    return (text + ". Points: " + _tally_text(idea, line_tally(idea, move, pos), idea.side)
            + f": {signed(value)} for {names[idea.mover]}{others}")


def explain(idea: Idea, pos: Position) -> str:
    """The teaching text of a puzzle: what was declared (a declaration
    puzzle), the key play and its whole line, its value, then the
    strongest other play, what it does and its whole line. No double
    quotes (the text goes into a ``c "..."`` opcode)."""
    from ..engine.compile import pile_margin
    names = seat_names(idea.players)
    base = pile_margin(pos)
    intro = ""
    said = [f"{names[d.seat]} declared a {d.kind.capitalize()} of {d.rank}s"
            for d in pos.declared if d.rank is not None]
    if said and "declaration" in themes_of(idea):
        intro = " and ".join(said) + ". "
    value = (idea.values[idea.key] + base) / 2
    text = f"{intro}Play {_r(idea.key)}: {line_text(idea, idea.key, pos)}."
    if idea.runner_up is not None:
        alt = (idea.values[idea.runner_up] + base) / 2
        text += (f" Next best {_r(idea.runner_up)} ({signed(alt)}, {value - alt:g} less): "
                 f"{line_text(idea, idea.runner_up, pos)}.")
    return text.replace('"', "'")
