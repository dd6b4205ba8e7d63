"""lssvm_analysis: which LS-SVM formulation to trust, in which arithmetic, and which is faster.

Public API (README.md, "The API in a few lines"): precisions / get_precision,
rbf_kernel and friends, solvers / fit, reference_solve and the error
measures, cross_validate / loo_residuals, mrsr, the scikit-learn estimators,
and the named exceptions.  ``__version__`` is the one place of the version
(pyproject.toml reads it from here).
"""
from .core.exceptions import (CholeskyBreakdownError, ConvergenceWarning, FallbackWarning,
                              IllConditionedWarning, KernelAccuracyWarning, LSSVMWarning,
                              LUBreakdownError, ReferenceAccuracyError, UnderflowWarning,
                              UnknownPrecisionError, UnknownSolverError, UnsupportedPrecisionError)
from .linalg.kernels import (Kernel, from_lssvmlab, linear_kernel, make_kernel, poly_kernel, rbf_kernel,
                           to_lssvmlab)
from .linalg.mrsr import MRSRPath, mrsr
from .linalg.cg import cg_iteration_bound, hestenes_stiefel_cg
from .linalg.incomplete_cholesky import pivoted_cholesky, thresholded_cholesky
from .arith.precision import Precision, get_precision, precisions
from .core.records import CholeskyBreakdown, LUBreakdown
from .solvers.result import Fit
from .solvers import fit, get_solver, solvers
from .solvers.multiclass import MulticlassFit, fit_multiclass
from .analysis.reference import (ErrorReport, ReferenceSolution, backward_error, condition_number,
                        correct_digits, forward_error, kkt_residual, reference_solve)
from .analysis.validation import cross_validate, leave_one_out, loo_residuals
from .analysis.tuning import TuneResult, tune
from .estimators import ELSRegressor, LSSVMClassifier, LSSVMRegressor

__version__ = "0.1.0"

__all__ = [
    "CholeskyBreakdown", "CholeskyBreakdownError", "LUBreakdown", "LUBreakdownError",
    "UnsupportedPrecisionError", "ConvergenceWarning", "FallbackWarning",
    "Fit", "IllConditionedWarning", "KernelAccuracyWarning", "UnderflowWarning", "Kernel", "LSSVMWarning", "Precision",
    "ReferenceAccuracyError", "UnknownPrecisionError", "UnknownSolverError",
    "cg_iteration_bound", "fit", "get_precision", "get_solver", "hestenes_stiefel_cg",
    "linear_kernel", "make_kernel", "from_lssvmlab", "to_lssvmlab", "MRSRPath", "mrsr",
    "pivoted_cholesky", "poly_kernel", "precisions",
    "rbf_kernel", "solvers", "thresholded_cholesky",
    "ErrorReport", "ReferenceSolution", "backward_error", "condition_number", "correct_digits",
    "forward_error", "kkt_residual", "reference_solve", "cross_validate", "loo_residuals",
    "leave_one_out", "tune", "TuneResult",
    "ELSRegressor", "LSSVMClassifier", "LSSVMRegressor", "MulticlassFit", "fit_multiclass",
]
