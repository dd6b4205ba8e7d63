"""The per-solver time models and ``la.fit(..., max_seconds=...)`` (issue 42).

No test here times anything: the refusals are asserted on the error and its message (a refused
fit does no work, so it returns at once; the asv benchmark ``bench_cost`` tracks the models'
accuracy, measured / estimated seconds).
"""
import math

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.linalg import cost
from lssvm_analysis.linalg.cost import FitTooCostlyError, TimeModel, TimeTerm
from lssvm_analysis.testing import battery

#: The user's sizes of issue 42: 2e6 points of one feature.  X is a broadcast view (16 bytes): a
#: refused fit never reads it, and one that was not refused would stop at once on its validation
#: (one class, a constant column), not run for hours: the test fails, it does not hang.
_N = 2_000_000
_X = np.broadcast_to(np.zeros((1, 1)), (_N, 1))
_Y = np.broadcast_to(np.ones(1), (_N,))


def get_time(solver):
    return la.get_solver(solver).time


@pytest.mark.parametrize("solver, precision", [("svm-c", "float64"), ("svm-eps", "float64"),
                                               ("reduced-lssvr", "mp50")])
def test_issue_sizes_are_refused_by_the_cost_model(solver, precision):
    with pytest.raises(FitTooCostlyError) as exc:
        la.fit(solver, _X, _Y, precision=precision)
    e = exc.value
    assert isinstance(e, ValueError) and e.limit == cost.DEFAULT_MAX_SECONDS
    assert e.estimate_seconds > cost.MARGIN * e.limit
    msg = str(e)
    assert "\n" not in msg
    for part in (repr(solver), f"n={_N}", "d=1", precision, f"{e.estimate_seconds:.3g} s",
                 f"max_seconds={cost.DEFAULT_MAX_SECONDS:g}", "max_seconds=None"):
        assert part in msg, (part, msg)
    assert get_time(solver).formula(precision) in msg   # the model it was estimated by


def test_the_error_is_exported_from_la():
    assert la.FitTooCostlyError is FitTooCostlyError and "FitTooCostlyError" in la.__all__


def test_a_lower_limit_refuses_what_the_default_runs():
    """The estimate at n = 500 is far below the default limit and far above 1e-9 s: the limit decides,
    and ``max_seconds=None`` runs what it refused."""
    X = np.random.default_rng(0).uniform(-3, 3, (500, 2))
    y = np.sinc(X[:, 0])
    est = get_time("lssvm-schur").seconds(500, 2, "float64")
    assert cost.MARGIN * 1e-9 < est < cost.DEFAULT_MAX_SECONDS
    with pytest.raises(FitTooCostlyError, match="lssvm-schur"):
        la.fit("lssvm-schur", X, y, max_seconds=1e-9)
    assert la.fit("lssvm-schur", X, y, max_seconds=None).status == "ok"


def test_the_override_runs_a_fit():
    X = np.random.default_rng(0).uniform(-3, 3, (40, 2))
    y = np.sinc(X[:, 0])
    f = la.fit("lssvm-schur", X, y, max_seconds=None)
    assert f.status == "ok"
    g = la.fit("lssvm-schur", X, y, max_seconds=1e6)
    np.testing.assert_array_equal(f.coef_, g.coef_)


@pytest.mark.parametrize("bad, etype", [(0, ValueError), (-1, ValueError), ("x", TypeError),
                                        (math.nan, ValueError), (math.inf, ValueError), (True, TypeError)])
def test_bad_max_seconds_is_a_typed_error_naming_it(bad, etype):
    X = np.random.default_rng(0).uniform(-3, 3, (20, 2))
    with pytest.raises(etype, match=r"max_seconds=") as exc:
        la.fit("krr", X, np.sinc(X[:, 0]), max_seconds=bad)
    assert repr(bad) in str(exc.value) or str(bad) in str(exc.value)


def test_every_registered_solver_declares_a_time_model():
    missing = [n for n in la.solvers() if not isinstance(la.get_solver(n).time, TimeModel)]
    assert missing == []
    for n in la.solvers():
        info = la.get_solver(n)
        assert info.time.measured, n          # where its figures come from
        for p in info.supported_precisions():
            assert info.time.seconds(100, 2, p, r=info.time.r_for(100, {})) is not None, (n, p)


@pytest.mark.parametrize("solver", la.solvers())
def test_the_estimate_is_monotone_in_n(solver):
    info = la.get_solver(solver)
    for p in info.supported_precisions():
        battery.check_time_model(solver, p)
        sizes = np.unique(np.geomspace(2, 1e7, 60).astype(int))
        est = [info.time.seconds(int(n), 3, p, r=info.time.r_for(int(n), {})) for n in sizes]
        assert all(a <= b for a, b in zip(est, est[1:])), (solver, p)


def test_a_plugin_without_a_time_model_is_never_refused(registries_restored):
    @la.register_solver("test-cost-no-model", tasks=("regression",), paper="plugin", equations="-")
    def _f(X, y, *, precision="float64", C=1.0):
        return la.fit("krr", X, y, precision=precision, C=C)

    X = np.random.default_rng(0).uniform(-3, 3, (20, 2))
    assert la.get_solver("test-cost-no-model").time is None
    assert la.fit("test-cost-no-model", X, np.sinc(X[:, 0]), max_seconds=1e-12).status == "ok"
    assert "time_model" in la.testing.skipped_checks("test-cost-no-model")
    assert "time model" in la.testing.skipped_checks("test-cost-no-model")["time_model"]
    assert "time_model" not in la.testing.skipped_checks("krr")
    assert any(label.startswith("time_model[") for label, _ in la.testing.solver_checks("krr"))


