"""Simulations and tournaments split into Ray tasks, on this machine or on a cluster.

>>> from kniffel import rules
>>> from kniffel.services import cluster
>>> kniffel = rules.get("kniffel")
>>> result = cluster.simulate(kniffel, games=1_000_000, seed=1, on=cluster.Cluster("local"))  # doctest: +SKIP

``address`` is ``"local"`` (start Ray here, on every core or on ``cpus`` of them) or anything
``ray.init`` takes: ``"ray://host:10001"`` (Ray Client, from any machine), ``"host:6379"`` or ``"auto"``
(from a node of the cluster). A Ray already started in this process is used as it is. Needs the
``cluster`` extra (``pip install 'kniffel[cluster]'``), and kniffel installed on every node.

The games are cut into chunks by game number (a tournament's by table and deal), one task each, and
put back together in order: game ``i`` draws its dice from the seed and ``i`` alone, so the result is
the in-process run's (:func:`kniffel.services.simulate.simulate`,
:func:`kniffel.services.tournament.tournament`) whatever the number of workers or chunks. The only difference
is ``seconds``, which adds up the tasks' playing time. ``progress(done, total)`` is fed as tasks finish; an
interruption (Ctrl-C) or any error cancels the tasks not yet finished before it propagates.

Tables (optimal play, and bots that plan with them) are loaded by the workers from their node's table
cache, as in-process, so the compiled kernels are the same and cached on disk alike. A local Ray shares
this process's cache, which is filled here first. On other nodes a missing table is solved by the first
task that needs it: point ``KNIFFEL_CACHE_DIR`` at a shared directory, or run ``kniffel solve`` once
per node, to avoid that.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from kniffel import bots
from kniffel.base.errors import KniffelError
from kniffel.core import Progress
from kniffel.rules import RuleSet
from kniffel.services.plans import Chunk, Optimal, resolve
from kniffel.services.simulate import OPTIMAL, SimulationResult, check_request, combine, play_chunk
from kniffel.services.standings import Match, TournamentResult
from kniffel.services.tournament import Tournament, play_match
from kniffel.services.tournament import combine as combine_tournament

LOCAL = "local"
"""The address that starts Ray on this machine."""
CHUNKS_PER_CPU = 4
"""Tasks per CPU of the cluster: enough to keep every worker busy to the end and the progress moving."""
MIN_COMPILED_CHUNK = 20_000
"""Fewest games in a task of compiled optimal play, which shares work between the games of a batch."""

T = TypeVar("T")


class ClusterError(KniffelError):
    """Ray is missing, or the cluster cannot be reached."""


@dataclass(frozen=True)
class Cluster:
    """Where the games run and in how many tasks: the cluster's ``address`` (see the module's
    description), the CPUs of a Ray started here (None: every core), and the tasks the games are cut
    into (None: a few per CPU of the cluster)."""

    address: str = LOCAL
    cpus: int | None = None
    chunks: int | None = None


HERE = Cluster()
"""A Ray started on this machine, on every core."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError("running on a cluster needs Ray: pip install 'kniffel[cluster]'") from None
    return ray


def connect(address: str, *, cpus: int | None = None) -> int:
    """Join (or, for ``"local"``, start) the Ray cluster at ``address`` unless Ray is running in this
    process already; returns the cluster's CPUs."""
    import logging

    ray = _ray()
    if not ray.is_initialized():
        if not address.strip():
            raise ClusterError("the cluster address is empty: give 'local' or the address of a Ray cluster")
        options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
        try:
            if address == LOCAL:
                ray.init(num_cpus=cpus, include_dashboard=False, **options)
            else:
                ray.init(address=address, **options)
        except (ConnectionError, RuntimeError, ValueError, TimeoutError) as error:
            raise ClusterError(f"cannot reach the Ray cluster at {address}: {error}") from None
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _call(function: Callable[..., T], *arguments: Any) -> T:
    """A task's body: ``function(*arguments)`` with compiled code on the task's own CPUs only."""
    from kniffel.core import use_threads

    use_threads(int(_ray().get_runtime_context().get_assigned_resources().get("CPU", 1)))
    return function(*arguments)


