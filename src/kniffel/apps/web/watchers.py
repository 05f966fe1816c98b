"""WebSockets that hold no seat: a table's watchers, and every socket until its hello names a seat.

A socket is admitted before anything is said on it, so until its hello it may be a player's or anyone's.
Sixteen addresses holding fifty silent sockets each (the pages' pings answered, nothing else sent) took
every socket a process has, and a fresh player could create a game and not play it. So sockets without a
seat are kept apart (:class:`Watchers`):

* an address may hold ``per_client`` of them: past that its own oldest gives way;
* a game may have ``per_game``: past that the oldest of the address with most of them in that game
  gives way, or the newcomer is refused if its address is that one;
* in all they may hold ``total`` (less than every socket the process takes: the rest is kept for seats),
  and while the process's sockets are all taken a newcomer makes the oldest unseated socket of the
  address with most of them give way, the same way;
* each is closed after ``idle`` seconds without a message (a seated socket never is).

A socket whose hello names a seat (or the host's token) leaves them (:meth:`Watchers.seated`): so a
player arriving always finds a socket, as the address with most unseated sockets is never theirs, and
seated sockets are never closed to make room.
"""

from __future__ import annotations

from collections import Counter
from typing import Protocol

WATCHERS_PER_CLIENT = 8
"""Sockets without a seat one address may hold (``KNIFFEL_WATCHERS_PER_CLIENT``): a family watching a
table on a few devices, the tab of a player that has not said hello yet."""
WATCHERS_PER_GAME = 32
"""Sockets without a seat on one table (``KNIFFEL_WATCHERS_PER_GAME``): a class watching a final."""
WATCH_IDLE = 300.0
"""Seconds a socket without a seat may stay silent (``KNIFFEL_WATCH_IDLE``); a watching page reconnects
when it is closed, so a watcher stays, and a socket held open by nobody goes."""
SEAT_SHARE = 4
"""A quarter of the process's sockets is kept for seats: watchers may take the rest."""


class Watcher(Protocol):
    """A socket :class:`Watchers` may close to make room."""

    def evict(self) -> None:
        """Close the socket soon (its conversation then ends and reports it :meth:`Watchers.gone`)."""


class Watchers:
    """The unseated sockets, per address, per game and in all, oldest first (see the module docstring)."""

    def __init__(self, per_client: int, per_game: int, total: int, idle: float = WATCH_IDLE) -> None:
        self.per_client, self.per_game, self.total, self.idle = per_client, per_game, total, idle
        self._by_client: dict[str, dict[Watcher, str]] = {}
        """Each address's unseated sockets, oldest first, with their games."""
        self._in_game: dict[str, Counter[str]] = {}
        """Each game's unseated sockets by address."""
        self._client_of: dict[Watcher, str] = {}
        self._closing: set[Watcher] = set()
        """Sockets closed here whose conversation has not ended yet."""

    def __len__(self) -> int:
        return len(self._client_of)

    @property
    def closing(self) -> int:
        """Sockets closed to make room that are still counted open (their end is not seen yet)."""
        return len(self._closing)

    def of(self, client: str) -> int:
        return len(self._by_client.get(client, ()))

    def admit(self, client: str, game: str, watcher: Watcher, *, full: bool = False) -> bool:
        """Count ``watcher`` (a new socket of ``client`` on ``game``), closing others to make room; False
        if the newcomer is the one refused (nothing counted). ``full``: every socket of the process is
        taken (seated ones included), so one unseated socket must give way."""
        own = self._by_client.get(client, {})
        if len(own) >= self.per_client:
            self._evict(next(iter(own)))
        in_game = self._in_game.get(game, Counter())
        while sum(in_game.values()) >= self.per_game:
            if not self._make_way(client, in_game, game):
                return False
        everyone = Counter({name: len(held) for name, held in self._by_client.items()})
        while len(self) >= self.total or full:
            if not self._make_way(client, everyone, None):
                return False
            everyone = Counter({name: len(held) for name, held in self._by_client.items()})
            full = False
        self._by_client.setdefault(client, {})[watcher] = game
        self._in_game.setdefault(game, Counter())[client] += 1
        self._client_of[watcher] = client
        return True

    def _make_way(self, client: str, counts: Counter[str], game: str | None) -> bool:
        """Close the oldest unseated socket (in ``game``, or anywhere) of the address with most of them
        in ``counts``, unless that is ``client`` (or it would be, with the newcomer)."""
        if not counts:
            return False
        busiest, most = counts.most_common(1)[0]
        if counts[client] + 1 >= most:
            return False
        oldest = next(w for w, g in self._by_client[busiest].items() if game is None or g == game)
        self._evict(oldest)
        return True

    def seated(self, watcher: Watcher) -> None:
        """``watcher``'s hello named a seat: it is a player's socket now, never closed here."""
        self._forget(watcher)

    def gone(self, watcher: Watcher) -> None:
        """``watcher``'s conversation has ended."""
        self._forget(watcher)
        self._closing.discard(watcher)

    def _evict(self, watcher: Watcher) -> None:
        self._forget(watcher)
        self._closing.add(watcher)
        watcher.evict()

    def _forget(self, watcher: Watcher) -> None:
        client = self._client_of.pop(watcher, None)
        if client is None:
            return
        game = self._by_client[client].pop(watcher)
        if not self._by_client[client]:
            del self._by_client[client]
        in_game = self._in_game[game]
        in_game[client] -= 1
        if in_game[client] <= 0:
            del in_game[client]
        if not in_game:
            del self._in_game[game]


__all__ = ["SEAT_SHARE", "WATCHERS_PER_CLIENT", "WATCHERS_PER_GAME", "WATCH_IDLE", "Watcher", "Watchers"]
