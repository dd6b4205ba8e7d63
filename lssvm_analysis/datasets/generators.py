"""Synthetic benchmark sets of the seed papers and outlier injection.

- :func:`sinc`, :func:`noisy_sinc`: y = sin(x)/x, Suykens §3.7 Figs. 3.9-3.10
  (pruning of a noiseless / noisy sinc with 500 training points).
- :func:`two_spirals`: Lang & Witbrock's two-spiral benchmark, Suykens §3.1
  Fig. 3.2.
- :func:`ripley_mixture`: Ripley's two-class problem, each class an equal
  mixture of two Gaussians (Suykens Fig. 3.3, Vieira et al. "RIP"), with its
  Bayes decision function :func:`ripley_bayes_decision`.
- :func:`inject_label_outliers`, :func:`inject_target_outliers`: Chen & Zhou
  §5.1 / §5.2 outliers, returning new arrays and the rows touched.
- :func:`add_near_duplicates`: every odd row replaced by its even neighbour moved
  by a distance delta (the kappa ladder's data knob, keyword
  ``near_duplicates=delta`` of :func:`sinc` and :func:`ripley_mixture`).

Every function is deterministic given ``seed`` (an int or a
``numpy.random.Generator``) and returns float64 arrays.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ..core.validation import (as_matrix, as_vector, check_bool, check_callable, check_finite, check_int,
                               check_positive, short_repr)
from ._base import Dataset, as_generator, build

__all__ = [
    "sinc",
    "noisy_sinc",
    "two_spirals",
    "ripley_mixture",
    "ripley_bayes_decision",
    "RIPLEY_MEANS",
    "RIPLEY_VARIANCE",
    "Contamination",
    "inject_label_outliers",
    "inject_target_outliers",
    "linear_proxy_decision",
    "NearDuplicates",
    "add_near_duplicates",
]

#: Component means of Ripley's synthetic problem, per class (Ripley 1994/1996).
#: A two-component spherical Gaussian mixture fitted to the 1250 points that
#: MASS ships (synth.tr + synth.te) recovers them to within 0.015.
RIPLEY_MEANS = {0: ((-0.7, 0.3), (0.3, 0.3)), 1: ((-0.3, 0.7), (0.4, 0.7))}
#: Common covariance of every component is RIPLEY_VARIANCE * I (sd ~ 0.173).
RIPLEY_VARIANCE = 0.03

_CHEN_ZHOU = "Chen & Zhou, sparse robust LS-SVM in the primal"


def _sinc(x: np.ndarray) -> np.ndarray:
    """sin(x)/x with the removable singularity filled: 1 at x = 0 (to within u elsewhere)."""
    out = np.ones_like(x)
    nz = x != 0
    out[nz] = np.sin(x[nz]) / x[nz]
    return out


def _check_real(name, value, *, minimum):
    """Return ``value`` as a float after checking it is a finite real >= minimum."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"expected a real number for {name}, got {name}={value!r}")
    if not (np.isfinite(value) and value >= minimum):
        raise ValueError(f"expected a finite {name} >= {minimum}, got {name}={value!r}")
    return float(value)


def _check_interval(low, high):
    _check_real("low", low, minimum=-np.inf)
    _check_real("high", high, minimum=-np.inf)
    if not low < high:
        raise ValueError(f"expected finite low < high, got low={low!r}, high={high!r}")


