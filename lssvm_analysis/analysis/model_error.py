"""Model error: a fit's model against the exact model the data define, with certified digits.

The *exact model* of a fit is the solution of the problem its solver's
``exact_model`` hook returns (:mod:`lssvm_analysis.exact.formation`): the
paper's problem with the data as given, formed in extended precision, the
fit's discrete choices frozen.  :func:`solve_exact_model` certifies it:

* ``reference_solve`` gives the solution x~ of the *formed* system with a
  proven bound e_solve on ||x~ - x_formed||_inf (>= ``digits`` digits);
* the formation bound (||dA||, ||db||, from the hook) and the certificate's
  ||A^-1||_inf <= kappa_inf / ||A||_inf give, by first-order perturbation
  theory made rigorous (Higham Thm 7.2),
  ||x_formed - x_exact|| <= ||A^-1|| (||dA|| ||x~|| + ||db||) / (1 - ||A^-1|| ||dA||)
  (x~ in place of x_formed costs a factor 1 + 10^-digits, absorbed in the 2 below);
* the model m = unpack(x) is a signed selection of x, so its error is at
  most the sum, and ``digits`` = -log10(2 (e_solve + e_formation) / ||m~||).

Precision escalation: a problem whose hook offers a ``wider`` route (the
least-squares families, :mod:`lssvm_analysis.exact.formation_balls`) is
formed again in arb balls when the hook's DD route certifies too few digits.
The bits come from the kappa_inf(A) the first route measured,
log2(kappa) + log2(rows) + target log2(10) + 16 (:func:`escalation_bits`;
256 bits when it measured none), then the digits still missing; the target
is what the fit's precision needs (:func:`target_digits`: 18 for float64;
3 for mpN, which no 30-digit model resolves), and :func:`fit_exact_model`
escalates only when the DD route
does not resolve the fit's errors (capped, or within a digit of the
certificate) or certifies < 3 digits.  ``ExactModel.bits`` and ``method``
record the route.

:func:`model_errors` compares a fit with it: ``model_error`` = ||m - m*||_inf
/ ||m*||_inf on m = (bias, coef) and ``prediction_error`` likewise on the
decision values at a fixed set of test points (the exact ones evaluated with
the kernel in double-double and the products in 256-bit balls, certified
by their own bound, which counts the cancellation in K coef*).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable

import flint
import numpy as np
from flint import arb_mat

from ..exact.arb import arb_scalar, exact_mpf
from ..core.exceptions import ReferenceAccuracyError
from ..exact.double_double import kernel_dd
from ..arith.precision import get_precision
from .measures import correct_digits, forward_error
from .reference import reference_solve

__all__ = ["ExactModel", "solve_exact_model", "fit_exact_model", "target_digits", "escalation_bits", "model_errors", "model_vector",
           "BLIND_BITS", "ESCALATION_TRIES", "MARGIN_BITS", "MEASURED_DIGITS"]


@dataclass(frozen=True)
class ExactModel:
    """A certified exact model.

    Attributes
    ----------
    bias : mpf
    coef : ndarray of mpf
    digits : float
        Certified correct digits of (bias, coef) against the exact model
        (formation and solve errors both counted).
    solve_digits : float
        Certified digits of the solve of the formed system alone.
    problem_condition : float
        kappa_inf(A) ** condition_power (:mod:`~lssvm_analysis.exact.formation`).
    method : str
        The hook's formation and the reference's method.
    error_bound : float
        Certified bound on ||m - m_exact||_inf for m = (bias, coef).
    condition : float
        kappa_inf of the formed system (the certificate's upper estimate).
    bits : int
        0 for the hook's own route, else the bits of the escalated formation.
    """

    bias: object
    coef: np.ndarray
    digits: float
    solve_digits: float
    problem_condition: float
    method: str
    error_bound: float = math.inf
    condition: float = math.nan
    bits: int = 0

    def vector(self) -> np.ndarray:
        return model_vector(self.coef, self.bias)


def model_vector(coef, bias) -> np.ndarray:
    """(bias, coef...) as one object array of the values as they are (any precision's
    scalars; the error measures take each exactly)."""
    head = np.empty(1, dtype=object)
    head[0] = 0 if bias is None else bias
    return np.concatenate([head, np.asarray(coef).ravel().astype(object)])


def _norm_inf(A) -> float:
    if hasattr(A, "pieces"):
        return float(np.max(sum(np.abs(P).sum(axis=1) for P in A.pieces()))) * (1 + 1e-12)
    return float(max(sum(abs(float(v)) for v in row) for row in A)) * (1 + 1e-12)


#: Bits of the escalated formation when the first route certified nothing (no kappa to size it by);
#: doubled while the formed system cannot be certified.
BLIND_BITS = 256
#: Escalated formations tried at most (the first sized by kappa, the others by the digits still missing).
ESCALATION_TRIES = 3
#: Bits added to the estimate of the escalation rule (the ball radii's growth beyond N 2^-bits).
MARGIN_BITS = 16


def escalation_bits(condition: float, rows: int, target: float) -> int:
    """Bits of a ball formation whose formation error is ~10^-target of the solution (rule).

    The ball formation of a system from a least-squares matrix with ``rows``
    rows has ||dA||_inf / ||A||_inf <~ rows 2^-bits (the radii of a product of
    inner dimension ``rows``), amplified by kappa_inf(A) = ``condition`` in the
    solution, so bits = log2(kappa) + log2(rows) + target log2(10) +
    ``MARGIN_BITS``, rounded up to a multiple of 64 (limbs), at least 128.
    """
    need = math.log2(max(condition, 1.0)) + math.log2(max(rows, 2)) + target * _LOG2_10 + MARGIN_BITS
    return max(128, 64 * math.ceil(need / 64))


_LOG2_10 = math.log2(10)
#: Certified digits below which a fit's model digits are "not measured" (the grid's threshold,
#: :data:`lssvm_analysis.report.digits_grid.DIGITS_OK`): such an exact model is always escalated.
MEASURED_DIGITS = 3.0


def target_digits(precision, *, digits: int = 30) -> float:
    """Certified digits :func:`fit_exact_model` escalates to for a fit in ``precision``.

    ceil(-log10 u) + 2 (one digit beyond the unit roundoff, one of margin),
    which resolves every digit such a fit can have: 10 for float32, 18 for
    float64, 22 for longdouble (x87).  When that is beyond ``digits - 1``
    (mpN: the reference solve certifies no more), no exact model can resolve
    the fit; escalation then goes as far as the breakdown maps' criterion,
    half the precision's digits and one of margin, ceil(-log10 sqrt(u)) + 1
    (27 for mp50: a map point is ok when its error is below sqrt(u)), within
    ``digits - 1`` and never below :data:`MEASURED_DIGITS`.
    """
    u = get_precision(precision).unit_roundoff
    full = math.ceil(-math.log10(u)) + 2
    if full <= digits - 1:
        return float(full)
    half = math.ceil(-math.log10(math.sqrt(u))) + 1
    return float(max(MEASURED_DIGITS, min(half, digits - 1)))


def _certify(problem, digits: int, bits: int) -> ExactModel:
    """The formed system certified by ``reference_solve`` and the formation bound added (module docstring)."""
    ref = reference_solve(problem.A, problem.rhs, digits=digits)
    model = problem.unpack(ref.x)
    m = model_vector(model["coef"], model["bias"])
    m_norm = max(abs(float(v)) for v in m)
    x_norm = max(abs(float(v)) for v in np.asarray(ref.x).ravel())
    inv = float(ref.cond_estimate) / _norm_inf(problem.A)
    dA, db = problem.A_bound, problem.rhs_bound
    denom = 1.0 - inv * dA
    e_form = math.inf if denom <= 0 else inv * (dA * x_norm + db) / denom
    err = 2.0 * (float(ref.error_bound) + e_form)
    d = -math.log10(err / m_norm) if err > 0 and m_norm > 0 else (math.inf if err == 0 else -math.inf)
    return ExactModel(model["bias"], np.asarray(model["coef"]), float(d), float(ref.digits),
                      float(ref.cond_estimate) ** problem.condition_power,
                      f"{problem.method}; {ref.method}", error_bound=err,
                      condition=float(ref.cond_estimate), bits=bits)


def solve_exact_model(problem, *, digits: int = 30, target: float | None = None,
                      resolved: Callable | None = None) -> ExactModel:
    """Certify the exact model of an :class:`~lssvm_analysis.exact.formation.ExactProblem`.

    Precision escalation: the hook's route (DD kernel) is certified first.
    When it certifies fewer than ``target`` digits (``target`` None: fewer
    than one, or the solve cannot be certified at all; the goal is then
    ``digits - 1``) and the problem has a ``wider`` route, the problem is
    formed again in balls at
    :func:`escalation_bits` of the kappa the first route measured (blind:
    :data:`BLIND_BITS` when it measured none), then, while still short, with
    the bits still missing added (the shortfall in digits times log2(10) plus
    ``MARGIN_BITS``; doubled when nothing was certified),
    :data:`ESCALATION_TRIES` formations at most; the best
    certified one is returned (``bits`` and ``method`` record the route).

    Parameters
    ----------
    problem : ExactProblem
    digits : int
        Digits the reference solve of each formed system certifies.
    target : float or None
        Certified digits wanted of the exact model itself; at most
        ``digits - 1`` is reachable (the solve's own error counts).
    resolved : callable or None
        ``resolved(first) -> bool``: the first route's model is kept, short
        of ``target``, when it certifies >= :data:`MEASURED_DIGITS` and this
        says the measurement it serves is resolved (:func:`fit_exact_model`).

    Raises
    ------
    ReferenceAccuracyError
        No route could certify the formed system.
    """
    goal = digits - 1.0 if target is None else min(float(target), digits - 1.0)
    want = 1.0 if target is None else goal
    first, error = None, None
    try:
        first = _certify(problem, digits, 0)
    except ReferenceAccuracyError as exc:
        error = exc
    enough = first is not None and (first.digits >= want or (
        first.digits >= MEASURED_DIGITS and resolved is not None and resolved(first)))
    if getattr(problem, "wider", None) is None or enough:
        if first is None:
            raise error
        return first
    best = first
    bits = (escalation_bits(first.condition, getattr(problem, "rows", 0) or len(problem.rhs), goal)
            if first is not None and math.isfinite(first.condition) else BLIND_BITS)
    for _ in range(ESCALATION_TRIES):
        try:
            wide = _certify(problem.wider(bits), digits, bits)
        except ReferenceAccuracyError as exc:
            error, wide = exc, None
        if wide is not None and (best is None or wide.digits > best.digits):
            best = wide
        if best is not None and best.digits >= goal:
            break
        if wide is None or not math.isfinite(wide.digits):   # not certified at all: double
            bits *= 2
        else:                                                  # the digits still missing
            bits += 64 * math.ceil(((goal - wide.digits) * _LOG2_10 + MARGIN_BITS) / 64)
    if best is None:
        raise error
    return best


def fit_exact_model(problem, fit, X_test=None, *, escalate: bool = True, digits: int = 30) -> tuple:
    """The exact model of ``fit`` and the fit's errors against it, escalated only when needed.

    The rule (lazy precision escalation): the hook's route is kept when it
    certifies :func:`target_digits` of the fit's precision, or when it
    certifies >= :data:`MEASURED_DIGITS` and the fit's errors are resolved
    against it -- model and predictions not capped, and the model's error
    at least 10 times the exact model's certified error (model_digits <=
    digits - 1), so the error is known to +-0.05 digits.  Otherwise (and
    when it certifies nothing) the problem is formed at more bits
    (:func:`solve_exact_model`), unless ``escalate`` is False.

    Returns
    -------
    (ExactModel, dict of :func:`model_errors`)

    Raises
    ------
    ReferenceAccuracyError
        No route could certify the formed system.
    """
    seen, cache = {}, {}   # the fit's decision values and the DD test kernel, computed once

    def resolved(exact):
        errs = seen[id(exact)] = _errors(fit, exact, X_test, cache)
        return (not errs["model_digits_capped"] and not errs["prediction_digits_capped"]
                and errs["model_digits"] <= exact.digits - 1.0)

    if not escalate:
        problem = replace(problem, wider=None)
    exact = solve_exact_model(problem, digits=digits, target=target_digits(fit.precision, digits=digits),
                              resolved=resolved)
    return exact, seen[id(exact)] if id(exact) in seen else _errors(fit, exact, X_test, cache)


def _exact_predictions(fit, exact: ExactModel, K) -> tuple:
    """f*(x) = K(x, X_support) coef* + bias* at the rows of X_test, and its certified digits.

    ``K``: the double-double kernel K(X_test, X_support).  Returns (object
    array of mpf, digits): the kernel in double-double, the
    products in 256-bit balls; the certified bound per point is the balls'
    radius plus the kernel's DD bound times |coef*| plus the model's
    ``error_bound`` e times (sum_j |K_ij| + 1) (|K_ij| with its DD bound), so the digits -log10(max
    bound / max |f*|) count the cancellation in K coef* (large coefficients
    of an ill-conditioned model), not only the model's digits.
    """
    with flint.ctx.workprec(256):
        Ka = arb_mat(K.hi.tolist()) + arb_mat(K.lo.tolist())
        a = arb_mat([[arb_scalar(v, "coef", (i,))] for i, v in enumerate(exact.coef)])
        f = Ka * a
        b = arb_scalar(exact.bias, "bias", ())
        balls = [f[i, 0] + b for i in range(f.nrows())]
        vals = [v.mid().man_exp() for v in balls]
        rad = np.array([float(v.rad().upper()) for v in balls])
    f_star = np.array([exact_mpf(m, e) for m, e in vals], dtype=object)
    a_abs = np.abs(np.array([float(v) for v in exact.coef]))
    grow = 1.0 + 4.0 * (a_abs.size + 2) * 2.0 ** -53          # the float64 sums below, rounded up
    K_abs = np.abs(K.hi) + np.abs(K.lo) + np.broadcast_to(K.bound, K.shape)   # >= |K_exact|
    bound = (rad + np.broadcast_to(K.bound, K.shape) @ a_abs
             + exact.error_bound * (K_abs.sum(axis=1) + 1.0)) * grow
    f_norm = max(abs(float(v)) for v in f_star)
    digits = -math.log10(bound.max() / f_norm) if f_norm > 0 and bound.max() > 0 else -math.inf
    return f_star, float(digits)


def model_errors(fit, exact: ExactModel, X_test=None) -> dict:
    """``model_error`` / ``model_digits`` and ``prediction_error`` / ``prediction_digits`` of a fit.

    The digits are capped at what the exact model is certified to
    (``exact.digits``; for predictions the certified digits of the exact
    decision values, :func:`_exact_predictions`), with
    ``model_digits_capped`` / ``prediction_digits_capped`` saying so; the
    errors are the measured distances to the computed exact model (below
    10^-exact.digits they are not resolved).

    Parameters
    ----------
    fit : Fit
        With a model (``fit.coef_`` not None).
    exact : ExactModel
    X_test : (t, m) array, optional
        The fixed test points of the prediction error (NaN without them).
        The exact decision values are certified by their own bound (the
        model's error, the DD kernel's ~1e-29 per entry and the balls'
        rounding, through |K| |coef*|: :func:`_exact_predictions`).
    """
    return _errors(fit, exact, X_test, {})


def _errors(fit, exact: ExactModel, X_test, cache: dict) -> dict:
    """:func:`model_errors` with the fit's decision values and the DD test kernel kept in ``cache``
    (they do not depend on the exact model: an escalated one reuses them)."""
    p = get_precision(fit.precision)
    m_fit = model_vector(fit.coef_, fit.bias_)
    me = forward_error(m_fit, exact.vector(), precision=p).value
    out = {"model_error": me, **_capped("model", me, exact.digits),
           "prediction_error": math.nan, "prediction_digits": math.nan,
           "prediction_digits_capped": False}
    if X_test is not None and len(X_test) and exact.coef.size:
        if "K" not in cache:
            cache["K"] = kernel_dd(fit.kernel, np.asarray(X_test, dtype=np.float64), fit.X_support_)
            cache["f_fit"] = fit.decision_function(X_test, native=True)
        f_star, certified = _exact_predictions(fit, exact, cache["K"])
        f_fit = cache["f_fit"]
        pe = forward_error(f_fit, f_star, precision=p).value
        out.update(prediction_error=pe, **_capped("prediction", pe, certified))
    return out


def _capped(kind: str, err: float, certified: float) -> dict:
    """``<kind>_digits`` = min(-log10 err, certified) and ``<kind>_digits_capped``.

    A fit that agrees with the computed exact model beyond the digits to which
    that model is certified only shows that it has at least ``certified``
    correct digits: the row claims no more, and says it was capped.
    """
    measured = _digits(err)
    capped = bool(measured > certified)
    return {f"{kind}_digits": float(certified) if capped else measured,
            f"{kind}_digits_capped": capped}


def _digits(err: float) -> float:
    """-log10 of a relative error (0 digits for an infinite one)."""
    return float(correct_digits(err)) if np.isfinite(err) else 0.0

