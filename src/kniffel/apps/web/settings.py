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
