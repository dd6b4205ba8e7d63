"""Exact symmetrization of a formed matrix: :func:`mirror_lower` copies a square
matrix's lower triangle onto its upper one in place, by cache-sized bands, which is
how every formed system is made exactly symmetric; :func:`mirror_band` and
:func:`strict_upper_mask` are its one-band step, for callers that form a matrix
by bands (``linalg.kernels``) and mirror each band while it is in cache.
"""
from __future__ import annotations

import functools

import numpy as np

from ..core.validation import check_int

__all__ = ["mirror_lower", "mirror_band", "strict_upper_mask"]


#: Rows of one band of :func:`mirror_lower` (128 x n float64 rows of the source stay in L2).
_MIRROR_BAND = 128


def mirror_lower(A, *, band=_MIRROR_BAND):
    """A[i, j] <- A[j, i] for j > i, in place: the strict upper triangle from the lower.

    Parameters
    ----------
    A : (n, n) ndarray, any dtype (object arrays of mpf included)
        Modified in place and returned.
    band : int >= 1, keyword-only
        Rows of A read per step.

    Returns
    -------
    A

    Notes
    -----
    Band i0:i1 of rows, left of its diagonal block, is copied transposed into
    columns i0:i1 above it (one strided copy; the band stays in cache), and
    the diagonal block's strict upper triangle is taken from its lower one
    through a boolean mask.  No index arrays are built: the former
    ``A[np.triu_indices(n, 1)] = A.T[...]`` made two n(n-1)/2 int64 arrays
    and a gather and scatter through them, which at n = 1900 took 0.17-0.30 s
    (more than the SYRK that formed A) in a fit, where the index arrays land
    on freshly returned pages; this takes ~0.01 s.  Entries are copied, never
    computed: the result is bitwise the lower triangle's.
    """
    n = A.shape[0]
    band = check_int("band", band, minimum=1)
    if A.ndim != 2 or A.shape[1] != n:
        raise ValueError(f"expected a square matrix, got shape {A.shape}")
    upper = strict_upper_mask(min(n, band))
    for i0 in range(0, n, band):
        mirror_band(A, i0, min(n, i0 + band), upper)
    return A


@functools.lru_cache(maxsize=16)
def strict_upper_mask(k):
    """(k, k) boolean mask of the strict upper triangle, for :func:`mirror_band` (read-only, shared).

    Kept per k (16 sizes; the kernel's bands are at most 128 rows): building it was 3 % of an
    lssvm-schur fit at N = 100, and the report makes tens of thousands of small fits.
    """
    mask = np.triu(np.ones((k, k), dtype=bool), 1)
    mask.setflags(write=False)
    return mask


def mirror_band(A, i0, i1, upper):
    """One band of :func:`mirror_lower`: rows i0:i1 left of the diagonal onto columns i0:i1 above it.

    ``upper`` is :func:`strict_upper_mask` of at least i1 - i0.  Callers that
    compute A by bands (``linalg.kernels``) mirror each band while it is in cache.
    """
    A[:i0, i0:i1] = A[i0:i1, :i0].T
    D = A[i0:i1, i0:i1]
    np.copyto(D, D.T, where=upper[:i1 - i0, :i1 - i0])

