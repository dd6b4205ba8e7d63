"""Chen & Zhou's printed tables (SEED_NOTES §3.8's normalised reading), and records built from them.

The rules of the ledger read records; :func:`table_records` turns a printed table into records with
the paper's own run count, each cell's printed mean and sd exactly (standardised draws, independent
across methods): "what the paper's data would say" under each rule.  Accuracy sds are the printed
fractions × 100 (pp).  CSI has no implementation here and is left out.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["SR", "TABLE1", "FIG3", "TABLE3", "TABLE4_MG", "T1", "T2_TIMES", "T3", "T4", "T5_TIMES", "draws", "table_records"]

#: The registry name of the paper's method.
SR = "sr-lssvm"
#: Table 1 as printed: set -> solver -> (accuracy %, sd in pp: the paper's fractions × 100).
TABLE1 = {
    "penbased": {"svm-c": (99.95, 0.1), "lssvm-schur": (99.26, 0.5), "w-lssvm": (99.92, 0.2), "fs-lssvm": (99.90, 0.1),
                 "r-lssvm-w": (99.37, 0.3), "r-lssvm-y": (99.09, 0.5), "sr-lssvm": (99.96, 0.1)},
    "satimage": {"svm-c": (99.86, 0.1), "lssvm-schur": (99.23, 0.2), "w-lssvm": (99.91, 0.1), "fs-lssvm": (97.93, 0.8),
                 "r-lssvm-w": (99.90, 0.1), "r-lssvm-y": (99.88, 0.1), "sr-lssvm": (99.97, 0.1)},
    "splice": {"svm-c": (76.38, 8.0), "lssvm-schur": (75.99, 10.0), "w-lssvm": (76.04, 10.0), "fs-lssvm": (76.66, 7.0),
               "r-lssvm-w": (75.15, 14.0), "r-lssvm-y": (80.50, 4.0), "sr-lssvm": (81.27, 3.0)},
}
#: Fig. 3 with outliers as printed: solver -> test accuracy [%].
FIG3 = {"lssvm-schur": 89.50, "w-lssvm": 90.00, "r-lssvm-y": 91.50, "sr-lssvm": 91.50}
#: Table 3 as printed (Cod-RNA): solver -> {outlier rate: accuracy %}.
TABLE3 = {"fs-lssvm": {0.0: 96.18, 0.05: 95.91, 0.1: 95.03}, "pcp-lssvm": {0.0: 96.31, 0.05: 96.13, 0.1: 94.92},
          "sr-lssvm": {0.0: 96.32, 0.05: 96.29, 0.1: 95.10}}
#: Table 4, Mg (LIBSVM's mg): solver -> (RMSE, sd).
TABLE4_MG = {"svm-eps": (0.129, 0.005), "lssvm-schur": (0.132, 0.006), "w-lssvm": (0.132, 0.005),
             "fs-lssvm": (0.126, 0.005), "r-lssvm-w": (0.132, 0.006), "r-lssvm-y": (0.132, 0.006),
             "sr-lssvm": (0.125, 0.004)}

#: Table 1 (10 runs, 10 % label outliers): set -> (m, {solver: {column: (mean, sd)}}); accuracy in %.
T1 = {
    "pendigits": (1466, {
        "svm-c": {"time_fit": (0.36, 0.02), "n_significant": (433.5, 7.7), "accuracy": (99.95, 0.1)},
        "lssvm-schur": {"time_fit": (0.12, 0.01), "n_significant": (1466, 0), "accuracy": (99.26, 0.5)},
        "w-lssvm": {"time_fit": (0.18, 0.01), "n_significant": (1464.6, 1.7), "accuracy": (99.92, 0.2)},
        "fs-lssvm": {"time_fit": (0.19, 0.01), "n_significant": (73, 0), "accuracy": (99.90, 0.1)},
        "r-lssvm-w": {"iterations": (16.1, 1.7), "time_fit": (0.22, 0.01), "n_significant": (1466, 0),
                      "accuracy": (99.37, 0.3)},
        "r-lssvm-y": {"iterations": (12.2, 1.5), "time_fit": (0.19, 0.01), "n_significant": (1436.8, 8.0),
                      "accuracy": (99.09, 0.5)},
        "sr-lssvm": {"iterations": (8.5, 0.9), "time_fit": (0.03, 0.004), "n_significant": (73, 0),
                     "accuracy": (99.96, 0.1)}}),
    "protein": (8186, {
        "svm-c": {"time_fit": (55.64, 0.47), "n_significant": (5486.8, 27.1), "accuracy": (77.98, 0.4)},
        "lssvm-schur": {"time_fit": (22.67, 0.30), "n_significant": (8185.9, 0.32), "accuracy": (78.22, 0.2)},
        "w-lssvm": {"time_fit": (27.77, 0.30), "n_significant": (8185.7, 0.67), "accuracy": (78.24, 0.3)},
        "fs-lssvm": {"time_fit": (27.55, 0.61), "n_significant": (408.1, 1.2), "accuracy": (77.00, 0.3)},
        "r-lssvm-w": {"iterations": (34.9, 4.2), "time_fit": (28.56, 1.10), "n_significant": (8184.8, 0.92),
                      "accuracy": (77.81, 2.3)},
        "r-lssvm-y": {"iterations": (16.7, 3.4), "time_fit": (25.17, 0.81), "n_significant": (7876.7, 46.6),
                      "accuracy": (78.23, 0.4)},
        "sr-lssvm": {"iterations": (6, 0), "time_fit": (11.65, 0.03), "n_significant": (409, 0),
                     "accuracy": (78.04, 0.2)}}),
    "satimage": (2110, {
        "svm-c": {"time_fit": (0.25, 0.01), "n_significant": (693.5, 13.6), "accuracy": (99.86, 0.1)},
        "lssvm-schur": {"time_fit": (0.76, 0.01), "n_significant": (2109.6, 0.7), "accuracy": (99.23, 0.2)},
        "w-lssvm": {"time_fit": (0.90, 0.02), "n_significant": (1897.5, 2.1), "accuracy": (99.91, 0.1)},
        "fs-lssvm": {"time_fit": (0.50, 0.02), "n_significant": (105, 0), "accuracy": (97.93, 0.8)},
        "r-lssvm-w": {"iterations": (17.1, 1.5), "time_fit": (0.88, 0.03), "n_significant": (2107.3, 1.2),
                      "accuracy": (99.90, 0.1)},
        "r-lssvm-y": {"iterations": (11.7, 1.2), "time_fit": (0.87, 0.03), "n_significant": (1916.5, 15.1),
                      "accuracy": (99.88, 0.1)},
        "sr-lssvm": {"iterations": (6, 2.7), "time_fit": (0.27, 0.004), "n_significant": (105, 0),
                     "accuracy": (99.97, 0.1)}}),
    "usps": (2199, {
        "svm-c": {"time_fit": (0.92, 0.02), "n_significant": (646.9, 14.4), "accuracy": (99.34, 0.1)},
        "lssvm-schur": {"time_fit": (2.53, 0.01), "n_significant": (2198.7, 0.5), "accuracy": (99.34, 0.2)},
        "w-lssvm": {"time_fit": (2.67, 0.01), "n_significant": (1973.8, 3.1), "accuracy": (99.49, 0.1)},
        "fs-lssvm": {"time_fit": (1.21, 0.01), "n_significant": (109, 0), "accuracy": (98.28, 0.6)},
        "r-lssvm-w": {"iterations": (9.3, 0.84), "time_fit": (2.60, 0.02), "n_significant": (2193.7, 2.7),
                      "accuracy": (99.52, 0.0)},
        "r-lssvm-y": {"iterations": (10.2, 0.92), "time_fit": (2.60, 0.02), "n_significant": (2002.4, 14.9),
                      "accuracy": (99.52, 0.0)},
        "sr-lssvm": {"iterations": (6, 0.79), "time_fit": (1.91, 0.01), "n_significant": (108.7, 0.3),
                     "accuracy": (99.52, 0.0)}}),
    "splice": (1000, {
        "svm-c": {"time_fit": (0.12, 0.01), "n_significant": (820.8, 8.3), "accuracy": (76.38, 8.0)},
        "lssvm-schur": {"time_fit": (0.19, 0.01), "n_significant": (1000, 0), "accuracy": (75.99, 10.0)},
        "w-lssvm": {"time_fit": (0.20, 0.01), "n_significant": (1000, 0), "accuracy": (76.04, 10.0)},
        "fs-lssvm": {"time_fit": (0.42, 0.02), "n_significant": (100, 0), "accuracy": (76.66, 7.0)},
        "r-lssvm-w": {"iterations": (33.8, 7.2), "time_fit": (0.29, 0.03), "n_significant": (1000, 0),
                      "accuracy": (75.15, 14.0)},
        "r-lssvm-y": {"iterations": (15.1, 2.9), "time_fit": (0.22, 0.01), "n_significant": (947.6, 19.5),
                      "accuracy": (80.50, 4.0)},
        "sr-lssvm": {"iterations": (25.8, 7.1), "time_fit": (0.19, 0.01), "n_significant": (100, 0),
                     "accuracy": (81.27, 3.0)}}),
    "mushrooms": (5416, {
        "svm-c": {"time_fit": (2.33, 0.04), "n_significant": (2244.8, 27.1), "accuracy": (99.99, 0.0)},
        "lssvm-schur": {"time_fit": (5.75, 0.08), "n_significant": (5415.8, 0.4), "accuracy": (98.67, 0.2)},
        "w-lssvm": {"time_fit": (7.41, 0.19), "n_significant": (4837.8, 12.2), "accuracy": (99.90, 0.1)},
        "fs-lssvm": {"time_fit": (2.69, 0.02), "n_significant": (268.9, 0.7), "accuracy": (99.66, 0.3)},
        "r-lssvm-w": {"iterations": (26.4, 4.0), "time_fit": (7.57, 0.22), "n_significant": (5381.8, 6.6),
                      "accuracy": (99.97, 0.0)},
        "r-lssvm-y": {"iterations": (22.7, 4.2), "time_fit": (7.48, 0.18), "n_significant": (4928, 16.9),
                      "accuracy": (99.71, 0.1)},
        "sr-lssvm": {"iterations": (6, 0), "time_fit": (1.28, 0.01), "n_significant": (270, 0),
                     "accuracy": (100.0, 0.0)}}),
}

#: Table 4 (10 runs, 10 % target outliers): set -> (m, {solver: {column: (mean, sd)}}).
T4 = {
    "mg": (923, {
        "svm-eps": {"time_fit": (0.030, 0.006), "n_significant": (863.3, 46.8), "rmse": (0.129, 0.005)},
        "lssvm-schur": {"time_fit": (0.108, 0.006), "n_significant": (923, 0), "rmse": (0.132, 0.006)},
        "w-lssvm": {"time_fit": (0.125, 0.003), "n_significant": (897.8, 8.4), "rmse": (0.132, 0.005)},
        "fs-lssvm": {"time_fit": (0.041, 0.004), "n_significant": (46, 0.9), "rmse": (0.126, 0.005)},
        "r-lssvm-w": {"iterations": (2, 0), "time_fit": (0.109, 0.003), "n_significant": (923, 0), "rmse": (0.132, 0.006)},
        "r-lssvm-y": {"iterations": (2, 0), "time_fit": (0.112, 0.004), "n_significant": (923, 0), "rmse": (0.132, 0.006)},
        "sr-lssvm": {"iterations": (2, 0), "time_fit": (0.023, 0.004), "n_significant": (46, 0), "rmse": (0.125, 0.004)}}),
    "abalone": (2784, {
        "svm-eps": {"time_fit": (0.957, 0.095), "n_significant": (2772.2, 2.2), "rmse": (2.211, 0.071)},
        "lssvm-schur": {"time_fit": (1.215, 0.094), "n_significant": (2784, 0), "rmse": (3.271, 0.199)},
        "w-lssvm": {"time_fit": (1.468, 0.049), "n_significant": (2784, 0), "rmse": (2.250, 0.217)},
        "fs-lssvm": {"time_fit": (0.225, 0.004), "n_significant": (48.2, 2.2), "rmse": (2.188, 0.072)},
        "r-lssvm-w": {"iterations": (20, 0), "time_fit": (1.537, 0.039), "n_significant": (2784, 0), "rmse": (2.251, 0.062)},
        "r-lssvm-y": {"iterations": (20, 0), "time_fit": (1.494, 0.039), "n_significant": (2784, 0), "rmse": (2.251, 0.119)},
        "sr-lssvm": {"iterations": (20, 0), "time_fit": (0.060, 0.004), "n_significant": (48.5, 1.7),
                     "rmse": (2.183, 0.091)}}),
    "wq": (1066, {
        "svm-eps": {"time_fit": (0.074, 0.004), "n_significant": (911.9, 12.4), "rmse": (0.652, 0.017)},
        "lssvm-schur": {"time_fit": (0.054, 0.003), "n_significant": (1066, 0), "rmse": (0.724, 0.034)},
        "w-lssvm": {"time_fit": (0.080, 0.006), "n_significant": (977.6, 5.4), "rmse": (0.646, 0.022)},
        "fs-lssvm": {"time_fit": (0.171, 0.006), "n_significant": (42.4, 1.2), "rmse": (0.748, 0.033)},
        "r-lssvm-w": {"iterations": (14.6, 3.3), "time_fit": (0.095, 0.012), "n_significant": (1066, 0),
                      "rmse": (0.647, 0.030)},
        "r-lssvm-y": {"iterations": (12, 1.7), "time_fit": (0.091, 0.008), "n_significant": (944.8, 24.4),
                      "rmse": (0.646, 0.028)},
        "sr-lssvm": {"iterations": (12.9, 1.9), "time_fit": (0.013, 0.001), "n_significant": (42.4, 1.2),
                     "rmse": (0.646, 0.023)}}),
    "tic": (6548, {
        "svm-eps": {"time_fit": (2.654, 0.083), "n_significant": (1536.8, 38.4), "rmse": (0.235, 0.005)},
        "lssvm-schur": {"time_fit": (4.294, 0.068), "n_significant": (6540.7, 2.5), "rmse": (0.229, 0.005)},
        "w-lssvm": {"time_fit": (7.196, 0.102), "n_significant": (534.4, 24.6), "rmse": (0.243, 0.006)},
        "fs-lssvm": {"time_fit": (4.391, 0.089), "n_significant": (395.5, 2.1), "rmse": (0.235, 0.005)},
        "r-lssvm-w": {"iterations": (2, 0), "time_fit": (4.446, 0.096), "n_significant": (6540.7, 2.5),
                      "rmse": (0.229, 0.005)},
        "r-lssvm-y": {"iterations": (2, 0), "time_fit": (4.416, 0.043), "n_significant": (6540.7, 2.5),
                      "rmse": (0.229, 0.005)},
        "sr-lssvm": {"iterations": (2, 0), "time_fit": (1.751, 0.022), "n_significant": (399.9, 0.3),
                     "rmse": (0.229, 0.002)}}),
}

#: Table 3 (Cod-RNA, 10 runs): solver -> {rate: (accuracy %, sd pp)}, and the time (s).
T3 = {"fs-lssvm": {0.0: (96.18, 0.1), 0.05: (95.91, 0.1), 0.1: (95.03, 0.1), "time": (19.9, 0.20)},
      "pcp-lssvm": {0.0: (96.31, 0.0), 0.05: (96.13, 0.0), 0.1: (94.92, 0.1), "time": (6.1, 0.15)},
      "sr-lssvm": {0.0: (96.32, 0.0), 0.05: (96.29, 0.0), 0.1: (95.10, 0.1), "time": (6.5, 0.11)}}

#: Tables 2 and 5 (5 runs): set -> (m, {solver: (time, sd)}) of the sparse methods.
T2_TIMES = {"skin": (163371, {"fs-lssvm": (42.6, 0.7), "pcp-lssvm": (32.7, 0.6), "sr-lssvm": (34.8, 2.5)}),
            "ijcnn1": (49990, {"fs-lssvm": (34.9, 0.8), "pcp-lssvm": (2.8, 0.1), "sr-lssvm": (2.8, 0.1)}),
            "cod-rna": (59535, {"fs-lssvm": (36.0, 0.8), "pcp-lssvm": (6.0, 0.0), "sr-lssvm": (6.4, 0.1)}),
            "acoustic": (60562, {"fs-lssvm": (75.1, 0.5), "pcp-lssvm": (40.1, 0.1), "sr-lssvm": (41.4, 0.1)})}
T5_TIMES = {"cadata": (13760, {"fs-lssvm": (1.61, 0.03), "pcp-lssvm": (1.02, 0.01), "sr-lssvm": (1.05, 0.01)}),
            "relation": (35608, {"fs-lssvm": (2.66, 0.03), "pcp-lssvm": (1.58, 0.01), "sr-lssvm": (1.76, 0.09)}),
            "slice": (35666, {"fs-lssvm": (65.78, 0.23), "pcp-lssvm": (42.96, 0.25), "sr-lssvm": (43.08, 0.27)}),
            "3d-spatial": (289916, {"fs-lssvm": (62.51, 0.45), "pcp-lssvm": (36.41, 0.13), "sr-lssvm": (37.09, 0.2)})}


def draws(mean, sd, n, rng):
    """``n`` draws whose mean and sd are exactly ``mean`` and ``sd`` (constant for n < 2 or sd = 0)."""
    if n < 2 or sd == 0:
        return np.full(n, float(mean))
    z = rng.standard_normal(n)
    z = (z - z.mean()) / z.std(ddof=1)
    return mean + sd * z


def table_records(table: dict, prefix: str, *, runs: int = 10, percent=("accuracy",), seed: int = 17) -> dict:
    """Records ``{prefix + set: frame}`` of a printed table ``{set: (m, {solver: {column: (mean, sd)}})}``:
    ``runs`` splits per set whose mean and sd per (solver, column) are the printed ones; the columns in
    ``percent`` are divided by 100 (the records hold fractions)."""
    rng = np.random.default_rng(seed)
    out = {}
    for name, (m, cells) in table.items():
        rows = [{"solver": s, "seed": k, "status": "ok", "fit_status": "ok", "m": m} for s in cells for k in range(runs)]
        df = pd.DataFrame(rows)
        for s, cols in cells.items():
            for col, (mu, sd) in cols.items():
                v = draws(mu, sd, runs, rng)
                df.loc[df.solver == s, col] = v / 100 if col in percent else v
        out[prefix + name] = df
    return out
