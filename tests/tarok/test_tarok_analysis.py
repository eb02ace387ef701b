"""The tarok analysis on hand-made search rows: Table 1, ratios, Table 8, the fuzzy table, claims."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from gameai.core.claims import _check
from gameai.tarok import analysis, chapter, paper


def rows(configs: dict[str, int], deals: int = 4, samples: int = 2, depth: int = 9,
         tricks: int = 0) -> pd.DataFrame:
    """``configs``: name -> nodes per sample on deal 0 (deal d has (d + 1) times as many)."""
    out = []
    for d in range(deals):
        for name, nodes in configs.items():
            for s in range(samples):
                out.append({"deal": d, "tricks": tricks, "depth": depth, "config": name,
                            "sample": s, "nodes": nodes * (d + 1), "seconds": nodes * 1e-6,
                            "card": "XXI" if name != "all_exact_tt" or s else "I",
                            "n_legal": 10, "decision": "XXI"})
    return pd.DataFrame(out)


def test_per_decision_sums_samples():
    d = analysis.per_decision(rows({"all": 10, "none": 1000}, deals=2, samples=3))
    assert list(d["nodes"]) == [30, 3000, 60, 6000]
    assert set(d["samples"]) == {3}


def test_ratio_is_ratio_of_means_with_ci():
    df = rows({"all": 10, "none": 500})
    est, lo, hi, n = analysis.ratio(df, "none", "all")
    assert est == pytest.approx(50.0) and n == 4
    assert lo == pytest.approx(50.0) and hi == pytest.approx(50.0)  # constant ratio per deal
    est, lo, hi, n = analysis.ratio(df, "all", "all")
    assert est == pytest.approx(1.0)
    assert math.isnan(analysis.ratio(df, "none", "only_tt")[0])


def test_ratio_single_deal_has_no_ci():
    est, lo, hi, n = analysis.ratio(rows({"all": 10, "none": 30}, deals=1), "none", "all")
    assert est == pytest.approx(3.0) and n == 1 and math.isnan(lo) and math.isnan(hi)


def test_table1_columns_beside_paper():
    t = analysis.table1(rows({"all": 10, "none": 1000})).set_index("config")
    assert t.loc["all", "nodes"] == pytest.approx(25.0)  # mean of 10, 20, 30, 40
    assert t.loc["all", "nodes_decision"] == pytest.approx(50.0)
    assert t.loc["all", "none_ratio"] == pytest.approx(100.0)
    assert t.loc["all", "paper_nodes"] == 8_667
    assert t.loc["all", "paper_none_ratio"] == pytest.approx(1_598_924 / 8_667)
    assert t.loc["all", "us_per_node"] == pytest.approx(1e6 * 1e-5 * 8 / (10 * 2 * 10))


def test_table8_joins_depths():
    t = analysis.table8([rows({"none": 100, "only_tt": 10}, depth=9),
                         rows({"none": 20, "only_tt": 5}, depth=3)])
    r = t.set_index(["config", "depth"])
    assert r.loc[("only_tt", 3), "paper"] == 162
    assert r.loc[("only_tt", 9), "none_ratio"] == pytest.approx(10.0)
    assert r.loc[("none", 3), "paper_none_ratio"] == pytest.approx(1.0)


def test_fuzzy_ratio_and_agreement():
    f = analysis.fuzzy(rows({"all": 10, "all_exact_tt": 23}, tricks=5))
    assert f["ratio"] == pytest.approx(2.3)
    assert f["positions"] == 4
    assert f["same_decision"][0] == pytest.approx(1.0)
    assert f["same_sample"][0] == pytest.approx(0.5)  # sample 0 chose another card


class _Res:
    """What ``build_claims`` reads of a ``Results``: its params and frames."""

    def __init__(self, params, t1, t8, fz, st, thesis):
        self.params = params
        self.frames = {"table1": t1, "table1_ci": None, "table8": t8, "fuzzy": fz,
                       "strength": st, **thesis}

    def __getitem__(self, key):
        return self.frames.get(key)


def _res(t1=None, t8=None, fz=None, st=None, **thesis):
    """``thesis``: frames of the thesis-configuration experiments (thesis_table1, ...)."""
    return _Res(chapter.resolve({}), t1, t8, fz, st, thesis)


def window_rows(n=20, worse_every=4):
    """Window-cost rows: the thesis window picks a card worth 2 less on every
    ``worse_every``-th position, PVS never."""
    out = []
    for d in range(n):
        for name in ("only_minwindow", "all"):
            for window in ("pvs", "thesis"):
                bad = window == "thesis" and d % worse_every == 0
                out.append({"deal": d, "tricks": 0, "sample": 0, "config": name,
                            "window": window, "nodes": 100 if window == "pvs" else 80,
                            "seconds": 0.01, "card": "I" if bad else "XXI", "exact_card": "XXI",
                            "loss": 2.0 if bad else 0.0, "n_legal": 10})
    return pd.DataFrame(out)


def _ids(claims):
    return {c.claim for c in claims}


def test_build_claims_covers_every_id_when_pending():
    claims = analysis.build_claims(_res())
    _check(claims)
    assert _ids(claims) == {r["claim_id"] for r in paper.claim_rows()}
    assert all(c.verdict == "pending" and c.note for c in claims)


def test_build_claims_with_rows():
    t1 = rows({name: 10 * (i + 1) for i, name in enumerate(paper.CONFIG_OF.values())})
    t8 = pd.concat([rows({n: 5 for n in paper.TABLE8}, depth=3),
                    rows({n: 50 for n in paper.TABLE8}, depth=6)])
    fz = rows({"all": 10, "all_exact_tt": 23}, tricks=3)
    st = strength_rows({"random": 20, "rule": 30, "tarokist": 45, "tarokist_exact": 45})
    # the thesis configuration: plain alpha-beta 184 x all, 16.7 x only_tt
    t1t = rows({name: (1_598_924 if name == "none" else 8_667 if name == "all" else 95_575
                       if name == "only_tt" else 100_000) for name in paper.CONFIG_OF.values()})
    t8t = pd.concat([rows({n: 5 for n in paper.TABLE8}, depth=3),
                     rows({n: 50 for n in paper.TABLE8}, depth=6)])
    st_w = strength_rows({"tarokist_thesis_window": 44})
    claims = analysis.build_claims(_res(t1, t8, fz, st, thesis_table1=t1t, thesis_table8=t8t,
                                        thesis_fuzzy=fz, window_cost=window_rows(),
                                        window_games=st_w))
    _check(claims)
    by = {c.claim: c for c in claims}
    assert _ids(claims) == {r["claim_id"] for r in paper.claim_rows()}
    # judged in the thesis configuration, the sound one's ratio (10x) in the note
    assert by["table1.reduction"].ours == pytest.approx(1_598_924 / 8_667)
    assert by["table1.reduction"].verdict == "reproduced"
    assert "sound configuration 10.0x" in by["table1.reduction"].note
    assert by["table1.only_tt.ratio"].verdict == "reproduced"
    assert by["table1.only_history.ratio"].verdict == "differs"  # 16.0 vs 4.9
    assert by["table8.only_tt.3.ratio"].verdict == "differs"  # 1.0 vs 1.4
    assert by["fuzzy_tt.gain"].verdict == "reproduced"
    # absolute node counts and seconds are shown, not judged; the ratio carries the verdict
    assert by["table8.none.3"].verdict == "not comparable"
    assert by["table1.all"].verdict == "not comparable" and "table1.reduction" in by["table1.all"].note
    assert "table1.only_tt.ratio" in by["table1.only_tt"].note
    assert by["table1.none.seconds"].verdict == "not comparable"
    assert by["table1.reduction"].n_paper == paper.TABLE1_DEALS
    # the thesis window: a worse card on 5 of 20 positions; 1 point less in play
    assert by["window.exact"].verdict == "fails" and "25.0 %" in by["window.exact"].ours
    assert by["window.play"].verdict == "fails" and "-1.00" in by["window.play"].ours
    assert by["strength.reasonable"].verdict == "holds"
    assert by["fuzzy_tt.quality"].verdict == "holds"
    assert all(c.verdict != "pending" for c in claims)


def strength_rows(base_points, deals=30):
    """Strength rows: each player's points are its base + deal % 3 (so pairs differ exactly
    by their bases on every deal)."""
    return pd.DataFrame([{"player": p, "opponent": "rule", "deal": d, "points": b + d % 3,
                          "win": int(b + d % 3 > 35), "seconds": 1.0}
                         for p, b in base_points.items() for d in range(deals)])


def test_paired_difference_uses_common_deals_only():
    st = strength_rows({"tarokist": 40, "mcab": 37})
    st = st[~((st["player"] == "mcab") & (st["deal"] >= 10))]  # mcab stopped after 10 deals
    d = analysis.paired(st, "tarokist", "mcab")
    assert d["deals"] == 10
    assert d["points"] == pytest.approx(3.0) and d["points_lo"] == pytest.approx(3.0)
    assert d["same_points"] == 0.0
    assert analysis.paired(st, "tarokist", "cheat") == {"deals": 0}


def test_strength_fails_when_program_is_not_above_rule_based_play():
    st = strength_rows({"random": 20, "rule": 45, "tarokist": 45})
    by = {c.claim: c for c in analysis.build_claims(_res(st=st))}
    assert by["strength.reasonable"].verdict == "fails"
    assert by["fuzzy_tt.quality"].verdict == "pending"  # no exact-table player


def test_fuzzy_quality_fails_on_a_clear_loss():
    st = strength_rows({"random": 20, "rule": 30, "tarokist": 40, "tarokist_exact": 42})
    by = {c.claim: c for c in analysis.build_claims(_res(st=st))}
    assert by["fuzzy_tt.quality"].verdict == "fails"
    assert "-2.00" in by["fuzzy_tt.quality"].ours


def session_rows():
    """Four games of one session: klop, a won three with trula announced and achieved, a lost
    two with kings announced but not achieved, and a won beggar."""
    base = {"session": 0, "forehand": 0, "achieved_valat": 0, "score1": 0, "score2": 0}
    games = [("klop", -1, -1, 0, (0, 0, 0), (-10, 7)), ("three", 0, 1, 1, (1, 0, 0), (45, 7)),
             ("two", 1, 0, 2, (0, 0, 0), (-40, 8)), ("beggar", 2, 1, 0, (0, 0, 0), (70, 8))]
    rows = []
    for i, (c, decl, won, ann, ach, (score, margin)) in enumerate(games):
        r = dict(base, game=i, contract=c, declarer=decl, won=won, announced=ann,
                 achieved_trula=ach[0], achieved_kings=ach[1], achieved_pagat_ultimo=ach[2],
                 margin0=7.0, margin1=margin, margin2=7.0)
        r[f"score{max(decl, 0)}"] = score
        rows.append(r)
    return pd.DataFrame(rows)


def test_contract_mix_counts_shares_and_declarer_results():
    mix = analysis.contract_mix(session_rows()).set_index("contract")
    assert list(mix.index) == ["klop", "three", "two", "beggar"]
    assert mix.loc["three", "share"] == pytest.approx(0.25)
    assert mix.loc["two", "win"] == 0.0 and mix.loc["beggar", "win"] == 1.0
    assert mix.loc["two", "score"] == -40 and mix.loc["beggar", "score"] == 70
    assert math.isnan(mix.loc["klop", "win"])


def test_margin_paths_and_announcements():
    paths = analysis.margin_paths(session_rows())
    assert len(paths) == 12 and set(paths["player"]) == {0, 1, 2}
    assert list(paths[paths["player"] == 1]["margin"]) == [7, 7, 8, 8]
    ann = analysis.announcement_stats(session_rows()).set_index("announcement")
    assert ann.loc["trula", "announced"] == 1 and ann.loc["trula", "rate"] == 1.0
    assert ann.loc["kings", "announced"] == 1 and ann.loc["kings", "achieved"] == 0
    assert ann.loc["pagat_ultimo", "announced"] == 0 and ann.loc["trula", "games"] == 2


def test_session_trend_by_window():
    t = analysis.session_trend(session_rows(), window=2)
    assert list(t["games"]) == ["1-2", "3-4"] and list(t["n"]) == [2, 2]
    assert list(t["klop"]) == [0.5, 0.0]
    assert list(t["declarer_win"]) == [1.0, 0.5]
    assert t["margin"].iloc[1] == pytest.approx((7 + 8 + 7) / 3)


def test_decomposition_is_paired_with_step_factors():
    """Steps on the same deals: each step's ratio and its factor against the step before, the
    factor split into plain alpha-beta's half and the enhanced search's; a step without plain
    alpha-beta rows (the thesis steps) takes the previous step's."""
    a = rows({"all": 10, "none": 440})
    b = rows({"all": 10, "none": 880})
    c = rows({"all": 5})
    d = analysis.decomposition([("sound", a), ("root", b), ("+ pruning", c),
                                ("missing", None)], deals=4)
    assert d["step"].tolist() == ["sound", "root", "+ pruning"]
    assert list(d["ratio"].round(1)) == [44.0, 88.0, 176.0]
    assert math.isnan(d["factor"][0])
    assert list(d["factor"][1:].round(2)) == [2.0, 2.0]
    assert d["none_factor"][1] == pytest.approx(0.5) and d["all_factor"][1] == pytest.approx(1)
    assert d["none_factor"][2] == pytest.approx(1) and d["all_factor"][2] == pytest.approx(2)
    assert d["deals"].tolist() == [4, 4, 4]
    assert d["all"].tolist() == [25.0, 25.0, 12.5]  # mean per sampled deal (deal d x (d + 1))


