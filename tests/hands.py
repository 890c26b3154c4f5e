"""Real two-player hands for the tests that need realistic states (piles
grown by play, tops left exposed): a hand dealt and played to the start
of a deal by the match simulator, then, in the core, to a chance node."""

from __future__ import annotations

from solver.engine import core
from solver.games.match import HandState, deal_hand


def played_to_deal(rules, rng, deal: int, choose=None, players: int = 2):
    """A hand of ``rules`` for ``players`` dealt by ``rng`` and played to
    the start of deal ``deal`` (0 or 1: the first deal made): each play
    ``choose(legal cards)``, by default a card drawn by ``rng``. None when
    the hand ended first."""
    table, stock = deal_hand(rules, players, rng)
    hs = HandState(rules, players, 0, table, stock=list(stock))
    hs.deal()
    while hs.deal_no < deal or hs.awaiting_deal:
        if hs.finished:
            return None
        if hs.awaiting_deal:
            hs.deal()
            continue
        legal = hs.legal_cards()
        hs.play(choose(legal) if choose is not None else rng.choice(legal))
    return hs


def played_to_chance(P, D, st, rng):
    """``st`` played in the core (ranks drawn by ``rng``) to its next
    chance node: ``(P, D, state)``, or None when the hand (or the match,
    under the immediate win check) ends first."""
    while not core.is_chance(P, st):
        if core.is_terminal(P, st) or (P[core.P_IMMEDIATE] and core.won_by(P, st[10]) >= 0):
            return None
        h = core.hand_of(st[1], st[2], st[3], st[4], st[5])
        st = core.play_general(P, D, st, rng.choice(
            [r for r in range(core.NRANKS) if (h >> (4 * r)) & 1]))[0]
    return P, D, st
