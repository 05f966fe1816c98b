"""A game in play as the web service holds it in memory (:class:`LiveGame`), and the state its clients
draw from: built once per committed position from parts kept between positions (:class:`SnapshotParts`),
sent whole or as the change since the position a client holds."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from kniffel import rules as rules_module
from kniffel.apps.web.store import StoredGame, StoredSeat
from kniffel.apps.web.tokens import token_matches
from kniffel.base.i18n import translations
from kniffel.engine.actions import Outcome
from kniffel.engine.game import Game
from kniffel.engine.sheet import sheet_layout
from kniffel.rules.names import five_alike_name
from kniffel.services.record import bonus_share, kniffels_of

LOG_TAIL = 60
"""How many recent actions a state message carries; the full log stays in the database."""
STAND_IN = "bot"
"""The bot that finishes a person's turn the timer ran out on: the quick one, which never waits."""


class Subscriber(Protocol):
    """A connection watching a game; ``push`` must not block. One with a true attribute ``changes``
    receives ``change`` messages after each change, any other the whole state (see
    :meth:`LiveGame.changed`)."""

    def push(self, text: str) -> None: ...


@dataclass(eq=False)
class LiveGame:
    """A game in play, in memory."""

    stored: StoredGame
    game: Game
    seat_of_action: list[int]
    outcomes: list[Outcome] = field(default_factory=list)
    """What each action of the log did (points and bonuses), for the game log on the table."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    bots_due: bool = False
    """A bot's move is waiting for a bot worker."""
    hints: bool = False
    """The solver can advise on these rules (hint and review panels)."""
    announced_seq: int = 0
    """The highest position another process announced for this game."""
    announcements: int = 0
    """How many announcements were heard for this game: one heard while the database was read (even of
    a position announced before) tells the reader that its snapshot may have come too early."""
    following: bool = False
    """A task is catching this copy up with the database."""
    undos: int = 0
    """Actions taken back (:mod:`kniffel.apps.web.undo`): with them a position number no longer names one
    position for good."""
    stand_ins: dict[int, str] = field(default_factory=dict)
    """People's seats a bot plays for now, the bot's kind by seat: the host handed them over while their
    player was away (:mod:`kniffel.apps.web.seating`), until the seat is taken back."""
    turn_seconds: int | None = None
    """The turn timer the host set (None: none): a person's turn not finished in time is finished by
    the quick bot."""
    turn_deadline: float | None = None
    """When the turn of the person to move runs out (seconds since the epoch), with a timer."""
    overdue: tuple[int, int] | None = None
    """The seat and round of a person's turn the timer ran out on: the quick bot finishes it."""
    _timed_turn: tuple[int, int] | None = None
    """The turn :attr:`turn_deadline` is of."""
    _core: dict[str, Any] = field(default_factory=dict)
    """The committed state without its rules and log (see :func:`state_core`)."""
    _shown: int = 0
    """The position :attr:`_core` shows: the last committed one."""
    _state_json: str | None = None
    """The committed state as JSON, built when first asked for after a change."""
    _parts: SnapshotParts = field(default_factory=lambda: SnapshotParts())

    def __post_init__(self) -> None:
        self._snapshot()

    def _snapshot(self) -> None:
        self._time_turn()
        self._core = state_core(self)
        self._shown = self.seq
        self._state_json = None

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def seats(self) -> tuple[StoredSeat, ...]:
        return self.stored.seats

    @property
    def seq(self) -> int:
        """Number of accepted actions; the next one gets ``seq + 1``."""
        return len(self.game.log)

    def kind_of(self, seat: int) -> str:
        """Who plays ``seat`` now: its own kind, or the bot standing in for its person (handed over, or
        finishing a turn the timer ran out on)."""
        if self.overdue == (seat, self.game.round) and self.game.current == seat and not self.game.is_over:
            return STAND_IN
        return self.stand_ins.get(seat, self.seats[seat].kind)

    def turn(self) -> tuple[int, int]:
        """The turn being played: the seat to move and the round."""
        return self.game.current, self.game.round

    def _time_turn(self) -> None:
        """A new turn of a person starts the timer's count again (none for a bot's turn, none without a
        timer)."""
        if self._timed_turn == self.turn():
            return
        self._timed_turn = self.turn()
        person = not self.game.is_over and self.kind_of(self.game.current) == "human"
        self.turn_deadline = time.time() + self.turn_seconds if self.turn_seconds and person else None

    def set_timer(self, seconds: int | None) -> None:
        """Set the turn timer (None: none), counting the turn under way from now."""
        self.turn_seconds = seconds
        self._timed_turn = None
        self.resend()

    def present(self) -> frozenset[int]:
        """The seats someone watching from this process plays (a tab that said hello with their token)."""
        return frozenset(seat for subscriber in self.subscribers for seat in getattr(subscriber, "seats", ()))

    def resend(self) -> None:
        """Send every watcher the whole state again after a change that is no action (a seat handed over
        or back, the timer set or run out)."""
        self._snapshot()
        text = self.state_text()
        for subscriber in list(self.subscribers):
            subscriber.push(text)

    def seats_for(self, token: str) -> frozenset[int]:
        """The seats a token may act for: its own, or every human seat for the host of a hot-seat game."""
        if not token:
            return frozenset()
        if self.stored.hotseat and token_matches(token, self.stored.host_token_hash):
            return frozenset(s.index for s in self.seats if s.kind == "human")
        return frozenset(s.index for s in self.seats if token_matches(token, s.token_hash))

    def is_host(self, token: str) -> bool:
        return bool(token) and token_matches(token, self.stored.host_token_hash)

    def state_json(self) -> str:
        """The last committed state as JSON (what ``GET /api/games/{id}`` answers): never a position
        whose action is still being saved (built from the parts kept when it was committed: the
        log's lines before it never change)."""
        if self._state_json is None:
            self._state_json = orjson.dumps(whole_state(self, self._core, self._shown)).decode()
        return self._state_json

    def state_text(self) -> str:
        """The last committed state as a ``state`` message."""
        return f'{{"type":"state","state":{self.state_json()}}}'

    def changed(self) -> None:
        """Tell the subscribers what the committed actions changed, as a ``change`` message: the
        state without the rules (which never change) and with only the new lines of the log, and
        ``base``, the position it follows. A client holding the state of ``base`` gets the new state
        by keeping its rules and appending the lines (keeping :data:`LOG_TAIL`); one that holds
        another position asks for the whole state (``{"type": "state"}``). A whole state cost the
        server and every client three to four times as much to write, send and read. Subscribers
        that did not ask for changes (clients of before) get the whole state, as they always did."""
        base = self._shown
        self._snapshot()
        change: str | None = None
        whole: str | None = None
        for subscriber in list(self.subscribers):
            if getattr(subscriber, "changes", False):
                if change is None:
                    lines = log_lines(self, base, self._shown)
                    message = {"type": "change", "base": base, "state": self._core | {"log": lines}}
                    change = orjson.dumps(message).decode()
                subscriber.push(change)
            else:
                whole = whole or self.state_text()
                subscriber.push(whole)

    def taken_back(self) -> None:
        """Take the last action back in memory (committed by :mod:`kniffel.apps.web.undo`) and send every
        subscriber the whole state: a change message only ever adds lines to the log."""
        self.game.undo()
        del self.seat_of_action[len(self.game.log) :], self.outcomes[len(self.game.log) :]
        self.undos += 1
        self._snapshot()
        text = self.state_text()
        for subscriber in list(self.subscribers):
            subscriber.push(text)


