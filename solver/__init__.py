"""ronda-solver: the analysis engine for Ronda, the Moroccan fishing card game.

The package by room:

- the vocabulary: :mod:`solver.cards` (ranks, suits), :mod:`solver.rules`
  (the rule parameters and presets), :mod:`solver.position` (the friendly
  position type), :mod:`solver.notation` (position lines),
  :mod:`solver.numbers` (values printed as the method guarantees them);
- :mod:`solver.engine`: the rules engine, compiled, one for every rule
  system and objective;
- :mod:`solver.search`: negamax alpha-beta, expectimax, determinisation,
  max^n and paranoid, the equilibrium LP; they know the game only through
  its interface;
- :mod:`solver.analysis`: evaluating a position's plays;
- :mod:`solver.games`: whole hands and matches, records, players, arena,
  annotation;
- :mod:`solver.match_equity`: playing for the match;
- :mod:`solver.puzzles`: teaching puzzles;
- :mod:`solver.batch`: collections on a Dask cluster, the analysis store;
- :mod:`solver.web`: the browser app;
- :mod:`solver.runtime`: signals, worker processes, output files;
- :mod:`solver.cli`: the ``ronda-solve`` command.
"""

__version__ = "0.1.0"
