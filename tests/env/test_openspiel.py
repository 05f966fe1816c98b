"""The engine as a game of OpenSpiel's: random games played through OpenSpiel, chance nodes and all,
replayed through :class:`kniffel.Game` give the same legal actions, dice and returns, on every rule set;
OpenSpiel's own checks and algorithms run on it. Skipped where the ``openspiel`` extra is not installed."""

from __future__ import annotations

import math
import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed: pip install 'kniffel[openspiel]'"
)

import kniffel.env.openspiel  # noqa: E402 - registers the game once pyspiel is known to be there
from kniffel import Game, ScoreSheet, rules  # noqa: E402
from kniffel.base.keeps import keep_lattice  # noqa: E402
from kniffel.engine.actions import FreeThrow, Roll  # noqa: E402
from kniffel.env import Encoding  # noqa: E402


def play(rules_id: str, options: str, players: int, seed: int) -> tuple[list[int], list[float]]:
    """A random game through OpenSpiel (chance outcomes drawn by their probabilities): its history and
    its returns."""
    game = pyspiel.load_game(
        kniffel.env.openspiel.NAME, {"rules": rules_id, "options": options, "players": players}
    )
    state = game.new_initial_state()
    rnd = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            actions, weights = zip(*outcomes, strict=True)
            state.apply_action(rnd.choices(actions, weights)[0])
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
    return state.history(), state.returns()


def canonical(encoding: Encoding, game: Game) -> list[int]:
    """The legal actions of ``game`` one per effect: the mask's, a throw held by its first matching
    dice."""
    mask = encoding.mask(game.legal)
    keeps = {encoding.index(Roll(keep=keep), game.dice) for keep in game.legal.keeps}
    return [a for a in range(encoding.n_actions) if mask[a] and (a >= encoding.n_keeps or a in keeps)]


CASES = [(rules_id, "", players) for rules_id in rules.available() for players in (1, 2)] + [
    ("yahtzee", "joker=free", 3),
    ("kniffel", "sharp=on extra=100", 1),
    ("knoeffel", "free_throws_per_turn=2", 2),
]


@pytest.mark.parametrize(("rules_id", "options", "players"), CASES)
def test_random_games_through_openspiel_are_the_engines(rules_id: str, options: str, players: int) -> None:
    ruleset = rules.get(rules_id, rules.parse_options(options.split()))
    encoding = Encoding(ruleset, players)
    lattice = keep_lattice(ruleset.dice)
    history, returns = play(rules_id, options, players, seed=len(CASES) * players + len(rules_id))
    replayed = pyspiel.load_game(
        kniffel.env.openspiel.NAME, {"rules": rules_id, "options": options, "players": players}
    ).new_initial_state()
    game = Game(ruleset, [f"player_{i}" for i in range(players)])
    held: tuple[int, ...] | None = ()
    free = False
    for action in history:
        if held is not None:  # the dice
            assert replayed.is_chance_node()
            dice = lattice.keeps[lattice.first_roll + action]
            assert all(held.count(face) <= dice.count(face) for face in held)
            game.apply((FreeThrow if free else Roll)(keep=held, dice=dice))
            held = None
        else:
            assert replayed.current_player() == game.current
            assert replayed.legal_actions() == canonical(encoding, game)
            move = encoding.action(action, game.dice, free=game.legal.free_throw)
            assert move in game.legal
            if isinstance(move, Roll):
                held, free = move.keep, isinstance(move, FreeThrow)
            elif game.apply(move).ends_turn and not game.is_over:
                held, free = (), False
        replayed.apply_action(action)
    assert game.is_over
    assert replayed.is_terminal()
    empty = ScoreSheet(ruleset).total
    assert returns == [float(total - empty) for total in game.totals]
    assert replayed.game().totals == game.totals


def test_openspiels_checks_and_algorithms_run_on_it() -> None:
    """OpenSpiel's random simulation test (serialising states too) and an MCTS bot."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    for params in ({"rules": "yatzy", "players": 2}, {"rules": "knoeffel"}, {"rules": "kniffel-3col"}):
        pyspiel.random_sim_test(pyspiel.load_game(kniffel.env.openspiel.NAME, params), 2, True, False)
    game = pyspiel.load_game(kniffel.env.openspiel.NAME, {"rules": "yahtzee"})
    state = game.new_initial_state()
    state.apply_action(0)  # the first throw shows 1 1 1 1 1
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 20, evaluator, random_state=np.random.RandomState(0))
    action = bot.step(state)
    assert action in state.legal_actions()
    assert state.observation_tensor(0) == list(Encoding(game.rules).observe(state.game()))
