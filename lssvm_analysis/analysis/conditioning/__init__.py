"""Conditioning of the coefficient matrices the LS-SVM solvers form, one module per family.


Pure functions that return tidy ``pandas.DataFrame`` s or frozen dataclasses:
spectra and condition numbers as functions of C (Suykens' gamma), sigma2 and
eta; the Cholesky breakdown point they predict beside the one measured; the
KKT matrix against its Schur complement; CG iterations against (3.27).

Modules: :mod:`._common` (log grids, breakdown scans over any registered
solver, outcome classes), :mod:`.abe` (Omega_e against the primal matrix
of eq. 7, predicted and measured breakdowns), :mod:`.suykens` (the KKT
matrix against its Schur complement, CG against (3.27)).  Each family's
module adds its own studies; this package re-exports them.
"""
from ._common import OUTCOMES, BreakdownScan, classify_outcome, log_grid, scan_breakdown
from .abe import (BreakdownPrediction, EmpiricalFeatures, abe_condition, abe_spectra,
                  check_spectrum_mp, dual_eigenvalues, empirical_features, predict_breakdown,
                  primal_eigenvalues, primal_saturation)
from .suykens import cg_iterations, kkt_condition

__all__ = [
    "EmpiricalFeatures", "empirical_features", "dual_eigenvalues", "primal_eigenvalues",
    "abe_spectra", "abe_condition", "check_spectrum_mp", "BreakdownPrediction",
    "predict_breakdown", "BreakdownScan", "scan_breakdown", "primal_saturation",
    "kkt_condition", "cg_iterations", "classify_outcome", "OUTCOMES", "log_grid",
]
