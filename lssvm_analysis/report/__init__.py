"""Layer 7: the generated stability report (HTML + PNG + CSV).

:func:`build_report` runs the report's sweeps through the experiments layer
(records in one SQLite store, reused across runs) and writes
``<out>/index.html``; the section code only reads the stored records.

>>> from lssvm_analysis.report import build_report
>>> build_report("reports/quick", quick=True)          # doctest: +SKIP
"""
from .build import build_report, default_store, read_records, write_report
from .plan import run_report_sweeps
from .registry import PROFILE_NAMES, ReportSection, register_section, report_sections

# The generic sections register on import; each paper's sections live in its room
# (lssvm_analysis/papers/<paper>/section*.py) and register when the papers load (report_sections()).
from . import sections_precision, sections_appendix, ledger  # noqa: E402,F401
from . import sections_digits  # noqa: E402,F401

__all__ = ["PROFILE_NAMES", "ReportSection", "build_report", "default_store", "read_records",
           "register_section", "report_sections", "run_report_sweeps", "write_report"]
