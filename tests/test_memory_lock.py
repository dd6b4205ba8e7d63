"""The machine-wide memory lock of large requests (``linalg.memory.memory_scope``), with real processes.

Two sweep workers that check a multi-GiB fit at the same moment each see the same free memory; the
lock makes the second wait until the first's task scope ended, and a large request holding it keeps a
margin (``large_bytes()``) for the other processes' smaller requests.  Nothing here allocates: the
guard decides on ``psutil.virtual_memory``, replaced by a machine of 24 GiB total and 22 GiB
available (large: more than 3 GiB), and a temporary lock file replaces the user's.  The worker
processes are forked, so they inherit both replacements.

A ``flock`` belongs to an open file description: a second ``open`` of the lock file, in another
process or in this one, is refused a non-blocking ``LOCK_EX`` exactly while some scope holds the lock,
which is how the tests look at it (:func:`lock_is_free`).
"""
from __future__ import annotations

import collections
import multiprocessing
import os
import queue
import signal
import time

import pytest

from lssvm_analysis.core.exceptions import InsufficientMemoryError
from lssvm_analysis.experiments import SweepSpec, execute_task, register_task_kind
from lssvm_analysis.linalg import memory

fcntl = pytest.importorskip("fcntl", reason="the memory lock is a POSIX flock")

GIB = 2 ** 30
TOTAL, AVAILABLE = 24 * GIB, 22 * GIB
LARGE = TOTAL // 8  # LARGE_FRACTION of the total
VM = collections.namedtuple("VM", "total available")
#: Generous bound on how long a worker may take to report (a busy machine); never a synchronisation.
WAIT = 60.0
CTX = multiprocessing.get_context("fork")


def words(nbytes: int) -> float:
    """float64 words of ``nbytes`` bytes."""
    return nbytes / 8


@pytest.fixture(autouse=True)
def machine(monkeypatch, tmp_path):
    """A 24 GiB machine with 22 GiB available and a lock file of this test's own."""
    monkeypatch.setattr(memory.psutil, "virtual_memory", lambda: VM(TOTAL, AVAILABLE))
    monkeypatch.setattr(memory, "MEMORY_LOCK_PATH", tmp_path / "test.memlock")
    assert memory.large_bytes() == LARGE
    return tmp_path / "test.memlock"


@pytest.fixture()
def start():
    """``start(target, *args)``: a started worker process, killed at the test's end if still alive
    (a failed assertion must not leave a worker holding the lock, or pytest waiting for it)."""
    started = []

    def run(target, *args):
        p = CTX.Process(target=target, args=args, daemon=True)
        p.start()
        started.append(p)
        return p

    yield run
    for p in started:
        if p.is_alive():
            p.kill()
        p.join(WAIT)


