"""The ``lssvm-analysis`` command: a thin layer over the experiments and the report.

``lssvm-analysis report [--quick] [--out reports/NAME]`` runs (or resumes)
the report's sweeps and writes ``reports/NAME/index.html`` with its PNG
figures and CSV tables.  ``lssvm-analysis list`` prints the registries.
"""
from __future__ import annotations

import argparse
import sys
import time

from threadpoolctl import threadpool_limits

from . import datasets, precisions, solvers
from .report import PROFILE_NAMES, build_report

__all__ = ["main", "build_parser"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lssvm-analysis",
        description="Numerical-stability analysis of LS-SVM solvers: generated reports.")
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("report", help="run the report's sweeps and write index.html")
    rep.add_argument("--profile", choices=PROFILE_NAMES, default=None,
                     help="sizes and grids: quick (about a minute), default (within five minutes "
                          "on 2 cores), full (the papers' protocols)")
    rep.add_argument("--quick", action="store_true", help="the same as --profile quick")
    rep.add_argument("--out", default="reports/default",
                     help="output directory (default: reports/default)")
    rep.add_argument("--store", default=None,
                     help="SQLite record store (default: $LSSVM_ANALYSIS_STORE or "
                          "~/.cache/lssvm_analysis/records.sqlite)")
    rep.add_argument("--jobs", type=int, default=None,
                     help="worker processes (default: all cores; 1 = in-process)")
    rep.add_argument("--no-progress", action="store_true", help="no progress bars")
    rep.add_argument("--asv-results", default=".asv/results",
                     help="asv results read for the crossover figure when present")
    sub.add_parser("list", help="list solvers, precisions and data sets")
    return parser


def _report(args) -> int:
    t0 = time.perf_counter()
    with threadpool_limits(limits=1, user_api="blas"):  # timings: one BLAS thread per process
        path = build_report(args.out, quick=args.quick, profile=args.profile, store=args.store,
                            n_jobs=args.jobs,
                            progress=not args.no_progress, asv_dir=args.asv_results)
    print(f"wrote {path} in {time.perf_counter() - t0:.1f} s")
    return 0


def _list(args) -> int:
    print("solvers:   ", ", ".join(solvers()))
    print("precisions:", ", ".join(precisions()), "(and any mpN, 5 <= N <= 1000)")
    print("datasets:  ", ", ".join(datasets.datasets()))
    return 0


def main(argv=None) -> int:
    """Entry point of the console script; returns the exit status."""
    args = build_parser().parse_args(argv)
    return {"report": _report, "list": _list}[args.command](args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
