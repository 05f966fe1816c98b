"""The trainer: a series of positions from realistic games, each chosen because a plausible mistake costs
there, answered one by one and explained.

A series (:func:`series`, 10 positions by default) comes from games the levels play (:mod:`kniffel.bots.
levels`: players of levels 3 to 6, so that the sheets are those people have). A position *teaches* when a
lower level (1 to 6) would choose there what costs at least about a point against the best choice
(:data:`TEACHES`; to win, a point of the chance of winning): the mistake is one people make, and it is
worth seeing. The positions are spread over the early, middle and late game (a third of the boxes filled
each) and over the three kinds of decision: what to keep after the first roll, after the second, and
which box to fill (:data:`PHASES`, :data:`KINDS`), each series a different round of those nine. A seed
makes a series again; :func:`daily_seed` gives everyone the same series on a date and rule set.

Playing to win is a goal too (:data:`kniffel.planning.WIN`): the positions are then two players', and
the values the chance of winning.

Every value comes from :func:`advice`, the one place the trainer asks for advice: what ``kniffel advise``
answers for the same situation. The player's answer (:func:`answer`) is graded against it: the best
choice, every option's value and what the answer cost; and a series (:func:`result`) by its average loss
a decision and the level whose choices on the same positions lose as much
(:func:`kniffel.services.proficiency.matched_level`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from kniffel import bots
from kniffel.base.errors import KniffelError
from kniffel.base.i18n import N_, number, percent, translate
from kniffel.core import Progress
from kniffel.engine.actions import Action, Roll, action_text, read_action
from kniffel.engine.dice import SeededDice
from kniffel.engine.game import Game
from kniffel.engine.situation import Situation
from kniffel.planning import POINTS, WIN, Choice, Goal, Unit, is_exact, parse_goal
from kniffel.planning.ladder import EXACT_LEVEL, level
from kniffel.planning.levels import level_planner
from kniffel.rules import RuleSet
from kniffel.services.proficiency import Proficiency, matched_level
from kniffel.services.review import SHOWN

SERIES = 10
"""Positions in a series unless asked otherwise."""
MAX_SERIES = 50
TEACHES: dict[str, float] = {Unit.POINTS: 0.9, Unit.PROBABILITY: 0.009}
"""What a lower level's choice must cost at least for a position to teach: about a point, or about a
point of the chance of winning."""
PLAYED_BY = (3, 4, 5, 6)
"""The levels whose games the positions come from."""
MAX_GAMES = 80
"""Games played at most for a series; what they did not bring is taken from positions that teach less."""
LOOKED_AT = 0.35
"""The share of a game's decisions weighed as candidates (the rest are passed over, so that a series
takes its positions from several games, and in little time)."""

Phase = Literal["early", "middle", "late"]
Kind = Literal["first", "second", "box"]
PHASES: tuple[Phase, ...] = ("early", "middle", "late")
KINDS: tuple[Kind, ...] = ("first", "second", "box")
PHASE_WORDS: dict[str, str] = {
    "early": N_("early in the game"),
    "middle": N_("in the middle of the game"),
    "late": N_("late in the game"),
}
KIND_WORDS: dict[str, str] = {
    "first": N_("after the first roll"),
    "second": N_("after the second roll"),
    "box": N_("which box"),
}
QUESTIONS: dict[str, str] = {
    "first": N_("Which dice do you keep, or where do you score?"),
    "second": N_("Which dice do you keep, or where do you score?"),
    "box": N_("Which box do you fill?"),
}


ESTIMATES = N_("Values are estimates from single-column tables, not exact.")
"""Said under a verdict on a sheet the exact solver does not cover (several columns)."""


class TrainerError(KniffelError):
    """A series that cannot be made as asked, or an answer that is no choice of the position."""


def advice(situation: Situation, goal: Goal) -> list[Choice]:
    """Every option of ``situation`` valued for ``goal``, best first: the one place the trainer asks for
    advice, on the road ``kniffel advise`` takes (:func:`kniffel.services.advice.options`)."""
    from kniffel.services import advice as road

    return list(road.options(road.Position.of_situation(situation), goal).options)


def daily_seed(rules: RuleSet, day: date, goal: Goal | str = POINTS) -> int:
    """The seed of the series of ``day`` on ``rules`` (and its options) for ``goal``: the same for
    everyone, and as short as a seed a person types (31 bits)."""
    options = " ".join(f"{k}={v}" for k, v in sorted(rules.options.items()))
    text = f"{day.isoformat()} {rules.id} {options} {parse_goal(goal)}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") >> 1  # as short as others


def phase_of(game: Game) -> Phase:
    """Early, middle or late by the share of the player's boxes filled."""
    share = len(game.sheet.entries) / len(game.rules.box_keys)
    return "early" if share < 1 / 3 else "middle" if share < 2 / 3 else "late"


