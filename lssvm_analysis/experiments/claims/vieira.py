"""Claims of Vieira et al. (ESANN 2016), OP-LSSVM: Table 2 and §4's conclusions.

Home section "vieira"; records "table" (kind ``vieira-split``: one row per data
set and split, columns ``acc[<method>]``, ``nsv[<method>]``, ``time_<method>``)
and "scaling" (kind ``vieira-scaling``: ``L``, ``time_op-lssvm``,
``time_lssvm-kkt``).
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd

from ...analysis.tuning import grid_edge
from ..kinds_vieira import NE_SOLVES, TABLE_METHODS
from ._ledger import Verdict, register_claim
from .stats import better, deviations_text, fmt_num, not_worse, paired

__all__ = ["VIEIRA_SETS", "TABLE2", "OP", "AUTHORS_K", "table_long", "ne_long", "NE_DIGIT_MARGIN"]

#: Registry names of the data sets -> Vieira's codes.
VIEIRA_SETS = {"haberman": "HAB", "breast-cancer-wisconsin": "BCW", "pima-uci": "DIA", "ripley-synth": "RIP"}
#: Table 2 as printed (mean, sd over 30 splits): ACC [%] and #SV per method and set.
TABLE2 = {
    "acc": {"SVM": {"HAB": (72.4, 3.3), "BCW": (96.4, 1.0), "DIA": (76.9, 2.3), "RIP": (88.0, 1.4)},
            "LSSVM": {"HAB": (73.7, 3.2), "BCW": (96.1, 1.1), "DIA": (76.8, 2.1), "RIP": (87.9, 1.0)},
            "IP-LSSVM 10%": {"HAB": (70.6, 5.7), "BCW": (96.6, 0.8), "DIA": (73.5, 3.3), "RIP": (87.5, 2.3)},
            "IP-LSSVM 20%": {"HAB": (62.9, 9.1), "BCW": (96.8, 1.0), "DIA": (69.1, 10.0), "RIP": (87.2, 1.8)},
            "IP-LSSVM 30%": {"HAB": (60.2, 11.5), "BCW": (97.0, 1.0), "DIA": (53.1, 14.4),
                             "RIP": (86.7, 1.6)},
            "P-LSSVM": {"HAB": (72.2, 3.8), "BCW": (95.6, 2.5), "DIA": (76.1, 2.4), "RIP": (87.3, 2.1)},
            "OP-LSSVM": {"HAB": (74.2, 3.1), "BCW": (95.8, 0.9), "DIA": (76.4, 2.6), "RIP": (88.0, 1.3)}},
    "nsv": {"SVM": {"HAB": (97.4, 6.9), "BCW": (39.5, 10.9), "DIA": (240.4, 14.4), "RIP": (226.6, 36.5)},
            "P-LSSVM": {"HAB": (106.5, 19.1), "BCW": (38.7, 9.5), "DIA": (273.2, 59.8), "RIP": (224.9, 17.0)},
            "OP-LSSVM": {"HAB": (83.0, 16.7), "BCW": (83.6, 13.0), "DIA": (82.8, 14.5), "RIP": (80.6, 17.8)}},
}
#: Known causes of deviations beyond 2 sd (label "<metric> <method> <set>"; ``*`` = prefix).
CAUSES = {
    "acc * RIP": "data version (likely): Ripley's synth.tr + synth.te pooled and re-split, where ~92 % is "
                 "near the Bayes rate; the paper's RIP file and preprocessing are not stated",
    "nsv OP-LSSVM *": "protocol: PRESS chooses few columns at every γ of the paper's grid, with OP-LSSVM's own "
                      "CV-tuned γ and in the authors' code's ranking alike; the authors' MATLAB (OPLSSVM.m) picks "
                      "k by training accuracy over k ≤ 200 in steps of 2, not by PRESS (row \"OP-LSSVM authors' k\")",
}
_SECTION = "vieira"
#: The row the claims judge: OP-LSSVM in the paper's regime (its own gamma by the paper's CV protocol).
OP = "OP-LSSVM own γ"
#: The row of the authors' MATLAB choice of k (training accuracy), which V-kstar reads beside PRESS.
AUTHORS_K = "OP-LSSVM authors' k"


def _op(lg) -> str:
    """The OP-LSSVM row to judge: the paper's regime when recorded, else the LS-SVM's gamma."""
    return OP if (lg.method == OP).any() and lg[lg.method == OP].acc.notna().any() else "OP-LSSVM"


def _others(methods, op):
    """The other classifiers (every row not an OP-LSSVM reading)."""
    return [m for m in methods if not str(m).startswith("OP-LSSVM")]


def table_long(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (set, split, method) with acc, nsv, time from the ``vieira-split`` records."""
    rows = []
    for _, r in table.iterrows():
        for label in TABLE_METHODS:
            rows.append({"set": VIEIRA_SETS.get(r["dataset"], r["dataset"]), "seed": r["seed"], "method": label,
                         "acc": r.get(f"acc[{label}]", np.nan), "nsv": r.get(f"nsv[{label}]", np.nan),
                         "time": r.get(f"time_{label}", np.nan), "L": r.get("L", np.nan)})
    lg = pd.DataFrame(rows, columns=["set", "seed", "method", "acc", "nsv", "time", "L"])
    for c in ("acc", "nsv", "time"):
        lg[c] = pd.to_numeric(lg[c], errors="coerce")
    return lg


