"""Kernel functions computed in a given precision.

RBF is K(x, z) = exp(-||x - z||^2 / sigma2): Suykens' book's sigma^2 (eq. 2.x)
and scikit-learn's ``gamma = 1 / sigma2``.  LS-SVMlab's *help text* states
the same formula, but its code (``RBF_kernel`` called by ``trainlssvm`` /
``simlssvm``) computes exp(-||x - z||^2 / (2 sig2)): a ``sig2`` carried over
from LS-SVMlab must be doubled, ``sigma2 = from_lssvmlab(sig2) = 2 sig2``,
or the model differs (:func:`from_lssvmlab`, :func:`to_lssvmlab`).  Squared distances
are summed feature by feature from the differences, so every term is >= 0 and
the sum has relative error <= gamma_{d+2} ~ (d + 2) u (one rounding in the
difference, doubled by the square, one in the square, d - 1 in the sum):
unlike ||x||^2 + ||z||^2 - 2 x.z there is no cancellation, and K(x, x) = 1
exactly.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ._validation import _all_finite, _short, as_matrix, check_finite, check_int, check_positive, \
    check_representable
from .memory import ensure_memory
from .precision import get_precision

__all__ = ["rbf_kernel", "linear_kernel", "poly_kernel", "Kernel", "make_kernel", "KERNELS",
           "from_lssvmlab", "to_lssvmlab"]


#: Peak words of a kernel evaluation per entry of the n x m result: the sum D,
#: the difference, its square and the scaled exponent argument.
_KERNEL_WORDS = 3


def _inputs(X, Z, p):
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
    ensure_memory(X.shape[0], _KERNEL_WORDS * X.shape[0] * Z.shape[0], p, what="kernel matrix")
    return p.asarray(X), p.asarray(Z)


def _check_sigma2(sigma2, p):
    """sigma2 > 0 and, once rounded to the precision, still positive and finite."""
    check_positive("sigma2", sigma2)
    s = p.scalar(sigma2)
    if not (_all_finite(np.array([s], dtype=object)) and s > 0):
        raise ValueError(f"expected sigma2 that is positive and finite in {p.name}, got "
                         f"sigma2={sigma2!r} (rounds to {s!r} in {p.name})")
    return s


def _check_product_kernel(K, name, Z):
    """A linear/polynomial kernel that overflowed names the inputs it came from."""
    if not _all_finite(K):
        args = "X" if Z is None else "X and Z"
        raise ValueError(f"expected {args} small enough for the {name} kernel in this precision, got "
                         f"{args} whose {name} kernel overflows to inf (scale {args} down)")
    return K


def _check_t(t):
    if isinstance(t, bool) or not isinstance(t, numbers.Real):
        raise TypeError(f"expected a real number t >= 0 for the polynomial kernel, got t={_short(t)}")
    if not (np.isfinite(float(t)) and t >= 0):
        raise ValueError(f"expected t >= 0 for the polynomial kernel, got t={_short(t)}")
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


def rbf_kernel(X, Z=None, sigma2=1.0, precision="float64") -> np.ndarray:
    """RBF kernel matrix exp(-||x_i - z_j||^2 / sigma2).

    Parameters
    ----------
    X : (n, d) array_like
    Z : (m, d) array_like, optional
        Defaults to X.
    sigma2 : float > 0
        Width sigma^2 (Suykens' sigma^2, Abe's 1/gamma).
    precision : str or Precision

    Returns
    -------
    K : (n, m) ndarray in the precision's dtype
    """
    check_positive("sigma2", sigma2)
    p = get_precision(precision)
    s = _check_sigma2(sigma2, p)
    D = sq_distances(X, Z, p)  # may hold inf (distances beyond the range): exp(-inf) = 0 is right
    return p.exp(-D / s)


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
        return _check_product_kernel((Xp @ Zp.T + p.scalar(t)) ** int(degree), "polynomial", Z)


KERNELS = {"rbf": (rbf_kernel, ("sigma2",)), "linear": (linear_kernel, ()),
           "poly": (poly_kernel, ("degree", "t"))}


@dataclass(frozen=True)
class Kernel:
    """A kernel with its parameters, callable as ``kernel(X, Z, precision=...)``."""

    name: str = "rbf"
    params: Mapping[str, Any] = field(default_factory=lambda: {"sigma2": 1.0})

    def __post_init__(self):
        if not isinstance(self.name, str) or self.name not in KERNELS:
            raise ValueError(f"expected kernel in {sorted(KERNELS)}, got kernel={self.name!r}")
        allowed = KERNELS[self.name][1]
        extra = sorted(set(self.params) - set(allowed))
        if extra:
            raise ValueError(f"expected parameters among {allowed} for the {self.name} kernel, "
                             f"got {extra[0]}={self.params[extra[0]]!r}")

    def __call__(self, X, Z=None, *, precision="float64"):
        func, _ = KERNELS[self.name]
        return func(X, Z, precision=precision, **self.params)

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"Kernel({self.name}{', ' if args else ''}{args})"


def make_kernel(kernel="rbf", *, sigma2=1.0, degree=3, t=1.0) -> Kernel:
    """Build and validate a Kernel from the unified hyper-parameter names."""
    if isinstance(kernel, Kernel):
        return kernel
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise ValueError(f"expected kernel in {sorted(KERNELS)}, got kernel={kernel!r}")
    if kernel == "rbf":
        check_positive("sigma2", sigma2)
        params = {"sigma2": float(sigma2)}
    elif kernel == "poly":
        check_int("degree", degree, minimum=1)
        params = {"degree": int(degree), "t": _check_t(t)}
    else:
        params = {}
    return Kernel(kernel, params)


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
