"""Exact expectimax split at the first chance level, for many machines.

Below the root, the plays up to the end of the current deal form a small
tree (the *upper tree*, tens of decision nodes) whose lines end in a few
chance nodes: the next deal from the same stock, after different tables
(two to four distinct chance nodes in practice). Each chance node's
outcomes (thousands of deals) are independent exact searches, and a
chance node's value is their probability-weighted sum. So:

1. :func:`split` enumerates the upper tree and its distinct chance nodes,
   with each one's outcomes (:func:`solver.engine.core.deal_table`);
2. every outcome child is solved exactly anywhere (a worker's
   :class:`~solver.search.compiled.Searcher`; :func:`solve_outcomes` does
   a batch of them with one table), or split again when it is too large;
3. :func:`chance_value` sums a chance node, and :func:`root_values`
   runs the upper tree's negamax over the exact chance values: every
   root move's value, with the arithmetic of
   :func:`solver.search.kernels.negamax`.

Nothing is pruned at the first chance level (Star1 cannot cut there: the
windows of its outcomes are wider than the sure bounds, see
:mod:`solver.search.parallel`), so the work is the single-machine
search's, spread over as many workers as there are outcomes.

Like the kernels, this module reaches the game only through the core's
interface: states are opaque tuples.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field

import numpy as np

from ..engine import core as ec
from . import kernels as kn

State = tuple


@dataclass
class Split:
    """The upper tree of a root: ``moves[state]`` lists ``(move, gain,
    kind, child)`` for each decision node (kind: ``ec.KIND_*``), and
    ``chance`` each distinct chance node with its ``(probs, rows)``."""

    root: State
    moves: dict = field(default_factory=dict)
    chance: dict = field(default_factory=dict)

    def outcomes(self) -> int:
        """Outcome children in all (the independent searches)."""
        return sum(len(p) for p, _r in self.chance.values())


def split(P: np.ndarray, D: np.ndarray, root: State, limit: int = 1 << 40) -> Split:
    """The upper tree of ``root`` and its chance nodes. Raises ValueError
    when a chance node has more than ``limit`` outcomes."""
    K = kn.new_scratch()
    sp = Split(tuple(int(x) for x in root))
    todo = [sp.root]
    while todo:
        st = todo.pop()
        if st in sp.moves:
            continue
        if ec.is_terminal(P, st):
            sp.moves[st] = []
            continue
        n = ec.gen_children(P, D, K, 0, st)
        rows = []
        for i in range(n):
            child = tuple(int(x) for x in K[0, i, :ec.NSTATE])
            kind = int(K[0, i, ec.K_KIND])
            rows.append((int(K[0, i, ec.K_MOVE]), int(K[0, i, ec.K_GAIN]), kind, child))
            if kind == ec.KIND_CHANCE and child not in sp.chance:
                probs, table = ec.deal_table(P, child, limit)
                if len(probs) == 0:
                    raise ValueError(f"a chance node has more than {limit} outcomes")
                sp.chance[child] = (probs, table)
            elif kind == ec.KIND_NODE:
                todo.append(child)
        sp.moves[st] = rows
    return sp


def outcome_child(P: np.ndarray, chance: State, rows: np.ndarray, i: int) -> State:
    """The state dealt by outcome ``i`` of a chance node."""
    return tuple(int(x) for x in ec.dealt_child(P, chance, rows, i))


def unseen(P: np.ndarray, st: State) -> int:
    """Cards still to be dealt or played (the size of a search)."""
    return int(ec.work_left(P, st))


def chance_value(probs: np.ndarray, rows: np.ndarray, values) -> float:
    """A chance node's value for its mover from its outcome children's
    values (in the kernels' order and arithmetic)."""
    total = 0.0
    for i in range(len(probs)):
        total += float(probs[i]) * (float(rows[i, ec.DR_GAIN]) + float(values[i]))
    return total


def _upper_values(sp: Split, chance_values: dict) -> tuple:
    """``(move_values(state), ...)``: a plain negamax of the upper tree over
    the exact chance values, memoised."""
    memo: dict = {}

    def value(st: State) -> float:
        if st not in memo:
            vals = move_values(st)
            memo[st] = max(vals.values()) if vals else 0.0
        return memo[st]

    def move_value(gain: int, kind: int, child: State) -> float:
        if kind == ec.KIND_LEAF:
            return float(gain)
        if kind == ec.KIND_CHANCE:
            return gain - chance_values[child]
        return gain - value(child)

    def move_values(st: State) -> dict[int, float]:
        return {m: move_value(g, k, c) for m, g, k, c in sp.moves[st]}

    return move_values


def root_values(sp: Split, chance_values: dict) -> dict[int, float]:
    """Every root move's exact value from the chance nodes' values (a
    plain negamax of the upper tree)."""
    return _upper_values(sp, chance_values)(sp.root)


def principal_variation(sp: Split, chance_values: dict) -> list[int]:
    """One optimal line from the root to the next chance node (or the end
    of the hand): at each ply the best move, the lowest rank on a tie
    (within 1e-9), as :meth:`solver.search.compiled.Searcher.
    principal_variation`."""
    move_values = _upper_values(sp, chance_values)
    pv: list[int] = []
    st = sp.root
    while sp.moves.get(st):
        vals = move_values(st)
        top = max(vals.values())
        m = min(m for m, v in vals.items() if v >= top - 1e-9)
        pv.append(m)
        _m, _g, kind, child = next(r for r in sp.moves[st] if r[0] == m)
        if kind != ec.KIND_NODE:
            break
        st = child
    return pv


#: a worker process's searcher, kept across its tasks: ``(game digest,
#: memory, Searcher)``; the outcomes of one chance node share much of their
#: trees (the same later chance nodes), so the table is worth keeping
_kept: list = []


def _searcher(P: np.ndarray, D: np.ndarray, memory_mb: float):
    from .compiled import Searcher
    digest = hashlib.sha1(P.tobytes() + D.tobytes()).hexdigest()
    if _kept and _kept[0][:2] == (digest, memory_mb):
        return _kept[0][2]
    _kept.clear()
    s = Searcher(P, D, memory_mb)
    _kept.append((digest, memory_mb, s))
    return s


def solve_outcomes(P: np.ndarray, D: np.ndarray, chance: State, indices: list[int],
                   memory_mb: float = 1024.0) -> dict:
    """Solve outcomes ``indices`` of ``chance`` exactly on one thread: a
    worker's task. The process keeps its searcher (and table) for the next
    task of the same game. Returns ``{"values": [...], "nodes": n,
    "seconds": s}``."""
    from .compiled import ensure_compiled
    ensure_compiled()
    t0 = time.perf_counter()
    probs, rows = ec.deal_table(P, chance, 1 << 40)
    s = _searcher(P, D, memory_mb)
    n0 = s.nodes
    values = [s.value(outcome_child(P, chance, rows, i)) for i in indices]
    return {"values": values, "nodes": s.nodes - n0, "seconds": time.perf_counter() - t0}


def chance_key(P: np.ndarray, D: np.ndarray, chance: State) -> str:
    """A key naming a chance node of a game (its rules and stock included)
    for a store of finished outcomes."""
    h = hashlib.sha1()
    h.update(np.ascontiguousarray(P).tobytes())
    h.update(np.ascontiguousarray(D).tobytes())
    h.update(np.array(chance, dtype=np.int64).tobytes())
    return h.hexdigest()


# --- the fast mode: the first chance level sampled ---------------------------------


def sample_outcomes(probs: np.ndarray, samples: int, seed: int) -> np.ndarray:
    """``samples`` outcome indices drawn with replacement in proportion to
    their probabilities (a fixed seed: chance nodes of one stock share
    their deal tables, so every chance node gets the same deals, and the
    root moves are compared on common deals)."""
    rng = np.random.default_rng(seed)
    return rng.choice(len(probs), size=samples, replace=True, p=probs / probs.sum())


def sampled_root_values(P: np.ndarray, D: np.ndarray, root: State, samples: int,
                        seed: int = 0, memory_mb: float = 1024.0, workers: int = 1,
                        deadline: float | None = None):
    """The fast mode (approximate, labelled so): the first chance level's
    value estimated from ``samples`` deals drawn by probability, each
    solved exactly below (every later deal exact). Returns ``(values,
    stderrs, solved)``: every root move's estimate, its standard error
    over the drawn deals (the moves share them), the distinct deals
    solved. The error against exact expectimax is measured by
    bench/bench_fast.py (docs/performance.md)."""
    from concurrent.futures import ThreadPoolExecutor
    tree = split(P, D, root)
    draws: dict = {}
    todo: list = []
    for cn, (probs, rows) in tree.chance.items():
        idx = sample_outcomes(probs, samples, seed)
        draws[cn] = idx
        todo.extend((cn, int(i)) for i in sorted(set(idx.tolist())))
    per = max(1.0, memory_mb / max(1, workers))
    from .compiled import Searcher
    searchers = [Searcher(P, D, per) for _ in range(max(1, workers))]

    def run(w: int) -> dict:
        s = searchers[w]
        return {(cn, i): s.value(outcome_child(P, cn, tree.chance[cn][1], i),
                                 deadline=deadline)
                for cn, i in todo[w::len(searchers)]}

    from .compiled import SearchAborted
    solved: dict = {}
    t0 = time.perf_counter()
    try:
        if len(searchers) == 1:
            solved.update(run(0))
        else:
            with ThreadPoolExecutor(len(searchers)) as pool:
                for part in pool.map(run, range(len(searchers))):
                    solved.update(part)
    except SearchAborted as e:
        raise SearchAborted(e.reason, sum(s.nodes for s in searchers),
                            time.perf_counter() - t0) from None
    # each chance node's value: the mean over its drawn deals; the root
    # moves' values: the upper tree's negamax over those estimates
    est, err = {}, {}
    for cn, (_p, rows) in tree.chance.items():
        x = np.array([float(rows[i, ec.DR_GAIN]) + solved[(cn, int(i))] for i in draws[cn]])
        est[cn] = float(x.mean())
        err[cn] = float(x.std(ddof=1) / np.sqrt(samples)) if samples > 1 else float("nan")
    values = root_values(tree, est)
    # a move's standard error: the largest of the chance nodes' (the move's
    # value is one of them, less the gains on its line)
    worst = max(err.values()) if err else 0.0
    return values, {m: worst for m in values}, len(todo), sum(s.nodes for s in searchers)
