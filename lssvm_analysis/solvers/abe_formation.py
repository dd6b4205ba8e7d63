"""Abe's empirical feature space: the selection, the feature map and the systems of els-primal and els-dual.

The steps :mod:`.abe`'s solvers, its conformance builders and its ridge path
(:class:`~lssvm_analysis.solvers.abe.ElsPath`) share: the inputs checked
once (:func:`validate_els`), the thresholded-Cholesky selection of the
support vectors and the map h(x) (:func:`embed`, memoised per data and
kernel), the primal system (6)-(7) (:func:`primal_system`, as one GEMM or as
Abe describes it) and the dual matrix Omega_e of (9)-(11)
(:func:`dual_matrix`, :func:`dual_solve`).  S. Abe, Sparse least squares
support vector training in the reduced empirical feature space, Pattern
Anal. Appl. 10 (2007).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..core.validation import check_open_interval
from ..linalg.incomplete_cholesky import thresholded_cholesky
from ..linalg.kernels import active_memo
from ..core.memo import array_key
from .kkt import add_ridge_symmetric, eliminate, two_solve
from ._common import check_choice, validate_xy
from ._registry import variant

__all__ = ["FEATURE_MAPS", "FORMATIONS", "FORMATION_VARIANTS", "validate_els", "embed_key", "embed",
           "els_coef", "primal_parts", "primal_system", "factor_facts", "base_diagnostics", "els_params",
           "dual_gram", "dual_matrix", "dual_solve"]

FEATURE_MAPS = ("kernel", "whitened")

FORMATION_VARIANTS = (
    variant("formation", "blas3", "the N x N matrix of (7) as one GEMM on the centred H_m"),
    variant("formation", "as-described", "(7) accumulated from the outer products h(x_i) h(x_i)^T "
            "as Abe describes it", literal=True),
)
#: The formations of (7), the values of els-primal's variant keyword ``formation``.
FORMATIONS = tuple(v.value for v in FORMATION_VARIANTS)


# --------------------------------------------------------------------------- #
# validation and the empirical feature map
# --------------------------------------------------------------------------- #
def validate_els(X, y, *, precision, C, kernel, sigma2, degree, t, eta, feature_map, formation=None):
    X, y, k, p = validate_xy(X, y, task="regression", C=C, kernel=kernel, sigma2=sigma2,
                             degree=degree, t=t, precision=precision)
    check_open_interval("eta", eta, 0.0, 1.0)
    check_choice("feature_map", feature_map, FEATURE_MAPS)
    if formation is not None:
        check_choice("formation", formation, FORMATIONS)
    return X, y, k, p


def _block_memo(key, compute, copy):
    """``compute()``, kept in the enclosing :func:`~lssvm_analysis.linalg.kernels.kernel_memo` block
    under ``key`` (copied in and out) when a block is open and ``key`` is not None.

    The fit kind runs a fit and its system builder (``abe._rebuild``) in one block (mp
    precisions): the builder repeats the fit's selection and formation on the same inputs and
    gets the fit's results, bit for bit (an mp50 selection and formation of (7) at M = 60 is
    ~0.1 CPU-s).  Outside a block (benchmarks, users) everything is computed."""
    memo = active_memo()
    if memo is None or key is None:
        return compute()
    return memo.get(key, compute, copy=copy)


def embed_key(X, k, eta, p, feature_map):
    """The exact key of :func:`embed`'s result (None when X is not a numeric array)."""
    kx = array_key(np.asarray(X))
    return None if kx is None else ("abe-embed", repr(k), float(eta), p.name, feature_map, kx)


def _copies(values):
    """A tuple of arrays (and other immutable values) with each array copied."""
    return tuple(v.copy() if isinstance(v, np.ndarray) else v for v in values)


def _copy_embedding(pair):
    sel, H = pair
    return replace(sel, G=sel.G.copy(), columns=sel.columns.copy()), H.copy()


def embed(X, k, eta, p, feature_map, timer, peak, what):
    """Select the support vectors and map the training data: (selection, H_m in p).

    ``peak`` (the solver's registered PeakMemory, r = N selected columns) is
    checked first with r = 0: the M^2 part, which every selection holds.  The
    N-dependent part is allocated when the selection copies its N kept columns,
    before N is known to anyone; both fits check it with the selected N before
    they form their systems."""
    peak.ensure(X.shape[0], p, r=0, what=what)
    return _block_memo(embed_key(X, k, eta, p, feature_map),
                       lambda: _select(X, k, eta, p, feature_map, timer), _copy_embedding)


def _select(X, k, eta, p, feature_map, timer):
    with timer("selection"):
        sel = thresholded_cholesky(X, k, eta, precision=p)
    if len(sel.indices) == 0:
        raise ValueError(f"expected at least one pivot root >= eta, got none: max pivot root "
                         f"{float(np.max(sel.pivots)):.3g} < eta={eta!r}")
    with timer("kernel"):
        # kernel map: the columns K[:, S] computed during selection (eq. 2);
        # whitened map: rows of G = forward substitutions L^-1 h(x_i).
        H = sel.columns if feature_map == "kernel" else sel.G
    return sel, H


