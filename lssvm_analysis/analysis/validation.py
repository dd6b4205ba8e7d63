"""Leave-one-out residuals in closed form and k-fold cross-validation of any registered solver.

* :func:`loo_residuals` - the exact LOO residuals of a dense LS-SVM / KRR fit
  from the diagonal of the inverse of its system (Cawley & Talbot 2004):
  one O(N^3) inverse instead of N refits.
* :func:`cross_validate` - fold scores of a registered solver as a pandas
  frame, on k folds, explicit (train, test) pairs or a scikit-learn
  splitter; the package's one CV implementation (the report's sweeps call it).
* :func:`leave_one_out` - LS-SVMlab's ``leaveoneout``: the LOO score of any
  solver, in closed form where :func:`loo_residuals` applies.

References
----------
G.C. Cawley, N.L.C. Talbot, Fast exact leave-one-out cross-validation of
sparse least-squares support vector machines, Neural Networks 17 (2004)
1467-1475.
"""
from __future__ import annotations

import numbers
from typing import Any, Callable, Sequence
import time

import numpy as np
from numpy.typing import ArrayLike
import pandas as pd

from ..core.validation import as_matrix, as_rng, as_vector, check_bool, check_int, short_repr
from ..arith.precision import get_precision
from ..solvers import fit as _fit
from ..solvers import get_solver
from ..solvers.kkt import add_ridge, bordered_matrix
from ..solvers.suykens import fisher_system, kkt_system, krr_system
from ..arith.base import Precision
from ..solvers.result import Fit


__all__ = ["loo_residuals", "cross_validate", "cv_score", "cv_score_split", "split_folds", "SplitFolds",
           "check_folds", "leave_one_out", "skipna_mean",
           "has_closed_form_loo", "SCORINGS", "GREATER_IS_BETTER", "resolve_scoring"]

_WITH_BIAS = (kkt_system, fisher_system)
_NO_BIAS = (krr_system,)


def loo_residuals(fit: Fit, *, native: bool = False) -> np.ndarray:
    """Closed-form leave-one-out residuals r_i = y_i - f^{(-i)}(x_i) of a dense LS-SVM / KRR fit.

    Parameters
    ----------
    fit : Fit
        A successful fit of a dense solver whose system is the LS-SVM KKT
        system with bias (lssvm-kkt, lssvm-schur, lssvm-cg, lssvm-fisher) or
        the zero-bias system (krr), on all N training points.
    native : bool
        Return the residuals in the fit's precision instead of float64.

    Returns
    -------
    r : (N,) array
        ``r_i = coef_i / [A^{-1}]_{ii}`` with A the regression-form KKT
        matrix [[0, 1^T], [1, K + I/C]] (its alpha block; for krr, A = K + I/C).
        For a classifier the targets are the labels: r_i = y_i - f^{(-i)}(x_i),
        and x_i is misclassified by the LOO model iff y_i (y_i - r_i) <= 0.

    Raises
    ------
    ValueError
        A fit that failed, or of a solver without a dense LS-SVM / KRR system
        (sparse or pruned fits: their LOO needs the sparse formula).

    Notes
    -----
    The classification system (Suykens 3.5) is Y A Y z = [0; 1] with
    Y = diag(1, y) and A the regression-form matrix, so coef = alpha * y
    solves A [b; coef] = [0; y] and (Y A Y)^{-1} has the diagonal of A^{-1}
    (y_i^2 = 1): one formula serves both tasks.  Removing point i from the
    system equals adding a constraint that zeroes alpha_i; block elimination
    gives y_i - f^{(-i)}(x_i) = alpha_i / [A^{-1}]_{ii} (Cawley & Talbot eq. 10).
    Cost: the inverse by LU, (N+1)^3 / 3 + (N+1)^3 flops, in the fit's
    precision.  The error of r_i is that of alpha_i and of [A^{-1}]_{ii},
    each ~ kappa(A) u relative.
    """
    native = check_bool("native", native)
    if not isinstance(fit, Fit):
        raise TypeError(f"expected a Fit (la.fit(...)), got fit={short_repr(fit)}")
    if not getattr(fit, "ok", False):
        raise ValueError(f"expected a successful fit, got status={getattr(fit, 'status', None)!r}")
    system = get_solver(fit.solver).system
    if system not in _WITH_BIAS + _NO_BIAS:
        raise ValueError(f"expected a fit of a dense LS-SVM or KRR solver, got fit.solver={fit.solver!r}")
    p = get_precision(fit.precision)
    with p.context():
        K = add_ridge(fit.kernel(fit.X_support_, precision=p), fit.params["C"], p)
        n = K.shape[0]
        if system in _WITH_BIAS:
            ones = p.asarray(np.ones(n))
            A, _ = bordered_matrix(K, ones, ones, p)
            diag = np.diagonal(p.solve(A, p.eye(n + 1)))[1:]
        else:
            diag = np.diagonal(p.solve(K, p.eye(n)))
        r = p.asarray(fit.coef_) / diag
    return r if native else p.to_float64(r)


