"""Embedded SQLite storage of experiment records (stdlib ``sqlite3``).

Layout
------
``records(key PRIMARY KEY, kind, status, finished, row, checksum)``
    One row per task.  ``row`` is the record as JSON text (columns differ
    between kinds, so the record is stored whole and expanded into a tidy
    DataFrame on read, columns in order of first appearance); ``key``,
    ``kind`` and ``status`` are copied into indexed SQL columns for lookups;
    ``finished`` is the UNIX time the row was written (not part of the
    record, so records stay deterministic); ``checksum`` is the SHA-256 of
    ``row``, checked on every read (:class:`CorruptRecordError` names the
    key: a record changed after it was written never reaches a report).
``leases(key PRIMARY KEY, owner, pid, host, expires)``
    Which process is computing a task now (:meth:`Store.acquire`), so two
    processes running sweeps on one store split the work.  A lease expires
    at ``expires`` (renewed while its owner runs) or at once when its owner's
    process is gone (same host).
``specs(name PRIMARY KEY, spec, updated)``
    The last spec run under each name (its ``to_dict()`` as JSON).
``spec_tasks(spec, key, position)``
    Which task keys make up the named sweep, in task order.  A task shared
    by several sweeps is stored once.

JSON is Python's dialect with the tokens ``NaN``, ``Infinity`` and
``-Infinity``, so NaN and inf round-trip exactly, as do every float (written
by ``repr``) and every int.

Durability: each row is committed on its own as soon as it arrives, in WAL
mode with ``synchronous=NORMAL``: a killed or interrupted process loses no
committed row and never leaves a half-written one (a power cut may lose the
last few commits, never corrupt the file).  Inserts are ``INSERT OR IGNORE``
on the key, so two processes running the same sweep cannot duplicate a row.

Refusal: a path that is not a usable store (a directory, a device such as
/dev/null, random bytes, a text file, a truncated database, a database of
another schema, a file this user cannot write, a record that fails its
checksum) is refused when it is opened with a :class:`StoreError` that names
the path, the reason and the way out (move the file aside); it is never
recomputed over or overwritten.  An existing file is verified on a read-only
connection first, so a refused store is left byte for byte as it was (no WAL
switch, no table created).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import sqlite3
import stat
import time
import urllib.parse
import uuid
from typing import Iterable

import pandas as pd

from ..core.exceptions import CorruptRecordError, StoreError
from .spec import INPUT_COLUMNS, SweepSpec, canonical_json

__all__ = ["Store", "SCHEMA_VERSION", "encode_row", "decode_row", "records_frame", "open_store",
           "row_checksum", "LEASE_SECONDS"]

#: 2: records carry a checksum and tasks are leased (a schema-1 store is upgraded in place).
SCHEMA_VERSION = 2
#: Lifetime of a lease without renewal (the runner renews its own every LEASE_SECONDS / 3).
LEASE_SECONDS = 60.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    key TEXT PRIMARY KEY, kind TEXT NOT NULL, status TEXT NOT NULL,
    finished REAL NOT NULL, row TEXT NOT NULL, checksum TEXT);
CREATE INDEX IF NOT EXISTS records_kind ON records (kind);
CREATE TABLE IF NOT EXISTS specs (name TEXT PRIMARY KEY, spec TEXT NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS spec_tasks (
    spec TEXT NOT NULL, key TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (spec, key));
CREATE TABLE IF NOT EXISTS leases (
    key TEXT PRIMARY KEY, owner TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
    expires REAL NOT NULL);
"""
_TABLES = {"meta": {"name", "value"}, "records": {"key", "kind", "status", "finished", "row"},
           "specs": {"name", "spec", "updated"}, "spec_tasks": {"spec", "key", "position"}}
_SQLITE_MAGIC = b"SQLite format 3\x00"

_CHUNK = 500  # keys per "IN (...)" query, well under SQLite's variable limit


def encode_row(row: dict) -> str:
    """JSON text of a record (column order kept; NaN/inf as tokens)."""
    return json.dumps(row, allow_nan=True)


