"""The claims tables as the book renders them: one chapter's claims (:func:`claims_table`) and
the introduction's scorecard over all chapters (:func:`scorecard_table`).

What a claim is and how its verdict is reached is :mod:`gameai.core.claims`; this module only draws
them: a verdict badge, the paper's value with the digits it printed, ours with its CI, and the note,
folded where it is long.
"""

from __future__ import annotations

import html
import math
import os
import re
from typing import Any, Callable, Mapping, Sequence

import pandas as pd

from ..core.claims import (BY_CHANCE, FAMILY_MIN, VERDICTS, _finite, _is_number, _maybe_number,
                           expected_by_chance, family_counts, family_sentence, judged, scorecard,
                           scorecard_families, verdict_count)
from ..core.numbers import range_separator
from .display import save_table

# ------------------------------------------------------------------------------- rendering
#: Symbol, colour and short meaning of each verdict, as the rendered tables show them.
VERDICT_STYLE = {
    "reproduced": ("\u2714", "#1a7f37", "#dafbe1", "the paper's value (as printed) meets our 95 % CI"),
    "consistent": ("\u2248", "#1a7f37", "#eef9f0", "outside our 95 % CI, but within the sampling "
                   "error of both studies together"),
    "holds": ("\u2714", "#1a7f37", "#dafbe1", "a qualitative claim our results confirm"),
    "differs": ("\u2716", "#b3261e", "#ffebe9", "beyond the sampling error of both studies "
                "together (or outside our 95 % CI where the paper gives no n)"),
    "not comparable": ("\u2013", "#57606a", "#eaeef2", "shown beside ours, not judged: its "
                       "unit or setting is not ours to match"),
    "fails": ("\u2716", "#b3261e", "#ffebe9", "a qualitative claim our results contradict"),
    "undecided": ("?", "#9a6700", "#fff8c5", "a qualitative claim our games can neither confirm "
                  "nor contradict at the stated margin (the note says how many would decide)"),
    "pending": ("\u2026", "#57606a", "#eaeef2", "not computed yet"),
    "planned": ("\u25cb", "#57606a", "#f6f8fa", "no claims of this chapter in this build's "
                "results (a rerun of another chapter)"),
}

_CSS = """<style>
.gameai-claims{border-collapse:collapse;width:100%!important;table-layout:fixed!important;font-size:0.86em;line-height:1.35;margin:0.5em 0 1em}
.gameai-claims.gameai-scorecard{table-layout:auto!important;width:100%!important;font-size:0.9em}
.gameai-claims.gameai-scorecard th{white-space:normal;vertical-align:bottom;padding:4px 3px;font-size:0.85em}
.gameai-scorecard th .gameai-verdict{padding:0 3px;white-space:normal;border-radius:6px}
.gameai-claims.gameai-scorecard td{padding:3px 4px}
.gameai-scorecard tr.planned td{color:#57606a}
.gameai-claims th{background:#f6f8fa;text-align:left;padding:4px 6px;border-bottom:2px solid #d0d7de;white-space:nowrap}
.gameai-claims td{padding:3px 6px;vertical-align:top;border:none}
.gameai-claims tr.claim td{border-top:1px solid #d0d7de}
.gameai-claims tr.group td{background:#f6f8fa;font-weight:600;padding-top:8px;border-top:2px solid #d0d7de}
.gameai-claims td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
.gameai-claims .cid{color:#57606a;font-family:monospace;font-size:0.78em}
.gameai-claims tr.note td{padding:0 6px 4px 2.2em;color:#424a53;font-size:0.92em}
.gameai-claims tr.claim.has-note td{padding-bottom:0}
.gameai-claims details summary{cursor:pointer}
.gameai-unfold{margin:0 0.4em 0 0;vertical-align:middle}
.gameai-unfold-label{font-size:0.86em;color:#424a53;cursor:pointer}
.gameai-unfold:not(:checked) ~ table tr.folded{display:none}
.gameai-unfold:checked ~ table tr.foldnote{display:none}
.gameai-claims tr.foldnote td{color:#57606a;font-style:italic;font-size:0.9em;border-top:1px solid #d0d7de}
.gameai-verdict{display:inline-block;padding:0 6px;border-radius:10px;font-weight:600;white-space:nowrap}
.gameai-claims td.txt{white-space:normal;font-size:0.95em}
.gameai-claims td.txt b{font-weight:600;color:#57606a}
.gameai-claims-legend{font-size:0.85em;color:#424a53;margin:0.3em 0}
</style>"""


