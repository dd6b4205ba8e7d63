"""The conformance battery, written once: the project's tests and a user's CI run the same checks.

Each ``check_*`` function takes a registered solver's name (and a precision,
a variant configuration, a random generator where it needs them), runs one
property and raises ``AssertionError`` with the figures when it does not
hold.  :func:`solver_checks` lists the checks that apply to a solver (from
its registry entry: its precisions, variants, system, exact model and peak
memory declaration), :func:`check_solver` runs them all, the way
``sklearn.utils.estimator_checks.check_estimator`` does for an estimator.
``tests/test_conformance.py`` parametrizes over the same functions.
"""
from __future__ import annotations

import functools

import numpy as np

from ..analysis.model_error import model_errors, solve_exact_model
from ..analysis.reference import condition_number, reference_solve
from ..arith.precision import get_precision, precisions
from ..core.exceptions import UnknownSolverError, UnsupportedPrecisionError
from ..linalg.memory import traced_peak
from ..solvers import fit, get_solver

__all__ = ["BAD_HYPERPARAMETERS", "LAPACK_THRESHOLD", "example", "check_matches_reference",
           "check_dtype_and_inputs_untouched", "check_bad_hyperparameter", "check_bad_data",
           "check_unknown_solver", "check_undeclared_precision", "check_unknown_variant",
           "check_exact_model_hook", "check_deterministic", "check_peak_memory", "check_condition_estimate",
           "check_fuzz", "reference_bound", "same_model"]

#: LAPACK's acceptance threshold on error / (kappa u) and on residual / (n u) (xGET04/xPOT04,
#: dtest.in "Threshold value of test ratio"): a backward-stable solve passes with modest c(n).
LAPACK_THRESHOLD = 30.0

#: Bad hyper-parameters every solver refuses with a ValueError naming the keyword and the value.
BAD_HYPERPARAMETERS = (({"C": 0.0}, "C"), ({"C": -1.0}, "C"), ({"sigma2": 0.0}, "sigma2"),
                       ({"sigma2": -2.0}, "sigma2"), ({"precision": "float16"}, "precision"),
                       ({"precision": "mp100000"}, "precision"))

#: Training points of the checks' example problems (n = 40 in every precision: mp runs on FLINT).
N_EXAMPLE = 40


def _rng(rng):
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


def example(name: str, rng=0):
    """``(X, y, keywords)``: the solver's own example problem (its first task, n = 40) without C, sigma2."""
    pb = get_solver(name).example_problem(n=N_EXAMPLE, rng=_rng(rng))
    return pb.X, pb.y, {k: v for k, v in pb.params.items() if k not in ("C", "sigma2")}


def _hyper(name: str, C: float = 10.0, sigma2: float = 1.0) -> dict:
    """C and sigma2 for the solvers that take them (a linear solver is not given sigma2)."""
    info = get_solver(name)
    return {k: v for k, v in (("C", C), ("sigma2", sigma2)) if info.accepts(k)}


def _fit(name, X, y, *, precision, C=10.0, **kw):
    return fit(name, X, y, precision=precision, **{**_hyper(name, C), **kw})


def _relative_error(fit_, unpacked) -> float:
    """max(|m - m*|, |b - b*|) / max(|m*|, |b*|), evaluated in mp80, m the coefficients
    (``unpacked["coef"]``) or the primal weights (``unpacked["w"]``, against ``fit.w``)."""
    mp = get_precision("mp80")
    key, mine = ("w", fit_.w) if "w" in unpacked else ("coef", fit_.coef_)
    coef, ref = mp.asarray(mine), mp.asarray(unpacked[key])
    num, den = max(abs(v) for v in coef - ref), max(abs(v) for v in ref)
    if unpacked.get("bias") is not None:
        b, b_ref = mp.scalar(fit_.bias_), mp.scalar(unpacked["bias"])
        num, den = max(num, abs(b - b_ref)), max(den, abs(b_ref))
    return float(num / den)