def kind_of(game: Game) -> Kind:
    """What the player decides: what to keep after the first or second roll, or a box once no roll is
    left."""
    rolls_left = game.rolls_left
    if rolls_left <= 0:
        return "box"
    return "first" if rolls_left >= game.rules.rolls - 1 else "second"


@dataclass(frozen=True)
class Exercise:
    """A position to answer: its situation, where in the game it is and what is decided, the goal, and
    the mistake it teaches: level ``tempting_level``'s choice ``tempting`` (an action's text form)."""

    situation: Situation
    phase: str
    kind: str
    goal: str
    tempting: str
    tempting_level: int
    options: tuple[Choice, ...] = field(default=(), compare=False, repr=False)
    """The options valued for the goal, best first, where they were worked out with the position (else
    :func:`answer` asks :func:`advice`)."""
    choices: tuple[tuple[int, Action], ...] = field(default=(), compare=False, repr=False)
    """Each level's choice, where worked out with the position (:func:`level_choices`)."""

    @property
    def unit(self) -> str:
        return str(parse_goal(self.goal).unit)

    def question(self, lang: str = "en") -> str:
        return translate(lang, QUESTIONS[self.kind])

    def heading(self, lang: str = "en") -> str:
        """``Late in the game, which box`` as people read it."""
        where = translate(lang, PHASE_WORDS[self.phase])
        return f"{where[:1].upper()}{where[1:]}, {translate(lang, KIND_WORDS[self.kind])}"

    def to_json(self) -> dict[str, Any]:
        situation = self.situation
        return {
            "situation": str(situation),
            "rules": situation.rules.id,
            "options": dict(situation.rules.options),
            "dice": list(situation.dice or ()),
            "rolls_left": situation.rolls_left,
            "sheet": dict(situation.sheet.entries),
            "others": [dict(other.entries) for other in situation.others],
            "phase": self.phase,
            "kind": self.kind,
            "goal": self.goal,
        }

    @classmethod
    def of(cls, situation: Situation, goal: Goal | str = POINTS) -> Exercise:
        """The exercise of any situation (one a player brings, one sent back by a front end): where it
        is in the game and what is decided; its mistake is worked out by :func:`answer`."""
        game = Game.from_situation(situation)
        return cls(situation, phase_of(game), kind_of(game), str(parse_goal(goal)), "", 0)


def level_choices(situation: Situation, goal: Goal) -> dict[int, Action]:
    """What each level would choose in ``situation``: levels 1 to 6 by their view of the game, 7 the best
    for points, 8 (playing to win) the best for ``goal`` where that is winning."""
    game = Game.from_situation(situation)
    found: dict[int, Action] = {}
    for n in range(1, EXACT_LEVEL):
        found[n] = level_planner(situation.rules, POINTS, n).choices(game)[0].action
    found[EXACT_LEVEL] = advice(situation, POINTS)[0].action
    if goal == WIN:
        found[EXACT_LEVEL + 1] = advice(situation, goal)[0].action
    return found


