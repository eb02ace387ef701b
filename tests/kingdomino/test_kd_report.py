"""Table III against the authors' own games (kingdomino.report), from hand-made games."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from gameai.kingdomino import analysis, paper, report


def ours(player, T, own, opps, time_scale=1.0):
    """Our game rows: the player's score ``own[i]`` and its opponents' ``opps[i]`` per game."""
    out = []
    for i, (o, (a, b, c)) in enumerate(zip(own, opps)):
        out.append({"key": "k", "index": i, "player": player, "seat0": player, "T": T * time_scale,
                    "score0": o, "score1": a, "score2": b, "score3": c,
                    "margin": o - max(a, b, c), "win": int(o > max(a, b, c)), "draw": 0})
    return out


def theirs(strategy, T, own, opps):
    rows = [{"strategy": strategy, "T": T, "game": i, "score": o, "opp1": a, "opp2": b, "opp3": c}
            for i, (o, (a, b, c)) in enumerate(zip(own, opps))]
    df = pd.DataFrame(rows)
    df["score_diff"] = df["score"] - df[["opp1", "opp2", "opp3"]].max(axis=1)
    df["win"] = np.sign(df["score_diff"])
    return df


RNG = np.random.default_rng(7)


def noisy(mean, n=200, sd=8.0):
    return np.round(RNG.normal(mean, sd, n)).astype(int)


def test_game_tests_judge_each_cell_on_both_studies_games():
    same = noisy(50), [(40, 45, 44)] * 200
    mine = pd.DataFrame(ours("MCE-TR/R", 0.5, noisy(50), same[1], 0.01)
                        + ours("UCT-FG", 6.0, noisy(44), same[1], 0.01))  # 6 points lower
    auth = pd.concat([theirs("MCE-TR/R", 0.5, *same), theirs("UCT-FG", 6.0, noisy(50), same[1]),
                      theirs("FG", 1.0, noisy(50), same[1])])  # a cell we lack: left out
    t = report.game_tests(mine, auth, time_scale=0.01).set_index("strategy")
    assert list(t.index) == ["MCE-TR/R", "UCT-FG"] and (t["T"] == [0.5, 6.0]).all()
    assert t.loc["MCE-TR/R", "welch"] == "agrees" and t.loc["UCT-FG", "welch"] == "differs"
    assert t.loc["UCT-FG", "p_welch"] < 1e-6 and t.loc["UCT-FG", "p_rank"] < 1e-6
    assert t.loc["UCT-FG", "lo"] < t.loc["UCT-FG", "delta"] < t.loc["UCT-FG", "hi"] < 0
    counts = report.game_test_counts(t.reset_index())
    assert counts["cells"] == 2 and counts["welch"] == 1 and counts["holm"] == 1
    assert counts["by_chance"] == pytest.approx(0.1)
    note = report.game_test_note(t.reset_index().iloc[1])
    assert "our 200 like for like against the authors' 200" in note and "differs at 5 %" in note


def test_a_like_for_like_claim_carries_the_game_level_test():
    opp = [(40, 45, 44)] * 200
    lfl = pd.DataFrame(ours("UCT-FG", 6.0, noisy(48.5), opp))  # paper 3.5: margin about 3.5
    auth = theirs("UCT-FG", 6.0, noisy(48.5), opp)
    (c,) = [c for c in analysis.table3_claims(None, 200, authors=lfl, authors_games=auth)
            if c.claim == "table3.UCT-FG.6"]
    assert "On both studies' games" in c.note and "Welch p = " in c.note
    rule_only = pd.DataFrame(ours("UCT-FG", 6.0, noisy(48.5), opp))
    (r,) = [c for c in analysis.table3_claims(rule_only, 200, authors_games=auth)
            if c.claim == "table3.UCT-FG.6"]
    assert "On both studies' games" not in r.note  # only like-for-like cells are so tested


def test_score_sides_compare_opponents_at_equal_player_scores():
    # within each cell the best opponent loses 0.5 points per point its player scores
    own = np.tile(np.arange(40, 60), 10)
    opp = [(60 - 0.5 * (o - 50), 30, 30) for o in own]
    mine = pd.DataFrame(ours("MCE-FG/R", 1.0, own + 2, opp))  # the same opponents
    # ours: the player scores 2 more, so at equal scores our opponent would be 1 point higher
    auth = theirs("MCE-FG/R", 1.0, own, opp)
    s = report.score_sides_cells(mine, auth)
    r = s.iloc[0]
    assert s.attrs["slope"] == pytest.approx(-0.5)
    assert r.own == pytest.approx(2.0) and r.best == pytest.approx(0.0)
    assert r.best_adj == pytest.approx(1.0)  # 0 - (-0.5) x 2


def _sides(own_short, own_long, best, n_cells=40):
    rows = []
    for i in range(n_cells):
        T = paper.TABLE3_T[i % 10]
        rows.append({"strategy": f"MCE-{i}", "T": T, "n": 200,
                     "own": own_short if T <= 2 else own_long, "own_se": 0.5,
                     "best": best, "best_se": 0.5, "best_adj": best, "best_adj_se": 0.5,
                     "margin": (own_short if T <= 2 else own_long) - best, "margin_se": 0.7})
    return pd.DataFrame(rows)


def test_shortfall_says_which_side_changes_with_the_budget():
    lfl, rule = report.shortfall(_sides(1.0, 0.0, 1.2)), report.shortfall(_sides(1.8, 0.2, 1.3))
    own = lfl.set_index("side").loc["own"]
    assert own.short == pytest.approx(1.0) and own.long == pytest.approx(0.0)
    assert own.change_hi < 0 and lfl.set_index("side").loc["best_adj", "change"] == pytest.approx(0)
    text = report.shortfall_sentence(lfl, rule)
    assert "no clear change with the budget" in text
    assert "lies in our player's own score" in text
    flipped = report.shortfall(_sides(0.5, 0.5, 1.2).assign(
        best_adj=lambda d: np.where(d["T"] <= 2, 0.0, 1.5)))
    assert "lies in the opponents' scores" in report.shortfall_sentence(flipped, rule)
    table = report.shortfall_table(lfl, rule)
    assert len(table) == 8 and set(table["setting"]) == {"like for like", "our rule"}


def test_the_judged_grid_shows_like_for_like_with_our_rule_beneath():
    lfl_t = analysis.table3(pd.DataFrame(ours("MCE-FG/R", 10.0, [60] * 4, [(52, 50, 40)] * 4)))
    rule_t = analysis.table3(pd.DataFrame(ours("MCE-FG/R", 10.0, [55] * 4, [(52, 50, 40)] * 4)
                                          + ours("UCT-TR", 10.0, [50] * 4, [(52, 50, 40)] * 4)))
    g = report.judged_grid(lfl_t, rule_t, 200)
    assert list(g.index) == ["MCE-FG/R", "UCT-TR"] and list(g.columns) == ["10 s"]
    cell = g.loc["MCE-FG/R", "10 s"]
    assert cell.startswith("<b>+8.0</b>") and "(+9.6)" in cell and "rule +3.0" in cell
    assert "n=4" in cell
    assert g.loc["UCT-TR", "10 s"].startswith("–")  # no like-for-like games: only our rule
    colours = report.grid_colours(lfl_t, g)
    assert "178, 24, 43" in colours.loc["MCE-FG/R", "10 s"] and colours.loc["UCT-TR", "10 s"] == ""
    best = report.best_per_budget(rule_t).iloc[0]
    assert best.strategy == "MCE-FG/R" and best.paper_best == "MCE-FG/R"


def test_shortfall_skips_sides_without_spread_and_says_nothing_then():
    flat = _sides(1.0, 0.0, 1.2).assign(own_se=0.0)  # every game alike: no test possible
    t = report.shortfall(flat)
    assert "own" not in set(t["side"]) and "best_adj" in set(t["side"])
    assert report.shortfall_sentence(t, t) == ""
    assert report.judged_grid(None, None, 200).empty


def test_experiments_have_readable_names():
    assert report.experiment_label("table3_T0p5") == "Table III, our rule, 0.5 s"
    assert report.experiment_label("table3authors_T10") == "Table III like for like, 10 s"
    assert report.experiment_label("fig7_C") == "Fig. 7: UCT's exploration constant"
    assert report.experiment_label("unknown") == "unknown"


def test_the_table3_family_and_offset_in_words(tmp_path):
    from gameai.core.claims import quantitative, read_claims, write_claims

    rng = np.random.default_rng(5)
    rows = []
    for s in list(paper.TABLE3)[1:5]:
        for T, v in zip(paper.TABLE3_T, paper.TABLE3[s]):
            d = rng.normal(-1.5 if T > 2 else 0.0, 1.4)  # 1.1 below the paper above 2 s
            rows.append(quantitative(f"table3.{s}.{T:g}", "d", v, v + d, v + d - 2.4, v + d + 2.4,
                                     200, step=0.1, n_paper=200, note="n"))
    write_claims("kd", rows, tmp_path)
    claims = read_claims("kd", tmp_path)
    assert report.table3_family(claims).startswith(f"{sum(c.verdict == 'differs' for c in rows)} of 40 differ")

    class Res:  # no games: the FG sentence is left out
        frames = {}
    text = report.table3_offset(claims, Res())
    assert "above 2 s, they sit" in text and "points below the paper's" in text
    assert "One shift for the whole table" in text and "FG" not in text
    assert report.table3_family(claims.iloc[:5]) is None


def test_our_rule_s_interval_in_a_claim_note_has_no_negative_zero():
    lfl = pd.DataFrame(ours("UCT-FG", 6.0, [48] * 4, [(45, 44, 40)] * 4))
    rule = pd.DataFrame(ours("UCT-FG", 6.0, [44, 46, 40, 42], [(45, 44, 40)] * 4))
    rule["margin"] = [-1.9, 0.02, -3.8, -2.0]
    (c,) = [c for c in analysis.table3_claims(rule, 200, authors=lfl) if c.claim == "table3.UCT-FG.6"]
    assert "our rule: " in c.note and "-0.0" not in c.note


def test_the_rule_and_the_games_test_are_set_side_by_side():
    tests = pd.DataFrame({"strategy": ["UCT-FG", "UCT-FG", "MCE-TR/R"], "T": [0.1, 6.0, 1.0],
                          "p_welch": [0.001, 0.049, 0.6], "welch": ["differs", "differs", "agrees"]})
    claims = pd.DataFrame({"claim": ["table3.UCT-FG.0.1", "table3.UCT-FG.6", "table3.MCE-TR/R.1"],
                           "verdict": ["differs", "consistent", "reproduced"]})
    r = report.rule_and_games(tests, claims)
    assert r == {"cells": 3, "agree": 2, "p_min": 0.049, "p_max": 0.049}
    same = report.rule_and_games(tests.iloc[[0, 2]], claims)
    assert same["agree"] == 2 and math.isnan(same["p_min"])


def test_the_opponents_reading_follows_from_the_intervals():
    same = report.shortfall(_sides(1.0, 0.0, 1.2))
    assert report.opponents_reading(same) == \
        "our opponents score more than the authors' by about the same at every budget"
    rising = report.shortfall(_sides(1.0, 0.0, 1.2).assign(
        best_adj=lambda d: np.where(d["T"] <= 2, 0.8, 2.0)))
    assert report.opponents_reading(rising).endswith("more so above 2 s")
    none = report.shortfall(_sides(1.0, 0.0, 0.0))
    assert "do not differ from the authors' clearly" in report.opponents_reading(none)


# ----------------------------------------------------------------------------- the chapter's page


class FakeRes:
    """A run's results as the report reads them: frames by key, ``res[key]`` None if missing."""

    def __init__(self, frames):
        self.frames = frames

    def __getitem__(self, key):
        return self.frames.get(key)


