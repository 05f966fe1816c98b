"""Tests of :mod:`kniffel.services`."""
