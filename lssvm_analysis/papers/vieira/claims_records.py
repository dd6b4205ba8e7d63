"""Vieira et al.'s Table 2 as printed, and the records built from it: the paper's own records
(:func:`paper_records`), the long table of the records (:func:`table_long`) and the synthetic records of the claims' examples (:data:`EXAMPLES`).

The rules that judge these records are in :mod:`.vieira`, which re-exports the names here.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .kinds import TABLE_METHODS

__all__ = ["VIEIRA_SETS", "TABLE2", "TRAIN_L", "N_PAPER", "OP", "AUTHORS_K", "PRINTED_K", "EXAMPLES",
           "table_long", "table_rows", "scaling_rows", "paper_records"]

#: Registry names of the data sets -> Vieira's codes.
VIEIRA_SETS = {"haberman": "HAB", "breast-cancer-wisconsin": "BCW", "pima-uci": "DIA", "ripley-synth": "RIP"}
#: Table 2 as printed (mean, sd over 30 splits): ACC [%], #SV and training time [s] per method and set
#: (SEED_NOTES §1.8; PCV and DER ship nowhere, they serve the examples built from the paper's numbers).
TABLE2 = {
    "acc": {"SVM": {"HAB": (72.4, 3.3), "PCV": (87.1, 2.6), "DER": (99.9, 0.3), "BCW": (96.4, 1.0),
                    "DIA": (76.9, 2.3), "RIP": (88.0, 1.4)},
            "LSSVM": {"HAB": (73.7, 3.2), "PCV": (83.5, 4.0), "DER": (99.7, 0.5), "BCW": (96.1, 1.1),
                      "DIA": (76.8, 2.1), "RIP": (87.9, 1.0)},
            "IP-LSSVM 10%": {"HAB": (70.6, 5.7), "PCV": (76.3, 6.4), "DER": (99.2, 1.3), "BCW": (96.6, 0.8),
                             "DIA": (73.5, 3.3), "RIP": (87.5, 2.3)},
            "IP-LSSVM 20%": {"HAB": (62.9, 9.1), "PCV": (67.9, 13.3), "DER": (98.9, 1.7), "BCW": (96.8, 1.0),
                             "DIA": (69.1, 10.0), "RIP": (87.2, 1.8)},
            "IP-LSSVM 30%": {"HAB": (60.2, 11.5), "PCV": (65.5, 15.6), "DER": (98.6, 2.8), "BCW": (97.0, 1.0),
                             "DIA": (53.1, 14.4), "RIP": (86.7, 1.6)},
            "P-LSSVM": {"HAB": (72.2, 3.8), "PCV": (85.7, 3.0), "DER": (98.5, 1.8), "BCW": (95.6, 2.5),
                        "DIA": (76.1, 2.4), "RIP": (87.3, 2.1)},
            "OP-LSSVM": {"HAB": (74.2, 3.1), "PCV": (83.9, 3.0), "DER": (99.7, 0.5), "BCW": (95.8, 0.9),
                         "DIA": (76.4, 2.6), "RIP": (88.0, 1.3)}},
    "nsv": {"SVM": {"HAB": (97.4, 6.9), "PCV": (53.3, 6.3), "DER": (22.9, 4.2), "BCW": (39.5, 10.9),
                    "DIA": (240.4, 14.4), "RIP": (226.6, 36.5)},
            "LSSVM": {"HAB": (201, 0.0), "PCV": (204, 0.0), "DER": (241, 0.0), "BCW": (461, 0.0),
                      "DIA": (506, 0.0), "RIP": (825, 0.0)},
            "IP-LSSVM 10%": {"HAB": (181, 0.0), "PCV": (184, 0.0), "DER": (217, 0.0), "BCW": (415, 0.0),
                             "DIA": (455, 0.0), "RIP": (742, 0.0)},
            "IP-LSSVM 20%": {"HAB": (161, 0.0), "PCV": (163, 0.0), "DER": (193, 0.0), "BCW": (369, 0.0),
                             "DIA": (405, 0.0), "RIP": (660, 0.0)},
            "IP-LSSVM 30%": {"HAB": (141, 0.0), "PCV": (143, 0.0), "DER": (169, 0.0), "BCW": (323, 0.0),
                             "DIA": (354, 0.0), "RIP": (577, 0.0)},
            "P-LSSVM": {"HAB": (106.5, 19.1), "PCV": (131.7, 54.0), "DER": (39.0, 58.1), "BCW": (38.7, 9.5),
                        "DIA": (273.2, 59.8), "RIP": (224.9, 17.0)},
            "OP-LSSVM": {"HAB": (83.0, 16.7), "PCV": (78.6, 12.8), "DER": (89.8, 10.1), "BCW": (83.6, 13.0),
                         "DIA": (82.8, 14.5), "RIP": (80.6, 17.8)}},
    "time": {"SVM": {"HAB": (9.6e2, 1.4e3), "PCV": (2.5e2, 4.7e2), "DER": (9.6e-1, 2.5e-1), "BCW": (2.3e2, 6.2e2),
                     "DIA": (6.0e3, 8.6e3), "RIP": (3.9e2, 9.2e2)},
             "LSSVM": {"HAB": (6.6, 1.3), "PCV": (5.6, 1.5), "DER": (8.0, 2.0), "BCW": (4.0e1, 9.1),
                       "DIA": (4.7e1, 7.8), "RIP": (1.4e2, 1.8e1)},
             "IP-LSSVM 10%": {"HAB": (5.8, 2.4), "PCV": (5.2, 2.2), "DER": (8.6, 3.5), "BCW": (3.4e1, 8.4),
                              "DIA": (4.3e1, 1.1e1), "RIP": (1.3e2, 2.0e1)},
             "IP-LSSVM 20%": {"HAB": (5.3, 1.4), "PCV": (4.7, 1.6), "DER": (7.8, 3.0), "BCW": (3.6e1, 7.7),
                              "DIA": (4.5e1, 1.3e1), "RIP": (1.4e2, 2.2e1)},
             "IP-LSSVM 30%": {"HAB": (4.6, 1.7), "PCV": (5.2, 1.9), "DER": (7.4, 2.8), "BCW": (3.2e1, 8.4),
                              "DIA": (4.0e1, 1.1e1), "RIP": (1.2e2, 1.4e1)},
             "P-LSSVM": {"HAB": (3.5e1, 8.5), "PCV": (2.4e1, 2.0e1), "DER": (5.5e1, 1.8e1), "BCW": (2.4e2, 2.9e1),
                         "DIA": (2.9e2, 8.0e1), "RIP": (1.3e3, 1.1e2)},
             "OP-LSSVM": {"HAB": (1.4e2, 1.0e2), "PCV": (1.3e2, 6.7e1), "DER": (1.6e2, 8.3e1), "BCW": (5.8e2, 2.9e2),
                          "DIA": (6.5e2, 2.7e2), "RIP": (1.6e3, 6.5e2)}},
}
#: The training sizes of Table 1 (floor(0.66 N)).
TRAIN_L = {"HAB": 201, "PCV": 204, "DER": 241, "BCW": 461, "DIA": 506, "RIP": 825}

#: Splits of the paper's protocol (the n_paper of "reproduces").
N_PAPER = 30
#: The row the claims judge: OP-LSSVM in the paper's regime (its own gamma by the paper's CV protocol).
OP = "OP-LSSVM own γ"
#: The row of the authors' MATLAB choice of k (training accuracy), which V-kstar reads beside PRESS.
AUTHORS_K = "OP-LSSVM authors' k"


def table_rows(acc: dict, nsv: dict, seeds=4, sets=("HAB", "BCW"), time: dict | None = None):
    """Synthetic vieira-split rows; a value given for "OP-LSSVM" applies to every OP-LSSVM reading."""
    def own(d):
        return {(OP if k == "OP-LSSVM" else (OP, k[1]) if isinstance(k, tuple) and k[0] == "OP-LSSVM" else k): v
                for k, v in d.items()} | d
    acc, nsv, time = own(acc), own(nsv), own(time or {})
    code = {v: k for k, v in VIEIRA_SETS.items()}
    rng = np.random.default_rng(0)
    rows = []
    for s in sets:
        for seed in range(seeds):
            r = {"dataset": code[s], "seed": seed, "status": "ok", "L": 200}
            for m in TABLE_METHODS:
                r[f"acc[{m}]"] = acc.get((m, s), acc.get(m, 80.0)) + 0.1 * rng.standard_normal()
                r[f"nsv[{m}]"] = nsv.get((m, s), nsv.get(m, 200.0 - (20 * int(m[9:11]) // 10
                                                                      if m.startswith("IP-LSSVM") else 0)))
                r[f"time_{m}"] = time.get((m, s), time.get(m, 1.0)) * (1 + 0.05 * rng.standard_normal())
            rows.append(r)
    return {"table": pd.DataFrame(rows)}


def scaling_rows(op_power, ls_power, L=(100, 200, 400, 800)):
    L = np.array(L, float)
    return {"scaling": pd.DataFrame({"L": L, "status": "ok", "time_op-lssvm": 1e-2 * (L / 100) ** op_power,
                                     "time_lssvm-kkt": 1e-3 * (L / 100) ** ls_power})}


def _printed_acc(scale=0.0):
    return {(m, s): p + scale * sd for m, by in TABLE2["acc"].items() for s, (p, sd) in by.items()}


def _standard(rng, n):
    z = rng.standard_normal(n)
    return (z - z.mean()) / z.std(ddof=1)


def paper_records(splits: int = N_PAPER) -> dict:
    """The records Table 2 as printed would give: per set of the paper (the six, PCV and DER included)
    and split, each method's ACC and #SV drawn with exactly the printed mean and sd (normal), its time
    log-normal with the printed mean and sd; methods drawn independently (the paper prints no paired
    spread: the widest the pairing could be); L of Table 1.  ``"scaling"``: the printed mean training
    times of OP-LSSVM and LSSVM at each set's L (the paper's only evidence on growth with L).
    """
    rng = np.random.default_rng(2016)
    code = {v: k for k, v in VIEIRA_SETS.items()}
    rows = {(s, i): {"dataset": code.get(s, s), "seed": i, "status": "ok", "L": L}
            for s, L in TRAIN_L.items() for i in range(splits)}
    for metric in ("acc", "nsv", "time"):
        for m, by in TABLE2[metric].items():
            for s, (p, sd) in by.items():
                z = _standard(rng, splits)
                if metric == "time":
                    sig = np.sqrt(np.log1p((sd / p) ** 2))
                    v = np.exp(np.log(p) - sig ** 2 / 2 + sig * z)
                else:
                    v = p + sd * z
                for col in ((m, OP) if m == "OP-LSSVM" else (m,)):
                    for i in range(splits):
                        # the kind's columns: acc[<method>], nsv[<method>], time_<method> (issue 32's rename)
                        rows[(s, i)][f"time_{col}" if metric == "time" else f"{metric}[{col}]"] = float(v[i])
    table = pd.DataFrame(list(rows.values())).assign(source="paper")
    sets = sorted(TRAIN_L, key=TRAIN_L.get)
    scaling = pd.DataFrame({"L": [float(TRAIN_L[s]) for s in sets], "status": "ok",
                            "time_op-lssvm": [TABLE2["time"]["OP-LSSVM"][s][0] for s in sets],
                            "time_lssvm-kkt": [TABLE2["time"]["LSSVM"][s][0] for s in sets]})
    return {"table": table, "scaling": scaling}


def table_long(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (set, split, method) with acc, nsv, time from the ``vieira-split`` records."""
    rows = []
    for _, r in table.iterrows():
        for label in TABLE_METHODS:
            rows.append({"set": VIEIRA_SETS.get(r["dataset"], r["dataset"]), "seed": r["seed"], "method": label,
                         "acc": r.get(f"acc[{label}]", np.nan), "nsv": r.get(f"nsv[{label}]", np.nan),
                         "time": r.get(f"time_{label}", np.nan), "L": r.get("L", np.nan)})
    lg = pd.DataFrame(rows, columns=["set", "seed", "method", "acc", "nsv", "time", "L"])
    for c in ("acc", "nsv", "time", "L"):
        lg[c] = pd.to_numeric(lg[c], errors="coerce")
    return lg


