"""The tokens of a game's links: a seat's, and the host's. A token is made once, handed to its creator
and stored only as its hash; a request brings it in a header (:data:`TOKEN_HEADER`), a WebSocket in its
``hello``."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from starlette.requests import HTTPConnection

MAX_TOKEN = 64
"""Characters of a token a request may bring; a real one has 22."""
TOKEN_HEADER = "x-kniffel-token"


def new_token() -> str:
    """A fresh token: 128 random bits."""
    return secrets.token_urlsafe(16)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def token_matches(token: str, token_hash: str) -> bool:
    # Tokens carry 128 random bits, so a plain SHA-256 suffices; compare in constant time anyway.
    return hmac.compare_digest(hash_token(token), token_hash)


def token_of(request: HTTPConnection) -> str:
    """The token a request brings (:data:`TOKEN_HEADER`), cut to :data:`MAX_TOKEN` characters; empty
    for none."""
    return request.headers.get(TOKEN_HEADER, "")[:MAX_TOKEN]
