"""An independent, slow reference for three-player hand values (vectors).

Written from RULES.md ("A turn", "Declarations", "End of a hand", three
players: each seat its own side and its own card count) and the issue-11
decisions (Ronda voleur V1-V7, ``missa_last_round``, the max^n choice
rule). Plain lists and loops, plain max^n: no pruning, no transposition
table, no memo, no bit tricks. Use it only on small positions.

Conventions: printed ranks (1..7, 10, 11, 12); seats 0 = S, 1 = E, 2 = N;
``stock`` in dealing order (the leader gets the first ``n``); a value is a
list of three numbers, each seat's points from now to the end of the hand,
the card count ``max(0, pile - 20)`` of each seat's whole pile included.
A shuffled stock is dealt by enumerating every way to hand out its
physical cards (each equally likely).
"""

from __future__ import annotations

from itertools import combinations

from solver.cards import RANKS
from solver.rules import deal_sizes


def _next(rules, rank):
    i = RANKS.index(rank)
    if i + 1 == len(RANKS):
        return None
    if rank == 7 and not rules.seven_ten_adjacent:
        return None
    return RANKS[i + 1]


def _takes(rules, table, rank, acts_as_table):
    """Table cards taken by a card of ``rank``: every ``rank`` on the table,
    then the upward run; ``acts_as_table``: an opponent's pile top of that
    rank counts as a table card (voleur)."""
    if rank not in table and not acts_as_table:
        return []
    out = [c for c in table if c == rank]
    r = _next(rules, rank)
    while r is not None and r in table:
        out += [c for c in table if c == r]
        r = _next(rules, r)
    return out


def _declarations(rules, hands):
    """Points per seat for the declarations of one deal (three sides)."""
    best = []
    for h in hands:
        d = None
        for r in set(h):
            n = h.count(r)
            if n >= 3 and rules.tringa:
                c = (2, RANKS.index(r))
            elif n >= 2:
                c = (1, RANKS.index(r))
            else:
                continue
            if d is None or c > d:
                d = c
        best.append(d if rules.ronda else None)
    pts = [0, 0, 0]
    declared = [d for d in best if d is not None]
    if not declared:
        return pts
    top = max(declared)
    winners = [s for s in range(3) if best[s] == top]
    value = rules.tringa if top[0] == 2 else rules.ronda
    if len(winners) == 1:
        w = winners[0]
        beaten = [best[s] for s in range(3) if s != w and best[s] is not None]
        if getattr(rules, "decl_cumulative", False):
            pts[w] = value + sum(rules.tringa if b[0] == 2 else rules.ronda for b in beaten)
        elif rules.declare_contested and beaten:
            pts[w] = rules.declare_contested
        else:
            pts[w] = value
    elif rules.declare_tie == "split":
        for w in winners:
            pts[w] = (value + 1) // 2
    return pts


class S:
    """A plain, copyable state."""

    def __init__(self, table, hands, stock, turn, leader, prev, show, last, piles, tops,
                 shuffled):
        self.table, self.hands, self.stock = list(table), [list(h) for h in hands], list(stock)
        self.turn, self.leader, self.prev, self.show, self.last = turn, leader, prev, show, last
        self.piles, self.tops, self.shuffled = list(piles), list(tops), shuffled

    def copy(self):
        return S(self.table, self.hands, self.stock, self.turn, self.leader, self.prev,
                 self.show, self.last, self.piles, self.tops, self.shuffled)


def play(rules, s, card):
    """Play ``card`` from the mover's hand: ``(new state, points per
    seat)``; the new state may need a deal (every hand empty)."""
    s = s.copy()
    me = s.turn
    s.hands[me].remove(card)
    pts = [0, 0, 0]
    hit = list(rules.hit) + [0, 0]
    stock_empty = not s.stock
    last_card = stock_empty and all(not h for h in s.hands)
    last_round = stock_empty and not s.hands[me]
    opp = [o for o in range(3) if o != me]
    steal = [o for o in opp if rules.voleur and s.piles[o] > 0 and s.tops[o] == card]
    if s.show is not None and s.show[0] == card:
        size = s.show[1]
        hitter = (me + 2) % 3
        pts[me] += rules.capture_point + (hit[1] if size == 2 else hit[2])
        if hitter not in steal:
            s.piles[hitter] -= size
            s.piles[me] += size
        for o in steal:
            s.piles[me] += s.piles[o]
            s.piles[o] = 0
            s.tops[o] = None
        s.piles[me] += 1
        if rules.voleur:
            s.tops[me] = card
        s.show = (card, size + 1) if size + 1 <= len(rules.hit) else None
        s.prev = None
        s.last = me
    else:
        taken = _takes(rules, s.table, card, bool(steal))
        if taken or steal:
            before = len(s.table)
            for c in taken:
                s.table.remove(c)
            pts[me] += rules.capture_point
            if s.prev == card and card in taken:
                pts[me] += hit[0]
                s.show = (card, 2) if len(rules.hit) > 1 else None
            else:
                s.show = None
            if before and not s.table:
                ok = True
                if last_card and not rules.missa_on_last_card:
                    ok = False
                if last_round and not getattr(rules, "missa_last_round", True):
                    ok = False
                if ok:
                    pts[me] += rules.missa
            s.piles[me] += len(taken) + 1
            for o in steal:
                s.piles[me] += s.piles[o]
                s.piles[o] = 0
                s.tops[o] = None
            if rules.voleur:
                s.tops[me] = card
            s.prev = None
            s.last = me
        else:
            s.table.append(card)
            s.prev = card
            s.show = None
    s.turn = (me + 1) % 3
    if all(not h for h in s.hands) and not s.stock:
        if s.last is not None:
            s.piles[s.last] += len(s.table)
            s.table = []
            pts[s.last] += rules.last_capture_bonus
        for i in range(3):
            pts[i] += max(0, s.piles[i] - 20)
    return s, pts


