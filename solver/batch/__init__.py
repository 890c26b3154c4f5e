"""Whole game collections at scale (issue 14): ``ronda-solve batch
annotate|mine`` on a Dask cluster, with an analysis store in SQLite.

- :mod:`.store`: the SQLite store (schema, lookups, one transaction a game);
- :mod:`.inputs`: files, directories and globs into games;
- :mod:`.jobs`: what a worker does with one game (picklable functions);
- :mod:`.run`: the coordinator: plans each game, sends it with its store
  hits to the cluster, writes each result as it arrives;
- :mod:`.cli`: the ``batch`` and ``db`` commands.
"""
