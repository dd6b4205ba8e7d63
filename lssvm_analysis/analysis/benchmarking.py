"""The benchmarking protocol of Suykens ch. 3 §3.4.2 (Van Gestel et al. 2004) as pure pieces.

* :func:`refine_axis`, :func:`grid_search` - the shrinking grid search of
  §3.4.2 steps (2)-(4): evaluate a grid, then ``i_max`` times a locally
  refined grid around the best point.
* :func:`average_accuracy`, :func:`average_rank`, :func:`sign_test`,
  :func:`sign_test_vs_best` - the AA, AR and P_ST columns of Tables 3.3-3.5.
* :func:`mcnemar_drop_pvalue`, :class:`CVSignificanceIndex` - the stop rule of
  Table 3.5, "pruning is stopped when the cross-validation accuracy decreases
  significantly", as a performance index for ``lssvm-pruned``.

References
----------
T. Van Gestel, J.A.K. Suykens, B. Baesens, S. Viaene, J. Vanthienen,
G. Dedene, B. De Moor, J. Vandewalle, Benchmarking least squares support
vector machine classifiers, Machine Learning 54 (2004) 5-32.
Q. McNemar, Note on the sampling error of the difference between correlated
proportions or percentages, Psychometrika 12 (1947) 153-157.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd
from scipy.stats import binom

from ..core.validation import as_rng
from ..solvers import fit as _fit

__all__ = ["refine_axis", "grid_search", "average_accuracy", "average_rank", "sign_test",
           "sign_test_vs_best", "mcnemar_drop_pvalue", "cv_correct", "CVSignificanceIndex"]


# --------------------------------------------------------------------------- grid search
def refine_axis(best: float, half_width: float, *, bounds: tuple, points: int = 3) -> np.ndarray:
    """The refined grid of one positive hyper-parameter around ``best`` (log-spaced).

    Parameters
    ----------
    best : float > 0
        The best value so far (the centre).
    half_width : float > 0
        Half-width of the new grid in log10 units.
    bounds : (lo, hi), 0 < lo <= hi
        The range of the initial grid; values are clipped into it.
    points : int >= 2
        Grid points before clipping (odd values include ``best`` itself).

    Returns
    -------
    ndarray
        Sorted distinct values ``10 ** clip(log10 best + linspace(-h, h, points))``.

    Notes
    -----
    §3.4.2 step (4) says only "construct a locally refined grid around the
    optimal hyperparameters".  Our reading: ``points`` log-spaced values
    spanning +-h around the best, with h halved at every refinement (see
    :func:`grid_search`), so the grid converges geometrically and never
    leaves the initial range.
    """
    lo, hi = (math.log10(float(b)) for b in bounds)
    if not (best > 0 and half_width > 0 and lo <= hi and points >= 2):
        raise ValueError(f"expected best > 0, half_width > 0, 0 < lo <= hi, points >= 2, got "
                         f"best={best!r}, half_width={half_width!r}, bounds={bounds!r}, points={points!r}")
    v = np.clip(math.log10(best) + np.linspace(-half_width, half_width, points), lo, hi)
    return np.unique(10.0 ** v)


def _initial_half_width(values: np.ndarray, best: float) -> float:
    """Half of the larger log10 gap to the neighbours of ``best`` in the initial grid."""
    lv = np.log10(np.sort(values))
    if len(lv) < 2:
        return 0.5
    i = int(np.argmin(np.abs(lv - math.log10(best))))
    gaps = [lv[i] - lv[i - 1] if i > 0 else 0.0, lv[i + 1] - lv[i] if i + 1 < len(lv) else 0.0]
    return max(gaps) / 2.0


def grid_search(objective: Callable[[dict], float], axes: Mapping[str, list], *, refinements: int = 3,
                points: int = 3) -> tuple[dict, float, list]:
    """Shrinking grid search (§3.4.2 steps 2-4): maximise ``objective`` over positive parameters.

    Parameters
    ----------
    objective : callable
        ``objective(params) -> score`` (higher is better; NaN counts as -inf).
    axes : mapping name -> list of float > 0
        The initial grids (e.g. Sigma_0 and Gamma_0).
    refinements : int >= 0
        i_max: how many refined grids follow the initial one (chapter: 3).
    points : int >= 2
        Points per axis of each refined grid.

    Returns
    -------
    best : dict
        The best parameters (first best in evaluation order on ties).
    score : float
    history : list of (params, score, stage)
        Every evaluated point once (a point met again is not re-evaluated).

    Notes
    -----
    Refinement i uses half-width h_i = h_1 / 2^(i-1) (log10 units) per axis,
    h_1 = half the larger gap between the initial best and its grid
    neighbours.  For an objective whose maximiser x* lies in the initial range
    and which is unimodal along each axis, |log10 best_i - log10 x*| <= h_i / 2
    after refinement i (the refined grid brackets x*), so the search converges
    geometrically.  Cost: prod(len(axes)) + refinements * points^d evaluations
    at most.
    """
    names = list(axes)
    grids = {k: np.sort(np.asarray(axes[k], dtype=float)) for k in names}
    bounds = {k: (g[0], g[-1]) for k, g in grids.items()}
    seen: dict[tuple, float] = {}
    history: list = []
    best, best_score = None, -math.inf

    def evaluate(grid, stage):
        nonlocal best, best_score
        for combo in np.array(np.meshgrid(*[grid[k] for k in names], indexing="ij")).reshape(len(names), -1).T:
            key = tuple(float(c) for c in combo)
            if key in seen:
                continue
            params = dict(zip(names, key))
            s = float(objective(params))
            s = -math.inf if math.isnan(s) else s
            seen[key] = s
            history.append((params, s, stage))
            if s > best_score or best is None:
                best, best_score = params, s

    evaluate(grids, 0)
    half = {k: _initial_half_width(grids[k], best[k]) for k in names}
    for i in range(1, refinements + 1):
        evaluate({k: refine_axis(best[k], half[k], bounds=bounds[k], points=points) if half[k] > 0
                  else np.array([best[k]]) for k in names}, i)
        half = {k: h / 2.0 for k, h in half.items()}
    return best, best_score, history


# --------------------------------------------------------------------------- AA, AR, P_ST
def average_accuracy(table: pd.DataFrame) -> pd.Series:
    """AA: the mean over domains (columns) of each method's (row's) mean test accuracy."""
    return table.mean(axis=1)


def average_rank(table: pd.DataFrame) -> pd.Series:
    """AR: per domain, rank the methods by accuracy (1 = best, ties share the mean rank); average.

    Parameters
    ----------
    table : DataFrame, methods x domains
        Mean test accuracies (as printed, i.e. rounded to 0.1 in the chapter).
    """
    return table.rank(axis=0, ascending=False, method="average").mean(axis=1)


def sign_test(a, b) -> float:
    """Two-sided exact sign test of equal medians of paired a, b; ties dropped.

    Returns
    -------
    float
        ``min(1, 2 P(Bin(n, 1/2) <= min(wins, losses)))``, n = wins + losses
        (1.0 when n = 0).  The chapter's P_ST: e.g. 5 wins, 3 losses and 2
        ties give 2 * 93/256 = 0.727.
    """
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    d = d[np.isfinite(d)]
    wins, losses = int(np.sum(d > 0)), int(np.sum(d < 0))
    n = wins + losses
    if n == 0:
        return 1.0
    return float(min(1.0, 2.0 * binom.cdf(min(wins, losses), n, 0.5)))


def sign_test_vs_best(table: pd.DataFrame) -> pd.Series:
    """P_ST of every method (row) against the one with the highest AA, over the domains."""
    best = average_accuracy(table).idxmax()
    return pd.Series({m: sign_test(table.loc[m], table.loc[best]) for m in table.index})


# --------------------------------------------------------------------------- pruning stop rule
def mcnemar_drop_pvalue(reference_correct, new_correct) -> float:
    """One-sided exact McNemar test that the new classifier is *less* accurate than the reference.

    Parameters
    ----------
    reference_correct, new_correct : (N,) bool arrays
        Per-point correctness of the two classifiers on the same points.

    Returns
    -------
    float
        ``P(Bin(b + c, 1/2) >= b)`` with b = points the reference gets right
        and the new one wrong, c = the converse (a sign test on the
        discordant pairs); 1.0 when there are none.
    """
    r = np.asarray(reference_correct, dtype=bool)
    s = np.asarray(new_correct, dtype=bool)
    b, c = int(np.sum(r & ~s)), int(np.sum(~r & s))
    if b + c == 0:
        return 1.0
    return float(binom.sf(b - 1, b + c, 0.5))


def _fold_parts(n, folds, seed):
    order = np.arange(n) if seed is None else as_rng("seed", seed).permutation(n)
    return np.array_split(order, folds)


def cv_correct(solver, X, y, keep, *, folds=10, seed=0, **params) -> np.ndarray:
    """Per-point k-fold CV correctness of a classifier trained only on the points ``keep``.

    Fold j's model is fitted on ``keep`` minus fold j and predicts *every*
    point of fold j (pruned ones too), so a pruned set and the full set are
    scored on the same N points.  Folds as :func:`~lssvm_analysis.cross_validate`
    (``default_rng(seed).permutation(N)`` split by ``array_split``).

    Returns
    -------
    (N,) bool array (a fold whose fit fails counts as all wrong).
    """
    n = len(y)
    kept = np.zeros(n, dtype=bool)
    kept[np.asarray(keep, dtype=np.intp)] = True
    out = np.zeros(n, dtype=bool)
    for test in _fold_parts(n, folds, seed):
        train = np.setdiff1d(np.flatnonzero(kept), test, assume_unique=True)
        if len(np.unique(y[train])) < 2:
            continue
        f = _fit(solver, X[train], y[train], **params)
        if f.ok:
            out[test] = np.where(f.predict(X[test]) >= 0, 1.0, -1.0) == y[test]
    return out


class CVSignificanceIndex:
    """Table 3.5's stop rule as an ``lssvm-pruned`` index: -ln p of a CV accuracy drop.

    Call as ``index(fit, support)`` (``lssvm-pruned`` with ``index_support=True``):
    the pruned set ``support``'s per-point CV correctness (:func:`cv_correct`)
    is compared with the full set's by :func:`mcnemar_drop_pvalue`; the index
    is ``-ln p``.  With ``reference="initial"`` and ``atol = -ln alpha``
    (:meth:`atol`), ``lssvm-pruned`` keeps pruning while p >= alpha, i.e.
    while the CV accuracy does not drop significantly at level alpha.  The
    unpruned model scores -ln 1 = 0.  Results are memoised per kept set, so
    a second path at another alpha re-uses the CV fits.

    Parameters
    ----------
    X : (N, n) array, y : (N,) array of +-1
        The pruning run's training data (the indices refer to it).
    solver : str
        The base solver refitted in the folds.
    folds, seed
        As :func:`cv_correct`.
    **params
        The base solver's hyper-parameters (C, kernel, sigma2, task, ...).
    """

    def __init__(self, X, y, *, solver="lssvm-schur", folds=10, seed=0, **params):
        self.X, self.y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
        self.solver, self.folds, self.seed, self.params = solver, folds, seed, params
        self._memo: dict[bytes, float] = {}
        self.reference = cv_correct(solver, self.X, self.y, np.arange(len(self.y)), folds=folds,
                                    seed=seed, **params)

    @staticmethod
    def atol(alpha: float) -> float:
        """The ``atol`` of ``lssvm-pruned`` that stops at significance level ``alpha``."""
        if not 0 < alpha < 1:
            raise ValueError(f"expected alpha in (0, 1), got alpha={alpha!r}")
        return -math.log(alpha)

    def pvalue(self, support) -> float:
        """p of the one-sided McNemar test of the kept set ``support`` against the full set."""
        key = np.sort(np.asarray(support, dtype=np.int64)).tobytes()
        if key not in self._memo:
            now = cv_correct(self.solver, self.X, self.y, support, folds=self.folds, seed=self.seed,
                             **self.params)
            self._memo[key] = mcnemar_drop_pvalue(self.reference, now)
        return self._memo[key]

    def __call__(self, fit, support) -> float:
        return -math.log(max(self.pvalue(support), 1e-300))
