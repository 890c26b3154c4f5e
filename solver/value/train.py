"""Offline training of the boundary values: fitted value iteration over the
deal boundaries (needs the ``train`` extra: scikit-learn).

Run (one core, resumable: every phase is kept in ``--work`` and a phase
already done is skipped, the exact labels are saved as they come)::

    nice -n 10 python -m solver.value.train --rules lmodire --players 2 \\
        --work /tmp/value-lmodire-2 --out solver/value/data/lmodire-2.npz

The phases:

1. **States**: boundary states (every hand empty, a deal due) from
   self-play hands on the compact engine, each seat playing greedy, a
   greedy player with 30% random plays, or random; kept by stock size.
2. **Exact labels** where exact expectimax is affordable (two deals to
   come: 12 cards in a two-player stock): the compiled expectimax value
   of each state, for training and for a held-out test set.
3. **Fitted value iteration**, one level at a time from the end: the
   model of the level with two deals to come is fitted to the exact
   labels; each earlier level's states are labelled by the average, over
   ``--deals`` sampled deals, of the declarations plus the alpha-beta
   value of the dealt deal with the model already fitted at its end
   (:func:`solver.search.deal_kernels.deal_values`), and fitted in turn.
   The last deal (one deal to come) is never learned: the searches solve
   it exactly.
4. **The file**: the packed weights (:mod:`solver.value.net`) and what
   they are: the rules, the player count, the command, the data and the
   held-out errors.

Each level is a scikit-learn ``MLPRegressor`` (two ReLU layers) on
standardised features; the standardisation and the output scale are
folded into the weights, which run in numba at search time.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from ..engine.core import declaration_gain, popcount
from ..engine.core import EV_DEAL
from ..engine.hand import SEAT, STOCK, TABLE, Hand, cardset, ranks_of
from ..rules import PRESETS, Rules, deal_sizes
from . import net
from .model import shuffled_game, signature

#: the policies of the self-play that makes the states, with their shares
POLICIES = (("greedy", 0.6), ("noisy", 0.25), ("random", 0.15))


def chance_state(table: int, last: int, stock: int) -> tuple:
    """The core state of a boundary: every hand empty, seat 0 (the leader)
    to move when the cards are dealt."""
    return (int(table), 0, 0, 0, 0, 0, -1, 0, int(last), int(stock), 0)


def _new_hand(rules: Rules, players: int, rng: random.Random, first_deal: int):
    """A self-play hand shuffled by ``rng``, its first deal of
    ``first_deal`` cards a hand dealt: ``(game, state)``, seat 0 dealing."""
    from ..games.match import deal_hand
    table, stock = deal_hand(rules, players, rng)
    s = [c.index for c in stock]
    first = [s[i * first_deal:(i + 1) * first_deal] for i in range(players)]
    game = Hand(rules, players, 0, s[first_deal * players:])
    return game, game.initial_state([c.index for c in table], first, 0)


def _policy_move(game, state, kind: str, rest, rng: random.Random) -> int:
    """The self-play move of a seat playing ``kind``: ``random``, ``noisy``
    (a random card three times in ten, else greedy's) or greedy's, greedy
    counting the cards it cannot see (the other hands and the stock
    ``rest``)."""
    from ..games.players import greedy_choices
    if kind == "random" or (kind == "noisy" and rng.random() < 0.3):
        return rng.choice(game.moves(state))
    seat = state[SEAT]
    unseen = [0] * 10
    for other in range(game.players):
        if other != seat:
            for r in ranks_of(game.hand(state, other)):
                unseen[r] += 1
    for r in rest:
        unseen[r] += 1
    return rng.choice(greedy_choices(game, state, lambda q: unseen[q]))


def selfplay_boundaries(rules: Rules, players: int, hands: int, seed: int | str,
                        policies=POLICIES) -> dict[int, np.ndarray]:
    """Boundary states of ``hands`` self-play hands (leader seat 0): stock
    size -> int64 array of rows ``(table, last side, stock)``."""
    rng = random.Random(f"value-states/{seed}")
    sizes = deal_sizes(rules, players)
    kinds = [k for k, _w in policies]
    weights = [w for _k, w in policies]
    out: dict[int, list] = {}
    for _h in range(hands):
        game, state = _new_hand(rules, players, rng, sizes[0])
        policy = rng.choices(kinds, weights, k=players)
        while not game.is_terminal(state):
            m = _policy_move(game, state, policy[state[SEAT]], game.stock_left(state), rng)
            child, _gain, ev = game.play(state, m)
            if ev & EV_DEAL:
                # the boundary before the deal just made: the cards it dealt
                # and those after them were still to deal
                rest = game.stock_left(state)
                out.setdefault(len(rest), []).append((child[TABLE], child[8], cardset(rest)))
            state = child
    return {k: np.array(v, dtype=np.int64) for k, v in out.items()}


def selfplay_decisions(rules: Rules, players: int, hands: int, seed: int | str,
                       stock: int, policies=POLICIES) -> np.ndarray:
    """Decision states with a choice (two distinct ranks or more) met in
    ``hands`` self-play hands while the stock holds ``stock`` cards (the
    deal whose end leaves ``stock`` cards to deal), in the shuffled-stock
    form (the stock field the card set left), leader seat 0: an int64
    array of core states."""
    rng = random.Random(f"value-decisions/{seed}")
    sizes = deal_sizes(rules, players)
    kinds = [k for k, _w in policies]
    weights = [w for _k, w in policies]
    out = []
    for _h in range(hands):
        game, state = _new_hand(rules, players, rng, sizes[0])
        policy = rng.choices(kinds, weights, k=players)
        picked = False
        while not game.is_terminal(state):
            seat = state[SEAT]
            moves = game.moves(state)
            rest = game.stock_left(state)
            if len(rest) == stock and len(moves) > 1 and not picked and rng.random() < 0.3:
                out.append(state[:STOCK] + (cardset(rest),) + state[STOCK + 1:])
                picked = True
            m = _policy_move(game, state, policy[seat], rest, rng)
            state = game.play(state, m)[0]
    return np.array(out, dtype=np.int64).reshape(-1, 11)


def play_errors(rules: Rules, players: int, states: np.ndarray, vm: np.ndarray,
                exact: np.ndarray | None = None, save=None):
    """Each decision state's every play valued two ways: by the deal
    search with ``vm`` at the deal's end, and by exact expectimax (given in
    ``exact``, rows of 10 with NaN where illegal, computed where NaN rows
    are; ``save(exact)`` after each). Returns ``(model, exact)`` arrays."""
    from ..search.compiled import Searcher, ensure_compiled
    from ..search.deal_search import DealSearcher
    from ..search import kernels as kn
    ensure_compiled()
    g = shuffled_game(rules, players)
    P, D = g.P, g.D
    exact = np.full((len(states), 10), np.nan) if exact is None else exact
    searcher = Searcher(P, D, 512.0)
    last = time.monotonic()
    for i, st in enumerate(states):
        if not np.isnan(exact[i]).all():
            continue
        searcher.C[kn.C_GEN] += 1
        for m, v in searcher.root_values(tuple(int(x) for x in st)).items():
            exact[i, m] = v
        if save is not None and time.monotonic() - last > 60:
            save(exact)
            last = time.monotonic()
    if save is not None:
        save(exact)
    ds = DealSearcher(P, D, vm)
    model = np.full((len(states), 10), np.nan)
    for i, st in enumerate(states):
        vals, _done = ds.solve(st, np.array([st[1:5]], dtype=np.int64),
                               np.array([st[9]], dtype=np.int64))
        model[i] = vals[0]
    return model, exact


def diff_figures(model: np.ndarray, exact: np.ndarray) -> dict:
    """The errors of the deal search's play values against exact ones (in
    points): of each value, of each play's difference with the exact best
    play, and how often the model's best play is an exact best (within
    1e-9) and the exact loss of its choice."""
    vals, diffs, agree, losses = [], [], 0, []
    for mrow, erow in zip(model, exact):
        legal = ~np.isnan(erow)
        e = erow[legal]
        m = mrow[legal]
        vals.extend(m - e)
        jb = int(np.argmax(e))
        diffs.extend([(m[j] - m[jb]) - (e[j] - e[jb]) for j in range(len(e)) if j != jb])
        pick = int(np.argmax(m))
        agree += int(e[pick] >= e.max() - 1e-9)
        losses.append(e.max() - e[pick])
    return {"positions": len(model), "value_rmse_points": _rmse(vals, 0) / 2,
            "value_bias_points": float(np.mean(vals)) / 2,
            "play_diff_rmse_points": _rmse(diffs, 0) / 2,
            "best_agrees": agree / max(1, len(model)),
            "mean_loss_points": float(np.mean(losses)) / 2}


def exact_labels(rules: Rules, players: int, rows: np.ndarray, labels: np.ndarray,
                 save, memory_mb: float = 512.0, every: float = 60.0) -> np.ndarray:
    """Fill the NaN entries of ``labels`` with the exact expectimax value
    (half-points, leader's side) of each row's boundary state, calling
    ``save(labels)`` every ``every`` seconds and at the end."""
    from ..search.compiled import Searcher, ensure_compiled
    from ..search import kernels as kn
    ensure_compiled()
    g = shuffled_game(rules, players)
    P, D = g.P, g.D
    searcher = Searcher(P, D, memory_mb)
    last_save = time.monotonic()
    todo = np.flatnonzero(np.isnan(labels))
    t0 = time.monotonic()
    for j, i in enumerate(todo):
        searcher.C[kn.C_GEN] += 1
        if searcher.C[kn.C_GEN] >= kn.MAX_GEN:
            searcher.TT[:] = 0
            searcher.C[kn.C_GEN] = 1
        labels[i] = searcher.value(chance_state(*rows[i]))
        if time.monotonic() - last_save > every:
            save(labels)
            last_save = time.monotonic()
            rate = (j + 1) / (time.monotonic() - t0)
            print(f"  exact labels: {j + 1} of {len(todo)} ({rate:.2f}/s)", file=sys.stderr,
                  flush=True)
    save(labels)
    return labels


@njit(cache=True)
def _sample_deals(P, stock, k, seed, n, players, hands, stocks, gains):
    """``k`` uniform deals of ``n`` cards a player (dealing order from seat
    0) from the card set ``stock``: the hands, the stock left and the
    declarations' half-points for side 0."""
    cards = np.empty(40, dtype=np.int64)
    m = 0
    for r in range(10):
        for _q in range(popcount((stock >> (4 * r)) & 15)):
            cards[m] = r
            m += 1
    np.random.seed(seed)
    for i in range(k):
        for a in range(n * players):        # partial Fisher-Yates
            b = a + np.random.randint(m - a)
            t = cards[a]
            cards[a] = cards[b]
            cards[b] = t
        rest = stock
        for s in range(4):
            hands[i, s] = 0
        for s in range(players):
            h = 0
            for q in range(n):
                r = cards[s * n + q]
                h += (((h >> (4 * r)) & 15) + 1) << (4 * r)
                rest -= ((((rest >> (4 * r)) & 15) + 1) >> 1) << (4 * r)
            hands[i, s] = h
        stocks[i] = rest
        gains[i] = declaration_gain(P, hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3])