def sinc(*, n_train: int = 500, n_test: int = 500, noise_std: float = 0.0, low: float = -10.0,
         high: float = 10.0, seed=0, outliers: bool = False, scale: str | None = None,
         near_duplicates: float | None = None) -> Dataset:
    """Noiseless (by default) sinc regression, Suykens §3.7 Fig. 3.9.

    Parameters
    ----------
    n_train, n_test : int >= 1
        Suykens prunes from 500 training points (Figs. 3.9-3.10).
    noise_std : float >= 0
        Standard deviation of the i.i.d. Gaussian noise added to the
        training targets only.
    low, high : float
        Input interval; the seed text does not state it, [-10, 10] is our
        choice (about three lobes each side of the main peak).
    seed : int or numpy.random.Generator
    outliers : bool
        Add Chen & Zhou §5.2 outliers to the training targets
        (:func:`inject_target_outliers` with its defaults).
    scale : {"minmax", "standard", None}
        Input scaling fitted on the training part; default None keeps x in
        [low, high] so sigma2 is comparable with the book's figures.
    near_duplicates : float > 0, optional
        Replace every odd training row by its (sorted) even neighbour moved
        by this distance, with its target (:func:`add_near_duplicates`; drawn
        from ``seed`` after everything else, before ``scale``).  Default
        None: no copies.

    Returns
    -------
    Dataset
        ``X_train`` (n_train, 1): x ~ U[low, high] sorted; ``y_train`` =
        sin(x)/x + noise; ``X_test`` (n_test, 1): equispaced grid on
        [low, high]; ``y_test`` = sin(x)/x without noise (the function to
        recover).

    Notes
    -----
    Cost O(n).  sinc(x) = sin(x)/x (unnormalised, as in the book), not
    NumPy's sin(pi x)/(pi x).
    """
    check_int("n_train", n_train, minimum=1)
    check_int("n_test", n_test, minimum=1)
    _check_real("noise_std", noise_std, minimum=0.0)
    outliers = check_bool("outliers", outliers)
    if near_duplicates is not None:
        check_positive("near_duplicates", near_duplicates)
    _check_interval(low, high)
    rng = as_generator(seed)
    x = np.sort(rng.uniform(low, high, n_train))
    y = _sinc(x)
    if noise_std > 0:
        y = y + rng.normal(0.0, noise_std, n_train)
    x_test = np.linspace(low, high, n_test)
    name = "sinc-noisy" if noise_std > 0 else "sinc"
    prov = (f"generated: y = sin(x)/x on x ~ U[{low}, {high}] (n_train={n_train}, seed={seed!r}), "
            f"training noise N(0, {noise_std}^2); test: {n_test} equispaced points, noiseless; "
            "used in Suykens et al., LS-SVMs (2002) §3.7 Figs. 3.9-3.10")
    y_train, idx = y, None
    if outliers:
        c = inject_target_outliers(y, seed=rng)
        y_train, idx = c.y, c.indices
        prov += "; " + c.describe()
    X_train = x[:, None]
    if near_duplicates is not None:
        d = add_near_duplicates(X_train, y_train, near_duplicates, seed=rng, outlier_indices=idx)
        X_train, y_train, idx = d.X, d.y, d.outlier_indices
        prov += "; " + d.describe()
    return build(name, "regression", X_train, y_train, x_test[:, None], _sinc(x_test),
                 provenance=prov, scale=scale, feature_names=("x",), outlier_indices=idx)


def noisy_sinc(*, noise_std: float = 0.1, **kw) -> Dataset:
    """Noisy sinc, Suykens §3.7 Fig. 3.10: :func:`sinc` with ``noise_std=0.1`` (our choice).

    The book does not give the noise level; 0.1 is LS-SVMlab's demo level.
    ``noise_std`` must be > 0; other keywords are those of :func:`sinc`.
    """
    if _check_real("noise_std", noise_std, minimum=0.0) == 0:
        raise ValueError(f"expected noise_std > 0 for the noisy sinc, got noise_std={noise_std!r}")
    return sinc(noise_std=noise_std, **kw)


def _spiral_arm(t: np.ndarray, radius: float) -> np.ndarray:
    """Lang & Witbrock's arm: angle t*pi/16, radius radius*(104 - t)/104, t in [0, 96]."""
    phi, r = t * np.pi / 16, radius * (104 - t) / 104
    return np.column_stack([r * np.sin(phi), r * np.cos(phi)])


