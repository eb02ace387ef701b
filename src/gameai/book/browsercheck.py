"""Checks over the built book in a real browser: what a reader sees in Chromium.

``check_site(html_dir)`` serves a built book on a free loopback port (``python -m http.server``,
started and stopped by pid), opens every page in headless Chromium (Debian's ``/usr/bin/chromium``
driven by Playwright for Python) at 1,200 px and at 400 px width, and reports, for every page and
width, *all* of

* ``wide``: a table or figure (``table``, ``figure``, ``img``, ``svg``) wider than the page's
  content column (``article.bd-article``) and not inside a scroll container (an ancestor with
  ``overflow-x: auto`` or ``scroll``) that itself fits the column, so part of it is clipped or
  sticks out (at 1,200 px, under the right-hand "Contents" sidebar);
  and the page itself wider than the window (a reader must scroll sideways);
* ``caption``: a table wider than the column that is in a scroll container, but whose caption
  (a ``<caption>``, as pandas' Styler writes it) is cut: part of its text lies outside the
  container's visible width, so a reader scrolls sideways to read it;
* ``hidden``: at 1,200 px (:data:`DESKTOP_PX`) and wider, a table in a scroll container that
  hides some of its columns (the box's content is wider than the box): a reader on a desktop
  should see every column of a table without scrolling sideways;
* ``figtext``: at 400 px (:data:`PHONE_PX`), a figure image whose smallest text is shown
  smaller than :data:`MIN_FIGURE_TEXT_PX` (from its ``data-gameai-text-px``, the text's height in the
  PNG's own pixels that the book's extension records, scaled to the image's width on screen);
* ``latex``: raw LaTeX in the rendered text, after MathJax has run: ``$…$``, ``\\(…\\)``,
  ``\\frac``, ``\\sqrt``, ``x_{i}`` and the like (code blocks and rendered formulas excluded);
* ``image``: an ``<img>`` that did not load (``naturalWidth == 0``);
* ``console``: an error in the browser console (a script error, a missing resource, a request
  that left the machine);
* ``download``: a figure's download link (an ``<a>`` with, or inside an element with, the class
  ``gameai-fig-links``, or any link of the book to a ``.svg``/``.csv``/``.pdf`` file) that does
  not answer HTTP 200.

From the command line (``make test`` runs it on the strict build, after the HTML check)::

    python -m gameai.book.browsercheck _build/strict/_build/html --known tests/browser_known_issues.txt

prints one line per failure (page, width, check, element) and exits 1 if there is a failure that
is not in the ``--known`` file. That file lists ``PAGE CHECK`` pairs (``book/durak.html latex``),
one per line, optionally followed by a TEXT that the failure's element or detail must contain
(``* console THEBE_JS_URL``; ``*`` as PAGE means any page); `` #`` starts a comment. These are
content issues known today, reported as ``known`` but tolerated, so that only a new failure turns
the build red. An entry that no longer matches any failure is reported so it can be removed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

__all__ = ["Failure", "Known", "is_known", "CHECKS", "WIDTHS", "find_chromium", "find_pages",
           "raw_latex", "read_known", "check_site", "main"]

#: The widths a page is checked at: a desktop window and a phone.
WIDTHS = (1200, 400)
#: The checks, in the order they are reported.
CHECKS = ("wide", "caption", "hidden", "figtext", "latex", "image", "console", "download")
#: Window width (px) from which a table must show all its columns without scrolling sideways.
DESKTOP_PX = 1200
#: Smallest figure text (CSS px) at a phone's width (:data:`gameai.book.plots.MIN_TEXT_PX`).
PHONE_PX, MIN_FIGURE_TEXT_PX = 400, 9.0
#: How far a table of the book may reach into the right margin from :data:`DESKTOP_PX` on
#: (:data:`gameai.book.sphinx_ext.TABLE_MARGIN_PX`, where the page's Contents leave it empty).
TABLE_MARGIN_PX = 250
#: Chromium's flags that work on a machine with no screen, no sandbox and a closed network.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
#: Where Chromium is looked for, in order (``$GAMEAI_CHROMIUM`` first).
CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")

#: Raw TeX a reader should never see: ``$…$`` (not ``$5 and $10``), ``\\(``/``\\[``, TeX
#: commands, and sub/superscripts in braces.
_TEX_COMMANDS = (
    "frac|dfrac|tfrac|sqrt|sum|prod|int|binom|mathrm|mathbf|mathit|mathcal|mathbb|operatorname|"
    "text|textbf|textit|emph|left|right|cdot|cdots|ldots|dots|times|div|pm|mp|le|leq|ge|geq|neq|"
    "ne|approx|sim|simeq|equiv|propto|infty|partial|nabla|alpha|beta|gamma|delta|epsilon|"
    "varepsilon|zeta|eta|theta|kappa|lambda|mu|nu|xi|pi|rho|sigma|tau|phi|varphi|chi|psi|omega|"
    "Gamma|Delta|Theta|Lambda|Pi|Sigma|Phi|Psi|Omega|hat|bar|tilde|vec|overline|underline|log|"
    "ln|exp|min|max|arg|argmax|argmin|lfloor|rfloor|lceil|rceil|langle|rangle|mid|in|notin|"
    "subset|cup|cap|forall|exists|to|rightarrow|leftarrow|mapsto|begin|end|quad|qquad")
RAW_LATEX = re.compile(
    r"(?<![\w$\\])\$\$?(?=\S)[^$\n]{1,120}?(?<=\S)\$\$?(?![\w$])"   # $x$, $$x$$
    r"|\\[(\[]"                                                      # \( \[
    r"|\\(?:" + _TEX_COMMANDS + r")(?![A-Za-z])"                     # \frac, \alpha, ...
    r"|[A-Za-z0-9)}][_^]\{")                                         # x_{i}, e^{-x}


@dataclass(frozen=True, order=True)
class Failure:
    page: str      # relative to the book's root: "book/durak.html"
    width: int     # px; 0 for a check that does not depend on the width
    check: str     # one of CHECKS
    element: str   # what a reader would look for on the page
    detail: str = ""

    def line(self, known: bool = False) -> str:
        width = f"{self.width} px" if self.width else "any width"
        tag = "known" if known else "FAIL "
        detail = f": {self.detail}" if self.detail else ""
        return f"{tag} {self.page} @ {width}: {self.check}: {self.element}{detail}"


def raw_latex(text: str) -> list[str]:
    """The pieces of ``text`` that look like raw LaTeX (``[]`` if none)."""
    return [m.group(0) for m in RAW_LATEX.finditer(text)]


def find_chromium(explicit: str | None = None) -> str | None:
    """Path of a Chromium executable, or None: ``explicit``, ``$GAMEAI_CHROMIUM``, then Debian's."""
    for cand in (explicit, os.environ.get("GAMEAI_CHROMIUM"), *CHROMIUM_PATHS,
                 shutil.which("chromium")):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


