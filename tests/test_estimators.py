"""scikit-learn conformance of the estimators (layer 4)."""
import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.kernel_ridge import KernelRidge
from sklearn.model_selection import GridSearchCV
from sklearn.utils.estimator_checks import parametrize_with_checks

import lssvm_analysis as la
from lssvm_analysis.core.exceptions import UnexpectedParameterError
from lssvm_analysis.estimators import ELSRegressor, LSSVMClassifier, LSSVMRegressor

from lssvm_analysis.testing.estimators import expected_failures
from conftest import U64


@parametrize_with_checks([LSSVMRegressor(), LSSVMClassifier(), ELSRegressor()],
                         expected_failed_checks=expected_failures)
def test_sklearn_compatible(estimator, check):
    # The only checks marked expected-to-fail are scikit-learn's sample_weight checks
    # (these solvers have no per-point weights and refuse one with a typed error; the
    # battery runs them on w-lssvm, which has), see lssvm_analysis/testing/estimators.py.
    # scikit-learn itself skips its three array-API checks unless the
    # environment sets SCIPY_ARRAY_API=1 and installs array-api-strict; these
    # estimators compute in NumPy (and mpmath) only, so they are not array-API
    # estimators and those skips are expected.
    check(estimator)


def test_regressor_delegates_to_solver(rng):
    X = rng.uniform(-3, 3, (60, 2))
    y = np.sinc(X[:, 0]) + 0.1 * X[:, 1]
    est = LSSVMRegressor(C=10.0, sigma2=0.7).fit(X, y)
    direct = la.fit("lssvm-schur", X, y, C=10.0, sigma2=0.7)
    # Same function, same data, same arithmetic: bit-identical.
    np.testing.assert_array_equal(est.predict(X), direct.predict(X))


def test_regressor_krr_matches_kernel_ridge(rng):
    X = rng.uniform(-3, 3, (50, 3))
    y = X[:, 0] ** 2 - X[:, 1]
    est = LSSVMRegressor(C=5.0, sigma2=2.0, solver="krr").fit(X, y)
    kr = KernelRidge(alpha=1 / 5.0, kernel="rbf", gamma=1 / 2.0).fit(X, y)
    K = la.rbf_kernel(X, sigma2=2.0)
    kappa = np.linalg.cond(K + np.eye(50) / 5.0)
    u = np.finfo(np.float64).eps / 2
    scale = np.abs(kr.predict(X)).max()
    # Two backward-stable Cholesky solves of the same SPD system: their
    # solutions differ by <= 2 * 30 kappa u (LAPACK's constant 30 per solve);
    # predictions are K @ alpha with ||K|| <= n, hence the factor n.
    assert np.abs(est.predict(X) - kr.predict(X)).max() <= 60 * 50 * kappa * u * scale


def test_classifier_binary_and_multiclass():
    X, y = load_iris(return_X_y=True)
    binary = y != 2
    clf = LSSVMClassifier(C=10.0, sigma2=2.0).fit(X[binary], y[binary])
    assert set(clf.classes_) == {0, 1}
    assert clf.score(X[binary], y[binary]) == 1.0  # setosa vs versicolor is separable
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    for code in ("1vs1", "1vsa", "moc", "ecoc"):
        clf = LSSVMClassifier(C=10.0, sigma2=2.0, code=code).fit(X, names)
        assert clf.predict(X).dtype == names.dtype
        # Training accuracy of an RBF LS-SVM on iris; Suykens Table 3.4 reports
        # ~95% test accuracy for RBF LS-SVM on multiclass sets of this kind.
        assert clf.score(X, names) >= 0.9, code


def test_els_regressor_sparse(rng):
    X = rng.uniform(-1, 1, (120, 1))
    y = np.sinc(3 * X[:, 0])
    dense = ELSRegressor(C=1e3, sigma2=0.1, eta=1e-3).fit(X, y)
    sparse = ELSRegressor(C=1e3, sigma2=0.1, eta=0.3).fit(X, y)
    assert sparse.fit_.n_support < dense.fit_.n_support <= 120
    dual = ELSRegressor(C=1e3, sigma2=0.1, eta=0.3, solver="els-dual").fit(X, y)
    np.testing.assert_array_equal(dual.fit_.support_, sparse.fit_.support_)


