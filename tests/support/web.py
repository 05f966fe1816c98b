"""A real server in a child process, for the tests, the end-to-end tests and the benchmarks.

The server runs exactly as ``kniffel serve`` would (uvicorn, a database file), so a test can kill it
with SIGKILL mid-game and start it again on the same database and port. Its solver tables go to
``cache_dir`` (``KNIFFEL_CACHE_DIR``), so a test run never writes the user's own cache.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from pathlib import Path
from types import TracebackType
from typing import Self

from kniffel.core import WARM_UP_ENV


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


START_TIMEOUT = 120.0
"""Seconds a server may take to answer: importing numpy, numba and the app on a machine busy with other
work has taken tens of seconds. :meth:`ServerProcess.start` returns as soon as it answers."""


class Started(ABC):
    """Something a ``with`` block starts on entering and stops on leaving (a server, a stream of
    clients)."""

    @abstractmethod
    def start(self) -> Self: ...

    @abstractmethod
    def stop(self) -> None: ...

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()


class ServerProcess(Started):
    """``kniffel serve`` on 127.0.0.1, as people start it; :meth:`start` returns once it answers.

    ``cache_dir`` is the solver's table cache for the server (``KNIFFEL_CACHE_DIR``); without it the
    server inherits this process's environment, so tests pass their session's cache. ``open_files``
    sets the server's limit of open files, soft and hard (as a system that allows no more would)."""

    def __init__(
        self,
        database_url: str,
        *,
        port: int | None = None,
        bot_delay: float = 0.0,
        cache_dir: Path | None = None,
        env: dict[str, str] | None = None,
        log_path: Path | None = None,
        open_files: int | None = None,
        host: str | None = None,
    ) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.bot_delay = bot_delay
        cache = {"KNIFFEL_CACHE_DIR": str(cache_dir)} if cache_dir is not None else {}
        # no warm-up compiling kernels beside the server unless the environment asks for one
        self.env = {WARM_UP_ENV: "0", **os.environ, **cache, **(env or {})}
        self.log_path = log_path
        self.open_files = open_files
        self.host = host
        """The ``Host`` its health check is asked with (one of ``KNIFFEL_ALLOWED_HOSTS``); default: its
        address."""
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = START_TIMEOUT) -> Self:
        return self.launch().wait(timeout)

    def launch(self) -> Self:
        """Start the process without waiting for it to answer (start several, then :meth:`wait`)."""
        command = [
            sys.executable,
            "-m",
            "kniffel",
            "serve",
            "--port",
            str(self.port),
            "--database-url",
            self.database_url,
            "--bot-delay",
            str(self.bot_delay),
            "--log-level",
            "warning",
        ]
        output = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        limit = self.open_files or 0

        def limit_files() -> None:  # in the child, before it runs anything
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

        self.process = subprocess.Popen(
            command,
            env=self.env,
            stdout=output,
            stderr=output,
            preexec_fn=limit_files if limit else None,
        )
        return self

    def wait(self, timeout: float = START_TIMEOUT) -> Self:
        """Return once the launched server answers."""
        assert self.process is not None, "launch() first"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}; see {self.log_path}")
            try:
                asked = urllib.request.Request(
                    self.url + "/api/health", headers={"Host": self.host} if self.host else {}
                )
                with urllib.request.urlopen(asked, timeout=1) as response:
                    if response.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not answer on port {self.port} within {timeout} s")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers run, exactly like a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None
