"""The ``lssvm-analysis`` command: a thin layer over the experiments and the report.

``lssvm-analysis report [--quick] [--out reports/NAME]`` runs (or resumes)
the report's sweeps and writes ``reports/NAME/index.html`` with its PNG
figures and CSV tables.  ``lssvm-analysis compare --data f.csv --target y``
runs the same sweeps on the user's data (:func:`lssvm_analysis.compare`) and
writes the grid, the digits-vs-kappa figure, CSV, JSON and a one-page HTML.
``lssvm-analysis list`` prints the registries.

Every error of the command line is one line on stderr and exit status 2,
before any work: unknown or malformed options, and options that contradict
each other (:data:`CONFLICTS`).  While the sweeps run, one progress bar
covers all of them, with the tasks already stored counted as done; the
outcome counts printed at the end are read back from the store.
"""
from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import time

from threadpoolctl import threadpool_limits

from . import __version__, datasets, precisions, solvers
from .analysis.compare import DEFAULT_PRECISIONS
from .arith.precision import get_precision as precisions_get
from .core.exceptions import MissingDependencyError, OutputPathError, StoreError
from .experiments import SweepProgress
from .experiments.runner import SchedulerLostError
from .experiments.store import Store
from .report import PROFILE_NAMES, build_report
from .report.plan import selected_sections
from .report.publish import publish
from .report.build import default_store, require_distributed
from .report.compare import compare, read_data
from .report.paths import check_out_path, check_scheduler, check_store_path

__all__ = ["main", "build_parser", "check_options", "CONFLICTS", "SCHEDULER_TIMEOUT"]

#: Seconds to wait for a Dask scheduler (``--scheduler-timeout``): to connect before any work, and to
#: reconnect to it during the run before the run is declared lost.
SCHEDULER_TIMEOUT = 10.0

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
                     help="sizes and grids: quick (within 60 s), default (within 240 s "
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
    _timeout_option(rep)
    rep.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    rep.add_argument("--no-progress", action="store_true", help="no progress bar")
    rep.add_argument("--asv-results", default=".asv/results",
                     help="asv results read for the crossover figure when present")
    rep.add_argument("--only", type=_sections, default=None, metavar="SECTION[,SECTION...]",
                     help="run and render only these sections (e.g. abe,vieira: the full profile "
                          "per paper, resumable); the ledger is always written. Sections: "
                          + ", ".join(r.key for r in selected_sections() if not r.reads_all))
    cmp = sub.add_parser("compare", help="which formulation, in which precision, on your own data")
    cmp.add_argument("--data", required=True, metavar="FILE",
                     help="a CSV file (header row, numeric columns) or an NPZ file")
    cmp.add_argument("--target", required=True, metavar="COLUMN", help="the column (or NPZ array) of y")
    cmp.add_argument("--task", choices=("regression", "classification"), default=None,
                     help="default: classification when the target has two distinct values")
    cmp.add_argument("--solvers", type=_names, default=None, metavar="A,B",
                     help="default: every solver with an exact model for the task")
    cmp.add_argument("--precisions", type=_names, default=None, metavar="P,Q",
                     help="default: float32,float64,longdouble, and mp50 where its estimated cost fits --budget")
    cmp.add_argument("--C", type=_positive_float, default=None,
                     help="C, with a ladder C/1e3, C, C*1e3 (default C = 10: 0.01, 10, 1e4)")
    cmp.add_argument("--all-forms", action="store_true",
                     help="every variant of each solver (default: each solver's default form and its printed "
                          "variants, the forms the papers print)")
    cmp.add_argument("--full-ladder", action="store_true",
                     help="without --C the wide ladder 1, 1e3, 1e6, 1e9, and mp50 whatever its estimated cost")
    cmp.add_argument("--max-rows", type=_positive, default=None, metavar="N",
                     help="use at most N rows (a seeded subsample); default: as many as the estimated time "
                          "(--budget) and memory allow, said in one line before any work")
    cmp.add_argument("--no-subsample", action="store_true",
                     help="refuse (one line, exit 2) instead of subsampling when the estimate is over budget")
    cmp.add_argument("--budget", type=_positive_float, default=60.0, metavar="SECONDS",
                     help="the time the run is planned for, estimated before any work (default: 60)")
    cmp.add_argument("--sigma2", type=_positive_float, default=None,
                     help="RBF width (default: the median squared distance between training points)")
    cmp.add_argument("--no-ladder", action="store_true", help="only the given C")
    cmp.add_argument("--out", default="reports/compare", help="output directory (default: reports/compare)")
    cmp.add_argument("--store", default=None, help="SQLite record store (default: OUT/compare.sqlite)")
    cmp.add_argument("--jobs", type=_jobs, default=None, help="worker processes (default: all cores)")
    cdask = cmp.add_mutually_exclusive_group()
    cdask.add_argument("--scheduler", default=None, metavar="ADDRESS", help="run the sweeps on a Dask cluster")
    cdask.add_argument("--dask-workers", type=_positive, default=None, metavar="N",
                       help="run the sweeps on a Dask LocalCluster of N worker processes")
    _timeout_option(cmp)
    cmp.add_argument("--seed", type=int, default=0, help="seed of the train/test division")
    cmp.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    cmp.add_argument("--no-progress", action="store_true", help="no progress bar")
    pub = sub.add_parser("publish", help="write a profile's ledger.csv, cost.csv and summary page from a store, "
                                         "computing nothing (make full: the full profile, then this)")
    pub.add_argument("--profile", choices=PROFILE_NAMES, default="full", help="the profile whose plan is read "
                                                                              "(default: full)")
    pub.add_argument("--store", default=None, help="the record store a report run of that profile wrote "
                                                   "(default: $LSSVM_ANALYSIS_STORE or ~/.cache/lssvm_analysis/"
                                                   "records.sqlite)")
    pub.add_argument("--out", default="reports/full", help="output directory (default: reports/full)")
    sub.add_parser("list", help="list solvers, precisions and data sets")
    return parser


