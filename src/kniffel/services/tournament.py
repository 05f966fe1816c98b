"""Bots against bots: every pairing, or all at one table, each deal played from every seat.

>>> from kniffel import rules
>>> from kniffel.services.tournament import tournament
>>> result = tournament(rules.get("kniffel"), ["bot", "bot:optimal"], deals=100, seed=1)  # doctest: +SKIP
>>> result.games, [record.player for record in result.pairings()]                      # doctest: +SKIP
(200, ['bot'])

**Deals.** A deal is the dice of one game. Deal ``d`` of the run with ``seed`` has the seed that game
``d`` of :func:`kniffel.services.simulate.simulate` with that seed has, and each seat's throws are drawn from
it by seat, turn and throw: the third throw of seat 1's fifth turn is the same five dice whoever sits there
and however the game went before (a throw of fewer dice takes the first of them). Choices never draw dice.
Every deal is played once per seating: a pairing twice, the seats swapped; a table of ``n`` players ``n``
times, the seats rotated, so each player plays each seat's dice once. Luck is shared out alike (duplicate
play), and a bot against itself wins exactly half.

**Ties** count as the rules count them: equal totals share a rank. A shared first place is an equal share
of one win (half a win each between two players), in the win rates and in the ratings.

**Win rates** come with 95 % Wilson score intervals over the games played. The games of one deal are
not independent: played from both seats, their luck cancels, which makes the intervals conservative.

**Ratings** are on the Elo scale (400 points difference = 10 to 1 odds of winning), fitted by Bradley-Terry
maximum likelihood to the results of every pair of players in every game (at a table, each pair of its
players counts as one comparison), with one virtual drawn game per pair so that a player who never loses
still gets a finite rating; they average 1500. Their standard errors come from the likelihood's curvature.

The work is split into :func:`play_match` calls over ranges of deals, which give the same games wherever
and in whatever order they run; :func:`combine` adds them up (:mod:`kniffel.services.cluster` runs them on
Ray).
:func:`tournament` plays the deals in blocks of a few seconds, every table in turn, so that Ctrl-C keeps
the games of the blocks every table finished (:class:`TournamentInterrupted`, a partial result).

**Compiled play.** On rules the exact solver covers, a table whose players are all built-in bots playing
for points (``bot:optimal``), to win (``bot:win``) or for a target (``bot:target:T``), or the heuristic
bot (``bot``) on a sheet without free throws, plays all its games at once in compiled code
(:func:`kniffel.core.winplay.play_to_win`): thousands of games a second instead of tens. The heuristic
values an entry as its points plus the change of a table over the column's states
(:meth:`kniffel.planning.HeuristicPlanner.potential`), so its turn is the solver's turn played by that
table. The games are the engine's, except that a player may break an exact tie between equally good
options another way.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

import numpy as np
import numpy.typing as npt

from kniffel import bots
from kniffel.base.errors import KniffelError, plotting_unavailable
from kniffel.core import playkernels
from kniffel.core.play import MASK64, deal_seed, mix64
from kniffel.engine.game import MAX_PLAYERS, Game
from kniffel.planning import HeuristicPlanner, is_exact
from kniffel.planning.goals import AIM_POINTS, AIM_WIN
from kniffel.planning.play_tables import PlayTables
from kniffel.rules import RuleSet
from kniffel.services.simulate import BLOCK_SECONDS, Interrupted, blocks

if TYPE_CHECKING:
    from kniffel.planning.compiled import SheetSearch

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""
ELO = 400 / math.log(10)
"""Elo points per unit of the Bradley-Terry log-strength."""
MEAN_RATING = 1500.0
PRIOR_GAMES = 1.0
"""Virtual drawn games added to every pair of players before the rating fit."""


class TournamentError(KniffelError):
    """A tournament that cannot be played as asked (too few players, a bad count, an unknown bot)."""


class TournamentInterrupted(Interrupted["TournamentResult"]):
    """Ctrl-C during :func:`tournament`: the games of the blocks of deals every table finished
    (:attr:`TournamentResult.partial`)."""


# --- dice --------------------------------------------------------------------------------------------


class DealDice:
    """The dice of one deal, drawn by (seat, turn, throw) so that they do not depend on the play
    (:func:`kniffel.core.playkernels.deal_start`; the compiled games of
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
        faces = np.empty(n, dtype=np.int64)
        playkernels.deal_faces(np.uint64(self.seed), seat, turn, self._throws, faces)
        return tuple(int(face) for face in faces)


# --- playing -----------------------------------------------------------------------------------------


def labels(specs: Sequence[str]) -> tuple[str, ...]:
    """A name per player: its bot's spec, numbered from the second time a spec comes (``bot #2``)."""
    seen: dict[str, int] = {}
    names = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if seen[spec] == 1 else f"{spec} #{seen[spec]}")
    return tuple(names)


