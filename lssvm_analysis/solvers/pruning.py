"""Sparse LS-SVM by pruning the support-value spectrum (Suykens §3.7, Figs. 3.8-3.11).

Simple LS-SVM pruning algorithm (Suykens §3.7):

1. train an LS-SVM on the N points;
2. remove a small amount of points (e.g. 5 % of the set) with the smallest
   |alpha_k|;
3. re-train on the reduced set;
4. go to 2 unless the user-defined performance index degrades.

:func:`fit_pruned` implements it over any registered base solver, with gamma
(our C) and the kernel parameters held fixed, as in Suykens' Figs. 3.9-3.11.
"""
from __future__ import annotations

import dataclasses
import math
import numbers

import numpy as np

from ..core.exceptions import UnknownSolverError
from ..core.validation import as_matrix, as_vector, check_finite, check_int, check_open_interval, short_repr
from ..arith.precision import get_precision
from .result import PhaseTimer
from ._common import make_fit, validate_xy
from .peaks import DENSE_PEAK
from .times import PRUNED_TIME
from ._registry import fit_params, get_solver, register, solvers

__all__ = ["fit_pruned", "validation_error"]


def validation_error(fit, X_val, y_val, *, task="regression") -> float:
    """Default performance index: validation MSE (regression) or error rate (classification).

    Parameters
    ----------
    fit : Fit
    X_val : (M, n) array, y_val : (M,) array
    task : {"regression", "classification"}

    Returns
    -------
    float
        mean((f(x) - y)^2) for regression, mean(sign(f(x)) != y) for classification.
    """
    f = fit.predict(X_val)
    if task == "classification":
        return float(np.mean(np.where(f >= 0, 1.0, -1.0) != y_val))
    return float(np.mean((f - y_val) ** 2))


def _index_function(index, validation, task, n_features, train=None):
    """The performance index ``fit -> float`` (lower is better)."""
    if isinstance(index, str):
        if index != "training":
            raise ValueError(f"expected index='training' or a callable, got index={index!r}")
        if validation is not None:
            raise ValueError("expected either validation=(X_val, y_val) or index, got both")
        X_tr, y_tr = train
        return lambda fit: validation_error(fit, X_tr, y_tr, task=task)
    if index is not None:
        if not callable(index):
            raise TypeError(f"expected a callable index(fit) -> float, got index={index!r}")
        if validation is not None:
            raise ValueError("expected either validation=(X_val, y_val) or index=callable, got both")
        return index
    if validation is None:
        raise ValueError("expected validation=(X_val, y_val) or index=callable (the performance "
                         "index of Suykens' step 4), got neither")
    try:
        X_val, y_val = validation
    except (TypeError, ValueError):
        raise TypeError(f"expected validation=(X_val, y_val), got validation of type "
                        f"{type(validation).__name__}") from None
    X_val = np.array(as_matrix(X_val, "X_val", allow_object=False), dtype=np.float64)
    y_val = np.array(as_vector(y_val, "y_val", allow_object=False), dtype=np.float64)
    check_finite(X_val, "X_val")
    check_finite(y_val, "y_val")
    if X_val.shape[0] != y_val.shape[0] or X_val.shape[1] != n_features:
        raise ValueError(f"expected X_val with {n_features} features and as many rows as y_val, got "
                         f"X_val.shape={X_val.shape}, y_val.shape={y_val.shape}")
    return lambda fit: validation_error(fit, X_val, y_val, task=task)


def _example_validation(X, y, task, rng) -> dict:
    """Suykens' step 4 needs a performance index: every other point as the validation set."""
    return {"validation": (X[::2], y[::2])}


def _check_tolerances(rtol, atol):
    for name, v in (("rtol", rtol), ("atol", atol)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"expected a real number for {name}, got {name}={v!r}")
        if not (math.isfinite(v) and v >= 0):
            raise ValueError(f"expected a finite {name} >= 0, got {name}={v!r}")


