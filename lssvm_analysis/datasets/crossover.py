"""The data of Abe's primal/dual crossover study (deterministic), shared by asv, the report and the tests."""
from __future__ import annotations

import numpy as np

from ..core.validation import check_int

__all__ = ["crossover_data", "DATA_FEATURES"]

#: Inputs of the crossover problem.
DATA_FEATURES = 8


def crossover_data(M, *, seed=0):
    """The regression problem of the crossover study (deterministic).

    X is uniform on [0, 1]^8; y = sinc(2 ||x - 1/2||) plus Gaussian noise of
    standard deviation 0.05.  X and the noise come from two generators seeded
    from ``seed`` (an int >= 0), so the data of a smaller M are the first rows of a larger M.

    Returns
    -------
    X : (M, 8) float64 ndarray
    y : (M,) float64 ndarray
    """
    M = check_int("M", M, minimum=2)
    seed = check_int("seed", seed)
    X = np.random.default_rng([seed, 0]).uniform(size=(M, DATA_FEATURES))
    noise = np.random.default_rng([seed, 1]).standard_normal(M)
    y = np.sinc(2 * np.linalg.norm(X - 0.5, axis=1)) + 0.05 * noise
    return X, y
