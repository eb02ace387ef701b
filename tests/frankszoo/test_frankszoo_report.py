"""The Frank's Zoo chapter's tables, figures and sentences on small hand-made results."""

import json

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from gameai.frankszoo import paper, report  # noqa: E402

SEATS = json.dumps(["HeuristicAI", "RandomAI", "RandomAI", "RandomAI"])


def _games(decks, wins, n=100, seats=SEATS):
    """``n`` games per deck in which seat 0 goes out first in ``wins`` of them (4 points, else
    seat 1 goes out first and seat 0 finishes last with 0)."""
    rows = []
    for deck in decks:
        for i in range(n):
            first = 0 if i < wins else 1
            rows.append({"deck": deck, "first": first, "seats": seats,
                         "score0": 4 if first == 0 else 0, "score1": 0 if first == 0 else 4,
                         "score2": 3, "score3": 2})
    return pd.DataFrame(rows)


TEST_DECKS = [f"test{k}" for k in range(2, 14)]


class Results(dict):
    """The part of :class:`gameai.frankszoo.chapter.Results` the report reads."""

    pass_rule = "uniform"
    pass_rule_evidence = None
    params = {"weight_games": 1_000, "games_per_deck": 100, "mc_highest_games": 100}

    def __getitem__(self, key):
        return self.get(key)

    def pending(self):
        return [k for k, v in self.items() if v is None]


def _claims(**verdicts):
    """A claims table: every claim id ``verdicts`` names (dots as ``__``), with ``(verdict,
    paper, ours)``."""
    return pd.DataFrame([{"claim": cid.replace("__", "."), "verdict": v, "paper": p, "ours": o,
                          "note": ""} for cid, (v, p, o) in verdicts.items()])


def _legend(fig) -> list[str]:
    return [t.get_text() for t in fig.legends[0].get_texts()]


def test_paper_points_are_labelled_by_what_they_are_never_paper_mean():
    pts = report.paper_points("heuristic", published=True)
    names = {p["series"] for p in pts}
    assert names == {"paper: best deck", "paper: worst deck", "paper: published deck",
                     "paper: mean over 2\u201311 types"}
    worst = [p for p in pts if p["series"] == "paper: worst deck" and p["metric"] == "win"][0]
    assert (worst["deck"], worst["value"]) == ("2", paper.SUMMARIES["heuristic"]["worst_win"][0])
    published = [p for p in pts if p["series"] == "paper: published deck" and p["metric"] == "score"]
    assert published[0]["value"] == paper.HEURISTIC_ORIGINAL["score"]


def test_heuristic_figure_data_names_series_as_the_legend_and_shows_percent():
    res = Results(heuristic=_games(TEST_DECKS + ["original"], 50),
                  heuristic_paper=_games(TEST_DECKS + ["original"], 40))
    fig, data = report.heuristic_figure(res)
    assert set(data["series"]) == set(_legend(fig)) - {"beyond the paper's decks"}
    ours = data[(data["series"] == "paper configuration (ours)") & (data["deck"] == "5")]
    win = ours[ours["panel"] == report.PANELS["win"]].iloc[0]
    assert win["value (%)"] == pytest.approx(40.0)
    assert win["ci_low"] < 40 < win["ci_high"] and win["n"] == 100
    star = data[(data["series"] == "paper: published deck") & (data["panel"] == report.PANELS["win"])]
    assert star["deck"].tolist() == ["published"]
    assert star["value (%)"].iloc[0] == pytest.approx(100 * paper.HEURISTIC_ORIGINAL["win"])
    assert "paper mean" not in set(data["series"])
    plt.close(fig)


def test_paper_points_outside_the_decks_run_are_left_out_of_figure_and_data():
    res = Results(mc_std_wins=_games(["test2", "test3", "test4"], 30))
    fig, data = report.mc_figure(res, "mc_std_wins")
    # Fig. 3's best deck is 7 types and its worst 5: neither was run here.
    assert not data["series"].isin(["paper: best deck", "paper: worst deck"]).any()
    assert "paper: mean over 2\u201313 types" in set(data["series"])
    assert not {"paper: best deck", "paper: worst deck"} & set(_legend(fig))
    plt.close(fig)


def test_fig8_shows_every_deck_a_series_ran_to_13_types_not_only_mc_highests():
    res = Results(heuristic=_games(TEST_DECKS + ["original"], 50),
                  heuristic_paper=_games(TEST_DECKS + ["original"], 40),
                  mc_highest_10k=_games(TEST_DECKS[:8], 30), mc_redeal_highest_10k=None)
    fig, data = report.fig8_figure(res)
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert ticks[0] == "2" and ticks[-1] == "13" and "orig." not in ticks
    top = data.groupby("series")["card types"].max()
    assert top["HeuristicAI, paper configuration"] == 13 and top["MC-highest (ours)"] == 9
    assert "panel" not in data.columns  # one panel
    plt.close(fig)


