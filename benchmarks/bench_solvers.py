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
    """One fit of each registered solver, float32 and float64, at two sizes."""

    params = [common.solver_names(), ["float32", "float64"], [500, 2000]]
    param_names = ["solver", "precision", "M"]
    timeout = 300
    repeat = (1, 7, 3.0)
    min_run_count = 1

    def setup(self, solver, precision, M):
        info = common.require_solver(solver)
        if precision not in info.supported_precisions():  # e.g. the float64-only LIBSVM baselines
            raise common.Missing(f"{solver} does not run in {precision}")
        self.fit = la.fit
        self.X, self.y, self.kw = common.solver_problem(solver, common.size(M))

    def time_fit(self, solver, precision, M):
        self.fit(solver, self.X, self.y, precision=precision, **self.kw)

    def peakmem_fit(self, solver, precision, M):
        self.fit(solver, self.X, self.y, precision=precision, **self.kw)
