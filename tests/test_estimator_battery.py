"""The estimator battery, over the solver registry: every solver, task and variant value.

Two layers, to keep CI time small (measured in one process, CPU time, on a
shared 2-core machine: the whole file 34 s user for 943 tests, of which the
full layer's 13 estimators x ~60 checks 25 s; wall time was 41-110 s
depending on the machine's load):

* fast: every registered solver x task x configuration (the default, then
  each non-default variant value alone: every value of every variant keyword
  is fitted at least once) through the estimator, with a subset of
  scikit-learn's checks (parameters, clone, pickle, idempotence, dtypes,
  subset invariance, input untouched) and ours (routing through the
  registry, scikit-learn's attribute names, typed errors);
* full: ``check_estimator`` over one configuration per paper and task (the
  first solver the registry lists for them, default variants), and the first
  solver with per-point weights per task (the sample_weight checks: integer
  weights equal repeated points, zero weights removed ones).

Nothing names a solver: a newly registered solver or variant joins both
layers by registering.  The battery itself is in the package
(:mod:`lssvm_analysis.testing.estimators`), so a user runs the same checks.
"""
import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

import lssvm_analysis as la
from lssvm_analysis.core.exceptions import UnexpectedParameterError
from lssvm_analysis.estimators import LSSVMRegressor
from lssvm_analysis.testing.estimators import (ESTIMATORS, check_estimator_fast, configurations,
                                               expected_failures, make_estimator, solver_params)

from conftest import U64

CASES = [pytest.param(name, task, config, id=la.get_solver(name).configuration_label(
    {**la.get_solver(name).default_variant(), **config}) + f"-{task}")
    for name in la.solvers() for task in la.get_solver(name).tasks
    for config in configurations(la.get_solver(name))]


def make(name, task, config):
    return make_estimator(name, task, config)


@pytest.mark.parametrize("name, task, config", CASES)
def test_fast_checks(name, task, config):
    # Non-convergence of the iterative solvers on the checks' random data is a warned, kept
    # outcome (tests/test_estimators.py asserts the warning itself).
    check_estimator_fast(name, task, config)


@pytest.mark.parametrize("name, task, config", CASES)
def test_routes_through_the_registry(name, task, config):
    info = la.get_solver(name)
    p = info.example_problem(task, n=40, rng=1)
    est = make(name, task, config)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", la.ConvergenceWarning)
        est.fit(p.X, p.y)
        hyper = {k: v for k, v in (("C", 10.0), ("sigma2", 1.0)) if info.accepts(k)}
        direct = la.fit(name, p.X, p.y, **hyper, **info.task_keywords(task), **est.solver_params)
    # The estimator calls the same registry function on the same data: the same model, bit for bit.
    np.testing.assert_array_equal(np.asarray(est.fit_.coef_, dtype=float), np.asarray(direct.coef_, dtype=float))
    assert est.fit_.status == direct.status and est.fit_.params == direct.params
    for key, value in config.items():
        assert est.fit_.params.get(key, value) == value  # the variant reached the solver
    if est.fit_.w is not None:   # a primal model: f(x) = x^T w + b, no dual names to compare
        np.testing.assert_array_equal(np.asarray(est.fit_.w, dtype=float), np.asarray(direct.w, dtype=float))
        return
    # scikit-learn's names beside the paper's: f(x) = dual_coef_ @ K(SV, x) + intercept_.
    assert est.dual_coef_.shape == (1, est.fit_.n_support) and est.intercept_.shape == (1,)
    K = est.fit_.kernel(p.X, est.support_vectors_)
    by_names = K @ est.dual_coef_[0] + est.intercept_[0]
    f = est.decision_function(p.X) if task == "classification" else est.predict(p.X)
    # Both are float64 dot products of the same n_SV terms (only the summation order may
    # differ): |difference| <= 2 gamma_{n_SV} sum_k |c_k K_k| + 2u|b| (Higham eq. 3.5, twice).
    n_sv = est.fit_.n_support
    g = n_sv * U64 / (1 - n_sv * U64)
    bound = 2 * g * (np.abs(K) @ np.abs(est.dual_coef_[0])) + 2 * U64 * abs(est.intercept_[0])
    if est.fit_.params.get("coef") == "feature-map":
        # Chen & Zhou's Nystrom prediction is p(x)^T upsilon with p(x) = P_B^{-1} k_B(x), while
        # dual_coef_ = P_B^{-T} upsilon: besides the order of the sums, each side carries one
        # triangular solve, whose computed solution is within gamma_r |P^-1| |P| |x^| of the exact
        # one (Higham Thm 8.5, first order): |e_p|^T |upsilon| + |k_B|^T |e_alpha|, and the dot
        # products of the feature side 2 gamma_r |p|^T |upsilon|.
        P, ups = est.fit_.diagnostics["P_B"], np.asarray(est.fit_.diagnostics["upsilon"], dtype=float)
        inv = np.abs(np.linalg.inv(P))
        feats = np.abs(np.linalg.solve(P, K.T))                              # |p(x)|, (r, n)
        e_p = (inv @ np.abs(P)) @ feats                                      # |P^-1| |P| |p|
        e_alpha = (np.abs(P) @ inv).T @ np.abs(est.dual_coef_[0])            # |P^-T| |P^T| |alpha|
        bound = bound + g * (e_p.T @ np.abs(ups) + np.abs(K) @ e_alpha
                             + 2 * feats.T @ np.abs(ups)) * 1.01        # 1.01: the bound's own rounding
    assert np.all(np.abs(by_names - f) <= bound)


