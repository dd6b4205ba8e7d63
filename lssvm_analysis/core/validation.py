"""Input validation shared by every public entry point.

Messages follow SciPy's form: "expected <what>, got <name>=<value>".
"""
from __future__ import annotations

import numbers

import mpmath
import numpy as np

__all__ = [
    "short_repr",
    "check_real",
    "finite_entries",
    "as_matrix",
    "as_vector",
    "check_square",
    "check_symmetric",
    "is_symmetric",
    "check_finite",
    "check_positive",
    "check_open_interval",
    "check_int",
    "check_representable",
    "underflow_count",
    "as_rng",
    "check_bool",
    "check_str",
    "check_cond",
    "check_callable",
    "all_finite",
]


def short_repr(value) -> str:
    """repr(value) cut to 80 characters, for the value part of an error message."""
    r = repr(value)
    return r if len(r) <= 80 else r[:77] + "..."


def _asarray(a, name: str) -> np.ndarray:
    """``np.asarray`` with a ValueError naming ``name`` for ragged nested sequences."""
    try:
        return np.asarray(a)
    except ValueError as exc:  # "setting an array element with a sequence ... inhomogeneous shape"
        raise ValueError(f"expected a rectangular array for {name}, got a ragged sequence "
                         f"({exc})") from None


def _got(name: str, arr: np.ndarray, a) -> str:
    """"dtype=<U3" for an array, ``name=repr(value)`` for a scalar (the value the caller gave)."""
    return f"dtype={arr.dtype}" if arr.ndim else f"{name}={short_repr(a)} (dtype={arr.dtype})"


def as_matrix(a, name: str, *, allow_object: bool = True) -> np.ndarray:
    """Return ``a`` as a non-empty 2-D real array (no copy if possible)."""
    arr = _asarray(a, name)
    if arr.dtype.kind not in "fiu" and not (allow_object and arr.dtype == object):
        raise TypeError(f"expected a real floating-point array for {name}, got {_got(name, arr, a)}")
    if arr.ndim != 2:
        raise ValueError(f"expected a 2-D array for {name}, got {name}.shape={arr.shape}")
    if arr.size == 0:
        raise ValueError(f"expected a non-empty array for {name}, got {name}.shape={arr.shape}")
    return arr


def as_vector(a, name: str, *, allow_object: bool = True) -> np.ndarray:
    """Return ``a`` as a non-empty 1-D real array."""
    arr = _asarray(a, name)
    if arr.dtype.kind not in "fiub" and not (allow_object and arr.dtype == object):
        raise TypeError(f"expected a real array for {name}, got {_got(name, arr, a)}")
    if arr.ndim != 1:
        raise ValueError(f"expected a 1-D array for {name}, got {name}.shape={arr.shape}")
    if arr.size == 0:
        raise ValueError(f"expected a non-empty array for {name}, got {name}.shape={arr.shape}")
    return arr


def check_square(a: np.ndarray, name: str) -> None:
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"expected a square matrix for {name}, got {name}.shape={a.shape}")


def check_real(a: np.ndarray, name: str) -> None:
    """TypeError naming ``name`` unless ``a`` holds real numbers: a floating or integer dtype, or
    objects (mp numbers; their entries are checked where they are read)."""
    if a.dtype.kind not in "fiu" and a.dtype != object:
        raise TypeError(f"expected a real floating-point array for {name}, got {_got(name, a, a)}")


def finite_entries(a) -> bool:
    """Whether no entry of ``a`` is NaN or inf; object entries by ``mpmath.isfinite``, an object
    that is not a number counting as finite (the reader that needs a number raises for it)."""
    a = np.asarray(a)
    if a.dtype == object:
        return all(_finite_scalar(v, True) for v in a.flat)
    return bool(np.isfinite(a).all())


def all_finite(a: np.ndarray) -> bool:
    """True when every entry of ``a`` is finite (object arrays: entry by entry, mpf included)."""
    if a.dtype == object:
        try:   # mpf: read (sign, man, exp, bc) directly; 0 has bc = 0, inf / -inf / nan bc < 0
            return all(v._mpf_[3] >= 0 for v in a.flat)
        except AttributeError:   # not only mpf: mpmath.isfinite's answer entry by entry
            return all(_finite_scalar(v) for v in a.flat)
    return bool(np.isfinite(a).all())


