"""The RBF kernel's squared distances in a given precision, and the error bound of their formation.

Two formations of the squared distances are registered (``RBF_FORMATIONS``), so
that what the formation of K costs in accuracy can be measured; :func:`~.kernels.rbf_kernel`
picks one and :func:`rbf_error_bound` bounds what it costs:

``"gemm"`` (default)
    For the hardware floats (float32, float64): centre the points on the mean
    x̄, scale them by sqrt(2 / sigma2), append the scaled squared norms so that
    one GEMM per block of rows gives the exponents -||x - z||^2 / sigma2, clamp
    them at 0 and take exp in place while the block is in cache; K(X, X) is
    computed on its lower triangle, mirrored, and gets an exact unit diagonal.  Cost: one
    GEMM of n m (d + 2) multiply-adds and one pass over K; the error bound is
    absolute in the exponent (see :func:`~.kernels.rbf_kernel`).  In mpN (FLINT engine) the
    same augmented product is taken over the *integers* the points scale to, so
    the squared distances are exact; -d2 / sigma2 is rounded once and exp once
    (relative error <= u q + 2u, q = ||x - z||^2 / sigma2, within the
    differences formula's bound), :func:`._kernels_flint.rbf` (mpN on FLINT).  In longdouble
    (no BLAS) and mpN with the mpmath engine it is evaluated by the differences
    formula below.
``"differences"``
    Squared distances summed feature by feature from the differences, so
    every term is >= 0 and the sum has relative error <= gamma_{d+2} ~ (d + 2) u
    (one rounding in the difference, doubled by the square, one in the square,
    d - 1 in the sum): no cancellation, and K(x, x) = 1 exactly.  Cost: 3 d
    passes over an n x m array.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..core.validation import as_matrix, check_finite, check_representable
from ..arith.symmetric import mirror_band, strict_upper_mask
from .memory import PeakMemory, PeakTerms
from ..arith.precision import get_precision

__all__ = ["RBF_FORMATIONS", "KERNEL_PEAKS", "SQUARE_KERNEL_PEAKS", "GEMM_BLOCK_ELEMENTS", "GEMM_BAND",
           "kernel_inputs", "sq_distances", "check_formation", "gemm_tolerance", "gemm_exponent_bound",
           "rbf_gemm", "rbf_error_bound"]


#: Peak of a kernel evaluation by formation, words per entry of the n x m result (r = m): the
#: differences formula holds the sum D, the difference and its square; the GEMM one writes K in
#: place (its blocks are in cache).  longdouble computes either way beside float64 copies; mp
#: holds the mpf of both operands' products.  tracemalloc, n = 400-1600 (longdouble 300-600, mp30
#: 60-120), square and n x n/2 (tests/test_peak_memory.py measures it again); 0.5 MiB fixed (its
#: GEMM bands: 0.2 MiB measured).  mp: a rectangular kernel's 2.1 entries per entry; a square one
#: shares its mirrored mpf (0.9), so in mp this guard asks more than the dense fits' own (1.46).
KERNEL_PEAKS = {
    "gemm": PeakMemory({"float64": PeakTerms(nr=1.01), "float32": PeakTerms(nr=1.01),
                        "longdouble": PeakTerms(nr=3.11), "mp": PeakTerms(nr=2.1)},
                       fixed_bytes=2 ** 19, r="columns", measured="K written in place"),
    "differences": PeakMemory({"float64": PeakTerms(nr=3.02), "float32": PeakTerms(nr=3.02),
                               "longdouble": PeakTerms(nr=3.11), "mp": PeakTerms(nr=4.1)},
                              fixed_bytes=2 ** 19, r="columns", measured="D, the differences and their squares")}
#: A square kernel (Z = X) computes one triangle and mirrors it: in mp the mirrored entries are
#: the same mpf, 0.95 entries per entry (0.82-0.91 measured); the same as KERNEL_PEAKS otherwise.
SQUARE_KERNEL_PEAKS = {**KERNEL_PEAKS, "gemm": dataclasses.replace(
    KERNEL_PEAKS["gemm"], terms={**KERNEL_PEAKS["gemm"].terms, "mp": PeakTerms(nr=0.95)},
    measured="one triangle of K, mirrored")}

#: Formations of the RBF squared distances (module docstring); the first is the default.
RBF_FORMATIONS = ("gemm", "differences")
#: Elements of one block of rows of K(X, Z) in the GEMM formation (512 KiB of float64:
#: stays in L2 cache), and the rows of one band of K(X, X).  Measured at n = 4000, d = 4
#: (asv ``KernelFloor``, one process, 2 shared cores): bands of 128 rows run at 1.02-1.25x
#: a bare GEMM + exp (96-256 rows within the noise), square 256 x 256 tiles with their
#: mirror at 1.25-1.45x (per-tile calls, and GEMM and clamp writing to memory).  The
#: mirror is the price of exact symmetry (~17 ms at n = 4000: numpy copies a transposed
#: view element by element): full row blocks run at 0.83-0.93x, but K_ij and K_ji then
#: come from different GEMM calls and positions, whose summation order the BLAS does
#: not promise (with the augmented columns ordered [a, 1, y] they were bit-symmetric on
#: this OpenBLAS, an observation only), and checking K == K^T costs a transposed read,
#: as much as the mirror.
GEMM_BLOCK_ELEMENTS = 1 << 16
GEMM_BAND = 128


def kernel_inputs(X, Z, p, *, formation="differences"):
    square = Z is None  # one triangle, mirrored (its peak: SQUARE_KERNEL_PEAKS)
    X = as_matrix(X, "X", allow_object=True)
    check_finite(X, "X")
    if X.dtype != object:
        check_representable(X, "X", p)
    if Z is None:
        Z = X
    else:
        Z = as_matrix(Z, "Z", allow_object=True)
        check_finite(Z, "Z")
        if Z.dtype != object:
            check_representable(Z, "Z", p)
        if Z.shape[1] != X.shape[1]:
            raise ValueError(
                f"expected Z with X.shape[1]={X.shape[1]} features, got Z.shape={Z.shape}")
    peak = (SQUARE_KERNEL_PEAKS if square else KERNEL_PEAKS)[formation]
    peak.ensure(X.shape[0], p, r=Z.shape[0], what="kernel matrix")
    return p.asarray(X), p.asarray(Z)


def sq_distances(X, Z, precision="float64") -> np.ndarray:
    """Matrix of ||x_i - z_j||^2 in the precision, from the differences (never negative)."""
    p = get_precision(precision)
    Xp, Zp = kernel_inputs(X, Z, p)
    D = None
    for f in range(Xp.shape[1]):
        diff = Xp[:, f, None] - Zp[None, :, f]
        D = diff * diff if D is None else D + diff * diff
    return D


def check_formation(formation):
    if formation not in RBF_FORMATIONS:
        raise ValueError(f"expected formation in {RBF_FORMATIONS}, got formation={formation!r}")


def _clamp(V):
    """V <- min(V, 0) in place (d2 >= 0), written only when some entry is > 0.

    Rounding makes an exponent positive only for (nearly) coincident points, so
    most blocks need no write: the read-only max costs half the minimum's pass.
    """
    if V.size and V.max() > 0:
        np.minimum(V, 0, out=V)


def _exp_block(V, U_rows, W_cols):
    """V <- exp(min(u_i . w_j, 0)) in place: one GEMM into V, then clamp and exp while V is in cache."""
    np.matmul(U_rows, W_cols.T, out=V)     # y_i . z_j - a_i - b_j = -||x_i - z_j||^2 / sigma2
    _clamp(V)
    np.exp(V, out=V)


def _augmented(Xp, Zp, sigma2, p):
    """U = [y, a, 1] and W = [z, -1, -b] with y = sqrt(2/sigma2) (x - x̄), a = ||y||^2 / 2: U W^T = E."""
    n = Xp.shape[0]
    m = n if Zp is None else Zp.shape[0]
    xbar = (Xp.sum(axis=0) + (0 if Zp is None else Zp.sum(axis=0))) / (n if Zp is None else n + m)
    r = np.sqrt(p.scalar(2) / p.scalar(sigma2))  # rounded in the precision (float32 rounds sigma2)

    def rows(P, right):
        Y = (P - xbar) * r
        a = np.einsum("ij,ij->i", Y, Y) / 2  # ||x - x̄||^2 / sigma2 (halving is exact)
        one = np.ones(len(a), dtype=p.dtype)
        return np.column_stack([Y, -one, -a] if right else [Y, a, one])

    U = rows(Xp, False)
    return U, rows(Xp if Zp is None else Zp, True)


def gemm_tolerance(p) -> float:
    """Largest bound on |E^ - E| (the exponent, absolute) with which the gemm formation is used: sqrt(u).

    Beyond it the GEMM form ||x||^2 + ||z||^2 - 2 x.z has lost at least half of the working digits of
    the distances (a spread of the points large against sigma2 and against the distances: issue 32's
    ``[[0, 1e9], [1, 1e9], [0, -1e9]]`` gave K_01 = 1 for exp(-1)), and :func:`~.kernels.rbf_kernel` forms the
    distances from the differences, whose error is relative, (d + 3) u q.  Below it the gemm matrix is
    unchanged, bit for bit (well-scaled data: max ||x - x̄||^2 / sigma2 < 1 / (2 (3 d + 20) sqrt(u)),
    2.6e6 / (3 d + 20) in float64, 2000 / (3 d + 20) in float32).
    """
    return float(np.sqrt(p.unit_roundoff))


def gemm_exponent_bound(d: int, u: float, a_max: float, b_max: float) -> float:
    """(3 d + 20) u (max a + max b): the first-order bound on |E^_ij - E_ij| of the gemm formation
    (:func:`~.kernels.rbf_kernel` Notes), a and b the centred scaled half-norms ||x - x̄||^2 / sigma2."""
    return float((3 * d + 20) * u * (a_max + b_max))


def rbf_gemm(Xp, Zp, sigma2, p, out):
    """exp(-||x - z||^2 / sigma2) by centred, augmented GEMM blocks, in place in ``out``.

    K(X, X): bands of ``GEMM_BAND`` rows, each computed on and left of the
    diagonal by one GEMM (clamp and exp in place) and mirrored into the upper
    triangle while it is in cache, so K is exactly symmetric whatever the
    BLAS does with ragged blocks (and exp runs on half the entries).
    K(X, Z): blocks of rows.
    """
    U, W = _augmented(Xp, Zp, sigma2, p)
    if not (np.isfinite(U).all() and np.isfinite(W).all()):
        return None  # overflow of the scaled norms: the caller uses the differences formula
    d = Xp.shape[1]
    if gemm_exponent_bound(d, p.unit_roundoff, float(U[:, d].max()), float(-W[:, d + 1].min())) > \
            gemm_tolerance(p):
        return None  # the GEMM form lost the distances (rbf_kernel Notes): the differences formula
    n, m = out.shape
    if Zp is not None:
        rows = max(1, min(n, GEMM_BLOCK_ELEMENTS // max(m, 1)))
        for i0 in range(0, n, rows):
            _exp_block(out[i0:i0 + rows], U[i0:i0 + rows], W)
        return out
    upper = strict_upper_mask(min(n, GEMM_BAND))
    for i0 in range(0, n, GEMM_BAND):
        i1 = min(n, i0 + GEMM_BAND)
        band = out[i0:i1, :i1]  # the band on and left of the diagonal: one GEMM, clamp, exp
        np.matmul(U[i0:i1], W[:i1].T, out=band)
        _clamp(out[i0:i1, :i0])
        _clamp(out[i0:i1, i0:i1])  # the diagonal block (E_ii ~ 0): clamped apart from the rest
        np.exp(band, out=band)
        mirror_band(out, i0, i1, upper)  # mirrored above the diagonal while the band is in cache
        out[i0:i1, i0:i1][np.diag_indices(i1 - i0)] = 1  # an exact unit diagonal
    return out


def rbf_error_bound(X, Z=None, sigma2=1.0, precision="float64", *, formation="gemm") -> float:
    """First-order bound on max |K^_ij - K_ij| / K_ij of :func:`~.kernels.rbf_kernel` (its Notes).

    gemm: (3 d + 20) u (max a + max b) + 6u; differences: (d + 3) u max q + 6u,
    with q = ||x - z||^2 / sigma2 (float64 estimate of the scaled quantities).
    """
    check_formation(formation)
    p = get_precision(precision)
    X = np.asarray(p.to_float64(p.asarray(np.asarray(X, dtype=np.float64))))
    Z = X if Z is None else np.asarray(p.to_float64(p.asarray(np.asarray(Z, dtype=np.float64))))
    u, d = p.unit_roundoff, X.shape[1]
    if formation == "gemm" and p.hardware:
        xbar = np.vstack([X, Z]).mean(axis=0)
        a = ((X - xbar) ** 2).sum(axis=1).max() / sigma2
        b = ((Z - xbar) ** 2).sum(axis=1).max() / sigma2
        e = gemm_exponent_bound(d, u, a, b)
        if e <= gemm_tolerance(p):   # else rbf_kernel forms the distances from the differences
            return float(e + 6 * u)
    q = max(float(((X[:, None, :] - Z[None, i, :]) ** 2).sum(-1).max()) for i in range(len(Z)))
    return float((d + 3) * u * q / sigma2 + 6 * u)
