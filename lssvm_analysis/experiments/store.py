"""Embedded SQLite storage of experiment records (stdlib ``sqlite3``).

Layout
------
``records(key PRIMARY KEY, kind, status, finished, row)``
    One row per task.  ``row`` is the record as JSON text (columns differ
    between kinds, so the record is stored whole and expanded into a tidy
    DataFrame on read, columns in order of first appearance); ``key``,
    ``kind`` and ``status`` are copied into indexed SQL columns for lookups;
    ``finished`` is the UNIX time the row was written (not part of the
    record, so records stay deterministic).
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
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from typing import Iterable

import pandas as pd

from .spec import INPUT_COLUMNS, SweepSpec, canonical_json

__all__ = ["Store", "SCHEMA_VERSION", "encode_row", "decode_row", "records_frame", "open_store"]

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    key TEXT PRIMARY KEY, kind TEXT NOT NULL, status TEXT NOT NULL,
    finished REAL NOT NULL, row TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS records_kind ON records (kind);
CREATE TABLE IF NOT EXISTS specs (name TEXT PRIMARY KEY, spec TEXT NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS spec_tasks (
    spec TEXT NOT NULL, key TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (spec, key));
"""

_CHUNK = 500  # keys per "IN (...)" query, well under SQLite's variable limit


def encode_row(row: dict) -> str:
    """JSON text of a record (column order kept; NaN/inf as tokens)."""
    return json.dumps(row, allow_nan=True)


def decode_row(text: str) -> dict:
    return json.loads(text)


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
        self._con: sqlite3.Connection | None = None

    def __repr__(self):
        return f"Store({self.path!r})"

    def __enter__(self):
        self.connection()
        return self

    def __exit__(self, *exc):
        self.close()

    def connection(self) -> sqlite3.Connection:
        """The open connection (opened, and the schema created, on first use)."""
        if self._con is None:
            if self.path != ":memory:":
                os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            con = sqlite3.connect(self.path, timeout=60.0)
            if self.path != ":memory:":
                con.execute("PRAGMA journal_mode=WAL")
                con.execute("PRAGMA synchronous=NORMAL")
            with con:
                con.executescript(_SCHEMA)
                con.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            found = con.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()[0]
            if found != str(SCHEMA_VERSION):
                con.close()
                raise ValueError(f"expected a record store of schema {SCHEMA_VERSION}, "
                                 f"got schema {found} in {self.path!r}")
            self._con = con
        return self._con

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
        with con:
            cur = con.execute(f"{verb} INTO records (key, kind, status, finished, row) "
                              "VALUES (?, ?, ?, ?, ?)",
                              (row["key"], row["kind"], row["status"], time.time(), encode_row(row)))
        return cur.rowcount == 1

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
            q = f"SELECT key, status FROM records WHERE key IN ({','.join('?' * len(chunk))})"
            out.update(con.execute(q, chunk).fetchall())
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
                q = f"SELECT key, row FROM records WHERE key IN ({','.join('?' * len(chunk))})"
                found.update(con.execute(q, chunk).fetchall())
            rows = [decode_row(found[k]) for k in keys if k in found]
        elif spec is not None:
            q = ("SELECT r.row FROM spec_tasks s JOIN records r ON r.key = s.key "
                 "WHERE s.spec = ? ORDER BY s.position")
            rows = [decode_row(t) for (t,) in con.execute(q, (spec,))]
        else:
            rows = [decode_row(t) for (t,) in con.execute("SELECT row FROM records ORDER BY rowid")]
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
