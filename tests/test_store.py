"""The record store refuses what it cannot use, says so in one line, and checks every record.

Each damaged-store case must (a) raise StoreError naming the path and the
reason, (b) say how to recover, (c) leave the file byte for byte as it was.
The CLI turns these into ``lssvm-analysis: error: ...`` and exit status 2,
before any sweep runs.
"""
from __future__ import annotations

import os
import sqlite3

import pytest

from lssvm_analysis import cli
from lssvm_analysis.core.exceptions import CorruptRecordError, OutputPathError, StoreError
from lssvm_analysis.experiments import SweepSpec, load_records, run_sweep
from lssvm_analysis.experiments.store import SCHEMA_VERSION, Store, row_checksum
from lssvm_analysis.report import build as build_mod


def _spec(name="tiny"):
    return SweepSpec(name, kind="fit", solvers=["krr"], precisions=["float64"],
                     datasets=[("sinc", {"n_train": 12, "n_test": 5})], grid={"C": [1.0, 10.0]},
                     seeds=[0], options={"reference": False})


def _real_store(path):
    run_sweep(_spec(), path, n_jobs=1, progress=False)
    return path


def _damaged(kind, tmp_path):
    p = tmp_path / f"{kind}.sqlite"
    if kind == "directory":
        p.mkdir()
    elif kind == "random-bytes":
        p.write_bytes(os.urandom(3000))
    elif kind == "text":
        p.write_text("key,status\nabc,ok\n")
    elif kind == "truncated":
        _real_store(p)
        with sqlite3.connect(p) as con:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        data = p.read_bytes()
        p.write_bytes(data[: len(data) // 2 + 100])
    elif kind == "other-schema":
        with sqlite3.connect(p) as con:
            con.execute("CREATE TABLE results (id INTEGER, value REAL)")
    elif kind == "future-schema":
        _real_store(p)
        with sqlite3.connect(p) as con:
            con.execute("UPDATE meta SET value = '99' WHERE name = 'schema'")
    elif kind == "unwritable":
        _real_store(p)
        p.chmod(0o444)
    elif kind == "dev-null":
        return "/dev/null"
    return str(p)


def _snapshot(path):
    return None if not os.path.isfile(path) else open(path, "rb").read()


KINDS = ["directory", "random-bytes", "text", "truncated", "other-schema", "future-schema",
         pytest.param("unwritable", marks=pytest.mark.skipif(
             os.geteuid() == 0, reason="root writes a read-only file: nothing to refuse")),
         "dev-null"]


@pytest.mark.parametrize("kind", KINDS)
def test_damaged_store_is_refused_and_left_alone(kind, tmp_path):
    path = _damaged(kind, tmp_path)
    before = _snapshot(path)
    with pytest.raises(StoreError) as info:
        Store(path).connection()
    msg = str(info.value)
    assert repr(path) in msg and "\n" not in msg
    assert info.value.path == path and info.value.reason
    assert ("move it aside" in msg) or ("--store" in msg)
    assert _snapshot(path) == before  # nothing recomputed over, nothing overwritten
    with pytest.raises(StoreError):
        run_sweep(_spec(), path, n_jobs=1, progress=False)
    assert _snapshot(path) == before


def _main(argv):
    """The command's exit status: a bad path is refused while the options are read (argparse's exit 2)
    or when the store is opened (main returns 2); either way one line and no work."""
    try:
        return cli.main(argv)
    except SystemExit as exc:
        return exc.code


@pytest.mark.parametrize("kind", ["directory", "random-bytes", "other-schema", "dev-null"])
def test_cli_reports_bad_store_in_one_line_before_any_sweep(kind, tmp_path, capsys, monkeypatch):
    path = _damaged(kind, tmp_path)
    monkeypatch.setattr(build_mod, "run_report_sweeps",
                        lambda *a, **k: pytest.fail("a sweep ran before the store was checked"))
    rc = _main(["report", "--quick", "--no-progress", "--store", path, "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip()
    assert rc == 2
    assert err.startswith("lssvm-analysis: error: ") and len(err.splitlines()) == 1
    assert path in err and "Traceback" not in err
    with pytest.raises(StoreError):  # the check the command line runs first, as the API raises it
        Store(path).connection()


@pytest.mark.parametrize("case", ["empty", "proc", "file", "below-file"])
def test_cli_refuses_bad_out_up_front(case, tmp_path, capsys, monkeypatch):
    f = tmp_path / "afile"
    f.write_text("x")
    out = {"empty": "", "proc": "/proc/lssvm-report", "file": str(f), "below-file": str(f / "sub")}[case]
    monkeypatch.setattr(build_mod, "run_report_sweeps",
                        lambda *a, **k: pytest.fail("a sweep ran before --out was checked"))
    cwd_before = sorted(os.listdir(os.getcwd()))
    rc = _main(["report", "--quick", "--no-progress", "--store", str(tmp_path / "s.sqlite"),
                "--out", out])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and len(err.splitlines()) == 1 and "Traceback" not in err
    assert (out in err) if out else ("empty" in err)
    assert sorted(os.listdir(os.getcwd())) == cwd_before  # --out '' wrote nothing here
    with pytest.raises(OutputPathError):
        build_mod.prepare_out(out)


@pytest.mark.parametrize("jobs", ["0", "-2", "two"])
def test_cli_jobs_must_be_a_worker_count(jobs, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["report", "--jobs", jobs])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--jobs" in err and "Traceback" not in err and "n_jobs" not in err


def test_changed_record_is_detected_on_read(tmp_path):
    path = _real_store(tmp_path / "s.sqlite")
    with sqlite3.connect(path) as con:
        key, row = con.execute("SELECT key, row FROM records ORDER BY key LIMIT 1").fetchone()
        i = next(i for i, ch in enumerate(row) if ch.isdigit() and i > row.index('"status"'))
        bad = row[:i] + str((int(row[i]) + 1) % 10) + row[i + 1:]  # one digit changed
        con.execute("UPDATE records SET row = ? WHERE key = ?", (bad, key))
    with pytest.raises(CorruptRecordError) as info:
        load_records(path, _spec())
    assert key in str(info.value) and str(path) in str(info.value)
    with pytest.raises(CorruptRecordError):  # a rerun does not silently skip or recompute it either
        run_sweep(_spec(), path, n_jobs=1, progress=False)


def test_schema_1_store_is_upgraded_with_checksums(tmp_path):
    path = tmp_path / "old.sqlite"
    _real_store(path)
    with sqlite3.connect(path) as con:  # turn it back into a schema-1 store
        con.execute("UPDATE records SET checksum = NULL")
        con.execute("UPDATE meta SET value = '1' WHERE name = 'schema'")
    with Store(path) as st:
        rows = st.rows()
    assert rows and all(r["status"] == "ok" for r in rows)
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT value FROM meta WHERE name='schema'").fetchone()[0] == str(SCHEMA_VERSION)
        for text, c in con.execute("SELECT row, checksum FROM records"):
            assert c == row_checksum(text)


def test_leases_are_exclusive_and_die_with_their_owner(tmp_path):
    path = str(tmp_path / "l.sqlite")
    a, b = Store(path), Store(path)
    assert a.acquire("k1") and not b.acquire("k1") and b.acquire("k2")
    a.release(["k1"])
    assert b.acquire("k1")
    with sqlite3.connect(path) as con:  # the owner's process is gone: its lease is free
        con.execute("UPDATE leases SET pid = 2147483646 WHERE key = 'k2'")
    assert a.acquire("k2")
    a.close()
    b.close()


# -- issue 21: refusals leave the file byte for byte; leases are atomic --------------------------
def _sha256(path):
    import hashlib

    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def _single_file(path):
    """Fold the WAL into the file and leave rollback-journal mode: the file is then the whole store."""
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()


def test_future_schema_store_is_refused_byte_for_byte(tmp_path):
    """Schema 99, rollback-journal mode: refused with the file's SHA-256 unchanged and no WAL made."""
    path = str(tmp_path / "future.sqlite")
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute("INSERT INTO meta VALUES ('schema', '99')")
    before = _sha256(path)
    with pytest.raises(StoreError, match="schema 99"):
        Store(path).connection()
    with pytest.raises(StoreError, match="schema 99"):
        run_sweep(_spec(), path, n_jobs=1, progress=False)
    assert _sha256(path) == before
    assert sorted(os.listdir(tmp_path)) == ["future.sqlite"]  # no -wal, -shm or -journal left


def test_tampered_store_is_refused_byte_for_byte(tmp_path):
    """A record changed after it was written: refused at open, specs and leases untouched."""
    path = _real_store(str(tmp_path / "t.sqlite"))
    con = sqlite3.connect(path)
    with con:
        key, row = con.execute("SELECT key, row FROM records ORDER BY key LIMIT 1").fetchone()
        con.execute("UPDATE records SET row = ? WHERE key = ?", (row.replace('"ok"', '"OK"', 1), key))
    con.close()
    _single_file(path)
    before = _sha256(path)
    with pytest.raises(CorruptRecordError, match=key):
        run_sweep(_spec("another-name"), path, n_jobs=1, progress=False)  # would register a spec
    with pytest.raises(CorruptRecordError):
        Store(path).connection()
    assert _sha256(path) == before


def _lease_worker(path, keys, log):
    """The runner's protocol on a store: take the lease, check the task is still needed, run, write."""
    store = Store(path)
    done = []
    for key in keys:
        if store.acquire(key):
            if key not in store.statuses([key]):
                done.append(key)  # "executed"
                store.write({"key": key, "kind": "lease-test", "status": "ok"})
            store.release([key])
    store.close()
    with open(log, "w") as fh:
        fh.write("\n".join(done))


@pytest.mark.parametrize("n_procs", [2, 3])
def test_lease_is_atomic_across_processes(tmp_path, n_procs):
    """Many short tasks, several processes: every task runs exactly once (a deferred transaction
    let two processes both see a lease free: 1,008 executions for 1,007 tasks)."""
    import multiprocessing as mp

    path = str(tmp_path / "lease.sqlite")
    Store(path).connection()
    keys = [f"k{i:04d}" for i in range(600)]
    ctx = mp.get_context("fork")
    logs = [str(tmp_path / f"log{i}") for i in range(n_procs)]
    # each process walks the keys from another offset, so they meet on every key
    procs = [ctx.Process(target=_lease_worker, args=(path, keys[i::n_procs] + keys, logs[i]))
             for i in range(n_procs)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=300)
        assert proc.exitcode == 0
    executed = [k for log in logs for k in open(log).read().split()]
    assert sorted(executed) == keys  # each key once: none twice, none lost


def _retry_spec():
    """Many short tasks that all fail (C < 0 is an "error" row): what a report retries."""
    return SweepSpec("retry", kind="fit", solvers=["krr"], precisions=["float64"],
                     datasets=[("sinc", {"n_train": 8, "n_test": 4})],
                     grid={"C": [-float(i) for i in range(1, 61)]}, seeds=[0], options={"reference": False})


def _retry_worker(path):
    run_sweep(_retry_spec(), path, n_jobs=1, progress=False, retry_errors=True)


def test_retried_error_rows_run_once_across_processes(tmp_path):
    """Two reports retrying the same stored error rows: each is re-run by one of them only (the
    second re-ran a row the first had already replaced: 1,008 executions for 1,007 tasks)."""
    import multiprocessing as mp

    path = str(tmp_path / "retry.sqlite")
    first = run_sweep(_retry_spec(), path, n_jobs=1, progress=False)
    assert (first["status"] == "error").all()
    con = sqlite3.connect(path)
    with con:  # count every row write from here on
        con.execute("CREATE TABLE writes (key TEXT)")
        con.execute("CREATE TRIGGER count_writes AFTER INSERT ON records BEGIN "
                    "INSERT INTO writes VALUES (NEW.key); END")
    con.close()
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=_retry_worker, args=(path,)) for _ in range(2)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=300)
        assert proc.exitcode == 0
    con = sqlite3.connect(path)
    counts = dict(con.execute("SELECT key, COUNT(*) FROM writes GROUP BY key").fetchall())
    con.close()
    assert sorted(counts) == sorted(first["key"]) and set(counts.values()) == {1}, counts
