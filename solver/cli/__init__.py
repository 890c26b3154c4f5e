"""The ``ronda-solve`` command: click commands and rich rendering, and
nothing else (every command calls the library).

- :mod:`~solver.cli.main`: the group and the default command (solve a
  position file); :mod:`~solver.cli.render`: its tables;
- :mod:`~solver.cli.games`: ``play``, ``arena``, ``annotate``
  (:mod:`~solver.cli.render_games`);
- :mod:`~solver.cli.puzzles`: ``puzzles generate|check|quiz|sheet``;
- :mod:`~solver.cli.met`: ``met``, and :mod:`~solver.cli.render_match`
  for the match objective;
- :mod:`~solver.cli.batch`: ``batch`` and ``db``;
- :mod:`~solver.cli.serve`: ``serve``.
"""
