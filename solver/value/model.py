"""The shipped boundary-value models: found by the rules they were trained
for, loaded once.

Each file in ``data/`` (``<rules>-<players>.npz``) holds ``vm``, the packed
weights (:mod:`solver.value.net`), and ``meta``, a JSON text: the rules'
name, the player count, the rule parameters the model depends on (the
compiled parameter array without the leader: a position whose rules
differ in anything that matters gets no model), the levels (stock sizes)
it covers, the command that rebuilt it and its measured errors
(``figures``: per level, the held-out RMSE and bias in points).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class ValueModel:
    """A loaded model: ``vm`` the packed weights, ``meta`` what they are."""

    name: str
    vm: np.ndarray = field(repr=False, compare=False)
    meta: dict = field(repr=False, compare=False)

    @property
    def levels(self) -> list[int]:
        """The stock sizes the model values."""
        return list(self.meta.get("levels", []))

    @property
    def exact_level(self) -> int | None:
        """The level fitted to exact expectimax labels (the others are
        fitted to sampled labels with the next level's model inside)."""
        for k, fig in sorted(self.meta.get("figures", {}).items(), key=lambda kv: int(kv[0])):
            if fig.get("labels") == "exact expectimax":
                return int(k)
        return None

    def _exact_figure(self, name: str) -> float | None:
        lv = self.exact_level
        if lv is None:
            return None
        return self.meta["figures"][str(lv)].get(name)

    def rmse(self, stock: int | None = None) -> float | None:
        """The held-out RMSE in points against exact expectimax, measured
        at the exact level (the only one where exact values are affordable
        for thousands of states), or None."""
        return self._exact_figure("test_rmse_points")

    def play_error(self, stock: int | None = None) -> float | None:
        """The measured RMSE in points of the difference between two plays'
        values by the deal search against exact expectimax (decisions of
        the deal that ends at the exact level): the search's error when it
        compares plays, or None."""
        return self._exact_figure("play_diff_rmse_points")


def _load(path: Path) -> ValueModel:
    with np.load(path, allow_pickle=False) as z:
        vm = np.ascontiguousarray(z["vm"], dtype=np.float64)
        meta = json.loads(str(z["meta"]))
    return ValueModel(path.stem, vm, meta)


@lru_cache(maxsize=None)
def shipped() -> tuple[ValueModel, ...]:
    """Every model in the package's data folder."""
    return tuple(_load(p) for p in sorted(DATA.glob("*.npz")))


def shuffled_game(rules, players: int):
    """A game with a shuffled stock, leader seat 0 (the training frame:
    the values are for the leader's side, which is side 0)."""
    from ..engine.hand import Hand
    return Hand(rules, players, 0, [0] * (40 - rules.table_cards), shuffled=True)


def signature(P: np.ndarray) -> list[int]:
    """The rule parameters a model depends on: ``P`` up to ``P_DECL_MAX``
    (the rules of two sides playing for points; the later entries say how
    the state is tracked and the match objective) without the leader."""
    from ..engine.core import P_DECL_MAX, P_LEADER
    sig = [int(v) for v in P[:P_DECL_MAX + 1]]
    sig[P_LEADER] = 0
    return sig


def find(P: np.ndarray) -> ValueModel | None:
    """The shipped model for the rules of compiled parameters ``P`` (a
    game with a shuffled stock), or None: two sides playing for points
    with an untracked state (the x word 0), the rules as trained."""
    from ..engine.core import P_GENERAL, P_MATCH, P_NSIDES
    if P[P_NSIDES] != 2 or P[P_GENERAL] != 0 or P[P_MATCH] != 0:
        return None
    sig = signature(P)
    for m in shipped():
        if m.meta.get("signature") == sig:
            return m
    return None


def find_for(rules, players: int) -> ValueModel | None:
    """The shipped model for ``rules`` with ``players`` players, or None."""
    if rules.voleur or players not in (2, 4):
        return None
    return find(shuffled_game(rules, players).P)