@dataclass(frozen=True)
class Verdict:
    """An answer graded: the options best first (values in the goal's unit), the one chosen, and what each
    level's choice would have cost here."""

    exercise: Exercise
    chosen: Action
    options: list[Choice]
    choices: dict[int, Action] = field(default_factory=dict)
    """Each level's choice here (:func:`level_choices`)."""

    @property
    def levels(self) -> dict[int, float]:
        """Each level's loss here."""
        values = {c.action: c.value for c in self.options}
        best = self.best.value
        return {n: best - values.get(action, best) for n, action in self.choices.items()}

    @property
    def best(self) -> Choice:
        return self.options[0]

    @property
    def chosen_value(self) -> float:
        return next(c.value for c in self.options if c.action == self.chosen)

    @property
    def loss(self) -> float:
        return max(0.0, self.best.value - self.chosen_value)

    @property
    def unit(self) -> str:
        return self.exercise.unit

    @property
    def best_choice(self) -> bool:
        return self.loss <= SHOWN[self.unit]

    def shown(self, most: int) -> list[tuple[Choice, float]]:
        """The options a verdict lists, each with what it costs against the best: the ``most`` best, and
        the one chosen after them if it is not among them."""
        shown = self.options[:most]
        if all(c.action != self.chosen for c in shown):
            shown = [*shown, *(c for c in self.options if c.action == self.chosen)]
        return [(choice, self.best.value - choice.value) for choice in shown]

    def value_text(self, value: float, lang: str = "en") -> str:
        """A value as people read it: ``184.31`` points still to come, ``54.2 %`` to win."""
        return percent(lang, value, 1) if self.unit == Unit.PROBABILITY else number(lang, value, 2)

    def loss_text(self, loss: float, lang: str = "en") -> str:
        if self.unit == Unit.PROBABILITY:
            return translate(lang, "{points} percentage points", points=number(lang, 100 * loss, 1))
        return translate(lang, "{points} points", points=number(lang, loss, 2))

    def lines(self, lang: str = "en") -> list[str]:
        """What the player is told, in ``lang``: whether the answer was the best, what the best was and
        what the answer cost, what the values mean, and the mistake the position is known for."""
        rules = self.exercise.situation.rules

        def t(text: str, **fields: object) -> str:
            return translate(lang, text, **fields)

        chosen, best = action_text(self.chosen, rules, lang), action_text(self.best.action, rules, lang)
        lines = []
        if self.best_choice:
            lines.append(t("Well played: {chosen} is the best choice.", chosen=chosen))
        else:
            lines.append(t("The best choice: {best}.", best=best))
            lines.append(
                t(
                    "Your choice, {chosen}, gives away {loss} on average.",
                    chosen=chosen,
                    loss=self.loss_text(self.loss, lang),
                )
            )
        if self.unit == Unit.PROBABILITY:
            lines.append(
                t(
                    "Your chance of winning: {chosen} with your choice, {best} with the best.",
                    chosen=self.value_text(self.chosen_value, lang),
                    best=self.value_text(self.best.value, lang),
                )
            )
        else:
            lines.append(
                t(
                    "Points you can expect from here to the end of the game: {chosen} with your choice, "
                    "{best} with the best.",
                    chosen=self.value_text(self.chosen_value, lang),
                    best=self.value_text(self.best.value, lang),
                )
            )
        if not is_exact(rules):
            lines.append(t(ESTIMATES))
        tempting = self.tempting()
        if tempting is not None and tempting[0] != self.chosen:
            action, number_, loss = tempting
            lines.append(
                t(
                    "Level {level} ({name}) would choose {action}, which gives away {loss}.",
                    level=number_,
                    name=level(number_).title(lang),
                    action=action_text(action, rules, lang),
                    loss=self.loss_text(loss, lang),
                )
            )
        return lines

    def tempting(self) -> tuple[Action, int, float] | None:
        """The mistake the position is known for: its exercise's, else the choice of the best level whose
        choice here costs something (its action, level and loss)."""
        values = {c.action: c.value for c in self.options}
        if self.exercise.tempting:
            action = Action.parse(self.exercise.tempting)
            if action in values:
                return action, self.exercise.tempting_level, self.best.value - values[action]
        losses = self.levels
        costly = [n for n, loss in sorted(losses.items()) if n < EXACT_LEVEL and loss > SHOWN[self.unit]]
        if not costly:
            return None
        n = costly[-1]
        return self.choices[n], n, losses[n]

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        rules = self.exercise.situation.rules
        tempting = self.tempting()
        return {
            "exercise": self.exercise.to_json(),
            "chosen": str(self.chosen),
            "chosen_value": round(self.chosen_value, 6),
            "best": str(self.best.action),
            "best_value": round(self.best.value, 6),
            "loss": round(self.loss, 6),
            "unit": self.unit,
            "best_choice": self.best_choice,
            "options": [
                {
                    "action": str(c.action),
                    "text": action_text(c.action, rules, lang),
                    "value": round(c.value, 6),
                    "loss": round(self.best.value - c.value, 6),
                }
                for c in self.options
            ],
            "levels": {str(n): round(loss, 6) for n, loss in sorted(self.levels.items())},
            "tempting": None
            if tempting is None
            else {"action": str(tempting[0]), "level": tempting[1], "loss": round(tempting[2], 6)},
            "lines": self.lines(lang),
        }


