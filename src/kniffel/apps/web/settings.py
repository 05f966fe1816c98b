"""The server's settings: what :func:`kniffel.apps.web.app.create_app` and :func:`kniffel.apps.web.serve`
are given, else the environment's ``KNIFFEL_...`` variables, else the defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass

PROXIES_ENV = "KNIFFEL_TRUSTED_PROXIES"
HOSTS_ENV = "KNIFFEL_ALLOWED_HOSTS"


def env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def setting(value: float | None, name: str, default: float) -> float:
    """A setting given to :func:`kniffel.apps.web.app.create_app`, else from the environment variable
    ``name``."""
    return value if value is not None else env_float(name, default)


BUILD_ALLOWANCE_ENV = "KNIFFEL_BUILD_ALLOWANCE"
BUILD_ALLOWANCE = 96 << 20
"""What a build of tables in the server (the early win tables, a cone through files) may add to the
process's memory before it lets the pages of its files go: half a command's
(:func:`kniffel.core.allowed_growth`), so that a server that played Kniffel, Yahtzee and Yatzy stays
under 600 MB while it builds Yatzy's early tables, which then take some seconds longer."""


def build_allowance_setting(value: int | None = None) -> int:
    """The bytes a build in the server may add (:data:`BUILD_ALLOWANCE`): ``value``, else
    ``$KNIFFEL_BUILD_ALLOWANCE`` (``128MB``, bytes) if it is set and readable, else the default."""
    if value is not None:
        return value
    from kniffel.core import env_size

    return env_size(BUILD_ALLOWANCE_ENV, BUILD_ALLOWANCE)


def sockets_per_client_setting(value: int | None = None) -> int:
    """WebSockets a client may hold open at once: ``value``, else ``KNIFFEL_SOCKETS_PER_CLIENT``, else 50
    (the plain connections a client may hold follow from it: :mod:`kniffel.apps.web.connections`)."""
    return int(setting(value, "KNIFFEL_SOCKETS_PER_CLIENT", 50))


@dataclass(frozen=True)
class Settings:
    """What one app runs with beside its allowances (``app.state.settings``): the lifespan opens the
    database and starts the service with them, and creating a game waits :attr:`body_timeout` for its
    body."""

    database_url: str | None
    """``None``: :func:`kniffel.apps.web.database.default_database_url`."""
    bot_delay: float
    """Seconds between bot actions."""
    body_timeout: float
    """Seconds a request body may take to arrive."""
