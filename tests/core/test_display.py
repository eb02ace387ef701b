"""Number formats shared by the chapters."""

from __future__ import annotations

import math
import re

from gameai.book.display import ci_range, number, pct, with_ci


def test_ci_range_formats():
    assert ci_range(0.521, 0.603) == "52.1\u201360.3\u00a0%"
    assert ci_range(-1.2, 3.4, percent=False) == "-1.2 to 3.4"
    # an end negative: "to", since a dash beside a minus reads as one more minus
    assert ci_range(-4.5, -1.7, percent=False) == "-4.5 to -1.7"
    assert ci_range(-0.02, -0.01) == "-2.0 to -1.0\u00a0%"
    assert ci_range(45453, 69060, percent=False, decimals=0) == "45,453\u201369,060"
    assert ci_range(math.nan, 1.0) == "" and ci_range(0.1, None) == ""
    # an end that rounds to zero is 0.0, never "-0.0" (and no "to" for it)
    assert ci_range(-0.04, 1.3, percent=False) == "0.0\u20131.3"
    assert number(-0.04, signed=True) == "+0.0" and number(-0.04) == "0.0" and pct(-0.0001) == "0.0\u00a0%"


def test_no_interval_or_share_prints_as_a_bound_it_is_not():
    # 491,624 passes, every one named: the Wilson interval is not the point 100 %
    assert ci_range(0.9999922, 1.0) == "99.999\u2013100.000\u00a0%"
    assert ci_range(0.99984, 0.99990) == "99.98\u201399.99\u00a0%"
    assert ci_range(0.5, 0.5) == "50.0\u201350.0\u00a0%"  # a point stays a point
    assert pct(0.999872) == "99.99\u00a0%" and pct(0.00004) == "0.004\u00a0%"
    assert pct(1.0) == "100.0\u00a0%" and pct(0.0) == "0.0\u00a0%" and pct(0.5724) == "57.2\u00a0%"
    assert pct(1 - 1e-9) == "100.0000\u00a0%"  # at most three decimals more


def test_plain_floats():
    from gameai.book.display import plain
    assert [plain(v) for v in (0.94, 12.5, 3.0, 0.0, -0.0012, 1234.567, 0.017349, 2e-5)] == \
        ["0.94", "12.5", "3", "0", "-0.0012", "1,234.57", "0.0173", "0.00002"]
    assert plain(math.nan) == ""


def test_with_ci_stacks_the_interval_under_the_value():
    assert with_ci("42.9×", 40.03, 46.07, percent=False) == "42.9×<br><small>40.0\u201346.1</small>"
    assert with_ci("57,257", 45453, 69060, percent=False, decimals=0).endswith(
        "<small>45,453\u201369,060</small>")
    assert with_ci("7.7×", math.nan, 8.3) == "7.7×"  # no interval: the value alone


def test_show_lets_only_the_wrap_columns_break_into_lines(monkeypatch):
    import pandas as pd

    from gameai.book import display

    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    df = pd.DataFrame({"experiment": ["mc_highest_10k"], "description": ["a long description"],
                       "tasks": [80.0]})
    display.show(df, "Compute", wrap=("description", "not a column"))
    display.show(df, "Compute, one line per row")
    wrapped, plain = (s.data for s in shown)
    assert "white-space: normal !important" in wrapped
    assert f"min-width: {display.WRAP_MIN_WIDTH}" in wrapped
    assert "!important" not in plain
    # only the description's cells carry the rule (pandas styles them by their cell ids)
    import re

    rules = re.findall(r"#(T_\w+_row\d+_col(\d+))\s*\{[^}]*white-space: normal !important", wrapped)
    assert rules and {col for _, col in rules} == {"1"}


def test_signed_intervals_have_one_form():
    """A difference's interval always reads "lo to hi", both ends signed, so a table of
    differences never mixes "-1.9 to +0.3" with "-1.9–+0.3" or "0.2–1.4"."""
    assert ci_range(-0.019, 0.003, signed=True) == "-1.9 to +0.3\u00a0%"
    assert ci_range(0.002, 0.014, signed=True, unit="") == "+0.2 to +1.4"
    assert ci_range(-0.03, -0.01, signed=True, unit="") == "-3.0 to -1.0"
    # an unsigned interval still takes "to" when an end carries a sign, the dash otherwise
    from gameai.book.display import range_separator
    assert range_separator("-1.9", "+0.3") == " to " and range_separator("+0.2", "1.4") == " to "
    assert range_separator("\u22121.9", "0.3") == " to " and range_separator("0.2", "1.4") == "\u2013"


