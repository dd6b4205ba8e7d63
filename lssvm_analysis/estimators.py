"""Layer 4: scikit-learn estimators, thin wrappers over the registered solvers.

The estimators validate, map labels, delegate to ``lssvm_analysis.fit`` and
keep the resulting :class:`~lssvm_analysis.result.Fit` in ``fit_`` so users
get GridSearchCV, pipelines and ``check_estimator`` conformance while the
numerics stay in the solver functions.

Every solver option, from the registry
--------------------------------------
The kernel and regularization (``C``, ``sigma2``, ``kernel``, ``degree``,
``t``), the ``solver`` and the ``precision`` are explicit parameters.  Every
other keyword of the chosen solver -- its variants (``j_form``, ``ranking``,
``weights``, ...) and its options (``tau``, ``n_support``, ``max_iter``,
``index`` of ``lssvm-pruned``, ...) -- goes in one dict, ``solver_params``,
validated at ``fit`` against the solver's registry entry
(``la.get_solver(name).params`` and ``.variant_options()``): an unknown key is
an ``UnexpectedParameterError`` naming it, a variant value the solver does not
have a ``ValueError`` naming it, so a newly registered solver's options are
usable without touching this module.  Why a dict and not one estimator
parameter per solver keyword: scikit-learn reads the parameters from the
signature of ``__init__``, so a per-keyword design needs either one class per
solver generated from the registry (signatures built at import, pickling by
generated names, defaults the registry does not hold) or the union of all
solvers' keywords on one class (some 50 parameters, most meaningless for the
solver chosen, and colliding meanings: ``tol`` of CCCP against ``tol`` of
LIBSVM).  A dict keeps ``get_params`` / ``set_params`` / ``clone`` /
``check_estimator`` exact and is tuned like any parameter
(``{"solver_params": [{"j_form": "qr"}, {"j_form": "literal"}]}`` in a grid).

Outcomes
--------
A Cholesky or LU breakdown, or a non-finite model, is raised from ``fit`` as
the numerical error it is: an estimator without a model must not pretend to
have one, and scikit-learn's model selection turns the exception into
``error_score``.  An iterative solver that stops at its cap *with* a model
(CCCP of ``r-lssvm-w/-y``, ``sr-lssvm``, iterated ``w-lssvm``) warns
:class:`EstimatorConvergenceWarning` (a scikit-learn ``ConvergenceWarning``
and an ``lssvm_analysis.ConvergenceWarning``) and keeps the last iterate, as
scikit-learn's iterative estimators do; ``fit_.status`` stays
``"not-converged"``.  A solver that stops without a model (CG) raises.  The
solver functions themselves return all of these as data.
"""
from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Mapping

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning as SklearnConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .analysis.validation import loo_residuals
from .core.exceptions import (CholeskyBreakdownError, ConvergenceWarning,  # noqa: F401 (documented)
                              NonFiniteModelError, UnexpectedParameterError, breakdown_error)
from .linalg.kernels import PrecomputedKernel
from .arith.precision import get_precision
from .solvers import fit as _fit
from .solvers import get_solver, solvers
from .solvers.multiclass import CODES, MulticlassFit, fit_multiclass

__all__ = ["LSSVMRegressor", "LSSVMClassifier", "ELSRegressor", "EstimatorConvergenceWarning"]

#: Keywords the estimators set from their own parameters (never in ``solver_params``).
_OWN = ("C", "kernel", "sigma2", "degree", "t", "task")


class EstimatorConvergenceWarning(ConvergenceWarning, SklearnConvergenceWarning):
    """An estimator kept the last iterate of a solver that did not converge.

    Both scikit-learn's ``ConvergenceWarning`` and lssvm_analysis's: filters
    written for either catch it.
    """


def _check_numeric(a, name):
    """TypeError naming the argument for text data (``la.fit`` rejects it; sklearn would parse it)."""
    try:
        arr = np.asarray(a)
    except Exception:  # noqa: BLE001 - anything numpy cannot read is sklearn's to reject
        return
    text = arr.dtype.kind in "US" or (not np.issubdtype(arr.dtype, np.number)
                                      and any(isinstance(v, (str, bytes)) for v in arr.flat))
    if text:
        raise TypeError(f"expected numeric values in {name}, got text (strings) in {name}; "
                        f"convert {name} to numbers first")


