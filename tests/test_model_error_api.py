"""The public model-error API: ``la.model_error`` / ``la.exact_model`` / ``la.datasets.register``.

The gate: ``la.model_error`` gives the fit kind's ``model_digits`` on every
solver x precision of the conformance battery (the solvers with an exact
model, the precisions they declare, their example problem).  Both call the
same hook and :func:`~lssvm_analysis.analysis.model_error.fit_exact_model`
on the same fit (the solver runs on the same bits with the same keywords),
so the digits are not merely close but equal; a difference would mean two
computations of one number.
"""
import math

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.core.exceptions import UnexpectedParameterError
from lssvm_analysis.experiments import Task, execute_task
from lssvm_analysis.experiments.fit_kind import FIT_KIND_VERSION, fit_keywords, load_task_data


def _gate_cases():
    out = []
    for name in la.solvers():
        info = la.get_solver(name)
        if info.exact_model is None:
            continue
        for prec in info.supported_precisions():
            marks = () if la.get_precision(prec).native else (pytest.mark.mp,)
            out.append(pytest.param(name, prec, id=f"{name}-{prec}", marks=marks))
    return out


@pytest.fixture(scope="module")
def example_sets():
    """Each task's example problem of the registry, registered as a data set (n = 40, 10 held out)."""
    names = {}
    for task in ("regression", "classification"):
        pb = la.get_solver(la.solvers(task)[0]).example_problem(task, n=40, rng=7)
        name = f"test-model-error-{task}"
        la.datasets.register(name, la.datasets.from_arrays(name, pb.X, pb.y, task=task), replace=True)
        names[task] = name
    yield names
    for name in names.values():
        la.datasets.unregister(name)


@pytest.mark.parametrize("name, precision", _gate_cases())
def test_model_error_equals_the_fit_kinds_model_digits(name, precision, example_sets):
    info = la.get_solver(name)
    task_name = info.tasks[0]
    pb = info.example_problem(task_name, n=40, rng=7)
    params = {k: v for k, v in pb.params.items() if k != "task"}
    if not all(np.isscalar(v) for v in params.values()):
        pytest.skip(f"the fit kind cannot run {name}: its example keywords hold data ({sorted(params)}), "
                    "which a sweep's grid cannot give (accepts_combination leaves it out)")
    task = Task("fit", name, precision, example_sets[task_name], {}, params, 0, {"reference": False},
                FIT_KIND_VERSION)
    row = execute_task(task)
    assert row["status"] == "ok", row.get("message")
    ds = load_task_data(task)
    kw = fit_keywords(task, ds)
    fit = la.fit(name, ds.X_train, ds.y_train, precision=precision, **kw)
    got = la.model_error(fit, ds.X_train, ds.y_train, ds.X_test[:200], **kw)
    want = row["model_digits"]
    if math.isnan(want):
        assert math.isnan(got.model_digits) and "not certified" in row["exact_note"], (got, row["exact_note"])
        return
    # the same computation on the same bits: equal, not merely within a digit
    assert got.model_digits == want, (got, want)
    assert got.prediction_digits == row["prediction_digits"]
    assert got.problem_condition == row["problem_condition"] and got.exact_digits == row["exact_digits"]
    assert got.route == row["exact_method"]
    assert got.choices_agree == row["choices_agree"]


def _sinc(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, (n, 2))
    return X, np.sinc(X[:, 0]) + 0.05 * X[:, 1]