def sampled_labels(rules: Rules, players: int, rows: np.ndarray, vm: np.ndarray, deals: int,
                   seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(labels, stderr)``: each boundary state's value estimated by
    ``deals`` sampled deals, each solved by alpha-beta to the end of the
    deal with ``vm`` at its end (half-points, leader's side)."""
    from ..search import deal_kernels as dk
    game = shuffled_game(rules, players)
    P, D = game.P, game.D
    K = dk.new_scratch()
    TK, TV = dk.new_table(18)
    C = dk.new_counters()
    X = net.scratch(vm)
    hands = np.zeros((deals, 4), dtype=np.int64)
    stocks = np.zeros(deals, dtype=np.int64)
    gains = np.zeros(deals, dtype=np.int64)
    vals = np.zeros(deals)
    labels = np.zeros(len(rows))
    se = np.zeros(len(rows))
    for i, (table, last, stock) in enumerate(rows):
        n = game.next_deal[popcount(int(stock))]
        _sample_deals(P, int(stock), deals, seed * 1_000_003 + i, n, players, hands, stocks,
                      gains)
        base = np.array(chance_state(table, last, stock), dtype=np.int64)
        dk.deal_values(P, D, base, hands, stocks, gains, K, TK, TV, C, vm, X, vals)
        labels[i] = vals.mean()
        se[i] = vals.std(ddof=1) / math.sqrt(deals)
    return labels, se


def features_of(rules: Rules, players: int, rows: np.ndarray) -> np.ndarray:
    """The features (:func:`solver.value.net.features`) of boundary rows."""
    P = shuffled_game(rules, players).P
    return np.array([net.features_py(P, chance_state(*r)) for r in rows])


def fit_level(X: np.ndarray, y: np.ndarray, hidden: tuple[int, int], seed: int,
              alpha: float = 1.0):
    """Fit one level: ``[W1, b1, W2, b2, w3, b3]`` on raw features,
    half-points out (standardisation folded in); ``alpha`` the L2 penalty
    (on standardised inputs and outputs: strong, the data being small)."""
    from sklearn.neural_network import MLPRegressor
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd == 0] = 1.0
    ymu, ysd = float(y.mean()), float(y.std() or 1.0)
    reg = MLPRegressor(hidden_layer_sizes=hidden, activation="relu", alpha=alpha,
                       learning_rate_init=1e-3, max_iter=600, early_stopping=True,
                       validation_fraction=0.1, n_iter_no_change=30, random_state=seed)
    reg.fit((X - mu) / sd, (y - ymu) / ysd)
    W1, W2, W3 = reg.coefs_
    b1, b2, b3 = reg.intercepts_
    W1f = W1 / sd[:, None]
    b1f = b1 - (mu / sd) @ W1
    return [W1f, b1f, W2, b2, W3[:, 0] * ysd, float(b3[0]) * ysd + ymu]


def _rmse(a, b) -> float:
    return float(np.sqrt(np.mean((np.asarray(a) - np.asarray(b)) ** 2)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m solver.value.train",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="lmodire")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--work", required=True, help="folder of the phases' results (resumable)")
    ap.add_argument("--out", required=True, help="the model file (.npz)")
    ap.add_argument("--hands", type=int, default=20000, help="self-play hands for the states")
    ap.add_argument("--exact-train", type=int, default=4000)
    ap.add_argument("--exact-test", type=int, default=1000)
    ap.add_argument("--deals", type=int, default=48, help="sampled deals a label")
    ap.add_argument("--play-positions", type=int, default=300,
                    help="decisions whose play values are checked against exact expectimax")
    ap.add_argument("--hidden", default="64,32")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rules = PRESETS[args.rules]
    players = args.players
    hidden = tuple(int(h) for h in args.hidden.split(","))
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    command = "python -m solver.value.train " + " ".join(sys.argv[1:] if argv is None else argv)

    def log(msg: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)

    # 1. states
    states_f = work / "states.npz"
    if not states_f.exists():
        t0 = time.monotonic()
        train = selfplay_boundaries(rules, players, args.hands, f"{args.seed}/train")
        test = selfplay_boundaries(rules, players, max(1, args.hands // 4),
                                   f"{args.seed}/test")
        np.savez(states_f, **{f"train{k}": v for k, v in train.items()},
                 **{f"test{k}": v for k, v in test.items()})
        log(f"states: {args.hands} + {args.hands // 4} hands in {time.monotonic() - t0:.0f} s")
    z = np.load(states_f)
    levels = sorted(int(k[5:]) for k in z.files if k.startswith("train"))
    # the level with two deals to come: exact labels; the last is searched exactly
    n_last = levels[0]
    exact_level = levels[1]
    learned = [s for s in levels if s >= exact_level]
    log(f"levels (stock sizes): {levels}; exact labels at {exact_level}; learned {learned}")

    # 2. exact labels (train and held-out test)
    exact = {}
    for part, count in (("train", args.exact_train), ("test", args.exact_test)):
        f = work / f"exact{exact_level}-{part}.npy"
        rows = z[f"{part}{exact_level}"][:count]
        labels = np.load(f) if f.exists() else np.full(len(rows), np.nan)
        if np.isnan(labels).any():
            log(f"exact labels at {exact_level} ({part}): {int(np.isnan(labels).sum())} to go")
            t0 = time.monotonic()
            exact_labels(rules, players, rows, labels, lambda a, f=f: np.save(f, a))
            log(f"  done in {time.monotonic() - t0:.0f} s")
        exact[part] = (rows, labels)
    del n_last

    # 3. fitted value iteration
    weights: dict[int, list] = {}
    figures: dict[str, dict] = {}
    rows, y = exact["train"]
    X = features_of(rules, players, rows)
    weights[exact_level] = fit_level(X, y, hidden, args.seed)
    vm = net.pack(weights, *hidden)
    trows, ty = exact["test"]
    pred = net.predict(vm, features_of(rules, players, trows), exact_level)
    figures[str(exact_level)] = {
        "labels": "exact expectimax", "train_states": len(rows), "test_states": len(trows),
        "test_rmse_points": _rmse(pred, ty) / 2, "test_bias_points": float((pred - ty).mean()) / 2,
        "label_sd_points": float(ty.std()) / 2,
        "train_rmse_points": _rmse(net.predict(vm, X, exact_level), y) / 2}
    # the search's error when it compares plays: deal-search play values
    # against exact expectimax at decisions of the deal that ends there
    f = work / f"plays{exact_level}.npz"
    if f.exists() and "exact" in np.load(f).files:
        got = np.load(f)
        pstates, pexact = got["states"], got["exact"]
    else:
        pstates = selfplay_decisions(rules, players, 4 * args.play_positions,
                                     f"{args.seed}/plays", exact_level)[:args.play_positions]
        pexact = None
    if pexact is None or np.isnan(pexact).all(axis=1).any():
        log(f"play values at {exact_level}: exact expectimax of {len(pstates)} decisions")
    pmodel, pexact = play_errors(rules, players, pstates, vm, pexact,
                                 lambda a: np.savez(f, states=pstates, exact=a))
    figures[str(exact_level)].update(diff_figures(pmodel, pexact))
    log(f"level {exact_level}: {figures[str(exact_level)]}")
    for level in [s for s in learned if s > exact_level]:
        f = work / f"sampled{level}.npz"
        rows = z[f"train{level}"]
        if f.exists():
            got = np.load(f)
            y, se = got["labels"], got["se"]
        else:
            t0 = time.monotonic()
            y, se = sampled_labels(rules, players, rows, vm, args.deals, args.seed + level)
            np.savez(f, labels=y, se=se)
            log(f"level {level}: {len(rows)} labels of {args.deals} deals in "
                f"{time.monotonic() - t0:.0f} s")
        X = features_of(rules, players, rows)
        cut = int(0.9 * len(rows))
        w = fit_level(X[:cut], y[:cut], hidden, args.seed)
        trial = net.pack({**weights, level: w}, *hidden)
        pred = net.predict(trial, X[cut:], level)
        noise = float(np.mean(se[cut:] ** 2))
        figures[str(level)] = {
            "labels": f"{args.deals} sampled deals, the next level's model at their end",
            "train_states": cut, "test_states": len(rows) - cut,
            "test_rmse_to_labels_points": _rmse(pred, y[cut:]) / 2,
            "label_noise_points": math.sqrt(noise) / 2,
            "test_rmse_points": math.sqrt(max(0.0, _rmse(pred, y[cut:]) ** 2 - noise)) / 2,
            "label_sd_points": float(y.std()) / 2}
        # refit on everything for the shipped model
        weights[level] = fit_level(X, y, hidden, args.seed)
        vm = net.pack(weights, *hidden)
        log(f"level {level}: {figures[str(level)]}")

    # 4. the file
    P = shuffled_game(rules, players).P
    meta = {"rules": rules.name, "players": players, "signature": signature(P),
            "hidden": list(hidden), "levels": sorted(weights), "command": command,
            "hands": args.hands, "deals": args.deals, "policies": dict(POLICIES),
            "figures": figures, "built": time.strftime("%Y-%m-%d")}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, vm=vm, meta=np.array(json.dumps(meta)))
    log(f"wrote {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