def _n_remove(n, fraction):
    """floor(fraction * n) points, at least one."""
    return max(1, int(math.floor(fraction * n)))


def _magnitudes(fit, n):
    """|alpha_k| on the current set; points outside the base fit's support count as 0."""
    mag = np.zeros(n)
    mag[fit.support_] = np.abs(get_precision(fit.precision).to_float64(fit.coef_))
    return mag


class _Clock:
    """Adds up the phases of every base fit plus the "selection" phase (make_fit reads as_dict)."""

    def __init__(self):
        self.timer, self.spent = PhaseTimer(), {}

    def base(self, func, X, y, fit_kw):
        fit = func(X, y, **fit_kw)
        for phase, sec in fit.timings.items():
            self.spent[phase] = self.spent.get(phase, 0.0) + sec
        return fit

    def as_dict(self):
        out = dict(self.spent)
        for phase, sec in self.timer.as_dict().items():
            out[phase] = out.get(phase, 0.0) + sec
        return out


def _prune_loop(X, y, base, fit_kw, index, fraction, tol, min_support, max_steps, clock,
                fraction_of="current", reference="best", with_support=False):
    """Run Suykens' steps 1-4; returns (kept indices, kept fit, path, stop reason)."""
    rtol, atol = tol
    if with_support:  # index(fit, support): support = the indices into X the fit was trained on
        index_of = index
    else:
        def index_of(f, _support):
            return index(f)
    n_step = _n_remove(len(y), fraction) if fraction_of == "original" else None
    keep = np.arange(len(y))
    fit = clock.base(base, X, y, fit_kw)
    if not fit.ok:
        return keep, fit, [], f"base-{fit.status}"
    with clock.timer("selection"):
        score = float(index_of(fit, keep))
    path = [(len(keep), score, True)]
    best, reason, step = score, "max_steps", 0
    while max_steps is None or step < max_steps:
        n_next = len(keep) - (n_step or _n_remove(len(keep), fraction))
        if n_next < min_support:
            reason = "min_support"
            break
        with clock.timer("selection"):
            order = np.argsort(_magnitudes(fit, len(keep)), kind="stable")
            trial = np.sort(keep[order[len(keep) - n_next:]])
        trial_fit = clock.base(base, X[trial], y[trial], fit_kw)
        if not trial_fit.ok:
            path.append((len(trial), float("nan"), False))
            reason = f"base-{trial_fit.status}"
            break
        with clock.timer("selection"):
            score = float(index_of(trial_fit, trial))
        accepted = score <= best + atol + rtol * abs(best)
        path.append((len(trial), score, accepted))
        if not accepted:
            reason = "degraded"
            break
        keep, fit, step = trial, trial_fit, step + 1
        best = min(best, score) if reference == "best" else best
    return keep, fit, path, reason


def exact_pruned_model(X, y, fit, **params):
    """Exact model of an lssvm-pruned fit (registry ``exact_model=``): the base's on the kept points.

    The pruning path (which |alpha_k| were smallest, when the index rose)
    is the discrete choice: the kept set ``support_`` is frozen and
    recorded, and the exact model is the base solver's own exact model
    (its ``exact_model`` hook) on (X[support_], y[support_]) -- the model
    the last accepted retraining was asked to compute.  A base without a
    hook raises NotImplementedError (the fit kind records it).  Problem
    condition: the base's.
    """
    merged = fit_params(fit, params)
    base = get_solver(merged.get("base", "lssvm-schur"))
    if base.exact_model is None:
        raise NotImplementedError(f"base solver {base.name!r} registers no exact_model hook")
    X, y, _, _ = validate_xy(X, y, task=merged.get("task", "regression"), C=merged["C"],
                             precision="float64")
    S = np.asarray(fit.support_, dtype=np.intp)
    # the last accepted base fit as the base hook sees it: trained on X[S], its own diagnostics
    last = dataclasses.replace(fit, solver=base.name, support_=np.arange(S.size),
                               diagnostics=dict(fit.diagnostics["base_diagnostics"]))
    problem = base.exact_model(X[S], y[S], last,
                               **{k: v for k, v in params.items() if k in base.params})
    return dataclasses.replace(problem, choices={"support": tuple(int(i) for i in S),
                                                 **problem.choices})


