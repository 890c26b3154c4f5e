"""The value of the deals to come: ``V(state at a deal boundary)``.

At a deal boundary every hand is empty and the next hands are about to be
dealt from a stock whose order nobody knows: what is left of the hand is a
chance node that both players face blind. Its value (the expected points
for the side to move, within each deal both players playing perfectly,
chance dealing the next hands: the project's expectimax definition) is
exact where it is affordable and learned elsewhere:

- :mod:`solver.value.net`: the features of a boundary state and the
  learned model's evaluation, in numba (callable from the compiled
  searches; no dependency beyond numpy and numba);
- :mod:`solver.value.model`: the shipped models (``data/*.npz``), found by
  the rules they were trained for;
- :mod:`solver.value.train`: the offline training (fitted value iteration
  over the deal boundaries, scikit-learn, the ``train`` extra), with the
  command that rebuilt each shipped file.
"""