def run(
    function: Callable[..., T],
    calls: Sequence[tuple[Any, ...]],
    *,
    sizes: Sequence[int],
    progress: Progress | None = None,
) -> list[T]:
    """``[function(*arguments) for arguments in calls]``, each call a Ray task on the cluster joined by
    :func:`connect`. ``progress(done, total)`` adds up the ``sizes`` of the calls finished (in games).
    Whatever ends the wait early (Ctrl-C, a failed task) cancels the tasks still running."""
    ray = _ray()
    task = ray.remote(num_cpus=1, max_retries=0)(_call)
    pending = {task.remote(function, *arguments): i for i, arguments in enumerate(calls)}
    results: dict[int, T] = {}
    total, done = sum(sizes), 0
    try:
        while pending:
            finished, _ = ray.wait(list(pending), num_returns=1)
            for ref in finished:
                i = pending.pop(ref)
                results[i] = ray.get(ref)
                done += sizes[i]
            if progress is not None:
                progress(done, total)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    return [results[i] for i in range(len(calls))]


def spans(count: int, parts: int) -> list[tuple[int, int]]:
    """``count`` items cut into at most ``parts`` consecutive ``(first, size)`` spans of nearly equal
    size."""
    parts = max(1, min(parts, count))
    size = math.ceil(count / parts)
    return [(first, min(size, count - first)) for first in range(0, count, size)]


def simulate(
    rules: RuleSet,
    *,
    strategy: str = OPTIMAL,
    games: int,
    seed: int,
    on: Cluster = HERE,
    progress: Progress | None = None,
) -> SimulationResult:
    """:func:`kniffel.services.simulate.simulate` in Ray tasks ``on`` a cluster; the same games, so the
    same result."""
    check_request(strategy, games, seed)
    plan = resolve(rules, strategy)
    workers = connect(on.address, cpus=on.cpus)
    if isinstance(plan, Optimal):
        parts = on.chunks or min(CHUNKS_PER_CPU * workers, math.ceil(games / MIN_COMPILED_CHUNK))
        if on.address == LOCAL:
            plan.table()  # solved here once, not by every worker
    else:
        parts = on.chunks or CHUNKS_PER_CPU * workers
    cut = spans(games, parts)
    calls = [(rules, strategy, seed, first, size) for first, size in cut]
    played: list[Chunk] = run(play_chunk, calls, sizes=[size for _, size in cut], progress=progress)
    return combine(rules, strategy, seed, played)


def tournament(
    request: Tournament, *, on: Cluster = HERE, progress: Progress | None = None
) -> TournamentResult:
    """:func:`kniffel.services.tournament.tournament` in Ray tasks ``on`` a cluster (each table's deals cut
    into :attr:`Cluster.chunks`); the same games, so the same result."""
    workers = connect(on.address, cpus=on.cpus)
    if on.address == LOCAL:
        _prepare(request.rules, request.specs)
    seated = request.tables
    parts = on.chunks or math.ceil(CHUNKS_PER_CPU * workers / len(seated))
    calls: list[tuple[Any, ...]] = []
    sizes: list[int] = []
    for players in seated:
        for first, size in spans(request.deals, parts):
            calls.append((request, players, first, size))
            sizes.append(size * len(players))
    matches: list[Match] = run(play_match, calls, sizes=sizes, progress=progress)
    return combine_tournament(request, matches)


def _prepare(rules: RuleSet, specs: Sequence[str]) -> None:
    """Solve the tables the bots plan with here, once, before the local workers look for them in the
    cache they share with this process."""
    for spec in dict.fromkeys(specs):
        bot = bots.make(spec, seed=0)
        if isinstance(bot, bots.PlannerBot):
            bot.prepare(rules)


def shutdown() -> None:
    """Leave the cluster (stop the local Ray if this process started it)."""
    ray = _ray()
    if ray.is_initialized():
        ray.shutdown()


__all__ = [
    "HERE",
    "LOCAL",
    "Cluster",
    "ClusterError",
    "connect",
    "run",
    "shutdown",
    "simulate",
    "spans",
    "tournament",
]
