"""Static HTML of the report: a sticky table of contents and one collapsed section per paper.

The page opens on the answer (3-5 sentences the sections compute from the
records), then each section on its key figure and its claims by outcome, each
a link to its row of the one ledger; everything else (the text, the other
figures and the tables) is in a ``<details>`` element.  The page is plain HTML
and CSS with one inline script (the ledger's filters and sorting; without it
the table is whole): no web fonts, nothing fetched from the network, so it
renders from a local directory or an archive.  Everything is
referenced by a path relative to ``index.html``.
"""
from __future__ import annotations

import html
import html.parser
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .figures import FigureRef, TableRef, fmt_num

__all__ = ["Section", "Link", "GridRef", "verdict_tally", "GRID_COLOURS", "render_page", "write_page", "linked_files", "GENERATOR",
           "FIGURE_WIDTH_PX", "contrast_ratio", "anchor_id", "LEDGER_COLUMNS"]

#: Marker in every page this module writes (a previous report is recognized by it).
GENERATOR = "lssvm_analysis.report"

#: Width in CSS pixels of the column figures are shown in (a PNG wider than this is scaled
#: down to it); the figure lint measures the displayed size of every figure's text against it.
FIGURE_WIDTH_PX = 1040

#: The answer grid's cell classes: (background, text colour, meaning), one scale for the whole table:
#: the decade of the κ a cell reached (:func:`~.digits_grid.colour_rank`).  The backgrounds are viridis
#: hues moved to lightnesses L* 7, 17, 31, 63, 73, 83, 93 (darker = less κ reached), so that the classes
#: differ in lightness, which colour-blind readers see: the least CIE76 ΔE between two classes is 16.5
#: under a simulated deuteranopia (Machado et al. 2009; tested).  Every text colour has a contrast
#: >= 7:1 on its background (WCAG AAA; tested); the L* 38-62 band, where neither black nor white
#: text reaches 7:1, is skipped.
GRID_COLOURS = {
    "g-c0": ("#121212", "#ffffff", "✗ the first rung fails: no κ reached"),
    "g-c1": ("#490759", "#ffffff", "≥ 3 digits to κ < 1e3"),
    "g-c2": ("#4e3c89", "#ffffff", "to κ in [1e3, 1e6)"),
    "g-c3": ("#679fc4", "#000000", "to κ in [1e6, 1e9)"),
    "g-c4": ("#54c5b1", "#000000", "to κ in [1e9, 1e12)"),
    "g-c5": ("#7be67c", "#000000", "to κ in [1e12, 1e15)"),
    "g-c6": ("#ffed2e", "#000000", "to κ ≥ 1e15"),
    "g-na": ("#e6e6e6", "#303030", "not measured"),
}


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


