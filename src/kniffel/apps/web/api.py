"""The JSON API: the rule sets, creating a game and reading it (``GET /api/games/{id}``: the whole
state), its export, how its rules play, and the advice a table asks for (hints, the review, the chances
of winning). Everything that changes a game arrives over its WebSocket (:mod:`kniffel.apps.web.protocol`);
the rematch is :mod:`kniffel.apps.web.rooms`, the analysis :mod:`kniffel.apps.web.analysis`.

Refusals are :class:`kniffel.apps.web.errors.WebError`, answered with their status by the app's handler,
in the request's language (:func:`kniffel.apps.web.words.language_of`).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Collection, Iterable
from typing import Any, cast

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from kniffel import rules as rules_module
from kniffel.apps.web import advice, guard
from kniffel.apps.web.dependencies import Allowed, BodyTimeout, service_of
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.guard import client_of
from kniffel.apps.web.service import CreateRequest
from kniffel.apps.web.tokens import token_of
from kniffel.apps.web.words import language_of
from kniffel.base.i18n import N_, sentence, translate
from kniffel.engine.sheet import possible_points
from kniffel.rules.explain import explain

MAX_BODY = 16384
"""Bytes of an HTTP request body (creating a game with 8 seats is well under 1 KiB)."""

router = APIRouter()


@router.get("/api/health")
async def health() -> dict[str, bool]:
    return {"ok": True}


@router.get("/api/rules")
async def rule_sets(request: Request) -> list[dict[str, Any]]:
    """The rule sets and their options, their words in the request's language."""
    lang = language_of(request)
    result = []
    makers = makers_of(translate(lang, rules_module.get(r).name) for r in rules_module.available())
    for rules_id in rules_module.available():
        ruleset = rules_module.get(rules_id)
        described = ruleset.describe()
        # what each box can hold, for setting up a position by tapping
        boxes = cast(list[dict[str, Any]], described["boxes"])
        described["boxes"] = [{**box, "values": sorted(possible_points(ruleset, box["id"]))} for box in boxes]
        described |= {
            "name": translate(lang, ruleset.name),
            "source": translate(lang, ruleset.source),
            "description": sentence(lang, ruleset.description),
        }
        described["options"] = [
            {
                "key": o.key,
                "label": translate(lang, o.label) if o.label else o.key,
                "values": list(o.values),
                "value_labels": {value: translate(lang, value) for value in o.values},
                "default": o.default,
                "plain": translate(lang, o.plain) if o.plain else "",
                **dict(zip(("help", "source"), without_source(sentence(lang, o.help), makers), strict=True)),
            }
            for o in rules_module.book_options(rules_id)  # what its rule book has, not every variant
        ]
        result.append(described)
    return result


@router.post("/api/games")
async def create(request: Request, allowances: Allowed, wait_for_body: BodyTimeout) -> Response:
    if guard.cross_site(request.headers, request.headers.get("host", "")):
        raise WebError("cross_site", "games are created from this site's own pages")
    if not guard.is_json(request.headers.get("content-type")):
        raise WebError("not_json", "send the game as application/json")
    allowances.creations.spend(client_of(request), N_("too many new games from your address: wait a little"))
    data = await _read_json(request, wait_for_body)
    new, live = await service_of(request).create(CreateRequest.parse(data))
    seats: list[dict[str, Any]] = []
    for seat, token in zip(live.seats, new.seat_tokens, strict=True):
        seats.append({"index": seat.index, "name": seat.name, "kind": seat.kind})
        if seat.kind == "human":  # a bot's token would let a person move for the bot
            seats[-1] |= {"token": token, "url": f"/g/{new.id}#t={token}"}
    body = {
        "id": new.id,
        "host_token": new.host_token,
        "host_url": f"/g/{new.id}#t={new.host_token}",
        "seats": seats,
    }
    return JSONResponse(body, status_code=201)


@router.get("/api/games/{game_id}")
async def state(game_id: str, request: Request) -> Response:
    live = await service_of(request).get(game_id)
    return Response(live.state_json(), media_type="application/json")


@router.get("/api/games/{game_id}/export")
async def export(game_id: str, request: Request) -> dict[str, Any]:
    """The game in the library's save format (``Game.loads`` / ``kniffel play --load``)."""
    service = service_of(request)
    return await service.export(await service.get(game_id))


# The advice endpoints spend the client's allowance before anything else: a flood of them, of
# games that exist or not, costs the server a lookup in memory each, not a database query or a
# copy of the game.


@router.get("/api/games/{game_id}/hints")
async def hints(game_id: str, request: Request, allowances: Allowed) -> Any:
    allowances.advice.spend(client_of(request), N_("too many hints from your address: wait a little"))
    service = service_of(request)
    live = await service.get(game_id)
    token = token_of(request)
    seq, game = await service.position(live)
    if game.current not in live.seats_for(token):
        raise WebError("unauthorized", "hints are for the player to move: send that seat's token")
    result = await service.advise(lambda: advice.hints(game), client_of(request))
    if result is None:
        raise WebError("no_advice", "no advice for these rules")
    lang = language_of(request)
    for option in result.get("estimate", []) if isinstance(result, dict) else result:
        option["text"] = game.action_text(option["action"], lang)
    if isinstance(result, dict):  # the table is being solved (or refused): ask again in a moment
        return {"seq": seq, "options": [], **in_language(result, lang)}
    return {"seq": seq, "status": advice.READY, "options": result}


