"""Assemble the report: run (or resume) the sweeps, read their records, write the page.

Where the records live
----------------------
One SQLite store shared by every report, in a cache directory - not in
``reports/`` (which holds only HTML, PNG and CSV): ``$LSSVM_ANALYSIS_STORE``
if set, else ``$XDG_CACHE_HOME/lssvm_analysis/records.sqlite`` (default
``~/.cache/...``).  Task keys are content hashes (kind, its version, inputs,
``REPORT_VERSION``), so a rerun recomputes nothing, "quick" and "default"
share the tasks they have in common, and rows are never mixed between
different inputs.  ``--store`` chooses another file; deleting it forces a
full recomputation.

Before any sweep runs, the store is opened and checked and the output
directory is created and tried for writing (:func:`prepare_out`), so a bad
``--store`` or ``--out`` fails at once with a one-line message naming the
path and the reason, not after the sweeps.

Dask: ``scheduler="tcp://host:8786"`` runs the sweeps on an existing
cluster, ``dask_workers=N`` on a ``LocalCluster`` of N single-threaded
worker processes started for this report (and closed after it).  Both need
the ``dask`` extra (``pip install 'lssvm_analysis[dask]'``, which installs
``distributed``); without it they raise ``MissingDependencyError`` naming
the option.  The LocalCluster serves its HTTP routes on a free port (no
"Port 8787 is already in use" when another cluster runs), its log messages
below ERROR are silenced, and a warning Dask raises while the cluster or
the client starts becomes one line on stderr.
"""
from __future__ import annotations

import contextlib
import logging
import os
import platform
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pandas as pd

from .. import __version__
from ..core.exceptions import MissingDependencyError, OutputPathError
from ..experiments import SweepProgress, load_records
from ..experiments.asv_import import import_asv_results
from ..experiments.runner import local_pool
from ..experiments.store import Store
from .html import Section, linked_files, write_page
from .ledger import append_slices
from .plan import run_report_sweeps, selected_sections, status_counts
from .registry import check_profile, report_sections

__all__ = ["default_store", "build_report", "write_report", "read_records", "prepare_out",
           "open_report_store", "dask_client", "require_distributed", "cpu_model", "git_commit",
           "library_versions", "command_line"]


def default_store() -> Path:
    """The record store used when none is given (see the module docstring)."""
    env = os.environ.get("LSSVM_ANALYSIS_STORE")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "lssvm_analysis" / "records.sqlite"


def prepare_out(out) -> Path:
    """Create the output directory and check that files can be written in it, now.

    Raises
    ------
    OutputPathError
        Empty path, a path that is (or lies below) a file, a directory that
        cannot be created (e.g. under /proc) or written; the one-line message
        names the path and the reason.
    """
    if out is None or str(out).strip() == "":
        raise OutputPathError("expected an output directory for --out, got an empty path "
                              "(give a directory, e.g. --out reports/default)")
    out = Path(out)
    for parent in [out, *out.parents]:
        if parent.exists() and not parent.is_dir():
            where = "is" if parent == out else f"lies below {str(parent)!r}, which is"
            raise OutputPathError(f"cannot write the report to {str(out)!r}: it {where} a file, "
                                  "not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise OutputPathError(f"cannot write the report to {str(out)!r}: "
                              f"{exc.strerror or exc}") from None
    return out


def open_report_store(store) -> Store:
    """Open (and check) the record store now; StoreError names the path and how to recover."""
    st = Store(Path(store) if store is not None else default_store())
    st.connection()
    return st


def require_distributed(option: str):
    """The ``distributed`` module, or MissingDependencyError naming ``option`` and the extra to install."""
    try:
        import distributed  # the optional dependency of the dask extra, imported when used
    except ImportError as exc:
        raise MissingDependencyError(
            f"{option} needs Dask's distributed, which is not installed ({exc}): "
            "pip install 'lssvm_analysis[dask]'") from None
    return distributed