_CSS = """
body{font-family:system-ui,sans-serif;margin:0;color:#222;line-height:1.45}
.layout{display:grid;grid-template-columns:15rem minmax(0,%(w)dpx);gap:2rem;justify-content:center;
padding:0 1rem}
nav.toc{position:sticky;top:0;align-self:start;max-height:100vh;overflow-y:auto;padding:1rem 0;
font-size:.9em}
nav.toc ol{list-style:none;padding-left:0;margin:.4em 0}nav.toc li{margin:.3em 0}
nav.toc a{color:#236;text-decoration:none}nav.toc a:hover{text-decoration:underline}
main{padding-bottom:4em}
@media (max-width:60rem){.layout{display:block}nav.toc{position:static;max-height:none}}
h1{font-size:1.7em}h2{border-bottom:2px solid #ccd;padding-bottom:.2em;margin-top:2em}
section{scroll-margin-top:.5em}section>figure img{max-height:34rem;width:auto}h3{margin-top:1.5em}figure{margin:1.2em 0}
figure img{max-width:100%%;height:auto;border:1px solid #ddd}
figcaption{font-size:.92em;color:#444}table{border-collapse:collapse;font-size:.88em;margin:.6em 0}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:right}th{background:#f0f2f8}
td:first-child,th:first-child{text-align:left}.verdict{background:#eef6ee;border-left:5px solid #4a4;
padding:.6em 1em;margin:1.2em 0}.note{background:#fff8e6;border-left:5px solid #d92;padding:.5em 1em}
details{border:1px solid #dde;border-radius:4px;padding:.3em .8em;margin:1em 0}
details[open]{padding-bottom:.8em}summary{cursor:pointer;color:#236;font-weight:600}
.meta{font-size:.9em;color:#555}code{background:#f4f4f4;padding:0 .2em}
.summary{background:#f4f6fa;border-left:5px solid #889;padding:.6em 1em;margin:1.2em 0}
table.ledger td{text-align:left;vertical-align:top}
table.grid{font-size:.85em;width:100%%}caption{text-align:left;font-size:.92em;color:#444;caption-side:bottom;
padding-top:.3em}table.grid td{text-align:left;vertical-align:top;min-width:8.5em}
table.grid td small{display:block;font-size:.82em}table.grid td.uncert{border:2px dashed #555}
ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4em 1.2em;margin:.6em 0}
ul.legend li{display:flex;align-items:center;gap:.4em}
ul.legend span.sw{display:inline-block;min-width:2.2em;padding:0 .3em;border:1px solid #888;text-align:center}
.verdict-summary{background:#eef6ee;border-left:5px solid #4a4;padding:.5em 1em;margin:1em 0}
.verdict-summary p{margin:.2em 0}
.answer{background:#f4f6fa;border-left:5px solid #236;padding:.5em 1em;margin:.6em 0 1em}
.answer p{margin:.3em 0}h1{margin:.4em 0 .2em}
table.grid th small{display:block;font-weight:normal;font-size:.8em}
ul.legend span.ends,table.grid td.ends{border:3px double #000;
background-image:repeating-linear-gradient(135deg,transparent 0 6px,
rgba(127,127,127,.35) 6px 8px)}
table.ledger{table-layout:fixed;width:100%%;font-size:.8em}table.ledger th[scope=row]{vertical-align:top}table.ledger th{cursor:pointer}
table.ledger td,table.ledger th{overflow-wrap:anywhere;padding:.2em .3em}
table.ledger details{border:0;padding:0;margin:0}table.ledger summary{font-weight:normal;color:#222}
table.ledger details p{margin:.3em 0;font-size:.95em}
.badge{display:inline-block;padding:0 .35em;border-radius:3px;font-size:.9em}
.b-holds{background:#d7ecd9;color:#0b3d14}.b-does-not-hold{background:#5c0b0b;color:#fff}
.b-not-reproduced{background:#fde3c0;color:#4a2a00}.b-holds-only-when{background:#dfe8f7;color:#12305e}
.b-undecided,.b-not-testable-offline,.b-not-run{background:#eee;color:#333}
.filters{display:flex;gap:1em;flex-wrap:wrap;font-size:.9em;margin:.4em 0}
""" % {"w": FIGURE_WIDTH_PX} + "".join(f"table.grid td.{k},ul.legend span.{k}{{background:{bg};color:{fg}}}"
                                         for k, (bg, fg, _) in GRID_COLOURS.items())


@dataclass(frozen=True)
class Link:
    """A table cell that links somewhere (a relative file or ``#anchor``); its text in the CSV."""

    text: str
    href: str
    data: str = ""  # an outcome the ledger's filter selects when the link is followed ("" none)
    title: str = ""  # what the link opens, when its text is short (e.g. "fig" for a figure's name)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class GridRef:
    """The answer grid as an HTML table: cell texts, their CSS classes (:data:`GRID_COLOURS`) and
    hover texts, the legend shown above it, the CSV it was built from and a PNG to download."""

    frame: pd.DataFrame
    classes: pd.DataFrame
    titles: pd.DataFrame
    csv: str
    caption: str
    png: str = ""
    notes: tuple = ()
    header: tuple = ()


