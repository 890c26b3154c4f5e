"""Regenerate the sample games of positions/games/ (deterministic).

    python positions/games/generate.py [--check]

- ``engine-v-greedy.txt``: lmodire, our engine (20 determinisations) v
  greedy, one game to 41.
- ``pagat-4p.txt``: pagat, four players, engine:10 + engine:10 v mc:50 +
  mc:50.
- ``french-4p.txt``: french, four players (4 cards a player on the
  first deal of a hand), engine:10 + engine:10 v mc:50 + mc:50.
- ``french-mc-v-greedy.txt``: french (end-of-hand win at 51), mc:50 v greedy.
- ``planted-mistake.txt``: lmodire, both sides play the exact
  full-information best play ("double dummy") everywhere except once: in
  the last deal of a hand S hits N's lone card while N holds the last
  card of that rank, and N answers for 5, when a safe play existed.
  ``annotate --view full`` marks exactly that play ``??``
  (tests/test_annotate.py checks the loss against tests/reference.py).

``long-game.txt`` (engine:20 v greedy, 9 hands) is kept as it was
recorded and is not regenerated here.

With ``--check`` it only reports whether the files are up to date.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from solver.engine.scoring import EV_HIT  # noqa: E402
from solver.search.compiled import Searcher, ensure_compiled  # noqa: E402
from solver.games.match import HandLog, HandState, MatchLog, deal_hand, hand_rng, play_match  # noqa: E402
from solver.games.players import make_player  # noqa: E402
from solver.games.record import dumps, from_match  # noqa: E402
from solver.rules import PRESETS  # noqa: E402

HERE = Path(__file__).resolve().parent


_SEARCH: dict[int, Searcher] = {}


def best_rank(hs: HandState) -> tuple[int, dict[int, float]]:
    """The exact best play (lowest rank among equals) and every play's
    value in points (relative: the same shift for every play), from one
    alpha-beta table per hand (the stock is known, so ``hs.game`` is the
    whole hand)."""
    ab = _SEARCH.get(id(hs.game))
    if ab is None:
        _SEARCH.clear()
        ensure_compiled()
        ab = _SEARCH[id(hs.game)] = Searcher(hs.game.P, hs.game.D, 64.0)
    values = {m: v / 2 for m, v in ab.root_values(hs.state).items()}
    top = max(values.values())
    return min(m for m, v in values.items() if v == top), values


def planted_candidate(hs: HandState) -> int | None:
    """A hit on the previous player's lone card that the next player can
    answer for 5, losing 2 points or more against a safe best play, in
    the last deal of the hand; else None."""
    if hs.stock or hs.prev_card is None:
        return None
    r = hs.prev_card.index
    seat, nxt = hs.turn, (hs.turn + 1) % hs.players
    if r not in hs.legal_ranks() or not any(c.index == r for c in hs.hands[nxt]):
        return None
    best, values = best_rank(hs)
    trial = hs.clone()
    ev = trial.play(next(c for c in trial.hands[seat] if c.index == r)).ev
    if ev & EV_HIT and best != r and values[best] - values[r] >= 2:
        return r
    return None


def perfect_match(seed: str, plant_hand: int) -> tuple[MatchLog, tuple[int, int, int]]:
    """A match of exact best play, with the planted hit at the first
    candidate from hand ``plant_hand`` on; returns the log and
    (hand, deal, play) of the planted play."""
    rules = PRESETS["lmodire"]
    log = MatchLog(rules, 2, ["double dummy", "double dummy"], 1, [0, 0], [], [0, 0], None, seed)
    score = [0, 0]
    dealer = 1
    where = None
    for h in range(1, 40):
        table, stock = deal_hand(rules, 2, hand_rng(seed, h))
        hs = HandState(rules, 2, dealer, table, score=score, target=rules.target, stock=stock)
        hl = HandLog(dealer, list(table), seconds=[0.0, 0.0])
        while not hs.finished:
            if hs.awaiting_deal:
                hs.deal()
                hl.deals.append([list(x) for x in hs.hands])
                hl.plays.append([])
                continue
            r = None
            if h >= plant_hand and where is None:
                r = planted_candidate(hs)
                if r is not None:
                    where = (h, hs.deal_no, len(hl.plays[-1]) + 1)
            if r is None:
                r, _values = best_rank(hs)
            card = next(c for c in hs.hands[hs.turn] if c.index == r)
            hl.plays[-1].append(hs.play(card).card)
        if hs.winner is not None and hs.stock:
            hl.undealt = list(hs.stock)
        hl.points, hl.score, hl.winner = list(hs.points), list(hs.score), hs.winner
        log.hands.append(hl)
        score = list(hs.score)
        if hs.winner is not None:
            log.winner = hs.winner
            break
        dealer = (dealer + 1) % 2
    log.score = score
    if where is None:
        raise SystemExit(f"no planted candidate from hand {plant_hand} on (seed {seed})")
    return log, where


def games() -> dict[str, str]:
    out = {}
    m = play_match(PRESETS["lmodire"], [make_player("engine:20"), make_player("greedy")], seed=11)
    out["engine-v-greedy.txt"] = dumps(from_match(m, {"Event": "sample: engine v greedy"}))
    m = play_match(PRESETS["pagat"], [make_player(s) for s in
                                      ("engine:10", "mc:50", "engine:10", "mc:50")], seed=12)
    out["pagat-4p.txt"] = dumps(from_match(m, {"Event": "sample: four players"}))
    m = play_match(PRESETS["french"], [make_player(s) for s in
                                       ("engine:10", "mc:50", "engine:10", "mc:50")], seed=14)
    out["french-4p.txt"] = dumps(from_match(m, {"Event": "sample: four players, french rules"}))
    m = play_match(PRESETS["french"], [make_player("mc:50"), make_player("greedy")], seed=13)
    out["french-mc-v-greedy.txt"] = dumps(from_match(m, {"Event": "sample: french rules"}))
    for i in range(100):   # the first seed with a candidate from hand 2 on
        try:
            log, (h, d, k) = perfect_match(f"planted{i}", 2)
            break
        except SystemExit:
            continue
    g = from_match(log, {"Event": "sample: planted mistake"})
    leader = (log.hands[h - 1].dealer + 1) % 2
    seat = "SN"[(leader + k - 1) % 2]
    other = "SN"[1 - "SN".index(seat)]
    g.comments.append(f"Both sides play the exact best play with every card known, except "
                      f"hand {h}, deal {d}, play {k}: {seat} hits although {other} holds the "
                      f"last card of the rank and answers for 5.")
    out["planted-mistake.txt"] = dumps(g)
    return out


def main() -> None:
    check = "--check" in sys.argv
    stale = []
    for name, text in games().items():
        path = HERE / name
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        else:
            path.write_text(text)
            print(f"wrote {path}")
    if check:
        print("stale: " + ", ".join(stale) if stale else "up to date")
        sys.exit(1 if stale else 0)


if __name__ == "__main__":
    main()
