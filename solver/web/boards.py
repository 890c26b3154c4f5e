"""What the pages draw: a position as a board (plain data, the cards as
text) and the cards themselves as SVG (the puzzle sheet's drawing,
:func:`solver.puzzles.sheet.card_svg`); and making plays on a position line.

>>> from solver.notation import parse_position
>>> b = board(parse_position("5.6 5.7/3.3 - S"))
>>> b["table"], b["hands"], b["turn"], b["stock"], b["piles"], b["unwritten"]
(['5', '6'], [['5', '7'], ['3', '3']], 'S', {'kind': 'known', 'cards': [], 'count': 0}, None, 34)
>>> plays, stopped = play_line("5.6 5.7/3.3 - S", ["5", "3"])
>>> [p["line"] for p in plays], stopped
(['- 7/3.3 - N score=1,0 last=S', '3 7/3 - S score=1,0 last=S prev=3'], None)
"""

from __future__ import annotations

from copy import deepcopy

from ..cards import RANKS, SUITS, Card
from ..notation import format_position, parse_position, unwritten_piles
from ..position import Position, Show, seat_names, side_names
from ..puzzles.sheet import CARD_H, CARD_W, _facts, card_svg


def _text(c: Card | None) -> str:
    return "?" if c is None else str(c)


def board(pos: Position) -> dict:
    """A position as the pages draw it: ``line`` (canonical), ``players``,
    ``seats``, ``turn``, ``table``, ``hands`` (``"?"`` for a hidden card),
    ``stock`` (``kind`` known / shuffled / unknown, its ``cards`` and
    ``count``: for ``?`` the cards not seen), ``prev``, ``show``,
    ``piles`` per side (None when the line does not write them: then
    ``unwritten`` cards are in piles not written), ``score`` per side,
    ``target``, ``last``, ``tops`` per side (Ronda voleur, else None),
    ``rules`` and the sheet's ``facts`` lines."""
    names = seat_names(pos.players)
    sides = side_names(pos.players)
    show = None
    if pos.show is not None:
        owner = pos.show.seat if pos.show.seat is not None else (pos.turn - 1) % pos.players
        show = {"rank": pos.show.rank, "size": pos.show.size, "seat": names[owner]}
    bare = deepcopy(pos)
    bare.ops = []
    missing = unwritten_piles(pos)
    return {
        "line": format_position(bare),
        "players": pos.players, "seats": list(names), "sides": list(sides),
        "turn": names[pos.turn],
        "table": [_text(c) for c in pos.table],
        "hands": [[_text(c) for c in h] for h in pos.hands],
        "stock": {"kind": pos.stock_kind, "cards": [_text(c) for c in pos.stock],
                  "count": pos.stock_count()},
        "prev": None if pos.prev is None else str(pos.prev),
        "show": show,
        "piles": None if missing else dict(zip(sides, pos.pile_sizes())),
        "unwritten": missing,
        "score": dict(zip(sides, pos.scores())),
        "score_written": pos.score is not None,
        "target": pos.rules.target,
        "last": None if pos.last is None else names[pos.last],
        "tops": None if pos.tops is None else dict(zip(sides, (_text(c) if c is not None
                                                              else None for c in pos.tops))),
        "rules": pos.preset,
        "facts": _facts(pos),
    }


def card_svgs() -> dict[str, str]:
    """Every card drawing the pages use, by card text: each rank bare
    (``"5"``) and in each suit (``"5o"``), and ``"?"`` the back; each a
    standalone ``<svg>`` of one card."""
    out = {}
    cards: list[Card | None] = [None]
    for r in RANKS:
        cards.append(Card(r))
        cards.extend(Card(r, s) for s in SUITS)
    for c in cards:
        out[_text(c)] = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{CARD_W}" '
                         f'height="{CARD_H}" viewBox="-1 -1 {CARD_W + 2} {CARD_H + 2}" '
                         f'font-family="DejaVu Sans, Arial, sans-serif">'
                         + card_svg(c, 0, 0) + "</svg>")
    return out


