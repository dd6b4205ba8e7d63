"""The Mackey-Glass delay-differential time series (Abe's "MG." benchmark).

    dx/dt = 0.2 x(t - tau) / (1 + x(t - tau)^10) - 0.1 x(t),    tau = 17 (chaotic)

(Mackey & Glass 1977).  The regression task of Crowder (1990), used by Abe
(2008, Table 1: 4 inputs, 500 training and 500 test data), predicts
x(t + 6) from (x(t - 18), x(t - 12), x(t - 6), x(t)).  The default sampling
is Jang's (1993): t = 118, ..., 1117 in unit steps, the first 500 samples
for training and the next 500 for testing.

Integration
-----------
Classical RK4 with a step ``dt`` that divides both ``tau`` and 1, on a grid
that holds the whole history, so every delayed value the stages need at
t_n - tau and t_n + dt - tau is a stored grid value.  The stages at
t_n + dt/2 need x(t_n + dt/2 - tau), between two grid points; it is taken
from the cubic Hermite interpolant built from the two neighbouring grid
values and the slopes x' = f stored there (f_k is the stage k1 of step k):

    x(t_k + dt/2) ~ (x_k + x_{k+1}) / 2 + dt (f_k - f_{k+1}) / 8,

whose error is O(dt^4), the order of RK4 itself, so the scheme stays fourth
order (linear interpolation would make it second order).  The history is
constant, x(t) = x0 for t <= 0 (its slope is 0, so the interpolant is
exactly x0 there).  The derivative kinks that the delay propagates sit at
t = k tau, on grid points, so they do not lower the order either.  The first
``discard`` time units (default 100, Jang's) are a transient and are not
sampled.
"""
from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np

from ..core.validation import check_int, check_positive

__all__ = ["mackey_glass", "MackeyGlassSplit", "mackey_glass_series", "LAGS", "HORIZON"]

LAGS = (18, 12, 6, 0)
"""Input delays: the inputs are x(t - 18), x(t - 12), x(t - 6), x(t) (Crowder 1990)."""
HORIZON = 6
"""Prediction horizon: the target is x(t + 6)."""

_DEFAULT_X0 = 1.2
_SEEDED_X0 = (0.5, 1.5)  # range of the random constant history when a seed is given


class MackeyGlassSplit(NamedTuple):
    """Training and test parts of the Mackey-Glass task, with their provenance.

    Attributes
    ----------
    X_train : (n_train, 4) float64 ndarray
        Rows (x(t - 18), x(t - 12), x(t - 6), x(t)) for t = t0, ..., t0 + n_train - 1.
    y_train : (n_train,) float64 ndarray
        x(t + 6).
    X_test : (n_test, 4) float64 ndarray
        The same for t = t0 + n_train, ..., t0 + n_train + n_test - 1.
    y_test : (n_test,) float64 ndarray
    provenance : str
        Equation, parameters, integrator, history, sampling and sources.
    """

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    provenance: str


def _grid_ratio(name, value, dt):
    """value / dt as an int, or a ValueError if it is not (to 1e-9 relative)."""
    r = value / dt
    k = int(round(r))
    if k < 1 or abs(r - k) > 1e-9 * max(1.0, r):
        raise ValueError(f"expected {name} to be a positive integer multiple of dt={dt!r}, "
                         f"got {name}={value!r} ({name}/dt = {r!r})")
    return k


def _slope(x, xd):
    return 0.2 * xd / (1.0 + xd ** 10) - 0.1 * x


def _rk4(x0, d, n_steps, dt):
    """Integrate on the grid; index j is time (j - d) dt; returns x at j = 0 .. d + n_steps."""
    x = np.empty(d + n_steps + 1)
    f = np.zeros(d + n_steps + 1)  # slope at each grid point (0 on the constant history)
    x[:d + 1] = x0
    h2, h6 = dt / 2, dt / 6
    for j in range(d, d + n_steps):
        xn, xd0, xd1 = x[j], x[j - d], x[j - d + 1]
        k1 = f[j] = _slope(xn, xd0)
        i = j - d  # delayed interval [i, i+1]; on the history (i + 1 <= d) it is constant
        xdm = xd0 if i + 1 <= d else 0.5 * (xd0 + xd1) + dt * (f[i] - f[i + 1]) / 8
        k2 = _slope(xn + h2 * k1, xdm)
        k3 = _slope(xn + h2 * k2, xdm)
        k4 = _slope(xn + dt * k3, xd1)
        x[j + 1] = xn + h6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return x


def mackey_glass_series(t_end, *, tau=17.0, dt=0.1, x0=_DEFAULT_X0):
    """x(t) at t = 0, dt, 2 dt, ..., t_end (see the module notes for the scheme).

    Parameters
    ----------
    t_end : float > 0
        A multiple of ``dt``.
    tau : float > 0
        Delay; a multiple of ``dt``.
    dt : float in (0, 1]
        RK4 step; 1/dt must be an integer.
    x0 : float > 0
        Constant history x(t) = x0 for t <= 0.

    Returns
    -------
    (round(t_end / dt) + 1,) float64 ndarray

    Notes
    -----
    Cost: 4 slope evaluations per step, in a Python loop (about 1e5 steps/s).
    """
    check_positive("x0", x0)
    dt, _ = _check_dt(dt)
    d = _grid_ratio("tau", float(check_positive("tau", tau)), dt)
    n = _grid_ratio("t_end", float(check_positive("t_end", t_end)), dt)
    return _rk4(float(x0), d, n, float(dt))[d:]


