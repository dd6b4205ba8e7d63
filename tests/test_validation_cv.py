"""la.loo_residuals (closed form) and la.cross_validate (the package's one CV).

Tolerances
----------
The closed form r_i = coef_i / [A^{-1}]_ii and an explicit refit on N - 1
points are two backward-stable solves of nearby systems: each residual has
error <= c kappa(A) u ||y|| with c = 30 (N + 1) (LAPACK's ratio times the
order, the package's convention), kappa the infinity-norm condition of the
KKT matrix A.  The float32 / float64 residuals against mp50 are asserted
to the same bound in their own u and reported (measured ratios in the
assertion messages).
"""
import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV

from conftest import HARDWARE

import lssvm_analysis as la


def _reg(n=24, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, (n, 2))
    return X, np.sinc(X[:, 0]) + 0.1 * rng.normal(size=n)


def _kkt_cond(X, C, sigma2):
    K = la.rbf_kernel(X, sigma2=sigma2) + np.eye(len(X)) / C
    A = np.block([[np.zeros((1, 1)), np.ones((1, len(X)))], [np.ones((len(X), 1)), K]])
    return np.linalg.cond(A, p=np.inf)


@pytest.mark.parametrize("solver, task", [("lssvm-kkt", "regression"), ("lssvm-schur", "classification"),
                                          ("krr", "regression")])
def test_loo_residuals_equal_explicit_refits(solver, task):
    X, y = _reg()
    if task == "classification":
        y = np.where(y > np.median(y), 1.0, -1.0)
    C, s2 = 10.0, 1.0
    f = la.fit(solver, X, y, C=C, sigma2=s2, task=task)
    r = la.loo_residuals(f)
    explicit = np.empty(len(y))
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        fi = la.fit(solver, X[keep], y[keep], C=C, sigma2=s2, task=task)
        explicit[i] = y[i] - fi.predict(X[i:i + 1])[0]
    bound = 30 * (len(y) + 1) * _kkt_cond(X, C, s2) * 2.0 ** -53 * np.abs(y).max()
    assert np.abs(r - explicit).max() <= bound, (np.abs(r - explicit).max(), bound)


@pytest.mark.parametrize("precision", HARDWARE)
def test_loo_residuals_precision_against_mp50(precision):
    X, y = _reg(16)
    C, s2 = 100.0, 1.0
    ref = la.loo_residuals(la.fit("lssvm-kkt", X, y, C=C, sigma2=s2, precision="mp50"))
    got = la.loo_residuals(la.fit("lssvm-kkt", X, y, C=C, sigma2=s2, precision=precision))
    u = la.get_precision(precision).unit_roundoff
    err = np.abs(got - ref).max() / np.abs(ref).max()
    kappa = _kkt_cond(X, C, s2)
    assert err <= 30 * 17 * kappa * u, f"{precision}: rel err {err:.2e}, kappa u {kappa * u:.2e}"


def test_loo_residuals_rejects_sparse_and_failed_fits():
    X, y = _reg()
    f = la.fit("op-lssvm", X, y, C=10.0)
    with pytest.raises(ValueError, match="op-lssvm"):
        la.loo_residuals(f)


def test_estimator_loo_error_matches_n_fold_cv():
    X, y = _reg(20)
    est = la.LSSVMRegressor(C=10.0, sigma2=1.0).fit(X, y)
    df = la.cross_validate("lssvm-schur", X, y, folds=20, scoring="mse", C=10.0, sigma2=1.0)
    # N-fold CV of single points: mean of squared residuals = LOO MSE (same bound as above)
    assert abs(est.loo_error_ - df.score.mean()) <= 1e-10 * df.score.mean()
    yc = np.where(y > np.median(y), 1, 0)
    clf = la.LSSVMClassifier(C=10.0, sigma2=1.0).fit(X, yc)
    dfc = la.cross_validate("lssvm-schur", X, np.where(yc == 1, 1.0, -1.0), folds=20,
                            task="classification", C=10.0, sigma2=1.0)
    assert clf.loo_error_ == pytest.approx(1 - dfc.score.mean())


