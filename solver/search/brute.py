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
