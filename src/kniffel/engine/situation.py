"""A situation: everything that matters to the player to move, as one line of text.

A :class:`Situation` is the rule set, the sheet of the player to move and the state of the turn. It is
what advice depends on: :meth:`kniffel.Game.situation` takes it from a game, and
:meth:`kniffel.Game.from_situation` makes a one-player game in it, so a planner can value the options.

Its text (``str(situation)``, read back by :meth:`Situation.parse`) is parts separated by ``|``::

    RULES [OPTION=VALUE ...] | SHEET | DICE | rolls left N [| free throws taken N] [| thrown at once]
        [| announced BOX] [| others SHEET ; SHEET ...]

* ``RULES``: the rule set id and its options (``yahtzee joker=free``); reading it back takes a built-in
  rule set (a rule set of one's own travels as JSON, :meth:`kniffel.RuleSet.to_json`).
* ``SHEET``: the sheet as :class:`kniffel.ScoreSheet` writes it (every column, extra bonuses, free
  throws used), ``empty`` if nothing is entered yet.
* ``DICE``: the dice showing (``2 2 3 5 5``), ``no dice`` before the turn's first roll.
* ``rolls left N``: regular rolls still allowed this turn.
* ``free throws taken N``: free throws taken this turn (Knöffel), when not 0.
* ``thrown at once``: the last throw was of all dice together (the sharp option doubles figures then).
* ``announced BOX``: the box announced this turn (announced columns).
* ``others SHEET ; SHEET``: the other players' sheets, in the order they move after the player to move
  (the players who come later in this round first, then those who have had their turn in it: one box
  more). With them the text holds the whole table, as chess's FEN holds the whole board: what playing to
  win depends on (``kniffel advise --goal win --situation TEXT``).

Reading back, the sheets' boxes may be named as a sheet prints them, in either language and with their
spaces (:meth:`kniffel.ScoreSheet.parse`), and the parts after the dice in German too (``noch 1 Wurf``,
``keine Würfel``, ``auf einmal geworfen``, ``angesagt BOX``, ``andere SHEET ; SHEET``): a table's text
in the words its German players read.

For example::

    yahtzee joker=free | ones=3 fives=15 yahtzee=50 | 2 2 3 5 5 | rolls left 1
    kniffel-4col | 1:ones=2 2:chance=24 | 1 3 3 3 6 | rolls left 2 | thrown at once | announced 3:threes
    knoeffel | 1:knoeffel=20 2:free_throws_used=1 | 4 4 4 6 6 | rolls left 0 | free throws taken 1
    yahtzee | ones=3 yahtzee=50 | 2 2 3 5 5 | rolls left 1 | others twos=6 fives=15 ; ones=2 fours=8 chance=22
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kniffel.base.dice import validate_dice
from kniffel.base.errors import SituationError, UnknownBoxError
from kniffel.engine.sheet import ScoreSheet
from kniffel.rules import Order, RuleSet, find_box, parse_options
from kniffel.rules import get as get_rules

Faces = tuple[int, ...]

SEPARATOR = " | "
NO_DICE = "no dice"
OTHERS = "others"
MAX_OTHERS = 7
_NO_DICE = ("no dice", "keine würfel")
_OTHERS = ("others", "andere")
_DETAILS = {
    "rolls_left": re.compile(
        r"rolls left (\d+)|(\d+) rolls? left|(no) rolls left"
        r"|noch (\d+) (?:wurf|würfe)|würfe übrig (\d+)|(keine) würfe mehr"
    ),
    "free_throws": re.compile(r"free throws taken (\d+)|freiwürfe genommen (\d+)"),
    "thrown_at_once": re.compile(r"thrown at once|auf einmal geworfen"),
    "announced": re.compile(r"announced (.+)|angesagt (.+)"),
}
"""The parts after the dice, in the words ``str`` writes and in those a German table says them with."""


@dataclass(frozen=True)
class Situation:
    """The position of the player to move: rules, sheet and turn. Checked when made
    (:class:`~kniffel.base.errors.SituationError` says what cannot be); the sheet is the situation's own
    copy."""

    rules: RuleSet
    sheet: ScoreSheet = field(hash=False)
    dice: Faces | None
    """The dice showing, sorted; None before the turn's first roll."""
    rolls_left: int
    """Regular rolls still allowed this turn."""
    free_throws: int = 0
    """Free throws taken this turn."""
    thrown_at_once: bool = False
    """The last throw was of all dice together."""
    announced: str | None = None
    """The box announced this turn."""
    others: tuple[ScoreSheet, ...] = field(default=(), hash=False)
    """The other players' sheets, in the order they move after the player to move: first those still
    to move in this round (as many boxes filled as the player to move), then those who have moved in it
    (one more)."""

    def __post_init__(self) -> None:
        rules, sheet = self.rules, self.sheet
        if not isinstance(sheet, ScoreSheet) or sheet.rules != rules:
            raise SituationError(f"the sheet must be a sheet of {rules.id}")
        object.__setattr__(
            self,
            "sheet",
            ScoreSheet(rules, dict(sheet.entries), dict(sheet.extra_bonus), dict(sheet.free_throws_used)),
        )
        if sheet.is_full:
            raise SituationError("the sheet is full: no turn is left to play")
        sheet.check_fill_order()
        self._check_others()
        if self.dice is not None:
            object.__setattr__(self, "dice", validate_dice(self.dice, rules.dice))
        if isinstance(self.rolls_left, bool) or not isinstance(self.rolls_left, int):
            raise SituationError(f"rolls left must be a whole number, got {self.rolls_left!r}")
        if self.dice is None:
            if self.rolls_left != rules.rolls or self.free_throws or self.thrown_at_once or self.announced:
                rolls = rules.rolls
                raise SituationError(
                    f"before the first roll there are no dice, every roll is left ({rolls}), nothing else"
                )
            return
        if not 0 <= self.rolls_left < rules.rolls:
            raise SituationError(
                f"rolls left must be 0 to {rules.rolls - 1} once the dice are showing, got {self.rolls_left}"
            )
        self._check_free_throws()
        if not isinstance(self.thrown_at_once, bool):
            raise SituationError(f"thrown at once is true or false, got {self.thrown_at_once!r}")
        if self.announced is not None:
            try:
                column, _ = rules.locate(self.announced)
            except UnknownBoxError as error:
                raise SituationError(f"announced: {error}") from None
            if column.order is not Order.ANNOUNCED:
                raise SituationError(f"{self.announced} is not in an announced column")
            if self.announced in sheet.entries:
                raise SituationError(f"{self.announced} is announced but already filled")

    def _check_others(self) -> None:
        rules, others = self.rules, self.others
        if not isinstance(others, tuple) or not all(isinstance(o, ScoreSheet) for o in others):
            raise SituationError("the other players' sheets must be a tuple of sheets")
        if len(others) > MAX_OTHERS:
            raise SituationError(f"a table has at most {MAX_OTHERS + 1} players, got {len(others) + 1}")
        copies = []
        turns = len(self.sheet.entries)
        before = turns
        for n, other in enumerate(others, 1):
            if other.rules != rules:
                raise SituationError(f"the other players' sheets must be sheets of {rules.id}")
            other.check_fill_order()
            taken = len(other.entries)
            if taken not in (turns, turns + 1):
                moved = turns + 1
                raise SituationError(
                    f"other player {n}: {taken} filled, where at this point of the round a sheet has {turns} "
                    f"filled (its player still to move) or {moved} (has moved)"
                )
            if taken < before:
                raise SituationError(
                    "list the other players in the order they move: those still to move in this round "
                    "first, then those who have moved"
                )
            before = taken
            copies.append(
                ScoreSheet(rules, dict(other.entries), dict(other.extra_bonus), dict(other.free_throws_used))
            )
        object.__setattr__(self, "others", tuple(copies))

    def _check_free_throws(self) -> None:
        rules, taken = self.rules, self.free_throws
        if isinstance(taken, bool) or not isinstance(taken, int) or taken < 0:
            raise SituationError(f"free throws taken must be 0 or more, got {taken!r}")
        if not taken:
            return
        if not rules.free_throws:
            raise SituationError(f"{rules.id} has no free throws")
        if taken > rules.free_throws_per_turn:
            most = rules.free_throws_per_turn
            raise SituationError(f"free throws a turn: at most {most}, got {taken}")
        if self.rolls_left:
            raise SituationError("free throws come after the regular rolls: rolls left must be 0")
        sheet = self.sheet
        if not any(
            sheet.free_throws_left(c) >= taken
            and any(rules.key(c, b) not in sheet.entries for b in rules.boxes)
            for c in rules.columns
        ):
            raise SituationError(f"no column with a free box can pay for the free throws taken ({taken})")

    # --- text ------------------------------------------------------------------------------------

    def __str__(self) -> str:
        rules = self.rules
        parts = [
            " ".join([rules.id, *(f"{k}={v}" for k, v in sorted(rules.options.items()))]),
            str(self.sheet),
            NO_DICE if self.dice is None else " ".join(map(str, self.dice)),
            f"rolls left {self.rolls_left}",
        ]
        if self.free_throws:
            parts.append(f"free throws taken {self.free_throws}")
        if self.thrown_at_once:
            parts.append("thrown at once")
        if self.announced is not None:
            parts.append(f"announced {self.announced}")
        if self.others:
            parts.append(f"{OTHERS} " + " ; ".join(str(other) for other in self.others))
        return SEPARATOR.join(parts)

    @classmethod
    def parse(cls, text: str) -> Situation:
        """The situation ``str(situation)`` wrote (the grammar is in the module docstring); a
        :class:`~kniffel.base.errors.KniffelError` says what is wrong (``SituationError`` for the text and the
        turn, ``RulesError`` and ``SheetError`` for those parts)."""
        parts = [part.strip() for part in text.split("|")]
        if len(parts) < 3:
            raise SituationError(
                f"a situation is RULES | SHEET | DICE | rolls left N [| ...], got {text.strip()!r}"
            )
        words = parts[0].split()
        if not words:
            raise SituationError("a situation starts with its rule set id, e.g. 'kniffel'")
        rules = get_rules(words[0], parse_options(words[1:]))
        sheet = ScoreSheet.parse(rules, parts[1])
        dice = None if " ".join(parts[2].lower().split()) in _NO_DICE else _dice(parts[2])
        found: dict[str, str | None] = {}
        others: tuple[ScoreSheet, ...] = ()
        for part in parts[3:]:
            detail = " ".join(part.split())
            word, _, rest = detail.partition(" ")
            if word.lower() in _OTHERS:
                if others:
                    raise SituationError(f"{detail!r}: the situation says this twice")
                texts = [text.strip() for text in rest.split(";")]
                if not rest.strip() or not all(texts):
                    raise SituationError("others are sheets separated by ';', as in 'others twos=6 ; empty'")
                others = tuple(ScoreSheet.parse(rules, text) for text in texts)
                continue
            for name, pattern in _DETAILS.items():
                match = pattern.fullmatch(detail.lower())
                if match is not None:
                    if name in found:
                        raise SituationError(f"{detail!r}: the situation says this twice")
                    said = next((group for group in match.groups() if group is not None), None)
                    if name == "announced":  # the box as typed, in its own case
                        said = _announced(rules, detail[len(detail) - len(said or "") :])
                    found[name] = "0" if said in ("no", "keine") else said
                    break
            else:
                expected = (
                    "rolls left N, free throws taken N, thrown at once, announced BOX or others SHEET ; SHEET"
                )
                raise SituationError(f"{detail!r} is not a part of a situation; expected {expected}")
        if "rolls_left" not in found:
            raise SituationError("the situation must say how many rolls are left: 'rolls left N'")
        return cls(
            rules,
            sheet,
            dice,
            int(found["rolls_left"] or 0),
            free_throws=int(found.get("free_throws") or 0),
            thrown_at_once="thrown_at_once" in found,
            announced=found.get("announced"),
            others=others,
        )


def _announced(rules: RuleSet, text: str) -> str:
    """The key of an announced box, named as anywhere (``3:threes``, ``Dreier (3)``)."""
    try:
        return find_box(rules, text)
    except UnknownBoxError as error:
        raise SituationError(f"announced: {error}") from None


def _dice(text: str) -> Faces:
    words = text.replace(",", " ").split()
    try:
        return tuple(int(word) for word in words)
    except ValueError:
        raise SituationError(
            f"dice are faces 1 to 6 separated by spaces, or '{NO_DICE}'; got {text!r}"
        ) from None


__all__ = ["Situation"]