def test_no_negative_zero_anywhere():
    from gameai.book.display import points, points_range
    for text in (ci_range(-0.0004, 0.039), ci_range(-0.038, -0.0004, percent=False, signed=True),
                 points(-0.0004), points_range(-0.0004, 0.0004), number(-0.00001, 2, signed=True)):
        assert not re.search(r"-0\.0+(?!\d)", text), text  # "-0.04" is fine, "-0.0" is not
    assert ci_range(-0.0004, 0.039) == "0.0\u20133.9\u00a0%"
    assert ci_range(-3.8, -0.0004, percent=False, signed=True) == "-3.8 to +0.0"


def test_percentage_points_are_written_as_points():
    from gameai.book.display import points, points_range
    assert points(0.021) == "+2.1\u00a0points"
    assert points(-0.0912, signed=False) == "-9.1\u00a0points"
    assert points(0.021, unit=False) == "+2.1" and points(math.nan) == ""
    assert points_range(-0.019, 0.003) == "-1.9 to +0.3\u00a0points"
    assert points_range(0.002, 0.014, unit=False) == "+0.2 to +1.4"
    assert "pp" not in points(0.5) + points_range(0.1, 0.2)
    # an end within a twentieth of a point of 0 shows which side of 0 it lies
    assert points_range(0.0004, 0.005, unit=False) == "+0.04 to +0.50"
    assert points_range(-0.006, -0.0002, unit=False) == "-0.60 to -0.02"
    assert points_range(-0.0004, 0.005, unit=False) == "-0.04 to +0.50"  # covers 0, and says so
    assert points_range(0.000001, 0.005, unit=False) == "+0.000 to +0.500"  # 3 decimals at most


def test_no_e_notation_for_counts():
    from gameai.book.display import count, plain
    assert count(1e5) == "100,000" and count(2e5) == "200,000" and count(1234.6) == "1,235"
    assert count(None) == ""
    assert count(1232312.4, significant=3) == "1,230,000" and count(-0.00123, 2) == "0"
    assert count(987.6, significant=2) == "990" and count(0, significant=3) == "0"
    for v in (1e5, 2e-5, 123456789.0, 0.000123):
        assert "e" not in plain(v).lower() and "e" not in count(v).lower()


def test_lists_in_words_have_no_serial_comma():
    """Budgets and names in prose read "10, 100 and 300", not "10 and 100 and 300"."""
    import pytest

    from gameai.book.display import and_list
    assert and_list(["10"]) == "10"
    assert and_list(["10", "100"]) == "10 and 100"
    assert and_list(f"{b:,}" for b in (10, 100, 3000)) == "10, 100 and 3,000"
    with pytest.raises(ValueError):
        and_list([])


def test_lower_bounds_keep_no_false_precision():
    """"More than a month" against 6.6 minutes is "more than 6,000 times", not "6,592"."""
    from gameai.book.display import at_least
    assert at_least(6592) == "6,000" and at_least(6592, digits=2) == "6,500"
    assert at_least(43200 / 6.553) == "6,000"  # a month in minutes over a measured time
    assert at_least(999.99) == "900" and at_least(1000) == "1,000" and at_least(0.37) == "0.3"
    assert at_least(0) == "" and at_least(math.nan) == ""


def _summary(types, original=False):
    import pandas as pd
    rows = [{"deck": str(t), "types": t, "label": str(t)} for t in types]
    if original:
        rows.append({"deck": "original", "types": 13, "label": "original"})
    df = pd.DataFrame(rows)
    for m in ("win", "score"):
        df[m], df[f"{m}_lo"], df[f"{m}_hi"] = 0.5, 0.4, 0.6
    return df


