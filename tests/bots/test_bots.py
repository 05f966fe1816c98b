"""The bots: made by name, always legal, deterministic, and clearly better than chance."""

from __future__ import annotations

import functools
import random
import statistics
import time

import pytest

from kniffel import Action, Announce, FreeThrow, Game, Roll, Score, ScoreSheet, SeededDice, bots, rules
from kniffel.bots import Bot, HeuristicBot


def _solo(rules_id: str, seed: int, options: dict[str, str] | None = None, players: int = 1) -> Game:
    """A finished bot game; the same game is played once per test session (tests only read it)."""
    return _played(rules_id, seed, tuple(sorted((options or {}).items())), players)


@functools.cache
def _played(rules_id: str, seed: int, options: tuple[tuple[str, str], ...], players: int) -> Game:
    game = Game(rules.get(rules_id, dict(options)), [f"P{i}" for i in range(players)], dice=SeededDice(seed))
    return bots.play(game, [bots.make("bot")] * players)


def _position(rules_id: str, dice: tuple[int, ...], sheet: str = "", **options: str) -> Game:
    """A game of one player who has just rolled ``dice`` (first roll) on ``sheet``."""
    rule_set = rules.get(rules_id, options)
    game = Game(rule_set, ["Ada"], dice=SeededDice(0))
    if sheet:
        game.sheets[0] = ScoreSheet.parse(rule_set, sheet)
    game.apply(Roll(dice=dice))
    return game


# --- making bots -----------------------------------------------------------------------------------


def test_make_knows_the_default_and_the_heuristic_bot() -> None:
    assert isinstance(bots.make("bot"), HeuristicBot)
    assert isinstance(bots.make("bot:heuristic", seed=3), HeuristicBot)
    assert {"bot", "bot:heuristic"} <= set(bots.available())


@pytest.mark.parametrize("spec", ["robot", "bot:genius", "", "human", "bot:heuristic:x"])
def test_unknown_bot_names_the_known_ones(spec: str) -> None:
    with pytest.raises(ValueError, match=r"unknown bot .*bot:heuristic"):
        bots.make(spec)


def test_registered_bots_can_be_made(monkeypatch: pytest.MonkeyPatch) -> None:
    class Hasty:
        """Rolls once and takes the first box offered: legal, terrible."""

        name = "hasty"

        def __init__(self, seed: int | None = None) -> None:
            self.seed = seed

        def choose(self, game: Game) -> Action:
            return next(a for a in game.legal_actions() if not isinstance(a, Roll) or game.turn.dice is None)

    monkeypatch.setattr(bots, "_REGISTRY", dict(bots._REGISTRY))
    bots.register("hasty", Hasty)
    bot = bots.make("bot:hasty", seed=5)
    assert isinstance(bot, Hasty)
    assert bot.seed == 5
    assert "bot:hasty" in bots.available()
    game = bots.play(Game(rules.get("kniffel"), ["A"], dice=SeededDice(1)), [bot])
    assert game.is_over


@pytest.mark.parametrize("name", ["", "a:b", " x"])
def test_register_refuses_bad_names(name: str) -> None:
    with pytest.raises(ValueError, match="bot name"):
        bots.register(name, HeuristicBot)


def test_play_needs_a_bot_per_player() -> None:
    game = Game(rules.get("kniffel"), ["A", "B"], dice=SeededDice(1))
    with pytest.raises(ValueError, match="a table of 2 needs a bot for each"):
        bots.play(game, [bots.make("bot")])


def test_a_finished_game_has_nothing_to_choose() -> None:
    game = _solo("kniffel", 1)
    with pytest.raises(ValueError, match="over"):
        bots.make("bot").choose(game)


def test_the_heuristic_bot_is_a_bot() -> None:
    bot: Bot = HeuristicBot()
    assert bot.name == "heuristic"


# --- legal play under every rule set ---------------------------------------------------------------