@dataclass
class Section:
    """One report section: blocks of (kind, payload) in order, and its verdict.

    Blocks are ``("p", text)``, ``("note", text)``, ``("h3", text)``,
    ``("figure", FigureRef)``, ``("table", TableRef)`` and ``("ledger",
    TableRef)`` (rows of the claims ledger, cells may be :class:`Link`).
    ``summary`` is what the section measured (its render's return value);
    ``verdict`` holds the ledger's verdict sentences of the section's claims,
    the only verdicts the page asserts.  The page shows the verdicts first,
    with the key figure (the one added with ``key=True``, else the first),
    folds the other blocks into a ``<details>`` element and shows the ledger
    blocks after it.
    """

    title: str
    anchor: str
    blocks: list = field(default_factory=list)
    verdict: list = field(default_factory=list)
    summary: str = ""
    key: FigureRef | None = None
    answer: list = field(default_factory=list)  # (rank, [str | Link, ...]) sentences for the page's first screen

    def p(self, text: str):
        self.blocks.append(("p", text))

    def note(self, text: str):
        self.blocks.append(("note", text))

    def h3(self, text: str):
        self.blocks.append(("h3", text))

    def figure(self, ref: FigureRef, *, key: bool = False):
        """Add a figure; ``key=True`` makes it the one shown beside the verdict."""
        self.blocks.append(("figure", ref))
        if key:
            self.key = ref

    def key_figure(self) -> FigureRef | GridRef | None:
        """The figure (or grid) the section opens with: the one marked key, else the first figure."""
        if self.key is not None:
            return self.key
        return next((b for kind, b in self.blocks if kind == "figure"), None)

    def table(self, ref: TableRef):
        self.blocks.append(("table", ref))

    def ledger(self, ref: TableRef):
        self.blocks.append(("ledger", ref))

    def grid(self, ref: GridRef, *, key: bool = True):
        """Add the answer grid (an HTML table); ``key=True`` shows it first, before the details."""
        self.blocks.append(("grid", ref))
        if key:
            self.key = ref

    def files(self) -> list[str]:
        """Relative paths of every file the section links to."""
        out = []
        for kind, b in self.blocks:
            if kind == "figure":
                out += [b.png, b.csv]
            elif kind == "grid":
                out += [b.csv] + ([b.png] if b.png else [])
            elif kind in ("table", "ledger"):
                out.append(b.csv)
                out += [v.href for v in b.frame.to_numpy().ravel()
                        if isinstance(v, Link) and not v.href.startswith("#")]
        return out


def _cell_html(v) -> str:
    if isinstance(v, Link):
        data = (f" data-outcome=\"{html.escape(v.data)}\"" if v.data else "") + (
            f" title=\"{html.escape(v.title)}\"" if v.title else "")
        return f"<a href=\"{html.escape(v.href)}\"{data}>{html.escape(v.text)}</a>"
    if isinstance(v, (list, tuple)):
        return " ".join(_cell_html(x) for x in v)
    return html.escape(v if isinstance(v, str) else fmt_num(v))


def _table_html(t: TableRef, cls: str = "") -> str:
    df = t.frame
    head = "".join(f"<th scope=\"col\">{html.escape(str(c))}</th>" for c in df.columns)
    body = []
    for _, row in df.iterrows():
        vals = row.tolist()
        cells = "".join(f"<th scope=\"row\">{_cell_html(v)}</th>" if j == 0 else f"<td>{_cell_html(v)}</td>"
                        for j, v in enumerate(vals))
        body.append(f"<tr>{cells}</tr>")
    klass = f" class=\"{cls}\"" if cls else ""
    return (f"<table{klass}><caption>{html.escape(t.caption)} "
            f"(<a href=\"{html.escape(t.csv)}\">CSV</a>)</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")


def anchor_id(claim_id: str) -> str:
    """The ledger row's HTML id of a claim (``claim-`` and the id, other characters than letters,
    digits, '-' and '_' as '-'): the target of every link to a claim."""
    return "claim-" + re.sub(r"[^A-Za-z0-9_-]", "-", str(claim_id))


def _segments_html(parts) -> str:
    """A sentence given as text and :class:`Link` pieces."""
    return "".join(_cell_html(x) if isinstance(x, Link) else html.escape(str(x)) for x in parts)


def _figure_html(b: FigureRef) -> str:
    src = html.escape(b.png)
    size = f" width=\"{b.size[0]}\" height=\"{b.size[1]}\"" if len(getattr(b, "size", ())) == 2 else ""
    return (f"<figure><a href=\"{src}\"><img src=\"{src}\" alt=\"{html.escape(b.alt)}\"{size} "
            f"loading=\"lazy\" decoding=\"async\"></a>"
            f"<figcaption>{html.escape(b.caption)} "
            f"(<a href=\"{html.escape(b.csv)}\">data CSV</a>)</figcaption></figure>")