def test_decomposition_ci_is_paired():
    """A step that doubles every deal's ratio has a factor CI of exactly [2, 2] although the
    ratios themselves scatter over deals; the steps use only the deals all of them have."""
    a = rows({"all": 10, "none": 440}, deals=6)
    a.loc[(a["config"] == "none") & (a["deal"] % 2 == 1), "nodes"] *= 3
    b = a.copy()
    b.loc[b["config"] == "all", "nodes"] //= 2
    d = analysis.decomposition([("one", a), ("two", b[b["deal"] < 5])], deals=6)
    assert d["deals"].tolist() == [5, 5]
    assert d["lo"][0] < d["ratio"][0] < d["hi"][0]
    assert d["factor_lo"][1] == pytest.approx(2) and d["factor_hi"][1] == pytest.approx(2)


def test_split_steps_orders_cumulative_switches():
    one = rows({"all": 10})
    one["pruning"] = "thesis"
    two = one.copy()
    two["minimal_window"] = "thesis"
    three = two.copy()
    three["second_highest"] = "queen"
    parts = analysis.split_steps(pd.concat([three, one, two], ignore_index=True))
    assert [len(p) for p in parts] == [len(one)] * 3
    assert "second_highest" not in parts[0] or parts[0]["second_highest"].isna().all()
    assert (parts[2]["second_highest"] == "queen").all()
    assert analysis.split_steps(None) == []


