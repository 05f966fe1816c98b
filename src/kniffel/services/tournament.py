"""Bots against bots: every pairing, or all at one table, each deal played from every seat.

>>> from kniffel import rules
>>> from kniffel.services.tournament import Tournament, tournament
>>> request = Tournament(rules.get("kniffel"), ["bot", "bot:optimal"], deals=100, seed=1)
>>> request.tables, request.games
([(0, 1)], 200)
>>> result = tournament(request)                                   # doctest: +SKIP
>>> result.games, [record.player for record in result.pairings()]  # doctest: +SKIP
(200, ['bot'])

A :class:`Tournament` is what a run plays (rule set, bots, deals, seed, pairings or one table), checked
when it is made; :func:`tournament` plays it here, :func:`kniffel.services.cluster.tournament` on Ray.

**Deals.** A deal is the dice of one game. Deal ``d`` of the run with ``seed`` has the seed that game
``d`` of :func:`kniffel.services.simulate.simulate` with that seed has, and each seat's throws are drawn from
it by seat, turn and throw: the third throw of seat 1's fifth turn is the same five dice whoever sits there
and however the game went before (a throw of fewer dice takes the first of them). Choices never draw dice.
Every deal is played once per seating: a pairing twice, the seats swapped; a table of ``n`` players ``n``
times, the seats rotated, so each player plays each seat's dice once. Luck is shared out alike (duplicate
play), and a bot against itself wins exactly half.

What the games add up to (records, win rates with their intervals, Elo-scale ratings) and the plot are
in :mod:`kniffel.services.standings`; its names are importable from here too.

The work is split into :func:`play_match` calls over ranges of deals, which give the same games wherever
and in whatever order they run; :func:`combine` adds them up (:mod:`kniffel.services.cluster` runs them on
Ray).
:func:`tournament` plays the deals in blocks of a few seconds, every table in turn, so that Ctrl-C keeps
the games of the blocks every table finished (:class:`TournamentInterrupted`, a partial result).

**Compiled play.** On rules the exact solver covers, a table whose players are all built-in bots playing
for points (``bot:optimal``), to win (``bot:win``) or for a target (``bot:target:T``), the levels
(``bot:1`` to ``bot:8``), or the heuristic bot (``bot``) on a sheet without free throws, plays all its
games at once in compiled code (:func:`kniffel.core.winplay.play_to_win`): thousands of games a second
instead of tens. The heuristic values an entry as its points plus the change of a table over the column's
states (:meth:`kniffel.planning.HeuristicPlanner.potential`), so its turn is the solver's turn played by
that table; a level below 7 plays the solver's table as it sees it
(:func:`kniffel.planning.levels.seen_values`). The games are the engine's, except that a player may break
an exact tie between equally good options another way.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from itertools import combinations, pairwise

import numpy as np

from kniffel import bots
from kniffel.base.errors import KniffelError
from kniffel.core import AIM_POINTS, AIM_WIN, MASK64, Progress, deal_seed, dealt_faces, mix64
from kniffel.engine.game import MAX_PLAYERS, Game
from kniffel.planning import is_exact
from kniffel.planning.play_tables import PlayTables
from kniffel.rules import RuleSet
from kniffel.services.plans import OwnTable, Plan, Role, resolve
from kniffel.services.simulate import BLOCK_SECONDS, Interrupted, blocks
from kniffel.services.standings import (
    Match,
    TournamentResult,
    labels,
)


class TournamentError(KniffelError):
    """A tournament that cannot be played as asked (too few players, a bad count, an unknown bot)."""


class TournamentInterrupted(Interrupted["TournamentResult"]):
    """Ctrl-C during :func:`tournament`: the games of the blocks of deals every table finished
    (:attr:`TournamentResult.partial`)."""


# --- dice --------------------------------------------------------------------------------------------


class DealDice:
    """The dice of one deal, drawn by (seat, turn, throw) so that they do not depend on the play
    (:func:`kniffel.core.dealt_faces`; the compiled games of
    :mod:`kniffel.core.winplay` throw the same).

    Follows a game (:meth:`follow`) to know who throws in which turn; a throw of ``n`` dice takes the
    first ``n`` faces that the throw's position draws."""

    def __init__(self, seed: int) -> None:
        self.seed = seed & MASK64
        self._game: Game | None = None
        self._position: tuple[int, int] = (-1, -1)
        self._throws = 0

    def follow(self, game: Game) -> None:
        self._game = game

    def throw(self, n: int) -> tuple[int, ...]:
        if self._game is None:
            raise RuntimeError("DealDice.follow(game) must come before the first throw")
        seat = self._game.current
        position = (seat, len(self._game.sheets[seat].entries))
        if position != self._position:
            self._position, self._throws = position, 0
        self._throws += 1
        seat, turn = position
        return dealt_faces(self.seed, seat, turn, self._throws, n)


