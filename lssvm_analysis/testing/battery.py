"""The one battery every registered solver passes: :func:`check_solver` and its report.

:func:`solver_checks` reads from the registry entry which checks apply and why
the others do not; :func:`check_solver` runs them and returns a
:class:`SolverReport` (the labels that ran, the checks not run with their
reasons, what the caller accepted).  A solver that nothing can measure for
accuracy (no ``system`` and no ``exact_model`` hook run in mp40) fails unless
the caller says ``accuracy="skip"``, and the report then names it.
"""
from __future__ import annotations

import functools

from ..arith.precision import get_precision
from ..core.exceptions import UnknownSolverError, UnsupportedPrecisionError
from ..core.validation import check_str, short_repr
from ..solvers import get_solver, solvers
from . import checks as C
from .estimators import check_estimator_fast, configurations
from .report import SolverReport

__all__ = ["solver_checks", "skipped_checks", "check_solver", "ACCURACY"]

#: ``check_solver(accuracy=...)``: "required" (a solver with no accuracy check fails) or "skip"
#: (the caller accepts that its accuracy is not checked; the report says so).
ACCURACY = ("required", "skip")


def _precisions(info, given, arg: str = "precisions") -> list:
    """The precisions to check: the solver's, or ``given`` (each one it supports; refused otherwise)."""
    if given is None:
        return info.supported_precisions()
    if isinstance(given, str) or not hasattr(given, "__iter__"):
        raise TypeError(f"expected a list of precision names for {arg}, got {arg}={short_repr(given)}")
    names = [get_precision(p).name for p in given]   # UnknownPrecisionError names an unknown one
    if not names:
        raise ValueError(f"expected at least one precision for {arg} (none would check nothing), got {arg}=[]")
    bad = [p for p in names if not info.supports_precision(p)]
    if bad:
        raise UnsupportedPrecisionError(f"expected precisions among {info.supported_precisions()} for solver "
                                        f"{info.name!r}, got {arg}={list(given)!r} ({bad[0]!r} not supported)")
    return names


def solver_checks(name: str, *, precisions_=None):
    """The engine of :func:`lssvm_analysis.testing.solver_checks` (documented there)."""
    info = get_solver(name)
    out = []
    for prec in _precisions(info, precisions_, "precisions_"):
        if info.system is not None:
            for cfg in info.configurations():
                for c in (10.0, 1e4):
                    out.append((f"matches_reference[{info.configuration_label(cfg)}-{prec}-C={c:g}]",
                                functools.partial(C.check_matches_reference, name, prec, cfg, c)))
        out.append((f"dtype_and_inputs_untouched[{prec}]", functools.partial(C.check_dtype_and_inputs_untouched, name, prec)))
        out.append((f"deterministic[{prec}]", functools.partial(C.check_deterministic, name, prec)))
        out.append((f"fuzz[{prec}]", functools.partial(C.check_fuzz, name, prec)))
        if info.time is not None:
            out.append((f"time_model[{prec}]", functools.partial(check_time_model, name, prec)))
        if info.peak is not None:
            out.append((f"peak_memory[{prec}]", functools.partial(C.check_peak_memory, name, prec)))
        if info.condition_estimate:
            out.append((f"condition_estimate[{prec}]", functools.partial(C.check_condition_estimate, name, prec)))
    for bad, argname in C.BAD_HYPERPARAMETERS:
        if argname == "precision" or info.accepts(argname):
            out.append((f"bad_hyperparameter[{bad}]", functools.partial(C.check_bad_hyperparameter, name, bad, argname)))
    out.append(("bad_data", functools.partial(C.check_bad_data, name)))
    if info.precisions is not None:
        out.append(("undeclared_precision", functools.partial(C.check_undeclared_precision, name)))
    if info.variants:
        out.append(("unknown_variant", functools.partial(C.check_unknown_variant, name)))
    if info.exact_model is not None and info.supports_precision("mp40"):
        for cfg in info.configurations():
            out.append((f"exact_model_hook[{info.configuration_label(cfg)}]",
                        functools.partial(C.check_exact_model_hook, name, cfg)))
    for task in info.tasks:
        for cfg in configurations(info):
            out.append((f"estimator[{info.configuration_label({**info.default_variant(), **cfg})}-{task}]",
                        functools.partial(check_estimator_fast, name, task, cfg)))
    return out