def _by_seed(lg, s, method, col):
    g = lg[(lg.set == s) & (lg.method == method)]
    return g.set_index("seed")[col]


# --------------------------------------------------------------------------- rules
def _accuracy(rec):
    lg = table_long(rec["table"])
    op = _op(lg)
    outs, parts = [], []
    for s in sorted(lg.set.unique()):
        d = paired(_by_seed(lg, s, op, "acc"), _by_seed(lg, s, "LSSVM", "acc"))
        outs.append(not_worse(d, 1.0))
        parts.append(f"{s} {d.text(' pp', 'ΔACC')}")
    outcome = ("holds" if all(o == "holds" for o in outs) else
               "does not hold" if "does not hold" in outs else "undecided")
    return Verdict(outcome, measured=f"{op} − LSSVM: " + "; ".join(parts),
                   uncertainty="non-inferiority margin 1 pp: the CI's lower end must lie above −1 pp on "
                               "every set")


def _sparsity(rec):
    lg = table_long(rec["table"])
    op = _op(lg)
    nsv = lg.groupby(["method", "set"]).nsv.mean().unstack()
    if op not in nsv.index:
        return Verdict("undecided", measured="no OP-LSSVM rows")
    nsv = nsv.loc[[op] + _others(nsv.index, op)]
    sets = list(nsv.columns)
    beaten = {s: [m for m in nsv.index if m != op and nsv.at[m, s] <= nsv.at[op, s]
                  and not (m == "SVM" and s in ("BCW", "PCV", "DER"))] for s in sets}
    avg = nsv[sets].mean(axis=1)
    per = "; ".join(f"{s} OP {fmt_num(nsv.at[op, s])}" + (f" (not below {', '.join(b)})" if b else "")
                    for s, b in beaten.items())
    measured = (f"{op}: {per}; mean #SV over the sets: OP-LSSVM {fmt_num(avg[op])}, "
                + ", ".join(f"{m} {fmt_num(v)}" for m, v in avg.drop(op).items() if m != "LSSVM"))
    if not any(beaten.values()):
        return Verdict("holds", measured=measured, uncertainty="means over the splits")
    if avg.idxmin() == op:
        return Verdict("holds only when", condition="#SV is averaged over the data sets", measured=measured,
                       uncertainty="means over the splits")
    return Verdict("does not hold", measured=measured, uncertainty="means over the splits")


def _k_rows(lg, name):
    """(label, k* over the splits, printed mean, printed sd) per set of the row ``name``."""
    op = lg[lg.method == name]
    return [(f"nsv OP-LSSVM {s}", g.nsv, *TABLE2["nsv"]["OP-LSSVM"][s]) for s, g in op.groupby("set")
            if s in TABLE2["nsv"]["OP-LSSVM"] and g.nsv.notna().any()]


