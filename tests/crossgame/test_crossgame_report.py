"""The cross-game chapter's tables, figures and sentences on a small hand-made study."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from gameai.crossgame import analysis, report  # noqa: E402
from gameai.crossgame import verdicts as V  # noqa: E402

N = 200
TUNED = "det_uct_tuned"


def _study():
    """Kingdomino: the baseline wins every other deal; flat MC at 100 wins all, at 10 as the
    baseline; the fixed split loses all at 100; the best split and ISMCTS play alike."""
    mixed = [i % 2 for i in range(N)]
    spec = {("baseline", 0): mixed, ("flat_mc", 10): mixed, ("flat_mc", 100): [1] * N,
            ("det_uct", 10): mixed, ("det_uct", 100): [0] * N,
            (TUNED, 10): mixed, (TUNED, 100): mixed, ("ismcts", 10): mixed, ("ismcts", 100): mixed}
    rows = [{"game": "kingdomino", "player": p, "budget": b, "index": i, "headline": float(v),
             "nodes": 5.0, "decisions": 10, "seconds": 0.5}
            for (p, b), values in spec.items() for i, v in enumerate(values)]
    return pd.DataFrame(rows)


def _sweep():
    return pd.DataFrame([{"game": "kingdomino", "player": "det_uct", "budget": b, "n_det": k,
                          "index": i, "headline": float(i < wins)}
                         for b, k, wins in ((10, 1, 50), (10, 10, 80), (100, 1, 120), (100, 10, 60),
                                            (100, 40, 70))
                         for i in range(N)])


def test_smallest_budget_uses_holm_and_names_the_largest_budget_when_none_beats_it():
    table = analysis.strength_table(_study())
    t = report.smallest_budget_table(table, ["kingdomino"]).set_index("game").iloc[0]
    assert t["flat Monte Carlo"] == "100"
    assert t["SO-ISMCTS"] == "none up to 100"
    assert t["determinized UCT, fixed split"] == "none up to 100"


def test_differences_judge_ismcts_against_both_splits():
    d = report.differences(_study(), ["kingdomino"], N)
    fixed = d[(d["rival"] == "det_uct") & (d["budget"] == 100)].iloc[0]
    tuned = d[(d["rival"] == TUNED) & (d["budget"] == 100)].iloc[0]
    assert fixed["verdict"] == "better" and fixed["diff"] == pytest.approx(0.5)
    assert tuned["verdict"] == "equivalent" and tuned["diff"] == 0
    t = report.differences_table(d, ["kingdomino"]).set_index("iterations")
    assert list(t.columns) == ["game", "games", "against the best split", "against the fixed split"]
    assert t.loc["100", "games"] == f"{N:,}"
    assert t.loc["100", "against the fixed split"].startswith("+50.0 (+43.1 to +56.9)")
    assert t.loc["100", "against the best split"].endswith("=")


def test_best_split_table_shows_the_sweeps_choice_beside_the_fixed_split():
    t = report.best_split_table(_sweep(), ["kingdomino"]).iloc[0]
    assert t["10"] == "10 (1)" and t["100"] == "1 (10)"
    assert "one tree in 1" in report.split_text(_sweep(), {"det_budgets": (10, 100, 300)})
    assert "Not swept yet: 300" in report.split_text(_sweep(), {"det_budgets": (10, 100, 300)})
    # a budget swept in some games only is named with the games still to sweep
    two = report.split_text(_sweep(), {"det_budgets": (10, 100), "games": ("kingdomino", "durak2")})
    assert "Not swept yet: 10 iterations for Durak, 2 players. 100 iterations for Durak" in two


def test_strength_text_names_short_cells_second_looks_and_missing_budgets():
    table = analysis.strength_table(_study())
    params = {"n_games": N, "budgets": (10, 100), "games": ("kingdomino",)}
    assert report.strength_text(table, params) == f"Every cell shown has {N:,} games."
    # cells of a run under way: named with their budgets and games
    short = table.copy()
    short.loc[(short["player"] == TUNED) & (short["budget"] == 100), "n"] = 20
    short.loc[(short["player"] == "ismcts") & (short["budget"] == 100), "n"] = 100
    text = report.strength_text(short, params)
    assert text == "Cells with fewer games than asked for (a run still under way): Kingdomino, " \
        "4 players at 100 iterations (20 to 100 games)."
    # a second look: its budgets listed as words ("10 and 100", not "10 and 100 and ...")
    more = table.copy()
    more.loc[more["player"] != "baseline", "n"] = 2 * N
    text = report.strength_text(more, {**params, "budgets": (10, 100, 300)})
    assert f"at least {N:,} games" in text
    assert f"Kingdomino, 4 players at 10 and 100 iterations, {2 * N:,} games." in text
    assert "Not computed yet: 300 iterations (`gameai run crossgame -p experiments strength`)" \
        in text


@pytest.mark.parametrize("make", ["strength", "sweep", "differences"])
def test_figures_have_one_panel_per_game_with_labelled_axes(make):
    if make == "strength":
        fig = report.strength_figure(analysis.strength_table(_study()), ["kingdomino"])
    elif make == "sweep":
        fig = report.sweep_figure(analysis.det_sweep_table(_sweep()), ["kingdomino"])
    else:
        fig = report.differences_figure(report.differences(_study(), ["kingdomino"], N),
                                        ["kingdomino"])
    used = [ax for ax in fig.axes if ax.axison]
    assert len(used) == 1 and used[0].get_title() == "Kingdomino, 4 players"
    assert used[0].get_xlabel() and used[0].get_ylabel()
    fig.canvas.draw()
    assert [t.get_text() for t in used[0].get_xticklabels() if t.get_text()]  # tick labels shown
    lo, hi = used[0].get_xlim()
    assert lo < 10 and hi > 100 if make != "sweep" else lo < 1 and hi > 10  # every point in view
    plt.close(fig)


def test_the_claim_sentence_and_the_domain_table_come_from_the_claims():
    claims = pd.DataFrame({"claim": ["kingdomino.ismcts_vs_det_uct", "tarok.ismcts_vs_det_uct"],
                           "verdict": ["holds", "undecided"], "ours": ["+0.0 points", "-1.0"]})
    text = report.found_claim(claims)
    assert "holds in Kingdomino, 4 players; it is undecided in Tarok" in text
    two = pd.DataFrame({"claim": ["durak2.ismcts_vs_det_uct", "durak4.ismcts_vs_det_uct"],
                        "verdict": ["undecided", "undecided"], "ours": ["+0.0", "+0.0"]})
    assert "is undecided in Durak, 2 players; Durak, 4 players." in report.found_claim(two)
    t = report.domain_table(claims, ["kingdomino"])
    assert len(t) == 4 and t["domain"].iloc[-1] == "Kingdomino, 4 players (this chapter)"
    assert list(t.columns) == ["domain", "determinized UCT", "ISMCTS against it"]
    assert t["ISMCTS against it"].iloc[-1].startswith("holds")


def test_compute_table_sums_each_part_per_game_in_minutes():
    m = pd.DataFrame({"experiment": ["baseline_tarok", "tarok_b10", "tarok_b100",
                                     "determinizations_tarok_b10", "tuned_tarok_b10"],
                      "wall_time_s": [60.0, 60.0, 120.0, 30.0, 1.0], "games": [1, 1, 1, 1, 1],
                      "of": [1, 1, 1, 1, 2], "n_jobs": [1, 1, 2, 1, 1]})
    t = report.compute_table(m, ["tarok"]).iloc[0]
    assert t["three searches"] == "3.0" and t["split sweep"] == "0.5" and t["total"] == "4.5"
    assert report.compute_text(m).startswith("1 of 5 experiments are not complete yet")


def test_one_line_counts_the_claims_and_the_budgets_verdicts():
    claims = pd.DataFrame({
        "claim": ["frankszoo.ismcts_vs_det_uct", "tarok.ismcts_vs_det_uct", "durak2.ismcts_vs_det_uct"],
        "ours": ["+1.2 points (-4.0 to +6.4) at 300", "+3.6 points (+0.4 to +6.8) at 1,000",
                 "\u22120.4 points (\u22126.5 to +5.7) at 300"],
        "verdict": ["undecided", "holds", "undecided"], "n": [500, 1000, 500]})
    diffs = pd.DataFrame({"game": ["tarok"] * 4 + ["frankszoo"],
                          "rival": [TUNED, TUNED, TUNED, "det_uct", TUNED],
                          "budget": [10, 30, 1000, 10, 300], "n": [500, 1000, 500, 500, 500],
                          "verdict": [V.BETTER, V.UNDECIDED, V.NOT_WORSE, V.WORSE, V.UNDECIDED]})
    text = report.one_line(claims, diffs)
    assert "in 3 game settings" in text and "holds in 1 (Tarok" in text
    assert "is undecided in 2 (Frank's Zoo" in text
    # the budgets against the best split only (the fixed split's "worse" is not counted)
    assert ("Of the 4 game-and-budget cells judged (10 to 1,000 iterations, 500 to 1,000 games "
            "each), ISMCTS is better at 1 and not worse by more than 3 points at 1; 2 are "
            "undecided at the games played.") in text
    assert report.one_line(claims, diffs.assign(verdict=V.UNDECIDED)).endswith(
        "500 to 1,000 games each), all are undecided at the games played.")
    assert "worse at" not in text.replace("not worse", "")
    assert "cells judged" not in report.one_line(claims)  # no budgets: the claims alone
    assert "not tested" in report.one_line(claims.iloc[:0])


def test_ours_names_the_budgets_that_keep_a_claim_from_holding():
    table = pd.DataFrame({"budget": [10, 30, 100, 1000], "diff": [0.01, -0.02, 0.03, 0.061],
                          "low": [-0.05, -0.08, 0.0, 0.021], "high": [0.07, 0.04, 0.06, 0.102],
                          "verdict": [V.UNDECIDED, V.UNDECIDED, V.NOT_WORSE, V.BETTER]})
    assert analysis.ours_text(table, "undecided") == (
        "+6.1 points (+2.1 to +10.2) at 1,000; undecided at 10 and 30")
    worse = table.assign(verdict=[V.WORSE, V.UNDECIDED, V.NOT_WORSE, V.BETTER])
    assert analysis.ours_text(worse, "fails").endswith("at 1,000; worse at 10")
    assert analysis.ours_text(table, "holds") == "+6.1 points (+2.1 to +10.2) at 1,000"


def test_found_ranks_the_searches_where_every_cell_is_complete():
    rows = []
    for budget, n_tuned in ((100, 500), (1000, 20)):
        for player, n in (("flat_mc", 500), ("det_uct", 500), (TUNED, n_tuned), ("ismcts", 500)):
            rows.append({"game": "tarok", "player": player, "budget": budget, "n": n,
                         "rate": 0.5, "ci_low": 0.4, "ci_high": 0.6})
    rows.append({"game": "tarok", "player": "baseline", "budget": 0, "n": 500, "rate": 0.3,
                 "ci_low": 0.25, "ci_high": 0.35})
    table = pd.DataFrame(rows)
    assert "At 100 iterations:" in report.found("tarok", table, None, 500)
    assert "At 1,000 iterations:" in report.found("tarok", table, None, 20)
    assert "At 1,000 iterations:" in report.found("tarok", table, None, 5000)  # none complete


def test_the_figures_data_is_tidy_in_the_units_shown():
    table = analysis.strength_table(_study())
    s = report.strength_data(table, ["kingdomino"])
    fig = report.strength_figure(table, ["kingdomino"])
    legend = {t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()}
    plt.close(fig)
    assert set(s["series"]) <= legend  # series named as in the legend
    flat100 = s[(s["series"] == "flat Monte Carlo") & (s["iterations per decision"] == 100)].iloc[0]
    assert flat100["value (%)"] == 100 and flat100["n"] == N and flat100["ci_low (%)"] < 100
    base = s[s["series"] == "baseline in the seat"]
    assert len(base) == 1 and base["iterations per decision"].isna().all()
    assert base["value (%)"].iloc[0] == 50 and set(s["panel"]) == {"Kingdomino, 4 players"}
    d = report.differences_data(report.differences(_study(), ["kingdomino"], N), ["kingdomino"])
    fixed = d[(d["series"] == "ISMCTS − determinized UCT, fixed split")
              & (d["iterations per decision"] == 100)].iloc[0]
    assert fixed["difference (points)"] == pytest.approx(50) and fixed["verdict"] == "better"
    w = report.sweep_data(analysis.det_sweep_table(_sweep()), ["kingdomino"])
    best = w[w["best of its budget"]]
    assert sorted(zip(best["series"], best["determinizations"])) == [("10 iterations", 10),
                                                                       ("100 iterations", 1)]