def _validate(est, X, *y, **kwargs):
    """scikit-learn's ``validate_data(est, X[, y])``, its ValueErrors for what ``la.fit`` checks too said
    in our words ("expected ..., got name=value"), scikit-learn's text kept after them (its estimator
    checks match it)."""
    try:
        return validate_data(est, X, *y, **kwargs)
    except ValueError as err:
        ours = _our_message(str(err), X, y[0] if y else None)
        if ours is None:
            raise
        raise ValueError(f"{ours} ({err})") from None


def _our_message(msg, X, y):
    """The package's message for a scikit-learn validation message it knows, else None."""
    def shape_of(a):
        try:
            return np.shape(a)
        except ValueError:   # ragged
            return "ragged"
    shape = {"X": shape_of(X), "y": shape_of(y)}
    for name in ("X", "y"):
        if f"Input {name} contains" in msg or (name == "X" and "Input contains" in msg):
            return f"expected finite values in {name}, got NaN or inf"
    if "inconsistent numbers of samples" in msg:
        return f"expected X and y with the same number of samples, got X.shape={shape['X']}, y.shape={shape['y']}"
    if "features, but" in msg and "is expecting" in msg:
        return f"expected X with the number of features seen in fit, got X.shape={shape['X']}"
    if "Expected 2D array" in msg:
        return f"expected a 2-D array for X, got X.shape={shape['X']}"
    if "0 sample(s)" in msg or "0 feature(s)" in msg:
        return f"expected a non-empty array for X, got X.shape={shape['X']}"
    return None


