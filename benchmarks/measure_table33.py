"""CPU seconds per method of one randomisation of Suykens' Table 3.3 at the full profile's settings.

Usage::

    python -m benchmarks.measure_table33 SET [SET ...] [--methods M1,M2] [--out FILE] [--compare FILE]

For each binary set (acr, gcr, ...), the ``suykens-table-binary`` task of every method on
randomisation 0 with the full profile's options (10-fold CV, Sigma_0 x Gamma_0, 3 refinements,
degrees 2..10, ``svm_max_iter`` 1e6), run in this process as the report's worker runs them
(a method with its LS-SVM_F twin as one batch, :func:`~lssvm_analysis.experiments.runner.execute_tasks`),
each task's CPU as the engine charges it (``time_task_cpu``: a factorization the twins share
counts for the task that made it).
One JSON object per set and method: the CPU seconds, the selected parameters, CV and test
accuracy and the SVM route counts.  ``--compare`` reads such a file (e.g. from another checkout
run with its PYTHONPATH) and says, per method, whether the selection, CV accuracy, test accuracy
and evaluations are equal.  Table 3.3's protocol is 10 randomisations of the 9 sets: ten times
the sum over the sets.

A script, not an asv benchmark (minutes per set) and not a timed test.
"""
from __future__ import annotations

import argparse
import json
import sys
import warnings

__all__ = ["measure", "compare"]

_METHODS = ("RBF LS-SVM", "RBF LS-SVM_F", "Lin LS-SVM", "Lin LS-SVM_F", "Pol LS-SVM", "Pol LS-SVM_F",
            "RBF SVM", "Lin SVM")
#: What must be equal between two runs (the selection and its scores).
_SAME = ("cv_acc", "acc", "n_evals", "fit_status")


def measure(dataset: str, methods=_METHODS) -> dict:
    """``{method: row}`` of one randomisation of ``suykens-<dataset>``, each row with its ``cpu`` seconds."""
    from lssvm_analysis.experiments import SweepSpec
    from lssvm_analysis.papers.suykens import kinds_tables as kt
    from lssvm_analysis.papers.suykens import section_tables as st

    options = st.plan("full", None)["binary"].options  # the full profile's Table 3.3 sweep
    spec = SweepSpec("measure", kind="suykens-table-binary", datasets=[(f"suykens-{dataset}", {})], seeds=[0],
                     grid={"method": list(methods)}, options=dict(options))
    from lssvm_analysis.experiments.kinds import get_task_kind, group_key
    from lssvm_analysis.experiments.runner import execute_tasks
    batches: dict = {}
    for task in spec.tasks():  # the scheduler's batches: a task with the tasks of its group
        batches.setdefault(group_key(get_task_kind(task.kind), task) or task.key, []).append(task)
    out = {}
    for tasks in batches.values():
        kt.clear_shares()  # a batch shares nothing with the one before (another worker may run it)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rows = execute_tasks(tasks)
        for task, row in zip(tasks, rows):
            out[task.params["method"]] = {"cpu": row["time_task_cpu"],
                                          **{k: v for k, v in row.items() if isinstance(v, (int, float, str))}}
    return out


def compare(a: dict, b: dict) -> dict:
    """``{(set, method): equal}``: the tuned parameters and :data:`_SAME` keys of two measurements."""
    res = {}
    for ds, rows in a.items():
        for m, r in rows.items():
            s = b.get(ds, {}).get(m)
            if s is None:
                continue
            keys = [k for k in r if k.startswith("tuned_")] + list(_SAME)
            res[(ds, m)] = all(r.get(k) == s.get(k) for k in keys)
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--methods", default=",".join(_METHODS))
    ap.add_argument("--out")
    ap.add_argument("--compare")
    args = ap.parse_args(argv)
    result = {}
    for ds in args.sets:
        result[ds] = measure(ds, args.methods.split(","))
        for m, r in result[ds].items():
            print(json.dumps({"set": ds, "method": m, "cpu": round(r["cpu"], 2),
                              **{k: v for k, v in r.items() if k.startswith(("tuned_", "cv_"))}}), flush=True)
        print(json.dumps({"set": ds, "total_cpu": round(sum(r["cpu"] for r in result[ds].values()), 1)}))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    if args.compare:
        with open(args.compare) as f:
            for (ds, m), eq in compare(result, json.load(f)).items():
                print(json.dumps({"set": ds, "method": m, "same_selection_and_scores": eq}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