def _check_dt(dt):
    """(dt, steps per time unit); 1/dt must be an integer so that samples fall on the grid."""
    check_positive("dt", dt)
    r = 1.0 / dt
    k = int(round(r))
    if dt > 1 or abs(r - k) > 1e-9 * r:
        raise ValueError(f"expected dt in (0, 1] with 1/dt an integer, got dt={dt!r}")
    return float(dt), k


def _history(x0, seed):
    if seed is None:
        return _DEFAULT_X0 if x0 is None else float(check_positive("x0", x0))
    if x0 is not None:
        raise ValueError(f"expected either x0 or seed, got both: x0={x0!r}, seed={seed!r}")
    if isinstance(seed, np.random.Generator):
        rng = seed
    elif isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed >= 0:
        rng = np.random.default_rng(int(seed))
    else:
        raise TypeError(f"expected None, a non-negative int or a numpy.random.Generator for seed, "
                        f"got seed={seed!r}")
    return float(rng.uniform(*_SEEDED_X0))


def mackey_glass(*, n_train=500, n_test=500, tau=17.0, dt=0.1, discard=100, x0=None, seed=None):
    """Crowder's Mackey-Glass regression task: predict x(t + 6) from four delays.

    Parameters
    ----------
    n_train : int >= 1, default=500
    n_test : int >= 0, default=500
    tau : float > 0, default=17.0
        Delay of the equation (17: chaotic attractor); a multiple of ``dt``.
    dt : float in (0, 1], default=0.1
        RK4 step; 1/dt must be an integer (samples fall on the grid).
    discard : int >= 0, default=100
        Transient (time units) not sampled: the first sample is
        t0 = discard + 18, i.e. t0 = 118 by default (Jang 1993).
    x0 : float > 0, optional
        Constant history x(t) = x0 for t <= 0; default 1.2.
    seed : None, int >= 0 or numpy.random.Generator, optional
        None: the deterministic series from x0.  Otherwise the constant
        history is drawn uniformly from [0.5, 1.5) (an independent stretch of
        the attractor per seed); exclusive with ``x0``.

    Returns
    -------
    MackeyGlassSplit
        (X_train (n_train, 4), y_train (n_train,), X_test (n_test, 4),
        y_test (n_test,), provenance), float64, new arrays.  Sample k is at
        t = t0 + k with the test part following the training part.

    Raises
    ------
    ValueError, TypeError
        Bad sizes, tau, dt or discard not on the grid, x0 <= 0, both x0 and seed.

    Notes
    -----
    Deterministic: the same arguments give bitwise the same arrays.  Cost:
    (t0 + n_train + n_test + 6) / dt RK4 steps (about 0.1 s by default).
    """
    n_train = check_int("n_train", n_train, minimum=1)
    n_test = check_int("n_test", n_test, minimum=0)
    discard = check_int("discard", discard, minimum=0)
    dt, per_unit = _check_dt(dt)
    d = _grid_ratio("tau", float(check_positive("tau", tau)), dt)
    x_hist = _history(x0, seed)
    t0 = discard + LAGS[0]
    n = n_train + n_test
    x = _rk4(x_hist, d, (t0 + n - 1 + HORIZON) * per_unit, dt)[d:]  # x[k] = x(k dt)
    t = t0 + np.arange(n)
    X = np.stack([x[(t - lag) * per_unit] for lag in LAGS], axis=1)
    y = x[(t + HORIZON) * per_unit]
    return MackeyGlassSplit(X[:n_train].copy(), y[:n_train].copy(), X[n_train:].copy(),
                            y[n_train:].copy(), _provenance(tau, dt, t0, n_train, n_test, x_hist, seed))


def _provenance(tau, dt, t0, n_train, n_test, x_hist, seed):
    hist = f"x(t) = {x_hist!r} for t <= 0" + ("" if seed is None else f" (drawn from seed {seed!r})")
    return (
        "Mackey-Glass series dx/dt = 0.2 x(t-tau)/(1 + x(t-tau)^10) - 0.1 x(t) "
        f"(Mackey & Glass 1977), tau={tau!r}, {hist}; generated by lssvm_analysis: RK4, "
        f"dt={dt!r}, half-step delayed values by cubic Hermite interpolation of the grid values "
        f"and slopes; inputs x(t-18), x(t-12), x(t-6), x(t), target x(t+6) (Crowder 1990), "
        f"t = {t0}, ..., {t0 + n_train - 1} for training ({n_train}) and "
        f"{t0 + n_train}, ..., {t0 + n_train + n_test - 1} for testing ({n_test}) "
        "(sampling of Jang 1993); used by Abe (2008), Table 1 (500 training, 500 test)."
    )
