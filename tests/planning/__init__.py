"""Tests of :mod:`kniffel.planning`."""