def test_breakdown_raises_from_estimator(rng):
    X = rng.uniform(-1, 1, (80, 1))
    y = X[:, 0]
    # Omega_e has lambda_min = 1/C = 1e-20 far below float32 resolution: the
    # dual Cholesky must break down, and the estimator must not pretend to fit.
    with pytest.raises(la.CholeskyBreakdownError) as exc:
        ELSRegressor(C=1e20, sigma2=0.5, eta=0.05, solver="els-dual", precision="float32").fit(X, y)
    assert exc.value.record.precision == "float32"


def test_grid_search_runs(rng):
    X = rng.uniform(-3, 3, (60, 1))
    y = np.sinc(X[:, 0])
    gs = GridSearchCV(LSSVMRegressor(), {"C": [1.0, 100.0], "sigma2": [0.5, 2.0]}, cv=3).fit(X, y)
    assert gs.best_params_["C"] in (1.0, 100.0)


@pytest.mark.parametrize("bad", [{"solver": "nope"}, {"C": -1.0}, {"sigma2": 0.0},
                                 {"precision": "float16"}, {"solver": "lssvm-fisher"}])
def test_regressor_bad_params(bad, rng):
    X = rng.uniform(-1, 1, (20, 2))
    y = X[:, 0]
    with pytest.raises(ValueError) as exc:
        LSSVMRegressor(**bad).fit(X, y)
    key, value = next(iter(bad.items()))
    assert key in str(exc.value) and repr(value)[:5] in str(exc.value)


def test_lu_breakdown_is_a_typed_record_through_the_estimator():
    """An LU that meets a zero pivot is a recorded outcome with its own record type.

    Two inputs at the origin with a linear kernel give Omega = 0; in float32
    1/C = 1e-300 rounds to 0, so the KKT matrix is [[0, 1, 1], [1, 0, 0], [1, 0, 0]]
    with two equal rows: getrf meets an exact zero pivot at the last step.
    """
    X = np.zeros((2, 1))
    y = np.array([0.0, 1.0])
    fit = la.fit("lssvm-kkt", X, y, kernel="linear", C=1e300, precision="float32")
    assert fit.status == "breakdown"
    assert isinstance(fit.breakdown, la.LUBreakdown)
    assert fit.breakdown.n == 3 and fit.breakdown.pivot == 0.0
    est = la.LSSVMRegressor(solver="lssvm-kkt", kernel="linear", C=1e300, precision="float32")
    with pytest.raises(la.LUBreakdownError) as exc:
        est.fit(X, y)
    assert exc.value.record == fit.breakdown


# --------------------------------------------------------------------------- issue 22
@pytest.mark.parametrize("solver", [s for s in la.solvers("regression") if la.get_solver(s).accepts("tau")])
def test_not_converged_robust_fit_warns_and_keeps_the_last_iterate(solver):
    """Unscaled make_regression targets (|y| ~ 100 against tau = 1): the truncated-loss
    iterations cycle and stop at max_iter, as scikit-learn's iterative estimators do."""
    from sklearn.datasets import make_regression
    from sklearn.exceptions import ConvergenceWarning as SklearnConvergenceWarning
    X, y = make_regression(n_samples=80, n_features=3, noise=5.0, random_state=0)
    est = la.LSSVMRegressor(solver=solver, C=10.0, sigma2=3.0, solver_params={"max_iter": 5})
    with pytest.warns(SklearnConvergenceWarning, match="last iterate") as record:
        est.fit(X, y)
    assert est.fit_.status == "not-converged" and est.fit_.iterations == 5
    # One warning, not the solver's and the estimator's both.
    assert sum(issubclass(w.category, la.ConvergenceWarning) for w in record) == 1
    f = est.predict(X)
    # The prediction is the kept iterate's model, evaluated by the same kernel and dot product.
    K = est.fit_.kernel(X, est.fit_.X_support_)
    np.testing.assert_array_equal(f, K @ est.fit_.coef_ + est.fit_.bias_)