def _mse(y, f):
    return float(np.mean((f - y) ** 2))


def _mae(y, f):
    return float(np.mean(np.abs(f - y)))


def _accuracy(y, f):
    return float(np.mean(np.where(f >= 0, 1.0, -1.0) == y))


def _error_rate(y, f):
    return 1.0 - _accuracy(y, f)


#: Named scorings: ``scoring(y_true, decision_values) -> float``.
SCORINGS = {"mse": _mse, "mae": _mae, "accuracy": _accuracy, "error-rate": _error_rate}
#: Direction of each named scoring: True for a score (higher is better), False for a cost.
GREATER_IS_BETTER = {"mse": False, "mae": False, "accuracy": True, "error-rate": False}


def resolve_scoring(scoring, task):
    """``(scoring function, name)`` of a named scoring or a callable; default by task.

    Raises
    ------
    ValueError
        An unknown name (named).
    """
    if scoring is None:
        scoring = "accuracy" if task == "classification" else "mse"
    if callable(scoring):
        return scoring, getattr(scoring, "__name__", "custom")
    if scoring not in SCORINGS:
        raise ValueError(f"expected scoring in {tuple(SCORINGS)} or a callable, got scoring={scoring!r}")
    return SCORINGS[scoring], scoring


def has_closed_form_loo(solver) -> bool:
    """Whether :func:`loo_residuals` serves ``solver`` (its registry system is a dense LS-SVM / KRR one)."""
    return get_solver(solver).system in _WITH_BIAS + _NO_BIAS


def leave_one_out(solver: str, X: ArrayLike, y: ArrayLike, *, scoring: str | Callable | None = None,
                  precision: str | Precision = "float64", **params: Any) -> float:
    """Leave-one-out score of a registered solver (LS-SVMlab's ``leaveoneout``).

    Parameters
    ----------
    solver : str
    X : (N, n) array_like, y : (N,) array_like
    scoring : as :func:`cross_validate`
        Computed once over the N held-out predictions (for "mse" the mean of
        the N squared LOO residuals, PRESS / N).
    precision : str
    **params
        Passed to the solver.

    Returns
    -------
    float
        NaN when the fit (closed form) or any of the N refits failed.

    Notes
    -----
    Dense LS-SVM / KRR solvers (:func:`has_closed_form_loo`): one fit and
    the exact residuals of :func:`loo_residuals` (Cawley & Talbot 2004),
    O(N^3) once.  Any other solver: N refits on N - 1 points, O(N^4) for a
    dense one.  The two agree to the rounding of the inverse, ~kappa(A) u
    relative (tests/test_tuning.py).
    """
    X = as_matrix(X, "X", allow_object=False)
    y = as_vector(y, "y", allow_object=False)
    task = params.get("task", get_solver(solver).tasks[0])
    score_fn, _ = resolve_scoring(scoring, task)
    if has_closed_form_loo(solver):
        f = _fit(solver, X, y, precision=precision, **params)
        if not f.ok:
            return float("nan")
        return float(score_fn(y, y - loo_residuals(f)))
    held_out = np.empty(len(y))
    for train, test in check_folds(len(y), X, y):
        f = _fit(solver, X[train], y[train], precision=precision, **params)
        if not f.ok:
            return float("nan")
        held_out[test] = f.predict(X[test])
    return float(score_fn(y, held_out))


