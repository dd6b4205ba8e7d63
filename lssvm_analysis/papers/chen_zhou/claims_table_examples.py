"""Examples of the table claims of Chen & Zhou (:mod:`.chen_zhou_tables`): each rule's two-outcome records and
the records built from the paper's own printed numbers (:func:`printed_examples`)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .printed import SR
from .printed import T1, T3, T4, T5_TIMES, table_records

__all__ = ["EXAMPLES", "printed_examples"]

def _synth(key, cells, seeds=6, m=1000, **cols):
    """Records of one key; cells[solver] = {column: value}, small split noise on accuracy / rmse / time."""
    rng = np.random.default_rng(5)
    rows = []
    for s, c in cells.items():
        for k in range(seeds):
            r = {"solver": s, "seed": k, "status": "ok", "fit_status": "ok", "m": m, **cols, **c}
            for col, sc in (("accuracy", 0.001), ("rmse", 0.001), ("time_fit", 0.01)):
                if col in r:
                    r[col] = r[col] * (1 + sc * rng.standard_normal())
            rows.append(r)
    return {key: pd.DataFrame(rows)}


_ALL = ("lssvm-schur", "svm-c", "w-lssvm", "fs-lssvm", "r-lssvm-w", "r-lssvm-y", "pcp-lssvm", SR)


def _acc(sr=0.95, other=0.9, key="t1-penbased", rank=None, **per):
    extra = {} if rank is None else {"rank": rank}
    return _synth(key, {s: {"accuracy": per.get(s, sr if s == SR else other), "time_fit": 1.0, "n_significant": 900,
                            **extra} for s in _ALL})


def _with(rec, **cols):
    """``rec`` with constant columns added (e.g. ``dataset``: records of one of our data sets)."""
    return {k: v.assign(**cols) for k, v in rec.items()}


def _alpha(auc, above):
    return _synth("t1-x", {"lssvm-schur": {"alpha_auc": auc, "alpha_out_above_median": above}})


def _trunc(out, clean):
    return _synth("t1-x", {SR: {"trunc_outliers": out, "trunc_clean": clean, "n_outliers": 100}}, m=1000)


def _psweep(delta):
    rows = []
    rng = np.random.default_rng(2)
    for k in range(8):
        base = 0.1 + 0.01 * rng.standard_normal()
        for p in (1e2, 1e3, 1e4, 1e6, 1e12):
            rows.append({"solver": SR, "seed": k, "p": p, "status": "ok", "n_truncated": 50,
                         "rmse": base + (delta if p != 1e4 else 0) + 1e-4 * rng.standard_normal()})
    return {"p-sweep": pd.DataFrame(rows)}


def _tausweep(curve, sched_spread):
    rows = []
    rng = np.random.default_rng(4)
    for k in range(8):
        for i, t in enumerate((0.25, 0.5, 1, 2, 4, 8, 16)):
            rows.append({"solver": SR, "seed": k, "tau": t, "tau_schedule": False, "status": "ok",
                         "rmse": curve[i] + 1e-3 * rng.standard_normal()})
            rows.append({"solver": SR, "seed": k, "tau": t, "tau_schedule": True, "status": "ok",
                         "rmse": 0.2 + sched_spread * i + 1e-3 * rng.standard_normal()})
    return {"tau-sweep": pd.DataFrame(rows)}


def _lines(moved):
    """fig3 (with outliers) and fig3-clean lines; ``moved[solver]`` = the angle [rad] the outliers turn it."""
    out = {}
    for key, on in (("fig3-clean", 0.0), ("fig3", 1.0)):
        rows = []
        for k in range(6):
            for s in ("lssvm-schur", "w-lssvm", "r-lssvm-y", SR):
                a = np.pi / 4 + on * moved.get(s, 0.0) + 0.001 * k
                rows.append({"solver": s, "seed": k, "status": "ok", "w1": np.cos(a), "w2": np.sin(a), "accuracy": 0.9})
        out[key] = pd.DataFrame(rows)
    return out


_M3 = (2000, 5000, 20000)


def _scale(funcs, sizes=(2000, 20000), seeds=3):
    """Scale rows: ``funcs[solver](m)`` = the time at m, per draw (1 % apart)."""
    return pd.DataFrame([{"solver": s, "seed": k, "m": m, "time_fit": f(m) * (1 + 0.01 * k), "status": "ok"}
                         for k in range(seeds) for m in sizes for s, f in funcs.items()])


EXAMPLES = {
    "alpha": lambda: {"holds": _alpha(0.97, 1.0), "does not hold": _alpha(0.97, 0.8),
                      "not reproduced": _with(_alpha(0.97, 0.8), dataset="sinc")},
    "weight0": lambda: {"holds": _trunc(80, 20), "does not hold": _trunc(5, 400)},
    "wydense": lambda: {"holds": _synth("t1-x", {"r-lssvm-w": {"n_significant": 990}}),
                        "does not hold": _synth("t1-x", {"r-lssvm-w": {"n_significant": 100}})},
    "sp1": lambda: {"holds": _synth("t1-x", {SR: {"n_significant": 50}, "fs-lssvm": {"n_significant": 50},
                                             "svm-c": {"n_significant": 400}}),
                    "does not hold": _synth("t1-x", {SR: {"n_significant": 300}, "fs-lssvm": {"n_significant": 50},
                                                     "svm-c": {"n_significant": 400}})},
    "sp4": lambda: {"holds": _synth("t4-x", {SR: {"n_significant": 50}, "fs-lssvm": {"n_significant": 50},
                                             "svm-eps": {"n_significant": 400}}),
                    "does not hold": _synth("t4-x", {SR: {"n_significant": 300}, "fs-lssvm": {"n_significant": 50},
                                                     "svm-eps": {"n_significant": 400}})},
    "csvcspeed": lambda: {"holds": _synth("t1-x", {SR: {"time_fit": 0.1}, "svm-c": {"time_fit": 1.0}}),
                          "does not hold": _synth("t1-x", {SR: {"time_fit": 1.0}, "svm-c": {"time_fit": 0.1}})},
    "csvcacc": lambda: {"holds": _acc(), "does not hold": _acc(sr=0.8),
                        "not reproduced": {**_acc(), **_with(_acc(sr=0.8, key="t1-splice"), dataset="splice")}},
    "csvcsvs": lambda: {"holds": {**_synth("sweep-0.0", {"svm-c": {"n_significant": 300, "n_outliers": 0}}),
                                  **_synth("sweep-0.1", {"svm-c": {"n_significant": 400, "n_outliers": 100}})},
                        "does not hold": {**_synth("sweep-0.0", {"svm-c": {"n_significant": 300, "n_outliers": 0}}),
                                          **_synth("sweep-0.1", {"svm-c": {"n_significant": 310, "n_outliers": 100}})}},
    "t3robust": lambda: {"holds": {**_acc(0.96, 0.96, "sweep-0.0"), **_acc(0.95, 0.90, "sweep-0.1")},
                         "does not hold": {**_acc(0.96, 0.96, "sweep-0.0"), **_acc(0.90, 0.95, "sweep-0.1")}},
    "t4fs": lambda: {"holds": _synth("t4-x", {SR: {"rmse": 0.5, "time_fit": 0.1}, "fs-lssvm": {"rmse": 1.0, "time_fit": 1.0}}),
                     "does not hold": _synth("t4-x", {SR: {"rmse": 1.0, "time_fit": 1.0},
                                                      "fs-lssvm": {"rmse": 0.5, "time_fit": 0.1}}),
                     "not reproduced": _with(_synth("t4-x", {SR: {"rmse": 1.0, "time_fit": 1.0},
                                                             "fs-lssvm": {"rmse": 0.5, "time_fit": 0.1}}),
                                             dataset="boston14")},
    "pcpacc": lambda: {"holds": _acc(), "does not hold": _acc(sr=0.8),
                       "not reproduced": {**_acc(), **_with(_acc(sr=0.8, key="t1-splice"), dataset="splice")}},
    "pcptime": lambda: {"holds": _synth("t1-x", {SR: {"time_fit": 1.0}, "pcp-lssvm": {"time_fit": 0.5}}),
                        "does not hold": _synth("t1-x", {SR: {"time_fit": 0.5}, "pcp-lssvm": {"time_fit": 1.0}})},
    # Table 1's regime (Pendigits: 73 pivots); the same failure on the Ripley stand-in is not reproduced
    "overall": lambda: {"holds": _acc(0.95, 0.90, "t1-x", rank=73), "does not hold": _acc(0.5, 0.95, "t1-x", rank=73),
                        "not reproduced": {**_acc(0.95, 0.90, "t1-x", rank=73),
                                           **_with(_acc(0.5, 0.95, "t1-r", rank=73), dataset="ripley-mixture")}},
    "medium": lambda: {"holds": _synth("t1-x", {SR: {"time_fit": 0.1}, "lssvm-schur": {"time_fit": 1.0}}),
                       "does not hold": _synth("t1-x", {SR: {"time_fit": 1.0}, "lssvm-schur": {"time_fit": 0.1}})},
    "large": lambda: {"holds": {"scale": _scale({SR: lambda m: 1.0, "pcp-lssvm": lambda m: 2.0}, (10000,))},
                      "does not hold": {"scale": _scale({SR: lambda m: 1.0, "pcp-lssvm": lambda m: 0.5}, (10000,))},
                      "undecided": {"scale": _scale({SR: lambda m: 1.0, "pcp-lssvm": lambda m: 2.0}, (10000,), 1)}},
    "growth": lambda: {"holds": {"scale": _scale({SR: lambda m: 1e-4 * m}),
                                 "scale-svr": _scale({"svm-eps": lambda m: 1e-7 * m ** 2})},
                       "does not hold": {"scale": _scale({SR: lambda m: 1e-4 * m}),
                                         "scale-svr": _scale({"svm-eps": lambda m: 1e-4 * m})}},
    # three sizes: a slope needs an interval (n − 2 df)
    "complexity": lambda: {"holds": {"scale": _scale({SR: lambda m: 1e-4 * m}, sizes=_M3),
                                     "scale-dense": _scale({"r-lssvm-w": lambda m: 1e-10 * m ** 3}, sizes=_M3)},
                           "does not hold": {"scale": _scale({SR: lambda m: 1e-5 * m ** 2}, sizes=_M3),
                                             "scale-dense": _scale({"r-lssvm-w": lambda m: 1e-10 * m ** 3},
                                                                   sizes=_M3)},
                           "undecided": {"scale": _scale({SR: lambda m: 1e-4 * m}),
                                         "scale-dense": _scale({"r-lssvm-w": lambda m: 1e-10 * m ** 3})}},
    # §4.4's counts: r = 400 pivots of 3-dimensional inputs (Table 5's 3D road), PᵀP (m r²) is the largest; r = 100
    # pivots of 60-dimensional inputs (Splice), the factor's kernel columns (m r l) outweigh it; phase times
    # alone: an implementation's property
    "ptp": lambda: {"holds": _synth("t1-x", {SR: {"rank": 400, "n_features": 3, "iterations": 10}}),
                    "does not hold": _synth("t1-x", {SR: {"rank": 100, "n_features": 60, "iterations": 26}}),
                    "not reproduced": _synth("t1-x", {SR: {"time_formation": 0.1, "time_selection": 0.5,
                                                           "time_solve": 0.2, "time_factorization": 0.01}})},
    "negligible": lambda: {"holds": _psweep(0.0), "does not hold": _psweep(0.1)},
    "pins": lambda: {"holds": _psweep(0.0), "does not hold": _psweep(0.1)},
    "tau": lambda: {"holds": _tausweep((0.5, 0.3, 0.2, 0.1, 0.2, 0.3, 0.5), 0.0),
                    "does not hold": _tausweep((0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6), 0.0),
                    "not reproduced": _with(_tausweep((0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6), 0.0),
                                            dataset="mackey-glass")},
    "tausched": lambda: {"holds": _tausweep((0.5, 0.3, 0.2, 0.1, 0.2, 0.3, 0.5), 0.001),
                         "does not hold": _tausweep((0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1), 0.1)},
    "clean": lambda: {"holds": _synth("fig3-clean", {s: {"accuracy": 0.915} for s in ("lssvm-schur", "w-lssvm",
                                                                                     "r-lssvm-y", SR)}),
                      "does not hold": _synth("fig3-clean", {"lssvm-schur": {"accuracy": 0.85}, "w-lssvm": {"accuracy": 0.915},
                                                             "r-lssvm-y": {"accuracy": 0.915}, SR: {"accuracy": 0.915}})},
    "boundary": lambda: {"holds": _lines({"lssvm-schur": 0.4, "w-lssvm": 0.3, SR: 0.02}),
                         "does not hold": _lines({"lssvm-schur": 0.1, "w-lssvm": 0.1, SR: 0.1})},
}


def _t1p():
    return table_records(T1, "t1-")


def _t4p():
    return table_records(T4, "t4-")


def _sweep_printed():
    """Table 3 as sweep records (10 runs, printed mean and sd; accuracies as fractions)."""
    out = {}
    for rate in (0.0, 0.05, 0.1):
        cells = {s: {"accuracy": v[rate], "time_fit": v["time"]} for s, v in T3.items()}
        out.update(table_records({f"{rate}": (59535, cells)}, "sweep-"))
    return out


def _large_printed():
    rows = []
    for name, (m, cells) in T5_TIMES.items():
        for s, (t, sd) in cells.items():
            z = np.array([-1.26, -0.63, 0.0, 0.63, 1.26])
            for k, v in enumerate(t + sd * z / np.std(z, ddof=1)):
                rows.append({"solver": s, "seed": k, "m": m, "time_fit": v, "status": "ok"})
    return {"scale": pd.DataFrame(rows)}


def printed_examples() -> dict:
    """Per claim: (records from the paper's own printed numbers, the outcome they give)."""
    t1, t4 = _t1p(), _t4p()
    t1sr = {k: v.assign(n_outliers=0) for k, v in t1.items()}
    return {
        # Table 1: SR and FS nSV / the fewest other (C-SVC): 0.07-0.17 on every set
        "C-t1-sparsity": (t1, "holds"),
        # Table 4: W-LSSVM keeps 534.4 SVs on Tic (ratio of SR's 399.9 to it is 0.75 ≥ 0.5)
        "C-t4-sparsity": (t4, "does not hold"),
        # Table 1: C-SVC is slower than SR on the largest printed set (Protein, m = 8186: 55.64 s vs 11.65 s)
        "C-t1-csvc/speed": (t1, "holds"),
        # Table 1: SR vs C-SVC within the printed sds (Pendigits 99.96 vs 99.95 ± 0.1): not resolvable
        "C-t1-csvc/accuracy": (t1, "undecided"),
        # Table 3: the printed drops are SR 1.22, FS 1.15, PCP 1.39 pp: FS degrades less than SR, so the
        # paper's table contradicts its sentence "SR-LSSVM is more robust than other compared algorithms" in
        # its point estimate; with the printed sds (0.1 pp, 10 runs) the −0.07 pp is not resolved, so the
        # paper's own data cannot show the claim (undecided, not holds)
        "C-t3-robust": (_sweep_printed(), "undecided"),
        # Table 4: FS vs SR RMSE within the printed sds on Mg (0.126 vs 0.125): not resolvable
        "C-t4-fs": (t4, "undecided"),
        # Table 1: R-LSSVM-W/-Y keep ≥ 0.86 m SVs on every set
        "C-wy-dense": (t1, "holds"),
        # Table 1 + 4: SR faster than each listed method on most medium sets (C-SVC on 3 of 6, ε-SVR on 4 of 4)
        "C-conclusion-speed/medium": ({**t1, **t4}, "holds"),
        # Table 5 times: PCP-LSSVM is faster than SR-LSSVM at the largest size (3D-spatial 36.41 vs 37.09 s) —
        # the paper's table contradicts "faster than all the comparison sparse algorithms"
        "C-conclusion-speed/large": (_large_printed(), "does not hold"),
        # Tables 1 + 4 with SR's printed sd as the margin: 44 of 60 pairs non-inferior, the rest (e.g. Protein
        # LSSVM 78.22 against SR 78.04 ± 0.2) straddle the margin: the printed numbers cannot show "comparable"
        "C-overall-accuracy": ({**t1, **t4}, "undecided"),
        # Table 1: C-SVC's nSV at 0 % is not printed: only the 10 % column exists
        "C-csvc-outlier-svs": (t1sr, "undecided"),
        # Table 3 at 5 and 10 %: SR 96.29 / 95.10 against PCP 96.13 / 94.92
        "C-sr-vs-pcp/acc": ({k: v for k, v in _sweep_printed().items() if k != "sweep-0.0"}, "holds"),
        # Table 5: PCP is faster than SR on every large regression set (1.02 vs 1.05 s, ..., 36.41 vs 37.09 s)
        "C-sr-vs-pcp/time": (_large_by_set(), "holds"),
        # no printed number: theory (the least-squares α_i = C·ξ_i, and a flipped far point has |ξ| ≈ 2)
        "C-outlier-alpha": (_alpha(0.99, 1.0), "holds"),
        # no printed number: (12) gives weight 0 exactly to |ξ| > τ, which the injected outliers exceed
        "C-outlier-weight0": (_trunc(90, 10), "holds"),
        # Fig. 4 prints no number: SMO's ~m² against SR's m (theory, r fixed)
        "C-csvc-growth": (EXAMPLES["growth"]()["holds"], "holds"),
        # no printed number: the orders of §4.4 (SR m·r², W/Y m³) as timings
        "C-complexity": (EXAMPLES["complexity"]()["holds"], "holds"),
        # §4.4 prints no phase times; its counts at Table 1's own sizes (m, printed nSV r, input dimension l, SR's
        # iterations T): on Protein (l = 357) and Splice (l = 60) the factor's m·r·l kernel work exceeds PᵀP's m·r²
        "C-ptp-dominant": (_t1_counts(), "does not hold"),
        # no printed number: by (20), |L̄₂ − L₂| ≤ log2/(2p) = 3.5e-5 at p = 1e4, far below any split sd
        "C-smooth-negligible": (_psweep(0.0), "holds"),
        "C-p-insensitive": (_psweep(0.0), "holds"),
        # no printed number: the paper's statement (poor generalisation at both improper ends) as records
        "C-tau": (EXAMPLES["tau"]()["holds"], "holds"),
        "C-tau-schedule": (EXAMPLES["tausched"]()["holds"], "holds"),
        # Fig. 3: 91.50 % for all four on one draw: a single run decides nothing
        "C-fig3-clean": (_synth("fig3-clean", {s: {"accuracy": 0.915} for s in ("lssvm-schur", "w-lssvm", "r-lssvm-y",
                                                                               SR)}, seeds=1), "undecided"),
        # Fig. 3 prints no angle: its statement (LSSVM's and W's lines move, SR's does not) as records
        "C-fig3-boundary": (EXAMPLES["boundary"]()["holds"], "holds"),
    }


#: Table 1's sizes: set -> (m, printed SR nSV = r, input dimension l, SR's printed iterations T).
_T1_SIZES = {"pendigits": (1466, 73, 16, 8.5), "protein": (8186, 409, 357, 6), "satimage": (2110, 105, 36, 6),
             "usps": (2199, 108.7, 256, 6), "splice": (1000, 100, 60, 25.8), "mushrooms": (5416, 270, 112, 6)}


def _t1_counts():
    return {f"t1-{k}": pd.DataFrame([{"solver": SR, "seed": 0, "status": "ok", "m": m, "rank": r, "n_features": l_,
                                      "iterations": t}]) for k, (m, r, l_, t) in _T1_SIZES.items()}


def _large_by_set():
    """Table 5's times as per-set records (5 runs), the sets of C-sr-vs-pcp/time."""
    d = _large_printed()["scale"]
    return {f"t4-{name}": d[d.m == m].assign(rmse=1.0) for name, (m, _) in T5_TIMES.items()}


