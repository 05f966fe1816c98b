"""Actions, their one text form, what applying one did, and the legal actions of a position.

Every move is a small immutable :class:`Action`. ``str(action)`` and :meth:`Action.parse` are the one
text form of actions, used by the game's log, saved games, the advisor's options, hints and review, and
typed at the terminal prompt::

    roll                        throw all dice
    roll keep 3 3               hold 3 3, throw the rest
    roll keep 3 3 = 1 3 3 4 6   the same with its result (a score pad, a replay)
    free / free keep 6 6        a free throw (Knöffel), likewise
    announce 3:full_house       the box an announced column's turn is for
    score chance                enter the dice in a box
    strike ones                 enter 0 in a box

People read and type actions more freely: :func:`action_text` is an action as hints and reviews show it
in a language ("keep 3 3", "score Chance"; in German "3 3 halten", "Chance eintragen"), and
:func:`read_action` reads what a person typed against the legal actions (short forms such as ``r``,
``k 3 3``, ``s full``, any box name, and every language's shown forms).

:meth:`kniffel.Game.apply` returns an :class:`Outcome` saying what the action did, and
:attr:`kniffel.Game.legal` is the :class:`LegalActions` of the position, computed once per position.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, ClassVar

from kniffel.base.dice import validate_dice
from kniffel.base.errors import DiceError, GameFormatError, UnknownBoxError
from kniffel.base.i18n import LANGUAGES, N_, translate
from kniffel.rules import Placement, RuleSet, find_box

Faces = tuple[int, ...]
"""Dice, sorted ascending."""


def _faces(text: Iterable[str]) -> Faces:
    words = list(text)
    try:
        return tuple(int(t) for t in words)
    except ValueError:
        raise GameFormatError(f"dice are numbers 1-6, got {' '.join(words)!r}") from None


@dataclass(frozen=True)
class Action:
    """Base of every action. ``str(action)`` and :meth:`parse` round-trip."""

    name: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.name}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is not None:
                data[f.name] = list(value) if isinstance(value, tuple) else value
        return data

    @staticmethod
    def from_json(data: object) -> Action:
        if not isinstance(data, Mapping) or not isinstance(data.get("action"), str):
            raise GameFormatError(f"not an action: {data!r}")
        if data["action"] not in ACTION_TYPES:
            raise GameFormatError(f"not an action: {data!r}")
        cls = ACTION_TYPES[data["action"]]
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name in ("keep", "dice"):
                if not isinstance(value, list) or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in value
                ):
                    raise GameFormatError(f"{f.name} must be a list of faces, got {value!r}")
                value = tuple(value)
            elif not isinstance(value, str):
                raise GameFormatError(f"{f.name} must be a box name, got {value!r}")
            kwargs[f.name] = value
        try:
            return cls(**kwargs)
        except TypeError as error:
            raise GameFormatError(f"incomplete action {data!r}: {error}") from None

    @staticmethod
    def parse(text: str) -> Action:
        """``roll``, ``roll keep 3 3 5``, ``roll keep 3 3 = 1 3 3 4 6``, ``free keep 6 6``,
        ``announce 3:full_house``, ``score chance``, ``strike ones``."""
        words = text.split()
        if not words or words[0] not in ACTION_TYPES:
            raise GameFormatError(f"unknown action {text!r}; actions: {', '.join(ACTION_TYPES)}")
        cls = ACTION_TYPES[words[0]]
        rest = words[1:]
        if issubclass(cls, Roll):
            dice: Faces | None = None
            if "=" in rest:
                at = rest.index("=")
                dice, rest = _faces(rest[at + 1 :]), rest[:at]
            if rest and rest[0] == "keep":
                rest = rest[1:]
            elif rest:
                raise GameFormatError(f"expected 'keep' after {words[0]!r}, got {rest[0]!r}")
            return cls(keep=_faces(rest), dice=dice)
        if len(rest) != 1:
            raise GameFormatError(f"{words[0]} takes one box, e.g. '{words[0]} chance'")
        return cls(rest[0])  # type: ignore[call-arg]


@dataclass(frozen=True)
class Roll(Action):
    """Throw the dice not kept. ``keep`` is the multiset of current dice set aside (empty for the
    first roll); ``dice`` is the result: given for a score pad or a replay, else drawn."""

    name: ClassVar[str] = "roll"
    keep: Faces = ()
    dice: Faces | None = None

    def __post_init__(self) -> None:
        # Dice are multisets: (5, 3) and (3, 5) are the same keep, so store them sorted.
        object.__setattr__(self, "keep", tuple(sorted(self.keep)))
        if self.dice is not None:
            object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def __str__(self) -> str:
        text = self.name + ("" if not self.keep else " keep " + " ".join(map(str, self.keep)))
        return text if self.dice is None else text + " = " + " ".join(map(str, self.dice))


@dataclass(frozen=True)
class FreeThrow(Roll):
    """A roll beyond the regular ones, paid from the column's free-throw box (Knöffel)."""

    name: ClassVar[str] = "free"


