"""The inventory of the five papers' claims (``shared/CLAIMS.md``), as the ledger reads it.

``shared/CLAIMS.md`` lists every testable claim of the seeds, quoted with its
line numbers: per row an id, where the paper makes it, the paper's words, the
claim in measurable form (with the printed numbers), the comparator and
threshold the words imply (with the reason) and whether its data ship offline.
The rows ship with the package as one data file, ``inventory.json`` beside this
module, generated from ``CLAIMS.md`` by :func:`parse_claims_md` (the one parser;
``python -m lssvm_analysis.experiments.claims.inventory path/to/CLAIMS.md``
rewrites it), so that an installed ledger shows the paper's words without the
file; a test checks the two agree.  The parser knows no paper: a row's paper is
the registered paper whose claim-id prefix it carries
(:func:`~lssvm_analysis.experiments.papers.paper_of_claim`).

>>> row = inventory()["A-rank"]
>>> row.where.split()[1]
'L111'
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..papers import paper_of_claim, papers

__all__ = ["INVENTORY_FILE", "InventoryRow", "inventory", "protocols", "parse_claims_md", "write_inventory"]

#: The packaged inventory: ``{"protocols": {prefix: text}, "rows": [row, ...]}``.
INVENTORY_FILE = Path(__file__).with_name("inventory.json")


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
        """The key of the registered paper whose claim-id prefix the row carries."""
        return paper_of_claim(self.id).key

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
    protocol paragraph of each paper's section, by the claim-id prefix of the section's first row.  A row whose cell count is not six
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
        key = cid.split("-", 1)[0]
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


@cache
def _load() -> tuple[dict, dict]:
    data = json.loads(INVENTORY_FILE.read_text(encoding="utf-8"))
    return {r["id"]: InventoryRow(**r) for r in data["rows"]}, dict(data["protocols"])


def inventory() -> dict[str, InventoryRow]:
    """Every row of the inventory, by id (in the file's order)."""
    return dict(_load()[0])


def protocols() -> dict[str, str]:
    """The protocol paragraph of each registered paper's section of the inventory, by paper key."""
    by_prefix = _load()[1]
    return {p.key: by_prefix[p.prefix] for p in papers() if p.prefix in by_prefix}


def write_inventory(claims_md: str | Path, target: str | Path = INVENTORY_FILE) -> int:
    """Parse ``claims_md`` (a path to ``CLAIMS.md``) and write the packaged inventory; the row count."""
    rows, protos = parse_claims_md(Path(claims_md).read_text(encoding="utf-8"))
    data = {"source": "shared/CLAIMS.md",
            "regenerate": "python -m lssvm_analysis.experiments.claims.inventory path/to/CLAIMS.md",
            "protocols": protos, "rows": rows}
    Path(target).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    _load.cache_clear()
    return len(rows)


if __name__ == "__main__":  # python -m lssvm_analysis.experiments.claims.inventory CLAIMS.md
    print(f"wrote {write_inventory(sys.argv[1])} rows to {INVENTORY_FILE}")
