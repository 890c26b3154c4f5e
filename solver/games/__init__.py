"""Whole games with real cards: dealing and playing hands and matches
(:mod:`~solver.games.match`), game records (:mod:`~solver.games.record`),
the players of self-play (:mod:`~solver.games.players`,
:mod:`~solver.games.human`), engine matches
(:mod:`~solver.games.arena`), annotating a played game
(:mod:`~solver.games.annotate`), seeded deals for tests and benchmarks
(:mod:`~solver.games.seeded`)."""
