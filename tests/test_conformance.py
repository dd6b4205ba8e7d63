"""One conformance battery over the solver registry x the precision registry.

Every registered solver gets the same checks, so a new solver or precision
is tested by adding one registry line:

* its solution agrees with ``reference_solve`` of the very system it formed
  (in its own precision) to c * kappa * u;
* its coefficients are in the precision's dtype;
* it never modifies the caller's arrays;
* bad hyper-parameters and data raise typed errors that name the argument;
* its exact-model hook (``SolverInfo.exact_model``) agrees with a run of the
  solver in mp40, within the certified digits of the exact model.
"""
import numpy as np
import pytest

import lssvm_analysis as la

SOLVERS = la.solvers()


def _cases(with_system=False, *, configs=False):
    """(solver, precision[, variant configuration]) over the registries: nothing is listed by hand."""
    out = []
    for name in la.solvers():  # read at call time: a solver registered later is included
        info = la.get_solver(name)
        if with_system and info.system is None:
            continue
        for prec in info.supported_precisions():
            if configs:
                out += [pytest.param(name, prec, cfg, id=f"{info.configuration_label(cfg)}-{prec}")
                        for cfg in info.configurations()]
            else:
                out.append(pytest.param(name, prec, id=f"{name}-{prec}"))
    return out


def _problem(name, precision, rng):
    """The solver's own example problem (n = 40 in every precision: mp runs on FLINT), its task first."""
    info = la.get_solver(name)
    pb = info.example_problem(n=40, rng=rng)
    kw = {k: v for k, v in pb.params.items() if k not in ("C", "sigma2")}
    return pb.X, pb.y, kw


def _relative_error(fit, unpacked):
    """max(|coef - coef*|, |b - b*|) / max(|coef*|, |b*|), evaluated in mp80."""
    mp = la.get_precision("mp80")
    coef, ref = mp.asarray(fit.coef_), mp.asarray(unpacked["coef"])
    num, den = max(abs(v) for v in coef - ref), max(abs(v) for v in ref)
    if unpacked.get("bias") is not None:
        b, b_ref = mp.scalar(fit.bias_), mp.scalar(unpacked["bias"])
        num, den = max(num, abs(b - b_ref)), max(den, abs(b_ref))
    return float(num / den)


@pytest.mark.parametrize("C", [10.0, 1e4])
@pytest.mark.parametrize("name, precision, config", _cases(with_system=True, configs=True))
def test_solution_matches_certified_reference(name, precision, config, C, rng):
    X, y, kw = _problem(name, precision, rng)
    kw.update(config)
    p = la.get_precision(precision)
    fit = la.fit(name, X, y, precision=precision, C=C, sigma2=1.0, **kw)
    assert fit.status == "ok", fit.breakdown
    A, rhs, unpack = la.get_solver(name).system(X, y, fit, C=C, sigma2=1.0, **kw)
    ref = la.reference_solve(A, rhs, digits=int(p.digits) + 10)
    kappa = la.condition_number(A, p=np.inf)
    kappa = float(getattr(kappa, "value", kappa))
    err = _relative_error(fit, unpack(ref.x))
    # LAPACK's acceptance threshold on error / (kappa u) is 30 (xGET04/xPOT04):
    # a backward-stable solve gives error <= c(n) kappa u with modest c(n).
    # The CG solver stops on a residual tolerance of the same order (see
    # lssvm_analysis.solvers.suykens), so the same constant applies.
    assert err <= 30 * kappa * p.unit_roundoff, (err, kappa)


@pytest.mark.parametrize("name, precision", _cases())
def test_coefficients_keep_dtype_and_inputs_untouched(name, precision, rng):
    X, y, kw = _problem(name, precision, rng)
    X0, y0 = X.copy(), y.copy()
    X.flags.writeable = False  # any attempt to write raises
    y.flags.writeable = False
    fit = la.fit(name, X, y, precision=precision, C=10.0, sigma2=1.0, **kw)
    assert fit.status == "ok"
    p = la.get_precision(precision)
    assert np.asarray(fit.coef_).dtype == p.dtype
    if p.dtype == object:
        assert all(v.context.prec == p.ctx.prec for v in fit.coef_)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    assert not np.shares_memory(fit.X_support_, X)
    assert fit.predict(X).dtype == np.float64


BAD = [
    ({"C": 0.0}, "C"), ({"C": -1.0}, "C"), ({"sigma2": 0.0}, "sigma2"),
    ({"sigma2": -2.0}, "sigma2"), ({"precision": "float16"}, "precision"),
    ({"precision": "mp100000"}, "precision"),
]


@pytest.mark.parametrize("bad, argname", BAD)
@pytest.mark.parametrize("name", SOLVERS)
def test_bad_hyperparameters_raise_named_errors(name, bad, argname, rng):
    info = la.get_solver(name)
    if argname != "precision" and not info.accepts(argname):
        pytest.skip(f"{name} takes no {argname}")
    X, y, kw = _problem(name, "float64", rng)
    kw = {**kw, **{k: 1.0 for k in ("C", "sigma2") if info.accepts(k)}, **bad}
    precision = kw.pop("precision", "float64")
    with pytest.raises(ValueError) as exc:
        la.fit(name, X, y, precision=precision, **kw)
    assert argname in str(exc.value) and repr(bad[argname]) in str(exc.value)


