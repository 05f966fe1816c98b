"""``python -m kniffel``: the same as the ``kniffel`` command."""

from kniffel.apps.cli import main

if __name__ == "__main__":
    main()
