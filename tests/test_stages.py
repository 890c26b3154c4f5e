"""The command's JSON against the independent reference at every stage of
the end of a hand: a random hand is played from its first card; from the
start of the fifth deal (12 cards left in the stock) every position of the
hand — deal starts, mid-round, the lone card just laid (prev), a hit pile
on show, the last round — is written as a notation line, evaluated by
``ronda-solve --json`` and re-derived by tests/reference.py."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from solver.cards import RANKS
from solver.cli.main import main
from solver.engine.hand import Hand as Game
from solver.engine.scoring import EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_END, ranks_of
from solver.rules import PRESETS

from reference import reference_value


def fmt(ranks):
    return ".".join(str(RANKS[r]) for r in ranks) or "-"


def lines_of_a_hand(seed: int, preset: str):
    rng = random.Random(seed)
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    table = []
    for c in list(deck):             # a distinct opening table
        if c not in table:
            table.append(c)
            deck.remove(c)
        if len(table) == 4:
            break
    game = Game(PRESETS[preset], 2, 0, deck[6:])
    state = game.initial_state(table, [deck[:3], deck[3:6]], 0)
    piles = [0, 0]
    out = []
    while not game.is_terminal(state):
        t, seat, prev, show, last = state[0], state[5], state[6], state[7], state[8]
        stock = game.stock_left(state)
        if len(stock) <= 6:
            keys = [] if preset == "lmodire" else [f"rules={preset}"]
            keys.append("dealer=N")
            if sum(piles):
                keys.append(f"taken={piles[0]},{piles[1]}")
            if last >= 0:
                keys.append(f"last={'SN'[last]}")
            if prev >= 0:
                keys.append(f"prev={RANKS[prev]}")
            if show:
                keys.append(f"show={RANKS[show >> 2]}:{show & 3}")
            h = [ranks_of(game.hand(state, s)) for s in (0, 1)]
            line = " ".join([fmt(ranks_of(t)), f"{fmt(h[0])}/{fmt(h[1])}", fmt(stock),
                             "SN"[seat], *keys])
            out.append((line, (t, h, stock, seat, prev, show, last, tuple(piles))))
        # mostly the greediest play (hits, answers and missas happen), else any
        plays = [(game.play(state, m)[1], m) for m in game.moves(state)]
        move = max(plays)[1] if rng.random() < 0.7 else rng.choice(plays)[1]
        child, _gain, ev = game.play(state, move)
        side = seat
        if ev & (EV_ANSWER5 | EV_ANSWER10):
            size = show & 3
            piles[side] += size + 1
            piles[1 - side] -= size
        elif ev & EV_CAPTURE:
            piles[side] += 1 + game.capture(state, move).bit_count()
        if ev & EV_END and child[8] >= 0:
            left = t.bit_count() + (0 if ev & EV_CAPTURE else 1)
            if ev & EV_CAPTURE and not ev & (EV_ANSWER5 | EV_ANSWER10):
                left -= game.capture(state, move).bit_count()
            piles[child[8]] += left
        state = child
    return out


@pytest.mark.parametrize("seed,preset", [(s, p) for s in range(4)
                                         for p in ("lmodire", "pagat", "mod", "french")])
def test_json_agrees_with_the_reference_at_every_stage(seed, preset):
    lines = lines_of_a_hand(seed, preset)
    assert len(lines) >= 12
    r = CliRunner().invoke(main, ["--json", "-"], input="\n".join(l for l, _ in lines) + "\n")
    assert r.exit_code == 0, r.output
    docs = json.loads(r.stdout)["positions"]
    assert len(docs) == len(lines)
    for doc, (_line, (t, h, stock, seat, prev, show, last, piles)) in zip(docs, lines):
        assert doc["method"] == "exact"
        value, moves = reference_value(
            PRESETS[preset], [RANKS[r] for r in ranks_of(t)],
            [[RANKS[r] for r in hand] for hand in h], [RANKS[r] for r in stock],
            seat, 0, prev=None if prev < 0 else RANKS[prev],
            show=None if not show else (RANKS[show >> 2], show & 3),
            last_side=None if last < 0 else last, taken=piles)
        assert doc["value"] == value
        assert {int(m["move"]): m["value"] for m in doc["moves"]} == moves
        assert sorted(int(b) for b in doc["best"]) == sorted(m for m, v in moves.items() if v == value)
