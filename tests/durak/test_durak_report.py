"""The Durak chapter's tables, figures and sentences (gameai.durak.report) on small hand-made
results: what they show, and what they leave out when an experiment is not computed."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from gameai.durak import analysis, report  # noqa: E402


def _match(agent, vs, n, deck, games, fool, draws=0, **extra):
    """One batch row of a match experiment: the agent is the fool in ``fool`` games, an
    opponent in the rest (``draws`` drawn), last place when the fool, first otherwise."""
    return {"agent": agent, "vs": vs, "n_players": n, "deck": deck, **extra, "games": games,
            "fool": fool, "opp_fool": games - fool - draws, "draw": draws, "capped": 0,
            "place": fool * (n - 1), "place2": fool * (n - 1) ** 2, "bouts": 10 * games}


def _baselines():
    return pd.DataFrame([_match("EvalAI", "RandomAI", 2, 36, 1000, 10),
                         _match("EvalAI", "RandomAI", 3, 36, 1000, 20),
                         _match("EvalAI", "SmallestAI", 2, 36, 1000, 400, draws=100),
                         _match("EvalAI", "SmallestAI", 3, 36, 1000, 500)])


def _claims(verdicts):
    notes = {"ai.vs_smallest": "worse in 8; our diagnosis (chapter, not the article's): ...",
             "ablation.unbalanced": "mixed, not absent: ..."}
    return pd.DataFrame([{"claim": c, "verdict": v, "note": notes.get(c, "")}
                         for c, v in verdicts.items()])


def _plain(texts):
    """Texts with the non-breaking spaces of the number formats as plain spaces."""
    return {k: v.replace("\xa0", " ") for k, v in texts.items()}


def _legend(fig):
    return {t.get_text() for ax in fig.axes for lg in [ax.get_legend()] if lg for t in lg.get_texts()} | \
        {t.get_text() for lg in fig.legends for t in lg.get_texts()}


# ----------------------------------------------------------------------------- one line, reruns


def test_one_line_counts_the_verdicts_and_names_why_claims_fail():
    claims = _claims({"article.ranks_bonus": "holds", "ai.vs_random": "holds",
                      "ai.vs_smallest": "fails", "ablation.unbalanced": "fails",
                      "ablation.true_division": "fails", "ablation.bonus_x100": "fails",
                      "ablation.card_values": "pending"})
    line = report.one_line(claims)
    assert "of the 6 claims" in line and "2 hold and 4 fail" in line
    assert "opening-attack bonus" in line  # the diagnosis is in the claim's note
    assert "some player counts" in line  # the unbalanced penalty's mixed effect
    assert line.count("the forms the article's prose suggests") == 1  # one clause for two claims
    assert "1 more not measured in this run" in line
    assert "pending" not in line and "**" not in line and "](" not in line
    assert line.endswith(".") and line.count(". ") == 0  # one sentence


def test_one_line_without_a_failure_or_a_measurement():
    assert "1 holds and 1 fails" in report.one_line(_claims({"ai.vs_random": "holds",
                                                             "ai.vs_smallest": "fails"}))
    assert "3 hold." in report.one_line(_claims(dict.fromkeys(
        ["ai.vs_random", "article.ranks_bonus", "ablation.many_cards"], "holds")))
    line = report.one_line(_claims({"ai.vs_random": "pending"}))
    assert "none of the 1 claims" in line and "pending" not in line


def test_one_line_without_the_diagnosis_gives_no_reason_it_did_not_measure():
    claims = _claims({"ai.vs_smallest": "fails"}).assign(note="worse in 8")
    assert "diagnosis" not in report.one_line(claims)


def test_missing_note_names_what_a_rerun_lacks_and_the_command():
    assert report.missing_note([]) == ""
    note = report.missing_note(["endgame", "monte_carlo"])
    assert "the endgame hands and the Monte Carlo player" in note
    assert "`gameai run durak -p experiments endgame,monte_carlo`" in note
    assert "pending" not in note and note.count(".") == 1


def test_missing_lists_the_groups_without_rows():
    class Res:
        frames = {"hands": pd.DataFrame({"a": [1]}), "endgame": None}

        def __getitem__(self, key):
            return self.frames.get(key)

    assert report.missing(Res()) == ["endgame", "baselines", "ablations", "rules", "diagnosis",
                                     "monte_carlo"]


def test_verdicts_text_says_not_computed_instead_of_pending():
    text = report.verdicts_text(_claims({"a": "holds", "b": "holds", "c": "fails", "d": "pending"}))
    assert text == "**2** hold, **1** fails of 3; 1 more not computed in this run."


def test_games_states_the_plan_when_not_computed_and_the_fewest_when_computed():
    assert report.games(None, 10_000) == "10,000"
    assert report.games(analysis.outcomes(pd.DataFrame(_baselines())), 5) == "1,000"
    rows = pd.DataFrame({"n_players": [2, 2, 3], "deck": 36})
    assert report.games(rows, 5, "n_players") == "1"


@pytest.mark.parametrize("texts", [
    report.hands_texts(None, None, None), report.endgame_texts(None, None, None),
    report.baselines_texts(None), report.diagnosis_texts(None, None),
    report.ablations_texts(None, _claims({})), report.mc_texts(None, 100),
    {"rules": report.rules_text(None)}])
def test_a_missing_experiment_leaves_its_conclusions_out(texts):
    for key, text in texts.items():
        assert text in ("", report.NOT_COMPUTED) or key == "durak-games-mc", (key, text)
        assert "pending" not in text and "nan" not in text.lower()


# ----------------------------------------------------------------------------- the examples


def test_example_hands_in_every_form_and_the_swap_that_scores_the_same():
    ex = report.examples_table()
    assert list(ex["the article calls it"]) == ["almost perfect", "very unsuccessful", "much better"]
    assert list(ex.columns[2:]) == [*report.FORMS, "as coded, start of game"]
    v = ex.set_index("the article calls it")["as coded"]
    assert v["almost perfect"] < v["very unsuccessful"] == v["much better"]
    texts = report.examples_texts(ex)
    assert texts["durak-swap"].endswith("the two hands score the same")
    assert "exactly the same as" in texts["durak-examples"]


# ----------------------------------------------------------------------------- hand values


def _long(seed=0, n=400):
    """Two-player seats: the lower half of the hand values is the fool."""
    rng = np.random.default_rng(seed)
    hv = rng.permutation(n)
    return pd.DataFrame({"n_players": 2, "deck": 36, "hv": hv, "fool": (hv < n // 2).astype(int)})


def test_calibration_data_is_tidy_in_percent_with_the_legend_series():
    cal = analysis.calibration(_long())
    data = report.calibration_data(cal)
    pts = data[data["series"] == "36 cards"]
    assert list(pts["initial hand value (decile)"]) == list(range(1, 11))
    assert list(pts["fool rate (%)"]) == [100.0] * 5 + [0.0] * 5
    assert (pts["ci_low"] <= pts["fool rate (%)"]).all() and (pts["n"] == 40).all()
    assert data.loc[data["series"] == "1/n (equal players)", "fool rate (%)"].tolist() == [50.0]
    fig = report.calibration_figure(cal)
    assert set(data["series"]) == _legend(fig)
    assert set(data["panel"]) == {ax.get_title() for ax in fig.axes if ax.get_title()}
    plt.close(fig)


def test_hands_texts_report_the_range_of_rho_and_the_worst_endless_share():
    rc = pd.DataFrame({"n_players": [2, 4], "deck": [36, 24], "rho": [0.1, 0.3], "lo": [0.05, -0.1],
                       "hi": [0.15, 0.5], "fool_low": [0.6, 0.4], "fool_high": [0.4, 0.1]})
    so = pd.DataFrame({"n_players": [2, 4], "deck": [36, 24], "draw_rate": [0.01, 0.02],
                       "capped_rate": [0.0, 0.05]})
    eff = pd.DataFrame({"makeup": ["three", "pair", "unbalanced"], "n_players": "all",
                        "effect": [-0.014, 0.002, 0.021], "lo": [-0.018, -0.003, 0.017],
                        "hi": [-0.01, 0.008, 0.024]})
    t = _plain(report.hands_texts(rc, so, eff))
    assert "**0.10–0.30**" in t["durak-rho"] and "above 0 in 1 of 2" in t["durak-rho"]
    assert "5.0 % of the 4-player 24-card games" in t["durak-predict-text"]
    assert "right direction in 1 of 2 configurations" in t["durak-predict-text"]
    assert "explains little of who ends as the fool (ρ 0.10)" in t["durak-predict-text"]
    assert "three or more cards of one rank change the fool rate by **" in t["durak-makeup"]
    assert "+2.1" in t["durak-makeup"]


def test_makeup_table_puts_three_pair_and_unbalanced_in_order():
    eff = pd.DataFrame({"makeup": ["pair", "three", "unbalanced"], "n_players": 2,
                        "effect": [0.01, -0.02, 0.03], "lo": [0.0, -0.03, 0.02], "hi": [0.02, -0.01, 0.04]})
    tab = report.makeup_table(eff)
    assert list(tab.columns) == ["players", "3+ of one rank (vs ≤ 2)", "2+ of one rank (vs none)",
                                 "3+ of one non-trump suit (vs ≤ 2)"]
    assert tab.iloc[0, 1].startswith("-2.0<br><small>-3.0 to -1.0")


# ----------------------------------------------------------------------------- endgame


def test_endgame_data_leaves_out_sizes_seen_fewer_than_30_times():
    by = pd.DataFrame({"n_players": 2, "size": [3, 8, 12], "n": [100, 29, 40],
                       "fool": [0.1, 0.5, 0.9], "lo": [0.05, 0.3, 0.8], "hi": [0.2, 0.7, 0.95]})
    data = report.endgame_data(by)
    assert list(data["cards in hand when the talon runs out"]) == [3, 12]
    assert list(data["fool rate (%)"]) == [10.0, 90.0] and list(data["series"]) == ["2 players"] * 2
    fig = report.endgame_figure(by)
    assert set(data["series"]) == _legend(fig)
    plt.close(fig)


def test_endgame_texts_count_games_that_never_reached_an_empty_talon():
    rows = pd.DataFrame({"n_players": 3, "bout": [5, 7, -1, -1], "fool": [0, 1, -1, 2]})
    eff = pd.DataFrame({"n_players": [3], "effect": [0.2], "lo": [0.1], "hi": [0.3]})
    au = pd.DataFrame({"score": report.AUC_SCORES, "auc": [0.7, 0.72, 0.6]})
    t = report.endgame_texts(rows, eff, au)
    assert ("Of the 4 3-player games, 2 never reached a bout with an empty talon (1 of them "
            "abandoned as endless), so the table below counts 2 games") in t["durak-endgame-missing"]
    assert "AUC of 0.70, the bare card count with 0.60" in t["durak-endgame"]


# ----------------------------------------------------------------------------- matches


def test_baselines_table_data_and_text():
    t = analysis.outcomes(_baselines())
    share = report.baselines_table(t, "share")
    assert list(share.columns) == ["opponents", "players", "36 cards"]
    assert share.iloc[0, 2].startswith("1.0<br>")  # 10 of 1,000 against RandomAI, 2 players
    data = report.baselines_data(t)
    smallest2 = data[(data["panel"] == "EvalAI vs SmallestAI") & (data["players"] == 2)
                     & (data["series"] == "36 cards")].iloc[0]
    assert smallest2["EvalAI's share of the fool (%)"] == pytest.approx(400 / 900 * 100)
    assert smallest2["n"] == 900  # decided games: the draws are left out
    ref = data[data["series"] == "1/n (equal players)"]
    assert sorted(ref["EvalAI's share of the fool (%)"].round(1).unique()) == [33.3, 50.0]
    fig = report.baselines_figure(t)
    assert set(data["series"]) == _legend(fig)
    plt.close(fig)
    text = _plain(report.baselines_texts(t))
    assert "**1.0 %–2.0 %** against random players" in text["durak-baselines"]
    assert "above it — the fool *more* often than an equal player — in 1 (3 players, 36 cards)" \
        in text["durak-baselines-text"]


def _variants():
    rows = []
    for agent, fools in (("EvalAI-notrumpbonus", (800, 500)), ("EvalAI-nounbalanced", (400, 300)),
                         ("EvalAI-norankbonus", (500, 250))):
        for n, fool in zip((2, 4), fools):
            rows.append(_match(agent, "EvalAI", n, 36, 1000, fool))
    return analysis.outcomes(pd.DataFrame(rows))


def test_ablations_pooled_table_figure_and_data_agree():
    p = report.ablations_pooled(_variants())
    assert list(dict.fromkeys(p["agent"])) == ["EvalAI-norankbonus", "EvalAI-nounbalanced",
                                               "EvalAI-notrumpbonus"]  # the chapter's order
    tab = report.ablations_table(p)
    assert list(tab["change"]) == ["same-rank bonus removed", "unbalanced-hand penalty removed",
                                   "trump bonus removed"]
    assert tab.loc[2, "2 players"].startswith("+30.0<br>")
    data = report.ablations_data(p)
    assert data.loc[(data["change"] == "trump bonus removed") & (data["series"] == "4 players"),
                    report.ABL_X].item() == pytest.approx(25.0)
    fig = report.ablations_figure(p)
    assert set(data["series"]) == _legend(fig)
    # the figure's labels are the table's, broken into lines to fit a phone's column
    assert [t.get_text().replace("\n", " ") for t in fig.axes[0].get_yticklabels()] == list(tab["change"])
    plt.close(fig)


def test_ablations_text_leaves_out_sentences_on_variants_not_played():
    claims = _claims({"ablation.trump_bonus": "holds", "ablation.unbalanced": "fails",
                      "ablation.card_values": "pending"})
    t = report.ablations_texts(_variants(), claims)
    assert "carry the evaluator" not in t["durak-ablations-text"]  # no card-values variant
    assert "costs little" in t["durak-ablations-text"]
    assert ("removing the unbalanced-hand penalty hurts EvalAI with 4 players and helps it with 2"
            in t["durak-ablations-text"])
    assert "1 of 2 ablation claims hold" in t["durak-ablations"]
    assert "The sign depends on the player count with unbalanced-hand penalty removed" in t["durak-ablations"]


def test_diagnosis_needs_every_variant_it_names():
    rows = [_match(a, "SmallestAI", n, 36, 1000, f) for a, f in
            (("EvalAI", 350), ("EvalAI/lead-smallest", 250), ("EvalAI/lead-nobonus", 260),
             ("EvalAI/throw-always", 450), ("EvalAI/beat-always", 340)) for n in (3, 4)]
    p = report.diagnosis_pooled(analysis.outcomes(pd.DataFrame(rows)))
    t = report.diagnosis_texts(p, None)
    assert "With 3–4 players" in t["durak-diagnosis"] and t["durak-leads"] == ""
    assert "The cost is in the **opening attack**" in t["durak-diagnosis-text"]
    assert report.diagnosis_table(p)["EvalAI with"].iloc[0] == "EvalAI (OpenFool's rules)"
    short = report.diagnosis_texts(p[p["agent"] != "EvalAI/beat-always"], None)
    assert short["durak-diagnosis"] == report.NOT_COMPUTED and short["durak-diagnosis-text"] == ""


def test_leads_text_and_table():
    ld = pd.DataFrame({"n_players": [2, 2], "leads": [10, 10], "differ": [4, 6], "group": [2, 3],
                       "higher": [4, 5], "trump": 0, "hv_smallest": [1, 1], "gap": [8, 12]})
    text = _plain(report.diagnosis_texts(None, ld))["durak-leads"]
    assert text.startswith("50.0 % of its opening leads") and "by 2.0 ranks" in text
    assert report.leads_table(ld).iloc[0]["unlike SmallestAI's"].replace("\xa0", " ") == "50.0 %"


def test_rules_text_and_table():
    rows = [_match("EvalAI", "SmallestAI", n, 36, 1000, f, rules=r) for r, n, f in
            (("OpenFool", 2, 400), ("OpenFool + transfer (perevodnoy)", 2, 380),
             ("OpenFool + transfer, OpenFool's check", 2, 390))]
    t = analysis.outcomes(pd.DataFrame(rows))
    assert "2 players 38.0 % with the standard check, 39.0 % with OpenFool's" in _plain({"": report.rules_text(t)})[""]
    tab = report.rules_table(t)
    assert list(tab["rules"]) == ["OpenFool's rules", "+ transfer (standard check)",
                                  "+ transfer (OpenFool's check)"]


def test_monte_carlo_texts_table_and_data():
    rows = [_match("MC-AI", "EvalAI", 2, 36, 100, f, budget=b) for b, f in ((50, 20), (5, 40))]
    t = analysis.outcomes(pd.DataFrame(rows))
    data = report.mc_data(t)
    assert list(data["sampled deals per decision"].dropna()) == [5, 50]
    assert list(data["MC-AI's share of the fool (%)"]) == [40.0, 20.0, 50.0]
    texts = _plain(report.mc_texts(t, 100))
    assert "**20.0 %**" in texts["durak-mc"] and "at 50 samples" in texts["durak-mc"]
    assert texts["durak-games-mc"] == "100"
    assert report.mc_texts(t, 200)["durak-games-mc"].startswith("100–100 (of 200")
    assert list(report.mc_table(t)["budget"]) == [5, 50]
    fig = report.mc_figure(t)
    assert {"MC-AI, 2 players", "1/n = 1/2"} == _legend(fig)  # the equal-players line named
    plt.close(fig)


def test_capped_text_counts_only_experiments_that_record_it():
    compute = pd.DataFrame({"games": [1000, 500], "abandoned": pd.array([4, None], dtype="Float64")})
    assert report.capped_text(compute).startswith("4 of the 1,000 games that record it (0.4")
    none = pd.DataFrame({"games": [500], "abandoned": pd.array([None], dtype="Float64")})
    assert report.capped_text(none) == report.NOT_COMPUTED
