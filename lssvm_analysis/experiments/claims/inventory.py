"""The inventory of the five papers' claims (``shared/CLAIMS.md``), as the ledger reads it.

``shared/CLAIMS.md`` lists every testable claim of the seeds, quoted with its
line numbers: per row an id, where the paper makes it, the paper's words, the
claim in measurable form (with the printed numbers), the comparator and
threshold the words imply (with the reason) and whether its data ship offline.
The rows are kept in the package (:mod:`.inventory_rows`, generated from the
file) so that an installed ledger shows the paper's words without the file;
:func:`parse_claims_md` is the one parser, and a test checks the two agree.

>>> row = inventory()["A-rank"]
>>> row.where.split()[1]
'L111'
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from .inventory_rows import PROTOCOLS, ROWS

__all__ = ["InventoryRow", "inventory", "protocols", "parse_claims_md", "PAPER_PREFIXES"]

#: Id prefix of each paper's claims, and the ledger's paper key.
PAPER_PREFIXES = {"A": "abe", "V": "vieira", "Z": "zhao-sun", "S": "suykens", "C": "chen-zhou"}


@dataclass(frozen=True)
class InventoryRow:
    """One row of ``CLAIMS.md``.

    Attributes
    ----------
    id : str
        The claim's id (``A-rank``; a sub-claim is ``<parent>/<aspect>``).
    where : str
        Seed file, line(s), section / table / figure.
    words : str
        The paper's words, verbatim (``(same words)`` for a sub-claim quoting its parent's).
    measurable : str
        The claim in measurable form, with the printed numbers.
    threshold : str
        The comparator and threshold the words imply, with the reason.
    offline : str
        Whether (and which of) its data ship offline.
    judged : bool
        Marked ✓ in the file: the ledger judged it before the inventory was written.
    """

    id: str
    where: str
    words: str
    measurable: str
    threshold: str
    offline: str
    judged: bool = False

    @property
    def paper(self) -> str:
        return PAPER_PREFIXES[self.id.split("-", 1)[0]]

    @property
    def parent(self) -> str | None:
        """The parent id of a sub-claim (``A-primal-stable`` of ``A-primal-stable/bd``), else None."""
        return self.id.split("/", 1)[0] if "/" in self.id else None


_ROW = re.compile(r"^\|\s*([A-Z]-[^|\s]+)(\s+✓)?\s*\|")


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row, ``\\|`` kept as a literal bar."""
    body = line.strip()[1:-1] if line.strip().endswith("|") else line.strip()[1:]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def parse_claims_md(text: str) -> tuple[list[dict], dict]:
    """(rows, protocols) of a ``CLAIMS.md`` text.

    ``rows``: one dict per claim row (the fields of :class:`InventoryRow`); ``protocols``: the
    protocol paragraph of each paper's section, by paper key.  A row whose cell count is not six
    raises ValueError naming it (a malformed inventory is not read silently).
    """
    if not isinstance(text, str):
        raise TypeError(f"expected the text of CLAIMS.md as a str, got text={type(text).__name__}")
    rows, protocols, paper, pending = [], {}, None, None
    for n, line in enumerate(text.splitlines(), 1):
        head = re.match(r"^## \d+\. .*$", line)
        if head:
            paper = None
            continue
        if line.startswith(("Protocol", "Scope")) and paper is None:
            pending = line.strip()  # the section's protocol: keyed by the paper of its first row
            continue
        m = _ROW.match(line)
        if not m:
            continue
        cells = _cells(line)
        if len(cells) != 6:
            raise ValueError(f"expected 6 cells in the CLAIMS.md row at line {n}, got {len(cells)}: {line[:80]!r}")
        cid = m.group(1)
        key = PAPER_PREFIXES.get(cid.split("-", 1)[0])
        if key is None:
            raise ValueError(f"expected an id prefix in {sorted(PAPER_PREFIXES)}, got id={cid!r} (line {n})")
        if pending is not None:
            protocols[key], pending = pending, None
        paper = key
        rows.append({"id": cid, "where": cells[1], "words": cells[2], "measurable": cells[3],
                     "threshold": cells[4], "offline": cells[5], "judged": bool(m.group(2))})
    ids = [r["id"] for r in rows]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"expected unique claim ids in CLAIMS.md, got duplicates {dup}")
    return rows, protocols


_INVENTORY = {r["id"]: InventoryRow(**r) for r in ROWS}


def inventory() -> dict[str, InventoryRow]:
    """Every row of the inventory, by id (in the file's order)."""
    return dict(_INVENTORY)


def protocols() -> dict[str, str]:
    """The protocol paragraph of each paper's section of the inventory, by paper key."""
    return dict(PROTOCOLS)


if __name__ == "__main__":  # python -m lssvm_analysis.experiments.claims.inventory CLAIMS.md
    import pprint
    from pathlib import Path
    rows_, protos = parse_claims_md(Path(sys.argv[1]).read_text(encoding="utf-8"))
    target = Path(__file__).with_name("inventory_rows.py")
    lines = ['"""The rows of ``shared/CLAIMS.md``, generated by :func:`~.inventory.parse_claims_md` (do not edit).',
             "", "Regenerate: ``python -m lssvm_analysis.experiments.claims.inventory path/to/CLAIMS.md``;",
             "``tests/test_claims_inventory.py`` checks that this file and the inventory agree.", '"""', "",
             "PROTOCOLS = " + pprint.pformat(protos, width=110, sort_dicts=False), "", "ROWS = ("]
    for r in rows_:
        lines.append("    " + pprint.pformat(r, width=106, sort_dicts=False).replace("\n", "\n    ") + ",")
    lines.append(")")
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(rows_)} rows to {target}")