def decode_row(text: str) -> dict:
    return json.loads(text)


def row_checksum(text: str) -> str:
    """SHA-256 (hex) of a record's JSON text."""
    return hashlib.sha256(text.encode()).hexdigest()


#: The files SQLite keeps beside a database (WAL mode: -wal and -shm; rollback mode: -journal).
_SIDE_FILES = ("-wal", "-shm", "-journal")


def _refuse(path, reason, cls=StoreError, *, movable=True):
    advice = (f"move it aside (mv {path!r} {path + '.bad'!r}) to start a new store there, or pass "
              "another --store" if movable else "pass the path of a file with --store")
    return cls(f"cannot use the record store {path!r}: {reason}. Nothing was changed; {advice}.",
               path=path, reason=reason)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


class Store:
    """A SQLite file of experiment records.

    Parameters
    ----------
    path : str or os.PathLike
        The file (created with its directory if missing).  ``":memory:"``
        gives a private in-memory store that lives as long as the object.

    Notes
    -----
    One connection per ``Store``, used from the creating thread only; the
    parent process is the only writer during ``run_sweep``.  Use as a
    context manager or call :meth:`close`.
    """

    def __init__(self, path):
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"expected a file path or a Store for store, got store={path!r}")
        self.path = os.fspath(path)
        if isinstance(self.path, bytes):
            self.path = os.fsdecode(self.path)
        self._con: sqlite3.Connection | None = None

    def __repr__(self):
        return f"Store({self.path!r})"

    def __enter__(self):
        self.connection()
        return self

    def __exit__(self, *exc):
        self.close()

    def connection(self) -> sqlite3.Connection:
        """The open connection (opened, checked, and the schema created, on first use).

        Raises
        ------
        StoreError
            The path is not a usable store; the one-line message names the
            path, the reason and how to recover.
        """
        if self._con is None:
            if self.path != ":memory:":
                self._check_path()
            side = [self.path + suffix for suffix in _SIDE_FILES] if self.path != ":memory:" else []
            before = {f for f in side if os.path.exists(f)}
            try:
                try:
                    con = self._open()
                except sqlite3.Error as exc:
                    raise _refuse(self.path, f"not a readable record store ({exc})") from None
            except StoreError:
                # a read-only connection to a WAL-mode file makes its -wal and -shm: a refused store is
                # left as it was found, so the ones this attempt made go with the refusal
                for f in side:
                    if f not in before and os.path.exists(f):
                        with contextlib.suppress(OSError):
                            os.remove(f)
                raise
            self._con = con
        return self._con

    def _check_path(self) -> None:
        """Refuse up front what SQLite would refuse late (or silently turn into a new store)."""
        path = self.path
        if path == "":
            raise _refuse(path, "the path is empty", movable=False)
        parent = os.path.dirname(os.path.abspath(path))
        try:
            os.makedirs(parent, exist_ok=True)
        except OSError as exc:
            raise _refuse(path, f"its directory cannot be created ({exc.strerror or exc})") from None
        if not os.path.exists(path):
            if not os.access(parent, os.W_OK | os.X_OK):
                raise _refuse(path, f"the directory {parent!r} is not writable")
            return
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise _refuse(path, "it is a directory", movable=False)
        if not stat.S_ISREG(mode):
            raise _refuse(path, "it is not a regular file (a device, pipe or socket)", movable=False)
        if not os.access(path, os.R_OK | os.W_OK):
            raise _refuse(path, "this user cannot read and write it (permissions)")
        if not os.access(parent, os.W_OK | os.X_OK):  # WAL needs its -wal and -shm files there
            raise _refuse(path, f"the directory {parent!r} is not writable (SQLite needs its journal there)")
        size = os.path.getsize(path)
        if size:
            with open(path, "rb") as fh:
                head = fh.read(len(_SQLITE_MAGIC))
            if head != _SQLITE_MAGIC:
                raise _refuse(path, "it is not an SQLite database (wrong header)")
            if size < 512 or size % 512:
                raise _refuse(path, f"it is truncated ({size} bytes is not a whole number of pages)")

    def _verify(self) -> None:
        """Every refusal of an existing store, on a read-only connection: a refused file is left
        byte for byte as it was (no WAL switch, no table created, no lock file left behind)."""
        uri = "file:" + urllib.parse.quote(os.path.abspath(self.path)) + "?mode=ro"
        con = sqlite3.connect(uri, uri=True, timeout=60.0)
        try:
            ok = con.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise _refuse(self.path, f"it is damaged (SQLite quick_check: {ok})")
            tables = {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "meta" not in tables:
                raise _refuse(self.path, f"it is an SQLite database of another program "
                                         f"(tables {sorted(tables)[:6]}), not a record store")
            for table, cols in _TABLES.items():
                if table in tables:
                    have = {r[1] for r in con.execute(f"PRAGMA table_info({table})")}
                    if not cols <= have:
                        raise _refuse(self.path, f"table {table!r} lacks columns "
                                                 f"{sorted(cols - have)} (another schema)")
            found = None
            if "meta" in tables:
                found = con.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
                if found is not None and found[0] not in ("1", str(SCHEMA_VERSION)):
                    raise _refuse(self.path, f"it is a record store of schema {found[0]}, this version "
                                             f"reads schema {SCHEMA_VERSION}")
            if "records" in tables and found is not None and found[0] == str(SCHEMA_VERSION):
                for key, text, checksum in con.execute("SELECT key, row, checksum FROM records"):
                    self._check_row(key, text, checksum)  # a tampered store is refused unwritten
        finally:
            con.close()

    def _open(self) -> sqlite3.Connection:
        if self.path != ":memory:" and os.path.exists(self.path) and os.path.getsize(self.path):
            self._verify()  # read-only: nothing is written to a store that is then refused
        con = sqlite3.connect(self.path, timeout=60.0)
        try:
            if self.path != ":memory:":
                try:  # a write lock now, not at the first row: read-only files fail here
                    con.execute("BEGIN IMMEDIATE")
                    con.execute("ROLLBACK")
                except sqlite3.OperationalError as exc:
                    raise _refuse(self.path, f"it cannot be written ({exc})") from None
                con.execute("PRAGMA journal_mode=WAL")
                con.execute("PRAGMA synchronous=NORMAL")
            with con:
                con.executescript(_SCHEMA)
                con.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            found = con.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()[0]
            if found == "1":
                self._upgrade_from_1(con)
            elif found != str(SCHEMA_VERSION):
                raise _refuse(self.path, f"it is a record store of schema {found}, this version reads "
                                         f"schema {SCHEMA_VERSION}")
        except BaseException:
            con.close()
            raise
        return con

    @staticmethod
    def _upgrade_from_1(con) -> None:
        """Schema 1 -> 2: add and fill the checksum column (the rows themselves are kept)."""
        with con:
            have = {r[1] for r in con.execute("PRAGMA table_info(records)")}
            if "checksum" not in have:
                con.execute("ALTER TABLE records ADD COLUMN checksum TEXT")
            rows = con.execute("SELECT key, row FROM records WHERE checksum IS NULL").fetchall()
            con.executemany("UPDATE records SET checksum = ? WHERE key = ?",
                            [(row_checksum(t), k) for k, t in rows])
            con.execute("UPDATE meta SET value = ? WHERE name = 'schema'", (str(SCHEMA_VERSION),))

    def _verified(self, key, text, checksum) -> dict:
        self._check_row(key, text, checksum)
        return decode_row(text)

    def _check_row(self, key, text, checksum) -> None:
        if checksum != row_checksum(text):
            raise CorruptRecordError(
                f"record {key} in the record store {self.path!r} does not match its checksum (it was "
                f"changed after it was written). Nothing was read; delete that record to recompute it "
                f"(sqlite3 {self.path!r} \"DELETE FROM records WHERE key='{key}'\") or move the store aside.",
                path=self.path, reason=f"record {key} fails its checksum")

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    # -- writing ---------------------------------------------------------------
    def write(self, row: dict, *, replace: bool = False) -> bool:
        """Append one record and commit; return False if its key was already stored.

        ``replace=True`` overwrites a stored record of the same key.
        """
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        con = self.connection()
        text = encode_row(row)
        with con:
            cur = con.execute(f"{verb} INTO records (key, kind, status, finished, row, checksum) "
                              "VALUES (?, ?, ?, ?, ?, ?)",
                              (row["key"], row["kind"], row["status"], time.time(), text,
                               row_checksum(text)))
        return cur.rowcount == 1

    # -- leases ----------------------------------------------------------------
    @property
    def owner(self) -> str:
        """This Store object's lease owner id (host, pid and a random part)."""
        if not hasattr(self, "_owner"):
            self._owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        return self._owner

    def acquire(self, key: str, *, seconds: float = LEASE_SECONDS) -> bool:
        """Take the lease on ``key`` (True) unless another live owner holds it (False).

        A lease whose owner process is gone (same host), or whose ``expires``
        has passed (owner on another host, which renews it while it runs), is
        taken over.
        """
        con, now, host = self.connection(), time.time(), socket.gethostname()
        # The look and the take are one write transaction: BEGIN IMMEDIATE takes the write lock
        # before the SELECT, so two processes cannot both see the lease free and both take it
        # (a deferred transaction let them: 1,008 executions for 1,007 tasks).
        con.execute("BEGIN IMMEDIATE")
        try:
            held = con.execute("SELECT owner, pid, host, expires FROM leases WHERE key = ?",
                               (key,)).fetchone()
            if held is not None and held[0] != self.owner:
                owner, pid, h, expires = held
                # same host: the owner's pid says it all; another host: the expiry (renewed)
                alive = _pid_alive(pid) if h == host else expires > now
                if alive:
                    con.rollback()
                    return False
            con.execute("INSERT OR REPLACE INTO leases VALUES (?, ?, ?, ?, ?)",
                        (key, self.owner, os.getpid(), host, now + seconds))
            con.commit()
        except BaseException:
            con.rollback()
            raise
        return True

    def begin_session(self) -> float:
        """Mark this owner as running a sweep from now on (a ``session:`` row of the leases table,
        dropped by :meth:`release`); return the earliest start among the live sessions.

        Rows written after that time are the fresh results of a sweep running now, not errors
        of an earlier run: a retry leaves them alone.
        """
        con, now, host = self.connection(), time.time(), socket.gethostname()
        con.execute("BEGIN IMMEDIATE")
        try:
            con.execute("INSERT OR REPLACE INTO leases VALUES (?, ?, ?, ?, ?)",
                        (f"session:{self.owner}", self.owner, os.getpid(), host, now))
            rows = con.execute("SELECT key, pid, host, expires FROM leases "
                               "WHERE key LIKE 'session:%'").fetchall()
            dead = [(k,) for k, pid, h, _ in rows if h == host and not _pid_alive(pid)]
            con.executemany("DELETE FROM leases WHERE key = ?", dead)  # killed sweeps' sessions
            con.commit()
        except BaseException:
            con.rollback()
            raise
        # live sessions of this host (a dead process's row is ignored; a session of another host
        # cannot be told alive from dead without a renewal, so it is not waited for)
        return min([now] + [start for _, pid, h, start in rows if h == host and _pid_alive(pid)])

    def renew(self, keys: Iterable[str], *, seconds: float = LEASE_SECONDS) -> None:
        """Push back the expiry of this owner's leases on ``keys``."""
        keys = list(keys)
        if not keys:
            return
        con = self.connection()
        with con:
            con.executemany("UPDATE leases SET expires = ? WHERE key = ? AND owner = ?",
                            [(time.time() + seconds, k, self.owner) for k in keys])

    def release(self, keys: Iterable[str] | None = None) -> None:
        """Drop this owner's leases on ``keys`` (all of them when None)."""
        if self._con is None:
            return
        con = self._con
        with con:
            if keys is None:
                con.execute("DELETE FROM leases WHERE owner = ?", (self.owner,))
            else:
                con.executemany("DELETE FROM leases WHERE key = ? AND owner = ?",
                                [(k, self.owner) for k in keys])

    def register_spec(self, spec: SweepSpec, keys: list[str]) -> None:
        """Record (or replace) which task keys make up the sweep named ``spec.name``."""
        con = self.connection()
        with con:
            con.execute("INSERT OR REPLACE INTO specs VALUES (?, ?, ?)",
                        (spec.name, canonical_json(spec.to_dict()), time.time()))
            con.execute("DELETE FROM spec_tasks WHERE spec = ?", (spec.name,))
            con.executemany("INSERT INTO spec_tasks VALUES (?, ?, ?)",
                            [(spec.name, k, i) for i, k in enumerate(keys)])

    # -- reading ---------------------------------------------------------------
    def statuses(self, keys: Iterable[str]) -> dict[str, str]:
        """``key -> status`` for those of ``keys`` that are stored."""
        keys, out = list(keys), {}
        con = self.connection()
        for i in range(0, len(keys), _CHUNK):
            chunk = keys[i:i + _CHUNK]
            q = f"SELECT key, row, checksum FROM records WHERE key IN ({','.join('?' * len(chunk))})"
            out.update((k, self._verified(k, t, c)["status"]) for k, t, c in con.execute(q, chunk))
        return out

    def written(self, keys: Iterable[str]) -> dict[str, float]:
        """``key -> time the stored row was written`` for ``keys``: which version of a row is stored
        (a retry re-runs an error row only while it is the version its sweep planned on)."""
        keys, out = list(keys), {}
        con = self.connection()
        for i in range(0, len(keys), _CHUNK):
            chunk = keys[i:i + _CHUNK]
            q = f"SELECT key, finished FROM records WHERE key IN ({','.join('?' * len(chunk))})"
            out.update(con.execute(q, chunk))
        return out

    def rows(self, *, keys: Iterable[str] | None = None, spec: str | None = None,
             kind: str | None = None) -> list[dict]:
        """Stored records, decoded; in ``keys`` order or the named sweep's task order."""
        con = self.connection()
        if keys is not None:
            keys = list(keys)
            found = {}
            for i in range(0, len(keys), _CHUNK):
                chunk = keys[i:i + _CHUNK]
                q = (f"SELECT key, row, checksum FROM records "
                     f"WHERE key IN ({','.join('?' * len(chunk))})")
                found.update((k, (t, c)) for k, t, c in con.execute(q, chunk))
            rows = [self._verified(k, *found[k]) for k in keys if k in found]
        elif spec is not None:
            q = ("SELECT r.key, r.row, r.checksum FROM spec_tasks s JOIN records r ON r.key = s.key "
                 "WHERE s.spec = ? ORDER BY s.position")
            rows = [self._verified(*r) for r in con.execute(q, (spec,))]
        else:
            rows = [self._verified(*r)
                    for r in con.execute("SELECT key, row, checksum FROM records ORDER BY rowid")]
        return [r for r in rows if kind is None or r.get("kind") == kind]

    def spec_names(self) -> list[str]:
        return [n for (n,) in self.connection().execute("SELECT name FROM specs ORDER BY name")]

    def __len__(self) -> int:
        return self.connection().execute("SELECT COUNT(*) FROM records").fetchone()[0]


def records_frame(rows: list[dict]) -> pd.DataFrame:
    """A tidy DataFrame of records: one row per task, union of the columns.

    A column a kind does not write is NaN in that kind's rows.
    """
    if not rows:
        return pd.DataFrame(columns=[*INPUT_COLUMNS, "status"])
    return pd.DataFrame.from_records(rows)


def open_store(store) -> tuple[Store, bool]:
    """``(Store, owned)``: wrap a path (owned, to be closed) or pass a Store through."""
    if isinstance(store, Store):
        return store, False
    return Store(store), True
