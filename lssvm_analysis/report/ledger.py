"""The claims ledger in the report: one compact table, shown once, and the gate.

The verdicts come from :mod:`lssvm_analysis.experiments.claims` (the rules read
the records); this module only renders them: the section "ledger" (every
claim: id → claim → verdict badge → our number beside the printed one →
interval → evidence, with the paper's words, the rule and the verdict sentence
folded under the claim), the count of outcomes the page opens with
(:func:`answer_sentence`), and each section's claim ids, which the page links
to their rows.  :func:`page_problems` is the gate: every claim has a row with
its verdict, and no other text asserts one.
"""
from __future__ import annotations

import html as _html
import re
from pathlib import Path

import pandas as pd

from ..experiments.claims import OUTCOMES, ledger_frame
from .figures import save_table
from .html import Link, Section, anchor_id
from .registry import register_section

__all__ = ["ledger_table", "append_slices", "page_problems", "VERDICT_WORDS", "answer_sentence"]

#: Words that assert a verdict; outside the ledger's table and the verdict boxes the page must not use them
#: ("holds 3 digits", a measurement, is not one).
VERDICT_WORDS = re.compile(r"\bholds\b(?!\s+\d)|\b(does not hold|as claimed|confirmed|refuted)\b|\bNOT\b")
_KEY = "ledger"


def _evidence(out: Path, section: str, stems) -> list:
    links = [Link("§", f"#{section}", title=f"the section {section}")]
    for stem in stems:
        for ext, label in ((".png", "fig"), (".csv", "csv")):
            if (Path(out) / f"{stem}{ext}").is_file():
                links.append(Link(label, f"{stem}{ext}", title=f"{stem}{ext}"))
    return links


def _words(quote: str) -> str:
    """The paper's words in one pair of curly quotes (the inventory keeps them in straight ones)."""
    q = (quote or "").strip()
    if not q or q == "(same words)":
        return ""
    return f"“{q.strip(chr(34) + '“”').strip()}”"


def _outcome(verdict: str, sentence: str) -> str:
    """The badge's text: the outcome, with 'on the stand-in' when a 'holds' was measured on one."""
    return "holds on the stand-in" if verdict == "holds" and sentence.startswith("holds on the stand-in") \
        else verdict


