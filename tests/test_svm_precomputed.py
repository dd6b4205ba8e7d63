"""LIBSVM's C-SVC cross-validated on one precomputed kernel (solvers.baselines.SVCFoldCV) is fit_svc's CV.

SVCFoldCV forms the whole set's kernel once per sigma2 and gives LIBSVM each fold's block
(SVC(kernel="precomputed")); fit_svc gives LIBSVM the rows and LIBSVM forms the kernel itself.
The same SMO on the same matrix up to the kernel's rounding: the same iterations, support
vectors, decision values to that rounding, and the same CV scores and selections.
"""
import warnings

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.analysis.validation import check_folds, cv_score_split, split_folds
from lssvm_analysis.solvers.baselines import SVCFoldCV
from conftest import U64


def _problem(seed, n=80, d=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    return X, np.where(X[:, 0] + 0.6 * rng.standard_normal(n) > 0, 1.0, -1.0)


def _direct(X, y, pairs, C, max_iter, **kw):
    """fit_svc on every fold (LIBSVM forms the kernel): (decision values, statuses, iterations)."""
    out, status, iters = [], [], []
    for tr, te in pairs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f = la.fit("svm-c", X[tr], y[tr], C=C, max_iter=max_iter, **kw)
        out.append(f.predict(X[te]) if f.ok else None)
        status.append(f.status)
        iters.append(f.iterations)
    return out, status, iters


@pytest.mark.parametrize("kernel,kw", [("rbf", {"sigma2": 2.0}), ("rbf", {"sigma2": 40.0}), ("linear", {})])
@pytest.mark.parametrize("C", [0.05, 1.0, 50.0])
def test_held_out_values_equal_fit_svc_folds(kernel, kw, C):
    X, y = _problem(0)
    pairs = check_folds(5, X, y, seed=3)
    cv = SVCFoldCV(X, y, pairs, kernel=kernel)
    fast = cv.held_out(C, **kw)
    ref, status, iters = _direct(X, y, pairs, C, 10 ** 6, kernel=kernel, **kw)
    assert fast is not None and all(s == "ok" for s in status)
    for a, b, n_iter in zip(fast, ref, iters):
        # The same SMO path on kernels that differ by their formation's rounding (|K| <= max(1, |x|^2),
        # entries to ~ 2 d u of it): every alpha update rounds once more, so the duals differ by
        # ~ n_iter u C per multiplier, the decision values by N of those times |K|; c = 10.
        scale = max(1.0, float(np.max(np.sum(X ** 2, axis=1)))) if kernel == "linear" else 1.0
        assert np.max(np.abs(a - b)) <= 10 * n_iter * len(y) * U64 * max(C, 1.0) * scale
        assert np.array_equal(np.where(a >= 0, 1.0, -1.0), np.where(b >= 0, 1.0, -1.0))
    assert cv.counts == {"kernels": 1, "fits": 5, "capped": 0, "skipped": 0}


def test_one_kernel_per_sigma_across_c_and_folds():
    X, y = _problem(1)
    cv = SVCFoldCV(X, y, check_folds(4, X, y, seed=0), kernel="rbf")
    for s2 in (1.0, 10.0):
        for C in (0.1, 1.0, 10.0):
            cv.held_out(C, sigma2=s2)
    assert cv.counts["kernels"] == 2 and cv.counts["fits"] == 24


def test_a_capped_fold_ends_the_point_as_the_direct_cv_scores_it():
    """A fold stopped at max_iter is 'not-converged' for fit_svc, and cv_score_split scores the point
    NaN: SVCFoldCV returns None and fits none of the later folds."""
    X, y = _problem(2)
    y[::7] *= -1  # label noise: at C = 1000 LIBSVM needs more than 5 iterations
    pairs = check_folds(5, X, y, seed=1)
    cv = SVCFoldCV(X, y, pairs, kernel="linear", max_iter=5)
    _, status, _ = _direct(X, y, pairs, 1000.0, 5, kernel="linear")
    first = status.index("not-converged")
    assert cv.held_out(1000.0) is None
    assert cv.counts["fits"] == first + 1 and cv.counts["skipped"] == len(pairs) - first - 1
    assert cv.counts["capped"] == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(cv_score_split("svm-c", split_folds(X, y, pairs), C=1000.0, kernel="linear", max_iter=5))


def test_a_one_class_fold_raises_as_libsvm_does():
    X, y = _problem(3, n=20)
    y = np.where(np.arange(20) < 4, 1.0, -1.0)   # the first fold holds every +1
    pairs = check_folds(5, X, y)                   # contiguous folds
    cv = SVCFoldCV(X, y, pairs, kernel="linear")
    with pytest.raises(ValueError, match="two classes"):
        cv.held_out(1.0)
    with pytest.raises(ValueError):
        la.fit("svm-c", X[pairs[0][0]], y[pairs[0][0]], kernel="linear")
    assert cv.counts["fits"] == 0


@pytest.mark.parametrize("bad,match", [({"kernel": "poly"}, "kernel='poly'"), ({"tol": -1.0}, "tol"),
                                       ({"max_iter": 0}, "max_iter")])
def test_bad_options_are_named(bad, match):
    X, y = _problem(4, n=20)
    with pytest.raises((ValueError, TypeError), match=match):
        SVCFoldCV(X, y, check_folds(4, X, y), **bad)


def test_bad_data_and_point_are_named():
    X, y = _problem(5, n=20)
    pairs = check_folds(4, X, y)
    with pytest.raises(ValueError, match="one class"):
        SVCFoldCV(X, np.ones(20), pairs)
    with pytest.raises(ValueError, match="same number of samples"):
        SVCFoldCV(X[:10], y, pairs)
    cv = SVCFoldCV(X, y, pairs)
    with pytest.raises(ValueError, match="C"):
        cv.held_out(-1.0, sigma2=1.0)
    with pytest.raises((ValueError, TypeError), match="sigma2"):
        cv.held_out(1.0)
    Xc, yc = X.copy(), y.copy()
    cv.held_out(1.0, sigma2=1.0)
    assert np.array_equal(X, Xc) and np.array_equal(y, yc)  # the caller's arrays are not modified
