"""The game service: the one place where online actions are checked, committed and broadcast.

Every game in play lives in memory as a :class:`kniffel.Game` rebuilt from the database. An action is
accepted only if it comes from a token entitled to the seat to move, names the position the client saw
(``seq``), and the engine allows it. It is then committed; only after the commit succeeds do the
subscribers see the new state. A failed commit takes the action back, so memory never runs ahead of the
database. Bots move from a task of their own, through the same path.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from kniffel import rules as rules_module
from kniffel.errors import IllegalActionError, KniffelError
from kniffel.game import MAX_PLAYERS, Action, Announce, Game, Outcome, Roll, Score, SecureDice, Strike
from kniffel.web import advice
from kniffel.web.store import (
    SEAT_KINDS,
    NewGame,
    SeatSpec,
    StaleError,
    Store,
    StoredGame,
    StoredSeat,
    StoreError,
    token_matches,
)

log = logging.getLogger("kniffel.web")

MAX_NAME = 24
LOG_TAIL = 60
"""How many recent actions a state message carries; the full log stays in the database."""


class WebError(Exception):
    """A refused request: ``code`` for programs, ``message`` (one line) for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"type": "error", "code": self.code, "message": self.message}


class Subscriber(Protocol):
    """A connection watching a game; ``push`` must not block."""

    def push(self, text: str) -> None: ...


@dataclass(frozen=True)
class CreateRequest:
    rules_id: str
    options: dict[str, str]
    seats: tuple[SeatSpec, ...]
    hotseat: bool = False
    pad: bool = False

    @staticmethod
    def parse(data: object) -> CreateRequest:
        """Check a creation request from the wire; :class:`WebError` says what is wrong."""
        if not isinstance(data, Mapping):
            raise WebError("malformed", "a game is created from a JSON object")
        rules_id = data.get("rules", "kniffel")
        options = data.get("options") or {}
        seats = data.get("seats")
        if not isinstance(rules_id, str):
            raise WebError("malformed", "rules must be a rule set id such as 'kniffel'")
        if not isinstance(options, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in options.items()
        ):
            raise WebError("malformed", "options must map option names to values, e.g. {'sharp': 'on'}")
        if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_PLAYERS:
            raise WebError("malformed", f"seats must be a list of 1 to {MAX_PLAYERS} seats")
        specs: list[SeatSpec] = []
        for number, seat in enumerate(seats, 1):
            if not isinstance(seat, Mapping):
                raise WebError("malformed", f"seat {number} must be an object with name and kind")
            name, kind = seat.get("name"), seat.get("kind", "human")
            if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
                raise WebError("malformed", f"seat {number} needs a name of 1 to {MAX_NAME} characters")
            if kind not in SEAT_KINDS:
                raise WebError("malformed", f"seat {number} is 'human' or 'bot', got {kind!r}")
            specs.append(SeatSpec(" ".join(name.split()), str(kind)))
        names = [s.name for s in specs]
        if len(set(names)) != len(names):
            raise WebError("malformed", "every seat needs a different name")
        flags = {key: data.get(key, False) for key in ("hotseat", "pad")}
        for key, value in flags.items():
            if not isinstance(value, bool):
                raise WebError("malformed", f"{key} must be true or false")
        try:
            rules_module.get(rules_id, options)
        except rules_module.RulesError as error:
            raise WebError("invalid", str(error)) from None
        return CreateRequest(rules_id, dict(options), tuple(specs), flags["hotseat"], flags["pad"])


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
    bot_task: asyncio.Task[None] | None = None
    hints: bool = False
    """The solver can advise on these rules (hint and review panels)."""
    _state_text: str | None = None

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

    def seats_for(self, token: str) -> frozenset[int]:
        """The seats a token may act for: its own, or every human seat for the host of a hot-seat game."""
        if not token:
            return frozenset()
        if self.stored.hotseat and token_matches(token, self.stored.host_token_hash):
            return frozenset(s.index for s in self.seats if s.kind == "human")
        return frozenset(s.index for s in self.seats if token_matches(token, s.token_hash))

    def is_host(self, token: str) -> bool:
        return bool(token) and token_matches(token, self.stored.host_token_hash)

    def state_text(self) -> str:
        if self._state_text is None:
            self._state_text = json.dumps({"type": "state", "state": game_state(self)})
        return self._state_text

    def changed(self) -> None:
        self._state_text = None
        text = self.state_text()
        for subscriber in list(self.subscribers):
            subscriber.push(text)