#: Widest CI (characters) kept on one line; a wider one breaks after its dash.
_CI_ONE_LINE = 15


def _cols(widths: Sequence[int]) -> str:
    """Column widths of the claims table: the verdict badge, the description (the rest), and
    the paper / ours / CI / n columns sized in ``ch`` (one digit) to their longest entry, so
    that large values never run into their neighbours while the layout stays fixed (the table
    never grows past the page)."""
    num = "".join(f'<col style="width:{max(w, 3) + 2}ch">' for w in widths)
    return f'<colgroup><col style="width:8.8em"><col>{num}</colgroup>'


def _verdict_badge(verdict: str, count: int | None = None) -> str:
    sym, fg, bg, meaning = VERDICT_STYLE.get(verdict, ("?", "#000", "#fff", verdict))
    text = f"{sym} {verdict}" if count is None else f"{sym} {count}"
    return (f'<span class="gameai-verdict" title="{html.escape(meaning)}" '
            f'style="color:{fg};background:{bg}">{html.escape(text)}</span>')


def _fmt_value(v: Any, percent: bool, decimals: int) -> str:
    """A value as the table shows it; NaN and None as nothing."""
    if v is None:
        return ""
    if _is_number(v):
        if math.isnan(v):
            return ""
        return f"{v * 100:z.{decimals}f}\u00a0%" if percent else f"{v:z,.{decimals}f}"  # never -0.0
    text = str(v)
    return "" if text.strip().lower() in ("nan", "none", "<na>") else html.escape(text)


def _fmt_paper(v: Any, step: float, percent: bool) -> str:
    """The paper's value with as many digits as it printed (its rounding step)."""
    if not _finite(v):
        return _fmt_value(v, percent, 0)
    unit = step * 100 if percent else step
    decimals = 0 if not unit or unit >= 1 else max(0, -math.floor(math.log10(unit) + 1e-9))
    if not unit:
        decimals = 1 if percent else 3
    return _fmt_value(v, percent, decimals)


def _in_words(paper: Any, ours: Any) -> bool:
    """A claim stated in words (qualitative): its values need room to wrap."""
    return any(isinstance(v, str) and v.strip() and _maybe_number(v) is v for v in (paper, ours))


def claims_anchor(chapter: str) -> str:
    """The HTML id of a chapter's rendered claims table (the scorecard links to it)."""
    return f"claims-{chapter}"


def claim_anchor(chapter: str, claim: str) -> str:
    """The HTML id of one claim's row in the rendered table (``#claim-frankszoo-predictor.accuracy``)."""
    return f"claim-{chapter}-{claim}"


def _split_note(note: str, limit: int) -> tuple[str, str]:
    """The sentences of a long note that fit in ``limit`` characters (shown) and the rest
    (folded away); a first sentence longer than that is cut at a word, with an ellipsis."""
    note = note.strip()
    if len(note) <= limit:
        return note, ""
    ends = [m.end() for m in re.finditer(r"(?<=[.;])\s+(?=[A-Z(])", note) if m.end() <= limit + 1]
    if ends:
        cut = ends[-1]
        return note[:cut].strip(), note[cut:].strip()
    cut = note.rfind(" ", 0, limit)
    cut = cut if cut > 0 else limit
    return note[:cut].strip() + " \u2026", note[cut:].strip()


def _short_description(text: str, max_label: int = 60) -> str:
    """A description without its leading label (``"Fig. 2 HeuristicAI: mean win %"`` ->
    ``"mean win %"``), for rows under a group heading that already says it."""
    head, sep, rest = text.partition(": ")
    return rest if sep and len(head) <= max_label and rest else text


