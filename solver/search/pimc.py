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

import os
from dataclasses import dataclass, field

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
