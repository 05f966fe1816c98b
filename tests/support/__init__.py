"""Tooling the tests and the benchmarks share, kept out of the installed package: a real server in a
child process (:mod:`support.web`) and its clients (:mod:`support.clients`, slow ones in
:mod:`support.trickle`), the web app and service driven in process (:mod:`support.testclient`,
:mod:`support.service`), rule sets and the seeds' examples (:mod:`support.rules`), games played turn by
turn (:mod:`support.games`, :mod:`support.dice`, :mod:`support.strategies`), solved tables and the
reduced games (:mod:`support.solver`, :mod:`support.bruteforce`, :mod:`support.batch`), the compiled
kernels (:mod:`support.kernels`), the package's sources (:mod:`support.sources`), the benchmarks'
modules (:mod:`support.benchmarks`), where the files are (:mod:`support.paths`) and the warm-up beside
a run (:mod:`support.warmup`).

The tests import it as ``support`` (pytest puts the ``tests`` folder on ``sys.path``); the benchmarks
put that folder there through ``benchmarks/tests_path.py``.
"""
