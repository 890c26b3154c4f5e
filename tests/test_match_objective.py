"""The match objective on positions: the shipped end-of-match positions
(checked by hand in positions/match.txt), when auto chooses it, and that
it picks the points objective's plays when the target is out of reach."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from solver.analysis.evaluation import evaluate
from solver.games.match import HandState, deal_hand
from solver.match_equity.evaluate import (choose_objective, evaluate_match, objective_choice,
                                          objective_for, target_reachable)
from solver.match_equity.selfplay import greedy_rank
from solver.match_equity.table import load
from solver.notation import parse_lines, parse_position
from solver.rules import PRESETS

ROOT = Path(__file__).resolve().parent.parent


def shipped():
    with open(ROOT / "positions" / "match.txt", "rb") as f:
        return [pos for _n, pos in parse_lines(f)]


def test_six_shipped_positions():
    assert len(shipped()) == 6


# The chance of the play points prefer, by hand (positions/match.txt): 0, or
# the table's value at the score where the hand ends and the next dealer.
def _points_play_chance(name: str) -> float:
    t = load("lmodire", 2)
    return {"match 1": 0.0, "match 3": 0.0, "match 4": 0.0, "match 5": 0.0,
            # S's 3: ends 40-39, S (side 0) deals next
            "match 2": t.equity_of(40, 39, True),
            # N's 3: ends 39-39, N deals next; N's chance
            "match 6": 1 - t.equity_of(39, 39, False)}[name]


@pytest.mark.parametrize("index", range(6))
def test_shipped_position_values_by_hand(index):
    pos = shipped()[index]
    name = pos.opcode("id")
    assert objective_for(pos, "auto") == "match"
    a = evaluate_match(pos)
    by = {m.move[:-1] if m.move[-1].isalpha() else m.move: m for m in a.moves}
    bm, am = pos.opcode("bm"), pos.opcode("am")
    assert by[bm].chance == 1.0
    assert by[am].chance == pytest.approx(_points_play_chance(name), abs=1e-12)
    assert by[am].chance < 1.0
    # the points objective prefers the other play
    p = evaluate(pos)
    assert all(b.rstrip("oceb") == am for b in p.best)
    assert by[am].points > by[bm].points


def late(seed: int, score, deal: int):
    rules = PRESETS["lmodire"]
    rng = random.Random(seed)
    table, stock = deal_hand(rules, 2, rng)
    hs = HandState(rules, 2, seed % 2, table, score=score, stock=stock)
    while not hs.finished:
        if hs.awaiting_deal:
            hs.deal()
            if hs.deal_no == deal:
                return hs
            continue
        r = greedy_rank(hs, rng)
        hs.play(next(c for c in hs.hands[hs.turn] if c.index == r))
    return None


def test_auto_is_points_when_the_target_is_out_of_reach():
    pos = parse_position("5.6 5.7/3.3 - S score=2,3 taken=20,14 last=S")
    assert not target_reachable(pos)
    assert objective_for(pos, "auto") == "points"
    assert objective_for(pos, "match") == "match"
    near = parse_position("5.6 5.7/3.3 - S score=39,3 taken=20,14 last=S")
    assert target_reachable(near) and choose_objective(near, "auto") == "match"
    # mod has a table now; mod with hit=1,5 (another rule system) has none:
    # auto stays with points and says which table is missing
    mod = parse_position("5.6 5.7/3.3 - S rules=mod score=39,3 taken=20,14 last=S")
    assert choose_objective(mod, "auto") == "match"
    other = parse_position("5.6 5.7/3.3 - S rules=mod hit=1,5 score=39,3 taken=20,14 last=S")
    assert choose_objective(other, "auto") == "points"
    assert "no match-equity table for mod+hit=1,5" in objective_choice(other, "auto").note
    # a whole hand to play: the target is reachable, but auto keeps to points
    # (AUTO_MATCH_CARDS: early in a hand auto stays with points)
    hs = late(1, [39, 30], 1)
    early = hs.full_position()
    assert target_reachable(early) and objective_for(early, "auto") == "match"
    assert choose_objective(early, "auto") == "points"
    assert choose_objective(early, "match") == "match"
    with pytest.raises(ValueError, match="needs taken="):
        evaluate_match(parse_position("5.6 5.7/3.3 - S score=39,3"))
    with pytest.raises(ValueError, match="already over"):
        evaluate_match(parse_position("5.6 5.7/3.3 - S score=41,3 taken=20,14 last=S"))


def test_match_objective_chooses_the_points_plays_when_the_target_is_out_of_reach():
    # The last deal at 10-10 (the target cannot be reached in the hand): the
    # chance of winning the match rises with the points margin over the
    # range of final scores, so every play best for the match is best for
    # points too. (Not always the other way round: two plays of equal margin,
    # +2-1 and +1-0, end at different scores, and the table tells them apart.)
    checked = 0
    for seed in range(30):
        hs = late(seed, [10, 10], 6)
        if hs is None:
            continue
        pos = hs.full_position()
        assert not target_reachable(pos)
        a = evaluate_match(pos, method="exact")
        top = max(m.points for m in a.moves)
        points_best = {m.move for m in a.moves if m.points == top}
        assert set(a.best) <= points_best, pos
        checked += 1
    assert checked >= 25


def test_a_target_one_play_away_is_reachable():
    """S at 39 of 41 holds a 5 that hits the 5 N just laid and clears the
    table: the hit (+1) and the missa (+1) end the match at once. Its pile
    (10) cannot pass 20, so only the points count. target_reachable said
    no: it derived the points from the chance node's bound with a formula
    that took about half a point a play off (the pure-Python bound's)."""
    pos = parse_position("5 5.7/3.3 - S score=39,3 taken=10,25 last=N prev=5")
    assert target_reachable(pos)
    a = evaluate_match(pos, method="exact")
    assert next(m.chance for m in a.moves if m.move == "5") == 1.0
    assert objective_for(pos, "auto") == "match"


def test_the_match_search_takes_the_samples_asked_for():
    """`--samples` is the match search's sample budget too (it was capped
    at 1,000): three plays whose chances are 0.7 to 1.4 points of a per
    cent apart are not separated, so the search runs to the 1,100 asked."""
    from solver.match_equity.objective import analyse
    pos = parse_position("10c.1b.11c.12o 10o.5e.3b/?.?.? ? S rules=french voleur=yes dealer=N "
                         "score=46,49 taken=20,4 last=N gone=3e.2b.2c.6b.6e.7b.6c.6o.1o.1c.4o."
                         "4b.4e.12e.12c.12b.4c.3o.5c.3c.11e.11b.2e.2o tops=3c,2o")
    a = analyse(pos, objective="match", samples=1100, time_budget=120)
    assert (a.match_samples, a.match_stopped) == (1100, "samples")


# The last deal but one of an lmodire hand (seed "mi-0", every play the lowest
# card; N then laid its highest, the 12c, and took the 12b), at 37-38: S to
# play, N's two cards and the six of the stock unseen. N's play is in hist=.
READ = ("5b.2c.6o 1b.4b.12o/?.? ? S dealer=S score=37,38 taken=9,17 last=N "
        "gone=6c.11c.7b.10c.6b.11o.11e.3e.3o.4o.4e.6e.5c.2b.2o.1e.1c.3c.5o.3b.4c.7o.10b.7e"
        ".12c.12b hist=5b.2c.12b.6o:N12c")
READ_UNSEEN = "10o.1o.2e.5e.7c.12e.11b.10e".split(".")


def _clairvoyant_means() -> tuple[dict[str, float], dict[str, float]]:
    """Each play's chance of winning the match averaged over every hand N may
    hold (2 of the 8 unseen cards) and every split of the last deal (3 of the
    other 6 to S), each solved exactly with every card known: ``(weighed,
    plain)``, the first with each hand counted by the likelihood of N's 12c
    given it (the play model's, as the sampled search reads it), the second
    with every hand alike. The means a determinised search estimates,
    computed by enumeration instead of drawing."""
    import itertools
    from solver.analysis.inference import Evidence
    from solver.cards import parse_card
    evidence = Evidence(parse_position(READ))
    rest = READ.split("/?.? ? ", 1)[1].rsplit(" hist=", 1)[0]
    s_hand = [parse_card(c).index for c in "1b.4b.12o".split(".")]
    sums: dict[str, float] = {}
    plain: dict[str, float] = {}
    total = count = 0.0
    for hand in itertools.combinations(READ_UNSEEN, 2):
        w = evidence.likelihood([s_hand, [parse_card(c).index for c in hand]])
        stock = [c for c in READ_UNSEEN if c not in hand]
        for first in itertools.combinations(stock, 3):
            order = list(first) + [c for c in stock if c not in first]
            full = parse_position(f"5b.2c.6o 1b.4b.12o/{'.'.join(hand)} {'.'.join(order)} {rest}")
            for m in evaluate_match(full, method="exact", points=False).moves:
                sums[m.move] = sums.get(m.move, 0.0) + w * m.chance
                plain[m.move] = plain.get(m.move, 0.0) + m.chance
            total += w
            count += 1
    return ({k: v / total for k, v in sums.items()}, {k: v / count for k, v in plain.items()})


def test_the_match_search_reads_the_other_players_plays_as_the_points_search_does():
    """With inference (the default) the match objective's determinised
    search weighs each drawing by the likelihood of N's play this deal, as
    the points search does; before, it drew N's hand as if N had not
    played (its answer and the points column rested on two beliefs). Its
    chances agree with the weighted mean computed by enumeration, and the
    unweighted mean is several standard errors away."""
    from solver.match_equity.table import equity_array
    weighed, plain = _clairvoyant_means()
    assert weighed["4b"] - plain["4b"] > 0.02       # the play read moves the chance
    leaves = equity_array(PRESETS["lmodire"], 2)
    a = evaluate(parse_position(READ), method="determinised", samples=3000, seed=5, z=None,
                 time_budget=60, match=leaves)
    assert a.samples == 3000 and a.ess is not None
    for mv in a.moves:
        assert abs(mv.value - weighed[mv.move]) < 3.5 * mv.stderr, (mv.move, mv.value)
    four = next(mv for mv in a.moves if mv.move == "4b")
    assert abs(four.value - plain["4b"]) > 4 * four.stderr
    # evaluate_match (and so the command line, the board and annotate)
    # passes the plays on: weighed by default, not with inference=False
    pos = parse_position(READ)
    on = evaluate_match(pos, method="determinised", samples=64, points=False, time_budget=20)
    off = evaluate_match(pos, method="determinised", samples=64, points=False, time_budget=20,
                         inference=False)
    assert on.ess is not None and 0 < on.ess < on.samples
    assert off.ess is None
    # the answer's note says it of the match search as of the points search
    from solver.match_equity.objective import analyse
    a = analyse(pos, objective="match", method="determinised", samples=64, time_budget=20)
    assert a.match_ess is not None
    match_part = a.note.split("; points by")[0]
    assert "weighted by the other seats' plays this deal (inference" in match_part