def test_cross_validate_frame_and_determinism():
    X, y = _reg(30)
    a = la.cross_validate("lssvm-schur", X, y, folds=5, C=10.0)
    b = la.cross_validate("lssvm-schur", X, y, folds=5, C=10.0)
    assert isinstance(a, pd.DataFrame) and len(a) == 5
    assert {"fold", "n_train", "n_test", "score", "status", "n_support", "time"} <= set(a.columns)
    np.testing.assert_array_equal(a.score, b.score)  # no seed: contiguous folds
    c = la.cross_validate("lssvm-schur", X, y, folds=5, C=10.0, seed=1)
    d = la.cross_validate("lssvm-schur", X, y, folds=5, C=10.0, seed=1)
    np.testing.assert_array_equal(c.score, d.score)
    assert not np.array_equal(a.score, c.score)
    assert a.n_test.sum() == 30


@pytest.mark.parametrize("kw, name", [({"folds": 1}, "folds"), ({"folds": 99}, "folds"),
                                      ({"scoring": "r2"}, "scoring")])
def test_cross_validate_bad_input(kw, name):
    X, y = _reg(10)
    with pytest.raises(ValueError, match=name):
        la.cross_validate("lssvm-schur", X, y, **kw)


def test_gridsearchcv_runs_on_the_estimator():
    X, y = _reg(30)
    grid = {"C": [1.0, 100.0], "sigma2": [0.5, 2.0]}
    s = GridSearchCV(la.LSSVMRegressor(), grid, cv=3, scoring="neg_mean_squared_error").fit(X, y)
    assert set(s.best_params_) == {"C", "sigma2"}


def test_cv_score_split_scores_the_folds_cross_validate_fits(rng):
    """Folds split once (split_folds) give, point after point, the score of cross_validate's own
    folds bit for bit (the same slices, the same fits, pandas' mean), and the shared arrays are
    read-only: a fit that wrote into its training slice would change every later grid point."""
    from lssvm_analysis.analysis.validation import SplitFolds, cv_score_split, split_folds

    X = rng.standard_normal((60, 3))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(60) > 0, 1.0, -1.0)
    split = split_folds(X, y, 5, seed=4)
    assert isinstance(split, SplitFolds) and len(split) == 5
    assert all(not a.flags.writeable for part in split.parts for a in part)
    for C, s2 in ((0.1, 1.0), (10.0, 0.3), (1000.0, 5.0)):
        kw = dict(task="classification", C=C, sigma2=s2)
        frame = la.cross_validate("lssvm-schur", X, y, folds=5, seed=4, **kw)
        assert cv_score_split("lssvm-schur", split, **kw) == frame.score.mean()
    with pytest.raises(TypeError, match="split="):
        cv_score_split("lssvm-schur", [(np.arange(30), np.arange(30, 60))], C=1.0)


def test_cv_score_stops_at_the_first_failed_fold(monkeypatch):
    """A fold whose fit is not "ok" makes the CV score NaN whatever the others give (cross_validate's
    mean with a failed fold), so cv_score fits no fold after it; cross_validate still fits them all."""
    import dataclasses
    from lssvm_analysis.analysis import validation
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 2))
    y = np.sin(X[:, 0])
    calls = []
    real = validation._fit

    def failing_third(solver, X_train, y_train, **kw):
        calls.append(len(y_train))
        f = real(solver, X_train, y_train, **kw)
        return dataclasses.replace(f, status="breakdown") if len(calls) == 3 else f

    monkeypatch.setattr(validation, "_fit", failing_third)
    assert np.isnan(validation.cv_score("lssvm-schur", X, y, folds=5, seed=0, C=10.0, sigma2=1.0))
    assert len(calls) == 3
    calls.clear()
    rows = la.cross_validate("lssvm-schur", X, y, folds=5, seed=0, C=10.0, sigma2=1.0)
    assert len(calls) == 5 and list(rows.status) == ["ok", "ok", "breakdown", "ok", "ok"]
