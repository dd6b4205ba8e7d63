"""The dataset record, input scaling and random splits shared by every loader.

Every loader and generator of :mod:`lssvm_analysis.datasets` returns a
:class:`Dataset`: float64 train/test arrays, the task, and a provenance text
(source package and item, preprocessing, the paper that uses the set).

Conventions
-----------
- Classification labels are stored as the class *values* listed in
  ``Dataset.classes`` (float64), with human-readable names in
  ``Dataset.class_names``.  Loaders give class codes 0, ..., k-1 (the order
  of the source's levels); :meth:`Dataset.as_pm1` gives the {-1, +1} coding
  the LS-SVM classifier equations use (Suykens eq. 3.1, y_k in {-1, +1}).
- Only the inputs are scaled; targets are left as the source gives them.
  Scalers are fitted on the training part only and applied unchanged to the
  test part, so no test information leaks into training.
- Randomness comes from one ``numpy.random.Generator`` per call, built by
  :func:`as_generator` from ``seed`` (an int or a Generator).
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass, replace

import numpy as np

from ..core.validation import as_matrix, as_vector, check_finite, check_int, check_open_interval, short_repr
from ..core.exceptions import MissingDependencyError, UnknownDatasetError  # noqa: F401 (re-exported)

__all__ = [
    "Dataset",
    "Scaler",
    "fit_scaler",
    "random_split",
    "to_pm1",
    "as_generator",
    "build",
    "SCALINGS",
    "SPLITS",
    "TASKS",
    "UnknownDatasetError",
    "MissingDependencyError",
]

TASKS = ("regression", "classification")
SCALINGS = ("minmax", "standard", None)
SPLITS = ("permutation", "bernoulli")


def as_generator(seed, name: str = "seed") -> np.random.Generator:
    """Return ``numpy.random.default_rng(seed)`` after checking ``seed``.

    Parameters
    ----------
    seed : int >= 0 or numpy.random.Generator
        A Generator is used as is (its stream is consumed); an int seeds a new one.
    name : str
        The argument's name in the caller's signature, for the message.

    Raises
    ------
    TypeError
        If ``seed`` is neither (``None`` is refused: every draw must be seeded).
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise TypeError(f"expected a non-negative int or a numpy.random.Generator for {name}, "
                        f"got {name}={short_repr(seed)}")
    return np.random.default_rng(int(seed))


def _readonly(a) -> np.ndarray:
    a = np.array(a, dtype=np.float64, copy=True)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class Scaler:
    """Affine input scaling ``(X - shift) / scale`` fitted on a training part.

    Attributes
    ----------
    method : {"minmax", "standard"}
        ``"minmax"`` maps each training column onto [-1, 1] (shift = midrange,
        scale = half-range; Chen & Zhou §5 normalise every attribute into
        [-1, 1]); ``"standard"`` gives each training column mean 0 and
        standard deviation 1 (ddof=0; LS-SVMlab's normalisation, used in
        Suykens' benchmark §3.3 "all data sets were normalized").
    shift, scale : (d,) ndarray
        A constant training column gets ``scale = 1`` (it maps to 0), as in
        scikit-learn, rather than a division by zero.
    """

    method: str
    shift: np.ndarray
    scale: np.ndarray

    def transform(self, X) -> np.ndarray:
        """Return ``(X - shift) / scale`` as a new float64 array, shape (n, d)."""
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.shift.shape[0]:
            raise ValueError(f"expected an array of shape (n, {self.shift.shape[0]}), "
                             f"got X.shape={X.shape}")
        return (X - self.shift) / self.scale

    def describe(self) -> str:
        if self.method == "minmax":
            return "inputs scaled column-wise onto [-1, 1] by the training part's min/max"
        return "inputs standardised column-wise by the training part's mean and std (ddof=0)"


def fit_scaler(X_train, method: str) -> Scaler:
    """Fit a :class:`Scaler` on ``X_train`` (n, d).

    Raises
    ------
    TypeError
        ``X_train`` not a real 2-D array (text, objects).
    ValueError
        If ``method`` is not ``"minmax"`` or ``"standard"``, or ``X_train`` holds NaN or inf.
    """
    if not isinstance(method, str) or method not in ("minmax", "standard"):
        raise ValueError(f"expected method in ('minmax', 'standard'), got method={short_repr(method)}")
    X = as_matrix(X_train, "X_train", allow_object=False)
    check_finite(X, "X_train")
    X = X.astype(np.float64, copy=False)
    if method == "minmax":
        lo, hi = X.min(axis=0), X.max(axis=0)
        shift, scale = lo + (hi - lo) / 2, (hi - lo) / 2
    else:
        shift, scale = X.mean(axis=0), X.std(axis=0)
    scale = np.where(scale > 0, scale, 1.0)
    return Scaler(method, _readonly(shift), _readonly(scale))


