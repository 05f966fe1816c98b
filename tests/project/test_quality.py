"""CI runs exactly the test command README.md shows, and that command checks the whole project: the
tests, mypy --strict, ruff and the documentation's build (``scripts/test`` runs each as a step of its
own). Nothing outside ``CHANGELOG.md`` tells how the project was made."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from support.paths import ROOT

pytestmark = pytest.mark.compiles_nothing


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```bash", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert len(commands) == 2, "README must open with the start command and the test command"
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_test_command_checks_types_style_and_the_documentation() -> None:
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    for step in ("ruff check", "ruff format --check", "mypy", "mkdocs build --strict"):
        assert step in script, f"scripts/test does not run {step}"


def test_the_performance_page_stays_a_model_not_a_log() -> None:
    """The performance page explains where time and memory go, the settings and how to measure; the
    figures are tables made from the benchmarks' results. Past 300 lines it has become a log again."""
    page = ROOT / "docs" / "explanation" / "performance.md"
    assert len(page.read_text(encoding="utf-8").splitlines()) <= 300


# --- no history outside the changelog --------------------------------------------------------------

# How the software was made (numbered steps of the work, issues and sessions, the days things were done,
# the commits a comparison was made against) is history, which CHANGELOG.md keeps by version and git by
# commit; everything else says what the software is and does. The patterns are narrow enough to leave
# alone the game's own words ("round 2 of 13"), numeric literals (0b00110, 0x1f2e3d4c), database commits,
# and dates that are data (a timestamp in a record or a format's example, 1970-01-01 as an epoch).
MONTH = "January|February|March|April|May|June|July|August|September|October|November|December"
HISTORY = {
    "a numbered session or issue": re.compile(
        r"\b(?:sessions?|issues?|tickets?)\s+(?:no\.\s*)?#?\d+\b", re.I
    ),
    "an issue as the reason": re.compile(r"\bthe\s+(?:[\w-]+\s+)?issue(?:'s)?\b(?!\s+tracker)", re.I),
    "a numbered step of the work": re.compile(
        r"\brounds?\s+(?:\d+\s+)?of\s+(?:work|hardening|review|fixes)\b"
        r"|\b(?:numbered|hardening|review|fix(?:ing)?)\s+rounds?\b",
        re.I,
    ),
    "a date": re.compile(
        rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{MONTH})\b"  # day, month
        rf"|\b(?:{MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?\b"  # month, day (names capitalised: "may 3" is no date)
        rf"|\b(?:{MONTH}),?\s+20\d\d\b"  # month, year
        r"|\b20\d\d-[01]\d-[0-3]\d\b(?!T\d)"  # ISO, but not a record's timestamp
    ),
    "a diary phrase": re.compile(
        r"\b(?:later|earlier)\s+(?:that|the\s+same)\s+(?:day|evening|morning|night|afternoon|week)\b"
        r"|\b(?:this|that)\s+(?:morning|afternoon|evening)\b|\bearlier\s+today\b|\blast\s+(?:night|week)\b"
        r"|(?<![\"'])\byesterday\b(?![\"'])"  # but not "yesterday" as a test's data
        r"|\b(?:a|one|two|three|four|five|\d+)\s+(?:days?|weeks?|months?)\s+(?:later|earlier|before)\b"
        r"|\ban\s+hour\s+(?:later|earlier|before)\b|\bearlier\s+sitting\b"
        r"|\bother\s+engineers\b|\b(?:an\s+earlier|before\s+this|after\s+this)\s+branch\b"
        r"|\bbranch\s+of\s+work\b|\bthe\s+commit\s+before\b|\b(?:before|after)\s+the\s+merge\b",
        re.I,
    ),
}
HASH = re.compile(r"\b(?!0b[01]+\b)(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,12}\b")
"""What may be a commit hash: 7 to 12 hexadecimal digits, a letter and a digit among them (not a word,
not a binary literal)."""
HASH_NAMED = re.compile(
    r"\bcommits?\b|\bbaselines?\b|\bof\s+kniffel\b|\bkniffel\s+[0-9a-f]{7}|\bthe\s+code\s+before\b"
    r"|\brevision\b|\bversion\b",
    re.I,
)
"""Words that make such a token in the same sentence a commit used as a reference."""
WALKED = ["src", "tests", "docs", "benchmarks", "scripts", "tools", "examples", ".ci"]
WALKED_FILES = ["README.md", "pyproject.toml", "mkdocs.yml"]
NOT_WALKED = {
    "__snapshots__",  # pictures of the terminal, compared whole
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "node_modules",
}
BEING_REWRITTEN: dict[str, str] = {}
"""Files another branch is rewriting, left to it (path: why); to be emptied when that branch is merged."""


