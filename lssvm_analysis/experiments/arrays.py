"""Arrays in task rows: a row holds JSON scalars, so an array is stored as JSON text.

:func:`dumps` writes it (NaN and inf kept as tokens), :func:`loads` reads it
back as float64; every kind that stores an array and every report section
that reads one uses this pair.
"""
from __future__ import annotations

import json

import numpy as np

__all__ = ["dumps", "loads"]


def dumps(a) -> str:
    """Array -> JSON text (NaN/inf kept as tokens)."""
    return json.dumps([float(v) for v in np.ravel(np.asarray(a, dtype=float))], allow_nan=True)


def loads(text) -> np.ndarray:
    """JSON text -> float64 array (empty for None/NaN)."""
    if not isinstance(text, str) or not text:
        return np.empty(0)
    return np.asarray(json.loads(text), dtype=float)
