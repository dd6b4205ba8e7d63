"""Linear-algebra pieces the papers share, written once for every precision.

* :func:`thresholded_cholesky` - Abe's support-vector selection (§2.1): walk
  the columns of K in order, drop a column whose pivot root is below eta.
* :func:`pivoted_cholesky` - greedy pivoted Cholesky of PCP-LSSVM (Chen &
  Zhou §4.2): pivot on the largest Schur-complement diagonal, stop at rank r
  or when the trace of the residual diagonal falls below a bound.
* :func:`hestenes_stiefel_cg` - CG exactly as printed in Suykens §3.4.1, with
  the V(x) = 1/2 x^T A x - x^T B decrease and a residual tolerance as stops.
* :func:`simultaneous_cg` - the same iteration run on several right-hand sides
  at once (Suykens' two systems H eta = a, H nu = d): each system keeps its own
  step lengths, stops and history, and one pass over A per iteration serves
  all of them (A times an n x k block instead of k matrix-vector products).
* :func:`householder_qr` - R of A = QR (and Q^T b) by Householder
  reflections with every operation in the precision, for the precisions
  LAPACK does not have.
* :func:`mirror_lower` - copy a square matrix's lower triangle onto its upper
  one in place, by cache-sized bands: how every formed system is made exactly
  symmetric.

Both Cholesky variants are the same outer-product ("incomplete Cholesky")
recurrence G[:, r] = (K[:, j] - G G[j, :]^T) / sqrt(d_j), d <- d - G[:, r]^2,
which needs only the diagonal of K and the kernel columns of the kept pivots.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
from scipy.linalg.blas import get_blas_funcs

from ._validation import (_short, as_matrix, as_vector, check_finite, check_int,
                          check_open_interval, check_positive, check_square, check_symmetric,
                          is_symmetric)
from .memory import ensure_memory
from .precision import get_precision, precision_of

__all__ = ["CholeskySelection", "thresholded_cholesky", "pivoted_cholesky", "CGResult",
           "hestenes_stiefel_cg", "simultaneous_cg", "cg_iteration_bound", "Kappa2", "kappa2",
           "bordered_matrix", "bordered_shell", "bordered_rhs", "set_border", "mirror_lower", "mirror_band",
           "strict_upper_mask", "householder_qr", "MP_EIG_MAX_N"]


#: Rows of one band of :func:`mirror_lower` (128 x n float64 rows of the source stay in L2).
_MIRROR_BAND = 128


def mirror_lower(A, *, band=_MIRROR_BAND):
    """A[i, j] <- A[j, i] for j > i, in place: the strict upper triangle from the lower.

    Parameters
    ----------
    A : (n, n) ndarray, any dtype (object arrays of mpf included)
        Modified in place and returned.
    band : int >= 1, keyword-only
        Rows of A read per step.

    Returns
    -------
    A

    Notes
    -----
    Band i0:i1 of rows, left of its diagonal block, is copied transposed into
    columns i0:i1 above it (one strided copy; the band stays in cache), and
    the diagonal block's strict upper triangle is taken from its lower one
    through a boolean mask.  No index arrays are built: the former
    ``A[np.triu_indices(n, 1)] = A.T[...]`` made two n(n-1)/2 int64 arrays
    and a gather and scatter through them, which at n = 1900 took 0.17-0.30 s
    (more than the SYRK that formed A) in a fit, where the index arrays land
    on freshly returned pages; this takes ~0.01 s.  Entries are copied, never
    computed: the result is bitwise the lower triangle's.
    """
    n = A.shape[0]
    band = check_int("band", band, minimum=1)
    if A.ndim != 2 or A.shape[1] != n:
        raise ValueError(f"expected a square matrix, got shape {A.shape}")
    upper = strict_upper_mask(min(n, band))
    for i0 in range(0, n, band):
        mirror_band(A, i0, min(n, i0 + band), upper)
    return A


def strict_upper_mask(k):
    """(k, k) boolean mask of the strict upper triangle, for :func:`mirror_band`."""
    return np.triu(np.ones((k, k), dtype=bool), 1)


def mirror_band(A, i0, i1, upper):
    """One band of :func:`mirror_lower`: rows i0:i1 left of the diagonal onto columns i0:i1 above it.

    ``upper`` is :func:`strict_upper_mask` of at least i1 - i0.  Callers that
    compute A by bands (``core.kernels``) mirror each band while it is in cache.
    """
    A[:i0, i0:i1] = A[i0:i1, :i0].T
    D = A[i0:i1, i0:i1]
    np.copyto(D, D.T, where=upper[:i1 - i0, :i1 - i0])


def householder_qr(A, p, b=None):
    """R of A = Q R by Householder reflections, every operation in precision p (Golub & Van Loan 5.2.1).

    Parameters
    ----------
    A : (m, n) array in p, m >= n
        Not modified.
    p : Precision
    b : (m,) array in p, optional
        Reflected along with A's columns.

    Returns
    -------
    R : (n, n) array, upper triangular (its strict lower part exactly 0)
    y : (n,) array, the first n entries of Q^T b, or None without b

    Notes
    -----
    For longdouble and mpN, which LAPACK does not have (float32/float64 callers
    use geqrf).  2 m n^2 - 2 n^3/3 flops.  Backward stable: R is the exact
    factor of A + dA with ||dA_j|| <= c m n u ||A_j|| (Higham, *Accuracy and
    Stability*, Thm 19.4).  The reflection sends each column to -sign(a_0) ||a||
    e_1 (no cancellation in v_0 = a_0 - alpha).
    """
    A = np.array(A, copy=True)
    y = None if b is None else np.array(b, copy=True)
    n = A.shape[1]
    two, zero = p.scalar(2), p.scalar(0)
    for k in range(n):
        a = A[k:, k]
        alpha = p.sqrt(np.array([a @ a], dtype=A.dtype))[0]
        if not (alpha > zero):
            continue
        if a[0] > zero:
            alpha = -alpha
        v = a.copy()
        v[0] = v[0] - alpha
        beta = two / (v @ v)
        A[k:, k:] = A[k:, k:] - np.outer(v, beta * (v @ A[k:, k:]))
        if y is not None:
            y[k:] = y[k:] - v * (beta * (v @ y[k:]))
        A[k + 1:, k] = zero
    return A[:n, :n], (None if y is None else y[:n])


@dataclass(frozen=True)
class CholeskySelection:
    """Result of a column-selecting Cholesky.

    Attributes
    ----------
    indices : ndarray of int, shape (r,)
        Selected columns (support vectors), in selection order.
    G : ndarray, shape (m, r)
        K ~= G G^T; ``G[indices]`` is the lower Cholesky factor of K[indices][:, indices].
    columns : ndarray, shape (m, r)
        The kernel columns K[:, indices] that were computed (in the precision).
    pivots : ndarray of float, shape (m,) or (r,)
        Pivot roots sqrt(d_j) seen at each visited column (thresholded) or at
        each selected pivot (greedy), as float64.
    trace_history : ndarray of float
        Trace of the residual diagonal after each selection (greedy only).
    stop_reason : str
        Greedy only: why the selection stopped: "rank" (the requested rank
        was reached), "trace_tol" (the residual trace fell to the tolerance),
        "nonpositive-pivot" (the largest residual diagonal was <= 0) or
        "exhausted" (every row was pivoted).
    """

    indices: np.ndarray
    G: np.ndarray
    columns: np.ndarray
    pivots: np.ndarray
    trace_history: np.ndarray = field(default_factory=lambda: np.empty(0))
    stop_reason: str = ""

    @property
    def L(self):
        return self.G[self.indices]


def _setup(X, kernel, precision):
    """(precision, X, m, diag of K) and the kernel the columns are computed with.

    The columns are computed one at a time, by the RBF differences formation
    whatever the kernel's: a single column gains nothing from a GEMM, and
    then every column and pivot is exactly the corresponding entry of
    ``rbf_kernel(X, formation="differences")``, in every precision.
    """
    if not callable(kernel):
        raise TypeError(f"expected a Kernel (e.g. make_kernel('rbf', sigma2=1.0)) for kernel, "
                        f"got kernel={_short(kernel)}")
    if getattr(kernel, "name", None) == "rbf" and getattr(kernel, "formation", "") != "differences":
        kernel = dataclasses.replace(kernel, formation="differences")
    p = get_precision(precision)
    X = as_matrix(X, "X", allow_object=False)
    m = X.shape[0]
    if getattr(kernel, "name", None) == "rbf":  # K(x, x) = exp(-0) = 1 exactly, no m kernel calls
        check_finite(X, "X")
        return p, X, m, p.asarray(np.ones(m)), kernel
    # In general the diagonal costs m kernel evaluations.
    diag = np.array([kernel(X[i:i + 1], precision=p)[0, 0] for i in range(m)], dtype=p.dtype)
    return p, X, m, diag, kernel


def _add_column(p, column, G, cols, r, j, d, done):
    """Append pivot j as column r of G (outer-product Cholesky step); ``column(j)`` is K[:, j].

    ``done`` are the earlier pivots: their rows of the new column are zero in
    exact arithmetic (their residual is eliminated), so they are set to an
    exact zero and ``G[pivots]`` is exactly lower triangular.
    """
    kcol = column(j)
    if cols is not None:
        cols[:, r] = kcol
    s = p.sqrt(np.array([d[j]], dtype=p.dtype))[0]
    g = (kcol - G[:, :r] @ G[j, :r]) / s if r else kcol / s
    g[done] = p.scalar(0)
    g[j] = s  # the pivot's own entry is d_j / s = s; recomputed as (K_jj - ||G_j||^2) / s it cancels
    G[:, r] = g
    d -= g * g
    return s


class _KernelColumns:
    """K(X, x_j) for one pivot j at a time.

    RBF: the differences formula over contiguous coordinate rows, exactly
    the operations of ``rbf_kernel(X, X[j:j + 1], formation="differences")``
    (sum of (x_f - z_f)^2 over f in order, then exp(-D / sigma2)), so the
    column is bitwise that kernel's, without its per-call validation and the
    (m, d) strided reductions (0.6 ms instead of 12 ms at m = 289,916, d = 3).
    Other kernels: ``kernel(X, X[j:j + 1])``.
    """

    def __init__(self, p, X, kernel):
        self.p, self.X, self.kernel = p, X, kernel
        kernel(X, X[:1], precision=p)  # validates X and the kernel parameters in the precision once
        self.rbf = getattr(kernel, "name", None) == "rbf"
        if self.rbf:
            self.Xt = np.ascontiguousarray(p.asarray(X).T)
            self.s = p.scalar(kernel.params.get("sigma2", 1.0))
            self.tmp = p.zeros(X.shape[0]) if p.hardware else None

    def __call__(self, j):
        p = self.p
        if not self.rbf:
            return self.kernel(self.X, self.X[j:j + 1], precision=p)[:, 0]
        Xt, D = self.Xt, None
        if not p.hardware:
            for f in range(Xt.shape[0]):
                diff = Xt[f] - Xt[f, j]
                D = diff * diff if D is None else D + diff * diff
            return p.exp(-D / self.s)
        tmp = self.tmp
        for f in range(Xt.shape[0]):
            if D is None:
                D = np.subtract(Xt[f], Xt[f, j])
                np.multiply(D, D, out=D)
            else:
                np.subtract(Xt[f], Xt[f, j], out=tmp)
                np.multiply(tmp, tmp, out=tmp)
                np.add(D, tmp, out=D)
        np.divide(D, -self.s, out=D)  # -D / s, bitwise: rounding is symmetric in the sign
        return np.exp(D, out=D)


def _greedy_step(p, column, G, cols, r, j, d, done):
    """Pivot j as column r of G, d <- max(d - g^2, 0) with d_j = 0 (greedy pivoted Cholesky).

    For float32/float64 one BLAS gemv, y <- K[:, j] - G[:, :r] G[j, :r]^T,
    reads G once and every other pass is in place: the step is bound by
    reading G (8 m r bytes in float64).  Otherwise :func:`_add_column`.
    """
    if not p.hardware:
        s = _add_column(p, column, G, cols, r, j, d, done)
        zero = p.scalar(0)
        d[j] = zero  # exact zero at a pivot (removes rounding residue)
        d[d < zero] = zero  # clamp rounding below 0
        return s
    kcol = column(j)
    if cols is not None:
        cols[:, r] = kcol
    s = p.sqrt(np.array([d[j]], dtype=p.dtype))[0]
    g = kcol
    if r:
        gemv = get_blas_funcs("gemv", dtype=p.dtype)
        g = gemv(-1.0, G[:, :r], G[j, :r], beta=1.0, y=kcol, overwrite_y=1)
    np.divide(g, s, out=g)
    g[done] = 0
    g[j] = s  # d_j / s = s exactly: (K_jj - ||G_j||^2) / s cancels (float32: to 0 or below)
    G[:, r] = g
    np.multiply(g, g, out=g)
    np.subtract(d, g, out=d)
    d[j] = 0
    np.maximum(d, 0, out=d)
    return s


def thresholded_cholesky(X, kernel, eta, *, precision="float64") -> CholeskySelection:
    """Abe's sequential Cholesky selection of support vectors.

    Column j is kept when the root of its pivot, sqrt(K_jj - ||l_j||^2), is
    >= eta; otherwise its row and column are deleted and the walk goes on.

    Parameters
    ----------
    X : (m, d) array
    kernel : Kernel
    eta : float in (0, 1)
        Abe's threshold on the pivot root.
    precision : str or Precision

    Notes
    -----
    Cost O(m N^2) for N kept columns; only the diagonal and the N kept kernel
    columns are computed.  Abe (2007) §2.1; selection as in Abe (2005).
    """
    check_open_interval("eta", eta, 0, 1)  # TypeError (named) for a non-number, not a bare '<' error
    p, X, m, d, kernel = _setup(X, kernel, precision)
    ensure_memory(m, 2 * m * m, p, what="thresholded Cholesky (factor and kernel columns)")
    G = p.zeros((m, m))
    cols = p.zeros((m, m))
    keep, roots = [], np.empty(m)
    eta_p = p.scalar(eta)
    column = _KernelColumns(p, X, kernel)
    for j in range(m):
        dj = d[j]
        root = p.sqrt(np.array([dj], dtype=p.dtype))[0] if dj > 0 else p.scalar(0)
        roots[j] = float(root)
        if not (root >= eta_p):
            continue
        _add_column(p, column, G, cols, len(keep), j, d, keep)
        keep.append(j)
    r = len(keep)
    return CholeskySelection(np.array(keep, dtype=np.intp), G[:, :r].copy(), cols[:, :r].copy(), roots)


def pivoted_cholesky(X, kernel, *, rank=None, trace_tol=0.0, relative=False, keep_columns=True,
                     precision="float64") -> CholeskySelection:
    """Greedy pivoted Cholesky (PCP-LSSVM, Chen & Zhou §4.2).

    At each step pivot on the largest residual diagonal d_j; stop after
    ``rank`` pivots or once trace(d) <= ``trace_tol`` (times trace(K) when
    ``relative``).

    Parameters
    ----------
    X : (m, d) array
    kernel : Kernel
    rank : int >= 1, optional
        At most this many pivots (default m).
    trace_tol : float >= 0
        Stop once the trace of the residual diagonal is <= trace_tol
        (absolute) or <= trace_tol * trace(K) (``relative=True``).  Must be
        below trace(K) (below 1 when relative): a larger one selects nothing
        and is a ValueError.
    relative : bool
        Whether ``trace_tol`` is relative to trace(K).
    keep_columns : bool
        Keep the r kernel columns in ``columns`` (default).  False stores
        nothing there (an empty (m, 0) array): G alone is m r numbers, so a
        caller that only needs G halves the memory.
    precision : str or Precision

    Notes
    -----
    Cost O(m r^2); only the diagonal and the r selected kernel columns are
    computed.  ``trace_history[i]`` is trace(K - G_i G_i^T) after i+1 pivots,
    the error bound tr(K - P P^T) of Chen & Zhou.  G is stored column-major,
    so the update K[:, j] - G[:, :r] G[j, :r]^T is one contiguous BLAS gemv
    for the LAPACK precisions, and every other pass of a step is in place.
    The residual diagonal is clamped at 0 after each update (rounding in
    d <- d - g^2 can make it slightly negative).  ``stop_reason`` says which
    rule stopped the selection.  When fewer than ``rank`` pivots are taken,
    ``G`` is the leading columns of the rank-column array (contiguous, no
    copy; the columns never reached were never touched).

    The gemv reads all of G at every step, 4 m r^2 bytes in float64 for r
    pivots: the selection is bound by memory bandwidth (m = 289,916, d = 3,
    r = 219: 56 GB read, 6.5 s with one BLAS thread, 4 s with two, here).
    A blocked variant that chooses the same pivots (the recurrence on the
    rows of largest residual, certified by the residual's monotonicity, the
    other rows caught up by GEMM) was measured and dropped: with Chen &
    Zhou's wide kernels one pivot lowers every residual, the bound certifies
    2-3 pivots per block, and it ran no faster.
    """
    if isinstance(trace_tol, bool) or not isinstance(trace_tol, (int, float, np.floating, np.integer)):
        raise TypeError(f"expected a real number trace_tol >= 0, got trace_tol={_short(trace_tol)}")
    if not (np.isfinite(float(trace_tol)) and trace_tol >= 0):
        raise ValueError(f"expected a finite trace_tol >= 0, got trace_tol={_short(trace_tol)}")
    p, X, m, d, kernel = _setup(X, kernel, precision)
    rank = m if rank is None else check_int("rank", rank, minimum=1)
    rank = min(rank, m)
    ensure_memory(m, (2 if keep_columns else 1) * m * rank, p,
                  what="pivoted Cholesky (factor and kernel columns)")
    tol = float(trace_tol) * (float(np.sum(d)) if relative else 1.0)
    if float(np.sum(d)) <= tol:  # the stop would fire before the first pivot: nothing is selected
        raise ValueError(f"expected trace_tol below {'1 (relative)' if relative else 'trace(K)'}: "
                         f"trace(K) = {float(np.sum(d)):.6g}, got trace_tol={_short(trace_tol)}, "
                         f"which selects no pivot")
    # Column-major, so that a pivot's update reads G[:, :r] contiguously.  np.zeros maps zero pages
    # lazily: the columns that are never reached cost no memory traffic.
    G = np.zeros((m, rank), dtype=p.dtype, order="F") if p.hardware else np.asfortranarray(p.zeros((m, rank)))
    cols = p.zeros((m, rank)) if keep_columns else None
    column = _KernelColumns(p, X, kernel)
    piv, roots, trace = [], [], []
    reason = "exhausted" if rank == m else "rank"
    tr = float(np.sum(d))
    for r in range(rank):
        if tr <= tol:
            reason = "trace_tol"
            break
        # Pivots hold an exact 0, so the argmax is a pivot only when no residual is > 0.
        j = int(np.argmax(np.array([float(v) for v in d]) if d.dtype == object else d))
        if not (d[j] > 0):
            reason = "nonpositive-pivot"
            break
        roots.append(float(_greedy_step(p, column, G, cols, r, j, d, piv)))
        piv.append(j)
        tr = float(np.sum(d))
        trace.append(tr)
    r = len(piv)
    # G[:, :r] of a column-major G is contiguous: a view, no copy of m r numbers.
    cols = p.zeros((m, 0)) if cols is None else (cols if r == rank else cols[:, :r].copy())
    return CholeskySelection(np.array(piv, dtype=np.intp), G[:, :r], cols, np.array(roots), np.array(trace),
                             reason)


@dataclass(frozen=True)
class CGResult:
    """Outcome of :func:`hestenes_stiefel_cg`.

    ``history`` has per-iteration arrays ``residual_norm`` (||r_i||_2, the
    recursively updated residual, i = 0..iterations) and ``V`` (V(x_i)).
    ``reason`` is "residual", "V-decrease", "maxiter" or "breakdown".
    """

    x: np.ndarray
    iterations: int
    converged: bool
    reason: str
    history: dict


def hestenes_stiefel_cg(A, B, *, rtol=None, vtol=None, maxiter=None, precision=None) -> CGResult:
    """Hestenes-Stiefel CG for A x = B with A = A^T > 0 (Suykens §3.4.1).

    Parameters
    ----------
    A : (n, n) array or callable
        The matrix (symmetric to within n u max|A|, else ValueError), or a
        function v -> A v in the precision.
    B : (n,) array
    rtol : float, optional
        Stop when ||r_i|| <= rtol ||B||.  Default 100 u.
    vtol : float, optional
        Stop when V(x_{i-1}) - V(x_i) <= vtol |V(x_i)| (Suykens' V(x) rule).
        Default u: the decrease is no longer visible in the arithmetic.
        ``vtol=0`` switches the V rule off (only the residual test stops).
    maxiter : int, optional
        Default 10 n (CG needs <= n steps in exact arithmetic).

    Notes
    -----
    Iteration exactly as printed: x_0 = 0, r_0 = B, p_1 = r_0,
    beta_i = r_{i-1}^T r_{i-1} / r_{i-2}^T r_{i-2}, lambda_i = r_{i-1}^T r_{i-1} / p_i^T A p_i.
    V(x) is evaluated as -1/2 x^T (B + r), which needs no extra product.
    """
    matvec, p = _cg_operator(A, precision)
    B = as_vector(B, "B")
    B = p.asarray(B)
    check_finite(B, "B")
    if not callable(A) and B.shape[0] != np.shape(A)[0]:
        raise ValueError(f"expected B of shape ({np.shape(A)[0]},), got B.shape={B.shape}")
    n = B.shape[0]
    u = p.unit_roundoff
    rtol = 100 * u if rtol is None else check_positive("rtol", rtol)
    vtol = u if vtol is None else (0.0 if vtol == 0 else check_positive("vtol", vtol))
    maxiter = 10 * n if maxiter is None else check_int("maxiter", maxiter, minimum=1)
    x = p.zeros(n)
    r = B.copy()
    rr = r @ r
    bnorm = float(rr) ** 0.5
    res, V = [bnorm], [0.0]
    v_old = p.scalar(0)  # V(x_{i-1}) in the precision: the V rule must not compare float64 roundings
    reason, i, pdir, rr_old = "maxiter", 0, None, None
    if bnorm == 0:
        return CGResult(x, 0, True, "residual", {"residual_norm": np.array(res), "V": np.array(V)})
    while i < maxiter:
        i += 1
        pdir = r.copy() if i == 1 else r + (rr / rr_old) * pdir
        Ap = matvec(pdir)
        pAp = pdir @ Ap
        if not (pAp > 0):
            reason = "breakdown"
            break
        lam = rr / pAp
        x = x + lam * pdir
        r = r - lam * Ap
        rr_old, rr = rr, r @ r
        res.append(float(rr) ** 0.5)
        v_new = -(x @ (B + r)) / 2
        V.append(float(v_new))
        if res[-1] <= rtol * bnorm:
            reason = "residual"
            break
        if vtol and v_old - v_new <= vtol * abs(v_new):
            reason = "V-decrease"
            break
        v_old = v_new
    converged = reason in ("residual", "V-decrease")
    return CGResult(x, i, converged, reason, {"residual_norm": np.array(res), "V": np.array(V)})


def _cg_operator(A, precision):
    """(matvec, Precision) for a matrix or a callable (the callable must accept (n,) and (n, k)).

    A matrix must be square, finite and symmetric (to within n u max|A|, as
    :meth:`Precision.cholesky` reads it): CG on a non-symmetric A stops with a
    wrong x and ``converged=True``.  Integer entries are exact data: float64
    unless ``precision`` says otherwise.
    """
    if callable(A):
        return A, get_precision(precision or "float64")
    A = as_matrix(A, "A")
    check_square(A, "A")
    p = get_precision(precision) if precision else (
        get_precision("float64") if A.dtype.kind in "iu" else precision_of(A))
    check_symmetric(A, "A", p)  # says NaN when a NaN breaks the symmetry
    A = p.asarray(A)
    if A.dtype == object:
        check_finite(A, "A")
    else:  # a finite sum means finite entries: no n x n mask (it was 1/8 of the fit's peak)
        with np.errstate(all="ignore"):
            total = A.sum()
        if not np.isfinite(total):
            check_finite(A, "A")
    return A.__matmul__, p


class _CGRun:
    """State of one system of :func:`simultaneous_cg`: the recurrences of :func:`hestenes_stiefel_cg`."""

    def __init__(self, b, p, rtol, vtol, maxiter):
        self.b, self.p, self.rtol, self.vtol, self.maxiter = b, p, rtol, vtol, maxiter
        self.x = p.zeros(b.shape[0])
        self.r = b.copy()
        self.rr = self.r @ self.r
        self.bnorm = float(self.rr) ** 0.5
        self.res, self.V, self.v_old = [self.bnorm], [0.0], p.scalar(0)
        self.i, self.pdir, self.rr_old = 0, None, None
        self.reason = "residual" if self.bnorm == 0 else "maxiter"
        self.done = self.bnorm == 0 or maxiter < 1

    def direction(self):
        """p_i = r_{i-1} + beta_i p_{i-1} (p_1 = r_0)."""
        self.i += 1
        self.pdir = self.r.copy() if self.i == 1 else self.r + (self.rr / self.rr_old) * self.pdir
        return self.pdir

    def update(self, Ap):
        """One step given A p_i; sets ``done`` and ``reason`` when a stop fires."""
        pAp = self.pdir @ Ap
        if not (pAp > 0):
            self.reason, self.done = "breakdown", True
            return
        lam = self.rr / pAp
        self.x = self.x + lam * self.pdir
        self.r = self.r - lam * Ap
        self.rr_old, self.rr = self.rr, self.r @ self.r
        self.res.append(float(self.rr) ** 0.5)
        v_new = -(self.x @ (self.b + self.r)) / 2
        self.V.append(float(v_new))
        if self.res[-1] <= self.rtol * self.bnorm:
            self.reason, self.done = "residual", True
        elif self.vtol and self.v_old - v_new <= self.vtol * abs(v_new):
            self.reason, self.done = "V-decrease", True
        elif self.i >= self.maxiter:
            self.done = True
        self.v_old = v_new

    def result(self):
        return CGResult(self.x, self.i, self.reason in ("residual", "V-decrease"), self.reason,
                        {"residual_norm": np.array(self.res), "V": np.array(self.V)})


def simultaneous_cg(A, B, *, rtol=None, vtol=None, maxiter=None, precision=None) -> list:
    """Hestenes-Stiefel CG on A x_j = B[:, j] for every column at once (A = A^T > 0).

    Parameters
    ----------
    A : (n, n) array or callable
        The matrix, or a function V -> A V for V of shape (n, k) in the precision.
    B : (n, k) or (n,) array
        Right-hand sides (Suykens' two systems: ``[a, d]``).
    rtol, vtol, maxiter, precision
        As :func:`hestenes_stiefel_cg`, applied to each system separately.

    Returns
    -------
    list of CGResult
        One per column, each with its own iterate, iteration count, stop
        reason and history, as :func:`hestenes_stiefel_cg` returns them.

    Notes
    -----
    Each system runs the printed recurrences with its own lambda_i and
    beta_i (not a block Krylov method: the systems do not share a subspace,
    so each iterate is the one of :func:`hestenes_stiefel_cg` up to the
    rounding of the product).  Per iteration the directions of the systems
    still running are stacked into an n x k block and multiplied by A in one
    call: one pass over the n^2 entries of A (the memory-bound cost of CG)
    instead of k, and a BLAS-3 product for hardware floats.  A system that
    stops leaves the block.
    """
    matvec, p = _cg_operator(A, precision)
    B = p.asarray(B)
    if B.ndim == 1:
        B = B[:, None]
    if B.ndim != 2 or B.size == 0:
        raise ValueError(f"expected B of shape (n,) or (n, k), got B.shape={B.shape}")
    n, k = B.shape
    u = p.unit_roundoff
    rtol = 100 * u if rtol is None else check_positive("rtol", rtol)
    vtol = u if vtol is None else (0.0 if vtol == 0 else check_positive("vtol", vtol))
    maxiter = 10 * n if maxiter is None else check_int("maxiter", maxiter, minimum=1)
    runs = [_CGRun(B[:, j].copy(), p, rtol, vtol, maxiter) for j in range(k)]
    active = [run for run in runs if not run.done]
    while active:
        P = np.stack([run.direction() for run in active], axis=1)
        AP = matvec(P)
        for j, run in enumerate(active):
            run.update(AP[:, j])
        active = [run for run in active if not run.done]
    return [run.result() for run in runs]


def cg_iteration_bound(kappa: float, eps: float) -> float:
    """Suykens (3.27): iterations after which ||x_i - x*||_A <= eps ||x_0 - x*||_A.

    i >= log(2/eps) / log((sqrt(kappa)+1)/(sqrt(kappa)-1)); for kappa = 1 one step.
    (The printed form divides by log((sqrt k - 1)/(sqrt k + 1)) < 0; the
    positive count uses its reciprocal argument.)

    Raises
    ------
    TypeError, ValueError
        kappa not a number >= 1 (NaN, 0, -1), eps not in (0, 1) (a reduction
        factor; eps >= 2 would make the bound 0 without saying so).
    """
    for name, value in (("kappa", kappa), ("eps", eps)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
            raise TypeError(f"expected a real number for {name}, got {name}={_short(value)}")
    if not (kappa >= 1):  # NaN fails too; kappa = inf is allowed (the bound is then inf)
        raise ValueError(f"expected a condition number kappa >= 1, got kappa={_short(kappa)}")
    if not (0 < eps < 1):
        raise ValueError(f"expected an error reduction 0 < eps < 1, got eps={_short(eps)}")
    if kappa == 1:
        return 1.0
    if np.isinf(kappa):
        return float("inf")
    s = np.sqrt(kappa)
    return float(np.log(2 / eps) / np.log((s + 1) / (s - 1)))


# ----------------------------------------------------------------------------- condition numbers
#: Largest n for which kappa2 escalates to mp eigenvalues / singular values (O(n^3) Python operations).
MP_EIG_MAX_N = 200
_U64 = 2.0 ** -53


@dataclass(frozen=True)
class Kappa2:
    """A 2-norm condition number estimate and how it was obtained.

    Attributes
    ----------
    value : float
        max |lambda| / min |lambda| (symmetric) or sigma_max / sigma_min; inf when singular.
    method : str
        "float64 eigvalsh", "float64 svd", or "mpN eigvalsh" / "mpN svd".
    resolved : bool
        True when the smallest eigen/singular value is known to two digits
        (kappa u_q <= 1e-2 in the arithmetic q that computed it).
    """

    value: float
    method: str
    resolved: bool


def kappa2(A, *, escalate: bool = True, max_mp_n: int = MP_EIG_MAX_N) -> Kappa2:
    """kappa_2(A): one estimate for every caller (solvers' diagnostics, error measures, reports).

    Parameters
    ----------
    A : (n, n) array in any registered precision
        Symmetric A gets eigenvalues, any other singular values.
    escalate : bool
        When float64 cannot resolve the small end, recompute in mpmath at 30,
        60, 120, 240 digits (only for n <= ``max_mp_n``).
    max_mp_n : int

    Returns
    -------
    Kappa2

    Notes
    -----
    A backward-stable eigensolver has |lambda^ - lambda| <= p(n) u ||A||_2, so
    the relative error of the smallest eigenvalue is about p(n) u kappa_2
    (Weyl); with p(n) ~ 1 in practice (LAPACK's test ratios), float64 is
    kept when u64 kappa <= 1e-2 (two correct digits of kappa), likewise
    each mp level.  A is first rounded to float64 (exact for float32); the mp
    levels convert it exactly from float64/longdouble (mp inputs round to the
    level's digits, a relative perturbation far below its resolution).
    """
    A = np.asarray(A)
    symmetric = is_symmetric(A)
    if A.dtype == np.float64:
        A64 = A
    elif A.dtype.kind in "iub":  # exact data
        A64 = A.astype(np.float64)
    else:
        A64 = precision_of(A).to_float64(A)
    kind = "eigvalsh" if symmetric else "svd"
    value = np.inf
    if np.isfinite(A64).all():
        w = np.abs(np.linalg.eigvalsh(A64) if symmetric else np.linalg.svd(A64, compute_uv=False))
        value = float(w.max() / w.min()) if w.min() > 0 else np.inf
        if value * _U64 <= 1e-2:
            return Kappa2(value, f"float64 {kind}", True)
    if not escalate or A.shape[0] > max_mp_n:
        return Kappa2(value, f"float64 {kind}", False)
    q = None
    for dps in (30, 60, 120, 240):
        q = get_precision(f"mp{dps}")
        Aq = q.asarray(A)
        if symmetric:
            w = [abs(v) for v in q.eigvalsh(Aq)]
        else:
            sv = q.ctx.svd_r(q.ctx.matrix(Aq.tolist()), compute_uv=False)
            w = [abs(sv[i]) for i in range(sv.rows)]
        lo, hi = min(w), max(w)
        if lo > 0 and hi / lo * q.unit_roundoff <= 1e-2:
            return Kappa2(float(hi / lo), f"{q.name} {kind}", True)
    return Kappa2(float(hi / lo) if lo > 0 else np.inf, f"{q.name} {kind}", False)


def bordered_shell(n, precision):
    """The zero (n+1) x (n+1) matrix of a bordered system, in ``precision``; its
    ``[1:, 1:]`` block is where H goes (a solver may form H there in place)."""
    return get_precision(precision).zeros((n + 1, n + 1))


def set_border(A, a):
    """Write the border a into row 0 and column 0 of A (A[0, 0] stays 0); exact copies."""
    A[0, 1:] = a
    A[1:, 0] = a
    return A


def bordered_rhs(d, precision):
    """The right-hand side [0; d] of a bordered system, in ``precision``."""
    p = get_precision(precision)
    rhs = p.zeros(len(d) + 1)
    rhs[1:] = d
    return rhs


def bordered_matrix(H, a, d, precision):
    """The bordered (KKT) system [[0, a^T], [a, H]] [b; x] = [0; d] in ``precision``.

    The one assembly of Suykens' (3.24)-form systems (3.5, 3.32) and of
    Abe's bordered dual (eq. 4, 9-10), from :func:`bordered_shell`,
    :func:`set_border` and :func:`bordered_rhs` (which the dense Suykens
    solvers use to form H in place): the border is copied exactly, nothing
    is rounded.

    Parameters
    ----------
    H : (n, n) array in the precision
    a : (n,) array, the border
    d : (n,) array, the right-hand side of the second block row
    precision : str or Precision

    Returns
    -------
    A : (n+1, n+1) array, rhs : (n+1,) array
    """
    A = bordered_shell(H.shape[0], precision)
    A[1:, 1:] = H
    return set_border(A, a), bordered_rhs(d, precision)
