"""la.tune on the chapter's grid (Suykens §3.4.2) against a bare-SciPy Cholesky floor on the same grid.

The floor: for every evaluated (sigma2, C) point and every fold, ``dpotrf`` of
the fold's H = K_train + I/C and ``dpotrs`` with the two right-hand sides of
the Schur route, the fold kernels sliced from one bare kernel per sigma2 (the
cheapest per-fold direct search: no validation, no condition estimate, no
prediction).  ``track_tune_over_floor`` is the ratio measured in one process
(target <= 0.30, issue 43; the per-fold path was 1.3-1.5x).
"""
from __future__ import annotations

import numpy as np
from scipy.linalg import lapack

from . import common
from .bench_floors import bare_rbf

__all__ = ["TuneFloor"]


def _points(tune_result):
    return [(float(r.sigma2), float(r.C)) for r in tune_result.history.itertuples()]


def cholesky_floor(X, y, folds, points):
    """dpotrf + dpotrs (2 rhs) per (sigma2, C, fold), one bare kernel per sigma2 (module docstring)."""
    last, K = None, None
    for s2, C in points:
        if s2 != last:
            K, last = bare_rbf(X, s2), s2
        for train in folds:
            H = K[np.ix_(train, train)]
            H.flat[:: len(train) + 1] += 1.0 / C
            L, info = lapack.dpotrf(H.T, lower=1, overwrite_a=1, clean=0)
            rhs = np.stack([np.ones(len(train)), y[train]], axis=1)
            lapack.dpotrs(L, rhs, lower=1)


class TuneFloor(common.OneShot):
    """la.tune (lssvm-schur, classification, 10-fold, the chapter's grid and 3 refinements)."""

    params = [[460]]
    param_names = ["M"]
    timeout = 900
    repeat = (1, 3, 30.0)

    def setup(self, M):
        self.X, self.y = common.classification_data(common.size(M), d=6)
        self.kw = dict(folds=10, seed=0, task="classification")
        res = common.la.tune("lssvm-schur", self.X, self.y, **self.kw)
        self.points = _points(res)
        parts = np.array_split(np.random.default_rng(0).permutation(len(self.y)), 10)
        self.trains = [np.sort(np.concatenate([p for j, p in enumerate(parts) if j != i])) for i in range(10)]

    def _tune(self):
        return common.la.tune("lssvm-schur", self.X, self.y, **self.kw)

    def _floor(self):
        cholesky_floor(self.X, self.y, self.trains, self.points)

    def time_tune(self, M):
        self._tune()

    def time_floor(self, M):
        self._floor()

    def track_tune_over_floor(self, M):
        """min of 3 interleaved runs each, one process (target <= 0.30)."""
        t_tune, t_floor = common.interleaved_min([self._tune, self._floor], repeats=3)
        return common.round_sig(t_tune / t_floor, 2)

    track_tune_over_floor.unit = "ratio"