@contextlib.contextmanager
def _one_line_warnings():
    """Warnings raised inside become one line each on stderr (Dask's multi-line start-up notes)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for category in (ResourceWarning, DeprecationWarning, PendingDeprecationWarning):
            warnings.simplefilter("ignore", category)  # for developers, not for the user
        yield
    for msg in dict.fromkeys(" ".join(str(w.message).split()) for w in caught):
        print(f"lssvm-analysis: dask: {msg}", file=sys.stderr)


@contextlib.contextmanager
def _dask_logs_above(level):
    logger = logging.getLogger("distributed")
    old = logger.level
    logger.setLevel(level)
    try:
        yield
    finally:
        logger.setLevel(old)


@contextlib.contextmanager
def dask_client(scheduler=None, dask_workers=None):
    """A ``distributed.Client`` for ``scheduler`` or a new LocalCluster of ``dask_workers``; else None.

    Raises
    ------
    MissingDependencyError
        ``distributed`` is not installed (the ``dask`` extra).
    ValueError
        Both or a bad ``dask_workers``.
    """
    if scheduler is None and dask_workers is None:
        yield None
        return
    if scheduler is not None and dask_workers is not None:
        raise ValueError(f"expected either scheduler or dask_workers, got scheduler={scheduler!r} "
                         f"and dask_workers={dask_workers!r}")
    if dask_workers is not None and (isinstance(dask_workers, bool) or not isinstance(dask_workers, int)
                                     or dask_workers < 1):
        raise ValueError(f"expected dask_workers >= 1, got dask_workers={dask_workers!r}")
    distributed = require_distributed(f"scheduler={scheduler!r}" if scheduler is not None
                                      else f"dask_workers={dask_workers!r}")
    with _dask_logs_above(logging.ERROR):  # e.g. the nanny's "still alive after 4 s, killing"
        stack = contextlib.ExitStack()
        try:
            with _one_line_warnings():  # only while starting: the sweeps' own warnings are untouched
                if scheduler is not None:
                    client = stack.enter_context(distributed.Client(scheduler))
                else:
                    # memory_limit=0: no nanny limit.  Dask's default (the machine's memory / workers)
                    # kills a worker at 95 % of it, i.e. any fit of more than ~11 GB on 2 workers here
                    # (Vieira's time-over-L series peaks at 11.7 GB): the fits guard memory themselves
                    # (linalg.memory: refused beyond what is available, one large fit at a time)
                    cluster = stack.enter_context(distributed.LocalCluster(
                        n_workers=dask_workers, threads_per_worker=1, processes=True, memory_limit=0,
                        dashboard_address=":0", silence_logs=logging.ERROR))
                    client = stack.enter_context(distributed.Client(cluster))
            yield client
        finally:
            with _one_line_warnings():
                stack.close()


def cpu_model() -> str:
    """The processor's model name (``/proc/cpuinfo``), else the machine type."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_commit() -> str:
    """The commit the package was run from (``git rev-parse --short HEAD`` in its directory, '+dirty'
    when files differ), or "unknown" without git or outside a repository."""
    import subprocess
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=here, capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head + ("+dirty" if dirty else "")) if head else "unknown"


def library_versions() -> str:
    """numpy, SciPy and the BLAS numpy calls (threadpoolctl: its name, version and threads)."""
    import numpy
    import scipy
    blas = "BLAS unknown"
    try:
        from threadpoolctl import threadpool_info
        info = [i for i in threadpool_info() if i.get("user_api") == "blas"]
        if info:
            i = info[0]
            blas = f"{i.get('internal_api', 'BLAS')} {i.get('version') or ''} ({i.get('num_threads')} threads)"
    except ImportError:
        pass
    return f"numpy {numpy.__version__}, SciPy {scipy.__version__}, {' '.join(blas.split())}"


def command_line(argv=None) -> str:
    """The command that ran, with every absolute path cut to its last part ('…/name'): the page names
    no directory of the machine that wrote it."""
    argv = list(sys.argv if argv is None else argv)
    prog = "lssvm-analysis" if argv and ("lssvm" in Path(argv[0]).name or argv[0].endswith("cli.py")) else \
        (Path(argv[0]).name if argv else "python")
    args = [("…/" + Path(a).name) if os.path.isabs(a) else
            (a.split("=", 1)[0] + "=…/" + Path(a.split("=", 1)[1]).name
             if "=" in a and os.path.isabs(a.split("=", 1)[1]) else a) for a in argv[1:]]
    return " ".join([prog, *args])


