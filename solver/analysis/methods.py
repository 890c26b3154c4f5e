"""The names of the search methods and objectives, in a module that loads
nothing else: the command line builds its options from them without
loading the compiled core (``ronda-solve --help`` starts fast)."""

#: the methods of :func:`solver.analysis.evaluation.evaluate`
METHODS = ("auto", "exact", "expectimax", "equilibrium", "deal", "determinised")

#: the objectives of the command line (docs/match.md)
OBJECTIVES = ("auto", "points", "match")