def play(pos: Position, card_text: str) -> tuple[Position, str]:
    """The position after the mover plays the card ``card_text`` (a rank,
    or a card of its hand) and what the play did (the analysis's effect
    text), read back by the strict parser. Plays within a deal only: the
    last card of a deal raises ValueError (the next deal is not on the
    line, or its declarations would have to be scored by hand). A line
    without ``taken=`` whose piles are not written keeps them unwritten:
    the captured cards join them."""
    from ..analysis.effects import describe
    from ..cards import parse_card
    from ..engine.compile import (compile_known, compile_shuffled, hand_state,
                                  is_perfect_information, sampler)
    from ..engine.hand import PREV, SEAT, SHOW
    from ..engine.scoring import (EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_DEAL, EV_END,
                                  event_points, ranks_of)
    import random
    want = parse_card(card_text)
    seat = pos.turn
    names = seat_names(pos.players)
    hand = pos.hands[seat]
    i = next((k for k, c in enumerate(hand) if c is not None and c.rank == want.rank
              and (want.suit is None or c.suit == want.suit)), None)
    if i is None:
        raise ValueError(f"play: {names[seat]} holds no {card_text}")
    # the piles and tops are tracked by the core, whatever the rules
    if is_perfect_information(pos):
        game, state = compile_known(pos, track=True)
    elif all(c is not None for h in pos.hands for c in h):
        game, state = compile_shuffled(pos, track=True)
    else:
        game, state = sampler(pos, build=lambda p, h, s: hand_state(p, h, s, track=True))(
            random.Random(0))
    r = want.index
    robbed = game.robbed(state, r)
    child, _gain, ev = game.play(state, r)
    effect = describe(game, state, r)
    if ev & EV_END:
        raise ValueError("play: this is the last card of the hand")
    if ev & EV_DEAL:
        raise ValueError("play: this is the last card of the deal; write the next deal's "
                         "position to go on")
    new = deepcopy(pos)
    new.ops = []
    card = new.hands[seat].pop(i)
    side = game.sides[seat]
    captured: list[Card] = []
    if ev & (EV_ANSWER5 | EV_ANSWER10):
        new.last = seat
        captured = [card]
    elif ev & EV_CAPTURE:
        ranks = {RANKS[x] for x in ranks_of(game.capture(state, r))}
        captured = [c for c in new.table if c.rank in ranks]
        new.table = [c for c in new.table if c.rank not in ranks]
        new.last = seat
        captured.append(card)
    else:
        new.table.append(card)
    if pos.rules.voleur and ev & EV_CAPTURE:
        # the played card on top, a robbed pile empty (V1, V6)
        tops = list(pos.tops) if pos.tops is not None else [None] * game.nsides
        for k, _n in robbed:
            tops[k] = None
        tops[side] = card
        new.tops = tuple(tops)
    if captured and not unwritten_piles(pos):
        new.taken = tuple(game.pile(child, k) for k in range(game.nsides))
        if new.gone is not None:
            new.gone = list(new.gone) + captured
    score = list(pos.scores())
    for bit in (EV_CAPTURE, 2, EV_ANSWER5, EV_ANSWER10, 16):
        if ev & bit:
            score[side] += event_points(pos.rules, bit)
    if any(score) or pos.score is not None:
        new.score = tuple(score)
    new.prev = card if child[PREV] >= 0 else None
    new.show = (Show(RANKS[child[SHOW] >> 2], child[SHOW] & 3, None) if child[SHOW] else None)
    new.turn = child[SEAT]
    new.dealer = None
    if new.hist is not None:
        new.hist.plays.append((seat, card))
    return parse_position(format_position(new)), effect


def play_line(line: str, moves: list[str]) -> tuple[list[dict], str | None]:
    """Make ``moves`` one after the other from the position ``line``:
    ``([{"move", "seat", "effect", "line", "board"}, ...], stopped)``, one
    dict a play made; ``stopped`` the one-line reason the rest could not
    be made (the end of the deal), else None. Raises NotationError for a
    bad line."""
    pos = parse_position(line)
    out = []
    for m in moves:
        seat = pos.seat_name(pos.turn)
        try:
            pos, effect = play(pos, m)
        except ValueError as e:
            return out, str(e)
        out.append({"move": m, "seat": seat, "effect": effect,
                    "line": format_position(pos), "board": board(pos)})
    return out, None
