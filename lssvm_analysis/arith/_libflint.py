"""The ctypes layer over libflint: what python-flint does not wrap, called in the same library.

At import (the object-layout checks): ``libflint`` as shipped with python-flint is loaded and the offset of the ``arb_mat_t``
inside python-flint's ``arb_mat`` objects is found by reading a probe matrix's (rows, columns)
at the candidate offsets (the object-layout check).  When the library cannot be loaded or no
offset matches, :data:`AVAILABLE` is False and mpN falls back to mpmath's generic code
(:class:`~lssvm_analysis.arith.mp.MPPrecision`).  A second check reads known entries of a matrix
with ``arf_get_d`` (:data:`GET_D`); when it fails, entries are read as float64 through mpf objects.

Everything here is private to ``arith/``; other floors use the public names of
:mod:`~lssvm_analysis.arith.flint_engine`.
"""
from __future__ import annotations

import ctypes
import glob
import os

import flint
import numpy as np
from flint import arb, arb_mat

__all__ = ["AVAILABLE", "LIB", "address", "Window", "set_block", "slong_array", "GET_D", "doubles"]

# ----------------------------------------------------------------------------- libflint
def _load():
    """libflint as shipped with python-flint, and the offset of ``arb_mat_t`` in its objects."""
    libdir = os.path.join(os.path.dirname(os.path.dirname(flint.__file__)), "python_flint.libs")
    paths = sorted(glob.glob(os.path.join(libdir, "libflint*"))) or sorted(
        glob.glob(os.path.join(os.path.dirname(flint.__file__), "libflint*")))
    if not paths:
        return None, 0
    try:
        lib = ctypes.CDLL(paths[0])
    except OSError:
        return None, 0
    probe = arb_mat(2, 3, [1, 2, 3, 4, 5, 6])
    for off in (16, 24, 32):  # arb_mat_t = {entries, r, c, ...} after the object header (and vtable)
        r, c = (ctypes.c_long.from_address(id(probe) + off + 8 * k).value for k in (1, 2))
        if (r, c) == (2, 3):
            return lib, off
    return None, 0


_LIB, _OFFSET = _load()
LIB = _LIB
AVAILABLE = _LIB is not None
_P, _L, _I = ctypes.c_void_p, ctypes.c_long, ctypes.c_int
if AVAILABLE:
    for _name, _args, _res in [
            ("arb_mat_approx_mul", [_P, _P, _P, _L], None), ("arb_mat_sub", [_P, _P, _P, _L], None),
            ("arb_mat_get_mid", [_P, _P], None), ("arb_mat_set", [_P, _P], None),
            ("arb_mat_cho", [_P, _P, _L], _I), ("arb_mat_transpose", [_P, _P], None),
            ("arb_mat_approx_solve_tril", [_P, _P, _P, _I, _L], None),
            ("arb_mat_approx_solve_triu", [_P, _P, _P, _I, _L], None),
            ("arb_mat_approx_lu", [_P, _P, _P, _L], _I),
            ("arb_mat_approx_solve_lu_precomp", [_P, _P, _P, _P, _L], None),
            ("arb_mat_window_init", [_P, _P, _L, _L, _L, _L], None), ("arb_mat_window_clear", [_P], None),
            ("arb_mat_zero", [_P], None), ("arb_mat_mul_entrywise", [_P, _P, _P, _L], None),
            ("arb_mat_add", [_P, _P, _P, _L], None)]:
        _f = getattr(_LIB, _name)
        _f.argtypes, _f.restype = _args, _res


def address(M: arb_mat) -> int:
    """Address of the ``arb_mat_t`` inside a python-flint matrix (M must stay referenced)."""
    return id(M) + _OFFSET


class Window:
    """``arb_mat_window_init`` of rows r0:r1, columns c0:c1 (no copy), cleared on exit."""

    def __init__(self, M, r0, c0, r1, c1):
        """M: a python-flint matrix or the address of an ``arb_mat_t`` (another window)."""
        self.M, self.buf = M, ctypes.create_string_buffer(64)
        src = M if isinstance(M, int) else address(M)
        _LIB.arb_mat_window_init(ctypes.addressof(self.buf), src, r0, c0, r1, c1)

    def __enter__(self):
        return ctypes.addressof(self.buf)

    def __exit__(self, *exc):
        _LIB.arb_mat_window_clear(ctypes.addressof(self.buf))


def set_block(S: arb_mat, r0: int, c0: int, B: arb_mat) -> None:
    """S[r0:r0 + rows(B), c0:c0 + cols(B)] = B (exact copies, through a window of S)."""
    with Window(S, r0, c0, r0 + B.nrows(), c0 + B.ncols()) as d:
        _LIB.arb_mat_set(d, address(B))



def slong_array(n: int):
    """A zeroed C array of n ``slong`` (a permutation FLINT writes; ``np.frombuffer`` reads it)."""
    return (ctypes.c_long * n)()


#: sizeof(arb_struct) and FLINT's ARF_RND_NEAR, checked below on a matrix whose entries are known.
_ARB_BYTES, _RND_NEAR = 48, 4


def doubles(M: arb_mat, idx) -> np.ndarray:
    """The entries of M at the row-major positions ``idx`` (midpoints) as float64, each rounded to
    nearest (as ``float(mpf)``): ``arf_get_d`` on each entry in place (python-flint's
    ``float(arb)`` truncates).  Only when :data:`GET_D`."""
    c = M.ncols()
    base, _, _, stride = (ctypes.c_long.from_address(address(M) + 8 * i).value for i in range(4))
    get = LIB.arf_get_d
    return np.array([get(base + ((i // c) * stride + i % c) * _ARB_BYTES, _RND_NEAR) for i in idx],
                    dtype=np.float64)


def _check_get_d() -> bool:
    """True when ``arf_get_d`` reads the entries of a python-flint ``arb_mat`` (FLINT 3: entries,
    r, c, stride) and rounds to nearest: 1 + 2^-53 + 2^-60 must give 1 + 2^-52, the ties 1 + 2^-53
    and 1 + 3 2^-53 give 1 and 1 + 2^-51 (to even), -1 - 2^-53 - 2^-60 its negative."""
    LIB.arf_get_d.argtypes, LIB.arf_get_d.restype = [ctypes.c_void_p, ctypes.c_int], ctypes.c_double
    two = arb(2)
    want = [1 + 2.0 ** -52, 1.0, 1 + 2.0 ** -51, -(1 + 2.0 ** -52)]
    with flint.ctx.workprec(128):
        M = arb_mat(2, 2, [1 + two ** -53 + two ** -60, 1 + two ** -53, 1 + 3 * two ** -53,
                           -(1 + two ** -53 + two ** -60)])
    fields = [ctypes.c_long.from_address(address(M) + 8 * i).value for i in range(4)]
    if fields[1:] != [2, 2, 2]:
        return False
    return list(doubles(M, range(4))) == want


GET_D = AVAILABLE and _check_get_d()
