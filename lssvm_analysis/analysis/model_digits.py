"""The public model-error API: how many digits of the exact model a user's fit has.

>>> import lssvm_analysis as la
>>> fit = la.fit("lssvm-schur", X, y, precision="float32", C=1e4, sigma2=1.0)   # doctest: +SKIP
>>> err = la.model_error(fit, X, y, X_test)                                      # doctest: +SKIP
>>> err.model_digits, err.problem_condition, err.exact_digits                    # doctest: +SKIP

Both functions stand on what the sweeps use, so that a user's number and a
report's row are the same number: the solver's registry hook
(``SolverInfo.exact_model``) forms the *exact model* of the fit -- the
paper's problem with X and y as given, kernel and system formed in extended
precision, the fit's discrete choices frozen -- and
:func:`~lssvm_analysis.analysis.model_error.fit_exact_model` certifies it
(escalating the formation to more bits when the double-double route does not
resolve the fit) and measures the fit against it.  The task kind "fit"
(:mod:`lssvm_analysis.experiments.fit_kind`) calls the same two pieces.

``choices_agree`` compares the fit's discrete choices (support in order,
kept columns, k*) with those of a run of the same solver in a wide precision
(mp30 by default): where they differ, the fit's model digits measure the
fit against the exact model *of its own choices*, and a comparison of two
fits (float32 against float64, printed against stable) compares two
different problems.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..arith.precision import get_precision
from ..core.exceptions import NoExactModelError, UnexpectedParameterError, UnknownPrecisionError
from ..core.validation import as_matrix, as_vector, check_bool, check_int, short_repr
from ..solvers import Fit, get_solver
from ..solvers.result import data_fingerprint
from ..solvers import fit as run_fit
from .model_error import ExactModel, fit_exact_model, solve_exact_model, target_digits

__all__ = ["ModelError", "FitDataMismatchError", "model_error", "check_fit_data", "check_fit_params", "exact_model", "exact_problem", "wide_choices", "choices_agreement",
           "DEFAULT_CHOICES_PRECISION", "DEFAULT_CHOICES_MAX_N"]

#: The precision of the run whose discrete choices a fit's are compared with.
DEFAULT_CHOICES_PRECISION = "mp30"
#: Largest training set whose choices are compared by default (an mp30 op-lssvm run costs 1.7 s at
#: N = 60 and 4.2 s at N = 120, ip-lssvm 4.2 s and 35 s; measured for the task kind "fit").
DEFAULT_CHOICES_MAX_N = 40


@dataclass(frozen=True)
class ModelError:
    """A fit measured against the certified exact model of its data.

    Attributes
    ----------
    model_digits : float
        -log10 ||m - m*||_inf / ||m*||_inf on m = (bias, coef): correct digits of
        the model; capped at ``exact_digits`` (``model_digits_capped``) when the fit
        agrees with the exact model beyond what that model is certified to.
    prediction_digits : float
        The same on the decision values at ``X_test`` (NaN without test points).
    problem_condition : float
        The condition of the *problem* (the data, hyper-parameters and frozen
        choices; independent of the formulation): where these data sit on the
        report's answer grid.  Its definition per family is in the hook's docstring.
    exact_digits : float
        Certified correct digits of the exact model itself (formation and solve).
    choices_agree : bool or None
        The fit's discrete choices equal those of a run in ``choices_precision``;
        None when the solver makes no arithmetic-dependent choice or the
        comparison was not made (``note`` says why).
    route : str
        How the exact model was formed and certified (the hook's formation, or
        "... in <bits>-bit balls" when it was escalated; the reference's method).
    model_error, prediction_error : float
        The relative errors themselves.
    model_digits_capped, prediction_digits_capped : bool
    choices_overlap : float
        |S n S'| / |S u S'| of the supports or kept columns (NaN without).
    solver, precision : str
        The fit's.
    note : str
        Why a figure is NaN or None (empty otherwise).
    exact : ExactModel
        The certified exact model (bias, coef, error bound, ...).
    """

    model_digits: float
    prediction_digits: float
    problem_condition: float
    exact_digits: float
    choices_agree: bool | None
    route: str
    model_error: float = math.nan
    prediction_error: float = math.nan
    model_digits_capped: bool = False
    prediction_digits_capped: bool = False
    choices_overlap: float = math.nan
    solver: str = ""
    precision: str = ""
    note: str = ""
    exact: ExactModel | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        capped = " (at least: capped at the exact model's certificate)" if self.model_digits_capped else ""
        choices = {True: "same choices as a wide run", False: "choices differ from a wide run",
                   None: "no discrete choice compared"}[self.choices_agree]
        return (f"{self.solver} in {self.precision}: {self.model_digits:.2f} model digits{capped}, "
                f"problem kappa {self.problem_condition:.3g}, exact model certified to "
                f"{self.exact_digits:.1f} digits ({self.route}); {choices}")


class FitDataMismatchError(ValueError):
    """X or y is not the training data of the fit (its shape or its fingerprint differs).

    A fit measured against the exact model of other data (``X[:, :1]``, ``2 * X``, ``y + 1``)
    has few digits for a reason that is not the fit's; the model-error API refuses instead.
    """


def check_fit_data(fit: Fit, X, y) -> None:
    """FitDataMismatchError naming ``X`` or ``y`` unless they are the fit's training data.

    The number of features is read from the model (``X_support_``, ``w``); the
    rows and the values from the fit's :attr:`~lssvm_analysis.Fit.data_fingerprint`
    (set by ``la.fit``: the exact float64 bytes, so a copy passes and ``X + 1e-16``
    does not).  A Fit made without ``la.fit`` has no fingerprint: its shape alone is checked.
    """
    d = np.shape(fit.w)[0] if fit.w is not None else (
        fit.X_support_.shape[1] if np.ndim(fit.X_support_) == 2 and fit.X_support_.shape[0] else None)
    if d is not None and X.shape[1] != d:
        raise FitDataMismatchError(f"expected X with {d} features, as the fit's training data, "
                                   f"got X.shape={X.shape}")
    mine = fit.data_fingerprint
    if mine is None:
        return
    theirs = data_fingerprint(X, y)
    for i, name, shape in ((0, "X", X.shape), (1, "y", y.shape)):
        if tuple(shape) != tuple(mine[i]):
            raise FitDataMismatchError(f"expected {name} of the fit's shape {tuple(mine[i])}, "
                                       f"got {name}.shape={tuple(shape)}")
    for i, name in ((2, "X"), (3, "y")):
        if theirs is None or theirs[i] != mine[i]:
            raise FitDataMismatchError(
                f"expected {name} equal to the fit's training {name} (its fingerprint {mine[i][:12]}...), "
                f"got a {name} with other values (fingerprint {theirs[i][:12] if theirs else None}...): "
                f"measure a fit against the data it was computed from")


def _same(a, b) -> bool | None:
    """a == b for two scalars (None when they are not both scalars: not decided here)."""
    if not (np.isscalar(a) or a is None) or not (np.isscalar(b) or b is None):
        return None
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return None


def check_fit_params(fit: Fit, params) -> dict:
    """``params`` checked against the fit's solver and the fit's own keywords.

    A keyword the solver does not take (a typo such as ``rgn=1``) raises
    UnexpectedParameterError; a scalar keyword the fit ran with, given with
    another value (``C=1e3`` for a fit at C = 10), raises ValueError naming it:
    the model error measures the fit as computed, it never replaces its parameters.
    """
    info = get_solver(fit.solver)
    extra = [k for k in params if k not in info.params]
    if extra:
        raise UnexpectedParameterError(f"expected keywords of solver {info.name!r} among {list(info.params)}, "
                                       f"got {extra[0]}={short_repr(params[extra[0]])}")
    for k, v in params.items():
        if k in fit.params and _same(v, fit.params[k]) is False:
            raise ValueError(f"expected {k}={short_repr(fit.params[k])} as the fit ran with (or leave {k} out), "
                             f"got {k}={short_repr(v)}: refit with la.fit to measure another {k}")
    return dict(params)


def _check_data(X, y):
    X = as_matrix(X, "X", allow_object=False)
    y = as_vector(y, "y", allow_object=False)
    if X.shape[0] != y.shape[0]:
        raise ValueError(f"expected as many rows in X as entries in y, got X.shape={X.shape}, y.shape={y.shape}")
    return X, y


def exact_problem(fit: Fit, X, y, **params):
    """The solver's ``ExactProblem`` for ``fit`` on (X, y) (its registry hook; typed errors).

    Raises
    ------
    TypeError
        ``fit`` is not a :class:`Fit`.
    NoExactModelError
        The solver registers no exact-model hook (the message says why).
    ValueError
        A fit without a model (breakdown, non-convergence), or X and y that do not match;
        a keyword with another value than the fit's.
    FitDataMismatchError
        X or y not the fit's training data (shape or fingerprint).
    UnexpectedParameterError
        A keyword the solver does not take.
    """
    if not isinstance(fit, Fit):
        raise TypeError(f"expected a Fit (la.fit(...)), got fit={short_repr(fit)} (a {type(fit).__name__})")
    info = get_solver(fit.solver)
    if info.exact_model is None:
        why = info.exact_note or "it registers no exact_model hook"
        raise NoExactModelError(f"expected a solver with an exact model, got solver={fit.solver!r}: {why}")
    if fit.coef_ is None:
        raise ValueError(f"expected a fit with a model, got fit.status={fit.status!r}")
    X, y = _check_data(X, y)
    check_fit_data(fit, X, y)
    return info.exact_model(X, y, fit, **check_fit_params(fit, params))


def exact_model(solver: str, X: ArrayLike, y: ArrayLike, fit: Fit | None = None, **params: Any) -> ExactModel:
    """The certified exact model of ``solver`` on (X, y) with ``params``.

    The paper's problem with X and y as given, formed in extended precision
    and solved to certified digits (:class:`~.model_error.ExactModel`:
    ``bias``, ``coef``, ``digits``, ``problem_condition``, ``error_bound``).
    A solver with discrete choices (support, kept columns, k*) takes them from
    ``fit``; without ``fit`` the solver is run once in float64 with ``params``
    (``precision=`` among them picks another) and its choices are frozen.

    Raises
    ------
    TypeError
        ``fit`` neither a :class:`Fit` nor None; text X or y.
    NoExactModelError
        The solver has no exact-model hook.
    ReferenceAccuracyError
        No route could certify the formed system.
    """
    info = get_solver(solver)
    if fit is not None and not isinstance(fit, Fit):
        raise TypeError(f"expected a Fit (la.fit(...)) or None, got fit={short_repr(fit)}")
    if fit is None:
        X, y = _check_data(X, y)
        fit = run_fit(info.name, X, y, **params)
    elif fit.solver != info.name:
        raise ValueError(f"expected a fit of solver {info.name!r}, got fit.solver={fit.solver!r}")
    params.pop("precision", None)
    problem = exact_problem(fit, X, y, **params)
    return solve_exact_model(problem, target=target_digits(fit.precision))


def wide_choices(solver: str, X, y, params: dict, precision=DEFAULT_CHOICES_PRECISION):
    """The discrete choices of a run of ``solver`` in ``precision`` (a dict), or its outcome as a
    string when it has no model (its status, or the error it raised: a side measurement's crash is
    recorded, not raised).  Seen: rr-lssvr on +-1 labels in mp30 raises ZeroDivisionError in its
    drift diagnostic."""
    info = get_solver(solver)
    try:
        run = run_fit(info.name, X, y, precision=get_precision(precision).name, **params)
    except Exception as exc:  # noqa: BLE001 - see the docstring
        return f"error: {type(exc).__name__}: {exc}"
    if run.coef_ is None:
        return run.status
    return dict(info.exact_model(X, y, run, **params).choices)


def choices_agreement(choices, theirs, wide: str = "wide") -> dict:
    """``choices_agree`` (the choices equal, in order) and ``choices_overlap`` (Jaccard index of the
    supports or kept columns) of two runs' choices; ``theirs`` a string (no model) gives a note."""
    if not choices:
        return {}
    if isinstance(theirs, str):
        return {"exact_note": f"choices not compared: the {wide} run has status {theirs!r}"}
    agree = all(np.array_equal(np.asarray(choices[k]), np.asarray(theirs.get(k))) for k in choices)
    sets = [set(np.atleast_1d(choices[k])) for k in ("support", "columns") if k in choices]
    other = [set(np.atleast_1d(theirs[k])) for k in ("support", "columns") if k in theirs]
    overlap = math.nan
    if sets and other:
        overlap = len(sets[0] & other[0]) / max(len(sets[0] | other[0]), 1)
    return {"choices_agree": bool(agree), "choices_overlap": float(overlap)}


def model_error(fit: Fit, X: ArrayLike, y: ArrayLike, X_test: ArrayLike | None = None, *, escalate: bool = True,
                choices_precision: str = DEFAULT_CHOICES_PRECISION, choices_max_n: int = DEFAULT_CHOICES_MAX_N,
                **params: Any) -> ModelError:
    """Correct digits of ``fit`` against the certified exact model of (X, y).

    Parameters
    ----------
    fit : Fit
        A fit of a registered solver on (X, y) (``la.fit``, or an estimator's ``fit_``).
    X, y : arrays
        The training data the fit was computed from, as given to the solver
        (classification labels in {-1, +1}).
    X_test : (t, m) array, optional
        Points at which the decision values are compared (``prediction_digits``).
    escalate : bool
        Form the exact model again at more bits when the double-double route
        does not resolve the fit (the report's rule; costs seconds at n ~ 500).
    choices_precision : str or None
        Precision of the run whose discrete choices are compared with the
        fit's (None: not compared).  A solver that draws random choices needs
        the fit's ``rng`` in ``params`` for the comparison to mean anything.
    choices_max_n : int
        Larger training sets are not compared (the wide run costs seconds).
    **params
        Keywords of the fit the solver's hook needs beyond ``fit.params``
        (e.g. ``rng``, a validation set): keywords of the solver only, and
        never another value of one the fit ran with.

    Returns
    -------
    ModelError

    Raises
    ------
    TypeError
        ``fit`` not a :class:`Fit`, ``escalate`` not a bool, ``choices_max_n`` not an int, text X or y.
    UnknownPrecisionError
        ``choices_precision`` not a precision (checked before any work).
    NoExactModelError
        The solver has no exact model (the message says why).
    FitDataMismatchError
        X or y are not the fit's training data (``X[:, :1]``, ``2 * X``, ``y + 1``).
    UnexpectedParameterError
        A keyword the solver does not take (``rgn=1``).
    ValueError
        A keyword the fit ran with, given with another value (``C=1e3``).
    ReferenceAccuracyError
        No route could certify the exact model.
    """
    escalate = check_bool("escalate", escalate)
    choices_max_n = check_int("choices_max_n", choices_max_n)
    if choices_precision is not None:
        try:
            choices_precision = get_precision(choices_precision).name
        except UnknownPrecisionError as exc:   # the message names the argument the user passed
            raise UnknownPrecisionError(f"{str(exc).rsplit(', got ', 1)[0]}, "
                                        f"got choices_precision={short_repr(choices_precision)}") from None
    problem = exact_problem(fit, X, y, **params)
    X, y = _check_data(X, y)
    if X_test is not None:
        X_test = as_matrix(X_test, "X_test", allow_object=False)
    exact, errors = fit_exact_model(problem, fit, X_test, escalate=escalate)
    common = dict(problem_condition=float(exact.problem_condition), exact_digits=float(exact.digits),
                  route=exact.method, solver=fit.solver, precision=fit.precision, exact=exact)
    if not exact.digits > 0:   # the formation bound swamps the solve: nothing certified, nothing measured
        return ModelError(math.nan, math.nan, choices_agree=None,
                          note=f"exact model not certified ({exact.digits:.3g} certified digits)", **common)
    extra = {}
    if problem.choices and choices_precision is not None:
        if X.shape[0] > choices_max_n or not get_solver(fit.solver).supports_precision(choices_precision):
            extra = {"exact_note": f"choices not compared (n_train={X.shape[0]} > choices_max_n="
                                   f"{choices_max_n} or {choices_precision} not supported)"}
        else:
            wide = get_precision(choices_precision).name
            extra = choices_agreement(problem.choices, wide_choices(
                fit.solver, X, y, {**dict(fit.params), **params}, wide), wide)
    return ModelError(errors["model_digits"], errors["prediction_digits"],
                      choices_agree=extra.get("choices_agree"), model_error=errors["model_error"],
                      prediction_error=errors["prediction_error"],
                      model_digits_capped=errors["model_digits_capped"],
                      prediction_digits_capped=errors["prediction_digits_capped"],
                      choices_overlap=extra.get("choices_overlap", math.nan),
                      note=extra.get("exact_note", ""), **common)
