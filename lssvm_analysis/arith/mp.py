"""mpN on mpmath: object arrays of ``mpf`` of a private mpmath context at N significant digits,
every primitive by the generic NumPy code of :mod:`._generic` (the reference the FLINT engine,
:mod:`.mp_flint`, is tested against, and the engine when libflint cannot be loaded)."""
from __future__ import annotations

from functools import lru_cache

import mpmath
import numpy as np

from ._generic import GenericPrecision
from ._libflint import AVAILABLE as FLINT_AVAILABLE
from .base import eigsy, get_precision, register_extended
from .flint_engine import from_float64, to_float64 as engine_to_float64

__all__ = ["MPPrecision", "mp_engine", "MP_CONTEXT", "DEFAULT_MP_DIGITS", "MIN_MP_DIGITS", "MAX_MP_DIGITS",
           "MP_ENGINES"]

DEFAULT_MP_DIGITS = 50
#: Bounds of N in "mpN".  Below 5 digits mpmath's conversions round more than a
#: float32; above 1000 every O(n^3) generic factorization of the package takes
#: hours even at n = 50 (mpmath's cost grows like digits^1.6), so such a request
#: is a typo, not an experiment.
MIN_MP_DIGITS = 5
MAX_MP_DIGITS = 1000
#: Engines of the mpN primitives: FLINT (the default when it loads) and mpmath's generic code.
MP_ENGINES = ("flint", "mpmath")


def _reduce_mpf(v):
    """Pickle an mpf exactly: mpmath's ``__reduce__`` rebuilds it in the global context at its
    current precision (53 bits by default), which rounded an mp50 model to float64 in transit."""
    ctx = v.context
    return _rebuild_mpf, (None if ctx is MP_CONTEXT else ctx.dps, v._mpf_)


def _rebuild_mpf(dps, mpf_tuple):
    """The mpf of the raw (sign, man, exp, bc) tuple, unrounded, in the context it came from."""
    ctx = MP_CONTEXT if dps is None else get_precision(f"mp{dps}").ctx
    return ctx.make_mpf(mpf_tuple)


def _npconvert_of(ctx):
    """``ctx.npconvert`` that refuses an array without printing it first.

    ``mpf * ndarray`` asks the context to convert the array; mpmath's
    ``npconvert`` raises TypeError with ``repr(array)`` in the message, and
    only then does NumPy multiply elementwise (``mpf * a_i``, the same
    products).  The repr of an n-vector of mpf costs ~25 us per entry: half
    the CPU of an mp50 CG fit at n = 60 went to messages nobody reads.
    """
    convert = ctx.npconvert

    def npconvert(x):
        if isinstance(x, np.ndarray) and x.ndim:
            raise TypeError(f"cannot create mpf from an array of shape {x.shape}")
        return convert(x)

    return npconvert


#: The package's own mpmath context for extended-precision values made outside the mpN
#: precisions (the exact models' systems and targets, the experiments' references): mpmath's
#: default 53 bits, raised with its ``workprec`` / ``workdps`` where a computation needs more.
#: Its mpf type carries the exact ``__reduce__`` (records and Dask workers get every digit);
#: mpmath's global context is left untouched (no ``copyreg`` hook on the user's mpf).
MP_CONTEXT = mpmath.MPContext()
MP_CONTEXT.npconvert = _npconvert_of(MP_CONTEXT)
MP_CONTEXT.mpf.__reduce__ = _reduce_mpf


