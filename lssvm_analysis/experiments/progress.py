"""One progress bar over any number of sweeps, with an ETA; tasks already stored count as done.

A report runs dozens of sweeps.  :class:`SweepProgress` is a single tqdm bar
over all of them: the caller announces the sweeps it knows of before any runs
(:meth:`SweepProgress.expect`, with how many of their tasks are stored), each
sweep corrects its entry when it starts (:meth:`SweepProgress.start`), and
every finished task moves the bar by one (:meth:`SweepProgress.task_done`).

The rate, and so the ETA, is that of the tasks computed in this run only:
tasks found in the store advance the bar without entering the rate (tqdm's
``initial``), so a resumed report neither shows "?task/s" for its stored
sweeps nor an ETA inflated by them.  Before the first task of this run
finishes, the ETA is "?".

Sweeps may share tasks (the same content key): given the task keys
(``keys=``), a task is counted once, under the first sweep that announces
it, so the bar's total is the number of distinct tasks, the number the
store holds for the run when it ends.  The label is short: the section
(``label=``) or the sweep's name.  Off a terminal (no bar), one line per
label is printed to stderr when its first sweep starts, with the elapsed
time, tasks done and the ETA, and again every :data:`HEARTBEAT_SECONDS`
while its tasks run (a full-profile section runs for hours in a log file);
:meth:`SweepProgress.phase` names a later phase (rendering) the same way.
"""
from __future__ import annotations

import sys
import time
from collections import Counter

__all__ = ["SweepProgress", "HEARTBEAT_SECONDS"]

#: Off a terminal: the least time between two lines of one label (a task finishing after it prints one).
HEARTBEAT_SECONDS = 300.0
#: The bar: no rate column (task costs vary by orders of magnitude), the ETA, this run's outcomes.
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} tasks [{elapsed}<{remaining}{postfix}]"