def _claims(rows):
    cols = ["claim", "description", "paper", "ours", "ci_low", "ci_high", "n", "verdict", "note"]
    return pd.DataFrame([dict(zip(cols, r)) for r in rows], columns=cols)


def test_one_line_counts_the_verdicts_and_names_the_measured_causes():
    claims = _claims(
        [("tree.size", "d", 61.6, 58.0, 57.9, 58.1, 1000, "differs", "n")]
        + [("table2.FG", "d", 51.4, 53.7, 53.0, 54.4, 500, "differs", "n")]
        + [(f"table3.UCT-FG.{T}", "d", 0.0, 0.0, -1, 1, 200, v, "n")
           for T, v in zip(range(40), ["differs"] * 3 + ["consistent"] * 7 + ["reproduced"] * 30)]
        + [("table2.p_like_r", "d", "x", "y", 0, 0, 500, "fails", "n"),
           ("fig7.C", "d", "x", "y", 0, 0, 200, "holds", "n"),
           ("conclusion.enhancements_short", "d", "x", "y", 0, 0, 0, "pending", "n")])
    line = report.one_line(claims)
    assert line.startswith("Of the paper's 42 judged numbers, 30 reproduce and 7 more lie within")
    assert "5 differ — the game-tree size because the paper counts a mirrored placement twice" in line
    assert "3 cells of Table III, where chance alone would give about 2.0 —" in line
    assert "2 statements in words tested here, 1 holds and 1 fails" in line
    assert line.endswith(".") and "[" not in line and "pending" not in line
    only_pending = claims.assign(verdict="pending")
    assert report.one_line(only_pending) == "No number of the paper is judged in this run yet."


