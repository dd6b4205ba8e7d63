"""Closed-form k-fold and leave-one-out cross-validation of the dense LS-SVM and KRR, float32 / float64.

One factorization of the whole training set's kernel per kernel width serves
every fold, and (eigendecomposition) every C.

With H = K + I/C, eta = H^{-1} 1 and s = 1^T eta, the alpha block of the inverse
of the bordered KKT matrix [[0, 1^T], [1, H]] is P = H^{-1} - eta eta^T / s
(without bias, P = H^{-1}).  For targets d the full-data solution has
alpha = P d, and the model trained without the points F predicts at F

    f_F = d_F - (P_FF)^{-1} alpha_F

(An, Liu & Venkatesh 2007; F = {i} is Cawley & Talbot's LOO formula).  f_F
does not depend on d_F, so per-fold targets (LS-SVM_F's Fisher targets of the
fold's training set) enter with any value at F.  A classifier's decision
values are those of the regression on its labels (Suykens 3.5 with
coef = alpha * y), so one formula serves every encoding, and several target
columns (a multiclass code) share one factorization.

Two routes, chosen by :func:`choose_method`'s cost model in units of one
Cholesky (``potrf``) of the N x N matrix:

* ``"eigen"``: K = Q diag(lam) Q^T once per kernel (``EIGH_OVER_POTRF``
  potrfs, measured); each C then costs the fold blocks
  Q_F diag(1/(lam + 1/C)) Q_F^T, N^3/k multiply-adds (3/k potrf units), and
  O(N^2) for LOO.
* ``"cholesky"``: per C one potrf of H and W = L^{-1} (``trtri``), then
  H^{-1}_FF = W_F^T W_F: ``CHOL_ROUTE_PER_C`` potrf units per C.

Eigen wins when many C share a kernel (the initial grid), Cholesky when few
do (a refined grid's 3).  Extended precisions stay on the direct per-fold
fits (their callers check :func:`supports`).

Where rounding could decide whether a fold's direct Cholesky breaks down
(lambda_min(H) <= N u ||H||, the Cholesky route using the lower bound
1/trace(H^{-1})), :meth:`KernelCV.held_out` returns None and the caller fits
the folds directly: the outcome is then the direct path's by construction.

References
----------
S. An, W. Liu, S. Venkatesh, Fast cross-validation algorithms for least
squares support vector machine and kernel ridge regression, Pattern
Recognition 40 (2007) 2154-2162.  G.C. Cawley, N.L.C. Talbot, Fast exact
leave-one-out cross-validation of sparse least-squares support vector
machines, Neural Networks 17 (2004) 1467-1475.
"""
from __future__ import annotations

import numpy as np
from scipy.linalg import lapack

from ..arith.precision import get_precision
from ..linalg.kernels import Kernel, make_kernel
from ..solvers import get_solver
from ..solvers.kkt import fisher_targets

__all__ = ["KernelCV", "GridCV", "CVShare", "CLOSED_FORM_SOLVERS", "choose_method", "supports", "route_costs", "EIGH_OVER_POTRF", "CHOL_ROUTE_PER_C",
           "METHODS"]

#: Routes of :class:`KernelCV` ("auto" chooses by :func:`choose_method`).
METHODS = ("auto", "eigen", "cholesky")
#: An eigendecomposition (``syevd``) of an N x N kernel over one ``potrf`` of it, single-threaded
#: OpenBLAS: 24 at N = 460, 30 at 666, 17 at 1000 (issue 43 measured 22; this machine, 2025).
EIGH_OVER_POTRF = 22.0
#: Cholesky route per C in potrf units: the potrf, the trtri (2 potrfs at N = 460, 1.1 at 1000).
CHOL_ROUTE_PER_C = 2.5


def supports(precision) -> bool:
    """Whether the closed form serves ``precision``: a LAPACK-backed IEEE precision (float32, float64).

    Asked of the precision's capabilities, not its name: the closed form factors with LAPACK
    (``syevd`` / ``potrf``), which computes in the hardware precisions only; the others fit directly.
    """
    p = get_precision(precision)
    return bool(p.hardware) and p.engine == "lapack"


