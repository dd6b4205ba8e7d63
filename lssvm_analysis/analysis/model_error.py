"""Model error: a fit's model against the exact model the data define, with certified digits.

The *exact model* of a fit is the solution of the problem its solver's
``exact_model`` hook returns (:mod:`lssvm_analysis.solvers.formation`): the
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

:func:`model_errors` compares a fit with it: ``model_error`` = ||m - m*||_inf
/ ||m*||_inf on m = (bias, coef) and ``prediction_error`` likewise on the
decision values at a fixed set of test points (the exact ones evaluated with
the kernel in double-double and the products in 256-bit balls).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import flint
import numpy as np
from flint import arb_mat

from ..core._arb import arb_scalar, exact_mpf
from ..core.extended import kernel_dd
from ..core.precision import get_precision
from .measures import correct_digits, forward_error
from .reference import reference_solve

__all__ = ["ExactModel", "solve_exact_model", "model_errors", "model_vector", "KERNEL_DIGITS"]


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
        kappa_inf(A) ** condition_power (:mod:`~lssvm_analysis.solvers.formation`).
    method : str
        The hook's formation and the reference's method.
    """

    bias: object
    coef: np.ndarray
    digits: float
    solve_digits: float
    problem_condition: float
    method: str

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


def solve_exact_model(problem, *, digits: int = 30) -> ExactModel:
    """Certify the exact model of an :class:`~lssvm_analysis.solvers.formation.ExactProblem`.

    Raises
    ------
    ReferenceAccuracyError
        The formed system could not be certified to ``digits``.
    """
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
                      f"{problem.method}; {ref.method}")


def _exact_predictions(fit, exact: ExactModel, X_test) -> np.ndarray:
    """f*(x) = K(x, X_support) coef* + bias* at the rows of X_test (mpf, 256-bit products)."""
    K = kernel_dd(fit.kernel, np.asarray(X_test, dtype=np.float64), fit.X_support_)
    with flint.ctx.workprec(256):
        Ka = arb_mat(K.hi.tolist()) + arb_mat(K.lo.tolist())
        a = arb_mat([[arb_scalar(v, "coef", (i,))] for i, v in enumerate(exact.coef)])
        f = Ka * a
        b = arb_scalar(exact.bias, "bias", ())
        vals = [(f[i, 0] + b).mid().man_exp() for i in range(f.nrows())]
    return np.array([exact_mpf(m, e) for m, e in vals], dtype=object)


def model_errors(fit, exact: ExactModel, X_test=None) -> dict:
    """``model_error`` / ``model_digits`` and ``prediction_error`` / ``prediction_digits`` of a fit.

    The digits are capped at what the exact model is certified to
    (``exact.digits``; for predictions also :data:`KERNEL_DIGITS`), with
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
        The exact decision values carry the kernel's DD error (~1e-29
        relative) besides the model's ``exact.digits``.
    """
    p = get_precision(fit.precision)
    m_fit = model_vector(fit.coef_, fit.bias_)
    me = forward_error(m_fit, exact.vector(), precision=p).value
    out = {"model_error": me, **_capped("model", me, exact.digits),
           "prediction_error": math.nan, "prediction_digits": math.nan,
           "prediction_digits_capped": False}
    if X_test is not None and len(X_test) and exact.coef.size:
        f_star = _exact_predictions(fit, exact, X_test)
        f_fit = fit.decision_function(X_test, native=True)
        pe = forward_error(f_fit, f_star, precision=p).value
        # the exact decision values: the model's certified digits, and the DD kernel's ~1e-29
        out.update(prediction_error=pe, **_capped("prediction", pe, min(exact.digits, KERNEL_DIGITS)))
    return out


#: Digits of the double-double kernel values of the exact predictions (relative error <= ~1e-29,
#: :mod:`lssvm_analysis.core.extended`): a prediction cannot be certified beyond them.
KERNEL_DIGITS = 28.5


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

