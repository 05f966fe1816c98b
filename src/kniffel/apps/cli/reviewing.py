"""Advice at the terminal: hints during play and the review of a game, as Rich tables.

Both ask the optimal planner (:mod:`kniffel.planning`), so they cover every rule set: exactly where the
solver does, else with the estimate ``bot:optimal`` plays by (and they say so). Actions are printed as
the game's language shows them (:meth:`kniffel.Game.action_text`), which the prompt takes as typed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from rich import box
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from kniffel.apps.cli.errors import CliError
from kniffel.base.i18n import N_, number, percent, translate
from kniffel.engine.actions import Action, action_text
from kniffel.engine.game import Game
from kniffel.planning import Choice, Unit, parse_goal
from kniffel.rules import RuleSet
from kniffel.services.review import Review, loss_text
from kniffel.services.wording import (
    SUMMARY_HEADERS,
    TIE_NOTE,
    goal_text,
    listed_decisions,
    needs_tie_note,
    summary_cells,
    summary_notes,
)

ESTIMATE_NOTE = N_(
    "Values for this rule set are estimates built from single-column tables (bot:optimal's view), not exact."
)


def hint_lines(
    game: Game, choices: Sequence[Choice], lang: str = "en", wins: Sequence[float | None] | None = None
) -> list[str]:
    """A line per choice: the action as the game's language shows it, its value, what it costs against
    the best, and with ``wins`` its chance of winning."""
    if not choices:
        return []
    best = choices[0].value
    lines = []
    for n, choice in enumerate(choices, 1):
        cost = translate(lang, "best") if n == 1 else "-" + number(lang, best - choice.value, 2)
        shown = game.action_text(choice.action, lang)
        line = f"  {n}. {shown:<28} {number(lang, choice.value, 2):>8}  {cost:>6}"
        if wins is not None and wins[n - 1] is not None:
            line += f"  {percent(lang, wins[n - 1] or 0.0):>7}"
        lines.append(line)
    return lines


def summary_table(review: Review, lang: str = "en") -> Table:
    """A row a player: :data:`kniffel.services.wording.SUMMARY_HEADERS`, what the player is graded by under
    its name, every figure with its unit; it fits 80 columns in every language (the names and goals wrap
    between words, the figures never do)."""
    table = Table(
        title=translate(lang, "Review: what each decision gave away of its player's goal"),
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        collapse_padding=True,
    )
    for header in SUMMARY_HEADERS:
        wraps = header == "Player"
        table.add_column(
            translate(lang, header),
            justify="left" if wraps else "right",
            no_wrap=not wraps,
            min_width=10 if wraps else None,
            ratio=1 if wraps else None,
        )
    for p in review.players:
        name, *figures = summary_cells(p, lang)
        table.add_row(Text.assemble(name, "\n", (goal_text(p.goal, lang), "dim")), *figures)
    return table


def summary_note(lang: str = "en") -> Text:
    """Under the summary: what its loss and accuracy mean."""
    return Text("\n".join(summary_notes(lang)), style="dim")


def decisions_table(
    review: Review,
    rules: RuleSet,
    *,
    everything: bool = False,
    lang: str = "en",
) -> RenderableType:
    """The decisions (of a game of ``rules``, every player's) that :func:`kniffel.services.review.listed`
    lists (all of them with ``everything``), each with the best choice for its player's goal and what it gave
    away of it; a sentence when there are none."""
    listed = listed_decisions(review, everything=everything)
    if not listed:
        return Text(translate(lang, "No decision cost points." if not everything else "No decisions yet."))
    title = N_("Every decision") if everything else N_("Decisions that cost points")
    # 80 columns hold every column when the actions may wrap between their words; a single player's
    # name needs no column at all.
    named = len({d.player for d in listed}) > 1 or len(review.players) > 1
    table = Table(title=translate(lang, title), padding=(0, 1), collapse_padding=True)
    for header in (
        N_("#"),
        N_("Player"),
        N_("Round"),
        N_("Dice"),
        N_("Left"),
        N_("Chosen"),
        N_("Best"),
        N_("Loss"),
    ):
        if header == "Player" and not named:
            continue
        shown = translate(lang, header)
        wraps = header in ("Player", "Chosen", "Best")
        table.add_column(
            shown,
            justify="right" if header in ("#", "Round", "Left", "Loss") else "left",
            no_wrap=not wraps,
            min_width=max(6, *(len(word) for word in shown.split())) if wraps else None,
            ratio=1 if header in ("Chosen", "Best") else None,
            # An action is typed back as printed: it wraps, never loses characters to "…".
            overflow="fold",
        )
    for d in listed:
        table.add_row(
            *((str(d.number), d.player) if named else (str(d.number),)),
            str(d.round),
            " ".join(map(str, d.dice)),
            str(d.rolls_left),
            action_text(Action.parse(d.chosen), rules, lang),
            action_text(Action.parse(d.best), rules, lang),
            loss_text(d.loss, d.unit, lang),
        )
    return table


def chances_note(review: Review, lang: str = "en") -> str | None:
    """What to say under :func:`chances_table` when a row of it adds up to more than 100 % (a tie
    counts as a win for each tied player), else None."""
    if review.chances is None or not any(needs_tie_note(row, 1) for row in review.chances):
        return None
    return translate(lang, TIE_NOTE)


def chances_table(review: Review, players: Sequence[str], lang: str = "en") -> Table:
    """Every player's chance of winning before the game and after each round (a review with chances)."""
    assert review.chances is not None
    table = Table(title=translate(lang, "Chances of winning after each round"))
    table.add_column(translate(lang, "Round"), justify="right")
    for name in players:
        table.add_column(name, justify="right", overflow="fold")
    rounds = review.chances[:: len(players)]
    if (len(review.chances) - 1) % len(players):
        rounds.append(review.chances[-1])  # an unfinished round: where it stands now
    for round_number, row in enumerate(rounds):
        table.add_row(str(round_number), *(percent(lang, chance) for chance in row))
    return table


def print_review(path: Path, *, everything: bool, by_win: bool, json_output: bool, lang: str) -> None:
    """``kniffel review``: the saved game at ``path`` reviewed with every player graded by its own goal
    (bots by what they play for, people by points; by the chance of winning with ``by_win``, which also
    charts everyone's chances), printed as tables in ``lang`` or as JSON."""
    from kniffel.apps.cli import solving
    from kniffel.services.players import shown_names
    from kniffel.services.proficiency import of_review, review_lines
    from kniffel.services.review import can_review_by_win, player_goals, review
    from kniffel.services.session import read_game, saved_bots
    from kniffel.services.wording import renamed

    game = read_game(path)
    if by_win and not can_review_by_win(game):
        raise CliError("--by-win needs a game of several players on rules the exact solver covers")
    bots = saved_bots(path, game)
    goals = player_goals(game, bots, "win" if by_win else "points")
    graded_by_chance = any(parse_goal(goal).unit != Unit.POINTS for goal in goals)
    label = translate(lang, "Reviewing the game...")
    with solving.solve_progress(not json_output and graded_by_chance, label, lang=lang):
        result = review(game, goals=goals, chances=by_win)
    if json_output:
        figures = {name: figure.to_json() for name, figure in of_review(result).items()}
        print(json.dumps(result.to_json() | {"proficiency": figures}))
        return
    console = Console(highlight=False)
    names = shown_names(game.players, bots, lang)
    result = renamed(result, dict(zip(game.players, names, strict=True)))
    console.print(summary_table(result, lang))
    for line in review_lines(result, lang):
        console.print(line)
    console.print(summary_note(lang))
    console.print(decisions_table(result, game.rules, everything=everything, lang=lang))
    if result.chances is not None:
        console.print(chances_table(result, names, lang))
        if (note := chances_note(result, lang)) is not None:
            console.print(note, style="dim")
    if not result.exact:
        console.print(translate(lang, ESTIMATE_NOTE))
