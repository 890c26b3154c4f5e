"""Test-suite mode (as EPD suites for chess engines): compare an analysis
with the ``bm``, ``am`` and ``v`` opcodes of its position line."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .evaluation import Analysis

from ..cards import CardError, parse_card


def _ranks(text: str) -> set[int]:
    return {parse_card(t).rank for t in text.split()}


def verdicts(a: Analysis) -> list[tuple[str, bool, str]]:
    """``(opcode, agrees, sentence)`` for each of ``bm``, ``am``, ``v`` on
    the line. ``bm`` agrees when every best play of the engine is listed;
    ``am`` when none is; ``v`` when the value is equal within 1e-9 (exact)
    or within 2.58 standard errors (sampled, 99%). A malformed operand is a
    disagreement that says so."""
    out = []
    best = {mv.rank for mv in a.moves if mv.move in a.best}
    from ..cards import RANKS
    best_ranks = {RANKS[r] for r in best}
    engine = " ".join(a.best)
    for op, operand in a.position.ops:
        try:
            if op == "bm":
                ok = best_ranks <= _ranks(operand)
                out.append((op, ok, f"bm {operand}: {'agrees' if ok else 'disagrees'} (engine: {engine})"))
            elif op == "am":
                ok = not (best_ranks & _ranks(operand))
                out.append((op, ok, f"am {operand}: {'agrees' if ok else 'disagrees'} (engine: {engine})"))
            elif op == "v":
                want = float(operand)
                tol = 1e-9 if a.stderr is None else max(1e-9, 2.58 * a.stderr)
                ok = abs(a.value - want) <= tol
                out.append((op, ok, f"v {operand}: {'agrees' if ok else 'disagrees'} (engine: {a.value:+g})"))
        except (CardError, ValueError) as e:
            out.append((op, False, f"{op} {operand}: cannot be read ({e})"))
    return out
