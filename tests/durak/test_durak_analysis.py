"""Durak chapter: analysis and claims on hand-made rows, and the chapter's compact task rows."""

from __future__ import annotations

import math
import numpy as np
import pandas as pd
import pytest

from gameai.core.claims import write_claims, read_claims
from gameai.durak import analysis, chapter, paper

SPEC_IDS = set(paper.CLAIMS) | set(paper.ABLATIONS)


def hands_rows(games: int = 400, n: int = 2, seed: int = 0) -> pd.DataFrame:
    """Hand-made ``hands`` rows: the seat with the lower hand value is the fool (ties: seat 0)."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(games):
        hv = rng.integers(0, 5000, size=n)
        fool = int(np.argmin(hv))
        order = np.argsort(-hv)  # highest value out first
        place = np.empty(n, dtype=int)
        place[order] = np.arange(n)
        row = {"key": "k", "index": i, "n_players": n, "deck": 36, "agent": "EvalAI",
               "deck_cards": 36, "fool": fool, "capped": 0}
        for p in range(n):
            mr = int(rng.integers(1, 4))
            row.update({f"place{p}": int(place[p]), f"hv{p}": int(hv[p]), f"rb{p}": 2 * (mr > 1),
                        f"rbx{p}": 200 * (mr > 1), f"ub{p}": int(rng.integers(0, 400)),
                        f"mr{p}": mr, f"ms{p}": int(rng.integers(1, 5)),
                        f"tr{p}": int(rng.integers(0, 4))})
        rows.append(row)
    return pd.DataFrame(rows)


def test_hands_long_one_row_per_seat_and_standing():
    df = hands_rows(games=3, n=3)
    df.loc[2, "capped"] = 1  # an abandoned game is left out
    long = analysis.hands_long(df)
    assert len(long) == 2 * 3
    g0 = long[long["game"] == "k:0"].set_index("seat")
    assert g0["fool"].sum() == 1
    fool_seat = int(df.loc[0, "fool"])
    assert g0.loc[fool_seat, "place"] == 2 and g0.loc[fool_seat, "standing"] == 0
    assert (long["standing"] == 2 - long["place"]).all()
    assert g0.loc[1, "hv"] == df.loc[0, "hv1"]


def test_spearman_perfect_and_independent():
    x = np.arange(200.0)
    rho, lo, hi = analysis.spearman_ci(x, 2 * x + 1, groups=np.arange(200) // 2, draws=50)
    assert rho == pytest.approx(1.0) and lo == pytest.approx(1.0) and hi == pytest.approx(1.0)
    rng = np.random.default_rng(1)
    rho, lo, hi = analysis.spearman_ci(rng.normal(size=2000), rng.normal(size=2000), draws=100)
    assert lo < 0 < hi and abs(rho) < 0.1


def test_auc_by_hand():
    a, lo, hi = analysis.auc([3, 4, 1, 2, 3], [1, 1, 0, 0, 0])
    # positive 3 beats 1, 2 and ties 3 (2.5); positive 4 beats all three (3): 5.5 / 6
    assert a == pytest.approx(5.5 / 6)
    assert lo <= a <= hi
    assert math.isnan(analysis.auc([1, 2], [1, 1])[0])


def test_diff_ci():
    d, lo, hi = analysis.diff_ci(30, 100, 10, 100)
    assert d == pytest.approx(0.2)
    half = 1.96 * math.sqrt(0.3 * 0.7 / 100 + 0.1 * 0.9 / 100)
    assert lo == pytest.approx(0.2 - half) and hi == pytest.approx(0.2 + half)


def test_stratified_effect_removes_confounding():
    # The treated seats are the fool more often only because their base value is lower: within
    # a stratum of base value the fool rate does not depend on the treatment.
    rows = []
    for base, rate, treated_share in ((0, 0.8, 0.9), (1, 0.2, 0.1)):
        for i in range(1000):
            rows.append({"n_players": 2, "deck": 36, "base": base,
                         "treated": i < 1000 * treated_share, "fool": int((i * 7919) % 1000 < rate * 1000)})
    long = pd.DataFrame(rows)
    eff = analysis.stratified_effect(long, long["treated"], long["base"], ["n_players", "deck"], bins=2)
    assert eff["raw"] > 0.3
    assert abs(eff["effect"]) < 0.1
    assert eff["lo"] < eff["effect"] < eff["hi"]


def test_makeup_effects_rows():
    long = analysis.hands_long(hands_rows())
    eff = analysis.makeup_effects(long)
    assert set(eff["makeup"]) == {"pair", "three", "unbalanced"}
    assert set(eff["n_players"].astype(str)) == {"2", "all"}
    assert eff[["effect", "lo", "hi"]].notna().all().all()


def match_rows() -> pd.DataFrame:
    # two batches of one config; EvalAI fool 10 of 190 decided games, draws 8, capped 2
    return pd.DataFrame([
        {"key": "a", "index": 0, "agent": "EvalAI", "vs": "RandomAI", "n_players": 2, "deck": 36,
         "games": 100, "fool": 6, "opp_fool": 90, "draw": 3, "capped": 1, "place": 6, "place2": 6,
         "bouts": 1500},
        {"key": "a", "index": 1, "agent": "EvalAI", "vs": "RandomAI", "n_players": 2, "deck": 36,
         "games": 100, "fool": 4, "opp_fool": 90, "draw": 5, "capped": 1, "place": 4, "place2": 4,
         "bouts": 1500},
    ])


def test_outcomes_sums_batches():
    t = analysis.outcomes(match_rows())
    assert len(t) == 1
    r = t.iloc[0]
    assert r["games"] == 200 and r["decided"] == 190 and r["capped"] == 2
    assert r["share"] == pytest.approx(10 / 190)
    assert r["share_lo"] < r["share"] < r["share_hi"]
    assert r["null"] == 0.5 and r["excess"] == pytest.approx(10 / 190 - 0.5)
    assert r["draw_rate"] == pytest.approx(8 / 200)
    # place over the 198 games not abandoned: ten 1s (the fool) and 188 0s
    assert r["place"] == pytest.approx(10 / 198)
    assert r["place_lo"] < r["place"] < r["place_hi"]
    assert r["bouts"] == 15


def test_pooled_excess():
    t = pd.DataFrame({"share": [0.6, 0.3], "decided": [1000, 1000], "null": [0.5, 0.25],
                      "games": [1000, 1000]})
    m, lo, hi, games = analysis.pooled_excess(t)
    assert m == pytest.approx(0.075) and games == 2000
    half = 1.96 * math.sqrt(0.6 * 0.4 / 1000 + 0.3 * 0.7 / 1000) / 2
    assert hi - m == pytest.approx(half)


def endgame_rows() -> pd.DataFrame:
    rows = []
    for i in range(300):
        big = i % 3 == 0
        sizes = (9, 3) if big else (4, 5)
        fool = 0 if big else int(i % 2)
        rows.append({"key": "e", "index": i, "n_players": 2, "deck": 36, "agent": "EvalAI",
                     "bout": 12, "fool": fool, "size0": sizes[0], "size1": sizes[1],
                     "hv0": 100 * sizes[0], "hv1": 100 * sizes[1], "hvt0": -100 * sizes[0],
                     "hvt1": -100 * sizes[1]})
    rows.append({**rows[0], "index": 999, "bout": -1})  # the talon never ran out: left out
    return pd.DataFrame(rows)


def test_endgame_long_effects_and_auc():
    long = analysis.endgame_long(endgame_rows())
    assert len(long) == 600
    assert long.loc[0, "share"] == pytest.approx(9 / 12)
    eff = analysis.endgame_effects(long).iloc[0]
    assert eff["fool_many"] == 1.0 and eff["lo"] > 0
    au = analysis.endgame_auc(long).set_index("score")["auc"]
    assert au["fewer cards"] > 0.5
    assert au["hand value, true division (article)"] > au["hand value, Int division (as coded)"]
    by = analysis.endgame_by_size(long)
    assert by.loc[by["size"] == 9, "fool"].iloc[0] == 1.0


class FakeRes(dict):
    """What ``build_claims`` reads of ``Results``: ``res[key]``, ``None`` while pending."""

    def __getitem__(self, key):
        return self.get(key)


def test_build_claims_all_pending_then_measured(tmp_path):
    claims = analysis.build_claims(FakeRes())
    assert {c.claim for c in claims} == SPEC_IDS
    assert all(c.verdict == "pending" and c.note for c in claims)
    write_claims("durak", claims, tmp_path)  # the writer accepts them

    baselines = match_rows()
    ablations = pd.concat([match_rows().assign(agent=v, vs="EvalAI", key=v)
                           for v in paper.ABLATIONS.values()], ignore_index=True)
    res = FakeRes(hands=hands_rows(), endgame=endgame_rows(), baselines=baselines,
                  ablations=ablations)
    claims = analysis.build_claims(res)
    by = {c.claim: c for c in claims}
    assert set(by) == SPEC_IDS
    assert by["article.hand_value_predicts"].verdict == "holds"  # the fool is the lowest value
    assert by["article.many_cards_penalty"].verdict == "holds"
    assert by["ai.vs_random"].verdict == "holds"
    assert by["ai.vs_smallest"].verdict == "pending"  # no SmallestAI rows
    # every variant is the fool far less often than 1/n: removals "fail", x100 / truediv "hold"
    assert by["ablation.rank_bonus"].verdict == "fails"
    assert by["ablation.bonus_x100"].verdict == "holds"
    assert by["ablation.true_division"].verdict == "holds"
    assert "better" in by["ablation.trump_bonus"].note
    write_claims("durak", claims, tmp_path)
    back = read_claims("durak", tmp_path)
    assert list(back["claim"]) == [c.claim for c in claims]


def _ablation_row(variant: str, n: int, fool: int, opp_fool: int) -> dict:
    return {"key": f"{variant}{n}", "index": 0, "agent": variant, "vs": "EvalAI", "n_players": n,
            "deck": 36, "games": fool + opp_fool, "fool": fool, "opp_fool": opp_fool, "draw": 0,
            "capped": 0, "place": 0, "place2": 0, "bouts": 0}


def test_ablation_note_names_opposite_effects_by_player_count():
    # 2 players: the variant is the fool 45 % (< 1/2); 4 players: 30 % (> 1/4). The mean of
    # the two excesses is 0, so only the note can say that both effects are real.
    v = paper.ABLATIONS["ablation.unbalanced"]
    rows = pd.DataFrame([_ablation_row(v, 2, 4500, 5500), _ablation_row(v, 4, 3000, 7000)])
    claim = next(c for c in analysis.ablation_claims(rows) if c.claim == "ablation.unbalanced")
    assert claim.verdict == "fails"
    assert claim.note.startswith("mixed, not absent: the pooled mean of +0.0 points hides two "
                                 "effects of opposite sign")
    assert ("more often with 4 players (the term helps there) and less often with 2 players "
            "(it hurts there)") in claim.note
    assert "2 players -5.0 points" in claim.note and "4 players +5.0 points" in claim.note
    assert "-0.0" not in claim.ours
    # the reader sees the variant's name, not the agent's key, and points, not "pp"
    assert claim.ours.startswith("EvalAI without the unbalanced-hand penalty: share of the fool")
    assert v not in claim.ours + claim.note and " pp" not in claim.ours + claim.note
    # one interval form, both ends signed: never "+4.1–+5.9" beside "-6.0 to -4.0"
    assert claim.ours.endswith("(95 % CI -0.7 to +0.7 points)")
    assert "2 players -5.0 points (95 % CI -6.0 to -4.0 points)" in claim.note
    assert "4 players +5.0 points (95 % CI +4.1 to +5.9 points)" in claim.note


def test_ranks_bonus_verdict_rests_on_three_of_a_rank():
    # Three of a rank lowers the fool rate at equal value: the article's "many cards of the same
    # value" holds. "2+ of a rank" includes the triples, so it helps too, and the note says so.
    rng = np.random.default_rng(4)
    rows = []
    for i in range(4000):
        mr = rng.integers(1, 4, size=2)
        hv = rng.integers(0, 5000, size=2)
        odds = np.where(mr >= 3, 0.3, 0.5)  # exactly two of a rank: as a single card
        fool = 0 if rng.random() < odds[0] / odds.sum() else 1
        row = {"key": "k", "index": i, "n_players": 2, "deck": 36, "agent": "EvalAI",
               "deck_cards": 36, "fool": fool, "capped": 0}
        for p in range(2):
            row.update({f"place{p}": int(p == fool), f"hv{p}": int(hv[p]), f"rb{p}": 0,
                        f"rbx{p}": 0, f"ub{p}": 0, f"mr{p}": int(mr[p]), f"ms{p}": 2,
                        f"tr{p}": 1})
        rows.append(row)
    claim = next(c for c in analysis.hand_claims(pd.DataFrame(rows))
                 if c.claim == "article.ranks_bonus")
    assert claim.verdict == "holds"
    assert claim.ours.startswith("fool rate -") and "3+ of a rank" in claim.ours
    assert "a pair (vs none) lowers the fool rate as well" in claim.note


def test_claim_ids_cover_spec():
    assert set(analysis.claim_ids()) == SPEC_IDS


# ----------------------------------------------------------------------------- task rows


def test_match_task_sums_a_batch():
    cfg = {"n_players": 3, "deck": 24, "agent": "EvalAI", "vs": "SmallestAI", "batch": 6}
    row = chapter.match_task(cfg, 1, np.random.default_rng(5))
    assert row["games"] == 6
    assert row["fool"] + row["opp_fool"] + row["draw"] + row["capped"] == 6
    assert 0 <= row["place"] <= 2 * (6 - row["capped"]) and row["place2"] >= row["place"]
    again = chapter.match_task(cfg, 1, np.random.default_rng(5))
    assert again == row


def test_hands_and_endgame_task_rows():
    cfg = {"n_players": 2, "deck": 36, "agent": "EvalAI"}
    row = chapter.hands_task(cfg, 0, np.random.default_rng(3))
    assert {f"{c}{p}" for c in analysis.HAND_COLS for p in range(2)} <= set(row)
    assert sorted([row["place0"], row["place1"]]) in ([0, 1], [0, 0])
    end = chapter.endgame_task(cfg, 0, np.random.default_rng(3))
    assert {"bout", "fool", "size0", "size1", "hv0", "hvt1"} <= set(end)
    assert end["bout"] >= 0 and max(end["size0"], end["size1"]) > 0


def test_ci_profile_parameters():
    p = chapter.resolve({"profile": "ci"})
    assert p["games"] == chapter.CI_SIZES["games"] and p["compute_missing"] is True
    with pytest.raises(ValueError, match="games"):
        chapter.resolve({"games": 0})


def test_a_marginal_ablation_is_weighed_against_the_whole_family():
    # Three variants, 2 players, 10,000 decided games each: the same-rank bonus x 100 is the fool
    # in 51.0 % (95 % CI just above 1/2, p about 0.045), the variant without the trump bonus in
    # 60 %, the one without the unbalanced penalty in 50 %. One interval alone says "worse"; Holm's
    # correction for the three (p sorted against 0.05/3, 0.05/2, 0.05) says: only the trump bonus.
    x100, no_trump = paper.ABLATIONS["ablation.bonus_x100"], paper.ABLATIONS["ablation.trump_bonus"]
    rows = pd.DataFrame([_ablation_row(x100, 2, 5100, 4900), _ablation_row(no_trump, 2, 6000, 4000),
                         _ablation_row(paper.ABLATIONS["ablation.unbalanced"], 2, 5000, 5000)])
    by = {c.claim: c for c in analysis.ablation_claims(rows)}
    assert by["ablation.bonus_x100"].verdict == "fails"  # the variant should have won
    assert by["ablation.bonus_x100"].note.startswith("the variant is, if anything, slightly weaker")
    assert "not after Holm's correction for the 3 ablations" in by["ablation.bonus_x100"].note
    assert by["ablation.trump_bonus"].note.endswith("still different from 0 after Holm's "
                                                   "correction for the 3 ablations")
    assert "Holm" not in by["ablation.unbalanced"].note  # nothing to correct: no difference


def test_a_verdict_that_stands_holm_only_just_says_so():
    # two ablations: a clear effect (smallest p, held to 0.05 / 2) and a marginal one (p about
    # 0.012, second, held to 0.05 / 1)
    family = {"a": (0.05, 0.04, 0.06), "b": (0.0025, 0.00055, 0.00445)}
    p, bar = analysis.holm_margin(family, "b")
    assert p == pytest.approx(0.012, abs=5e-4) and bar == pytest.approx(0.05)
    assert analysis.holm_margin(family, "a")[1] == pytest.approx(0.05 / 2)