def test_figure_axis_covers_every_series_decks():
    """Two curves to 13 types and one to 9 (Frank's Zoo's re-deal figure): the x axis labels
    every deck to 13, whatever the order of the series, and each point stands at its deck."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from gameai.book import plots

    long, short = _summary(range(2, 14)), _summary(range(2, 10))
    for series in ({"a": long, "b": long, "c": short}, {"c": short, "a": long}):
        fig = plots.win_score_figure(series)
        fig.canvas.draw()
        labels = [t.get_text() for t in fig.axes[1].get_xticklabels()]  # the panels share x
        assert labels == [str(t) for t in range(2, 14)], labels
        short_line = [c for c in fig.axes[0].containers if c.get_label() == "c (ours)"][0]
        xs = short_line.lines[0].get_xdata()
        assert len(xs) == 8 and round(xs[-1]) == 7  # 9 types is the 8th tick, not the last
        plt.close(fig)


def test_deck_axis_puts_the_published_deck_last():
    from gameai.book import plots
    axis = plots.deck_axis([_summary([2, 3], original=True), _summary([2, 3, 4, 10])])
    assert list(axis["label"]) == ["2", "3", "4", "10", "original"]


def test_a_labelled_table_saves_its_data_as_shown(tmp_path, monkeypatch):
    import pandas as pd

    from gameai.book import display as d

    monkeypatch.setenv("GAMEAI_FIGURES_DIR", str(tmp_path))
    monkeypatch.setattr("IPython.display.display", lambda *a, **kw: None)
    df = pd.DataFrame({"player": ["FG", "GPRD"], "wins": [0.983, 0.7835], "games": [2000.0, 2000.0]})
    d.show(df, "Table I", percent=["wins"], counts=["games"], label="tab-kingdomino-table1")
    d.show(df, "no label")  # no fixed id: no file
    assert [p.name for p in tmp_path.iterdir()] == ["tab-kingdomino-table1.csv"]
    csv = pd.read_csv(tmp_path / "tab-kingdomino-table1.csv")
    assert list(csv.columns) == ["player", "wins (%)", "games"]
    assert csv["wins (%)"].tolist() == [98.3, 78.35] and csv["games"].tolist() == [2000, 2000]


def test_the_book_links_a_table_to_its_csv(tmp_path):
    from bs4 import BeautifulSoup

    from gameai.book import sphinx_ext

    source, out = tmp_path / "src", tmp_path / "out"
    source.mkdir()
    (source / "tab-a.csv").write_text("x\n1\n")
    soup = BeautifulSoup('<figure class="gameai-table" id="tab-a"><table></table></figure>'
                         '<figure class="gameai-table" id="tab-b"><table></table></figure>', "html.parser")
    assert sphinx_ext.table_downloads(soup, source, out, "../")
    links = soup.select("p.gameai-fig-links a")
    assert [a["href"] for a in links] == ["../_figures/tab-a.csv"]  # tab-b has no data file
    assert (out / "tab-a.csv").read_text() == "x\n1\n"
    assert not sphinx_ext.table_downloads(soup, source, out, "../")  # once only


def test_claims_tables_and_the_scorecard_save_their_csv(tmp_path, monkeypatch):
    import pandas as pd

    from gameai.book.claims_table import claims_table, scorecard_table
    from gameai.core.claims import quantitative, read_claims, write_claims

    monkeypatch.setenv("GAMEAI_FIGURES_DIR", str(tmp_path / "figs"))
    write_claims("toy", [quantitative("t1", "wins", 0.3, 0.31, 0.29, 0.33, 1000)], tmp_path)
    claims_table(read_claims("toy", tmp_path), "toy")
    scorecard_table(tmp_path, [("toy", "Toy", "toy.html")])
    saved = pd.read_csv(tmp_path / "figs" / "tab-claims-toy.csv")
    assert saved["claim"].tolist() == ["t1"] and "verdict" in saved
    assert pd.read_csv(tmp_path / "figs" / "tab-scorecard.csv")["chapter"].tolist() == ["toy"]


def test_show_writes_a_dash_where_a_cell_has_no_value(monkeypatch):
    import numpy as np
    import pandas as pd

    from gameai.book import display

    shown = []
    monkeypatch.setattr("IPython.display.display", lambda h: shown.append(h.data))
    df = pd.DataFrame({"who": ["ours", "paper"], "win": [0.572, np.nan], "CI": ["56.9–57.5 %", ""],
                       "n": [100, 200]})
    display.show(df, "a caption", percent=("win",), counts=("n",))
    cells = re.findall(r"<td[^>]*>(.*?)</td>", shown[0])
    assert cells == ["ours", "57.2\u00a0%", "56.9–57.5 %", "100", "paper", display.NONE_CELL,
                     display.NONE_CELL, "200"]
    assert df.loc[1, "CI"] == ""  # the caller's frame is left as it was
