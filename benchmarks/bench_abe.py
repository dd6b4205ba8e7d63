"""Abe's mp50 breakdown scans at the float columns' size (issue 24).

The report's ``breakdown-scan`` task (Mackey-Glass, M = 200, sigma2 = 1,
eta in {1e-3, 0.1}, C from 1e-2 to 1e30 at two points per decade, then 8
bisection steps): mp50 never breaks down there, so a task factors the
formulation's matrix at all 65 grid values of C.  With the selection and the
C-independent matrix made once (``ElsPath``) and each C one Cholesky
factorization (``Precision.diagonal_factorizer``), the target is the four
tasks (two solvers x two eta) in <= 12 CPU-s together; before, each C was a
fresh fit, > 125 CPU-s for the four.

``track_cpu_seconds`` gives the process (CPU) time of one scan: on the 2
shared cores of this machine the wall time of a single-threaded call grows
with the load, the CPU time much less.
"""
import time

from . import common
from .common import la

__all__ = ["MPBreakdownScan"]


def _cpu_seconds(func):
    t0 = time.process_time()
    func()
    return time.process_time() - t0


class MPBreakdownScan(common.OneShot):
    """One mp50 breakdown scan of the default report (Abe's section) at M = 200."""

    params = [["els-dual", "els-primal"], [1e-3, 0.1], ["mp50"], [200]]
    param_names = ["solver", "eta", "precision", "M"]
    timeout = 600
    repeat = (1, 2, 120.0)

    def setup(self, solver, eta, precision, M):
        info = common.require_solver(solver)
        p = la.get_precision(precision)
        if getattr(p, "engine", "flint") != "flint":
            raise common.Missing(f"{precision} runs without FLINT here (engine={p.engine})")
        if getattr(info, "ridge_path", None) is None:   # suites import on any version
            raise common.Missing(f"{solver} has no ridge path in this version")
        self.cond = common.optional_module("lssvm_analysis.analysis.conditioning")
        m = common.size(M)
        d = common.optional_module("lssvm_analysis.datasets").load("mackey-glass", n_train=m, n_test=m)
        self.X, self.y = d.X_train, d.y_train

    def _scan(self, solver, eta, precision):
        return self.cond.scan_breakdown(self.X, self.y, precision=precision, solver=solver,
                                        C_min=1e-2, C_max=1e30, per_decade=2, bisect=8,
                                        sigma2=1.0, eta=eta)

    def time_scan(self, solver, eta, precision, M):
        self._scan(solver, eta, precision)

    def track_cpu_seconds(self, solver, eta, precision, M):
        """Process time of one scan (s): selection, C-independent matrix, 65 factorizations."""
        return common.round_sig(_cpu_seconds(lambda: self._scan(solver, eta, precision)), 3)

    track_cpu_seconds.unit = "s"