def test_remaining_gap_splits_into_halves_and_convention():
    """Our ratio 100x against the thesis's 184.5x: gap = plain half x enhanced half; not
    counting the table's answers (half of the enhanced nodes) doubles our ratio."""
    df = rows({"all": 8_667 * 2, "none": 1_598_924}, deals=1, samples=2)
    df["tt_answers"] = [8_667 if c == "all" else 0 for c in df["config"]]
    g = analysis.remaining_gap(df)
    assert g["plain_half"] == pytest.approx(1.0)
    assert g["enhanced_half"] == pytest.approx(2.0)
    assert g["gap"] == pytest.approx(g["plain_half"] * g["enhanced_half"])
    assert g["convention"] == pytest.approx(2.0) and g["gap_tt"] == pytest.approx(1.0)
    g = analysis.remaining_gap(rows({"all": 10, "none": 1000}, deals=5))
    assert g["gap_lo"] <= g["gap"] <= g["gap_hi"] and math.isnan(g["convention"])


def test_depth3_facts_counts_equal_and_costlier_samples():
    df = rows({"none": 200, "only_tt": 200, "only_minwindow": 250}, deals=3, depth=3)
    f = analysis.depth3_facts(df)
    assert f["samples"] == 6 and f["tt_equal"] == 6 and f["tt_more"] == 0
    assert f["window_more"] == 6 and f["window_ratio"] == pytest.approx(0.8)
    assert f["paper_tt_ratio"] == pytest.approx(224 / 162)
    assert analysis.depth3_facts(rows({"all": 1}, depth=3))["samples"] == 0