def route_costs(n_c: int, k: int) -> dict:
    """Cost of each route for ``n_c`` values of C on one kernel and ``k`` folds, in potrf units."""
    blocks = 3.0 / max(k, 1)  # sum_F |F|^2 N = N^3 / k multiply-adds against potrf's N^3 / 3
    return {"eigen": EIGH_OVER_POTRF + n_c * blocks, "cholesky": n_c * (CHOL_ROUTE_PER_C + blocks / 2)}


def choose_method(n_c: int, k: int) -> str:
    """The cheaper route (:func:`route_costs`) for ``n_c`` values of C sharing a kernel, ``k`` folds."""
    c = route_costs(n_c, k)
    return "eigen" if c["eigen"] < c["cholesky"] else "cholesky"


def _targets(targets, k, n):
    """A list of k (N, c) target matrices (one shared array is used by every fold)."""
    if isinstance(targets, (list, tuple)):
        if len(targets) != k:
            raise ValueError(f"expected one target array per fold ({k}), got {len(targets)}")
        out = [np.asarray(t) for t in targets]
    else:
        out = [np.asarray(targets)] * k
    for t in out:
        if t.shape[0] != n:
            raise ValueError(f"expected targets with N={n} rows, got shape {t.shape}")
    return out


class KernelCV:
    """Held-out decision values of every fold, for any C, from one kernel matrix.

    Parameters
    ----------
    K : (N, N) array, float32 or float64
        The kernel of the whole training set in the working precision (not modified).
    tests : list of index arrays
        Each fold's held-out points; its training set is the complement.
    bias : bool
        The LS-SVM with bias (bordered KKT) or KRR (zero bias).
    method : {"auto", "eigen", "cholesky"}
    n_c : int
        How many C the caller expects to ask at this kernel ("auto" uses it).

    Attributes
    ----------
    method : str
        The route taken ("eigen" or "cholesky").
    """

    def __init__(self, K, tests, *, bias=True, method="auto", n_c=1):
        if method not in METHODS:
            raise ValueError(f"expected method in {METHODS}, got method={method!r}")
        self.K = np.asarray(K)
        if self.K.dtype not in (np.float32, np.float64):
            raise TypeError(f"expected K in float32 or float64, got dtype {self.K.dtype}")
        self.dtype = self.K.dtype
        self.n = self.K.shape[0]
        self.tests = [np.asarray(t, dtype=np.intp) for t in tests]
        self.bias = bool(bias)
        self.loo = len(self.tests) == self.n and all(t.size == 1 for t in self.tests)
        self.method = choose_method(n_c, len(self.tests)) if method == "auto" else method
        self.u = float(np.finfo(self.K.dtype).eps) / 2
        self._eig = None
        if self.method == "eigen":
            lam, Q = np.linalg.eigh(self.K)
            self._eig = (lam, Q, [Q[t] for t in self.tests], Q.T @ np.ones(self.n, dtype=self.K.dtype))
            self.K = None  # the eigen route reads only lam and Q: a kept factorization holds 2 N^2 words

    @property
    def nbytes(self) -> int:
        """Bytes this object keeps (the kernel, or the eigenvectors and their fold rows)."""
        return self.n * self.n * np.dtype(self.dtype).itemsize * (2 if self._eig is not None else 1)
    def _guard(self, lam_low, hnorm) -> bool:
        """lambda_min(H) clear of the rounding that could break a fold's Cholesky (module docstring)."""
        return bool(np.isfinite(lam_low) and lam_low > self.n * self.u * hnorm)

    def held_out(self, C, targets):
        """f_F for every fold, or None where the direct path must decide (the guard).

        Parameters
        ----------
        C : float > 0
        targets : (N,) or (N, c) array, or a list of one such array per fold

        Returns
        -------
        list of arrays (|F|,) or (|F|, c) in fold order, in the working precision; or None.
        """
        dt = np.dtype(self.dtype)
        delta = dt.type(1.0 / float(C)) if dt == np.float32 else dt.type(1.0) / dt.type(C)
        ts = _targets(targets, len(self.tests), self.n)
        one_d = ts[0].ndim == 1
        D = [t.astype(dt, copy=False).reshape(self.n, -1) for t in ts]
        if self.method == "eigen":
            parts = self._eigen_parts(delta, D)
        else:
            parts = self._cholesky_parts(delta, D)
        if parts is None:
            return None
        out = [self._residual(P_FF, d[f], a[f]) for (P_FF, d, a), f in zip(parts, self.tests)]
        return [o[:, 0] for o in out] if one_d else out

    def _residual(self, P_FF, d_F, alpha_F):
        """d_F - P_FF^{-1} alpha_F (P_FF symmetric positive definite: a principal block of P)."""
        if P_FF.ndim == 1:  # LOO: the diagonal only
            return d_F - alpha_F / P_FF[:, None]
        c, info = lapack.dpotrf(P_FF, lower=1) if P_FF.dtype == np.float64 else lapack.spotrf(P_FF, lower=1)
        if info == 0:
            potrs = lapack.dpotrs if P_FF.dtype == np.float64 else lapack.spotrs
            return d_F - potrs(c, alpha_F, lower=1)[0]
        return d_F - np.linalg.solve(P_FF, alpha_F)

    def _solution(self, apply, eta, D):
        """alpha = P d for each target matrix (applied once per distinct array)."""
        seen, out = {}, []
        for d in D:
            if id(d) not in seen:
                x = apply(d)
                if self.bias:
                    x = x - np.outer(eta, eta @ d) / (eta.sum())
                seen[id(d)] = x
            out.append(seen[id(d)])
        return out

    def _eigen_parts(self, delta, D):
        lam, Q, QF, q1 = self._eig
        w = np.reciprocal(lam + delta)
        if not self._guard(float(lam[0] + delta), float(lam[-1] + delta)):
            return None
        eta = Q @ (w * q1)
        s = eta.sum()
        alphas = self._solution(lambda d: Q @ (w[:, None] * (Q.T @ d)), eta, D)
        parts = []
        for t, Qf, d, a in zip(self.tests, QF, D, alphas):
            if self.loo:
                B = (Qf * Qf) @ w
                B = B - (eta[t] ** 2 / s if self.bias else 0)
            else:
                B = (Qf * w) @ Qf.T
                if self.bias:
                    B -= np.outer(eta[t], eta[t]) / s
            parts.append((B, d, a))
        return self._stack_loo(parts) if self.loo else parts

    def _cholesky_parts(self, delta, D):
        H = np.array(self.K, order="F")
        H.flat[:: self.n + 1] += delta
        hnorm = float(np.max(np.sum(np.abs(H), axis=0)))
        f64 = H.dtype == np.float64
        L, info = (lapack.dpotrf if f64 else lapack.spotrf)(H, lower=1, overwrite_a=1, clean=1)
        if info != 0:
            return None
        W, info = (lapack.dtrtri if f64 else lapack.strtri)(L, lower=1, overwrite_c=1)
        if info != 0:
            return None
        if not self._guard(1.0 / float(np.sum(W * W, dtype=np.float64)), hnorm):
            return None
        eta = W.T @ (W @ np.ones(self.n, dtype=H.dtype))
        s = eta.sum()
        alphas = self._solution(lambda d: W.T @ (W @ d), eta, D)
        parts = []
        if self.loo:
            B = np.einsum("ij,ij->j", W, W) - (eta * eta / s if self.bias else 0)
            return [(B[t], d, a) for t, d, a in zip(self.tests, D, alphas)]
        for t, d, a in zip(self.tests, D, alphas):
            G = W[t.min():, t]  # rows above the first held-out index are zero in L^{-1}
            B = G.T @ G
            if self.bias:
                B -= np.outer(eta[t], eta[t]) / s
            parts.append((B, d, a))
        return parts

    @staticmethod
    def _stack_loo(parts):
        return [(B.reshape(-1), d, a) for B, d, a in parts]