def _finite_scalar(v, non_number=False) -> bool:
    if isinstance(v, (float, np.floating)):  # mpmath.isfinite's answer, without its conversion
        return bool(np.isfinite(v))
    try:
        return bool(mpmath.isfinite(v))
    except (TypeError, ValueError):
        return non_number


def check_finite(a: np.ndarray, name: str) -> None:
    if not all_finite(a):
        bad = np.argwhere(~np.isfinite(a.astype(float))) if a.dtype != object else None
        where = f" at index {tuple(int(i) for i in bad[0])}" if bad is not None and len(bad) else ""
        raise ValueError(f"expected finite values in {name}, got NaN or inf{where}")


def check_symmetric(a: np.ndarray, name: str, p=None, *, block: int = 512) -> bool:
    """Symmetry check with LAPACK's reading of one triangle, blocked so that the transpose stays in cache.

    Passes when every |a_ij - a_ji| <= n u max|a|, u the coarser of a's format and the
    Precision ``p`` (duck-typed: ``unit_roundoff``; exact symmetry when ``p`` is None).  A
    factorization that reads one triangle then works on a matrix within ``n^2 u max|a| <=
    n^2 u ||a||_2`` (2-norm of the discarded antisymmetric part, at most n entries per row)
    of ``a``, inside the O(n^2 u ||a||_2) normwise backward error Cholesky has anyway
    (Higham Thm 10.3 with || |L| |L^T| ||_2 <= n ||A||_2): the check refuses a matrix
    that is not symmetric, not one that a computation made symmetric only up to rounding
    (e.g. two GEMMs that sum K_ij and K_ji in different orders).  NaN never passes; the
    message then says NaN rather than "not symmetric".  Returns True when ``a`` is exactly
    symmetric, False when it is within the tolerance only.
    """
    n = a.shape[0]
    u = 0.0 if p is None else max(p.unit_roundoff,
                                  float(np.finfo(a.dtype).eps) / 2 if a.dtype.kind == "f" else 0.0)
    tol = None
    for i in range(0, n, block):
        for j in range(0, i + 1, block):
            lower, upper = a[i:i + block, j:j + block], a[j:j + block, i:i + block].T
            if np.array_equal(lower, upper):
                continue
            if tol is None:
                check_finite(a, name)  # NaN / inf: say so rather than "not symmetric"
                tol = n * u * float(np.max(np.abs(a)))
            diff = np.abs(lower - upper)
            worst = np.unravel_index(int(np.argmax(diff)), diff.shape)
            if not (diff[worst] <= tol):
                r, c = sorted((i + int(worst[0]), j + int(worst[1])), reverse=True)  # lower: r > c
                raise ValueError(
                    f"expected a symmetric matrix for {name} (within n u max|{name}| = {tol:.3g}, "
                    f"u = {u:.3g}), got |{name}[{r}, {c}] - {name}[{c}, {r}]| = {float(diff[worst]):.3g} "
                    f"for {name}.shape={a.shape}")
    return tol is None


def is_symmetric(a: np.ndarray, *, block: int = 512) -> bool:
    """Exact symmetry of a square array, compared in blocks (no n x n boolean temporary: that
    mask was 1/8 of a dense fit's peak memory when the whole matrix was compared at once)."""
    n = a.shape[0]
    if a.ndim != 2 or a.shape[1] != n:
        return False
    return all(np.array_equal(a[i:i + block, j:j + block], a[j:j + block, i:i + block].T)
               for i in range(0, n, block) for j in range(0, i + 1, block))


def check_positive(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"expected a positive real number for {name}, got {name}={short_repr(value)}")
    if not (np.isfinite(float(value)) and value > 0):
        raise ValueError(f"expected a positive finite number for {name}, got {name}={short_repr(value)}")
    return value


def check_open_interval(name: str, value, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"expected a real number in ({lo}, {hi}) for {name}, got {name}={short_repr(value)}")
    if not (lo < value < hi):
        raise ValueError(f"expected {name} in the open interval ({lo}, {hi}), got {name}={short_repr(value)}")
    return value


def check_int(name: str, value, *, minimum: int = 0, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"expected an integer for {name}, got {name}={short_repr(value)}")
    if value < minimum:
        raise ValueError(f"expected {name} >= {minimum}, got {name}={short_repr(value)}")
    if maximum is not None and value > maximum:
        raise ValueError(f"expected {name} <= {maximum}, got {name}={short_repr(value)}")
    return int(value)


