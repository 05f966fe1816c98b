"""A position as text, and advice for every goal from a pasted one.

``GET /api/games/{id}/situation`` answers the table's position as its text (:class:`kniffel.engine.situation.
Situation`, FEN-like: the rule set, the sheet of the player to move, the dice, the rolls left and the
other players' sheets), which ``kniffel advise --situation`` reads as well. ``GET /api/analysis?situation=
TEXT&target=N`` reads such a text and values every option for each goal: points (expected points still
to come), a target (the chance of finishing with at least ``N``) and, with the other players' sheets, the
chance of winning. A goal whose tables are still being solved answers ``preparing`` with its progress
(the tables go to the planning worker; nothing is solved on the request's thread), and the page asks again.
The page is ``/analysis`` (``html/analysis.html``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from kniffel.apps.web import advice, guard, pages
from kniffel.apps.web.api import in_language
from kniffel.apps.web.dependencies import Allowed, service_of
from kniffel.apps.web.errors import WebError
from kniffel.apps.web.guard import client_of
from kniffel.apps.web.words import language_of
from kniffel.base.errors import KniffelError
from kniffel.base.i18n import N_
from kniffel.engine.game import Game
from kniffel.engine.situation import Situation
from kniffel.planning import POINTS, WIN, Choice, Target
from kniffel.services.advice import Position, options

MAX_TEXT = 2000
"""Characters of a pasted position (eight players' sheets are well under 1000)."""
DEFAULT_TARGET = 250
MAX_TARGET = 2000
MAX_SHOWN = 12


def situation_of(game: Game) -> str:
    """The position's text; ``illegal`` once the game is over."""
    if game.is_over:
        raise WebError("illegal", "the game is over: there is no position to show")
    return str(game.situation())


def read_situation(text: str) -> Situation:
    """A pasted position, or a one-line refusal saying what is wrong with it."""
    if not text.strip():
        raise WebError("malformed", "paste a position's text, as the table shows it")
    if len(text) > MAX_TEXT:
        raise WebError("too_large", f"a position's text is at most {MAX_TEXT} characters")
    guard.ascii_numbers(text, N_("the position"))
    try:
        return Situation.parse(" ".join(text.split()))
    except KniffelError as error:
        raise WebError("invalid", str(error)) from None


async def check(situation: Situation) -> None:
    """Refuse a position nobody can advise on: before the turn's first roll, or of rules the solver
    does not cover (the first ask of a rule set may read the solver's files: off the event loop)."""
    if situation.dice is None:
        raise WebError("illegal", "the position has no dice yet: advice starts after the turn's first roll")
    covered = advice.known(situation.rules)
    if covered is None:
        covered = await asyncio.to_thread(advice.available, situation.rules)
    if not covered:
        rules_id = situation.rules.id
        raise WebError(
            "no_advice", f"no advice for {rules_id}: the solver covers the rule sets of one column"
        )


def analyse(situation: Situation, target: int, lang: str) -> dict[str, Any]:
    """Every option of ``situation`` (checked by :func:`check`) for each goal, best first (on the
    advice thread): a goal whose tables are being solved says ``preparing``, and a target says where
    its chances are read at the tables' limit (``upper_bound``: upper bounds)."""
    game = Game.from_situation(situation)
    position = Position.of_game(game)
    asked = [POINTS, Target(target), *([WIN] if situation.others else [])]
    goals: list[dict[str, Any]] = []
    for goal in asked:
        found = options(position, goal, wait=False)
        entry: dict[str, Any] = {"goal": goal.name}
        if found.reach is not None:
            entry["target"] = found.reach.target
            if found.reach.limit is not None:  # its chances are those of the limit: upper bounds
                entry["upper_bound"] = found.reach.limit
        if found.preparing is not None:
            entry["preparing"] = advice.preparing(found.preparing)
        else:
            entry["options"] = _options(game, found.options, lang)
        goals.append(entry)
    return {
        "situation": str(situation),
        "rules": situation.rules.id,
        "goals": [in_language(g, lang) for g in goals],
    }


def _options(game: Game, choices: Sequence[Choice], lang: str) -> list[dict[str, Any]]:
    return [
        {"action": str(c.action), "text": game.action_text(c.action, lang), "value": round(c.value, 4)}
        for c in choices[:MAX_SHOWN]
    ]


router = APIRouter()


@router.get("/analysis")
async def page() -> Response:
    return HTMLResponse(pages.html(pages.ANALYSIS))


@router.get("/api/games/{game_id}/situation")
async def situation(game_id: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    seq, game = await service.position(await service.get(game_id))
    return {"seq": seq, "situation": situation_of(game)}


@router.get("/api/analysis")
async def analysis(request: Request, allowances: Allowed) -> Any:
    allowances.advice.spend(client_of(request), N_("too many analyses from your address: wait a little"))
    found = read_situation(request.query_params.get("situation", ""))
    target = guard.whole_number(
        request.query_params.get("target", str(DEFAULT_TARGET)), N_("target"), 1, MAX_TARGET
    )
    lang = language_of(request)
    await check(found)
    return await service_of(request).analyse(lambda: analyse(found, target, lang), client_of(request))