def reference_bound(info, fit_, kappa: float, n: int) -> tuple[float, str]:
    """(bound, its name) on the relative error of a fit against the certified solution of its system.

    A solver that declares its backward error eta (``backward_bound``; an
    iterative solver its tolerance) is held to what eta gives: forward error
    <= kappa eta / (1 - kappa eta) (Higham 2002, Thm 7.2), infinite when
    kappa eta >= 1 (nothing is promised).  Without a declaration, LAPACK's
    acceptance threshold: 30 kappa u (xGET04/xPOT04; a backward-stable solve
    gives error <= c(n) kappa u with modest c(n)).
    """
    u = get_precision(fit_.precision).unit_roundoff
    if not info.declares_backward_bound:
        return LAPACK_THRESHOLD * kappa * u, "30 kappa u"
    eta = float(info.backward_bound(fit_, n))
    bound = kappa * eta / (1.0 - kappa * eta) if kappa * eta < 1 else float("inf")
    return bound, f"kappa eta/(1 - kappa eta), declared eta = {eta:.3g}"


def check_matches_reference(name: str, precision: str, config=None, C: float = 10.0, rng=0) -> None:
    """The solution agrees with ``reference_solve`` of the very system the solver formed (its
    ``system`` hook, in its own precision) to :func:`reference_bound`: the declared backward
    bound's forward bound, or 30 kappa u without a declaration."""
    info = get_solver(name)
    X, y, kw = example(name, rng)
    kw.update(config or {})
    p = get_precision(precision)
    f = _fit(name, X, y, precision=precision, C=C, **kw)
    assert f.status == "ok", f"{name} in {precision}: status {f.status!r} ({f.breakdown})"
    A, rhs, unpack = info.system(X, y, f, **_hyper(name, C), **kw)
    ref = reference_solve(A, rhs, digits=int(p.digits) + 10)
    kappa = condition_number(A, p=np.inf)
    kappa = float(getattr(kappa, "value", kappa))
    err = _relative_error(f, unpack(ref.x))
    bound, what = reference_bound(info, f, kappa, len(rhs))
    assert err <= bound, (
        f"{name}{config or ''} in {precision}, C={C:g}: error {err:.3g} against the certified solution "
        f"of its own system > {what} = {bound:.3g} (kappa_inf {kappa:.3g})")


def check_dtype_and_inputs_untouched(name: str, precision: str, rng=0) -> None:
    """The coefficients are in the precision's dtype, predictions float64, the caller's arrays untouched
    (passed read-only: any write raises) and not shared with the fit."""
    X, y, kw = example(name, rng)
    X0, y0 = X.copy(), y.copy()
    X.flags.writeable = False
    y.flags.writeable = False
    f = _fit(name, X, y, precision=precision, **kw)
    assert f.status == "ok", f"{name} in {precision}: status {f.status!r}"
    p = get_precision(precision)
    dtype = np.asarray(f.w if f.w is not None else f.coef_).dtype
    assert dtype == p.dtype, f"{name} in {precision}: coef_ dtype {dtype}, expected {p.dtype}"
    if not p.native:   # mpN: object arrays of mpf, each in the precision's context
        assert all(v.context.prec == p.ctx.prec for v in f.coef_), f"{name}: coef_ not in {precision}'s context"
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    assert not np.shares_memory(f.X_support_, X), f"{name}: X_support_ shares memory with the caller's X"
    assert f.predict(X).dtype == np.float64, f"{name}: predict does not return float64"


def _raises(exc_type, call, *needles):
    try:
        call()
    except exc_type as exc:
        missing = [s for s in needles if s not in str(exc)]
        assert not missing, f"{type(exc).__name__} message {str(exc)!r} does not name {missing}"
        return
    raise AssertionError(f"expected {exc_type.__name__}, nothing was raised by {call}")


def check_bad_hyperparameter(name: str, bad: dict, argname: str, rng=0) -> None:
    """A bad C, sigma2 or precision raises a ValueError naming the keyword and its value."""
    X, y, kw = example(name, rng)
    kw = {**kw, **_hyper(name, 1.0, 1.0), **bad}
    precision = kw.pop("precision", "float64")
    _raises(ValueError, functools.partial(fit, name, X, y, precision=precision, **kw), argname, repr(bad[argname]))


def check_bad_data(name: str, rng=0) -> None:
    """A NaN in X and mismatched X, y raise ValueErrors naming them (with the shapes)."""
    X, y, kw = example(name, rng)
    Xnan = X.copy()
    Xnan[3, 1] = np.nan
    _raises(ValueError, functools.partial(fit, name, Xnan, y, **kw), "X")
    _raises(ValueError, functools.partial(fit, name, X, y[:-1], **kw),
            f"X.shape={X.shape}", f"y.shape={(len(y) - 1,)}")


