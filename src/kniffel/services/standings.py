"""What a tournament's games add up to: every table's games (:class:`Match`), each player's record against
everyone and against each other player, win rates and ratings (:class:`TournamentResult`), and its plot.

**Ties** count as the rules count them: equal totals share a rank. A shared first place is an equal share
of one win (half a win each between two players), in the win rates and in the ratings.

**Win rates** come with 95 % Wilson score intervals over the games played. The games of one deal are
not independent: played from both seats, their luck cancels, which makes the intervals conservative.

**Ratings** are on the Elo scale (400 points difference = 10 to 1 odds of winning), fitted by Bradley-Terry
maximum likelihood to the results of every pair of players in every game (at a table, each pair of its
players counts as one comparison), with one virtual drawn game per pair so that a player who never loses
still gets a finite rating; they average 1500. Their standard errors come from the likelihood's curvature.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kniffel.base.errors import plotting_unavailable

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""
ELO = 400 / math.log(10)
"""Elo points per unit of the Bradley-Terry log-strength."""
MEAN_RATING = 1500.0
PRIOR_GAMES = 1.0
"""Virtual drawn games added to every pair of players before the rating fit."""


def labels(specs: Sequence[str]) -> tuple[str, ...]:
    """A name per player: its bot's spec, numbered from the second time a spec comes (``bot #2``)."""
    seen: dict[str, int] = {}
    names = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if seen[spec] == 1 else f"{spec} #{seen[spec]}")
    return tuple(names)


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
    "CSV_COLUMNS",
    "ELO",
    "MEAN_RATING",
    "PRIOR_GAMES",
    "Z95",
    "Match",
    "Rate",
    "Record",
    "TournamentResult",
    "bradley_terry",
    "labels",
    "plot",
]