def test_a_figure_whose_experiment_is_missing_is_none():
    res = Results(heuristic=None, heuristic_paper=_games(["test2"], 10))
    assert report.heuristic_figure(res) is None
    assert report.mc_figure(Results(mc_std_score=None), "mc_std_score") is None


def test_per_deck_table_orders_decks_by_number_then_the_published_deck():
    s = report.analysis.per_deck(_games(["original", "test10", "test2", "test9"], 10))
    t = report.per_deck_table({"a": s}, "win")
    assert t["deck (types)"].tolist() == ["2", "9", "10", "original"]
    assert t["a"].iloc[0] == "10.0\u00a0%"
    assert report.per_deck_table({}, "win") is None


def test_two_by_two_text_is_empty_until_all_four_cells_are_run():
    res = Results(heuristic=_games(TEST_DECKS, 50), heuristic_paper_weights=None,
                  heuristic_variants=None, heuristic_paper=None)
    assert report.two_by_two_text(res) == ""
    assert report.two_by_two_table(res) is None


def test_h2h_table_and_text_measure_the_pair():
    seats = json.dumps(["HeuristicAI", "MC-wins", "HeuristicAI", "MC-wins"])
    games = _games(["test2", "test3"], 60, seats=seats)  # seat 0 first in 60 %
    t = report.h2h_table(Results(h2h=games)).iloc[0]
    assert t["HeuristicAI pair vs"] == "MC-wins" and t["games"] == 200
    assert t["a HeuristicAI out first"] == pytest.approx(0.6)
    # points of seats 0 and 2 over 9: (4 + 3) / 9 when seat 0 wins, (0 + 3) / 9 otherwise
    assert t["share of the 9 points"] == pytest.approx((0.6 * 7 + 0.4 * 3) / 9)
    text = report.h2h_texts(Results(h2h=games))["fz-h2h-text"]
    assert "60.0\u00a0% of the games against MC-wins" in text
    assert report.h2h_texts(Results(h2h=None)) == {"fz-h2h-text": "", "fz-h2h-points": ""}


def test_redeal_tables_say_not_run_for_a_missing_hypothesis():
    res = Results(mc_std_score=_games(TEST_DECKS, 60), mc_redeal_score=None)
    tables = report.redeal_tables(res)
    row = tables["win"].set_index("AI").loc["MC-score"]
    assert row["ours"].startswith("60.0\u00a0%") and row["re-deal hypothesis"] == "not run"
    assert "pending" not in tables["win"].to_string()


def test_missing_note_names_what_is_missing_and_the_command():
    done = {k: _games(["test2"], 10) for k in report.WHAT}
    note = report.missing_note(Results(done, h2h=None, mc_episodes=None, mc_perfect=None))
    assert note.startswith("This run did not compute the Monte Carlo controls, the episode sweep "
                           "and the head-to-head:")
    assert note.count(".") == 1 and "`gameai run frankszoo`" in note
    assert report.missing_note(Results(done)) == ""


def _all_claims():
    ids = {f"{p}__mean_win": ("differs", 0.30, 0.60) for p in report.MC_FIGURES}
    ids |= {f"{p}__mean_score": ("differs", 0.60, 0.85) for p in report.MC_FIGURES}
    ids["mc_highest__best_win"] = ("reproduced", 0.40, 0.45)
    ids |= {"heuristic__testdecks__mean_win": ("reproduced", 0.44, 0.435),
            "heuristic__original__win": ("consistent", 0.82, 0.83),
            "heuristic__original__score": ("differs", 0.94, 0.95),
            "heuristic_vs_mc__score_order": ("fails", "above at every deck", "above at 1 of 8"),
            "predictor__accuracy": ("pending", 0.68, np.nan),
            "table4__pass_rule": ("holds", "by choice", "shape error"),
            "table4__scale": ("fails", "200,000", "0.5")}
    return _claims(**ids)


def test_one_line_counts_judged_claims_and_names_what_does_not_reproduce():
    line = report.one_line(_all_claims())
    assert line.startswith("Of the paper's 14 judged numbers, 2 reproduce and 1 more lies within "
                           "the two studies' sampling error; 1 of its 3 statements in words "
                           "holds. 10 of the 11")  # pending left out; a sentence per part
    assert ". HeuristicAI on the published deck (in part)" in line
    assert "10 of the 11 Monte Carlo claims differ" in line
    assert "ours win 60 % of their games" in line and "the paper's 30 %" in line
    assert "HeuristicAI on the published deck (in part)" in line
    assert "HeuristicAI's lead over Monte Carlo" in line and "scale of the paper's Table 4" in line
    assert "predictor" not in line  # pending: not judged
    assert "<a" not in line and "**" not in line and "{" not in line
    assert "without simulation" not in line  # no control in the claims' notes: no word on it
    claims = _all_claims()
    claims.loc[claims["claim"] == "mc_weights.mean_win", "note"] = report.analysis.MC_CLAIM_NOTE
    assert "only Monte Carlo without simulation comes down to it" in report.one_line(claims)


