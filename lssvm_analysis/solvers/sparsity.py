"""How sparse a fitted model is: the coefficient counts every sparse family records.

:func:`coefficient_counts` gives the exact zeros of the full coefficient
vector and the significant entries (|alpha| > 1e-8 max|alpha|, SEED_NOTES
§0.3), for Chen & Zhou's primal solvers, the robust and the fixed-size
families alike.
"""
from __future__ import annotations

import numpy as np

__all__ = ["coefficient_counts"]


def coefficient_counts(alpha_B, m) -> dict:
    """Exact zeros of the full alpha (alpha_N = 0) and |alpha| > 1e-8 max|alpha| (SEED_NOTES §0.3)."""
    a = np.abs(np.asarray([float(v) for v in alpha_B]))
    big = a.max() if a.size else 0.0
    return {"n_exact_zeros": int(m - a.size + np.count_nonzero(a == 0)),
            "n_significant": int(np.count_nonzero(a > 1e-8 * big)) if big > 0 else 0}
