"""Layer 8: one room per paper.

Each sub-package holds everything one seed paper adds above the library: its
task kinds (``kinds*.py``), its claims with their rules, examples and printed
tables (``claims*.py``, ``printed.py``), and its report sections
(``section*.py``).  Its ``__init__`` declares the paper once with
:func:`~lssvm_analysis.experiments.papers.register_paper` and imports the
modules that register the rest.  The solvers a room uses stay in
:mod:`lssvm_analysis.solvers`, the library's public building blocks.

The engines find the rooms through
:func:`~lssvm_analysis.experiments.papers.load_papers`; a sixth paper is one
more folder here, or a package of its own declared in the entry-point group
``lssvm_analysis.papers``.
"""
# The order is the ledger's: each room registers its claims as it loads.
from . import abe, chen_zhou, suykens, vieira, zhao_sun  # noqa: F401

__all__: list[str] = []