def _k_text(lg, name) -> str:
    op = lg[lg.method == name]
    return f"{name}: " + ", ".join(f"{s} {fmt_num(g.nsv.mean())} (range {fmt_num(g.nsv.min())}–"
                                   f"{fmt_num(g.nsv.max())})" for s, g in op.groupby("set"))


def _k_star(rec):
    """k* by PRESS (the paper's text) against the printed ≈ 80; else k by training accuracy (their code).

    "holds": the PRESS k* of the paper's regime is within 2 printed sd on every set; "holds only when":
    it is not, but the authors' MATLAB choice (their ranking, k by training accuracy over k ≤ 200) is;
    "does not hold": neither is.
    """
    lg = table_long(rec["table"])
    name = _op(lg)
    n, text = deviations_text(_k_rows(lg, name), CAUSES)
    auth = _k_rows(lg, AUTHORS_K)
    n_auth, text_auth = deviations_text(auth, {})
    others = [m for m in sorted(set(lg.method)) if m.startswith("OP-LSSVM") and m not in (name, AUTHORS_K)
              and lg[lg.method == m].nsv.notna().any()]
    measured = "k* " + "; ".join([_k_text(lg, m) for m in [name] + others] + ([_k_text(lg, AUTHORS_K)] if auth else []))
    unc = "against the printed mean ± 2 printed sd, every set"
    if n == 0:
        return Verdict("holds", measured=measured, uncertainty=unc, cause=text)
    if auth and n_auth == 0:
        return Verdict("holds only when", condition="k is chosen as the authors' MATLAB chooses it (largest "
                       "training accuracy over k = 1, 3, …, 199), not by PRESS as the paper says",
                       measured=measured, uncertainty=unc, cause=text)
    return Verdict("does not hold", measured=measured, uncertainty=unc,
                   cause=text + (f"; authors' k rule: {text_auth}" if auth else ""))


def _edges(table: pd.DataFrame) -> str:
    """How often each tuned gamma (C) or sigma2 sits on the edge of the CV grid, over the splits."""
    if "options" not in table.columns or not len(table):
        return ""
    o = table.options.iloc[0]
    o = json.loads(o) if isinstance(o, str) else dict(o)
    gC = [2.0 ** k for k in o.get("log2_C", [])]
    parts = []
    for who in ("lssvm", "svm", "op"):
        c = pd.to_numeric(table.get(f"C_{who}", pd.Series(dtype=float)), errors="coerce")
        if len(gC) > 1 and c.notna().any():
            n = sum(grid_edge(gC, v) is not None for v in c)
            if n:
                parts.append(f"γ of {who} on the grid's edge in {n} of {int(c.notna().sum())} splits")
    return ("optima on the edge of the tuning grid: " + "; ".join(parts)) if parts else ""


def _table2(rec):
    lg = table_long(rec["table"])
    rows = []
    for metric in ("acc", "nsv"):
        for method, by_set in TABLE2[metric].items():
            mm = _op(lg) if method == "OP-LSSVM" else method
            for s, (p, sd) in by_set.items():
                v = lg[(lg.method == mm) & (lg.set == s)][metric]
                if len(v.dropna()):
                    rows.append((f"{metric} {method} {s}", v, p, sd))
    n, text = deviations_text([r for r in rows if r[0].startswith("acc")], CAUSES)
    edges = _edges(rec["table"])
    text = text + (f"; {edges}" if edges else "")
    return Verdict("holds" if n == 0 else "does not hold",
                   measured=f"{len([r for r in rows if r[0].startswith('acc')])} accuracy cells compared",
                   uncertainty=f"{lg.seed.nunique()} split(s) per set against the printed mean ± 2 printed sd",
                   cause=text)


