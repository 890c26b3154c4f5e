"""Evaluating positions: every play's value, the best plays, the principal
variation, and what each play does.

- :mod:`~solver.analysis.evaluation`: :func:`evaluate`, the one entry point
  (it chooses the method and says which ran), every method on the one
  compiled engine, for every rule system and objective;
- :mod:`~solver.analysis.effects`: what a play does, in words;
- :mod:`~solver.analysis.inference`: weighing determinisations by the
  plays seen this deal; :mod:`~solver.analysis.hidden`: the mover's view;
- :mod:`~solver.analysis.suite`: the EPD-style opcodes ``bm am v``;
- :mod:`~solver.analysis.document`: the JSON document of an answer.

``from solver.analysis import evaluate`` works; the search core is loaded
only when it is first used.
"""

from __future__ import annotations

__all__ = ["Analysis", "METHODS", "MoveValue", "evaluate"]


def __getattr__(name: str):
    if name in __all__:
        from . import evaluation
        return getattr(evaluation, name)
    raise AttributeError(f"module 'solver.analysis' has no attribute {name!r}")
