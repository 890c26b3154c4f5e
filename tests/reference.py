"""An independent, slow, obviously-correct reference for Ronda hand values.

Written from RULES.md only ("A turn", "Declarations", "End of a hand"), to
cross-check the fast engine. Plain lists and loops, plain minimax: no pruning,
no transposition table, no memo. Use it only on small positions.

Conventions
-----------
- Ranks are printed ranks 1..7, 10, 11, 12.
- Seats are in play order. Two players: 0 = S, 1 = N. Four players:
  0 = S, 1 = E, 2 = N, 3 = W; side 0 = seats 0 and 2, side 1 = seats 1 and 3.
  In both cases the side of a seat is ``seat % 2``.
- ``stock`` is the undealt cards in dealing order. The next deal gives the
  first ``n`` cards to ``leader``, the next ``n`` to the seat after, and so
  on, ``n`` being the size of that deal in ``deal_sizes(rules, players)``
  (this module's own, written from RULES.md and issue 11).
- A value is always "points of one side minus points of the other side",
  counted from the current position to the end of the hand, including
  declarations of the deals still to come and the end-of-hand card count
  over the whole hand's piles (``taken`` included).

Readings of RULES.md that were not spelt out (see also the report):
- An answer is a capture for every purpose: it sets the last capturer and
  scores ``capture_point`` (no preset has both answers and capture points).
- With ``len(rules.hit) == 1`` there are no answers: a hit shows nothing and
  a third card of the hit rank is an ordinary card (stays or captures).
- A declaration tie under ``declare_tie = "split"`` splits the kind's own
  value (``ronda``/``tringa``), not ``declare_contested``.
"""

from __future__ import annotations

import math

from solver.cards import RANKS


# ---------------------------------------------------------------------------
# Small helpers: the rank sequence and what a card captures.
# ---------------------------------------------------------------------------

def next_rank(rules, rank):
    """The rank after ``rank`` in the sequence, or None (12, or 7 when 7 and
    10 are not adjacent).

    >>> from solver.rules import PRESETS
    >>> next_rank(PRESETS["lmodire"], 7), next_rank(PRESETS["french"], 7)
    (10, None)
    """
    position = RANKS.index(rank)
    if position + 1 >= len(RANKS):
        return None
    nxt = RANKS[position + 1]
    if rank == 7 and nxt == 10 and not rules.seven_ten_adjacent:
        return None
    return nxt


def table_cards_captured(rules, table, card):
    """The table cards a played ``card`` takes by an ordinary capture (every
    card of its rank, then every copy of each rank of the upward run), or []
    when the table holds no card of that rank.

    >>> from solver.rules import PRESETS
    >>> table_cards_captured(PRESETS["lmodire"], [4, 5, 6, 7, 10, 12], 5)
    [5, 6, 7, 10]
    """
    if card not in table:
        return []
    taken = []
    rank = card
    while rank is not None and rank in table:
        for t in table:
            if t == rank:
                taken.append(t)
        rank = next_rank(rules, rank)
    return taken


def remove_cards(table, cards):
    """A copy of ``table`` without one copy of each card of ``cards``."""
    left = list(table)
    for c in cards:
        left.remove(c)
    return left


# ---------------------------------------------------------------------------
# One card played.
# ---------------------------------------------------------------------------

