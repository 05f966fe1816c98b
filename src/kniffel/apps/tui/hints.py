"""The hint panel: the options of the player to move, best first, each with the points it leads to, what
it gives away against the best and (several players) its chance of winning, in columns that fit the
panel (a long action is abbreviated, a column never cut)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import RichLog

from kniffel.apps.tui.common import shortened, wrapped_text
from kniffel.base.i18n import N_, ngettext, number, percent, translate
from kniffel.engine.game import Game
from kniffel.planning import Choice
from kniffel.services.advice import Preparing
from kniffel.services.wording import QUICK_ORDER

HINTS_SHOWN = 5
"""Options the hints list, best first (T lists them all)."""
FIGURES = 7
"""The width of each figure's column."""


class HintsPanel(RichLog):
    """The options, with their column heads."""

    def __init__(self, lang: str, *, id: str | None = None) -> None:
        super().__init__(wrap=False, markup=False, auto_scroll=False, min_width=20, id=id)
        self.lang = lang

    def t(self, text: str, **fields: object) -> str:
        return translate(self.lang, text, **fields)

    def show(
        self,
        game: Game,
        choices: Sequence[Choice],
        exact: bool,
        chances: Sequence[tuple[str, Sequence[float | None]]],
        every: bool,
        *,
        preparing: Preparing | None = None,
        title: str = N_("Options, best first"),
        order_only: bool = False,
        note: str = "",
    ) -> None:
        """List ``choices`` (the best :data:`HINTS_SHOWN`, or ``every`` one) of ``game``'s player to move,
        with a column per goal of ``chances`` (its head, each choice's chance); ``order_only``: their
        order without figures (the quick bot's, while the exact table is solved)."""
        self.clear()
        width = max(self.scrollable_content_region.width, 36)
        heads = [] if order_only else [self.t("points"), self.t("loss")] + [head for head, _ in chances]
        action = width - FIGURES * len(heads)
        self.write(Text(self.t(title), style="bold"))
        if order_only:
            self.write(wrapped_text(self.t(QUICK_ORDER), width, "dim"))
        else:
            heads_line = " " * action + "".join(f"{head:>{FIGURES}}" for head in heads)
            self.write(Text(heads_line, style="dim", no_wrap=True))
        best = choices[0].value if choices else 0.0
        listed = len(choices) if every else min(len(choices), HINTS_SHOWN)
        for n, choice in enumerate(choices[:listed]):
            shown = shortened(game.action_text(choice.action, self.lang), action - 1)
            if order_only:
                self.write(Text(shown, no_wrap=True))
                continue
            cost = self.t("best") if n == 0 else "-" + number(self.lang, best - choice.value, 2)
            line = f"{shown:<{action}}{number(self.lang, choice.value, 1):>{FIGURES}}{cost:>{FIGURES}}"
            for _, values in chances:
                chance = values[n]
                line += f"{percent(self.lang, chance) if chance is not None else '':>{FIGURES}}"
            self.write(Text(line, no_wrap=True))
        if listed < len(choices):
            more = len(choices) - listed
            more_text = ngettext("{n} more: T lists it", "{n} more: T lists them all", more, self.lang)
            self.write(Text(more_text, style="dim"))
        if not exact:
            estimates = self.t("Values are estimates from single-column tables, not exact.")
            self.write(wrapped_text(estimates, width, "dim"))
        if preparing is not None:
            self.write(wrapped_text(preparing.note(self.t), width, "dim"))
        if note:
            self.write(wrapped_text(note, width, "dim"))
