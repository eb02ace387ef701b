"""The tarok chapter's report functions on hand-made frames: tables, figures' tidy data,
sentences (none of them says "pending", "nan" or "None"), the one-line verdict."""

from __future__ import annotations

from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from gameai.tarok import report  # noqa: E402

PARAMS = {"table1_deals": 2, "table1_samples": 2, "table1_depth": 9, "table1_alphabeta_deals": 2,
          "session_games": 4, "strength_deals": 3}


def rows(configs: dict[str, int], deals: int = 4, samples: int = 2, depth: int = 9) -> pd.DataFrame:
    """Search rows: ``configs`` name -> nodes per sample on deal 0 (deal d has d + 1 times as many)."""
    return pd.DataFrame([{"deal": d, "tricks": 0, "depth": depth, "config": name, "sample": s,
                          "nodes": nodes * (d + 1), "seconds": nodes * 1e-6, "card": "XXI",
                          "n_legal": 10, "decision": "XXI"}
                         for d in range(deals) for name, nodes in configs.items() for s in range(samples)])


T1 = {"all": 10, "no_tt": 40, "no_history": 15, "no_minwindow": 14, "no_pruning": 20, "only_tt": 90,
      "only_history": 300, "only_minwindow": 400, "only_pruning": 200, "none": 1000}


def res(**frames) -> defaultdict:
    return defaultdict(lambda: None, frames)


def strength_rows(base_points: dict[str, int], deals: int = 3) -> pd.DataFrame:
    return pd.DataFrame([{"player": p, "opponent": "rule", "deal": d, "points": b + d % 3,
                          "win": int(b + d % 3 > 35), "seconds": 1.0, "nodes": 100.0}
                         for p, b in base_points.items() for d in range(deals)])


def claims(**verdicts) -> pd.DataFrame:
    """A claims frame: the headline, its two node counts and a claim in words."""
    rows = [("table1.reduction", 184.0, 120.0, verdicts.get("reduction", "differs")),
            ("table1.none", 1_598_924, 1_200_000, "not comparable"),
            ("table1.all", 8_667, 10_000, "not comparable"),
            ("table1.only_tt.ratio", 16.7, 17.0, "reproduced"),
            ("strength.reasonable", "plays reasonably", "proxy: 33.7 of 70", "holds")]
    return pd.DataFrame([{"claim": c, "description": f"{c}: x, depth 9, thesis's search configuration",
                          "paper": p, "ours": o, "ci_low": float("nan"), "ci_high": float("nan"),
                          "n": 20, "verdict": v, "note": ""} for c, p, o, v in rows])


def test_one_line_counts_judged_numbers_and_gives_the_measured_reason():
    line = report.one_line(claims())
    assert line.startswith("Of 2 judged numbers") and "1 reproduce and 1 differ" in line
    three = claims().assign(verdict=lambda c: c["verdict"].where(c["claim"] != "table1.none",
                                                                   "consistent"))
    assert ("Of 3 judged numbers of the tarok paper and its thesis, 1 reproduce, 1 lie within "
            "both studies' sampling error and 1 differ") in report.one_line(three)
    assert "120×" in line and "184×" in line
    assert "plain alpha-beta expands fewer nodes" in line and "1,200,000" in line
    assert "fully enhanced search expands more nodes" in line and "of 1 claims in words, 1 hold" in line
    assert "[" not in line and "](" not in line  # plain text, no links


def test_one_line_without_a_differing_headline_gives_no_reason():
    line = report.one_line(claims(reduction="reproduced"))
    assert "thesis, 2 reproduce;" in line and "because" not in line
    assert report.one_line(claims().iloc[:0]) == "No claim of the tarok paper is computed in this run."


def test_missing_text_names_each_experiment_once_with_the_command():
    text = report.missing_text(["table1_alphabeta", "table8_alphabeta", "sessions"])
    assert text.count("the paper's Table 1 with an alpha-beta root") == 1
    assert "`gameai run tarok -p experiments table1_alphabeta,sessions`" in text
    assert report.missing_text([]) == ""


def test_data_prefers_the_long_table1_run_and_cuts_the_paper_setup():
    d = report.data(res(table1=rows(T1, deals=2), table1_ci=rows(T1, deals=4)), PARAMS)
    assert d.t1["deal"].nunique() == 4 and set(d.t1_paper["deal"]) == {0, 1}
    assert d.t1t is None and d.decomp["step"].tolist() == ["sound search: full root window, PVS, our pruning"]