# --- playing -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tournament:
    """A tournament as asked: the bots ``specs`` on ``rules``, every pairing of them (or all of them at one
    ``table``) playing ``deals`` deals of the run with ``seed``, each once per seating.

    Checked when it is made: :class:`TournamentError` unless the players are known bots, enough and not
    too many, and the counts whole numbers. ``specs`` is kept as a tuple."""

    rules: RuleSet
    specs: Sequence[str]
    _: KW_ONLY
    deals: int
    seed: int
    table: bool = False

    def __post_init__(self) -> None:
        specs = tuple(self.specs)
        object.__setattr__(self, "specs", specs)
        if len(specs) < 2:
            raise TournamentError(f"a tournament needs at least 2 players, got {len(specs)}")
        if self.table and len(specs) > MAX_PLAYERS:
            raise TournamentError(f"a table seats at most {MAX_PLAYERS} players, got {len(specs)}")
        deals, seed = self.deals, self.seed
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise TournamentError(f"the number of games must be a positive whole number, got {deals!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TournamentError(f"the seed must be a whole number, got {seed!r}")
        for spec in specs:
            try:
                bots.make(spec, seed=0)
            except bots.BotError as error:
                raise TournamentError(str(error)) from None

    @property
    def tables(self) -> list[tuple[int, ...]]:
        """Who sits together (indices into ``specs``): every pairing, or all of the players at one table."""
        if self.table:
            return [tuple(range(len(self.specs)))]
        return list(combinations(range(len(self.specs)), 2))

    @property
    def games(self) -> int:
        """The games it plays: every deal once per seating at every table."""
        return sum(self.deals * len(players) for players in self.tables)

    def aims(self) -> set[int]:
        """The aims (:meth:`kniffel.planning.Goal.aim`) of the players of the tables that play compiled:
        what their :class:`Prepared` tables are made for."""
        aims: set[int] = set()
        for players in self.tables:
            roles = compiled_roles(self.rules, self.specs, players)
            aims |= {role for role in roles or () if isinstance(role, int)}
        return aims


def play_match(
    request: Tournament,
    players: tuple[int, ...],
    first_deal: int,
    deals: int,
    *,
    compiled: bool = True,
    progress: Progress | None = None,
    prepared: Prepared | None = None,
) -> Match:
    """Deals ``first_deal`` to ``first_deal + deals - 1`` of ``request`` at the table of ``players``
    (indices into its ``specs``), each once per seating. ``progress(done, total)`` counts this call's
    games.

    A table that :func:`compiled_plans` gives plans plays all its games at once in compiled code (see
    the module's description) unless ``compiled`` is false; it reads its tables from ``prepared`` (made
    for this call if not given)."""
    rules, specs, seed = request.rules, request.specs, request.seed
    plans = compiled_plans(rules, specs, players) if compiled else None
    if plans is not None:
        prepared = prepared if prepared is not None else Prepared(rules)
        return _play_compiled(players, plans, seed, first_deal, deals, progress, prepared)
    names = labels(specs)
    n = len(players)
    scores = np.zeros((deals, n, n), dtype=np.int64)
    start = time.perf_counter()
    for d in range(deals):
        seed_of_deal = deal_seed(seed, first_deal + d)
        for seating in range(n):
            seated = [players[(i + seating) % n] for i in range(n)]
            dice = DealDice(seed_of_deal)
            game = Game(rules, [names[p] for p in seated], dice=dice)
            dice.follow(game)
            # a bot's own seed is apart from the dice: its choices never change what the dice show
            players_bots = [
                bots.make(specs[p], seed=mix64(seed_of_deal ^ mix64(((seating << 8) | seat) + 1)))
                for seat, p in enumerate(seated)
            ]
            bots.play(game, players_bots)
            for seat, total in enumerate(game.totals):
                scores[d, seating, (seat + seating) % n] = total
            if progress is not None:
                progress(d * n + seating + 1, deals * n)
    return Match(players, first_deal, scores, time.perf_counter() - start)


def compiled_plans(rules: RuleSet, specs: Sequence[str], players: Sequence[int]) -> list[Plan] | None:
    """For each player of the table its plan (:func:`kniffel.services.plans.resolve`) when all of them
    are built-in bots that play compiled on ``rules`` (each plan has a role); None when the table is
    played through the engine."""
    if not is_exact(rules):
        return None
    plans: list[Plan] = []
    for p in players:
        plan = resolve(rules, specs[p])
        if plan.role is None:
            return None
        plans.append(plan)
    return plans


def compiled_roles(rules: RuleSet, specs: Sequence[str], players: Sequence[int]) -> tuple[Role, ...] | None:
    """For each player of the table its role in compiled play (see the module's description) when all of
    them are built-in bots that play compiled on ``rules``; None when the table is played through the
    engine."""
    plans = compiled_plans(rules, specs, players)
    return None if plans is None else tuple(role for plan in plans if (role := plan.role) is not None)


Prepared = PlayTables
"""The tables compiled play reads (:class:`kniffel.planning.play_tables.PlayTables`)."""


def _play_compiled(
    players: tuple[int, ...],
    plans: Sequence[Plan],
    seed: int,
    first_deal: int,
    deals: int,
    progress: Progress | None,
    prepared: Prepared,
) -> Match:
    from kniffel.core import play_to_win

    n = len(players)
    games = deals * n
    aims = [plan.role if isinstance(plan.role, int) else AIM_POINTS for plan in plans]
    values = [plan.own_values() for plan in plans]
    goals = {aim for aim in aims if aim != AIM_POINTS}
    alone = [plan.search for plan in plans if isinstance(plan, OwnTable)]
    # heuristic bots alone play by their own tables: the solver's is not loaded (nor solved)
    source = alone[0].compiled[0] if len(alone) == n else prepared.solution

    def report(done: int, total: int) -> None:
        if progress is not None:
            progress(games * done // total, games)

    start = time.perf_counter()
    played = play_to_win(
        source,
        players=n,
        deals=deals,
        seed=seed,
        aims=aims,
        first_deal=first_deal,
        targets=prepared.targets_for(goals) if goals else None,
        distributions=prepared.distributions if AIM_WIN in goals else None,
        early=prepared.early if AIM_WIN in goals else None,
        values=values,
        progress=report,
    )
    return Match(players, first_deal, played.by_deal(), time.perf_counter() - start)


def tournament(
    request: Tournament, *, progress: Progress | None = None, prepared: Prepared | None = None
) -> TournamentResult:
    """Every table of ``request`` plays its deals, each once per seating (see the module's description).
    ``progress(done, total)`` counts games. Compiled play reads its tables from ``prepared`` (to keep them
    from one tournament on these rules to the next), else from tables made for this call. Ctrl-C raises
    :class:`TournamentInterrupted` with the games of the blocks of deals every table finished."""
    if prepared is not None and prepared.rules != request.rules:
        raise ValueError("the prepared tables are of other rules")
    seated, total = request.tables, request.games
    prepared = prepared if prepared is not None else Prepared(request.rules)
    matches: list[Match] = []
    done = finished = 0
    try:
        # a block of deals at every table takes about BLOCK_SECONDS a table
        for first, size in blocks(request.deals, seconds=BLOCK_SECONDS * len(seated)):
            for players in seated:

                def report(count: int, _: int, before: int = done) -> None:
                    if progress is not None:
                        progress(before + count, total)

                matches.append(play_match(request, players, first, size, progress=report, prepared=prepared))
                done += size * len(players)
            finished = first + size
    except KeyboardInterrupt as interrupt:
        kept = [match for match in matches if match.first_deal < finished]
        raise TournamentInterrupted(combine(request, kept) if finished else None) from interrupt
    return combine(request, matches)


def combine(request: Tournament, matches: Sequence[Match]) -> TournamentResult:
    """The tournament ``request`` whose games ``matches`` hold: for every table, consecutive deals from 0,
    in any order (from :func:`play_match` calls run anywhere). Fewer deals than the request's make a
    partial result."""
    whole: list[Match] = []
    deals: int | None = None
    for players in request.tables:
        parts = sorted((m for m in matches if m.players == players), key=lambda m: m.first_deal)
        if not parts or parts[0].first_deal != 0:
            raise TournamentError(f"no games from deal 0 for the table {players}")
        if any(a.first_deal + a.deals != b.first_deal for a, b in pairwise(parts)):
            raise TournamentError(f"the deals of the table {players} are not consecutive")
        scores = np.concatenate([m.scores for m in parts])
        if deals is None:
            deals = scores.shape[0]
        elif scores.shape[0] != deals:
            raise TournamentError("every table must play the same deals")
        whole.append(Match(players, 0, scores, sum(m.seconds for m in parts)))
    played = deals or 0
    if played > request.deals:
        raise TournamentError(f"the number of deals played, {played}, is more than the {request.deals} asked")
    short = request.deals if request.deals > played else None
    rules, specs = request.rules, tuple(request.specs)
    return TournamentResult(
        rules.id,
        dict(rules.options),
        specs,
        request.seed,
        played,
        request.table,
        tuple(whole),
        deals_asked=short,
    )


__all__ = [
    "DealDice",
    "Prepared",
    "Tournament",
    "TournamentError",
    "TournamentInterrupted",
    "combine",
    "compiled_plans",
    "compiled_roles",
    "play_match",
    "tournament",
]
