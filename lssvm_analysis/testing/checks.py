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
from ..solvers import fit, get_solver, solvers

__all__ = ["BAD_HYPERPARAMETERS", "LAPACK_THRESHOLD", "example", "check_matches_reference",
           "check_dtype_and_inputs_untouched", "check_bad_hyperparameter", "check_bad_data",
           "check_unknown_solver", "check_undeclared_precision", "check_unknown_variant",
           "check_exact_model_hook", "check_deterministic", "check_peak_memory", "solver_checks",
           "check_solver"]

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


def _relative_error(fit_, unpacked) -> float:
    """max(|coef - coef*|, |b - b*|) / max(|coef*|, |b*|), evaluated in mp80."""
    mp = get_precision("mp80")
    coef, ref = mp.asarray(fit_.coef_), mp.asarray(unpacked["coef"])
    num, den = max(abs(v) for v in coef - ref), max(abs(v) for v in ref)
    if unpacked.get("bias") is not None:
        b, b_ref = mp.scalar(fit_.bias_), mp.scalar(unpacked["bias"])
        num, den = max(num, abs(b - b_ref)), max(den, abs(b_ref))
    return float(num / den)


def check_matches_reference(name: str, precision: str, config=None, C: float = 10.0, rng=0) -> None:
    """The solution agrees with ``reference_solve`` of the very system the solver formed (its
    ``system`` hook, in its own precision) to 30 kappa u.

    LAPACK's acceptance threshold on error / (kappa u) is 30 (xGET04/xPOT04): a
    backward-stable solve gives error <= c(n) kappa u with modest c(n).  The CG
    solver stops on a residual tolerance of the same order
    (:mod:`lssvm_analysis.solvers.suykens`), so the same constant applies.
    """
    X, y, kw = example(name, rng)
    kw.update(config or {})
    p = get_precision(precision)
    f = fit(name, X, y, precision=precision, C=C, sigma2=1.0, **kw)
    assert f.status == "ok", f"{name} in {precision}: status {f.status!r} ({f.breakdown})"
    A, rhs, unpack = get_solver(name).system(X, y, f, C=C, sigma2=1.0, **kw)
    ref = reference_solve(A, rhs, digits=int(p.digits) + 10)
    kappa = condition_number(A, p=np.inf)
    kappa = float(getattr(kappa, "value", kappa))
    err = _relative_error(f, unpack(ref.x))
    assert err <= LAPACK_THRESHOLD * kappa * p.unit_roundoff, (
        f"{name}{config or ''} in {precision}, C={C:g}: error {err:.3g} against the certified solution "
        f"of its own system > 30 kappa u = {LAPACK_THRESHOLD * kappa * p.unit_roundoff:.3g} (kappa_inf {kappa:.3g})")


def check_dtype_and_inputs_untouched(name: str, precision: str, rng=0) -> None:
    """The coefficients are in the precision's dtype, predictions float64, the caller's arrays untouched
    (passed read-only: any write raises) and not shared with the fit."""
    X, y, kw = example(name, rng)
    X0, y0 = X.copy(), y.copy()
    X.flags.writeable = False
    y.flags.writeable = False
    f = fit(name, X, y, precision=precision, C=10.0, sigma2=1.0, **kw)
    assert f.status == "ok", f"{name} in {precision}: status {f.status!r}"
    p = get_precision(precision)
    dtype = np.asarray(f.coef_).dtype
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
    info = get_solver(name)
    X, y, kw = example(name, rng)
    kw = {**kw, **{k: 1.0 for k in ("C", "sigma2") if info.accepts(k)}, **bad}
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
    f = fit(name, X, y, precision="mp40", C=10.0, sigma2=1.0, **kw)
    assert f.status == "ok", f"{name} in mp40: status {f.status!r} ({f.breakdown})"
    problem = info.exact_model(X, y, f, C=10.0, sigma2=1.0, **kw)
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