def tables(players: int, *, table: bool = False) -> list[tuple[int, ...]]:
    """Who sits together: every pairing of ``players`` players, or all of them at one table."""
    if table:
        return [tuple(range(players))]
    return list(combinations(range(players), 2))


def check_request(specs: Sequence[str], deals: int, seed: int, *, table: bool = False) -> None:
    """:class:`TournamentError` unless the players are known bots, enough and not too many, and the
    counts whole numbers."""
    if len(specs) < 2:
        raise TournamentError(f"a tournament needs at least 2 players, got {len(specs)}")
    if table and len(specs) > MAX_PLAYERS:
        raise TournamentError(f"a table seats at most {MAX_PLAYERS} players, got {len(specs)}")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise TournamentError(f"the number of games must be a positive whole number, got {deals!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TournamentError(f"the seed must be a whole number, got {seed!r}")
    for spec in specs:
        try:
            bots.make(spec, seed=0)
        except bots.BotError as error:
            raise TournamentError(str(error)) from None


@dataclass(frozen=True)
class Match:
    """The games of one table over consecutive deals.

    ``scores[d, s, k]`` is the final total of the table's ``k``-th player (``players[k]``, an index into
    the tournament's players) in deal ``first_deal + d`` played in seating ``s``, where seat ``i`` holds
    the table's player ``(i + s) % n``."""

    players: tuple[int, ...]
    first_deal: int
    scores: npt.NDArray[np.int64]
    seconds: float

    @property
    def deals(self) -> int:
        return int(self.scores.shape[0])


def play_match(
    rules: RuleSet,
    specs: Sequence[str],
    players: tuple[int, ...],
    seed: int,
    first_deal: int,
    deals: int,
    *,
    compiled: bool = True,
    progress: Callable[[int, int], None] | None = None,
    prepared: Prepared | None = None,
) -> Match:
    """Deals ``first_deal`` to ``first_deal + deals - 1`` at the table of ``players`` (indices into
    ``specs``), each once per seating. ``progress(done, total)`` counts this call's games.

    A table that :func:`compiled_roles` gives roles plays all its games at once in compiled code (see
    the module's description) unless ``compiled`` is false; it reads its tables from ``prepared`` (made
    for this call if not given)."""
    roles = compiled_roles(rules, specs, players) if compiled else None
    if roles is not None:
        prepared = prepared if prepared is not None else Prepared(rules)
        return _play_compiled(rules, specs, players, roles, seed, first_deal, deals, progress, prepared)
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
            for seat, total in enumerate(game.totals()):
                scores[d, seating, (seat + seating) % n] = total
            if progress is not None:
                progress(d * n + seating + 1, deals * n)
    return Match(players, first_deal, scores, time.perf_counter() - start)


HEURISTIC: Final = "heuristic"
"""The heuristic bot's role in compiled play (:func:`compiled_roles`): for points, by its own table."""

Role = int | Literal["heuristic"]
"""What a player does in compiled play: an aim of :func:`kniffel.core.winplay.play_to_win` (points,
win, or a target score), or :data:`HEURISTIC`."""


def compiled_roles(rules: RuleSet, specs: Sequence[str], players: Sequence[int]) -> tuple[Role, ...] | None:
    """For each player of the table its role in compiled play (see the module's description) when all of
    them are built-in bots that play compiled on ``rules``; None when the table is played through the
    engine."""
    if not is_exact(rules):
        return None
    roles: list[Role] = []
    for p in players:
        bot = bots.make(specs[p], seed=0)
        goal = bots.goal_of(bot)
        if goal is not None:
            roles.append(goal.aim())
        elif heuristic_search(rules, bot) is not None:
            roles.append(HEURISTIC)
        else:
            return None
    return tuple(roles)


def heuristic_search(rules: RuleSet, bot: bots.Bot) -> SheetSearch | None:
    """The compiled turn search of the heuristic ``bot`` on a sheet of one column that it covers (no
    free throws), whose one table is what compiled play plays the bot by; None for any other bot or
    sheet."""
    if not isinstance(bot, bots.HeuristicBot) or rules.multi_column:
        return None
    planner = bot.prepare(rules)  # the bot's own planner: its weights, made once per rule set
    return planner.search if isinstance(planner, HeuristicPlanner) else None


Prepared = PlayTables
"""The tables compiled play reads (:class:`kniffel.planning.play_tables.PlayTables`)."""


def aims_of(rules: RuleSet, specs: Sequence[str], *, table: bool = False) -> set[int]:
    """The aims (:meth:`kniffel.planning.Goal.aim`) of the players of the tables that play compiled: what
    their :class:`Prepared` tables are made for."""
    aims: set[int] = set()
    for players in tables(len(specs), table=table):
        roles = compiled_roles(rules, specs, players)
        aims |= {role for role in roles or () if isinstance(role, int)}
    return aims


def _play_compiled(
    rules: RuleSet,
    specs: Sequence[str],
    players: tuple[int, ...],
    roles: tuple[Role, ...],
    seed: int,
    first_deal: int,
    deals: int,
    progress: Callable[[int, int], None] | None,
    prepared: Prepared,
) -> Match:
    from kniffel.core.winplay import play_to_win

    n = len(players)
    games = deals * n
    searches = [
        heuristic_search(rules, bots.make(specs[p], seed=0)) if role == HEURISTIC else None
        for p, role in zip(players, roles, strict=True)
    ]
    aims = [role if isinstance(role, int) else AIM_POINTS for role in roles]
    values = [None if search is None else search.values[0] for search in searches]
    goals = {aim for aim in aims if aim != AIM_POINTS}
    alone = [search for search in searches if search is not None]
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
        targets=prepared.targets if goals else None,
        distributions=prepared.distributions if AIM_WIN in goals else None,
        early=prepared.early if AIM_WIN in goals else None,
        values=values,
        progress=report,
    )
    return Match(players, first_deal, played.by_deal(), time.perf_counter() - start)