@dataclass
class SnapshotParts:
    """The parts of a game's state that most actions leave as they were, kept from one snapshot to the
    next: a snapshot goes out after every action, and rebuilding all of it cost more than the commit."""

    rules: dict[str, Any] | None = None
    players: list[tuple[object, dict[str, Any]]] = field(default_factory=list)
    """Per seat: what its sheet held, and the player's part of the state built from that."""
    log: list[tuple[object, dict[str, Any]]] = field(default_factory=list)
    """Per position: the action, and its line of the game log."""


def game_state(live: LiveGame) -> dict[str, Any]:
    """Everything a client needs to draw the table; all of it is public in a dice game."""
    core = state_core(live)  # first: it describes the rules the first time
    return whole_state(live, core, len(live.game.log))


def whole_state(live: LiveGame, core: dict[str, Any], upto: int) -> dict[str, Any]:
    """The state a client draws from: the rules, ``core`` (:func:`state_core`) and the log's last
    lines before position ``upto``."""
    state = {"rules": live._parts.rules} | core
    state["log"] = log_lines(live, 0, upto)
    return state


def log_lines(live: LiveGame, since: int, upto: int) -> list[dict[str, Any]]:
    """The log's lines from position ``since`` to ``upto``, at most the last :data:`LOG_TAIL` of them."""
    return [_log_line(live, i) for i in range(max(since, upto - LOG_TAIL), upto)]


