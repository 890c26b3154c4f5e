"""Search algorithms. They see a game only through its small interface
(``moves``, ``play``, ``is_terminal``, ``tt_key``) and know nothing of the
rules: no hit, no missa, no card ever appears here.

- :mod:`.alphabeta`: exact perfect-information negamax alpha-beta with a
  transposition table, move ordering, every root move scored, principal
  variation.
- :mod:`.brute`: plain minimax without pruning or table, the cross-check.
- :mod:`.pimc`: determinised search (perfect-information Monte Carlo).
"""