def test_a_plugin_model_is_honoured_and_validated(registries_restored):
    model = TimeModel({"float64": (TimeTerm(1e-3, n=2),)})
    assert set(model.terms) == {"hw8"}          # a precision's name is stored under its engine key

    @la.register_solver("test-cost-model", tasks=("regression",), paper="plugin", equations="-", time=model)
    def _f(X, y, *, precision="float64", C=1.0):
        return la.fit("krr", X, y, precision=precision, C=C)

    X = np.random.default_rng(0).uniform(-3, 3, (200, 2))
    with pytest.raises(FitTooCostlyError) as exc:          # 1e-3 * 201^2 = 40 s > 10 x 1 s
        la.fit("test-cost-model", X, np.sinc(X[:, 0]), max_seconds=1.0)
    assert exc.value.estimate_seconds == pytest.approx(1e-3 * 201 ** 2)
    assert la.fit("test-cost-model", X, np.sinc(X[:, 0]), max_seconds=10.0).status == "ok"   # 40 s <= 100 s
    # no terms for float32's engine: no estimate, never refused
    assert la.fit("test-cost-model", X, np.sinc(X[:, 0]), precision="float32", max_seconds=1e-9).status == "ok"


@pytest.mark.parametrize("kwargs, etype, arg", [
    (dict(time="x"), TypeError, "time"), (dict(time=5), TypeError, "time"),
])
def test_register_refuses_a_bad_time_model(kwargs, etype, arg, registries_restored):
    with pytest.raises(etype, match=rf"\b{arg}="):
        la.register_solver("test-cost-bad", tasks=("regression",), paper="plugin", equations="-", **kwargs)


@pytest.mark.parametrize("build, etype, arg", [
    (lambda: TimeTerm(-1.0, n=2), ValueError, "seconds"), (lambda: TimeTerm("x"), TypeError, "seconds"),
    (lambda: TimeTerm(1.0, n=-1), ValueError, "n"), (lambda: TimeTerm(1.0, r=math.nan), ValueError, "r"),
    (lambda: TimeTerm(True), TypeError, "seconds"), (lambda: TimeModel({}), TypeError, "terms"),
    (lambda: TimeModel({"hw8": (1.0,)}), TypeError, "terms"), (lambda: TimeModel("x"), TypeError, "terms"),
    (lambda: TimeModel({"hw8": TimeTerm(1.0)}, r=5), TypeError, "r"),
    (lambda: TimeModel({"hw8": TimeTerm(1.0)}, r_default=2.0), ValueError, "r_default"),
])
def test_bad_model_fields_are_typed_errors_naming_them(build, etype, arg):
    with pytest.raises(etype, match=rf"\b{arg}="):
        build()


def test_the_second_size_defaults_to_the_solvers_own():
    """reduced-lssvr's default support is ceil(0.1 n) (zhao_sun._support): the model takes the same."""
    m = get_time("reduced-lssvr")
    assert m.r_for(1000, {}) == 100 and m.r_for(1000, {"n_support": 7}) == 7
    assert m.seconds(1000, 1, "float64", r=100) > m.seconds(1000, 1, "float64", r=7)


def _costly_plugin():
    """A solver whose declared model puts every fit at >= 1e6 s (1 s per (n+1)^3, n >= 99): refused by
    default, so that a sweep task that runs it shows the protocol scope."""
    @la.register_solver("test-cost-costly", tasks=("regression",), paper="plugin", equations="-",
                        time=TimeModel({"hw8": (TimeTerm(1.0, n=3),)}))
    def _f(X, y, *, precision="float64", C=1.0, sigma2=1.0, kernel="rbf"):
        return la.fit("krr", X, y, precision=precision, C=C, sigma2=sigma2, kernel=kernel)


def test_the_protocol_scope_lifts_the_limit(registries_restored):
    _costly_plugin()
    X = np.random.default_rng(0).uniform(-3, 3, (100, 2))
    with pytest.raises(FitTooCostlyError):
        la.fit("test-cost-costly", X, np.sinc(X[:, 0]))
    with cost.protocol_scope():
        with cost.protocol_scope():
            pass
        assert la.fit("test-cost-costly", X, np.sinc(X[:, 0])).status == "ok"   # still inside the outer scope
    with pytest.raises(FitTooCostlyError):
        la.fit("test-cost-costly", X, np.sinc(X[:, 0]))


def test_sweep_tasks_are_never_refused_by_the_interactive_limit(registries_restored):
    """The report's plans and compare run their fits as sweep tasks: the runner's protocol scope."""
    from lssvm_analysis.experiments import SweepSpec, run_sweep

    _costly_plugin()
    df = run_sweep(SweepSpec("cost", kind="fit", solvers=["test-cost-costly"], precisions=["float64"],
                             datasets=["sinc"], seeds=[0]), ":memory:", n_jobs=1, progress=False)
    assert len(df) >= 1 and set(df["status"]) == {"ok"}, df[["status", "message"]].to_dict("records")


def test_an_unknown_engine_key_is_refused_naming_terms():
    with pytest.raises(ValueError, match=r"terms=") as exc:
        TimeModel({"float16": (TimeTerm(1.0, n=2),)})
    assert "'float16'" in str(exc.value)
    assert set(TimeModel({"longdouble": TimeTerm(1.0), "mp50": TimeTerm(1.0)}).terms) == {"sw16", "mp"}


def test_a_solver_taking_max_seconds_is_refused_at_registration(registries_restored):
    with pytest.raises(ValueError, match="max_seconds"):
        @la.register_solver("test-cost-clash", tasks=("regression",), paper="plugin", equations="-")
        def _f(X, y, *, precision="float64", max_seconds=1.0):
            return None
    assert "test-cost-clash" not in la.solvers()