def _load() -> str:
    """The 1-minute load average, or "unknown" where the system has none."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except (OSError, AttributeError):
        return "unknown"


def read_records(store, specs) -> dict[str, dict[str, pd.DataFrame]]:
    """Every section's specs' stored rows, ``{section: {key: DataFrame}}`` (the sections' only input)."""
    return {sec: {key: load_records(store, spec) for key, spec in by_key.items()}
            for sec, by_key in specs.items()}


def write_report(out, records, profile: str, *, meta=(), n_jobs=None, only=None) -> Path:
    """Write ``index.html`` and every PNG/CSV from records (never runs a solver).

    Each registered section renders from its own records (a ``reads_all`` section from every
    section's, after the others), numbered by its page position; then every section that is the
    home of claims ends with its slice of the claims ledger, whose verdicts are its verdict box.
    ``only`` (section keys) renders those sections and the ledger (:func:`~.plan.selected_sections`).
    The sections that read only their own records are rendered on ``n_jobs`` local processes
    (default: all cores; 1 renders in this process), the largest record sets first: each
    writes only its own files, so the page is the one a serial rendering writes.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    regs = selected_sections(only)
    sections = [Section(f"{i}. {reg.title}", reg.key) for i, reg in enumerate(regs, start=1)]
    own = [(reg, sec) for reg, sec in zip(regs, sections) if not reg.reads_all]
    _render_own(own, out, records, profile, n_jobs)
    for reg, sec in zip(regs, sections):
        if reg.reads_all:
            sec.summary = reg.render(sec, out, records, profile)
    append_slices(sections, out, records)
    return write_page(out, "LS-SVM numerical stability report", sections, meta=meta)


def _render_section(key: str, sec: Section, out: Path, records, profile: str) -> Section:
    """Render the report section ``key`` into ``sec`` (in a worker process: returns it filled).

    The section is looked up by key in :func:`report_sections` (what the parent rendered from; a
    forked worker inherits it), so only the key, not the section's functions, is pickled.
    """
    reg = {r.key: r for r in report_sections()}[key]
    sec.summary = reg.render(sec, out, records, profile)
    return sec


def _render_own(pairs, out, records, profile, n_jobs) -> None:
    """Render the (registration, Section) pairs, on a local pool when there is more than one core.

    Rendering (matplotlib's layout and PNG encoding) is most of the report's time outside the
    sweeps, all of it in one process: ~30 s of the default report's 296 s on 2 cores.
    """
    size = {reg.key: sum(len(df) for df in records.get(reg.key, {}).values()) for reg, _ in pairs}
    order = sorted(pairs, key=lambda pair: -size[pair[0].key])  # the largest first: a short tail
    with local_pool(None if n_jobs in (None, -1) else min(n_jobs, len(pairs))) as pool:
        if pool is None:
            for reg, sec in pairs:
                sec.summary = reg.render(sec, out, records.get(reg.key, {}), profile)
            return
        futures = [(sec, pool.submit(_render_section, reg.key, sec, out, records.get(reg.key, {}), profile))
                   for reg, sec in order]
        for sec, fut in futures:
            sec.__dict__.update(fut.result().__dict__)


def _clean(out: Path):
    """Remove the previous report's files: those its index.html links to, and the page itself.

    Nothing else in ``out`` is touched (a directory that holds no report of ours is left alone).
    """
    old = linked_files(out / "index.html")
    if old is None:
        return
    for name in old + ["index.html"]:
        f = out / name
        if f.is_file() and f.suffix in (".png", ".csv", ".html"):
            f.unlink()


def build_report(out="reports/default", *, quick=False, profile=None, store=None, n_jobs=None,
                 executor=None, progress=True, asv_dir=".asv/results", scheduler=None,
                 dask_workers=None, only=None) -> Path:
    """Run the report's sweeps (reusing stored rows) and write ``out/index.html``.

    Parameters
    ----------
    out : path
        Output directory (created; previous PNG/CSV/HTML files removed).
    quick : bool
        Use the "quick" profile instead of "default".
    profile : {"quick", "default", "full"}, optional
        Explicit profile name (overrides ``quick``).
    store : path, optional
        SQLite record store (default :func:`default_store`).
    n_jobs : int, optional
        Local worker processes for the sweeps (default: all cores).
    executor : concurrent.futures.Executor or dask.distributed.Client, optional
        Run the sweeps there instead of local processes.
    progress : {True, False, "force"} or SweepProgress
        One tqdm bar over every sweep, on stderr (see
        :func:`~lssvm_analysis.report.plan.run_report_sweeps`).
    asv_dir : path
        asv results to import into the store first (crossover figure); none is fine.
    scheduler : str, optional
        Address of a running Dask scheduler to run the sweeps on.
    dask_workers : int, optional
        Start a Dask LocalCluster of this many worker processes for the sweeps.
    only : list of str, optional
        Section keys to run and render (the ledger is always rendered; its rows of the other
        sections say "not run"): the papers' full protocols in resumable pieces.

    Returns
    -------
    pathlib.Path of ``index.html``.

    Raises
    ------
    StoreError, OutputPathError
        Before any sweep: the store or the output directory cannot be used.
    """
    name = check_profile(profile or ("quick" if quick else "default"))
    selected_sections(only)  # an unknown key: refused before any work
    out = prepare_out(out)
    st = open_report_store(store)
    load0 = _load()
    try:
        t0 = time.perf_counter()
        imported = import_asv_results(st, asv_dir)
        with dask_client(scheduler, dask_workers) as client:
            if executor is None:
                executor = client
            specs = run_report_sweeps(st, name, n_jobs=None if executor is not None else n_jobs,
                                      progress=progress, executor=executor, only=only)
        t_runs = time.perf_counter() - t0
        records = read_records(st, specs)
        n_tasks = sum(status_counts(st, specs).values())
    finally:
        st.close()
    store = st.path
    if isinstance(progress, SweepProgress):
        progress.phase("rendering")
    _clean(out)
    meta = [f"lssvm_analysis {__version__} (commit {git_commit()}), profile '{name}', Python "
            f"{platform.python_version()}, {library_versions()}, on {cpu_model()} ({os.cpu_count()} cores), "
            f"load average {load0} at the start. Command: {command_line()}. The records of {n_tasks} tasks "
            f"from the store {Path(store).name} (sweeps {t_runs:.1f} s in this run"
            + ("; asv results imported" if imported else "") + "). Every figure and table links to the CSV "
            "it was drawn from; verdicts are computed from the records."]
    if only is not None:
        meta.append(f"Sections run: {', '.join(only)} (--only); the ledger's rows of the others say 'not run'.")
    return write_report(out, records, name, meta=meta, n_jobs=None if executor is not None else n_jobs,
                        only=only)