def answer(exercise: Exercise, chosen: Action | str) -> Verdict:
    """``chosen`` (an action, or what a person typed: ``keep 3 3``, ``score chance``, ``3 3 halten``)
    graded in ``exercise``'s position; :class:`TrainerError` if it is no choice there."""
    situation = exercise.situation
    game = Game.from_situation(situation)
    if isinstance(chosen, str):
        try:
            chosen = read_action(chosen, situation.rules, game.legal)
        except KniffelError as error:
            raise TrainerError(str(error)) from None
    chosen = _undiced(chosen)
    goal = parse_goal(exercise.goal)
    options = list(exercise.options) or advice(situation, goal)
    if all(c.action != chosen for c in options):
        raise TrainerError(f"{chosen} is not a choice in this position")
    choices = dict(exercise.choices) or level_choices(situation, goal)
    return Verdict(exercise, chosen, options, choices)


def _undiced(action: Action) -> Action:
    """``action`` as the options name it: a throw is what it keeps, not the dice it brought."""
    if isinstance(action, Roll):
        return type(action)(keep=tuple(sorted(action.keep)))
    return action


@dataclass(frozen=True)
class Result:
    """A series answered: the verdicts and the figure they add up to."""

    verdicts: list[Verdict]

    @property
    def proficiency(self) -> Proficiency:
        """The average loss a decision, and the level whose choices on the same positions lose about as
        much."""
        count = len(self.verdicts)
        loss = sum(v.loss for v in self.verdicts)
        unit = self.verdicts[0].unit if self.verdicts else Unit.POINTS
        if not count:
            return Proficiency(0, 0.0, unit, None)
        numbers = set.intersection(*(set(v.levels) for v in self.verdicts))
        losses = {n: sum(v.levels[n] for v in self.verdicts) / count for n in numbers}
        return Proficiency(count, loss, unit, matched_level(loss / count, losses) if losses else None)

    def to_json(self) -> dict[str, Any]:
        return {
            "answered": len(self.verdicts),
            "best_choices": sum(v.best_choice for v in self.verdicts),
            "proficiency": self.proficiency.to_json(),
        }


def result(verdicts: Sequence[Verdict]) -> Result:
    return Result(list(verdicts))


# --- choosing the positions ---------------------------------------------------------------------------


