"""Tests of :mod:`kniffel.engine`."""
