"""Examples of the claims of Chen & Zhou registered in :mod:`.chen_zhou`: synthetic records of the
``cz-fit`` kind (:func:`synthetic` and the dense, rank and peak rows), each rule's records per outcome
(:data:`EXAMPLES`) and the records built from the paper's own printed numbers (:func:`printed_examples`)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...solvers import solvers
from .printed import FIG3, SR, T1, T3, T4, T5_TIMES, TABLE1, TABLE4_MG, draws, table_records

__all__ = ["SOLVERS", "EXAMPLES", "synthetic", "rank_rows", "dense_rows", "dense_peak_rows", "printed_examples"]

#: The solvers of the synthetic records.
SOLVERS = ("lssvm-schur", "svm-c", *solvers("classification", paper="chen-zhou"))


def synthetic(values: dict, key="t1-penbased", seeds=4, **extra):
    """Records of one key: ``values[solver] = {column: value}`` (defaults for the rest)."""
    rng = np.random.default_rng(3)
    rows = []
    for seed in range(seeds):
        for s in SOLVERS:
            base = {"solver": s, "seed": seed, "status": "ok", "fit_status": "ok", "accuracy": 0.9, "rmse": 1.0,
                    "time_fit": 1.0, "iterations": 10.0, "rank": 5, "m": 1000}
            base.update(values.get(s, {}))
            base["accuracy"] += 0.001 * rng.standard_normal()
            base["rmse"] *= 1 + 0.001 * rng.standard_normal()
            base["time_fit"] *= 1 + 0.01 * rng.standard_normal()
            base.update(extra)
            rows.append(base)
    return {key: pd.DataFrame(rows)}


def rank_rows(ranks32, ranks64, stop="trace_tol"):
    """Rank-study rows (r = 100 requested); a run below r records ``stop`` as its factor's stop reason."""
    rows = []
    for p, rk in (("float32", ranks32), ("float64", ranks64)):
        for tol, k in zip((np.nan, 1e-8), rk):
            rows.append({"precision": p, "sigma2": 8.0, "trace_tol": tol, "rank": k, "status": "ok",
                         "rank_stop": "rank" if k >= 100 else stop,
                         "trace_residual": 2.0, "trace_residual_optimal": 1.0})
    return {"rank": pd.DataFrame(rows)}


def dense_rows(names, refused=None):
    """Dense rows at m = 2000 of the solvers ``names``; ``refused`` {solver: (m, bytes per m²)} adds a
    refusal row (the guard's estimate)."""
    rows = [{"solver": s, "m": 2000, "status": "ok", "time_fit": 1.0} for s in names]
    rows += [{"solver": s, "m": m, "status": "skipped-memory", "time_fit": np.nan,
              "bytes_needed": bpm * m * m, "bytes_available": 22 * 2 ** 30} for s, (m, bpm) in (refused or {}).items()]
    return {"scale-dense": pd.DataFrame(rows)}


def dense_peak_rows(bytes_per_m2: dict, m=5000):
    """Dense rows with a traced peak of ``bytes_per_m2[solver] · m²``."""
    return {"scale-dense": pd.DataFrame([{"solver": s, "m": m, "status": "ok", "time_fit": 1.0, "peak_bytes": b * m * m}
                                         for s, b in bytes_per_m2.items()])}


