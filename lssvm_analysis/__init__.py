"""lssvm_analysis: which LS-SVM formulation to trust, in which arithmetic, and which is faster.

Public API (README.md, "The API in a few lines"): precisions / get_precision,
rbf_kernel and friends, solvers / fit, reference_solve and the error
measures, cross_validate / loo_residuals, mrsr, the scikit-learn estimators,
and the named exceptions.

Your data and your solver (README.md, "Your data and your solver"):

* ``model_error(fit, X, y, X_test=None)``: correct digits of a fit against
  the certified *exact model* of its data (``model_digits``,
  ``prediction_digits``, ``problem_condition``, ``exact_digits``,
  ``choices_agree``, ``route``); ``exact_model(solver, X, y, fit=None,
  **params)``: that exact model.  A solver without one raises
  ``NoExactModelError`` saying why.
* ``compare(X, y, ...)``: the answer grid for the user's data (every solver
  with an exact model x its variants x precisions): a tidy frame, figures,
  CSV, JSON and a one-page HTML (``lssvm-analysis compare --data f.csv
  --target y``).
* ``register_solver(name, tasks=..., paper=..., equations=..., ...)``: add a
  solver (decorator); installed packages do it through the entry-point
  group ``lssvm_analysis.solvers``.  Its hooks: ``system``,
  ``exact_model``, ``peak`` (memory), ``ladder`` (kappa-ladder knobs) and
  ``variants`` (``variant(option, value, description, literal=True)`` marks
  the paper's formula as printed; ``get_solver(name).variants`` lists them).
* ``datasets.register(name, loader)``: a user's data for sweeps and reports.
* ``lssvm_analysis.testing`` (a pytest plugin): ``assert_model_digits``,
  ``assert_matches_exact``, ``check_solver(name)``.  ``__version__`` is the one place of the version
  (pyproject.toml reads it from here).
"""
import importlib

from .core.exceptions import (CholeskyBreakdownError, ConvergenceWarning, FallbackWarning,
                              IllConditionedWarning, KernelAccuracyWarning, LSSVMWarning, LUBreakdownError,
                              NoExactModelError, ReferenceAccuracyError, UnderflowWarning, UnknownPrecisionError,
                              UnknownSolverError, UnsupportedPrecisionError)
from .linalg.kernels import (Kernel, from_lssvmlab, linear_kernel, make_kernel, poly_kernel, rbf_kernel,
                           to_lssvmlab)
from .linalg.mrsr import MRSRPath, mrsr
from .linalg.cg import cg_iteration_bound, hestenes_stiefel_cg
from .linalg.incomplete_cholesky import pivoted_cholesky, thresholded_cholesky
from .arith.precision import Precision, get_precision, precisions
from .core.records import CholeskyBreakdown, LUBreakdown
from .solvers.result import Fit
from .solvers import LadderKnob, Variant, fit, get_solver, load_plugins, variant
from . import solvers  # the subpackage, callable: solvers() lists the registered names
from .solvers import register as register_solver
from .solvers.multiclass import MulticlassFit, fit_multiclass
from .analysis.reference import (ErrorReport, ReferenceSolution, backward_error, condition_number,
                        correct_digits, forward_error, kkt_residual, reference_solve)
from .analysis.validation import cross_validate, leave_one_out, loo_residuals
from .analysis.tuning import TuneResult, tune
from .analysis.model_digits import FitDataMismatchError, ModelError, exact_model, model_error
from . import datasets

__version__ = "0.1.0"

#: Public names imported on first use (PEP 562), so that ``import lssvm_analysis`` loads neither
#: matplotlib (the report: ``compare``) nor scikit-learn (the estimators subclass its
#: ``BaseEstimator``): the pytest plugin makes every pytest run in a user's environment import this
#: package, and scikit-learn was 71 % of its 2.0 CPU-s (``python -X importtime``).  The subpackage
#: ``estimators`` itself is made on first use the same way.
_LAZY = {"compare": "lssvm_analysis.report.compare", "Comparison": "lssvm_analysis.report.compare",
         "ELSRegressor": "lssvm_analysis.estimators", "LSSVMClassifier": "lssvm_analysis.estimators",
         "LSSVMRegressor": "lssvm_analysis.estimators"}
_LAZY_MODULES = ("estimators",)


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    elif name in _LAZY_MODULES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later lookups find it without this hook
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_LAZY_MODULES))


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
    "ModelError", "FitDataMismatchError", "NoExactModelError", "exact_model", "model_error", "register_solver",
    "Variant", "variant",
    "datasets", "LadderKnob", "load_plugins", "Comparison", "compare",
]

# Last: installed solver plugins (entry-point group "lssvm_analysis.solvers") register through the
# names above (``lssvm_analysis.register_solver``), which are all bound by now.
load_plugins()
