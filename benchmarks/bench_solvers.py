"""Every registered solver: time and peak memory of one fit.

The solver list is the registry (``lssvm_analysis.solvers()``) at import:
a newly registered solver is benchmarked without touching this file.  Each
solver runs with the data and options of :func:`common.solver_problem`.
The floors of the dense fits (bare NumPy/LAPACK calls) are in
``bench_floors.py``.
"""
from . import common
from .common import la

__all__ = ["SolverFit"]


class SolverFit(common.OneShot):
    """One fit of each registered solver in each hardware precision it runs in, at two sizes."""

    params = [common.solver_names(), common.hardware_precisions(), [500, 2000]]
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