def _deal_size(rules, n_stock):
    sizes = deal_sizes(rules, 3)
    for i in range(len(sizes)):
        if sum(sizes[i:]) * 3 == n_stock:
            return sizes[i]
    raise ValueError("bad stock size")


def _deals(rules, s):
    """Every deal from the stock: ``[(probability, hands, rest)]``."""
    n = _deal_size(rules, len(s.stock))
    order = [(s.leader + i) % 3 for i in range(3)]
    if not s.shuffled:
        hands = [[], [], []]
        for i, seat in enumerate(order):
            hands[seat] = s.stock[i * n:(i + 1) * n]
        return [(1.0, hands, s.stock[3 * n:])]
    idx = list(range(len(s.stock)))
    out = []
    for a in combinations(idx, n):
        rest1 = [i for i in idx if i not in a]
        for b in combinations(rest1, n):
            rest2 = [i for i in rest1 if i not in b]
            for c in combinations(rest2, n):
                rest3 = [i for i in rest2 if i not in c]
                hands = [[], [], []]
                for seat, pick in zip(order, (a, b, c)):
                    hands[seat] = [s.stock[i] for i in pick]
                out.append((hands, [s.stock[i] for i in rest3]))
    # the same ranks in the same hands are one outcome, counted as often
    # as its physical dealings
    merged = {}
    for hands, rest in out:
        key = (tuple(tuple(sorted(h)) for h in hands), tuple(sorted(rest)))
        merged[key] = merged.get(key, 0) + 1
    return [(k / len(out), [list(h) for h in key[0]], list(key[1]))
            for key, k in merged.items()]


def prefer(seat, a, b, ma, mb):
    """True when ``seat`` prefers vector ``a`` (move ``ma``) to ``b``
    (move ``mb``): the higher own value, then the lower sum of the
    others, then the lower rank."""
    ka = (round(a[seat], 9), -round(sum(a) - a[seat], 9), -RANKS.index(ma))
    kb = (round(b[seat], 9), -round(sum(b) - b[seat], 9), -RANKS.index(mb))
    return ka > kb


def value(rules, s):
    """The max^n vector of state ``s`` (after any deal it needs)."""
    if all(not h for h in s.hands):
        if not s.stock:
            return [0, 0, 0]
        total = [0.0, 0.0, 0.0]
        for p, hands, rest in _deals(rules, s):
            t = s.copy()
            t.hands, t.stock = hands, rest
            t.turn, t.prev, t.show = s.leader, None, None
            d = _declarations(rules, hands)
            v = value(rules, t)
            for i in range(3):
                total[i] += p * (d[i] + v[i])
        return total if s.shuffled else [int(x) for x in total]
    return move_values(rules, s)[1]


def move_values(rules, s):
    """``({rank: vector}, chosen vector)`` for every distinct rank the
    mover holds."""
    out = {}
    for card in sorted(set(s.hands[s.turn])):
        t, pts = play(rules, s, card)
        v = value(rules, t)
        out[card] = [pts[i] + v[i] for i in range(3)]
    best = None
    for card in sorted(out):
        if best is None or prefer(s.turn, out[card], out[best], card, best):
            best = card
    return out, out[best]


def paranoid(rules, s, root):
    """The paranoid value of state ``s`` for seat ``root``: its own points
    to the end of the hand, ``root`` maximising them, the other two seats
    minimising them (chance nodes averaged). Plain minimax."""
    if all(not h for h in s.hands):
        if not s.stock:
            return 0
        total = 0.0
        for p, hands, rest in _deals(rules, s):
            t = s.copy()
            t.hands, t.stock = hands, rest
            t.turn, t.prev, t.show = s.leader, None, None
            total += p * (_declarations(rules, hands)[root] + paranoid(rules, t, root))
        return total
    vals = []
    for card in sorted(set(s.hands[s.turn])):
        t, pts = play(rules, s, card)
        vals.append(pts[root] + paranoid(rules, t, root))
    return max(vals) if s.turn == root else min(vals)


def paranoid_moves(rules, s):
    """``{rank: paranoid value for the mover}`` for every distinct rank the
    mover holds."""
    root = s.turn
    out = {}
    for card in sorted(set(s.hands[s.turn])):
        t, pts = play(rules, s, card)
        out[card] = pts[root] + paranoid(rules, t, root)
    return out
