"""Layer 4: scikit-learn estimators, thin wrappers over the registered solvers.

The estimators validate, map labels, delegate to ``lssvm_analysis.fit`` and
keep the resulting :class:`~lssvm_analysis.result.Fit` in ``fit_`` so users
get GridSearchCV, pipelines and ``check_estimator`` conformance while the
numerics stay in the solver functions.

A solver outcome other than ``"ok"`` (a Cholesky breakdown, CG not converged)
is raised from ``fit`` as the numerical error it is: an estimator without a
model must not pretend to have one, and scikit-learn's model selection turns
the exception into ``error_score``.  The solver functions themselves return
such outcomes as data.
"""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .analysis.validation import loo_residuals
from .core.exceptions import (CholeskyBreakdownError, ConvergenceWarning,  # noqa: F401 (documented)
                              NonFiniteModelError, breakdown_error)
from .solvers import fit as _fit
from .solvers import get_solver, solvers
from .solvers.multiclass import fit_multiclass

__all__ = ["LSSVMRegressor", "LSSVMClassifier", "ELSRegressor"]


def _check_numeric(a, name):
    """TypeError naming the argument for text data (``la.fit`` rejects it; sklearn would parse it)."""
    try:
        arr = np.asarray(a)
    except Exception:  # noqa: BLE001 - anything numpy cannot read is sklearn's to reject
        return
    text = arr.dtype.kind in "US" or (arr.dtype == object and any(isinstance(v, (str, bytes))
                                                                 for v in arr.flat))
    if text:
        raise TypeError(f"expected numeric values in {name}, got text (strings) in {name}; "
                        f"convert {name} to numbers first")


class _LSSVMBase(BaseEstimator):
    _task = "regression"

    def __init__(self, C=1.0, sigma2=1.0, kernel="rbf", degree=3, t=1.0,
                 solver="lssvm-schur", precision="float64"):
        self.C = C
        self.sigma2 = sigma2
        self.kernel = kernel
        self.degree = degree
        self.t = t
        self.solver = solver
        self.precision = precision

    def _kernel_params(self):
        return {"C": self.C, "kernel": self.kernel, "sigma2": self.sigma2,
                "degree": self.degree, "t": self.t}

    def _run(self, X, y, **extra):
        info = get_solver(self.solver)
        if self._task not in info.tasks:
            raise ValueError(f"expected a solver for {self._task}, got solver={self.solver!r} "
                             f"(tasks {info.tasks})")
        if info.takes_task:
            extra["task"] = self._task
        f = _fit(self.solver, X, y, precision=self.precision, **self._kernel_params(), **extra)
        if f.status == "breakdown" and f.breakdown is not None:
            raise breakdown_error(f.breakdown)
        if f.status == "overflow":
            bad = dict(f.diagnostics.get("nonfinite", {}))
            raise NonFiniteModelError(
                f"solver {self.solver!r} in {self.precision} produced a non-finite model (status "
                f"'overflow' in phase {bad.get('phase', '?')!r}: {bad.get('coef_nan', '?')} NaN and "
                f"{bad.get('coef_inf', '?')} inf of {bad.get('n_coef', '?')} coefficients, bias "
                f"{bad.get('bias', '?')}); scale y or C down, or use a wider precision", fit=f)
        if f.status != "ok":
            raise np.linalg.LinAlgError(f"solver {self.solver!r} ended with status {f.status!r}")
        return f

    @property
    def loo_error_(self):
        """Exact leave-one-out error of the fitted model, from one inverse (no refits).

        Regression: mean squared LOO residual; binary classification: LOO
        misclassification rate.  Available for the dense solvers
        (:func:`lssvm_analysis.loo_residuals`); O(N^3) on first access.
        """
        check_is_fitted(self, "fit_")
        if not hasattr(self, "_loo_error"):
            targets = getattr(self, "_loo_targets", None)
            if targets is None:
                raise ValueError("expected a binary or regression fit for loo_error_, got a multiclass one")
            r = loo_residuals(self.fit_)
            if self._task == "classification":
                self._loo_error = float(np.mean(targets * (targets - r) <= 0))
            else:
                self._loo_error = float(np.mean(r ** 2))
        return self._loo_error

    def _remember_targets(self, targets):
        self._loo_targets = targets
        if hasattr(self, "_loo_error"):
            del self._loo_error

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        return tags


