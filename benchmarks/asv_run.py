"""Run asv so that its child processes end with it: ``python benchmarks/asv_run.py run ...``.

asv 0.6 starts its children in process groups of their own (the forkserver,
whose forked benchmark processes share its group, or each spawned benchmark
and ``setup_cache`` process), so a signal sent to asv or to its process group
does not reach them.  asv kills them itself only when it is interrupted
(SIGINT, i.e. ``KeyboardInterrupt``: its ``finally`` blocks kill the groups).
SIGTERM (``timeout``, a CI job cancelled, ``kill``) and SIGHUP (a closed
terminal) end asv at once instead, and the forkserver and the benchmark it
runs keep going, with either launch method.  This wrapper turns SIGTERM and
SIGHUP into ``KeyboardInterrupt``, and SIGINT too even where it was
inherited as ignored (a command started with ``&`` by a non-interactive
shell ignores SIGINT, and Python then keeps it ignored), and then runs asv's
own command line, so every way of stopping the run takes the path that
cleans up.  The arguments
are asv's (``python benchmarks/asv_run.py run --python=same --quick ...``).

asv discovers this module with the suites: it defines no benchmark and does
nothing on import.
"""
from __future__ import annotations

import signal
import sys

__all__ = ["main"]


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")


def main(argv=None) -> int:
    """asv's command line with SIGTERM, SIGHUP and SIGINT raising KeyboardInterrupt; returns its exit status."""
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, _interrupt)
    if sys.path and sys.path[0].rstrip("/").endswith("benchmarks"):
        del sys.path[0]  # the suites' modules (common, ...) must not shadow anything asv imports
    from asv.main import main as asv_main

    sys.argv = ["asv"] + list(sys.argv[1:] if argv is None else argv)
    try:
        return asv_main() or 0
    except KeyboardInterrupt:  # raised outside asv's own handlers (e.g. before it started a child)
        return 130


if __name__ == "__main__":
    sys.exit(main())
