"""Kernel functions computed in a given precision.

RBF is K(x, z) = exp(-||x - z||^2 / sigma2): Suykens' book's sigma^2 and
scikit-learn's ``gamma = 1 / sigma2``.  LS-SVMlab's *help text* states the same
formula, but its code (``RBF_kernel`` called by ``trainlssvm`` / ``simlssvm``)
computes exp(-||x - z||^2 / (2 sig2)): a ``sig2`` carried over from LS-SVMlab
must be doubled, ``sigma2 = from_lssvmlab(sig2) = 2 sig2``, or the model
differs (:func:`from_lssvmlab`, :func:`to_lssvmlab`).  Two formations of
the squared distances are registered (``RBF_FORMATIONS``), so that what the
formation of K costs in accuracy can be measured:

``"gemm"`` (default)
    For the hardware floats (float32, float64): centre the points on the mean
    x̄, scale them by sqrt(2 / sigma2), append the scaled squared norms so that
    one GEMM per block of rows gives the exponents -||x - z||^2 / sigma2, clamp
    them at 0 and take exp in place while the block is in cache; K(X, X) is
    computed on its lower triangle, mirrored, and gets an exact unit diagonal.  Cost: one
    GEMM of n m (d + 2) multiply-adds and one pass over K; the error bound is
    absolute in the exponent (see :func:`rbf_kernel`).  In mpN (FLINT engine) the
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

import contextlib
import contextvars
import numbers
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ..core.validation import (all_finite, as_matrix, check_finite, check_int, check_positive,
                          check_representable, short_repr)
from ..arith.symmetric import mirror_band, strict_upper_mask
from ..core.memo import array_key, scoped
from .memory import PeakMemory, PeakTerms, bytes_per_word
from ..arith.precision import get_precision
from ._kernels_flint import rbf as rbf_flint

__all__ = ["rbf_kernel", "linear_kernel", "poly_kernel", "Kernel", "PrecomputedKernel", "make_kernel", "KERNELS",
           "from_lssvmlab", "to_lssvmlab", "RBF_FORMATIONS", "rbf_error_bound", "KERNEL_PEAKS", "SQUARE_KERNEL_PEAKS",
           "kernel_memo", "KERNEL_MEMO_BYTES", "active_memo", "gemm_tolerance", "gemm_exponent_bound",
           "kernel_error_bound", "MEANINGLESS_KERNEL_BOUND"]


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
_BLOCK_ELEMENTS = 1 << 16
_BAND = 128


def _inputs(X, Z, p, *, formation="differences"):
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


def _check_sigma2(sigma2, p):
    """sigma2 > 0 and, once rounded to the precision, still positive and finite."""
    check_positive("sigma2", sigma2)
    s = p.scalar(sigma2)
    if not (all_finite(np.array([s], dtype=object)) and s > 0):
        raise ValueError(f"expected sigma2 that is positive and finite in {p.name}, got "
                         f"sigma2={sigma2!r} (rounds to {s!r} in {p.name})")
    return s


def _check_product_kernel(K, name, Z, degree=None):
    """A linear/polynomial kernel that overflowed names the inputs it came from (and the degree)."""
    if not all_finite(K):
        args = "X" if Z is None else "X and Z"
        if degree is not None:
            args += " and degree"
            got = f"degree={short_repr(degree)} with {'X' if Z is None else 'X and Z'}"
        else:
            got = args
        raise ValueError(f"expected {args} small enough for the {name} kernel in this precision, got "
                         f"{got} whose {name} kernel overflows to inf (scale X down or lower the degree)")
    return K


def _check_t(t):
    if isinstance(t, bool) or not isinstance(t, numbers.Real):
        raise TypeError(f"expected a real number t >= 0 for the polynomial kernel, got t={short_repr(t)}")
    if not (np.isfinite(float(t)) and t >= 0):
        raise ValueError(f"expected t >= 0 for the polynomial kernel, got t={short_repr(t)}")
    return float(t)


def sq_distances(X, Z, precision="float64") -> np.ndarray:
    """Matrix of ||x_i - z_j||^2 in the precision, from the differences (never negative)."""
    p = get_precision(precision)
    Xp, Zp = _inputs(X, Z, p)
    D = None
    for f in range(Xp.shape[1]):
        diff = Xp[:, f, None] - Zp[None, :, f]
        D = diff * diff if D is None else D + diff * diff
    return D


def _check_formation(formation):
    if formation not in RBF_FORMATIONS:
        raise ValueError(f"expected formation in {RBF_FORMATIONS}, got formation={formation!r}")


def _check_out(out, shape, p):
    if not (isinstance(out, np.ndarray) and out.shape == shape and out.dtype == p.dtype):
        got = (f"out.shape={out.shape}, out.dtype={out.dtype}" if isinstance(out, np.ndarray)
               else f"out={type(out).__name__}")
        raise ValueError(f"expected out of shape {shape} and dtype {p.dtype}, got {got}")
    if out.ndim == 2 and out.strides[1] != out.itemsize:
        raise ValueError(f"expected out with contiguous rows, got out.strides={out.strides}")


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
    ``[[0, 1e9], [1, 1e9], [0, -1e9]]`` gave K_01 = 1 for exp(-1)), and :func:`rbf_kernel` forms the
    distances from the differences, whose error is relative, (d + 3) u q.  Below it the gemm matrix is
    unchanged, bit for bit (well-scaled data: max ||x - x̄||^2 / sigma2 < 1 / (2 (3 d + 20) sqrt(u)),
    2.6e6 / (3 d + 20) in float64, 2000 / (3 d + 20) in float32).
    """
    return float(np.sqrt(p.unit_roundoff))