def reference_events(rules, table, prev, show, card, is_last_card_of_hand,
                     is_last_round=False):
    """What playing ``card`` does (RULES.md, "A turn").

    ``prev``: rank of the card the previous player just left on the table in
    this deal, or None. ``show``: (rank, size) shown pile owned by the
    previous player's side, or None. ``is_last_card_of_hand``: this is the
    very last card played in the hand. ``is_last_round``: the card is one
    of the final ``players`` plays of the hand (each player's last card);
    with ``missa_last_round = no`` (house rule, issue 11) no missa counts
    on those.

    Returns a dict:
      kind            "answer" | "hit" | "capture" | "drop"
      table           the table after the play (new list)
      from_table      table cards taken (list of ranks)
      gained          cards going into the mover's side's pile
      lost_by_other   cards leaving the previous player's side's pile
      capture         True if the play counts as a capture (last capturer)
      hit, missa      bools
      answer          0, or the size of the shown pile answered (2 or 3)
      points          points the mover's side scores with this play
      prev, show      the values for the next player
    """
    ev = {
        "kind": "drop", "table": list(table), "from_table": [], "gained": 0,
        "lost_by_other": 0, "capture": False, "hit": False, "missa": False,
        "answer": 0, "points": 0, "prev": None, "show": None,
    }

    # Answers: the shown pile of rank r and size 2 (answer for hit[1]) or 3
    # (answer for hit[2]); only when the rules have that answer.
    if show is not None:
        show_rank, show_size = show
        answer_index = show_size - 1          # size 2 -> hit[1], 3 -> hit[2]
        if card == show_rank and answer_index < len(rules.hit):
            ev["kind"] = "answer"
            ev["answer"] = show_size
            ev["gained"] = show_size + 1      # the shown cards + the own card
            ev["lost_by_other"] = show_size
            ev["capture"] = True
            ev["points"] = rules.hit[answer_index] + rules.capture_point
            # The answer takes nothing from the table and is never a missa.
            if show_size == 2:
                ev["show"] = (show_rank, 3)
            return ev

    captured = table_cards_captured(rules, table, card)
    if not captured:
        # No match: the card stays on the table.
        ev["table"] = list(table) + [card]
        ev["prev"] = card
        return ev

    ev["kind"] = "capture"
    ev["capture"] = True
    ev["from_table"] = captured
    ev["gained"] = len(captured) + 1
    ev["table"] = remove_cards(table, captured)
    points = rules.capture_point

    if prev is not None and card == prev:
        # The previous player's lone card is captured with the same rank.
        ev["kind"] = "hit"
        ev["hit"] = True
        points += rules.hit[0]
        if len(rules.hit) >= 2:
            ev["show"] = (card, 2)

    if len(ev["table"]) == 0:
        # Took every card of a table that was not empty (it held at least
        # the captured card).
        counts = rules.missa_on_last_card or not is_last_card_of_hand
        if is_last_round and not rules.missa_last_round:
            counts = False
        if counts:
            ev["missa"] = True
            points += rules.missa

    ev["points"] = points
    return ev


# ---------------------------------------------------------------------------
# Declarations.
# ---------------------------------------------------------------------------

TRINGA = 2
RONDA = 1


def best_declaration(rules, hand):
    """The best declaration of one hand: (kind, rank) with kind TRINGA (2) or
    RONDA (1), or None. Three or four of a kind is a Tringa when
    ``rules.tringa > 0``, else a Ronda of that rank. Tuples compare as
    "better": kind first, then rank (ace low; printed ranks are in order).

    >>> from solver.rules import PRESETS
    >>> best_declaration(PRESETS["lmodire"], [3, 3, 3]), best_declaration(PRESETS["french"], [3, 3, 3])
    ((2, 3), (1, 3))
    """
    if rules.ronda == 0:
        return None
    best = None
    for rank in RANKS:
        count = 0
        for c in hand:
            if c == rank:
                count += 1
        if count >= 3 and rules.tringa > 0:
            d = (TRINGA, rank)
        elif count >= 2:
            d = (RONDA, rank)
        else:
            continue
        if best is None or d > best:
            best = d
    return best


