"""The game service: the one place where online actions are checked, committed and broadcast.

Every game in play lives in memory as a :class:`kniffel.Game` rebuilt from the database. An action is
accepted only if it comes from a token entitled to the seat to move, names the position the client saw
(``seq``), and the engine allows it. It is then committed; only after the commit succeeds do the
subscribers see the new state. A failed commit takes the action back, so memory never runs ahead of the
database; readers (HTTP polls, new subscribers) get the snapshot of the last committed state.

Bots move through the same path (:mod:`kniffel.apps.web.botpool`). Advice runs on threads of its own
(:mod:`kniffel.apps.web.pressure`), never on the threads the database writes use: a seated player's hints and
on one lane, everyone's asks for the chances of winning on another, and what anyone may ask without a
seat (the analysis of a pasted position, a finished game's review) on a third, each bounded in all and
per client, so that a flood of asks never holds up the player to move. Several server processes
may serve one PostgreSQL database (:mod:`kniffel.apps.web.replication`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson

from kniffel import rules as rules_module
from kniffel.apps.web import advice
from kniffel.apps.web.botpool import BotPool
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.live import LiveGame, Subscriber
from kniffel.apps.web.pressure import AdviceLane, Refusals
from kniffel.apps.web.replication import Replication
from kniffel.apps.web.schema import SEAT_KINDS, is_bot, is_game_id
from kniffel.apps.web.seating import SeatingStore
from kniffel.apps.web.store import NewGame, SeatSpec, Store, StoredGame, StoreError, Write
from kniffel.base.errors import IllegalActionError, KniffelError
from kniffel.base.i18n import N_
from kniffel.engine.actions import Action, Outcome, Roll, TakenBack
from kniffel.engine.dice import SecureDice
from kniffel.engine.game import MAX_PLAYERS, Game

log = logging.getLogger("kniffel.apps.web")
T = TypeVar("T")

MAX_NAME = 24


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
            problem = name_problem(name)
            if problem is not None:
                raise WebError("malformed", f"seat {number}: {problem}")
            if kind not in SEAT_KINDS:
                raise WebError("malformed", f"seat {number} is one of {', '.join(SEAT_KINDS)}, got {kind!r}")
            specs.append(SeatSpec(" ".join(name.split()), str(kind)))
        names = [s.name for s in specs]
        if len(set(names)) != len(names):
            raise WebError("malformed", "every seat needs a different name")
        flags = {key: data.get(key, False) for key in ("hotseat", "pad")}
        for key, value in flags.items():
            if not isinstance(value, bool):
                raise WebError("malformed", f"{key} must be true or false")
        try:
            found = rules_module.get(rules_id, options)
        except rules_module.RulesError as error:
            raise WebError("invalid", str(error)) from None
        if any(s.kind in ("bot:win", "bot:8") for s in specs) and not advice.available(found):
            raise WebError(
                "invalid", f"bot:win plays the rule sets of one column the solver covers, not {found.id}"
            )
        return CreateRequest(found.id, dict(options), tuple(specs), flags["hotseat"], flags["pad"])


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or ``None``. Control characters (NUL included), lone
    surrogates and unassigned code points are refused here, so every database stores the same names."""
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cs", "Cn"):
            return N_(f"a name cannot contain the character U+{ord(char):04X}")
    return None


