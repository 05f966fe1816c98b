"""The machine under the solver: threads, progress and cancelling (``work``), the tables on disk within a
budget (``store``), tables held in memory (``memo``), where numba keeps the compiled kernels and what
compiles now (``kernelcache``), compiling ahead on a second processor (``precompile``) and how fast this
machine solves (``pace``). It imports nothing of the solver, nor a kernel."""
