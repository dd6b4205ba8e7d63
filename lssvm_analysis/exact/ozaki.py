"""Error-free float64 transformations: exact matrix products by Ozaki splitting, exact sums.

:mod:`lssvm_analysis.analysis.reference` certifies solutions of A x = b to 30+
digits.  It needs residuals b - A x to ~200 bits and the defect I - R A of an
approximate inverse well below 1; ball arithmetic does both rigorously but
costs O(n^2) (residual) and O(n^3) (defect) Python-level ball operations plus
the conversion of A (0.45 s per 10^6 entries).  Here both run as float64 BLAS
products whose rounding is either absent (proved exact) or bounded a priori.

Splitting (ExtractScalar of Rump, Ogita & Oishi 2008, Lemma 3.3; Ozaki,
Ogita, Oishi & Rump 2012)
    Let max_j |M_ij| < 2^e_i (``frexp``), beta the slice width, unit_s =
    e_i - s beta, and M^(0) = M.  K_s = rint(M^(s-1) 2^-unit_s) is the nearest
    integer (the scaling by a power of two is exact; a scaled value that
    underflows is below 1/2 and rounds to 0 either way) and M^(s) = M^(s-1) -
    2^unit_s K_s is exact: when ulp(M_ij) >= 2^unit the entry is already an
    integer multiple and the difference is 0; otherwise both terms are
    multiples of ulp(M_ij) and |M_ij - 2^unit K_ij| <= |M_ij|, so the
    difference is a float.  Hence M = sum_{s<=S} 2^unit_s K_s + M^(S) exactly,
    |K_1| <= 2^beta, |K_s| <= 2^(beta-1) (s >= 2) and |M^(S)| <= 2^(unit_S - 1).
Exact products
    If |K| <= 2^a and |Y| <= 2^c hold integers and n 2^(a+c) <= 2^53, every
    product and partial sum of K @ Y (n terms) is an integer of magnitude <=
    2^53, hence exact in float64 whatever the summation order, blocking or use
    of FMA.  This assumes a BLAS that forms inner products from multiplications
    and additions (OpenBLAS, MKL, BLIS), not Strassen-type algorithms.  The
    scaling by 2^(unit_i + v_j) is exact because every exponent is kept in
    ``EXP_RANGE`` (checked; :class:`OutOfRange` otherwise).
Inexact products
    |fl(L M) - L M| <= gamma_n |L||M| with gamma_n = n u / (1 - n u), u = 2^-53
    (Higham, *Accuracy and Stability*, 2nd ed., eq. 3.13, any order, FMA or
    not), plus n 2^-1074 per entry for gradual underflow.
Exact sums (Ogita, Rump & Oishi 2005, Algorithms 3.1 TwoSum and 4.3 VecSum)
    TwoSum(a, b) = (s, e) with s = fl(a + b) and s + e = a + b exactly (round
    to nearest, no overflow, any underflow).  VecSum passes keep the exact sum
    of the terms and move it into the last one; the final recursive sum of
    the m terms has error <= gamma_{m-1} sum |p_i| (Higham eq. 4.4), the
    radius returned.
Bounds
    A non-negative quantity evaluated in float64 by k operations (products
    and sums of non-negative numbers, each exact up to a factor 1 - u) is
    below the exact value by a factor (1 - u)^k at most, and (1 - u)^-k <=
    exp(k u / (1 - u)) <= 1 + 3 k u for k u <= 1: multiplying by ``safe(k +
    1)`` covers it and the multiplication's own rounding.  Radii (terms ~2^-50
    of the result) use ``SAFE`` = 1 + 2^-20 = safe-enough for k <= 2^30.
    Underflow in such evaluations loses at most 2^-1074 per operation:
    ``TINY`` = 2^-1000 added to a final norm covers 2^74 of them.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["EXP_RANGE", "SAFE", "TINY", "Defect", "FixedPoint", "OutOfRange", "Split", "U", "distill", "dot",
           "gamma", "inverse_defect", "pieces_of_sum", "product_terms", "pow2", "residual", "safe", "slice_bits",
           "split_rows", "two_sum", "up"]

U = 2.0 ** -53
SAFE = 1.0 + 2.0 ** -20
TINY = 2.0 ** -1000
#: every exponent of a power-of-two scaling, and of scaled integers below 2^53, stays in here
EXP_RANGE = (-1020, 900)


class OutOfRange(ArithmeticError):
    """A scaling would leave the range where float64 represents the slices exactly."""


def up(q: Fraction) -> float:
    """The smallest float >= the rational q."""
    f = float(q)
    return f if Fraction(f) >= q else math.nextafter(f, math.inf)


def safe(k: int) -> float:
    """A float >= 1 + 3 k u >= (1 - u)^-k (k u <= 1): covers k roundings of non-negative terms."""
    return up(1 + Fraction(3 * k, 2 ** 53))


def gamma(n: int) -> float:
    """A float >= gamma_n = n u / (1 - n u) (u = 2^-53), for n u < 1/2."""
    if n * U >= 0.5:
        raise ValueError(f"expected n u < 1/2, got n={n}")
    return up(Fraction(n, 2 ** 53 - n))


def pow2(e) -> np.ndarray:
    """2.0 ** e for an int array e (exact inside EXP_RANGE)."""
    return np.ldexp(1.0, np.asarray(e, dtype=np.int64))


def _check_range(lo: int, hi: int, what: str) -> None:
    if lo < EXP_RANGE[0] or hi > EXP_RANGE[1]:
        raise OutOfRange(f"expected {what} exponents in {EXP_RANGE}, got [{lo}, {hi}]")


def slice_bits(n: int) -> tuple:
    """(a, c): integers |K| <= 2^a, |Y| <= 2^c give exact n-term inner products (a + c + log2 n <= 53)."""
    room = 53 - max(1, math.ceil(math.log2(n)))
    return (room + 1) // 2, room // 2


# ----------------------------------------------------------------------------- splitting
@dataclass(frozen=True, eq=False)
class Split:
    """M = sum_s 2^units[s][i] ints[s] + rest (exponents per row), exactly."""

    M: np.ndarray
    ints: tuple       # integer-valued float64 (n, m) arrays, |ints[0]| <= 2^beta, others <= 2^(beta-1)
    units: tuple      # int64 (n,) exponents
    rest: np.ndarray | None
    beta: int

    def scaled(self, s: int) -> np.ndarray:
        """The float64 slice 2^units[s] ints[s] (exact)."""
        return self.ints[s] * pow2(self.units[s])[:, None]

    def remainder(self, s: int) -> np.ndarray:
        """M minus its first s slices (exact float64, as during the splitting)."""
        R = self.M.copy()
        for t in range(min(s, len(self.ints))):
            R -= self.scaled(t)
        return R


def split_rows(M: np.ndarray, beta: int, levels: int, *, block: int = 256) -> Split:
    """Ozaki splitting of each row of M into at most ``levels`` slices of ``beta`` bits.

    Stops at the first level where every remainder is 0 (``rest`` None);
    otherwise ``rest`` holds M^(levels).  Rows are processed by blocks, so the
    temporaries stay in cache.  Raises :class:`OutOfRange` if the scalings
    would leave ``EXP_RANGE``.
    """
    n, m = M.shape
    with np.errstate(all="ignore"):
        e = np.frexp(np.abs(M).max(axis=1))[1].astype(np.int64)  # |M_ij| < 2^e_i
    _check_range(int(e.min()) - levels * beta, int(e.max()), "splitting")
    ints, rest = [], None
    for i0 in range(0, n, block):
        i1 = min(n, i0 + block)
        rem = M[i0:i1].copy()
        for s in range(levels):
            if s == len(ints):
                ints.append(np.zeros((n, m)))
            unit = e[i0:i1] - (s + 1) * beta
            K = ints[s][i0:i1]
            np.multiply(rem, pow2(-unit)[:, None], out=K)
            np.rint(K, out=K)
            rem -= K * pow2(unit)[:, None]
            if not rem.any():
                break
        else:
            if rest is None:
                rest = np.zeros((n, m))
            rest[i0:i1] = rem
    units = tuple(e - (s + 1) * beta for s in range(len(ints)))
    return Split(M, tuple(ints), units, rest, beta)


# ----------------------------------------------------------------------------- fixed point
class FixedPoint:
    """An (n, k) iterate held exactly as X = sum_t 2^v[t, j] Y[t, :, j] (limbs of ``beta`` bits).

    Y holds integers (as float64) with |Y[t]| <= 2^(beta-1) for t >= 1 and
    |Y[0]| <= 2^beta; v[t] = v[0] - t beta.  ``add`` rounds a correction to the
    grid of the last limb and adds it exactly (integer carries), so the
    iterate is known exactly while it is refined.
    """

    def __init__(self, X0: np.ndarray, beta: int, limbs: int):
        with np.errstate(all="ignore"):
            top = np.frexp(np.abs(X0).max(axis=0))[1].astype(np.int64)   # |X0_j| < 2^top_j
        self.beta = beta
        self.v = top[None, :] - beta * np.arange(1, limbs + 1, dtype=np.int64)[:, None]
        self.Y = np.zeros((limbs,) + X0.shape)
        self.add(X0)

    @property
    def shape(self) -> tuple:
        return self.Y.shape[1:]

    def add(self, D: np.ndarray) -> None:
        """X <- X + D rounded to the grid 2^v[-1] (exact integer arithmetic)."""
        big = np.abs(D).max(axis=0)
        while np.any(big >= pow2(self.v[0] + self.beta - 1)):
            self._grow()
        _check_range(int(self.v.min()), int(self.v.max()) + self.beta, "iterate")
        rem = D.copy()
        for t in range(self.Y.shape[0]):
            c = np.rint(rem * pow2(-self.v[t])[None, :])
            rem -= c * pow2(self.v[t])[None, :]
            self.Y[t] += c
        self._normalize()

    def _grow(self) -> None:
        """Prepend a zero limb one beta above (the value is unchanged)."""
        self.v = np.vstack([self.v[:1] + self.beta, self.v])
        self.Y = np.concatenate([np.zeros((1,) + self.Y.shape[1:]), self.Y])

    def _normalize(self) -> None:
        """Carry so that |Y[t]| <= 2^(beta-1) for t >= 1 and |Y[0]| <= 2^beta (exact)."""
        b = float(2.0 ** self.beta)
        while True:
            for t in range(self.Y.shape[0] - 1, 0, -1):
                carry = np.rint(self.Y[t] / b)
                self.Y[t] -= carry * b
                self.Y[t - 1] += carry
            if np.abs(self.Y[0]).max() <= b:
                return
            self._grow()

    def used(self) -> int:
        """Limbs up to the last non-zero one."""
        nz = np.flatnonzero(np.abs(self.Y).reshape(self.Y.shape[0], -1).max(axis=1))
        return int(nz[-1]) + 1 if nz.size else 0

    def approx(self) -> np.ndarray:
        """X rounded (not exactly) to float64."""
        out = np.zeros(self.shape)
        for t in range(self.Y.shape[0] - 1, -1, -1):
            out += self.Y[t] * pow2(self.v[t])[None, :]
        return out

    def exact(self) -> list:
        """Row-major list of (m, e) with X_ij = m 2^e exactly (Python ints)."""
        T, n, k = self.Y.shape
        limbs = self.Y.astype(np.int64).reshape(T, n * k).T.tolist()
        e = self.v[-1].tolist()
        out = []
        for idx, row in enumerate(limbs):
            m = 0
            for y in row:
                m = (m << self.beta) + y
            out.append((m, e[idx % k]))
        return out


# ----------------------------------------------------------------------------- sums
def two_sum(a, b):
    """(s, e) with s = fl(a + b) and a + b = s + e exactly (Knuth's TwoSum, elementwise)."""
    s = a + b
    z = s - a
    return s, (a - (s - z)) + (b - z)


def _vec_sum_pass(P: np.ndarray, m: int) -> None:
    """One error-free VecSum pass over the first m rows of P, in place: the exact sum is kept and
    the recursive float64 sum of the rows lands in row m - 1."""
    for i in range(1, m):
        P[i], P[i - 1] = two_sum(P[i], P[i - 1])


def distill(P: np.ndarray, *, max_passes: int = 8):
    """(hi, lo, rad): the sum of the rows of P (m, N) as hi + lo, |exact - hi - lo| <= rad.

    VecSum passes (error-free) until the other terms are below 2^-40 of the
    last one (or ``max_passes``); hi is the last term, lo the recursive sum
    of the others, rad = gamma_{m-2} sum_{i<m} |p_i| / (1 - gamma_{m-2})
    (Higham eq. 4.4 for the m - 1 others, their absolute sum rounded down at
    most by that factor), times SAFE.
    """
    m = P.shape[0]
    if m == 1:
        return P[0].copy(), np.zeros_like(P[0]), np.zeros_like(P[0])
    P = P.copy()
    for _ in range(max_passes):
        _vec_sum_pass(P, m)
        if np.all(np.abs(P[:-1]).sum(axis=0) <= 2.0 ** -40 * np.abs(P[-1])):
            break
    lo = P[0].copy()
    for i in range(1, m - 1):
        lo += P[i]
    g = Fraction(gamma(max(m - 2, 1)))
    c = up(g / (1 - g) / (1 - Fraction(U)))
    return P[-1].copy(), lo, c * np.abs(P[:-1]).sum(axis=0) * SAFE


# ----------------------------------------------------------------------------- residual
def residual(splits: list, B_pieces: list, X: FixedPoint):
    """(hi, lo, rad): B - A X = hi + lo + d with |d| <= rad entrywise (all (n, k) float64).

    A = sum of the split pieces (exact), B = sum of ``B_pieces`` (exact), X
    exact.  Products of slices and limbs are exact; a split's ``rest`` is
    multiplied in float64 with the gamma_n bound.  Raises OutOfRange.
    """
    n, k = X.shape
    T = max(X.used(), 1)
    Yc = np.ascontiguousarray(X.Y[:T].transpose(1, 0, 2).reshape(n, T * k))
    if np.abs(Yc).max() > 2.0 ** X.beta:
        raise OutOfRange("iterate limbs too wide for exact products")
    v = X.v[:T]                                                   # (T, k)
    sv = pow2(v)[None, :, :]
    terms = [np.asarray(b, dtype=np.float64).reshape(n, k) for b in B_pieces]
    rad_rest = np.zeros((n, k))
    for sp in splits:
        if sp.beta + X.beta + math.ceil(math.log2(max(n, 2))) > 53:
            raise OutOfRange("slices too wide for exact products")
        for K, u in zip(sp.ints, sp.units):
            _check_range(int(u.min()) + int(v.min()), int(u.max()) + int(v.max()) + 53, "residual")
            P = (K @ Yc).reshape(n, T, k)
            P *= pow2(u)[:, None, None]
            P *= sv
            terms.extend(-P[:, t, :] for t in range(T))
        if sp.rest is not None:
            G = (sp.rest @ Yc).reshape(n, T, k) * sv
            terms.extend(-G[:, t, :] for t in range(T))
            # Y holds integers: products with the float rest cannot underflow inexactly
            colsum = (np.abs(Yc).sum(axis=0).reshape(T, k) * pow2(v)).sum(axis=0)   # (k,)
            rad_rest += (gamma(n) * SAFE) * np.abs(sp.rest).max(axis=1)[:, None] * colsum[None, :]
    hi, lo, rad = distill(np.stack(terms).reshape(len(terms), n * k))
    return hi.reshape(n, k), lo.reshape(n, k), rad.reshape(n, k) + rad_rest * SAFE


# ----------------------------------------------------------------------------- products
def _tails(Rcols: Split, L: int) -> dict:
    """{t: R_{>t}} for t <= L (R_{>0} = R): the right operand minus its first t column slices."""
    tails = {t: Rcols.remainder(t).T for t in range(1, L + 1)}
    tails[0] = Rcols.M.T
    return tails


def _scheme(Lsp: Split, Rcols: Split, L: int, tails: dict, rows: slice):
    """Yield (P, left, t) for rows ``rows`` of Ozaki's product Lsp.M @ Rcols.M.T, ``L`` levels.

    ``Rcols`` splits the rows of the right operand's transpose (its columns),
    ``tails`` is ``_tails(Rcols, L)``.  With slices L_s, R_t and remainders
    R_{>t} (exact):

        Lsp.M @ Rcols.M.T = sum_{s+t<=L+1} L_s R_t + sum_{s<=L} L_s R_{>L+1-s} + L_{>L} R

    The first sum is exact (``left`` None); the other products are computed
    in float64 and yielded with their left operand and the index t of
    ``tails[t]``, for the gamma_n bound.
    """
    a_bits, c_bits = slice_bits(Rcols.M.shape[1])
    if Lsp.beta > c_bits or Rcols.beta > a_bits:
        raise OutOfRange("slices too wide for exact products")
    for s in range(len(Lsp.ints)):
        K, uL = Lsp.ints[s][rows], Lsp.units[s][rows]
        for t in range(max(0, min(L - s, len(Rcols.ints)))):
            uR = Rcols.units[t]
            _check_range(int(uL.min()) + int(uR.min()), int(uL.max()) + int(uR.max()) + 53, "product")
            P = K @ Rcols.ints[t].T
            P *= pow2(uL)[:, None]
            P *= pow2(uR)[None, :]
            yield P, None, None
        t = max(L - s, 0)
        if t == 0 or t < len(Rcols.ints) or Rcols.rest is not None:   # R_{>t} != 0
            Ls = K * pow2(uL)[:, None]
            yield Ls @ tails[t], Ls, t
    if Lsp.rest is not None:
        Lr = Lsp.rest[rows]
        yield Lr @ tails[0], Lr, 0


def dot(Lsps: list, F: np.ndarray, *, levels: int = 2) -> np.ndarray:
    """(sum of the split matrices) @ F, accurate to about gamma_n 2^-(levels beta) |L||F|.

    Ozaki's scheme with F split by columns; the products are summed by
    ``distill``.  Not a bound: used for refinement corrections, where
    fl(R @ F) would lose n u |R||F| (kappa u relative for R ~ A^-1).
    """
    a_bits, _ = slice_bits(F.shape[0])
    Fcols = split_rows(np.ascontiguousarray(F.T), a_bits, levels)
    tails, rows = _tails(Fcols, levels), slice(None)
    terms = [P for Lsp in Lsps for P, _, _ in _scheme(Lsp, Fcols, levels, tails, rows)]
    hi, lo, _ = distill(np.stack(terms).reshape(len(terms), -1))
    return (hi + lo).reshape(F.shape)


def product_terms(L: np.ndarray, R: np.ndarray, *, levels: int = 3) -> tuple:
    """(terms, rad): float64 (n, k) arrays whose sum is within ``rad`` of L @ R, entrywise.

    Ozaki's scheme (:func:`_scheme`) with ``levels`` slices of each operand:
    the slice products with s + t <= levels + 1 are exact, each remaining
    product left_s @ R_{>t} is one term with |error| <= gamma_N |left_s| |R_{>t}|
    <= gamma_N max_j |left_ij| sum_j |R_{>t}|_jc (a rank-one bound, no second
    product), plus N 2^-1074 for gradual underflow (``TINY`` covers it).
    With slices of ~21 bits (N = 1000) the inexact terms are below
    2^-(levels + 1) 21 of |L| |R|.  Raises :class:`OutOfRange`.
    """
    n, N = L.shape
    a_bits, c_bits = slice_bits(N)
    Lsp = split_rows(np.ascontiguousarray(L), c_bits, levels)
    Rcols = split_rows(np.ascontiguousarray(R.T), a_bits, levels)
    tails = _tails(Rcols, levels)
    terms, rad = [], np.zeros((n, R.shape[1]))
    g = gamma(N) * SAFE
    for P, left, t in _scheme(Lsp, Rcols, levels, tails, slice(None)):
        terms.append(P)
        if left is not None:
            rad += g * np.abs(left).max(axis=1)[:, None] * np.abs(tails[t]).sum(axis=0)[None, :]
    return terms, rad * SAFE + TINY


def pieces_of_sum(terms: list, *, count: int = 3) -> tuple:
    """(pieces, rad): ``count`` float64 arrays whose sum is within ``rad`` of sum(terms), entrywise.

    ``count - 1`` VecSum passes (error-free: the terms keep their exact sum),
    each moving the recursive float64 sum of what is left into one piece; the
    last piece is the recursive sum of the rest, |error| <= gamma_{m-1} sum |p_i|
    (Higham eq. 4.4; m the terms left), times ``safe(m)`` for the bound's own
    evaluation, plus ``TINY`` (gradual underflow).  Each pass leaves terms of
    the size of the previous one's rounding, so the radius is ~ m u^count
    sum |terms|.
    """
    shape = np.shape(terms[0])
    P = np.empty((len(terms), int(np.prod(shape))))
    for i, t in enumerate(terms):
        P[i] = np.ravel(t)
    pieces, m = [], P.shape[0]
    for _ in range(count - 1):
        if m == 1:
            break
        _vec_sum_pass(P, m)
        m -= 1
        pieces.append(P[m].reshape(shape))
    last, absum = P[0].copy(), np.abs(P[0])
    for i in range(1, m):
        last += P[i]
        absum += np.abs(P[i])
    rad = gamma(max(m - 1, 1)) * safe(m) * absum + TINY
    return pieces + [last.reshape(shape)], rad.reshape(shape)


@dataclass(frozen=True, eq=False)
class Defect:
    """Result of ``inverse_defect``: E ~ I - R A and rigorous bounds.

    ``delta`` >= ||I - R A||_inf; ``err`` >= ||(I - R A) - E||_inf (both
    floats, rounded up).
    """

    E: np.ndarray
    delta: float
    err: float


def inverse_defect(A_cols: Split, extras: list, Rs: list, *, levels: int = 2,
                   block: int = 128) -> Defect:
    """Rigorous bounds on ||I - R A||_inf and E ~ I - R A (float64, compensated).

    A = A_cols.M.T + sum(extras), ``A_cols`` splitting the columns of A (the
    rows of A^T); R = sum of the row splittings ``Rs`` (``beta`` <= the second
    of ``slice_bits(n)``).  The products P_1..P_m of ``_scheme`` (and fl(R_k
    X) for the extras X) are subtracted from I by TwoSum: H_k, e_k =
    TwoSum(H_{k-1}, -P_k) with H_0 = I, so that I - sum P_k = H_m + sum e_k
    exactly; the e_k are summed recursively into T and E = fl(H_m + T).  With
    the inexact products L M (tails), row by row

        sum_j |(I - R A) - E|_ij <= 2u sum_j |E_ij| + gamma_m sum_k sum_j |e_k|_ij
                                    + gamma_n sum_tails (|L| (|M| 1))_i   =: err_i

    (fl(H + T), |x - fl(x)| <= u |fl(x)|; recursive summation, Higham eq.
    4.4; the tails, eq. 3.13), so ||I - R A||_inf <= max_i (sum_j |E_ij| +
    err_i) = delta, evaluated with the ``safe`` factor and TINY slack of the
    module docstring.  The compensated E is accurate to about u |E| + n u
    2^-(2 beta) |R||A|, which the refinement's Neumann corrections need
    (plain summation would leave u |R_1 A_1|, about 2^-beta kappa u per
    entry).  Rows are processed by blocks (every temporary is ``block`` x n).
    """
    n = A_cols.M.shape[0]
    tails = _tails(A_cols, levels)
    for i, X in enumerate(extras):
        tails[("x", i)] = X
    tail_rows = {t: np.abs(M).sum(axis=1) for t, M in tails.items()}
    E, rows_E, rows_err, m = np.empty((n, n)), np.empty(n), np.empty(n), 0
    for i0 in range(0, n, block):
        rows = slice(i0, min(n, i0 + block))
        b = rows.stop - i0
        H, T = np.zeros((b, n)), np.zeros((b, n))
        H[np.arange(b), np.arange(i0, i0 + b)] = 1.0
        s_err, s_inexact, m = np.zeros(b), np.zeros(b), 0
        products = itertools.chain(
            (p for Rsp in Rs for p in _scheme(Rsp, A_cols, levels, tails, rows)),
            ((Rsp.M[rows] @ X, Rsp.M[rows], ("x", i)) for i, X in enumerate(extras) for Rsp in Rs))
        for P, left, t in products:
            np.negative(P, out=P)
            H, e = two_sum(H, P)
            T += e
            s_err += np.abs(e).sum(axis=1)
            m += 1
            if left is not None:
                s_inexact += np.abs(left) @ tail_rows[t]
        E[rows] = H + T
        rows_E[rows] = np.abs(E[rows]).sum(axis=1)
        rows_err[rows] = 2 * U * rows_E[rows] + gamma(n) * s_inexact + gamma(max(m, 1)) * s_err
    f = safe(4 * n + 21)                        # each entry: <= 4 n + 20 operations
    with np.errstate(over="ignore", invalid="ignore"):
        delta = float((rows_E + rows_err).max()) * f + TINY
        err = float(rows_err.max()) * f + TINY
    finite = math.isfinite(delta) and math.isfinite(err)
    return Defect(E, delta if finite else math.inf, err if finite else math.inf)
