"""Every numba function of the solver and the records they pass, a module per objective.

The floor under the solver's Python (:mod:`kniffel.core`): it imports nothing of core but the kernel cache
(:mod:`kniffel.core.runtime.kernelcache`), which is told where numba keeps the compiled code before any
kernel below is defined. ``common`` holds what every objective shares (entering points, the sweep over the
keep lattice), ``loop`` the level loop and the option kernel written once, ``points``, ``target``,
``distribution`` and ``win`` the objectives, ``play``, ``sheet`` and ``env`` the compiled games, ``batch``
and ``codec`` batch advice and its text, ``spans`` the targets a cone's rows hold, ``maxima`` the maxima
the loops keep, ``records`` the records they pass and ``jobs`` what a first run compiles ahead.
"""

from kniffel.core.runtime.kernelcache import use_kernels_cache

use_kernels_cache()  # before any kernel is defined: numba reads its cache directory at decoration