def _slope(L, t):
    ok = np.isfinite(t) & (t > 0)
    x, y = np.log(np.asarray(L, float)[ok]), np.log(np.asarray(t, float)[ok])
    if len(x) < 3:
        return (float(np.polyfit(x, y, 1)[0]) if len(x) == 2 else np.nan), np.nan
    (b, _), cov = np.polyfit(x, y, 1, cov=True)
    return float(b), float(np.sqrt(cov[0, 0]))


def _times(rec):
    sc = rec["scaling"].copy()
    sc["L"] = pd.to_numeric(sc["L"], errors="coerce")
    sc = sc.sort_values("L")
    t_op = pd.to_numeric(sc["time_op-lssvm"], errors="coerce").to_numpy(float)
    t_ls = pd.to_numeric(sc["time_lssvm-kkt"], errors="coerce").to_numpy(float)
    return sc.L.to_numpy(float), t_op, t_ls


def _growth(rec):
    L, t_op, t_ls = _times(rec)
    (a, sa), (b, sb) = _slope(L, t_op), _slope(L, t_ls)
    se = float(np.hypot(sa, sb)) if np.isfinite(sa) and np.isfinite(sb) else np.nan
    d = b - a
    outcome = ("does not hold" if d <= 0 else "holds" if not np.isfinite(se) or d > 2 * se else "undecided")
    unc = (f"slope difference {d:.2f} ± {se:.2f} (1 SE of the log-log fits)" if np.isfinite(se)
           else "two sizes: no standard error")
    return Verdict(outcome, measured=f"log-log slope of time over L = {int(L.min())}–{int(L.max())}: "
                   f"OP-LSSVM {a:.2f}, LSSVM {b:.2f}", uncertainty=unc)


def _larger(rec):
    L, t_op, t_ls = _times(rec)
    r = t_op / t_ls
    measured = (f"OP/LSSVM time ratio {fmt_num(r[0])} at L = {int(L[0])} → {fmt_num(r[-1])} at "
                f"L = {int(L[-1])}")
    if r[-1] < 1:
        return Verdict("holds", measured=measured, uncertainty="best of 3 timings per size")
    (a, _), (b, _) = _slope(L, t_op), _slope(L, t_ls)
    if b > a:
        L_star = L[-1] * r[-1] ** (1 / (b - a))
        return Verdict("holds only when", condition=f"L > {fmt_num(L_star)} (extrapolated, beyond the sizes "
                       "measured)", measured=measured, uncertainty="power-law fits of the measured times")
    return Verdict("does not hold", measured=measured, uncertainty="the ratio does not fall with L")


def _ip(rec):
    lg = table_long(rec["table"])
    parts, good, bad = [], 0, 0
    for s in sorted(lg.set.unique()):
        d = paired(_by_seed(lg, s, "IP-LSSVM 10%", "acc"), _by_seed(lg, s, "IP-LSSVM 30%", "acc"))
        o = better(d)  # 10 % more accurate than 30 %: degradation with pruning
        expected = "does not hold" if s == "BCW" else "holds"
        hit = o == expected or (s == "BCW" and o == "undecided")
        good, bad = good + hit, bad + (not hit and o != "undecided")
        parts.append(f"{s} {d.text(' pp', 'ACC 10 % − 30 %')}")
    outcome = "holds" if good == len(parts) else "does not hold" if bad else "undecided"
    return Verdict(outcome, measured="; ".join(parts),
                   uncertainty="degradation = the CI of ACC(10 %) − ACC(30 %) above 0; on BCW it must not be")


#: Digits the printed normal equations may lose against the QR solve and still count as "the same
#: model": one, the resolution of an error bound c·κ·u whose constant c is not known to better than 10x.
NE_DIGIT_MARGIN = 1.0


