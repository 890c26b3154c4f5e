"""The JSON document of an analysed position (README, ``--json``): what the
command line and the web API print for one position, whatever the method
and the objective. Its JSON Schema is docs/schema/solve.json."""

from __future__ import annotations

from ..notation import format_position
from ..numbers import deal_denominator, exact_fraction, fraction_text, plain, tidy
from ..position import Position, seat_names
from .evaluation import Analysis
from .words import Z_CI99, summary_line


def pv_seats(pos: Position, pv: list[str]) -> list[dict]:
    """The principal variation with its seats: ``[{"seat": "S", "move":
    "7"}, ...]``, the seats taking turns from the mover."""
    names = seat_names(pos.players)
    return [{"seat": names[(pos.turn + i) % pos.players], "move": move}
            for i, move in enumerate(pv)]


def pv_text(pos: Position, pv: list[str]) -> str:
    """``S:7 N:12 S:2``: the principal variation as the screen writes it."""
    return " ".join(f"{p['seat']}:{p['move']}" for p in pv_seats(pos, pv))


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
    """The JSON document of one analysed position, whatever the method
    and the objective (README; docs/schema/solve.json). Values are printed
    as the method guarantees them (:mod:`solver.numbers`): whole numbers
    as integers, ``exact`` in half-points, the others rounded to
    :data:`~solver.numbers.DECIMALS` decimals. With ``exact``, each value
    also as a fraction string (``value_exact``; null when the method has
    none).

    ``value`` and each play's ``value`` and ``loss`` are points under
    both objectives; under the match objective the document also has
    ``chance`` (the best play's P(the mover's side wins the match)),
    ``chance_stderr``, ``table`` and ``match_samples``, and each play its
    ``chance``, ``chance_stderr`` and ``chance_loss``; ``best``, the order
    of ``moves`` and ``pv`` then follow the chance. ``summary`` is the
    answer in a player's words (:func:`solver.analysis.words.summary_line`),
    ``note`` the engineering detail, ``objective_note`` why the objective."""
    pos = a.position
    m = a.method
    fractions = exact_values(a) if exact else None
    match = a.objective == "match"
    moves = []
    for mv in a.moves:
        out = {"move": mv.move, "value": plain(mv.value, m),
               "stderr": plain(mv.stderr, "rounded"),
               "ci99": None if mv.stderr is None else
               [plain(mv.value - Z_CI99 * mv.stderr, "rounded"),
                plain(mv.value + Z_CI99 * mv.stderr, "rounded")],
               "loss": plain(max(0.0, a.value - mv.value), m),
               "effect": mv.effect, "best_rate": plain(mv.best_rate, "rounded"),
               "lead_z": plain(mv.lead_z, "rounded"), **_lead_note(mv.lead_z)}
        if match:
            out["chance"] = plain(mv.chance, "rounded")
            out["chance_stderr"] = plain(mv.chance_stderr, "rounded")
            out["chance_loss"] = plain(max(0.0, (a.chance or 0.0) - (mv.chance or 0.0)),
                                       "rounded")
        moves.append(out)
    doc = {
        "line": line,
        "position": format_position(pos),
        "turn": pos.seat_name(pos.turn),
        "objective": a.objective,
        "objective_note": a.objective_note,
        "summary": summary_line(a),
        "method": m,
        "value": plain(a.value, m),
        "stderr": plain(a.stderr, "rounded"),
        "moves": moves,
        "best": a.best,
        "pv": None if a.pv is None else pv_seats(pos, a.pv),
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
    if match:
        doc["chance"] = plain(a.chance, "rounded")
        doc["chance_stderr"] = plain(a.chance_stderr, "rounded")
        doc["match_method"] = a.match_method
        doc["match_samples"] = a.match_samples
        doc["match_ess"] = None if a.match_ess is None else round(a.match_ess, 1)
        doc["match_stopped"] = a.match_stopped
        doc["table"] = a.table
    if a.method in ("deal", "equilibrium") and "close" in a.extra:
        # the plays within the points estimate's error of the best (every
        # play when none was measured); under the match objective ``best``
        # is the match's
        doc["close"] = list(a.extra["close"])
    if "cluster" in a.extra:        # expectimax split over a cluster: its figures
        doc["cluster"] = a.extra["cluster"]
    if a.values is not None:        # three players: one entry per seat
        doc["values"] = [plain(x, m) for x in a.values]
        doc["search"] = a.extra.get("search", "maxn")
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
