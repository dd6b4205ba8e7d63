"""The factorizations of mpN on FLINT: blocked Cholesky with its breakdown record, triangular and LU
solves, symmetric eigenvalues and eigenvectors (with Householder's Q), each on midpoints at the
precision's bits (:mod:`.flint_engine` describes the engine and its conversions)."""
from __future__ import annotations

import flint
import numpy as np
from flint import acb_mat, arb, arb_mat

from ._libflint import LIB, Window, address, slong_array
from .flint_engine import BLOCK, as_arb, objects, no_gc, register_twin, to_arb_mat, to_objects, transposed
from ..core.exceptions import CholeskyBreakdownError, LUBreakdownError
from ..core.records import CholeskyBreakdown, LUBreakdown

__all__ = ['cholesky', 'DiagonalFactorizer', 'solve_triangular', 'lu_factor', 'lu_solve', 'eigvalsh', 'householder_q', 'householder_inplace', 'eigh']


def cholesky(A: np.ndarray, *, prec: int, ctx, name: str, zero) -> np.ndarray:
    """Lower Cholesky factor of the symmetric object array A (its lower triangle is read).

    Returns a read-only object array with its FLINT form registered (:func:`twin`).
    Raises CholeskyBreakdownError (step, midpoint pivot, n, name) at the first
    pivot a_kk - ||l_k||^2 that is <= 0 or not finite in ``prec``-bit arithmetic.
    """
    n = A.shape[0]
    M = to_arb_mat(A, lower=True)
    try:
        _cholesky_inplace(M, n, prec, name)
    except CholeskyBreakdownError as err:
        r = err.record
        raise CholeskyBreakdownError(CholeskyBreakdown(r.step, r.pivot, n, r.precision)) from None
    return register_twin(to_objects(M, ctx, lower=True, zero=zero), M)


class DiagonalFactorizer:
    """Cholesky factorizations of matrices that differ from G only on the diagonal (a ridge path).

    G's lower triangle is converted to ``arb_mat`` once; each call copies it
    (in C), writes A's diagonal (n conversions) and runs the factorization of
    :func:`cholesky` in place, returning its breakdown record or None.  The
    factor is not converted back (2/3 of a call's cost at n = 200): the call
    answers whether, and where, :func:`cholesky` of A breaks down, with the
    same numbers in the same routine, so the same step and pivot.
    """

    def __init__(self, G: np.ndarray, *, prec: int, name: str):
        self.n, self.prec, self.name = G.shape[0], prec, name
        self.M = to_arb_mat(G, lower=True)

    def __call__(self, A: np.ndarray):
        """The breakdown record of ``cholesky(A)`` (or None); A's strict lower triangle is G's."""
        n = self.n
        W = arb_mat(n, n)
        LIB.arb_mat_set(address(W), address(self.M))
        d = to_arb_mat(np.diagonal(A)).entries()
        for i in range(n):
            W[i, i] = d[i]
        try:
            _cholesky_inplace(W, n, self.prec, self.name)
        except CholeskyBreakdownError as err:
            r = err.record
            return CholeskyBreakdown(r.step, r.pivot, n, r.precision)
        return None


#: Order of the diagonal blocks factored by the scalar recurrence (inside blocks of BLOCK).
BASE = 16