def ne_long(ne: pd.DataFrame) -> pd.DataFrame:
    """One row per (precision, γ) of the ``vieira-normal-equations`` records: k, κ(D_*), the exact
    model's certified digits, and the model digits of each solve (NaN on a breakdown, 0 counted)."""
    d = ne[ne.status.astype(str) == "ok"] if "status" in ne.columns else ne
    out = pd.DataFrame({"precision": d.precision, "C": pd.to_numeric(d.C, errors="coerce"),
                        "k": pd.to_numeric(d.k, errors="coerce"),
                        "cond_D_star": pd.to_numeric(d.cond_D_star, errors="coerce"),
                        "exact_digits": pd.to_numeric(d.exact_digits, errors="coerce")})
    for s in NE_SOLVES:
        out[f"digits {s}"] = pd.to_numeric(d[f"model_digits[{s}]"], errors="coerce")
        out[f"status {s}"] = d[f"status[{s}]"].astype(str)
    return out.sort_values(["precision", "C"]).reset_index(drop=True)


def _ne_loss(t):
    """Digits the normal equations lose against lstsq (a breakdown keeps 0 digits)."""
    ls, ne = t[f"digits {NE_SOLVES[0]}"], t[f"digits {NE_SOLVES[1]}"].fillna(0.0)
    return ls - ne


def _normal_eq(rec):
    t = ne_long(rec["normal-equations"])
    t = t[t[f"digits {NE_SOLVES[0]}"].notna()]
    f64 = t[t.precision == "float64"]
    if not len(f64):
        return Verdict("undecided", measured="no float64 row with a certified lstsq model")
    loss = _ne_loss(t)
    measured = "; ".join(
        f"{r.precision} γ = {fmt_num(r.C)}, k = {int(r.k)}, κ(D_*) = {fmt_num(r.cond_D_star)}: lstsq "
        f"{r[f'digits {NE_SOLVES[0]}']:.1f} digits, normal eq. "
        + (f"{r[f'digits {NE_SOLVES[1]}']:.1f}" if np.isfinite(r[f'digits {NE_SOLVES[1]}'])
           else r[f"status {NE_SOLVES[1]}"]) + f" (lost {l:.1f}, log10 κ = {np.log10(r.cond_D_star):.1f})"
        for (_, r), l in zip(t.iterrows(), loss))
    unc = (f"model digits against the certified exact model (≥ {fmt_num(t.exact_digits.min())} certified); "
           f"the same model = within {NE_DIGIT_MARGIN:g} digit of lstsq (the c of c·κ·u); theory: the normal "
           "equations lose about log10 κ(D_*)")
    ok64 = loss[f64.index] <= NE_DIGIT_MARGIN
    if ok64.all():
        return Verdict("holds", measured=measured, uncertainty=unc)
    if ok64.any():
        worst = f64[ok64].cond_D_star.max()
        return Verdict("holds only when", condition=f"κ(D_*) ≤ {fmt_num(worst)} (γ ≤ {fmt_num(f64[ok64].C.max())})",
                       measured=measured, uncertainty=unc)
    return Verdict("does not hold", measured=measured, uncertainty=unc)


# --------------------------------------------------------------------------- synthetic records
def _table_rows(acc: dict, nsv: dict, seeds=4, sets=("HAB", "BCW")):
    """Synthetic vieira-split rows; a value given for "OP-LSSVM" applies to every OP-LSSVM reading."""
    acc = {(OP if k == "OP-LSSVM" else (OP, k[1]) if isinstance(k, tuple) and k[0] == "OP-LSSVM" else k): v
           for k, v in acc.items()} | acc
    nsv = {(OP if k == "OP-LSSVM" else (OP, k[1]) if isinstance(k, tuple) and k[0] == "OP-LSSVM" else k): v
           for k, v in nsv.items()} | nsv
    code = {v: k for k, v in VIEIRA_SETS.items()}
    rng = np.random.default_rng(0)
    rows = []
    for s in sets:
        for seed in range(seeds):
            r = {"dataset": code[s], "seed": seed, "status": "ok", "L": 200}
            for m in TABLE_METHODS:
                r[f"acc[{m}]"] = acc.get((m, s), acc.get(m, 80.0)) + 0.1 * rng.standard_normal()
                r[f"nsv[{m}]"] = nsv.get((m, s), nsv.get(m, 200.0))
                r[f"time_{m}"] = 1.0
            rows.append(r)
    return {"table": pd.DataFrame(rows)}


