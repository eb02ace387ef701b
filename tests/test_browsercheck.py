"""The real-browser check (gameai.book.browsercheck) on a tiny hand-made book.

Needs Debian's Chromium (``apt-get install -y chromium``; ``make test`` installs it when
missing); skipped, saying so, only when no Chromium is found.
"""

from __future__ import annotations

import base64

import pytest

from gameai.book import browsercheck as bc

CHROMIUM = bc.find_chromium()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium (/usr/bin/chromium): apt-get install -y chromium, or set GAMEAI_CHROMIUM")

# A 2x2 red PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAxMDAAAAjCQMBRBUvuwAAAABJRU5ErkJggg==")

WIDE_TABLE = ("<table style='width:2000px'><caption style='text-align:left'>Wide</caption>"
              "<tr><td>a</td><td>b</td></tr></table>")
# The caption of a wide table is centred across its 2,000 px: cut in a scroll container.
CUT_CAPTION = ("<table style='width:2000px'><caption>A caption a reader cannot read whole</caption>"
               "<tr><td>a</td><td>b</td></tr></table>")


def page(body: str) -> str:
    return ("<!doctype html><html><head><meta charset='utf-8'><title>t</title></head>"
            "<body style='margin:0'><main><article class='bd-article' "
            "style='max-width:600px;padding:0 10px'>"
            f"<section id='s'><h1>Title</h1>{body}</section></article></main></body></html>")


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    root = tmp_path_factory.mktemp("book")
    (root / "book").mkdir()
    (root / "_static").mkdir()
    (root / "_static" / "skipped.html").write_text(page("$x$"))  # not a page of the book
    (root / "fig.png").write_bytes(PNG)
    (root / "fig.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg' width='2' "
                                  "height='2'></svg>")
    (root / "fig.csv").write_text("x,y\n1,2\n")
    pages = {
        "ok.html": page("<p>Fine text with a price of $5 and $10, x_1 and 50% of n.</p>"
                        "<table><tr><td>1</td></tr></table>"
                        "<figure><img src='fig.png' alt='fig'><figcaption>Fig</figcaption>"
                        "</figure>"
                        "<p class='gameai-fig-links'><a href='fig.svg'>SVG</a> "
                        "<a href='fig.csv'>CSV</a></p>"
                        "<pre><code>$not_latex$ \\frac</code></pre>"),
        "book/wide.html": page(WIDE_TABLE),
        "book/scroll.html": page(f"<div style='overflow-x:auto'>{WIDE_TABLE}</div>"),
        "book/widebox.html": page(f"<div style='overflow-x:auto;width:1000px'>{WIDE_TABLE}</div>"),
        "book/scrollcap.html": page(f"<div style='overflow-x:scroll'>{CUT_CAPTION}</div>"),
        "book/figtext.html": page("<img src='../fig.png' style='width:360px' data-gameai-text-px='0.04'>"
                                  "<img src='../fig.png' style='width:360px' data-gameai-text-px='0.06'>"),
        "book/latex.html": page("<p>A rate below $1/n$ of games.</p><p>\\frac{1}{2}</p>"),
        "book/brokenimg.html": page("<img src='../missing.png' alt='gone'>"),
        "book/badlink.html": page("<p class='gameai-fig-links'><a href='../nope.svg'>SVG</a>"
                                  "</p>"),
        "book/console.html": page("<script>console.error('boom')</script><p>text</p>"),
    }
    for rel, html in pages.items():
        (root / rel).write_text(html, encoding="utf-8")
    failures = bc.check_site(root, widths=(1200, 400), chromium=CHROMIUM)
    return root, failures


def checks(failures, page):
    return {(f.check, f.width) for f in failures if f.page == page}


def test_raw_latex_patterns():
    assert bc.raw_latex("below $1/n$ of") == ["$1/n$"]
    assert bc.raw_latex("\\frac{1}{2}") == ["\\frac"]
    assert bc.raw_latex("e^{-x}") == ["e^{"]
    assert bc.raw_latex("\\(x\\)") == ["\\("]
    assert bc.raw_latex("costs $5 and $10, 50% of $ n") == []
    assert bc.raw_latex("x_1 and a_b, C:\\data") == []


