"""Plain minimax without pruning, table or move ordering: the independent
cross-check of the alpha-beta search (exponential; small positions only)."""

from __future__ import annotations


def minimax(game, state) -> int:
    """The exact negamax value of ``state`` by full enumeration, in the
    game's unit."""
    if game.is_terminal(state):
        return 0
    best = None
    for m in game.moves(state):
        child, gain, _ev = game.play(state, m)
        v = gain - minimax(game, child)
        if best is None or v > best:
            best = v
    return best


def minimax_root(game, state) -> dict[int, int]:
    """Every root move with its exact value by full enumeration."""
    out = {}
    for m in game.moves(state):
        child, gain, _ev = game.play(state, m)
        out[m] = gain - minimax(game, child)
    return out


def expectimax(game, state, permute: bool = True, memo: dict | None = None):
    """Plain expectimax by full enumeration: no pruning, no table.

    With ``permute`` (exact rational arithmetic, tiny positions only)
    chance nodes average over every *order* of the stock's physical cards
    (each permutation equally likely), not over the game's rank-multiset
    outcomes, so the deal probabilities are checked too; the result is a
    Fraction in the game's unit. Without it, chance nodes use the game's
    outcomes and floats, and memoises exact values of states in ``memo``
    (no bounds, no pruning: larger positions)."""
    from fractions import Fraction
    from itertools import permutations

    if game.is_terminal(state):
        return Fraction(0)
    if not permute:
        if memo is None:
            memo = {}
        if state in memo:
            return memo[state]
        if game.is_chance(state):
            v = sum(p * (g + expectimax(game, child, False, memo))
                    for p, g, child in game.outcomes(state))
        else:
            v = max(gain - expectimax(game, child, False, memo)
                    for child, gain, _ev in (game.play(state, m) for m in game.moves(state)))
        memo[state] = v
        return v
    if game.is_chance(state):
        table, last, stock, tail = state[0], state[5], state[6], state[7:]
        from ..engine.game import ranks_of, cardset, HAND_BITS, declaration_points
        cards = ranks_of(stock)
        n = game.next_deal[len(cards)]
        total = Fraction(0)
        count = 0
        seats = [(game.leader + i) % game.players for i in range(game.players)]
        for order in permutations(range(len(cards))):
            hands = [[] for _ in range(game.players)]
            for i, seat in enumerate(seats):
                hands[seat] = [cards[j] for j in order[i * n:(i + 1) * n]]
            rest = [cards[j] for j in order[len(seats) * n:]]
            decl = declaration_points(game.rules, hands, game.sides)
            dg = 2 * (decl[0] - decl[1])
            if game.sides[game.leader] != 0:
                dg = -dg
            packed = 0
            for seat, h in enumerate(hands):
                packed |= cardset(h) << (HAND_BITS * seat)
            child = (table, packed, game.leader, -1, 0, last, cardset(rest)) + tail
            total += dg + expectimax(game, child, True)
            count += 1
        return total / count
    best = None
    for m in game.moves(state):
        child, gain, _ev = game.play(state, m)
        v = gain - expectimax(game, child, permute)
        if best is None or v > best:
            best = v
    return best


def expectimax_root(game, state, permute: bool = True):
    """Every root move with its plain expectimax value (Fractions when
    ``permute``)."""
    out = {}
    memo: dict = {}
    for m in game.moves(state):
        child, gain, _ev = game.play(state, m)
        out[m] = gain - expectimax(game, child, permute, memo)
    return out
