"""The Suykens tables' LIBSVM C-SVC search against a floor of bare LIBSVM calls on the same points.

The search (``kinds_tables.tune`` with a share): the chapter's grid (Sigma_0 x Gamma_0 for the
RBF kernel, Gamma_0 for the linear one) and 3 refinements, 10-fold CV, one precomputed kernel
per sigma sliced per fold (``solvers.baselines.SVCFoldCV``).  The floor: for every point the
search evaluated and every fold, one ``SVC(kernel="precomputed")`` fit on the fold's block of one
bare kernel per sigma and its decision values on the held-out block (no validation, no Fit, no
early end of a point).  ``track_search_over_floor`` is their ratio in one process: above 1 is the
search's own overhead; below 1 the folds it did not fit after a capped one.  ``time_per_fold``
is la.tune's per-fold path (LIBSVM forms the kernel at every fit), the reference the search replaces.
"""
from __future__ import annotations

import warnings

import numpy as np

from . import common
from .bench_floors import bare_rbf

__all__ = ["SVMTuneFloor"]

#: LIBSVM's iteration cap here (the full profile's is 1e6; the linear SVM's largest C reach either).
MAX_ITER = 100000


def libsvm_floor(X, y, pairs, points, kernel, max_iter=MAX_ITER):
    """SVC(kernel="precomputed") per (point, fold) on one bare kernel per sigma2 (module docstring).

    scikit-learn's parameter and finiteness checks are off (as the package's LIBSVM calls run) and the
    held-out values are one product with the support columns, so what is left is LIBSVM's own work.
    """
    import sklearn
    from sklearn.svm import SVC
    last, blocks = object(), None
    with warnings.catch_warnings(), sklearn.config_context(skip_parameter_validation=True, assume_finite=True):
        warnings.simplefilter("ignore")
        for s2, C in points:
            if s2 != last:
                K = X @ X.T if kernel == "linear" else bare_rbf(X, s2)
                blocks = [(K[np.ix_(tr, tr)], K[np.ix_(te, tr)]) for tr, te in pairs]
                last = s2
            for (tr, _), (Ktr, Kte) in zip(pairs, blocks):
                m = SVC(C=C, kernel="precomputed", max_iter=max_iter, cache_size=200).fit(Ktr, y[tr])
                Kte[:, m.support_] @ m.dual_coef_[0] + m.intercept_[0]


class SVMTuneFloor(common.OneShot):
    """The tables' C-SVC search (RBF, linear) on the chapter's grid, N = 460, 10 folds."""

    params = [[460], ["rbf", "linear"]]
    param_names = ["M", "kernel"]
    timeout = 1200
    repeat = (1, 3, 60.0)

    def setup(self, M, kernel):
        from lssvm_analysis.analysis.cv_closed import CVShare
        from lssvm_analysis.analysis.validation import check_folds
        from lssvm_analysis.papers.suykens import kinds_tables as kt
        self.kt, self.CVShare, self.kernel = kt, CVShare, kernel
        self.X, self.y = common.classification_data(common.size(M), d=6)
        self.o = {"folds": 10, "refinements": 3, "points": 3, "svm_max_iter": MAX_ITER}
        self.pairs = check_folds(10, self.X, self.y, seed=0)
        self.points = self._points(kernel)

    def _points(self, kernel):
        """The (sigma2, C) the search evaluates: the tables' grid search, recording each point."""
        from lssvm_analysis.analysis.benchmarking import grid_search
        from lssvm_analysis.solvers.baselines import SVCFoldCV
        cv = SVCFoldCV(self.X, self.y, self.pairs, kernel=kernel, max_iter=MAX_ITER)
        seen = []

        def objective(p):
            seen.append((p.get("sigma2"), p["C"]))
            f = cv.held_out(**p)
            return float("nan") if f is None else float(np.mean([np.mean(np.sign(v) == self.y[te])
                                                                 for (_, te), v in zip(self.pairs, f)]))

        grid_search(objective, self.kt._axes(kernel, self.X.shape[1], self.o), refinements=3, points=3)
        return seen

    def _search(self):
        return self.kt.tune("svm-c", self.kernel, self.X, self.y, self.o, seed=0,
                            share=self.CVShare(self.X).view())

    def _floor(self):
        libsvm_floor(self.X, self.y, self.pairs, self.points, self.kernel)

    def _per_fold(self):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self.kt.tune("svm-c", self.kernel, self.X, self.y, self.o, seed=0, share=None)

    def time_search(self, M, kernel):
        self._search()

    def time_floor(self, M, kernel):
        self._floor()

    def time_per_fold(self, M, kernel):
        self._per_fold()

    def track_search_over_floor(self, M, kernel):
        """min of 3 interleaved runs each, one process."""
        t_search, t_floor = common.interleaved_min([self._search, self._floor], repeats=3)
        return common.round_sig(t_search / t_floor, 2)

    track_search_over_floor.unit = "ratio"
