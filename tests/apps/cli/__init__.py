"""Tests of :mod:`kniffel.apps.cli`."""