def random_split(n: int, *, test_fraction: float, rng: np.random.Generator,
                 split: str = "permutation") -> tuple[np.ndarray, np.ndarray]:
    """Seeded random division of ``range(n)`` into (train, test) index arrays.

    Parameters
    ----------
    n : int >= 2
    test_fraction : float in (0, 1)
    rng : numpy.random.Generator or int >= 0
        An int seeds a new Generator (as every loader's ``seed``).
    split : {"permutation", "bernoulli"}
        ``"permutation"``: exactly ``round(test_fraction * n)`` test rows
        (Suykens §3.3: 2/3 training, 1/3 test).  ``"bernoulli"``: each row is
        a test row independently with probability ``test_fraction``, so the
        sizes vary between seeds (redrawn until both parts are non-empty).
        Abe's Table 1 reports 255 ± 12 LS-SVR support vectors (= training
        points) for Boston over 100 random halvings, which fits Bernoulli
        halving (sd sqrt(506/4) = 11.2), not a fixed 253/253 division.

    Returns
    -------
    train, test : sorted int ndarrays, disjoint, union ``range(n)``.
    """
    n = check_int("n", n, minimum=2)
    check_open_interval("test_fraction", test_fraction, 0.0, 1.0)
    rng = as_generator(rng, "rng")
    if split == "permutation":
        n_test = int(round(test_fraction * n))
        if not 0 < n_test < n:
            raise ValueError(f"expected test_fraction to leave both parts non-empty for n={n}, "
                             f"got test_fraction={test_fraction!r}")
        perm = rng.permutation(n)
        return np.sort(perm[n_test:]), np.sort(perm[:n_test])
    if split == "bernoulli":
        while True:
            is_test = rng.random(n) < test_fraction
            if 0 < is_test.sum() < n:
                return np.flatnonzero(~is_test), np.flatnonzero(is_test)
    raise ValueError(f"expected split in {SPLITS}, got split={split!r}")


def to_pm1(y, *, positive) -> np.ndarray:
    """Map labels to {-1.0, +1.0}: +1 where ``y == positive``, -1 elsewhere.

    Parameters
    ----------
    y : (n,) array_like of class values (real numbers, finite)
    positive : scalar
        The class value coded +1 (one-vs-rest when y has more than two classes).

    Returns
    -------
    (n,) float64 ndarray (new array; ``y`` is not modified).

    Raises
    ------
    TypeError
        ``y`` not a real 1-D array (the class values of a :class:`Dataset` are float64).
    ValueError
        If ``y`` holds NaN or inf, or ``positive`` does not occur in ``y``.
    """
    y = as_vector(y, "y", allow_object=False)
    check_finite(y, "y")
    hit = y == positive
    if not hit.any():
        raise ValueError(f"expected positive to be one of the labels of y {np.unique(y).tolist()[:10]}, "
                         f"got positive={short_repr(positive)}")
    return np.where(hit, 1.0, -1.0)