EXAMPLES = {
    "2sv": lambda: {"holds": synthetic({SR: {"rank": 2}}, "fig3"), "does not hold": synthetic({SR: {"rank": 3}}, "fig3")},
    "fig3": lambda: {"holds": synthetic({SR: {"accuracy": 0.95}, "r-lssvm-y": {"accuracy": 0.95},
                                         "lssvm-schur": {"accuracy": 0.85}, "w-lssvm": {"accuracy": 0.85}}, "fig3",
                                        seeds=20),
                     "does not hold": synthetic({SR: {"accuracy": 0.80}, "lssvm-schur": {"accuracy": 0.85}}, "fig3"),
                     # Fig. 3 as printed, one draw: no interval, so no decision
                     "undecided": synthetic({s: {"accuracy": a / 100} for s, a in FIG3.items()}, "fig3", seeds=1)},
    "t1acc": lambda: {"holds": synthetic({SR: {"accuracy": 0.99}}),
                      "does not hold": synthetic({SR: {"accuracy": 0.80}})},
    "t1speed": lambda: {"holds": synthetic({SR: {"time_fit": 0.1}}), "does not hold": synthetic({SR: {"time_fit": 10.0}})},
    "t1fs": lambda: {"holds": synthetic({SR: {"time_fit": 0.1, "accuracy": 0.99}}),
                     "does not hold": synthetic({SR: {"time_fit": 10.0, "accuracy": 0.8}}),
                     # the paper's data holds, the splice stand-in alone fails: not reproduced
                     "not reproduced": {**synthetic({SR: {"time_fit": 0.1, "accuracy": 0.99}}),
                                        **synthetic({SR: {"time_fit": 10.0, "accuracy": 0.8}}, "t1-splice",
                                                    dataset="splice")}},
    "t1iter": lambda: {"holds": synthetic({SR: {"iterations": 3.0}}), "does not hold": synthetic({SR: {"iterations": 30.0}})},
    "t1values": lambda: {"holds": synthetic({s: {"accuracy": p / 100} for s, (p, _) in TABLE1["penbased"].items()}),
                         "does not hold": synthetic({s: {"accuracy": 0.7} for s in TABLE1["penbased"]}),
                         # the UCI splice stand-in 20 pp off: two different data sets
                         "not reproduced": synthetic({s: {"accuracy": 0.6} for s in TABLE1["splice"]}, "t1-splice",
                                                     dataset="splice")},
    "t3": lambda: {"holds": {**synthetic({SR: {"accuracy": 0.99}}, "sweep-0.0"), **synthetic({SR: {"accuracy": 0.99}}, "sweep-0.1")},
                   "does not hold": {**synthetic({SR: {"accuracy": 0.5}}, "sweep-0.0"),
                                     **synthetic({SR: {"accuracy": 0.5}}, "sweep-0.1")}},
    "t3speed": lambda: {"holds": synthetic({SR: {"time_fit": 0.1}}, "sweep-0.1"),
                        "does not hold": synthetic({SR: {"time_fit": 10.0}}, "sweep-0.1")},
    # Table 4's regime (Mg: 46 pivots); records without a data set column are the paper's own data; the same
    # failure on a stand-in (the generated sinc) is not reproduced, and so is one below the paper's basis
    "t4acc": lambda: {"holds": synthetic({SR: {"rmse": 0.5, "rank": 46}}, "t4-mg"),
                      "does not hold": synthetic({SR: {"rmse": 2.0, "rank": 46}}, "t4-mg"),
                      "not reproduced": synthetic({SR: {"rmse": 2.0, "rank": 46}}, "t4-sinc", dataset="sinc")},
    "t4speed": lambda: {"holds": synthetic({SR: {"time_fit": 0.1}}, "t4-sinc"),
                        "does not hold": synthetic({SR: {"time_fit": 10.0}}, "t4-sinc")},
    # LIBSVM's mg (the paper's data) at the printed RMSEs, and at 3 ×; the generated series at 3 × compares two
    # data sets: not reproduced
    "t4values": lambda: {"holds": synthetic({s: {"rmse": p} for s, (p, _) in TABLE4_MG.items()}, "t4-mg"),
                         "does not hold": synthetic({s: {"rmse": 3 * p} for s, (p, _) in TABLE4_MG.items()}, "t4-mg"),
                         "not reproduced": synthetic({s: {"rmse": 3 * p} for s, (p, _) in TABLE4_MG.items()},
                                                     "t4-mackey-glass", dataset="mackey-glass")},
    # the sentence by construction: r pivots unless a stop fires; against it: fewer than r while the factor
    # records that the requested rank was its stop
    "rank": lambda: {"holds": rank_rows((100, 100), (100, 100)), "holds only when": rank_rows((40, 33), (70, 33)),
                     "does not hold": rank_rows((40, 33), (70, 33), stop="rank")},
    "literal": lambda: {"holds": synthetic({"r-lssvm-w": {"rmse_literal": 0.9}}, "t4-sinc"),
                        "does not hold": synthetic({"r-lssvm-w": {"rmse_literal": 5.0}}, "t4-sinc")},
    # measured peaks: 5 m x m float64 arrays reach 8 GiB at m ~ 14.7k (inside 10-20k), 1 array at ~ 32.8k
    # against it in theory: the storage the sentence names (K and (λI + K)⁻¹, 16 B/m²) reaches 8 GiB at m ≈ 23.2k;
    # one array (our Schur-form storage) is our implementation, not the sentence's: not reproduced
    "memory": lambda: {"holds": dense_peak_rows({"w-lssvm": 40.0, "r-lssvm-w": 30.0, "r-lssvm-y": 30.0}),
                       "does not hold": dense_peak_rows({"r-lssvm-w": 16.0, "lssvm-schur": 8.0}),
                       "not reproduced": dense_peak_rows({"r-lssvm-w": 8.0, "r-lssvm-y": 30.0})},
    # three data draws, each ratio off by a factor exp(±0.05); one draw: no interval, no decision
    "large": lambda: {"holds": {"scale": _timed({SR: 0.4, "fs-lssvm": 8.0}, 3)},
                      "does not hold": {"scale": _timed({SR: 8.0, "fs-lssvm": 0.4}, 3)},
                      # the same times on the 3D-road-shaped generator, a stand-in: SR's iterations follow the data
                      "not reproduced": {"scale": _timed({SR: 8.0, "fs-lssvm": 0.4}, 3).assign(dataset="cz-road3d")},
                      "undecided": {"scale": _timed({SR: 0.4, "fs-lssvm": 8.0}, 1)}},
}


