"""The web game service driven without HTTP: its requests, its event loop run to the end, and what it
pushes to a subscriber."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from kniffel.apps.web.service import CreateRequest

T = TypeVar("T")


def run(body: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(body())  # type: ignore[arg-type]


async def until(condition: Callable[[], bool], timeout: float = 120) -> None:
    """Wait for the service's tasks (and their database threads) to make ``condition`` true (within a
    bound a busy machine never reaches: only a test that fails waits for it)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.005)


def request(*seats: str, rules: str = "kniffel", **flags: Any) -> CreateRequest:
    """``request("Ada", "bot:Robo")``: a bot seat is written ``bot:NAME``."""
    specs = [
        {"name": s.removeprefix("bot:"), "kind": "bot" if s.startswith("bot:") else "human"} for s in seats
    ]
    return CreateRequest.parse({"rules": rules, "seats": specs, **flags})


class Watcher:
    """A subscriber that keeps every state it is sent."""

    def __init__(self) -> None:
        self.states: list[str] = []

    def push(self, text: str) -> None:
        self.states.append(text)
