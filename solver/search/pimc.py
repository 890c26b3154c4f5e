"""Determinised search (perfect-information Monte Carlo).

Sample the hidden information (here: stock orders and unseen hands) with a
seeded RNG, solve every root move of each sample exactly with
:class:`~solver.search.alphabeta.AlphaBeta`, and average. Every root move
is scored on the same samples (common random numbers), so differences
between moves are measured with less noise than their values.

The sampler is the only link to the game: ``sample(rng) -> (game, state)``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Callable

from .alphabeta import AlphaBeta


@dataclass
class SampledMove:
    """Statistics of one root move over the samples, in the game's unit:
    ``mean``, ``stderr`` (standard error of the mean; None for one sample),
    ``best`` (samples in which this move was among the best)."""

    move: int
    mean: float
    stderr: float | None
    best: int


@dataclass
class SampleResult:
    """What a determinised search measured: per-move statistics, the
    number of ``samples``, the total ``nodes`` searched."""

    moves: list[SampledMove]
    samples: int
    nodes: int
    values: list[dict[int, int]] = field(default_factory=list)


def determinised(sample: Callable[[random.Random], tuple[object, tuple]],
                 samples: int, seed: int = 0) -> SampleResult:
    """Average the exact root-move values of ``samples`` determinisations.

    ``sample(rng)`` returns one perfect-information ``(game, state)``; all
    samples must offer the same root moves. Raises ValueError when
    ``samples < 1``.
    """
    if samples < 1:
        raise ValueError("samples must be at least 1")
    rng = random.Random(seed)
    per_sample: list[dict[int, int]] = []
    nodes = 0
    for _ in range(samples):
        game, state = sample(rng)
        ab = AlphaBeta(game)
        per_sample.append(ab.root_values(state))
        nodes += ab.stats.nodes
    return SampleResult(summarise(per_sample), samples, nodes, per_sample)


def summarise(per_sample: list[dict[int, int]]) -> list[SampledMove]:
    """Mean, standard error and best-count of every move over samples."""
    moves = list(per_sample[0])
    n = len(per_sample)
    best_count = {m: 0 for m in moves}
    for values in per_sample:
        top = max(values.values())
        for m, v in values.items():
            if v == top:
                best_count[m] += 1
    out = []
    for m in moves:
        xs = [values[m] for values in per_sample]
        mean = sum(xs) / n
        if n > 1:
            var = sum((x - mean) ** 2 for x in xs) / (n - 1)
            se: float | None = math.sqrt(var / n)
        else:
            se = None
        out.append(SampledMove(m, mean, se, best_count[m]))
    return out
