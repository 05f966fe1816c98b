"""A player's record: the finished games of each human player on this device, and what they add up to.

Every front end that plays a game to its end hands it to :func:`record_finished_game`; ``kniffel stats``
(and any other front end) reads it back with :func:`load` and :func:`summaries`. Per player and rule
set: games, average and best score, Kniffels (five alike scored in its box, and every further one that
earned the extra bonus), the upper bonus rate, and the average loss per choice in expected points from
the game's review (:func:`kniffel.services.review.review`), where a review was made; :func:`plot_record` draws
the scores over time.

The record is a private file on this device, nowhere else: ``record.json`` in ``$KNIFFEL_RECORD_DIR``
or the user's data directory (``$XDG_DATA_HOME/kniffel``, ``~/Library/Application Support/kniffel``,
``%APPDATA%\\kniffel``), readable by its owner only. ``KNIFFEL_RECORD=off`` keeps nothing;
:func:`clear` forgets all of it or one player's games. A game is recorded once, however often it is
handed over (a saved game loaded again at its end, say).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kniffel.base.errors import KniffelError, plotting_unavailable
from kniffel.base.files import atomic_write
from kniffel.base.i18n import N_

if TYPE_CHECKING:  # a review needs the solver and a game the engine, reading the record neither
    from kniffel.engine.game import Game
    from kniffel.services.review import Review

DIRECTORY_ENV = "KNIFFEL_RECORD_DIR"
"""Where the record is kept instead of the user's data directory (tests, a second profile)."""
SWITCH_ENV = "KNIFFEL_RECORD"
"""``off`` (or ``0``, ``no``): keep no record."""
FILE = "record.json"
FORMAT = 1


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def user_data_dir() -> Path:
    """The user's data directory for kniffel by the platform's convention (not created here)."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share"
    return base / "kniffel"


def record_path() -> Path:
    """The record's file: ``$KNIFFEL_RECORD_DIR/record.json`` or in :func:`user_data_dir`."""
    override = os.environ.get(DIRECTORY_ENV)
    return (Path(override).expanduser() if override else user_data_dir()) / FILE


def recording() -> bool:
    """Whether finished games are recorded (not with ``KNIFFEL_RECORD=off``)."""
    return os.environ.get(SWITCH_ENV, "").strip().lower() not in ("off", "0", "no", "false")


@dataclass(frozen=True)
class GameRecord:
    """One human player's finished game."""

    game: str
    """The game's fingerprint (its rules, players and moves): a game is recorded once."""
    player: str
    finished: str
    """When it was recorded, ISO 8601 in UTC."""
    rules: str
    options: dict[str, str]
    score: int
    players: int
    rank: int
    kniffels: int
    """Five alike scored in the five-of-a-kind box (per column) and every further one that earned the
    extra bonus."""
    bonus: float
    """The share of the player's columns whose upper bonus was reached (1.0 or 0.0 on one column)."""
    decisions: int | None = None
    """The choices the review graded (None: the game was not reviewed)."""
    loss: float | None = None
    """Expected points given away over those choices."""

    @property
    def ruleset(self) -> str:
        """The rule set with its options, as the record groups games: ``kniffel``, ``yahtzee joker=free``."""
        return " ".join([self.rules, *(f"{k}={v}" for k, v in sorted(self.options.items()))])

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """A recorded game as :func:`save` wrote it; ``ValueError`` (one line) for anything else: a
        missing or unknown kind of value, a number out of its range, a number that is no number (NaN)."""
        if not isinstance(data, Mapping):
            found = type(data).__name__
            raise ValueError(N_(f"a game is an object, not {found}"))
        values: dict[str, Any] = {}
        for name, (kind, low, high) in _FIELDS.items():
            if name not in data:
                if name in _OPTIONAL:
                    continue
                raise ValueError(N_(f"{name} is missing"))
            values[name] = _checked(name, data[name], kind, low, high)
        return cls(**values)


_WHOLE, _REAL, _TIME = N_("a whole number"), N_("a number"), N_("a time")
_FIELDS: dict[str, tuple[str, float, float]] = {
    "game": ("text", 0, 0),
    "player": ("text", 0, 0),
    "finished": (_TIME, 0, 0),
    "rules": ("text", 0, 0),
    "options": ("options", 0, 0),
    "score": (_WHOLE, -1e6, 1e6),
    "players": (_WHOLE, 1, 100),
    "rank": (_WHOLE, 1, 100),
    "kniffels": (_WHOLE, 0, 1e4),
    "bonus": (_REAL, 0, 1),
    "decisions": (_WHOLE, 0, 1e6),
    "loss": (_REAL, -1e6, 1e9),
}
"""Each field of a recorded game: its kind and, for numbers, the range a real game keeps to (a score
of 10**400 would make the average's division overflow)."""
_OPTIONAL = frozenset({"decisions", "loss"})
"""Fields of a game not reviewed, which may be missing or null."""
MAX_TEXT = 10_000
"""Characters of a text field (a name, a fingerprint, a rule set's options)."""