_REDIRECT = re.compile(rb"<meta[^>]+http-equiv=[\"']?refresh", re.IGNORECASE)


def find_pages(html_dir: str | Path) -> list[str]:
    """Every page of a built book, relative to its root.

    Left out: ``_static``, ``_sources`` and other ``_``/``.`` folders, and redirect stubs (the
    root ``index.html`` that only forwards to the first chapter, which is checked itself).
    """
    root = Path(html_dir)
    pages = []
    for p in root.rglob("*.html"):
        rel = p.relative_to(root)
        if any(part.startswith((".", "_")) for part in rel.parts):
            continue
        with open(p, "rb") as fh:
            if _REDIRECT.search(fh.read(2048)) and p.stat().st_size < 2048:
                continue
        pages.append(rel.as_posix())
    return sorted(pages)


@dataclass(frozen=True)
class Known:
    """One line of the known-issues file: PAGE (or ``*``), CHECK and an optional TEXT."""
    page: str
    check: str
    text: str = ""

    def matches(self, f: Failure) -> bool:
        return (self.page in ("*", f.page) and self.check == f.check
                and self.text in f"{f.element}: {f.detail}")

    def __str__(self) -> str:
        return " ".join(x for x in (self.page, self.check, self.text) if x)


def read_known(path: str | Path | None) -> list[Known]:
    """The entries of a known-issues file (missing file or None: none)."""
    if not path or not Path(path).is_file():
        return []
    known = []
    for n, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = re.split(r"(?:^|\s)#", raw, maxsplit=1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 2)
        if len(parts) < 2 or parts[1] not in CHECKS:
            raise ValueError(f"{path}:{n}: expected 'PAGE CHECK [TEXT]' with CHECK one of "
                             f"{', '.join(CHECKS)}; got {raw!r}")
        known.append(Known(*parts))
    return known