def test_model_error_result_and_exact_model():
    X, y = _sinc()
    X0, y0 = X.copy(), y.copy()
    fit = la.fit("lssvm-schur", X, y, precision="float32", C=1e4, sigma2=1.0)
    err = la.model_error(fit, X, y, X[:10])
    # float32 at problem kappa ~1e6: the a-priori bound c kappa u32 leaves a few digits at most
    assert 0 < err.model_digits <= -math.log10(la.get_precision("float32").unit_roundoff)
    assert err.exact_digits >= 10 and err.problem_condition > 1 and err.choices_agree is None
    assert "double-double" in err.route and f"{err.model_digits:.2f} model digits" in str(err)
    ex = la.exact_model("lssvm-schur", X, y, fit)
    assert ex.digits == err.exact_digits and ex.problem_condition == err.problem_condition
    # without a fit the solver is run once (float64) to freeze its choices; lssvm-schur has none
    ex2 = la.exact_model("lssvm-schur", X, y, C=1e4, sigma2=1.0)
    assert max(abs(float(a - b)) for a, b in zip(ex.vector(), ex2.vector())) <= ex.error_bound + ex2.error_bound
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_no_exact_model_is_a_named_error_saying_why():
    X, y = _sinc()
    fit = la.fit("svm-eps", X, y, C=1.0, sigma2=1.0)
    with pytest.raises(la.NoExactModelError, match="svm-eps.*QP"):
        la.model_error(fit, X, y)
    with pytest.raises(la.NoExactModelError, match="svm-eps"):
        la.exact_model("svm-eps", X, y, fit)
    assert issubclass(la.NoExactModelError, ValueError)


def test_model_error_bad_input_is_typed():
    X, y = _sinc()
    fit = la.fit("lssvm-schur", X, y, C=10.0, sigma2=1.0)
    with pytest.raises(TypeError, match="fit="):
        la.model_error("lssvm-schur", X, y)
    with pytest.raises(ValueError, match=r"X.shape=\(60, 2\), y.shape=\(59,\)"):
        la.model_error(fit, X, y[:-1])
    with pytest.raises(ValueError, match="fit.solver='lssvm-schur'"):
        la.exact_model("krr", X, y, fit)


def test_datasets_register_feeds_load_and_refuses_bad_input():
    X, y = _sinc(40)
    loader = la.datasets.from_arrays("mine", X, y)
    info = la.datasets.register("test-mine", loader)
    try:
        assert info.task == "regression" and "test-mine" in la.datasets.datasets("regression")
        d = la.datasets.load("test-mine", seed=3)
        assert d.X_train.shape == (30, 2) and d.X_test.shape == (10, 2)
        assert sorted(np.concatenate([d.y_train, d.y_test])) == sorted(y)
        with pytest.raises(ValueError, match="name='test-mine'"):
            la.datasets.register("test-mine", loader)
    finally:
        la.datasets.unregister("test-mine")
    assert "test-mine" not in la.datasets.datasets()
    with pytest.raises(ValueError, match="name='sinc'"):
        la.datasets.register("sinc", loader, replace=True)
    with pytest.raises(TypeError, match="loader="):
        la.datasets.register("x", 3)
    with pytest.raises(ValueError, match="task='ranking'"):
        la.datasets.register("x", loader, task="ranking")
    with pytest.raises(ValueError, match="non-finite"):
        la.datasets.from_arrays("bad", np.full((3, 1), np.nan), np.zeros(3))
    with pytest.raises(TypeError, match=r"for X, got dtype=<U"):   # numeric text is refused, not parsed
        la.datasets.from_arrays("bad", X.astype(str), y)
    # a built-in loader's option (test_no_network_is_touched passes outliers=True to every regression set)
    with pytest.raises(UnexpectedParameterError, match=r"\('seed', 'scale'\).*got outliers=True"):
        loader(seed=0, outliers=True)
    labels = np.where(y > np.median(y), 5.0, 2.0)
    d = la.datasets.from_arrays("cls", X, labels)(seed=0)
    assert d.task == "classification" and set(np.unique(d.as_pm1().y_train)) == {-1.0, 1.0}


def test_help_names_the_public_api():
    doc = la.__doc__
    for name in ("model_error", "exact_model", "compare", "register_solver", "datasets.register",
                 "literal", "lssvm_analysis.testing"):
        assert name in doc, name