def _scaling_rows(op_power, ls_power):
    L = np.array([100, 200, 400, 800], float)
    return {"scaling": pd.DataFrame({"L": L, "status": "ok", "time_op-lssvm": 1e-2 * (L / 100) ** op_power,
                                     "time_lssvm-kkt": 1e-3 * (L / 100) ** ls_power})}


def _printed_acc(scale=0.0):
    return {(m, s): p + scale * sd for m, by in TABLE2["acc"].items() for s, (p, sd) in by.items()}


def _ne_rows(losses, kappa=1e5):
    """Synthetic vieira-normal-equations rows: float64 at γ = 2^0, 2^6, ..., lstsq 12 digits, the normal
    equations ``losses`` digits fewer (None: a Cholesky breakdown)."""
    rows = []
    for i, lost in enumerate(losses):
        rows.append({"precision": "float64", "C": 2.0 ** (6 * i), "k": 100, "status": "ok",
                     "cond_D_star": kappa * 10 ** i, "exact_digits": 18.0, "model_digits[lstsq]": 12.0,
                     "status[lstsq]": "ok", "model_digits[normal-equations]": np.nan if lost is None else 12.0 - lost,
                     "status[normal-equations]": "breakdown" if lost is None else "ok"})
    return {"normal-equations": pd.DataFrame(rows)}


_EX = {
    "normal_eq": lambda: {"holds": _ne_rows([0.2, 0.8]), "holds only when": _ne_rows([0.5, 4.0]),
                          "does not hold": _ne_rows([3.0, None])},
    "accuracy": lambda: {"holds": _table_rows({"OP-LSSVM": 80.0, "LSSVM": 80.0}, {}),
                         "does not hold": _table_rows({"OP-LSSVM": 75.0, "LSSVM": 80.0}, {})},
    "sparsity": lambda: {"holds": _table_rows({}, {"OP-LSSVM": 50.0}),
                         "holds only when": _table_rows({}, {"OP-LSSVM": 50.0, ("P-LSSVM", "BCW"): 30.0}),
                         "does not hold": _table_rows({}, {"OP-LSSVM": 300.0})},
    "k_star": lambda: {"holds": _table_rows({}, {("OP-LSSVM", "HAB"): 83.0, ("OP-LSSVM", "BCW"): 83.6}),
                       "holds only when": _table_rows({}, {"OP-LSSVM": 5.0, (AUTHORS_K, "HAB"): 83.0,
                                                           (AUTHORS_K, "BCW"): 83.6}),
                       "does not hold": _table_rows({}, {"OP-LSSVM": 5.0})},
    "table2": lambda: {"holds": _table_rows(_printed_acc(), {}),
                       "does not hold": _table_rows(_printed_acc(5.0), {})},
    "growth": lambda: {"holds": _scaling_rows(1.0, 3.0), "does not hold": _scaling_rows(3.0, 1.0)},
    "larger": lambda: {"holds": _scaling_rows(1.0, 3.0), "does not hold": _scaling_rows(3.0, 1.0),
                       "holds only when": _scaling_rows(1.0, 1.5)},
    "ip": lambda: {"holds": _table_rows({"IP-LSSVM 10%": 80.0, "IP-LSSVM 30%": 70.0,
                                         ("IP-LSSVM 30%", "BCW"): 80.0}, {}),
                   "does not hold": _table_rows({"IP-LSSVM 10%": 70.0, "IP-LSSVM 30%": 80.0}, {})},
}
_T2 = ("vieira-table2",)
_PRINTED_DACC = "ΔACC OP − LSSVM: HAB +0.5, BCW −0.3, DIA −0.4, RIP +0.1 pp (30 splits)"
register_claim("V-accuracy", paper="vieira", section=_SECTION, where="§4, Table 2",
               text="OP-LSSVM's accuracy is equivalent or superior to the other classifiers' (here: to LSSVM)",
               printed=_PRINTED_DACC, records=("table",), rule=_accuracy, evidence=_T2, examples=_EX["accuracy"])
