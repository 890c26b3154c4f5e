"""The play models of inference: the feature-based model, mixtures, and
the choice of the model an opponent follows from its finished deals."""

from __future__ import annotations

import math
import random

import pytest

from solver.analysis import inference
from solver.analysis.inference import (FEATURES, FITTED, LinearPlayModel, Mixture, ModelChooser,
                                       PlayModel, decision, decision_setup, play_features)
from solver.games.match import HandState, deal_hand
from solver.games.players import GreedyPlayer
from solver.notation import parse_position
from solver.rules import PRESETS


def test_play_features_by_hand():
    """Table 5 6; the mover holds 5 5 12 (one 12 unseen): 5 takes 5 6
    (two cards and its own: 1.5 points) and clears the table (a missa, 1
    point), from a pair; 12 is laid and can be hit by the one 12 left."""
    pos = parse_position("5.6 5.5.12/?.?.? ? S gone=12.12 taken=2,0 last=S")
    game, state, hand, unseen = decision_setup(pos)
    f5 = dict(zip(FEATURES, play_features(game, state, hand, unseen, 4)))
    f12 = dict(zip(FEATURES, play_features(game, state, hand, unseen, 9)))
    assert f5["points"] == 1 and f5["cards"] == 1.5 and f5["lays"] == 0 and f5["pair"] == 1
    assert f5["table"] == 0.0
    assert f12["lays"] == 1 and f12["safe"] == 0 and f12["pair"] == 0 and f12["rank"] == 1
    p_holds = min(1.0, 3 * 1 / sum(unseen.values()))
    assert f12["risk"] == pytest.approx(p_holds * (1 + 1 + 0))
    assert f12["table"] == pytest.approx(0.3)


def test_a_linear_model_is_a_softmax_with_noise():
    pos = parse_position("5.6 5.5.12/?.?.? ? S gone=12.12 taken=2,0 last=S")
    m = LinearPlayModel((1.0, 2.0, -1.0, 0, 0, 0, 0, 0, 0), noise=0.1)
    p = decision(pos, m)
    game, state, hand, unseen = decision_setup(pos)
    f = {r: play_features(game, state, hand, unseen, r) for r in (4, 9)}
    s = {r: f[r][0] + 2 * f[r][1] - f[r][2] for r in (4, 9)}
    z = sum(math.exp(v) for v in s.values())
    for r in (4, 9):
        assert p[r] == pytest.approx(0.9 * math.exp(s[r]) / z + 0.05)


def test_a_mixture_weighs_whole_deals():
    """A mixture's likelihood of a deal's plays is the weighted sum of
    each model's likelihood of all of them (not a product of mixed
    decisions)."""
    pos = parse_position("1.6.7.10.3 ?.?/6.2.4 ? N prev=3 hist=1.6.7.10:S3")
    a, b = FITTED, PlayModel(temperature=2.0, noise=0.5)
    ea = inference.Evidence(pos, a)
    eb = inference.Evidence(pos, b)
    em = inference.Evidence(pos, Mixture((a, b), (0.25, 0.75)))
    hands = [[2, 5], [5, 4, 1]]
    assert em.likelihood(hands) == pytest.approx(0.25 * ea.likelihood(hands)
                                                 + 0.75 * eb.likelihood(hands))


class Watcher:
    """S: greedy, telling a ModelChooser what it sees and plays."""

    name = "watcher"

    def __init__(self, chooser):
        self.chooser = chooser
        self.inner = GreedyPlayer()

    def choose(self, view, rng):
        self.chooser.observe(view)
        card = self.inner.choose(view, rng)
        self.chooser.record(view, card.index)
        return card


class Logged:
    """N: greedy, keeping its views and choices."""

    name = "logged"

    def __init__(self):
        self.inner = GreedyPlayer()
        self.log = []

    def choose(self, view, rng):
        card = self.inner.choose(view, rng)
        self.log.append((view, card.index))
        return card


def test_the_chooser_scores_the_opponent_s_finished_deals(monkeypatch):
    """After each deal the chooser scores the opponent's choices with the
    hand it held: the same log-likelihood as the opponent's own decisions
    scored from its own views (its hand known), for every model; greedy
    is fitted better by the greedy model than by a flat one."""
    flat = PlayModel(temperature=5.0, noise=0.5)
    monkeypatch.setitem(inference.MODELS, "flat", flat)
    rng = random.Random(3)
    rules = PRESETS["lmodire"]
    want = {"greedy": 0.0, "flat": 0.0}
    got = {"greedy": 0.0, "flat": 0.0}
    decisions = 0
    for k in range(3):
        chooser = ModelChooser(["greedy", "flat"])
        table, stock = deal_hand(rules, 2, rng)
        n = Logged()
        agents = [Watcher(chooser), n]
        hs = HandState(rules, 2, 1, table, stock=stock)
        rngs = [random.Random(k), random.Random(k + 100)]
        while not hs.finished:
            if hs.awaiting_deal:
                hs.deal()
                continue
            seat = hs.turn
            hs.play(agents[seat].choose(hs.view(), rngs[seat]))
        # every deal but the last is followed by a view of S in a new deal
        for view, rank in n.log:
            if len({c.index for c in view.hands[view.turn]}) < 2:
                continue
            if view.hist is not None and _deal_of(view) == 6:
                continue
            for name, m in (("greedy", inference.MODELS["greedy"]), ("flat", flat)):
                want[name] += math.log(decision(view, m)[rank])
            decisions += 1
        for name in got:
            got[name] += chooser.loglik[name]
        assert chooser.decisions > 0
    assert got == pytest.approx(want, abs=1e-9)
    assert got["greedy"] > got["flat"]


def _deal_of(view) -> int:
    from solver.engine.compile import unseen_pool
    hidden = sum(1 for h in view.hands for c in h if c is None)
    stock = len(unseen_pool(view)) - hidden
    return 6 - stock // 6
