"""Computer players: each plays the best choice of a planner, made by name.

>>> from kniffel import Game, SeededDice, bots, rules
>>> game = Game(rules.get("kniffel"), ["Ada"], dice=SeededDice(1))
>>> bot = bots.make("bot")
>>> bots.play(game, [bot]).is_over
True

Bots read a :class:`~kniffel.engine.game.Game` and answer with an action; they never change the game. The
thinking is the planners' (:mod:`kniffel.planning`): ``bot`` (``bot:heuristic``) plays the heuristic
planner, fast and without tables; ``bot:optimal`` (``bot:points``) plays optimally for points where the
solver covers the rules and by the column estimate elsewhere; ``bot:GOAL`` plays for any other goal
(:mod:`kniffel.planning.goals`): ``bot:win`` to finish first, ``bot:target:250`` for at least 250 points.
``bot:1`` to ``bot:8`` are the levels of play named for people (:mod:`kniffel.planning.levels`), from a
newcomer to ``bot:optimal`` (7) and ``bot:win`` (8): levels 1 to 6 play their level's planner (the exact
policy through a view of the game that people's is like; their mistakes are in that view, never drawn by
chance), level 7 is ``bot:optimal`` and level 8 ``bot:win`` under a level's name.
These names are also :func:`kniffel.services.simulate.simulate`'s strategies. A strategy from elsewhere joins
with :func:`register`, so front ends offer every bot through :func:`make` without knowing where it
lives.

A bot made ``live`` (a game people watch) never makes them wait for tables that take long to solve the
first time (a rule set's early win tables): until they are there it plays for points, and a cone of a
late position (a second or two) it waits for. Until the expected-points table itself is there (a first
use compiles its kernels for half a minute) it plays as the quick bot does. Otherwise (tournaments,
tests) it always plays its goal exactly, solving whatever that takes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from kniffel.base.errors import IllegalActionError, KniffelError
from kniffel.base.i18n import N_, translate
from kniffel.core import compiling
from kniffel.engine.actions import Action, Roll
from kniffel.engine.game import Game
from kniffel.planning import (
    POINTS,
    WIN,
    Choice,
    Goal,
    Method,
    NotReady,
    Planner,
    PlanningError,
    Weights,
    is_exact,
    planner_for,
    quick_choices,
)
from kniffel.planning.exact import advisor_job
from kniffel.planning.goals import goal_names, parse_goal
from kniffel.planning.ladder import EXACT_LEVEL, LEVELS, Level, level
from kniffel.planning.levels import level_planner
from kniffel.planning.winning import with_patience
from kniffel.rules import RuleSet


class BotError(KniffelError):
    """A bot that cannot be made or cannot play (an unknown name, too few bots for the players)."""


class Bot(Protocol):
    """A computer player."""

    name: str

    def choose(self, game: Game) -> Action:
        """A legal action for the player to move in ``game`` (which is not over)."""
        ...


PATIENCE = 15.0
"""Seconds a live bot waits for a table it lacks; longer solves it leaves to the worker and plays for
points meanwhile."""


TABLE_PATIENCE = 3.0
"""Seconds a live bot waits for its expected-points table (a second or two once its kernels are compiled)
before it plays the quick bot's choice for this decision."""