def _cholesky_inplace(M, n, prec, name, block=BLOCK, *, offset=0):
    """Right-looking blocked Cholesky on the lower triangle of M (an arb_mat or a window address).

    Only midpoint arithmetic is used: ``arb_mat_approx_*`` and the scalar
    recurrence on exact midpoints.  (Ball routines such as ``arb_mat_cho`` lower
    the precision of a midpoint once its ball is wide: their midpoints are not
    the ``prec``-bit floating-point factor; measured backward error 4e16 n u at
    kappa = 1e10, n = 120.)  Diagonal blocks are factored by the same routine
    with blocks of BASE, and those by :func:`_scalar_cholesky`.
    """
    ptr = M if isinstance(M, int) else address(M)
    if n <= BASE:
        _scalar_cholesky(ptr, n, offset, prec, name)
        return
    for k0 in range(0, n, block):
        k1 = min(n, k0 + block)
        b = k1 - k0
        with Window(ptr, k0, k0, k1, k1) as Akk:
            _cholesky_inplace(Akk, b, prec, name, BASE, offset=offset + k0)
            Lkk = arb_mat(b, b)
            LIB.arb_mat_set(address(Lkk), Akk)
        if k1 == n:
            return
        with Window(ptr, k0, k1, k1, n) as U:   # the factor's strict upper triangle is 0
            LIB.arb_mat_zero(U)
        X = arb_mat(b, n - k1)   # L_panel^T = Lkk^{-1} A_panel^T
        with Window(ptr, k1, k0, n, k1) as P:
            PT = arb_mat(b, n - k1)
            LIB.arb_mat_transpose(address(PT), P)
            LIB.arb_mat_approx_solve_tril(address(X), address(Lkk), address(PT), 0, prec)
            LIB.arb_mat_transpose(P, address(X))
        for j0 in range(k1, n, block):   # A[j0:, j0:j1] -= L[j0:, k0:k1] L[j0:j1, k0:k1]^T
            j1 = min(n, j0 + block)
            T = arb_mat(n - j0, j1 - j0)
            with Window(ptr, j0, k0, n, k1) as Lrows, Window(X, 0, j0 - k1, b, j1 - k1) as Lt, \
                    Window(ptr, j0, j0, n, j1) as Aj:
                LIB.arb_mat_approx_mul(address(T), Lrows, Lt, prec)
                LIB.arb_mat_sub(Aj, Aj, address(T), prec)
                LIB.arb_mat_get_mid(Aj, Aj)


def _scalar_cholesky(ptr, b, offset, prec, name):
    """The jik recurrence on midpoints of the b x b matrix at ``ptr``, written back in place
    (its strict upper triangle set to 0).

    Each operation is one ``prec``-bit rounding of exact midpoints; the first
    pivot a_jj - ||l_j||^2 that is <= 0 or not finite raises the breakdown at
    global step offset + j (n of the record filled in by :func:`cholesky`).
    """
    A = arb_mat(b, b)
    LIB.arb_mat_set(address(A), ptr)
    ent = A.entries()
    L = [[arb(0)] * b for _ in range(b)]
    with flint.ctx.workprec(prec):
        for j in range(b):
            d = ent[j * b + j]
            for t in range(j):
                d = (d - (L[j][t] * L[j][t]).mid()).mid()
            if not (d > 0 and d.is_finite()):
                raise CholeskyBreakdownError(CholeskyBreakdown(offset + j, float(d.mid()), -1, name))
            r = d.sqrt().mid()
            L[j][j] = r
            for i in range(j + 1, b):
                s = ent[i * b + j]
                for t in range(j):
                    s = (s - (L[i][t] * L[j][t]).mid()).mid()
                L[i][j] = (s / r).mid()
    out = arb_mat(L)   # referenced while its address is used
    LIB.arb_mat_set(ptr, address(out))


def solve_triangular(T, b, *, lower: bool, trans: bool, unit: bool = False, prec: int, ctx) -> np.ndarray:
    """op(T) x = b by substitution on midpoints (``arb_mat_approx_solve_tril`` / ``_triu``)."""
    MT = as_arb(T)
    if trans:
        MT, lower = transposed(T, MT), not lower
    B = to_arb_mat(b)
    X = arb_mat(B.nrows(), B.ncols())
    solve = LIB.arb_mat_approx_solve_tril if lower else LIB.arb_mat_approx_solve_triu
    solve(address(X), address(MT), address(B), int(unit), prec)
    return to_objects(X, ctx, shape=np.shape(b))


def lu_factor(A: np.ndarray, *, prec: int, ctx, name: str):
    """(packed LU object array, perm) with A[perm] = L U (L unit lower), by ``arb_mat_approx_lu``.

    The packed array is read-only with its FLINT form registered.  Raises
    LUBreakdownError at the first zero or non-finite pivot u_kk (midpoint).
    """
    n = A.shape[0]
    MA = to_arb_mat(A)
    LU = arb_mat(n, n)
    perm = slong_array(n)
    ok = LIB.arb_mat_approx_lu(perm, address(LU), address(MA), prec)
    diag = [LU[k, k] for k in range(n)]
    bad = next((k for k, d in enumerate(diag) if d.is_zero() or not d.is_finite()), None)
    if not ok or bad is not None:
        k = bad if bad is not None else n - 1
        raise LUBreakdownError(LUBreakdown(k, float(diag[k].mid()) if diag[k].is_finite() else float("nan"),
                                           n, name))
    packed = register_twin(to_objects(LU, ctx), LU)
    return packed, np.frombuffer(perm, dtype=np.int64).copy()