def test_window_cost_counts_changed_and_worse_cards():
    w = analysis.window_cost(window_rows(n=20, worse_every=4)).set_index(["config", "window"])
    assert w.loc[("only_minwindow", "thesis"), "worse"] == pytest.approx(0.25)
    assert w.loc[("only_minwindow", "pvs"), "changed"] == 0
    est, _, _, n = analysis.window_nodes_ratio(window_rows(), "all")
    assert est == pytest.approx(1.25) and n == 20


def test_decomposition_words_and_table_follow_the_cis():
    """A step whose paired CI lies above 1 'raises the ratio' through the half that moved; the
    table shows every step with its factor and halves; the texts are empty without data."""
    a = rows({"all": 10, "none": 440}, deals=6)
    a.loc[a["config"] == "none", "nodes"] += a.loc[a["config"] == "none", "deal"] * 7
    b = a.copy()
    b.loc[b["config"] == "all", "nodes"] //= 2
    d = analysis.decomposition([("one", a), ("two", b)], deals=6)
    assert analysis.steps_text(d) == ("two raises the ratio (through the enhanced search's "
                                      "nodes).")
    assert "two" in analysis.decomposition_text(d) and "paired bootstrap" in \
        analysis.decomposition_text(d)
    t = analysis.decomposition_table(d)
    assert t["search"].tolist() == ["one", "two"] and t["step: ratio ×"][0] == ""
    assert t["step: ratio ×"][1].startswith("2.00×")
    empty = analysis.decomposition([("one", None)], deals=6)
    assert empty.empty and analysis.decomposition_text(empty) == ""