def tournament(
    rules: RuleSet,
    specs: Sequence[str],
    *,
    deals: int,
    seed: int,
    table: bool = False,
    progress: Callable[[int, int], None] | None = None,
    prepared: Prepared | None = None,
) -> TournamentResult:
    """Every pairing of the bots ``specs`` (or all of them at one ``table``) plays ``deals`` deals of
    ``rules``, each once per seating (see the module's description). ``progress(done, total)`` counts
    games. Compiled play reads its tables from ``prepared`` (to keep them from one tournament on these
    rules to the next), else from tables made for this call. Ctrl-C raises
    :class:`TournamentInterrupted` with the games of the blocks of deals every table finished."""
    check_request(specs, deals, seed, table=table)
    if prepared is not None and prepared.rules != rules:
        raise ValueError("the prepared tables are of other rules")
    seated = tables(len(specs), table=table)
    total = sum(deals * len(players) for players in seated)
    prepared = prepared if prepared is not None else Prepared(rules)
    matches: list[Match] = []
    done = finished = 0
    try:
        # a block of deals at every table takes about BLOCK_SECONDS a table
        for first, size in blocks(deals, seconds=BLOCK_SECONDS * len(seated)):
            for players in seated:

                def report(count: int, _: int, before: int = done) -> None:
                    if progress is not None:
                        progress(before + count, total)

                matches.append(
                    play_match(rules, specs, players, seed, first, size, progress=report, prepared=prepared)
                )
                done += size * len(players)
            finished = first + size
    except KeyboardInterrupt as interrupt:
        kept = [match for match in matches if match.first_deal < finished]
        partial = combine(rules, specs, seed, kept, table=table, asked=deals) if finished else None
        raise TournamentInterrupted(partial) from interrupt
    return combine(rules, specs, seed, matches, table=table)