#: Registered solvers whose fit is the dense system the closed form inverts: name -> (bias, Fisher targets).
#: lssvm-cg is left out: it stops at its tolerance, so its fits are not the exact system's solution.
CLOSED_FORM_SOLVERS = {"lssvm-schur": (True, False), "lssvm-kkt": (True, False),
                       "lssvm-fisher": (True, True), "krr": (False, False)}
_KEYWORDS = frozenset({"C", "task", "kernel", "sigma2", "degree", "t"})
#: Bytes of factorizations a :class:`GridCV` keeps (least recently made dropped first).
GRID_CV_BYTES = 256 * 2 ** 20


class GridCV:
    """CV (or LOO) scores of a grid's points from :class:`KernelCV`, one per kernel; None where not served.

    Parameters
    ----------
    solver : str
    X, y : validated arrays (the whole training set)
    tests : list of index arrays, or None for LOO
        Each fold's held-out points; every training set must be the complement of its test set.
    score_fn : callable
        ``score_fn(y_true, decision_values)``.
    precision : str
    n_c : callable
        ``n_c(kernel_key) -> int``: how many C the search will ask at a kernel (the route's cost model).
    share : :class:`CVShare` view, optional
        Kernels, factorizations and held-out values shared with other searches
        (:meth:`CVShare.view`); X must be the share's rows.

    Notes
    -----
    :meth:`score` returns what :func:`~.validation.cv_score_split` (or
    :func:`~.validation.leave_one_out`) returns for the same keywords, to the
    rounding of the two computations (c N kappa u, tests/test_cv_closed_form.py),
    or None when the closed form does not apply (solver, precision, keywords,
    a training fold with one class, the breakdown guard): the caller then fits
    directly.  ``routes`` counts the route chosen per kernel.
    """

    def __init__(self, solver, X, y, tests, *, score_fn, precision, n_c, share=None):
        self.solver, self.X, self.y = solver, X, y
        self.share = share
        self._column = None if share is None else share.column_of(X, y)
        self.p = get_precision(precision)
        self.score_fn, self.n_c = score_fn, n_c
        n = len(y)
        self.loo = tests is None
        self.tests = [np.array([i]) for i in range(n)] if self.loo else [np.asarray(t) for t in tests]
        self._cache: dict = {}
        self.routes: dict = {"eigen": 0, "cholesky": 0}
        self.served = self.fallbacks = 0
        self._targets: dict = {}

    @staticmethod
    def applies(solver, precision) -> bool:
        """Whether the solver and precision are ones the closed form serves."""
        return solver in CLOSED_FORM_SOLVERS and supports(precision)

    @staticmethod
    def kernel_key(kw):
        """The Kernel of solver keywords and its exact key; (None, None) for a precomputed kernel."""
        k = make_kernel(kw.get("kernel", "rbf"), sigma2=kw.get("sigma2", 1.0), degree=kw.get("degree", 3),
                        t=kw.get("t", 1.0))
        if type(k) is not Kernel:
            return None, None
        return k, (k.name, tuple(sorted(k.params.items())), k.formation)

    def _kernel_cv(self, k, key):
        if self.share is not None:
            cv, made = self.share.kernel_cv(k, key, self.p, self.tests, CLOSED_FORM_SOLVERS[self.solver][0],
                                            self.n_c(key))
            self.routes[cv.method] += made
            return cv
        cv = self._cache.pop(key, None)
        if cv is None:
            K = k(self.X, precision=self.p)
            cv = KernelCV(K, self.tests, bias=CLOSED_FORM_SOLVERS[self.solver][0], n_c=self.n_c(key))
            self.routes[cv.method] += 1
            size = cv.nbytes
            while self._cache and size + sum(c.nbytes for c in self._cache.values()) > GRID_CV_BYTES:
                self._cache.pop(next(iter(self._cache)))
        self._cache[key] = cv  # most recently used last
        return cv

    def _fold_targets(self, task):
        """One target vector, or one per fold (LS-SVM_F: the Fisher targets of the fold's training set)."""
        if task in self._targets:
            return self._targets[task]
        y = self.y
        if CLOSED_FORM_SOLVERS[self.solver][1]:
            out = []
            for t in self.tests:
                train = np.ones(len(y), dtype=bool)
                train[t] = False
                d = np.zeros(len(y), dtype=self.p.dtype)
                d[train] = fisher_targets(y[train], self.p)
                out.append(d)
        else:
            out = np.asarray(y, dtype=self.p.dtype)
        self._targets[task] = out
        return out

    def _one_class_fold(self, task) -> bool:
        if task != "classification":
            return False
        pos = self.y > 0
        total = int(pos.sum())
        return any(total - int(pos[t].sum()) in (0, len(self.y) - len(t)) for t in self.tests)

    def score(self, kw):
        """The point's score, or None where the direct path must compute it (class docstring)."""
        task = kw.get("task", get_solver(self.solver).tasks[0])
        if not set(kw) <= _KEYWORDS or self._one_class_fold(task):
            return None
        k, key = self.kernel_key(kw)
        if k is None:
            return None
        C = kw["C"] if "C" in kw else 1.0
        cv = self._kernel_cv(k, key)
        if self.share is None:
            f = cv.held_out(C, self._fold_targets(task))
        else:
            f = self.share.held_out(cv, C, CLOSED_FORM_SOLVERS[self.solver][1], self._column)
        if f is None:
            self.fallbacks += 1
            return None
        self.served += 1
        y = self.y
        if self.loo:
            held = np.empty(len(y))
            held[np.concatenate(self.tests)] = np.concatenate(f)
            return float(self.score_fn(y, held))
        return [self.score_fn(y[t], v.astype(np.float64)) for t, v in zip(self.tests, f)]


