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
  ``assert_matches_exact``, ``check_solver(name)``; ``kit`` (``from lssvm_analysis import kit``,
  :mod:`lssvm_analysis.solvers.kit`): what a plugin solver uses to write only its algorithm
  (``validate_xy``, ``make_fit``, the KKT/KRR systems and exact models, ``ExactProblem``).

Every public name is imported on first use (``_LAZY``, PEP 562): ``import lssvm_analysis``
loads no numerical module, and installed solver plugins load at the registry's first use
(``solvers()``, ``get_solver()``, ``fit()``).  ``__version__`` is the one place of the version
(pyproject.toml reads it from here).
"""
import importlib

__version__ = "0.1.0"

#: Every public name -> the module that defines it, imported on first use (PEP 562).  The
#: pytest11 entry point makes every pytest run in a user's environment import this package (as the
#: parent of ``lssvm_analysis.testing``), even a run that never uses it: eager imports cost 2.1
#: CPU-s (scipy.stats through tuning, pandas through validation, mpmath / gmpy2 / flint through
#: the exact models, scikit-learn through the estimators, matplotlib through ``compare``), so
#: ``import lssvm_analysis`` imports none of them; ``la.fit`` loads the solvers, ``la.compare``
#: the report.  ``register_solver`` is the solvers' ``register``.
_LAZY = {
    **dict.fromkeys(("CholeskyBreakdownError", "ConvergenceWarning", "FallbackWarning", "IllConditionedWarning",
                     "KernelAccuracyWarning", "LSSVMWarning", "LUBreakdownError", "NoExactModelError",
                     "ReferenceAccuracyError", "UnderflowWarning", "UnknownPrecisionError", "UnknownSolverError",
                     "UnsupportedPrecisionError"), "core.exceptions"),
    **dict.fromkeys(("CholeskyBreakdown", "LUBreakdown"), "core.records"),
    **dict.fromkeys(("Kernel", "from_lssvmlab", "linear_kernel", "make_kernel", "poly_kernel", "rbf_kernel",
                     "to_lssvmlab"), "linalg.kernels"),
    **dict.fromkeys(("MRSRPath", "mrsr"), "linalg.mrsr"),
    **dict.fromkeys(("cg_iteration_bound", "hestenes_stiefel_cg"), "linalg.cg"),
    **dict.fromkeys(("pivoted_cholesky", "thresholded_cholesky"), "linalg.incomplete_cholesky"),
    **dict.fromkeys(("Precision", "get_precision", "precisions"), "arith.precision"),
    "Fit": "solvers.result",
    "FitTooCostlyError": "linalg.cost",
    **dict.fromkeys(("LadderKnob", "Variant", "fit", "get_solver", "load_plugins", "variant", "register_solver"),
                    "solvers"),
    **dict.fromkeys(("MulticlassFit", "fit_multiclass"), "solvers.multiclass"),
    **dict.fromkeys(("ErrorReport", "ReferenceSolution", "backward_error", "condition_number", "correct_digits",
                     "forward_error", "kkt_residual", "reference_solve"), "analysis.reference"),
    **dict.fromkeys(("cross_validate", "leave_one_out", "loo_residuals"), "analysis.validation"),
    **dict.fromkeys(("TuneResult", "tune"), "analysis.tuning"),
    **dict.fromkeys(("FitDataMismatchError", "ModelError", "exact_model", "model_error"), "analysis.model_digits"),
    **dict.fromkeys(("compare", "Comparison"), "report.compare"),
    **dict.fromkeys(("ELSRegressor", "LSSVMClassifier", "LSSVMRegressor"), "estimators"),
}
#: Public subpackages and modules, imported on first use: ``solvers`` (callable: ``solvers()`` lists
#: the registered names), ``datasets``, ``estimators``, ``testing`` and ``kit`` (the plugin kit,
#: :mod:`lssvm_analysis.solvers.kit`: ``from lssvm_analysis import kit``).
_LAZY_MODULES = {"solvers": "solvers", "datasets": "datasets", "estimators": "estimators", "testing": "testing",
                 "kit": "solvers.kit"}
_ALIASES = {"register_solver": "register"}


def __getattr__(name: str):
    if name in _LAZY_MODULES:
        value = importlib.import_module(f"{__name__}.{_LAZY_MODULES[name]}")
    elif name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), _ALIASES.get(name, name))
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later lookups find it without this hook
    return value


def __dir__() -> list[str]:
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
    "Variant", "variant", "FitTooCostlyError",
    "datasets", "kit", "LadderKnob", "load_plugins", "Comparison", "compare",
]
