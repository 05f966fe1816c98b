"""What every front end uses, over the planners and bots: a session at the table, reviews, simulation,
tournaments, the Ray cluster, the advice engine and a player's record."""
