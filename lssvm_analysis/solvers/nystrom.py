"""The Nystrom feature-map model of a pcp/sr-lssvm fit (Chen & Zhou) and its predictions.

``f(x) = p(x)^T upsilon + b`` with ``p(x) = P_B^{-1} k_B(x)`` (forward
substitution) is the same function as (30), evaluated without forming
``alpha_B = P_B^{-T} upsilon``, whose entries grow like ``cond(P_B)`` and cancel
in the kernel sum: :func:`predict_nystrom` (diagnostics keep ``P_B`` and
``upsilon``).

:class:`NystromFit` is the fit ``coef="feature-map"`` returns: it predicts by
:func:`predict_nystrom`.  :func:`decision_values` evaluates either form, also
for a "not-converged" fit (its last iterate).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..arith.precision import get_precision
from .result import Fit

__all__ = ["NystromFit", "predict_nystrom", "decision_values"]


@dataclass(frozen=True)
class NystromFit(Fit):
    """A pcp/sr-lssvm Fit with ``coef="feature-map"``: it predicts by :func:`predict_nystrom`.

    ``coef_`` still holds alpha_B = P_B^{-T} upsilon (for the coefficient
    counts and comparisons), but ``decision_function`` never uses it: f(x) =
    p(x)^T upsilon + b with p(x) = P_B^{-1} k_B(x), the stable form of (30)
    (SEED_NOTES §6: no explicit G, no cancellation over alpha_B).
    """

    def decision_function(self, X, *, native: bool = False):
        """f(x) at the rows of X through the Nystrom feature map (float64 unless ``native``)."""
        if self.status != "ok":
            return super().decision_function(X, native=native)  # raises: no model
        return _nystrom_values(self, X, native)


def _nystrom_values(fit, X, native=False):
    prec = get_precision(fit.precision)
    with prec.context():
        KB = fit.kernel(fit.X_support_, X, precision=prec)  # (r, n)
        feats = prec.solve_triangular(fit.diagnostics["P_B"], KB, lower=True)
        f = prec.matmul(feats.T, fit.diagnostics["upsilon"]) + fit.bias_
    return f if native else prec.to_float64(f)


def _model_check(fit):
    if fit.coef_ is None:
        raise RuntimeError(f"expected a fit with a model, got status={fit.status!r}")


def decision_values(fit, X, *, feature_map=False):
    """f(x) of a pcp/sr-lssvm fit, also for a "not-converged" fit (its last iterate).

    ``feature_map=False``: (30), ``sum_B alpha_i k(x_i, x) + b``;
    ``True``: :func:`predict_nystrom`.  Float64 result.
    """
    _model_check(fit)
    if feature_map:
        return predict_nystrom(fit, X)
    prec = get_precision(fit.precision)
    with prec.context():
        f = prec.matmul(fit.kernel(X, fit.X_support_, precision=prec), fit.coef_) + fit.bias_
    return prec.to_float64(f)


def predict_nystrom(fit, X):
    """f(x) = p(x)^T upsilon + b with p(x) = P_B^{-1} k_B(x) (the Nystrom feature map).

    Parameters
    ----------
    fit : Fit of pcp-lssvm or sr-lssvm
    X : (n, d) array

    Returns
    -------
    f : (n,) float64

    Notes
    -----
    One forward substitution with the r x r lower triangle P_B per call
    (r^2 n multiply-adds) instead of forming alpha_B = P_B^{-T} upsilon: the
    same function as (30) in exact arithmetic; ||p(x)||^2 <= k(x, x), so the
    final dot product does not cancel the way the kernel sum over alpha_B can.
    """
    _model_check(fit)
    return _nystrom_values(fit, X)