@dataclass(frozen=True)
class BoxAction(Action):
    """An action that names one box."""

    box: str

    def __str__(self) -> str:
        return f"{self.name} {self.box}"


@dataclass(frozen=True)
class Announce(BoxAction):
    """Name the box of an announced column this turn's roll is meant for (after the first roll)."""

    name: ClassVar[str] = "announce"


@dataclass(frozen=True)
class Score(BoxAction):
    """Enter the dice in a box; ends the turn."""

    name: ClassVar[str] = "score"


@dataclass(frozen=True)
class Strike(BoxAction):
    """Fill a box with 0; ends the turn."""

    name: ClassVar[str] = "strike"


ACTION_TYPES: dict[str, type[Action]] = {cls.name: cls for cls in (Roll, FreeThrow, Announce, Score, Strike)}


# --- what an action did --------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What an applied action did: :meth:`kniffel.Game.apply` returns it, so front ends show the points
    and bonuses without working them out again."""

    action: Action
    """The action as logged: a roll with the dice it gave."""
    player: int
    """Index of the player who acted."""
    box: str | None = None
    """The box a score or strike filled (None for rolls and announcements)."""
    points: int = 0
    """Points entered in the box (0 for a strike)."""
    extra_bonus: int = 0
    """The bonus for a further five of a kind this entry earned."""
    upper_bonus: int = 0
    """The upper-section bonus this entry completed (once per column)."""

    @property
    def dice(self) -> Faces | None:
        """The dice a roll gave (None for other actions)."""
        return self.action.dice if isinstance(self.action, Roll) else None

    @property
    def ends_turn(self) -> bool:
        return self.box is not None

    @property
    def total(self) -> int:
        """Everything the action added to the player's total."""
        return self.points + self.extra_bonus + self.upper_bonus


@dataclass(frozen=True)
class TakenBack:
    """An action a player took back (:meth:`kniffel.Game.undo`). The game keeps it on record, so that
    everyone sees what was changed, and saves it with the game."""

    at: int
    """Its place in the log: the number of actions before it (the action there now came instead)."""
    player: int
    """Index of the player whose action it was."""
    action: Action

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "player": self.player, "action": self.action.to_json()}


def read_taken_back(items: object, places: int, players: int) -> list[TakenBack]:
    """The taken-back actions a saved game lists (:meth:`TakenBack.to_json`), for a log of ``places``
    actions and ``players`` seats; :class:`~kniffel.base.errors.GameFormatError` says what is damaged."""
    if not isinstance(items, list):
        raise GameFormatError(f"taken_back must be a list, got {items!r}")
    taken: list[TakenBack] = []
    for number, item in enumerate(items, 1):
        if not isinstance(item, Mapping):
            raise GameFormatError(f"taken-back action {number} must be an object, got {item!r}")
        at, player = item.get("at"), item.get("player")
        if type(at) is not int or not 0 <= at <= places:
            raise GameFormatError(f"taken-back action {number}: at must be a place in the log, got {at!r}")
        if type(player) is not int or not 0 <= player < players:
            raise GameFormatError(f"taken-back action {number}: player must be a seat, got {player!r}")
        taken.append(TakenBack(at, player, Action.from_json(item.get("action"))))
    return taken


# --- the legal actions of a position -------------------------------------------------------------


@dataclass(frozen=True)
class LegalActions:
    """Every action allowed in one position, as :attr:`kniffel.Game.legal` gives it (computed once per
    position). ``action in legal`` answers for any action, ``list(legal)`` lists them: throws first (one
    per distinct keep), then announcements, scores and strikes."""

    keeps: tuple[Faces, ...] = ()
    """The dice that may be held for a throw (``()`` throws all of them); empty when no throw is allowed."""
    free_throw: bool = False
    """The throws are free throws (the regular rolls are used up)."""
    placements: Mapping[str, Placement] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    """Where the dice may be scored, and what each box pays."""
    strikeable: tuple[str, ...] = ()
    """Boxes that may be struck (filled with 0)."""
    announceable: tuple[str, ...] = ()
    """Boxes of announced columns that may be announced now."""
    n_dice: int = 5
    """Dice of the rule set: a roll that names its result must show this many."""

    @property
    def can_throw(self) -> bool:
        return bool(self.keeps)

    @cached_property
    def _keep_set(self) -> frozenset[Faces]:
        return frozenset(self.keeps)

    @cached_property
    def actions(self) -> tuple[Action, ...]:
        throw = FreeThrow if self.free_throw else Roll
        return (
            *(throw(keep=keep) for keep in self.keeps),
            *(Announce(box) for box in self.announceable),
            *(Score(box) for box in self.placements),
            *(Strike(box) for box in self.strikeable),
        )

    def __iter__(self) -> Iterator[Action]:
        return iter(self.actions)

    def __len__(self) -> int:
        return len(self.keeps) + len(self.announceable) + len(self.placements) + len(self.strikeable)

    def __contains__(self, action: object) -> bool:
        if isinstance(action, Roll):
            if isinstance(action, FreeThrow) != self.free_throw or action.keep not in self._keep_set:
                return False
            return action.dice is None or _includes(action.dice, action.keep, self.n_dice)
        if isinstance(action, Score):
            return action.box in self.placements
        if isinstance(action, Strike):
            return action.box in self.strikeable
        if isinstance(action, Announce):
            return action.box in self.announceable
        return False