def _timeout_option(parser) -> None:
    parser.add_argument("--scheduler-timeout", type=_positive_float, default=SCHEDULER_TIMEOUT, metavar="SECONDS",
                        help=f"give up on a --scheduler that does not answer within this time, before any work "
                             f"(default: {SCHEDULER_TIMEOUT:g})")


def _sections(text: str) -> list[str]:
    keys = [r.key for r in selected_sections() if not r.reads_all]
    got = [k.strip() for k in text.split(",") if k.strip()]
    bad = [k for k in got if k not in keys]
    if bad or not got:
        raise argparse.ArgumentTypeError(f"expected section keys among {', '.join(keys)}, got {text!r}")
    return got


def _names(text: str) -> list:
    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"expected comma-separated names, got {text!r}")
    return names


def _parsed(text: str, cast, what: str):
    """``cast(text)``, or argparse's one-line error "expected <what>, got '<text>'"."""
    try:
        return cast(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None


def _positive_float(text: str) -> float:
    v = _parsed(text, float, "a number")
    if not (v > 0 and v != float("inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number > 0, got {text!r}")
    return v


def _jobs(text: str) -> int:
    n = _parsed(text, int, "an integer")
    if n < 1 and n != -1:
        raise argparse.ArgumentTypeError(f"expected a number of worker processes >= 1 (or -1 for "
                                         f"all cores), got {n}")
    return n


def _positive(text: str) -> int:
    n = _parsed(text, int, "an integer")
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {n}")
    return n


def check_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse contradicting options (:data:`CONFLICTS`), a Dask option without Dask, an ``--out`` or
    ``--store`` that cannot be used (a file, a directory, a path below a file) and (``compare``)
    unknown solvers or precisions and a data file that is missing, not numeric or has no target
    column, before any work."""
    if args.command in ("report", "compare"):
        _check_paths(parser, args)
    if args.command == "publish":
        _check_publish(parser, args)
        return
    if args.command == "compare":
        _check_compare(parser, args)
        return
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
        _check_scheduler(parser, args)


def _check_paths(parser, args) -> None:
    """``--out`` a directory that can be made, ``--store`` (report: or the default store) a file that can
    be made: checked without creating either."""
    store = args.store if args.store is not None or args.command != "report" else default_store()
    try:
        check_out_path("--out", args.out)
        check_store_path("--store" if args.store is not None else "the default store", store)
    except (OutputPathError, StoreError, TypeError, ValueError) as exc:
        parser.error(str(exc))


def _check_publish(parser, args) -> None:
    """``--out`` a directory that can be made and ``--store`` an existing file: publishing reads a store and
    never creates one."""
    store = args.store if args.store is not None else str(default_store())
    try:
        check_out_path("--out", args.out)
    except (OutputPathError, TypeError, ValueError) as exc:
        parser.error(str(exc))
    if not os.path.isfile(store):
        parser.error(f"expected an existing record store (a report run of profile {args.profile!r} writes it), "
                     f"got {'--store' if args.store is not None else 'the default store'} {store!r}")
    args.store = store


def _check_compare(parser, args) -> None:
    """The compare command's inputs, read and checked up front (``args.data_arrays`` keeps them)."""
    for what, names, check in (("solver", args.solvers, solvers), ("precision", args.precisions, None)):
        for n in names or ():
            try:
                if check is None:
                    precisions_get(n)
                elif n not in check():
                    raise ValueError(f"expected a solver in {check()}, got --solvers {n!r}")
            except ValueError as exc:
                parser.error(str(exc))
    if args.jobs is not None and (args.scheduler is not None or args.dask_workers is not None):
        parser.error("--jobs conflicts with --scheduler / --dask-workers (the Dask workers run the sweeps): "
                     "give one of them")
    if args.scheduler is not None or args.dask_workers is not None:
        try:
            require_distributed("--scheduler" if args.scheduler is not None else "--dask-workers")
        except MissingDependencyError as exc:
            parser.error(str(exc))
    try:
        args.data_arrays = read_data(args.data, args.target)
    except ValueError as exc:
        parser.error(str(exc))
    _check_scheduler(parser, args)


def _check_scheduler(parser, args) -> None:
    """A ``--scheduler`` that does not answer within ``--scheduler-timeout`` is refused in one line
    before any work (no store, no output directory is created)."""
    if args.scheduler is None:
        return
    try:
        check_scheduler("--scheduler", args.scheduler)   # its form: no connection tried for 'host' without a port
    except ValueError as exc:
        parser.error(str(exc))
    import distributed

    t0 = time.perf_counter()
    try:
        with _dask_quiet(args), distributed.Client(args.scheduler, timeout=args.scheduler_timeout):
            pass
    except Exception as exc:  # refused, timed out, or not a Dask scheduler at all (garbage handshake)
        why = " ".join(str(exc).split()) or type(exc).__name__
        parser.error(f"could not reach the Dask scheduler at --scheduler {args.scheduler} within "
                     f"{args.scheduler_timeout:g} s ({time.perf_counter() - t0:.1f} s: {why[:160]}); "
                     "is it running, and is the address right?")


@contextlib.contextmanager
def _dask_quiet(args):
    """Dask's own log lines (ERROR included: a lost scheduler's reconnect tracebacks) are not shown
    (``--debug`` shows them); the connection timeouts are ``--scheduler-timeout``."""
    if args.scheduler is None and args.dask_workers is None:
        yield
        return
    import dask

    seconds = f"{args.scheduler_timeout}s"
    with dask.config.set({"distributed.comm.timeouts.connect": seconds}):
        if getattr(args, "debug", False):
            yield
            return
        logging.disable(logging.ERROR)
        try:
            yield
        finally:
            logging.disable(logging.NOTSET)


def _compare(args) -> int:
    t0 = time.perf_counter()
    X, y, _ = args.data_arrays
    with threadpool_limits(limits=1, user_api="blas"):
        res = compare(X, y, task=args.task, solvers=args.solvers,
                      precisions=args.precisions or DEFAULT_PRECISIONS, C=args.C, sigma2=args.sigma2,
                      ladder=not args.no_ladder, out=args.out, store=args.store, n_jobs=args.jobs,
                      scheduler=args.scheduler, dask_workers=args.dask_workers,
                      progress=not args.no_progress, seed=args.seed, full_ladder=args.full_ladder,
                      all_forms=args.all_forms,
                      max_rows=None if args.no_subsample else (args.max_rows or "auto"), budget=args.budget,
                      say=_say_line)
    print(res.headline)
    for sentence in res.answers.sentence:
        print(sentence)
    print(f"wrote {res.out / res.files['html']} ({', '.join(sorted(res.files.values()))}) "
          f"in {time.perf_counter() - t0:.1f} s")
    return 0


def _counts(counts) -> str:
    return " ".join(f"{status}={n}" for status, n in sorted(counts.items())) or "none"


def _report(args) -> int:
    t0 = time.perf_counter()
    with threadpool_limits(limits=1, user_api="blas"), \
            SweepProgress(False if args.no_progress else True, desc="report") as bar:
        path = build_report(args.out, quick=args.quick, profile=args.profile, store=args.store,
                            n_jobs=args.jobs, progress=bar, asv_dir=args.asv_results,
                            scheduler=args.scheduler, dask_workers=args.dask_workers, only=args.only)
    print(f"wrote {path} in {time.perf_counter() - t0:.1f} s")
    if bar.stored_counts is not None:
        print(f"tasks of this report in the store: {sum(bar.stored_counts.values())} "
              f"({_counts(bar.stored_counts)}); computed in this run: {sum(bar.new_counts.values())}")
    return 0


def _publish(args) -> int:
    t0 = time.perf_counter()
    path = publish(args.store, args.out, profile=args.profile)
    print(f"wrote {path} (ledger.csv, cost.csv) in {time.perf_counter() - t0:.1f} s")
    return 0


def _list(args) -> int:
    print("solvers:   ", ", ".join(solvers()))
    print("precisions:", ", ".join(precisions()), "(and any mpN, 5 <= N <= 1000)")
    print("datasets:  ", ", ".join(datasets.datasets()))
    return 0



def _say_line(line: str) -> None:
    """compare's lines: a warning on stderr, what runs (the plan, the coverage) on stdout, so that stderr
    holds only what went wrong (a lost scheduler is then its one line there)."""
    print(line, file=sys.stderr if line.startswith("compare: warning") else sys.stdout, flush=True)

def main(argv=None) -> int:
    """Entry point of the console script; returns the exit status.

    A store or output path that cannot be used (and any other error of the
    inputs) is one line on stderr, ``lssvm-analysis: error: ...``, and exit
    status 2 (argparse's convention); ``--debug`` shows the traceback.
    Ctrl-C is one line, ``lssvm-analysis: interrupted; N records kept, rerun
    to resume`` (N counts the store's committed records: the sweeps commit
    each row as it arrives), and exit status 130 (128 + SIGINT, the shell's).
    A Dask scheduler lost mid-run is one line, ``lssvm-analysis: the Dask
    scheduler at ADDRESS was lost; rerun the same command to resume (N
    records kept)``, and exit status 1; one that does not answer within
    ``--scheduler-timeout`` is refused before any work (exit status 2).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    check_options(parser, args)
    try:
        with _dask_quiet(args) if args.command in ("report", "compare") else contextlib.nullcontext():
            return {"report": _report, "list": _list, "compare": _compare,
                    "publish": _publish}[args.command](args)
    except SchedulerLostError as exc:
        if getattr(args, "debug", False):
            raise
        print(f"{parser.prog}: {exc} ({_records_kept(args)} records kept)", file=sys.stderr)
        return 1
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
    path = getattr(args, "store", None) or (os.path.join(args.out, "compare.sqlite") if args.command == "compare"
                                            else default_store())
    try:
        if not os.path.isfile(path):
            return 0
        with Store(path) as store:
            return len(store)
    except (StoreError, OSError):  # nothing usable there: nothing kept
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
