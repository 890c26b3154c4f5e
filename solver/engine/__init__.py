"""The compact engine the searches run on.

- :mod:`.game`: the pure-Python reference engine (:class:`~.game.Game`):
  card sets as unary-nibble ints, ``play`` with its gain and events, deals
  from a known stock, chance outcomes of a shuffled stock. Every compiled
  kernel is checked against it.
- :mod:`.compile`: from a friendly Position to the compact game and state,
  and the sampling of unknown cards.
- :mod:`.core`: the same engine compiled with numba (small ints, no objects
  per node), the hot path of the compiled searches.
"""
