"""Every registered solver: time and peak memory of one fit.

The solver list is the registry (``lssvm_analysis.solvers()``) at import:
a newly registered solver is benchmarked without touching this file.  Each
solver runs with the data and options of :func:`common.solver_problem`.
The floors of the dense fits (bare NumPy/LAPACK calls) are in
``bench_floors.py``.

``SolverFit`` runs M = 500 and ``SolverFitLarge`` M = 2000: the second size shows how each solver
scales (rr-lssvr's selection, O(M^2) per step and M/4 steps, takes ~8 s there), and its two
benchmarks took ~60 s of wall time in the README's quick pass (under load), which leaves the ``*Large`` classes out.
"""
from . import common
from .common import la

__all__ = ["SolverFit", "SolverFitLarge"]


class SolverFit(common.OneShot):
    """One fit of each registered solver in each hardware precision it runs in, at M = 500."""

    params = [common.solver_names(), common.hardware_precisions(), [500]]
    param_names = ["solver", "precision", "M"]
    timeout = 300
    repeat = (1, 7, 3.0)
    min_run_count = 1

    def setup(self, solver, precision, M):
        common.require_precision(common.require_solver(solver), precision)
        self.fit = la.fit
        self.X, self.y, self.kw = common.solver_problem(solver, common.size(M))

    def time_fit(self, solver, precision, M):
        self.fit(solver, self.X, self.y, precision=precision, **self.kw)

    def peakmem_fit(self, solver, precision, M):
        self.fit(solver, self.X, self.y, precision=precision, **self.kw)


class SolverFitLarge(SolverFit):
    """:class:`SolverFit` at M = 2000 (own class: left out of the README's quick pass)."""

    params = [common.solver_names(), common.hardware_precisions(), [2000]]
