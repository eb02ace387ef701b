"""Citable figures and tables: the numbers read back from a figure, the files glue_figure
saves, the book extension's links and alt text, and show()'s numbered tables."""

from __future__ import annotations

import hashlib
import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from gameai.book import sphinx_ext as book_ext  # noqa: E402
from gameai.book import display, plots  # noqa: E402


def _two_panels():
    """Top: an errorbar line over categorical decks (one point missing), the paper's stars
    (labelled once) and a baseline; bottom: a bar chart with error bars."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(4, 4))
    top.errorbar([0, 1, 2], [0.5, np.nan, 0.7], yerr=[[0.1, 0.1, 0.1], [0.2, 0.2, 0.2]],
                 fmt="o-", capsize=3, label="EvalAI (ours)")
    top.scatter([0], [0.6], marker="*", color="black", label="paper")
    top.scatter([2], [0.65], marker="*", color="black")  # unlabelled: still the paper's
    top.axhline(0.25, color="grey", ls="--", label="RandomAI")
    top.axvspan(1.5, 2.5, color="#fff3c4", label="beyond")  # shading, not data
    top.set_xticks([0, 1, 2], ["orig.", "2", "3"])
    top.set(title="wins", ylabel="share")
    bottom.bar([0, 1], [3.0, 4.0], yerr=[0.5, 1.0], label="nodes")
    bottom.plot([], [], label="legend entry only")
    bottom.set(xlabel="depth", ylabel="nodes")
    return fig


def test_figure_data_reads_errorbars_bars_scatter_and_lines():
    fig = _two_panels()
    df = plots.figure_data(fig)
    plt.close(fig)
    assert list(df.columns) == plots.DATA_COLUMNS
    top = df[df["panel"] == "wins"]
    bars = df[df["panel"] == "panel 2"]
    assert len(df) == len(top) + len(bars) == 6 + 2
    eb = top[top["kind"] == "errorbar"]
    assert list(eb["series"]) == ["EvalAI (ours)"] * 3
    assert list(eb["x_label"]) == ["orig.", "2", "3"]
    assert eb["y"].iloc[0] == 0.5 and math.isnan(eb["y"].iloc[1]) and eb["y"].iloc[2] == 0.7
    assert np.allclose(eb["y_low"].iloc[[0, 2]], [0.4, 0.6])
    assert np.allclose(eb["y_high"].iloc[[0, 2]], [0.7, 0.9])
    assert math.isnan(eb["y_low"].iloc[1])
    stars = top[top["kind"] == "scatter"]
    assert list(stars["series"]) == ["paper", "paper"] and list(stars["y"]) == [0.6, 0.65]
    assert list(stars["x_label"]) == ["orig.", "3"]
    base = top[top["kind"] == "hline"]
    assert list(base["series"]) == ["RandomAI"] and base["y"].iloc[0] == 0.25
    assert math.isnan(base["x"].iloc[0])
    assert set(top["y_axis"]) == {"share"}
    # the bars once (their error bars as y_low/y_high, not again as an errorbar series)
    assert list(bars["kind"]) == ["bar", "bar"] and list(bars["series"]) == ["nodes", "nodes"]
    assert list(bars["x"]) == [0.0, 1.0] and list(bars["y"]) == [3.0, 4.0]
    assert list(bars["y_low"]) == [2.5, 3.0] and list(bars["y_high"]) == [3.5, 5.0]
    assert set(bars["x_axis"]) == {"depth"} and set(bars["x_label"]) == {""}


def test_figure_data_band_merges_into_its_line_and_numeric_ticks_are_not_categories():
    fig, ax = plt.subplots()
    for i, name in enumerate("AB"):
        ax.plot([1, 2, 3], [i, i + 1, i + 2], marker="o", label=name)
        ax.fill_between([1, 2, 3], [i - 0.1, i + 0.9, i + 1.9], [i + 0.1, i + 1.1, i + 2.1],
                        alpha=0.2)
    ax.set_xticks([1, 2, 3], ["1", "2", "3"])
    df = plots.figure_data(fig)
    plt.close(fig)
    assert list(df["kind"]) == ["line"] * 6 and list(df["series"]) == list("AAABBB")
    assert np.allclose(df["y_low"], df["y"] - 0.1) and np.allclose(df["y_high"], df["y"] + 0.1)
    assert set(df["x_label"]) == {""} and set(df["panel"]) == {""}


def test_figure_data_of_a_notice_is_empty():
    fig = display.pending_figure("Fig. 2", "durak")
    assert plots.figure_data(fig).empty
    plt.close(fig)


def test_glue_figure_writes_svg_png_csv(tmp_path, monkeypatch):
    glued = []
    monkeypatch.setattr("myst_nb.glue", lambda *a, **kw: glued.append((a, kw)))
    fig = _two_panels()
    paths = plots.glue_figure("fig-test", fig, folder=tmp_path)
    (key, image), kw = glued[0]
    assert key == "fig-test" and kw == {"display": False}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig-test.csv", "fig-test.png",
                                                          "fig-test.svg"]
    assert set(paths) == {"svg", "png", "csv"}
    svg = (tmp_path / "fig-test.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "<dc:date>" not in svg
    png = (tmp_path / "fig-test.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(png[16:20], "big")
    # 200 dpi, shown at the width the 100-dpi figure had
    assert width > 2 * 0.9 * 4 * 100 and image.width == round(width / 2)
    assert image.data == png  # the glued PNG is the saved one (the book checks its hash)
    csv = pd.read_csv(tmp_path / "fig-test.csv", keep_default_na=False, na_values=[""])
    expected = plots.figure_data(fig)
    assert len(csv) == len(expected) == 8
    assert list(csv.columns) == plots.DATA_COLUMNS
    assert np.allclose(csv["y"], expected["y"], equal_nan=True)
    # the same bytes are glued and saved, so the book can tell the saved files are this figure's
    again = plots.save_figure("fig-test", fig, tmp_path)
    assert again["svg"].read_text() == svg  # no date, stable ids: same figure, same file
    plt.close(fig)


def test_glue_figure_writes_the_tidy_data_it_is_given(tmp_path, monkeypatch):
    monkeypatch.setattr("myst_nb.glue", lambda *a, **kw: None)
    fig = _two_panels()
    tidy = pd.DataFrame({"series": ["HeuristicAI"], "deck size": [13], "win rate (%)": [27.5],
                         "ci_low": [25.1], "ci_high": [30.0], "n": [1000]})
    plots.glue_figure("fig-tidy", fig, folder=tmp_path, data=tidy)
    csv = pd.read_csv(tmp_path / "fig-tidy.csv")
    assert list(csv.columns) == list(tidy.columns) and csv["win rate (%)"].tolist() == [27.5]
    plt.close(fig)


def test_glue_figure_of_a_notice_saves_nothing_and_removes_stale_files(tmp_path, monkeypatch):
    monkeypatch.setattr("myst_nb.glue", lambda *a, **kw: None)
    for ext in ("svg", "png", "csv"):
        (tmp_path / f"fig-x.{ext}").write_text("old")
    fig = display.pending_figure("Fig. 2", "durak")
    assert plots.glue_figure("fig-x", fig, folder=tmp_path) == {}
    assert list(tmp_path.iterdir()) == []
    plt.close(fig)


def test_first_sentence_for_alt_text():
    fs = book_ext.first_sentence
    assert fs("Branching factor per round (paper: Fig. 2). Our tree is big.") == \
        "Branching factor per round (paper: Fig. 2)."
    assert fs("Mean score, e.g. Table I. Dashed: $1/n$.") == "Mean score, e.g. Table I."
    assert fs("UCT's constant $C$: margin with 95 % intervals; dotted, best $\\varepsilon$") == \
        "UCT's constant $C$: margin with 95 % intervals; dotted, best $varepsilon$"
    assert len(fs("word " * 100)) <= 251


# -- show()'s tables, numbered by the book ---------------------------------------------------

def _page(*tables: str, extra: str = "") -> str:
    return f"<html><body><section id='s'>{extra}{''.join(tables)}</section></body></html>"


def test_show_wraps_the_table_with_caption_above_a_scroll_container(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    df = pd.DataFrame({"deck": [2, 10], "wins": [0.5, 0.25], "games": [1000.0, 2000.0]})
    display.show(df, "Table I: each agent against three TR players", percent=["wins"],
                 counts=["games"])
    display.show(df, "Other", label="tab-kd-other")
    html = shown[0].data
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    fig = soup.find("figure", class_="gameai-table")
    assert fig["id"] == "tab-table-i-each-agent-against-three-tr-players"
    children = [c for c in fig.children if getattr(c, "name", None)]
    assert [c.name for c in children] == ["figcaption", "div"]
    assert "overflow-x: auto" in children[1]["style"] and children[1].find("table")
    assert soup.find("caption") is None  # the caption is above, not inside the scroller
    assert "50.0\u00a0%" in html and "2,000" in html
    assert 'id="tab-kd-other"' in shown[1].data


def test_table_id():
    assert display.table_id("Speed on one core (ρ, 95 % CI)") == "tab-speed-on-one-core-95-ci"
    assert display.table_id("x", label="Tab KD 1") == "tab-kd-1"
    assert display.table_id("RandomAI\u2019s passing, 1\u20137") == "tab-randomais-passing-1-7"
    assert display.table_id(None) == ""
    long = display.table_id("Compute per experiment " * 10)
    assert len(long) <= 60 and long.startswith("tab-compute-per-experiment")


def test_number_tables_in_book_order_with_unique_ids():
    t = display.table_html
    p1 = _page(t("<table><tr><td>1</td></tr></table>", "First", "tab-a"),
               t("<table><tr><td>2</td></tr></table>", "Second", "tab-a"),
               extra="<h2 id='tab-b'>heading with the same id</h2>")
    p2 = _page("<table class='gameai-claims'><tr><td>x</td></tr></table>")  # not show()'s
    p3 = _page(t("<table><tr><td>3</td></tr></table>", "Third", "tab-b"),
               t("<table><tr><td>4</td></tr></table>", None, ""))
    out, nxt = book_ext.number_tables([p1, p2, p3])
    assert nxt == 5 and out[1] == p2
    from bs4 import BeautifulSoup

    figs = [f for page in out for f in BeautifulSoup(page, "html.parser").select(
        "figure.gameai-table")]
    assert [f["id"] for f in figs] == ["tab-a", "tab-a-2", "tab-b", "tab-4"]
    caps = [" ".join(f.figcaption.get_text(" ").split()) for f in figs]
    assert caps == ["Table 1. First #", "Table 2. Second #", "Table 3. Third #", "Table 4. #"]
    assert [f.figcaption.find("a", class_="headerlink")["href"] for f in figs] == \
        ["#tab-a", "#tab-a-2", "#tab-b", "#tab-4"]
    assert all(f.find("div", class_="gameai-table-scroll").find("table") for f in figs)
    # numbering again (an incremental build) changes nothing
    again, _ = book_ext.number_tables(out)
    assert again == out


def test_claims_tables_and_the_scorecard_are_numbered_with_show_tables():
    from bs4 import BeautifulSoup

    t = display.table_html
    claims = ("<style>.x{}</style><div id='claims-durak'><p class='gameai-claims-legend'>2 "
              "claims</p><table class='gameai-claims' data-chapter='durak' data-claims='2'>"
              "<colgroup><col style='width:8.8em'><col><col style='width:7ch'>"
              "<col style='width:13ch'></colgroup>"
              "<tr class='claim'><td>a</td></tr></table></div>")
    captioned = ("<div id='claims-tarok'><table class='gameai-claims' data-chapter='tarok'>"
                 "<caption>Tarok's <em>claims</em></caption><tr><td>b</td></tr></table></div>")
    card = ("<div style='overflow-x:auto'><table class='gameai-claims gameai-scorecard'>"
            "<tr><td>c</td></tr></table></div>")
    pages = [_page(card), _page(t("<table><tr><td>1</td></tr></table>", "First", "tab-a"),
                                claims), _page(captioned)]
    out, nxt = book_ext.number_tables(pages)
    assert nxt == 5
    figs = [f for page in out for f in BeautifulSoup(page, "html.parser").select(
        "figure.gameai-table")]
    assert [f["id"] for f in figs] == ["tab-scorecard", "tab-a", "tab-claims-durak",
                                       "tab-claims-tarok"]
    caps = [" ".join(f.figcaption.get_text(" ").split()) for f in figs]
    assert caps[0] == f"Table 1. {book_ext.SCORECARD_CAPTION} #"
    assert caps[2] == f"Table 3. {book_ext.CLAIMS_CAPTION} #"
    assert caps[3] == "Table 4. Tarok's claims #"  # its own caption, moved above
    durak = figs[2]
    # the claims div keeps its id (the scorecard links to it) and sits whole in the figure,
    # its legend and table below the caption
    assert durak.find("div", id="claims-durak").find("table", class_="gameai-claims")
    assert durak.figcaption.find_next_sibling("div")["id"] == "claims-durak"
    assert not figs[3].find("caption")
    # the claim column keeps room: the table is at least its fixed columns plus CLAIM_MIN_EM
    # wide, and its box scrolls sideways where the page is narrower
    assert durak.find("table")["style"] == \
        f"min-width: calc({8.8 + book_ext.CLAIM_MIN_EM:g}em + 20ch)"
    assert "overflow-x: auto" in durak.find("div", id="claims-durak")["style"]
    assert "min-width" not in figs[0].find("table").get("style", "")  # the scorecard: as it was
    again, _ = book_ext.number_tables(out)
    assert again == out


def test_dedupe_scripts_drops_the_second_copy_of_an_inline_script():
    from sphinx.builders.html._assets import _JavaScript

    body = 'const THEBE_JS_URL = "x"'
    files = [_JavaScript("_static/doctools.js"), _JavaScript(None, body=body),
             _JavaScript("_static/sphinx-thebe.js", **{"async": "async"}),
             _JavaScript("", body=body), _JavaScript("", body="let other = 1")]
    context = {"script_files": files}
    book_ext.dedupe_scripts(None, "page", "page.html", context, None)
    assert context["script_files"] is files  # the builder's own list, edited in place
    assert [(js.filename, js.attributes.get("body")) for js in files] == [
        ("_static/doctools.js", None), (None, body), ("_static/sphinx-thebe.js", None),
        ("", "let other = 1")]


def test_percent_ticks_have_even_steps_and_enough_decimals():
    for (low, high), expected in [((0.43, 0.585), 0), ((0.2, 0.65), 0), ((0.495, 0.505), 1),
                                  ((0.44, 0.47), 1)]:
        fig, ax = plt.subplots()
        ax.plot([0, 1], [low, high])
        plots.percent_axis(ax)
        fig.canvas.draw()
        locs = [v for v in ax.get_yticks() if low <= v <= high]
        labels = [lab.get_text() for lab in ax.get_yticklabels()
                  if low <= lab.get_position()[1] <= high]
        plt.close(fig)
        steps = np.round(np.diff(locs) * 100, 6)
        assert len(set(steps)) == 1 and steps[0] not in (2.5, 0.25), (low, high, steps)
        assert len(set(labels)) == len(labels)  # no two ticks read the same
        decimals = {len(x.rstrip("%").partition(".")[2]) for x in labels}
        assert decimals == {expected}, (low, high, labels)
    assert plots.PercentTicks.decimals_for([0.4, 0.45, 0.5]) == 0
    assert plots.PercentTicks.decimals_for([0.494, 0.496]) == 1


def test_rates_panel_does_not_join_the_original_deck_to_the_test_decks():
    summary = pd.DataFrame({"deck": ["test2", "test3", "test13", "original"],
                            "label": ["2", "3", "13", "original"],
                            "win": [0.3, 0.4, 0.5, 0.6], "win_lo": [0.25, 0.35, 0.45, 0.55],
                            "win_hi": [0.35, 0.45, 0.55, 0.65]})
    fig, ax = plt.subplots()
    plots.rates_panel(ax, summary, "win", label="HeuristicAI (ours)")
    lines = [c.lines[0] for c in ax.containers]
    assert [list(line.get_xdata()) for line in lines] == [[0, 1, 2], [3]]
    assert lines[0].get_linestyle() == "-" and lines[1].get_linestyle() == "None"
    assert lines[0].get_color() == lines[1].get_color()
    assert ax.get_legend_handles_labels()[1] == ["HeuristicAI (ours)"]  # one entry
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2", "3", "13", "orig."]
    data = plots.figure_data(fig)
    plt.close(fig)
    assert list(data["series"]) == ["HeuristicAI (ours)"] * 4
    assert list(data["x_label"]) == ["2", "3", "13", "orig."]
    assert list(data["y"]) == [0.3, 0.4, 0.5, 0.6]


# -- the extension in a real (small) Sphinx build --------------------------------------------

def test_extension_links_saved_figures_and_sets_alt_text(tmp_path):
    sphinx = pytest.importorskip("sphinx.application")
    src = tmp_path / "src"
    (src / "_figures").mkdir(parents=True)
    fig = _two_panels()
    png, _ = plots.figure_png(fig)
    plots.save_figure("fig-saved", fig, src / "_figures", png=png)
    plots.save_figure("fig-stale", fig, src / "_figures")  # other bytes than the page shows
    plt.close(fig)
    sha = hashlib.sha256(png).hexdigest()
    (src / f"{sha}.png").write_bytes(png)
    (src / "other.png").write_bytes(png)
    (src / "conf.py").write_text("extensions = ['gameai.book.sphinx_ext']\nnumfig = True\n")
    (src / "index.rst").write_text(f"""Title
