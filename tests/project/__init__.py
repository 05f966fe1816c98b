"""Checks of the whole project that belong to no one package: types and style, the layers, the install,
a release, the examples, the docstrings' examples and the benchmarks' own code."""
