"""Inference: the weighted determinisations follow the exact posterior of
the hidden hand, computed by enumerating every hand the seat may hold."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from solver.analysis.evaluation import evaluate
from solver.engine.scoring import ranks_of
from solver.engine.sampling import draw_spec
from solver.engine.compile import unseen_pool
from solver.analysis.inference import Evidence, PlayModel, decision, effective_sample_size
from solver.notation import parse_position
from solver.search.compiled import Sampler, ensure_compiled

ensure_compiled()

# South laid a 7 on 1.3.10.4; North could have hit it and laid a 12 instead
SKIPPED_HIT = "1.3.10.4.7.12 2.12/?.? ? S dealer=N prev=12 hist=1.3.10.4:S7,N12"
# late in a hand (a greedy self-play view): North's two cards and the stock
# hidden, 8 cards unseen; North captured the 11 after South took 3.4.5
LATE = ("- 6b.6e/?.? ? S dealer=N score=7,3 taken=18,12 last=N gone=12b.12o.10c.10o.1c.1e.1o."
        "4b.4e.6o.7e.5o.12e.12c.3e.5c.3o.4c.5b.5e.2e.7b.10e.7c.11e.11b.2b.2c.11c.11o "
        "declared=S:ronda6 hist=11o.5c.3o.4c:S3e,N11c")


def exact_posterior(pos, evidence) -> dict[tuple, float]:
    """North's hidden cards: every rank multiset, prior by physical cards,
    times the likelihood of the plays recorded."""
    pool = Counter(unseen_pool(pos))
    k = sum(1 for c in pos.hands[1] if c is None)
    known = [c.index for c in pos.hands[1] if c is not None]
    post: dict[tuple, float] = {}
    for hand in set(combinations(sorted(pool.elements()), k)):
        prior = 1
        for r, n in Counter(hand).items():
            prior *= comb(pool[r], n)
        post[hand] = prior * evidence.likelihood([[], known + list(hand)])
    total = sum(post.values())
    return {h: p / total for h, p in post.items()}


@pytest.mark.parametrize("line", [SKIPPED_HIT, LATE])
def test_weighted_draws_follow_the_exact_posterior(line):
    pos = parse_position(line)
    evidence = Evidence(pos)
    assert not evidence.empty
    exact = exact_posterior(pos, evidence)
    spec = draw_spec(pos)
    sampler = Sampler(spec, 8.0)
    known = [c.index for c in pos.hands[1] if c is not None]
    freq: Counter = Counter()
    total = 0.0
    n = 6000
    _vals, _nodes, done, drawn = sampler.solve(list(range(n)), seed=1)
    assert (done == 1).all()
    for hands in drawn:
        north = ranks_of(int(hands[1]))
        for r in known:
            north.remove(r)
        w = evidence.likelihood([ranks_of(int(h)) for h in hands[:2]])
        freq[tuple(sorted(north))] += w
        total += w
    for hand, p in exact.items():
        assert abs(freq[hand] / total - p) < 0.03, (hand, freq[hand] / total, p)


def test_a_skipped_hit_makes_the_hit_rank_less_likely():
    pos = parse_position(SKIPPED_HIT)
    post = exact_posterior(pos, Evidence(pos))
    prior = exact_posterior(pos, Evidence(parse_position(SKIPPED_HIT.split(" hist=")[0])))
    holds7 = lambda dist: sum(p for h, p in dist.items() if 6 in h)  # noqa: E731
    assert holds7(post) < 0.5 * holds7(prior)


def test_no_history_no_weights():
    pos = parse_position(SKIPPED_HIT.split(" hist=")[0])
    assert Evidence(pos).empty
    a = evaluate(pos, samples=40, z=None, time_budget=5)
    assert a.ess is None and "inference" not in a.note


def test_the_model_prefers_a_capture_and_a_safe_lay():
    # a 5 on the table; 5 captures it, 7 and 12 are laid (7 has more unseen
    # copies, so it is riskier to lay)
    pos = parse_position("5.2.10.11 5.7.12/?.?.? ? S")
    p = decision(pos, PlayModel(0.3, 0.0, 2.0))
    assert p[4] > p[9] and p[4] > p[6]
    assert abs(sum(p.values()) - 1) < 1e-12


def test_effective_sample_size():
    assert effective_sample_size([1, 1, 1, 1]) == 4
    assert effective_sample_size([1, 0, 0, 0]) == 1
    assert abs(effective_sample_size([2, 1, 1]) - 16 / 6) < 1e-12


def test_every_view_of_self_play_reads_back():
    """Each seat's view along greedy self-play, written as a line, reads
    back (an answer once made hist= refuse its own gone=: the shown cards
    were counted twice)."""
    from solver.games.match import play_match
    from solver.notation import format_position, parse_position
    from solver.games.players import GreedyPlayer
    from solver.rules import PRESETS
    lines = []

    class Spy(GreedyPlayer):
        def choose(self, view, rng):
            lines.append(format_position(view))
            return super().choose(view, rng)

    for seed in range(40):
        play_match(PRESETS["lmodire"], [Spy(), Spy()], seed=f"pv-{seed}", max_hands=1)
    answered = ("3b.12c.11e -/6e ? N dealer=N score=6,2 taken=9,3 last=S "
                "gone=1o.1b.5o.5c.7e.7c.4e.4c.4o.10o.11o.10c show=4:3 "
                "hist=3b.7c.12c:S7e,N11e,S4e,N4c,S4o")
    assert answered in lines
    for line in lines:
        assert format_position(parse_position(line)) == line