def test_one_line_without_judged_claims_says_so():
    assert report.one_line(_claims(predictor__accuracy=("pending", 0.68, np.nan))) == \
        "No claim of the paper is judged in this run."


def test_found_leaves_out_what_a_partial_run_did_not_compute():
    res = Results(heuristic=_games(TEST_DECKS + ["original"], 50),
                  heuristic_paper=_games(TEST_DECKS + ["original"], 40), mc_std_score=None,
                  mc_episodes=None, mc_redeal_score=None, predictor_paper=None, h2h=None)
    text = report.found(res, _all_claims(), {"games_per_deck": 100})
    assert "**HeuristicAI**" in text and "**40.0\u00a0%**" in text
    assert "**Monte Carlo**" not in text and "**Head-to-head**" not in text
    assert "**Move predictor**" not in text
    assert "This run did not compute" in text and "the paper's Fig. 4" in text
    for word in ("pending", "nan", "None"):
        assert word not in text


def test_conclusions_stand_only_with_their_runs():
    res = Results(mc_std_score=_games(TEST_DECKS, 60), mc_nopass=None, mc_perfect=None,
                  mc_vs_forced=None, mc_episodes=None)
    assert report.mc_why_text(res) == ""
    assert report.redeal_paragraph(res) == ""
    assert report.weights_text(Results(heuristic=_games(TEST_DECKS, 50))) == ""
    assert report.steps_text(Results(heuristic=None, heuristic_variants=None)) == ""


def test_compute_text_compares_fig7_with_the_papers_month():
    compute = pd.DataFrame({"key": ["mc_highest_10k", "heuristic"], "wall time (min)": [10.0, 5.0]})
    text = report.compute_text(compute, {"mc_highest_games": 10_000})
    assert text.startswith("Total compute wall time: 15.0 min.")
    assert "more than 4,000 times as fast" in text or "times as fast" in text
    assert report.compute_text(compute.iloc[0:0], {"mc_highest_games": 10_000}) == ""


def test_table4_data_holds_both_panels_with_the_papers_row_sums():
    totals = pd.DataFrame([{"deck": f"test{k}", "pass_rule": rule, "type": t, "index": 0,
                            "games": 1_000, "cards_left": 500 * (k - t + 1)}
                           for rule in ("uniform", "open") for k in (2, 3) for t in range(1, k + 1)])
    res = Results(table4=totals)
    fig, data = report.table4_figure(res)
    shape = data[data["panel"] == "shape of each row"]
    assert set(shape["series"]) == {"uniform", "open"} and len(shape) == 2 * (2 + 3)
    two = shape[(shape["series"] == "uniform") & (shape["deck (card types)"] == 2)]
    assert two["ours: share of the row"].tolist() == pytest.approx([2 / 3, 1 / 3])
    printed = data[(data["panel"] == "scale: row sums") & (data["series"] == "paper")]
    assert printed.set_index("deck (card types)")["row sum (cards / 1,000)"][2] == sum(paper.TABLE4[2])
    assert data.columns[-1] == "n"
    plt.close(fig)


def test_steps_table_gives_the_papers_values_as_printed_and_says_it_has_no_interval():
    decks = TEST_DECKS + ["original"]
    variants = pd.concat([_games(decks, 40, seats=json.dumps([ai, "RandomAI", "RandomAI", "RandomAI"]))
                          for ai in report.STEPS])
    t = report.steps_table(Results(heuristic=_games(decks, 60), heuristic_variants=variants))
    assert list(t["HeuristicAI"]) == ["HeuristicAI (Table 2)", *report.STEPS.values(), "paper"]
    full, paper_row = t.iloc[0], t.iloc[-1]
    assert full["decks 2\u201311: mean win"] == "60.0\u00a0%" and full["95 % CI"].endswith("%")
    assert paper_row["decks 2\u201311: mean win"] == "44\u00a0%" and paper_row["95 % CI"] == "not given"
    assert paper_row["published deck: win"] == "82\u00a0%"
    assert "" not in t.to_numpy()  # every cell says something
    assert "60.0 % to 40.0 %" in report.steps_text(
        Results(heuristic=_games(decks, 60), heuristic_variants=variants)).replace("\u00a0", " ")