def test_gap_and_depth3_texts_state_the_measurements():
    df = rows({"all": 8_667 * 2, "none": 1_598_924}, deals=3, samples=2)
    df["tt_answers"] = [100 if c == "all" else 0 for c in df["config"]]
    text = analysis.gap_text(analysis.remaining_gap(df))
    assert "1,598,924" in text and "8,667" in text and "answers" in text
    assert analysis.gap_text({"deals": 0}) == ""
    f = analysis.depth3_facts(rows({"none": 200, "only_tt": 200, "only_minwindow": 150},
                                   deals=3, depth=3))
    words = analysis.depth3_text(f, f)
    assert "exactly plain alpha-beta's nodes on 6 of 6" in words
    assert "more nodes than plain alpha-beta on 0 of 6" in words
    assert analysis.depth3_text({"samples": 0}) == ""


def test_depth3_text_concludes_only_when_the_measurements_rule_the_print_out():
    """The conclusion needs all three: the table never saving a node, the printed window
    saving nodes and the re-searching window costing some."""
    table_equal = {"none": 200, "only_tt": 200}
    f = analysis.depth3_facts(rows({**table_equal, "only_minwindow": 150}, deals=3, depth=3))
    pvs = analysis.depth3_facts(rows({**table_equal, "only_minwindow": 250}, deals=3, depth=3))
    assert "cannot come from the search its text prints" in analysis.depth3_text(f, pvs)
    assert "cannot come" not in analysis.depth3_text(f, f)
    assert "cannot come" not in analysis.depth3_text(f)


def test_a_ratio_of_exactly_one_on_every_deal_says_so():
    same = rows({"none": 100, "only_tt": 100}, depth=3)
    (c,) = analysis.ratio_claims(same, None, 4, ["only_tt"], depth=3)
    assert "exactly 1 on every deal" in c.note and "at depth 3" in c.note
    (d,) = analysis.ratio_claims(rows({"none": 100, "only_tt": 50}, depth=3), None, 4,
                                 ["only_tt"], depth=3)
    assert "exactly 1" not in d.note
