"""What a determinised search (perfect-information Monte Carlo) measures:
per-move statistics over the samples, and the stopping rule's threshold.

The search itself runs on the compiled core
(:func:`solver.search.compiled.determinised` for two sides,
:func:`solver.search.vectors.determinised_vec` for three): every root move
of each sample solved exactly, every move scored on the same samples
(common random numbers), stopped (as GNU Backgammon stops a rollout) when
the best move's lead over every other move exceeds ``Z_99`` paired
standard errors, at the sample or time budget, or on Ctrl-C.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

import numpy as np

Z_99 = 2.33


@dataclass
class SampledMove:
    """Statistics of one root move over the samples, in the game's unit:
    ``mean``, ``stderr`` (standard error of the mean; None for one sample),
    ``best`` (samples in which this move was among the best), ``lead_z``
    (the best move's lead over this one in paired standard errors; None
    for the best move itself)."""

    move: int
    mean: float
    stderr: float | None
    best: int
    lead_z: float | None = None


@dataclass
class SampleResult:
    """What a determinised search measured: per-move statistics (best
    first), the number of ``samples``, the total ``nodes``, ``stopped``
    (``"separated"``, ``"samples"``, ``"time"`` or ``"interrupted"``),
    ``partial`` (interrupted), ``seconds``, ``workers``; with inference the
    ``weights`` of the samples and their effective sample size ``ess``."""

    moves: list[SampledMove]
    samples: int
    nodes: int
    stopped: str = "samples"
    partial: bool = False
    seconds: float = 0.0
    workers: int = 1
    values: list[dict[int, int]] = field(default_factory=list, repr=False)
    #: importance weights of the samples (inference), None when unweighted
    weights: object = field(default=None, repr=False)
    #: the effective sample size of the weights (None when unweighted)
    ess: float | None = None


def default_workers() -> int:
    """The machine's cores (the default of ``--workers``)."""
    return os.cpu_count() or 1


def summarise_array(values: np.ndarray, weights: np.ndarray | None = None,
                    top: int | None = None) -> list[SampledMove]:
    """Mean, standard error, best-count and the best move's paired lead of
    every legal move over the samples (rows of ``values``, NaN where a move
    is illegal: the same in every row), best mean first; as
    :func:`solver.search.pimc.summarise`. With ``weights`` (importance
    weights, one a row) the means are weighted, the standard errors those
    of the self-normalised estimate (``sqrt(sum w^2 (x - mean)^2) / sum
    w``), and ``best`` counts the weight of the rows where a move is best,
    scaled to the number of rows. ``top``: the move whose lead is measured
    (its ``lead_z`` None) when it is not the best mean's (three sides: the
    max^n rule breaks a tie of the mover's means by the others' entries);
    the order stays by mean."""
    n = values.shape[0]
    moves = [m for m in range(values.shape[1]) if not math.isnan(values[0, m])]
    cols = values[:, moves]
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    sw = w.sum()
    means = (w[:, None] * cols).sum(axis=0) / sw
    high = cols.max(axis=1, keepdims=True)
    best = (w[:, None] * (cols == high)).sum(axis=0) * n / sw

    def stderr(x: np.ndarray, mean: float) -> float | None:
        if n < 2:
            return None
        if weights is None:
            return float(x.std(ddof=1) / math.sqrt(n))
        return float(math.sqrt((w * w * (x - mean) ** 2).sum() * n / (n - 1)) / sw)

    stats = [SampledMove(m, float(means[j]), stderr(cols[:, j], float(means[j])),
                         int(round(best[j]))) for j, m in enumerate(moves)]
    order = sorted(range(len(moves)), key=lambda j: (-stats[j].mean, stats[j].move))
    stats = [stats[j] for j in order]
    top = stats[0].move if top is None else top
    jt = moves.index(top)
    for s in stats:
        if s.move == top:
            continue
        diffs = cols[:, jt] - cols[:, moves.index(s.move)]
        if n < 2:
            s.lead_z = None
            continue
        mean = float((w * diffs).sum() / sw)
        se = stderr(diffs, mean)
        s.lead_z = (math.inf if mean > 0 else 0.0) if not se else mean / se
    return stats