KNOEFFEL_FREE = {"free_throws_per_turn": "3", "sharp": "on"}
VARIANTS = [
    *((rules_id, None) for rules_id in rules.available()),
    ("kniffel", {"sharp": "on"}),
    ("kniffel", {"strict": "on"}),
    ("kniffel", {"extra": "100"}),
    ("yahtzee", {"joker": "free"}),
    ("yahtzee", {"joker": "none", "five_full_house": "on"}),
    ("knoeffel", KNOEFFEL_FREE),
    ("yatzy-deluxe", {"strict": "on"}),
    ("kniffel-3col", {"extra": "100", "sharp": "on"}),
]


@pytest.mark.parametrize(("rules_id", "options"), VARIANTS)
def test_the_bot_finishes_a_game_with_legal_actions(rules_id: str, options: dict[str, str] | None) -> None:
    game = _solo(rules_id, 11, options)  # play() raises IllegalActionError on an illegal action
    assert game.is_over
    sheet = game.sheets[0]
    assert sheet.is_full
    # Random play averages about 22 a column; strict Kniffel, where every box is forced, about 130.
    assert sheet.total > 60 * len(game.rules.columns)


def test_two_bots_share_a_game() -> None:
    game = _solo("yatzy", 4, players=2)
    assert all(sheet.is_full for sheet in game.sheets)
    assert game.winners()


@pytest.mark.parametrize(
    ("rules_id", "options"), [("knoeffel", None), ("kniffel-4col", None), ("yams", None)]
)
def test_the_bot_answers_legally_from_any_position(rules_id: str, options: dict[str, str] | None) -> None:
    """A random player leaves the bot odd positions: half-kept dice, announcements, free throws taken."""
    rng = random.Random(rules_id)
    bot = bots.make("bot")
    game = Game(rules.get(rules_id, options), ["Random"], dice=SeededDice(3))
    asked = 0
    while not game.is_over:
        if rng.random() < 0.3:
            before = game.dumps()
            action = bot.choose(game)
            assert game.dumps() == before, "choosing must not change the game"
            assert game.can_apply(action), f"{action} in {game.turn}"
            asked += 1
        game.apply(rng.choice(game.legal_actions()))
    assert asked > 10


def test_the_bot_announces_in_announced_columns_and_takes_free_throws() -> None:
    assert any(isinstance(a, Announce) for a in _solo("kniffel-4col", 11).log)
    assert any(isinstance(a, FreeThrow) for a in _solo("knoeffel", 11, KNOEFFEL_FREE).log)


# --- determinism and strength ----------------------------------------------------------------------


def test_the_same_seed_gives_the_same_game() -> None:
    first = _solo("yatzy", 4, players=2)
    again = Game(rules.get("yatzy"), ["P0", "P1"], dice=SeededDice(4))
    bots.play(again, [bots.make("bot", seed=1), bots.make("bot:heuristic", seed=99)])
    assert again.log == first.log
    assert _solo("yatzy", 5, players=2).log != first.log


def test_mean_yahtzee_score_is_far_above_chance() -> None:
    # Measured: about 250 over 1000 games (sd 57); random play scores about 25, keeping the first
    # roll and taking its best box about 110.
    totals = [_solo("yahtzee", seed).sheets[0].total for seed in range(20)]
    assert statistics.mean(totals) > 210


def test_mean_knoeffel_score_is_far_above_chance() -> None:
    # Measured: about 527 over 60 games (sd 35; two columns and the free-throw boxes); random play
    # about 57.
    totals = [_solo("knoeffel", seed).sheets[0].total for seed in range(6)]
    assert statistics.mean(totals) > 450


def test_a_two_player_game_is_quick() -> None:
    start = time.process_time()
    _solo("kniffel", 5, players=2)
    assert time.process_time() - start < 4  # typically about 0.3 s


# --- obvious decisions -----------------------------------------------------------------------------

FULL_BUT_SIXES = (
    "ones=3,twos=6,threes=9,fours=12,fives=15,three_of_a_kind=20,four_of_a_kind=20,"
    "full_house=25,small_straight=30,large_straight=40,yahtzee=50,chance=20"
)


