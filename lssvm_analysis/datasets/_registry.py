"""The one registry of data sets: sweeps, the CLI and tests refer to sets by name."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import chen_zhou, generators, keel, real
from .suykens_uci import SUYKENS_BINARY, SUYKENS_MULTICLASS, suykens_uci
from ._base import Dataset, UnknownDatasetError, as_generator, build
from ._mackey_glass import mackey_glass

__all__ = ["DatasetInfo", "datasets", "dataset_info", "load"]


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


def datasets(task: str | None = None) -> list[str]:
    """Registered data set names, optionally only those for ``task``."""
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
    return dataset_info(name).loader(**kw)
