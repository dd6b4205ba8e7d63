"""The one registry of data sets: sweeps, the CLI and tests refer to sets by name."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import chen_zhou, generators, keel, real
from .suykens_uci import SUYKENS_BINARY, SUYKENS_MULTICLASS, suykens_uci
from ..core.exceptions import UnexpectedParameterError
from ..core.validation import as_matrix, as_vector, check_bool, check_open_interval, short_repr
from ._base import Dataset, UnknownDatasetError, as_generator, build, random_split
from ._mackey_glass import mackey_glass

__all__ = ["DatasetInfo", "datasets", "dataset_info", "load", "register", "unregister", "from_arrays"]


@dataclass(frozen=True)
class DatasetInfo:
    """What the registry knows of a data set.

    Attributes
    ----------
    name : str
        Registry name, e.g. ``"boston5"``.
    loader : callable
        ``loader(**kw) -> Dataset`` (keyword-only options).
    task : {"regression", "classification"}
    papers : str
        The seed papers that use the set.
    """

    name: str
    loader: Callable
    task: str
    papers: str


def _mackey_glass(**kw) -> Dataset:
    """Registry adapter for :func:`~lssvm_analysis.datasets._mackey_glass.mackey_glass`.

    Accepts ``seed``, ``scale`` and ``outliers`` like every loader.  The
    series is deterministic: ``seed`` is passed on (only if given; there it
    draws the initial history), and seeds the Chen & Zhou §5.2 target
    outliers (seed 0 when not given).  A plain (X_train, y_train, X_test,
    y_test[, provenance]) result is wrapped.
    """
    scale = kw.pop("scale", None)
    seed = kw.pop("seed", None)
    outliers = kw.pop("outliers", False)
    if seed is not None:
        kw["seed"] = seed
    out = mackey_glass(**kw)
    if isinstance(out, Dataset):
        parts, prov = (out.X_train, out.y_train, out.X_test, out.y_test), out.provenance
    elif isinstance(out, tuple) and len(out) in (4, 5):
        parts = out[:4]
        prov = out[4] if len(out) == 5 else "generated: Mackey-Glass delay differential equation"
    else:
        parts = tuple(getattr(out, a) for a in ("X_train", "y_train", "X_test", "y_test"))
        prov = getattr(out, "provenance", "generated: Mackey-Glass delay differential equation")
    X_train, y_train, X_test, y_test = (np.asarray(a, dtype=np.float64) for a in parts)
    prov, idx = str(prov), None
    if outliers:
        c = generators.inject_target_outliers(y_train, seed=as_generator(0 if seed is None else seed))
        y_train, idx = c.y, c.indices
        prov += "; " + c.describe()
    return build("mackey-glass", "regression", X_train, y_train, X_test, y_test,
                 provenance=prov, scale=scale, outlier_indices=idx,
                 feature_names=("x(t-18)", "x(t-12)", "x(t-6)", "x(t)"))


_ABE, _SUY, _VIE, _CZ = "Abe", "Suykens ch. 3", "Vieira et al.", "Chen & Zhou"
_REGISTRY: dict[str, DatasetInfo] = {
    info.name: info for info in (
        DatasetInfo("mackey-glass", _mackey_glass, "regression", _ABE),
        DatasetInfo("sinc", generators.sinc, "regression", _SUY),
        DatasetInfo("sinc-noisy", generators.noisy_sinc, "regression", _SUY),
        DatasetInfo("two-spirals", generators.two_spirals, "classification", _SUY),
        DatasetInfo("ripley-mixture", generators.ripley_mixture, "classification",
                    f"{_SUY}, {_VIE}, {_CZ} (outliers)"),
        DatasetInfo("boston5", real.boston5, "regression", _ABE),
        DatasetInfo("boston14", real.boston14, "regression", _ABE),
        DatasetInfo("ripley-synth", real.ripley_synth, "classification", f"{_SUY}, {_VIE}"),
        DatasetInfo("breast-cancer-wisconsin", real.breast_cancer_wisconsin, "classification",
                    f"{_SUY}, {_VIE}"),
        DatasetInfo("pima", real.pima, "classification", _SUY),
        DatasetInfo("iris", real.iris, "classification", _SUY),
        DatasetInfo("wine", real.wine, "classification", _SUY),
        DatasetInfo("wdbc", real.wdbc, "classification", "(diagnostic variant)"),
        DatasetInfo("haberman", keel.haberman, "classification", _VIE),
        DatasetInfo("pima-uci", keel.pima_uci, "classification", f"{_SUY}, {_VIE}"),
        DatasetInfo("wisconsin-keel", keel.wisconsin_keel, "classification", _SUY),
        DatasetInfo("penbased", keel.penbased, "classification", _CZ),
        DatasetInfo("satimage", keel.satimage, "classification", _CZ),
        DatasetInfo("splice", keel.splice, "classification", _CZ),
        DatasetInfo("cz-fig3", chen_zhou.fig3_linear, "classification", _CZ),
        DatasetInfo("cz-road3d", chen_zhou.road3d, "regression", f"{_CZ} (shape of 3D Road Network)"),
    ) + tuple(DatasetInfo(f"suykens-{code}", functools.partial(suykens_uci, code),
                          "classification", f"{_SUY} §3.4.2")
              for code in SUYKENS_BINARY + SUYKENS_MULTICLASS)
}
#: The names shipped with the package (never replaced nor removed by :func:`register` / :func:`unregister`).
_BUILT_IN = frozenset(_REGISTRY)


_TASKS = ("regression", "classification")


def register(name: str, loader: Callable, *, task: str | None = None, papers: str = "user",
             replace: bool = False) -> DatasetInfo:
    """Add a user's data set to the registry, so sweeps, ``compare`` and reports can name it.

    Parameters
    ----------
    name : str
        The registry name (a sweep's ``datasets=[name]``).
    loader : callable
        ``loader(**kw) -> Dataset``: keyword-only options, at least ``seed``
        and ``scale`` like every loader (:func:`from_arrays` makes one from
        arrays).  Sweeps on local processes see it (the workers are forked);
        a Dask worker must register it too (``compare`` does, through
        ``Client.run``).
    task : {"regression", "classification"}, optional
        Default: the task of ``loader()``'s data set (the loader is called once).
    papers : str
        Who uses the set (the report's data-set listing).
    replace : bool
        Replace a set of the same name (a built-in one is never replaced).

    Returns
    -------
    DatasetInfo

    Raises
    ------
    TypeError
        ``loader`` not callable, ``name`` not a string, ``replace`` not a bool.
    ValueError
        An empty name, a name already registered, a task not in ("regression", "classification").
    """
    if not isinstance(name, str) or not name:
        raise (TypeError if not isinstance(name, str) else ValueError)(
            f"expected a non-empty string, got name={name!r}")
    if not callable(loader):
        raise TypeError(f"expected a callable loader(**kw) -> Dataset, got loader={loader!r}")
    replace = check_bool("replace", replace)
    if name in _REGISTRY and (not replace or name in _BUILT_IN):
        raise ValueError(f"expected a name not yet registered (or replace=True for a user's set), "
                         f"got name={name!r}")
    if task is None:
        sample = loader()
        if not isinstance(sample, Dataset):
            raise TypeError(f"expected a loader that returns a Dataset, got loader={short_repr(loader)} "
                            f"returning {short_repr(sample)} for data set name={name!r}")
        task = sample.task
    if task not in _TASKS:
        raise ValueError(f"expected task in {_TASKS}, got task={task!r}")
    info = _REGISTRY[name] = DatasetInfo(name, loader, task, str(papers))
    return info


def unregister(name: str) -> DatasetInfo:
    """Remove a user's data set (a built-in one cannot be removed)."""
    if name in _BUILT_IN:
        raise ValueError(f"expected a user-registered data set, got name={name!r} (built in)")
    info = dataset_info(name)
    return _REGISTRY.pop(info.name)


def from_arrays(name: str, X, y, *, task: str | None = None, X_test=None, y_test=None,
                test_fraction: float = 0.25, feature_names=None) -> Callable:
    """A loader for :func:`register` from arrays: ``loader(seed=0, scale=None) -> Dataset``.

    The loader refuses any other keyword (``outliers``, ...: options of the
    built-in loaders) with :class:`~lssvm_analysis.core.exceptions.UnexpectedParameterError`.

    Without ``X_test`` / ``y_test`` the rows are divided at random
    (:func:`random_split`, ``test_fraction`` of them held out, drawn from
    ``seed``).  ``task`` default: "classification" when y has exactly two
    distinct values, else "regression"; classification labels are coded 0, 1
    (the larger value is class 1, +1 in the sweeps' {-1, +1}).  The arrays
    are copied: the caller's are never modified.

    ``test_fraction`` is a float in (0, 1) (checked even when a test set is
    given); ``feature_names`` None or one str per column of X.  A bad value
    is a TypeError / ValueError naming the argument.
    """
    check_open_interval("test_fraction", test_fraction, 0.0, 1.0)
    X = np.array(as_matrix(X, "X", allow_object=False), dtype=np.float64)
    y = np.array(as_vector(y, "y", allow_object=False), dtype=np.float64)
    if X.shape[0] != y.shape[0]:
        raise ValueError(f"expected X of shape (n, d) and y of shape (n,), got X.shape={X.shape}, "
                         f"y.shape={y.shape}")
    if not (np.all(np.isfinite(X)) and np.all(np.isfinite(y))):
        raise ValueError(f"expected finite X and y, got a non-finite entry in data set name={name!r}")
    values = np.unique(y)
    task = task or ("classification" if values.size == 2 else "regression")
    if task not in _TASKS:
        raise ValueError(f"expected task in {_TASKS}, got task={task!r}")
    if task == "classification" and values.size != 2:
        raise ValueError(f"expected two classes in y for a classification set, got {values.size} "
                         f"distinct values in y of data set name={name!r}")
    held = _held_out(name, X, X_test, y_test)
    feature_names = _feature_names(feature_names, X.shape[1])

    def code(v):
        return (v == values[-1]).astype(np.float64) if task == "classification" else v

    def loader(*, seed=0, scale=None, **options) -> Dataset:
        if options:   # load(name, outliers=True) etc.: options of the built-in loaders, not of arrays
            key = next(iter(options))
            raise UnexpectedParameterError(f"expected keywords among ('seed', 'scale') for the data set "
                                           f"{name!r} made from arrays, got {key}={short_repr(options[key])}")
        if held is None:
            train, test = random_split(len(y), test_fraction=test_fraction, rng=as_generator(seed))
            parts = X[train], code(y[train]), X[test], code(y[test])
            how = f"random split, {test_fraction:g} held out (seed {seed!r})"
        else:
            parts, how = (X, code(y), held[0], code(held[1])), "the test set given"
        classes = (str(values[0]), str(values[-1])) if task == "classification" else None
        return build(name, task, *parts, provenance=f"user's data ({X.shape[0]} x {X.shape[1]}); {how}",
                     scale=scale, feature_names=feature_names, class_names=classes)

    return loader


def _held_out(name, X, X_test, y_test):
    """The given test set, checked as X and y are (numeric, finite, matching shapes), or None."""
    if X_test is None and y_test is None:
        return None
    Xt = None if X_test is None else np.array(as_matrix(X_test, "X_test", allow_object=False),
                                              dtype=np.float64)
    yt = None if y_test is None else np.array(as_vector(y_test, "y_test", allow_object=False),
                                              dtype=np.float64)
    if Xt is None or yt is None:
        given, missing = ("X_test", "y_test") if yt is None else ("y_test", "X_test")
        shape = (Xt if yt is None else yt).shape
        raise ValueError(f"expected X_test and y_test together, got {given}.shape={shape} and {missing}=None")
    if Xt.shape[1] != X.shape[1] or Xt.shape[0] != yt.shape[0]:
        raise ValueError(f"expected X_test of shape (m, {X.shape[1]}) and y_test of shape (m,), got "
                         f"X_test.shape={Xt.shape}, y_test.shape={yt.shape}")
    for what, a in (("X_test", Xt), ("y_test", yt)):
        bad = np.argwhere(~np.isfinite(a))
        if bad.size:
            raise ValueError(f"expected finite {what}, got {what}[{', '.join(map(str, bad[0]))}]="
                             f"{float(a[tuple(bad[0])])!r} in data set name={name!r}")
    return Xt, yt


def _feature_names(names, d):
    """``names`` as a tuple of ``d`` str, or None; else a TypeError / ValueError naming feature_names."""
    if names is None:
        return None
    if isinstance(names, str) or not all(isinstance(v, str) for v in _iterable(names)):
        raise TypeError(f"expected None or a sequence of str for feature_names, "
                        f"got feature_names={short_repr(names)}")
    names = tuple(names)
    if len(names) != d:
        raise ValueError(f"expected one name per column of X ({d}), got {len(names)} in "
                         f"feature_names={short_repr(names)}")
    return names


def _iterable(v):
    try:
        return list(v)
    except TypeError:
        return [None]   # not iterable: refused as "not a sequence of str"


def datasets(task: str | None = None) -> list[str]:
    """Registered data set names, optionally only those for ``task`` ("regression" or "classification").

    Raises
    ------
    ValueError
        ``task`` neither None nor one of the two tasks.
    """
    if task is not None and (not isinstance(task, str) or task not in _TASKS):
        raise ValueError(f"expected task None or in {_TASKS}, got task={short_repr(task)}")
    return [n for n, info in _REGISTRY.items() if task is None or info.task == task]


def dataset_info(name: str) -> DatasetInfo:
    """The :class:`DatasetInfo` of ``name``.

    Raises
    ------
    UnknownDatasetError
        If ``name`` is not registered (the message lists the names).
    """
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise UnknownDatasetError(f"expected a data set in {datasets()}, got name={name!r}") from None


def load(name: str, **kw) -> Dataset:
    """Load or generate the data set ``name`` with the loader's keyword options.

    Every loader accepts ``seed`` (int or numpy Generator; default 0, so a
    call is reproducible) and ``scale`` ({"minmax", "standard", None});
    see each loader for the rest (``outliers``, ``test_fraction``, ...).

    Raises
    ------
    UnknownDatasetError
        Unknown ``name``.
    MissingDependencyError
        The package that ships the set is not installed.
    TypeError
        An option the loader does not take.
    """
    info = dataset_info(name)
    data = info.loader(**kw)
    if not isinstance(data, Dataset):
        raise TypeError(f"expected the loader of data set {info.name!r} to return a Dataset "
                        f"(lssvm_analysis.datasets.build or from_arrays), got {short_repr(data)} "
                        f"(a {type(data).__name__})")
    return data
