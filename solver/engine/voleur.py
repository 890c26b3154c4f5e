"""Ronda voleur (seed 000 variant) in the reference engine: capture piles
lie face up and the top card of each opponent pile counts as a table card
for matching (RULES.md "Variant: Ronda voleur"; decisions V1-V7 and
docs/rules.md "Decisions where the sources are silent").

A voleur state is the usual 7-tuple of :mod:`solver.engine.game` with an
eighth field ``piles``: for side ``k`` (0 or 1) the 10 bits at ``10*k``
hold ``(top + 1) | size << 4``, ``top`` the rank index of the pile's top
card (``-1``: empty pile, or no top known) and ``size`` its cards. The
state stays its own transposition key.

Two sides only (two players, or four in partnerships): the three-player
engine has its own voleur.

Gains stay half-points of margin for the mover's side: a card taken from
the table counts 1, a card stolen from the other side's pile 2 (it leaves
their pile and joins the mover's).
"""

from __future__ import annotations

from typing import Sequence

from ..rules import Rules

#: what a player is told when a whole game of three-player voleur is asked
#: for (its positions are analysed one at a time, by solver.engine.game3)
THREE_PLAYERS = ("whole games of Ronda voleur are played by two players, or four in "
                 "partnerships; with three players, write each position on its own "
                 "line and analyse it (ronda-solve FILE)")

PILE_BITS = 10
PILE_MASK = (1 << PILE_BITS) - 1


def pack_piles(tops: Sequence[int], sizes: Sequence[int]) -> int:
    """The ``piles`` field of two sides: ``tops`` rank indices or -1 (no
    top), ``sizes`` cards in each pile.

    >>> unpack_piles(pack_piles([4, -1], [7, 0]))
    ([4, -1], [7, 0])
    """
    out = 0
    for k, (t, n) in enumerate(zip(tops, sizes)):
        if n < 0 or n > 40:
            raise ValueError(f"a pile of {n} cards")
        out |= ((t + 1) | (n << 4)) << (PILE_BITS * k)
    return out


def unpack_piles(piles: int) -> tuple[list[int], list[int]]:
    """``(tops, sizes)`` of a ``piles`` field (tops -1 when empty)."""
    tops, sizes = [], []
    for k in range(2):
        f = (piles >> (PILE_BITS * k)) & PILE_MASK
        tops.append((f & 15) - 1)
        sizes.append(f >> 4)
    return tops, sizes


def steals(state: tuple, sides: Sequence[int], r: int) -> int:
    """Cards the mover of ``state`` steals by playing rank index ``r``: the
    other side's whole pile when its top is ``r`` (V2), else 0."""
    opp = (state[7] >> (PILE_BITS * (1 - sides[state[2]]))) & PILE_MASK
    return opp >> 4 if (opp & 15) == r + 1 else 0


def table_take(rules: Rules, table: int, r: int, steal: bool) -> int:
    """The table cards (a card set) a play of rank index ``r`` takes: every
    ``r`` and the upward run, the run also following a stolen top of rank
    ``r`` when the table has none (V2: table 6 7, top 5, play 5 takes 6 7)."""
    from .game import LOW
    below = (1 << (4 * r)) - 1
    t = table
    virtual = 0
    if not (table >> (4 * r)) & 1:
        if not steal:
            return 0
        virtual = 1 << (4 * r)
        t = table + virtual
    brk = (1 << 28) if (not rules.seven_ten_adjacent and r < 7) else 0
    absent = (((~t) & LOW) | (1 << 40) | brk) & ~below
    return (t & (((absent & -absent) - 1) ^ below)) - virtual