def check_deterministic(name: str, precision: str, rng=0) -> None:
    """Two fits of the same data with the same keywords (and the same seed for a solver with random
    choices) give the same model, bit for bit."""
    info = get_solver(name)
    X, y, kw = example(name, rng)
    if info.takes_rng:   # an integer seed (a Generator would be consumed by the first fit)
        kw["rng"] = kw["rng"] if isinstance(kw.get("rng"), (int, np.integer)) else 12345
    a, b = (fit(name, X, y, precision=precision, C=10.0, sigma2=1.0, **kw) for _ in range(2))
    assert a.status == b.status, f"{name} in {precision}: statuses {a.status!r} and {b.status!r}"
    if a.coef_ is not None:
        same = (np.array_equal(np.asarray(a.coef_), np.asarray(b.coef_)) and a.bias_ == b.bias_
                and np.array_equal(a.support_, b.support_))
        assert same, f"{name} in {precision}: two identical fits differ"


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
    declared = info.peak.traced_bytes(n, precision, r=info.peak.r_of(f))
    assert measured <= declared, (f"{name} in {precision} at n={n}: traced peak {measured} bytes > "
                                  f"declared {declared:.0f} bytes")


def solver_checks(name: str, *, precisions_=None):
    """``(label, check)`` pairs: every check of the battery that applies to solver ``name``.

    ``check()`` takes no argument; the label says what it checks.  Which checks
    apply is read from the registry: the precisions the solver declares (or
    ``precisions_``), its ``system`` hook (reference agreement), its variants,
    its ``exact_model`` hook (checked in mp40 when it runs there), its ``peak``
    declaration.
    """
    info = get_solver(name)
    precs = [p for p in (precisions_ or info.supported_precisions()) if info.supports_precision(p)]
    out = []
    for prec in precs:
        if info.system is not None:
            for cfg in info.configurations():
                for C in (10.0, 1e4):
                    out.append((f"matches_reference[{info.configuration_label(cfg)}-{prec}-C={C:g}]",
                                functools.partial(check_matches_reference, name, prec, cfg, C)))
        out.append((f"dtype_and_inputs_untouched[{prec}]", functools.partial(check_dtype_and_inputs_untouched, name, prec)))
        out.append((f"deterministic[{prec}]", functools.partial(check_deterministic, name, prec)))
        if info.peak is not None:
            out.append((f"peak_memory[{prec}]", functools.partial(check_peak_memory, name, prec)))
    for bad, argname in BAD_HYPERPARAMETERS:
        if argname == "precision" or info.accepts(argname):
            out.append((f"bad_hyperparameter[{bad}]", functools.partial(check_bad_hyperparameter, name, bad, argname)))
    out.append(("bad_data", functools.partial(check_bad_data, name)))
    if info.precisions is not None:
        out.append(("undeclared_precision", functools.partial(check_undeclared_precision, name)))
    if info.variants:
        out.append(("unknown_variant", functools.partial(check_unknown_variant, name)))
    if info.exact_model is not None and info.supports_precision("mp40"):
        for cfg in info.configurations():
            out.append((f"exact_model_hook[{info.configuration_label(cfg)}]",
                        functools.partial(check_exact_model_hook, name, cfg)))
    return out


def check_solver(name: str, *, precisions=None) -> list[str]:
    """Run the conformance battery on a registered solver (the project's own, written once).

    Like ``sklearn.utils.estimator_checks.check_estimator``: every check that
    applies (:func:`solver_checks`) is run; the failures are collected and
    raised together in one ``AssertionError`` naming each check and its
    figures.  ``precisions``: restrict the precision-dependent checks.

    Returns
    -------
    list of str
        The labels of the checks that ran (all passed).
    """
    if name not in solvers():
        raise UnknownSolverError(f"expected a solver in {solvers()}, got solver={name!r}")
    failures, ran = [], []
    for label, check in solver_checks(name, precisions_=precisions):
        try:
            check()
        except AssertionError as exc:
            failures.append(f"{label}: {exc}")
        ran.append(label)
    if failures:
        raise AssertionError(f"{len(failures)} of {len(ran)} checks failed for solver {name!r}:\n"
                             + "\n".join(failures))
    return ran
