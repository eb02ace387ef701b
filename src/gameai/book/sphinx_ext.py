"""The book's own Sphinx extension: citable figures and numbered tables.

Registered in ``_config.yml`` (``sphinx: extra_extensions: [gameai.book.sphinx_ext]``). It does three
things to the HTML book:

* **Figures.** For every figure whose ``:name:`` (or id) is a key that
  :func:`gameai.book.plots.glue_figure` saved beside the page's source (``book/_figures/
  <key>.svg|png|csv``), and whose shown image is that very PNG (checked by its SHA-256, which
  is the name myst-nb gives the image, so that stale files or a rerun's copy are never linked),
  the three files are copied into the HTML output's ``_figures/`` and a line
  ``Download: SVG · PNG · data (CSV)`` (class ``gameai-fig-links``) is appended under the
  caption. Every figure's image gets the first sentence of its caption as alt text, unless
  the figure gave one (``:alt:``).
* **Tables.** The tables of :func:`gameai.book.display.show` (``<figure class="gameai-table">``
  with a ``<figcaption>``) are numbered per chapter, "Table 2.3." (the chapter numbers of
  ``_toc.yml``'s ``numbered``, as Sphinx numbers the figures), after the build
  (:func:`number_tables`); each keeps
  the HTML id ``show`` gave it (its ``label=`` or one made from its caption), made unique on its
  page, so that ``page.html#tab-…`` links to it.
  The claims table of each chapter (:func:`gameai.book.claims_table.claims_table`, ``<div
  id="claims-<chapter>">``) and the introduction's scorecard (``claims.scorecard_table``) are
  numbered with them: each is first wrapped in such a ``<figure>`` whose caption is the
  table's own ``<caption>``, else :data:`CLAIMS_CAPTION` / :data:`SCORECARD_CAPTION`
  (:func:`wrap_claims_tables`), with the id ``tab-claims-<chapter>`` / ``tab-scorecard``.
* Each page's inline scripts once: Sphinx 7.4 writes a script that an extension registered
  with ``app.add_js_file(None, body=...)`` after the builder started twice (once as registered,
  once more from the registry when writing begins, with ``''`` for ``None`` as its file name,
  so the two do not compare equal). sphinx-thebe's ``const THEBE_JS_URL = ...`` then raises
  "Identifier 'THEBE_JS_URL' has already been declared" in every page's console
  (:func:`dedupe_scripts`, on ``html-page-context``).
* A small stylesheet (``_static/gameai-book.css``) for the links and the tables' scroll
  containers.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

from docutils import nodes

__all__ = ["setup", "number_tables", "wrap_claims_tables", "dedupe_scripts", "first_sentence",
           "FIGURES_DIRNAME", "CSS", "CLAIMS_CAPTION", "SCORECARD_CAPTION"]

FIGURES_DIRNAME = "_figures"  # beside the page's source, and in the HTML output
CSS_FILE = "gameai-book.css"
#: How far (CSS px) a table may reach into the right margin at 1,200 px and wider (in :data:`CSS`;
#: the browser check allows the same, :data:`gameai.book.browsercheck.TABLE_MARGIN_PX`).
TABLE_MARGIN_PX = 250
CSS = """\
/* gameai.book.sphinx_ext: figure downloads and show()'s tables */
p.gameai-fig-links { font-size: 0.85em; margin: 0.3em 0 0; }
p.gameai-fig-links a { white-space: nowrap; }
figure.gameai-table { margin: 1em 0 1.5em; max-width: 100%; min-width: 0; }
figure.gameai-table > figcaption { caption-side: top; font-size: 0.9em; text-align: left;
  margin: 0 0 0.3em; max-width: 100%; }
figure.gameai-table .gameai-table-number { font-weight: bold; }
div.gameai-table-scroll { overflow-x: auto; max-width: 100%; }
/* A file path or command in a table cell may break anywhere rather than push its column past
   the page (tests/core/test_store_safety.py has no space to break at). */
table td code.literal, table th code.literal,
table td code.literal span.pre, table th code.literal span.pre { white-space: normal;
  overflow-wrap: anywhere; }
/* A long address in a reference (an open copy's URL in a note) breaks rather than widen the
   page past a phone's screen. */
div.citation-list, div.citation-list .citation { overflow-wrap: anywhere; }
/* From 1,200 px on, a table too wide for the text column (its narrowest layout is wider) uses the
   right margin, which the page's Contents leave empty below their own height: the Contents scroll
   with the page instead of staying put, and the table's box may grow by TABLE_MARGIN_PX. */
