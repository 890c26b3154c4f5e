"""The JSON document of an analysed position (README, ``--json``): what the
command line, the web API and the batch store print for one position."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .evaluation import Analysis

from ..notation import format_position
from ..numbers import deal_denominator, exact_fraction, fraction_text, plain, tidy
from ..position import Position, seat_names


def pv_text(pos: Position, pv: list[str]) -> str:
    names = seat_names(pos.players)
    out = []
    seat = pos.turn
    for i, move in enumerate(pv):
        out.append(f"{names[seat]}:{move}")
        seat = (seat + 1) % pos.players
    return " ".join(out)


#: why a ``lead_z`` is null although the play was sampled (JSON has no infinity)
LEAD_EVERY_SAMPLE = "the best play led by the same margin in every sample"


def _lead_note(lead_z: float | None) -> dict:
    """``{"lead_z_note": ...}`` when ``lead_z`` is infinite (the best play
    led this one by the same margin in every sample: no spread to measure
    the lead against, so a lead past any z), else nothing."""
    if lead_z is not None and lead_z == float("inf"):
        return {"lead_z_note": LEAD_EVERY_SAMPLE}
    return {}


def analysis_json(a: Analysis, line: int, exact: bool = False) -> dict:
    """The JSON document of one analysed position (see README). Values are
    printed as the method guarantees them (:mod:`solver.numbers`): whole
    numbers as integers, ``exact`` in half-points, the others rounded to
    :data:`~solver.numbers.DECIMALS` decimals. With ``exact``, each value
    also as a fraction string (``value_exact``; null when the method has
    none)."""
    pos = a.position
    m = a.method
    fractions = exact_values(a) if exact else None
    doc = {
        "line": line,
        "position": format_position(pos),
        "turn": pos.seat_name(pos.turn),
        "method": m,
        "value": plain(a.value, m),
        "stderr": plain(a.stderr, "rounded"),
        "moves": [{"move": mv.move, "value": plain(mv.value, m),
                   "stderr": plain(mv.stderr, "rounded"),
                   "effect": mv.effect, "best_rate": plain(mv.best_rate, "rounded"),
                   "ci99": None if mv.stderr is None else
                   [plain(mv.value - 2.58 * mv.stderr, "rounded"),
                    plain(mv.value + 2.58 * mv.stderr, "rounded")],
                   "lead_z": plain(mv.lead_z, "rounded"),
                   **_lead_note(mv.lead_z)} for mv in a.moves],
        "best": a.best,
        "pv": a.pv,
        "nodes": a.nodes,
        "seconds": round(a.seconds, 6),
        "samples": a.samples,
        "seed": a.seed,
        "note": a.note,
        "stopped": a.stopped,
        "partial": a.partial,
        "workers": a.workers,
        "ess": None if a.ess is None else round(a.ess, 1),
    }
    if a.values is not None:        # three players: one entry per seat
        doc["values"] = [plain(x, m) for x in a.values]
        for mv, out in zip(a.moves, doc["moves"]):
            out["values"] = [plain(x, m) for x in (mv.values or [])]
    doc = tidy(doc)
    if fractions is not None:
        doc["value_exact"] = fraction_text(fractions.get(None))
        for mv, out in zip(a.moves, doc["moves"]):
            out["value_exact"] = fraction_text(fractions.get(mv.move))
    return doc


def exact_values(a: Analysis) -> dict:
    """Each play's value as an exact :class:`~fractions.Fraction` (key the
    move text; ``None`` the position's value) when the method is exact or
    expectimax; an empty dict otherwise. A value whose fraction cannot be
    recovered surely is left out."""
    if a.method == "exact":
        den = 2
    elif a.method == "expectimax":
        den = deal_denominator(a.position)
    else:
        return {}
    out = {None: exact_fraction(a.value, den)}
    for mv in a.moves:
        out[mv.move] = exact_fraction(mv.value, den)
    return {k: v for k, v in out.items() if v is not None}
