"""Every registered solver: time and peak memory of one fit, and lssvm-schur against its floor.

The solver list is the registry (``lssvm_analysis.solvers()``) at import:
a newly registered solver is benchmarked without touching this file.  Each
solver runs with the data and options of :func:`common.solver_problem`.
"""
import numpy as np
import scipy.linalg
from scipy.linalg import lapack

from . import common
from .common import la

__all__ = ["SolverFit", "SchurFloor"]


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


def _floor(X, y, sigma2, C):
    """The least work of lssvm-schur: kernel matrix + I/C, dpotrf, two dpotrs (Suykens 3.24-3.25).

    H is exactly symmetric, so its transpose, a Fortran-ordered view, is
    factorized in place: no copy at all.
    """
    H = la.rbf_kernel(X, sigma2=sigma2, precision="float64")
    H.flat[:: H.shape[0] + 1] += 1.0 / C
    potrf, potrs = lapack.get_lapack_funcs(("potrf", "potrs"), dtype=H.dtype)
    L, info = potrf(H.T, lower=1, overwrite_a=1, clean=0)
    if info != 0:  # pragma: no cover - the data are well conditioned
        raise scipy.linalg.LinAlgError(f"dpotrf failed with info={info}")
    eta, _ = potrs(L, y, lower=1)
    nu, _ = potrs(L, np.ones_like(y), lower=1)
    return eta, nu


class SchurFloor(common.OneShot):
    """lssvm-schur float64 against its floor (kernel build + dpotrf + 2 dpotrs): target <= 1.15 x."""

    params = [[4000]]
    param_names = ["M"]
    timeout = 300
    repeat = (1, 5, 10.0)

    def setup(self, M):
        common.require_solver("lssvm-schur")
        self.fit = la.fit
        self.X, self.y, self.kw = common.solver_problem("lssvm-schur", common.size(M))

    def _schur(self):
        return self.fit("lssvm-schur", self.X, self.y, precision="float64", **self.kw)

    def _floor(self):
        return _floor(self.X, self.y, self.kw["sigma2"], self.kw["C"])

    def time_schur_fit(self, M):
        self._schur()

    def time_floor(self, M):
        self._floor()

    def track_schur_over_floor(self, M):
        """Ratio of the minima of 5 interleaved runs of each, in one process (target <= 1.15)."""
        t_fit, t_floor = common.interleaved_min([self._schur, self._floor], repeats=5)
        return common.round_sig(t_fit / t_floor, 3)

    track_schur_over_floor.unit = "ratio"
