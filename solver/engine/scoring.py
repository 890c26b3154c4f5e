"""The scoring vocabulary of Ronda on small ints (RULES.md, "A turn",
"Declarations"): card sets, the event bits of a play and their points, the
declarations of a deal. Plain Python, shared by the compiled core's tables
(:mod:`solver.engine.tables`), the match simulator, the puzzles and every
other caller that reads what a play did.

- a *card set* (table or one hand) is a 40-bit int, one nibble a rank index
  (0..9), the count written in unary (0, 1, 3, 7, 15), so that
  ``int.bit_count`` counts cards and ``x & LOW`` tells which ranks are there;
- an *event* is a bit set (``EV_*``) saying what one play did.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..rules import Rules

# --- card sets -------------------------------------------------------------

NRANKS = 10
#: lowest bit of each nibble: ``cards & LOW`` marks the ranks present.
LOW = sum(1 << (4 * i) for i in range(NRANKS))
MASK40 = (1 << 40) - 1
HAND_BITS = 40

CardSet = int   # unary-nibble card set, see module docstring


def cardset(ranks: Iterable[int]) -> CardSet:
    """The card set of rank indices (repeats allowed, at most 4 a rank).

    >>> cardset([0, 0, 9]) == 0b11 | (1 << 36)
    True
    """
    s = 0
    for r in ranks:
        nib = (s >> (4 * r)) & 15
        if nib == 15:
            raise ValueError(f"rank index {r} more than 4 times")
        s += (nib + 1) << (4 * r)
    return s


def ranks_of(s: CardSet) -> list[int]:
    """The rank indices of a card set, ascending, with repeats.

    >>> ranks_of(cardset([3, 1, 3]))
    [1, 3, 3]
    """
    out = []
    for r in range(NRANKS):
        out.extend([r] * ((s >> (4 * r)) & 15).bit_count())
    return out


def _multisets(avail: list[int], n: int, start: int = 0):
    """Every count vector of ``n`` cards drawn from ``avail`` (per rank)."""
    if n == 0:
        yield [0] * len(avail)
        return
    for r in range(start, len(avail)):
        if avail[r]:
            for k in range(min(avail[r], n), 0, -1):
                if k == n:
                    combo = [0] * len(avail)
                    combo[r] = k
                    yield combo
                else:
                    sub = avail[:]
                    sub[r] = 0
                    for rest in _multisets(sub, n - k, r + 1):
                        rest[r] = k
                        yield rest


def count(s: CardSet, r: int) -> int:
    """How many cards of rank index ``r`` the set holds."""
    return ((s >> (4 * r)) & 15).bit_count()


#: distinct rank indices present, keyed by ``cards & LOW``.
MOVES: dict[int, tuple[int, ...]] = {}
for _pattern in range(1 << NRANKS):
    _key = sum(1 << (4 * i) for i in range(NRANKS) if _pattern >> i & 1)
    MOVES[_key] = tuple(i for i in range(NRANKS) if _pattern >> i & 1)


# --- events ----------------------------------------------------------------

EV_CAPTURE = 1    # the card captured (table cards, or an answer)
EV_HIT = 2        # it took the previous player's lone card with the same rank
EV_ANSWER5 = 4    # it answered a hit: the third card, hit[1] points
EV_ANSWER10 = 8   # it answered an answer: the fourth card, hit[2] points
EV_MISSA = 16     # it cleared a non-empty table (and the missa counts)
EV_DEAL = 32      # it was the last card of a deal; a new deal followed
EV_END = 64       # it was the last card of the hand

EVENT_NAMES: tuple[tuple[int, str], ...] = (
    (EV_CAPTURE, "capture"), (EV_HIT, "hit"), (EV_ANSWER5, "answer 5"),
    (EV_ANSWER10, "answer 10"), (EV_MISSA, "missa"), (EV_DEAL, "deal"),
    (EV_END, "end of hand"),
)


def event_names(ev: int) -> list[str]:
    """The names of the event bits set in ``ev``."""
    return [name for bit, name in EVENT_NAMES if ev & bit]


def event_points(rules: Rules, ev: int) -> int:
    """Points the mover scores for the events of one play (not the deal or
    end-of-hand parts). The one place where hit, answer, missa and capture
    points are read (RULES.md "A turn", items 3, 4, 6, 7).

    >>> from solver.rules import PRESETS
    >>> event_points(PRESETS["french"], EV_CAPTURE | EV_HIT | EV_MISSA)
    3
    >>> event_points(PRESETS["lmodire"], EV_CAPTURE | EV_ANSWER5)
    5
    """
    pts = 0
    hit = rules.hit + (0, 0)    # answers the rules lack never happen
    if ev & EV_CAPTURE:
        pts += rules.capture_point
    if ev & EV_HIT:
        pts += hit[0]
    if ev & EV_ANSWER5:
        pts += hit[1]
    if ev & EV_ANSWER10:
        pts += hit[2]
    if ev & EV_MISSA:
        pts += rules.missa
    return pts


def run_masks(rules: Rules) -> tuple[list[int], list[int], int]:
    """The masks a capture's upward run is computed with: ``below[r]`` the
    nibbles under rank index r, ``brk[r]`` a bit that stops the run after
    r (after the 7 when ``seven_ten_adjacent`` is off, seed 000), and the
    sentinel bit above the 12. Shared by every engine's ``play``."""
    below = [(1 << (4 * r)) - 1 for r in range(NRANKS)]
    brk = [0] * NRANKS
    if not rules.seven_ten_adjacent:
        for r in range(7):          # ranks 1..7 stop before the 10
            brk[r] = 1 << 28
    return below, brk, 1 << 40