def claims_table(
    claims: pd.DataFrame,
    chapter: str,
    *,
    percent: bool | Callable[[str], bool] = True,
    decimals: int | Callable[[str], int] = 1,
    group: Callable[[str], str] | Mapping[str, str] | None = None,
    note_limit: int = 120,
    caption: str | None = None,
    drop_labels: bool = True,
    fold: Callable[[str, str], bool] | None = None,
):
    """The claims table as the book shows it (an ``IPython.display.HTML`` object).

    One compact row per claim: a coloured verdict badge (\u2714 reproduced/holds, \u2716
    differs/fails, \u2026 pending), the description with its claim id, the paper's value with
    the digits it printed, ours, our 95 % CI and n (numeric columns as wide as their longest
    entry; a long CI breaks after its dash). Each note sits on its own full-width line
    below its claim; a note longer than ``note_limit`` characters shows its first sentence and
    folds the rest into a ``<details>`` block. NaN is shown as nothing.

    ``claims`` is :func:`read_claims`'s frame; ``chapter`` names the chapter (the table's HTML id
    is :func:`claims_anchor`, and every row carries ``data-claim`` so that
    :mod:`gameai.book.htmlcheck` can compare the rendered table with ``claims.csv``).
    ``percent`` says whether numeric values are fractions shown as percentages (a bool, or a
    function of the claim id), and ``decimals`` the digits shown of ours and the CI (an int or
    a function of the claim id); ``group`` maps a claim id (a function, or a mapping of id
    prefixes to headings) to a group heading row; under a heading, a description's leading
    label (the text before its first ``": "``) is left out, since the heading says it, unless
    ``drop_labels`` is false (a chapter whose labels say what its headings do not, such as the
    configuration a row measures).

    ``fold(claim id, verdict)`` true folds a row away (a chapter with a long table keeps, say,
    the cells that differ in view): each group says how many of its rows are folded, and a
    checkbox above the table shows them all. Folded rows stay in the page (hidden by CSS), so
    links, search and :mod:`gameai.book.htmlcheck` still find every claim.
    """
    from IPython.display import HTML

    def is_percent(cid: str) -> bool:
        return percent(cid) if callable(percent) else bool(percent)

    def digits(cid: str) -> int:
        return int(decimals(cid)) if callable(decimals) else int(decimals)

    def group_of(cid: str) -> str | None:
        if group is None:
            return None
        if callable(group):
            return group(cid)
        best = max((p for p in group if cid.startswith(p)), key=len, default=None)
        return group[best] if best is not None else None

    counts = claims["verdict"].value_counts()
    legend = " ".join(_verdict_badge(v) + f" {int(counts.get(v, 0))}" for v in VERDICTS
                      if counts.get(v, 0))
    if judged(claims):
        legend += (f" &nbsp;Chance alone would make about {expected_by_chance(claims):.1f} of the "
                   f"{judged(claims)} judged numbers <em>differ</em> (5 % each) even if every "
                   "paper value were right.")
    head = ("<tr><th>verdict</th><th>claim</th><th>paper</th><th>ours</th>"
            "<th>our 95 % CI</th><th>n</th></tr>")
    rows, last_group, folded, n_folded = [], object(), [], 0
    widths = [len("paper"), len("ours"), len("our 95 % CI"), len("n")]  # headers
    for r in claims.itertuples(index=False):
        cid = str(r.claim)
        g = group_of(cid)
        if g != last_group:
            rows += _fold_note(folded)
            folded = []
        if g is not None and g != last_group:
            rows.append(f'<tr class="group"><td colspan="6">{html.escape(g)}'
                        f'{_group_family(claims, group_of, g)}</td></tr>')
        last_group = g
        hide = bool(fold is not None and fold(cid, str(r.verdict)))
        if hide:
            folded.append(str(r.verdict))
            n_folded += 1
        pct, dec = is_percent(cid), digits(cid)
        step = float(getattr(r, "step", 0.0) or 0.0)
        ci = ""
        if _finite(r.ci_low) and _finite(r.ci_high):
            low, high = _fmt_value(r.ci_low, pct, dec), _fmt_value(r.ci_high, pct, dec)
            sep = range_separator(low, high)
            low = low[:-2] if pct else low  # one unit, after the upper end
            if len(low + sep.rstrip()) + len(high) > _CI_ONE_LINE:
                ci = f"{low}{sep.rstrip()}<br>{high}"  # a long CI breaks after its separator
                widths[2] = max(widths[2], len(low + sep.rstrip()), len(high))
            else:
                ci = low + sep + high
                widths[2] = max(widths[2], len(ci))
        n = f"{int(r.n):,}" if _finite(r.n) and r.n > 0 else ""
        paper_txt, ours_txt = _fmt_paper(r.paper, step, pct), _fmt_value(r.ours, pct, dec)
        words = _in_words(r.paper, r.ours)
        if not words:
            widths[0] = max(widths[0], len(paper_txt))
            widths[1] = max(widths[1], len(ours_txt))
        widths[3] = max(widths[3], len(n))
        note = str(r.note or "").strip()
        desc = str(r.description)
        if g is not None and drop_labels:
            desc = _short_description(desc)
        # The claim id sits on the note's line (or beside a description without a note), so a
        # claim takes two lines; every row is a link target: #claim-<chapter>-<id>.
        id_html = (f'<span class="cid" title="the claim\'s id in the chapter\'s claims.csv, '
                   f'for citing">{html.escape(cid)}</span>')
        rows.append(
            f'<tr class="claim{" has-note" if note else ""}{" folded" if hide else ""}" '
            f'data-claim="{html.escape(cid)}" '
            f'id="{html.escape(claim_anchor(chapter, cid))}">'
            f"<td>{_verdict_badge(str(r.verdict))}</td>"
            f'<td title="{html.escape(cid)}">{html.escape(desc)}{"" if note else " " + id_html}</td>'
            + (f'<td class="num">{paper_txt}</td><td class="num">{ours_txt}</td>'
               f'<td class="num">{ci}</td>' if not words else
               f'<td colspan="3" class="txt"><b>paper:</b> {_fmt_value(r.paper, pct, dec)}'
               f'<br><b>ours:</b> {ours_txt or "<em>not computed yet</em>"}</td>')
            + f'<td class="num">{n}</td></tr>')
        if note:
            shown, rest = _split_note(note, note_limit)
            body = html.escape(shown)
            if rest:
                body = (f"<details><summary>{body} <em>(more)</em></summary>"
                        f"{html.escape(rest)} {id_html}</details>")
            else:
                body = f"{body} {id_html}"
            rows.append(f'<tr class="note{" folded" if hide else ""}" '
                        f'data-note-of="{html.escape(cid)}"><td colspan="6">{body}</td></tr>')
    rows += _fold_note(folded)
    unfold = "" if not n_folded else (
        f'<input type="checkbox" class="gameai-unfold" id="unfold-{claims_anchor(chapter)}">'
        f'<label class="gameai-unfold-label" for="unfold-{claims_anchor(chapter)}">show the '
        f"{n_folded} folded rows too</label>")
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    out = (f'{_CSS}<div id="{claims_anchor(chapter)}">'
           f'<p class="gameai-claims-legend">{legend} &nbsp;({len(claims)} claims)</p>{unfold}'
           f'<table class="gameai-claims" data-chapter="{html.escape(chapter)}" '
           f'data-claims="{len(claims)}">{cap}{_cols(widths)}<thead>{head}</thead><tbody>{"".join(rows)}'
           f"</tbody></table></div>")
    save_table(f"tab-claims-{chapter}", claims)  # the numbered table's CSV
    return HTML(out)


