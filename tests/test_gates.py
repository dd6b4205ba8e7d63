"""Gates that cannot pass by accident and one solver contract checked once."""
import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.analysis.model_digits import FitDataMismatchError
from lssvm_analysis.core.exceptions import UnexpectedParameterError
from lssvm_analysis.solvers import unregister
from lssvm_analysis.testing import assert_matches_exact, assert_model_digits, check_solver

import ridge_plugin

HERE = Path(__file__).parent


def _sinc(n=40, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, (n, 2))
    return X, np.sinc(X[:, 0]) + 0.05 * X[:, 1]


@pytest.fixture
def registered():
    """Register throwaway solvers for one test; unregistered after it, pass or fail."""
    names = []

    def reg(name, func, **kw):
        la.register_solver(name, tasks=("regression",), paper="test", equations="-", **kw)(func)
        names.append(name)
        return name
    yield reg
    for name in names:
        unregister(name)


def _krr_like(name, damage=None):
    def fit(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0):
        f = la.fit("krr", X, y, precision=precision, C=C, kernel=kernel, sigma2=sigma2, degree=degree, t=t)
        return dataclasses.replace(f, solver=name, **(damage(f) if damage else {}))
    return fit


# ------------------------------------------------------------------------- honest outcomes
def test_a_plugin_returning_nan_or_none_is_a_recorded_status_never_ok(registered):
    X, y = _sinc()
    nan = registered("t-nan", _krr_like("t-nan", lambda f: {"coef_": f.coef_ * np.nan}))
    f = la.fit(nan, X, y, C=10.0)
    assert f.status == "overflow" and f.coef_ is None and f.diagnostics["nonfinite"]["coef_nan"] == len(y)
    none = registered("t-none", lambda X, y, *, precision="float64", C=1.0: None)
    g = la.fit(none, X, y)
    assert g.status == "no-model" and "returned None" in g.diagnostics["invalid_result"]
    with pytest.raises(AssertionError) as exc:
        check_solver(nan, precisions=["float64"], accuracy="skip")
    assert "two identical fits differ" not in str(exc.value) and "status 'overflow'" in str(exc.value)


def test_a_plugin_without_accuracy_hook_fails_unless_the_caller_accepts_it(registered):
    name = registered("t-nohook", _krr_like("t-nohook"))
    with pytest.raises(AssertionError, match="nothing measures the solver's accuracy.*accuracy='skip'"):
        check_solver(name, precisions=["float64"])
    report = check_solver(name, precisions=["float64"], accuracy="skip")
    assert any("accuracy='skip'" in a for a in report.accepted)
    assert "matches_reference" in report.skipped and "exact_model_hook" in report.skipped
    assert "peak_memory" in report.skipped and "bad_data" in report
    with pytest.raises(ValueError, match="accuracy='no'"):
        check_solver(name, accuracy="no")


def test_declared_backward_bound_is_honoured(registered):
    """A ridge solve perturbed by 1e-8 relative: beyond 30 kappa u (kappa ~ 3, 30 kappa u ~ 2e-14)
    without a declaration, within kappa eta / (1 - kappa eta) ~ 3e-6 with eta = 1e-6 declared."""
    def sloppy(name):
        def fit(X, y, *, precision="float64", C=1.0):
            f = ridge_plugin.fit_primal_ridge(X, y, precision=precision, C=C)
            return dataclasses.replace(f, solver=name, w=f.w * (1 + 1e-8))
        return fit
    tight = registered("t-sloppy", sloppy("t-sloppy"), system=ridge_plugin.ridge_system)
    with pytest.raises(AssertionError, match=r"> 30 kappa u"):
        check_solver(tight, precisions=["float64"])
    loose = registered("t-sloppy-declared", sloppy("t-sloppy-declared"), system=ridge_plugin.ridge_system,
                       backward_bound=1e-6)
    assert "matches_reference[t-sloppy-declared-float64-C=10]" in check_solver(loose, precisions=["float64"])


def test_primal_ridge_plugin_passes_check_solver_with_the_public_kit():
    ridge_plugin.register()
    try:
        report = check_solver(ridge_plugin.NAME)
        assert any(s.startswith("matches_reference") for s in report) and not report.accepted
        assert any(s.startswith("condition_estimate") for s in report)
        X = np.random.default_rng(1).normal(size=(30, 3))
        f = la.fit(ridge_plugin.NAME, X, X @ [1.0, -2.0, 0.5], C=1e6)
        np.testing.assert_array_equal(f.predict(X), f.decision_function(X))
        assert f.w.shape == (3,) and f.n_support == 0
    finally:
        unregister(ridge_plugin.NAME)


REGISTRY_WIDE = ["tests/test_conformance.py", "tests/test_estimator_battery.py", "tests/test_peak_memory.py",
                 "tests/test_robust.py", "tests/test_bad_input.py"]


