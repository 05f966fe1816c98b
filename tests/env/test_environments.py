"""The reinforcement-learning environments: Gymnasium, PettingZoo and the vectorised one.

Every environment is checked against the game engine: episodes replayed through :class:`kniffel.Game`
give the same observations, masks, rewards and sheets.
"""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from kniffel import Game, ScoreSheet, rules
from kniffel.base.errors import KniffelError
from kniffel.core import StreamDice, UnsupportedRulesError
from kniffel.engine.actions import Roll, Score, Strike
from kniffel.env import ENV_ID, Encoding, EnvActionError, KniffelAECEnv, KniffelEnv, VectorKniffelEnv
from kniffel.env.vector import CompiledGames
from kniffel.planning import planner_for
from kniffel.rules import RuleSet, single_column

pytestmark = pytest.mark.xdist_group("env")
"""One worker runs them all: the first compiles kernels that nothing else the suite runs needs (the
environments' step, observation and reset, some 8 s of a core), which two workers starting the file at
once both compiled."""

COMPILED = [
    pytest.param(rules.get(rules_id, options), id=f"{rules_id}{options or ''}")
    for rules_id, options in [
        ("kniffel", {}),
        ("kniffel", {"extra": "100"}),
        ("kniffel", {"sharp": "on"}),
        ("kniffel", {"strict": "on"}),
        ("yahtzee", {}),
        ("yahtzee", {"joker": "free"}),
        ("yatzy", {}),
        ("yatzy-deluxe", {}),
    ]
] + [
    pytest.param(single_column(rules.get("knoeffel", {"free_throws_per_turn": n})), id=f"knoeffel-column-{n}")
    for n in ("1", "2")
]


