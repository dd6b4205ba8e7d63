"""Layer 2: solver families, one module each, all registered by name.

Importing this package imports every family module, which registers its
solvers; ``solvers()`` then lists them all.  Installed third-party solvers
(entry-point group ``lssvm_analysis.solvers``) are loaded by
``load_plugins()`` at the registry's first use (``solvers()``, ``get_solver()``, ``fit()``).

This package is also callable: ``lssvm_analysis.solvers()`` is :func:`solvers` (the registered
names), the public API's one listing call, while ``lssvm_analysis.solvers`` stays the subpackage,
so ``import lssvm_analysis.solvers.multiclass as m`` and ``la.solvers.multiclass`` work.  (When
the package attribute was the function, ``import a.b.c as m`` looked ``c`` up on the function and
raised ImportError.)
"""
import sys
import types
from ._fit import fit
from ._registry import (PLUGIN_GROUP, RANDOM_KEYWORD, SUPPORT_FRACTIONS, LadderKnob, Problem, SolverInfo, Variant,
                        get_solver, load_plugins, register, solvers, unregister, variant)
from .result import STATUSES, Fit, PhaseTimer


class _CallableModule(types.ModuleType):
    """This package's module type: calling it lists the registered solvers (:func:`solvers`)."""

    def __call__(self, *args, **kwargs):
        return solvers(*args, **kwargs)

    __call__.__doc__ = solvers.__doc__


sys.modules[__name__].__class__ = _CallableModule

__all__ = ["Fit", "LadderKnob", "PhaseTimer", "Problem", "SUPPORT_FRACTIONS", "RANDOM_KEYWORD", "STATUSES",
           "SolverInfo", "Variant", "fit", "get_solver", "register", "solvers", "unregister", "variant",
           "PLUGIN_GROUP", "load_plugins"]

# Solver modules register their solvers on import, one line per module, in
# the order of the registry's listing (lssvm-pruned after Suykens' solvers,
# rr-lssvr before reduced-lssvr).
from . import suykens  # noqa: E402,F401
from . import multiclass  # noqa: E402,F401
from . import pruning  # noqa: E402,F401
from . import abe  # noqa: E402,F401
from . import baselines  # noqa: E402,F401
from . import vieira  # noqa: E402,F401
from . import zhao_sun_recursive  # noqa: E402,F401
from . import zhao_sun  # noqa: E402,F401
from . import chen_zhou  # noqa: E402,F401
from . import robust  # noqa: E402,F401
from . import fixed_size  # noqa: E402,F401
