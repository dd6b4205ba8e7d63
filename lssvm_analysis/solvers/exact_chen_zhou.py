"""Exact models of Chen & Zhou's primal solvers (pcp-lssvm, sr-lssvm) and of FS-LSSVM.

All three fit, in exact arithmetic, Zhao & Sun's reduced LS-SVR (7) on a
support set the algorithm chose (the pivots of the pivoted Cholesky, the
Renyi-entropy prototypes): their exact model is
:func:`~lssvm_analysis.exact.formation.reduced_lssvr_problem` on that
frozen set, with the targets the fit's last solve used.  Registered with the
solvers as ``exact_model=`` (:mod:`lssvm_analysis.solvers._registry`).
"""
from __future__ import annotations

from ._common import validate_xy
from ._registry import fit_params
from ..exact.formation import exact_targets, reduced_lssvr_problem

__all__ = ["exact_primal_model", "exact_fs_model"]


def _frozen_support_model(X, y, fit, params, targets, choices):
    """Zhao & Sun's (7) on ``fit.support_`` (penalty K_SS / C) with the exact ``targets(y)``."""
    merged = fit_params(fit, params)
    X, y, _, _ = validate_xy(X, y, task=merged.get("task", "regression"), C=merged["C"],
                             precision="float64")
    return reduced_lssvr_problem(X, targets(y), fit.kernel, merged["C"], fit.support_,
                                 penalty="kernel",
                                 choices={"support": tuple(int(i) for i in fit.support_), **choices})


def exact_primal_model(X, y, fit, **params):
    """Exact model of a pcp-lssvm or sr-lssvm fit (registry ``exact_model=``).

    The frozen choices are the pivots B (in pivot order; the rank r the
    trace test reached) and, for the CCCP of Algorithm 1, the gamma the last
    step-3 solve used (``diagnostics["gamma"]``, zero for PCP).  With K ~ P
    P^T and P = K(X, X_B) P_B^{-T} (the exact pivoted Cholesky on B), upsilon
    = P_B^T alpha_B turns the primal (24)-(29) into
    min (m lambda / 2) alpha^T K_BB alpha + 1/2 ||y - gamma - K(X, X_B) alpha - b e||^2,
    i.e. Zhao & Sun's (7) on the support B with targets y - gamma (m lambda
    = 1/C): :func:`formation.reduced_lssvr_problem`, penalty ``"kernel"``.
    P, J (any ``j_form``) and P_B drop out, so every variant has this one exact model.

    Why the last weighted system and not the CCCP fixed point: the fit stops
    at ||Delta gamma|| < tol (1e-2 by default), so its distance to the fixed
    point is the iteration's truncation, which would swamp every rounding
    error; with gamma frozen (taken exactly in the fit's precision: it is
    the data of the last solve) the model error measures what the arithmetic
    did to the last solve -- the formation of P and J, the solve and
    alpha_B = P_B^{-T} upsilon (Comment 2) -- and nothing of the stopping
    rule.  The fragile formulas of SEED_NOTES §6 ((27)'s cancellation, the
    explicit alpha_B) are in that path; the smoothing (22) enters only
    through gamma, whose own error it does not see.  Problem condition:
    kappa_2 of the least-squares matrix of (7) on B.
    """
    gamma = fit.diagnostics["gamma"]
    return _frozen_support_model(X, y, fit, params, lambda yk: exact_targets(yk, gamma), {})


def exact_fs_model(X, y, fit, **params):
    """Exact model of an fs-lssvm fit (registry ``exact_model=``): Zhao & Sun's (7) on the prototypes.

    With every eigenpair of K_MM kept, w = Lambda^{1/2} U^T coef gives
    w^T phi(x) = coef^T k_M(x) and ||w||^2 = coef^T K_MM coef, so the primal
    ridge of step 3 is min 1/2 coef^T K_MM coef + C/2 ||y - K(X, X_M) coef - b e||^2:
    :func:`formation.reduced_lssvr_problem` on the frozen prototypes (penalty
    ``"kernel"``).  The prototypes (a float64 heuristic, the same for every
    precision) and ``n_features`` (``features="floored"``: the eigenpairs
    above the floor M u, which depends on the precision; ``"literal"``: all)
    are the recorded choices.  The exact model keeps every eigenpair, so
    both ``features`` variants share it: the floored fit's model error
    includes its truncation, the literal fit's the noise Lambda^{-1/2}
    amplifies (SEED_NOTES §6).  Problem condition: kappa_2 of the least-squares matrix
    of (7) on the prototypes.
    """
    return _frozen_support_model(X, y, fit, params, lambda yk: yk,
                                 {"n_features": int(fit.diagnostics["n_features"])})