def test_a_rerun_names_what_it_lacks_in_one_sentence():
    res = FakeRes({"branching": pd.DataFrame({"x": [1]}), "table1": None,
                   "table3_T0p5": pd.DataFrame({"x": [1]}), "table3_T10": None,
                   "table3authors_T0p5": None})
    groups = ("branching", "table1", "table3_short", "table3_long", "table3_authors")
    assert report.missing_groups(res, groups) == ["table1", "table3_long", "table3_authors"]
    s = report.missing_sentence(res, groups)
    assert s.count(".") == 1 and "pending" not in s
    assert "Table I, the paper's Table III above 2 s under our rule and the like-for-like" in s
    assert "`gameai rerun kingdomino -p experiments table1,table3_long,table3_authors`" in s
    assert report.missing_sentence(res, ("branching", "table3_short")) == ""


def test_texts_without_their_games_are_left_out_not_pending():
    res = FakeRes({})
    claims = _claims([("tree.size", "d", 61.6, None, None, None, 0, "pending", "n"),
                      ("conclusion.enhancements_short", "d", "x", "", 0, 0, 0, "pending", "n")])
    assert report.tree_found(claims) == report.NOT_RUN and report.tree_text(None, claims) == ""
    assert report.quirk_text(None) == "" and report.intervals_text(res, 1.0) == ""
    assert report.offset_text(claims, res) == "" and report.offsets_text(res, 1.0) == ""
    assert report.enhancement_text(claims) == "" and report.fga_text(None) == ""
    assert report.lfl_texts(res, {"time_scale": 1.0, "authors_games": 200})["kd-lfl-summary"] == ""
    assert report.beyond_texts(res, {"time_scale": 1.0, "beyond_games": 200}) == {
        "kd-beyond-readings": "", "kd-beyond-short": report.NOT_RUN}
    for df in (report.table1_table(None), report.offsets_data(res, 1.0), report.beyond_data(res, 1.0),
               report.sweep_data(None, "C", 1.0), report.lfl_table(res, 1.0),
               report.sides_table(res, 1.0, "our rule")):
        assert df is None