def test_table1_tables_beside_the_paper():
    d = report.data(res(table1_ci=rows(T1, deals=4)), PARAMS)
    t = report.table1_nodes(d)
    assert t.loc[0, "configuration"] == "all enhancements"
    assert t.loc[0, "none ÷ this"].startswith("100.0×")  # 1000 / 10 on every deal
    assert t.loc[0, "paper nodes"] == 8_667
    assert "Paper's Table 1" in t.attrs["show"]["caption"] and "2 deals" in t.attrs["show"]["caption"]
    assert report.table1_all(d)["deals"].tolist() == [4] * len(T1)
    short = report.data(res(table1=rows(T1, deals=2)), PARAMS)
    assert report.table1_all(short) is None  # no deals beyond the paper's setup
    assert report.table1_nodes(report.data(res(), PARAMS)) is None


def test_table1_figure_data_is_tidy_with_legend_series():
    d = report.data(res(table1=rows(T1, deals=2)), PARAMS)
    f = report.table1_figure_data(d)
    assert set(f["series"]) == {"ours (per sampled deal)", "paper"}
    assert len(f) == 2 * len(T1)
    ours = f[f["series"] == "paper"].set_index("configuration")
    assert ours.loc["plain alpha-beta", "nodes per sampled deal"] == 1_598_924
    assert {"ci_low", "ci_high", "n"} <= set(f.columns)
    fig = report.table1_figure(d)
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["ours (per sampled deal)", "paper"]
    plt.close(fig)


def test_reduction_and_gap_texts():
    d = report.data(res(table1_ci=rows(T1, deals=4)), PARAMS)
    text = report.reduction_text(d)
    assert "**100.0×** fewer nodes" in text and "over all 4 deals" in text
    assert "smaller than the paper's (100.0× against 184×" in report.sound_gap_text(d)
    assert "multiplies our nodes by 4.0" in report.tt_text(d)
    assert report.reduction_text(report.data(res(), PARAMS)) == "not computed in this run."


def test_table8_compact_and_tidy():
    t8 = rows({"none": 100, "only_tt": 10, "only_history": 50}, deals=2, depth=3)
    d = report.data(res(table1=rows(T1, deals=2), table8=t8), PARAMS)
    t = report.table8_table(d)
    assert "deals" not in t.columns and "over 2 deals" in t.attrs["show"]["caption"]
    assert list(t.columns) == ["configuration", "depth", "nodes", "thesis", "none ÷ this", "α-β root", "thesis ÷"]
    f = report.table8_figure_data(d)
    assert "thesis: the table alone" in set(f["series"]) and "the table alone" in set(f["series"])
    assert set(f["depth (plies)"]) == {3, 9}


def test_depth3_sound_text_explains_only_when_every_sample_is_equal():
    t8 = rows({"none": 100, "only_tt": 100, "only_history": 100}, deals=2, depth=3)
    text = report.depth3_sound_text(report.data(res(table8=t8), PARAMS))
    assert "on 4 of 4 sampled deals" in text and "no cut-off happens" in text
    t8.loc[t8["config"] == "only_history", "nodes"] = 50
    text = report.depth3_sound_text(report.data(res(table8=t8), PARAMS))
    assert "on 0 of 4 sampled deals" in text and "no cut-off" not in text


def test_strength_table_and_figure_data():
    d = report.data(res(strength=strength_rows({"random": 20, "tarokist": 34, "mcab": 34})), PARAMS)
    t = report.strength_table(d)
    assert t["declarer"].tolist()[0] == "random legal cards"
    assert t.loc[t["declarer"] == "plain Monte Carlo alpha-beta", "vs full program"].iloc[0].startswith("+0.0")
    f = report.strength_figure_data(d)
    assert f.set_index("declarer").loc["random legal cards", "card points of 70"] == pytest.approx(21.0)
    assert (f["n"] == 3).all()
    assert "no measurable difference" in report.mcab_text(d)


def test_claims_view_shortens_descriptions_and_puts_absolute_counts_last():
    v = report.claims_view(claims())
    assert v["claim"].tolist()[-2:] == ["table1.none", "table1.all"]
    assert v.set_index("claim").loc["table1.reduction", "description"] == "table1.reduction: x"
    assert report.claims_digits("table1.all.seconds") == 3 and report.claims_digits("table1.all") == 0


