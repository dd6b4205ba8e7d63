"""Rigorous bounds on ||A^-1|| from a float64 factorization (the certificates of ``reference_solve``).

Each certificate gives ``bound`` >= ||A^-1||_p (p = inf or 2), an inf-norm
bound for the record, and the correction operator the refinement uses with
it.  u = 2^-53, gamma_k = k u / (1 - k u); A64 is the float64 rounding of A
(|A - A64| <= u/(1-u) |A64|) and A = A64 when the data are float64.  Every
bound assumes IEEE binary64 with round-to-nearest and a BLAS/LAPACK that
forms inner products by ordinary multiplications, additions and FMAs in any
order (OpenBLAS, MKL, BLIS; not Strassen-type algorithms).

Product certificates
    For any matrix R, if ||I - R A||_inf <= delta < 1 then R A is invertible,
    A^-1 = (R A)^-1 R and ||A^-1||_inf <= ||R||_inf / (1 - delta)  (Rump,
    Acta Numerica 2010, Thm 10.2).  R = A64^-1 from LAPACK (potri/getri).

    ``float64-product``: with C = fl(R A64), |C - R A64| <= gamma_n |R||A64|
    (Higham, *Accuracy and Stability*, 2nd ed., eq. 3.13), and |R (A - A64)|
    <= u/(1-u) |R||A64|, so

        ||I - R A|| <= max_i [ s1_i / ((1-u)(1-g)) + (g + u/(1-u)) t_i / (1-g)^2 ] + slack

    with s1 = fl(rowsum |fl(I - C)|), t = fl(|R| fl(rowsum |A64|)), g = gamma_n,
    slack (n+1)^2 2^-1070 (1 + ||R||) for gradual underflow.  Certifies while
    about n u kappa < 1.

    ``ozaki-product``: R A computed with exact float64 products (Ozaki
    splitting, :func:`lssvm_analysis.exact.ozaki.inverse_defect`): the pairs of
    slices R_s A_t with s + t <= 3 are exact, the tails R_1 A_{>2} + R_2 A_{>1}
    + R_{>2} A are float64 products bounded by gamma_n |L||M|, and E = I - sum
    P_k is accumulated by TwoSum, so that

        ||I - R A|| <= max_i [ (1+2u) rowsum|E|_i + gamma_m rowsum(sum_k |e_k|)_i
                               + gamma_n sum_tails (|L| (|M| 1))_i ]

    which is ||I - R A|| to about 2^-40 kappa n u: certifies while the true
    defect is < 1 (kappa up to ~1/u for a backward-stable R).

    ``ozaki-product-2``: the two-term inverse (I + E) R (Rump 2010, sec. 10.3,
    the inverse R + R_2 with R_2 = E R), for ||E|| >= 1 > ||E^2||.  With E~ the
    computed E and ||E - E~|| <= eps (the error terms above),

        ||E^2|| <= ||fl(E~ E~)|| + gamma_n || |E~||E~| || + eps (||E|| + ||E~||) =: delta_2,
        ||(I + E) R|| <= (1 + u) ||fl(R + fl(E~ R))|| + gamma_n || |E~||R| || + eps ||R||,

    and if delta_2 < 1: (I + E)(I - E) = I - E^2 is invertible, hence R A = I
    - E is, A^-1 = (I - E^2)^-1 (I + E) R and ||A^-1|| <= ||(I + E) R|| / (1 -
    delta_2).

Cholesky-shift certificate (SPD A; Rump, BIT 46, 2006, "Verification of
positive definiteness", Thm 2.3; Demmel 1989)
    If LAPACK's Cholesky of T = fl(A64 - sigma I) (sigma >= 0 a float) runs to
    completion, its factor satisfies G^T G = T + dT with |dT| <= gamma_{n+1}
    |G^T||G| (Higham Thm 10.3, any order of the inner products), and
    (|G^T||G|)_ij <= ||g_i|| ||g_j||, ||g_i||^2 <= t_ii / (1 - gamma_{n+1}), so
    ||dT||_2 <= alpha tr(T), alpha = gamma_{n+1} / (1 - gamma_{n+1}).  With the
    rounding of the shifted diagonal |A64 - sigma I - T| <= u/(1-u) diag(T):

        lambda_min(A) >= sigma - alpha tr(T) - u/(1-u) max_i t_ii
                         - ||A - A64||_inf - 4 (n+2)^2 (1 + max_i t_ii) 2^-1074

    (the last term: gradual underflow in the factorization).  If this lower
    bound lam is > 0, A is SPD and ||A^-1||_2 <= 1/lam; the error bound is
    ||x - x*||_inf <= ||x - x*||_2 <= ||r||_2 / lam, and the recorded
    ||A^-1||_inf <= sqrt(n) / lam (an overestimate by up to sqrt(n)).  sigma
    is half an inverse-iteration estimate of lambda_min(A64).  Cost: one more
    Cholesky (n^3/3) instead of the inverse and the product (8/3 n^3), so it
    is used for n >= ``SHIFT_MIN_N``; it certifies while about n u tr(A) <
    lambda_min / 2.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import NamedTuple

import flint
import numpy as np
import scipy.linalg
from flint import arb, arb_mat

from .arb import ExactSystem, float_up
from .ozaki import (SAFE, OutOfRange, U, dot, gamma, inverse_defect, safe, slice_bits,
                           split_rows)
from ..arith.symmetric import mirror_lower

__all__ = ["FLOAT64_MAX_KU", "SHIFT_MIN_N", "Certificate", "abs_row_sums", "cached", "certificate", "factor64",
           "inverse_bound_float64", "inverse_bound_ozaki", "inverse_bound_r", "shift_bound",
           "ARB_START_BITS", "inverse_enclosure_arb", "inverse_norm_bound"]

#: Cholesky-shift certificate from this n on (measured, one core: potri + the n^3 product cost
#: 3.4 s at n = 4000, 0.07 s at n = 1000; the second Cholesky 0.66 s and 0.02 s)
SHIFT_MIN_N = 2048
#: float64-product only while u kappa_inf (estimated) <= this: beyond, fl(R r) gains < 10 bits a
#: step (12 steps at n = 40, kappa 1e13) and the Ozaki certificate's corrections gain ~40
FLOAT64_MAX_KU = 1e-3
ARB_START_BITS = 128     # first precision of the arb-inverse route (reference_solve, condition_number)
_NEUMANN_BITS = 40        # the correction operator aims at a 2^-40 contraction per step


class Certificate(NamedTuple):
    """A rigorous bound on ||A^-1|| and the correction operator that goes with it."""

    name: str             # "float64-product", "ozaki-product", "ozaki-product-2", "cholesky-shift"
    bound: arb            # >= ||A^-1||_p
    norm: float           # p: math.inf or 2
    inf_bound: arb        # >= ||A^-1||_inf
    apply: Callable       # F (n, k) float64 -> approximately A^-1 F
    delta: float = math.nan   # the bound on ||I - R A||_inf of the Ozaki certificates


# ----------------------------------------------------------------------------- factorization
def factor64(s: ExactSystem, spd):
    """(kind, solve, inverse) for the float64 rounding of A, or None if it cannot be factored.

    ``inverse()`` computes R = A64^-1 in the factor's memory (no n x n
    allocation), so ``solve`` must not be called after it.
    """
    A64, lapack = s.A64, scipy.linalg.lapack
    if not np.isfinite(A64).all():
        return None
    if s.symmetric and spd is not False:
        c, info = lapack.dpotrf(A64, lower=1, clean=1)
        if info == 0:
            def inverse():
                R, _ = lapack.dpotri(c, lower=1, overwrite_c=1)
                return mirror_lower(R)

            return ("cholesky", lambda r: lapack.dpotrs(c, r, lower=1)[0], inverse)
    lu, piv, info = lapack.dgetrf(A64)
    if info != 0 or not np.isfinite(lu).all():
        return None
    # R = X^T with A^T X = I (two BLAS-3 solves): 0.10 s at n = 1000 against getri's 0.14 s (0.57 s
    # and 1.2 s at n = 2000).  Solving A^T X = I, not A X = I, makes R a backward-stable *left*
    # inverse: ||I - R A|| is the residual of the solves (A X = I gives a small ||I - A R||
    # instead, and ||I - R A|| = 24 measured on a KKT matrix of condition 1e13, n = 1001).
    return ("lu", lambda r: lapack.dgetrs(lu, piv, r)[0],
            lambda: lapack.dgetrs(lu, piv, np.eye(A64.shape[0]), trans=1, overwrite_b=1)[0].T)


def abs_row_sums(M: np.ndarray, block: int = 256) -> np.ndarray:
    """fl(sum_j |M_ij|) by blocks of rows (no n x n temporary)."""
    return np.concatenate([np.abs(M[i:i + block]).sum(axis=1) for i in range(0, M.shape[0], block)])


# ----------------------------------------------------------------------------- R A
def inverse_bound_float64(A64: np.ndarray, R: np.ndarray, *, block: int = 256):
    """``float64-product``: rigorous upper bound (arb) on ||A^-1||_inf, or None.

    Evaluated by blocks of rows of R (the bound is entrywise, so blocking
    changes nothing); t first, and no product R A64 when t alone gives delta >= 1.
    """
    n = A64.shape[0]
    a_rows = abs_row_sums(A64, block)
    with np.errstate(all="ignore"):
        t = rR = s1 = 0.0
        for i0 in range(0, n, block):
            absR = np.abs(R[i0:i0 + block])
            t = max(t, float((absR @ a_rows).max()))
            rR = max(rR, float(absR.sum(axis=1).max()))
    if not (math.isfinite(t) and math.isfinite(rR)):
        return None
    with flint.ctx.workprec(128):
        u = arb((1, -53))
        g = n * u / (1 - n * u)
        norm_R = arb(rR) / (1 - g)
        slack = arb(((n + 1) ** 2, -1070)) * (1 + norm_R)
        rest = (g + u / (1 - u)) * arb(t) / (1 - g) ** 2 + slack
        if not rest < 1:
            return None
        with np.errstate(all="ignore"):
            for i0 in range(0, n, block):
                E = R[i0:i0 + block] @ A64
                np.negative(E, out=E)
                E[np.arange(E.shape[0]), np.arange(i0, i0 + E.shape[0])] += 1.0
                s1 = max(s1, float(np.abs(E).sum(axis=1).max()))
        if not math.isfinite(s1):
            return None
        delta = (arb(s1) / ((1 - u) * (1 - g)) + rest).upper()
        if not delta < 1:
            return None
        return (norm_R / (1 - delta)).upper()


def _neumann_terms(delta: float) -> int:
    """Terms m of (I + E + ... + E^m): delta^(m+1) <= 2^-40 (at most 40)."""
    if delta <= 2.0 ** -_NEUMANN_BITS:
        return 0
    return min(40, max(0, math.ceil(-_NEUMANN_BITS / math.log2(delta)) - 1))


def inverse_bound_ozaki(s: ExactSystem, A_split, R: np.ndarray):
    """``ozaki-product`` (R) or ``ozaki-product-2`` ((I + E) R): (bound, name, apply, delta) or None.

    ``A_split`` is the row splitting of A64 (``split_rows``; its transpose
    splits the columns when A is symmetric).  delta bounds ||I - R A||, or
    ||E^2|| for the two-term inverse.  ``apply`` maps F to (I + E + ... +
    E^m) R F with R F by Ozaki products (``dot``: fl(R F) would lose n u |R||F|,
    about kappa u relative) and m from delta, so the refinement contracts by
    about 2^-40 per step instead of kappa u.
    """
    c_bits = slice_bits(R.shape[0])[1]
    A_cols = A_split if s.symmetric else split_rows(np.ascontiguousarray(s.A64.T), A_split.beta, 2)
    Rs = [split_rows(R, c_bits, 2)]
    d = inverse_defect(A_cols, s.A_pieces[1:], Rs)
    if d.delta < 1:
        name, delta, rho = "ozaki-product", d.delta, d.delta
        with flint.ctx.workprec(128):   # ||R||: n - 1 roundings per row sum
            bound = (arb(float(abs_row_sums(R).max()) * safe(R.shape[0] + 1))
                     / (1 - arb(delta))).upper()
    else:
        found = _two_term(d, R)
        if found is None:
            return None
        (bound, delta), name = found, "ozaki-product-2"
        rho = math.sqrt(delta)          # spectral radius of E: rho(E)^2 = rho(E^2) <= ||E^2||
    m = _neumann_terms(rho)
    E = d.E

    def apply(F):
        D = dot(Rs, F)
        term = D
        for _ in range(m):
            term = E @ term
            D += term
        return D

    return bound, name, apply, delta


def _two_term(d, R: np.ndarray):
    """(bound on ||A^-1||_inf, bound on ||E^2||_inf) for the inverse (I + E) R, or None.

    E = I - R A, E~ = ``d.E``, ||E - E~|| <= eps = ``d.err``, ||E|| <= ``d.delta``:

        ||E^2|| <= ||fl(E~ E~)|| + gamma_n || |E~| |E~| || + eps (||E|| + ||E~||)   =: delta_2,
        ||(I + E) R|| <= (1 + u) ||fl(R + fl(E~ R))|| + gamma_n || |E~| |R| || + eps ||R||,

    and if delta_2 < 1, (I + E)(I - E) = I - E^2 is invertible, so R A = I - E
    is, A^-1 = (I - E^2)^-1 (I + E) R and ||A^-1|| <= ||(I + E) R|| / (1 - delta_2).
    Two products (E~ E~, E~ R) instead of the defect of R + fl(E~ R).
    """
    E, n = d.E, R.shape[0]
    e_rows, r_rows = abs_row_sums(E), abs_row_sums(R)
    absE = np.abs(E)
    sq = abs_row_sums(E @ E) + gamma(n) * (absE @ e_rows)          # <= 3 n + 3 roundings
    V = E @ R
    V += R
    v = (1 + U) * abs_row_sums(V) + gamma(n) * (absE @ r_rows)    # <= 3 n + 5 roundings
    f, f1 = safe(3 * n + 6), safe(n + 1)
    with flint.ctx.workprec(128):
        eps = arb(d.err)
        delta2 = (arb(float(sq.max()) * f) + eps * (arb(d.delta) + arb(float(e_rows.max()) * f1))).upper()
        if not delta2 < 1:
            return None
        norm_v = arb(float(v.max()) * f) + eps * arb(float(r_rows.max()) * f1)
        return (norm_v / (1 - delta2)).upper(), float_up(delta2)


def inverse_bound_r(s: ExactSystem, R: np.ndarray, A_split=None):
    """The R-based ||A^-1||_inf bound: (bound, name, apply, delta) or None.

    ``float64-product`` when u ||A64|| ||R|| <= ``FLOAT64_MAX_KU`` and it
    certifies (delta None: not returned by it); else the Ozaki ones (which
    need the float64 pieces of A; ``A_split`` is computed if not given),
    whose corrections keep the refinement at a few steps where fl(R r)
    contracts by only about kappa u per step; delta is their bound on
    ||I - R A||_inf (||E^2|| for ozaki-product-2).
    """
    if not np.isfinite(R).all():
        return None
    with np.errstate(all="ignore"):
        ku = U * float(abs_row_sums(s.A64).max()) * float(abs_row_sums(R).max())
    if ku <= FLOAT64_MAX_KU or s.A_pieces is None:
        bound = inverse_bound_float64(s.A64, R)
        if bound is not None:
            return bound, "float64-product", R.__matmul__, None
    if s.A_pieces is None:
        return None
    if A_split is None:
        A_split = split_rows(s.A64, slice_bits(R.shape[0])[0], 2)
    return inverse_bound_ozaki(s, A_split, R)


# ----------------------------------------------------------------------------- shift
def shift_bound(s: ExactSystem, solve, *, iters: int = 8):
    """``cholesky-shift``: rigorous lower bound lam > 0 on lambda_min(A) (arb), or None.

    A must be symmetric; ``solve`` applies the float64 Cholesky factor of
    A64 (inverse iteration for the estimate of lambda_min).  Tries sigma =
    est / 2, then est / 20.
    """
    A64 = s.A64
    n = A64.shape[0]
    v = np.cos(0.7548776662466927 * np.arange(1, n + 1))[:, None]   # fixed, not an eigenvector
    mu = 0.0
    with np.errstate(all="ignore"):
        for _ in range(iters):
            v /= np.linalg.norm(v)
            w = solve(v)
            mu, v = float(v[:, 0] @ w[:, 0]), w
    if not (math.isfinite(mu) and mu > 0):
        return None
    pieces_rows = sum(abs_row_sums(P) for P in s.A_pieces[1:]) if s.A_pieces else None
    for frac in (0.5, 0.05):
        sigma = frac / mu
        T = np.array(A64)
        T[np.diag_indices(n)] -= sigma
        d = T.diagonal().copy()
        if not (d > 0).all():
            continue
        _, info = scipy.linalg.lapack.dpotrf(T, lower=1, overwrite_a=1, clean=0)
        del T
        if info != 0:
            continue
        with flint.ctx.workprec(128):
            u = arb((1, -53))
            g = (n + 1) * u / (1 - (n + 1) * u)
            tr = arb(float(d.sum())) / (1 - (n - 1) * u / (1 - (n - 1) * u))  # fl sum of d > 0
            dmax = arb(float(d.max()))
            lam = (arb(sigma) - g / (1 - g) * tr - u / (1 - u) * dmax
                   - 4 * (n + 2) ** 2 * (1 + dmax) * arb((1, -1074)))
            if pieces_rows is not None and s.A_pieces is not None and len(s.A_pieces) > 1:
                lam -= arb(float(pieces_rows.max()) * SAFE)      # ||A - A64||_2 <= ||A - A64||_inf
            if lam > 0:
                return lam.lower()
    return None


# ----------------------------------------------------------------------------- choice
def certificate(s: ExactSystem, kind: str, solve, inverse, A_split) -> Certificate | None:
    """The certificate of ``reference_solve``'s float64 route, or None.

    ``cholesky-shift`` for a Cholesky factor and n >= SHIFT_MIN_N (keeps the
    factor: corrections by ``solve``); otherwise R = ``inverse()`` (which
    consumes the factor) with ``inverse_bound_r``.  ``A_split`` is a
    zero-argument callable giving the row splitting of A64.
    """
    n = s.A64.shape[0]
    if kind == "cholesky" and n >= SHIFT_MIN_N:
        lam = shift_bound(s, solve)
        if lam is not None:
            with flint.ctx.workprec(128):
                b2 = (1 / lam).upper()
                binf = (b2 * arb(n).sqrt()).upper()
            return Certificate("cholesky-shift", b2, 2, binf, solve)
    found = inverse_bound_r(s, inverse(), A_split())
    if found is None:
        return None
    bound, name, apply, delta = found
    return Certificate(name, bound, math.inf, bound, apply, math.nan if delta is None else delta)


def cached(f):
    """A zero-argument callable computing f() once."""
    return functools.lru_cache(maxsize=1)(f)


# ----------------------------------------------------------------------------- the arb-inverse route
def inverse_enclosure_arb(A: arb_mat, bits: int):
    """(midpoint of A^-1 as arb_mat, rigorous ||A^-1||_inf bound) from arb_mat.inv, or None."""
    with flint.ctx.workprec(bits):
        Xi = A.inv(nonstop=True)
        n, ent = A.nrows(), Xi.entries()
        if not all(e.is_finite() for e in ent):
            return None
        bound = arb(0)
        for i in range(n):
            bound = bound.max(sum((abs(e) for e in ent[i * n:(i + 1) * n]), arb(0)).upper())
        return Xi.mid(), bound


def inverse_norm_bound(s: ExactSystem, *, max_bits: int):
    """Rigorous upper bound (arb) on ||A^-1||_inf by the certificates of this module, or None.

    R = A64^-1 with the float64-product bound, else the Ozaki-product one;
    failing both, arb_mat.inv enclosures at 128, 256, ..., ``max_bits``
    bits.  Used by :func:`lssvm_analysis.analysis.reference.condition_number` (p = inf).
    """
    f, bound = factor64(s, None), None
    if f is not None:
        try:
            found = inverse_bound_r(s, f[2]())
        except OutOfRange:
            found = None
        bound = None if found is None else found[0]
    bits = ARB_START_BITS
    while bound is None and bits <= max_bits:
        enc, bits = inverse_enclosure_arb(s.A, bits), 2 * bits
        bound = None if enc is None else enc[1]
    return bound