def test_pruned_is_usable_from_the_estimator(rng):
    X = rng.uniform(-3, 3, (80, 1))
    y = np.sinc(X[:, 0]) + 0.02 * rng.standard_normal(80)
    Xv = rng.uniform(-3, 3, (40, 1))
    yv = np.sinc(Xv[:, 0])
    for sp in ({"index": "training", "atol": 1e-3}, {"validation": (Xv, yv), "fraction": 0.1}):
        est = LSSVMRegressor(C=10.0, sigma2=0.5, solver="lssvm-pruned", solver_params=sp).fit(X, y)
        direct = la.fit("lssvm-pruned", X, y, C=10.0, sigma2=0.5, task="regression", **sp)
        np.testing.assert_array_equal(est.support_, direct.support_)
    # Suykens' rule with a training-MSE slack of 1e-3 (noise variance 4e-4): pruning steps are
    # accepted while the training MSE stays within the slack of the best.
    est = LSSVMRegressor(C=10.0, sigma2=0.5, solver="lssvm-pruned",
                         solver_params={"index": "training", "atol": 1e-3}).fit(X, y)
    assert est.fit_.n_support < 80


def test_one_sample_is_refused_with_its_count():
    with pytest.raises(ValueError, match="n_samples=1"):
        LSSVMRegressor().fit(np.zeros((1, 2)), np.ones(1))


def test_multiclass_routes_solver_params_through_the_registry():
    X, y = load_iris(return_X_y=True)
    clf = LSSVMClassifier(C=10.0, sigma2=2.0, solver="w-lssvm", solver_params={"weights": "huber"}).fit(X, y)
    assert all(f.params["weights"] == "huber" for f in clf.fit_.fits)
    with pytest.raises(ValueError, match="weights='nope'"):
        LSSVMClassifier(solver="w-lssvm", solver_params={"weights": "nope"}).fit(X, y)
    # LIBSVM's C-SVC takes no task keyword; the multiclass decomposition must not pass one.
    assert LSSVMClassifier(C=10.0, sigma2=2.0, solver="svm-c").fit(X, y).score(X, y) >= 0.9


def test_grid_search_over_variants(rng):
    X = rng.uniform(-3, 3, (60, 1))
    y = np.sinc(X[:, 0])
    grid = {"solver": ["pcp-lssvm"],
            "solver_params": [{"j_form": o.value} for o in la.get_solver("pcp-lssvm").variant_options()["j_form"]]}
    gs = GridSearchCV(LSSVMRegressor(C=10.0, sigma2=0.5), grid, cv=3, error_score="raise").fit(X, y)
    assert len(gs.cv_results_["params"]) == len(grid["solver_params"])
    assert gs.best_estimator_.fit_.params["j_form"] == gs.best_params_["solver_params"]["j_form"]


def test_docstring_examples_run():
    import doctest

    import lssvm_analysis.estimators as mod
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


def test_sample_weight_refused_by_name_where_the_formulation_has_none(rng):
    X = rng.uniform(-1, 1, (20, 2))
    y = X[:, 0]
    with pytest.raises(UnexpectedParameterError, match="sample_weight=None for solver='lssvm-schur'"):
        LSSVMRegressor().fit(X, y, sample_weight=np.ones(20))
    with pytest.raises(ValueError, match="solver_params\\['sample_weight'\\]"):
        LSSVMRegressor(solver="w-lssvm", solver_params={"sample_weight": np.ones(20)}).fit(X, y)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # max_iter=3 < needed
@pytest.mark.parametrize("max_iter", [1, 3])
def test_w_lssvm_integer_weights_equal_repeated_points(max_iter, rng):
    """The weighted system K + diag(1/(C s)) is the repeated-points system after summing
    the copies' equal alphas (alpha' = s alpha), and the weighted MAD is the MAD of the
    repeated residuals value for value; the two models differ by the rounding of two
    solves of well-conditioned systems (C = 10: kappa(K + I/C) <= 1 + 10 N), bounded
    below by 2 * 30 N kappa u |f|."""
    X = rng.uniform(-3, 3, (15, 2))
    y = np.sinc(X[:, 0]) + 0.1 * rng.standard_normal(15)
    y[3] += 3.0  # one outlier, down-weighted
    sw = rng.integers(0, 5, 15)
    sw[3] = 2
    weighted = LSSVMRegressor(C=10.0, solver="w-lssvm", solver_params={"max_iter": max_iter})
    weighted.fit(X, y, sample_weight=sw)
    repeated = LSSVMRegressor(C=10.0, solver="w-lssvm", solver_params={"max_iter": max_iter})
    repeated.fit(np.repeat(X, sw, axis=0), np.repeat(y, sw))
    np.testing.assert_array_equal(weighted.support_, np.flatnonzero(sw > 0))  # zero weight = removed
    n = int(sw.sum())
    f = repeated.predict(X)
    assert np.all(np.abs(weighted.predict(X) - f) <= 2 * 30 * n * (1 + 10 * n) * U64 * np.abs(f).max())