# --- declarations ----------------------------------------------------------

RONDA, TRINGA = 1, 2


def best_declaration(rules: Rules, hand: Sequence[int]) -> tuple[int, int] | None:
    """The best declaration a hand holds, ``(kind, rank index)`` with kind
    RONDA or TRINGA, or None (RULES.md "Declarations").

    Three or four of a kind is a Tringa when ``rules.tringa`` is non-zero,
    else a Ronda of that rank (seed 000). With four cards (seed 000's first
    four-player deal) the best of its pairs counts.

    >>> from solver.rules import PRESETS
    >>> best_declaration(PRESETS["lmodire"], [4, 4, 9])
    (1, 4)
    >>> best_declaration(PRESETS["lmodire"], [2, 2, 2])
    (2, 2)
    >>> best_declaration(PRESETS["french"], [2, 2, 2]) is None
    False
    """
    if not rules.ronda:
        return None
    best = None
    for r in set(hand):
        c = hand.count(r)
        if c >= 3 and rules.tringa:
            cand = (TRINGA, r)
        elif c >= 2:
            cand = (RONDA, r)
        else:
            continue
        if best is None or cand > best:
            best = cand
    return best


def declaration_points(rules: Rules, hands: Sequence[Sequence[int]],
                       sides: Sequence[int]) -> list[int]:
    """Points each side scores for the declarations of one deal.

    ``hands``: rank indices per seat; ``sides``: the side of each seat.
    Only the single best hand at the table scores, for its side; partners
    who tie count once; opposing sides that tie follow ``declare_tie``
    (``nobody`` [002, 000], ``split``: each gets half rounded up [003]).
    With ``declare_contested`` (seed 000: 2) the best hand scores that much
    when another side declared too. With ``decl_cumulative`` (house rule,
    issue 11) the best hand scores its own value plus the value of every
    declared hand of the other sides (a partner's adds nothing); it
    overrides ``declare_contested``; ties are as without it.

    >>> from solver.rules import PRESETS
    >>> declaration_points(PRESETS["lmodire"], [[1, 1, 5], [3, 3, 3]], [0, 1])
    [0, 5]
    >>> declaration_points(PRESETS["pagat"], [[3, 3, 3], [3, 3, 3]], [0, 1])
    [3, 3]
    >>> declaration_points(PRESETS["french"], [[1, 1, 5], [3, 3, 0]], [0, 1])
    [0, 2]
    >>> cumulative = PRESETS["lmodire"].with_overrides({"decl_cumulative": "yes"})
    >>> declaration_points(cumulative, [[1, 1, 5], [3, 3, 3]], [0, 1])
    [0, 6]
    """
    nsides = max(sides) + 1
    pts = [0] * nsides
    decl = [best_declaration(rules, h) for h in hands]
    declared = [d for d in decl if d is not None]
    if not declared:
        return pts
    best = max(declared)
    winners = sorted({sides[i] for i, d in enumerate(decl) if d == best})
    others = {sides[i] for i, d in enumerate(decl) if d is not None} - set(winners)
    value = rules.tringa if best[0] == TRINGA else rules.ronda
    if len(winners) == 1:
        if rules.decl_cumulative:
            value += sum(rules.tringa if d[0] == TRINGA else rules.ronda
                         for i, d in enumerate(decl)
                         if d is not None and sides[i] != winners[0])
        elif rules.declare_contested and others:
            value = rules.declare_contested
        pts[winners[0]] = value
    elif rules.declare_tie == "split":
        for s in winners:
            pts[s] = (value + 1) // 2
    return pts


def max_declaration(rules: Rules, players: int) -> int:
    """The most points the declarations of one deal can give a side: the
    best value, times the hands it can beat plus one with
    ``decl_cumulative`` (every seat not on the winner's side)."""
    value = max(rules.ronda, rules.tringa, rules.declare_contested)
    if rules.decl_cumulative:
        beaten = players // 2 if players == 4 else players - 1    # opposing seats
        value = max(rules.ronda, rules.tringa) * (1 + beaten)
    return value