def test_nothing_computed_leaves_no_pending_nan_or_none_in_the_text():
    d = report.data(res(), PARAMS)
    c = claims()
    c.loc[:, "verdict"] = "pending"
    pending = pd.concat([c, pd.DataFrame([{"claim": k, "verdict": "pending", "ours": "", "n": 0}
                                          for k in ("fuzzy_tt.gain", "fuzzy_tt.quality", "window.exact",
                                                    "window.play")])], ignore_index=True)
    texts = [f(d) for f in (report.reduction_text, report.reading_text, report.time_text, report.tt_text,
                            report.sound_gap_text, report.root_fit_text, report.depth3_sound_text,
                            report.ab_history_text, report.single_text, report.decomp_text,
                            report.steps_text, report.remaining_text, report.table8_text,
                            report.depth3_text, report.mcab_text, report.sessions_text,
                            report.session_trend_text, report.speed_text)]
    texts += [f(pending) for f in (report.window_text, report.fuzzy_text, report.fuzzy_play_text,
                                   report.strength_text, report.one_line)]
    for text in texts:
        assert not any(w in text for w in ("pending", "nan", "None")), text
    for table in (report.table1_nodes, report.table8_table, report.decomp_table, report.thesis_table1,
                  report.thesis_table8, report.window_cost_table, report.fuzzy_both_table,
                  report.strength_table, report.contracts_table):
        assert table(d) is None


def test_short_text_names_experiments_shown_with_fewer_tasks():
    text = report.short_text({"table1_ci": (20, 200), "strength": (6, 6)})
    assert "the paper's Table 1 over all deals with 20 of its 200 tasks" in text and "strength" not in text
    assert report.short_text({"strength": (6, 6)}) == ""


def test_conclusions_follow_the_numbers():
    d = report.data(res(table1=rows(T1, deals=2)), PARAMS)
    assert "in our search the table does most of the work" in report.tt_text(d)  # no_tt: 4×, the most
    flat = report.data(res(table1=rows({**T1, "no_tt": 11, "no_pruning": 30}, deals=2)), PARAMS)
    assert "most of the work" not in report.tt_text(flat)
    # 15 nodes per sample against the paper's 8,667: per decision (x2) is nearer, for both counts
    assert report.reading_text(d).endswith("most plausibly per decision.")
    near = report.data(res(table1=rows({"all": 8_667, "none": 1_598_924}, deals=2)), PARAMS)
    assert report.reading_text(near).endswith("most plausibly per sampled deal.")
    assert report.verdicts_text(claims().assign(verdict="pending")) == "**5** not computed in this run"


def test_tt_text_compares_history_and_window_with_the_paper():
    d = report.data(res(table1=rows({**T1, "no_history": 30}, deals=2)), PARAMS)
    text = report.tt_text(d)
    assert "history saves more than in the paper (switching it off: 3.00×" in text
    assert "the minimal window less (1.40×" in text


def test_compute_table_counts_one_stored_run_once(monkeypatch):
    # Table 1 at the paper's 20 deals reads the first deals of the 200-deal run: one file, one
    # recorded time, so one row (the larger) naming both
    from types import SimpleNamespace

    import gameai.core.store as store

    monkeypatch.setattr(store, "wall_time", lambda exp, data_dir: {"table1": 7200.0,
                                                                    "strength": 3600.0}[exp.name])
    exps = {"table1": SimpleNamespace(name="table1", total=20, description="Table 1"),
            "table1_ci": SimpleNamespace(name="table1", total=200, description="Table 1 at more deals"),
            "strength": SimpleNamespace(name="strength", total=10, description="Strength")}
    frames = {"table1": pd.DataFrame({"key": ["a"] * 20, "index": range(20)}),
              "table1_ci": pd.DataFrame({"key": ["a"] * 200, "index": range(200)}),
              "strength": pd.DataFrame({"key": ["b"] * 4, "index": range(4)})}
    res = type("Res", (), {"experiments": exps, "data_dir": "d",
                           "__getitem__": lambda self, k: frames[k]})()
    t = report.compute_table(res)
    assert t["experiment"].tolist() == ["Table 1 at more deals (its first tasks: Table 1)", "Strength"]
    assert t["tasks"].tolist() == ["200", "4 of 10"] and t["wall time (h)"].tolist() == [2.0, 1.0]