def test_the_project_registry_wide_tests_run_the_primal_ridge_plugin():
    """The plugin registered from outside (``-p ridge_plugin``, in a subprocess so that it does not
    leak into this run) is collected by the registry-wide files and passes them."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "ridge_plugin",
                          "-k", ridge_plugin.NAME, *REGISTRY_WIDE], cwd=HERE.parent, env=env,
                         capture_output=True, text=True, timeout=900)
    tail = out.stdout[-3000:] + out.stderr[-2000:]
    assert out.returncode == 0, tail
    summary = out.stdout.strip().splitlines()[-1]
    assert re.search(r"\d+ passed", summary) and not re.search(r"\d+ failed", summary), tail


# ------------------------------------------------------------------------- vacuous gates
def test_every_gate_refuses_an_argument_that_makes_it_vacuous():
    X, y = _sinc()
    f = la.fit("krr", X, y, C=1e4, sigma2=1.0)
    with pytest.raises(ValueError, match="X_test.*predictions_at_least=15"):
        assert_model_digits(f, X, y, 3, predictions_at_least=15)
    for bad in (-5, 0):
        with pytest.raises(ValueError, match=f"at_least={bad}"):
            assert_model_digits(f, X, y, bad)
    with pytest.raises(la.UnsupportedPrecisionError, match="'mp50'"):
        check_solver("svm-c", precisions=["mp50"])
    with pytest.raises(ValueError, match="precisions=\\[\\]"):
        check_solver("krr", precisions=[])
    for bad in (-1, 0, float("nan")):
        with pytest.raises(ValueError, match="c="):
            assert_matches_exact(f, X, y, c=bad)
    with pytest.raises(ValueError, match="tol=-1"):
        assert_matches_exact(f, X, y, tol=-1)


# ------------------------------------------------------------------------- data checked against the fit
def test_model_error_refuses_data_and_keywords_that_are_not_the_fits():
    X, y = _sinc()
    f = la.fit("lssvm-schur", X, y, C=1e4, sigma2=1.0)
    for args, name in (((X[:, :1], y), "X"), ((2 * X, y), "X"), ((X, y + 1), "y"), ((X[:-1], y[:-1]), "X")):
        with pytest.raises(FitDataMismatchError, match=f"{name}"):
            la.model_error(f, *args)
        with pytest.raises(FitDataMismatchError):
            assert_model_digits(f, *args, at_least=3)
    with pytest.raises(ValueError, match="C=1000.0"):
        la.model_error(f, X, y, C=1e3)
    with pytest.raises(UnexpectedParameterError, match="rgn=1"):
        la.model_error(f, X, y, rgn=1)
    err = la.model_error(f, X.copy(), list(y), C=1e4)   # the same data and value: measured
    assert err.model_digits > 10


# ------------------------------------------------------------------------- CG scale invariance
@pytest.mark.parametrize("precision, shift, scale", [("float32", 80, 1e-24), ("float64", 565, 1e-170)])
def test_cg_is_scale_invariant(precision, shift, scale):
    """y * 2^-shift: every CG operation commutes with a power-of-two scaling in the normal range,
    so the model is the unscaled one times 2^-shift bit for bit (it was x = 0, 'ok', at iteration
    0: r^T r underflowed).  y * scale (not a power of two): y is rounded differently, a relative
    perturbation of u, so the fit keeps the unscaled fit's model digits to within one."""
    X, y = _sinc()
    a = la.fit("lssvm-cg", X, y, precision=precision, C=10.0, sigma2=1.0)
    b = la.fit("lssvm-cg", X, np.ldexp(y, -shift), precision=precision, C=10.0, sigma2=1.0)
    assert a.status == b.status == "ok" and b.iterations == a.iterations > 1
    np.testing.assert_array_equal(np.ldexp(np.asarray(b.coef_), shift), a.coef_)
    assert np.ldexp(b.bias_, shift) == a.bias_
    c = la.fit("lssvm-cg", X, y * scale, precision=precision, C=10.0, sigma2=1.0)
    assert c.status == "ok" and c.iterations > 1
    ref = la.model_error(a, X, y).model_digits
    assert la.model_error(c, X, y * scale).model_digits >= ref - 1
    A = np.array([[2.0, 1.0], [1.0, 3.0]], dtype=precision)
    bb = np.array([1.0, 2.0], dtype=precision) * np.asarray(scale, dtype=precision)
    res = la.hestenes_stiefel_cg(A, bb, precision=precision)
    x = np.linalg.solve(A.astype(float), bb.astype(float))
    u = la.get_precision(precision).unit_roundoff
    # 2 x 2, kappa_2 ~ 2.6: CG ends within its rtol = 100 u times kappa of the solution
    assert res.converged and res.iterations >= 1 and np.max(np.abs(res.x - x)) <= 100 * u * 2.7 * np.max(np.abs(x))


# ------------------------------------------------------------------------- one contract at registration
@pytest.mark.parametrize("kw, etype, needle", [
    ({"backward_bound": "x"}, TypeError, "backward_bound='x'"),
    ({"backward_bound": -1}, ValueError, "backward_bound=-1"),
    ({"system": 5}, TypeError, "system=5"),
    ({"exact_model": "f"}, TypeError, "exact_model='f'"),
    ({"peak": "x"}, TypeError, "peak='x'"),
    ({"required": 5}, TypeError, "required=5"),
    ({"ladder": 5}, TypeError, "ladder=5"),
    ({"required": "C"}, TypeError, "required='C'"),
    ({"variants": [1]}, TypeError, "variants"),
    ({"condition_estimate": "yes"}, TypeError, "condition_estimate"),
])
def test_register_solver_refuses_what_it_cannot_use(kw, etype, needle):
    with pytest.raises(etype, match=needle.replace("(", "\\(").replace("[", "\\[")):
        la.register_solver("t-bad", tasks=("regression",), paper="t", equations="-", **kw)
    assert "t-bad" not in la.solvers()


def test_register_solver_refuses_a_function_without_precision():
    with pytest.raises(TypeError, match="precision"):
        la.register_solver("t-noprec", tasks=("regression",), paper="t", equations="-")(lambda X, y: None)
    assert "t-noprec" not in la.solvers()
