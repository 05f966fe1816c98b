"""Tests of :mod:`kniffel.rules`."""
