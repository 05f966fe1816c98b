"""The bots' turns: a small pool of workers (not a task per game) plays them, and only in games someone
watches; a bot game nobody looks at waits for its next visitor. A bot's move goes through the same checks
and commit as a person's (:meth:`kniffel.apps.web.service.GameService.act`), and the bots think on a
thread of their own, never on the database's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

from kniffel import bots
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.live import LiveGame
from kniffel.apps.web.schema import is_bot
from kniffel.core import compiled_seconds
from kniffel.engine.actions import Action, Announce, Outcome, Roll, Score, Strike
from kniffel.engine.game import Game

log = logging.getLogger("kniffel.apps.web")


def fallback_move(game: Game) -> Action:
    """A plain legal move if a bot fails: roll, then the best-paying box (or announce, or strike)."""
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


class BotPool:
    """The part of :class:`kniffel.apps.web.service.GameService` that plays the bots' turns (the service
    is one object: a bot's move is committed like anyone's, and the service wakes the pool whenever a
    game changes or gains a watcher)."""

    # The service's own, declared without a value (so as not to shadow them): its state and its one
    # path for an action, which a bot's move takes too.
    _closing: bool
    _tasks: list[asyncio.Task[None]]
    _apply: Callable[..., Awaitable[Outcome]]
    _watch_turn: Callable[[LiveGame], None]

    def _init_bot_pool(self, delay: float, workers: int, share: float) -> None:
        self.bot_delay = delay
        self.bot_workers = workers
        self.bot_share = share
        """The share of the process's time the bots may take: each worker rests after a move in
        proportion to the time the move took but compiling, however many bot games are waiting."""
        self._bots: dict[tuple[str, int, str], bots.Bot] = {}
        """The bots playing, by game, seat and kind (a person's seat may have a stand-in of its own)."""
        self._bot_queue: asyncio.Queue[LiveGame] = asyncio.Queue()
        # Bots think on a thread of their own: the default pool is the database's.
        self._bot_threads = ThreadPoolExecutor(1, thread_name_prefix="kniffel-bots")

    def _close_bot_pool(self) -> None:
        self._bot_threads.shutdown(wait=False, cancel_futures=True)

    def _start_bot_workers(self) -> None:
        if not self._closing and not any(t.get_name().startswith("kniffel-bots") for t in self._tasks):
            for number in range(self.bot_workers):
                self._tasks.append(asyncio.create_task(self._bot_worker(), name=f"kniffel-bots-{number}"))

    def _schedule_bots(self, live: LiveGame) -> None:
        """Queue the game for a bot worker if a bot is to move and someone is watching (a person's turn
        under a timer is watched for running out first)."""
        self._watch_turn(live)
        if self._closing or live.bots_due or live.game.is_over or not live.subscribers:
            return
        if not is_bot(live.kind_of(live.game.current)):
            return
        self._start_bot_workers()
        live.bots_due = True
        if self.bot_delay > 0:
            asyncio.get_running_loop().call_later(self.bot_delay, self._bot_queue.put_nowait, live)
        else:
            self._bot_queue.put_nowait(live)

    async def _bot_worker(self) -> None:
        loop = asyncio.get_running_loop()
        rest = max(0.0, self.bot_workers / self.bot_share - 1)
        while True:
            live = await self._bot_queue.get()
            started, compiled = loop.time(), compiled_seconds()
            try:
                await self._bot_turn(live)
            except Exception:
                log.exception("the bots of game %s stopped", live.id)
            finally:
                live.bots_due = False
            # not for a first use's compile: a first move's 30 s of it made every bot game rest 4 minutes
            cost = max(0.0, loop.time() - started - (compiled_seconds() - compiled))
            await asyncio.sleep(cost * rest)
            self._schedule_bots(live)
            if live.game.is_over:
                for key in [key for key in self._bots if key[0] == live.id]:
                    del self._bots[key]

    async def _bot_turn(self, live: LiveGame) -> None:
        """One bot action, through the same checks and commit as a person's."""
        async with live.lock:
            game = live.game
            if game.is_over or not is_bot(live.kind_of(game.current)):
                return
            seat = game.current
            loop = asyncio.get_running_loop()
            action = await loop.run_in_executor(self._bot_threads, self._bot_move, live, seat)
            try:
                await self._apply(live, frozenset({seat}), action, None, by_bot=True)
            except WebError as error:
                if error.code in ("stale", "unavailable"):
                    return  # another process played it, or the database hiccuped: look again later
                log.warning("bot move %s in game %s refused: %s", action, live.id, error.message)
                await self._apply(live, frozenset({seat}), fallback_move(game), None, by_bot=True)

    def _bot_move(self, live: LiveGame, seat: int) -> Action:
        try:
            kind = live.kind_of(seat)
            bot = self._bots.get((live.id, seat, kind))
            if bot is None:
                bot = self._bots[(live.id, seat, kind)] = bots.make(kind, live=True)
            chosen = bot.choose(live.game)
            if isinstance(chosen, Action):
                return chosen
        except Exception:
            log.exception("bot failed in game %s", live.id)
        return fallback_move(live.game)
