"""Layer 2: solver families, one module each, all registered by name.

Importing this package imports every family module, which registers its
solvers; ``solvers()`` then lists them all.
"""
from ._registry import SolverInfo, fit, get_solver, register, solvers

__all__ = ["SolverInfo", "fit", "get_solver", "register", "solvers"]

# Family modules register themselves on import (one line per family).
from . import suykens  # noqa: E402,F401
from . import abe  # noqa: E402,F401
