"""Tests of the front ends, :mod:`kniffel.apps`."""