def _seeded_parts(n, folds, seed):
    """Deterministic contiguous folds (seed None) or folds of a seeded permutation."""
    if seed is None:
        order = np.arange(n)
    else:
        order = as_rng("seed", seed).permutation(n)
    return np.array_split(order, folds)


def _index_array(a, n, what):
    """One side of an explicit fold as a 1-D intp array of indices in [0, n), or a typed error."""
    arr = np.asarray(a)
    if arr.ndim != 1 or not (arr.dtype.kind in "iu" or (arr.dtype.kind == "b" and len(arr) == n)):
        raise TypeError(f"expected {what} as a 1-D array of integer indices (or a boolean mask of "
                        f"length N={n}), got an array of dtype {arr.dtype} and shape {arr.shape}")
    if arr.dtype.kind == "b":
        arr = np.flatnonzero(arr)
    if arr.size == 0:
        raise ValueError(f"expected a non-empty {what}, got an empty one")
    if arr.min() < 0 or arr.max() >= n:
        raise ValueError(f"expected {what} indices in [0, {n}), got indices from {arr.min()} to {arr.max()}")
    return arr.astype(np.intp, copy=False)


def check_folds(folds, X, y, *, seed=None) -> list:
    """The (train, test) index pairs that ``folds`` describes, validated.

    Parameters
    ----------
    folds : int, iterable of (train, test) pairs, or an object with ``split``
        An int k (2 <= k <= N): k folds, contiguous (``seed`` None) or of
        ``default_rng(seed).permutation(N)``, split by ``numpy.array_split``;
        explicit pairs of index arrays (or boolean masks of length N); or any
        scikit-learn splitter (``KFold``, ``StratifiedKFold``, ``GroupKFold``
        needs its groups: pass ``list(splitter.split(X, y, groups))``).
    X, y : arrays
        Passed to ``folds.split(X, y)``; ``len(y)`` is N.
    seed : int or numpy.random.Generator, optional
        Only with an int ``folds``.

    Returns
    -------
    list of (train, test) pairs of intp arrays.

    Raises
    ------
    TypeError
        ``folds`` of another type, a pair that is not two index arrays, a
        ``seed`` with explicit folds; the message names ``folds`` (or ``seed``).
    ValueError
        An int out of [2, N], no pairs, an empty side, an index out of
        [0, N), a point both in train and test; named.
    """
    n = len(y)
    if isinstance(folds, numbers.Integral) and not isinstance(folds, bool):
        k = check_int("folds", folds, minimum=2)
        if k > n:
            raise ValueError(f"expected folds <= N={n}, got folds={k}")
        parts = _seeded_parts(n, k, seed)
        return [(np.concatenate([parts[j] for j in range(k) if j != i]), test)
                for i, test in enumerate(parts)]
    if seed is not None:
        raise TypeError(f"expected seed=None with explicit folds or a splitter (their order is "
                        f"theirs), got seed={seed!r}")
    if isinstance(folds, (str, bytes, bool, numbers.Number)) or not (
            hasattr(folds, "__iter__") or callable(getattr(folds, "split", None))):
        raise TypeError(f"expected an int, (train, test) index pairs or a splitter with .split "
                        f"for folds, got folds={folds!r}")
    pairs = list(folds.split(X, y)) if callable(getattr(folds, "split", None)) else list(folds)
    if not pairs:
        raise ValueError("expected at least one (train, test) pair in folds, got none")
    out = []
    for i, pair in enumerate(pairs):
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise TypeError(f"expected folds[{i}] as a (train, test) pair, got {pair!r:.80}")
        train = _index_array(pair[0], n, f"folds[{i}] train")
        test = _index_array(pair[1], n, f"folds[{i}] test")
        both = np.intersect1d(train, test)
        if both.size:
            raise ValueError(f"expected disjoint train and test in folds[{i}], got {both.size} "
                             f"point(s) in both (first index {both[0]})")
        out.append((train, test))
    return out


