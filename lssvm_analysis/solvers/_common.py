"""Shared plumbing of the solver functions: validation and Fit assembly.

Every solver goes through :func:`validate_xy` (inputs, named errors) and
:func:`make_fit` (the Fit), so the checks made here hold for every solver,
including those registered later:

* inputs that the precision cannot represent (X, y beyond float32's range,
  C whose reciprocal overflows, sigma2 that underflows to 0) are rejected
  with the argument's name, before any work;
* a model with a non-finite coefficient or bias is never ``"ok"``: it gets
  ``status="overflow"`` with the phase where it appeared;
* inputs that underflow in the precision (non-zero entries of X or y that
  round to 0 or a subnormal, y * 1e-60 in float32) give an UnderflowWarning
  naming the argument and the count;
* an RBF fit records ``diagnostics["kernel_error_bound"]`` (the absolute
  bound of :func:`~lssvm_analysis.linalg.kernels.kernel_error_bound`), and
  when it leaves no correct digit (>= 1/2) ``kernel_meaningless`` and a
  KernelAccuracyWarning;
* the condition estimate a solver passes (``conditioning=``) is recorded in
  the diagnostics (``kappa_estimate``, ``kappa_method``, ``kappa_matrix``;
  NaN / "not estimated" otherwise) and warned about when ``kappa u >= 1/2``.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..core.validation import (all_finite, as_matrix, as_vector, check_finite, check_positive,
                                check_representable, underflow_count)
from ..core.exceptions import KernelAccuracyWarning, UnderflowWarning
from ..linalg.condest import NOT_ESTIMATED, Conditioning, check_conditioning
from ..linalg.kernels import MEANINGLESS_KERNEL_BOUND, kernel_error_bound, make_kernel
from ..arith.precision import get_precision
from ..core.records import ReadOnlyDict
from .result import Fit

__all__ = ["validate_xy", "check_binary_labels", "check_choice", "readonly", "docstring", "make_fit", "breakdown_fit",
           "nonfinite_record"]

TASKS = ("regression", "classification")
_UNSET = object()  # C not given (a solver without C); None from a user is an error naming C


def _check_hyper_range(p, C, k) -> None:
    """C and sigma2 as the precision will use them: 1/C finite, sigma2 finite and non-zero."""
    if C is not _UNSET:  # C itself may exceed float32: only 1/C enters (Precision.reciprocal)
        with np.errstate(over="ignore"):
            r = p.reciprocal(C)
        if not all_finite(np.array([r], dtype=object)):
            raise ValueError(f"expected C with 1/C finite in {p.name}, got C={C!r} "
                             f"(1/C = {1.0 / float(C):.3g} overflows in {p.name})")
    if k.name == "rbf":
        with np.errstate(under="ignore"):
            s = p.scalar(k.params["sigma2"])
        if not (all_finite(np.array([s], dtype=object)) and s > 0):
            raise ValueError(f"expected sigma2 that is positive and finite in {p.name}, got "
                             f"sigma2={k.params['sigma2']!r} (rounds to {s!r} in {p.name})")


def _warn_underflow(a, name, p) -> None:
    """UnderflowWarning naming ``name`` when non-zero entries of ``a`` flush to 0 or to a subnormal in ``p``
    (y * 1e-60 in float32 gave an 'ok' fit with coef = b = 0 and no word about it)."""
    count = underflow_count(a, p)
    if count:
        tiny = float(np.finfo(p.dtype).tiny)
        warnings.warn(UnderflowWarning(
            f"expected {name} whose non-zero entries are normal numbers in {p.name} (|{name}| >= {tiny:.3g}), "
            f"got {count} of {a.size} entries of {name} that round to 0 or a subnormal: the fit sees "
            f"them changed (scale {name} up)", name=name, count=count, precision=p.name), stacklevel=4)


def validate_xy(X, y, *, task="regression", C=_UNSET, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                precision="float64"):
    """Validate the common inputs once, at the public boundary.

    Returns float64 copies-or-views of X and y that the solver must not write
    to, the Kernel, and the Precision.  The caller's arrays are never modified
    (solvers only read them).  Leave ``C`` out for a solver without C;
    ``C=None`` is an error naming C.

    Raises
    ------
    TypeError, ValueError
        Naming the argument: shapes, NaN/inf, non-numeric X or y, labels,
        C or sigma2 not positive, X, y, C, 1/C or sigma2 not representable
        in the precision (e.g. |X| > 3.4e38 in float32).
    """
    if task not in TASKS:
        raise ValueError(f"expected task in {TASKS}, got task={task!r}")
    p = get_precision(precision)
    X = as_matrix(X, "X", allow_object=False)
    check_finite(X, "X")
    y = as_vector(y, "y", allow_object=False)
    check_finite(y.astype(float), "y")
    if X.shape[0] != y.shape[0]:
        raise ValueError(
            f"expected X and y with the same number of samples, got X.shape={X.shape}, y.shape={y.shape}")
    if C is not _UNSET:
        check_positive("C", C)
    if task == "classification":
        check_binary_labels(y)
    k = make_kernel(kernel, sigma2=sigma2, degree=degree, t=t)
    check_representable(X, "X", p)
    check_representable(y.astype(float), "y", p)
    _warn_underflow(X, "X", p)
    _warn_underflow(y.astype(float), "y", p)
    _check_hyper_range(p, C, k)
    return np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64), k, p


def check_binary_labels(y) -> None:
    """Raise ValueError unless y holds both labels -1 and +1 and nothing else."""
    pos = y == 1
    if (pos | (y == -1)).all() and pos.any() and not pos.all():  # the common case, without a sort
        return
    labels = np.unique(y)
    if len(labels) < 2:
        raise ValueError(f"expected two classes in y, got one class: {labels.tolist()}")
    if not set(labels.tolist()) <= {-1.0, 1.0}:
        raise ValueError(f"expected binary labels in {{-1, +1}} in y, got y labels {labels.tolist()[:10]}")


def check_choice(name: str, value, choices) -> None:
    """Raise ValueError unless ``value`` is one of the strings ``choices`` (a solver's option)."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"expected {name} in {choices}, got {name}={value!r}")


def readonly(a) -> np.ndarray:
    """A read-only copy of ``a`` (a diagnostic array no caller can write into the fit)."""
    a = np.array(a, copy=True)
    a.flags.writeable = False
    return a


def docstring(text: str):
    """Decorator giving a solver function the docstring ``text`` (one composed of shared parts).

    Applied below ``register``, so that the registry reads it for the solver's
    description; ``func.__doc__ = ...`` after the definition comes too late for
    that, and a string sum in the docstring's place is not a docstring.
    """
    def deco(func):
        func.__doc__ = text
        return func

    return deco


def nonfinite_record(coef, bias, phase, p, w=None) -> dict | None:
    """None if coef, bias (and a primal ``w``) are finite, else what is not: the phase and the
    counts (coef and w in ``p``; ``w_nan`` / ``w_inf`` only for a primal model)."""
    c = np.asarray(coef).ravel() if coef is not None else np.empty(0)
    b = np.asarray([bias]) if bias is not None else np.empty(0)
    wv = np.asarray(w).ravel() if w is not None else np.empty(0)
    if all_finite(c) and all_finite(b) and all_finite(wv):
        return None
    cf = p.to_float64(c) if c.size else np.empty(0)
    out = {"phase": phase or "", "coef_nan": int(np.isnan(cf).sum()), "coef_inf": int(np.isinf(cf).sum()),
           "n_coef": int(cf.size), "bias": float(bias) if bias is not None else float("nan")}
    if w is not None:
        wf = p.to_float64(wv) if wv.size else np.empty(0)
        out.update(w_nan=int(np.isnan(wf).sum()), w_inf=int(np.isinf(wf).sum()))
    return out


def make_fit(solver, p, *, coef, bias, support, X, kernel, timer, status="ok", breakdown=None,
             iterations=None, history=None, diagnostics=None, params=None, conditioning=None,
             overflow_phase=None, w=None) -> Fit:
    """Assemble the frozen Fit (support inputs copied, mappings made read-only).

    Parameters
    ----------
    conditioning : Conditioning, optional
        The solver's estimate for the matrix it factored
        (:mod:`lssvm_analysis.linalg.condest`); recorded, and warned about
        (IllConditionedWarning) when kappa u >= 1/2.
    overflow_phase : str, optional
        Where a non-finite model arose, if the solver knows; default: the last
        phase the timer ran (the one that produced the coefficients).
    w : array, optional
        A primal weight vector (:attr:`Fit.w`): ``f(x) = x^T w + bias`` (pass
        ``coef`` empty and ``support=()`` for a purely primal model).

    Notes
    -----
    ``status="breakdown"`` requires its record (``breakdown``).
    ``status="ok"`` with a non-finite coefficient or bias becomes
    ``status="overflow"`` (the model is dropped; ``diagnostics["nonfinite"]``
    says where and how many).  The name: from finite, representable inputs
    (validate_xy) an IEEE result becomes non-finite only through an overflow or
    an invalid operation; the invalid ones here (0/0, inf - inf, 0 * inf) need
    an earlier inf, except a zero pivot, which the factorizations report as
    "breakdown" first.  So what is left is an overflow and its consequences.
    """
    if status == "breakdown" and breakdown is None:  # a breakdown is data: where and how it failed
        raise ValueError(f"expected the breakdown record of a {solver} fit with status='breakdown', "
                         f"got breakdown=None")
    support = np.asarray(support, dtype=np.intp)
    diagnostics = dict(diagnostics or {})
    cond = conditioning if isinstance(conditioning, Conditioning) else NOT_ESTIMATED
    if conditioning is None and "kappa_estimate" in diagnostics:
        cond = None  # the solver recorded its own
    if cond is not None:
        diagnostics.update(cond.as_diagnostics())
        check_conditioning(cond, p, solver=solver, stacklevel=3)
    _record_kernel_bound(diagnostics, kernel, X, p, solver)
    if status == "ok":
        bad = nonfinite_record(coef, bias, overflow_phase or getattr(timer, "last", None), p, w)
        if bad is not None:
            status, coef, bias, w = "overflow", None, None, None
            diagnostics["nonfinite"] = ReadOnlyDict(bad)
    return Fit(
        solver=solver, precision=p.name, coef_=coef, bias_=bias, support_=support,
        X_support_=np.array(X[support], dtype=np.float64), kernel=kernel, status=status,
        breakdown=breakdown, timings=timer.as_dict(), iterations=iterations,
        history=ReadOnlyDict(history or {}),
        diagnostics=ReadOnlyDict(diagnostics),
        params=ReadOnlyDict(params or {}), w=w,
    )


def _record_kernel_bound(diagnostics, kernel, X, p, solver) -> None:
    """``diagnostics["kernel_error_bound"]`` (RBF: :func:`kernel_error_bound`), and when it says the kernel
    carries no correct digit, ``diagnostics["kernel_meaningless"] = True`` and a KernelAccuracyWarning."""
    if "kernel_error_bound" in diagnostics or X is None or np.ndim(X) != 2:
        return
    bound = kernel_error_bound(kernel, X, p)
    if not np.isfinite(bound):
        return
    diagnostics["kernel_error_bound"] = bound
    if bound >= MEANINGLESS_KERNEL_BOUND:
        diagnostics["kernel_meaningless"] = True
        warnings.warn(KernelAccuracyWarning(
            f"expected a kernel matrix with correct digits, got a {solver} fit in {p.name} whose RBF kernel "
            f"entries may be wrong by {bound:.3g} (kernel_error_bound): the points' magnitude is too large "
            f"against sigma2 for {p.name} (centre or scale X, or use a wider precision)",
            bound=bound, precision=p.name, kernel=repr(kernel)), stacklevel=4)


def breakdown_fit(solver, p, err, *, X, kernel, timer, support=(), diagnostics=None, params=None) -> Fit:
    """The Fit of a run whose Cholesky broke down: status "breakdown", no model."""
    return make_fit(solver, p, coef=None, bias=None, support=support, X=X, kernel=kernel, timer=timer,
                    status="breakdown", breakdown=err.record, diagnostics=diagnostics, params=params)
