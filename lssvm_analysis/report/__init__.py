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

# Sections register themselves on import (one line per section module).
from . import sections_abe, sections_suykens, sections_vieira, sections_zhao_sun  # noqa: E402,F401
from . import sections_chen_zhou, sections_suykens_tables  # noqa: E402,F401
from . import sections_precision, sections_appendix, ledger  # noqa: E402,F401
from . import sections_digits  # noqa: E402,F401

__all__ = ["PROFILE_NAMES", "ReportSection", "build_report", "default_store", "read_records",
           "register_section", "report_sections", "run_report_sweeps", "write_report"]
