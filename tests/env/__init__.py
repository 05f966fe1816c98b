"""Tests of :mod:`kniffel.env`."""