def declaration_points(rules, hands):
    """Points [side 0, side 1] scored by the declarations of freshly dealt
    ``hands`` (one per seat, side = seat % 2).

    >>> from solver.rules import PRESETS
    >>> declaration_points(PRESETS["lmodire"], [[5, 5, 1], [7, 7, 2]])
    [0, 1]

    With ``decl_cumulative`` (house rule, issue 11) a lone best hand also
    scores the value of each hand the other side declared (its partner's
    hands add nothing), in place of ``declare_contested``.
    """
    points = [0, 0]
    if rules.ronda == 0:
        return points
    decls = [best_declaration(rules, h) for h in hands]
    declared_sides = []
    for seat in range(len(hands)):
        if decls[seat] is not None and seat % 2 not in declared_sides:
            declared_sides.append(seat % 2)
    if not declared_sides:
        return points
    top = None
    for d in decls:
        if d is not None and (top is None or d > top):
            top = d
    top_sides = []
    for seat in range(len(hands)):
        if decls[seat] == top and seat % 2 not in top_sides:
            top_sides.append(seat % 2)
    value = rules.tringa if top[0] == TRINGA else rules.ronda
    if len(top_sides) == 1:
        side = top_sides[0]
        other = 1 - side
        if rules.decl_cumulative:
            for seat in range(len(hands)):
                d = decls[seat]
                if d is not None and seat % 2 == other:
                    if d[0] == TRINGA:
                        value += rules.tringa
                    else:
                        value += rules.ronda
        elif rules.declare_contested != 0 and other in declared_sides:
            value = rules.declare_contested
        points[side] += value       # partners tying: counted once
    else:
        if rules.declare_tie == "split":
            half = math.ceil(value / 2)
            points[0] += half
            points[1] += half
        # "nobody": nobody scores
    return points


# ---------------------------------------------------------------------------
# Dealing and the end of the hand.
# ---------------------------------------------------------------------------