@register("lssvm-pruned", tasks=("regression", "classification"), paper="suykens",
          equations="§3.7 (pruning algorithm), Figs. 3.8-3.11",
          required=("validation",), example=_example_validation, exact_model=exact_pruned_model, peak=DENSE_PEAK, time=PRUNED_TIME)
def fit_pruned(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
               task="regression", base="lssvm-schur", fraction=0.05, validation=None, index=None,
               rtol=0.0, atol=0.0, min_support=2, max_steps=None, fraction_of="current",
               reference="best", index_support=False):
    """Sparse LS-SVM by Suykens' pruning: drop the smallest |alpha_k| and retrain (§3.7).

    Parameters
    ----------
    X : (N, n) array_like
    y : (N,) array_like
    precision, C, kernel, sigma2, degree, t, task
        As the base solver; C is Suykens' gamma.  gamma and the kernel
        parameters are kept fixed along the path (Suykens' Figs. 3.9-3.11).
    base : str
        Registry name of the solver retrained at every step ("lssvm-schur",
        "lssvm-kkt", "lssvm-cg", "krr", "lssvm-fisher", ...).
    fraction : float in (0, 1)
        Each step removes floor(fraction * n) (at least one) of the n points
        of the current set, those with the smallest |alpha_k| (|coef_k|; for
        classification |alpha_k y_k| = |alpha_k|).
    validation : (X_val, y_val), optional
        The default performance index: validation MSE (regression) or error
        rate (classification) of each model, see :func:`validation_error`.
    index : callable or "training", optional
        User-defined performance index ``index(fit) -> float``, lower is
        better (exclusive with ``validation``).  ``"training"``: the error
        (MSE or error rate) of each pruned model on the *whole* original
        training set, pruned points included (our reading of Vieira's
        P-LSSVM "loss of performance"; no validation data needed).
    rtol, atol : float >= 0
        Suykens' step 4, "unless the performance index degrades": a step is
        accepted when ``index <= best + atol + rtol |best|``, with ``best``
        the lowest index of the accepted models so far (the unpruned one
        included), or the unpruned model's index (``reference="initial"``).
        The defaults 0, 0 stop at the first rise.
    fraction_of : {"current", "original"}
        ``"current"`` (default, Suykens): each step removes floor(fraction n)
        of the current n points.  ``"original"`` (Vieira): a fixed
        floor(fraction L) (at least one) of the original L per step.
    reference : {"best", "initial"}
        What the index is compared with (see rtol, atol).  Vieira's P-LSSVM
        protocol, "1 % of the training set pruned per step until the loss of
        performance reaches at most 2.5 %", is ``fraction=0.01,
        fraction_of="original", reference="initial", atol=0.025`` with an
        error-rate index (the returned model is the last one whose accuracy
        is within 2.5 points of the unpruned one).
    index_support : bool
        Call a callable ``index`` as ``index(fit, support)``, with ``support``
        the indices into X of the points the candidate model was trained on
        (an index that refits on subsets of the kept points, e.g. a
        cross-validation of the pruned set, needs them; duplicate rows make
        them unrecoverable from ``fit`` alone).  Default False: ``index(fit)``.
    min_support : int >= 1
        Never go below this many support vectors.
    max_steps : int, optional
        At most this many accepted pruning steps.

    Returns
    -------
    Fit
        The last accepted model: ``coef_`` and ``bias_`` of the base solver
        retrained on ``support_`` (indices into X).  ``iterations`` = number
        of accepted steps; ``history``: ``n_support``, ``index`` and
        ``accepted`` per step (step 0 = the unpruned model; the last entry
        is the rejected step when the index degraded); ``diagnostics``:
        ``stop_reason`` ("degraded", "min_support", "max_steps" or
        "base-<status>" when a retraining failed: the last good model is
        returned), ``base``, ``base_diagnostics``.  If the unpruned fit
        fails, the result has no model and carries its status and
        breakdown record.

    Raises
    ------
    ValueError, TypeError
        Bad input, unknown base solver (UnknownSolverError), neither or both
        of ``validation`` and ``index``.

    Notes
    -----
    Each step costs one base fit on the reduced set (O(n^3) for the direct
    solvers), so the whole path costs about 1 / (1 - (1 - fraction)^3) ~
    1 / (3 fraction) unpruned fits.  ``timings`` adds up the base fits'
    phases; "selection" times the ranking and the index evaluations.
    """
    if not isinstance(base, str) or base not in solvers():   # get_solver's message says "solver="
        raise UnknownSolverError(f"expected base in {solvers()}, got base={short_repr(base)}")
    base_info = get_solver(base)
    check_open_interval("fraction", fraction, 0.0, 1.0)
    for name, value, allowed in (("fraction_of", fraction_of, ("current", "original")),
                                 ("reference", reference, ("best", "initial"))):
        if value not in allowed:
            raise ValueError(f"expected {name} in {allowed}, got {name}={value!r}")
    _check_tolerances(rtol, atol)
    if not isinstance(index_support, bool):
        raise TypeError(f"expected a bool for index_support, got index_support={index_support!r}")
    if index_support and not callable(index):
        raise ValueError(f"expected a callable index with index_support=True, got index={index!r}")
    min_support = check_int("min_support", min_support, minimum=1)
    if max_steps is not None:
        max_steps = check_int("max_steps", max_steps, minimum=0)
    Xv, yv, k, p = validate_xy(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree,
                               t=t, precision=precision)
    if task not in base_info.tasks:
        raise ValueError(f"expected a base solver for task={task!r}, got base={base!r} "
                         f"(tasks {base_info.tasks})")
    if base_info.peak is not None:  # the unpruned base fit is the largest
        base_info.peak.ensure(Xv.shape[0], p, what=f"lssvm-pruned (base {base_info.name})")
    score = _index_function(index, validation, task, Xv.shape[1], train=(Xv, yv))
    fit_kw = dict(precision=p, C=C, kernel=k, task=task)
    clock = _Clock()
    keep, fit, path, reason = _prune_loop(Xv, yv, base_info.func, fit_kw, score, fraction,
                                          (rtol, atol), min_support, max_steps, clock,
                                          fraction_of, reference, index_support)
    params = {"C": C, "task": task, "kernel": k.name, **k.params, "base": base, "fraction": fraction,
              "rtol": rtol, "atol": atol, "min_support": min_support, "max_steps": max_steps,
              "fraction_of": fraction_of, "reference": reference}
    diagnostics = {"stop_reason": reason, "base": base, "base_diagnostics": dict(fit.diagnostics)}
    # the final base fit's condition estimate (it warned already, if it had to)
    diagnostics.update({key: fit.diagnostics[key] for key in ("kappa_estimate", "kappa_method", "kappa_matrix")
                        if key in fit.diagnostics})
    if not path:  # the unpruned fit failed: no model, its record is passed on
        return make_fit("lssvm-pruned", p, coef=None, bias=None, support=keep, X=Xv, kernel=k,
                        timer=clock, status=fit.status, breakdown=fit.breakdown,
                        diagnostics=diagnostics, params=params)
    n_sv, scores, accepted = (np.array(col) for col in zip(*path))
    return make_fit("lssvm-pruned", p, coef=fit.coef_, bias=fit.bias_, support=keep[fit.support_],
                    X=Xv, kernel=k, timer=clock, iterations=int(accepted[1:].sum()),
                    history={"n_support": n_sv.astype(int), "index": scores, "accepted": accepted},
                    diagnostics=diagnostics, params=params)