register_claim("V-sparsity", paper="vieira", section=_SECTION, where="§4, Table 2",
               text="OP-LSSVM has sparser solutions than every other classifier on all sets, except PCV, DER "
                    "and BCW for SVM", printed="OP #SV 80.6–89.8; P-LSSVM 39.0 (DER), 38.7 (BCW); mean over "
                    "sets OP 83.1, SVM 113.4, P-LSSVM 135.7", records=("table",), rule=_sparsity,
               evidence=_T2, examples=_EX["sparsity"])
register_claim("V-kstar", paper="vieira", section=_SECTION, where="Table 2, OP-LSSVM #SVs",
               text="OP-LSSVM keeps about 80 columns (k*) with PRESS (beside it: k as the authors' MATLAB picks "
                    "it, by training accuracy)", printed="HAB 83.0 ± 16.7, BCW 83.6 ± 13.0, "
               "DIA 82.8 ± 14.5, RIP 80.6 ± 17.8", records=("table",), rule=_k_star, evidence=_T2,
               examples=_EX["k_star"])
register_claim("V-table2", paper="vieira", section=_SECTION, where="Table 2, ACC rows",
               text="Table 2's accuracies (SVM, LSSVM, IP-LSSVM, P-LSSVM, OP-LSSVM) reproduce",
               printed="e.g. LSSVM HAB 73.7 ± 3.2, BCW 96.1 ± 1.1, DIA 76.8 ± 2.1, RIP 87.9 ± 1.0",
               records=("table",), rule=_table2, evidence=_T2, examples=_EX["table2"])
register_claim("V-time-growth", paper="vieira", section=_SECTION, where="§4, Table 2 times",
               text="OP-LSSVM's training time grows more slowly with L than LSSVM's",
               printed="HAB → RIP: LSSVM ×21 (6.6 → 140 s), OP-LSSVM ×11 (140 → 1600 s)",
               records=("scaling",), rule=_growth, evidence=("vieira-time-over-l",), examples=_EX["growth"])
register_claim("V-time-larger", paper="vieira", section=_SECTION, where="§5 (conclusion)",
               text="for larger data sets OP-LSSVM trains faster than LSSVM",
               printed="OP/LSSVM time ratio 21 (HAB) → 11 (RIP); never below 1 in Table 2",
               records=("scaling",), rule=_larger, evidence=("vieira-time-over-l",), examples=_EX["larger"])
register_claim("V-ip", paper="vieira", section=_SECTION, where="§4, Table 2 IP-LSSVM rows",
               text="IP-LSSVM's accuracy degrades as pruning grows, except on BCW",
               printed="DIA 73.5 → 69.1 → 53.1; BCW 96.6 → 96.8 → 97.0", records=("table",), rule=_ip,
               evidence=_T2, examples=_EX["ip"])
register_claim("V-pcv-der", paper="vieira", section=_SECTION, where="Table 2, PCV and DER columns",
               text="the PCV and DER columns of Table 2 (accuracy, #SV, time)",
               printed="OP-LSSVM PCV 83.9 ± 3.0, DER 99.7 ± 0.5",
               untestable="PCV (vertebral column) and DER (dermatology) ship in no installed package and "
                          "nothing is downloaded")
register_claim("V-normal-equations", paper="vieira", section=_SECTION, where="§3, step 4 (z = (D_*ᵀD_*)⁻¹D_*ᵀl)",
               text="step 4 as printed, the normal equations (D_*ᵀD_*)⁻¹D_*ᵀl, gives the least-squares model "
                    "(within one digit of a QR solve) at the paper's k ≈ 80–100, in float64",
               printed="z = (D_*ᵀD_*)⁻¹D_*ᵀl, the pseudo-inverse solution; #SV ≈ 80 (Table 2)",
               records=("normal-equations",), rule=_normal_eq, evidence=("vieira-normal-equations",),
               examples=_EX["normal_eq"])
