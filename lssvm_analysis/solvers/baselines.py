"""Baselines the papers compare against: LIBSVM C-SVC and epsilon-SVR through scikit-learn.

Vieira et al. (Table 2) and Chen & Zhou (Tables 1-4) report LIBSVM's SVM
beside their LS-SVMs.  These wrappers give it the package's conventions:

* ``C`` is LIBSVM's C (the box constraint, the same role as the LS-SVM's C);
* the RBF kernel exp(-||x - z||^2 / sigma2) is LIBSVM's with
  ``gamma = 1 / sigma2``; the polynomial kernel (x^T z + t)^degree is LIBSVM's
  with ``gamma = 1``, ``coef0 = t``;
* the model f(x) = sum_k coef_k K(x, x_k) + b has ``coef_ = dual_coef_``
  (y_k alpha_k for C-SVC, alpha_k - alpha_k^* for epsilon-SVR) on LIBSVM's
  support vectors and ``bias_ = intercept_``, so ``Fit.predict`` reproduces
  ``decision_function`` / ``predict`` of scikit-learn.

LIBSVM computes in float64 only; the registry declares that
(``precisions=("float64",)``) and ``fit`` refuses any other precision with
:class:`~lssvm_analysis.core.exceptions.UnsupportedPrecisionError` rather than
pretending.  They solve a quadratic programme, not one linear system, so they
have no ``system`` builder.

References
----------
C.-C. Chang, C.-J. Lin, LIBSVM: a library for support vector machines, ACM TIST 2 (2011).
"""
from __future__ import annotations

import warnings

import numpy as np

from ..core.validation import as_matrix, as_vector, check_int, check_positive
from ..core.exceptions import ConvergenceWarning
from .result import PhaseTimer
from ._common import check_binary_labels, make_fit, validate_xy
from ..linalg.kernels import make_kernel
from .peaks import LIBSVM_CACHE_MB, SVM_PEAK, SVR_PEAK
from .times import SVM_TIME, SVR_TIME
from ._registry import register

__all__ = ["fit_svc", "fit_svr", "SVCFoldCV"]

#: SMO iterations before a fit is "not-converged" (see fit_svc's max_iter).
DEFAULT_MAX_ITER = 10 ** 6
#: LIBSVM's iteration counter is a C int: a larger cap overflowed in scikit-learn's wrapper.
MAX_ITER_LIMIT = 2 ** 31 - 1


def _libsvm_kernel(k) -> dict:
    if k.name == "rbf":
        return {"kernel": "rbf", "gamma": 1.0 / k.params["sigma2"]}
    if k.name == "poly":   # LIBSVM's degree is a C int (10**30 was an OverflowError of the wrapper)
        check_int("degree", k.params["degree"], minimum=1, maximum=MAX_ITER_LIMIT)
        return {"kernel": "poly", "gamma": 1.0, "coef0": k.params["t"], "degree": k.params["degree"]}
    if k.name == "linear":
        return {"kernel": "linear"}
    # LIBSVM is given the kernel by name and parameters: another kernel must not become linear.
    raise ValueError(f"expected kernel in ('rbf', 'linear', 'poly') for LIBSVM, got kernel={k!r}")


def _check_options(tol, max_iter):
    check_positive("tol", tol)
    if max_iter != -1:
        check_int("max_iter", max_iter, minimum=1, maximum=MAX_ITER_LIMIT)


