"""Gates for a user's own CI: assertions on model digits and the solver conformance battery.

A pytest plugin (entry point ``pytest11``: installed with the package, active
in every pytest run), usable as plain functions too::

    from lssvm_analysis.testing import assert_model_digits, check_solver

    def test_my_fit_keeps_six_digits():
        fit = la.fit("lssvm-schur", X, y, precision="float64", C=1e4, sigma2=1.0)
        assert_model_digits(fit, X, y, at_least=6)

    def test_my_solver_conforms():
        check_solver("my-krr")        # the battery the project runs on its own solvers

* :func:`assert_model_digits` -- the fit has at least ``at_least`` correct
  digits of the exact model of its data (:func:`lssvm_analysis.model_error`);
  the failure message gives the measured digits, the problem's kappa and the
  exact model's certificate (its certified digits and route).
* :func:`assert_matches_exact` -- the fit is within the a-priori forward
  bound c n kappa u (c = 30, LAPACK's test ratio) of the exact model, or
  within ``tol``.
* :func:`check_solver` -- every check of the conformance battery
  (:mod:`.checks`: precisions, bad input, fuzz, determinism, peak memory within
  its declaration, condition estimate, reference agreement to the declared
  backward bound, exact model, the estimator checks) on a registered solver,
  like scikit-learn's ``check_estimator``; :func:`solver_checks` lists them
  for parametrizing.  It returns a :class:`SolverReport`: the checks that
  ran, those that could not run with the reason, and what the caller
  accepted.  A solver with no accuracy hook fails unless ``accuracy="skip"``.

Every gate refuses an argument that would make it vacuous (a TypeError or
ValueError naming it): a negative or zero ``at_least``,
``predictions_at_least`` without ``X_test``, ``c`` or ``tol`` not positive
and finite, a precision the solver does not support, data that are not the
fit's (:class:`~lssvm_analysis.analysis.model_digits.FitDataMismatchError`),
a keyword the solver does not take or another value of one the fit ran with.

The message contract
--------------------
What the battery asserts on, so that a plugin author knows what to raise
(``check_bad_hyperparameter``, ``check_bad_data``, ``check_unknown_solver``,
``check_undeclared_precision``, ``check_unknown_variant``):

* a bad C, sigma2 or precision: a ``ValueError`` whose message contains the
  keyword's name and ``repr(value)`` (e.g. ``C`` and ``-1.0``; ``precision``
  and ``'float16'``);
* a NaN in X: a ``ValueError`` whose message contains ``X``;
* X and y of different lengths: a ``ValueError`` containing
  ``X.shape=(40, 2)`` and ``y.shape=(39,)`` (the shapes as ``repr(tuple)``);
* an unregistered solver: ``UnknownSolverError`` containing ``repr(name)``;
* a precision outside the declared ones: ``UnsupportedPrecisionError``
  containing ``repr(precision)``;
* an unknown variant value: a ``ValueError`` containing ``option='no-such-variant'``.

:mod:`lssvm_analysis.solvers.kit` (``validate_xy``) raises all of these; a plugin
that validates with it meets the contract by construction.

Import cost
-----------
The pytest11 entry point imports this module in every pytest run of the
environment, and pytest reads every attribute it lists (looking for fixtures).
So every public name here is a light, real object: the functions import the
suite (the solvers, the exact models, scikit-learn's estimator checks) on
their first call, :class:`SolverReport` is plain Python, and importing
``lssvm_analysis.testing`` loads neither numpy's dependents (scipy, pandas,
mpmath, flint) nor scikit-learn nor matplotlib.  (A PEP 562 ``__getattr__``
would not do: pytest's scan would resolve each lazy name.)
"""
from __future__ import annotations

import importlib
import math

import lssvm_analysis   # light: its names are imported on first use (the annotations name la.ModelError)

from .report import SolverReport