def _checked(name: str, value: Any, kind: str, low: float, high: float) -> Any:
    if value is None and name in _OPTIONAL:
        return None
    if kind == "text":
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise ValueError(N_(f"{name} must be text"))
        return value
    if kind == _TIME:
        try:
            datetime.fromisoformat(value)
        except (TypeError, ValueError):
            raise ValueError(N_(f"{name} must be a time, as 2026-05-01T12:00:00+00:00")) from None
        return value
    if kind == "options":
        if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and len(k) + len(v) < MAX_TEXT for k, v in value.items()
        ):
            raise ValueError(N_(f"{name} must map option names to values"))
        return dict(value)
    whole = kind == _WHOLE
    if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)):
        raise ValueError(N_(f"{name} must be {kind}"))
    if not (low <= value <= high and math.isfinite(value)):  # NaN fails the comparison; a huge int too
        raise ValueError(N_(f"{name} must be {kind} from {low:g} to {high:g}"))
    return value if whole else float(value)


class RecordError(KniffelError):
    """The record's file cannot be read."""


def fingerprint(game: Game) -> str:
    text = json.dumps(game.to_json(), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def kniffels_of(game: Game, seat: int) -> int:
    """Five alike in the five-of-a-kind box (per column) and each further one the extra bonus paid."""
    rules, sheet = game.rules, game.sheets[seat]
    if rules.five_box is None:
        return 0
    found = 0
    for column in rules.columns:
        key = rules.key(column, rules.box(rules.five_box))
        if sheet.entries.get(key):
            found += 1
        if rules.extra_bonus:
            found += sheet.column_totals(column).extra_bonus // rules.extra_bonus
    return found


def bonus_share(game: Game, seat: int) -> float:
    """The share of the seat's columns whose upper bonus was reached (1.0 or 0.0 on one column)."""
    totals = game.sheets[seat].totals
    return sum(1 for t in totals if t.upper_bonus) / len(totals)


def game_records(
    game: Game, humans: Iterable[int], reviewed: Review | None = None, *, when: datetime | None = None
) -> list[GameRecord]:
    """What the record keeps of a finished ``game`` for each seat in ``humans`` (a bot has no record),
    with the loss of ``reviewed`` (a review of this game) where given."""
    if not game.is_over:
        raise ValueError("only a finished game is recorded")
    ranks = {standing.name: standing.rank for standing in game.standings()}
    finished = (when or datetime.now(UTC)).isoformat(timespec="seconds")
    grades = {p.name: p for p in reviewed.players} if reviewed is not None else {}
    found = []
    for seat in sorted(set(humans)):
        name, sheet = game.players[seat], game.sheets[seat]
        grade = grades.get(name)
        found.append(
            GameRecord(
                fingerprint(game),
                name,
                finished,
                game.rules.id,
                dict(game.rules.options),
                sheet.total,
                len(game.players),
                ranks[name],
                kniffels_of(game, seat),
                bonus_share(game, seat),
                None if grade is None else grade.decisions,
                None if grade is None else round(grade.loss, 4),
            )
        )
    return found


RECORDED = N_("Added to your record on this device: kniffel stats shows it.")
"""What a front end says once a finished game is in the record."""


def record_finished_game(
    game: Game,
    humans: Iterable[int],
    *,
    reviewed: Review | None = None,
    review_now: bool = True,
    path: Path | None = None,
) -> list[GameRecord]:
    """Keep ``game`` (finished) in the record of each human player (``humans``: their seats); return
    what was added (nothing when recording is off, the game has no human or was recorded before).

    The loss per choice comes from ``reviewed`` (a review of this game that a front end made anyway);
    without one and with ``review_now``, the game is reviewed here when the exact solver covers its
    rules (the expected-score table: a second the first time a rule set is solved, then read from the
    cache); else the game is kept without a loss, and ``kniffel stats`` says how many games were
    reviewed. A record that cannot be written raises ``OSError`` (a front end says so and goes on)."""
    seats = sorted(set(humans))
    if not recording() or not seats or not game.is_over:
        return []
    path = path or record_path()
    key = fingerprint(game)
    if any(r.game == key for r in load(path)):
        return []
    from kniffel.planning import is_exact

    if reviewed is None and review_now and is_exact(game.rules):
        from kniffel.services.review import review

        reviewed = review(game)
    added = game_records(game, seats, reviewed)
    with _locked(path):  # two games ending at once: each is added to what the other wrote
        kept = load(path)
        if any(r.game == key for r in kept):
            return []
        save([*kept, *added], path)
    return added


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold the record's lock file (where the system has advisory locks) while it is read and
    written, so that no process overwrites what another just added."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks here; a record is written in one go
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(path.with_suffix(".lock"), "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield


def load(path: Path | None = None) -> list[GameRecord]:
    """Every recorded game, oldest first; none if there is no record yet. A damaged file raises
    ``ValueError`` naming it (it is not overwritten)."""
    path = path or record_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    try:
        data = json.loads(text, parse_constant=_no_constant)
        if not isinstance(data, dict) or not isinstance(data.get("games"), list):
            raise ValueError(N_("it holds no list of games"))
        return [_game(number, entry) for number, entry in enumerate(data["games"], 1)]
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        reason = N_("it nests too deeply") if isinstance(error, RecursionError) else str(error)
        reason = " ".join(reason.split())[:200]
        raise RecordError(f"{path}: not a record of games ({reason}); move it away to start afresh") from None


def _no_constant(name: str) -> Any:
    raise ValueError(N_(f"{name} is no number"))


def _game(number: int, entry: Any) -> GameRecord:
    try:
        return GameRecord.from_json(entry)
    except ValueError as error:
        raise ValueError(N_(f"game {number}: {error}")) from None


def save(records: Sequence[GameRecord], path: Path | None = None) -> None:
    """Write the record (private to its owner: the folder 0700, the file 0600)."""
    path = path or record_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    data = {"format": FORMAT, "games": [asdict(r) for r in records]}
    atomic_write(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    with contextlib.suppress(OSError):  # a file system without modes (FAT, say) keeps it as it can
        path.chmod(0o600)


def clear(player: str | None = None, path: Path | None = None) -> int:
    """Forget every recorded game, or ``player``'s; how many games were forgotten."""
    path = path or record_path()
    if not path.exists():
        return 0
    with _locked(path):
        kept = load(path)
        gone = [r for r in kept if player is None or r.player == player]
        if player is None:
            path.unlink(missing_ok=True)
        elif gone:
            save([r for r in kept if r.player != player], path)
    return len(gone)


# --- what it adds up to ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """One player's games under one rule set."""

    player: str
    ruleset: str
    games: int
    average: float
    best: int
    kniffels: int
    bonus_rate: float
    won: int
    """Games won (first place, shared or not) among those of several players."""
    reviewed: int
    """Games with a review: the loss per choice is theirs."""
    loss_per_choice: float | None
    first: str
    last: str

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["average"] = round(self.average, 2)
        data["bonus_rate"] = round(self.bonus_rate, 4)
        if self.loss_per_choice is not None:
            data["loss_per_choice"] = round(self.loss_per_choice, 4)
        return data


def summaries(records: Iterable[GameRecord], player: str | None = None) -> list[Summary]:
    """Per player and rule set (in the order first played): what their games add up to."""
    groups: dict[tuple[str, str], list[GameRecord]] = {}
    for record in records:
        if player is None or record.player == player:
            groups.setdefault((record.player, record.ruleset), []).append(record)
    found = []
    for (name, ruleset), games in groups.items():
        reviewed = [g for g in games if g.loss is not None and g.decisions]
        choices = sum(g.decisions or 0 for g in reviewed)
        found.append(
            Summary(
                name,
                ruleset,
                len(games),
                sum(g.score for g in games) / len(games),
                max(g.score for g in games),
                sum(g.kniffels for g in games),
                sum(g.bonus for g in games) / len(games),
                sum(1 for g in games if g.players > 1 and g.rank == 1),
                len(reviewed),
                sum(g.loss or 0.0 for g in reviewed) / choices if choices else None,
                min(g.finished for g in games),
                max(g.finished for g in games),
            )
        )
    return found


def plot_record(
    records: Sequence[GameRecord],
    path: str | Path,
    *,
    words: Callable[[str], str] = lambda text: text,
) -> Path:
    """Draw every player's scores over time (a line per player and rule set, with its running
    average) to ``path`` (``.png``, ``.svg``, ``.pdf``). Needs matplotlib (else
    :class:`~kniffel.base.errors.PlottingUnavailableError`); ``words`` translates the axes' labels."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise plotting_unavailable() from None
    path = Path(path)
    figure = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    groups: dict[tuple[str, str], list[GameRecord]] = {}
    for record in records:
        groups.setdefault((record.player, record.ruleset), []).append(record)
    for (name, ruleset), games in groups.items():
        # matplotlib's dates are days since 1970-01-01 (its epoch since 3.3); xaxis_date shows them
        when = [(datetime.fromisoformat(g.finished) - EPOCH).total_seconds() / 86400 for g in games]
        scores = [g.score for g in games]
        running = [sum(scores[: i + 1]) / (i + 1) for i in range(len(scores))]
        (line,) = axes.plot(when, scores, marker="o", linewidth=0.8, label=f"{name} ({ruleset})")
        axes.plot(when, running, linestyle="--", linewidth=1.2, color=line.get_color())
    axes.xaxis_date()
    axes.set_xlabel(words(N_("finished")))
    axes.set_ylabel(words(N_("score (dashed: running average)")))
    if groups:
        axes.legend(loc="best", fontsize="small")
    figure.autofmt_xdate()
    figure.tight_layout()
    figure.savefig(path)
    return path


__all__ = [
    "DIRECTORY_ENV",
    "RECORDED",
    "SWITCH_ENV",
    "GameRecord",
    "RecordError",
    "Summary",
    "bonus_share",
    "clear",
    "game_records",
    "kniffels_of",
    "load",
    "plot_record",
    "record_finished_game",
    "record_path",
    "recording",
    "summaries",
    "user_data_dir",
]