def check_unknown_solver(name: str = "lssvm-nope") -> None:
    """An unregistered name raises UnknownSolverError naming it."""
    _raises(UnknownSolverError, functools.partial(fit, name, np.zeros((3, 1)), np.zeros(3)), repr(name))


def check_undeclared_precision(name: str, rng=0) -> None:
    """A solver that declares its precisions refuses the others by name instead of pretending."""
    info = get_solver(name)
    other = next(p for p in precisions() if p not in info.supported_precisions())
    X, y, kw = example(name, rng)
    _raises(UnsupportedPrecisionError, functools.partial(fit, name, X, y, precision=other, **kw), repr(other))


def check_unknown_variant(name: str, rng=0) -> None:
    """A variant value the solver does not have is refused by name."""
    option = next(iter(get_solver(name).variant_options()))
    X, y, kw = example(name, rng)
    _raises(ValueError, functools.partial(fit, name, X, y, **{**kw, option: "no-such-variant"}),
            f"{option}='no-such-variant'")


def check_exact_model_hook(name: str, config=None, rng=0) -> None:
    """The exact model (double-double kernel, certified solve) against the solver run in mp40.

    The mp40 run forms its kernel and system with u = 1e-40 per operation; whatever
    its variant (a literal one squares the condition: kappa(H) = kappa(M)^2), its
    model error is at most c n kappa_H u40 with c = 30 (LAPACK's threshold, as above)
    and kappa_H = problem_condition ** (1 / condition_power) the condition of the
    square system.  The exact model is certified to ``digits``, so the two differ by
    at most 10^-digits plus that.  A problem with an escalated route
    (``ExactProblem.wider``, balls at 256 bits) is held to the same bound and to the DD route.
    """
    info = get_solver(name)
    X, y, kw = example(name, rng)
    kw.update(config or {})
    f = _fit(name, X, y, precision="mp40", **kw)
    assert f.status == "ok", f"{name} in mp40: status {f.status!r} ({f.breakdown})"
    problem = info.exact_model(X, y, f, **_hyper(name), **kw)
    exact = solve_exact_model(problem)
    assert exact.solve_digits >= 30 and exact.digits >= 15, f"{name}: exact model certified to too few digits: {exact}"
    kappa_sq = exact.problem_condition ** (1.0 / problem.condition_power)
    err = model_errors(f, exact)["model_error"]
    bound = 10.0 ** -exact.digits + LAPACK_THRESHOLD * len(y) * kappa_sq * get_precision("mp40").unit_roundoff
    assert err <= bound, f"{name}{config or ''}: mp40 run differs from its exact model by {err:.3g} > {bound:.3g} ({exact})"
    if problem.wider is not None:
        # both routes contain the exact model, so they differ by at most the sum of their certified bounds
        wide = solve_exact_model(problem.wider(256))
        assert wide.digits >= 29, f"{name}: the 256-bit route certifies {wide.digits:.3g} digits"
        assert model_errors(f, wide)["model_error"] <= 10.0 ** -wide.digits + bound - 10.0 ** -exact.digits
        diff = max(abs(float(a - b)) for a, b in zip(exact.vector(), wide.vector()))
        assert diff <= exact.error_bound + wide.error_bound, (diff, exact, wide)
    for key, value in problem.choices.items():  # the frozen choices are the fit's own
        mine = f.diagnostics.get(key, f.support_ if key == "support" else None)
        assert tuple(np.atleast_1d(value)) == tuple(np.atleast_1d(mine)), f"{name}: frozen {key} is not the fit's"


def same_model(a, b) -> bool:
    """Whether two fits hold the same model bit for bit (NaN equal to NaN: a NaN model is a
    status question, :func:`lssvm_analysis.fit` never returns one as 'ok')."""
    def eq(u, v):
        if u is None or v is None:
            return u is None and v is None
        u, v = np.asarray(u), np.asarray(v)
        if u.shape != v.shape or u.dtype != v.dtype:
            return False
        if u.dtype.kind in "fc":
            return bool(np.array_equal(u, v, equal_nan=True))
        # any other scalar (mpN's mpf objects): element by element, NaN equal to NaN
        return all(x == y or (x != x and y != y) for x, y in zip(u.ravel(), v.ravel()))
    return (eq(a.coef_, b.coef_) and eq(a.w, b.w) and eq(a.bias_, b.bias_)
            and np.array_equal(a.support_, b.support_))


