"""Kernel matrices of float64 data to ~32 digits, in vectorized double-double arithmetic.

The exact model of a fit (:mod:`lssvm_analysis.exact.formation`) needs the
kernel matrix of the data *as given* far below float64's rounding: the
model digits of a longdouble fit at kappa ~ 1e9 are only measurable against
a kernel good to ~30 digits.  Per-entry ball arithmetic is too slow for
that at n = 1000 (python-flint ``arb.exp`` plus the conversion back to
float64 pieces: 5.3 s for the 10^6 entries, measured), so the kernel is
evaluated here in double-double (DD) arithmetic on NumPy arrays
(``hi + lo``, two float64 arrays, |lo| <= ulp(hi) / 2), with an a-priori
elementwise bound on its error that the tests check against arb.

Error analysis (u = 2^-53; Joldes, Muller, Popescu 2017, Thms 2-5, 11):
TwoSum and TwoProduct (Veltkamp splitting; no FMA in NumPy) are
error-free; the DD sum of two DD numbers has relative error <= 3 u^2, the
DD product <= 5 u^2 (DD x float64: 2 u^2).

* RBF: d_ij = ||x_i - z_j||^2 is a sum of ``n_features`` squares of exact
  differences (TwoSum), each square one DD product and each partial sum one
  DD sum of non-negative terms, so its relative error is <= (3 m + 5) u^2
  for m features (relative errors of non-negative terms do not amplify).
  a = d / sigma2 (one DD quotient, <= 4 u^2).  exp(-a) = 2^q T_j exp(r)
  with -a = N ln2/256 + r, N = 256 q + j, |r| <= ln2/512 (Tang's table
  method): N ln2/256 is formed with ln2/256 as a triple of float64 (error
  <= 2^-160 N), T_j = 2^(j/256) are DD constants rounded from 200-bit arb
  values (u^2/2), exp(r) is 1 + r + ... + r^4/24 by DD Horner steps (5 DD
  products and sums near 1: <= 40 u^2) plus r^5 P(r) in float64 (|r^5/120|
  < 4e-17, so its relative error u costs < 0.4 u^2; the truncation after
  r^9/9! is < 6e-36 < 0.01 u^2).  The argument's absolute error a (3 m + 9)
  u^2 becomes a relative error of exp of the same size; together with the
  table, the product by T_j (5 u^2) and the exact scaling by 2^q:

      |K~_ij - K_ij| <= ((3 m + 9) a_ij + 50) u^2 K_ij      (1 + O(u))

  The recorded bound doubles it (covering the O(u) terms with a wide
  margin).  Entries with a > 700 (K < 1e-304) are returned as 0 with bound
  exp(-700).
* Linear: x . z as a DD sum of exact products; |error| <= (3 m + 5) u^2
  sum_k |x_k z_k|, doubled likewise.

Cost (measured, n = 1000, 4 features, one thread): ~0.6 s for the RBF
matrix (the upper triangle only, mirrored), against 0.02 s for float64.
The polynomial kernel is not provided (:func:`kernel_dd` raises
``NotImplementedError`` naming it).

References
----------
M. Joldes, J.-M. Muller, V. Popescu, "Tight and rigorous error bounds for
basic building blocks of double-word arithmetic", ACM TOMS 44 (2017).
P. T. P. Tang, "Table-driven implementation of the exponential function in
IEEE floating-point arithmetic", ACM TOMS 15 (1989).  T. J. Dekker, "A
floating-point technique for extending the available precision", Numer.
Math. 18 (1971).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import flint
import numpy as np

from .ozaki import two_sum  # Knuth's TwoSum: one implementation for both exact schemes

__all__ = ["DD", "U2", "two_sum", "two_prod", "dd_add", "dd_mul", "dd_div_float", "exp_neg",
           "rbf_dd", "linear_dd", "kernel_dd", "reciprocal_dd"]

U2 = 2.0 ** -106
_SPLITTER = 134217729.0          # 2^27 + 1 (Veltkamp)
_TABLE_BITS = 8
_EXP_CUT = 700.0
_TINY = 2.0 ** -900


@dataclass(frozen=True)
class DD:
    """A double-double array hi + lo with an elementwise bound on its distance to the exact value.

    Attributes
    ----------
    hi, lo : ndarray of float64, same shape
        The value is hi + lo (+ the ``rest``) exactly; |lo| <= ulp(hi) / 2 after normalization.
    bound : ndarray of float64 or float
        |value - exact| <= bound elementwise (0 for values formed exactly).
    rest : tuple of ndarray
        Further float64 pieces of a longer expansion (empty for a double-double).
    """

    hi: np.ndarray
    lo: np.ndarray
    bound: np.ndarray | float = 0.0
    rest: tuple = ()

    @property
    def shape(self) -> tuple:
        return self.hi.shape

    def pieces(self) -> list:
        """[hi, lo, *rest]: float64 arrays summing exactly to the value."""
        return [self.hi, self.lo, *self.rest]


# ----------------------------------------------------------------------------- error-free steps
def _fast_two_sum(a, b):
    s = a + b
    return s, b - (s - a)


def _split(a):
    c = _SPLITTER * a
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a, b):
    """(p, e) with p = fl(a b) and a b = p + e exactly (Dekker; |a|, |b| < 2^996)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