def lock_is_free(path) -> bool:
    """Whether a non-blocking exclusive flock on ``path`` succeeds now (released at once)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)  # closing the probe's only descriptor releases its lock, if it took it
    return True


def _probe(path, out):
    out.put(lock_is_free(path))


def free_seen_from_another_process(start, path) -> bool:
    """:func:`lock_is_free`, asked by a fresh process."""
    out = CTX.Queue()
    p = start(_probe, path, out)
    free = out.get(timeout=WAIT)
    p.join(WAIT)
    return free


# ----------------------------------------------------------------------------- worker processes
def _first(name, out, release):
    """Two large requests in one scope (the second must not lock again), then hold until released."""
    with memory.memory_scope():
        need = memory.ensure_memory(50000, words(10 * GIB), "float64", what="first")
        memory.ensure_memory(50000, words(5 * GIB), "float64", what="first, again")
        out.put((name, "granted", time.monotonic(), need))
        release.wait(WAIT)
        out.put((name, "releasing", time.monotonic(), None))  # the last moment inside the scope


def _second(name, out):
    with memory.memory_scope():
        out.put((name, "asking", time.monotonic(), None))
        need = memory.ensure_memory(50000, words(10 * GIB), "float64", what="second")
        out.put((name, "granted", time.monotonic(), need))


def _hold_forever(out):
    with memory.memory_scope():
        memory.ensure_memory(50000, words(10 * GIB), "float64", what="victim")
        out.put("holding")
        signal.pause()  # until SIGKILL


def _hold_request(mode, out, release):
    """A request that must not take the lock, kept open (scope and all) until released."""
    if mode == "small in scope":  # 1 GiB: over UNCHECKED_BYTES (compared), under large_bytes()
        with memory.memory_scope():
            memory.ensure_memory(10000, words(GIB), "float64")
            out.put(mode)
            release.wait(WAIT)
    else:  # "large outside a scope": a user's own fit
        memory.ensure_memory(50000, words(10 * GIB), "float64")
        out.put(mode)
        release.wait(WAIT)


def messages(out, count):
    got = [out.get(timeout=WAIT) for _ in range(count)]
    return {(name, event): (t, need) for name, event, t, need in got}


# ----------------------------------------------------------------------------- tests
def test_two_processes_large_requests_are_serialised(machine, start):
    """The second process's large request returns only after the first's scope ended."""
    out, release = CTX.Queue(), CTX.Event()
    first = start(_first, "A", out, release)
    got = messages(out, 1)
    assert ("A", "granted") in got and not lock_is_free(machine)
    second = start(_second, "B", out)
    got.update(messages(out, 1))
    assert ("B", "asking") in got
    # B asked while A holds the lock: no grant may arrive before A is released (a wrong
    # implementation grants within microseconds; 1 s only gives it the chance to show)
    with pytest.raises(queue.Empty):
        out.get(timeout=1.0)
    release.set()
    got.update(messages(out, 2))
    first.join(WAIT)
    second.join(WAIT)
    assert first.exitcode == 0 and second.exitcode == 0
    # B's request returned after A's last moment inside its scope (CLOCK_MONOTONIC: one clock per machine)
    assert got["B", "granted"][0] > got["A", "releasing"][0] > got["A", "granted"][0]
    assert got["A", "granted"][1] == got["B", "granted"][1] == 10 * GIB  # both accepted: 10 <= 22 - 3 GiB
    assert lock_is_free(machine)


def test_a_killed_holder_does_not_block_the_next(machine, start):
    """SIGKILL of the process holding the lock: the kernel drops its flock, the next request proceeds."""
    out = CTX.Queue()
    victim = start(_hold_forever, out)
    assert out.get(timeout=WAIT) == "holding"
    assert not lock_is_free(machine)
    os.kill(victim.pid, signal.SIGKILL)
    victim.join(WAIT)
    assert victim.exitcode == -signal.SIGKILL
    # a queue of its own: SIGKILL may hit the victim while its feeder thread still holds the queue's write
    # lock (after the message was read), which would block every later writer of that queue
    out = CTX.Queue()
    nxt = start(_second, "next", out)
    got = messages(out, 2)
    nxt.join(WAIT)
    assert nxt.exitcode == 0 and got["next", "granted"][1] == 10 * GIB
    assert lock_is_free(machine)


@pytest.mark.parametrize("mode", ["small in scope", "large outside a scope"])
def test_requests_that_do_not_lock(machine, start, mode):
    """A request of at most large_bytes() in a scope, and any request outside one, leave the lock
    and its file alone: the file is not even created, and another process may take the lock."""
    out, release = CTX.Queue(), CTX.Event()
    holder = start(_hold_request, mode, out, release)
    try:
        assert out.get(timeout=WAIT) == mode
        assert not machine.exists()  # the request did not open (create) the lock file
        assert free_seen_from_another_process(start, machine)
    finally:
        release.set()
        holder.join(WAIT)
    assert holder.exitcode == 0


def test_the_margin_refuses_inside_a_scope_what_fits_outside(machine):
    """20 GiB fits in the 22 GiB available but not in 22 - 3 GiB: refused with the figures inside a
    scope (bytes_available = the difference it was compared with), accepted outside."""
    need = 20 * GIB
    assert memory.ensure_memory(60000, words(need), "float64") == need  # outside: as without the lock
    with pytest.raises(InsufficientMemoryError) as info:
        with memory.memory_scope():
            memory.ensure_memory(60000, words(need), "float64", what="dense fit")
    e = info.value
    assert (e.n, e.precision, e.bytes_needed, e.bytes_available) == (60000, "float64", need, AVAILABLE - LARGE)
    for figure in (need, AVAILABLE, LARGE, AVAILABLE - LARGE):
        assert f"{figure} bytes" in str(e), figure
    assert "margin" in str(e) and "dense fit with n=60000" in str(e)
    assert lock_is_free(machine)  # released when the scope ended with the error
    # exactly at the margin's edge: accepted (need = available - margin)
    with memory.memory_scope():
        assert memory.ensure_memory(60000, words(AVAILABLE - LARGE), "float64") == AVAILABLE - LARGE
        assert not lock_is_free(machine)
    assert lock_is_free(machine)


def test_nested_scopes_release_at_the_outermost():
    with memory.memory_scope():
        with memory.memory_scope():
            memory.ensure_memory(50000, words(10 * GIB), "float64")
        assert not lock_is_free(memory.MEMORY_LOCK_PATH)  # the inner scope's end keeps it
    assert lock_is_free(memory.MEMORY_LOCK_PATH)


# ----------------------------------------------------------------------------- the runner's scope
def lock_probe_row(task):
    """A task kind: a large request, then whether the lock is held while the task still runs."""
    memory.ensure_memory(50000, words(10 * GIB), "float64", what="probe")
    held = not lock_is_free(memory.MEMORY_LOCK_PATH)
    if task.params["a"] == "fail":
        raise RuntimeError(f"failed while holding the lock (held={held})")
    return {"held": held}


register_task_kind("memlock-probe", lock_probe_row, validate=lambda spec: None)


def test_execute_task_holds_the_lock_for_the_task_only(machine):
    """execute_task runs the kind in a scope: the lock is held during the task and free after it,
    also when the task raised (an "error" row)."""
    tasks = {t.params["a"]: t for t in SweepSpec("memlock", kind="memlock-probe",
                                                 grid={"a": ["ok", "fail"]}, seeds=[0]).tasks()}
    row = execute_task(tasks["ok"])
    assert row["status"] == "ok" and row["held"] is True
    assert lock_is_free(machine)
    row = execute_task(tasks["fail"])
    assert row["status"] == "error" and "held=True" in row["message"]
    assert lock_is_free(machine)


def test_a_request_beyond_the_whole_machine_is_refused_without_waiting(machine, start):
    """A request above total - margin can never fit: while another process holds the lock it is refused
    at once (the decision the lock would give after the wait, since available <= total), and it leaves the
    lock to its holder."""
    out, release = CTX.Queue(), CTX.Event()
    holder = start(_first, "A", out, release)
    try:
        assert out.get(timeout=WAIT)[:2] == ("A", "granted")
        need = TOTAL - LARGE + 8  # one word more than the whole machine less the margin
        with pytest.raises(InsufficientMemoryError) as info:
            with memory.memory_scope():
                memory.ensure_memory(70000, words(need), "float64", what="hopeless fit")
        assert info.value.bytes_needed == need and info.value.bytes_available == AVAILABLE - LARGE
        assert not lock_is_free(machine)  # A still holds it: the refusal did not wait for it
    finally:
        release.set()
        holder.join(WAIT)
    assert holder.exitcode == 0
