"""The game itself, over the rules: score sheets, actions, :class:`~kniffel.engine.game.Game` and the
table text (:class:`~kniffel.engine.situation.Situation`)."""