def test_known_file(tmp_path):
    f = tmp_path / "known.txt"
    f.write_text("# comment\nbook/durak.html latex   # why\n\n* console THEBE_JS_URL x # y\n")
    known = bc.read_known(f)
    assert known == [bc.Known("book/durak.html", "latex"), bc.Known("*", "console", "THEBE_JS_URL x")]
    fail = bc.Failure("a.html", 400, "console", "console", "uncaught THEBE_JS_URL x declared")
    assert bc.is_known(fail, known)
    assert not bc.is_known(bc.Failure("a.html", 400, "console", "console", "other"), known)
    assert bc.is_known(bc.Failure("book/durak.html", 0, "latex", "p", "'$x$'"), known)
    f.write_text("book/durak.html typo\n")
    with pytest.raises(ValueError, match="CHECK one of"):
        bc.read_known(f)
    assert bc.read_known(tmp_path / "missing.txt") == []


@needs_chromium
def test_pages_found(result):
    root, _ = result
    assert "_static/skipped.html" not in bc.find_pages(root)
    assert "ok.html" in bc.find_pages(root)


@needs_chromium
def test_clean_page_passes(result):
    _, failures = result
    assert checks(failures, "ok.html") == set(), [f.line() for f in failures]


@needs_chromium
def test_wide_table_outside_scroll_container_fails(result):
    _, failures = result
    assert checks(failures, "book/wide.html") == {("wide", 1200), ("wide", 400)}
    f = next(f for f in failures if f.page == "book/wide.html")
    assert "table" in f.element and "Wide" in f.element and "2000 px" in f.detail


@needs_chromium
def test_wide_table_inside_scroll_container_hides_columns_only_on_a_desktop(result):
    _, failures = result
    assert checks(failures, "book/scroll.html") == {("hidden", 1200)}
    f = next(f for f in failures if f.page == "book/scroll.html")
    assert "table" in f.element and "hidden behind a sideways scroll" in f.detail


@needs_chromium
def test_figure_text_too_small_on_a_phone_fails(result):
    _, failures = result
    assert checks(failures, "book/figtext.html") == {("figtext", 400)}
    texts = [f.detail for f in failures if f.page == "book/figtext.html"]
    assert texts == ["smallest text 7.2 px on screen (fig.png)"]  # the 10.8 px one passes


@needs_chromium
def test_scroll_container_wider_than_the_column_fails(result):
    _, failures = result
    assert checks(failures, "book/widebox.html") == {("wide", 1200), ("wide", 400), ("hidden", 1200)}
    f = next(f for f in failures if f.page == "book/widebox.html")
    assert "scroll container (div) that is itself 1000 px wide" in f.detail


@needs_chromium
def test_cut_caption_in_scroll_container_fails(result):
    _, failures = result
    assert checks(failures, "book/scrollcap.html") == {("caption", 1200), ("caption", 400),
                                                       ("hidden", 1200)}


@needs_chromium
def test_raw_latex_fails(result):
    _, failures = result
    assert checks(failures, "book/latex.html") == {("latex", 1200), ("latex", 400)}
    details = " ".join(f.detail for f in failures if f.page == "book/latex.html")
    assert "$1/n$" in details and "\\frac" in details


@needs_chromium
def test_broken_image_fails(result):
    _, failures = result
    assert ("image", 1200) in checks(failures, "book/brokenimg.html")
    assert ("image", 400) in checks(failures, "book/brokenimg.html")


@needs_chromium
def test_broken_download_link_and_console_error_fail(result):
    _, failures = result
    assert checks(failures, "book/badlink.html") == {("download", 0)}
    assert checks(failures, "book/console.html") == {("console", 1200), ("console", 400)}


@needs_chromium
def test_main_tolerates_known_issues_only(result, tmp_path, capsys):
    root, _ = result
    known = tmp_path / "known.txt"
    known.write_text("book/latex.html latex $1/n$\nok.html wide\n")
    args = [str(root), "--known", str(known), "--widths", "400"]
    for rel in ("book/latex.html", "ok.html", "book/wide.html"):
        args += ["--page", rel]
    assert bc.main(args) == 1  # the wide table is new
    out = capsys.readouterr().out
    assert "known book/latex.html @ 400 px: latex" in out
    assert "FAIL  book/wide.html @ 400 px: wide" in out
    assert "FAIL  book/latex.html @ 400 px: latex" in out  # the \\frac is not the known text
    assert "note  ok.html wide: listed in" in out  # a known issue that passes now
    assert "2 new failure(s), 1 known" in out


def test_the_check_allows_a_table_the_margin_the_book_gives_it():
    from gameai.book import sphinx_ext

    assert bc.TABLE_MARGIN_PX == sphinx_ext.TABLE_MARGIN_PX
    assert f"max-width: calc(100% + {sphinx_ext.TABLE_MARGIN_PX}px)" in sphinx_ext.CSS
    assert f"@media (min-width: {bc.DESKTOP_PX}px)" in sphinx_ext.CSS