def is_known(f: Failure, known: list[Known]) -> bool:
    return any(k.matches(f) for k in known)


# ---------------------------------------------------------------------------------------------
# The page-side part: one script, evaluated after the page has loaded and MathJax has run.

_SETTLE_JS = r"""
async () => {
  // Lazy images load now; wait (at most 5 s) for every image to finish or fail.
  const imgs = Array.from(document.images);
  for (const img of imgs) { if (img.loading === 'lazy') img.loading = 'eager'; }
  await Promise.all(imgs.map(img => img.complete ? null : new Promise(res => {
    img.addEventListener('load', res, {once: true});
    img.addEventListener('error', res, {once: true});
    setTimeout(res, 5000);
  })));
  // MathJax 3: wait for its first typesetting (pages with formulas load it with defer).
  if (document.querySelector('.math, mjx-container, script[src*="mathjax" i]')) {
    for (let i = 0; i < 50 && !(window.MathJax && MathJax.startup && MathJax.startup.promise); i++)
      await new Promise(res => setTimeout(res, 100));
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      await Promise.race([MathJax.startup.promise, new Promise(res => setTimeout(res, 10000))]);
    }
  }
  if (document.fonts && document.fonts.ready) await document.fonts.ready;
}
"""

_INSPECT_JS = r"""
([DESKTOP, MARGIN]) => {
  const clip = (s, n) => { s = (s || '').replace(/\s+/g, ' ').trim();
                           return s.length > n ? s.slice(0, n - 1) + '…' : s; };
  const visible = el => !el.checkVisibility || el.checkVisibility();
  const section = el => {
    const sec = el.closest('section[id]');
    if (!sec) return '';
    const h = sec.querySelector('h1, h2, h3, h4, h5, h6');
    return h ? ' in section "' + clip(h.textContent.replace(/#$/, ''), 60) + '"' : ' in #' + sec.id;
  };
  const describe = el => {
    let d = el.tagName.toLowerCase();
    if (el.id) d += '#' + el.id;
    const cls = Array.from(el.classList || []).slice(0, 2);
    if (cls.length) d += '.' + cls.join('.');
    let label = '';
    if (el.tagName === 'TABLE') {
      const cap = el.querySelector('caption');
      label = cap ? cap.textContent : (el.querySelector('th, td') || {}).textContent;
    } else if (el.tagName === 'IMG') {
      label = el.getAttribute('alt') || el.getAttribute('src');
    } else if (el.tagName === 'FIGURE' || el.classList.contains('figure')) {
      const cap = el.querySelector('figcaption, .caption');
      label = cap ? cap.textContent : '';
    } else {
      label = el.textContent;
    }
    label = clip((label || '').replace(/[#¶]\s*$/, ''), 70);
    return d + (label ? ' "' + label + '"' : '') + section(el);
  };

  const col = document.querySelector('article.bd-article') || document.querySelector('main')
              || document.body;
  const cs = getComputedStyle(col);
  const colWidth = col.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const scrolls = el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);

  // Tables and figures wider than the column, outside any scroll container.
  const wide = [];
  const caption = [];
  const flagged = [];
  for (const el of col.querySelectorAll('table, figure, div.figure, img, svg')) {
    if (!visible(el) || flagged.some(f => f.contains(el))) continue;
    if (el.closest('mjx-container')) continue;         // a formula's own svg
    const w = el.getBoundingClientRect().width;
    // A table of the book may use the right margin on a desktop (sphinx_ext's CSS).
    const room = colWidth + (window.innerWidth >= DESKTOP && el.closest('figure.gameai-table') ? MARGIN : 0);
    if (w <= room + 1) continue;
    // A scroll container counts only if it fits the column itself (myst-nb's output box of a
    // full-width cell scrolls, but is as wide as what it holds and runs under the sidebar).
    let box = null, wideBox = null;
    for (let a = el.parentElement; a && a !== col.parentElement; a = a.parentElement) {
      if (!scrolls(a)) continue;
      if (a.getBoundingClientRect().width <= room + 1) { box = a; break; }
      if (!wideBox) wideBox = a;
    }
    if (box) {
      // In a scroll container: the caption must still be readable without scrolling sideways.
      const cap = el.tagName === 'TABLE' ? el.querySelector(':scope > caption') : null;
      if (cap && visible(cap) && cap.textContent.trim()) {
        const range = document.createRange();
        range.selectNodeContents(cap);
        const t = range.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        const left = b.left + box.clientLeft, right = left + box.clientWidth;
        if (t.right > right + 1 || t.left < left - 1) {
          flagged.push(el);
          caption.push({element: describe(el),
                        detail: 'caption text spans ' + Math.round(t.width) + ' px of a ' +
                                Math.round(w) + ' px table; ' + Math.round(box.clientWidth) +
                                ' px of it are visible without scrolling sideways'});
        }
      }
      continue;
    }
    flagged.push(el);
    let detail = Math.round(w) + ' px in a ' + Math.round(room) + ' px column';
    if (wideBox) {
      const bw = Math.round(wideBox.getBoundingClientRect().width);
      const cls = Array.from(wideBox.classList).slice(0, 2).join('.');
      detail += ', in a scroll container (' + wideBox.tagName.toLowerCase() + (cls ? '.' + cls : '') +
                ') that is itself ' + bw + ' px wide';
    }
    wide.push({element: describe(el), detail: detail});
  }
  // Tables whose scroll box hides columns (judged in Python at desktop widths only).
  const hidden = [];
  for (const t of col.querySelectorAll('table')) {
    if (!visible(t)) continue;
    let box = null;
    for (let a = t.parentElement; a && a !== col.parentElement; a = a.parentElement)
      if (scrolls(a)) { box = a; break; }
    if (box && box.scrollWidth > box.clientWidth + 2)
      hidden.push({element: describe(t), detail: Math.round(box.scrollWidth - box.clientWidth) +
                   ' px of ' + Math.round(box.scrollWidth) + ' px hidden behind a sideways scroll'});
  }
  // Figure text on screen: its height in the PNG's pixels, scaled as the image is shown.
  const figtext = [];
  for (const img of col.querySelectorAll('img[data-gameai-text-px]')) {
    if (!visible(img) || !img.naturalWidth) continue;
    const src = img.currentSrc || img.src;
    const natural = parseFloat(/-narrow\.png$/.test(src) && img.dataset.gameaiNarrowTextPx
                               ? img.dataset.gameaiNarrowTextPx : img.dataset.gameaiTextPx);
    const shown = img.getBoundingClientRect().width;
    figtext.push({element: describe(img), px: natural * shown / img.naturalWidth,
                  src: (img.currentSrc || img.src).split('/').pop()});
  }
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > window.innerWidth + 1 && !wide.length) {
    // Name the widest element inside the column that sticks out, if any.
    wide.push({element: 'the page itself',
               detail: pageWidth + ' px wide in a ' + window.innerWidth + ' px window'});
  }

  // Visible text of the column, block by block, with code and rendered formulas left out.
  const SKIP = 'script, style, noscript, textarea, pre, code, kbd, samp, tt, mjx-container, ' +
               'mjx-assistive-mml, svg, math, .headerlink, .highlight, .MathJax';
  const BLOCK = 'p, li, td, th, caption, figcaption, h1, h2, h3, h4, h5, h6, dt, dd, ' +
                'blockquote, div, section, article';
  const texts = new Map();
  const walker = document.createTreeWalker(col, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || !n.textContent.trim() || parent.closest(SKIP) || !visible(parent)) continue;
    const block = parent.closest(BLOCK) || col;
    texts.set(block, (texts.get(block) || '') + n.textContent);
  }
  const blocks = Array.from(texts, ([el, text]) => ({element: describe(el), text: text}));

  // Images: loaded means a natural width.
  const images = Array.from(document.images)
    .filter(img => !(img.complete && img.naturalWidth > 0))
    .map(img => ({element: describe(img), src: img.currentSrc || img.src}));

  // Figure downloads: the gameai-fig-links links, and any link to an .svg/.csv/.pdf file.
  const downloads = [];
  for (const a of document.querySelectorAll('a[href]')) {
    const marked = a.closest('.gameai-fig-links') !== null;
    const path = a.href.split('#')[0].split('?')[0].toLowerCase();
    if (marked || /\.(svg|csv|pdf)$/.test(path))
      downloads.push({element: describe(a), href: a.href, marked: marked});
  }
  return {wide, caption, hidden, figtext, blocks, images, downloads, colWidth};
}
"""


