"""ronda-solver: the analysis engine for Ronda, the Moroccan fishing card game.

Architecture (one module a concern):

- :mod:`solver.cards`: ranks, suits, card parsing.
- :mod:`solver.rules`: the rule parameters and presets.
- :mod:`solver.position`: the friendly position type.
- :mod:`solver.notation`: position lines, parse and format.
- :mod:`solver.engine.game`: the compact rules engine the search runs on.
- :mod:`solver.search`: negamax alpha-beta, brute force, determinisation.
- :mod:`solver.analysis`: evaluating a position's moves.
- :mod:`solver.cli`: the ``ronda-solve`` command.
"""

__version__ = "0.1.0"