def two_spirals(*, n_per_class: int = 97, n_test_per_class: int = 97, radius: float = 6.5,
                noise_std: float = 0.0, seed=0, scale: str | None = None) -> Dataset:
    """Two interleaved spirals (Lang & Witbrock 1988), Suykens §3.1 Fig. 3.2.

    Parameters
    ----------
    n_per_class : int >= 2
        Training points per spiral at t = 96 i / (n_per_class - 1),
        i = 0..n_per_class-1; the default 97 gives the classic benchmark
        exactly (t = i, three turns, 194 points).
    n_test_per_class : int >= 1
        Test points per spiral at t ~ U[0, 96] (between the training points).
    radius : float > 0
        Outer radius (6.5 in the benchmark).  Suykens' Fig. 3.2 shows inputs
        in [-40, 40] and the book does not give its generator, so the
        classic benchmark is our reference.
    noise_std : float >= 0
        Isotropic Gaussian jitter added to training and test inputs.
    seed : int or numpy.random.Generator
    scale : {"minmax", "standard", None}

    Returns
    -------
    Dataset
        X (2 columns), y = 1 for the spiral (r sin phi, r cos phi) and 0 for
        its point reflection; ``as_pm1()`` gives the +-1 coding.

    Notes
    -----
    The classes do not overlap (Suykens: "separable").  Along any ray the
    arms of the two classes alternate a constant radius*16/104 apart (1.0
    for the benchmark), so every noiseless point is about equally far from
    the boundary; no outlier option is offered (no paper contaminates this
    set).  Cost O(n).
    """
    check_int("n_per_class", n_per_class, minimum=2)
    check_int("n_test_per_class", n_test_per_class, minimum=1)
    if _check_real("radius", radius, minimum=0.0) == 0:
        raise ValueError(f"expected radius > 0, got radius={radius!r}")
    _check_real("noise_std", noise_std, minimum=0.0)
    rng = as_generator(seed)
    t_train = 96.0 * np.arange(n_per_class) / (n_per_class - 1)
    t_test = rng.uniform(0.0, 96.0, n_test_per_class)
    parts = []
    for t in (t_train, t_test):
        arm = _spiral_arm(t, radius)
        X = np.vstack([arm, -arm])
        if noise_std > 0:
            X = X + rng.normal(0.0, noise_std, X.shape)
        parts += [X, np.repeat([1.0, 0.0], len(t))]
    prov = (f"generated: Lang & Witbrock (1988) two-spiral benchmark, angle t*pi/16, radius "
            f"{radius}*(104 - t)/104; training t = 96 i/{n_per_class - 1} ({2 * n_per_class} points), "
            f"test t ~ U[0, 96] ({2 * n_test_per_class} points, seed={seed!r}), input noise "
            f"N(0, {noise_std}^2); used in Suykens et al., LS-SVMs (2002) §3.1 Fig. 3.2")
    return build("two-spirals", "classification", *parts, provenance=prov, scale=scale,
                 feature_names=("x1", "x2"), class_names=("spiral-2", "spiral-1"))


def ripley_bayes_decision(X) -> np.ndarray:
    """Bayes decision function of Ripley's mixture: log p(x|1) - log p(x|0).

    Parameters
    ----------
    X : (n, 2) array_like

    Returns
    -------
    f : (n,) float64 ndarray
        Positive where class 1 is more probable (equal priors).  Each class
        density is 1/2 sum_j N(x; m_j, 0.03 I); the common normalising
        constants cancel and the log-sum is evaluated with ``logaddexp``
        (no underflow far from the means).
    """
    X = as_matrix(X, "X", allow_object=False).astype(np.float64, copy=False)
    check_finite(X, "X")
    if X.shape[1] != 2:
        raise ValueError(f"expected 2 columns for Ripley's mixture, got X.shape={X.shape}")

    def log_density(c):
        e = [-((X - np.asarray(m)) ** 2).sum(axis=1) / (2 * RIPLEY_VARIANCE) for m in RIPLEY_MEANS[c]]
        return np.logaddexp(e[0], e[1])

    return log_density(1) - log_density(0)