def _branching_games():
    rows = []
    for twice in (False, True):
        for game in range(3):
            for rnd in (1, 2):
                for seat in range(4):
                    rows.append({"index": game, "round": rnd, "seat": seat, "mirrored_twice": twice,
                                 "branching": 10 * rnd + game + (5 if twice else 0)})
    return pd.DataFrame(rows)


def test_fig2_s_data_is_tidy_and_the_figure_draws_it():
    d = report.branching_data(_branching_games())
    assert list(d.columns) == ["series", "round", "legal moves (mean)", "ci_low", "ci_high", "n"]
    assert set(d["series"]) == {"mirrored placements listed once (the rules), 3 games",
                                "mirrored placements counted twice, 3 games"}
    once = d[d["series"].str.contains("once")].set_index("round")
    assert once.loc[2, "legal moves (mean)"] == pytest.approx(21.0) and (once["n"] == 3).all()
    assert (d["ci_low"] <= d["legal moves (mean)"]).all()
    fig = report.branching_figure(d)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert labels == list(d["series"].unique())  # the CSV's series are the legend's


def test_table1_and_figs3_4_from_game_rows():
    games = pd.DataFrame([{"seat0": a, "win": w, "draw": 0, "score0": s, "margin": s - 40,
                           **{f"score_m{m}": s * m / 13 for m in range(1, 14)}}
                          for a, w, s in (("FG", 1, 60), ("FG", 1, 50), ("GPRD", 0, 30), ("GPRD", 1, 50))])
    t = report.table1_table(games).set_index("agent")
    assert t.loc["FG", "wins"] == "100.0\u00a0%" and t.loc["FG", "paper wins"] == "97.7\u00a0%"
    d = report.score_by_move_data(games)
    assert len(d) == 26 and set(d["series"]) == {"FG", "GPRD"}
    assert d.set_index(["series", "the player's move"]).loc[("FG", 13), "own score (mean)"] == pytest.approx(55)


