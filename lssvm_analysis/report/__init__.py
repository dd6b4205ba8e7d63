"""Layer 7: the generated stability report (HTML + PNG + CSV).

:func:`build_report` runs the report's sweeps through the experiments layer
(records in one SQLite store, reused across runs) and writes
``<out>/index.html``; the section code only reads the stored records.

>>> from lssvm_analysis.report import build_report
>>> build_report("reports/quick", quick=True)          # doctest: +SKIP
"""
from .build import build_report, default_store, read_records, write_report
from .plan import PROFILES, Profile, get_profile, run_report_sweeps

__all__ = ["PROFILES", "Profile", "build_report", "default_store", "get_profile", "read_records",
           "run_report_sweeps", "write_report"]