def state_core(live: LiveGame) -> dict[str, Any]:
    """:func:`game_state` without ``rules`` and ``log``: what a change message carries whole."""
    game, ruleset, parts = live.game, live.game.rules, live._parts
    turn, legal = game.turn, game.legal
    if parts.rules is None:
        parts.rules = ruleset.describe() | {
            "turns": ruleset.turns,
            "free_throws_per_turn": ruleset.free_throws_per_turn,
            "names": translations(ruleset.name),
            # what a count of its five alike is called, as a player's record says it ("Yahtzees")
            "five_alike": translations(five_alike_name(ruleset)),
            "layout": layout_json(ruleset),
        }
    del parts.players[len(live.seats) :]
    for seat, sheet in zip(live.seats, game.sheets, strict=True):
        # Everything the totals are computed from: the same content gives the same part.
        held = (
            tuple(sheet.entries.items()),
            tuple(sheet.extra_bonus.items()),
            tuple(sheet.free_throws_used.items()),
            live.kind_of(seat.index),
        )
        if seat.index < len(parts.players) and parts.players[seat.index][0] == held:
            continue
        totals = [sheet.column_totals(c) for c in ruleset.columns]
        player = {
            "index": seat.index,
            "name": seat.name,
            "kind": live.kind_of(seat.index),
            # a person's seat a bot plays for now: handed over while away, or a turn the timer ran out on
            "stand_in": stand_in_of(live, seat.index),
            "entries": dict(sheet.entries),
            "columns": [
                {"id": c.id, **vars(t), "free_throws_left": sheet.free_throws_left(c)}
                for c, t in zip(ruleset.columns, totals, strict=True)
            ],
            "total": sheet.total,
        }
        if seat.index < len(parts.players):
            parts.players[seat.index] = (held, player)
        else:
            parts.players.append((held, player))
    return {
        "id": live.id,
        "hotseat": live.stored.hotseat,
        "pad": live.stored.pad,
        "seq": live.seq,
        "over": game.is_over,
        "current": game.current,
        "round": game.round,
        "players": [player for _, player in parts.players],
        "turn": {
            "dice": list(turn.dice) if turn.dice is not None else None,
            "rolls": turn.rolls,
            "rolls_left": game.rolls_left,
            "free_throws": turn.free_throws,
            "announced": turn.announced,
            "thrown_at_once": turn.thrown_at_once,
        },
        "can_roll": legal.can_throw and not legal.free_throw,
        "can_free": legal.can_throw and legal.free_throw,
        "placements": {key: {"points": p.points, "bonus": p.bonus} for key, p in legal.placements.items()},
        "strikeable": list(legal.strikeable),
        "announce": list(legal.announceable),
        "can_undo": game.can_undo,
        "taken_back": taken_back_lines(game),
        "standings": [vars(s) for s in game.standings()] if game.is_over else [],
        # what a player's record keeps of a finished game besides the score (kniffel.services.record),
        # per seat
        "figures": [
            {"kniffels": kniffels_of(game, seat), "bonus": bonus_share(game, seat)}
            for seat in range(len(game.players))
        ]
        if game.is_over
        else [],
        "hints": live.hints,
        "timer": None
        if live.turn_seconds is None
        else {
            "seconds": live.turn_seconds,
            "deadline": None if live.turn_deadline is None else round(live.turn_deadline * 1000),
        },
    }


def stand_in_of(live: LiveGame, seat: int) -> str | None:
    """Why a bot plays a person's ``seat`` now: ``away`` (the host handed it over), ``overdue`` (the timer
    ran out on the person's turn); None while the person plays it, and for a bot's own seat."""
    if live.seats[seat].kind != "human" or live.kind_of(seat) == "human":
        return None
    return "away" if seat in live.stand_ins else "overdue"


def taken_back_lines(game: Game) -> list[dict[str, Any]]:
    """What players took back (:attr:`kniffel.Game.taken_back`) within the log's last
    :data:`LOG_TAIL` lines, as the table's log shows it: ``seq`` the position it held (the log's line
    there, if any, came instead), ``seat`` whose it was, ``text`` the action."""
    since = len(game.log) - LOG_TAIL
    return [
        {"seq": taken.at + 1, "seat": taken.player, "text": str(taken.action)}
        for taken in game.taken_back
        if taken.at >= since
    ]


def _log_line(live: LiveGame, index: int) -> dict[str, Any]:
    """:func:`log_entry`, kept while the log holds the same action at ``index`` (a line never changes
    once its action is committed; an action taken back is a different object)."""
    cache, action = live._parts.log, live.game.log[index]
    if index < len(cache):
        if cache[index][0] is action:
            return cache[index][1]
        del cache[index:]
    entry = log_entry(live, index)
    if index == len(cache):
        cache.append((action, entry))
    return entry


def log_entry(live: LiveGame, index: int) -> dict[str, Any]:
    """Line ``index`` of the table's game log: the action, and for a score or strike what it earned
    (when the outcome is known: a game put together outside the service has only its log)."""
    entry: dict[str, Any] = {
        "seq": index + 1,
        "seat": live.seat_of_action[index],
        "text": str(live.game.log[index]),
    }
    outcome = live.outcomes[index] if index < len(live.outcomes) else None
    if outcome is not None and outcome.box is not None:
        entry |= {"points": outcome.points, "bonus": outcome.extra_bonus + outcome.upper_bonus}
    return entry


def layout_json(ruleset: rules_module.RuleSet) -> list[dict[str, Any]]:
    """The sheet's rows as the page draws them (:func:`kniffel.engine.sheet.sheet_layout`), a sum's label and
    a row's short name (for a phone's narrow sheet) in every language, so that the page can switch
    languages without asking again."""
    rows = []
    for row in sheet_layout(ruleset):
        shown = row.to_json()
        if row.label:
            shown["label"] = translations(row.label)
        if row.short:
            shown["short"] = translations(row.short)
        rows.append(shown)
    return rows


__all__ = [
    "LOG_TAIL",
    "STAND_IN",
    "LiveGame",
    "SnapshotParts",
    "Subscriber",
    "game_state",
    "layout_json",
    "log_entry",
    "log_lines",
    "stand_in_of",
    "state_core",
    "taken_back_lines",
    "whole_state",
]