def test_the_offsets_and_sweep_data_say_what_the_figure_shows():
    rows = []
    for s in ("MCE-TR/R", "MCE-FG/R", "UCT-TR", "UCT-FG"):
        rows += ours(s, 0.1, noisy(45), [(50, 40, 40)] * 200)
    res = FakeRes({"table3_T0p1": pd.DataFrame(rows)})
    d = report.offsets_data(res, 1.0)
    assert set(d["series"]) == {"MCE (4 strategies)", "UCT"} and (d["n"] == 200).all()
    assert list(d["seconds per ply"]) == [0.1, 0.1]
    paper_mce = np.mean([paper.TABLE3[s][0] for s in ("MCE-TR/R", "MCE-FG/R")])
    mce = d.set_index("series").loc["MCE (4 strategies)", "ours − paper (points)"]
    assert mce == pytest.approx(-5 - paper_mce, abs=1.5)
    assert report.families_found(res, 1.0).startswith("at 0.1 s per ply: MCE ")
    text = report.offsets_text(res, 1.0)  # no cell from 1 s on: that clause is left out
    assert text.startswith("By family the differences") and "from 1 s on" not in text
    sweep = pd.DataFrame([{**r, "C": c} for c in (0.2, 0.6) for r in ours("UCT-TR", 0.2, noisy(45, 20), [(50, 40, 40)] * 20)])
    s = report.sweep_data(sweep, "C", 1.0)
    raw = s[s["series"] == report.RAW_BEST_SERIES]
    assert len(raw) == 3 and raw["victory margin vs 3 x FG"].isna().all()
    assert set(s.loc[s["series"] != report.RAW_BEST_SERIES, "series"]) == {"UCT-TR, 0.2 s (n ≥ 20)"}
    fig = report.sweep_figure(s)
    assert report.RAW_BEST_SERIES in fig.axes[0].get_legend_handles_labels()[1]