def deal_sizes(rules, players):
    """Cards a player on each deal of a hand: the cards not laid on the
    table (``table_cards``, 4 or 0) go out ``deal_size`` (3 or 4) a player
    a deal; seed 000's four players get 4 on the first deal; a last deal
    too small for a full round splits what is left evenly.

    >>> from solver.rules import PRESETS
    >>> deal_sizes(PRESETS["online"], 4)
    [4, 4, 2]
    """
    cards = 40 - rules.table_cards
    sizes = []
    if players == 4 and rules.first_deal_4p == 4:
        sizes.append(4)
        cards = cards - 4 * players
    while cards > 0:
        if cards >= rules.deal_size * players:
            sizes.append(rules.deal_size)
            cards = cards - rules.deal_size * players
        else:
            sizes.append(cards // players)
            cards = 0
    return sizes


def next_deal_size(rules, players, stock):
    """Cards a player of the next deal from ``stock``."""
    sizes = deal_sizes(rules, players)
    for k in range(len(sizes)):
        remaining = 0
        for s in sizes[k:]:
            remaining += s * players
        if remaining == len(stock):
            return sizes[k]
    raise ValueError(f"a stock of {len(stock)} cards fits no deal of {sizes}")


def deal(rules, players, stock, leader):
    """(new hands, rest of the stock): the leader gets the first n cards, the
    following seat the next n, and so on."""
    n = next_deal_size(rules, players, stock)
    hands = [[] for _ in range(players)]
    for i in range(players):
        seat = (leader + i) % players
        hands[seat] = list(stock[i * n:(i + 1) * n])
    return hands, list(stock[n * players:])


def end_of_hand_points(rules, table, last_side, piles):
    """Points [side 0, side 1] after the last card: the table sweep, the
    last-capture bonus and the card count over the final piles."""
    piles = list(piles)
    points = [0, 0]
    if last_side is not None:
        piles[last_side] += len(table)
        points[last_side] += rules.last_capture_bonus
    for side in (0, 1):
        if piles[side] > 20:
            points[side] += piles[side] - 20
    return points


# ---------------------------------------------------------------------------
# Minimax.
# ---------------------------------------------------------------------------

def _value_side0(rules, players, table, hands, stock, turn, leader, prev,
                 show, last_side, piles):
    """Side 0's points minus side 1's from here to the end of the hand under
    optimal play (side 0 maximises, side 1 minimises)."""
    all_empty = True
    for h in hands:
        if h:
            all_empty = False
    if all_empty:
        if stock:
            new_hands, new_stock = deal(rules, players, stock, leader)
            decl = declaration_points(rules, new_hands)
            # Nothing carries across a deal: prev and show reset.
            return (decl[0] - decl[1]) + _value_side0(
                rules, players, table, new_hands, new_stock, leader, leader,
                None, None, last_side, piles)
        end = end_of_hand_points(rules, table, last_side, piles)
        return end[0] - end[1]
    moves = _move_values_side0(rules, players, table, hands, stock, turn,
                               leader, prev, show, last_side, piles)
    if turn % 2 == 0:
        return max(moves.values())
    return min(moves.values())


def _move_values_side0(rules, players, table, hands, stock, turn, leader,
                       prev, show, last_side, piles):
    """{rank: side-0 value of playing it} for each distinct rank in the
    mover's hand."""
    hand = hands[turn]
    if not hand:
        raise ValueError(f"seat {turn} is to move with an empty hand")
    side = turn % 2
    out = {}
    for card in hand:
        if card in out:
            continue
        new_hands = [list(h) for h in hands]
        new_hands[turn].remove(card)
        is_last = not stock and all(len(h) == 0 for h in new_hands)
        cards_in_hands = 0
        for h in hands:
            cards_in_hands += len(h)
        # the last round: every player holds at most its last card
        last_round = not stock and cards_in_hands <= players
        ev = reference_events(rules, table, prev, show, card, is_last, last_round)
        new_piles = list(piles)
        new_piles[side] += ev["gained"]
        new_piles[1 - side] -= ev["lost_by_other"]
        new_last = side if ev["capture"] else last_side
        gain = ev["points"] if side == 0 else -ev["points"]
        out[card] = gain + _value_side0(
            rules, players, ev["table"], new_hands, stock,
            (turn + 1) % players, leader, ev["prev"], ev["show"], new_last,
            new_piles)
    return out


def reference_value(rules, table, hands, stock, turn, leader, prev=None,
                    show=None, last_side=None, taken=(0, 0)):
    """Exact perfect-information value of a position for the side to move.

    Returns (value, {rank: value of playing it}), values in game points for
    the mover's side minus the other side, from now to the end of the hand
    (declarations of deals still in the stock, the sweep, the last-capture
    bonus, and the card count over the final piles, ``taken`` included).

    If every hand is empty and the stock is not, the position is between two
    deals: the next deal is made (its declarations count) and the mover is
    ``leader``. If every hand and the stock are empty, the value is the end
    of the hand's and the dict is empty.
    """
    players = len(hands)
    if players not in (2, 4):
        raise ValueError("the reference knows 2 players and 4 (partnerships) only")
    table = list(table)
    hands = [list(h) for h in hands]
    stock = list(stock)
    piles = [taken[0], taken[1]]
    shift = 0
    if all(len(h) == 0 for h in hands) and stock:
        # The position is between deals: deal now (its declarations count),
        # and the leader is the mover.
        hands, stock = deal(rules, players, stock, leader)
        decl = declaration_points(rules, hands)
        shift = decl[0] - decl[1]
        turn, prev, show = leader, None, None
    sign = 1 if turn % 2 == 0 else -1
    if all(len(h) == 0 for h in hands):
        end = end_of_hand_points(rules, table, last_side, piles)
        return float(sign * (end[0] - end[1])), {}
    moves = _move_values_side0(rules, players, table, hands, stock, turn,
                               leader, prev, show, last_side, piles)
    per_rank = {}
    for card, v in moves.items():
        per_rank[card] = float(sign * (shift + v))
    return max(per_rank.values()), per_rank


# ---------------------------------------------------------------------------
# Ronda voleur (seed 000 variant), two sides: written from RULES.md
# "Variant: Ronda voleur" and the fixed decisions V1-V7 (docs/rules.md).
# Each side's pile is a count and a top rank (None: empty, nothing to steal).
# ---------------------------------------------------------------------------

def voleur_events(rules, table, prev, show, card, is_last_card_of_hand,
                  other_top, other_pile, is_last_round=False):
    """What playing ``card`` does in Ronda voleur: the other side's pile
    top ``other_top`` (a rank or None) counts as a table card (V2), so a
    card of that rank takes the whole pile (``other_pile`` cards) and the
    upward run of the table as if that rank lay there. A hit steals too;
    an answer takes the hitter's whole pile (V3). Missa only when the table
    was not empty and the play empties it (V4).

    Returns the dict of :func:`reference_events` with ``stole`` (cards
    taken from the other pile) added."""
    steal = other_top is not None and other_top == card and other_pile > 0
    ev = {
        "kind": "drop", "table": list(table), "from_table": [], "gained": 0,
        "lost_by_other": 0, "capture": False, "hit": False, "missa": False,
        "answer": 0, "points": 0, "prev": None, "show": None, "stole": 0,
    }
    if show is not None:
        show_rank, show_size = show
        if card == show_rank and show_size - 1 < len(rules.hit):
            ev["kind"] = "answer"
            ev["answer"] = show_size
            ev["capture"] = True
            moved = other_pile if steal else show_size
            ev["stole"] = moved
            ev["gained"] = moved + 1
            ev["lost_by_other"] = moved
            ev["points"] = rules.hit[show_size - 1] + rules.capture_point
            if show_size == 2:
                ev["show"] = (show_rank, 3)
            return ev

    if card in table:
        captured = table_cards_captured(rules, table, card)
    elif steal:
        # the top stands for a table card of this rank: the run follows it
        captured = []
        rank = next_rank(rules, card)
        while rank is not None and rank in table:
            for t in table:
                if t == rank:
                    captured.append(t)
            rank = next_rank(rules, rank)
    else:
        ev["table"] = list(table) + [card]
        ev["prev"] = card
        return ev

    ev["kind"] = "capture"
    ev["capture"] = True
    ev["from_table"] = captured
    ev["table"] = remove_cards(table, captured)
    ev["gained"] = len(captured) + 1
    if steal:
        ev["stole"] = other_pile
        ev["gained"] += other_pile
        ev["lost_by_other"] = other_pile
    points = rules.capture_point
    if prev is not None and card == prev:
        ev["kind"] = "hit"
        ev["hit"] = True
        points += rules.hit[0]
        if len(rules.hit) >= 2:
            ev["show"] = (card, 2)
    if len(table) > 0 and len(ev["table"]) == 0:
        if is_last_round and not rules.missa_last_round:
            pass
        elif rules.missa_on_last_card or not is_last_card_of_hand:
            ev["missa"] = True
            points += rules.missa
    ev["points"] = points
    return ev


def _voleur_side0(rules, players, table, hands, stock, turn, leader, prev, show,
                  last_side, piles, tops):
    """Side 0's points minus side 1's to the end of the hand (voleur)."""
    if all(len(h) == 0 for h in hands):
        if stock:
            new_hands, new_stock = deal(rules, players, stock, leader)
            decl = declaration_points(rules, new_hands)
            return (decl[0] - decl[1]) + _voleur_side0(
                rules, players, table, new_hands, new_stock, leader, leader,
                None, None, last_side, piles, tops)
        end = end_of_hand_points(rules, table, last_side, piles)
        return end[0] - end[1]
    moves = _voleur_moves_side0(rules, players, table, hands, stock, turn, leader,
                                prev, show, last_side, piles, tops)
    if turn % 2 == 0:
        return max(moves.values())
    return min(moves.values())


def _voleur_moves_side0(rules, players, table, hands, stock, turn, leader, prev, show,
                        last_side, piles, tops):
    side = turn % 2
    other = 1 - side
    out = {}
    for card in hands[turn]:
        if card in out:
            continue
        new_hands = [list(h) for h in hands]
        new_hands[turn].remove(card)
        is_last = not stock and all(len(h) == 0 for h in new_hands)
        last_round = not stock and all(len(h) <= 1 for h in hands)
        ev = voleur_events(rules, table, prev, show, card, is_last,
                           tops[other], piles[other], last_round)
        new_piles = list(piles)
        new_tops = list(tops)
        new_piles[side] += ev["gained"]
        new_piles[other] -= ev["lost_by_other"]
        new_last = last_side
        if ev["capture"]:
            new_last = side
            new_tops[side] = card           # the played card goes on top
            if new_piles[other] == 0:
                new_tops[other] = None      # the robbed pile is empty
        gain = ev["points"] if side == 0 else -ev["points"]
        out[card] = gain + _voleur_side0(
            rules, players, ev["table"], new_hands, stock, (turn + 1) % players, leader,
            ev["prev"], ev["show"], new_last, new_piles, new_tops)
    return out


def reference_value_voleur(rules, table, hands, stock, turn, leader, prev=None, show=None,
                           last_side=None, taken=(0, 0), tops=(None, None)):
    """:func:`reference_value` for Ronda voleur: ``tops`` the top rank of
    each side's pile (None: empty or none). Same return value."""
    players = len(hands)
    if players not in (2, 4):
        raise ValueError("the voleur reference knows 2 players and 4 (partnerships) only")
    sign = 1 if turn % 2 == 0 else -1
    moves = _voleur_moves_side0(rules, players, list(table), [list(h) for h in hands],
                                list(stock), turn, leader, prev, show, last_side,
                                [taken[0], taken[1]], [tops[0], tops[1]])
    per_rank = {card: float(sign * v) for card, v in moves.items()}
    return max(per_rank.values()), per_rank


# ---------------------------------------------------------------------------
# One plain walker for both objectives (points, the match) and both stocks
# (known order; shuffled: every way to hand out its physical cards), with
# or without voleur. Two sides (side = seat % 2). Written from RULES.md
# ("Winning": the order of the awards, the immediate win check) and
# docs/match.md (a leaf is the match-equity table's value at the final
# scores, the deal passing to the leader's side).
# ---------------------------------------------------------------------------

def _deals_of(rules, players, stock, leader, shuffled, fraction=False):
    """[(probability, hands, rest of the stock)] for the next deal: the one
    deal of a known stock, or every way to deal a shuffled one (each
    physical dealing equally likely, equal rank multisets merged)."""
    if not shuffled:
        hands, rest = deal(rules, players, stock, leader)
        return [(1.0, hands, rest)]
    from itertools import combinations
    n = next_deal_size(rules, players, stock)
    order = [(leader + i) % players for i in range(players)]
    counts = {}
    total = 0

    def go(i, left, hands):
        nonlocal total
        if i == players:
            key = (tuple(tuple(sorted(h)) for h in hands),
                   tuple(sorted(stock[j] for j in left)))
            counts[key] = counts.get(key, 0) + 1
            total += 1
            return
        for pick in combinations(left, n):
            rest = [j for j in left if j not in pick]
            new = [list(h) for h in hands]
            new[order[i]] = [stock[j] for j in pick]
            go(i + 1, rest, new)

    go(0, list(range(len(stock))), [[] for _ in range(players)])
    if fraction:
        from fractions import Fraction
        return [(Fraction(c, total), [list(h) for h in k[0]], list(k[1]))
                for k, c in counts.items()]
    return [(c / total, [list(h) for h in k[0]], list(k[1])) for k, c in counts.items()]


def _won(rules, scores):
    """Under the immediate win check: 1.0 if side 0 has won, 0.0 if side 1
    has, else None."""
    if rules.win_check != "immediate":
        return None
    a, b = scores
    if a >= rules.target and a > b:
        return 1.0
    if b >= rules.target and b > a:
        return 0.0
    return None


def _general(rules, players, s, match, leaf):
    """The value for side 0 of state ``s`` (a dict): points (side 0 less
    side 1) or, with ``match``, the chance that side 0 wins the match."""
    if all(len(h) == 0 for h in s["hands"]):
        if s["stock"]:
            total = 0
            for p, hands, rest in _deals_of(rules, players, s["stock"], s["leader"],
                                            s["shuffled"], s.get("fraction", False)):
                t = dict(s, hands=hands, stock=rest, turn=s["leader"], prev=None, show=None)
                decl = declaration_points(rules, hands)
                if match:
                    t["scores"] = [s["scores"][0] + decl[0], s["scores"][1] + decl[1]]
                    w = _won(rules, t["scores"])
                    total += p * (w if w is not None else _general(rules, players, t, match,
                                                                   leaf))
                else:
                    total += p * (decl[0] - decl[1] + _general(rules, players, t, match, leaf))
            return total
        raise AssertionError("the end of the hand is scored by the last play")
    values = _general_moves(rules, players, s, match, leaf)
    if s["turn"] % 2 == 0:
        return max(values.values())
    return min(values.values())


def _general_moves(rules, players, s, match, leaf):
    """{card: side-0 value of playing it}."""
    turn = s["turn"]
    side = turn % 2
    other = 1 - side
    out = {}
    for card in s["hands"][turn]:
        if card in out:
            continue
        hands = [list(h) for h in s["hands"]]
        hands[turn].remove(card)
        is_last = not s["stock"] and all(len(h) == 0 for h in hands)
        last_round = not s["stock"] and all(len(h) <= 1 for h in s["hands"])
        if rules.voleur:
            ev = voleur_events(rules, s["table"], s["prev"], s["show"], card, is_last,
                               s["tops"][other], s["piles"][other], last_round)
        else:
            ev = reference_events(rules, s["table"], s["prev"], s["show"], card, is_last,
                                  last_round)
        piles = list(s["piles"])
        tops = list(s["tops"])
        piles[side] += ev["gained"]
        piles[other] -= ev["lost_by_other"]
        last = s["last"]
        if ev["capture"]:
            last = side
            if rules.voleur:
                tops[side] = card
                if piles[other] == 0:
                    tops[other] = None
        scores = list(s["scores"])
        scores[side] += ev["points"]
        t = dict(s, table=ev["table"], hands=hands, turn=(turn + 1) % players,
                 prev=ev["prev"], show=ev["show"], last=last, piles=piles, tops=tops,
                 scores=scores)
        gain = ev["points"] if side == 0 else -ev["points"]
        if match and ev["points"] and _won(rules, scores) is not None:
            out[card] = _won(rules, scores)
            continue
        if is_last and not match:
            end = end_of_hand_points(rules, ev["table"], last, piles)
            out[card] = gain + end[0] - end[1]
            continue
        if is_last:
            # the sweep and its bonus, then the card count of each side
            final = list(piles)
            decided = None
            if last is not None:
                final[last] += len(ev["table"])
                scores[last] += rules.last_capture_bonus
                if rules.last_capture_bonus:
                    decided = _won(rules, scores)
            for k in (0, 1):
                if decided is None and final[k] > 20:
                    scores[k] += final[k] - 20
                    decided = _won(rules, scores)
            out[card] = decided if decided is not None else leaf(scores[0], scores[1])
            continue
        out[card] = (0 if match else gain) + _general(rules, players, t, match, leaf)
    return out


def reference_general(rules, table, hands, stock, turn, leader, prev=None, show=None,
                      last_side=None, taken=(0, 0), tops=(None, None), scores=(0, 0),
                      shuffled=False, leaf=None, fraction=False):
    """Every play's value for the side to move, two sides: ``{rank: value}``.
    Points (``leaf`` None): the mover's side's points less the other's to
    the end of the hand (card count over the whole piles). The match
    (``leaf(a, b)``: P(side 0 wins the match) at final scores ``a, b``):
    the mover's side's chance of winning the match. ``shuffled``: the
    stock's order is unknown (expectation over every dealing; ``fraction``:
    in exact Fractions). Voleur when ``rules.voleur`` (``tops`` each side's
    pile top or None)."""
    players = len(hands)
    s = {"table": list(table), "hands": [list(h) for h in hands], "stock": list(stock),
         "turn": turn, "leader": leader, "prev": prev, "show": show, "last": last_side,
         "piles": [taken[0], taken[1]], "tops": [tops[0], tops[1]],
         "scores": [scores[0], scores[1]], "shuffled": shuffled, "fraction": fraction}
    match = leaf is not None
    moves = _general_moves(rules, players, s, match, leaf)
    side = turn % 2
    if match:
        return {c: (v if side == 0 else 1.0 - v) for c, v in moves.items()}
    return {c: (v if side == 0 else -v) for c, v in moves.items()}
