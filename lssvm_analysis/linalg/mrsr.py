"""Multiresponse sparse regression (MRSR), the ranking step of OP-LSSVM, in every precision.

MRSR (Similä & Tikka 2005) extends LARS (Efron et al. 2004) to a matrix of
responses T (n, p).  Starting from Y^0 = 0 and W^0 = 0 it adds one regressor
(column of X) per step:

* cumulative correlations c_j = ||(T - Y^k)^T x_j||_1 (l1 norm across the p
  responses; |.| for p = 1), c_max = max_j c_j; the inactive column with the
  largest c_j enters the active set A (Vieira et al. eq. 10's c_max^k, A);
* the OLS fit on the active columns, W_bar = (X_A^T X_A)^{-1} X_A^T T and
  Y_bar = X_A W_bar (Vieira's z_bar^{k+1}, l_bar^{k+1});
* the step (Vieira eqs. 8-10) Y^{k+1} = (1 - beta) Y^k + beta Y_bar with

      beta = min { g > 0 : g = (c_max + s^T C_j) / (c_max + s^T A_j),
                   j not in A, s in {-1, +1}^p }                       (10)

  where C_j = (T - Y^k)^T x_j and A_j = (Y_bar - Y^k)^T x_j; at that beta an
  inactive column's correlation reaches the (shrinking) active one,
  (1 - beta) c_max.  The last possible step (no inactive column left, or the
  rank reached) goes all the way, beta = 1.

For p = 1 the sign vectors are s = +-1 and (10) is LARS's step
(Efron et al. eq. 2.13), so MRSR's order and path equal LARS's.

Two ways to form W_bar (``variant``):

``"qr"``
    A thin QR factor X_A = Q R maintained by appending columns with
    classical Gram-Schmidt and one re-orthogonalisation (CGS2, "twice is
    enough", Giraud et al. 2005): orthogonal to working precision, so
    W_bar = R^{-1} Q^T T has forward error ~ kappa(X_A) u.
``"bordered-inverse"``
    The reference code's explicit inverse of X_A^T X_A, bordered at each step
    (Orr 1996): with M1 = X_A^T x, M2 = (X_A^T X_A)^{-1} M1 and the Schur
    scalar p_s = x^T x - M1^T M2,

        inv_new = [[inv + M2 M2^T / p_s, -M2 / p_s], [-M2^T / p_s, 1 / p_s]].

    Normal equations: the error is ~ kappa(X_A)^2 u and p_s, a difference of
    nearly equal numbers when x is nearly in span(X_A), can round to <= 0
    (recorded as a breakdown, the path stops there).

References
----------
T. Similä, J. Tikka, Multiresponse sparse regression with application to
multidimensional scaling, ICANN 2005, LNCS 3697, 97-102.
B. Efron, T. Hastie, I. Johnstone, R. Tibshirani, Least angle regression,
Ann. Statist. 32 (2004) 407-499.
D.C.S. Vieira, A.R. Rocha Neto, A.W.O. Rodrigues, Sparse least squares
support vector machines via multiresponse sparse regression, ESANN 2016,
eqs. (7)-(10).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..core.validation import as_matrix, check_finite, check_int, check_real
from .memory import ensure_memory
from ..arith.precision import get_precision
from . import _mrsr_flint
from ..arith.base import Precision


__all__ = ["mrsr", "MRSRPath", "ColumnQR", "column_qr", "bordered_inverse", "MRSR_VARIANTS", "MRSR_NORMALIZATIONS"]

MRSR_VARIANTS = ("qr", "bordered-inverse")
MRSR_NORMALIZATIONS = ("unit-norm", "none")


class ColumnQR:
    """Thin QR factor of a growing column set, X_A = Q R, by CGS2 column append.

    Parameters
    ----------
    n : int
        Number of rows.
    capacity : int
        Maximum number of columns.
    precision : Precision

    Notes
    -----
    Appending a column costs 4 n k flops (two projections); Q stays
    orthonormal to O(u) (Giraud, Langou, Rozloznik 2005), so the factor is as
    good as Householder's for least squares.  A column whose component
    orthogonal to span(Q) is below ``n u ||x||`` is rejected (numerically
    dependent: ``append`` returns False and leaves the factor unchanged).
    """

    def __init__(self, n: int, capacity: int, precision):
        self.p = p = get_precision(precision)
        self.Q = p.zeros((n, capacity))
        self.R = p.zeros((capacity, capacity))
        self.k = 0
        self._Qk = None  # Q[:, :k] kept for products (mpN: its FLINT form grows with the factor)
        self._Rk = None  # R[:k, :k] kept for solves, likewise
        self._tol = n * p.unit_roundoff
        self.last_norm = float("nan")  # |r_kk| of the last refused column

    def append(self, x) -> bool:
        """Append column ``x`` (n,) in the precision; False when it is numerically dependent."""
        p, k = self.p, self.k
        # four products with Q_k (and Q_k^T): mpN keeps its FLINT form and converts only the
        # columns appended since the last call
        Qk = self._Qk = p.keep_prefix(self.Q, k, self._Qk)
        v = x.copy()
        r = p.zeros(k)
        for _ in range(2):  # CGS2: the second pass restores orthogonality
            if k:
                c = p.matmul(Qk.T, v)
                v = v - p.matmul(Qk, c)
                r = r + c
        nrm = p.sqrt(np.array([v @ v], dtype=v.dtype))[0]
        xn = p.sqrt(np.array([x @ x], dtype=x.dtype))[0]
        if not (float(nrm) > self._tol * float(xn)) or not np.isfinite(float(nrm)):
            self.last_norm = float(nrm)  # |r_kk| of the refused column, for a breakdown record
            return False
        self.Q[:, k] = v / nrm
        self.R[:k, k] = r
        self.R[k, k] = nrm
        self.k = k + 1
        return True

    def append_column(self, A, j: int) -> bool:
        """Append ``A[:, j]`` (A in the precision)."""
        return self.append(A[:, j])

    def solve(self, T, k=None):
        """Least-squares solution R_k^{-1} Q_k^T T on the first ``k`` columns (T: (n,) or (n, p))."""
        k = self.k if k is None else k
        p = self.p
        Qk = self._Qk = p.keep_prefix(self.Q, k, self._Qk if self._Qk is not None and
                                      self._Qk.shape[1] <= k else None)
        return p.solve_triangular(self.leading_r(k), p.matmul(Qk.T, T), lower=False)

    def leading_r(self, k):
        """R[:k, :k] for solves (mpN: its FLINT form kept, grown by the new border only)."""
        prev = self._Rk if self._Rk is not None and self._Rk.shape[0] <= k else None
        self._Rk = self.p.keep_leading(self.R, k, prev)
        return self._Rk


def column_qr(n: int, capacity: int, precision):
    """A :class:`ColumnQR` of ``n`` rows and up to ``capacity`` columns, from the precision's engine
    when it has one (mpN with FLINT: the factor kept in FLINT, :class:`._mrsr_flint.ColumnQR`,
    the same steps and interface)."""
    p = get_precision(precision)
    if p.engine == "flint":
        return _mrsr_flint.ColumnQR(n, capacity, prec=p.ctx.prec, ctx=p.ctx, unit_roundoff=p.unit_roundoff)
    return ColumnQR(n, capacity, p)


def bordered_inverse(p, inv, m2, ps):
    """The inverse of a Gram matrix bordered by one column (Orr 1996), as the reference codes
    of MRSR and PRESS update it: with inv = G^{-1}, m2 = G^{-1} g and the Schur scalar
    ps = c - g^T m2 of [[G, g], [g^T, c]],

        [[inv + m2 m2^T / ps, -m2 / ps], [-m2^T / ps, 1 / ps]],

    each entry one product, one quotient and one sum in precision ``p`` (mpN on FLINT:
    :func:`._mrsr_flint.bordered_inverse` on FLINT matrices, the result kept for products as
    :meth:`Precision.keep`).  k = len(m2) may be 0."""
    if p.engine == "flint":
        return _mrsr_flint.bordered_inverse(inv, p.asarray(m2), ps, prec=p.ctx.prec, ctx=p.ctx)
    k = len(m2)
    new = p.zeros((k + 1, k + 1))
    if k:
        new[:k, :k] = inv + np.multiply.outer(m2, m2) / ps
    new[:k, k] = -m2 / ps
    new[k, :k] = -m2 / ps
    new[k, k] = p.scalar(1) / ps
    return new


@dataclass(frozen=True)
class MRSRPath:
    """The result of :func:`mrsr`.

    Attributes
    ----------
    order : ndarray of int, shape (k,)
        Column indices in order of entry (the ranking).
    coefs : ndarray, shape (k + 1, m, p)
        ``coefs[i]`` = W after i steps (``coefs[0] = 0``), in the scale of the
        caller's columns, in the precision's dtype.
    steps : ndarray of float, shape (k,)
        beta of each step (eq. 9), as float64.
    correlations : ndarray of float, shape (k,)
        c_max at the start of each step (normalised columns), as float64.
    pivots : ndarray of float, shape (k,)
        The squared norm of the entering column orthogonal to the active ones:
        R_kk^2 ("qr") or the Schur scalar p_s ("bordered-inverse"), float64.
    scale : ndarray of float, shape (m,)
        The column norms divided out (ones for ``normalize="none"``).
    status : {"ok", "breakdown", "rank-deficient"}
        "breakdown": p_s <= 0 in the bordered inverse; "rank-deficient": the
        entering column is numerically in the span of the active ones (qr);
        in both cases the path stops before that column (``stop_step``).
    stop_step : int or None
    variant, normalize, precision : str
    factor : ColumnQR or None
        The QR factor of the active (normalised) columns, for the "qr" variant.
    """

    order: np.ndarray
    coefs: np.ndarray
    steps: np.ndarray
    correlations: np.ndarray
    pivots: np.ndarray
    scale: np.ndarray
    status: str
    stop_step: int | None
    variant: str
    normalize: str
    precision: str
    factor: ColumnQR | None = None


def _sign_vectors(p_resp: int, dtype) -> np.ndarray:
    """All 2^p sign vectors, (2^p, p), exact in ``dtype`` (Python ints for object arrays)."""
    S = np.array(list(itertools.product((1, -1), repeat=p_resp)), dtype=np.int64)
    return S.astype(object) if dtype == object else S.astype(dtype)


def _step_size(c_max, Cin, Ain, S):
    """beta of eq. (10) over the inactive columns: min positive ratio, capped at 1."""
    num = c_max + Cin @ S.T  # (m_in, 2^p)
    den = c_max + Ain @ S.T
    num, den = num.ravel(), den.ravel()
    ok = den > 0
    if not ok.any():
        return None
    ratios = num[ok] / den[ok]
    ratios = ratios[ratios > 0]
    if ratios.size == 0:
        return None
    best = ratios.min()
    return best if best < 1 else None


class _Bordered:
    """Explicit (X_A^T X_A)^{-1}, bordered per entering column (the reference code)."""

    def __init__(self, p, capacity, n_resp):
        self.p, self.inv, self.XtT = p, p.zeros((0, 0)), p.zeros((0, n_resp))
        self.cols = []

    def append(self, Xn, j, T):
        p, x = self.p, Xn[:, j]
        if self.cols:
            M1 = p.matmul(p.keep_columns(Xn, self.cols).T, x)   # a temporary, as Xn[:, cols] was
            M2 = p.matmul(self.inv, M1)
            ps = x @ x - M1 @ M2
        else:
            M2, ps = p.zeros(0), x @ x
        if not (ps > 0) or not np.isfinite(float(ps)):
            return False, float(ps)
        self.inv = bordered_inverse(p, self.inv, M2, ps)
        self.XtT = np.vstack([self.XtT, (x @ T)[None, :]])
        self.cols.append(j)
        return True, float(ps)

    def ols(self):
        return self.p.matmul(self.inv, self.XtT)


def _setup(X, T, k_max, variant, normalize, p):
    if variant not in MRSR_VARIANTS:
        raise ValueError(f"expected variant in {MRSR_VARIANTS}, got variant={variant!r}")
    if normalize not in MRSR_NORMALIZATIONS:
        raise ValueError(f"expected normalize in {MRSR_NORMALIZATIONS}, got normalize={normalize!r}")
    X = as_matrix(X, "X")
    T = np.asarray(T)
    check_real(T, "T")   # numeric strings were converted silently
    T = T[:, None] if T.ndim == 1 else T
    if T.ndim != 2 or T.shape[0] != X.shape[0] or T.shape[1] < 1:
        raise ValueError(f"expected T of shape ({X.shape[0]},) or ({X.shape[0]}, p), got T.shape={T.shape}")
    n, m = X.shape
    # X and T are copied into the precision (and X's columns scaled): a zero-stride 200000^2 view
    # was a bare MemoryError; this names the sizes first
    ensure_memory(n, 2.0 * n * m + 2.0 * n * T.shape[1], p, what=f"mrsr (X.shape={X.shape})")
    limit = min(n, m)
    k_max = limit if k_max is None else check_int("k_max", k_max, minimum=1)
    Xp, Tp = p.asarray(X), p.asarray(T)
    check_finite(Xp, "X")
    check_finite(Tp, "T")
    if normalize == "unit-norm":
        norms = p.column_norms(Xp)
        scale = np.where(p.to_float64(norms) > 0, norms, p.scalar(1))
    else:
        scale = None
    return Xp, Tp, min(k_max, limit), scale


def mrsr(X: ArrayLike, T: ArrayLike, *, k_max: int | None = None, variant: str = "qr",
         normalize: str = "unit-norm", precision: str | Precision = "float64") -> MRSRPath:
    """Rank the columns of X by multiresponse sparse regression on the responses T.

    Parameters
    ----------
    X : (n, m) array_like
        Regressors (Vieira's D).  float64, longdouble or mp entries.
    T : (n,) or (n, p) array_like
        Responses (Vieira's l); p = 1 gives LARS.
    k_max : int >= 1, optional
        Number of steps (columns ranked); default and cap min(n, m).
    variant : {"qr", "bordered-inverse"}
        How the OLS fit on the active set is formed (module docstring).
    normalize : {"unit-norm", "none"}
        ``"unit-norm"`` (default) divides every column by its 2-norm first:
        the correlation criterion compares columns only at equal scale (the
        reference code requires "the same scale").  Returned coefficients are
        in the caller's scale either way.  No centring: centre X and T
        yourself when an intercept is wanted (LARS with an intercept).
    precision : str or Precision
        Every operation runs in it.

    Returns
    -------
    MRSRPath

    Raises
    ------
    ValueError
        k_max < 1, unknown variant or normalize, shapes that do not match,
        NaN or inf in X or T.
    TypeError
        Non-integer k_max, non-real entries.

    Notes
    -----
    Cost per step: the correlations X^T (T - Y), 2 n m p flops, plus
    4 n k ("qr") or 2 n k + 3 k^2 ("bordered-inverse") for the factor and
    2^p (m - k) p for eq. (10); k_max steps cost about 2 n m p k_max.
    Symbols: Vieira's D, l, z^k, l^k, beta^k are our X, T, W, Y, beta.
    """
    p = get_precision(precision)
    with p.context():
        return _mrsr(X, T, k_max, variant, normalize, p)


def _mrsr(X, T, k_max, variant, normalize, p) -> MRSRPath:
    Xp, Tp, k_max, scale = _setup(X, T, k_max, variant, normalize, p)
    n, m = Xp.shape
    # the columns divided by their norms (scale None: as they are) by the engine's state, or here
    if p.engine == "flint":
        st = _mrsr_flint.MRSRState(Xp, Tp, scale, k_max, variant, prec=p.ctx.prec, ctx=p.ctx,
                                   unit_roundoff=p.unit_roundoff)
    else:
        st = _ArrayState(Xp, Tp, scale, k_max, variant, p)
    scale = p.asarray(np.ones(m)) if scale is None else scale
    active, inactive = [], np.ones(m, dtype=bool)
    steps, cors, pivots = [], [], []
    st.record()
    status, stop = "ok", None
    for k in range(k_max):
        cabs = st.correlations()  # float64 (m,)
        cand = np.flatnonzero(inactive)
        j = int(cand[int(np.argmax(cabs[cand]))])
        ok, pivot = st.enter(j)
        if pivot is not None:
            pivots.append(pivot)
        if not ok:
            status, stop = ("rank-deficient" if variant == "qr" else "breakdown"), k
            break
        active.append(j)
        inactive[j] = False
        beta = st.advance(np.flatnonzero(inactive) if k + 1 < min(n, m) else None)
        st.record()
        steps.append(float(beta))
        cors.append(float(st.c_max))
    return MRSRPath(order=np.array(active, dtype=np.intp), coefs=st.coefficient_path(), steps=np.array(steps),
                    correlations=np.array(cors), pivots=np.array(pivots),
                    scale=p.to_float64(scale), status=status, stop_step=stop, variant=variant,
                    normalize=normalize, precision=p.name, factor=st.factor)


class _ArrayState:
    """The vectors of the MRSR loop as arrays of the precision (NumPy's loops, BLAS, FLINT products).

    The interface of :class:`._mrsr_flint.MRSRState` (the mpN engine): ``correlations()``,
    ``enter(j)``, ``advance(rest)``, ``record()`` (W after this step, in the caller's scale),
    ``coefficient_path()`` (the recorded W stacked), ``c_max``, ``factor``.
    """

    def __init__(self, Xp, Tp, scale, k_max, variant, p):
        n, m = Xp.shape
        n_resp = Tp.shape[1]
        if scale is None:
            scale = p.asarray(np.ones(m))
        else:
            Xp = p.divide_columns(Xp, scale)
        Xn = p.keep(Xp)  # two products with Xn per step: mpN converts it to FLINT once
        self.p, self.Xn, self.Tp, self.scale = p, Xn, Tp, scale
        self.S = _sign_vectors(n_resp, Xn.dtype)
        self.factor = ColumnQR(n, k_max, p) if variant == "qr" else None
        self.bord = _Bordered(p, k_max, n_resp) if variant == "bordered-inverse" else None
        self.QtT = p.zeros((0, n_resp))
        self.Y, self.W = p.zeros((n, n_resp)), p.zeros((m, n_resp))
        self.active, self.path = [], []

    def correlations(self):
        p = self.p
        self.Cm = p.matmul(self.Xn.T, self.Tp - self.Y)  # (m, p)
        self.cabs = np.abs(self.Cm).sum(axis=1)
        return p.to_float64(self.cabs)

    def enter(self, j):
        p, qr, k = self.p, self.factor, len(self.active)
        self.c_max = self.cabs[j]
        if qr is not None:
            if not qr.append(self.Xn[:, j]):
                return False, None
            self.QtT = np.vstack([self.QtT, (qr.Q[:, k] @ self.Tp)[None, :]])
            self.W_bar = p.solve_triangular(qr.leading_r(k + 1), self.QtT, lower=False)
            pivot = float(qr.R[k, k]) ** 2
        else:
            ok, pivot = self.bord.append(self.Xn, j, self.Tp)
            if not ok:
                return False, pivot
            self.W_bar = self.bord.ols()
        self.active.append(j)
        return True, pivot

    def advance(self, rest):
        p, Y, W, active = self.p, self.Y, self.W, self.active
        # a temporary, as Xn[:, active] was: held across steps it raised longdouble's traced peak
        # above op-lssvm's declaration (n x k words more, test_peak_memory)
        Y_bar = p.matmul(p.keep_columns(self.Xn, active), self.W_bar)
        beta = None
        if rest is not None:
            A_all = p.matmul((Y_bar - Y).T, self.Xn)  # (p, m): no copy of the inactive columns
            beta = _step_size(self.c_max, self.Cm[rest], A_all.T[rest], self.S)
        beta = p.scalar(1) if beta is None else beta
        self.Y = Y + beta * (Y_bar - Y)
        self.W = W = W.copy()
        W[active] = W[active] + beta * (self.W_bar - W[active])
        return beta

    def record(self):
        self.path.append(self.W / self.scale[:, None])

    def coefficient_path(self):
        return np.stack(self.path)