# ----------------------------------------------------------------------------- DD arithmetic
def dd_add(ah, al, bh, bl):
    """(hi, lo) of (ah + al) + (bh + bl), relative error <= 3 u^2 (JMP17 Alg. 6)."""
    s, e = two_sum(ah, bh)
    t, f = two_sum(al, bl)
    s, e = _fast_two_sum(s, e + t)
    return _fast_two_sum(s, e + f)


def dd_mul(ah, al, bh, bl):
    """(hi, lo) of (ah + al)(bh + bl), relative error <= 5 u^2 (JMP17 Alg. 11)."""
    p, e = two_prod(ah, bh)
    return _fast_two_sum(p, e + (ah * bl + al * bh))


def dd_div_float(ah, al, b):
    """(hi, lo) of (ah + al) / b for float64 b, relative error <= 4 u^2 (JMP17 Alg. 15)."""
    q = ah / b
    p, e = two_prod(q, b)
    r = ((ah - p) - e) + al
    return _fast_two_sum(q, r / b)


def reciprocal_dd(c: float) -> tuple:
    """(hi, lo) float64 with hi + lo = 1/c to 2^-106 relative (one DD quotient), c > 0 finite."""
    hi, lo = dd_div_float(np.float64(1.0), np.float64(0.0), np.float64(c))
    return float(hi), float(lo)


# ----------------------------------------------------------------------------- exp
def _constants():
    """ln2/256 as a float64 triple and the table 2^(j/256) as DD, from 200-bit arb values."""
    with flint.ctx.workprec(200):
        c = flint.arb(2).log() / (1 << _TABLE_BITS)
        c1 = float(c.mid())
        c2 = float((c - c1).mid())
        c3 = float((c - c1 - c2).mid())
        hi, lo = np.empty(1 << _TABLE_BITS), np.empty(1 << _TABLE_BITS)
        for j in range(1 << _TABLE_BITS):
            v = (flint.arb(j) / (1 << _TABLE_BITS) * flint.arb(2).log()).exp()
            hi[j] = float(v.mid())
            lo[j] = float((v - hi[j]).mid())
    return (c1, c2, c3), hi, lo


_LN2_256, _TABLE_HI, _TABLE_LO = _constants()
_INV_FACT = [1.0 / math.factorial(k) for k in range(10)]
_INV_FACT_DD = [reciprocal_dd(math.factorial(k)) for k in range(5)]


def exp_neg(ah, al):
    """(hi, lo, relbound) of exp(-(ah + al)) for ah + al >= 0 (module docstring).

    ``relbound`` is the relative error bound (50 u^2 + (argument's own error:
    callers add it)); entries with ah > 700 are 0 (see the module docstring).
    """
    c1, c2, c3 = _LN2_256
    big = ah > _EXP_CUT
    ah = np.where(big, 0.0, ah)
    al = np.where(big, 0.0, al)
    N = -np.rint(ah / c1)                                   # -a = N c + r
    p1, e1 = two_prod(N, np.full_like(N, c1))               # N c1 exactly
    nc_hi, nc_lo = _fast_two_sum(p1, e1 + N * c2 + N * c3)
    rh, rl = dd_add(-ah, -al, -nc_hi, -nc_lo)
    tail = _INV_FACT[9]
    for k in (8, 7, 6, 5):
        tail = tail * rh + _INV_FACT[k]
    h, l = tail * rh, np.zeros_like(rh)                     # r^5 P(r) / r^4, P in float64
    for k in (4, 3, 2, 1, 0):                               # DD Horner: ((P r + 1/24) r + ...) + 1
        h, l = dd_add(h, l, _INV_FACT_DD[k][0], _INV_FACT_DD[k][1])
        if k:
            h, l = dd_mul(h, l, rh, rl)
    Ni = N.astype(np.int64)
    j = np.mod(Ni, 1 << _TABLE_BITS)
    q = (Ni - j) >> _TABLE_BITS
    h, l = dd_mul(h, l, _TABLE_HI[j], _TABLE_LO[j])
    h, l = np.ldexp(h, q), np.ldexp(l, q)
    h[big], l[big] = 0.0, 0.0
    return h, l, big