@dataclass(frozen=True, eq=False)
class Dataset:
    """A train/test data set with its provenance.

    Attributes
    ----------
    name : str
        Registry name (e.g. ``"boston5"``).
    task : {"regression", "classification"}
    X_train : (n_train, d) float64 ndarray, read-only
    y_train : (n_train,) float64 ndarray, read-only
        Targets, or class values (see ``classes``).
    X_test : (n_test, d) float64 ndarray, read-only
    y_test : (n_test,) float64 ndarray, read-only
    provenance : str
        Source (package and item, or generator and its parameters), the
        preprocessing applied (missing values, split, outliers, scaling) and
        the paper(s) that use the set.
    feature_names : tuple of str or None
    classes : tuple of float or None
        The class values occurring in y (sorted); None for regression.
    class_names : tuple of str or None
        ``class_names[k]`` names ``classes[k]`` (the source's labels).
    outlier_indices : (m,) int ndarray or None
        Training rows whose label or target was contaminated (Chen & Zhou
        §5.1); None when no outliers were injected.
    scaler : Scaler or None
        The input scaling applied (fitted on the raw training part).
    """

    name: str
    task: str
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    provenance: str
    feature_names: tuple | None = None
    classes: tuple | None = None
    class_names: tuple | None = None
    outlier_indices: np.ndarray | None = None
    scaler: Scaler | None = None

    def __post_init__(self):
        if self.task not in TASKS:
            raise ValueError(f"expected task in {TASKS}, got task={self.task!r}")
        for part in ("train", "test"):
            X, y = _readonly(getattr(self, "X_" + part)), _readonly(getattr(self, "y_" + part))
            if X.ndim != 2 or y.shape != (X.shape[0],):
                raise ValueError(f"expected X_{part} (n, d) and y_{part} (n,), got "
                                 f"X_{part}.shape={X.shape}, y_{part}.shape={y.shape}")
            object.__setattr__(self, "X_" + part, X)
            object.__setattr__(self, "y_" + part, y)
        if self.X_train.shape[1] != self.X_test.shape[1]:
            raise ValueError(f"expected X_test with {self.X_train.shape[1]} columns, "
                             f"got X_test.shape={self.X_test.shape}")
        if self.outlier_indices is not None:
            idx = np.array(self.outlier_indices, dtype=np.intp)
            idx.setflags(write=False)
            object.__setattr__(self, "outlier_indices", idx)

    @property
    def n_features(self) -> int:
        return self.X_train.shape[1]

    def as_pm1(self, *, positive=None) -> "Dataset":
        """Return a copy with labels in {-1, +1} (Suykens eq. 3.1 coding).

        Parameters
        ----------
        positive : class value or class name, optional
            The class coded +1; all others are coded -1 (one-vs-rest).
            Default: the larger class value of a binary problem.

        Raises
        ------
        ValueError
            For a regression set, for a multiclass set without ``positive``,
            or if ``positive`` is not a class value or name.
        """
        if self.task != "classification":
            raise ValueError(f"expected a classification data set, got task={self.task!r} "
                             f"for {self.name!r}")
        k = self._class_index(positive)
        pos_name = self.class_names[k]
        if len(self.classes) == 2:
            neg_name = self.class_names[1 - k]
        else:
            neg_name = "not " + str(pos_name)
        value = self.classes[k]
        return replace(self, y_train=to_pm1(self.y_train, positive=value),
                       y_test=to_pm1(self.y_test, positive=value), classes=(-1.0, 1.0),
                       class_names=(neg_name, pos_name),
                       provenance=self.provenance + f"; labels coded +1 = {pos_name!r}, -1 = {neg_name!r}")

    def _class_index(self, positive) -> int:
        if positive is None:
            if len(self.classes) != 2:
                raise ValueError(f"expected positive= for the {len(self.classes)}-class set "
                                 f"{self.name!r} (one of {list(self.class_names)}), got positive=None")
            return 1
        for k, (value, label) in enumerate(zip(self.classes, self.class_names)):
            if positive == label or (isinstance(positive, numbers.Real)
                                     and not isinstance(positive, bool) and positive == value):
                return k
        raise ValueError(f"expected positive in classes {list(self.classes)} or class names "
                         f"{list(self.class_names)}, got positive={positive!r}")


def build(name: str, task: str, X_train, y_train, X_test, y_test, *, provenance: str,
          scale: str | None, feature_names=None, class_names=None,
          outlier_indices=None) -> Dataset:
    """Scale the inputs (fitted on the training part) and assemble a :class:`Dataset`.

    ``class_names`` (classification) names the codes 0, ..., k-1 used in y.
    """
    if scale not in SCALINGS:
        raise ValueError(f"expected scale in {SCALINGS}, got scale={scale!r}")
    scaler = None
    if scale is not None:
        scaler = fit_scaler(X_train, scale)
        X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
        provenance += "; " + scaler.describe() + " (targets unscaled)"
    classes = None
    if task == "classification":
        classes = tuple(float(k) for k in range(len(class_names)))
        class_names = tuple(class_names)
    return Dataset(name, task, X_train, y_train, X_test, y_test, provenance,
                   feature_names=None if feature_names is None else tuple(feature_names),
                   classes=classes, class_names=class_names,
                   outlier_indices=outlier_indices, scaler=scaler)