def make_play(game):
    """The ``play(state, r) -> (child, gain, ev)`` of a voleur Game (see
    :meth:`solver.engine.game.Game._compile_play` for the plain one).

    Raises ValueError for three players."""
    from .game import (EV_DEAL, EV_END, HAND_BITS, LOW, event_points, run_masks)
    rules = game.rules
    players = game.players
    if players == 3:
        raise ValueError(THREE_PLAYERS)
    leader = game.leader
    sides = game.sides
    shuffled = game.shuffled
    nstock = 0 if shuffled else len(game.stock)
    answer_levels = len(rules.hit)
    missa_last = rules.missa_on_last_card
    missa_round = rules.missa_last_round
    pts_of = [event_points(rules, ev) for ev in range(32)]
    bonus = rules.last_capture_bonus
    below, brk, sentinel = run_masks(rules)
    shift = [HAND_BITS * s for s in range(players)]
    deal_of = {}
    for spos, (packed, decl) in game.deals.items():
        dg = 2 * (decl[0] - decl[1])
        deal_of[spos] = (packed, dg, spos + bin(packed).count("1"))
    side0 = [sides[s] == 0 for s in range(players)]
    nxt = [(s + 1) % players for s in range(players)]
    # per seat: (shift of own pile, shift of the other side's pile)
    pshift = [(PILE_BITS * sides[s], PILE_BITS * (1 - sides[s])) for s in range(players)]

    def play(state, r):
        table, hands, seat, prev, show, last, spos, piles = state
        sh = shift[seat] + 4 * r
        nib = (hands >> sh) & 15
        hands -= ((nib + 1) >> 1) << sh
        mo, oo = pshift[seat]
        opp = (piles >> oo) & PILE_MASK
        stolen = opp >> 4 if (opp & 15) == r + 1 else 0
        added = 0
        if show and show >> 2 == r:
            # an answer (V3): the hitter's whole pile, its top the r just hit
            size = show & 3
            ev = 1 | (4 if size == 2 else 8)
            moved = stolen if stolen else size     # no top given: the shown cards
            gain = 2 * pts_of[ev] + 2 * moved + 1
            show = (r << 2) | (size + 1) if size + 1 <= answer_levels else 0
            prev = -1
            last = sides[seat]
            added = moved + 1
            opp = 0 if stolen else opp - (min(size, opp >> 4) << 4)
        elif (table >> (4 * r)) & 1 or stolen:
            t = table
            virtual = 0
            if not (table >> (4 * r)) & 1:
                virtual = 1 << (4 * r)      # V2: the top stands for an r on the table
                t = table + virtual
            absent = (((~t) & LOW) | sentinel | brk[r]) & ~below[r]
            taken = (t & (((absent & -absent) - 1) ^ below[r])) - virtual
            was = table
            table ^= taken
            ev = 1
            if prev == r:
                ev = 3
                show = (r << 2) | 2 if answer_levels > 1 else 0
            else:
                show = 0
            # V4: the missa is about the table only
            if was and not table and (missa_last or hands or spos != nstock) and (
                    missa_round or spos != nstock or hands.bit_count() >= players):
                ev |= 16
            n = taken.bit_count()
            gain = 2 * pts_of[ev] + n + 1 + 2 * stolen
            prev = -1
            last = sides[seat]
            added = n + 1 + stolen
            if stolen:
                opp = 0         # V6: the robbed pile is empty until its side captures
        else:
            nt = (table >> (4 * r)) & 15
            table += (nt + 1) << (4 * r)
            ev = 0
            gain = 0
            prev = r
            show = 0
        if added:
            # V1/V6: the played card goes on top of the mover's side's pile
            mine = (piles >> mo) & PILE_MASK
            piles = (((r + 1) | (((mine >> 4) + added) << 4)) << mo) | (opp << oo)
        if hands:
            return (table, hands, nxt[seat], prev, show, last, spos, piles), gain, ev
        if spos != nstock:
            if shuffled:
                return (table, 0, leader, -1, 0, last, spos, piles), gain, ev | EV_DEAL
            packed, dg, nspos = deal_of[spos]
            gain += dg if side0[seat] else -dg
            return (table, packed, leader, -1, 0, last, nspos, piles), gain, ev | EV_DEAL
        # the end of the hand: the sweep (V1: tops do not change)
        if last >= 0:
            n = table.bit_count()
            swept = n + 2 * bonus
            gain += swept if last == sides[seat] else -swept
            ls = PILE_BITS * last
            piles += (n << 4) << ls
            table = 0
        return (table, 0, nxt[seat], -1, 0, last, spos, piles), gain, ev | EV_END

    return play