@pytest.fixture
def no_warnings() -> Iterator[None]:
    """Every warning is an error: the checkers warn of what an environment should do otherwise."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def chase(
    encoding: Encoding, obs: np.ndarray[Any, Any], mask: np.ndarray[Any, Any], rnd: random.Random
) -> int:
    """A legal action that chases five of a kind (to reach the joker rules often), sometimes any."""
    legal = np.flatnonzero(mask)
    n = encoding.rules.dice
    if mask[0] and rnd.random() < 0.8:
        dice = obs[encoding.layout["dice"]]
        counts = obs[encoding.layout["counts"]]
        face = int(np.argmax(counts)) + 1
        held = sum(1 << i for i in range(n) if dice[i] == face)
        if held != (1 << n) - 1:
            return held
    return int(legal[rnd.randrange(len(legal))])


def replay_step(game: Game, encoding: Encoding, index: int, obs_after: np.ndarray[Any, Any]) -> float:
    """Apply action ``index`` to ``game`` with the dice the environment showed next; the reward."""
    dice = tuple(int(d) for d in obs_after[encoding.layout["dice"]])
    action = encoding.action(index, game.dice, free=game.legal.free_throw)
    if isinstance(action, Roll):
        game.apply(type(action)(keep=action.keep, dice=dice))
        return 0.0
    taken = game.turn.free_throws
    outcome = game.apply(action)
    if not game.is_over:
        game.apply(Roll(dice=dice))
    return float(outcome.total - taken * game.rules.free_throw_points)


# --- the Gymnasium environment -------------------------------------------------------------------


def test_gymnasium_make_registers_the_environment_with_rules_and_options() -> None:
    env = gymnasium.make(ENV_ID, rules="yahtzee", options={"joker": "free"})
    assert isinstance(env.unwrapped, KniffelEnv)
    assert env.unwrapped.rules == rules.get("yahtzee", {"joker": "free"})
    assert env.action_space == gymnasium.spaces.Discrete(31 + 2 * 13)


def test_make_vec_makes_the_compiled_vector_environment() -> None:
    envs = gymnasium.make_vec(ENV_ID, num_envs=5, rules="yatzy")
    assert isinstance(envs, VectorKniffelEnv)
    assert (envs.num_envs, envs.rules.id) == (5, "yatzy")
    obs, _ = envs.reset(seed=2)
    assert obs.shape == (5, envs.encoding.size)
    np.testing.assert_array_equal(obs, VectorKniffelEnv(5, "yatzy").reset(seed=2)[0])
    synced = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync", rules="yatzy")
    assert isinstance(synced, gymnasium.vector.SyncVectorEnv)


@pytest.mark.parametrize(
    ("rules_id", "options", "engine"),
    [
        ("kniffel", {}, "compiled"),
        ("yatzy", {}, "compiled"),
        ("yahtzee", {}, "game"),
        ("knoeffel", {}, "game"),
    ],
)
@pytest.mark.usefixtures("no_warnings")
def test_passes_gymnasiums_checker(rules_id: str, options: dict[str, str], engine: str) -> None:
    """The checker steps random actions, some of them illegal (a box the dice pay nothing in is only
    struck): the penalty answers them. It warns of nothing: the bounds are finite, the metadata whole."""
    made = gymnasium.make(ENV_ID, rules=rules_id, options=options, engine=engine, invalid_action="penalty")
    env = made.unwrapped  # the checker tries the render modes through its spec
    assert isinstance(env, KniffelEnv)
    assert env.engine == engine
    check_env(env)


@pytest.mark.usefixtures("no_warnings")
def test_ordered_columns_pass_the_checker_in_penalty_mode() -> None:
    # Random actions are mostly illegal on ordered columns: the checker's random steps get the penalty.
    check_env(gymnasium.make(ENV_ID, rules="kniffel-4col", invalid_action="penalty").unwrapped)


@pytest.mark.parametrize(
    ("rules_id", "options"),
    [("kniffel", {"extra": "100"}), ("yahtzee", {}), ("yatzy-deluxe", {"sharp": "on"})],
)
def test_every_observation_lies_within_the_finite_bounds(rules_id: str, options: dict[str, str]) -> None:
    """Games chasing five of a kind (extra bonuses, jokers) stay within the bounds, which are finite, as
    do the observations of a table of players."""
    envs = VectorKniffelEnv(64, rules_id, options)
    high = envs.encoding.high
    assert np.isfinite(high).all()
    obs, info = envs.reset(seed=5)
    rnd = random.Random(5)
    for _ in range(400):
        assert ((obs >= 0) & (obs <= high)).all()
        actions = [chase(envs.encoding, obs[g], info["action_mask"][g], rnd) for g in range(64)]
        obs, _, _, _, info = envs.step(np.array(actions))
    table = KniffelAECEnv(rules_id, options, players=3)
    observed = table.observation_space("player_0")
    assert isinstance(observed, gymnasium.spaces.Dict)
    vector = observed["observation"]
    assert isinstance(vector, gymnasium.spaces.Box)
    assert np.isfinite(vector.high).all()


@pytest.mark.parametrize("played", COMPILED)
def test_the_compiled_engine_plays_by_the_game_engine(played: RuleSet) -> None:
    env = KniffelEnv(played, engine="compiled")
    encoding = env.encoding
    rnd = random.Random(played.id)
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        game = Game(env.rules, ["player"])
        game.apply(Roll(dice=tuple(int(d) for d in obs[encoding.layout["dice"]])))
        returned = 0.0
        terminated = False
        while not terminated:
            np.testing.assert_array_equal(obs, encoding.observe(game))
            np.testing.assert_array_equal(info["action_mask"], encoding.mask(game.legal))
            index = chase(encoding, obs, info["action_mask"], rnd)
            obs, reward, terminated, truncated, info = env.step(index)
            assert not truncated
            assert reward == replay_step(game, encoding, index, obs)
            returned += reward
        assert game.is_over
        np.testing.assert_array_equal(obs, encoding.observe(game))
        assert env.to_game().sheet == game.sheet
        assert returned == game.sheet.total - ScoreSheet(played).total


def test_a_seeded_episode_replays_through_the_game() -> None:
    env = KniffelEnv("knoeffel")
    assert env.engine == "game"
    obs, info = env.reset(seed=5)
    first = obs.copy()
    rnd = random.Random(1)
    actions = []
    terminated = False
    while not terminated:
        legal = np.flatnonzero(info["action_mask"])
        actions.append(int(legal[rnd.randrange(len(legal))]))
        obs, _, terminated, _, info = env.step(actions[-1])
    played = env.to_game()
    # the same seed and actions through a fresh game give the same sheet
    game = Game(env.rules, ["player"], dice=StreamDice(env.seed_used))
    game.apply(Roll())
    for index in actions:
        outcome = game.apply(env.encoding.action(index, game.dice, free=game.legal.free_throw))
        if outcome.ends_turn and not game.is_over:
            game.apply(Roll())
    assert game.sheet == played.sheet
    assert Game.loads(played.dumps()).sheet == played.sheet
    np.testing.assert_array_equal(env.reset(seed=5)[0], first)


@pytest.mark.parametrize("engine", ["compiled", "game"])
def test_an_illegal_action_raises_naming_it_and_changes_nothing(engine: str) -> None:
    env = KniffelEnv("kniffel", engine=engine)  # type: ignore[arg-type]
    obs, info = env.reset(seed=3)
    chance = env.encoding.index(Score("chance"), None)
    env.step(chance)
    before = env.to_game().to_json()
    env.step(0)
    obs, _, _, _, info = env.step(0)  # two throws: the regular rolls are used up
    with pytest.raises(EnvActionError, match=r"action 0 \(throw all dice\) is refused: no rolls left"):
        env.step(0)
    with pytest.raises(
        EnvActionError, match=rf"action {chance} \(score chance\) is refused: chance is already"
    ):
        env.step(chance)
    for outside in (-1, env.encoding.n_actions, 2.5, True, "score chance"):
        with pytest.raises(EnvActionError, match=r"outside the action space|is an integer"):
            env.step(outside)
    assert env.to_game().to_json()["actions"][: len(before["actions"])] == before["actions"]
    np.testing.assert_array_equal(env._observe(), obs)
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))


@pytest.mark.parametrize("engine", ["compiled", "game"])
def test_penalty_mode_answers_an_illegal_action_with_a_penalty_and_no_change(engine: str) -> None:
    env = KniffelEnv("kniffel", engine=engine, invalid_action="penalty", penalty=2.5)  # type: ignore[arg-type]
    obs, info = env.reset(seed=3)
    env.step(0)
    obs, _, _, _, info = env.step(0)
    for illegal in (0, -7, env.encoding.n_actions):
        after, reward, terminated, truncated, info2 = env.step(illegal)
        assert (reward, terminated, truncated, info2["illegal"]) == (-2.5, False, False, True)
        np.testing.assert_array_equal(after, obs)
        np.testing.assert_array_equal(info2["action_mask"], info["action_mask"])
    _, reward, _, _, info3 = env.step(env.encoding.index(Strike("ones"), None))
    assert (reward, info3["illegal"]) == (0.0, False)


@pytest.mark.parametrize(
    ("rules_id", "options"), [("yahtzee", {}), ("kniffel", {"sharp": "on"}), ("yatzy", {})]
)
def test_the_same_seed_deals_the_same_dice_under_both_engines(rules_id: str, options: dict[str, str]) -> None:
    """Episodes of one seed played alike by both engines see the same dice, observations, masks and
    rewards at every step, to the end of the game."""
    compiled = KniffelEnv(rules_id, options, engine="compiled")
    engine = KniffelEnv(rules_id, options, engine="game")
    for seed in (4, 9):
        obs, info = compiled.reset(seed=seed)
        other, other_info = engine.reset(seed=seed)
        assert compiled.seed_used == engine.seed_used
        rnd = random.Random(seed)
        terminated = False
        while not terminated:
            np.testing.assert_array_equal(obs, other)
            np.testing.assert_array_equal(info["action_mask"], other_info["action_mask"])
            index = chase(compiled.encoding, obs, info["action_mask"], rnd)
            obs, reward, terminated, _, info = compiled.step(index)
            other, other_reward, other_terminated, _, other_info = engine.step(index)
            assert (reward, terminated) == (other_reward, other_terminated)
        assert compiled.to_game().sheet == engine.to_game().sheet


def test_one_action_for_one_effect() -> None:
    """A box the dice pay nothing in is entered by its strike alone: its score is not legal, and the
    game's score of it maps to the strike's index, which maps back to the strike."""
    env = KniffelEnv("kniffel", engine="game")
    game = Game(env.rules, ["player"], dice=StreamDice(0))
    game.apply(Roll(dice=(1, 2, 3, 4, 6)))
    encoding = env.encoding
    mask = encoding.mask(game.legal)
    kniffel = encoding.index(Score("kniffel"), game.dice)
    struck = encoding.index(Strike("kniffel"), game.dice)
    assert game.legal.placements["kniffel"].total == 0
    assert (mask[kniffel], mask[struck]) == (0, 1)
    assert encoding.index(Score("kniffel"), game.dice, game.legal) == struck
    assert encoding.action(struck, game.dice) == Strike("kniffel")
    chance = encoding.index(Score("chance"), game.dice, game.legal)
    assert (mask[chance], mask[encoding.index(Strike("chance"), game.dice)]) == (1, 1)


def optimal_choices(game: Game, encoding: Encoding, goal: str = "points") -> tuple[int, dict[int, float]]:
    """The exact planner's best action's index and the value of each legal index."""
    choices = planner_for(game.rules, goal).choices(game)
    values: dict[int, float] = {}
    legal = game.legal
    dice = game.dice
    assert dice is not None
    for choice in choices:
        if isinstance(choice.action, Roll):
            for bits in range(encoding.n_keeps):
                if tuple(d for i, d in enumerate(dice) if bits >> i & 1) == choice.action.keep:
                    values[bits] = choice.value
        else:
            values[encoding.index(choice.action, dice, legal)] = choice.value
    return encoding.index(choices[0].action, dice, legal), values


def assert_optimal(info: dict[str, Any], game: Game, encoding: Encoding, goal: str = "points") -> None:
    best, values = optimal_choices(game, encoding, goal)
    assert info["optimal_action"] == best
    got = info["action_values"]
    legal = np.flatnonzero(info["action_mask"]).tolist()
    assert sorted(values) == legal
    np.testing.assert_allclose(got[legal], np.array([values[i] for i in legal]), rtol=0, atol=1e-9)
    assert np.isnan(np.delete(got, legal)).all()


@pytest.mark.parametrize(
    ("engine", "rules_id"), [("compiled", "kniffel"), ("game", "yahtzee"), ("compiled", "yatzy")]
)
def test_the_optimal_action_and_every_actions_value_are_the_exact_planners(
    engine: str, rules_id: str
) -> None:
    env = KniffelEnv(rules_id, optimal_action=True, engine=engine)  # type: ignore[arg-type]
    _, info = env.reset(seed=2)
    terminated = False
    while not terminated:
        assert_optimal(info, Game.from_situation(env.situation()), env.encoding)
        assert info["action_mask"][info["optimal_action"]]
        _, _, terminated, _, info = env.step(info["optimal_action"])
    assert "optimal_action" not in info
    with pytest.raises(KniffelError, match="exact solver"):
        KniffelEnv("knoeffel", optimal_action=True)


def test_the_optimal_action_for_a_target() -> None:
    """Playing for a final score, the values are the chances of reaching it."""
    env = KniffelEnv("kniffel", optimal_action=True, goal="target:60")
    _, info = env.reset(seed=3)
    for _ in range(5):
        assert_optimal(info, Game.from_situation(env.situation()), env.encoding, "target:60")
        assert 0 <= np.nanmax(info["action_values"]) <= 1 + 1e-5  # chances summed in float32
        _, _, _, _, info = env.step(info["optimal_action"])


def test_the_vector_environment_gives_every_games_optimal_action_and_values() -> None:
    envs = VectorKniffelEnv(16, "yahtzee", optimal_action=True)
    _, info = envs.reset(seed=6)
    for _ in range(40):
        for g in range(16):
            game = Game.from_situation(envs.games.situation(g))
            game_info = {key: info[key][g] for key in ("optimal_action", "action_values", "action_mask")}
            assert_optimal(game_info, game, envs.encoding)
        _, _, _, _, info = envs.step(info["optimal_action"])
    played = VectorKniffelEnv(8, "yahtzee", optimal_action=True, goal="target:40")
    _, info = played.reset(seed=1)
    assert info["action_values"].shape == (8, played.encoding.n_actions)
    assert 0 <= np.nanmin(info["action_values"]) <= np.nanmax(info["action_values"]) <= 1 + 1e-5


def test_bad_settings_are_refused() -> None:
    with pytest.raises(KniffelError, match="invalid_action"):
        KniffelEnv(invalid_action="ignore")
    with pytest.raises(KniffelError, match="engine"):
        KniffelEnv("knoeffel", engine="compiled")
    with pytest.raises(KniffelError, match="no option"):
        KniffelEnv("kniffel", {"joker": "free"})


def test_the_encoding_round_trips_actions_and_names_its_parts() -> None:
    encoding = Encoding(rules.get("kniffel-4col"), players=3)
    dice = (2, 3, 3, 5, 6)
    for action in (Roll(), Roll(keep=(3, 3)), Roll(keep=(2, 3, 5, 6)), Score("2:chance"), Strike("4:ones")):
        index = encoding.index(action, dice)
        assert encoding.action(index, dice) == action
    assert encoding.index(Roll(keep=(3, 3)), dice) == 0b00110
    assert encoding.n_actions == 31 + 2 * 52 + 13
    assert list(encoding.layout) == [
        "dice", "counts", "rolls_left", "announced", "filled", "points", "upper_sum", "extra_bonus",
        "opponents",
    ]  # fmt: skip
    assert encoding.layout["opponents"].stop == encoding.size


# --- PettingZoo ----------------------------------------------------------------------------------


CLASSIC_OBSERVATION = (
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
)
"""What PettingZoo's test says of every observation of the classic games' kind (a dict of the vector
and the mask), except for its own games, which it knows by name."""


@pytest.mark.parametrize(("rules_id", "players"), [("yatzy", 2), ("knoeffel", 3)])
@pytest.mark.usefixtures("no_warnings")
def test_passes_pettingzoos_api_test(rules_id: str, players: int) -> None:
    """PettingZoo's test finds the classic games' observation (the mask beside the vector), plays by the
    mask, and warns of nothing else."""
    env = KniffelAECEnv(rules_id, players=players)
    for message in CLASSIC_OBSERVATION:
        warnings.filterwarnings("ignore", message=re.escape(message))
    api_test(env, num_cycles=300)
    env.reset(seed=1)
    obs = env.observe("player_0")
    assert set(obs) == {"observation", "action_mask"}
    assert env.observation_space("player_0").contains(obs)
    np.testing.assert_array_equal(obs["action_mask"], env.encoding.mask(env.game.legal))
    assert not env.observe("player_1")["action_mask"].any()


def test_pettingzoos_module_convention() -> None:
    from kniffel.env import kniffel_v0

    assert isinstance(kniffel_v0.raw_env(rules="yatzy", players=3), KniffelAECEnv)
    wrapped = kniffel_v0.env(rules="kniffel", players=2)
    with warnings.catch_warnings():
        for message in CLASSIC_OBSERVATION:
            warnings.filterwarnings("ignore", message=re.escape(message))
        api_test(wrapped, num_cycles=50)
    wrapped.reset(seed=3)
    assert wrapped.unwrapped.game.rules.id == "kniffel"
    with pytest.raises(AssertionError):
        wrapped.step(10_000)  # outside the action space


def test_a_table_of_players_replays_through_the_game() -> None:
    env = KniffelAECEnv("kniffel", players=3)
    env.reset(seed=4)
    rnd = random.Random(4)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["observation"][env.encoding.layout["dice"]].all()
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rnd.randrange(len(legal))]))
    game = env.game
    assert game.is_over
    assert [returns[a] for a in env.possible_agents] == game.totals
    assert Game.loads(game.dumps()).totals == game.totals


def test_the_table_refuses_an_illegal_action_and_a_wrong_size() -> None:
    env = KniffelAECEnv("kniffel", players=2)
    env.reset(seed=1)
    before = env.game.to_json()
    with pytest.raises(EnvActionError, match=r"action 999 is outside the action space"):
        env.step(999)
    assert env.game.to_json() == before
    with pytest.raises(KniffelError, match="2 to 8 players"):
        KniffelAECEnv(players=9)
    penalised = KniffelAECEnv("kniffel", players=2, invalid_action="penalty")
    penalised.reset(seed=1)
    penalised.step(999)
    assert penalised.rewards["player_0"] == -1.0
    assert penalised.agent_selection == "player_0"


@pytest.mark.parametrize("goal", ["points", "win"])
def test_the_table_gives_the_optimal_action_of_the_player_to_move(goal: str) -> None:
    env = KniffelAECEnv("yatzy", players=2, optimal_action=True, goal=goal)
    env.reset(seed=2)
    for _ in range(6 if goal == "points" else 2):
        agent = env.agent_selection
        obs, _, _, _, info = env.last()
        assert_optimal({**info, "action_mask": obs["action_mask"]}, env.game, env.encoding, goal)
        assert all("optimal_action" not in env.infos[other] for other in env.agents if other != agent)
        env.step(info["optimal_action"])


# --- the vectorised environment ------------------------------------------------------------------


@pytest.mark.parametrize(("rules_id", "options"), [("yahtzee", {}), ("yatzy", {})])
def test_the_vectorised_games_play_by_the_game_engine(rules_id: str, options: dict[str, str]) -> None:
    envs = VectorKniffelEnv(6, rules_id, options)
    encoding = envs.encoding
    obs, info = envs.reset(seed=11)
    games = [Game(envs.rules, ["player"]) for _ in range(6)]
    for g, game in enumerate(games):
        game.apply(Roll(dice=tuple(int(d) for d in obs[g, encoding.layout["dice"]])))
    rnd = random.Random(7)
    finished = 0
    while finished < 12:
        actions = np.array([chase(encoding, obs[g], info["action_mask"][g], rnd) for g in range(6)])
        obs, rewards, terminated, _, info = envs.step(actions)
        for g, game in enumerate(games):
            assert rewards[g] == replay_step(game, encoding, int(actions[g]), obs[g])
            if terminated[g]:
                assert game.is_over
                assert info["final_total"][g] == game.sheet.total
                finished += 1
                games[g] = game = Game(envs.rules, ["player"])
                game.apply(Roll(dice=tuple(int(d) for d in obs[g, encoding.layout["dice"]])))
            else:
                assert np.isnan(info["final_total"][g])
            np.testing.assert_array_equal(obs[g], encoding.observe(game))
            np.testing.assert_array_equal(info["action_mask"][g], encoding.mask(game.legal))


def test_the_vectorised_games_follow_the_seed_and_refuse_illegal_actions() -> None:
    envs = VectorKniffelEnv(4, "yatzy")
    obs, info = envs.reset(seed=3)
    again, _ = VectorKniffelEnv(4, "yatzy").reset(seed=3)
    np.testing.assert_array_equal(obs, again)
    envs.step(np.zeros(4, dtype=np.int64))
    obs, *_, info = envs.step(np.zeros(4, dtype=np.int64))
    with pytest.raises(
        EnvActionError, match=r"game 0: action 0 \(throw all dice\) is refused: no rolls left"
    ):
        envs.step(np.zeros(4, dtype=np.int64))
    with pytest.raises(EnvActionError, match="4 integers"):
        envs.step(np.zeros(3, dtype=np.int64))
    now, masks = np.zeros_like(obs), np.zeros_like(info["action_mask"])
    envs.games.observe(now, masks)
    np.testing.assert_array_equal(now, obs)  # nothing changed
    chance = envs.encoding.index(Score("chance"), None)
    after, rewards, *_ = envs.step(np.full(4, chance))
    assert after[:, envs.encoding.layout["filled"]].sum() == 4
    np.testing.assert_array_equal(rewards, obs[:, envs.encoding.layout["dice"]].sum(axis=1))
    penalised = VectorKniffelEnv(2, "yatzy", invalid_action="penalty", penalty=3.0)
    start, _ = penalised.reset(seed=1)
    after, rewards, _, _, info = penalised.step(np.array([-1, 31 + 30 + 99]))
    np.testing.assert_array_equal(after, start)
    np.testing.assert_array_equal(rewards, [-3.0, -3.0])
    assert not info["legal"].any()


def test_the_vectorised_environment_needs_a_compiled_sheet() -> None:
    with pytest.raises(UnsupportedRulesError):
        VectorKniffelEnv(2, "knoeffel")
    one_column: RuleSet = single_column(rules.get("knoeffel"))
    envs = VectorKniffelEnv(2, one_column)
    obs, _ = envs.reset(seed=0)
    assert obs[0, envs.encoding.layout["free_throws_left"]].tolist() == [3.0]


def test_render_shows_the_situation_as_text() -> None:
    env = KniffelEnv("yatzy", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None
    assert text.startswith("yatzy | empty | ")
    assert "| rolls left 2" in text
    table = KniffelAECEnv("kniffel", players=2, render_mode="ansi")
    table.reset(seed=1)
    shown = table.render()
    assert shown is not None
    assert "player_0 to move: kniffel | empty" in shown


def test_a_bound_step_goes_to_the_compiled_kernel_and_reads_the_arrays_anew() -> None:
    # the single-game environment binds its step and its observation to its own arrays (numba's typing
    # of ~50 arrays was a third of a step); a bound call must see the arrays' new contents every time
    games = CompiledGames(rules.get("yahtzee"), 3)
    size, n_actions = games.encoding.size, games.encoding.n_actions
    obs, masks = np.zeros((3, size), dtype=np.float32), np.zeros((3, n_actions), dtype=np.int8)
    observe = games.observer(obs, masks)
    for seed in (1, 2, 3):
        games.new(seed)
        observe()
        expected_obs, expected_masks = np.zeros_like(obs), np.zeros_like(masks)
        games.observe(expected_obs, expected_masks)
        assert np.array_equal(obs, expected_obs)
        assert np.array_equal(masks, expected_masks)
        assert observe.direct