def history_words(text: str) -> list[str]:
    """Each word about how the software was made in ``text``, as ``kind: the words``."""
    found = [f"{kind}: {m.group(0)}" for kind, pattern in HISTORY.items() for m in pattern.finditer(text)]
    for m in HASH.finditer(text):
        start = max(text.rfind(". ", 0, m.start()), text.rfind("\n\n", 0, m.start()), 0)
        ends = [i for i in (text.find(". ", m.end()), text.find("\n\n", m.end())) if i >= 0]
        if HASH_NAMED.search(text, start, min(ends, default=len(text))):
            found.append(f"a commit as a reference: {m.group(0)}")
    return found


def walked_files() -> list[Path]:
    """The project's text files that say what it is: sources, tests, docs, benchmarks, scripts."""
    paths = [ROOT / name for name in WALKED_FILES]
    for top in WALKED:
        for path in sorted((ROOT / top).rglob("*")):
            parts = path.relative_to(ROOT).parts
            if (
                path.is_file()
                and not set(parts) & NOT_WALKED
                and not any(p.endswith(".egg-info") for p in parts)
            ):
                paths.append(path)
    return paths


def test_the_history_patterns_find_what_they_should_and_nothing_else() -> None:
    for said in (
        "before session 33",
        "the attack of issue 28",
        "issue #28",
        "Following the issue's definition and",
        "each rough edge of the terminal-game issue, reproduced",
        "in round 4 of work",
        "before the second hardening round",
        "Measured 2026-11-23 on 2 cores",
        "(27 November, horizon at eight boxes open",
        "(27\nNovember, horizon",
        "on a Zen 4 in November 2026",
        "kniffel-2026-11-23.dump",
        "later that evening",
        "Later the same day, with",
        "a Zen 4 two days later",
        "an hour earlier the same",
        "shared with other engineers' builds",
        "What broke yesterday",
        "Earlier sitting, before this branch:",
        "the server of the commit before the advice lanes",
        "the exact target tables of kniffel d80cfbc did",
        "against commit 3fa9c21 (before)",
        "a baseline of\nd80cfbc1 on two cores",
    ):
        assert history_words(said), said
    for said in (
        "Kniffel (Schmidt), round 2 of 13: Bob to move",
        "Round 2 of 13, You to play",
        "Ada against a bot in round 4, two dice held",
        "the sides take turns for ``--rounds`` rounds",
        "assert encoding.index(Roll(keep=(3, 3)), dice) == 0b00110",
        "mask = 0x1f2e3d4c  # a version of the mask",
        '{"finished": "yesterday"},',
        '"finished": "2026-11-01T10:00:00.000Z",',
        "{name} must be a time, as 2026-05-01T12:00:00+00:00",
        "matplotlib's dates are days since 1970-01-01",
        "pg_restore /var/backups/kniffel/kniffel-YYYY-MM-DD.dump",
        "a session of the table",
        "the issues a reviewer raises",
        "either branch of a condition",
        "can miss the last commits (they may still be in the -wal file)",
        "The checksum is deadbeef1 in the file.",
        "commit the .pot, .po and .mo files together",
        "the players may 3 times",
        "a Zen 4 two cores, 1.7e-7 a value",
    ):
        assert not history_words(said), said


def test_no_words_about_how_the_software_was_made_outside_the_changelog() -> None:
    """Docs, docstrings, comments, tests, scripts and benchmarks say what the software is and does;
    the steps of the work, issues, the days things were done and the commits compared against are history,
    which ``CHANGELOG.md`` keeps by version (and git by commit)."""
    examples = inspect.getsource(test_the_history_patterns_find_what_they_should_and_nothing_else)
    found = []
    for path in walked_files():
        name = path.relative_to(ROOT).as_posix()
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a picture or a compiled catalog
        if "\0" in text or name in BEING_REWRITTEN:
            continue
        found += [f"{name}: {words!r}" for words in history_words(text.replace(examples, ""))]
    assert found == [], "history belongs in CHANGELOG.md:\n" + "\n".join(found)
