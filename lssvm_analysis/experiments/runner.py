"""Running sweeps: resumable, parallel, one writer.

``run_sweep`` validates the spec up front (typed errors), expands it, skips
the tasks whose key is already stored, runs the others in-process or on an
executor (local processes by default, or any ``concurrent.futures`` executor,
or a Dask ``distributed.Client``), and writes each row to the store *in the
parent* as soon as it arrives (one writer, one commit per row).  Workers only
compute and return rows.

Outcomes are data: a task whose kind reports a breakdown is a row with
status "breakdown"; an unexpected exception inside a task is a row with
status "error", the exception type, message and traceback.  Only
``KeyboardInterrupt`` / ``SystemExit`` (and a dead worker process) stop the
sweep; every row finished before that is already committed, so re-running
the same spec resumes where it stopped without recomputing or duplicating.

Lifecycle: local worker processes die with their parent.  Each worker asks
the kernel for SIGKILL when its parent dies (Linux ``PR_SET_PDEATHSIG``) and
also polls its parent pid once a second (elsewhere); on an interruption
(Ctrl-C, an exception) the parent terminates its workers before returning.
So a SIGTERM, SIGKILL or Ctrl-C of ``lssvm-analysis report`` leaves no
worker computing for nobody, and ``... | tee log`` ends.

Several processes on one store: a task is run only under a lease
(:meth:`Store.acquire`), so two ``report`` processes on one store split the
tasks instead of computing each twice; a task leased by another live
process is waited for, and taken over if that process dies.
"""
from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import ctypes
import hashlib
import os
import signal
import sys
import threading
import time

import pandas as pd

from .execute import execute_task, execute_tasks
from .kinds import get_task_kind, group_key, task_kinds
from .progress import SweepProgress
from .spec import SweepSpec
from .store import LEASE_SECONDS, StoreError, open_store, records_frame

__all__ = ["run_sweep", "run_sweeps", "local_pool", "load_records", "execute_task", "execute_tasks", "sweep_id",
           "TIMING_PREFIX", "SchedulerLostError", "scheduler_address"]

#: Columns whose name starts with this are wall-clock seconds (not deterministic).
TIMING_PREFIX = "time_"


class SchedulerLostError(ConnectionError):
    """The Dask scheduler a sweep ran on went away mid-run (every row finished before is stored).

    Attributes
    ----------
    address : str
        The scheduler's address (``"?"`` when the client no longer knows it).
    """

    def __init__(self, address: str):
        self.address = address
        super().__init__(f"the Dask scheduler at {address} was lost; rerun the same command to resume")


def scheduler_address(client) -> str:
    """The address of a ``distributed.Client``'s scheduler, or ``"?"``."""
    try:
        return str(client.scheduler.address)
    except Exception:  # a closed client may have dropped its scheduler handle
        return "?"


def _is_scheduler_loss(exc: BaseException) -> bool:
    """What a Dask client raises when its scheduler dies: cancelled futures, a closed comm (an OSError)."""
    return (isinstance(exc, (cf.CancelledError, asyncio.CancelledError, OSError, cf.TimeoutError))
            and not isinstance(exc, StoreError))  # the store's own faults are not the cluster's


def sweep_id(keys) -> str:
    """A sweep's identity for progress bars: a digest of its task keys (names may repeat)."""
    return hashlib.sha1("\n".join(keys).encode()).hexdigest()


def _check_run_args(spec, n_jobs, executor, progress, max_tasks) -> None:
    if not isinstance(spec, SweepSpec):
        raise TypeError(f"expected a SweepSpec for spec, got spec={spec!r}")
    if not isinstance(progress, SweepProgress) and progress not in (True, False, "force"):
        raise ValueError(f"expected progress in (True, False, 'force') or a SweepProgress, "
                         f"got progress={progress!r}")
    if max_tasks is not None and (isinstance(max_tasks, bool) or not isinstance(max_tasks, int)
                                  or max_tasks < 0):
        raise ValueError(f"expected max_tasks >= 0 or None, got max_tasks={max_tasks!r}")
    if executor is not None:
        if n_jobs is not None:
            raise ValueError(f"expected n_jobs=None when an executor is given, got n_jobs={n_jobs!r}")
        if not (hasattr(executor, "get_executor") or isinstance(executor, cf.Executor)):
            raise TypeError("expected a concurrent.futures.Executor or a dask.distributed.Client, "
                            f"got executor={executor!r}")
    elif n_jobs is not None:
        if isinstance(n_jobs, bool) or not isinstance(n_jobs, int):
            raise TypeError(f"expected an int or None for n_jobs, got n_jobs={n_jobs!r}")
        if n_jobs < 1 and n_jobs != -1:
            raise ValueError(f"expected n_jobs >= 1, -1 or None, got n_jobs={n_jobs!r}")


