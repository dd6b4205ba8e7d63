"""Column-selecting ("incomplete") Cholesky factorizations of a kernel matrix, in every precision.

* :func:`thresholded_cholesky` - Abe's support-vector selection (§2.1): walk
  the columns of K in order, drop a column whose pivot root is below eta.
* :func:`pivoted_cholesky` - greedy pivoted Cholesky of PCP-LSSVM (Chen &
  Zhou §4.2): pivot on the largest Schur-complement diagonal, stop at rank r
  or when the trace of the residual diagonal falls below a bound.

Both variants are the same outer-product ("incomplete Cholesky")
recurrence G[:, r] = (K[:, j] - G G[j, :]^T) / sqrt(d_j), d <- d - G[:, r]^2,
which needs only the diagonal of K and the kernel columns of the kept pivots.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike
from scipy.linalg.blas import get_blas_funcs

from ..core.exceptions import CholeskyBreakdownError
from ..core.records import CholeskyBreakdown
from ..core.validation import (as_matrix, check_bool, check_finite, check_int, check_open_interval,
                               check_symmetric, finite_entries, short_repr)
from .memory import PeakMemory, PeakTerms
from ..arith.precision import get_precision
from ._cholesky_flint import Panel, PivotedRBF
from ..arith.base import Precision
from .kernels import Kernel


__all__ = ["CholeskySelection", "thresholded_cholesky", "pivoted_cholesky", "THRESHOLDED_PEAK",
           "PIVOTED_PEAKS", "SYMMETRY_SAMPLE", "negative_pivot_tolerance"]

#: Peak of :func:`thresholded_cholesky`, words per (m+1)^2 and (m+1) N for N kept columns: the
#: two m x m arrays (factor, kernel columns) and their N-column copies; float32 holds them beside
#: float64 work of the same size, longdouble beside float64 copies; in mp the m x m arrays start
#: as pointers to shared zeros.  tracemalloc, m = 400-1600 (longdouble 300-600, mp30 60-120),
#: N/m = 0.02-0.1 (tests/test_peak_memory.py measures it again).  N is not known before the
#: selection: the guard checks N = 0, the part every selection holds.
THRESHOLDED_PEAK = PeakMemory({"float64": PeakTerms(n2=2.01, nr=2.0), "float32": PeakTerms(n2=4.01),
                               "longdouble": (PeakTerms(n2=2.0, nr=2.0), PeakTerms(n2=2.51)),
                               "mp": PeakTerms(n2=2.1, nr=1.3)},
                              r="N", measured="two m x m arrays and their N kept columns")
#: Peak of :func:`pivoted_cholesky` by ``keep_columns``, words per (m+1) r for rank r: G (and the
#: kept kernel columns), measured as THRESHOLDED_PEAK at r = m/10 (slopes between the two largest m).
PIVOTED_PEAKS = {
    True: PeakMemory({"float64": PeakTerms(nr=2.01), "float32": PeakTerms(nr=4.01),
                      "longdouble": PeakTerms(nr=2.51), "mp": PeakTerms(nr=2.25)},
                     r="rank", measured="G and the kernel columns (m x r each)"),
    False: PeakMemory({"float64": PeakTerms(nr=1.01), "float32": PeakTerms(nr=1.04),
                       "longdouble": PeakTerms(nr=2.01), "mp": PeakTerms(nr=1.1)},
                      r="rank", measured="G (m x r)")}


@dataclass(frozen=True)
class CholeskySelection:
    """Result of a column-selecting Cholesky.

    Attributes
    ----------
    indices : ndarray of int, shape (r,)
        Selected columns (support vectors), in selection order.
    G : ndarray, shape (m, r)
        K ~= G G^T; ``G[indices]`` is the lower Cholesky factor of K[indices][:, indices].
        Read-only where the precision's engine keeps it (``_cholesky_flint.PivotedRBF``: mpN on FLINT,
        its FLINT form registered for the products that follow); copy it to write.
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
    negative_residuals : int
        Greedy only: entries of the final residual diagonal below 0 (always 0
        when it is clamped; ``clamp=False`` keeps the rounding's negatives).
    formation : str
        The RBF formation (:data:`~lssvm_analysis.linalg.kernels.RBF_FORMATIONS`) whose entries
        the columns are, bit for bit: ``"differences"``, or ``"gemm"`` where the precision's
        engine keeps the greedy selection (``_cholesky_flint.PivotedRBF``: mpN on FLINT, exact
        squared distances).
    """

    indices: np.ndarray
    G: np.ndarray
    columns: np.ndarray
    pivots: np.ndarray
    trace_history: np.ndarray = field(default_factory=lambda: np.empty(0))
    stop_reason: str = ""
    negative_residuals: int = 0
    formation: str = "differences"

    @property
    def L(self):
        return self.G[self.indices]


def _setup(X, kernel, precision):
    """(precision, X, m, diag of K) and the kernel the columns are computed with.

    The columns are computed one at a time, by the RBF differences formation
    whatever the kernel's: a single column gains nothing from a GEMM, and
    then every column and pivot is exactly the corresponding entry of
    ``rbf_kernel(X, formation="differences")``, in every precision -- except where the
    precision's engine keeps the greedy selection (``_cholesky_flint.PivotedRBF``, mpN on FLINT): its
    columns are ``rbf_kernel(X)``'s exact-distance ones (``CholeskySelection.formation``).
    """
    if not callable(kernel):
        raise TypeError(f"expected a Kernel (e.g. make_kernel('rbf', sigma2=1.0)) for kernel, "
                        f"got kernel={short_repr(kernel)}")
    if getattr(kernel, "name", None) == "rbf" and getattr(kernel, "formation", "") != "differences":
        kernel = dataclasses.replace(kernel, formation="differences")
    p = get_precision(precision)
    X = as_matrix(X, "X", allow_object=False)
    m = X.shape[0]
    if getattr(kernel, "name", None) == "rbf":  # K(x, x) = exp(-0) = 1 exactly, no m kernel calls
        check_finite(X, "X")
        return p, X, m, p.asarray(np.ones(m)), kernel
    _check_symmetric_kernel(kernel, X, p)
    # In general the diagonal costs m kernel evaluations.
    diag = np.array([kernel(X[i:i + 1], precision=p)[0, 0] for i in range(m)], dtype=p.dtype)
    return p, X, m, diag, kernel


#: Rows of X on which a kernel that is not the built-in RBF is checked for symmetry.
SYMMETRY_SAMPLE = 64


def _check_symmetric_kernel(kernel, X, p) -> None:
    """ValueError naming ``kernel`` unless K(X_s, X_s) of the first rows is a finite symmetric matrix of the
    right shape (within n u max|K|, :func:`check_symmetric`): Cholesky reads one triangle, so an
    asymmetric callable was factored as if it were the symmetric matrix of its lower half."""
    Xs = X[:SYMMETRY_SAMPLE]
    K = np.asarray(kernel(Xs, Xs, precision=p))
    if K.shape != (len(Xs), len(Xs)):
        raise ValueError(f"expected a kernel returning a ({len(Xs)}, {len(Xs)}) matrix for kernel(X[:{len(Xs)}], "
                         f"X[:{len(Xs)}]), got shape {K.shape} from kernel={short_repr(kernel)}")
    if not finite_entries(K):
        raise ValueError(f"expected a kernel with finite values, got NaN or inf from kernel={short_repr(kernel)}")
    try:
        check_symmetric(K, "K", p)
    except ValueError as exc:
        raise ValueError(f"expected a symmetric kernel, got kernel={short_repr(kernel)}: {exc}") from None


def negative_pivot_tolerance(m: int, u: float, diag_max: float) -> float:
    """How far below 0 rounding alone can take a residual diagonal entry of a PSD kernel: 4 m u max K_ii.

    d_i = K_ii - sum_k g_ik^2 after r <= m steps is computed with an error of at most gamma_{r+1}
    (K_ii + sum_k g_ik^2) <= 2 gamma_{m+1} K_ii (Higham, Thm 10.3's argument; sum g^2 <= K_ii + |d_i|),
    and the computed g carry the rounding of earlier steps once more: c = 4.  A residual below
    minus this is no rounding: the kernel is indefinite (Chen & Zhou's trace bound tr(K - G G^T)
    then says nothing: ``1 - ||x - z||^2 / 4`` stopped at "trace_tol" with ||K - G G^T||_2 = 1.69).
    """
    return 4.0 * m * u * max(float(diag_max), 0.0)


def _add_column(p, column, G, cols, r, j, d, done):
    """Append pivot j as column r of G (outer-product Cholesky step); ``column(j)`` is K[:, j].

    ``G`` is the factor's :func:`_panel` (its ``.G`` the array).
    ``done`` are the earlier pivots: their rows of the new column are zero in
    exact arithmetic (their residual is eliminated), so they are set to an
    exact zero and ``G[pivots]`` is exactly lower triangular.
    """
    kcol = column(j)
    if cols is not None:
        cols[:, r] = kcol
    s = p.sqrt(np.array([d[j]], dtype=p.dtype))[0]
    g = (kcol - G.times_row(r, j)) / s if r else kcol / s
    g[done] = p.scalar(0)
    g[j] = s  # the pivot's own entry is d_j / s = s; recomputed as (K_jj - ||G_j||^2) / s it cancels
    G.set(r, g)
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


def _greedy_step(p, column, panel, cols, r, j, d, done, clamp=True, low=None):
    """Pivot j as column r of G = ``panel.G``, d <- max(d - g^2, 0) with d_j = 0 (greedy
    pivoted Cholesky).

    For float32/float64 one BLAS gemv, y <- K[:, j] - G[:, :r] G[j, :r]^T,
    reads G once and every other pass is in place: the step is bound by
    reading G (8 m r bytes in float64).  Otherwise :func:`_add_column`.
    ``clamp=False``: d <- d - g^2 as printed (the pivot's residue and the
    negatives kept).  ``low``: a one-element list that receives min(d) before the clamp.
    """
    if not p.hardware:
        s = _add_column(p, column, panel, cols, r, j, d, done)
        if low is not None:
            low[0] = float(min(d))
        if clamp:
            zero = p.scalar(0)
            d[j] = zero  # exact zero at a pivot (removes rounding residue)
            d[d < zero] = zero  # clamp rounding below 0
        return s
    G = panel.G
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
    if low is not None:
        low[0] = float(d.min())
    if clamp:
        d[j] = 0
        np.maximum(d, 0, out=d)
    return s


class _ArrayState:
    """The greedy pivoted Cholesky's state as NumPy arrays: G (m x rank, column-major), the
    residual diagonal d and the kept kernel columns; steps by :func:`_greedy_step`."""

    formation = "differences"

    def __init__(self, p, X, kernel, d, rank, *, keep_columns, clamp):
        m = X.shape[0]
        self.p, self.d, self.clamp = p, d, clamp
        # Column-major, so that a pivot's update reads G[:, :r] contiguously.  np.zeros maps zero pages
        # lazily: the columns that are never reached cost no memory traffic.
        self.G = np.zeros((m, rank), dtype=p.dtype, order="F") if p.hardware else np.asfortranarray(p.zeros((m, rank)))
        self.panel = _panel(p, self.G)   # mpN without the kept state: columns kept in FLINT as written
        self.cols = p.zeros((m, rank)) if keep_columns else None
        self.column = _KernelColumns(p, X, kernel)
        # not the built-in RBF (PSD, columns exp(-D / s) <= 1): watch the residual for negative pivots
        self.low = None if getattr(kernel, "name", None) == "rbf" else [0.0]

    def residuals(self):
        d = self.d
        return np.array([float(v) for v in d]) if d.dtype == object else d

    def positive(self, j):
        return bool(self.d[j] > 0)

    def trace(self):
        return float(np.sum(self.d))

    def step(self, r, j, done):
        return float(_greedy_step(self.p, self.column, self.panel, self.cols, r, j, self.d, done, self.clamp,
                                  self.low))

    def lowest(self):
        """min of the residual diagonal before the last clamp (None: not watched, the built-in RBF)."""
        return None if self.low is None else self.low[0]

    def result(self, r):
        """(G[:, :r], the kept columns, the count of d_i < 0)."""
        p, cols, rank = self.p, self.cols, self.G.shape[1]
        # G[:, :r] of a column-major G is contiguous: a view, no copy of m r numbers.
        cols = p.zeros((self.G.shape[0], 0)) if cols is None else (cols if r == rank else cols[:, :r].copy())
        return self.G[:, :r], cols, int(np.count_nonzero(self.d < p.scalar(0)))


class _ArrayPanel:
    """G (an array of the precision) for a recurrence that writes its columns one by one and
    multiplies by its leading ones: ``.set(r, g)`` is ``G[:, r] = g``, ``.times_row(r, j)`` is
    ``p.matmul(G[:, :r], G[j, :r])``."""

    def __init__(self, G, p):
        self.G, self.p = G, p

    def set(self, r, g):
        self.G[:, r] = g

    def times_row(self, r, j):
        return self.p.matmul(self.G[:, :r], self.G[j, :r])


def _panel(p, G):
    """G for the outer-product recurrences: mpN on FLINT keeps each column in FLINT as it is
    written (:class:`~lssvm_analysis.linalg._cholesky_flint.Panel`, no column converted again by
    a product); the other precisions read G itself."""
    return Panel(G, prec=p.ctx.prec, ctx=p.ctx) if p.engine == "flint" else _ArrayPanel(G, p)


def _state(p, X, kernel, d, rank, *, keep_columns, clamp):
    """The precision's engine state for an RBF kernel (``_cholesky_flint.PivotedRBF``: mpN on FLINT,
    its columns those of the default "gemm" formation, exact distances), else :class:`_ArrayState`
    (the differences formation)."""
    if getattr(kernel, "name", None) == "rbf" and p.engine == "flint":
        st = PivotedRBF(p.asarray(X), p.scalar(kernel.params.get("sigma2", 1.0)), rank, clamp=clamp,
                        keep_columns=keep_columns, prec=p.ctx.prec, ctx=p.ctx)
        st.formation = "gemm"
        # validates X and the kernel parameters in the precision once, as _KernelColumns does
        dataclasses.replace(kernel, formation=st.formation)(X, X[:1], precision=p)
        return st
    return _ArrayState(p, X, kernel, d, rank, keep_columns=keep_columns, clamp=clamp)


def thresholded_cholesky(X: ArrayLike, kernel: Kernel, eta: float, *,
                         precision: str | Precision = "float64") -> CholeskySelection:
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
    THRESHOLDED_PEAK.ensure(m, p, what="thresholded Cholesky (factor and kernel columns)")
    G = p.zeros((m, m))
    panel = _panel(p, G)
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
        _add_column(p, column, panel, cols, len(keep), j, d, keep)
        keep.append(j)
    r = len(keep)
    return CholeskySelection(np.array(keep, dtype=np.intp), G[:, :r].copy(), cols[:, :r].copy(), roots)


def pivoted_cholesky(X: ArrayLike, kernel: Kernel, *, rank: int | None = None, trace_tol: float = 0.0,
                     relative: bool = False, keep_columns: bool = True, clamp: bool = True,
                     precision: str | Precision = "float64") -> CholeskySelection:
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
    clamp : bool
        Clamp the residual diagonal at 0 after each update, with an exact 0
        at each pivot (default).  False: ``d <- d - g^2`` as Chen & Zhou print
        it: the pivots keep their rounding residue (they are excluded from
        the argmax, "the remaining points"), entries may go negative, and the
        trace test sums them with their signs (residual-diagonal
        cancellation, SEED_NOTES §3.6).
    precision : str or Precision

    Raises
    ------
    CholeskyBreakdownError
        A kernel other than the built-in RBF whose residual diagonal falls below
        -:func:`negative_pivot_tolerance` after a step (the kernel is not positive
        semi-definite on X: no rounding explains it); ``record.step`` is the step
        whose pivot would be negative, ``record.pivot`` the residual.
    ValueError, TypeError
        Bad X, rank, trace_tol or flags; a kernel callable that is not symmetric
        on the first :data:`SYMMETRY_SAMPLE` rows of X.

    Notes
    -----
    Cost O(m r^2); only the diagonal and the r selected kernel columns are
    computed.  For an RBF kernel in a precision whose engine keeps the state
    (``_cholesky_flint.PivotedRBF``: mpN on FLINT) the steps run there, G and d
    never converted to mpf until the end; the loop, the pivot rule and the
    stop rules are this function's for every precision.  ``trace_history[i]`` is trace(K - G_i G_i^T) after i+1 pivots,
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
        raise TypeError(f"expected a real number trace_tol >= 0, got trace_tol={short_repr(trace_tol)}")
    if not (np.isfinite(float(trace_tol)) and trace_tol >= 0):
        raise ValueError(f"expected a finite trace_tol >= 0, got trace_tol={short_repr(trace_tol)}")
    relative = check_bool("relative", relative)
    keep_columns = check_bool("keep_columns", keep_columns)
    clamp = check_bool("clamp", clamp)
    p, X, m, d, kernel = _setup(X, kernel, precision)
    rank = m if rank is None else check_int("rank", rank, minimum=1)
    rank = min(rank, m)
    PIVOTED_PEAKS[bool(keep_columns)].ensure(m, p, r=rank, what="pivoted Cholesky")
    tol = float(trace_tol) * (float(np.sum(d)) if relative else 1.0)
    if float(np.sum(d)) <= tol:  # the stop would fire before the first pivot: nothing is selected
        raise ValueError(f"expected trace_tol below {'1 (relative)' if relative else 'trace(K)'}: "
                         f"trace(K) = {float(np.sum(d)):.6g}, got trace_tol={short_repr(trace_tol)}, "
                         f"which selects no pivot")
    st = _state(p, X, kernel, d, rank, keep_columns=keep_columns, clamp=clamp)
    piv, roots, trace = [], [], []
    reason = "exhausted" if rank == m else "rank"
    tr = st.trace()
    neg_tol = negative_pivot_tolerance(m, p.unit_roundoff, float(np.max(np.abs(st.residuals()))))
    for r in range(rank):
        if tr <= tol:
            reason = "trace_tol"
            break
        # Clamped, pivots hold an exact 0, so the argmax is a pivot only when no residual is > 0;
        # unclamped, they hold their rounding residue and are masked out.
        dv = st.residuals()
        if not clamp and piv:
            dv = dv.copy()
            dv[piv] = -np.inf
        j = int(np.argmax(dv))
        if not st.positive(j):
            reason = "nonpositive-pivot"
            break
        roots.append(st.step(r, j, piv))
        low = getattr(st, "lowest", lambda: None)()
        if low is not None and low < -neg_tol:  # before the trace test: a clamp hid this as "trace_tol"
            raise CholeskyBreakdownError(CholeskyBreakdown(step=r + 1, pivot=low, n=m, precision=p.name))
        piv.append(j)
        tr = st.trace()
        trace.append(tr)
    G, cols, negative = st.result(len(piv))
    return CholeskySelection(np.array(piv, dtype=np.intp), G, cols, np.array(roots), np.array(trace),
                             reason, negative, st.formation)
