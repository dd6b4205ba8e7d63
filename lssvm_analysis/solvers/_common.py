"""Shared plumbing of the solver functions: validation and Fit assembly."""
from __future__ import annotations

import numpy as np

from ..core._validation import as_matrix, as_vector, check_finite, check_positive
from ..core.kernels import make_kernel
from ..core.precision import get_precision
from ..core.records import ReadOnlyDict
from .result import Fit

__all__ = ["validate_xy", "check_binary_labels", "make_fit", "breakdown_fit"]

TASKS = ("regression", "classification")


def validate_xy(X, y, *, task="regression", C=None, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                precision="float64"):
    """Validate the common inputs once, at the public boundary.

    Returns float64 copies-or-views of X and y that the solver must not write
    to, the Kernel, and the Precision.  The caller's arrays are never modified
    (solvers only read them).
    """
    if task not in TASKS:
        raise ValueError(f"expected task in {TASKS}, got task={task!r}")
    p = get_precision(precision)
    X = as_matrix(X, "X", allow_object=False)
    check_finite(X, "X")
    y = as_vector(y, "y", allow_object=False)
    check_finite(y.astype(float), "y")
    if X.shape[0] != y.shape[0]:
        raise ValueError(
            f"expected X and y with the same number of samples, got X.shape={X.shape}, y.shape={y.shape}")
    if C is not None:
        check_positive("C", C)
    if task == "classification":
        check_binary_labels(y)
    k = make_kernel(kernel, sigma2=sigma2, degree=degree, t=t)
    return np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64), k, p


def check_binary_labels(y) -> None:
    labels = np.unique(y)
    if len(labels) < 2:
        raise ValueError(f"expected two classes in y, got one class: {labels.tolist()}")
    if not set(labels.tolist()) <= {-1.0, 1.0}:
        raise ValueError(f"expected binary labels in {{-1, +1}} in y, got y labels {labels.tolist()[:10]}")


def make_fit(solver, p, *, coef, bias, support, X, kernel, timer, status="ok", breakdown=None,
             iterations=None, history=None, diagnostics=None, params=None) -> Fit:
    """Assemble the frozen Fit (support inputs copied, mappings made read-only)."""
    support = np.asarray(support, dtype=np.intp)
    return Fit(
        solver=solver, precision=p.name, coef_=coef, bias_=bias, support_=support,
        X_support_=np.array(X[support], dtype=np.float64), kernel=kernel, status=status,
        breakdown=breakdown, timings=timer.as_dict(), iterations=iterations,
        history=ReadOnlyDict(history or {}),
        diagnostics=ReadOnlyDict(diagnostics or {}),
        params=ReadOnlyDict(params or {}),
    )


def breakdown_fit(solver, p, err, *, X, kernel, timer, support=(), diagnostics=None, params=None) -> Fit:
    """The Fit of a run whose Cholesky broke down: status "breakdown", no model."""
    return make_fit(solver, p, coef=None, bias=None, support=support, X=X, kernel=kernel, timer=timer,
                    status="breakdown", breakdown=err.record, diagnostics=diagnostics, params=params)
