"""Tests of :mod:`kniffel.apps.tui`."""