def cross_validate(solver: str, X: ArrayLike, y: ArrayLike, *, folds: int | Sequence = 10,
                   scoring: str | Callable | None = None, precision: str | Precision = "float64",
                   seed: int | np.random.Generator | None = None, **params: Any) -> pd.DataFrame:
    """Cross-validation of a registered solver: one row per fold.

    Parameters
    ----------
    solver : str
        Registry name.
    X : (N, n) array_like, y : (N,) array_like
    folds : int, iterable of (train, test) index pairs, or a splitter
        An int k, 2 <= k <= N (k-fold, see ``seed``); explicit folds, e.g.
        ``[(train0, test0), (train1, test1)]``; or any object with
        ``split(X, y)`` yielding such pairs (scikit-learn's ``KFold``,
        ``StratifiedKFold``, ``ShuffleSplit``, ...).  See :func:`check_folds`.
    scoring : {"mse", "mae", "accuracy", "error-rate"} or callable, optional
        ``scoring(y_true, decision_values) -> float`` on the held-out fold.
        Default "accuracy" for ``task="classification"``, else "mse".
    precision : str
    seed : int or numpy.random.Generator, optional
        Only with an int ``folds``: None gives contiguous folds in the given
        order (deterministic, like scikit-learn's ``KFold(shuffle=False)``);
        else the folds of ``default_rng(seed).permutation(N)`` split by
        ``numpy.array_split``.
    **params
        Passed to the solver (C, sigma2, task, variants, ...).

    Returns
    -------
    pandas.DataFrame
        Columns ``fold``, ``n_train``, ``n_test``, ``score`` (NaN when the
        fit failed), ``scoring``, ``status``, ``n_support``, ``time`` (sum of
        the fit's phase timings, s), ``wall`` (wall-clock of the fit, s).

    Raises
    ------
    ValueError, TypeError
        Bad folds, scoring or seed (named); the solver's own errors.

    Examples
    --------
    >>> import numpy as np, lssvm_analysis as la
    >>> from sklearn.model_selection import KFold
    >>> X = np.linspace(-3, 3, 40)[:, None]; y = np.sinc(X[:, 0])
    >>> la.cross_validate("lssvm-schur", X, y, folds=5, C=10.0, sigma2=0.5).shape[0]
    5
    >>> splitter = KFold(4, shuffle=True, random_state=0)
    >>> la.cross_validate("lssvm-schur", X, y, folds=splitter, C=10.0, sigma2=0.5).shape[0]
    4
    >>> pairs = [(np.arange(20, 40), np.arange(20)), (np.arange(20), np.arange(20, 40))]
    >>> la.cross_validate("krr", X, y, folds=pairs, C=10.0, sigma2=0.5).n_test.tolist()
    [20, 20]
    """
    return pd.DataFrame(_fold_rows(solver, split_folds(X, y, folds, seed=seed), scoring, precision, params))


class SplitFolds:
    """The training and test arrays of every fold, sliced once: :func:`split_folds`.

    A grid search scores every point on the same folds; with the folds split
    once, each point fits the very arrays (bit for bit the slices
    ``X[train]``, ``y[train]``, ``X[test]``, ``y[test]`` that
    :func:`cross_validate` takes) without validating and gathering them again.

    Attributes
    ----------
    parts : tuple of (X_train, y_train, X_test, y_test)
        Read-only arrays, in fold order.
    """

    __slots__ = ("parts",)

    def __init__(self, parts):
        self.parts = tuple(parts)

    def __len__(self) -> int:
        return len(self.parts)