def _group_family(claims: pd.DataFrame, group_of: Callable[[str], Any], g: str) -> str:
    """A group heading's family counts (:func:`family_sentence`) where the group holds at least
    :data:`FAMILY_MIN` judged numbers: how many differ, by chance, and after correction."""
    rows = claims[claims["claim"].map(lambda c: group_of(str(c)) == g)]
    counts = family_counts(rows, family=lambda _: g)
    if counts.empty:
        return ""
    return (' <span style="font-weight:normal">\u2014 '
            f"{html.escape(family_sentence(counts.iloc[0]))}</span>")


def _fold_note(verdicts: list[str]) -> list[str]:
    """The row that stands for a group's folded rows (shown while they are hidden)."""
    if not verdicts:
        return []
    tally = ", ".join(verdict_count(verdicts.count(v), v) for v in VERDICTS if v in verdicts)
    return [f'<tr class="foldnote"><td colspan="6">{len(verdicts)} more rows folded ({tally}): '
            "the box above the table shows them</td></tr>"]


def family_title(family: str) -> str:
    """A family's name for readers: ``"table3"`` -> "Table 3", ``"fig7"`` -> "Fig. 7", else
    its words (``"mc_weights"`` -> "mc weights")."""
    m = re.fullmatch(r"(table|fig)(\d+)", family)
    if m:
        return ("Table " if m.group(1) == "table" else "Fig. ") + m.group(2)
    return family.replace("_", " ")