=====

.. figure:: {sha}.png
   :name: fig-saved

   Wins per deck (paper: Fig. 2). Dashed: random play.

.. figure:: other.png
   :name: fig-stale

   Not the saved one.
""")
    out = tmp_path / "out"
    (out / "_figures").mkdir(parents=True)
    (out / "_figures" / "fig-saved-narrow.png").write_bytes(png)  # an earlier build's phone version
    app = sphinx.Sphinx(str(src), str(src), str(out), str(tmp_path / "doctrees"), "html",
                        status=None, warning=None, freshenv=True)
    app.build()
    html = (out / "index.html").read_text()
    assert not (out / "_figures" / "fig-saved-narrow.png").exists()  # the figure has none now
    assert "<picture>" not in html
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    saved, stale = soup.select("figure")
    links = saved.select("p.gameai-fig-links a")
    assert [a.get_text() for a in links] == ["SVG", "PNG", "data (CSV)"]
    assert [a["href"] for a in links] == ["_figures/fig-saved.svg", "_figures/fig-saved.png",
                                          "_figures/fig-saved.csv"]
    assert "Download:" in saved.figcaption.get_text()
    for a in links:
        assert (out / a["href"]).is_file()
    assert saved.img["alt"] == "Wins per deck (paper: Fig. 2)."
    assert not stale.select("p.gameai-fig-links") and stale.img["alt"] == "Not the saved one."
    assert not (out / "_figures" / "fig-stale.svg").exists()
    assert (out / "_static" / "gameai-book.css").is_file()


def test_figure_dir(tmp_path, monkeypatch):
    monkeypatch.delenv(plots.FIGURES_ENV, raising=False)
    monkeypatch.delenv("GAMEAI_DATA_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert plots.figure_dir() == tmp_path / "_figures"  # the notebook's cwd: book/
    rerun = tmp_path / "_reruns" / "durak-x"
    (rerun / "book").mkdir(parents=True)
    (rerun / "rerun.json").write_text("{}")
    monkeypatch.setenv("GAMEAI_DATA_DIR", str(rerun / "data"))
    assert plots.figure_dir() == rerun.resolve() / "book" / "_figures"  # a rerun's own book
    monkeypatch.setenv(plots.FIGURES_ENV, str(tmp_path / "elsewhere"))
    assert plots.figure_dir() == tmp_path / "elsewhere"


def test_a_wide_figure_gets_a_phone_version_with_one_panel_per_row(tmp_path, monkeypatch):
    monkeypatch.setattr("myst_nb.glue", lambda *a, **kw: None)
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.2), sharey=True)
    for ax in axes:
        ax.plot([10, 100, 1000], [0.2, 0.3, 0.4], label="flat Monte Carlo")
        ax.set_xlabel("iterations per decision")
    paths = plots.glue_figure("fig-wide", fig, folder=tmp_path)
    png = paths["png"].read_bytes()
    text_pt = float(plots.png_text(png, plots.TEXT_PT_KEY))
    assert text_pt == plots.min_text_pt(fig) > 0
    assert plots.phone_text_px(png, text_pt) < plots.MIN_TEXT_PX  # too small squeezed on a phone
    narrow = (tmp_path / "fig-wide-narrow.png").read_bytes()
    assert paths["narrow"].name == "fig-wide-narrow.png"
    height = int.from_bytes(narrow[20:24], "big")
    assert height > 2 * plots.png_width(narrow)  # three panels, one under another
    assert plots.phone_text_px(narrow, text_pt) >= plots.MIN_TEXT_PX
    assert all(label.get_visible() for ax in fig.axes for label in ax.get_yticklabels()
               if label.get_text())  # each panel keeps its own tick labels
    plt.close(fig)
    small, ax = plt.subplots(figsize=(4, 3))
    ax.plot([1, 2], [3, 4])
    plots.glue_figure("fig-wide", small, folder=tmp_path)  # same key, no phone version needed
    assert not (tmp_path / "fig-wide-narrow.png").exists()
    plt.close(small)


def test_phone_figures_serves_the_phone_version_and_the_text_size(tmp_path):
    from bs4 import BeautifulSoup

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.2))
    for ax in axes:
        ax.plot([1, 2], [3, 4])
    text_pt = plots.min_text_pt(fig)
    plots.save_figure("fig-a", fig, tmp_path)
    plt.close(fig)
    page = ('<figure id="fig-a"><img src="../_images/x.png"><figcaption><p class="gameai-fig-links">'
            '<a href="../_figures/fig-a.svg">SVG</a><a href="../_figures/fig-a.png">PNG</a>'
            '</p></figcaption></figure>')
    soup = BeautifulSoup(page, "html.parser")
    assert book_ext.phone_figures(soup, tmp_path)
    source = soup.select_one("picture > source")
    assert source["srcset"] == "../_figures/fig-a-narrow.png" and "max-width" in source["media"]
    img = soup.select_one("picture > img")
    assert float(img["data-gameai-text-px"]) == pytest.approx(text_pt / 72 * plots.FIGURE_DPI, abs=0.1)
    narrow_pt = float(plots.png_text((tmp_path / "fig-a-narrow.png").read_bytes(), plots.TEXT_PT_KEY))
    assert float(img["data-gameai-narrow-text-px"]) == pytest.approx(narrow_pt / 72 * plots.FIGURE_DPI,
                                                                     abs=0.1)
    assert not book_ext.phone_figures(soup, tmp_path)  # a second pass changes nothing


def test_a_phone_version_with_a_legend_beside_the_panels_still_reads(tmp_path):
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.5))
    for i, ax in enumerate(axes):
        ax.plot([1, 2, 3], [1, 4, 9], label=f"a long legend entry for the series number {i}")
    fig.legend(loc="center left", bbox_to_anchor=(1.0, 0.5))
    paths = plots.save_figure("fig-legend", fig, tmp_path)
    text_pt = float(plots.png_text(paths["png"].read_bytes(), plots.TEXT_PT_KEY))
    assert plots.phone_text_px(paths["narrow"].read_bytes(), text_pt) >= plots.MIN_TEXT_PX
    plt.close(fig)


def test_no_phone_version_where_it_would_gain_nothing(tmp_path):
    fig, ax = plt.subplots(figsize=(4.0, 3.0))  # already phone-sized; its small text stays small
    ax.plot([1, 2], [3, 4], label="a legend entry long enough to widen the picture a lot")
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5))
    ax.tick_params(labelsize=5)
    paths = plots.save_figure("fig-small", fig, tmp_path)
    assert "narrow" not in paths and not (tmp_path / "fig-small-narrow.png").exists()
    plt.close(fig)


def test_a_phone_version_moves_a_panel_legend_under_the_panels(tmp_path):
    # a legend inside the panel covers more of it once the panel is narrower: below it, it
    # covers nothing
    fig, ax = plt.subplots(figsize=(10, 3.5))
    for i in range(4):
        ax.plot([1, 2, 3], [i, i + 1, i + 2], label=f"a long legend entry for series {i}")
    ax.legend(loc="upper left", ncol=2)
    paths = plots.save_figure("fig-panel-legend", fig, tmp_path)
    assert "narrow" in paths
    assert ax.get_legend() is None and len(fig.legends) == 1
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [
        f"a long legend entry for series {i}" for i in range(4)]
    plt.close(fig)


def test_a_phone_version_puts_each_panels_legend_under_its_panel(tmp_path):
    fig, axes = plt.subplots(2, 1, figsize=(9, 8))
    for k, ax in enumerate(axes):
        for i in range(3):
            ax.plot([1, 2, 3], [i, i + 1, i + 2], label=f"panel {k}, a long legend entry {i}")
        ax.set_xlabel("x")
        ax.legend(loc="lower right")
    fig.tight_layout()  # leaves a placeholder layout engine: the phone version lays out anew
    paths = plots.save_figure("fig-two-legends", fig, tmp_path)
    assert "narrow" in paths and not fig.legends
    r = fig.canvas.get_renderer()
    for ax in axes:  # each legend lies wholly under its own panel's x label
        assert ax.get_legend().get_window_extent(r).y1 <= ax.xaxis.label.get_window_extent(r).y0
    plt.close(fig)