def series(
    rules: RuleSet,
    *,
    count: int = SERIES,
    seed: int = 0,
    goal: Goal | str = POINTS,
    progress: Progress | None = None,
) -> list[Exercise]:
    """``count`` positions of ``rules`` that teach (see the module docstring), from games played with
    ``seed``; for ``goal`` (points, or win: two players' positions). The same arguments give the same
    series. ``progress(found, count)`` is told as positions are found. :class:`TrainerError` for a count
    out of range or a goal the rules cannot be played for."""
    goal = parse_goal(goal)
    if not 1 <= count <= MAX_SERIES:
        raise TrainerError(f"a series has 1 to {MAX_SERIES} positions, got {count}")
    if goal not in (POINTS, WIN):
        raise TrainerError(f"the trainer plays for points or to win, not for {goal}")
    if goal == WIN and not is_exact(rules):
        raise TrainerError(
            f"{rules.id}: playing to win is trained on the rule sets the exact solver covers (one column)"
        )
    rng = random.Random(seed)
    cells = [(phase, kind) for phase in PHASES for kind in KINDS]
    rng.shuffle(cells)
    wanted = [cells[i % len(cells)] for i in range(count)]
    found: dict[tuple[str, str], list[Exercise]] = {cell: [] for cell in cells}
    spare: list[Exercise] = []
    players = 2 if goal == WIN else 1
    for _ in range(MAX_GAMES):
        have = sum(min(len(found[cell]), wanted.count(cell)) for cell in cells)
        if progress is not None:
            progress(have, count)
        if have == count:
            break
        _play_for_positions(rules, goal, rng, players, wanted, found, spare)
    chosen: list[Exercise] = []
    taken: dict[tuple[str, str], int] = {}
    for cell in wanted:
        at = taken.get(cell, 0)
        if at < len(found[cell]):
            chosen.append(found[cell][at])
            taken[cell] = at + 1
        elif spare:
            chosen.append(spare.pop(0))
    if len(chosen) < count:
        raise TrainerError(f"no {count} positions that teach turned up in {MAX_GAMES} games; ask for fewer")
    return chosen


def _play_for_positions(
    rules: RuleSet,
    goal: Goal,
    rng: random.Random,
    players: int,
    wanted: Sequence[tuple[str, str]],
    found: dict[tuple[str, str], list[Exercise]],
    spare: list[Exercise],
) -> None:
    """One game of levels (:data:`PLAYED_BY`) to its end; some decisions of the first seat in cells still
    wanted are weighed, and those that teach kept (the others that teach less, but something, as spares)."""
    names = [f"Player {n}" for n in range(1, players + 1)]
    game = Game(rules, names, dice=SeededDice(rng.getrandbits(63)))
    seats = [bots.make(f"bot:{rng.choice(PLAYED_BY)}") for _ in range(players)]
    while not game.is_over:
        if game.current == 0 and game.turn.dice is not None and rng.random() < LOOKED_AT:
            cell = (phase_of(game), kind_of(game))
            if len(found[cell]) < wanted.count(cell):
                exercise = _teaching(game, goal)
                if exercise is not None:
                    found[cell].append(exercise)
                elif len(spare) < len(wanted):
                    near = _teaching(game, goal, share=0.25)
                    if near is not None:
                        spare.append(near)
        game.apply(seats[game.current].choose(game))


def _teaching(game: Game, goal: Goal, *, share: float = 1.0) -> Exercise | None:
    """The exercise of ``game``'s position if a lower level's choice there costs at least
    ``share`` of :data:`TEACHES`: the best such level's mistake; else None."""
    situation = game.situation()
    choices = level_choices(situation, goal)
    lower = {n: action for n, action in choices.items() if n < EXACT_LEVEL}
    best = choices[EXACT_LEVEL + 1] if goal == WIN else choices[EXACT_LEVEL]
    if all(action == best for action in lower.values()):
        return None  # every level finds the best: nothing to weigh (and no advice asked)
    options = advice(situation, goal)
    values = {c.action: c.value for c in options}
    top = options[0].value
    least = TEACHES[goal.unit] * share
    costly = [n for n, action in sorted(lower.items()) if top - values.get(action, top) >= least]
    if not costly:
        return None
    n = costly[-1]
    return Exercise(
        situation,
        phase_of(game),
        kind_of(game),
        str(goal),
        str(lower[n]),
        n,
        tuple(options),
        tuple(sorted(choices.items())),
    )


__all__ = [
    "KINDS",
    "KIND_WORDS",
    "MAX_SERIES",
    "PHASES",
    "PHASE_WORDS",
    "QUESTIONS",
    "SERIES",
    "TEACHES",
    "Exercise",
    "Result",
    "TrainerError",
    "Verdict",
    "advice",
    "answer",
    "daily_seed",
    "kind_of",
    "level_choices",
    "phase_of",
    "result",
    "series",
]