def _run(model, X, y, name, p, k, params, peak):
    import sklearn   # on first use: ``import lssvm_analysis`` does not load scikit-learn
    from sklearn.exceptions import ConvergenceWarning as SklearnConvergenceWarning

    peak.ensure(len(y), p, what=f"{name} (LIBSVM)")
    timer = PhaseTimer()
    # The arguments are checked already (validate_xy: finite X and y, C, the kernel's parameters;
    # _check_options: tol, max_iter): scikit-learn's own checks of them were a fifth of a fit at
    # N = 100 (860 -> 680 us), and the report's CV grids make thousands of such fits.
    with warnings.catch_warnings(record=True) as caught, \
            sklearn.config_context(skip_parameter_validation=True, assume_finite=True):
        warnings.simplefilter("always", SklearnConvergenceWarning)
        with timer("solve"):
            try:
                model.fit(X, y)
            except ValueError as err:   # LIBSVM's dual overflowed on valid data (X * 1e200): an outcome
                if "not finite" not in str(err):
                    raise
                return make_fit(name, p, coef=np.array([np.nan]), bias=np.float64(np.nan), support=[0], X=X,
                                kernel=k, timer=timer, diagnostics={"libsvm_error": str(err)},
                                params=params, overflow_phase="solve")
    hit_cap = any(issubclass(w.category, SklearnConvergenceWarning) for w in caught)
    support = np.asarray(model.support_, dtype=np.intp)
    diag = {"n_iter": int(np.sum(model.n_iter_)), "n_sv": int(support.size),
            "libsvm_max_iter_reached": bool(hit_cap)}
    if hit_cap:  # LIBSVM stopped at the cap: its last iterate is kept, the status says so
        warnings.warn(f"{name}: LIBSVM stopped at max_iter={params['max_iter']} before its tolerance "
                      f"tol={params['tol']}", ConvergenceWarning, stacklevel=3)
    return make_fit(name, p, coef=np.array(model.dual_coef_[0], dtype=np.float64),
                    bias=np.float64(model.intercept_[0]), support=support, X=X, kernel=k, timer=timer,
                    status="not-converged" if hit_cap else "ok", iterations=diag["n_iter"],
                    diagnostics=diag, params=params)


#: Why the LIBSVM baselines have no exact model (fit rows' ``exact_note``).
_NO_EXACT = ("a QP, not a linear system: its exact model would need the active set frozen "
             "(bounded / free multipliers) and LIBSVM stops at tol = 1e-3 on the KKT violation, "
             "so no certified reference is defined; float64 only")


@register("svm-c", tasks=("classification",), paper="baseline", equations="LIBSVM C-SVC",
          precisions=("float64",), exact_note=_NO_EXACT, peak=SVM_PEAK, time=SVM_TIME)
def fit_svc(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
            tol=1e-3, max_iter=DEFAULT_MAX_ITER):
    """C-SVC by LIBSVM (scikit-learn ``SVC``), in the package's conventions.

    Parameters
    ----------
    X : (N, n) array_like
    y : (N,) array_like of {-1, +1}
    precision : {"float64"}
        LIBSVM's only arithmetic.
    C : float > 0
        Box constraint.
    kernel, sigma2, degree, t
        ``gamma = 1/sigma2`` for RBF; ``gamma = 1, coef0 = t`` for poly.
    tol : float > 0
        LIBSVM's stopping tolerance on the KKT violation (default 1e-3).
    max_iter : int in [1, 2^31 - 1] or -1
        Cap on the SMO iterations (default 10^6), or -1 for none (LIBSVM's
        default).  The cap is ours: at large C (e.g. 1e16 in the report's
        breakdown maps) LIBSVM without it ran for more than 7 minutes on 60
        points.  Reaching it gives ``status="not-converged"`` (the last iterate
        is kept as the model) and a ConvergenceWarning.

    Returns
    -------
    Fit
        ``coef_`` = y_k alpha_k on ``support_``, ``bias_`` = intercept; the
        ``"solve"`` phase times LIBSVM; ``diagnostics``: ``n_iter``, ``n_sv``,
        ``libsvm_max_iter_reached``.

    Raises
    ------
    ValueError, TypeError
        Bad input (labels not in {-1, +1}, C <= 0, ...), naming the argument.
    UnsupportedPrecisionError
        Through ``la.fit`` for any precision but float64.
    """
    X, y, k, p = validate_xy(X, y, task="classification", C=C, kernel=kernel, sigma2=sigma2,
                             degree=degree, t=t, precision=precision)
    _check_options(tol, max_iter)
    params = {"C": C, "kernel": k.name, **k.params, "tol": tol, "max_iter": max_iter}
    from sklearn.svm import SVC

    model = SVC(C=float(C), tol=float(tol), max_iter=int(max_iter), cache_size=LIBSVM_CACHE_MB,
                **_libsvm_kernel(k))
    return _run(model, X, y, "svm-c", p, k, params, SVM_PEAK)


