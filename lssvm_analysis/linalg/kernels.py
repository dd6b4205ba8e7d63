"""Kernel functions computed in a given precision.

RBF is K(x, z) = exp(-||x - z||^2 / sigma2): Suykens' book's sigma^2 and
scikit-learn's ``gamma = 1 / sigma2``.  LS-SVMlab's *help text* states the same
formula, but its code (``RBF_kernel`` called by ``trainlssvm`` / ``simlssvm``)
computes exp(-||x - z||^2 / (2 sig2)): a ``sig2`` carried over from LS-SVMlab
must be doubled, ``sigma2 = from_lssvmlab(sig2) = 2 sig2``, or the model
differs (:func:`from_lssvmlab`, :func:`to_lssvmlab`).  The squared distances
of the RBF kernel are formed in one of two ways (``RBF_FORMATIONS``, ``"gemm"`` the default,
``"differences"``), described with their error bounds in :mod:`.rbf_formation`; their names
are importable from here as well.
"""
from __future__ import annotations

import contextlib
import contextvars
import numbers
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
from numpy.typing import ArrayLike
from ..arith.base import Precision

from ..core.validation import all_finite, as_matrix, check_finite, check_int, check_positive, short_repr
from ..core.memo import array_key, scoped
from .memory import bytes_per_word
from ..arith.precision import get_precision
from ._kernels_flint import rbf as rbf_flint
from .rbf_formation import (KERNEL_PEAKS, RBF_FORMATIONS, SQUARE_KERNEL_PEAKS, check_formation, gemm_exponent_bound,
                            gemm_tolerance, kernel_inputs, rbf_error_bound, rbf_gemm, sq_distances)

__all__ = ["rbf_kernel", "linear_kernel", "poly_kernel", "Kernel", "PrecomputedKernel", "make_kernel", "KERNELS",
           "from_lssvmlab", "to_lssvmlab", "RBF_FORMATIONS", "rbf_error_bound", "KERNEL_PEAKS", "SQUARE_KERNEL_PEAKS",
           "kernel_memo", "KERNEL_MEMO_BYTES", "active_memo", "gemm_tolerance", "gemm_exponent_bound",
           "kernel_error_bound", "MEANINGLESS_KERNEL_BOUND", "sq_distances"]


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



def _check_out(out, shape, p):
    if not isinstance(out, np.ndarray):
        raise TypeError(f"expected None or a numpy array of shape {shape} and dtype {p.dtype} for out, "
                        f"got out={short_repr(out)}")
    if not (out.shape == shape and out.dtype == p.dtype):
        raise ValueError(f"expected out of shape {shape} and dtype {p.dtype}, "
                         f"got out.shape={out.shape}, out.dtype={out.dtype}")
    if out.ndim == 2 and out.strides[1] != out.itemsize:
        raise ValueError(f"expected out with contiguous rows, got out.strides={out.strides}")




def rbf_kernel(X: ArrayLike, Z: ArrayLike | None = None, sigma2: float = 1.0, precision: str | Precision = "float64",
               *, formation: str = "gemm", out: np.ndarray | None = None) -> np.ndarray:
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
    check_formation(formation)
    p = get_precision(precision)
    s = _check_sigma2(sigma2, p)  # positive, and still positive and finite in the precision
    Xp, Zp = kernel_inputs(X, Z, p, formation=formation)
    shape = (Xp.shape[0], Zp.shape[0])
    if out is not None:
        _check_out(out, shape, p)
    if formation == "gemm" and p.hardware:
        # K(X, X) passed as two arguments is the symmetric K(X): the same numbers bit for bit
        same = Z is None or Zp is Xp or (Zp.shape == Xp.shape and np.array_equal(Zp, Xp))
        K = rbf_gemm(Xp, None if same else Zp, sigma2, p,
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


def linear_kernel(X: ArrayLike, Z: ArrayLike | None = None, precision: str | Precision = "float64") -> np.ndarray:
    """Linear kernel x^T z."""
    p = get_precision(precision)
    Xp, Zp = kernel_inputs(X, Z, p)
    with np.errstate(over="ignore", invalid="ignore"):
        return _check_product_kernel(Xp @ Zp.T, "linear", Z)


def poly_kernel(X: ArrayLike, Z: ArrayLike | None = None, degree: int = 3, t: float = 1.0,
                precision: str | Precision = "float64") -> np.ndarray:
    """Polynomial kernel (x^T z + t)^degree (Suykens eq. 2.x, t >= 0)."""
    check_int("degree", degree, minimum=1)
    _check_t(t)
    p = get_precision(precision)
    Xp, Zp = kernel_inputs(X, Z, p)
    with np.errstate(over="ignore", invalid="ignore"):
        base = Xp @ Zp.T + p.scalar(t)
        try:
            K = base ** int(degree)
        except OverflowError:  # numpy < 2 (and mpf) raise instead of giving inf: the same refusal
            K = np.full(base.shape, np.inf)
        return _check_product_kernel(K, "polynomial", Z, degree)


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
        if not isinstance(self.params, Mapping):   # a str was "string indices must be integers"
            raise TypeError(f"expected a mapping of the {self.name} kernel's parameters for params, "
                            f"got params={short_repr(self.params)}")
        allowed = KERNELS[self.name][1]
        extra = sorted(set(self.params) - set(allowed))
        if extra:
            raise ValueError(f"expected parameters among {allowed} for the {self.name} kernel, "
                             f"got {extra[0]}={self.params[extra[0]]!r}")
        check_formation(self.formation)

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
        steps :func:`rbf_kernel` runs after its checks (:func:`rbf_gemm`, the same arguments),
        so the matrix is bit for bit ``self(X, Z)``; any other kernel is ``self(X, Z)``.
        """
        if not self.unit_diagonal or self.formation != "gemm":
            return self(X, Z)
        p = get_precision("float64")
        same = Z is None or Z is X or (Z.shape == X.shape and np.array_equal(Z, X))
        m = X.shape[0] if Z is None else Z.shape[0]
        K = rbf_gemm(X, None if same else Z, p.scalar(self.params["sigma2"]), p,
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


def make_kernel(kernel: str | Kernel = "rbf", *, sigma2: float = 1.0, degree: int = 3, t: float = 1.0,
                formation: str = "gemm") -> Kernel:
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
    check_formation(formation)
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
