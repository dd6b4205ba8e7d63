"""Abe's Table 1 as printed and the example records of the Abe claims (:mod:`.abe`): the synthetic
two-outcome records of each rule and what the paper's own numbers say under it (``PRINTED_EXAMPLES``)."""
from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["TABLE1", "SV_PCT", "PRINTED_EXAMPLES", "EX"]

#: Table 1 as printed: set -> method -> (AAAE, sd or nan, SV % of LS or nan); MG is one series (no sd).
TABLE1 = {"mackey-glass": {"els": (0.000300, np.nan), "sparse": (0.000316, np.nan), "ls": (0.000374, np.nan)},
          "boston5": {"els": (0.0290, 0.00156), "sparse": (0.0292, 0.00160), "ls": (0.0276, 0.00181)},
          "boston14": {"els": (2.36, 0.164), "sparse": (2.38, 0.153), "ls": (2.27, 0.145)}}
SV_PCT = {"mackey-glass": 77.0, "boston5": 53.0, "boston14": 52.0}


# --------------------------------------------------------------------------- synthetic records
def _fits(method, primal, dual=None, sets=("boston5", "boston14"), seeds=4, jitter=0.01, **cols):
    out = {}
    rng = np.random.default_rng(2)
    for s in sets:
        rows = []
        for seed in range(seeds):
            for solver, v in (("els-primal" if method != "ls" else "lssvm-schur", primal), ("els-dual", dual)):
                if v is None:
                    continue
                row = {"solver": solver, "seed": seed, "status": "ok", "C": 1e3, "eta": 1e-3}
                row.update({k: (val[s] if isinstance(val, dict) else val) * (1 + jitter * rng.standard_normal())
                            for k, val in v.items()})
                rows.append(row)
        out[f"test-{method}-{s}"] = pd.DataFrame(rows)
    return out


def _xo(ratios, M=600, forms=("blas3",), seeds=3, **cols):
    """Crossover records: the dual/primal ratio ``ratios`` at evenly spaced N/M, one row per data draw
    (seed), each draw's ratio off by a factor exp(±0.02) (a timing's spread on a quiet machine)."""
    nm = np.linspace(0.1, 1.0, len(ratios)) if len(ratios) > 1 else np.ones(1)
    rows = []
    for f in forms:
        for seed in range(seeds):
            for k, (x, r) in enumerate(zip(nm, ratios)):
                rows.append({"seed": seed, "target_n_over_m": x, "n_over_m": x, "N": int(x * M), "M": M,
                             "formation": f, "repeats": 3, "time_dual_over_primal": r * np.exp(0.02 * (seed - 1)),
                             "status": "ok",
                             **{c: (v[k] if isinstance(v, (list, tuple)) else v) for c, v in cols.items()}})
    return {"crossover": pd.DataFrame(rows)}


def _orders(Ms, N=10, chol=lambda n: (n ** 3 - n) // 6, form=lambda M, N: M * M * N, roots=lambda n: n,
            time_slope=None):
    """op-count records (the counts as functions of the order); ``time_slope``: also crossover timings
    t ∝ n^time_slope at N = M (the context the verdict prints, never its evidence)."""
    rows = [{"M": M, "N": N, "chol_mul": chol(M), "chol_sqrt": roots(M), "form_mul": form(M, N), "status": "ok"}
            for M in Ms]
    out = {"op-counts": pd.DataFrame(rows)}
    if time_slope is not None:
        out["crossover"] = pd.DataFrame([{"M": 10 * M, "N": 10 * M, "n_over_m": 1.0, "formation": "blas3",
                                          "time_chol_N": 1e-9 * (10 * M) ** time_slope,
                                          "time_chol_M": 1e-9 * (10 * M) ** time_slope, "status": "ok"}
                                         for M in Ms])
    return out


def _cv(Cs, best, sigma2=(0.1, 1.0, 10.0)):
    """CV records over a (C, σ²) grid whose error is smallest at C = ``best`` and the middle σ²."""
    return pd.DataFrame([{"C": C, "sigma2": s2, "eta": 1e-4, "status": "ok",
                          "cv_mae": 1.0 + abs(np.log10(C / best)) + abs(np.log10(s2 / sigma2[1]))}
                         for C in Cs for s2 in sigma2])


_MG = ("mackey-glass",)
_ALL = ("mackey-glass", "boston5", "boston14")
#: Abe's Table 1 as printed, per set (SEED_NOTES §5): times (s) of PrLS and DuLS for the ELS and the
#: sparse ELS SVRs, AAAE of the three methods, SVs (% of LS).
_PRINTED_T = {"els": {"mackey-glass": (1.74, 1.20), "boston5": (0.22, 0.18), "boston14": (0.22, 0.18)},
              "sparse": {"mackey-glass": (1.11, 1.16), "boston5": (0.12, 0.18), "boston14": (0.12, 0.18)}}


