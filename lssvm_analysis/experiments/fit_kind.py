"""Task kind "fit": one solver run, its errors against a certified reference, its test error.

For a task (solver, precision, dataset, params, seed) the row records

* the outcome: ``status`` (the Fit's "ok" / "breakdown" / "not-converged",
  or the engine's "error"), ``message``, ``breakdown_step`` (0-based) and
  ``breakdown_pivot`` (NaN without a breakdown), ``n_support``,
  ``iterations`` (NaN when the solver reports none);
* the data: ``task`` (regression / classification), ``n_train``, ``n_test``,
  ``n_features``; the precision's ``unit_roundoff`` u;
* the test error: ``test_mae`` (average absolute error, Abe's "AAAE") and
  ``test_rmse`` for regression, ``test_error_rate`` (misclassification rate
  of sign f(x), f = 0 counted as an error) for classification; NaN without a
  model;
* the **model error** (the headline), against the *exact model* the data
  define (``SolverInfo.exact_model``: the paper's problem with X and y as
  given, kernel and system formed in extended precision, the fit's discrete
  choices frozen; :mod:`lssvm_analysis.exact.formation`), certified by
  :func:`lssvm_analysis.analysis.model_error.solve_exact_model`:
  ``model_error`` = ||m - m*||_inf / ||m*||_inf on m = (bias, coef),
  ``model_digits`` = -log10 of it, capped at ``exact_digits`` with
  ``model_digits_capped`` True when the fit agrees with the computed exact
  model beyond what that model is certified to (the row then claims
  ``exact_digits`` digits, a lower bound), ``prediction_error`` /
  ``prediction_digits`` / ``prediction_digits_capped`` likewise on the
  decision values at the first ``exact_test_max`` test points (capped also
  at the certified digits of the exact decision values), ``problem_condition`` (one number per data
  set, hyper-parameters and frozen choices, independent of the formulation;
  its definition per family is in the hook's docstring),
  ``exact_digits`` (certified digits of the exact model itself: the solve
  and the formation bound both counted), ``exact_method`` (the route: the hook's
  DD formation, or "... in <bits>-bit balls" when the exact model was escalated,
  :func:`lssvm_analysis.analysis.model_error.fit_exact_model`), ``exact_note`` (why NaN), ``time_exact``;
  ``choices_agree`` (True / False when the fit's discrete choices -- support
  in order, kept columns, k* -- equal those of a run of the same solver in
  ``choices_precision``; None when the solver makes no arithmetic-dependent
  choice or the run was skipped) and ``choices_overlap`` (|S n S'| / |S u S'|
  of the supports or kept columns; NaN without);
* the **solve error**: against the certified reference of the system the
  solver formed in its working precision (whether the solve was backward
  stable; it cannot see the rounding of the formation), of the system the solver
  solved (``SolverInfo.system(X, y, fit, **params) -> (A, rhs, unpack)``,
  solved by ``reference.reference_solve(A, rhs, digits=...)``):
  ``system_n``, ``system_condition`` (kappa_inf(A) estimated from above by the
  certificate: ||A||_inf times the proven bound on ||A^-1||_inf),
  ``reference_digits`` (certified), ``reference_method``,
  ``solve_error`` = ||m - m*||_inf / ||m*||_inf on the model vector
  m = (bias, coef) against m* = unpack(x*) of the system as formed,
  ``solve_digits``, and
  ``backward_error`` (normwise, Rigal-Gaches) of the solver's own solution of
  that system when the Fit exposes it as ``diagnostics["solution"]`` (the
  model alone does not determine the system's unknowns for every solver,
  e.g. Abe's dual coef = H^T beta).  A skipped or failed reference leaves
  NaN and says why in ``reference_note``;
* timings: ``time_load``, ``time_fit`` (wall-clock of ``fit``), the Fit's
  phases as ``time_<phase>``, ``time_reference``, ``time_exact``;
* the Fit's scalar diagnostics as ``diag_<name>``.

Combinations of a solver with a data set of a task it does not solve are
left out of the sweep.  Classification labels are coded {-1, +1} by
``Dataset.as_pm1`` (Suykens 3.1; the larger class value is +1); a
multiclass set gives an "error" row.  Hyper-parameters use the unified
names (``C`` = Suykens' gamma = Abe's C, ``sigma2``, ``eta``); grid keys a
solver does not declare in ``SolverInfo.params`` are not passed to it.

Options (``SweepSpec.options``): ``reference`` (bool, default True),
``reference_max_n`` (default 1000: systems larger than this get no
reference), ``reference_digits`` (default max(30, digits(u) + 15), so the
reference resolves errors far below the unit roundoff of every precision,
mp included); ``exact`` (bool, default True), ``exact_max_n`` (default
1000: larger training sets get no exact model), ``exact_test_max`` (default
200), ``exact_escalate_max_n`` (default 500: larger training sets keep the exact model of
the hook's route, never escalated; :data:`DEFAULT_EXACT_ESCALATE_MAX_N`), ``choices_precision`` (default "mp30") and ``choices_max_n`` (default
40: an mp30 op-lssvm run costs 1.7 s at N = 60 and 4.2 s at N = 120,
ip-lssvm 4.2 s and 35 s, measured; the wide run's choices are cached per
process, so the precisions of one configuration share it).

Version 2: the exact-model columns; ``forward_error`` / ``correct_digits`` /
``condition`` renamed ``solve_error`` / ``solve_digits`` / ``system_condition``.
"""
from __future__ import annotations

