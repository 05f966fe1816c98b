"""``python -m kniffel``: the same as the ``kniffel`` command."""

from kniffel.cli import main

main()
