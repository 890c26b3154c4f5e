"""What the search workers run for the play page (:mod:`solver.web.play`).

Like every task of :mod:`solver.web.tasks` these take plain values: an
engine seat's card is chosen from the seat's view as a position line (the
engine is given nothing else), a hint is the analysis of the person's view,
a review is ``annotate --json`` of the game's record with the analysis
store's earlier results standing in for their searches.
"""

from __future__ import annotations

import time

from ..notation import parse_position


def engine_move(line: str, level: int, seed: int, cap: float, progress=None) -> dict:
    """The card of engine level ``level`` for the view ``line`` (the mover
    to play), decision seed ``seed``, at most ``cap`` seconds
    (:func:`solver.games.levels.choose`): ``{"card", "note", "seconds"}``."""
    from ..games.levels import choose
    t0 = time.perf_counter()
    card, note = choose(level, parse_position(line), seed, cap)
    return {"card": str(card), "note": note, "seconds": round(time.perf_counter() - t0, 3)}


def hint(line: str, seed: int, cap: float, progress=None) -> dict:
    """The engine's analysis of a person's view ``line``: the document of
    ``ronda-solve --json`` (``auto``: the equilibrium of the deal late in a
    two-player hand, else determinised search weighted by the plays seen),
    within ``cap`` seconds. Raises ValueError (one line) when the search
    overruns its time anyway."""
    from ..games.levels import OutOfTime, alarm, hard_limit
    from .tasks import analyse
    try:
        with alarm(hard_limit(cap)):
            return analyse(line, method="auto", samples=1000, seed=seed, time_budget=cap,
                           progress=progress)
    except OutOfTime:
        raise ValueError(f"the hint's search took far longer than its {cap:g} s (the "
                         f"server's --time); try again, or play on") from None


def review(text: str, db: str | None, view: str = "player", samples: int = 32,
           seed: int = 0, luck_samples: int = 24, progress=None) -> dict:
    """``annotate --json`` of the (one) game in ``text``, as
    :func:`solver.web.tasks.annotate_game` gives it (``record`` included),
    with the searches already in the analysis store ``db`` (read only)
    taken from it: ``{"result": document, "computed": {key: result}
    searched now, "seconds"}``."""
    from ..batch.store import Store, StoreError
    from ..games.annotate import annotate, annotation_json
    from ..games.record import dumps, loads
    t0 = time.perf_counter()
    game = loads(text)
    options = {"view": view, "samples": samples, "seed": seed, "luck_samples": luck_samples}
    hits: dict = {}
    if db:
        keys = annotate(game, plan_only=True, **options)
        try:
            store = Store(db, readonly=True)
        except StoreError:
            store = None
        if store is not None:
            try:
                hits = store.lookup(keys)
            finally:
                store.close()

    def tick(done: int, total: int) -> None:
        if progress is not None:
            progress({"done": done, "of": total})

    computed: dict = {}
    an = annotate(game, cache=hits, computed=computed, progress=tick, **options)
    doc = annotation_json(an)
    doc["record"] = dumps(an.record)
    return {"result": doc, "computed": computed, "hits": len(hits),
            "seconds": round(time.perf_counter() - t0, 3)}
