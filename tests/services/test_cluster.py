"""Simulations and tournaments as Ray tasks: the in-process results for the same seed, whatever the
chunks; progress as tasks finish; Ctrl-C cancels what is left. One small local Ray for the session."""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from kniffel import rules
from kniffel.apps.cli import app
from kniffel.services import cluster
from kniffel.services.cluster import ClusterError
from kniffel.services.simulate import SimulationError, SimulationResult, combine, play_chunk, simulate
from kniffel.services.tournament import Tournament, tournament

KNIFFEL = rules.get("kniffel")


@pytest.fixture(scope="module")
def ray_session(solver_cache: Path, pytestconfig: pytest.Config) -> Iterator[Any]:
    """A local Ray of two CPUs without a dashboard, started after the table cache is set so that its
    workers share the session's cache."""
    ray = pytest.importorskip("ray")
    # started outside pytest's output capture: under it, force-cancelled tasks were seen to run on (Ray 2.60)
    capture = pytestconfig.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            object_store_memory=100 * 1024 * 1024,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    yield ray
    ray.shutdown()


def same(a: SimulationResult, b: SimulationResult) -> None:
    assert np.array_equal(a.scores, b.scores)
    assert {**a.to_json(), "seconds": 0} == {**b.to_json(), "seconds": 0}


@pytest.mark.parametrize("strategy", ["bot:optimal", "bot"])
def test_chunks_of_a_simulation_add_up_to_the_whole_run(strategy: str) -> None:
    games = 3 if strategy == "bot" else 500
    whole = simulate(KNIFFEL, strategy=strategy, games=games, seed=4)
    cut = [play_chunk(KNIFFEL, strategy, 4, first, size) for first, size in cluster.spans(games, 2)]
    assert [chunk.first_game for chunk in cut] == [0, (games + 1) // 2]
    same(combine(KNIFFEL, strategy, 4, cut[::-1]), whole)
    with pytest.raises(SimulationError, match="consecutive"):
        combine(KNIFFEL, strategy, 4, cut[1:])


def test_optimal_play_gives_the_in_process_games_whatever_the_chunks(ray_session: Any) -> None:
    here = simulate(KNIFFEL, games=2000, seed=7)
    same(cluster.simulate(KNIFFEL, games=2000, seed=7, on=cluster.Cluster(chunks=5)), here)


def test_bots_give_the_in_process_games(ray_session: Any) -> None:
    seen: list[tuple[int, int]] = []
    on = cluster.Cluster(chunks=3)
    there = cluster.simulate(
        KNIFFEL, strategy="bot", games=3, seed=2, on=on, progress=lambda d, t: seen.append((d, t))
    )
    same(there, simulate(KNIFFEL, strategy="bot", games=3, seed=2))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_a_tournament_gives_the_in_process_games(ray_session: Any) -> None:
    specs = ["bot", "bot:heuristic", "bot"]
    request = Tournament(KNIFFEL, specs, deals=2, seed=4, table=True)
    here = tournament(request)
    there = cluster.tournament(request, on=cluster.Cluster(chunks=2))
    assert {**there.to_json(), "seconds": 0} == {**here.to_json(), "seconds": 0}


def test_the_commands_take_a_cluster(ray_session: Any) -> None:
    def output(*args: str) -> dict[str, Any]:
        result = CliRunner().invoke(app, [*args, "--json"])
        assert result.exit_code == 0, result.output
        data: dict[str, Any] = json.loads(result.stdout)
        data.pop("seconds")
        return data

    simulation = ("simulate", "--games", "2000", "--seed", "3")
    assert output(*simulation, "--cluster", "local") == output(*simulation)
    games = ("tournament", "-p", "bot", "-p", "bot:heuristic", "-n", "1", "--seed", "3")
    assert output(*games, "--cluster", "local") == output(*games)


def test_an_interruption_cancels_the_tasks_left(ray_session: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while tasks run: the wait ends at once and every unfinished task is force-cancelled (that
    Ray then stops its worker is Ray's promise, and was seen by hand; under pytest it is not reliable)."""
    cancelled: list[tuple[Any, dict[str, Any]]] = []
    cancel = ray_session.cancel

    def spy(ref: Any, **options: Any) -> None:
        cancelled.append((ref, options))
        cancel(ref, **options)

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ray_session, "cancel", spy)
    # one task returns at once; the others would sleep for half a minute unless stopped
    calls = [(0.0,), *[(30.0,)] * 4]
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        cluster.run(time.sleep, calls, sizes=[1] * 5, progress=interrupt)
    assert time.perf_counter() - start < 25  # did not wait for the sleepers
    assert len(cancelled) == 4
    assert all(options == {"force": True} for _, options in cancelled)
    assert len({ref for ref, _ in cancelled}) == 4


def test_without_ray_the_cluster_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ClusterError, match=r"pip install 'kniffel\[cluster\]'"):
        cluster.connect("local")
    result = CliRunner().invoke(app, ["simulate", "--games", "10", "--cluster", "local"])
    assert result.exit_code == 2
    assert result.output.startswith("kniffel: error: running on a cluster needs Ray")
