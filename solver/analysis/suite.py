"""Test-suite mode (as EPD suites for chess engines): compare an analysis
with the ``bm``, ``am`` and ``v`` opcodes of its position line."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .evaluation import Analysis

from ..cards import CardError, parse_card
from ..numbers import signed


def _ranks(text: str) -> set[int]:
    return {parse_card(t).rank for t in text.split()}


def verdicts(a: Analysis) -> list[tuple[str, bool, str]]:
    """``(opcode, agrees, sentence)`` for each of ``bm``, ``am``, ``v`` on
    the line. ``bm`` agrees when every best play of the engine is listed;
    ``am`` when none is; ``vv`` (three players) when every entry of the
    value's vector is, as ``v``; ``v`` when the value is equal to the decimals the
    operand is written with (:func:`written_to`: ``v 3.059524`` agrees with
    3.0595238..., the JSON's six decimals; ``v 3`` with 3 alone, to 1e-9)
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
                ok = _agrees(operand, a.value, a.stderr)
                out.append((op, ok, f"v {operand}: {'agrees' if ok else 'disagrees'} (engine: {signed(a.value)})"))
            elif op == "vv":
                out.append(_vector_verdict(a, operand))
        except (CardError, ValueError) as e:
            out.append((op, False, f"{op} {operand}: cannot be read ({e})"))
    return out


def _vector_verdict(a, operand: str) -> tuple[str, bool, str]:
    """``vv`` (three players): the value's vector, one entry a seat, each
    equal to the decimals it is written with (within 2.58 standard errors
    when sampled)."""
    if a.values is None:
        return ("vv", False, f"vv {operand}: disagrees (a vector is for three players; this "
                             f"line has {a.position.players})")
    texts = operand.split()
    engine = " ".join(f"{x:g}" for x in a.values)
    if len(texts) != len(a.values):
        return ("vv", False, f"vv {operand}: disagrees (one entry a seat: {len(a.values)}, "
                             f"engine: {engine})")
    ok = all(_agrees(text, x, a.stderr) for text, x in zip(texts, a.values))
    return ("vv", ok, f"vv {operand}: {'agrees' if ok else 'disagrees'} (engine: {engine})")


def _agrees(text: str, value: float, stderr: float | None) -> bool:
    """``text`` (a number as written) agrees with ``value``: equal to the
    decimals it is written with, or within 2.58 standard errors (99%)
    when ``value`` is sampled. ValueError when ``text`` is not a number."""
    tol = max(1e-9, written_to(text))
    if stderr is not None:
        tol = max(tol, 2.58 * stderr)
    return abs(float(text) - value) <= tol


def written_to(number: str) -> float:
    """Half a unit of the last decimal ``number`` is written with: what
    rounding to those decimals may have taken off (0 for an integer).

    >>> written_to("3.059524"), written_to("4"), written_to("-1.5"), written_to("2.5e-3")
    (5e-07, 0.0, 0.05, 5e-05)
    """
    mantissa, _e, exponent = number.strip().lower().partition("e")
    if "." not in mantissa:
        return 0.0
    decimals = len(mantissa.split(".", 1)[1])
    return float(f"5e{(int(exponent) if exponent else 0) - decimals - 1}")