def _die_with_parent(parent_pid: int) -> None:
    """Make this (worker) process exit when ``parent_pid`` is no longer its parent.

    Linux: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` - the kernel kills the worker
    the moment its parent dies, whatever killed the parent (SIGKILL included).
    Everywhere: a daemon thread polls ``os.getppid()`` once a second.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the poll below remains
            pass
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)

    def watch():
        while True:
            time.sleep(1.0)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="lssvm-parent-watch", daemon=True).start()


def _init_worker(n_threads, parent_pid):
    """Worker initializer: die with the parent, ignore Ctrl-C (the parent stops us), n BLAS threads."""
    _die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from threadpoolctl import threadpool_limits

    threadpool_limits(n_threads)


def _limit_blas_threads(n):
    """Worker initializer of older callers: n BLAS threads per worker."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(n)


def _resolve_executor(executor, n_jobs, n_pending):
    """``(executor or None for in-process, owned)`` (arguments checked by _check_run_args)."""
    if executor is not None:
        if hasattr(executor, "get_executor"):  # dask.distributed.Client
            return executor.get_executor(), False
        return executor, False
    cpus = os.cpu_count() or 1
    workers = min(cpus if n_jobs in (None, -1) else n_jobs, n_pending)
    if workers <= 1:
        return None, False
    return cf.ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                                  initargs=(max(1, cpus // workers), os.getpid())), True


@contextlib.contextmanager
def local_pool(n_jobs=None):
    """One pool of local worker processes for several sweeps (None when one worker suffices).

    A report runs dozens of sweeps; a pool per sweep pays a worker start-up
    (fork, imports) each time.  The workers are those ``run_sweep`` makes:
    BLAS limited to ``cpu_count // workers`` threads, dying with their parent;
    on an exception (Ctrl-C included) they are terminated, not awaited.
    """
    cpus = os.cpu_count() or 1
    workers = cpus if n_jobs in (None, -1) else n_jobs
    if workers <= 1:
        yield None
        return
    pool = cf.ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                                  initargs=(max(1, cpus // workers), os.getpid()))
    try:
        yield pool
    except BaseException:
        _terminate_workers(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _write(store, row, bar, replace, owner):
    """Store a finished task's row and count it for its sweep (``owner``: key -> sweep id)."""
    store.write(row, replace=replace)
    store.release([row["key"]])
    bar.task_done(row["status"], sweep_id=owner[row["key"]])


def _terminate_workers(pool) -> None:
    """Stop an owned process pool's workers now (an interruption must not leave them computing)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())  # CPython's ProcessPoolExecutor
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(timeout=5)
        if proc.is_alive():  # pragma: no cover - ignored SIGTERM
            proc.kill()


class _Scheduler:
    """The tasks still to run, handed out under leases, with those another process holds deferred.

    ``retry`` maps the keys to re-run even though stored (stored with status "error") to the
    time the error row seen when the sweep was planned was written: once another process has re-run
    one (its row is then another version), it is not run again here.
    """

    POLL = 0.5  # seconds between looks at tasks another process is running

    def __init__(self, store, pending, retry):
        self.store, self.queue, self.retry = store, list(pending), dict(retry)
        self.deferred, self.held = [], set()
        self._renewed = time.monotonic()
        self.groups: dict = {}   # batch key -> its tasks (TaskKind.group), in queue order
        self._group_of: dict = {}
        for task in self.queue:
            key = group_key(get_task_kind(task.kind), task)
            if key is not None:
                self.groups.setdefault(key, []).append(task)
                self._group_of[task.key] = key
        self._taken: set = set()

    def _still_needed(self, task) -> bool:
        status = self.store.statuses([task.key]).get(task.key)
        if status is None:
            return True
        planned = self.retry.get(task.key)
        return planned is not None and self.store.written([task.key]).get(task.key) == planned

    def _take(self, task):
        """True: the lease is taken; False: not needed any more; None: another process holds it."""
        if not self._still_needed(task):
            return False
        if not self.store.acquire(task.key):
            return None
        if not self._still_needed(task):  # finished by another process meanwhile
            self.store.release([task.key])
            return False
        self.held.add(task.key)
        self.retry.pop(task.key, None)
        return True

    def next(self):
        """The next tasks this process may run (leases taken): a task and the queued tasks of its
        batch (:class:`~.kinds.TaskKind` ``group``), or None if none right now."""
        while self.queue:
            task = self.queue.pop(0)
            if task.key in self._taken:
                continue
            taken = self._take(task)
            if taken is None:
                self.deferred.append(task)
            if not taken:
                continue
            out = [task]
            key = self._group_of.get(task.key)
            for other in self.groups.get(key, ()) if key is not None else ():
                if other.key == task.key or other.key in self._taken or other.key in self.held:
                    continue
                if self._take(other):  # a member another process holds is left to it, or to later
                    out.append(other)
                    self._taken.add(other.key)
            return out
        return None

    def done(self, key) -> None:
        self.held.discard(key)

    def idle(self) -> bool:
        """Wait a little for the deferred tasks: requeue them; False when nothing is left at all."""
        if not self.deferred:
            return False
        time.sleep(self.POLL)
        self.queue, self.deferred = self.deferred, []
        return True

    def heartbeat(self) -> None:
        if time.monotonic() - self._renewed > LEASE_SECONDS / 3:
            self.store.renew(self.held)
            self._renewed = time.monotonic()


def _run_serial(sched, modules, store, bar, replace, owner):
    while True:
        tasks = sched.next()
        if tasks is None:
            if sched.idle():
                continue
            return
        for row in execute_tasks(tasks, modules[tasks[0].kind]):
            _write(store, row, bar, replace, owner)
            sched.done(row["key"])


def _result_rows(fut, tasks) -> list[dict]:
    """The rows a finished future holds; tasks whose every worker died running them are "error" rows.

    Dask gives up on a task after its workers died running it ``allowed-failures`` + 1 times
    (``KilledWorker``: a worker killed by its nanny's memory limit, the kernel's OOM killer or a
    crash in native code): that is the task's outcome, recorded, and the sweep goes on (a rerun
    retries error rows).  Anything else a future raises (a lost scheduler) propagates.
    """
    try:
        return fut.result()
    except Exception as exc:
        if type(exc).__name__ != "KilledWorker":
            raise
        return [{**task.input_columns(), "status": "error", "error_type": type(exc).__name__,
                 "message": f"every Dask worker that ran this task died while running it ({exc}); rerun to retry it",
                 "traceback": "", "warnings": ""} for task in tasks]


def _run_pool(pool, owned, sched, modules, store, bar, replace, window, owner):
    futures: dict = {}
    try:
        while True:
            while len(futures) < window:
                tasks = sched.next()
                if tasks is None:
                    break
                futures[pool.submit(execute_tasks, tasks, modules[tasks[0].kind])] = tasks
            if not futures:
                if sched.idle():
                    continue
                return
            done, _ = cf.wait(list(futures), timeout=LEASE_SECONDS / 6, return_when=cf.FIRST_COMPLETED)
            for fut in done:
                for row in _result_rows(fut, futures.pop(fut)):
                    _write(store, row, bar, replace, owner)
                    sched.done(row["key"])
            sched.heartbeat()
    except BaseException:
        for fut in futures:
            with contextlib.suppress(Exception):  # a lost Dask scheduler cannot cancel: nothing to stop
                fut.cancel()
        for fut in futures:  # keep what finished meanwhile: an interruption loses nothing
            try:
                done = fut.done() and not fut.cancelled() and fut.exception(timeout=0) is None
            except Exception:  # cancelled by a scheduler that died: not finished, not kept
                done = False
            if done:
                for row in fut.result():
                    store.write(row, replace=replace)
        if owned:
            _terminate_workers(pool)
            pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        if owned:
            pool.shutdown(wait=True)


def _pending(store, tasks, retry_errors, max_tasks):
    """(tasks to run, in order, at most max_tasks; stored error rows to replace: key -> written).

    Only error rows written before every live sweep of the store began are retried: a row a
    concurrent sweep has just (re)written is its result, and running it again would run the
    task twice.
    """
    stored = store.statuses(t.key for t in tasks)
    since = store.begin_session()
    errors = [k for k, s in stored.items() if retry_errors and s == "error"]
    redo = {k: w for k, w in store.written(errors).items() if w < since}
    pending = [t for t in tasks if t.key not in stored or t.key in redo]
    return (pending if max_tasks is None else pending[:max_tasks]), redo


def run_sweep(spec: SweepSpec, store, *, n_jobs: int | None = None, executor=None,
              progress=True, max_tasks: int | None = None,
              retry_errors: bool = False) -> pd.DataFrame:
    """Run every task of ``spec`` not yet in ``store``; return all the spec's records.

    Parameters
    ----------
    spec : SweepSpec
    store : str, os.PathLike or Store
        SQLite file (created if missing) or an open :class:`Store`.
    n_jobs : int, optional
        Local worker processes (default ``os.cpu_count()``; -1 likewise);
        1 runs in-process.  Each worker limits BLAS to
        ``cpu_count // workers`` threads.
    executor : concurrent.futures.Executor or dask.distributed.Client, optional
        Run the tasks there instead (then ``n_jobs`` must be None).  Kind
        modules must be importable on its workers.
    progress : {True, False, "force"} or SweepProgress
        tqdm bar on stderr; True shows it only when stderr is a TTY.  A
        :class:`~lssvm_analysis.experiments.progress.SweepProgress` shared by
        several sweeps (one bar, one ETA, for a whole report) is advanced
        instead of a bar of this sweep's own.
    max_tasks : int, optional
        Run at most this many pending tasks (in task order), then return.
    retry_errors : bool, default False
        Re-run the tasks stored with status "error" and replace their rows.

    Returns
    -------
    pandas.DataFrame
        One row per task of the spec that is stored (old and new), in task
        order.  Columns: ``INPUT_COLUMNS``, one per hyper-parameter,
        ``status``, ``message``, the kind's outcomes, ``warnings``, and
        wall-clock seconds in ``time_*`` columns.

    Raises
    ------
    TypeError, ValueError
        Malformed spec or arguments; the registries' typed errors
        (``UnknownSolverError``, ``UnknownPrecisionError``,
        ``UnknownTaskKindError``, unknown dataset) before anything runs.
    KeyboardInterrupt, concurrent.futures.process.BrokenProcessPool
        Propagated after committing every finished row.
    SchedulerLostError
        The Dask scheduler of ``executor`` died mid-run (every finished row is committed: rerunning
        the same spec resumes).

    Notes
    -----
    Warnings raised inside a task are recorded in its "warnings" column;
    with a thread executor they may be attributed to a concurrent task
    (``warnings.catch_warnings`` is process-global): prefer processes.
    """
    _check_run_args(spec, n_jobs, executor, progress, max_tasks)
    return _run_specs([spec], store, n_jobs=n_jobs, executor=executor, progress=progress,
                      retry_errors=retry_errors, max_tasks=max_tasks)[0]


def run_sweeps(specs, store, *, n_jobs: int | None = None, executor=None, progress=True,
               retry_errors: bool = False) -> list[pd.DataFrame]:
    """Run several sweeps in one pass; return each spec's records (as :func:`run_sweep` does).

    The same rows as ``[run_sweep(spec, store, ...) for spec in specs]``, but the pending tasks of all
    the specs go to the workers as one queue (in spec order, a task two specs share once), so a worker
    does not wait at the end of one sweep for the other's last task while the next sweep has work: a
    report's sections run their independent sweeps this way.  Arguments as :func:`run_sweep`; each spec
    is registered in the store and started on the progress bar, and each finished task counts for its
    own sweep.
    """
    specs = list(specs)
    for spec in specs:
        _check_run_args(spec, n_jobs, executor, progress, None)
    return _run_specs(specs, store, n_jobs=n_jobs, executor=executor, progress=progress,
                      retry_errors=retry_errors)


def _run_specs(specs, store, *, n_jobs, executor, progress, retry_errors, max_tasks=None) -> list[pd.DataFrame]:
    """The engine of :func:`run_sweep` and :func:`run_sweeps` (arguments checked by the caller)."""
    all_tasks = [spec.tasks() for spec in specs]  # validates: typed errors before any work
    modules = {spec.kind: get_task_kind(spec.kind).module for spec in specs}
    store, owned_store = open_store(store)
    try:
        # read (and checksum) the stored rows first: a store refused as tampered is left unwritten
        plans = [(spec, tasks, *_pending(store, tasks, retry_errors, max_tasks))
                 for spec, tasks in zip(specs, all_tasks)]
        with contextlib.ExitStack() as stack:
            bar = progress if isinstance(progress, SweepProgress) else stack.enter_context(
                SweepProgress(progress, desc=specs[0].name if len(specs) == 1 else "sweeps"))
            queue, redo, owner = [], {}, {}
            for spec, tasks, pending, again in plans:
                keys = [t.key for t in tasks]
                store.register_spec(spec, keys)
                waiting = {t.key for t in pending}
                sid = sweep_id(keys)
                bar.start(spec.name, len(keys), len(keys) - len(pending), sweep_id=sid, keys=keys,
                          stored_keys=[k for k in keys if k not in waiting])
                redo.update(again)
                for t in pending:
                    if t.key not in owner:
                        owner[t.key] = sid
                        queue.append(t)
            pool, owned = _resolve_executor(executor, n_jobs, len(queue))
            sched = _Scheduler(store, queue, redo)
            if pool is None:
                _run_serial(sched, modules, store, bar, bool(redo), owner)
            else:
                window = 2 * (getattr(pool, "_max_workers", None) or os.cpu_count() or 2)
                if executor is not None and hasattr(executor, "nthreads"):  # dask: its thread count
                    window = 2 * max(1, sum(executor.nthreads().values()))
                try:
                    _run_pool(pool, owned, sched, modules, store, bar, bool(redo), window, owner)
                except BaseException as exc:  # a task's own exception is a row: only the cluster raises here
                    if hasattr(executor, "get_executor") and _is_scheduler_loss(exc):
                        raise SchedulerLostError(scheduler_address(executor)) from exc
                    raise
        return [records_frame(store.rows(keys=[t.key for t in tasks])) for tasks in all_tasks]
    finally:
        store.release()
        if owned_store:
            store.close()


def load_records(store, spec: SweepSpec | str | None = None, kind: str | None = None) -> pd.DataFrame:
    """Stored records as a tidy DataFrame (see ``run_sweep`` for the columns).

    Parameters
    ----------
    store : str, os.PathLike or Store
    spec : SweepSpec or str, optional
        A spec: its tasks' stored rows in task order (whatever sweep computed
        them; if its kind is not registered in this process, the rows of the
        last sweep run under its name).  A name: the tasks of the last spec
        run under that name.
    kind : str, optional
        Only rows of this task kind.

    Returns
    -------
    pandas.DataFrame
        Empty (with the input columns) if nothing matches.
    """
    if spec is not None and not isinstance(spec, (SweepSpec, str)):
        raise TypeError(f"expected a SweepSpec, a sweep name or None for spec, got spec={spec!r}")
    if isinstance(store, (str, os.PathLike)) and not os.path.exists(store) and store != ":memory:":
        raise FileNotFoundError(f"expected an existing record store, got store={os.fspath(store)!r}")
    store, owned = open_store(store)
    try:
        if isinstance(spec, SweepSpec) and spec.kind in task_kinds():
            rows = store.rows(keys=[t.key for t in spec.tasks()], kind=kind)
        elif isinstance(spec, SweepSpec):  # a reader need not import the kind's module
            rows = store.rows(spec=spec.name, kind=kind)
        else:
            rows = store.rows(spec=spec, kind=kind)
        return records_frame(rows)
    finally:
        if owned:
            store.close()