def _timed(times: dict, draws: int, m: int = 10000) -> pd.DataFrame:
    """Scaling rows at one m: ``draws`` data draws per solver, draw k's time × exp(0.05·(k − 1))."""
    return pd.DataFrame([{"solver": s, "m": m, "seed": k, "time_fit": t * np.exp(0.05 * (k - 1)), "status": "ok"}
                         for s, t in times.items() for k in range(draws)])


def printed_examples() -> dict:
    """Per claim of this module: (records from the paper's printed numbers, the outcome they give).

    Tables 1, 3 and 4 as records with the paper's run count and each cell's printed mean and sd
    (:func:`~.chen_zhou_printed.table_records`); a figure printed for one draw as one split.
    """
    from_t1 = table_records(T1, "t1-")
    t1 = {("t1-penbased" if k == "t1-pendigits" else k): v for k, v in from_t1.items()}
    t4 = {("t4-mackey-glass" if k == "t4-mg" else k): v for k, v in table_records(T4, "t4-").items()}
    sweep = {}
    for rate in (0.0, 0.05, 0.1):
        sweep.update(table_records({str(rate): (59535, {s: {"accuracy": v[rate], "time_fit": v["time"]}
                                                        for s, v in T3.items()})}, "sweep-"))
    m = T5_TIMES["3d-spatial"][0]
    rng = np.random.default_rng(5)  # Table 5's 5 runs: draws with the printed mean and sd per method
    t5 = {"scale": pd.DataFrame([{"solver": s, "m": m, "seed": k, "time_fit": v, "status": "ok"}
                                 for s, (t, sd) in T5_TIMES["3d-spatial"][1].items()
                                 for k, v in enumerate(draws(t, sd, 5, rng))]),
          # ε-SVR: one printed time, no sd (its 5 runs as that time)
          "scale-svr": pd.DataFrame([{"solver": "svm-eps", "m": m, "seed": k, "time_fit": 6576.82, "status": "ok"}
                                     for k in range(5)])}
    return {
        # Fig. 3: 2 SVs in both runs
        "C-fig3-2sv": (synthetic({SR: {"rank": 2}}, "fig3", seeds=1), "holds"),
        # Fig. 3 is one draw: no interval, no decision
        "C-fig3-order": (synthetic({s: {"accuracy": a / 100} for s, a in FIG3.items()}, "fig3", seeds=1), "undecided"),
        # Table 1: SR above every other method by more than the printed sds on no set (Pendigits 99.96 vs C-SVC
        # 99.95 ± 0.1; Protein below LSSVM): 'most sets' is not shown
        "C-t1-accuracy": (t1, "does not hold"),
        # Table 1: SR ties LSSVM on Splice (0.19 vs 0.19 s)
        "C-t1-speed": (t1, "does not hold"),
        # Table 1: on USPS FS-LSSVM trains faster than SR-LSSVM (1.21 s against 1.91 s): the paper's table
        # contradicts "FS-LSSVM spends more time than SR-LSSVM on all data sets"
        "C-t1-fs": (t1, "does not hold"),
        # Table 1: on Splice SR needs 25.8 iterations against R-LSSVM-Y's 15.1: the paper's table contradicts
        # its sentence
        "C-t1-iterations": (t1, "does not hold"),
        # the printed cells themselves reproduce
        "C-t1-values": ({k: v for k, v in t1.items() if k[3:] in TABLE1}, "holds"),
        # Table 3: at 10 % SR 95.10 against FS 95.03 (sds 0.1): not resolvable
        "C-t3-accuracy": (sweep, "undecided"),
        # Table 3: 6.5 s against FS 19.9 s
        "C-t3-speed": (sweep, "holds"),
        # Table 4: SR ties W-LSSVM and R-LSSVM-Y on WQ (0.646) and LSSVM, R-W, R-Y on Tic (0.229)
        "C-t4-accuracy": (t4, "does not hold"),
        # Table 4: SR is the fastest on all four sets
        "C-t4-speed": (t4, "holds"),
        "C-t4-values": ({"t4-mg": t4["t4-mackey-glass"]}, "holds"),
        # Table 4: WQ 42.4 and Abalone 48.5 SVs below r = 0.05 m: a stop of the pivoted Cholesky fired
        "C-rank": (rank_rows((40, 33), (70, 33)), "holds only when"),
        # no printed number: the derivation (SEED_NOTES §3.2) drops 1/(mλ) from eq. (6)'s model, so the printed
        # f is not the solution: its error is larger
        "C-model": (synthetic({"r-lssvm-w": {"rmse_literal": 5.0}}, "t4-sinc", seeds=10), "does not hold"),
        # the paper's window taken at face value: 8 GB at m = 15000 (L392) means 8 GiB / 15000² bytes per m²
        "C-memory": (dense_peak_rows({"r-lssvm-w": 8 * 2 ** 30 / 15000 ** 2}), "holds"),
        # Table 5, 3D-spatial: SR 37.09 ± 0.2 s, FS 62.51 ± 0.45 s, ε-SVR 6577 s over the 5 runs
        "C-t5-speed": (t5, "holds"),
    }
