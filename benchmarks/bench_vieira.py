"""Vieira et al.'s scaling claim: OP-LSSVM training time grows more slowly with L than LSSVM's.

``time_``/``peakmem_`` of op-lssvm and ip-lssvm per precision come from the
registry-driven suite (bench_solvers).  Here: the ratio of the two training
times at each L, measured in one process (interleaved minima, single BLAS
thread), so that machine drift cancels.  The claim holds if the ratio falls
as L grows (OP's O(L^2 k_max) ranking against LSSVM's O(L^3) LU); the paper
extrapolates "smaller than LSSVM for larger sets" from it.
"""
from __future__ import annotations

from . import common
from .common import la


class OPLSSVMOverLSSVM(common.OneShot):
    """op-lssvm (k_max = min(100, L), float64, no conditioning diagnostic) over lssvm-kkt (LU of D)."""

    params = [[200, 400, 800, 1600]]
    param_names = ["L"]
    timeout = 600
    repeat = (1, 3, 30.0)

    def setup(self, L):
        common.require_solver("op-lssvm")
        common.require_solver("lssvm-kkt")
        self.X, self.y = common.classification_data(common.size(L))
        self.kw = dict(task="classification", C=10.0, sigma2=2.0)

    def _op(self):
        return la.fit("op-lssvm", self.X, self.y, conditioning=False, **self.kw)

    def _lssvm(self):
        return la.fit("lssvm-kkt", self.X, self.y, **self.kw)

    def track_op_over_lssvm_time(self, L):
        """min over 3 interleaved runs of op-lssvm's time / lssvm-kkt's time, one process."""
        t_op, t_ls = common.interleaved_min([self._op, self._lssvm], repeats=3)
        return common.round_sig(t_op / t_ls, 2)

    track_op_over_lssvm_time.unit = "ratio"