def gemm_exponent_bound(d: int, u: float, a_max: float, b_max: float) -> float:
    """(3 d + 20) u (max a + max b): the first-order bound on |E^_ij - E_ij| of the gemm formation
    (:func:`rbf_kernel` Notes), a and b the centred scaled half-norms ||x - x̄||^2 / sigma2."""
    return float((3 * d + 20) * u * (a_max + b_max))


def _rbf_gemm(Xp, Zp, sigma2, p, out):
    """exp(-||x - z||^2 / sigma2) by centred, augmented GEMM blocks, in place in ``out``.

    K(X, X): bands of ``_BAND`` rows, each computed on and left of the
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
        rows = max(1, min(n, _BLOCK_ELEMENTS // max(m, 1)))
        for i0 in range(0, n, rows):
            _exp_block(out[i0:i0 + rows], U[i0:i0 + rows], W)
        return out
    upper = strict_upper_mask(min(n, _BAND))
    for i0 in range(0, n, _BAND):
        i1 = min(n, i0 + _BAND)
        band = out[i0:i1, :i1]  # the band on and left of the diagonal: one GEMM, clamp, exp
        np.matmul(U[i0:i1], W[:i1].T, out=band)
        _clamp(out[i0:i1, :i0])
        _clamp(out[i0:i1, i0:i1])  # the diagonal block (E_ii ~ 0): clamped apart from the rest
        np.exp(band, out=band)
        mirror_band(out, i0, i1, upper)  # mirrored above the diagonal while the band is in cache
        out[i0:i1, i0:i1][np.diag_indices(i1 - i0)] = 1  # an exact unit diagonal
    return out


def rbf_kernel(X, Z=None, sigma2=1.0, precision="float64", *, formation="gemm",
               out=None) -> np.ndarray:
    """RBF kernel matrix exp(-||x_i - z_j||^2 / sigma2).

    Parameters
    ----------
    X : (n, d) array_like
    Z : (m, d) array_like, optional
        Defaults to X (then K is symmetric with an exact unit diagonal).  A Z
        equal to X gives the same matrix as ``Z=None``, bit for bit.
    sigma2 : float > 0
        Width sigma^2 (Suykens' sigma^2, Abe's 1/gamma).
    precision : str or Precision
    formation : {"gemm", "differences"}, keyword-only
        How the squared distances are formed (module docstring).  "gemm" is
        evaluated by "differences" in longdouble and mpN.
    out : (n, m) ndarray of the precision's dtype, optional, keyword-only
        Written in place and returned (rows must be contiguous, e.g. the view
        ``A[1:, 1:]`` of a C-ordered matrix): no n x m temporary is made by the
        gemm formation.

    Returns
    -------
    K : (n, m) ndarray in the precision's dtype

    Raises
    ------
    ValueError, TypeError
        Bad X, Z, sigma2, formation or out.

    Notes
    -----
    Error of the gemm formation.  With y = sqrt(2 / sigma2) (x - x̄),
    a_i = ||x_i - x̄||^2 / sigma2 = ||y_i||^2 / 2 and b_j likewise for z_j (x̄
    the mean of the points; the kernel is translation invariant, so the
    rounding of x̄ costs nothing), the exponent E_ij = -||x_i - z_j||^2 / sigma2
    is one inner product of length d + 2, [y_i, a_i, 1] . [z_j, -1, -b_j],
    evaluated by the GEMM.  Its roundings (centring and scaling: 4 gamma_4
    (a_i + b_j); the norms: gamma_d (a_i + b_j); the inner product:
    gamma_{d+2} (|y_i|.|z_j| + a_i + b_j) <= 2 gamma_{d+2} (a_i + b_j)) perturb E by

        |dE| <= (3 d + 20) u (a_i + b_j)      (first order).

    The clamp E <= 0 only moves E towards the truth, and exp adds <= 6u
    (NumPy: 1 ulp float64, 3 ulp float32), so

        |K^_ij - K_ij| <= K_ij (exp(|dE|) (1 + 6u) - 1)
                       ~  K_ij ((3 d + 20) u (a_i + b_j) + 6u)
                       <= c u max ||x - x̄||^2 / sigma2,   c = 2 (3 d + 20).

    Unlike the differences formula's relative error (d + 3) u q_ij, this does
    not vanish for close points: the gemm formation is accurate to
    u max||x - x̄||^2 / sigma2 absolutely, which :func:`rbf_error_bound`
    evaluates and ``tests/test_fast_paths.py`` checks against the mp kernel.
    When that bound on |dE| exceeds :func:`gemm_tolerance` (sqrt(u)) the GEMM
    form has lost the distances (points spread far beyond sigma2, whatever
    their common offset), and the distances are formed from the differences
    instead; below it the gemm matrix is the one computed before this check,
    bit for bit.  :func:`kernel_error_bound` is the absolute bound a Fit records.
    K(X, X) is exactly symmetric by construction: only its lower triangle is
    computed (bands of rows, one GEMM each, then clamp and exp while the band
    is in cache) and each band is copied into the upper triangle.  No BLAS
    property is relied on: a GEMM that gives K_ij and K_ji in different calls
    or positions may sum them in different orders (edge micro-kernels).
    """
    _check_formation(formation)
    p = get_precision(precision)
    s = _check_sigma2(sigma2, p)  # positive, and still positive and finite in the precision
    Xp, Zp = _inputs(X, Z, p, formation=formation)
    shape = (Xp.shape[0], Zp.shape[0])
    if out is not None:
        _check_out(out, shape, p)
    if formation == "gemm" and p.hardware:
        # K(X, X) passed as two arguments is the symmetric K(X): the same numbers bit for bit
        same = Z is None or Zp is Xp or (Zp.shape == Xp.shape and np.array_equal(Zp, Xp))
        K = _rbf_gemm(Xp, None if same else Zp, sigma2, p,
                      np.empty(shape, dtype=p.dtype) if out is None else out)
        if K is not None:
            return K
        # the centred, scaled norms overflow this precision (X far beyond sqrt of its range):
        # the differences formula gives the right 0 (exp(-inf)) and 1 entries
    elif formation == "gemm" and p.engine == "flint":   # exact squared distances (_kernels_flint)
        K = rbf_flint(Xp, None if Z is None else Zp, s, prec=p.ctx.prec, ctx=p.ctx)
        if out is None:
            return K
        out[...] = K
        return out
    D = sq_distances(Xp, Zp, p)  # may hold inf (distances beyond the range): exp(-inf) = 0 is right
    K = p.exp(-D / s)
    if out is None:
        return K
    out[...] = K
    return out


def rbf_error_bound(X, Z=None, sigma2=1.0, precision="float64", *, formation="gemm") -> float:
    """First-order bound on max |K^_ij - K_ij| / K_ij of :func:`rbf_kernel` (its Notes).

    gemm: (3 d + 20) u (max a + max b) + 6u; differences: (d + 3) u max q + 6u,
    with q = ||x - z||^2 / sigma2 (float64 estimate of the scaled quantities).
    """
    _check_formation(formation)
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


#: max over q >= 0 of sqrt(q) exp(-q) = 1 / sqrt(2 e), and of q exp(-q) = 1 / e: what an error of the
#: exponent relative to sqrt(q) (the rounding of the points) or to q (the differences formula) costs
#: K = exp(-q) absolutely.
_SQRT_Q_EXP = 1.0 / np.sqrt(2.0 * np.e)
_Q_EXP = 1.0 / np.e
#: A kernel whose entries (in [0, 1]) may be wrong by this much carries no correct digit.
MEANINGLESS_KERNEL_BOUND = 0.5


def kernel_error_bound(kernel, X, precision="float64") -> float:
    """First-order bound on max |K^_ij - K_ij| (absolute) of an RBF kernel of rows of X, as formed in the precision.

    ``K`` is the exact kernel of the points as given (float64), ``K^`` the matrix :func:`rbf_kernel`
    forms in the precision for any rows x, z of X (the fit's kernel on any subset, and its prediction
    kernel at those points).  Three terms, with K <= 1 and R = max ||x - x̄|| (x̄ the mean of X; a
    subset is centred on its own mean, within 2R of every point, hence the 4 R^2 below):

    * the gemm formation (float32, float64): min(tau, (3 d + 20) u 8 R^2 / sigma2), tau =
      :func:`gemm_tolerance` (beyond it the distances come from the differences);
    * the differences formula, relative error (d + 3) u q on q = ||x - z||^2 / sigma2: at most
      (d + 3) u max_q q e^{-q} = (d + 3) u / e, plus exp's 6 u;
    * the rounding of the points into a narrower format (float32): |dx| <= u ||x||, so
      |dq| <= 2 sqrt(q / sigma2) 2 u max||x|| and |dK| <= 4 u max||x|| / sqrt(sigma2) / sqrt(2 e).

    Returns NaN for a kernel other than RBF (the linear and polynomial kernels are products, whose
    overflow is refused; their error is not bounded here).  The bound is cheap: O(n d).
    """
    if getattr(kernel, "name", None) != "rbf" or type(kernel) is not Kernel:
        return float("nan")
    p = get_precision(precision)
    X = np.asarray(X, dtype=np.float64)
    u, d, sigma2 = p.unit_roundoff, X.shape[1], float(kernel.params["sigma2"])
    r2 = float(((X - X.mean(axis=0)) ** 2).sum(axis=1).max()) / sigma2
    bound = (d + 3) * u * _Q_EXP + 6 * u
    if kernel.formation == "gemm" and p.dtype in (np.float32, np.float64):
        bound += min(gemm_tolerance(p), gemm_exponent_bound(d, u, 4 * r2, 4 * r2))
    if p.dtype != object and u > np.finfo(np.float64).eps / 2:
        bound += 4 * u * float(np.sqrt((X ** 2).sum(axis=1).max() / sigma2)) * _SQRT_Q_EXP
    return float(bound)


def linear_kernel(X, Z=None, precision="float64") -> np.ndarray:
    """Linear kernel x^T z."""
    p = get_precision(precision)
    Xp, Zp = _inputs(X, Z, p)
    with np.errstate(over="ignore", invalid="ignore"):
        return _check_product_kernel(Xp @ Zp.T, "linear", Z)


def poly_kernel(X, Z=None, degree=3, t=1.0, precision="float64") -> np.ndarray:
    """Polynomial kernel (x^T z + t)^degree (Suykens eq. 2.x, t >= 0)."""
    check_int("degree", degree, minimum=1)
    _check_t(t)
    p = get_precision(precision)
    Xp, Zp = _inputs(X, Z, p)
    with np.errstate(over="ignore", invalid="ignore"):
        return _check_product_kernel((Xp @ Zp.T + p.scalar(t)) ** int(degree), "polynomial", Z, degree)


KERNELS = {"rbf": (rbf_kernel, ("sigma2",)), "linear": (linear_kernel, ()),
           "poly": (poly_kernel, ("degree", "t"))}

#: Bytes of kernel matrices a :func:`kernel_memo` keeps (per process): a 5-fold CV at n = 150 holds
#: ~15 KiB per fold matrix, so the bound only matters for large n, where the memo is not needed.
KERNEL_MEMO_BYTES = 64 * 2 ** 20
_KERNEL_MEMO: contextvars.ContextVar = contextvars.ContextVar("lssvm_kernel_memo", default=None)


@contextlib.contextmanager
def kernel_memo(max_bytes: int = KERNEL_MEMO_BYTES):
    """Within the block, a :class:`Kernel` evaluated again on the same inputs returns the stored matrix.

    A grid search fits every C of a grid at one kernel width on the same
    folds: K(X_train) and K(X_test, X_train) of a fold are the same matrices
    for every C.  Inside this block each is computed once and copied out on
    the later calls (bit for bit the matrix the evaluation gives: the key
    holds the exact bytes of X and Z, the kernel, its parameters, the
    formation and the precision; see :mod:`lssvm_analysis.core.memo`).  At
    most ``max_bytes`` of matrices are kept, least recently used dropped
    first, and all of them are released when the block ends, so memory
    outside the block (the peaks :data:`KERNEL_PEAKS` declares) is unchanged.
    Nested blocks share the outer memo.  Measured on one grid search of the
    Suykens tables (heart, n = 150, 5 folds, the default profile's refined
    sigma2 x C grid): 70 of the 180 RBF evaluations are computed (poly: 60 of
    160, linear: 10 of 40).

    Yields
    ------
    Memo
        Its ``hits`` and ``misses`` count the evaluations served and computed.
    """
    with scoped(_KERNEL_MEMO, max_entries=4096, max_bytes=int(max_bytes)) as memo:
        yield memo


def active_memo():
    """The :class:`~lssvm_analysis.core.memo.Memo` of the enclosing :func:`kernel_memo` block, or None.

    Other pure computations of the block's inputs may be kept in it under keys of their own
    (the block bounds their lifetime as it bounds the kernel matrices'), e.g. Abe's
    thresholded selection, which an exact model's system builder repeats after the fit.
    """
    return _KERNEL_MEMO.get()


@dataclass(frozen=True)
class Kernel:
    """A kernel with its parameters, callable as ``kernel(X, Z, precision=...)``."""

    name: str = "rbf"
    params: Mapping[str, Any] = field(default_factory=lambda: {"sigma2": 1.0})
    #: RBF only: the formation of the squared distances, one of ``RBF_FORMATIONS``.
    formation: str = "gemm"

    def __post_init__(self):
        if not isinstance(self.name, str) or self.name not in KERNELS:
            raise ValueError(f"expected kernel in {sorted(KERNELS)}, got kernel={self.name!r}")
        allowed = KERNELS[self.name][1]
        extra = sorted(set(self.params) - set(allowed))
        if extra:
            raise ValueError(f"expected parameters among {allowed} for the {self.name} kernel, "
                             f"got {extra[0]}={self.params[extra[0]]!r}")
        _check_formation(self.formation)

    def __call__(self, X, Z=None, *, precision="float64", out=None):
        """K(X, Z) in the precision; ``out`` as in :func:`rbf_kernel` (other kernels copy into it).

        Inside a :func:`kernel_memo` block, inputs met before give the stored matrix (copied).
        """
        memo = _KERNEL_MEMO.get()
        key = self._memo_key(X, Z, precision) if memo is not None else None
        if key is None:
            return self._evaluate(X, Z, precision, out)
        p = get_precision(precision)
        K = memo.get(key, lambda: self._evaluate(X, Z, p, None),
                     size=lambda K: K.size * bytes_per_word(p), copy=np.copy)
        if out is None:
            return K
        _check_out(out, K.shape, p)
        out[...] = K
        return out

    @property
    def unit_diagonal(self) -> bool:
        """True when K(x, x) = 1 exactly in every precision: the RBF kernel (module docstring:
        the gemm formation sets the diagonal to 1, the differences one computes exp(-0) = 1)."""
        return type(self) is Kernel and self.name == "rbf"

    def unchecked(self, X, Z=None):
        """``self(X, Z)`` in float64 without the input checks: for inputs the caller has checked.

        For loops that evaluate thousands of small kernels on rows of one validated matrix
        (fs-lssvm's entropy swaps: two 1 x M kernels per swap, 20 M swaps), where the checks
        (finiteness, representability, the memory guard) cost more than the kernel.  ``X`` and
        ``Z`` must be finite float64 matrices of equal width, and the caller must have checked
        the memory of a larger evaluation on the same rows.  The RBF gemm formation runs the
        steps :func:`rbf_kernel` runs after its checks (:func:`_rbf_gemm`, the same arguments),
        so the matrix is bit for bit ``self(X, Z)``; any other kernel is ``self(X, Z)``.
        """
        if not self.unit_diagonal or self.formation != "gemm":
            return self(X, Z)
        p = get_precision("float64")
        same = Z is None or Z is X or (Z.shape == X.shape and np.array_equal(Z, X))
        m = X.shape[0] if Z is None else Z.shape[0]
        K = _rbf_gemm(X, None if same else Z, p.scalar(self.params["sigma2"]), p,
                      np.empty((X.shape[0], m), dtype=np.float64))
        return self(X, Z) if K is None else K  # overflow of the scaled norms: rbf_kernel's fallback

    def _memo_key(self, X, Z, precision):
        """The exact key of an evaluation (None: not memoized: other inputs than numeric arrays)."""
        kx, kz = array_key(X), (None if Z is None else array_key(Z))
        if type(self) is not Kernel or kx is None or (Z is not None and kz is None):
            return None
        return (self.name, tuple(sorted(self.params.items())), self.formation,
                get_precision(precision).name, kx, kz)

    def _evaluate(self, X, Z, precision, out):
        func, _ = KERNELS[self.name]
        if self.name == "rbf":
            return func(X, Z, precision=precision, formation=self.formation, out=out, **self.params)
        K = func(X, Z, precision=precision, **self.params)
        if out is None:
            return K
        _check_out(out, K.shape, get_precision(precision))
        out[...] = K
        return out

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        if self.formation != "gemm":
            args += f", formation={self.formation!r}"
        return f"Kernel({self.name}{', ' if args else ''}{args})"


def _gram_indices(A, n, name):
    """Row indices stored in the single column of A (floats holding integers in [0, n))."""
    A = as_matrix(A, name, allow_object=False)
    i = A[:, 0].astype(np.intp) if A.shape[1] == 1 else None
    if i is None or np.any(i != A[:, 0]) or np.any(i < 0) or np.any(i >= n):
        raise ValueError(f"expected {name} as one column of row indices in [0, {n}) of the Gram "
                         f"matrix, got {name} of shape {A.shape}")
    return i


@dataclass(frozen=True, eq=False, repr=False)
class PrecomputedKernel(Kernel):
    """A kernel given by its matrix: ``K(X, Z) = gram[X[:, 0], Z[:, 0]]``.

    The "inputs" are row indices into ``gram`` held in one float column
    (``np.arange(n)[:, None]``), so every solver, which only evaluates its
    kernel on rows of X, runs on a user's Gram matrix unchanged (scikit-learn's
    ``kernel="precomputed"``; the estimators build it).  Z indexes the
    columns: a rectangular ``gram`` (test rows x training columns) evaluates
    a fitted model at new points.

    Parameters
    ----------
    gram : (n, m) array_like of finite float64
        K(x_i, z_j).  It enters a precision by rounding float64 to it, so the
        model error of a fit in extended precision is relative to this
        float64 matrix, not to the kernel it was computed from.
    """

    name: str = "precomputed"
    params: Mapping[str, Any] = field(default_factory=dict)
    gram: Any = None

    def __post_init__(self):
        G = as_matrix(self.gram, "gram", allow_object=False)
        check_finite(G, "gram")
        object.__setattr__(self, "gram", np.asarray(G, dtype=np.float64))

    def __call__(self, X, Z=None, *, precision="float64", out=None):
        p = get_precision(precision)
        i = _gram_indices(X, self.gram.shape[0], "X")
        j = i if Z is None else _gram_indices(Z, self.gram.shape[1], "Z")
        K = p.asarray(self.gram[np.ix_(i, j)])
        if out is None:
            return K
        _check_out(out, K.shape, p)
        out[...] = K
        return out

    def __repr__(self):
        return f"PrecomputedKernel(gram of shape {self.gram.shape})"

    __eq__ = object.__eq__  # two Gram matrices are the same kernel only if they are one object
    __hash__ = object.__hash__


def make_kernel(kernel="rbf", *, sigma2=1.0, degree=3, t=1.0, formation="gemm") -> Kernel:
    """Build and validate a Kernel from the unified hyper-parameter names.

    ``formation`` (RBF only) selects the formation of the squared distances,
    ``RBF_FORMATIONS``; a Kernel passes through unchanged.
    """
    if isinstance(kernel, Kernel):
        return kernel
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise ValueError(f"expected kernel in {sorted(KERNELS)}, got kernel={kernel!r}")
    # every parameter is checked, used or not (degree="zzz" with the RBF kernel was accepted)
    check_int("degree", degree, minimum=1)
    _check_t(t)
    if kernel == "rbf":
        check_positive("sigma2", sigma2)
        params = {"sigma2": float(sigma2)}
    elif kernel == "poly":
        params = {"degree": int(degree), "t": _check_t(t)}
    else:
        params = {}
    _check_formation(formation)
    return Kernel(kernel, params, formation if kernel == "rbf" else "gemm")


def from_lssvmlab(sig2: float) -> float:
    """Our ``sigma2`` for LS-SVMlab's ``sig2``: 2 sig2.

    LS-SVMlab's ``RBF_kernel`` (used by ``trainlssvm``/``simlssvm``) computes
    exp(-||x - z||^2 / (2 sig2)) although its help says exp(-||x - z||^2 / sig2);
    ours is exp(-||x - z||^2 / sigma2), so the same kernel needs sigma2 = 2 sig2.
    LS-SVMlab's ``gam`` is our ``C`` unchanged.

    Raises
    ------
    ValueError
        ``sig2`` not a finite positive number (named).
    """
    return 2.0 * check_positive("sig2", sig2)


def to_lssvmlab(sigma2: float) -> float:
    """LS-SVMlab's ``sig2`` for our ``sigma2``: sigma2 / 2 (inverse of :func:`from_lssvmlab`)."""
    return check_positive("sigma2", sigma2) / 2.0