def lu_solve(LU: np.ndarray, perm: np.ndarray, b, *, trans: bool = False, prec: int, ctx) -> np.ndarray:
    """x with A x = b (or A^T x = b) from :func:`lu_factor`'s factors."""
    b = np.asarray(b)
    if trans:  # A^T = U^T L^T P: U^T w = b, L^T v = w, x = P^T v
        w = solve_triangular(LU, b, lower=False, trans=True, prec=prec, ctx=ctx)
        v = solve_triangular(LU, w, lower=True, trans=True, unit=True, prec=prec, ctx=ctx)
        x = np.empty_like(v)
        x[perm] = v
        return x
    y = solve_triangular(LU, b[perm], lower=True, trans=False, unit=True, prec=prec, ctx=ctx)
    return solve_triangular(LU, y, lower=False, trans=False, prec=prec, ctx=ctx)


def eigvalsh(A: np.ndarray, *, prec: int, ctx) -> np.ndarray | None:
    """Eigenvalues of the symmetric object array A, ascending, by FLINT's QR algorithm on
    midpoints (``acb_mat_approx_eig_qr``: Hessenberg reduction, shifted QR), real parts kept.

    The QR algorithm is backward stable: the computed eigenvalues are those of
    A + E with ||E||_2 <= c n^2 u ||A||_2, and since A is symmetric (orthonormal
    eigenvectors, Bauer-Fike with condition 1) each moves by at most ||E||_2,
    as in mpmath's ``eigsy``; the imaginary parts are that rounding.  None when
    FLINT returns a non-finite value (the caller falls back to mpmath).
    """
    M = to_arb_mat(A)
    with flint.ctx.workprec(prec):
        ev = acb_mat(M).eig(algorithm="approx")
    re = [e.real.mid() for e in ev]
    if not all(v.is_finite() for v in re):
        return None
    with no_gc():
        vals = objects(ctx, re)
    return np.array(sorted(vals), dtype=object)


def _reflect(ptr, k, r1, c0, c1, V, Vb, prec):
    """Rows k:r1, columns c0:c1 of the matrix at ``ptr`` <- (I - Vb V^T) times them, on midpoints
    (V, Vb: (r1 - k) x 1 arb_mat, Vb = beta V): one ``arb_mat_approx_mul`` for V^T A, one for the
    rank-1 product, one subtraction."""
    if c1 <= c0:
        return
    W = arb_mat(1, c1 - c0)
    T = arb_mat(r1 - k, c1 - c0)
    Vt = arb_mat(1, r1 - k)
    LIB.arb_mat_transpose(address(Vt), address(V))
    with Window(ptr, k, c0, r1, c1) as Ak:
        LIB.arb_mat_approx_mul(address(W), address(Vt), Ak, prec)
        LIB.arb_mat_approx_mul(address(T), address(Vb), address(W), prec)
        LIB.arb_mat_sub(Ak, Ak, address(T), prec)
        LIB.arb_mat_get_mid(Ak, Ak)


def householder_q(M: arb_mat, prec: int) -> arb_mat:
    """The orthogonal factor Q (m x n) of M = Q R (m >= n) by Householder reflections on midpoints.

    Golub & Van Loan Alg. 5.1.1 / 5.2.1: column k is sent to -sign(a_kk) ||a|| e_k (no cancellation
    in v_0 = a_0 - alpha); a zero column is skipped (its reflection is the identity).  The
    reflections' rank-1 updates are ``arb_mat_approx_mul`` products on windows of one matrix;
    Q = H_0 ... H_{n-1} I[:, :n] is accumulated backwards.  Q is orthonormal to working precision
    whatever the rank of M (Higham, *Accuracy and Stability*, Lemma 19.3, Thm 19.4:
    ||Q^T Q - I|| <= c m n u): a numerically dependent column gets an orthonormal complement.
    """
    m, n = M.nrows(), M.ncols()
    A = arb_mat(m, n)
    LIB.arb_mat_set(address(A), address(M))
    LIB.arb_mat_get_mid(address(A), address(A))
    refl = householder_inplace(A, prec)
    Q = arb_mat(m, n)
    for i in range(n):
        Q[i, i] = arb(1)
    for k in reversed(range(n)):
        if refl[k] is not None:
            _reflect(address(Q), k, m, k, n, *refl[k], prec)
    return Q


