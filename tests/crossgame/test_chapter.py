"""The cross-game chapter's play loop, tables and claim rule on small, hand-made inputs."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from gameai.crossgame import analysis, chapter
from gameai.crossgame.play import SETTINGS, deal_rng, play


@pytest.mark.parametrize("game", sorted(SETTINGS))
def test_every_player_and_budget_gets_the_same_deal(game):
    """The whole state, every slot of it, depends on the deal's seed alone (a slot left as
    uninitialised memory once made this flaky for Durak)."""
    a, ga = SETTINGS[game].new_game(deal_rng(2012, game, 7), 0)
    _scratch = [np.random.default_rng(1).random(a.size) for _ in range(3)]  # reuse freed memory
    b, gb = SETTINGS[game].new_game(deal_rng(2012, game, 7), 0)
    c, _ = SETTINGS[game].new_game(deal_rng(2012, game, 8), 0)
    assert np.array_equal(a, b) and np.array_equal(ga, gb) and not np.array_equal(a, c)


def test_play_rotates_the_seat_and_counts_searched_decisions():
    rows = [play("durak2", "ismcts", 5, i, 1, np.random.default_rng(i)) for i in range(4)]
    assert [r["seat"] for r in rows] == [0, 1, 0, 1]
    assert all(r["decisions"] > 0 and 1 <= r["nodes"] <= 6 for r in rows)
    base = play("durak2", "baseline", 5, 0, 1, np.random.default_rng(0))
    assert base["decisions"] == 0 and base["fool"] in (0.0, 1.0)


def _rows(game, spec):
    """Rows with a given headline per deal: ``spec`` maps (player, budget) to a 0/1 list."""
    out = []
    for (player, budget), values in spec.items():
        for i, v in enumerate(values):
            out.append({"game": game, "player": player, "budget": budget, "index": i,
                        "headline": float(v), "nodes": 1.0, "decisions": 1, "seconds": 0.1})
    return pd.DataFrame(out)


TUNED = "det_uct_tuned"


def test_the_claim_fails_when_ismcts_is_clearly_worse_holds_when_level_on_many_deals():
    n = 200
    ones, zeros = [1] * n, [0] * n
    mixed = [i % 2 for i in range(n)]
    worse = _rows("kingdomino", {("baseline", 0): mixed, (TUNED, 100): ones,
                                 ("ismcts", 100): zeros})
    assert analysis.ismcts_claim("kingdomino", worse, n).verdict == "fails"
    # identical play on every deal: equivalent, so the claim holds
    level = _rows("kingdomino", {("baseline", 0): mixed, (TUNED, 100): mixed,
                                 ("ismcts", 100): mixed})
    claim = analysis.ismcts_claim("kingdomino", level, n)
    assert claim.verdict == "holds" and "100: equivalent within 3 points" in claim.note
    assert analysis.ismcts_claim("kingdomino", level, n + 1).verdict == "pending"


def test_the_claim_is_judged_against_the_best_split_not_the_fixed_one():
    n = 200
    mixed = [i % 2 for i in range(n)]
    rows = _rows("kingdomino", {("det_uct", 100): [0] * n, (TUNED, 100): [1] * n,
                                ("ismcts", 100): mixed})
    assert analysis.ismcts_claim("kingdomino", rows, n).verdict == "fails"
    assert analysis.ismcts_claim("kingdomino", rows, n, rival="det_uct").verdict == "holds"


def test_a_level_but_noisy_budget_leaves_the_claim_undecided_and_says_what_would_decide():
    # 40 deals each way of 200: level on average, but +-6 points wide, wider than the margin
    n = 200
    mixed = [i % 2 for i in range(n)]
    det = [1] * 40 + [0] * 40 + mixed[80:]
    ism = [0] * 40 + [1] * 40 + mixed[80:]
    rows = _rows("kingdomino", {(TUNED, 300): det, ("ismcts", 300): ism})
    claim = analysis.ismcts_claim("kingdomino", rows, n)
    assert claim.verdict == "undecided"
    assert "300: undecided at 200 games (about" in claim.note


def test_for_durak_a_lower_fool_rate_is_better():
    n = 100
    fewer_fools = _rows("durak2", {("baseline", 0): [1] * n, (TUNED, 30): [0] * n,
                                   ("det_uct", 30): [0] * n, ("ismcts", 30): [1] * n})
    assert analysis.ismcts_claim("durak2", fewer_fools, n).verdict == "fails"
    table = analysis.strength_table(fewer_fools)
    smallest = analysis.smallest_budget_table(table)
    assert smallest.loc["durak2", "det_uct"] == 30 and smallest.loc["durak2", "ismcts"] is None


def test_the_sweep_picks_the_best_number_on_common_deals_and_ties_go_to_fewer():
    rows = pd.DataFrame(
        [{"game": "kingdomino", "budget": 100, "n_det": k, "index": i, "headline": float(v)}
         for k, wins in ((1, 3), (5, 6), (10, 6)) for i, v in enumerate([1] * wins + [0] * 4)]
        # a fourth number with only 2 deals: all are compared on their first 2 deals
        + [{"game": "kingdomino", "budget": 300, "n_det": k, "index": i, "headline": v}
           for k, vals in ((1, [0.0, 0.0, 1.0, 1.0]), (2, [1.0, 0.0])) for i, v in enumerate(vals)]
        + [{"game": "durak2", "budget": 100, "n_det": k, "index": i, "headline": v}
           for k, vals in ((1, [1.0, 1.0]), (2, [0.0, 1.0])) for i, v in enumerate(vals)])
    best = analysis.best_det_counts(rows)
    assert best[("kingdomino", 100)] == 5  # 5 and 10 tie on 6 of 10: the fewer
    assert best[("kingdomino", 300)] == 2  # on deals 0-1: 0 wins against 1
    assert best[("durak2", 100)] == 2  # fewer fools is better
    table = analysis.det_sweep_table(rows)
    assert table.loc[table["best"], "n_det"].tolist() == [5, 2, 2]


def test_a_sweep_cell_still_computing_is_left_out():
    rows = pd.DataFrame([{"game": "tarok", "budget": b, "n_det": k, "index": i, "headline": 1.0}
                         for b, n in ((100, 4), (300, 2)) for k in (1, 5) for i in range(n)])
    rows = rows[~((rows["budget"] == 300) & (rows["n_det"] == 1) & (rows["index"] == 1))]
    kept = analysis.complete_sweep(rows, 2)
    assert sorted(set(kept["budget"])) == [100]
    assert len(analysis.complete_sweep(rows, 1)) == len(rows)


def test_the_fixed_split_and_explicit_numbers_of_determinizations():
    from gameai.crossgame.search import det_count
    assert [det_count(b, 0) for b in (5, 10, 100, 3000)] == [1, 1, 10, 10]
    assert det_count(100, 40) == 40 and det_count(10, 40) == 10 and det_count(3, 1) == 1
    assert chapter.det_counts_at((1, 2, 5, 10, 20, 40), 30) == [1, 2, 5, 10, 20]


def test_the_sweep_and_the_tuned_player_stay_in_their_own_parts():
    frames = {"durak2_b10": pd.DataFrame({"game": ["durak2"], "player": ["ismcts"], "budget": [10],
                                          "index": [0], "fool": [1.0]}),
              "tuned_durak2_b10": pd.DataFrame({"game": ["durak2"], "player": [TUNED],
                                                "budget": [10], "n_det": [5], "index": [0],
                                                "fool": [0.0]}),
              "determinizations_durak2_b10": pd.DataFrame(
                  {"game": ["durak2"], "player": ["det_uct"], "budget": [10], "n_det": [2],
                   "index": [0], "fool": [0.0]})}
    res = SimpleNamespace(frames=frames)
    assert sorted(analysis.tidy(res)["player"]) == ["det_uct_tuned", "ismcts"]
    assert analysis.tidy_part(res, "determinizations")["n_det"].tolist() == [2]
    with pytest.raises(ValueError, match="part"):
        analysis.tidy_part(res, "sweep")
    # the tuned player is determinized UCT with its config's number of determinizations
    cfg = {"game": "durak2", "player": TUNED, "budget": 30, "deal_seed": 1, "n_det": 3}
    untimed = lambda row: {k: v for k, v in row.items() if k != "seconds"}
    a = untimed(chapter.game_task(cfg, 3, np.random.default_rng(3)))
    b = untimed(play("durak2", "det_uct", 30, 3, 1, np.random.default_rng(3), n_det=3))
    fixed = untimed(play("durak2", "det_uct", 30, 3, 1, np.random.default_rng(3)))
    assert a == b == fixed and a["decisions"] > 0  # the fixed split at 30 iterations is 3 trees
    one = untimed(play("durak2", "det_uct", 30, 3, 1, np.random.default_rng(3), n_det=1))
    assert one["nodes"] != b["nodes"]  # one tree of 30 iterations (one root), not three of 10


def test_bad_parameters_are_refused_before_any_work():
    with pytest.raises(ValueError, match="budgets"):
        chapter.resolve({"budgets": (0,)})
    with pytest.raises(ValueError, match="games"):
        chapter.resolve({"games": ("chess",)})


def test_percentage_points_never_print_minus_zero():
    assert analysis._pp(-0.0004) == "+0.0" and analysis._pp(0.0571) == "+5.7"
    assert analysis._pp(-0.074) == "-7.4"


def _sensitivity_rows(game, spec):
    """Exploration-check rows: ``spec`` maps (player, constant) to a 0/1 list per deal."""
    out = []
    for (player, c), values in spec.items():
        for i, v in enumerate(values):
            out.append({"game": game, "player": player, "budget": 300, "exploration": c,
                        "index": i, "headline": float(v)})
    return pd.DataFrame(out)


def test_the_exploration_check_flags_a_constant_only_when_it_clearly_differs_from_ours():
    n = 200
    mixed = [i % 2 for i in range(n)]
    rows = _sensitivity_rows("kingdomino", {("ismcts", 0.7): mixed, ("ismcts", 1.4): [1] * n,
                                            ("ismcts", 0.25): mixed})
    t = analysis.exploration_table(rows).set_index("exploration")
    assert t.loc[1.4, "beats_reference"] and not t.loc[1.4, "loses_to_reference"]
    assert not t.loc[0.25, "beats_reference"] and not t.loc[0.7, "beats_reference"]
    assert t.loc[1.4, "vs_reference"] == pytest.approx(0.5)
    # Durak: fewer fools is better, so a constant with more fools loses to ours
    rows = _sensitivity_rows("durak2", {("det_uct", 0.7): mixed, ("det_uct", 1.4): [1] * n})
    t = analysis.exploration_table(rows).set_index("exploration")
    assert t.loc[1.4, "loses_to_reference"] and t.loc[1.4, "vs_reference"] == pytest.approx(-0.5)


def test_the_exploration_check_plays_its_own_deals_and_stays_out_of_the_main_study():
    p = chapter.resolve({"profile": "ci"})
    assert p["exploration_values"] == (0.7, 1.4) and p["exploration_games"] == 2
    frames = {"durak2_b10": pd.DataFrame({"game": ["durak2"], "player": ["ismcts"], "budget": [10],
                                          "index": [0], "fool": [1.0]}),
              "exploration_durak2": pd.DataFrame({"game": ["durak2"], "player": ["ismcts"],
                                                  "budget": [10], "exploration": [1.4],
                                                  "index": [0], "fool": [0.0]})}
    res = SimpleNamespace(frames=frames)
    assert analysis.tidy(res)["fool"].tolist() == [1.0]
    assert analysis.tidy(res, sensitivity=True)["exploration"].tolist() == [1.4]
    # the constant reaches the search: a greedy (c = 0) ISMCTS and a c = 100 one differ on a deal
    a = play("durak2", "ismcts", 30, 3, 1, np.random.default_rng(3), exploration=0.0)
    b = play("durak2", "ismcts", 30, 3, 1, np.random.default_rng(3), exploration=100.0)
    assert a["decisions"] > 0 and (a["nodes"], a["fool"]) != (b["nodes"], b["fool"])


def test_bad_exploration_parameters_are_refused():
    with pytest.raises(ValueError, match="exploration_values"):
        chapter.resolve({"exploration_values": (-1.0,)})
    with pytest.raises(ValueError, match="exploration_budget"):
        chapter.resolve({"exploration_budget": 0})


def test_a_budget_is_costed_from_the_nearest_smaller_budget_of_300_or_more():
    like = chapter.cost_like(chapter.tuned_key, "durak2", 10000)
    assert like == (("tuned_durak2_b3000", 10000 / 3000), ("tuned_durak2_b1000", 10.0),
                    ("tuned_durak2_b300", 10000 / 300))
    assert chapter.cost_like(chapter.strength_key, "tarok", 1000) == (("tarok_b300", 1000 / 300),)
    assert chapter.cost_like(chapter.strength_key, "tarok", 300) == ()  # measured, not scaled


def _fools(game, player, budget, fools, **extra):
    return pd.DataFrame({"game": game, "player": player, "budget": budget,
                         "index": range(len(fools)), "fool": [float(f) for f in fools], **extra})


def test_the_second_look_extends_the_budgets_the_first_n_games_leave_undecided():
    # budget 10: ISMCTS clearly better on the first 100 deals (later deals, however they read,
    # do not change the choice); budget 30: level but noisy, undecided -> 1,000 games of the
    # strength cell and of the tuned rival, with the sweep's best number (5)
    clear = _fools("durak2", "ismcts", 10, [0] * 100 + [1] * 100)
    clear_rival = _fools("durak2", TUNED, 10, [1] * 60 + [0] * 100 + [1] * 40, n_det=2)
    noisy = _fools("durak2", "ismcts", 30, [1, 0] * 50)
    noisy_rival = _fools("durak2", TUNED, 30, [0, 1] * 50, n_det=5)
    sweep = pd.concat([_fools("durak2", "det_uct", b, [k != best] * 4, n_det=k)
                       for b, best in ((10, 2), (30, 5)) for k in (1, 2, 5)])
    frames = {"durak2_b10": clear, "tuned_durak2_b10": clear_rival, "durak2_b30": noisy,
              "tuned_durak2_b30": noisy_rival, "determinizations_durak2_b10": sweep}
    asked = []
    res = SimpleNamespace(
        frames=frames, computes=lambda group: True,
        params={"games": ("durak2",), "searches": ("flat_mc", "det_uct", "ismcts"),
                "n_games": 100, "confirm_games": 1000, "seed": 1},
        get=lambda key, *args, **kw: asked.append((key, args[3], [c.get("n_det") for c in args[2]])))
    assert analysis.undecided_budgets(analysis.tidy(res), "durak2", 100) == [30]
    # on all 200 deals budget 10 would read undecided: the choice looks at the first 100 alone
    assert analysis.undecided_budgets(analysis.tidy(res), "durak2", 200) == [10]
    chapter.confirm(res)
    assert asked == [("durak2_b30", 1000, [None, None, None]), ("tuned_durak2_b30", 1000, [5])]
    # no second look with confirm_games not above n_games
    asked.clear()
    res.params["confirm_games"] = 100
    chapter.confirm(res)
    assert asked == []