def _as_paper(rec: dict) -> dict:
    """Synthetic records marked as the paper's own numbers (as :func:`paper_records`)."""
    return {**rec, "table": rec["table"].assign(source="paper")}


#: OP-LSSVM's printed #SV on the two sets of the synthetic records (a k* that reproduces).
PRINTED_K = {("OP-LSSVM", "HAB"): 83.0, ("OP-LSSVM", "BCW"): 83.6}
EXAMPLES = {
    "accuracy_others": lambda: {
        "holds": table_rows({"OP-LSSVM": 80.0}, {}),
        "does not hold": table_rows({"OP-LSSVM": 75.0}, {}),
        "undecided": table_rows({"OP-LSSVM": 79.0, ("OP-LSSVM", "BCW"): 79.15}, {}, seeds=2)},
    "sparsity_p": lambda: {"holds": table_rows({}, PRINTED_K),
                           "holds only when": table_rows({}, {"OP-LSSVM": 50.0}),
                           "does not hold": table_rows({}, {"OP-LSSVM": 50.0, ("P-LSSVM", "BCW"): 30.0})},
    "avg_svs": lambda: {"holds": table_rows({}, PRINTED_K),
                        "holds only when": table_rows({}, {"OP-LSSVM": 50.0}),
                        "does not hold": table_rows({}, {"OP-LSSVM": 300.0})},
    "k_star": lambda: {"holds": table_rows({}, PRINTED_K),
                       "holds only when": table_rows({}, {"OP-LSSVM": 5.0, (AUTHORS_K, "HAB"): 83.0,
                                                           (AUTHORS_K, "BCW"): 83.6}),
                       "does not hold": table_rows({}, {"OP-LSSVM": 5.0})},
    # Table 2's model: every cell its printed mean → holds; 5 printed sd below → does not hold; 5 sd above
    # (better than printed: other splits / data version) → not reproduced
    "table2": lambda: {"holds": table_rows(_printed_acc(), {}),
                       "does not hold": table_rows(_printed_acc(-5.0), {}),
                       "not reproduced": table_rows(_printed_acc(5.0), {})},
    "table2_svs": lambda: {"holds": table_rows({}, {("SVM", "HAB"): 97.4, ("SVM", "BCW"): 39.5,
                                                     ("P-LSSVM", "HAB"): 106.5, ("P-LSSVM", "BCW"): 38.7}),
                           "does not hold": table_rows({}, {"IP-LSSVM 10%": 150.0}),
                           # a baseline's count 5 printed sd off: its protocol is not printed (SVS_CAUSES)
                           "not reproduced": table_rows({}, {("SVM", "HAB"): 97.4, ("SVM", "BCW"): 95.0,
                                                             ("P-LSSVM", "HAB"): 106.5, ("P-LSSVM", "BCW"): 38.7})},
    "growth": lambda: {"holds": scaling_rows(1.0, 3.0), "does not hold": scaling_rows(3.0, 1.0)},
    "larger": lambda: {"holds": scaling_rows(1.0, 3.0), "does not hold": scaling_rows(3.0, 1.0, L=(200, 400, 800, 1600)),
                       "holds only when": scaling_rows(1.0, 2.0), "undecided": scaling_rows(1.0, 1.5)},
    "ip": lambda: {"holds": table_rows({"IP-LSSVM 10%": 80.0, "IP-LSSVM 30%": 70.0,
                                         ("IP-LSSVM 30%", "BCW"): 80.0}, {}),
                   "does not hold": table_rows({"IP-LSSVM 10%": 70.0, "IP-LSSVM 30%": 80.0}, {})},
    "p_loss": lambda: {"holds": table_rows({"P-LSSVM": 79.0}, {}),
                       "does not hold": table_rows({"P-LSSVM": 75.0}, {}),
                       "undecided": table_rows({"P-LSSVM": 77.5}, {}, seeds=2)},
    "time_greater": lambda: {"holds": table_rows({}, {}, time={"OP-LSSVM": 5.0}),
                             "does not hold": table_rows({}, {}, time={"OP-LSSVM": 0.2})},
    # the sentence's model: the linear system cheaper than the QP (t_SVM 5× t_LSSVM) → holds; the paper's own
    # times with the QP faster → does not hold; our run with the QP faster → not reproduced (implementation)
    "linear_vs_qp": lambda: {"holds": table_rows({}, {}, time={"SVM": 5.0}),
                             "does not hold": _as_paper(table_rows({}, {}, time={"SVM": 0.2})),
                             "not reproduced": table_rows({}, {}, time={"SVM": 0.2})},
}
