"""From a three-player :class:`~solver.position.Position` to the
vector-valued :class:`~solver.engine.game3.Game3` and its state."""

from __future__ import annotations

from ..cards import RANK_INDEX
from .compile import CompileError, is_perfect_information, unseen_pool
from .game3 import Game3, State3
from ..position import Position


def _check(pos: Position) -> None:
    if pos.players != 3:
        raise CompileError(f"the three-player search takes 3 players, not {pos.players}")


def _tops(pos: Position) -> list[int] | None:
    if pos.tops is None:
        return None
    return [-1 if c is None else c.index for c in pos.tops]


def build_known(pos: Position, hands: list[list[int]], stock: list[int],
                shuffled: bool = False) -> tuple[Game3, State3]:
    """The game and state of ``pos`` with the given hands (rank indices per
    seat) and stock (dealing order, or the cards when ``shuffled``).
    Piles come from ``taken=`` (zeros when not given), pile tops from
    ``tops=`` (voleur only). Raises CompileError for a stock that does not
    fill whole deals."""
    _check(pos)
    try:
        game = Game3(pos.rules, pos.leader(), stock, shuffled)
    except ValueError as e:
        raise CompileError(str(e)) from None
    prev = pos.prev.index if pos.prev is not None else -1
    show = (RANK_INDEX[pos.show.rank] << 2 | pos.show.size) if pos.show else 0
    last = pos.last if pos.last is not None else -1
    state = game.initial_state([c.index for c in pos.table], hands, pos.turn, prev, show,
                               last, pos.pile_sizes(), _tops(pos))
    return game, state


def compile_known3(pos: Position) -> tuple[Game3, State3]:
    """The game and state of a perfect-information three-player position.
    Raises CompileError when a card's place is unknown.

    >>> from solver.notation import parse_position
    >>> from solver.search.maxn import MaxN
    >>> game, state = compile_known3(parse_position(
    ...     "5 5/1/2 - S rules=french taken=21,5,10 last=S"))
    >>> MaxN(game).value(state)   # S: capture 1, missa 1, bonus 1, 25 cards: 5
    (8, 0, 0)
    """
    if not is_perfect_information(pos):
        raise CompileError("the position has unknown cards; sample them first")
    hands = [[c.index for c in h] for h in pos.hands]  # type: ignore[union-attr]
    return build_known(pos, hands, [c.index for c in pos.stock])


def compile_shuffled3(pos: Position) -> tuple[Game3, State3]:
    """The chance game of a three-player position whose hands are known and
    whose stock order is not (``~`` or ``?``). Raises CompileError when a
    hand is hidden."""
    _check(pos)
    if any(c is None for h in pos.hands for c in h):
        raise CompileError("expectimax needs every hand known (a hidden hand: use determinised)")
    stock = unseen_pool(pos) if pos.stock_kind == "unknown" else [c.index for c in pos.stock]
    hands = [[c.index for c in h] for h in pos.hands]  # type: ignore[union-attr]
    return build_known(pos, hands, stock, shuffled=True)
