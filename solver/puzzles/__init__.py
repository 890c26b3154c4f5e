"""Teaching puzzles: what a puzzle is and how it is verified
(:mod:`~solver.puzzles.puzzle`), composing them with CP-SAT
(:mod:`~solver.puzzles.compose`), mining them from self-play
(:mod:`~solver.puzzles.mine`), their themes
(:mod:`~solver.puzzles.themes`), the explanation of a line
(:mod:`~solver.puzzles.explain`), printable sheets
(:mod:`~solver.puzzles.sheet`)."""
