"""Tests of :mod:`kniffel.base`."""