# ----------------------------------------------------------------------------- kernels
def _sq_distances_dd(X, Z):
    """DD ||x - z||^2 row by row of X, Z (same shape), relative error <= (3m+5) u^2."""
    dh = dl = None
    for k in range(X.shape[1]):
        s, e = two_sum(X[:, k], -Z[:, k])
        sh, sl = dd_mul(s, e, s, e)
        dh, dl = (sh, sl) if dh is None else dd_add(dh, dl, sh, sl)
    return dh, dl


def _pairs(X, Z, symmetric):
    n, m = X.shape[0], Z.shape[0]
    if symmetric:
        i, j = np.triu_indices(n)
    else:
        i, j = np.divmod(np.arange(n * m), m)
    return i, j


def _scatter(vals, i, j, shape, symmetric):
    out = np.empty(shape)
    out[i, j] = vals
    if symmetric:
        out[j, i] = vals
    return out


def _flush_tiny(h, l, bound):
    """lo := 0 (its size added to the bound) where hi < 2^-900: no subnormal pieces, which the
    exact splittings of the reference solve do not take."""
    tiny = np.abs(h) < _TINY
    return h, np.where(tiny, 0.0, l), np.where(tiny, bound + np.abs(l), bound)


def rbf_dd(X, Z=None, sigma2=1.0) -> DD:
    """exp(-||x - z||^2 / sigma2) of float64 X (n, m), Z (p, m) in DD, with its error bound.

    Parameters
    ----------
    X : (n, m) array of float64, Z : (p, m) array of float64 or None (Z = X, symmetric)
    sigma2 : float > 0

    Returns
    -------
    DD
        ``bound`` = 2 ((3 m + 9) a + 50) u^2 K elementwise (module docstring), a = d / sigma2.
    """
    X = np.asarray(X, dtype=np.float64)
    symmetric = Z is None
    Z = X if symmetric else np.asarray(Z, dtype=np.float64)
    i, j = _pairs(X, Z, symmetric)
    dh, dl = _sq_distances_dd(X[i], Z[j])
    ah, al = dd_div_float(dh, dl, np.float64(sigma2))
    h, l, big = exp_neg(ah, al)
    m = X.shape[1]
    rel = 2.0 * ((3 * m + 9) * ah + 50.0) * U2
    bound = np.where(big, math.exp(-_EXP_CUT), rel * h)
    h, l, bound = _flush_tiny(h, l, bound)
    shape = (X.shape[0], Z.shape[0])
    return DD(_scatter(h, i, j, shape, symmetric), _scatter(l, i, j, shape, symmetric),
              _scatter(bound, i, j, shape, symmetric))


def linear_dd(X, Z=None) -> DD:
    """x . z in DD with bound 2 (3 m + 5) u^2 sum_k |x_k z_k| (module docstring)."""
    X = np.asarray(X, dtype=np.float64)
    Z = X if Z is None else np.asarray(Z, dtype=np.float64)
    hi = lo = None
    absum = np.zeros((X.shape[0], Z.shape[0]))
    for k in range(X.shape[1]):
        p, e = two_prod(X[:, k, None], Z[None, :, k])
        absum += np.abs(p)
        hi, lo = (p, e) if hi is None else dd_add(hi, lo, p, e)
    bound = 2.0 * (3 * X.shape[1] + 5) * U2 * absum * (1 + 1e-10)
    return DD(*_flush_tiny(hi, lo, bound))


def kernel_dd(kernel, X, Z=None) -> DD:
    """The kernel matrix of a :class:`~lssvm_analysis.linalg.kernels.Kernel` in DD.

    Raises
    ------
    NotImplementedError
        For a kernel without a DD evaluation here (the polynomial kernel).
    """
    if kernel.name == "rbf":
        return rbf_dd(X, Z, kernel.params["sigma2"])
    if kernel.name == "linear":
        return linear_dd(X, Z)
    raise NotImplementedError(f"expected a kernel with a double-double evaluation ('rbf', 'linear'), "
                              f"got kernel={kernel.name!r}")