@pytest.mark.parametrize("name", SOLVERS)
def test_bad_data_raise_named_errors(name, rng):
    X, y, kw = _problem(name, "float64", rng)
    Xnan = X.copy()
    Xnan[3, 1] = np.nan
    with pytest.raises(ValueError, match="X"):
        la.fit(name, Xnan, y, **kw)
    with pytest.raises(ValueError, match=r"X.shape=\(40, 2\), y.shape=\(39,\)"):
        la.fit(name, X, y[:-1], **kw)


def test_unknown_solver_is_named():
    with pytest.raises(la.UnknownSolverError, match="'lssvm-nope'"):
        la.fit("lssvm-nope", np.zeros((3, 1)), np.zeros(3))


@pytest.mark.parametrize("name", [n for n in SOLVERS if la.get_solver(n).precisions is not None])
def test_undeclared_precision_is_refused_by_name(name, rng):
    """A solver that declares its precisions refuses the others instead of pretending."""
    info = la.get_solver(name)
    other = next(p for p in la.precisions() if p not in info.supported_precisions())
    X, y, kw = _problem(name, "float64", rng)
    with pytest.raises(la.UnsupportedPrecisionError, match=repr(other)):
        la.fit(name, X, y, precision=other, **kw)


@pytest.mark.parametrize("name", [n for n in SOLVERS if la.get_solver(n).variants])
def test_unknown_variant_is_refused_by_name(name, rng):
    info = la.get_solver(name)
    option = next(iter(info.variant_options()))
    X, y, kw = _problem(name, "float64", rng)
    with pytest.raises(ValueError, match=f"{option}='no-such-variant'"):
        la.fit(name, X, y, **{**kw, option: "no-such-variant"})


def _exact_cases():
    """Every registered solver with an exact-model hook, in every configuration (registry-driven)."""
    out = []
    for name in la.solvers():
        info = la.get_solver(name)
        if info.exact_model is not None and info.supports_precision("mp40"):
            out += [pytest.param(name, cfg, id=info.configuration_label(cfg))
                    for cfg in info.configurations()]
    return out


@pytest.mark.parametrize("name, config", _exact_cases())
def test_exact_model_hook_matches_an_mp_run(name, config, rng):
    """The exact model (double-double kernel, certified solve) against the solver run in mp40.

    The mp40 run forms its kernel and system with u = 1e-40 per operation; whatever
    its variant (a literal one squares the condition: kappa(H) = kappa(M)^2), its
    model error is at most c n kappa_H u40 with c = 30 (LAPACK's threshold, as above)
    and kappa_H = problem_condition ** (1 / condition_power) the condition of the
    square system.  The exact model is certified to ``digits``, so the two differ by
    at most 10^-digits plus that.  The least-squares families' escalated route
    (``ExactProblem.wider``, balls at 256 bits) is held to the same bound and to the DD route.
    """
    from lssvm_analysis.analysis.model_error import model_errors, solve_exact_model

    info = la.get_solver(name)
    X, y, kw = _problem(name, "mp40", rng)
    kw.update(config)
    fit = la.fit(name, X, y, precision="mp40", C=10.0, sigma2=1.0, **kw)
    assert fit.status == "ok", fit.breakdown
    problem = info.exact_model(X, y, fit, C=10.0, sigma2=1.0, **kw)
    exact = solve_exact_model(problem)
    assert exact.solve_digits >= 30 and exact.digits >= 15, exact
    kappa_sq = exact.problem_condition ** (1.0 / problem.condition_power)
    err = model_errors(fit, exact)["model_error"]
    bound = 10.0 ** -exact.digits + 30 * len(y) * kappa_sq * la.get_precision("mp40").unit_roundoff
    assert err <= bound, (err, bound, exact)
    if problem.wider is not None:
        # the escalated route (the same problem in 256-bit balls, Zhao & Sun's (7) / Vieira's D_*)
        # against the same mp40 run, with the same bound, and against the DD route: both contain
        # the exact model, so they differ by at most the sum of their certified error bounds
        wide = solve_exact_model(problem.wider(256))
        assert wide.digits >= 29, wide
        assert model_errors(fit, wide)["model_error"] <= 10.0 ** -wide.digits + bound - 10.0 ** -exact.digits
        diff = max(abs(float(a - b)) for a, b in zip(exact.vector(), wide.vector()))
        assert diff <= exact.error_bound + wide.error_bound, (diff, exact, wide)
    for key, value in problem.choices.items():  # the frozen choices are the fit's own
        assert tuple(np.atleast_1d(value)) == tuple(
            np.atleast_1d(fit.diagnostics.get(key, fit.support_ if key == "support" else None)))
