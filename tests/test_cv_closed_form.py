"""Closed-form k-fold / LOO CV (analysis.cv_closed) against per-fold direct fits, and la.tune on both paths."""

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.analysis.cv_closed import KernelCV, choose_method, route_costs
from lssvm_analysis.analysis.validation import check_folds
from lssvm_analysis.linalg.kernels import make_kernel
from lssvm_analysis.solvers.kkt import fisher_targets
from conftest import U64

KERNELS = [("rbf", {"sigma2": 2.0}), ("poly", {"degree": 2, "t": 1.0}), ("linear", {})]
#: (solver, task, bias): the regression and classification encodings with bias, LS-SVM_F and KRR.
ENCODINGS = [("lssvm-schur", "regression", True), ("lssvm-schur", "classification", True),
             ("lssvm-kkt", "classification", True), ("lssvm-fisher", "classification", True),
             ("krr", "regression", False)]


def _problem(seed, n=90, d=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    labels = np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1.0, -1.0)
    target = np.sin(X[:, 0]) + 0.1 * rng.standard_normal(n)
    return X, labels, target


def _targets(solver, task, y, tests):
    if solver != "lssvm-fisher":
        return y
    out = []
    for t in tests:
        train = np.setdiff1d(np.arange(len(y)), t)
        d = np.zeros(len(y))
        d[train] = fisher_targets(y[train])
        out.append(d)
    return out


@pytest.mark.parametrize("kernel,kp", KERNELS)
@pytest.mark.parametrize("solver,task,bias", ENCODINGS)
@pytest.mark.parametrize("method", ["eigen", "cholesky"])
@pytest.mark.parametrize("loo", [False, True])
def test_closed_form_equals_per_fold_fits(kernel, kp, solver, task, bias, method, loo):
    X, labels, target = _problem(7)
    y = labels if task == "classification" else target
    n = len(y)
    pairs = check_folds(n if loo else 10, X, y, seed=None if loo else 3)
    tests = [te for _, te in pairs]
    K = make_kernel(kernel, **kp)(X)
    cv = KernelCV(K, tests, bias=bias, method=method)
    for C in (0.1, 100.0):
        f = cv.held_out(C, _targets(solver, task, y, tests))
        assert f is not None and cv.method == method
        H = K + np.eye(n) / C
        kappa = np.linalg.cond(np.block([[np.zeros((1, 1)), np.ones((1, n))], [np.ones((n, 1)), H]])
                               if bias else H)
        for (tr, te), fF in zip(pairs, f):
            ref = la.fit(solver, X[tr], y[tr], C=C, kernel=kernel, task=task, **kp).predict(X[te])
            # Both sides solve systems of condition <= kappa (the whole KKT matrix bounds its principal
            # parts' and P_FF's) with backward-stable factorizations: each is within c N kappa u of the
            # exact held-out values, relative to their scale; c = 10 covers the two factorizations and
            # the few products of each side (observed errors: ~0.01-0.1 of this bound).
            scale = max(np.max(np.abs(ref)), np.max(np.abs(y)))
            assert np.max(np.abs(fF - ref)) <= 10 * n * kappa * U64 * scale


def test_float32_closed_form_equals_float32_fits():
    X, labels, _ = _problem(2, n=60)
    pairs = check_folds(5, X, labels, seed=0)
    tests = [te for _, te in pairs]
    K = make_kernel("rbf", sigma2=2.0)(X, precision="float32")
    u32 = float(np.finfo(np.float32).eps) / 2
    for method in ("eigen", "cholesky"):
        f = KernelCV(K, tests, method=method).held_out(1.0, labels.astype(np.float32))
        assert f is not None and f[0].dtype == np.float32
        n = 60
        Hb = np.block([[np.zeros((1, 1)), np.ones((1, n))], [np.ones((n, 1)), K.astype(np.float64) + np.eye(n)]])
        kappa = np.linalg.cond(Hb)  # the KKT matrix of the whole set (C = 1)
        for (tr, te), fF in zip(pairs, f):
            ref = la.fit("lssvm-schur", X[tr], labels[tr], C=1.0, sigma2=2.0, task="classification",
                         precision="float32").predict(X[te])
            # as above, in float32's unit roundoff: each side within c N kappa u of the exact values
            assert np.max(np.abs(fF - ref)) <= 10 * 60 * kappa * u32


def test_guard_hands_near_breakdown_back_to_the_direct_path():
    X, labels, _ = _problem(4, n=40)
    K = make_kernel("linear")(X, precision="float32")  # rank 3: lambda_min(H) = 1/C
    tests = [te for _, te in check_folds(4, X, labels)]
    # 1/C = 1e-6 < N u ||H|| (40 * 6e-8 * ~40): a fold's float32 Cholesky may break down, so no answer
    assert KernelCV(K, tests, method="eigen").held_out(1e6, labels.astype(np.float32)) is None
    res = la.tune("lssvm-schur", X, labels, grid={"C": [1e6]}, refinements=0, folds=4, kernel="linear",
                  task="classification", precision="float32")
    assert res.route["points_direct"] == 1 and res.route["points_closed_form"] == 0


def test_cost_model_takes_eigen_for_many_C_and_cholesky_for_few():
    assert choose_method(11, 10) == "eigen" and choose_method(3, 10) == "cholesky"
    c = route_costs(11, 10)
    assert c["eigen"] < c["cholesky"]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("solver,task,scoring", [("lssvm-schur", "classification", None),
                                                 ("lssvm-fisher", "classification", None),
                                                 ("lssvm-schur", "regression", None),
                                                 ("krr", "regression", "mae")])
def test_tune_selects_and_scores_as_the_direct_path(seed, solver, task, scoring):
    X, labels, target = _problem(seed, n=80)
    y = labels if task == "classification" else target
    grid = {"sigma2": [0.5, 5.0, 50.0], "C": [0.1, 1.0, 10.0, 100.0]}
    kw = dict(grid=grid, refinements=2, folds=5, seed=seed, task=task, scoring=scoring)
    fast = la.tune(solver, X, y, **kw)
    slow = la.tune(solver, X, y, closed_form=False, **kw)
    assert fast.route["closed_form"] and fast.route["points_direct"] == 0 and not slow.route["closed_form"]
    assert fast.best == slow.best and fast.n_evaluations == slow.n_evaluations
    h, g = fast.history, slow.history
    if task == "classification":
        # accuracies count signs of decision values equal to c N kappa u (test above): none of these
        # seeded problems has a held-out value that close to 0, so every score is the same number
        assert np.array_equal(h.score.to_numpy(), g.score.to_numpy())
    else:
        kappa = 1 + len(y) * 100.0  # RBF: lambda_max(K) <= N, lambda_min(H) >= 1/C
        np.testing.assert_allclose(h.score, g.score, rtol=2 * 10 * len(y) * kappa * U64, atol=0)