def combine(
    rules: RuleSet,
    specs: Sequence[str],
    seed: int,
    matches: Sequence[Match],
    *,
    table: bool = False,
    asked: int | None = None,
) -> TournamentResult:
    """The tournament whose games ``matches`` hold: for every table, consecutive deals from 0, in any
    order (from :func:`play_match` calls run anywhere). ``asked``: the deals the run was to play, when
    ``matches`` may hold fewer (a partial result)."""
    seated = tables(len(specs), table=table)
    whole: list[Match] = []
    deals: int | None = None
    for players in seated:
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
    short = asked if asked is not None and asked > played else None
    return TournamentResult(
        rules.id, dict(rules.options), tuple(specs), seed, played, table, tuple(whole), deals_asked=short
    )


# --- results -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rate:
    """A share of games won with its 95 % Wilson score interval."""

    value: float
    low: float
    high: float

    @classmethod
    def wilson(cls, won: float, games: int) -> Rate:
        if games == 0:
            return cls(math.nan, 0.0, 1.0)
        p = won / games
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * games)) / (1 + z2 / games)
        half = Z95 / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
        return cls(p, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Record:
    """How ``player`` did against ``opponent`` (or against everyone at its tables, ``opponent`` None).

    ``wins`` are games it won alone, ``ties`` games whose first place it shared, ``losses`` the rest;
    ``won`` counts a shared first place as an equal share of a win."""

    player: str
    opponent: str | None
    games: int
    wins: int
    ties: int
    losses: int
    won: float
    mean_score: float
    std: float
    opponent_mean_score: float | None = None
    rating: float | None = None
    rating_stderr: float | None = None

    @property
    def win_rate(self) -> Rate:
        return Rate.wilson(self.won, self.games)

    def to_json(self) -> dict[str, Any]:
        rate = self.win_rate
        data: dict[str, Any] = {"player": self.player}
        if self.opponent is not None:
            data["opponent"] = self.opponent
        data |= {
            "games": self.games,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "win_rate": rate.value,
            "win_rate_low": rate.low,
            "win_rate_high": rate.high,
            "mean_score": self.mean_score,
            "std": self.std,
        }
        if self.opponent_mean_score is not None:
            data["opponent_mean_score"] = self.opponent_mean_score
        if self.rating is not None:
            data["rating"] = self.rating
            data["rating_stderr"] = self.rating_stderr
        return data


CSV_COLUMNS = (
    "player",
    "opponent",
    "games",
    "wins",
    "ties",
    "losses",
    "win_rate",
    "win_rate_low",
    "win_rate_high",
    "mean_score",
    "std",
    "opponent_mean_score",
    "rating",
    "rating_stderr",
)


@dataclass(frozen=True)
class TournamentResult:
    """Every game of a tournament, and what they add up to."""

    rules_id: str
    options: dict[str, str]
    specs: tuple[str, ...]
    seed: int
    deals: int
    table: bool
    matches: tuple[Match, ...]
    """One per table (pairing), every deal."""
    deals_asked: int | None = None
    """The deals the run was to play when it was interrupted before them all (a partial result)."""

    @property
    def partial(self) -> bool:
        return self.deals_asked is not None

    @property
    def games_asked(self) -> int:
        """The games the run was to play: :attr:`games` unless it is partial."""
        if self.deals_asked is None:
            return self.games
        return sum(self.deals_asked * len(m.players) for m in self.matches)

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names (their bots' specs, numbered where one comes twice)."""
        return labels(self.specs)

    @property
    def games(self) -> int:
        return sum(m.deals * len(m.players) for m in self.matches)

    @property
    def seconds(self) -> float:
        return sum(m.seconds for m in self.matches)

    def _outcomes(self, match: Match) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """Per game (flattened deals x seatings) and player of ``match``: the score and the share of the
        win."""
        scores = match.scores.reshape(-1, len(match.players))
        first = scores == scores.max(axis=1, keepdims=True)
        return scores, first / first.sum(axis=1, keepdims=True)

    def pair_counts(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``won[i, j]`` (ties halved), ``ties[i, j]`` and ``games[i, j]`` of i against j, over every game
        both played."""
        n = len(self.specs)
        won = np.zeros((n, n))
        ties = np.zeros((n, n), dtype=np.int64)
        games = np.zeros((n, n), dtype=np.int64)
        for match in self.matches:
            scores = match.scores.reshape(-1, len(match.players))
            for a, b in combinations(range(len(match.players)), 2):
                i, j = match.players[a], match.players[b]
                wins, draws = (
                    int((scores[:, a] > scores[:, b]).sum()),
                    int((scores[:, a] == scores[:, b]).sum()),
                )
                played = scores.shape[0]
                won[i, j] += wins + draws / 2
                won[j, i] += played - wins - draws / 2
                ties[i, j] += draws
                ties[j, i] += draws
                games[i, j] += played
                games[j, i] += played
        return won, ties, games

    def ratings(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Each player's Elo-scale rating and its standard error (see the module's description)."""
        won, _, games = self.pair_counts()
        met = games > 0
        return bradley_terry(won + PRIOR_GAMES / 2 * met, games + PRIOR_GAMES * met)

    def standings(self) -> list[Record]:
        """One record per player against everyone at its tables, best rating first."""
        rating, stderr = self.ratings()
        names = self.players
        records = []
        for i, name in enumerate(names):
            scores: list[npt.NDArray[np.int64]] = []
            shares: list[npt.NDArray[np.float64]] = []
            for match in self.matches:
                if i in match.players:
                    k = match.players.index(i)
                    game_scores, share = self._outcomes(match)
                    scores.append(game_scores[:, k])
                    shares.append(share[:, k])
            own = np.concatenate(scores)
            share = np.concatenate(shares)
            records.append(
                Record(
                    name,
                    None,
                    int(own.shape[0]),
                    wins=int((share == 1).sum()),
                    ties=int(((share > 0) & (share < 1)).sum()),
                    losses=int((share == 0).sum()),
                    won=float(share.sum()),
                    mean_score=float(own.mean()),
                    std=float(own.std(ddof=1)) if own.shape[0] > 1 else 0.0,
                    rating=float(rating[i]),
                    rating_stderr=float(stderr[i]),
                )
            )
        return sorted(records, key=lambda r: -(r.rating or 0.0))

    def pairings(self) -> list[Record]:
        """One record per pair of players, the first named first in the tournament's order."""
        won, ties, games = self.pair_counts()
        names = self.players
        records = []
        for i, j in combinations(range(len(names)), 2):
            mine: list[npt.NDArray[np.int64]] = []
            theirs: list[npt.NDArray[np.int64]] = []
            for match in self.matches:
                if i in match.players and j in match.players:
                    scores = match.scores.reshape(-1, len(match.players))
                    mine.append(scores[:, match.players.index(i)])
                    theirs.append(scores[:, match.players.index(j)])
            own, other = np.concatenate(mine), np.concatenate(theirs)
            n = int(games[i, j])
            draws = int(ties[i, j])
            wins = round(float(won[i, j]) - draws / 2)
            records.append(
                Record(
                    names[i],
                    names[j],
                    n,
                    wins=wins,
                    ties=draws,
                    losses=n - wins - draws,
                    won=float(won[i, j]),
                    mean_score=float(own.mean()),
                    std=float(own.std(ddof=1)) if n > 1 else 0.0,
                    opponent_mean_score=float(other.mean()),
                )
            )
        return records

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules_id,
            "options": dict(self.options),
            "seed": self.seed,
            "deals": self.deals,
            "format": "table" if self.table else "pairings",
            "games": self.games,
            "partial": self.partial,
            **({"deals_asked": self.deals_asked, "games_asked": self.games_asked} if self.partial else {}),
            "seconds": self.seconds,
            "players": [record.to_json() for record in self.standings()],
            "pairings": [record.to_json() for record in self.pairings()],
            "notes": {
                "ties": "a shared first place is an equal share of one win (half a win each of two)",
                "win_rate": "95 % Wilson score interval",
                "rating": "Elo scale, Bradley-Terry maximum likelihood over every pair in every game, "
                "one virtual drawn game per pair, mean 1500",
            },
        }

    def csv_rows(self) -> list[dict[str, Any]]:
        """Rows of :data:`CSV_COLUMNS`: each player against everyone (``opponent`` empty), then each
        pairing."""
        rows = []
        for record in [*self.standings(), *self.pairings()]:
            data = record.to_json()
            rows.append({column: data.get(column, "") for column in CSV_COLUMNS})
        return rows


def bradley_terry(
    won: npt.NDArray[np.float64], games: npt.NDArray[np.float64] | npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Ratings on the Elo scale (mean :data:`MEAN_RATING`) and their standard errors, by maximum
    likelihood of the Bradley-Terry model P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400)), from
    ``won[i, j]`` (wins of i over j, fractional for ties) out of ``games[i, j]``.

    Hunter's minorisation-maximisation iteration; every player needs a win and a loss (give a prior)."""
    games = np.asarray(games, dtype=np.float64)
    wins = won.sum(axis=1)
    strength = np.ones(won.shape[0])
    for _ in range(10_000):
        pair = strength[:, None] + strength[None, :]
        updated = wins / (games / pair).sum(axis=1)
        updated /= math.exp(np.log(updated).mean())
        converged = np.allclose(updated, strength, rtol=1e-12, atol=0.0)
        strength = updated
        if converged:
            break
    theta = np.log(strength)
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    weight = games * p * (1 - p)
    information = np.diag(weight.sum(axis=1)) - weight
    covariance = np.linalg.pinv(information)
    return MEAN_RATING + ELO * theta, ELO * np.sqrt(np.clip(np.diag(covariance), 0.0, None))


def plot(result: TournamentResult, path: str | Path, *, title: str | None = None) -> None:
    """Draw the win rates of every pairing and the ratings to ``path`` (``.png``, ``.svg``, ``.pdf``).
    Needs matplotlib (:class:`~kniffel.base.errors.PlottingUnavailableError` without)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise plotting_unavailable() from None
    names = result.players
    n = len(names)
    won, _, games = result.pair_counts()
    rates = np.full((n, n), np.nan)
    np.divide(won, games, out=rates, where=games > 0)
    standings = result.standings()
    figure = Figure(figsize=(5 + 1.2 * n, 0.8 + 0.6 * n + 2), dpi=100)
    FigureCanvasAgg(figure)
    grid, bars = figure.subplots(1, 2, width_ratios=[max(n, 2), 3])
    image = grid.imshow(rates, vmin=0, vmax=1, cmap="RdBu")
    for i in range(n):
        for j in range(n):
            if games[i, j]:
                grid.text(j, i, f"{rates[i, j]:.0%}", ha="center", va="center", fontsize=9)
    grid.set_xticks(range(n), names, rotation=30, ha="right")
    grid.set_yticks(range(n), names)
    grid.set_xlabel("opponent")
    grid.set_title("win rate (row against column)")
    figure.colorbar(image, ax=grid, shrink=0.8)
    order = list(reversed(standings))
    bars.barh(
        [r.player for r in order],
        [(r.rating or MEAN_RATING) - MEAN_RATING for r in order],
        xerr=[Z95 * (r.rating_stderr or 0.0) for r in order],
        left=MEAN_RATING,
        color="#3b6ea8",
    )
    bars.axvline(MEAN_RATING, color="#222222", linewidth=0.8)
    bars.set_xlabel("rating (Elo scale, 95 % interval)")
    options = ", ".join(f"{k}={v}" for k, v in sorted(result.options.items()))
    rules = f"{result.rules_id} ({options})" if options else result.rules_id
    figure.suptitle(title or f"{rules}: {result.games:,} games, seed {result.seed}")
    figure.tight_layout()
    figure.savefig(path)


__all__ = [
    "HEURISTIC",
    "DealDice",
    "Match",
    "Prepared",
    "Rate",
    "Record",
    "Role",
    "TournamentError",
    "TournamentInterrupted",
    "TournamentResult",
    "aims_of",
    "bradley_terry",
    "check_request",
    "combine",
    "compiled_roles",
    "deal_seed",
    "heuristic_search",
    "play_match",
    "plot",
    "tournament",
]