def game_state(live: LiveGame) -> dict[str, Any]:
    """Everything a client needs to draw the table; all of it is public in a dice game."""
    game, ruleset = live.game, live.game.rules
    turn, legal = game.turn, game.legal
    players = []
    for seat, sheet in zip(live.seats, game.sheets, strict=True):
        players.append(
            {
                "index": seat.index,
                "name": seat.name,
                "kind": seat.kind,
                "entries": dict(sheet.entries),
                "columns": [
                    {
                        "id": c.id,
                        **vars(sheet.column_totals(c)),
                        "free_throws_left": sheet.free_throws_left(c),
                    }
                    for c in ruleset.columns
                ],
                "total": sheet.total,
            }
        )
    first = max(0, len(game.log) - LOG_TAIL)
    return {
        "id": live.id,
        "rules": ruleset.describe()
        | {"turns": ruleset.turns, "free_throws_per_turn": ruleset.free_throws_per_turn},
        "hotseat": live.stored.hotseat,
        "pad": live.stored.pad,
        "seq": live.seq,
        "over": game.is_over,
        "current": game.current,
        "round": game.round,
        "players": players,
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
        "log": [log_entry(live, i) for i in range(first, len(game.log))],
        "standings": [vars(s) for s in game.standings()] if game.is_over else [],
        "hints": live.hints,
    }


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


def _bot_factory() -> Any:
    """``kniffel.bots.make`` if the bots package is installed, else ``None`` (the fallback plays)."""
    try:
        return importlib.import_module("kniffel.bots").make
    except (ImportError, AttributeError):
        return None


def fallback_move(game: Game) -> Action:
    """A plain legal move, used only if the bot package is missing or fails: take the best-paying box
    after the regular rolls, announcing whatever an announced column allows."""
    legal = game.legal
    if game.turn.dice is None or (game.rolls_left > 0 and not legal.placements):
        return Roll()
    if legal.placements:
        return Score(max(legal.placements, key=lambda box: legal.placements[box].total))
    if legal.announceable:
        return Announce(legal.announceable[0])
    if legal.strikeable:
        return Strike(legal.strikeable[0])
    return next(iter(legal))