def _grid_html(g: GridRef) -> str:
    """Legend, then the grid: text at body size, each cell's colour class and hover text."""
    legend = "".join(f"<li><span class=\"sw {k}\">κ</span>{html.escape(meaning)}</li>"
                     for k, (_, _, meaning) in GRID_COLOURS.items()) + (
        "<li><span class=\"sw ends\">κ</span>ladder ends before the cell fails: the limit lies above</li>")
    heads = g.header or tuple(g.frame.columns)
    head = "".join(f"<th scope=\"col\">{html.escape(str(c)).replace(' (u = ', '<small>u = ').rstrip(')')}"
                   f"{'</small>' if ' (u = ' in str(c) else ''}</th>" for c in heads)
    body = []
    for i in range(len(g.frame)):
        cells = []
        for j, col in enumerate(g.frame.columns):
            text, cls, title = g.frame.iat[i, j], g.classes.iat[i, j], g.titles.iat[i, j]
            lines = str(text).split("\n")
            inner = html.escape(lines[0]) + "".join(f"<small>{html.escape(x)}</small>" for x in lines[1:])
            attrs = (f" class=\"{html.escape(cls)}\"" if cls else "") + (
                f" title=\"{html.escape(title)}\"" if title else "")
            tag = "th scope=\"row\"" if j == 0 else "td"
            cells.append(f"<{tag}{attrs}>{inner}</{tag.split()[0]}>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    png = f", <a href=\"{html.escape(g.png)}\">PNG</a>" if g.png else ""
    notes = "".join(f"<p class=\"meta\">{html.escape(n)}</p>" for n in g.notes)
    return (f"<ul class=\"legend\" aria-label=\"Legend of the grid\">{legend}</ul>"
            f"<table class=\"grid\"><caption>{html.escape(g.caption)} "
            f"(<a href=\"{html.escape(g.csv)}\">CSV</a>{png})</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{notes}")


#: Columns of a ledger table (:func:`~.ledger.ledger_table`) the compact rendering reads.
LEDGER_COLUMNS = ("id", "paper", "where", "claim", "outcome", "ours", "printed", "interval", "evidence",
                  "words", "rule", "sentence")


def _base_outcome(outcome: str) -> str:
    """The outcome without its qualifier ('holds on the stand-in …' -> 'holds', 'holds only when x' ->
    'holds only when'): what the filter selects."""
    for o in ("holds only when", "holds on the stand-in"):
        if outcome.startswith(o):
            return "holds only when" if o == "holds only when" else "holds"
    return outcome


def _badge_text(outcome: str) -> str:
    """The badge: the outcome, 'holds (stand-in)' on stand-in data, the condition left to the sentence."""
    return "holds (stand-in)" if outcome.startswith("holds on the stand-in") else _base_outcome(outcome)


def _ledger_row(r: dict) -> str:
    """One claim: id (the anchor), where, the claim phrase with the words, rule and sentence folded
    under it, the verdict badge, our number, the printed one, the interval and the evidence."""
    base = _base_outcome(r["outcome"])
    badge = "b-" + re.sub(r"[^a-z]+", "-", base).strip("-")
    folded = (f"<details><summary>{html.escape(r['claim'])}</summary>"
              + (f"<p>Paper: {html.escape(r['words'])}</p>" if r["words"] else "")
              + f"<p>Rule: {html.escape(r['rule'])}</p><p class=\"sentence\">{html.escape(r['sentence'])}</p>"
              + (f"<p>{html.escape(r['full'])}</p>" if r.get("full") else "") + "</details>")
    return (f"<tr id=\"{anchor_id(r['id'])}\" data-paper=\"{html.escape(r['paper'])}\" "
            f"data-outcome=\"{html.escape(base)}\">"
            f"<th scope=\"row\">{html.escape(r['id'])}"
            f"<small> {html.escape(r['where'])}</small></th><td>{folded}</td>"
            f"<td><span class=\"badge {badge}\">{html.escape(_badge_text(r['outcome']))}</span></td>"
            f"<td>{html.escape(r['ours'])}</td><td>{html.escape(r['printed'])}</td>"
            f"<td>{html.escape(r['interval'])}</td><td>{_cell_html(r['evidence'])}</td></tr>")


_LEDGER_JS = """(function(){var t=document.getElementById('ledger-table');if(!t)return;
var b=t.tBodies[0],fp=document.getElementById('f-paper'),fo=document.getElementById('f-outcome');
function f(){for(var r of b.rows){var ok=(!fp.value||r.dataset.paper==fp.value)&&
(!fo.value||r.dataset.outcome==fo.value);r.hidden=!ok;}}
fp.onchange=f;fo.onchange=f;
document.querySelectorAll('a[data-outcome]').forEach(function(a){a.addEventListener('click',function(){
fp.value='';fo.value=a.dataset.outcome;f();});});
t.tHead.querySelectorAll('th').forEach(function(h,i){h.title='sort';h.onclick=function(){
var d=h.dataset.d=h.dataset.d=='1'?'-1':'1',rs=Array.from(b.rows);
rs.sort(function(x,y){return d*x.cells[i].textContent.localeCompare(y.cells[i].textContent,undefined,
{numeric:true});});rs.forEach(function(r){b.appendChild(r);});};});})();"""


def _ledger_html(t: TableRef) -> str:
    """The claims ledger as one compact table, filterable by paper and verdict and sortable by any
    column (an inline script: works offline, and without it the table is complete)."""
    rows = t.frame.to_dict("records")
    opts = lambda vals: "<option value=\"\">all</option>" + "".join(  # noqa: E731
        f"<option>{html.escape(v)}</option>" for v in dict.fromkeys(vals))
    outcomes = [_base_outcome(r["outcome"]) for r in rows]
    heads = ("id, where", "claim (click: the paper's words, rule, verdict)", "verdict", "ours", "printed",
             "interval", "evidence")
    widths = (12, 26, 10, 23, 13, 11, 5)
    cols = "".join(f"<col style=\"width:{w}%\">" for w in widths)
    head = "".join(f"<th scope=\"col\">{h}</th>" for h in heads)
    return (f"<div class=\"filters\"><label>paper <select id=\"f-paper\">{opts(r['paper'] for r in rows)}"
            f"</select></label><label>verdict <select id=\"f-outcome\">{opts(outcomes)}</select></label>"
            f"<span>click a column head to sort</span></div>"
            f"<table class=\"ledger\" id=\"ledger-table\"><caption>{html.escape(t.caption)} "
            f"(<a href=\"{html.escape(t.csv)}\">CSV</a>)</caption><colgroup>{cols}</colgroup>"
            f"<thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(_ledger_row(r) for r in rows)}</tbody></table><script>{_LEDGER_JS}</script>")


def _block_html(kind, b) -> str:
    if kind == "ledger" and all(c in b.frame.columns for c in LEDGER_COLUMNS):
        return _ledger_html(b)
    if kind == "p":
        return f"<p>{html.escape(b)}</p>"
    if kind == "note":
        return f"<p class=\"note\">{html.escape(b)}</p>"
    if kind == "h3":
        return f"<h3>{html.escape(b)}</h3>"
    if kind == "figure":
        return _figure_html(b)
    if kind == "table":
        return _table_html(b)
    if kind == "ledger":
        return _table_html(b, "ledger")
    if kind == "grid":
        return _grid_html(b)
    raise ValueError(f"expected a block kind in p/note/h3/figure/table/ledger/grid, got {kind!r}")


def _summary(blocks) -> str:
    """What the folded part holds, e.g. 'Details: 12 paragraphs, 3 figures, 4 tables'."""
    names = {"p": "paragraph", "note": "note", "figure": "figure", "table": "table", "grid": "grid"}
    counts = {}
    for kind, _ in blocks:
        if kind in names:
            counts[names[kind]] = counts.get(names[kind], 0) + 1
    return "Details: " + (", ".join(f"{n} {k}{'s' if n > 1 else ''}" for k, n in counts.items())
                          or "nothing more")


#: The outcomes a verdict sentence starts with, in the order the summary counts them, and the
#: plural phrase it counts them with (no verdict wording: the page gate keeps that to the ledger).
_TALLY = (("does not hold", "do not hold"), ("not reproduced", "not reproduced"),
          ("holds only when", "hold under a condition"), ("holds", "hold"),
          ("undecided", "undecided"), ("not testable offline", "not testable offline"), ("not run", "not run"))


def verdict_tally(sentences) -> dict[str, list[str]]:
    """``{phrase: [claim ids]}`` of a section's ``"id: sentence"`` verdicts, in :data:`_TALLY` order."""
    out: dict[str, list[str]] = {}
    for item in sentences:
        cid, _, sentence = item.partition(": ")
        for outcome, phrase in _TALLY:
            if sentence.startswith(outcome):
                out.setdefault(phrase, []).append(cid)
                break
    return {phrase: out[phrase] for _, phrase in _TALLY if phrase in out}


def _id_links(ids) -> str:
    return ", ".join(f"<a href=\"#{anchor_id(i)}\">{html.escape(i)}</a>" for i in ids)


def _verdict_summary(s: Section) -> str:
    """The section's claims by outcome, each id a link to its ledger row (the rows are not repeated)."""
    tally = verdict_tally(s.verdict)
    lines = [f"<p><strong>{len(s.verdict)} claims of the papers are judged here</strong> "
             f"(their rows in <a href=\"#ledger\">the ledger</a>):</p>"]
    lines += [f"<p>{len(ids)} {html.escape(phrase)}: {_id_links(ids)}.</p>" for phrase, ids in tally.items()]
    return f"<div class=\"verdict-summary\">{''.join(lines)}</div>"


def _section_html(s: Section) -> list[str]:
    """A section: heading, key figure (or grid), its claims by outcome linked to the ledger, the
    measured summary, then the rest of its blocks in a <details>; a ledger block shows in place."""
    key = s.key_figure()
    rest = [(k, b) for k, b in s.blocks if not (k in ("figure", "grid") and b is key) and k != "ledger"]
    ledger = [(k, b) for k, b in s.blocks if k == "ledger"]
    parts = [f"<section id=\"{html.escape(s.anchor)}\">", f"<h2>{html.escape(s.title)}</h2>"]
    if key is not None:
        parts.append(_grid_html(key) if isinstance(key, GridRef) else _figure_html(key))
    if s.verdict:
        parts.append(_verdict_summary(s))
    if s.summary:
        parts.append(f"<p class=\"summary\"><strong>Measured.</strong> {html.escape(s.summary)}</p>")
    if rest:
        parts.append(f"<details><summary>{html.escape(_summary(rest))}</summary>")
        parts += [_block_html(k, b) for k, b in rest]
        parts.append("</details>")
    parts += [_block_html(k, b) for k, b in ledger]
    parts.append("</section>")
    return parts


def render_page(title: str, sections: list[Section], *, meta: list[str] = ()) -> str:
    """The whole page as a string: the answer (the sections' ``answer`` sentences, by rank) under the
    title, the provenance lines, then the sections beside a sticky table of contents."""
    toc = "".join(f"<li><a href=\"#{html.escape(s.anchor)}\">{html.escape(s.title)}</a></li>"
                  for s in sections)
    answer = sorted((a for s in sections for a in s.answer), key=lambda a: a[0])
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
             f"<meta name=\"generator\" content=\"{GENERATOR}\">"
             f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
             "<div class=\"layout\">",
             f"<nav class=\"toc\" aria-label=\"Contents\"><strong>Contents</strong><ol>{toc}</ol></nav>",
             f"<main><h1>{html.escape(title)}</h1>"]
    if answer:
        parts.append("<div class=\"answer\" id=\"answer\">"
                     + "".join(f"<p>{_segments_html(seg)}</p>" for _, seg in answer) + "</div>")
    parts += [f"<p class=\"meta\">{html.escape(m)}</p>" for m in meta]
    for s in sections:
        parts += _section_html(s)
    parts.append("</main></div></body></html>")
    return "\n".join(parts)


def write_page(out_dir: Path, title: str, sections: list[Section], *, meta=()) -> Path:
    """Write ``index.html``; check that every linked file exists first.

    Raises
    ------
    FileNotFoundError
        If a section links to a file that was not written.
    """
    out_dir = Path(out_dir)
    missing = [f for s in sections for f in s.files() if not (out_dir / f).is_file()]
    if missing:
        raise FileNotFoundError(f"expected every linked file in {out_dir}, got missing {missing}")
    path = out_dir / "index.html"
    path.write_text(render_page(title, sections, meta=list(meta)), encoding="utf-8")
    return path



class _LinkParser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        self.links += [v for k, v in attrs if k in ("src", "href") and v and not v.startswith("#")]


def linked_files(page: Path) -> list[str] | None:
    """Relative file links of a page this module wrote, or None if ``page`` is not one."""
    page = Path(page)
    if not page.is_file():
        return None
    text = page.read_text(encoding="utf-8", errors="replace")
    if f'content="{GENERATOR}"' not in text:
        return None
    parser = _LinkParser()
    parser.feed(text)
    return [v for v in parser.links if "/" not in v and "\\" not in v and ":" not in v]
