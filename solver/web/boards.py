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
from ..games.match import SCORED_EVENTS
from ..notation import format_position, parse_position, unwritten_piles
from ..position import DealHistory, Declaration, Position, Show, seat_names, side_names
from ..puzzles.sheet import CARD_H, CARD_W, _facts, card_svg
from ..rules import target_winner


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
    ``rules`` and the sheet's ``facts`` lines; when the mover's hand is
    hidden (``?`` cards), ``playable``: the ranks it may play (those of
    which a card is unseen), for the board to ask which it played."""
    names = seat_names(pos.players)
    sides = side_names(pos.players)
    show = None
    if pos.show is not None:
        owner = pos.show.seat if pos.show.seat is not None else (pos.turn - 1) % pos.players
        show = {"rank": pos.show.rank, "size": pos.show.size, "seat": names[owner]}
    bare = deepcopy(pos)
    bare.ops = []
    missing = unwritten_piles(pos)
    extra = {}
    if any(c is None for c in pos.hands[pos.turn]):
        from ..engine.compile import CompileError, unseen_pool
        try:
            extra["playable"] = [RANKS[r] for r in sorted(set(unseen_pool(pos)))]
        except CompileError:
            extra["playable"] = []
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
    } | extra


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


def _find(pos: Position, card_text: str) -> tuple[Position, int]:
    """The position the play is made from and the index in the mover's
    hand of the card ``card_text`` (a rank, or a card of its hand).

    A hand not written (``?`` cards) may play any rank of which a card is
    still unseen (not on the table, in a written hand or stock, or
    ``gone``): the analysis of a player's view goes on past the other
    side's play. One ``?`` of the hand becomes that card (its suit as
    written, else none). ValueError naming the seat when it holds none."""
    from ..cards import parse_card
    from ..engine.compile import CompileError, unseen_pool
    want = parse_card(card_text)
    hand = pos.hands[pos.turn]
    i = next((k for k, c in enumerate(hand) if c is not None and c.rank == want.rank
              and (want.suit is None or c.suit == want.suit)), None)
    if i is not None:
        return pos, i
    seat = seat_names(pos.players)[pos.turn]
    hidden = next((k for k, c in enumerate(hand) if c is None), None)
    if hidden is None:
        raise ValueError(f"play: {seat} holds no {card_text}")
    try:
        unseen = unseen_pool(pos)
    except CompileError as e:
        raise ValueError(f"play: {e}") from None
    if want.index not in unseen:
        raise ValueError(f"play: {seat} cannot hold a {want.rank}: every {want.rank} is "
                         "seen (the table, the written hands and stock, gone=)")
    if want.suit is not None and any(c.rank == want.rank and c.suit == want.suit
                                     for c in _seen(pos)):
        raise ValueError(f"play: {seat} cannot hold {card_text}: it is seen")
    filled = deepcopy(pos)
    filled.hands[pos.turn][hidden] = want
    return filled, hidden


def _mover_known(pos: Position) -> Position:
    """``pos`` with the mover's ``?`` cards (a hidden hand that plays a
    card, :func:`_find`) filled with unseen cards, the lowest first: the
    state the play is made in (the sampler deals the other hidden cards
    from the mover's view). What a play does (its capture, hit, answer,
    points, the deal's end) does not depend on the other cards of the
    hand, only on how many there are; the new position keeps them
    ``?``."""
    if all(c is not None for c in pos.hands[pos.turn]):
        return pos
    from ..engine.compile import unseen_pool
    pool = iter(unseen_pool(pos))
    filled = deepcopy(pos)
    filled.hands[pos.turn] = [c if c is not None else Card(RANKS[next(pool)])
                              for c in pos.hands[pos.turn]]
    return filled


def _seen(pos: Position) -> list[Card]:
    """The cards written where everybody sees them, as unseen_pool counts."""
    out = list(pos.table) + [c for h in pos.hands for c in h if c is not None]
    if pos.stock_kind != "unknown":
        out += pos.stock
    return out + list(pos.gone or [])


def _score_text(pos: Position, score) -> str:
    return ", ".join(f"{s} {n}" for s, n in zip(side_names(pos.players), score))


def play(pos: Position, card_text: str) -> tuple[Position, str]:
    """The position after the mover plays the card ``card_text`` (a rank,
    or a card of its hand) and what the play did (the analysis's effect
    text), read back by the strict parser.

    The last card of a deal deals the next one when the stock's order is
    known (every card known): the next hands from the stock as the rules
    deal them (the leader first), the declarations written (``declared=``)
    and scored as the core scores them
    (:meth:`~solver.engine.hand.Hand.points`), the leader to play. With a
    shuffled or hidden stock the next deal is not known: ValueError. The
    last card of the hand raises :class:`HandOver` (its effect, the final
    board and score: :func:`finish`). A line without ``taken=`` whose
    piles are not written keeps them unwritten: the captured cards join
    them."""
    new, effect, end = _play(pos, card_text)
    if end is not None:
        raise HandOver(effect, end[0], end[1])
    return new, effect


class HandOver(ValueError):
    """The play was the hand's last card: ``effect`` what it did,
    ``final`` the hand's end (hands, table and stock empty, the table swept
    to the last capturer, the final piles and score: not a position line),
    ``note`` one line saying the hand is over and the final score."""

    def __init__(self, effect: str, final: Position, note: str) -> None:
        super().__init__(f"play: {note}")
        self.effect = effect
        self.final = final
        self.note = note


def _play(pos: Position, card_text: str):
    from ..analysis.effects import describe
    from ..engine.compile import (compile_known, compile_shuffled, hand_state,
                                  is_perfect_information, sampler)
    from ..engine.hand import PREV, SEAT, SHOW
    from ..engine.scoring import EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_DEAL, EV_END, ranks_of
    import random
    pos, i = _find(pos, card_text)
    if (pos.rules.win_check == "immediate"
            and target_winner(pos.scores(), pos.rules.target) is not None):
        # the match was won before this position: nothing is left to play
        # (the analysis says the same)
        raise ValueError(f"play: the score {_score_text(pos, pos.scores())} is at or over the "
                         f"target {pos.rules.target}: the match is over")
    seat = pos.turn
    known = is_perfect_information(pos)
    # the piles and tops are tracked by the core, whatever the rules
    if known:
        game, state = compile_known(pos, track=True)
    elif all(c is not None for h in pos.hands for c in h):
        game, state = compile_shuffled(pos, track=True)
    else:
        game, state = sampler(_mover_known(pos),
                              build=lambda p, h, s: hand_state(p, h, s, track=True))(
            random.Random(0))
    r = pos.hands[seat][i].index
    robbed = game.robbed(state, r)
    child, _gain, ev = game.play(state, r)
    effect = describe(game, state, r)
    if ev & EV_DEAL and not known:
        raise ValueError("play: this is the last card of the deal; write the next deal's "
                         "position to go on")
    new = deepcopy(pos)
    new.ops = []
    card = new.hands[seat].pop(i)
    side = game.sides[seat]
    unwritten = unwritten_piles(pos)
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
    # with win_check immediate the match may end before the rest of the
    # play's scoring, in the match simulator's order: ``stage`` the steps
    # made then (1 the play's own points, 2 the next deal's declarations,
    # 3 the sweep and its bonus, 4 the card count), ``won_score`` the score
    winner, stage, won_score = _match_winner(pos, game, state, child, ev, unwritten)
    early = winner is not None and stage is not None
    swept = ev & EV_END and new.last is not None and not (early and stage < 3)
    if swept:
        captured += new.table           # the sweep: the table to the last capturer
        new.table = []
    if captured and not unwritten:
        piles = [game.pile(child, k) for k in range(game.nsides)]
        if ev & EV_END and new.last is not None and not swept:
            piles[game.sides[new.last]] -= len(new.table)   # the core's child has swept
        new.taken = tuple(piles)
        if new.gone is not None:
            new.gone = list(new.gone) + captured
    # the points as the core scores them: the play's own, a known stock's
    # next deal's declarations, at the end the bonus and the card count
    gains = game.points(state, child, ev)[:game.nsides]
    if ev & EV_END and unwritten:
        # the card count needs the real piles: it is not scored
        gains = tuple(g - max(0, game.pile(child, k) - 20) for k, g in enumerate(gains))
    score = [s + g for s, g in zip(pos.scores(), gains)] if not early else list(won_score)
    if any(score) or pos.score is not None:
        new.score = tuple(score)
    new.prev = card if child[PREV] >= 0 else None
    new.show = (Show(RANKS[child[SHOW] >> 2], child[SHOW] & 3, None) if child[SHOW] else None)
    new.turn = child[SEAT]
    new.dealer = None
    if new.hist is not None:
        new.hist.plays.append((seat, card))
    if early and not (ev & EV_END and stage >= 3):
        # win_check immediate: the match ends with this play's points (or
        # the next deal's declarations), the rest of the hand unplayed
        if ev & EV_DEAL and stage >= 2:
            _deal(pos, new, game, child)
        new.prev = new.show = None
        new.hist = None
        note = (f"{side_names(pos.players)[winner]} reaches the target "
                f"{pos.rules.target} and wins the match: the score {_score_text(pos, score)}")
        return new, effect, (new, note)
    if ev & EV_END:
        new.prev = new.show = None
        new.hist = None
        new.declared = []
        note = f"the hand is over: the final score {_score_text(pos, score)}"
        if winner is not None:
            note += (f"; {side_names(pos.players)[winner]} wins the match "
                     f"(target {pos.rules.target})")
        if unwritten:
            note += " (the card count not scored: the line does not write the piles)"
        return new, effect, (new, note)
    if ev & EV_DEAL:
        _deal(pos, new, game, child)
    return parse_position(format_position(new)), effect, None


def _match_winner(pos: Position, game, state, child, ev: int, unwritten: bool):
    """The side that wins the match by this play, in the order the match
    simulator awards the points (:class:`solver.games.match.HandState`):
    with ``win_check = immediate`` the play's own points, then a known
    stock's next deal's declarations, then at the hand's end the last
    capturer's bonus and the card count, each checked as it comes; with
    ``end_of_hand`` the final score only. None: nobody (yet).

    Returns ``(winner, stage, score)``: with an immediate win ``stage``
    the steps made when it was won (1 the play's own points, 2 the next
    deal's declarations, 3 the sweep's bonus, 4 the card count) and
    ``score`` the score then (the rest is not scored, as the simulator
    stops); else ``stage`` None and ``score`` the score after every
    step."""
    from ..engine.hand import LAST
    from ..engine.scoring import EV_DEAL, EV_END, event_points
    target = pos.rules.target
    score = list(pos.scores())
    n = game.nsides
    immediate = pos.rules.win_check == "immediate"
    own = game.points(state, child, ev & 31)[:n]
    # the play's own points one event at a time, as the simulator awards
    # them (a capture point can win before the hit's point is scored)
    parts = []
    for bit, _kind in SCORED_EVENTS:
        pts = event_points(pos.rules, bit) if ev & bit else 0
        if pts:
            part = [0] * n
            part[game.sides[pos.turn]] = pts
            parts.append(tuple(part))
    if not parts or [sum(g) for g in zip(*parts)] != list(own):
        parts = []                      # (the core's sum is what counts)
    steps = parts or [own]
    if ev & EV_DEAL:
        both = game.points(state, child, ev & (31 | EV_DEAL))[:n]
        steps.append(tuple(b - o for b, o in zip(both, own)))
    if ev & EV_END:
        bonus = [0] * n
        if child[LAST] >= 0:                # the last capturer's side
            bonus[child[LAST]] = pos.rules.last_capture_bonus
        count = [0 if unwritten else max(0, game.pile(child, k) - 20) for k in range(n)]
        steps += [tuple(bonus), tuple(count)]
    for k, gains in enumerate(steps):
        score = [s + g for s, g in zip(score, gains)]
        if immediate and any(gains):
            won = target_winner(score, target)
            if won is not None:
                own_steps = len(parts) or 1
                stage = (1 if k < own_steps else k - own_steps + 2 if ev & EV_DEAL
                         else k - own_steps + 3)
                return won, stage, score
    return (target_winner(score, target) if ev & EV_END else None), None, score


def _deal(pos: Position, new: Position, game, child) -> None:
    """Deal ``new`` (the end of a deal, from ``pos`` by its last card) the
    next deal from its known stock as the core dealt ``child``: the
    leader gets the first hand, then each seat in play order."""
    from ..engine.hand import SEAT
    from ..engine.scoring import TRINGA, best_declaration
    p = pos.players
    leader = pos.leader()
    size = game.next_deal[len(pos.stock)]
    stock = list(pos.stock)
    hands: list[list[Card | None]] = [[] for _ in range(p)]
    for k in range(p):
        hands[(leader + k) % p] = stock[k * size:(k + 1) * size]
    assert [sorted(c.index for c in h) for h in hands] == game.hands_of(child, p)
    assert child[SEAT] == leader
    new.hands = hands
    new.stock = stock[p * size:]
    new.turn = leader
    new.prev = new.show = None
    new.declared = []
    for seat, h in enumerate(hands):
        d = best_declaration(pos.rules, [c.index for c in h])
        if d is not None:
            new.declared.append(Declaration(seat, "tringa" if d[0] == TRINGA else "ronda",
                                            RANKS[d[1]]))
    if new.hist is not None:
        voleur = pos.rules.voleur
        new.hist = DealHistory(list(new.table), [],
                               tuple(new.tops or (None,) * len(new.pile_sizes()))
                               if voleur else None,
                               tuple(new.pile_sizes()) if voleur else None)


def play_line(line: str, moves: list[str]) -> tuple[list[dict], str | None]:
    """Make ``moves`` one after the other from the position ``line``:
    ``([{"move", "seat", "effect", "line", "board", "over"}, ...],
    stopped)``, one dict a play made; ``stopped`` the one-line reason the
    rest could not be made (a deal's end when the next deal is not known, a
    card not held, moves after the hand's end, ``play: moves[i]: ...`` a
    move ``i`` that is no card), else None. The hand's last
    card is a play like the others: its ``line`` is None (the hand is over:
    no position), its ``board`` the hand's end (:class:`HandOver`), its
    ``over`` one line with the final score (None for the other plays).
    Raises NotationError for a bad line."""
    pos = parse_position(line)
    out: list[dict] = []
    for k, m in enumerate(moves):
        if pos is None:
            return out, "play: the hand is over"
        seat = pos.seat_name(pos.turn)
        try:
            pos, effect = play(pos, m)
        except HandOver as e:
            pos = None
            out.append({"move": m, "seat": seat, "effect": e.effect, "line": None,
                        "board": final_board(e.final, e.note), "over": e.note})
            continue
        except ValueError as e:
            text = str(e)
            # a move that is no card (unreadable): named by its field and index
            return out, text if text.startswith("play: ") else f"play: moves[{k}]: {text}"
        out.append({"move": m, "seat": seat, "effect": effect,
                    "line": format_position(pos), "board": board(pos), "over": None})
    return out, None


def final_board(final: Position, note: str) -> dict:
    """The board of the hand's end (:class:`HandOver`): as :func:`board`,
    its ``line`` the end written out (no card left to play: the parser
    reads it as the hand over, ``hands: the hand is over ...``), its first
    fact and ``over`` the ``note``; ``match_winner`` the side that has won
    the match (None: nobody), ``ahead`` the side with the most points on
    the final score and ``by`` how many more (None and 0 when the sides
    are level). Nobody is to play: the page shows no mover."""
    b = board(final)
    b["facts"] = [note] + b["facts"][1:]
    b["over"] = note
    sides = side_names(final.players)
    score = final.scores()
    won = target_winner(score, final.rules.target)
    b["match_winner"] = None if won is None else sides[won]
    top = max(score)
    leaders = [k for k, n in enumerate(score) if n == top]
    b["ahead"] = sides[leaders[0]] if len(leaders) == 1 else None
    b["by"] = top - max((n for k, n in enumerate(score) if k != leaders[0]), default=top) \
        if len(leaders) == 1 else 0
    return b