class GameService:
    """Creates, loads and advances online games; one instance per server process."""

    def __init__(self, store: Store, *, bot_delay: float = 0.6, max_cached: int = 2000) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.max_cached = max_cached
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._load_lock = asyncio.Lock()
        self._bot_make = _bot_factory()
        self._bots: dict[tuple[str, int], Any] = {}
        self._closing = False

    # --- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Resume the bots that were to move when the server last stopped."""
        for game_id in await asyncio.to_thread(self.store.games_waiting_for_bots):
            try:
                self._schedule_bots(await self.get(game_id))
            except WebError as error:
                log.warning("cannot resume game %s: %s", game_id, error.message)

    async def stop(self) -> None:
        self._closing = True
        tasks = [live.bot_task for live in self._live.values() if live.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # --- games ---------------------------------------------------------------------------------

    async def create(
        self, request: CreateRequest, *, same_tokens_as: StoredGame | None = None
    ) -> tuple[NewGame, LiveGame]:
        """A new game; ``same_tokens_as`` gives it the links of that game's seats (a rematch)."""
        hashes = None
        if same_tokens_as is not None:
            hashes = (same_tokens_as.host_token_hash, [s.token_hash for s in same_tokens_as.seats])
        new = await asyncio.to_thread(
            self.store.create_game,
            request.rules_id,
            request.options,
            request.seats,
            hotseat=request.hotseat,
            pad=request.pad,
            token_hashes=hashes,
        )
        live = await self.get(new.id)
        self._schedule_bots(live)
        return new, live

    async def get(self, game_id: str) -> LiveGame:
        live = self._live.get(game_id)
        if live is not None:
            self._live.move_to_end(game_id)
            return live
        async with self._load_lock:
            live = self._live.get(game_id)
            if live is None:
                live = await self._load(game_id)
                self._live[game_id] = live
                self._evict()
        return live

    async def _load(self, game_id: str) -> LiveGame:
        if not game_id or len(game_id) > 32:
            raise WebError("not_found", f"no game {game_id[:40]!r}")
        try:
            stored = await asyncio.to_thread(self.store.load, game_id)
        except StoreError as error:
            raise WebError("not_found", str(error)) from None
        try:
            ruleset = rules_module.get(stored.rules_id, stored.options)
            game = Game(ruleset, [s.name for s in stored.seats], dice=SecureDice())
            outcomes = [game.apply(Action.from_json(item.action)) for item in stored.actions]
        except KniffelError as error:
            raise WebError("corrupt", f"game {game_id} cannot be replayed: {error}") from None
        hints = await asyncio.to_thread(advice.available, ruleset)
        return LiveGame(stored, game, [a.seat for a in stored.actions], outcomes, hints=hints)

    def _evict(self) -> None:
        for game_id in list(self._live):
            if len(self._live) <= self.max_cached:
                return
            live = self._live[game_id]
            if not live.subscribers and live.bot_task is None and not live.lock.locked():
                del self._live[game_id]

    def subscribe(self, live: LiveGame, subscriber: Subscriber) -> None:
        live.subscribers.add(subscriber)
        subscriber.push(live.state_text())

    def unsubscribe(self, live: LiveGame, subscriber: Subscriber) -> None:
        live.subscribers.discard(subscriber)

    # --- actions -------------------------------------------------------------------------------

    async def act(
        self, live: LiveGame, seats: frozenset[int], seq: object, action: Action, *, seat: object = None
    ) -> Outcome:
        """Apply ``action`` for one of ``seats`` at position ``seq``, commit it, then broadcast."""
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise WebError("malformed", "seq must be the number of actions the client has seen")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise WebError("malformed", "seat must be a seat number")
        if not seats:
            raise WebError("unauthorized", "send a valid seat token (hello) before acting")
        async with live.lock:
            if seq != live.seq:
                raise WebError("stale", f"the game is at action {live.seq}, not {seq}: reload and retry")
            return await self._apply(live, seats, action, seat)

    async def _apply(
        self, live: LiveGame, seats: frozenset[int], action: Action, seat: object, *, by_bot: bool = False
    ) -> Outcome:
        game = live.game
        if game.is_over:
            raise WebError("game_over", "the game is over")
        mover = game.current
        if mover not in seats or (seat is not None and seat != mover):
            raise WebError("not_your_turn", f"it is {game.player}'s turn")
        if (live.seats[mover].kind == "bot") != by_bot:
            raise WebError("not_your_turn", f"it is {game.player}'s turn")
        if isinstance(action, Roll) and not by_bot:
            if live.stored.pad and action.dice is None:
                raise WebError("illegal", "score-pad game: enter the dice you rolled")
            if not live.stored.pad and action.dice is not None:
                raise WebError("illegal", "the server rolls the dice in an online game")
        try:
            outcome = game.apply(action)
        except IllegalActionError as error:
            raise WebError("illegal", str(error)) from None
        try:
            await asyncio.to_thread(
                self.store.append,
                live.id,
                live.seq,
                mover,
                outcome.action.to_json(),
                status="over" if game.is_over else "playing",
                to_move=game.current,
            )
        except StaleError:
            # Another process wrote this position: our copy is behind. Drop it; the next request reloads.
            game.undo()
            self._live.pop(live.id, None)
            raise WebError("stale", "another action was saved first: reload and retry") from None
        except Exception:
            game.undo()
            log.exception("saving an action of game %s failed", live.id)
            raise WebError(
                "unavailable", "the action could not be saved; nothing changed, try again"
            ) from None
        live.seat_of_action.append(mover)
        live.outcomes.append(outcome)
        live.changed()
        if not by_bot:
            self._schedule_bots(live)
        return outcome

    # --- bots ----------------------------------------------------------------------------------

    def _schedule_bots(self, live: LiveGame) -> None:
        if self._closing or live.bot_task is not None or live.game.is_over:
            return
        if live.seats[live.game.current].kind != "bot":
            return
        live.bot_task = asyncio.create_task(self._run_bots(live), name=f"bots-{live.id}")

    async def _run_bots(self, live: LiveGame) -> None:
        try:
            while True:
                await asyncio.sleep(self.bot_delay)
                async with live.lock:
                    game = live.game
                    if game.is_over or live.seats[game.current].kind != "bot":
                        return
                    seat = game.current
                    action = self._bot_move(live, seat)
                    try:
                        await self._apply(live, frozenset({seat}), action, None, by_bot=True)
                    except WebError as error:
                        if error.code == "stale":
                            return
                        if error.code == "unavailable":
                            continue  # the database hiccuped: try again after the next pause
                        log.warning("bot move %s in game %s refused: %s", action, live.id, error.message)
                        await self._apply(live, frozenset({seat}), fallback_move(game), None, by_bot=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bots of game %s stopped", live.id)
        finally:
            live.bot_task = None
            if live.game.is_over:
                for seat in range(len(live.seats)):
                    self._bots.pop((live.id, seat), None)

    def _bot_move(self, live: LiveGame, seat: int) -> Action:
        if self._bot_make is not None:
            try:
                bot = self._bots.get((live.id, seat))
                if bot is None:
                    bot = self._bots[(live.id, seat)] = self._bot_make("bot")
                chosen = bot.choose(live.game)
                if isinstance(chosen, Action):
                    return chosen
            except Exception:
                log.exception("bot failed in game %s", live.id)
        return fallback_move(live.game)