def test_the_judged_grid_is_split_at_two_seconds_with_compact_headers():
    rows = ours("MCE-FG/R", 0.5, [50] * 4, [(52, 50, 40)] * 4) + ours("MCE-FG/R", 6.0, [60] * 4, [(52, 50, 40)] * 4)
    t = analysis.table3(pd.DataFrame(rows))
    short = report.judged_grid_part(t, None, 200, long=False)
    long = report.judged_grid_part(t, None, 200, long=True)
    assert list(short.data.columns) == ["0.5 s"] and list(long.data.columns) == ["6 s"]
    assert report.judged_grid_part(None, None, 200, long=False) is None
    assert report.judged_grid_part(t[t["T"] < 1], None, 200, long=True) is None
    assert "The paper's Table III as judged, budgets up to 2 s" in report.grid_caption(_claims([]), False)


def test_the_rates_data_holds_both_studies_by_panel():
    rates = {"TR": [1000.0] * 13, "FG": [60.0] * 13}
    d = report.rates_data(rates)
    assert len(d) == 52 and set(d["series"]) == {"ours", "authors (Java)"}
    t = report.rates_table(rates).set_index("policy")
    authors = paper.PLAYOUT_RATES["TR"]
    assert t.loc["TR", "lowest ratio"] == f"{min(1000 / a for a in authors):.1f}x"
    text = report.speed_text(rates, {"load_average": 1.25}, None)
    assert "UCT not in this bench record" in text and "load average of 1.2" in text


def _engine_record():
    cell = {"old_s": 2.0, "new_s": 2.0, "speedup": 1.0, "same": True}
    return {"engine_T": 4.0, "engine_games": 3, "engine_speedup": {
        "rule/FG": {"old_s": 0.01, "new_s": 0.01, "speedup": 1.0, "same": True},
        "rule/MCE-TR/R": cell,
        "rule/MCE-FG/R": {"old_s": 3.0, "new_s": 1.5, "speedup": 2.0, "same": True},
        "authors/UCT-TR": {"old_s": 4.0, "new_s": 4.0, "speedup": 1.0, "same": True},
        "authors/UCT-FG": {"old_s": 6.0, "new_s": 4.0, "speedup": 1.5, "same": False}}}


def test_the_engine_table_reads_the_bench_record():
    """Before and now per playout policy and over every strategy, each experiment a column."""
    record = _engine_record()
    t = report.engine_table(record)
    assert t.to_dict("records") == [
        {"playouts": "TR", "strategies": 1, "our rule": "2.0 → 2.0 s, 1.00×",
         "like for like": "4.0 → 4.0 s, 1.00×"},
        {"playouts": "FG", "strategies": 1, "our rule": "3.0 → 1.5 s, 2.00×",
         "like for like": "6.0 → 4.0 s, 1.50×"},
        {"playouts": "every strategy", "strategies": 3, "our rule": "5.0 → 3.5 s, 1.43×",
         "like for like": "10.0 → 8.0 s, 1.25×"}]
    assert report.engine_table({}) is None and report.engine_table(None) is None
    caption = report.engine_caption(record)
    assert "game at T = 4 s" in caption and "3 games of each strategy" in caption
    assert "did not end the same: like for like, UCT-FG." in caption
    record["engine_machine"] = {"cpu": "AMD EPYC", "date": "2026-11-29 09:00 UTC",
                                "load_average": 1.1}
    assert report.engine_caption(record).endswith(
        "Measured on AMD EPYC, 2026-11-29 09:00 UTC, load average 1.1.")
    text = report.engine_text(record)
    assert "engine 1.43× as fast in our rule and 1.25× like for like:" in text
    assert "FG playouts gain most (1.50–2.00×)" in text
    assert "gain 1.00–1.00× and make 50–57 % of such a game's cost now" in text  # 2.0 of 3.5 s
    assert "has not timed" in report.engine_text(None)


