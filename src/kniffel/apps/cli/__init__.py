"""The ``kniffel`` command line: ``kniffel rules``, ``kniffel score`` and ``kniffel play``.

>>> import json
>>> from typer.testing import CliRunner
>>> from kniffel.apps.cli import app
>>> result = CliRunner().invoke(app, ["score", "--rules", "yahtzee", "--dice", "23455", "--json"])
>>> json.loads(result.output)["scores"]["small_straight"]
30
"""

from kniffel.apps.cli.app import app
from kniffel.apps.cli.entry import main

__all__ = ["app", "main"]
