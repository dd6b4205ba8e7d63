"""The plugin kit: what a solver registered from outside the package uses, so it writes only its algorithm.

A solver function ``f(X, y, *, precision="float64", C=1.0, ...) -> Fit``,
registered with ``lssvm_analysis.register_solver``, typically reads::

    from lssvm_analysis import kit          # la.kit: this module

    def fit_ridge(X, y, *, precision="float64", C=1.0):
        X, y, k, p = kit.validate_xy(X, y, C=C, kernel="linear", precision=precision)
        timer = kit.PhaseTimer()
        with timer("solve"):
            ...                                  # the algorithm, in p's arithmetic
        return kit.make_fit("my-ridge", p, coef=p.zeros(0), bias=p.scalar(0), support=(), X=X,
                            kernel=k, timer=timer, w=w, params={"C": C},
                            conditioning=kit.matrix_conditioning(A, p))

* :func:`validate_xy` raises the errors the conformance battery asserts on
  (the message contract of :mod:`lssvm_analysis.testing`);
* :func:`make_fit` assembles the frozen Fit: a non-finite model becomes
  ``status="overflow"``, a condition estimate is recorded, a primal weight
  vector goes in ``w``;
* :func:`breakdown_fit` records a factorization's breakdown (status "breakdown", no model);
* the hooks of the problems the package models: ``kkt_system`` /
  ``exact_kkt_model`` (the LS-SVM KKT system, Suykens (3.5)) and ``krr_system``
  / ``exact_krr_model`` ((K + I/C) alpha = y), for a plugin that solves one of
  them (``register_solver(..., system=kit.kkt_system, exact_model=kit.exact_kkt_model)``);
* :class:`PeakMemory` / :class:`PeakTerms` for the ``peak`` declaration.
"""
from __future__ import annotations

from ..exact.formation import ExactProblem
from ..linalg.condest import Conditioning, cholesky_conditioning, matrix_conditioning
from ..linalg.memory import SOFTWARE, PeakMemory, PeakTerms
from ._common import breakdown_fit, check_binary_labels, check_choice, make_fit, nonfinite_record, validate_xy
from ._registry import fit_params
from .result import Fit, PhaseTimer
from .suykens import exact_kkt_model, exact_krr_model, kkt_system, krr_system

__all__ = ["validate_xy", "check_binary_labels", "check_choice", "make_fit", "breakdown_fit", "nonfinite_record",
           "fit_params", "Fit", "PhaseTimer", "Conditioning", "cholesky_conditioning", "matrix_conditioning",
           "ExactProblem", "kkt_system", "exact_kkt_model", "krr_system", "exact_krr_model",
           "PeakMemory", "PeakTerms", "SOFTWARE"]