def test_the_readings_are_judged_like_for_like_with_our_rule_in_the_note():
    from gameai.core.claims import Claim, pending

    lfl = [Claim("fig5.fg_tight", "d", "p", "x", math.nan, math.nan, 200, "holds", "gaps"),
           pending("fig5.fg_vs_pg", "d", "p", "Table III pending")]
    rule = [Claim("fig5.fg_tight", "d", "p", "y", math.nan, math.nan, 200, "fails", "gaps"),
            Claim("fig5.fg_vs_pg", "d", "p", "z", math.nan, math.nan, 200, "holds", "")]
    a, b = analysis.judged_like_for_like(lfl, rule)
    assert (a.ours, a.verdict) == ("x", "holds")
    assert a.note == f"{analysis.JUDGED_LIKE_FOR_LIKE}; under our rule it fails; gaps"
    assert (b.ours, b.verdict) == ("z", "holds")  # like for like not computed: our rule, said so
    assert b.note == "judged on our rule: the like-for-like columns are not computed yet"
    claims = pd.DataFrame({"claim": [a.claim, b.claim], "note": [a.note, b.note]})
    assert report._judged_on(claims["note"].iloc[0]) == "the like-for-like games"
    assert report._judged_on(claims["note"].iloc[1]) == "our rule's games"


def test_a_cell_says_when_its_verdict_and_its_game_test_disagree():
    assert analysis._why_both("differs", "... Welch p = 0.3, rank test p = 0.2: agrees at 5 %")
    assert analysis._why_both("consistent", "...: differs at 5 %")
    assert analysis._why_both("differs", "...: differs at 5 %") == ""
    assert analysis._why_both("reproduced", "...: agrees at 5 %") == ""


def test_the_enhancement_caption_names_the_games_of_the_reading():
    row = {"claim": "conclusion.enhancements_short", "verdict": "fails"}
    lfl = pd.DataFrame([row | {"note": f"{analysis.JUDGED_LIKE_FOR_LIKE}; under our rule it fails"}])
    assert report.enhancement_caption(lfl).endswith("on the like-for-like games")
    rule = pd.DataFrame([row | {"note": "judged on our rule: the like-for-like columns are not "
                                        "computed yet"}])
    assert report.enhancement_caption(rule).endswith("on our rule's games")


def _spread(mean, n, sd=8):
    """``n`` scores of exactly mean ``mean`` and spread ``sd`` (alternating above and below)."""
    return [mean + sd * (-1) ** i for i in range(n)]


def _greedy_games(agent, opponent, scores):
    return [{"key": agent, "index": i, "seat0": agent, "seat1": opponent, "seat2": opponent,
             "seat3": opponent, "score0": s, "margin": s - 55, "win": 0, "draw": 0}
            for i, s in enumerate(scores)]


def test_the_fg_bug_text_defers_to_the_larger_self_play_run():
    # 500 games: FG* scores about 51.5 (the paper's 51.4 inside); 10,000 of the same setting
    # score 53 (outside), and FGA 51.4
    quirk = pd.DataFrame(_greedy_games("FG*", "FG*", _spread(51.5, 500))
                         + _greedy_games("FG", "FG*", _spread(52.5, 500)))
    text = report.quirk_text(quirk)
    assert "on these 500 games the bug accounts for the score" in text
    assert "larger run" not in text  # no self-play games: nothing more is said
    self_play = pd.DataFrame(_greedy_games("FG*", "FG*", _spread(53.0, 10_000))
                             + _greedy_games("FGA", "FGA", _spread(51.4, 10_000))
                             + _greedy_games("FG", "FG", _spread(53.2, 10_000)))
    text = report.quirk_text(quirk, self_play)
    assert "plays the same setting 10,000 times: FG* scores 53.0" in text and "*differs*" in text
    assert "the last domino alone does not account for the paper's score" in text
    # the opponents' strength compares the larger runs: FG 53.2 - FG* 53.0, not told apart
    res = FakeRes({"greedy_self_play": self_play, "fg_quirk": quirk})
    line = report.lfl_opponents_text(res)
    assert "10,000 and 10,000 games" in line and "not told apart" in line
    # without the self-play games: Table II's FG against the bug check's FG* (500 games each)
    res = FakeRes({"fg_quirk": quirk, "table2": pd.DataFrame(_greedy_games("FG", "FG", _spread(56, 500)))})
    assert "every margin is lower" in report.lfl_opponents_text(res)
