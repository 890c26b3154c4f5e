"""Search algorithms. They see a game only through the compiled core's
interface (:mod:`solver.engine.core`: opaque state tuples, children rows,
chance nodes' deal rows, leaf values) and know nothing of the rules: no
hit, no missa, no card ever appears here.

- :mod:`.kernels`: negamax alpha-beta for two sides (points or the match
  objective's equities), with chance nodes (expectimax, Star1) and a
  lockless transposition table; :mod:`.parallel`, :mod:`.split`: its
  outcomes on other threads and other machines;
- :mod:`.kernels_vec`: three sides, max^n of vectors with shallow pruning
  and paranoid alpha-beta;
- :mod:`.compiled`, :mod:`.vectors`: the Python drivers (tables, threads,
  deadlines, determinised search), :mod:`.budget`: ``--time`` and
  ``--memory``;
- :mod:`.pimc`: the statistics of determinised search;
- :mod:`.equilibrium`: the sequence-form linear program of a two-player
  imperfect-information game.
"""
