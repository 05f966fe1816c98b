"""The move log: what each player did, in order, wrapped at the log's width between words only (a dice
list such as "keeps 1 1 5 5 → 1 4 5 5" never breaks inside), and written again when its width changes."""

from __future__ import annotations

from textual import events
from textual.widgets import RichLog

from kniffel.apps.tui.common import wrapped_text

KEPT = 200
"""Messages written again when the log is redrawn."""


class NewsLog(RichLog):
    """Every message said in the game, with its style; lines can be taken back (a "Thinking..." once
    the hints it announced are shown)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(wrap=False, markup=False, auto_scroll=True, min_width=20, id=id)
        self.messages: list[str] = []
        self.kinds: list[str] = []
        """Each message's style."""
        self._width = 0

    def line_width(self) -> int:
        return max(self.scrollable_content_region.width - 1, 20)

    def say(self, text: str, style: str = "") -> int:
        """Add a message; its number (for :meth:`take_back`)."""
        self.messages.append(text)
        self.kinds.append(style)
        self.write(wrapped_text(text, self.line_width(), style))
        return len(self.messages) - 1

    def redraw(self) -> None:
        self._width = self.line_width()
        self.clear()
        for text, style in list(zip(self.messages, self.kinds, strict=True))[-KEPT:]:
            self.write(wrapped_text(text, self._width, style))

    def take_back(self, at: int | None, text: str) -> bool:
        """Take back message ``at`` if it is still ``text``; whether it was."""
        if at is None or at >= len(self.messages) or self.messages[at] != text:
            return False
        del self.messages[at], self.kinds[at]
        self.redraw()
        return True

    def replace(self, at: int | None, text: str, new: str) -> bool:
        """Say message ``at`` again as ``new`` if it is still ``text``; whether it was."""
        if at is None or at >= len(self.messages) or self.messages[at] != text:
            return False
        self.messages[at] = new
        self.redraw()
        return True

    def on_resize(self, event: events.Resize) -> None:
        """Written again at a new width; and whatever the new height (a panel opened beside it), the
        newest line stays in view."""
        if self.line_width() != self._width:
            self.call_after_refresh(self.redraw)
        self.call_after_refresh(self.scroll_end, animate=False)

    def last_lines(self) -> list[str]:
        return [line.text for line in self.lines]