class CVShare:
    """What several closed-form searches on one data set share (issue 43: never factor a matrix twice).

    * kernels: one matrix per kernel over ``X``; a search on a subset of its rows
      (a 1-vs-1 subproblem) gets the slice, and polynomial kernels of every degree
      and t are built from one Gram matrix X X^T, (X X^T + t)^degree elementwise,
      as :func:`~lssvm_analysis.linalg.kernels.poly_kernel` computes them (the same
      operations, hence the same matrix);
    * factorizations (:class:`KernelCV`), keyed by the kernel, the rows, the folds,
      the bias and the route, so a search on other folds or rows never reads another's;
    * held-out values: with ``columns`` (a code's (N, c) label matrix) every column
      is computed at once at each point, and the searches of the other columns read
      them; LS-SVM_F and LS-SVM share the factorization, their targets differ.

    Held-out values of one target set are computed as an unshared search computes
    them (the same factorization, the same targets): sharing changes the numbers only
    where several columns are solved together (a (N, c) right-hand side instead of
    (N, 1): the rounding of one more gemm, within c N kappa u) or where a subset's
    kernel is sliced from the whole set's (the rounding of the kernel's formation).

    Parameters
    ----------
    X : (N, n) array of float
        The whole set's inputs (not modified).
    max_bytes : int
        Bytes of kernels and factorizations kept (least recently used dropped first).
    """

    def __init__(self, X, *, max_bytes=GRID_CV_BYTES):
        self.X = np.asarray(X)
        if self.X.ndim != 2 or self.X.dtype.kind != "f":
            raise TypeError(f"expected X as a 2-D float array, got X with shape {self.X.shape}, "
                            f"dtype {self.X.dtype}")
        self.max_bytes = int(max_bytes)
        self._store: dict = {}   # ("K" | "gram" | "cv", ...) -> array or KernelCV, least recent first
        self._held: dict = {}
        self.counts = {"kernels": 0, "factorizations": 0, "factorizations_shared": 0,
                       "held_out": 0, "held_out_shared": 0}

    def view(self, *, rows=None, columns=None) -> "_ShareView":
        """What one search passes to :func:`~lssvm_analysis.tune` (``share=``).

        Parameters
        ----------
        rows : index array, optional
            The search's training rows of ``X`` (default: all).
        columns : (len(rows), c) array, optional
            Every label column the searches on these rows tune; the search's y must be one of them.
        """
        return _ShareView(self, None if rows is None else np.asarray(rows, dtype=np.intp),
                          None if columns is None else np.asarray(columns, dtype=np.float64))

    def _get(self, key, make, size):
        if key in self._store:
            self._store[key] = self._store.pop(key)  # most recently used last
            return self._store[key], False
        value = make()
        need = size(value)
        while self._store and need + sum(_size(v) for v in self._store.values()) > self.max_bytes:
            self._store.pop(next(iter(self._store)))
        self._store[key] = value
        return value, True

    def kernel(self, k, key, p, rows):
        """The kernel of ``X[rows]`` in precision ``p``: a slice of the whole set's."""
        K, made = self._get(("K", key, p.name), lambda: self._full(k, p), _size)
        self.counts["kernels"] += made
        return K if rows is None else K[np.ix_(rows, rows)]

    def _full(self, k, p):
        if k.name != "poly":
            return k(self.X, precision=p)
        G, _ = self._get(("gram", p.name), lambda: make_kernel("linear")(self.X, precision=p), _size)
        with np.errstate(over="ignore", invalid="ignore"):
            K = (G + p.scalar(k.params["t"])) ** int(k.params["degree"])
        return K if np.all(np.isfinite(K)) else k(self.X, precision=p)  # overflow: the kernel's own error

    def kernel_cv(self, k, key, p, rows, tests, bias, n_c):
        """(:class:`KernelCV`, whether it was made now) of a kernel, the rows, folds, bias and route."""
        method = choose_method(n_c, len(tests))
        ck = ("cv", key, p.name, _rows_key(rows), _tests_key(tests), bool(bias), method)
        cv, made = self._get(ck, lambda: KernelCV(self.kernel(k, key, p, rows), tests, bias=bias,
                                                   method=method), _size)
        self.counts["factorizations" if made else "factorizations_shared"] += 1
        cv.share_key = ck
        return cv, made

    def held_out(self, cv, C, fisher, column):
        """Held-out values of one column (``column = (labels, j)``) at C, every column computed once."""
        labels, j = column
        key = (cv.share_key, float(C), bool(fisher), labels.shape, labels.tobytes())
        if key in self._held:
            self.counts["held_out_shared"] += 1
        else:
            self.counts["held_out"] += 1
            self._held[key] = cv.held_out(C, _column_targets(labels, cv, fisher))
        f = self._held[key]
        if f is None:
            return None
        return [v if v.ndim == 1 else v[:, j] for v in f]