def _fit_quietly(func, *args, **kwargs):
    """Run a fit, holding back the solver's own ConvergenceWarning (the estimator warns once).

    Every other warning the fit raised is re-emitted unchanged.

    Returns
    -------
    result, held : the fit, and the messages of the held-back warnings.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = func(*args, **kwargs)
    held = []
    for w in caught:
        if issubclass(w.category, ConvergenceWarning):
            held.append(str(w.message))
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return result, held


class _LSSVMBase(BaseEstimator):
    _task = "regression"

    def __init__(self, C=1.0, sigma2=1.0, kernel="rbf", degree=3, t=1.0,
                 solver="lssvm-schur", precision="float64", solver_params=None):
        self.C = C
        self.sigma2 = sigma2
        self.kernel = kernel
        self.degree = degree
        self.t = t
        self.solver = solver
        self.precision = precision
        self.solver_params = solver_params

    def _kernel_params(self, kernel=None):
        return {"C": self.C, "kernel": self.kernel if kernel is None else kernel, "sigma2": self.sigma2,
                "degree": self.degree, "t": self.t}

    def _taken(self, info, params):
        """``params`` without those the solver does not take and the estimator holds at their
        defaults (a linear solver is not given sigma2); a non-default one is passed, so that
        ``la.fit`` refuses it by name instead of ignoring it."""
        defaults = _LSSVMBase.__init__.__defaults__[:5]
        own = dict(zip(("C", "sigma2", "kernel", "degree", "t"), defaults))
        return {k: v for k, v in params.items()
                if info.accepts(k) or k not in own or not (isinstance(v, (str, int, float)) and v == own[k])}

    def _user_gram(self, X, Z, name):
        """The matrix of a callable kernel, ``kernel(X, Z)``, checked (scikit-learn's SVC semantics)."""
        G = np.asarray(self.kernel(X, Z), dtype=np.float64)
        if G.shape != (X.shape[0], Z.shape[0]):
            raise ValueError(f"expected kernel({name}, X_fit) of shape {(X.shape[0], Z.shape[0])}, got "
                             f"shape {G.shape} from kernel={self.kernel!r}")
        return G

    def _solver_inputs(self, X):
        """(inputs, kernel) for the solver: X and the named kernel, or row indices and the Gram matrix.

        ``kernel="precomputed"``: X is the (n, n) training Gram matrix; a
        callable: its Gram matrix ``kernel(X, X)``.  Either way the solver gets
        the row indices ``arange(n)[:, None]`` and a :class:`PrecomputedKernel`.
        """
        if isinstance(self.kernel, str) and self.kernel == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError(f"expected a square Gram matrix X for kernel='precomputed', got "
                                 f"X.shape={X.shape}")
            gram = X
        elif callable(self.kernel):
            self._X_fit = X
            gram = self._user_gram(X, X, "X")
        else:
            return X, None
        return np.arange(X.shape[0], dtype=np.float64)[:, None], PrecomputedKernel(gram=gram)

    def _model_at(self, X):
        """(model, inputs) to evaluate at the rows of X; for a Gram kernel, the model with its
        kernel swapped for the test Gram matrix (test rows x training columns)."""
        if isinstance(self.kernel, str) and self.kernel == "precomputed":
            gram = X
        elif callable(self.kernel):
            gram = self._user_gram(X, self._X_fit, "X")
        else:
            return self._model, X
        k = PrecomputedKernel(gram=gram)
        model = self._model
        if isinstance(model, MulticlassFit):
            model = dataclasses.replace(model, fits=tuple(dataclasses.replace(f, kernel=k) for f in model.fits))
        else:
            model = dataclasses.replace(model, kernel=k)
        return model, np.arange(X.shape[0], dtype=np.float64)[:, None]

    def _own_extra(self):
        """Keywords an estimator subclass sets from parameters of its own (ELSRegressor: eta)."""
        return {}

    def _solver_keywords(self, info):
        """``solver_params`` checked against the estimator's own parameters, plus the subclass's.

        The solver's registry entry checks the rest in ``la.fit`` (unknown
        keyword: UnexpectedParameterError; unknown variant value: ValueError).
        """
        given = self.solver_params
        if given is None:
            given = {}
        if not isinstance(given, Mapping):
            raise TypeError(f"expected a dict of solver keywords for solver_params, "
                            f"got solver_params={given!r}")
        if "sample_weight" in given:
            raise ValueError("expected sample_weight as an argument of fit(X, y, sample_weight), not in "
                             "solver_params, got solver_params['sample_weight']")
        own = dict(self._own_extra())
        clash = sorted(k for k in given if k in _OWN or k in own or k == "precision")
        if clash:
            raise ValueError(f"expected {clash[0]} as a parameter of {type(self).__name__}, not in "
                             f"solver_params, got solver_params[{clash[0]!r}]={given[clash[0]]!r}")
        return {**given, **own, **info.task_keywords(self._task)}

    def _weights(self, info, sample_weight):
        """``{"sample_weight": w}`` for a solver whose registry entry takes per-point weights.

        Raises
        ------
        UnexpectedParameterError
            ``sample_weight`` given for a solver without per-point weights (a
            TypeError naming the solver and the solvers that take them).
        """
        if sample_weight is None:
            return {}
        if not info.accepts("sample_weight"):
            takers = [n for n in solvers(self._task) if get_solver(n).accepts("sample_weight")]
            raise UnexpectedParameterError(
                f"expected sample_weight=None for solver={self.solver!r}, whose formulation has no "
                f"per-point weights (solvers with them: {takers}), got a sample_weight")
        return {"sample_weight": np.asarray(sample_weight)}

    def _run(self, X, y, sample_weight=None):
        if X.shape[0] < 2:
            raise ValueError(f"expected at least 2 samples in X (a model with a bias needs two), got "
                             f"n_samples={X.shape[0]}")
        info = get_solver(self.solver)
        if self._task not in info.tasks:
            raise ValueError(f"expected a solver for {self._task}, got solver={self.solver!r} "
                             f"(tasks {info.tasks})")
        keywords = {**self._solver_keywords(info), **self._weights(info, sample_weight)}
        inputs, kernel = self._solver_inputs(X)
        f, held = _fit_quietly(_fit, self.solver, inputs, y, precision=self.precision,
                               **self._taken(info, self._kernel_params(kernel)), **keywords)
        return self._accept(f, held)

    def _accept(self, f, held=()):
        """The fit as the estimator's model, or the numerical error it is (module docstring)."""
        if f.status == "breakdown" and f.breakdown is not None:
            raise breakdown_error(f.breakdown)
        if f.status == "overflow":
            bad = dict(f.diagnostics.get("nonfinite", {}))
            raise NonFiniteModelError(
                f"solver {self.solver!r} in {self.precision} produced a non-finite model (status "
                f"'overflow' in phase {bad.get('phase', '?')!r}: {bad.get('coef_nan', '?')} NaN and "
                f"{bad.get('coef_inf', '?')} inf of {bad.get('n_coef', '?')} coefficients, bias "
                f"{bad.get('bias', '?')}); scale y or C down, or use a wider precision", fit=f)
        if f.status == "not-converged" and f.coef_ is not None:
            warnings.warn(f"solver {self.solver!r} stopped before its tolerance after "
                          f"{f.iterations} iterations (status 'not-converged'{': ' if held else ''}"
                          f"{'; '.join(held)}); the estimator keeps the last iterate. Raise max_iter "
                          f"or tol in solver_params, or scale y",
                          EstimatorConvergenceWarning, stacklevel=4)
            return f, dataclasses.replace(f, status="ok")
        if f.status != "ok":
            raise np.linalg.LinAlgError(f"solver {self.solver!r} ended with status {f.status!r} and no "
                                        f"model" + (f" ({'; '.join(held)})" if held else ""))
        return f, f

    def _set_model(self, f, model):
        """``fit_`` (the solver's record), the model used to predict, and scikit-learn's names.

        ``dual_coef_`` (1, n_SV) and ``intercept_`` (1,) follow ``sklearn.svm.SVR``:
        f(x) = dual_coef_ @ K(support_vectors_, x) + intercept_, in float64;
        the paper's coefficients and bias, in the fit's precision, stay in
        ``fit_.coef_`` (Suykens' alpha, or alpha_k y_k for a classifier) and
        ``fit_.bias_`` (b).
        """
        p = get_precision(f.precision)
        self.fit_ = f
        self._model = model
        self.dual_coef_ = np.asarray(p.to_float64(model.coef_), dtype=np.float64).reshape(1, -1)
        self.intercept_ = np.asarray(p.to_float64(np.asarray([model.bias_], dtype=model.coef_.dtype)),
                                     dtype=np.float64).reshape(1)
        self.support_ = np.asarray(f.support_)
        if isinstance(self.kernel, str) and self.kernel == "precomputed":
            self.support_vectors_ = np.empty((0, 0))  # as sklearn.svm.SVR: no inputs to keep
        elif callable(self.kernel):
            self.support_vectors_ = self._X_fit[self.support_]
        else:
            self.support_vectors_ = np.asarray(f.X_support_)

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
        # A Gram matrix is indexed by samples on both axes: model selection slices it so.
        tags.input_tags.pairwise = isinstance(self.kernel, str) and self.kernel == "precomputed"
        return tags


_PARAMS_DOC = """C : float, default=1.0
        Regularization weight (Suykens' gamma; Chen & Zhou's 1/(m lambda)).
    sigma2 : float, default=1.0
        RBF width sigma^2, K(x, z) = exp(-||x - z||^2 / sigma2).
    kernel : {"rbf", "linear", "poly", "precomputed"} or callable, default="rbf"
        "precomputed": ``fit`` takes the (n, n) Gram matrix as X and
        ``predict`` the (m, n) matrix K(test, train), as scikit-learn's SVR;
        a callable ``kernel(X, Z) -> (len(X), len(Z))`` Gram matrix (SVR's
        semantics) is evaluated once at ``fit`` and on (new points, training
        points) at ``predict`` (the training inputs are kept).  Either way
        the solver runs on a :class:`~lssvm_analysis.linalg.kernels.PrecomputedKernel`,
        whose float64 entries are rounded to ``precision``.
    degree, t : polynomial kernel (x^T z + t)^degree.
    solver : str, default="lssvm-schur"
        A registry name (``la.solvers(task)``).
    precision : str, default="float64"
        A precision name (``la.precisions()``, or "mpN").
    solver_params : dict, optional
        Every other keyword of the solver: its variants and options, as
        listed by ``la.get_solver(solver).params`` and
        ``.variant_options()`` (e.g. ``{"j_form": "qr", "tau": 2.0}`` for
        ``sr-lssvm``, ``{"index": "training"}`` or
        ``{"validation": (X_val, y_val)}`` for ``lssvm-pruned``).  Checked at
        ``fit``: a keyword the solver does not take raises
        ``UnexpectedParameterError``, a variant value it does not have
        ``ValueError``, and a keyword that is a parameter of the estimator
        (C, sigma2, kernel, degree, t, task, precision) ``ValueError``."""

_ATTRIBUTES_DOC = """dual_coef_ : ndarray of shape (1, n_SV)
        scikit-learn's name (as ``sklearn.svm.SVR``) for ``fit_.coef_`` in float64.
    intercept_ : ndarray of shape (1,)
        scikit-learn's name for the bias ``fit_.bias_`` (Suykens' b) in float64.
    support_ : ndarray of int
        Indices of the support vectors in the training set.
    support_vectors_ : ndarray of shape (n_SV, n_features)
    n_features_in_ : int"""


class LSSVMRegressor(RegressorMixin, _LSSVMBase):
    __doc__ = f"""LS-SVM regression (Suykens 3.32) with any registered regression solver.

    Parameters
    ----------
    {_PARAMS_DOC}

    Attributes
    ----------
    fit_ : Fit
        The solver's outcome (the paper's ``coef_`` and ``bias_`` in the
        precision, status, timings, diagnostics).
    {_ATTRIBUTES_DOC}
    loo_error_ : float
        Exact leave-one-out MSE from one inverse of the KKT matrix (dense
        solvers; Cawley & Talbot 2004), computed on first access.

    Warns
    -----
    EstimatorConvergenceWarning
        The solver stopped at its iteration cap with a model; the last iterate is kept.

    Raises
    ------
    CholeskyBreakdownError, LUBreakdownError, NonFiniteModelError
        From ``fit``, when the solver ends without a model.

    Examples
    --------
    >>> import numpy as np, lssvm_analysis as la
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-3, 3, (60, 1)); y = np.sinc(X[:, 0])
    >>> est = la.LSSVMRegressor(C=10.0, sigma2=0.5).fit(X, y)
    >>> est.dual_coef_.shape, est.intercept_.shape
    ((1, 60), (1,))

    Any solver with any of its options and variants (the registry lists them):

    >>> sparse = la.LSSVMRegressor(C=10.0, sigma2=0.5, solver="pcp-lssvm",
    ...                            solver_params={{"n_support": 10, "j_form": "qr"}}).fit(X, y)
    >>> sparse.support_.size
    10
    >>> pruned = la.LSSVMRegressor(C=10.0, sigma2=0.5, solver="lssvm-pruned",
    ...                            solver_params={{"index": "training"}}).fit(X, y)

    Model selection with scikit-learn (Vieira et al.: 10-fold CV over
    gamma in 2^-5..2^12; our C is Suykens'/Vieira's gamma, sigma2 the RBF
    width, LIBSVM's gamma = 1/sigma2), variants tuned like any parameter:

    >>> from sklearn.model_selection import GridSearchCV
    >>> grid = {{"C": 2.0 ** np.arange(-5, 13), "sigma2": 2.0 ** np.arange(-2, 5)}}
    >>> search = GridSearchCV(la.LSSVMRegressor(), grid, cv=10, scoring="neg_mean_squared_error")
    >>> search.fit(X, y).best_params_  # doctest: +SKIP
    >>> grid = {{"solver": ["sr-lssvm"], "solver_params": [{{"j_form": v}} for v in ("centered", "literal")]}}

    A breakdown raised from ``fit`` becomes ``error_score`` (set
    ``error_score="raise"`` to see it).  For one C, ``loo_error_`` is the
    N-fold CV score at the cost of a single fit; :func:`lssvm_analysis.tune`
    runs the chapter's grid-and-refine protocol.
    """

    def fit(self, X, y, sample_weight=None):
        """Fit the solver on (X, y); ``sample_weight`` for solvers with per-point weights (w-lssvm)."""
        _check_numeric(X, "X")
        _check_numeric(y, "y")
        X, y = _validate(self, X, y, y_numeric=True, dtype=np.float64)
        self._set_model(*self._run(X, y, sample_weight))
        self._remember_targets(y)
        return self

    def predict(self, X):
        check_is_fitted(self, "fit_")
        _check_numeric(X, "X")   # fit refuses text; predict parsed it
        X = _validate(self, X, reset=False, dtype=np.float64)
        model, inputs = self._model_at(X)
        return model.predict(inputs)


class ELSRegressor(LSSVMRegressor):
    """Abe's LS SVR in the empirical feature space (sparse for larger eta).

    Parameters
    ----------
    eta : float in (0, 1), default=1e-3
        Threshold on the Cholesky pivot root that selects the support vectors
        (Abe §2.1); larger eta gives the sparse variants.
    solver : str, default="els-primal"
        A regression solver that takes ``eta`` (registry): "els-primal"
        (PrLS, eq. 6-7) or "els-dual" (DuLS, eq. 10-11).
    formation : {"blas3", "as-described"}, default="blas3"
        How the primal matrix of eq. (7) is formed (passed to the solvers
        whose registry entry takes ``formation``).
    Other parameters as :class:`LSSVMRegressor` (``solver_params`` for
    the remaining keywords, e.g. ``feature_map``).
    """

    def __init__(self, C=1.0, sigma2=1.0, kernel="rbf", degree=3, t=1.0, eta=1e-3,
                 solver="els-primal", precision="float64", formation="blas3", solver_params=None):
        super().__init__(C=C, sigma2=sigma2, kernel=kernel, degree=degree, t=t,
                         solver=solver, precision=precision, solver_params=solver_params)
        self.eta = eta
        self.formation = formation

    def _own_extra(self):
        info = get_solver(self.solver)
        if not info.accepts("eta"):
            takers = [n for n in solvers("regression") if get_solver(n).accepts("eta")]
            raise ValueError(f"expected a solver that takes eta (one of {takers}) for ELSRegressor, "
                             f"got solver={self.solver!r}, which takes {list(info.params)}")
        extra = {"eta": self.eta}
        if info.accepts("formation"):
            extra["formation"] = self.formation
        return extra


class LSSVMClassifier(ClassifierMixin, _LSSVMBase):
    __doc__ = f"""LS-SVM classifier (Suykens 3.5/3.7); multiclass by output coding (3.12).

    Parameters
    ----------
    {_PARAMS_DOC}
    code : {{"1vs1", "1vsa", "moc", "ecoc"}}, default="1vs1"
        Output code for more than two classes (Suykens §3.2.4, Hamming decoding).

    Attributes
    ----------
    classes_ : ndarray
    fit_ : Fit (binary) or MulticlassFit
    {_ATTRIBUTES_DOC}
        (binary problems only; a multiclass fit keeps its binary fits in ``fit_``).
    loo_error_ : float
        Exact leave-one-out misclassification rate (binary, dense solvers).

    Examples
    --------
    >>> import numpy as np, lssvm_analysis as la
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = la.LSSVMClassifier(C=10.0, sigma2=2.0, solver="op-lssvm",
    ...                          solver_params={{"ranking": "bordered-inverse"}}).fit(X, y)
    >>> float(clf.score(X, y)) > 0.9
    True
    """

    _task = "classification"

    def __init__(self, C=1.0, sigma2=1.0, kernel="rbf", degree=3, t=1.0,
                 solver="lssvm-schur", precision="float64", code="1vs1", solver_params=None):
        super().__init__(C=C, sigma2=sigma2, kernel=kernel, degree=degree, t=t,
                         solver=solver, precision=precision, solver_params=solver_params)
        self.code = code

    def fit(self, X, y, sample_weight=None):
        """Fit on (X, y); ``sample_weight`` for solvers with per-point weights (w-lssvm)."""
        _check_numeric(X, "X")
        if not isinstance(self.code, str) or self.code not in CODES:   # also with two classes (no code used)
            raise ValueError(f"expected code in {CODES}, got code={self.code!r}")
        X, y = _validate(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, yi = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"expected two classes in y, got one class: {self.classes_.tolist()}")
        if len(self.classes_) == 2:
            signs = np.where(yi == 1, 1.0, -1.0)
            self._set_model(*self._run(X, signs, sample_weight))
            self._remember_targets(signs)
        else:
            self._remember_targets(None)
            info = get_solver(self.solver)
            keywords = {**self._solver_keywords(info), **self._weights(info, sample_weight)}
            keywords.pop("task", None)  # fit_multiclass sets it for every binary fit
            inputs, kernel = self._solver_inputs(X)
            self.fit_ = self._model = fit_multiclass(inputs, yi, solver=self.solver, code=self.code,
                                                     precision=self.precision,
                                                     **self._kernel_params(kernel), **keywords)
        return self

    def decision_function(self, X):
        """Binary: f(x) (positive means ``classes_[1]``); multiclass: minus the
        Hamming distance of the code outputs to each class's codeword."""
        check_is_fitted(self, "fit_")
        _check_numeric(X, "X")   # fit refuses text; predict parsed it
        X = _validate(self, X, reset=False, dtype=np.float64)
        model, inputs = self._model_at(X)
        if len(self.classes_) == 2:
            return model.decision_function(inputs)
        return model.class_scores(inputs)

    def predict(self, X):
        scores = self.decision_function(X)
        if len(self.classes_) == 2:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