class GameService(Replication, BotPool):
    """Creates, loads and advances online games; one instance per server process. It follows the other
    processes' commits (:class:`Replication`) and plays the bots' turns (:class:`BotPool`) itself."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        max_cached: int = 2000,
        bot_workers: int = 2,
        bot_share: float = 0.25,
        max_advice_waiting: int = 64,
        advice_per_client: int = 4,
        max_chances_waiting: int = 8,
        chances_per_client: int = 2,
        max_analysis_waiting: int = 16,
        analysis_per_client: int = 2,
        max_group: int = 200,
    ) -> None:
        self.store = store
        self.max_cached = max_cached
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._load_lock = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        """The service's long tasks: the bot workers and the listener for other processes' commits."""
        self._closing = False
        self._init_bot_pool(bot_delay, bot_workers, bot_share)
        self._init_replication()
        # Advisors solve on threads of their own: the default pool is the database's.
        self._advice = AdviceLane("kniffel-advice", max_advice_waiting, advice_per_client)
        self._chances = AdviceLane("kniffel-chances", max_chances_waiting, chances_per_client)
        self._analysis = AdviceLane("kniffel-analysis", max_analysis_waiting, analysis_per_client)
        self._refusals = Refusals(log, "saving an action")
        self.max_group = max_group
        """Actions committed in one transaction at most."""
        # One writer thread: its commits are the group commits, so they never overtake each other.
        self._write_threads = ThreadPoolExecutor(1, thread_name_prefix="kniffel-writes")
        self._writes: list[tuple[Write, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._seating: SeatingStore | None = None
        """The host's stand-ins and turn timers (:mod:`kniffel.apps.web.seating`), read on first use."""
        self._turn_watches: dict[str, tuple[int, int]] = {}
        """The turn each timed game's running-out is watched for, by game."""

    # --- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the bot workers and, on a database shared by several processes, listen for the
        changes the others commit (returns once listening). Bot games resume when someone watches."""
        self._start_bot_workers()
        advice.abandon_unasked()
        if self.store.announces:
            listening = asyncio.Event()
            self._tasks.append(asyncio.create_task(self._listen(listening), name="kniffel-listen"))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(listening.wait(), 30)

    async def stop(self) -> None:
        self._closing = True
        tasks = [*self._tasks, *self._errands]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        if self._writer is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer  # acknowledge what is being committed rather than drop it
        await self.store.close_async()
        self._write_threads.shutdown(wait=False)
        self._close_bot_pool()
        self._advice.close()
        self._chances.close()
        self._analysis.close()

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
        # Built from what was written, not read back: no other process has heard of the game yet.
        live = await self._replay(new.stored, fresh=True)
        self._live[new.id] = live
        self._evict()
        self._schedule_bots(live)
        return new, live

    async def get(self, game_id: str) -> LiveGame:
        """The game in play, read from the database the first time; ``not_found`` for an id that
        cannot be one, before anything is asked of the database (every endpoint comes here first)."""
        if not is_game_id(game_id):
            raise WebError("not_found", f"no game {game_id[:40]!r}")
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
                if self.store.announces:
                    # A change announced while the game was being read went unheard: look once more.
                    self.announced(game_id, live.seq + 1, "")
        return live

    async def _load(self, game_id: str) -> LiveGame:
        try:
            stored = await asyncio.to_thread(self.store.load, game_id)
        except StoreError as error:
            raise WebError("not_found", str(error)) from None
        return await self._replay(stored)

    async def _replay(self, stored: StoredGame, *, fresh: bool = False) -> LiveGame:
        """The game in memory, its log replayed through the engine, with its host's stand-ins and turn
        timer (none for a ``fresh`` game)."""
        game_id = stored.id
        try:
            ruleset = rules_module.get(stored.rules_id, stored.options)
            game = Game(ruleset, [s.name for s in stored.seats], dice=SecureDice(), pad=stored.pad)
            outcomes = [game.apply(Action.from_json(item.action)) for item in stored.actions]
            game.taken_back = [
                TakenBack(item.seq, item.seat, Action.from_json(item.action)) for item in stored.taken_back
            ]
        except KniffelError as error:
            raise WebError("corrupt", f"game {game_id} cannot be replayed: {error}") from None
        hints = advice.known(ruleset)
        if hints is None:  # the first game of these rules: the answer may need the solver's files
            hints = await asyncio.to_thread(advice.available, ruleset)
        live = LiveGame(stored, game, [a.seat for a in stored.actions], outcomes, hints=hints)
        if not fresh:
            seating = await asyncio.to_thread((await self.seating()).load, game_id)
            live.stand_ins = seating.stand_ins
            if seating.stand_ins or seating.seconds is not None:
                live.set_timer(seating.seconds)  # read into the state it sends
        return live

    # --- the host's decisions: stand-ins and the turn timer ----------------------------------------

    async def seating(self) -> SeatingStore:
        """The stand-ins and timers of the games' database (its tables made on first use)."""
        if self._seating is None:
            self._seating = await asyncio.to_thread(SeatingStore, self.store)
        return self._seating

    async def stand_in(self, live: LiveGame, seat: int, kind: str | None) -> None:
        """Hand a person's ``seat`` to a bot of ``kind``, or (None) back to its person: saved, then told
        to every watcher; a bot now due moves."""
        seating = await self.seating()
        async with live.lock:
            await asyncio.to_thread(seating.stand_in, live.id, seat, kind, self.origin)
            if kind is None:
                live.stand_ins.pop(seat, None)
            else:
                live.stand_ins[seat] = kind
            live.set_timer(live.turn_seconds)  # whose turn is timed may have changed
        self._schedule_bots(live)

    async def set_timer(self, live: LiveGame, seconds: int | None) -> None:
        """Set the game's turn timer (None: none), saved, then told to every watcher."""
        seating = await self.seating()
        async with live.lock:
            await asyncio.to_thread(seating.timer, live.id, seconds, self.origin)
            live.set_timer(seconds)
        self._schedule_bots(live)

    def _watch_turn(self, live: LiveGame) -> None:
        """With a turn timer, watch the person's turn under way for running out (once a turn)."""
        if live.turn_deadline is None or self._closing or self._turn_watches.get(live.id) == live.turn():
            return
        self._turn_watches[live.id] = live.turn()
        delay = max(0.0, live.turn_deadline - time.time())
        asyncio.get_running_loop().call_later(delay, self._turn_ran_out, live, live.turn())

    def _turn_ran_out(self, live: LiveGame, turn: tuple[int, int]) -> None:
        """The timer ran out on ``turn``: if it is still being played (by its person), the quick bot
        finishes it."""
        if self._turn_watches.get(live.id) == turn:
            del self._turn_watches[live.id]
        if live.turn() != turn or live.game.is_over or live.kind_of(turn[0]) != "human":
            return
        if live.turn_deadline is None or live.turn_deadline > time.time() + 0.5:
            return  # the timer was set again meanwhile: its own watch says when
        live.overdue = turn
        live.resend()
        self._schedule_bots(live)

    def _evict(self) -> None:
        """Forget the games least recently used beyond :attr:`max_cached` that nobody needs now."""
        excess = len(self._live) - self.max_cached
        if excess <= 0:
            return
        idle: list[str] = []
        for game_id, live in self._live.items():  # oldest first; stops at the excess, not at the end
            if not live.subscribers and not live.bots_due and not live.lock.locked():
                idle.append(game_id)
                if len(idle) == excess:
                    break
        for game_id in idle:
            del self._live[game_id]

    def subscribe(self, live: LiveGame, subscriber: Subscriber) -> None:
        live.subscribers.add(subscriber)
        subscriber.push(live.state_text())
        self._schedule_bots(live)  # a bot game nobody watched resumes now

    def unsubscribe(self, live: LiveGame, subscriber: Subscriber) -> None:
        live.subscribers.discard(subscriber)
        current = self._live.get(live.id)
        if current is not None:  # the subscriber may have been moved to a copy read afresh (_drop)
            current.subscribers.discard(subscriber)

    # --- actions -------------------------------------------------------------------------------

    async def act(
        self, live: LiveGame, seats: frozenset[int], seq: object, action: Action | str, *, seat: object = None
    ) -> Outcome:
        """Apply ``action`` (or its text, read by :meth:`kniffel.Game.parse_action`) for one of ``seats``
        at position ``seq``, commit it, then broadcast."""
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise WebError("malformed", "seq must be the number of actions the client has seen")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise WebError("malformed", "seat must be a seat number")
        if not seats:
            raise WebError("unauthorized", "send a valid seat token (hello) before acting")
        async with live.lock:
            if seq > live.seq and self.store.announces:
                await self._catch_up(live)  # the client heard of a change this copy has not read yet
            if seq != live.seq:
                raise WebError("stale", f"the game is at action {live.seq}, not {seq}: reload and retry")
            return await self._apply(live, seats, action, seat)

    async def export(self, live: LiveGame) -> dict[str, Any]:
        """The game in the library's save format, as committed."""
        async with live.lock:
            return live.game.to_json()

    async def position(self, live: LiveGame) -> tuple[int, Game]:
        """A copy of the committed position (for advice computed outside the game's lock)."""
        async with live.lock:
            return live.seq, live.game.copy()

    async def _commit(self, write: Write) -> bool:
        """Commit one action (``False``: its position was taken first). Actions arriving while a
        commit is under way wait for it and then go to the database together: under load one
        transaction and one flush to disk serve many games, and an idle server commits at once."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bool] = loop.create_future()
        self._writes.append((write, done))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_groups())
        return await done

    async def _write_groups(self) -> None:
        loop = asyncio.get_running_loop()
        while self._writes:
            group, self._writes = self._writes[: self.max_group], self._writes[self.max_group :]
            items = [write for write, _ in group]
            try:
                if self.store.announces:
                    # PostgreSQL: one statement awaited on this loop, no thread to hand back and forth.
                    written = await self.store.append_many_async(items)
                else:
                    written = await loop.run_in_executor(self._write_threads, self.store.append_many, items)
            except Exception as error:
                for _, done in group:
                    if not done.done():
                        done.set_exception(error)
            else:
                for (_, done), ok in zip(group, written, strict=True):
                    if not done.done():
                        done.set_result(ok)

    async def advise(self, work: Callable[[], T], client: str = "") -> T:
        """Run a seated player's hints on their own lane (:class:`AdviceLane`): never behind anyone's
        asks for the chances of winning or analyses (:meth:`analyse`), and ``client`` (an address) may
        have only its share of the lane waiting; refused ``busy`` beyond that rather than queued without
        bound. Advice never solves a table here (the planning worker does,
        :mod:`kniffel.apps.web.advice`), so an answer takes a millisecond or two and many may wait."""
        return await self._on(self._advice, work, client)

    async def analyse(self, work: Callable[[], T], client: str = "") -> T:
        """Run what anyone may ask without a seat (a pasted position's analysis, a finished game's
        review) on a lane of its own: a flood of them from many addresses fills only that lane, and
        the player to move asking for a hint never waits behind it (:meth:`advise`)."""
        return await self._on(self._analysis, work, client)

    async def chances(self, game: Game, key: tuple[str, int], client: str = "") -> dict[str, Any] | None:
        """The chances of winning of position ``key`` (:func:`advice.chances`): from memory at once when
        they were worked out before; else on a lane of their own, apart from the players' advice; and
        when that lane is full, or ``client`` has its share of it waiting, ``preparing`` (the page asks
        again) rather than a queue that would hold up everyone else."""
        known = advice.known_chances(key)
        if known is not None:
            return known
        if not self._chances.admits(client):
            return advice.queued()
        return await self._on(self._chances, lambda: advice.chances(game, key), client)

    async def _on(self, lane: AdviceLane, work: Callable[[], T], client: str) -> T:
        if not lane.admits(client):
            raise WebError("busy", "the advisor is busy: try again in a moment")
        try:
            return await lane.run(work, client)
        except Exception:
            log.exception("the advisor failed")
            raise WebError("unavailable", "the advisor failed: try again later") from None

    async def _apply(
        self,
        live: LiveGame,
        seats: frozenset[int],
        action: Action | str,
        seat: object,
        *,
        by_bot: bool = False,
    ) -> Outcome:
        game = live.game
        if game.is_over:
            raise WebError("game_over", "the game is over")
        if isinstance(action, str):
            try:
                action = game.parse_action(action[:200])
            except KniffelError as error:
                raise WebError("malformed", str(error)) from None
        mover = game.current
        if mover not in seats or (seat is not None and seat != mover):
            raise WebError("not_your_turn", f"it is {game.player}'s turn")
        if is_bot(live.kind_of(mover)) != by_bot:
            if not by_bot and mover in live.stand_ins:  # a bot stands in for the person
                raise WebError("not_your_turn", "a bot plays this seat now: take the seat back first")
            if not by_bot and live.seats[mover].kind == "human":
                raise WebError("not_your_turn", "the time for this turn is up: the quick bot finishes it")
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
        status = "over" if game.is_over else "playing"
        action_json = orjson.dumps(outcome.action.to_json()).decode()
        write = Write(live.id, live.seq, mover, action_json, status, game.current, self.origin)
        try:
            written = await self._commit(write)
        except Exception as error:
            game.retract()
            self._refusals.refused(error, live.id)
            raise WebError(
                "unavailable", "the action could not be saved; nothing changed, try again"
            ) from None
        self._refusals.recovered()
        if not written:
            # Another process wrote this position first: take ours back and read what it saved.
            game.retract()
            await self._catch_up(live)
            raise WebError("stale", "another action was saved first: reload and retry")
        live.seat_of_action.append(mover)
        live.outcomes.append(outcome)
        live.changed()
        if not by_bot:
            self._schedule_bots(live)
        return outcome