def check_time_model(name: str, precision: str) -> None:
    """The declared time model (``SolverInfo.time``) gives, where it has terms for the precision's engine,
    a positive finite estimate that does not decrease with n (n = 10 ... 1e6, r and d as ``la.fit``
    would take them); a model without terms for this engine gives None (never refused)."""
    model = get_solver(name).time
    sizes = [10, 100, 1000, 10 ** 4, 10 ** 5, 10 ** 6]
    est = [model.seconds(n, 2, precision, r=model.r_for(n, {})) for n in sizes]
    if est[0] is None:
        assert all(e is None for e in est), f"time model of {name!r} in {precision}: {est}"
        return
    assert all(e is not None and 0 < e < float("inf") for e in est), \
        f"time model of {name!r} in {precision}: expected positive finite estimates, got {est} at n={sizes}"
    assert all(a <= b for a, b in zip(est, est[1:])), \
        f"time model of {name!r} in {precision}: expected estimates non-decreasing in n, got {est} at n={sizes}"


def skipped_checks(name: str) -> dict:
    """The engine of :func:`lssvm_analysis.testing.skipped_checks` (documented there)."""
    info = get_solver(name)
    out = {}
    if info.system is None:
        out["matches_reference"] = "no system hook (register_solver(..., system=...))"
    if info.exact_model is None:
        out["exact_model_hook"] = "no exact_model hook" + (f" ({info.exact_note})" if info.exact_note else "")
    elif not info.supports_precision("mp40"):
        out["exact_model_hook"] = "the solver does not run in mp40, where the hook is checked"
    if info.peak is None:
        out["peak_memory"] = "no peak declared (register_solver(..., peak=PeakMemory(...)))"
    if info.time is None:
        out["time_model"] = ("no time model declared (register_solver(..., time=TimeModel(...))): la.fit "
                             "estimates nothing and never refuses a fit of this solver as too costly")
    if not info.condition_estimate:
        out["condition_estimate"] = "condition_estimate=False: no condition estimate recorded"
    if info.precisions is None:
        out["undeclared_precision"] = "the solver runs in every precision"
    if not info.variants:
        out["unknown_variant"] = "no variants"
    return out


def check_solver(name: str, *, precisions=None, accuracy: str = "required") -> SolverReport:
    """The engine of :func:`lssvm_analysis.testing.check_solver` (documented there)."""
    if not isinstance(name, str) or name not in solvers():
        raise UnknownSolverError(f"expected a solver in {solvers()}, got solver={name!r}")
    if check_str("accuracy", accuracy) not in ACCURACY:
        raise ValueError(f"expected accuracy in {ACCURACY}, got accuracy={accuracy!r}")
    _precisions(get_solver(name), precisions)   # refused naming ``precisions``, check_solver's keyword
    battery = solver_checks(name, precisions_=precisions)
    skipped, accepted, failures, ran = skipped_checks(name), [], [], []
    measures = any(label.startswith(("matches_reference", "exact_model_hook")) for label, _ in battery)
    if not measures:
        why = "no system hook and no exact_model hook run in mp40: nothing measures the solver's accuracy"
        if accuracy == "skip":
            accepted.append(f"accuracy='skip' ({why})")
        else:
            failures.append(f"accuracy: {why}; declare a hook (lssvm_analysis.solvers.kit) or pass "
                            f"accuracy='skip' to accept an unchecked accuracy")
    for label, check in battery:
        try:
            check()
        except AssertionError as exc:
            failures.append(f"{label}: {exc}")
        except Exception as exc:  # noqa: BLE001 - an error a check did not expect is a failure, named
            failures.append(f"{label}: {type(exc).__name__}: {exc}")
        ran.append(label)
    if failures:
        raise AssertionError(f"{len(failures)} of {len(ran)} checks failed for solver {name!r}:\n"
                             + "\n".join(failures))
    return SolverReport(name, ran, skipped, accepted)
