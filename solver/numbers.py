"""Values as numbers people read: exact where the method is exact.

The searches compute in floating point, so a value of 5 can come out as
4.999999999999999. What the methods guarantee decides how a value is
printed (issue 10):

- ``exact`` (every card known): every value is a whole number of
  half-points, printed exactly (``5``, ``-2.5``).
- ``expectimax`` (stock order unknown): a value is an average over equally
  likely deals, so it is a fraction whose denominator divides
  ``2 * N1 * N2 * ...``, ``Nd`` the number of ways the deal ``d`` still to
  come can fall (which cards each seat gets). :func:`exact_fraction`
  recovers that fraction from the float; JSON prints the value rounded to
  :data:`DECIMALS` decimals, and ``--exact`` adds the fraction.
- ``equilibrium`` and ``determinised``: rounded to :data:`DECIMALS`
  decimals (an LP optimum and a sample mean carry no exact denominator).

JSON has no infinity and no NaN: a value that is not finite is written
``null`` (e.g. ``lead_z`` when the best play led by the same margin in
every sample: no spread to measure the lead against; the document says
so beside it).

>>> plain(float("inf"), "rounded") is None, tidy([1.0, float("nan"), 2.5])
(True, [1, None, 2.5])
"""

from __future__ import annotations

import math

from fractions import Fraction
from math import comb

from .position import Position
from .rules import deal_sizes, stock_sizes

#: decimals of a value that is not a whole number of half-points
DECIMALS = 6

#: a recovered fraction must sit this close (in units of 1/denominator)
#: to the float, else the float's rounding could have picked the wrong one
_SLACK = 1e-3


def deal_denominator(pos: Position) -> int | None:
    """``2 * N1 * N2 * ...`` for a position whose hands are known and whose
    stock order is not: ``Nd`` the number of equally likely ways deal
    ``d`` still to come can fall (cards to each seat, in seat order). Every
    expectimax value of ``pos`` is a multiple of ``1 / denominator``
    points. None when a hand is hidden (no exact denominator)."""
    if any(c is None for h in pos.hands for c in h):
        return None
    n = len(pos.stock)
    if n == 0:
        return 2
    sizes = deal_sizes(pos.rules, pos.players)
    k = stock_sizes(pos.rules, pos.players).get(n)
    if k is None:
        return None
    q = 2
    for size in sizes[k:]:
        for _seat in range(pos.players):
            q *= comb(n, size)
            n -= size
    return q


def exact_fraction(value: float, denominator: int | None) -> Fraction | None:
    """The fraction with ``denominator`` (reduced) nearest ``value``, or None
    when there is no denominator or the float is too far from every
    multiple of ``1/denominator`` for the recovery to be sure."""
    if denominator is None:
        return None
    scaled = value * denominator
    nearest = round(scaled)
    if abs(scaled - nearest) > _SLACK:
        return None
    return Fraction(nearest, denominator)


def plain(value: float | None, method: str) -> float | int | None:
    """``value`` for JSON: an int when whole, half-points exact for
    ``exact``, else rounded to :data:`DECIMALS` decimals; None for None,
    an infinity or NaN (JSON has none)."""
    if value is None or not math.isfinite(value):
        return None
    if method == "exact":
        halves = round(value * 2)
        return halves // 2 if halves % 2 == 0 else halves / 2
    rounded = round(value, DECIMALS)
    if rounded == int(rounded):
        return int(rounded)
    return rounded


