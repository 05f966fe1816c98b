"""Tooling the tests and the benchmarks share, kept out of the installed package: a real server in a
child process (:mod:`support.web`) and slow clients (:mod:`support.trickle`).

The tests import it as ``support`` (pytest puts the ``tests`` folder on ``sys.path``); the benchmarks
put that folder there through ``benchmarks/tests_path.py``.
"""