class PlannerBot:
    """Plays the best legal choice of its planner; deterministic for a given position (and, when
    ``live``, for the tables at hand)."""

    name: str = "planner"
    goal: Goal = POINTS
    method: Method = "best"
    level: Level | None = None
    """The level of play it stands for (``bot:7`` is ``bot:optimal``, ``bot:8`` ``bot:win``), if any."""

    def __init__(
        self,
        *,
        seed: int | None = None,
        directory: Path | None = None,
        weights: Weights | None = None,
        goal: Goal | None = None,
        live: bool = False,
    ) -> None:
        # Decisions never depend on chance; the seed is accepted so every bot is made alike.
        self.seed = seed
        self.directory = directory
        self.weights = weights
        self.live = live
        if goal is not None:
            self.goal = goal
        self._planner: tuple[RuleSet, Planner] | None = None

    def prepare(self, rules: RuleSet) -> Planner:
        """The planner for ``rules``, its tables loaded or solved now rather than at the first decision
        (a live bot leaves the long solves of its goal to the worker)."""
        if self._planner is None or self._planner[0] is not rules:
            planner = planner_for(
                rules,
                self.goal,
                method=self.method,
                directory=self.directory,
                weights=self.weights,
                wait=not self.live,
            )
            self._planner = (rules, planner)
        return self._planner[1]

    def choices(self, game: Game) -> list[Choice]:
        """The planner's choices; a live bot whose tables are being solved waits for a short solve and
        otherwise plays for points, and until the points table itself is there (on a first use its
        kernels compile for half a minute), as the quick bot does."""
        if not self.table_at_hand(game.rules):
            return quick_choices(game)
        planner = self.prepare(game.rules)
        try:
            return planner.choices(game)
        except NotReady as not_ready:
            if with_patience(not_ready.job, PATIENCE):
                try:
                    return planner.choices(game)
                except NotReady:
                    pass
            return planner_for(game.rules, directory=self.directory).choices(game)

    def table_at_hand(self, rules: RuleSet) -> bool:
        """Whether the expected-points table its planner reads is there, or need not be: for a live
        bot on rules the solver covers, it is handed to the worker if missing and waited for
        :data:`TABLE_PATIENCE` seconds at most (not at all while kernels compile)."""
        if not self.live or self.method == "heuristic" or self.directory is not None or not is_exact(rules):
            return True
        job = advisor_job(rules)
        if job is None:
            return True
        return job.wait(0.0 if compiling() is not None else TABLE_PATIENCE)  # no waiting on a compile

    def title(self, lang: str = "en") -> str:
        """Its default name in ``lang``: its level's bot where it stands for one
        (:meth:`kniffel.planning.ladder.Level.bot_name`), else its goal's
        (:meth:`kniffel.planning.Goal.bot_name`)."""
        return self.level.bot_name(lang) if self.level is not None else self.goal.bot_name(lang)

    def choose(self, game: Game) -> Action:
        if game.is_over:
            raise IllegalActionError("the game is over: there is nothing to choose")
        if game.turn.dice is None:
            return Roll()
        for choice in self.choices(game):
            if game.can_apply(choice.action):
                return choice.action
        # Unreachable while planners list legal actions only; a bot must never stall a game.
        return game.legal_actions()[0]


class HeuristicBot(PlannerBot):
    """The heuristic planner's play: sensible on every rule set, fast, no tables."""

    name = "heuristic"
    method = "heuristic"
    TITLE = N_("Bot (heuristic)")

    def __init__(
        self, *, seed: int | None = None, weights: Weights | None = None, live: bool = False
    ) -> None:
        super().__init__(seed=seed, weights=weights, live=live)

    def title(self, lang: str = "en") -> str:
        return translate(lang, self.TITLE)


class OptimalBot(PlannerBot):
    """Optimal play for points on single-column rule sets; the column-table estimate on the other
    sheets."""

    name = "optimal"

    def __init__(self, *, seed: int | None = None, directory: Path | None = None, live: bool = False) -> None:
        super().__init__(seed=seed, directory=directory, live=live)


class GoalBot(PlannerBot):
    """Plays for its goal (a target, winning, ...) where the solver covers the rules, for points
    elsewhere."""

    def __init__(
        self, goal: Goal, *, seed: int | None = None, directory: Path | None = None, live: bool = False
    ) -> None:
        super().__init__(seed=seed, directory=directory, goal=goal, live=live)
        self.name = str(goal)


class WinBot(GoalBot):
    """Plays to finish first: the chance of winning where the solver covers the rules (2-8 players),
    optimal play for points elsewhere and alone."""

    def __init__(self, *, seed: int | None = None, directory: Path | None = None, live: bool = False) -> None:
        super().__init__(WIN, seed=seed, directory=directory, live=live)


class LevelBot(PlannerBot):
    """A level below 7: the best choice by its level's view of the game
    (:func:`kniffel.planning.levels.level_planner`)."""

    # not the best method: a level's games are a plan of its own (goal_of says None)
    method: Method = "exact"

    def __init__(
        self, number: int, *, seed: int | None = None, directory: Path | None = None, live: bool = False
    ) -> None:
        super().__init__(seed=seed, directory=directory, live=live)
        self.level = level(number)
        self.number = number
        self.name = f"level {number}"

    def prepare(self, rules: RuleSet) -> Planner:
        """The level's planner on ``rules`` (made once per rule set and shared by every bot of the level)."""
        return level_planner(rules, POINTS, self.number, self.directory, wait=not self.live)


def level_bot(number: int, *, seed: int | None = None, live: bool = False) -> PlannerBot:
    """The bot of level ``number`` (1 to 8): levels below 7 their planner's, 7 ``bot:optimal`` and 8
    ``bot:win`` under their level's name."""
    bot: PlannerBot
    if number == EXACT_LEVEL:
        bot = OptimalBot(seed=seed, live=live)
    elif number == EXACT_LEVEL + 1:
        bot = WinBot(seed=seed, live=live)
    else:
        return LevelBot(number, seed=seed, live=live)
    bot.level, bot.name = level(number), f"level {number}"
    return bot