import math
import time
from contextlib import nullcontext

import numpy as np

from ..core.validation import check_int
from ..core.exceptions import ReferenceAccuracyError
from .kinds import raw_task_data, register_task_kind, validate_registry_names
from .seeding import with_task_rng
from ..solvers import get_solver
from .. import datasets
from ..linalg.kernels import kernel_memo
from ..analysis import model_digits, model_error, reference
from ..arith.precision import get_precision
from ..solvers import fit as run_fit

__all__ = ["fit_row", "fit_keywords", "load_task_data", "accepts_combination", "select_solver_params",
           "exact_columns", "FIT_OPTIONS", "FIT_KIND_VERSION", "EXACT_COLUMNS", "DEFAULT_REFERENCE_MAX_N",
           "DEFAULT_CHOICES_PRECISION"]

DEFAULT_REFERENCE_MAX_N = 1000
FIT_OPTIONS = ("reference", "reference_max_n", "reference_digits", "first_task_only", "exact",
               "exact_max_n", "exact_test_max", "exact_escalate_max_n", "choices_precision", "choices_max_n")
# 4: an uncertified exact model (<= 0 digits) gives NaN model digits, not -inf; 5: the exact model is
# escalated to more bits when the DD route does not resolve the fit, prediction digits certified by
# their own bound
FIT_KIND_VERSION = 5
DEFAULT_EXACT_MAX_N = 1000
DEFAULT_EXACT_TEST_MAX = 200
#: Largest training set whose exact model may be formed again at more bits (precision escalation,
#: analysis.model_error.fit_exact_model): measured one process, float64 fits, target 18 digits,
#: the ball formation of els-primal takes 0.22 s at N = 200 and 9.5 s at N = 1000 (ip-lssvm 0.18 s
#: and 7.6 s), against 0.02-0.3 s for the DD route; at N <= 500 an escalation costs ~1-2 s.
DEFAULT_EXACT_ESCALATE_MAX_N = 500
DEFAULT_CHOICES_PRECISION = model_digits.DEFAULT_CHOICES_PRECISION
DEFAULT_CHOICES_MAX_N = model_digits.DEFAULT_CHOICES_MAX_N
_CHOICES_CACHE: dict = {}   # (solver, params, precision, data) -> choices of the wide run
_CHOICES_CACHE_SIZE = 64
NAN = float("nan")


def _validate(spec) -> None:

    validate_registry_names(spec)
    for axis in ("solvers", "precisions", "datasets"):
        if not getattr(spec, axis):
            raise ValueError(f"expected at least one entry in {axis} for kind 'fit', got {axis}=[]")
    bad = sorted(set(spec.options) - set(FIT_OPTIONS))
    if bad:
        raise ValueError(f"expected options among {FIT_OPTIONS} for kind 'fit', got option {bad[0]!r}")
    for name in ("reference", "first_task_only", "exact"):
        if not isinstance(spec.options.get(name, True), bool):
            raise TypeError(f"expected a bool for options[{name!r}], "
                            f"got options[{name!r}]={spec.options[name]!r}")
    if "choices_precision" in spec.options:
        get_precision(spec.options["choices_precision"])
    for name in ("reference_max_n", "reference_digits", "exact_max_n", "exact_test_max",
                 "exact_escalate_max_n", "choices_max_n"):
        if name in spec.options:
            check_int(f"options[{name!r}]", spec.options[name], minimum=1)
    if "task" in spec.grid:
        raise ValueError("expected no 'task' in grid (kind 'fit' takes it from the dataset), "
                         "got grid key 'task'")
    infos = [get_solver(s) for s in spec.solvers]
    if all(info.params for info in infos):
        accepted = set().union(*(info.params for info in infos))
        for key in spec.grid:
            if key not in accepted:
                raise ValueError(f"expected grid keys accepted by one of the solvers "
                                 f"{list(spec.solvers)} ({sorted(accepted)}), got grid key {key!r}")