def _ripley_sample(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n0 = n // 2
    y = np.repeat([0.0, 1.0], [n0, n - n0])
    comp = rng.integers(0, 2, n)
    means = np.array([RIPLEY_MEANS[int(c)][j] for c, j in zip(y, comp)]).reshape(n, 2)
    return means + rng.normal(0.0, np.sqrt(RIPLEY_VARIANCE), (n, 2)), y


def ripley_mixture(*, n_train: int = 250, n_test: int = 1000, seed=0, outliers: bool = False,
                   scale: str | None = None, near_duplicates: float | None = None) -> Dataset:
    """Ripley-style two-class Gaussian mixture (Ripley 1994, 1996).

    Parameters
    ----------
    n_train, n_test : int >= 2
        Ripley's files have 250 / 1000 points.  Each part has
        ``n // 2`` points of class 0 and the rest of class 1 (balanced, as in
        Ripley's files); each point picks one of its class's two components
        with probability 1/2.
    seed : int or numpy.random.Generator
    outliers : bool
        Flip training labels as in Chen & Zhou §5.1, ranking points by their
        distance from the Bayes boundary |:func:`ripley_bayes_decision`|.
    scale : {"minmax", "standard", None}
    near_duplicates : float > 0, optional
        Replace every odd training row by the even row before it moved by
        this distance, with its label (:func:`add_near_duplicates`, drawn
        from ``seed`` after everything else, before ``scale``).

    Returns
    -------
    Dataset
        Class 0 components: means (-0.7, 0.3) and (0.3, 0.3); class 1:
        (-0.3, 0.7) and (0.4, 0.7); covariance 0.03 I for all four.

    Notes
    -----
    Cost O(n).  The Bayes rule is sign(ripley_bayes_decision(x)).
    """
    check_int("n_train", n_train, minimum=2)
    check_int("n_test", n_test, minimum=2)
    outliers = check_bool("outliers", outliers)
    if near_duplicates is not None:
        check_positive("near_duplicates", near_duplicates)
    rng = as_generator(seed)
    X_train, y_train = _ripley_sample(n_train, rng)
    X_test, y_test = _ripley_sample(n_test, rng)
    prov = (f"generated: Ripley (1994, 1996) mixture, class 0 means {RIPLEY_MEANS[0]}, class 1 means "
            f"{RIPLEY_MEANS[1]}, covariance {RIPLEY_VARIANCE} I, equal component weights, balanced "
            f"classes (n_train={n_train}, n_test={n_test}, seed={seed!r}); used in Suykens et al., "
            "LS-SVMs (2002) Fig. 3.3 and Vieira et al. (2016, RIP)")
    idx = None
    if outliers:
        c = inject_label_outliers(X_train, y_train, seed=rng, decision_function=ripley_bayes_decision)
        y_train, idx = c.y, c.indices
        prov += "; " + c.describe() + " (boundary: Bayes decision function)"
    if near_duplicates is not None:
        d = add_near_duplicates(X_train, y_train, near_duplicates, seed=rng, outlier_indices=idx)
        X_train, y_train, idx = d.X, d.y, d.outlier_indices
        prov += "; " + d.describe()
    return build("ripley-mixture", "classification", X_train, y_train, X_test, y_test,
                 provenance=prov, scale=scale, feature_names=("xs", "ys"), class_names=(0, 1),
                 outlier_indices=idx)


@dataclass(frozen=True, eq=False)
class Contamination:
    """Result of an outlier injection (the inputs are never modified).

    Attributes
    ----------
    y : (n,) float64 ndarray
        New labels / targets.
    indices : (m,) int ndarray
        Sorted rows whose value was changed.
    candidates : (k,) int ndarray or None
        Classification: the sorted rows of the pool the flips were drawn
        from (the ``far_fraction`` of points farthest from the boundary).
    noise_std : float or None
        Regression: the standard deviation d of the added noise.
    """

    y: np.ndarray
    indices: np.ndarray
    candidates: np.ndarray | None = None
    noise_std: float | None = None

    def describe(self) -> str:
        if self.candidates is not None:
            return (f"outliers: labels of {len(self.indices)} training rows flipped, drawn at random "
                    f"among the {len(self.candidates)} farthest from the decision boundary "
                    f"({_CHEN_ZHOU}, §5.1)")
        return (f"outliers: N(0, d^2) noise with d = {self.noise_std:.6g} added to {len(self.indices)} "
                f"random training targets ({_CHEN_ZHOU}, §5.2)")


@dataclass(frozen=True, eq=False)
class NearDuplicates:
    """A training set with near-duplicate pairs (:func:`add_near_duplicates`; inputs never modified).

    Attributes
    ----------
    X : (n, d) float64 ndarray
        Row 2i + 1 is row 2i moved by ``delta`` (i < n // 2); the even rows
        and, for odd n, the last row are the input's.
    y : (n,) float64 ndarray
        Row 2i + 1 holds row 2i's label or target.
    delta : float
        The distance ||X[2i + 1] - X[2i]||_2 (to within rounding).
    outlier_indices : (m,) int ndarray or None
        The rows that carry an outlier's value after the copy (the input's
        even outlier rows and their copies), or None if none were given.
    """

    X: np.ndarray
    y: np.ndarray
    delta: float
    outlier_indices: np.ndarray | None = None

    def describe(self) -> str:
        return (f"near duplicates: each of the {len(self.y) // 2} odd training rows replaced by the even "
                f"row before it moved by delta = {self.delta:.3g} in a random direction (same label / "
                "target)")


def add_near_duplicates(X, y, delta, *, seed=0, outlier_indices=None) -> NearDuplicates:
    """Replace every odd row by the even row before it moved by a distance ``delta``.

    The kappa ladder's data knob: a support of more than n/2 points then
    holds at least one pair at distance delta, whose two kernel rows differ
    by O(delta) (the RBF kernel's slope; its 2 x 2 block has the eigenvalue
    1 - exp(-delta^2 / sigma2) ~ delta^2 / sigma2), so that a matrix formed
    from those rows alone, without a ridge, has a singular value ~ delta.

    Parameters
    ----------
    X : (n, d) array_like
    y : (n,) array_like
        Row 2i + 1 of the result is X[2i] + delta u_i with y[2i]: u_i a unit
        direction drawn from ``seed`` (a sign for d = 1).  Rows next to each
        other in a sorted 1-D set (sinc) stay neighbours; the pairs of a
        random sample (Ripley's mixture) are random.
    delta : float > 0
        The distance of each pair; finite and positive (delta = 0 would be
        an exact duplicate, a singular kernel matrix at every size).
    seed : int or numpy.random.Generator
        Draws the directions (a Generator's stream is consumed).
    outlier_indices : array_like of int, optional
        Rows of the input that are outliers (each in ``range(n)``); the
        result's are the kept ones and their copies (an odd outlier row is
        overwritten by its pair).

    Returns
    -------
    NearDuplicates
        New arrays; ``X`` and ``y`` are never modified.

    Raises
    ------
    TypeError, ValueError
        ``delta`` not a positive finite real, naming ``delta``; X, y not
        finite or of different lengths; ``outlier_indices`` not integers
        in ``range(n)``.

    Notes
    -----
    Cost O(n d).
    """
    delta = float(check_positive("delta", delta))   # a distance: finite, > 0
    X, y = _xy(X, y)
    rows = None if outlier_indices is None else _check_indices("outlier_indices", outlier_indices, len(y))
    rng = as_generator(seed)
    n, d = X.shape
    u = rng.normal(size=(n // 2, d))
    u /= np.sqrt(np.sum(u * u, axis=1, keepdims=True))
    X2, y2 = X.copy(), y.copy()
    X2[1:2 * (n // 2):2] = X[0:2 * (n // 2):2] + float(delta) * u
    y2[1:2 * (n // 2):2] = y[0:2 * (n // 2):2]
    idx = None
    if rows is not None:
        source = np.arange(n) - (np.arange(n) % 2) * (np.arange(n) < 2 * (n // 2))
        idx = np.flatnonzero([int(s) in rows for s in source])
    return NearDuplicates(X2, y2, float(delta), idx)


def _check_indices(name, value, n) -> set:
    """The row indices in ``value`` (1-D array_like of int in ``range(n)``) as a set; else an error naming ``name``."""
    arr = np.asarray(value) if not isinstance(value, (str, bytes)) else np.asarray([value])
    if arr.size == 0:
        return set()
    if arr.ndim != 1 or arr.dtype.kind not in "iu":
        raise TypeError(f"expected a 1-D array_like of int row indices for {name}, got {name}={short_repr(value)}")
    if arr.min() < 0 or arr.max() >= n:
        raise ValueError(f"expected row indices in range({n}) for {name}, got {name}={short_repr(value)}")
    return {int(i) for i in arr}


def linear_proxy_decision(X, y) -> np.ndarray:
    """Decision values of the least-squares linear discriminant fitted to (X, y).

    Solves min ||[X 1] beta - t||_2 with t = +1 for the larger of the two
    label values and -1 for the other (``numpy.linalg.lstsq``, SVD, float64)
    and returns f = [X 1] beta.  |f| / ||w|| is the distance to the
    hyperplane, so ranking by |f| ranks by distance.  The fit is
    affine-equivariant: rescaling the input columns changes neither f nor
    the ranking.  ``X`` (n, d) and ``y`` (n,) are finite real arrays
    (else a TypeError / ValueError naming the argument).
    """
    X, y = _xy(X, y)
    X = X.astype(np.float64, copy=False)
    t = np.where(y == np.max(y), 1.0, -1.0)
    A = np.column_stack([X, np.ones(len(X))])
    beta = np.linalg.lstsq(A, t, rcond=None)[0]
    return A @ beta


def _check_fraction(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"expected a real number in (0, 1] for {name}, got {name}={value!r}")
    if not 0 < value <= 1:
        raise ValueError(f"expected {name} in (0, 1], got {name}={value!r}")


def _xy(X, y):
    X = as_matrix(X, "X", allow_object=False)
    check_finite(X, "X")
    y = as_vector(y, "y", allow_object=False)
    check_finite(y, "y")
    if len(y) != len(X):
        raise ValueError(f"expected y with X.shape[0]={X.shape[0]} entries, got y.shape={y.shape}")
    return X, y


def inject_label_outliers(X, y, *, seed=0, decision_function=None, far_fraction: float = 0.3,
                          flip_fraction: float = 1 / 3, rate: float | None = None) -> Contamination:
    """Flip labels far from the decision boundary (Chen & Zhou §5.1).

    "We choose 30% of samples which are far from decision hyperplane, then
    randomly sample 1/3 of them and flip their labels" (10% outliers).

    Parameters
    ----------
    X : (n, d) array_like
    y : (n,) array_like with exactly two distinct values
    seed : int or numpy.random.Generator
    decision_function : callable, optional
        ``decision_function(X) -> (n,)`` decision values f; the boundary is
        f = 0 and points are ranked by |f| (for a kernel machine
        |f(x)| / ||w|| is the distance to the hyperplane in feature space,
        so this is the paper's ranking).  Default:
        :func:`linear_proxy_decision` fitted to (X, y).  For generators with
        a known Bayes boundary, pass it (``ripley_mixture`` does).
    far_fraction : float in (0, 1]
        The pool: the ``round(far_fraction * n)`` rows with the largest |f|
        (ties broken by row order).
    flip_fraction : float in (0, 1]
        ``round(flip_fraction * pool size)`` rows of the pool, drawn without
        replacement, get the other label.
    rate : float in (0, 1/3], optional
        Outlier rate rho (Chen & Zhou Table 3's 5 %): overrides the two
        fractions with ``far_fraction = 3 rho``, ``flip_fraction = 1/3``
        (SEED_NOTES §0.4 DECISION; rho = 0.1 is the paper's protocol).

    Returns
    -------
    Contamination
        New ``y`` (float64), the flipped ``indices`` and the pool ``candidates``.

    Raises
    ------
    ValueError
        If y does not have exactly two distinct values, lengths differ, f
        has the wrong shape or is not finite, or a fraction is outside (0, 1].
    """
    X, y = _xy(X, y)
    if rate is not None:
        _check_fraction("rate", rate)
        if rate > 1 / 3:
            raise ValueError(f"expected rate in (0, 1/3] (the pool is 3 rate), got rate={rate!r}")
        far_fraction, flip_fraction = 3 * rate, 1 / 3
    labels = np.unique(y)
    if len(labels) != 2:
        raise ValueError(f"expected y with exactly two classes, got {len(labels)} classes "
                         f"{labels.tolist()[:10]}")
    _check_fraction("far_fraction", far_fraction)
    _check_fraction("flip_fraction", flip_fraction)
    check_callable("decision_function", decision_function)
    rng = as_generator(seed)
    if decision_function is None:
        f = linear_proxy_decision(X, y)
    else:
        f = np.asarray(decision_function(X.copy()), dtype=np.float64)
        if f.shape != (len(y),) or not np.isfinite(f).all():
            raise ValueError(f"expected decision_function(X) to give {len(y)} finite values, "
                             f"got shape {f.shape}")
    n_far = int(round(far_fraction * len(y)))
    order = np.argsort(-np.abs(f), kind="stable")
    candidates = np.sort(order[:n_far])
    flipped = np.sort(rng.choice(candidates, int(round(flip_fraction * n_far)), replace=False))
    y_new = np.array(y, dtype=np.float64, copy=True)
    y_new[flipped] = np.where(y[flipped] == labels[0], labels[1], labels[0])
    return Contamination(y_new, flipped, candidates=candidates)


def inject_target_outliers(y, *, seed=0, fraction: float = 0.1,
                           noise_std: float | None = None) -> Contamination:
    """Add large Gaussian noise to a random fraction of targets (Chen & Zhou §5.2).

    "We randomly select 1/10 training samples, and add Gaussian noise
    nu_i ~ N(0, d^2) on their targets ... d as half of the mean of the
    targets."

    Parameters
    ----------
    y : (n,) array_like
    seed : int or numpy.random.Generator
    fraction : float in (0, 1]
        ``round(fraction * n)`` rows drawn without replacement.
    noise_std : float > 0, optional
        d; default |mean(y)| / 2 (the paper's rule; the absolute value
        makes it usable for negative means).

    Returns
    -------
    Contamination
        New ``y``, the sorted ``indices`` changed and ``noise_std`` = d.

    Raises
    ------
    ValueError
        If the default d is 0 (zero-mean targets: pass ``noise_std``), or a
        parameter is out of range.
    """
    y = as_vector(y, "y", allow_object=False)
    check_finite(y, "y")
    _check_fraction("fraction", fraction)
    d = abs(float(np.mean(y))) / 2 if noise_std is None else _check_real("noise_std", noise_std,
                                                                          minimum=0.0)
    if not d > 0:
        raise ValueError(f"expected noise_std > 0 (the default |mean(y)|/2 is 0 for zero-mean "
                         f"targets), got noise_std={d!r}")
    rng = as_generator(seed)
    idx = np.sort(rng.choice(len(y), int(round(fraction * len(y))), replace=False))
    y_new = np.array(y, dtype=np.float64, copy=True)
    y_new[idx] += rng.normal(0.0, d, len(idx))
    return Contamination(y_new, idx, noise_std=float(d))
