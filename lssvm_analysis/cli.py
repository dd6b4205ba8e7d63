"""The ``lssvm-analysis`` command: a thin layer over the experiments and the report.

``lssvm-analysis report [--quick] [--out reports/NAME]`` runs (or resumes)
the report's sweeps and writes ``reports/NAME/index.html`` with its PNG
figures and CSV tables.  ``lssvm-analysis list`` prints the registries.

Every error of the command line is one line on stderr and exit status 2,
before any work: unknown or malformed options, and options that contradict
each other (:data:`CONFLICTS`).  While the sweeps run, one progress bar
covers all of them, with the tasks already stored counted as done; the
outcome counts printed at the end are read back from the store.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from threadpoolctl import threadpool_limits

from . import __version__, datasets, precisions, solvers
from .core.exceptions import MissingDependencyError, OutputPathError, StoreError
from .experiments import SweepProgress
from .experiments.store import Store
from .report import PROFILE_NAMES, build_report
from .report.build import default_store, require_distributed

__all__ = ["main", "build_parser", "check_options", "CONFLICTS"]

#: Pairs of ``report`` options that contradict each other, refused before any work:
#: (option, other option, when they conflict given the parsed arguments, why).
#: ``--scheduler`` with ``--dask-workers`` is refused by argparse (a mutually exclusive group).
CONFLICTS = (
    ("--quick", "--profile", lambda a: a.quick and a.profile not in (None, "quick"),
     "--quick means --profile quick"),
    ("--jobs", "--scheduler", lambda a: a.jobs is not None and a.scheduler is not None,
     "the Dask cluster's workers run the sweeps"),
    ("--jobs", "--dask-workers", lambda a: a.jobs is not None and a.dask_workers is not None,
     "the LocalCluster's workers run the sweeps"),
)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``lssvm-analysis: error: ...`` and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="lssvm-analysis",
        description="Numerical-stability analysis of LS-SVM solvers: generated reports.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("report", help="run the report's sweeps and write index.html")
    rep.add_argument("--profile", choices=PROFILE_NAMES, default=None,
                     help="sizes and grids: quick (about a minute), default (within five minutes "
                          "on 2 cores), full (the papers' protocols)")
    rep.add_argument("--quick", action="store_true", help="the same as --profile quick")
    rep.add_argument("--out", default="reports/default",
                     help="output directory (default: reports/default)")
    rep.add_argument("--store", default=None,
                     help="SQLite record store, a cache of computed tasks (default: $LSSVM_ANALYSIS_STORE or "
                          "~/.cache/lssvm_analysis/records.sqlite); missing directories of its path "
                          "are created, as for the default")
    rep.add_argument("--jobs", type=_jobs, default=None,
                     help="worker processes (default: all cores; 1 = in-process; -1 = all cores)")
    dask = rep.add_mutually_exclusive_group()
    dask.add_argument("--scheduler", default=None, metavar="ADDRESS",
                      help="run the sweeps on a running Dask cluster (e.g. tcp://10.0.0.5:8786)")
    dask.add_argument("--dask-workers", type=_positive, default=None, metavar="N",
                      help="run the sweeps on a Dask LocalCluster of N worker processes")
    rep.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    rep.add_argument("--no-progress", action="store_true", help="no progress bar")
    rep.add_argument("--asv-results", default=".asv/results",
                     help="asv results read for the crossover figure when present")
    sub.add_parser("list", help="list solvers, precisions and data sets")
    return parser


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if n < 1 and n != -1:
        raise argparse.ArgumentTypeError(f"expected a number of worker processes >= 1 (or -1 for "
                                         f"all cores), got {n}")
    return n


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {n}")
    return n


def check_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse contradicting options (:data:`CONFLICTS`) and a Dask option without Dask, before any work."""
    if args.command != "report":
        return
    for option, other, clash, why in CONFLICTS:
        if clash(args):
            value = getattr(args, other.lstrip("-").replace("-", "_"))
            parser.error(f"{option} conflicts with {other} {value} ({why}): give one of them")
    dask = ("--scheduler" if args.scheduler is not None
            else "--dask-workers" if args.dask_workers is not None else None)
    if dask is not None:
        try:
            require_distributed(dask)
        except MissingDependencyError as exc:
            parser.error(str(exc))


def _counts(counts) -> str:
    return " ".join(f"{status}={n}" for status, n in sorted(counts.items())) or "none"


def _report(args) -> int:
    t0 = time.perf_counter()
    with threadpool_limits(limits=1, user_api="blas"), \
            SweepProgress(False if args.no_progress else True, desc="report") as bar:
        path = build_report(args.out, quick=args.quick, profile=args.profile, store=args.store,
                            n_jobs=args.jobs, progress=bar, asv_dir=args.asv_results,
                            scheduler=args.scheduler, dask_workers=args.dask_workers)
    print(f"wrote {path} in {time.perf_counter() - t0:.1f} s")
    if bar.stored_counts is not None:
        print(f"tasks of this report in the store: {sum(bar.stored_counts.values())} "
              f"({_counts(bar.stored_counts)}); computed in this run: {sum(bar.new_counts.values())}")
    return 0


def _list(args) -> int:
    print("solvers:   ", ", ".join(solvers()))
    print("precisions:", ", ".join(precisions()), "(and any mpN, 5 <= N <= 1000)")
    print("datasets:  ", ", ".join(datasets.datasets()))
    return 0


def main(argv=None) -> int:
    """Entry point of the console script; returns the exit status.

    A store or output path that cannot be used (and any other error of the
    inputs) is one line on stderr, ``lssvm-analysis: error: ...``, and exit
    status 2 (argparse's convention); ``--debug`` shows the traceback.
    Ctrl-C is one line, ``lssvm-analysis: interrupted; N records kept, rerun
    to resume`` (N counts the store's committed records: the sweeps commit
    each row as it arrives), and exit status 130 (128 + SIGINT, the shell's).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    check_options(parser, args)
    try:
        return {"report": _report, "list": _list}[args.command](args)
    except (StoreError, OutputPathError, ValueError, TypeError, OSError) as exc:
        if getattr(args, "debug", False):
            raise
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        if getattr(args, "debug", False):
            raise
        print(f"{parser.prog}: interrupted; {_records_kept(args)} records kept, rerun to resume",
              file=sys.stderr)
        return 130


def _records_kept(args) -> int:
    """The number of records in the store the command used (0 if it has none yet)."""
    path = getattr(args, "store", None) or default_store()
    try:
        if not os.path.isfile(path):
            return 0
        with Store(path) as store:
            return len(store)
    except (StoreError, OSError):  # nothing usable there: nothing kept
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