def select_solver_params(solver, params: dict) -> dict:
    """Keep the grid values the solver accepts (all of them if it declares none)."""

    accepted = get_solver(solver).params
    return {k: v for k, v in params.items() if k in accepted} if accepted else params


def accepts_combination(task) -> bool:
    """Which combinations a sweep keeps, from the registry.

    A solver runs only on the data sets of a task it solves (with option
    ``first_task_only``: of its first task), only in the precisions it
    declares, only when the grid gives every keyword it requires
    (``SolverInfo.required``: pruning's validation set cannot be a grid value),
    and only with variant values it has (a grid may hold the variant keywords
    of several solvers).
    """
    info = get_solver(task.solver)
    data_task = datasets.dataset_info(task.dataset).task
    if data_task not in info.tasks or not info.supports_precision(task.precision):
        return False
    if task.options.get("first_task_only") and data_task != info.tasks[0]:
        return False
    if any(k not in task.params for k in info.required):  # e.g. pruning's validation set: no grid value
        return False
    try:
        info.check_variants(task.params)
    except ValueError:
        return False
    return True


def fit_keywords(task, ds) -> dict:
    """The keywords of a task's fit: its params, ``rng`` drawn from the task when the solver makes
    random choices (:func:`~.seeding.with_task_rng`) and the dataset's task when it takes one."""
    info = get_solver(task.solver)
    return {**with_task_rng(task.solver, task, task.params), **info.task_keywords(ds.task)}


def load_task_data(task):
    """The task's data set; classification labels coded {-1, +1} (Suykens 3.1).

    Memoized per process (:func:`~.kinds.raw_task_data`): the tasks of a map or a grid share
    their data set (a Mackey-Glass series at M = 60 is ~10 ms of an mp50 map task's ~0.2 s)."""
    ds = raw_task_data(task)
    if ds.task == "classification":
        ds = ds.as_pm1()  # Suykens (3.1): y in {-1, +1}; the larger class value is +1
    return ds


def _test_errors(fit, task: str, X_test, y_test) -> dict:
    if task == "classification":
        out = {"test_error_rate": NAN}
        if fit.ok:
            out["test_error_rate"] = float(np.mean(np.sign(fit.predict(X_test)) != y_test))
        return out
    out = {"test_mae": NAN, "test_rmse": NAN}
    if fit.ok:
        r = fit.predict(X_test) - y_test
        out.update(test_mae=float(np.mean(np.abs(r))), test_rmse=float(np.sqrt(np.mean(r * r))))
    return out


def _reference_columns(info, X, y, fit, params, options, p) -> dict:

    out = {"system_n": NAN, "system_condition": NAN, "reference_digits": NAN, "reference_method": "",
           "solve_error": NAN, "solve_digits": NAN, "backward_error": NAN, "reference_note": ""}
    if not options.get("reference", True):
        return {**out, "reference_note": "reference disabled (options['reference'] = False)"}
    if info.system is None:
        return {**out, "reference_note": f"solver {info.name!r} solves no single linear system"}
    if fit.coef_ is None:
        return {**out, "reference_note": f"no solution to compare (status {fit.status!r})"}
    A, rhs, unpack = info.system(X, y, fit, **params)
    A = np.asarray(A).view()
    A.flags.writeable = False   # read-only: the reference and the backward error convert it once
    out["system_n"] = n = int(A.shape[0])
    max_n = options.get("reference_max_n", DEFAULT_REFERENCE_MAX_N)
    if n > max_n:
        return {**out, "reference_note": f"system of order {n} > reference_max_n={max_n}"}
    digits = options.get("reference_digits") or max(30, math.ceil(p.digits) + 15)
    t0 = time.perf_counter()
    try:
        ref = reference.reference_solve(A, rhs, digits=digits)
    except ReferenceAccuracyError as exc:  # e.g. A numerically singular at the bit cap
        return {**out, "reference_note": f"reference not certified: {exc}",
                "time_reference": time.perf_counter() - t0}
    out.update(system_condition=float(ref.cond_estimate), reference_digits=float(ref.digits),
               reference_method=str(ref.method))
    m_fit = model_error.model_vector(fit.coef_, fit.bias_)
    ref_model = unpack(ref.x)
    m_ref = model_error.model_vector(ref_model["coef"], ref_model["bias"])
    fe = reference.forward_error(m_fit, m_ref, precision=p).value
    out.update(solve_error=fe, solve_digits=reference.correct_digits(fe))
    x_fit = fit.diagnostics.get("solution")
    if x_fit is not None:
        out["backward_error"] = reference.backward_error(A, x_fit, rhs, precision=p).value
    else:
        out["reference_note"] = "backward error needs the Fit's diagnostics['solution']"
    out["time_reference"] = time.perf_counter() - t0
    return out


