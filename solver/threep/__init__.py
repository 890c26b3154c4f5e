"""Three players (french preset, seed 000: S, E, N, each its own side):
the Position glue (:mod:`.compile`) and the evaluation of a position
(:mod:`.analysis`). The game is :mod:`solver.engine.game3`, the searches
:mod:`solver.search.maxn`."""