def test_weighted_median_is_the_median_of_repeated_values(rng):
    from lssvm_analysis.solvers.robust import weighted_median
    for _ in range(100):
        a = rng.normal(size=int(rng.integers(1, 12)))
        w = rng.integers(0, 5, size=len(a))
        if w.sum():
            assert weighted_median(a, w) == np.median(np.repeat(a, w))


# --------------------------------------------------------------------------- precomputed / callable kernels
def _sp(info):
    """The registry's example keywords that are plain values (pruning: the training index)."""
    sp = {k: v for k, v in info.example_problem("regression", rng=0).params.items()
          if k not in ("C", "sigma2", "task", "kernel") and np.isscalar(v)}
    if "validation" in info.required:
        sp["index"] = "training"
    return sp


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("solver", la.solvers("regression"))
def test_precomputed_and_callable_kernels(solver, rng):
    X = rng.uniform(-3, 3, (50, 2))
    y = np.sinc(X[:, 0])
    Xt = rng.uniform(-3, 3, (15, 2))
    G, Gt = la.rbf_kernel(X, sigma2=0.7), la.rbf_kernel(Xt, X, sigma2=0.7)
    info = la.get_solver(solver)
    kw = dict(C=10.0, solver=solver, solver_params=_sp(info))
    try:
        pre = LSSVMRegressor(kernel="precomputed", **kw).fit(G, y)
    except ValueError as err:
        # LIBSVM is given its kernel by name: a Gram matrix is refused, by name, never
        # silently replaced by another kernel.
        assert "expected kernel in ('rbf', 'linear', 'poly') for LIBSVM" in str(err)
        return
    # A callable gets (X, X) at fit, as one object twice: it can give the symmetric K(X, X).
    call = LSSVMRegressor(kernel=lambda A, B: la.rbf_kernel(A, None if B is A else B, sigma2=0.7), **kw)
    call.fit(X, y)
    # The same Gram matrices reach the same solver: bit-identical models and predictions.
    np.testing.assert_array_equal(pre.predict(Gt), call.predict(Xt))
    np.testing.assert_array_equal(pre.dual_coef_, call.dual_coef_)
    np.testing.assert_array_equal(call.support_vectors_, X[call.support_])
    if la.analysis.validation.has_closed_form_loo(solver):
        # Dense solvers evaluate K(X, X) and K(test, X) by the same calls as above: identical.
        named = LSSVMRegressor(sigma2=0.7, **kw).fit(X, y)
        np.testing.assert_array_equal(named.predict(Xt), pre.predict(Gt))
        assert named.loo_error_ == pre.loo_error_


def test_precomputed_model_selection_slices_the_gram_matrix():
    from sklearn.model_selection import cross_val_score
    X, y = load_iris(return_X_y=True)
    G = la.rbf_kernel(X, sigma2=2.0)
    est = LSSVMClassifier(C=10.0, kernel="precomputed")
    assert est.__sklearn_tags__().input_tags.pairwise
    # Each fold's (train x train) and (test x train) blocks of G are the kernel the named
    # RBF estimator computes on the same rows, so the fold scores are equal.
    np.testing.assert_array_equal(cross_val_score(est, G, y, cv=3),
                                  cross_val_score(LSSVMClassifier(C=10.0, sigma2=2.0), X, y, cv=3))


def test_bad_gram_inputs_are_named(rng):
    X = rng.uniform(-1, 1, (10, 3))
    with pytest.raises(ValueError, match="square Gram matrix X"):
        LSSVMRegressor(kernel="precomputed").fit(X, X[:, 0])
    with pytest.raises(ValueError, match="kernel\\(X, X_fit\\) of shape"):
        LSSVMRegressor(kernel=lambda A, B: np.ones((len(A), 2))).fit(X, X[:, 0])
