"""The layer under everything: errors, dice combinatorics, keep lattices and translations. Nothing here
knows a rule set or a game."""