def check_representable(a: np.ndarray, name: str, p) -> None:
    """ValueError naming ``name`` if the finite float array ``a`` overflows in the precision ``p``.

    Only a narrower format can overflow (float32: |a| > 3.4e38); longdouble
    and mp hold every float64.  ``p`` is a Precision (duck-typed: ``dtype``,
    ``name``), so that this module stays below ``precision``.
    """
    if p.dtype == object or np.finfo(p.dtype).max >= np.finfo(np.float64).max:
        return
    with np.errstate(over="ignore"):
        ok = bool(np.isfinite(np.asarray(a, dtype=np.float64).astype(p.dtype)).all())
    if not ok:
        big = float(np.finfo(p.dtype).max)
        worst = float(np.max(np.abs(np.asarray(a, dtype=np.float64))))
        raise ValueError(f"expected {name} representable in {p.name} (|{name}| <= {big:.8g}), "
                         f"got max |{name}| = {worst:.3g}, which overflows to inf in {p.name}")


def underflow_count(a: np.ndarray, p) -> int:
    """How many non-zero entries of the finite float array ``a`` round to 0 or to a subnormal in the
    precision ``p`` (only a narrower format than float64 can underflow them: float32 below
    1.18e-38).  ``p`` is duck-typed as in :func:`check_representable`."""
    if p.dtype == object or np.finfo(p.dtype).tiny <= np.finfo(np.float64).tiny:
        return 0
    a = np.abs(np.asarray(a, dtype=np.float64))
    return int(np.count_nonzero((a > 0) & (a < float(np.finfo(p.dtype).tiny))))


def as_rng(name: str, value) -> np.random.Generator:
    """``numpy.random.default_rng(value)`` for None, an int >= 0, a non-empty sequence of them, a
    SeedSequence / BitGenerator or a Generator (used as is); anything else (text, floats, bools)
    is a TypeError naming ``name``."""
    if isinstance(value, np.random.Generator):
        return value
    def entropy(v):
        return isinstance(v, numbers.Integral) and not isinstance(v, bool) and v >= 0

    ok = (value is None or isinstance(value, (np.random.SeedSequence, np.random.BitGenerator))
          or entropy(value)
          or (isinstance(value, (list, tuple)) and len(value) > 0 and all(entropy(v) for v in value)))
    if not ok:
        raise TypeError(f"expected None, an int >= 0 (or a sequence of them) or a numpy.random.Generator "
                        f"for {name}, got {name}={short_repr(value)}")
    return np.random.default_rng(value)


def check_bool(name: str, value) -> bool:
    """``value`` as a bool; anything but True / False (NumPy's included) is a TypeError naming ``name``."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"expected True or False for {name}, got {name}={short_repr(value)}")
    return bool(value)


def check_str(name: str, value, *, empty: bool = False) -> str:
    """``value`` if it is a str (non-empty unless ``empty``); else a TypeError / ValueError naming ``name``.

    For free-text and naming arguments (a solver's name, its paper, a description): any text is
    accepted, a number or None is not."""
    if not isinstance(value, str):
        raise TypeError(f"expected a str for {name}, got {name}={short_repr(value)}")
    if not (empty or value.strip()):
        raise ValueError(f"expected a non-empty str for {name}, got {name}={value!r}")
    return value


def check_cond(name: str, value):
    """``value`` as a float if it is None or a condition number: a real number >= 1 (inf for a singular
    matrix); text, bools, NaN and numbers below 1 are a TypeError / ValueError naming ``name``."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"expected None or a condition number (a real number >= 1) for {name}, "
                        f"got {name}={short_repr(value)}")
    if not float(value) >= 1.0:   # NaN too: a condition number is >= 1 in every norm
        raise ValueError(f"expected a condition number >= 1 (inf for a singular matrix) for {name}, "
                         f"got {name}={short_repr(value)}")
    return float(value)


def check_callable(name: str, value, *, none: bool = True):
    """``value`` if it is callable (or None when ``none``); else a TypeError naming ``name``."""
    if (value is None and none) or callable(value):
        return value
    raise TypeError(f"expected {'None or ' if none else ''}a callable for {name}, got {name}={short_repr(value)}")