def householder_inplace(A: arb_mat, prec: int, B: arb_mat | None = None) -> list:
    """Reduce A (m x n, midpoints) to R in place by Householder reflections, applying each to B
    too; returns the reflections [(V, beta V) or None for a zero column] (GVL Alg. 5.2.1)."""
    m, n = A.nrows(), A.ncols()
    refl = []
    with flint.ctx.workprec(prec):
        two = arb(2)
        for k in range(n):
            col = [A[i, k] for i in range(k, m)]
            alpha = sum((x * x for x in col), arb(0)).mid().sqrt().mid()
            if not alpha > 0:
                refl.append(None)
                continue
            if col[0] > 0:
                alpha = -alpha
            col[0] = (col[0] - alpha).mid()
            beta = (two / sum((x * x for x in col), arb(0)).mid()).mid()
            V = arb_mat(m - k, 1, col)
            Vb = arb_mat(m - k, 1, [(beta * x).mid() for x in col])
            _reflect(address(A), k, m, k, n, V, Vb, prec)
            if B is not None:
                _reflect(address(B), k, m, 0, B.ncols(), V, Vb, prec)
            refl.append((V, Vb))
    return refl


def eigh(A: np.ndarray, *, prec: int, ctx):
    """(w ascending, U) with A U ~ U diag(w), U orthonormal, for the symmetric object array A; None
    when FLINT's QR algorithm returns a non-finite value (the caller falls back to mpmath).

    1. Eigenvalues and right eigenvectors by ``acb_mat_approx_eig_qr`` (Hessenberg reduction,
       shifted QR, vectors from the Schur form), on midpoints at ``prec`` bits.  For a symmetric
       A the vector of an eigenvalue at distance ``gap`` from the others is accurate to an angle
       ~ u ||A|| / gap; inside a cluster of width ~ u ||A|| (the numerically null space of a
       kernel matrix) the vectors are not determined and come out nearly parallel.
    2. Their real parts, ordered by |lambda| descending, are orthonormalised by Householder
       (:func:`householder_q`): Q is orthonormal to working precision whatever their rank, its
       first columns are the well separated vectors (moved by their non-orthogonality, an angle
       ~ u ||A|| / gap), the last ones complete the basis on the cluster's invariant subspace.
       Mixing two vectors by an angle theta ~ u ||A|| / gap makes an off-diagonal entry of
       Q^T A Q of ~ theta gap = u ||A||: the decomposition stays backward stable.
    3. w_j = q_j^T A q_j (Rayleigh quotients), so A - U diag(w) U^T is the off-diagonal part of
       Q^T A Q, O(n u ||A||).  mpmath's ``eigsy`` (Jacobi-free tridiagonal QL) gives the same
       bounds at ~10x the cost (n = 60, 50 digits: 0.25 against 2.6 CPU-s).
    """
    n = A.shape[0]
    M = to_arb_mat(A)
    with flint.ctx.workprec(prec):
        E, R = acb_mat(M).eig(right=True, algorithm="approx")
    lam = [e.real.mid() for e in E]
    if not all(v.is_finite() for v in lam) or not all(R[i, j].real.is_finite()
                                                      for i in range(n) for j in range(n)):
        return None
    order = sorted(range(n), key=lambda j: -abs(float(lam[j])))
    Rr = arb_mat(n, n, [R[i, j].real.mid() for i in range(n) for j in order])
    Q = householder_q(Rr, prec)
    AQ = arb_mat(n, n)
    LIB.arb_mat_approx_mul(address(AQ), address(M), address(Q), prec)
    with flint.ctx.workprec(prec):
        ent_q, ent_aq = Q.entries(), AQ.entries()
        w = [sum((ent_q[i * n + j] * ent_aq[i * n + j] for i in range(n)), arb(0)).mid() for j in range(n)]
    asc = sorted(range(n), key=lambda j: w[j])
    with no_gc():
        vals = objects(ctx, [w[j] for j in asc])
        P = arb_mat(n, n, [ent_q[i * n + j] for i in range(n) for j in asc])
    return np.array(vals, dtype=object), to_objects(P, ctx)