@pytest.mark.parametrize("name", la.solvers())
def test_bad_solver_params_are_named(name):
    info = la.get_solver(name)
    task = info.tasks[0]
    p = info.example_problem(task, n=20, rng=2)
    est = ESTIMATORS[task](solver=name, solver_params={**solver_params(info, task), "not_a_keyword": 1})
    with pytest.raises(UnexpectedParameterError, match="not_a_keyword"):
        est.fit(p.X, p.y)
    with pytest.raises(ValueError, match="solver_params\\['C'\\]"):
        ESTIMATORS[task](solver=name, solver_params={"C": 3.0}).fit(p.X, p.y)
    for option in info.variant_options():
        est = ESTIMATORS[task](solver=name, solver_params={**solver_params(info, task), option: "no-such"})
        with pytest.raises(ValueError, match=f"{option}='no-such'"):
            est.fit(p.X, p.y)


def test_solver_params_type_is_named():
    with pytest.raises(TypeError, match="solver_params"):
        LSSVMRegressor(solver_params=[("tau", 1.0)]).fit(np.eye(3), np.arange(3.0))


def test_clone_copies_solver_params_and_pickle_keeps_the_model():
    est = LSSVMRegressor(solver="sr-lssvm", solver_params={"j_form": "qr", "tau": 2.0})
    twin = clone(est)
    assert twin.solver_params == est.solver_params and twin.solver_params is not est.solver_params
    X = np.linspace(-3, 3, 30)[:, None]
    y = np.sinc(X[:, 0])
    est.fit(X, y)
    back = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(back.predict(X), est.predict(X))


# --------------------------------------------------------------------------- full check_estimator
def _representatives():
    """One estimator per (paper, task): the paper's first registered solver for it, defaults;
    and per task the first solver with per-point weights (its sample_weight checks run)."""
    seen, out = set(), []
    for name in la.solvers():
        info = la.get_solver(name)
        for task in info.tasks:
            key = (info.paper, task)
            weighted = ("sample_weight", task)
            if key not in seen or (info.accepts("sample_weight") and weighted not in seen):
                seen.add(key)
                if info.accepts("sample_weight"):
                    seen.add(weighted)
                out.append(ESTIMATORS[task](solver=name, solver_params=solver_params(info, task) or None))
    return out


@parametrize_with_checks(_representatives(), expected_failed_checks=expected_failures)
def test_check_estimator_one_configuration_per_family(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", la.ConvergenceWarning)
        check(estimator)