# --- what people read and type --------------------------------------------------------------------

SHOWN: dict[type[Action], tuple[str, str]] = {
    Roll: (N_("roll"), N_("keep {kept}")),
    FreeThrow: (N_("free throw"), N_("free throw, keep {kept}")),
    Announce: (N_("announce {box}"), N_("announce {box}")),
    Score: (N_("score {box}"), N_("score {box}")),
    Strike: (N_("strike {box}"), N_("strike {box}")),
}
"""Per kind of action, how people read it without and with dice kept (a box action has one form; the
box is its label). A translation orders the words as its language does; :func:`read_action` reads
every language's words back."""

SHORT_FORMS: dict[str, type[Action] | None] = {
    "r": Roll,
    "f": FreeThrow,
    "s": Score,
    "x": Strike,
    "a": Announce,
    "k": None,
}
"""One-letter forms of the action words, read as the first word only (``k`` is ``keep``: a throw keeping
the faces given)."""

_SEPARATORS = re.compile(r"[\s,;]+")
_WORD = re.compile(r"[^\W\d_]+|\d+|[^\s,;.]+")


def action_text(action: Action, rules: RuleSet, language: str = "en") -> str:
    """``action`` as people read it in ``language``, a box by its label: ``keep 3 3``, ``score Small
    straight``; in German ``3 3 halten``, ``Kleine Straße eintragen``. The dice a throw gave follow an
    ``=``. :func:`read_action` reads it back (``str(action)`` is the text form saved games keep)."""
    plain, kept = SHOWN[type(action)]
    if isinstance(action, Roll):
        faces = " ".join(map(str, action.keep))
        text = translate(language, kept, kept=faces) if action.keep else translate(language, plain)
        return text if action.dice is None else f"{text} = {' '.join(map(str, action.dice))}"
    assert isinstance(action, BoxAction)
    column, box = rules.locate(action.box)
    label = box.label(language) + (f" ({column.id})" if rules.multi_column else "")
    return translate(language, plain, box=label)


@functools.cache
def action_words() -> dict[str, type[Action] | None]:
    """The words of actions: the text form's (``roll``, ``keep``, ``score``) and those of the shown forms
    in every language (``throw``, ``würfeln``, ``halten``, ``eintragen``);
    each the kind of action it names, or None for the words of keeping dice (``keep``, ``halten``)."""
    words: dict[str, type[Action] | None] = {"keep": None, **ACTION_TYPES}
    for kind, (plain, kept) in SHOWN.items():
        for language in LANGUAGES:
            own = set(_words(translate(language, plain, box="", kept="")))
            for word in own:
                words.setdefault(word, kind)
            for word in set(_words(translate(language, kept, box="", kept=""))) - own:
                words.setdefault(word, None)
    return words


def _words(text: str) -> list[str]:
    return [word.casefold() for word in _WORD.findall(text)]