def level_of(bot: Bot) -> Level | None:
    """The level a bot plays at, None for a bot of none."""
    return bot.level if isinstance(bot, PlannerBot) else None


BotFactory = Callable[..., Bot]
"""Called as ``factory(seed=seed)`` (and ``live=True`` for a bot people watch, if it takes that)."""

_REGISTRY: dict[str, BotFactory] = {
    "heuristic": HeuristicBot,
    "optimal": OptimalBot,
    "points": OptimalBot,
    "win": WinBot,
}
_DEFAULT = "heuristic"


_REGISTRY.update({str(n): functools.partial(level_bot, n) for n in range(1, LEVELS + 1)})


def register(name: str, factory: BotFactory) -> None:
    """Make ``bot:NAME`` available to :func:`make`; registering a name again replaces it."""
    if not name or ":" in name or name != name.strip():
        raise BotError(f"a bot name is a word without ':', got {name!r}")
    _REGISTRY[name] = factory


def available() -> list[str]:
    """Every spec :func:`make` accepts: the registered bots, then every goal's (``bot:target:T`` for any
    whole number ``T``)."""
    goals = [name for name in goal_names() if name not in _REGISTRY]
    return ["bot", *(f"bot:{name}" for name in [*_REGISTRY, *goals])]


def make(spec: str, *, seed: int | None = None, live: bool = False) -> Bot:
    """The bot for ``spec``: ``bot`` (the default strategy), ``bot:NAME`` (a registered bot) or
    ``bot:GOAL`` (a goal's text, as in ``bot:target:250``); ``live`` for a game people watch (see the
    module docstring)."""
    kind, _, name = spec.strip().partition(":")
    name = name.strip().lower()
    if kind.strip().lower() == "bot":
        factory = _REGISTRY.get(name or _DEFAULT)
        if factory is not None:
            return factory(seed=seed, live=live) if live else factory(seed=seed)
        try:
            goal = parse_goal(name)
        except PlanningError:
            pass
        else:
            return GoalBot(goal, seed=seed, live=live)
    raise BotError(f"unknown bot {spec!r}; choose one of: {', '.join(available())}")


def goal_of(bot: Bot) -> Goal | None:
    """What a built-in bot plays for, None for a bot that is not a planner's or plays by a method other
    than the best one (the heuristic)."""
    if isinstance(bot, PlannerBot) and bot.method == "best":
        return bot.goal
    return None


def graded_goal(bot: Bot) -> Goal:
    """What a review grades ``bot`` by: its goal (:func:`goal_of`), points for any other bot."""
    return goal_of(bot) or POINTS


def default_name(spec: str, lang: str = "en") -> str:
    """The default name of the bot ``spec`` in ``lang`` by what it plays for: ``Bot (optimal)``, ``Bot
    (win)``, ``Bot (target 250)``, ``Bot (heuristic)``; a bot registered elsewhere is named by its spec
    (``bot:NAME``: ``Bot (NAME)``). :class:`BotError` for an unknown spec."""
    bot = make(spec, seed=0)
    title = getattr(bot, "title", None)
    if callable(title):
        return str(title(lang))
    _, _, name = spec.strip().lower().partition(":")
    return f"Bot ({name.replace(':', ' ')})"


def play(game: Game, bots: Sequence[Bot], *, max_actions: int = 100_000) -> Game:
    """Let ``bots[i]`` play for player ``i`` until the game is over; returns the game.

    A bot that answers with an illegal action raises :class:`~kniffel.engine.game.IllegalActionError`.
    """
    if len(bots) != len(game.players):
        players, given = len(game.players), len(bots)
        raise BotError(f"a table of {players} needs a bot for each, got {given}")
    for _ in range(max_actions):
        if game.is_over:
            return game
        game.apply(bots[game.current].choose(game))
    raise RuntimeError(f"the game did not end within {max_actions} actions")


__all__ = [
    "PATIENCE",
    "Bot",
    "BotError",
    "BotFactory",
    "GoalBot",
    "HeuristicBot",
    "LevelBot",
    "OptimalBot",
    "PlannerBot",
    "Weights",
    "WinBot",
    "available",
    "default_name",
    "goal_of",
    "graded_goal",
    "level_bot",
    "level_of",
    "make",
    "play",
    "register",
]
