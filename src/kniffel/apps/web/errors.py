"""A refused request, as the client is told it: a code for programs and a one-line message for people."""

from __future__ import annotations

from kniffel.base.i18n import error_text


class WebError(Exception):
    """A refused request: ``code`` for programs, ``message`` (one line) for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self, language: str = "en") -> dict[str, str]:
        """The refusal as the client is told it, its message in ``language``."""
        return {"type": "error", "code": self.code, "message": error_text(language, self.message)}