class SweepProgress:
    """A tqdm bar on stderr over several sweeps (see the module docstring).

    Parameters
    ----------
    progress : {True, False, "force"}
        True shows the bar only when stderr is a terminal, "force" always,
        False never (the counts are kept either way).
    desc : str
        Text before the bar until the first sweep starts (then: its name).

    Attributes
    ----------
    new_counts : collections.Counter
        Status of every task computed through this bar (not those found stored).
    stored_counts : collections.Counter or None
        Set by the caller once every sweep has run: the status of every task
        of the run as read back from the store (stored and new alike).
    """

    def __init__(self, progress=True, *, desc="sweeps", lines=None):
        if progress not in (True, False, "force"):
            raise ValueError(f"expected progress in (True, False, 'force'), got progress={progress!r}")
        from tqdm import tqdm  # only when a bar is made: the engine imports without it

        self.new_counts = Counter()
        self.stored_counts = None
        self._sweeps: dict = {}  # sweep id -> [tasks, tasks counted as done]
        self._unstarted: dict = {}  # name -> ids announced under it and not started yet
        self._owner: dict = {}  # task key -> the sweep id that counts it
        self._total = self._done = self._stored = 0
        self._current = None
        self._label = None
        self._t0 = self._last_line = time.monotonic()
        disable = None if progress is True else (progress is False)  # None: only on a TTY
        self._bar = tqdm(total=0, desc=desc, unit="task", file=sys.stderr, disable=disable,
                         dynamic_ncols=True, smoothing=0, bar_format=BAR_FORMAT)
        #: one line per label on stderr when no bar is drawn (default: only when progress is True and
        #: stderr is not a terminal; a test may pass a stream)
        self._lines = lines if lines is not None else (sys.stderr if progress is True and self._bar.disable
                                                      else None)

    @property
    def total(self) -> int:
        """Tasks of every sweep announced or started so far."""
        return self._total

    @property
    def done(self) -> int:
        """Tasks counted as done: found stored, or computed through this bar."""
        return self._done

    def _own(self, sweep_id, total, stored, keys, stored_keys):
        """(total, stored) of the keys this sweep counts: those no other sweep counted first."""
        if keys is None:
            return total, stored
        mine = [k for k in dict.fromkeys(keys) if self._owner.setdefault(k, sweep_id) == sweep_id]
        kept = set(stored_keys or ())
        return len(mine), sum(k in kept for k in mine)

    def expect(self, name: str, total: int, stored: int, *, sweep_id=None, keys=None,
               stored_keys=None) -> None:
        """Announce sweep ``name`` of ``total`` tasks, ``stored`` of them in the store for good.

        ``stored`` counts the tasks the sweep will not run again (an "error"
        row that a report retries is not among them).  ``sweep_id`` (default:
        the name) tells sweeps apart: two specs may share a name.
        """
        sweep_id = name if sweep_id is None else sweep_id
        if sweep_id not in self._sweeps:
            self._unstarted.setdefault(name, []).append(sweep_id)
        total, stored = self._own(sweep_id, total, stored, keys, stored_keys)
        self._set(name, total, stored, sweep_id)

    def start(self, name: str, total: int, stored: int, *, sweep_id=None, keys=None, stored_keys=None,
              label=None) -> None:
        """Sweep ``name`` starts: its real size and stored count replace what was announced.

        The bar moves back when stored rows are to be run again (errors retried).  ``label``
        (default: the current label, else ``name``) is what the bar shows before itself.
        """
        sweep_id = name if sweep_id is None else sweep_id
        waiting = self._unstarted.get(name, [])
        if sweep_id in waiting:
            waiting.remove(sweep_id)
        elif sweep_id not in self._sweeps and waiting:
            # announced under this name with other tasks (a stage planned before the stage it
            # depends on had run): this sweep takes that one's place
            self._set(name, 0, 0, waiting.pop(0))
        total, stored = self._own(sweep_id, total, stored, keys, stored_keys)
        self._set(name, total, stored, sweep_id)
        self._current = sweep_id
        self.label(label or self._label or name)

    def label(self, text: str) -> None:
        """Show ``text`` before the bar (a section or phase); off a terminal, one line when it changes."""
        if text != self._label and self._lines is not None:
            self._line(f"{text}: started at")
        self._label = text
        self._bar.set_description_str(text, refresh=False)
        self._bar.refresh()

    def _line(self, head: str) -> None:
        self._last_line = now = time.monotonic()
        print(f"{head} {self._clock(now - self._t0)}, {self._done}/{self._total} tasks done, ETA {self.eta()}",
              file=self._lines, flush=True)

    def phase(self, text: str) -> None:
        """A phase after the sweeps (e.g. "rendering"): the label, with the bar left full."""
        self.label(text)

    @staticmethod
    def _clock(seconds: float) -> str:
        m, s = divmod(int(round(seconds)), 60)
        return f"{m}:{s:02d}"

    def eta(self) -> str:
        """Time left at this run's rate of computed tasks, "?" before 5 % of them are done."""
        new = self._done - self._stored
        left = self._total - self._done
        if left <= 0:
            return "0:00"
        if new <= 0 or new < 0.05 * (self._total - self._stored):
            return "?"
        return self._clock((time.monotonic() - self._t0) * left / new)

    def task_done(self, status: str, *, sweep_id=None) -> None:
        """One task finished (its row is in the store) with ``status``: of sweep ``sweep_id`` (default: the
        current sweep; several sweeps run as one pass name theirs)."""
        self.new_counts[status] += 1
        entry = self._sweeps.get(self._current if sweep_id is None else sweep_id)
        if entry is not None:
            entry[1] += 1
        self._done += 1
        if self._lines is not None and time.monotonic() - self._last_line >= HEARTBEAT_SECONDS:
            self._line(f"{self._label}: at")
        self._bar.set_postfix_str(" ".join(f"{s}={n}" for s, n in sorted(self.new_counts.items())),
                                  refresh=False)
        self._bar.update(1)

    def __str__(self) -> str:
        """The bar as it is drawn now ("" when it is not shown)."""
        return "" if self._bar.disable else str(self._bar)

    def close(self) -> None:
        """Close the bar (idempotent)."""
        self._bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _set(self, name, total, stored, sweep_id):  # sweep_id resolved by the caller
        if not isinstance(name, str) or isinstance(total, bool) or isinstance(stored, bool) \
                or not 0 <= int(stored) <= int(total):
            raise ValueError(f"expected a sweep name and 0 <= stored <= total, got name={name!r}, "
                             f"total={total!r}, stored={stored!r}")
        old_total, old_done = self._sweeps.get(sweep_id, (0, 0))
        self._sweeps[sweep_id] = [int(total), int(stored)]
        self._total += int(total) - old_total
        delta = int(stored) - old_done  # < 0 when stored error rows are to be run again
        self._done += delta
        self._stored += delta  # stored tasks do not enter the rate (tqdm's ``initial``)
        bar = self._bar
        bar.total, bar.n, bar.initial = self._total, self._done, self._stored