@router.get("/api/games/{game_id}/rules")
async def how_to_play(game_id: str, request: Request) -> Any:
    """How the table's rules play, in the request's language, read from the rule set with its
    options (:func:`kniffel.rules.explain.explain`): for the table's "How to play"."""
    service = service_of(request)
    live = await service.get(game_id)
    explained = explain(live.game.rules, language_of(request))
    return {
        "name": explained.name,
        "description": explained.description,
        "facts": [list(fact) for fact in explained.facts],
        "boxes": [list(box) for box in explained.boxes],
        "upper_boxes": explained.upper_boxes,
        "turns": live.game.rules.turns,
    }


@router.get("/api/games/{game_id}/review")
async def review(game_id: str, request: Request, allowances: Allowed) -> Any:
    allowances.advice.spend(client_of(request), N_("too many reviews from your address: wait a little"))
    service = service_of(request)
    live = await service.get(game_id)
    _, game = await service.position(live)
    if not game.is_over:
        raise WebError("illegal", "the review is ready when the game is over")
    lang = language_of(request)
    seated = {seat.index: seat.kind for seat in live.seats if seat.kind != "human"}
    people = "win" if request.query_params.get("by") == "win" else "points"
    result = await service.analyse(lambda: advice.review(game, seated, lang, people), client_of(request))
    if result is None:
        raise WebError("no_advice", "no advice for these rules")
    for decision in result["decisions"]:
        decision["chosen_text"] = game.action_text(decision["chosen"], lang)
        decision["best_text"] = game.action_text(decision["best"], lang)
    return in_language(result, lang)


@router.get("/api/games/{game_id}/chances")
async def chances(game_id: str, request: Request, allowances: Allowed) -> Any:
    """Every player's chance of finishing first now (anyone who can see the table may ask). Counted
    against an allowance of its own, more generous than the hints': every page of a table asks
    after every action (and each position is weighed once, later asks answered from memory)."""
    allowances.chances.spend(
        client_of(request), N_("too many asks for the chances from your address: wait a little")
    )
    service = service_of(request)
    live = await service.get(game_id)
    seq, game = await service.position(live)
    # After an undo a position number may come back for another position: the key tells them apart.
    key = (f"{game_id}/{live.undos}" if live.undos else game_id, seq)
    result = await service.chances(game, key, client_of(request))
    if result is None:
        raise WebError("no_advice", "no chances of winning for this table")
    return {"seq": seq, **in_language(result, language_of(request))}


def in_language(answer: dict[str, Any], lang: str) -> dict[str, Any]:
    """An advice answer with the notes of its waits (a table the cache's budget refused) in ``lang``."""
    for key in ("preparing", "win_preparing"):
        waiting = answer.get(key)
        if isinstance(waiting, dict) and "note" in waiting:
            answer[key] = {**waiting, "note": sentence(lang, waiting["note"])}
    return answer


async def _read_json(request: Request, timeout: float) -> Any:
    """The request's JSON body, refused if it is too large or has not arrived within ``timeout``
    seconds (a client that never sends it would hold a connection and a task)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdecimal() or int(declared) > MAX_BODY):
        raise WebError("too_large", f"a request body is at most {MAX_BODY} bytes")
    body = bytearray()
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise WebError("too_large", f"a request body is at most {MAX_BODY} bytes")
    except TimeoutError:
        raise WebError("timeout", f"the request body did not arrive within {timeout:g} s") from None
    return guard.parse_json(bytes(body))


def without_source(text: str, makers: Collection[str] = ()) -> tuple[str, str]:
    """An option's help for players and, apart, the sources it cites: the home page shows the first and
    keeps the second out of sight (a tooltip). The rules cite a source in the bracket that ends the help
    ("... (Kniffel article (English translation): the sharp variant)", brackets inside it included), and
    name a maker as the rule sets' names do ("the forced joker (Schmidt)", as "Kniffel (Schmidt)"):
    ``makers`` are those names."""
    sources: list[str] = []
    if text.endswith(")"):
        depth = 0
        for at in range(len(text) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(text[at], 0)
            if depth == 0:
                sources.append(text[at + 1 : -1])
                text = text[:at].rstrip()
                break

    def maker(found: re.Match[str]) -> str:
        if found.group(1) not in makers:
            return found.group(0)
        sources.insert(0, found.group(1))
        return ""

    return re.sub(r" \(([^()]+)\)", maker, text), "; ".join(sources)


def makers_of(names: Iterable[str]) -> frozenset[str]:
    """What the brackets of rule sets' names name ("Schmidt" of "Kniffel (Schmidt)")."""
    return frozenset(found.group(1) for name in names if (found := re.search(r"\(([^()]+)\)$", name)))
