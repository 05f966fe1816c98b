"""Tests of :mod:`kniffel.core`."""
