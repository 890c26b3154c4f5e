"""The match objective: the chance of winning the match, searched.

Values here are probabilities that the side to move wins the match. A
node is the engine state (:mod:`solver.engine.game`) plus what the engine
leaves out because only the margin matters to it: both sides' match
scores and both capture piles. Each play is broken into the awards the
rules make, in their order (RULES.md "Winning"): the play's own points
(capture, hit, answer, missa) for the mover's side; after the last card
of a deal the next deal's declarations (both sides at once); after the
last card of the hand the sweep (and its bonus) to the last capturer,
then the card count of each side. With ``win_check = immediate`` the
search stops at the first award after which a side is at or over the
target with the higher total (value 1 or 0); at the end of the hand a
leaf takes the match-equity table's value at the final scores, with the
deal passed to the leader's side (:meth:`.table.MatchTable.equity_of`).

The transposition table (a dict) keys on the engine state *and* the two
scores and piles, because the same cards with other points gained so far
are worth another probability. Alpha-beta with bounds in the table;
chance nodes (a shuffled stock) are averaged in full. Pure Python: the
last two deals of a two-player hand, or the last deal of four players,
take well under a second; a whole early hand does not finish.
"""

from __future__ import annotations

from ..engine.game import (EV_ANSWER5, EV_ANSWER10, EV_CAPTURE, EV_DEAL, EV_END, HAND_BITS,
                           MASK40, Game, declaration_points, event_points, ranks_of)
from .table import MatchTable

EXACT, LOWER, UPPER = 0, 1, 2


class MatchSearch:
    """Search of one hand for the match objective.

    ``game``: the engine Game; ``table``: the match-equity table for the
    rules and player count. :meth:`value` gives P(side 0 wins the match)
    from a state, both match scores (points) and both piles (cards); :meth:`root` every play's value
    for the mover. ``nodes`` counts the positions searched."""

    def __init__(self, game: Game, table: MatchTable) -> None:
        self.game = game
        self.table = table
        self.rules = game.rules
        self.target = game.rules.target
        self.immediate = game.rules.win_check == "immediate"
        self.pts = [event_points(game.rules, ev) for ev in range(32)]
        #: side 0 deals the next hand when it is the side of this hand's leader
        self.side0_deals_next = game.sides[game.leader] == 0
        self.tt: dict = {}
        self.nodes = 0

    # --- awards ---------------------------------------------------------

    def _won(self, sa: int, sb: int) -> float | None:
        """1 or 0 when a side has won at once (immediate check), else None."""
        if not self.immediate:
            return None
        T = self.target
        if sa >= T and sa > sb:
            return 1.0
        if sb >= T and sb > sa:
            return 0.0
        return None

    def _leaf(self, sa: int, sb: int) -> float:
        return self.table.equity_of(sa, sb, self.side0_deals_next)

    def step(self, state, move: int, sa: int, sb: int, ka: int, kb: int):
        """Play ``move``: ``(child, sa, sb, ka, kb, decided)`` where
        ``decided`` is the match value for side 0 when the match ended
        during the play (immediate), the end-of-hand leaf when the hand
        ended, else None. Deals from a known stock only."""
        game = self.game
        seat = state[2]
        side = game.sides[seat]
        child, _gain, ev = game.play(state, move)
        table = state[0]
        # the play's cards and points
        if ev & (EV_ANSWER5 | EV_ANSWER10):
            size = state[4] & 3
            moved, lost = size + 1, size
            after = table
        elif ev & EV_CAPTURE:
            taken = game.capture(table, move)
            moved, lost = taken.bit_count() + 1, 0
            after = table ^ taken
        else:
            moved = lost = 0
            nt = (table >> (4 * move)) & 15
            after = table + ((nt + 1) << (4 * move))
        p = self.pts[ev & 31]
        if side == 0:
            sa += p
            ka += moved
            kb -= lost
        else:
            sb += p
            kb += moved
            ka -= lost
        if p:
            w = self._won(sa, sb)
            if w is not None:
                return child, sa, sb, ka, kb, w
        if ev & EV_DEAL and not game.shuffled:
            decl = game.deals[state[6]][1]
            sa, sb = sa + decl[0], sb + decl[1]
            if decl[0] or decl[1]:
                w = self._won(sa, sb)
                if w is not None:
                    return child, sa, sb, ka, kb, w
        if ev & EV_END:
            last = child[5]
            if last >= 0:
                bonus = self.rules.last_capture_bonus
                n = after.bit_count()
                if last == 0:
                    sa, ka = sa + bonus, ka + n
                else:
                    sb, kb = sb + bonus, kb + n
                if bonus:
                    w = self._won(sa, sb)
                    if w is not None:
                        return child, sa, sb, ka, kb, w
            if ka > 20:
                sa += ka - 20
                w = self._won(sa, sb)
                if w is not None:
                    return child, sa, sb, ka, kb, w
            if kb > 20:
                sb += kb - 20
                w = self._won(sa, sb)
                if w is not None:
                    return child, sa, sb, ka, kb, w
            return child, sa, sb, ka, kb, self._leaf(sa, sb)
        return child, sa, sb, ka, kb, None

    def _deal(self, child, sa: int, sb: int):
        """The declarations of a deal dealt at a chance node: new scores."""
        game = self.game
        hands = [ranks_of((child[1] >> (HAND_BITS * s)) & MASK40) for s in range(game.players)]
        decl = declaration_points(self.rules, hands, game.sides)
        return sa + decl[0], sb + decl[1]

    # --- search ---------------------------------------------------------

    def value(self, state, sa: int, sb: int, ka: int, kb: int,
              alpha: float = 0.0, beta: float = 1.0) -> float:
        """P(side 0 wins the match) from ``state`` with scores ``sa, sb``
        (match points) and piles ``ka, kb`` (cards), within ``[alpha,
        beta]`` (a bound outside it is exact enough for the caller)."""
        self.nodes += 1
        game = self.game
        if game.shuffled and game.is_chance(state):
            total = 0.0
            for prob, _g, child in game.outcomes(state):
                na, nb = self._deal(child, sa, sb)
                w = self._won(na, nb) if (na, nb) != (sa, sb) else None
                total += prob * (w if w is not None else self.value(child, na, nb, ka, kb))
            return total
        key = (state, sa, sb, ka, kb)
        hit = self.tt.get(key)
        if hit is not None:
            v, flag = hit
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
        a0, b0 = alpha, beta
        maximise = game.sides[state[2]] == 0
        best = -1.0 if maximise else 2.0
        for m in game.moves(state):
            child, na, nb, nka, nkb, decided = self.step(state, m, sa, sb, ka, kb)
            if decided is None and game.shuffled and game.is_chance(child):
                v = self.value(child, na, nb, nka, nkb)
            elif decided is None:
                v = self.value(child, na, nb, nka, nkb, alpha, beta)
            else:
                v = decided
            if maximise:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        flag = LOWER if best >= b0 else UPPER if best <= a0 else EXACT
        self.tt[key] = (best, flag)
        return best

    def root(self, state, sa: int, sb: int, ka: int, kb: int) -> dict[int, float]:
        """Every play's exact value, ``{rank index: P(the mover's side wins
        the match)}``."""
        game = self.game
        mover0 = game.sides[state[2]] == 0
        out = {}
        for m in game.moves(state):
            child, na, nb, nka, nkb, decided = self.step(state, m, sa, sb, ka, kb)
            v = decided if decided is not None else self.value(child, na, nb, nka, nkb)
            out[m] = v if mover0 else 1.0 - v
        return out