def _printed_times(method):
    pr = {s: v[0] for s, v in _PRINTED_T[method].items()}
    du = {s: v[1] for s, v in _PRINTED_T[method].items()}
    return _fits(method, {"time_fit": pr}, {"time_fit": du}, sets=_ALL)


def _printed_aaae():
    out = {}
    for m in ("els", "sparse", "ls"):
        v = {s: TABLE1[s][m][0] for s in _ALL}
        out.update(_fits(m, {"test_mae": v}, sets=_ALL, seeds=100, jitter=0.002))
    return out


def _printed_svs():
    return {**_fits("sparse", {"n_support": {s: SV_PCT[s] for s in _ALL}}, sets=_ALL, jitter=0.0),
            **_fits("ls", {"n_support": 100.0}, sets=_ALL, jitter=0.0)}


#: What Abe's own printed numbers (Table 1) say under each rule: claim id -> (outcome, records).  The
#: printed times are one number per set; the examples repeat each over 4 splits with 1 % jitter.
#: Where the paper prints no number (§2.4's costs), the example is built from the theory the
#: inventory states, and says so.
PRINTED_EXAMPLES = {
    "A-dual-faster": lambda: ("holds", _printed_times("els")),
    "A-primal-sparse": lambda: ("holds", _printed_times("sparse")),
    "A-sparse-svs": lambda: ("holds", _printed_svs()),
    # LS lowest on B.5 and B.14, ELS on MG (the printed reversal): 2 of 3 offline sets
    "A-ls-accurate": lambda: ("holds", _printed_aaae()),
    "A-table1": lambda: ("holds", _printed_aaae()),
    # the printed '—' on MG: a DuLS breakdown
    "A-duls-unstable/bd": lambda: ("holds", _fits("sparse", {"test_mae": 0.000316}, {"test_mae": 0.000336},
                                                  sets=_MG, seeds=1, jitter=0.0) | {
        "test-els-mackey-glass": pd.DataFrame([{"solver": "els-dual", "seed": 0, "status": "breakdown", "C": 1e7,
                                                "eta": 1e-4}])}),
    # printed 0.000336 (DuLS, in parentheses) against 0.000316 (PrLS)
    "A-duls-unstable/aaae": lambda: ("holds", _fits("sparse", {"test_mae": 0.000316}, {"test_mae": 0.000336},
                                                    sets=_MG, seeds=1, jitter=0.0)),
    # Table 1 prints one AAAE per Boston row for both forms: equal, no breakdown
    "A-duls-only-mg": lambda: ("holds", _fits("els", {"test_mae": {"boston5": 0.0290, "boston14": 2.36}},
                                              {"test_mae": {"boston5": 0.0290, "boston14": 2.36}}, jitter=0.0)),
    # theory (no number printed): the flop model's dual/primal ratio falls through 1 once as N/M grows
    "A-crossover": lambda: ("holds", _xo([3.0, 2.0, 1.2, 0.9, 0.7])),
    # theory: at N = M forming (7) as M outer products costs as much as Ω_e but runs at BLAS-2 speed
    "A-form-cost": lambda: ("holds only when", {**_fits("els", {"time_formation": 1.0}, {"time_formation": 1.0},
                                                         sets=_ALL, jitter=0.05),
                                                **_xo([1.0], time_outer=30.0, time_syrk_dual=1.0)}),
    # theory (no number printed): (M³ − M)/6 multiplications and M square roots to factor, M²N to form;
    # times that grow as M^2.5 (a BLAS's rising rate) beside them do not change the verdict
    "A-cost-orders": lambda: ("holds", _orders((10, 25, 50, 100), time_slope=2.5)),
}

