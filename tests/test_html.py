"""The HTML check of the built book, on small hand-made pages (the real book is checked by
`make test`'s html stage, after the strict build)."""

import pytest

from gameai.book.claims_table import claims_table
from gameai.core.claims import quantitative, qualitative, read_claims, write_claims
from gameai.book.htmlcheck import check_html, main

PNG = b"\x89PNG\r\n\x1a\n"


def page(body: str) -> str:
    return f"<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>"


@pytest.fixture
def book(tmp_path):
    """A built book that is fine: an image, a plain table, a chapter's claims table."""
    html, data = tmp_path / "html", tmp_path / "data"
    (html / "book").mkdir(parents=True)
    (html / "_images").mkdir()
    (html / "_images" / "fig.png").write_bytes(PNG)
    claims = [quantitative("a.win", "wins", "44 %", 0.6, 0.59, 0.61, 1000, note="stronger"),
              qualitative("a.order", "order", "above", "above", True, 10, note="none needed")]
    write_claims("toy", claims, data)
    table = claims_table(read_claims("toy", data), "toy").data
    (html / "book" / "toy.html").write_text(page(
        '<img src="../_images/fig.png" alt="f"><img src="data:image/png;base64,AAAA">'
        '<img src="https://example.org/x.png">'
        "<table><tr><th>deck</th><th>win</th></tr><tr><td>2</td><td>33.7 %</td></tr>"
        "<tr><td>13</td><td></td></tr><tr><td>none</td><td>Nancy</td></tr></table>" + table))
    (html / "index.html").write_text(page('<a href="book/toy.html">toy</a><a href="#">top</a>'
                                          '<a href="#s1">s</a><section id="s1"></section>'))
    return html, data


def test_a_good_book_passes(book, capsys):
    html, data = book
    assert check_html(html, data) == []
    assert main([str(html), "--data", str(data)]) == 0
    assert "0 problem(s)" in capsys.readouterr().out


def test_a_broken_page_fails(book, capsys):
    html, data = book
    (html / "book" / "broken.html").write_text(page(
        '<img src="../_images/missing.png"><a href="#claim-toy-gone">gone</a>'
        "<table><tr><td>nan%</td><td>NaN</td><td>None</td><td>61.0 %</td><td>&lt;NA&gt; / 3</td>"
        "<td>Nantes</td><td>none</td></tr></table>"))
    problems = check_html(html, data)
    assert any("image '../_images/missing.png' does not exist" in p for p in problems)
    cells = [p for p in problems if "missing value" in p]
    assert len(cells) == 4  # nan%, NaN, None, <NA> / 3; not 61.0 %, Nantes or the word none
    assert any("link to #claim-toy-gone" in p for p in problems)
    assert all(p.startswith("book/broken.html") for p in problems)
    assert main([str(html), "--data", str(data)]) == 1
    assert "6 problem(s)" in capsys.readouterr().out


def test_claims_table_missing_a_row_fails(book):
    html, data = book
    # claims.csv gains a claim the rendered table does not show
    rows = read_claims("toy", data).to_dict("records")
    rows.append({**rows[0], "claim": "a.new"})
    write_claims("toy", rows, data)
    problems = check_html(html, data)
    assert problems == ["book/toy.html: claims table of toy lacks 1 of 3 claims: a.new"]


def test_claims_table_not_rendered_fails(book):
    html, data = book
    write_claims("other", [qualitative("o", "d", "x", "x", True, 1)], data)
    assert check_html(html, data) == ["other: claims.csv has 1 claims but no page renders its claims table"]
    assert check_html(html) == []  # without data/ only images and cells are checked


def test_no_pages(tmp_path):
    assert "no HTML pages" in check_html(tmp_path)[0]


def test_formulas_need_a_mathjax_shipped_with_the_book(book):
    html, data = book
    math = '<span class="math notranslate nohighlight">\\(1/n\\)</span>'
    cdn = '<script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js"></script>'
    (html / "book" / "math.html").write_text(page(cdn + math))
    (problem,) = check_html(html, data)
    assert "book/math.html" in problem and "MathJax" in problem and "cdn.jsdelivr" in problem
    (html / "_static" / "mathjax").mkdir(parents=True)
    (html / "_static" / "mathjax" / "tex-chtml.js").write_text("// MathJax")
    local = '<script src="../_static/mathjax/tex-chtml.js"></script>'
    (html / "book" / "math.html").write_text(page(local + math))
    assert check_html(html, data) == []