class MPPrecision(GenericPrecision):
    """mpmath numbers at ``dps`` significant decimal digits (object arrays of mpf).

    Parameters
    ----------
    dps : int
    engine : {"flint", "mpmath"}, keyword-only
        Who computes the primitives (module docstring): FLINT at the context's
        bits (default: the instance is a :class:`~lssvm_analysis.arith.mp_flint.FlintPrecision`;
        this class itself when libflint cannot be loaded) or mpmath's generic
        NumPy loops (this class).  The numbers and the arithmetic (N-digit
        rounding of every operation) are the same; the order of the roundings
        inside a product or factorization differs.
    """

    engine = "mpmath"
    #: The subclass of each other engine ("flint": FlintPrecision), filled as they are defined.
    _engines: dict = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        MPPrecision._engines[cls.engine] = cls

    def __new__(cls, dps: int, *, engine: str = "flint"):
        if engine not in MP_ENGINES:
            raise ValueError(f"expected engine in {MP_ENGINES}, got engine={engine!r}")
        if cls is MPPrecision and engine != "mpmath" and FLINT_AVAILABLE:
            cls = MPPrecision._engines[engine]
        return super().__new__(cls)

    def __init__(self, dps: int, *, engine: str = "flint"):
        self.ctx = mpmath.MPContext()
        self.ctx.dps = int(dps)
        self.dps = int(dps)
        self.name = f"mp{self.dps}"
        self.dtype = np.dtype(object)
        self.unit_roundoff = float(self.ctx.mpf(2) ** (-self.ctx.prec))  # a power of 2: exact
        self._exp = np.frompyfunc(self.ctx.exp, 1, 1)
        self._sqrt = np.frompyfunc(self.ctx.sqrt, 1, 1)
        self._conv = np.frompyfunc(self._convert1, 1, 1)
        self.ctx.npconvert = _npconvert_of(self.ctx)  # this context's own attribute, not mpmath's
        self._zero = self.ctx.mpf(0)
        self.ctx.mpf.__reduce__ = _reduce_mpf  # this context's own mpf type: pickle every digit

    def __repr__(self) -> str:
        return f"<Precision {self.name}: u={self.unit_roundoff:.3g}, engine={self.engine}>"

    def __reduce__(self):  # the registry's object by name; another engine rebuilt as such
        if not FLINT_AVAILABLE:
            return super().__reduce__()
        return (mp_engine, (self.dps, self.engine))

    def scale_signs(self, H, s, *, block=16):
        neg = self.to_float64(s) < 0
        if not np.all(np.abs(self.to_float64(s)) == 1):   # not labels: the products themselves
            return super().scale_signs(H, s, block=block)
        negate = np.frompyfunc(self._negate1, 1, 1)
        for i0 in range(0, H.shape[0], block):
            rows = H[i0:i0 + block]
            flip = np.not_equal.outer(neg[i0:i0 + block], neg)
            rows[flip] = negate(rows[flip])

    def _negate1(self, v):
        """-v for an mpf of this context: its (sign, man, exp, bc) with the sign flipped (exact, as
        mpmath's negation of a number already at the context's precision; 0 stays 0)."""
        sign, man, exp, bc = v._mpf_
        if not man:
            return -v   # 0, inf, nan: mpmath's own
        out = object.__new__(self.ctx.mpf)
        out._mpf_ = (sign ^ 1, man, exp, bc)
        return out

    def zeros(self, shape):
        """An object array of one shared mpf 0 (mpf are immutable: the array's writes replace it)."""
        return np.full(shape, self._zero, dtype=object)

    def eye(self, n):
        out = self.zeros((n, n))
        np.fill_diagonal(out, self.ctx.mpf(1))
        return out

    def scalar(self, x):
        """A Python float, or an int below 2^53 in magnitude, converted directly (exactly, as
        :meth:`asarray` converts it); anything else as :meth:`asarray` does."""
        if type(x) is float or (type(x) is int and abs(x) < 2 ** 53):
            return self.ctx.mpf(x)
        return super().scalar(x)

    def _convert1(self, v):
        if isinstance(v, np.longdouble):  # exact: split into two float64
            hi = float(v)
            return self.ctx.mpf(hi) + self.ctx.mpf(float(v - np.longdouble(hi)))
        if isinstance(v, (np.floating, np.integer)):
            v = v.item()
        return self.ctx.mpf(v)

    def asarray(self, a):
        a = np.asarray(a)
        if a.dtype == object and a.size and isinstance(a.flat[0], self.ctx.mpf):
            return a
        if a.dtype.kind in "iu" and a.size and np.abs(a).max() < 2 ** 53 or a.dtype.kind == "f" and \
                a.dtype.itemsize <= 8:
            return from_float64(a, self.ctx)  # exact, ~1 us per entry
        out = self._conv(a)
        return np.asarray(out, dtype=object) if isinstance(out, np.ndarray) else np.array(out, dtype=object)

    def to_float64(self, a):
        a = np.asarray(a)
        if a.dtype == object and a.size:
            try:
                return engine_to_float64(a)   # from the mantissas, 0.3 us per entry
            except AttributeError:  # entries that are not mpf (Python floats, ...)
                pass
        return np.array([float(v) for v in a.flat], dtype=np.float64).reshape(a.shape)

    def context(self):
        return mpmath.workdps(self.dps)

    def exp(self, a):
        return np.asarray(self._exp(self.asarray(a)), dtype=object)

    def sqrt(self, a):
        return np.asarray(self._sqrt(self.asarray(a)), dtype=object)

    def _sqrt1(self, x):
        return self.ctx.sqrt(x)

    def eigvalsh(self, A, *, check=True):
        A = self._prepare(A, "A", check=check, symmetric=True)
        return self._eigsy_values(A)

    def eigh(self, A, *, check=True):
        """mpmath's ``eigsy`` at this precision's digits: eigenvalues ascending, eigenvectors as columns."""
        A = self._prepare(A, "A", check=check, symmetric=True)
        with self.context():
            E, Q = eigsy(self.ctx, self.asarray(A), self.name)
            n = A.shape[0]
            order = sorted(range(n), key=lambda i: E[i])
            w = np.array([E[i] for i in order], dtype=object)
            U = np.array([[Q[r, i] for i in order] for r in range(n)], dtype=object)
        return w, U

    def _eig_precision(self):
        return self

    def _eigsy_values(self, A):
        """mpmath's ``eigsy`` eigenvalues of a prepared A, ascending."""
        ev = eigsy(self.ctx, A, self.name, eigvals_only=True)
        return np.array(sorted(ev[i] for i in range(ev.rows)), dtype=object)


@lru_cache(maxsize=None)
def mp_engine(dps: int, engine: str) -> MPPrecision:
    """The one MPPrecision of ``dps`` digits on ``engine`` (besides the registry's own mpN)."""
    return MPPrecision(dps, engine=engine)


def _extended(digits: int) -> MPPrecision:
    """mp at ``digits`` (at least MIN_MP_DIGITS) on FLINT when libflint loads, else on mpmath."""
    return mp_engine(max(MIN_MP_DIGITS, int(digits)), "flint" if FLINT_AVAILABLE else "mpmath")


register_extended(_extended)