EX = {
    "sparse": lambda: {"holds": PRINTED_EXAMPLES["A-sparse-svs"]()[1],
                       "does not hold": {**_fits("sparse", {"n_support": 95.0}), **_fits("ls", {"n_support": 100.0})},
                       "undecided": {**_fits("sparse", {"n_support": 60.0}, sets=_MG, seeds=1),
                                     **_fits("ls", {"n_support": 0.0}, sets=_MG, seeds=1)}},
    "dual": lambda: {"holds": _fits("els", {"time_fit": 2.0}, {"time_fit": 1.0}),
                     "does not hold": {**_fits("els", {"time_fit": 1.0}, {"time_fit": 2.0}),
                                       **_xo([2.0, 1.2], forms=("as-described",))},
                     # the GEMM primal as fast, Abe's outer-product formation of (7) 50x slower at N = M
                     "holds only when": {**_fits("els", {"time_fit": 1.0}, {"time_fit": 2.0}),
                                         **_xo([2.0, 0.02], forms=("as-described", "blas3"))},
                     "undecided": _fits("els", {"time_fit": 2.0}, {"time_fit": 1.0}, sets=_MG, seeds=1)},
    "primal": lambda: {"holds": _fits("sparse", {"time_fit": 1.0}, {"time_fit": 2.0}),
                       "does not hold": _fits("sparse", {"time_fit": 2.0}, {"time_fit": 1.0})},
    "bd": lambda: {"holds": PRINTED_EXAMPLES["A-duls-unstable/bd"]()[1],
                   # no breakdown, CV's optimum inside the C grid: the '—' fails under the protocol
                   "does not hold": {**_fits("els", {"time_fit": 1.0}, {"time_fit": 1.0}, sets=_MG, seeds=1),
                                     "cv-els-mackey-glass": _cv((1e1, 1e3, 1e5), best=1e3)},
                   # no breakdown, CV's optimum on the grid's largest C: a wider grid would go on up
                   "not reproduced": {**_fits("els", {"time_fit": 1.0}, {"time_fit": 1.0}, sets=_MG, seeds=1),
                                      "cv-els-mackey-glass": _cv((1e1, 1e3, 1e5), best=1e5)}},
    "aaae": lambda: {"holds": PRINTED_EXAMPLES["A-duls-unstable/aaae"]()[1],
                     "does not hold": _fits("sparse", {"test_mae": 0.000316}, {"test_mae": 0.000316}, sets=_MG,
                                            seeds=1, jitter=0.0),
                     "not reproduced": {**_fits("sparse", {"test_mae": 0.000316}, {"test_mae": 0.000316}, sets=_MG,
                                                seeds=1, jitter=0.0),
                                        "cv-sparse-mackey-glass": _cv((1e1, 1e3, 1e5), best=1e5)}},
    "only-mg": lambda: {"holds": PRINTED_EXAMPLES["A-duls-only-mg"]()[1],
                        "does not hold": _fits("els", {"test_mae": 1.0}, {"test_mae": 1.1})},
    "ls": lambda: {"holds": {**_fits("els", {"test_mae": 2.0}), **_fits("sparse", {"test_mae": 2.0}),
                             **_fits("ls", {"test_mae": 1.0})},
                   "does not hold": {**_fits("els", {"test_mae": 1.0}), **_fits("ls", {"test_mae": 2.0})},
                   "undecided": {**_fits("els", {"test_mae": 2.0}, sets=_MG, seeds=1),
                                 **_fits("ls", {"test_mae": 1.0}, sets=_MG, seeds=1)}},
    "table1": lambda: {"holds": PRINTED_EXAMPLES["A-table1"]()[1],
                       # beyond a factor 2 of the printed cells, CV's optimum inside its grid: unexplained
                       "does not hold": {**_fits("ls", {"test_mae": {"boston5": 0.06, "boston14": 5.0}}),
                                         **{f"cv-ls-{s}": _cv((1e1, 1e3, 1e5), best=1e3) for s in _ALL}},
                       # the same cells, CV's optimum on the grid's largest C: explained, decides nothing
                       "not reproduced": {**_fits("ls", {"test_mae": {"boston5": 0.06, "boston14": 5.0}}),
                                          **{f"cv-ls-{s}": _cv((1e1, 1e3, 1e5), best=1e5) for s in _ALL}}},
    "crossover": lambda: {"holds": PRINTED_EXAMPLES["A-crossover"]()[1], "does not hold": _xo([2.0, 1.5, 1.2]),
                          "undecided": _xo([3.0, 2.0, 1.2, 0.9, 0.7], seeds=1),
                          "holds only when": {"crossover": pd.concat([_xo([2.0, 0.7])["crossover"], _xo(
                              [2.0, 1.2], forms=("as-described",))["crossover"]], ignore_index=True)}},
    "form": lambda: {"holds only when": PRINTED_EXAMPLES["A-form-cost"]()[1],
                     "holds": _fits("els", {"time_formation": 2.0}, {"time_formation": 1.0}),
                     "does not hold": _fits("els", {"time_formation": 1.0}, {"time_formation": 2.0}),
                     "undecided": _fits("els", {"time_formation": 1.0}, {"time_formation": 1.0}, jitter=0.3)},
    "orders": lambda: {"holds": PRINTED_EXAMPLES["A-cost-orders"]()[1],
                       # a factorization that recomputes its updates (n⁴/24) and takes no square roots
                       "does not hold": _orders((10, 25, 50, 100), chol=lambda n: n ** 4 // 24, roots=lambda n: 0),
                       "undecided": _orders((40, 100))},
}
