"""Games driven turn by turn as a score pad is filled in, and a position as one comparable value."""

from __future__ import annotations

from collections.abc import Sequence

from kniffel import Game, SeededDice
from kniffel.engine.actions import Action, Roll, Score, Strike
from support.rules import ruleset


def new_game(rules_id: str, players: Sequence[str] = ("Ada", "Bob"), seed: int = 1, **options: str) -> Game:
    return Game(ruleset(rules_id, **options), list(players), dice=SeededDice(seed))


def turn(game: Game, *throws: Sequence[int], keep: Sequence[Sequence[int]] = (), then: Action) -> None:
    """Play one score-pad turn: the given throws in order (the n-th roll keeps ``keep[n-1]`` of the
    previous dice; ``throws`` are the full dice after each roll), then ``then`` (a Score or Strike)."""
    keeps = [(), *keep]
    assert len(keeps) == len(throws), "one keep per roll after the first"
    for kept, dice in zip(keeps, throws, strict=True):
        game.apply(Roll(keep=tuple(sorted(kept)), dice=tuple(sorted(dice))))
    assert isinstance(then, Score | Strike)
    game.apply(then)


def score(game: Game, dice: Sequence[int], box: str) -> None:
    """One-roll turn: throw ``dice`` and score them in ``box``."""
    turn(game, dice, then=Score(box))


def strike(game: Game, dice: Sequence[int], box: str) -> None:
    turn(game, dice, then=Strike(box))


def state(game: Game) -> tuple[object, ...]:
    """Everything that makes up a position, comparable with ``==``."""
    return (
        game.rules,
        game.players,
        game.current,
        game.turn,
        tuple(game.log),
        tuple((s.entries, s.extra_bonus, s.free_throws_used) for s in game.sheets),
    )
