"""The rules engine the searches run on, one for every rule system (two,
three or four players, Ronda voleur, the house rules) and objective
(points, the match).

- :mod:`.core`: the engine compiled with numba (card sets as unary-nibble
  ints, states as tuples of int64, no objects per node): plays with their
  gains and events, deals from a known stock, chance outcomes of a
  shuffled stock, leaf values; the hot path of every search.
- :mod:`.tables`: the rules and a known stock's deals as arrays (``P``,
  ``D``): the rule system as data.
- :mod:`.compile`, :mod:`.sampling`: from a friendly Position to a
  compiled problem, and the drawing of unknown cards.
- :mod:`.hand`: one hand on the core for Python callers that walk plays
  one at a time; :mod:`.scoring`: the small pure helpers (card sets,
  declarations, event points).
- :mod:`.history`: replaying ``hist=``; :mod:`.view_game`: the mover's
  view as a game tree for the equilibrium.

Every kernel is checked against the plain references of tests/.
"""