EXACT_COLUMNS = {"model_error": NAN, "model_digits": NAN, "model_digits_capped": False,
                 "prediction_error": NAN, "prediction_digits": NAN, "prediction_digits_capped": False, "problem_condition": NAN, "exact_digits": NAN,
                 "exact_method": "", "exact_note": "", "choices_agree": None,
                 "choices_overlap": NAN, "time_exact": NAN}


def exact_columns(info, ds, fit, params, options) -> dict:
    """The model-error columns of a fit (module docstring); NaN with ``exact_note`` saying why."""
    out = dict(EXACT_COLUMNS)
    n = int(ds.X_train.shape[0])
    max_n = options.get("exact_max_n", DEFAULT_EXACT_MAX_N)
    why = ("exact model disabled (options['exact'] = False)" if not options.get("exact", True) else
           f"solver {info.name!r} registers no exact_model hook"
           + (f" ({info.exact_note})" if info.exact_note else "") if info.exact_model is None else
           f"no model to compare (status {fit.status!r})" if fit.coef_ is None else
           f"n_train={n} > exact_max_n={max_n}" if n > max_n else "")
    if why:
        return {**out, "exact_note": why}
    t0 = time.perf_counter()
    X_test = ds.X_test[:options.get("exact_test_max", DEFAULT_EXACT_TEST_MAX)]
    try:
        problem = info.exact_model(ds.X_train, ds.y_train, fit, **params)
        exact, errors = model_error.fit_exact_model(
            problem, fit, X_test, escalate=n <= options.get("exact_escalate_max_n", DEFAULT_EXACT_ESCALATE_MAX_N))
    except (NotImplementedError, ReferenceAccuracyError) as exc:
        return {**out, "exact_note": f"exact model not available: {exc}",
                "time_exact": time.perf_counter() - t0}
    if not exact.digits > 0:
        # the formation bound of the exact system swamps its solve (kappa of the exact system times
        # the double-double formation error >= 1): nothing is certified, so nothing is measured
        return {**out, "exact_note": f"exact model not certified ({exact.method}: {exact.digits:.3g} "
                                     f"certified digits at problem kappa {exact.problem_condition:.3g})",
                "problem_condition": exact.problem_condition, "time_exact": time.perf_counter() - t0}
    out.update(errors)
    out.update(problem_condition=exact.problem_condition, exact_digits=exact.digits,
               exact_method=exact.method, time_exact=time.perf_counter() - t0)
    out.update(_choices_columns(info, ds, fit, params, options, problem.choices))
    return out


def _choices_columns(info, ds, fit, params, options, choices) -> dict:
    """Whether the fit's discrete choices equal those of a run in ``choices_precision``."""
    if not choices:
        return {}
    wide = get_precision(options.get("choices_precision", DEFAULT_CHOICES_PRECISION))
    max_n = options.get("choices_max_n", DEFAULT_CHOICES_MAX_N)
    n = int(ds.X_train.shape[0])
    if n > max_n or not info.supports_precision(wide):
        return {"exact_note": f"choices not compared (n_train={n} > choices_max_n={max_n} "
                              f"or {wide.name} not supported)"}
    return model_digits.choices_agreement(choices, _wide_choices(info, ds, params, wide), wide.name)


