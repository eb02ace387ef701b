"""Checks over the built book's HTML: what a reader would see broken.

``check_html(html_dir, data_dir)`` walks every page of a built book and reports

* an image (``<img src>``, ``<source srcset>``, ``<object data>``) whose file does not exist;
* a table cell that shows a missing value: ``nan`` or ``NaT`` anywhere in it (``nan%``,
  ``nan / 3``), ``<NA>`` anywhere, or a cell that is just ``None`` / ``null``;
* a rendered claims table (``claims_table``'s ``<table class="gameai-claims" data-chapter=…>``)
  that lacks a row of its ``data/<chapter>/claims.csv``, or shows a row that is not in it;
* a chapter with a ``claims.csv`` whose claims table is not rendered on any page;
* a link to an anchor of the same page (``href="#claim-…"``) that no element carries;
* a page with formulas whose MathJax script is not a file of the book (a CDN copy leaves the
  formulas as raw TeX wherever the book is read offline).

From the command line (``make test`` runs it on the strict build)::

    python -m gameai.book.htmlcheck _build/html --data data

prints one line per problem and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pandas as pd

__all__ = ["check_html", "check_page", "main"]

#: Cell texts that mean a missing value leaked into a rendered table.
MISSING = re.compile(r"^\s*(none|null)\s*%?\s*$|\b(nan|nat)\b|<na>", re.IGNORECASE)
#: "None" is flagged only with this exact case ("none" is a word a note may use).
_WORDS_OK = {"none"}


@dataclass
class _Table:
    classes: set[str]
    chapter: str | None
    claims: list[str] = field(default_factory=list)


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.images: list[str] = []
        self.ids: set[str] = set()
        self.fragments: list[str] = []
        self.cells: list[str] = []
        self.tables: list[_Table] = []
        self.scripts: list[str] = []
        self.has_math = False
        self._stack: list[_Table] = []
        self._cell: list[str] | None = None
        self._skip = 0  # inside <script>/<style>

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and (a.get("href") or "").startswith("#") and len(a["href"]) > 1:
            self.fragments.append(unquote(a["href"][1:]))
        if "math" in (a.get("class") or "").split():
            self.has_math = True
        if tag in ("script", "style"):
            self._skip += 1
            if tag == "script" and a.get("src"):
                self.scripts.append(a["src"])
        elif tag == "img" and a.get("src"):
            self.images.append(a["src"])
        elif tag == "source" and a.get("srcset"):
            self.images += [part.strip().split(" ")[0] for part in a["srcset"].split(",")]
        elif tag == "object" and a.get("data"):
            self.images.append(a["data"])
        elif tag == "table":
            t = _Table(set((a.get("class") or "").split()), a.get("data-chapter"))
            self.tables.append(t)
            self._stack.append(t)
        elif tag == "tr" and self._stack and a.get("data-claim") is not None:
            self._stack[-1].claims.append(a["data-claim"])
        elif tag in ("td", "th") and self._stack:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        elif tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None
        elif tag == "table" and self._stack:
            self._stack.pop()

    def handle_data(self, data):
        if self._cell is not None and not self._skip:
            self._cell.append(data)


def _local_target(src: str, page: Path) -> Path | None:
    """The file an image reference points to, or None for remote and inline images."""
    parts = urlsplit(src)
    if parts.scheme or parts.netloc or src.startswith("data:"):
        return None
    path = unquote(parts.path)
    if not path:
        return None
    return (page.parent / path).resolve()


def check_page(page: Path, root: Path | None = None) -> tuple[list[str], list[_Table]]:
    """Problems of one HTML page (images, missing-value cells) and its claims tables."""
    page = Path(page)
    name = str(page.relative_to(root)) if root else str(page)
    p = _PageParser()
    p.feed(page.read_text(encoding="utf-8", errors="replace"))
    problems = []
    for src in p.images:
        target = _local_target(src, page)
        if target is not None and not target.is_file():
            problems.append(f"{name}: image {src!r} does not exist")
    for frag in sorted(set(p.fragments) - p.ids):
        problems.append(f"{name}: link to #{frag}, which no element of the page carries")
    for cell in p.cells:
        text = " ".join(cell.split())
        if MISSING.search(text) and not (text.lower() in _WORDS_OK and text != "None"):
            problems.append(f"{name}: table cell shows a missing value: {text[:60]!r}")
    if p.has_math:
        mathjax = [src for src in p.scripts if "mathjax" in src.lower()]
        local = [src for src in mathjax if (t := _local_target(src, page)) is not None
                 and t.is_file()]
        if not local:
            problems.append(f"{name}: formulas, but MathJax comes from "
                            f"{', '.join(mathjax) or 'nowhere'} (not a file of the book: raw TeX "
                            "offline)")
    claims_tables = [t for t in p.tables if "gameai-claims" in t.classes and t.chapter]
    return problems, claims_tables


def check_html(html_dir: str | Path, data_dir: str | Path | None = None) -> list[str]:
    """Every problem found in the built book under ``html_dir`` (an empty list when all is well).

    With ``data_dir``, every rendered claims table is compared with
    ``data_dir/<chapter>/claims.csv``, and every chapter with a ``claims.csv`` must have one.
    """
    root = Path(html_dir)
    pages = sorted(p for p in root.rglob("*.html")
                   if not any(part.startswith(("_static", "_sources", ".")) for part in
                              p.relative_to(root).parts))
    if not pages:
        return [f"{root}: no HTML pages (was the book built?)"]
    problems: list[str] = []
    rendered: dict[str, list[tuple[str, list[str]]]] = {}
    for page in pages:
        found, tables = check_page(page, root)
        problems += found
        for t in tables:
            rendered.setdefault(t.chapter, []).append((str(page.relative_to(root)), t.claims))
    if data_dir is not None:
        for csv in sorted(Path(data_dir).glob("*/claims.csv")):
            chapter = csv.parent.name
            ids = list(pd.read_csv(csv, dtype={"claim": str})["claim"])
            if chapter not in rendered:
                problems.append(f"{chapter}: claims.csv has {len(ids)} claims but no page "
                                "renders its claims table")
                continue
            for name, shown in rendered[chapter]:
                missing = [c for c in ids if c not in shown]
                extra = [c for c in shown if c not in ids]
                if missing:
                    problems.append(f"{name}: claims table of {chapter} lacks {len(missing)} of "
                                    f"{len(ids)} claims: {', '.join(missing[:5])}")
                if extra:
                    problems.append(f"{name}: claims table of {chapter} shows claims not in "
                                    f"claims.csv: {', '.join(extra[:5])}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gameai.book.htmlcheck",
                                 description="Check a built book's HTML for what a reader "
                                             "would see broken.")
    ap.add_argument("html_dir", help="the built HTML, e.g. _build/html")
    ap.add_argument("--data", default=None, help="data/ with the chapters' claims.csv")
    args = ap.parse_args(argv)
    problems = check_html(args.html_dir, args.data)
    for line in problems:
        print(line)
    n_pages = sum(1 for _ in Path(args.html_dir).rglob("*.html"))
    print(f"htmlcheck: {len(problems)} problem(s) in {args.html_dir} ({n_pages} pages)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
