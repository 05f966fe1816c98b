"""The one base class of everything the library refuses.

Bad input (an unknown rule set or box, an illegal action, a damaged save, a situation the solver does not
cover) raises a subclass of :class:`KniffelError` whose message says what is wrong in one sentence. Front
ends catch :class:`KniffelError` and show the message; anything else that escapes is a bug and keeps its
traceback.

The class derives from :class:`ValueError` as well, so code written against the earlier exceptions (all
of them value errors) keeps working.
"""

from __future__ import annotations


class KniffelError(ValueError):
    """Something the library refuses; the message says what and why, in one line."""


__all__ = ["KniffelError"]