def _clip(text, n: int) -> str:
    """``text`` cut at its last clause boundary ('; ' or ', ') before ``n`` characters, with '…' (the whole
    text is folded under the claim)."""
    text = "" if text is None or (isinstance(text, float) and text != text) else str(text)
    if len(text) <= n:
        return text
    head = text[:n]
    cut = max(head.rfind("; "), head.rfind(", "))
    return (head[:cut] if cut > n // 3 else head.rstrip()) + " …"


def _full(measured, printed, uncertainty) -> str:
    """Our numbers, the printed ones and the interval in full, for the folded part of a row."""
    parts = [(label, "" if v is None or (isinstance(v, float) and v != v) else str(v))
             for label, v in (("Ours", measured), ("Printed", printed), ("Interval", uncertainty))]
    return " ".join(f"{label}: {v}." for label, v in parts if v)


def ledger_table(frame: pd.DataFrame, out, name: str, caption: str):
    """The ledger rows of ``frame`` (from :func:`ledger_frame`) as a TableRef with links; writes ``name``.csv.

    The shown frame has the columns :data:`~.html.LEDGER_COLUMNS`: id; paper; the paper's section and page
    (``where``, not a file); the claim as measured; the outcome (the badge); our number, the printed one
    and the interval, each cut to its first clauses (:func:`_clip`); the links to the evidence; and, folded
    under the claim, the paper's words (our reading where it differs), the rule with its threshold, the
    full verdict sentence and the three numbers in full (``full``).
    """
    words = [_words(q) + (f" (our reading: {r})" if r else "") for q, r in zip(frame.quote, frame.reading)]
    shown = pd.DataFrame({
        "id": frame.id, "paper": frame.paper, "where": frame["where"], "claim": frame.claim,
        "outcome": [_outcome(v, s) for v, s in zip(frame.verdict, frame.sentence)],
        "ours": [_clip(v, 64) for v in frame.measured], "printed": [_clip(v, 40) for v in frame.printed],
        "interval": [_clip(v, 30) for v in frame.uncertainty],
        "evidence": [_evidence(out, s, e.split()) for s, e in zip(frame.section, frame.evidence)],
        "words": words, "rule": frame.threshold, "sentence": frame.sentence,
        "full": [_full(m, p, u) for m, p, u in zip(frame.measured, frame.printed, frame.uncertainty)]},
        index=frame.index)
    return save_table(shown, out, name, caption, data=frame)


def _counts(frame) -> str:
    c = frame.verdict.map(lambda v: "holds only when" if v.startswith("holds only when")
                          else "holds" if v.startswith("holds on the stand-in") else v).value_counts()
    return ", ".join(f"{c[o]} {o}" for o in OUTCOMES if o in c)


_LAST: list = [None, None]  # (records, frame): the ledger section and the slices judge one records object once


def _frame(records: dict) -> pd.DataFrame:
    """:func:`ledger_frame` of ``records``, computed once per records object (the page renders the ledger and
    then its slices from the same dict: ~1.8 CPU-s each time on the default profile)."""
    if _LAST[0] is not records:
        _LAST[:] = [records, ledger_frame(records)]
    return _LAST[1]


def append_slices(sections: list[Section], out, records: dict) -> None:
    """Give every section that is the home of claims their verdicts (``id: sentence``): the page lists the
    ids by outcome, each a link to its row of the one ledger, and does not repeat the rows.

    The page's last use of the ledger frame: the cache is emptied, so a later page built from the same dict,
    changed in between, is judged afresh."""
    frame = _frame(records)
    _LAST[:] = [None, None]
    for sec in sections:
        mine = frame[frame.section == sec.anchor]
        if sec.anchor == _KEY or not len(mine):
            continue
        sec.verdict = [f"{i}: {s}" for i, s in zip(mine.id, mine.sentence)]


def answer_sentence(frame: pd.DataFrame) -> list:
    """The first screen's count of the ledger's outcomes, each count a link that filters the ledger."""
    verdict = frame.verdict.astype(str).map(lambda v: "holds only when" if v.startswith("holds only when") else v)
    stand_in = int((verdict.eq("holds") & frame.sentence.str.startswith("holds on the stand-in")).sum())
    phrases = (("holds", "hold"), ("does not hold", "do not hold"), ("not reproduced", "were not reproduced"),
               ("holds only when", "hold only under a condition"), ("undecided", "are undecided"),
               ("not testable offline", "are not testable offline"), ("not run", "were not run in this profile"))
    parts: list = [f"Of the {len(frame)} claims of the five papers, "]
    shown = [(o, p, int(verdict.eq(o).sum())) for o, p in phrases if verdict.eq(o).any()]
    for i, (o, p, n) in enumerate(shown):
        parts.append(Link(f"{n} {p}", "#ledger", data=o))
        if o == "holds" and stand_in:
            parts.append(f" ({stand_in} of them on stand-in data)")
        parts.append(", " if i < len(shown) - 2 else ", and " if i == len(shown) - 2 else "")
    parts.append(" (the ledger: each claim with our number beside the printed one).")
    return parts


def _render(sec, out, records, profile) -> str:
    frame = _frame(records)
    sec.answer.append((30, answer_sentence(frame)))
    sec.ledger(ledger_table(frame, out, "ledger", f"The claims ledger: {len(frame)} claims ({_counts(frame)}), "
                            f"profile '{profile}'. A rule in lssvm_analysis.experiments.claims decides each verdict "
                            "from the records before the report prints it. Click a claim for the paper's words, "
                            "the rule with its threshold and the verdict sentence; 'ours' is our number, "
                            "'interval' its uncertainty. 'not reproduced': our data, protocol or implementation "
                            "differ from the paper's (the sentence names how)."))
    return ""


def page_problems(text: str, frame: pd.DataFrame) -> list[str]:
    """What breaks the ledger's gate on a rendered page (an empty list: the page passes).

    Every claim has one row (``id="claim-…"``) whose verdict sentence is the ledger's and whose badge is its
    outcome; no text outside the ledger uses verdict wording.

    Parameters
    ----------
    text : str
        The page's HTML.
    frame : DataFrame
        :func:`ledger_frame` of the records the page was rendered from.
    """
    problems = []
    tables = re.findall(r'<table class="ledger"[^>]*>(.*?)</table>', text, flags=re.S)
    rows = [m for t in tables for m in re.finditer(r'<tr id="(claim-[^"]*)"[^>]*data-outcome="([^"]*)"[^>]*>(.*?)</tr>',
                                                  t, flags=re.S)]
    seen: dict = {}
    for m in rows:
        sentence = re.search(r'<p class="sentence">(.*?)</p>', m.group(3), flags=re.S)
        seen.setdefault(m.group(1), []).append((_html.unescape(m.group(2)),
                                                _html.unescape(sentence.group(1)) if sentence else ""))
    for cid, verdict, sentence in zip(frame.id, frame.verdict, frame.sentence):
        got = seen.get(anchor_id(cid))
        if not got:
            problems.append(f"claim {cid} has no row in a ledger table")
        elif any(s != sentence for _, s in got):
            problems.append(f"claim {cid}: a ledger row's verdict differs from the ledger's sentence")
        elif not any(sentence.startswith(o) for o in OUTCOMES):
            problems.append(f"claim {cid}: its verdict does not start with an outcome")
        elif any(not (o in OUTCOMES and verdict.startswith(o)) for o, _ in got):
            problems.append(f"claim {cid}: its badge is not its outcome {verdict!r}")
    rest = re.sub(r'<table class="ledger".*?</table>|<div class="filters">.*?</div>|<style>.*?</style>'
                  r'|<script>.*?</script>', " ", text, flags=re.S)  # the ledger, its filters and script
    plain = _html.unescape(re.sub(r"<[^>]+>", " ", rest))
    for m in VERDICT_WORDS.finditer(plain):
        problems.append(f"verdict wording outside the ledger: …{plain[max(0, m.start() - 80):m.end() + 40]!r}…")
    return problems


register_section(_KEY, title="Claims ledger: every claim of the five papers, its verdict and evidence", order=1,
                 plan=lambda profile, run: {}, render=_render, reads_all=True)
