"""``la.fit``: a registered solver's fit, refused up front when its time model puts it beyond the
limit, and turned into a recorded outcome whatever the solver function returned."""
from __future__ import annotations

import dataclasses
import numbers
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..arith.base import Precision
from ..arith.precision import get_precision
from ..core.exceptions import UnexpectedParameterError, UnsupportedPrecisionError
from ..core.records import ReadOnlyDict
from ..core.validation import short_repr
from ..linalg.cost import DEFAULT_MAX_SECONDS, check_max_seconds, ensure_time
from ._common import nonfinite_record
from ._registry import SolverInfo, get_solver
from .result import Fit, data_fingerprint

__all__ = ["fit"]


def fit(solver: str, X: ArrayLike, y: ArrayLike, *, precision: str | Precision = "float64",
        max_seconds: float | None = DEFAULT_MAX_SECONDS, **params: Any) -> Fit:
    """Fit the registered ``solver`` on (X, y) in ``precision``; see its docstring.

    Parameters
    ----------
    solver : str
        A registered name (``la.solvers()``).
    X, y : array_like
        Training inputs (n x d) and targets (n).
    precision : str or Precision
        The arithmetic of the fit (``"float64"``, ``"float32"``, ``"longdouble"``, ``"mpN"``).
    max_seconds : float or None
        Before any work, the solver's declared time model
        (:class:`~lssvm_analysis.linalg.cost.TimeModel`, measured by
        ``benchmarks/measure_times.py``) estimates the fit's seconds from n, d, the second
        size (support size, rank) and the precision; a fit whose estimate exceeds
        ``max_seconds`` by more than the model's margin
        (:data:`~lssvm_analysis.linalg.cost.MARGIN`, 10: an estimate is an order of magnitude)
        is refused with a :class:`~lssvm_analysis.linalg.cost.FitTooCostlyError`.  Default
        600 s (:data:`~lssvm_analysis.linalg.cost.DEFAULT_MAX_SECONDS`): what is refused is then
        estimated at more than 100 minutes, a size an interactive call did not mean; e.g.
        ``svm-c`` on 2e6 x 1 points (LIBSVM's SMO, measured quadratic in n on noisy data: about 8
        hours) is refused at once instead of running for hours.  ``None`` runs the fit whatever
        it costs.  A solver without a time model (a plugin that declares none) is never
        refused; nor is a fit of a sweep task (the report's protocols, ``compare``: the sweep
        runner's :func:`~lssvm_analysis.linalg.cost.protocol_scope`), whose sizes are fixed.
    **params
        The solver's keywords (``la.get_solver(solver).params``).

    Raises
    ------
    FitTooCostlyError
        A ``ValueError``: the estimate exceeds ``max_seconds`` by more than the margin (its
        ``estimate_seconds`` and ``limit``; the message names the solver, n, d, the precision,
        the model and how to override).
    TypeError, ValueError
        ``max_seconds`` not None nor a finite number > 0 (a bool, a str, 0, -1, nan), naming it.
    UnknownSolverError
        ``solver`` is not registered.
    UnsupportedPrecisionError
        The solver does not run in ``precision`` (e.g. the LIBSVM baselines outside float64).
    ValueError
        A variant keyword with a value the solver does not have.
    UnexpectedParameterError
        A keyword the solver does not take (a TypeError naming the solver,
        the keyword and the keywords it takes).
    """
    info = get_solver(solver)
    extra = [k for k in params if k not in info.params]
    if extra:
        raise UnexpectedParameterError(
            f"expected keywords of solver {info.name!r} among {list(info.params)}, "
            f"got {extra[0]}={params[extra[0]]!r}")
    if not info.supports_precision(precision):
        raise UnsupportedPrecisionError(
            f"expected a precision in {info.supported_precisions()} for solver {solver!r}, "
            f"got precision={get_precision(precision).name!r}")
    info.check_variants(params)
    max_seconds = check_max_seconds(max_seconds)
    if info.time is not None and max_seconds is not None:
        _refuse_costly(info, X, precision, params, max_seconds)
    return _recorded(info, info.func(X, y, precision=precision, **params), X, y, precision)


def _refuse_costly(info: SolverInfo, X, precision, params, max_seconds: float) -> None:
    """FitTooCostlyError if the solver's time model puts the fit clearly beyond ``max_seconds``.

    n and d are read from X's shape without converting it (an array, or a list of rows); X that
    has no clear shape is left to the solver's validation, which names it.
    """
    shape = getattr(X, "shape", None)
    if shape is None:
        try:
            shape = (len(X), len(X[0]) if len(X) else 0)
        except (TypeError, KeyError, IndexError):
            return
    if len(shape) not in (1, 2) or not all(isinstance(s, numbers.Integral) for s in shape):
        return
    n, d = int(shape[0]), int(shape[1]) if len(shape) == 2 else 1
    ensure_time(info.time, info.name, n, d, precision, params, max_seconds)


def _recorded(info: SolverInfo, result, X, y, precision):
    """What the solver returned, as a recorded outcome (the contract every solver, plugins too, gets):

    * not a Fit (None, a dict, ...): a Fit with ``status="no-model"`` and
      ``diagnostics["invalid_result"]`` naming what it was (``la.fit`` returned None);
    * ``status="ok"`` with a non-finite coefficient, bias or ``w``: ``status="overflow"``, the
      model dropped and ``diagnostics["nonfinite"]`` counting what was not finite (a plugin
      that builds its Fit itself got 'ok' with NaN coefficients);
    * the training data's fingerprint (:func:`~.result.data_fingerprint`) kept on the Fit, so
      that the model-error API refuses other data.
    """
    if not isinstance(result, Fit):
        p = get_precision(precision)
        d = np.shape(X)[1] if np.ndim(X) == 2 else 0
        return Fit(info.name, p.name, None, None, np.empty(0, dtype=np.intp), np.empty((0, d)), None,
                   status="no-model", data_fingerprint=data_fingerprint(X, y),
                   diagnostics=ReadOnlyDict({"invalid_result": f"solver function {info.name!r} returned "
                                             f"{short_repr(result)}, not a Fit"}))
    changes = {"data_fingerprint": data_fingerprint(X, y)}
    if result.status == "ok":
        bad = nonfinite_record(result.coef_, result.bias_, "returned model", get_precision(result.precision),
                               result.w)
        if bad is not None:
            changes.update(status="overflow", coef_=None, bias_=None, w=None,
                           diagnostics=ReadOnlyDict({**dict(result.diagnostics), "nonfinite": ReadOnlyDict(bad)}))
    return dataclasses.replace(result, **changes)