def els_coef(v, L, feature_map, p):
    """Coefficients on the support vectors' kernel columns: v, or L^-T v~ (whitened)."""
    if feature_map == "kernel":
        return v
    return p.solve_triangular(L, v, lower=True, trans=True)


# --------------------------------------------------------------------------- #
# primal: eq. (6)-(7)
# --------------------------------------------------------------------------- #
def _primal_blas3(H, y, p):
    """Centred formation: (H_c^T H_c, H_c^T (y - y_bar), h_bar, y_bar)."""
    M = H.shape[0]
    h_bar = H.sum(axis=0) / p.scalar(M)
    y_bar = y.sum() / p.scalar(M)
    Hc = H - h_bar
    A = p.matmul(Hc.T, Hc)   # the same BLAS call as Hc.T @ Hc for float32/64; FLINT for mpN
    rhs = p.matmul(Hc.T, y - y_bar)
    return A, rhs, h_bar, y_bar


def _primal_as_described(H, y, p):
    """Abe's recipe: sum of M outer products h_i h_i^T minus (1/M)(sum h)(sum h)^T."""
    M, N = H.shape
    A = p.rank_one_sum(H)   # deliberately a loop of rank-one updates, as described in §2.4
    s = p.zeros(N)
    r = p.zeros(N)
    for i in range(M):
        h = H[i]
        s += h
        r += y[i] * h
    m = p.scalar(M)
    A -= np.outer(s, s) / m
    rhs = r - (y.sum() / m) * s
    return A, rhs, s / m, y.sum() / m


def primal_parts(H, y, p, formation):
    """(7) without its ridge: (the matrix at C = infinity, rhs, h_bar, y_bar)."""
    build = _primal_blas3 if formation == "blas3" else _primal_as_described
    return build(H, p.asarray(y), p)


def primal_system(H, y, C, p, formation, key=None):
    """Matrix and right-hand side of eq. (7), plus h_bar and y_bar for b_e (6); kept in the
    enclosing kernel memo block under ``key`` (:func:`embed_key` of H) with y, C, formation."""
    ky = array_key(np.asarray(y))

    def form():
        A, rhs, h_bar, y_bar = primal_parts(H, y, p, formation)
        return add_ridge_symmetric(A, C, p), rhs, h_bar, y_bar

    return _block_memo(None if key is None or ky is None else (*key, "primal", formation, repr(C), ky),
                       form, _copies)


def factor_facts(L):
    d = np.array([abs(float(v)) for v in np.diag(L)])
    return {"factor_diag_min": float(d.min()), "factor_diag_max": float(d.max()),
            # (max l_ii / min l_ii)^2 <= cond_2(A): a free lower bound
            "cond_lower_bound": float((d.max() / d.min()) ** 2)}


def base_diagnostics(sel, M, n):
    roots = np.array(sel.pivots, dtype=np.float64)
    roots.flags.writeable = False
    kept = roots[sel.indices]
    return {"N": int(len(sel.indices)), "M": int(M), "pivot_roots": roots,
            "min_kept_root": float(kept.min()), "system_order": int(n)}


def els_params(C, k, eta, feature_map, formation=None):
    out = {"C": C, "kernel": k.name, **dict(k.params), "eta": eta, "feature_map": feature_map}
    if formation is not None:
        out["formation"] = formation
    return out


# --------------------------------------------------------------------------- #
# dual: eq. (9)-(11)
# --------------------------------------------------------------------------- #
def dual_gram(H, p):
    """H_m H_m^T, Omega_e at C = infinity (its triangles may differ by rounding)."""
    return p.matmul(H, H.T)


def dual_matrix(H, C, p, key=None):
    """Omega_e = H_m H_m^T + I/C (eq. 11), exactly symmetric; kept in the enclosing kernel memo
    block under ``key`` (:func:`embed_key` of H) with C."""
    return _block_memo(None if key is None else (*key, "dual", repr(C)),
                       lambda: add_ridge_symmetric(dual_gram(H, p), C, p), np.copy)


def dual_solve(L, H, y, p):
    """b_e and beta from eq. (10) with one two-column Cholesky solve; v = H^T beta (9)."""
    ones, yp = p.asarray(np.ones(H.shape[0])), p.asarray(np.asarray(y, dtype=np.float64))
    nu, eta = two_solve(L, yp, ones, p)  # y first: the column order of the solve this solver has always run
    beta, b, _ = eliminate(eta, nu)  # the all-ones border, summed by np.sum
    return b, beta, p.matmul(H.T, beta)   # H.T @ beta for float32/64/longdouble; FLINT for mpN


