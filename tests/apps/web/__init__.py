"""Tests of :mod:`kniffel.apps.web`."""