def split_folds(X, y, folds=10, *, seed=None) -> SplitFolds:
    """Validate ``X``, ``y`` and ``folds`` (as :func:`cross_validate`) and slice every fold once.

    Returns
    -------
    SplitFolds
        For :func:`cv_score_split`.

    Raises
    ------
    ValueError, TypeError
        As :func:`cross_validate` (X and y of different lengths, bad folds or seed).
    """
    X = as_matrix(X, "X", allow_object=False)
    y = as_vector(y, "y", allow_object=False)
    if X.shape[0] != len(y):
        raise ValueError(f"expected X and y with the same number of samples, got X.shape={X.shape}, "
                         f"y.shape={y.shape}")
    parts = []
    for train, test in check_folds(folds, X, y, seed=seed):
        arrays = (X[train], y[train], X[test], y[test])
        for a in arrays:
            a.setflags(write=False)
        parts.append(arrays)
    return SplitFolds(parts)


def _fold_rows(solver, split, scoring, precision, params, *, stop_at_failure=False) -> list[dict]:
    """The rows of :func:`cross_validate` (folds already split, one fit per fold); with
    ``stop_at_failure``, none after the first fold whose fit is not "ok"."""
    task = params.get("task", get_solver(solver).tasks[0])
    score_fn, score_name = resolve_scoring(scoring, task)
    rows = []
    for i, (X_train, y_train, X_test, y_test) in enumerate(split.parts):
        t0 = time.perf_counter()
        f = _fit(solver, X_train, y_train, precision=precision, **params)
        wall = time.perf_counter() - t0
        score = score_fn(y_test, f.predict(X_test)) if f.ok else float("nan")
        rows.append({"fold": i, "n_train": len(y_train), "n_test": len(y_test), "score": score,
                     "scoring": score_name, "status": f.status,
                     "n_support": f.n_support if f.ok else -1,
                     "time": float(sum(f.timings.values())), "wall": wall})
        if stop_at_failure and not f.ok:
            break
    return rows


def cv_score(solver, X, y, *, folds=10, scoring=None, precision="float64", seed=None, **params) -> float:
    """The mean fold score of :func:`cross_validate`, NaN when a fold's fit failed.

    What a grid search needs of a CV, without the frame: the same fits, the
    same folds, and the mean as ``cross_validate(...).score.mean()`` gives it
    (pandas' mean: NaN scores skipped, the others summed in fold order by
    NumPy and divided by their count), so a tuned point is the same bit for
    bit.  Parameters and errors as :func:`cross_validate`.
    """
    return cv_score_split(solver, split_folds(X, y, folds, seed=seed), scoring=scoring,
                          precision=precision, **params)


def cv_score_split(solver, split: SplitFolds, *, scoring=None, precision="float64", **params) -> float:
    """:func:`cv_score` on folds split once by :func:`split_folds` (a grid's every point)."""
    if not isinstance(split, SplitFolds):
        raise TypeError(f"expected split as the SplitFolds of split_folds, got split={split!r:.80}")
    # a fold that failed makes the mean NaN whatever the others give: they are not fitted
    rows = _fold_rows(solver, split, scoring, precision, params, stop_at_failure=True)
    if any(r["status"] != "ok" for r in rows):
        return float("nan")
    return skipna_mean(np.array([r["score"] for r in rows], dtype=np.float64))


def skipna_mean(values: np.ndarray) -> float:
    """pandas' ``Series.mean()`` of a float64 array (pandas.core.nanops.nanmean, no bottleneck)."""
    nan = np.isnan(values)
    count = np.float64(values.size - int(nan.sum()))
    total = (np.where(nan, 0.0, values) if nan.any() else values).sum(dtype=np.float64)
    return float(total / count) if count > 0 else float("nan")
