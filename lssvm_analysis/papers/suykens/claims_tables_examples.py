"""Synthetic records of the Suykens ch. 3 table claims (:mod:`.suykens`): each rule's examples of two or
more outcomes (:data:`EXAMPLES`) and the records built from the chapter's printed numbers
(:data:`PRINTED_EXAMPLES`: Tables 3.3-3.4 as printed, mean and sd per domain, ten randomisations).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .printed import T33_DOMAINS, T34_DOMAINS, TABLE_3_3, TABLE_3_4

__all__ = ["ALPHA5", "CODE_LABELS", "EXAMPLES", "N33", "PAIRS_1VS1", "PRINTED_EXAMPLES"]

#: Table 3.5's significance level whose pruned fits the ledger reads.
ALPHA5 = 0.05
#: The training part of each Table 3.3 domain (2/3 of the set; adu's 33000 as the chapter's).
N33 = dict(zip(T33_DOMAINS, (460, 230, 666, 180, 234, 512, 138, 638, 455, 33000)))
#: Output codes as the tables label them.
CODE_LABELS = {"moc": "MOC", "1vs1": "1vs1", "1vsa": "1vsA"}
#: The 8 kernel × model rows of Table 3.4 that have both codes (S-1vs1/all).
PAIRS_1VS1 = ("RBF LS-SVM", "RBF LS-SVM_F", "Lin LS-SVM", "Lin LS-SVM_F", "Pol LS-SVM", "Pol LS-SVM_F", "RBF SVM",
              "Lin SVM")


def _binary(acc: dict, seeds=3, doms=("acr", "bld", "hea", "ion", "pid")):
    rows = []
    rng = np.random.default_rng(1)
    for d in doms:
        for s in range(seeds):
            for m, v in acc.items():
                val = v[d] if isinstance(v, dict) else v
                rows.append({"dataset": f"suykens-{d}", "seed": s, "method": m, "status": "ok",
                             "acc": val + 0.2 * rng.standard_normal(), "n_train": N33.get(d, 200),
                             f"prune_acc[{ALPHA5}]": val - 1.0 if m == "RBF LS-SVM" else np.nan,
                             f"prune_nsv[{ALPHA5}]": 0.5 * N33.get(d, 200) if m == "RBF LS-SVM" else np.nan})
    return pd.DataFrame(rows)


def _multi(acc: dict, seeds=3, doms=("bal", "cmc", "iri", "veh", "win")):
    rows = []
    for d in doms:
        for s in range(seeds):
            for (m, code), v in acc.items():
                rows.append({"dataset": f"suykens-{d}", "seed": s, "method": m, "code": code, "status": "ok",
                             "acc": v + 0.1 * s, "n_rows_binary": 300})
    return pd.DataFrame(rows)


def _printed(table, doms, shift=0.0):
    return {m: {d: v[0][doms.index(d)] + shift * v[1][doms.index(d)] for d in doms} for m, v in table.items()
            if m in ("RBF LS-SVM", "RBF SVM", "RBF LS-SVM (MOC)")}


EXAMPLES = {
    "rbf": lambda: {"holds": {"binary": _binary({"RBF LS-SVM": 80.0, "RBF SVM": 80.0})},
                    "does not hold": {"binary": _binary({"RBF LS-SVM": 70.0, "RBF SVM": 80.0})}},
    "fisher": lambda: {"holds": {"binary": _binary({"RBF LS-SVM": 80.0, "RBF LS-SVM_F": 75.0})},
                       "does not hold": {"binary": _binary({"RBF LS-SVM": 75.0, "RBF LS-SVM_F": 80.0})}},
    "1vs1": lambda: {"holds": {"multi": _multi({("RBF LS-SVM", "1vs1"): 90.0, ("RBF LS-SVM", "moc"): 80.0})},
                     "does not hold": {"multi": _multi({("RBF LS-SVM", "1vs1"): 80.0,
                                                        ("RBF LS-SVM", "moc"): 90.0})}},
    # the table's model: each cell is the printed mean (3 randomisations, 0.2 pp noise) → holds; 4 printed sd
    # below it (the classifier is worse than the table says) → does not hold; 4 sd above it (better: our split,
    # not a shortfall) or below it on a subsampled training part (a named cause) → not reproduced
    "t33": lambda: {"holds": {"binary": _binary(_printed(TABLE_3_3, T33_DOMAINS))},
                    "does not hold": {"binary": _binary(_printed(TABLE_3_3, T33_DOMAINS, -4.0))},
                    "not reproduced": {"binary": _binary(_printed(TABLE_3_3, T33_DOMAINS, 4.0))}},
    # (on ims, whose inputs are all numeric: cmc's categorical ones are coded otherwise than the book's,
    # a named cause of every cmc cell)
    "t34": lambda: {"holds": {"multi": _multi({("RBF LS-SVM", "moc"): TABLE_3_4["RBF LS-SVM (MOC)"][0][2]},
                                              doms=("ims",))},
                    "does not hold": {"multi": _multi({("RBF LS-SVM", "moc"): 20.0}, doms=("ims",))},
                    "not reproduced": {"multi": _multi({("RBF LS-SVM", "moc"): 20.0}, doms=("ims",)).assign(
                        n_train=50)}},
    "prune": lambda: {"holds": {"binary": _binary({"RBF LS-SVM": 80.0})},
                      "holds only when": {"binary": _binary({"RBF LS-SVM": 80.0}).assign(
                          **{f"prune_nsv[{ALPHA5}]": lambda d: np.where(d.dataset == "suykens-acr",
                                                                         0.9 * d.n_train, 0.5 * d.n_train)})},
                      "does not hold": {"binary": _binary({"RBF LS-SVM": 80.0}).assign(
                          **{f"prune_acc[{ALPHA5}]": 60.0})}},
}
# --------------------------------------------------------------------------- records from accuracies
_Z = (np.arange(10) - 4.5) / np.std(np.arange(10) - 4.5, ddof=1)  # 10 values, mean 0, sd 1
_INV = {v: k for k, v in CODE_LABELS.items()}


def _records(acc: dict, sd: dict | float = 1.0, seeds: int = 10, doms=None, multi=False) -> dict:
    """Records of the three kinds from accuracies ``{label: value or {domain: value}}``: a label of the LS-SVM /
    SVM rows ("RBF LS-SVM", "RBF SVM (1vs1)") goes to "binary" / "multi", any other to "reference"
    ("reference-multi").  Each randomisation is the value + sd × a fixed pattern (mean 0, sd 1) permuted per
    label, so the per-domain means are the values."""
    doms = doms or (T34_DOMAINS if multi else T33_DOMAINS)[:5]
    rng = np.random.default_rng(3)
    main, ref = [], {}
    for lab, v in acc.items():
        z = rng.permutation(_Z)[:seeds] if seeds <= 10 else rng.standard_normal(seeds)
        z = z - z.mean()
        for d in doms:
            val = v[d] if isinstance(v, dict) else v
            s_ = (sd.get(lab, {}).get(d, 1.0) if isinstance(sd.get(lab, 1.0), dict) else sd.get(lab, 1.0)) \
                if isinstance(sd, dict) else sd
            for s in range(seeds):
                a = val + s_ * z[s]
                m, _, code = lab.partition(" (")
                if m in PAIRS_1VS1:
                    row = {"dataset": f"suykens-{d}", "seed": s, "method": m, "status": "ok", "acc": a, "cv_acc": a}
                    if multi:
                        row["code"] = _INV[code.rstrip(")")]
                    main.append(row)
                else:
                    ref.setdefault((d, s), {"dataset": f"suykens-{d}", "seed": s})[f"acc[{lab}]"] = a
    k, r = ("multi", "reference-multi") if multi else ("binary", "reference")
    return {k: pd.DataFrame(main), r: pd.DataFrame(list(ref.values()))}


def _from_table(table, doms, labels=None, multi=False, seeds=10):
    """The chapter's own numbers as records: each row's printed mean and sd per domain (all ten domains)."""
    labels = labels or list(table)
    means = {m: dict(zip(doms, table[m][0])) for m in labels}
    sds = {m: dict(zip(doms, table[m][1])) for m in labels}
    return _records(means, sds, seeds=seeds, doms=doms, multi=multi)


def _t33p(labels=None):
    return _from_table(TABLE_3_3, T33_DOMAINS, labels)


def _t34p(labels=None):
    return _from_table(TABLE_3_4, T34_DOMAINS, labels, multi=True)


def _poly_rec(d10_tau1=66.0, gain_d5=10.0):
    rows = []
    aa = {(2, "tuned"): 85.6, (2, 1.0): 84.3, (5, "tuned"): 85.5, (5, 1.0): 85.5 - gain_d5,
          (10, "tuned"): 85.5, (10, 1.0): d10_tau1}
    for (deg, tau), v in aa.items():
        for d in T33_DOMAINS[:5]:
            for s in range(10):
                rows.append({"dataset": f"suykens-{d}", "seed": s, "method": "Pol LS-SVM", "degree": deg, "tau": tau,
                             "acc": v + _Z[(s + deg) % 10]})
    return {"poly-tau": pd.DataFrame(rows)}


def _shared_rec(gain):
    rows = [{"dataset": f"suykens-{d}", "code": c, "seed": s, "acc_per": 90 + gain + 0.5 * _Z[s],
             "acc_shared": 90 + 0.5 * _Z[(s + 3) % 10]} for d in ("bal", "cmc", "iri") for c in ("moc", "1vs1")
            for s in range(10)]
    return {"multi-shared": pd.DataFrame(rows)}


def _1vsa_rec(gain):
    r = _records({"RBF LS-SVM (MOC)": 85.0, "RBF LS-SVM (1vsA)": 85.0 + gain}, sd=0.5, multi=True)
    m = r["multi"]
    return {"multi": m[m.code == "moc"], "multi-1vsa": m[m.code == "1vsa"]}


_REF_ALL = {r: 70.0 for r in ("LDA", "Logit", "IB1", "IB10", "NB_n", "C4.5", "oneR", "Maj. Rule")}
EXAMPLES.update({
    "rbf": lambda: {"holds": _records({"RBF LS-SVM": {"acr": 81, "bld": 79, "gcr": 80.5, "hea": 79.5, "ion": 80},
                                       "RBF SVM": 80.0}),
                    "does not hold": _records({"RBF LS-SVM": 70.0, "RBF SVM": 80.0}, doms=T33_DOMAINS[:8])},
    "rank": lambda: {"holds": _records({"RBF LS-SVM": {"acr": 85, "bld": 80, "gcr": 80, "hea": 80, "ion": 80},
                                        "RBF SVM": {"acr": 70, "bld": 79, "gcr": 79, "hea": 79, "ion": 99},
                                        "LDA": 75.0}),
                     "does not hold": _records({"RBF LS-SVM": 70.0, "RBF SVM": 80.0, "LDA": 75.0})},
    "fisher": lambda: {"holds": _records({f"{k} LS-SVM": 80.0 for k in ("RBF", "Lin", "Pol")}
                                         | {f"{k} LS-SVM_F": 75.0 for k in ("RBF", "Lin", "Pol")}),
                       "does not hold": _records({f"{k} LS-SVM": 75.0 for k in ("RBF", "Lin", "Pol")}
                                                 | {f"{k} LS-SVM_F": 80.0 for k in ("RBF", "Lin", "Pol")}),
                       "undecided": _records({f"{k} LS-SVM": 80.0 for k in ("RBF", "Lin", "Pol")}
                                             | {f"{k} LS-SVM_F": 80.0 for k in ("RBF", "Lin", "Pol")}, sd=3.0)},
    "nsig": lambda: {"holds": _records({"RBF LS-SVM": 80.0, "RBF LS-SVM_F": {"acr": 81, "bld": 79, "gcr": 81,
                                                                             "hea": 79, "ion": 80.5}}),
                     "does not hold": _records({"RBF LS-SVM": 80.0, "RBF LS-SVM_F": 70.0},
                                               doms=T33_DOMAINS[:8])},
    "pol": lambda: {"holds": _records({"RBF LS-SVM": 80.0, "Pol LS-SVM": {"acr": 81, "bld": 79, "gcr": 81,
                                                                          "hea": 79, "ion": 80.5},
                                       "Pol LS-SVM_F": {"acr": 81, "bld": 79, "gcr": 81, "hea": 79, "ion": 80.5}}),
                    "does not hold": _records({"RBF LS-SVM": 80.0, "Pol LS-SVM": 70.0, "Pol LS-SVM_F": 70.0},
                                              doms=T33_DOMAINS[:8])},
    "group": lambda: {"holds": _records({"Lin LS-SVM": 80.0, "Logit": {"acr": 81, "bld": 79, "gcr": 81, "hea": 79,
                                                                       "ion": 80.5}}),
                      "does not hold": _records({"Lin LS-SVM": 80.0, "Logit": 70.0}, doms=T33_DOMAINS[:8])},
    "vsref": lambda: {"holds": _records({"RBF LS-SVM": 80.0, "RBF SVM": 80.0} | _REF_ALL),
                      "does not hold": _records({"RBF LS-SVM": 60.0, "RBF SVM": 80.0} | _REF_ALL)},
    "reg": lambda: {"holds": _records({"Lin LS-SVM": 80.0, "LDA": 79.0}, sd=0.2),
                    "does not hold": _records({"Lin LS-SVM": 78.0, "LDA": 80.0}, sd=0.2),
                    "undecided": _records({"Lin LS-SVM": {"acr": 81, "bld": 79, "gcr": 80.5, "hea": 79.5,
                                                          "ion": 80.5}, "LDA": 80.0})},
    "best": lambda: {"holds": _records({"RBF LS-SVM": 85.0, "Lin LS-SVM": 80.0, "Pol LS-SVM": 84.0}),
                     "does not hold": _records({"RBF LS-SVM": 80.0, "Lin LS-SVM": 85.0, "Pol LS-SVM": 84.0})},
    "domains": lambda: {"holds": _records({"RBF LS-SVM": 80.0, "RBF SVM": 80.5}),
                        "does not hold": _records({"RBF LS-SVM": 70.0, "RBF SVM": 80.0})},
    "weakly": lambda: {"holds": _records({"RBF LS-SVM": 80.0, "Lin LS-SVM": 80.0}, sd=0.3),
                       "does not hold": _records({"RBF LS-SVM": 90.0, "Lin LS-SVM": 70.0}, sd=0.3)},
    "1vs1best": lambda: {"holds": _records({"RBF LS-SVM (1vs1)": 90.0, "RBF SVM (1vs1)": 85.0}, multi=True),
                         "does not hold": _records({"RBF LS-SVM (1vs1)": 85.0, "RBF SVM (1vs1)": 90.0}, multi=True)},
    "1vs1svm": lambda: {"holds": _records({"RBF LS-SVM (1vs1)": {"bal": 91, "cmc": 89, "ims": 91, "iri": 89,
                                                                  "led": 90.5}, "RBF SVM (1vs1)": 90.0}, multi=True),
                        "does not hold": _records({"RBF LS-SVM (1vs1)": 80.0, "RBF SVM (1vs1)": 90.0}, multi=True,
                                                  doms=T34_DOMAINS[:8])},
    "1vs1all": lambda: {"holds": _records({f"{m} ({c})": (90.0 if c == "1vs1" else 80.0) for m in PAIRS_1VS1[:5]
                                           for c in ("1vs1", "MOC")}, multi=True),
                        "does not hold": _records({f"{m} ({c})": (80.0 if c == "1vs1" else 90.0) for m in PAIRS_1VS1
                                                   for c in ("1vs1", "MOC")}, multi=True),
                        "undecided": _records({f"{m} ({c})": (90.0 if c == "1vs1" else 80.0) for m in PAIRS_1VS1[:3]
                                               for c in ("1vs1", "MOC")}, multi=True)},
    "1vsa": lambda: {"holds": _1vsa_rec(2.0), "does not hold": _1vsa_rec(-2.0)},
    "shared": lambda: {"holds": _shared_rec(2.0), "does not hold": _shared_rec(-2.0)},
    # τ = 1 beating the tuned τ at d = 10 refutes; an AA off the printed over 5 of the book's 10 domains does not
    "polytau": lambda: {"holds": _poly_rec(), "does not hold": _poly_rec(d10_tau1=90.0),
                        "not reproduced": _poly_rec(d10_tau1=80.0)},
    "d5": lambda: {"holds": _poly_rec(), "does not hold": _poly_rec(gain_d5=-5.0)},
})

#: "What the paper's own data would say": per claim (expected outcome, records from the printed numbers, note).
PRINTED_EXAMPLES = {
    "S-rbf-svm": ("holds", lambda: _t33p(["RBF LS-SVM", "RBF SVM"]), "Table 3.3, all ten domains"),
    "S-rbf-svm/rank": ("holds", _t33p, "Table 3.3: AR 3.5 lowest; AA RBF SVM 84.44 vs RBF LS-SVM 84.42"),
    "S-fisher": ("holds", lambda: _t33p([f"{k} {m}" for k in ("RBF", "Lin", "Pol") for m in ("LS-SVM", "LS-SVM_F")]),
                 "Table 3.3's ±1 and Fisher rows"),
    "S-fisher/nsig": ("holds", _t33p, "Table 3.3, P_ST 0.109 / 0.109 / 0.344 printed"),
    "S-pol-nodiff": ("holds", _t33p, "Table 3.3, P_ST 0.727 / 0.344 printed"),
    "S-linear-group": ("holds", _t33p, "Table 3.3 (NB_k included)"),
    "S-vs-reference": ("undecided", _t33p, "Table 3.3 does not support 'better than every reference' at 95 %: "
                       "against LDA, Logit and NB_k the paired P95 over the ten domains straddles 0"),
    "S-regularization": ("undecided", lambda: _t33p(["Lin LS-SVM", "LDA"]),
                         "Table 3.3: +0.5 pp on average, the domains' spread does not separate it from 0"),
    "S-rbf-best": ("holds", lambda: _t33p(["RBF LS-SVM", "Lin LS-SVM", "Pol LS-SVM"]),
                   "Table 3.3 (test only; the validation AA is not printed, taken equal): RBF − Lin +5.0 pp, "
                   "RBF − Pol +0.2 pp"),
    "S-rbf-domains": ("holds", _t33p, "Table 3.3: 3 best + 3 not significantly worse of 10"),
    "S-weakly-nonlinear": ("undecided", lambda: _t33p(["RBF LS-SVM", "Lin LS-SVM"]),
                           "Table 3.3: 6 of 10 by the point differences, but at the printed sds only 4 domains' "
                           "P95 lie inside ± sd (3 straddle): the printed data cannot decide 'most'"),
    "S-1vs1": ("holds", lambda: _t34p(["RBF LS-SVM (1vs1)", "RBF LS-SVM (MOC)"]),
               "Table 3.4: AA +0.9 pp over ten domains, P95 just above 0"),
    "S-1vs1/all": ("undecided", _t34p, "Table 3.4's eight pairs"),
    "S-1vs1-best": ("holds", _t34p, "Table 3.4: AA 89.1, AR 5.9"),
    "S-1vs1-svm": ("holds", _t34p, "Table 3.4: P_ST 1.000"),
    "S-poly-tau": ("holds", lambda: _poly_rec(65.9), "§3.4.2's 84.3 / 65.9 (τ = 1) and 85.6 / 85.5 (tuned)"),
    "S-poly-tau/d5": ("holds", lambda: _poly_rec(65.9), "gain 1.3 pp at d = 2 against 19.6 pp at d = 10"),
    "S-1vsA-moc": ("holds", lambda: _1vsa_rec(1.0), "no printed number: the sentence's direction"),
    "S-per-binary-tuning": ("holds", lambda: _shared_rec(1.0), "no printed number: the sentence's direction"),
}
