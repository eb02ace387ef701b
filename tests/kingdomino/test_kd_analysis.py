"""Kingdomino tables and claims from hand-made game rows (no engine needed)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from gameai.core.claims import quantitative
from gameai.kingdomino import analysis, paper
from gameai.kingdomino.chapter import _table3_cell_key, resolve


def rows(player, margins, T=1.0, opponent="FG", **extra):
    out = []
    for i, m in enumerate(margins):
        r = {"key": "k", "index": i, "player": player, "opponent": opponent, "T": T,
             "seat0": player, "score0": 40 + m, "margin": m, "win": int(m > 0),
             "draw": int(m == 0), **extra}
        r.update({f"score_m{k}": 3 * k for k in range(1, 14)})
        out.append(r)
    return out


def test_table3_mean_ci_n_and_the_paper_value_beside_it():
    df = pd.DataFrame(rows("MCE-FG/R", [4, 6, 8, 2], T=2.0) + rows("FG", [-9, -9, -9, -9], T=2.0))
    t = analysis.table3(df)
    mce = t[t["strategy"] == "MCE-FG/R"].iloc[0]
    assert mce["margin"] == 5 and mce["n"] == 4
    assert mce["margin_lo"] < 5 < mce["margin_hi"]
    assert mce["paper"] == paper.TABLE3["MCE-FG/R"][paper.TABLE3_T.index(2)]


def test_uct_b_at_10s_is_compared_with_the_authors_raw_value():
    df = pd.DataFrame(rows("UCT_B-FG", [3, 3, 4, 2], T=10.0))
    (claim,) = [c for c in analysis.table3_claims(df, 200) if c.claim == "table3.UCT_B-FG.10"]
    assert claim.paper == paper.TABLE3_UCT_B_10S_RAW["UCT_B-FG"]
    assert "raw" in claim.note and "4 of 200 games" in claim.note
    (waiting,) = [c for c in analysis.table3_claims(None, 200) if c.claim == "table3.UCT_B-FG.10"]
    assert waiting.verdict == "pending"  # before it is computed too: the raw value, said so
    assert waiting.paper == paper.TABLE3_UCT_B_10S_RAW["UCT_B-FG"] and "raw" in waiting.note


def test_a_differing_cell_names_the_setup_differences_that_can_still_explain_it():
    far = [30, 31, 29, 30] * 50  # UCT-FG at 0.1 s: the paper has about -38
    df = pd.DataFrame(rows("UCT-FG", far, T=0.1) + rows("UCT-TR", far, T=1.0))
    claims = {c.claim: c for c in analysis.table3_claims(df, 200)}
    short, long_tr = claims["table3.UCT-FG.0.1"], claims["table3.UCT-TR.1"]
    assert short.verdict == long_tr.verdict == "differs"
    assert "opponents" in short.note and "budgets" in short.note and "move order" in short.note
    assert "budgets" in long_tr.note and "move order" not in long_tr.note  # TR playouts: no order
    lfl = {c.claim: c for c in analysis.table3_claims(None, 200, authors=df)}["table3.UCT-FG.0.1"]
    assert lfl.verdict == "differs" and "none of the three setup differences" in lfl.note
    assert "chance among Table III's many cells" in lfl.note
    near = pd.DataFrame(rows("UCT-FG", [-28, -48, -38, -39] * 50, T=0.1))
    kept = {c.claim: c for c in analysis.table3_claims(near, 200)}["table3.UCT-FG.0.1"]
    assert kept.verdict == "reproduced" and "Cause" not in kept.note


def test_fg_cells_of_all_budgets_are_pooled_against_the_papers_one_value():
    rule = pd.DataFrame(sum((rows("FG", [-12, -6] * 10, T=T) for T in (0.1, 0.2)), []))
    (pooled,) = [c for c in analysis.table3_claims(rule, 200) if c.claim == "table3.FG.pooled"]
    assert pooled.n == 40 and pooled.ours == pytest.approx(-9.0) and pooled.paper == -9.0
    assert pooled.verdict == "reproduced" and "2,000 when complete" in pooled.note
    lfl = pd.DataFrame(rows("FG", [-20, -18] * 10, T=1.0))  # like for like wins where it has FG
    (judged,) = [c for c in analysis.table3_claims(rule, 200, authors=lfl)
                 if c.claim == "table3.FG.pooled"]
    assert judged.n == 20 and judged.ours == pytest.approx(-19.0) and judged.verdict == "differs"
    (waiting,) = [c for c in analysis.table3_claims(None, 200) if c.claim == "table3.FG.pooled"]
    assert waiting.verdict == "pending"


def test_time_scale_maps_scaled_budgets_back_to_the_papers_columns():
    df = pd.DataFrame(rows("MCE-TR/R", [1, -1, 0, 2], T=0.002))
    t = analysis.table3(df, time_scale=0.002)
    assert t["T"].tolist() == [1.0]


def test_every_spec_claim_id_is_present_and_missing_ones_pending():
    res = type("R", (), {})()
    res.params = resolve({})
    res.frames = {}
    res.__class__.__getitem__ = lambda self, k: self.frames.get(k)
    claims = analysis.build_claims(res)
    ids = {c.claim for c in claims}
    expected = {r["claim_id"] for r in paper.claim_rows()}
    assert expected <= ids
    assert {c.verdict for c in claims if c.claim != "tree.draws"} == {"pending"}
    draws = next(c for c in claims if c.claim == "tree.draws")
    assert draws.verdict == "reproduced"  # exact count, 3.4e44 as printed


def test_table1_claims_wins_draws_and_losses_each_with_the_printed_rounding():
    # the paper's FG: 97.7 / 0.2 / 2.1 %; ours 977 wins, 6 draws (0.6 %), 17 losses (1.7 %)
    wins, draws = [1] * 977 + [0] * 23, [0] * 977 + [1] * 6 + [0] * 17
    df = pd.DataFrame([{**r, "win": w, "draw": d} for r, w, d in
                       zip(rows("FG", [5] * 1000, opponent="TR"), wins, draws)])
    claims = {c.claim: c for c in analysis.table1_claims(df)}
    assert list(claims) == ["table1.FG", "table1.FG.draws", "table1.FG.losses"]
    assert math.isclose(claims["table1.FG"].ours, 97.7) and claims["table1.FG"].verdict == "reproduced"
    assert math.isclose(claims["table1.FG.draws"].ours, 0.6)
    # 0.2 % is below our CI [0.28, 1.30], but within the two studies' error (1,000 games each)
    assert claims["table1.FG.draws"].verdict == "consistent"
    assert claims["table1.FG.draws"].n_paper == 1000 and claims["table1.FG.draws"].proportion == 100
    assert math.isclose(claims["table1.FG.losses"].ours, 1.7)
    assert claims["table1.FG.losses"].verdict == "reproduced"
    note = analysis._reasoned(claims["table1.FG.draws"], "why").note
    assert "within what chance explains" in note and not note.endswith("why")


def test_conclusions_compare_the_best_of_each_family_per_budget():
    df = pd.DataFrame(rows("MCE-TR/R", [1] * 3, T=0.1) + rows("MCE-FG/R", [-5] * 3, T=0.1)
                      + rows("UCT-TR", [-2] * 3, T=0.1)
                      + rows("MCE-TR/R", [0] * 3, T=2.0) + rows("MCE-FG/R", [6] * 3, T=2.0)
                      + rows("UCT-FG", [1] * 3, T=2.0))
    beats, best = analysis.conclusion_claims(df)
    assert beats.verdict == "holds" and best.verdict == "holds"
    # two of the ten budgets: the verdict is marked as so far, naming what is missing
    assert "2 of 2 budgets computed (of 10)" in beats.ours
    assert "T = 0.2, 0.3, 0.5, 1, 4, 6, 8, 10 s not complete yet" in beats.note
    assert "not complete yet" in best.note
    worse = df.copy()
    worse.loc[worse["seat0"] == "UCT-FG", "margin"] = 9
    assert analysis.conclusion_claims(worse)[0].verdict == "fails"


def test_best_variant_claim_says_how_far_the_named_one_is_behind():
    # at 2 s MCE-PG/R edges out MCE-FG/R by 0.5 with wide CIs (level), at 4 s by 6 (not)
    noisy = [-10, 10] * 10
    df = pd.DataFrame(rows("MCE-TR/R", [1] * 3, T=0.1) + rows("UCT-TR", [-2] * 3, T=0.1)
                      + rows("MCE-FG/R", [6 + m for m in noisy], T=2.0)
                      + rows("MCE-PG/R", [6.5 + m for m in noisy], T=2.0)
                      + rows("UCT-FG", [1] * 3, T=2.0)
                      + rows("MCE-FG/R", [0] * 20 + [1], T=4.0)
                      + rows("MCE-PG/R", [6] * 20 + [7], T=4.0)
                      + rows("UCT-FG", [1] * 3, T=4.0))
    _, best = analysis.conclusion_claims(df)
    # 2 s: level (undecided there); 4 s: MCE-PG/R significantly ahead of the named MCE-FG/R
    assert best.verdict == "fails"
    assert "the named variant against every other: ahead at 1, level at 1, behind at 1" in best.ours
    assert analysis.conclusion_claims(df[df["T"] != 4.0])[1].verdict == "undecided"
    assert "at 2 s MCE-FG/R is 0.5 points behind MCE-PG/R" in best.note
    assert "level: the gap's 95 % CI covers 0" in best.note
    assert "at 4 s MCE-FG/R is 6.0 points behind MCE-PG/R" in best.note
    assert best.note.endswith("a significant gap)")
    assert "at 0.1 s" not in best.note  # the named variant is the best there


def test_cell_keys_are_file_names():
    assert _table3_cell_key(0.5) == "table3_T0p5" and _table3_cell_key(10.0) == "table3_T10"


def test_ci_profile_shrinks_budgets_and_games():
    p = resolve({"profile": "ci"})
    assert p["time_scale"] < 0.01 and p["table3_games"] <= 2 and p["compute_missing"]
    with pytest.raises(ValueError, match="table3_strategies"):
        resolve({"table3_strategies": ("MCE-XX/R",)})


def test_family_offsets_average_a_family_and_widen_for_the_papers_error():
    # two UCT_B cells and one MCE cell at T = 0.1; each cell: sd 10 over 100 games -> se 1
    t = pd.DataFrame({"strategy": ["UCT_B-FG", "UCT_B-TR", "MCE-FG/R", "FG"],
                      "T": [0.1] * 4, "n": [100] * 4, "margin": [0.0] * 4,
                      "margin_lo": [-1.96] * 4, "margin_hi": [1.96] * 4,
                      "diff": [4.0, 2.0, -1.0, 0.0]})
    f = analysis.family_offsets(t).set_index("family")
    assert list(f.index) == ["MCE", "UCT_B"]  # FG is no family; UCT_B not taken for UCT
    assert f.loc["UCT_B", "diff"] == pytest.approx(3.0) and f.loc["UCT_B", "cells"] == 2
    # per cell var = 1 (ours) + 100/200 (paper) = 1.5; mean of two: sqrt(3)/2
    assert f.loc["UCT_B", "hi"] - 3.0 == pytest.approx(1.96 * np.sqrt(3) / 2)
    assert f.loc["MCE", "hi"] - (-1.0) == pytest.approx(1.96 * np.sqrt(1.5))


def test_budget_offsets_compare_smaller_budgets_with_the_papers_cell():
    def games(strategy, T, margins):
        return pd.DataFrame({"seat0": strategy, "T": T, "margin": margins, "score0": 0,
                             "win": 0, "draw": 0})
    col = paper.TABLE3_T.index(0.1)
    p = paper.TABLE3["UCT-FG"][col]
    check = games("UCT-FG", 0.05, [p - 1.0, p + 1.0] * 10)  # mean = the paper's value
    t3 = games("UCT-FG", 0.1, [p + 4.0, p + 6.0] * 10)  # ours at 0.1 s: 5 above the paper
    t3 = pd.concat([t3, games("FG", 0.1, [-9.0] * 20)])
    out = analysis.budget_offsets(check, t3).set_index("fraction")
    assert list(out.index) == [0.5, 1.0] and set(out["family"]) == {"UCT"}
    assert out.loc[0.5, "diff"] == pytest.approx(0.0) and out.loc[1.0, "diff"] == pytest.approx(5.0)


def test_a_differing_cell_says_by_how_much_and_where_the_chapter_discusses_it():
    near = quantitative("table3.X.1", "d", -1.5, -4.0, -5.8, -2.2, 200, step=0.1, n_paper=200)
    far = quantitative("table3.Y.1", "d", -38.3, -27.0, -29.0, -25.0, 200, step=0.1,
                       n_paper=200)
    assert near.verdict == "consistent" and analysis._reasoned(near, "why").note == near.note
    note = analysis._reasoned(far, "why").note
    assert note.startswith("Ours is 11.2 from the printed value, 3.98 times") and note.endswith("why")
    same = quantitative("table3.Z.1", "d", -4.0, -4.0, -5.0, -3.0, 200, step=0.1, n_paper=200)
    assert analysis._reasoned(same, "why").note == ""


def test_interval_widths_put_ours_beside_the_paper_s_numbers():
    t2 = pd.DataFrame({"agent": ["FG", "MCE-TR/P"], "n": [500, 80],
                       "score0_lo": [50.0, 58.0], "score0_hi": [52.2, 63.0]})
    t3 = pd.DataFrame({"strategy": ["UCT-FG", "MCE-TR/R", "MCE-FG/R"], "n": [200, 200, 120],
                       "margin_lo": [-30.0, -6.0, 0.0], "margin_hi": [-26.0, -2.5, 9.0]})
    w = analysis.interval_widths(t2, t3)
    assert w["table2"]["paper"].tolist() == [2.1, 1.9]
    assert np.allclose(w["table2"]["width"], [2.2, 5.0])
    assert w["table3"] == {"cells": 2, "lo": 3.5, "hi": 4.0, "median": 3.75}  # n = 120 left out
    assert analysis.interval_widths(None, None) == {"table2": None, "table3": None}


def test_table2_conclusions_judge_the_gaps_between_agents():
    rng = np.random.default_rng(0)
    means = {"FG": 51.0, "MCE-TR/WDL": 55.0, "MCE-TR/P": 60.0, "MCE-TR/R": 60.0}
    df = pd.DataFrame([{"seat0": a, "score0": m + rng.normal(0, 5)} for a, m in means.items()
                       for _ in range(300)])
    claims = {c.claim: c for c in analysis.table2_conclusions(df, 300)}
    assert [c.verdict for c in claims.values()] == ["holds", "holds", "holds"]
    assert claims["table2.p_like_r"].ours.startswith("MCE-TR/P − MCE-TR/R: ")
    df.loc[df["seat0"] == "MCE-TR/R", "score0"] += 3  # now R beats P: "alike" fails
    assert analysis.table2_conclusions(df, 300)[2].verdict == "fails"
    assert {c.verdict for c in analysis.table2_conclusions(df, 301)} == {"pending"}
    assert {c.verdict for c in analysis.table2_conclusions(None, 300)} == {"pending"}


def test_enhancements_claim_needs_a_gain_at_0p1_s_and_parity_after():
    def cells(gain_at_0p1):
        out = []
        for T in (0.1, 0.5):
            for x in analysis.POLICIES:
                out += rows(f"UCT-{x}", [-10, -12] * 50, T=T)
                for e in ("UCT_B", "UCT_W"):
                    up = gain_at_0p1 if T == 0.1 else 0
                    out += rows(f"{e}-{x}", [-10 + up, -12 + up] * 50, T=T)
        return pd.DataFrame(out)

    g = analysis.enhancement_gaps(analysis.table3(cells(3)))
    assert g["T"].tolist() == [0.1, 0.5] and np.allclose(g["gap"], [3, 0])
    assert g["n"].tolist() == [1200, 1200]  # the 12 UCT cells of 100 games
    assert analysis.enhancements_claim(cells(3)).verdict == "holds"
    assert analysis.enhancements_claim(cells(0)).verdict == "fails"  # no gain where it is tight
    assert analysis.enhancements_claim(None).verdict == "pending"


def test_fig5_readings_compare_cells_and_say_when_budgets_are_missing():
    def cells(pg_margin_at_0p1, pg_at_2=2):
        out = rows("FG", [-9, -7] * 100, T=0.1) + rows("MCE-TR/R", [-9, -7] * 100, T=0.1)
        out += rows("MCE-FG/R", [-15, -13] * 100, T=0.1) + rows("MCE-εG/R", [-20, -18] * 100, T=0.1)
        out += rows("MCE-PG/R", [pg_margin_at_0p1 - 1, pg_margin_at_0p1 + 1] * 100, T=0.1)
        out += rows("MCE-FG/R", [4, 6] * 100, T=2.0) + rows("MCE-PG/R", [pg_at_2 - 1, pg_at_2 + 1] * 100, T=2.0)
        out += rows("MCE-TR/R", [-3, -1] * 100, T=2.0)
        return pd.DataFrame(out)

    claims = {c.claim: c for c in analysis.fig5_readings(cells(-12))}
    assert claims["fig5.fg_tight"].verdict == "holds"
    assert claims["fig5.fg_tight"].ours.startswith("FG − MCE-TR/R 0.1 s: +0.0 [")
    assert claims["fig5.fg_vs_pg"].verdict == "holds"  # PG ahead at 0.1 s, FG ahead at 2 s
    assert "so far" in claims["fig5.fg_vs_pg"].note  # 0.2 ... 10 s minus 2 s not computed
    assert claims["fig5.fg_tight"].n == 5 * 200  # FG is in four comparisons, counted once
    assert claims["fig5.knowledge_after_1s"].verdict == "holds"
    assert "MCE-PG/R − MCE-TR/R 2 s: +4.0" in claims["fig5.knowledge_after_1s"].ours
    assert claims["fig5.own_moves_first"].verdict == "holds"  # PG ahead of εG where both are
    behind = {c.claim: c for c in analysis.fig5_readings(cells(-16))}
    assert behind["fig5.fg_vs_pg"].verdict == "fails"  # PG behind FG at 0.1 s
    assert behind["fig5.fg_tight"].verdict == "holds"
    level = {c.claim: c for c in analysis.fig5_readings(cells(-12, pg_at_2=-2))}  # PG = TR
    assert level["fig5.knowledge_after_1s"].verdict == "fails"  # FG alone is not enough
    assert {c.verdict for c in analysis.fig5_readings(None)} == {"pending"}


def test_table2_fg_note_says_what_the_authors_fg_bug_explains():
    t2 = pd.DataFrame(rows("FG", [-10, -8] * 250, opponent="FG"))  # score0 = 40 + margin
    t2["score0"] = 53.7 + np.tile([-1.0, 1.0], 250)
    quirk = pd.DataFrame(rows("FG*", [-9] * 500, opponent="FG*"))
    quirk["score0"] = 51.4 + np.tile([-1.0, 1.0], 250)
    (fg,) = [c for c in analysis.table2_claims(t2, 500, quirk) if c.claim == "table2.FG"]
    assert fg.verdict == "differs"
    assert "FG* against three FG* scores 51.4 [51.3, 51.5] over 500 games, the paper's 51.4 " \
           "inside that interval" in fg.note
    (plain,) = [c for c in analysis.table2_claims(t2, 500) if c.claim == "table2.FG"]
    assert plain.note.startswith("Ours is 2.25 points from the printed value")  # no FG* sentence


def test_table2_fg_note_prefers_the_self_play_check_of_the_authors_greedy():
    t2 = pd.DataFrame(rows("FG", [-10, -8] * 250, opponent="FG"))
    t2["score0"] = 53.7 + np.tile([-1.0, 1.0], 250)
    quirk = pd.DataFrame(rows("FG*", [-9] * 500, opponent="FG*"))
    quirk["score0"] = 51.4 + np.tile([-1.0, 1.0], 250)
    own = pd.concat([pd.DataFrame(rows(g, [-9] * 2000, opponent=g)) for g in ("FGA", "FG*")])
    own["seat1"] = own["seat0"]
    spread = np.tile([-12.0, 12.0], 1000)  # about the games' own spread
    own["score0"] = np.r_[52.1 + spread, 53.0 + spread]
    (fg,) = [c for c in analysis.table2_claims(t2, 500, quirk, own) if c.claim == "table2.FG"]
    assert "(FGA: first and last domino at random) scores FGA 52.1 [51.6, 52.6] (2,000 games: " \
           "consistent)" in fg.note
    assert "FG* 53.0 [52.5, 53.5] (2,000 games: differs)" in fg.note
    assert "FG* against three FG*" not in fg.note  # the smaller check is not said twice


def test_opponents_effect_is_our_fg_against_fga_minus_against_fg_star():
    games = pd.DataFrame(rows("FG", [-8, -10] * 50, opponent="FGA")
                         + rows("FG", [-11, -9] * 40, opponent="FG*")
                         + rows("FGA", [-20] * 10, opponent="FGA"))
    games["seat1"] = games["opponent"]
    d, lo, hi, n = analysis.opponents_effect(games)
    assert d == pytest.approx(1.0) and lo < 1.0 < hi and n == 80
    assert analysis.opponents_effect(games[games["seat1"] != "FG*"]) is None


def test_greedy_check_puts_each_cell_beside_the_like_for_like_one_and_pools_by_playouts():
    T = 6.0
    check = pd.DataFrame(rows("UCT-PG", [-4, -2] * 50, T=T, opponent="FGA")
                         + rows("MCE-TR/R", [0, 2] * 50, T=T, opponent="FGA"))
    lfl = pd.DataFrame(rows("UCT-PG", [-8, -6] * 100, T=T, opponent="FG*")
                       + rows("MCE-TR/R", [-2, 0] * 100, T=T, opponent="FG*")
                       + rows("UCT-FG", [0] * 10, T=T, opponent="FG*"))
    g = analysis.greedy_check(check, lfl).set_index("strategy")
    assert list(g.index) == ["MCE-TR/R", "UCT-PG"]  # cells in both only; TR playouts first
    pg = g.loc["UCT-PG"]
    assert pg.paper == paper.TABLE3["UCT-PG"][paper.TABLE3_T.index(6)]
    assert pg.change == pytest.approx(4.0) and pg.check_n == 100 and pg.lfl_n == 200
    assert pg.lfl_diff == pytest.approx(-7.0 - pg.paper)
    assert pg.change_lo < 4.0 < pg.change_hi and pg.playouts == "greedy"
    assert g.loc["MCE-TR/R", "playouts"] == "TR"
    pooled = analysis.greedy_check_pooled(g.reset_index()).set_index("playouts")
    assert pooled.loc["greedy", "change"] == pytest.approx(4.0)
    assert pooled.loc["TR", "change"] == pytest.approx(2.0) and pooled.loc["TR", "cells"] == 1
    none = analysis.greedy_check(check, lfl.assign(T=0.5))  # no cell in both
    assert none.empty and analysis.greedy_check_pooled(none).empty



def test_sweep_claims_name_the_values_level_with_the_best_and_say_so_far():
    rng = np.random.default_rng(1)
    df = pd.DataFrame([r for C, m, k in ((0.0, -20, 200), (0.6, -5, 200), (1.0, -5.5, 150))
                       for r in rows("UCT-FG", list(m + rng.normal(0, 8, k)), T=2.0, C=C)]
                      + [r for C, m in ((0.0, -20), (0.3, -4), (0.6, -4.5))
                         for r in rows("UCT-TR", list(m + rng.normal(0, 8, 200)), T=0.2, C=C)])
    fig7, _ = analysis.sweep_claims(df, None, games=200)
    assert "so far: 150-200 of 200 games per point" in fig7.note
    level, raw = fig7.note.split("C level with the best (gap CI covers 0): ")[1].split(". ", 1)
    assert level == "UCT-FG 2 s: 0.6, 1; UCT-TR 0.2 s: 0.3, 0.6"  # C = 0 clearly worse
    # the authors' raw best C: 0.6 for UCT-FG (level here), 0.2 for UCT-TR at 0.2 s (not swept)
    assert raw.startswith("The authors' own raw results (kdom-ai, experiments/runs) put the best C")
    assert "(point estimates; 2 of 3 outside the paper's range)" in raw  # UCT-TR 0.2 s, UCT-FG
    assert raw.endswith("ours is level with it in 1 of 2 setups.")
    # UCT-FG: 1 (in the paper's range) and 0.6 (not) are level with the best: undecided
    assert fig7.verdict == "undecided" and "UCT-FG 2 s: best C = 1" in fig7.ours
    assert "so far" not in analysis.sweep_claims(df[df["seat0"] == "UCT-TR"], None, games=200)[0].note


def test_sweep_readings_hold_fail_or_stay_undecided_on_the_values_level_with_the_best():
    in_range = analysis._fig7_range  # UCT-FG: C >= 1; UCT-TR: 0.3-0.6
    assert analysis._range_verdict({("UCT-FG", 2.0): [1.0, 1.5], ("UCT-TR", 0.2): [0.3]},
                                   in_range) is True
    assert analysis._range_verdict({("UCT-FG", 2.0): [1.0, 0.6], ("UCT-TR", 0.2): [0.3]},
                                   in_range) is None
    # every value in the range significantly worse than UCT-TR's best, C = 1
    assert analysis._range_verdict({("UCT-FG", 2.0): [1.0], ("UCT-TR", 0.2): [1.0, 1.5]},
                                   in_range) is False


def test_mce_beats_uct_needs_the_gap_clear_of_zero_at_every_budget():
    noisy = [-10, 10] * 10
    ahead = rows("MCE-TR/R", [5] * 20, T=0.1) + rows("UCT-TR", [0] * 20, T=0.1)
    level = rows("MCE-FG/R", [1 + m for m in noisy], T=2.0) + rows("UCT-FG", noisy, T=2.0)
    behind = rows("MCE-FG/R", [0] * 20, T=4.0) + rows("UCT-FG", [3] * 20, T=4.0)
    beats = analysis.conclusion_claims(pd.DataFrame(ahead))[0]
    assert beats.verdict == "holds" and "ahead at 1 of 1 budgets computed" in beats.ours
    assert analysis.conclusion_claims(pd.DataFrame(ahead + level))[0].verdict == "undecided"
    worse = analysis.conclusion_claims(pd.DataFrame(ahead + level + behind))[0]
    assert worse.verdict == "fails" and "ahead at 1, level at 1, behind at 1" in worse.ours


def test_readings_use_complete_columns_only():
    df = pd.DataFrame(rows("FG", [-9] * 4, T=0.1) + rows("MCE-TR/R", [-8] * 4, T=0.1)
                      + rows("FG", [-9] * 4, T=4.0) + rows("MCE-TR/R", [-8] * 2, T=4.0))
    full = analysis.complete_columns(df, 4)
    assert sorted(full["T"].unique()) == [0.1]  # T = 4 s has a cell of 2 games
    assert analysis.complete_columns(df, 5) is None and analysis.complete_columns(None, 4) is None


def _beyond_frames(after_fg, after_uct, before_fg=(8, 10, 12, 10), before_uct=(0, 2, 1, 1)):
    t3 = pd.DataFrame(rows("MCE-FG/R", before_fg, T=10.0) + rows("UCT-FG", before_uct, T=10.0)
                      + rows("MCE-FG/R", [0, 0, 1, 1], T=8.0))  # another budget: not counted
    bz = pd.DataFrame(rows("MCE-FG/R", after_fg) + rows("UCT-FG", after_uct)).drop(columns="T")
    return bz, t3


def test_beyond_trend_is_the_change_from_the_paper_s_largest_budget_with_its_ci():
    bz, t3 = _beyond_frames([14, 16, 15, 15], [1, 2, 0, 1])
    tr = analysis.beyond_trend(bz, t3, 10.0).set_index("strategy")
    fg = tr.loc["MCE-FG/R"]
    assert fg["n_before"] == 4 and fg["before"] == 10 and fg["after"] == 15 and fg["change"] == 5
    assert 0 < fg["change_lo"] < 5 < fg["change_hi"]
    verdict, text = analysis.still_rising(tr.reset_index(), "MCE-FG/R")
    assert verdict == "yes, still rising" and "+10.0" in text and "+15.0" in text
    assert "no change we can tell" in analysis.still_rising(tr.reset_index(), "UCT-FG")[0]
    falling = analysis.beyond_trend(*_beyond_frames([2, 4, 3, 3], [1, 2, 0, 1]), 10.0)
    assert analysis.still_rising(falling, "MCE-FG/R")[0] == "no, it falls"


def test_own_change_is_the_verdict_with_its_numbers_only_when_both_budgets_have_games():
    tr = analysis.beyond_trend(*_beyond_frames([14, 16, 15, 15], [1, 2, 0, 1]), 10.0)
    text = analysis.own_change(tr, "MCE-FG/R")
    assert text.startswith("MCE-FG/R: *yes, still rising* (+5.0, 95 % CI ") and text.endswith(")")
    bz, _ = _beyond_frames([14, 16, 15, 15], [1, 2, 0, 1])
    assert analysis.own_change(analysis.beyond_trend(bz, None, 10.0), "UCT-FG") == "UCT-FG: *not known yet*"


def test_catching_up_judges_the_gap_at_both_budgets():
    # gap 9 at 10 s; level at 100 s -> caught up
    assert analysis.catches_up(*_beyond_frames([5, 7, 6, 6], [6, 5, 7, 6]), 10.0,
                               "UCT-FG", "MCE-FG/R")[0] == "yes, level with it"
    assert analysis.catches_up(*_beyond_frames([5, 6, 5, 6], [9, 10, 9, 10]), 10.0,
                               "UCT-FG", "MCE-FG/R")[0] == "yes, it overtakes"
    # gap 9 at 10 s, 14 at 100 s with little noise -> widens
    assert analysis.catches_up(*_beyond_frames([15, 16, 15, 16], [1, 2, 1, 2]), 10.0,
                               "UCT-FG", "MCE-FG/R")[0] == "no, the gap widens"
    # gap 9 at 10 s, 5 at 100 s: closes part of it, still behind
    verdict, text = analysis.catches_up(*_beyond_frames([10, 11, 10, 11], [5, 6, 5, 6]), 10.0,
                                        "UCT-FG", "MCE-FG/R")
    assert verdict == "it closes part of the gap" and "+9.0" in text and "+5.0" in text
    # too few games at 10 s to tell
    bz, _ = _beyond_frames([1, 2, 3, 4], [1, 2, 3, 4])
    assert analysis.catches_up(bz, None, 10.0, "UCT-FG", "MCE-FG/R")[0] == "not known yet"


def test_pooled_offset_of_no_cells_is_missing_not_an_error():
    """The ci profile's small runs leave some groups of cells empty: the chapter shows nothing."""
    empty = pd.DataFrame({"diff": [], "margin_lo": [], "margin_hi": [], "n": []}, dtype=float)
    assert all(math.isnan(v) for v in analysis.pooled_offset(empty))