@media (min-width: 1200px) {
  .bd-sidebar-secondary { position: static !important; max-height: none !important; }
  div.output:has(> figure.gameai-table), div.output:has(> div > figure.gameai-table) {
    overflow: visible !important; }
  figure.gameai-table div.gameai-table-scroll { position: relative; z-index: 20;
    background: var(--pst-color-background); width: fit-content;
    max-width: calc(100% + 250px) !important; }
  /* A claims table (a fixed layout, as wide as its box) takes the margin whole: its claims and
     notes get room, its numbers never hide behind a sideways scroll. */
  figure.gameai-claims-figure > div[id^="claims-"] { position: relative; z-index: 20;
    background: var(--pst-color-background); width: calc(100% + 250px);
    max-width: calc(100% + 250px) !important; }
}
/* A claims table's verdict badge may break into two lines ("not / comparable") rather than run
   into the claim beside it. */
table.gameai-claims:not(.gameai-scorecard) td:first-child .gameai-verdict { white-space: normal; }
"""

_ABBREVIATIONS = {"fig", "figs", "e.g", "i.e", "vs", "cf", "al", "no", "eq", "eqs", "sec",
                  "approx", "resp", "ca"}


def first_sentence(text: str, limit: int = 250) -> str:
    """The first sentence of a caption, for alt text: up to the first ``.``, ``!`` or ``?``
    followed by a space and a capital letter (not after "Fig." or "e.g."), without
    TeX markup; at most ``limit`` characters."""
    text = " ".join(text.replace("\\", "").replace("{", "").replace("}", "").split())
    for m in re.finditer(r"[.!?](?=\s+[\"'(\[]?[A-Z])", text):
        word = re.search(r"(\S+)$", text[:m.start()])
        w = word.group(1).lower().lstrip("(") if word else ""
        if w in _ABBREVIATIONS:
            continue
        text = text[:m.end()]
        break
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0] + "…"
    return text


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _saved_keys(folder: Path) -> dict[str, str]:
    """Lower-cased key -> key of the figures saved in ``folder`` (all three files present)."""
    if not folder.is_dir():
        return {}
    keys = {}
    for png in folder.glob("*.png"):
        key = png.stem
        if all((folder / f"{key}.{ext}").is_file() for ext in ("svg", "csv")):
            keys[key.lower()] = key
    return keys


def _figure_key(figure: nodes.figure, saved: dict[str, str]) -> str | None:
    for name in list(figure.get("names", ())) + list(figure.get("ids", ())):
        key = saved.get(str(name).lower())
        if key:
            return key
    return None


def _set_alt_text(figure: nodes.figure) -> None:
    captions = [c for c in figure.children if isinstance(c, nodes.caption)]
    if not captions:
        return
    alt = first_sentence(captions[0].astext())
    if not alt:
        return
    for image in figure.findall(nodes.image):
        if not image.get("alt"):
            image["alt"] = alt


def _links(key: str, uri_of) -> nodes.paragraph:
    para = nodes.paragraph("", "", classes=["gameai-fig-links"])
    para += nodes.Text("Download: ")
    parts = [("SVG", "svg", "the figure as a vector graphic (SVG)"),
             ("PNG", "png", "the figure as a PNG at high resolution"),
             ("data (CSV)", "csv", "the numbers plotted in this figure (CSV)")]
    for i, (text, ext, title) in enumerate(parts):
        if i:
            para += nodes.Text(" · ")
        para += nodes.reference(text, text, refuri=uri_of(f"{key}.{ext}"), reftitle=title,
                                internal=True)  # files of the book: no "external" style
    return para


def on_doctree_resolved(app, doctree: nodes.document, docname: str) -> None:
    from sphinx.util import logging
    from sphinx.util.osutil import relative_uri

    logger = logging.getLogger(__name__)
    is_html = getattr(app.builder, "format", "") == "html"
    folder = Path(app.env.doc2path(docname)).parent / FIGURES_DIRNAME
    saved = _saved_keys(folder) if is_html else {}
    out_dir = Path(app.outdir) / FIGURES_DIRNAME
    page_uri = app.builder.get_target_uri(docname) if is_html else ""
    for figure in list(doctree.findall(nodes.figure)):
        _set_alt_text(figure)
        key = _figure_key(figure, saved)
        if key is None:
            continue
        png = folder / f"{key}.png"
        uris = " ".join(str(img.get("uri", "")) + " " + " ".join(
            str(c) for c in (img.get("candidates") or {}).values())
            for img in figure.findall(nodes.image))
        if _sha256(png) not in uris:
            logger.info(f"gameai.book.sphinx_ext: {folder / key}.* is not the figure {key!r} shown on "
                        f"{docname} (stale or from another run): no download links")
            continue
        out_dir.mkdir(parents=True, exist_ok=True)
        for ext in ("svg", "png", "csv"):
            shutil.copyfile(folder / f"{key}.{ext}", out_dir / f"{key}.{ext}")
        from .plots import NARROW_SUFFIX

        narrow = folder / f"{key}{NARROW_SUFFIX}.png"
        if narrow.is_file():  # the phone version (phone_figures serves it)
            shutil.copyfile(narrow, out_dir / narrow.name)
        else:  # none now: an earlier build's must not be served
            (out_dir / narrow.name).unlink(missing_ok=True)
        links = _links(key, lambda name: relative_uri(page_uri, f"{FIGURES_DIRNAME}/{name}"))
        legends = [c for c in figure.children if isinstance(c, nodes.legend)]
        if legends:
            legends[0] += links
        else:
            figure += nodes.legend("", links)


# ------------------------------------------------------------------------------------------
# Tables: numbered in book order after the build
# ------------------------------------------------------------------------------------------

def book_order(env) -> list[str]:
    """The documents in the order of the table of contents (depth first from the root
    document), then any others, sorted."""
    order: list[str] = []
    seen: set[str] = set()

    def walk(doc: str) -> None:
        if doc in seen:
            return
        seen.add(doc)
        order.append(doc)
        for child in env.toctree_includes.get(doc, ()):
            walk(child)

    walk(env.config.root_doc)
    order += sorted(d for d in env.found_docs if d not in seen)
    return order


#: Caption of a chapter's claims table that brings none of its own.
CLAIMS_CAPTION = ("Claims: each number and statement of the publication beside ours, with its "
                  "verdict, our 95 % CI and n (the games, deals or positions behind our value); "
                  "the line under a claim says how it was judged.")
#: Caption of the introduction's scorecard.
SCORECARD_CAPTION = ("The scorecard: the claims of each chapter by verdict, each chapter linked "
                     "to its claims table.")


#: Narrowest width of a claims table's claim column (em of the table's font): about three words.
CLAIM_MIN_EM = 9


def _keep_claim_column(table, box) -> None:
    """Give a claims table a minimum width: its fixed columns (the ``<col>`` widths that
    ``claims_table`` sets in em and ch) plus :data:`CLAIM_MIN_EM` for the claim, and let its box
    scroll sideways. On a narrow screen, or beside wide numbers (tarok's node counts), the
    table-layout: fixed table otherwise shrinks the claim column to a word per line, or to
    nothing at 400 px."""
    import re

    ems, chs = 0.0, 0.0
    for col in table.select("colgroup > col"):
        m = re.search(r"width:\s*([\d.]+)(em|ch)", col.get("style", ""))
        if m:
            if m.group(2) == "em":
                ems += float(m.group(1))
            else:
                chs += float(m.group(1))
    if not ems and not chs:
        return
    style = table.get("style", "").rstrip("; ")
    table["style"] = ((style + "; ") if style else "") + \
        f"min-width: calc({ems + CLAIM_MIN_EM:g}em + {chs:g}ch)"
    style = box.get("style", "").rstrip("; ")
    box["style"] = ((style + "; ") if style else "") + "overflow-x: auto; max-width: 100%"


def wrap_claims_tables(soup) -> bool:
    """Wrap the claims tables of a parsed page (``claims_table``'s ``<div id="claims-…">``
    holding a ``<table class="gameai-claims">``, and the scorecard's scroll box holding a
    ``<table class="gameai-claims gameai-scorecard">``) in a ``<figure class="gameai-table">``
    with a ``<figcaption>`` above them, so that :func:`number_tables` numbers them like the
    tables of ``show``. The caption is the table's own ``<caption>`` (moved), else
    :data:`CLAIMS_CAPTION` or :data:`SCORECARD_CAPTION`; a claims table also keeps a readable
    claim column (:func:`_keep_claim_column`). A table already in such a figure is left alone.
    Returns whether the page changed."""
    from bs4 import BeautifulSoup

    changed = False
    for table in soup.select("table.gameai-claims"):
        if table.find_parent("figure", class_="gameai-table") is not None:
            continue
        scorecard = "gameai-scorecard" in (table.get("class") or [])
        box = table.parent
        if box is None or box.name != "div":
            continue
        if scorecard:
            ident = "tab-scorecard"
        elif str(box.get("id", "")).startswith("claims-"):
            ident = f"tab-{box['id']}"
        else:
            continue
        own = table.find("caption", recursive=False)
        if own is not None and own.get_text(strip=True):
            caption = own.decode_contents()
        else:
            caption = SCORECARD_CAPTION if scorecard else CLAIMS_CAPTION
        if own is not None:
            own.extract()
        if not scorecard:
            _keep_claim_column(table, box)
        fig = soup.new_tag("figure", attrs={"class": "gameai-table gameai-claims-figure",
                                            "id": ident})
        box.wrap(fig)
        cap = soup.new_tag("figcaption", attrs={"class": "gameai-table-caption"})
        cap.append(BeautifulSoup(caption, "html.parser"))
        fig.insert(0, cap)
        changed = True
    return changed


def number_tables(pages: list[str], start: int = 1,
                  chapters: list[str | None] | None = None) -> tuple[list[str], int]:
    """Number the tables of :func:`gameai.book.display.show` in the HTML ``pages`` (in book
    order). With ``chapters`` (one per page: its chapter number, e.g. ``"2"``, or ``None`` for
    an unnumbered page such as the introduction) a numbered page's tables are "Table 2.1",
    "Table 2.2", ... - per chapter, like Sphinx's figures, so that adding a table to one chapter
    never renumbers another, and a rerun book of one chapter numbers it as the published book
    does; the unnumbered pages share one sequence "Table 1", "Table 2", ... Without
    ``chapters`` every page is unnumbered. Each ``<figure class="gameai-table">`` gets its
    number in its caption's
    ``<span class="gameai-table-number">`` (made or replaced, so numbering a page twice gives
    the same page), a unique id on its page (its own, else ``tab-N``; ``-2``, ``-3``… when
    another element of the page carries it) and ``data-table-number``. The claims tables and
    the scorecard are wrapped into such figures first (:func:`wrap_claims_tables`) and
    numbered in the same sequence. Returns the pages (unchanged text where nothing changed)
    and the next free number."""
    from bs4 import BeautifulSoup

    n = start
    out = []
    for page, html in enumerate(pages):
        chapter = chapters[page] if chapters is not None else None
        if "gameai-table" not in html and "gameai-claims" not in html:
            out.append(html)
            continue
        soup = BeautifulSoup(html, "html.parser")
        wrap_claims_tables(soup)
        tables = soup.select("figure.gameai-table")
        if not tables:
            out.append(html)
            continue
        # ids of the page's other elements, and those given to its tables so far
        taken = {el["id"] for el in soup.find_all(id=True) if el not in tables}
        k_in_chapter = 1
        for fig in tables:
            number = f"{chapter}.{k_in_chapter}" if chapter else str(n)
            auto = not fig.get("id") or fig.get("data-auto-id") == "1"
            ident = f"tab-{number.replace('.', '-')}" if auto else fig["id"]
            base, k = ident, 1
            while ident in taken:
                k += 1
                ident = f"{base}-{k}"
            taken.add(ident)
            fig["id"] = ident
            if auto:
                fig["data-auto-id"] = "1"  # renumbered with the table
            fig["data-table-number"] = number
            cap = fig.find("figcaption", recursive=False)
            if cap is None:
                cap = soup.new_tag("figcaption", attrs={"class": "gameai-table-caption"})
                fig.insert(0, cap)
            for old in cap.find_all("a", class_="headerlink"):
                old.extract()
            num = cap.find("span", class_="gameai-table-number")
            if num is None:
                num = soup.new_tag("span", attrs={"class": "gameai-table-number"})
                cap.insert(0, num)
            num.string = f"Table {number}."
            # one space between the number and the caption text (none when there is none)
            after = num.next_sibling
            rest = "".join(str(s) for s in num.next_siblings).strip()
            if isinstance(after, str):
                after.replace_with(" " + after.lstrip() if rest else "")
            elif rest:
                num.insert_after(" ")
            link = soup.new_tag("a", attrs={"class": "headerlink", "title": "Link to this table"})
            link.string = "#"
            cap.append(link)
            link["href"] = f"#{ident}"
            if chapter:
                k_in_chapter += 1
            else:
                n += 1
        out.append(str(soup))
    return out, n


#: Widest window (CSS px) that gets a figure's phone version, where it has one.
PHONE_MAX_PX = 640


def phone_figures(soup, figures: Path) -> bool:
    """Give each figure with download links (:func:`on_doctree_resolved`) its phone version and
    its text size, in a parsed page: where ``figures`` (the HTML output's ``_figures/``) holds
    ``<key>-narrow.png`` (:func:`gameai.book.plots.narrow_png`, every panel in one column), the
    image becomes a ``<picture>`` whose ``<source>`` serves it to windows up to
    :data:`PHONE_MAX_PX` wide; and the image gets ``data-gameai-text-px`` (and
    ``data-gameai-narrow-text-px`` for the phone version), the height of the figure's smallest
    text in the PNG's own pixels, from which the browser check computes the text's size on
    screen. Returns whether the page changed."""
    from .plots import FIGURE_DPI, NARROW_SUFFIX, TEXT_PT_KEY, png_text

    changed = False
    for links in soup.select("p.gameai-fig-links"):
        png_link = next((a for a in links.find_all("a", href=True) if a["href"].endswith(".png")), None)
        figure = links.find_parent("figure")
        img = figure.find("img") if figure is not None else None
        if png_link is None or img is None:
            continue
        key = png_link["href"].rsplit("/", 1)[-1][:-len(".png")]
        text_pt = png_text((figures / f"{key}.png").read_bytes(), TEXT_PT_KEY) \
            if (figures / f"{key}.png").is_file() else None
        text_px = f"{float(text_pt) / 72 * FIGURE_DPI:.1f}" if text_pt else None
        if text_px and img.get("data-gameai-text-px") != text_px:
            img["data-gameai-text-px"] = text_px
            changed = True
        narrow = figures / f"{key}{NARROW_SUFFIX}.png"
        narrow_pt = png_text(narrow.read_bytes(), TEXT_PT_KEY) if narrow.is_file() else None
        narrow_px = f"{float(narrow_pt) / 72 * FIGURE_DPI:.1f}" if narrow_pt else None
        if narrow_px and img.get("data-gameai-narrow-text-px") != narrow_px:
            img["data-gameai-narrow-text-px"] = narrow_px  # its fonts may be larger
            changed = True
        if narrow.is_file() and img.parent.name != "picture":
            picture = soup.new_tag("picture")
            source = soup.new_tag("source", attrs={
                "media": f"(max-width: {PHONE_MAX_PX}px)",
                "srcset": png_link["href"][:-len(".png")] + f"{NARROW_SUFFIX}.png"})
            img.wrap(picture)
            picture.insert(0, source)
            changed = True
    return changed


def table_downloads(soup, source: Path, out: Path, prefix: str) -> bool:
    """Link each numbered table of a parsed page to the CSV of its data: where ``source`` (the
    ``_figures/`` beside the page's source) holds ``<table id>.csv``
    (:func:`gameai.book.display.save_table`), copy it into ``out`` (the HTML output's
    ``_figures/``) and add "Download: data (CSV)" under the table, ``prefix`` being the way from
    the page to the output's root (``"../"``). Returns whether the page changed."""
    changed = False
    for fig in soup.select("figure.gameai-table[id]"):
        csv = source / f"{fig['id']}.csv"
        if not csv.is_file() or fig.select_one("p.gameai-fig-links"):
            continue
        out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(csv, out / csv.name)
        para = soup.new_tag("p", attrs={"class": "gameai-fig-links"})
        para.append("Download: ")
        link = soup.new_tag("a", attrs={"href": f"{prefix}{FIGURES_DIRNAME}/{csv.name}",
                                        "title": "the numbers of this table (CSV)",
                                        "class": "reference internal"})
        link.string = "data (CSV)"
        para.append(link)
        fig.append(para)
        changed = True
    return changed


def on_build_finished(app, exception) -> None:
    if exception is not None or getattr(app.builder, "format", "") != "html":
        return
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    (static / CSS_FILE).write_text(CSS, encoding="utf-8")
    files, docs = [], []
    for doc in book_order(app.env):
        try:
            path = Path(app.outdir) / app.builder.get_outfilename(doc)
        except Exception:  # noqa: BLE001 - a builder without one file per document
            continue
        if path.is_file() and path not in files:
            files.append(path)
            docs.append(doc)
    texts = [p.read_text(encoding="utf-8") for p in files]
    numbered, next_n = number_tables(texts, chapters=[chapter_number(app.env, doc)
                                                      for doc in docs])
    from bs4 import BeautifulSoup

    figures = Path(app.outdir) / FIGURES_DIRNAME
    for doc, path, old, new in zip(docs, files, texts, numbered):
        if "gameai-fig-links" in new or "gameai-table" in new:
            soup = BeautifulSoup(new, "html.parser")
            source = Path(app.env.doc2path(doc)).parent / FIGURES_DIRNAME
            prefix = "../" * (len(Path(app.builder.get_target_uri(doc)).parts) - 1)
            if phone_figures(soup, figures) | table_downloads(soup, source, figures, prefix):
                new = str(soup)
        if new != old:
            path.write_text(new, encoding="utf-8")
    logger.info("gameai.book.sphinx_ext: numbered the tables (show() and the claims tables) per chapter")


def chapter_number(env, doc: str) -> str | None:
    """The chapter number Sphinx gave ``doc`` (``_toc.yml``'s ``numbered``), e.g. ``"2"``, or
    None for an unnumbered page (the introduction)."""
    numbers = getattr(env, "toc_secnumbers", {}).get(doc, {})
    top = numbers.get("") or (min(numbers.values(), key=len) if numbers else None)
    return str(top[0]) if top else None


def dedupe_scripts(app, pagename, templatename, context, doctree) -> None:
    """Drop the second copy of a script from the page's ``script_files`` (``html-page-context``).

    Sphinx 7.4's HTML builder adds an extension's script twice when the extension registered
    it after the builder was made (sphinx-thebe and sphinx-togglebutton do, on
    ``env-before-read-docs`` and ``builder-inited``): ``app.add_js_file(None, body=…)`` puts it
    into the builder with ``None`` as its file name, and ``prepare_writing`` adds it again from
    the registry with ``''``, which does not compare equal. Two ``<script>const THEBE_JS_URL
    = …</script>`` make the browser report "Identifier 'THEBE_JS_URL' has already been
    declared" on every page. Here a script is the same as another when its file name (``None``
    taken as ``''``), priority and attributes (the body among them) are."""
    files = context.get("script_files")
    if not isinstance(files, list):
        return
    seen, keep = set(), []
    for js in files:
        try:
            key = (getattr(js, "filename", js) or "", getattr(js, "priority", 0),
                   tuple(sorted((getattr(js, "attributes", None) or {}).items())))
        except TypeError:  # an attribute value that does not sort or hash: keep it
            keep.append(js)
            continue
        if key in seen:
            continue
        seen.add(key)
        keep.append(js)
    if len(keep) != len(files):
        files[:] = keep  # the builder's own list: it restores it after each page


def provenance_footer(root: Path, version: str, today: str | None = None) -> str:
    """The line every page ends with: the book's version, the commit its text and results
    (``data/``) come from, and the build date - so that a reader citing a page can say which
    results it showed. "with uncommitted changes" when the work tree differs from the commit."""
    import subprocess
    from datetime import datetime, timezone

    def git(*args: str) -> str:
        try:
            out = subprocess.run(["git", *args], cwd=root, text=True, capture_output=True,
                                 timeout=10)
        except (OSError, subprocess.SubprocessError):
            return ""
        return out.stdout.strip() if out.returncode == 0 else ""

    commit = git("rev-parse", "--short=12", "HEAD") or "unknown"
    dirty = bool(git("status", "--porcelain", "--untracked-files=no", "--", "src", "data", "book"))
    day = today or datetime.now(timezone.utc).strftime("%Y-%m-%d")
    return (f'<p class="gameai-provenance">Version {version}, built {day} from commit '
            f"<code>{commit}</code>{' with uncommitted changes' if dirty else ''}; the results "
            "shown are the <code>data/</code> of that commit.</p>")


def on_config_inited(app, config) -> None:
    from .. import __version__

    options = dict(config.html_theme_options or {})
    options["extra_footer"] = (options.get("extra_footer") or "") + provenance_footer(
        Path(app.confdir), __version__)
    config.html_theme_options = options


def setup(app):
    app.connect("config-inited", on_config_inited)
    app.connect("doctree-resolved", on_doctree_resolved)
    app.connect("html-page-context", dedupe_scripts)
    app.connect("build-finished", on_build_finished)
    app.add_css_file(CSS_FILE)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