def fraction_text(f: Fraction | None) -> str | None:
    """``"-227/40"``, ``"5"``, or None."""
    if f is None:
        return None
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def tidy(doc):
    """A JSON-ready copy of ``doc`` (dicts, lists, tuples, numbers, text)
    with every float rounded to :data:`DECIMALS` decimals and whole floats
    written as integers, so no value carries float noise
    (4.999999999999999 -> 5); an infinity or NaN becomes None."""
    if isinstance(doc, float):
        if not math.isfinite(doc):
            return None
        rounded = round(doc, DECIMALS)
        return int(rounded) if rounded == int(rounded) else rounded
    if isinstance(doc, dict):
        return {k: tidy(v) for k, v in doc.items()}
    if isinstance(doc, (list, tuple)):
        return [tidy(v) for v in doc]
    return doc


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1 (``"1 puzzle"``,
    ``"3 puzzles"``, ``"1,200 candidates"``)."""
    return f"{n:,} {word}{'s' * (n != 1)}"


def signed(x: float, spec: str = "g") -> str:
    """``x`` formatted by ``spec`` with its sign (``+5``, ``-2.5``,
    ``+0.25``), except a zero, which has none: ``0`` (``0.00`` for
    ``".2f"``), also when ``x`` only rounds to zero (``-0.001`` at two
    decimals), so that zero is written one way in every column.

    >>> signed(5), signed(-2.5), signed(0.0), signed(-0.001, ".2f"), signed(0.25, ".1f")
    ('+5', '-2.5', '0', '0.00', '+0.2')
    """
    body = format(abs(x), spec)
    if body.strip("0.") == "":
        return body
    return ("-" if x < 0 else "+") + body


def tenths(p: float) -> int:
    """A probability in tenths of a percent, rounded: what a chance shown
    to one decimal (:func:`percent`) reads (``0.5456`` -> 546: 54.6%),
    rounded as ``format(100 * p, ".1f")`` rounds (0.0005 -> 1: 0.1%)."""
    return round(float(format(100 * p, ".1f")) * 10)


def percent(p: float | None) -> str:
    """A chance to one decimal; under 0.05% and over 99.95% (but not 0 or
    1) as "<0.1%" and ">99.9%", so that a chance that decides the play
    never reads as 0.0% or 100.0%. "" for None."""
    if p is None:
        return ""
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 <= p < 1:
        return ">99.9%"
    return f"{tenths(p) / 10:.1f}%"


def percent_gap(whole: float, part: float) -> str:
    """The chance ``whole - part`` as printed beside :func:`percent` of
    both: the rounded whole less the rounded part, so that the part and
    the gap add up to the whole as the reader sees them (54.5% and 45.6%:
    8.9%, not the 9.0% the difference itself rounds to); "<0.1%" when the
    two round alike but differ, ">99.9%" for a gap under 1 that reads as
    100%; "" when there is no gap.

    >>> percent_gap(0.54549, 0.45551), percent_gap(0.5, 0.49999), percent_gap(0.3, 0.3)
    ('8.9%', '<0.1%', '')
    """
    gap = whole - part
    if gap <= 1e-12:
        return ""
    shown = tenths(whole) - tenths(part)
    if shown <= 0:
        return "<0.1%"
    if shown >= 1000 and gap < 1:
        return ">99.9%"
    return f"{shown / 10:.1f}%"


def points_gap(best: float, value: float) -> str:
    """The points ``best - value`` as printed beside both values at two
    decimals: the difference of the printed values, so that a loss and
    the two values it sits between add up as the reader sees them
    (-4.435 and -4.4449 print -4.43 and -4.44: 0.01); "<0.01" when the
    two print alike but differ, "" when there is no gap.

    >>> points_gap(-4.4351, -4.4449), points_gap(-4.435, -4.4449), points_gap(2.0, 2.0)
    ('<0.01', '0.01', '')
    >>> points_gap(1.5, -2.25)
    '3.75'
    """
    if best - value <= 1e-9:
        return ""
    shown = _hundredths(best) - _hundredths(value)
    return "<0.01" if shown <= 0 else f"{shown / 100:.2f}"


def _hundredths(x: float) -> int:
    """``x`` in hundredths as ``format(x, ".2f")`` prints it."""
    return round(float(format(x, ".2f")) * 100)


def apportion(parts: list[float], total: int) -> list[int]:
    """``parts`` (non-negative, summing to 1) as whole numbers summing to
    ``total`` (100 for whole percents, 1000 for tenths): each rounded
    down, then the units left over given to the largest remainders (ties
    to the earlier part), so that printed shares of a whole add up to it.

    >>> apportion([1/3, 1/3, 1/3], 100), apportion([0.545, 0.455], 100)
    ([34, 33, 33], [55, 45])
    """
    scaled = [max(0.0, p) * total for p in parts]
    # a part a float's breadth under a whole number is that number
    floors = [math.floor(x + 1e-9) for x in scaled]
    left = total - sum(floors)
    order = sorted(range(len(parts)), key=lambda i: (-(scaled[i] - floors[i]), i))
    for i in order[:max(0, left)]:
        floors[i] += 1
    return floors