__all__ = ["assert_model_digits", "assert_matches_exact", "check_solver", "solver_checks", "skipped_checks",
           "SolverReport"]


def _suite(module: str):
    """``lssvm_analysis.<module>``, imported at a gate's first call (see "Import cost" above)."""
    return importlib.import_module(f"lssvm_analysis.{module}")


def _positive(name: str, value, *, allow_none: bool = False):
    """``value`` as a positive finite float, or a TypeError / ValueError naming ``name``."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a positive finite number for {name}, "
                        f"got {name}={_suite('core.validation').short_repr(value)}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"expected a positive finite number for {name} (a gate that cannot fail checks "
                         f"nothing), got {name}={value!r}")
    return float(value)


def _check_fit(fit) -> None:
    """TypeError naming ``fit`` unless it is a :class:`~lssvm_analysis.Fit` (before any measurement)."""
    if not isinstance(fit, _suite("solvers.result").Fit):
        raise TypeError(f"expected a Fit (la.fit(...)), got fit={_suite('core.validation').short_repr(fit)}")


def _certificate(err: lssvm_analysis.ModelError) -> str:
    choices = ("" if err.choices_agree is None else
               "; the fit's discrete choices " + ("equal" if err.choices_agree else "differ from")
               + " those of a wide run")
    return (f"problem kappa {err.problem_condition:.3g}; exact model certified to {err.exact_digits:.1f} digits "
            f"({err.route}){choices}")


def assert_model_digits(fit, X, y, at_least: float, *, X_test=None, predictions_at_least: float | None = None,
                        **params) -> lssvm_analysis.ModelError:
    """Assert that ``fit`` has at least ``at_least`` correct digits of the exact model of (X, y).

    Parameters
    ----------
    fit : Fit
    X, y : arrays
        The training data of the fit, as given to the solver.
    at_least : float
        Correct digits required of the model (bias, coef) against the exact model (> 0).
    X_test : array, optional
        Also require ``predictions_at_least`` (default ``at_least``) digits of the decision values there.
    predictions_at_least : float, optional
        Only with ``X_test`` (refused without: nothing would be measured).
    **params
        As :func:`lssvm_analysis.model_error` (``rng`` of a solver with random choices, ...).

    Returns
    -------
    ModelError
        The measurement, for further assertions.

    Raises
    ------
    AssertionError
        With the measured digits, the problem's kappa and the exact model's certificate.
    TypeError, ValueError
        A threshold that is not a positive finite number, ``predictions_at_least`` without
        ``X_test``, data that are not the fit's, keywords the fit's solver does not take.
    """
    _check_fit(fit)
    at_least = _positive("at_least", at_least)
    if predictions_at_least is not None and X_test is None:
        raise ValueError(f"expected X_test with predictions_at_least (without test points no prediction "
                         f"digit is measured), got predictions_at_least={predictions_at_least!r}, X_test=None")
    predictions_at_least = _positive("predictions_at_least", at_least if predictions_at_least is None
                                     else predictions_at_least)
    err = _suite("analysis.model_digits").model_error(fit, X, y, X_test, **params)
    measured = [("model", err.model_digits, "at_least", at_least)]
    if X_test is not None:
        measured.append(("prediction", err.prediction_digits, "predictions_at_least", predictions_at_least))
    short = [f"{d:.2f} {kind} digits < {name}={want:g}" for kind, d, name, want in measured if not d >= want]
    if short:
        raise AssertionError(f"{fit.solver} in {fit.precision}: {', '.join(short)} "
                             f"({_certificate(err)}){'; ' + err.note if err.note else ''}")
    return err


def assert_matches_exact(fit, X, y, *, tol: float | None = None, c: float = 30.0,
                         **params) -> lssvm_analysis.ModelError:
    """Assert that ``fit`` is within the a-priori forward bound of the exact model of (X, y).

    The bound (``tol`` None): c n kappa u + 10^-exact_digits, with kappa the
    problem's condition, n the training points, u the fit's unit roundoff and
    c = 30 (LAPACK's test-ratio threshold): what a backward-stable formation
    and solve guarantee (Higham, Thm 7.2), plus what the exact model is
    certified to.  A printed formula that squares the condition fails it.
    ``tol``: a relative model error to hold instead.

    Raises
    ------
    AssertionError
        With the measured error and digits, the bound and the exact model's certificate.
    TypeError, ValueError
        ``c`` or ``tol`` not a positive finite number; data that are not the fit's.
    """
    _check_fit(fit)
    c = _positive("c", c)
    tol = _positive("tol", tol, allow_none=True)
    err = _suite("analysis.model_digits").model_error(fit, X, y, **params)
    u = _suite("arith.precision").get_precision(fit.precision).unit_roundoff
    bound = tol if tol is not None else c * len(y) * err.problem_condition * u + 10.0 ** -err.exact_digits
    what = "tol" if tol is not None else f"{c:g} n kappa u"
    if not err.model_error <= bound:
        raise AssertionError(f"{fit.solver} in {fit.precision}: model error {err.model_error:.3g} "
                             f"({err.model_digits:.2f} digits) > {what} = {bound:.3g} ({_certificate(err)})")
    return err


def solver_checks(name: str, *, precisions_=None) -> list:
    """``(label, check)`` pairs: every check of the battery that applies to solver ``name``.

    ``check()`` takes no argument; the label says what it checks.  Which checks
    apply is read from the registry: the precisions the solver declares (or
    ``precisions_``, each of which it must support), its ``system`` hook
    (reference agreement), its variants, its ``exact_model`` hook (checked in
    mp40 when it runs there), its ``peak`` declaration, its ``time`` model
    (positive, finite, non-decreasing in n: the estimate ``la.fit(...,
    max_seconds=...)`` refuses by; a solver without one is listed by
    :func:`skipped_checks` as "time_model", its fits never refused), its
    ``condition_estimate``, its tasks (the estimator checks).
    """
    return _suite("testing.battery").solver_checks(name, precisions_=precisions_)


def skipped_checks(name: str) -> dict:
    """Check -> why it does not apply to solver ``name`` (the registry entry lacks what it needs)."""
    return _suite("testing.battery").skipped_checks(name)


def check_solver(name: str, *, precisions=None, accuracy: str = "required") -> SolverReport:
    """Run the conformance battery on a registered solver (the project's own, written once).

    Like ``sklearn.utils.estimator_checks.check_estimator``: every check that
    applies (:func:`solver_checks`) is run; the failures are collected and
    raised together in one ``AssertionError`` naming each check and its
    figures.  A solver without an accuracy check (no ``system`` hook, no
    ``exact_model`` hook run in mp40) fails with ``accuracy="required"``.

    Parameters
    ----------
    name : str
        A registered solver.
    precisions : list of str, optional
        Restrict the precision-dependent checks to these (each must be one the
        solver supports: an unsupported one is refused, not dropped).
    accuracy : {"required", "skip"}
        "skip": accept that the solver's accuracy is not checked (named in the
        report's ``accepted``).

    Returns
    -------
    SolverReport
        The labels of the checks that ran (all passed), the ones not run and why.

    Raises
    ------
    AssertionError
        One or more checks failed (or no accuracy check applies and ``accuracy="required"``).
    UnknownSolverError, UnknownPrecisionError, UnsupportedPrecisionError, TypeError, ValueError
        A bad ``name``, ``precisions`` or ``accuracy``.
    """
    return _suite("testing.battery").check_solver(name, precisions=precisions, accuracy=accuracy)


def pytest_configure(config):
    """The plugin's marker: ``@pytest.mark.lssvm_gate`` (a model-digit gate; ``-m lssvm_gate`` runs them)."""
    config.addinivalue_line("markers", "lssvm_gate: a model-digit gate of lssvm_analysis.testing")