def _wide_choices(info, ds, params, wide):
    """The choices of a run in ``wide`` (:func:`~lssvm_analysis.analysis.model_digits.wide_choices`:
    its status, or the error it raised, as a string when it has no model), cached."""
    key = (info.name, repr(sorted(params.items(), key=lambda kv: kv[0])), wide.name,
           hash(ds.X_train.tobytes()), hash(np.asarray(ds.y_train).tobytes()))
    if key not in _CHOICES_CACHE:
        value = model_digits.wide_choices(info.name, ds.X_train, ds.y_train, params, wide)
        if len(_CHOICES_CACHE) >= _CHOICES_CACHE_SIZE:
            _CHOICES_CACHE.pop(next(iter(_CHOICES_CACHE)))
        _CHOICES_CACHE[key] = value
    return _CHOICES_CACHE[key]


def _fit_columns(fit, params) -> dict:
    """Outcome columns of the Fit.  ``n_support`` is the fitted support size, unless the task gives
    ``n_support`` as an input (a support-size ladder): the input column then holds the requested
    size, and a solver that may stop short records what it reached in its ``diag_`` columns
    (``diag_rank``, ``diag_n_features``, ``diag_system_order``)."""
    bd = fit.breakdown
    size = {} if "n_support" in params else {"n_support": fit.n_support}
    return {**size,
            "iterations": NAN if fit.iterations is None else int(fit.iterations),
            "breakdown_step": NAN if bd is None else int(bd.step),
            "breakdown_pivot": NAN if bd is None else float(bd.pivot),
            "breakdown_kind": "" if bd is None else bd.factorization}


def _diagnostic_columns(fit) -> dict:
    out = {}
    for name, value in fit.diagnostics.items():
        if isinstance(value, (bool, np.bool_, int, np.integer, str)):
            out[f"diag_{name}"] = value.item() if isinstance(value, np.generic) else value
        elif isinstance(value, (float, np.floating)) or type(value).__name__ == "mpf":
            out[f"diag_{name}"] = float(value)
    return out


def fit_row(task) -> dict:
    """Row function of kind "fit" (see the module docstring for the columns).

    In the mp precisions (no native dtype) the fit, its system's reference and its exact model
    run in one :func:`kernel_memo` block:
    a system builder (``SolverInfo.system``) forms the kernel of the training points again in
    the fit's precision, and gets the fit's matrix, bit for bit, instead of recomputing it
    (mp50 at M = 60: ~10-50 ms a task).
    """
    p = get_precision(task.precision)
    with nullcontext() if p.native else kernel_memo():   # the float columns: nothing kept, unchanged
        return _fit_row(task)


def _fit_row(task) -> dict:
    info, p = get_solver(task.solver), get_precision(task.precision)
    t0 = time.perf_counter()
    ds = load_task_data(task)
    t_load = time.perf_counter() - t0
    if ds.task not in info.tasks:
        raise ValueError(f"expected a dataset for {info.tasks} with solver={info.name!r}, "
                         f"got dataset={task.dataset!r} (task {ds.task!r})")
    params = fit_keywords(task, ds)
    t0 = time.perf_counter()
    fit = run_fit(task.solver, ds.X_train, ds.y_train, precision=p.name, **params)
    t_fit = time.perf_counter() - t0
    message = ""
    if fit.breakdown is not None:
        message = fit.breakdown.describe()
    config = {opt: params.get(opt, value) for opt, value in info.default_variant().items()}
    row = {"status": fit.status, "message": message, "task": ds.task, "paper": info.paper,
           "configuration": info.configuration_label(config),
           "n_train": int(ds.X_train.shape[0]), "n_test": int(ds.X_test.shape[0]),
           "n_features": int(ds.X_train.shape[1]), "unit_roundoff": float(p.unit_roundoff),
           **_fit_columns(fit, task.params), **_test_errors(fit, ds.task, ds.X_test, ds.y_test)}
    row.update(_reference_columns(info, ds.X_train, ds.y_train, fit, params, task.options, p))
    row.update(exact_columns(info, ds, fit, params, task.options))
    row.update(time_load=t_load, time_fit=t_fit)
    row.update({f"time_{phase}": float(s) for phase, s in fit.timings.items()})
    row.update(_diagnostic_columns(fit))
    return row


register_task_kind("fit", fit_row, version=FIT_KIND_VERSION, validate=_validate,
                   select_params=select_solver_params, accepts=accepts_combination)