def _scorecard_caption(data_dir, chapters, titles: Mapping[tuple[str, str], str]) -> str:
    """The scorecard's caption: what it counts, and each family of :data:`FAMILY_MIN` or more
    judged numbers with its counts before and after correction (:func:`family_sentence`)."""
    fams = scorecard_families(data_dir)
    names = {key: title for key, title, _ in chapters}
    lines = [f"{html.escape(names.get(r.chapter, r.chapter))}, "
             f"{html.escape(titles.get((r.chapter, r.family), family_title(r.family)))}: "
             f"{html.escape(family_sentence(r._asdict()))}"
             for r in fams.itertuples(index=False) if r.chapter in names]
    text = ("The scorecard: the claims of each chapter by verdict, each chapter linked to its "
            "claims table.")
    if lines:
        least = {10: "ten", 12: "twelve", 20: "twenty"}.get(FAMILY_MIN, str(FAMILY_MIN))
        text += (f" Families of {least} or more judged numbers (one paper table or "
                 "figure), also judged as a whole: " + "; ".join(lines) + ".")
    return f"<caption>{text}</caption>"


def scorecard_table(data_dir: str | os.PathLike,
                    chapters: Sequence[tuple[str, str, str]],
                    family_titles: Mapping[tuple[str, str], str] | None = None):
    """The book's scorecard (an ``IPython.display.HTML`` object): claims per verdict, per chapter.

    ``chapters`` lists ``(key, title, page)`` in book order, ``page`` being the chapter's HTML
    page relative to the page that shows the scorecard (``"frankszoo.html"``). A chapter with a
    ``data/<key>/claims.csv`` links to its claims table; one without (a rerun's book holds only
    the chapter it reran) shows as *not in this build*. The caption names every family of
    :data:`FAMILY_MIN` or more judged numbers with its counts before and after correction
    (``family_titles``: ``(chapter, family)`` -> the paper's name of it, e.g. "Table III").
    """
    from IPython.display import HTML

    card = scorecard(data_dir).set_index("chapter")
    # One column per chapter, one row per verdict: five chapters fit a page (and a phone) where
    # ten verdict columns did not. A verdict no chapter has is left out.
    head, present = [], []
    for key, title, page in chapters:
        if key in card.index:
            present.append(key)
            link = f'<a href="{html.escape(page)}#{claims_anchor(key)}">{html.escape(title)}</a>'
            head.append(f'<th class="num" data-chapter="{html.escape(key)}">{link}</th>')
        else:
            head.append(f'<th class="num planned" data-chapter="{html.escape(key)}" title="no '
                        f'claims of this chapter in this build">{html.escape(title)}</th>')
    shown = [v for v in VERDICTS if any(int(card.loc[k, v]) for k in present)]
    rows = []
    for v in shown:
        rows.append(f'<tr class="claim"><td>{_verdict_badge(v)}</td>' + "".join(
            f'<td class="num">{int(card.loc[key, v])}</td>' if key in card.index else
            '<td class="num planned">–</td>' for key, _, _ in chapters) + "</tr>")
        if v == "differs":
            rows.append('<tr class="claim"><td title="how many differs chance alone would give '
                        'among the judged numbers (5 % each) if every paper value were right">'
                        '<em>differs by chance</em></td>' + "".join(
                            f'<td class="num"><em>{card.loc[key, BY_CHANCE]:.1f}</em></td>'
                            if key in card.index else '<td class="num planned">–</td>'
                            for key, _, _ in chapters) + "</tr>")
    rows.append('<tr class="claim"><td><b>total</b></td>' + "".join(
        f'<td class="num"><b>{int(card.loc[key, "total"])}</b></td>' if key in card.index else
        f'<td class="num planned">{_verdict_badge("planned").replace("planned", "not in this build")}</td>'
        for key, _, _ in chapters) + "</tr>")
    caption = _scorecard_caption(data_dir, chapters, family_titles or {})
    out = (f'{_CSS}<div style="overflow-x:auto;max-width:100%">'
           f'<table class="gameai-claims gameai-scorecard">{caption}<thead><tr><th>verdict</th>'
           f'{"".join(head)}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>')
    save_table("tab-scorecard", card.reset_index())  # the numbered table's CSV
    return HTML(out)