@register("svm-eps", tasks=("regression",), paper="baseline", equations="LIBSVM epsilon-SVR",
          precisions=("float64",), exact_note=_NO_EXACT, peak=SVR_PEAK, time=SVR_TIME)
def fit_svr(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
            epsilon=0.1, tol=1e-3, max_iter=DEFAULT_MAX_ITER):
    """epsilon-SVR by LIBSVM (scikit-learn ``SVR``), in the package's conventions.

    Parameters
    ----------
    X, y, precision, C, kernel, sigma2, degree, t, tol, max_iter
        As :func:`fit_svc` (y real).
    epsilon : float >= 0
        Width of the insensitive tube (LIBSVM's default 0.1; Chen & Zhou use 0.01).

    Returns
    -------
    Fit
        ``coef_`` = alpha_k - alpha_k^* on ``support_``, ``bias_`` = intercept.
    """
    X, y, k, p = validate_xy(X, y, task="regression", C=C, kernel=kernel, sigma2=sigma2,
                             degree=degree, t=t, precision=precision)
    _check_options(tol, max_iter)
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.floating)) \
            or not np.isfinite(epsilon) or epsilon < 0:
        raise ValueError(f"expected a finite epsilon >= 0, got epsilon={epsilon!r}")
    params = {"C": C, "kernel": k.name, **k.params, "epsilon": float(epsilon), "tol": tol,
              "max_iter": max_iter}
    from sklearn.svm import SVR

    model = SVR(C=float(C), epsilon=float(epsilon), tol=float(tol), max_iter=int(max_iter),
                cache_size=LIBSVM_CACHE_MB, **_libsvm_kernel(k))
    return _run(model, X, y, "svm-eps", p, k, params, SVR_PEAK)


