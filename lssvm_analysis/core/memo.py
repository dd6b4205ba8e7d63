"""Bounded memos of pure computations: the same inputs give the stored result, warnings included.

A report task often recomputes what the task before it in the same worker
process computed from the same inputs: the data set of a split (eight
methods share a seed), the kernel matrix of a training fold (every C of a
grid at one sigma2), the reference LS-SVM that places Chen & Zhou's
outliers.  :class:`Memo` keeps such results, keyed on the exact inputs
(:func:`array_key` holds an array's bytes, not a hash of them, so two keys
are equal only when the inputs are), in least-recently-used order, within a
bound on the number of entries and on their bytes.

What a memo must not change is the outcome, and an outcome includes its
warnings: the task engine records the warnings a task raises.  So a result
is stored with the warnings its computation raised, and every later hit
raises them again, in the same order; a computation that raises an
exception stores nothing.  Results are shared, so they must be immutable
(read-only arrays, frozen records) or copied by the caller (``copy=``).
"""
from __future__ import annotations

import contextlib
import contextvars
import json
import warnings
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any

import numpy as np

__all__ = ["Memo", "array_key", "json_key", "scoped"]


def array_key(a) -> tuple | None:
    """An exact, hashable key of a numeric ndarray: (shape, dtype, bytes); None for anything else.

    Object arrays (mp numbers) and non-arrays give None: the caller does not memoize then.
    """
    if not isinstance(a, np.ndarray) or a.dtype.kind not in "fiub":
        return None
    return (a.shape, a.dtype.str, a.tobytes())


def json_key(value) -> str | None:
    """A canonical JSON string of plain data (sorted keys), or None when ``value`` is not plain data.

    A ``numpy.random.Generator`` seed, for instance, gives None: its state changes between calls.
    """
    try:
        return json.dumps(value, sort_keys=True, allow_nan=True, default=_plain)
    except (TypeError, ValueError):
        return None


def _plain(obj):
    """Read-only mappings (a task's options) as dicts; anything else is not plain data."""
    if isinstance(obj, Mapping):
        return dict(obj)
    raise TypeError(f"not plain data: {type(obj).__name__}")


class Memo:
    """A least-recently-used memo bounded by entries and bytes; warnings are replayed on a hit.

    Parameters
    ----------
    max_entries : int
        Entries kept (the least recently used is dropped first).
    max_bytes : int, optional
        Total of the ``size`` of the entries kept; a result larger than this is not kept.

    Notes
    -----
    Not thread-safe: the report's workers are processes, each with its own memos.
    """

    def __init__(self, max_entries: int, max_bytes: int | None = None):
        if max_entries < 1:
            raise ValueError(f"expected max_entries >= 1, got max_entries={max_entries!r}")
        self.max_entries, self.max_bytes = int(max_entries), max_bytes
        self._items: OrderedDict = OrderedDict()
        self._bytes = 0
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    @property
    def nbytes(self) -> int:
        """The ``size`` of the entries kept, summed."""
        return self._bytes

    def clear(self) -> None:
        self._items.clear()
        self._bytes = 0

    def get(self, key: Hashable, compute: Callable[[], Any], *,
            size: Callable[[Any], int] | None = None, copy: Callable[[Any], Any] | None = None):
        """``compute()``, or the result stored under ``key`` with its warnings raised again.

        Parameters
        ----------
        key : hashable or None
            None: compute and store nothing.
        compute : callable
            Called without arguments on a miss.
        size : callable, optional
            Bytes of a result (for ``max_bytes``); default 0.
        copy : callable, optional
            Applied to the result stored and to the result returned on a hit, when the caller
            may modify what it gets (e.g. ``numpy.ndarray.copy``).
        """
        if key is None:
            return compute()
        if key in self._items:
            self._items.move_to_end(key)
            value, caught, _ = self._items[key]
            self.hits += 1
            _replay(caught)
            return value if copy is None else copy(value)
        self.misses += 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = compute()
        _replay(caught)
        nbytes = int(size(value)) if size is not None else 0
        if self.max_bytes is None or nbytes <= self.max_bytes:
            self._store(key, value if copy is None else copy(value), list(caught), nbytes)
        return value

    def _store(self, key, value, caught, nbytes) -> None:
        self._items[key] = (value, caught, nbytes)
        self._bytes += nbytes
        while len(self._items) > self.max_entries or (
                self.max_bytes is not None and self._bytes > self.max_bytes):
            _, (_, _, dropped) = self._items.popitem(last=False)
            self._bytes -= dropped


def _replay(caught) -> None:
    """Raise the recorded warnings again, as they were raised (category, message, place)."""
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)


@contextlib.contextmanager
def scoped(var: contextvars.ContextVar, **options):
    """A :class:`Memo` (``Memo(**options)``) held in ``var`` for the block and cleared when it ends.

    A block nested in another one shares the outer memo.  The memo's users look it up with
    ``var.get()`` (None outside every block: no memo, nothing kept).
    """
    memo = var.get()
    if memo is not None:
        yield memo
        return
    memo = Memo(**options)
    token = var.set(memo)
    try:
        yield memo
    finally:
        var.reset(token)
        memo.clear()
