"""Tests of :mod:`kniffel.bots`."""