class LSSVMRegressor(RegressorMixin, _LSSVMBase):
    """LS-SVM regression (Suykens 3.32) with any registered regression solver.

    Parameters
    ----------
    C : float, default=1.0
        Regularization weight (Suykens' gamma).
    sigma2 : float, default=1.0
        RBF width sigma^2, K(x, z) = exp(-||x - z||^2 / sigma2).
    kernel : {"rbf", "linear", "poly"}, default="rbf"
    degree, t : polynomial kernel (x^T z + t)^degree.
    solver : str, default="lssvm-schur"
        A registry name with the regression task (``la.solvers("regression")``).
    precision : str, default="float64"
        A precision name (``la.precisions()``, or "mpN").

    Attributes
    ----------
    fit_ : Fit
        The solver's outcome (coefficients, timings, diagnostics).
    n_features_in_ : int
    loo_error_ : float
        Exact leave-one-out MSE from one inverse of the KKT matrix (dense
        solvers; Cawley & Talbot 2004), computed on first access.

    Examples
    --------
    Model selection with scikit-learn (Vieira et al.: 10-fold CV over
    gamma in 2^-5..2^12; our C is Suykens'/Vieira's gamma, sigma2 the RBF
    width, LIBSVM's gamma = 1/sigma2):

    >>> from sklearn.model_selection import GridSearchCV
    >>> grid = {"C": 2.0 ** np.arange(-5, 13), "sigma2": 2.0 ** np.arange(-2, 5)}
    >>> search = GridSearchCV(LSSVMRegressor(), grid, cv=10, scoring="neg_mean_squared_error")
    >>> search.fit(X, y).best_params_  # doctest: +SKIP

    A breakdown raised from ``fit`` becomes ``error_score`` (set
    ``error_score="raise"`` to see it).  For one C, ``loo_error_`` is the
    N-fold CV score at the cost of a single fit.
    """

    def fit(self, X, y):
        _check_numeric(X, "X")
        _check_numeric(y, "y")
        X, y = validate_data(self, X, y, y_numeric=True, dtype=np.float64)
        self.fit_ = self._run(X, y, **self._extra())
        self._remember_targets(y)
        return self

    def _extra(self):
        return {}

    def predict(self, X):
        check_is_fitted(self, "fit_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return self.fit_.predict(X)


class ELSRegressor(LSSVMRegressor):
    """Abe's LS SVR in the empirical feature space (sparse for larger eta).

    Parameters
    ----------
    eta : float in (0, 1), default=1e-3
        Threshold on the Cholesky pivot root that selects the support vectors
        (Abe §2.1); larger eta gives the sparse variants.
    solver : {"els-primal", "els-dual"}, default="els-primal"
        PrLS (eq. 6-7) or DuLS (eq. 10-11).
    formation : {"blas3", "as-described"}, default="blas3"
        How the primal matrix of eq. (7) is formed (els-primal only).
    Other parameters as :class:`LSSVMRegressor`.
    """

    def __init__(self, C=1.0, sigma2=1.0, kernel="rbf", degree=3, t=1.0, eta=1e-3,
                 solver="els-primal", precision="float64", formation="blas3"):
        super().__init__(C=C, sigma2=sigma2, kernel=kernel, degree=degree, t=t,
                         solver=solver, precision=precision)
        self.eta = eta
        self.formation = formation

    def _extra(self):
        info = get_solver(self.solver)
        if not info.accepts("eta"):
            takers = [n for n in solvers("regression") if get_solver(n).accepts("eta")]
            raise ValueError(f"expected a solver that takes eta (one of {takers}) for ELSRegressor, "
                             f"got solver={self.solver!r}, which takes {list(info.params)}")
        extra = {"eta": self.eta}
        if get_solver(self.solver).accepts("formation"):
            extra["formation"] = self.formation
        return extra


class LSSVMClassifier(ClassifierMixin, _LSSVMBase):
    """LS-SVM classifier (Suykens 3.5/3.7); multiclass by output coding (3.12).

    Parameters
    ----------
    solver : str, default="lssvm-schur"
        A registry name with the classification task.
    code : {"1vs1", "1vsa", "moc", "ecoc"}, default="1vs1"
        Output code for more than two classes (Suykens §3.2.4, Hamming decoding).
    Other parameters as :class:`LSSVMRegressor`.

    Attributes
    ----------
    classes_ : ndarray
    fit_ : Fit (binary) or MulticlassFit
    loo_error_ : float
        Exact leave-one-out misclassification rate (binary, dense solvers).

    Examples
    --------
    >>> from sklearn.model_selection import GridSearchCV
    >>> grid = {"C": 2.0 ** np.arange(-5, 13), "sigma2": 2.0 ** np.arange(-2, 5)}
    >>> GridSearchCV(LSSVMClassifier(), grid, cv=10).fit(X, y).best_params_  # doctest: +SKIP
    """

    _task = "classification"

    def __init__(self, C=1.0, sigma2=1.0, kernel="rbf", degree=3, t=1.0,
                 solver="lssvm-schur", precision="float64", code="1vs1"):
        super().__init__(C=C, sigma2=sigma2, kernel=kernel, degree=degree, t=t,
                         solver=solver, precision=precision)
        self.code = code

    def fit(self, X, y):
        _check_numeric(X, "X")
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, yi = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"expected two classes in y, got one class: {self.classes_.tolist()}")
        if len(self.classes_) == 2:
            self.fit_ = self._run(X, np.where(yi == 1, 1.0, -1.0))
            self._remember_targets(np.where(yi == 1, 1.0, -1.0))
        else:
            self._remember_targets(None)
            self.fit_ = fit_multiclass(X, yi, solver=self.solver, code=self.code,
                                       precision=self.precision, **self._kernel_params())
        return self

    def decision_function(self, X):
        """Binary: f(x) (positive means ``classes_[1]``); multiclass: minus the
        Hamming distance of the code outputs to each class's codeword."""
        check_is_fitted(self, "fit_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        if len(self.classes_) == 2:
            return self.fit_.decision_function(X)
        return self.fit_.class_scores(X)

    def predict(self, X):
        scores = self.decision_function(X)
        if len(self.classes_) == 2:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