@pytest.mark.parametrize(
    ("rules_id", "dice", "sheet", "expected"),
    [
        ("yahtzee", (4, 4, 4, 4, 4), "", Score("yahtzee")),
        ("kniffel", (2, 2, 2, 2, 2), "", Score("kniffel")),
        ("yatzy", (6, 6, 6, 6, 6), "", Score("yatzy")),
        ("yatzy-deluxe", (5, 5, 5, 5, 5, 5), "", Score("yatzy")),
        ("yahtzee", (1, 2, 3, 4, 5), "", Score("large_straight")),
        ("yahtzee", (1, 6, 6, 6, 6), "", Roll(keep=(6, 6, 6, 6))),
        ("yahtzee", (2, 6, 6, 6, 6), FULL_BUT_SIXES, Roll(keep=(6, 6, 6, 6))),
        ("yahtzee", (2, 3, 3, 5, 6), FULL_BUT_SIXES, Roll(keep=(6,))),
        ("yahtzee", (6, 6, 6, 6, 6), FULL_BUT_SIXES, Score("sixes")),
    ],
)
def test_obvious_decisions(rules_id: str, dice: tuple[int, ...], sheet: str, expected: Action) -> None:
    assert bots.make("bot").choose(_position(rules_id, dice, sheet)) == expected


def test_a_sharp_full_house_thrown_at_once_is_taken() -> None:
    game = _position("kniffel", (2, 2, 5, 5, 5), sharp="on")
    assert game.placements()["full_house"].points == 50
    assert bots.make("bot").choose(game) == Score("full_house")


def test_the_first_action_of_a_turn_is_a_roll() -> None:
    game = Game(rules.get("yams"), ["A"], dice=SeededDice(0))
    assert bots.make("bot").choose(game) == Roll()


def test_the_last_roll_goes_in_the_best_box() -> None:
    game = _position("yahtzee", (3, 3, 3, 5, 5))
    game.apply(Roll(keep=(3, 3, 3, 5, 5)[:4], dice=(3, 3, 3, 5, 5)))
    game.apply(Roll(keep=(3, 3, 3, 5), dice=(3, 3, 3, 5, 5)))
    assert game.rolls_left == 0
    assert bots.make("bot").choose(game) == Score("full_house")


def test_a_live_bot_plays_as_the_quick_bot_until_its_points_table_is_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a fresh install the points table's kernels compile for half a minute: a bot people watch
    plays the quick bot's choice meanwhile (the table handed to the worker), its own once the table is
    there; a bot nobody watches (tournaments) solves what it needs and plays its goal. Bots of every
    goal ask for the table first (those of a chance read it too)."""
    import kniffel.bots as bots_module
    from kniffel.planning import planner_for

    ruleset = rules.get("kniffel")
    game = Game(ruleset, ["Ada", "Bob"], dice=SeededDice(1))
    game.apply(Roll())
    quick = planner_for(ruleset, method="heuristic").choices(game)[0].action
    best = bots.make("bot:optimal").choose(game)
    assert quick != best  # a throw where the two differ, so the test can tell them apart
    waited: list[float] = []

    class Solving:
        """The worker's job for the table, not done: waited for no longer than the bot's patience."""

        def wait(self, timeout: float | None = None) -> bool:
            waited.append(timeout or 0.0)
            return False

    asked: list[object] = []

    def job(rules: object) -> Solving:
        asked.append(rules)
        return Solving()

    monkeypatch.setattr(bots_module, "advisor_job", job)
    monkeypatch.setattr(bots_module, "TABLE_PATIENCE", 0.01)
    monkeypatch.setattr(bots_module, "compiling", lambda: None)  # (another test's work may compile)
    for spec in ("bot:optimal", "bot:win", "bot:target:250"):
        assert bots.make(spec, live=True).choose(game) == quick
    assert asked == [ruleset] * 3
    assert waited == [0.01] * 3
    # a compile under way is not waited for at all
    monkeypatch.setattr(bots_module, "compiling", lambda: object())
    live = bots.make("bot:optimal", live=True)
    assert live.choose(game) == quick
    assert waited[-1] == 0.0
    # nobody watches: no fallback, the goal's own choice
    assert bots.make("bot:optimal").choose(game) == best
    assert len(asked) == 4
    # the table there: the bot's own choice
    monkeypatch.setattr(bots_module, "advisor_job", lambda rules: None)
    assert live.choose(game) == best