def check_deterministic(name: str, precision: str, rng=0) -> None:
    """Two fits of the same data with the same keywords (and the same seed for a solver with random
    choices) give the same status and the same model, bit for bit."""
    info = get_solver(name)
    X, y, kw = example(name, rng)
    if info.takes_rng:   # an integer seed (a Generator would be consumed by the first fit)
        kw["rng"] = kw["rng"] if isinstance(kw.get("rng"), (int, np.integer)) else 12345
    a, b = (_fit(name, X, y, precision=precision, **kw) for _ in range(2))
    assert a.status == b.status, f"{name} in {precision}: statuses {a.status!r} and {b.status!r}"
    assert same_model(a, b), f"{name} in {precision}: two identical fits differ"


def check_condition_estimate(name: str, precision: str, rng=0) -> None:
    """A solver that declares ``condition_estimate`` records a finite positive
    ``diagnostics["kappa_estimate"]`` (>= 1: a condition number) with its method."""
    X, y, kw = example(name, rng)
    f = _fit(name, X, y, precision=precision, **kw)
    kappa = f.diagnostics.get("kappa_estimate", float("nan"))
    assert np.isfinite(kappa) and kappa >= 1, (
        f"{name} in {precision}: declares condition_estimate=True, got kappa_estimate={kappa!r} "
        f"(kappa_method={f.diagnostics.get('kappa_method')!r})")


#: Scales of the fuzz problems: data, target and C over most of float32's range.
FUZZ_SCALES = ((1.0, 1.0, 10.0), (1e-3, 1.0, 1e4), (1.0, 1e-20, 10.0), (1.0, 1e20, 1e-3), (1e3, 1e-5, 1e8),
               (1.0, 1.0, 1e30))


def check_fuzz(name: str, precision: str, rng=0) -> None:
    """Scaled versions of the example problem (:data:`FUZZ_SCALES`): a typed error (ValueError,
    TypeError, MemoryError), a status that is not 'ok', or an 'ok' model that predicts finite
    float64 values -- never another exception or an unusable 'ok'."""
    X, y, kw = example(name, rng)
    task = get_solver(name).example_problem(n=4, rng=0).task
    for sx, sy, C in FUZZ_SCALES:
        yy = y if task == "classification" else y * sy
        try:
            f = _fit(name, X * sx, yy, precision=precision, C=C, **kw)
        except (ValueError, TypeError, MemoryError):
            continue
        except Exception as exc:  # noqa: BLE001 - the check is that nothing else escapes
            raise AssertionError(f"{name} in {precision} at X*{sx:g}, y*{sy:g}, C={C:g}: untyped "
                                 f"{type(exc).__name__}: {exc}") from exc
        if f.status == "ok":
            pred = f.predict(X * sx)
            assert pred.dtype == np.float64 and np.all(np.isfinite(pred)), (
                f"{name} in {precision} at X*{sx:g}, y*{sy:g}, C={C:g}: status 'ok' with non-finite predictions")


#: Training points of the peak-memory check (the hardware precisions; mp: 40, software entries).
PEAK_N = 300


def check_peak_memory(name: str, precision: str, rng=0) -> None:
    """The fit's traced peak memory (tracemalloc: NumPy's and Python's allocations) is within the
    solver's declaration (``SolverInfo.peak``, which its up-front memory guard uses)."""
    info = get_solver(name)
    n = PEAK_N if get_precision(precision).native else N_EXAMPLE
    pb = info.example_problem(n=n, rng=_rng(rng))
    fit(name, pb.X, pb.y, precision=precision, **pb.params)   # warm caches (LAPACK handles, imports)
    f, measured = traced_peak(fit, name, pb.X, pb.y, precision=precision, **pb.params)
    assert f is not None and hasattr(f, "status"), f"{name} in {precision}: no Fit to measure"
    declared = info.peak.traced_bytes(n, precision, r=info.peak.r_of(f))
    assert measured <= declared, (f"{name} in {precision} at n={n}: traced peak {measured} bytes > "
                                  f"declared {declared:.0f} bytes")