# ---------------------------------------------------------------------------------------------
# Server and browser.

def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server:
    """``python -m http.server`` on a free loopback port, started and stopped by pid."""

    def __init__(self, root: Path):
        self.root = root
        self.proc: subprocess.Popen | None = None
        self.base = ""

    def __enter__(self) -> "_Server":
        for _ in range(5):
            port = _free_port()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                 "--directory", str(self.root)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and self.proc.poll() is None:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                    self.base = f"http://127.0.0.1:{port}/"
                    return self
                except OSError:
                    time.sleep(0.05)
            self._stop()
        raise RuntimeError("could not start python -m http.server on a loopback port")

    def _stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def __exit__(self, *exc) -> None:
        self._stop()


#: Straight to the loopback server, whatever proxy the environment names.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _status(url: str) -> int | str:
    req = urllib.request.Request(url, method="HEAD")
    try:
        with _OPENER.open(req, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as e:
        return e.code
    except (urllib.error.URLError, OSError) as e:
        return str(getattr(e, "reason", e))


def check_site(html_dir: str | Path, widths: tuple[int, ...] = WIDTHS,
               pages: list[str] | None = None, chromium: str | None = None,
               timeout_ms: int = 30000, progress=None,
               stats: dict | None = None) -> list[Failure]:
    """Load every page of ``html_dir`` in Chromium at each width; every failure, sorted.

    ``stats``, if given, receives counts of what was checked (``downloads``: links requested).

    Raises ``FileNotFoundError`` when no Chromium is found (see ``find_chromium``).
    """
    from playwright.sync_api import sync_playwright  # imported here: optional for the rest

    root = Path(html_dir).resolve()
    if not root.is_dir():
        raise FileNotFoundError(f"no built book at {html_dir}")
    exe = find_chromium(chromium)
    if exe is None:
        raise FileNotFoundError(
            "no Chromium: install Debian's package (apt-get install -y chromium) or set "
            "GAMEAI_CHROMIUM to its path")
    pages = find_pages(root) if pages is None else pages
    failures: set[Failure] = set()
    download_urls: dict[str, tuple[str, str]] = {}  # url -> (page, element)

    with _Server(root) as server, tempfile.TemporaryDirectory(prefix="gameai-chromium-") as prof, \
            sync_playwright() as pw:
        origin = server.base.rstrip("/")
        # A persistent context on a fresh, empty profile folder (Playwright adds --headless).
        ctx = pw.chromium.launch_persistent_context(
            prof, executable_path=exe, headless=True, args=CHROMIUM_ARGS[1:],
            viewport={"width": widths[0], "height": 900})
        ctx.set_default_timeout(timeout_ms)
        try:
            # Nothing leaves the machine: a request elsewhere is refused and reported.
            def route(r):
                url = r.request.url
                if url.startswith((origin, "data:", "blob:", "about:")):
                    r.continue_()
                else:
                    r.abort("blockedbyclient")
            ctx.route("**/*", route)
            for width in widths:
                for rel in pages:
                    if progress:
                        progress(rel, width)
                    _check_page(ctx, server.base, rel, width, failures, download_urls)
        finally:
            ctx.close()

        if stats is not None:
            stats["downloads"] = len(download_urls)
        for url, (rel, element) in sorted(download_urls.items()):
            status = _status(url)
            if status != 200:
                failures.add(Failure(rel, 0, "download", element,
                                     f"{urlsplit(url).path} answers {status}"))
    return sorted(failures, key=lambda f: (f.page, CHECKS.index(f.check), -f.width, f.element))


def _check_page(ctx, base: str, rel: str, width: int, failures: set[Failure],
                download_urls: dict[str, tuple[str, str]]) -> None:
    page = ctx.new_page()
    console: list[str] = []
    def on_console(msg) -> None:
        if msg.type == "error":
            where = (msg.location or {}).get("url", "")
            console.append(f"{msg.text} ({where})" if where and where not in msg.text
                           else msg.text)
    page.on("console", on_console)
    page.on("pageerror", lambda e: console.append(f"uncaught {e}"))
    try:
        page.set_viewport_size({"width": width, "height": 900})
        url = urljoin(base, rel)
        try:
            resp = page.goto(url, wait_until="load")
        except Exception as e:  # a page that does not load at all
            failures.add(Failure(rel, width, "console", "the page", f"did not load: {e}"))
            return
        if resp is not None and resp.status != 200:
            failures.add(Failure(rel, width, "console", "the page", f"HTTP {resp.status}"))
        try:
            page.evaluate(_SETTLE_JS)
            page.wait_for_timeout(100)
            found = page.evaluate(_INSPECT_JS, [DESKTOP_PX, TABLE_MARGIN_PX])
        except Exception as e:  # the page navigated away, or the check could not run
            failures.add(Failure(rel, width, "console", "the page",
                                 f"could not be inspected: {str(e).splitlines()[0]}"))
            return
    finally:
        if not page.is_closed():
            page.close()

    for w in found["wide"]:
        failures.add(Failure(rel, width, "wide", w["element"], w["detail"]))
    for w in found["caption"]:
        failures.add(Failure(rel, width, "caption", w["element"], w["detail"]))
    if width >= DESKTOP_PX:
        for w in found["hidden"]:
            failures.add(Failure(rel, width, "hidden", w["element"], w["detail"]))
    if width <= PHONE_PX:
        for f in found["figtext"]:
            if f["px"] < MIN_FIGURE_TEXT_PX:
                failures.add(Failure(rel, width, "figtext", f["element"],
                                     f"smallest text {f['px']:.1f} px on screen ({f['src']})"))
    for b in found["blocks"]:
        bits = raw_latex(b["text"])
        if bits:
            failures.add(Failure(rel, width, "latex", b["element"],
                                 ", ".join(dict.fromkeys(f'"{x}"' for x in bits))))
    for img in found["images"]:
        failures.add(Failure(rel, width, "image", img["element"],
                             f"not loaded: {urlsplit(img['src']).path or img['src']}"))
    for msg in console:
        if msg:
            failures.add(Failure(rel, width, "console", "console", _short(msg, base)))
    for d in found["downloads"]:
        href = urldefrag(d["href"])[0]
        if href.startswith(base):
            download_urls.setdefault(href, (rel, d["element"]))


def _short(msg: str, base: str) -> str:
    msg = msg.replace(base, "/").replace(" ()", "")
    return msg if len(msg) <= 300 else msg[:299] + "…"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m gameai.book.browsercheck",
        description="Load every page of a built book in headless Chromium at 1,200 and 400 px "
                    "and report what a reader would see broken.")
    ap.add_argument("html_dir", help="the built HTML, e.g. _build/strict/_build/html")
    ap.add_argument("--known", default=None,
                    help="file of 'PAGE CHECK' pairs tolerated as known issues "
                         "(e.g. tests/browser_known_issues.txt)")
    ap.add_argument("--widths", default=",".join(map(str, WIDTHS)),
                    help="comma-separated window widths in px (default: %(default)s)")
    ap.add_argument("--page", action="append", default=None,
                    help="check only this page (relative to html_dir); repeatable")
    ap.add_argument("--chromium", default=None,
                    help="Chromium executable (default: $GAMEAI_CHROMIUM or /usr/bin/chromium)")
    args = ap.parse_args(argv)

    known = read_known(args.known)
    widths = tuple(int(w) for w in args.widths.split(",") if w.strip())
    t0 = time.monotonic()
    stats: dict = {}
    try:
        failures = check_site(args.html_dir, widths=widths, pages=args.page,
                              chromium=args.chromium, stats=stats)
    except FileNotFoundError as e:
        print(f"browsercheck: {e}", file=sys.stderr)
        return 2
    pages = args.page or find_pages(args.html_dir)
    new = [f for f in failures if not is_known(f, known)]
    for f in failures:
        print(f.line(known=is_known(f, known)))
    for k in known:
        if (k.page == "*" or k.page in pages) and not any(k.matches(f) for f in failures):
            print(f"note  {k}: listed in {args.known} but passes now; remove the line")
    secs = time.monotonic() - t0
    print(f"browsercheck: {len(pages)} pages x {len(widths)} widths and "
          f"{stats.get('downloads', 0)} figure download links in {secs:.0f} s: "
          f"{len(new)} new failure(s), {len(failures) - len(new)} known")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