def read_action(text: str, rules: RuleSet, legal: LegalActions) -> Action:
    """The action a person typed, read leniently against the ``legal`` actions of a position: any form
    :func:`action_text` shows, in any language, and short forms (``r``, ``k 3 3``, ``s full``,
    ``x 2:ch``, a box alone to score in it, faces alone to keep them). Box names are read by
    :func:`kniffel.rules.find_box`, preferring a legal box where a name fits several. Faces after a
    throw's word without ``keep`` are the dice the throw gave (a score pad), as after ``=``.

    :class:`~kniffel.base.errors.GameFormatError` (or :class:`~kniffel.base.errors.UnknownBoxError`) says what
    cannot be read; whether the action is allowed now is :meth:`kniffel.Game.check`'s to say."""
    before, equals, after = text.partition("=")
    known = action_words()
    kinds: list[type[Action]] = []
    keep = False
    faces: list[str] = []
    rest: list[str] = []
    typed = [word for word in _SEPARATORS.split(before) if word]
    for at, word in enumerate(typed):
        plain = word.strip(".").casefold()
        if at == 0 and plain in SHORT_FORMS:  # a one-letter command, not the "a" of "Three of a kind"
            kind = SHORT_FORMS[plain]
            if kind is None:
                keep = True
            else:
                kinds.append(kind)
        elif plain in known:
            kind = known[plain]
            if kind is None:
                keep = True
            elif kind not in kinds:
                kinds.append(kind)
        elif plain.isdecimal():
            faces.append(plain)
        elif plain:
            rest.append(word)
    kind = _kind_of(text, kinds, keep, faces, rest)
    if issubclass(kind, Roll):
        if rest:
            raise GameFormatError(f"a throw takes faces, not {' '.join(rest)!r}: e.g. 'keep 3 3'")
        result = _faces_typed([w for w in _SEPARATORS.split(after) if w], rules.dice) if equals else None
        if equals and not result:
            raise GameFormatError("after '=' come the dice the throw gave, e.g. roll keep 3 3 = 1 3 3 4 6")
        if keep or not faces or not kinds:
            if keep and not faces and not kinds:  # "roll keep" keeps nothing; "keep" alone says nothing
                raise GameFormatError("name the faces to keep, e.g. keep 6 6 (roll throws all dice)")
            return kind(keep=_faces_typed(faces, rules.dice), dice=result)
        if result is not None:
            raise GameFormatError("write the kept dice after 'keep': roll keep 3 3 = 1 3 3 4 6")
        return kind(dice=_faces_typed(faces, rules.dice))
    # A box's name may hold digits ("Chance (2)", "2 chance"): every word but the action's is the box.
    words = [
        w
        for at, w in enumerate(typed)
        if not (at == 0 and w.casefold() in SHORT_FORMS) and w.casefold() not in known
    ]
    if not words:
        raise GameFormatError(f"name a box, e.g. '{kind.name} chance'")
    among: Collection[str] = legal.announceable if kind is Announce else legal.strikeable
    if kind is Score:
        among = legal.placements
    try:
        box = find_box(rules, " ".join(words), among)
    except UnknownBoxError:
        if kinds:
            raise
        raise GameFormatError(
            f"{text.strip()!r} is no action: type e.g. 'roll', 'keep 3 3', 'score chance', 'strike ones'"
        ) from None
    return kind(box)  # type: ignore[call-arg]


def _kind_of(
    text: str, kinds: list[type[Action]], keep: bool, faces: list[str], rest: list[str]
) -> type[Action]:
    """The kind of action the words name: the one action word, a throw for ``keep`` or faces alone, a
    score for a box alone."""
    if FreeThrow in kinds and Roll in kinds:
        kinds.remove(Roll)  # "Freiwurf, 6 6 halten" and "free, roll keep 6 6" are free throws
    if len(kinds) > 1:
        names = " and ".join(SHOWN[k][0].split()[0] for k in kinds)
        raise GameFormatError(f"{text.strip()!r} names several actions ({names}): one at a time")
    if kinds:
        return kinds[0]
    if keep or (faces and not rest):
        return Roll
    if not rest:
        raise GameFormatError("type an action, e.g. 'roll', 'keep 3 3', 'score chance', 'strike ones'")
    return Score


def _faces_typed(words: Iterable[str], n_dice: int) -> Faces:
    """Faces typed as numbers (``3 3 5``, or ``335`` when a run is no longer than the dice), each checked
    to be a die's face."""
    spread = []
    for word in words:
        digits = word.strip(",;.")
        spread += list(digits) if digits.isdecimal() and 1 < len(digits) <= n_dice else [digits]
    return validate_dice(list(_faces(spread)), len(spread))


def _includes(dice: Faces, keep: Faces, n_dice: int) -> bool:
    """``dice`` are a possible result of throwing after holding ``keep``."""
    try:
        validate_dice(list(dice), n_dice)
    except DiceError:
        return False
    return is_submultiset(keep, dice)


def is_submultiset(part: Iterable[int], whole: Iterable[int]) -> bool:
    rest = list(whole)
    for face in part:
        if face not in rest:
            return False
        rest.remove(face)
    return True


__all__ = [
    "ACTION_TYPES",
    "SHORT_FORMS",
    "Action",
    "Announce",
    "BoxAction",
    "Faces",
    "FreeThrow",
    "LegalActions",
    "Outcome",
    "Roll",
    "Score",
    "Strike",
    "TakenBack",
    "action_text",
    "action_words",
    "read_action",
    "read_taken_back",
]
