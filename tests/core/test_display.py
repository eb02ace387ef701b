"""Number formats shared by the chapters."""

from __future__ import annotations

import math

from gameai.core.display import ci_range, number, pct, with_ci


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


def test_plain_floats():
    from gameai.core.display import plain
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

    from gameai.core import display

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
