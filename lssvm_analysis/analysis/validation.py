"""Leave-one-out residuals in closed form and k-fold cross-validation of any registered solver.

* :func:`loo_residuals` - the exact LOO residuals of a dense LS-SVM / KRR fit
  from the diagonal of the inverse of its system (Cawley & Talbot 2004):
  one O(N^3) inverse instead of N refits.
* :func:`cross_validate` - fold scores of a registered solver as a pandas
  frame; the package's one CV implementation (the report's sweeps call it).

References
----------
G.C. Cawley, N.L.C. Talbot, Fast exact leave-one-out cross-validation of
sparse least-squares support vector machines, Neural Networks 17 (2004)
1467-1475.
"""
from __future__ import annotations

import numbers
import time

import numpy as np
import pandas as pd

from ..core._validation import as_matrix, as_vector, check_int
from ..core.precision import get_precision
from ..solvers import fit as _fit
from ..solvers import get_solver
from ..solvers.suykens import fisher_system, kkt_system, krr_system

__all__ = ["loo_residuals", "cross_validate", "SCORINGS"]

_WITH_BIAS = (kkt_system, fisher_system)
_NO_BIAS = (krr_system,)


def loo_residuals(fit, *, native: bool = False):
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
    if not getattr(fit, "ok", False):
        raise ValueError(f"expected a successful fit, got status={getattr(fit, 'status', None)!r}")
    system = get_solver(fit.solver).system
    if system not in _WITH_BIAS + _NO_BIAS:
        raise ValueError(f"expected a fit of a dense LS-SVM or KRR solver, got fit.solver={fit.solver!r}")
    p = get_precision(fit.precision)
    with p.context():
        K = fit.kernel(fit.X_support_, precision=p)
        n = K.shape[0]
        idx = np.arange(n)
        K[idx, idx] = K[idx, idx] + p.reciprocal(fit.params["C"])
        if system in _WITH_BIAS:
            A = p.zeros((n + 1, n + 1))
            A[1:, 1:] = K
            A[0, 1:] = p.asarray(np.ones(n))
            A[1:, 0] = p.asarray(np.ones(n))
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


def _scorer(scoring, task):
    if scoring is None:
        scoring = "accuracy" if task == "classification" else "mse"
    if callable(scoring):
        return scoring, getattr(scoring, "__name__", "custom")
    if scoring not in SCORINGS:
        raise ValueError(f"expected scoring in {tuple(SCORINGS)} or a callable, got scoring={scoring!r}")
    return SCORINGS[scoring], scoring


def _folds(n, folds, seed):
    """Deterministic contiguous folds (seed None) or folds of a seeded permutation."""
    if seed is None:
        order = np.arange(n)
    else:
        if isinstance(seed, bool) or not isinstance(seed, (numbers.Integral, np.random.Generator)):
            raise TypeError(f"expected an int or numpy Generator for seed, got seed={seed!r}")
        order = np.random.default_rng(seed).permutation(n)
    return np.array_split(order, folds)


def cross_validate(solver, X, y, *, folds=10, scoring=None, precision="float64", seed=None,
                   **params) -> pd.DataFrame:
    """k-fold cross-validation of a registered solver: one row per fold.

    Parameters
    ----------
    solver : str
        Registry name.
    X : (N, n) array_like, y : (N,) array_like
    folds : int, 2 <= folds <= N
    scoring : {"mse", "mae", "accuracy", "error-rate"} or callable, optional
        ``scoring(y_true, decision_values) -> float`` on the held-out fold.
        Default "accuracy" for ``task="classification"``, else "mse".
    precision : str
    seed : int or numpy.random.Generator, optional
        None: contiguous folds in the given order (deterministic, like
        scikit-learn's ``KFold(shuffle=False)``); else the folds of
        ``default_rng(seed).permutation(N)`` split by ``numpy.array_split``.
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
    """
    X = as_matrix(X, "X", allow_object=False)
    y = as_vector(y, "y", allow_object=False)
    n = len(y)
    folds = check_int("folds", folds, minimum=2)
    if folds > n:
        raise ValueError(f"expected folds <= N={n}, got folds={folds}")
    task = params.get("task", get_solver(solver).tasks[0])
    score_fn, score_name = _scorer(scoring, task)
    parts = _folds(n, folds, seed)
    rows = []
    for i, test in enumerate(parts):
        train = np.concatenate([parts[j] for j in range(folds) if j != i])
        t0 = time.perf_counter()
        f = _fit(solver, X[train], y[train], precision=precision, **params)
        wall = time.perf_counter() - t0
        score = score_fn(y[test], f.predict(X[test])) if f.ok else float("nan")
        rows.append({"fold": i, "n_train": len(train), "n_test": len(test), "score": score,
                     "scoring": score_name, "status": f.status,
                     "n_support": f.n_support if f.ok else -1,
                     "time": float(sum(f.timings.values())), "wall": wall})
    return pd.DataFrame(rows)
