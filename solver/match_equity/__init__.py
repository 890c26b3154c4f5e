"""Playing for the match: match-equity tables and the match objective.

- :mod:`.selfplay`: the outcome of whole hands measured by self-play, kept
  as each hand's ordered score awards (so that under ``win_check =
  immediate`` it is known when a side would cross the target mid-hand);
- :mod:`.table`: the dynamic program over scores that turns those hands
  into a match-equity table, the tables shipped in ``data/``, and looking
  a value up (:func:`.table.load`, :meth:`.table.MatchTable.equity`);
- :mod:`.evaluate`: the match objective, exact (every card known),
  expectimax (stock order unknown) and determinised, on the compiled
  core (the table's values are its leaves: :func:`.table.equity_array`);
- :mod:`.annotate`: marks by loss of match-winning chance.

Every equity is a probability in [0, 1] that a side wins the match.
"""