class SVCFoldCV:
    """k-fold CV of LIBSVM's C-SVC from one precomputed kernel per kernel width, across C and folds.

    The whole training set's kernel K (the package's kernel, as :func:`fit_svc`'s
    model evaluates it) is formed once per ``sigma2`` (once for the linear kernel);
    each fold's training block K[train, train] and test block K[test, train] are
    sliced from it once and shared by every C.  Each fold is then LIBSVM's own
    C-SVC (scikit-learn ``SVC(kernel="precomputed")``, the same C, ``tol``,
    ``max_iter`` and cache as :func:`fit_svc`) on the training rows in the fold's
    order, and the held-out decision values are sum_k coef_k K(x, x_k) + b over its
    support vectors, as ``Fit.predict`` of :func:`fit_svc` computes them.

    LIBSVM with a precomputed kernel runs the same SMO on the same matrix up to the
    rounding of the kernel's formation (LIBSVM forms exp(-gamma ||x - z||^2) itself
    from dot products; the package by one gemm), so the iterates, support vectors and
    decision values agree with :func:`fit_svc`'s to that rounding
    (tests/test_svm_precomputed.py).

    Parameters
    ----------
    X : (N, n) array_like
    y : (N,) array_like of {-1, +1}
    folds : list of (train, test) index arrays
        As :func:`~lssvm_analysis.analysis.validation.check_folds` returns them.
    kernel : {"rbf", "linear"}
    tol, max_iter
        As :func:`fit_svc`.

    Attributes
    ----------
    counts : dict
        ``kernels`` formed, ``fits`` run, ``capped`` (stopped at ``max_iter``),
        ``skipped`` (folds not fitted after a failed one: :meth:`held_out`).
    """

    def __init__(self, X, y, folds, *, kernel="rbf", tol=1e-3, max_iter=DEFAULT_MAX_ITER):
        self.X = as_matrix(X, "X", allow_object=False).astype(np.float64, copy=False)
        self.y = as_vector(y, "y", allow_object=False).astype(np.float64)
        check_binary_labels(self.y)
        if self.X.shape[0] != len(self.y):
            raise ValueError(f"expected X and y with the same number of samples, got X.shape={self.X.shape}, "
                             f"y.shape={self.y.shape}")
        if kernel not in ("rbf", "linear"):
            raise ValueError(f"expected kernel in ('rbf', 'linear'), got kernel={kernel!r}")
        _check_options(tol, max_iter)
        self.kernel, self.tol, self.max_iter = kernel, float(tol), int(max_iter)
        self.folds = [(np.asarray(tr, dtype=np.intp), np.asarray(te, dtype=np.intp)) for tr, te in folds]
        self._blocks_key, self._blocks = None, None
        self.counts = {"kernels": 0, "fits": 0, "capped": 0, "skipped": 0}

    def _fold_blocks(self, sigma2):
        """[(K[train, train], K[test, train])] per fold of the kernel at ``sigma2`` (the last one kept)."""
        key = None if self.kernel == "linear" else float(sigma2)
        if self._blocks_key != key or self._blocks is None:
            k = make_kernel("linear") if key is None else make_kernel("rbf", sigma2=key)
            K = k(self.X)
            self.counts["kernels"] += 1
            self._blocks = [(np.ascontiguousarray(K[np.ix_(tr, tr)]), np.ascontiguousarray(K[np.ix_(te, tr)]))
                            for tr, te in self.folds]
            self._blocks_key = key
        return self._blocks

    def held_out(self, C, sigma2=None):
        """Each fold's held-out decision values at ``C`` (and ``sigma2``), or None when a fold's fit fails.

        A CV point whose fold fit stops at ``max_iter`` (or whose dual overflows)
        is not ``"ok"`` and scores NaN however the other folds fare
        (:func:`~lssvm_analysis.analysis.validation.cv_score_split`), so the folds
        after it are not fitted (``counts["skipped"]``): never pay for an answer
        nobody reads.

        Raises
        ------
        ValueError
            A fold's training rows hold one class (LIBSVM's refusal), checked
            before any fit, as the direct search raises it at that fold.
        """
        check_positive("C", C)
        if self.kernel == "rbf":
            check_positive("sigma2", sigma2)
        for i, (tr, _) in enumerate(self.folds):
            if np.unique(self.y[tr]).size < 2:
                raise ValueError(f"expected two classes in every training fold, got one in fold {i}")
        out = []
        for i, ((tr, te), (Ktr, Kte)) in enumerate(zip(self.folds, self._fold_blocks(sigma2))):
            f = self._fold(C, Ktr, Kte, self.y[tr])
            if f is None:
                self.counts["skipped"] += len(self.folds) - i - 1
                return None
            out.append(f)
        return out

    def _fold(self, C, Ktr, Kte, ytr):
        """One LIBSVM fit as :func:`fit_svc` makes it, on the precomputed block; decision values or None."""
        import sklearn
        from sklearn.exceptions import ConvergenceWarning as SklearnConvergenceWarning
        from sklearn.svm import SVC

        model = SVC(C=float(C), tol=self.tol, max_iter=self.max_iter, cache_size=LIBSVM_CACHE_MB,
                    kernel="precomputed")
        self.counts["fits"] += 1
        with warnings.catch_warnings(record=True) as caught, \
                sklearn.config_context(skip_parameter_validation=True, assume_finite=True):
            warnings.simplefilter("always", SklearnConvergenceWarning)
            try:
                model.fit(Ktr, ytr)
            except ValueError as err:  # the dual overflowed: fit_svc's status "overflow"
                if "not finite" not in str(err):
                    raise
                return None
        if any(issubclass(w.category, SklearnConvergenceWarning) for w in caught):
            self.counts["capped"] += 1  # fit_svc's "not-converged"
            return None
        coef, bias = model.dual_coef_[0], float(model.intercept_[0])
        if not (np.all(np.isfinite(coef)) and np.isfinite(bias)):
            return None  # make_fit's "overflow"
        return Kte[:, model.support_] @ coef + bias
