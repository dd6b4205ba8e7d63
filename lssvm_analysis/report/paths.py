"""Paths and addresses a command will use, checked before any work: nothing is created or contacted.

``compare`` (its ``out``, ``store`` and ``scheduler``) and the command line (``--out``, ``--store``,
``--scheduler`` of ``report`` and ``compare``) refuse, in one line naming the argument and the value,
an output directory that is or lies below a file, a store path that is a directory or lies below a
file, and a scheduler address Dask cannot parse.  Whether a directory can be written is found when it
is made (:func:`~lssvm_analysis.report.build.prepare_out`), whether a scheduler answers when it is
contacted.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..core.exceptions import OutputPathError, StoreError
from ..core.validation import short_repr

__all__ = ["check_out_path", "check_store_path", "check_scheduler"]


def _blocking_file(path: Path) -> Path | None:
    """``path`` or the first of its parents that exists and is not a directory, else None."""
    return next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), None)


def _path(name: str, value) -> Path:
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"expected a path (str or os.PathLike) for {name}, got {name}={short_repr(value)}")
    if not str(value).strip():
        raise ValueError(f"expected a non-empty path for {name}, got {name}={str(value)!r}")
    return Path(value)


def check_out_path(name: str, out) -> Path | None:
    """``out`` as a Path (None stays None) if a directory can be made there: nothing is created.

    Raises
    ------
    TypeError, ValueError
        Not a path, an empty one.
    OutputPathError
        ``out`` is, or lies below, a file; the message names ``name`` and the file.
    """
    if out is None:
        return None
    path = _path(name, out)
    blocking = _blocking_file(path)
    if blocking is not None:
        where = "it is a file" if blocking == path else f"it lies below {str(blocking)!r}, which is a file"
        raise OutputPathError(f"expected a directory for {name}, got {name}={str(out)!r}: {where}")
    return path


def check_store_path(name: str, store) -> Path | None:
    """``store`` as a Path (None stays None) if a store file can be made there: nothing is created.

    Raises
    ------
    TypeError, ValueError
        Not a path, an empty one.
    StoreError
        ``store`` is a directory, or lies below a file; the message names ``name`` and that path.
    """
    if store is None or (isinstance(store, str) and store == ":memory:"):
        return store
    path = _path(name, store)
    blocking = _blocking_file(path.parent)
    if path.is_dir() or blocking is not None:
        where = "it is a directory" if blocking is None else f"it lies below {str(blocking)!r}, which is a file"
        raise StoreError(f"expected a store file path for {name}, got {name}={str(store)!r}: {where}",
                         str(store), where)
    return path


def check_scheduler(name: str, scheduler):
    """``scheduler`` if it is None or a Dask scheduler address ("tcp://host:8786", "host:8786", ...): its
    form only, nothing is contacted (without ``distributed`` installed, the call that needs it says so).

    Raises
    ------
    TypeError, ValueError
        Not a str, or an address Dask cannot parse (no port, an unknown protocol), naming ``name``.
    """
    if scheduler is None:
        return None
    if not isinstance(scheduler, str):
        raise TypeError(f"expected a Dask scheduler address (str) for {name}, got {name}={short_repr(scheduler)}")
    try:
        from distributed.comm.addressing import parse_address, parse_host_port
        from distributed.comm.registry import get_backend
    except ImportError:
        return scheduler
    try:
        scheme, location = parse_address(scheduler)
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss", "ucx"):
            parse_host_port(location)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"expected a Dask scheduler address such as 'tcp://host:8786' for {name}, "
                         f"got {name}={scheduler!r} ({' '.join(str(exc).split())[:120]})") from None
    return scheduler
