"""What a release is made of agrees with itself: the licence pyproject names is the LICENSE file's, and
the version is one (``kniffel.__version__``, read by pyproject, cited by CITATION.cff, with its entry in
CHANGELOG.md)."""

from __future__ import annotations

import re
import tomllib

import kniffel
from support.paths import ROOT


def citation() -> dict[str, str]:
    """The top-level keys of CITATION.cff and their values (a line each; lists and blocks as their
    first line)."""
    found = {}
    for line in (ROOT / "CITATION.cff").read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"([a-z-]+):\s*(.*)", line)
        if match:
            found[match.group(1)] = match.group(2).strip().strip('"')
    return found


def test_the_licence_file_is_the_one_pyproject_names() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text


def test_the_version_is_one() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "kniffel.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", kniffel.__version__)
    assert citation()["version"] == kniffel.__version__


def test_the_citation_has_what_the_format_requires() -> None:
    cited = citation()
    assert cited["cff-version"] == "1.2.0"
    assert {"message", "title", "authors", "version", "license", "type"} <= cited.keys()
    assert cited["license"] == "MIT"
    assert "- name: " in (ROOT / "CITATION.cff").read_text(encoding="utf-8")


def test_every_release_has_its_changelog_entry() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", text, re.MULTILINE)
    assert releases[0] == kniffel.__version__, "the newest entry is the version's"
    assert releases == sorted(releases, key=lambda v: tuple(map(int, v.split("."))), reverse=True)
    for entry in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        assert re.search(r"^### (Added|Changed|Deprecated|Removed|Fixed|Security)$", entry, re.MULTILINE)