def _size(v) -> int:
    return v.nbytes


def _rows_key(rows):
    return None if rows is None else rows.tobytes()


def _tests_key(tests):
    return tuple(t.tobytes() for t in tests)


def _column_targets(labels, cv, fisher):
    """The targets of every label column: the labels, or per fold the Fisher targets of its training set."""
    dt = np.dtype(cv.dtype)
    Y = labels if labels.shape[1] > 1 else labels[:, 0]
    if not fisher:
        return Y.astype(dt)
    p = get_precision(dt.name)
    out = []
    for t in cv.tests:
        train = np.ones(cv.n, dtype=bool)
        train[t] = False
        d = np.zeros(Y.shape, dtype=dt)
        if Y.ndim == 1:
            d[train] = fisher_targets(Y[train], p)
        else:
            for c in range(Y.shape[1]):
                d[train, c] = fisher_targets(Y[train, c], p)
        out.append(d)
    return out


class _ShareView:
    """One search's part of a :class:`CVShare`: its rows and label columns."""

    def __init__(self, share, rows, columns):
        self.share, self.rows, self.columns = share, rows, columns

    def column_of(self, X, y):
        """(labels (N, c), j): the search's y as column j (its own y as the one column without ``columns``)."""
        Xs = self.share.X if self.rows is None else self.share.X[self.rows]
        if Xs.shape != X.shape or not np.array_equal(Xs, X):
            raise ValueError(f"expected X equal to the share's rows (shape {Xs.shape}), got X with shape {X.shape} "
                             "and other values")
        y = np.asarray(y, dtype=np.float64)
        if self.columns is None:
            return y[:, None], 0
        hits = [j for j in range(self.columns.shape[1]) if np.array_equal(self.columns[:, j], y)]
        if self.columns.shape[0] != len(y) or not hits:
            raise ValueError(f"expected y equal to a column of the share's columns (shape {self.columns.shape}), "
                             f"got y with shape {y.shape} equal to none")
        return self.columns, hits[0]

    def kernel_cv(self, k, key, p, tests, bias, n_c):
        return self.share.kernel_cv(k, key, p, self.rows, tests, bias, n_c)

    def held_out(self, cv, C, fisher, column):
        return self.share.held_out(cv, C, fisher, column)
